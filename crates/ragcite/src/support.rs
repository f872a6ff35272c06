//! Support stage: indexes the chunks' words once, scores every sentence against the chunks
//! through that index, and decides verdicts, suggested citations and chunk statuses.

mod contradiction;
pub(crate) mod decide;
mod derived;
mod index;
mod judge;
pub mod model;
pub mod passage;
pub mod score;

use std::collections::HashSet;

use crate::deadline::{Deadline, Expired};
use crate::input::Chunk;
use crate::marker::ResolvedCitation;
use crate::quote::Quotation;
use crate::report::{
    CheckResult, ChunkResult, ChunkStatus, CitationResult, Counts, QuoteCheck, QuoteOrigin, preview,
};
use crate::sentence::SentenceSpan;
use crate::words::{Number, Word};

pub use index::{ChunkIndex, ChunkTexts, ChunkWords};
#[cfg(test)]
pub(crate) use judge::SHORTCUTS;
use judge::*;

/// Allowance for floating-point error when a score is compared with the threshold.
pub(crate) const EPSILON: f64 = 1e-9;

/// A sentence without a marker is a claim from this many content words (or one number).
pub(crate) const MIN_CLAIM_WORDS: usize = 3;

/// Below this share of the threshold, a citation is unsupported rather than weak.
pub(crate) const UNSUPPORTED_BELOW: f64 = 0.5;

/// A suggested citation must beat the sentence's own coverage by this much.
const SUGGESTION_MARGIN: f64 = 0.2;

/// How many features a sentence's result names as having moved its score the most.
const FACTORS: usize = 3;

/// Length of a chunk's preview, in characters.
const PREVIEW_CHARS: usize = 80;

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
    /// Its figures that the question states: context, not claims, but operands of the
    /// arithmetic it shows.
    pub context: Vec<Number>,
    /// Quotations written in the sentence.
    pub quotations: Vec<Quotation>,
    /// Indices of the provider citations that cover the sentence.
    pub native: Vec<usize>,
    /// What the sentence is when it is not a claim (a pleasantry, an abstention, ...).
    pub nonclaim: Option<crate::claim::NonClaim>,
    /// Under `--citation-scope paragraph`, the 1-based index of the sentence whose markers it
    /// took (it has none of its own).
    pub inherited_from: Option<usize>,
    /// Its claim features (see [`crate::support::model::claims`]), read where the claim scorer may
    /// decide or the check keeps features.
    pub claim_features: Option<crate::support::model::claims::ClaimFeatures>,
    /// The claim scorer's score, where it decided whether the sentence is a claim.
    pub claim_score: Option<f64>,
}

/// How sentences are scored: the threshold, the model, and whether each sentence's features
/// are kept in its result.
#[derive(Debug, Clone, Copy)]
pub struct Scoring<'a> {
    pub threshold: f64,
    pub model: &'a model::Model,
    pub keep_features: bool,
    /// The check's analyzer: the texts' language (its negation words) and the stems the
    /// contradictions read.
    pub analyzer: &'a crate::words::Analyzer,
}

/// Sentences from which a check judges them on two threads: below it, starting a thread costs
/// more than it saves.
const PARALLEL_SENTENCES: usize = 64;

/// Judges every sentence and every chunk; with `parallel`, the second half of the sentences on
/// a second thread (same result). Stops soon after `deadline` passes, with `Expired`.
pub fn assess(
    sentences: Vec<SentenceInput>,
    citations: &[ResolvedCitation],
    chunks: &[Chunk],
    index: &ChunkIndex,
    scoring: Scoring,
    parallel: bool,
    deadline: &Deadline,
) -> Result<CheckResult, Expired> {
    let Scoring {
        threshold,
        model,
        keep_features,
        analyzer,
    } = scoring;
    // A provider citation's cited text is checked once, however many sentences it covers.
    let mut searches = QuoteSearches::new(chunks, deadline);
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
    let shortcuts = judge::shortcuts();
    let judge = |searches| {
        let mut judge = Judge::new(
            index,
            chunks,
            threshold,
            model,
            &citation_quotes,
            searches,
            analyzer,
        );
        judge.keep_features = keep_features;
        judge.shortcuts = shortcuts;
        judge
    };
    deadline.to_judge(sentences.len());
    let Judged {
        results,
        mut tallies,
        deferred,
    } = if parallel && sentences.len() >= PARALLEL_SENTENCES {
        let (first, second) = sentences.split_at(sentences.len() / 2);
        let (mut judged, other) = crate::parallel::on_two_threads(
            || judge(searches).judge_all(0, first),
            || judge(QuoteSearches::new(chunks, deadline)).judge_all(first.len(), second),
        );
        judged.results.extend(other.results);
        for (tally, other) in judged.tallies.iter_mut().zip(&other.tallies) {
            tally.merge(other);
        }
        judged.deferred.extend(other.deferred);
        judged
    } else {
        judge(searches).judge_all(0, &sentences)
    };
    add_deferred(index, &mut tallies, &deferred, deadline);
    // Past the deadline, the judges stopped part way: what they gathered is no result.
    deadline.check()?;
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
    Ok(CheckResult {
        sentences: results,
        chunks: chunk_results,
        citations: citation_results,
        unknown_markers,
        counts,
    })
}

#[cfg(test)]
mod tests;
