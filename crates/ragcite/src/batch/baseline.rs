//! `batch --baseline`: the findings of an earlier run, read from what `batch --format json`
//! wrote, so that the gate fails only on findings that are not among them
//! ([`super::identity::Identities::with_baseline`]) and the report says which were fixed.

use std::collections::HashMap;

use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};

/// The schema a baseline must have: the JSON document's major version, and the first minor
/// version that wrote fingerprints.
const MAJOR: u64 = 3;
const FIRST_MINOR: u64 = 3;

/// A finding of the baseline: its fingerprint and where it was.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct KnownFinding {
    pub fingerprint: String,
    /// Its rule id: the verdict of a problem sentence, `unknown-marker`, `misquote` (a
    /// citation tied to no sentence) or `bad-record`.
    pub rule: String,
    /// The transcript file its record was in, as the baseline names it.
    pub file: String,
    /// The line its record started on.
    pub line: usize,
    /// Its record's id (or position, when the record had none); `null` for an unreadable
    /// record.
    pub record: Option<String>,
    /// The sentence's index in its answer; `null` for a citation or a record.
    pub sentence: Option<usize>,
    /// The sentence, the quotation, or why the record could not be read.
    pub text: String,
}

/// The findings of an earlier run.
#[derive(Debug, Clone, Default)]
pub struct Baseline {
    /// The file it was read from, as messages and reports name it.
    pub file: String,
    /// Its findings, in the order it lists them.
    pub findings: Vec<KnownFinding>,
    /// Where each fingerprint is in `findings` (the first, if one comes twice).
    by_fingerprint: HashMap<String, usize>,
}

/// What a run came to against its baseline: `batch --format json` writes it as `baseline`.
/// Added in schema 3.3.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BaselineOutcome {
    /// The baseline file, as given.
    pub file: String,
    /// Findings of this run that the baseline lacks: only these count against the limits.
    pub new: usize,
    /// Findings of this run that the baseline has.
    pub unchanged: usize,
    /// Findings of the baseline that this run does not have.
    pub fixed: usize,
    /// Those fixed findings, as the baseline located them.
    pub fixed_findings: Vec<KnownFinding>,
}

impl BaselineOutcome {
    /// `baseline: 2 new, 1 fixed, 5 unchanged`, as the summaries end.
    pub fn line(&self) -> String {
        format!(
            "baseline: {} new, {} fixed, {} unchanged",
            self.new, self.fixed, self.unchanged
        )
    }
}

/// The top of a document: enough to say what it is before reading it whole.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Probe {
    #[serde(default)]
    schema_version: Option<String>,
    #[serde(default)]
    records: Option<IgnoredAny>,
    #[serde(default)]
    result: Option<IgnoredAny>,
    #[serde(default)]
    complete: Option<bool>,
}

#[derive(Debug, Deserialize)]
struct Document {
    records: Vec<Record>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Record {
    file: String,
    line: usize,
    id: Option<String>,
    problems: Vec<Problem>,
    other_findings: Vec<OtherFinding>,
}

#[derive(Debug, Deserialize)]
struct Problem {
    sentence: usize,
    verdict: String,
    text: String,
    fingerprint: String,
}

#[derive(Debug, Deserialize)]
struct OtherFinding {
    rule: String,
    fingerprint: String,
    sentence: Option<usize>,
    text: String,
}

/// Whether the first line of `bytes` is a line of `batch --format jsonl`: an object whose
/// `type` is `record` or `summary`.
fn is_json_lines(bytes: &[u8]) -> bool {
    #[derive(Deserialize)]
    struct Line {
        #[serde(rename = "type")]
        kind: String,
    }
    let first = bytes.split(|&b| b == b'\n').next().unwrap_or(&[]);
    serde_json::from_slice::<Line>(first)
        .is_ok_and(|line| ["record", "summary"].contains(&line.kind.as_str()))
}

impl Baseline {
    /// Reads what `batch --format json` wrote (schema 3.3 or a later 3.x); `file` names it in
    /// the baseline's findings. The error says what is wrong, without the file's name.
    pub fn read(bytes: &[u8], file: &str) -> Result<Baseline, String> {
        const NOT_BATCH: &str = "not what `ragcite batch --format json` writes";
        let probe: Probe = serde_json::from_slice(bytes).map_err(|e| match e.classify() {
            serde_json::error::Category::Data => format!("{NOT_BATCH}: {e}"),
            _ if is_json_lines(bytes) => "JSON Lines, as `batch --format jsonl` writes them: \
                 --baseline reads the one document of `batch --format json`"
                .to_string(),
            _ => format!("not JSON: {e}"),
        })?;
        let Some(version) = probe.schema_version else {
            return Err(format!("{NOT_BATCH}: it has no schemaVersion"));
        };
        let (major, minor) = version
            .split_once('.')
            .and_then(|(major, minor)| {
                Some((major.parse::<u64>().ok()?, minor.parse::<u64>().ok()?))
            })
            .ok_or_else(|| format!("{NOT_BATCH}: schemaVersion `{version}` is no version"))?;
        if probe.records.is_none() {
            return Err(if probe.result.is_some() {
                format!("a `ragcite check` document, {NOT_BATCH}")
            } else {
                format!("{NOT_BATCH}: it has no records")
            });
        }
        if major != MAJOR {
            return Err(format!(
                "schema {version}: this ragcite reads baselines of schema {MAJOR}.{FIRST_MINOR} to \
                 {MAJOR}.x; write it again with this ragcite's `batch --format json`"
            ));
        }
        if minor < FIRST_MINOR {
            return Err(format!(
                "schema {version} has no finding fingerprints (added in {MAJOR}.{FIRST_MINOR}); \
                 write it again with this ragcite's `batch --format json`"
            ));
        }
        if probe.complete == Some(false) {
            return Err(
                "the batch it records stopped before the end of its files (complete: false): \
                 every finding past that point would count as new"
                    .to_string(),
            );
        }
        let document: Document =
            serde_json::from_slice(bytes).map_err(|e| format!("{NOT_BATCH}: {e}"))?;
        let mut baseline = Baseline {
            file: file.to_string(),
            ..Baseline::default()
        };
        for record in document.records {
            for problem in record.problems {
                baseline.push(KnownFinding {
                    fingerprint: problem.fingerprint,
                    rule: problem.verdict,
                    file: record.file.clone(),
                    line: record.line,
                    record: record.id.clone(),
                    sentence: Some(problem.sentence),
                    text: problem.text,
                });
            }
            for other in record.other_findings {
                baseline.push(KnownFinding {
                    fingerprint: other.fingerprint,
                    rule: other.rule,
                    file: record.file.clone(),
                    line: record.line,
                    record: record.id.clone(),
                    sentence: other.sentence,
                    text: other.text,
                });
            }
        }
        Ok(baseline)
    }

    pub(crate) fn push(&mut self, finding: KnownFinding) {
        self.by_fingerprint
            .entry(finding.fingerprint.clone())
            .or_insert(self.findings.len());
        self.findings.push(finding);
    }

    /// Where the finding of this fingerprint is in [`Baseline::findings`], if it is there.
    pub fn position(&self, fingerprint: &str) -> Option<usize> {
        self.by_fingerprint.get(fingerprint).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_not_a_batch_document_is_named() {
        let read = |text: &str| Baseline::read(text.as_bytes(), "b.json").unwrap_err();
        assert!(read("{\"schemaVersion\": ").starts_with("not JSON"));
        assert!(read("[1, 2]").starts_with("not what `ragcite batch --format json` writes"));
        assert!(
            read("{\"type\": \"record\", \"index\": 1}\n{\"type\": \"summary\"}\n")
                .starts_with("JSON Lines")
        );
        assert!(read("{}").ends_with("it has no schemaVersion"));
        assert!(read(r#"{"schemaVersion": "3.3", "result": {}}"#).starts_with("a `ragcite check`"));
        assert!(read(r#"{"schemaVersion": "2.1", "records": []}"#).starts_with("schema 2.1:"));
        assert!(
            read(r#"{"schemaVersion": "3.2", "records": []}"#)
                .starts_with("schema 3.2 has no finding fingerprints")
        );
        assert!(
            read(r#"{"schemaVersion": "3.3", "records": [], "complete": false}"#)
                .contains("stopped before the end")
        );
        assert!(
            read(r#"{"schemaVersion": "3.3", "records": [{"file": "a", "line": 1}]}"#)
                .contains("missing field")
        );
    }

    #[test]
    fn findings_are_read_with_where_they_were() {
        let text = r#"{"schemaVersion": "3.4", "records": [
            {"file": "t.jsonl", "line": 3, "id": "q1", "problems": [
                {"sentence": 2, "verdict": "uncited-claim", "text": "It is tall.",
                 "fingerprint": "aa", "extra": 1}],
             "otherFindings": [{"rule": "misquote", "fingerprint": "bb", "sentence": null,
                 "text": "a quote"}]},
            {"file": "t.jsonl", "line": 4, "id": null, "problems": [], "otherFindings": [
                {"rule": "bad-record", "fingerprint": "cc", "sentence": null, "text": "{oops"}]}
            ], "complete": true}"#;
        let baseline = Baseline::read(text.as_bytes(), "b.json").unwrap();
        assert_eq!(baseline.findings.len(), 3);
        assert_eq!(baseline.position("bb"), Some(1));
        assert_eq!(baseline.position("zz"), None);
        let first = &baseline.findings[0];
        assert_eq!(
            (first.rule.as_str(), first.line, first.sentence),
            ("uncited-claim", 3, Some(2))
        );
        assert_eq!(baseline.findings[2].record, None);
    }
}
