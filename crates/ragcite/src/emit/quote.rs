//! What `ragcite quote` writes: one line of text, or the match as one line of JSON. Both give
//! where the match (or the closest passage) is as `line:column`, beside the character offsets.

use std::io::{self, Write};

use serde::Serialize;

use crate::escape::printable_line;
use crate::quote::{Closest, QuoteMatch};
use crate::report::plural;
use crate::sentence::LineColumn;

/// A [`QuoteMatch`] in a document, with the `line:column` of its ends.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct QuoteReport<'a> {
    pub found: bool,
    pub offsets: Option<[usize; 2]>,
    pub byte_offsets: Option<[usize; 2]>,
    /// Where the match starts: 1-based line and column (in characters; a byte-order mark is not
    /// counted). `None` when not found.
    pub start: Option<LineColumn>,
    /// Just past the match's last character (end exclusive, as `offsets`). `None` when not found.
    pub end: Option<LineColumn>,
    pub closest: Option<ClosestAt<'a>>,
}

/// The closest passage, with the `line:column` of its ends.
#[derive(Debug, Clone, Serialize)]
pub struct ClosestAt<'a> {
    #[serde(flatten)]
    pub passage: &'a Closest,
    pub start: LineColumn,
    pub end: LineColumn,
}

impl<'a> QuoteReport<'a> {
    /// `found`, a result of [`crate::quote::find_in_document`] on `document` (the same bytes).
    pub fn new(found: &'a QuoteMatch, document: &[u8]) -> Self {
        let text = crate::input::decode(document).unwrap_or_default();
        let bom = usize::from(document.len() > text.len());
        let ends = |offsets: [usize; 2]| positions(text, bom, offsets);
        let (start, end) = match found.offsets.map(ends) {
            Some([start, end]) => (Some(start), Some(end)),
            None => (None, None),
        };
        QuoteReport {
            found: found.found,
            offsets: found.offsets,
            byte_offsets: found.byte_offsets,
            start,
            end,
            closest: found.closest.as_ref().map(|passage| {
                let [start, end] = ends(passage.offsets);
                ClosestAt {
                    passage,
                    start,
                    end,
                }
            }),
        }
    }
}

/// The `line:column` of two character offsets into the document as given, whose `text` follows
/// `bom` characters (a leading byte-order mark is character 0, and is not counted in columns), in
/// one pass. A line ends at `\n`; offsets past the end are at the end.
fn positions(text: &str, bom: usize, offsets: [usize; 2]) -> [LineColumn; 2] {
    let [first, second] = offsets.map(|o| o.saturating_sub(bom));
    let mut at = LineColumn { line: 1, column: 1 };
    let mut start = None;
    let mut chars = text.chars();
    for k in 0..second.max(first) {
        if k == first {
            start = Some(at);
        }
        match chars.next() {
            Some('\n') => {
                at = LineColumn {
                    line: at.line + 1,
                    column: 1,
                }
            }
            Some(_) => at.column += 1,
            None => break,
        }
    }
    [start.unwrap_or(at), at]
}

/// The match as one line of JSON.
pub fn write_json(out: &mut dyn Write, report: &QuoteReport<'_>) -> io::Result<()> {
    crate::escape::to_writer(&mut *out, report)?;
    writeln!(out)
}

/// The match as one line of text: where it was found, or the closest passage and how close,
/// the passage on one line with what could harm a terminal escaped.
pub fn write_text(out: &mut dyn Write, report: &QuoteReport<'_>) -> io::Result<()> {
    writeln!(out, "{}", describe(report))
}

fn at(start: LineColumn, end: LineColumn) -> String {
    format!(
        "{}:{}–{}:{}",
        start.line, start.column, end.line, end.column
    )
}

fn describe(report: &QuoteReport<'_>) -> String {
    match (&report.offsets, report.start, report.end, &report.closest) {
        (Some([start, end]), Some(from), Some(to), _) if report.found => {
            format!("found at {} (characters {start}..{end})", at(from, to))
        }
        (_, _, _, Some(closest)) => format!(
            "not found; closest passage at {} (characters {}..{}, similarity {:.2}, {} {}): {}",
            at(closest.start, closest.end),
            closest.passage.offsets[0],
            closest.passage.offsets[1],
            closest.passage.similarity,
            closest.passage.differing_words,
            plural(
                closest.passage.differing_words,
                "word differs",
                "words differ"
            ),
            printable_line(&closest.passage.text)
        ),
        _ => "not found; no passage is close".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lc(line: usize, column: usize) -> LineColumn {
        LineColumn { line, column }
    }

    /// `positions` in the document `bytes`, as [`QuoteReport::new`] calls it.
    fn at_in(bytes: &[u8], offsets: [usize; 2]) -> [LineColumn; 2] {
        let text = crate::input::decode(bytes).unwrap();
        positions(text, usize::from(bytes.len() > text.len()), offsets)
    }

    #[test]
    fn positions_count_lines_and_characters() {
        let doc = "ab\ncdé f\n\ngh".as_bytes();
        assert_eq!(at_in(doc, [0, 2]), [lc(1, 1), lc(1, 3)]);
        // `c` is character 3; `f` ends at character 8, past the `é` (one character, two bytes).
        assert_eq!(at_in(doc, [3, 8]), [lc(2, 1), lc(2, 6)]);
        assert_eq!(at_in(doc, [10, 12]), [lc(4, 1), lc(4, 3)]);
        // An empty span, and offsets past the end stop at the end.
        assert_eq!(at_in(doc, [3, 3]), [lc(2, 1), lc(2, 1)]);
        assert_eq!(at_in(doc, [10, 99]), [lc(4, 1), lc(4, 3)]);
        assert_eq!(at_in(doc, [98, 99]), [lc(4, 3), lc(4, 3)]);
    }

    #[test]
    fn a_byte_order_mark_is_character_zero_and_no_column() {
        let doc = "\u{feff}ab\ncd".as_bytes();
        assert_eq!(at_in(doc, [1, 3]), [lc(1, 1), lc(1, 3)]);
        assert_eq!(at_in(doc, [4, 6]), [lc(2, 1), lc(2, 3)]);
    }

    #[test]
    fn the_text_names_lines_columns_and_characters() {
        let doc = "Intro line.\nThe tower was repainted every seven years.".as_bytes();
        let found = crate::quote::find_in_document(doc, "repainted every seven years").unwrap();
        let mut out = Vec::new();
        write_text(&mut out, &QuoteReport::new(&found, doc)).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "found at 2:15–2:42 (characters 26..53)\n"
        );
        let missed = crate::quote::find_in_document(doc, "repainted every five years").unwrap();
        let mut out = Vec::new();
        write_json(&mut out, &QuoteReport::new(&missed, doc)).unwrap();
        let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(json["start"], serde_json::Value::Null);
        assert_eq!(json["closest"]["offsets"], serde_json::json!([26, 53]));
        assert_eq!(
            json["closest"]["start"],
            serde_json::json!({"line": 2, "column": 15})
        );
        assert_eq!(
            json["closest"]["end"],
            serde_json::json!({"line": 2, "column": 42})
        );
    }
}
