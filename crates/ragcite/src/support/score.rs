//! Support score: how well one chunk backs one sentence, sharper than `coverage`. Part of the
//! support stage; it reads the chunk index's postings and word positions only.
//!
//! `support` = (1 − PHRASE_WEIGHT) × weighted word recall + PHRASE_WEIGHT × phrase recall:
//! - weighted word recall: the share of the sentence's content words the chunk holds, a general
//!   English word (`also`, `important`, `provide`; see `general_words.txt`) counting
//!   GENERAL_WEIGHT of an ordinary word;
//! - phrase recall: the share of the sentence's neighbouring content-word pairs that stand
//!   within PHRASE_WINDOW words of each other somewhere in the chunk;
//!
//! then multiplied by MISSING_ITEM_FACTOR for each name and MISSING_NUMBER_FACTOR for each
//! number of the sentence that no cited chunk holds (numbers: in `assess`), and by NEGATION_FACTOR when the chunk states plainly
//! a word the sentence negates, or holds the opposite of a word of the sentence where that word
//! would stand (`antonyms.txt`).

use crate::words::{NEGATION_REACH, Word};

/// Weight of a general word against an ordinary content word.
pub(crate) const GENERAL_WEIGHT: f64 = 0.5;
/// Share of the score that phrase recall makes.
pub(crate) const PHRASE_WEIGHT: f64 = 0.3;
/// What each name of the sentence that no cited chunk holds multiplies the score by.
pub(crate) const MISSING_ITEM_FACTOR: f64 = 0.8;
/// What each number of the sentence that no cited chunk holds multiplies the score by. Such a
/// sentence is never `supported` (rule 4); a strong factor ranks it as its verdict judges it.
pub(crate) const MISSING_NUMBER_FACTOR: f64 = 0.5;
/// What a negation the chunk does not share multiplies the score by.
pub(crate) const NEGATION_FACTOR: f64 = 0.6;
/// Two words stand together when at most this many words separate their positions.
pub(crate) const PHRASE_WINDOW: u32 = 3;

/// Where each wanted stem stands in each chunk, and where the chunk's negations stand.
#[derive(Debug, Default)]
pub(crate) struct Positions {
    /// Per chunk: (stem, position) of each wanted word, sorted.
    words: Vec<Vec<(u32, u32)>>,
    /// Per chunk: positions of its negations, ascending.
    negations: Vec<Vec<u32>>,
}

impl Positions {
    /// Records one chunk's words (stem, position) and negation positions, in order of the
    /// chunks. Sorting once per chunk keeps building free of a hash lookup per word.
    pub(crate) fn push_chunk(&mut self, mut words: Vec<(u32, u32)>, negations: Vec<u32>) {
        words.sort_unstable();
        self.words.push(words);
        self.negations.push(negations);
    }

    /// Positions of `stem` in `chunk`, ascending.
    pub(crate) fn of(&self, stem: u32, chunk: u32) -> impl Iterator<Item = u32> + '_ {
        let words = self
            .words
            .get(chunk as usize)
            .map_or(&[][..], Vec::as_slice);
        let start = words.partition_point(|&(s, _)| s < stem);
        words[start..]
            .iter()
            .take_while(move |&&(s, _)| s == stem)
            .map(|&(_, p)| p)
    }

    /// Whether some occurrence of `stem` in `chunk` stands within NEGATION_REACH words after
    /// a negation.
    fn negated(&self, stem: u32, chunk: u32) -> bool {
        let negations = self
            .negations
            .get(chunk as usize)
            .map_or(&[][..], Vec::as_slice);
        if negations.is_empty() {
            return false;
        }
        self.of(stem, chunk).any(|p| {
            // The last negation before p.
            let before = negations.partition_point(|&q| q < p);
            before > 0 && p - negations[before - 1] <= NEGATION_REACH
        })
    }

    /// Whether a negation of `chunk` stands at most `reach` words before an occurrence of one
    /// of `stems` (wanted stems: a sentence's words).
    pub(crate) fn negation_before(
        &self,
        mut stems: impl Iterator<Item = u32>,
        chunk: u32,
        reach: u32,
    ) -> bool {
        let negations = self
            .negations
            .get(chunk as usize)
            .map_or(&[][..], Vec::as_slice);
        !negations.is_empty()
            && stems.any(|stem| {
                self.of(stem, chunk).any(|p| {
                    let before = negations.partition_point(|&q| q < p);
                    before > 0 && p - negations[before - 1] <= reach
                })
            })
    }

    /// Whether `a` and `b` stand within `window` words of each other somewhere in `chunk`.
    pub(crate) fn near(&self, a: u32, b: u32, chunk: u32, window: u32) -> bool {
        let mut xs = self.of(a, chunk).peekable();
        let mut ys = self.of(b, chunk).peekable();
        while let (Some(&x), Some(&y)) = (xs.peek(), ys.peek()) {
            if x.abs_diff(y) <= window {
                return true;
            }
            if x < y {
                xs.next();
            } else {
                ys.next();
            }
        }
        false
    }
}

/// Each name of the sentence that no cited chunk holds multiplies the score by
/// MISSING_ITEM_FACTOR: a swapped name (`China` for `Russia`) keeps every other word.
fn name_factor(words: &[Word], named: &impl Fn(usize) -> bool) -> f64 {
    missing_items_factor(
        (0..words.len())
            .filter(|&k| words[k].name && !named(k))
            .count(),
    )
}

/// What `missing` names multiply support by.
pub(crate) fn missing_items_factor(missing: usize) -> f64 {
    MISSING_ITEM_FACTOR.powi(missing.min(16) as i32)
}

/// What `missing` numbers multiply support by.
pub(crate) fn missing_numbers_factor(missing: usize) -> f64 {
    MISSING_NUMBER_FACTOR.powi(missing.min(16) as i32)
}

/// The sentence says the opposite of the chunk, and the score is multiplied by
/// NEGATION_FACTOR, once, when a word the sentence negates (`was not built`) is in the chunk but
/// never negated there, or when a word of the sentence is missing from the chunk while the chunk
/// holds one of its antonyms that the sentence does not use (`increased` for `decreased`).
pub(crate) fn negation_factor(
    words: &[Word],
    chunk: u32,
    held: &impl Fn(usize) -> bool,
    positions: &Positions,
) -> f64 {
    let negated = |k: usize| words[k].negated && held(k) && !positions.negated(words[k].id, chunk);
    // The antonym must stand where the word would: within PHRASE_WINDOW words of one of the
    // word's neighbours in the sentence (`profits rose` against `profits fell`). In a long
    // chunk an antonym somewhere else says nothing.
    let beside = |a: u32, k: usize| {
        let neighbour = |j: usize| held(j) && positions.near(words[j].id, a, chunk, PHRASE_WINDOW);
        (k > 0 && neighbour(k - 1)) || (k + 1 < words.len() && neighbour(k + 1))
    };
    let swapped = |k: usize| {
        !held(k)
            && words[k]
                .antonyms
                .iter()
                .any(|&(a, _)| !words.iter().any(|w| w.id == a) && beside(a, k))
    };
    let contradicted = (0..words.len()).any(|k| negated(k) || swapped(k));
    if contradicted { NEGATION_FACTOR } else { 1.0 }
}

/// The support of `chunk` for a sentence of `words` (at least one), given which of its words
/// (by index) the chunk holds (`held`) and which names its cited chunks together hold
/// (`named`).
pub(crate) fn support(
    words: &[Word],
    chunk: u32,
    held: impl Fn(usize) -> bool,
    named: impl Fn(usize) -> bool,
    positions: &Positions,
) -> f64 {
    let recall = weighted_recall(words, &held);
    let together = if words.len() < 2 {
        0
    } else {
        (0..words.len() - 1)
            .filter(|&k| {
                held(k)
                    && held(k + 1)
                    && positions.near(words[k].id, words[k + 1].id, chunk, PHRASE_WINDOW)
            })
            .count()
    };
    // The same order of operations as `support_reaches`, so that both agree to the last bit.
    let scale = name_factor(words, &named) * negation_factor(words, chunk, &held, positions);
    scale * mix(words, recall, together)
}

/// Whether [`support`] reaches `limit`, deciding as soon as the pairs counted so far, or those
/// left, settle it: chunk statuses ask this of every chunk a sentence touches, and most are
/// decided without looking at positions.
pub(crate) fn support_reaches(
    words: &[Word],
    chunk: u32,
    held: impl Fn(usize) -> bool,
    named: impl Fn(usize) -> bool,
    positions: &Positions,
    limit: f64,
) -> bool {
    let recall = weighted_recall(words, &held);
    let scale = name_factor(words, &named);
    // Positions are read for the negation only when the sentence negates a word it shares.
    let scale = if scale * mix(words, recall, words.len()) < limit {
        return false;
    } else {
        scale * negation_factor(words, chunk, &held, positions)
    };
    let both = |k: usize| held(k) && held(k + 1);
    let mut left = (0..words.len().saturating_sub(1))
        .filter(|&k| both(k))
        .count();
    let mut together = 0;
    for k in 0..words.len().saturating_sub(1) {
        if scale * mix(words, recall, together) >= limit {
            return true;
        }
        if scale * mix(words, recall, together + left) < limit {
            return false;
        }
        if both(k) {
            left -= 1;
            if positions.near(words[k].id, words[k + 1].id, chunk, PHRASE_WINDOW) {
                together += 1;
            }
        }
    }
    scale * mix(words, recall, together) >= limit
}

/// A sentence of up to 64 content words as bit masks (bit k for word k), so that a chunk's
/// support can be bounded, and mostly decided, with a few bit operations: chunk statuses ask
/// for every chunk a sentence touches.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WordMasks {
    len: usize,
    general: u64,
    names: u64,
    negated: u64,
    /// Words with antonyms.
    antonymous: u64,
    total: f64,
}

impl WordMasks {
    /// `None` for sentences of more than 64 content words.
    pub(crate) fn new(words: &[Word]) -> Option<Self> {
        if words.len() > 64 {
            return None;
        }
        let mask = |keep: fn(&Word) -> bool| {
            words
                .iter()
                .enumerate()
                .filter(|(_, w)| keep(w))
                .fold(0u64, |m, (k, _)| m | 1 << k)
        };
        Some(WordMasks {
            len: words.len(),
            general: mask(|w| w.general),
            names: mask(|w| w.name),
            negated: mask(|w| w.negated),
            antonymous: mask(|w| !w.antonyms.is_empty()),
            total: words.iter().map(weight).sum(),
        })
    }

    /// Whether the support of a chunk holding the words of `held` (its own words counting for
    /// names) reaches `limit`: the same value as [`support`], decided pair by pair only while
    /// the bound leaves it open.
    /// The most support a chunk holding at most `held` of the sentence's words can have: each
    /// word weighs at most 1, and `held` words make at most `held - 1` neighbouring pairs.
    pub(crate) fn most_with(&self, words: &[Word], held: usize) -> f64 {
        let recall = if self.total > 0.0 {
            (held as f64 / self.total).min(1.0)
        } else {
            0.0
        };
        mix(words, recall, held.saturating_sub(1))
    }

    pub(crate) fn reaches(
        &self,
        words: &[Word],
        chunk: u32,
        held: u64,
        positions: &Positions,
        limit: f64,
    ) -> bool {
        // Sums of ones and halves are exact, so these equal `support`'s to the last bit.
        let found = f64::from((held & !self.general).count_ones())
            + GENERAL_WEIGHT * f64::from((held & self.general).count_ones());
        let recall = if self.total > 0.0 {
            found / self.total
        } else {
            0.0
        };
        let names = missing_items_factor((self.names & !held).count_ones() as usize);
        let mut pairs = if self.len < 2 {
            0
        } else {
            held & (held >> 1) & (u64::MAX >> (65 - self.len))
        };
        let mut left = pairs.count_ones() as usize;
        if names * mix(words, recall, left) < limit {
            return false;
        }
        let holds = |k: usize| held & (1 << k) != 0;
        let negation = if self.negated & held == 0 && self.antonymous & !held == 0 {
            1.0
        } else {
            negation_factor(words, chunk, &holds, positions)
        };
        let scale = names * negation;
        let mut together = 0;
        while pairs != 0 {
            if scale * mix(words, recall, together) >= limit {
                return true;
            }
            if scale * mix(words, recall, together + left) < limit {
                return false;
            }
            let k = pairs.trailing_zeros() as usize;
            pairs &= pairs - 1;
            left -= 1;
            if positions.near(words[k].id, words[k + 1].id, chunk, PHRASE_WINDOW) {
                together += 1;
            }
        }
        scale * mix(words, recall, together) >= limit
    }
}

fn weight(word: &Word) -> f64 {
    if word.general { GENERAL_WEIGHT } else { 1.0 }
}

fn weighted_recall(words: &[Word], held: &impl Fn(usize) -> bool) -> f64 {
    let total: f64 = words.iter().map(weight).sum();
    let found: f64 = (0..words.len())
        .filter(|&k| held(k))
        .map(|k| weight(&words[k]))
        .sum();
    if total > 0.0 { found / total } else { 0.0 }
}

/// Word recall mixed with phrase recall (`together` of the `words.len() − 1` pairs); a
/// sentence of one word has no pairs and its support is its recall.
pub(crate) fn mix(words: &[Word], recall: f64, together: usize) -> f64 {
    if words.len() < 2 {
        return recall;
    }
    let phrase = together as f64 / (words.len() - 1) as f64;
    (1.0 - PHRASE_WEIGHT) * recall + PHRASE_WEIGHT * phrase
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{SentenceResult, Verdict};
    use crate::{Checker, Options, input};

    fn check(answer: &str, chunks: &str) -> Vec<SentenceResult> {
        let answer = input::read_answer(answer.as_bytes(), None).unwrap();
        let chunks = input::read_chunks(chunks.as_bytes(), false).unwrap();
        let options = Options {
            model: crate::Model::formula(),
            ..Options::default()
        };
        Checker::new(options)
            .check(&answer, &chunks)
            .result
            .sentences
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-3
    }

    #[test]
    fn general_words_count_half() {
        // tower (found) and important (general, missing): recall 1 / 1.5; the pair is not
        // found together.
        let s = &check("The tower is important [1].", r#"["The tower is tall."]"#)[0];
        assert_eq!(s.coverage, 0.5);
        assert!(close(s.support, 0.7 * (1.0 / 1.5)), "{}", s.support);
        assert!(
            crate::words::is_general_word("also") && crate::words::is_general_word("important")
        );
        assert!(!crate::words::is_general_word("tower"));
    }

    #[test]
    fn word_pairs_found_together_count_for_more() {
        let chunks = r#"["Alpha beta gamma.",
            "Gamma one two three four five beta six seven eight nine ten alpha."]"#;
        let together = &check("Alpha beta gamma [1].", chunks)[0];
        let apart = &check("Alpha beta gamma [2].", chunks)[0];
        assert_eq!((together.coverage, apart.coverage), (1.0, 1.0));
        assert!(close(together.support, 1.0));
        assert!(close(apart.support, 0.7), "{}", apart.support);
    }

    #[test]
    fn a_pair_within_the_window_stands_together() {
        let mut positions = Positions::default();
        positions.push_chunk(vec![(3, 9), (1, 0), (2, 4)], Vec::new());
        assert!(positions.near(1, 2, 0, PHRASE_WINDOW + 1));
        assert!(!positions.near(1, 2, 0, PHRASE_WINDOW));
        assert!(!positions.near(2, 3, 0, PHRASE_WINDOW));
        assert!(!positions.near(1, 2, 1, 10), "another chunk");
    }

    #[test]
    fn a_name_the_chunk_lacks_lowers_support() {
        let chunks = r#"["The treaty was signed in London."]"#;
        // treaty and signed found, paris not: recall 2/3, one pair of two together.
        let plain = 0.7 * (2.0 / 3.0) + 0.3 * 0.5;
        let lower = &check("The treaty was signed in paris [1].", chunks)[0];
        let name = &check("The treaty was signed in Paris [1].", chunks)[0];
        assert!(close(lower.support, plain), "{}", lower.support);
        assert!(close(name.support, plain * MISSING_ITEM_FACTOR));
        assert_eq!(name.coverage, lower.coverage);
        // The first word is capitalised as any sentence's is: not a name.
        let first = &check("Treaty signed in London [1].", chunks)[0];
        assert!(close(first.support, 1.0), "{}", first.support);
    }

    #[test]
    fn support_reaches_agrees_with_support() {
        let words: Vec<Word> = ["alpha", "beta", "gamma", "delta", "epsilon"]
            .iter()
            .enumerate()
            .map(|(k, w)| Word {
                stem: w.to_string(),
                surface: w.to_string(),
                id: k as u32,
                general: k == 4,
                name: k == 2,
                negated: k == 1,
                antonyms: Vec::new(),
                position: k as u32,
            })
            .collect();
        let mut positions = Positions::default();
        positions.push_chunk(vec![(0, 0), (1, 1), (2, 9), (3, 10), (4, 30)], vec![5]);
        for mask in 0u32..32 {
            let held = |k: usize| mask & (1 << k) != 0;
            let named = |k: usize| k != 2 || held(k);
            let exact = support(&words, 0, held, named, &positions);
            for limit in [0.1, 0.3, 0.45, 0.5, 0.6, 0.75, 0.9, 1.0] {
                assert_eq!(
                    support_reaches(&words, 0, held, named, &positions, limit),
                    exact >= limit,
                    "mask {mask:05b}, limit {limit}, support {exact}"
                );
            }
        }
    }

    #[test]
    fn word_masks_agree_with_support() {
        let words: Vec<Word> = (0..6)
            .map(|k| Word {
                stem: format!("w{k}"),
                surface: format!("w{k}"),
                id: k,
                general: k % 3 == 0,
                name: k == 2,
                negated: k == 4,
                antonyms: if k == 5 { vec![(9, "x")] } else { Vec::new() },
                position: k,
            })
            .collect();
        let masks = WordMasks::new(&words).unwrap();
        let mut positions = Positions::default();
        positions.push_chunk(
            vec![
                (0, 0),
                (1, 2),
                (2, 9),
                (3, 10),
                (4, 30),
                (5, 33),
                (5, 12),
                (9, 40),
            ],
            vec![28],
        );
        for held in 0u64..64 {
            let holds = |k: usize| held & (1 << k) != 0;
            let exact = support(&words, 0, holds, holds, &positions);
            for limit in [0.1, 0.25, 0.35, 0.5, 0.55, 0.7, 0.8, 1.0] {
                assert_eq!(
                    masks.reaches(&words, 0, held, &positions, limit),
                    exact >= limit,
                    "held {held:06b}, limit {limit}, support {exact}"
                );
            }
        }
    }

    #[test]
    fn a_negation_the_chunk_does_not_share_lowers_support() {
        let chunks = r#"["The bridge was completed in spring.",
            "The bridge was not completed in spring."]"#;
        let contradicted = &check("The bridge was not completed in spring [1].", chunks)[0];
        assert!(close(contradicted.support, NEGATION_FACTOR));
        assert_eq!(contradicted.coverage, 1.0);
        let shared = &check("The bridge was not completed in spring [2].", chunks)[0];
        assert!(close(shared.support, 1.0));
        let contraction = &check("The bridge wasn't completed in spring [1].", chunks)[0];
        assert!(close(contraction.support, NEGATION_FACTOR));
        let not_only = &check("The bridge was not only completed in spring [1].", chunks)[0];
        assert!(close(not_only.support, 1.0), "{}", not_only.support);
    }

    #[test]
    fn an_antonym_where_the_word_would_stand_lowers_support() {
        let chunks = r#"["Quarterly profits fell sharply in the spring.",
            "Quarterly profits were reported in spring; many months later the old rents fell."]"#;
        // quarterly, profits, rose (missing), sharply, spring: recall 4/5; of the 4 pairs,
        // quarterly-profits and sharply-spring stand together.
        let plain = 0.7 * 0.8 + 0.3 * 0.5;
        let swapped = &check("Quarterly profits rose sharply in the spring [1].", chunks)[0];
        assert!(
            close(swapped.support, plain * NEGATION_FACTOR),
            "{}",
            swapped.support
        );
        // `fell` far from the words around `rose`: no contradiction.
        let elsewhere = &check("Quarterly profits rose in spring [2].", chunks)[0];
        assert!(elsewhere.support > 0.6, "{}", elsewhere.support);
        // A sentence that uses both words contradicts nothing.
        let both = &check("Quarterly profits rose and fell sharply [1].", chunks)[0];
        assert_eq!(both.missing_words, ["rose"]);
        assert!(both.support > 0.6, "{}", both.support);
    }

    #[test]
    fn verdicts_follow_support_not_coverage() {
        // Most words found (coverage 0.75 would be supported), but a negation the chunk does
        // not share and a name it lacks: support decides.
        let swapped = &check(
            "The bridge was not completed in Rome by Caesar [1].",
            r#"["The bridge was completed in Rome."]"#,
        )[0];
        assert_eq!(swapped.coverage, 0.75);
        assert!(swapped.support < 0.5, "{}", swapped.support);
        // Not supported: the chunk's passage says the opposite, which the detector names.
        assert_eq!(swapped.verdict, Verdict::Contradicted);
    }

    #[test]
    fn a_number_no_cited_chunk_holds_lowers_support() {
        let chunks = r#"["The tower was finished in 1889.", "The tower was finished in 1888."]"#;
        let found = &check("The tower was finished in 1889 [1].", chunks)[0];
        let missing = &check("The tower was finished in 1888 [1].", chunks)[0];
        assert!(close(found.support, 1.0));
        assert!(close(missing.support, MISSING_NUMBER_FACTOR));
        assert_eq!(missing.verdict, Verdict::NumberMismatch);
        // The cited chunks are pooled for numbers.
        let pooled = &check("The tower was finished in 1888 [1][2].", chunks)[0];
        assert!(close(pooled.support, 1.0));
    }

    #[test]
    fn numbers_written_in_words_in_a_chunk_match_digits() {
        let s = &check(
            "The band released 6 studio albums [1].",
            r#"["The band has released six studio albums."]"#,
        )[0];
        assert_eq!(s.verdict, Verdict::Supported);
        assert!(s.missing_numbers.is_empty());
    }
}
