//! Languages: each one's Snowball stemmer and stop-word list.

use std::fmt;
use std::str::FromStr;

use rust_stemmers::Algorithm;

/// A language: its Snowball stemmer and its stop-word list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Language {
    Arabic,
    Chinese,
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
    Japanese,
    Korean,
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
    pub const ALL: [Language; 21] = [
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
        Language::Japanese,
        Language::Korean,
        Language::Dutch,
        Language::Norwegian,
        Language::Portuguese,
        Language::Romanian,
        Language::Russian,
        Language::Swedish,
        Language::Tamil,
        Language::Turkish,
        Language::Chinese,
    ];

    /// ISO 639-1 code, as `--lang` takes it.
    pub fn code(self) -> &'static str {
        match self {
            Language::Arabic => "ar",
            Language::Chinese => "zh",
            Language::Japanese => "ja",
            Language::Korean => "ko",
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
            Language::Chinese => "Chinese",
            Language::Japanese => "Japanese",
            Language::Korean => "Korean",
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

    /// The Snowball stemmer of the language's words in Latin letters. Chinese, Japanese and
    /// Korean words are cut by script (see `words/cjk.rs`) and not stemmed; the Latin words of
    /// their texts (names, terms) get the English stemmer.
    pub(super) fn algorithm(self) -> Algorithm {
        match self {
            Language::Chinese | Language::Japanese | Language::Korean => Algorithm::English,
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
    /// NLTK's own additions). Chinese, Japanese and Korean have the English list for their
    /// Latin words; their own stop words (`words/cjk.rs`) apply in every language.
    pub(super) fn stop_words(self) -> Vec<&'static str> {
        match self {
            Language::English | Language::Chinese | Language::Japanese | Language::Korean => {
                include_str!("english_stop.txt")
                    .split_whitespace()
                    .collect()
            }
            other => stop_words::lookup(other.code())
                .map(|words| words.to_vec())
                .unwrap_or_default(),
        }
    }

    /// Whether an apostrophe between two letters stays inside the word. In English it keeps
    /// contractions whole (`don't` is a stop word, `won` is not) and lets the stemmer drop a
    /// possessive `'s`; in French or Italian it separates an elided article (`l'homme`).
    pub(super) fn joins_apostrophes(self) -> bool {
        self == Language::English
    }

    /// How the language writes numbers: with a decimal comma (`1.250,5`: most European
    /// languages) or a decimal point (`1,250.5`: English, Arabic and Tamil as written online,
    /// and the languages added since, unless listed here).
    pub fn decimal(self) -> super::Decimal {
        use Language::*;
        if matches!(
            self,
            Danish
                | Dutch
                | Finnish
                | French
                | German
                | Greek
                | Hungarian
                | Italian
                | Norwegian
                | Portuguese
                | Romanian
                | Russian
                | Spanish
                | Swedish
                | Turkish
        ) {
            super::Decimal::Comma
        } else {
            super::Decimal::Point
        }
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
