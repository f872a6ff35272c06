//! OpenAI Responses: the `text` of every `output_text` part of every `message` item of `output`,
//! joined with nothing between them, as the SDKs' `output_text` property does (openai-python
//! `Response.output_text`: `"".join(texts)`). In a stream, the final response
//! (`response.completed`, `response.incomplete`, `response.failed`) is read; its
//! `response.output_text.delta` deltas stand in when it never came or holds no text. Cut off when
//! `incomplete_details.reason` is `max_output_tokens`.
//!
//! Sources: the `results[]{file_id, filename, text}` of every `file_search_call` item (present
//! when the request asked to `include` them), numbered from 1 in order, each also named by its
//! file's id and name. Citations: a `file_citation{file_id, index}` annotation is a position in
//! its part's text and no span: it cites the sentence it ends, to every chunk of that file; a
//! `url_citation{start_index, end_index, url}` cites its span (characters) to the chunk keyed by
//! that URL.

use serde_json::{Map, Value};

use super::json::{
    Located, empty_stream, error_message, is_an_error, not_a_stream_of, object_of, opt_array,
    opt_object, opt_str, opt_whole, type_of, values_of,
};
use super::offsets::{char_span, char_starts, ending_at};
use super::reading::{ENDED_EARLY, Event, Reading, Sources, StreamErrors, cut_off, typed_events};
use super::{Provider, never, no_sources};
use crate::input::InputError;
use crate::input::{AnswerFormat, Chunk, CitationTarget, NativeCitation};

pub(super) const PROVIDER: Provider = Provider {
    format: AnswerFormat::OpenaiResponses,
    response: |object| {
        object.get("object").and_then(Value::as_str) == Some("response")
            || object.get("output").is_some_and(Value::is_array)
    },
    event: |event| {
        event
            .get("type")
            .and_then(Value::as_str)
            .is_some_and(|kind| kind.starts_with("response."))
    },
    error: never,
    array_stream: false,
    keys: &["output"],
    read,
    sources_elsewhere: "the file search results (or ask the API to include `file_search_call.results`)",
    sources: no_sources,
};

fn read(text: &str) -> Result<Reading, InputError> {
    let values = values_of(text)?;
    match values.items.as_slice() {
        [] => Err(empty_stream()),
        [one] if !values.sse && !is_event(&one.value) => {
            let object = object_of(one)?;
            if let Some(message) = error_message(object) {
                return Err(is_an_error(None, &message));
            }
            let mut reading = Reading::default();
            output(&mut reading, object, None, "")?;
            status(&mut reading, object, None, "")?;
            Ok(reading)
        }
        events => stream(events),
    }
}

fn is_event(value: &Value) -> bool {
    type_of(value).is_some_and(|kind| kind.starts_with("response.") || kind == "error")
}

/// Reads a response's `output`: appends the text of its `output_text` parts with their
/// citations, and takes the file search results as the sources. Returns whether it had any
/// `output_text` part at all.
fn output(
    reading: &mut Reading,
    response: &Map<String, Value>,
    at: Option<usize>,
    path: &str,
) -> Result<bool, InputError> {
    let output =
        opt_array(response.get("output")).map_err(|w| w.at(at, format_args!("{path}output")))?;
    let mut had_text = false;
    for (k, item) in output.iter().enumerate() {
        match type_of(item) {
            Some("message") => {}
            Some("file_search_call") => {
                let path = format!("{path}output[{k}].results");
                file_search_results(reading, item.get("results"), at, &path)?;
                continue;
            }
            _ => continue,
        }
        let parts = opt_array(item.get("content"))
            .map_err(|w| w.at(at, format_args!("{path}output[{k}].content")))?;
        for (j, part) in parts.iter().enumerate() {
            if type_of(part) != Some("output_text") {
                continue;
            }
            had_text = true;
            let path = format!("{path}output[{k}].content[{j}]");
            let piece =
                opt_str(part.get("text")).map_err(|w| w.at(at, format_args!("{path}.text")))?;
            let start = reading.text.len();
            reading.text.push_str(piece.unwrap_or(""));
            annotations(reading, start, part.get("annotations"), at, &path)?;
        }
    }
    Ok(had_text)
}

/// The citations of one `output_text` part, which starts at byte `start` of the text.
fn annotations(
    reading: &mut Reading,
    start: usize,
    annotations: Option<&Value>,
    at: Option<usize>,
    path: &str,
) -> Result<(), InputError> {
    let annotations =
        opt_array(annotations).map_err(|w| w.at(at, format_args!("{path}.annotations")))?;
    if annotations.is_empty() {
        return Ok(());
    }
    let part = start..reading.text.len();
    // The byte offset of each character of the part, from the text's start.
    let starts: Vec<usize> = char_starts(&reading.text[part.clone()])
        .into_iter()
        .map(|at| start + at)
        .collect();
    let within = 0..starts.len() - 1;
    for (k, annotation) in annotations.iter().enumerate() {
        let path = format!("{path}.annotations[{k}]");
        let field = |key: &str| {
            opt_whole(annotation.get(key)).map_err(|w| w.at(at, format_args!("{path}.{key}")))
        };
        let string = |key: &str| {
            opt_str(annotation.get(key)).map_err(|w| w.at(at, format_args!("{path}.{key}")))
        };
        let (span, label) = match type_of(annotation) {
            Some("file_citation") => {
                let (Some(index), Some(file)) = (field("index")?, string("file_id")?) else {
                    continue;
                };
                let end = usize::try_from(index)
                    .ok()
                    .and_then(|i| starts.get(i).copied())
                    .unwrap_or(part.end)
                    .min(part.end);
                (ending_at(&reading.text[..end], end), file)
            }
            Some("url_citation") => {
                let (Some(from), Some(to), Some(url)) =
                    (field("start_index")?, field("end_index")?, string("url")?)
                else {
                    continue;
                };
                let Some(span) = char_span(&starts, &within, from, to) else {
                    continue;
                };
                (Some(span), url)
            }
            _ => continue,
        };
        reading.citations.push(NativeCitation {
            span,
            target: CitationTarget::Label(label.to_string()),
            quote: None,
        });
    }
    Ok(())
}

/// A `file_search_call`'s results, appended to the sources (numbered on from those before).
fn file_search_results(
    reading: &mut Reading,
    results: Option<&Value>,
    at: Option<usize>,
    path: &str,
) -> Result<(), InputError> {
    let results = opt_array(results).map_err(|w| w.at(at, path))?;
    let sources = reading.sources.get_or_insert_with(Sources::default);
    for (k, result) in results.iter().enumerate() {
        let string = |key: &str| {
            opt_str(result.get(key)).map_err(|w| w.at(at, format_args!("{path}[{k}].{key}")))
        };
        let text = string("text")?.unwrap_or("").to_string();
        let aliases = [string("file_id")?, string("filename")?]
            .into_iter()
            .flatten()
            .map(str::to_string)
            .collect();
        sources.chunks.push(Chunk {
            id: (sources.chunks.len() + 1).to_string(),
            text,
            aliases,
        });
    }
    Ok(())
}

fn status(
    reading: &mut Reading,
    response: &Map<String, Value>,
    at: Option<usize>,
    path: &str,
) -> Result<(), InputError> {
    let details = opt_object(response.get("incomplete_details"))
        .map_err(|w| w.at(at, format_args!("{path}incomplete_details")))?;
    if let Some(details) = details {
        let reason = opt_str(details.get("reason"))
            .map_err(|w| w.at(at, format_args!("{path}incomplete_details.reason")))?;
        // The other reason, `content_filter`, is no token limit.
        if reason == Some("max_output_tokens") {
            reading
                .warnings
                .push(cut_off("incomplete_details.reason", "max_output_tokens"));
        }
    }
    reading.read_usage(
        response.get("usage"),
        &format!("{path}usage"),
        ("input_tokens", "output_tokens"),
        at,
    )
}

fn stream(events: &[Located]) -> Result<Reading, InputError> {
    let mut reading = Reading::streamed();
    let mut errors = StreamErrors::default();
    let mut deltas = String::new();
    let mut final_response = None;
    let events = typed_events(events, &mut reading, &mut errors)?;
    let recognised = events
        .iter()
        .any(|e| e.kind.is_some_and(|kind| kind.starts_with("response.")));
    for Event { at, object, kind } in events {
        match kind {
            Some("response.output_text.delta") => {
                let delta = opt_str(object.get("delta")).map_err(|w| w.at(at, "delta"))?;
                deltas.push_str(delta.unwrap_or(""));
            }
            Some("response.completed" | "response.incomplete" | "response.failed") => {
                let response =
                    opt_object(object.get("response")).map_err(|w| w.at(at, "response"))?;
                if let Some(response) = response {
                    final_response = Some((response, at));
                }
            }
            _ => {}
        }
    }
    if !recognised {
        return Err(errors.or(not_a_stream_of(
            "an OpenAI Responses stream",
            "no event has a `type` starting with `response.`",
        )));
    }
    match final_response {
        Some((response, at)) => {
            // `response.failed` says why in the response it carries.
            if let Some(message) = error_message(response) {
                errors.note(&mut reading, at, message);
            }
            if !output(&mut reading, response, at, "response.")? {
                reading.text = deltas;
            }
            status(&mut reading, response, at, "response.")?;
        }
        None => {
            reading.text = deltas;
            reading.warnings.push(ENDED_EARLY.to_string());
        }
    }
    Ok(reading)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::response::testing::*;

    #[test]
    fn openai_responses_and_its_stream() {
        let single = read_detected(fixture!("openai-responses.json"));
        let stream = read_detected(fixture!("openai-responses-stream.sse"));
        for answer in [&single, &stream] {
            assert_eq!(answer.text, MARKED);
            assert_eq!(answer.format, AnswerFormat::OpenaiResponses);
            assert_eq!(answer.usage, usage(402, 181));
            assert!(answer.warnings.is_empty(), "{:?}", answer.warnings);
        }
        assert_eq!((single.streamed, stream.streamed), (false, true));
    }

    #[test]
    fn openai_responses_join_parts_with_nothing_between() {
        let text = r#"{"object": "response", "status": "completed", "output": [
            {"type": "reasoning", "summary": [{"type": "summary_text", "text": "Thinking."}]},
            {"type": "message", "content": [
                {"type": "output_text", "text": "The tower is tall [1]."},
                {"type": "refusal", "refusal": "no"},
                {"type": "output_text", "text": " It is in Paris [3]."}]},
            {"type": "function_call", "name": "f", "arguments": "{}"},
            {"type": "message", "content": [{"type": "output_text", "text": " Done."}]}]}"#;
        let answer = read_detected(text);
        assert_eq!(
            answer.text,
            "The tower is tall [1]. It is in Paris [3]. Done."
        );
        assert_eq!(answer.usage, None);
    }

    #[test]
    fn responses_stream_that_failed() {
        let sse = "event: response.created\ndata: {\"type\": \"response.created\", \"response\": {\"object\": \"response\", \"output\": []}}\n\n\
                   event: response.output_text.delta\ndata: {\"type\": \"response.output_text.delta\", \"delta\": \"The tower\"}\n\n\
                   event: response.failed\ndata: {\"type\": \"response.failed\", \"response\": {\"object\": \"response\", \"status\": \"failed\", \"error\": {\"code\": \"server_error\", \"message\": \"The model failed\"}, \"output\": []}}\n\n";
        let answer = read_detected(sse);
        assert_eq!(answer.text, "The tower");
        assert_eq!(
            answer.warnings,
            ["the stream carried an error: The model failed"]
        );
    }

    #[test]
    fn file_search_results_are_the_sources_and_file_citations_cite_the_sentence_they_end() {
        let text = r#"{"object": "response", "status": "completed", "output": [
            {"type": "file_search_call", "id": "fs_1", "status": "completed", "queries": ["tower"],
             "results": [
                {"file_id": "file-A", "filename": "tower.pdf", "score": 0.9, "text": "The tower is 330 m tall.", "attributes": {}},
                {"file_id": "file-B", "filename": "paris.pdf", "score": 0.5, "text": "Paris is big."},
                {"file_id": "file-A", "filename": "tower.pdf", "score": 0.4, "text": "It opened in 1889."}]},
            {"type": "message", "content": [{"type": "output_text", "text": "Intro. The tower is 330 m tall. It is in Paris.",
             "annotations": [
                {"type": "file_citation", "file_id": "file-A", "filename": "tower.pdf", "index": 31},
                {"type": "file_citation", "file_id": "file-B", "filename": "paris.pdf", "index": 47},
                {"type": "url_citation", "start_index": 0, "end_index": 6, "url": "https://example.com", "title": "x"}]}]}]}"#;
        let answer = read_detected(text);
        let label = |l: &str| CitationTarget::Label(l.to_string());
        assert_eq!(
            cited(&answer),
            [
                (Some("."), label("file-A"), None),
                (Some("."), label("file-B"), None),
                (Some("Intro."), label("https://example.com"), None),
            ]
        );
        // The file citations sit at the end of their sentences.
        let spans: Vec<_> = answer.citations.iter().map(|c| c.span.clone()).collect();
        assert_eq!(spans[0], Some(30..31));
        assert_eq!(spans[1], Some(46..47));
        let sources = answer.sources.expect("sources");
        let chunks: Vec<(&str, &str, Vec<&str>)> = sources
            .chunks
            .iter()
            .map(|c| {
                (
                    c.id.as_str(),
                    c.text.as_str(),
                    c.aliases.iter().map(String::as_str).collect(),
                )
            })
            .collect();
        assert_eq!(
            chunks,
            [
                ("1", "The tower is 330 m tall.", vec!["file-A", "tower.pdf"]),
                ("2", "Paris is big.", vec!["file-B", "paris.pdf"]),
                ("3", "It opened in 1889.", vec!["file-A", "tower.pdf"]),
            ]
        );
    }

    #[test]
    fn without_file_search_results_there_are_no_sources() {
        let answer = read_detected(fixture!("openai-responses.json"));
        assert!(answer.sources.is_none());
    }
}
