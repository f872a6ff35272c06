//! Words stage: turns a sentence or a chunk into its content words (lower-cased, stop words
//! removed, Snowball-stemmed) and its numbers. The same analysis runs on both sides.

mod number;
mod porter2;

use std::cell::RefCell;
use std::fmt;
use std::str::FromStr;

pub use number::{Number, NumberValue, SpelledNumbers, chunk_numbers, numbers};
use rust_stemmers::{Algorithm, Stemmer};
use rustc_hash::{FxHashMap, FxHashSet};
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// A language: its Snowball stemmer and its stop-word list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Language {
    Arabic,
    Danish,
    Dutch,
    #[default]
    English,
    Finnish,
    French,
    German,
    Greek,
    Hungarian,
    Italian,
    Norwegian,
    Portuguese,
    Romanian,
    Russian,
    Spanish,
    Swedish,
    Tamil,
    Turkish,
}

impl Language {
    /// Every language, in the order of their codes.
    pub const ALL: [Language; 18] = [
        Language::Arabic,
        Language::Danish,
        Language::German,
        Language::Greek,
        Language::English,
        Language::Spanish,
        Language::Finnish,
        Language::French,
        Language::Hungarian,
        Language::Italian,
        Language::Dutch,
        Language::Norwegian,
        Language::Portuguese,
        Language::Romanian,
        Language::Russian,
        Language::Swedish,
        Language::Tamil,
        Language::Turkish,
    ];

    /// ISO 639-1 code, as `--lang` takes it.
    pub fn code(self) -> &'static str {
        match self {
            Language::Arabic => "ar",
            Language::Danish => "da",
            Language::Dutch => "nl",
            Language::English => "en",
            Language::Finnish => "fi",
            Language::French => "fr",
            Language::German => "de",
            Language::Greek => "el",
            Language::Hungarian => "hu",
            Language::Italian => "it",
            Language::Norwegian => "no",
            Language::Portuguese => "pt",
            Language::Romanian => "ro",
            Language::Russian => "ru",
            Language::Spanish => "es",
            Language::Swedish => "sv",
            Language::Tamil => "ta",
            Language::Turkish => "tr",
        }
    }

    /// English name, for help texts.
    pub fn name(self) -> &'static str {
        match self {
            Language::Arabic => "Arabic",
            Language::Danish => "Danish",
            Language::Dutch => "Dutch",
            Language::English => "English",
            Language::Finnish => "Finnish",
            Language::French => "French",
            Language::German => "German",
            Language::Greek => "Greek",
            Language::Hungarian => "Hungarian",
            Language::Italian => "Italian",
            Language::Norwegian => "Norwegian",
            Language::Portuguese => "Portuguese",
            Language::Romanian => "Romanian",
            Language::Russian => "Russian",
            Language::Spanish => "Spanish",
            Language::Swedish => "Swedish",
            Language::Tamil => "Tamil",
            Language::Turkish => "Turkish",
        }
    }

    fn algorithm(self) -> Algorithm {
        match self {
            Language::Arabic => Algorithm::Arabic,
            Language::Danish => Algorithm::Danish,
            Language::Dutch => Algorithm::Dutch,
            Language::English => Algorithm::English,
            Language::Finnish => Algorithm::Finnish,
            Language::French => Algorithm::French,
            Language::German => Algorithm::German,
            Language::Greek => Algorithm::Greek,
            Language::Hungarian => Algorithm::Hungarian,
            Language::Italian => Algorithm::Italian,
            Language::Norwegian => Algorithm::Norwegian,
            Language::Portuguese => Algorithm::Portuguese,
            Language::Romanian => Algorithm::Romanian,
            Language::Russian => Algorithm::Russian,
            Language::Spanish => Algorithm::Spanish,
            Language::Swedish => Algorithm::Swedish,
            Language::Tamil => Algorithm::Tamil,
            Language::Turkish => Algorithm::Turkish,
        }
    }

    /// The stop list: for English the one published with the Snowball English stemmer; for the
    /// others NLTK's lists, which are the Snowball project's lists as PostgreSQL ships them
    /// (Arabic, Greek, Romanian, Tamil and Turkish, which Snowball publishes none for, come from
    /// NLTK's own additions).
    fn stop_words(self) -> Vec<&'static str> {
        match self {
            Language::English => include_str!("words/english_stop.txt")
                .split_whitespace()
                .collect(),
            other => stop_words::lookup(other.code())
                .map(|words| words.to_vec())
                .unwrap_or_default(),
        }
    }

    /// Whether an apostrophe between two letters stays inside the word. In English it keeps
    /// contractions whole (`don't` is a stop word, `won` is not) and lets the stemmer drop a
    /// possessive `'s`; in French or Italian it separates an elided article (`l'homme`).
    fn joins_apostrophes(self) -> bool {
        self == Language::English
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for Language {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim().to_lowercase();
        Language::ALL
            .into_iter()
            .find(|lang| lang.code() == wanted || lang.name().to_lowercase() == wanted)
            .ok_or_else(|| {
                let codes: Vec<_> = Language::ALL.iter().map(|l| l.code()).collect();
                format!(
                    "unknown language `{s}` (expected one of {})",
                    codes.join(", ")
                )
            })
    }
}

/// Most distinct tokens remembered per thread before [`Analyzer::begin`] forgets them.
const INTERNER_LIMIT: usize = 1 << 19;

/// Each thread's distinct tokens and stems, with a number for each stem.
#[derive(Default)]
struct Interner {
    language: Option<Language>,
    /// Token as written → its stem's id, or `None` when it is not a content word.
    tokens: FxHashMap<Box<str>, Option<u32>>,
    stems: FxHashMap<Box<str>, u32>,
    /// Stem of each id.
    names: Vec<Box<str>>,
}

impl Interner {
    /// Remembers what `token` is: the id of its stem, interned, or `None` when it is no
    /// content word (`stem` is `None`). Returns that id.
    fn remember(&mut self, token: &str, stem: Option<String>) -> Option<u32> {
        let id = stem.map(|stem| self.intern(stem));
        self.tokens.insert(token.into(), id);
        id
    }

    fn intern(&mut self, stem: String) -> u32 {
        if let Some(id) = self.stems.get(stem.as_str()) {
            return *id;
        }
        let id = self.names.len() as u32;
        let stem = stem.into_boxed_str();
        self.names.push(stem.clone());
        self.stems.insert(stem, id);
        id
    }
}

thread_local! {
    static INTERNER: RefCell<Interner> = RefCell::new(Interner::default());
}

/// What ends a sentence inside a text, between two of its words: the first word after it is
/// not taken for a name.
const SENTENCE_ENDS: &[&str] = &[". ", "! ", "? ", ".\u{a0}", ".\n", "!\n", "?\n"];

/// A content word: its stem, which is what is compared, and the word as written
/// (lower-cased), which is what is shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    pub stem: String,
    pub surface: String,
    /// The stem's interned id (see [`Analyzer::stem_id`]).
    pub id: u32,
    /// A general English word (`also`, `important`, `provide`): evidence of little weight.
    pub general: bool,
    /// Written with a capital, and not as the text's first word: a name, most likely.
    pub name: bool,
    /// Within [`NEGATION_REACH`] words after a negation (`not`, `never`, `didn't`) somewhere
    /// in the text (English only).
    pub negated: bool,
    /// Stem ids of its antonyms (`increase` → `decrease`, `reduce`), with the antonyms as
    /// written in the table (English only; see `support/antonyms.txt`).
    pub antonyms: Vec<(u32, &'static str)>,
}

/// The antonym table: for the stem of each word of `support/antonyms.txt`, the words of
/// opposite meaning.
fn antonym_table() -> &'static FxHashMap<String, Vec<&'static str>> {
    static TABLE: std::sync::OnceLock<FxHashMap<String, Vec<&'static str>>> =
        std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let stemmer = Stemmer::create(Algorithm::English);
        let mut table: FxHashMap<String, Vec<&'static str>> = FxHashMap::default();
        for line in include_str!("support/antonyms.txt").lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut sides = line.split('|').map(str::split_whitespace);
            let (Some(left), Some(right)) = (sides.next(), sides.next()) else {
                continue;
            };
            let (left, right): (Vec<&str>, Vec<&str>) = (left.collect(), right.collect());
            for (from, to) in [(&left, &right), (&right, &left)] {
                for word in from.iter() {
                    let entry = table.entry(stemmer.stem(word).into_owned()).or_default();
                    for other in to.iter() {
                        if !entry.contains(other) {
                            entry.push(other);
                        }
                    }
                }
            }
        }
        table
    })
}

/// How many words after a negation it reaches: `not` in `was not completed` and `did not
/// fully complete` negates `completed` and `complete`.
pub const NEGATION_REACH: u32 = 3;

/// Whether `token`, a token of `text` (a slice of it), negates the words after it: a negation
/// not followed by punctuation. `No, the tower …` and `… or not.` negate nothing after them.
#[inline]
pub fn negates(text: &str, token: &str) -> bool {
    is_negation(token) && !punctuation_follows(text, token)
}

/// Whether punctuation follows `token`, a slice of `text`, after at most spaces.
fn punctuation_follows(text: &str, token: &str) -> bool {
    let start = (token.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
    let after = text.get(start + token.len()..).unwrap_or("");
    after
        .trim_start_matches([' ', '\u{a0}'])
        .starts_with([',', '.', ';', ':', '!', '?'])
}

/// Whether an English token is a negation: `not`, `no`, `never`, `without`, `nor`, `cannot`,
/// `neither`, `none`, and contractions ending in `n't`.
#[inline]
pub fn is_negation(token: &str) -> bool {
    // Runs on every token of every chunk: no allocation.
    const WORDS: [&str; 8] = [
        "not", "no", "never", "without", "nor", "cannot", "neither", "none",
    ];
    let bytes = token.as_bytes();
    let contraction = |apostrophe: &[u8]| {
        bytes.len() > apostrophe.len() + 2
            && bytes[..bytes.len() - 1].ends_with(apostrophe)
            && bytes[bytes.len() - 1].eq_ignore_ascii_case(&b't')
            && bytes[bytes.len() - 2 - apostrophe.len()].eq_ignore_ascii_case(&b'n')
    };
    WORDS.iter().any(|w| w.eq_ignore_ascii_case(token))
        || contraction(b"'")
        || contraction("\u{2019}".as_bytes())
}

/// Which chunk tokens are worth looking up: those that may share a stem with a wanted word.
#[derive(Debug, Clone)]
pub struct WordFilter {
    /// Whether tokens are screened by their first letters (English only).
    by_prefix: bool,
    /// Bit set of the first two letters (lower-cased ASCII) of the wanted words.
    prefixes: [u64; PREFIX_BITS / 64],
    /// Bit set of the first two letters of the wanted stems of two letters.
    short: [u64; PREFIX_BITS / 64],
    /// Bit set of the first three letters of the wanted words and stems (see [`key3`]).
    long: Vec<u64>,
    /// The wanted stems.
    ids: FxHashSet<u32>,
}

/// Size of the prefix bit set: every key of two letters or digits (36 × 36 = 1296) has its
/// own bit.
const PREFIX_BITS: usize = 21 * 64;

/// Size of the three-letter bit set (36 × 36 × 36 = 46,656 keys).
const KEY3_BITS: usize = 729 * 64;

fn has_bit(set: &[u64], key: usize) -> bool {
    set.get(key / 64)
        .is_some_and(|slot| slot & (1 << (key % 64)) != 0)
}

fn set_bit(set: &mut [u64], key: usize) {
    if let Some(slot) = set.get_mut(key / 64) {
        *slot |= 1 << (key % 64);
    }
}

impl Default for WordFilter {
    fn default() -> Self {
        WordFilter {
            by_prefix: false,
            prefixes: [0; PREFIX_BITS / 64],
            short: [0; PREFIX_BITS / 64],
            long: vec![0; KEY3_BITS / 64],
            ids: FxHashSet::default(),
        }
    }
}

impl WordFilter {
    /// Whether `token` (as written) may have a wanted stem.
    ///
    /// A token of three letters or more whose stem has three or more keeps its first three
    /// letters up to [`key3`]'s classes; one whose stem has two letters starts with them.
    pub fn may_keep(&self, token: &str) -> bool {
        if !self.by_prefix {
            return true;
        }
        let bytes = token.as_bytes();
        // A token that does not start with ASCII letters or digits may lower-case or
        // normalise into any word (the Kelvin sign is a `k`): it is always looked up.
        let Some(two) = prefix_key(bytes) else {
            return true;
        };
        match key3(bytes) {
            Some(three) => has_bit(&self.long, three) || has_bit(&self.short, two),
            None => has_bit(&self.prefixes, two),
        }
    }

    /// Whether a stem is wanted.
    pub fn keeps(&self, id: u32) -> bool {
        self.ids.contains(&id)
    }

    /// Lets through the tokens that start as `word` does (as written or stemmed); `short_stem`
    /// when its stem may have fewer than three letters.
    fn admit(&mut self, word: &[u8], short_stem: bool) {
        if let Some(key) = prefix_key(word) {
            set_bit(&mut self.prefixes, key);
            if short_stem {
                set_bit(&mut self.short, key);
            }
        }
        if let Some(key) = key3(word) {
            set_bit(&mut self.long, key);
        }
    }
}

/// The bit of a word's first two characters, lower-cased, when both are ASCII letters or
/// digits; `None` otherwise. A second `y` counts as `i`: the stemmer's exceptional forms
/// `dying`, `lying` and `tying` become `die`, `lie` and `tie`.
fn prefix_key(word: &[u8]) -> Option<usize> {
    let digit = |b: u8| match b.to_ascii_lowercase() {
        c @ b'a'..=b'z' => Some(usize::from(c - b'a')),
        c @ b'0'..=b'9' => Some(26 + usize::from(c - b'0')),
        _ => None,
    };
    let first = digit(*word.first()?)?;
    let second = match digit(*word.get(1)?)? {
        24 => 8, // y → i
        other => other,
    };
    Some(first * 36 + second)
}

/// The key of a word's first three characters, lower-cased, when all three are ASCII letters
/// or digits; `None` otherwise. In the second and third place `e`, `i` and `y` are one letter:
/// the English stemmer turns a final `y` into `i` (`cry` → `cri`), adds an `e` (`using` →
/// `use`) and has the exceptional forms `skies` → `sky` and `dying` → `die`; everything else
/// it does happens after the third letter of a stem of three letters or more.
fn key3(word: &[u8]) -> Option<usize> {
    let digit = |b: u8| match b.to_ascii_lowercase() {
        c @ b'a'..=b'z' => Some(usize::from(c - b'a')),
        c @ b'0'..=b'9' => Some(26 + usize::from(c - b'0')),
        _ => None,
    };
    let vowel_class = |d: usize| match d {
        4 | 24 => 8, // e, y → i
        other => other,
    };
    let first = digit(*word.first()?)?;
    let second = vowel_class(digit(*word.get(1)?)?);
    let third = vowel_class(digit(*word.get(2)?)?);
    Some((first * 36 + second) * 36 + third)
}

/// A token lower-cased as words are compared: Unicode NFC (decomposed accents and composed
/// ones give the same word), lower case, curly apostrophes straight.
fn lower(token: &str) -> String {
    if token.is_ascii() {
        token.to_ascii_lowercase()
    } else {
        token
            .nfc()
            .collect::<String>()
            .to_lowercase()
            .replace('\u{2019}', "'")
    }
}

/// Reads content words in one language. Build it once and reuse it for every text.
pub struct Analyzer {
    language: Language,
    stemmer: Stemmer,
    stop: FxHashSet<String>,
}

impl fmt::Debug for Analyzer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Analyzer")
            .field("language", &self.language)
            .finish_non_exhaustive()
    }
}

impl Analyzer {
    pub fn new(language: Language) -> Self {
        let stop = language
            .stop_words()
            .into_iter()
            .map(|w| w.replace('\u{2019}', "'").to_lowercase())
            .collect();
        Analyzer {
            language,
            stemmer: Stemmer::create(language.algorithm()),
            stop,
        }
    }

    pub fn language(&self) -> Language {
        self.language
    }

    /// Content words of `text`, each stem once, in order of first appearance.
    ///
    /// `numbers` are the numbers of the same text: their spans (scale words included) are not
    /// words. Words are split on anything that is not a letter or a digit; words of one letter,
    /// words of digits only and stop words are dropped.
    pub fn content_words(&self, text: &str, numbers: &[Number]) -> Vec<Word> {
        let mut words: Vec<Word> = Vec::new();
        // Each stem's place in `words`.
        let mut seen: FxHashMap<u32, usize> = FxHashMap::default();
        let mut first = true;
        let english = self.language == Language::English;
        // Position of the token and of the last negation before it.
        let mut position = 0u32;
        let mut last_negation: Option<u32> = None;
        // Where the previous token ended, and whether it was long enough to end a sentence
        // with a full stop (`Dr.` and `U.S.` do not): the first word of each sentence of a
        // text of several, or of each line, is no name either.
        let mut previous_end = 0;
        let mut previous_long = false;
        self.for_each_token(text, numbers, |token| {
            let at = (token.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
            let gap = text.get(previous_end..at).unwrap_or("");
            previous_end = at + token.len();
            let new_sentence = gap.contains('\n')
                || (previous_long && SENTENCE_ENDS.iter().any(|end| gap.contains(end)));
            previous_long = token.chars().nth(2).is_some();
            let at_start = std::mem::take(&mut first) || new_sentence;
            position += 1;
            // `not only ... but also` negates nothing.
            if english && last_negation == Some(position - 1) && token.eq_ignore_ascii_case("only")
            {
                last_negation = None;
            }

            let negated = last_negation.is_some_and(|q| position - q <= NEGATION_REACH);
            // `never` and `without` are content words and negations both.
            if english && negates(text, token) {
                last_negation = Some(position);
            }
            let Some(id) = self.stem_id(token) else {
                return;
            };
            if let Some(&k) = seen.get(&id) {
                words[k].negated |= negated;
            } else {
                seen.insert(id, words.len());
                let stem = INTERNER.with(|cell| {
                    cell.borrow()
                        .names
                        .get(id as usize)
                        .map_or_else(String::new, |s| String::from(&**s))
                });
                let surface = lower(token);
                let name = !at_start && token.chars().next().is_some_and(char::is_uppercase);
                let antonyms = if english {
                    antonym_table()
                        .get(stem.as_str())
                        .map(|list| {
                            list.iter()
                                .filter_map(|&a| Some((self.stem_id(a)?, a)))
                                .collect()
                        })
                        .unwrap_or_default()
                } else {
                    Vec::new()
                };
                words.push(Word {
                    name,
                    negated,
                    antonyms,
                    stem,
                    general: self.language == Language::English
                        && crate::support::score::is_general_word(&surface),
                    surface,
                    id,
                });
            }
        });
        words
    }

    /// Starts a new text to check: the thread's interned stems stay valid until the next call
    /// (they are forgotten here when there are too many, or when the language changed).
    pub fn begin(&self) {
        INTERNER.with(|cell| {
            let mut interner = cell.borrow_mut();
            if interner.language != Some(self.language) || interner.tokens.len() > INTERNER_LIMIT {
                *interner = Interner {
                    language: Some(self.language),
                    ..Interner::default()
                };
            }
        });
    }

    /// The interned id of `token`'s stem if it is a content word. The same stem has the same
    /// id within one thread until [`Analyzer::begin`] forgets them; each distinct token is
    /// lower-cased and stemmed once, since the same words recur in every chunk and stemming
    /// dominates the cost of reading text otherwise.
    pub fn stem_id(&self, token: &str) -> Option<u32> {
        INTERNER.with(|cell| self.lookup(&mut cell.borrow_mut(), token))
    }

    /// The stem id of each of `tokens` (as [`Analyzer::for_each_token`] cuts them) that is a
    /// content word: [`Analyzer::stem_id`] for many tokens, taking the thread's interner once
    /// rather than once a token, and stemming the new ones on two threads (for the many
    /// distinct tokens of long chunks). Tokens that `filter` rules out are `None` without
    /// being looked up.
    pub fn stem_ids(&self, tokens: &[&str], filter: &WordFilter) -> Vec<Option<u32>> {
        INTERNER.with(|cell| {
            let mut interner = cell.borrow_mut();
            // Tokens already looked up have their id; the others are read below.
            let mut ids: Vec<Option<u32>> = Vec::with_capacity(tokens.len());
            let mut unknown: Vec<usize> = Vec::new();
            for (k, &token) in tokens.iter().enumerate() {
                let known = if filter.may_keep(token) {
                    interner.tokens.get(token).copied()
                } else {
                    Some(None)
                };
                if known.is_none() {
                    unknown.push(k);
                }
                ids.push(known.flatten());
            }
            // Their stems are worked out on two threads when one can be started, then
            // interned in order, so that ids are the same as one by one.
            let stems = |part: &[usize]| -> Vec<Option<String>> {
                part.iter().map(|&k| self.stem_of(tokens[k])).collect()
            };
            let (first, second) = unknown.split_at(unknown.len() / 2);
            let (mut stems_read, more) =
                crate::parallel::on_two_threads(|| stems(first), || stems(second));
            stems_read.extend(more);
            interner.tokens.reserve(unknown.len());
            interner.stems.reserve(unknown.len());
            for (k, stem) in unknown.into_iter().zip(stems_read) {
                ids[k] = interner.remember(tokens[k], stem);
            }
            ids
        })
    }

    /// Calls `f` with the stem id of every content word of `text` (repeats included), outside
    /// the number spans, and its position: the number of tokens of `text` before it (stop words
    /// and filtered tokens included), so that distances between words are counted in words as
    /// written; and `each_token` with every token as written and its position. Takes
    /// the thread's interner once rather than once a token; tokens that `filter` rules out are
    /// skipped without being looked up.
    pub fn for_each_stem_position<'t>(
        &self,
        text: &'t str,
        numbers: &[Number],
        filter: &WordFilter,
        mut f: impl FnMut(u32, u32),
        mut each_token: impl FnMut(&'t str, u32),
    ) {
        INTERNER.with(|cell| {
            let mut interner = cell.borrow_mut();
            let mut position = 0u32;
            self.for_each_token(text, numbers, |token| {
                each_token(token, position);
                if filter.may_keep(token)
                    && let Some(id) = self.lookup(&mut interner, token)
                {
                    f(id, position);
                }
                position = position.saturating_add(1);
            });
        });
    }

    /// A filter that lets through the tokens that may have the stem of one of `words`.
    ///
    /// The English (Porter2) stemmer only rewrites the ends of words and leaves words of two
    /// letters alone, so a word's first two letters, lower-cased, are those of its stem, and a
    /// stem of three letters or more keeps the word's first three (up to `e`, `i` and `y`, see
    /// [`key3`]): a token whose first letters match no wanted word cannot share a stem with
    /// any, and need not be stemmed or looked up. Other languages' stemmers may rewrite the
    /// start (German umlauts), so for them only the stems themselves are compared.
    pub fn word_filter<'w>(&self, words: impl Iterator<Item = &'w Word>) -> WordFilter {
        let mut filter = WordFilter {
            by_prefix: self.language == Language::English,
            ..WordFilter::default()
        };
        for word in words {
            filter.ids.insert(word.id);
            // Chunks are indexed for the antonyms too, so that a swapped word can be seen. Their
            // stems' length is not at hand: they pass on two letters as well as on three.
            for &(id, antonym) in &word.antonyms {
                filter.ids.insert(id);
                filter.admit(antonym.as_bytes(), true);
            }
            // A stem shorter than two letters (`aed` → `a`) can come from words of any start.
            if word.stem.chars().nth(1).is_none() {
                filter.by_prefix = false;
            }
            // The stem's letters too, in case the stemmer rewrote the word's start.
            let short_stem = word.stem.chars().nth(2).is_none();
            for text in [&word.surface, &word.stem] {
                filter.admit(text.as_bytes(), short_stem);
            }
        }
        filter
    }

    fn lookup(&self, interner: &mut Interner, token: &str) -> Option<u32> {
        if let Some(id) = interner.tokens.get(token) {
            return *id;
        }
        interner.remember(token, self.stem_of(token))
    }

    /// The stem of `token` if it is a content word.
    fn stem_of(&self, token: &str) -> Option<String> {
        self.content_word(token).map(|word| word.stem)
    }

    /// The content word a token is, if it is one (not a stop word, a one-letter word or digits).
    pub fn content_word(&self, token: &str) -> Option<Word> {
        let lower = lower(token);
        let mut chars = lower.chars();
        if chars.next().is_none() || chars.next().is_none() {
            return None;
        }
        if lower.chars().all(|c| c.is_ascii_digit()) || self.stop.contains(&lower) {
            return None;
        }
        let ascii_stem = match self.language {
            Language::English => porter2::stem_ascii(&lower),
            _ => None,
        };
        let stem = ascii_stem.unwrap_or_else(|| self.stemmer.stem(&lower).into_owned());
        // A contraction such as "o'clock" stems to itself; a stem emptied by the stemmer would
        // match anything, so fall back to the word.
        let stem = if stem.is_empty() { lower.clone() } else { stem };
        Some(Word {
            stem,
            surface: lower,
            id: 0,
            general: false,
            name: false,
            negated: false,
            antonyms: Vec::new(),
        })
    }

    /// Calls `f` with every token of `text` outside the number spans, as written.
    pub fn for_each_token<'t>(
        &self,
        text: &'t str,
        numbers: &[Number],
        mut f: impl FnMut(&'t str),
    ) {
        // Numbers are not words: tokenise the stretches between them.
        let mut from = 0;
        for number in numbers {
            if number.span.start >= from && number.span.end <= text.len() {
                self.tokens_in(&text[from..number.span.start], &mut f);
                from = number.span.end;
            }
        }
        self.tokens_in(&text[from..], &mut f);
    }

    /// Tokens of a stretch without numbers. ASCII, most of any text, is classified byte by
    /// byte without decoding.
    fn tokens_in<'t>(&self, text: &'t str, f: &mut impl FnMut(&'t str)) {
        let joins = self.language.joins_apostrophes();
        let bytes = text.as_bytes();
        let next_is_letter = |at: usize| text[at..].chars().next().is_some_and(char::is_alphabetic);
        let mut start: Option<usize> = None;
        let mut prev_letter = false;
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            let (word_char, letter, len) = if b.is_ascii() {
                let apostrophe = joins && b == b'\'' && prev_letter && next_is_letter(i + 1);
                (
                    b.is_ascii_alphanumeric() || apostrophe,
                    b.is_ascii_alphabetic(),
                    1,
                )
            } else {
                let c = text[i..].chars().next().unwrap_or(' ');
                let len = c.len_utf8();
                let apostrophe = joins && c == '\u{2019}' && prev_letter && next_is_letter(i + len);
                // Combining marks (accents in NFD text, the Tamil virama) belong to their letter.
                let mark = start.is_some() && is_combining_mark(c);
                (
                    c.is_alphanumeric() || apostrophe || mark,
                    c.is_alphabetic(),
                    len,
                )
            };
            match (word_char, start) {
                (true, None) => start = Some(i),
                (false, Some(s)) => {
                    f(&text[s..i]);
                    start = None;
                }
                _ => {}
            }
            prev_letter = word_char && letter;
            i += len;
        }
        if let Some(s) = start {
            f(&text[s..]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn surfaces(lang: Language, text: &str) -> Vec<String> {
        let analyzer = Analyzer::new(lang);
        analyzer
            .content_words(text, &numbers(text))
            .into_iter()
            .map(|w| w.surface)
            .collect()
    }

    fn stems(lang: Language, text: &str) -> Vec<String> {
        let analyzer = Analyzer::new(lang);
        analyzer
            .content_words(text, &numbers(text))
            .into_iter()
            .map(|w| w.stem)
            .collect()
    }

    #[test]
    fn stop_words_one_letter_words_and_numbers_are_dropped() {
        assert_eq!(
            surfaces(
                Language::English,
                "The Eiffel Tower is 330 metres tall, a landmark."
            ),
            ["eiffel", "tower", "metres", "tall", "landmark"]
        );
    }

    #[test]
    fn words_are_stemmed_and_kept_once() {
        assert_eq!(
            stems(Language::English, "Completed completing completion"),
            ["complet"]
        );
    }

    #[test]
    fn a_negation_before_punctuation_negates_nothing() {
        let analyzer = Analyzer::new(Language::English);
        let negated = |text: &str| -> Vec<String> {
            analyzer
                .content_words(text, &numbers(text))
                .into_iter()
                .filter(|w| w.negated)
                .map(|w| w.surface)
                .collect()
        };
        assert!(negated("No, the tower was built in Paris").is_empty());
        assert!(negated("Whether or not. Towers rise").is_empty());
        assert_eq!(negated("No tower was built"), ["tower", "built"]);
        assert_eq!(negated("It was not built"), ["built"]);
        assert!(negates("No tower", "No tower".get(..2).unwrap()));
        let text = "No, tower";
        assert!(!negates(text, &text[..2]));
    }

    #[test]
    fn the_first_word_of_each_sentence_or_line_is_no_name() {
        let analyzer = Analyzer::new(Language::English);
        let text = "Sales rose in Paris. However, Profits fell!  Revenue grew\nMargins held; \
                    Dr. Smith and the U.S. Navy agreed";
        let names: Vec<String> = analyzer
            .content_words(text, &numbers(text))
            .into_iter()
            .filter(|w| w.name)
            .map(|w| w.surface)
            .collect();
        // `Sales`, `However`, `Revenue` and `Margins` start a sentence or a line; `Smith` and
        // `Navy` follow abbreviations, not ends of sentences.
        assert_eq!(names, ["paris", "profits", "dr", "smith", "navy"]);
    }

    #[test]
    fn english_contractions_are_stop_words_and_possessives_stem_away() {
        assert_eq!(surfaces(Language::English, "Don't stop"), ["stop"]);
        assert_eq!(surfaces(Language::English, "Don’t stop"), ["stop"]);
        assert_eq!(surfaces(Language::English, "He won it"), ["won"]);
        assert_eq!(
            stems(Language::English, "the World's Fair"),
            stems(Language::English, "world fair")
        );
    }

    #[test]
    fn scale_words_belong_to_their_number() {
        assert_eq!(
            surfaces(Language::English, "About 7 million visitors"),
            ["visitors"]
        );
    }

    #[test]
    fn split_on_anything_not_a_letter_or_digit() {
        assert_eq!(
            surfaces(Language::English, "wrought-iron lattice_tower e-mail"),
            ["wrought", "iron", "lattice", "tower", "mail"]
        );
        assert_eq!(
            surfaces(Language::English, "Größe ÉCOLE"),
            ["größe", "école"]
        );
    }

    #[test]
    fn english_stems_keep_the_first_two_letters() {
        // The chunk filter relies on it: a token is looked up only if a wanted word starts
        // with the same two letters.
        let analyzer = Analyzer::new(Language::English);
        let text = "Skies dying lying tying news innings gently ugly early only singly cries \
                    ties generously happiness relational conditional rational valenci hopeful \
                    agreed feed Yelling yesterday's Zoos 9th 3D b2b o'clock ABBA Ohio ox \
                    identically Sky's cannot Running runner's dries studies";
        for word in analyzer.content_words(text, &numbers(text)) {
            assert_eq!(
                prefix_key(word.stem.as_bytes()),
                prefix_key(word.surface.as_bytes()),
                "{} → {}",
                word.surface,
                word.stem
            );
        }
    }

    #[test]
    fn english_stems_of_three_letters_keep_the_first_three() {
        // The chunk filter relies on it, for every ending the stemmer rewrites: random
        // starts with each ending, compared with their stems.
        let analyzer = Analyzer::new(Language::English);
        let endings = [
            "", "s", "es", "ies", "ied", "ss", "sses", "us", "ed", "edly", "ing", "ingly", "eed",
            "eedly", "y", "ly", "li", "ely", "ily", "e", "l", "ll", "at", "ating", "bl", "bling",
            "iz", "izing", "tional", "ational", "enci", "anci", "abli", "entli", "izer", "ization",
            "ation", "ator", "alism", "aliti", "alli", "fulness", "ousli", "ousness", "iveness",
            "iviti", "biliti", "bli", "logi", "fulli", "lessli", "alize", "icate", "iciti", "ical",
            "ful", "ness", "ative", "al", "ance", "ence", "er", "ic", "able", "ible", "ant",
            "ement", "ment", "ent", "ism", "ate", "iti", "ous", "ive", "ize", "ion", "sion",
            "tion",
        ];
        let letters = b"abcdefghiklmnoprstuvwy";
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut checked = 0;
        for _ in 0..400 {
            let mut start = String::new();
            for _ in 0..1 + seed % 4 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                start.push(char::from(letters[(seed % letters.len() as u64) as usize]));
            }
            for ending in endings {
                let word = format!("{start}{ending}");
                let stem = analyzer.stemmer.stem(&word).into_owned();
                if stem.len() >= 3 {
                    assert_eq!(
                        key3(word.as_bytes()),
                        key3(stem.as_bytes()),
                        "{word} → {stem}"
                    );
                    checked += 1;
                } else if stem.len() == 2 {
                    assert_eq!(prefix_key(word.as_bytes()), prefix_key(stem.as_bytes()));
                }
            }
        }
        assert!(checked > 20_000, "{checked}");
        for (word, stem) in [
            ("skies", "sky"),
            ("dying", "die"),
            ("cry", "cri"),
            ("using", "use"),
        ] {
            assert_eq!(analyzer.stemmer.stem(word), stem);
            assert_eq!(key3(word.as_bytes()), key3(stem.as_bytes()));
        }
    }

    #[test]
    fn the_word_filter_lets_through_what_may_match_and_nothing_panics() {
        let analyzer = Analyzer::new(Language::English);
        let words = analyzer.content_words("Towers and 99problems zz9 école cries", &[]);
        let filter = analyzer.word_filter(words.iter());
        assert!(filter.may_keep("tower"));
        assert!(filter.may_keep("TOWERING"));
        assert!(filter.may_keep("99pr"));
        assert!(!filter.may_keep("99x"));
        assert!(filter.may_keep("zz"));
        assert!(filter.may_keep("éléphant"), "non-ASCII starts always pass");
        assert!(filter.may_keep("\u{212a}ilo"), "the Kelvin sign is a k");
        assert!(!filter.may_keep("bridge"));
        assert!(
            !filter.may_keep("toe"),
            "three letters that no wanted word starts with"
        );
        assert!(filter.may_keep("cry"), "e, i and y are one letter");
        assert!(filter.may_keep("cre"), "e, i and y are one letter");
        assert!(
            filter.may_keep("to"),
            "a two-letter token passes on two letters"
        );
        let german = Analyzer::new(Language::German);
        assert!(german.word_filter(words.iter()).may_keep("bridge"));
    }

    #[test]
    fn combining_marks_stay_in_their_word() {
        assert_eq!(surfaces(Language::Tamil, "தமிழ் மொழி"), ["தமிழ்", "மொழி"]);
        assert_eq!(
            stems(Language::French, "e\u{301}cole"),
            stems(Language::French, "\u{e9}cole")
        );
    }

    #[test]
    fn other_languages_use_their_own_stop_list_and_stemmer() {
        assert_eq!(
            surfaces(Language::French, "La tour est construite dans l'année"),
            ["tour", "construite", "année"]
        );
        assert_eq!(
            surfaces(Language::German, "Der Turm ist gebaut"),
            ["turm", "gebaut"]
        );
        for lang in Language::ALL {
            assert!(
                !lang.stop_words().is_empty(),
                "{} has no stop list",
                lang.name()
            );
        }
    }

    #[test]
    fn languages_parse_from_codes_and_names() {
        assert_eq!("fr".parse::<Language>(), Ok(Language::French));
        assert_eq!("German".parse::<Language>(), Ok(Language::German));
        assert!("xx".parse::<Language>().unwrap_err().contains("en, "));
        for lang in Language::ALL {
            assert_eq!(lang.code().parse::<Language>(), Ok(lang));
        }
    }
}
