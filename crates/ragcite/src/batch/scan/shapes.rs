//! What a parsed JSON object is to the scanner: a container of records (under one of the
//! [`RECORD_KEYS`](super::RECORD_KEYS)), one record, a row of a table to be named by the
//! table's columns (the pandas `orient="split"` layout, `{"columns": [...], "data": [[...]]}`),
//! or a whole table in the other object layouts of pandas `to_json`: `orient="index"`
//! (`{"0": {row}, "1": {row}}`) and `orient="columns"`, its default for a DataFrame
//! (`{"column": {"0": cell, "1": cell}}`), both with pandas' default row labels 0, 1, 2, ...

use super::{LATE_RECORD_KEYS, NESTING_KEYS, RECORD_KEYS, RawRecord, Scanned};

/// Whether an object that holds no records is one: it has an answer (`answer`, `response`,
/// `output`, ...), LongCite's `statements_with_citations`, or the spans of an OTLP request
/// body (`resourceSpans`). Any other object is no record (`{"nothing": 1}`).
pub(super) fn is_one_record(value: &serde_json::Value) -> bool {
    const KEYS: &[&str] = &[
        "answer",
        "response",
        "output",
        "outputs",
        "actual_output",
        "actualOutput",
        "statements_with_citations",
        "resourceSpans",
    ];
    value
        .as_object()
        .is_some_and(|object| KEYS.iter().any(|k| object.contains_key(*k)))
}

/// The rows of a table that pandas wrote with `orient="index"` or `orient="columns"` and its
/// default row labels (0, 1, 2, ...), in the order of the labels; `None` for any other value.
pub(super) fn pandas_rows(value: &serde_json::Value) -> Option<Vec<serde_json::Value>> {
    use serde_json::{Map, Value};
    let object = value.as_object()?;
    let label = |key: &str| -> Option<u64> {
        (!key.is_empty() && key.bytes().all(|b| b.is_ascii_digit()))
            .then(|| key.parse().ok())
            .flatten()
    };
    let inner: Vec<&Map<String, Value>> = object
        .values()
        .map(Value::as_object)
        .collect::<Option<_>>()?;
    if inner.is_empty() {
        return None;
    }
    // orient="index": row labels, each a row.
    if let Some(mut labels) = object
        .iter()
        .map(|(key, row)| Some((label(key)?, row.clone())))
        .collect::<Option<Vec<_>>>()
    {
        labels.sort_by_key(|(n, _)| *n);
        return Some(labels.into_iter().map(|(_, row)| row).collect());
    }
    // orient="columns": column names, each a cell per row label, the same labels throughout.
    let mut labels: Vec<(u64, &String)> = inner[0]
        .keys()
        .map(|key| Some((label(key)?, key)))
        .collect::<Option<_>>()?;
    if labels.is_empty() || object.len() < 2 {
        return None;
    }
    let same = inner.iter().all(|column| {
        column.len() == labels.len() && labels.iter().all(|(_, k)| column.contains_key(*k))
    });
    if !same {
        return None;
    }
    labels.sort_by_key(|(n, _)| *n);
    Some(
        labels
            .iter()
            .map(|(_, key)| {
                let row: Map<String, Value> = object
                    .iter()
                    .map(|(name, column)| {
                        (
                            name.clone(),
                            column.get(key.as_str()).cloned().unwrap_or(Value::Null),
                        )
                    })
                    .collect();
                Value::Object(row)
            })
            .collect(),
    )
}

/// A row of a table (a list of cells) as an object of the column names.
pub(super) fn table_row(columns: &[String], line: usize, bytes: &[u8]) -> Scanned {
    match serde_json::from_slice::<serde_json::Value>(bytes) {
        Ok(serde_json::Value::Array(cells)) if cells.len() == columns.len() => {
            let object: serde_json::Map<String, serde_json::Value> =
                columns.iter().cloned().zip(cells).collect();
            Scanned::Record(RawRecord {
                line,
                bytes: serde_json::Value::Object(object).to_string().into_bytes(),
            })
        }
        Ok(serde_json::Value::Array(cells)) => Scanned::Bad {
            line,
            message: format!(
                "a row of {} cells where the table has {} columns",
                cells.len(),
                columns.len()
            ),
        },
        _ => Scanned::Bad {
            line,
            message: "a row of the table that is not a list of cells".to_string(),
        },
    }
}

/// Whether a parsed object holds the records rather than being one.
pub(super) fn holds_records(value: &serde_json::Value) -> bool {
    let Some(object) = value.as_object() else {
        return false;
    };
    let answers = [
        "answer",
        "response",
        "output",
        "actual_output",
        "actualOutput",
    ];
    let is_record = answers.iter().any(|k| object.contains_key(*k));
    let table = object
        .get("columns")
        .is_some_and(serde_json::Value::is_array);
    let holds = |object: &serde_json::Map<String, serde_json::Value>| {
        RECORD_KEYS.iter().any(|k| match object.get(*k) {
            Some(serde_json::Value::Array(items)) if LATE_RECORD_KEYS.contains(k) => {
                !is_record
                    && items
                        .first()
                        .is_none_or(|first| first.is_object() || (table && first.is_array()))
            }
            Some(serde_json::Value::Array(_)) => true,
            _ => false,
        })
    };
    holds(object)
        || NESTING_KEYS.iter().any(|k| {
            object
                .get(*k)
                .and_then(serde_json::Value::as_object)
                .is_some_and(holds)
        })
}
