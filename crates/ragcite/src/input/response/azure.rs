//! Azure OpenAI "On Your Data": a chat completion (or its stream) whose message carries the
//! retrieved documents in `context.citations[]{content, title, filepath, url, chunk_id}`, cited
//! in the text as `[doc1]`, `[doc2]`: the N-th citation, 1-based.
//!
//! Sources: the citations, named `doc1`, `doc2`, ... as the markers name them, with their
//! `filepath` and `url` (shared by the chunks of one file) as other names. `chunk_id` counts
//! chunks within each file, so it repeats across files: it names nothing. In a stream the
//! citations come in the `delta.context` of the first chunk.

use serde_json::{Map, Value};

use super::json::{opt_array, opt_object, opt_str, pointer};
use super::reading::{Reading, Sources};
use super::{Provider, never, openai};
use crate::input::InputError;
use crate::input::{AnswerFormat, Chunk};

pub(super) const PROVIDER: Provider = Provider {
    format: AnswerFormat::Azure,
    response: |object| {
        pointer(object, "/choices/0/message/context").is_some()
            || pointer(object, "/choices/0/delta/context").is_some()
    },
    event: |event| pointer(event, "/choices/0/delta/context").is_some(),
    error: never,
    array_stream: false,
    keys: &[],
    read,
    sources_elsewhere: "",
    sources,
};

fn read(text: &str) -> Result<Reading, InputError> {
    openai::read_with(text, |reading, seen| {
        let (at, path) = (seen.at, seen.path);
        let Some(message) = seen.message else {
            return Ok(());
        };
        let context = opt_object(message.get("context"))
            .map_err(|w| w.at(at, format_args!("{path}.context")))?;
        let Some(citations) = context.and_then(|c| c.get("citations")) else {
            return Ok(());
        };
        let path = format!("{path}.context.citations");
        let citations = opt_array(Some(citations)).map_err(|w| w.at(at, &path))?;
        reading.sources = Some(read_citations(citations, at, &path)?);
        Ok(())
    })
}

fn read_citations(
    citations: &[Value],
    at: Option<usize>,
    path: &str,
) -> Result<Sources, InputError> {
    let mut chunks = Vec::with_capacity(citations.len());
    for (k, citation) in citations.iter().enumerate() {
        let string = |key: &str| {
            opt_str(citation.get(key)).map_err(|w| w.at(at, format_args!("{path}[{k}].{key}")))
        };
        let text = string("content")?.unwrap_or("").to_string();
        let aliases = [string("filepath")?, string("url")?]
            .into_iter()
            .flatten()
            .map(str::to_string)
            .collect();
        chunks.push(Chunk {
            id: format!("doc{}", k + 1),
            text,
            aliases,
        });
    }
    Ok(Sources {
        chunks,
        ..Sources::default()
    })
}

/// Whether one JSON object is an Azure citation (`content` with `filepath` or `chunk_id`).
fn is_citation(item: &Value) -> bool {
    let Some(object) = item.as_object() else {
        return false;
    };
    object.get("content").is_some_and(Value::is_string)
        && (object.contains_key("filepath") || object.contains_key("chunk_id"))
}

/// A list of Azure citations, or an object holding one under `citations` or `context`.
fn sources(value: &Value) -> Option<Result<Sources, InputError>> {
    let list = match value {
        Value::Array(items) => items,
        Value::Object(object) => holder(object)?,
        _ => return None,
    };
    if list.is_empty() || !list.iter().all(is_citation) {
        return None;
    }
    Some(read_citations(list, None, "citations"))
}

fn holder(object: &Map<String, Value>) -> Option<&Vec<Value>> {
    let citations = object
        .get("citations")
        .or_else(|| object.get("context")?.get("citations"))?;
    citations.as_array()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::response::testing::*;
    use crate::input::testing::with_names;

    #[test]
    fn doc_markers_name_the_citations_and_chunk_ids_are_not_ids() {
        let text = r#"{"object": "chat.completion", "choices": [{"index": 0, "finish_reason": "stop",
            "message": {"role": "assistant", "content": "Tall [doc1]. Old [doc2].",
                "context": {"intent": "[\"tower\"]", "citations": [
                    {"content": "It is tall.", "title": "T", "url": "https://x/t.md", "filepath": "t.md", "chunk_id": "0"},
                    {"content": "It is old.", "title": "O", "url": null, "filepath": "o.md", "chunk_id": "0"}]}}}]}"#;
        let answer = read_detected(text);
        assert_eq!(answer.format, AnswerFormat::Azure);
        assert_eq!(answer.text, "Tall [doc1]. Old [doc2].");
        let sources = answer.sources.expect("sources");
        let chunks = with_names(&sources.chunks);
        assert_eq!(
            chunks[0],
            (
                "doc1",
                "It is tall.",
                &["t.md".to_string(), "https://x/t.md".to_string()][..]
            )
        );
        assert_eq!(chunks[1], ("doc2", "It is old.", &["o.md".to_string()][..]));
    }

    #[test]
    fn a_stream_carries_the_citations_in_its_first_delta() {
        let sse = "data: {\"object\": \"chat.completion.chunk\", \"choices\": [{\"index\": 0, \"delta\": {\"role\": \"assistant\", \"context\": {\"citations\": [{\"content\": \"It is tall.\", \"filepath\": \"t.md\", \"chunk_id\": \"0\"}]}}}]}\n\n\
                   data: {\"object\": \"chat.completion.chunk\", \"choices\": [{\"index\": 0, \"delta\": {\"content\": \"Tall [doc1].\"}, \"finish_reason\": \"stop\"}]}\n\n\
                   data: [DONE]\n";
        let answer = read_detected(sse);
        assert_eq!(answer.format, AnswerFormat::Azure);
        assert_eq!(answer.text, "Tall [doc1].");
        assert_eq!(answer.sources.expect("sources").chunks[0].id, "doc1");
        assert!(answer.warnings.is_empty(), "{:?}", answer.warnings);
    }

    #[test]
    fn the_citations_alone_are_a_chunks_file() {
        let list = serde_json::json!([{"content": "A.", "filepath": "a.md", "chunk_id": "0"},
                                      {"content": "B.", "filepath": "b.md", "chunk_id": "0"}]);
        let sources = sources(&list).expect("recognised").expect("read");
        assert_eq!(sources.chunks[1].id, "doc2");
        assert!(super::sources(&serde_json::json!([{"content": "A."}])).is_none());
    }
}
