//! OpenAI Chat Completions: `choices[0].message.content` (null is empty; an array of parts, as
//! OpenAI-compatible servers such as Mistral's send, has its `text` parts joined), one JSON object
//! or the SSE stream, whose text joins `delta.content` of the choice with `index` 0 in every chunk
//! (also chunks logged one per line). Cut off when `finish_reason` is `length`; a stream with
//! neither a `finish_reason` nor `data: [DONE]` ended early.
//!
//! Citations: each `message.annotations[]` `url_citation{start_index, end_index, url}`
//! (characters of the content) cites its span to the chunk keyed by that URL; a `reference`
//! content part (`reference_ids`) cites the sentence it ends. Azure, Perplexity and Mistral read
//! their responses through [`read_with`], adding what their responses carry.

use serde_json::{Map, Value};

use super::json::{
    Located, empty_stream, error_message, is_an_error, not_a_stream_of, object_of, opt_array,
    opt_object, opt_str, opt_whole, type_of, values_of, wrong,
};
use super::offsets::{char_span, char_starts, ending_at};
use super::reading::{ENDED_EARLY, Reading, StreamErrors, cut_off};
use super::{Provider, no_sources};
use crate::input::InputError;
use crate::input::{AnswerFormat, CitationTarget, NativeCitation};

pub(super) const PROVIDER: Provider = Provider {
    format: AnswerFormat::Openai,
    response: |object| object.get("choices").is_some_and(Value::is_array),
    event: |event| event.contains_key("choices"),
    // Anthropic's error body also holds an `error` object, under `type: "error"`.
    error: |object| {
        object.get("error").is_some_and(Value::is_object)
            && object.get("type").and_then(Value::as_str) != Some("error")
    },
    array_stream: false,
    keys: &["choices"],
    read,
    sources_elsewhere: "",
    sources: no_sources,
};

/// Reads a chat completion as such (also Mistral's, whose references the content parts carry).
pub(super) fn read(text: &str) -> Result<Reading, InputError> {
    read_with(text, |_, _| Ok(()))
}

/// What a provider built on Chat Completions sees of each JSON object of the response (the
/// completion, or each chunk of a stream), to read what its responses carry beside the text.
pub(super) struct Seen<'a> {
    pub object: &'a Map<String, Value>,
    /// The message (or delta) of its first choice.
    pub message: Option<&'a Map<String, Value>>,
    /// Its line, in a stream.
    pub at: Option<usize>,
    /// The path of `message`, for errors.
    pub path: &'a str,
}

/// Reads a chat completion or its stream, calling `extend` with what it [`Seen`]s of each object.
pub(super) fn read_with(
    text: &str,
    mut extend: impl FnMut(&mut Reading, Seen<'_>) -> Result<(), InputError>,
) -> Result<Reading, InputError> {
    let values = values_of(text)?;
    match values.items.as_slice() {
        [] => Err(empty_stream()),
        [one] if !values.sse && !is_chunk(&one.value) => completion(one, &mut extend),
        chunks => stream(chunks, values.done_marker, &mut extend),
    }
}

/// A chunk of a stream: `chat.completion.chunk`, or a `delta` without a `message` (Perplexity's
/// complete responses carry both).
fn is_chunk(value: &Value) -> bool {
    value.get("object").and_then(Value::as_str) == Some("chat.completion.chunk")
        || (value.pointer("/choices/0/delta").is_some()
            && value.pointer("/choices/0/message").is_none())
}

fn completion(
    item: &Located,
    extend: &mut impl FnMut(&mut Reading, Seen<'_>) -> Result<(), InputError>,
) -> Result<Reading, InputError> {
    let object = object_of(item)?;
    if let Some(message) = error_message(object) {
        return Err(is_an_error(None, &message));
    }
    let choices = match object.get("choices") {
        Some(Value::Array(choices)) => choices,
        None | Some(Value::Null) => {
            return Err(InputError::Response {
                line: None,
                message: "`choices` is missing; expected an array".to_string(),
            });
        }
        Some(other) => return Err(wrong(other, "an array").at(None, "choices")),
    };
    let mut reading = Reading::default();
    let mut message = None;
    if let Some(choice) = choices.first() {
        message =
            opt_object(choice.get("message")).map_err(|w| w.at(None, "choices[0].message"))?;
        if let Some(message) = message {
            push_content(
                &mut reading,
                message.get("content"),
                "choices[0].message.content",
                None,
            )?;
            url_citations(&mut reading, message, "choices[0].message")?;
        }
        let reason = opt_str(choice.get("finish_reason"))
            .map_err(|w| w.at(None, "choices[0].finish_reason"))?;
        if reason == Some("length") {
            reading.warnings.push(cut_off("finish_reason", "length"));
        }
    }
    let path = "choices[0].message";
    extend(
        &mut reading,
        Seen {
            object,
            message,
            at: None,
            path,
        },
    )?;
    reading.read_usage(
        object.get("usage"),
        "usage",
        ("prompt_tokens", "completion_tokens"),
        None,
    )?;
    Ok(reading)
}

/// Appends a chat message's content: a string, null, or an array of parts whose `text` parts
/// are joined and whose `reference` parts (Mistral) cite the sentence they end.
fn push_content(
    reading: &mut Reading,
    content: Option<&Value>,
    path: &str,
    at: Option<usize>,
) -> Result<(), InputError> {
    match content {
        None | Some(Value::Null) => {}
        Some(Value::String(text)) => reading.text.push_str(text),
        Some(Value::Array(parts)) => {
            for (k, part) in parts.iter().enumerate() {
                match type_of(part) {
                    Some("text") => {
                        let piece = opt_str(part.get("text"))
                            .map_err(|w| w.at(at, format_args!("{path}[{k}].text")))?;
                        reading.text.push_str(piece.unwrap_or(""));
                    }
                    Some("reference") => {
                        let ids = opt_array(part.get("reference_ids"))
                            .map_err(|w| w.at(at, format_args!("{path}[{k}].reference_ids")))?;
                        let span = ending_at(&reading.text, reading.text.len());
                        for id in ids {
                            let label = match id {
                                Value::String(id) => id.clone(),
                                Value::Number(n) => n.to_string(),
                                _ => continue,
                            };
                            reading.citations.push(NativeCitation {
                                span: span.clone(),
                                target: CitationTarget::Label(label),
                                quote: None,
                            });
                        }
                    }
                    _ => {}
                }
            }
        }
        Some(other) => return Err(wrong(other, "a string").at(at, path)),
    }
    Ok(())
}

/// The message's `url_citation` annotations (characters of the content), each citing its span
/// to the chunk keyed by its URL.
fn url_citations(
    reading: &mut Reading,
    message: &Map<String, Value>,
    path: &str,
) -> Result<(), InputError> {
    let annotations = opt_array(message.get("annotations"))
        .map_err(|w| w.at(None, format_args!("{path}.annotations")))?;
    let mut starts = None;
    for (k, annotation) in annotations.iter().enumerate() {
        if type_of(annotation) != Some("url_citation") {
            continue;
        }
        let path = format!("{path}.annotations[{k}].url_citation");
        let citation = opt_object(annotation.get("url_citation")).map_err(|w| w.at(None, &path))?;
        let Some(citation) = citation else {
            continue;
        };
        let field = |key: &str| {
            opt_whole(citation.get(key)).map_err(|w| w.at(None, format_args!("{path}.{key}")))
        };
        let url =
            opt_str(citation.get("url")).map_err(|w| w.at(None, format_args!("{path}.url")))?;
        let (Some(start), Some(end), Some(url)) = (field("start_index")?, field("end_index")?, url)
        else {
            continue;
        };
        let starts = starts.get_or_insert_with(|| char_starts(&reading.text));
        let whole = 0..starts.len() - 1;
        if let Some(span) = char_span(starts, &whole, start, end) {
            reading.citations.push(NativeCitation {
                span: Some(span),
                target: CitationTarget::Label(url.to_string()),
                quote: None,
            });
        }
    }
    Ok(())
}

fn stream(
    chunks: &[Located],
    done_marker: bool,
    extend: &mut impl FnMut(&mut Reading, Seen<'_>) -> Result<(), InputError>,
) -> Result<Reading, InputError> {
    let mut reading = Reading::streamed();
    let mut errors = StreamErrors::default();
    let mut finish_reason = None;
    let mut saw_choices = false;
    for item in chunks {
        let at = Some(item.line);
        let object = object_of(item)?;
        if let Some(message) = error_message(object) {
            errors.note(&mut reading, at, message);
            continue;
        }
        let choices = opt_array(object.get("choices")).map_err(|w| w.at(at, "choices"))?;
        saw_choices |= object.contains_key("choices");
        let mut first = None;
        for (k, choice) in choices.iter().enumerate() {
            // With `n` > 1 the chunks interleave the choices; the answer is the first.
            let index = opt_whole(choice.get("index"))
                .map_err(|w| w.at(at, format_args!("choices[{k}].index")))?;
            if index.unwrap_or(0) != 0 {
                continue;
            }
            let delta = opt_object(choice.get("delta"))
                .map_err(|w| w.at(at, format_args!("choices[{k}].delta")))?;
            if let Some(delta) = delta {
                let path = format!("choices[{k}].delta.content");
                push_content(&mut reading, delta.get("content"), &path, at)?;
                first = Some((delta, format!("choices[{k}].delta")));
            }
            let reason = opt_str(choice.get("finish_reason"))
                .map_err(|w| w.at(at, format_args!("choices[{k}].finish_reason")))?;
            if let Some(reason) = reason {
                finish_reason = Some(reason);
            }
        }
        let (message, path) = match &first {
            Some((delta, path)) => (Some(*delta), path.as_str()),
            None => (None, ""),
        };
        extend(
            &mut reading,
            Seen {
                object,
                message,
                at,
                path,
            },
        )?;
        reading.read_usage(
            object.get("usage"),
            "usage",
            ("prompt_tokens", "completion_tokens"),
            at,
        )?;
    }
    if !saw_choices {
        return Err(errors.or(not_a_stream_of(
            "an OpenAI chat completion stream",
            "no chunk has `choices`",
        )));
    }
    if finish_reason == Some("length") {
        reading.warnings.push(cut_off("finish_reason", "length"));
    }
    if !done_marker && finish_reason.is_none() {
        reading.warnings.push(ENDED_EARLY.to_string());
    }
    Ok(reading)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::response::testing::*;

    #[test]
    fn openai_chat_and_its_stream() {
        let single = read_detected(fixture!("openai-chat.json"));
        let stream = read_detected(fixture!("openai-chat-stream.sse"));
        for answer in [&single, &stream] {
            assert_eq!(answer.text, MARKED);
            assert_eq!(answer.format, AnswerFormat::Openai);
            assert_eq!(answer.usage, usage(389, 49));
            assert!(answer.citations.is_empty());
            assert!(answer.warnings.is_empty(), "{:?}", answer.warnings);
        }
        assert_eq!((single.streamed, stream.streamed), (false, true));
    }

    #[test]
    fn openai_chunks_logged_as_json_lines() {
        let lines: Vec<&str> = fixture!("openai-chat-stream.sse")
            .lines()
            .filter_map(|l| l.strip_prefix("data: "))
            .filter(|p| *p != "[DONE]")
            .collect();
        let answer = read_as(&lines.join("\n"), AnswerFormat::Openai);
        assert_eq!(answer.text, MARKED);
        assert!(answer.streamed);
        assert!(answer.warnings.is_empty(), "{:?}", answer.warnings);
    }

    #[test]
    fn chat_content_as_an_array_of_parts() {
        let text = r#"{"choices": [{"message": {"role": "assistant", "content": [
            {"type": "thinking", "thinking": [{"type": "text", "text": "hmm"}]},
            {"type": "text", "text": "The tower "}, {"type": "text", "text": "is tall [1]."}]}}]}"#;
        assert_eq!(read_detected(text).text, "The tower is tall [1].");
    }

    #[test]
    fn url_citations_cite_their_span_to_the_page() {
        let text = r#"{"choices": [{"message": {"role": "assistant", "content": "Héllo. The tower is 330 m tall.",
            "annotations": [
                {"type": "url_citation", "url_citation": {"start_index": 7, "end_index": 31, "url": "https://example.com/tower", "title": "Tower"}},
                {"type": "url_citation", "url_citation": {"start_index": 99, "end_index": 120, "url": "https://example.com/x"}},
                {"type": "file_path", "file_path": {}}]}}]}"#;
        let answer = read_detected(text);
        assert_eq!(
            cited(&answer),
            [(
                Some("The tower is 330 m tall."),
                CitationTarget::Label("https://example.com/tower".to_string()),
                None
            )]
        );
    }

    #[test]
    fn a_complete_response_that_also_has_a_delta_is_no_chunk() {
        let text = r#"{"object": "chat.completion", "choices": [{"index": 0, "finish_reason": "stop",
            "message": {"role": "assistant", "content": "The tower is tall [1]."},
            "delta": {"role": "assistant", "content": ""}}]}"#;
        let answer = read_as(text, AnswerFormat::Openai);
        assert_eq!(answer.text, "The tower is tall [1].");
        assert!(!answer.streamed);
    }
}
