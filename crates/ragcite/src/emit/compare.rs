//! `compare --format table`: the rates side by side, the records that changed, those that
//! matched nothing, and the summary. The JSON document is [`super::json::write_compare`], the
//! HTML page [`super::html_compare`].

use std::io::{self, Write};

use owo_colors::OwoColorize;

use super::json::CompareInputs;
use super::table::blocks::BlockLayout;
use super::table::{Column, Entry, Fit, TableEmitter, column};
use crate::compare::{Better, Comparison, MatchedBy, RecordChange, RecordRef, Side, SideFinding};
use crate::escape::printable_line;
use crate::report::preview;

/// Records that changed listed by the table unless `--all` is given.
pub const CHANGED_ROWS: usize = 20;

/// The rates: what is counted, A's share and count, B's, the difference and which side it
/// favours. Which side is better goes first when room is short, then the difference.
const RATE_COLUMNS: [Column; 5] = [
    column("", Fit::Word),
    column("A", Fit::Word),
    column("B", Fit::Word),
    column("B - A", Fit::Word),
    column("better", Fit::Word),
];
const RATE_DROPS: [usize; 2] = [4, 3];

/// The records that changed. What changed goes first, then how they matched and their lines;
/// the record, its verdicts and its findings always stay.
const CHANGE_COLUMNS: [Column; 6] = [
    column("record", Fit::Ids),
    column("lines", Fit::Items),
    column("matched by", Fit::Word),
    column("verdicts A → B", Fit::Items),
    column("findings", Fit::Items),
    column("first change", Fit::Wrap { least: 30 }),
];
const CHANGE_DROPS: [usize; 3] = [5, 2, 1];
/// The same rows as blocks, when the width cannot hold a full row.
const CHANGE_BLOCKS: BlockLayout<'static> = BlockLayout {
    head: &[(0, ""), (1, ""), (2, "by ")],
    labelled: &[(3, "verdicts A → B"), (4, "findings")],
    item: Some(5),
};

/// The records that matched nothing. The question goes first.
const UNMATCHED_COLUMNS: [Column; 4] = [
    column("only in", Fit::Word),
    column("record", Fit::Ids),
    column("line", Fit::Word),
    column(
        "question or error",
        Fit::Cut {
            least: 16,
            most: 120,
        },
    ),
];
const UNMATCHED_DROPS: [usize; 1] = [3];

/// Writes the comparison's tables and summary for a terminal.
#[derive(Debug, Clone, Copy)]
pub struct CompareTable {
    pub style: TableEmitter,
    /// List every record that changed, not only the first [`CHANGED_ROWS`].
    pub all: bool,
}

/// `50.0% (2)`.
pub(super) fn rate_cell(rate: f64, count: usize) -> String {
    format!("{:.1}% ({count})", rate * 100.0)
}

/// `+12.5` points, or `0.0`.
pub(super) fn points(difference: f64) -> String {
    let points = difference * 100.0;
    if points.abs() < 0.05 {
        "0.0".to_string()
    } else {
        format!("{points:+.1}")
    }
}

/// `+3 lines`, `-1 line`, or `0`: how many more lines B has than A.
pub(super) fn line_difference(a: usize, b: usize) -> String {
    let difference = b as i64 - a as i64;
    match difference {
        0 => "0".to_string(),
        1 | -1 => format!("{difference:+} line"),
        _ => format!("{difference:+} lines"),
    }
}

fn side_name(side: Option<Side>) -> &'static str {
    match side {
        Some(Side::A) => "A",
        Some(Side::B) => "B",
        None => "-",
    }
}

/// How a matched pair is named: its id, or `a → b` when the ids differ.
fn pair_name(change: &RecordChange) -> Vec<String> {
    let name = |r: &RecordRef| r.id.clone().unwrap_or_else(|| format!("#{}", r.index));
    let (a, b) = (name(&change.a), name(&change.b));
    if a == b {
        vec![a]
    } else {
        vec![format!("{a} → {b}")]
    }
}

fn matched_by(by: MatchedBy) -> &'static str {
    match by {
        MatchedBy::Id => "id",
        MatchedBy::Question => "question",
        MatchedBy::Position => "position",
    }
}

/// `new uncited-claim (sentence 3): It was sold in 1925.`
fn finding_line(what: &str, finding: &SideFinding) -> String {
    let at = match (finding.sentence, finding.citation) {
        (Some(sentence), _) => format!("sentence {sentence}"),
        (None, Some(citation)) => format!("citation {citation}"),
        (None, None) => "record".to_string(),
    };
    format!(
        "{what} {} ({at}): {}",
        finding.rule,
        preview(&finding.text, 80)
    )
}

impl CompareTable {
    pub fn write(
        &self,
        inputs: &CompareInputs,
        comparison: &Comparison,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        writeln!(
            out,
            "A: {} · B: {}",
            printable_line(&inputs.a),
            printable_line(&inputs.b)
        )?;
        let (a, b) = (&comparison.a, &comparison.b);
        let better = match comparison.better {
            Better::A => Some(Side::A),
            Better::B => Some(Side::B),
            Better::Tie => None,
        };
        let mut rates = vec![vec![
            Entry::text("problem sentences"),
            Entry::text(&rate_cell(a.problem_rate, a.problems)),
            Entry::text(&rate_cell(b.problem_rate, b.problems)),
            Entry::text(&points(b.problem_rate - a.problem_rate)),
            Entry::text(side_name(better)),
        ]];
        rates.extend(comparison.rates.iter().map(|row| {
            let name = match crate::report::Verdict::ALL
                .iter()
                .find(|v| v.name() == row.name)
            {
                Some(verdict) => TableEmitter::verdict(*verdict),
                None => Entry::text(&row.name.replace('-', " ")),
            };
            vec![
                name,
                Entry::text(&rate_cell(row.a_rate, row.a)),
                Entry::text(&rate_cell(row.b_rate, row.b)),
                Entry::text(&points(row.difference)),
                Entry::text(side_name(row.better)),
            ]
        }));
        if let Some((a, b, fewer)) = comparison.unchecked_row() {
            rates.push(vec![
                Entry::text("lines not checked"),
                Entry::text(&a.to_string()),
                Entry::text(&b.to_string()),
                Entry::text(&line_difference(a, b)),
                Entry::text(side_name(fewer)),
            ]);
        }
        writeln!(
            out,
            "{}",
            self.style.table(&RATE_COLUMNS, &RATE_DROPS, &rates)
        )?;

        let changed: Vec<&RecordChange> =
            comparison.records.iter().filter(|r| r.changed()).collect();
        let shown = if self.all {
            changed.len()
        } else {
            changed.len().min(CHANGED_ROWS)
        };
        if shown > 0 {
            let rows: Vec<Vec<Entry>> = changed[..shown]
                .iter()
                .map(|change| {
                    let verdicts: Vec<String> = change
                        .verdicts
                        .iter()
                        .map(|v| format!("{} {}→{}", v.verdict, v.a, v.b))
                        .collect();
                    let mut findings = Vec::new();
                    if !change.new.is_empty() {
                        findings.push(format!("{} new", change.new.len()));
                    }
                    if !change.fixed.is_empty() {
                        findings.push(format!("{} fixed", change.fixed.len()));
                    }
                    let first = change
                        .new
                        .first()
                        .map(|f| finding_line("new", f))
                        .or_else(|| change.fixed.first().map(|f| finding_line("fixed", f)))
                        .unwrap_or_default();
                    vec![
                        Entry::list(&pair_name(change)),
                        Entry::list(&[
                            format!("A:{}", change.a.line),
                            format!("B:{}", change.b.line),
                        ]),
                        Entry::text(matched_by(change.matched_by)),
                        Entry::list(&verdicts),
                        Entry::list(&findings),
                        Entry::text(&first),
                    ]
                })
                .collect();
            if self.style.fits(&CHANGE_COLUMNS, &rows) {
                writeln!(
                    out,
                    "{}",
                    self.style.table(&CHANGE_COLUMNS, &CHANGE_DROPS, &rows)
                )?;
            } else {
                // Below a full row's width, a block per record: what changed is never dropped.
                super::table::blocks::write_row_blocks(
                    out,
                    &rows,
                    CHANGE_BLOCKS,
                    usize::from(self.style.width),
                    self.style.color,
                )?;
                writeln!(out)?;
            }
            if shown < changed.len() {
                writeln!(
                    out,
                    "… and {} more records changed (--all lists every one)",
                    changed.len() - shown
                )?;
            }
        } else {
            writeln!(out, "No matched record changed.")?;
        }

        let matching = &comparison.matching;
        let unmatched: Vec<Vec<Entry>> = [("A", &matching.only_in_a), ("B", &matching.only_in_b)]
            .into_iter()
            .flat_map(|(side, records)| {
                records.iter().map(move |r| {
                    let about = match (&r.error, &r.question) {
                        (Some(error), _) => format!("unreadable: {error}"),
                        (None, Some(question)) => question.clone(),
                        (None, None) => String::new(),
                    };
                    vec![
                        Entry::text(side),
                        Entry::list(&[r.id.clone().unwrap_or_else(|| format!("#{}", r.index))]),
                        Entry::text(&r.line.to_string()),
                        Entry::text(&about),
                    ]
                })
            })
            .collect();
        if !unmatched.is_empty() {
            writeln!(
                out,
                "{}",
                self.style
                    .table(&UNMATCHED_COLUMNS, &UNMATCHED_DROPS, &unmatched)
            )?;
        }
        writeln!(out, "{}", comparison.matching_line())?;
        writeln!(out, "{}", inputs.decided())?;
        let summary = printable_line(&comparison.summary_line());
        let (verdict, rest) = summary.split_at(summary.find(':').unwrap_or(0));
        if self.style.color {
            let verdict = match comparison.better {
                Better::B => verdict.green().bold().to_string(),
                Better::A => verdict.red().bold().to_string(),
                Better::Tie => verdict.bold().to_string(),
            };
            writeln!(out, "{verdict}{rest}")
        } else {
            writeln!(out, "{summary}")
        }
    }
}
