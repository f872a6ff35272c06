//! AWS Bedrock Knowledge Bases `RetrieveAndGenerate` (boto3's response, `ResponseMetadata` and
//! all): the answer is `output.text`, without markers; each of `citations[]` cites the span
//! `generatedResponsePart.textResponsePart.span{start, end}` of it (characters; `end` is the last
//! character's offset, included, as Bedrock writes it) to each of its `retrievedReferences`.
//!
//! Sources: the retrieved references, each once, in order of first citation (Bedrock returns
//! only the references it cites), named by `metadata["x-amz-bedrock-kb-chunk-id"]` (else
//! numbered), with the source URI (`x-amz-bedrock-kb-source-uri`, `location.*.uri`, `url`) as
//! another name: the chunks of one document share it. The `Retrieve` API's response
//! (`retrievalResults[]`) and a bare list of references are chunks files of the same shape.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::json::{opt_array, opt_object, opt_str, opt_whole, pointer, single_object};
use super::offsets::{char_span, char_starts};
use super::reading::{Reading, Sources};
use super::{Provider, never};
use crate::input::InputError;
use crate::input::{AnswerFormat, Chunk, CitationTarget, NativeCitation};

pub(super) const PROVIDER: Provider = Provider {
    format: AnswerFormat::Bedrock,
    response: |object| {
        pointer(object, "/output/text").is_some_and(Value::is_string)
            && (object.get("citations").is_some_and(Value::is_array)
                || object.contains_key("sessionId"))
    },
    event: never,
    error: never,
    array_stream: false,
    keys: &["retrievedReferences"],
    read,
    sources_elsewhere: "",
    sources,
};

const CHUNK_ID: &str = "x-amz-bedrock-kb-chunk-id";
const SOURCE_URI: &str = "x-amz-bedrock-kb-source-uri";

fn read(text: &str) -> Result<Reading, InputError> {
    let object = &single_object(text)?;
    let output = opt_object(object.get("output")).map_err(|w| w.at(None, "output"))?;
    let answer = opt_str(output.and_then(|o| o.get("text")))
        .map_err(|w| w.at(None, "output.text"))?
        .unwrap_or("");
    let mut reading = Reading {
        text: answer.to_string(),
        ..Reading::default()
    };
    let citations = opt_array(object.get("citations")).map_err(|w| w.at(None, "citations"))?;
    let mut references = References::default();
    let starts = char_starts(&reading.text);
    let whole = 0..starts.len() - 1;
    let citations = Cited {
        citations,
        path: "citations",
        at: None,
    };
    citations.read(&mut reading, &mut references, &starts, &whole)?;
    reading.sources = Some(references.sources);
    Ok(reading)
}

/// A list of citations in the shape of `RetrieveAndGenerate`'s (also an agent's
/// `chunk.attribution.citations`), at `path` (and `at`, the line of a stream's event).
pub(super) struct Cited<'a> {
    pub citations: &'a [Value],
    pub path: &'a str,
    pub at: Option<usize>,
}

impl Cited<'_> {
    /// Reads each citation's span (characters of the part of the text `within`, `end` included)
    /// and its references, citing the span to each; `starts` is [`char_starts`] of the whole text.
    pub fn read(
        &self,
        reading: &mut Reading,
        references: &mut References,
        starts: &[usize],
        within: &std::ops::Range<usize>,
    ) -> Result<(), InputError> {
        let at = self.at;
        for (k, citation) in self.citations.iter().enumerate() {
            let path = format!("{}[{k}]", self.path);
            let span = citation.pointer("/generatedResponsePart/textResponsePart/span");
            let field = |key: &str| {
                opt_whole(span.and_then(|s| s.get(key))).map_err(|w| {
                    w.at(
                        at,
                        format_args!("{path}.generatedResponsePart.textResponsePart.span.{key}"),
                    )
                })
            };
            // `end` is inclusive: the span runs to the character after it.
            let span = match (field("start")?, field("end")?) {
                (Some(start), Some(end)) => char_span(starts, within, start, end.saturating_add(1)),
                _ => None,
            };
            let list = opt_array(citation.get("retrievedReferences"))
                .map_err(|w| w.at(at, format_args!("{path}.retrievedReferences")))?;
            for (j, reference) in list.iter().enumerate() {
                let path = format!("{path}.retrievedReferences[{j}]");
                let id = references.add_at(reference, at, &path)?;
                if let Some(span) = &span {
                    reading.citations.push(NativeCitation {
                        span: Some(span.clone()),
                        target: CitationTarget::Label(id),
                        quote: None,
                    });
                }
            }
        }
        Ok(())
    }
}

/// The references met so far, each once: by chunk id, or by text and source when there is none.
#[derive(Default)]
pub(super) struct References {
    pub sources: Sources,
    seen: HashMap<(String, String), String>,
}

impl References {
    /// Adds one reference (a `retrievedReferences` or `retrievalResults` item) unless it was
    /// met before, and returns the id of its chunk.
    fn add(&mut self, reference: &Value, path: &str) -> Result<String, InputError> {
        self.add_at(reference, None, path)
    }

    /// [`add`](Self::add), for a reference of a stream's event at line `at`.
    pub fn add_at(
        &mut self,
        reference: &Value,
        at: Option<usize>,
        path: &str,
    ) -> Result<String, InputError> {
        let Some(reference) = reference.as_object() else {
            return Err(InputError::Response {
                line: at,
                message: format!("`{path}` is not an object"),
            });
        };
        let text =
            reference_text(reference).map_err(|w| w.at(at, format_args!("{path}.content.text")))?;
        let uri = source_uri(reference);
        let chunk_id = reference
            .get("metadata")
            .and_then(|m| m.get(CHUNK_ID))
            .and_then(Value::as_str);
        let key = match chunk_id {
            Some(id) => (id.to_string(), String::new()),
            None => (text.to_string(), uri.clone().unwrap_or_default()),
        };
        if let Some(id) = self.seen.get(&key) {
            return Ok(id.clone());
        }
        let id = chunk_id.map_or_else(
            || (self.sources.chunks.len() + 1).to_string(),
            str::to_string,
        );
        self.seen.insert(key, id.clone());
        self.sources.chunks.push(Chunk {
            id: id.clone(),
            text: text.to_string(),
            aliases: uri.into_iter().collect(),
        });
        Ok(id)
    }
}

fn reference_text(reference: &Map<String, Value>) -> Result<&str, super::json::WrongType> {
    let content = opt_object(reference.get("content"))?;
    Ok(opt_str(content.and_then(|c| c.get("text")))?.unwrap_or(""))
}

/// The document a reference comes from: the knowledge base's source URI, else the location's.
fn source_uri(reference: &Map<String, Value>) -> Option<String> {
    if let Some(uri) = reference
        .get("metadata")
        .and_then(|m| m.get(SOURCE_URI))
        .and_then(Value::as_str)
    {
        return Some(uri.to_string());
    }
    let location = reference.get("location")?.as_object()?;
    location.values().find_map(|place| {
        let place = place.as_object()?;
        ["uri", "url"]
            .iter()
            .find_map(|k| place.get(*k)?.as_str())
            .map(str::to_string)
    })
}

fn is_reference(item: &Value) -> bool {
    item.pointer("/content/text").is_some_and(Value::is_string)
        && (item.get("location").is_some() || item.get("metadata").is_some())
}

/// A `Retrieve` response (`retrievalResults`), a `RetrieveAndGenerate` response, or a bare list of
/// references.
fn sources(value: &Value) -> Option<Result<Sources, InputError>> {
    let (list, path) = match value {
        Value::Array(items) => (items, "chunks"),
        Value::Object(object) => (
            object.get("retrievalResults")?.as_array()?,
            "retrievalResults",
        ),
        _ => return None,
    };
    if list.is_empty() || !list.iter().all(is_reference) {
        return None;
    }
    let mut references = References::default();
    for (k, item) in list.iter().enumerate() {
        if let Err(e) = references.add(item, &format!("{path}[{k}]")) {
            return Some(Err(e));
        }
    }
    Some(Ok(references.sources))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::response::testing::*;
    use crate::input::testing::with_names;

    const RESPONSE: &str = r#"{"ResponseMetadata": {"HTTPStatusCode": 200}, "sessionId": "s",
        "output": {"text": "The tower is tall. It is old. Nobody asked."},
        "citations": [
            {"generatedResponsePart": {"textResponsePart": {"span": {"start": 0, "end": 17}, "text": "The tower is tall."}},
             "retrievedReferences": [
                {"content": {"text": "It is 330 m tall.", "type": "TEXT"},
                 "location": {"type": "S3", "s3Location": {"uri": "s3://b/tower.pdf"}},
                 "metadata": {"x-amz-bedrock-kb-chunk-id": "3f1c9a52-7d4e-4b8a-9e21-6c0d5f8b2a14",
                              "x-amz-bedrock-kb-source-uri": "s3://b/tower.pdf"}}]},
            {"generatedResponsePart": {"textResponsePart": {"span": {"start": 19, "end": 28}, "text": "It is old."}},
             "retrievedReferences": [
                {"content": {"text": "It is 330 m tall.", "type": "TEXT"},
                 "metadata": {"x-amz-bedrock-kb-chunk-id": "3f1c9a52-7d4e-4b8a-9e21-6c0d5f8b2a14"}},
                {"content": {"text": "Built in 1889."}, "location": {"type": "WEB", "webLocation": {"url": "https://x/y"}}}]},
            {"generatedResponsePart": {"textResponsePart": {"span": {"start": 30, "end": 42}}},
             "retrievedReferences": []}]}"#;

    #[test]
    fn spans_end_on_their_last_character_and_references_are_the_sources() {
        let answer = read_detected(RESPONSE);
        assert_eq!(answer.format, AnswerFormat::Bedrock);
        let id = "3f1c9a52-7d4e-4b8a-9e21-6c0d5f8b2a14";
        let label = |l: &str| CitationTarget::Label(l.to_string());
        assert_eq!(
            cited(&answer),
            [
                (Some("The tower is tall."), label(id), None),
                (Some("It is old."), label(id), None),
                (Some("It is old."), label("2"), None),
            ]
        );
        let sources = answer.sources.expect("sources");
        let chunks = with_names(&sources.chunks);
        assert_eq!(
            chunks,
            [
                (
                    id,
                    "It is 330 m tall.",
                    &["s3://b/tower.pdf".to_string()][..]
                ),
                ("2", "Built in 1889.", &["https://x/y".to_string()][..]),
            ]
        );
    }

    #[test]
    fn retrieve_results_are_a_chunks_file() {
        let value = serde_json::json!({"retrievalResults": [
            {"content": {"text": "A."}, "location": {"s3Location": {"uri": "s3://b/a"}}, "metadata": {"x-amz-bedrock-kb-chunk-id": "c1"}, "score": 0.9},
            {"content": {"text": "B."}, "location": {"s3Location": {"uri": "s3://b/a"}}, "score": 0.5}]});
        let sources = sources(&value).expect("recognised").expect("read");
        let ids: Vec<&str> = sources.chunks.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["c1", "2"]);
        assert_eq!(sources.chunks[1].aliases, ["s3://b/a"]);
    }
}
