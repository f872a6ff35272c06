//! The default output: a table of sentences, a table of chunks, the warnings and a one-line
//! summary. Colour only underlines what the words already say.
//!
//! Text from the inputs is made printable before it goes into a cell; colour is a property of
//! the cell that comfy-table applies to each line after layout, so it is never measured as
//! text, never cut by wrapping and never escaped.

use std::io::{self, Write};

use comfy_table::{Attribute, Cell, Color, ColumnConstraint, ContentArrangement, Table, presets};
use owo_colors::OwoColorize;

use super::{BatchEmitter, BatchEnd, BatchInputs, Emitter, Run, batch_summary_line, summary_line};
use crate::batch::RecordOutcome;
use crate::report::{ChunkStatus, QuoteCheck, SentenceResult, Verdict, preview};

/// Text from the inputs made safe for a terminal: control characters (an escape sequence in an
/// answer could retitle the terminal or erase lines of the report) become `\u{…}` escapes.
/// Line breaks stay: cells use them for their lines.
fn printable(text: &str) -> String {
    if !text.chars().any(|c| c.is_control() && c != '\n') {
        return text.to_string();
    }
    text.chars()
        .map(|c| {
            if c.is_control() && c != '\n' {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Missing words shown per sentence before the rest are counted.
const MISSING_WORDS_SHOWN: usize = 8;

/// Writes the human-readable tables.
#[derive(Debug, Clone, Copy)]
pub struct TableEmitter {
    /// Whether to colour verdicts, statuses and the summary.
    pub color: bool,
    /// Width of the terminal (or of the output) in columns.
    pub width: u16,
}

impl TableEmitter {
    fn paint_verdict(verdict: Verdict) -> Cell {
        let cell = Cell::new(verdict.name());
        match verdict {
            Verdict::Supported => cell.fg(Color::DarkGreen),
            Verdict::NumberMismatch | Verdict::UnsupportedCitation | Verdict::Misquote => {
                cell.fg(Color::DarkRed)
            }
            Verdict::WeakSupport => cell.fg(Color::DarkYellow),
            Verdict::UncitedClaim => cell.fg(Color::DarkMagenta),
            Verdict::NoClaim => cell.add_attribute(Attribute::Dim),
        }
    }

    fn paint_status(status: ChunkStatus) -> Cell {
        let cell = Cell::new(status.name());
        match status {
            ChunkStatus::Used => cell.fg(Color::DarkGreen),
            ChunkStatus::CitedButNotSupporting => cell.fg(Color::DarkRed),
            ChunkStatus::RelevantButUncited => cell.fg(Color::DarkYellow),
            ChunkStatus::Unused => cell.add_attribute(Attribute::Dim),
        }
    }

    /// A table whose first `fixed` columns keep their content width (names are never split);
    /// the others share what is left.
    fn new_table(&self, fixed: usize) -> Table {
        let mut table = Table::new();
        table
            .load_style(presets::UTF8_FULL_CONDENSED)
            .set_content_arrangement(ContentArrangement::Dynamic)
            .set_width(self.width)
            .set_constraints(std::iter::repeat_n(ColumnConstraint::ContentWidth, fixed));
        // Whether stdout is a terminal was decided with --color; comfy-table must not decide
        // again.
        if self.color {
            table.force_no_tty().enforce_styling().style_text_only();
        } else {
            table.force_no_tty();
        }
        table
    }

    /// Room for the sentence column: what the other columns leave, within reason.
    fn text_budget(&self, others: usize) -> usize {
        usize::from(self.width)
            .saturating_sub(others)
            .clamp(20, 120)
    }
}

/// What is wrong with a sentence, one item a line.
fn problems(s: &SentenceResult) -> String {
    let mut lines = Vec::new();
    if !s.unknown_markers.is_empty() {
        lines.push(format!("unknown markers: {}", s.unknown_markers.join(", ")));
    }
    for quote in s.quotes.iter().filter(|q| !q.found()) {
        lines.push(misquote_line(quote));
    }
    if !s.missing_numbers.is_empty() {
        lines.push(format!("missing numbers: {}", s.missing_numbers.join(", ")));
    }
    let shows_words = matches!(
        s.verdict,
        Verdict::UnsupportedCitation | Verdict::WeakSupport | Verdict::NumberMismatch
    );
    if shows_words && !s.missing_words.is_empty() {
        let shown: Vec<&str> = s
            .missing_words
            .iter()
            .take(MISSING_WORDS_SHOWN)
            .map(String::as_str)
            .collect();
        let more = s.missing_words.len().saturating_sub(MISSING_WORDS_SHOWN);
        let tail = if more > 0 {
            format!(" (+{more} more)")
        } else {
            String::new()
        };
        lines.push(format!("missing words: {}{tail}", shown.join(", ")));
    }
    if let Some(chunk) = &s.suggested_citation {
        lines.push(format!(
            "suggested citation: {chunk} (coverage {:.2})",
            s.best_coverage
        ));
    }
    lines.join("\n")
}

/// Longest quotation or passage shown, in characters.
const QUOTE_CHARS: usize = 60;

/// A quotation not found: where it was looked for and the closest passage.
fn misquote_line(quote: &QuoteCheck) -> String {
    let mut line = format!("misquote: “{}”", preview(&quote.text, QUOTE_CHARS));
    if let Some(chunk) = &quote.chunk {
        line.push_str(&format!(" not in chunk {chunk}"));
    }
    if let Some(closest) = &quote.result.closest {
        line.push_str(&format!(
            "; closest ({:.2}, {} {}): “{}”",
            closest.similarity,
            closest.differing_words,
            if closest.differing_words == 1 {
                "word differs"
            } else {
                "words differ"
            },
            preview(&closest.text, QUOTE_CHARS)
        ));
    }
    line
}

impl Emitter for TableEmitter {
    fn emit(&self, run: &Run<'_>, out: &mut dyn Write) -> io::Result<()> {
        let result = &run.report.result;
        let mut sentences = self.new_table(6);
        sentences.set_header([
            "#",
            "at",
            "verdict",
            "cov",
            "sup",
            "cited",
            "sentence",
            "what is wrong",
        ]);
        let budget = self.text_budget(97);
        for s in &result.sentences {
            let scored = s.verdict.is_claim() && !s.cited.is_empty();
            let score = |value: f64| {
                if scored {
                    format!("{value:.2}")
                } else {
                    "-".to_string()
                }
            };
            sentences.add_row([
                Cell::new(s.index),
                Cell::new(format!("{}:{}", s.start.line, s.start.column)),
                Self::paint_verdict(s.verdict),
                Cell::new(score(s.coverage)),
                Cell::new(score(s.support)),
                Cell::new(if s.cited.is_empty() {
                    "-".to_string()
                } else {
                    printable(&s.cited.join(", "))
                }),
                Cell::new(printable(&preview(&s.sentence, budget))),
                Cell::new(printable(&problems(s))),
            ]);
        }
        writeln!(out, "{sentences}")?;

        let mut chunks = self.new_table(5);
        chunks.set_header(["chunk", "status", "cited", "supports", "best", "preview"]);
        let budget = self.text_budget(70);
        for c in &result.chunks {
            chunks.add_row([
                Cell::new(printable(&c.id)),
                Self::paint_status(c.status),
                Cell::new(c.times_cited),
                Cell::new(c.supported_sentences),
                Cell::new(format!("{:.2}", c.best_coverage)),
                Cell::new(printable(&preview(&c.preview, budget))),
            ]);
        }
        if !result.chunks.is_empty() {
            writeln!(out, "{chunks}")?;
        }

        if !result.citations.is_empty() {
            let mut citations = self.new_table(4);
            citations.set_header(["citation", "source", "chunk", "sentences", "cited text"]);
            let budget = self.text_budget(50);
            for c in &result.citations {
                let quote = match &c.quote {
                    None => "-".to_string(),
                    Some(q) if q.found() => format!("found: “{}”", preview(&q.text, budget)),
                    Some(q) => misquote_line(q),
                };
                let sentences: Vec<String> = c.sentences.iter().map(usize::to_string).collect();
                citations.add_row([
                    c.index.to_string(),
                    printable(&c.source),
                    printable(c.chunk.as_deref().unwrap_or("-")),
                    if sentences.is_empty() {
                        "-".to_string()
                    } else {
                        sentences.join(", ")
                    },
                    printable(&quote),
                ]);
            }
            writeln!(out, "{citations}")?;
        }

        for warning in &run.report.warnings {
            let label = if self.color {
                "warning".yellow().bold().to_string()
            } else {
                "warning".to_string()
            };
            writeln!(out, "{label}: {}", printable(warning))?;
        }
        let summary = summary_line(run.report, run.gate);
        if self.color {
            let (verdict, rest) = summary.split_at(4);
            let verdict = if run.gate.passed {
                verdict.green().bold().to_string()
            } else {
                verdict.red().bold().to_string()
            };
            writeln!(out, "{verdict}{rest}")
        } else {
            writeln!(out, "{summary}")
        }
    }
}

/// Records listed by the batch table unless `--all` is given.
pub const BATCH_ROWS: usize = 20;

/// A row of the batch table, kept until the end.
#[derive(Debug, Clone)]
struct RecordRow {
    /// How bad the record is: unreadable first, then by the number of problems.
    badness: (bool, usize),
    index: usize,
    cells: [Cell; 5],
}

/// The batch table: the failing and unreadable records, worst first (at most
/// [`BATCH_ROWS`], or every record with `all`), then the summary line.
#[derive(Debug)]
pub struct BatchTableEmitter {
    pub style: TableEmitter,
    pub all: bool,
    rows: Vec<RecordRow>,
    /// Whether several files are read: rows then name the file with the line.
    several_files: bool,
}

impl BatchTableEmitter {
    pub fn new(style: TableEmitter, all: bool) -> Self {
        BatchTableEmitter {
            style,
            all,
            rows: Vec::new(),
            several_files: false,
        }
    }

    fn row(&self, record: &RecordOutcome) -> Option<RecordRow> {
        let line = if self.several_files {
            format!("{}:{}", record.file, record.line)
        } else {
            record.line.to_string()
        };
        match &record.result {
            Err(message) => Some(RecordRow {
                badness: (true, 0),
                index: record.index,
                cells: [
                    Cell::new("-"),
                    Cell::new(printable(&line)),
                    Cell::new("bad record").fg(Color::DarkRed),
                    Cell::new(""),
                    Cell::new(printable(message)),
                ],
            }),
            Ok(checked) if self.all || !checked.gate.passed => {
                let counts = &checked.report.result.counts;
                let verdicts: Vec<String> = Verdict::ALL
                    .iter()
                    .filter(|v| !matches!(v, Verdict::Supported | Verdict::NoClaim))
                    .filter(|v| counts.of_verdict(**v) > 0)
                    .map(|v| format!("{} {}", counts.of_verdict(*v), v.name()))
                    .collect();
                let problems = counts.claims - counts.supported + counts.unknown_markers;
                let first = checked
                    .report
                    .result
                    .sentences
                    .iter()
                    .find(|s| s.verdict.is_claim() && s.verdict != Verdict::Supported)
                    .map(|s| format!("{}: {}", s.verdict, preview(&s.sentence, 60)))
                    .unwrap_or_default();
                let limits: Vec<String> = checked
                    .gate
                    .failures
                    .iter()
                    .map(|f| format!("--{} (+{})", f.limit, f.over))
                    .collect();
                Some(RecordRow {
                    badness: (false, problems),
                    index: record.index,
                    cells: [
                        Cell::new(printable(&checked.id)),
                        Cell::new(printable(&line)),
                        if verdicts.is_empty() {
                            Cell::new("passed").fg(Color::DarkGreen)
                        } else {
                            Cell::new(verdicts.join(", "))
                        },
                        Cell::new(limits.join(", ")),
                        Cell::new(printable(&first)),
                    ],
                })
            }
            Ok(_) => None,
        }
    }
}

impl BatchEmitter for BatchTableEmitter {
    fn begin(&mut self, inputs: &BatchInputs, _out: &mut dyn Write) -> io::Result<()> {
        self.several_files = inputs.files.len() > 1;
        Ok(())
    }

    fn record(&mut self, record: &RecordOutcome, _out: &mut dyn Write) -> io::Result<()> {
        let Some(row) = self.row(record) else {
            return Ok(());
        };
        self.rows.push(row);
        if !self.all && self.rows.len() > 2 * BATCH_ROWS {
            // Keep only the worst rows so that memory stays flat on any file.
            self.rows
                .sort_by(|a, b| b.badness.cmp(&a.badness).then(a.index.cmp(&b.index)));
            self.rows.truncate(BATCH_ROWS);
        }
        Ok(())
    }

    fn finish(&mut self, end: &BatchEnd<'_>, out: &mut dyn Write) -> io::Result<()> {
        if !self.all {
            self.rows
                .sort_by(|a, b| b.badness.cmp(&a.badness).then(a.index.cmp(&b.index)));
        }
        let shown = if self.all {
            self.rows.len()
        } else {
            self.rows.len().min(BATCH_ROWS)
        };
        if shown > 0 {
            let mut table = self.style.new_table(2);
            table.set_header([
                "record",
                "line",
                "verdicts",
                "limits exceeded",
                "first problem",
            ]);
            for row in &self.rows[..shown] {
                table.add_row(row.cells.iter().cloned());
            }
            writeln!(out, "{table}")?;
            let hidden = end.aggregate.failing_records + end.aggregate.bad_records;
            if !self.all && hidden > shown {
                writeln!(
                    out,
                    "… and {} more failing or bad records (--all lists every record)",
                    hidden - shown
                )?;
            }
        }
        let summary = batch_summary_line(end);
        if self.style.color {
            let (verdict, rest) = summary.split_at(4);
            let passed = end.gate.passed && end.stopped.is_none();
            let verdict = if passed {
                verdict.green().bold().to_string()
            } else {
                verdict.red().bold().to_string()
            };
            writeln!(out, "{verdict}{rest}")
        } else {
            writeln!(out, "{summary}")
        }
    }
}
