//! AWS Bedrock Agents `InvokeAgent` (bedrock-agent-runtime), as boto3 yields it: the response
//! object (`ResponseMetadata`, `sessionId`, ...) with `completion` written as the list of the
//! events it streamed, or those events one per line (JSON Lines, as logged). Each event is
//! `{"chunk": ...}`, `{"trace": ...}`, or an exception (`throttlingException`, ...: a stream
//! error).
//!
//! The answer is the `chunk` events' `bytes`, joined: a string, or the same bytes in base64 as
//! the event stream encodes them (a `bytes` that is valid padded standard base64 decoding to
//! UTF-8 is decoded; prose, with its spaces and full stops, never is). Without any chunk, the
//! orchestration trace's `observation.finalResponse.text` is the answer.
//!
//! Citations: each chunk's `attribution.citations[]`, in the shape of `RetrieveAndGenerate`'s
//! (read by the same code): the span `generatedResponsePart.textResponsePart.span{start, end}`
//! (characters of that chunk's text, `end` included) cites each of its `retrievedReferences`.
//!
//! Sources: every reference the knowledge base returned to the agent, from the traces
//! (`trace.trace.orchestrationTrace.observation.knowledgeBaseLookupOutput.retrievedReferences[]`,
//! in order), then the cited references no trace holds; each once, by
//! `metadata["x-amz-bedrock-kb-chunk-id"]`, named as the `bedrock` reader names them. Without
//! traces (`enableTrace` off) the sources are the cited references alone.

use base64::Engine;
use serde_json::{Map, Value};

use super::bedrock::{Cited, References};
use super::json::{
    Located, empty_stream, json_values, object_of, opt_array, opt_object, opt_str, pointer,
};
use super::offsets::char_starts;
use super::reading::{Reading, StreamErrors};
use super::{Provider, never, no_sources};
use crate::input::{AnswerFormat, InputError};

pub(super) const PROVIDER: Provider = Provider {
    format: AnswerFormat::BedrockAgents,
    response: |object| {
        object
            .get("completion")
            .and_then(Value::as_array)
            .is_some_and(|events| events.iter().any(|e| is_event(e.as_object())))
    },
    event: |object| is_event(Some(object)),
    error: never,
    array_stream: false,
    keys: &[],
    read,
    sources_elsewhere: "",
    sources: no_sources,
};

/// An `InvokeAgent` event: a `chunk` with `bytes`, or a `trace` holding a `trace`.
fn is_event(object: Option<&Map<String, Value>>) -> bool {
    let Some(object) = object else {
        return false;
    };
    pointer(object, "/chunk/bytes").is_some_and(Value::is_string)
        || pointer(object, "/trace/trace").is_some_and(Value::is_object)
}

/// Where a trace holds the knowledge base's references.
const LOOKUP: &str =
    "/orchestrationTrace/observation/knowledgeBaseLookupOutput/retrievedReferences";

/// One event, with its path and line for errors.
struct AgentEvent<'a> {
    object: &'a Map<String, Value>,
    path: String,
    at: Option<usize>,
}

fn read(text: &str) -> Result<Reading, InputError> {
    let items = json_values(text)?;
    let mut located: Vec<(&Value, String, Option<usize>)> = Vec::new();
    match items.as_slice() {
        [] => return Err(empty_stream()),
        [one] if one.value.get("completion").is_some() => {
            let object = object_of(one)?;
            let events =
                opt_array(object.get("completion")).map_err(|w| w.at(None, "completion"))?;
            for (k, event) in events.iter().enumerate() {
                located.push((event, format!("completion[{k}]"), None));
            }
        }
        lines => {
            for Located { line, value } in lines {
                located.push((value, String::new(), Some(*line)));
            }
        }
    }
    let mut reading = Reading {
        streamed: located.iter().any(|(_, _, at)| at.is_some()),
        ..Reading::default()
    };
    let mut errors = StreamErrors::default();
    let mut events = Vec::with_capacity(located.len());
    for (value, path, at) in located {
        let Some(object) = value.as_object() else {
            let what = if path.is_empty() { "an event" } else { &path };
            return Err(InputError::Response {
                line: at,
                message: format!(
                    "`{what}` is {}; expected an object",
                    crate::input::json_kind(value)
                ),
            });
        };
        if let Some((name, error)) = object.iter().find(|(k, _)| k.ends_with("Exception")) {
            let message = error.get("message").and_then(Value::as_str).unwrap_or(name);
            errors.note(&mut reading, at, format!("{name}: {message}"));
            continue;
        }
        events.push(AgentEvent { object, path, at });
    }
    let dot = |path: &str| {
        if path.is_empty() {
            String::new()
        } else {
            format!("{path}.")
        }
    };
    // The references the agent retrieved, from its traces, in order.
    let mut references = References::default();
    let mut final_response = None;
    for event in &events {
        let path = format!("{}trace.trace", dot(&event.path));
        let trace =
            opt_object(pointer(event.object, "/trace/trace")).map_err(|w| w.at(event.at, &path))?;
        let Some(trace) = trace else { continue };
        let lookup = format!("{path}{}", LOOKUP.replace('/', "."));
        let list = opt_array(pointer(trace, LOOKUP)).map_err(|w| w.at(event.at, &lookup))?;
        for (j, reference) in list.iter().enumerate() {
            references.add_at(reference, event.at, &format!("{lookup}[{j}]"))?;
        }
        let answer = pointer(trace, "/orchestrationTrace/observation/finalResponse/text");
        if let Some(answer) = opt_str(answer).map_err(|w| {
            w.at(
                event.at,
                format_args!("{path}.orchestrationTrace.observation.finalResponse.text"),
            )
        })? {
            final_response = Some(answer.to_string());
        }
    }
    // The chunks' texts, each with its citations and the characters it spans.
    let mut chunks = Vec::new();
    let mut chars = 0;
    for event in &events {
        let chunk = opt_object(event.object.get("chunk"))
            .map_err(|w| w.at(event.at, format_args!("{}chunk", dot(&event.path))))?;
        let Some(chunk) = chunk else { continue };
        let path = format!("{}chunk", dot(&event.path));
        let bytes = opt_str(chunk.get("bytes"))
            .map_err(|w| w.at(event.at, format_args!("{path}.bytes")))?
            .unwrap_or("");
        let text = decoded(bytes).unwrap_or_else(|| bytes.to_string());
        let attribution = opt_object(chunk.get("attribution"))
            .map_err(|w| w.at(event.at, format_args!("{path}.attribution")))?;
        let citations = opt_array(attribution.and_then(|a| a.get("citations")))
            .map_err(|w| w.at(event.at, format_args!("{path}.attribution.citations")))?;
        let len = text.chars().count();
        reading.text.push_str(&text);
        chunks.push((
            citations,
            format!("{path}.attribution.citations"),
            event.at,
            chars..chars + len,
        ));
        chars += len;
    }
    if chunks.is_empty() {
        reading.text = final_response.unwrap_or_default();
        if reading.text.is_empty() && events.is_empty() {
            return Err(errors.or(empty_stream()));
        }
    }
    let starts = char_starts(&reading.text);
    for (citations, path, at, within) in &chunks {
        let cited = Cited {
            citations,
            path,
            at: *at,
        };
        cited.read(&mut reading, &mut references, &starts, within)?;
    }
    reading.sources = Some(references.sources);
    Ok(reading)
}

/// The text `bytes` holds in base64 (standard alphabet, padded), when it is that and the bytes
/// are UTF-8; `None` for any other string (the text itself).
fn decoded(bytes: &str) -> Option<String> {
    if bytes.is_empty() || !bytes.len().is_multiple_of(4) {
        return None;
    }
    let raw = base64::engine::general_purpose::STANDARD
        .decode(bytes)
        .ok()?;
    String::from_utf8(raw).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::CitationTarget;
    use crate::input::response::testing::*;
    use crate::input::testing::ids_and_texts;

    use serde_json::json;

    fn reference(id: &str, text: &str) -> Value {
        json!({"content": {"text": text}, "location": {"s3Location": {"uri": "s3://b/t.pdf"}, "type": "S3"},
               "metadata": {"x-amz-bedrock-kb-chunk-id": id}})
    }

    fn trace(references: &[Value]) -> String {
        json!({"trace": {"agentId": "A", "trace": {"orchestrationTrace": {"observation":
            {"knowledgeBaseLookupOutput": {"retrievedReferences": references}}}}}})
        .to_string()
    }

    fn chunk(bytes: &str, start: u64, end: u64, references: &[Value]) -> String {
        json!({"chunk": {"bytes": bytes, "attribution": {"citations": [
            {"generatedResponsePart": {"textResponsePart": {"span": {"start": start, "end": end}}},
             "retrievedReferences": references}]}}})
        .to_string()
    }

    #[test]
    fn chunks_cite_inclusive_spans_and_traces_hold_every_reference() {
        let (a, b, c) = (
            reference("a", "Tall."),
            reference("b", "Old."),
            reference("c", "Big."),
        );
        // "Été: tall. Old." in two chunks: characters, not bytes; the second counted from its own start.
        let events = [
            trace(&[a.clone(), b.clone(), c.clone()]),
            chunk("Été: tall.", 5, 9, std::slice::from_ref(&a)),
            chunk(" Old.", 1, 4, &[b.clone(), reference("d", "Cited only.")]),
        ];
        let object = format!(
            r#"{{"ResponseMetadata": {{}}, "sessionId": "s", "contentType": "application/json", "completion": [{}]}}"#,
            events.join(",")
        );
        let lines = events.join("\n");
        for text in [&object, &lines] {
            let answer = read_detected(text);
            assert_eq!(answer.format, AnswerFormat::BedrockAgents);
            assert_eq!(answer.text, "Été: tall. Old.");
            let label = |l: &str| CitationTarget::Label(l.to_string());
            assert_eq!(
                cited(&answer),
                [
                    (Some("tall."), label("a"), None),
                    (Some("Old."), label("b"), None),
                    (Some("Old."), label("d"), None),
                ]
            );
            let sources = answer.sources.expect("sources");
            assert_eq!(
                ids_and_texts(&sources.chunks),
                [
                    ("a", "Tall."),
                    ("b", "Old."),
                    ("c", "Big."),
                    ("d", "Cited only.")
                ]
            );
        }
    }

    #[test]
    fn base64_bytes_are_decoded_and_prose_is_not() {
        // "Tall." in base64; a string that is not base64 is the text.
        assert_eq!(decoded("VGFsbC4="), Some("Tall.".to_string()));
        assert_eq!(decoded("Tall."), None);
        assert_eq!(decoded("It is 330 m tall."), None);
        assert_eq!(decoded("/w=="), None); // not UTF-8
        let line = r#"{"chunk": {"bytes": "VGFsbC4="}}"#;
        assert_eq!(read_as(line, AnswerFormat::BedrockAgents).text, "Tall.");
    }

    #[test]
    fn wrong_types_and_offsets_outside_the_text() {
        let wrong = r#"{"completion": [{"chunk": {"bytes": 5}}]}"#;
        assert_eq!(
            read_error(wrong, AnswerFormat::BedrockAgents),
            (
                None,
                "`completion[0].chunk.bytes` is a number; expected a string".to_string()
            )
        );
        let wrong = "{\"chunk\": {\"bytes\": \"A.\"}}\n{\"chunk\": {\"bytes\": \"B.\", \"attribution\": {\"citations\": 3}}}";
        assert_eq!(
            read_error(wrong, AnswerFormat::BedrockAgents),
            (
                Some(2),
                "`chunk.attribution.citations` is a number; expected an array".to_string()
            )
        );
        let wrong = r#"{"completion": [{"trace": {"trace": {"orchestrationTrace": {"observation": {"knowledgeBaseLookupOutput": {"retrievedReferences": {}}}}}}}]}"#;
        assert_eq!(
            read_error(wrong, AnswerFormat::BedrockAgents).1,
            "`completion[0].trace.trace.orchestrationTrace.observation.knowledgeBaseLookupOutput.retrievedReferences` is an object; expected an array"
        );
        // A span past the chunk's end is clamped to it; one wholly past it is dropped.
        let text = format!(
            "{}\n{}",
            chunk("Tall.", 2, 400, &[reference("a", "x")]),
            chunk(" Old.", 90, 99, &[reference("b", "y")])
        );
        let answer = read_as(&text, AnswerFormat::BedrockAgents);
        assert_eq!(
            cited(&answer),
            [(Some("ll."), CitationTarget::Label("a".to_string()), None)]
        );
        // An exception event is a stream error; the answer before it is kept.
        let text = "{\"chunk\": {\"bytes\": \"Tall.\"}}\n{\"throttlingException\": {\"message\": \"slow down\"}}";
        let answer = read_as(text, AnswerFormat::BedrockAgents);
        assert_eq!(answer.text, "Tall.");
        assert_eq!(
            answer.warnings,
            ["the stream carried an error: throttlingException: slow down"]
        );
    }
}
