//! Support stage: indexes the chunks' words once, scores every sentence against the chunks
//! through that index, and decides verdicts, suggested citations and chunk statuses.

pub mod score;

use std::collections::{HashMap, HashSet};

use rustc_hash::{FxHashMap, FxHashSet};

use crate::input::Chunk;
use crate::marker::ResolvedCitation;
use crate::quote::{Quotation, QuoteMatch, QuoteSearch};
use crate::report::{
    CheckResult, ChunkResult, ChunkStatus, CitationResult, Counts, QuoteCheck, QuoteOrigin,
    SentenceResult, Span, Verdict, preview,
};
use crate::sentence::SentenceSpan;
use crate::words::{
    Analyzer, Number, NumberValue, SpelledNumbers, Word, WordFilter, chunk_numbers, negates,
};

/// Allowance for floating-point error when a score is compared with the threshold.
const EPSILON: f64 = 1e-9;

/// A suggested citation must beat the sentence's own coverage by this much.
const SUGGESTION_MARGIN: f64 = 0.2;

/// Length of a chunk's preview, in characters.
const PREVIEW_CHARS: usize = 80;

/// How the chunks' words reach the index.
#[derive(Debug)]
pub enum ChunkWords<'a> {
    /// Read while indexing, each token screened by the word filter before it is looked up:
    /// best when the sentences have few words, since most tokens are then never hashed.
    Streamed(&'a [Chunk]),
    /// Read beforehand, on another thread while the sentences are read: best for long
    /// answers, whose words let most tokens through anyway.
    Read(ChunkTexts<'a>),
}

/// What indexing needs from the chunks' texts: their distinct tokens as written, and for each
/// chunk its numbers, its tokens in order (as positions in the distinct tokens) and where its
/// negations stand. Read without the thread's interner, so that it can be read on another
/// thread; each distinct token is then looked up once.
#[derive(Debug, Default)]
pub struct ChunkTexts<'a> {
    /// Distinct tokens of all chunks, in order of first appearance.
    tokens: Vec<&'a str>,
    chunks: Vec<ChunkText>,
}

/// One chunk of [`ChunkTexts`].
#[derive(Debug, Default)]
struct ChunkText {
    numbers: FxHashSet<NumberValue>,
    /// Each token, in order, as its position in [`ChunkTexts::tokens`].
    tokens: Vec<u32>,
    /// Positions (in `tokens`) of the negations.
    negations: Vec<u32>,
}

impl<'a> ChunkTexts<'a> {
    pub fn read(chunks: &'a [Chunk], analyzer: &Analyzer) -> Self {
        let mut texts = ChunkTexts::default();
        // Long web pages have one distinct token in 14 to 63 bytes (19 in the middle):
        // reserved once rather than grown step by step.
        let length: usize = chunks.iter().map(|c| c.text.len()).sum();
        let mut distinct: FxHashMap<&'a str, u32> =
            FxHashMap::with_capacity_and_hasher(length / 24, Default::default());
        let english = analyzer.language() == crate::Language::English;
        for chunk in chunks {
            let (found, glued) = chunk_numbers(&chunk.text);
            let mut text = ChunkText::default();
            let mut notes = TokenNotes::new(english);
            analyzer.for_each_token(&chunk.text, &found, |token| {
                notes.token(&chunk.text, token, text.tokens.len() as u32);
                let next = texts.tokens.len() as u32;
                let k = *distinct.entry(token).or_insert(next);
                if k == next {
                    texts.tokens.push(token);
                }
                text.tokens.push(k);
            });
            text.negations = notes.negations;
            text.numbers = chunk_values(found, glued, notes.spelled);
            texts.chunks.push(text);
        }
        texts
    }
}

/// What a chunk pass notes of every token beside its word, in English: where the negations
/// stand (as token positions) and the numbers written in words.
struct TokenNotes {
    english: bool,
    negations: Vec<u32>,
    spelled: SpelledNumbers,
}

impl TokenNotes {
    fn new(english: bool) -> Self {
        TokenNotes {
            english,
            negations: Vec::new(),
            spelled: SpelledNumbers::default(),
        }
    }

    /// The token at position `at` of the chunk `text` (a slice of it).
    fn token(&mut self, text: &str, token: &str, at: u32) {
        if self.english {
            if negates(text, token) {
                self.negations.push(at);
            }
            self.spelled.word(token);
        }
    }
}

/// The number values a chunk holds: those written in digits (`found`, and `glued` to a word)
/// and, in English, in words (a chunk that writes `six albums` holds the 6 of a sentence).
fn chunk_values(
    found: Vec<Number>,
    glued: Vec<NumberValue>,
    spelled: SpelledNumbers,
) -> FxHashSet<NumberValue> {
    let mut values: FxHashSet<NumberValue> = found.into_iter().map(|n| n.value).collect();
    values.extend(glued);
    values.extend(spelled.finish());
    values
}

/// The chunks' content words and numbers, indexed once: for each stem and each number value,
/// the chunks (positions, ascending) that hold it. Scoring a sentence walks the lists of its
/// own words only, never every chunk's words.
#[derive(Debug, Default)]
pub struct ChunkIndex {
    /// Interned stem id → the chunks holding it.
    postings: FxHashMap<u32, Vec<u32>>,
    numbers: FxHashMap<NumberValue, Vec<u32>>,
    /// Where the wanted stems stand in each chunk, for phrase evidence.
    positions: score::Positions,
    len: usize,
}

impl ChunkIndex {
    /// Indexes the chunks' content words that `wanted` lets through (the sentences' words:
    /// nothing else is ever looked up), where they stand, and the chunks' numbers.
    pub fn build(words: ChunkWords<'_>, analyzer: &Analyzer, wanted: &WordFilter) -> Self {
        let mut index = ChunkIndex::default();
        let english = analyzer.language() == crate::Language::English;
        match words {
            ChunkWords::Streamed(chunks) => {
                for chunk in chunks {
                    let (found, glued) = chunk_numbers(&chunk.text);
                    // Each wanted word with its position, and the negations, for phrases.
                    let mut at_positions: Vec<(u32, u32)> = Vec::new();
                    let mut notes = TokenNotes::new(english);
                    analyzer.for_each_stem_position(
                        &chunk.text,
                        &found,
                        wanted,
                        |id, at| {
                            if wanted.keeps(id) {
                                at_positions.push((id, at));
                            }
                        },
                        |token, at| notes.token(&chunk.text, token, at),
                    );
                    let values = chunk_values(found, glued, notes.spelled);
                    index.add_chunk(at_positions, notes.negations, values);
                }
            }
            ChunkWords::Read(texts) => {
                // The wanted stem of each distinct token, if it has one.
                let stems: Vec<Option<u32>> = analyzer
                    .stem_ids(&texts.tokens, wanted)
                    .into_iter()
                    .map(|id| id.filter(|&id| wanted.keeps(id)))
                    .collect();
                for text in texts.chunks {
                    let at_positions: Vec<(u32, u32)> = (0u32..)
                        .zip(&text.tokens)
                        .filter_map(|(at, &token)| Some((stems[token as usize]?, at)))
                        .collect();
                    index.add_chunk(at_positions, text.negations, text.numbers);
                }
            }
        }
        for list in index.numbers.values_mut() {
            list.sort_unstable();
        }
        index
    }

    /// Adds the next chunk: its wanted words with their positions, its negations' positions
    /// and its number values.
    fn add_chunk(
        &mut self,
        at_positions: Vec<(u32, u32)>,
        negations: Vec<u32>,
        values: FxHashSet<NumberValue>,
    ) {
        let chunk = self.len as u32;
        self.len += 1;
        let mut ids: Vec<u32> = at_positions.iter().map(|&(id, _)| id).collect();
        ids.sort_unstable();
        ids.dedup();
        for id in ids {
            self.postings.entry(id).or_default().push(chunk);
        }
        self.positions.push_chunk(at_positions, negations);
        for value in values {
            self.numbers.entry(value).or_default().push(chunk);
        }
    }

    fn holds_word(&self, stem_id: u32, chunk: usize) -> bool {
        self.postings
            .get(&stem_id)
            .is_some_and(|list| list.binary_search(&(chunk as u32)).is_ok())
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
    /// Quotations written in the sentence.
    pub quotations: Vec<Quotation>,
    /// Indices of the provider citations that cover the sentence.
    pub native: Vec<usize>,
}

/// Chunks prepared for quote search on first use only: most chunks are never quoted.
struct QuoteSearches<'a> {
    chunks: &'a [Chunk],
    prepared: HashMap<usize, QuoteSearch>,
}

impl<'a> QuoteSearches<'a> {
    fn new(chunks: &'a [Chunk]) -> Self {
        QuoteSearches {
            chunks,
            prepared: HashMap::new(),
        }
    }

    fn search(&mut self, chunk: usize) -> &QuoteSearch {
        self.prepared
            .entry(chunk)
            .or_insert_with(|| QuoteSearch::new(&self.chunks[chunk].text))
    }

    /// Checks a quotation in the first of `cited` that holds it; when none does, reports the
    /// chunk with the closest passage (highest similarity, earliest on a tie).
    fn check(&mut self, text: &str, origin: QuoteOrigin, cited: &[usize]) -> QuoteCheck {
        let mut best: Option<(usize, QuoteMatch)> = None;
        for &chunk in cited {
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
    index: &'a ChunkIndex,
    sentence: &'a SentenceInput,
    /// Shared words per chunk; only `touched` entries are non-zero.
    shared: &'a mut Vec<u32>,
    /// Per chunk, which of the sentence's words it holds (bit k for word k; sentences of up to
    /// 64 content words); only `touched` entries are non-zero.
    held: &'a mut Vec<u64>,
    /// The sentence's words as bit masks, for sentences of up to 64 content words.
    masks: Option<score::WordMasks>,
    touched: Vec<u32>,
}

impl<'a> Scores<'a> {
    fn new(
        index: &'a ChunkIndex,
        sentence: &'a SentenceInput,
        shared: &'a mut Vec<u32>,
        held: &'a mut Vec<u64>,
    ) -> Self {
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
            for (k, word) in sentence.words.iter().enumerate() {
                let Some(list) = index.postings.get(&word.id) else {
                    continue;
                };
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
        }
        Scores {
            index,
            sentence,
            shared,
            held,
            masks: score::WordMasks::new(&sentence.words),
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
    /// `touched` is in no particular order, so ties are broken by position explicitly.
    fn best(&self) -> Option<(usize, f64)> {
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
    fn support(&self, chunk: usize) -> f64 {
        if self.sentence.words.is_empty() || self.shared[chunk] == 0 {
            return self.against(chunk);
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
    fn cited_support(&self, chunk: usize) -> f64 {
        if self.sentence.words.is_empty() {
            return 1.0;
        }
        if self.shared[chunk] == 0 {
            return 0.0;
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

    /// How many distinct numbers of the sentence `chunk` lacks.
    fn numbers_missing_from(&self, chunk: usize) -> usize {
        let mut seen = HashSet::new();
        self.sentence
            .numbers
            .iter()
            .filter(|n| seen.insert(&n.value) && !self.index.holds_number(&n.value, chunk))
            .count()
    }

    fn missing_words(&self, chunk: usize) -> Vec<String> {
        self.sentence
            .words
            .iter()
            .filter(|w| !self.index.holds_word(w.id, chunk))
            .map(|w| w.surface.clone())
            .collect()
    }

    /// Numbers of the sentence that no cited chunk holds, each value once. `is_cited` flags
    /// the cited chunks, so that a number is looked up by whichever list is shorter.
    fn missing_numbers(&self, is_cited: &[bool]) -> Vec<String> {
        let cited = &self.sentence.cited;
        let mut seen = FxHashSet::default();
        self.sentence
            .numbers
            .iter()
            .filter(|n| seen.insert(&n.value))
            .filter(|n| {
                let holders = self
                    .index
                    .numbers
                    .get(&n.value)
                    .map_or(&[][..], Vec::as_slice);
                let found = if holders.len() <= cited.len() {
                    holders.iter().any(|&c| is_cited[c as usize])
                } else {
                    cited
                        .iter()
                        .any(|&c| holders.binary_search(&(c as u32)).is_ok())
                };
                !found
            })
            .map(|n| n.text.clone())
            .collect()
    }

    fn clear(self) {
        for chunk in self.touched {
            self.shared[chunk as usize] = 0;
            self.held[chunk as usize] = 0;
        }
    }

    /// Whether `chunk` holds the sentence's word `k`.
    fn holds(&self, k: usize, chunk: usize) -> bool {
        if self.sentence.words.len() <= 64 {
            self.held[chunk] & (1 << k) != 0
        } else {
            self.index.holds_word(self.sentence.words[k].id, chunk)
        }
    }

    /// Whether the support of `chunk` reaches `threshold`: [`Scores::cited_support`] for a
    /// chunk the sentence cites, else [`Scores::support`], most often decided without positions.
    fn support_reaches(&self, chunk: usize, threshold: f64, cited: bool) -> bool {
        if self.sentence.words.is_empty() || self.shared[chunk] == 0 {
            let score = if cited {
                self.cited_support(chunk)
            } else {
                self.support(chunk)
            };
            return score >= threshold - EPSILON;
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

/// Per-chunk tallies gathered while sentences are judged.
#[derive(Debug, Clone, Default)]
struct ChunkTally {
    times_cited: usize,
    supported_sentences: usize,
    best_coverage: f64,
    supports_a_citing_sentence: bool,
}

impl ChunkTally {
    /// The tally of two sets of sentences, from this one's and `other`'s.
    fn merge(&mut self, other: &ChunkTally) {
        self.times_cited += other.times_cited;
        self.supported_sentences += other.supported_sentences;
        self.best_coverage = self.best_coverage.max(other.best_coverage);
        self.supports_a_citing_sentence |= other.supports_a_citing_sentence;
    }
}

/// Judges sentences one at a time, keeping its own scratch space and chunk tallies, so that
/// two judges can share the sentences of one check between two threads.
struct Judge<'a> {
    index: &'a ChunkIndex,
    chunks: &'a [Chunk],
    threshold: f64,
    citation_quotes: &'a [Option<QuoteCheck>],
    searches: QuoteSearches<'a>,
    /// Scratch space for [`Scores`].
    shared: Vec<u32>,
    held: Vec<u64>,
    /// Which chunks the current sentence cites; set and cleared per sentence.
    is_cited: Vec<bool>,
    tallies: Vec<ChunkTally>,
}

impl<'a> Judge<'a> {
    /// `searches`: chunks already prepared for quote search (the citations' cited texts').
    fn new(
        index: &'a ChunkIndex,
        chunks: &'a [Chunk],
        threshold: f64,
        citation_quotes: &'a [Option<QuoteCheck>],
        searches: QuoteSearches<'a>,
    ) -> Self {
        Judge {
            index,
            chunks,
            threshold,
            citation_quotes,
            searches,
            shared: vec![0; index.len],
            held: vec![0; index.len],
            is_cited: vec![false; chunks.len()],
            tallies: vec![ChunkTally::default(); chunks.len()],
        }
    }

    /// Judges the sentences, the first of which is sentence `first` (0-based) of the answer.
    fn judge_all(
        mut self,
        first: usize,
        sentences: &[SentenceInput],
    ) -> (Vec<SentenceResult>, Vec<ChunkTally>) {
        let results = (first..)
            .zip(sentences)
            .map(|(k, sentence)| self.judge(k, sentence))
            .collect();
        (results, self.tallies)
    }

    /// Judges sentence `k` (0-based) and adds it to the chunk tallies.
    fn judge(&mut self, k: usize, sentence: &SentenceInput) -> SentenceResult {
        let reaches = |score: f64, limit: f64| score >= limit - EPSILON;
        let scores = Scores::new(self.index, sentence, &mut self.shared, &mut self.held);
        for &c in &sentence.cited {
            self.is_cited[c] = true;
        }
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
        // Verdicts are decided on support, the best among the cited chunks.
        let support = sentence
            .cited
            .iter()
            .map(|&c| scores.cited_support(c))
            .fold(0.0, f64::max);
        let missing_numbers = if sentence.cited.is_empty() {
            Vec::new()
        } else {
            scores.missing_numbers(&self.is_cited)
        };
        // A number no cited chunk holds counts against support as a missing name does. The
        // verdict's rule 4 looks at the words' support (before this factor): a sentence whose
        // words match and whose number does not is a number-mismatch, not unsupported.
        let words_support = support;
        let support = support * score::missing_numbers_factor(missing_numbers.len());
        let has_claim_words = !sentence.words.is_empty() || !sentence.numbers.is_empty();
        let mut quotes: Vec<QuoteCheck> = Vec::new();
        if !sentence.cited.is_empty() {
            for quotation in &sentence.quotations {
                quotes.push(self.searches.check(
                    &quotation.text,
                    QuoteOrigin::Sentence,
                    &sentence.cited,
                ));
            }
        }
        for &c in &sentence.native {
            if let Some(check) = &self.citation_quotes[c] {
                quotes.push(check.clone());
            }
        }
        let misquoted = quotes.iter().any(|q| !q.found());
        let verdict = if sentence.labels.is_empty() {
            let checkable = sentence.words.len() >= 3 || !sentence.numbers.is_empty();
            if checkable && !sentence.position.heading {
                Verdict::UncitedClaim
            } else {
                Verdict::NoClaim
            }
        } else if !has_claim_words && !misquoted {
            // A quotation that is not in its chunk is a claim about the chunk, words or not.
            Verdict::NoClaim
        } else if sentence.cited.is_empty() || !reaches(words_support, self.threshold / 2.0) {
            Verdict::UnsupportedCitation
        } else if misquoted {
            Verdict::Misquote
        } else if !missing_numbers.is_empty() {
            Verdict::NumberMismatch
        } else if !reaches(support, self.threshold) {
            Verdict::WeakSupport
        } else {
            Verdict::Supported
        };

        let best = if has_claim_words { scores.best() } else { None };
        let suggested = best.filter(|&(chunk, _)| {
            let score = scores.support(chunk)
                * score::missing_numbers_factor(scores.numbers_missing_from(chunk));
            verdict.is_claim()
                && !self.is_cited[chunk]
                && reaches(score, self.threshold)
                && reaches(score, support + SUGGESTION_MARGIN)
        });

        for &c in &sentence.cited {
            self.tallies[c].times_cited += 1;
        }
        if verdict.is_claim() {
            for &chunk in &scores.touched {
                let chunk = chunk as usize;
                let tally = &mut self.tallies[chunk];
                tally.best_coverage = tally.best_coverage.max(scores.against(chunk));
                // A cited chunk is judged as the verdict judged it (names from any cited chunk).
                if scores.support_reaches(chunk, self.threshold, self.is_cited[chunk]) {
                    tally.supported_sentences += 1;
                    if self.is_cited[chunk] {
                        tally.supports_a_citing_sentence = true;
                    }
                }
            }
        }
        let result = SentenceResult {
            index: k + 1,
            sentence: sentence.text.clone(),
            markers: sentence.labels.clone(),
            cited: sentence
                .cited
                .iter()
                .map(|&c| self.chunks[c].id.clone())
                .collect(),
            verdict,
            coverage,
            support,
            check_worthy: sentence.numbers.iter().map(|n| n.text.clone()).collect(),
            missing_numbers,
            best_chunk: best.map(|(c, _)| self.chunks[c].id.clone()),
            best_coverage: best.map_or(0.0, |(_, s)| s),
            suggested_citation: suggested.map(|(c, _)| self.chunks[c].id.clone()),
            unknown_markers: sentence.unknown.clone(),
            quotes,
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
        };
        scores.clear();
        for &c in &sentence.cited {
            self.is_cited[c] = false;
        }
        result
    }
}

/// Sentences from which a check judges them on two threads: below it, starting a thread costs
/// more than it saves.
const PARALLEL_SENTENCES: usize = 64;

/// Judges every sentence and every chunk; with `parallel`, the second half of the sentences on
/// a second thread (same result).
pub fn assess(
    sentences: Vec<SentenceInput>,
    citations: &[ResolvedCitation],
    chunks: &[Chunk],
    index: &ChunkIndex,
    threshold: f64,
    parallel: bool,
) -> CheckResult {
    // A provider citation's cited text is checked once, however many sentences it covers.
    let mut searches = QuoteSearches::new(chunks);
    let citation_quotes: Vec<Option<QuoteCheck>> = citations
        .iter()
        .map(|c| {
            let quote = c.quote.as_deref()?;
            if c.chunks.is_empty() {
                return None;
            }
            Some(searches.check(quote, QuoteOrigin::Citation, &c.chunks))
        })
        .collect();
    // The first judge keeps the chunks the citations' texts were searched in; a second starts
    // with none prepared.
    let judge = |searches| Judge::new(index, chunks, threshold, &citation_quotes, searches);
    let (results, tallies) = if parallel && sentences.len() >= PARALLEL_SENTENCES {
        let (first, second) = sentences.split_at(sentences.len() / 2);
        let ((mut results, mut tallies), (more, other_tallies)) = crate::parallel::on_two_threads(
            || judge(searches).judge_all(0, first),
            || judge(QuoteSearches::new(chunks)).judge_all(first.len(), second),
        );
        results.extend(more);
        for (tally, other) in tallies.iter_mut().zip(&other_tallies) {
            tally.merge(other);
        }
        (results, tallies)
    } else {
        judge(searches).judge_all(0, &sentences)
    };
    let mut citation_sentences: Vec<Vec<usize>> = vec![Vec::new(); citations.len()];
    let mut unknown_markers: Vec<String> = Vec::new();
    let mut seen_unknown: HashSet<String> = HashSet::new();
    for (k, sentence) in sentences.iter().enumerate() {
        for &c in &sentence.native {
            citation_sentences[c].push(k + 1);
        }
        for label in &sentence.unknown {
            if seen_unknown.insert(label.clone()) {
                unknown_markers.push(label.clone());
            }
        }
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
    let citation_results: Vec<CitationResult> = citations
        .iter()
        .zip(citation_quotes)
        .zip(citation_sentences)
        .map(|((c, quote), sentences)| CitationResult {
            index: c.index,
            source: c.label.clone(),
            chunk: c.chunks.first().map(|&k| chunks[k].id.clone()),
            chunks: c.chunks.iter().map(|&k| chunks[k].id.clone()).collect(),
            sentences,
            quote,
        })
        .collect();
    // A citation tied to no sentence that names no chunk is an unknown marker all the same.
    for citation in citation_results
        .iter()
        .filter(|c| c.chunk.is_none() && c.sentences.is_empty())
    {
        if seen_unknown.insert(citation.source.clone()) {
            unknown_markers.push(citation.source.clone());
        }
    }
    let counts = Counts::tally(
        &results,
        &chunk_results,
        &citation_results,
        unknown_markers.len(),
    );
    CheckResult {
        sentences: results,
        chunks: chunk_results,
        citations: citation_results,
        unknown_markers,
        counts,
    }
}

#[cfg(test)]
mod tests {
    use crate::report::{CheckResult, ChunkStatus, Verdict};
    use crate::{Checker, Options, input};

    fn check_at(answer: &str, chunks: &str, threshold: f64) -> CheckResult {
        let answer = input::read_answer(answer.as_bytes(), None).unwrap();
        let chunks = input::read_chunks(chunks.as_bytes(), false).unwrap();
        let options = Options {
            threshold,
            ..Options::default()
        };
        Checker::new(options).check(&answer, &chunks).result
    }

    fn check(answer: &str, chunks: &str) -> CheckResult {
        check_at(answer, chunks, 0.5)
    }

    fn verdicts(result: &CheckResult) -> Vec<Verdict> {
        result.sentences.iter().map(|s| s.verdict).collect()
    }

    fn statuses(result: &CheckResult) -> Vec<ChunkStatus> {
        result.chunks.iter().map(|c| c.status).collect()
    }

    const TOWER: &str = r#"["The Eiffel Tower in Paris is 330 metres tall and was completed in 1889.",
        "The Louvre museum holds the Mona Lisa painting."]"#;

    #[test]
    fn supported_when_coverage_reaches_the_threshold_and_numbers_match() {
        let result = check("The Eiffel Tower is 330 metres tall [1].", TOWER);
        assert_eq!(verdicts(&result), [Verdict::Supported]);
        assert_eq!(result.sentences[0].coverage, 1.0);
        assert_eq!(result.sentences[0].check_worthy, ["330"]);
    }

    #[test]
    fn number_mismatch_when_a_number_is_in_no_cited_chunk() {
        let result = check("The Eiffel Tower is 324 metres tall [1].", TOWER);
        assert_eq!(verdicts(&result), [Verdict::NumberMismatch]);
        assert_eq!(result.sentences[0].missing_numbers, ["324"]);
    }

    #[test]
    fn numbers_compare_by_value() {
        let chunks = r#"["The tower is 1083 feet tall and has 7,000,000 visitors a year."]"#;
        let result = check(
            "The tower is 1,083 feet tall with 7 million visitors [1].",
            chunks,
        );
        assert_eq!(verdicts(&result), [Verdict::Supported]);
        assert!(result.sentences[0].missing_numbers.is_empty());
    }

    #[test]
    fn weak_support_between_half_the_threshold_and_the_threshold() {
        // Content words: eiffel, tower, paris, attracts, tourists, daily: 3 of 6 found, so
        // coverage 0.5; 2 of their 5 neighbouring pairs stand together in the chunk, so support
        // is 0.7 × 0.5 + 0.3 × 0.4 = 0.47.
        let sentence = "The Eiffel Tower in Paris attracts tourists daily [1].";
        let result = check(sentence, TOWER);
        assert_eq!(result.sentences[0].coverage, 0.5);
        assert_eq!(result.sentences[0].support, 0.47);
        assert_eq!(verdicts(&result), [Verdict::WeakSupport]);
        let reached = check_at(sentence, TOWER, 0.47);
        assert_eq!(
            verdicts(&reached),
            [Verdict::Supported],
            "0.47 reaches 0.47"
        );
        let strict = check_at(sentence, TOWER, 0.9);
        assert_eq!(verdicts(&strict), [Verdict::WeakSupport]);
        assert_eq!(
            strict.sentences[0].missing_words,
            ["attracts", "tourists", "daily"]
        );
    }

    #[test]
    fn support_exactly_half_the_threshold_is_weak_not_unsupported() {
        // 1 of 4 content words found and no pair: support 0.7 × 0.25 = 0.175, half of 0.35.
        let sentence = "The tower attracts crowds daily [1].";
        let result = check_at(sentence, TOWER, 0.35);
        assert_eq!(result.sentences[0].coverage, 0.25);
        assert_eq!(result.sentences[0].support, 0.175);
        assert_eq!(verdicts(&result), [Verdict::WeakSupport]);
        let stricter = check_at(sentence, TOWER, 0.36);
        assert_eq!(verdicts(&stricter), [Verdict::UnsupportedCitation]);
    }

    #[test]
    fn unsupported_when_coverage_is_below_half_the_threshold() {
        let result = check("The museum holds the Mona Lisa painting [1].", TOWER);
        assert_eq!(verdicts(&result), [Verdict::UnsupportedCitation]);
        assert_eq!(result.sentences[0].suggested_citation.as_deref(), Some("2"));
        assert_eq!(result.sentences[0].best_chunk.as_deref(), Some("2"));
    }

    #[test]
    fn unsupported_when_no_marker_resolves() {
        let result = check("The Eiffel Tower is 330 metres tall [7].", TOWER);
        assert_eq!(verdicts(&result), [Verdict::UnsupportedCitation]);
        assert_eq!(result.unknown_markers, ["7"]);
        assert_eq!(result.sentences[0].unknown_markers, ["7"]);
        assert!(result.sentences[0].cited.is_empty());
        assert_eq!(result.sentences[0].coverage, 0.0);
        assert_eq!(result.counts.unknown_markers, 1);
    }

    #[test]
    fn uncited_claims_need_three_content_words_or_a_number() {
        let result = check(
            "The tower is tall. It cost 5 francs. Thank you. Lovely views everywhere today.",
            TOWER,
        );
        assert_eq!(
            verdicts(&result),
            [
                Verdict::NoClaim,
                Verdict::UncitedClaim,
                Verdict::NoClaim,
                Verdict::UncitedClaim
            ]
        );
    }

    #[test]
    fn an_uncited_heading_is_a_title_not_a_claim() {
        let result = check("# The Eiffel Tower in 1889\n## The Eiffel Tower [1]", TOWER);
        assert_eq!(verdicts(&result), [Verdict::NoClaim, Verdict::Supported]);
    }

    #[test]
    fn a_marker_without_words_or_numbers_is_no_claim() {
        let result = check("It is so [1].", TOWER);
        assert_eq!(verdicts(&result), [Verdict::NoClaim]);
        assert_eq!(
            statuses(&result),
            [ChunkStatus::CitedButNotSupporting, ChunkStatus::Unused]
        );
        assert_eq!(result.chunks[0].times_cited, 1);
    }

    #[test]
    fn without_content_words_the_numbers_alone_decide() {
        let result = check("It was 1889 [1]. It was 1888 [1].", TOWER);
        assert_eq!(
            verdicts(&result),
            [Verdict::Supported, Verdict::NumberMismatch]
        );
        assert_eq!(result.sentences[0].coverage, 1.0);
        assert_eq!(result.sentences[0].best_chunk.as_deref(), Some("1"));
        assert_eq!(result.sentences[1].best_chunk, None);
        // A number-only sentence makes only the chunks holding its number relevant.
        assert_eq!(result.chunks[1].supported_sentences, 0);
    }

    #[test]
    fn coverage_is_the_best_single_cited_chunk_not_the_pool() {
        let chunks = r#"["Alpha beta gamma.", "Delta epsilon zeta.", "Alpha beta delta epsilon."]"#;
        let result = check("Alpha beta delta epsilon [1][2].", chunks);
        assert_eq!(result.sentences[0].coverage, 0.5);
        assert_eq!(result.sentences[0].best_chunk.as_deref(), Some("3"));
        assert_eq!(result.sentences[0].suggested_citation.as_deref(), Some("3"));
    }

    #[test]
    fn best_chunk_ties_go_to_the_earliest_and_nothing_shared_is_null() {
        let chunks = r#"["Gamma alpha.", "Alpha gamma.", "Unrelated words."]"#;
        let result = check("Alpha gamma omega [3]. Zulu yankee xray [3].", chunks);
        assert_eq!(result.sentences[0].best_chunk.as_deref(), Some("1"));
        assert_eq!(result.sentences[1].best_chunk, None);
        assert_eq!(result.sentences[1].best_coverage, 0.0);
    }

    #[test]
    fn a_suggestion_must_beat_the_own_coverage_by_a_margin() {
        // Own coverage 3/4 via chunk 1; chunk 2 covers 4/4, only 0.25 better: suggested.
        // Own coverage 3/5 = 0.6; chunk 2 4/5 = 0.8, only 0.2 better: suggested (margin reached).
        // Own coverage 3/6 = 0.5; chunk 2 4/6 = 0.667, 0.167 better: not suggested.
        let chunks = r#"["alpha beta gamma", "alpha beta gamma delta"]"#;
        let result = check(
            "Alpha beta gamma delta [1]. Alpha beta gamma delta omega [1]. Alpha beta gamma delta omega sigma [1].",
            chunks,
        );
        let suggested: Vec<_> = result
            .sentences
            .iter()
            .map(|s| s.suggested_citation.as_deref())
            .collect();
        assert_eq!(suggested, [Some("2"), Some("2"), None]);
    }

    #[test]
    fn uncited_claims_get_a_suggestion_when_a_chunk_supports_them() {
        let result = check("The Mona Lisa painting hangs in the Louvre museum.", TOWER);
        assert_eq!(verdicts(&result), [Verdict::UncitedClaim]);
        assert_eq!(result.sentences[0].suggested_citation.as_deref(), Some("2"));
        assert_eq!(
            statuses(&result),
            [ChunkStatus::Unused, ChunkStatus::RelevantButUncited]
        );
    }

    #[test]
    fn every_chunk_status() {
        let chunks = r#"["The Eiffel Tower is 330 metres tall.", "Bread is baked from flour.",
            "The Louvre museum holds the Mona Lisa.", "Whales are large mammals."]"#;
        let result = check(
            "The Eiffel Tower is 330 metres tall [1]. The Louvre museum holds the Mona Lisa [2].",
            chunks,
        );
        assert_eq!(
            statuses(&result),
            [
                ChunkStatus::Used,
                ChunkStatus::CitedButNotSupporting,
                ChunkStatus::RelevantButUncited,
                ChunkStatus::Unused
            ]
        );
        assert_eq!(result.chunks[2].supported_sentences, 1);
        assert_eq!(result.chunks[2].best_coverage, 1.0);
        assert_eq!(result.counts.used, 1);
        assert_eq!(result.counts.unused, 1);
    }

    #[test]
    fn no_claim_sentences_never_make_a_chunk_relevant() {
        let chunks = r#"["Thanks again.", "Whales are large mammals."]"#;
        let result = check("Thanks again!", chunks);
        assert_eq!(verdicts(&result), [Verdict::NoClaim]);
        assert_eq!(
            statuses(&result),
            [ChunkStatus::Unused, ChunkStatus::Unused]
        );
    }

    #[test]
    fn counts_tally_verdicts() {
        let result = check(
            "The Eiffel Tower is 330 metres tall [1]. The Eiffel Tower is 324 metres tall [1]. Lovely views everywhere today.",
            TOWER,
        );
        assert_eq!(result.counts.sentences, 3);
        assert_eq!(result.counts.claims, 3);
        assert_eq!(result.counts.supported, 1);
        assert_eq!(result.counts.number_mismatch, 1);
        assert_eq!(result.counts.uncited_claim, 1);
        assert_eq!(result.counts.chunks, 2);
    }
}
