//! Words stage: turns a sentence or a chunk into its content words (lower-cased, stop words
//! removed, Snowball-stemmed) and its numbers. The same analysis runs on both sides.

mod number;
mod porter2;

use std::fmt;

pub use number::{
    Decimal, Kind, Number, NumberValue, Role, SpelledNumbers, chunk_numbers, numbers, numbers_in,
    spelled_figures,
};
use rust_stemmers::Stemmer;
use rustc_hash::{FxHashMap, FxHashSet};
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

mod cjk;
mod detect;
mod filter;
mod intern;
mod language;
mod lexicon;
pub(crate) mod rarity;
pub(crate) mod wordnet;

pub(crate) use cjk::{is_cjk, joined_surfaces};
pub use detect::{Detected, detect};
pub use filter::WordFilter;
use intern::{INTERNER, INTERNER_LIMIT, Interner};
pub use language::Language;
use lexicon::*;
pub use lexicon::{NEGATION_REACH, is_general_word, is_negation, negates};
pub use rarity::rarity;

/// What ends a sentence inside a text, between two of its words: the first word after it is
/// not taken for a name.
const SENTENCE_ENDS: &[&str] = &[". ", "! ", "? ", ".\u{a0}", ".\n", "!\n", "?\n"];

/// What [`Analyzer::read_sentence`] reads of a sentence.
#[derive(Debug, Clone)]
pub struct ReadWords {
    /// Its content words, each stem once, in order.
    pub words: Vec<Word>,
    /// The figures it states (names, identifiers and the question's figures left out).
    pub numbers: Vec<Number>,
    /// Its figures that the question states.
    pub context: Vec<Number>,
}

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
    /// written in the table (English only; see `words/antonyms.txt`).
    pub antonyms: Vec<(u32, &'static str)>,
    /// Position (in tokens) of its first appearance in the text.
    pub position: u32,
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
            .chain(cjk::STOP_WORDS.iter().copied())
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

    /// What the words stage reads of one sentence (its markers blanked): its content words,
    /// the figures it states, and those of its figures that `given` holds (the question states
    /// them: context, not claims). `names_source(before, number)` tells a number that names a
    /// source (`According to 1, ...`, `contexts 1 and 2`): a citation, no figure.
    pub fn read_sentence(
        &self,
        text: &str,
        given: &FxHashSet<NumberValue>,
        names_source: impl Fn(&str, &str) -> bool,
    ) -> ReadWords {
        let mut numbers = numbers_in(text, self.language.decimal());
        numbers.retain(|n| !names_source(&text[..n.span.start], &n.text));
        // A figure the question states is context: `How tall is the 330 m tower?`.
        // A label's number too (`section 34.4` of a question's `s34.4`).
        let (context, mut numbers): (Vec<_>, Vec<_>) = numbers.into_iter().partition(|n| {
            given.contains(&n.value)
                || (n.role == Role::Label
                    && numbers_in(&n.text, self.language.decimal())
                        .first()
                        .is_some_and(|q| given.contains(&q.value)))
        });
        let words = self.content_words(text, &numbers);
        // Identifiers, code, addresses and enumerators are names, not figures the sentence
        // states (their digits are no words either).
        numbers.retain(|n| n.role != Role::Name);
        // Figures in words before a unit (`one hour`), in the order they stand: their words
        // stay content words too, as the support model was fitted on them.
        let spelled = spelled_figures(text);
        if !spelled.is_empty() {
            numbers.extend(spelled.into_iter().filter(|n| !given.contains(&n.value)));
            numbers.sort_by_key(|n| n.span.start);
        }
        ReadWords {
            words,
            numbers,
            context,
        }
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
            // Most gaps are one space; every sentence end is two characters long.
            let new_sentence = if gap.len() < 2 {
                gap == "\n"
            } else {
                gap.contains('\n')
                    || (previous_long && SENTENCE_ENDS.iter().any(|end| gap.contains(end)))
            };
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
                    antonyms_of(stem.as_str())
                        .iter()
                        .filter_map(|&a| Some((self.stem_id(a)?, a)))
                        .collect()
                } else {
                    Vec::new()
                };
                words.push(Word {
                    name,
                    negated,
                    antonyms,
                    stem,
                    general: self.language == Language::English && is_general_word(&surface),
                    surface,
                    id,
                    position: position - 1,
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
    /// `key3`): a token whose first letters match no wanted word cannot share a stem with
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
        let first = chars.next()?;
        // A Han character alone is a word (`山`); a letter of another script is not.
        if chars.next().is_none() && cjk::script(first) != Some(cjk::Script::Han) {
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
            position: 0,
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
            // The ASCII fast path, the same steps as the byte-by-byte ones below: a run of
            // ASCII letters and digits is taken whole (only its last byte decides whether a
            // letter came before what follows it), and an ASCII byte that is neither, nor an
            // apostrophe, ends the token.
            if b.is_ascii_alphanumeric() {
                start.get_or_insert(i);
                let run = bytes[i..]
                    .iter()
                    .position(|b| !b.is_ascii_alphanumeric())
                    .map_or(bytes.len(), |n| i + n);
                prev_letter = bytes[run - 1].is_ascii_alphabetic();
                i = run;
                continue;
            }
            if b.is_ascii() && b != b'\'' {
                if let Some(s) = start.take() {
                    f(&text[s..i]);
                }
                prev_letter = false;
                i += 1;
                continue;
            }
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
                // Chinese, Japanese and Korean runs are cut into words of their own.
                if let Some(script) = cjk::script(c) {
                    if let Some(s) = start.take() {
                        f(&text[s..i]);
                    }
                    let end = cjk::run_end(text, i, script);
                    cjk::words(&text[i..end], script, self.language == Language::Chinese, f);
                    prev_letter = false;
                    i = end;
                    continue;
                }
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
mod tests;

/// Whether two English stems (as [`Analyzer`] makes them) are of related words in the lexicon:
/// synonyms of their first senses, derivational forms or pertainyms, irregular forms
/// (`ascrib` ~ `credit`, `won` ~ `win`). See [`wordnet`].
pub(crate) fn related_stems(a: &str, b: &str) -> bool {
    a == b || wordnet::related(a, b)
}

/// The related-stems table `cargo xtask generate` writes (see [`wordnet::related_stems_table`]).
#[doc(hidden)]
pub fn related_stems_table() -> String {
    wordnet::related_stems_table()
}
