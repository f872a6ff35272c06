//! Judging one sentence: its scores against the chunks gathered through the index, its
//! quotations searched in the chunks it cites, its verdict and suggested citations, and what it
//! adds to each chunk's tally.

use std::collections::{HashMap, HashSet};

use rustc_hash::{FxHashMap, FxHashSet};

use crate::deadline::{Deadline, Every};
use crate::input::Chunk;
use crate::quote::{QuoteMatch, QuoteSearch};
use crate::report::{Derived, QuoteCheck, QuoteOrigin, SentenceResult, Span, Verdict};
use crate::words::Role;

use super::contradiction::{self, Contradictions};
use super::decide::{Findings, decide, reaches};
use super::model::features::{self, Features, Pair, SentenceWords};
use super::model::{Learned, Model};
use super::*;

mod cited;
mod sentence;
mod shortcuts;
pub(super) use sentence::{ChunkTally, Judge, Judged};
#[cfg(test)]
pub(crate) use shortcuts::SHORTCUTS;
use shortcuts::{Claims, tally_again};
pub(super) use shortcuts::{Deferred, add_deferred, shortcuts};

/// Chunks prepared for quote search on first use only: most chunks are never quoted.
pub(super) struct QuoteSearches<'a> {
    pub(super) chunks: &'a [Chunk],
    prepared: HashMap<usize, QuoteSearch>,
    /// Looked at before each chunk searched: a sentence of many quotations citing many chunks
    /// searches each quotation in each of them.
    deadline: &'a Deadline,
}

impl<'a> QuoteSearches<'a> {
    pub(super) fn new(chunks: &'a [Chunk], deadline: &'a Deadline) -> Self {
        QuoteSearches {
            chunks,
            prepared: HashMap::new(),
            deadline,
        }
    }

    fn search(&mut self, chunk: usize) -> &QuoteSearch {
        self.prepared
            .entry(chunk)
            .or_insert_with(|| QuoteSearch::new(&self.chunks[chunk].text))
    }

    /// Checks a quotation in the first of `cited` that holds it; when none does, reports the
    /// chunk with the closest passage (highest similarity, earliest on a tie).
    pub(super) fn check(&mut self, text: &str, origin: QuoteOrigin, cited: &[usize]) -> QuoteCheck {
        let mut best: Option<(usize, QuoteMatch)> = None;
        for &chunk in cited {
            if self.deadline.passed() {
                break; // the check gives no result
            }
            let result = self.search(chunk).find(text);
            if result.found {
                best = Some((chunk, result));
                break;
            }
            let similarity = |m: &QuoteMatch| m.closest.as_ref().map_or(-1.0, |c| c.similarity);
            if best
                .as_ref()
                .is_none_or(|(_, b)| similarity(&result) > similarity(b) + EPSILON)
            {
                best = Some((chunk, result));
            }
        }
        let (chunk, result) = match best {
            Some((chunk, result)) => (Some(self.chunks[chunk].id.clone()), result),
            None => (
                None,
                QuoteMatch {
                    found: false,
                    offsets: None,
                    byte_offsets: None,
                    closest: None,
                },
            ),
        };
        QuoteCheck {
            text: text.to_string(),
            origin,
            chunk,
            result,
        }
    }
}

/// How one sentence scores against every chunk, gathered through the index.
struct Scores<'a> {
    pub(super) index: &'a ChunkIndex,
    pub(super) sentence: &'a SentenceInput,
    /// Shared words per chunk; only `touched` entries are non-zero.
    shared: &'a mut Vec<u32>,
    /// Per chunk, which of the sentence's words it holds (bit k for word k; sentences of up to
    /// 64 content words); only `touched` entries are non-zero.
    pub(super) held: &'a mut Vec<u64>,
    /// The sentence's words as bit masks, for sentences of up to 64 content words.
    masks: Option<score::WordMasks>,
    touched: Vec<u32>,
    /// The sentence's frequent words whose lists were not walked, as (word, place in the
    /// index's frequent stems): `touched` then holds only the chunks found through the other
    /// words and the cited ones.
    frequent: Vec<(usize, u32)>,
    /// The fitted model; `None` for the formula or a sentence without content words.
    learned: Option<&'a Learned>,
    /// The sentence's words as the features read them; `None` without content words.
    words: Option<SentenceWords<'a>>,
    /// The most of the sentence's words a chunk it does not cite can hold and still be sure
    /// to stay below the threshold (`Some(None)`: not even none); computed when first needed.
    held_floor: std::cell::Cell<Option<Option<usize>>>,
    /// Whether the model's bound over the features that need no positions reaches the limit,
    /// by those features (their bits, which are bounds, the limit): chunks that resemble each
    /// other give the sentence the same features, and the bound is worked out once for them.
    reaches_by_bound: std::cell::RefCell<FxHashMap<BoundKey, bool>>,
}

/// What [`Learned::highest`] reads of a pair's cheap features: each feature's bits, which
/// of them are bounds, and the limit's bits.
type BoundKey = (
    [u64; crate::report::features::COUNT],
    features::Bounded,
    u64,
);

impl<'a> Scores<'a> {
    /// With `prune`, the lists of the sentence's frequent words are not walked (see
    /// [`Scores::settled`]).
    pub(super) fn new(
        index: &'a ChunkIndex,
        sentence: &'a SentenceInput,
        shared: &'a mut Vec<u32>,
        held: &'a mut Vec<u64>,
        model: &'a Model,
        keep_features: bool,
        prune: bool,
    ) -> Self {
        let mut touched = Vec::new();
        let mut frequent = Vec::new();
        let prune = prune && sentence.words.len() <= 64;
        if sentence.words.is_empty() {
            // Numbers alone decide: a chunk scores 1 when it holds every number, else 0.
            if let Some(first) = sentence.numbers.first()
                && let Some(list) = index.numbers.get(&first.value)
            {
                for &chunk in list {
                    if sentence
                        .numbers
                        .iter()
                        .all(|n| index.holds_figure(n, chunk as usize))
                    {
                        shared[chunk as usize] = 1;
                        touched.push(chunk);
                    }
                }
            }
        } else {
            for (k, word) in sentence.words.iter().enumerate() {
                let Some(list) = index.postings.get(&word.id) else {
                    continue;
                };
                if prune && let Some(&place) = index.frequent.places.get(&word.id) {
                    frequent.push((k, place));
                    continue;
                }
                let bit = if k < 64 { 1u64 << k } else { 0 };
                for &chunk in list {
                    let slot = &mut shared[chunk as usize];
                    if *slot == 0 {
                        touched.push(chunk);
                    }
                    *slot += 1;
                    held[chunk as usize] |= bit;
                }
            }
            if !frequent.is_empty() {
                // The chunks found, and those the sentence cites, are scored in full: their
                // frequent words are read off the bits.
                let add = |chunk: usize, shared: &mut [u32], held: &mut [u64]| {
                    for &(k, place) in &frequent {
                        if index.frequent.holds(place, chunk) {
                            shared[chunk] += 1;
                            held[chunk] |= 1 << k;
                        }
                    }
                };
                for &chunk in &touched {
                    add(chunk as usize, shared, held);
                }
                for &chunk in &sentence.cited {
                    if shared[chunk] == 0 {
                        add(chunk, shared, held);
                        if shared[chunk] > 0 {
                            touched.push(chunk as u32);
                        }
                    }
                }
            }
        }
        Scores {
            index,
            sentence,
            shared,
            held,
            masks: score::WordMasks::new(&sentence.words),
            touched,
            frequent,
            learned: match model {
                Model::Learned(learned) if !sentence.words.is_empty() => Some(learned),
                _ => None,
            },
            words: (!sentence.words.is_empty()
                && (keep_features || matches!(model, Model::Learned(_))))
            .then(|| SentenceWords::new(&sentence.words)),
            held_floor: std::cell::Cell::new(None),
            reaches_by_bound: std::cell::RefCell::default(),
        }
    }

    /// Coverage of the sentence by one chunk, as used for best chunks and chunk statuses.
    pub(super) fn against(&self, chunk: usize) -> f64 {
        let denominator = self.sentence.words.len().max(1);
        f64::from(self.shared[chunk]) / denominator as f64
    }

    /// Coverage for the verdict: a sentence without content words has coverage 1, so that its
    /// numbers alone decide.
    fn cited_coverage(&self, chunk: usize) -> f64 {
        if self.sentence.words.is_empty() {
            1.0
        } else {
            self.against(chunk)
        }
    }

    /// The chunk with the highest coverage, earliest on a tie; none when nothing is shared.
    /// `touched` is in no particular order, so ties are broken by position explicitly.
    pub(super) fn best(&self) -> Option<(usize, f64)> {
        let mut best: Option<(usize, f64)> = None;
        for &chunk in &self.touched {
            let (chunk, score) = (chunk as usize, self.against(chunk as usize));
            let better = best
                .is_none_or(|(b, s)| score > s + EPSILON || (score + EPSILON >= s && chunk < b));
            if better {
                best = Some((chunk, score));
            }
        }
        best
    }

    /// Support of the sentence by one chunk (see [`score`]), as used for suggestions and chunk
    /// statuses: for a sentence without content words, 1 when the chunk holds all its numbers.
    pub(super) fn support(&self, chunk: usize) -> f64 {
        if self.sentence.words.is_empty() || self.shared[chunk] == 0 {
            return self.against(chunk);
        }
        if let Some(learned) = self.learned {
            let missing = self.numbers_missing_from(chunk);
            return learned.score(&self.features(chunk, false, missing));
        }
        score::support(
            &self.sentence.words,
            chunk as u32,
            |k| self.holds(k, chunk),
            |k| self.holds(k, chunk),
            &self.index.positions,
        )
    }

    /// Support for the verdict: a sentence without content words has support 1, so that its
    /// numbers alone decide.
    fn cited_support(&self, chunk: usize, missing_numbers: usize) -> f64 {
        if self.sentence.words.is_empty() {
            return 1.0;
        }
        if self.shared[chunk] == 0 {
            return 0.0;
        }
        if let Some(learned) = self.learned {
            return learned.score(&self.features(chunk, true, missing_numbers));
        }
        // A name is missing when no cited chunk names it: a sentence may take its names from
        // several of the chunks it cites.
        score::support(
            &self.sentence.words,
            chunk as u32,
            |k| self.holds(k, chunk),
            |k| self.sentence.cited.iter().any(|&c| self.holds(k, c)),
            &self.index.positions,
        )
    }

    /// The features of the sentence and `chunk`. With `cited`, names count as found when any
    /// cited chunk holds them, else when this one does; `missing_numbers` is how many numbers
    /// count as missing.
    pub(super) fn features(&self, chunk: usize, cited: bool, missing_numbers: usize) -> Features {
        let (mut features, bounded) = self.cheap_features(chunk, cited, missing_numbers);
        if let Some(words) = &self.words {
            let holds = |k: usize| self.holds(k, chunk);
            let pair = self.pair(chunk, holds, 0);
            features.complete(&bounded, words, &pair, &self.index.positions);
        }
        features
    }

    /// The features that need no positions, with upper bounds for the others (marked).
    fn cheap_features(
        &self,
        chunk: usize,
        cited: bool,
        missing_numbers: usize,
    ) -> (Features, features::Bounded) {
        let Some(words) = &self.words else {
            return (Features::default(), features::Bounded::default());
        };
        let holds = |k: usize| self.holds(k, chunk);
        let pair = self.pair(chunk, holds, missing_numbers);
        if cited {
            let named = |k: usize| self.sentence.cited.iter().any(|&c| self.holds(k, c));
            let pair = Pair {
                named,
                chunk: pair.chunk,
                held: pair.held,
                missing_numbers: pair.missing_numbers,
                matched_numbers: pair.matched_numbers,
                chunk_words: pair.chunk_words,
            };
            Features::cheap(words, &pair)
        } else {
            Features::cheap(words, &pair)
        }
    }

    /// Whether the fitted model's score of `chunk` (names as for a cited chunk with `cited`,
    /// numbers counting as found) reaches `limit`: most chunks are ruled out by the bound of
    /// the features that need no positions.
    fn learned_reaches(&self, learned: &Learned, chunk: usize, cited: bool, limit: f64) -> bool {
        let n = self.sentence.words.len();
        if !cited
            && n <= 64
            && let Some(words) = &self.words
        {
            // One comparison for most chunks: those holding few of the sentence's words.
            let floor = self.floor(learned, words, limit);
            let held = self.held[chunk].count_ones() as usize;
            if floor.is_some_and(|floor| held <= floor) {
                return false;
            }
        }
        let (high, bounded) = self.cheap_features(chunk, cited, 0);
        let key = (high.0.map(f64::to_bits), bounded, limit.to_bits());
        let known = self.reaches_by_bound.borrow().get(&key).copied();
        let may_reach = known.unwrap_or_else(|| {
            let mut low = high;
            for (k, value) in low.0.iter_mut().enumerate() {
                if bounded.at(k) {
                    *value = 0.0;
                }
            }
            let may_reach = learned.highest(&low, &high) >= limit;
            self.reaches_by_bound.borrow_mut().insert(key, may_reach);
            may_reach
        });
        if !may_reach {
            return false;
        }
        learned.score(&self.features(chunk, cited, 0)) >= limit
    }

    /// The largest count of held words up to which no chunk the sentence does not cite can
    /// reach `limit`: the highest score over every feature's range for the counts 0 to `h`
    /// grows with `h` (the ranges nest), so a binary search finds it in a few evaluations.
    fn held_floor(&self, learned: &Learned, words: &SentenceWords, limit: f64) -> Option<usize> {
        let distinct: FxHashSet<_> = self.sentence.numbers.iter().map(|n| &n.value).collect();
        let n = self.sentence.words.len();
        let ranges: Vec<(Features, Features)> = (0..=n)
            .map(|h| words.held_range(h, distinct.len(), self.index.length_range))
            .collect();
        // Whether every count from 0 to `h` stays below the limit.
        let below = |h: usize| {
            let (mut low, mut high) = ranges[0];
            for (l, u) in &ranges[1..=h] {
                for k in 0..features::COUNT {
                    low.0[k] = low.0[k].min(l.0[k]);
                    high.0[k] = high.0[k].max(u.0[k]);
                }
            }
            learned.highest(&low, &high) < limit
        };
        if !below(0) {
            return None;
        }
        let (mut good, mut bad) = (0, n + 1);
        while bad - good > 1 {
            let middle = good + (bad - good) / 2;
            if below(middle) {
                good = middle;
            } else {
                bad = middle;
            }
        }
        Some(good)
    }

    /// A pair for the features, names counting as found when this chunk holds them.
    fn pair<H: Fn(usize) -> bool + Copy>(
        &self,
        chunk: usize,
        holds: H,
        missing_numbers: usize,
    ) -> Pair<H, H> {
        let mut seen = FxHashSet::default();
        let matched_numbers = self
            .sentence
            .numbers
            .iter()
            .filter(|n| seen.insert(&n.value) && self.index.holds_value_of(n, chunk))
            .count();
        Pair {
            chunk: chunk as u32,
            held: holds,
            named: holds,
            missing_numbers,
            matched_numbers,
            chunk_words: self.index.lengths[chunk],
        }
    }

    /// How many distinct numbers of the sentence `chunk` lacks.
    fn numbers_missing_from(&self, chunk: usize) -> usize {
        let mut seen = HashSet::new();
        self.sentence
            .numbers
            .iter()
            .filter(|n| seen.insert(&n.value) && !self.index.holds_figure(n, chunk))
            .count()
    }

    /// Numbers of the sentence that no cited chunk holds, each value once, and those of them
    /// that one step of arithmetic over the cited chunks' figures gives (see [`derived`]),
    /// which are not missing. `is_cited` flags the cited chunks, so that a value is looked up
    /// by whichever list is shorter.
    pub(super) fn missing_numbers(&self, is_cited: &[bool]) -> (Vec<String>, Vec<Derived>) {
        let cited = &self.sentence.cited;
        let held = |value: &crate::words::NumberValue| {
            let holders = self.index.numbers.get(value).map_or(&[][..], Vec::as_slice);
            if holders.len() <= cited.len() {
                holders.iter().any(|&c| is_cited[c as usize])
            } else {
                cited
                    .iter()
                    .any(|&c| holders.binary_search(&(c as u32)).is_ok())
            }
        };
        let mut seen = FxHashSet::default();
        let missing: Vec<&crate::words::Number> = self
            .sentence
            .numbers
            .iter()
            .filter(|n| seen.insert(&n.value))
            .filter(|n| match n.role {
                Role::Name => false,
                // A label is missing when a cited chunk writes its word with another number.
                Role::Label => !held(&n.value) && n.label_word().is_some_and(|word| held(&word)),
                Role::Figure => !held(&n.value) && !n.also.iter().any(held),
            })
            .collect();
        if missing.is_empty() {
            return (Vec::new(), Vec::new());
        }
        // The cited chunks' figures together, unless one of them holds too many.
        let figures = cited
            .iter()
            .map(|&c| self.index.figures[c].as_deref())
            .collect::<Option<Vec<&[f64]>>>()
            .filter(|all| all.iter().map(|f| f.len()).sum::<usize>() <= derived::MAX_OPERANDS)
            .map(|all| derived::operands(all.into_iter().flatten().copied()))
            .unwrap_or_default();
        // The figures the sentence writes that its cited chunks hold, when it shows its
        // arithmetic (an `=`, `×` or `*`).
        let shows = self.sentence.text.contains(['=', '×', '*']);
        let stated: Vec<f64> = self
            .sentence
            .numbers
            .iter()
            .filter(|n| shows && n.role == Role::Figure && held(&n.value))
            .chain(self.sentence.context.iter().filter(|_| shows))
            .filter_map(|n| derived::operand(&n.value))
            .collect();
        // Chunks with too many figures to search still give the sentence's own.
        let figures = if figures.is_empty() {
            derived::operands(stated.iter().copied())
        } else {
            figures
        };
        let mut derivations = Vec::new();
        let mut left = Vec::new();
        // The cited chunks' times of day, for durations.
        let mut times: Vec<f64> = cited
            .iter()
            .flat_map(|&c| self.index.times[c].iter().copied())
            .collect();
        times.sort_by(f64::total_cmp);
        times.dedup();
        let unit_after = |n: &crate::words::Number| {
            self.sentence
                .text
                .get(n.span.end..)
                .and_then(|rest| rest.split_whitespace().next())
                .map(|w| w.trim_end_matches(|c: char| !c.is_alphabetic()))
                .unwrap_or("")
        };
        for n in missing {
            let found = derived::derive(n, &figures, &stated)
                .or_else(|| derived::duration(n, unit_after(n), &times))
                .map(|d| d.to_string())
                .or_else(|| self.rounded_by_sentence(n, &held));
            match found {
                Some(how) => derivations.push(Derived {
                    number: n.text.clone(),
                    how,
                }),
                None => left.push(n.text.clone()),
            }
        }
        (left, derivations)
    }

    /// A figure the sentence gives as approximate (`around 189 pounds`, `about 13%`) that a
    /// cited chunk gives more exactly (`188.6 lb`): the chunk's figure rounded to the last
    /// digit the sentence writes. `held` tells a value a cited chunk holds.
    fn rounded_by_sentence(
        &self,
        n: &crate::words::Number,
        held: &impl Fn(&crate::words::NumberValue) -> bool,
    ) -> Option<String> {
        const HEDGES: &[&str] = &[
            "about",
            "around",
            "approximately",
            "approx",
            "roughly",
            "nearly",
            "almost",
            "circa",
            "some",
            "~",
        ];
        if n.role != Role::Figure || n.value.kind() != crate::words::Kind::Quantity {
            return None;
        }
        let before = self.sentence.text.get(..n.span.start)?.trim_end();
        let before = before.trim_end_matches(['$', '£', '€']).trim_end();
        let word = before
            .rsplit(|c: char| c.is_whitespace())
            .next()
            .unwrap_or("")
            .trim_start_matches(['(', '"'])
            .trim_end_matches('.')
            .to_ascii_lowercase();
        if !HEDGES.contains(&word.as_str()) {
            return None;
        }
        let target = n.value.as_f64()?;
        let tolerance = 0.5 * 10f64.powi(n.precision.clamp(-12, 12) as i32);
        let mut found: Option<f64> = None;
        for value in self.index.numbers.keys() {
            if let Some(x) = value.as_f64()
                && x != target
                && (x - target).abs() <= tolerance * (1.0 + 1e-9)
                && held(value)
                && found.is_none_or(|f| (x - target).abs() < (f - target).abs())
            {
                found = Some(x);
            }
        }
        found.map(|x| format!("{x} \u{2248} {}", n.text))
    }

    /// Whether the chunks left out by not walking the frequent words' lists change nothing
    /// but chunks' best coverage (which the judge defers): each of them holds at most as many
    /// of the sentence's words as it has frequent ones, so it is not the best chunk when a
    /// chunk found holds more, and supports the sentence in no chunk status when that count
    /// cannot reach the threshold (none of them is cited).
    pub(super) fn settled(&self, threshold: f64) -> bool {
        let most = self.frequent.len();
        if most == 0 {
            return true;
        }
        let top = self
            .touched
            .iter()
            .map(|&c| self.shared[c as usize] as usize)
            .max()
            .unwrap_or(0);
        if top <= most {
            return false;
        }
        let limit = threshold - EPSILON;
        match (self.learned, &self.words, &self.masks) {
            (Some(learned), Some(words), _) => self
                .floor(learned, words, limit)
                .is_some_and(|floor| most <= floor),
            (None, _, Some(masks)) => masks.most_with(&self.sentence.words, most) < limit,
            _ => false,
        }
    }

    /// Walks the lists of the frequent words left out, so that every chunk that shares a
    /// word with the sentence is found; the chunks found before hold those words already.
    fn walk_frequent(&mut self) {
        for (k, place) in std::mem::take(&mut self.frequent) {
            let stem = self.index.frequent.stems[place as usize];
            let bit = 1u64 << k;
            for &chunk in &self.index.postings[&stem] {
                let chunk = chunk as usize;
                if self.held[chunk] & bit != 0 {
                    continue;
                }
                if self.shared[chunk] == 0 {
                    self.touched.push(chunk as u32);
                }
                self.shared[chunk] += 1;
                self.held[chunk] |= bit;
            }
        }
    }

    /// The chunks left out, for [`Deferred`]: the places of the frequent words.
    pub(super) fn left_out(&self) -> Option<Deferred> {
        (!self.frequent.is_empty()).then(|| Deferred {
            words: self.sentence.words.len(),
            places: self.frequent.iter().map(|&(_, place)| place).collect(),
        })
    }

    /// [`Scores::held_floor`], computed once per sentence.
    fn floor(&self, learned: &Learned, words: &SentenceWords, limit: f64) -> Option<usize> {
        match self.held_floor.get() {
            Some(floor) => floor,
            None => {
                let floor = self.held_floor(learned, words, limit);
                self.held_floor.set(Some(floor));
                floor
            }
        }
    }

    fn clear(self) {
        for chunk in self.touched {
            self.shared[chunk as usize] = 0;
            self.held[chunk as usize] = 0;
        }
    }

    /// Whether `chunk` holds the sentence's word `k`.
    pub(super) fn holds(&self, k: usize, chunk: usize) -> bool {
        if self.sentence.words.len() <= 64 {
            self.held[chunk] & (1 << k) != 0
        } else {
            self.index.holds_word(self.sentence.words[k].id, chunk)
        }
    }

    /// Whether the support of `chunk` reaches `threshold`: [`Scores::cited_support`] for a
    /// chunk the sentence cites, else [`Scores::support`], most often decided without positions.
    pub(super) fn support_reaches(&self, chunk: usize, threshold: f64, cited: bool) -> bool {
        if self.sentence.words.is_empty() || self.shared[chunk] == 0 {
            let score = if cited {
                self.cited_support(chunk, 0)
            } else {
                self.against(chunk)
            };
            return score >= threshold - EPSILON;
        }
        if let Some(learned) = self.learned {
            return self.learned_reaches(learned, chunk, cited, threshold - EPSILON);
        }
        if !cited && let Some(masks) = &self.masks {
            return masks.reaches(
                &self.sentence.words,
                chunk as u32,
                self.held[chunk],
                &self.index.positions,
                threshold - EPSILON,
            );
        }
        let holds = |k: usize| self.holds(k, chunk);
        let cited_holds = |k: usize| self.sentence.cited.iter().any(|&c| self.holds(k, c));
        let positions = &self.index.positions;
        let (words, limit) = (&self.sentence.words, threshold - EPSILON);
        if cited {
            score::support_reaches(words, chunk as u32, holds, cited_holds, positions, limit)
        } else {
            score::support_reaches(words, chunk as u32, holds, holds, positions, limit)
        }
    }
}
