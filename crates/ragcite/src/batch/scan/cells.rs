//! CSV transcripts: a cell read as a JSON value (lists written as JSON or as Python literals,
//! as RAGAS `to_csv` writes them), and the CSV reader's errors as scan errors.

use std::io;

use super::{RowTooLong, ScanError};

/// A CSV cell as a JSON value: a list written as JSON or as a Python literal (`['a', "b's"]`,
/// as RAGAS `to_csv` writes lists) is a list; anything else is the string.
pub(super) fn cell_value(cell: &str) -> serde_json::Value {
    let trimmed = cell.trim();
    if trimmed.starts_with('[') && trimmed.ends_with(']') {
        if let Ok(value @ serde_json::Value::Array(_)) = serde_json::from_str(trimmed) {
            return value;
        }
        if let Some(items) = python_list(trimmed) {
            return serde_json::Value::Array(
                items.into_iter().map(serde_json::Value::String).collect(),
            );
        }
    }
    serde_json::Value::String(cell.to_string())
}

/// A Python list literal of strings (`['a', "b's", 'c\\nd']`), as `repr` writes it; `None`
/// when it is something else.
pub(super) fn python_list(text: &str) -> Option<Vec<String>> {
    let mut chars = text
        .strip_prefix('[')?
        .strip_suffix(']')?
        .chars()
        .peekable();
    let mut items = Vec::new();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        let Some(quote) = chars.next() else {
            return Some(items);
        };
        if quote != '\'' && quote != '"' {
            return None;
        }
        let mut item = String::new();
        loop {
            match chars.next()? {
                c if c == quote => break,
                '\\' => match chars.next()? {
                    'n' => item.push('\n'),
                    't' => item.push('\t'),
                    'r' => item.push('\r'),
                    '0' => item.push('\0'),
                    'x' => item.push(hex_char(&mut chars, 2)?),
                    'u' => item.push(hex_char(&mut chars, 4)?),
                    'U' => item.push(hex_char(&mut chars, 8)?),
                    c @ ('\\' | '\'' | '"') => item.push(c),
                    c => {
                        item.push('\\');
                        item.push(c);
                    }
                },
                c => item.push(c),
            }
        }
        items.push(item);
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        match chars.next() {
            None => return Some(items),
            Some(',') => {}
            Some(_) => return None,
        }
    }
}

pub(super) fn hex_char(chars: &mut impl Iterator<Item = char>, digits: usize) -> Option<char> {
    let hex: String = chars.take(digits).collect();
    if hex.len() != digits {
        return None;
    }
    char::from_u32(u32::from_str_radix(&hex, 16).ok()?)
}

/// Whether a CSV error is the bounded reader's: a row past the record limit.
pub(super) fn is_row_too_long(e: &csv::Error) -> bool {
    matches!(e.kind(), csv::ErrorKind::Io(io) if io.get_ref().is_some_and(|inner| inner.is::<RowTooLong>()))
}

pub(super) fn csv_error(e: &csv::Error, start_line: usize) -> ScanError {
    let line = e
        .position()
        .map_or(start_line, |p| start_line + p.line() as usize - 1);
    let message = match e.kind() {
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => format!("a row has {len} fields where the header has {expected_len}"),
        csv::ErrorKind::Utf8 { .. } => "invalid UTF-8".to_string(),
        csv::ErrorKind::Io(e) => return ScanError::Io(io::Error::new(e.kind(), e.to_string())),
        _ => e.to_string(),
    };
    ScanError::Structure { line, message }
}
