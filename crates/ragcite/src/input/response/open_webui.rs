//! Open WebUI chat export (`chat-export-<ms>.json`, the UI's "Export chat (.json)"): a JSON
//! array of `ChatResponse` objects (`id`, `title`, `chat`, ...), or one of them.
//!
//! One chat is read: an export of several chats is an error (ragcite checks one answer; export
//! that chat alone). The answer is the chat's current message,
//! `chat.history.messages[chat.history.currentId].content` (the branch shown, not every message),
//! and the question is its parent's (`parentId`) `content`.
//!
//! Sources: the message's `sources[]`, each with the parallel arrays `document[]` (the texts)
//! and `metadata[]` (`source`, `name`, `file_id`, ...); `source` is the knowledge base or file
//! searched, not a chunk. Open WebUI numbers the distinct `metadata[i].source` (else the entry's
//! `source.id`) in that flattened order, and `[N]` names the N-th: a number names a source file,
//! so the chunks of one file share it. A file's only chunk is named `N`; a file's several chunks
//! `N#1`, `N#2`, ..., each with `N` as another name; the file's `source`, `name` and `file_id`
//! are other names too. (`distances` are scores, and not read.)

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::json::{json_values, opt_array, opt_object, opt_str, pointer, wrong};
use super::reading::{Reading, Sources};
use super::{Provider, never, no_sources};
use crate::input::{AnswerFormat, Chunk, InputError};

pub(super) const PROVIDER: Provider = Provider {
    format: AnswerFormat::OpenWebui,
    response: is_chat,
    event: never,
    error: never,
    array_stream: true,
    keys: &["currentId"],
    read,
    sources_elsewhere: "",
    sources: no_sources,
};

/// A `ChatResponse`: `chat.history` with its `messages` by id.
fn is_chat(object: &Map<String, Value>) -> bool {
    pointer(object, "/chat/history/messages").is_some_and(Value::is_object)
}

fn read(text: &str) -> Result<Reading, InputError> {
    let mut items = json_values(text)?.into_iter();
    let (Some(first), None) = (items.next(), items.next()) else {
        return Err(InputError::Response {
            line: None,
            message: "expected one JSON value: an Open WebUI chat export".to_string(),
        });
    };
    let (chat, path) = match &first.value {
        Value::Array(chats) if chats.len() == 1 => (&chats[0], "[0]."),
        Value::Array(chats) => {
            return Err(InputError::Response {
                line: None,
                message: format!(
                    "the export holds {} chats; ragcite checks one answer: export one chat, or \
                     pass one element of the array",
                    chats.len()
                ),
            });
        }
        other => (other, ""),
    };
    let chat = chat
        .as_object()
        .ok_or_else(|| wrong(chat, "an object").at(None, path.trim_end_matches('.')))?;
    let history = opt_object(pointer(chat, "/chat/history"))
        .map_err(|w| w.at(None, format_args!("{path}chat.history")))?;
    let at = format!("{path}chat.history");
    let Some(history) = history else {
        return Err(InputError::Response {
            line: None,
            message: format!("`{at}` is missing"),
        });
    };
    let messages = opt_object(history.get("messages"))
        .map_err(|w| w.at(None, format_args!("{at}.messages")))?;
    let current = opt_str(history.get("currentId"))
        .map_err(|w| w.at(None, format_args!("{at}.currentId")))?;
    let message = current.and_then(|id| Some((id, messages?.get(id)?)));
    let Some((id, message)) = message else {
        return Err(InputError::Response {
            line: None,
            message: format!("`{at}.currentId` names no message of `{at}.messages`"),
        });
    };
    let at = format!("{at}.messages[\"{id}\"]");
    let content =
        opt_str(message.get("content")).map_err(|w| w.at(None, format_args!("{at}.content")))?;
    let mut reading = Reading {
        text: content.unwrap_or("").to_string(),
        ..Reading::default()
    };
    let parent =
        opt_str(message.get("parentId")).map_err(|w| w.at(None, format_args!("{at}.parentId")))?;
    reading.question = parent
        .and_then(|p| messages?.get(p)?.get("content")?.as_str())
        .map(str::to_string);
    let sources =
        opt_array(message.get("sources")).map_err(|w| w.at(None, format_args!("{at}.sources")))?;
    if !sources.is_empty() {
        reading.sources = Some(read_sources(sources, &format!("{at}.sources"))?);
    }
    Ok(reading)
}

/// The chunks of `sources[]`, numbered by their source file as the chat's `[N]` number them.
fn read_sources(sources: &[Value], path: &str) -> Result<Sources, InputError> {
    // `(file key, text, other names)` of each chunk, in order.
    let mut found: Vec<(String, String, Vec<String>)> = Vec::new();
    for (k, entry) in sources.iter().enumerate() {
        let at = format!("{path}[{k}]");
        let documents = opt_array(entry.get("document"))
            .map_err(|w| w.at(None, format_args!("{at}.document")))?;
        let metadata = opt_array(entry.get("metadata"))
            .map_err(|w| w.at(None, format_args!("{at}.metadata")))?;
        let searched = opt_str(entry.pointer("/source/id"))
            .map_err(|w| w.at(None, format_args!("{at}.source.id")))?;
        for (i, document) in documents.iter().enumerate() {
            let text = document.as_str().ok_or_else(|| {
                wrong(document, "a string").at(None, format_args!("{at}.document[{i}]"))
            })?;
            let meta = opt_object(metadata.get(i))
                .map_err(|w| w.at(None, format_args!("{at}.metadata[{i}]")))?;
            let field = |key: &str| meta.and_then(|m| m.get(key)).and_then(Value::as_str);
            let key = field("source").or(searched).unwrap_or("");
            let mut names: Vec<String> = Vec::new();
            for name in [field("source"), field("name"), field("file_id")]
                .into_iter()
                .flatten()
            {
                if !name.is_empty() && !names.iter().any(|n| n == name) {
                    names.push(name.to_string());
                }
            }
            found.push((key.to_string(), text.to_string(), names));
        }
    }
    // Each distinct file its number, from 1, in order; and how many chunks it has.
    let mut numbers: HashMap<&str, (usize, usize)> = HashMap::new();
    for (key, _, _) in &found {
        let next = numbers.len() + 1;
        numbers.entry(key).or_insert((next, 0)).1 += 1;
    }
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let mut out = Sources {
        ids_are_numbers: true,
        ..Sources::default()
    };
    for (key, text, names) in &found {
        let (number, count) = numbers[key.as_str()];
        let (id, mut aliases) = if count > 1 {
            let k = seen.entry(key).or_default();
            *k += 1;
            (format!("{number}#{k}"), vec![number.to_string()])
        } else {
            (number.to_string(), Vec::new())
        };
        aliases.extend(names.iter().cloned());
        out.chunks.push(Chunk {
            id,
            text: text.clone(),
            aliases,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::response::testing::*;
    use crate::input::testing::with_names;
    use serde_json::json;

    fn export(sources: Value) -> String {
        json!([{"id": "c", "title": "T", "chat": {"history": {"currentId": "b", "messages": {
            "a": {"id": "a", "parentId": null, "role": "user", "content": "How tall?"},
            "b": {"id": "b", "parentId": "a", "role": "assistant", "content": "Tall [1]. Old [2].", "sources": sources},
            "x": {"id": "x", "parentId": "a", "role": "assistant", "content": "Another branch."}}}}}])
        .to_string()
    }

    #[test]
    fn the_current_message_and_sources_numbered_by_file() {
        let text = export(json!([
            {"source": {"type": "collection", "id": "kb"}, "document": ["One.", "Two.", "Three."],
             "metadata": [{"source": "a.md", "name": "a.md", "file_id": "fa"}, {"source": "b.md"}, {"source": "a.md", "file_id": "fa"}],
             "distances": [0.9, 0.8, 0.7]},
            {"source": {"type": "file", "id": "web"}, "document": ["Four."]}]));
        let answer = read_detected(&text);
        assert_eq!(answer.format, AnswerFormat::OpenWebui);
        assert_eq!(answer.text, "Tall [1]. Old [2].");
        assert_eq!(answer.question.as_deref(), Some("How tall?"));
        let sources = answer.sources.expect("sources");
        assert!(sources.ids_are_numbers);
        let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let (a, b, w) = (names(&["1", "a.md", "fa"]), names(&["b.md"]), names(&[]));
        assert_eq!(
            with_names(&sources.chunks),
            [
                ("1#1", "One.", &a[..]),
                ("2", "Two.", &b[..]),
                ("1#2", "Three.", &a[..]),
                ("3", "Four.", &w[..]),
            ]
        );
    }

    #[test]
    fn several_chats_and_wrong_shapes_are_errors() {
        let two = json!([{"chat": {"history": {"messages": {}}}}, {"chat": {"history": {"messages": {}}}}]);
        assert!(
            read_error(&two.to_string(), AnswerFormat::OpenWebui)
                .1
                .starts_with("the export holds 2 chats")
        );
        let lost = json!({"chat": {"history": {"currentId": "z", "messages": {}}}});
        assert_eq!(
            read_error(&lost.to_string(), AnswerFormat::OpenWebui).1,
            "`chat.history.currentId` names no message of `chat.history.messages`"
        );
        let wrong = export(json!([{"document": ["One.", 2]}]));
        assert_eq!(
            read_error(&wrong, AnswerFormat::OpenWebui).1,
            "`[0].chat.history.messages[\"b\"].sources[0].document[1]` is a number; expected a string"
        );
    }
}
