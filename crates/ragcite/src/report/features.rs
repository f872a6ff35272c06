//! The support model's features as the report names them: their names and meanings, a pair's
//! values, and a feature's push on a score. The support stage computes them
//! (`support::model::features`); the report carries them.

use serde::Serialize;

/// How support is scored, in one paragraph: `ragcite explain supported`, the methodology, the
/// API's `units.support` and the MCP tools' descriptions all say it in these words (a test
/// keeps them equal). A macro, so that other constant texts can include it.
#[macro_export]
#[doc(hidden)]
macro_rules! how_support_is_scored {
    () => {
        "Support (0 to 1) is scored by a model fitted to human labels: 100 shallow decision trees over 17 lexical features of the sentence and a cited chunk: how many of the sentence's content words the chunk holds (plain, and weighted by rarity), how close together and in what order (the best window, the longest common subsequence, word pairs and triples found together, copied runs), which of its names, numbers and rare words it lacks, whether it states what the sentence negates or uses an opposite word, and the two lengths. The sentence's support is the best of its cited chunks alone and of all of them together (a word any of them holds counts as found). Lexical overlap is not entailment: a reworded claim can score low, and a subtly changed one high."
    };
}

/// How many features there are.
pub const COUNT: usize = 17;

/// One feature of a sentence and a chunk: its place in [`Features`], its name (as `ragcite
/// explain --features`, `eval --features` and the model file spell it) and what it means. The
/// order is the model file's and the exports' column order: a new feature goes at the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Feature {
    /// Share of the sentence's content words the chunk holds.
    Recall,
    /// The same share, each word weighted by its rarity in general English.
    IdfRecall,
    /// Rarity-weighted share of the sentence's words within the best window of WINDOW chunk words.
    BestWindowRecall,
    /// Most of the sentence's words found in the same order in that window, as a share of them.
    LcsRatio,
    /// Share of neighbouring word pairs of the sentence that stand together in the chunk.
    BigramOverlap,
    /// Share of neighbouring word triples of the sentence that stand together in the chunk.
    TrigramOverlap,
    /// Share of neighbouring word pairs of the sentence that stand as far apart in the chunk.
    CopiedPairs,
    /// Longest run of the sentence's words copied with the same spacing, as a share of them.
    LongestCopy,
    /// Rarity-weighted share of the sentence's words that some cited chunk holds.
    CitedRecall,
    /// Content words of the sentence the chunk lacks.
    MissingWords,
    /// Names of the sentence that no cited chunk holds.
    MissingNames,
    /// Numbers of the sentence that no cited chunk holds.
    MissingNumbers,
    /// Numbers of the sentence the chunk holds.
    MatchedNumbers,
    /// 1 when the chunk states what the sentence negates, or holds an antonym of its word.
    NegationFlip,
    /// Rarity of the rarest sentence word the chunk lacks (0 when it lacks none).
    RarestMissing,
    /// Content words in the sentence.
    SentenceWords,
    /// Words in the chunk.
    ChunkWords,
}

impl Feature {
    /// Every feature, in order.
    pub const ALL: [Feature; COUNT] = [
        Feature::Recall,
        Feature::IdfRecall,
        Feature::BestWindowRecall,
        Feature::LcsRatio,
        Feature::BigramOverlap,
        Feature::TrigramOverlap,
        Feature::CopiedPairs,
        Feature::LongestCopy,
        Feature::CitedRecall,
        Feature::MissingWords,
        Feature::MissingNames,
        Feature::MissingNumbers,
        Feature::MatchedNumbers,
        Feature::NegationFlip,
        Feature::RarestMissing,
        Feature::SentenceWords,
        Feature::ChunkWords,
    ];

    /// Its place in [`Features`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Its name.
    pub const fn name(self) -> &'static str {
        match self {
            Feature::Recall => "recall",
            Feature::IdfRecall => "idf_recall",
            Feature::BestWindowRecall => "best_window_recall",
            Feature::LcsRatio => "lcs_ratio",
            Feature::BigramOverlap => "bigram_overlap",
            Feature::TrigramOverlap => "trigram_overlap",
            Feature::CopiedPairs => "copied_pairs",
            Feature::LongestCopy => "longest_copy",
            Feature::CitedRecall => "cited_recall",
            Feature::MissingWords => "missing_words",
            Feature::MissingNames => "missing_names",
            Feature::MissingNumbers => "missing_numbers",
            Feature::MatchedNumbers => "matched_numbers",
            Feature::NegationFlip => "negation_flip",
            Feature::RarestMissing => "rarest_missing",
            Feature::SentenceWords => "sentence_words",
            Feature::ChunkWords => "chunk_words",
        }
    }

    /// What it means (`WINDOW` stands for [`WINDOW`]): `ragcite explain` prints these.
    pub const fn meaning(self) -> &'static str {
        match self {
            Feature::Recall => "share of the sentence's content words the chunk holds",
            Feature::IdfRecall => {
                "the same share, each word weighted by its rarity in general English"
            }
            Feature::BestWindowRecall => {
                "rarity-weighted share of the sentence's words within the best window of WINDOW chunk words"
            }
            Feature::LcsRatio => {
                "most of the sentence's words found in the same order in that window, as a share of them"
            }
            Feature::BigramOverlap => {
                "share of neighbouring word pairs of the sentence that stand together in the chunk"
            }
            Feature::TrigramOverlap => {
                "share of neighbouring word triples of the sentence that stand together in the chunk"
            }
            Feature::CopiedPairs => {
                "share of neighbouring word pairs of the sentence that stand as far apart in the chunk"
            }
            Feature::LongestCopy => {
                "longest run of the sentence's words copied with the same spacing, as a share of them"
            }
            Feature::CitedRecall => {
                "rarity-weighted share of the sentence's words that some cited chunk holds"
            }
            Feature::MissingWords => "content words of the sentence the chunk lacks",
            Feature::MissingNames => "names of the sentence that no cited chunk holds",
            Feature::MissingNumbers => "numbers of the sentence that no cited chunk holds",
            Feature::MatchedNumbers => "numbers of the sentence the chunk holds",
            Feature::NegationFlip => {
                "1 when the chunk states what the sentence negates, or holds an antonym of its word"
            }
            Feature::RarestMissing => {
                "rarity of the rarest sentence word the chunk lacks (0 when it lacks none)"
            }
            Feature::SentenceWords => "content words in the sentence",
            Feature::ChunkWords => "words in the chunk",
        }
    }

    /// The feature named `name`.
    pub fn named(name: &str) -> Option<Feature> {
        Feature::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// Width of the window of `best_window_recall`, in chunk words.
pub const WINDOW: u32 = 40;

/// One value per feature, in the order of [`Feature::ALL`]; indexed by [`Feature`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Features(pub [f64; COUNT]);

impl Default for Features {
    fn default() -> Self {
        Features([0.0; COUNT])
    }
}

impl std::ops::Index<Feature> for Features {
    type Output = f64;
    fn index(&self, feature: Feature) -> &f64 {
        &self.0[feature.index()]
    }
}

impl std::ops::IndexMut<Feature> for Features {
    fn index_mut(&mut self, feature: Feature) -> &mut f64 {
        &mut self.0[feature.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_feature_stands_at_its_index_under_its_own_name() {
        for (k, feature) in Feature::ALL.into_iter().enumerate() {
            assert_eq!(feature.index(), k);
            assert_eq!(Feature::named(feature.name()), Some(feature));
            assert!(!feature.meaning().is_empty());
        }
    }
}

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
