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
//! A trace becomes a record `{id, question, answer, contexts}` as soon as it is complete (its
//! root has come after what it needs, as exporters write spans when they end), else at the end
//! of the file; only the pieces a record needs are kept meanwhile. Records are numbered in the
//! order they are completed; a trace without an answer or without retrieved documents is a bad
//! record naming its trace id.

use std::collections::{HashMap, VecDeque};

use serde_json::{Map, Value, json};

use super::scan::{RawRecord, RecordScanner, ScanError, Scanned};

/// Which kind of trace export a file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Export {
    OpenInference,
    Langsmith,
}

/// The records of a transcript file: the scanner's, or, for a trace export, its traces.
pub struct Records<'a> {
    scanner: RecordScanner<'a>,
    /// `None` until the first record says; then whether the file is a trace export.
    export: Option<Option<Export>>,
    /// The open traces by id.
    traces: HashMap<String, Trace>,
    /// Traces opened so far: the order in which the open ones are flushed at the end.
    opened: usize,
    ready: VecDeque<Scanned>,
    ended: bool,
}

impl<'a> Records<'a> {
    pub fn new(scanner: RecordScanner<'a>) -> Self {
        Records {
            scanner,
            export: None,
            traces: HashMap::new(),
            opened: 0,
            ready: VecDeque::new(),
            ended: false,
        }
    }

    /// Takes one span or run into its trace; a trace it completes goes to `ready`.
    fn add(&mut self, export: Export, raw: RawRecord) {
        let Ok(Value::Object(item)) = serde_json::from_slice::<Value>(&raw.bytes) else {
            self.ready.push_back(Scanned::Bad {
                line: raw.line,
                message: "invalid JSON: the span is not a JSON object".to_string(),
            });
            return;
        };
        let piece = match export {
            Export::OpenInference => Piece::of_span(&item),
            Export::Langsmith => Piece::of_run(&item),
        };
        let Some(piece) = piece else {
            self.ready.push_back(Scanned::Bad {
                line: raw.line,
                message: "no trace id: not a span of the trace export this file starts with"
                    .to_string(),
            });
            return;
        };
        let id = piece.trace.clone();
        let opened = &mut self.opened;
        let trace = self.traces.entry(id.clone()).or_insert_with(|| {
            *opened += 1;
            Trace::new(id.clone(), raw.line, *opened)
        });
        if trace.take(piece, raw.line)
            && let Some(trace) = self.traces.remove(&id)
        {
            self.ready.push_back(trace.into_record());
        }
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
        let mut piece = Piece {
            trace,
            is_root,
            question: string(attribute(span, "input.value")).filter(|_| is_root),
            answer: output.filter(|_| is_root).and_then(answer_of),
            generated: None,
            documents: None,
            contexts: None,
        };
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
        let mut piece = Piece {
            trace,
            is_root,
            question: None,
            answer: None,
            generated: None,
            documents: None,
            contexts: None,
        };
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
        piece.is_root && has_contexts && has_answer
    }

    fn into_record(self) -> Scanned {
        let answer = self.answer.or(self.generated);
        let contexts = self.contexts.or(self.documents.map(Value::Array));
        let (Some(answer), Some(contexts)) = (answer, contexts) else {
            let missing = if !self.root_seen {
                "its root span never came"
            } else {
                "it has no answer or no retrieved documents"
            };
            return Scanned::Bad {
                line: self.line,
                message: format!("trace {}: {missing}", self.id),
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
mod tests {
    use super::*;

    fn records(text: &str) -> Vec<Result<(usize, Value), String>> {
        Records::new(RecordScanner::new(text.as_bytes(), true))
            .map(|item| match item {
                Ok(Scanned::Record(raw)) => Ok((
                    raw.line,
                    serde_json::from_slice(&raw.bytes).expect("a record is JSON"),
                )),
                Ok(Scanned::Bad { line, message }) => Err(format!("{line}: {message}")),
                Err(e) => Err(e.to_string()),
            })
            .collect()
    }

    #[test]
    fn otel_spans_of_interleaved_traces_are_joined_when_their_root_ends() {
        let lines = [
            r#"{"name": "retrieve", "context": {"trace_id": "t1", "span_id": "a"}, "parent_id": "r1", "attributes": {"openinference.span.kind": "RETRIEVER", "retrieval.documents.0.document.content": "It is tall.", "retrieval.documents.0.document.id": "d1", "retrieval.documents.0.document.metadata": "{\"file_name\": \"t.pdf\"}", "retrieval.documents.1.document.content": "It is old."}}"#,
            r#"{"name": "retrieve", "context": {"trace_id": "t2", "span_id": "b"}, "parent_id": "r2", "attributes": {"openinference.span.kind": "RETRIEVER", "retrieval.documents.0.document.content": "Paris."}}"#,
            r#"{"name": "llm", "context": {"trace_id": "t1", "span_id": "c"}, "parent_id": "r1", "attributes": {"openinference.span.kind": "LLM", "output.value": "Tall [1]."}}"#,
            r#"{"name": "query", "context": {"trace_id": "t1", "span_id": "r1"}, "parent_id": null, "attributes": {"openinference.span.kind": "CHAIN", "input.value": "How tall?", "output.value": "Tall [1]."}}"#,
            r#"{"name": "query", "context": {"trace_id": "t3", "span_id": "r3"}, "parent_id": null, "attributes": {"openinference.span.kind": "CHAIN", "output.value": "Alone."}}"#,
            r#"{"name": "query", "context": {"trace_id": "t2", "span_id": "r2"}, "parent_id": null, "attributes": {"openinference.span.kind": "CHAIN", "output.value": "{\"answer\": \"Paris [1].\"}"}}"#,
        ];
        let found = records(&lines.join("\n"));
        assert_eq!(found.len(), 3, "{found:?}");
        let (line, first) = found[0].clone().expect("t1");
        assert_eq!(line, 4);
        assert_eq!(first["id"], "t1");
        assert_eq!(first["question"], "How tall?");
        assert_eq!(first["answer"], "Tall [1].");
        assert_eq!(first["contexts"][0]["text"], "It is tall.");
        assert_eq!(first["contexts"][0]["metadata"]["file_name"], "t.pdf");
        assert_eq!(first["contexts"][1]["text"], "It is old.");
        let (line, second) = found[1].clone().expect("t2");
        assert_eq!((line, second["answer"].as_str()), (6, Some("Paris [1].")));
        // The trace without a retriever is reported at the end.
        assert_eq!(
            found[2],
            Err("5: trace t3: it has no answer or no retrieved documents".to_string())
        );
    }

    #[test]
    fn dataframe_rows_with_dotted_columns_newest_first() {
        let lines = [
            r#"{"name": "query", "span_kind": "CHAIN", "parent_id": null, "context.trace_id": "t1", "attributes.output.value": "Tall [1].", "attributes.retrieval.documents": null}"#,
            r#"{"name": "retrieve", "span_kind": "RETRIEVER", "parent_id": "r1", "context.trace_id": "t1", "attributes.output.value": null, "attributes.retrieval.documents": [{"document.content": "It is tall.", "document.id": "d1"}]}"#,
        ];
        let found = records(&lines.join("\n"));
        let (line, record) = found[0].clone().expect("t1");
        assert_eq!(line, 1);
        assert_eq!(record["contexts"][0]["text"], "It is tall.");
        assert_eq!(record["answer"], "Tall [1].");
    }

    #[test]
    fn langsmith_root_runs_carry_the_record() {
        let lines = [
            r#"{"id": "c1", "trace_id": "t1", "parent_run_id": "r1", "run_type": "retriever", "outputs": {"documents": [{"page_content": "It is tall.", "metadata": {"source": "t.pdf"}}]}}"#,
            r#"{"id": "r1", "trace_id": "t1", "parent_run_id": null, "run_type": "chain", "inputs": {"input": "How tall?"}, "outputs": {"input": "How tall?", "context": [{"page_content": "It is tall.", "metadata": {"source": "t.pdf"}}], "answer": "Tall [1]."}}"#,
        ];
        let found = records(&lines.join("\n"));
        let (_, record) = found[0].clone().expect("t1");
        assert_eq!(record["answer"], "Tall [1].");
        assert_eq!(record["contexts"][0]["page_content"], "It is tall.");
        assert_eq!(found.len(), 1);
    }

    #[test]
    fn other_files_pass_through() {
        let found = records("{\"answer\": \"A.\", \"contexts\": [\"x\"]}\n");
        assert_eq!(found[0].clone().expect("record").1["answer"], "A.");
    }
}
