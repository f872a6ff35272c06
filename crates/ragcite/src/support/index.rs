//! The chunk index: each chunk's words read once (on a second thread for large inputs, or
//! streamed and screened by the sentences' words), and for each wanted stem the chunks that
//! hold it, with their numbers and negations.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::input::Chunk;
use crate::words::{
    Analyzer, Number, NumberValue, Role, SpelledNumbers, WordFilter, chunk_numbers, is_negation,
    negates,
};

use super::*;

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
    pub(super) chunks: Vec<ChunkText>,
}

/// One chunk of [`ChunkTexts`].
#[derive(Debug, Default)]
pub(super) struct ChunkText {
    pub(super) numbers: FxHashSet<NumberValue>,
    /// Each token, in order, as its position in [`ChunkTexts::tokens`].
    tokens: Vec<u32>,
    /// Positions (in `tokens`) of the negations.
    pub(super) negations: Vec<u32>,
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
        // What the notes need of each distinct token (see `TokenNotes::kind`), worked out
        // once per word form rather than once per token.
        let mut kinds: Vec<u8> = Vec::with_capacity(length / 24);
        for chunk in chunks {
            let (found, glued) = chunk_numbers(&chunk.text, analyzer.language().decimal());
            let mut text = ChunkText::default();
            let mut notes = TokenNotes::new(english);
            analyzer.for_each_token(&chunk.text, &found, |token| {
                let next = texts.tokens.len() as u32;
                let k = *distinct.entry(token).or_insert(next);
                if k == next {
                    texts.tokens.push(token);
                    kinds.push(notes.kind(token));
                }
                notes.token_of_kind(
                    &chunk.text,
                    token,
                    text.tokens.len() as u32,
                    kinds[k as usize],
                );
                text.tokens.push(k);
            });
            text.negations = notes.negations;
            text.numbers = chunk_values(found, glued, notes.spelled);
            texts.chunks.push(text);
        }
        texts
    }
}

/// A token that is a negation (`not`, `didn't`), wherever it stands.
const NEGATION: u8 = 1;
/// A token that is no part of a number in words (see [`SpelledNumbers::is_plain`]).
const PLAIN: u8 = 2;

/// What a chunk pass notes of every token beside its word, in English: where the negations
/// stand (as token positions) and the numbers written in words.
struct TokenNotes {
    english: bool,
    /// Tokens seen.
    count: u32,
    pub(super) negations: Vec<u32>,
    spelled: SpelledNumbers,
}

impl TokenNotes {
    pub(super) fn new(english: bool) -> Self {
        TokenNotes {
            english,
            count: 0,
            negations: Vec::new(),
            spelled: SpelledNumbers::default(),
        }
    }

    /// The token at position `at` of the chunk `text` (a slice of it).
    fn token(&mut self, text: &str, token: &str, at: u32) {
        let kind = self.kind(token);
        self.token_of_kind(text, token, at, kind);
    }

    /// What the notes need of a word form, the same wherever it stands: whether it is a
    /// negation (`NEGATION`) and whether numbers in words pass it by as any word (`PLAIN`).
    fn kind(&self, token: &str) -> u8 {
        if !self.english {
            return 0;
        }
        let mut kind = 0;
        if is_negation(token) {
            kind |= NEGATION;
        }
        if SpelledNumbers::is_plain(token) {
            kind |= PLAIN;
        }
        kind
    }

    /// [`TokenNotes::token`] for a token whose [`TokenNotes::kind`] is known.
    fn token_of_kind(&mut self, text: &str, token: &str, at: u32, kind: u8) {
        self.count = self.count.saturating_add(1);
        if self.english {
            if kind & NEGATION != 0 && negates(text, token) {
                self.negations.push(at);
            }
            if kind & PLAIN != 0 {
                self.spelled.plain_word();
            } else {
                self.spelled.word(token);
            }
        }
    }
}

/// The number values a chunk holds: those written in digits (`found`, with the other values
/// each stands for, such as its date; and `glued`: digits glued to a word, and what the chunk
/// holds beside its numbers, see [`chunk_numbers`]) and, in English, in words (a chunk that
/// writes `six albums` holds the 6 of a sentence).
fn chunk_values(
    found: Vec<Number>,
    glued: Vec<NumberValue>,
    spelled: SpelledNumbers,
) -> FxHashSet<NumberValue> {
    let mut values: FxHashSet<NumberValue> = FxHashSet::default();
    for number in found {
        values.extend(number.also);
        values.insert(number.value);
    }
    values.extend(glued);
    values.extend(spelled.finish());
    values
}

/// A stem is frequent when more than this share of the chunks hold it ...
const FREQUENT_SHARE: usize = 16;
/// ... and more than this many.
const FREQUENT_FEWEST: usize = 32;

/// The chunks' content words and numbers, indexed once: for each stem and each number value,
/// the chunks (positions, ascending) that hold it. Scoring a sentence walks the lists of its
/// own words only, never every chunk's words.
#[derive(Debug, Default)]
pub struct ChunkIndex {
    /// Interned stem id → the chunks holding it.
    pub(super) postings: FxHashMap<u32, Vec<u32>>,
    pub(super) numbers: FxHashMap<NumberValue, Vec<u32>>,
    /// Each chunk's distinct figures of 2 or more, for derived figures; `None` past
    /// [`derived::MAX_OPERANDS`].
    pub(super) figures: Vec<Option<Box<[f64]>>>,
    /// Each chunk's times of day, in hours (`17:30` is 17.5), at most
    /// [`derived::MAX_OPERANDS`], for durations.
    pub(super) times: Vec<Box<[f64]>>,
    /// Where the wanted stems stand in each chunk, for phrase evidence.
    pub(super) positions: score::Positions,
    /// Tokens in each chunk.
    pub(super) lengths: Vec<u32>,
    /// The fewest and the most tokens of a chunk.
    pub(super) length_range: (u32, u32),
    pub(super) len: usize,
    /// The frequent stems (held by more chunks than [`ChunkIndex::frequent_above`]) and
    /// which chunks hold each, as bits: a sentence's search walks the lists of its other words
    /// only, and tests these bits for the chunks it found (see the judge).
    pub(super) frequent: Frequent,
    /// The filter the chunks were indexed with: the sentences' words.
    pub(super) wanted: WordFilter,
}

/// Stems held by many chunks, with a bit set of their chunks each.
#[derive(Debug, Default)]
pub(super) struct Frequent {
    /// Stem id → its place in `bits`.
    pub(super) places: FxHashMap<u32, u32>,
    /// The stem of each place.
    pub(super) stems: Vec<u32>,
    /// `words` 64-bit words per stem: bit `c` for chunk `c`.
    bits: Vec<u64>,
    words: usize,
}

impl Frequent {
    /// Whether the stem at `place` is held by `chunk`.
    pub(super) fn holds(&self, place: u32, chunk: usize) -> bool {
        self.bits[place as usize * self.words + chunk / 64] & (1 << (chunk % 64)) != 0
    }
}

impl ChunkIndex {
    /// Indexes the chunks' content words that `wanted` lets through (the sentences' words:
    /// nothing else is ever looked up), where they stand, and the chunks' numbers.
    pub fn build(words: ChunkWords<'_>, analyzer: &Analyzer, filter: WordFilter) -> Self {
        let mut index = ChunkIndex::default();
        let wanted = &filter;
        let english = analyzer.language() == crate::Language::English;
        match words {
            ChunkWords::Streamed(chunks) => {
                for chunk in chunks {
                    let (found, glued) = chunk_numbers(&chunk.text, analyzer.language().decimal());
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
                    let length = notes.count;
                    let values = chunk_values(found, glued, notes.spelled);
                    index.add_chunk(at_positions, notes.negations, values, length);
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
                    let length = u32::try_from(text.tokens.len()).unwrap_or(u32::MAX);
                    index.add_chunk(at_positions, text.negations, text.numbers, length);
                }
            }
        }
        for list in index.numbers.values_mut() {
            list.sort_unstable();
        }
        index.length_range = (
            index.lengths.iter().copied().min().unwrap_or(0),
            index.lengths.iter().copied().max().unwrap_or(0),
        );
        index.frequent = index.frequent_stems();
        index.wanted = filter;
        index
    }

    /// How many chunks a stem may be held by and still not count as frequent: a share of the
    /// chunks, so that the bits of all frequent stems take no more room than their lists.
    pub(super) fn frequent_above(&self) -> usize {
        (self.len / FREQUENT_SHARE).max(FREQUENT_FEWEST)
    }

    fn frequent_stems(&self) -> Frequent {
        let above = self.frequent_above();
        let mut stems: Vec<u32> = self
            .postings
            .iter()
            .filter(|(_, list)| list.len() > above)
            .map(|(&id, _)| id)
            .collect();
        stems.sort_unstable();
        let words = self.len.div_ceil(64);
        let mut bits = vec![0u64; stems.len() * words];
        for (place, id) in stems.iter().enumerate() {
            for &chunk in &self.postings[id] {
                bits[place * words + chunk as usize / 64] |= 1 << (chunk % 64);
            }
        }
        Frequent {
            places: (0u32..)
                .zip(&stems)
                .map(|(place, &id)| (id, place))
                .collect(),
            stems,
            bits,
            words,
        }
    }

    /// Adds the next chunk: its wanted words with their positions, its negations' positions
    /// its number values and its length in tokens.
    fn add_chunk(
        &mut self,
        at_positions: Vec<(u32, u32)>,
        negations: Vec<u32>,
        values: FxHashSet<NumberValue>,
        length: u32,
    ) {
        let chunk = self.len as u32;
        self.lengths.push(length);
        self.len += 1;
        let mut ids: Vec<u32> = at_positions.iter().map(|&(id, _)| id).collect();
        ids.sort_unstable();
        ids.dedup();
        for id in ids {
            self.postings.entry(id).or_default().push(chunk);
        }
        self.positions.push_chunk(at_positions, negations);
        let mut figures: Vec<f64> = Vec::new();
        let mut times: Vec<f64> = Vec::new();
        for value in values {
            if times.len() < derived::MAX_OPERANDS
                && let Some(hours) = value.as_hours()
            {
                times.push(hours);
            }
            if figures.len() <= derived::MAX_OPERANDS
                && let Some(figure) = derived::operand(&value)
            {
                figures.push(figure);
            }
            self.numbers.entry(value).or_default().push(chunk);
        }
        self.figures
            .push((figures.len() <= derived::MAX_OPERANDS).then(|| figures.into_boxed_slice()));
        times.sort_by(f64::total_cmp);
        self.times.push(times.into_boxed_slice());
    }

    pub(super) fn holds_word(&self, stem_id: u32, chunk: usize) -> bool {
        self.postings
            .get(&stem_id)
            .is_some_and(|list| list.binary_search(&(chunk as u32)).is_ok())
    }

    pub(super) fn holds_number(&self, value: &NumberValue, chunk: usize) -> bool {
        self.numbers
            .get(value)
            .is_some_and(|list| list.binary_search(&(chunk as u32)).is_ok())
    }

    /// Whether `chunk` holds the number's value or one of the others it stands for (its date,
    /// ...).
    pub(super) fn holds_value_of(&self, number: &Number, chunk: usize) -> bool {
        self.holds_number(&number.value, chunk)
            || number.also.iter().any(|v| self.holds_number(v, chunk))
    }

    /// Whether the number is no mismatch as far as `chunk` goes: the chunk holds its value
    /// (see [`ChunkIndex::holds_value_of`]), or it is a label whose word the chunk never
    /// writes with a number, or a name.
    pub(super) fn holds_figure(&self, number: &Number, chunk: usize) -> bool {
        match number.role {
            Role::Name => true,
            Role::Label => {
                self.holds_value_of(number, chunk)
                    || number
                        .label_word()
                        .is_none_or(|word| !self.holds_number(&word, chunk))
            }
            Role::Figure => self.holds_value_of(number, chunk),
        }
    }
}
