//! Report stage: the result types every emitter reads. Field names are camelCase (`index`,
//! `sentence`, `markers`, `cited`, `verdict`, ...); chunk ids and numbers are strings. The JSON
//! output's contract is `docs/schema/check.schema.json`, generated from these types.

pub mod claim_features;
pub mod features;

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::input::{FilePosition, SourceMap};
pub use crate::quote::{Closest, QuoteMatch};
pub use crate::rounding::round4;
use crate::rounding::rounded;
use crate::sentence::LineColumn;

/// What the checker concluded about one sentence, in the order the verdicts are tried.
///
/// What each verdict means is written once: [`Verdict::summary`] and [`Verdict::explanation`].
/// `ragcite explain` prints them, the methodology quotes that output, and tests check both that
/// and that the numbers they quote are the scoring constants.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// `no-claim`
    NoClaim,
    /// `uncited-claim`
    UncitedClaim,
    /// `unsupported-citation`
    UnsupportedCitation,
    /// `misquote`
    Misquote,
    /// `contradicted`
    Contradicted,
    /// `number-mismatch`
    NumberMismatch,
    /// `weak-support`
    WeakSupport,
    /// `supported`
    Supported,
}

impl Verdict {
    pub const ALL: [Verdict; 8] = [
        Verdict::Supported,
        Verdict::Contradicted,
        Verdict::NumberMismatch,
        Verdict::Misquote,
        Verdict::WeakSupport,
        Verdict::UnsupportedCitation,
        Verdict::UncitedClaim,
        Verdict::NoClaim,
    ];

    /// The verdict's name as written in every output (`uncited-claim`).
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Supported => "supported",
            Verdict::NumberMismatch => "number-mismatch",
            Verdict::WeakSupport => "weak-support",
            Verdict::UnsupportedCitation => "unsupported-citation",
            Verdict::Misquote => "misquote",
            Verdict::Contradicted => "contradicted",
            Verdict::UncitedClaim => "uncited-claim",
            Verdict::NoClaim => "no-claim",
        }
    }

    /// One line on what the verdict means.
    pub fn summary(self) -> &'static str {
        match self {
            Verdict::Supported => {
                "the cited chunk holds enough of the sentence's words and all its numbers"
            }
            Verdict::NumberMismatch => "a number of the sentence is in none of the chunks it cites",
            Verdict::WeakSupport => {
                "the cited chunk holds some of the sentence's words, fewer than the threshold asks"
            }
            Verdict::UnsupportedCitation => {
                "the citation points nowhere, or at a chunk that hardly shares the sentence's words"
            }
            Verdict::Misquote => {
                "a quotation of the sentence is not, word for word, in the chunk it cites"
            }
            Verdict::Contradicted => {
                "the passage of a cited chunk that the sentence matches says the opposite"
            }
            Verdict::UncitedClaim => "a sentence that states something checkable cites nothing",
            Verdict::NoClaim => {
                "not a claim: a fragment, heading, source-list entry, question, pleasantry, meta statement, pointer to read more, instruction, abstention or background"
            }
        }
    }

    /// What the verdict means, how it is decided and what to do about it.
    pub fn explanation(self) -> &'static str {
        match self {
            Verdict::Supported => {
                concat!(
                    "A sentence is supported when its support reaches the threshold, every number of the sentence is in a cited chunk (or follows from their figures in one step), and no cited passage it matches says the opposite. ",
                    crate::how_support_is_scored!()
                )
            }
            Verdict::NumberMismatch => {
                "A number of the sentence (compared by value: 1,083 = 1083, 7 million = 7,000,000, 3.5% = 3.5) is in none of the chunks the sentence cites, while the words match well enough (support at least half the threshold). Numbers drift when a model rounds, converts or invents them. Check the figure against the chunk, or cite the chunk that holds it."
            }
            Verdict::WeakSupport => {
                "The support of the best cited chunk is at least half the threshold, but less than the threshold. The sentence may add something the chunk does not say, or paraphrase it. Read the missing words the report lists."
            }
            Verdict::UnsupportedCitation => {
                "The sentence's markers resolve to no chunk (see unknown markers), or the support of the chunks they name is less than half the threshold. A suggested citation is shown when another chunk supports the sentence clearly better."
            }
            Verdict::Misquote => {
                "The sentence quotes (“…”, \"…\", '…', «…», „…“, 「…」, 『…』, ‘…’, three or more words), or the provider attached the text it cites (Anthropic cited_text, a citation list's quote), and that text is not in the cited chunk. Matching is exact after normalisation (Unicode NFKC, dashes, curly quotes, white space, case, soft hyphens, words hyphenated across a line break); an ellipsis splits the quote into fragments that must appear in order. The report shows the closest passage of the chunk and how many words differ: that is where the quote drifted."
            }
            Verdict::Contradicted => {
                "The sentence matches a passage of a chunk it cites, and the two say opposite things: one negates what the other states (not, no, never, without, cannot, fails to, n't, and their equivalents in the language checked), or they use opposite words (increase and decrease, before and after, allowed and prohibited), or the sentence's direction word goes against the passage's own figures (fell where the figures rose), or one limits what the other does not (only, all, none, always, never). Only the passage the sentence matches counts: a negation elsewhere in the chunk changes nothing. The report shows the chunk's words that contradict. Read the passage: a negation can be phrased so that both readings hold."
            }
            Verdict::UncitedClaim => {
                "The sentence has no citation marker but three or more content words or a number, and is none of the sentences no-claim names (a pleasantry, an abstention, ...) and, in English, reaches the claim threshold (its claimScore), so it states something a reader would want a source for. Add a marker, or a suggested citation if one is shown."
            }
            Verdict::NoClaim => {
                "The sentence states nothing to check. Its kind says why, with the words that decided it (kindCue): fragment (markers alone, or no marker and fewer than three content words and no number: a connective, `In short:`), heading (a Markdown heading without a marker: a title), reference (an entry of the answer's source list), question, pleasantry (a greeting, thanks, wish or offer: `Let me know if you need anything else!`), meta (a statement about the answer or its sources, not about the world: `Here is what the documents say.`), navigation (where to read more: `See the documentation for details.`), instruction (advice to the reader that asserts nothing checkable), abstention (the answer says its sources do not cover something, or declines: counted in abstentions, and limited only by --max-abstentions and --max-abstention-rate), or background (no phrase rule names it, and the claim scorer's claimScore is below --claim-threshold: framing, a generality or common knowledge). A sentence that states a figure or quotes something is a claim however it is phrased. A no-claim sentence is not checked and never makes a chunk relevant."
            }
        }
    }

    /// Whether the sentence states something that is checked.
    pub fn is_claim(self) -> bool {
        self != Verdict::NoClaim
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a retrieved chunk was used by the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ChunkStatus {
    /// Cited, and supports at least one sentence that cites it.
    Used,
    /// Cited, but supports none of the sentences that cite it.
    CitedButNotSupporting,
    /// Never cited, but would support some claim sentence.
    RelevantButUncited,
    /// Never cited, and supports no sentence.
    Unused,
}

impl ChunkStatus {
    pub fn name(self) -> &'static str {
        match self {
            ChunkStatus::Used => "used",
            ChunkStatus::CitedButNotSupporting => "cited-but-not-supporting",
            ChunkStatus::RelevantButUncited => "relevant-but-uncited",
            ChunkStatus::Unused => "unused",
        }
    }
}

impl fmt::Display for ChunkStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A byte span in the answer as given, end exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

/// One sentence of the answer and what was found about it.
/// A number of a sentence derived from figures of its cited chunks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Derived {
    /// The number as the sentence writes it (`2,054`).
    pub number: String,
    /// How it follows (`1,204 + 850 = 2,054`).
    pub how: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SentenceResult {
    /// 1-based position among the answer's sentences.
    pub index: usize,
    /// The sentence as written in the answer, markers included.
    pub sentence: String,
    /// The labels of its citation markers, each once, in order.
    pub markers: Vec<String>,
    /// The ids of the chunks those labels resolve to, each once, in order.
    pub cited: Vec<String>,
    pub verdict: Verdict,
    /// Share of the sentence's content words found in its best cited chunk (0 when it cites
    /// nothing; 1 when it has no content words).
    #[serde(serialize_with = "rounded")]
    #[schemars(with = "f64")]
    pub coverage: f64,
    /// How well its cited chunks support it, the score verdicts are decided on: word recall
    /// of the best cited chunk with general words weighing less, mixed with the share of its
    /// neighbouring word pairs that stand together there, lowered for each name or number no
    /// cited chunk holds and for a contradicted negation (0 when it cites nothing; 1 when it
    /// has no content words and its numbers are found). Added in schema 1.2.
    #[serde(serialize_with = "rounded")]
    #[schemars(with = "f64")]
    pub support: f64,
    /// The numbers of the sentence as written: what must be found in a cited chunk.
    pub check_worthy: Vec<String>,
    /// Numbers of the sentence found in none of its cited chunks.
    pub missing_numbers: Vec<String>,
    /// Numbers of the sentence that none of its cited chunks holds but one step of
    /// arithmetic over their figures gives (a sum, difference, product, ratio, percentage
    /// change): not missing. Left out when empty.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub derived: Vec<Derived>,
    /// The chunk with the highest coverage over all chunks, earliest on a tie; `null` when no
    /// chunk shares anything with the sentence.
    pub best_chunk: Option<String>,
    #[serde(serialize_with = "rounded")]
    #[schemars(with = "f64")]
    pub best_coverage: f64,
    /// A better chunk to cite, when one covers the sentence clearly better than its own.
    pub suggested_citation: Option<String>,
    /// Labels of this sentence that resolve to no chunk.
    pub unknown_markers: Vec<String>,
    /// Under `--citation-scope paragraph`, the index of the sentence (its paragraph's last)
    /// whose markers this sentence, which has none of its own, was judged against; `markers`
    /// and `cited` are that sentence's. Left out otherwise. Added in schema 3.1.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub inherited_from: Option<usize>,
    /// Its quotations and the cited texts of the provider citations on it, each checked in
    /// the cited chunk.
    pub quotes: Vec<QuoteCheck>,
    /// Content words (as written, lower-cased) that none of the cited chunks holds (before
    /// schema 3.0: that the best cited chunk lacks).
    pub missing_words: Vec<String>,
    /// The cited chunk that decided the verdict: the one whose support is the sentence's
    /// (earliest on a tie), or the one that contradicts it; `null` when the sentence cites no
    /// chunk or has no content words. Added in schema 3.0.
    pub deciding_chunk: Option<String>,
    /// Each cited chunk judged on its own: whether it supports the sentence, partly supports
    /// it, or adds nothing the others do not (ALCE's citation precision). Empty when the
    /// sentence cites no chunk or has no content words. Added in schema 3.0.
    pub cited_chunks: Vec<CitedChunk>,
    /// What a cited chunk says against the sentence, when it does (verdict `contradicted`).
    /// Added in schema 3.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contradiction: Option<Contradiction>,
    /// A predicate that the sentence and a cited chunk both deny, where the contradiction
    /// reader looked and found them agreeing: `explain` shows it.
    #[serde(skip)]
    #[schemars(skip)]
    pub agreement: Option<Agreement>,
    /// Why the sentence is not a claim, when its verdict is `no-claim`: `fragment`, `heading`,
    /// `reference`, `question`, `pleasantry`, `meta`, `navigation`, `instruction` or
    /// `abstention`. Added in schema 3.1.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub kind: Option<crate::claim::Kind>,
    /// The words of the sentence that decided its `kind` (absent for fragments and headings).
    /// Added in schema 3.1.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub kind_cue: Option<String>,
    /// The claim scorer's estimate (0 to 1) that the sentence states something a reader would
    /// want sourced, where it decided between `uncited-claim` and `no-claim`: English sentences
    /// without a citation that are no heading, source-list line or fragment. A sentence is a
    /// claim when it reaches the claim threshold (`--claim-threshold`, 0.4 by default). Added
    /// in schema 3.5.
    #[serde(
        rename = "claimScore",
        skip_serializing_if = "Option::is_none",
        serialize_with = "crate::rounding::rounded_option",
        default
    )]
    #[schemars(with = "Option<f64>")]
    pub claim_score: Option<f64>,
    /// The claim features the score was read from (for `explain` and `train --claims`).
    #[serde(skip)]
    #[schemars(skip)]
    pub claim_features: Option<crate::report::claim_features::ClaimFeatures>,
    /// Number of content words (after stop words and stemming).
    pub content_words: usize,
    /// Byte span in the answer.
    pub span: Span,
    /// Line and column (1-based, in characters) of the first character.
    pub start: LineColumn,
    /// Line and column just after the last character.
    pub end: LineColumn,
    /// The features that pushed `support` up or down the most, strongest first (at most
    /// three): each with its value and its effect in log-odds. Only features that say something
    /// about this sentence: never the two lengths, the numbers' only when it has numbers, the
    /// names' only when it has names, the negation flag and the rarest missing word only when
    /// set (schema 3.0). Empty under the formula, and when the sentence cites nothing or has no
    /// content words. Added in schema 1.4.
    pub factors: Vec<features::Factor>,
    /// The features of the sentence and its deciding cited chunk (none when it cites nothing
    /// or has no content words): what `ragcite eval --features` exports.
    #[serde(skip)]
    #[schemars(skip)]
    pub features: Option<features::Features>,
}

/// One cited chunk of a sentence, judged on its own.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CitedChunk {
    pub chunk: String,
    pub finding: CitationFinding,
    /// Its support of the sentence on its own.
    #[serde(serialize_with = "rounded")]
    #[schemars(with = "f64")]
    pub support: f64,
    /// The sentence's content words it holds that no other cited chunk holds, as written.
    pub adds: Vec<String>,
}

/// What one citation of a sentence does for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CitationFinding {
    /// Its support alone reaches the threshold.
    Supports,
    /// Below the threshold alone, but it holds words of the sentence that no other cited chunk
    /// holds, or its support alone is at least half the threshold.
    Partly,
    /// Below half the threshold alone, and every word of the sentence it holds another cited
    /// chunk holds too: the sentence would lose nothing without it.
    AddsNothing,
}

impl CitationFinding {
    pub fn name(self) -> &'static str {
        match self {
            CitationFinding::Supports => "supports",
            CitationFinding::Partly => "partly",
            CitationFinding::AddsNothing => "adds-nothing",
        }
    }
}

/// What a cited chunk says against a sentence.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Contradiction {
    pub kind: ContradictionKind,
    /// The chunk that says the opposite.
    pub chunk: String,
    /// The sentence's words that the chunk contradicts, as written.
    pub sentence_words: String,
    /// The chunk's words that contradict the sentence, as written (`did not significantly
    /// reduce`).
    pub chunk_words: String,
    /// Byte span of those words in the chunk's text.
    pub chunk_span: Span,
    /// The passage of the chunk the sentence matches (its sentence or clause), white space
    /// collapsed, at most 200 characters around the contradicting words.
    pub passage: String,
    /// How the polarity rule read the predicate on each side (English): `explain` shows it.
    #[serde(skip)]
    #[schemars(skip)]
    pub reading: Option<PolarityReading>,
}

/// A predicate that the sentence and a cited chunk both deny (`has not announced` against
/// `no official confirmation`): two negatives agree, and `explain` says so.
#[derive(Debug, Clone, PartialEq)]
pub struct Agreement {
    /// The chunk that denies it too.
    pub chunk: String,
    pub reading: PolarityReading,
}

/// The predicate a polarity contradiction denies, as read on each side.
#[derive(Debug, Clone, PartialEq)]
pub struct PolarityReading {
    pub sentence: PredicateSide,
    pub chunk: PredicateSide,
}

/// One side's predicate: the word as written, and the negation that denies it there (`are not
/// offered`), `None` where the side states it.
#[derive(Debug, Clone, PartialEq)]
pub struct PredicateSide {
    pub word: String,
    pub negation: Option<String>,
}

/// How a chunk contradicts a sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ContradictionKind {
    /// One negates what the other states.
    Polarity,
    /// They use opposite words (`increase` and `decrease`).
    Antonym,
    /// The sentence's direction word goes against the chunk's own figures.
    Direction,
    /// One limits what the other does not (`only`, `all`, `none`, `always`, `never`).
    Exclusivity,
}

impl ContradictionKind {
    pub fn name(self) -> &'static str {
        match self {
            ContradictionKind::Polarity => "polarity",
            ContradictionKind::Antonym => "antonym",
            ContradictionKind::Direction => "direction",
            ContradictionKind::Exclusivity => "exclusivity",
        }
    }
}

/// One retrieved chunk and how the answer used it.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChunkResult {
    pub id: String,
    /// The start of its text, white space collapsed, at most 80 characters.
    pub preview: String,
    /// Number of sentences that cite it.
    pub times_cited: usize,
    /// Number of claim sentences, cited or not, whose support from it reaches the threshold.
    pub supported_sentences: usize,
    /// Its best coverage over the claim sentences.
    #[serde(serialize_with = "rounded")]
    #[schemars(with = "f64")]
    pub best_coverage: f64,
    pub status: ChunkStatus,
}

/// Tallies of the verdicts and chunk statuses.
// Read back (`Deserialize`) to add up the counts of batches run elsewhere, such as the partitions
// of a cluster.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Counts {
    pub sentences: usize,
    /// Sentences whose verdict is not `no-claim`.
    pub claims: usize,
    pub supported: usize,
    pub number_mismatch: usize,
    pub weak_support: usize,
    pub unsupported_citation: usize,
    pub misquote: usize,
    /// Added in schema 3.0 (read as 0 from counts written before).
    #[serde(default)]
    pub contradicted: usize,
    pub uncited_claim: usize,
    pub no_claim: usize,
    /// `no-claim` sentences whose kind is `abstention`: the answer says its sources do not
    /// cover something, or declines. Counted among `noClaim` too. Added in schema 3.1 (read as
    /// 0 from counts written before).
    #[serde(default)]
    pub abstentions: usize,
    /// Provider citations not tied to a sentence (a citation list's entries) whose quote is not
    /// in the chunk they name.
    pub misquoted_citations: usize,
    /// Distinct labels that resolve to no chunk.
    pub unknown_markers: usize,
    /// Lines of the answer that held text and were not checked: code and comments (an answer
    /// cannot hide its text in a fence or a comment it never closes, nor by indenting it).
    /// Added in schema 3.4 (read as 0 from counts written before).
    #[serde(default)]
    pub unchecked_lines: usize,
    pub chunks: usize,
    pub used: usize,
    pub cited_but_not_supporting: usize,
    pub relevant_but_uncited: usize,
    pub unused: usize,
}

impl Counts {
    /// The count of a verdict, to add to.
    pub fn of_verdict_mut(&mut self, verdict: Verdict) -> &mut usize {
        match verdict {
            Verdict::Supported => &mut self.supported,
            Verdict::NumberMismatch => &mut self.number_mismatch,
            Verdict::WeakSupport => &mut self.weak_support,
            Verdict::UnsupportedCitation => &mut self.unsupported_citation,
            Verdict::Misquote => &mut self.misquote,
            Verdict::Contradicted => &mut self.contradicted,
            Verdict::UncitedClaim => &mut self.uncited_claim,
            Verdict::NoClaim => &mut self.no_claim,
        }
    }

    pub fn of_verdict(&self, verdict: Verdict) -> usize {
        match verdict {
            Verdict::Supported => self.supported,
            Verdict::NumberMismatch => self.number_mismatch,
            Verdict::WeakSupport => self.weak_support,
            Verdict::UnsupportedCitation => self.unsupported_citation,
            Verdict::Misquote => self.misquote,
            Verdict::Contradicted => self.contradicted,
            Verdict::UncitedClaim => self.uncited_claim,
            Verdict::NoClaim => self.no_claim,
        }
    }

    /// Adds another result's counts to these (for batch totals).
    pub fn add(&mut self, other: &Counts) {
        let Counts {
            sentences,
            claims,
            supported,
            number_mismatch,
            weak_support,
            unsupported_citation,
            misquote,
            contradicted,
            uncited_claim,
            no_claim,
            abstentions,
            misquoted_citations,
            unknown_markers,
            unchecked_lines,
            chunks,
            used,
            cited_but_not_supporting,
            relevant_but_uncited,
            unused,
        } = *other;
        self.sentences += sentences;
        self.claims += claims;
        self.supported += supported;
        self.number_mismatch += number_mismatch;
        self.weak_support += weak_support;
        self.unsupported_citation += unsupported_citation;
        self.misquote += misquote;
        self.contradicted += contradicted;
        self.uncited_claim += uncited_claim;
        self.no_claim += no_claim;
        self.abstentions += abstentions;
        self.misquoted_citations += misquoted_citations;
        self.unknown_markers += unknown_markers;
        self.unchecked_lines += unchecked_lines;
        self.chunks += chunks;
        self.used += used;
        self.cited_but_not_supporting += cited_but_not_supporting;
        self.relevant_but_uncited += relevant_but_uncited;
        self.unused += unused;
    }

    pub fn of_status(&self, status: ChunkStatus) -> usize {
        match status {
            ChunkStatus::Used => self.used,
            ChunkStatus::CitedButNotSupporting => self.cited_but_not_supporting,
            ChunkStatus::RelevantButUncited => self.relevant_but_uncited,
            ChunkStatus::Unused => self.unused,
        }
    }

    pub(crate) fn tally(
        sentences: &[SentenceResult],
        chunks: &[ChunkResult],
        citations: &[CitationResult],
        unknown: usize,
    ) -> Self {
        let mut counts = Counts {
            sentences: sentences.len(),
            chunks: chunks.len(),
            unknown_markers: unknown,
            misquoted_citations: citations
                .iter()
                .filter(|c| c.sentences.is_empty() && c.quote.as_ref().is_some_and(|q| !q.found()))
                .count(),
            ..Counts::default()
        };
        for s in sentences {
            *counts.of_verdict_mut(s.verdict) += 1;
            counts.claims += usize::from(s.verdict.is_claim());
            counts.abstentions += usize::from(s.kind == Some(crate::claim::Kind::Abstention));
        }
        for c in chunks {
            let slot = match c.status {
                ChunkStatus::Used => &mut counts.used,
                ChunkStatus::CitedButNotSupporting => &mut counts.cited_but_not_supporting,
                ChunkStatus::RelevantButUncited => &mut counts.relevant_but_uncited,
                ChunkStatus::Unused => &mut counts.unused,
            };
            *slot += 1;
        }
        counts
    }
}

/// A quotation checked in a chunk.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct QuoteCheck {
    /// The quotation as written.
    pub text: String,
    /// Where it comes from: `sentence` (quote marks in the answer) or `citation` (a provider's
    /// cited text).
    pub origin: QuoteOrigin,
    /// The chunk it was found in, or, when not found, the cited chunk holding the closest
    /// passage; `null` when no cited chunk could be searched.
    pub chunk: Option<String>,
    #[serde(flatten)]
    pub result: QuoteMatch,
}

impl QuoteCheck {
    pub fn found(&self) -> bool {
        self.result.found
    }
}

/// Where a checked quotation comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum QuoteOrigin {
    Sentence,
    Citation,
}

/// A citation the provider attached to the answer (Anthropic, Cohere, Gemini, a citation list).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CitationResult {
    /// 1-based position among the response's citations.
    pub index: usize,
    /// The source as the response names it, or the id of the chunk it resolves to.
    pub source: String,
    /// The chunk it names (the first, when it names several); `null` when it names none.
    pub chunk: Option<String>,
    /// Every chunk it names: one, or every chunk of the document it names (an OpenAI file
    /// citation, a source name shared by several chunks); empty when it names none.
    pub chunks: Vec<String>,
    /// Indices of the sentences it covers (empty for citations not tied to a span).
    pub sentences: Vec<usize>,
    /// Its cited text, checked in the chunk; `null` when the citation carries none.
    pub quote: Option<QuoteCheck>,
}

/// The result of one check: what the JSON output calls `result`.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CheckResult {
    pub sentences: Vec<SentenceResult>,
    pub chunks: Vec<ChunkResult>,
    /// The provider's own citations, when the answer is a response that carries them.
    pub citations: Vec<CitationResult>,
    /// Every label that resolves to no chunk, once each, in order of first appearance.
    pub unknown_markers: Vec<String>,
    pub counts: Counts,
}

impl CheckResult {
    /// The sentence of 1-based `index`: at its position when sentences are numbered in order
    /// (as a check numbers them), else searched.
    pub fn sentence(&self, index: usize) -> Option<&SentenceResult> {
        self.sentences
            .get(index.wrapping_sub(1))
            .filter(|s| s.index == index)
            .or_else(|| self.sentences.iter().find(|s| s.index == index))
    }
}

/// A check's result with the warnings its inputs raised.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub result: CheckResult,
    pub warnings: Vec<String>,
    /// The language the answer was read in, and what detection found.
    pub language: LanguageUse,
    /// Where the answer's text stands in the response file it was read from: set for a
    /// provider response when an output points into the file (the CI formats), `None`
    /// otherwise (and always for a plain-text answer, whose spans are already the file's).
    pub source: Option<Arc<SourceMap>>,
    /// The lines of the answer's text that were not checked (code and comments); their count
    /// is `result.counts.unchecked_lines`.
    pub unchecked: crate::sentence::Unchecked,
}

/// The language a check read the answer in (`--lang`, or detected with `--lang auto`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LanguageUse {
    /// The language read in: its stemmer, stop words and number format.
    pub used: crate::Language,
    /// The language the answer looks written in, when the detector is confident (or English,
    /// without the detector, when the answer is read in English and plainly is: see
    /// [`crate::words::detect`]).
    pub detected: Option<crate::Language>,
    /// Whether `used` is a detected language that `--lang auto` chose over the one it falls
    /// back to (English): false when the answer is read in the language it would be anyway.
    pub auto: bool,
}

impl Report {
    /// Where byte `text_offset` of the answer's text stands in the answer file, when the report
    /// has a [`SourceMap`]; `None` otherwise (the text is the file: a span's offsets are the
    /// file's, and a sentence's `start` and `end` its line and column).
    pub fn file_position(&self, text_offset: usize) -> Option<FilePosition> {
        self.source.as_ref().map(|map| map.start(text_offset))
    }

    /// Where a sentence stands in the answer file: the line and column of its first character
    /// and those just past its last. Its own `start` and `end` without a [`SourceMap`] (a plain
    /// text answer); for a response, the place of its text inside the response file.
    pub fn sentence_position(&self, sentence: &SentenceResult) -> (LineColumn, LineColumn) {
        let Some(map) = &self.source else {
            return (sentence.start, sentence.end);
        };
        let line_column = |at: FilePosition| LineColumn {
            line: at.line,
            column: at.column,
        };
        (
            line_column(map.start(sentence.span.start)),
            line_column(map.end(sentence.span.end)),
        )
    }

    /// What a check found, in one line without the gate: `4 sentences: 1 supported, ... · 5
    /// chunks: 2 used, ... · 1 unknown marker`.
    pub fn counts_line(&self) -> String {
        let counts = &self.result.counts;
        let verdicts: Vec<String> = Verdict::ALL
            .iter()
            .filter(|v| counts.of_verdict(**v) > 0)
            .map(|v| format!("{} {}", counts.of_verdict(*v), v.name()))
            .collect();
        let statuses: Vec<String> = [
            ChunkStatus::Used,
            ChunkStatus::CitedButNotSupporting,
            ChunkStatus::RelevantButUncited,
            ChunkStatus::Unused,
        ]
        .iter()
        .filter(|s| counts.of_status(**s) > 0)
        .map(|s| format!("{} {}", counts.of_status(*s), s.name()))
        .collect();
        let mut line = format!(
            "{} {}{}{} · {} {}{}{}",
            counts.sentences,
            plural(counts.sentences, "sentence", "sentences"),
            if verdicts.is_empty() { "" } else { ": " },
            verdicts.join(", "),
            counts.chunks,
            plural(counts.chunks, "chunk", "chunks"),
            if statuses.is_empty() { "" } else { ": " },
            statuses.join(", "),
        );
        if counts.unknown_markers > 0 {
            line.push_str(&format!(
                " · {} unknown {}",
                counts.unknown_markers,
                plural(counts.unknown_markers, "marker", "markers")
            ));
        }
        if counts.unchecked_lines > 0 {
            line.push_str(&format!(
                " · {} {} not checked (code, comments or hidden text)",
                counts.unchecked_lines,
                plural(counts.unchecked_lines, "line", "lines")
            ));
        }
        if counts.abstentions > 0 {
            line.push_str(&format!(
                " · {} {}",
                counts.abstentions,
                plural(counts.abstentions, "abstention", "abstentions")
            ));
        }
        line
    }
}

/// `one` for 1, `many` otherwise.
pub(crate) fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

/// The start of a chunk's text, white space collapsed, cut at `max` characters with `…`.
pub fn preview(text: &str, max: usize) -> String {
    // Only as many words as the preview can show are collapsed: chunks can be whole pages.
    let mut collapsed = String::new();
    let mut chars = 0;
    for word in text.split_whitespace() {
        if !collapsed.is_empty() {
            collapsed.push(' ');
            chars += 1;
        }
        collapsed.push_str(word);
        chars += word.chars().count();
        if chars > max {
            break;
        }
    }
    if chars <= max {
        return collapsed;
    }
    // The first `max - 1` characters and the ellipsis: never longer than `max`, and never an
    // ellipsis after a space.
    let mut out: String = collapsed.chars().take(max.saturating_sub(1)).collect();
    out.truncate(out.trim_end().len());
    out.push('…');
    out
}

/// The configuration file a run applied (`.ragcite.toml`, `ragcite.toml` or `pyproject.toml`'s
/// `[tool.ragcite]`), or why it applied none: what makes two people's verdicts differ on the same
/// files. Added in schema 3.3.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ConfigUsed {
    /// How the file was chosen: `found` (the nearest above the working directory), `given`
    /// (`--config`), `isolated` (`--isolated`, or a caller that reads no configuration, such as
    /// the Python package: none read), `none` (none found above the working directory).
    pub source: ConfigSource,
    /// The file whose options were applied: relative to the working directory when `found`
    /// (`../.ragcite.toml`), as given when `given`; absent for `isolated` and `none`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

/// How the configuration file was chosen.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ConfigSource {
    /// The nearest configuration file above the working directory.
    Found,
    /// The file `--config` named.
    Given,
    /// None read: `--isolated`, or a caller that reads no configuration file.
    #[default]
    Isolated,
    /// None found above the working directory.
    None,
}

impl ConfigUsed {
    /// No configuration file was read: `--isolated`, or a caller that reads none.
    pub fn isolated() -> Self {
        Self::default()
    }

    /// What a person reads, for a table's footer: `config ../.ragcite.toml`, `config team.toml
    /// (--config)`, `no config (--isolated)`, `no config found`. The path is escaped for a
    /// terminal.
    pub fn describe(&self) -> String {
        let path = self
            .path
            .as_deref()
            .map(crate::escape::printable_line)
            .unwrap_or_default();
        match self.source {
            ConfigSource::Found => format!("config {path}"),
            ConfigSource::Given => format!("config {path} (--config)"),
            ConfigSource::Isolated => "no config (--isolated)".to_string(),
            ConfigSource::None => "no config found".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn previews_collapse_white_space_and_cut_with_an_ellipsis() {
        assert_eq!(preview("  a\n b\tc ", 80), "a b c");
        assert_eq!(preview("abcdef ghijkl", 10), "abcdef gh…");
        assert_eq!(preview("abcdefghijkl", 5), "abcd…");
        assert!(preview(&"word ".repeat(100), 80).chars().count() <= 80);
        // Words that fill the room exactly, and more after them: still no longer than asked.
        assert_eq!(preview("abcd efghi jk", 10), "abcd efgh…");
        assert_eq!(preview("abcd efghi", 10), "abcd efghi");
        assert_eq!(preview("abcd efghi", 0), "…");
    }

    #[test]
    fn scores_round_to_four_decimals() {
        assert_eq!(round4(2.0 / 3.0), 0.6667);
        assert_eq!(round4(0.5), 0.5);
    }

    #[test]
    fn the_no_claim_explanation_names_every_kind() {
        for kind in crate::claim::Kind::ALL {
            assert!(
                Verdict::NoClaim.explanation().contains(kind.name()),
                "{kind} is not in no-claim's explanation"
            );
        }
    }

    #[test]
    fn verdict_names_match_serde() {
        for verdict in Verdict::ALL {
            let json = serde_json::to_string(&verdict).unwrap();
            assert_eq!(json, format!("\"{}\"", verdict.name()));
        }
    }
}
