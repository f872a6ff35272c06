//! The chunks a sentence cites, scored alone and together: each one's support (ALCE's
//! citation precision: does this citation add anything?), and the support of all of them
//! (ALCE's citation recall: a sentence may take its words from several of its sources).

use crate::report::{CitationFinding, CitedChunk};

use super::*;

/// One cited chunk's scores.
pub(in crate::support) struct CitedScore {
    /// Its position among the chunks.
    pub(in crate::support) chunk: usize,
    /// Its support alone.
    pub(in crate::support) support: f64,
    /// Its support alone, numbers counting as found.
    pub(in crate::support) words_support: f64,
    /// The same without the negation feature.
    pub(in crate::support) unflipped_support: f64,
    /// Its features (the fitted model only).
    features: Option<Features>,
}

/// The cited chunks' scores, alone and together.
pub(in crate::support) struct CitedScores {
    pub(in crate::support) each: Vec<CitedScore>,
    /// The chunk with the best support alone, earliest on a tie; none when the sentence has no
    /// content words or cites nothing.
    pub(in crate::support) deciding: Option<usize>,
    /// The sentence's support: the best of each chunk alone and of all of them together.
    pub(in crate::support) support: f64,
    /// The same, numbers counting as found (rule 3 looks at the words alone).
    pub(in crate::support) words_support: f64,
    /// The same, without the negation feature.
    pub(in crate::support) unflipped_support: f64,
    /// The features the support was scored from (the fitted model only).
    pub(in crate::support) features: Option<Features>,
}

impl Scores<'_> {
    /// Scores the cited chunks alone and, with the fitted model and two or more of them,
    /// together; `missing_numbers` is how many numbers no cited chunk holds. Past the
    /// deadline, the chunks left are not scored (the check gives no result).
    pub(in crate::support) fn cited_scores(
        &self,
        missing_numbers: usize,
        model: &Model,
        deadline: &Deadline,
    ) -> CitedScores {
        let cited = &self.sentence.cited;
        let learned = self.learned;
        let mut each = Vec::with_capacity(cited.len());
        for &chunk in cited {
            if deadline.passed() {
                break;
            }
            let score = match learned {
                Some(learned) => {
                    let features = self.features(chunk, true, missing_numbers);
                    // A chunk that shares no word with the sentence supports it not at all;
                    // its features still explain why.
                    let score = |f: Features| {
                        if self.shared[chunk] == 0 {
                            0.0
                        } else {
                            learned.score(&f)
                        }
                    };
                    CitedScore {
                        chunk,
                        support: score(features),
                        words_support: score(features.numbers_found()),
                        unflipped_support: score(features.numbers_found().unflipped()),
                        features: Some(features),
                    }
                }
                None => {
                    let support = self.cited_support(chunk, missing_numbers);
                    let factor = match model {
                        Model::Formula => score::missing_numbers_factor(missing_numbers),
                        Model::Learned(_) => 1.0,
                    };
                    CitedScore {
                        chunk,
                        support: support * factor,
                        words_support: support,
                        unflipped_support: support,
                        features: None,
                    }
                }
            };
            each.push(score);
        }
        // The best alone, the earliest on a tie.
        let best = each
            .iter()
            .fold(None, |best: Option<&CitedScore>, c| match best {
                Some(b) if b.support >= c.support => Some(b),
                _ => Some(c),
            });
        let mut scores = CitedScores {
            deciding: best
                .filter(|_| !self.sentence.words.is_empty())
                .map(|c| c.chunk),
            support: best.map_or(0.0, |c| c.support),
            words_support: best.map_or(0.0, |c| c.words_support),
            unflipped_support: 0.0,
            features: best.and_then(|c| c.features),
            each: Vec::new(),
        };
        scores.unflipped_support = each
            .iter()
            .map(|c| c.unflipped_support)
            .fold(scores.words_support, f64::max);
        if let Some(learned) = learned
            && each.len() >= 2
            && each.iter().all(|c| c.features.is_some() && c.support > 0.0)
        {
            let all: Vec<Features> = each.iter().filter_map(|c| c.features).collect();
            let union = Features::union(&self.together(missing_numbers), &all);
            let support = learned.score(&union);
            if support > scores.support {
                scores.support = support;
                scores.features = Some(union);
            }
            scores.words_support = scores
                .words_support
                .max(learned.score(&union.numbers_found()));
            scores.unflipped_support = scores
                .unflipped_support
                .max(learned.score(&union.numbers_found().unflipped()));
        }
        scores.each = each;
        scores
    }

    /// The features that need no positions with the cited chunks taken together: a word is
    /// held when any of them holds it (positions are filled in by [`Features::union`]).
    fn together(&self, missing_numbers: usize) -> Features {
        let Some(words) = &self.words else {
            return Features([0.0; features::COUNT]);
        };
        let cited = &self.sentence.cited;
        let held = |k: usize| cited.iter().any(|&c| self.holds(k, c));
        let mut seen = FxHashSet::default();
        let matched_numbers = self
            .sentence
            .numbers
            .iter()
            .filter(|n| {
                seen.insert(&n.value) && cited.iter().any(|&c| self.index.holds_number(&n.value, c))
            })
            .count();
        let pair = Pair {
            chunk: cited[0] as u32,
            held,
            named: held,
            missing_numbers,
            matched_numbers,
            chunk_words: 0,
        };
        Features::cheap(words, &pair).0
    }

    /// One cited chunk judged on its own: it supports the sentence, partly supports it, or
    /// adds nothing the other cited chunks do not hold.
    pub(in crate::support) fn cited_chunk(
        &self,
        cited: &CitedScore,
        threshold: f64,
        id: String,
    ) -> CitedChunk {
        let others = |k: usize| {
            self.sentence
                .cited
                .iter()
                .any(|&c| c != cited.chunk && self.holds(k, c))
        };
        let adds: Vec<String> = (0..self.sentence.words.len())
            .filter(|&k| self.holds(k, cited.chunk) && !others(k))
            .map(|k| self.sentence.words[k].surface.clone())
            .collect();
        let finding = if reaches(cited.support, threshold) {
            CitationFinding::Supports
        } else if !adds.is_empty() || reaches(cited.support, threshold * UNSUPPORTED_BELOW) {
            CitationFinding::Partly
        } else {
            CitationFinding::AddsNothing
        };
        CitedChunk {
            chunk: id,
            finding,
            support: cited.support,
            adds,
        }
    }

    /// Content words of the sentence that none of its cited chunks holds, as written.
    pub(in crate::support) fn missing_from_cited(&self) -> Vec<String> {
        let cited = &self.sentence.cited;
        crate::words::joined_surfaces(
            (0..self.sentence.words.len())
                .filter(|&k| !cited.iter().any(|&c| self.holds(k, c)))
                .map(|k| &self.sentence.words[k]),
        )
    }
}
