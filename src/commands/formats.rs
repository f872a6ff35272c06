//! `ragcite formats`: every answer format (the readers written in Rust, the built-in profiles,
//! the user's `[[format]]` profiles), and `ragcite formats detect FILE`: which of them a file
//! matches, with their scores, and which one reads it.

use std::io::{self, Write};

use anyhow::{Context, Result};
use ragcite::AnswerFormat;
use ragcite::escape::printable_line;
use ragcite::input::{self, InputError, response};
use serde_json::{Value, json};

use super::written;
use crate::cli::{FormatsAction, FormatsArgs, ListFormat};
use crate::exit::ExitStatus;
use crate::files::read_input;

pub fn run(args: &FormatsArgs) -> Result<ExitStatus> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    let result = match &args.action {
        None => list(&mut out, args.format),
        Some(FormatsAction::Detect {
            file,
            max_input_size,
        }) => {
            let (bytes, name) = read_input(file, *max_input_size)?;
            let text = input::decode(&bytes).with_context(|| name.clone())?;
            let detected = detect(&mut out, args.format, &name, text)?;
            written(detected.written.and_then(|()| out.flush()), "list")?;
            // A file that `check` could not read is an input error here too.
            return Ok(match detected.readable {
                true => ExitStatus::Success,
                false => ExitStatus::Error,
            });
        }
    };
    written(result.and_then(|()| out.flush()), "list")?;
    Ok(ExitStatus::Success)
}

/// What `detect` wrote, and whether the format it chose reads the file.
struct Detected {
    written: io::Result<()>,
    readable: bool,
}

/// What kind of format it is, as the list says.
fn kind(format: AnswerFormat) -> &'static str {
    match format {
        AnswerFormat::Profile(p) if p.0.user => "user profile",
        AnswerFormat::Profile(p) if !p.0.has_answer() => "sources profile",
        AnswerFormat::Profile(_) => "profile",
        _ => "reader",
    }
}

fn source(format: AnswerFormat) -> &'static str {
    match format {
        AnswerFormat::Profile(p) => p.0.spec.source.as_str(),
        _ => "",
    }
}

fn list(out: &mut dyn Write, format: ListFormat) -> io::Result<()> {
    let formats = AnswerFormat::every();
    match format {
        ListFormat::Json => {
            let items: Vec<Value> = formats
                .iter()
                .map(|f| {
                    json!({
                        "name": f.name(),
                        "kind": kind(*f),
                        "title": f.summary(),
                        "source": source(*f),
                    })
                })
                .collect();
            serde_json::to_writer_pretty(&mut *out, &json!({ "formats": items }))?;
            writeln!(out)
        }
        ListFormat::Table => {
            let width = formats.iter().map(|f| f.name().len()).max().unwrap_or(0);
            for f in &formats {
                writeln!(
                    out,
                    "{:width$}  {:15}  {}",
                    printable_line(f.name()),
                    kind(*f),
                    printable_line(f.summary())
                )?;
            }
            Ok(())
        }
    }
}

/// Which format reads `text` (the file `name`), with the candidates' scores. The chosen format
/// reads the file as `check` would, so that a file `check` rejects (broken JSON that only looks
/// like a provider's, a field of the wrong type) gives its error: in the document's `error`
/// (and exit 2), or as the error line of the table's run (nothing else is written then).
fn detect(out: &mut dyn Write, format: ListFormat, name: &str, text: &str) -> Result<Detected> {
    let chosen = response::detect(text).and_then(|format| match format {
        AnswerFormat::Text => Ok(format),
        // A file of sources only, which `check` reads as CHUNKS.
        AnswerFormat::Profile(profile) if !profile.0.has_answer() => Ok(format),
        format => response::read(text, format).map(|_| format),
    });
    // JSON that no format matches is an answer to the question (`error` says so); a file that
    // is broken, or that the format chosen cannot read, is an input error.
    let readable = !matches!(&chosen, Err(e) if !matches!(e, InputError::UnknownJson { .. }));
    let start = text.trim_start();
    let value: Option<Value> = if start.starts_with(['{', '[']) {
        serde_json::Deserializer::from_str(start)
            .into_iter::<Value>()
            .next()
            .and_then(Result::ok)
    } else {
        None
    };
    let candidates = value.as_ref().map(response::candidates).unwrap_or_default();
    let (reads, error) = match &chosen {
        Ok(f) => (Some(f.name()), None),
        Err(e) => (None, Some(e.to_string())),
    };
    let tied = candidates.len() > 1 && candidates[0].score == candidates[1].score;
    if let (ListFormat::Table, Some(error), false) = (format, &error, readable) {
        anyhow::bail!("{name}: {error}");
    }
    let written = match format {
        ListFormat::Json => {
            let items: Vec<Value> = candidates
                .iter()
                .map(|c| json!({"name": c.format.name(), "kind": kind(c.format), "score": c.score}))
                .collect();
            serde_json::to_writer_pretty(
                &mut *out,
                &json!({
                    "file": name,
                    "format": reads,
                    "error": error,
                    "tie": tied,
                    "candidates": items,
                }),
            )
            .map_err(io::Error::from)
            .and_then(|()| writeln!(out))
        }
        ListFormat::Table => (|| {
            let name = printable_line(name);
            match (reads, &error) {
                (Some(reads), _) => writeln!(out, "{name}: read as {reads}")?,
                (None, Some(error)) => writeln!(out, "{name}: {}", printable_line(error))?,
                (None, None) => {}
            }
            for c in &candidates {
                writeln!(
                    out,
                    "  {:3}  {}  ({})",
                    c.score,
                    printable_line(c.format.name()),
                    kind(c.format)
                )?;
            }
            if tied {
                writeln!(
                    out,
                    "  {} and {} tie: the first reads it; name the other with --answer-format",
                    printable_line(candidates[0].format.name()),
                    printable_line(candidates[1].format.name())
                )?;
            }
            Ok(())
        })(),
    };
    Ok(Detected { written, readable })
}
