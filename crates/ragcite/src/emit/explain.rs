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
    use crate::support::model::features::{Feature, WINDOW};
    let width = Feature::ALL
        .iter()
        .map(|f| f.name().len())
        .max()
        .unwrap_or(0);
    for feature in Feature::ALL {
        let (name, meaning) = (feature.name(), feature.meaning());
        let meaning = meaning.replace("WINDOW", &WINDOW.to_string());
        writeln!(out, "{name:width$}  {meaning}")?;
    }
    Ok(())
}

/// Each sentence of a checked answer: its verdict and support; the passage of the chunk that
/// decided, with the sentence's words it holds marked; the words, figures and contradiction
/// that made the verdict; each citation's part; and the features that pushed its support up
/// or down the most, with what each measures. What the inputs hold is written as
/// [`printable`] makes it.
pub fn write_sentences(
    out: &mut dyn Write,
    report: &crate::Report,
    chunks: &[crate::input::Chunk],
    analyzer: &crate::words::Analyzer,
    threshold: f64,
    claims: Option<(&crate::support::model::claims::ClaimModel, f64)>,
) -> io::Result<()> {
    use crate::support::model::features::{Feature, WINDOW};
    for (k, sentence) in report.result.sentences.iter().enumerate() {
        if k > 0 {
            writeln!(out)?;
        }
        writeln!(
            out,
            "{}. {}",
            sentence.index,
            printable(&crate::input::collapse_white_space(&sentence.sentence))
        )?;
        let verdict = sentence.verdict;
        if let Some(kind) = sentence.kind {
            // `not a claim: pleasantry ("Let me know") — a greeting, thanks, wish or offer`.
            writeln!(
                out,
                "   {} — {}",
                printable(&super::table::not_a_claim(
                    kind,
                    sentence.kind_cue.as_deref()
                )),
                kind.reason()
            )?;
            write_claim_score(out, sentence, claims)?;
            continue;
        }
        if sentence.cited.is_empty() {
            writeln!(out, "   {}: {}", verdict.name(), verdict.summary())?;
            write_claim_score(out, sentence, claims)?;
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
        let chunk_text = |id: &str| chunks.iter().find(|c| c.id == id).map(|c| c.text.as_str());
        if let Some(contradiction) = &sentence.contradiction {
            writeln!(
                out,
                "   chunk {} says the opposite ({}): “{}” against “{}”",
                printable(&contradiction.chunk),
                contradiction.kind.name(),
                printable(&contradiction.chunk_words),
                printable(&contradiction.sentence_words),
            )?;
            writeln!(
                out,
                "     {}",
                printable(&crate::input::collapse_white_space(&contradiction.passage))
            )?;
            if let Some(reading) = &contradiction.reading {
                write_reading(out, analyzer, reading, None, "opposite")?;
            }
        } else if let Some(id) = &sentence.deciding_chunk
            && let Some(text) = chunk_text(id)
        {
            match crate::support::passage::best_passage(analyzer, &sentence.sentence, text) {
                Some(passage) => {
                    writeln!(out, "   decided by chunk {}:", printable(id))?;
                    writeln!(out, "     {}", marked(text, &passage))?;
                }
                None => writeln!(
                    out,
                    "   decided by chunk {}, which holds none of its words",
                    printable(id)
                )?,
            }
        }
        if let Some(agreement) = &sentence.agreement {
            write_reading(
                out,
                analyzer,
                &agreement.reading,
                Some(&agreement.chunk),
                "agree (two negatives)",
            )?;
        }
        if !sentence.missing_words.is_empty() {
            writeln!(
                out,
                "   words no cited chunk holds: {}",
                printable(&sentence.missing_words.join(", "))
            )?;
        }
        let found: Vec<&str> = sentence
            .check_worthy
            .iter()
            .filter(|n| !sentence.missing_numbers.contains(n))
            .map(String::as_str)
            .collect();
        if !found.is_empty() {
            writeln!(
                out,
                "   numbers found in a cited chunk: {}",
                printable(&found.join(", "))
            )?;
        }
        if !sentence.missing_numbers.is_empty() {
            writeln!(
                out,
                "   numbers no cited chunk holds: {}",
                printable(&sentence.missing_numbers.join(", "))
            )?;
        }
        if sentence.cited_chunks.len() > 1 {
            let parts: Vec<String> = sentence
                .cited_chunks
                .iter()
                .map(|c| {
                    let only = if c.adds.is_empty() || c.finding.name() == "supports" {
                        String::new()
                    } else {
                        format!(" (only it holds {})", c.adds.join(", "))
                    };
                    format!("{} {}{only}", c.chunk, c.finding.name())
                })
                .collect();
            writeln!(out, "   citations: {}", printable(&parts.join("; ")))?;
        }
        if !sentence.factors.is_empty() {
            writeln!(out, "   what moved the support most:")?;
        }
        for factor in &sentence.factors {
            let meaning = Feature::named(factor.feature)
                .map(|f| f.meaning().replace("WINDOW", &WINDOW.to_string()))
                .unwrap_or_default();
            write_factor(out, factor, &meaning)?;
        }
    }
    Ok(())
}

/// Where the claim scorer decided the sentence: its score against the claim threshold, and
/// the features that pushed it up or down the most, with what each measures.
fn write_claim_score(
    out: &mut dyn Write,
    sentence: &crate::report::SentenceResult,
    claims: Option<(&crate::support::model::claims::ClaimModel, f64)>,
) -> io::Result<()> {
    use crate::support::model::claims::Feature;
    let (Some(score), Some(features), Some((model, threshold))) =
        (sentence.claim_score, sentence.claim_features, claims)
    else {
        return Ok(());
    };
    let compared = if score + 1e-9 >= threshold {
        "≥"
    } else {
        "<"
    };
    writeln!(
        out,
        "   claim score {score:.2} {compared} claim threshold {threshold:.2}; what moved it most:"
    )?;
    for factor in model.factors(&features, 3) {
        let meaning = Feature::named(factor.feature).map_or("", Feature::describe);
        write_factor(out, &factor, meaning)?;
    }
    Ok(())
}

/// A feature that moved a score: its push up or down, its name and value, what it measures.
fn write_factor(
    out: &mut dyn Write,
    factor: &crate::report::features::Factor,
    meaning: &str,
) -> io::Result<()> {
    let direction = if factor.effect >= 0.0 { "up" } else { "down" };
    writeln!(
        out,
        "   {direction:>6} {:+.2}  {} = {}: {meaning}",
        factor.effect,
        factor.feature,
        number(factor.value)
    )
}

/// A passage of `text` with the sentence's words in it marked `*like this*`, `…` where it is
/// cut from the chunk, white space collapsed.
fn marked(text: &str, passage: &crate::support::passage::Passage) -> String {
    let mut out = String::new();
    if passage.span.start > 0 {
        out.push('…');
    }
    // Overlapping words (the character pairs of Chinese and Japanese: 富士, 士山) are marked as
    // one run (*富士山*).
    let mut runs: Vec<std::ops::Range<usize>> = Vec::new();
    for word in &passage.matched {
        match runs.last_mut() {
            Some(run) if word.start < run.end => run.end = run.end.max(word.end),
            _ => runs.push(word.clone()),
        }
    }
    let mut at = passage.span.start;
    for word in &runs {
        out.push_str(&printable(&collapsed_keep_edges(&text[at..word.start])));
        out.push('*');
        out.push_str(&printable(&text[word.clone()]));
        out.push('*');
        at = word.end;
    }
    if passage.span.end < text.trim_end().len() {
        out.push('…');
    }
    out
}

/// White space runs as one space, a space kept at either edge.
fn collapsed_keep_edges(text: &str) -> String {
    let mut out = String::new();
    let mut space = false;
    for c in text.chars() {
        if c.is_whitespace() {
            space = true;
        } else {
            if space {
                out.push(' ');
            }
            space = false;
            out.push(c);
        }
    }
    if space {
        out.push(' ');
    }
    out
}

/// A feature's value: whole numbers without decimals.
fn number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{value:.0}")
    } else {
        format!("{value:.2}")
    }
}

/// How the polarity rule read a predicate on each side (`the predicate: sentence “announced”,
/// denied (“has not”); chunk 2 “confirmation”, denied (“no”): agree (two negatives)`), and what
/// it concluded. `chunk`: the chunk's id, where the line above does not name it.
fn write_reading(
    out: &mut dyn Write,
    analyzer: &crate::words::Analyzer,
    reading: &crate::report::PolarityReading,
    chunk: Option<&str>,
    conclusion: &str,
) -> std::io::Result<()> {
    let side = |s: &crate::report::PredicateSide| match &s.negation {
        Some(negation) => format!(
            "“{}”, denied (“{}”)",
            printable(&s.word),
            printable(negation)
        ),
        None => format!("“{}”, stated", printable(&s.word)),
    };
    // Two words of one predicate: a synonym or a related form in the lexicon.
    let lexicon = analyzer.stem_id(&reading.sentence.word) != analyzer.stem_id(&reading.chunk.word);
    writeln!(
        out,
        "   the predicate: sentence {}; chunk {}{}{}: {}",
        side(&reading.sentence),
        chunk.map_or(String::new(), |id| format!("{} ", printable(id))),
        side(&reading.chunk),
        if lexicon {
            " (one predicate in the lexicon: a synonym or a related form)"
        } else {
            ""
        },
        conclusion
    )
}
