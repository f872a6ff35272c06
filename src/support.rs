//! Support stage: indexes the chunks' words once, scores every sentence against the chunks
//! through that index, and decides verdicts, suggested citations and chunk statuses.

use std::collections::{HashMap, HashSet};

use crate::input::Chunk;
use crate::report::{
    ChunkResult, ChunkStatus, CheckResult, Counts, SentenceResult, Span, Verdict, preview,
};
use crate::sentence::SentenceSpan;
use crate::words::{Analyzer, Number, NumberValue, Word, numbers};

/// Allowance for floating-point error when a score is compared with the threshold.
const EPSILON: f64 = 1e-9;

/// A suggested citation must beat the sentence's own coverage by this much.
const SUGGESTION_MARGIN: f64 = 0.2;

/// Length of a chunk's preview, in characters.
const PREVIEW_CHARS: usize = 80;

/// The chunks' content words and numbers, indexed once: for each stem and each number value,
/// the chunks (positions, ascending) that hold it. Scoring a sentence walks the lists of its
/// own words only, never every chunk's words.
#[derive(Debug, Default)]
pub struct ChunkIndex {
    stem_ids: HashMap<String, u32>,
    postings: Vec<Vec<u32>>,
    numbers: HashMap<NumberValue, Vec<u32>>,
    len: usize,
}

impl ChunkIndex {
    pub fn build(chunks: &[Chunk], analyzer: &Analyzer) -> Self {
        let mut index = ChunkIndex {
            len: chunks.len(),
            ..ChunkIndex::default()
        };
        for (position, chunk) in chunks.iter().enumerate() {
            let position = position as u32;
            let found = numbers(&chunk.text);
            let mut stems: Vec<String> = analyzer.stems(&chunk.text, &found).into_iter().collect();
            // Sorted so that stem ids, and so everything after, do not depend on hash order.
            stems.sort_unstable();
            for stem in stems {
                let next_id = index.postings.len() as u32;
                let id = *index.stem_ids.entry(stem).or_insert(next_id);
                if id == next_id {
                    index.postings.push(Vec::new());
                }
                index.postings[id as usize].push(position);
            }
            let values: HashSet<NumberValue> = found.into_iter().map(|n| n.value).collect();
            for value in values {
                index.numbers.entry(value).or_default().push(position);
            }
        }
        for list in index.numbers.values_mut() {
            list.sort_unstable();
        }
        index
    }

    fn holds_word(&self, stem_id: Option<u32>, chunk: usize) -> bool {
        stem_id.is_some_and(|id| {
            self.postings[id as usize]
                .binary_search(&(chunk as u32))
                .is_ok()
        })
    }

    fn holds_number(&self, value: &NumberValue, chunk: usize) -> bool {
        self.numbers
            .get(value)
            .is_some_and(|list| list.binary_search(&(chunk as u32)).is_ok())
    }
}

/// A sentence after the marker and words stages: what support needs to judge it.
#[derive(Debug, Clone)]
pub struct SentenceInput {
    pub position: SentenceSpan,
    /// The sentence as written.
    pub text: String,
    /// Marker labels, each once, in order.
    pub labels: Vec<String>,
    /// Positions of the chunks the labels resolve to, each once, in order.
    pub cited: Vec<usize>,
    /// Labels that resolve to nothing.
    pub unknown: Vec<String>,
    pub words: Vec<Word>,
    pub numbers: Vec<Number>,
}

/// How one sentence scores against every chunk, gathered through the index.
struct Scores<'a> {
    index: &'a ChunkIndex,
    sentence: &'a SentenceInput,
    stem_ids: Vec<Option<u32>>,
    /// Shared words per chunk; only `touched` entries are non-zero.
    shared: &'a mut Vec<u32>,
    touched: Vec<u32>,
}

impl<'a> Scores<'a> {
    fn new(index: &'a ChunkIndex, sentence: &'a SentenceInput, shared: &'a mut Vec<u32>) -> Self {
        let stem_ids: Vec<Option<u32>> = sentence
            .words
            .iter()
            .map(|w| index.stem_ids.get(&w.stem).copied())
            .collect();
        let mut touched = Vec::new();
        if sentence.words.is_empty() {
            // Numbers alone decide: a chunk scores 1 when it holds every number, else 0.
            if let Some(first) = sentence.numbers.first()
                && let Some(list) = index.numbers.get(&first.value)
            {
                for &chunk in list {
                    if sentence
                        .numbers
                        .iter()
                        .all(|n| index.holds_number(&n.value, chunk as usize))
                    {
                        shared[chunk as usize] = 1;
                        touched.push(chunk);
                    }
                }
            }
        } else {
            for id in stem_ids.iter().flatten() {
                for &chunk in &index.postings[*id as usize] {
                    let slot = &mut shared[chunk as usize];
                    if *slot == 0 {
                        touched.push(chunk);
                    }
                    *slot += 1;
                }
            }
        }
        touched.sort_unstable();
        Scores {
            index,
            sentence,
            stem_ids,
            shared,
            touched,
        }
    }

    /// Coverage of the sentence by one chunk, as used for best chunks and chunk statuses.
    fn against(&self, chunk: usize) -> f64 {
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
    fn best(&self) -> Option<(usize, f64)> {
        let mut best: Option<(usize, f64)> = None;
        for &chunk in &self.touched {
            let score = self.against(chunk as usize);
            if best.is_none_or(|(_, b)| score > b + EPSILON) {
                best = Some((chunk as usize, score));
            }
        }
        best
    }

    fn missing_words(&self, chunk: usize) -> Vec<String> {
        self.sentence
            .words
            .iter()
            .zip(&self.stem_ids)
            .filter(|(_, id)| !self.index.holds_word(**id, chunk))
            .map(|(w, _)| w.surface.clone())
            .collect()
    }

    fn missing_numbers(&self) -> Vec<String> {
        let mut seen = HashSet::new();
        self.sentence
            .numbers
            .iter()
            .filter(|n| seen.insert(&n.value))
            .filter(|n| {
                !self
                    .sentence
                    .cited
                    .iter()
                    .any(|&c| self.index.holds_number(&n.value, c))
            })
            .map(|n| n.text.clone())
            .collect()
    }

    fn clear(self) {
        for chunk in self.touched {
            self.shared[chunk as usize] = 0;
        }
    }
}

/// Per-chunk tallies gathered while sentences are judged.
#[derive(Debug, Clone, Default)]
struct ChunkTally {
    times_cited: usize,
    supported_sentences: usize,
    best_coverage: f64,
    supports_a_citing_sentence: bool,
}

/// Judges every sentence and every chunk.
pub fn assess(sentences: Vec<SentenceInput>, chunks: &[Chunk], index: &ChunkIndex, threshold: f64) -> CheckResult {
    let mut shared = vec![0u32; index.len];
    let mut tallies = vec![ChunkTally::default(); chunks.len()];
    let mut unknown_markers: Vec<String> = Vec::new();
    let mut results = Vec::with_capacity(sentences.len());
    let reaches = |score: f64, limit: f64| score >= limit - EPSILON;

    for (k, sentence) in sentences.iter().enumerate() {
        let scores = Scores::new(index, sentence, &mut shared);
        let best_cited = sentence
            .cited
            .iter()
            .map(|&c| (c, scores.cited_coverage(c)))
            .fold(None, |best: Option<(usize, f64)>, (c, score)| match best {
                Some((b, s)) if s + EPSILON >= score && (s > score + EPSILON || b < c) => {
                    Some((b, s))
                }
                _ => Some((c, score)),
            });
        let coverage = best_cited.map_or(0.0, |(_, s)| s);
        let missing_numbers = if sentence.cited.is_empty() {
            Vec::new()
        } else {
            scores.missing_numbers()
        };
        let has_claim_words = !sentence.words.is_empty() || !sentence.numbers.is_empty();
        let verdict = if sentence.labels.is_empty() {
            if sentence.words.len() >= 3 || !sentence.numbers.is_empty() {
                Verdict::UncitedClaim
            } else {
                Verdict::NoClaim
            }
        } else if !has_claim_words {
            Verdict::NoClaim
        } else if sentence.cited.is_empty() || !reaches(coverage, threshold / 2.0) {
            Verdict::UnsupportedCitation
        } else if !missing_numbers.is_empty() {
            Verdict::NumberMismatch
        } else if !reaches(coverage, threshold) {
            Verdict::WeakSupport
        } else {
            Verdict::Supported
        };

        let best = if has_claim_words { scores.best() } else { None };
        let suggested = best.filter(|&(chunk, score)| {
            verdict.is_claim()
                && !sentence.cited.contains(&chunk)
                && reaches(score, threshold)
                && reaches(score, coverage + SUGGESTION_MARGIN)
        });

        for &c in &sentence.cited {
            tallies[c].times_cited += 1;
        }
        if verdict.is_claim() {
            for &chunk in &scores.touched {
                let chunk = chunk as usize;
                let score = scores.against(chunk);
                let tally = &mut tallies[chunk];
                tally.best_coverage = tally.best_coverage.max(score);
                if reaches(score, threshold) {
                    tally.supported_sentences += 1;
                    if sentence.cited.contains(&chunk) {
                        tally.supports_a_citing_sentence = true;
                    }
                }
            }
        }
        for label in &sentence.unknown {
            if !unknown_markers.contains(label) {
                unknown_markers.push(label.clone());
            }
        }

        results.push(SentenceResult {
            index: k + 1,
            sentence: sentence.text.clone(),
            markers: sentence.labels.clone(),
            cited: sentence.cited.iter().map(|&c| chunks[c].id.clone()).collect(),
            verdict,
            coverage,
            check_worthy: sentence.numbers.iter().map(|n| n.text.clone()).collect(),
            missing_numbers,
            best_chunk: best.map(|(c, _)| chunks[c].id.clone()),
            best_coverage: best.map_or(0.0, |(_, s)| s),
            suggested_citation: suggested.map(|(c, _)| chunks[c].id.clone()),
            unknown_markers: sentence.unknown.clone(),
            missing_words: best_cited
                .filter(|_| !sentence.words.is_empty())
                .map_or_else(Vec::new, |(c, _)| scores.missing_words(c)),
            content_words: sentence.words.len(),
            span: Span {
                start: sentence.position.span.start,
                end: sentence.position.span.end,
            },
            start: sentence.position.start,
            end: sentence.position.end,
        });
        scores.clear();
    }

    let chunk_results: Vec<ChunkResult> = chunks
        .iter()
        .zip(tallies)
        .map(|(chunk, tally)| {
            let status = match (tally.times_cited > 0, tally.supports_a_citing_sentence) {
                (true, true) => ChunkStatus::Used,
                (true, false) => ChunkStatus::CitedButNotSupporting,
                (false, _) if tally.supported_sentences > 0 => ChunkStatus::RelevantButUncited,
                (false, _) => ChunkStatus::Unused,
            };
            ChunkResult {
                id: chunk.id.clone(),
                preview: preview(&chunk.text, PREVIEW_CHARS),
                times_cited: tally.times_cited,
                supported_sentences: tally.supported_sentences,
                best_coverage: tally.best_coverage,
                status,
            }
        })
        .collect();
    let counts = Counts::tally(&results, &chunk_results, unknown_markers.len());
    CheckResult {
        sentences: results,
        chunks: chunk_results,
        unknown_markers,
        counts,
    }
}
