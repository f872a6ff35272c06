//! `--format gitlab`: a GitLab Code Quality report, a JSON array with one entry per finding
//! (`description`, `check_name`, `fingerprint`, `severity`, `location.path`,
//! `location.lines.begin`). The findings are those of SARIF ([`super::sarif`]). A report has no
//! other place to say how it was made, so two `info` entries say it when there is something to
//! say: `configuration`, what decided the verdicts when a configuration file was applied, and
//! `unchecked-lines`, the lines of the answers that held code, comments or hidden text.

use std::io::{self, Write};

use serde::Serialize;

use super::findings::{
    BatchFindings, Finding, Level, Occurrences, Rule, check_findings, fnv1a_hex, stopped_line,
};
use super::{BatchEmitter, BatchEnd, BatchInputs, Emitter, Run, write_document};
use crate::batch::RecordOutcome;

/// `check_name` of the entry that says a batch stopped before the end of its file.
const STOPPED: &str = "batch-stopped";
/// `check_name` of the entry that names the configuration file applied.
const CONFIGURATION: &str = "configuration";
/// `check_name` of the entry that counts the lines not checked.
const UNCHECKED: &str = "unchecked-lines";

/// The `info` entries that say how the run was made (see the module's documentation), at
/// `line` of `path`: the configuration file applied, if one was, with what decided the
/// verdicts; the lines not checked, if any.
fn run_entries(
    path: &str,
    line: usize,
    config: &super::ConfigUsed,
    decided: &str,
    unchecked: Option<String>,
) -> Vec<Entry> {
    let at = || EntryLocation {
        path: path.to_string(),
        lines: Lines { begin: line },
    };
    let mut entries = Vec::new();
    if config.path.is_some() {
        entries.push(Entry {
            description: format!("{CONFIGURATION}: ragcite {decided}"),
            check_name: CONFIGURATION,
            fingerprint: fnv1a_hex(&[CONFIGURATION, path, decided]),
            severity: "info",
            location: at(),
        });
    }
    if let Some(unchecked) = unchecked {
        entries.push(Entry {
            description: format!("{UNCHECKED}: {unchecked}"),
            check_name: UNCHECKED,
            fingerprint: fnv1a_hex(&[UNCHECKED, path, &unchecked]),
            severity: "info",
            location: at(),
        });
    }
    entries
}

/// One Code Quality entry.
#[derive(Debug, Clone, Serialize)]
pub struct Entry {
    pub description: String,
    pub check_name: &'static str,
    /// Unique in the report and stable across runs: GitLab compares reports by fingerprint,
    /// and merges duplicates.
    pub fingerprint: String,
    pub severity: &'static str,
    pub location: EntryLocation,
}

#[derive(Debug, Clone, Serialize)]
pub struct EntryLocation {
    /// Relative to the project's root, as GitLab links it (absolute for a file outside it).
    pub path: String,
    pub lines: Lines,
}

#[derive(Debug, Clone, Serialize)]
pub struct Lines {
    pub begin: usize,
}

/// Code Quality's severity: a record that could not be read blocks everything after it in
/// the eval, so it ranks above the sentence errors.
fn severity(finding: &Finding) -> &'static str {
    match (finding.rule, finding.level()) {
        (Rule::BadRecord, _) => "blocker",
        (_, Level::Error) => "major",
        (_, Level::Warning) => "minor",
        (_, Level::Note) => "info",
    }
}

/// Turns findings into entries, each with a fingerprint of its own: the finding's identity with
/// its file (the same identity as SARIF's), and its occurrence for the rare findings alike in
/// every part. GitLab compares reports by fingerprint, so a finding keeps its fingerprint
/// across unrelated edits and a fixed one shows as resolved.
#[derive(Debug, Default)]
struct Fingerprints {
    occurrences: Occurrences,
}

impl Fingerprints {
    fn entry(&mut self, finding: &Finding) -> Entry {
        let occurrence = self.occurrences.next(finding);
        Entry {
            description: finding.message.clone(),
            check_name: finding.rule.id(),
            fingerprint: finding.unique_identity(occurrence),
            severity: severity(finding),
            location: EntryLocation {
                path: finding.path.clone(),
                lines: Lines {
                    begin: finding.start.line.max(1),
                },
            },
        }
    }
}

/// Writes the Code Quality report for `check` (pretty-printed) and `batch` (streamed, one entry
/// per line; the array is closed at `finish`, which always runs, so that a batch that stops
/// early still leaves valid JSON). The identities seen are counted, to number the findings
/// alike in every part: a few bytes per finding.
#[derive(Debug, Default)]
pub struct GitlabEmitter {
    findings: BatchFindings,
    fingerprints: Fingerprints,
    written: usize,
    /// What decided the verdicts, and the configuration applied.
    decided: String,
    config: super::ConfigUsed,
}

impl Emitter for GitlabEmitter {
    fn emit(&self, run: &Run<'_>, out: &mut dyn Write) -> io::Result<()> {
        let mut fingerprints = Fingerprints::default();
        let path = &run.inputs.answer.path;
        let mut entries: Vec<Entry> = check_findings(run.report, path)
            .iter()
            .map(|finding| fingerprints.entry(finding))
            .collect();
        // The first line not checked, in the answer's file (a response's text is placed in
        // its file by line only when it is plain text: else its first line).
        let unchecked = run.report.unchecked.lines.first().map_or(1, |&line| {
            if run.report.source.is_some() { 1 } else { line }
        });
        let path = super::location::display_path(path);
        entries.extend(run_entries(
            &path,
            unchecked,
            &run.inputs.config,
            &run.inputs.decided(),
            run.report.unchecked.warning(),
        ));
        write_document(out, &entries)
    }

    fn file_positions(&self) -> bool {
        true
    }
}

impl BatchEmitter for GitlabEmitter {
    fn file(&mut self, path: &str) {
        self.findings.set_file(path);
    }

    fn begin(&mut self, inputs: &BatchInputs, out: &mut dyn Write) -> io::Result<()> {
        self.findings = BatchFindings::new(inputs);
        self.fingerprints = Fingerprints::default();
        self.written = 0;
        self.decided = inputs.decided();
        self.config = inputs.config.clone();
        out.write_all(b"[")
    }

    fn record(&mut self, record: &RecordOutcome, out: &mut dyn Write) -> io::Result<()> {
        for finding in self.findings.of(record) {
            if self.written > 0 {
                out.write_all(b",")?;
            }
            out.write_all(b"\n")?;
            crate::escape::to_writer(&mut *out, &self.fingerprints.entry(&finding))?;
            self.written += 1;
        }
        Ok(())
    }

    fn finish(&mut self, end: &BatchEnd<'_>, out: &mut dyn Write) -> io::Result<()> {
        let unchecked = end.aggregate.counts.unchecked_lines;
        let unchecked = (unchecked > 0).then(|| {
            format!(
                "{unchecked} {} of the answers {} code, comments or hidden text: not checked",
                crate::report::plural(unchecked, "line", "lines"),
                if unchecked == 1 { "holds" } else { "hold" }
            )
        });
        let path = self.findings.path().to_string();
        for entry in run_entries(&path, 1, &self.config, &self.decided, unchecked) {
            if self.written > 0 {
                out.write_all(b",")?;
            }
            out.write_all(b"\n")?;
            crate::escape::to_writer(&mut *out, &entry)?;
            self.written += 1;
        }
        // Code Quality has no notion of an incomplete report: an entry says it, so that the
        // merge request does not show a short list as if it were the whole.
        if let Some(reason) = end.stopped {
            let path = self.findings.path().to_string();
            let entry = Entry {
                description: format!(
                    "{STOPPED}: the batch stopped at {reason}: the records after it were not checked"
                ),
                check_name: STOPPED,
                fingerprint: fnv1a_hex(&[STOPPED, &path, reason]),
                severity: "blocker",
                location: EntryLocation {
                    path,
                    lines: Lines {
                        begin: stopped_line(reason).unwrap_or(1),
                    },
                },
            };
            if self.written > 0 {
                out.write_all(b",")?;
            }
            out.write_all(b"\n")?;
            crate::escape::to_writer(&mut *out, &entry)?;
        }
        out.write_all(b"\n]\n")
    }
}
