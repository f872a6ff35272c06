//! ragcite: a deterministic, lexical linter for answers written by retrieval-augmented
//! generation. It finds uncited claims, citations to chunks that do not say what the sentence
//! says, numbers that changed on the way, markers that point nowhere and chunks never used.
//!
//! The library is a pipeline of stages, one module each, in the order the data flows:
//! [`input`] → [`sentence`] → [`marker`] → [`words`] → [`support`] → [`report`], then the
//! [`gate`] that compares counts with limits. It never prints and never exits.
//!
//! ```
//! use ragcite::{Checker, Options, input};
//!
//! let answer = input::read_answer(b"The tower is 330 metres tall [1].", None).unwrap();
//! let chunks = input::read_chunks(br#"["The tower is 330 metres tall."]"#, false).unwrap();
//! let report = Checker::new(Options::default()).check(&answer, &chunks);
//! assert_eq!(report.result.sentences[0].verdict, ragcite::Verdict::Supported);
//! ```

pub mod emit;
pub mod error;
pub mod gate;
pub mod input;
pub mod marker;
pub mod report;
pub mod sentence;
pub mod support;
pub mod words;

pub use error::InputError;
pub use gate::{GateOutcome, LimitFailure, Limits};
pub use input::{Answer, AnswerFormat, Chunk, ChunkFormat, Chunks};
pub use report::{CheckResult, ChunkStatus, Counts, Report, Verdict};
pub use words::Language;

use std::collections::HashSet;

use marker::Resolver;
use support::{ChunkIndex, SentenceInput};
use words::Analyzer;

/// The default support threshold.
pub const DEFAULT_THRESHOLD: f64 = 0.5;
/// The smallest and largest thresholds accepted.
pub const THRESHOLD_RANGE: (f64, f64) = (0.1, 1.0);

/// How a check is made.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Options {
    /// Share of a sentence's content words a cited chunk must hold (0.1 to 1).
    pub threshold: f64,
    /// Stemmer and stop words.
    pub language: Language,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threshold: DEFAULT_THRESHOLD,
            language: Language::English,
        }
    }
}

/// Checks answers against chunks. Build it once (it prepares the stemmer and stop list) and
/// reuse it for every answer.
#[derive(Debug)]
pub struct Checker {
    options: Options,
    analyzer: Analyzer,
}

impl Checker {
    pub fn new(options: Options) -> Self {
        Checker {
            options,
            analyzer: Analyzer::new(options.language),
        }
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Checks every sentence of `answer` against `chunks`.
    pub fn check(&self, answer: &Answer, chunks: &Chunks) -> Report {
        let resolver = Resolver::new(chunks.chunks.iter().map(|c| c.id.as_str()));
        let index = ChunkIndex::build(&chunks.chunks, &self.analyzer);
        let split = sentence::split(&answer.text, &resolver);
        let sentences = split
            .spans
            .into_iter()
            .map(|position| self.read_sentence(&answer.text, &split.prose, position, &resolver))
            .collect();
        let mut result = support::assess(sentences, &chunks.chunks, &index, self.options.threshold);
        for sentence in &mut result.sentences {
            sentence.span.start += answer.offset;
            sentence.span.end += answer.offset;
        }
        let mut warnings = answer.warnings.clone();
        warnings.extend(chunks.warnings.iter().cloned());
        Report { result, warnings }
    }

    /// The marker and words stages for one sentence.
    fn read_sentence(
        &self,
        answer: &str,
        prose: &str,
        position: sentence::SentenceSpan,
        resolver: &Resolver,
    ) -> SentenceInput {
        let range = position.span.clone();
        let prose = &prose[range.clone()];
        let found = marker::markers(prose, resolver);
        // Markers are not words or numbers of the sentence: blank them, keeping offsets.
        let mut text = String::with_capacity(prose.len());
        let mut copied = 0;
        let mut labels: Vec<String> = Vec::new();
        let mut seen_labels: HashSet<&str> = HashSet::new();
        for m in &found {
            text.push_str(&prose[copied..m.span.start]);
            text.extend(std::iter::repeat_n(' ', m.span.len()));
            copied = m.span.end;
            for label in &m.labels {
                if seen_labels.insert(label) {
                    labels.push(label.clone());
                }
            }
        }
        text.push_str(&prose[copied..]);
        let mut cited = Vec::new();
        let mut seen_chunks = HashSet::new();
        let mut unknown = Vec::new();
        for label in &labels {
            match resolver.resolve(label) {
                Some(chunk) => {
                    if seen_chunks.insert(chunk) {
                        cited.push(chunk);
                    }
                }
                None => unknown.push(label.clone()),
            }
        }
        let numbers = words::numbers(&text);
        let words = self.analyzer.content_words(&text, &numbers);
        SentenceInput {
            text: answer[range].to_string(),
            position,
            labels,
            cited,
            unknown,
            words,
            numbers,
        }
    }
}
