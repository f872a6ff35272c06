//! Mistral chat completions with references: `message.content` is a list of chunks, `text` ones
//! and `reference` ones (`reference_ids: [0, 1]`); a reference cites the text before it, that
//! is, the sentence it ends (see [`ending_at`](super::offsets::ending_at)).
//!
//! Sources: not in the response. The chunks file is the tool result the references point into:
//! a JSON object keyed by reference id (`{"0": {"url", "title", "snippets": [[...]],
//! "description"}}`), each entry a chunk named by its key, its text the snippets (one per
//! line), else its `description` or `text`, with its `url` and `title` as other names.

use serde_json::{Map, Value};

use super::json::pointer;
use super::reading::Sources;
use super::{Provider, never, openai};
use crate::input::InputError;
use crate::input::{AnswerFormat, Chunk, TEXT_FIELDS};

pub(super) const PROVIDER: Provider = Provider {
    format: AnswerFormat::Mistral,
    response: |object| has_references(pointer(object, "/choices/0/message/content")),
    event: |event| has_references(pointer(event, "/choices/0/delta/content")),
    error: never,
    array_stream: false,
    keys: &["reference_ids"],
    read: openai::read,
    sources_elsewhere: "the tool result its references point into (keyed by reference id)",
    sources,
};

fn has_references(content: Option<&Value>) -> bool {
    content.and_then(Value::as_array).is_some_and(|parts| {
        parts
            .iter()
            .any(|p| p.get("type").and_then(Value::as_str) == Some("reference"))
    })
}

/// An object keyed by reference ids (whole numbers), whose entries have a `url`, a `title` or
/// `snippets`.
fn sources(value: &Value) -> Option<Result<Sources, InputError>> {
    let object = value.as_object()?;
    let is_reference = |(key, entry): (&String, &Value)| {
        !key.is_empty()
            && key.bytes().all(|b| b.is_ascii_digit())
            && entry
                .as_object()
                .is_some_and(|e| e.contains_key("url") || e.contains_key("snippets"))
    };
    if object.is_empty() || !object.iter().all(is_reference) {
        return None;
    }
    let mut entries: Vec<(u64, &Map<String, Value>)> = object
        .iter()
        .filter_map(|(key, entry)| Some((key.parse().ok()?, entry.as_object()?)))
        .collect();
    entries.sort_by_key(|(key, _)| *key);
    let chunks = entries
        .into_iter()
        .map(|(key, entry)| {
            let mut snippets = Vec::new();
            flatten_strings(entry.get("snippets"), &mut snippets);
            let text = if snippets.is_empty() {
                ["description"]
                    .iter()
                    .chain(TEXT_FIELDS)
                    .find_map(|k| entry.get(*k)?.as_str())
                    .unwrap_or("")
                    .to_string()
            } else {
                snippets.join("\n")
            };
            let aliases = ["url", "title"]
                .iter()
                .filter_map(|k| entry.get(*k)?.as_str())
                .map(str::to_string)
                .collect();
            Chunk {
                id: key.to_string(),
                text,
                aliases,
            }
        })
        .collect();
    Some(Ok(Sources {
        chunks,
        ..Sources::default()
    }))
}

/// Every string in a value of nested lists, in order.
fn flatten_strings<'a>(value: Option<&'a Value>, out: &mut Vec<&'a str>) {
    match value {
        Some(Value::String(s)) => out.push(s),
        Some(Value::Array(items)) => {
            for item in items {
                flatten_strings(Some(item), out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::CitationTarget;
    use crate::input::response::testing::*;
    use crate::input::testing::ids_and_texts;

    #[test]
    fn a_reference_cites_the_sentence_it_ends() {
        let text = r#"{"id": "x", "object": "chat.completion", "choices": [{"index": 0, "finish_reason": "stop",
            "message": {"role": "assistant", "tool_calls": null, "prefix": false, "content": [
                {"type": "text", "text": "The tower is tall"},
                {"type": "reference", "reference_ids": [0, 2]},
                {"type": "text", "text": ". It is in Paris."},
                {"type": "reference", "reference_ids": ["1"]}]}}]}"#;
        let answer = read_detected(text);
        assert_eq!(answer.format, AnswerFormat::Mistral);
        assert_eq!(answer.text, "The tower is tall. It is in Paris.");
        let label = |l: &str| CitationTarget::Label(l.to_string());
        assert_eq!(
            cited(&answer),
            [
                (Some("l"), label("0"), None),
                (Some("l"), label("2"), None),
                (Some("."), label("1"), None),
            ]
        );
    }

    #[test]
    fn the_tool_result_is_the_chunks_file() {
        let value = serde_json::json!({
            "1": {"url": "https://b", "title": "B", "snippets": [["Two."], ["Three."]], "description": null},
            "0": {"url": "https://a", "title": "A", "snippets": [], "description": "One."}});
        let sources = sources(&value).expect("recognised").expect("read");
        let chunks = ids_and_texts(&sources.chunks);
        assert_eq!(chunks, [("0", "One."), ("1", "Two.\nThree.")]);
        assert!(super::sources(&serde_json::json!({"0": "x"})).is_none());
        assert!(super::sources(&serde_json::json!({"chunks": []})).is_none());
    }
}
