//! `--format junit`: JUnit XML for CI test reports (Jenkins, GitLab): a test case per checked
//! answer and limit that is set, failing when the answer exceeds the limit, an error when a
//! record cannot be read. The findings in the failures are those of SARIF ([`super::sarif`]).

use std::collections::HashMap;
use std::io::{self, Read, Seek, Write};

use super::findings::{BatchFindings, Finding, Rule, check_findings, display_path, record_label};
use super::{BatchEmitter, BatchEnd, BatchInputs, Emitter, Run, batch_summary_line, summary_line};
use crate::batch::RecordOutcome;
use crate::gate::{GateOutcome, Limits};

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

/// One test case, rendered. `time` is always 0: ragcite's timings would make the report differ
/// from run to run for the same input, and a check takes microseconds.
fn test_case(classname: &str, name: &str, outcome: Option<(Outcome, &str, &str, &str)>) -> String {
    let open = format!(
        "    <testcase classname=\"{}\" name=\"{}\" time=\"0\"",
        xml_attribute(classname),
        xml_attribute(name),
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

/// A file's path as a `classname`: its folders and name joined by dots (`evals/run.jsonl` is
/// `evals.run.jsonl`), as test reports group classes.
fn classname(path: &str) -> String {
    path.trim_start_matches('/').replace('/', ".")
}

/// The limits that are set, each as the rule it counts (a test case's name) and the option
/// that sets it (what the gate names when it fails).
fn limit_rules(limits: &Limits) -> Vec<(&'static str, &'static str)> {
    [
        (limits.max_uncited, "uncited-claim", "max-uncited"),
        (
            limits.max_number_mismatch,
            "number-mismatch",
            "max-number-mismatch",
        ),
        (
            limits.max_unsupported,
            "unsupported-citation",
            "max-unsupported",
        ),
        (
            limits.max_unknown_markers,
            "unknown-marker",
            "max-unknown-markers",
        ),
        (limits.max_misquotes, "misquote", "max-misquotes"),
        (limits.max_contradicted, "contradicted", "max-contradicted"),
        (limits.max_weak, "weak-support", "max-weak"),
        (limits.max_abstentions, "abstention", "max-abstentions"),
    ]
    .into_iter()
    .filter(|(limit, _, _)| limit.is_some())
    .map(|(_, rule, option)| (rule, option))
    .collect()
}

/// Whether a finding is one of those a limit counts.
fn counted_by(finding: &Finding, rule: &str) -> bool {
    finding.rule.id() == rule
        || (rule == Rule::UnknownMarker.id() && finding.message.contains("to no chunk"))
}

/// The test cases of one checked answer (the `check` answer, or a batch record): one per limit
/// that is set, named `<prefix><rule>` so that a case keeps its name across edits and a fixed
/// answer shows as fixed; failing when the answer exceeds that limit, with the findings of
/// that rule in its body.
fn limit_cases(
    class: &str,
    prefix: &str,
    limits: &Limits,
    gate: &GateOutcome,
    findings: &[Finding],
    totals: &mut Totals,
) -> Vec<String> {
    limit_rules(limits)
        .into_iter()
        .map(|(rule, option)| {
            totals.tests += 1;
            let name = format!("{prefix}{rule}");
            let Some(failure) = gate.failures.iter().find(|f| f.limit == option) else {
                return test_case(class, &name, None);
            };
            totals.failures += 1;
            let message = format!("limit exceeded: {failure}");
            let mut body: Vec<String> = findings
                .iter()
                .filter(|f| counted_by(f, rule))
                .map(body_line)
                .collect();
            body.insert(0, message.clone());
            test_case(
                class,
                &name,
                Some((Outcome::Failure, &message, rule, &body.join("\n"))),
            )
        })
        .collect()
}

/// The counts of a suite, or of the whole document.
#[derive(Debug, Default, Clone, Copy)]
struct Totals {
    tests: usize,
    failures: usize,
    errors: usize,
}

impl Totals {
    fn add(&mut self, other: Totals) {
        self.tests += other.tests;
        self.failures += other.failures;
        self.errors += other.errors;
    }

    fn attributes(&self) -> String {
        format!(
            "tests=\"{}\" failures=\"{}\" errors=\"{}\"",
            self.tests, self.failures, self.errors
        )
    }
}

/// One `<testsuite>`: one input file and its cases.
#[derive(Debug, Default)]
struct Suite {
    path: String,
    totals: Totals,
    cases: Vec<String>,
    /// Bytes of its cases in the batch's [`Spool`], after `cases`.
    spooled: u64,
    /// Names given so far, to number the cases of records that share an id.
    names: HashMap<String, usize>,
    /// The names that are numbers (the positions of records without an id, mostly).
    numbers: NumberCounts,
}

/// How many times each number was given as a name, in constant memory for the common case:
/// the positions 1, 2, 3 … of the records without an id come in order, each once, and are kept
/// as one count (`run`: every number from 1 to it was given, once unless `counts` says
/// otherwise); any other number (a repeat, a gap, an id that is a number) is kept in `counts`.
#[derive(Debug, Default)]
struct NumberCounts {
    run: u64,
    counts: HashMap<u64, usize>,
}

impl NumberCounts {
    /// Counts `n` once more; how many times it has been given, this one included.
    fn next(&mut self, n: u64) -> usize {
        let in_run = (1..=self.run).contains(&n);
        let seen = self.counts.get(&n).copied().unwrap_or(usize::from(in_run)) + 1;
        if self.run.checked_add(1) == Some(n) {
            self.run = n;
        }
        if seen > 1 || !(1..=self.run).contains(&n) {
            self.counts.insert(n, seen);
        }
        seen
    }
}

impl Suite {
    fn new(path: &str) -> Self {
        Suite {
            path: path.to_string(),
            ..Suite::default()
        }
    }

    /// A record's name prefix, unique in its file: its label, numbered (`q1 (2)`) when an
    /// earlier record of the file had the same.
    fn prefix(&mut self, label: &str) -> String {
        let seen = match number(label) {
            Some(n) => self.numbers.next(n),
            None => {
                let seen = self.names.entry(label.to_string()).or_insert(0);
                *seen += 1;
                *seen
            }
        };
        if seen == 1 {
            format!("{label}: ")
        } else {
            format!("{label} ({seen}): ")
        }
    }

    /// The suite, its spooled cases read from `spool` (where the previous suite's end).
    fn render(
        &self,
        summary: Option<&str>,
        spool: Option<&mut dyn Read>,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        writeln!(
            out,
            "  <testsuite name=\"{}\" {} skipped=\"0\" time=\"0\" file=\"{}\">",
            xml_attribute(&self.path),
            self.totals.attributes(),
            xml_attribute(&self.path)
        )?;
        for case in &self.cases {
            out.write_all(case.as_bytes())?;
        }
        if let Some(spool) = spool {
            let copied = io::copy(&mut spool.take(self.spooled), &mut *out)?;
            if copied != self.spooled {
                return Err(io::Error::other("the spooled test cases were cut short"));
            }
        }
        if let Some(summary) = summary {
            writeln!(out, "    <system-out>{}</system-out>", xml_text(summary))?;
        }
        writeln!(out, "  </testsuite>")
    }
}

/// A name that is a number written plainly (no sign, no leading zero), as that number.
fn number(name: &str) -> Option<u64> {
    let plain = !name.is_empty()
        && name.len() < 20
        && name.bytes().all(|b| b.is_ascii_digit())
        && (name.len() == 1 || !name.starts_with('0'));
    plain.then(|| name.parse().ok()).flatten()
}

/// The document: the totals of `suites`, then each suite, its spooled cases read in turn from
/// `spool` (a batch's).
fn write_document(
    out: &mut dyn Write,
    suites: &[Suite],
    summary: &str,
    mut spool: Option<&mut dyn Read>,
) -> io::Result<()> {
    let mut totals = Totals::default();
    for suite in suites {
        totals.add(suite.totals);
    }
    writeln!(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>")?;
    writeln!(
        out,
        "<testsuites name=\"ragcite\" {} time=\"0\">",
        totals.attributes()
    )?;
    for (k, suite) in suites.iter().enumerate() {
        // The run's summary goes with the last suite: a suite is the only place for it.
        let last = k + 1 == suites.len();
        let spooled: Option<&mut dyn Read> = match &mut spool {
            Some(spool) => Some(&mut **spool),
            None => None,
        };
        suite.render(last.then_some(summary), spooled, out)?;
    }
    writeln!(out, "</testsuites>")
}

/// Writes JUnit XML for `check` and `batch`, valid against the JUnit schema of Jenkins' xUnit
/// plugin and read as GitLab reads it: one `<testsuite>` per input file (`name` and `file` are
/// its path), `classname` the path with dots, and one test case per checked answer and limit
/// that is set, named by the record's id and the rule (`q17: uncited-claim`; in `check`, the
/// rule), never by a line, so that a case keeps its name across edits and GitLab shows a fixed
/// record as resolved. A record that cannot be read is one error case; a batch that stopped
/// early ends with an error case saying so.
///
/// JUnit output for a batch is held back until the end: the totals come first, as attributes,
/// so nothing can be written before the last record. Each record's rendered cases go to
/// a `Spool` (a temporary file past its first MiB), so that memory stays flat.
#[derive(Debug, Default)]
pub struct JunitEmitter {
    findings: BatchFindings,
    limits: Limits,
    suites: Vec<Suite>,
    spool: Spool,
    /// What decided the verdicts, said after the summary.
    decided: String,
}

/// Bytes of test cases kept in memory before they go to a temporary file.
const SPOOL_MEMORY: usize = 1 << 20;

/// A batch's test cases, written once each and read back once, in order: in memory up to
/// [`SPOOL_MEMORY`], then in an anonymous temporary file (removed by the system once closed,
/// whatever ends the process). Where no temporary file can be made, they stay in memory.
#[derive(Debug, Default)]
struct Spool {
    memory: Vec<u8>,
    file: Option<io::BufWriter<std::fs::File>>,
    /// Making the file failed: not tried again.
    in_memory: bool,
}

impl Spool {
    fn push(&mut self, text: &str) -> io::Result<()> {
        if let Some(file) = &mut self.file {
            return file.write_all(text.as_bytes());
        }
        self.memory.extend_from_slice(text.as_bytes());
        if self.memory.len() > SPOOL_MEMORY && !self.in_memory {
            match tempfile::tempfile() {
                Ok(file) => {
                    let mut file = io::BufWriter::new(file);
                    file.write_all(&self.memory)?;
                    self.memory = Vec::new();
                    self.file = Some(file);
                }
                Err(_) => self.in_memory = true,
            }
        }
        Ok(())
    }

    /// What was pushed, from the start.
    fn reader(&mut self) -> io::Result<Box<dyn Read + '_>> {
        match self.file.take() {
            None => Ok(Box::new(&self.memory[..])),
            Some(file) => {
                let mut file = file.into_inner().map_err(io::IntoInnerError::into_error)?;
                file.rewind()?;
                Ok(Box::new(io::BufReader::new(file)))
            }
        }
    }
}

impl Emitter for JunitEmitter {
    fn emit(&self, run: &Run<'_>, out: &mut dyn Write) -> io::Result<()> {
        let findings = check_findings(run.report, &run.inputs.answer.path);
        let mut suite = Suite::new(&display_path(&run.inputs.answer.path));
        let class = classname(&suite.path);
        let mut totals = Totals::default();
        suite.cases = limit_cases(
            &class,
            "",
            &run.inputs.limits,
            run.gate,
            &findings,
            &mut totals,
        );
        suite.totals = totals;
        let summary = format!(
            "{}\n{}",
            summary_line(run.report, run.gate),
            run.inputs.decided()
        );
        write_document(out, &[suite], &summary, None)
    }

    fn file_positions(&self) -> bool {
        true
    }
}

impl JunitEmitter {
    /// The current suite, and the spool its cases go to.
    fn suite(&mut self) -> (&mut Suite, &mut Spool) {
        if self.suites.is_empty() {
            self.suites.push(Suite::new(self.findings.path()));
        }
        let suite = self
            .suites
            .last_mut()
            .unwrap_or_else(|| unreachable!("a suite was just pushed"));
        (suite, &mut self.spool)
    }
}

impl BatchEmitter for JunitEmitter {
    fn file(&mut self, path: &str) {
        self.findings.set_file(path);
        self.suites.push(Suite::new(self.findings.path()));
    }

    fn begin(&mut self, inputs: &BatchInputs, _out: &mut dyn Write) -> io::Result<()> {
        self.findings = BatchFindings::new(inputs);
        self.limits = inputs.limits.per_record;
        self.decided = inputs.decided();
        self.suites.clear();
        self.spool = Spool::default();
        Ok(())
    }

    fn record(&mut self, record: &RecordOutcome, _out: &mut dyn Write) -> io::Result<()> {
        let findings = self.findings.of(record);
        let limits = self.limits;
        let (suite, spool) = self.suite();
        let class = classname(&suite.path);
        match &record.result {
            Err(error) => {
                // No id to name it by: the identity of its finding (the start of its first
                // line, or its error) does, so that it keeps its name across edits too.
                let key = findings.first().map_or_else(
                    || format!("record {}", record.index),
                    |f| format!("unreadable record {}", &f.identity()[..8]),
                );
                let prefix = suite.prefix(&key);
                let body = findings
                    .iter()
                    .map(body_line)
                    .collect::<Vec<_>>()
                    .join("\n");
                suite.totals.tests += 1;
                suite.totals.errors += 1;
                let name = format!("{prefix}{}", Rule::BadRecord.id());
                let case = test_case(
                    &class,
                    &name,
                    Some((Outcome::Error, error, Rule::BadRecord.id(), &body)),
                );
                suite.spooled += case.len() as u64;
                spool.push(&case)?;
            }
            Ok(checked) => {
                let prefix = suite.prefix(&record_label(&checked.id, record.index));
                let mut totals = Totals::default();
                let cases = limit_cases(
                    &class,
                    &prefix,
                    &limits,
                    &checked.gate,
                    &findings,
                    &mut totals,
                );
                suite.totals.add(totals);
                for case in cases {
                    suite.spooled += case.len() as u64;
                    spool.push(&case)?;
                }
            }
        }
        Ok(())
    }

    fn finish(&mut self, end: &BatchEnd<'_>, out: &mut dyn Write) -> io::Result<()> {
        if let Some(reason) = end.stopped {
            // The records after the break were never read: an error case says so, so that a
            // test report does not look complete.
            let message =
                format!("the batch stopped at {reason}: the records after it were not checked");
            let (suite, spool) = self.suite();
            let class = classname(&suite.path);
            suite.totals.tests += 1;
            suite.totals.errors += 1;
            let case = test_case(
                &class,
                "batch-stopped",
                Some((Outcome::Error, &message, "batch-stopped", &message)),
            );
            suite.spooled += case.len() as u64;
            spool.push(&case)?;
        }
        let mut spool = self.spool.reader()?;
        let summary = format!("{}\n{}", batch_summary_line(end), self.decided);
        write_document(out, &self.suites, &summary, Some(&mut *spool))
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
    fn numbers_are_counted_as_a_map_would_count_them() {
        let sequences: [&[u64]; 6] = [
            &[1, 2, 3, 4, 5],
            &[1, 2, 2, 3, 1, 4],
            &[0, 0, 1, 0, 2],
            &[3, 1, 2, 3, 4, 3, 5],
            &[1, 2, 7, 3, 4, 5, 6, 7, 8, 7],
            &[u64::MAX, 1, u64::MAX, 2],
        ];
        for sequence in sequences {
            let (mut counts, mut map) = (NumberCounts::default(), HashMap::new());
            for &n in sequence {
                let expected = map.entry(n).or_insert(0);
                *expected += 1;
                assert_eq!(counts.next(n), *expected, "{n} in {sequence:?}");
            }
        }
        // Positions in order take no room.
        let mut counts = NumberCounts::default();
        for n in 1..=100_000 {
            assert_eq!(counts.next(n), 1);
        }
        assert!(counts.counts.is_empty());
    }

    #[test]
    fn only_plain_numbers_are_numbers() {
        assert_eq!(number("17"), Some(17));
        assert_eq!(number("0"), Some(0));
        for name in ["", "017", "+17", "1 7", "q17", "99999999999999999999"] {
            assert_eq!(number(name), None, "{name}");
        }
    }

    #[test]
    fn spooled_cases_come_back_in_order_past_memory() {
        let mut spool = Spool::default();
        let case = "x".repeat(1000);
        let mut expected = String::new();
        for k in 0..(3 * SPOOL_MEMORY / 1000) {
            let case = format!("{k}{case}\n");
            spool.push(&case).unwrap();
            expected.push_str(&case);
        }
        assert!(spool.file.is_some() || spool.in_memory);
        let mut back = String::new();
        spool.reader().unwrap().read_to_string(&mut back).unwrap();
        assert_eq!(back, expected);
    }

    #[test]
    fn levels_order_from_note_to_error() {
        assert!(Level::Error > Level::Warning && Level::Warning > Level::Note);
    }
}
