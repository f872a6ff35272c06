//! Words stage: turns a sentence or a chunk into its content words (lower-cased, stop words
//! removed, Snowball-stemmed) and its numbers. The same analysis runs on both sides.

mod number;

use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;

pub use number::{Number, NumberValue, numbers};
use rust_stemmers::{Algorithm, Stemmer};
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

/// A content word: its stem, which is what is compared, and the word as written
/// (lower-cased), which is what is shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    pub stem: String,
    pub surface: String,
}

/// Reads content words in one language. Build it once and reuse it for every text.
pub struct Analyzer {
    language: Language,
    stemmer: Stemmer,
    stop: HashSet<String>,
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
        let mut seen: HashSet<String> = HashSet::new();
        self.for_each_token(text, numbers, |token| {
            if let Some(word) = self.content_word(token)
                && seen.insert(word.stem.clone())
            {
                words.push(word);
            }
        });
        words
    }

    /// The content word a token is, if it is one (not a stop word, a one-letter word or digits).
    pub fn content_word(&self, token: &str) -> Option<Word> {
        // Decomposed accents (NFD text) and composed ones must give the same word.
        let lower = if token.is_ascii() {
            token.to_ascii_lowercase()
        } else {
            token
                .nfc()
                .collect::<String>()
                .to_lowercase()
                .replace('\u{2019}', "'")
        };
        let mut chars = lower.chars();
        if chars.next().is_none() || chars.next().is_none() {
            return None;
        }
        if lower.chars().all(|c| c.is_ascii_digit()) || self.stop.contains(&lower) {
            return None;
        }
        let stem = self.stemmer.stem(&lower).into_owned();
        // A contraction such as "o'clock" stems to itself; a stem emptied by the stemmer would
        // match anything, so fall back to the word.
        let stem = if stem.is_empty() { lower.clone() } else { stem };
        Some(Word {
            stem,
            surface: lower,
        })
    }

    /// Calls `f` with every token of `text` outside the number spans, as written.
    pub fn for_each_token(&self, text: &str, numbers: &[Number], mut f: impl FnMut(&str)) {
        let joins = self.language.joins_apostrophes();
        let mut skip = numbers.iter().map(|n| n.span.clone()).peekable();
        let mut start: Option<usize> = None;
        let mut chars = text.char_indices().peekable();
        let mut prev_letter = false;
        while let Some((i, c)) = chars.next() {
            while skip.peek().is_some_and(|s| s.end <= i) {
                skip.next();
            }
            let in_number = skip.peek().is_some_and(|s| s.start <= i);
            let apostrophe_inside = joins
                && (c == '\'' || c == '\u{2019}')
                && prev_letter
                && chars.peek().is_some_and(|(_, next)| next.is_alphabetic());
            // Combining marks (accents in NFD text, the Tamil virama) belong to their letter.
            let word_char = !in_number
                && (c.is_alphanumeric()
                    || apostrophe_inside
                    || (start.is_some() && is_combining_mark(c)));
            match (word_char, start) {
                (true, None) => start = Some(i),
                (false, Some(s)) => {
                    f(&text[s..i]);
                    start = None;
                }
                _ => {}
            }
            prev_letter = word_char && c.is_alphabetic();
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
