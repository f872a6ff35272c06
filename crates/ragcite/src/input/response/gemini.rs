//! Gemini `generateContent` (also Vertex AI, with or without a RAG retrieval tool): the `text`
//! parts of `candidates[0].content.parts` that are not thoughts, joined, one JSON object, the SSE
//! stream, or the JSON array that `streamGenerateContent` gives without `alt=sse`. Cut off when
//! `finishReason` is `MAX_TOKENS`. A prompt blocked by the safety filters comes back with
//! `promptFeedback` and no candidates: no text.
//!
//! Citations: each index of each `groundingMetadata.groundingSupports[].groundingChunkIndices`
//! cites the segment's span (UTF-8 byte offsets within the part at `partIndex`) to the grounding
//! chunk at that position. In a stream, the last chunk's supports are read against the whole
//! joined text, as one part.
//!
//! Sources: `groundingMetadata.groundingChunks[]`, numbered from 1, when one of them carries
//! retrieved text (`retrievedContext.text`, as Vertex AI RAG Engine and Vertex AI Search give
//! it), with its `uri` and `title` as other names; a web result carries no text and is an empty
//! chunk, so that the indices still count it.

use std::ops::Range;

use serde_json::{Map, Value};

use super::json::{
    Located, empty_stream, error_message, is_an_error, is_present, object_of, opt_array,
    opt_object, opt_str, opt_whole, values_of,
};
use super::offsets::byte_span;
use super::reading::{ENDED_EARLY, Reading, Sources, StreamErrors, cut_off};
use super::{Provider, never, no_sources};
use crate::input::InputError;
use crate::input::{AnswerFormat, Chunk, CitationTarget, NativeCitation, json_kind};

pub(super) const PROVIDER: Provider = Provider {
    format: AnswerFormat::Gemini,
    response: is_gemini,
    event: is_gemini,
    error: never,
    array_stream: true,
    keys: &["candidates"],
    read,
    sources_elsewhere: "the chunks the grounding indices count",
    sources: no_sources,
};

fn is_gemini(object: &Map<String, Value>) -> bool {
    // A prompt blocked by the safety filters comes back with `promptFeedback` and no candidates.
    object.contains_key("candidates") || object.contains_key("promptFeedback")
}

/// The grounding chunks as sources, when one of them carries retrieved text.
fn retrieved_contexts(grounding_chunks: &[Value]) -> Option<Sources> {
    fn text_of(c: &Value) -> Option<&str> {
        c.pointer("/retrievedContext/text").and_then(Value::as_str)
    }
    if !grounding_chunks.iter().any(|c| text_of(c).is_some()) {
        return None;
    }
    let chunks = grounding_chunks
        .iter()
        .enumerate()
        .map(|(k, c)| {
            let context = c.get("retrievedContext").or_else(|| c.get("web"));
            let aliases = ["uri", "title"]
                .into_iter()
                .filter_map(|key| context?.get(key)?.as_str())
                .map(str::to_string)
                .collect();
            Chunk {
                id: (k + 1).to_string(),
                text: text_of(c).unwrap_or("").to_string(),
                aliases,
            }
        })
        .collect();
    Some(Sources {
        chunks,
        ..Sources::default()
    })
}

/// What one Gemini response, or one chunk of a stream, holds.
struct Candidate<'a> {
    /// Each part's text; `None` for thoughts and parts that are not text, so that `partIndex`
    /// still counts every part.
    parts: Vec<Option<&'a str>>,
    finish_reason: Option<&'a str>,
    supports: &'a [Value],
    /// `groundingMetadata.groundingChunks`, what the supports' indices count.
    grounding_chunks: &'a [Value],
}

fn read(text: &str) -> Result<Reading, InputError> {
    let values = values_of(text)?;
    match values.items.as_slice() {
        [] => Err(empty_stream()),
        [one] if !values.sse => match &one.value {
            // `streamGenerateContent` without `alt=sse`: a JSON array of chunks.
            Value::Array(chunks) => stream(
                chunks
                    .iter()
                    .enumerate()
                    .map(|(k, chunk)| (chunk, None, format!("[{k}]."))),
            ),
            _ => response(one),
        },
        chunks => stream(
            chunks
                .iter()
                .map(|item| (&item.value, Some(item.line), String::new())),
        ),
    }
}

fn chunk<'a>(
    object: &'a Map<String, Value>,
    at: Option<usize>,
    prefix: &str,
) -> Result<Candidate<'a>, InputError> {
    let mut chunk = Candidate {
        parts: Vec::new(),
        finish_reason: None,
        supports: &[],
        grounding_chunks: &[],
    };
    let candidates = opt_array(object.get("candidates"))
        .map_err(|w| w.at(at, format_args!("{prefix}candidates")))?;
    let Some(candidate) = candidates.first() else {
        return Ok(chunk);
    };
    let path = format!("{prefix}candidates[0]");
    let content = opt_object(candidate.get("content"))
        .map_err(|w| w.at(at, format_args!("{path}.content")))?;
    let parts = opt_array(content.and_then(|c| c.get("parts")))
        .map_err(|w| w.at(at, format_args!("{path}.content.parts")))?;
    for (k, part) in parts.iter().enumerate() {
        let text = opt_str(part.get("text"))
            .map_err(|w| w.at(at, format_args!("{path}.content.parts[{k}].text")))?;
        // Thoughts are the model's reasoning; the SDKs' `text` leaves them out.
        let thought = part.get("thought").and_then(Value::as_bool) == Some(true);
        chunk.parts.push(text.filter(|_| !thought));
    }
    chunk.finish_reason = opt_str(candidate.get("finishReason"))
        .map_err(|w| w.at(at, format_args!("{path}.finishReason")))?;
    let grounding = opt_object(candidate.get("groundingMetadata"))
        .map_err(|w| w.at(at, format_args!("{path}.groundingMetadata")))?;
    chunk.supports =
        opt_array(grounding.and_then(|g| g.get("groundingSupports"))).map_err(|w| {
            w.at(
                at,
                format_args!("{path}.groundingMetadata.groundingSupports"),
            )
        })?;
    chunk.grounding_chunks = opt_array(grounding.and_then(|g| g.get("groundingChunks")))
        .map_err(|w| w.at(at, format_args!("{path}.groundingMetadata.groundingChunks")))?;
    Ok(chunk)
}

fn response(item: &Located) -> Result<Reading, InputError> {
    let object = object_of(item)?;
    if let Some(message) = error_message(object) {
        return Err(is_an_error(None, &message));
    }
    let chunk = chunk(object, None, "")?;
    let mut reading = Reading::default();
    let mut parts = Vec::with_capacity(chunk.parts.len());
    for part in &chunk.parts {
        parts.push(part.map(|text| {
            let start = reading.text.len();
            reading.text.push_str(text);
            start..reading.text.len()
        }));
    }
    for (k, support) in chunk.supports.iter().enumerate() {
        let path = format!("candidates[0].groundingMetadata.groundingSupports[{k}]");
        read_support(&mut reading, &parts, false, support, None, &path)?;
    }
    finish(&mut reading, chunk.finish_reason);
    reading.sources = retrieved_contexts(chunk.grounding_chunks);
    reading.read_usage(
        object.get("usageMetadata"),
        "usageMetadata",
        ("promptTokenCount", "candidatesTokenCount"),
        None,
    )?;
    Ok(reading)
}

fn stream<'a>(
    chunks: impl Iterator<Item = (&'a Value, Option<usize>, String)>,
) -> Result<Reading, InputError> {
    let mut reading = Reading::streamed();
    let mut errors = StreamErrors::default();
    let mut finish_reason = None;
    let mut supports = None;
    let mut grounding_chunks: &[Value] = &[];
    let mut answered = false;
    for (value, at, prefix) in chunks {
        let Some(object) = value.as_object() else {
            return Err(InputError::Response {
                line: at,
                message: format!("expected a JSON object, found {}", json_kind(value)),
            });
        };
        if let Some(message) = error_message(object) {
            errors.note(&mut reading, at, message);
            continue;
        }
        answered = true;
        let chunk = chunk(object, at, &prefix)?;
        for text in chunk.parts.into_iter().flatten() {
            reading.text.push_str(text);
        }
        if chunk.finish_reason.is_some() {
            finish_reason = chunk.finish_reason;
        }
        if !chunk.supports.is_empty() {
            supports = Some((chunk.supports, at, prefix.clone()));
        }
        if !chunk.grounding_chunks.is_empty() {
            grounding_chunks = chunk.grounding_chunks;
        }
        reading.read_usage(
            object.get("usageMetadata"),
            &format!("{prefix}usageMetadata"),
            ("promptTokenCount", "candidatesTokenCount"),
            at,
        )?;
    }
    if !answered {
        return Err(errors.or(empty_stream()));
    }
    // The supports come with the last chunks and count over the whole answer: it is read as
    // one part.
    if let Some((list, at, prefix)) = supports {
        let whole = [Some(0..reading.text.len())];
        for (k, support) in list.iter().enumerate() {
            let path = format!("{prefix}candidates[0].groundingMetadata.groundingSupports[{k}]");
            read_support(&mut reading, &whole, true, support, at, &path)?;
        }
    }
    finish(&mut reading, finish_reason);
    reading.sources = retrieved_contexts(grounding_chunks);
    if finish_reason.is_none() {
        reading.warnings.push(ENDED_EARLY.to_string());
    }
    Ok(reading)
}

fn finish(reading: &mut Reading, finish_reason: Option<&str>) {
    if finish_reason == Some("MAX_TOKENS") {
        reading.warnings.push(cut_off("finishReason", "MAX_TOKENS"));
    }
}

/// The citations of one grounding support: its segment (byte offsets within the part at
/// `partIndex`, whose span of the joined text is `parts[partIndex]`) cited to each of its
/// `groundingChunkIndices`. `one_part` reads every segment against `parts[0]`.
fn read_support(
    reading: &mut Reading,
    parts: &[Option<Range<usize>>],
    one_part: bool,
    support: &Value,
    at: Option<usize>,
    path: &str,
) -> Result<(), InputError> {
    let segment =
        opt_object(support.get("segment")).map_err(|w| w.at(at, format_args!("{path}.segment")))?;
    let Some(segment) = segment else {
        return Ok(());
    };
    let field = |key: &str| {
        opt_whole(segment.get(key)).map_err(|w| w.at(at, format_args!("{path}.segment.{key}")))
    };
    // Zero values are left out of Gemini's JSON: no `partIndex` is part 0, no `startIndex` is
    // offset 0. A negative or fractional `partIndex` names no part.
    let part_index = match (one_part, field("partIndex")?) {
        (true, _) => 0,
        (false, Some(index)) => index,
        (false, None) if is_present(segment, "partIndex") => return Ok(()),
        (false, None) => 0,
    };
    let start = field("startIndex")?.unwrap_or(0);
    let Some(end) = field("endIndex")? else {
        return Ok(());
    };
    let part = usize::try_from(part_index)
        .ok()
        .and_then(|i| parts.get(i))
        .and_then(Option::as_ref);
    let Some(part) = part else {
        return Ok(());
    };
    let Some(span) = reading
        .text
        .get(part.clone())
        .and_then(|text| byte_span(text, start, end))
    else {
        return Ok(());
    };
    let span = part.start + span.start..part.start + span.end;
    let indices = opt_array(support.get("groundingChunkIndices"))
        .map_err(|w| w.at(at, format_args!("{path}.groundingChunkIndices")))?;
    for (k, index) in indices.iter().enumerate() {
        let index = opt_whole(Some(index))
            .map_err(|w| w.at(at, format_args!("{path}.groundingChunkIndices[{k}]")))?;
        if let Some(position) = index.and_then(|i| usize::try_from(i).ok()) {
            reading.citations.push(NativeCitation {
                span: Some(span.clone()),
                target: CitationTarget::Position(position),
                quote: None,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::response::testing::*;

    #[test]
    fn gemini_grounding_supports_in_bytes() {
        let single = read_detected(fixture!("gemini.json"));
        let stream = read_detected(fixture!("gemini-stream.sse"));
        for answer in [&single, &stream] {
            assert_eq!(
                answer.text,
                "The Eiffel Tower — Paris’s wrought-iron landmark — is 330 metres tall. It was \
                 completed in 1889 for the World's Fair. The company of Gustave Eiffel designed \
                 and built it."
            );
            assert_eq!(
                cited(answer),
                [
                    (
                        Some(
                            "The Eiffel Tower — Paris’s wrought-iron landmark — is 330 metres tall."
                        ),
                        position(0),
                        None
                    ),
                    (
                        Some("It was completed in 1889 for the World's Fair."),
                        position(1),
                        None
                    ),
                    (
                        Some("The company of Gustave Eiffel designed and built it."),
                        position(3),
                        None
                    ),
                ]
            );
            assert_eq!(answer.usage, usage(402, 44));
            assert!(answer.warnings.is_empty(), "{:?}", answer.warnings);
        }
        assert_eq!((single.streamed, stream.streamed), (false, true));
    }

    #[test]
    fn gemini_part_index_counts_every_part() {
        // Part 0 is a thought, left out of the text; part 2 is not text. Offsets are bytes
        // within their part.
        let text = r#"{"candidates": [{"content": {"role": "model", "parts": [
                {"text": "Thinking about “it”.", "thought": true},
                {"text": "Für Paris: 330 m. "},
                {"functionCall": {"name": "f", "args": {}}},
                {"text": "Gebaut 1889 – schön."}]},
            "finishReason": "STOP",
            "groundingMetadata": {"groundingSupports": [
                {"segment": {"partIndex": 1, "startIndex": 5, "endIndex": 17, "text": "Paris: 330 m"},
                 "groundingChunkIndices": [0, 2]},
                {"segment": {"partIndex": 3, "endIndex": 11, "text": "Gebaut 1889"},
                 "groundingChunkIndices": [1]},
                {"segment": {"partIndex": 3, "startIndex": 16, "endIndex": 22, "text": "schön"},
                 "groundingChunkIndices": [4]},
                {"segment": {"partIndex": 0, "startIndex": 0, "endIndex": 5}, "groundingChunkIndices": [3]},
                {"segment": {"partIndex": 2, "startIndex": 0, "endIndex": 5}, "groundingChunkIndices": [3]},
                {"segment": {"partIndex": 9, "startIndex": 0, "endIndex": 5}, "groundingChunkIndices": [3]},
                {"segment": {"partIndex": -1, "startIndex": 0, "endIndex": 5}, "groundingChunkIndices": [3]},
                {"groundingChunkIndices": [3]}]}}],
            "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 8, "thoughtsTokenCount": 20}}"#;
        let answer = read_detected(text);
        assert_eq!(answer.text, "Für Paris: 330 m. Gebaut 1889 – schön.");
        assert_eq!(
            cited(&answer),
            [
                (Some("Paris: 330 m"), position(0), None),
                (Some("Paris: 330 m"), position(2), None),
                (Some("Gebaut 1889"), position(1), None),
                (Some("schön"), position(4), None),
            ]
        );
        assert_eq!(answer.usage, usage(10, 8));
    }

    #[test]
    fn gemini_stream_as_a_json_array() {
        let sse = fixture!("gemini-stream.sse");
        let chunks: Vec<&str> = sse
            .lines()
            .filter_map(|l| l.strip_prefix("data: "))
            .collect();
        let array = format!("[{}]", chunks.join(",\n"));
        assert_eq!(detect(&array).ok(), Some(AnswerFormat::Gemini));
        let from_array = read_as(&array, AnswerFormat::Gemini);
        let from_sse = read_as(sse, AnswerFormat::Gemini);
        assert_eq!(from_array.text, from_sse.text);
        assert_eq!(from_array.citations, from_sse.citations);
        assert!(from_array.streamed);
        // An array element of the wrong shape is named by its position.
        let err = read_response(
            r#"[{"candidates": [{"content": {"parts": [{"text": 1}]}}]}]"#,
            AnswerFormat::Gemini,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "`[0].candidates[0].content.parts[0].text` is a number; expected a string"
        );
    }

    #[test]
    fn gemini_offsets_past_the_end_or_inside_a_character() {
        let text = r#"{"candidates": [{"content": {"parts": [{"text": "Tour Eiffel — 330 m"}]},
            "groundingMetadata": {"groundingSupports": [
                {"segment": {"startIndex": 14, "endIndex": 900}, "groundingChunkIndices": [0]},
                {"segment": {"startIndex": 900, "endIndex": 901}, "groundingChunkIndices": [1]},
                {"segment": {"startIndex": 13, "endIndex": 14}, "groundingChunkIndices": [2]},
                {"segment": {"startIndex": 5, "endIndex": 5}, "groundingChunkIndices": [3]},
                {"segment": {"startIndex": -4, "endIndex": 4}, "groundingChunkIndices": [4, -1, 1.5]},
                {"segment": {"startIndex": 0}, "groundingChunkIndices": [5]}]}}]}"#;
        let answer = read_as(text, AnswerFormat::Gemini);
        assert_eq!(
            cited(&answer),
            [
                // Byte 14 is inside `—` (bytes 12..15): the span starts at the character.
                (Some("— 330 m"), position(0), None),
                (Some("—"), position(2), None),
                (Some("Tour"), position(4), None),
            ]
        );
    }

    #[test]
    fn retrieved_contexts_are_the_sources() {
        let text = r#"{"candidates": [{"content": {"parts": [{"text": "The tower is 330 m tall."}]},
            "finishReason": "STOP",
            "groundingMetadata": {
                "groundingChunks": [
                    {"retrievedContext": {"uri": "gs://b/tower.txt", "title": "tower.txt", "text": "It is 330 m tall."}},
                    {"web": {"uri": "https://example.com", "title": "example.com"}}],
                "groundingSupports": [{"segment": {"endIndex": 24, "text": "The tower is 330 m tall."}, "groundingChunkIndices": [0]}]}}]}"#;
        let answer = read_detected(text);
        let sources = answer.sources.clone().expect("sources");
        assert_eq!(sources.chunks[0].text, "It is 330 m tall.");
        assert_eq!(sources.chunks[0].aliases, ["gs://b/tower.txt", "tower.txt"]);
        assert_eq!(
            (
                sources.chunks[1].id.as_str(),
                sources.chunks[1].text.as_str()
            ),
            ("2", "")
        );
        assert_eq!(
            cited(&answer),
            [(Some("The tower is 330 m tall."), position(0), None)]
        );
        // Web grounding alone carries no text: no sources.
        let web = r#"{"candidates": [{"content": {"parts": [{"text": "Tall."}]}, "groundingMetadata": {
            "groundingChunks": [{"web": {"uri": "https://example.com", "title": "example.com"}}]}}]}"#;
        assert!(read_detected(web).sources.is_none());
    }
}
