//! `--format concise` and `--format full`: the findings as linters print theirs (ruff's
//! `concise` and `full`, rustc's and clippy's diagnostics). `concise` is one line per finding,
//! `path:line:column: rule message`, the same message the CI formats carry. `full` shows each
//! finding's sentence with the words that decided underlined, the passage of the cited chunk
//! with the sentence's words marked, and a note per cited chunk; it is rendered by
//! annotate-snippets, the renderer rustc and ruff use. Both end with the table's footer (the
//! abstentions, the warnings, the summary line).
//!
//! What the inputs hold reaches the renderer only as `escaped` writes it: every character that
//! must not reach a terminal as it is (see [`crate::escape::hidden`]) as its `\u{…}` escape,
//! with the spans moved to match.

use std::io::{self, Write};
use std::ops::Range;

use annotate_snippets::{AnnotationKind, Group, Level as Severity, Origin, Renderer, Snippet};
use owo_colors::OwoColorize;
use rustc_hash::FxHashMap;

use super::api::ReadInputs;
use super::findings::{
    Level, Rule, check_findings, display_path, loose_misquotes, one_line, sentence_details,
};
use super::table::write_footer;
use super::{Emitter, Run};
use crate::report::{CitationFinding, SentenceResult, Verdict, preview};
use crate::support::passage::best_passage;
use crate::words::Analyzer;

/// Bytes of the answer's line shown before and after the sentence; the renderer cuts further
/// to the terminal's width.
const CONTEXT_BYTES: usize = 240;
/// Bytes of the sentence's line before it shown whole; further in, it is cut to the context.
const LINE_BYTES: usize = 4_096;
/// Longest sentence shown, in bytes: a longer one is cut (the span is underlined to the cut).
const SENTENCE_BYTES: usize = 2_000;
/// Bytes of a chunk shown around the passage that decided.
const CHUNK_CONTEXT_BYTES: usize = 60;
/// Longest passage of a chunk shown, in bytes.
const PASSAGE_BYTES: usize = 600;
/// Words and figures underlined per sentence, at most.
const MARKS: usize = 8;

/// `path:line:column: rule message`, one line per finding, then the footer.
#[derive(Debug, Clone, Copy)]
pub struct ConciseEmitter {
    pub color: bool,
}

impl Emitter for ConciseEmitter {
    fn emit(&self, run: &Run<'_>, out: &mut dyn Write) -> io::Result<()> {
        for finding in check_findings(run.report, &run.inputs.answer.path) {
            let place = format!(
                "{}:{}:{}:",
                one_line(&finding.path),
                finding.start.line,
                finding.start.column
            );
            let rule = finding.rule.id();
            let message = finding
                .message
                .strip_prefix(rule)
                .and_then(|rest| rest.strip_prefix(": "))
                .unwrap_or(&finding.message);
            if self.color {
                writeln!(
                    out,
                    "{} {} {message}",
                    place.bold(),
                    painted(rule, finding.rule.level())
                )?;
            } else {
                writeln!(out, "{place} {rule} {message}")?;
            }
        }
        write_footer(out, run, self.color)
    }

    /// The positions are those of the text inside a response file.
    fn file_positions(&self) -> bool {
        true
    }
}

/// A rule id in its level's colour, as ruff colours codes.
fn painted(rule: &str, level: Level) -> String {
    match level {
        Level::Error => rule.red().bold().to_string(),
        Level::Warning => rule.yellow().bold().to_string(),
        Level::Note => rule.cyan().bold().to_string(),
    }
}

/// Each finding with its sentence, the words that decided underlined, the passage of the chunk
/// that decided, and a note per cited chunk; then the footer.
#[derive(Debug, Clone)]
pub struct FullEmitter {
    pub color: bool,
    /// Width of the terminal (or of the output) in columns: long lines are cut around what is
    /// underlined.
    pub width: u16,
    /// The answer and chunks as read: the snippets are cut from them.
    pub read: ReadInputs,
    /// The answer is a response (JSON, a stream): the snippet shows the text read from it, and
    /// the position is the text's place in the file.
    pub response: bool,
}

impl Emitter for FullEmitter {
    fn emit(&self, run: &Run<'_>, out: &mut dyn Write) -> io::Result<()> {
        let renderer = if self.color {
            Renderer::styled()
        } else {
            Renderer::plain()
        }
        .term_width(usize::from(self.width));
        let path = one_line(&display_path(&run.inputs.answer.path));
        let analyzer = Analyzer::new(run.report.language.used);
        // Each chunk's text by its id (the first chunk of an id), looked up once per sentence.
        let mut chunk_texts: FxHashMap<&str, &str> = FxHashMap::default();
        for chunk in &self.read.chunks.chunks {
            chunk_texts
                .entry(chunk.id.as_str())
                .or_insert(chunk.text.as_str());
        }
        let mut any = false;
        for s in &run.report.result.sentences {
            let Some((rule, mut details)) = sentence_details(s) else {
                continue;
            };
            // The help line names the better chunk.
            details.retain(|d| !d.starts_with("suggested citation"));
            let view = SentenceView::new(&self.read, s);
            let chunk_view = deciding_passage(&chunk_texts, &analyzer, s);
            let groups = self.sentence_groups(
                run.report,
                &path,
                s,
                rule,
                &details,
                &view,
                chunk_view.as_ref(),
            );
            writeln!(out, "{}\n", renderer.render(&groups))?;
            any = true;
        }
        for (index, _, message) in loose_misquotes(&run.report.result) {
            let rule = Rule::Verdict(Verdict::Misquote);
            let title = message
                .strip_prefix(rule.id())
                .and_then(|rest| rest.strip_prefix(": "))
                .unwrap_or(&message);
            let group = severity(rule.level())
                .primary_title(title.to_string())
                .id(rule.id())
                .element(Origin::path(path.as_str()).line(1).char_column(1))
                .element(Severity::NOTE.message(format!(
                    "citation {index} is attached to no sentence of the answer"
                )));
            writeln!(out, "{}\n", renderer.render(&[group]))?;
            any = true;
        }
        if !any {
            writeln!(out, "No findings.")?;
        }
        write_footer(out, run, self.color)
    }

    /// The `-->` line of a response's finding is the text's place inside the file.
    fn file_positions(&self) -> bool {
        true
    }
}

impl FullEmitter {
    #[allow(clippy::too_many_arguments)]
    fn sentence_groups<'a>(
        &self,
        report: &crate::Report,
        path: &'a str,
        s: &'a SentenceResult,
        rule: Rule,
        details: &[String],
        view: &'a SentenceView,
        chunk: Option<&'a ChunkView>,
    ) -> Vec<Group<'a>> {
        let title = one_line(&details.join("; "));
        let mut snippet = Snippet::source(view.source.as_str())
            .line_start(view.line)
            .annotation(
                AnnotationKind::Primary
                    .span(view.sentence.clone())
                    .label(primary_label(s)),
            );
        for (span, label) in &view.marks {
            let annotation = AnnotationKind::Context.span(span.clone());
            snippet = snippet.annotation(match label {
                Some(label) => annotation.label(label.as_str()),
                None => annotation,
            });
        }
        let mut group =
            Group::with_title(severity(rule.level()).primary_title(title).id(rule.id()));
        if self.response || view.cut {
            // The renderer would count the position from the text shown: it is said first, and
            // the text shown is named for what it is.
            let (start, _) = report.sentence_position(s);
            group = group
                .element(
                    Origin::path(path)
                        .line(start.line)
                        .char_column(start.column),
                )
                .element(snippet.path(if self.response {
                    "the answer's text"
                } else {
                    "its line, cut"
                }));
        } else {
            group = group.element(snippet.path(path));
        }
        for note in notes(s) {
            group = group.element(Severity::NOTE.message(note));
        }
        if let Some(chunk) = &s.suggested_citation {
            group = group.element(Severity::HELP.message(format!(
                "chunk {} holds more of it (coverage {:.2}): cite it",
                one_line(chunk),
                s.best_coverage
            )));
        }
        let mut groups = vec![group];
        if let Some(chunk) = chunk {
            let mut passage = Snippet::source(chunk.source.as_str()).line_numbering(false);
            for span in &chunk.marks {
                passage = passage.annotation(AnnotationKind::Context.span(span.clone()));
            }
            groups.push(
                Group::with_title(Severity::NOTE.secondary_title(chunk.title.as_str()))
                    .element(passage),
            );
        }
        groups
    }
}

/// The renderer's level of a finding's level.
fn severity(level: Level) -> Severity<'static> {
    match level {
        Level::Error => Severity::ERROR,
        Level::Warning => Severity::WARNING,
        Level::Note => Severity::NOTE,
    }
}

/// What the underline of the whole sentence says.
fn primary_label(s: &SentenceResult) -> String {
    if s.cited.is_empty() {
        return "cites nothing".to_string();
    }
    one_line(&format!(
        "cites {}",
        s.cited
            .iter()
            .map(|id| preview(id, 40))
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

/// A note per cited chunk when the sentence cites several (what each adds), and how derived
/// figures follow.
fn notes(s: &SentenceResult) -> Vec<String> {
    let mut notes = Vec::new();
    if s.cited_chunks.len() > 1 {
        for c in &s.cited_chunks {
            let adds = if c.adds.is_empty() || c.finding == CitationFinding::Supports {
                String::new()
            } else {
                format!("; only it holds {}", c.adds.join(", "))
            };
            notes.push(one_line(&format!(
                "chunk {} {} (support {:.2}){adds}",
                preview(&c.chunk, 60),
                c.finding.name(),
                c.support
            )));
        }
    }
    for derived in &s.derived {
        notes.push(one_line(&format!(
            "{} follows from the chunks: {}",
            derived.number, derived.how
        )));
    }
    notes
}

/// The lines of the answer around a sentence, escaped, with the spans to underline.
#[derive(Debug)]
struct SentenceView {
    source: String,
    /// The line number of the source's first line.
    line: usize,
    sentence: Range<usize>,
    /// The line's start is not shown.
    cut: bool,
    /// Words and figures of the sentence to underline, each with what to say under it.
    marks: Vec<(Range<usize>, Option<String>)>,
}

impl SentenceView {
    fn new(read: &ReadInputs, s: &SentenceResult) -> SentenceView {
        let text = read.answer.text.as_str();
        let offset = read.answer.offset;
        let start = floor(text, s.span.start.saturating_sub(offset));
        let end = floor(text, s.span.end.saturating_sub(offset)).max(start);
        let end = floor(text, end.min(start + SENTENCE_BYTES)).max(start);
        // The line's start is looked for only as far back as it would be shown, its end only
        // as far on: reading a long line to its ends for each of its sentences was quadratic.
        let back = floor(text, start.saturating_sub(LINE_BYTES + 1));
        looked_at(start - back);
        let line_start = match text[back..start].rfind('\n') {
            Some(at) => Some(back + at + 1),
            None => (back == 0).then_some(0),
        };
        // From the line's start (the renderer counts the column from it, and cuts what the
        // width cannot show), unless the sentence starts far into a long line.
        let (from, cut) = match line_start {
            Some(line_start) if start - line_start <= LINE_BYTES => (line_start, false),
            _ => (floor(text, start.saturating_sub(CONTEXT_BYTES)), true),
        };
        let ahead = ceil(text, end + CONTEXT_BYTES);
        looked_at(ahead - end);
        let to = text[end..ahead].find('\n').map_or(ahead, |at| end + at);
        // The lines shown start at the sentence's line (cut before it when it is long).
        let line = s.start.line.max(1);
        let sentence_text = &text[start..end];
        let mut marks: Vec<(Range<usize>, Option<String>)> = Vec::new();
        let mark = |needle: &str, label: Option<String>, marks: &mut Vec<_>| {
            if marks.len() < MARKS
                && let Some(at) = find(sentence_text, needle)
            {
                marks.push((start + at..start + at + needle.len(), label));
            }
        };
        if let Some(c) = s
            .contradiction
            .as_ref()
            .filter(|_| s.verdict == Verdict::Contradicted)
        {
            mark(
                &c.sentence_words,
                Some(format!(
                    "chunk {} says “{}”",
                    preview(&c.chunk, 40),
                    preview(&c.chunk_words, 60)
                )),
                &mut marks,
            );
        }
        for quote in s.quotes.iter().filter(|q| !q.found()) {
            let label = match &quote.chunk {
                Some(chunk) => format!("not in chunk {}", preview(chunk, 40)),
                None => "in no cited chunk".to_string(),
            };
            mark(&quote.text, Some(label), &mut marks);
        }
        for number in &s.missing_numbers {
            mark(number, Some("in no cited chunk".to_string()), &mut marks);
        }
        for marker in &s.unknown_markers {
            mark(marker, Some("names no chunk".to_string()), &mut marks);
        }
        let shows_words = matches!(
            s.verdict,
            Verdict::UnsupportedCitation | Verdict::WeakSupport | Verdict::NumberMismatch
        );
        if shows_words {
            for word in &s.missing_words {
                mark(word, None, &mut marks);
            }
        }
        let mut bounds: Vec<usize> = vec![start, end];
        for (span, _) in &marks {
            bounds.extend([span.start, span.end]);
        }
        let (source, moved) = escaped(&text[from..to], from, &bounds, false);
        let at = |byte: usize| moved(byte);
        SentenceView {
            sentence: at(start)..at(end),
            marks: marks
                .into_iter()
                .map(|(span, label)| (at(span.start)..at(span.end), label.map(|l| one_line(&l))))
                .collect(),
            source,
            line,
            cut,
        }
    }
}

work_counter!();

/// The passage of the cited chunk that decided, escaped, with the sentence's words in it.
#[derive(Debug)]
struct ChunkView {
    title: String,
    source: String,
    marks: Vec<Range<usize>>,
}

/// The passage of the chunk that decided the sentence's verdict (the contradicting chunk's
/// words, or the passage of the deciding chunk that holds the most of the sentence's words).
fn deciding_passage(
    chunk_texts: &FxHashMap<&str, &str>,
    analyzer: &Analyzer,
    s: &SentenceResult,
) -> Option<ChunkView> {
    let text_of = |id: &str| chunk_texts.get(id).copied();
    let (id, span, marks) = match &s.contradiction {
        Some(c) if s.verdict == Verdict::Contradicted => {
            let text = text_of(&c.chunk)?;
            let words = floor(text, c.chunk_span.start)..floor(text, c.chunk_span.end);
            (c.chunk.as_str(), words.clone(), vec![words])
        }
        _ => {
            let id = s.deciding_chunk.as_deref()?;
            let passage = best_passage(analyzer, &s.sentence, text_of(id)?)?;
            (id, passage.span, passage.matched)
        }
    };
    let text = text_of(id)?;
    let from = floor(text, span.start.saturating_sub(CHUNK_CONTEXT_BYTES));
    let to = ceil(
        text,
        (span.end + CHUNK_CONTEXT_BYTES).min(from + PASSAGE_BYTES),
    );
    // From the first whole word, to the last.
    let from = text[from..span.start.max(from)]
        .find(' ')
        .filter(|_| from > 0)
        .map_or(from, |at| from + at + 1);
    let to = text[span.end.min(to)..to]
        .rfind(' ')
        .filter(|_| to < text.len())
        .map_or(to, |at| span.end.min(to) + at);
    let marks: Vec<Range<usize>> = marks
        .into_iter()
        .filter(|m| m.start >= from && m.end <= to)
        .collect();
    let mut bounds = Vec::with_capacity(marks.len() * 2);
    for m in &marks {
        bounds.extend([m.start, m.end]);
    }
    let (mut source, moved) = escaped(&text[from..to], from, &bounds, true);
    let mut marks: Vec<Range<usize>> = marks.iter().map(|m| moved(m.start)..moved(m.end)).collect();
    if from > 0 {
        source.insert(0, '…');
        let shift = '…'.len_utf8();
        for m in &mut marks {
            *m = m.start + shift..m.end + shift;
        }
    }
    if to < text.len() {
        source.push('…');
    }
    Some(ChunkView {
        title: one_line(&format!(
            "chunk {}, the passage that decided:",
            preview(id, 60)
        )),
        source,
        marks,
    })
}

/// `needle` in `haystack`: as written, else ignoring ASCII case (missing words are lower-cased).
fn find(haystack: &str, needle: &str) -> Option<usize> {
    if needle.is_empty() {
        return None;
    }
    haystack.find(needle).or_else(|| {
        let (h, n) = (haystack.as_bytes(), needle.as_bytes());
        (0..=h.len().checked_sub(n.len())?).find(|&at| {
            haystack.is_char_boundary(at)
                && haystack.is_char_boundary(at + n.len())
                && h[at..at + n.len()].eq_ignore_ascii_case(n)
        })
    })
}

/// The largest char boundary of `text` at or below `at`.
fn floor(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The smallest char boundary of `text` at or above `at`.
fn ceil(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

/// `text` (which starts at byte `base` of its whole) made safe for a terminal: every
/// [`crate::escape::hidden`] character but the line break as its `\u{…}` escape, a carriage
/// return before a line break dropped, and with `one_line` every line break as a space. Returns
/// it and where each of `bounds` (bytes of the whole) moved to in it.
fn escaped(
    text: &str,
    base: usize,
    bounds: &[usize],
    one_line: bool,
) -> (String, impl Fn(usize) -> usize + use<>) {
    let mut out = String::with_capacity(text.len());
    let mut wanted: Vec<usize> = bounds.to_vec();
    wanted.sort_unstable();
    wanted.dedup();
    let mut moved: Vec<(usize, usize)> = Vec::with_capacity(wanted.len());
    let mut next = wanted.iter().peekable();
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        while let Some(&&bound) = next.peek() {
            if bound > base + i {
                break;
            }
            moved.push((bound, out.len()));
            next.next();
        }
        match c {
            '\n' if one_line => out.push(' '),
            '\n' | '\t' => out.push(c),
            '\r' if matches!(chars.peek(), Some((_, '\n'))) => {}
            c if crate::escape::hidden(c) => crate::escape::push_escape(&mut out, c),
            c => out.push(c),
        }
    }
    for &bound in next {
        moved.push((bound, out.len()));
    }
    let end = out.len();
    let at = move |byte: usize| {
        moved
            .iter()
            .find(|(bound, _)| *bound == byte)
            .map_or(end, |(_, at)| *at)
    };
    (out, at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_moves_the_spans_with_the_text() {
        let text = "a\u{1b}[31mb\r\nc\u{202e}d";
        let (out, at) = escaped(text, 10, &[10, 11, 16, 17, 19, 20, 23], false);
        assert_eq!(out, "a\\u{1b}[31mb\nc\\u{202e}d");
        assert_eq!(at(10), 0);
        assert_eq!(at(11), 1, "the escape starts where the character did");
        assert_eq!(&out[at(16)..at(17)], "b");
        assert_eq!(&out[at(19)..at(20)], "c");
        assert_eq!(&out[at(23)..], "d");
        let (out, _) = escaped("a\nb", 0, &[], true);
        assert_eq!(out, "a b");
    }

    /// `full` of `n` sentences on one line, each citing a chunk that holds none of its
    /// figures, and the bytes of the answer read around the sentences shown.
    fn full_of_one_line(n: usize) -> (String, usize) {
        use crate::emit::testing::inputs;
        let text = "The tower is 500 metres tall [1]. ".repeat(n);
        let answer = crate::input::read_answer(text.as_bytes(), None).expect("answer");
        let chunks = crate::input::read_chunks(
            br#"[{"id": "1", "text": "The tower is 330 metres tall."}]"#,
            true,
        )
        .expect("chunks");
        let report = crate::Checker::new(crate::Options::default()).check(&answer, &chunks);
        let gate = crate::Limits::default().evaluate(&report.result.counts);
        let inputs = inputs();
        let run = Run {
            report: &report,
            gate: &gate,
            inputs: &inputs,
        };
        let emitter = FullEmitter {
            color: false,
            width: 100,
            read: ReadInputs { answer, chunks },
            response: false,
        };
        let mut out = Vec::new();
        let looked = looked_at_during(|| emitter.emit(&run, &mut out).expect("writes to memory"));
        (String::from_utf8(out).expect("UTF-8"), looked)
    }

    #[test]
    fn sentences_on_one_long_line_are_shown_in_linear_work() {
        // Each sentence's line was looked for back to its start and on to its end: 80,000
        // sentences on one line took 27 s (issue 38).
        let (small_out, small) = full_of_one_line(500);
        let (_, large) = full_of_one_line(2_000);
        assert!(large <= 5 * small, "{small} then {large} bytes: not linear");
        assert_eq!(small_out.matches("error[number-mismatch]").count(), 500);
        // Far into the line, the sentence is shown cut, with its place said first.
        let last = small_out
            .split("\n\n")
            .filter(|block| block.contains("error[number-mismatch]"))
            .last()
            .expect("a finding");
        assert!(last.contains("answer.md:1:16967\n"), "{last}");
        assert!(last.contains("its line, cut"), "{last}");
    }

    #[test]
    fn words_are_found_as_written_or_in_another_ascii_case() {
        assert_eq!(find("It was Gustave Eiffel.", "gustave"), Some(7));
        assert_eq!(find("In 1888 and 1889", "1889"), Some(12));
        assert_eq!(find("Ünïcode", "ünïcode"), None);
        assert_eq!(find("abc", ""), None);
        assert_eq!(find("ab", "abc"), None);
    }
}
