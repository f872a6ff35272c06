//! `batch --baseline`: the findings of an earlier run, read from what `batch --format json`
//! wrote, so that the gate fails only on findings that are not among them
//! ([`super::identity::Identities::with_baseline`]) and the report says which were fixed.

use std::collections::HashMap;

use serde::de::{Error as _, IgnoredAny};
use serde::{Deserialize, Deserializer, Serialize};

use crate::report::Verdict;

/// The schema a baseline must have: the JSON document's major version, and the first minor
/// version that wrote fingerprints.
const MAJOR: u64 = 3;
const FIRST_MINOR: u64 = 3;
/// The first minor version that recorded every option the findings depend on
/// ([`FindingOptions`]): a baseline is compared on them.
const OPTIONS_MINOR: u64 = 4;

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

/// The options a batch's findings depend on, as its document's `inputs` records them: a
/// baseline made with other options would not match this run's findings.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FindingOptions {
    pub threshold: f64,
    /// `shipped`, `formula`, or the model file as given.
    pub model: String,
    /// `auto`, or the language given.
    pub lang: String,
    /// `sentence` or `paragraph`.
    pub citation_scope: String,
    /// `--marker`'s pattern, as given.
    pub marker: Option<String>,
    /// `--claim-threshold` and `--claim-model` (since 3.5; a baseline written before has
    /// neither, and is not compared on them).
    #[serde(default)]
    pub claim_threshold: Option<f64>,
    #[serde(default)]
    pub claim_model: Option<String>,
}

impl FindingOptions {
    /// The options of `self` (a baseline's) that differ from `run`'s, each as
    /// `--threshold 0.3 (this run: 0.95)`.
    pub fn differences(&self, run: &FindingOptions) -> Vec<String> {
        let mut differ = Vec::new();
        let mut compare = |option: &str, baseline: String, this: String| {
            if baseline != this {
                differ.push(format!("--{option} {baseline} (this run: {this})"));
            }
        };
        compare(
            "threshold",
            self.threshold.to_string(),
            run.threshold.to_string(),
        );
        compare("model", self.model.clone(), run.model.clone());
        compare("lang", self.lang.clone(), run.lang.clone());
        compare(
            "citation-scope",
            self.citation_scope.clone(),
            run.citation_scope.clone(),
        );
        let marker = |m: &Option<String>| m.clone().unwrap_or_else(|| "none".to_string());
        compare("marker", marker(&self.marker), marker(&run.marker));
        if let (Some(baseline), Some(this)) = (self.claim_threshold, run.claim_threshold) {
            compare("claim-threshold", baseline.to_string(), this.to_string());
        }
        if let (Some(baseline), Some(this)) = (&self.claim_model, &run.claim_model) {
            compare("claim-model", baseline.clone(), this.clone());
        }
        differ
    }
}

/// The findings of an earlier run.
#[derive(Debug, Clone, Default)]
pub struct Baseline {
    /// The file it was read from, as messages and reports name it.
    pub file: String,
    /// The options it was made with.
    pub options: FindingOptions,
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
    inputs: FindingOptions,
    records: Vec<Record>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Record {
    #[serde(rename = "type", deserialize_with = "record_kind")]
    _kind: (),
    file: String,
    line: usize,
    id: Option<String>,
    problems: Vec<Problem>,
    other_findings: Vec<OtherFinding>,
}

#[derive(Debug, Deserialize)]
struct Problem {
    sentence: usize,
    #[serde(deserialize_with = "rule")]
    verdict: String,
    text: String,
    #[serde(deserialize_with = "fingerprint")]
    fingerprint: String,
}

#[derive(Debug, Deserialize)]
struct OtherFinding {
    #[serde(deserialize_with = "rule")]
    rule: String,
    #[serde(deserialize_with = "fingerprint")]
    fingerprint: String,
    sentence: Option<usize>,
    text: String,
}

/// A value from the file in a message: escaped and cut.
fn shown(text: &str) -> String {
    crate::escape::printable_line(&crate::escape::cut(text, 40))
}

/// `type`: a batch document's records are all of type `record`.
fn record_kind<'de, D: Deserializer<'de>>(d: D) -> Result<(), D::Error> {
    let kind = String::deserialize(d)?;
    if kind != "record" {
        return Err(D::Error::custom(format!(
            "a record of type `{}`: the records of a batch document are of type `record`",
            shown(&kind)
        )));
    }
    Ok(())
}

/// A finding's fingerprint: 16 hex digits, as `batch` writes them.
fn fingerprint<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let print = String::deserialize(d)?;
    if print.len() != 16
        || !print
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    {
        return Err(D::Error::custom(format!(
            "fingerprint `{}` is not 16 hex digits",
            shown(&print)
        )));
    }
    Ok(print)
}

/// A finding's rule: a problem verdict, `unknown-marker` or `bad-record`.
fn rule<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let rule = String::deserialize(d)?;
    let known = Verdict::ALL
        .iter()
        .filter(|v| !matches!(v, Verdict::Supported | Verdict::NoClaim))
        .map(|v| v.name())
        .chain(["unknown-marker", "bad-record"])
        .any(|name| name == rule);
    if !known {
        return Err(D::Error::custom(format!(
            "`{}` is no rule of a finding",
            shown(&rule)
        )));
    }
    Ok(rule)
}

/// A serde_json error as `line N: what`, the line of the document where it is.
fn located(e: &serde_json::Error) -> String {
    let message = e.to_string();
    let message = message
        .rfind(" at line ")
        .map_or(message.as_str(), |k| &message[..k]);
    match e.line() {
        0 => message.to_string(),
        line => format!("line {line}: {message}"),
    }
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
    /// Reads what `batch --format json` wrote (schema 3.4 or a later 3.x); `file` names it in
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
        if minor < OPTIONS_MINOR {
            return Err(format!(
                "schema {version} does not record the citation scope and the marker its findings \
                 were made with (added in {MAJOR}.{OPTIONS_MINOR}); write it again with this \
                 ragcite's `batch --format json`"
            ));
        }
        match probe.complete {
            Some(true) => {}
            Some(false) => {
                return Err(
                    "the batch it records stopped before the end of its files (complete: \
                     false): every finding past that point would count as new"
                        .to_string(),
                );
            }
            None => {
                return Err(format!(
                    "{NOT_BATCH}: it has no `complete`, which says whether the batch read all \
                     of its files"
                ));
            }
        }
        let document: Document = serde_json::from_slice(bytes).map_err(|e| located(&e))?;
        let mut baseline = Baseline {
            file: file.to_string(),
            options: document.inputs,
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
            read(r#"{"schemaVersion": "3.3", "records": [], "complete": true}"#)
                .starts_with("schema 3.3 does not record the citation scope")
        );
        assert!(
            read(r#"{"schemaVersion": "3.4", "records": [], "complete": false}"#)
                .contains("stopped before the end")
        );
        assert!(
            read(r#"{"schemaVersion": "3.4", "records": [{"file": "a", "line": 1}], "complete": true}"#)
                .contains("missing field")
        );
    }

    /// A baseline document with `records` (one a line), `inputs` and `complete` as given.
    fn document(inputs: &str, records: &[&str], complete: &str) -> String {
        format!(
            "{{\"schemaVersion\": \"3.4\", {inputs}\"records\": [\n{}\n]{complete}}}",
            records.join(",\n")
        )
    }

    const INPUTS: &str = r#""inputs": {"threshold": 0.5, "model": "shipped", "lang": "auto", "citationScope": "sentence", "marker": null}, "#;

    fn record(fingerprint: &str, kind: &str, verdict: &str) -> String {
        format!(
            r#"{{"type": "{kind}", "file": "t.jsonl", "line": 1, "id": "q1", "problems": [{{"sentence": 1, "verdict": "{verdict}", "text": "It is tall.", "fingerprint": "{fingerprint}"}}], "otherFindings": []}}"#
        )
    }

    #[test]
    fn a_baseline_is_validated_strictly_with_the_line_of_what_is_wrong() {
        let read = |text: &str| Baseline::read(text.as_bytes(), "b.json");
        let good = record("0123456789abcdef", "record", "uncited-claim");
        assert!(read(&document(INPUTS, &[&good], ", \"complete\": true")).is_ok());
        let error = |text: String| read(&text).unwrap_err();
        assert!(
            error(document(INPUTS, &[&good], "")).contains("it has no `complete`"),
            "no complete"
        );
        let bad = record("zzzz", "record", "uncited-claim");
        assert_eq!(
            error(document(INPUTS, &[&good, &bad], ", \"complete\": true")),
            "line 3: fingerprint `zzzz` is not 16 hex digits"
        );
        let summary = record("0123456789abcdef", "summary", "uncited-claim");
        assert_eq!(
            error(document(INPUTS, &[&summary], ", \"complete\": true")),
            "line 2: a record of type `summary`: the records of a batch document are of type \
             `record`"
        );
        let verdict = record("0123456789abcdef", "record", "fine");
        assert_eq!(
            error(document(INPUTS, &[&verdict], ", \"complete\": true")),
            "line 2: `fine` is no rule of a finding"
        );
        // The options its findings depend on must be there.
        assert!(
            error(document("", &[&good], ", \"complete\": true"))
                .contains("missing field `inputs`")
        );
    }

    #[test]
    fn the_options_a_baseline_was_made_with_are_compared() {
        let text = document(INPUTS, &[], ", \"complete\": true");
        let baseline = Baseline::read(text.as_bytes(), "b.json").unwrap();
        let same = baseline.options.clone();
        assert!(baseline.options.differences(&same).is_empty());
        let other = FindingOptions {
            threshold: 0.95,
            citation_scope: "paragraph".to_string(),
            marker: Some(r"\{(\d+)\}".to_string()),
            ..same
        };
        assert_eq!(
            baseline.options.differences(&other),
            [
                "--threshold 0.5 (this run: 0.95)",
                "--citation-scope sentence (this run: paragraph)",
                r"--marker none (this run: \{(\d+)\})",
            ]
        );
    }

    #[test]
    fn findings_are_read_with_where_they_were() {
        let text = r#"{"schemaVersion": "3.4", "inputs": {"threshold": 0.5, "model": "shipped",
            "lang": "auto", "citationScope": "sentence", "marker": null}, "records": [
            {"type": "record", "file": "t.jsonl", "line": 3, "id": "q1", "problems": [
                {"sentence": 2, "verdict": "uncited-claim", "text": "It is tall.",
                 "fingerprint": "00000000000000aa", "extra": 1}],
             "otherFindings": [{"rule": "misquote", "fingerprint": "00000000000000bb",
                 "sentence": null, "text": "a quote"}]},
            {"type": "record", "file": "t.jsonl", "line": 4, "id": null, "problems": [],
             "otherFindings": [{"rule": "bad-record", "fingerprint": "00000000000000cc",
                 "sentence": null, "text": "{oops"}]}
            ], "complete": true}"#;
        let baseline = Baseline::read(text.as_bytes(), "b.json").unwrap();
        assert_eq!(baseline.findings.len(), 3);
        assert_eq!(baseline.position("00000000000000bb"), Some(1));
        assert_eq!(baseline.position("zz"), None);
        let first = &baseline.findings[0];
        assert_eq!(
            (first.rule.as_str(), first.line, first.sentence),
            ("uncited-claim", 3, Some(2))
        );
        assert_eq!(baseline.findings[2].record, None);
    }
}
