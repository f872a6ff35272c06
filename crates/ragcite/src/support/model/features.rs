//! The features of one sentence and one chunk, each a plain fact about how the chunk relates to
//! the sentence (how many of its words it holds, how close together, which names and numbers it
//! lacks, ...). The support model scores a pair from these; `ragcite eval --features` exports
//! them, so that a model can be fitted elsewhere. No feature describes the sentence's style
//! alone.
//!
//! The features that need no word positions are computed first (`Features::cheap`); the
//! others get an upper bound from them, so that a chunk that cannot reach the threshold is ruled
//! out before its positions are read.

use crate::words::{Word, rarity};

use crate::support::score::{PHRASE_WINDOW, Positions, negation_factor};

use crate::report::features::Feature as F;
pub use crate::report::features::{COUNT, Feature, Features, WINDOW};

/// The features that read word positions: bounded before they are computed.
const POSITIONAL: [Feature; 7] = [
    F::BestWindowRecall,
    F::LcsRatio,
    F::BigramOverlap,
    F::TrigramOverlap,
    F::CopiedPairs,
    F::LongestCopy,
    F::NegationFlip,
];

/// Which features of a pair are bounds still to compute: one bit per [`Feature`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub(crate) struct Bounded(u32);

const _: () = assert!(COUNT <= u32::BITS as usize);

impl Bounded {
    /// Marks `feature` a bound when `bound`.
    fn set(&mut self, feature: Feature, bound: bool) {
        self.0 |= u32::from(bound) << feature.index();
    }

    /// Whether `feature` is a bound.
    fn has(self, feature: Feature) -> bool {
        self.at(feature.index())
    }

    /// Whether feature `k` (by index) is a bound.
    pub(crate) fn at(self, k: usize) -> bool {
        self.0 >> k & 1 == 1
    }
}

/// A sentence as the features read it: its content words and their rarities in tenths (exact
/// integers, so that sums are the same in any order).
#[derive(Debug)]
pub(crate) struct SentenceWords<'a> {
    pub(crate) words: &'a [Word],
    rarity: Vec<u32>,
    total: u32,
}

impl<'a> SentenceWords<'a> {
    pub(crate) fn new(words: &'a [Word]) -> Self {
        let rarity: Vec<u32> = words
            .iter()
            .map(|w| (rarity(&w.surface) * 10.0).round() as u32)
            .collect();
        let total = rarity.iter().sum();
        SentenceWords {
            words,
            rarity,
            total,
        }
    }
}

impl SentenceWords<'_> {
    /// The range of every feature over the chunks that hold exactly `held` of the sentence's
    /// words, their own words counting for names, the numbers counting as found (`numbers`
    /// distinct numbers in the sentence), `lengths` the shortest and longest chunk: chunk
    /// statuses rule out, in one comparison per chunk, those whose count of shared words cannot
    /// reach the threshold.
    pub(crate) fn held_range(
        &self,
        held: usize,
        numbers: usize,
        lengths: (u32, u32),
    ) -> (Features, Features) {
        let n = self.words.len();
        let h = held.min(n);
        let mut sorted = self.rarity.clone();
        sorted.sort_unstable();
        let least: u32 = sorted[..h].iter().sum();
        let most: u32 = sorted[n - h..].iter().sum();
        let names = self.words.iter().filter(|w| w.name).count();
        let may_flip = self
            .words
            .iter()
            .any(|w| w.negated || !w.antonyms.is_empty());
        let recall = share(h, n);
        let pairs = if n < 2 {
            recall
        } else {
            share(h.saturating_sub(1), n - 1)
        };
        let triples = if n < 3 {
            pairs
        } else {
            share(h.saturating_sub(2), n - 2)
        };
        let rarest = |r: Option<&u32>| r.map_or(0.0, |&r| f64::from(r) / 10.0);
        let (rarest_low, rarest_high) = if h == n {
            (0.0, 0.0)
        } else {
            (rarest(sorted.get(n - h - 1)), rarest(sorted.last()))
        };
        let idf = (share_of(least, self.total), share_of(most, self.total));
        let mut low = Features::default();
        let mut high = Features::default();
        low[F::Recall] = recall;
        high[F::Recall] = recall;
        low[F::IdfRecall] = idf.0;
        high[F::IdfRecall] = idf.1;
        // The positional features: nothing at least, the words' share at most.
        high[F::BestWindowRecall] = idf.1;
        high[F::LcsRatio] = recall;
        high[F::BigramOverlap] = pairs;
        high[F::TrigramOverlap] = triples;
        high[F::CopiedPairs] = pairs;
        high[F::LongestCopy] = recall;
        low[F::CitedRecall] = idf.0;
        high[F::CitedRecall] = idf.1;
        low[F::MissingWords] = (n - h) as f64;
        high[F::MissingWords] = (n - h) as f64;
        low[F::MissingNames] = names.saturating_sub(h) as f64;
        high[F::MissingNames] = names.min(n - h) as f64;
        // Numbers count as found: none missing; at most all of them matched.
        high[F::MatchedNumbers] = numbers as f64;
        high[F::NegationFlip] = if may_flip { 1.0 } else { 0.0 };
        low[F::RarestMissing] = rarest_low;
        high[F::RarestMissing] = rarest_high;
        low[F::SentenceWords] = n as f64;
        high[F::SentenceWords] = n as f64;
        low[F::ChunkWords] = f64::from(lengths.0);
        high[F::ChunkWords] = f64::from(lengths.1);
        (low, high)
    }
}

/// What a pair's features need besides the sentence: which of its words the chunk holds
/// (`held`, by index), which names the cited chunks together hold (`named`), the numbers it
/// lacks and holds, and its length.
pub(crate) struct Pair<H, N> {
    pub(crate) chunk: u32,
    pub(crate) held: H,
    pub(crate) named: N,
    pub(crate) missing_numbers: usize,
    pub(crate) matched_numbers: usize,
    pub(crate) chunk_words: u32,
}

impl Features {
    /// The features that need no positions, and upper bounds for the others: bounds are
    /// marked in the returned list.
    pub(crate) fn cheap<H: Fn(usize) -> bool, N: Fn(usize) -> bool>(
        sentence: &SentenceWords,
        pair: &Pair<H, N>,
    ) -> (Features, Bounded) {
        let words = sentence.words;
        let n = words.len();
        let held = &pair.held;
        let count = (0..n).filter(|&k| held(k)).count();
        let recall = share(count, n);
        let held_rarity: u32 = (0..n)
            .filter(|&k| held(k))
            .map(|k| sentence.rarity[k])
            .sum();
        let idf_recall = share_of(held_rarity, sentence.total);
        let rarest_missing = (0..n)
            .filter(|&k| !held(k))
            .map(|k| sentence.rarity[k])
            .max()
            .map_or(0.0, |r| f64::from(r) / 10.0);
        let pairs = (0..n.saturating_sub(1))
            .filter(|&k| held(k) && held(k + 1))
            .count();
        let triples = (0..n.saturating_sub(2))
            .filter(|&k| held(k) && held(k + 1) && held(k + 2))
            .count();
        let bigram = if n < 2 { recall } else { share(pairs, n - 1) };
        let trigram = if n < 3 { bigram } else { share(triples, n - 2) };
        let may_flip = (0..n)
            .any(|k| (words[k].negated && held(k)) || (!words[k].antonyms.is_empty() && !held(k)));
        let named = &pair.named;
        let missing_names = (0..n).filter(|&k| words[k].name && !named(k)).count();
        let named_rarity: u32 = (0..n)
            .filter(|&k| named(k))
            .map(|k| sentence.rarity[k])
            .sum();
        let mut values = Features::default();
        values[F::Recall] = recall;
        values[F::IdfRecall] = idf_recall;
        // Bounds of the positional features, until `complete`.
        values[F::BestWindowRecall] = idf_recall;
        values[F::LcsRatio] = recall;
        values[F::BigramOverlap] = bigram;
        values[F::TrigramOverlap] = trigram;
        values[F::CopiedPairs] = bigram;
        values[F::LongestCopy] = recall;
        values[F::CitedRecall] = share_of(named_rarity, sentence.total);
        values[F::MissingWords] = (n - count) as f64;
        values[F::MissingNames] = missing_names as f64;
        values[F::MissingNumbers] = pair.missing_numbers as f64;
        values[F::MatchedNumbers] = pair.matched_numbers as f64;
        values[F::NegationFlip] = if may_flip { 1.0 } else { 0.0 };
        values[F::RarestMissing] = rarest_missing;
        values[F::SentenceWords] = n as f64;
        values[F::ChunkWords] = f64::from(pair.chunk_words);
        let mut bounded = Bounded::default();
        bounded.set(F::BestWindowRecall, true);
        bounded.set(F::LcsRatio, true);
        bounded.set(F::BigramOverlap, n >= 2);
        bounded.set(F::TrigramOverlap, n >= 2);
        bounded.set(F::CopiedPairs, true);
        bounded.set(F::LongestCopy, true);
        bounded.set(F::NegationFlip, may_flip);
        (values, bounded)
    }

    /// Replaces the bounds of [`Features::cheap`] by the features' values.
    pub(crate) fn complete<H: Fn(usize) -> bool, N: Fn(usize) -> bool>(
        &mut self,
        bounded: &Bounded,
        sentence: &SentenceWords,
        pair: &Pair<H, N>,
        positions: &Positions,
    ) {
        let words = sentence.words;
        let n = words.len();
        let (chunk, held) = (pair.chunk, &pair.held);
        if bounded.has(F::BestWindowRecall) || bounded.has(F::LcsRatio) {
            let (window, lcs) = best_window(sentence, chunk, held, positions);
            self[F::BestWindowRecall] = window;
            self[F::LcsRatio] = share(lcs, n);
        }
        if bounded.has(F::BigramOverlap) {
            let near: Vec<bool> = (0..n - 1)
                .map(|k| {
                    held(k)
                        && held(k + 1)
                        && positions.near(words[k].id, words[k + 1].id, chunk, PHRASE_WINDOW)
                })
                .collect();
            self[F::BigramOverlap] = share(near.iter().filter(|&&b| b).count(), n - 1);
            self[F::TrigramOverlap] = if n < 3 {
                self[F::BigramOverlap]
            } else {
                share(near.windows(2).filter(|w| w[0] && w[1]).count(), n - 2)
            };
        }
        if bounded.has(F::CopiedPairs) || bounded.has(F::LongestCopy) {
            let (pairs, run) = copies(words, chunk, held, positions);
            self[F::CopiedPairs] = if n < 2 {
                self[F::Recall]
            } else {
                share(pairs, n - 1)
            };
            self[F::LongestCopy] = share(run, n);
        }
        if bounded.has(F::NegationFlip) {
            let flipped = negation_factor(words, chunk, held, positions) < 1.0;
            self[F::NegationFlip] = if flipped { 1.0 } else { 0.0 };
        }
    }
}

/// Whether feature `k` of `features` says something about this sentence, for the factors an
/// explanation shows: the lengths never do (they describe the texts' size, not what they
/// share), numbers only when the sentence has some, names only when it has some, the negation
/// flag and the rarest missing word only when they are set.
pub(crate) fn telling(
    feature: Feature,
    features: &Features,
    words: &[Word],
    numbers: bool,
) -> bool {
    match feature {
        F::ChunkWords | F::SentenceWords => false,
        F::MissingNumbers | F::MatchedNumbers => numbers,
        F::MissingNames => words.iter().any(|w| w.name),
        F::NegationFlip | F::RarestMissing => features[feature] != 0.0,
        _ => true,
    }
}

impl Features {
    /// The features of the cited chunks together: those about which words are held from
    /// `together` (the features of the pair with every word any of them holds counted as
    /// held), those about word positions the best any one chunk reaches (`each`: every cited
    /// chunk's own features), a negation flipped when one chunk flips it, and the length of
    /// all of them.
    pub(crate) fn union(together: &Features, each: &[Features]) -> Features {
        let mut union = *together;
        for feature in POSITIONAL {
            union[feature] = each.iter().map(|f| f[feature]).fold(0.0, f64::max);
        }
        union[F::ChunkWords] = each.iter().map(|f| f[F::ChunkWords]).sum();
        union
    }

    /// The same features with the numbers counting as found.
    pub(crate) fn numbers_found(mut self) -> Features {
        self[F::MissingNumbers] = 0.0;
        self
    }

    /// The same features without the negation flag.
    pub(crate) fn unflipped(mut self) -> Features {
        self[F::NegationFlip] = 0.0;
        self
    }
}

fn share(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

fn share_of(part: u32, whole: u32) -> f64 {
    if whole == 0 {
        0.0
    } else {
        f64::from(part) / f64::from(whole)
    }
}

/// The rarity-weighted share of the sentence's words in the best window of [`WINDOW`] chunk
/// words (the earliest on a tie), and the longest common subsequence of the sentence's words
/// and the window's.
fn best_window(
    sentence: &SentenceWords,
    chunk: u32,
    held: &impl Fn(usize) -> bool,
    positions: &Positions,
) -> (f64, usize) {
    let words = sentence.words;
    // Each occurrence of a held word: (position, word index), by position.
    let mut at: Vec<(u32, u32)> = Vec::new();
    for (k, word) in words.iter().enumerate() {
        if held(k) {
            at.extend(positions.of(word.id, chunk).map(|p| (p, k as u32)));
        }
    }
    if at.is_empty() {
        return (0.0, 0);
    }
    at.sort_unstable();
    let mut inside = vec![0u32; words.len()];
    let (mut weight, mut best, mut best_range) = (0u32, 0u32, (0, 0));
    let mut first = 0;
    for last in 0..at.len() {
        let k = at[last].1 as usize;
        if inside[k] == 0 {
            weight += sentence.rarity[k];
        }
        inside[k] += 1;
        while at[first].0 + WINDOW <= at[last].0 {
            let j = at[first].1 as usize;
            inside[j] -= 1;
            if inside[j] == 0 {
                weight -= sentence.rarity[j];
            }
            first += 1;
        }
        if weight > best {
            best = weight;
            best_range = (first, last + 1);
        }
    }
    // The window's words in order, each position once.
    let mut window: Vec<u32> = Vec::new();
    let mut previous = None;
    for &(p, k) in &at[best_range.0..best_range.1] {
        if previous != Some(p) {
            window.push(words[k as usize].id);
            previous = Some(p);
        }
    }
    (share_of(best, sentence.total), lcs(words, &window))
}

/// How many neighbouring pairs of the sentence's words stand in the chunk as far apart as in
/// the sentence, and the longest run of words copied that way (one word alone is a run of one).
fn copies(
    words: &[Word],
    chunk: u32,
    held: &impl Fn(usize) -> bool,
    positions: &Positions,
) -> (usize, usize) {
    let (mut pairs, mut longest) = (0, 0);
    // Each chunk position of the previous word, with the run of copied words ending there.
    let mut previous: Vec<(u32, usize)> = Vec::new();
    for (k, word) in words.iter().enumerate() {
        if !held(k) {
            previous.clear();
            continue;
        }
        let gap = k
            .checked_sub(1)
            .map(|j| word.position.checked_sub(words[j].position));
        let mut current: Vec<(u32, usize)> = Vec::new();
        let mut paired = false;
        let mut j = 0;
        for p in positions.of(word.id, chunk) {
            let mut run = 1;
            if let Some(Some(gap)) = gap
                && let Some(want) = p.checked_sub(gap)
            {
                while j < previous.len() && previous[j].0 < want {
                    j += 1;
                }
                if j < previous.len() && previous[j].0 == want {
                    run = previous[j].1 + 1;
                    paired = true;
                }
            }
            longest = longest.max(run);
            current.push((p, run));
        }
        pairs += usize::from(paired);
        previous = current;
    }
    (pairs, longest)
}

/// Length of the longest common subsequence of the sentence's stems and `window`.
fn lcs(words: &[Word], window: &[u32]) -> usize {
    let mut row = vec![0usize; window.len() + 1];
    for word in words {
        let mut diagonal = 0;
        for (j, &id) in window.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if word.id == id {
                diagonal + 1
            } else {
                above.max(row[j])
            };
            diagonal = above;
        }
    }
    row[window.len()]
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn words(n: usize, positions: &[u32]) -> Vec<Word> {
        (0..n)
            .map(|k| Word {
                stem: format!("w{k}"),
                surface: ["tower", "paris", "photosynthesis", "qqqq"][k % 4].to_string(),
                id: k as u32,
                general: false,
                name: k == 1,
                negated: false,
                antonyms: Vec::new(),
                position: positions.get(k).copied().unwrap_or(k as u32 * 2),
            })
            .collect()
    }

    fn all(words: &[Word], chunk: Vec<(u32, u32)>, length: u32) -> (Features, Bounded, Features) {
        let mut positions = Positions::default();
        let held_ids: Vec<u32> = chunk.iter().map(|&(id, _)| id).collect();
        positions.push_chunk(chunk, Vec::new());
        let sentence = SentenceWords::new(words);
        let held = |k: usize| held_ids.contains(&words[k].id);
        let pair = Pair {
            chunk: 0,
            held,
            named: held,
            missing_numbers: 0,
            matched_numbers: 0,
            chunk_words: length,
        };
        let (cheap, bounded) = Features::cheap(&sentence, &pair);
        let mut full = cheap;
        full.complete(&bounded, &sentence, &pair, &positions);
        (cheap, bounded, full)
    }

    fn get(features: &Features, name: &str) -> f64 {
        features[Feature::named(name).unwrap()]
    }

    #[test]
    fn a_copied_sentence_scores_one_everywhere() {
        // Words 0..4 at positions 0, 2, 4, 6 in the sentence and 10, 12, 14, 16 in the chunk.
        let words = words(4, &[0, 2, 4, 6]);
        let (_, _, f) = all(&words, vec![(0, 10), (1, 12), (2, 14), (3, 16)], 30);
        for name in [
            "recall",
            "idf_recall",
            "best_window_recall",
            "lcs_ratio",
            "bigram_overlap",
            "trigram_overlap",
            "copied_pairs",
            "longest_copy",
            "cited_recall",
        ] {
            assert_eq!(get(&f, name), 1.0, "{name}");
        }
        assert_eq!(get(&f, "missing_words"), 0.0);
        assert_eq!(get(&f, "rarest_missing"), 0.0);
        assert_eq!(get(&f, "sentence_words"), 4.0);
        assert_eq!(get(&f, "chunk_words"), 30.0);
    }

    #[test]
    fn scattered_and_reordered_words_score_lower() {
        let words = words(4, &[0, 2, 4, 6]);
        // Reversed, far apart: every word held, no pair together, one word per window.
        let (_, _, f) = all(&words, vec![(3, 0), (2, 100), (1, 200), (0, 300)], 400);
        assert_eq!(get(&f, "recall"), 1.0);
        assert_eq!(get(&f, "bigram_overlap"), 0.0);
        assert_eq!(get(&f, "copied_pairs"), 0.0);
        assert_eq!(get(&f, "longest_copy"), 0.25);
        assert_eq!(get(&f, "lcs_ratio"), 0.25);
        assert!(get(&f, "best_window_recall") < 0.5);
        // Together but in reverse order: pairs stand together, none is copied.
        let (_, _, f) = all(&words, vec![(3, 0), (2, 2), (1, 4), (0, 6)], 10);
        assert_eq!(get(&f, "bigram_overlap"), 1.0);
        assert_eq!(get(&f, "copied_pairs"), 0.0);
        assert_eq!(get(&f, "lcs_ratio"), 0.25);
    }

    #[test]
    fn a_missing_rare_word_weighs_more_than_a_common_one() {
        let words = words(4, &[]);
        // `qqqq` (word 3, unlisted) missing, against `tower` (word 0) missing.
        let (_, _, rare) = all(&words, vec![(0, 0), (1, 1), (2, 2)], 3);
        let (_, _, common) = all(&words, vec![(1, 1), (2, 2), (3, 3)], 3);
        assert_eq!(get(&rare, "recall"), get(&common, "recall"));
        assert!(get(&rare, "idf_recall") < get(&common, "idf_recall"));
        assert_eq!(get(&rare, "rarest_missing"), crate::words::rarity("qqqq"));
        assert_eq!(get(&rare, "missing_names"), 0.0);
        let (_, _, no_name) = all(&words, vec![(0, 0), (2, 2), (3, 3)], 3);
        assert_eq!(get(&no_name, "missing_names"), 1.0);
    }

    proptest! {
        /// The cheap features' bounds hold: a chunk ruled out on them could not have reached
        /// the threshold.
        #[test]
        fn cheap_bounds_are_upper_bounds(
            n in 1usize..9,
            chunk in proptest::collection::vec((0u32..10, 0u32..120), 0..40),
            gaps in proptest::collection::vec(1u32..4, 9),
        ) {
            let mut at = Vec::new();
            let mut p = 0;
            for g in &gaps {
                at.push(p);
                p += g;
            }
            let words = words(n, &at);
            let mut chunk = chunk;
            chunk.sort_unstable();
            chunk.dedup_by_key(|&mut (_, p)| p);
            let (cheap, bounded, full) = all(&words, chunk, 120);
            for k in 0..COUNT {
                if bounded.at(k) {
                    prop_assert!(full.0[k] <= cheap.0[k] + 1e-12, "{}: {} > {}", Feature::ALL[k].name(), full.0[k], cheap.0[k]);
                    prop_assert!(full.0[k] >= 0.0);
                } else {
                    prop_assert_eq!(full.0[k], cheap.0[k], "{}", Feature::ALL[k].name());
                }
            }
        }
    }
}
