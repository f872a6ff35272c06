//! `--format github`: GitHub Actions workflow commands, one annotation line per finding
//! (`::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=T::message`), the most severe
//! first and no more than GitHub shows, then the summary as a notice, with what decided the
//! verdicts (the configuration file applied among them). The findings are those of SARIF
//! ([`super::sarif`]).

use std::io::{self, Write};

use super::findings::{BatchFindings, Finding, Level, check_findings, stopped_line};
use super::{BatchEmitter, BatchEnd, BatchInputs, Emitter, Run, batch_summary_line, summary_line};
use crate::batch::RecordOutcome;
use crate::escape::{hidden, push_escape};

/// A message escaped for a workflow command: `%`, CR and LF would end or garble it; other
/// control characters, bidirectional controls and invisible characters would reach the log
/// as they are, so they are written as `\u{…}` (see [`crate::escape::printable`]).
pub fn escape_message(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            c if hidden(c) => push_escape(&mut out, c),
            c => out.push(c),
        }
    }
    out
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

/// One annotation line, without its line break.
pub fn annotation(finding: &Finding) -> String {
    let properties = format!(
        "file={},line={},col={},endLine={},endColumn={},title={}",
        escape_property(&finding.path),
        finding.start.line,
        finding.start.column,
        finding.end.line,
        finding.end.column,
        escape_property(&format!("ragcite {}", finding.rule.id()))
    );
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

/// Most annotations of each kind (errors, warnings, notices) GitHub shows per step; the rest
/// only stay in the log.
pub const MAX_PER_KIND: usize = 10;

/// The annotations of a run, the first [`MAX_PER_KIND`] of each level kept and the rest
/// counted, written most severe first with a notice of what was left out and the summary
/// last (which take two of the notices).
#[derive(Debug, Default)]
struct Annotations {
    /// Errors, warnings and notes, in that order.
    kept: [Vec<String>; 3],
    found: [usize; 3],
}

impl Annotations {
    fn slot(level: Level) -> usize {
        match level {
            Level::Error => 0,
            Level::Warning => 1,
            Level::Note => 2,
        }
    }

    fn add(&mut self, level: Level, line: String) {
        let slot = Self::slot(level);
        self.found[slot] += 1;
        if self.kept[slot].len() < MAX_PER_KIND {
            self.kept[slot].push(line);
        }
    }

    /// Notes shown: the notices left when the summary (and, if anything is left out, the
    /// notice saying so) have theirs.
    fn notes_shown(&self) -> usize {
        let all_fit = self.found[0] <= MAX_PER_KIND
            && self.found[1] <= MAX_PER_KIND
            && self.found[2] < MAX_PER_KIND;
        let reserved = if all_fit { 1 } else { 2 };
        self.found[2].min(MAX_PER_KIND - reserved)
    }

    fn left_out(&self) -> Option<String> {
        let shown = [
            self.found[0].min(MAX_PER_KIND),
            self.found[1].min(MAX_PER_KIND),
            self.notes_shown(),
        ];
        let left: Vec<usize> = (0..3).map(|k| self.found[k] - shown[k]).collect();
        let total: usize = left.iter().sum();
        (total > 0).then(|| {
            format!(
                "{total} annotations were left out ({} errors, {} warnings, {} notes): GitHub \
                 shows at most {MAX_PER_KIND} errors, {MAX_PER_KIND} warnings and \
                 {MAX_PER_KIND} notices per step; `--format json` lists every finding",
                left[0], left[1], left[2]
            )
        })
    }

    fn write(&self, summary: &str, out: &mut dyn Write) -> io::Result<()> {
        let notes = self.notes_shown();
        for (k, lines) in self.kept.iter().enumerate() {
            let shown = if k == 2 { notes } else { lines.len() };
            for line in &lines[..shown] {
                writeln!(out, "{line}")?;
            }
        }
        if let Some(left_out) = self.left_out() {
            writeln!(
                out,
                "::notice title=ragcite left out::{}",
                escape_message(&left_out)
            )?;
        }
        writeln!(out, "{}", summary_notice(summary))
    }
}

/// Writes GitHub annotations for `check` and `batch`.
///
/// GitHub shows at most 10 errors, 10 warnings and 10 notices per step: the most severe are
/// written, errors first, the rest counted in a closing notice (and on standard error), so that
/// the annotations a reviewer sees are the ones that matter. A batch keeps only those it will
/// write, however many records it reads.
#[derive(Debug, Default)]
pub struct GithubEmitter {
    findings: BatchFindings,
    annotations: Annotations,
    /// What decided the verdicts, said after the summary.
    decided: String,
}

impl GithubEmitter {
    fn annotations_of(findings: &[Finding]) -> Annotations {
        let mut annotations = Annotations::default();
        for finding in findings {
            annotations.add(finding.level(), annotation(finding));
        }
        annotations
    }
}

impl Emitter for GithubEmitter {
    fn emit(&self, run: &Run<'_>, out: &mut dyn Write) -> io::Result<()> {
        let findings = check_findings(run.report, &run.inputs.answer.path);
        let summary = format!(
            "{} · {}",
            summary_line(run.report, run.gate),
            run.inputs.decided()
        );
        Self::annotations_of(&findings).write(&summary, out)
    }

    fn left_out(&self, run: &Run<'_>) -> Option<String> {
        Self::annotations_of(&check_findings(run.report, &run.inputs.answer.path)).left_out()
    }

    fn file_positions(&self) -> bool {
        true
    }
}

impl BatchEmitter for GithubEmitter {
    fn file(&mut self, path: &str) {
        self.findings.set_file(path);
    }

    fn begin(&mut self, inputs: &BatchInputs, _out: &mut dyn Write) -> io::Result<()> {
        self.findings = BatchFindings::new(inputs);
        self.annotations = Annotations::default();
        self.decided = inputs.decided();
        Ok(())
    }

    fn record(&mut self, record: &RecordOutcome, _out: &mut dyn Write) -> io::Result<()> {
        for finding in self.findings.of(record) {
            self.annotations.add(finding.level(), annotation(&finding));
        }
        Ok(())
    }

    fn finish(&mut self, end: &BatchEnd<'_>, out: &mut dyn Write) -> io::Result<()> {
        if let Some(reason) = end.stopped {
            // The most important error of all: it goes first.
            let line = stopped_line(reason)
                .map(|line| format!(",line={line}"))
                .unwrap_or_default();
            let stopped = format!(
                "::error file={}{line},title={}::{}",
                escape_property(self.findings.path()),
                escape_property("ragcite batch-stopped"),
                escape_message(&format!(
                    "the batch stopped at {reason}: the records after it were not checked"
                ))
            );
            self.annotations.found[0] += 1;
            self.annotations.kept[0].insert(0, stopped);
            self.annotations.kept[0].truncate(MAX_PER_KIND);
        }
        let summary = format!("{} · {}", batch_summary_line(end), self.decided);
        self.annotations.write(&summary, out)
    }

    fn left_out(&self) -> Option<String> {
        self.annotations.left_out()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_and_properties_are_escaped() {
        assert_eq!(escape_message("50% a\r\nb: c, d"), "50%25 a%0D%0Ab: c, d");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
        assert_eq!(
            escape_message("a\u{1b}]0;t\u{7}\u{202e}\u{200b}\u{9b}b"),
            "a\\u{1b}]0;t\\u{7}\\u{202e}\\u{200b}\\u{9b}b"
        );
    }
}
