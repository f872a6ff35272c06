//! Cohere Chat v2: the `text` items of `message.content`, joined, one JSON object or the SSE
//! stream (which joins the `content-delta` texts, takes each `citation-start` citation, and the
//! finish reason and counts of `message-end`). Cut off when `finish_reason` is `MAX_TOKENS`.
//!
//! Citations: each source of each of `message.citations` cites the span `start..end`
//! (characters, counted from the start of the item at `content_index` when given, else of the
//! text) to the chunk with the source's `id`; a generated id such as `doc:0` or `doc-0`, when no
//! chunk has it, names the chunk at its trailing number. Citations of type `THINKING_CONTENT` or
//! `PLAN` cite the model's reasoning, not the answer: skipped.
//!
//! Sources: the documents the citations carry (`sources[]` of type `document`, each once, by its
//! `id`, else `document.id`), with their text in `document.snippet`, else `document.text`, else
//! the document's other string fields (not `id`, `title` or `url`) one per line; their `title`
//! and `url` are other names. Cohere returns only the documents it cites. The chunks file may be
//! the request body: its `documents[]`, each `{id, data}` (text read from `data` the same way,
//! `data.title` another name) or a string, named by `id`, else `doc:<n>` (0-based request
//! position), as Cohere names them.

use std::collections::BTreeMap;
use std::ops::Range;

use serde_json::{Map, Value};

use super::json::{
    Located, empty_stream, error_message, is_an_error, not_a_stream_of, object_of, opt_array,
    opt_object, opt_str, opt_whole, pointer, type_of, values_of,
};
use super::offsets::char_starts;
use super::reading::{ENDED_EARLY, Event, Reading, Sources, StreamErrors, cut_off, typed_events};
use super::{Provider, never};
use crate::input::InputError;
use crate::input::{AnswerFormat, Chunk, CitationTarget, NativeCitation};

pub(super) const PROVIDER: Provider = Provider {
    format: AnswerFormat::Cohere,
    response: is_response,
    event: |event| {
        event
            .get("type")
            .and_then(Value::as_str)
            .is_some_and(|kind| EVENTS.contains(&kind))
    },
    error: never,
    array_stream: false,
    keys: &["finish_reason"],
    read,
    sources_elsewhere: "the request body (its documents)",
    sources,
};

/// `message` with a `content` array (Ollama's holds a string) or a `finish_reason`, and no
/// `done`.
fn is_response(object: &Map<String, Value>) -> bool {
    let Some(message) = object.get("message").and_then(Value::as_object) else {
        return false;
    };
    !object.contains_key("done")
        && (message.get("content").is_some_and(Value::is_array)
            || object.contains_key("finish_reason"))
}

/// The position a generated source id names: its trailing number (`doc:0` → 0).
fn trailing_number(id: &str) -> Option<usize> {
    let digits = id.len() - id.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return None;
    }
    id[id.len() - digits..].parse().ok()
}

fn read(text: &str) -> Result<Reading, InputError> {
    let values = values_of(text)?;
    match values.items.as_slice() {
        [] => Err(empty_stream()),
        [one] if !values.sse && !is_event(&one.value) => response(one),
        events => stream(events),
    }
}

/// The event types of a Cohere Chat v2 stream.
const EVENTS: [&str; 7] = [
    "message-start",
    "content-start",
    "content-delta",
    "content-end",
    "citation-start",
    "citation-end",
    "message-end",
];

fn is_event(value: &Value) -> bool {
    type_of(value).is_some_and(|kind| EVENTS.contains(&kind))
}

fn response(item: &Located) -> Result<Reading, InputError> {
    let object = object_of(item)?;
    if let Some(message) = error_message(object) {
        return Err(is_an_error(None, &message));
    }
    // Cohere's error bodies are `{"message": "..."}`; in an answer `message` is an object.
    if let Some(Value::String(message)) = object.get("message") {
        return Err(is_an_error(None, message));
    }
    let mut reading = Reading::default();
    let message = opt_object(object.get("message")).map_err(|w| w.at(None, "message"))?;
    if let Some(message) = message {
        let content =
            opt_array(message.get("content")).map_err(|w| w.at(None, "message.content"))?;
        let mut items = Vec::with_capacity(content.len());
        for (k, item) in content.iter().enumerate() {
            let text = match type_of(item) {
                Some("text") => Some(
                    opt_str(item.get("text"))
                        .map_err(|w| w.at(None, format_args!("message.content[{k}].text")))?
                        .unwrap_or(""),
                ),
                _ => None,
            };
            items.push((k as u64, text));
        }
        let citations =
            opt_array(message.get("citations")).map_err(|w| w.at(None, "message.citations"))?;
        let citations = citations
            .iter()
            .enumerate()
            .map(|(k, citation)| (citation, None, format!("message.citations[{k}]")));
        text_and_citations(&mut reading, items, citations)?;
    }
    read_end(&mut reading, object, None, "")?;
    Ok(reading)
}

/// The finish reason and token counts, from the response or from a stream's `message-end`
/// delta (`path` is then `delta.`).
fn read_end(
    reading: &mut Reading,
    object: &Map<String, Value>,
    at: Option<usize>,
    path: &str,
) -> Result<(), InputError> {
    let reason = opt_str(object.get("finish_reason"))
        .map_err(|w| w.at(at, format_args!("{path}finish_reason")))?;
    // The API writes `MAX_TOKENS`; an older SDK release spells it `max_tokens`.
    if let Some(reason) = reason.filter(|r| r.eq_ignore_ascii_case("MAX_TOKENS")) {
        reading.warnings.push(cut_off("finish_reason", reason));
    }
    let usage =
        opt_object(object.get("usage")).map_err(|w| w.at(at, format_args!("{path}usage")))?;
    if let Some(usage) = usage {
        // `tokens` (what the model read and wrote) wins over `billed_units` where both count.
        for kind in ["billed_units", "tokens"] {
            reading.read_usage(
                usage.get(kind),
                &format!("{path}usage.{kind}"),
                ("input_tokens", "output_tokens"),
                at,
            )?;
        }
    }
    Ok(())
}

/// Joins the content items (by `content_index`; `None` for items that are not text) and reads
/// the citations, each with the line and path that name it in errors.
fn text_and_citations<'a>(
    reading: &mut Reading,
    items: Vec<(u64, Option<&str>)>,
    citations: impl Iterator<Item = (&'a Value, Option<usize>, String)>,
) -> Result<(), InputError> {
    // The character range of each text item in the joined text, by its `content_index`.
    let mut ranges: BTreeMap<u64, Range<usize>> = BTreeMap::new();
    // The items that are no text (the model's `thinking`): citations of them cite no answer.
    let mut other_items = std::collections::BTreeSet::new();
    let mut chars = 0;
    for (index, text) in items {
        if text.is_none() {
            other_items.insert(index);
        }
        if let Some(text) = text {
            let len = text.chars().count();
            reading.text.push_str(text);
            ranges.insert(index, chars..chars + len);
            chars += len;
        }
    }
    // Built at the first citation: an answer without citations needs no table.
    let mut starts: Option<Vec<usize>> = None;
    let mut documents = Documents::default();
    for (citation, at, path) in citations {
        let field = |key: &str| {
            opt_whole(citation.get(key)).map_err(|w| w.at(at, format_args!("{path}.{key}")))
        };
        let kind =
            opt_str(citation.get("type")).map_err(|w| w.at(at, format_args!("{path}.type")))?;
        // `THINKING_CONTENT` and `PLAN` citations cite the model's reasoning, not the answer.
        if kind.is_some_and(|kind| !kind.eq_ignore_ascii_case("TEXT_CONTENT")) {
            continue;
        }
        let offset = |key: &str| {
            offset(citation.get(key)).map_err(|w| w.at(at, format_args!("{path}.{key}")))
        };
        let (start, end) = (offset("start")?, offset("end")?);
        let within = match field("content_index")? {
            Some(index) if other_items.contains(&index) => continue,
            Some(index) => ranges
                .get(&index)
                .cloned()
                .ok_or_else(|| format!("`content_index` {index} names no text item")),
            // A number that is no position (`-1`, `1.5`, `1e20`) names no item either: the
            // offsets are not guessed to be the whole text's.
            None => match citation.get("content_index") {
                Some(Value::Number(n)) => Err(format!("`content_index` {n} names no text item")),
                _ => Ok(0..chars),
            },
        };
        let starts = starts.get_or_insert_with(|| char_starts(&reading.text));
        // A citation that cannot be placed still names its sources: it is kept without a span,
        // and the warning says why it cites no sentence.
        let span = within.and_then(|within| placed(starts, &within, start, end));
        let span = match span {
            Ok(span) => Some(span),
            Err(why) => {
                let line = at.map(|n| format!("line {n}: ")).unwrap_or_default();
                reading.warnings.push(format!(
                    "{line}the Cohere citation `{path}` {why}: it is kept with its sources, but \
                     cites no sentence"
                ));
                None
            }
        };
        let sources = opt_array(citation.get("sources"))
            .map_err(|w| w.at(at, format_args!("{path}.sources")))?;
        for (j, source) in sources.iter().enumerate() {
            let id = opt_str(source.get("id"))
                .map_err(|w| w.at(at, format_args!("{path}.sources[{j}].id")))?
                .or_else(|| source.pointer("/document/id").and_then(Value::as_str));
            if let Some(id) = id {
                documents.add(id, source, at, &format!("{path}.sources[{j}]"))?;
                reading.citations.push(NativeCitation {
                    span: span.clone(),
                    target: CitationTarget::IdOrPosition {
                        id: id.to_string(),
                        position: trailing_number(id),
                    },
                    quote: None,
                });
            }
        }
    }
    reading.sources = documents.into_sources();
    Ok(())
}

/// A citation's `start` or `end` as given: a whole number, negative or beyond the text (both
/// clamped later), or why there is none to read.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Offset {
    At(i128),
    Missing,
    NotWhole,
}

impl Offset {
    /// The value, or why the citation cannot be placed (`key` names it).
    fn value(self, key: &str) -> Result<i128, String> {
        match self {
            Offset::At(n) => Ok(n),
            Offset::Missing => Err(format!("has no `{key}`")),
            Offset::NotWhole => Err(format!("`{key}` is not a whole number")),
        }
    }
}

/// Reads a citation's offset; a value that is no number is an error.
fn offset(value: Option<&Value>) -> Result<Offset, super::json::WrongType> {
    Ok(match value {
        None | Some(Value::Null) => Offset::Missing,
        Some(Value::Number(n)) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(n), _, _) => Offset::At(i128::from(n)),
            (None, Some(n), _) => Offset::At(i128::from(n)),
            // `as` saturates: 1e300 is past any text, -1e300 before it.
            (None, None, Some(f)) if f.fract() == 0.0 => Offset::At(f as i128),
            _ => Offset::NotWhole,
        },
        Some(other) => return Err(super::json::wrong(other, "a number")),
    })
}

/// The byte span of characters `start..end` of the text item `within` (character offsets from
/// its start): offsets before the item are clamped to its start, an end past it to its end (as
/// docs/formats.md says); a span that starts at the item's end,
/// ends before its start, or runs backwards cannot be placed, and the error says why. A span
/// of no characters points at one place.
fn placed(
    char_starts: &[usize],
    within: &Range<usize>,
    start: Offset,
    end: Offset,
) -> Result<Range<usize>, String> {
    let (start, end) = (start.value("start")?, end.value("end")?);
    let len = within.end.saturating_sub(within.start);
    if start > end {
        return Err(format!(
            "runs backwards: `start` {start} is after `end` {end}"
        ));
    }
    if end < 0 {
        return Err(format!("ends before the text (`end` {end})"));
    }
    let clamp = |c: i128| usize::try_from(c.max(0)).map_or(len, |c| c.min(len));
    let (from, to) = (clamp(start), clamp(end));
    if start >= len as i128 {
        return Err(format!(
            "starts at the end of the text (character {start} of {len})"
        ));
    }
    let byte = |c: usize| char_starts.get(within.start + c).copied();
    match (byte(from), byte(to)) {
        (Some(from), Some(to)) => Ok(from..to),
        _ => Err("lies outside the text".to_string()),
    }
}

/// The documents the citations carry, each once, in order of first citation.
#[derive(Default)]
struct Documents {
    chunks: Vec<Chunk>,
    seen: std::collections::HashSet<String>,
}

impl Documents {
    /// Adds the document of one citation source (`path` names it) unless it was met before;
    /// sources of other types (`tool`) carry no document.
    fn add(
        &mut self,
        id: &str,
        source: &Value,
        at: Option<usize>,
        path: &str,
    ) -> Result<(), InputError> {
        if type_of(source).is_some_and(|kind| kind != "document") || self.seen.contains(id) {
            return Ok(());
        }
        let document = opt_object(source.get("document"))
            .map_err(|w| w.at(at, format_args!("{path}.document")))?;
        let Some(document) = document else {
            return Ok(());
        };
        self.seen.insert(id.to_string());
        self.chunks.push(Chunk {
            id: id.to_string(),
            text: document_text(document),
            aliases: names(document),
        });
        Ok(())
    }

    /// The sources, when some document carries text: a response whose documents are bare ids
    /// carries none (its chunks are in the request).
    fn into_sources(self) -> Option<Sources> {
        self.chunks
            .iter()
            .any(|c| !c.text.is_empty())
            .then(|| Sources {
                chunks: self.chunks,
                ..Sources::default()
            })
    }
}

/// A document's fields that name it rather than hold its text.
const NAMES: [&str; 2] = ["title", "url"];

/// A document's text: its `snippet`, else its `text`, else its other string fields (not `id`,
/// `title` or `url`), one per line.
fn document_text(document: &Map<String, Value>) -> String {
    for key in ["snippet", "text"] {
        if let Some(Value::String(text)) = document.get(key) {
            return text.clone();
        }
    }
    let fields: Vec<&str> = document
        .iter()
        .filter(|(key, _)| *key != "id" && !NAMES.contains(&key.as_str()))
        .filter_map(|(_, value)| value.as_str())
        .collect();
    fields.join("\n")
}

/// A document's `title` and `url`, when they are strings.
fn names(document: &Map<String, Value>) -> Vec<String> {
    NAMES
        .iter()
        .filter_map(|key| document.get(*key)?.as_str())
        .filter(|name| !name.is_empty())
        .map(str::to_string)
        .collect()
}

/// A v2 request body whose `documents` (some of them `{id, data}`) are the chunks; `None` when
/// `value` is none.
fn sources(value: &Value) -> Option<Result<Sources, InputError>> {
    let documents = value.as_object()?.get("documents")?.as_array()?;
    if !documents
        .iter()
        .any(|d| d.get("data").is_some_and(Value::is_object))
    {
        return None;
    }
    Some(request_documents(documents))
}

fn request_documents(documents: &[Value]) -> Result<Sources, InputError> {
    let mut sources = Sources::default();
    for (k, document) in documents.iter().enumerate() {
        let path = format!("documents[{k}]");
        let (id, data) = match document {
            Value::String(text) => {
                sources.chunks.push(Chunk {
                    id: format!("doc:{k}"),
                    text: text.clone(),
                    aliases: Vec::new(),
                });
                continue;
            }
            Value::Object(document) => (
                opt_str(document.get("id")).map_err(|w| w.at(None, format_args!("{path}.id")))?,
                opt_object(document.get("data"))
                    .map_err(|w| w.at(None, format_args!("{path}.data")))?,
            ),
            other => {
                return Err(super::json::wrong(other, "an object or a string").at(None, path));
            }
        };
        let empty = Map::new();
        let data = data.unwrap_or(&empty);
        sources.chunks.push(Chunk {
            id: id.map_or_else(|| format!("doc:{k}"), str::to_string),
            text: document_text(data),
            aliases: names(data),
        });
    }
    Ok(sources)
}

fn stream(events: &[Located]) -> Result<Reading, InputError> {
    let mut reading = Reading::streamed();
    let mut errors = StreamErrors::default();
    // Content items by `index`: whether it is text, and its text so far.
    let mut contents: BTreeMap<u64, (bool, String)> = BTreeMap::new();
    let mut citations = Vec::new();
    let mut end = None;
    let events = typed_events(events, &mut reading, &mut errors)?;
    let recognised = events
        .iter()
        .any(|e| e.kind.is_some_and(|k| EVENTS.contains(&k)));
    for Event { at, object, kind } in events {
        let index = || {
            opt_whole(object.get("index"))
                .map(|index| index.unwrap_or(0))
                .map_err(|w| w.at(at, "index"))
        };
        let message = pointer(object, "/delta/message");
        let content = message.and_then(|m| m.get("content"));
        match kind {
            Some("content-start") => {
                let is_text = content.and_then(type_of).is_none_or(|kind| kind == "text");
                let text = opt_str(content.and_then(|c| c.get("text")))
                    .map_err(|w| w.at(at, "delta.message.content.text"))?;
                contents.insert(index()?, (is_text, text.unwrap_or("").to_string()));
            }
            Some("content-delta") => {
                let text = opt_str(content.and_then(|c| c.get("text")))
                    .map_err(|w| w.at(at, "delta.message.content.text"))?;
                // A delta without its `content-start` is text, as most are.
                let (is_text, so_far) = contents.entry(index()?).or_insert((true, String::new()));
                if *is_text {
                    so_far.push_str(text.unwrap_or(""));
                }
            }
            Some("citation-start") => {
                // One citation per event, under the plural name.
                if let Some(citation) = message.and_then(|m| m.get("citations")) {
                    citations.push((citation, at, "delta.message.citations".to_string()));
                }
            }
            Some("message-end") => {
                let delta = opt_object(object.get("delta")).map_err(|w| w.at(at, "delta"))?;
                end = Some((delta, at));
            }
            _ => {}
        }
    }
    if !recognised {
        return Err(errors.or(not_a_stream_of(
            "a Cohere chat stream",
            "no event has a Cohere chat stream `type` (`content-delta`, `message-end`, ...)",
        )));
    }
    let items = contents
        .iter()
        .map(|(index, (is_text, text))| (*index, is_text.then_some(text.as_str())))
        .collect();
    text_and_citations(&mut reading, items, citations.into_iter())?;
    match end {
        Some((Some(delta), at)) => read_end(&mut reading, delta, at, "delta.")?,
        Some((None, _)) => {}
        None => reading.warnings.push(ENDED_EARLY.to_string()),
    }
    Ok(reading)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::response::testing::*;

    fn doc(id: &str) -> CitationTarget {
        CitationTarget::IdOrPosition {
            id: id.to_string(),
            position: trailing_number(id),
        }
    }

    #[test]
    fn cohere_citations_in_characters() {
        let single = read_detected(fixture!("cohere.json"));
        let stream = read_detected(fixture!("cohere-stream.sse"));
        for answer in [&single, &stream] {
            assert_eq!(
                answer.text,
                "The Eiffel Tower — Paris’s wrought-iron landmark — is 330 metres tall. It was \
                 completed in 1889 for the World's Fair, and it was designed by the company of \
                 Gustave Eiffel."
            );
            assert_eq!(
                cited(answer),
                [
                    (Some("wrought-iron landmark"), doc("doc:0"), None),
                    (Some("330 metres tall"), doc("doc:0"), None),
                    (
                        Some("completed in 1889 for the World's Fair"),
                        doc("doc:1"),
                        None
                    ),
                    (
                        Some("designed by the company of Gustave Eiffel"),
                        doc("doc:3"),
                        None
                    ),
                ]
            );
            assert_eq!(answer.usage, usage(1354, 97));
            assert!(answer.warnings.is_empty(), "{:?}", answer.warnings);
        }
        assert_eq!((single.streamed, stream.streamed), (false, true));
    }

    #[test]
    fn cohere_content_index_thinking_and_sources() {
        let text = r#"{"id": "x", "finish_reason": "COMPLETE", "message": {"role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "Wéighing the sources."},
                {"type": "text", "text": "Ça coûte 5 €. "},
                {"type": "text", "text": "Élevé: 330 m."}],
            "citations": [
                {"start": 9, "end": 12, "text": "5 €", "content_index": 1, "type": "TEXT_CONTENT",
                 "sources": [{"type": "document", "id": "doc:2", "document": {"id": "doc:2"}},
                             {"type": "tool", "id": "web:0", "tool_output": {}}]},
                {"start": 7, "end": 12, "content_index": 2, "sources": [{"type": "document", "document": {"id": "7"}}]},
                {"start": 0, "end": 4, "type": "THINKING_CONTENT", "sources": [{"type": "document", "id": "doc:0"}]},
                {"start": 0, "end": 2, "content_index": 0, "sources": [{"type": "document", "id": "doc:0"}]},
                {"start": 14, "end": 19, "sources": [{"type": "document", "id": "doc:4"}]}]},
            "usage": {"billed_units": {"input_tokens": 5.0, "output_tokens": 7}}}"#;
        let answer = read_as(text, AnswerFormat::Cohere);
        assert_eq!(answer.text, "Ça coûte 5 €. Élevé: 330 m.");
        assert_eq!(
            cited(&answer),
            [
                (Some("5 €"), doc("doc:2"), None),
                (Some("5 €"), doc("web:0"), None),
                (Some("330 m"), doc("7"), None),
                (Some("Élevé"), doc("doc:4"), None),
            ]
        );
        assert_eq!(answer.usage, usage(5, 7));
    }

    #[test]
    fn cohere_offsets_outside_the_text_are_clamped_and_unplaceable_citations_named() {
        // Issue 38: citations with a negative or missing `start`, or `start > end`, were
        // dropped without a word, and the check then said the answer cites nothing.
        let text = r#"{"message": {"content": [{"type": "text", "text": "Paris — 330 m"}], "citations": [
            {"start": 8, "end": 400, "sources": [{"type": "document", "id": "a"}]},
            {"start": 400, "end": 500, "sources": [{"type": "document", "id": "b"}]},
            {"start": 1e30, "end": 1e31, "sources": [{"type": "document", "id": "c"}]},
            {"start": -3, "end": 5, "sources": [{"type": "document", "id": "d"}]},
            {"start": 2, "end": 5, "content_index": 7, "sources": [{"type": "document", "id": "e"}]},
            {"end": 5, "sources": [{"type": "document", "id": "f"}]},
            {"start": 9, "end": 4, "sources": [{"type": "document", "id": "g"}]},
            {"start": -9, "end": -2, "sources": [{"type": "document", "id": "h"}]},
            {"start": 1.5, "end": 4, "sources": [{"type": "document", "id": "i"}]},
            {"start": 0, "end": 5, "content_index": -1, "sources": [{"type": "document", "id": "j"}]},
            {"start": 0, "end": 5, "content_index": 1.5, "sources": [{"type": "document", "id": "k"}]},
            {"start": 0, "end": 5, "content_index": 1e20, "sources": [{"type": "document", "id": "l"}]}]}}"#;
        let answer = read_as(text, AnswerFormat::Cohere);
        // Clamped into the text: the end past it, the negative start to its first character.
        assert_eq!(
            cited(&answer),
            [
                (Some("330 m"), doc("a"), None),
                (None, doc("b"), None),
                (None, doc("c"), None),
                (Some("Paris"), doc("d"), None),
                (None, doc("e"), None),
                (None, doc("f"), None),
                (None, doc("g"), None),
                (None, doc("h"), None),
                (None, doc("i"), None),
                (None, doc("j"), None),
                (None, doc("k"), None),
                (None, doc("l"), None),
            ]
        );
        // Each one that cites no span says why, by its path.
        let said = |path: &str| {
            answer
                .warnings
                .iter()
                .find(|w| w.contains(&format!("`{path}`")))
                .unwrap_or_else(|| panic!("no warning for {path}: {:?}", answer.warnings))
                .clone()
        };
        assert!(
            said("message.citations[1]")
                .contains("starts at the end of the text (character 400 of 13)")
        );
        assert!(said("message.citations[2]").contains("starts at the end of the text"));
        assert!(said("message.citations[4]").contains("`content_index` 7 names no text item"));
        assert!(said("message.citations[5]").contains("has no `start`"));
        assert!(said("message.citations[6]").contains("`start` 9 is after `end` 4"));
        assert!(said("message.citations[7]").contains("ends before the text (`end` -2)"));
        assert!(said("message.citations[8]").contains("`start` is not a whole number"));
        assert!(said("message.citations[9]").contains("`content_index` -1 names no text item"));
        assert!(said("message.citations[10]").contains("`content_index` 1.5 names no text item"));
        assert!(said("message.citations[11]").contains("names no text item"));
        assert!(said("message.citations[8]").contains("cites no sentence"));
        assert_eq!(answer.warnings.len(), 10, "{:?}", answer.warnings);
    }

    #[test]
    fn cohere_documents_in_citations_are_the_sources() {
        let text = r#"{"message": {"content": [{"type": "text", "text": "Tall. Old."}], "citations": [
            {"start": 0, "end": 5, "sources": [
                {"type": "document", "id": "a", "document": {"id": "a", "snippet": "It is tall.", "title": "A"}},
                {"type": "tool", "id": "web:0", "tool_output": {"text": "not a document"}}]},
            {"start": 6, "end": 10, "sources": [
                {"type": "document", "id": "a", "document": {"id": "a", "snippet": "It is tall."}},
                {"type": "document", "id": "b", "document": {"id": "b", "body": "It is old.", "url": "https://b"}}]}]}}"#;
        let answer = read_as(text, AnswerFormat::Cohere);
        let sources = answer.sources.expect("sources");
        assert_eq!(
            crate::input::testing::with_names(&sources.chunks),
            [
                ("a", "It is tall.", &["A".to_string()][..]),
                ("b", "It is old.", &["https://b".to_string()][..]),
            ]
        );
        // Documents that are bare ids carry no sources.
        let bare = r#"{"message": {"content": [{"type": "text", "text": "Tall."}], "citations": [
            {"start": 0, "end": 4, "sources": [{"type": "document", "id": "doc:0", "document": {"id": "doc:0"}}]}]}}"#;
        assert!(read_as(bare, AnswerFormat::Cohere).sources.is_none());
        let wrong = r#"{"message": {"content": [{"type": "text", "text": "Tall."}], "citations": [
            {"start": 0, "end": 4, "sources": [{"type": "document", "id": "x", "document": "text"}]}]}}"#;
        assert_eq!(
            read_error(wrong, AnswerFormat::Cohere),
            (
                None,
                "`message.citations[0].sources[0].document` is a string; expected an object"
                    .to_string()
            )
        );
    }

    #[test]
    fn a_v2_request_body_is_the_chunks() {
        let request = serde_json::json!({"model": "command-a", "messages": [], "documents": [
            {"id": "t", "data": {"title": "Tower", "snippet": "It is tall."}},
            {"data": {"text": "It is old."}},
            "A bare string.",
            {"data": {"title": "P", "a": "One.", "n": 3, "b": "Two."}}]});
        let read = sources(&request).expect("recognised").expect("read");
        assert_eq!(
            crate::input::testing::ids_and_texts(&read.chunks),
            [
                ("t", "It is tall."),
                ("doc:1", "It is old."),
                ("doc:2", "A bare string."),
                ("doc:3", "One.\nTwo."),
            ]
        );
        assert_eq!(read.chunks[0].aliases, ["Tower"]);
        let wrong =
            serde_json::json!({"documents": [{"data": {"text": "a"}}, {"id": 7, "data": {}}]});
        let Some(Err(e)) = sources(&wrong) else {
            panic!("expected an error")
        };
        assert_eq!(
            e.to_string(),
            "`documents[1].id` is a number; expected a string"
        );
        let wrong = serde_json::json!({"documents": [{"data": {"text": "a"}}, 5]});
        let Some(Err(e)) = sources(&wrong) else {
            panic!("expected an error")
        };
        assert!(e.to_string().contains("`documents[1]` is a number"), "{e}");
        // Documents without `data` are the generic reader's.
        assert!(sources(&serde_json::json!({"documents": [{"text": "a"}]})).is_none());
    }
}
