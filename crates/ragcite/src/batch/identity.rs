//! What identifies a batch record and each of its findings across runs, wherever they stand:
//! the fingerprints that `batch --format json` writes and `batch --baseline` matches, and the
//! keys `compare` matches findings by.
//!
//! A finding is what the CI formats report ([`crate::emit::findings`]): a problem sentence, a
//! sentence whose only fault is a marker that names no chunk, a provider citation tied to no
//! sentence whose quotation is not in its chunk, or a record that cannot be read. Its identity
//! is its rule, what it is about (a sentence, a citation, a record), its text with case and
//! white space normalised, and its record's key: the record's id when it names one, else its
//! question, else its position. Nothing that moves is in it: not the sentence's index in its
//! answer, not the record's line, position or file. Findings alike in all of that (the same
//! sentence twice in one answer) are numbered in the order they come.

use std::collections::{HashMap, HashSet};

use super::baseline::{Baseline, BaselineOutcome};
use super::{Aggregate, BatchGate, BatchLimits, Rates, RecordOutcome};
use crate::gate::Limits;
use crate::report::{CheckResult, Counts, SentenceResult, Verdict};

/// How a record is told apart across runs.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RecordKey {
    /// The id the record names.
    Id(String),
    /// No id: its question, normalised (see [`normalised`]).
    Question(String),
    /// Neither an id nor a question: its 1-based position among the records.
    Position(usize),
    /// A record that could not be read: nothing of it is known.
    Unreadable,
}

impl RecordKey {
    pub fn of(outcome: &RecordOutcome) -> Self {
        let Ok(checked) = &outcome.result else {
            return RecordKey::Unreadable;
        };
        if checked.has_id {
            return RecordKey::Id(checked.id.clone());
        }
        match checked.answer.question.as_deref().map(normalised) {
            Some(question) if !question.is_empty() => RecordKey::Question(question),
            _ => RecordKey::Position(outcome.index),
        }
    }

    /// The key as hashed: its kind, then its value.
    fn parts(&self) -> (&'static str, String) {
        match self {
            RecordKey::Id(id) => ("id", id.clone()),
            RecordKey::Question(question) => ("question", question.clone()),
            RecordKey::Position(position) => ("position", position.to_string()),
            RecordKey::Unreadable => ("unreadable", String::new()),
        }
    }
}

/// What a finding is about within its record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum At {
    /// The sentence of this 1-based index.
    Sentence(usize),
    /// The provider citation of this 1-based index.
    Citation(usize),
    /// The whole record, which could not be read.
    Record,
}

impl At {
    /// What it is about, without its position.
    fn kind(self) -> &'static str {
        match self {
            At::Sentence(_) => "sentence",
            At::Citation(_) => "citation",
            At::Record => "record",
        }
    }

    /// The sentence's index, when it is about one.
    pub fn sentence(self) -> Option<usize> {
        match self {
            At::Sentence(index) => Some(index),
            _ => None,
        }
    }
}

/// One finding of a record, identified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Its rule id, as the CI formats name it (`number-mismatch`, `unknown-marker`,
    /// `bad-record`).
    pub rule: &'static str,
    pub at: At,
    /// What identifies it within its record, wherever it stands there: a hash of its rule,
    /// what it is about and its normalised text (16 hex digits).
    pub key: String,
    /// What identifies it within the whole run: its key with its record's key and its
    /// occurrence (16 hex digits). Written as `fingerprint` by `batch --format json`.
    pub fingerprint: String,
    /// With a baseline: whether the baseline lacks it. `None` without one.
    pub new: Option<bool>,
}

/// The rule of a sentence, when the sentence is a finding: its verdict when the verdict is a
/// problem (neither `supported` nor `no-claim`), else `unknown-marker` when one of its
/// markers names no chunk. The CI formats decide the same way
/// (`emit::findings::sentence_problem`).
pub fn sentence_rule(s: &SentenceResult) -> Option<&'static str> {
    match s.verdict {
        Verdict::Supported | Verdict::NoClaim if s.unknown_markers.is_empty() => None,
        Verdict::Supported | Verdict::NoClaim => Some("unknown-marker"),
        problem => Some(problem.name()),
    }
}

/// Provider citations tied to no sentence whose quotation is not in the chunk they name: the
/// gate counts them as misquotes. Yields each one's index and quotation.
pub fn loose_misquotes(result: &CheckResult) -> impl Iterator<Item = (usize, &str)> {
    result.citations.iter().filter_map(|c| {
        let quote = c.quote.as_ref().filter(|q| !q.found())?;
        c.sentences
            .is_empty()
            .then_some((c.index, quote.text.as_str()))
    })
}

/// A record's findings in the order the CI formats list them (its problem sentences, then its
/// loose misquotes; for an unreadable record, the record), each with its rule, what it is
/// about and the text its identity reads: the sentence, the quotation, or for an unreadable
/// record the start of its first line (its error when that is unknown).
pub fn findings(outcome: &RecordOutcome) -> Vec<(&'static str, At, &str)> {
    let checked = match &outcome.result {
        Ok(checked) => checked,
        Err(error) => {
            let text = if outcome.excerpt.is_empty() {
                error.as_str()
            } else {
                outcome.excerpt.as_str()
            };
            return vec![("bad-record", At::Record, text)];
        }
    };
    let result = &checked.report.result;
    let mut found: Vec<(&'static str, At, &str)> = result
        .sentences
        .iter()
        .filter_map(|s| {
            let rule = sentence_rule(s)?;
            Some((rule, At::Sentence(s.index), s.sentence.as_str()))
        })
        .collect();
    found.extend(
        loose_misquotes(result)
            .map(|(index, quote)| (Verdict::Misquote.name(), At::Citation(index), quote)),
    );
    found
}

/// The key of a finding within its record (see [`Found::key`]).
pub fn finding_key(rule: &str, at: At, text: &str) -> String {
    fnv1a_hex(&[rule, at.kind(), &normalised(text)])
}

/// Gives each record's findings their fingerprints, in input order; with a baseline, marks
/// which are new, gates each checked record on its new findings only, and keeps what the
/// batch's gate and the report need.
#[derive(Debug, Default)]
pub struct Identities {
    /// How often each identity came so far (a hash of it: a few bytes per finding of a record
    /// with an id or a question).
    seen: HashMap<u64, usize>,
    baseline: Option<Compared>,
    /// No baseline, and the output shows no fingerprint: records are given none.
    unshown: bool,
}

/// The run so far against its baseline.
#[derive(Debug)]
struct Compared {
    baseline: Baseline,
    /// Which of the baseline's findings this run has had.
    matched: Vec<bool>,
    new: usize,
    unchanged: usize,
    /// Records that could not be read and are not in the baseline.
    new_bad_records: usize,
    /// The checked records' counts with only their new findings counted (see
    /// [`new_counts`]), summed: the rates the gate reads.
    new_counts: Counts,
}

impl Identities {
    /// Fingerprints matched against `baseline`.
    /// For an output that shows no fingerprint, without a baseline: records keep no findings
    /// (nothing reads them), and nothing is kept per finding.
    pub fn unshown() -> Self {
        Identities {
            unshown: true,
            ..Identities::default()
        }
    }

    pub fn with_baseline(baseline: Baseline) -> Self {
        let matched = vec![false; baseline.findings.len()];
        Identities {
            seen: HashMap::new(),
            baseline: Some(Compared {
                baseline,
                matched,
                new: 0,
                unchanged: 0,
                new_bad_records: 0,
                new_counts: Counts::default(),
            }),
            unshown: false,
        }
    }

    /// Gives `outcome` its findings, fingerprinted. With a baseline, each is marked new or not,
    /// and a checked record's gate becomes `limits` applied to its new findings only.
    pub fn mark(&mut self, outcome: &mut RecordOutcome, limits: &Limits) {
        if self.unshown {
            return;
        }
        let record = RecordKey::of(outcome);
        // No other record has this one's position: its findings are counted within it, and
        // the run keeps nothing of them (a batch of records without ids or questions keeps no
        // state per finding).
        let mut own = HashMap::new();
        let seen = match record {
            RecordKey::Position(_) => &mut own,
            _ => &mut self.seen,
        };
        let (kind, value) = record.parts();
        let mut found: Vec<Found> = findings(outcome)
            .into_iter()
            .map(|(rule, at, text)| {
                let key = finding_key(rule, at, text);
                let seen = seen.entry(fnv1a(&[kind, &value, &key])).or_insert(0);
                *seen += 1;
                let fingerprint = fnv1a_hex(&[kind, &value, &key, &seen.to_string()]);
                Found {
                    rule,
                    at,
                    key,
                    fingerprint,
                    new: None,
                }
            })
            .collect();
        if let Some(compared) = &mut self.baseline {
            for finding in &mut found {
                let known = compared.baseline.position(&finding.fingerprint);
                if let Some(at) = known {
                    compared.matched[at] = true;
                    compared.unchanged += 1;
                } else {
                    compared.new += 1;
                    if finding.at == At::Record {
                        compared.new_bad_records += 1;
                    }
                }
                finding.new = Some(known.is_none());
            }
            if let Ok(checked) = &mut outcome.result {
                let counts = new_counts(&checked.report.result, &found);
                checked.gate = limits.evaluate(&counts);
                compared.new_counts.add(&counts);
            }
        }
        outcome.findings = found;
    }

    /// The batch's gate: the limits on `aggregate` without a baseline; with one, on the new
    /// findings only (the failing records are those over a per-record limit by their new
    /// findings, the bad records those not in the baseline, the rates those of the new
    /// findings among all claim sentences; abstentions are no findings and count whole).
    pub fn gate(&self, aggregate: &Aggregate, limits: &BatchLimits) -> BatchGate {
        match &self.baseline {
            None => aggregate.evaluate(limits),
            Some(compared) => {
                let rates = Rates::of(&compared.new_counts)
                    .with_abstaining(aggregate.abstaining_records, aggregate.checked);
                limits.evaluate(aggregate.failing_records, compared.new_bad_records, &rates)
            }
        }
    }

    /// The findings new, unchanged and fixed against the baseline so far; `None` without one.
    pub fn outcome(&self) -> Option<BaselineOutcome> {
        let compared = self.baseline.as_ref()?;
        let fixed: Vec<_> = compared
            .baseline
            .findings
            .iter()
            .zip(&compared.matched)
            .filter(|(_, matched)| !**matched)
            .map(|(finding, _)| finding.clone())
            .collect();
        Some(BaselineOutcome {
            file: compared.baseline.file.clone(),
            new: compared.new,
            unchanged: compared.unchanged,
            fixed: fixed.len(),
            fixed_findings: fixed,
        })
    }
}

/// A record's counts with only its new findings counted: each problem verdict, the loose
/// misquotes, and the unknown markers (the labels of sentences with a new finding, and those
/// no sentence carries). What is no finding (sentences, claims, abstentions, chunks) counts
/// whole.
fn new_counts(result: &CheckResult, found: &[Found]) -> Counts {
    let mut counts = result.counts;
    counts.number_mismatch = 0;
    counts.weak_support = 0;
    counts.unsupported_citation = 0;
    counts.misquote = 0;
    counts.contradicted = 0;
    counts.uncited_claim = 0;
    counts.misquoted_citations = 0;
    let carried: HashSet<&str> = result
        .sentences
        .iter()
        .flat_map(|s| s.unknown_markers.iter().map(String::as_str))
        .collect();
    let mut labels: HashSet<&str> = result
        .unknown_markers
        .iter()
        .map(String::as_str)
        .filter(|label| !carried.contains(label))
        .collect();
    for finding in found.iter().filter(|f| f.new == Some(true)) {
        match finding.at {
            At::Sentence(index) => {
                let Some(s) = result.sentence(index) else {
                    continue;
                };
                labels.extend(s.unknown_markers.iter().map(String::as_str));
                if matches!(s.verdict, Verdict::Supported | Verdict::NoClaim) {
                    continue;
                }
                *counts.of_verdict_mut(s.verdict) += 1;
            }
            At::Citation(_) => counts.misquoted_citations += 1,
            At::Record => {}
        }
    }
    counts.unknown_markers = labels.len();
    counts
}

/// Text as identities compare it: lower case, white space runs as one space, trimmed.
pub fn normalised(text: &str) -> String {
    text.split_whitespace()
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

/// 64-bit FNV-1a over the parts, each followed by a byte that never occurs in UTF-8 (so that
/// `("ab", "c")` and `("a", "bc")` differ), as 16 hex digits. Written here rather than taken from
/// a crate: the fingerprints must not change when a dependency does.
pub fn fnv1a_hex(parts: &[&str]) -> String {
    format!("{:016x}", fnv1a(parts))
}

/// 64-bit FNV-1a over the parts, as [`fnv1a_hex`] takes them.
pub fn fnv1a(parts: &[&str]) -> u64 {
    fnv1a_bytes(
        parts
            .iter()
            .flat_map(|part| part.bytes().chain(std::iter::once(0xff))),
    )
}

/// 64-bit FNV-1a of a byte sequence.
fn fnv1a_bytes(bytes: impl IntoIterator<Item = u8>) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes.into_iter().fold(OFFSET, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(PRIME)
    })
}

#[cfg(test)]
pub(crate) mod tests;
