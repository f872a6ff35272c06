//! Anthropic Messages: the `text` blocks of `content`, joined with nothing between them (the API
//! splits one text into cited and uncited blocks), one JSON object or the SSE stream. Cut off
//! when `stop_reason` is `max_tokens` or `model_context_window_exceeded`; a stream without
//! `message_stop` ended early.
//!
//! Citations: each `char_location`, `page_location` and `content_block_location` citation cites
//! its block's span to the document at `document_index`, each `search_result_location` to the
//! search result at `search_result_index`, with `cited_text` as the quote. Documents and search
//! results are counted apart (see [`read_citation`]). Each `web_search_result_location` citation
//! (the web search tool) cites its block's span to the page at its `url`. Other blocks and
//! citation kinds are skipped. A text block that follows a server tool's result
//! (`web_search_tool_result`, any `*_tool_result` block) starts a new paragraph: the text before
//! the tool use (the model's preamble) is not joined into the answer's first sentence.
//!
//! Sources of the web search tool: the results of each `web_search_tool_result` block
//! (`web_search_result` items), named by their `url`, with their `title` as another name, then any
//! page a citation names that no result lists. The results carry no text (`encrypted_content` is
//! opaque): a page's text is what its citations quote (`cited_text`, distinct quotes one per
//! line), and a page no citation quotes is an empty chunk.
//!
//! Sources: the chunks file may be the request itself (or its `messages`, or one message's
//! `content`): its `document` blocks (`source` of type `text` with `data`, or `content` with
//! text blocks) and `search_result` blocks (text blocks in `content`), named `document-<n>` and
//! `search-result-<n>` in request order, with their `title` (and a search result's `source`) as
//! other names. A document whose text is not in the request (a PDF, a URL, a file id) is an empty
//! chunk with a warning, so that the indices still count it.

use std::collections::BTreeMap;

mod web_search;
use web_search::WebSearch;

use serde_json::Value;

use super::Provider;
use super::json::{
    Located, empty_stream, error_message, is_an_error, not_a_stream_of, object_of, opt_array,
    opt_object, opt_str, opt_whole, type_of, values_of,
};
use super::reading::{ENDED_EARLY, Event, Reading, Sources, StreamErrors, cut_off, typed_events};
use crate::input::InputError;
use crate::input::{AnswerFormat, Chunk, CitationTarget, NativeCitation};

pub(super) const PROVIDER: Provider = Provider {
    format: AnswerFormat::Anthropic,
    response: |object| {
        object.get("type").and_then(Value::as_str) == Some("message")
            && object.get("content").is_some_and(Value::is_array)
    },
    event: |event| {
        event
            .get("type")
            .and_then(Value::as_str)
            .is_some_and(|kind| EVENTS.contains(&kind))
    },
    error: |object| object.get("type").and_then(Value::as_str) == Some("error"),
    array_stream: false,
    keys: &["stop_reason"],
    read,
    sources_elsewhere: "the request (its documents and search results)",
    sources,
};

/// What the request's blocks are named by, before their 1-based number.
const DOCUMENT: &str = "document";
const SEARCH_RESULT: &str = "search-result";

/// The event types of an Anthropic Messages stream that carry the message (`ping` and `error`
/// carry none of it, and `error` is shared with the OpenAI Responses stream).
const EVENTS: [&str; 6] = [
    "message_start",
    "content_block_start",
    "content_block_delta",
    "content_block_stop",
    "message_delta",
    "message_stop",
];

/// A text block and its citations: `(the chunk, cited text)`.
#[derive(Default)]
struct TextBlock {
    text: String,
    citations: Vec<(CitationTarget, Option<String>)>,
}

/// Appends one cited block and its citations of the whole block.
fn push_block(reading: &mut Reading, block: TextBlock) {
    let start = reading.text.len();
    reading.text.push_str(&block.text);
    let span = start..reading.text.len();
    reading.citations.extend(
        block
            .citations
            .into_iter()
            .map(|(target, quote)| NativeCitation {
                span: Some(span.clone()),
                target,
                quote,
            }),
    );
}

fn read(text: &str) -> Result<Reading, InputError> {
    let values = values_of(text)?;
    match values.items.as_slice() {
        [] => Err(empty_stream()),
        [one] if !values.sse && !is_event(&one.value) => message(one),
        events => stream(events),
    }
}

fn is_event(value: &Value) -> bool {
    type_of(value).is_some_and(|kind| EVENTS.contains(&kind) || kind == "ping")
}

fn message(item: &Located) -> Result<Reading, InputError> {
    let object = object_of(item)?;
    if let Some(message) = error_message(object) {
        return Err(is_an_error(None, &message));
    }
    let content = opt_array(object.get("content")).map_err(|w| w.at(None, "content"))?;
    let mut reading = Reading::default();
    let mut web = WebSearch::default();
    let mut after_tool = false;
    for (k, block) in content.iter().enumerate() {
        if web_search::is_tool_result(block) {
            web.results(block, None, &format!("content[{k}]"))?;
            after_tool = true;
            continue;
        }
        if type_of(block) != Some("text") {
            continue;
        }
        if std::mem::take(&mut after_tool) {
            web_search::new_paragraph(&mut reading.text);
        }
        let text = opt_str(block.get("text"))
            .map_err(|w| w.at(None, format_args!("content[{k}].text")))?;
        let citations = opt_array(block.get("citations"))
            .map_err(|w| w.at(None, format_args!("content[{k}].citations")))?;
        let mut text_block = TextBlock {
            text: text.unwrap_or("").to_string(),
            citations: Vec::new(),
        };
        for (j, citation) in citations.iter().enumerate() {
            let path = format!("content[{k}].citations[{j}]");
            text_block
                .citations
                .extend(read_citation(citation, None, &path, &mut web)?);
        }
        push_block(&mut reading, text_block);
    }
    reading.sources = web.into_sources();
    read_stop_reason(&mut reading, object.get("stop_reason"), "stop_reason", None)?;
    reading.read_usage(
        object.get("usage"),
        "usage",
        ("input_tokens", "output_tokens"),
        None,
    )?;
    Ok(reading)
}

/// `(the chunk, cited text)` of one citation; `None` for kinds that name no source or that lack
/// their index. A web search citation names its page by URL (and `web` keeps what it quotes of
/// it). Documents and search results are counted
/// apart, each from 0 in request order: the chunk named `document-<n>` or `search-result-<n>`
/// (1-based, as a request read as the chunks file names them), or else the chunk at that position.
fn read_citation(
    citation: &Value,
    at: Option<usize>,
    path: &str,
    web: &mut WebSearch,
) -> Result<Option<(CitationTarget, Option<String>)>, InputError> {
    let (index_field, kind) = match type_of(citation) {
        Some("web_search_result_location") => return web.citation(citation, at, path),
        Some("char_location" | "page_location" | "content_block_location") => {
            ("document_index", DOCUMENT)
        }
        Some("search_result_location") => ("search_result_index", SEARCH_RESULT),
        _ => return Ok(None),
    };
    let index = opt_whole(citation.get(index_field))
        .map_err(|w| w.at(at, format_args!("{path}.{index_field}")))?;
    let quote = opt_str(citation.get("cited_text"))
        .map_err(|w| w.at(at, format_args!("{path}.cited_text")))?;
    Ok(index.and_then(|i| usize::try_from(i).ok()).map(|position| {
        let target = CitationTarget::IdOrPosition {
            id: format!("{kind}-{}", position + 1),
            position: Some(position),
        };
        (target, quote.map(str::to_string))
    }))
}

fn read_stop_reason(
    reading: &mut Reading,
    reason: Option<&Value>,
    path: &str,
    at: Option<usize>,
) -> Result<(), InputError> {
    let reason = opt_str(reason).map_err(|w| w.at(at, path))?;
    // `model_context_window_exceeded`: the context window, not `max_tokens`, ran out; the
    // answer is cut off all the same.
    if let Some(reason @ ("max_tokens" | "model_context_window_exceeded")) = reason {
        reading.warnings.push(cut_off("stop_reason", reason));
    }
    Ok(())
}

fn stream(events: &[Located]) -> Result<Reading, InputError> {
    let mut reading = Reading::streamed();
    let mut errors = StreamErrors::default();
    // Blocks by their `index`, which orders them; only text blocks are kept, and the results of
    // server tools (`None`), which end a paragraph.
    let mut blocks: BTreeMap<u64, Option<TextBlock>> = BTreeMap::new();
    let mut web = WebSearch::default();
    let mut stop_reason = None;
    let mut stopped = false;
    let events = typed_events(events, &mut reading, &mut errors)?;
    let recognised = events
        .iter()
        .any(|e| e.kind.is_some_and(|k| EVENTS.contains(&k)));
    for Event { at, object, kind } in events {
        let index = || opt_whole(object.get("index")).map_err(|w| w.at(at, "index"));
        match kind {
            Some("message_start") => {
                let message = opt_object(object.get("message")).map_err(|w| w.at(at, "message"))?;
                if let Some(message) = message {
                    reading.read_usage(
                        message.get("usage"),
                        "message.usage",
                        ("input_tokens", "output_tokens"),
                        at,
                    )?;
                }
            }
            Some("content_block_start") => {
                let block = object.get("content_block");
                let (Some(index), Some(block)) = (index()?, block) else {
                    continue;
                };
                if web_search::is_tool_result(block) {
                    web.results(block, at, "content_block")?;
                    blocks.insert(index, None);
                    continue;
                }
                if type_of(block) != Some("text") {
                    continue;
                }
                let text =
                    opt_str(block.get("text")).map_err(|w| w.at(at, "content_block.text"))?;
                let mut text_block = TextBlock {
                    text: text.unwrap_or("").to_string(),
                    citations: Vec::new(),
                };
                let citations = opt_array(block.get("citations"))
                    .map_err(|w| w.at(at, "content_block.citations"))?;
                for (j, citation) in citations.iter().enumerate() {
                    let path = format!("content_block.citations[{j}]");
                    text_block
                        .citations
                        .extend(read_citation(citation, at, &path, &mut web)?);
                }
                blocks.insert(index, Some(text_block));
            }
            Some("content_block_delta") => {
                // Deltas of blocks that are not text (tool input, thinking) have no block here.
                let Some(block) = index()?.and_then(|index| blocks.get_mut(&index)?.as_mut())
                else {
                    continue;
                };
                let Some(delta) = opt_object(object.get("delta")).map_err(|w| w.at(at, "delta"))?
                else {
                    continue;
                };
                match delta.get("type").and_then(Value::as_str) {
                    Some("text_delta") => {
                        let text =
                            opt_str(delta.get("text")).map_err(|w| w.at(at, "delta.text"))?;
                        block.text.push_str(text.unwrap_or(""));
                    }
                    Some("citations_delta") => {
                        if let Some(citation) = delta.get("citation") {
                            block.citations.extend(read_citation(
                                citation,
                                at,
                                "delta.citation",
                                &mut web,
                            )?);
                        }
                    }
                    _ => {}
                }
            }
            Some("message_delta") => {
                let delta = opt_object(object.get("delta")).map_err(|w| w.at(at, "delta"))?;
                if let Some(reason) = delta.and_then(|d| d.get("stop_reason")) {
                    stop_reason = Some((reason, at));
                }
                // Its `output_tokens` are the message's total so far.
                reading.read_usage(
                    object.get("usage"),
                    "usage",
                    ("input_tokens", "output_tokens"),
                    at,
                )?;
            }
            Some("message_stop") => stopped = true,
            _ => {}
        }
    }
    if !recognised {
        return Err(errors.or(not_a_stream_of(
            "an Anthropic Messages stream",
            "no event has a Messages stream `type` (`message_start`, `content_block_delta`, ...)",
        )));
    }
    let mut after_tool = false;
    for block in blocks.into_values() {
        match block {
            None => after_tool = true,
            Some(block) => {
                if std::mem::take(&mut after_tool) {
                    web_search::new_paragraph(&mut reading.text);
                }
                push_block(&mut reading, block);
            }
        }
    }
    reading.sources = web.into_sources();
    if let Some((reason, at)) = stop_reason {
        read_stop_reason(&mut reading, Some(reason), "delta.stop_reason", at)?;
    }
    if !stopped {
        reading.warnings.push(ENDED_EARLY.to_string());
    }
    Ok(reading)
}

/// A request (or its `messages`, or one message's `content`) whose `document` and
/// `search_result` blocks are the chunks; `None` when `value` is none of these.
fn sources(value: &Value) -> Option<Result<Sources, InputError>> {
    // A list of messages or of content blocks says which by its first item.
    let blocks: Vec<&Value> = match value {
        Value::Object(request) => request_blocks(request.get("messages")?)?,
        Value::Array(items) => match items.first()? {
            first if first.get("role").is_some() => request_blocks(value)?,
            first if type_of(first).is_some() => items.iter().collect(),
            _ => return None,
        },
        _ => return None,
    };
    let is_source = |b: &&Value| matches!(type_of(b), Some("document" | "search_result"));
    if blocks.is_empty() || !blocks.iter().any(is_source) {
        return None;
    }
    Some(read_sources(blocks.into_iter().filter(is_source)))
}

/// Every content block of every message, in order.
fn request_blocks(messages: &Value) -> Option<Vec<&Value>> {
    let mut blocks = Vec::new();
    for message in messages.as_array()? {
        if let Some(Value::Array(content)) = message.get("content") {
            blocks.extend(content);
        }
    }
    Some(blocks)
}

fn read_sources<'a>(blocks: impl Iterator<Item = &'a Value>) -> Result<Sources, InputError> {
    let mut sources = Sources::default();
    let (mut documents, mut search_results) = (0, 0);
    for block in blocks {
        let (kind, count) = if type_of(block) == Some("document") {
            (DOCUMENT, &mut documents)
        } else {
            (SEARCH_RESULT, &mut search_results)
        };
        *count += 1;
        let id = format!("{kind}-{count}");
        let source = block.get("source");
        let text = if kind == SEARCH_RESULT {
            text_blocks(block.get("content"))
        } else {
            match source.and_then(type_of) {
                Some("text") => source
                    .and_then(|s| s.get("data"))
                    .and_then(Value::as_str)
                    .map(str::to_string),
                Some("content") => text_blocks(source.and_then(|s| s.get("content"))),
                _ => None,
            }
        };
        let text = match text {
            Some(text) => text,
            None => {
                sources.warnings.push(format!(
                    "{id} holds no text ragcite can read (a PDF, an image, a URL or a file id): \
                     citations to it cannot be supported"
                ));
                String::new()
            }
        };
        let aliases = [block.get("title"), source.filter(|_| kind == SEARCH_RESULT)]
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect();
        sources.chunks.push(Chunk { id, text, aliases });
    }
    Ok(sources)
}

/// The `text` of the text blocks of `content`, one per line; `None` when there are none.
fn text_blocks(content: Option<&Value>) -> Option<String> {
    let texts: Vec<&str> = content?
        .as_array()?
        .iter()
        .filter(|b| type_of(b) == Some("text"))
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .collect();
    (!texts.is_empty()).then(|| texts.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::response::testing::*;
    use crate::input::testing::ids_and_texts;

    fn document(n: usize) -> CitationTarget {
        CitationTarget::IdOrPosition {
            id: format!("document-{}", n + 1),
            position: Some(n),
        }
    }

    #[test]
    fn anthropic_text_blocks_and_their_citations() {
        let single = read_detected(fixture!("anthropic.json"));
        let stream = read_detected(fixture!("anthropic-stream.sse"));
        for answer in [&single, &stream] {
            assert_eq!(
                answer.text,
                "According to the documents, the Eiffel Tower is 330 metres (1,083 ft) tall. It \
                 was completed in 1889 as the centrepiece of the World's Fair. It was designed and \
                 built by the company of Gustave Eiffel."
            );
            assert_eq!(
                cited(answer),
                [
                    (
                        Some("the Eiffel Tower is 330 metres (1,083 ft) tall"),
                        document(0),
                        Some(
                            "It is 330 metres (1,083 ft) tall, about the same height as an 81-storey building."
                        )
                    ),
                    (
                        Some("It was completed in 1889 as the centrepiece of the World's Fair"),
                        document(1),
                        Some(
                            "Construction of the tower began in 1887 and it was completed in 1889 as the centrepiece of the 1889 World's Fair (Exposition Universelle)."
                        )
                    ),
                    (
                        Some("It was designed and built by the company of Gustave Eiffel"),
                        document(3),
                        Some(
                            "The tower is named after the engineer Gustave Eiffel, whose company designed and built the tower."
                        )
                    ),
                ]
            );
            assert_eq!(answer.usage, usage(1184, 71));
            assert!(answer.warnings.is_empty(), "{:?}", answer.warnings);
        }
        assert_eq!((single.streamed, stream.streamed), (false, true));
    }

    #[test]
    fn anthropic_citation_kinds() {
        let text = r#"{"type": "message", "content": [
            {"type": "thinking", "thinking": "Let me look.", "signature": "x"},
            {"type": "text", "text": "A", "citations": [
                {"type": "page_location", "cited_text": "p", "document_index": 2, "start_page_number": 1, "end_page_number": 2},
                {"type": "content_block_location", "cited_text": "c", "document_index": 4, "start_block_index": 0, "end_block_index": 1},
                {"type": "search_result_location", "cited_text": "s", "search_result_index": 1, "source": "kb", "start_block_index": 0, "end_block_index": 1},
                {"type": "web_search_result_location", "cited_text": "w", "url": "https://example.com", "encrypted_index": "e"},
                {"type": "char_location", "cited_text": "no index"}]},
            {"type": "tool_use", "id": "t", "name": "f", "input": {}},
            {"type": "text", "text": "", "citations": null},
            {"type": "text", "text": "B"}]}"#;
        let answer = read_detected(text);
        assert_eq!(answer.text, "AB");
        assert_eq!(
            cited(&answer),
            [
                (Some("A"), document(2), Some("p")),
                (Some("A"), document(4), Some("c")),
                (
                    Some("A"),
                    CitationTarget::IdOrPosition {
                        id: "search-result-2".to_string(),
                        position: Some(1)
                    },
                    Some("s")
                ),
                (
                    Some("A"),
                    CitationTarget::Label("https://example.com".to_string()),
                    Some("w")
                ),
            ]
        );
    }

    #[test]
    fn a_request_mixing_documents_and_search_results_is_the_chunks() {
        let request = serde_json::json!({"model": "claude", "max_tokens": 100, "messages": [
            {"role": "user", "content": [
                {"type": "search_result", "source": "https://example.com/a", "title": "A",
                 "content": [{"type": "text", "text": "First."}, {"type": "text", "text": "Second."}]},
                {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "Plain."}, "title": "P"},
                {"type": "document", "source": {"type": "content", "content": [{"type": "text", "text": "Block."}]}},
                {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBER"}},
                {"type": "search_result", "source": "kb://b", "title": "B", "content": [{"type": "text", "text": "Third."}]},
                {"type": "text", "text": "What is it?"}]}]});
        let sources = sources(&request).expect("recognised").expect("read");
        let chunks = ids_and_texts(&sources.chunks);
        assert_eq!(
            chunks,
            [
                ("search-result-1", "First.\nSecond."),
                ("document-1", "Plain."),
                ("document-2", "Block."),
                ("document-3", ""),
                ("search-result-2", "Third."),
            ]
        );
        assert_eq!(sources.chunks[0].aliases, ["A", "https://example.com/a"]);
        assert_eq!(sources.warnings.len(), 1, "{:?}", sources.warnings);
        assert!(sources.warnings[0].starts_with("document-3 holds no text"));
        // A request without documents is not a source list.
        assert!(
            super::sources(&serde_json::json!({"messages": [{"role": "user", "content": "Hi"}]}))
                .is_none()
        );
    }
}
