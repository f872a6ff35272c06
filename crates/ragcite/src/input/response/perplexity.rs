//! Perplexity Sonar: a chat completion (or its stream) with the pages it searched in
//! `search_results[]{title, url, snippet, date}` (and their URLs alone in `citations[]`), cited
//! in the text as `[1]`, `[2]`: the N-th search result. A complete response carries a `delta`
//! beside its `message`: it is no stream chunk.
//!
//! Sources: the search results, numbered from 1, each with its `url` and `title` as other names;
//! the snippet is the text (what the answer can be checked against). A response with only the
//! `citations` URLs carries no text: give the pages as chunks keyed by URL.

use serde_json::Value;

use super::json::{opt_array, opt_str};
use super::reading::{Reading, Sources};
use super::{Provider, never, openai};
use crate::input::InputError;
use crate::input::{AnswerFormat, Chunk};

pub(super) const PROVIDER: Provider = Provider {
    format: AnswerFormat::Perplexity,
    response: |object| {
        object.contains_key("choices")
            && (object.get("search_results").is_some_and(Value::is_array)
                || object
                    .get("citations")
                    .and_then(Value::as_array)
                    .is_some_and(|c| c.iter().all(Value::is_string)))
    },
    event: |event| event.contains_key("choices") && event.contains_key("search_results"),
    error: never,
    array_stream: false,
    keys: &["search_results"],
    read,
    sources_elsewhere: "the pages it searched, keyed by URL",
    sources,
};

fn read(text: &str) -> Result<Reading, InputError> {
    openai::read_with(text, |reading, seen| {
        if let Some(results) = seen.object.get("search_results") {
            reading.sources = Some(read_results(Some(results), seen.at)?);
        }
        Ok(())
    })
}

fn read_results(results: Option<&Value>, at: Option<usize>) -> Result<Sources, InputError> {
    let results = opt_array(results).map_err(|w| w.at(at, "search_results"))?;
    let mut chunks = Vec::with_capacity(results.len());
    for (k, result) in results.iter().enumerate() {
        let string = |key: &str| {
            opt_str(result.get(key))
                .map_err(|w| w.at(at, format_args!("search_results[{k}].{key}")))
        };
        let text = string("snippet")?.unwrap_or("").to_string();
        let aliases = [string("url")?, string("title")?]
            .into_iter()
            .flatten()
            .map(str::to_string)
            .collect();
        chunks.push(Chunk {
            id: (k + 1).to_string(),
            text,
            aliases,
        });
    }
    Ok(Sources {
        chunks,
        ..Sources::default()
    })
}

/// An object holding `search_results` (a response, or the list saved on its own).
fn sources(value: &Value) -> Option<Result<Sources, InputError>> {
    let results = value.as_object()?.get("search_results")?;
    let first = results.as_array()?.first()?;
    first.get("snippet")?;
    Some(read_results(Some(results), None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::response::testing::*;

    const RESPONSE: &str = r#"{"id": "x", "model": "sonar", "object": "chat.completion",
        "citations": ["https://a.example", "https://b.example"],
        "search_results": [
            {"title": "A", "url": "https://a.example", "date": "2025-01-01", "snippet": "The tower is tall."},
            {"title": "B", "url": "https://b.example", "snippet": "Paris is big."}],
        "choices": [{"index": 0, "finish_reason": "stop",
            "message": {"role": "assistant", "content": "The tower is tall [1]."},
            "delta": {"role": "assistant", "content": ""}}],
        "usage": {"prompt_tokens": 5, "completion_tokens": 7}}"#;

    #[test]
    fn search_results_are_the_sources_and_a_delta_is_no_stream() {
        let answer = read_detected(RESPONSE);
        assert_eq!(answer.format, AnswerFormat::Perplexity);
        assert_eq!(answer.text, "The tower is tall [1].");
        assert!(!answer.streamed);
        assert!(answer.warnings.is_empty(), "{:?}", answer.warnings);
        assert_eq!(answer.usage, usage(5, 7));
        let sources = answer.sources.expect("sources");
        assert_eq!(sources.chunks[0].id, "1");
        assert_eq!(sources.chunks[1].text, "Paris is big.");
        assert_eq!(sources.chunks[1].aliases, ["https://b.example", "B"]);
    }

    #[test]
    fn a_response_is_also_a_chunks_file() {
        let value: Value = serde_json::from_str(RESPONSE).expect("json");
        let sources = sources(&value).expect("recognised").expect("read");
        assert_eq!(sources.chunks.len(), 2);
    }
}
