//! What `ragcite explain` writes: each verdict's name, summary and explanation, the one text
//! the methodology's verdict section is checked against.

use std::io::{self, Write};

use crate::escape::printable;
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

/// The support model's features, each with what it measures.
pub fn write_features(out: &mut dyn Write) -> io::Result<()> {
    use crate::support::features::{MEANINGS, NAMES, WINDOW};
    let width = NAMES.iter().map(|n| n.len()).max().unwrap_or(0);
    for (name, meaning) in NAMES.iter().zip(MEANINGS) {
        let meaning = meaning.replace("WINDOW", &WINDOW.to_string());
        writeln!(out, "{name:width$}  {meaning}")?;
    }
    Ok(())
}

/// Each sentence of a checked answer: its verdict and support, and the features that pushed
/// its support up or down the most, with what each measures. What the answer holds is
/// written as [`printable`] makes it.
pub fn write_sentences(
    out: &mut dyn Write,
    report: &crate::Report,
    threshold: f64,
) -> io::Result<()> {
    use crate::support::features::{MEANINGS, NAMES, WINDOW};
    for (k, sentence) in report.result.sentences.iter().enumerate() {
        if k > 0 {
            writeln!(out)?;
        }
        let text = sentence
            .sentence
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        writeln!(out, "{}. {}", sentence.index, printable(&text))?;
        let verdict = sentence.verdict;
        if sentence.cited.is_empty() {
            writeln!(out, "   {}: {}", verdict.name(), verdict.summary())?;
            continue;
        }
        let compared = if sentence.support + 1e-9 >= threshold {
            "≥"
        } else {
            "<"
        };
        writeln!(
            out,
            "   {}: support {:.2} {compared} threshold {threshold:.2}; {}",
            verdict.name(),
            sentence.support,
            verdict.summary()
        )?;
        if !sentence.missing_numbers.is_empty() {
            writeln!(
                out,
                "   numbers no cited chunk holds: {}",
                printable(&sentence.missing_numbers.join(", "))
            )?;
        }
        for factor in &sentence.factors {
            let meaning = NAMES
                .iter()
                .position(|n| *n == factor.feature)
                .map(|k| MEANINGS[k].replace("WINDOW", &WINDOW.to_string()))
                .unwrap_or_default();
            let direction = if factor.effect >= 0.0 { "up" } else { "down" };
            writeln!(
                out,
                "   {direction:>4} {:+.2}  {} = {}: {meaning}",
                factor.effect,
                factor.feature,
                number(factor.value)
            )?;
        }
    }
    Ok(())
}

/// A feature's value: whole numbers without decimals.
fn number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{value:.0}")
    } else {
        format!("{value:.2}")
    }
}
