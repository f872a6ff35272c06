//! What the providers' tests share: the fixtures of `testdata/responses/` and ways to read
//! them.

pub(crate) use super::{detect, read as read_response};
use crate::input::InputError;
use crate::input::{Answer, AnswerFormat, CitationTarget, Usage};

macro_rules! fixture {
    ($name:literal) => {
        include_str!(concat!("../../../../../testdata/responses/", $name))
    };
}
pub(crate) use fixture;

/// The answer with markers that the text-only fixtures hold.
pub(crate) const MARKED: &str = "The Eiffel Tower is 330 metres tall [1]. It was completed in 1888 for \
                      the World's Fair [2]. It was designed by the engineering company of \
                      Gustave Eiffel [3]. Around 7 million people visit it every year.";

pub(crate) const FIXTURES: [(&str, &str, AnswerFormat); 24] = [
    (
        "ollama-chat.json",
        fixture!("ollama-chat.json"),
        AnswerFormat::Ollama,
    ),
    (
        "ollama-chat-stream.ndjson",
        fixture!("ollama-chat-stream.ndjson"),
        AnswerFormat::Ollama,
    ),
    (
        "ollama-chat-truncated.json",
        fixture!("ollama-chat-truncated.json"),
        AnswerFormat::Ollama,
    ),
    (
        "ollama-generate.json",
        fixture!("ollama-generate.json"),
        AnswerFormat::Ollama,
    ),
    (
        "ollama-generate-stream.ndjson",
        fixture!("ollama-generate-stream.ndjson"),
        AnswerFormat::Ollama,
    ),
    (
        "ollama-stream-bad-line.ndjson",
        fixture!("ollama-stream-bad-line.ndjson"),
        AnswerFormat::Ollama,
    ),
    (
        "ollama-stream-error.ndjson",
        fixture!("ollama-stream-error.ndjson"),
        AnswerFormat::Ollama,
    ),
    (
        "openai-chat.json",
        fixture!("openai-chat.json"),
        AnswerFormat::Openai,
    ),
    (
        "openai-chat-stream.sse",
        fixture!("openai-chat-stream.sse"),
        AnswerFormat::Openai,
    ),
    (
        "openai-chat-stream-truncated.sse",
        fixture!("openai-chat-stream-truncated.sse"),
        AnswerFormat::Openai,
    ),
    (
        "openai-stream-empty.sse",
        fixture!("openai-stream-empty.sse"),
        AnswerFormat::Openai,
    ),
    (
        "openai-responses.json",
        fixture!("openai-responses.json"),
        AnswerFormat::OpenaiResponses,
    ),
    (
        "openai-responses-stream.sse",
        fixture!("openai-responses-stream.sse"),
        AnswerFormat::OpenaiResponses,
    ),
    (
        "anthropic.json",
        fixture!("anthropic.json"),
        AnswerFormat::Anthropic,
    ),
    (
        "anthropic-max-tokens.json",
        fixture!("anthropic-max-tokens.json"),
        AnswerFormat::Anthropic,
    ),
    (
        "anthropic-stream.sse",
        fixture!("anthropic-stream.sse"),
        AnswerFormat::Anthropic,
    ),
    ("cohere.json", fixture!("cohere.json"), AnswerFormat::Cohere),
    (
        "cohere-stream.sse",
        fixture!("cohere-stream.sse"),
        AnswerFormat::Cohere,
    ),
    ("gemini.json", fixture!("gemini.json"), AnswerFormat::Gemini),
    (
        "gemini-stream.sse",
        fixture!("gemini-stream.sse"),
        AnswerFormat::Gemini,
    ),
    (
        "citation-list.json",
        fixture!("citation-list.json"),
        AnswerFormat::CitationList,
    ),
    (
        "eiffel answer",
        include_str!("../../../../../testdata/eiffel/answer.md"),
        AnswerFormat::Text,
    ),
    (
        "markdown answer",
        include_str!("../../../../../testdata/markdown/answer.md"),
        AnswerFormat::Text,
    ),
    (
        "warnings answer",
        include_str!("../../../../../testdata/warnings/answer.md"),
        AnswerFormat::Text,
    ),
];

pub(crate) fn read_as(text: &str, format: AnswerFormat) -> Answer {
    match read_response(text, format) {
        Ok(answer) => answer,
        Err(e) => panic!("{e}"),
    }
}

pub(crate) fn read_detected(text: &str) -> Answer {
    read_as(text, detect(text).unwrap_or_else(|e| panic!("{e}")))
}

pub(crate) fn read_error(text: &str, format: AnswerFormat) -> (Option<usize>, String) {
    match read_response(text, format) {
        Err(InputError::Response { line, message }) => (line, message),
        other => panic!("expected a response error, got {other:?}"),
    }
}

/// Each citation as (the text it spans, its target, its quote).
pub(crate) fn cited(answer: &Answer) -> Vec<(Option<&str>, CitationTarget, Option<&str>)> {
    answer
        .citations
        .iter()
        .map(|c| {
            let span = c.span.clone().map(|s| &answer.text[s]);
            (span, c.target.clone(), c.quote.as_deref())
        })
        .collect()
}

pub(crate) fn usage(prompt: u64, completion: u64) -> Option<Usage> {
    Some(Usage {
        prompt_tokens: Some(prompt),
        completion_tokens: Some(completion),
    })
}

pub(crate) fn position(p: usize) -> CitationTarget {
    CitationTarget::Position(p)
}
