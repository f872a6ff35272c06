//! Batch: checks every record of an eval transcript file (RAGAS, DeepEval, promptfoo, or any
//! JSON Lines with an answer and its contexts) exactly as `check` checks one answer, in
//! parallel, keeping input order, with memory bounded by a window of records.

pub mod baseline;
pub mod exports;
pub mod giskard;
pub mod identity;
pub mod scan;
pub mod traces;

use std::io;
use std::sync::Arc;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::Checker;
pub use crate::gate::{BatchGate, BatchLimits, RateFailure, Rates};
use crate::gate::{GateOutcome, Limits};
use crate::input::{self, Answer, AnswerFormat, lookup};
use crate::parallel::WINDOW;
use crate::report::{Counts, Report};
use scan::{ScanError, Scanned};
use traces::Records;

/// Field paths, first present wins: `a.b` descends into objects, `a[].b` maps over an array.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fields {
    pub id: Vec<String>,
    pub answer: Vec<String>,
    pub contexts: Vec<String>,
    pub question: Vec<String>,
}

/// The aliases of the common eval tools: RAGAS (old and new names), DeepEval (snake and camel
/// case), promptfoo (`vars`, `response.output`), LangChain (`page_content`), and ragcite's own
/// `{answer, chunks}` (the labelled records of `eval`, the Python API's records).
pub const ID_ALIASES: &[&str] = &["id", "sample_id", "record_id", "testIdx"];
pub const ANSWER_ALIASES: &[&str] = &[
    "response",
    "answer",
    "actual_output",
    "actualOutput",
    "response.output",
    "output",
    "outputs.answer",
    "outputs.output",
];
pub const CONTEXT_ALIASES: &[&str] = &[
    "retrieved_contexts",
    "contexts",
    "retrieval_context",
    "retrievalContext",
    "vars.context",
    "outputs.documents[].page_content",
    "source_documents[].page_content",
    "outputs.context",
    "chunks",
    "context",
];

/// Where a record's question may be: its figures are context, not claims of the answer.
pub const QUESTION_ALIASES: &[&str] = &[
    "question",
    "user_input",
    "input",
    "query",
    "vars.query",
    "vars.question",
    "inputs.question",
    "inputs.query",
];

impl Fields {
    /// Whether answers and contexts are found through the default aliases, so that the
    /// records of the exports in [`exports`] are rewritten before they are read.
    pub fn reads_exports(&self) -> bool {
        self.answer.iter().eq(ANSWER_ALIASES) && self.contexts.iter().eq(CONTEXT_ALIASES)
    }
}

impl Default for Fields {
    fn default() -> Self {
        let owned = |list: &[&str]| list.iter().map(|s| s.to_string()).collect();
        Fields {
            id: owned(ID_ALIASES),
            answer: owned(ANSWER_ALIASES),
            contexts: owned(CONTEXT_ALIASES),
            question: owned(QUESTION_ALIASES),
        }
    }
}

/// A record ready to check.
#[derive(Debug, Clone)]
pub struct Record {
    pub id: String,
    /// Whether the record names its id (else `id` is its position).
    pub has_id: bool,
    pub answer: Answer,
    pub chunks: input::Chunks,
}

/// Reads a record's id, answer and contexts through `fields`. `index` is its 1-based
/// position, the id when it has none. A record that the aliases find no answer or no contexts
/// in, and that is a response carrying its sources (a LlamaIndex `Response`, a Haystack
/// pipeline output, ...), is read as `check` reads that response.
pub fn read_record(bytes: &[u8], index: usize, fields: &Fields) -> Result<Record, String> {
    let value: Value = serde_json::from_slice(bytes).map_err(|e| {
        if scan::too_deep(&e) {
            return format!(
                "invalid JSON: {} (column {})",
                scan::NESTED_TOO_DEEP,
                e.column()
            );
        }
        let message = e.to_string();
        let message = message.split(" at line ").next().unwrap_or(&message);
        format!("invalid JSON: {message} (column {})", e.column())
    })?;
    if !value.is_object() {
        return Err("the record is not a JSON object".to_string());
    }
    read_value(&value, bytes, index, fields, fields.reads_exports())
}

/// [`read_record`] of the parsed record; `exports`: whether a record that the aliases find no
/// answer or no contexts in may be one of the [`exports`], rewritten and read again.
fn read_value(
    value: &Value,
    bytes: &[u8],
    index: usize,
    fields: &Fields,
    exports: bool,
) -> Result<Record, String> {
    // A field path that goes past its budget (see `input::path::Budget`) fails the record.
    let at = |path: &str| lookup(value, path).map_err(|e| format!("record {index}: {e}"));
    // The first id path that reaches a value names the record; a list or an object there
    // (`--field 'id=contexts[]'`) is no id, and taking the position instead would hide it.
    let mut named = None;
    for path in &fields.id {
        match at(path)? {
            None | Some(Value::Null) => continue,
            Some(Value::String(s)) => named = Some(s),
            Some(Value::Number(n)) => named = Some(n.to_string()),
            Some(other) => {
                return Err(format!(
                    "record {index}: the id at `{path}` is {}; an id is a string or a number",
                    input::json_kind(&other)
                ));
            }
        }
        break;
    }
    let has_id = named.is_some();
    let id = named.unwrap_or_else(|| index.to_string());
    let answer = fields
        .answer
        .iter()
        .find_map(|path| answer_at(value, path).transpose())
        .transpose()
        .map_err(|e| format!("record {id}: the answer: {e}"))?;
    let mut contexts = None;
    for path in &fields.contexts {
        contexts = at(path)?.filter(|v| !v.is_null());
        if contexts.is_some() {
            break;
        }
    }
    let (answer, contexts) = match (answer, contexts) {
        (Some(answer), Some(contexts)) => (answer, contexts),
        (answer, contexts) => {
            if let Some(record) = self_sourced(value, bytes, &id, has_id)? {
                return Ok(record);
            }
            // An export whose own field names the aliases miss (ALCE, LongCite, DSPy, ...).
            if exports
                && let Some(object) = value.as_object()
                && let Some(rewritten) = exports::rewrite(object)?
            {
                return read_value(&rewritten, bytes, index, fields, false);
            }
            let Some(answer) = answer else {
                return Err(format!(
                    "record {id} has no answer field ({})",
                    fields.answer.join(", ")
                ));
            };
            if input::is_blank(&answer.text) {
                return Err(format!("record {id}: the answer is empty"));
            }
            debug_assert!(contexts.is_none());
            return Err(format!(
                "record {id} has no contexts field ({})",
                fields.contexts.join(", ")
            ));
        }
    };
    if input::is_blank(&answer.text) {
        return Err(format!("record {id}: the answer is empty"));
    }
    let chunks = input::chunks_from_value(contexts)
        .map_err(|e| format!("record {id}: the contexts: {e}"))?;
    let mut answer = answer;
    for path in &fields.question {
        if let Some(Value::String(s)) = at(path)? {
            answer.question = Some(s);
            break;
        }
    }
    Ok(Record {
        id,
        has_id,
        answer,
        chunks,
    })
}

/// The record read as a response that carries its sources, when it is one; `Ok(None)` when it
/// is no response, or one without sources.
/// A record read through a profile takes the id the profile names, when it names one.
fn self_sourced(
    value: &Value,
    bytes: &[u8],
    id: &str,
    has_id: bool,
) -> Result<Option<Record>, String> {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Ok(None);
    };
    let Ok(format) = input::response::detect(text) else {
        return Ok(None);
    };
    if format == AnswerFormat::Text {
        return Ok(None);
    }
    let mut answer = input::response::read(text, format)
        .map_err(|e| format!("record {id}, read as a {} response: {e}", format.name()))?;
    let Some(chunks) = answer.sources.take() else {
        return Ok(None);
    };
    if input::is_blank(&answer.text) {
        return Err(format!("record {id}: the answer is empty"));
    }
    let named = match format {
        AnswerFormat::Profile(profile) => profile
            .0
            .id_of(value)
            .map_err(|e| format!("record {id}: {e}"))?,
        _ => None,
    };
    let has_id = has_id || named.is_some();
    let id = named.unwrap_or_else(|| id.to_string());
    Ok(Some(Record {
        id,
        has_id,
        answer,
        chunks,
    }))
}

/// The answer at `path`, read as `check` reads an answer: a string is text or a provider
/// response written as text; an object is a provider response. `None` when the path is absent
/// or holds something that is not an answer (promptfoo's `response` object holds one in
/// `output`, found by the next alias).
fn answer_at(value: &Value, path: &str) -> Result<Option<Answer>, String> {
    let Some(found) = lookup(value, path).map_err(|e| e.to_string())? else {
        return Ok(None);
    };
    let bytes = match &found {
        Value::String(s) => s.as_bytes().to_vec(),
        Value::Object(_) => {
            let text = found.to_string();
            if !matches!(input::response::detect(&text), Ok(format) if format != AnswerFormat::Text)
            {
                return Ok(None);
            }
            text.into_bytes()
        }
        _ => return Ok(None),
    };
    match input::read_answer(&bytes, None) {
        Ok(answer) => Ok(Some(answer)),
        Err(crate::InputError::Empty { .. }) => Err("it is empty".to_string()),
        Err(e) => Err(e.to_string()),
    }
}

/// What happened to one record.
#[derive(Debug, Clone)]
pub struct RecordOutcome {
    /// 1-based position among the records (of all files).
    pub index: usize,
    /// The transcript file, as reports name it.
    pub file: Arc<str>,
    /// Line of the transcript file the record starts on.
    pub line: usize,
    pub result: Result<Checked, String>,
    /// For a record that could not be read, the start of its first line (up to
    /// [`EXCERPT_CHARS`] characters; empty when the record never reached the reader): what
    /// tells it apart in CI reports, where it has no id.
    pub excerpt: String,
    /// Its findings, each with its fingerprint (and, with a baseline, whether it is new), in
    /// the order the CI formats list them: given by [`identity::Identities::mark`] in input
    /// order, before the record is counted and written; empty until then.
    pub findings: Vec<identity::Found>,
}

/// Characters of a bad record's first line that its outcome keeps.
pub const EXCERPT_CHARS: usize = 200;

/// The start of the first line of `bytes`, up to [`EXCERPT_CHARS`] characters.
pub fn excerpt(bytes: &[u8]) -> String {
    let line = bytes.split(|&b| b == b'\n').next().unwrap_or(&[]);
    let line = &line[..line.len().min(EXCERPT_CHARS * 4)];
    String::from_utf8_lossy(line)
        .trim_end_matches('\r')
        .chars()
        .take(EXCERPT_CHARS)
        .collect()
}

/// A record that was checked.
#[derive(Debug, Clone)]
pub struct Checked {
    pub id: String,
    /// Whether the record names its id (else `id` is its position).
    pub has_id: bool,
    pub report: Report,
    pub gate: GateOutcome,
    /// The record's JSON text, to find the column of each sentence in its line.
    pub source: Vec<u8>,
    pub answer_format: AnswerFormat,
    /// The answer and chunks as read, for the reports that show them (HTML).
    pub answer: input::Answer,
    pub chunks: crate::Chunks,
}

/// Totals over the batch.
#[derive(Debug, Clone, Default, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Aggregate {
    /// Records read, bad ones included.
    pub records: usize,
    pub checked: usize,
    pub bad_records: usize,
    /// Checked records over at least one per-record limit.
    pub failing_records: usize,
    /// Checked records with at least one abstention (`counts.abstentions` > 0). Added in
    /// schema 3.1.
    pub abstaining_records: usize,
    /// Verdict and status counts summed over the checked records.
    pub counts: Counts,
    pub rates: Rates,
}

impl Aggregate {
    pub fn add(&mut self, outcome: &RecordOutcome) {
        self.records += 1;
        match &outcome.result {
            Err(_) => self.bad_records += 1,
            Ok(checked) => {
                self.checked += 1;
                if !checked.gate.passed {
                    self.failing_records += 1;
                }
                if checked.report.result.counts.abstentions > 0 {
                    self.abstaining_records += 1;
                }
                self.counts.add(&checked.report.result.counts);
            }
        }
        self.rates = Rates::of(&self.counts).with_abstaining(self.abstaining_records, self.checked);
    }

    /// The aggregate of batches run elsewhere (the partitions of a cluster), from the sums of
    /// their totals: the rates are taken over all their claim sentences, as one batch of all the
    /// records would take them.
    pub fn from_totals(totals: Totals) -> Self {
        Aggregate {
            records: totals.records,
            checked: totals.checked,
            bad_records: totals.bad_records,
            failing_records: totals.failing_records,
            abstaining_records: totals.abstaining_records,
            counts: totals.counts,
            rates: Rates::of(&totals.counts)
                .with_abstaining(totals.abstaining_records, totals.checked),
        }
    }

    /// The batch's gate: the rates, the failing and the bad records.
    pub fn evaluate(&self, limits: &BatchLimits) -> BatchGate {
        limits.evaluate(self.failing_records, self.bad_records, &self.rates)
    }
}

/// The totals of an [`Aggregate`] that add up across batches: everything but the rates.
#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Totals {
    pub records: usize,
    pub checked: usize,
    pub bad_records: usize,
    pub failing_records: usize,
    /// Added in schema 3.1 (read as 0 from totals written before).
    #[serde(default)]
    pub abstaining_records: usize,
    pub counts: Counts,
}

/// Why a batch stopped before the end of its file.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    /// The file's structure is broken: records after this point cannot be read.
    #[error("{0}")]
    Scan(#[from] ScanError),
    /// Writing the output failed.
    #[error("{0}")]
    Output(io::Error),
}

/// Checks every record of `scanner` in parallel, handing outcomes to `each` in input order as
/// each window finishes, after `identities` gave each its findings' fingerprints (and, with a
/// baseline, gated it on its new findings). Returns the aggregate, or the error that stopped
/// the batch (the aggregate so far is then in `partial`).
#[allow(clippy::too_many_arguments)]
pub fn run(
    records: Records<'_>,
    file: &Arc<str>,
    fields: &Fields,
    checker: &Checker,
    limits: &Limits,
    index: &mut usize,
    partial: &mut Aggregate,
    identities: &mut identity::Identities,
    each: impl FnMut(&RecordOutcome) -> io::Result<()>,
) -> Result<(), BatchError> {
    let window = Checking {
        file,
        fields,
        checker,
        limits,
        window_bytes: WINDOW_BYTES,
    };
    window.run(records, index, partial, identities, each)
}

/// What checks each record of a batch, and the most bytes of records read ahead at a time.
struct Checking<'a> {
    file: &'a Arc<str>,
    fields: &'a Fields,
    checker: &'a Checker,
    limits: &'a Limits,
    window_bytes: usize,
}

impl Checking<'_> {
    fn run(
        &self,
        records: Records<'_>,
        index: &mut usize,
        partial: &mut Aggregate,
        identities: &mut identity::Identities,
        mut each: impl FnMut(&RecordOutcome) -> io::Result<()>,
    ) -> Result<(), BatchError> {
        let Checking {
            file,
            fields,
            checker,
            limits,
            window_bytes,
        } = *self;
        let mut scanner = records;
        let mut next = index.to_owned();
        let mut window = read_window(&mut scanner, &mut next, window_bytes);
        // The window before this one, checked: marked and written while this one is checked.
        let mut checked: Vec<RecordOutcome> = Vec::new();
        loop {
            let Window {
                records,
                stop,
                last,
            } = window;
            let done = last || stop.is_some();
            // The pool checks this window and reads the next (so that reading the file never
            // leaves the cores idle) while this thread writes the window before, in order.
            let mut ahead = None;
            let written = rayon::in_place_scope(|scope| {
                scope.spawn(|_| {
                    ahead = Some(rayon::join(
                        || {
                            if done {
                                Window {
                                    records: Vec::new(),
                                    stop: None,
                                    last: true,
                                }
                            } else {
                                read_window(&mut scanner, &mut next, window_bytes)
                            }
                        },
                        || {
                            records
                                .into_par_iter()
                                .map(|(index, scanned)| {
                                    check_one(index, file, scanned, fields, checker, limits)
                                })
                                .collect::<Vec<RecordOutcome>>()
                        },
                    ));
                });
                hand_over(&mut checked, index, partial, identities, limits, &mut each)
            });
            written?;
            let Some((following, outcomes)) = ahead else {
                unreachable!("the scope ends when its work is done")
            };
            checked = outcomes;
            if done {
                hand_over(&mut checked, index, partial, identities, limits, &mut each)?;
                return match stop {
                    Some(e) => Err(BatchError::Scan(e)),
                    None => Ok(()),
                };
            }
            window = following;
        }
    }
}

/// Marks each outcome of `checked` (its findings' fingerprints), adds it to `partial` and hands
/// it to `each`, in order, leaving `checked` empty.
fn hand_over(
    checked: &mut Vec<RecordOutcome>,
    index: &mut usize,
    partial: &mut Aggregate,
    identities: &mut identity::Identities,
    limits: &Limits,
    each: &mut impl FnMut(&RecordOutcome) -> io::Result<()>,
) -> Result<(), BatchError> {
    for mut outcome in checked.drain(..) {
        *index = outcome.index;
        identities.mark(&mut outcome, limits);
        partial.add(&outcome);
        each(&outcome).map_err(BatchError::Output)?;
    }
    Ok(())
}

/// Most bytes of records read ahead at a time, with at most [`WINDOW`] records: two windows
/// are in memory at once (one read while the other is checked), with the reports of one, so
/// that memory stays flat however long the records get.
const WINDOW_BYTES: usize = 4 << 20;

/// Records read ahead: numbered on from the index before them, the error that stopped the
/// scan, and whether the file has no more.
struct Window {
    records: Vec<(usize, Scanned)>,
    stop: Option<ScanError>,
    last: bool,
}

/// Up to [`WINDOW`] records or `most` bytes of them (at least one), numbered on from `index`.
fn read_window(scanner: &mut Records<'_>, index: &mut usize, most: usize) -> Window {
    let mut records = Vec::with_capacity(WINDOW);
    let mut bytes = 0;
    while records.len() < WINDOW && bytes < most {
        match scanner.next() {
            Some(Ok(scanned)) => {
                if let Scanned::Record(record) = &scanned {
                    bytes += record.bytes.len();
                }
                *index += 1;
                records.push((*index, scanned));
            }
            Some(Err(e)) => {
                return Window {
                    records,
                    stop: Some(e),
                    last: true,
                };
            }
            None => {
                return Window {
                    records,
                    stop: None,
                    last: true,
                };
            }
        }
    }
    Window {
        records,
        stop: None,
        last: false,
    }
}

fn check_one(
    index: usize,
    file: &Arc<str>,
    scanned: Scanned,
    fields: &Fields,
    checker: &Checker,
    limits: &Limits,
) -> RecordOutcome {
    let (line, bytes) = match scanned {
        Scanned::Bad { line, message } => {
            return RecordOutcome {
                index,
                file: Arc::clone(file),
                line,
                result: Err(message),
                excerpt: String::new(),
                findings: Vec::new(),
            };
        }
        Scanned::Record(raw) => (raw.line, raw.bytes),
    };
    let read = read_record(&bytes, index, fields);
    let excerpt = if read.is_err() {
        excerpt(&bytes)
    } else {
        String::new()
    };
    let result = read.map(|record| {
        let report = checker.check(&record.answer, &record.chunks);
        let gate = limits.evaluate(&report.result.counts);
        Checked {
            id: record.id,
            has_id: record.has_id,
            report,
            gate,
            source: bytes,
            answer_format: record.answer.format,
            answer: record.answer,
            chunks: record.chunks,
        }
    });
    RecordOutcome {
        index,
        file: Arc::clone(file),
        line,
        result,
        excerpt,
        findings: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn windows_cut_by_size_keep_every_record_in_order() {
        // 60 records of about 500 bytes, read 4 kB at a time: windows of 8 or 9 records.
        let records = || {
            let file: String = (0..60)
                .map(|k| {
                    let record = json!({"id": format!("r{k}"),
                        "response": format!("The tower {k} stands [1]."),
                        "retrieved_contexts": ["The tower stands by the river. ".repeat(14)]});
                    format!("{record}\n")
                })
                .collect();
            Records::new(scan::RecordScanner::new(
                std::io::Cursor::new(file.into_bytes()),
                true,
            ))
        };
        let first = read_window(&mut records(), &mut 0, 4_000);
        assert!(!first.last && (2..20).contains(&first.records.len()));
        let checker = Checker::new(crate::Options::default());
        let (mut index, mut aggregate, mut seen) = (0, Aggregate::default(), Vec::new());
        let checking = Checking {
            file: &Arc::from("file.jsonl"),
            fields: &Fields::default(),
            checker: &checker,
            limits: &Limits::default(),
            window_bytes: 4_000,
        };
        checking
            .run(
                records(),
                &mut index,
                &mut aggregate,
                &mut identity::Identities::default(),
                |outcome| {
                    seen.push(outcome.index);
                    Ok(())
                },
            )
            .expect("run");
        assert_eq!(seen, (1..=60).collect::<Vec<_>>());
        assert_eq!(aggregate.checked, 60);
    }

    #[test]
    fn lookup_descends_and_maps_over_arrays() {
        let record = json!({"outputs": {"documents": [{"page_content": "a"}, {"page_content": "b"}]},
                            "vars": {"context": "c"}});
        assert_eq!(lookup(&record, "vars.context").unwrap(), Some(json!("c")));
        assert_eq!(
            lookup(&record, "outputs.documents[].page_content").unwrap(),
            Some(json!(["a", "b"]))
        );
        assert_eq!(lookup(&record, "outputs.missing").unwrap(), None);
        assert_eq!(lookup(&record, "vars[].context").unwrap(), None);
    }

    #[test]
    fn lookup_takes_keys_with_dots() {
        let row = json!({"attributes.output.value": "A.", "attributes": {"output": {"value": "B."}},
                         "attributes.retrieval.documents": [{"document.content": "x"}]});
        // The longest key the path starts with wins.
        assert_eq!(
            lookup(&row, "attributes.output.value").unwrap(),
            Some(json!("A."))
        );
        assert_eq!(
            lookup(&row, "attributes.retrieval.documents[].document.content").unwrap(),
            Some(json!(["x"]))
        );
        assert_eq!(
            lookup(&json!({"a": {"b.c": 1}}), "a.b.c").unwrap(),
            Some(json!(1))
        );
    }

    #[test]
    fn a_response_that_carries_its_sources_is_a_record() {
        let llamaindex = read(json!({"response": "It is tall [1].", "metadata": {},
            "source_nodes": [{"node": {"id_": "n1", "text": "It is tall.", "metadata": {}}, "score": 0.9}]}))
        .unwrap();
        assert_eq!(llamaindex.answer.text, "It is tall [1].");
        assert_eq!(llamaindex.chunks.chunks[0].text, "It is tall.");
        let haystack = read(
            json!({"answer_builder": {"answers": [{"data": "Tall [2].", "query": "q", "meta": {},
            "documents": [{"id": "d", "content": "It is tall.", "meta": {"source_index": 2}}]}]}}),
        )
        .unwrap();
        assert_eq!(haystack.chunks.chunks[0].id, "2");
        assert!(haystack.chunks.ids_are_numbers);
        // A response without sources is still a record without contexts.
        assert!(
            read(json!({"answer": "A [1]."}))
                .unwrap_err()
                .starts_with("record 7 has no contexts field")
        );
    }

    fn read(record: Value) -> Result<Record, String> {
        read_record(record.to_string().as_bytes(), 7, &Fields::default())
    }

    /// ALCE, RAGChecker, DSPy `Evaluate` and MLflow `evaluate` records: their profiles read the
    /// answer, the question, the id and the contexts, not the gold answer beside them.
    #[test]
    fn benchmark_records_read_through_their_profiles() {
        let alce = read(
            json!({"question": "How tall?", "answer": "gold", "output": "Tall [1].",
            "docs": [{"id": "1000", "title": "T", "text": "It is tall."}]}),
        )
        .unwrap();
        assert_eq!(alce.answer.format.name(), "alce");
        assert_eq!(alce.answer.text, "Tall [1].");
        assert_eq!(alce.answer.question.as_deref(), Some("How tall?"));
        assert_eq!(
            (alce.id.as_str(), alce.chunks.chunks[0].text.as_str()),
            ("7", "It is tall.")
        );
        let ragchecker = read(json!({"query_id": "0", "response": "A [1].",
            "retrieved_context": [{"doc_id": "000", "text": "x"}]}))
        .unwrap();
        assert_eq!(ragchecker.id, "0");
        assert_eq!(ragchecker.chunks.chunks[0].text, "x");
        let dspy =
            read(json!({"question": "q", "pred_answer": "A [1].", "context": ["x"]})).unwrap();
        assert_eq!(
            (dspy.answer.format.name(), dspy.answer.text.as_str()),
            ("dspy-evaluate", "A [1].")
        );
        let mlflow = read(json!({"inputs": "q", "outputs": "A [1].", "context": ["x"]})).unwrap();
        assert_eq!(mlflow.answer.question.as_deref(), Some("q"));
        // Records of the aliases' own names are read by the aliases.
        let ragas = read(json!({"response": "A [1].", "retrieved_contexts": ["x"]})).unwrap();
        assert_eq!(ragas.answer.format, AnswerFormat::Text);
    }

    #[test]
    fn ragas_old_and_new_names() {
        let new = read(json!({"user_input": "q", "response": "The tower is tall [1].", "retrieved_contexts": ["The tower is tall."]})).unwrap();
        assert_eq!(new.answer.text, "The tower is tall [1].");
        assert_eq!(new.chunks.chunks[0].id, "1");
        assert_eq!(new.id, "7", "no id: its position");
        let old =
            read(json!({"question": "q", "answer": "A [1].", "contexts": ["x"], "id": 3})).unwrap();
        assert_eq!(old.answer.text, "A [1].");
        assert_eq!(old.id, "3");
    }

    #[test]
    fn deepeval_promptfoo_and_langchain_shapes() {
        let deepeval = read(json!({"actualOutput": "A.", "retrievalContext": ["x", "y"]})).unwrap();
        assert_eq!(deepeval.chunks.chunks.len(), 2);
        let promptfoo = read(
            json!({"testIdx": 4, "vars": {"query": "q", "context": "one context"},
                                    "response": {"output": "An answer.", "tokenUsage": {}}}),
        )
        .unwrap();
        assert_eq!(promptfoo.answer.text, "An answer.");
        assert_eq!(promptfoo.id, "4");
        assert_eq!(promptfoo.chunks.chunks.len(), 1);
        let langchain = read(json!({"outputs": {"answer": "A.", "documents": [{"page_content": "p", "metadata": {}}]}})).unwrap();
        assert_eq!(langchain.chunks.chunks[0].text, "p");
    }

    #[test]
    fn contexts_as_objects_with_ids() {
        let record = read(json!({"answer": "A [d2].", "contexts": [{"id": "d1", "text": "x"}, {"id": "d2", "text": "y"}]})).unwrap();
        assert_eq!(record.chunks.chunks[1].id, "d2");
    }

    #[test]
    fn overridden_fields() {
        let fields = Fields {
            answer: vec!["outputs.text".to_string()],
            contexts: vec!["docs".to_string()],
            id: vec!["key".to_string()],
            question: Vec::new(),
        };
        let record = read_record(
            br#"{"key": "k", "outputs": {"text": "A."}, "docs": ["x"], "answer": "no"}"#,
            1,
            &fields,
        )
        .unwrap();
        assert_eq!(
            (record.id.as_str(), record.answer.text.as_str()),
            ("k", "A.")
        );
    }

    #[test]
    fn exports_are_rewritten_only_when_the_aliases_fail() {
        // ALCE: `answer` is the gold answer; the aliases find no contexts, so `output` is read.
        let alce = read(
            json!({"question": "q", "answer": "gold", "output": "Tall [1].",
            "docs": [{"title": "T", "text": "It is tall."}]}),
        )
        .unwrap();
        assert_eq!(alce.answer.text, "Tall [1].");
        // A record the aliases read stays as it was, whatever else it holds.
        let ragas = read(
            json!({"question": "q", "answer": "A [1].", "contexts": ["x"],
            "output": "other", "docs": [{"text": "y"}]}),
        )
        .unwrap();
        assert_eq!(
            (
                ragas.answer.text.as_str(),
                ragas.chunks.chunks[0].text.as_str()
            ),
            ("A [1].", "x")
        );
        // With --field, records are read as they are.
        let fields = Fields {
            contexts: vec!["docs".to_string()],
            ..Fields::default()
        };
        let record = read_record(
            br#"{"question": "q", "answer": "gold", "output": "Tall [1].", "docs": [{"text": "x"}]}"#,
            1,
            &fields,
        )
        .unwrap();
        assert_eq!(record.answer.text, "gold");
    }

    #[test]
    fn bad_records_say_what_is_wrong() {
        assert!(
            read_record(b"{\"answer\": ", 1, &Fields::default())
                .unwrap_err()
                .starts_with("invalid JSON")
        );
        assert_eq!(
            read(json!([1])).unwrap_err(),
            "the record is not a JSON object"
        );
        assert!(
            read(json!({"contexts": ["x"]}))
                .unwrap_err()
                .starts_with("record 7 has no answer field")
        );
        assert!(
            read(json!({"answer": "A."}))
                .unwrap_err()
                .starts_with("record 7 has no contexts field")
        );
        assert!(
            read(json!({"answer": "  ", "contexts": []}))
                .unwrap_err()
                .contains("empty")
        );
        assert!(read(json!({"answer": "A.", "contexts": [{"id": 1, "text": "a"}, {"id": 1, "text": "b"}]}))
            .unwrap_err()
            .contains("duplicate chunk id"));
    }
}
