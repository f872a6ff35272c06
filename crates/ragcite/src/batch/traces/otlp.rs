//! OTLP JSON as a trace export: `TracesData` objects (`{"resourceSpans": [...]}`, one per line
//! as the OpenTelemetry Collector's file exporter writes them, or one OTLP/HTTP request body)
//! and `ResourceSpans` elements (`{"resource", "scopeSpans"}`), their spans in
//! `scopeSpans[].spans[]` (OTLP/JSON encoding of the `opentelemetry.proto.trace.v1` messages:
//! hex `traceId`, `spanId`, `parentSpanId`; `attributes` as `[{key, value: {stringValue |
//! intValue | doubleValue | boolValue | arrayValue | kvlistValue}}]`, `intValue` a decimal
//! string or, from JavaScript encoders, a number).
//!
//! Spans with OpenInference attributes (`openinference.span.kind`) are read as the OpenInference
//! spans of the parent module. Spans with the OTel GenAI semantic conventions
//! (`gen_ai.operation.name`): the root's question is the first user message of
//! `gen_ai.input.messages` and its answer the first assistant message of
//! `gen_ai.output.messages` (JSON strings of `{role, parts: [{type, content}]}`); the contexts
//! are the `gen_ai.retrieval.documents` (`[{id, score, content}]`) of `retrieval` spans; a
//! `chat` or `text_completion` span's output messages are the answer when the root has none.

use serde_json::{Map, Value, json};

use super::{Export, Piece, id_string};

/// Whether a record is OTLP JSON.
pub(super) fn export_of(item: &Map<String, Value>) -> Option<Export> {
    let spans = |key: &str| item.get(key).is_some_and(Value::is_array);
    (spans("resourceSpans") || spans("scopeSpans")).then_some(Export::Otlp)
}

/// The pieces of every span of a `TracesData` or `ResourceSpans` record; `None` when a span
/// has no trace id.
pub(super) fn pieces(item: &Map<String, Value>) -> Option<Vec<Piece>> {
    let resources: Vec<&Map<String, Value>> = match item.get("resourceSpans") {
        Some(Value::Array(list)) => list.iter().filter_map(Value::as_object).collect(),
        _ if item.get("scopeSpans").is_some_and(Value::is_array) => vec![item],
        // Not OTLP: a record of another kind in the middle of the export.
        _ => return None,
    };
    let mut pieces = Vec::new();
    for resource in resources {
        let scopes = resource
            .get("scopeSpans")
            .or_else(|| resource.get("instrumentationLibrarySpans"))
            .and_then(Value::as_array);
        for scope in scopes.into_iter().flatten() {
            let spans = scope.get("spans").and_then(Value::as_array);
            for span in spans.into_iter().flatten() {
                pieces.push(piece(span.as_object()?)?);
            }
        }
    }
    Some(pieces)
}

/// An OTLP attribute value as plain JSON.
fn any_value(value: &Value) -> Value {
    let Some(object) = value.as_object() else {
        return value.clone();
    };
    if let Some(v) = object
        .get("stringValue")
        .or_else(|| object.get("bytesValue"))
    {
        return v.clone();
    }
    if let Some(v) = object.get("intValue") {
        return match v {
            Value::String(s) => s.parse::<i64>().map_or_else(|_| v.clone(), Value::from),
            other => other.clone(),
        };
    }
    if let Some(v) = object
        .get("doubleValue")
        .or_else(|| object.get("boolValue"))
    {
        return v.clone();
    }
    if let Some(array) = object.get("arrayValue") {
        let values = array.get("values").and_then(Value::as_array);
        return Value::Array(values.into_iter().flatten().map(any_value).collect());
    }
    if let Some(list) = object.get("kvlistValue") {
        return Value::Object(attributes(list.get("values")));
    }
    Value::Null
}

/// A list of `{key, value}` as an object of flattened keys.
fn attributes(list: Option<&Value>) -> Map<String, Value> {
    list.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|kv| {
            let key = kv.get("key")?.as_str()?;
            Some((key.to_string(), any_value(kv.get("value")?)))
        })
        .collect()
}

fn piece(span: &Map<String, Value>) -> Option<Piece> {
    let trace = id_string(span.get("traceId"))?;
    let id = id_string(span.get("spanId"));
    let parent = id_string(span.get("parentSpanId"));
    let attributes = attributes(span.get("attributes"));
    if attributes.contains_key("openinference.span.kind") {
        let span = json!({
            "name": span.get("name"),
            "context": {"trace_id": trace, "span_id": id},
            "parent_id": parent,
            "attributes": attributes,
        });
        return Piece::of_span(span.as_object()?);
    }
    let mut piece = Piece::new(trace, parent.is_none());
    piece.span = id;
    piece.parent = parent;
    let get = |key: &str| attributes.get(key);
    if piece.is_root {
        piece.question = messages_text(get("gen_ai.input.messages"), "user");
        piece.answer = messages_text(get("gen_ai.output.messages"), "assistant");
    }
    match get("gen_ai.operation.name").and_then(Value::as_str) {
        Some("retrieval") => {
            piece.documents = Some(match decoded(get("gen_ai.retrieval.documents")) {
                Some(Value::Array(list)) => list,
                _ => Vec::new(),
            });
        }
        Some("chat" | "text_completion" | "generate_content") => {
            piece.generated = messages_text(get("gen_ai.output.messages"), "assistant");
        }
        _ => {}
    }
    Some(piece)
}

/// A JSON string decoded; any other value as it is.
fn decoded(value: Option<&Value>) -> Option<Value> {
    match value? {
        Value::String(text) => serde_json::from_str(text).ok(),
        other => Some(other.clone()),
    }
}

/// The text of the first message of `role` (else of the first message): its text parts
/// joined, or its `content` when that is a string.
fn messages_text(value: Option<&Value>, role: &str) -> Option<String> {
    let Value::Array(messages) = decoded(value)? else {
        return None;
    };
    let message = messages
        .iter()
        .find(|m| m.get("role").and_then(Value::as_str) == Some(role))
        .or_else(|| messages.first())?;
    if let Some(Value::String(text)) = message.get("content") {
        return Some(text.clone());
    }
    let parts = message.get("parts")?.as_array()?;
    let texts: Vec<&str> = parts
        .iter()
        .filter(|p| {
            p.get("type")
                .and_then(Value::as_str)
                .is_none_or(|t| t == "text")
        })
        .filter_map(|p| p.get("content")?.as_str())
        .collect();
    (!texts.is_empty()).then(|| texts.join(""))
}
