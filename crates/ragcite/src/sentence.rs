//! Sentence stage: neutralises Markdown that is not prose (code, comments, definitions, list
//! bullets, link targets) and splits the answer into sentences with byte spans and
//! line:column positions.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;
use serde::Serialize;

use crate::marker::sources::{self, SourceList};
use crate::marker::{Resolver, link_group, marker_at, superscript};

mod blocks;
mod conventions;
pub use conventions::Conventions;

/// A 1-based line and column; the column counts characters (Unicode scalar values).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct LineColumn {
    pub line: usize,
    pub column: usize,
}

/// Where a sentence stands in the answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SentenceSpan {
    /// Byte span in the answer as given, end exclusive.
    pub span: Range<usize>,
    /// Position of the first character.
    pub start: LineColumn,
    /// Position just after the last character (end exclusive, as SARIF's `endColumn`).
    pub end: LineColumn,
    /// Whether the sentence is a Markdown heading (`# Title`): a title, not a claim.
    pub heading: bool,
    /// Whether the sentence is a line of the answer's source list (`Sources:` and its
    /// entries, [`crate::marker::sources`]): a reference, not a claim.
    pub reference: bool,
}

/// The answer split into sentences.
#[derive(Debug, Clone)]
pub struct Sentences {
    /// The answer with everything that is not prose blanked to spaces, byte for byte, so that
    /// every offset into it is an offset into the answer.
    pub prose: String,
    pub spans: Vec<SentenceSpan>,
    /// The answer's source lists: the lines of `reference` sentences, and the entries that map
    /// marker labels to chunks.
    pub sources: SourceList,
    /// The lines that held text and were not read: code and comments.
    pub unchecked: Unchecked,
}

/// The lines of the answer that held text and were not read as prose because code or a comment
/// took them wholly (see `sentence/blocks.rs` for what is code in an answer), or on which text
/// that reads as words was blanked as markup (a comment, a footnote that reads as a sentence, a
/// link definition's title, a fence's info string); and what was read otherwise than Markdown
/// would.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Unchecked {
    /// Their numbers (1-based), ascending.
    pub lines: Vec<usize>,
    /// A fence or an HTML comment that never closes, whose text was read as prose.
    pub warnings: Vec<String>,
}

impl Unchecked {
    /// The most line ranges a warning names.
    const NAMED: usize = 6;

    /// The warning that names the lines not checked (`lines 3-5 and 9 hold code, comments or
    /// hidden text: not checked`), when there are any.
    pub fn warning(&self) -> Option<String> {
        let mut ranges: Vec<(usize, usize)> = Vec::new();
        for &line in &self.lines {
            match ranges.last_mut() {
                Some((_, end)) if *end + 1 == line => *end = line,
                _ => ranges.push((line, line)),
            }
        }
        let named: Vec<String> = ranges
            .iter()
            .take(Self::NAMED)
            .map(|&(a, b)| {
                if a == b {
                    a.to_string()
                } else {
                    format!("{a}-{b}")
                }
            })
            .collect();
        let more = ranges.len().saturating_sub(Self::NAMED);
        let list = match (named.as_slice(), more) {
            ([], _) => return None,
            ([one], 0) => one.clone(),
            (_, 0) => {
                let (last, rest) = named.split_last()?;
                format!("{} and {last}", rest.join(", "))
            }
            (_, more) => format!("{} and {more} more", named.join(", ")),
        };
        let n = self.lines.len();
        Some(format!(
            "{n} {} of the answer ({} {list}) {} code, comments or hidden text: not checked",
            if n == 1 { "line" } else { "lines" },
            if n == 1 { "line" } else { "lines" },
            if n == 1 { "holds" } else { "hold" },
        ))
    }
}

/// Abbreviations after which a full stop does not end a sentence (lower-cased, without the
/// final full stop). Dotted forms such as `U.S.` and `e.g.` and single capital initials are
/// recognised by their shape.
const ABBREVIATIONS: &[&str] = &[
    "e.g", "i.e", "etc", "vs", "cf", "al", "approx", "ca", "dr", "mr", "mrs", "ms", "prof", "sr",
    "jr", "st", "mt", "inc", "ltd", "co", "corp", "nos", "fig", "figs", "eq", "vol", "pp", "ch",
    "sec", "ed", "eds", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct",
    "nov", "dec", "gen", "col", "lt", "sgt", "capt", "gov", "sen", "rep", "rev", "hon", "ave",
    "rd", "blvd", "est", "dept", "viz", "resp", "incl", "excl", "univ", "assn", "bros", "ft",
    "approx",
];

/// Longest token (letters, digits and dots before a full stop) read as a possible abbreviation.
const MAX_ABBREVIATION_CHARS: usize = 16;

/// Characters that may close a sentence after its terminator (`"Done." Next`).
const CLOSERS: &[char] = &[
    '"', '\'', '”', '’', ')', ']', '»', '*', '_', '`', '」', '』', '）',
];

/// Splits an English answer (see [`split_in`]).
pub fn split(answer: &str, resolver: &Resolver) -> Sentences {
    split_in(answer, resolver, &Conventions::ENGLISH)
}

/// Splits an answer into sentences, its full stops read by `conventions` (the abbreviations and
/// ordinals of its language) beside the English abbreviations.
pub fn split_in(answer: &str, resolver: &Resolver, conventions: &Conventions) -> Sentences {
    let (prose, headings, hidden) = neutralise_markdown(answer);
    let unchecked = unchecked(answer, &prose, hidden);
    let sources = sources::read(answer);
    let mut spans = Vec::new();
    let mut cursor = Cursor::new(answer);
    let mut line_start = 0;
    for line in prose.split_inclusive('\n') {
        let line_end = line_start + line.trim_end_matches(['\n', '\r']).len();
        let heading = headings.binary_search(&line_start).is_ok();
        let reference = sources.holds_line(line_start);
        for range in split_line(&prose, line_start..line_end, resolver, conventions) {
            if let Some(range) = trim(&prose, range)
                && prose[range.clone()].chars().any(char::is_alphanumeric)
            {
                let start = cursor.advance_to(range.start);
                let end = cursor.advance_to(range.end);
                spans.push(SentenceSpan {
                    span: range,
                    start,
                    end,
                    heading,
                    reference,
                });
            }
        }
        line_start += line.len();
    }
    Sentences {
        prose,
        spans,
        sources,
        unchecked,
    }
}

/// The lines that held text in `answer`, hold none in `prose`, and that code or a comment took;
/// and the lines on which blanked text reads as words (`hidden.text`), whatever is left on them.
fn unchecked(answer: &str, prose: &str, hidden: blocks::Hidden) -> Unchecked {
    let mut candidates = hidden.code_lines;
    if candidates.is_empty() && hidden.comments.is_empty() && hidden.text.is_empty() {
        return Unchecked {
            lines: Vec::new(),
            warnings: hidden.warnings,
        };
    }
    let starts: Vec<usize> = std::iter::once(0)
        .chain(answer.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let line_of = |at: usize| starts.partition_point(|&s| s <= at) - 1;
    let lines_of = |span: &Range<usize>| line_of(span.start)..=line_of(span.end.saturating_sub(1));
    for comment in &hidden.comments {
        candidates.extend(lines_of(comment));
    }
    let mut text_lines: Vec<usize> = hidden.text.iter().flat_map(lines_of).collect();
    text_lines.sort_unstable();
    text_lines.dedup();
    candidates.extend(&text_lines);
    candidates.sort_unstable();
    candidates.dedup();
    let answer_lines: Vec<&str> = answer.split('\n').collect();
    let prose_lines: Vec<&str> = prose.split('\n').collect();
    let lines = candidates
        .into_iter()
        .filter(|&k| {
            let held = answer_lines.get(k).is_some_and(|l| !l.trim().is_empty());
            let left = prose_lines.get(k).is_some_and(|l| !l.trim().is_empty());
            held && (!left || text_lines.binary_search(&k).is_ok())
        })
        .map(|k| k + 1)
        .collect();
    Unchecked {
        lines,
        warnings: hidden.warnings,
    }
}

fn trim(text: &str, range: Range<usize>) -> Option<Range<usize>> {
    let slice = &text[range.clone()];
    let start = range.start + (slice.len() - slice.trim_start().len());
    let end = range.start + slice.trim_end().len();
    (start < end).then_some(start..end)
}

/// Splits one line of prose at sentence terminators.
fn split_line(
    prose: &str,
    line: Range<usize>,
    resolver: &Resolver,
    conventions: &Conventions,
) -> Vec<Range<usize>> {
    let text = &prose[..line.end];
    let mut pieces = Vec::new();
    let mut start = line.start;
    let mut i = line.start;
    while i < line.end {
        let c = text[i..].chars().next().unwrap_or(' ');
        // The full-width full stop `．` (Japanese technical writing) ends one too, unless it
        // is a decimal point between digits (`３．５`).
        let full_width = matches!(c, '。' | '！' | '？')
            || (c == '．' && !between_digits(text, i, i + c.len_utf8()));
        if !full_width && !matches!(c, '.' | '!' | '?') {
            i += c.len_utf8();
            continue;
        }
        let run_end = i + text[i..]
            .find(|d: char| !matches!(d, '.' | '!' | '?' | '。' | '！' | '？' | '．'))
            .unwrap_or(line.end - i);
        if &text[i..run_end] == "." && !ends_sentence_at_full_stop(text, line.start, i, conventions)
        {
            i = run_end;
            continue;
        }
        let closed =
            run_end + text[run_end..].len() - text[run_end..].trim_start_matches(CLOSERS).len();
        let marked = trailing_markers(text, closed, resolver);
        let followed_by_space =
            |at: usize| at >= line.end || text[at..].starts_with(char::is_whitespace);
        let end = if full_width || followed_by_space(marked) {
            marked
        } else if followed_by_space(closed) {
            closed
        } else {
            i = run_end;
            continue;
        };
        pieces.push(start..end);
        start = end;
        i = end;
    }
    if start < line.end {
        pieces.push(start..line.end);
    }
    pieces
}

/// Whether the character between `at` and `end` stands between two digits (ASCII or
/// full-width).
fn between_digits(text: &str, at: usize, end: usize) -> bool {
    let digit = |c: char| c.is_ascii_digit() || ('０'..='９').contains(&c);
    text[..at].chars().next_back().is_some_and(digit)
        && text[end..].chars().next().is_some_and(digit)
}

/// The end of the markers that follow a terminator (`here. [1][2]`), or `from` if none do.
fn trailing_markers(text: &str, from: usize, resolver: &Resolver) -> usize {
    let mut end = from;
    loop {
        let spaces = text[end..].len()
            - text[end..]
                .trim_start_matches([' ', '\t', '\u{00A0}'])
                .len();
        match marker_at(text, end + spaces, resolver) {
            Some(marker) => end = marker.span.end,
            None => return end,
        }
    }
}

/// Whether the full stop at byte `dot` ends a sentence: not after an abbreviation or a single
/// capital initial. `etc.` ends one when a capitalised word follows.
fn ends_sentence_at_full_stop(
    text: &str,
    line_start: usize,
    dot: usize,
    conventions: &Conventions,
) -> bool {
    let before = &text[line_start..dot];
    // Abbreviations are short: looking back further than this would make a long dotted run
    // (`ab.ab.ab.…`) quadratic, and a token that long is no abbreviation.
    let mut token_chars = 0;
    let token_start = before
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_alphanumeric() || *c == '.')
        .inspect(|_| token_chars += 1)
        .take(MAX_ABBREVIATION_CHARS + 1)
        .last()
        .map_or(before.len(), |(k, _)| k);
    if token_chars > MAX_ABBREVIATION_CHARS {
        return true;
    }
    let token = before[token_start..].trim_start_matches('.');
    if token.is_empty() {
        return true;
    }
    let mut chars = token.chars();
    if let (Some(first), None) = (chars.next(), chars.next())
        && first.is_uppercase()
        && first != 'I'
    {
        return false; // an initial: J. R. R. Tolkien (but "So did I." ends a sentence)
    }
    let lower = token.to_lowercase();
    let next = text[dot + 1..].trim_start().chars().next();
    if lower == "no" {
        // `No. 5` and `no. 12` abbreviate "number"; "The answer is no." ends a sentence.
        return !next.is_some_and(|c| c.is_ascii_digit());
    }
    if lower == "etc" {
        return next.is_some_and(char::is_uppercase);
    }
    if ABBREVIATIONS.contains(&lower.as_str()) {
        return false;
    }
    if conventions.ends_no_sentence(&before[..token_start], token, &lower, &text[dot + 1..]) {
        return false;
    }
    // Dotted abbreviations: U.S., e.g., a.m., Ph.D.
    let dotted = token.contains('.')
        && token.split('.').all(|part| {
            (1..=2).contains(&part.chars().count()) && part.chars().all(char::is_alphabetic)
        });
    !dotted
}

/// Walks forward through the answer turning byte offsets into line:column, in one pass.
struct Cursor<'a> {
    text: &'a str,
    offset: usize,
    at: LineColumn,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Self {
        Cursor {
            text,
            offset: 0,
            at: LineColumn { line: 1, column: 1 },
        }
    }

    fn advance_to(&mut self, offset: usize) -> LineColumn {
        for c in self.text[self.offset..offset].chars() {
            if c == '\n' {
                self.at.line += 1;
                self.at.column = 1;
            } else {
                self.at.column += 1;
            }
        }
        self.offset = offset;
        self.at
    }
}

static HTML_TAG: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>\n]*)?/?>").unwrap());
static LINK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(!?\[)([^\[\]\n]*)(\]\([^()\s]*(?:\([^()\s]*\)[^()\s]*)*(?:\s+"[^"\n]*")?\))"#)
        .unwrap()
});
static URL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"(?:https?|ftp)://[^\s<>\[\]()"]+"#).unwrap());
/// Blanks byte ranges to spaces, keeping line breaks, so offsets stay valid.
struct Blanker {
    bytes: Vec<u8>,
}

impl Blanker {
    fn blank(&mut self, range: Range<usize>) {
        for b in &mut self.bytes[range] {
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
    }
}

/// The answer with code blocks, HTML comments and tags, footnote and link definitions, line
/// prefixes (headings, bullets, blockquotes, checkboxes), link targets and bare URLs blanked;
/// and the byte offsets at which heading lines start, ascending.
fn neutralise_markdown(answer: &str) -> (String, Vec<usize>, blocks::Hidden) {
    let mut out = Blanker {
        bytes: answer.as_bytes().to_vec(),
    };
    let mut hidden = blocks::Hidden::default();
    blocks::blank_comments(answer, &mut out, &mut hidden);
    let headings = blocks::blank_blocks(answer, &mut out, &mut hidden);
    let partial = String::from_utf8(out.bytes.clone()).unwrap_or_default();
    // Each regex is compiled on first use only, and is not used (nor compiled) when the text
    // lacks what every match needs: compiling them costs more than checking a short answer.
    // Parenthesised links to web addresses (`([site](https://…))`) are citation markers: they
    // stay as written, for the marker stage to read their addresses.
    let groups: Vec<Range<usize>> = if partial.contains("](") {
        partial
            .match_indices('(')
            .filter_map(|(i, _)| link_group(&partial[i..]).map(|len| i..i + len))
            .collect()
    } else {
        Vec::new()
    };
    let in_group = |range: Range<usize>| {
        let after = groups.partition_point(|g| g.start <= range.start);
        after > 0 && range.end <= groups[after - 1].end
    };
    let links = partial.contains("](").then(|| LINK.captures_iter(&partial));
    for caps in links.into_iter().flatten() {
        let (open, label, target) = (caps.get(1), caps.get(2), caps.get(3));
        if let (Some(open), Some(label), Some(target)) = (open, label, target) {
            if in_group(open.start()..target.end()) {
                continue;
            }
            out.blank(open.range());
            out.blank(target.range());
            // A link whose text is a bare number is a citation link, not a number of the claim.
            if label
                .as_str()
                .trim()
                .trim_start_matches('^')
                .bytes()
                .all(|b| b.is_ascii_digit())
            {
                out.blank(label.range());
            }
        }
    }
    let tags = partial.contains('<').then(|| HTML_TAG.find_iter(&partial));
    for m in tags.into_iter().flatten() {
        match bracketed_text(m.as_str()) {
            // Text in angle brackets is prose: only its `<name` and `>` are blanked.
            Some(name) => {
                out.blank(m.start()..m.start() + name);
                out.blank(m.end() - 1..m.end());
            }
            None => out.blank(m.range()),
        }
    }
    if partial.contains("<sup") || partial.contains("<SUP") {
        superscript_tags(&partial, &mut out);
    }
    let urls = partial.contains("://").then(|| URL.find_iter(&partial));
    for m in urls.into_iter().flatten() {
        let url = m
            .as_str()
            .trim_end_matches(['.', ',', ';', ':', '!', '?', '\'']);
        if in_group(m.start()..m.start() + url.len()) {
            continue;
        }
        out.blank(m.start()..m.start() + url.len());
    }
    // Only whole characters were blanked, so the bytes are still UTF-8.
    (
        String::from_utf8(out.bytes).unwrap_or_default(),
        headings,
        hidden,
    )
}

/// Attributes written without a value in HTML (`<video controls muted>`): a bare word that is
/// one of them is markup.
const BOOLEAN_ATTRIBUTES: &[&str] = &[
    "allowfullscreen",
    "async",
    "autofocus",
    "autoplay",
    "checked",
    "controls",
    "default",
    "defer",
    "disabled",
    "download",
    "hidden",
    "inert",
    "ismap",
    "itemscope",
    "loop",
    "multiple",
    "muted",
    "nomodule",
    "novalidate",
    "open",
    "playsinline",
    "readonly",
    "required",
    "reversed",
    "selected",
];

/// Bare words (neither `name=value` nor a boolean attribute) that make a tag text.
const BRACKETED_WORDS: usize = 3;

/// When what reads as an HTML tag is text in angle brackets (`<b It was painted gold in
/// 1950.>`, three bare words or more that are neither `name=value` attributes nor boolean
/// attributes), the length of its `</name` (what is blanked before the text); `None` for a
/// tag (`<br>`, `<a href="…">`, `<video controls muted>`).
fn bracketed_text(tag: &str) -> Option<usize> {
    let name = 1 + usize::from(tag.starts_with("</"));
    let name = name
        + tag[name..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .unwrap_or(tag.len() - name);
    let rest = tag[name..].trim_end_matches('>').trim_end_matches('/');
    let bytes = rest.as_bytes();
    let mut bare = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && !bytes[i].is_ascii_whitespace() && bytes[i] != b'=' {
            i += 1;
        }
        let word = &rest[start..i];
        let mut j = i;
        while j < bytes.len() && bytes[j].is_ascii_whitespace() {
            j += 1;
        }
        if j < bytes.len() && bytes[j] == b'=' {
            // A value: quoted (to its closing quote) or bare (to the next space).
            j += 1;
            while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                j += 1;
            }
            match bytes.get(j) {
                Some(&quote @ (b'"' | b'\'')) => {
                    j += 1;
                    while j < bytes.len() && bytes[j] != quote {
                        j += 1;
                    }
                    j += 1;
                }
                _ => {
                    while j < bytes.len() && !bytes[j].is_ascii_whitespace() {
                        j += 1;
                    }
                }
            }
            i = j;
        } else if !BOOLEAN_ATTRIBUTES
            .iter()
            .any(|a| a.eq_ignore_ascii_case(word))
        {
            bare += 1;
        }
    }
    (bare >= BRACKETED_WORDS).then_some(name)
}

/// How far a `<sup>` element may reach for its `</sup>`, in bytes.
const MAX_SUP_LEN: usize = 256;

/// Rewrites each `<sup>` element that holds citation labels (`<sup>1</sup>`, `<sup>1,2</sup>`,
/// `<sup>[1]</sup>`, `<sup><a href="#fn1">1</a></sup>`) as one bracket marker spanning the
/// element (`[1,2       ]`), its tags already blanked; a bare number where an exponent stands
/// (`km<sup>2</sup>`, `10<sup>6</sup>`, [`superscript::exponent_base`]) stays text.
fn superscript_tags(text: &str, out: &mut Blanker) {
    let at = |i: usize, tag: &str| {
        text.get(i..i + tag.len())
            .is_some_and(|t| t.eq_ignore_ascii_case(tag))
    };
    // Every `</sup>`, found once: each `<sup>` takes the first after it, so the work is linear
    // in the text however many elements are left open.
    let closes: Vec<usize> = text
        .match_indices('<')
        .map(|(i, _)| i)
        .filter(|&i| at(i, "</sup>"))
        .collect();
    let mut next_close = 0;
    let mut from = 0;
    for (start, _) in text.match_indices('<') {
        if start < from || !(at(start, "<sup>") || at(start, "<sup ")) {
            continue;
        }
        while next_close < closes.len() && closes[next_close] < start {
            next_close += 1;
        }
        let Some(&close) = closes.get(next_close) else {
            break;
        };
        if close - start > MAX_SUP_LEN {
            continue;
        }
        let end = close + "</sup>".len();
        let inner = &text[start..close];
        if inner.contains('\n') {
            continue;
        }
        let Some(content_start) = inner.find('>') else {
            continue;
        };
        // The content with its tags (blanked already) left out.
        let content = &out.bytes[start + content_start + 1..close];
        let content = String::from_utf8_lossy(content);
        let bracketed = content.contains('[');
        let Some(labels) = sup_labels(&content) else {
            continue;
        };
        if !bracketed && superscript::exponent_base(&text[..start]) {
            continue;
        }
        out.blank(start..end);
        out.bytes[start] = b'[';
        out.bytes[start + 1..start + 1 + labels.len()].copy_from_slice(labels.as_bytes());
        out.bytes[end - 1] = b']';
        from = end;
    }
}

/// The labels a `<sup>` element's content names, as one comma-separated list (`1`, `1,2`,
/// `1-3`), when it is numbers (`1, 2`, `1–3`) or bracket markers (`[1]`, `[1][2]`, `[^1]`);
/// `None` for anything else.
fn sup_labels(content: &str) -> Option<String> {
    let joined = content.replace("][", ",").replace('–', "-");
    let canonical: String = joined
        .chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '[' | ']' | '^'))
        .collect();
    let valid = !canonical.is_empty()
        && canonical.len() <= 64
        && canonical.split([',', ';']).all(|item| {
            let mut ends = item.split('-');
            let ok = |s: Option<&str>| {
                s.is_some_and(|s| {
                    (1..=4).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit())
                })
            };
            ok(ends.next()) && ends.next().is_none_or(|b| ok(Some(b))) && ends.next().is_none()
        });
    valid.then(|| canonical.replace(';', ","))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sentences(answer: &str) -> Vec<&str> {
        sentences_with(answer, &[])
    }

    fn sentences_with<'a>(answer: &'a str, ids: &[&str]) -> Vec<&'a str> {
        let resolver = Resolver::new(ids.iter().copied());
        split(answer, &resolver)
            .spans
            .into_iter()
            .map(|s| &answer[s.span])
            .collect()
    }

    fn sentences_in<'a>(code: &str, answer: &'a str) -> Vec<&'a str> {
        let resolver = Resolver::new(std::iter::empty());
        split_in(answer, &resolver, &Conventions::for_code(code))
            .spans
            .into_iter()
            .map(|s| &answer[s.span])
            .collect()
    }

    #[test]
    fn ordinal_dates_and_numbers_end_no_sentence_where_ordinals_take_a_full_stop() {
        assert_eq!(
            sentences_in(
                "de",
                "Der Vertrag wurde am 15. Februar 2024 unterzeichnet. Er gilt."
            ),
            [
                "Der Vertrag wurde am 15. Februar 2024 unterzeichnet.",
                "Er gilt."
            ]
        );
        assert_eq!(
            sentences_in(
                "de",
                "Am 3. Oktober ist Feiertag. Im 19. Jahrhundert wuchs die Stadt."
            ),
            [
                "Am 3. Oktober ist Feiertag.",
                "Im 19. Jahrhundert wuchs die Stadt."
            ]
        );
        assert_eq!(
            sentences_in(
                "fi",
                "Laki tuli voimaan 15. helmikuuta 2024. Se koskee kaikkia."
            ),
            [
                "Laki tuli voimaan 15. helmikuuta 2024.",
                "Se koskee kaikkia."
            ]
        );
        assert_eq!(
            sentences_in("da", "Loven trådte i kraft den 1. januar. Den gælder alle."),
            ["Loven trådte i kraft den 1. januar.", "Den gælder alle."]
        );
        // A number that ends a sentence still ends it.
        assert_eq!(
            sentences_in("de", "Die Zahl der Teilnehmer war 15. Danach kamen mehr."),
            ["Die Zahl der Teilnehmer war 15.", "Danach kamen mehr."]
        );
        // English is not read so.
        assert_eq!(
            sentences("The score was 15. February was cold."),
            ["The score was 15.", "February was cold."]
        );
    }

    #[test]
    fn each_language_keeps_its_abbreviations() {
        let cases = [
            (
                "de",
                "Es gibt z. B. Äpfel, Birnen usw. in der Kiste. Das ist gut.",
            ),
            (
                "de",
                "Das sind ca. 20 Stück bzw. mehr, d. h. genug. Das ist gut.",
            ),
            (
                "de",
                "Die Nr. 5 kommt ggf. später, evtl. morgen. Das ist gut.",
            ),
            ("de", "Das gilt u. a. für Dr. Meier. Das ist gut."),
            ("de", "Das sagte Stihl der FR. Die Delegierten folgten."),
            (
                "fr",
                "Mme Dupont et M. Martin, p. ex. les voisins, sont venus. C'est bien.",
            ),
            (
                "fr",
                "Il régna vers 50 av. J.-C. dans la région. C'est bien.",
            ),
            (
                "es",
                "La Sra. García y el Sr. López, p. ej. los vecinos, llegaron. Está bien.",
            ),
            (
                "it",
                "Il dott. Rossi e la sig.ra Bianchi, ecc. sono arrivati. Va bene.",
            ),
            (
                "pt",
                "A Sra. Silva e o Dr. Costa, pág. 5, chegaram. Está bem.",
            ),
            (
                "nl",
                "Dhr. Jansen en mevr. de Vries, bijv. de buren, kwamen. Dat is goed.",
            ),
        ];
        for (code, text) in cases {
            assert_eq!(sentences_in(code, text).len(), 2, "{code}: {text}");
        }
        // In English, those words are not abbreviations.
        assert_eq!(sentences("It was so. Then it ended.").len(), 2);
    }

    #[test]
    fn full_stops_question_and_exclamation_marks_end_sentences() {
        assert_eq!(
            sentences("One is here. Two is there! Three? Four"),
            ["One is here.", "Two is there!", "Three?", "Four"]
        );
    }

    #[test]
    fn line_breaks_always_end_sentences() {
        assert_eq!(
            sentences("A first line\nthe second line\r\n\r\nA third"),
            ["A first line", "the second line", "A third"]
        );
    }

    #[test]
    fn decimals_abbreviations_and_initials_do_not_end_sentences() {
        assert_eq!(
            sentences("It is 3.5 m tall, e.g. a house. It is approx. 2 m wide."),
            ["It is 3.5 m tall, e.g. a house.", "It is approx. 2 m wide."]
        );
        assert_eq!(
            sentences("J. R. R. Tolkien wrote it. Dr. Smith agreed."),
            ["J. R. R. Tolkien wrote it.", "Dr. Smith agreed."]
        );
        assert_eq!(
            sentences("Made in the U.S. by Acme Inc. in 1990. Fig. 3 shows it."),
            ["Made in the U.S. by Acme Inc. in 1990.", "Fig. 3 shows it."]
        );
        assert_eq!(
            sentences("It is No. 5 here. The answer is no. So did I. Then."),
            [
                "It is No. 5 here.",
                "The answer is no.",
                "So did I.",
                "Then."
            ]
        );
        assert_eq!(
            sentences("Apples, pears, etc. are fruit. Bread etc. Then more."),
            ["Apples, pears, etc. are fruit.", "Bread etc.", "Then more."]
        );
    }

    #[test]
    fn links_after_the_full_stop_belong_to_the_sentence_before() {
        assert_eq!(
            sentences("It is tall. ([a.org](https://a.org/x?utm_source=openai)) It is old."),
            [
                "It is tall. ([a.org](https://a.org/x?utm_source=openai))",
                "It is old."
            ]
        );
    }

    #[test]
    fn markers_after_the_full_stop_belong_to_the_sentence_before() {
        assert_eq!(
            sentences("It is here. [1] It is there.[1][2] Done [3]."),
            ["It is here. [1]", "It is there.[1][2]", "Done [3]."]
        );
        assert_eq!(
            sentences("It is here. ^1 Next."),
            ["It is here. ^1", "Next."]
        );
    }

    #[test]
    fn superscript_markers_end_sentences_as_bracket_markers_do() {
        assert_eq!(
            sentences("It launched on a rocket.¹ It orbits the Sun.² Done."),
            ["It launched on a rocket.¹", "It orbits the Sun.²", "Done."]
        );
        assert_eq!(
            sentences("It is big.¹,² It is old.¹⁻³ Fine.¹²"),
            ["It is big.¹,²", "It is old.¹⁻³", "Fine.¹²"]
        );
        // An exponent is text, wherever it stands.
        assert_eq!(
            sentences("It covers 5 km². Then E = mc². And 10⁶ cells."),
            ["It covers 5 km².", "Then E = mc².", "And 10⁶ cells."]
        );
    }

    #[test]
    fn sup_elements_holding_labels_are_markers() {
        for (answer, first) in [
            (
                "It launched.<sup>1</sup> It orbits.<sup>2</sup>",
                "It launched.<sup>1</sup>",
            ),
            (
                "It launched.<sup>[1]</sup> It orbits.",
                "It launched.<sup>[1]</sup>",
            ),
            (
                "It launched.<sup>1,2</sup> It orbits.",
                "It launched.<sup>1,2</sup>",
            ),
            (
                "It launched.<sup><a href=\"#fn1\">1</a></sup> It orbits.",
                "It launched.<sup><a href=\"#fn1\">1</a></sup>",
            ),
        ] {
            let found = sentences(answer);
            assert_eq!(found.len(), 2, "{answer:?} gave {found:?}");
            assert_eq!(found[0], first);
        }
        let resolver = Resolver::new([]);
        let split = split("Big.<sup>1, 3</sup> Area 5 km<sup>2</sup>.", &resolver);
        let labels: Vec<Vec<String>> = crate::marker::markers(&split.prose, &resolver)
            .into_iter()
            .map(|m| m.labels)
            .collect();
        assert_eq!(labels, [["1", "3"]], "the exponent stays text");
    }

    #[test]
    fn a_source_list_is_marked_reference_and_a_list_of_claims_is_not() {
        let resolver = Resolver::new([]);
        let answer = "Key facts:\n1. The tower is 330 m tall.\n2. It opened in 1889. [1]\n\nSources:\n[1] NASA, Webb mission overview\n- [2] reef_location.pdf\n";
        let split = split(answer, &resolver);
        let marked: Vec<(&str, bool)> = split
            .spans
            .iter()
            .map(|s| (&answer[s.span.clone()], s.reference))
            .collect();
        assert_eq!(
            marked,
            [
                ("Key facts:", false),
                ("The tower is 330 m tall.", false),
                ("It opened in 1889. [1]", false),
                ("Sources:", true),
                ("[1] NASA, Webb mission overview", true),
                ("[2] reef_location.pdf", true),
            ]
        );
        assert_eq!(split.sources.entries.len(), 2);
    }

    #[test]
    fn closing_quotes_and_brackets_stay_with_their_sentence() {
        assert_eq!(
            sentences("He said \"yes.\" Then left. (It rained.) Fine"),
            ["He said \"yes.\"", "Then left.", "(It rained.)", "Fine"]
        );
    }

    #[test]
    fn full_width_punctuation_ends_sentences_without_space() {
        assert_eq!(
            sentences("東京は首都です。人口は多い！本当？はい"),
            ["東京は首都です。", "人口は多い！", "本当？", "はい"]
        );
        assert_eq!(
            sentences("首都です。[1]次です。"),
            ["首都です。[1]", "次です。"]
        );
        assert_eq!(
            sentences("首都です[1]。次です[2]。"),
            ["首都です[1]。", "次です[2]。"]
        );
        assert_eq!(
            sentences("首都です．人口は３．５万人です．"),
            ["首都です．", "人口は３．５万人です．"]
        );
    }

    fn split_plain(answer: &str) -> Sentences {
        split(answer, &Resolver::new(std::iter::empty()))
    }

    #[test]
    fn html_comments_that_close_are_blanked_and_an_unclosed_one_only_opens() {
        let text = "A <!-- b --> c.\n<!---> d <!-- e\nThe text after it is read.";
        let split = split_plain(text);
        let found: Vec<&str> = split.spans.iter().map(|s| &text[s.span.clone()]).collect();
        assert_eq!(
            found,
            [
                "A <!-- b --> c.",
                "-> d <!-- e",
                "The text after it is read."
            ]
        );
        assert_eq!(split.unchecked.lines, Vec::<usize>::new());
        assert_eq!(
            split.unchecked.warnings,
            ["the HTML comment opened at line 2 never closes: the text after it is checked"]
        );
        let text = "é<!--é-->é.\n<!-- a comment\nover lines -->\nLast.";
        let split = split_plain(text);
        assert_eq!(split.unchecked.lines, [2, 3]);
        assert!(split.unchecked.warnings.is_empty());
        assert_eq!(split.spans.len(), 2);
    }

    #[test]
    fn code_blocks_comments_and_definitions_are_not_sentences() {
        let answer = "Intro text.\n\n```python\nx = 1. y = 2.\n```\n\n    let code = here();\n\n<!-- a comment. -->\n[^1]: A footnote definition.\n    its continuation.\n[1]: https://example.com \"Title\"\nOutro text.";
        assert_eq!(sentences(answer), ["Intro text.", "Outro text."]);
        let unchecked = split_plain(answer).unchecked;
        // The footnote reads as a sentence: its lines are not checked either.
        assert_eq!(unchecked.lines, [3, 4, 5, 7, 9, 10, 11]);
        assert_eq!(
            unchecked.warning().as_deref(),
            Some(
                "7 lines of the answer (lines 3-5, 7 and 9-11) hold code, comments or hidden \
                 text: not checked"
            )
        );
    }

    #[test]
    fn text_hidden_in_markup_is_not_checked_and_the_warning_says_so() {
        for (answer, lines) in [
            // A comment of three words or more after a sentence, on its line.
            (
                "The tower is 330 metres tall [1]. <!-- Around 7 million people visit it. -->",
                vec![1],
            ),
            // A link definition's title that reads as a sentence.
            (
                "Intro [1].\n[t]: http://x \"The tower is 500 metres tall.\"",
                vec![2],
            ),
            ("[t]: <http://x> (it was painted gold in 1950)", vec![1]),
            // The info string of a fence that never closes.
            (
                "```Around 7 million people visit it every year.\nThe tower is 330 m tall [1].",
                vec![1],
            ),
            // A footnote that reads as sentences, its continuation lines and paragraphs.
            (
                "[^1]: Around 7 million people visit it every year.\n    It was painted gold in \
                 1950.\n\n    The tower was moved to London in 1999.\nEnd [1].",
                vec![1, 2, 4],
            ),
            (
                "[^note]: Around 7 million\n    people visit it every year.",
                vec![1, 2],
            ),
        ] {
            let split = split_plain(answer);
            assert_eq!(split.unchecked.lines, lines, "{answer:?}");
            assert!(split.unchecked.warning().is_some(), "{answer:?}");
        }
    }

    #[test]
    fn markup_and_references_are_not_hidden_text() {
        for answer in [
            "The tower is tall.<br> It is old.<sup>1</sup> See <a href=\"https://x.org\">x</a>.",
            "<video controls muted autoplay loop src=\"a.mp4\"></video> The tower is tall [1].",
            "The tower is tall [1]. <!-- prettier-ignore --> <!-- markdownlint-disable MD013 -->",
            "```python\nThe tower is tall [1].",
            "```js title=\"app.js\" showLineNumbers\nThe tower is tall [1].",
            "The tower is tall [1].\n[1]: https://example.com \"Example\"",
            "The tower is tall [1].\n[1]: https://en.wikipedia.org/wiki/Eiffel_Tower \"Eiffel Tower - Wikipedia\"",
            "The tower is tall [^1].\n\n[^1]: https://example.com/eiffel",
            "The tower is tall [^1].\n\n[^1]: Eiffel Tower, Paris Tourist Office, 2020",
            "The tower is tall [^1].\n\n[^1]: Smith, J. (2020). The Eiffel Tower. Paris Press.",
            "The tower is tall [^1].\n\n[^1]: [Eiffel Tower - Wikipedia](https://en.wikipedia.org/wiki/Eiffel_Tower)\n    Accessed 3 May 2024.",
            "The tower is tall [^1].\n\n[^1]: NASA, Webb mission overview",
        ] {
            let split = split_plain(answer);
            assert_eq!(split.unchecked.lines, Vec::<usize>::new(), "{answer:?}");
        }
    }

    #[test]
    fn text_in_angle_brackets_is_checked_as_prose() {
        assert_eq!(
            sentences(
                "The tower is 330 metres tall [1]. <b It was painted gold in 1950 and moved to London.>"
            ),
            [
                "The tower is 330 metres tall [1].",
                "It was painted gold in 1950 and moved to London."
            ]
        );
        assert_eq!(
            sentences("</span It is 500 metres tall.>"),
            ["It is 500 metres tall."]
        );
        // Tags stay markup: attributes with values, boolean attributes, two bare words.
        assert_eq!(
            sentences(
                "It is <a href=\"x\" title=\"a b c d\">tall</a>. <input disabled checked required> <x y z>Done."
            ),
            ["It is <a href=\"x\" title=\"a b c d\">tall</a>.", "Done."]
        );
    }

    #[test]
    fn an_answer_cannot_hide_its_text_in_a_fence_or_a_comment_it_never_closes() {
        let answer = "```\nThe tower is 330 metres tall [1].\nIt opened in 1889 [2].";
        assert_eq!(
            sentences(answer),
            [
                "The tower is 330 metres tall [1].",
                "It opened in 1889 [2]."
            ]
        );
        let split = split_plain(answer);
        assert_eq!(split.unchecked.lines, Vec::<usize>::new());
        assert_eq!(
            split.unchecked.warnings,
            [
                "the code fence opened at line 1 never closes: the lines after it are checked as text"
            ]
        );
        // A fence closes with its own character, as long or longer; a shorter one does not.
        let answer = "````\ncode\n```\nStill code.\n````\nProse [1].";
        assert_eq!(sentences(answer), ["Prose [1]."]);
        assert_eq!(split_plain(answer).unchecked.lines, [1, 2, 3, 4, 5]);
        let answer = "Intro.\n~~~~\nThe text [1].\n~~~\nMore text [2].";
        assert_eq!(
            sentences(answer),
            ["Intro.", "The text [1].", "More text [2]."]
        );
        let answer = "<!--\nThe tower is 330 metres tall [1].";
        assert_eq!(sentences(answer), ["The tower is 330 metres tall [1]."]);
    }

    #[test]
    fn indented_text_is_prose_unless_it_is_code_in_a_markdown_answer() {
        // Every line indented: a plain-text answer, read whole.
        let answer =
            "    The tower is 330 metres tall [1].\n    x = 1;\n\n\tIt opened in 1889 [2].";
        assert_eq!(
            sentences(answer),
            [
                "The tower is 330 metres tall [1].",
                "x = 1;",
                "It opened in 1889 [2]."
            ]
        );
        // In Markdown, an indented block of prose is prose, one of code is code.
        let answer = "Intro.\n\n    The tower is 330 metres tall [1].\n\nThen:\n\n    let x = 1;\n    run(x);\n\nEnd.";
        assert_eq!(
            sentences(answer),
            [
                "Intro.",
                "The tower is 330 metres tall [1].",
                "Then:",
                "End."
            ]
        );
        assert_eq!(split_plain(answer).unchecked.lines, [7, 8]);
        // A block is judged whole, across its blank lines.
        let answer = "Intro.\n\n    let x = 1;\n\n    The value is then printed.\n\nEnd.";
        assert_eq!(sentences(answer), ["Intro.", "End."]);
    }

    #[test]
    fn list_items_headings_and_quotes_lose_their_prefixes() {
        let answer = "# Title\n- first item\n2. second item\n> quoted line\n- [ ] a task\n    continued item text";
        assert_eq!(
            sentences(answer),
            [
                "Title",
                "first item",
                "second item",
                "quoted line",
                "a task",
                "continued item text"
            ]
        );
    }

    #[test]
    fn headings_are_marked() {
        let resolver = Resolver::new([]);
        let spans = split("# Honey bees and their hives\nBees make honey.", &resolver).spans;
        let headings: Vec<bool> = spans.iter().map(|s| s.heading).collect();
        assert_eq!(headings, [true, false]);
    }

    #[test]
    fn separators_and_table_rules_are_skipped() {
        assert_eq!(sentences("| a | b |\n|---|---|\n---\n***"), ["| a | b |"]);
    }

    #[test]
    fn link_targets_and_urls_are_not_prose() {
        let answer = "See [the docs](https://x.org/a.b). Then https://y.org/c. Done.";
        let resolver = Resolver::new([]);
        let split = split(answer, &resolver);
        assert_eq!(split.spans.len(), 3);
        assert!(!split.prose.contains("x.org"));
        assert!(!split.prose.contains("y.org"));
        assert!(split.prose.contains("the docs"));
    }

    #[test]
    fn spans_and_line_columns() {
        let answer = "Héllo wörld. Next one\n  - Third line.";
        let resolver = Resolver::new([]);
        let spans = split(answer, &resolver).spans;
        assert_eq!(spans.len(), 3);
        assert_eq!(
            spans[1].start,
            LineColumn {
                line: 1,
                column: 14
            }
        );
        assert_eq!(
            spans[1].end,
            LineColumn {
                line: 1,
                column: 22
            }
        );
        assert_eq!(spans[2].start, LineColumn { line: 2, column: 5 });
        assert_eq!(
            spans[2].end,
            LineColumn {
                line: 2,
                column: 16
            }
        );
        assert_eq!(&answer[spans[0].span.clone()], "Héllo wörld.");
    }
}
