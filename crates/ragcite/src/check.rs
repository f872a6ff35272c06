//! The check: runs the stages of the pipeline over one answer and its chunks. The markers,
//! sentences, words and quotations of the answer are read on this thread while a second one
//! reads the chunks (for large inputs), then support is assessed and the report made.

use std::sync::Arc;

use rustc_hash::FxHashSet;

use crate::deadline::{Deadline, Expired};
use crate::input::{Answer, Chunks};
use crate::marker::{self, ResolvedCitation, Resolver};
use crate::report::{LanguageUse, Report};
use crate::support::model::Model;
use crate::support::{self, ChunkIndex, ChunkTexts, ChunkWords, SentenceInput};
use crate::words::{self, Analyzer, Language};
use crate::{claim, parallel, quote, sentence};

mod claims;
mod scope;

/// The default support threshold: every model is fitted so that 0.5 is its threshold.
pub const DEFAULT_THRESHOLD: f64 = 0.5;
/// The default claim threshold: below the 0.5 every claim model is fitted to, so that the
/// scorer quiets only what it is fairly sure of (on held-out answers, 0.4 keeps every claim the
/// phrase rules keep; docs/evaluation.md → "The claim scorer, measured").
pub const DEFAULT_CLAIM_THRESHOLD: f64 = 0.4;
/// The smallest and largest thresholds accepted.
pub const THRESHOLD_RANGE: (f64, f64) = (0.1, 1.0);

/// Chunk text and answer text from which a check reads the chunks on a second thread: below
/// them, starting the thread costs more than it saves, or the answer's few words screen out
/// most chunk tokens more cheaply (see [`ChunkWords`]).
const PARALLEL_CHUNK_BYTES: usize = 64 * 1024;
const PARALLEL_ANSWER_BYTES: usize = 8 * 1024;

/// Whether a check reads the chunks on a second thread while it reads the sentences.
fn in_parallel(answer: &Answer, chunks: &Chunks) -> bool {
    let chunk_bytes: usize = chunks.chunks.iter().map(|c| c.text.len()).sum();
    chunk_bytes >= PARALLEL_CHUNK_BYTES && answer.text.len() >= PARALLEL_ANSWER_BYTES
}

/// How a check is made.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// The `support` a sentence's best cited chunk must reach (0.1 to 1); see
    /// [`support::model`].
    pub threshold: f64,
    /// Stemmer and stop words, and how numbers are written (a decimal comma or point): the
    /// language answers are read in, unless `auto_language` detects another.
    pub language: Language,
    /// `--lang auto` (the default): read each answer in the language it is detected in, when
    /// the detector is confident (see [`words::detect`]); in `language` otherwise. Without it,
    /// a check warns when the answer looks written in another language than `language`.
    pub auto_language: bool,
    /// What scores support: the shipped model unless another is given.
    pub model: Arc<Model>,
    /// Keep each sentence's features (for `eval --features` and `train`); the model's
    /// explanations (`factors`) are kept either way.
    pub keep_features: bool,
    /// What a citation marker covers: its sentence, or its paragraph's uncited sentences too.
    pub citation_scope: CitationScope,
    /// The user's own marker form (`--marker`), read besides the built-in ones.
    pub marker: Option<Arc<marker::MarkerPattern>>,
    /// The claim score an English sentence without a citation must reach to be a claim (0 to
    /// 1; 0.4 by default, the model's own threshold is 0.5): higher flags fewer
    /// `uncited-claim`s.
    pub claim_threshold: f64,
    /// What scores claims: the shipped claim model unless another is given; `None` decides by
    /// the phrase rules alone, as ragcite did before the scorer.
    pub claim_model: Option<Arc<support::model::claims::ClaimModel>>,
}

/// What a marker group covers (`--citation-scope`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CitationScope {
    /// The sentence it stands in.
    #[default]
    Sentence,
    /// Its sentence, and when it ends a paragraph (the paragraph's last sentence's markers),
    /// the paragraph's earlier sentences that have no marker of their own.
    Paragraph,
}

impl CitationScope {
    /// The name of the option's value: `sentence` or `paragraph`.
    pub fn name(self) -> &'static str {
        match self {
            CitationScope::Sentence => "sentence",
            CitationScope::Paragraph => "paragraph",
        }
    }
}

impl std::str::FromStr for CitationScope {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "sentence" => Ok(CitationScope::Sentence),
            "paragraph" => Ok(CitationScope::Paragraph),
            other => Err(format!(
                "unknown citation scope {other:?}: expected `sentence` or `paragraph`"
            )),
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threshold: DEFAULT_THRESHOLD,
            language: Language::English,
            auto_language: true,
            model: Model::shipped(),
            keep_features: false,
            citation_scope: CitationScope::default(),
            marker: None,
            claim_threshold: DEFAULT_CLAIM_THRESHOLD,
            claim_model: Some(support::model::claims::ClaimModel::shipped()),
        }
    }
}

/// Checks answers against chunks. Build it once (it prepares the stemmer and stop list) and
/// reuse it for every answer.
#[derive(Debug)]
pub struct Checker {
    options: Options,
    analyzer: Analyzer,
    /// With `auto_language`, the analyzer of each other language, built when an answer first
    /// needs it (in the order of [`Language::ALL`]).
    detected: Vec<std::sync::OnceLock<Analyzer>>,
}

impl Checker {
    pub fn new(options: Options) -> Self {
        Checker {
            analyzer: Analyzer::new(options.language),
            detected: (0..Language::ALL.len())
                .map(|_| std::sync::OnceLock::new())
                .collect(),
            options,
        }
    }

    /// The analyzer for `language`: the options' own, or one built once for a language
    /// detected.
    fn analyzer_of(&self, language: Language) -> &Analyzer {
        match Language::ALL.iter().position(|&l| l == language) {
            Some(k) if language != self.analyzer.language() => {
                self.detected[k].get_or_init(|| Analyzer::new(language))
            }
            _ => &self.analyzer,
        }
    }

    /// The language `answer` is read in, with what detection found (see
    /// [`Options::auto_language`]), and its analyzer.
    pub fn language_for(&self, answer: &Answer, chunks: &Chunks) -> (LanguageUse, &Analyzer) {
        let detected = words::detect(
            &answer.text,
            chunks.chunks.iter().map(|c| c.text.as_str()),
            self.options.language,
        )
        .map(|d| d.language);
        let used = match detected {
            Some(language) if self.options.auto_language => language,
            _ => self.options.language,
        };
        let choice = LanguageUse {
            used,
            detected,
            auto: used != self.options.language,
        };
        (choice, self.analyzer_of(used))
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The analyzer it reads words with (its language's stemmer and stop words).
    pub fn analyzer(&self) -> &Analyzer {
        &self.analyzer
    }

    /// Checks every sentence of `answer` against `chunks`.
    pub fn check(&self, answer: &Answer, chunks: &Chunks) -> Report {
        self.check_within(answer, chunks, &Deadline::none())
            .expect("a check without a deadline runs to its end")
    }

    /// [`Checker::check`] that gives up soon after `deadline` passes (within a sentence or a
    /// few hundred chunks of work), with `Expired` and no report: the time of a check grows
    /// with its sentences times the chunks that share their words, and a server bounds it.
    pub fn check_within(
        &self,
        answer: &Answer,
        chunks: &Chunks,
        deadline: &Deadline,
    ) -> Result<Report, Expired> {
        self.check_split(answer, chunks, false, in_parallel(answer, chunks), deadline)
    }

    /// Checks `answer` as one unit: a single sentence from its first word to its last, whose
    /// markers cite for all of it. For labelled claims (a sentence or two with the markers at
    /// the end), as eval data gives them.
    pub fn check_as_one(&self, answer: &Answer, chunks: &Chunks) -> Report {
        self.check_split(
            answer,
            chunks,
            true,
            in_parallel(answer, chunks),
            &Deadline::none(),
        )
        .expect("a check without a deadline runs to its end")
    }

    /// `parallel`: whether the chunks are read on a second thread (see [`in_parallel`]); the
    /// result is the same either way.
    fn check_split(
        &self,
        answer: &Answer,
        chunks: &Chunks,
        as_one: bool,
        parallel: bool,
        deadline: &Deadline,
    ) -> Result<Report, Expired> {
        let (language, analyzer) = self.language_for(answer, chunks);
        analyzer.begin();
        let resolver = Resolver::for_chunks(chunks).with_pattern(
            self.options
                .marker
                .clone()
                .or_else(|| answer.marker.clone()),
        );
        // The values of the figures the question states.
        let given: FxHashSet<words::NumberValue> = answer
            .question
            .as_deref()
            .map(|q| {
                // With the digits written onto a word (`a s34.4 order`, `covid19`): the
                // question states them too.
                let (found, glued) = words::chunk_numbers(q, analyzer.language().decimal());
                found
                    .into_iter()
                    .map(|n| n.value)
                    .chain(
                        glued
                            .into_iter()
                            .filter(|v| v.kind() == words::Kind::Quantity),
                    )
                    .collect()
            })
            .unwrap_or_default();
        // The stems of the question's content words: a sentence that restates it is no claim.
        let question_words: FxHashSet<u32> = answer
            .question
            .as_deref()
            .filter(|_| self.options.claim_model.is_some() || self.options.keep_features)
            .map(|q| {
                let numbers = words::numbers_in(q, analyzer.language().decimal());
                analyzer
                    .content_words(q, &numbers)
                    .into_iter()
                    .map(|w| w.id)
                    .collect()
            })
            .unwrap_or_default();
        // The answer's sentences with their markers, citations and words.
        let read_answer = || {
            let conventions = sentence::Conventions::for_code(analyzer.language().code());
            let mut split = sentence::split_in(&answer.text, &resolver, &conventions);
            // A unit of several sentences is a non-claim only when each of them is one.
            let parts: Vec<std::ops::Range<usize>> = if as_one && split.spans.len() > 1 {
                split.spans.iter().map(|s| s.span.clone()).collect()
            } else {
                Vec::new()
            };
            if as_one && let (Some(first), Some(last)) = (split.spans.first(), split.spans.last()) {
                let whole = sentence::SentenceSpan {
                    span: first.span.start..last.span.end,
                    start: first.start,
                    end: last.end,
                    heading: false,
                    reference: false,
                };
                split.spans = vec![whole];
            }
            // The answer's own source list maps its labels to the chunks it names.
            let source_map = marker::sources::map(&split.sources, &answer.text, &chunks.chunks);
            let listed;
            let resolver = if source_map.named.is_empty() {
                &resolver
            } else {
                listed = resolver.clone().with_source_map(&source_map);
                &listed
            };
            let citations: Vec<ResolvedCitation> = answer
                .citations
                .iter()
                .enumerate()
                .map(|(k, c)| marker::resolve_citation(k, c, &chunks.chunks, resolver))
                .collect();
            let attached =
                marker::attach_citations(split.spans.iter().map(|s| &s.span), &citations);
            let mut sentences = split
                .spans
                .into_iter()
                .zip(attached)
                // Past the deadline, the sentences left are not read (nor is there a result).
                .take_while(|_| !deadline.passed())
                .map(|(position, native)| {
                    let mut read = self.read_sentence(
                        analyzer,
                        &answer.text,
                        &split.prose,
                        position,
                        native,
                        (&citations, resolver, &given, &question_words),
                    );
                    if read.nonclaim.is_some() && !parts.is_empty() {
                        read.nonclaim =
                            self.unit_nonclaim(analyzer, &split.prose, &parts, resolver);
                    }
                    read
                })
                .collect::<Vec<SentenceInput>>();
            if self.options.citation_scope == CitationScope::Paragraph {
                scope::inherit_paragraph_citations(&mut sentences, &answer.text);
            }
            if !as_one {
                claims::score(
                    &mut sentences,
                    &answer.text,
                    self.options.claim_model.as_deref(),
                    self.options.claim_threshold,
                );
            }
            (sentences, citations, source_map, split.unchecked)
        };
        // A long answer's chunks are read on a second thread while this one reads the answer
        // (whose words go through this thread's interner); a short answer's chunks are read
        // while indexing, screened by its few words.
        let ((sentences, citations, source_map, unchecked), chunk_words) = if parallel {
            let (answer, texts) = parallel::on_two_threads(read_answer, || {
                ChunkTexts::read(&chunks.chunks, analyzer)
            });
            (answer, ChunkWords::Read(texts))
        } else {
            (read_answer(), ChunkWords::Streamed(&chunks.chunks))
        };
        deadline.check()?;
        // Chunks are indexed for the sentences' words only: every score is about them.
        let wanted = analyzer.word_filter(sentences.iter().flat_map(|s| s.words.iter()));
        let index = ChunkIndex::build(chunk_words, analyzer, wanted);
        let mut result = support::assess(
            sentences,
            &citations,
            &chunks.chunks,
            &index,
            support::Scoring {
                threshold: self.options.threshold,
                model: &self.options.model,
                keep_features: self.options.keep_features,
                analyzer,
            },
            parallel,
            deadline,
        )?;
        for sentence in &mut result.sentences {
            sentence.span.start += answer.offset;
            sentence.span.end += answer.offset;
        }
        result.counts.unchecked_lines = unchecked.lines.len();
        let mut warnings = answer.warnings.clone();
        warnings.extend(unchecked.warnings.iter().cloned());
        warnings.extend(unchecked.warning());
        warnings.extend(chunks.warnings.iter().cloned());
        if !source_map.unmatched.is_empty() {
            warnings.push(format!(
                "the answer's source list names no chunk by title, URL, file name or id for {}: \
                 those markers resolve by their labels",
                source_map.unmatched.join(", ")
            ));
        }
        for citation in &citations {
            if citation.chunks.is_empty() {
                warnings.push(format!(
                    "citation {} names source {}, which does not exist",
                    citation.index, citation.label
                ));
            }
        }
        let cites_anything =
            !citations.is_empty() || result.sentences.iter().any(|s| !s.markers.is_empty());
        if !cites_anything && result.counts.claims > 0 {
            warnings.push("the answer has no citation at all".to_string());
        }
        if let Some(detected) = language.detected
            && detected != language.used
        {
            warnings.push(format!(
                "the answer looks written in {} but is read as {}: pass --lang {} (or --lang auto)",
                detected.name(),
                language.used.name(),
                detected.code()
            ));
        }
        Ok(Report {
            result,
            warnings,
            language,
            source: None,
            unchecked,
        })
    }

    /// What a unit of several sentences is when each of its sentences is a non-claim or a
    /// fragment: the first named non-claim among them; `None` when one of them is a claim.
    fn unit_nonclaim(
        &self,
        analyzer: &Analyzer,
        prose: &str,
        parts: &[std::ops::Range<usize>],
        resolver: &Resolver,
    ) -> Option<claim::NonClaim> {
        let mut named = None;
        for part in parts {
            let part = &prose[part.clone()];
            let found = marker::markers(part, resolver);
            let text = marker::cite::blanked(part, &found);
            let marked = !found.is_empty();
            let numbers = words::numbers_in(&text, analyzer.language().decimal());
            let quotes = !quote::quotations(&text).is_empty();
            let traits = claim::Traits {
                figures: numbers.iter().any(|n| n.role != words::Role::Name),
                quotes,
                english: analyzer.language() == words::Language::English,
                marked,
            };
            match claim::classify(&text, traits) {
                Some(found) => {
                    named.get_or_insert(found);
                }
                None if analyzer.content_words(&text, &numbers).len()
                    < support::MIN_CLAIM_WORDS
                    && !traits.figures => {}
                None => return None,
            }
        }
        named
    }

    /// The marker, words, quote and claim stages for one sentence.
    fn read_sentence(
        &self,
        analyzer: &Analyzer,
        answer: &str,
        prose: &str,
        position: sentence::SentenceSpan,
        native: Vec<usize>,
        (citations, resolver, given, question_words): (
            &[ResolvedCitation],
            &Resolver,
            &FxHashSet<words::NumberValue>,
            &FxHashSet<u32>,
        ),
    ) -> SentenceInput {
        let range = position.span.clone();
        let marks = marker::cite::of_sentence(
            &prose[range.clone()],
            range.start,
            position.reference,
            &native,
            citations,
            resolver,
        );
        let text = &marks.text;
        // A mixed sentence (`I could not find the 2023 figure, but the 2022 report gives
        // 4.1%`) is a claim about the rest: the declining clause's words and figures are
        // blanked, their places kept.
        let declined = (analyzer.language() == words::Language::English)
            .then(|| claim::declined_part(text))
            .flatten();
        let judged = declined.map(|range| {
            let mut bytes = text.clone().into_bytes();
            bytes[range].fill(b' ');
            String::from_utf8(bytes).unwrap_or_else(|_| text.clone())
        });
        let read =
            analyzer.read_sentence(judged.as_ref().unwrap_or(text), given, |before, number| {
                marker::names_a_source(before, number, resolver)
            });
        let quotations = quote::quotations(text);
        let english = analyzer.language() == words::Language::English;
        let marked = !marks.labels.is_empty() || !native.is_empty();
        let nonclaim = claim::classify(
            text,
            claim::Traits {
                figures: !read.numbers.is_empty(),
                quotes: !quotations.is_empty(),
                english,
                marked,
            },
        );
        // The claim features of its own words, where the claim scorer may decide.
        let scored = !marked
            && self.options.claim_model.is_some()
            && claims::may_decide(
                nonclaim.is_some(),
                &position,
                read.words.len(),
                !read.numbers.is_empty() || !quotations.is_empty(),
            );
        let claim_features = (english && (scored || self.options.keep_features)).then(|| {
            let names = read.words.iter().filter(|w| w.name).count();
            let rarities: Vec<f64> = read
                .words
                .iter()
                .map(|w| words::rarity::rarity(&w.surface))
                .collect();
            support::model::claims::own_features(&support::model::claims::Own {
                text,
                content_words: read.words.len(),
                figures: read.numbers.len(),
                years: read.numbers.iter().filter(|n| is_year(&n.text)).count(),
                names,
                rare_words: rarities.iter().filter(|&&r| r >= RARE).count(),
                rarity: rarities.iter().sum(),
                general_words: read.words.iter().filter(|w| w.general).count(),
                quotes: quotations.len(),
                in_question: read
                    .words
                    .iter()
                    .filter(|w| question_words.contains(&w.id))
                    .count(),
                english,
            })
        });
        SentenceInput {
            text: answer[range].to_string(),
            position,
            labels: marks.labels,
            cited: marks.cited,
            unknown: marks.unknown,
            words: read.words,
            numbers: read.numbers,
            context: read.context,
            quotations,
            native,
            nonclaim,
            inherited_from: None,
            claim_features,
            claim_score: None,
        }
    }
}

/// Rarity (9 − Zipf frequency) from which a word counts as rare for the claim scorer: Zipf
/// below 3.5, fewer than about three uses in a million words.
const RARE: f64 = 5.5;

/// Whether a number as written is a year: four digits from 1000 to 2100.
fn is_year(text: &str) -> bool {
    text.len() == 4 && text.bytes().all(|b| b.is_ascii_digit()) && ("1000"..="2100").contains(&text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input;

    /// An answer and chunks large enough for the second thread (which reads the chunks, then
    /// judges half the sentences): sentences that share words
    /// with some chunks, cite some of them, and carry numbers and unknown markers.
    fn large_inputs() -> (Answer, Chunks) {
        let bases = [
            "tower", "river", "bridge", "station", "market", "Tower", "rivers", "built", "1889",
            "3.5",
        ];
        let words: Vec<String> = (0..400)
            .map(|k| match k % 4 {
                0 => bases[k % bases.len()].to_string(),
                _ => format!("w{k}"),
            })
            .collect();
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut sentence = |len: usize| {
            let mut s: Vec<&str> = (0..len)
                .map(|_| words[next(words.len())].as_str())
                .collect();
            s.insert(0, "The");
            s.join(" ")
        };
        let chunks: Vec<serde_json::Value> = (0..600)
            .map(|k| serde_json::json!({"id": format!("c{k}"), "text": format!("{}. {}.", sentence(20), sentence(20))}))
            .collect();
        let mut answer = String::new();
        for k in 0..600 {
            answer.push_str(&format!(
                "{} [c{}] [x{}]. ",
                sentence(8),
                (k * 7) % 300,
                k % 5
            ));
        }
        let chunks = serde_json::Value::Array(chunks).to_string();
        (
            input::read_answer(answer.as_bytes(), None).expect("answer"),
            input::read_chunks(chunks.as_bytes(), true).expect("chunks"),
        )
    }

    #[test]
    fn a_check_past_its_deadline_gives_no_report() {
        let (answer, chunks) = large_inputs();
        let checker = Checker::new(Options::default());
        for parallel in [false, true] {
            let past = Deadline::at(std::time::Instant::now());
            let result = checker.check_split(&answer, &chunks, false, parallel, &past);
            assert_eq!(result.err(), Some(Expired));
        }
        let later = Deadline::after(std::time::Duration::from_secs(3600));
        let report = checker.check_within(&answer, &chunks, &later).unwrap();
        assert_eq!(
            report.result.counts,
            checker.check(&answer, &chunks).result.counts
        );
    }

    /// A deadline that passes after a count of looks (not of time): each loop of the check
    /// stops at its first look after the deadline passed, however much work is left, so
    /// that the thread is free again; on one thread and on two.
    #[test]
    fn a_check_stops_at_its_first_look_past_the_deadline() {
        use std::sync::atomic::Ordering;
        let (answer, chunks) = large_inputs();
        let checker = Checker::new(Options::default());
        for parallel in [false, true] {
            // Looks made by a whole check: at least one per sentence.
            let counted = Deadline::after_looks(usize::MAX);
            checker
                .check_split(&answer, &chunks, false, parallel, &counted)
                .unwrap();
            let looks = usize::MAX - counted.looks_left();
            assert!(looks >= 600, "{looks} looks for 600 sentences");
            for budget in [0, 1, 300, 700, looks / 2, looks - 1] {
                let deadline = Deadline::after_looks(budget);
                let result = checker.check_split(&answer, &chunks, false, parallel, &deadline);
                assert_eq!(result.err(), Some(Expired), "budget {budget}");
                let late = deadline.late.load(Ordering::Relaxed);
                assert!(
                    late <= 6,
                    "{late} looks after the deadline (budget {budget})"
                );
            }
            let enough = Deadline::after_looks(looks);
            assert!(
                checker
                    .check_split(&answer, &chunks, false, parallel, &enough)
                    .is_ok()
            );
        }
    }

    #[test]
    fn a_check_on_two_threads_gives_the_same_result() {
        let (answer, chunks) = large_inputs();
        assert!(
            in_parallel(&answer, &chunks),
            "the inputs take the parallel path"
        );
        let checker = Checker::new(Options::default());
        let json = |parallel| {
            let report = checker
                .check_split(&answer, &chunks, false, parallel, &Deadline::none())
                .unwrap();
            serde_json::to_string(&report.result).expect("json")
        };
        let (parallel, streamed) = (json(true), json(false));
        assert!(
            parallel.contains("\"verdict\":\"supported\""),
            "{parallel:.300}"
        );
        assert_eq!(parallel, streamed);
        // And on a thread whose stems were interned by other checks first.
        let _ = checker.check(&answer, &chunks);
        assert_eq!(json(false), streamed);
    }

    /// Chunks that resemble each other and claims written more than once: a 40-word
    /// vocabulary whose first words most chunks hold (frequent words), sentences drawn from
    /// 60 templates, some cited, some uncited, with numbers.
    fn resembling_inputs(seed: u64) -> (Answer, Chunks) {
        let mut seed = seed | 1;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let words: Vec<String> = (0..40)
            .map(|k| match k {
                0..6 => ["tower", "river", "Paris", "bridge", "museum", "station"][k].to_string(),
                6..9 => ["1889", "330", "12"][k - 6].to_string(),
                _ => format!("w{k}"),
            })
            .collect();
        // Low word numbers are far more frequent than high ones.
        let word = |next: &mut dyn FnMut(usize) -> usize| {
            let bound = next(40) + 1;
            words[next(bound)].as_str()
        };
        let templates: Vec<String> = (0..60)
            .map(|k| {
                let text: Vec<&str> = (0..3 + k % 9).map(|_| word(&mut next)).collect();
                text.join(" ")
            })
            .collect();
        // Chunk k holds template k % 60, among other words.
        let chunks: Vec<serde_json::Value> = (0..120)
            .map(|k| {
                let text: Vec<&str> = (0..4 + k % 17).map(|_| word(&mut next)).collect();
                let text = format!("The {}. {}.", text.join(" "), templates[k % 60]);
                serde_json::json!({"id": format!("c{k}"), "text": text})
            })
            .collect();
        let mut answer = String::new();
        for _ in 0..150 {
            let t = next(templates.len());
            // A chunk that holds the claim, one of the two, or any chunk.
            let holder = |j: usize| format!("c{}", t + 60 * j);
            let marker = match next(5) {
                0 => String::new(),
                1 => format!(" [{}][c{}]", holder(next(2)), next(120)),
                2 => format!(" [{}]", holder(next(2))),
                _ => format!(" [c{}]", next(120)),
            };
            answer.push_str(&format!("The {}{marker}. ", templates[t]));
        }
        let chunks = serde_json::Value::Array(chunks).to_string();
        (
            input::read_answer(answer.as_bytes(), None).expect("answer"),
            input::read_chunks(chunks.as_bytes(), true).expect("chunks"),
        )
    }

    #[test]
    fn shortcuts_change_no_result() {
        let mut left_out = 0;
        for seed in 1..=3 {
            let (answer, chunks) = resembling_inputs(seed * 7919);
            for model in [Model::shipped(), Model::formula()] {
                for threshold in [0.3, 0.7] {
                    let checker = Checker::new(Options {
                        threshold,
                        model: model.clone(),
                        ..Options::default()
                    });
                    let json = |shortcuts: bool| {
                        crate::support::SHORTCUTS.with(|s| s.set(shortcuts));
                        let report = checker
                            .check_split(&answer, &chunks, false, seed % 2 == 0, &Deadline::none())
                            .unwrap();
                        crate::support::SHORTCUTS.with(|s| s.set(true));
                        serde_json::to_string(&report.result).expect("json")
                    };
                    let (with, without) = (json(true), json(false));
                    assert_eq!(with, without, "seed {seed}, threshold {threshold}");
                    left_out += usize::from(with.contains("\"relevant-but-uncited\""));
                }
            }
        }
        // The inputs reach the paths compared: chunks supporting sentences they are not
        // cited by.
        assert!(left_out > 0);
    }

    #[test]
    fn a_source_named_in_words_is_no_number_of_the_sentence() {
        let chunks = r#"[{"id": "1", "text": "China posted a trade surplus in 2019."},
                         {"id": "2", "text": "Exports rose."}]"#;
        let chunks = input::read_chunks(chunks.as_bytes(), true).expect("chunks");
        let checker = Checker::new(Options::default());
        let numbers = |answer: &str| {
            let answer = input::read_answer(answer.as_bytes(), None).expect("answer");
            let report = checker.check(&answer, &chunks);
            report.result.sentences[0].check_worthy.clone()
        };
        assert!(numbers("According to 1, China posted a trade surplus in 2019 [1].") == ["2019"]);
        assert!(numbers("It is in both contexts 1 and 2 [1].").is_empty());
        assert!(numbers("As Source 2 says, exports rose [2].").is_empty());
        // A number that names no chunk, or follows other words, is a number.
        assert!(numbers("According to 3 analysts, exports rose [2].") == ["3"]);
        assert!(numbers("Exports rose in 2 ports [2].") == ["2"]);
        assert!(numbers("According to 1.5 million people, exports rose [2].") == ["1.5 million"]);
    }
}
