//! What `ragcite explain` writes: each verdict's name, summary and explanation, the one text
//! the methodology's verdict section is checked against.

use std::io::{self, Write};

use crate::report::Verdict;

/// The verdicts' explanations, separated by blank lines.
pub fn write_explanations(out: &mut dyn Write, verdicts: &[Verdict]) -> io::Result<()> {
    for (k, verdict) in verdicts.iter().enumerate() {
        if k > 0 {
            writeln!(out)?;
        }
        writeln!(out, "{}: {}", verdict.name(), verdict.summary())?;
        writeln!(out)?;
        writeln!(out, "{}", verdict.explanation())?;
    }
    Ok(())
}
