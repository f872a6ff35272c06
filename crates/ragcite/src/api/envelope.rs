//! The envelope the HTTP API, the `rag_citation_debugger` tool and `check --format api` return:
//! the original contract's `RagCitationDebuggerResult`, exactly. Its objects allow no other
//! fields, so what ragcite knows beyond it (support, spans, missing words, quotations, the
//! provider's citations) goes into `presentation` blocks, never into `result`.
//!
//! The contract's verdicts have no `misquote`: a sentence whose quotation is not in the chunk
//! it cites is an `unsupported-citation` there (the citation does not support what the sentence
//! quotes), and its `presentation` block says `misquote`. Nor `contradicted`: a sentence that
//! a cited chunk says the opposite of is an `unsupported-citation` there too, and its
//! `presentation` block says `contradicted`, with the chunk's words that contradict.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::report::{ChunkResult, ChunkStatus, Report, SentenceResult, Verdict};
use crate::rounding::rounded;

/// The envelope's `schemaVersion`.
pub const ENVELOPE_VERSION: &str = "1.0";
/// The tool's id, as the contract's `x-mcp-tool` names it.
pub const TOOL_ID: &str = "rag_citation_debugger";

/// `RagCitationDebuggerResult`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Envelope<'a> {
    pub schema_version: &'static str,
    pub tool: ToolInfo,
    /// When it was computed (RFC 3339, UTC): the one field two identical requests may differ
    /// in; `SOURCE_DATE_EPOCH` fixes it.
    pub computed_at: String,
    pub inputs: EnvelopeInputs<'a>,
    pub summary: String,
    pub result: EnvelopeResult<'a>,
    pub units: BTreeMap<&'static str, &'static str>,
    pub assumptions: Vec<&'static str>,
    pub sources: Vec<SourceNote>,
    pub warnings: &'a [String],
    pub presentation: Vec<Block<'a>>,
    pub links: Links,
}

#[derive(Debug, Clone, Serialize)]
pub struct ToolInfo {
    pub id: &'static str,
    pub name: &'static str,
    pub version: &'static str,
}

/// The inputs actually used, defaults applied.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EnvelopeInputs<'a> {
    pub answer: &'a str,
    pub chunks: &'a str,
    pub support_threshold: f64,
    /// How the answer was read (`text`, `openai`, `anthropic`, ...).
    pub answer_format: &'a str,
    /// How the chunks were read (`json`, `bracket-blocks`, a provider's sources, ...).
    pub chunks_format: &'a str,
    pub chunk_count: usize,
    /// With `lang: auto`, the language detected and read in (absent when none was detected).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lang: Option<&'static str>,
    /// Present (`true`) when `lang` was detected.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub lang_detected: bool,
    /// The configuration file whose options were applied (`ragcite serve`'s, `check`'s), or
    /// why none was.
    pub config: &'a crate::report::ConfigUsed,
}

/// The contract's `result`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EnvelopeResult<'a> {
    pub sentences: Vec<EnvelopeSentence<'a>>,
    pub chunks: Vec<EnvelopeChunk<'a>>,
    pub unknown_markers: &'a [String],
    /// Every count of the check, by name (`supported`, `uncitedClaim`, `unused`, ...).
    /// `unsupportedCitation` includes the misquotes and the contradicted sentences, which
    /// `misquote` and `contradicted` count again.
    pub counts: BTreeMap<&'static str, usize>,
}

/// A sentence, with the contract's fields only.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EnvelopeSentence<'a> {
    pub index: usize,
    pub sentence: &'a str,
    pub markers: &'a [String],
    pub cited: &'a [String],
    pub verdict: &'static str,
    #[serde(serialize_with = "rounded")]
    pub coverage: f64,
    pub check_worthy: &'a [String],
    pub missing_numbers: &'a [String],
    pub best_chunk: Option<&'a str>,
    #[serde(serialize_with = "rounded")]
    pub best_coverage: f64,
    pub suggested_citation: Option<&'a str>,
}

/// A chunk, with the contract's fields only.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EnvelopeChunk<'a> {
    pub id: &'a str,
    pub preview: &'a str,
    pub times_cited: usize,
    pub supported_sentences: usize,
    #[serde(serialize_with = "rounded")]
    pub best_coverage: f64,
    pub status: ChunkStatus,
}

/// A source the method rests on.
#[derive(Debug, Clone, Serialize)]
pub struct SourceNote {
    pub title: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<&'static str>,
}

/// A display block: what the page shows beyond `result`.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Block<'a> {
    /// Each sentence as ragcite judged it: its own verdict (with `misquote`), support, where
    /// it is, the words the cited chunk lacks and its quotations.
    Sentences { sentences: Vec<SentenceDetails<'a>> },
    /// The provider's own citations, when the answer is a response that carries them.
    Citations {
        citations: &'a [crate::report::CitationResult],
    },
    /// The answer's text as read, which the sentences' `span` (UTF-8 bytes) index.
    Answer { text: String },
    /// Every chunk's full text, in input order.
    Chunks { chunks: Vec<ChunkText<'a>> },
    /// The gate: whether the limits held, the one-line summary and each limit exceeded.
    Gate {
        passed: bool,
        summary: String,
        failures: Vec<String>,
    },
}

/// A chunk's id and full text.
#[derive(Debug, Clone, Serialize)]
pub struct ChunkText<'a> {
    pub id: &'a str,
    pub text: &'a str,
}

/// A citation marker in a sentence: where it is (UTF-8 bytes from the sentence's start), its
/// text, its labels and the chunks they resolve to (none: an unknown marker).
#[derive(Debug, Clone, Serialize)]
pub struct MarkerSpan {
    pub start: usize,
    pub end: usize,
    pub text: String,
    pub labels: Vec<String>,
    pub chunks: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SentenceDetails<'a> {
    pub index: usize,
    /// ragcite's verdict, which may be `misquote` or `contradicted`.
    pub verdict: Verdict,
    #[serde(serialize_with = "rounded")]
    pub support: f64,
    pub span: crate::report::Span,
    pub start: crate::sentence::LineColumn,
    pub end: crate::sentence::LineColumn,
    pub content_words: usize,
    pub missing_words: &'a [String],
    pub unknown_markers: &'a [String],
    pub quotes: &'a [crate::report::QuoteCheck],
    /// The ids of the chunks its markers resolve to, as `result` has them.
    pub cited: &'a [String],
    pub missing_numbers: &'a [String],
    pub suggested_citation: Option<&'a str>,
    pub best_chunk: Option<&'a str>,
    /// The cited chunk that decided the verdict.
    pub deciding_chunk: Option<&'a str>,
    /// Each cited chunk judged on its own.
    pub cited_chunks: &'a [crate::report::CitedChunk],
    /// What a cited chunk says against the sentence (verdict `contradicted`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contradiction: Option<&'a crate::report::Contradiction>,
    /// Why it is not a claim (verdict `no-claim`), and the words that decided it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<crate::claim::Kind>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind_cue: Option<&'a str>,
    /// Its citation markers, where they are and what they resolve to.
    pub marker_spans: Vec<MarkerSpan>,
}

/// Where the page, the API, its contract and the methodology are, on the server that answered.
#[derive(Debug, Clone, Serialize)]
pub struct Links {
    pub human: String,
    pub api: String,
    pub openapi: String,
    pub methodology: String,
}

impl Links {
    /// The links of a server at `base` (`http://127.0.0.1:8080`, no final `/`).
    pub fn at(base: &str) -> Self {
        let base = base.trim_end_matches('/');
        Links {
            human: format!("{base}/"),
            api: format!("{base}/api/v1/calculate"),
            openapi: format!("{base}/api/v1/openapi.json"),
            methodology: format!("{base}/methodology"),
        }
    }
}

/// What one envelope is made from.
#[derive(Debug, Clone, Copy)]
pub struct EnvelopeParts<'a> {
    pub report: &'a Report,
    pub answer: &'a str,
    pub chunks: &'a str,
    pub threshold: f64,
    pub answer_format: &'a str,
    pub chunks_format: &'a str,
    pub computed_at: &'a str,
    /// The server's address, for `links`.
    pub base_url: &'a str,
    /// The answer and chunks as read, for the `answer` and `chunks` blocks and the markers.
    pub read: Option<Read<'a>>,
    /// The gate, for the `gate` block; `None` leaves the block out.
    pub gate: Option<&'a crate::gate::GateOutcome>,
    /// The configuration file applied, or why none was.
    pub config: &'a crate::report::ConfigUsed,
}

/// The answer and chunks as read.
#[derive(Debug, Clone, Copy)]
pub struct Read<'a> {
    pub answer: &'a crate::input::Answer,
    pub chunks: &'a crate::input::Chunks,
}

/// The answer's text as the spans index it: the byte-order mark the spans count put back.
pub fn answer_as_read(answer: &crate::input::Answer) -> String {
    if answer.offset > 0 {
        format!("\u{feff}{}", answer.text)
    } else {
        answer.text.clone()
    }
}

/// The contract's verdict for ragcite's: `misquote` and `contradicted` are not among them.
pub fn contract_verdict(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Misquote | Verdict::Contradicted => Verdict::UnsupportedCitation.name(),
        other => other.name(),
    }
}

impl<'a> Envelope<'a> {
    pub fn new(parts: EnvelopeParts<'a>) -> Self {
        let result = &parts.report.result;
        // The answer's own source list names chunks for its labels, as in the check.
        let resolver = parts.read.map(|read| {
            let list = crate::marker::sources::read(&read.answer.text);
            let map = crate::marker::sources::map(&list, &read.answer.text, &read.chunks.chunks);
            crate::marker::Resolver::for_chunks(read.chunks).with_source_map(&map)
        });
        let chunk_ids: Vec<&str> = parts
            .read
            .map(|read| read.chunks.chunks.iter().map(|c| c.id.as_str()).collect())
            .unwrap_or_default();
        let mut presentation = vec![Block::Sentences {
            sentences: result
                .sentences
                .iter()
                .map(|s| details(s, resolver.as_ref(), &chunk_ids))
                .collect(),
        }];
        if !result.citations.is_empty() {
            presentation.push(Block::Citations {
                citations: &result.citations,
            });
        }
        if let Some(read) = parts.read {
            presentation.push(Block::Answer {
                text: answer_as_read(read.answer),
            });
            presentation.push(Block::Chunks {
                chunks: read
                    .chunks
                    .chunks
                    .iter()
                    .map(|c| ChunkText {
                        id: &c.id,
                        text: &c.text,
                    })
                    .collect(),
            });
        }
        if let Some(gate) = parts.gate {
            presentation.push(Block::Gate {
                passed: gate.passed,
                summary: crate::gate::summary_line(parts.report, gate),
                failures: gate.failures.iter().map(ToString::to_string).collect(),
            });
        }
        let language = parts.report.language;
        Envelope {
            schema_version: ENVELOPE_VERSION,
            tool: ToolInfo {
                id: TOOL_ID,
                name: "RAG Citation Debugger (ragcite)",
                version: env!("CARGO_PKG_VERSION"),
            },
            computed_at: parts.computed_at.to_string(),
            inputs: EnvelopeInputs {
                answer: parts.answer,
                chunks: parts.chunks,
                support_threshold: parts.threshold,
                answer_format: parts.answer_format,
                chunks_format: parts.chunks_format,
                chunk_count: result.chunks.len(),
                lang: language.auto.then(|| language.used.code()),
                lang_detected: language.auto,
                config: parts.config,
            },
            summary: parts.report.counts_line(),
            result: EnvelopeResult {
                sentences: result.sentences.iter().map(sentence).collect(),
                chunks: result.chunks.iter().map(chunk).collect(),
                unknown_markers: &result.unknown_markers,
                counts: counts(parts.report),
            },
            units: UNITS.iter().copied().collect(),
            assumptions: ASSUMPTIONS.to_vec(),
            sources: sources(),
            warnings: &parts.report.warnings,
            presentation,
            links: Links::at(parts.base_url),
        }
    }
}

fn sentence(s: &SentenceResult) -> EnvelopeSentence<'_> {
    EnvelopeSentence {
        index: s.index,
        sentence: &s.sentence,
        markers: &s.markers,
        cited: &s.cited,
        verdict: contract_verdict(s.verdict),
        coverage: s.coverage,
        check_worthy: &s.check_worthy,
        missing_numbers: &s.missing_numbers,
        best_chunk: s.best_chunk.as_deref(),
        best_coverage: s.best_coverage,
        suggested_citation: s.suggested_citation.as_deref(),
    }
}

fn details<'a>(
    s: &'a SentenceResult,
    resolver: Option<&crate::marker::Resolver>,
    chunk_ids: &[&str],
) -> SentenceDetails<'a> {
    let marker_spans = resolver.map_or_else(Vec::new, |resolver| {
        crate::marker::markers(&s.sentence, resolver)
            .into_iter()
            .map(|m| {
                let mut chunks: Vec<String> = Vec::new();
                for label in &m.labels {
                    for &i in resolver.resolve(label) {
                        if let Some(id) = chunk_ids.get(i)
                            && !chunks.iter().any(|c| c == id)
                        {
                            chunks.push((*id).to_string());
                        }
                    }
                }
                MarkerSpan {
                    start: m.span.start,
                    end: m.span.end,
                    text: s.sentence[m.span.clone()].to_string(),
                    labels: m.labels,
                    chunks,
                }
            })
            .collect()
    });
    SentenceDetails {
        cited: &s.cited,
        missing_numbers: &s.missing_numbers,
        suggested_citation: s.suggested_citation.as_deref(),
        best_chunk: s.best_chunk.as_deref(),
        deciding_chunk: s.deciding_chunk.as_deref(),
        cited_chunks: &s.cited_chunks,
        contradiction: s.contradiction.as_ref(),
        kind: s.kind,
        kind_cue: s.kind_cue.as_deref(),
        marker_spans,
        index: s.index,
        verdict: s.verdict,
        support: s.support,
        span: s.span,
        start: s.start,
        end: s.end,
        content_words: s.content_words,
        missing_words: &s.missing_words,
        unknown_markers: &s.unknown_markers,
        quotes: &s.quotes,
    }
}

fn chunk(c: &ChunkResult) -> EnvelopeChunk<'_> {
    EnvelopeChunk {
        id: &c.id,
        preview: &c.preview,
        times_cited: c.times_cited,
        supported_sentences: c.supported_sentences,
        best_coverage: c.best_coverage,
        status: c.status,
    }
}

/// The counts by name, the misquotes and the contradicted sentences counted among the
/// unsupported citations as the sentences' contract verdicts are.
fn counts(report: &Report) -> BTreeMap<&'static str, usize> {
    let c = &report.result.counts;
    BTreeMap::from([
        ("sentences", c.sentences),
        ("claims", c.claims),
        ("supported", c.supported),
        ("numberMismatch", c.number_mismatch),
        ("weakSupport", c.weak_support),
        (
            "unsupportedCitation",
            c.unsupported_citation + c.misquote + c.contradicted,
        ),
        ("misquote", c.misquote),
        ("contradicted", c.contradicted),
        ("uncitedClaim", c.uncited_claim),
        ("noClaim", c.no_claim),
        ("abstentions", c.abstentions),
        ("misquotedCitations", c.misquoted_citations),
        ("unknownMarkers", c.unknown_markers),
        ("chunks", c.chunks),
        ("used", c.used),
        ("citedButNotSupporting", c.cited_but_not_supporting),
        ("relevantButUncited", c.relevant_but_uncited),
        ("unused", c.unused),
    ])
}

pub(crate) const UNITS: [(&str, &str); 4] = [
    (
        "coverage",
        "share of the sentence's content words found in the cited chunk, 0 to 1",
    ),
    (
        "bestCoverage",
        "the highest coverage of the sentence by any chunk (of a chunk: over the claim sentences), 0 to 1",
    ),
    (
        "supportThreshold",
        "the support a sentence's best cited chunk must reach, 0.1 to 1",
    ),
    ("support", crate::how_support_is_scored!()),
];

const ASSUMPTIONS: [&str; 6] = [
    "Markers recognised: [1], [1, 3], [1-3], [doc2], [^1], ^1, ¹ (not an exponent such as m² or 10⁶), <sup>1</sup>, 【4†source】, (source: x); markers after the full stop belong to the sentence before.",
    "Labels resolve to the chunk the answer's own source list (Sources:, References, footnote definitions) names for them by title, URL or file name, then to a chunk id exactly, then to a chunk's other names (file, URL, title), then by trailing number (doc2 ↔ 2), then a bare number n to the n-th chunk unless the chunks are numbered by their ids. The source list's lines are not claims.",
    "Verdicts follow support: supported at or above the threshold with every number found; weak support from half the threshold; below it, unsupported citation.",
    "Numbers are compared by value (1,083 = 1083; 7 million = 7,000,000) and must appear in a cited chunk.",
    "A sentence with three or more content words or a number and no marker is an uncited claim.",
    "Lexical overlap is not entailment: a paraphrase can look unsupported and a subtle change can look supported. Treat the results as pointers for review.",
];

fn sources() -> Vec<SourceNote> {
    vec![
        SourceNote {
            title: "Snowball English (Porter2) stemmer",
            url: Some("https://snowballstem.org/algorithms/english/stemmer.html"),
            note: Some("content words are compared by stem"),
        },
        SourceNote {
            title: "RFC 9457: Problem Details for HTTP APIs",
            url: Some("https://www.rfc-editor.org/rfc/rfc9457"),
            note: Some("the form of error responses"),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misquote_and_contradicted_are_unsupported_citations_in_the_contract() {
        assert_eq!(contract_verdict(Verdict::Misquote), "unsupported-citation");
        assert_eq!(
            contract_verdict(Verdict::Contradicted),
            "unsupported-citation"
        );
        for verdict in Verdict::ALL
            .into_iter()
            .filter(|v| !matches!(v, Verdict::Misquote | Verdict::Contradicted))
        {
            assert_eq!(contract_verdict(verdict), verdict.name());
        }
    }

    #[test]
    fn a_contradicted_sentence_keeps_its_detail_in_the_presentation_block() {
        let report = crate::emit::testing::report();
        let (answer, chunks) = crate::emit::testing::read();
        let isolated = crate::report::ConfigUsed::isolated();
        let envelope = Envelope::new(EnvelopeParts {
            report: &report,
            answer: crate::emit::testing::ANSWER,
            chunks: "",
            threshold: 0.5,
            answer_format: "text",
            chunks_format: "json",
            computed_at: "2026-01-01T00:00:00Z",
            base_url: "http://127.0.0.1:8080",
            read: Some(Read {
                answer: &answer,
                chunks: &chunks,
            }),
            gate: None,
            config: &isolated,
        });
        let doc = serde_json::to_value(&envelope).unwrap();
        let result = &doc["result"];
        assert_eq!(result["sentences"][0]["verdict"], "unsupported-citation");
        assert_eq!(result["counts"]["unsupportedCitation"], 2);
        assert_eq!(result["counts"]["contradicted"], 1);
        let details = &doc["presentation"][0]["sentences"];
        assert_eq!(details[0]["verdict"], "contradicted");
        assert_eq!(details[0]["decidingChunk"], "2");
        assert_eq!(
            details[0]["contradiction"]["chunkWords"],
            "did not significantly reduce"
        );
        assert_eq!(details[1]["citedChunks"][1]["finding"], "adds-nothing");
        assert!(details[1].get("contradiction").is_none());
        assert!(doc["summary"].as_str().unwrap().contains("1 contradicted"));
    }

    #[test]
    fn links_are_absolute_on_the_server() {
        let links = Links::at("http://127.0.0.1:8080/");
        assert_eq!(links.human, "http://127.0.0.1:8080/");
        assert_eq!(links.api, "http://127.0.0.1:8080/api/v1/calculate");
    }
}
