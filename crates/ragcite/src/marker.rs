//! Marker stage: finds citation markers in a sentence (`[1]`, `[1-3]`, `[doc2]`, `[^1]`, `^1`,
//! `¹`, `【4†source】`, `(source: x)`, ...) and resolves their labels to chunks; the answer's
//! own source list (`Sources:` and its entries, footnote definitions) read as the map from its
//! labels to the chunks (sources.rs).

pub mod cite;
mod links;
pub mod sources;
pub(crate) mod superscript;
pub mod url;

use rustc_hash::FxHashMap;
use std::ops::Range;
use std::sync::Arc;

use crate::pattern::MAX_MARKER_LEN;
pub use crate::pattern::MarkerPattern;
pub(crate) use links::link_group;

/// A citation marker in the text and the labels it names, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marker {
    /// Byte span of the whole marker, brackets included.
    pub span: Range<usize>,
    pub labels: Vec<String>,
}

/// Words that may open a marker's label list: `[Source 1]`, `[source: 1]`, `(sources: x, y)`.
const KEYWORDS: &[&str] = &[
    "sources",
    "source",
    "src",
    "references",
    "reference",
    "refs",
    "ref",
    "citations",
    "citation",
    "cite",
    "documents",
    "document",
    "docs",
    "doc",
    "chunks",
    "chunk",
    "passages",
    "passage",
    "contexts",
    "context",
];

/// A range longer than this is not expanded (`[1939-1945]` expands, `[1-99999999]` is one label).
const MAX_RANGE: u64 = 1000;

/// Resolves marker labels to chunks (0-based positions in input order), in this order:
/// 0. the chunks the answer's own source list names for the label ([`sources::map`]);
/// 1. the chunk whose id equals the label;
/// 2. every chunk that has the label as another name (its document's file name, file id or
///    URL, shared by the chunks of that document: `(source: report.pdf)`);
/// 3. for a label that is a web address, every chunk whose id or other name is the same page
///    in another spelling (tracking parameters, fragment, scheme, `www.`, a trailing slash:
///    [`url::normalize`]);
/// 4. for a label that is a number or a word and a number (`2`, `doc2`), the one chunk whose id
///    is a word and the same number (`doc2` ↔ `2` ↔ `source_2`); ids that are digests or UUIDs
///    (`…de4`, `a186…-5791`) never take part;
/// 5. a bare number `n`: the n-th chunk, unless the chunks are numbered by their ids
///    ([`crate::Chunks::ids_are_numbers`]).
///
/// A label that matches nothing resolves to no chunk: an unknown marker.
#[derive(Debug, Clone, Default)]
pub struct Resolver {
    by_id: FxHashMap<String, usize>,
    by_alias: FxHashMap<String, Vec<usize>>,
    by_trailing_number: FxHashMap<String, Vec<usize>>,
    /// The chunks by the normal form of each id and other name that is a web address.
    by_url: FxHashMap<String, Vec<usize>>,
    /// `0..count`: what the rules that name one chunk return a slice of.
    positions: Vec<usize>,
    ids_are_numbers: bool,
    /// What the answer's source list names for a label.
    by_list: FxHashMap<String, Vec<usize>>,
    /// The user's own marker form (`--marker`), found besides the built-in ones.
    pattern: Option<Arc<MarkerPattern>>,
}

impl Resolver {
    /// A resolver for chunks with these ids and no other names.
    pub fn new<'a>(ids: impl IntoIterator<Item = &'a str>) -> Self {
        let mut resolver = Resolver::default();
        for id in ids {
            resolver.add(id, &[]);
        }
        resolver
    }

    /// A resolver for `chunks`: their ids, their other names, and how they are numbered.
    pub fn for_chunks(chunks: &crate::Chunks) -> Self {
        let mut resolver = Resolver::default();
        for chunk in &chunks.chunks {
            resolver.add(&chunk.id, &chunk.aliases);
        }
        resolver.ids_are_numbers = chunks.ids_are_numbers;
        resolver
    }

    /// The same resolver, finding the user's own marker form too (`--marker`).
    pub fn with_pattern(mut self, pattern: Option<Arc<MarkerPattern>>) -> Self {
        self.pattern = pattern;
        self
    }

    /// The same resolver, with the labels the answer's source list maps to chunks resolving to
    /// those chunks first.
    pub fn with_source_map(mut self, map: &sources::SourceMap) -> Self {
        for (label, chunks) in &map.named {
            self.by_list.insert(label.clone(), chunks.clone());
        }
        self
    }

    fn add(&mut self, id: &str, aliases: &[String]) {
        let position = self.positions.len();
        self.positions.push(position);
        self.by_id.entry(id.to_string()).or_insert(position);
        if let Some(number) = trailing_number(id) {
            self.by_trailing_number
                .entry(number)
                .or_default()
                .push(position);
        }
        for alias in aliases {
            let chunks = self.by_alias.entry(alias.clone()).or_default();
            if chunks.last() != Some(&position) {
                chunks.push(position);
            }
        }
        for name in std::iter::once(id).chain(aliases.iter().map(String::as_str)) {
            if let Some(page) = url::normalize(name) {
                let chunks = self.by_url.entry(page).or_default();
                if chunks.last() != Some(&position) {
                    chunks.push(position);
                }
            }
        }
    }

    /// The chunks whose id or other name is the page `label` names, in another spelling.
    fn same_page(&self, label: &str) -> Option<&[usize]> {
        if self.by_url.is_empty() {
            return None;
        }
        self.by_url.get(&url::normalize(label)?).map(Vec::as_slice)
    }

    /// Whether `label` is exactly a chunk's id or another name of some chunk.
    pub fn is_id(&self, label: &str) -> bool {
        self.by_id.contains_key(label)
            || self.by_alias.contains_key(label)
            || self.same_page(label).is_some()
    }

    /// The chunks `label` names, by the rules above; empty when it names none.
    pub fn resolve(&self, label: &str) -> &[usize] {
        let one = |position: usize| &self.positions[position..=position];
        if let Some(chunks) = self.by_list.get(label) {
            return chunks;
        }
        if let Some(&position) = self.by_id.get(label) {
            return one(position);
        }
        if let Some(chunks) = self.by_alias.get(label) {
            return chunks;
        }
        if let Some(chunks) = self.same_page(label) {
            return chunks;
        }
        if let Some(number) = trailing_number(label)
            && let Some([only]) = self.by_trailing_number.get(&number).map(Vec::as_slice)
        {
            return one(*only);
        }
        if !self.ids_are_numbers && !label.is_empty() && label.bytes().all(|b| b.is_ascii_digit()) {
            let n: usize = match label.trim_start_matches('0').parse() {
                Ok(n) => n,
                Err(_) => return &[],
            };
            if (1..=self.positions.len()).contains(&n) {
                return one(n - 1);
            }
        }
        &[]
    }
}

/// The number a label or id is shaped around, without leading zeros (`doc02` → `2`): the label
/// or id is digits, or letters (words joined by `_`, `-`, `.` or a space) and then digits, with
/// at most one separator between (`doc2`, `source_3`, `doc:0`, `Source 1`). Anything else
/// (`a1b2`, a UUID, a digest) has none.
fn trailing_number(s: &str) -> Option<String> {
    let digits = s.len() - s.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || s.len() > 64 {
        return None;
    }
    let head = &s[..s.len() - digits];
    let head = head
        .strip_suffix(['_', '-', '.', ':', '#', ' '])
        .unwrap_or(head);
    let word_shaped = head
        .split(['_', '-', '.', ' '])
        .all(|word| !word.is_empty() && word.chars().all(char::is_alphabetic));
    if !head.is_empty() && !word_shaped {
        return None;
    }
    let number = s[s.len() - digits..].trim_start_matches('0');
    Some(if number.is_empty() { "0" } else { number }.to_string())
}

/// Every marker in `text`, in order. Overlapping candidates are impossible: scanning resumes
/// after each marker found.
pub fn markers(text: &str, resolver: &Resolver) -> Vec<Marker> {
    let mut found = Vec::new();
    let bytes = text.as_bytes();
    // A marker opens with `[`, `(`, `^`, `【` (whose UTF-8 starts with 0xE3) or a superscript
    // digit (0xC2 for `¹²³`, 0xE2 for the others): the text between such bytes is passed over.
    let opens = |b: &u8| {
        looked_at(1);
        matches!(b, b'[' | b'(' | b'^' | 0xC2 | 0xE2 | 0xE3)
    };
    // The user's own form is found in one pass; where one of its markers starts first, or at
    // the same place as a built-in one, it is the marker there.
    let mut own = resolver
        .pattern
        .as_ref()
        .map(|p| p.all(text))
        .unwrap_or_default()
        .into_iter()
        .peekable();
    let mut i = 0;
    // The next opener found, kept while the scan has not passed it: looking for it again after
    // each of the user's markers read the text up to its end each time.
    let mut opener: Option<Option<usize>> = None;
    loop {
        while own.peek().is_some_and(|(start, _, _)| *start < i) {
            own.next();
        }
        let next = match opener {
            Some(Some(at)) if at >= i => Some(at),
            Some(None) => None,
            _ => {
                let at = bytes
                    .get(i..)
                    .and_then(|rest| rest.iter().position(opens))
                    .map(|k| i + k);
                opener = Some(at);
                at
            }
        };
        match (next, own.peek()) {
            (next, Some(&(start, _, _))) if next.is_none_or(|b| start <= b) => {
                if let Some((start, label, len)) = own.next() {
                    found.push(Marker {
                        span: start..start + len,
                        labels: label,
                    });
                    i = start + len;
                }
            }
            (Some(at), _) => {
                i = at;
                if let Some(marker) = built_in_at(text, i, resolver) {
                    i = marker.span.end;
                    found.push(marker);
                } else {
                    i += text[i..].chars().next().map_or(1, char::len_utf8);
                }
            }
            (None, _) => break,
        }
    }
    found
}

/// The marker that starts exactly at byte `i` of `text`, if there is one.
pub fn marker_at(text: &str, i: usize, resolver: &Resolver) -> Option<Marker> {
    if let Some((label, len)) = resolver.pattern.as_ref().and_then(|p| p.at(text, i)) {
        return Some(Marker {
            span: i..i + len,
            labels: label,
        });
    }
    built_in_at(text, i, resolver)
}

/// The built-in marker that starts at byte `i`, if one does.
fn built_in_at(text: &str, i: usize, resolver: &Resolver) -> Option<Marker> {
    let rest = &text[i..];
    let (labels, len) = if rest.starts_with("[^") {
        footnote(rest)?
    } else if rest.starts_with('[') {
        bracket(text, i, resolver)?
    } else if rest.starts_with('【') {
        lenticular(rest, resolver)?
    } else if rest.starts_with('(') {
        parenthesis(rest)?
    } else if rest.starts_with('^') {
        caret(text, i)?
    } else if rest.starts_with(|c| superscript::digit(c).is_some()) {
        superscript::group(text, i)?
    } else {
        return None;
    };
    Some(Marker {
        span: i..i + len,
        labels,
    })
}

/// The text between `open` (one char at the start of `rest`) and the first `close` on the same
/// line, and the length up to and including `close`.
fn enclosed(rest: &str, open: char, close: char) -> Option<(&str, usize)> {
    let inner_start = open.len_utf8();
    let limit = rest.len().min(MAX_MARKER_LEN);
    let window = &rest[inner_start..];
    for (k, c) in window.char_indices() {
        if inner_start + k >= limit || c == '\n' || (c == open && open != close) {
            return None;
        }
        if c == close {
            return Some((&window[..k], inner_start + k + c.len_utf8()));
        }
    }
    None
}

fn footnote(rest: &str) -> Option<(Vec<String>, usize)> {
    let (inner, len) = enclosed(rest, '[', ']')?;
    let label = inner.strip_prefix('^')?;
    if label.is_empty() || label.chars().any(char::is_whitespace) {
        return None;
    }
    if rest[len..].starts_with(':') {
        return None; // a footnote definition, not a reference
    }
    Some((vec![label.to_string()], len))
}

fn bracket(text: &str, i: usize, resolver: &Resolver) -> Option<(Vec<String>, usize)> {
    let rest = &text[i..];
    let (inner, len) = enclosed(rest, '[', ']')?;
    let after = &rest[len..];
    // Only white space may stand between the line's start and the bracket: looking back
    // over white space only keeps a line of many `[1]:` linear.
    let starts_line = || {
        let mut before = text[..i].chars().rev();
        let first_other = before.find(|&c| {
            looked_at(1);
            c == '\n' || !c.is_whitespace()
        });
        matches!(first_other, None | Some('\n'))
    };
    if after.starts_with('(') || (after.starts_with(':') && starts_line()) {
        return None; // a Markdown link or a link reference definition
    }
    if text[..i].ends_with('!') {
        return None; // an image
    }
    let inner = inner.trim();
    if matches!(inner, "" | "x" | "X") {
        return None; // a task-list checkbox
    }
    let labels = label_list(inner, resolver, false)?;
    Some((labels, len))
}

/// `【4】`, `【4:0†source】`. Like a bracket, the label must contain a digit or be a chunk id:
/// CJK text also uses these brackets for headings (`【注意】`).
fn lenticular(rest: &str, resolver: &Resolver) -> Option<(Vec<String>, usize)> {
    let (inner, len) = enclosed(rest, '【', '】')?;
    let label = inner.split([':', '†']).next().unwrap_or("").trim();
    if label.is_empty() || !(label.bytes().any(|b| b.is_ascii_digit()) || resolver.is_id(label)) {
        return None;
    }
    Some((vec![label.to_string()], len))
}

fn parenthesis(rest: &str) -> Option<(Vec<String>, usize)> {
    if let Some(found) = links::links(rest) {
        return Some(found);
    }
    let (inner, len) = enclosed(rest, '(', ')')?;
    let (keyword_rest, colon) = strip_keyword(inner.trim())?;
    if colon {
        let labels: Vec<String> = keyword_rest
            .split([',', ';'])
            .map(|item| item.trim().to_string())
            .collect();
        if labels.iter().any(String::is_empty) {
            return None;
        }
        return Some((labels, len));
    }
    let labels = label_list(keyword_rest, &Resolver::default(), true)?;
    labels
        .iter()
        .all(|l| l.bytes().any(|b| b.is_ascii_digit()))
        .then_some((labels, len))
}

fn caret(text: &str, i: usize) -> Option<(Vec<String>, usize)> {
    let digits = text[i + 1..].bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 6 {
        return None;
    }
    let end = i + 1 + digits;
    let after = &text[end..];
    if after.starts_with(|c: char| c.is_alphanumeric())
        || (after.starts_with('.') && after[1..].starts_with(|c: char| c.is_ascii_digit()))
    {
        return None;
    }
    // `x^2`, `km^2` and `10^6` are powers, not markers: a caret marker stands after white
    // space or punctuation (`tall ^1`, `tall.^1`), never right after a letter, digit or bracket.
    let before = text[..i].chars().next_back();
    if before.is_some_and(|c| c.is_alphanumeric() || matches!(c, ')' | '[' | '^')) {
        return None;
    }
    Some((vec![text[i + 1..end].to_string()], 1 + digits))
}

/// Splits a keyword off the front of a marker's content: `Source 1` → (`1`, false),
/// `source: x` → (`x`, true).
fn strip_keyword(content: &str) -> Option<(&str, bool)> {
    for keyword in KEYWORDS {
        let Some(head) = content.get(..keyword.len()) else {
            continue;
        };
        if !head.eq_ignore_ascii_case(keyword) {
            continue;
        }
        let after = &content[keyword.len()..];
        let trimmed = after.trim_start();
        if let Some(list) = trimmed.strip_prefix(':') {
            let list = list.trim();
            return (!list.is_empty()).then_some((list, true));
        }
        if trimmed.len() < after.len() && !trimmed.is_empty() {
            return Some((trimmed, false));
        }
    }
    None
}

/// Reads a bracket's content as a list of labels, or `None` when it is ordinary words.
///
/// The content counts when it opens with a keyword (`Source 1`, `source: intro`), or when
/// every item is a number, a range of numbers, contains a digit, or equals a chunk id.
fn label_list(content: &str, resolver: &Resolver, after_keyword: bool) -> Option<Vec<String>> {
    // A keyword with a colon (`source: intro`) makes any label count; with a space only
    // (`Source 1`, `citation needed`) the labels must still look like labels.
    let (list, keyword) = match strip_keyword(content) {
        Some((list, colon)) if !after_keyword => (list, colon),
        _ => (content, false),
    };
    let mut labels = Vec::new();
    for item in list.split([',', ';']) {
        let item = item.trim();
        let item = strip_keyword(item).map_or(item, |(rest, _)| rest);
        if item.is_empty() {
            return None;
        }
        if let Some(range) = number_range(item) {
            labels.extend(range);
            continue;
        }
        let is_label = !item.chars().any(char::is_whitespace)
            && item
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | ':' | '#' | '/'));
        if !is_label {
            return None;
        }
        let counts = keyword || item.bytes().any(|b| b.is_ascii_digit()) || resolver.is_id(item);
        if !counts {
            return None;
        }
        labels.push(item.to_string());
    }
    Some(labels)
}

/// `1-3`, `1 – 3` → `1`, `2`, `3`; a range that runs backwards or is too long is not a range.
fn number_range(item: &str) -> Option<Vec<String>> {
    let (a, b) = item.split_once(['-', '–', '—'])?;
    let (a, b) = (a.trim(), b.trim());
    let all_digits =
        |s: &str| !s.is_empty() && s.len() <= 18 && s.bytes().all(|c| c.is_ascii_digit());
    if !all_digits(a) || !all_digits(b) {
        return None;
    }
    let (from, to): (u64, u64) = (a.parse().ok()?, b.parse().ok()?);
    if to < from || to - from >= MAX_RANGE {
        return None;
    }
    Some((from..=to).map(|n| n.to_string()).collect())
}

/// A provider's citation with the chunk it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedCitation {
    /// 1-based position among the response's citations.
    pub index: usize,
    /// The id of the chunk it names, or the source as the response gives it.
    pub label: String,
    /// The positions of the chunks it names; empty when it names none.
    pub chunks: Vec<usize>,
    /// The text it says the chunk holds.
    pub quote: Option<String>,
    /// Byte span of the answer it covers.
    pub span: Option<Range<usize>>,
}

/// Words after which a number names a source (`according to 1`, `source 2`, `contexts 1 and
/// 2`).
const SOURCE_WORDS: &[&str] = &[
    "context",
    "contexts",
    "source",
    "sources",
    "passage",
    "passages",
    "document",
    "documents",
];

/// How far back, in bytes, [`names_a_source`] reads the words before a number: enough for a
/// source word and a list of eight numbers before it.
const SOURCE_LOOK_BACK: usize = 128;

/// Longer than the longest word [`names_a_source`] reads (`documents`, `according`), in bytes.
const LONGEST_WORD: usize = 16;

/// Whether the number `number` (as written), after the text `before`, names one of the chunks:
/// it is a whole number that resolves to a chunk as a marker label would, and it follows
/// `according to` or a source word (`source 2`, `passages 1, 3 and 4`). English only words;
/// anywhere else it is a number like any other.
pub(crate) fn names_a_source(before: &str, number: &str, resolver: &Resolver) -> bool {
    if !number.bytes().all(|b| b.is_ascii_digit()) || resolver.resolve(number).is_empty() {
        return false;
    }
    let separator = |c: char| {
        looked_at(1);
        c.is_whitespace() || c == ','
    };
    // A word longer than any the rule reads, not a number, right before it: no source word
    // can be read (and `^1^1^1…` is done without reading the whole window for each number).
    if before.len() > LONGEST_WORD {
        let mut tail = before.len() - LONGEST_WORD;
        while !before.is_char_boundary(tail) {
            tail += 1;
        }
        let tail = &before[tail..];
        if !tail.contains(separator) && !tail.bytes().all(|b| b.is_ascii_digit()) {
            return false;
        }
    }
    // The words are read from the last `SOURCE_LOOK_BACK` bytes only, without the one the
    // window cuts: looking back to the text's start for every number would make a text of
    // numbers without white space (`^1^1^1…`) quadratic.
    let mut from = before.len().saturating_sub(SOURCE_LOOK_BACK);
    while !before.is_char_boundary(from) {
        from += 1;
    }
    let mut window = &before[from..];
    if from > 0 {
        window = window.find(separator).map_or("", |k| &window[k..]);
    }
    let mut words = window.rsplit(separator).filter(|w| !w.is_empty());
    // Earlier numbers of the same list: `1 and` in `contexts 1 and 2`.
    let mut word = words.next();
    for _ in 0..8 {
        match word {
            Some(w) if w == "and" || w == "&" || w.bytes().all(|b| b.is_ascii_digit()) => {
                word = words.next();
            }
            _ => break,
        }
    }
    let Some(word) = word else {
        return false;
    };
    let word = word.to_ascii_lowercase();
    SOURCE_WORDS.contains(&word.as_str())
        || (word == "to"
            && words
                .next()
                .is_some_and(|w| w.eq_ignore_ascii_case("according")))
}

work_counter!();

/// A provider's citation with the chunks it names: its label as a marker would show it, and the
/// chunks' positions (none when it names no chunk; several when it names a document whose
/// chunks share a name, as an OpenAI file citation does).
pub(crate) fn resolve_citation(
    k: usize,
    citation: &crate::input::NativeCitation,
    chunks: &[crate::input::Chunk],
    resolver: &Resolver,
) -> ResolvedCitation {
    let position_label = |i: usize| match chunks.get(i) {
        Some(chunk) => (chunk.id.clone(), vec![i]),
        None => (format!("#{i}"), Vec::new()),
    };
    let (label, chunks) = match &citation.target {
        crate::input::CitationTarget::Position(i) => position_label(*i),
        crate::input::CitationTarget::Label(label) => {
            (label.clone(), resolver.resolve(label).to_vec())
        }
        crate::input::CitationTarget::IdOrPosition { id, .. } if resolver.is_id(id) => {
            (id.clone(), resolver.resolve(id).to_vec())
        }
        crate::input::CitationTarget::IdOrPosition {
            position: Some(i), ..
        } if *i < chunks.len() => position_label(*i),
        crate::input::CitationTarget::IdOrPosition { id, .. } => (id.clone(), Vec::new()),
    };
    ResolvedCitation {
        index: k + 1,
        label,
        chunks,
        quote: citation.quote.clone(),
        span: citation.span.clone(),
    }
}

/// For each sentence, the citations whose spans overlap it, in one sweep over both lists
/// (sentences are in order; citations are sorted by start).
pub(crate) fn attach_citations<'a>(
    sentences: impl IntoIterator<Item = &'a Range<usize>>,
    citations: &[ResolvedCitation],
) -> Vec<Vec<usize>> {
    let mut by_start: Vec<(Range<usize>, usize)> = citations
        .iter()
        .enumerate()
        .filter_map(|(k, c)| {
            let span = c.span.clone()?;
            // An empty span points at one place: the sentence holding it.
            Some((span.start..span.end.max(span.start + 1), k))
        })
        .collect();
    by_start.sort_by_key(|(span, k)| (span.start, *k));
    let mut next = 0;
    let mut active: Vec<(Range<usize>, usize)> = Vec::new();
    sentences
        .into_iter()
        .map(|span| {
            while next < by_start.len() && by_start[next].0.start < span.end {
                active.push(by_start[next].clone());
                next += 1;
            }
            active.retain(|(c, _)| c.end > span.start);
            let mut attached: Vec<usize> = active
                .iter()
                .filter(|(c, _)| c.start < span.end)
                .map(|(_, k)| *k)
                .collect();
            attached.sort_unstable();
            attached
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_web_address_names_the_chunk_keyed_by_the_same_page() {
        let resolver = Resolver::new([
            "https://en.wikipedia.org/wiki/Eiffel_Tower",
            "https://example.com/a?id=1",
        ]);
        assert_eq!(
            resolver.resolve("https://en.wikipedia.org/wiki/Eiffel_Tower?utm_source=openai"),
            [0]
        );
        assert_eq!(
            resolver.resolve("http://www.en.wikipedia.org/wiki/Eiffel_Tower/#top"),
            [0]
        );
        assert_eq!(
            resolver.resolve("https://example.com/a?id=1&utm_medium=x"),
            [1]
        );
        assert!(resolver.resolve("https://example.com/a?id=2").is_empty());
    }

    use super::*;

    fn labels_in(text: &str, ids: &[&str]) -> Vec<Vec<String>> {
        let resolver = Resolver::new(ids.iter().copied());
        markers(text, &resolver)
            .into_iter()
            .map(|m| m.labels)
            .collect()
    }

    fn one(text: &str) -> Vec<String> {
        let found = labels_in(text, &[]);
        assert_eq!(found.len(), 1, "{text:?} gave {found:?}");
        found.into_iter().next().unwrap()
    }

    #[test]
    fn every_marker_form() {
        assert_eq!(one("tall [1]."), ["1"]);
        assert_eq!(one("tall [1, 3]."), ["1", "3"]);
        assert_eq!(one("tall [1,3]."), ["1", "3"]);
        assert_eq!(labels_in("tall [1][3].", &[]), [["1"], ["3"]]);
        assert_eq!(one("tall [1-3]."), ["1", "2", "3"]);
        assert_eq!(one("tall [1–3]."), ["1", "2", "3"]);
        assert_eq!(one("tall [doc2]."), ["doc2"]);
        assert_eq!(one("tall [doc2, doc5]."), ["doc2", "doc5"]);
        assert_eq!(one("tall [^1]."), ["1"]);
        assert_eq!(one("tall ^1."), ["1"]);
        assert_eq!(one("tall.^1 Next"), ["1"]);
        assert_eq!(one("tall【4】."), ["4"]);
        assert_eq!(one("tall【4:0†source】."), ["4"]);
        assert_eq!(one("tall (source: x)."), ["x"]);
        assert_eq!(one("tall (sources: x, y)."), ["x", "y"]);
        assert_eq!(one("tall [Source 1]."), ["1"]);
        assert_eq!(one("tall [source: 1]."), ["1"]);
        assert_eq!(one("tall [Sources 1, 2]."), ["1", "2"]);
        assert_eq!(one("tall (Source 2)."), ["2"]);
        assert_eq!(one("tall [Source: intro]."), ["intro"]);
    }

    #[test]
    fn marker_spans_cover_the_brackets() {
        let resolver = Resolver::new([]);
        let text = "tall [1, 3] and ^2.";
        let found = markers(text, &resolver);
        assert_eq!(&text[found[0].span.clone()], "[1, 3]");
        assert_eq!(&text[found[1].span.clone()], "^2");
    }

    #[test]
    fn things_that_are_not_markers() {
        for text in [
            "a [link](https://example.com) here",
            "an ![image](x.png) here",
            "- [ ] open task",
            "- [x] done task",
            "an [ordinary aside] here",
            "the [citation needed] here",
            "x^2 and 10^6 and (a+b)^2 and 5 km^2 and tall^1",
            "【注意】 heading",
            "see (source code) here",
            "[1]: https://example.com definition",
            "[^1]: footnote definition",
            "[source] alone",
        ] {
            assert_eq!(labels_in(text, &[]), Vec::<Vec<String>>::new(), "{text:?}");
        }
    }

    #[test]
    fn a_colon_after_a_marker_inside_a_line_keeps_it_a_marker() {
        assert_eq!(labels_in("as stated in [1]: the tower", &[]), [["1"]]);
        assert!(labels_in("[1]: the tower", &[]).is_empty());
        assert!(labels_in("  [1]: https://example.com", &[]).is_empty());
    }

    #[test]
    fn a_bracketed_word_is_a_marker_only_when_it_is_a_chunk_id() {
        assert!(labels_in("see [intro]", &[]).is_empty());
        assert_eq!(labels_in("see [intro]", &["intro"]), [["intro"]]);
        assert_eq!(labels_in("see [source: intro]", &[]), [["intro"]]);
    }

    #[test]
    fn long_or_backward_ranges_are_single_labels() {
        assert_eq!(one("[1-99999]"), ["1-99999"]);
        assert_eq!(one("[3-1]"), ["3-1"]);
        assert_eq!(one("[1939-1945]").len(), 7);
    }

    #[test]
    fn unclosed_and_multiline_brackets_are_not_markers() {
        assert!(labels_in("a [1 and more", &[]).is_empty());
        assert!(labels_in("a [1\n]", &[]).is_empty());
        let long = format!("[1{}]", " ".repeat(MAX_MARKER_LEN));
        assert!(labels_in(&long, &[]).is_empty());
    }

    #[test]
    fn finding_sources_named_in_words_looks_back_a_bounded_way() {
        // `^1^1^1…`: every `1` is a number that resolves to a chunk, with no white space
        // before it; looking back to the text's start for each made the check quadratic.
        let resolver = Resolver::new(["a"]);
        let look = |n: usize| {
            let text = "^1".repeat(n);
            looked_at_during(|| {
                for k in (1..text.len()).step_by(2) {
                    assert!(!names_a_source(&text[..k], "1", &resolver));
                }
            })
        };
        let (small, large) = (look(1_000), look(4_000));
        assert!(
            large <= 5 * small,
            "{small} then {large} characters: not linear"
        );
        // What a bounded look-back still finds.
        assert!(names_a_source("the tower, according to", "1", &resolver));
        let long = format!("{} see sources 1, 1 and", "^1".repeat(500));
        assert!(names_a_source(&long, "1", &resolver));
        assert!(!names_a_source(
            &format!("{}source", "^1".repeat(500)),
            "1",
            &resolver
        ));
    }

    #[test]
    fn a_line_of_bracket_colons_is_read_in_linear_work() {
        // Each `[1]:` asks whether the bracket starts its line: looking back to the line's
        // start for each made a line of them quadratic.
        let resolver = Resolver::new(["a"]);
        let look = |n: usize| {
            let text = format!("a {}", "[1]:".repeat(n));
            looked_at_during(|| assert_eq!(markers(&text, &resolver).len(), n))
        };
        let (small, large) = (look(1_000), look(4_000));
        assert!(
            large <= 5 * small,
            "{small} then {large} characters: not linear"
        );
        // Still a link reference definition at a line's start, after spaces or not.
        assert!(labels_in("a [1]\n \t[2]: x", &[]) == [["1"]]);
        assert!(labels_in("\u{a0}[2]: x", &[]).is_empty());
    }

    #[test]
    fn a_flood_of_custom_markers_is_read_in_linear_work() {
        // Between two of the user's markers the scan looked for the next built-in opener up
        // to the text's end: a text of custom markers only was quadratic (issue 38).
        let style = MarkerPattern::new(r"\{\{cite:(\w+)\}\}").expect("valid");
        let resolver = Resolver::new(["d1"]).with_pattern(Some(Arc::new(style)));
        let look = |n: usize| {
            let text = "{{cite:d1}}".repeat(n);
            looked_at_during(|| assert_eq!(markers(&text, &resolver).len(), n))
        };
        let (small, large) = (look(1_000), look(4_000));
        assert!(
            large <= 5 * small,
            "{small} then {large} characters: not linear"
        );
        // Built-in markers between the user's are still found, in order.
        let text = "a {{cite:d1}} b [2] c {{cite:x}} [3]";
        let labels: Vec<Vec<String>> = markers(text, &resolver)
            .into_iter()
            .map(|m| m.labels)
            .collect();
        assert_eq!(labels, [["d1"], ["2"], ["x"], ["3"]]);
    }

    #[test]
    fn resolution_exact_then_trailing_number_then_position() {
        let resolver = Resolver::new(["intro", "doc2", "source_3", "7"]);
        assert_eq!(resolver.resolve("intro"), [0]);
        assert_eq!(resolver.resolve("doc2"), [1]);
        assert_eq!(resolver.resolve("2"), [1], "trailing number");
        assert_eq!(resolver.resolve("3"), [2], "trailing number");
        assert_eq!(resolver.resolve("doc3"), [2], "trailing number");
        assert_eq!(resolver.resolve("7"), [3], "exact id beats position");
        assert_eq!(resolver.resolve("1"), [0], "n-th chunk");
        assert_eq!(resolver.resolve("4"), [3], "n-th chunk");
        assert!(resolver.resolve("5").is_empty());
        assert!(resolver.resolve("0").is_empty());
        assert!(resolver.resolve("outro").is_empty());
    }

    #[test]
    fn an_ambiguous_trailing_number_falls_back_to_position() {
        let resolver = Resolver::new(["a1", "b1", "c"]);
        assert_eq!(resolver.resolve("1"), [0]);
        assert!(resolver.resolve("x1").is_empty());
        assert_eq!(resolver.resolve("3"), [2]);
    }

    #[test]
    fn digests_and_uuids_never_capture_a_number() {
        let ids = [
            "3f2a9c0d4e5b6a7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0de4",
            "a186c7f2-1b2c-4d5e-9f00-6a7b8c9d5791",
            "7f3e9",
        ];
        let resolver = Resolver::new(ids);
        // `[4]` is the fourth chunk of three: nothing; never the digest that ends in 4.
        assert!(resolver.resolve("4").is_empty());
        assert!(resolver.resolve("5791").is_empty());
        assert!(resolver.resolve("9").is_empty());
        assert_eq!(resolver.resolve("2"), [1], "n-th chunk");
        assert_eq!(trailing_number("doc2").as_deref(), Some("2"));
        assert_eq!(trailing_number("source_03").as_deref(), Some("3"));
        assert_eq!(trailing_number("doc:0").as_deref(), Some("0"));
        assert_eq!(trailing_number("Source 1").as_deref(), Some("1"));
        assert_eq!(trailing_number("search-result-2").as_deref(), Some("2"));
        assert_eq!(trailing_number("12").as_deref(), Some("12"));
        assert_eq!(trailing_number("a1b2"), None);
        assert_eq!(trailing_number("doc"), None);
        assert_eq!(trailing_number(ids[0]), None);
        assert_eq!(trailing_number(ids[1]), None);
    }

    #[test]
    fn other_names_name_every_chunk_of_their_document() {
        let chunk = |id: &str, aliases: &[&str]| crate::Chunk {
            id: id.to_string(),
            text: String::new(),
            aliases: aliases.iter().map(|a| a.to_string()).collect(),
        };
        let chunks = crate::Chunks {
            chunks: vec![
                chunk("1", &["report.pdf"]),
                chunk("2", &["notes.md"]),
                chunk("3", &["report.pdf"]),
            ],
            format: crate::ChunkFormat::Json,
            warnings: Vec::new(),
            ids_are_numbers: false,
        };
        let resolver = Resolver::for_chunks(&chunks);
        assert_eq!(resolver.resolve("report.pdf"), [0, 2]);
        assert_eq!(resolver.resolve("notes.md"), [1]);
        assert!(resolver.is_id("notes.md"));
        assert!(resolver.resolve("other.pdf").is_empty());
        // Numbered by their ids: `[1]` is the chunk with id 1, never the first chunk.
        let numbered = crate::Chunks {
            chunks: vec![chunk("2", &[]), chunk("4", &[])],
            ids_are_numbers: true,
            ..chunks
        };
        let resolver = Resolver::for_chunks(&numbered);
        assert_eq!(resolver.resolve("4"), [1]);
        assert!(resolver.resolve("1").is_empty());
    }
}
