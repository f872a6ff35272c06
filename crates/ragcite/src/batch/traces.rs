//! Trace exports as transcripts: spans or runs, one per line, that belong to traces, joined into
//! one record per trace.
//!
//! - OpenInference spans (Arize Phoenix, the OpenInference instrumentors): OTel JSON spans
//!   (`context.trace_id`, `parent_id`, `attributes` with flattened keys such as
//!   `retrieval.documents.0.document.content`), the same with nested attributes, or the rows of
//!   Phoenix's spans dataframe (`context.trace_id`, `attributes.retrieval.documents`,
//!   `attributes.output.value`). A trace's contexts are the documents of its RETRIEVER spans; its
//!   answer is the `output.value` of its root span (the `answer` of it when that is JSON), else
//!   of its last LLM span.
//! - LangSmith runs (`trace_id`, `parent_run_id`, `run_type`, `inputs`, `outputs`): the root
//!   run's `outputs` (`answer` and `context`, as `create_retrieval_chain` gives them); failing
//!   those, the documents of its `retriever` runs and the text of its last `llm` run.
//!
//! - The exports of other trace stores and of OTLP, read in `otlp` and `platforms`: OTLP
//!   JSON (the collector's file exporter, an OTLP/HTTP request body) with OpenInference or OTel
//!   GenAI attributes, Opik spans, Braintrust rows, Langfuse observations and trace bodies,
//!   MLflow traces.
//!
//! A trace becomes a record `{id, question, answer, contexts}` as soon as it is complete (its
//! root has come after what it needs, as exporters write spans when they end, and every span
//! seen so far has its parent seen), else at the end of the file; a file of whole traces (an
//! MLflow trace, a Langfuse trace body) gives each trace's record as soon as it is read.
//! Records are numbered in the order they are completed; a trace without an answer or without
//! retrieved documents is a bad record naming its trace id. Spans that come after their trace
//! was completed are dropped, not reported: a child span is never a bad record.
//!
//! Memory: only the pieces a record needs are kept per open trace (its question, answer,
//! retrieved documents, and the ids of its spans and of their parents), at most
//! [`MAX_OPEN_TRACES`] traces are open at once, and they hold at most [`MAX_HELD_BYTES`] in all
//! (`--max-open-traces` and `--max-trace-memory` raise them, [`Records::with_limits`]): past
//! either, the oldest open trace is closed, as at the end of the file, and its record says so
//! when it lacks what the rest of the trace would have given (a bad record that names the
//! limit and the option that raises it); the first span that comes for it after that is a bad
//! record too, when its record was made. A whole trace is bounded by the record limit, and
//! closed when its record ends. The ids of the last [`MAX_OPEN_TRACES`] completed traces are
//! kept to drop their late spans.

mod otlp;
mod platforms;

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

use serde_json::{Map, Value, json};

use super::scan::{RawRecord, RecordScanner, ScanError, Scanned};

/// Most traces open at once; opening one more closes the oldest.
pub const MAX_OPEN_TRACES: usize = 10_000;

/// Most bytes of questions, answers, documents and span ids held for the open traces; past it,
/// the oldest traces are closed.
pub const MAX_HELD_BYTES: usize = 256 << 20;

/// A limit that closed a trace before its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Limit {
    /// So many traces were open at once.
    OpenTraces(usize),
    /// The open traces held so many bytes.
    Memory(usize),
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Limit::OpenTraces(n) => write!(
                f,
                "more than {n} traces were open at once (--max-open-traces raises the limit)"
            ),
            Limit::Memory(bytes) => write!(
                f,
                "the open traces held more than {} (--max-trace-memory raises the limit)",
                super::scan::size_name(*bytes as u64)
            ),
        }
    }
}

/// Which kind of trace export a file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Export {
    OpenInference,
    Langsmith,
    /// OTLP JSON: `TracesData` objects or `ResourceSpans` elements, spans inside.
    Otlp,
    Opik,
    Braintrust,
    /// Langfuse observations, one per record.
    LangfuseObservations,
    /// One whole trace per record: a Langfuse trace body.
    LangfuseTrace,
    /// One whole trace per record: an MLflow trace (`info`, `data.spans`).
    Mlflow,
}

impl Export {
    /// Whether each record is one whole trace, complete once read.
    fn whole(self) -> bool {
        matches!(self, Export::LangfuseTrace | Export::Mlflow)
    }
}

/// The records of a transcript file: the scanner's, or, for a trace export, its traces.
pub struct Records<'a> {
    scanner: Box<dyn Iterator<Item = Result<Scanned, ScanError>> + Send + 'a>,
    /// `None` until the first record says; then whether the file is a trace export.
    export: Option<Option<Export>>,
    /// The open traces by id.
    traces: HashMap<String, Trace>,
    /// The open traces by the order they were opened in: the oldest is closed first.
    by_age: BTreeMap<usize, String>,
    /// The last traces completed, to drop their late spans: the ids, and their order.
    finished: HashSet<String>,
    finished_order: VecDeque<String>,
    /// Traces opened so far: the order in which the open ones are flushed at the end.
    opened: usize,
    /// Bytes held by the open traces ([`Piece::weight`]).
    held: usize,
    /// Most traces open at once, and most bytes they hold ([`MAX_OPEN_TRACES`],
    /// [`MAX_HELD_BYTES`] unless [`Records::with_limits`] says otherwise).
    max_open: usize,
    max_held: usize,
    /// Traces a limit closed whose record was made without the rest of the trace: the first
    /// span of one that comes later is a bad record that says so. Among `finished`.
    closed_early: HashMap<String, Limit>,
    ready: VecDeque<Scanned>,
    ended: bool,
}

impl<'a> Records<'a> {
    pub fn new(scanner: RecordScanner<'a>) -> Self {
        Records::of(scanner)
    }

    /// The records of any source of scanned records (a Giskard report folder).
    pub fn of(source: impl Iterator<Item = Result<Scanned, ScanError>> + Send + 'a) -> Self {
        Records {
            scanner: Box::new(source),
            export: None,
            traces: HashMap::new(),
            by_age: BTreeMap::new(),
            finished: HashSet::new(),
            finished_order: VecDeque::new(),
            opened: 0,
            held: 0,
            max_open: MAX_OPEN_TRACES,
            max_held: MAX_HELD_BYTES,
            closed_early: HashMap::new(),
            ready: VecDeque::new(),
            ended: false,
        }
    }

    /// At most `open_traces` traces open at once, holding at most `bytes` in all (each at
    /// least 1).
    pub fn with_limits(mut self, open_traces: usize, bytes: usize) -> Self {
        self.max_open = open_traces.max(1);
        self.max_held = bytes.max(1);
        self
    }

    /// Takes the spans or runs of one record into their traces; a trace they complete goes to
    /// `ready`.
    fn add(&mut self, export: Export, raw: RawRecord) {
        let Ok(Value::Object(item)) = serde_json::from_slice::<Value>(&raw.bytes) else {
            self.ready.push_back(Scanned::Bad {
                line: raw.line,
                message: "invalid JSON: the span is not a JSON object".to_string(),
            });
            return;
        };
        let pieces = match export {
            Export::OpenInference => Piece::of_span(&item).map(|p| vec![p]),
            Export::Langsmith => Piece::of_run(&item).map(|p| vec![p]),
            Export::Otlp => otlp::pieces(&item),
            Export::Opik => platforms::opik(&item).map(|p| vec![p]),
            Export::Braintrust => platforms::braintrust(&item).map(|p| vec![p]),
            Export::LangfuseObservations => platforms::langfuse_observation(&item).map(|p| vec![p]),
            Export::LangfuseTrace => platforms::langfuse_trace(&item),
            Export::Mlflow => platforms::mlflow(&item),
        };
        let Some(pieces) = pieces else {
            self.ready.push_back(Scanned::Bad {
                line: raw.line,
                message: "no trace id: not a span of the trace export this file starts with"
                    .to_string(),
            });
            return;
        };
        let mut touched = Vec::new();
        for piece in pieces {
            let id = piece.trace.clone();
            // A late span of a completed trace; a whole trace read again is read again.
            if self.finished.contains(&id) && !export.whole() {
                // Once, for a trace a limit closed: its record was made without this span.
                if let Some(limit) = self.closed_early.remove(&id) {
                    self.ready.push_back(Scanned::Bad {
                        line: raw.line,
                        message: format!(
                            "trace {id}: a span came after the trace was closed because {limit}: \
                             its record was made without it, and its later spans are dropped"
                        ),
                    });
                }
                continue;
            }
            if !touched.contains(&id) {
                touched.push(id.clone());
            }
            if !self.traces.contains_key(&id) {
                self.make_room();
                self.opened += 1;
                self.by_age.insert(self.opened, id.clone());
                let trace = Trace::new(id.clone(), raw.line, self.opened);
                self.traces.insert(id.clone(), trace);
            }
            let weight = piece.weight();
            self.held += weight;
            let complete = self.traces.get_mut(&id).is_some_and(|trace| {
                trace.held += weight;
                trace.take(piece, raw.line)
            });
            // A whole trace is closed once all its spans are in, below.
            if complete && !export.whole() {
                self.close(&id);
            }
            while self.held > self.max_held && !export.whole() {
                let Some((_, oldest)) = self.by_age.pop_first() else {
                    break;
                };
                self.close_early(&oldest, Limit::Memory(self.max_held));
            }
        }
        if export.whole() {
            for id in touched {
                self.close(&id);
            }
        }
    }

    /// Closes the oldest open trace when the most traces that may be open are.
    fn make_room(&mut self) {
        if self.traces.len() < self.max_open {
            return;
        }
        if let Some((_, id)) = self.by_age.pop_first() {
            self.close_early(&id, Limit::OpenTraces(self.max_open));
        }
    }

    /// Closes an open trace because of `limit`, before its end.
    fn close_early(&mut self, id: &str, limit: Limit) {
        if let Some(trace) = self.traces.get_mut(id) {
            trace.closed_by = Some(limit);
        }
        self.close(id);
    }

    /// Turns an open trace into its record, and remembers it was completed.
    fn close(&mut self, id: &str) {
        let Some(trace) = self.traces.remove(id) else {
            return;
        };
        self.by_age.remove(&trace.opened);
        self.held = self.held.saturating_sub(trace.held);
        if self.finished_order.len() >= self.max_open
            && let Some(oldest) = self.finished_order.pop_front()
        {
            self.finished.remove(&oldest);
            self.closed_early.remove(&oldest);
        }
        self.finished.insert(id.to_string());
        self.finished_order.push_back(id.to_string());
        let limit = trace.closed_by;
        let record = trace.into_record();
        if let (Some(limit), Scanned::Record(_)) = (limit, &record) {
            self.closed_early.insert(id.to_string(), limit);
        }
        self.ready.push_back(record);
    }
}

impl Iterator for Records<'_> {
    type Item = Result<Scanned, ScanError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(ready) = self.ready.pop_front() {
                return Some(Ok(ready));
            }
            if self.ended {
                return None;
            }
            match self.scanner.next() {
                None => {
                    self.ended = true;
                    let mut open: Vec<Trace> = self.traces.drain().map(|(_, t)| t).collect();
                    self.by_age.clear();
                    self.held = 0;
                    open.sort_by_key(|t| t.opened);
                    self.ready.extend(open.into_iter().map(Trace::into_record));
                }
                Some(Err(e)) => {
                    self.ended = true;
                    return Some(Err(e));
                }
                Some(Ok(Scanned::Record(raw))) => {
                    let export = *self.export.get_or_insert_with(|| export_of(&raw.bytes));
                    match export {
                        Some(export) => self.add(export, raw),
                        None => return Some(Ok(Scanned::Record(raw))),
                    }
                }
                Some(Ok(bad)) => return Some(Ok(bad)),
            }
        }
    }
}

/// What kind of trace export a file is, from its first record.
fn export_of(bytes: &[u8]) -> Option<Export> {
    let Ok(Value::Object(item)) = serde_json::from_slice::<Value>(bytes) else {
        return None;
    };
    if item.contains_key("run_type") && item.contains_key("trace_id") {
        return Some(Export::Langsmith);
    }
    if let Some(export) = otlp::export_of(&item).or_else(|| platforms::export_of(&item)) {
        return Some(export);
    }
    let has_trace = trace_id(&item).is_some();
    let has_kind = attribute(&item, "openinference.span.kind").is_some()
        || item.get("span_kind").is_some_and(Value::is_string);
    (has_trace && has_kind).then_some(Export::OpenInference)
}

fn trace_id(item: &Map<String, Value>) -> Option<String> {
    let id = item
        .get("context")
        .and_then(|c| c.get("trace_id"))
        .or_else(|| item.get("context.trace_id"))
        .or_else(|| item.get("trace_id"))?;
    match id {
        Value::String(id) if !id.is_empty() => Some(id.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// An OpenInference attribute: flattened in `attributes`, a dotted column of a dataframe row, or
/// nested in `attributes`.
fn attribute<'v>(item: &'v Map<String, Value>, key: &str) -> Option<&'v Value> {
    let attributes = item.get("attributes").and_then(Value::as_object);
    attributes
        .and_then(|a| a.get(key))
        .or_else(|| item.get(&format!("attributes.{key}")))
        .or_else(|| {
            key.split('.')
                .try_fold(item.get("attributes")?, |value, part| value.get(part))
        })
        .filter(|v| !v.is_null())
}

/// An id: a non-empty string, or a number.
fn id_string(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn string(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(s) => Some(s.clone()),
        _ => None,
    }
}

/// The answer an output holds: the text, or, for JSON, its `answer` (or `response`, `output`,
/// `result`).
fn answer_of(output: &Value) -> Option<String> {
    const KEYS: [&str; 5] = ["answer", "response", "output", "result", "text"];
    match output {
        Value::String(text) => match serde_json::from_str::<Value>(text) {
            Ok(value @ Value::Object(_)) => answer_of(&value),
            _ => Some(text.clone()),
        },
        Value::Object(object) => KEYS.iter().find_map(|k| match object.get(*k)? {
            Value::String(text) => Some(text.clone()),
            // A chat message: `{"content": ...}`.
            Value::Object(message) => string(message.get("content")),
            _ => None,
        }),
        _ => None,
    }
}

/// What one span or run tells about its trace.
struct Piece {
    trace: String,
    /// The span's own id and its parent's, when the export gives them.
    span: Option<String>,
    parent: Option<String>,
    is_root: bool,
    question: Option<String>,
    /// The root's answer.
    answer: Option<String>,
    /// An LLM span's or run's text, the answer when the root has none.
    generated: Option<String>,
    /// Retrieved documents, as chunk objects.
    documents: Option<Vec<Value>>,
    /// The root run's own contexts (LangSmith `outputs.context`).
    contexts: Option<Value>,
}

impl Piece {
    /// About how many bytes the piece holds once taken into its trace.
    fn weight(&self) -> usize {
        let text = |s: &Option<String>| s.as_ref().map_or(0, String::len);
        let value = |v: &Value| v.to_string().len();
        64 + self.trace.len()
            + text(&self.span)
            + text(&self.parent)
            + text(&self.question)
            + text(&self.answer)
            + text(&self.generated)
            + self.documents.iter().flatten().map(value).sum::<usize>()
            + self.contexts.as_ref().map_or(0, value)
    }

    fn new(trace: String, is_root: bool) -> Piece {
        Piece {
            trace,
            span: None,
            parent: None,
            is_root,
            question: None,
            answer: None,
            generated: None,
            documents: None,
            contexts: None,
        }
    }

    fn of_span(span: &Map<String, Value>) -> Option<Piece> {
        let trace = trace_id(span)?;
        let is_root = span
            .get("parent_id")
            .is_none_or(|p| p.is_null() || p.as_str() == Some(""));
        let kind = string(attribute(span, "openinference.span.kind"))
            .or_else(|| string(span.get("span_kind")))
            .unwrap_or_default()
            .to_ascii_uppercase();
        let output = attribute(span, "output.value");
        let mut piece = Piece::new(trace, is_root);
        piece.question = string(attribute(span, "input.value")).filter(|_| is_root);
        piece.answer = output.filter(|_| is_root).and_then(answer_of);
        piece.span = id_string(span.get("context").and_then(|c| c.get("span_id")))
            .or_else(|| id_string(span.get("context.span_id")));
        piece.parent = id_string(span.get("parent_id"));
        match kind.as_str() {
            "RETRIEVER" => piece.documents = Some(span_documents(span)),
            "LLM" => {
                piece.generated = output
                    .and_then(answer_of)
                    .or_else(|| string(attribute(span, "llm.output_messages.0.message.content")))
            }
            _ => {}
        }
        Some(piece)
    }

    fn of_run(run: &Map<String, Value>) -> Option<Piece> {
        let trace = trace_id(run)?;
        let is_root = run.get("parent_run_id").is_none_or(Value::is_null);
        let outputs = run.get("outputs").and_then(Value::as_object);
        let inputs = run.get("inputs");
        let mut piece = Piece::new(trace, is_root);
        piece.span = id_string(run.get("id"));
        piece.parent = id_string(run.get("parent_run_id"));
        match run.get("run_type").and_then(Value::as_str) {
            _ if is_root => {
                piece.question = inputs
                    .and_then(|i| i.get("input").or_else(|| i.get("question")))
                    .and_then(|q| string(Some(q)));
                piece.answer = outputs.and_then(|o| answer_of(&Value::Object(o.clone())));
                piece.contexts = outputs
                    .and_then(|o| o.get("context").or_else(|| o.get("source_documents")))
                    .cloned();
            }
            Some("retriever") => {
                piece.documents = outputs
                    .and_then(|o| o.get("documents"))
                    .and_then(Value::as_array)
                    .cloned();
            }
            Some("llm") => {
                piece.generated = run
                    .get("outputs")
                    .and_then(|o| o.pointer("/generations/0/0/text"))
                    .and_then(|t| string(Some(t)));
            }
            _ => {}
        }
        Some(piece)
    }
}

/// A RETRIEVER span's documents, as chunk objects `{id, text, metadata}`.
fn span_documents(span: &Map<String, Value>) -> Vec<Value> {
    let document = |content: Option<&Value>, id: Option<&Value>, metadata: Option<&Value>| {
        let metadata = match metadata {
            Some(Value::String(text)) => serde_json::from_str(text).unwrap_or(Value::Null),
            Some(other) => other.clone(),
            None => Value::Null,
        };
        let mut chunk = json!({"text": string(content).unwrap_or_default()});
        if let Some(id) = id.filter(|id| !id.is_null()) {
            chunk["document_id"] = id.clone();
        }
        if metadata.is_object() {
            chunk["metadata"] = metadata;
        }
        chunk
    };
    if let Some(Value::Array(list)) = attribute(span, "retrieval.documents") {
        return list
            .iter()
            .map(|item| {
                let field = |key: &str| {
                    item.get(format!("document.{key}"))
                        .or_else(|| item.get("document")?.get(key))
                };
                document(field("content"), field("id"), field("metadata"))
            })
            .collect();
    }
    (0..)
        .map_while(|n| {
            let field =
                |key: &str| attribute(span, &format!("retrieval.documents.{n}.document.{key}"));
            let content = field("content")?;
            Some(document(Some(content), field("id"), field("metadata")))
        })
        .collect()
}

/// What is known of one trace so far.
struct Trace {
    id: String,
    /// The line of its root, else of its first span.
    line: usize,
    /// How many traces were opened before it, it included: its place at the end.
    opened: usize,
    root_seen: bool,
    /// Bytes its pieces hold ([`Piece::weight`]).
    held: usize,
    /// The limit that closed it before its end, if one did.
    closed_by: Option<Limit>,
    /// Whether the root came while a span's parent had not: the trace then completes when
    /// the last missing parent comes.
    waiting: bool,
    /// Ids of the spans seen, and of the parents not seen yet.
    spans: HashSet<String>,
    missing: HashSet<String>,
    question: Option<String>,
    answer: Option<String>,
    generated: Option<String>,
    documents: Option<Vec<Value>>,
    contexts: Option<Value>,
}

impl Trace {
    fn new(id: String, line: usize, opened: usize) -> Self {
        Trace {
            id,
            line,
            opened,
            root_seen: false,
            held: 0,
            closed_by: None,
            waiting: false,
            spans: HashSet::new(),
            missing: HashSet::new(),
            question: None,
            answer: None,
            generated: None,
            documents: None,
            contexts: None,
        }
    }

    /// Takes a piece; returns whether the trace is now complete (its root came after what the
    /// record needs).
    fn take(&mut self, piece: Piece, line: usize) -> bool {
        if piece.is_root {
            self.root_seen = true;
            self.line = line;
        }
        if let Some(span) = &piece.span {
            self.missing.remove(span);
            self.spans.insert(span.clone());
        }
        if let Some(parent) = piece.parent.as_ref().filter(|_| !piece.is_root)
            && !self.spans.contains(parent)
        {
            self.missing.insert(parent.clone());
        }
        self.question = self.question.take().or(piece.question);
        self.answer = self.answer.take().or(piece.answer);
        if piece.generated.is_some() {
            self.generated = piece.generated;
        }
        if let Some(documents) = piece.documents {
            self.documents
                .get_or_insert_with(Vec::new)
                .extend(documents);
        }
        self.contexts = self.contexts.take().or(piece.contexts);
        let has_contexts = self.contexts.is_some() || self.documents.is_some();
        let has_answer = self.answer.is_some() || self.generated.is_some();
        let linked = self.missing.is_empty();
        if piece.is_root && !linked {
            self.waiting = true;
        }
        (piece.is_root || self.waiting) && linked && has_contexts && has_answer
    }

    fn into_record(self) -> Scanned {
        let answer = self.answer.or(self.generated);
        let contexts = self.contexts.or(self.documents.map(Value::Array));
        let (Some(answer), Some(contexts)) = (answer, contexts) else {
            let message = match (self.closed_by, self.root_seen) {
                (Some(limit), false) => format!(
                    "trace {}: closed before its root span came, because {limit}; its later \
                     spans are dropped",
                    self.id
                ),
                (Some(limit), true) => format!(
                    "trace {}: it has no answer or no retrieved documents yet: closed before \
                     its end, because {limit}; its later spans are dropped",
                    self.id
                ),
                (None, false) => format!("trace {}: its root span never came", self.id),
                (None, true) => format!(
                    "trace {}: it has no answer or no retrieved documents",
                    self.id
                ),
            };
            return Scanned::Bad {
                line: self.line,
                message,
            };
        };
        let record = json!({
            "id": self.id,
            "question": self.question,
            "answer": answer,
            "contexts": contexts,
        });
        Scanned::Record(RawRecord {
            line: self.line,
            bytes: record.to_string().into_bytes(),
        })
    }
}

#[cfg(test)]
mod tests;
