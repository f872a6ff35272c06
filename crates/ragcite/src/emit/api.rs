//! `check --format api`: the envelope `ragcite serve` returns for the same answer and chunks
//! (the original contract's `RagCitationDebuggerResult`), so that what the service answers can
//! be seen offline. `computedAt` is now, or `SOURCE_DATE_EPOCH`; `links` name the server's
//! default address.

use std::io::{self, Write};

use super::{Emitter, Run, write_document};
use crate::api::envelope::{Envelope, EnvelopeParts};
use crate::api::{DEFAULT_BASE_URL, computed_at};

/// Writes the envelope of a run, echoing the answer and chunks as given.
#[derive(Debug, Clone)]
pub struct ApiEmitter {
    pub answer: String,
    pub chunks: String,
    /// The answer and chunks as read, for the `answer`, `chunks` and marker blocks.
    pub read: Option<ReadInputs>,
}

/// An answer and its chunks as read, owned.
#[derive(Debug, Clone)]
pub struct ReadInputs {
    pub answer: crate::input::Answer,
    pub chunks: crate::input::Chunks,
}

impl ReadInputs {
    pub fn parts(&self) -> crate::api::envelope::Read<'_> {
        crate::api::envelope::Read {
            answer: &self.answer,
            chunks: &self.chunks,
        }
    }
}

impl Emitter for ApiEmitter {
    fn emit(&self, run: &Run<'_>, out: &mut dyn Write) -> io::Result<()> {
        let computed_at = computed_at();
        let envelope = Envelope::new(EnvelopeParts {
            report: run.report,
            answer: &self.answer,
            chunks: &self.chunks,
            threshold: run.inputs.threshold,
            answer_format: &run.inputs.answer.format,
            chunks_format: &run.inputs.chunks.format,
            computed_at: &computed_at,
            base_url: DEFAULT_BASE_URL,
            read: self.read.as_ref().map(ReadInputs::parts),
            gate: Some(run.gate),
            config: &run.inputs.config,
        });
        write_document(out, &envelope)
    }
}

/// The text an agent reads first from the `rag_citation_debugger` tool, before the envelope's
/// JSON: the summary line `ragcite check` ends with (`PASS`/`FAIL`, the verdicts' and the
/// chunks' counts, the limits exceeded), then one line per finding (a problem sentence, a loose
/// misquoted citation) as `check`'s CI formats word it, with where it starts in the answer.
pub fn tool_summary(report: &crate::report::Report, gate: &crate::gate::GateOutcome) -> String {
    let mut text = super::summary_line(report, gate);
    for finding in super::findings::check_findings(report, super::location::STDIN) {
        text.push_str(&format!(
            "\n{} ({}:{}): {}",
            finding.subject, finding.start.line, finding.start.column, finding.message
        ));
    }
    text
}
