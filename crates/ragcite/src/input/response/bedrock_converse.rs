//! AWS Bedrock Converse with document citations: the answer joins, in order, the `text` blocks
//! of `output.message.content[]` and the texts of its `citationsContent` blocks; each of a
//! `citationsContent` block's `citations[]` cites that block's text to the document its
//! `location` names (`documentChar`, `documentPage` or `documentChunk`, each with a 0-based
//! `documentIndex` into the request's documents), with its `sourceContent` texts as the quote.
//! Cut off when `stopReason` is `max_tokens`.
//!
//! Sources: not in the response. The chunks file is the request (boto3's `converse` keyword
//! arguments, or the JSON body): its `document` blocks in order, named `document-1`, ... with
//! their `name` as another name; a document given as bytes (a PDF) or from S3 is an empty chunk
//! with a warning, so that the indices still count it.

use serde_json::Value;

use super::json::{opt_array, opt_object, opt_str, opt_whole, pointer, single_object};
use super::reading::{Reading, Sources, cut_off};
use super::{Provider, never};
use crate::input::InputError;
use crate::input::{AnswerFormat, Chunk, CitationTarget, NativeCitation};

pub(super) const PROVIDER: Provider = Provider {
    format: AnswerFormat::BedrockConverse,
    response: |object| pointer(object, "/output/message/content").is_some_and(Value::is_array),
    event: never,
    error: never,
    array_stream: false,
    keys: &["stopReason"],
    read,
    sources_elsewhere: "the Converse request (its documents)",
    sources,
};

/// What the request's documents are named by, before their 1-based number.
const DOCUMENT: &str = "document";

/// The kinds of `location`, each with a `documentIndex`.
const LOCATIONS: [&str; 3] = ["documentChar", "documentPage", "documentChunk"];

fn read(text: &str) -> Result<Reading, InputError> {
    let object = &single_object(text)?;
    let content = opt_array(pointer(object, "/output/message/content"))
        .map_err(|w| w.at(None, "output.message.content"))?;
    let mut reading = Reading::default();
    for (k, block) in content.iter().enumerate() {
        let path = format!("output.message.content[{k}]");
        if let Some(text) =
            opt_str(block.get("text")).map_err(|w| w.at(None, format_args!("{path}.text")))?
        {
            reading.text.push_str(text);
            continue;
        }
        let Some(cited) = opt_object(block.get("citationsContent"))
            .map_err(|w| w.at(None, format_args!("{path}.citationsContent")))?
        else {
            continue;
        };
        let path = format!("{path}.citationsContent");
        let start = reading.text.len();
        let parts = opt_array(cited.get("content"))
            .map_err(|w| w.at(None, format_args!("{path}.content")))?;
        for (j, part) in parts.iter().enumerate() {
            let text = opt_str(part.get("text"))
                .map_err(|w| w.at(None, format_args!("{path}.content[{j}].text")))?;
            reading.text.push_str(text.unwrap_or(""));
        }
        let span = start..reading.text.len();
        let citations = opt_array(cited.get("citations"))
            .map_err(|w| w.at(None, format_args!("{path}.citations")))?;
        for (j, citation) in citations.iter().enumerate() {
            let path = format!("{path}.citations[{j}]");
            let Some((kind, location)) = LOCATIONS
                .iter()
                .find_map(|kind| Some((kind, citation.pointer(&format!("/location/{kind}"))?)))
            else {
                continue;
            };
            let index = opt_whole(location.get("documentIndex"))
                .map_err(|w| w.at(None, format_args!("{path}.location.{kind}.documentIndex")))?;
            let Some(index) = index.and_then(|i| usize::try_from(i).ok()) else {
                continue;
            };
            let sources = opt_array(citation.get("sourceContent"))
                .map_err(|w| w.at(None, format_args!("{path}.sourceContent")))?;
            let quote: Vec<&str> = sources
                .iter()
                .filter_map(|s| s.get("text")?.as_str())
                .collect();
            reading.citations.push(NativeCitation {
                span: (!span.is_empty()).then(|| span.clone()),
                target: CitationTarget::IdOrPosition {
                    id: format!("{DOCUMENT}-{}", index + 1),
                    position: Some(index),
                },
                quote: (!quote.is_empty()).then(|| quote.join(" ")),
            });
        }
    }
    let reason = opt_str(object.get("stopReason")).map_err(|w| w.at(None, "stopReason"))?;
    if reason == Some("max_tokens") {
        reading.warnings.push(cut_off("stopReason", "max_tokens"));
    }
    reading.read_usage(
        object.get("usage"),
        "usage",
        ("inputTokens", "outputTokens"),
        None,
    )?;
    Ok(reading)
}

/// A Converse request (or its `messages`) whose `document` blocks are the chunks.
fn sources(value: &Value) -> Option<Result<Sources, InputError>> {
    let messages = match value {
        Value::Object(request) => request.get("messages")?.as_array()?,
        Value::Array(messages) => messages,
        _ => return None,
    };
    let documents: Vec<&Value> = messages
        .iter()
        .filter_map(|m| m.get("content")?.as_array())
        .flatten()
        .filter_map(|block| block.get("document"))
        .collect();
    if documents.is_empty() {
        return None;
    }
    let mut sources = Sources::default();
    for (k, document) in documents.into_iter().enumerate() {
        let id = format!("{DOCUMENT}-{}", k + 1);
        let source = document.get("source");
        let text = source
            .and_then(|s| s.get("text"))
            .and_then(Value::as_str)
            .map(str::to_string)
            .or_else(|| {
                let parts = source?.get("content")?.as_array()?;
                let texts: Vec<&str> = parts
                    .iter()
                    .filter_map(|p| p.get("text")?.as_str())
                    .collect();
                (!texts.is_empty()).then(|| texts.join("\n"))
            });
        let text = text.unwrap_or_else(|| {
            sources.warnings.push(format!(
                "{id} holds no text ragcite can read (bytes of a PDF or a file on S3): citations \
                 to it cannot be supported"
            ));
            String::new()
        });
        let aliases = document
            .get("name")
            .and_then(Value::as_str)
            .map(str::to_string)
            .into_iter()
            .collect();
        sources.chunks.push(Chunk { id, text, aliases });
    }
    Some(Ok(sources))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::response::testing::*;
    use crate::input::testing::ids_and_texts;

    #[test]
    fn cited_blocks_cite_their_text_to_the_request_s_documents() {
        let text = r#"{"output": {"message": {"role": "assistant", "content": [
            {"citationsContent": {"content": [{"text": "The tower is tall"}], "citations": [
                {"title": "Tower", "sourceContent": [{"text": "It is 330 m tall."}],
                 "location": {"documentChar": {"documentIndex": 0, "start": 0, "end": 17}}},
                {"location": {"documentPage": {"documentIndex": 2, "start": 1, "end": 2}}},
                {"location": {"web": {"url": "https://x"}}}]}},
            {"text": ". It is old."}]}},
            "stopReason": "max_tokens", "usage": {"inputTokens": 10, "outputTokens": 5}}"#;
        let answer = read_detected(text);
        assert_eq!(answer.format, AnswerFormat::BedrockConverse);
        assert_eq!(answer.text, "The tower is tall. It is old.");
        let document = |n: usize| CitationTarget::IdOrPosition {
            id: format!("document-{}", n + 1),
            position: Some(n),
        };
        assert_eq!(
            cited(&answer),
            [
                (
                    Some("The tower is tall"),
                    document(0),
                    Some("It is 330 m tall.")
                ),
                (Some("The tower is tall"), document(2), None),
            ]
        );
        assert_eq!(answer.usage, usage(10, 5));
        assert_eq!(answer.warnings.len(), 1);
        assert!(answer.sources.is_none());
    }

    #[test]
    fn the_request_is_the_chunks_file() {
        let request = serde_json::json!({"modelId": "m", "messages": [{"role": "user", "content": [
            {"document": {"format": "txt", "name": "Tower", "source": {"text": "It is tall."}, "citations": {"enabled": true}}},
            {"document": {"format": "pdf", "name": "Scan", "source": {"bytes": "JVBER"}}},
            {"document": {"name": "Parts", "source": {"content": [{"text": "One."}, {"text": "Two."}]}}},
            {"text": "How tall is it?"}]}]});
        let sources = sources(&request).expect("recognised").expect("read");
        let chunks = ids_and_texts(&sources.chunks);
        assert_eq!(
            chunks,
            [
                ("document-1", "It is tall."),
                ("document-2", ""),
                ("document-3", "One.\nTwo.")
            ]
        );
        assert_eq!(sources.chunks[0].aliases, ["Tower"]);
        assert_eq!(sources.warnings.len(), 1);
    }
}
