//! `--format json`: one JSON document with `schemaVersion`, the inputs, a summary, the result,
//! the warnings and the gate's outcome. Never coloured; same inputs, same bytes.

use std::io::{self, Write};

use serde::Serialize;

use super::{
    BatchEmitter, BatchEnd, BatchFields, BatchInputs, Emitter, Inputs, Run, batch_summary_line,
    summary_line, write_document,
};
use crate::batch::baseline::BaselineOutcome;
use crate::batch::identity::{At, Found};
use crate::batch::{Aggregate, BatchGate, RecordOutcome};
use crate::compare::Comparison;
use crate::gate::{GateOutcome, LimitFailure};
use crate::report::{CheckResult, Counts, Verdict};
use crate::sentence::LineColumn;

/// Version of the JSON document's schema. A change that removes or renames a field, or changes
/// its meaning, raises the major number; a new field raises the minor one.
pub const SCHEMA_VERSION: &str = "3.5";

/// The tool that wrote a document.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Tool {
    pub name: &'static str,
    pub version: &'static str,
}

/// The whole `--format json` document.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Document<'a> {
    pub schema_version: &'static str,
    pub tool: Tool,
    pub inputs: &'a Inputs,
    /// The same one-line summary the table ends with.
    pub summary: String,
    pub result: &'a CheckResult,
    pub warnings: &'a [String],
    pub gate: &'a GateOutcome,
}

impl<'a> Document<'a> {
    pub fn new(run: &Run<'a>) -> Self {
        Document {
            schema_version: SCHEMA_VERSION,
            tool: Tool {
                name: "ragcite",
                version: env!("CARGO_PKG_VERSION"),
            },
            inputs: run.inputs,
            summary: summary_line(run.report, run.gate),
            result: &run.report.result,
            warnings: &run.report.warnings,
            gate: run.gate,
        }
    }
}

/// Writes the document, pretty-printed, with a final line break.
#[derive(Debug, Clone, Copy, Default)]
pub struct JsonEmitter;

impl Emitter for JsonEmitter {
    fn emit(&self, run: &Run<'_>, out: &mut dyn Write) -> io::Result<()> {
        write_document(out, &Document::new(run))
    }
}

/// A sentence of a batch record that is neither supported nor without a claim.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Problem<'a> {
    /// The sentence's index in its answer.
    pub sentence: usize,
    pub verdict: Verdict,
    /// Where the sentence starts in the answer text.
    pub start: LineColumn,
    pub text: &'a str,
    /// How well its cited chunks support it (see the check document's `sentences[].support`).
    /// Added in schema 3.2.
    #[serde(serialize_with = "crate::rounding::rounded")]
    #[schemars(with = "f64")]
    pub support: f64,
    pub missing_numbers: &'a [String],
    /// Content words that none of its cited chunks holds. Added in schema 3.2.
    pub missing_words: &'a [String],
    pub unknown_markers: &'a [String],
    pub suggested_citation: Option<&'a str>,
    /// The cited chunk that decided the verdict; `null` when it cites none or has no content
    /// words. Added in schema 3.2.
    pub deciding_chunk: Option<&'a str>,
    /// What identifies the finding across runs (16 hex digits): its rule, its text, and its
    /// record's id (else its question, else its position), never where it stands; `batch
    /// --baseline` matches findings by it. Added in schema 3.3.
    pub fingerprint: &'a str,
    /// With `--baseline`: whether the baseline lacks the finding; absent without one. Added in
    /// schema 3.3.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new: Option<bool>,
}

/// A finding of a record that is not one of its `problems`: a supported or no-claim sentence
/// with a marker that names no chunk (`unknown-marker`), a provider citation tied to no sentence
/// whose quotation is not in its chunk (`misquote`), or a record that cannot be read
/// (`bad-record`). Added in schema 3.3.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OtherFinding<'a> {
    pub rule: &'static str,
    /// As a problem's `fingerprint`.
    pub fingerprint: &'a str,
    /// The sentence's index in its answer; `null` for a citation or a record.
    pub sentence: Option<usize>,
    /// The citation's index among the response's citations; `null` otherwise.
    pub citation: Option<usize>,
    /// The sentence, the quotation, or the start of the unreadable record.
    pub text: &'a str,
    /// As a problem's `new`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new: Option<bool>,
}

/// One record of a batch, as `--format json` lists it and `--format jsonl` writes it per line.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecordSummary<'a> {
    /// Always `record` (JSON Lines also carries a final `summary` line).
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// 1-based position among the records (of all files).
    pub index: usize,
    /// The transcript file the record is in.
    pub file: &'a str,
    /// Line of the transcript file the record starts on.
    pub line: usize,
    /// The record's id, or its position when it has none; `null` for a record that could not
    /// be read.
    pub id: Option<&'a str>,
    /// Whether every per-record limit held; false for a record that could not be read.
    pub passed: bool,
    /// Why the record could not be read; `null` when it was checked.
    pub error: Option<&'a str>,
    pub answer_format: Option<&'static str>,
    /// With `--lang auto`, the language detected and read in (absent when none was detected).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lang: Option<&'static str>,
    pub counts: Option<&'a Counts>,
    pub failures: &'a [LimitFailure],
    pub problems: Vec<Problem<'a>>,
    /// The record's findings that are not problem sentences. Added in schema 3.3.
    pub other_findings: Vec<OtherFinding<'a>>,
    pub warnings: &'a [String],
}

impl<'a> RecordSummary<'a> {
    pub fn new(record: &'a RecordOutcome) -> Self {
        match &record.result {
            Err(message) => RecordSummary {
                kind: "record",
                index: record.index,
                file: &record.file,
                line: record.line,
                id: None,
                passed: false,
                error: Some(message),
                answer_format: None,
                lang: None,
                counts: None,
                failures: &[],
                problems: Vec::new(),
                other_findings: record
                    .findings
                    .iter()
                    .map(|f| OtherFinding {
                        rule: f.rule,
                        fingerprint: &f.fingerprint,
                        sentence: None,
                        citation: None,
                        text: if record.excerpt.is_empty() {
                            message
                        } else {
                            &record.excerpt
                        },
                        new: f.new,
                    })
                    .collect(),
                warnings: &[],
            },
            Ok(checked) => RecordSummary {
                kind: "record",
                index: record.index,
                file: &record.file,
                line: record.line,
                id: Some(&checked.id),
                passed: checked.gate.passed,
                error: None,
                answer_format: Some(checked.answer_format.name()),
                lang: {
                    let language = checked.report.language;
                    language.auto.then(|| language.used.code())
                },
                counts: Some(&checked.report.result.counts),
                failures: &checked.gate.failures,
                problems: checked
                    .report
                    .result
                    .sentences
                    .iter()
                    .filter(|s| s.verdict.is_claim() && s.verdict != Verdict::Supported)
                    .map(|s| {
                        let found = found_at(record, At::Sentence(s.index));
                        Problem {
                            sentence: s.index,
                            verdict: s.verdict,
                            start: s.start,
                            text: &s.sentence,
                            support: s.support,
                            missing_numbers: &s.missing_numbers,
                            missing_words: &s.missing_words,
                            unknown_markers: &s.unknown_markers,
                            suggested_citation: s.suggested_citation.as_deref(),
                            deciding_chunk: s.deciding_chunk.as_deref(),
                            fingerprint: found.map_or("", |f| f.fingerprint.as_str()),
                            new: found.and_then(|f| f.new),
                        }
                    })
                    .collect(),
                other_findings: record
                    .findings
                    .iter()
                    .filter_map(|f| {
                        let (sentence, citation, text) = match f.at {
                            At::Sentence(index) => {
                                let s = checked.report.result.sentence(index)?;
                                // Problem sentences are listed as problems.
                                if s.verdict.is_claim() && s.verdict != Verdict::Supported {
                                    return None;
                                }
                                (Some(index), None, s.sentence.as_str())
                            }
                            At::Citation(index) => {
                                let quote = checked
                                    .report
                                    .result
                                    .citations
                                    .iter()
                                    .find(|c| c.index == index)?
                                    .quote
                                    .as_ref()?;
                                (None, Some(index), quote.text.as_str())
                            }
                            At::Record => return None,
                        };
                        Some(OtherFinding {
                            rule: f.rule,
                            fingerprint: &f.fingerprint,
                            sentence,
                            citation,
                            text,
                            new: f.new,
                        })
                    })
                    .collect(),
                warnings: &checked.report.warnings,
            },
        }
    }
}

/// The finding of a record about this sentence, citation or the record itself.
fn found_at(record: &RecordOutcome, at: At) -> Option<&Found> {
    // The findings list the problem sentences first, in order: a sentence's is found by
    // halving (a record of thousands of sentences is not searched once per sentence).
    if let At::Sentence(index) = at {
        let sentences = record
            .findings
            .partition_point(|f| matches!(f.at, At::Sentence(_)));
        let found = &record.findings[..sentences];
        let k = found.partition_point(|f| matches!(f.at, At::Sentence(i) if i < index));
        if let Some(f) = found.get(k).filter(|f| f.at == at) {
            return Some(f);
        }
    }
    record.findings.iter().find(|f| f.at == at)
}

/// The end of a batch, as `--format json` closes its document and `--format jsonl` writes its
/// last line.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BatchClosing<'a> {
    /// `summary` in JSON Lines, to tell it from the records; absent in the JSON document.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<&'static str>,
    pub summary: String,
    pub aggregate: &'a Aggregate,
    pub gate: &'a BatchGate,
    /// False when the batch stopped before the end of its files: a broken or cut-off file, a
    /// record over the size limit, or a signal (SIGINT, SIGTERM).
    pub complete: bool,
    /// Why it stopped, when it did.
    pub error: Option<&'a str>,
    /// With `--baseline`: the findings new, unchanged and fixed against it; absent without one.
    /// Added in schema 3.3.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline: Option<&'a BaselineOutcome>,
}

impl<'a> BatchClosing<'a> {
    pub fn new(end: &BatchEnd<'a>) -> Self {
        BatchClosing {
            kind: Some("summary"),
            summary: batch_summary_line(end),
            aggregate: end.aggregate,
            gate: end.gate,
            complete: end.stopped.is_none(),
            error: end.stopped,
            baseline: end.baseline,
        }
    }
}

/// The `--format json` document of `batch`, as a type for its schema only: the emitter writes
/// it piece by piece as records finish.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BatchDocument<'a> {
    pub schema_version: &'static str,
    pub tool: Tool,
    pub inputs: &'a BatchInputs,
    pub records: Vec<RecordSummary<'a>>,
    #[serde(flatten)]
    pub closing: BatchClosing<'a>,
}

/// One line of `batch --format jsonl`: a record, or the summary that ends the output.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum BatchLine<'a> {
    Record(RecordSummary<'a>),
    Summary(LinesClosing<'a>),
}

/// The summary line of `batch --format jsonl`: the batch's end, and what it was run on and how
/// (the document's `inputs`, which JSON Lines has no header for; added in schema 3.4).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LinesClosing<'a> {
    #[serde(flatten)]
    pub closing: BatchClosing<'a>,
    pub inputs: &'a BatchInputs,
}

/// What two transcripts were compared with, for `inputs` in the JSON document.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CompareInputs {
    /// Transcript A, as given (`-` is named `<stdin>` or `--stdin-filename`).
    pub a: String,
    /// Transcript B.
    pub b: String,
    pub threshold: f64,
    /// What scored support: `shipped`, `formula`, or the model file as given.
    pub model: String,
    pub lang: String,
    /// The field paths tried, in order, for each field.
    pub fields: BatchFields,
    /// The configuration file whose options were applied to both sides, or why none was.
    /// Added in 3.4.
    pub config: super::ConfigUsed,
}

impl CompareInputs {
    /// What decided the verdicts of both sides (see [`super::decided_line`]).
    pub fn decided(&self) -> String {
        let lang = if self.lang == "auto" {
            "detected per record"
        } else {
            self.lang.as_str()
        };
        format!(
            "{} (both sides)",
            super::decided_line(self.threshold, &self.model, lang, false, &self.config)
        )
    }
}

/// The `compare --format json` document. Added in schema 3.3.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CompareDocument<'a> {
    pub schema_version: &'static str,
    pub tool: Tool,
    pub inputs: &'a CompareInputs,
    /// The same one-line summary the table ends with.
    pub summary: String,
    #[serde(flatten)]
    pub comparison: &'a Comparison,
}

/// Writes the JSON document, pretty-printed, with a final line break.
pub fn write_compare(
    inputs: &CompareInputs,
    comparison: &Comparison,
    out: &mut dyn Write,
) -> io::Result<()> {
    let document = CompareDocument {
        schema_version: SCHEMA_VERSION,
        tool: Tool {
            name: "ragcite",
            version: env!("CARGO_PKG_VERSION"),
        },
        inputs,
        summary: comparison.summary_line(),
        comparison,
    };
    write_document(out, &document)
}

/// The JSON Schemas of the JSON outputs, generated from the types they are written from, with
/// the file name each is committed under (`docs/schema/`): `check --format json`, `batch
/// --format json`, each line of `batch --format jsonl` and `compare --format json`.
pub fn schemas() -> [(&'static str, serde_json::Value); 4] {
    let annotated = |schema: schemars::Schema| {
        let mut value = schema.to_value();
        if let Some(object) = value.as_object_mut() {
            let comment = format!(
                "ragcite JSON output, schemaVersion {SCHEMA_VERSION}; written by `cargo xtask generate`"
            );
            object.insert("$comment".to_string(), comment.into());
        }
        value
    };
    [
        (
            "check.schema.json",
            annotated(schemars::schema_for!(Document<'static>)),
        ),
        (
            "batch.schema.json",
            annotated(schemars::schema_for!(BatchDocument<'static>)),
        ),
        (
            "batch-line.schema.json",
            annotated(schemars::schema_for!(BatchLine<'static>)),
        ),
        (
            "compare.schema.json",
            annotated(schemars::schema_for!(CompareDocument<'static>)),
        ),
    ]
}

/// `--format json` for a batch: one document, written as records finish:
/// `{"schemaVersion", "tool", "inputs", "records": [...], "summary", "aggregate", "gate",
/// "complete", "error"}`.
#[derive(Debug, Default)]
pub struct BatchJsonEmitter {
    written: usize,
}

impl BatchEmitter for BatchJsonEmitter {
    fn shows_fingerprints(&self) -> bool {
        true
    }

    fn begin(&mut self, inputs: &BatchInputs, out: &mut dyn Write) -> io::Result<()> {
        let tool = Tool {
            name: "ragcite",
            version: env!("CARGO_PKG_VERSION"),
        };
        write!(
            out,
            "{{\"schemaVersion\":{},\"tool\":{},\"inputs\":{},\"records\":[",
            crate::escape::to_string(SCHEMA_VERSION)?,
            crate::escape::to_string(&tool)?,
            crate::escape::to_string(inputs)?
        )
    }

    fn record(&mut self, record: &RecordOutcome, out: &mut dyn Write) -> io::Result<()> {
        if self.written > 0 {
            out.write_all(b",")?;
        }
        out.write_all(b"\n")?;
        crate::escape::to_writer(&mut *out, &RecordSummary::new(record))?;
        self.written += 1;
        Ok(())
    }

    fn finish(&mut self, end: &BatchEnd<'_>, out: &mut dyn Write) -> io::Result<()> {
        let closing = BatchClosing {
            kind: None,
            ..BatchClosing::new(end)
        };
        let mut text = crate::escape::to_string(&closing)?;
        // Splice the closing object's fields after the records array.
        text.remove(0);
        writeln!(out, "\n],{text}")
    }
}
