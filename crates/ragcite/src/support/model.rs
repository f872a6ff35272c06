//! The support model: how well a chunk backs a sentence, from the pair's [`Features`]. Its code
//! is grouped here: the features of a pair ([`features`]), the models that score them (this
//! file) and the fitting of a team's own ([`train`]). The
//! shipped model (`model/model.json`, fitted by `scripts/data/fit-support.py`) is compiled in; a team's own
//! (`ragcite train`) is read from a file; `formula` is the hand-weighted score of
//! [`super::score`], kept for comparison.
//!
//! Every model is fitted so that 0.5 is its threshold (the threshold chosen on the training
//! data is folded into its intercept), so that `--threshold` keeps its default and meaning.
//!
//! A model is logistic regression or a sum of regression trees, evaluated in a fixed order in
//! `f64` with a portable `exp`, so that the same features give the same score to the last bit on
//! every machine. Each score can say which features pushed it up or down the most.

/// `how_support_is_scored!` (defined with the features, `report/features.rs`) as a constant.
pub const HOW_SUPPORT_IS_SCORED: &str = crate::how_support_is_scored!();

use std::sync::{Arc, LazyLock};

use serde::{Deserialize, Serialize};

pub use crate::report::features::Factor;

pub mod claims;
pub mod features;
pub mod train;

use self::features::{COUNT, Feature, Features};

/// The model file's `format`.
pub const FORMAT: &str = "ragcite-support-model";
/// The version of the model file this build reads.
pub const VERSION: u32 = 1;

/// The shipped model's file, as the tests read it.
#[cfg(test)]
static SHIPPED_JSON: &str = include_str!("model/model.json");

// The shipped models (`model/model.json`, `model/claims.json`) as static data, written by the
// build script: `SUPPORT_MODEL` and `CLAIM_MODEL`.
include!(concat!(env!("OUT_DIR"), "/models.rs"));

static SHIPPED: LazyLock<Arc<Model>> = LazyLock::new(|| {
    Arc::new(
        Model::from_file(SUPPORT_MODEL.file()).expect("the shipped model is valid (a test checks)"),
    )
});

/// A model file as static data, which the build script writes for the shipped models: read
/// without parsing its numbers from text, through the same checks as a file
/// ([`Model::from_file`]).
pub(crate) struct StaticModel {
    format: &'static str,
    version: u32,
    description: &'static str,
    kind: &'static str,
    intercept: Option<f64>,
    base: Option<f64>,
    features: &'static [StaticFeature],
    trees: Option<&'static [StaticTree]>,
}

/// A [`FeatureEntry`] as static data.
struct StaticFeature {
    name: &'static str,
    transform: Option<&'static str>,
    mean: Option<f64>,
    scale: Option<f64>,
    weight: Option<f64>,
}

/// A [`TreeEntry`] as static data.
struct StaticTree {
    feature: &'static [i64],
    threshold: &'static [f64],
    left: &'static [i64],
    right: &'static [i64],
    value: &'static [f64],
}

/// Asserts that the build script's copy `copy` holds the model file `text`: every field the
/// same, every number the same to the last bit or two. serde_json reads a number to the nearest
/// `f64` only when some crate of the build asks for it (`float_roundtrip`: the JSON-schema
/// validator of the workspace's tests does, the binary's crates do not), and the build script
/// reads the file as the binary does: the two readings may differ in the last bit.
#[cfg(test)]
pub(crate) fn assert_transcribes(copy: &StaticModel, text: &str) {
    let near = |a: f64, b: f64| (a - b).abs() <= 4.0 * f64::EPSILON * a.abs().max(b.abs());
    let near_all =
        |a: &[f64], b: &[f64]| a.len() == b.len() && a.iter().zip(b).all(|(&x, &y)| near(x, y));
    let near_some = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) => near(a, b),
        (a, b) => a == b,
    };
    let (a, b): (ModelFile, ModelFile) = (copy.file(), serde_json::from_str(text).unwrap());
    assert_eq!(
        (&a.format, a.version, &a.description, &a.kind),
        (&b.format, b.version, &b.description, &b.kind)
    );
    assert!(near_some(a.intercept, b.intercept) && near_some(a.base, b.base));
    assert_eq!(a.features.len(), b.features.len());
    for (x, y) in a.features.iter().zip(&b.features) {
        assert_eq!((&x.name, &x.transform), (&y.name, &y.transform));
        assert!(near_some(x.mean, y.mean) && near_some(x.scale, y.scale));
        assert!(near_some(x.weight, y.weight));
    }
    let (ta, tb) = (a.trees.unwrap_or_default(), b.trees.unwrap_or_default());
    assert_eq!(ta.len(), tb.len());
    assert!(!ta.is_empty());
    for (x, y) in ta.iter().zip(&tb) {
        assert_eq!(
            (&x.feature, &x.left, &x.right),
            (&y.feature, &y.left, &y.right)
        );
        assert!(near_all(&x.threshold, &y.threshold) && near_all(&x.value, &y.value));
    }
}

impl StaticModel {
    /// The model file it was written from.
    pub(crate) fn file(&self) -> ModelFile {
        ModelFile {
            format: self.format.to_string(),
            version: self.version,
            description: self.description.to_string(),
            kind: self.kind.to_string(),
            features: self
                .features
                .iter()
                .map(|f| FeatureEntry {
                    name: f.name.to_string(),
                    transform: f.transform.map(str::to_string),
                    mean: f.mean,
                    scale: f.scale,
                    weight: f.weight,
                })
                .collect(),
            intercept: self.intercept,
            base: self.base,
            trees: self.trees.map(|trees| {
                trees
                    .iter()
                    .map(|t| TreeEntry {
                        feature: t.feature.to_vec(),
                        threshold: t.threshold.to_vec(),
                        left: t.left.to_vec(),
                        right: t.right.to_vec(),
                        value: t.value.to_vec(),
                    })
                    .collect()
            }),
        }
    }
}

/// How support is scored.
#[derive(Debug, Clone, PartialEq)]
pub enum Model {
    /// The hand-weighted formula of [`super::score`].
    Formula,
    Learned(Learned),
}

/// A fitted model.
#[derive(Debug, Clone, PartialEq)]
pub struct Learned {
    /// What it is and how it was fitted.
    pub description: String,
    kind: Kind,
}

#[derive(Debug, Clone, PartialEq)]
enum Kind {
    Logistic {
        intercept: f64,
        terms: Vec<Term>,
    },
    Trees {
        base: f64,
        trees: Vec<Tree>,
        /// The same trees in a flat form when none is deeper than two: scored and bounded
        /// without a branch per node.
        shallow: Option<Vec<Shallow>>,
    },
}

/// A tree of depth at most two as three splits (the root, then its left and right child) and
/// four leaves. A leaf child is a split that sends every value left, to two equal leaves.
#[derive(Debug, Clone, PartialEq)]
struct Shallow {
    features: [usize; 3],
    below: [f32; 3],
    leaves: [f64; 4],
}

/// Whether `x` goes right of a split at `below`: when it is not at most `below` (a NaN
/// too, as [`Tree::walk`] sends it).
#[allow(clippy::neg_cmp_op_on_partial_ord)]
fn right(x: f32, below: f32) -> bool {
    !(x <= below)
}

impl Shallow {
    fn new(tree: &Tree) -> Option<Shallow> {
        // A node as a split: (feature, below, left value or node, right value or node).
        let split = |k: usize| -> (usize, f32, usize, usize) {
            let node = &tree.nodes[k];
            match node.feature {
                Some(f) => (f, node.below, node.left, node.right),
                None => (0, f32::INFINITY, k, k),
            }
        };
        let leaf = |k: usize| {
            let node = &tree.nodes[k];
            node.feature.is_none().then_some(node.value)
        };
        let (f0, b0, left, right) = split(0);
        let (f1, b1, ll, lr) = split(left);
        let (f2, b2, rl, rr) = split(right);
        Some(Shallow {
            features: [f0, f1, f2],
            below: [b0, b1, b2],
            leaves: [leaf(ll)?, leaf(lr)?, leaf(rl)?, leaf(rr)?],
        })
    }

    fn walk(&self, x: &Inputs) -> f64 {
        let [f0, f1, f2] = self.features;
        let [b0, b1, b2] = self.below;
        let k = if x[f0] <= b0 {
            usize::from(right(x[f1], b1))
        } else {
            2 + usize::from(right(x[f2], b2))
        };
        self.leaves[k]
    }

    /// As [`Tree::highest`].
    fn highest(&self, low: &Inputs, high: &Inputs) -> f64 {
        let go = |k: usize| {
            let (f, b) = (self.features[k], self.below[k]);
            (low[f] <= b, right(high[f], b))
        };
        let ((l0, r0), (l1, r1), (l2, r2)) = (go(0), go(1), go(2));
        let mut best = f64::NEG_INFINITY;
        for (reached, value) in [l0 && l1, l0 && r1, r0 && l2, r0 && r2]
            .into_iter()
            .zip(self.leaves)
        {
            if reached {
                best = best.max(value);
            }
        }
        best
    }
}

/// One input of a logistic model: `weight × (transform(x) − mean) / scale`.
#[derive(Debug, Clone, PartialEq)]
struct Term {
    feature: usize,
    log1p: bool,
    mean: f64,
    scale: f64,
    weight: f64,
}

/// A regression tree; node 0 is the root, and a node's children come after it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Tree {
    nodes: Vec<Node>,
}

#[derive(Debug, Clone, PartialEq)]
struct Node {
    /// The feature split on (a [`Feature::index`]), or `None` at a leaf.
    feature: Option<usize>,
    /// Values at most this go left. Compared in `f32`, as the trees were fitted.
    threshold: f64,
    /// The largest `f32` not above `threshold`: an `f32` feature goes left when it is at most
    /// this, exactly when it is at most `threshold`.
    below: f32,
    left: usize,
    right: usize,
    /// The leaf's value; at an inner node, the mean of its leaves, for explanations.
    value: f64,
}

/// The model file, as written by `scripts/data/fit-support.py` and `ragcite train`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelFile {
    pub format: String,
    pub version: u32,
    #[serde(default)]
    pub description: String,
    pub kind: String,
    pub features: Vec<FeatureEntry>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intercept: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trees: Option<Vec<TreeEntry>>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FeatureEntry {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transform: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mean: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight: Option<f64>,
}

/// A tree as parallel lists, one entry per node; `feature` −1 (and children −1) at a leaf.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TreeEntry {
    pub feature: Vec<i64>,
    pub threshold: Vec<f64>,
    pub left: Vec<i64>,
    pub right: Vec<i64>,
    pub value: Vec<f64>,
}

/// Most trees and nodes per tree a model file may have: far above any useful model, low
/// enough that a hostile file cannot make every check slow.
const MAX_TREES: usize = 5_000;
const MAX_NODES: usize = 1 << 12;

/// The logistic function, with a portable `exp`.
pub fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + libm::exp(-z))
}

impl Model {
    /// The model compiled into ragcite.
    pub fn shipped() -> Arc<Model> {
        Arc::clone(&SHIPPED)
    }

    /// The hand-weighted formula.
    pub fn formula() -> Arc<Model> {
        static FORMULA: LazyLock<Arc<Model>> = LazyLock::new(|| Arc::new(Model::Formula));
        Arc::clone(&FORMULA)
    }

    /// Reads a model file; the error says what is wrong with it.
    pub fn from_json(text: &str) -> Result<Model, String> {
        let file: ModelFile = serde_json::from_str(text).map_err(|e| e.to_string())?;
        Model::from_file(file)
    }

    pub fn from_file(file: ModelFile) -> Result<Model, String> {
        check_header(&file, FORMAT, VERSION, ("support", "model"))?;
        let index_of = |name: &str| Feature::named(name).map(Feature::index);
        let features = feature_indices(&file, index_of)?;
        let kind = match file.kind.as_str() {
            "logistic" => {
                let intercept = finite("`intercept`", file.intercept.ok_or("no `intercept`")?)?;
                let terms = file
                    .features
                    .iter()
                    .zip(&features)
                    .map(|(entry, &feature)| {
                        let field = |v: Option<f64>, what: &str| {
                            finite(
                                &format!("`{what}` of {:?}", entry.name),
                                v.ok_or_else(|| format!("no `{what}` for {:?}", entry.name))?,
                            )
                        };
                        let log1p = match entry.transform.as_deref() {
                            None | Some("identity") => false,
                            Some("log1p") => true,
                            Some(other) => return Err(format!("unknown transform {other:?}")),
                        };
                        let scale = field(entry.scale, "scale")?;
                        if scale <= 0.0 {
                            return Err(format!("`scale` of {:?} is not positive", entry.name));
                        }
                        Ok(Term {
                            feature,
                            log1p,
                            mean: field(entry.mean, "mean")?,
                            scale,
                            weight: field(entry.weight, "weight")?,
                        })
                    })
                    .collect::<Result<_, String>>()?;
                Kind::Logistic { intercept, terms }
            }
            "trees" => {
                let (base, trees) = read_trees(&file, index_of)?;
                let shallow = trees.iter().map(Shallow::new).collect();
                Kind::Trees {
                    base,
                    trees,
                    shallow,
                }
            }
            other => return Err(format!("unknown model kind {other:?} (logistic or trees)")),
        };
        Ok(Model::Learned(Learned {
            description: file.description,
            kind,
        }))
    }

    /// What the model is, in a few words.
    pub fn describe(&self) -> String {
        match self {
            Model::Formula => "the hand-weighted formula".to_string(),
            Model::Learned(learned) => learned.description.clone(),
        }
    }
}

/// The largest `f32` not above `x` (finite).
fn f32_at_most(x: f64) -> f32 {
    let near = x as f32;
    if f64::from(near) > x {
        near.next_down()
    } else {
        near
    }
}

/// Features as the trees compare them: in `f32`, as scikit-learn fits them.
type Inputs = [f32; COUNT];

fn inputs(features: &Features) -> Inputs {
    features.0.map(|x| x as f32)
}

/// The trees of a model file of kind `trees`, each feature named in its list mapped to an index
/// by `index_of`: the base score and the trees. Shared by the support and claim models.
pub(crate) fn read_trees(
    file: &ModelFile,
    index_of: impl Fn(&str) -> Option<usize>,
) -> Result<(f64, Vec<Tree>), String> {
    let features = feature_indices(file, index_of)?;
    if file.kind != "trees" {
        return Err(format!("unknown model kind {:?} (trees)", file.kind));
    }
    let base = finite("`base`", file.base.ok_or("no `base`")?)?;
    let entries = file.trees.as_ref().ok_or("no `trees`")?;
    if entries.is_empty() || entries.len() > MAX_TREES {
        return Err(format!(
            "{} trees (a model has 1 to {MAX_TREES})",
            entries.len()
        ));
    }
    let trees = entries
        .iter()
        .enumerate()
        .map(|(t, entry)| read_tree(entry, &features).map_err(|e| format!("tree {t}: {e}")))
        .collect::<Result<_, String>>()?;
    Ok((base, trees))
}

/// Whether a model file is of `format` and `version`; `what` names it in the error (`support`
/// and `model`: `not a ragcite support model`, `model version 2`).
pub(crate) fn check_header(
    file: &ModelFile,
    format: &str,
    version: u32,
    (kind, model): (&str, &str),
) -> Result<(), String> {
    if file.format != format {
        return Err(format!(
            "`format` is {:?}, not {format:?}: not a ragcite {kind} model",
            file.format
        ));
    }
    if file.version != version {
        return Err(format!(
            "{model} version {} (this ragcite reads version {version})",
            file.version
        ));
    }
    Ok(())
}

/// The index of each feature a model file lists, by `index_of`; none twice.
fn feature_indices(
    file: &ModelFile,
    index_of: impl Fn(&str) -> Option<usize>,
) -> Result<Vec<usize>, String> {
    let mut features = Vec::with_capacity(file.features.len());
    for entry in &file.features {
        let k = index_of(&entry.name).ok_or_else(|| format!("unknown feature {:?}", entry.name))?;
        if features.contains(&k) {
            return Err(format!("feature {:?} is listed twice", entry.name));
        }
        features.push(k);
    }
    Ok(features)
}

fn finite(what: &str, x: f64) -> Result<f64, String> {
    if x.is_finite() {
        Ok(x)
    } else {
        Err(format!("{what} is not a finite number"))
    }
}

fn read_tree(entry: &TreeEntry, features: &[usize]) -> Result<Tree, String> {
    let n = entry.feature.len();
    if n == 0 || n > MAX_NODES {
        return Err(format!("{n} nodes (a tree has 1 to {MAX_NODES})"));
    }
    if [
        entry.threshold.len(),
        entry.left.len(),
        entry.right.len(),
        entry.value.len(),
    ]
    .iter()
    .any(|&len| len != n)
    {
        return Err("its lists are not all as long as `feature`".to_string());
    }
    let mut nodes = Vec::with_capacity(n);
    for k in 0..n {
        let value = entry.value[k];
        if !value.is_finite() {
            return Err(format!("node {k}: `value` is not a finite number"));
        }
        let node = if entry.feature[k] < 0 {
            Node {
                feature: None,
                threshold: 0.0,
                below: 0.0,
                left: 0,
                right: 0,
                value,
            }
        } else {
            let f = usize::try_from(entry.feature[k]).unwrap_or(usize::MAX);
            let feature = *features
                .get(f)
                .ok_or_else(|| format!("node {k}: feature {f} is not listed"))?;
            // Children after their parent: every walk ends.
            let child = |c: i64| {
                usize::try_from(c)
                    .ok()
                    .filter(|&c| c > k && c < n)
                    .ok_or_else(|| format!("node {k}: child {c} is not a later node"))
            };
            let threshold = entry.threshold[k];
            if !threshold.is_finite() {
                return Err(format!("node {k}: `threshold` is not a finite number"));
            }
            Node {
                feature: Some(feature),
                threshold,
                below: f32_at_most(threshold),
                left: child(entry.left[k])?,
                right: child(entry.right[k])?,
                value,
            }
        };
        nodes.push(node);
    }
    Ok(Tree { nodes })
}

impl Term {
    fn input(&self, x: f64) -> f64 {
        let x = if self.log1p { libm::log1p(x) } else { x };
        (x - self.mean) / self.scale
    }
}

impl Tree {
    fn goes_left(node: &Node, x: f32) -> bool {
        x <= node.below
    }

    /// The leaf `features` reach, with each step's change of value noted in `factors` (one
    /// entry per feature).
    pub(crate) fn walk(&self, features: &[f32], mut factors: Option<&mut [f64]>) -> f64 {
        let mut node = &self.nodes[0];
        while let Some(f) = node.feature {
            let next = if Tree::goes_left(node, features[f]) {
                &self.nodes[node.left]
            } else {
                &self.nodes[node.right]
            };
            if let Some(factors) = factors.as_deref_mut() {
                factors[f] += next.value - node.value;
            }
            node = next;
        }
        node.value
    }

    /// The highest leaf that features within `low..=high` can reach.
    fn highest(&self, node: usize, low: &Inputs, high: &Inputs) -> f64 {
        let n = &self.nodes[node];
        match n.feature {
            None => n.value,
            Some(f) => {
                let left = Tree::goes_left(n, low[f]);
                let right = !Tree::goes_left(n, high[f]);
                match (left, right) {
                    (true, true) => self
                        .highest(n.left, low, high)
                        .max(self.highest(n.right, low, high)),
                    (true, false) => self.highest(n.left, low, high),
                    _ => self.highest(n.right, low, high),
                }
            }
        }
    }
}

impl Learned {
    /// The score, in log-odds.
    fn margin(&self, features: &Features) -> f64 {
        match &self.kind {
            Kind::Logistic { intercept, terms } => terms.iter().fold(*intercept, |z, t| {
                z + t.weight * t.input(features.0[t.feature])
            }),
            Kind::Trees {
                base,
                trees,
                shallow,
                ..
            } => {
                let x = inputs(features);
                match shallow {
                    Some(shallow) => shallow.iter().fold(*base, |z, tree| z + tree.walk(&x)),
                    None => trees.iter().fold(*base, |z, tree| z + tree.walk(&x, None)),
                }
            }
        }
    }

    /// The score of a pair, in 0..1.
    pub fn score(&self, features: &Features) -> f64 {
        sigmoid(self.margin(features))
    }

    /// The highest score of a pair whose features lie within `low..=high`.
    pub fn highest(&self, low: &Features, high: &Features) -> f64 {
        let z = match &self.kind {
            Kind::Logistic { intercept, terms } => terms.iter().fold(*intercept, |z, t| {
                let (a, b) = (
                    t.weight * t.input(low.0[t.feature]),
                    t.weight * t.input(high.0[t.feature]),
                );
                z + a.max(b)
            }),
            Kind::Trees {
                base,
                trees,
                shallow,
                ..
            } => {
                let (low, high) = (inputs(low), inputs(high));
                match shallow {
                    Some(shallow) => shallow
                        .iter()
                        .fold(*base, |z, tree| z + tree.highest(&low, &high)),
                    None => trees
                        .iter()
                        .fold(*base, |z, tree| z + tree.highest(0, &low, &high)),
                }
            }
        };
        sigmoid(z)
    }

    /// The features that pushed the score of `features` up or down the most, strongest first
    /// (at most `most`): a logistic model's terms measured from the average pair, a tree
    /// model's changes along each tree's path.
    pub fn factors(&self, features: &Features, most: usize) -> Vec<Factor> {
        self.factors_among(features, most, |_| true)
    }

    /// [`Learned::factors`] among the features `relevant` keeps.
    pub fn factors_among(
        &self,
        features: &Features,
        most: usize,
        relevant: impl Fn(Feature) -> bool,
    ) -> Vec<Factor> {
        let mut effects = [0.0f64; COUNT];
        match &self.kind {
            Kind::Logistic { terms, .. } => {
                for t in terms {
                    effects[t.feature] += t.weight * t.input(features.0[t.feature]);
                }
            }
            Kind::Trees { trees, .. } => {
                let x = inputs(features);
                for tree in trees {
                    tree.walk(&x, Some(&mut effects));
                }
            }
        }
        strongest(
            &effects,
            &features.0,
            |k| Feature::ALL[k].name(),
            |k| relevant(Feature::ALL[k]),
            most,
        )
    }
}

/// The features of nonzero effect that `keep` keeps, each with its name (`name`), value and
/// effect, strongest first, at most `most`: a score's explanation, for either model.
pub(crate) fn strongest(
    effects: &[f64],
    values: &[f64],
    name: impl Fn(usize) -> &'static str,
    keep: impl Fn(usize) -> bool,
    most: usize,
) -> Vec<Factor> {
    let mut factors: Vec<Factor> = (0..effects.len())
        .filter(|&k| effects[k] != 0.0 && keep(k))
        .map(|k| Factor {
            feature: name(k),
            value: values[k],
            effect: effects[k],
        })
        .collect();
    factors.sort_by(|a, b| b.effect.abs().total_cmp(&a.effect.abs()));
    factors.truncate(most);
    factors
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_model_reads() {
        let model = Model::from_json(SHIPPED_JSON).unwrap();
        assert!(matches!(model, Model::Learned(_)));
        assert!(SHIPPED_JSON.len() < 1_000_000);
        assert_transcribes(&SUPPORT_MODEL, SHIPPED_JSON);
    }

    fn tree_model(feature: &str, threshold: f64) -> String {
        format!(
            r#"{{"format":"ragcite-support-model","version":1,"kind":"trees",
            "features":[{{"name":"{feature}"}}],"base":0.0,
            "trees":[{{"feature":[0,-1,-1],"threshold":[{threshold},0,0],"left":[1,-1,-1],
            "right":[2,-1,-1],"value":[0.0,-1.0,1.0]}}]}}"#
        )
    }

    #[test]
    fn a_tree_splits_and_explains() {
        let Model::Learned(model) = Model::from_json(&tree_model("recall", 0.5)).unwrap() else {
            panic!("a learned model");
        };
        let mut features = Features([0.0; COUNT]);
        features.0[0] = 0.75;
        assert_eq!(model.score(&features), sigmoid(1.0));
        let factors = model.factors(&features, 3);
        assert_eq!(factors.len(), 1);
        assert_eq!((factors[0].feature, factors[0].effect), ("recall", 1.0));
        features.0[0] = 0.25;
        assert_eq!(model.score(&features), sigmoid(-1.0));
        let (mut low, mut high) = (Features([0.0; COUNT]), Features([0.0; COUNT]));
        high.0[0] = 1.0;
        assert_eq!(model.highest(&low, &high), sigmoid(1.0));
        low.0[0] = 0.0;
        high.0[0] = 0.4;
        assert_eq!(model.highest(&low, &high), sigmoid(-1.0));
    }

    proptest::proptest! {
        /// The highest score over a box of features is at least the score of any point in it,
        /// for the shipped model: the bound chunk statuses rule chunks out with is sound.
        #[test]
        fn the_highest_score_bounds_every_score_within(
            low in proptest::collection::vec(0.0f64..1.0, COUNT),
            width in proptest::collection::vec(0.0f64..1.0, COUNT),
            at in proptest::collection::vec(0.0f64..=1.0, COUNT),
            scale in proptest::collection::vec(proptest::sample::select(vec![1.0, 10.0, 300.0]), COUNT),
        ) {
            let Model::Learned(model) = Model::from_json(SHIPPED_JSON).unwrap() else {
                panic!("a learned model");
            };
            let mut lo = Features([0.0; COUNT]);
            let mut hi = Features([0.0; COUNT]);
            let mut x = Features([0.0; COUNT]);
            for k in 0..COUNT {
                lo.0[k] = low[k] * scale[k];
                hi.0[k] = (low[k] + width[k]) * scale[k];
                x.0[k] = lo.0[k] + at[k] * (hi.0[k] - lo.0[k]);
            }
            proptest::prop_assert!(model.highest(&lo, &hi) >= model.score(&x));
        }
    }

    #[test]
    fn the_flat_trees_score_and_bound_as_the_trees() {
        let Model::Learned(model) = Model::from_json(SHIPPED_JSON).unwrap() else {
            panic!("a learned model");
        };
        let Kind::Trees {
            trees,
            shallow: Some(shallow),
            ..
        } = &model.kind
        else {
            panic!("shallow trees");
        };
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            // Values on and near the thresholds too: features are counts and ratios.
            (seed % 41) as f64 / 40.0 * if seed.is_multiple_of(3) { 30.0 } else { 1.0 }
        };
        for _ in 0..2_000 {
            let (a, b): (Vec<f64>, Vec<f64>) = (0..COUNT).map(|_| (next(), next())).unzip();
            let low = Features(std::array::from_fn(|k| a[k].min(b[k])));
            let high = Features(std::array::from_fn(|k| a[k].max(b[k])));
            let (x, y) = (inputs(&low), inputs(&high));
            for (tree, flat) in trees.iter().zip(shallow) {
                assert_eq!(tree.walk(&x, None), flat.walk(&x));
                assert_eq!(tree.highest(0, &x, &y), flat.highest(&x, &y));
            }
        }
        // And on the thresholds themselves, where `f32` rounding decides.
        for tree in trees {
            for node in tree.nodes.iter().filter(|n| n.feature.is_some()) {
                let mut x = Features([0.0; COUNT]);
                x.0[node.feature.unwrap()] = node.threshold;
                let goes_left = f64::from(x.0[node.feature.unwrap()] as f32) <= node.threshold;
                assert_eq!(
                    Tree::goes_left(node, inputs(&x)[node.feature.unwrap()]),
                    goes_left
                );
            }
        }
    }

    #[test]
    fn factors_add_up_to_the_score() {
        let Model::Learned(model) = Model::from_json(SHIPPED_JSON).unwrap() else {
            panic!("a learned model");
        };
        let mut x = Features([0.0; COUNT]);
        for (k, v) in x.0.iter_mut().enumerate() {
            *v = (k as f64 * 0.37) % 1.0;
        }
        let all = model.factors(&x, COUNT);
        let Kind::Trees { base, trees, .. } = &model.kind else {
            panic!("trees");
        };
        let roots: f64 = trees.iter().map(|t| t.nodes[0].value).sum();
        let z = base + roots + all.iter().map(|f| f.effect).sum::<f64>();
        assert!((sigmoid(z) - model.score(&x)).abs() < 1e-9);
        // Strongest first.
        assert!(
            all.windows(2)
                .all(|w| w[0].effect.abs() >= w[1].effect.abs())
        );
    }

    #[test]
    fn bad_models_are_errors() {
        for (text, wanted) in [
            ("{}".to_string(), "missing field"),
            (tree_model("color", 0.5), "unknown feature"),
            (
                tree_model("recall", 0.5).replace("\"left\":[1", "\"left\":[0"),
                "not a later node",
            ),
            (
                tree_model("recall", 0.5).replace("\"right\":[2", "\"right\":[7"),
                "not a later node",
            ),
            (
                tree_model("recall", 0.5).replace("\"version\":1", "\"version\":9"),
                "version 9",
            ),
            (
                tree_model("recall", 0.5).replace("\"base\":0.0", "\"base\":0.0,\"kind2\":1"),
                "unknown field",
            ),
            (
                tree_model("recall", 0.5).replace("[0.0,-1.0,1.0]", "[0.0,-1.0]"),
                "not all as long",
            ),
        ] {
            let error = Model::from_json(&text).unwrap_err();
            assert!(error.contains(wanted), "{error} (wanted {wanted})");
        }
    }
}
