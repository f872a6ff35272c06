//! The judge: one sentence at a time, its scores ([`Scores`]), its findings, its verdict (the
//! rules are [`decide`]'s), the citation it could have made, and what it adds to each chunk's
//! tally. Two judges can share the sentences of one check between two threads.

use super::cited::CitedScores;
use super::*;
use crate::report::{Agreement, CitationFinding, CitedChunk, Contradiction};

/// What judging sentences gives: their results, the chunk tallies, and the claims whose best
/// coverage of some chunks is still to be added.
pub(in crate::support) struct Judged {
    pub(in crate::support) results: Vec<SentenceResult>,
    pub(in crate::support) tallies: Vec<ChunkTally>,
    pub(in crate::support) deferred: Vec<Deferred>,
}

/// Per-chunk tallies gathered while sentences are judged.
#[derive(Debug, Clone, Default)]
pub(in crate::support) struct ChunkTally {
    pub(in crate::support) times_cited: usize,
    pub(in crate::support) supported_sentences: usize,
    pub(in crate::support) best_coverage: f64,
    pub(in crate::support) supports_a_citing_sentence: bool,
}

impl ChunkTally {
    /// The tally of two sets of sentences, from this one's and `other`'s.
    pub(in crate::support) fn merge(&mut self, other: &ChunkTally) {
        self.times_cited += other.times_cited;
        self.supported_sentences += other.supported_sentences;
        self.best_coverage = self.best_coverage.max(other.best_coverage);
        self.supports_a_citing_sentence |= other.supports_a_citing_sentence;
    }
}

/// Judges sentences one at a time, keeping its own scratch space and chunk tallies, so that
/// two judges can share the sentences of one check between two threads.
pub(in crate::support) struct Judge<'a> {
    pub(in crate::support) index: &'a ChunkIndex,
    pub(in crate::support) chunks: &'a [Chunk],
    pub(in crate::support) threshold: f64,
    pub(in crate::support) model: &'a Model,
    /// Keep each sentence's features in its result.
    pub(in crate::support) keep_features: bool,
    pub(in crate::support) citation_quotes: &'a [Option<QuoteCheck>],
    searches: QuoteSearches<'a>,
    contradictions: Contradictions<'a>,
    /// Scratch space for [`Scores`].
    shared: Vec<u32>,
    pub(in crate::support) held: Vec<u64>,
    /// Which chunks the current sentence cites; set and cleared per sentence.
    is_cited: Vec<bool>,
    tallies: Vec<ChunkTally>,
    /// The claims whose frequent words' lists were not walked.
    deferred: Vec<Deferred>,
    /// The claims judged so far, for their repeats.
    claims: Claims,
    /// Whether frequent words' lists are left unwalked and repeated claims tallied as their
    /// first time: off only in tests, which compare the results both ways.
    pub(in crate::support) shortcuts: bool,
    /// Looked at before each sentence and every few chunks a sentence is scored against.
    deadline: &'a Deadline,
    /// How the check's language writes decimals, for reading the cited chunks' rates.
    decimal: crate::words::Decimal,
    /// Per chunk, the rates it states (see [`derived::rates_of`]), read on first need.
    rates: FxHashMap<usize, Option<Vec<derived::WithUnit>>>,
}

impl<'a> Judge<'a> {
    /// `searches`: chunks already prepared for quote search (the citations' cited texts').
    pub(in crate::support) fn new(
        index: &'a ChunkIndex,
        chunks: &'a [Chunk],
        threshold: f64,
        model: &'a Model,
        citation_quotes: &'a [Option<QuoteCheck>],
        searches: QuoteSearches<'a>,
        analyzer: &'a crate::words::Analyzer,
    ) -> Self {
        let deadline = searches.deadline;
        Judge {
            index,
            chunks,
            threshold,
            model,
            keep_features: false,
            citation_quotes,
            searches,
            contradictions: Contradictions::new(chunks, analyzer, &index.wanted),
            shared: vec![0; index.len],
            held: vec![0; index.len],
            is_cited: vec![false; chunks.len()],
            tallies: vec![ChunkTally::default(); chunks.len()],
            deferred: Vec::new(),
            claims: Claims::default(),
            shortcuts: true,
            deadline,
            decimal: analyzer.language().decimal(),
            rates: FxHashMap::default(),
        }
    }

    /// Judges the sentences, the first of which is sentence `first` (0-based) of the answer;
    /// once the deadline has passed, no more (the check then gives no result).
    pub(in crate::support) fn judge_all(
        mut self,
        first: usize,
        sentences: &[SentenceInput],
    ) -> Judged {
        let mut results = Vec::with_capacity(sentences.len());
        for (k, sentence) in (first..).zip(sentences) {
            if self.deadline.passed() {
                break;
            }
            results.push(self.judge(k, sentence));
            self.deadline.judged_one();
        }
        Judged {
            results,
            tallies: self.tallies,
            deferred: self.deferred,
        }
    }

    /// Judges sentence `k` (0-based) and adds it to the chunk tallies: its scores, then its
    /// findings (quotations, numbers, contradiction), its verdict ([`decide`]), the citation
    /// it could have made, its part in the chunks' tallies, and its result.
    pub(in crate::support) fn judge(
        &mut self,
        k: usize,
        sentence: &SentenceInput,
    ) -> SentenceResult {
        // The scratch space, lent to the scores for this sentence and given back cleared.
        let (mut shared, mut held) = (
            std::mem::take(&mut self.shared),
            std::mem::take(&mut self.held),
        );
        // The search without the frequent words' lists first; when it does not stand, those
        // lists are walked too.
        let mut scores = Scores::new(
            self.index,
            sentence,
            &mut shared,
            &mut held,
            self.model,
            self.keep_features,
            self.shortcuts,
        );
        if !scores.settled(self.threshold) {
            scores.walk_frequent();
        }
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
        let (missing_numbers, mut derived) = if sentence.cited.is_empty() {
            (Vec::new(), Vec::new())
        } else {
            scores.missing_numbers(&self.is_cited)
        };
        // A figure derived from a rate the cited chunks state and a quantity of the sentence.
        let missing_numbers =
            if !derived::wants_rates(&sentence.text, &sentence.numbers, &missing_numbers) {
                missing_numbers
            } else {
                // Each cited chunk's rates, read once per check (and only for a sentence with a
                // missing figure).
                for &c in &sentence.cited {
                    let (chunks, decimal) = (self.chunks, self.decimal);
                    self.rates
                        .entry(c)
                        .or_insert_with(|| derived::rates_of(&chunks[c].text, decimal));
                }
                let (left, by_rate) = derived::by_rate(
                    &sentence.text,
                    &sentence.numbers,
                    missing_numbers,
                    sentence.cited.iter().map(|c| self.rates[c].as_deref()),
                );
                derived.extend(
                    by_rate
                        .into_iter()
                        .map(|(number, how)| crate::report::Derived { number, how }),
                );
                left
            };
        let cited = scores.cited_scores(missing_numbers.len(), self.model, self.deadline);
        let support = cited.support;
        let quotes = self.quotes(sentence);
        let findings = Findings {
            marked: !sentence.labels.is_empty(),
            words: sentence.words.len(),
            numbers: !sentence.numbers.is_empty(),
            heading: sentence.position.heading,
            nonclaim: sentence.nonclaim.is_some(),
            reference: sentence.position.reference,
            resolves: !sentence.cited.is_empty(),
            misquoted: quotes.iter().any(|q| !q.found()),
            missing_numbers: !missing_numbers.is_empty(),
            contradicted: false,
            support,
            words_support: cited.words_support,
            unflipped_support: cited.unflipped_support,
        };
        let (verdict, contradiction, agreement, deciding) =
            self.verdict(sentence, findings, &cited);
        let has_claim_words = !sentence.words.is_empty() || !sentence.numbers.is_empty();
        let best = if has_claim_words { scores.best() } else { None };
        let suggested = best.filter(|&(chunk, _)| {
            let score = match self.model {
                Model::Formula => {
                    scores.support(chunk)
                        * score::missing_numbers_factor(scores.numbers_missing_from(chunk))
                }
                Model::Learned(_) => scores.support(chunk),
            };
            decide::suggests(
                verdict,
                self.is_cited[chunk],
                score,
                support,
                self.threshold,
            )
        });
        let contradicting = contradiction
            .as_ref()
            .and_then(|_| deciding.filter(|_| verdict == Verdict::Contradicted));
        self.tally(sentence, verdict, &scores, contradicting);
        // The deciding chunk's features, computed once: the explanation, and what eval exports.
        let features = match cited.features {
            Some(features) => Some(features),
            None => deciding
                .filter(|_| self.keep_features)
                .map(|c| scores.features(c, true, missing_numbers.len())),
        };
        let factors = match (self.model, &features) {
            (Model::Learned(learned), Some(f)) => learned.factors_among(f, FACTORS, |feature| {
                features::telling(feature, f, &sentence.words, !sentence.numbers.is_empty())
            }),
            _ => Vec::new(),
        };
        let cited_chunks = if sentence.words.is_empty() {
            Vec::new()
        } else {
            cited
                .each
                .iter()
                .map(|c| scores.cited_chunk(c, self.threshold, self.chunks[c.chunk].id.clone()))
                .collect()
        };
        // Supported by its cited chunks together, none alone: each that contributes (it holds
        // words of the sentence no other cited chunk holds, or half the threshold alone) is
        // used, as the verdict counts it, not `cited-but-not-supporting`.
        if verdict == Verdict::Supported
            && !cited_chunks
                .iter()
                .any(|c: &CitedChunk| c.finding == CitationFinding::Supports)
        {
            for (c, judged) in cited.each.iter().zip(&cited_chunks) {
                if judged.finding == CitationFinding::Partly {
                    let tally = &mut self.tallies[c.chunk];
                    tally.supports_a_citing_sentence = true;
                    tally.supported_sentences += 1;
                }
            }
        }
        let (kind, kind_cue) = decide::kind(sentence, verdict);
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
            derived,
            best_chunk: best.map(|(c, _)| self.chunks[c].id.clone()),
            best_coverage: best.map_or(0.0, |(_, s)| s),
            suggested_citation: suggested.map(|(c, _)| self.chunks[c].id.clone()),
            unknown_markers: sentence.unknown.clone(),
            inherited_from: sentence.inherited_from,
            claim_score: sentence.claim_score,
            claim_features: sentence.claim_features,
            quotes,
            missing_words: if sentence.cited.is_empty() {
                Vec::new()
            } else {
                scores.missing_from_cited()
            },
            deciding_chunk: deciding.map(|c| self.chunks[c].id.clone()),
            cited_chunks,
            contradiction,
            agreement,
            kind,
            kind_cue,
            content_words: sentence.words.len(),
            span: Span {
                start: sentence.position.span.start,
                end: sentence.position.span.end,
            },
            start: sentence.position.start,
            end: sentence.position.end,
            features: features.filter(|_| self.keep_features),
            factors,
        };
        scores.clear();
        (self.shared, self.held) = (shared, held);
        for &c in &sentence.cited {
            self.is_cited[c] = false;
        }
        result
    }

    /// The sentence's quotations searched in the chunks it cites, then the cited texts of the
    /// provider citations on it.
    fn quotes(&mut self, sentence: &SentenceInput) -> Vec<QuoteCheck> {
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
        quotes
    }

    /// The verdict of `findings`, with the contradiction found and the deciding chunk. The
    /// passages are read for contradictions only when one would change the verdict.
    fn verdict(
        &mut self,
        sentence: &SentenceInput,
        mut findings: Findings,
        cited: &CitedScores,
    ) -> (
        Verdict,
        Option<Contradiction>,
        Option<Agreement>,
        Option<usize>,
    ) {
        let mut verdict = decide(&findings, self.threshold);
        let mut contradiction = None;
        let mut agreement = None;
        let mut deciding = cited.deciding;
        if !sentence.words.is_empty()
            && decide(
                &Findings {
                    contradicted: true,
                    ..findings
                },
                self.threshold,
            ) == Verdict::Contradicted
        {
            contradiction = cited
                .each
                .iter()
                .filter(|c| reaches(c.unflipped_support, self.threshold * UNSUPPORTED_BELOW))
                .find_map(|c| {
                    let antonym = sentence.words.iter().any(|w| {
                        w.antonyms
                            .iter()
                            .any(|&(id, _)| self.index.holds_word(id, c.chunk))
                    });
                    let negated_near = self.index.positions.negation_before(
                        sentence.words.iter().map(|w| w.id),
                        c.chunk as u32,
                        contradiction::NEGATION_SCOPE,
                    );
                    self.contradictions
                        .find(sentence, c.chunk, antonym, negated_near)
                });
            agreement = self.contradictions.take_agreement();
            if let Some(found) = &contradiction {
                agreement = None;
                findings.contradicted = true;
                verdict = decide(&findings, self.threshold);
                deciding = sentence
                    .cited
                    .iter()
                    .copied()
                    .find(|&c| self.chunks[c].id == found.chunk);
            }
        }
        (verdict, contradiction, agreement, deciding)
    }

    /// Adds the sentence to the chunks' tallies: the chunks it cites, and, for a claim, the
    /// chunks it reaches (a repeated claim as its first time; `contradicting`, the chunk that
    /// says the opposite, supports it not).
    fn tally(
        &mut self,
        sentence: &SentenceInput,
        verdict: Verdict,
        scores: &Scores,
        contradicting: Option<usize>,
    ) {
        for &c in &sentence.cited {
            self.tallies[c].times_cited += 1;
        }
        if !verdict.is_claim() {
            return;
        }
        let earlier = self.claims.seen(sentence).filter(|_| self.shortcuts);
        match earlier {
            Some(earlier) => tally_again(
                &mut self.tallies,
                &self.is_cited,
                self.threshold,
                scores,
                &self.claims.seen[earlier],
                contradicting,
            ),
            None => {
                self.deferred.extend(scores.left_out());
                let mut reached = Vec::new();
                let mut deadline = Every::<64>::new(self.deadline);
                for &chunk in &scores.touched {
                    if deadline.passed() {
                        break; // the check gives no result
                    }
                    let chunk = chunk as usize;
                    let tally = &mut self.tallies[chunk];
                    tally.best_coverage = tally.best_coverage.max(scores.against(chunk));
                    // A cited chunk is judged as the verdict judged it (names from any cited
                    // chunk); the one that contradicts it supports it not.
                    if contradicting != Some(chunk)
                        && scores.support_reaches(chunk, self.threshold, self.is_cited[chunk])
                    {
                        tally.supported_sentences += 1;
                        if self.is_cited[chunk] {
                            tally.supports_a_citing_sentence = true;
                        } else {
                            reached.push(chunk as u32);
                        }
                    }
                }
                self.claims.remember(sentence, reached);
            }
        }
    }
}
