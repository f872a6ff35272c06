//! Findings: what the four CI formats (SARIF, GitHub annotations, GitLab Code Quality, JUnit)
//! share, so that they agree on every finding: the [`Rule`]s, the [`Finding`]s a report or a
//! batch record turns into, where each stands, and the fingerprint hash.

use super::BatchInputs;
pub use super::location::display_path;
use crate::batch::RecordOutcome;
pub use crate::batch::identity::fnv1a_hex;
use crate::batch::identity::normalised;
use crate::report::{
    CheckResult, Contradiction, QuoteCheck, Report, SentenceResult, Verdict, preview,
};
use crate::sentence::LineColumn;
/// How serious a finding is, in SARIF's words. Ordered from least to most serious.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    Note,
    Warning,
    Error,
}

impl Level {
    /// SARIF's `level`, which is also the GitHub workflow command (`note` is `notice` there).
    pub fn name(self) -> &'static str {
        match self {
            Level::Note => "note",
            Level::Warning => "warning",
            Level::Error => "error",
        }
    }
}

/// What a finding is about. The ids are stable: users filter and suppress on them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rule {
    /// A sentence whose verdict is a problem (never `supported` or `no-claim`).
    Verdict(Verdict),
    /// A sentence whose verdict is not a problem but that carries a label resolving to no
    /// chunk: the gate counts unknown markers on their own (`--max-unknown-markers`), so a CI
    /// report without this rule could fail with nothing to point at.
    UnknownMarker,
    /// A batch record that could not be read.
    BadRecord,
}

impl Rule {
    /// Every rule, in the order SARIF lists them (the verdicts in [`Verdict::ALL`]'s order).
    pub const ALL: [Rule; 8] = [
        Rule::Verdict(Verdict::Contradicted),
        Rule::Verdict(Verdict::NumberMismatch),
        Rule::Verdict(Verdict::Misquote),
        Rule::Verdict(Verdict::WeakSupport),
        Rule::Verdict(Verdict::UnsupportedCitation),
        Rule::Verdict(Verdict::UncitedClaim),
        Rule::UnknownMarker,
        Rule::BadRecord,
    ];

    /// The rule of a sentence's verdict, when the verdict is a problem.
    pub fn of(verdict: Verdict) -> Option<Rule> {
        match verdict {
            Verdict::Supported | Verdict::NoClaim => None,
            problem => Some(Rule::Verdict(problem)),
        }
    }

    /// The rule id (`number-mismatch`), as every output writes it.
    pub fn id(self) -> &'static str {
        match self {
            Rule::Verdict(verdict) => verdict.name(),
            Rule::UnknownMarker => "unknown-marker",
            Rule::BadRecord => "bad-record",
        }
    }

    /// SARIF's `name`: an identifier-like form of the id.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Verdict(Verdict::NumberMismatch) => "NumberMismatch",
            Rule::Verdict(Verdict::Misquote) => "Misquote",
            Rule::Verdict(Verdict::Contradicted) => "Contradicted",
            Rule::Verdict(Verdict::WeakSupport) => "WeakSupport",
            Rule::Verdict(Verdict::UnsupportedCitation) => "UnsupportedCitation",
            Rule::Verdict(Verdict::UncitedClaim) => "UncitedClaim",
            Rule::Verdict(Verdict::Supported) => "Supported",
            Rule::Verdict(Verdict::NoClaim) => "NoClaim",
            Rule::UnknownMarker => "UnknownMarker",
            Rule::BadRecord => "BadRecord",
        }
    }

    /// Errors are what the default limits reject; an uncited claim is a warning (it may be
    /// common knowledge); weak support is a note (its limit is off by default).
    pub fn level(self) -> Level {
        match self {
            Rule::Verdict(Verdict::UncitedClaim) => Level::Warning,
            Rule::Verdict(Verdict::WeakSupport | Verdict::Supported | Verdict::NoClaim) => {
                Level::Note
            }
            Rule::Verdict(_) | Rule::UnknownMarker | Rule::BadRecord => Level::Error,
        }
    }

    /// One line on what the rule means.
    pub fn summary(self) -> &'static str {
        match self {
            Rule::Verdict(verdict) => verdict.summary(),
            Rule::UnknownMarker => "a citation marker names no retrieved chunk",
            Rule::BadRecord => "a record of the transcript could not be read",
        }
    }

    /// What the rule means, how it is decided and what to do about it.
    pub fn explanation(self) -> &'static str {
        match self {
            Rule::Verdict(verdict) => verdict.explanation(),
            Rule::UnknownMarker => {
                "A label of the sentence ([7], [doc9], (source: x.pdf), …) resolves to no chunk: no chunk has that id or that other name (file, URL), no chunk's id is a word and that number, and it is not the position of a chunk. The sentence's other markers still support it, but a reader following this one finds nothing. Fix or remove the marker; --max-unknown-markers sets how many are allowed."
            }
            Rule::BadRecord => {
                "The record is not valid JSON, is not a JSON object, or has no answer or no contexts under the field names tried (see --field). It was skipped and counts as a bad record; --max-bad-records sets how many are allowed."
            }
        }
    }

    /// Position in [`Rule::ALL`], SARIF's `ruleIndex`.
    pub fn index(self) -> usize {
        Rule::ALL.iter().position(|r| *r == self).unwrap_or(0)
    }
}

/// One thing a CI report points at: a problem sentence, a quotation a provider attached to no
/// sentence, or an unreadable batch record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub rule: Rule,
    /// What is wrong, on one line, starting with the rule id.
    pub message: String,
    /// The file it is in, relative where possible, with forward slashes ([`display_path`]).
    pub path: String,
    /// The id of the batch record it is in; `None` for `check` and for unreadable records.
    pub record: Option<String>,
    /// What it is about within its answer or record (`sentence 2`, `citation 1`), or, for a
    /// record that cannot be read and has no id, the start of its first line: unique within one
    /// answer or record, and part of its [`Finding::identity`].
    pub subject: String,
    /// The text it is about: the sentence, the quotation, or for a bad record its error.
    pub text: String,
    /// Where it starts (1-based line and character column).
    pub start: LineColumn,
    /// Just past where it ends: the end of the sentence, or of the line when the finding is
    /// about a whole line.
    pub end: LineColumn,
}

impl Finding {
    pub fn level(&self) -> Level {
        self.rule.level()
    }

    /// What identifies the finding across runs, whatever moves around it: its rule, its
    /// record's id, what it is about within the record (the sentence's index) and its text,
    /// with case and white space normalised. Several findings on one line differ by it (GitHub's
    /// `primaryLocationLineHash`); an edit elsewhere in the file does not change it.
    pub fn identity(&self) -> String {
        format!("{:016x}", self.identity_hash())
    }

    /// The [`Finding::identity`] as the number its 16 hex digits write.
    fn identity_hash(&self) -> u64 {
        crate::batch::identity::fnv1a(&[
            self.rule.id(),
            self.record.as_deref().unwrap_or(""),
            &self.subject,
            &normalised(&self.text),
        ])
    }

    /// The identity with the file: unique within a report of several files (GitLab's
    /// `fingerprint`, ragcite's own `ragcite/v2`). `occurrence` tells apart the rare findings
    /// that are the same in every part (two records of one file sharing an id and a sentence).
    pub fn unique_identity(&self, occurrence: usize) -> String {
        let occurrence = occurrence.to_string();
        fnv1a_hex(&[&self.identity(), &self.path, &occurrence])
    }
}

/// Counts the findings of one identity in one file, so that findings alike in every part (two
/// records sharing an id and a sentence) still get identities of their own, numbered from 1 in
/// the order they come, as GitHub numbers identical lines (`hash:2`).
///
/// A batch counts every finding it reports, so each costs only the numbers of its file and of
/// its identity (the identity's 16 hex digits are that number's): a few bytes, not two strings.
#[derive(Debug, Default)]
pub struct Occurrences {
    /// The files seen, numbered by their place here.
    files: Vec<String>,
    seen: rustc_hash::FxHashMap<(usize, u64), usize>,
}

impl Occurrences {
    /// The finding's occurrence: 1 the first time its identity comes in its file.
    pub fn next(&mut self, finding: &Finding) -> usize {
        // Files come one after the other: the last one is almost always the one.
        let file = match self.files.iter().rposition(|f| *f == finding.path) {
            Some(file) => file,
            None => {
                self.files.push(finding.path.clone());
                self.files.len() - 1
            }
        };
        let count = self
            .seen
            .entry((file, finding.identity_hash()))
            .or_insert(0);
        *count += 1;
        *count
    }
}

/// Longest sentence quoted in a message, in characters.
const SENTENCE_CHARS: usize = 200;
/// Longest quotation or passage quoted in a message, in characters.
const QUOTE_CHARS: usize = 60;
/// Missing words listed in a message before the rest are counted.
const MISSING_WORDS_SHOWN: usize = 5;

/// Text made fit for a one-line message: a tab becomes a space, and line breaks and other
/// control characters (from a record id, say), bidirectional controls and invisible
/// characters are written as escapes (`\n`, `\u{1}`, `\u{202e}`, as
/// [`crate::escape::printable`] writes them) rather than break the line, reorder it or vanish.
pub fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\t' => out.push(' '),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if crate::escape::hidden(c) => crate::escape::push_escape(&mut out, c),
            c => out.push(c),
        }
    }
    out
}

/// How messages name a batch record: its id on one line, or `#` and its position when the id
/// is blank (an empty `id` field would read as nothing at all).
pub fn record_label(id: &str, index: usize) -> String {
    if id.trim().is_empty() {
        format!("#{index}")
    } else {
        one_line(id)
    }
}

/// "9" / "9, 12": a list of labels or numbers.
fn list(items: &[String]) -> String {
    items.join(", ")
}

/// A quotation not found where it was looked for, and the closest passage.
fn misquote_detail(quote: &QuoteCheck) -> String {
    let mut detail = format!("“{}”", preview(&quote.text, QUOTE_CHARS));
    match &quote.chunk {
        Some(chunk) => detail.push_str(&format!(" is not in chunk {chunk}")),
        None => detail.push_str(" is in no cited chunk"),
    }
    if let Some(closest) = &quote.result.closest {
        let differ = match closest.differing_words {
            1 => "1 word differs".to_string(),
            n => format!("{n} words differ"),
        };
        detail.push_str(&format!(
            ", closest passage ({:.2}, {differ}): “{}”",
            closest.similarity,
            preview(&closest.text, QUOTE_CHARS)
        ));
    }
    detail
}

/// What a contradicting chunk says: `chunk 2 says "did not significantly reduce" (polarity)`.
pub fn contradiction_detail(c: &Contradiction) -> String {
    format!(
        "chunk {} says \"{}\" ({})",
        c.chunk,
        preview(&c.chunk_words, QUOTE_CHARS),
        c.kind.name()
    )
}

/// The chunk that decided a verdict about support, when the sentence cites several: with one,
/// the message names it already.
fn decided_by(s: &SentenceResult) -> Option<&str> {
    let about_support = matches!(
        s.verdict,
        Verdict::WeakSupport | Verdict::UnsupportedCitation | Verdict::NumberMismatch
    );
    s.deciding_chunk
        .as_deref()
        .filter(|_| about_support && s.cited.len() > 1)
}

/// The rule and message of a sentence, when it has a finding.
fn sentence_problem(s: &SentenceResult) -> Option<(Rule, String)> {
    let (rule, details) = sentence_details(s)?;
    let message = format!(
        "{}: {}: \"{}\"",
        rule.id(),
        details.join("; "),
        preview(&s.sentence, SENTENCE_CHARS)
    );
    Some((rule, one_line(&message)))
}

/// The rule of a sentence and what is wrong with it, one item per part (not yet made fit for
/// one line), when it has a finding.
pub(crate) fn sentence_details(s: &SentenceResult) -> Option<(Rule, Vec<String>)> {
    let rule = match Rule::of(s.verdict) {
        Some(rule) => rule,
        None if !s.unknown_markers.is_empty() => Rule::UnknownMarker,
        None => return None,
    };
    let mut details = Vec::new();
    if !s.unknown_markers.is_empty() {
        details.push(if s.unknown_markers.len() == 1 {
            format!("marker {} resolves to no chunk", s.unknown_markers[0])
        } else {
            format!("markers {} resolve to no chunk", list(&s.unknown_markers))
        });
    }
    if rule != Rule::UnknownMarker {
        if s.verdict == Verdict::Contradicted
            && let Some(contradiction) = &s.contradiction
        {
            details.push(contradiction_detail(contradiction));
        }
        details.extend(s.quotes.iter().filter(|q| !q.found()).map(misquote_detail));
        if !s.missing_numbers.is_empty() {
            details.push(format!(
                "{} {} in none of the cited chunks ({})",
                list(&s.missing_numbers),
                if s.missing_numbers.len() == 1 {
                    "is"
                } else {
                    "are"
                },
                list(&s.cited)
            ));
        }
        let words = match s.verdict {
            Verdict::UnsupportedCitation if !s.cited.is_empty() => Some("few"),
            Verdict::WeakSupport => Some("only some"),
            _ => None,
        };
        if let Some(share) = words {
            let mut detail = format!(
                "the cited chunks ({}) hold {share} of its content words (coverage {:.2}, support {:.2})",
                list(&s.cited),
                s.coverage,
                s.support
            );
            if !s.missing_words.is_empty() {
                let shown: Vec<String> = s
                    .missing_words
                    .iter()
                    .take(MISSING_WORDS_SHOWN)
                    .cloned()
                    .collect();
                detail.push_str(&format!(", missing {}", list(&shown)));
                let more = s.missing_words.len().saturating_sub(MISSING_WORDS_SHOWN);
                if more > 0 {
                    detail.push_str(&format!(" (+{more} more)"));
                }
            }
            details.push(detail);
        }
        if let Some(chunk) = decided_by(s) {
            details.push(format!("decided by chunk {chunk}"));
        }
        if s.verdict == Verdict::UncitedClaim {
            details.push("it states a checkable claim and cites nothing".to_string());
        }
        if let Some(chunk) = &s.suggested_citation {
            details.push(format!(
                "suggested citation: {chunk} (coverage {:.2})",
                s.best_coverage
            ));
        }
    }
    if details.is_empty() {
        // A verdict whose details the report does not carry: its summary still says what is
        // wrong.
        details.push(rule.summary().to_string());
    }
    Some((rule, details))
}

/// Citations the provider attached to no sentence (a citation list's entries) whose quotation
/// is not in the chunk they name: the gate counts them as misquotes, so they are findings too.
/// Yields the citation's index, its quotation and the message.
pub(crate) fn loose_misquotes(result: &CheckResult) -> impl Iterator<Item = (usize, &str, String)> {
    result.citations.iter().filter_map(|c| {
        let quote = c.quote.as_ref().filter(|q| !q.found())?;
        if !c.sentences.is_empty() {
            return None;
        }
        let message = format!(
            "{}: citation {} (source {}): {}",
            Rule::Verdict(Verdict::Misquote).id(),
            c.index,
            c.source,
            misquote_detail(quote)
        );
        Some((c.index, quote.text.as_str(), one_line(&message)))
    })
}

/// The findings of one `check`: its problem sentences where they stand in the answer file (for a
/// response with the report's [`SourceMap`](crate::input::SourceMap), where their text stands
/// inside the response file: see [`Report::sentence_position`]), then its loose misquoted
/// citations at the answer's first line.
pub fn check_findings(report: &Report, answer_path: &str) -> Vec<Finding> {
    let path = display_path(answer_path);
    let result = &report.result;
    let mut findings: Vec<Finding> = result
        .sentences
        .iter()
        .filter_map(|s| {
            let (rule, message) = sentence_problem(s)?;
            let (start, end) = report.sentence_position(s);
            Some(Finding {
                rule,
                message,
                path: path.clone(),
                record: None,
                subject: format!("sentence {}", s.index),
                text: s.sentence.clone(),
                start,
                end,
            })
        })
        .collect();
    findings.extend(
        loose_misquotes(result).map(|(index, quote, message)| Finding {
            rule: Rule::Verdict(Verdict::Misquote),
            message,
            path: path.clone(),
            record: None,
            subject: format!("citation {index}"),
            text: quote.to_string(),
            start: LineColumn { line: 1, column: 1 },
            end: LineColumn { line: 1, column: 2 },
        }),
    );
    findings
}

/// Turns batch records into findings located in the transcript file.
///
/// A sentence is looked for in the record's JSON text as JSON writes it (escaped, without its
/// quotes; also with non-ASCII escaped as `\uXXXX`, as Python writes by default). Found, it is
/// placed exactly: the record's line plus the lines before it inside the record, and the
/// character column on that line. Not found (the answer was a provider response written as a
/// string, or was written another way), it is placed on the record's first line, whole.
///
/// A record's text starts at its first byte, and only its line is known, not its column: on
/// the record's first line, a column counted from the record's start is the column in the file
/// only when the record starts its line. That is so in JSON Lines (a `.jsonl` or `.ndjson`
/// file); elsewhere (a JSON array, where a record follows `[`, `,` or indentation) a sentence
/// found on its record's first line gets the whole line rather than a wrong column.
#[derive(Debug, Clone, Default)]
pub struct BatchFindings {
    path: String,
    /// Whether records start their lines, so that first-line columns are exact.
    lines_file: bool,
}

impl BatchFindings {
    pub fn new(inputs: &BatchInputs) -> Self {
        let mut findings = BatchFindings::default();
        findings.set_file(inputs.files.first().map_or("", String::as_str));
        findings
    }

    /// The transcript file whose records come next.
    pub fn set_file(&mut self, path: &str) {
        let lower = path.to_ascii_lowercase();
        self.path = display_path(path);
        self.lines_file = lower.ends_with(".jsonl") || lower.ends_with(".ndjson");
    }

    /// The transcript file, as findings name it.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The findings of one record, in the order of its sentences.
    pub fn of(&self, record: &RecordOutcome) -> Vec<Finding> {
        let whole_line = LineColumn {
            line: record.line,
            column: 1,
        };
        // A finding about the whole line ends where the record's first line does.
        let line_end = |first_line: &str| LineColumn {
            line: record.line,
            column: 1 + first_line.chars().count().max(1),
        };
        let checked = match &record.result {
            Err(error) => {
                let subject = if record.excerpt.is_empty() {
                    error.clone()
                } else {
                    record.excerpt.clone()
                };
                return vec![Finding {
                    rule: Rule::BadRecord,
                    message: one_line(&format!(
                        "{}: the record at line {} cannot be read: {error}",
                        Rule::BadRecord.id(),
                        record.line
                    )),
                    path: self.path.clone(),
                    record: None,
                    subject,
                    text: error.clone(),
                    start: whole_line,
                    end: line_end(&record.excerpt),
                }];
            }
            Ok(checked) => checked,
        };
        let label = record_label(&checked.id, record.index);
        let source = std::str::from_utf8(&checked.source).ok();
        let whole = line_end(source.map_or("", |s| s.split('\n').next().unwrap_or("")));
        let mut cursor = 0;
        let mut lines = LineCounter::default();
        let mut findings = Vec::new();
        for s in &checked.report.result.sentences {
            // Every sentence moves the cursor, so that a repeated sentence is matched with its
            // own occurrence rather than the first.
            let found = source.and_then(|source| {
                let (start, end) = find_escaped(source, &s.sentence, cursor)?;
                if start >= cursor {
                    cursor = end;
                }
                Some((source, start, end))
            });
            let Some((rule, message)) = sentence_problem(s) else {
                continue;
            };
            let (start, end) = match found {
                Some((source, start, end)) => {
                    let (start, end) = lines.positions(source, start, end, record.line);
                    if !self.lines_file && start.line == record.line {
                        (whole_line, whole)
                    } else {
                        (start, end)
                    }
                }
                None => (whole_line, whole),
            };
            findings.push(Finding {
                rule,
                message: format!("{message} (record {label})"),
                path: self.path.clone(),
                record: Some(checked.id.clone()),
                subject: format!("sentence {}", s.index),
                text: s.sentence.clone(),
                start,
                end,
            });
        }
        findings.extend(
            loose_misquotes(&checked.report.result).map(|(index, quote, message)| Finding {
                rule: Rule::Verdict(Verdict::Misquote),
                message: format!("{message} (record {label})"),
                path: self.path.clone(),
                record: Some(checked.id.clone()),
                subject: format!("citation {index}"),
                text: quote.to_string(),
                start: whole_line,
                end: whole,
            }),
        );
        findings
    }
}

/// The line a batch stopped at, from the scanner's message (`line 7: ...`), when it names one.
pub fn stopped_line(reason: &str) -> Option<usize> {
    let rest = reason.strip_prefix("line ")?;
    let digits = rest.split(':').next()?;
    digits.parse().ok().filter(|line| *line >= 1)
}

/// Where `text` stands in a record's JSON text, written as a JSON string's content: the byte
/// range of its first occurrence at or after `from`, else of its first occurrence at all.
fn find_escaped(source: &str, text: &str, from: usize) -> Option<(usize, usize)> {
    let quoted = serde_json::to_string(text).ok()?;
    let escaped = quoted.get(1..quoted.len().saturating_sub(1))?;
    if escaped.is_empty() {
        return None;
    }
    let ascii = ascii_escaped(escaped);
    let mut needles = vec![escaped];
    if ascii != escaped {
        needles.push(&ascii);
    }
    for needle in &needles {
        if let Some(at) = source.get(from..).and_then(|rest| rest.find(needle)) {
            return Some((from + at, from + at + needle.len()));
        }
    }
    for needle in &needles {
        if let Some(at) = source.find(needle) {
            return Some((at, at + needle.len()));
        }
    }
    None
}

/// JSON-escaped text with every non-ASCII character as `\uXXXX` (UTF-16, lower-case hex), as
/// Python's `json.dumps` writes it by default.
fn ascii_escaped(escaped: &str) -> String {
    let mut out = String::with_capacity(escaped.len());
    let mut units = [0u16; 2];
    for c in escaped.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    out
}

/// Lines counted so far in a record's text: the positions of findings in order are found by
/// reading on from the last one, not from the start (a record of thousands of findings stays
/// linear).
#[derive(Default)]
struct LineCounter {
    /// Bytes read so far, the newlines among them, and the characters read of the last line.
    read: usize,
    newlines: usize,
    column: usize,
}

impl LineCounter {
    /// The line and character column of the byte range `start..end` of a record's text, in the
    /// file where the record starts on `first_line`, reading on from the last call when `start`
    /// is not before it.
    fn positions(
        &mut self,
        source: &str,
        start: usize,
        end: usize,
        first_line: usize,
    ) -> (LineColumn, LineColumn) {
        if start < self.read {
            *self = LineCounter::default();
        }
        let skipped = &source[self.read..start];
        self.newlines += skipped.bytes().filter(|b| *b == b'\n').count();
        match skipped.rfind('\n') {
            Some(at) => self.column = skipped[at + 1..].chars().count(),
            None => self.column += skipped.chars().count(),
        }
        self.read = start;
        let line = first_line + self.newlines;
        let column = self.column + 1;
        let end_column = column + source[start..end].chars().count();
        (
            LineColumn { line, column },
            LineColumn {
                line,
                column: end_column,
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The findings the CI formats report are the ones `batch` fingerprints, in the same order
    /// and of the same rules: a problem sentence, a supported sentence with a marker that names
    /// no chunk, an unreadable record.
    #[test]
    fn batch_findings_are_the_ones_that_get_fingerprints() {
        use crate::batch::identity::{At, Identities, tests::outcomes};
        let context = "The Eiffel Tower is 330 metres tall and stands in Paris.";
        let records = [
            serde_json::json!({"id": "q1", "answer": "It is 330 metres tall [1][9]. It was built in 1740.",
                "contexts": [context]}),
            serde_json::json!({"id": "q2", "answer": "no contexts"}),
        ];
        let outcomes = outcomes(&records, &mut Identities::default());
        let findings = BatchFindings::default();
        for outcome in &outcomes {
            let reported: Vec<(&str, String)> = findings
                .of(outcome)
                .iter()
                .map(|f| (f.rule.id(), f.subject.clone()))
                .collect();
            let marked: Vec<(&str, String)> = outcome
                .findings
                .iter()
                .map(|f| {
                    let subject = match f.at {
                        At::Sentence(index) => format!("sentence {index}"),
                        At::Citation(index) => format!("citation {index}"),
                        At::Record => outcome.excerpt.clone(),
                    };
                    (f.rule, subject)
                })
                .collect();
            assert_eq!(reported, marked);
        }
        assert_eq!(outcomes[0].findings.len(), 2);
    }
    #[test]
    fn messages_stay_on_one_line() {
        assert_eq!(
            one_line("a\tb\nc\rd\u{1}e\u{202e}f"),
            "a b\\nc\\rd\\u{1}e\\u{202e}f"
        );
    }

    #[test]
    fn sentences_are_found_escaped_and_placed_by_line_and_character() {
        let source = "{\"id\": \"q\",\n \"response\": \"Größe \\\"x\\\" [1].\"}";
        let (start, end) = find_escaped(source, "Größe \"x\" [1].", 0).unwrap();
        let (from, to) = LineCounter::default().positions(source, start, end, 10);
        assert_eq!(
            from,
            LineColumn {
                line: 11,
                column: 15
            }
        );
        assert_eq!(
            to,
            LineColumn {
                line: 11,
                column: 15 + 16
            }
        );
        let python = "{\"answer\": \"Gr\\u00f6\\u00dfe.\"}";
        assert!(find_escaped(python, "Größe.", 0).is_some());
        assert!(find_escaped(source, "absent", 0).is_none());
    }
}
