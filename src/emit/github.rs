//! `--format github`: GitHub Actions workflow commands, one annotation line per finding
//! (`::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=T::message`), then the summary
//! as a notice. The findings are those of SARIF ([`super::sarif`]).

use std::io::{self, Write};

use super::findings::{BatchFindings, Finding, Level, check_findings, stopped_line};
use super::{BatchEmitter, BatchEnd, BatchInputs, Emitter, Run, batch_summary_line, summary_line};
use crate::batch::RecordOutcome;

/// A message escaped for a workflow command: `%`, CR and LF would end or garble it.
pub fn escape_message(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A property value escaped for a workflow command: also `:` and `,`, which separate the
/// properties from each other and from the message.
pub fn escape_property(text: &str) -> String {
    escape_message(text).replace(':', "%3A").replace(',', "%2C")
}

/// The workflow command of a level (SARIF's `note` is GitHub's `notice`).
fn command(level: Level) -> &'static str {
    match level {
        Level::Note => "notice",
        Level::Warning => "warning",
        Level::Error => "error",
    }
}

/// One annotation line, without its line break. Without a known end (the whole line), only
/// the line and column 1 are given.
pub fn annotation(finding: &Finding) -> String {
    let mut properties = format!(
        "file={},line={},col={}",
        escape_property(&finding.path),
        finding.start.line,
        finding.start.column
    );
    if let Some(end) = finding.end {
        properties.push_str(&format!(",endLine={},endColumn={}", end.line, end.column));
    }
    properties.push_str(&format!(
        ",title={}",
        escape_property(&format!("ragcite {}", finding.rule.id()))
    ));
    format!(
        "::{} {properties}::{}",
        command(finding.level()),
        escape_message(&finding.message)
    )
}

/// The summary line as a notice, so that it shows in the log and the run's summary.
fn summary_notice(summary: &str) -> String {
    format!("::notice title=ragcite::{}", escape_message(summary))
}

/// Writes GitHub annotations for `check` and `batch`, as records finish.
///
/// GitHub shows at most 10 errors and 10 warnings (and 10 notices) per step as annotations;
/// every finding is written anyway, since the log keeps them all, and the closing summary
/// says how many there were.
#[derive(Debug, Default)]
pub struct GithubEmitter {
    findings: BatchFindings,
}

impl Emitter for GithubEmitter {
    fn emit(&self, run: &Run<'_>, out: &mut dyn Write) -> io::Result<()> {
        for finding in check_findings(run.report, &run.inputs.answer.path) {
            writeln!(out, "{}", annotation(&finding))?;
        }
        writeln!(
            out,
            "{}",
            summary_notice(&summary_line(run.report, run.gate))
        )
    }
}

impl BatchEmitter for GithubEmitter {
    fn file(&mut self, path: &str) {
        self.findings.set_file(path);
    }

    fn begin(&mut self, inputs: &BatchInputs, _out: &mut dyn Write) -> io::Result<()> {
        self.findings = BatchFindings::new(inputs);
        Ok(())
    }

    fn record(&mut self, record: &RecordOutcome, out: &mut dyn Write) -> io::Result<()> {
        for finding in self.findings.of(record) {
            writeln!(out, "{}", annotation(&finding))?;
        }
        Ok(())
    }

    fn finish(&mut self, end: &BatchEnd<'_>, out: &mut dyn Write) -> io::Result<()> {
        if let Some(reason) = end.stopped {
            let line = stopped_line(reason)
                .map(|line| format!(",line={line}"))
                .unwrap_or_default();
            writeln!(
                out,
                "::error file={}{line},title={}::{}",
                escape_property(self.findings.path()),
                escape_property("ragcite batch-stopped"),
                escape_message(&format!(
                    "the batch stopped at {reason}: the records after it were not checked"
                ))
            )?;
        }
        writeln!(out, "{}", summary_notice(&batch_summary_line(end)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_and_properties_are_escaped() {
        assert_eq!(escape_message("50% a\r\nb: c, d"), "50%25 a%0D%0Ab: c, d");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }
}
