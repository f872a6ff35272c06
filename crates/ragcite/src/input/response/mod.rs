//! Provider responses as the answer: the input stage's reader for what model APIs and RAG
//! frameworks return, one file per provider, each exposing the same `Provider` entry.
//!
//! [`detect`] recognises the format from the content; [`read`] joins the answer's text (also from
//! NDJSON, SSE and JSON-array streams), turns the citations the provider attached to spans of it
//! into [`NativeCitation`](crate::input::NativeCitation)s with byte spans of that text, collects the sources the response
//! carries (the retrieved text some stacks return beside the answer), and reports what the
//! response says about itself: cut off by the token limit, an error inside the stream, a stream
//! that ended early, the token counts. Whether a citation is right, or names a chunk that exists,
//! is the checker's business, not this module's.
//!
//! Provider data is never trusted to be well formed: a field of the wrong JSON type is an error
//! naming its path, and an offset that falls outside the text or inside a character is clamped
//! onto character boundaries or dropped, never a panic. Every reader is one pass over the input.
//!
//! Adding a provider: a file here with its `PROVIDER`, one line in `PROVIDERS`, and its
//! [`AnswerFormat`] variant.
//!
//! Warnings (`Answer::warnings`, in this wording; the README documents them):
//! - `the response was cut off by the token limit (<field> = "<value>"): the end of the answer,
//!   and possibly citations, are missing`, with the provider's own field and value;
//! - `the stream carried an error: <message>`, for an error inside a stream (what came before it
//!   is kept);
//! - `the stream ended before its final message`, for a stream without its last message;
//! - the citation list's warnings about citations without a usable source.
//!
//! Errors: invalid JSON (naming its line and column), a stream with nothing in it, a field of the
//! wrong JSON type (naming its path, and its line in a stream), a response that is nothing but an
//! error body, JSON of no known format (naming its top-level keys). A response without text is
//! not an error: its text is empty.

mod detect;
mod json;
mod offsets;
mod reading;

mod anthropic;
mod azure;
mod bedrock;
mod bedrock_agents;
mod bedrock_converse;
mod citation_list;
mod cohere;
mod gemini;
mod haystack;
mod langchain;
mod llamaindex;
mod mistral;
mod ollama;
mod open_webui;
mod openai;
mod openai_assistants;
mod openai_responses;
mod perplexity;
pub mod profile;

#[cfg(test)]
mod testing;

use serde_json::{Map, Value};

use crate::input::InputError;

use super::{Answer, AnswerFormat, ChunkFormat, Chunks};
pub use detect::{Candidate, candidates, detect, detect_with_tie};
pub(crate) use json::is_sse;
use reading::Reading;
pub(crate) use reading::Sources;

/// What every provider's file exposes: how to recognise its responses and how to read them.
pub(crate) struct Provider {
    pub format: AnswerFormat,
    /// Whether one JSON object is a response of this provider (the first JSON value of the input,
    /// or the first line of NDJSON).
    pub response: fn(&Map<String, Value>) -> bool,
    /// Whether a JSON object is an event or chunk of this provider's stream (a `data:` payload,
    /// or a line of a stream logged as JSON Lines).
    pub event: fn(&Map<String, Value>) -> bool,
    /// Whether a JSON object is this provider's error body, so that reading it reports the
    /// provider's message.
    pub error: fn(&Map<String, Value>) -> bool,
    /// Whether a JSON array of objects, the first of which `response` recognises, is this
    /// provider's stream (Gemini's `streamGenerateContent` without `alt=sse`).
    pub array_stream: bool,
    /// Keys that, found in JSON that does not parse, name this format (so that reading it
    /// reports the JSON error instead of linting the JSON as prose).
    pub keys: &'static [&'static str],
    /// Reads the whole input.
    pub read: fn(&str) -> Result<Reading, InputError>,
    /// Where this provider's sources are when its responses do not carry them: what to pass as
    /// the chunks file.
    pub sources_elsewhere: &'static str,
    /// Reads a chunks file that is this provider's list of sources (the search results it
    /// returned, the documents of its request); `None` when the JSON is not one.
    pub sources: fn(&Value) -> Option<Result<Sources, InputError>>,
}

/// For a provider that has no such form.
fn never(_: &Map<String, Value>) -> bool {
    false
}

/// For a provider without a list of sources of its own.
fn no_sources(_: &Value) -> Option<Result<Sources, InputError>> {
    None
}

/// Every provider, in the order detection asks them: a response that fits two (an Azure "On
/// Your Data" response is also an OpenAI chat completion) is the first one's, so the more
/// specific come first.
const PROVIDERS: [Provider; 18] = [
    azure::PROVIDER,
    perplexity::PROVIDER,
    mistral::PROVIDER,
    openai::PROVIDER,
    openai_responses::PROVIDER,
    openai_assistants::PROVIDER,
    bedrock::PROVIDER,
    bedrock_agents::PROVIDER,
    bedrock_converse::PROVIDER,
    anthropic::PROVIDER,
    gemini::PROVIDER,
    cohere::PROVIDER,
    llamaindex::PROVIDER,
    ollama::PROVIDER,
    haystack::PROVIDER,
    langchain::PROVIDER,
    open_webui::PROVIDER,
    citation_list::PROVIDER,
];

fn provider(format: AnswerFormat) -> Option<&'static Provider> {
    PROVIDERS.iter().find(|p| p.format == format)
}

/// Reads a provider response written in `format` (each provider's module says what it reads).
///
/// Each format is read from one JSON object and, where the provider streams, from its streamed
/// forms: NDJSON (one JSON value per line, Ollama's default; also chunks or events logged one
/// per line), server-sent events (`data:` lines; comments, `event:`, `id:` and `retry:` lines and
/// blank lines are skipped, and `data: [DONE]` ends the stream) and, for Gemini, a JSON array of
/// chunks.
pub fn read(text: &str, format: AnswerFormat) -> Result<Answer, InputError> {
    if let AnswerFormat::Profile(profile) = format {
        let mut answer = profile.0.read(text)?.into_answer(format)?;
        answer.marker = profile.0.marker();
        return Ok(answer);
    }
    let reading = match provider(format) {
        Some(provider) => (provider.read)(text)?,
        None => Reading {
            text: text.to_string(),
            ..Reading::default()
        },
    };
    reading.into_answer(format)
}

/// What to say when an answer in `format` comes without a chunks file and carries no sources:
/// which file to pass.
pub fn where_sources_are(format: AnswerFormat) -> String {
    let elsewhere = match format {
        AnswerFormat::Profile(profile) => Some(profile.0.spec.sources_elsewhere.as_str()),
        _ => provider(format).map(|p| p.sources_elsewhere),
    };
    let elsewhere = elsewhere
        .filter(|s| !s.is_empty())
        .unwrap_or("the chunks the answer was written from");
    format!("the answer carries no sources: pass {elsewhere} as CHUNKS, the second argument")
}

/// The chunks of a JSON value that is a provider's own list of sources (see each provider's
/// `sources`); `None` when it is none.
pub(crate) fn sources_of(value: &Value) -> Option<Result<Chunks, InputError>> {
    PROVIDERS.iter().find_map(|provider| {
        let sources = (provider.sources)(value)?;
        Some(sources.and_then(|s| s.into_chunks(ChunkFormat::Sources(provider.format))))
    })
}

/// The chunks of a chunks file that is a provider's own list of sources (see each provider's
/// `sources`), or a whole response that carries its sources; `None` when `value` is neither.
/// `text` is the file, which a response's reader reads again.
pub(crate) fn chunks_of(value: &Value, text: &str) -> Option<Result<Chunks, InputError>> {
    for provider in &PROVIDERS {
        if let Some(sources) = (provider.sources)(value) {
            return Some(
                sources.and_then(|s| s.into_chunks(ChunkFormat::Sources(provider.format))),
            );
        }
    }
    let format = detect::classify(value)?;
    if let AnswerFormat::Profile(profile) = format {
        let profile = profile.0;
        let sources = profile.read_sources(value);
        return Some(sources.and_then(|s| {
            if s.chunks.is_empty() {
                Err(InputError::ChunkShape {
                    position: None,
                    message: format!("this is {}, which carries no sources", profile.spec.title),
                })
            } else {
                s.into_chunks(ChunkFormat::Sources(format))
            }
        }));
    }
    let object = value.as_object()?;
    let provider = provider(format)?;
    if !(provider.response)(object) {
        return None;
    }
    Some(
        (provider.read)(text).and_then(|reading| match reading.sources {
            Some(sources) => sources.into_chunks(ChunkFormat::Sources(format)),
            None => Err(InputError::ChunkShape {
                position: None,
                message: format!(
                    "this is a{} {} response, which carries no sources: give the chunks its answer \
                 was written from",
                    if format.name().starts_with(['a', 'e', 'i', 'o']) {
                        "n"
                    } else {
                        ""
                    },
                    format.name()
                ),
            }),
        }),
    )
}

#[cfg(test)]
mod tests;
