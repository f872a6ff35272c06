//! What a judge may skip without changing a result: the lists of a sentence's frequent words
//! (the chunks they alone would find are settled at the end, for their best coverage), and a
//! claim written again (tallied as its first time).

use rustc_hash::FxHashMap;

use super::*;

/// A claim whose frequent words' lists were not walked: the chunks that share only those
/// words with it are left out of its search, and their best coverage is settled at the end
/// by [`add_deferred`], for all such claims at once.
#[derive(Debug)]
pub(in crate::support) struct Deferred {
    /// The claim's content words.
    pub(super) words: usize,
    /// Its frequent words, as places in the index's frequent stems.
    pub(super) places: Vec<u32>,
}

/// Adds to the chunks' best coverage what the deferred claims give them: a chunk that holds
/// `h` of a claim's frequent words is covered `h / words`. A frequent word bounds what every
/// claim holding it can give (its share of frequent words); a chunk whose best coverage is
/// already that high for each of its frequent words is not looked at again, and the others
/// look at the claims of their frequent words, best bound first, until none can do better.
pub(in crate::support) fn add_deferred(
    index: &ChunkIndex,
    tallies: &mut [ChunkTally],
    deferred: &[Deferred],
    deadline: &Deadline,
) {
    if deferred.is_empty() {
        return;
    }
    let frequent = &index.frequent;
    let most = |d: &Deferred| f64::from(d.places.len() as u32) / d.words as f64;
    let mut bounds = vec![0.0f64; frequent.stems.len()];
    let mut claims: Vec<Vec<u32>> = vec![Vec::new(); frequent.stems.len()];
    for (k, d) in (0u32..).zip(deferred) {
        for &place in &d.places {
            bounds[place as usize] = bounds[place as usize].max(most(d));
            claims[place as usize].push(k);
        }
    }
    for list in &mut claims {
        list.sort_by(|&a, &b| most(&deferred[b as usize]).total_cmp(&most(&deferred[a as usize])));
    }
    let mut chunk_bounds = vec![0.0f64; tallies.len()];
    for (place, stem) in frequent.stems.iter().enumerate() {
        if bounds[place] > 0.0 {
            for &chunk in &index.postings[stem] {
                let bound = &mut chunk_bounds[chunk as usize];
                *bound = bound.max(bounds[place]);
            }
        }
    }
    let mut looks = Every::<64>::new(deadline);
    for (chunk, tally) in tallies.iter_mut().enumerate() {
        if looks.passed() {
            return; // the check gives no result
        }
        if chunk_bounds[chunk] <= tally.best_coverage {
            continue;
        }
        let mut best = tally.best_coverage;
        for (place, list) in claims.iter().enumerate() {
            if bounds[place] <= best || !frequent.holds(place as u32, chunk) {
                continue;
            }
            for &k in list {
                let d = &deferred[k as usize];
                if most(d) <= best {
                    break;
                }
                let held = d
                    .places
                    .iter()
                    .filter(|&&p| frequent.holds(p, chunk))
                    .count();
                best = best.max(f64::from(held as u32) / d.words as f64);
            }
        }
        tally.best_coverage = best;
    }
}

/// Whether judges take their shortcuts (see [`Judge::shortcuts`]): always, except in a test
/// that turns them off on its thread.
pub(in crate::support) fn shortcuts() -> bool {
    #[cfg(test)]
    {
        SHORTCUTS.with(std::cell::Cell::get)
    }
    #[cfg(not(test))]
    {
        true
    }
}

#[cfg(test)]
thread_local! {
    pub(crate) static SHORTCUTS: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

/// Adds a claim judged before (`earlier`) to the chunk tallies again: the chunks it does
/// not cite that supported it, and the chunks either of them cites judged as the verdict
/// judges them. A chunk that shares no word with the claim, or that its search left out,
/// supports it in no case, nor does the chunk that contradicts it (`contradicting`).
pub(super) fn tally_again(
    tallies: &mut [ChunkTally],
    is_cited: &[bool],
    threshold: f64,
    scores: &Scores,
    earlier: &Claim,
    contradicting: Option<usize>,
) {
    for &chunk in &earlier.reached {
        if !is_cited[chunk as usize] {
            tallies[chunk as usize].supported_sentences += 1;
        }
    }
    let again = earlier.cited.iter().map(|&c| (c, false));
    for (chunk, cited) in again.chain(scores.sentence.cited.iter().map(|&c| (c, true))) {
        if is_cited[chunk] != cited || scores.shared[chunk] == 0 || contradicting == Some(chunk) {
            continue;
        }
        if scores.support_reaches(chunk, threshold, cited) {
            let tally = &mut tallies[chunk];
            tally.supported_sentences += 1;
            tally.supports_a_citing_sentence |= cited;
        }
    }
}

/// Claims judged so far, each distinct one once, with the chunks it does not cite that support
/// it. A claim written again (the same words and numbers, whatever it cites) gives every chunk
/// the same coverage, so the chunks' best coverage stays as it is, and it is supported by the
/// same chunks it does not cite: its tally is the earlier one's, and only the chunks either of
/// them cites are judged again.
#[derive(Default)]
pub(super) struct Claims {
    /// Each claim's place in `seen`, by a hash of its words and numbers.
    places: FxHashMap<u64, Vec<usize>>,
    pub(super) seen: Vec<Claim>,
}

pub(super) struct Claim {
    words: Vec<crate::words::Word>,
    numbers: Vec<crate::words::NumberValue>,
    cited: Vec<usize>,
    /// The chunks it does not cite that support it.
    reached: Vec<u32>,
}

impl Claims {
    fn key(sentence: &SentenceInput) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = rustc_hash::FxHasher::default();
        for w in &sentence.words {
            (w.id, w.position, w.general, w.name, w.negated).hash(&mut hasher);
        }
        for n in &sentence.numbers {
            n.value.hash(&mut hasher);
        }
        hasher.finish()
    }

    /// The place of an earlier claim with the same words and numbers.
    pub(super) fn seen(&self, sentence: &SentenceInput) -> Option<usize> {
        self.places
            .get(&Claims::key(sentence))?
            .iter()
            .copied()
            .find(|&k| {
                let claim = &self.seen[k];
                claim.words == sentence.words
                    && claim.numbers.len() == sentence.numbers.len()
                    && claim
                        .numbers
                        .iter()
                        .zip(&sentence.numbers)
                        .all(|(a, b)| *a == b.value)
            })
    }

    pub(super) fn remember(&mut self, sentence: &SentenceInput, reached: Vec<u32>) {
        self.places
            .entry(Claims::key(sentence))
            .or_default()
            .push(self.seen.len());
        self.seen.push(Claim {
            words: sentence.words.clone(),
            numbers: sentence.numbers.iter().map(|n| n.value.clone()).collect(),
            cited: sentence.cited.clone(),
            reached,
        });
    }
}
