//! The features of one sentence and one chunk, each a plain fact about how the chunk relates to
//! the sentence (how many of its words it holds, how close together, which names and numbers it
//! lacks, ...). The support model scores a pair from these; `ragcite eval --features` exports
//! them, so that a model can be fitted elsewhere. No feature describes the sentence's style
//! alone.
//!
//! The features that need no word positions are computed first ([`Features::cheap`]); the
//! others get an upper bound from them, so that a chunk that cannot reach the threshold is ruled
//! out before its positions are read.

use crate::words::{Word, rarity};

use super::score::{PHRASE_WINDOW, Positions, negation_factor};

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

/// Indices of the features that read word positions: bounded before they are computed.
const BEST_WINDOW: usize = 2;
const LCS: usize = 3;
const BIGRAM: usize = 4;
const TRIGRAM: usize = 5;
const COPIED: usize = 6;
const NEGATION: usize = 13;

/// One value per feature, in the order of [`NAMES`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Features(pub [f64; COUNT]);

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
    ) -> (Features, [bool; COUNT]) {
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
        let values = [
            recall,
            idf_recall,
            idf_recall,
            recall,
            bigram,
            trigram,
            bigram,
            recall,
            share_of(named_rarity, sentence.total),
            (n - count) as f64,
            missing_names as f64,
            pair.missing_numbers as f64,
            pair.matched_numbers as f64,
            if may_flip { 1.0 } else { 0.0 },
            rarest_missing,
            n as f64,
            f64::from(pair.chunk_words),
        ];
        let mut bounded = [false; COUNT];
        bounded[BEST_WINDOW] = true;
        bounded[LCS] = true;
        bounded[BIGRAM] = n >= 2;
        bounded[TRIGRAM] = n >= 2;
        bounded[COPIED] = true;
        bounded[NEGATION] = may_flip;
        (Features(values), bounded)
    }

    /// Replaces the bounds of [`Features::cheap`] by the features' values.
    pub(crate) fn complete<H: Fn(usize) -> bool, N: Fn(usize) -> bool>(
        &mut self,
        bounded: &[bool; COUNT],
        sentence: &SentenceWords,
        pair: &Pair<H, N>,
        positions: &Positions,
    ) {
        let words = sentence.words;
        let n = words.len();
        let (chunk, held) = (pair.chunk, &pair.held);
        if bounded[BEST_WINDOW] || bounded[LCS] {
            let (window, lcs) = best_window(sentence, chunk, held, positions);
            self.0[BEST_WINDOW] = window;
            self.0[LCS] = share(lcs, n);
        }
        if bounded[BIGRAM] {
            let near: Vec<bool> = (0..n - 1)
                .map(|k| {
                    held(k)
                        && held(k + 1)
                        && positions.near(words[k].id, words[k + 1].id, chunk, PHRASE_WINDOW)
                })
                .collect();
            self.0[BIGRAM] = share(near.iter().filter(|&&b| b).count(), n - 1);
            self.0[TRIGRAM] = if n < 3 {
                self.0[BIGRAM]
            } else {
                share(near.windows(2).filter(|w| w[0] && w[1]).count(), n - 2)
            };
        }
        if bounded[COPIED] {
            let (pairs, run) = copies(words, chunk, held, positions);
            self.0[COPIED] = if n < 2 {
                self.0[0]
            } else {
                share(pairs, n - 1)
            };
            self.0[COPIED + 1] = share(run, n);
        }
        if bounded[NEGATION] {
            let flipped = negation_factor(words, chunk, held, positions) < 1.0;
            self.0[NEGATION] = if flipped { 1.0 } else { 0.0 };
        }
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
