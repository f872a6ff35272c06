//! Emitters: one file per output format, each writing the same [`Run`] to a writer. They never
//! decide the exit code; the gate does.

pub mod json;
pub mod table;

use std::io::{self, Write};

use serde::Serialize;

use crate::gate::{GateOutcome, Limits};
use crate::report::{ChunkStatus, Report, Verdict};

/// What was checked and how: file names and settings, for `inputs` in machine output.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Inputs {
    pub answer: AnswerInput,
    pub chunks: InputFile,
    pub threshold: f64,
    pub lang: String,
    pub limits: Limits,
}

/// The answer file: its name, its format, whether it was a stream, and the token counts the
/// response reports.
#[derive(Debug, Clone, Serialize)]
pub struct AnswerInput {
    pub path: String,
    pub format: String,
    pub streamed: bool,
    /// `promptTokens` and `completionTokens`, when the response reports them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens: Option<crate::input::Usage>,
}

/// One input file: its name as given (`-` is named `<stdin>`) and the format it was read as.
#[derive(Debug, Clone, Serialize)]
pub struct InputFile {
    pub path: String,
    pub format: String,
}

/// One finished check, ready to be written.
#[derive(Debug, Clone, Copy)]
pub struct Run<'a> {
    pub report: &'a Report,
    pub gate: &'a GateOutcome,
    pub inputs: &'a Inputs,
}

/// Writes a run in one output format.
pub trait Emitter {
    fn emit(&self, run: &Run<'_>, out: &mut dyn Write) -> io::Result<()>;
}

/// The one-line summary: whether the gate passed, the verdict tallies, and each limit that
/// failed with by how much.
pub fn summary_line(report: &Report, gate: &GateOutcome) -> String {
    let counts = &report.result.counts;
    let verdicts: Vec<String> = Verdict::ALL
        .iter()
        .filter(|v| counts.of_verdict(**v) > 0)
        .map(|v| format!("{} {}", counts.of_verdict(*v), v.name()))
        .collect();
    let statuses: Vec<String> = [
        ChunkStatus::Used,
        ChunkStatus::CitedButNotSupporting,
        ChunkStatus::RelevantButUncited,
        ChunkStatus::Unused,
    ]
    .iter()
    .filter(|s| counts.of_status(**s) > 0)
    .map(|s| format!("{} {}", counts.of_status(*s), s.name()))
    .collect();
    let mut line = format!(
        "{} · {} {}{}{} · {} {}{}{}",
        if gate.passed { "PASS" } else { "FAIL" },
        counts.sentences,
        plural(counts.sentences, "sentence", "sentences"),
        if verdicts.is_empty() { "" } else { ": " },
        verdicts.join(", "),
        counts.chunks,
        plural(counts.chunks, "chunk", "chunks"),
        if statuses.is_empty() { "" } else { ": " },
        statuses.join(", "),
    );
    if counts.unknown_markers > 0 {
        line.push_str(&format!(
            " · {} unknown {}",
            counts.unknown_markers,
            plural(counts.unknown_markers, "marker", "markers")
        ));
    }
    if gate.passed {
        line.push_str(" · all limits held");
    } else {
        let failures: Vec<String> = gate
            .failures
            .iter()
            .map(|f| {
                format!(
                    "{} {} > --{} {} (+{})",
                    f.found, f.counts, f.limit, f.allowed, f.over
                )
            })
            .collect();
        line.push_str(&format!(" · limits exceeded: {}", failures.join(", ")));
    }
    line
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}
