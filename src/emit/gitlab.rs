//! `--format gitlab`: a GitLab Code Quality report, a JSON array with one entry per finding
//! (`description`, `check_name`, `fingerprint`, `severity`, `location.path`,
//! `location.lines.begin`). The findings are those of SARIF ([`super::sarif`]).

use std::collections::HashSet;
use std::io::{self, Write};

use serde::Serialize;

use super::findings::{
    BatchFindings, Finding, Level, Rule, check_findings, fnv1a_hex, stopped_line,
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
    /// Unique in the report: GitLab compares reports by fingerprint, and merges duplicates.
    pub fingerprint: String,
    pub severity: &'static str,
    pub location: EntryLocation,
}

#[derive(Debug, Clone, Serialize)]
pub struct EntryLocation {
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

/// Gives each finding a fingerprint not given before in this report: the finding's unique
/// hash, with an occurrence number added in the rare case that it repeats (two batch records
/// with the same id and the same sentence).
#[derive(Debug, Default)]
struct Fingerprints {
    seen: HashSet<String>,
}

impl Fingerprints {
    fn entry(&mut self, finding: &Finding) -> Entry {
        let mut occurrence = 0;
        let fingerprint = loop {
            let candidate = finding.unique_hash(occurrence);
            if self.seen.insert(candidate.clone()) {
                break candidate;
            }
            occurrence += 1;
        };
        Entry {
            description: finding.message.clone(),
            check_name: finding.rule.id(),
            fingerprint,
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
/// early still leaves valid JSON). The fingerprints seen are kept to keep them unique: a few
/// bytes per finding.
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
            serde_json::to_writer(&mut *out, &self.fingerprints.entry(&finding))?;
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
            serde_json::to_writer(&mut *out, &entry)?;
        }
        out.write_all(b"\n]\n")
    }
}
