//! JSON plumbing shared by the providers: the JSON values of a response (one object, NDJSON,
//! or the payloads of server-sent events), the errors that name a line and a field's path, and
//! typed access to fields.

use std::fmt::Display;

use serde_json::{Map, Value};

use crate::input::InputError;
use crate::input::json_kind;

/// The payload that ends an OpenAI chat completion stream.
pub(super) const DONE: &str = "[DONE]";

/// Whether the input opens like a server-sent event stream.
pub(crate) fn is_sse(start: &str) -> bool {
    start.starts_with("data:") || start.starts_with("event:") || start.starts_with(':')
}

/// One JSON value of the input and the 1-based line it starts on.
pub(super) struct Located {
    pub line: usize,
    pub value: Value,
}

/// The JSON values of a response: one object, NDJSON lines, or the payloads of `data:` lines.
pub(super) struct Values {
    pub items: Vec<Located>,
    pub sse: bool,
    /// The stream ended with `data: [DONE]`.
    pub done_marker: bool,
}

pub(super) fn values_of(text: &str) -> Result<Values, InputError> {
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
pub(super) fn json_values(text: &str) -> Result<Vec<Located>, InputError> {
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
pub(super) fn sse_values(text: &str) -> Result<Values, InputError> {
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

pub(super) fn invalid_json(e: &serde_json::Error, line: usize, column_shift: usize) -> InputError {
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

pub(super) fn empty_stream() -> InputError {
    InputError::Response {
        line: None,
        message: "the stream is empty".to_string(),
    }
}

pub(super) fn is_an_error(line: Option<usize>, message: &str) -> InputError {
    InputError::Response {
        line,
        message: format!("the response is an error: {message}"),
    }
}

pub(super) fn not_a_stream_of(what: &str, hint: &str) -> InputError {
    InputError::Response {
        line: None,
        message: format!("{hint}: this is not {what}"),
    }
}

pub(super) fn object_of(item: &Located) -> Result<&Map<String, Value>, InputError> {
    item.value.as_object().ok_or_else(|| InputError::Response {
        line: Some(item.line),
        message: format!("expected a JSON object, found {}", json_kind(&item.value)),
    })
}

/// The one JSON object of a format that has no streamed form (Bedrock, the frameworks' outputs,
/// the citation list); an error body is the provider's error.
pub(super) fn single_object(text: &str) -> Result<Map<String, Value>, InputError> {
    let mut items = json_values(text)?.into_iter();
    let (Some(item), second) = (items.next(), items.next()) else {
        return Err(empty_stream());
    };
    if let Some(second) = second {
        return Err(InputError::Response {
            line: Some(second.line),
            message: "expected one JSON response; found another JSON value after it".to_string(),
        });
    }
    object_of(&item)?;
    let Value::Object(object) = item.value else {
        return Err(empty_stream());
    };
    match error_message(&object) {
        Some(message) => Err(is_an_error(None, &message)),
        None => Ok(object),
    }
}

/// The message of an error a provider sent instead of (or within) its answer:
/// `{"error": "..."}` (Ollama), `{"error": {"message": ...}}` (OpenAI, Gemini, Anthropic),
/// `{"type": "error", "message": ...}` (OpenAI Responses stream).
pub(super) fn error_message(object: &Map<String, Value>) -> Option<String> {
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

// Typed access to fields. A field of the wrong JSON type is an error naming its path; null is
// read like an absent field, as the providers' SDKs do.

/// A field whose JSON type is not the one the format gives it.
pub(super) struct WrongType {
    found: &'static str,
    expected: &'static str,
}

impl WrongType {
    pub fn at(self, line: Option<usize>, path: impl Display) -> InputError {
        InputError::Response {
            line,
            message: format!("`{path}` is {}; expected {}", self.found, self.expected),
        }
    }
}

pub(super) fn wrong(value: &Value, expected: &'static str) -> WrongType {
    WrongType {
        found: json_kind(value),
        expected,
    }
}

pub(super) fn opt_str(value: Option<&Value>) -> Result<Option<&str>, WrongType> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(wrong(other, "a string")),
    }
}

pub(super) fn opt_object(value: Option<&Value>) -> Result<Option<&Map<String, Value>>, WrongType> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(object)) => Ok(Some(object)),
        Some(other) => Err(wrong(other, "an object")),
    }
}

/// An array field; absent or null is empty.
pub(super) fn opt_array(value: Option<&Value>) -> Result<&[Value], WrongType> {
    match value {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(items)) => Ok(items),
        Some(other) => Err(wrong(other, "an array")),
    }
}

/// A count, index or offset: a non-negative whole number (`12.0` too: Cohere's SDK types its
/// token counts as floats). Any other number is `None`, like an absent field, so that what
/// depends on it is dropped or clamped rather than the whole answer refused.
pub(super) fn opt_whole(value: Option<&Value>) -> Result<Option<u64>, WrongType> {
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

pub(super) fn is_present(object: &Map<String, Value>, key: &str) -> bool {
    object.get(key).is_some_and(|v| !v.is_null())
}

pub(super) fn type_of(value: &Value) -> Option<&str> {
    value.get("type").and_then(Value::as_str)
}

/// `Value::pointer` for an object: the value at `/key/rest...`.
pub(super) fn pointer<'a>(object: &'a Map<String, Value>, path: &str) -> Option<&'a Value> {
    let path = path.strip_prefix('/')?;
    match path.split_once('/') {
        None => object.get(path),
        Some((key, rest)) => object.get(key)?.pointer(&format!("/{rest}")),
    }
}
