//! Emitters: one file per output format, each writing the same [`Run`] to a writer. They never
//! decide the exit code; the gate does.

pub mod api;
pub mod compare;
pub mod diagnostics;
pub mod eval;
pub mod explain;
pub mod findings;
pub mod github;
pub mod gitlab;
pub mod html;
pub mod html_batch;
pub mod html_compare;
pub mod json;
pub mod jsonl;
pub mod junit;
pub mod location;
pub mod quote;
pub mod sarif;
pub mod table;
#[cfg(test)]
pub(crate) mod testing;

use std::io::{self, Write};

use serde::Serialize;

use crate::batch::baseline::BaselineOutcome;
use crate::batch::{Aggregate, BatchGate, BatchLimits, RecordOutcome};
pub use crate::gate::summary_line;
use crate::gate::{GateOutcome, Limits};
pub use crate::report::{ConfigSource, ConfigUsed};
use crate::report::{Report, plural};

/// What was checked and how: file names and settings, for `inputs` in machine output.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Inputs {
    pub answer: AnswerInput,
    pub chunks: InputFile,
    pub threshold: f64,
    /// What scored support: `shipped`, `formula`, or the model file as given. Added in 2.0.
    pub model: String,
    /// The language the answer was read in: `--lang`'s, or the detected one with `--lang auto`.
    pub lang: String,
    /// `lang` was detected from the answer (`--lang auto`); absent otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub lang_detected: bool,
    pub limits: Limits,
    /// The configuration file whose options were applied, or why none was. Added in 3.3.
    pub config: ConfigUsed,
}

/// The answer file: its name, its format, whether it was a stream, and the token counts the
/// response reports.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct AnswerInput {
    pub path: String,
    pub format: String,
    pub streamed: bool,
    /// `promptTokens` and `completionTokens`, when the response reports them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens: Option<crate::input::Usage>,
}

/// One input file: its name as given (`-` is named `<stdin>`) and the format it was read as.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
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

    /// What the output left out of `run` (a consumer's limit on what it accepts), and how to
    /// see it all; the binary says it on standard error.
    fn left_out(&self, _run: &Run<'_>) -> Option<String> {
        None
    }

    /// Whether the output points into the answer file by line and column, so that a response's
    /// report needs its [`SourceMap`](crate::input::SourceMap) (`Report::source`): the CI
    /// formats do; the others write offsets into the answer's text, and spare its cost.
    fn file_positions(&self) -> bool {
        false
    }
}

/// What a batch was run on and how, for `inputs` in machine output.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BatchInputs {
    /// The transcript files, in the order they are read (`-` is named `<stdin>` or
    /// `--stdin-filename`).
    pub files: Vec<String>,
    pub threshold: f64,
    /// What scored support: `shipped`, `formula`, or the model file as given. Added in 2.0.
    pub model: String,
    pub lang: String,
    /// `--citation-scope`: `sentence` or `paragraph`. Added in 3.3.
    pub citation_scope: String,
    /// `--marker`'s pattern as given; `null` without one. Added in 3.3.
    pub marker: Option<String>,
    /// `--claim-threshold`. Added in 3.5.
    pub claim_threshold: f64,
    /// What told claims from non-claims: `shipped`, `rules`, or the claim model file as given.
    /// Added in 3.5.
    pub claim_model: String,
    pub limits: BatchLimits,
    /// The field paths tried, in order, for each field.
    pub fields: BatchFields,
    /// The configuration file whose options were applied, or why none was. Added in 3.3.
    pub config: ConfigUsed,
}

/// The field paths of a batch, as given or defaulted.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct BatchFields {
    pub id: Vec<String>,
    pub answer: Vec<String>,
    pub contexts: Vec<String>,
    /// Where the question is read: its figures are context, not claims. Added in schema 3.0.
    pub question: Vec<String>,
}

/// How a batch ended.
#[derive(Debug, Clone, Copy)]
pub struct BatchEnd<'a> {
    pub aggregate: &'a Aggregate,
    pub gate: &'a BatchGate,
    /// Why the batch stopped before the end of its file, if it did: the output is incomplete.
    pub stopped: Option<&'a str>,
    /// With `--baseline`: the findings new, unchanged and fixed against it. The gate then
    /// counts the new findings only.
    pub baseline: Option<&'a BaselineOutcome>,
}

/// Writes a batch as its records finish: `begin` once, `record` for each record in input
/// order, `finish` once (also after an error, so that documents are always closed).
pub trait BatchEmitter {
    fn begin(&mut self, inputs: &BatchInputs, out: &mut dyn Write) -> io::Result<()>;
    /// A new transcript file starts; its records follow.
    fn file(&mut self, _path: &str) {}
    fn record(&mut self, record: &RecordOutcome, out: &mut dyn Write) -> io::Result<()>;
    fn finish(&mut self, end: &BatchEnd<'_>, out: &mut dyn Write) -> io::Result<()>;

    /// What the output left out (a consumer's limit on what it accepts), and how to see it
    /// all, once the batch is finished; the binary says it on standard error.
    fn left_out(&self) -> Option<String> {
        None
    }

    /// Whether it writes the findings' fingerprints ([`RecordOutcome::findings`]); without a
    /// baseline, a batch whose output does not is spared making them.
    fn shows_fingerprints(&self) -> bool {
        false
    }
}

/// What decided the verdicts, for the human outputs' footers: `decided with threshold 0.50 ·
/// model shipped · language en · no config found`. The model file's name and the configuration
/// file's path are escaped for a terminal.
pub fn decided_line(
    threshold: f64,
    model: &str,
    lang: &str,
    lang_detected: bool,
    config: &ConfigUsed,
) -> String {
    let detected = if lang_detected { " (detected)" } else { "" };
    format!(
        "decided with threshold {threshold:.2} · model {} · language {}{detected} · {}",
        crate::escape::printable_line(model),
        crate::escape::printable_line(lang),
        config.describe()
    )
}

impl Inputs {
    /// What decided the verdicts (see [`decided_line`]): every output says it, so that the
    /// configuration file a run applied is never hidden.
    pub fn decided(&self) -> String {
        decided_line(
            self.threshold,
            &self.model,
            &self.lang,
            self.lang_detected,
            &self.config,
        )
    }
}

impl BatchInputs {
    /// What decided the verdicts (see [`decided_line`]); with `--lang auto`, the language is
    /// detected per record.
    pub fn decided(&self) -> String {
        let lang = if self.lang == "auto" {
            "detected per record"
        } else {
            self.lang.as_str()
        };
        decided_line(self.threshold, &self.model, lang, false, &self.config)
    }
}

/// The batch's one-line summary: whether the gate passed, records, rates and failed limits.
pub fn batch_summary_line(end: &BatchEnd<'_>) -> String {
    let a = end.aggregate;
    let mut line = format!(
        "{} · {} {}: {} checked, {} bad, {} failing · {} claim {}: uncited {:.1}%, number-mismatch {:.1}%, unsupported {:.1}%",
        if end.gate.passed && end.stopped.is_none() {
            "PASS"
        } else {
            "FAIL"
        },
        a.records,
        plural(a.records, "record", "records"),
        a.checked,
        a.bad_records,
        a.failing_records,
        a.counts.claims,
        plural(a.counts.claims, "sentence", "sentences"),
        a.rates.uncited * 100.0,
        a.rates.number_mismatch * 100.0,
        a.rates.unsupported * 100.0,
    );
    if a.counts.contradicted > 0 {
        line.push_str(&format!(
            ", contradicted {:.1}%",
            a.rates.contradicted * 100.0
        ));
    }
    if a.counts.unchecked_lines > 0 {
        line.push_str(&format!(
            " · {} {} not checked (code, comments or hidden text)",
            a.counts.unchecked_lines,
            plural(a.counts.unchecked_lines, "line", "lines")
        ));
    }
    if a.abstaining_records > 0 {
        line.push_str(&format!(
            " · abstaining records {:.1}%",
            a.rates.abstentions * 100.0
        ));
    }
    if let Some(baseline) = end.baseline {
        line.push_str(&format!(" · {}", baseline.line()));
    }
    if let Some(reason) = end.stopped {
        line.push_str(&format!(" · INCOMPLETE: stopped at {reason}"));
    }
    if end.gate.passed && end.stopped.is_some() {
        line.push_str(" · the limits held for the records read");
    } else if end.gate.passed {
        line.push_str(" · all limits held");
    } else {
        let mut failures: Vec<String> = end.gate.failures.iter().map(ToString::to_string).collect();
        failures.extend(end.gate.rate_failures.iter().map(|f| {
            format!(
                "{} {:.4} > --{} {} (+{:.4})",
                f.counts, f.found, f.limit, f.allowed, f.over
            )
        }));
        line.push_str(&format!(" · limits exceeded: {}", failures.join(", ")));
    }
    line
}

/// Writes `value` as pretty-printed JSON (Unicode line ends escaped, see [`crate::escape`]) and a
/// final line break. The document is serialised in memory first: serde_json writes in many
/// small pieces, and each would otherwise be a call through `dyn Write`.
pub(crate) fn write_document(out: &mut dyn Write, value: &impl Serialize) -> io::Result<()> {
    let mut document = crate::escape::to_vec_pretty(value)?;
    document.push(b'\n');
    out.write_all(&document)
}

#[cfg(test)]
mod tests {
    use super::{ConfigSource, ConfigUsed};

    #[test]
    fn the_config_is_described_for_a_footer_and_its_path_escaped() {
        let used = |source, path: Option<&str>| ConfigUsed {
            source,
            path: path.map(str::to_string),
        };
        let found = used(ConfigSource::Found, Some("../.ragcite.toml"));
        assert_eq!(found.describe(), "config ../.ragcite.toml");
        let given = used(ConfigSource::Given, Some("team\u{1b}[2J.toml"));
        assert_eq!(given.describe(), "config team\\u{1b}[2J.toml (--config)");
        assert_eq!(ConfigUsed::isolated().describe(), "no config (--isolated)");
        assert_eq!(used(ConfigSource::None, None).describe(), "no config found");
    }
}
