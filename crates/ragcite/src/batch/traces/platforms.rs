//! The exports of LLM tracing platforms, as spans of their traces:
//!
//! - Opik spans (the `spans` of its REST API and SDK: `id`, `trace_id`, `parent_span_id`
//!   absent on the root, `type` of `general`, `llm`, `tool` or `guardrail`, `input`, `output`):
//!   the root's `input.question` and `output.output`; the contexts are the documents a span
//!   outputs (Opik has no retriever type: a list of objects with a text field, in `output`,
//!   `output.output` or `output.documents`).
//! - Braintrust rows (experiment and log rows: `span_id`, `root_span_id` (the trace),
//!   `span_parents`, `is_root`, `span_attributes.{type, name}`, `input`, `output`): the root
//!   row's `input` and `output`; the contexts are the documents a row outputs. A row's
//!   `context` is where it was called from, never retrieved contexts; `score` rows are skipped.
//! - Langfuse observations (`id`, `traceId`, `parentObservationId`, `type` of `SPAN`,
//!   `GENERATION`, `RETRIEVER`, ...), one per record, and Langfuse trace bodies
//!   (`GET /api/public/traces/{id}`: the trace's `input` and `output` with its
//!   `observations[]`), one whole trace per record: the contexts are the output of `RETRIEVER`
//!   observations (or the documents another observation outputs).
//! - MLflow traces (`{"info": {"trace_id"}, "data": {"spans": [...]}}`, as `search_traces`
//!   and the trace JSON give them, or MLflow 2's `info.request_id` with spans linked by
//!   `context.span_id` and `parent_id`; each attribute value a JSON-encoded string): the root
//!   span's `mlflow.spanInputs` and `mlflow.spanOutputs`; the contexts are the
//!   `mlflow.spanOutputs` of `RETRIEVER` spans (`[{page_content, metadata, id}]`), one whole
//!   trace per record.

use serde_json::{Map, Value};

use super::{Export, Piece, answer_of, id_string};
use crate::input::chunks::TEXT_FIELDS;

/// Which platform export a record is from, when it is one.
pub(super) fn export_of(item: &Map<String, Value>) -> Option<Export> {
    let info = item.get("info").and_then(Value::as_object);
    let has_spans = item
        .get("data")
        .and_then(|d| d.get("spans"))
        .is_some_and(Value::is_array);
    if has_spans && info.is_some_and(|i| i.contains_key("trace_id") || i.contains_key("request_id"))
    {
        return Some(Export::Mlflow);
    }
    if item.get("observations").is_some_and(Value::is_array) && item.contains_key("id") {
        return Some(Export::LangfuseTrace);
    }
    if item.contains_key("traceId") && item.contains_key("parentObservationId") {
        return Some(Export::LangfuseObservations);
    }
    if item.contains_key("root_span_id") && item.contains_key("span_id") {
        return Some(Export::Braintrust);
    }
    let opik_type = matches!(
        item.get("type").and_then(Value::as_str),
        Some("general" | "llm" | "tool" | "guardrail")
    );
    (item.contains_key("trace_id") && opik_type && item.contains_key("id")).then_some(Export::Opik)
}

/// The question an input holds: the text, or its `question` (`query`, `input`, `user_input`,
/// `args[0]`).
fn question_of(input: Option<&Value>) -> Option<String> {
    match input? {
        Value::String(text) => match serde_json::from_str::<Value>(text) {
            Ok(value @ Value::Object(_)) => question_of(Some(&value)),
            _ => Some(text.clone()),
        },
        Value::Object(object) => ["question", "query", "input", "user_input"]
            .iter()
            .find_map(|k| match object.get(*k)? {
                Value::String(text) => Some(text.clone()),
                nested @ Value::Object(_) => question_of(Some(nested)),
                _ => None,
            })
            .or_else(|| question_of(object.get("args")?.get(0))),
        _ => None,
    }
}

/// The retrieved documents an output holds: a non-empty list of objects that all have a text
/// field, itself or under `output` or `documents`.
fn documents_in(output: Option<&Value>) -> Option<Vec<Value>> {
    let output = output?;
    let list = match output {
        Value::Array(list) => list,
        Value::Object(object) => {
            return ["output", "documents"]
                .iter()
                .find_map(|k| documents_in(object.get(*k)));
        }
        _ => return None,
    };
    let documents = !list.is_empty()
        && list.iter().all(|item| {
            item.as_object().is_some_and(|o| {
                TEXT_FIELDS
                    .iter()
                    .any(|k| o.get(*k).is_some_and(Value::is_string))
            })
        });
    documents.then(|| list.clone())
}

/// An Opik span.
pub(super) fn opik(span: &Map<String, Value>) -> Option<Piece> {
    let trace = id_string(span.get("trace_id"))?;
    let parent = id_string(span.get("parent_span_id"));
    let mut piece = Piece::new(trace, parent.is_none());
    piece.span = id_string(span.get("id"));
    piece.parent = parent;
    let output = span.get("output");
    if piece.is_root {
        piece.question = question_of(span.get("input"));
        piece.answer = output.and_then(answer_of);
    }
    if let Some(documents) = documents_in(output) {
        piece.documents = Some(documents);
    } else if span.get("type").and_then(Value::as_str) == Some("llm") {
        piece.generated = output.and_then(answer_of);
    }
    Some(piece)
}

/// A Braintrust row.
pub(super) fn braintrust(row: &Map<String, Value>) -> Option<Piece> {
    let trace = id_string(row.get("root_span_id"))?;
    let parent = id_string(
        row.get("span_parents")
            .and_then(Value::as_array)
            .and_then(|p| p.first()),
    );
    let is_root = row
        .get("is_root")
        .and_then(Value::as_bool)
        .unwrap_or(parent.is_none());
    let mut piece = Piece::new(trace, is_root);
    piece.span = id_string(row.get("span_id"));
    piece.parent = parent.filter(|_| !is_root);
    let attributes = row.get("span_attributes");
    let kind = attributes
        .and_then(|a| a.get("type"))
        .and_then(Value::as_str);
    if kind == Some("score") {
        return Some(piece);
    }
    let output = row.get("output");
    if is_root {
        piece.question = question_of(row.get("input"));
        piece.answer = output.and_then(answer_of);
    } else if let Some(documents) = documents_in(output) {
        piece.documents = Some(documents);
    } else if kind == Some("llm") {
        piece.generated = output.and_then(answer_of);
    }
    Some(piece)
}

/// A Langfuse observation.
pub(super) fn langfuse_observation(observation: &Map<String, Value>) -> Option<Piece> {
    let trace = id_string(observation.get("traceId"))?;
    observation_piece(trace, observation)
}

fn observation_piece(trace: String, observation: &Map<String, Value>) -> Option<Piece> {
    let parent = id_string(observation.get("parentObservationId"));
    let mut piece = Piece::new(trace, parent.is_none());
    piece.span = id_string(observation.get("id"));
    piece.parent = parent;
    let output = observation.get("output");
    if piece.is_root {
        piece.question = question_of(observation.get("input"));
        piece.answer = output.and_then(answer_of);
    }
    let kind = observation.get("type").and_then(Value::as_str);
    if let Some(documents) = documents_in(output) {
        piece.documents = Some(documents);
    } else if kind == Some("RETRIEVER") {
        piece.documents = Some(Vec::new());
    } else if kind == Some("GENERATION") {
        piece.generated = output.and_then(answer_of);
    }
    Some(piece)
}

/// A Langfuse trace body: the trace's own question and answer first, then its observations.
pub(super) fn langfuse_trace(trace: &Map<String, Value>) -> Option<Vec<Piece>> {
    let id = id_string(trace.get("id"))?;
    let mut own = Piece::new(id.clone(), false);
    own.question = question_of(trace.get("input"));
    own.answer = trace.get("output").and_then(answer_of);
    let mut pieces = vec![own];
    for observation in trace.get("observations").and_then(Value::as_array)? {
        pieces.push(observation_piece(id.clone(), observation.as_object()?)?);
    }
    Some(pieces)
}

/// An MLflow attribute: a JSON-encoded string decoded (the text itself when it is no JSON).
fn mlflow_attribute(attributes: Option<&Value>, key: &str) -> Option<Value> {
    match attributes?.get(key)? {
        Value::String(text) => {
            Some(serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.clone())))
        }
        other => Some(other.clone()),
    }
}

/// An MLflow trace: the pieces of its spans.
pub(super) fn mlflow(trace: &Map<String, Value>) -> Option<Vec<Piece>> {
    let info = trace.get("info")?;
    let id = id_string(info.get("trace_id")).or_else(|| id_string(info.get("request_id")))?;
    let spans = trace.get("data")?.get("spans")?.as_array()?;
    let mut pieces = Vec::with_capacity(spans.len());
    for span in spans {
        let attributes = span.get("attributes");
        // MLflow 3 names the links `span_id` and `parent_span_id`; MLflow 2 `context.span_id`
        // and `parent_id`.
        let parent =
            id_string(span.get("parent_span_id")).or_else(|| id_string(span.get("parent_id")));
        let mut piece = Piece::new(id.clone(), parent.is_none());
        piece.span = id_string(span.get("span_id"))
            .or_else(|| id_string(span.get("context").and_then(|c| c.get("span_id"))));
        piece.parent = parent;
        let outputs = mlflow_attribute(attributes, "mlflow.spanOutputs");
        if piece.is_root {
            piece.question =
                question_of(mlflow_attribute(attributes, "mlflow.spanInputs").as_ref());
            piece.answer = outputs.as_ref().and_then(answer_of);
        }
        let kind = mlflow_attribute(attributes, "mlflow.spanType");
        match kind.as_ref().and_then(Value::as_str) {
            Some("RETRIEVER") => {
                piece.documents = Some(documents_in(outputs.as_ref()).unwrap_or_default());
            }
            Some("LLM" | "CHAT_MODEL") => piece.generated = outputs.as_ref().and_then(answer_of),
            _ => {}
        }
        pieces.push(piece);
    }
    Some(pieces)
}
