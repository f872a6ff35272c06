//! `--format json`: one JSON document with `schemaVersion`, the inputs, a summary, the result,
//! the warnings and the gate's outcome. Never coloured; same inputs, same bytes.

use std::io::{self, Write};

use serde::Serialize;

use super::{Emitter, Inputs, Run, summary_line};
use crate::gate::GateOutcome;
use crate::report::CheckResult;

/// Version of the JSON document's schema. A change that removes or renames a field, or changes
/// its meaning, raises the major number; a new field raises the minor one.
pub const SCHEMA_VERSION: &str = "1.1";

/// The tool that wrote a document.
#[derive(Debug, Clone, Serialize)]
pub struct Tool {
    pub name: &'static str,
    pub version: &'static str,
}

/// The whole `--format json` document.
#[derive(Debug, Clone, Serialize)]
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
        serde_json::to_writer_pretty(&mut *out, &Document::new(run))?;
        writeln!(out)
    }
}
