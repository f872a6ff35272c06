//! What `ragcite quote` writes: one line of text, or the match as one line of JSON.

use std::io::{self, Write};

use crate::escape::printable_line;
use crate::quote::QuoteMatch;
use crate::report::plural;

/// The match as one line of JSON.
pub fn write_json(out: &mut dyn Write, found: &QuoteMatch) -> io::Result<()> {
    crate::escape::to_writer(&mut *out, found)?;
    writeln!(out)
}

/// The match as one line of text: where it was found, or the closest passage and how close,
/// the passage on one line with what could harm a terminal escaped.
pub fn write_text(out: &mut dyn Write, found: &QuoteMatch) -> io::Result<()> {
    writeln!(out, "{}", describe(found))
}

fn describe(found: &QuoteMatch) -> String {
    match (&found.offsets, &found.closest) {
        (Some([start, end]), _) if found.found => {
            format!("found at characters {start}..{end}")
        }
        (_, Some(closest)) => format!(
            "not found; closest passage at characters {}..{} (similarity {:.2}, {} {}): {}",
            closest.offsets[0],
            closest.offsets[1],
            closest.similarity,
            closest.differing_words,
            plural(closest.differing_words, "word differs", "words differ"),
            printable_line(&closest.text)
        ),
        _ => "not found; no passage is close".to_string(),
    }
}
