//! Detection figures of `ragcite eval`, where a labelled sentence says more than whether its
//! citation supports it: **claim detection** on the sentences that cite nothing (ExpertQA's
//! `worthy`: the expert says the claim needs a citation), the precision and recall of
//! `uncited-claim` against that label; **abstention detection** (`abstention`: the sentence
//! declines or says the sources do not cover something), the precision and recall of the
//! `no-claim` kind `abstention` against it. Each labelled sentence is checked alone (its
//! `text`), as the support figures check it.

use serde::Serialize;

use crate::claim::Kind;
use crate::report::{SentenceResult, Verdict};

/// What ragcite said of one labelled sentence, and what its labels say: `(predicted, label)`
/// for each task it is labelled for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Detected {
    /// An uncited sentence with a `worthy` label: whether ragcite calls it an uncited claim.
    pub claim: Option<(bool, bool)>,
    /// A sentence with an `abstention` label: whether ragcite calls it an abstention.
    pub abstention: Option<(bool, bool)>,
}

impl Detected {
    /// The detections of the sentence `labels` (its JSON object) whose text ragcite split into
    /// `sentences`; `None` when it carries neither label (or a claim label on a cited text).
    pub fn of(labels: &serde_json::Value, sentences: &[SentenceResult]) -> Option<Detected> {
        let flag = |key: &str| labels.get(key).and_then(serde_json::Value::as_bool);
        let uncited = sentences.iter().all(|s| s.markers.is_empty());
        let detected = Detected {
            claim: flag("worthy").filter(|_| uncited).map(|worthy| {
                let claim = sentences.iter().any(|s| s.verdict == Verdict::UncitedClaim);
                (claim, worthy)
            }),
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
    (
        Detection::of(detected.iter().filter_map(|d| d.claim)),
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
            abstention: None,
        };
        let abstention = Detected {
            claim: None,
            abstention: Some((true, false)),
        };
        let (c, a) = detections(&[claim, abstention]);
        assert_eq!(c.unwrap().labelled, 1);
        assert_eq!(a.unwrap().precision, Some(0.0));
        assert_eq!(detections(&[]), (None, None));
    }
}
