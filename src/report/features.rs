//! The support model's features as the report names them: their names and meanings, a pair's
//! values, and a feature's push on a score. The support stage computes them
//! (`support::features`); the report carries them.

use serde::Serialize;

/// How many features there are.
pub const COUNT: usize = 17;

/// The features' names, in order.
pub const NAMES: [&str; COUNT] = [
    "recall",
    "idf_recall",
    "best_window_recall",
    "lcs_ratio",
    "bigram_overlap",
    "trigram_overlap",
    "copied_pairs",
    "longest_copy",
    "cited_recall",
    "missing_words",
    "missing_names",
    "missing_numbers",
    "matched_numbers",
    "negation_flip",
    "rarest_missing",
    "sentence_words",
    "chunk_words",
];

/// What each feature means, in the order of [`NAMES`]: `ragcite explain` prints these.
pub const MEANINGS: [&str; COUNT] = [
    "share of the sentence's content words the chunk holds",
    "the same share, each word weighted by its rarity in general English",
    "rarity-weighted share of the sentence's words within the best window of WINDOW chunk words",
    "most of the sentence's words found in the same order in that window, as a share of them",
    "share of neighbouring word pairs of the sentence that stand together in the chunk",
    "share of neighbouring word triples of the sentence that stand together in the chunk",
    "share of neighbouring word pairs of the sentence that stand as far apart in the chunk",
    "longest run of the sentence's words copied with the same spacing, as a share of them",
    "rarity-weighted share of the sentence's words that some cited chunk holds",
    "content words of the sentence the chunk lacks",
    "names of the sentence that no cited chunk holds",
    "numbers of the sentence that no cited chunk holds",
    "numbers of the sentence the chunk holds",
    "1 when the chunk states what the sentence negates, or holds an antonym of its word",
    "rarity of the rarest sentence word the chunk lacks (0 when it lacks none)",
    "content words in the sentence",
    "words in the chunk",
];

/// Width of the window of `best_window_recall`, in chunk words.
pub const WINDOW: u32 = 40;

/// One value per feature, in the order of [`NAMES`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Features(pub [f64; COUNT]);

/// A feature's push on one score, in log-odds: positive raises the score.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Factor {
    /// The feature's name (see `ragcite explain --features`).
    pub feature: &'static str,
    #[serde(serialize_with = "crate::rounding::rounded")]
    pub value: f64,
    /// Its push on the score, in log-odds: positive raises it.
    #[serde(serialize_with = "crate::rounding::rounded")]
    pub effect: f64,
}
