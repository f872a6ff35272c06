//! Chunks written as CSV (or TSV) with a header: one row a chunk, its text in the first column
//! named like a text field (`text`, `content`, `page_content`, ...), its id in the first column
//! named like an id field (else its row number), and columns named like a source field
//! (`source`, `url`, `filename`, ...) as other names. Cells may be quoted and span lines.

use super::{ID_FIELDS, SOURCE_FIELDS, TEXT_FIELDS, finish_chunks, quoted_list};
use crate::input::InputError;
use crate::input::{Chunk, ChunkFormat, Chunks};

/// Whether the first line is a CSV header: two or more column names (words of letters, digits,
/// `_`, `.`, `:` or `-`, quoted or not; an empty one too, as pandas writes for its index) and
/// nothing else, with a line after it. `Some(tabs)` gives the delimiter: commas, or tabs when the
/// line has tabs and no commas. Prose does not look like that.
pub(super) fn has_header(text: &str) -> Option<bool> {
    let mut lines = text.lines().skip_while(|l| l.trim().is_empty());
    let first = lines.next()?;
    lines.next()?;
    header_line(first)
}

/// Whether one line is a CSV header, as [`has_header`] says.
pub(super) fn header_line(first: &str) -> Option<bool> {
    let tabs = first.contains('\t') && !first.contains(',');
    let names: Vec<&str> = first
        .split(if tabs { '\t' } else { ',' })
        .map(|n| n.trim().trim_matches('"'))
        .collect();
    let is_name = |n: &&str| {
        n.len() <= 64
            && n.chars()
                .next()
                .is_none_or(|c| c.is_alphabetic() || c == '_')
            && n.chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | ':' | '-'))
    };
    (names.len() >= 2 && names.iter().all(is_name) && names.iter().any(|n| !n.is_empty()))
        .then_some(tabs)
}

pub(super) fn read(text: &str, tabs: bool) -> Result<Chunks, InputError> {
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(if tabs { b'\t' } else { b',' })
        .flexible(false)
        .from_reader(text.as_bytes());
    let header = reader.headers().map_err(|e| csv_error(&e))?.clone();
    let column = |fields: &[&str]| {
        fields.iter().find_map(|field| {
            header
                .iter()
                .position(|name| name.trim().eq_ignore_ascii_case(field))
        })
    };
    let Some(text_column) = column(TEXT_FIELDS) else {
        let names: Vec<&str> = header.iter().collect();
        return Err(InputError::ChunkShape {
            position: None,
            message: format!(
                "the CSV header names no text column ({}); it has {}",
                quoted_list(TEXT_FIELDS),
                quoted_list(&names)
            ),
        });
    };
    let id_column = column(ID_FIELDS);
    let source_columns: Vec<usize> = SOURCE_FIELDS
        .iter()
        .filter_map(|field| column(&[field]))
        .collect();
    let mut chunks = Vec::new();
    for (k, row) in reader.records().enumerate() {
        let row = row.map_err(|e| csv_error(&e))?;
        let cell = |c: usize| row.get(c).unwrap_or("");
        let id = id_column
            .map(|c| cell(c).trim())
            .filter(|id| !id.is_empty())
            .map_or_else(|| (k + 1).to_string(), str::to_string);
        let aliases = source_columns
            .iter()
            .map(|&c| cell(c).trim())
            .filter(|name| !name.is_empty())
            .map(str::to_string)
            .collect();
        chunks.push(Chunk {
            id,
            text: cell(text_column).trim().to_string(),
            aliases,
        });
    }
    finish_chunks(chunks, ChunkFormat::Csv)
}

fn csv_error(e: &csv::Error) -> InputError {
    let line = e.position().map(|p| p.line());
    let message = match e.kind() {
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => format!("a row has {len} fields where the header has {expected_len}"),
        csv::ErrorKind::Utf8 { .. } => "invalid UTF-8".to_string(),
        _ => e.to_string(),
    };
    InputError::ChunkShape {
        position: None,
        message: match line {
            Some(line) => format!("CSV line {line}: {message}"),
            None => format!("CSV: {message}"),
        },
    }
}

#[cfg(test)]
mod tests {
    use crate::input::testing::with_names;
    use crate::input::{ChunkFormat, read_chunks, read_chunks_named};

    #[test]
    fn a_header_with_an_id_a_text_and_a_source_column() {
        let text = "id,title,source,text\n\
                    1,Tower,tower.pdf,\"The tower is tall,\nand old.\"\n\
                    2,\"Paris, the city\",,Paris is big.\n";
        let chunks = read_chunks(text.as_bytes(), false).expect("chunks");
        assert_eq!(chunks.format, ChunkFormat::Csv);
        let got = with_names(&chunks.chunks);
        assert_eq!(
            got,
            [
                (
                    "1",
                    "The tower is tall,\nand old.",
                    &["tower.pdf".to_string(), "Tower".to_string()][..]
                ),
                ("2", "Paris is big.", &["Paris, the city".to_string()][..]),
            ]
        );
    }

    #[test]
    fn tabs_and_no_id_column() {
        let chunks = read_chunks(b"Content\tscore\nOne.\t0.5\nTwo.\t0.4\n", false).expect("chunks");
        let ids: Vec<&str> = chunks.chunks.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["1", "2"]);
    }

    #[test]
    fn a_csv_that_cannot_be_split_is_an_error() {
        let err = read_chunks(b"id,text\n1,One.\n2,Two.,extra\n", false).unwrap_err();
        assert_eq!(
            err.to_string(),
            "CSV line 3: a row has 3 fields where the header has 2"
        );
        let err = read_chunks_named(b"id,body_text\n1,One.\n", "chunks.csv").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("the CSV header names no text column"),
            "{err}"
        );
        // Without the name too: it looks like CSV, so it is never one silent chunk.
        let err = read_chunks(b"id,body_text\n1,One.\n", false).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("the CSV header names no text column"),
            "{err}"
        );
        // Prose with commas is not CSV.
        let chunks =
            read_chunks(b"Paris, the capital, is big.\nIt is old.\n", false).expect("chunks");
        assert_eq!(chunks.format, ChunkFormat::BlankLineSeparated);
    }
}
