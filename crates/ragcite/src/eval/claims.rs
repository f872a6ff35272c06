//! Claim labels: reading a labelled answer's sentences with the claim features ragcite reads of
//! them, for `ragcite train --claims` (fitting a claim model) and `ragcite eval` (claim
//! precision and recall, and the best claim threshold).
//!
//! A record is a whole answer (`answer`, with its markers), its `chunks` or `contexts` (may be
//! empty), its `question` when there is one, and `sentences`: each a `text` found in the answer
//! and one label, the first present of `claim` (true or false), `worthy` (ExpertQA: the
//! expert says it needs a citation) or `kind` (`claim` and `mixed` are claims; `pleasantry`,
//! `meta`, `navigation`, `heading`, `question`, `instruction`, `reference`, `abstention` are
//! not; `other` is not judged). `null` is not judged. The answer is checked whole, so that each
//! sentence has its neighbours, and each labelled sentence takes the features of ragcite's
//! sentence that overlaps it most.

use serde_json::Value;

use crate::report::{SentenceResult, Verdict};
use crate::support::model::claims::{ClaimFeatures, ClaimModel, Feature};
use crate::support::model::train::{
    Classes, Fitted, Threshold, TrainOptions, feature_entries, fit,
};
use crate::support::model::{ModelFile, TreeEntry};

/// One labelled sentence of an answer, with what ragcite read and said of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Labelled {
    /// People's label: the sentence needs a citation.
    pub claim: bool,
    /// ragcite's sentence that overlaps it most: whether it cites, its verdict, its features
    /// and score.
    pub marked: bool,
    pub verdict: Verdict,
    pub features: Option<ClaimFeatures>,
    pub score: Option<f64>,
}

/// The kinds a `kind` label may name, and whether each is a claim (`None`: not judged).
fn kind_label(kind: &str) -> Option<Option<bool>> {
    match kind {
        "claim" | "mixed" => Some(Some(true)),
        "pleasantry" | "meta" | "navigation" | "heading" | "question" | "instruction"
        | "reference" | "abstention" | "fragment" | "background" => Some(Some(false)),
        "other" => Some(None),
        _ => None,
    }
}

/// The claim label of a labelled sentence (its JSON object, at `path` for messages): `None`
/// when it carries none or `null`.
pub fn label_of(sentence: &Value, path: &str) -> Result<Option<bool>, String> {
    for key in ["claim", "worthy"] {
        match sentence.get(key) {
            None => continue,
            Some(Value::Null) => return Ok(None),
            Some(Value::Bool(b)) => return Ok(Some(*b)),
            Some(other) => {
                return Err(format!(
                    "`{path}.{key}` is {}; expected true, false or null",
                    crate::input::json_kind(other)
                ));
            }
        }
    }
    match sentence.get("kind") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(kind)) => kind_label(kind).ok_or_else(|| {
            format!(
                "`{path}.kind` is {kind:?}; expected claim, mixed, pleasantry, meta, \
                 navigation, heading, question, instruction, reference, abstention or other"
            )
        }),
        Some(other) => Err(format!(
            "`{path}.kind` is {}; expected a string",
            crate::input::json_kind(other)
        )),
    }
}

/// Whether any sentence of a record carries a claim label.
pub fn has_claim_labels(sentences: &[Value]) -> bool {
    sentences.iter().any(|s| {
        ["claim", "worthy", "kind"]
            .iter()
            .any(|k| s.get(k).is_some_and(|v| !v.is_null()))
    })
}

/// The labelled sentences of an answer that ragcite checked whole (`checked`, with the answer
/// text it read): each sentence's text is looked for in the answer after the previous one's; a
/// sentence not found there is an error, one that overlaps no sentence ragcite read (an emoji
/// alone) is left out.
pub fn label_sentences(
    answer: &str,
    sentences: &[Value],
    checked: &[SentenceResult],
) -> Result<Vec<Labelled>, String> {
    let mut labelled = Vec::new();
    let mut from = 0;
    let mut next = 0;
    for (k, sentence) in sentences.iter().enumerate() {
        let path = format!("sentences[{k}]");
        let Some(claim) = label_of(sentence, &path)? else {
            continue;
        };
        let text = sentence
            .get("text")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("`{path}` has no `text` string"))?;
        let text = text.trim();
        if text.is_empty() {
            return Err(format!("`{path}.text` is empty"));
        }
        // In order: each search starts where the last sentence ended, so that the answer is
        // read once however many sentences are labelled.
        let start = answer
            .get(from..)
            .and_then(|rest| rest.find(text))
            .map(|at| from + at)
            .ok_or_else(|| {
                format!("`{path}.text` is not in the answer after the sentence before it")
            })?;
        let end = start + text.len();
        from = end;
        let overlap = |s: &SentenceResult| {
            let (a, b) = (s.span.start.max(start), s.span.end.min(end));
            b.saturating_sub(a)
        };
        // ragcite's sentences in order: those that end before this one are passed for good,
        // and the search stops at the first that starts after it, so that each is looked at
        // about once. The most overlap; the first on a tie.
        while next < checked.len() && checked[next].span.end <= start {
            next += 1;
        }
        let Some(best) = checked[next..]
            .iter()
            .take_while(|s| s.span.start < end)
            .filter(|s| overlap(s) > 0)
            .fold(None::<&SentenceResult>, |best, s| match best {
                Some(b) if overlap(b) >= overlap(s) => Some(b),
                _ => Some(s),
            })
        else {
            // Text ragcite reads as no sentence (an emoji alone, markup): nothing to measure.
            continue;
        };
        labelled.push(Labelled {
            claim,
            marked: !best.markers.is_empty(),
            verdict: best.verdict,
            features: best.claim_features,
            score: best.claim_score,
        });
    }
    Ok(labelled)
}

/// Checks a labelled record's answer whole with `checker` and reads its labelled sentences
/// (see the module's documentation); `Ok(empty)` when no sentence carries a claim label.
pub fn read_record(value: &Value, checker: &crate::Checker) -> Result<Vec<Labelled>, String> {
    let object = value.as_object().ok_or("the record is not a JSON object")?;
    let sentences = match object.get("sentences") {
        Some(Value::Array(sentences)) => sentences,
        Some(other) => {
            return Err(format!(
                "`sentences` is {}; expected a list",
                crate::input::json_kind(other)
            ));
        }
        None => return Err("the record has no `sentences` list".to_string()),
    };
    if !has_claim_labels(sentences) {
        return Ok(Vec::new());
    }
    let answer = object
        .get("answer")
        .and_then(Value::as_str)
        .ok_or("the record has no `answer` string: claims are read in their whole answer")?;
    let chunks = match object.get("chunks").or_else(|| object.get("contexts")) {
        Some(contexts) => crate::input::chunks_from_value(contexts.clone())
            .map_err(|e| format!("the chunks: {e}"))?,
        None => crate::input::chunks_from_value(Value::Array(Vec::new()))
            .map_err(|e| format!("the chunks: {e}"))?,
    };
    let mut read = crate::input::read_answer(answer.as_bytes(), Some(crate::AnswerFormat::Text))
        .map_err(|e| e.to_string())?;
    read.question = object
        .get("question")
        .and_then(Value::as_str)
        .map(str::to_string);
    let report = checker.check(&read, &chunks);
    label_sentences(&read.text, sentences, &report.result.sentences)
}

/// A fitted claim model and what it was fitted on.
#[derive(Debug, Clone)]
pub struct TrainedClaims {
    pub file: ModelFile,
    pub units: usize,
    pub positives: usize,
    /// The threshold chosen on the training sentences, folded into the base.
    pub threshold: f64,
}

impl TrainedClaims {
    /// The model file as one line of JSON and a line break.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string(&self.file).expect("a model file serialises");
        text.push('\n');
        text
    }

    /// The model, read back.
    pub fn model(&self) -> ClaimModel {
        ClaimModel::from_file(&self.file).expect("a fitted model reads")
    }
}

/// The share of the claims of the training sentences that the fitted model's threshold keeps
/// claims: the highest threshold that keeps this many is folded in, so that a gate on
/// `uncited-claim` misses few.
pub const TRAINING_RECALL: f64 = 0.99;

/// Fits a claim model on labelled sentences: those with features (English sentences), cited
/// or not.
pub fn train(labelled: &[Labelled], options: &TrainOptions) -> Result<TrainedClaims, String> {
    let (rows, labels): (Vec<Vec<f32>>, Vec<bool>) = labelled
        .iter()
        .filter_map(|l| {
            l.features
                .map(|f| (f.0.iter().map(|&v| v as f32).collect(), l.claim))
        })
        .unzip();
    let blocked = vec![false; labels.len()];
    let Fitted {
        base,
        trees,
        threshold,
        units,
        positives,
    } = fit(
        rows,
        &labels,
        &blocked,
        options,
        Classes {
            negative: "not claims",
            positive: "claims",
            empty: "no labelled sentence with claim features (claims are scored in English)",
        },
        Threshold::Recall(TRAINING_RECALL),
    )?;
    let file = ModelFile {
        format: crate::support::model::claims::FORMAT.to_string(),
        version: crate::support::model::claims::VERSION,
        description: format!(
            "trees depth={} n={} rate={} leaf={}, fitted by ragcite train --claims on {units} \
             sentences ({positives} claims) (threshold {threshold} folded in)",
            options.depth, options.trees, options.learning_rate, options.min_leaf
        ),
        kind: "trees".to_string(),
        features: feature_entries(Feature::ALL.iter().map(|f| f.name())),
        intercept: None,
        base: Some(base),
        trees: Some(trees.into_iter().collect::<Vec<TreeEntry>>()),
    };
    Ok(TrainedClaims {
        file,
        units,
        positives,
        threshold,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_read_from_claim_worthy_or_kind() {
        let v = |s: &str| serde_json::from_str::<Value>(s).unwrap();
        assert_eq!(label_of(&v(r#"{"claim":true}"#), "s"), Ok(Some(true)));
        assert_eq!(label_of(&v(r#"{"worthy":false}"#), "s"), Ok(Some(false)));
        assert_eq!(label_of(&v(r#"{"worthy":null}"#), "s"), Ok(None));
        assert_eq!(label_of(&v(r#"{"kind":"mixed"}"#), "s"), Ok(Some(true)));
        assert_eq!(label_of(&v(r#"{"kind":"meta"}"#), "s"), Ok(Some(false)));
        assert_eq!(label_of(&v(r#"{"kind":"other"}"#), "s"), Ok(None));
        assert_eq!(label_of(&v(r#"{"text":"x"}"#), "s"), Ok(None));
        let error = label_of(&v(r#"{"kind":"opinion"}"#), "s").unwrap_err();
        assert!(error.contains("`s.kind` is \"opinion\""), "{error}");
        let error = label_of(&v(r#"{"claim":"yes"}"#), "s").unwrap_err();
        assert!(error.contains("`s.claim` is a string"), "{error}");
    }
}
