//! Contradictions: whether the passage of a cited chunk that a sentence matches says the
//! opposite of it (polarity, antonyms, direction against the passage's figures, exclusivity).
//!
//! Each cited chunk is read for this on first use only (most cited chunks never need it): cut
//! into passages (its sentences and lines, long ones cut at about [`MAX_PASSAGE`] bytes), with an
//! inverted index from stem to the passages that hold it. Aligning a sentence then costs its
//! words' postings only (lists longer than [`MAX_POSTINGS`] are skipped: such words place
//! nothing), never a scan of the chunk; the few best passages are read again, with some text
//! around them, and compared with the sentence in `compare`.

mod compare;
mod lexicon;
#[cfg(test)]
mod tests;

use std::cell::Cell;
use std::ops::Range;

use rustc_hash::FxHashMap;

use crate::input::Chunk;
use crate::report::{Agreement, Contradiction};
use crate::words::{Analyzer, Language, WordFilter};

use super::SentenceInput;
use compare::Side;

/// How far after a negation of the chunk the index looks for the sentence's words before the
/// chunk is read for contradictions (the detector's own reach is [`lexicon::SCOPE`]; a clause
/// negation reaches further).
pub(super) const NEGATION_SCOPE: u32 = 12;

/// A passage longer than this (in bytes) is cut at its next space: a chunk without sentence
/// punctuation is still read a bounded passage at a time.
const MAX_PASSAGE: usize = 600;

/// Stems in more passages than this place nothing: they are not walked.
const MAX_POSTINGS: usize = 512;

/// At most this many passages, the best by shared words, are compared with a sentence; when
/// more tie for the best, the sentence could match any of them and none is read.
const MAX_CANDIDATES: usize = 6;

/// Sentences longer than this (in bytes) are not read for contradictions: a claim of one fact
/// is far shorter, and the comparison stays bounded.
const MAX_SENTENCE: usize = 2_000;

/// Finds contradictions between sentences and the chunks they cite, preparing each chunk once.
pub(super) struct Contradictions<'a> {
    chunks: &'a [Chunk],
    /// The check's analyzer (its stem ids are the judge's thread's, as the index's are).
    analyzer: &'a Analyzer,
    /// The sentences' words (the index's filter): a chunk's passages are read for them only.
    wanted: &'a WordFilter,
    /// Per chunk, its passages and where the sentences' words stand in them.
    prepared: FxHashMap<usize, Prepared>,
    /// Per chunk, its passages and where every word stands in them, for a claim with a word
    /// that `wanted` does not hold (none is known: every claim's words are its sentence's).
    prepared_whole: FxHashMap<usize, Prepared>,
    /// Per chunk, its words that can make a contradiction (see [`Cues`]).
    cues: FxHashMap<usize, Cues>,
    /// The first predicate that a sentence and a chunk both deny, since
    /// [`Contradictions::take_agreement`] last took it.
    agreement: Option<Agreement>,
}

/// A chunk as contradictions read it.
struct Prepared {
    /// Byte ranges of its passages, in order.
    passages: Vec<Range<usize>>,
    /// Stem id → the passages that hold it, each once, in order.
    postings: FxHashMap<u32, Vec<u32>>,
}

impl<'a> Contradictions<'a> {
    pub(super) fn new(chunks: &'a [Chunk], analyzer: &'a Analyzer, wanted: &'a WordFilter) -> Self {
        Contradictions {
            chunks,
            analyzer,
            wanted,
            prepared: FxHashMap::default(),
            prepared_whole: FxHashMap::default(),
            cues: FxHashMap::default(),
            agreement: None,
        }
    }

    /// The first predicate that a sentence read since the last call and a chunk both deny
    /// (two negatives agree), for `explain`.
    pub(super) fn take_agreement(&mut self) -> Option<Agreement> {
        self.agreement.take()
    }

    /// What `chunk` (a position in the chunks) says against `sentence`, if anything: only the
    /// passage of the chunk the sentence matches counts. `antonym`: whether the chunk holds an
    /// antonym of one of the sentence's words; `negated_near`: whether a negation of the chunk
    /// stands shortly before one of the sentence's words (the index knows both). In English, a sentence and a
    /// chunk of which neither holds a word that can make a contradiction (a negation, an
    /// exclusivity or quantifier word, a direction word, an opposite stop word or prefix) and
    /// no antonym are not read: most pairs, at the cost of one pass over each cited chunk's
    /// tokens without stemming.
    pub(super) fn find(
        &mut self,
        sentence: &SentenceInput,
        chunk: usize,
        antonym: bool,
        negated_near: bool,
    ) -> Option<Contradiction> {
        if self.analyzer.language() == Language::English && !antonym {
            let text = self.chunks.get(chunk).map(|c| c.text.as_str())?;
            let analyzer = self.analyzer;
            // The sentence's cues first: when they decide alone, the chunk is not read for its.
            let claim = Cues::read(analyzer, &sentence.text, true);
            let alone = claim.negation || claim.exclusive || claim.direction || negated_near;
            if !alone {
                let chunk_cues = self
                    .cues
                    .entry(chunk)
                    .or_insert_with(|| Cues::read(analyzer, text, false));
                if !claim.may_contradict(chunk_cues, text, negated_near) {
                    return None;
                }
            }
        }
        self.find_text(&sentence.text, chunk)
    }

    /// [`Contradictions::find`] for a sentence's text (its markers blanked).
    fn find_text(&mut self, sentence: &str, chunk: usize) -> Option<Contradiction> {
        let Contradictions {
            chunks,
            analyzer,
            wanted,
            prepared,
            prepared_whole,
            agreement: agreed,
            ..
        } = self;
        let analyzer: &Analyzer = analyzer;
        let text = &chunks.get(chunk)?.text;
        if sentence.len() > MAX_SENTENCE || text.is_empty() {
            return None;
        }
        let whole = 0..sentence.len();
        let claim = Side::read(analyzer, sentence, whole.clone(), whole);
        // Passages are ranked by the claim's words only, so reading the chunk for the
        // sentences' words (as the index does) ranks them the same, tokens that cannot have
        // one of those stems never stemmed.
        let prepared = if claim.stems().iter().all(|&stem| wanted.keeps(stem)) {
            prepared
                .entry(chunk)
                .or_insert_with(|| Prepared::new(text, analyzer, wanted))
        } else {
            prepared_whole
                .entry(chunk)
                .or_insert_with(|| Prepared::new(text, analyzer, &WordFilter::default()))
        };
        let candidates = prepared.candidates(claim.stems())?;
        let mut sides: Vec<Side> = candidates
            .into_iter()
            .map(|p| {
                let range = prepared.passages[p as usize].clone();
                let window = window(text, &range, sentence.len());
                Side::read(analyzer, text, window, range)
            })
            .collect();
        let best = sides.iter().map(|s| claim.shared(s)).max()?;
        if !compare::aligned(best, claim.stems().len()) {
            return None;
        }
        sides.retain(|s| claim.shared(s) == best);
        // A sentence copied from the chunk is never contradicted; and an equally good passage
        // that agrees with the sentence leaves it alone.
        if sides.iter().any(|s| s.contains_copy(&claim)) {
            return None;
        }
        // The first passage that contradicts; an equally good one that holds the sentence's
        // words in question and does not contradict leaves the sentence alone.
        let mut agreement = None;
        let results: Vec<_> = sides
            .iter()
            .map(|side| compare::compare(analyzer, &claim, side, &mut agreement))
            .collect();
        let Some(((kind, words, span, passage), reading)) =
            results.iter().flatten().next().cloned()
        else {
            if agreed.is_none() {
                *agreed = agreement.map(|reading| Agreement {
                    chunk: chunks[chunk].id.clone(),
                    reading,
                });
            }
            return None;
        };
        let agrees = sides
            .iter()
            .zip(&results)
            .any(|(side, found)| found.is_none() && side.holds_words_of(&claim, &words));
        if agrees {
            return None;
        }
        Some(Contradiction {
            kind,
            chunk: chunks[chunk].id.clone(),
            sentence_words: claim.words(words),
            chunk_words: text[span.clone()].to_string(),
            chunk_span: crate::report::Span {
                start: span.start,
                end: span.end,
            },
            passage,
            reading,
        })
    }
}

/// What words of an English text can make a contradiction, by kind: a text with none of
/// them, beside another with none of the partner kind, is not read.
#[derive(Debug, Default, Clone)]
struct Cues {
    /// A negation (or `fail`), which reverses what the other side states.
    negation: bool,
    /// A negation the index does not place (`nothing`, `nobody`, `unable`, `lacks`,
    /// `fail`): for a chunk, whose other negations the index places near the sentence's words.
    unplaced_negation: bool,
    /// An exclusivity word (`only`, `solely`).
    exclusive: bool,
    /// A direction word (`rose`, `fell`), which the other side's figures may go against.
    direction: bool,
    /// An opposite stop word (`before`, `more`): the other side needs its partner.
    stop_opposite: bool,
    /// The bases of its words with an opposite prefix (`likely` of `unlikely`), lower-cased:
    /// the other side needs the base.
    prefixed: Vec<String>,
    /// Its tokens lower-cased, for a sentence only (to look the chunk's prefixed bases up).
    tokens: Vec<String>,
}

impl Cues {
    /// Reads `text`'s tokens as written, lower-cased in a buffer: no stemming, and no
    /// allocation for ASCII tokens unless `keep_tokens`.
    fn read(analyzer: &Analyzer, text: &str, keep_tokens: bool) -> Cues {
        let mut cues = Cues::default();
        let mut buffer = [0u8; 24];
        analyzer.for_each_token(text, &[], |token| {
            let owned;
            let lower: &str = if token.is_ascii() && token.len() <= buffer.len() {
                let bytes = &mut buffer[..token.len()];
                bytes.copy_from_slice(token.as_bytes());
                bytes.make_ascii_lowercase();
                std::str::from_utf8(bytes).unwrap_or("")
            } else {
                owned = token.to_lowercase().replace('\u{2019}', "'");
                &owned
            };
            let unplaced = matches!(
                lower,
                "nothing"
                    | "nobody"
                    | "unable"
                    | "lacks"
                    | "lacked"
                    | "fail"
                    | "fails"
                    | "failed"
                    | "failing"
            );
            cues.unplaced_negation |= unplaced;
            cues.negation |= unplaced
                || lexicon::is_negation_word(Language::English, lower)
                || lexicon::is_negative_quantifier(lower);
            cues.exclusive |= lexicon::is_exclusive(lower);
            // Only a sentence's direction words count (against a chunk's figures).
            cues.direction |= keep_tokens && lexicon::direction(lower).is_some();
            cues.stop_opposite |= compare::is_stop_opposite(lower);
            for prefix in lexicon::OPPOSITE_PREFIXES {
                if let Some(base) = lower.strip_prefix(prefix)
                    && base.len() >= 4
                {
                    cues.prefixed.push(base.to_string());
                }
            }
            if keep_tokens {
                cues.tokens.push(lower.to_string());
            }
        });
        cues
    }

    /// Whether a sentence with these cues and a chunk with `chunk`'s may contradict: a
    /// negation or exclusivity word on either side, a direction word in the sentence,
    /// opposite stop words on both sides, or a prefixed word whose base the other side holds.
    /// `negated_near`: whether the index places a negation of the chunk shortly before one
    /// of the sentence's words.
    fn may_contradict(&self, chunk: &Cues, chunk_text: &str, negated_near: bool) -> bool {
        self.negation
            || negated_near
            || chunk.unplaced_negation
            || self.exclusive
            || chunk.exclusive
            || self.direction
            || (self.stop_opposite && chunk.stop_opposite)
            || chunk.prefixed.iter().any(|base| self.tokens.contains(base))
            || self
                .prefixed
                .iter()
                .any(|base| contains_word(chunk_text, base))
    }
}

/// Whether `text` holds `word` (lower-cased ASCII) as a word of its own, ignoring case.
fn contains_word(text: &str, word: &str) -> bool {
    let (bytes, needle) = (text.as_bytes(), word.as_bytes());
    if needle.is_empty() || needle.len() > bytes.len() {
        return false;
    }
    (0..=bytes.len() - needle.len()).any(|k| {
        bytes[k..k + needle.len()].eq_ignore_ascii_case(needle)
            && (k == 0 || !bytes[k - 1].is_ascii_alphanumeric())
            && bytes
                .get(k + needle.len())
                .is_none_or(|b| !b.is_ascii_alphanumeric())
    })
}

impl Prepared {
    /// The passages of `text` and the stems of its tokens that `filter` lets through.
    fn new(text: &str, analyzer: &Analyzer, filter: &WordFilter) -> Self {
        let passages = passages(text);
        let mut postings: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
        // The passage of the current token: tokens come in order.
        let current = Cell::new(0usize);
        let base = text.as_ptr() as usize;
        analyzer.for_each_stem_position(
            text,
            &[],
            filter,
            |id, _| {
                let passage = current.get() as u32;
                let list = postings.entry(id).or_default();
                if list.last() != Some(&passage) {
                    list.push(passage);
                }
            },
            |token, _| {
                let at = (token.as_ptr() as usize).wrapping_sub(base);
                let mut k = current.get();
                while k + 1 < passages.len() && passages[k].end <= at {
                    k += 1;
                }
                current.set(k);
            },
        );
        Prepared { passages, postings }
    }

    /// The passages that share the most of `stems` (the sentence's), best first, earliest on
    /// a tie; `None` when too many tie for the best to tell.
    fn candidates(&self, stems: &[u32]) -> Option<Vec<u32>> {
        let mut counts: FxHashMap<u32, u32> = FxHashMap::default();
        for stem in stems {
            let Some(list) = self.postings.get(stem) else {
                continue;
            };
            if list.len() > MAX_POSTINGS {
                continue;
            }
            for &passage in list {
                *counts.entry(passage).or_default() += 1;
            }
        }
        let mut ranked: Vec<(u32, u32)> = counts.into_iter().collect();
        ranked.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let top = ranked.first()?.1;
        if ranked.iter().filter(|(_, c)| *c == top).count() > MAX_CANDIDATES {
            return None;
        }
        // Passages one word short of the best are read too: a frequent word that was not
        // walked may be theirs.
        Some(
            ranked
                .into_iter()
                .take_while(|&(_, c)| c + 1 >= top)
                .take(MAX_CANDIDATES)
                .map(|(p, _)| p)
                .collect(),
        )
    }
}

/// The passages of a chunk: its sentences (ended by `.`, `!` or `?` before a space) and lines,
/// cut at the next space past [`MAX_PASSAGE`] bytes (at any character past four times that).
fn passages(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut passages = Vec::new();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let long = i - start;
        let end = match b {
            b'\n' => true,
            b'.' | b'!' | b'?' => bytes.get(i + 1).is_none_or(u8::is_ascii_whitespace),
            b' ' => long >= MAX_PASSAGE,
            _ => long >= 4 * MAX_PASSAGE && text.is_char_boundary(i + 1),
        };
        if end && text.is_char_boundary(i + 1) {
            passages.push(start..i + 1);
            start = i + 1;
        }
    }
    if start < text.len() {
        passages.push(start..text.len());
    }
    passages
}

/// The text read around a passage: `around` bytes on each side (the sentence's length), so
/// that a negation just before it is seen and a copy of the sentence across two passages is
/// recognised; cut at white space.
fn window(text: &str, passage: &Range<usize>, around: usize) -> Range<usize> {
    let space =
        |at: usize| text.is_char_boundary(at) && text[at..].starts_with(char::is_whitespace);
    let mut start = passage.start.saturating_sub(around.max(64));
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    // Back to white space, if there is some near.
    if let Some(at) = (start.saturating_sub(64)..=start)
        .rev()
        .find(|&at| at == 0 || space(at))
    {
        start = at;
    }
    let mut end = (passage.end + around).min(text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    if let Some(at) = (end..(end + 64).min(text.len())).find(|&at| space(at)) {
        end = at;
    }
    start..end
}
