//! Eval: agreement of the checker with human labels. Each labelled sentence gives a score (the
//! one verdicts are decided on), whether a verdict other than the score rules it out (a number
//! or quote not found, a citation that resolves nowhere), the verdict, and the label. From
//! those: ROC-AUC, precision, recall and macro-F1 at the threshold, the confusion matrix, the
//! precision of `number-mismatch`, `misquote` and `contradicted`, the threshold that would maximise macro-F1,
//! and the score distributions.

use std::collections::BTreeMap;
use std::io::{self, BufRead as _, Read as _};

use rayon::prelude::*;
use serde::Serialize;

use crate::parallel::WINDOW;
use crate::report::Verdict;
use crate::support::model::features::Features;

pub mod claims;
mod detect;
mod export;
pub use detect::{Detected, Detection};
pub use export::write_features;

/// One labelled sentence, as checked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Judged {
    /// The score verdicts are decided on, in [0, 1].
    pub score: f64,
    /// Whether something other than the score keeps it from `supported` at any threshold.
    pub blocked: bool,
    pub verdict: Verdict,
    /// What people said: supported (true) or not.
    pub label: bool,
    /// The features of the deciding sentence and chunk (see
    /// [`crate::support::model::features`]), when it cites a chunk and has content words.
    pub features: Option<Features>,
}

/// Counts of predictions against labels; "positive" is `supported`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Confusion {
    pub true_positive: usize,
    pub false_positive: usize,
    pub false_negative: usize,
    pub true_negative: usize,
}

impl Confusion {
    fn add(&mut self, predicted: bool, label: bool) {
        match (predicted, label) {
            (true, true) => self.true_positive += 1,
            (true, false) => self.false_positive += 1,
            (false, true) => self.false_negative += 1,
            (false, false) => self.true_negative += 1,
        }
    }

    /// Precision, recall and F1 of the positive class.
    fn positive(&self) -> (f64, f64, f64) {
        prf(self.true_positive, self.false_positive, self.false_negative)
    }

    /// Precision, recall and F1 of the negative class.
    fn negative(&self) -> (f64, f64, f64) {
        prf(self.true_negative, self.false_negative, self.false_positive)
    }

    pub fn macro_f1(&self) -> f64 {
        (self.positive().2 + self.negative().2) / 2.0
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

fn prf(tp: usize, fp: usize, fn_: usize) -> (f64, f64, f64) {
    let precision = ratio(tp, tp + fp);
    let recall = ratio(tp, tp + fn_);
    let f1 = if precision + recall == 0.0 {
        0.0
    } else {
        2.0 * precision * recall / (precision + recall)
    };
    (precision, recall, f1)
}

/// Precision of a verdict that says "not supported": the share of the sentences it flags that
/// people also judged unsupported. `None` when it flags nothing.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FlagPrecision {
    pub flagged: usize,
    pub correct: usize,
    pub precision: Option<f64>,
}

/// A histogram of scores in ten bins of 0.1 (the last includes 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Histogram {
    pub bins: [usize; 10],
}

impl Histogram {
    fn add(&mut self, score: f64) {
        let bin = ((score * 10.0).floor() as usize).min(9);
        self.bins[bin] += 1;
    }
}

/// Everything `ragcite eval` reports for a set of labelled sentences.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Agreement {
    pub sentences: usize,
    pub positives: usize,
    pub negatives: usize,
    /// Area under the ROC curve of the score against the labels (ties count half); `None`
    /// when one class is missing.
    pub roc_auc: Option<f64>,
    /// At the threshold the check was run with.
    pub threshold: f64,
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub macro_f1: f64,
    pub confusion: Confusion,
    pub number_mismatch: FlagPrecision,
    pub misquote: FlagPrecision,
    /// The share of `contradicted` sentences labelled unsupported. Added with the verdict.
    pub contradicted: FlagPrecision,
    /// Claim detection on the uncited sentences labelled `worthy`: precision and recall of
    /// `uncited-claim`. Absent when no sentence carries the label.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim_detection: Option<Detection>,
    /// Abstention detection on the sentences labelled `abstention`: precision and recall of
    /// the `no-claim` kind `abstention`. Absent when no sentence carries the label.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub abstention_detection: Option<Detection>,
    /// The threshold in 0.1..1 that maximises macro-F1 on this data, and that macro-F1.
    pub best_threshold: f64,
    pub best_macro_f1: f64,
    pub positive_scores: Histogram,
    pub negative_scores: Histogram,
}

/// Allowance for floating-point error, as in the checker.
const EPSILON: f64 = 1e-9;

/// Measures agreement of `judged` sentences with their labels at `threshold`.
pub fn agreement(judged: &[Judged], threshold: f64) -> Agreement {
    let mut confusion = Confusion::default();
    let mut positive_scores = Histogram::default();
    let mut negative_scores = Histogram::default();
    let mut flags = [(0usize, 0usize); 3];
    for j in judged {
        confusion.add(j.verdict == Verdict::Supported, j.label);
        if j.label {
            positive_scores.add(j.score);
        } else {
            negative_scores.add(j.score);
        }
        for (slot, verdict) in [
            Verdict::NumberMismatch,
            Verdict::Misquote,
            Verdict::Contradicted,
        ]
        .iter()
        .enumerate()
        {
            if j.verdict == *verdict {
                flags[slot].0 += 1;
                flags[slot].1 += usize::from(!j.label);
            }
        }
    }
    let flag = |(flagged, correct): (usize, usize)| FlagPrecision {
        flagged,
        correct,
        precision: (flagged > 0).then(|| ratio(correct, flagged)),
    };
    let (precision, recall, f1) = confusion.positive();
    let (best_threshold, best_macro_f1) = best_threshold(judged);
    let positives = judged.iter().filter(|j| j.label).count();
    Agreement {
        sentences: judged.len(),
        positives,
        negatives: judged.len() - positives,
        roc_auc: roc_auc(judged),
        threshold,
        precision,
        recall,
        f1,
        macro_f1: confusion.macro_f1(),
        confusion,
        number_mismatch: flag(flags[0]),
        misquote: flag(flags[1]),
        contradicted: flag(flags[2]),
        claim_detection: None,
        abstention_detection: None,
        best_threshold,
        best_macro_f1,
        positive_scores,
        negative_scores,
    }
}

/// `agreement` with the claim and abstention detection of `detected`.
fn with_detections(agreement: Agreement, detected: &[Detected]) -> Agreement {
    let (claim_detection, abstention_detection) = detect::detections(detected);
    Agreement {
        claim_detection,
        abstention_detection,
        ..agreement
    }
}

/// ROC-AUC by ranks (Mann–Whitney U), ties counted half.
fn roc_auc(judged: &[Judged]) -> Option<f64> {
    let mut scored: Vec<(f64, bool)> = judged.iter().map(|j| (j.score, j.label)).collect();
    scored.sort_by(|a, b| a.0.total_cmp(&b.0));
    let positives = scored.iter().filter(|s| s.1).count();
    let negatives = scored.len() - positives;
    if positives == 0 || negatives == 0 {
        return None;
    }
    let mut rank_sum = 0.0;
    let mut k = 0;
    while k < scored.len() {
        let mut end = k;
        while end < scored.len() && (scored[end].0 - scored[k].0).abs() <= EPSILON {
            end += 1;
        }
        // Tied scores share the average of their ranks (1-based).
        let average_rank = (k + 1 + end) as f64 / 2.0;
        rank_sum += average_rank * scored[k..end].iter().filter(|s| s.1).count() as f64;
        k = end;
    }
    let u = rank_sum - (positives * (positives + 1)) as f64 / 2.0;
    Some(u / (positives * negatives) as f64)
}

/// The threshold in 0.1..=1 whose predictions (supported when not blocked and the score
/// reaches it) give the highest macro-F1; the lowest such threshold on a tie.
fn best_threshold(judged: &[Judged]) -> (f64, f64) {
    let mut candidates: Vec<f64> = judged
        .iter()
        .map(|j| j.score)
        .filter(|s| (0.1..=1.0).contains(s))
        .collect();
    candidates.push(0.1);
    candidates.push(1.0);
    candidates.sort_by(f64::total_cmp);
    candidates.dedup_by(|a, b| (*a - *b).abs() <= EPSILON);
    let mut best = (0.5, -1.0);
    for t in candidates {
        let mut confusion = Confusion::default();
        for j in judged {
            confusion.add(!j.blocked && j.score + EPSILON >= t, j.label);
        }
        let score = confusion.macro_f1();
        if score > best.1 + EPSILON {
            best = (t, score);
        }
    }
    (best.0, best.1.max(0.0))
}

/// A labelled record read: each labelled unit checked, with the group it belongs to.
#[derive(Debug, Clone)]
pub struct JudgedRecord {
    pub group: String,
    pub units: Vec<Judged>,
    /// What identifies the record and its sources, for grouping in cross-validation: its
    /// `id`, `meta.src_dataset`, `question`, and a digest of its chunks' texts.
    pub id: String,
    pub subset: String,
    pub question: String,
    pub document: String,
    /// The claim and abstention labels of its sentences, with what ragcite said of them.
    pub detected: Vec<Detected>,
    /// Its sentences with claim labels, read in the whole answer (for `train --claims`).
    pub claims: Vec<crate::eval::claims::Labelled>,
    /// Its units labelled `null`: not judged by people, so not measured.
    pub not_judged: usize,
}

/// Reads one labelled record and checks each labelled unit:
/// - the eval schema: `sentences: [{text, label, label_lenient?}]` and `chunks`, each
///   sentence's `text` (with its markers) checked against the record's chunks;
/// - a simpler schema: `answer`, `chunks` or `contexts`, and `label` (the whole answer) or
///   `labels` (one per sentence of the answer as ragcite splits it, no-claim sentences
///   included).
///
/// `lenient` reads `label_lenient` where a sentence has one. `group_by` names the field whose
/// value groups the results (`dataset`); records without it are in the group `all`.
pub fn judge_record(
    value: &serde_json::Value,
    checker: &crate::Checker,
    lenient: bool,
    group_by: &str,
) -> Result<JudgedRecord, String> {
    use serde_json::Value;
    let object = value.as_object().ok_or("the record is not a JSON object")?;
    let group = crate::input::lookup(value, group_by)
        .map_err(|e| e.to_string())?
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| "all".to_string());
    // A record of claim labels alone (for `train --claims`) may have no chunks.
    let claims_only = matches!(object.get("sentences"), Some(Value::Array(s)) if crate::eval::claims::has_claim_labels(s));
    let no_chunks = Value::Array(Vec::new());
    let contexts = match object.get("chunks").or_else(|| object.get("contexts")) {
        Some(contexts) => contexts,
        None if claims_only => &no_chunks,
        None => return Err("the record has no `chunks` or `contexts`".to_string()),
    };
    let chunks = crate::input::chunks_from_value(contexts.clone())
        .map_err(|e| format!("the chunks: {e}"))?;
    // A figure the question states is context, as `batch` reads it.
    let question = object
        .get("question")
        .and_then(Value::as_str)
        .map(str::to_string);
    let read = |text: &str| {
        crate::input::read_answer(text.as_bytes(), Some(crate::AnswerFormat::Text))
            .map(|mut answer| {
                answer.question = question.clone();
                answer
            })
            .map_err(|e| e.to_string())
    };
    let check =
        |text: &str| -> Result<crate::Report, String> { Ok(checker.check(&read(text)?, &chunks)) };
    // A labelled claim is one unit, its markers citing for all of it.
    let check_claim = |text: &str| -> Result<crate::Report, String> {
        Ok(checker.check_as_one(&read(text)?, &chunks))
    };
    let mut units = Vec::new();
    let mut detected = Vec::new();
    let mut not_judged = 0;
    // Claim labels of a whole answer are read in it, each sentence with its neighbours.
    let mut claims = Vec::new();
    let whole_answer = match object.get("sentences") {
        Some(Value::Array(sentences))
            if object.get("answer").is_some_and(Value::is_string)
                && crate::eval::claims::has_claim_labels(sentences) =>
        {
            claims = crate::eval::claims::read_record(value, checker)?;
            detected.extend(claims.iter().filter(|c| !c.marked).map(|c| Detected {
                claim: Some((c.verdict == crate::report::Verdict::UncitedClaim, c.claim)),
                claim_score: c.score,
                abstention: None,
            }));
            true
        }
        _ => false,
    };
    if let Some(sentences) = object.get("sentences") {
        let Value::Array(sentences) = sentences else {
            return Err(format!(
                "`sentences` is {}; expected a list",
                crate::input::json_kind(sentences)
            ));
        };
        for (k, sentence) in sentences.iter().enumerate() {
            let at = |key: &str| format!("sentences[{k}].{key}");
            let strict = Label::of(sentence.get("label"), &at("label"))?;
            let label = match lenient {
                true => match Label::of(sentence.get("label_lenient"), &at("label_lenient"))? {
                    Label::Judged(label) => Label::Judged(label),
                    _ => strict,
                },
                false => strict,
            };
            // The claim and abstention labels (ExpertQA's `worthy`), read like `label`.
            let mut labelled = false;
            for key in ["worthy", "abstention"] {
                labelled |= matches!(Label::of(sentence.get(key), &at(key))?, Label::Judged(_));
            }
            // A claim label (`other` and `null` too: not judged) is a label.
            labelled |= crate::eval::claims::label_of(sentence, &format!("sentences[{k}]"))?
                .is_some()
                || ["claim", "kind"]
                    .iter()
                    .any(|key| sentence.get(key).is_some());
            let Some(text) = sentence.get("text").and_then(Value::as_str) else {
                return Err(format!("`sentences[{k}]` has no `text` string"));
            };
            match label {
                Label::Absent if !labelled => {
                    return Err(format!(
                        "`sentences[{k}]` has no `label` (true, false, or null for not judged)"
                    ));
                }
                Label::NotJudged => not_judged += 1,
                _ => {}
            }
            if !labelled && label == Label::NotJudged {
                continue;
            }
            let report = check_claim(text)?;
            if let Label::Judged(label) = label {
                units.push(unit(&report.result.sentences, label));
            }
            detected.extend(Detected::of(
                sentence,
                &report.result.sentences,
                !whole_answer,
            ));
        }
    } else {
        let answer = object
            .get("answer")
            .and_then(Value::as_str)
            .ok_or("the record has no `sentences` and no `answer`")?;
        let labels = match (object.get("label"), object.get("labels")) {
            (Some(label), _) => vec![(Label::of(Some(label), "label")?, None)],
            (None, Some(Value::Array(labels))) => labels
                .iter()
                .enumerate()
                .map(|(k, label)| Ok((Label::of(Some(label), &format!("labels[{k}]"))?, Some(k))))
                .collect::<Result<Vec<_>, String>>()?,
            (None, Some(other)) => {
                return Err(format!(
                    "`labels` is {}; expected a list",
                    crate::input::json_kind(other)
                ));
            }
            (None, None) => {
                return Err("the record has no `label` and no `labels` list".to_string());
            }
        };
        not_judged += labels
            .iter()
            .filter(|(l, _)| *l == Label::NotJudged)
            .count();
        let judged = labels.iter().any(|(l, _)| matches!(l, Label::Judged(_)));
        if judged || labels.len() > 1 {
            let report = check(answer)?;
            let sentences = &report.result.sentences;
            match labels.as_slice() {
                [(Label::Judged(label), None)] => units.push(unit(sentences, *label)),
                _ if labels.len() != sentences.len() => {
                    return Err(format!(
                        "{} labels for {} sentences (as ragcite splits the answer)",
                        labels.len(),
                        sentences.len()
                    ));
                }
                _ => {
                    for (sentence, (label, _)) in sentences.iter().zip(&labels) {
                        if let Label::Judged(label) = label {
                            units.push(unit(std::slice::from_ref(sentence), *label));
                        }
                    }
                }
            }
        }
    }
    // Plain keys: a lookup that reaches one place, never past its budget.
    let text = |path: &str| {
        crate::input::lookup(value, path)
            .ok()
            .flatten()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    };
    Ok(JudgedRecord {
        group,
        units,
        id: text("id"),
        subset: text("meta.src_dataset"),
        question: text("question"),
        document: export::digest(&chunks.chunks),
        detected,
        claims,
        not_judged,
    })
}

/// A label as a record writes it: `true` or `false`, `null` for a unit people did not judge,
/// or no label at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Label {
    Judged(bool),
    NotJudged,
    Absent,
}

impl Label {
    /// The label at `path` (for the message); anything but a boolean or null is an error: a
    /// label written `"true"` or `1` is no label, and dropping it would hide it.
    fn of(value: Option<&serde_json::Value>, path: &str) -> Result<Label, String> {
        match value {
            None => Ok(Label::Absent),
            Some(serde_json::Value::Null) => Ok(Label::NotJudged),
            Some(serde_json::Value::Bool(label)) => Ok(Label::Judged(*label)),
            Some(other) => Err(format!(
                "`{path}` is {}; expected true, false or null",
                crate::input::json_kind(other)
            )),
        }
    }
}

/// One labelled unit of one or more sentences: supported only if every claim sentence is; its
/// score is the lowest of theirs.
fn unit(sentences: &[crate::report::SentenceResult], label: bool) -> Judged {
    let claims: Vec<&crate::report::SentenceResult> =
        sentences.iter().filter(|s| s.verdict.is_claim()).collect();
    if claims.is_empty() {
        return Judged {
            score: 0.0,
            blocked: true,
            verdict: Verdict::NoClaim,
            label,
            features: None,
        };
    }
    // The lowest score decides, the earliest on a tie.
    let lowest = claims
        .iter()
        .copied()
        .reduce(|a, b| if b.support < a.support { b } else { a })
        .expect("at least one claim");
    let score = lowest.support;
    let blocked = claims.iter().any(|s| {
        s.cited.is_empty() || !s.missing_numbers.is_empty() || s.quotes.iter().any(|q| !q.found())
    });
    // The unit's verdict is its worst sentence's, in the order verdicts are tried.
    let verdict = [
        Verdict::UncitedClaim,
        Verdict::UnsupportedCitation,
        Verdict::Misquote,
        Verdict::NumberMismatch,
        Verdict::Contradicted,
        Verdict::WeakSupport,
    ]
    .into_iter()
    .find(|v| claims.iter().any(|s| s.verdict == *v))
    .unwrap_or(Verdict::Supported);
    Judged {
        score,
        blocked,
        verdict,
        label,
        features: lowest.features,
    }
}

/// Labelled records read so far, checked and grouped, with the lines that could not be read.
#[derive(Debug, Default)]
pub struct Judging {
    /// The labelled units of each group, by group name.
    pub groups: BTreeMap<String, Vec<Judged>>,
    /// The claim and abstention labels of each group, by group name.
    pub detected: BTreeMap<String, Vec<Detected>>,
    /// `file: line n: why` for each record that could not be read or checked.
    pub bad: Vec<String>,
    /// Records read (non-blank lines), bad ones included.
    pub records: usize,
    /// Units labelled `null` (not judged), which are not measured.
    pub not_judged: usize,
}

/// A line of a labelled file that could not be read (the file itself is broken, not a record).
#[derive(Debug, thiserror::Error)]
#[error("{file}: line {line}: cannot read: {error}")]
pub struct ReadError {
    pub file: String,
    pub line: usize,
    pub error: io::Error,
}

/// How [`Judging::read_each`] reads labelled lines.
#[derive(Debug, Clone, Copy)]
pub struct Reading<'a> {
    /// Use `label_lenient` where a sentence has one.
    pub lenient: bool,
    /// The record field whose value groups the results.
    pub group_by: &'a str,
    /// The longest line, in bytes; a longer one is a [`ReadError`] (after reading at most two
    /// bytes more than this of it).
    pub max_line: usize,
}

impl Judging {
    /// Reads every JSON line of `reader` (named `file` in messages) and checks its labelled
    /// units (see [`judge_record`]), a window of lines at a time in parallel, so that memory
    /// stays flat; shows each record read to `each`, in the order of the file. Blank lines are
    /// skipped; a line that is no record is listed in `bad`.
    pub fn read_each(
        &mut self,
        mut reader: impl io::BufRead,
        file: &str,
        checker: &crate::Checker,
        reading: Reading<'_>,
        mut each: impl FnMut(&JudgedRecord),
    ) -> Result<(), ReadError> {
        let Reading {
            lenient,
            group_by,
            max_line,
        } = reading;
        let mut number = 0usize;
        let mut ended = false;
        let broken = |line: usize, error: io::Error| ReadError {
            file: file.to_string(),
            line,
            error,
        };
        loop {
            let mut window = Vec::with_capacity(WINDOW);
            while !ended && window.len() < WINDOW {
                // At most two bytes past the limit of a line are read: an endless line (a device,
                // a file without line breaks) ends here, in bounded memory.
                let mut bytes = Vec::new();
                let read = (&mut reader)
                    .take(max_line as u64 + 2)
                    .read_until(b'\n', &mut bytes)
                    .map_err(|e| broken(number + 1, e))?;
                if read == 0 {
                    ended = true;
                    break;
                }
                number += 1;
                if bytes.last() == Some(&b'\n') {
                    bytes.pop();
                    if bytes.last() == Some(&b'\r') {
                        bytes.pop();
                    }
                }
                if bytes.len() > max_line {
                    return Err(broken(
                        number,
                        io::Error::new(
                            io::ErrorKind::InvalidData,
                            format!(
                                "a line longer than {} (--max-record-size raises it)",
                                crate::batch::scan::size_name(max_line as u64)
                            ),
                        ),
                    ));
                }
                let line = String::from_utf8(bytes).map_err(|_| {
                    broken(
                        number,
                        io::Error::new(
                            io::ErrorKind::InvalidData,
                            "stream did not contain valid UTF-8",
                        ),
                    )
                })?;
                if !line.trim().is_empty() {
                    window.push((number, line));
                }
            }
            if window.is_empty() {
                return Ok(());
            }
            self.records += window.len();
            let judged: Vec<(usize, Result<JudgedRecord, String>)> = window
                .par_iter()
                .map(|(line, text)| {
                    let record = serde_json::from_str::<serde_json::Value>(text)
                        .map_err(|e| format!("invalid JSON: {e}"))
                        .and_then(|value| judge_record(&value, checker, lenient, group_by));
                    (*line, record)
                })
                .collect();
            for (line, record) in judged {
                match record {
                    Ok(record) => {
                        each(&record);
                        self.not_judged += record.not_judged;
                        self.detected
                            .entry(record.group.clone())
                            .or_default()
                            .extend(record.detected);
                        self.groups
                            .entry(record.group)
                            .or_default()
                            .extend(record.units)
                    }
                    Err(e) => self.bad.push(format!("{file}: line {line}: {e}")),
                }
            }
        }
    }

    /// The agreement of each group at `threshold`, by group name, then over all groups as
    /// `(all)` when there are several.
    pub fn agreements(&self, threshold: f64) -> Vec<(String, Agreement)> {
        let mut results: Vec<(String, Agreement)> = self
            .groups
            .iter()
            .map(|(group, units)| {
                let detected = self.detected.get(group).map_or(&[][..], Vec::as_slice);
                (
                    group.clone(),
                    with_detections(agreement(units, threshold), detected),
                )
            })
            .collect();
        if self.groups.len() > 1 {
            let all: Vec<Judged> = self.groups.values().flatten().copied().collect();
            let detected: Vec<Detected> = self.detected.values().flatten().copied().collect();
            results.push((
                "(all)".to_string(),
                with_detections(agreement(&all, threshold), &detected),
            ));
        }
        results
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn j(score: f64, label: bool) -> Judged {
        Judged {
            score,
            blocked: false,
            verdict: if score >= 0.5 {
                Verdict::Supported
            } else {
                Verdict::WeakSupport
            },
            label,
            features: None,
        }
    }

    #[test]
    fn auc_of_a_perfect_a_reversed_and_a_tied_ranking() {
        let perfect = [j(0.9, true), j(0.8, true), j(0.2, false), j(0.1, false)];
        assert_eq!(roc_auc(&perfect), Some(1.0));
        let reversed = [j(0.1, true), j(0.9, false)];
        assert_eq!(roc_auc(&reversed), Some(0.0));
        let tied = [j(0.5, true), j(0.5, false)];
        assert_eq!(roc_auc(&tied), Some(0.5));
        assert_eq!(roc_auc(&[j(0.5, true)]), None);
    }

    #[test]
    fn confusion_and_macro_f1() {
        let judged = [j(0.9, true), j(0.6, false), j(0.2, true), j(0.1, false)];
        let a = agreement(&judged, 0.5);
        assert_eq!(
            a.confusion,
            Confusion {
                true_positive: 1,
                false_positive: 1,
                false_negative: 1,
                true_negative: 1
            }
        );
        assert_eq!(a.precision, 0.5);
        assert_eq!(a.macro_f1, 0.5);
    }

    #[test]
    fn the_best_threshold_separates_the_classes() {
        let judged = [j(0.95, true), j(0.85, true), j(0.7, false), j(0.3, false)];
        let a = agreement(&judged, 0.5);
        assert!(
            (a.best_threshold - 0.85).abs() < 1e-9,
            "{}",
            a.best_threshold
        );
        assert_eq!(a.best_macro_f1, 1.0);
    }

    #[test]
    fn flag_precision_counts_the_flagged_that_people_rejected() {
        let mut flagged = j(0.9, false);
        flagged.verdict = Verdict::NumberMismatch;
        let mut wrong = j(0.9, true);
        wrong.verdict = Verdict::NumberMismatch;
        let a = agreement(&[flagged, wrong, j(0.1, false)], 0.5);
        assert_eq!(a.number_mismatch.flagged, 2);
        assert_eq!(a.number_mismatch.precision, Some(0.5));
        assert_eq!(a.misquote.precision, None);
    }

    #[test]
    fn contradicted_precision_is_the_share_labelled_unsupported() {
        let mut caught = j(0.2, false);
        caught.verdict = Verdict::Contradicted;
        let mut also = j(0.3, false);
        also.verdict = Verdict::Contradicted;
        let mut wrong = j(0.4, true);
        wrong.verdict = Verdict::Contradicted;
        let a = agreement(&[caught, also, wrong, j(0.9, true)], 0.5);
        assert_eq!(a.contradicted.flagged, 3);
        assert_eq!(a.contradicted.correct, 2);
        assert!((a.contradicted.precision.unwrap() - 2.0 / 3.0).abs() < 1e-9);
        assert_eq!(a.number_mismatch.precision, None);
        let json = serde_json::to_value(&a).unwrap();
        assert_eq!(json["contradicted"]["flagged"], 3);
    }

    #[test]
    fn histograms_put_one_in_the_last_bin() {
        let a = agreement(&[j(1.0, true), j(0.0, false), j(0.55, true)], 0.5);
        assert_eq!(a.positive_scores.bins[9], 1);
        assert_eq!(a.positive_scores.bins[5], 1);
        assert_eq!(a.negative_scores.bins[0], 1);
    }
}
