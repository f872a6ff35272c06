//! OpenAI Assistants API v2: a thread's messages list (`GET /threads/{id}/messages`,
//! `{"object": "list", "data": [...]}`), or one `thread.message`. The answer is the latest
//! `role: "assistant"` message (the largest `created_at`; the list is newest first by default,
//! so among equal times the first listed): its `content[]` parts of type `text`, their
//! `text.value` joined. Cut off when the message's `status` is `incomplete` for `max_tokens`.
//!
//! Citations: each `file_citation` of a part's `text.annotations[]` cites its span
//! `start_index..end_index` (code points of that part's value, end excluded) to the file
//! `file_citation.file_id`, with `file_citation.quote` (v1) as the quote. The span is the
//! marker the model wrote (`【4:0†source】`): the check reads it as this citation's place, not
//! as a marker naming chunk 4. `file_path` annotations cite nothing.
//!
//! Sources: the messages carry none. The chunks file is the run's steps
//! (`GET /threads/{id}/runs/{id}/steps` with
//! `include[]=step_details.tool_calls[*].file_search.results[*].content`, or one
//! `thread.run.step`): each `file_search` tool call's `results[]`, in order, named by `file_id`
//! with `file_name` as another name, their text the `content[]` text parts one per line. A file
//! with several results names them `<file_id>#1`, `<file_id>#2`, ..., each with the file id as
//! another name, so that a citation of the file names all of them.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::json::{opt_array, opt_object, opt_str, opt_whole, single_object, type_of, wrong};
use super::offsets::{char_span, char_starts};
use super::reading::{Reading, Sources, cut_off};
use super::{Provider, never};
use crate::input::{AnswerFormat, Chunk, CitationTarget, InputError, NativeCitation};

pub(super) const PROVIDER: Provider = Provider {
    format: AnswerFormat::OpenaiAssistants,
    response: |object| is_list_of(object, "thread.message") || is_message(object),
    event: never,
    error: never,
    array_stream: false,
    keys: &["assistant_id"],
    read,
    sources_elsewhere: "the run's steps (its file_search results, listed with \
                        include[]=step_details.tool_calls[*].file_search.results[*].content)",
    sources,
};

fn object_kind(object: &Map<String, Value>) -> Option<&str> {
    object.get("object").and_then(Value::as_str)
}

fn is_message(object: &Map<String, Value>) -> bool {
    object_kind(object) == Some("thread.message")
}

/// `{"object": "list", "data": [...]}` whose items are `kind` objects.
fn is_list_of(object: &Map<String, Value>, kind: &str) -> bool {
    object_kind(object) == Some("list")
        && object
            .get("data")
            .and_then(Value::as_array)
            .is_some_and(|items| {
                items
                    .iter()
                    .any(|item| item.get("object").and_then(Value::as_str) == Some(kind))
            })
}

fn read(text: &str) -> Result<Reading, InputError> {
    let object = single_object(text)?;
    if is_message(&object) {
        return message(&object, "");
    }
    let data = opt_array(object.get("data")).map_err(|w| w.at(None, "data"))?;
    // The latest assistant message: the largest `created_at`, the first listed among equals.
    let mut latest: Option<(usize, &Map<String, Value>, u64)> = None;
    for (k, item) in data.iter().enumerate() {
        let item = item
            .as_object()
            .ok_or_else(|| wrong(item, "an object").at(None, format_args!("data[{k}]")))?;
        let role =
            opt_str(item.get("role")).map_err(|w| w.at(None, format_args!("data[{k}].role")))?;
        if role != Some("assistant") {
            continue;
        }
        let created = opt_whole(item.get("created_at"))
            .map_err(|w| w.at(None, format_args!("data[{k}].created_at")))?
            .unwrap_or(0);
        if latest.is_none_or(|(_, _, best)| created > best) {
            latest = Some((k, item, created));
        }
    }
    match latest {
        Some((k, item, _)) => message(item, &format!("data[{k}].")),
        None => Err(InputError::Response {
            line: None,
            message: "the messages list holds no assistant message".to_string(),
        }),
    }
}

/// One message's text parts and their file citations; `path` (`data[0].`) names it in errors.
fn message(object: &Map<String, Value>, path: &str) -> Result<Reading, InputError> {
    let mut reading = Reading::default();
    let content =
        opt_array(object.get("content")).map_err(|w| w.at(None, format_args!("{path}content")))?;
    // Each text part's characters in the joined text, with its annotations.
    let mut parts = Vec::new();
    let mut chars = 0;
    for (k, part) in content.iter().enumerate() {
        if type_of(part) != Some("text") {
            continue;
        }
        let at = format!("{path}content[{k}].text");
        let text = opt_object(part.get("text")).map_err(|w| w.at(None, &at))?;
        let Some(text) = text else { continue };
        let value = opt_str(text.get("value"))
            .map_err(|w| w.at(None, format_args!("{at}.value")))?
            .unwrap_or("");
        let annotations = opt_array(text.get("annotations"))
            .map_err(|w| w.at(None, format_args!("{at}.annotations")))?;
        let len = value.chars().count();
        reading.text.push_str(value);
        parts.push((chars..chars + len, annotations, at));
        chars += len;
    }
    let starts = char_starts(&reading.text);
    for (within, annotations, at) in parts {
        for (j, annotation) in annotations.iter().enumerate() {
            if type_of(annotation) != Some("file_citation") {
                continue;
            }
            let path = format!("{at}.annotations[{j}]");
            let field = |key: &str| {
                opt_whole(annotation.get(key)).map_err(|w| w.at(None, format_args!("{path}.{key}")))
            };
            let (start, end) = (field("start_index")?, field("end_index")?);
            let citation = opt_object(annotation.get("file_citation"))
                .map_err(|w| w.at(None, format_args!("{path}.file_citation")))?;
            let string = |key: &str| {
                opt_str(citation.and_then(|c| c.get(key)))
                    .map_err(|w| w.at(None, format_args!("{path}.file_citation.{key}")))
            };
            let (file_id, quote) = (string("file_id")?, string("quote")?);
            let (Some(file_id), Some(start), Some(end)) = (file_id, start, end) else {
                continue;
            };
            if let Some(span) = char_span(&starts, &within, start, end) {
                reading.citations.push(NativeCitation {
                    span: Some(span),
                    target: CitationTarget::Label(file_id.to_string()),
                    quote: quote.filter(|q| !q.is_empty()).map(str::to_string),
                });
            }
        }
    }
    let status =
        opt_str(object.get("status")).map_err(|w| w.at(None, format_args!("{path}status")))?;
    if status == Some("incomplete") {
        let reason = object
            .get("incomplete_details")
            .and_then(|d| d.get("reason"))
            .and_then(Value::as_str);
        if let Some(reason @ ("max_tokens" | "max_completion_tokens")) = reason {
            reading
                .warnings
                .push(cut_off("incomplete_details.reason", reason));
        }
    }
    Ok(reading)
}

/// A run steps list (or one run step) whose `file_search` tool calls hold results; `None` when
/// `value` is none.
fn sources(value: &Value) -> Option<Result<Sources, InputError>> {
    let object = value.as_object()?;
    let steps: Vec<(&Value, String)> = if object_kind(object) == Some("thread.run.step") {
        vec![(value, String::new())]
    } else if is_list_of(object, "thread.run.step") {
        let data = object.get("data")?.as_array()?;
        data.iter()
            .enumerate()
            .map(|(k, step)| (step, format!("data[{k}].")))
            .collect()
    } else {
        return None;
    };
    Some(read_steps(&steps))
}

fn read_steps(steps: &[(&Value, String)]) -> Result<Sources, InputError> {
    // `(file id, file name, text)` of each result, in order.
    let mut results: Vec<(String, Option<String>, String)> = Vec::new();
    for (step, path) in steps {
        let calls = opt_array(step.pointer("/step_details/tool_calls"))
            .map_err(|w| w.at(None, format_args!("{path}step_details.tool_calls")))?;
        for (k, call) in calls.iter().enumerate() {
            if type_of(call) != Some("file_search") {
                continue;
            }
            let at = format!("{path}step_details.tool_calls[{k}].file_search.results");
            let list =
                opt_array(call.pointer("/file_search/results")).map_err(|w| w.at(None, &at))?;
            for (j, result) in list.iter().enumerate() {
                let string = |key: &str| {
                    opt_str(result.get(key))
                        .map_err(|w| w.at(None, format_args!("{at}[{j}].{key}")))
                };
                let (Some(file_id), name) = (string("file_id")?, string("file_name")?) else {
                    continue;
                };
                let content = opt_array(result.get("content"))
                    .map_err(|w| w.at(None, format_args!("{at}[{j}].content")))?;
                let mut texts = Vec::new();
                for (i, part) in content.iter().enumerate() {
                    if type_of(part) == Some("text") {
                        let text = opt_str(part.get("text"))
                            .map_err(|w| w.at(None, format_args!("{at}[{j}].content[{i}].text")))?;
                        texts.extend(text);
                    }
                }
                results.push((
                    file_id.to_string(),
                    name.map(str::to_string),
                    texts.join("\n"),
                ));
            }
        }
    }
    let mut per_file: HashMap<&str, usize> = HashMap::new();
    for (file_id, _, _) in &results {
        *per_file.entry(file_id).or_default() += 1;
    }
    let mut numbered: HashMap<String, usize> = HashMap::new();
    let mut sources = Sources::default();
    for (file_id, name, text) in &results {
        let (id, mut aliases) = if per_file[file_id.as_str()] > 1 {
            let n = numbered.entry(file_id.clone()).or_default();
            *n += 1;
            (format!("{file_id}#{n}"), vec![file_id.clone()])
        } else {
            (file_id.clone(), Vec::new())
        };
        aliases.extend(name.clone().filter(|n| !n.is_empty()));
        sources.chunks.push(Chunk {
            id,
            text: text.clone(),
            aliases,
        });
    }
    Ok(sources)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::response::testing::*;
    use crate::input::testing::with_names;
    use serde_json::json;

    fn file(id: &str) -> CitationTarget {
        CitationTarget::Label(id.to_string())
    }

    #[test]
    fn the_latest_assistant_message_and_its_file_citations_in_code_points() {
        // Newest first; the user's question is not the answer.
        let list = json!({"object": "list", "data": [
            {"object": "thread.message", "role": "assistant", "created_at": 20, "content": [
                {"type": "text", "text": {"value": "Été 330 m【4:0†source】. Old【4:1†source】.", "annotations": [
                    {"type": "file_citation", "text": "【4:0†source】", "start_index": 9, "end_index": 21,
                     "file_citation": {"file_id": "file-A"}},
                    {"type": "file_path", "text": "x", "start_index": 0, "end_index": 3, "file_path": {"file_id": "file-P"}}]}},
                {"type": "image_file", "image_file": {"file_id": "img"}},
                {"type": "text", "text": {"value": " Né【9】.", "annotations": [
                    {"type": "file_citation", "start_index": 3, "end_index": 6, "file_citation": {"file_id": "file-B", "quote": "q"}},
                    {"type": "file_citation", "start_index": 40, "end_index": 90, "file_citation": {"file_id": "file-C"}}]}}]},
            {"object": "thread.message", "role": "assistant", "created_at": 10, "content": [
                {"type": "text", "text": {"value": "An older answer.", "annotations": []}}]},
            {"object": "thread.message", "role": "user", "created_at": 30, "content": [
                {"type": "text", "text": {"value": "How tall?", "annotations": []}}]}]});
        let answer = read_detected(&list.to_string());
        assert_eq!(answer.format, AnswerFormat::OpenaiAssistants);
        assert_eq!(
            answer.text,
            "Été 330 m【4:0†source】. Old【4:1†source】. Né【9】."
        );
        assert_eq!(
            cited(&answer),
            [
                (Some("【4:0†source】"), file("file-A"), None),
                (Some("【9】"), file("file-B"), Some("q")),
            ]
        );
        assert!(answer.sources.is_none());
    }

    #[test]
    fn errors_name_their_path() {
        let wrong = json!({"object": "list", "data": [{"object": "thread.message", "role": "assistant",
            "content": [{"type": "text", "text": {"value": "A", "annotations": [
                {"type": "file_citation", "start_index": "0", "end_index": 1}]}}]}]});
        assert_eq!(
            read_error(&wrong.to_string(), AnswerFormat::OpenaiAssistants).1,
            "`data[0].content[0].text.annotations[0].start_index` is a string; expected a number"
        );
        let none = json!({"object": "list", "data": [{"object": "thread.message", "role": "user", "content": []}]});
        assert_eq!(
            read_error(&none.to_string(), AnswerFormat::OpenaiAssistants).1,
            "the messages list holds no assistant message"
        );
        let cut = json!({"object": "thread.message", "role": "assistant", "status": "incomplete",
            "incomplete_details": {"reason": "max_tokens"}, "content": []});
        let answer = read_detected(&cut.to_string());
        assert!(answer.warnings[0].contains("incomplete_details.reason = \"max_tokens\""));
    }

    #[test]
    fn run_steps_are_the_chunks_file() {
        let steps = json!({"object": "list", "data": [
            {"object": "thread.run.step", "step_details": {"type": "message_creation", "message_creation": {"message_id": "m"}}},
            {"object": "thread.run.step", "step_details": {"type": "tool_calls", "tool_calls": [
                {"type": "code_interpreter", "code_interpreter": {}},
                {"type": "file_search", "file_search": {"results": [
                    {"file_id": "file-A", "file_name": "a.txt", "content": [{"type": "text", "text": "One."}, {"type": "text", "text": "Two."}]},
                    {"file_id": "file-B", "file_name": "b.txt", "content": [{"type": "text", "text": "Three."}]},
                    {"file_id": "file-A", "file_name": "a.txt", "content": [{"type": "text", "text": "Four."}]}]}}]}}]});
        let read = sources(&steps).expect("recognised").expect("read");
        let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let (a, b) = (names(&["file-A", "a.txt"]), names(&["b.txt"]));
        assert_eq!(
            with_names(&read.chunks),
            [
                ("file-A#1", "One.\nTwo.", &a[..]),
                ("file-B", "Three.", &b[..]),
                ("file-A#2", "Four.", &a[..]),
            ]
        );
        let wrong = json!({"object": "thread.run.step", "step_details": {"tool_calls": [
            {"type": "file_search", "file_search": {"results": [{"file_id": 3}]}}]}});
        let Some(Err(e)) = sources(&wrong) else {
            panic!("expected an error")
        };
        assert_eq!(
            e.to_string(),
            "`step_details.tool_calls[0].file_search.results[0].file_id` is a number; expected a string"
        );
    }
}
