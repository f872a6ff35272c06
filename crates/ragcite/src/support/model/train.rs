//! `ragcite train`: fits a support model of gradient-boosted regression trees on labelled pairs,
//! as `scripts/data/fit-support.py` fits the shipped one with scikit-learn's
//! `GradientBoostingClassifier` (binary log-loss, exact greedy splits, no subsampling), in plain
//! Rust and in a fixed order, so that the same units give the same model file, byte for byte,
//! on every machine.
//!
//! Each round fits a tree of depth `depth` to the residuals `y − p` (a split's gain is the
//! reduction of their squared error; every child keeps at least `min_leaf` units; ties go to
//! the lowest feature index, then the lowest threshold), gives each leaf the Newton step
//! `learning_rate × Σ residual / Σ p(1 − p)`, and adds it to the units' scores. Thresholds lie
//! halfway between two neighbouring values of a feature, computed in `f32` as scikit-learn does,
//! since the model compares features in `f32`. Then the threshold in 0.10..0.90 with the best
//! macro-F1 on the training units (blocked units are never predicted supported; the lowest on a
//! tie) is folded into the base score, so that 0.5 is the model's threshold.

use super::features::{Feature, Features};
use super::{FORMAT, FeatureEntry, ModelFile, TreeEntry, VERSION, sigmoid};

/// How a model is fitted; the defaults are those of the shipped model.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrainOptions {
    /// Boosting rounds: one tree each (1 to 5000).
    pub trees: usize,
    /// Depth of each tree (1 to 8).
    pub depth: usize,
    /// Shrinkage of each tree's values, in (0, 1].
    pub learning_rate: f64,
    /// Fewest units a leaf may hold (at least 1).
    pub min_leaf: usize,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            trees: 100,
            depth: 2,
            learning_rate: 0.05,
            min_leaf: 20,
        }
    }
}

/// The most trees and the deepest tree [`train`] fits (a model file may hold no more trees).
pub const MAX_TREES: usize = 5_000;
pub const MAX_DEPTH: usize = 8;

impl TrainOptions {
    /// Why these options cannot fit a model, if they cannot.
    pub fn check(&self) -> Result<(), String> {
        if self.trees == 0 || self.trees > MAX_TREES {
            return Err(format!(
                "{} trees (1 to {MAX_TREES} can be fitted)",
                self.trees
            ));
        }
        if self.depth == 0 || self.depth > MAX_DEPTH {
            return Err(format!("depth {} (1 to {MAX_DEPTH})", self.depth));
        }
        if !(self.learning_rate > 0.0 && self.learning_rate <= 1.0) {
            return Err(format!(
                "learning rate {} (it lies in (0, 1])",
                self.learning_rate
            ));
        }
        if self.min_leaf == 0 {
            return Err("a leaf must hold at least 1 unit".to_string());
        }
        Ok(())
    }

    /// What was fitted, in the words of `scripts/data/fit-support.py`.
    fn describe(&self) -> String {
        format!(
            "trees depth={} n={} rate={} leaf={}",
            self.depth, self.trees, self.learning_rate, self.min_leaf
        )
    }
}

/// One labelled unit: the features of its deciding sentence and chunk.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    pub features: Features,
    /// What people said: supported or not.
    pub label: bool,
    /// Whether something other than the score keeps it from `supported` (never predicted so).
    pub blocked: bool,
}

/// A fitted model and what it was fitted on.
#[derive(Debug, Clone)]
pub struct Trained {
    /// The model file (see [`super::Model::from_file`]).
    pub file: ModelFile,
    pub units: usize,
    pub positives: usize,
    /// The threshold chosen on the training units, folded into `base`.
    pub threshold: f64,
}

impl Trained {
    /// The model file as one line of JSON and a line break.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string(&self.file).expect("a model file serialises");
        text.push('\n');
        text
    }
}

/// A tree being grown, as the model file's parallel lists, nodes in depth-first order.
#[derive(Default)]
struct Grown {
    feature: Vec<i64>,
    threshold: Vec<f64>,
    left: Vec<i64>,
    right: Vec<i64>,
    value: Vec<f64>,
    /// Units under each node, for the inner nodes' means.
    count: Vec<usize>,
}

/// The best split of a node: feature, threshold, and how many units (in the feature's order)
/// go left.
struct Split {
    feature: usize,
    threshold: f32,
    left: usize,
}

struct Fitter<'a> {
    /// Features as the model compares them: in `f32`, one row per unit.
    x: Vec<Vec<f32>>,
    /// Features per unit.
    width: usize,
    residual: Vec<f64>,
    /// `p(1 − p)` of each unit.
    hessian: Vec<f64>,
    /// Where each unit's leaf value goes.
    step: Vec<f64>,
    options: &'a TrainOptions,
}

/// Fits a model on `samples`; the error says why none can be fitted.
pub fn train(samples: &[Sample], options: &TrainOptions) -> Result<Trained, String> {
    let rows: Vec<Vec<f32>> = samples
        .iter()
        .map(|s| s.features.0.iter().map(|&v| v as f32).collect())
        .collect();
    let labels: Vec<bool> = samples.iter().map(|s| s.label).collect();
    let blocked: Vec<bool> = samples.iter().map(|s| s.blocked).collect();
    let fitted = fit(
        rows,
        &labels,
        &blocked,
        options,
        Classes {
            negative: "unsupported",
            positive: "supported",
            empty: "no labelled unit with features (a unit needs a citation and content words)",
        },
        Threshold::MacroF1,
    )?;
    let (n, positives, threshold) = (fitted.units, fitted.positives, fitted.threshold);
    let file = ModelFile {
        format: FORMAT.to_string(),
        version: VERSION,
        description: format!(
            "{}, fitted by ragcite train on {n} units ({positives} supported) \
             (threshold {threshold} folded in)",
            options.describe()
        ),
        kind: "trees".to_string(),
        features: feature_entries(Feature::ALL.iter().map(|f| f.name())),
        intercept: None,
        base: Some(fitted.base),
        trees: Some(fitted.trees),
    };
    Ok(Trained {
        file,
        units: n,
        positives,
        threshold,
    })
}

/// The model file's list of features, by name.
pub(crate) fn feature_entries<'a>(names: impl Iterator<Item = &'a str>) -> Vec<FeatureEntry> {
    names
        .map(|name| FeatureEntry {
            name: name.to_string(),
            transform: None,
            mean: None,
            scale: None,
            weight: None,
        })
        .collect()
}

/// What the two classes are called in errors.
pub(crate) struct Classes {
    pub(crate) negative: &'static str,
    pub(crate) positive: &'static str,
    /// The error when there is no unit at all.
    pub(crate) empty: &'static str,
}

/// How the threshold folded into the base is chosen on the training units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Threshold {
    /// The best macro-F1 (the lowest on a tie).
    MacroF1,
    /// The highest that still predicts at least this share of the positive units positive:
    /// a precise gate that misses few.
    Recall(f64),
}

/// Trees fitted on rows of features, the threshold folded into `base`.
pub(crate) struct Fitted {
    pub(crate) base: f64,
    pub(crate) trees: Vec<TreeEntry>,
    pub(crate) threshold: f64,
    pub(crate) units: usize,
    pub(crate) positives: usize,
}

/// Fits gradient-boosted trees on `rows` (one row of features per unit, all as long) against
/// `labels`; a `blocked` unit is never predicted positive when the threshold is chosen.
pub(crate) fn fit(
    rows: Vec<Vec<f32>>,
    labels: &[bool],
    blocked: &[bool],
    options: &TrainOptions,
    classes: Classes,
    choose: Threshold,
) -> Result<Fitted, String> {
    options.check()?;
    let n = rows.len();
    let positives = labels.iter().filter(|&&l| l).count();
    if n == 0 {
        return Err(classes.empty.to_string());
    }
    if positives == 0 || positives == n {
        return Err(format!(
            "all {n} labelled units are {}: a model needs both classes",
            if positives == 0 {
                classes.negative
            } else {
                classes.positive
            }
        ));
    }
    let width = rows[0].len();
    let y: Vec<f64> = labels.iter().map(|&l| f64::from(u8::from(l))).collect();
    let rate = positives as f64 / n as f64;
    let init = libm::log(rate / (1.0 - rate));
    let mut raw = vec![init; n];
    let x = rows;
    // Each feature's units in ascending order of value (ties by index), sorted once.
    let order: Vec<Vec<u32>> = (0..width)
        .map(|f| {
            let mut units: Vec<u32> = (0..n as u32).collect();
            units.sort_by(|&a, &b| {
                x[a as usize][f]
                    .total_cmp(&x[b as usize][f])
                    .then(a.cmp(&b))
            });
            units
        })
        .collect();
    let mut fitter = Fitter {
        x,
        width,
        residual: vec![0.0; n],
        hessian: vec![0.0; n],
        step: vec![0.0; n],
        options,
    };
    let mut trees = Vec::with_capacity(options.trees);
    for _ in 0..options.trees {
        for k in 0..n {
            let p = sigmoid(raw[k]);
            fitter.residual[k] = y[k] - p;
            fitter.hessian[k] = p * (1.0 - p);
        }
        let mut grown = Grown::default();
        fitter.grow(&mut grown, order.clone(), 0);
        for (z, step) in raw.iter_mut().zip(&fitter.step) {
            *z += step;
        }
        trees.push(grown.finish());
    }
    let scores: Vec<f64> = raw.iter().map(|&z| sigmoid(z)).collect();
    let threshold = match choose {
        Threshold::MacroF1 => best_threshold(&scores, labels, blocked),
        Threshold::Recall(share) => recall_threshold(&scores, labels, blocked, share),
    };
    let base = init + -libm::log(threshold / (1.0 - threshold));
    Ok(Fitted {
        base,
        trees,
        threshold,
        units: n,
        positives,
    })
}

impl Fitter<'_> {
    /// Grows the node holding the units of `order` (each feature's units, in its order) at
    /// `depth`, and its children; gives its index in `grown`.
    fn grow(&mut self, grown: &mut Grown, order: Vec<Vec<u32>>, depth: usize) -> usize {
        let node = grown.feature.len();
        let units = &order[0];
        grown.feature.push(-1);
        grown.threshold.push(-2.0);
        grown.left.push(-1);
        grown.right.push(-1);
        grown.count.push(units.len());
        grown.value.push(0.0);
        let split = if depth < self.options.depth {
            self.best_split(&order)
        } else {
            None
        };
        let Some(split) = split else {
            let (mut numerator, mut denominator) = (0.0, 0.0);
            for &k in units {
                numerator += self.residual[k as usize];
                denominator += self.hessian[k as usize];
            }
            let value = if denominator.abs() < 1e-150 {
                0.0
            } else {
                self.options.learning_rate * numerator / denominator
            };
            for &k in units {
                self.step[k as usize] = value;
            }
            grown.value[node] = value;
            return node;
        };
        let goes_left = |k: u32| self.x[k as usize][split.feature] <= split.threshold;
        let (mut lefts, mut rights) = (
            Vec::with_capacity(self.width),
            Vec::with_capacity(self.width),
        );
        for units in order {
            let (l, r): (Vec<u32>, Vec<u32>) = units.into_iter().partition(|&k| goes_left(k));
            debug_assert_eq!(l.len(), split.left);
            lefts.push(l);
            rights.push(r);
        }
        let left = self.grow(grown, lefts, depth + 1);
        let right = self.grow(grown, rights, depth + 1);
        grown.feature[node] = split.feature as i64;
        grown.threshold[node] = f64::from(split.threshold);
        grown.left[node] = left as i64;
        grown.right[node] = right as i64;
        node
    }

    /// The split with the largest reduction of the residuals' squared error, if any reduces
    /// it: the lowest feature, then the lowest threshold, on a tie.
    fn best_split(&self, order: &[Vec<u32>]) -> Option<Split> {
        let n = order[0].len();
        let min_leaf = self.options.min_leaf;
        if n < 2 * min_leaf {
            return None;
        }
        let total: f64 = order[0].iter().map(|&k| self.residual[k as usize]).sum();
        // Squared error = Σr² − (Σr)²/n, so the reduction is the gain in (Σr)²/n.
        let parent = total * total / n as f64;
        let mut best: Option<(f64, Split)> = None;
        for (f, units) in order.iter().enumerate() {
            let mut sum = 0.0;
            for i in 1..n {
                sum += self.residual[units[i - 1] as usize];
                let (a, b) = (
                    self.x[units[i - 1] as usize][f],
                    self.x[units[i] as usize][f],
                );
                if i < min_leaf || n - i < min_leaf || a >= b {
                    continue;
                }
                let rest = total - sum;
                let gain = sum * sum / i as f64 + rest * rest / (n - i) as f64 - parent;
                if gain > 1e-12 && best.as_ref().is_none_or(|(g, _)| gain > *g) {
                    best = Some((
                        gain,
                        Split {
                            feature: f,
                            threshold: midpoint(a, b),
                            left: i,
                        },
                    ));
                }
            }
        }
        best.map(|(_, split)| split)
    }
}

/// Halfway between two neighbouring values, in `f32` as scikit-learn computes it: never `b`,
/// so that `a` goes left and `b` right.
fn midpoint(a: f32, b: f32) -> f32 {
    let mid = a / 2.0 + b / 2.0;
    if mid == b || mid.is_infinite() {
        a
    } else {
        mid
    }
}

impl Grown {
    /// The tree's lists, each inner node valued at the mean of the leaves below it, weighted
    /// by their units (so that a path's changes add up to its leaf's value).
    fn finish(mut self) -> TreeEntry {
        for node in (0..self.feature.len()).rev() {
            if self.feature[node] >= 0 {
                let (l, r) = (self.left[node] as usize, self.right[node] as usize);
                let (wl, wr) = (self.count[l] as f64, self.count[r] as f64);
                self.value[node] = (self.value[l] * wl + self.value[r] * wr) / (wl + wr);
            }
        }
        TreeEntry {
            feature: self.feature,
            threshold: self.threshold,
            left: self.left,
            right: self.right,
            value: self.value,
        }
    }
}

/// Macro-F1 of predictions against labels: the mean of the F1 of each class.
fn macro_f1(predicted: impl Iterator<Item = bool>, labels: &[bool]) -> f64 {
    let (mut tp, mut fp, mut fn_, mut tn) = (0usize, 0usize, 0usize, 0usize);
    for (p, &label) in predicted.zip(labels) {
        match (p, label) {
            (true, true) => tp += 1,
            (true, false) => fp += 1,
            (false, true) => fn_ += 1,
            (false, false) => tn += 1,
        }
    }
    let f1 = |tp: usize, fp: usize, fn_: usize| {
        if tp == 0 {
            0.0
        } else {
            (2 * tp) as f64 / (2 * tp + fp + fn_) as f64
        }
    };
    (f1(tp, fp, fn_) + f1(tn, fn_, fp)) / 2.0
}

/// The threshold in 0.10..=0.90 (steps of 0.01) with the highest macro-F1, a unit predicted
/// positive when its score reaches it and it is not blocked; the lowest on a tie.
fn best_threshold(scores: &[f64], labels: &[bool], blocked: &[bool]) -> f64 {
    let mut best = (0.5, -1.0);
    for hundredths in 10..=90u32 {
        let t = f64::from(hundredths) / 100.0;
        let predicted = scores
            .iter()
            .zip(blocked)
            .map(|(&score, &blocked)| score >= t && !blocked);
        let m = macro_f1(predicted, labels);
        if m > best.1 + 1e-12 {
            best = (t, m);
        }
    }
    best.0
}

/// The highest threshold in 0.10..=0.90 (steps of 0.01) at which at least `share` of the
/// positive units (not blocked) are predicted positive; 0.10 when none is.
fn recall_threshold(scores: &[f64], labels: &[bool], blocked: &[bool], share: f64) -> f64 {
    let positives = labels.iter().filter(|&&l| l).count().max(1) as f64;
    (10..=90u32)
        .rev()
        .map(|h| f64::from(h) / 100.0)
        .find(|&t| {
            let found = scores
                .iter()
                .zip(labels.iter().zip(blocked))
                .filter(|&(&score, (&label, &blocked))| label && !blocked && score >= t)
                .count();
            found as f64 >= share * positives - 1e-9
        })
        .unwrap_or(0.1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::support::model::Model;
    use crate::support::model::features::COUNT;

    fn sample(values: &[(usize, f64)], label: bool) -> Sample {
        let mut features = Features([0.0; COUNT]);
        for &(f, v) in values {
            features.0[f] = v;
        }
        Sample {
            features,
            label,
            blocked: false,
        }
    }

    /// 60 units: supported exactly when `recall` (feature 0) is above 0.5; `chunk_words`
    /// (feature 16) is noise.
    fn separable() -> Vec<Sample> {
        (0..60)
            .map(|k| {
                let recall = f64::from(k) / 59.0;
                let noise = f64::from((k * 37) % 11);
                sample(&[(0, recall), (16, noise)], recall > 0.5)
            })
            .collect()
    }

    fn learned(trained: &Trained) -> crate::support::model::Learned {
        match Model::from_json(&trained.to_json()).expect("the model reads") {
            Model::Learned(learned) => learned,
            Model::Formula => panic!("a learned model"),
        }
    }

    #[test]
    fn a_separable_set_is_learned() {
        let samples = separable();
        let trained = train(&samples, &TrainOptions::default()).unwrap();
        let model = learned(&trained);
        for s in &samples {
            let score = model.score(&s.features);
            assert_eq!(score >= 0.5, s.label, "recall {}: {score}", s.features.0[0]);
        }
        let trees = trained.file.trees.as_ref().unwrap();
        assert_eq!(trees.len(), 100);
        // The first split is on recall, between the classes.
        assert_eq!(trees[0].feature[0], 0);
        assert!(trees[0].threshold[0] > 0.49 && trees[0].threshold[0] < 0.52);
        assert_eq!((trained.units, trained.positives), (60, 30));
    }

    #[test]
    fn the_same_units_give_the_same_file() {
        let samples = separable();
        let options = TrainOptions {
            trees: 30,
            depth: 3,
            learning_rate: 0.1,
            min_leaf: 5,
        };
        let a = train(&samples, &options).unwrap().to_json();
        let b = train(&samples, &options).unwrap().to_json();
        assert_eq!(a, b);
        assert!(a.ends_with("}\n") && a.lines().count() == 1);
    }

    #[test]
    fn the_threshold_is_folded_into_the_base() {
        // Overlapping classes: recall 0.4..0.6 is mixed, so a threshold is chosen.
        let samples: Vec<Sample> = (0..80)
            .map(|k| {
                let recall = f64::from(k % 40) / 39.0;
                sample(&[(0, recall)], recall > 0.7 || (k >= 40 && recall > 0.3))
            })
            .collect();
        let options = TrainOptions {
            trees: 20,
            ..TrainOptions::default()
        };
        let trained = train(&samples, &options).unwrap();
        let t = trained.threshold;
        assert!((0.1..=0.9).contains(&t));
        let model = learned(&trained);
        let base = trained.file.base.unwrap();
        let rate = samples.iter().filter(|s| s.label).count() as f64 / 80.0;
        let init = libm::log(rate / (1.0 - rate));
        assert_eq!(base, init - libm::log(t / (1.0 - t)));
        let trees = trained.file.trees.as_ref().unwrap();
        for s in &samples {
            // The raw score without the folded threshold, as the trainer saw it.
            let raw = trees
                .iter()
                .fold(init, |z, tree| z + walk(tree, &s.features));
            let shifted = model.score(&s.features);
            assert_eq!(
                sigmoid(raw) >= t,
                shifted >= 0.5 - 1e-12,
                "{raw} against {t}"
            );
            let z = trees
                .iter()
                .fold(base, |z, tree| z + walk(tree, &s.features));
            assert_eq!(shifted, sigmoid(z));
        }
        assert!(trained.file.description.contains(&format!("threshold {t}")));
    }

    /// A tree's leaf for `features`, walked from its lists.
    fn walk(tree: &TreeEntry, features: &Features) -> f64 {
        let mut node = 0;
        while tree.feature[node] >= 0 {
            let x = features.0[tree.feature[node] as usize];
            node = if f64::from(x as f32) <= tree.threshold[node] {
                tree.left[node] as usize
            } else {
                tree.right[node] as usize
            };
        }
        tree.value[node]
    }

    #[test]
    fn no_leaf_holds_fewer_than_min_leaf_units() {
        let samples = separable();
        let options = TrainOptions {
            trees: 10,
            depth: 4,
            learning_rate: 0.3,
            min_leaf: 13,
        };
        let trained = train(&samples, &options).unwrap();
        for tree in trained.file.trees.as_ref().unwrap() {
            let mut counts = vec![0usize; tree.feature.len()];
            for s in &samples {
                let mut node = 0;
                while tree.feature[node] >= 0 {
                    let x = s.features.0[tree.feature[node] as usize];
                    node = if f64::from(x as f32) <= tree.threshold[node] {
                        tree.left[node] as usize
                    } else {
                        tree.right[node] as usize
                    };
                }
                counts[node] += 1;
            }
            for (node, &count) in counts.iter().enumerate() {
                if tree.feature[node] < 0 {
                    assert!(count >= 13, "leaf {node} holds {count}");
                }
            }
            // 60 units, 13 a leaf: at most 4 leaves.
            assert!(tree.feature.iter().filter(|&&f| f < 0).count() <= 4);
        }
    }

    #[test]
    fn constant_features_give_one_leaf() {
        let samples: Vec<Sample> = (0..50)
            .map(|k| sample(&[(3, 0.25), (9, 2.0)], k % 3 == 0))
            .collect();
        let trained = train(&samples, &TrainOptions::default()).unwrap();
        for tree in trained.file.trees.as_ref().unwrap() {
            assert_eq!(tree.feature, vec![-1]);
            assert_eq!(tree.left, vec![-1]);
        }
        learned(&trained);
    }

    #[test]
    fn the_midpoint_lies_between_in_f32() {
        let (a, b) = (0.1f32, f32::from_bits(0.1f32.to_bits() + 1));
        let mid = midpoint(a, b);
        assert!(a <= mid && mid < b);
        assert_eq!(midpoint(1.0, 3.0), 2.0);
    }

    #[test]
    fn what_cannot_be_fitted_is_an_error() {
        let one_class: Vec<Sample> = (0..30)
            .map(|k| sample(&[(0, f64::from(k))], true))
            .collect();
        let options = TrainOptions::default();
        assert!(
            train(&one_class, &options)
                .unwrap_err()
                .contains("both classes")
        );
        assert!(
            train(&[], &options)
                .unwrap_err()
                .contains("no labelled unit")
        );
        for bad in [
            TrainOptions {
                trees: 0,
                ..options
            },
            TrainOptions {
                trees: 5001,
                ..options
            },
            TrainOptions {
                depth: 0,
                ..options
            },
            TrainOptions {
                depth: 9,
                ..options
            },
            TrainOptions {
                learning_rate: 0.0,
                ..options
            },
            TrainOptions {
                learning_rate: 1.5,
                ..options
            },
            TrainOptions {
                learning_rate: f64::NAN,
                ..options
            },
            TrainOptions {
                min_leaf: 0,
                ..options
            },
        ] {
            assert!(train(&separable(), &bad).is_err(), "{bad:?}");
        }
    }
}
