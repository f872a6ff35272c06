//! Detection figures of `ragcite eval`, where a labelled sentence says more than whether its
//! citation supports it: **claim detection** on the sentences that cite nothing (ExpertQA's
//! `worthy`: the expert says the claim needs a citation), the precision and recall of
//! `uncited-claim` against that label; **abstention detection** (`abstention`: the sentence
//! declines or says the sources do not cover something), the precision and recall of the
//! `no-claim` kind `abstention` against it, with the claim threshold that would have given the
//! best F1 on them. A record with an `answer` is checked whole for its claim labels, so that
//! each sentence has its neighbours (see [`crate::eval::claims`]); otherwise each labelled
//! sentence is checked alone (its `text`), as the support figures check it.

use serde::Serialize;

use crate::claim::Kind;
use crate::report::{SentenceResult, Verdict};

/// What ragcite said of one labelled sentence, and what its labels say: `(predicted, label)`
/// for each task it is labelled for.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Detected {
    /// An uncited sentence with a `worthy` label: whether ragcite calls it an uncited claim.
    pub claim: Option<(bool, bool)>,
    /// Its claim score, where the claim scorer decided it.
    pub claim_score: Option<f64>,
    /// A sentence with an `abstention` label: whether ragcite calls it an abstention.
    pub abstention: Option<(bool, bool)>,
}

impl Detected {
    /// The detections of the sentence `labels` (its JSON object) whose text ragcite split into
    /// `sentences`; `None` when it carries neither label (or a claim label on a cited text).
    /// `claims`: whether the claim label is read here (else from the whole answer).
    pub fn of(
        labels: &serde_json::Value,
        sentences: &[SentenceResult],
        claims: bool,
    ) -> Option<Detected> {
        let flag = |key: &str| labels.get(key).and_then(serde_json::Value::as_bool);
        let uncited = sentences.iter().all(|s| s.markers.is_empty());
        let detected = Detected {
            claim: flag("worthy").filter(|_| uncited && claims).map(|worthy| {
                let claim = sentences.iter().any(|s| s.verdict == Verdict::UncitedClaim);
                (claim, worthy)
            }),
            claim_score: None,
            abstention: flag("abstention").map(|abstention| {
                let found = sentences.iter().any(|s| s.kind == Some(Kind::Abstention));
                (found, abstention)
            }),
        };
        (detected != Detected::default()).then_some(detected)
    }
}

/// Precision and recall of one detection over the sentences labelled for it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Detection {
    /// Sentences labelled for it.
    pub labelled: usize,
    /// Those labelled positive (worthy, abstaining).
    pub positives: usize,
    /// Those ragcite flags (uncited-claim, abstention).
    pub flagged: usize,
    /// Flagged and labelled positive.
    pub correct: usize,
    /// `correct / flagged`; `None` when nothing is flagged.
    pub precision: Option<f64>,
    /// `correct / positives`; `None` when nothing is labelled positive.
    pub recall: Option<f64>,
    /// Claim detection only: the claim threshold (0.05 to 0.95) with the best F1 on these
    /// sentences, and its figures; absent where no sentence was scored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best: Option<BestThreshold>,
}

/// The claim threshold with the best F1, and what it gives.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BestThreshold {
    pub threshold: f64,
    pub flagged: usize,
    pub correct: usize,
    pub precision: Option<f64>,
    pub recall: Option<f64>,
    pub f1: f64,
}

impl BestThreshold {
    /// Over `(score, flagged, label)`: a sentence with a score is flagged when it reaches the
    /// threshold, one without (a rule decided it) as it was; the lowest threshold on a tie.
    /// `None` when no sentence has a score.
    pub fn of(pairs: &[(Option<f64>, bool, bool)]) -> Option<BestThreshold> {
        if pairs.iter().all(|(s, _, _)| s.is_none()) {
            return None;
        }
        let positives = pairs.iter().filter(|(_, _, l)| *l).count();
        let mut best: Option<BestThreshold> = None;
        for hundredths in 5..=95u32 {
            let t = f64::from(hundredths) / 100.0;
            let (mut flagged, mut correct) = (0, 0);
            for &(score, fixed, label) in pairs {
                if score.map_or(fixed, |s| s + 1e-9 >= t) {
                    flagged += 1;
                    correct += usize::from(label);
                }
            }
            let f1 = if correct == 0 {
                0.0
            } else {
                (2 * correct) as f64 / (flagged + positives) as f64
            };
            if best.is_none_or(|b| f1 > b.f1 + 1e-12) {
                best = Some(BestThreshold {
                    threshold: t,
                    flagged,
                    correct,
                    precision: (flagged > 0).then(|| correct as f64 / flagged as f64),
                    recall: (positives > 0).then(|| correct as f64 / positives as f64),
                    f1,
                });
            }
        }
        best
    }
}

impl Detection {
    /// The figures of `(predicted, label)` pairs; `None` when there are none.
    pub fn of(pairs: impl IntoIterator<Item = (bool, bool)>) -> Option<Detection> {
        let mut d = Detection {
            labelled: 0,
            positives: 0,
            flagged: 0,
            correct: 0,
            precision: None,
            recall: None,
            best: None,
        };
        for (predicted, label) in pairs {
            d.labelled += 1;
            d.positives += usize::from(label);
            d.flagged += usize::from(predicted);
            d.correct += usize::from(predicted && label);
        }
        if d.labelled == 0 {
            return None;
        }
        d.precision = (d.flagged > 0).then(|| d.correct as f64 / d.flagged as f64);
        d.recall = (d.positives > 0).then(|| d.correct as f64 / d.positives as f64);
        Some(d)
    }
}

/// Claim and abstention detection over `detected`, each `None` when no sentence is labelled
/// for it.
pub fn detections(detected: &[Detected]) -> (Option<Detection>, Option<Detection>) {
    let claims = Detection::of(detected.iter().filter_map(|d| d.claim)).map(|d| {
        let scored: Vec<(Option<f64>, bool, bool)> = detected
            .iter()
            .filter_map(|d| {
                d.claim
                    .map(|(flagged, label)| (d.claim_score, flagged, label))
            })
            .collect();
        Detection {
            best: BestThreshold::of(&scored),
            ..d
        }
    });
    (
        claims,
        Detection::of(detected.iter().filter_map(|d| d.abstention)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precision_and_recall_count_what_is_flagged_and_what_is_labelled() {
        let d =
            Detection::of([(true, true), (true, false), (false, true), (false, false)]).unwrap();
        assert_eq!(
            (d.labelled, d.positives, d.flagged, d.correct),
            (4, 2, 2, 1)
        );
        assert_eq!(d.precision, Some(0.5));
        assert_eq!(d.recall, Some(0.5));
        assert_eq!(Detection::of([]), None);
        let none_flagged = Detection::of([(false, true)]).unwrap();
        assert_eq!(
            (none_flagged.precision, none_flagged.recall),
            (None, Some(0.0))
        );
    }

    #[test]
    fn each_task_counts_only_the_sentences_labelled_for_it() {
        let claim = Detected {
            claim: Some((true, true)),
            claim_score: None,
            abstention: None,
        };
        let abstention = Detected {
            claim: None,
            claim_score: None,
            abstention: Some((true, false)),
        };
        let (c, a) = detections(&[claim, abstention]);
        assert_eq!(c.unwrap().labelled, 1);
        assert_eq!(a.unwrap().precision, Some(0.0));
        assert_eq!(detections(&[]), (None, None));
    }
}
