//! `--format gitlab`: a GitLab Code Quality report, a JSON array with one entry per finding
//! (`description`, `check_name`, `fingerprint`, `severity`, `location.path`,
//! `location.lines.begin`). The findings are those of SARIF ([`super::sarif`]).

use std::io::{self, Write};

use serde::Serialize;

use super::findings::{
    BatchFindings, Finding, Level, Occurrences, Rule, check_findings, fnv1a_hex, stopped_line,
};
use super::{BatchEmitter, BatchEnd, BatchInputs, Emitter, Run, write_document};
use crate::batch::RecordOutcome;

/// `check_name` of the entry that says a batch stopped before the end of its file.
const STOPPED: &str = "batch-stopped";

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
}

impl Emitter for GitlabEmitter {
    fn emit(&self, run: &Run<'_>, out: &mut dyn Write) -> io::Result<()> {
        let mut fingerprints = Fingerprints::default();
        let entries: Vec<Entry> = check_findings(run.report, &run.inputs.answer.path)
            .iter()
            .map(|finding| fingerprints.entry(finding))
            .collect();
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
