//! `--format junit`: JUnit XML for CI test reports. `check` writes one test case per claim
//! sentence (failing when the sentence has a finding); `batch` one test case per record
//! (failing when the record exceeds its per-record limits, an error when it cannot be read).
//! The findings are those of SARIF ([`super::sarif`]).

use std::collections::HashMap;
use std::io::{self, Write};

use super::findings::{
    BatchFindings, Finding, check_findings, display_path, record_label, stopped_line,
};
use super::{BatchEmitter, BatchEnd, BatchInputs, Emitter, Run, batch_summary_line, summary_line};
use crate::batch::RecordOutcome;
use crate::report::preview;

/// Characters of the sentence shown in a test case's name.
const NAME_CHARS: usize = 60;

/// Whether XML 1.0 allows the character at all (its `Char` production): most C0 controls,
/// U+FFFE and U+FFFF are forbidden even as character references.
fn allowed_in_xml(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// Text escaped for XML element content: the five special characters as entities, forbidden
/// characters replaced by U+FFFD (a visible sign that something was there).
pub fn xml_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if allowed_in_xml(c) => out.push(c),
            _ => out.push('\u{FFFD}'),
        }
    }
    out
}

/// Text escaped for an XML attribute value: as element content, and tab and line breaks as
/// character references, which attribute-value normalisation would otherwise turn into
/// spaces.
pub fn xml_attribute(text: &str) -> String {
    xml_text(text)
        .replace('\t', "&#9;")
        .replace('\n', "&#10;")
        .replace('\r', "&#13;")
}

/// What makes a test case fail: `<failure>` for a problem, `<error>` for something that could
/// not be checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Failure,
    Error,
}

/// One test case, rendered.
fn test_case(
    classname: &str,
    name: &str,
    file: &str,
    outcome: Option<(Outcome, &str, &str, &str)>,
) -> String {
    let open = format!(
        "    <testcase classname=\"{}\" name=\"{}\" file=\"{}\"",
        xml_attribute(classname),
        xml_attribute(name),
        xml_attribute(file)
    );
    match outcome {
        None => format!("{open}/>\n"),
        Some((outcome, message, kind, body)) => {
            let element = match outcome {
                Outcome::Failure => "failure",
                Outcome::Error => "error",
            };
            format!(
                "{open}>\n      <{element} message=\"{}\" type=\"{}\">{}</{element}>\n    </testcase>\n",
                xml_attribute(message),
                xml_attribute(kind),
                xml_text(body)
            )
        }
    }
}

/// A finding as one line of a failure's body: `path:line:column: message`.
fn body_line(finding: &Finding) -> String {
    format!(
        "{}:{}:{}: {}",
        finding.path, finding.start.line, finding.start.column, finding.message
    )
}

/// The whole document around its test cases.
struct Totals {
    tests: usize,
    failures: usize,
    errors: usize,
}

fn write_document(
    out: &mut dyn Write,
    suite: &str,
    totals: &Totals,
    cases: &[String],
    summary: &str,
) -> io::Result<()> {
    let counts = format!(
        "tests=\"{}\" failures=\"{}\" errors=\"{}\"",
        totals.tests, totals.failures, totals.errors
    );
    writeln!(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>")?;
    writeln!(out, "<testsuites name=\"ragcite\" {counts}>")?;
    writeln!(
        out,
        "  <testsuite name=\"{}\" {counts}>",
        xml_attribute(suite)
    )?;
    for case in cases {
        out.write_all(case.as_bytes())?;
    }
    writeln!(out, "    <system-out>{}</system-out>", xml_text(summary))?;
    writeln!(out, "  </testsuite>")?;
    writeln!(out, "</testsuites>")
}

/// Writes JUnit XML for `check` and `batch`.
///
/// JUnit output for a batch is held in memory until the end: the totals come first, as
/// attributes of `<testsuites>` and `<testsuite>`, so nothing can be written before the last
/// record. Only each record's rendered test case is kept (a few hundred bytes for a passing
/// record, more for one with many problems).
#[derive(Debug, Default)]
pub struct JunitEmitter {
    findings: BatchFindings,
    cases: Vec<String>,
    failures: usize,
    errors: usize,
}

impl Emitter for JunitEmitter {
    fn emit(&self, run: &Run<'_>, out: &mut dyn Write) -> io::Result<()> {
        let findings = check_findings(run.report, &run.inputs.answer.path);
        let by_subject: HashMap<&str, &Finding> = findings
            .iter()
            .map(|finding| (finding.subject.as_str(), finding))
            .collect();
        let file = display_path(&run.inputs.answer.path);
        let mut cases = Vec::new();
        let mut failures = 0;
        let mut case_of = |name: String, finding: Option<&Finding>| {
            let body = finding.map(|f| format!("{}\n{}", body_line(f), f.rule.summary()));
            let outcome = finding
                .zip(body.as_deref())
                .map(|(f, body)| (Outcome::Failure, f.message.as_str(), f.rule.id(), body));
            failures += usize::from(outcome.is_some());
            cases.push(test_case("ragcite.check", &name, &file, outcome));
        };
        for s in &run.report.result.sentences {
            let subject = format!("sentence {}", s.index);
            let finding = by_subject.get(subject.as_str()).copied();
            // A sentence without a claim is no test, unless it still has a finding (an
            // unknown marker on a sentence with nothing else to check).
            if !s.verdict.is_claim() && finding.is_none() {
                continue;
            }
            let rule = finding.map_or(s.verdict.name(), |f| f.rule.id());
            let name = format!("{subject}: {rule} {}", preview(&s.sentence, NAME_CHARS));
            case_of(name, finding);
        }
        for finding in findings
            .iter()
            .filter(|f| f.subject.starts_with("citation "))
        {
            let name = format!(
                "{}: {} {}",
                finding.subject,
                finding.rule.id(),
                preview(&finding.text, NAME_CHARS)
            );
            case_of(name, Some(finding));
        }
        let totals = Totals {
            tests: cases.len(),
            failures,
            errors: 0,
        };
        write_document(
            out,
            &format!("ragcite check {file}"),
            &totals,
            &cases,
            &summary_line(run.report, run.gate),
        )
    }
}

impl BatchEmitter for JunitEmitter {
    fn file(&mut self, path: &str) {
        self.findings.set_file(path);
    }

    fn begin(&mut self, inputs: &BatchInputs, _out: &mut dyn Write) -> io::Result<()> {
        self.findings = BatchFindings::new(inputs);
        self.cases.clear();
        self.failures = 0;
        self.errors = 0;
        Ok(())
    }

    fn record(&mut self, record: &RecordOutcome, _out: &mut dyn Write) -> io::Result<()> {
        let findings = self.findings.of(record);
        let file = self.findings.path().to_string();
        // The worst finding names the record's rule: the first of the most serious level.
        let worst = findings
            .iter()
            .rev()
            .max_by_key(|finding| finding.level())
            .map(|finding| finding.rule.id());
        let case = match &record.result {
            Err(error) => {
                self.errors += 1;
                let name = format!(
                    "record #{} (line {}): {}",
                    record.index,
                    record.line,
                    worst.unwrap_or("bad-record")
                );
                let body = findings
                    .iter()
                    .map(body_line)
                    .collect::<Vec<_>>()
                    .join("\n");
                test_case(
                    "ragcite.batch",
                    &name,
                    &file,
                    Some((Outcome::Error, error, "bad-record", &body)),
                )
            }
            Ok(checked) => {
                let mut name = format!(
                    "record {} (line {})",
                    record_label(&checked.id, record.index),
                    record.line
                );
                if let Some(rule) = worst {
                    name.push_str(&format!(": {rule}"));
                }
                if checked.gate.passed {
                    test_case("ragcite.batch", &name, &file, None)
                } else {
                    self.failures += 1;
                    let limits: Vec<String> = checked
                        .gate
                        .failures
                        .iter()
                        .map(ToString::to_string)
                        .collect();
                    let message = format!("limits exceeded: {}", limits.join(", "));
                    let body = findings
                        .iter()
                        .map(body_line)
                        .collect::<Vec<_>>()
                        .join("\n");
                    test_case(
                        "ragcite.batch",
                        &name,
                        &file,
                        Some((
                            Outcome::Failure,
                            &message,
                            worst.unwrap_or("limits-exceeded"),
                            &body,
                        )),
                    )
                }
            }
        };
        self.cases.push(case);
        Ok(())
    }

    fn finish(&mut self, end: &BatchEnd<'_>, out: &mut dyn Write) -> io::Result<()> {
        let file = self.findings.path().to_string();
        if let Some(reason) = end.stopped {
            // The records after the break were never read: an error case says so, so that a
            // test report does not look complete.
            self.errors += 1;
            let name = match stopped_line(reason) {
                Some(line) => format!("batch stopped (line {line}): batch-stopped"),
                None => "batch stopped: batch-stopped".to_string(),
            };
            let message =
                format!("the batch stopped at {reason}: the records after it were not checked");
            let case = test_case(
                "ragcite.batch",
                &name,
                &file,
                Some((Outcome::Error, &message, "batch-stopped", &message)),
            );
            self.cases.push(case);
        }
        let totals = Totals {
            tests: self.cases.len(),
            failures: self.failures,
            errors: self.errors,
        };
        write_document(
            out,
            &format!("ragcite batch {file}"),
            &totals,
            &self.cases,
            &batch_summary_line(end),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::findings::Level;
    use super::*;

    #[test]
    fn text_and_attributes_are_escaped_and_forbidden_characters_replaced() {
        assert_eq!(
            xml_text("a & b < c > d \"e\" 'f'\u{1}\u{FFFF}\tg"),
            "a &amp; b &lt; c &gt; d &quot;e&quot; &apos;f&apos;\u{FFFD}\u{FFFD}\tg"
        );
        assert_eq!(xml_attribute("a\tb\nc\rd"), "a&#9;b&#10;c&#13;d");
    }

    #[test]
    fn levels_order_from_note_to_error() {
        assert!(Level::Error > Level::Warning && Level::Warning > Level::Note);
    }
}
