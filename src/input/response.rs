//! Provider responses as the answer: the input stage's reader for what model APIs return
//! (Ollama, OpenAI Chat Completions and Responses, Anthropic Messages, Cohere Chat v2, Gemini
//! `generateContent`) and for a JSON answer with an explicit citation list.
//!
//! [`detect`] recognises the format from the content; [`read`] joins the answer's text (also from
//! NDJSON, SSE and JSON-array streams), turns the citations the provider attached to spans of it
//! into [`NativeCitation`]s with byte spans of that text, and reports what the response says about
//! itself: cut off by the token limit, an error inside the stream, a stream that ended early, the
//! token counts. Whether a citation is right, or names a chunk that exists, is the checker's
//! business, not this module's.
//!
//! Provider data is never trusted to be well formed: a field of the wrong JSON type is an error
//! naming its path, and an offset that falls outside the text or inside a character is clamped
//! onto character boundaries or dropped, never a panic. Every reader is one pass over the input.

use std::collections::BTreeMap;
use std::fmt::Display;
use std::ops::Range;

use serde_json::{Map, Value};

use crate::error::InputError;

use super::{Answer, AnswerFormat, CitationTarget, NativeCitation, Usage, json_kind};

// ------------------------------------------------------------------------------------------
// Warnings. Their wording is part of the interface: the README documents it.

/// A response stopped by its token limit. `field` and `value` are the provider's own names, so
/// that a user can find them in their logs.
fn cut_off(field: &str, value: &str) -> String {
    format!(
        "the response was cut off by the token limit ({field} = \"{value}\"): the end of the \
         answer, and possibly citations, are missing"
    )
}

fn stream_error(message: &str) -> String {
    format!("the stream carried an error: {message}")
}

const ENDED_EARLY: &str = "the stream ended before its final message";

// ------------------------------------------------------------------------------------------
// Detection

/// The format `text` is written in, recognised from its content.
///
/// - Text whose first non-blank characters are `data:`, `event:` or `:` is a server-sent event
///   stream when one of its `data:` lines holds a JSON object or `[DONE]`. The first payload that
///   says whose it is decides: `choices` is OpenAI Chat Completions, `candidates` is Gemini, a
///   `type` starting with `response.` is the OpenAI Responses API, an Anthropic event type
///   (`message_start`, `content_block_delta`, ...) is Anthropic, a Cohere one (`content-delta`,
///   `message-end`, ...) is Cohere. A stream none of whose payloads says (only `data: [DONE]`,
///   only errors, a payload that is not valid JSON) is read as OpenAI, the format most servers
///   speak, so that [`read`] reports what is wrong with it. Without such a `data:` line it is
///   text.
/// - Text starting with `{` or `[` is recognised by the fields of its first JSON value (one
///   object, or the first line of NDJSON): `choices` → OpenAI; `object: "response"` or an
///   `output` array → OpenAI Responses; `type: "message"` with a `content` array → Anthropic;
///   `candidates` or `promptFeedback` → Gemini (also a JSON array of such chunks); `message` with
///   a `content` array or a `finish_reason`, and no `done` → Cohere; `message.content` or
///   `response` as a string, with `done` or `model` → Ollama; `answer` as a string → citation
///   list; a stream event as above (events logged one per line) → its format. An error body is
///   recognised too, so that reading it reports the provider's message: `{"error": "..."}`
///   (Ollama's shape) → Ollama, `{"type": "error"}` → Anthropic, `{"error": {...}}` → OpenAI.
///   Any other JSON is text.
/// - When the first JSON value does not parse, the text is a response that failed to parse only
///   if it opens like a JSON object: `{`, or `[` then `{`, followed by `"` (the first key). Then
///   the first of these keys found anywhere in the text (a quoted name followed by `:`) names
///   the format: `"choices"` OpenAI, `"candidates"` Gemini, `"output"` OpenAI Responses,
///   `"stop_reason"` Anthropic, `"answer"` citation list, `"finish_reason"` Cohere, `"done"`,
///   `"response"` or `"message"` Ollama; with none of them it is text. [`read`] then reports the
///   JSON error with its line.
/// - Everything else is text, including Markdown that starts with `[1]` (its first JSON value is
///   the array `[1]`, which is no response) or with `{` in prose.
pub fn detect(text: &str) -> AnswerFormat {
    let start = text.trim_start();
    if is_sse(start) {
        return detect_sse(start);
    }
    if !start.starts_with(['{', '[']) {
        return AnswerFormat::Text;
    }
    match serde_json::Deserializer::from_str(start)
        .into_iter::<Value>()
        .next()
    {
        Some(Ok(value)) => classify(&value).unwrap_or(AnswerFormat::Text),
        Some(Err(_)) if opens_a_json_object(start) => guess_from_keys(start),
        _ => AnswerFormat::Text,
    }
}

fn is_sse(start: &str) -> bool {
    start.starts_with("data:") || start.starts_with("event:") || start.starts_with(':')
}

fn detect_sse(text: &str) -> AnswerFormat {
    let mut has_payload = false;
    for line in text.lines() {
        let Some(payload) = line.strip_prefix("data:").map(str::trim) else {
            continue;
        };
        if payload == DONE {
            has_payload = true;
        } else if payload.starts_with('{') {
            has_payload = true;
            let value = serde_json::from_str::<Value>(payload).ok();
            if let Some(format) = value
                .as_ref()
                .and_then(Value::as_object)
                .and_then(classify_event)
            {
                return format;
            }
        }
    }
    if has_payload {
        AnswerFormat::Openai
    } else {
        AnswerFormat::Text
    }
}

/// The payload that ends an OpenAI chat completion stream.
const DONE: &str = "[DONE]";

/// The event types of an Anthropic Messages stream that carry the message (`ping` and `error`
/// carry none of it, and `error` is shared with the OpenAI Responses stream).
const ANTHROPIC_EVENTS: [&str; 6] = [
    "message_start",
    "content_block_start",
    "content_block_delta",
    "content_block_stop",
    "message_delta",
    "message_stop",
];

fn classify_event(event: &Map<String, Value>) -> Option<AnswerFormat> {
    if event.contains_key("choices") {
        return Some(AnswerFormat::Openai);
    }
    if is_gemini(event) {
        return Some(AnswerFormat::Gemini);
    }
    let kind = event.get("type")?.as_str()?;
    if kind.starts_with("response.") {
        Some(AnswerFormat::OpenaiResponses)
    } else if ANTHROPIC_EVENTS.contains(&kind) {
        Some(AnswerFormat::Anthropic)
    } else if COHERE_EVENTS.contains(&kind) {
        Some(AnswerFormat::Cohere)
    } else {
        None
    }
}

fn classify(value: &Value) -> Option<AnswerFormat> {
    match value {
        Value::Object(object) => classify_object(object),
        // `streamGenerateContent` without `alt=sse` answers with a JSON array of responses.
        Value::Array(items) => items
            .first()
            .and_then(Value::as_object)
            .filter(|first| is_gemini(first))
            .map(|_| AnswerFormat::Gemini),
        _ => None,
    }
}

fn classify_object(object: &Map<String, Value>) -> Option<AnswerFormat> {
    let string = |key: &str| object.get(key).and_then(Value::as_str);
    let is_array = |key: &str| object.get(key).is_some_and(Value::is_array);
    if is_array("choices") {
        return Some(AnswerFormat::Openai);
    }
    if string("object") == Some("response") || is_array("output") {
        return Some(AnswerFormat::OpenaiResponses);
    }
    if string("type") == Some("message") && is_array("content") {
        return Some(AnswerFormat::Anthropic);
    }
    if is_gemini(object) {
        return Some(AnswerFormat::Gemini);
    }
    let ollama_fields = object.contains_key("done") || object.contains_key("model");
    if let Some(message) = object.get("message").and_then(Value::as_object) {
        let content = message.get("content");
        // Cohere's message holds an array of content items, Ollama's a string.
        if !object.contains_key("done")
            && (content.is_some_and(Value::is_array) || object.contains_key("finish_reason"))
        {
            return Some(AnswerFormat::Cohere);
        }
        if content.is_some_and(Value::is_string) && ollama_fields {
            return Some(AnswerFormat::Ollama);
        }
    }
    if object.get("response").is_some_and(Value::is_string) && ollama_fields {
        return Some(AnswerFormat::Ollama);
    }
    if object.get("answer").is_some_and(Value::is_string) {
        return Some(AnswerFormat::CitationList);
    }
    // A stream's events logged one per line.
    if let Some(format) = classify_event(object) {
        return Some(format);
    }
    if string("type") == Some("error") {
        return Some(AnswerFormat::Anthropic);
    }
    match object.get("error") {
        Some(Value::String(_)) => Some(AnswerFormat::Ollama),
        Some(Value::Object(_)) => Some(AnswerFormat::Openai),
        _ => None,
    }
}

fn is_gemini(object: &Map<String, Value>) -> bool {
    // A prompt blocked by the safety filters comes back with `promptFeedback` and no candidates.
    object.contains_key("candidates") || object.contains_key("promptFeedback")
}

/// `{"`, or `[{"`, with any white space between: a JSON object's first key, which prose does not
/// start with.
fn opens_a_json_object(start: &str) -> bool {
    let rest = start.strip_prefix('[').map_or(start, str::trim_start);
    rest.strip_prefix('{')
        .is_some_and(|rest| rest.trim_start().starts_with('"'))
}

/// Keys that name the format of a response whose JSON is broken, most specific first.
const FORMAT_KEYS: [(&str, AnswerFormat); 9] = [
    ("choices", AnswerFormat::Openai),
    ("candidates", AnswerFormat::Gemini),
    ("output", AnswerFormat::OpenaiResponses),
    ("stop_reason", AnswerFormat::Anthropic),
    ("answer", AnswerFormat::CitationList),
    ("finish_reason", AnswerFormat::Cohere),
    ("done", AnswerFormat::Ollama),
    ("response", AnswerFormat::Ollama),
    ("message", AnswerFormat::Ollama),
];

fn guess_from_keys(text: &str) -> AnswerFormat {
    FORMAT_KEYS
        .iter()
        .find(|(key, _)| has_key(text, key))
        .map_or(AnswerFormat::Text, |(_, format)| *format)
}

/// Whether `"key"` followed by `:` occurs in `text`: a JSON key, not the word in the answer.
fn has_key(text: &str, key: &str) -> bool {
    let quoted = format!("\"{key}\"");
    text.match_indices(&quoted).any(|(at, _)| {
        text.get(at + quoted.len()..)
            .is_some_and(|rest| rest.trim_start().starts_with(':'))
    })
}

// ------------------------------------------------------------------------------------------
// Reading

/// Reads a provider response written in `format`.
///
/// Each format is read from one JSON object and from its streamed forms: NDJSON (one JSON value
/// per line, Ollama's default; also chunks or events logged one per line), server-sent events
/// (`data:` lines; comments, `event:`, `id:` and `retry:` lines and blank lines are skipped, and
/// `data: [DONE]` ends the stream) and, for Gemini, a JSON array of chunks. Joined text comes
/// from:
/// - Ollama: `message.content` (`/api/chat`) or `response` (`/api/generate`) of every line;
///   `done_reason`, `prompt_eval_count` and `eval_count` of the `done: true` line.
/// - OpenAI Chat Completions: `choices[0].message.content` (null is empty; an array of parts, as
///   some compatible servers send, has its `text` parts joined), or `delta.content` of the choice
///   with `index` 0 in every chunk. `message.annotations` (`url_citation`) name web pages, not
///   chunks, and are ignored.
/// - OpenAI Responses: the `text` of every `output_text` part of every `message` item of
///   `output`, joined with nothing between them, as the SDKs' `output_text` property does
///   (openai-python `Response.output_text`: `"".join(texts)`). In a stream, the final response
///   (`response.completed`, `response.incomplete`, `response.failed`) is read; its
///   `response.output_text.delta` deltas stand in when it never came or holds no text.
///   Annotations (`file_citation`, `url_citation`) name files and pages, not chunks: ignored.
/// - Anthropic Messages: the `text` blocks of `content`, joined with nothing between them (the
///   API splits one text into cited and uncited blocks); each `char_location`, `page_location`
///   and `content_block_location` citation becomes a citation of its block's span to the chunk
///   at `document_index`, `search_result_location` to the one at `search_result_index`, with
///   `cited_text` as the quote. Other blocks and citation kinds (web search) are skipped.
/// - Cohere Chat v2: the `text` items of `message.content`, joined; each source of each of
///   `message.citations` becomes a citation of the span `start..end` (characters, counted from
///   the start of the item at `content_index` when given, else of the text) to the chunk with the
///   source's `id` (generated ids such as `doc:0` fall back to a position). Citations of type
///   `THINKING_CONTENT` or `PLAN` cite the model's reasoning, not the answer: skipped. A
///   stream joins the `content-delta` texts, takes each `citation-start` citation, and the
///   finish reason and counts of `message-end`.
/// - Gemini: the `text` parts of `candidates[0].content.parts` that are not thoughts, joined;
///   each index of each `groundingMetadata.groundingSupports[].groundingChunkIndices` becomes a
///   citation of the segment's span (UTF-8 byte offsets within the part at `partIndex`) to the
///   chunk at that position. In a stream, the last chunk's supports are read against the whole
///   joined text, as one part.
/// - Citation list: `answer`; each of `citations` (an object with `source` and `quote`, or a bare
///   source) becomes a citation to the label `source` (a whole number or a string). One without
///   a usable source is skipped with a warning.
///
/// Warnings (`Answer::warnings`, in this wording):
/// - `the response was cut off by the token limit (<field> = "<value>"): the end of the answer,
///   and possibly citations, are missing`, for Ollama `done_reason = "length"`, OpenAI
///   `finish_reason = "length"`, Responses `incomplete_details.reason = "max_output_tokens"`,
///   Anthropic `stop_reason = "max_tokens"` or `"model_context_window_exceeded"`, Cohere
///   `finish_reason = "MAX_TOKENS"`, Gemini `finishReason = "MAX_TOKENS"`;
/// - `the stream carried an error: <message>`, for an error inside a stream (what came before it
///   is kept);
/// - `the stream ended before its final message`, for a stream without its last message (no
///   `done: true` line, no `finish_reason` and no `[DONE]`, no `response.completed`, no
///   `message_stop`, no `message-end`, no `finishReason`);
/// - ``citations[<k>] has no `source`: it is skipped`` and
///   ``` `citations[<k>].source` is <value>; expected a chunk number or label: it is skipped```,
///   for the citation list.
///
/// Errors: invalid JSON (naming its line and column), a stream with nothing in it, a field of the
/// wrong JSON type (naming its path, and its line in a stream), a response that is nothing but an
/// error body. A response without text is not an error: its text is empty.
pub fn read(text: &str, format: AnswerFormat) -> Result<Answer, InputError> {
    let reading = match format {
        AnswerFormat::Text => Reading {
            text: text.to_string(),
            ..Reading::default()
        },
        AnswerFormat::Ollama => read_ollama(text)?,
        AnswerFormat::Openai => read_openai(text)?,
        AnswerFormat::OpenaiResponses => read_responses(text)?,
        AnswerFormat::Anthropic => read_anthropic(text)?,
        AnswerFormat::Cohere => read_cohere(text)?,
        AnswerFormat::Gemini => read_gemini(text)?,
        AnswerFormat::CitationList => read_citation_list(text)?,
    };
    Ok(reading.into_answer(format))
}

/// What a reader gathers, before it becomes an [`Answer`].
#[derive(Default)]
struct Reading {
    text: String,
    streamed: bool,
    citations: Vec<NativeCitation>,
    prompt_tokens: Option<u64>,
    completion_tokens: Option<u64>,
    warnings: Vec<String>,
}

impl Reading {
    fn streamed() -> Self {
        Reading {
            streamed: true,
            ..Reading::default()
        }
    }

    fn into_answer(self, format: AnswerFormat) -> Answer {
        let usage =
            (self.prompt_tokens.is_some() || self.completion_tokens.is_some()).then_some(Usage {
                prompt_tokens: self.prompt_tokens,
                completion_tokens: self.completion_tokens,
            });
        Answer {
            text: self.text,
            offset: 0,
            format,
            streamed: self.streamed,
            citations: self.citations,
            usage,
            warnings: self.warnings,
        }
    }

    /// Token counts from the object at `usage` (`path` names it in errors); a count that is
    /// absent leaves the one read before, as streams send them in pieces.
    fn read_usage(
        &mut self,
        usage: Option<&Value>,
        path: &str,
        (prompt_key, completion_key): (&str, &str),
        at: Option<usize>,
    ) -> Result<(), InputError> {
        let Some(usage) = opt_object(usage).map_err(|w| w.at(at, path))? else {
            return Ok(());
        };
        let count = |key: &str| {
            opt_whole(usage.get(key)).map_err(|w| w.at(at, format_args!("{path}.{key}")))
        };
        if let Some(tokens) = count(prompt_key)? {
            self.prompt_tokens = Some(tokens);
        }
        if let Some(tokens) = count(completion_key)? {
            self.completion_tokens = Some(tokens);
        }
        Ok(())
    }

    /// Appends one cited block (Anthropic) and its citations of the whole block.
    fn push_block(&mut self, block: TextBlock) {
        let start = self.text.len();
        self.text.push_str(&block.text);
        let span = start..self.text.len();
        self.citations
            .extend(
                block
                    .citations
                    .into_iter()
                    .map(|(position, quote)| NativeCitation {
                        span: Some(span.clone()),
                        target: CitationTarget::Position(position),
                        quote,
                    }),
            );
    }
}

// ------------------------------------------------------------------------------------------
// JSON values, NDJSON and server-sent events

/// One JSON value of the input and the 1-based line it starts on.
struct Located {
    line: usize,
    value: Value,
}

/// The JSON values of a response: one object, NDJSON lines, or the payloads of `data:` lines.
struct Values {
    items: Vec<Located>,
    sse: bool,
    /// The stream ended with `data: [DONE]`.
    done_marker: bool,
}

fn values_of(text: &str) -> Result<Values, InputError> {
    if is_sse(text.trim_start()) {
        return sse_values(text);
    }
    Ok(Values {
        items: json_values(text)?,
        sse: false,
        done_marker: false,
    })
}

/// Every JSON value in `text`, one after the other: a single (possibly pretty-printed) object,
/// or NDJSON.
fn json_values(text: &str) -> Result<Vec<Located>, InputError> {
    let mut items = Vec::new();
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    // Lines are counted from where the previous value started, so the whole count stays linear.
    let (mut line, mut counted_to) = (1, 0);
    loop {
        let after_previous = stream.byte_offset();
        match stream.next() {
            None => return Ok(items),
            Some(Err(e)) => return Err(invalid_json(&e, e.line(), 0)),
            Some(Ok(value)) => {
                let rest = text.get(after_previous..).unwrap_or("");
                let start = after_previous + (rest.len() - rest.trim_start().len());
                line += text
                    .get(counted_to..start)
                    .map_or(0, |s| s.bytes().filter(|&b| b == b'\n').count());
                counted_to = start;
                items.push(Located { line, value });
            }
        }
    }
}

/// The JSON payloads of the `data:` lines of a server-sent event stream, up to `data: [DONE]`.
/// Each `data:` line is one payload: the providers put each event's JSON on one line.
fn sse_values(text: &str) -> Result<Values, InputError> {
    let mut items = Vec::new();
    let mut done_marker = false;
    for (k, line) in text.lines().enumerate() {
        let Some(after_field) = line.strip_prefix("data:") else {
            continue;
        };
        let payload = after_field.trim_start();
        // serde_json counts columns in the payload; the user counts them in the line.
        let shift = line.len() - payload.len();
        let payload = payload.trim_end();
        if payload.is_empty() {
            continue;
        }
        if payload == DONE {
            done_marker = true;
            break;
        }
        let value = serde_json::from_str(payload).map_err(|e| invalid_json(&e, k + 1, shift))?;
        items.push(Located { line: k + 1, value });
    }
    Ok(Values {
        items,
        sse: true,
        done_marker,
    })
}

fn invalid_json(e: &serde_json::Error, line: usize, column_shift: usize) -> InputError {
    let message = e.to_string();
    // serde_json ends its messages with " at line L column C"; the line goes in `line`.
    let message = message
        .rfind(" at line ")
        .and_then(|k| message.get(..k))
        .unwrap_or(&message);
    InputError::Response {
        line: Some(line.max(1)),
        message: format!(
            "invalid JSON: {message} (column {})",
            e.column() + column_shift
        ),
    }
}

fn empty_stream() -> InputError {
    InputError::Response {
        line: None,
        message: "the stream is empty".to_string(),
    }
}

fn is_an_error(line: Option<usize>, message: &str) -> InputError {
    InputError::Response {
        line,
        message: format!("the response is an error: {message}"),
    }
}

fn not_a_stream_of(what: &str, hint: &str) -> InputError {
    InputError::Response {
        line: None,
        message: format!("{hint}: this is not {what}"),
    }
}

fn object_of(item: &Located) -> Result<&Map<String, Value>, InputError> {
    item.value.as_object().ok_or_else(|| InputError::Response {
        line: Some(item.line),
        message: format!("expected a JSON object, found {}", json_kind(&item.value)),
    })
}

/// The one JSON value of a format that has no streamed form (the citation list).
fn one_value(items: &[Located]) -> Result<&Located, InputError> {
    match items {
        [] => Err(empty_stream()),
        [one] => Ok(one),
        [_, second, ..] => Err(InputError::Response {
            line: Some(second.line),
            message: "expected one JSON response; found another JSON value after it".to_string(),
        }),
    }
}

/// The message of an error a provider sent instead of (or within) its answer:
/// `{"error": "..."}` (Ollama), `{"error": {"message": ...}}` (OpenAI, Gemini, Anthropic),
/// `{"type": "error", "message": ...}` (OpenAI Responses stream).
fn error_message(object: &Map<String, Value>) -> Option<String> {
    match object.get("error") {
        Some(Value::String(message)) => return Some(message.clone()),
        Some(error @ Value::Object(fields)) => {
            return Some(
                fields
                    .get("message")
                    .and_then(Value::as_str)
                    .map_or_else(|| error.to_string(), str::to_string),
            );
        }
        _ => {}
    }
    if object.get("type").and_then(Value::as_str) == Some("error") {
        let message = object.get("message").and_then(Value::as_str);
        return Some(message.unwrap_or("an unnamed error").to_string());
    }
    None
}

/// Remembers the last error of a stream, to report it when the stream carried nothing else.
#[derive(Default)]
struct StreamErrors {
    last: Option<(Option<usize>, String)>,
}

impl StreamErrors {
    fn note(&mut self, reading: &mut Reading, line: Option<usize>, message: String) {
        reading.warnings.push(stream_error(&message));
        self.last = Some((line, message));
    }

    /// The error for a stream that held no answer: its own error if it carried one.
    fn or(self, otherwise: InputError) -> InputError {
        match self.last {
            Some((line, message)) => is_an_error(line, &message),
            None => otherwise,
        }
    }
}

// ------------------------------------------------------------------------------------------
// Typed access to fields. A field of the wrong JSON type is an error naming its path; null is
// read like an absent field, as the providers' SDKs do.

/// A field whose JSON type is not the one the format gives it.
struct WrongType {
    found: &'static str,
    expected: &'static str,
}

impl WrongType {
    fn at(self, line: Option<usize>, path: impl Display) -> InputError {
        InputError::Response {
            line,
            message: format!("`{path}` is {}; expected {}", self.found, self.expected),
        }
    }
}

fn wrong(value: &Value, expected: &'static str) -> WrongType {
    WrongType {
        found: json_kind(value),
        expected,
    }
}

fn opt_str(value: Option<&Value>) -> Result<Option<&str>, WrongType> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(wrong(other, "a string")),
    }
}

fn opt_object(value: Option<&Value>) -> Result<Option<&Map<String, Value>>, WrongType> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(object)) => Ok(Some(object)),
        Some(other) => Err(wrong(other, "an object")),
    }
}

/// An array field; absent or null is empty.
fn opt_array(value: Option<&Value>) -> Result<&[Value], WrongType> {
    match value {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(items)) => Ok(items),
        Some(other) => Err(wrong(other, "an array")),
    }
}

/// A count, index or offset: a non-negative whole number (`12.0` too: Cohere's SDK types its
/// token counts as floats). Any other number is `None`, like an absent field, so that what
/// depends on it is dropped or clamped rather than the whole answer refused.
fn opt_whole(value: Option<&Value>) -> Result<Option<u64>, WrongType> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => Ok(n.as_u64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && (0.0..1e15).contains(f))
                .map(|f| f as u64)
        })),
        Some(other) => Err(wrong(other, "a number")),
    }
}

fn is_present(object: &Map<String, Value>, key: &str) -> bool {
    object.get(key).is_some_and(|v| !v.is_null())
}

fn type_of(value: &Value) -> Option<&str> {
    value.get("type").and_then(Value::as_str)
}

// ------------------------------------------------------------------------------------------
// Offsets

/// `start..end`, byte offsets into `part`, kept inside it and moved onto character boundaries
/// (the start back, the end forward, so the span still covers every byte it named); `None` when
/// nothing is left.
fn byte_span(part: &str, start: u64, end: u64) -> Option<Range<usize>> {
    let len = part.len();
    let mut end = usize::try_from(end).map_or(len, |e| e.min(len));
    let mut start = usize::try_from(start).map_or(len, |s| s.min(len));
    // Offset 0 and `len` are boundaries, so neither loop leaves the text.
    while !part.is_char_boundary(start) {
        start -= 1;
    }
    while !part.is_char_boundary(end) {
        end += 1;
    }
    (start < end).then_some(start..end)
}

/// The byte offset of every character of `text`, then `text.len()`: character offsets become
/// byte offsets by one lookup each, and the table costs one pass.
fn char_starts(text: &str) -> Vec<usize> {
    text.char_indices()
        .map(|(at, _)| at)
        .chain(std::iter::once(text.len()))
        .collect()
}

/// The byte span of characters `start..end` counted from `within.start` (character offsets),
/// kept inside `within`; `None` when nothing is left.
fn char_span(
    char_starts: &[usize],
    within: &Range<usize>,
    start: u64,
    end: u64,
) -> Option<Range<usize>> {
    let len = within.end.saturating_sub(within.start);
    let clamp = |c: u64| usize::try_from(c).map_or(len, |c| c.min(len));
    let (start, end) = (clamp(start), clamp(end));
    if start >= end {
        return None;
    }
    let byte = |c: usize| char_starts.get(within.start + c).copied();
    Some(byte(start)?..byte(end)?)
}

// ------------------------------------------------------------------------------------------
// Ollama

fn read_ollama(text: &str) -> Result<Reading, InputError> {
    let items = json_values(text)?;
    let streamed = items.len() > 1;
    let mut reading = Reading {
        streamed,
        ..Reading::default()
    };
    let mut errors = StreamErrors::default();
    let mut final_line = None;
    let mut saw_unfinished = false;
    let mut answered = false;
    for item in &items {
        // One object's fields need no line; a stream's do.
        let at = streamed.then_some(item.line);
        let object = object_of(item)?;
        if let Some(message) = error_message(object) {
            errors.note(&mut reading, at, message);
            continue;
        }
        answered = true;
        let piece = match opt_object(object.get("message")).map_err(|w| w.at(at, "message"))? {
            Some(message) => {
                opt_str(message.get("content")).map_err(|w| w.at(at, "message.content"))?
            }
            None => opt_str(object.get("response")).map_err(|w| w.at(at, "response"))?,
        };
        reading.text.push_str(piece.unwrap_or(""));
        match object.get("done") {
            Some(Value::Bool(true)) => final_line = Some((object, at)),
            Some(Value::Bool(false)) => saw_unfinished = true,
            None | Some(Value::Null) => {}
            Some(other) => return Err(wrong(other, "a boolean").at(at, "done")),
        }
    }
    if !answered {
        return Err(errors.or(empty_stream()));
    }
    match final_line {
        Some((object, at)) => {
            let reason = opt_str(object.get("done_reason")).map_err(|w| w.at(at, "done_reason"))?;
            if reason == Some("length") {
                reading.warnings.push(cut_off("done_reason", "length"));
            }
            let count = |key: &str| opt_whole(object.get(key)).map_err(|w| w.at(at, key));
            reading.prompt_tokens = count("prompt_eval_count")?;
            reading.completion_tokens = count("eval_count")?;
        }
        // One object without `done` at all may come from a compatible server: nothing to say.
        None if streamed || saw_unfinished => reading.warnings.push(ENDED_EARLY.to_string()),
        None => {}
    }
    Ok(reading)
}

// ------------------------------------------------------------------------------------------
// OpenAI Chat Completions

fn read_openai(text: &str) -> Result<Reading, InputError> {
    let values = values_of(text)?;
    match values.items.as_slice() {
        [] => Err(empty_stream()),
        [one] if !values.sse && !is_chunk(&one.value) => openai_completion(one),
        chunks => openai_chunks(chunks, values.done_marker),
    }
}

fn is_chunk(value: &Value) -> bool {
    value.get("object").and_then(Value::as_str) == Some("chat.completion.chunk")
        || value.pointer("/choices/0/delta").is_some()
}

fn openai_completion(item: &Located) -> Result<Reading, InputError> {
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
    if let Some(choice) = choices.first() {
        let message =
            opt_object(choice.get("message")).map_err(|w| w.at(None, "choices[0].message"))?;
        if let Some(message) = message {
            reading.text =
                chat_content(message.get("content"), "choices[0].message.content", None)?;
        }
        let reason = opt_str(choice.get("finish_reason"))
            .map_err(|w| w.at(None, "choices[0].finish_reason"))?;
        if reason == Some("length") {
            reading.warnings.push(cut_off("finish_reason", "length"));
        }
    }
    reading.read_usage(
        object.get("usage"),
        "usage",
        ("prompt_tokens", "completion_tokens"),
        None,
    )?;
    Ok(reading)
}

/// A chat message's content: a string, null, or an array of parts whose `text` parts are joined
/// (OpenAI-compatible servers such as Mistral's send that).
fn chat_content(
    content: Option<&Value>,
    path: &str,
    at: Option<usize>,
) -> Result<String, InputError> {
    match content {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(text)) => Ok(text.clone()),
        Some(Value::Array(parts)) => {
            let mut text = String::new();
            for (k, part) in parts.iter().enumerate() {
                if type_of(part) == Some("text") {
                    let piece = opt_str(part.get("text"))
                        .map_err(|w| w.at(at, format_args!("{path}[{k}].text")))?;
                    text.push_str(piece.unwrap_or(""));
                }
            }
            Ok(text)
        }
        Some(other) => Err(wrong(other, "a string").at(at, path)),
    }
}

fn openai_chunks(chunks: &[Located], done_marker: bool) -> Result<Reading, InputError> {
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
                reading
                    .text
                    .push_str(&chat_content(delta.get("content"), &path, at)?);
            }
            let reason = opt_str(choice.get("finish_reason"))
                .map_err(|w| w.at(at, format_args!("choices[{k}].finish_reason")))?;
            if let Some(reason) = reason {
                finish_reason = Some(reason);
            }
        }
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

// ------------------------------------------------------------------------------------------
// OpenAI Responses

fn read_responses(text: &str) -> Result<Reading, InputError> {
    let values = values_of(text)?;
    match values.items.as_slice() {
        [] => Err(empty_stream()),
        [one] if !values.sse && !is_responses_event(&one.value) => {
            let object = object_of(one)?;
            if let Some(message) = error_message(object) {
                return Err(is_an_error(None, &message));
            }
            let mut reading = Reading {
                text: responses_text(object, None, "")?.unwrap_or_default(),
                ..Reading::default()
            };
            responses_status(&mut reading, object, None, "")?;
            Ok(reading)
        }
        events => responses_events(events),
    }
}

fn is_responses_event(value: &Value) -> bool {
    type_of(value).is_some_and(|kind| kind.starts_with("response.") || kind == "error")
}

/// The joined `output_text` parts of a response; `None` when it has none at all.
fn responses_text(
    response: &Map<String, Value>,
    at: Option<usize>,
    path: &str,
) -> Result<Option<String>, InputError> {
    let output =
        opt_array(response.get("output")).map_err(|w| w.at(at, format_args!("{path}output")))?;
    let mut text: Option<String> = None;
    for (k, item) in output.iter().enumerate() {
        if type_of(item) != Some("message") {
            continue;
        }
        let parts = opt_array(item.get("content"))
            .map_err(|w| w.at(at, format_args!("{path}output[{k}].content")))?;
        for (j, part) in parts.iter().enumerate() {
            if type_of(part) != Some("output_text") {
                continue;
            }
            let piece = opt_str(part.get("text"))
                .map_err(|w| w.at(at, format_args!("{path}output[{k}].content[{j}].text")))?;
            text.get_or_insert_with(String::new)
                .push_str(piece.unwrap_or(""));
        }
    }
    Ok(text)
}

fn responses_status(
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

fn responses_events(events: &[Located]) -> Result<Reading, InputError> {
    let mut reading = Reading::streamed();
    let mut errors = StreamErrors::default();
    let mut deltas = String::new();
    let mut final_response = None;
    let mut recognised = false;
    for item in events {
        let at = Some(item.line);
        let object = object_of(item)?;
        let kind = opt_str(object.get("type")).map_err(|w| w.at(at, "type"))?;
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
            Some("error") => {
                if let Some(message) = error_message(object) {
                    errors.note(&mut reading, at, message);
                }
                continue;
            }
            _ => {}
        }
        recognised |= kind.is_some_and(|kind| kind.starts_with("response."));
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
            reading.text = responses_text(response, at, "response.")?.unwrap_or(deltas);
            responses_status(&mut reading, response, at, "response.")?;
        }
        None => {
            reading.text = deltas;
            reading.warnings.push(ENDED_EARLY.to_string());
        }
    }
    Ok(reading)
}

// ------------------------------------------------------------------------------------------
// Anthropic Messages

/// A text block and its citations: `(position of the chunk, cited text)`.
#[derive(Default)]
struct TextBlock {
    text: String,
    citations: Vec<(usize, Option<String>)>,
}

fn read_anthropic(text: &str) -> Result<Reading, InputError> {
    let values = values_of(text)?;
    match values.items.as_slice() {
        [] => Err(empty_stream()),
        [one] if !values.sse && !is_anthropic_event(&one.value) => anthropic_message(one),
        events => anthropic_events(events),
    }
}

fn is_anthropic_event(value: &Value) -> bool {
    type_of(value).is_some_and(|kind| ANTHROPIC_EVENTS.contains(&kind) || kind == "ping")
}

fn anthropic_message(item: &Located) -> Result<Reading, InputError> {
    let object = object_of(item)?;
    if let Some(message) = error_message(object) {
        return Err(is_an_error(None, &message));
    }
    let content = opt_array(object.get("content")).map_err(|w| w.at(None, "content"))?;
    let mut reading = Reading::default();
    for (k, block) in content.iter().enumerate() {
        if type_of(block) != Some("text") {
            continue;
        }
        let text = opt_str(block.get("text"))
            .map_err(|w| w.at(None, format_args!("content[{k}].text")))?;
        let citations = opt_array(block.get("citations"))
            .map_err(|w| w.at(None, format_args!("content[{k}].citations")))?;
        let mut text_block = TextBlock {
            text: text.unwrap_or("").to_string(),
            citations: Vec::new(),
        };
        for (j, citation) in citations.iter().enumerate() {
            let path = format!("content[{k}].citations[{j}]");
            text_block
                .citations
                .extend(anthropic_citation(citation, None, &path)?);
        }
        reading.push_block(text_block);
    }
    anthropic_stop_reason(&mut reading, object.get("stop_reason"), "stop_reason", None)?;
    reading.read_usage(
        object.get("usage"),
        "usage",
        ("input_tokens", "output_tokens"),
        None,
    )?;
    Ok(reading)
}

/// `(position of the chunk, cited text)` of one citation; `None` for kinds that name no
/// document of ours (web search results) or that lack their index.
fn anthropic_citation(
    citation: &Value,
    at: Option<usize>,
    path: &str,
) -> Result<Option<(usize, Option<String>)>, InputError> {
    let index_field = match type_of(citation) {
        Some("char_location" | "page_location" | "content_block_location") => "document_index",
        Some("search_result_location") => "search_result_index",
        _ => return Ok(None),
    };
    let index = opt_whole(citation.get(index_field))
        .map_err(|w| w.at(at, format_args!("{path}.{index_field}")))?;
    let quote = opt_str(citation.get("cited_text"))
        .map_err(|w| w.at(at, format_args!("{path}.cited_text")))?;
    Ok(index
        .and_then(|i| usize::try_from(i).ok())
        .map(|position| (position, quote.map(str::to_string))))
}

fn anthropic_stop_reason(
    reading: &mut Reading,
    reason: Option<&Value>,
    path: &str,
    at: Option<usize>,
) -> Result<(), InputError> {
    let reason = opt_str(reason).map_err(|w| w.at(at, path))?;
    // `model_context_window_exceeded`: the context window, not `max_tokens`, ran out; the
    // answer is cut off all the same.
    if let Some(reason @ ("max_tokens" | "model_context_window_exceeded")) = reason {
        reading.warnings.push(cut_off("stop_reason", reason));
    }
    Ok(())
}

fn anthropic_events(events: &[Located]) -> Result<Reading, InputError> {
    let mut reading = Reading::streamed();
    let mut errors = StreamErrors::default();
    // Blocks by their `index`, which orders them; only text blocks are kept.
    let mut blocks: BTreeMap<u64, TextBlock> = BTreeMap::new();
    let mut stop_reason = None;
    let mut recognised = false;
    let mut stopped = false;
    for item in events {
        let at = Some(item.line);
        let object = object_of(item)?;
        if let Some(message) = error_message(object) {
            errors.note(&mut reading, at, message);
            continue;
        }
        let kind = opt_str(object.get("type")).map_err(|w| w.at(at, "type"))?;
        recognised |= kind.is_some_and(|kind| ANTHROPIC_EVENTS.contains(&kind));
        let index = || opt_whole(object.get("index")).map_err(|w| w.at(at, "index"));
        match kind {
            Some("message_start") => {
                let message = opt_object(object.get("message")).map_err(|w| w.at(at, "message"))?;
                if let Some(message) = message {
                    reading.read_usage(
                        message.get("usage"),
                        "message.usage",
                        ("input_tokens", "output_tokens"),
                        at,
                    )?;
                }
            }
            Some("content_block_start") => {
                let block = object.get("content_block");
                let (Some(index), Some(block)) = (index()?, block) else {
                    continue;
                };
                if type_of(block) != Some("text") {
                    continue;
                }
                let text =
                    opt_str(block.get("text")).map_err(|w| w.at(at, "content_block.text"))?;
                let mut text_block = TextBlock {
                    text: text.unwrap_or("").to_string(),
                    citations: Vec::new(),
                };
                let citations = opt_array(block.get("citations"))
                    .map_err(|w| w.at(at, "content_block.citations"))?;
                for (j, citation) in citations.iter().enumerate() {
                    let path = format!("content_block.citations[{j}]");
                    text_block
                        .citations
                        .extend(anthropic_citation(citation, at, &path)?);
                }
                blocks.insert(index, text_block);
            }
            Some("content_block_delta") => {
                // Deltas of blocks that are not text (tool input, thinking) have no block here.
                let Some(block) = index()?.and_then(|index| blocks.get_mut(&index)) else {
                    continue;
                };
                let Some(delta) = opt_object(object.get("delta")).map_err(|w| w.at(at, "delta"))?
                else {
                    continue;
                };
                match delta.get("type").and_then(Value::as_str) {
                    Some("text_delta") => {
                        let text =
                            opt_str(delta.get("text")).map_err(|w| w.at(at, "delta.text"))?;
                        block.text.push_str(text.unwrap_or(""));
                    }
                    Some("citations_delta") => {
                        if let Some(citation) = delta.get("citation") {
                            block.citations.extend(anthropic_citation(
                                citation,
                                at,
                                "delta.citation",
                            )?);
                        }
                    }
                    _ => {}
                }
            }
            Some("message_delta") => {
                let delta = opt_object(object.get("delta")).map_err(|w| w.at(at, "delta"))?;
                if let Some(reason) = delta.and_then(|d| d.get("stop_reason")) {
                    stop_reason = Some((reason, at));
                }
                // Its `output_tokens` are the message's total so far.
                reading.read_usage(
                    object.get("usage"),
                    "usage",
                    ("input_tokens", "output_tokens"),
                    at,
                )?;
            }
            Some("message_stop") => stopped = true,
            _ => {}
        }
    }
    if !recognised {
        return Err(errors.or(not_a_stream_of(
            "an Anthropic Messages stream",
            "no event has a Messages stream `type` (`message_start`, `content_block_delta`, ...)",
        )));
    }
    for block in blocks.into_values() {
        reading.push_block(block);
    }
    if let Some((reason, at)) = stop_reason {
        anthropic_stop_reason(&mut reading, Some(reason), "delta.stop_reason", at)?;
    }
    if !stopped {
        reading.warnings.push(ENDED_EARLY.to_string());
    }
    Ok(reading)
}

// ------------------------------------------------------------------------------------------
// Cohere Chat v2

fn read_cohere(text: &str) -> Result<Reading, InputError> {
    let values = values_of(text)?;
    match values.items.as_slice() {
        [] => Err(empty_stream()),
        [one] if !values.sse && !is_cohere_event(&one.value) => cohere_response(one),
        events => cohere_events(events),
    }
}

/// The event types of a Cohere Chat v2 stream.
const COHERE_EVENTS: [&str; 7] = [
    "message-start",
    "content-start",
    "content-delta",
    "content-end",
    "citation-start",
    "citation-end",
    "message-end",
];

fn is_cohere_event(value: &Value) -> bool {
    type_of(value).is_some_and(|kind| COHERE_EVENTS.contains(&kind))
}

fn cohere_response(item: &Located) -> Result<Reading, InputError> {
    let object = object_of(item)?;
    if let Some(message) = error_message(object) {
        return Err(is_an_error(None, &message));
    }
    // Cohere's error bodies are `{"message": "..."}`; in an answer `message` is an object.
    if let Some(Value::String(message)) = object.get("message") {
        return Err(is_an_error(None, message));
    }
    let mut reading = Reading::default();
    let message = opt_object(object.get("message")).map_err(|w| w.at(None, "message"))?;
    if let Some(message) = message {
        let content =
            opt_array(message.get("content")).map_err(|w| w.at(None, "message.content"))?;
        let mut items = Vec::with_capacity(content.len());
        for (k, item) in content.iter().enumerate() {
            let text = match type_of(item) {
                Some("text") => Some(
                    opt_str(item.get("text"))
                        .map_err(|w| w.at(None, format_args!("message.content[{k}].text")))?
                        .unwrap_or(""),
                ),
                _ => None,
            };
            items.push((k as u64, text));
        }
        let citations =
            opt_array(message.get("citations")).map_err(|w| w.at(None, "message.citations"))?;
        let citations = citations
            .iter()
            .enumerate()
            .map(|(k, citation)| (citation, None, format!("message.citations[{k}]")));
        cohere_text(&mut reading, items, citations)?;
    }
    cohere_end(&mut reading, object, None, "")?;
    Ok(reading)
}

/// The finish reason and token counts, from the response or from a stream's `message-end`
/// delta (`path` is then `delta.`).
fn cohere_end(
    reading: &mut Reading,
    object: &Map<String, Value>,
    at: Option<usize>,
    path: &str,
) -> Result<(), InputError> {
    let reason = opt_str(object.get("finish_reason"))
        .map_err(|w| w.at(at, format_args!("{path}finish_reason")))?;
    // The API writes `MAX_TOKENS`; an older SDK release spells it `max_tokens`.
    if let Some(reason) = reason.filter(|r| r.eq_ignore_ascii_case("MAX_TOKENS")) {
        reading.warnings.push(cut_off("finish_reason", reason));
    }
    let usage =
        opt_object(object.get("usage")).map_err(|w| w.at(at, format_args!("{path}usage")))?;
    if let Some(usage) = usage {
        // `tokens` (what the model read and wrote) wins over `billed_units` where both count.
        for kind in ["billed_units", "tokens"] {
            reading.read_usage(
                usage.get(kind),
                &format!("{path}usage.{kind}"),
                ("input_tokens", "output_tokens"),
                at,
            )?;
        }
    }
    Ok(())
}

/// Joins the content items (by `content_index`; `None` for items that are not text) and reads
/// the citations, each with the line and path that name it in errors.
fn cohere_text<'a>(
    reading: &mut Reading,
    items: Vec<(u64, Option<&str>)>,
    citations: impl Iterator<Item = (&'a Value, Option<usize>, String)>,
) -> Result<(), InputError> {
    // The character range of each text item in the joined text, by its `content_index`.
    let mut ranges: BTreeMap<u64, Range<usize>> = BTreeMap::new();
    let mut chars = 0;
    for (index, text) in items {
        if let Some(text) = text {
            let len = text.chars().count();
            reading.text.push_str(text);
            ranges.insert(index, chars..chars + len);
            chars += len;
        }
    }
    // Built at the first citation: an answer without citations needs no table.
    let mut starts: Option<Vec<usize>> = None;
    for (citation, at, path) in citations {
        let field = |key: &str| {
            opt_whole(citation.get(key)).map_err(|w| w.at(at, format_args!("{path}.{key}")))
        };
        let kind =
            opt_str(citation.get("type")).map_err(|w| w.at(at, format_args!("{path}.type")))?;
        // `THINKING_CONTENT` and `PLAN` citations cite the model's reasoning, not the answer.
        if kind.is_some_and(|kind| !kind.eq_ignore_ascii_case("TEXT_CONTENT")) {
            continue;
        }
        let (Some(start), Some(end)) = (field("start")?, field("end")?) else {
            continue;
        };
        let within = match field("content_index")? {
            Some(index) => match ranges.get(&index) {
                Some(range) => range.clone(),
                None => continue,
            },
            None => 0..chars,
        };
        let starts = starts.get_or_insert_with(|| char_starts(&reading.text));
        let Some(span) = char_span(starts, &within, start, end) else {
            continue;
        };
        let sources = opt_array(citation.get("sources"))
            .map_err(|w| w.at(at, format_args!("{path}.sources")))?;
        for (j, source) in sources.iter().enumerate() {
            let id = opt_str(source.get("id"))
                .map_err(|w| w.at(at, format_args!("{path}.sources[{j}].id")))?
                .or_else(|| source.pointer("/document/id").and_then(Value::as_str));
            if let Some(id) = id {
                reading.citations.push(NativeCitation {
                    span: Some(span.clone()),
                    target: CitationTarget::IdOrPosition(id.to_string()),
                    quote: None,
                });
            }
        }
    }
    Ok(())
}

fn cohere_events(events: &[Located]) -> Result<Reading, InputError> {
    let mut reading = Reading::streamed();
    let mut errors = StreamErrors::default();
    // Content items by `index`: whether it is text, and its text so far.
    let mut contents: BTreeMap<u64, (bool, String)> = BTreeMap::new();
    let mut citations = Vec::new();
    let mut end = None;
    let mut recognised = false;
    for item in events {
        let at = Some(item.line);
        let object = object_of(item)?;
        if let Some(message) = error_message(object) {
            errors.note(&mut reading, at, message);
            continue;
        }
        let kind = opt_str(object.get("type")).map_err(|w| w.at(at, "type"))?;
        recognised |= kind.is_some_and(|kind| COHERE_EVENTS.contains(&kind));
        let index = || {
            opt_whole(object.get("index"))
                .map(|index| index.unwrap_or(0))
                .map_err(|w| w.at(at, "index"))
        };
        let message = item.value.pointer("/delta/message");
        let content = message.and_then(|m| m.get("content"));
        match kind {
            Some("content-start") => {
                let is_text = content.and_then(type_of).is_none_or(|kind| kind == "text");
                let text = opt_str(content.and_then(|c| c.get("text")))
                    .map_err(|w| w.at(at, "delta.message.content.text"))?;
                contents.insert(index()?, (is_text, text.unwrap_or("").to_string()));
            }
            Some("content-delta") => {
                let text = opt_str(content.and_then(|c| c.get("text")))
                    .map_err(|w| w.at(at, "delta.message.content.text"))?;
                // A delta without its `content-start` is text, as most are.
                let (is_text, so_far) = contents.entry(index()?).or_insert((true, String::new()));
                if *is_text {
                    so_far.push_str(text.unwrap_or(""));
                }
            }
            Some("citation-start") => {
                // One citation per event, under the plural name.
                if let Some(citation) = message.and_then(|m| m.get("citations")) {
                    citations.push((citation, at, "delta.message.citations".to_string()));
                }
            }
            Some("message-end") => {
                let delta = opt_object(object.get("delta")).map_err(|w| w.at(at, "delta"))?;
                end = Some((delta, at));
            }
            _ => {}
        }
    }
    if !recognised {
        return Err(errors.or(not_a_stream_of(
            "a Cohere chat stream",
            "no event has a Cohere chat stream `type` (`content-delta`, `message-end`, ...)",
        )));
    }
    let items = contents
        .iter()
        .map(|(index, (is_text, text))| (*index, is_text.then_some(text.as_str())))
        .collect();
    cohere_text(&mut reading, items, citations.into_iter())?;
    match end {
        Some((Some(delta), at)) => cohere_end(&mut reading, delta, at, "delta.")?,
        Some((None, _)) => {}
        None => reading.warnings.push(ENDED_EARLY.to_string()),
    }
    Ok(reading)
}

// ------------------------------------------------------------------------------------------
// Gemini

/// What one Gemini response, or one chunk of a stream, holds.
struct GeminiChunk<'a> {
    /// Each part's text; `None` for thoughts and parts that are not text, so that `partIndex`
    /// still counts every part.
    parts: Vec<Option<&'a str>>,
    finish_reason: Option<&'a str>,
    supports: &'a [Value],
}

fn read_gemini(text: &str) -> Result<Reading, InputError> {
    let values = values_of(text)?;
    match values.items.as_slice() {
        [] => Err(empty_stream()),
        [one] if !values.sse => match &one.value {
            // `streamGenerateContent` without `alt=sse`: a JSON array of chunks.
            Value::Array(chunks) => gemini_stream(
                chunks
                    .iter()
                    .enumerate()
                    .map(|(k, chunk)| (chunk, None, format!("[{k}]."))),
            ),
            _ => gemini_response(one),
        },
        chunks => gemini_stream(
            chunks
                .iter()
                .map(|item| (&item.value, Some(item.line), String::new())),
        ),
    }
}

fn gemini_chunk<'a>(
    object: &'a Map<String, Value>,
    at: Option<usize>,
    prefix: &str,
) -> Result<GeminiChunk<'a>, InputError> {
    let mut chunk = GeminiChunk {
        parts: Vec::new(),
        finish_reason: None,
        supports: &[],
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
    Ok(chunk)
}

fn gemini_response(item: &Located) -> Result<Reading, InputError> {
    let object = object_of(item)?;
    if let Some(message) = error_message(object) {
        return Err(is_an_error(None, &message));
    }
    let chunk = gemini_chunk(object, None, "")?;
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
        gemini_support(&mut reading, &parts, false, support, None, &path)?;
    }
    gemini_finish(&mut reading, chunk.finish_reason);
    reading.read_usage(
        object.get("usageMetadata"),
        "usageMetadata",
        ("promptTokenCount", "candidatesTokenCount"),
        None,
    )?;
    Ok(reading)
}

fn gemini_stream<'a>(
    chunks: impl Iterator<Item = (&'a Value, Option<usize>, String)>,
) -> Result<Reading, InputError> {
    let mut reading = Reading::streamed();
    let mut errors = StreamErrors::default();
    let mut finish_reason = None;
    let mut supports = None;
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
        let chunk = gemini_chunk(object, at, &prefix)?;
        for text in chunk.parts.into_iter().flatten() {
            reading.text.push_str(text);
        }
        if chunk.finish_reason.is_some() {
            finish_reason = chunk.finish_reason;
        }
        if !chunk.supports.is_empty() {
            supports = Some((chunk.supports, at, prefix.clone()));
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
            gemini_support(&mut reading, &whole, true, support, at, &path)?;
        }
    }
    gemini_finish(&mut reading, finish_reason);
    if finish_reason.is_none() {
        reading.warnings.push(ENDED_EARLY.to_string());
    }
    Ok(reading)
}

fn gemini_finish(reading: &mut Reading, finish_reason: Option<&str>) {
    if finish_reason == Some("MAX_TOKENS") {
        reading.warnings.push(cut_off("finishReason", "MAX_TOKENS"));
    }
}

/// The citations of one grounding support: its segment (byte offsets within the part at
/// `partIndex`, whose span of the joined text is `parts[partIndex]`) cited to each of its
/// `groundingChunkIndices`. `one_part` reads every segment against `parts[0]`.
fn gemini_support(
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

// ------------------------------------------------------------------------------------------
// Citation list

fn read_citation_list(text: &str) -> Result<Reading, InputError> {
    let items = json_values(text)?;
    let object = object_of(one_value(&items)?)?;
    let answer = match object.get("answer") {
        Some(Value::String(answer)) => answer.clone(),
        Some(Value::Null) => String::new(),
        None => {
            return Err(InputError::Response {
                line: None,
                message: "`answer` is missing; expected a string".to_string(),
            });
        }
        Some(other) => return Err(wrong(other, "a string").at(None, "answer")),
    };
    let mut reading = Reading {
        text: answer,
        ..Reading::default()
    };
    let citations = opt_array(object.get("citations")).map_err(|w| w.at(None, "citations"))?;
    for (k, citation) in citations.iter().enumerate() {
        let (source, quote) = match citation {
            Value::Object(fields) => {
                let quote = opt_str(fields.get("quote"))
                    .map_err(|w| w.at(None, format_args!("citations[{k}].quote")))?;
                (fields.get("source"), quote)
            }
            // A bare list of sources: `"citations": [1, 3]`.
            other => (Some(other), None),
        };
        let label = match source {
            None | Some(Value::Null) => {
                reading
                    .warnings
                    .push(format!("citations[{k}] has no `source`: it is skipped"));
                continue;
            }
            Some(source) => source_label(source),
        };
        let Some(label) = label else {
            let shown = match source {
                Some(value @ (Value::Array(_) | Value::Object(_))) => json_kind(value).to_string(),
                Some(value) => format!("`{value}`"),
                None => String::new(),
            };
            reading.warnings.push(format!(
                "`citations[{k}].source` is {shown}; expected a chunk number or label: it is \
                 skipped"
            ));
            continue;
        };
        reading.citations.push(NativeCitation {
            span: None,
            target: CitationTarget::Label(label),
            quote: quote.map(str::to_string),
        });
    }
    Ok(reading)
}

/// The label a `source` names: a whole number (`2`, `2.0`; 0 too, which a chunk id may be) or a
/// non-empty string.
fn source_label(source: &Value) -> Option<String> {
    match source {
        Value::String(label) => Some(label.trim().to_string()).filter(|l| !l.is_empty()),
        Value::Number(_) => opt_whole(Some(source))
            .ok()
            .flatten()
            .map(|n| n.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! fixture {
        ($name:literal) => {
            include_str!(concat!("../../testdata/responses/", $name))
        };
    }

    /// The answer with markers that the text-only fixtures hold.
    const MARKED: &str = "The Eiffel Tower is 330 metres tall [1]. It was completed in 1888 for \
                          the World's Fair [2]. It was designed by the engineering company of \
                          Gustave Eiffel [3]. Around 7 million people visit it every year.";

    const FIXTURES: [(&str, &str, AnswerFormat); 25] = [
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
        ("chunks.json", fixture!("chunks.json"), AnswerFormat::Text),
        (
            "eiffel answer",
            include_str!("../../testdata/eiffel/answer.md"),
            AnswerFormat::Text,
        ),
        (
            "markdown answer",
            include_str!("../../testdata/markdown/answer.md"),
            AnswerFormat::Text,
        ),
        (
            "warnings answer",
            include_str!("../../testdata/warnings/answer.md"),
            AnswerFormat::Text,
        ),
    ];

    fn read_as(text: &str, format: AnswerFormat) -> Answer {
        match read(text, format) {
            Ok(answer) => answer,
            Err(e) => panic!("{e}"),
        }
    }

    fn read_detected(text: &str) -> Answer {
        read_as(text, detect(text))
    }

    fn read_error(text: &str, format: AnswerFormat) -> (Option<usize>, String) {
        match read(text, format) {
            Err(InputError::Response { line, message }) => (line, message),
            other => panic!("expected a response error, got {other:?}"),
        }
    }

    /// Each citation as (the text it spans, its target, its quote).
    fn cited(answer: &Answer) -> Vec<(Option<&str>, CitationTarget, Option<&str>)> {
        answer
            .citations
            .iter()
            .map(|c| {
                let span = c.span.clone().map(|s| &answer.text[s]);
                (span, c.target.clone(), c.quote.as_deref())
            })
            .collect()
    }

    fn usage(prompt: u64, completion: u64) -> Option<Usage> {
        Some(Usage {
            prompt_tokens: Some(prompt),
            completion_tokens: Some(completion),
        })
    }

    fn position(p: usize) -> CitationTarget {
        CitationTarget::Position(p)
    }

    // ---- Detection

    #[test]
    fn every_fixture_is_recognised() {
        for (name, text, format) in FIXTURES {
            assert_eq!(detect(text), format, "{name}");
        }
    }

    #[test]
    fn markdown_stays_text() {
        for text in [
            "[1] The Eiffel Tower is 330 metres tall.",
            "[1][2] Both sources agree.",
            "[1, 3] The tower is in Paris.",
            "[Paris](https://en.wikipedia.org/wiki/Paris) is the capital [1].",
            "{Note} The tower is 330 metres tall [1].",
            "{ note: the tower is tall }",
            "{}",
            "[]",
            "[\"a\", \"b\"] are the labels.",
            "{\"text\": \"a JSON answer of no known shape\"}",
            "data shows that the tower is tall [1].",
            "data: the tower is 330 metres tall [1].",
            ":smile: The tower is tall [1].",
            "event: the 1889 World's Fair [2].",
            "   \n\n## The Eiffel Tower\n\nIt is tall [1].",
            "",
        ] {
            assert_eq!(detect(text), AnswerFormat::Text, "{text:?}");
        }
    }

    #[test]
    fn error_bodies_are_recognised_and_reported() {
        for (text, format, message) in [
            (
                r#"{"error": {"message": "Incorrect API key provided", "type": "invalid_request_error", "code": "invalid_api_key"}}"#,
                AnswerFormat::Openai,
                "Incorrect API key provided",
            ),
            (
                r#"{"error": "model \"llama9\" not found, try pulling it first"}"#,
                AnswerFormat::Ollama,
                "model \"llama9\" not found, try pulling it first",
            ),
            (
                r#"{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}"#,
                AnswerFormat::Anthropic,
                "Overloaded",
            ),
            (
                r#"{"error": {"code": 400, "message": "API key not valid.", "status": "INVALID_ARGUMENT"}}"#,
                AnswerFormat::Openai,
                "API key not valid.",
            ),
        ] {
            assert_eq!(detect(text), format, "{text}");
            let (line, got) = read_error(text, format);
            assert_eq!(
                (line, got.as_str()),
                (None, &*format!("the response is an error: {message}"))
            );
        }
        // Gemini's error body has the same shape; read as Gemini it says the same.
        let (_, message) = read_error(
            r#"{"error": {"code": 400, "message": "API key not valid.", "status": "INVALID_ARGUMENT"}}"#,
            AnswerFormat::Gemini,
        );
        assert_eq!(message, "the response is an error: API key not valid.");
        let (_, message) = read_error(
            r#"{"message": "invalid request: model is required"}"#,
            AnswerFormat::Cohere,
        );
        assert_eq!(
            message,
            "the response is an error: invalid request: model is required"
        );
    }

    #[test]
    fn broken_json_is_guessed_from_its_keys() {
        for (text, format) in [
            (
                "{\"model\": \"llama3.2\", \"message\": {\"role\": \"assistant\", \"content\": \"The",
                AnswerFormat::Ollama,
            ),
            (
                "{\"model\":\"llama3.2\",\"response\":\"The\",\"done\":fals}\n{\"model\":\"llama3.2\"}",
                AnswerFormat::Ollama,
            ),
            (
                "{\n  \"id\": \"chatcmpl-1\",\n  \"choices\": [\n    {\"message\": {\"content\": \"x\"}\n",
                AnswerFormat::Openai,
            ),
            (
                "{\"id\": \"resp_1\", \"output\": [",
                AnswerFormat::OpenaiResponses,
            ),
            (
                "{\"type\": \"message\", \"content\": [], \"stop_reason\": max_tokens}",
                AnswerFormat::Anthropic,
            ),
            (
                "{\"finish_reason\": \"COMPLETE\", \"message\": {\"content\": [",
                AnswerFormat::Cohere,
            ),
            ("[{\"candidates\": [{\"content\": {", AnswerFormat::Gemini),
            (
                "{\"answer\": \"The tower\", \"citations\": [{\"source\": 1,}]}",
                AnswerFormat::CitationList,
            ),
            // No known key: not a response.
            ("{\"title\": \"notes\", ", AnswerFormat::Text),
            // The word, not the key.
            ("{\"note\": \"the choices are\" ", AnswerFormat::Text),
        ] {
            assert_eq!(detect(text), format, "{text}");
        }
        let text = "{\"model\": \"llama3.2\",\n \"message\": {\"role\": \"assistant\", \"content\": 'The'}}";
        let (line, message) = read_error(text, detect(text));
        assert_eq!(line, Some(2));
        assert!(
            message.starts_with("invalid JSON: expected value (column "),
            "{message}"
        );
    }

    #[test]
    fn sse_is_recognised_by_its_payloads() {
        let text = ": keep-alive\n\nevent: message_start\ndata: {\"type\": \"ping\"}\n\ndata: {\"type\": \"message_start\", \"message\": {}}\n";
        assert_eq!(detect(text), AnswerFormat::Anthropic);
        let text = "data: {\"candidates\": []}\n\n";
        assert_eq!(detect(text), AnswerFormat::Gemini);
        // Nothing says whose: read as OpenAI, which reports what is wrong.
        let text = "data: {\"broken\n\ndata: [DONE]\n";
        assert_eq!(detect(text), AnswerFormat::Openai);
        let (line, message) = read_error(text, AnswerFormat::Openai);
        assert_eq!(line, Some(1));
        assert!(message.starts_with("invalid JSON: "), "{message}");
        // A stream of some other API is not read as something it is not.
        let text = "event: delta\ndata: {\"kind\": \"delta\", \"text\": \"The tower\"}\n";
        assert_eq!(detect(text), AnswerFormat::Openai);
        let (_, message) = read_error(text, AnswerFormat::Openai);
        assert_eq!(
            message,
            "no chunk has `choices`: this is not an OpenAI chat completion stream"
        );
        let text = "event: message-start\ndata: {\"type\": \"message-start\", \"delta\": {}}\n";
        assert_eq!(detect(text), AnswerFormat::Cohere);
    }

    // ---- Each format from its fixture

    #[test]
    fn ollama_chat_and_its_stream() {
        let single = read_detected(fixture!("ollama-chat.json"));
        let stream = read_detected(fixture!("ollama-chat-stream.ndjson"));
        for answer in [&single, &stream] {
            assert_eq!(answer.text, MARKED);
            assert_eq!(answer.format, AnswerFormat::Ollama);
            assert_eq!(answer.offset, 0);
            assert_eq!(answer.usage, usage(412, 52));
            assert!(answer.citations.is_empty());
            assert!(answer.warnings.is_empty(), "{:?}", answer.warnings);
        }
        assert!(!single.streamed);
        assert!(stream.streamed);
    }

    #[test]
    fn ollama_generate_and_its_stream() {
        let single = read_detected(fixture!("ollama-generate.json"));
        let stream = read_detected(fixture!("ollama-generate-stream.ndjson"));
        for answer in [&single, &stream] {
            assert_eq!(answer.text, MARKED);
            assert_eq!(answer.usage, usage(398, 52));
            assert!(answer.warnings.is_empty(), "{:?}", answer.warnings);
        }
        assert_eq!((single.streamed, stream.streamed), (false, true));
    }

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
    fn anthropic_text_blocks_and_their_citations() {
        let single = read_detected(fixture!("anthropic.json"));
        let stream = read_detected(fixture!("anthropic-stream.sse"));
        for answer in [&single, &stream] {
            assert_eq!(
                answer.text,
                "According to the documents, the Eiffel Tower is 330 metres (1,083 ft) tall. It \
                 was completed in 1889 as the centrepiece of the World's Fair. It was designed and \
                 built by the company of Gustave Eiffel."
            );
            assert_eq!(
                cited(answer),
                [
                    (
                        Some("the Eiffel Tower is 330 metres (1,083 ft) tall"),
                        position(0),
                        Some(
                            "It is 330 metres (1,083 ft) tall, about the same height as an 81-storey building."
                        )
                    ),
                    (
                        Some("It was completed in 1889 as the centrepiece of the World's Fair"),
                        position(1),
                        Some(
                            "Construction of the tower began in 1887 and it was completed in 1889 as the centrepiece of the 1889 World's Fair (Exposition Universelle)."
                        )
                    ),
                    (
                        Some("It was designed and built by the company of Gustave Eiffel"),
                        position(3),
                        Some(
                            "The tower is named after the engineer Gustave Eiffel, whose company designed and built the tower."
                        )
                    ),
                ]
            );
            assert_eq!(answer.usage, usage(1184, 71));
            assert!(answer.warnings.is_empty(), "{:?}", answer.warnings);
        }
        assert_eq!((single.streamed, stream.streamed), (false, true));
    }

    #[test]
    fn anthropic_citation_kinds() {
        let text = r#"{"type": "message", "content": [
            {"type": "thinking", "thinking": "Let me look.", "signature": "x"},
            {"type": "text", "text": "A", "citations": [
                {"type": "page_location", "cited_text": "p", "document_index": 2, "start_page_number": 1, "end_page_number": 2},
                {"type": "content_block_location", "cited_text": "c", "document_index": 4, "start_block_index": 0, "end_block_index": 1},
                {"type": "search_result_location", "cited_text": "s", "search_result_index": 1, "source": "kb", "start_block_index": 0, "end_block_index": 1},
                {"type": "web_search_result_location", "cited_text": "w", "url": "https://example.com", "encrypted_index": "e"},
                {"type": "char_location", "cited_text": "no index"}]},
            {"type": "tool_use", "id": "t", "name": "f", "input": {}},
            {"type": "text", "text": "", "citations": null},
            {"type": "text", "text": "B"}]}"#;
        let answer = read_detected(text);
        assert_eq!(answer.text, "AB");
        assert_eq!(
            cited(&answer),
            [
                (Some("A"), position(2), Some("p")),
                (Some("A"), position(4), Some("c")),
                (Some("A"), position(1), Some("s")),
            ]
        );
    }

    #[test]
    fn cohere_citations_in_characters() {
        let single = read_detected(fixture!("cohere.json"));
        let stream = read_detected(fixture!("cohere-stream.sse"));
        let doc = |id: &str| CitationTarget::IdOrPosition(id.to_string());
        for answer in [&single, &stream] {
            assert_eq!(
                answer.text,
                "The Eiffel Tower — Paris’s wrought-iron landmark — is 330 metres tall. It was \
                 completed in 1889 for the World's Fair, and it was designed by the company of \
                 Gustave Eiffel."
            );
            assert_eq!(
                cited(answer),
                [
                    (Some("wrought-iron landmark"), doc("doc:0"), None),
                    (Some("330 metres tall"), doc("doc:0"), None),
                    (
                        Some("completed in 1889 for the World's Fair"),
                        doc("doc:1"),
                        None
                    ),
                    (
                        Some("designed by the company of Gustave Eiffel"),
                        doc("doc:3"),
                        None
                    ),
                ]
            );
            assert_eq!(answer.usage, usage(1354, 97));
            assert!(answer.warnings.is_empty(), "{:?}", answer.warnings);
        }
        assert_eq!((single.streamed, stream.streamed), (false, true));
    }

    #[test]
    fn cohere_content_index_thinking_and_sources() {
        let text = r#"{"id": "x", "finish_reason": "COMPLETE", "message": {"role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "Wéighing the sources."},
                {"type": "text", "text": "Ça coûte 5 €. "},
                {"type": "text", "text": "Élevé: 330 m."}],
            "citations": [
                {"start": 9, "end": 12, "text": "5 €", "content_index": 1, "type": "TEXT_CONTENT",
                 "sources": [{"type": "document", "id": "doc:2", "document": {"id": "doc:2"}},
                             {"type": "tool", "id": "web:0", "tool_output": {}}]},
                {"start": 7, "end": 12, "content_index": 2, "sources": [{"type": "document", "document": {"id": "7"}}]},
                {"start": 0, "end": 4, "type": "THINKING_CONTENT", "sources": [{"type": "document", "id": "doc:0"}]},
                {"start": 0, "end": 2, "content_index": 0, "sources": [{"type": "document", "id": "doc:0"}]},
                {"start": 14, "end": 19, "sources": [{"type": "document", "id": "doc:4"}]}]},
            "usage": {"billed_units": {"input_tokens": 5.0, "output_tokens": 7}}}"#;
        let answer = read_as(text, AnswerFormat::Cohere);
        assert_eq!(answer.text, "Ça coûte 5 €. Élevé: 330 m.");
        let doc = |id: &str| CitationTarget::IdOrPosition(id.to_string());
        assert_eq!(
            cited(&answer),
            [
                (Some("5 €"), doc("doc:2"), None),
                (Some("5 €"), doc("web:0"), None),
                (Some("330 m"), doc("7"), None),
                (Some("Élevé"), doc("doc:4"), None),
            ]
        );
        assert_eq!(answer.usage, usage(5, 7));
    }

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
        assert_eq!(detect(&array), AnswerFormat::Gemini);
        let from_array = read_as(&array, AnswerFormat::Gemini);
        let from_sse = read_as(sse, AnswerFormat::Gemini);
        assert_eq!(from_array.text, from_sse.text);
        assert_eq!(from_array.citations, from_sse.citations);
        assert!(from_array.streamed);
        // An array element of the wrong shape is named by its position.
        let err = read(
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
    fn citation_list() {
        let answer = read_detected(fixture!("citation-list.json"));
        assert_eq!(answer.text, MARKED);
        let label = |l: &str| CitationTarget::Label(l.to_string());
        assert_eq!(
            cited(&answer),
            [
                (None, label("1"), Some("It is 330 metres (1,083 ft) tall")),
                (None, label("2"), Some("it was completed in 1889")),
                (
                    None,
                    label("3"),
                    Some("Paris has a population of about 2.1 million inhabitants")
                ),
            ]
        );
        assert!(answer.warnings.is_empty() && answer.usage.is_none() && !answer.streamed);
    }

    #[test]
    fn citation_list_sources_that_name_nothing_are_skipped_with_a_warning() {
        let text = r#"{"answer": "The tower is tall [1].", "citations": [
            {"quote": "tall"}, {"source": null}, {"source": -1}, {"source": 2.5}, {"source": ""},
            {"source": true}, {"source": [1]}, {"source": 2.0}, {"source": " doc3 "}, 4, "5", {"source": 0}]}"#;
        let answer = read_detected(text);
        let labels: Vec<CitationTarget> =
            answer.citations.iter().map(|c| c.target.clone()).collect();
        let label = |l: &str| CitationTarget::Label(l.to_string());
        assert_eq!(
            labels,
            [
                label("2"),
                label("doc3"),
                label("4"),
                label("5"),
                label("0")
            ]
        );
        assert_eq!(
            answer.warnings,
            [
                "citations[0] has no `source`: it is skipped",
                "citations[1] has no `source`: it is skipped",
                "`citations[2].source` is `-1`; expected a chunk number or label: it is skipped",
                "`citations[3].source` is `2.5`; expected a chunk number or label: it is skipped",
                "`citations[4].source` is `\"\"`; expected a chunk number or label: it is skipped",
                "`citations[5].source` is `true`; expected a chunk number or label: it is skipped",
                "`citations[6].source` is an array; expected a chunk number or label: it is skipped",
            ]
        );
    }

    // ---- Warnings

    fn cut_off_warning(field: &str, value: &str) -> String {
        format!(
            "the response was cut off by the token limit ({field} = \"{value}\"): the end of the \
             answer, and possibly citations, are missing"
        )
    }

    #[test]
    fn cut_off_by_the_token_limit() {
        let truncated = "The Eiffel Tower is 330 metres tall [1]. It was completed in 1888 for \
                         the World's Fair [2]. It was designed by the engineering company of";
        let answer = read_detected(fixture!("ollama-chat-truncated.json"));
        assert_eq!(answer.text, truncated);
        assert_eq!(answer.warnings, [cut_off_warning("done_reason", "length")]);
        let answer = read_detected(fixture!("openai-chat-stream-truncated.sse"));
        assert_eq!(answer.text, truncated);
        assert_eq!(
            answer.warnings,
            [cut_off_warning("finish_reason", "length")]
        );
        assert_eq!(answer.usage, usage(389, 32));
        let answer = read_detected(fixture!("anthropic-max-tokens.json"));
        assert_eq!(
            answer.text,
            "According to the documents, the Eiffel Tower is 330 metres (1,083 ft) tall. It was completed in"
        );
        assert_eq!(answer.citations.len(), 1);
        assert_eq!(
            answer.warnings,
            [cut_off_warning("stop_reason", "max_tokens")]
        );

        let openai = r#"{"choices": [{"index": 0, "message": {"role": "assistant", "content": "The"}, "finish_reason": "length"}]}"#;
        assert_eq!(
            read_detected(openai).warnings,
            [cut_off_warning("finish_reason", "length")]
        );
        let responses = r#"{"object": "response", "status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"},
            "output": [{"type": "message", "content": [{"type": "output_text", "text": "The"}]}],
            "usage": {"input_tokens": 3, "output_tokens": 1}}"#;
        let answer = read_detected(responses);
        assert_eq!(
            answer.warnings,
            [cut_off_warning(
                "incomplete_details.reason",
                "max_output_tokens"
            )]
        );
        assert_eq!(answer.usage, usage(3, 1));
        let filtered = r#"{"object": "response", "status": "incomplete", "incomplete_details": {"reason": "content_filter"}, "output": []}"#;
        assert!(read_detected(filtered).warnings.is_empty());
        let cohere = r#"{"finish_reason": "MAX_TOKENS", "message": {"content": [{"type": "text", "text": "The"}]}}"#;
        assert_eq!(
            read_detected(cohere).warnings,
            [cut_off_warning("finish_reason", "MAX_TOKENS")]
        );
        let gemini = r#"{"candidates": [{"content": {"parts": [{"text": "The"}]}, "finishReason": "MAX_TOKENS"}]}"#;
        assert_eq!(
            read_detected(gemini).warnings,
            [cut_off_warning("finishReason", "MAX_TOKENS")]
        );
        let anthropic = r#"{"type": "message", "content": [{"type": "text", "text": "The"}], "stop_reason": "model_context_window_exceeded"}"#;
        assert_eq!(
            read_detected(anthropic).warnings,
            [cut_off_warning(
                "stop_reason",
                "model_context_window_exceeded"
            )]
        );
    }

    #[test]
    fn an_error_inside_the_stream_keeps_what_came_before() {
        let answer = read_detected(fixture!("ollama-stream-error.ndjson"));
        assert_eq!(answer.text, "The Eiffel Tower is 330 metres tall [1].");
        assert_eq!(
            answer.warnings,
            [
                "the stream carried an error: an error was encountered while running the model: unexpected EOF",
                "the stream ended before its final message",
            ]
        );
        let sse = "data: {\"choices\": [{\"index\": 0, \"delta\": {\"content\": \"The tower\"}}]}\n\n\
                   data: {\"error\": {\"message\": \"The server had an error\", \"type\": \"server_error\"}}\n\n\
                   data: [DONE]\n";
        let answer = read_detected(sse);
        assert_eq!(answer.text, "The tower");
        assert_eq!(
            answer.warnings,
            ["the stream carried an error: The server had an error"]
        );
        // A stream that carried nothing but the error is the error.
        let (line, message) = read_error(
            "{\"error\": \"model requires more system memory\"}\n",
            AnswerFormat::Ollama,
        );
        assert_eq!(
            (line, message.as_str()),
            (
                None,
                "the response is an error: model requires more system memory"
            )
        );
    }

    #[test]
    fn a_stream_that_ended_early() {
        let ndjson: Vec<&str> = fixture!("ollama-chat-stream.ndjson").lines().collect();
        let answer = read_as(&ndjson[..ndjson.len() - 1].join("\n"), AnswerFormat::Ollama);
        assert_eq!(
            answer.warnings,
            ["the stream ended before its final message"]
        );
        assert!(answer.usage.is_none());
        // Even the first line alone.
        assert_eq!(
            read_as(ndjson[0], AnswerFormat::Ollama).warnings,
            ["the stream ended before its final message"]
        );

        let sse = fixture!("openai-chat-stream.sse");
        let cut = &sse[..sse.find("\"content\":\" Fair [2].\"").unwrap_or(0)];
        let cut = &cut[..cut.rfind("\n\n").map_or(0, |k| k + 2)];
        let answer = read_as(cut, AnswerFormat::Openai);
        assert!(MARKED.starts_with(&answer.text) && !answer.text.is_empty());
        assert_eq!(
            answer.warnings,
            ["the stream ended before its final message"]
        );

        for (fixture, format) in [
            (
                fixture!("openai-responses-stream.sse"),
                AnswerFormat::OpenaiResponses,
            ),
            (fixture!("anthropic-stream.sse"), AnswerFormat::Anthropic),
            (fixture!("cohere-stream.sse"), AnswerFormat::Cohere),
            (fixture!("gemini-stream.sse"), AnswerFormat::Gemini),
        ] {
            let lines: Vec<&str> = fixture.lines().collect();
            let cut = lines[..lines.len() - 3].join("\n");
            let answer = read_as(&cut, format);
            assert!(!answer.text.is_empty(), "{format:?}");
            assert_eq!(
                answer.warnings,
                ["the stream ended before its final message"],
                "{format:?}"
            );
        }
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

    // ---- Errors

    #[test]
    fn invalid_json_names_its_line() {
        let (line, message) = read_error(
            fixture!("ollama-stream-bad-line.ndjson"),
            AnswerFormat::Ollama,
        );
        assert_eq!(line, Some(3));
        assert_eq!(message, "invalid JSON: expected ident (column 125)");
        let err = read(
            fixture!("ollama-stream-bad-line.ndjson"),
            AnswerFormat::Ollama,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 3: invalid JSON: expected ident (column 125)"
        );
        // In SSE the column counts the `data: ` before the JSON.
        let sse = ": comment\n\ndata: {\"choices\": [}\n\n";
        let (line, message) = read_error(sse, AnswerFormat::Openai);
        assert_eq!(
            (line, message.as_str()),
            (Some(3), "invalid JSON: expected value (column 20)")
        );
        let (line, message) = read_error("{\n  \"answer\": \"x\",\n}", AnswerFormat::CitationList);
        assert_eq!(
            (line, message.as_str()),
            (Some(3), "invalid JSON: trailing comma (column 1)")
        );
    }

    #[test]
    fn an_empty_stream_is_an_error() {
        for (text, format) in [
            (fixture!("openai-stream-empty.sse"), AnswerFormat::Openai),
            (": keep-alive\n\n", AnswerFormat::Openai),
            ("event: ping\n\n", AnswerFormat::OpenaiResponses),
            ("data: [DONE]\n", AnswerFormat::Anthropic),
            ("data: [DONE]\n", AnswerFormat::Gemini),
            ("\n\n", AnswerFormat::Ollama),
        ] {
            assert_eq!(
                read_error(text, format),
                (None, "the stream is empty".to_string()),
                "{text:?}"
            );
        }
    }

    #[test]
    fn a_field_of_the_wrong_type_names_its_path() {
        for (text, format, line, expected) in [
            (
                "{\"model\": \"m\", \"message\": {\"content\": \"a\"}, \"done\": false}\n{\"model\": \"m\", \"message\": {\"content\": 3}, \"done\": false}\n",
                AnswerFormat::Ollama,
                Some(2),
                "`message.content` is a number; expected a string",
            ),
            (
                r#"{"model": "m", "response": ["a"], "done": true}"#,
                AnswerFormat::Ollama,
                None,
                "`response` is an array; expected a string",
            ),
            (
                r#"{"model": "m", "response": "a", "done": "yes"}"#,
                AnswerFormat::Ollama,
                None,
                "`done` is a string; expected a boolean",
            ),
            (
                r#"{"choices": [{"message": {"content": 42}}]}"#,
                AnswerFormat::Openai,
                None,
                "`choices[0].message.content` is a number; expected a string",
            ),
            (
                r#"{"choices": {}}"#,
                AnswerFormat::Openai,
                None,
                "`choices` is an object; expected an array",
            ),
            (
                r#"{"id": "x"}"#,
                AnswerFormat::Openai,
                None,
                "`choices` is missing; expected an array",
            ),
            (
                "data: {\"choices\": [{\"index\": 0, \"delta\": {\"content\": true}}]}\n",
                AnswerFormat::Openai,
                Some(1),
                "`choices[0].delta.content` is a boolean; expected a string",
            ),
            (
                r#"{"choices": [], "usage": {"prompt_tokens": "12"}}"#,
                AnswerFormat::Openai,
                None,
                "`usage.prompt_tokens` is a string; expected a number",
            ),
            (
                r#"{"object": "response", "output": [{"type": "message", "content": [{"type": "output_text", "text": {}}]}]}"#,
                AnswerFormat::OpenaiResponses,
                None,
                "`output[0].content[0].text` is an object; expected a string",
            ),
            (
                r#"{"type": "message", "content": [{"type": "text", "text": 5}]}"#,
                AnswerFormat::Anthropic,
                None,
                "`content[0].text` is a number; expected a string",
            ),
            (
                r#"{"type": "message", "content": [{"type": "text", "text": "a", "citations": [{"type": "char_location", "document_index": "0"}]}]}"#,
                AnswerFormat::Anthropic,
                None,
                "`content[0].citations[0].document_index` is a string; expected a number",
            ),
            (
                r#"{"message": {"content": [{"type": "text", "text": "a"}], "citations": [{"start": "0", "end": 1}]}}"#,
                AnswerFormat::Cohere,
                None,
                "`message.citations[0].start` is a string; expected a number",
            ),
            (
                r#"{"candidates": [{"content": {"parts": {"text": "a"}}}]}"#,
                AnswerFormat::Gemini,
                None,
                "`candidates[0].content.parts` is an object; expected an array",
            ),
            (
                r#"{"answer": 12}"#,
                AnswerFormat::CitationList,
                None,
                "`answer` is a number; expected a string",
            ),
            (
                r#"{"answer": "a", "citations": {"source": 1}}"#,
                AnswerFormat::CitationList,
                None,
                "`citations` is an object; expected an array",
            ),
            (
                r#"{"citations": []}"#,
                AnswerFormat::CitationList,
                None,
                "`answer` is missing; expected a string",
            ),
            (
                "{\"answer\": \"a\"}\n{\"answer\": \"b\"}",
                AnswerFormat::CitationList,
                Some(2),
                "expected one JSON response; found another JSON value after it",
            ),
            (
                "[1, 2]",
                AnswerFormat::Anthropic,
                Some(1),
                "expected a JSON object, found an array",
            ),
        ] {
            assert_eq!(
                read_error(text, format),
                (line, expected.to_string()),
                "{text}"
            );
        }
    }

    #[test]
    fn no_text_is_not_an_error() {
        for (text, format) in [
            (
                r#"{"choices": [{"message": {"role": "assistant", "content": null, "refusal": "I can't help."}, "finish_reason": "stop"}]}"#,
                AnswerFormat::Openai,
            ),
            (r#"{"choices": []}"#, AnswerFormat::Openai),
            (
                r#"{"model": "m", "message": {"role": "assistant", "content": ""}, "done": true}"#,
                AnswerFormat::Ollama,
            ),
            (
                r#"{"promptFeedback": {"blockReason": "SAFETY"}, "usageMetadata": {"promptTokenCount": 9}}"#,
                AnswerFormat::Gemini,
            ),
            (
                r#"{"type": "message", "content": []}"#,
                AnswerFormat::Anthropic,
            ),
            (
                r#"{"finish_reason": "TOOL_CALL", "message": {"tool_plan": "p", "tool_calls": []}}"#,
                AnswerFormat::Cohere,
            ),
        ] {
            assert_eq!(detect(text), format, "{text}");
            let answer = read_as(text, format);
            assert_eq!(answer.text, "", "{text}");
        }
        // Recognised only with a string `answer`, but read when the format is given.
        assert_eq!(
            read_as(r#"{"answer": null}"#, AnswerFormat::CitationList).text,
            ""
        );
    }

    #[test]
    fn chat_content_as_an_array_of_parts() {
        let text = r#"{"choices": [{"message": {"role": "assistant", "content": [
            {"type": "thinking", "thinking": [{"type": "text", "text": "hmm"}]},
            {"type": "text", "text": "The tower "}, {"type": "text", "text": "is tall [1]."}]}}]}"#;
        assert_eq!(read_detected(text).text, "The tower is tall [1].");
    }

    // ---- Offsets

    #[test]
    fn byte_spans_are_clamped_onto_character_boundaries() {
        let text = "aé€😀z"; // a(1) é(2) €(3) 😀(4) z(1): bytes 0, 1, 3, 6, 10, 11
        assert_eq!(byte_span(text, 0, 11), Some(0..11));
        assert_eq!(byte_span(text, 1, 3), Some(1..3));
        // Inside a character: the start moves back, the end forward.
        assert_eq!(byte_span(text, 2, 4), Some(1..6));
        assert_eq!(byte_span(text, 7, 8), Some(6..10));
        // Past the end: clamped, or nothing left.
        assert_eq!(byte_span(text, 10, 500), Some(10..11));
        assert_eq!(byte_span(text, 11, 500), None);
        assert_eq!(byte_span(text, 40, 500), None);
        assert_eq!(byte_span(text, u64::MAX, u64::MAX), None);
        // Empty or backwards.
        assert_eq!(byte_span(text, 3, 3), None);
        assert_eq!(byte_span(text, 6, 3), None);
        assert_eq!(byte_span("", 0, 5), None);
    }

    #[test]
    fn character_offsets_become_byte_offsets() {
        let text = "é€😀 tall";
        let starts = char_starts(text);
        assert_eq!(starts, [0, 2, 5, 9, 10, 11, 12, 13, 14]);
        let whole = 0..8;
        assert_eq!(char_span(&starts, &whole, 1, 3), Some(2..9));
        assert_eq!(&text[2..9], "€😀");
        assert_eq!(char_span(&starts, &whole, 4, 99), Some(10..14));
        assert_eq!(char_span(&starts, &whole, 8, 99), None);
        assert_eq!(char_span(&starts, &whole, 5, 2), None);
        // Counted from an item that starts at character 3, and kept inside it.
        assert_eq!(char_span(&starts, &(3..5), 0, 9), Some(9..11));
    }

    #[test]
    fn cohere_offsets_past_the_end_are_clamped_or_dropped() {
        let text = r#"{"message": {"content": [{"type": "text", "text": "Paris — 330 m"}], "citations": [
            {"start": 8, "end": 400, "sources": [{"type": "document", "id": "a"}]},
            {"start": 400, "end": 500, "sources": [{"type": "document", "id": "b"}]},
            {"start": 1e30, "end": 1e31, "sources": [{"type": "document", "id": "c"}]},
            {"start": -3, "end": 5, "sources": [{"type": "document", "id": "d"}]},
            {"start": 2, "end": 5, "content_index": 7, "sources": [{"type": "document", "id": "e"}]}]}}"#;
        let answer = read_as(text, AnswerFormat::Cohere);
        assert_eq!(
            cited(&answer),
            [(
                Some("330 m"),
                CitationTarget::IdOrPosition("a".to_string()),
                None
            )]
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

    // ---- Robustness

    #[test]
    fn no_input_makes_it_panic() {
        // Every fixture cut short at many places, read as every format: errors, never panics.
        for (name, text, _) in FIXTURES {
            // About 200 cuts each keep the test fast; the step varies, so cuts land everywhere.
            let cuts = text
                .char_indices()
                .map(|(at, _)| at)
                .step_by(text.len() / 200 + 1);
            for cut in cuts.chain([text.len()]) {
                let prefix = &text[..cut];
                let _ = detect(prefix);
                for format in AnswerFormat::ALL {
                    let result = std::panic::catch_unwind(|| read(prefix, format));
                    assert!(result.is_ok(), "{name} cut at {cut} read as {format:?}");
                }
            }
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = format!("{{\"answer\": {}", "[".repeat(100_000));
        assert_eq!(detect(&deep), AnswerFormat::CitationList);
        assert!(matches!(
            read(&deep, AnswerFormat::CitationList),
            Err(InputError::Response { line: Some(1), .. })
        ));
        let deep_sse = format!("data: {}\n", "[".repeat(100_000));
        assert!(read(&deep_sse, AnswerFormat::Openai).is_err());
    }

    #[test]
    fn text_format_is_kept_as_given() {
        let answer = read_as("  The tower [1].\n", AnswerFormat::Text);
        assert_eq!(answer.text, "  The tower [1].\n");
        assert_eq!(answer.format, AnswerFormat::Text);
    }

    #[test]
    fn through_read_answer() {
        let answer = crate::input::read_answer(fixture!("anthropic.json").as_bytes(), None)
            .unwrap_or_default();
        assert_eq!(answer.format, AnswerFormat::Anthropic);
        assert_eq!(answer.citations.len(), 3);
        let answer = crate::input::read_answer(b"[1] The tower is tall.", None).unwrap_or_default();
        assert_eq!(answer.format, AnswerFormat::Text);
    }
}
