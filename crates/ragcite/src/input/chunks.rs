//! The chunks side of the input stage: reads the retrieved chunks in every format a stack
//! writes them, recognised from the content (and the file's name): JSON (an array, an object
//! holding one, JSON Lines, a provider's own list of sources, a response that carries its
//! sources), CSV with a header, Markdown with a heading per source, and the text block formats
//! (`text`). A file that cannot be split as what it looks like is an error that says what was
//! seen, never one silent chunk.

mod csv_file;
mod markdown;
mod text;

use std::collections::HashMap;

use serde_json::Value;

use super::{Chunk, ChunkFormat, ChunkPosition, Chunks, decode, json_kind, response};
use crate::input::InputError;

/// Whether `line` is a CSV header (two or more column names): `Some(tabs)` with its delimiter.
pub fn csv_header(line: &str) -> Option<bool> {
    csv_file::header_line(line)
}

/// What a chunks file's name says about its format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NameHint {
    /// `.json`, `.jsonl`, `.ndjson`: JSON whatever it starts with.
    Json,
    /// `.csv`: CSV; `.tsv`: CSV with tabs.
    Csv {
        tabs: bool,
    },
    None,
}

impl NameHint {
    fn of(path: &str) -> Self {
        let lower = path.to_ascii_lowercase();
        if [".json", ".jsonl", ".ndjson"]
            .iter()
            .any(|e| lower.ends_with(e))
        {
            NameHint::Json
        } else if lower.ends_with(".csv") {
            NameHint::Csv { tabs: false }
        } else if lower.ends_with(".tsv") {
            NameHint::Csv { tabs: true }
        } else {
            NameHint::None
        }
    }
}

/// Reads the chunks, recognising their format from the content. `json_name` says the file is
/// named `.json` or `.jsonl`, which makes it JSON whatever it starts with.
pub fn read_chunks(bytes: &[u8], json_name: bool) -> Result<Chunks, InputError> {
    read_as(
        bytes,
        if json_name {
            NameHint::Json
        } else {
            NameHint::None
        },
    )
}

/// Reads the chunks of the file at `path` (which names it only): `.json`, `.jsonl` and `.ndjson`
/// are JSON, `.csv` and `.tsv` CSV, whatever they start with; any other name is recognised from
/// the content.
pub fn read_chunks_named(bytes: &[u8], path: &str) -> Result<Chunks, InputError> {
    read_as(bytes, NameHint::of(path))
}

fn read_as(bytes: &[u8], hint: NameHint) -> Result<Chunks, InputError> {
    let text = decode(bytes)?;
    if text.trim().is_empty() {
        return Err(InputError::Empty {
            what: "chunks file",
        });
    }
    match hint {
        NameHint::Json => return read_json_chunks(text),
        NameHint::Csv { tabs } => return csv_file::read(text, tabs),
        NameHint::None => {}
    }
    if looks_like_json(text) {
        return read_json_chunks(text);
    }
    if let Some(tabs) = csv_file::has_header(text) {
        return csv_file::read(text, tabs);
    }
    text::read(text)
}

/// Field names accepted for a chunk's id, first present wins.
pub const ID_FIELDS: &[&str] = &[
    "id",
    "doc_id",
    "docId",
    "chunk_id",
    "chunkId",
    "document_id",
    "documentId",
    "source_id",
    "sourceId",
];

/// Field names accepted for a chunk's text, first present wins.
pub const TEXT_FIELDS: &[&str] = &[
    "text",
    "content",
    "page_content",
    "pageContent",
    "chunk",
    "passage",
    "body",
    "snippet",
    // Scraped pages: GPT Researcher's research sources, Tavily's search results.
    "raw_content",
];

/// Fields that name the document a chunk comes from (its file, file id, URL or title), looked
/// for in the chunk object and in its `metadata` or `meta`: each present one is another name of
/// the chunk, shared with the other chunks of that document (`(source: report.pdf)` cites them
/// all; an answer's source list names them by title, URL or file name).
pub const SOURCE_FIELDS: &[&str] = &[
    "source",
    "url",
    "uri",
    "file_id",
    "filename",
    "file_name",
    "filepath",
    "file_path",
    "title",
];

/// The other names of a chunk object: its [`SOURCE_FIELDS`] that are strings, its own first,
/// then its `metadata`'s and `meta`'s, each once.
pub(crate) fn source_names(object: &serde_json::Map<String, Value>) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let nested = ["metadata", "meta"]
        .into_iter()
        .filter_map(|k| object.get(k)?.as_object());
    for fields in std::iter::once(object).chain(nested) {
        for key in SOURCE_FIELDS {
            if let Some(Value::String(name)) = fields.get(*key)
                && !name.is_empty()
                && !names.contains(name)
            {
                names.push(name.clone());
            }
        }
    }
    names
}

/// Keys under which an object may hold the array of chunks.
pub const ARRAY_FIELDS: &[&str] = &["chunks", "documents", "contexts", "sources"];

/// Chunks given as a JSON value inside another document (an eval record's contexts): one
/// string, an array of strings or objects, or an object holding such an array.
///
/// A provider's or framework's list of sources (LangChain Documents, LlamaIndex source nodes,
/// Bedrock references, ...) is read as such. One string that numbers its sources (`[1] ...\n[2]
/// ...`, as promptfoo users pass the context in one variable) is split at those labels.
pub fn chunks_from_value(value: Value) -> Result<Chunks, InputError> {
    if let Some(chunks) = response::sources_of(&value) {
        return chunks;
    }
    if let Value::String(text) = &value
        && let Some(chunks) = text::numbered(text)
    {
        return chunks;
    }
    let items = match value {
        Value::Array(items) => items,
        Value::String(_) => vec![value],
        Value::Object(mut object) => match ARRAY_FIELDS
            .iter()
            .find_map(|k| object.get_mut(*k).filter(|v| v.is_array()).map(Value::take))
        {
            Some(Value::Array(items)) => items,
            _ if keyed_by_id(&object) => keyed_items(object),
            _ => vec![Value::Object(object)],
        },
        Value::Null => Vec::new(),
        other => {
            return Err(InputError::ChunkShape {
                position: None,
                message: format!("expected a list of contexts, found {}", json_kind(&other)),
            });
        }
    };
    let chunks = items
        .into_iter()
        .enumerate()
        .map(|(k, item)| json_chunk(item, k, None))
        .collect::<Result<_, _>>()?;
    finish_chunks(chunks, ChunkFormat::Json)
}

/// Whether an object is chunks keyed by their ids (`{"https://…": {"title": …, "text": …}}`):
/// none of its keys is a chunk's field, and each value is an object with a text field. A
/// value that is a bare string does not count: `{"status": "ok"}` is no chunk named `status`.
fn keyed_by_id(object: &serde_json::Map<String, Value>) -> bool {
    let field = |key: &str| {
        [ID_FIELDS, TEXT_FIELDS, SOURCE_FIELDS]
            .iter()
            .any(|fields| fields.contains(&key))
    };
    // An eval record or a response passed by mistake is no chunks file.
    const RECORD_FIELDS: [&str; 12] = [
        "question",
        "answer",
        "response",
        "query",
        "input",
        "output",
        "user_input",
        "actual_output",
        "reference",
        "messages",
        "choices",
        "model",
    ];
    !object.is_empty()
        && !object
            .keys()
            .any(|k| field(k) || RECORD_FIELDS.contains(&k.as_str()))
        && object.values().all(|value| {
            value
                .as_object()
                .is_some_and(|inner| TEXT_FIELDS.iter().any(|k| inner.contains_key(*k)))
        })
}

/// The chunks of an object keyed by their ids, in the order of their ids: each as a chunk
/// object with its key as its id (an `id` of its own wins).
fn keyed_items(object: serde_json::Map<String, Value>) -> Vec<Value> {
    object
        .into_iter()
        .map(|(key, value)| match value {
            Value::Object(mut inner) => {
                if !ID_FIELDS.iter().any(|k| inner.contains_key(*k)) {
                    inner.insert("id".to_string(), Value::String(key));
                }
                Value::Object(inner)
            }
            other => other,
        })
        .collect()
}

/// Refuses duplicate ids and warns about empty chunks.
pub(crate) fn finish_chunks(chunks: Vec<Chunk>, format: ChunkFormat) -> Result<Chunks, InputError> {
    let mut warnings = Vec::new();
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (position, chunk) in chunks.iter().enumerate() {
        if let Some(first) = seen.insert(&chunk.id, position) {
            return Err(InputError::DuplicateId {
                id: chunk.id.clone(),
                first: first + 1,
                second: position + 1,
            });
        }
        if chunk.text.trim().is_empty() {
            warnings.push(format!("chunk {} is empty", chunk.id));
        }
    }
    if chunks.is_empty() {
        warnings.push("there are no chunks: every citation is unknown".to_string());
    }
    Ok(Chunks {
        chunks,
        format,
        warnings,
        ids_are_numbers: false,
    })
}

/// JSON when the first visible text is `{`, `[{`, `["`, `[[`, `[]`, or `[` followed by a JSON
/// value and the whole text parses (so `[1] text` stays a text block).
fn looks_like_json(text: &str) -> bool {
    let start = text.trim_start();
    if start.starts_with('{') {
        return true;
    }
    let Some(after) = start.strip_prefix('[') else {
        return false;
    };
    let after = after.trim_start();
    after.starts_with(['{', '"', '[', ']']) || serde_json::from_str::<Value>(text).is_ok()
}

fn json_error(e: &serde_json::Error) -> InputError {
    InputError::Json {
        line: e.line(),
        column: e.column(),
        message: strip_position(&e.to_string()),
    }
}

/// serde_json ends its messages with " at line L column C"; we report those separately.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(k) => message[..k].to_string(),
        None => message.to_string(),
    }
}

fn read_json_chunks(text: &str) -> Result<Chunks, InputError> {
    let mut values = Vec::new();
    let mut lines = Vec::new();
    let stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    let mut stream = stream;
    loop {
        let offset = stream.byte_offset();
        match stream.next() {
            None => break,
            Some(Ok(value)) => {
                let skipped = text[offset..].len() - text[offset..].trim_start().len();
                lines.push(1 + text[..offset + skipped].matches('\n').count());
                values.push(value);
            }
            Some(Err(e)) => return Err(json_error(&e)),
        }
    }
    if values.len() == 1 {
        let value = values.pop().unwrap_or(Value::Null);
        if let Some(chunks) = response::chunks_of(&value, text) {
            return chunks;
        }
        let items = match value {
            Value::Array(items) => items,
            Value::Object(mut object) => {
                match ARRAY_FIELDS
                    .iter()
                    .find_map(|k| object.get_mut(*k).filter(|v| v.is_array()).map(Value::take))
                {
                    Some(Value::Array(items)) => items,
                    _ if TEXT_FIELDS.iter().any(|k| object.contains_key(*k)) => {
                        vec![Value::Object(object)]
                    }
                    _ if keyed_by_id(&object) => keyed_items(object),
                    _ => {
                        let keys: Vec<&str> = object.keys().take(12).map(String::as_str).collect();
                        return Err(InputError::ChunkShape {
                            position: None,
                            message: format!(
                                "expected an array of chunks, an object holding one under {}, \
                                 an object of chunks keyed by id, or a stack's list of sources; \
                                 found an object with {}",
                                quoted_list(ARRAY_FIELDS),
                                if keys.is_empty() {
                                    "no keys".to_string()
                                } else {
                                    format!("the keys {}", quoted_list(&keys))
                                }
                            ),
                        });
                    }
                }
            }
            Value::String(_) => vec![value],
            other => {
                return Err(InputError::ChunkShape {
                    position: None,
                    message: format!("expected an array of chunks, found {}", json_kind(&other)),
                });
            }
        };
        let chunks = items
            .into_iter()
            .enumerate()
            .map(|(k, item)| json_chunk(item, k, None))
            .collect::<Result<_, _>>()?;
        return finish_chunks(chunks, ChunkFormat::Json);
    }
    let chunks = values
        .into_iter()
        .zip(lines)
        .enumerate()
        .map(|(k, (item, line))| json_chunk(item, k, Some(line)))
        .collect::<Result<_, _>>()?;
    finish_chunks(chunks, ChunkFormat::JsonLines)
}

pub(super) fn quoted_list(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    quoted.join(", ")
}

/// One chunk from a JSON item at `position` (0-based); `line` is its line in JSON Lines.
fn json_chunk(item: Value, position: usize, line: Option<usize>) -> Result<Chunk, InputError> {
    let at = ChunkPosition {
        index: position + 1,
        line,
    };
    let fallback_id = (position + 1).to_string();
    match item {
        Value::String(text) => Ok(Chunk {
            id: fallback_id,
            text,
            ..Chunk::default()
        }),
        Value::Object(object) => {
            let id = match ID_FIELDS.iter().find_map(|k| object.get(*k)) {
                None | Some(Value::Null) => fallback_id,
                Some(Value::String(s)) => s.clone(),
                Some(Value::Number(n)) => n.to_string(),
                Some(other) => {
                    return Err(InputError::ChunkShape {
                        position: Some(at),
                        message: format!(
                            "its id is {}; expected a string or a number",
                            json_kind(other)
                        ),
                    });
                }
            };
            let text = match TEXT_FIELDS.iter().find_map(|k| object.get(*k)) {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Null) => String::new(),
                Some(other) => {
                    return Err(InputError::ChunkShape {
                        position: Some(at),
                        message: format!("its text is {}; expected a string", json_kind(other)),
                    });
                }
                None => {
                    return Err(InputError::ChunkShape {
                        position: Some(at),
                        message: format!("it has no text field ({})", quoted_list(TEXT_FIELDS)),
                    });
                }
            };
            Ok(Chunk {
                id,
                text,
                aliases: source_names(&object),
            })
        }
        other => Err(InputError::ChunkShape {
            position: Some(at),
            message: format!(
                "it is {}; expected an object with a text field, or a string",
                json_kind(&other)
            ),
        }),
    }
}

/// `3`, `12`: what a file that numbers its sources itself names them by.
fn is_whole_number(id: &str) -> bool {
    !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::testing::{ids_and_texts, read};

    #[test]
    fn json_objects_with_id_and_text_aliases() {
        let chunks = read(
            r#"[{"id": "a", "text": "one"}, {"doc_id": 7, "content": "two"},
                {"chunk_id": "c", "page_content": "three"}, {"chunk": "four"}]"#,
        );
        assert_eq!(chunks.format, ChunkFormat::Json);
        assert_eq!(
            ids_and_texts(&chunks.chunks),
            [("a", "one"), ("7", "two"), ("c", "three"), ("4", "four")]
        );
    }

    #[test]
    fn json_strings_are_numbered_from_one() {
        let chunks = read(r#"["one", "two"]"#);
        assert_eq!(ids_and_texts(&chunks.chunks), [("1", "one"), ("2", "two")]);
    }

    #[test]
    fn json_object_holding_an_array() {
        for key in ARRAY_FIELDS {
            let chunks = read(&format!(
                r#"{{"{key}": ["one", {{"id": "x", "text": "two"}}]}}"#
            ));
            assert_eq!(
                ids_and_texts(&chunks.chunks),
                [("1", "one"), ("x", "two")],
                "{key}"
            );
        }
    }

    #[test]
    fn json_object_keyed_by_id() {
        let chunks = read(
            r#"{"https://b.example/page": {"title": "B", "text": "two"}, "https://a.example": {"content": "one", "id": "a"}}"#,
        );
        assert_eq!(
            ids_and_texts(&chunks.chunks),
            [("a", "one"), ("https://b.example/page", "two")]
        );
        assert_eq!(chunks.chunks[1].aliases, ["B"]);
    }

    #[test]
    fn an_eval_record_or_one_chunk_is_not_keyed_by_id() {
        let one = read(r#"{"title": "T", "text": "one"}"#);
        assert_eq!(ids_and_texts(&one.chunks), [("1", "one")]);
        for record in [
            r#"{"question": "Why?", "answer": "Because."}"#,
            r#"{"a": "one", "b": 2}"#,
            r#"{"not": "chunks"}"#,
            r#"{"question": {"text": "Why?"}}"#,
        ] {
            let value: Value = serde_json::from_str(record).expect("json");
            assert!(chunks_from_value(value).is_err(), "{record}");
        }
    }

    #[test]
    fn json_lines() {
        let chunks =
            read("{\"id\": \"a\", \"text\": \"one\"}\n\n{\"id\": \"b\", \"text\": \"two\"}\n");
        assert_eq!(chunks.format, ChunkFormat::JsonLines);
        assert_eq!(ids_and_texts(&chunks.chunks), [("a", "one"), ("b", "two")]);
    }

    #[test]
    fn a_bracketed_number_starting_text_is_not_json() {
        let chunks = read("[1] Paris is big.\n[2] Rome is old.");
        assert_eq!(chunks.format, ChunkFormat::BracketBlocks);
    }

    #[test]
    fn json_by_file_name_whatever_it_starts_with() {
        let err = read_chunks(b"  not json", true).unwrap_err();
        assert!(matches!(err, InputError::Json { line: 1, .. }), "{err:?}");
    }

    #[test]
    fn malformed_json_names_line_and_column() {
        let err = read_chunks(
            b"[\n  {\"id\": 1, \"text\": \"a\"}\n  {\"id\": 2}\n]",
            false,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid JSON at line 3, column 3: expected `,` or `]`"
        );
    }

    #[test]
    fn duplicate_ids_are_an_error() {
        let err = read_chunks(
            br#"[{"id": "a", "text": "x"}, {"id": "a", "text": "y"}]"#,
            false,
        )
        .unwrap_err();
        assert_eq!(err.to_string(), "duplicate chunk id `a` (chunks 1 and 2)");
    }

    #[test]
    fn empty_chunks_are_kept_with_a_warning() {
        let chunks = read(r#"[{"id": "a", "text": ""}, "b"]"#);
        assert_eq!(chunks.chunks.len(), 2);
        assert_eq!(chunks.warnings, ["chunk a is empty"]);
    }

    #[test]
    fn wrong_shapes_are_errors_with_positions() {
        let err = read_chunks(br#"[{"id": "a", "text": 3}]"#, false).unwrap_err();
        assert_eq!(
            err.to_string(),
            "chunk 1: its text is a number; expected a string"
        );
        let err = read_chunks(b"{\"text\": \"a\"}\n{\"title\": \"b\"}", false).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("chunk 2 (line 2): it has no text field"),
            "{err}"
        );
        let err = read_chunks(b"42", true).unwrap_err();
        assert_eq!(
            err.to_string(),
            "expected an array of chunks, found a number"
        );
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = "[".repeat(100_000);
        assert!(matches!(
            read_chunks(deep.as_bytes(), false),
            Err(InputError::Json { .. })
        ));
    }
}
