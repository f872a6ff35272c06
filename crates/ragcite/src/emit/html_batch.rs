//! `batch --format html`: one self-contained HTML file for a batch, written as the records
//! finish. The head (with the inline stylesheet and the Content-Security-Policy) comes first;
//! then, per record, a small JSON block for its table row and, for a checked record, its
//! envelope (the same data as `check --format api`, without `computedAt` and the parts that
//! are the same for every record: units, assumptions, sources, links), which the page parses
//! only when the row is expanded; then the summary, the gate and the script. Nothing of a
//! record is kept once it is written.

use std::io::{self, Write};

use serde_json::json;

use super::html::{BATCH_JS, RENDER_JS, escape, head, json_block};
use super::{BatchEmitter, BatchEnd, BatchInputs, batch_summary_line};
use crate::api::DEFAULT_BASE_URL;
use crate::api::envelope::{Envelope, EnvelopeParts, Read};
use crate::batch::RecordOutcome;

/// Writes the batch report.
#[derive(Debug, Default)]
pub struct BatchHtmlEmitter {
    threshold: f64,
    /// The configuration file applied, or why none was.
    config: super::ConfigUsed,
}

impl BatchHtmlEmitter {
    /// The report's inline script: the renderer, then the table's.
    pub fn script() -> String {
        format!("{RENDER_JS}\n{BATCH_JS}")
    }
}

/// The table's columns: the sort key, the header and what it shows.
const COLUMNS: [(&str, &str); 12] = [
    ("index", "#"),
    ("id", "Record"),
    ("sentences", "Sentences"),
    ("supported", "Supported"),
    ("uncited", "Uncited"),
    ("number-mismatch", "Number mismatch"),
    ("unsupported", "Unsupported"),
    ("weak", "Weak"),
    ("misquote", "Misquote"),
    ("contradicted", "Contradicted"),
    ("failures", "Failing limits"),
    ("", "Details"),
];

impl BatchEmitter for BatchHtmlEmitter {
    fn begin(&mut self, inputs: &BatchInputs, out: &mut dyn Write) -> io::Result<()> {
        self.threshold = inputs.threshold;
        self.config = inputs.config.clone();
        let mut page = head("ragcite batch report", &Self::script());
        page.push_str("<body>\n<main id=\"main\">\n<h1>ragcite batch report</h1>\n");
        page.push_str(&format!(
            "<p class=\"inputs\">Files: {}; {}.</p>\n",
            inputs
                .files
                .iter()
                .map(|f| format!("<code>{}</code>", escape(f)))
                .collect::<Vec<_>>()
                .join(", "),
            escape(&inputs.decided())
        ));
        page.push_str(
            "<div id=\"totals\"></div>\n\
             <p id=\"limits\" class=\"limits\">ragcite measures lexical overlap, not entailment: a reworded claim can look unsupported and a subtly changed one can look supported. Treat the verdicts as pointers for review.</p>\n\
             <div class=\"controls\">\n\
             <label for=\"filter\">Filter</label> <input id=\"filter\" type=\"search\" placeholder=\"id, file, error or verdict\">\n\
             <label for=\"show\">Show</label> <select id=\"show\"><option value=\"all\">all</option><option value=\"failing\">failing</option><option value=\"passing\">passing</option><option value=\"bad\">bad</option></select>\n\
             <span id=\"shown-count\" aria-live=\"polite\"></span>\n\
             </div>\n<div class=\"table-wrap\">\n<table id=\"records\">\n<caption>Records</caption>\n<thead><tr>",
        );
        for (key, label) in COLUMNS {
            if key.is_empty() {
                page.push_str(&format!("<th scope=\"col\">{label}</th>"));
            } else {
                page.push_str(&format!(
                    "<th scope=\"col\" aria-sort=\"none\"><button type=\"button\" data-sort=\"{key}\">{label}</button></th>"
                ));
            }
        }
        page.push_str("</tr></thead>\n<tbody></tbody>\n</table>\n</div>\n<p><button type=\"button\" id=\"more\" hidden>Show more</button></p>\n</main>\n");
        out.write_all(page.as_bytes())
    }

    fn record(&mut self, record: &RecordOutcome, out: &mut dyn Write) -> io::Result<()> {
        let mut text = String::new();
        let row = match &record.result {
            Err(error) => json!({
                "index": record.index, "id": record.index.to_string(), "file": &*record.file,
                "line": record.line, "status": "bad", "error": error, "excerpt": record.excerpt,
            }),
            Ok(checked) => {
                let c = &checked.report.result.counts;
                let failing: Vec<String> = checked
                    .gate
                    .failures
                    .iter()
                    .map(ToString::to_string)
                    .collect();
                let envelope = Envelope::new(EnvelopeParts {
                    report: &checked.report,
                    answer: "",
                    chunks: "",
                    threshold: self.threshold,
                    answer_format: checked.answer_format.name(),
                    chunks_format: checked.chunks.format.name(),
                    computed_at: "",
                    base_url: DEFAULT_BASE_URL,
                    read: Some(Read {
                        answer: &checked.answer,
                        chunks: &checked.chunks,
                    }),
                    gate: Some(&checked.gate),
                    config: &self.config,
                });
                let mut value = serde_json::to_value(&envelope)?;
                // What is the same for every record is left out: 20,000 copies of the units,
                // assumptions, sources and links would be most of the file.
                if let Some(object) = value.as_object_mut() {
                    for key in ["computedAt", "units", "assumptions", "sources", "links"] {
                        object.remove(key);
                    }
                }
                text.push_str(&format!(
                    "<script type=\"application/json\" id=\"record-{}\">{}</script>\n",
                    record.index,
                    json_block(&value)
                ));
                let verdicts: Vec<&str> = checked
                    .report
                    .result
                    .sentences
                    .iter()
                    .map(|s| s.verdict.name())
                    .collect();
                json!({
                    "index": record.index, "id": checked.id, "file": &*record.file,
                    "line": record.line,
                    "status": if checked.gate.passed { "passed" } else { "failing" },
                    "sentences": c.sentences, "supported": c.supported,
                    "uncited": c.uncited_claim, "number-mismatch": c.number_mismatch,
                    "unsupported": c.unsupported_citation, "weak": c.weak_support,
                    "misquote": c.misquote, "contradicted": c.contradicted, "failures": failing.len(), "failing": failing,
                    "verdicts": verdicts,
                })
            }
        };
        let row = format!(
            "<script type=\"application/json\" class=\"row-data\">{}</script>\n",
            json_block(&row)
        );
        out.write_all(row.as_bytes())?;
        out.write_all(text.as_bytes())
    }

    fn finish(&mut self, end: &BatchEnd<'_>, out: &mut dyn Write) -> io::Result<()> {
        let passed = end.gate.passed && end.stopped.is_none();
        let page = format!(
            "<section id=\"batch-end\" aria-label=\"Summary\">\n<p id=\"summary\">{}</p>\n<p id=\"gate\" data-passed=\"{}\">{}</p>\n</section>\n<script>{}</script>\n</body>\n</html>\n",
            escape(&batch_summary_line(end)),
            passed,
            if passed { "Gate passed" } else { "Gate failed" },
            Self::script()
        );
        out.write_all(page.as_bytes())
    }
}
