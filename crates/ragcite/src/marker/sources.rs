//! The answer's own source list, read as the map from its markers' labels to the chunks: a
//! label line (`Sources:`, `**References**`, `## Citations`, `Footnotes`, ...) followed by
//! entries (`[1] NASA, Webb mission overview`, `1. title – url`, `- [2] reef_location.pdf`,
//! `¹ NASA, …`, `- NASA`), and footnote and numbered link definitions anywhere (`[^1]: …`,
//! `[1]: https://…`). Each entry's title, URL or file name is matched to the chunks' ids and
//! other names; the lines of a source list are no claims (the sentence stage marks them).

use std::ops::Range;

use rustc_hash::FxHashMap;

use super::superscript;

/// Words that, alone on a line, introduce a source list (lower-cased, without a colon).
const LABELS: &[&str] = &[
    "source",
    "sources",
    "sources used",
    "sources cited",
    "cited sources",
    "source list",
    "reference",
    "references",
    "reference list",
    "citation",
    "citations",
    "footnotes",
    "bibliography",
    "works cited",
];

/// How much of an entry's text is read to match it: titles, URLs and file names are short.
const MAX_ENTRY_BYTES: usize = 2048;

/// A label longer than this is not an entry's label.
const MAX_LABEL_BYTES: usize = 32;

/// One entry of a source list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The label markers cite it by (`1` for `[1]`, `1.`, `¹`, `[^1]:`; its position among the
    /// entries for a bullet without one).
    pub label: String,
    /// Byte span of its text (after the label) in the answer, continuation lines included.
    pub text: Range<usize>,
    /// Whether a label line introduces it; a footnote or link definition elsewhere may be a
    /// note rather than a source.
    pub listed: bool,
}

/// The source lists of an answer.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceList {
    /// Byte offsets at which the lines of a source list start (its label line, entries and
    /// their continuations), ascending: no claims.
    pub lines: Vec<usize>,
    /// Its entries and the answer's footnote and numbered link definitions, in order.
    pub entries: Vec<Entry>,
}

impl SourceList {
    /// Whether the line that starts at byte `offset` belongs to a source list.
    pub fn holds_line(&self, offset: usize) -> bool {
        self.lines.binary_search(&offset).is_ok()
    }
}

/// Reads the source lists of `answer`. Only a list introduced by a label line counts: a list
/// in the middle of an answer whose items are claims is no source list. The list runs while its
/// lines are entries, indented continuations or blank; the first other line ends it.
pub fn read(answer: &str) -> SourceList {
    let mut list = SourceList::default();
    let mut offset = 0;
    let mut in_list = false;
    let mut in_fence = false;
    // The entry the next indented line continues, if any.
    let mut open: Option<usize> = None;
    let mut ordinal = 0;
    for raw in answer.split_inclusive('\n') {
        let line = raw.trim_end_matches(['\n', '\r']);
        let start = offset;
        offset += raw.len();
        let trimmed = line.trim();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
            (in_list, open) = (false, None);
            continue;
        }
        if in_fence {
            continue;
        }
        if trimmed.is_empty() {
            continue;
        }
        let indented = line.starts_with([' ', '\t']) && line.len() - line.trim_start().len() >= 2;
        if let Some(k) = open
            && indented
            && entry(line).is_none()
        {
            let end = start + line.trim_end().len();
            list.entries[k].text.end = end;
            if in_list {
                list.lines.push(start);
            }
            continue;
        }
        open = None;
        if let Some((label, text)) = definition(line) {
            list.entries.push(Entry {
                label,
                text: start + text.start..start + text.end,
                listed: in_list,
            });
            open = Some(list.entries.len() - 1);
            if in_list {
                list.lines.push(start);
            }
            continue;
        }
        if is_label_line(trimmed) {
            list.lines.push(start);
            (in_list, ordinal) = (true, 0);
            continue;
        }
        if !in_list {
            continue;
        }
        match entry(line) {
            Some((label, text)) => {
                ordinal += 1;
                list.entries.push(Entry {
                    label: label.unwrap_or_else(|| ordinal.to_string()),
                    text: start + text.start..start + text.end,
                    listed: true,
                });
                open = Some(list.entries.len() - 1);
                list.lines.push(start);
            }
            None => in_list = false,
        }
    }
    list
}

/// Whether `line` (trimmed) is a source list's label: `Sources:`, `**References**`,
/// `## Citations`, `__Sources:__`.
fn is_label_line(line: &str) -> bool {
    if line.len() > 40 {
        return false;
    }
    let line = line.trim_start_matches('#').trim();
    let line = line.trim_matches(['*', '_']).trim();
    let line = line.strip_suffix(':').unwrap_or(line);
    let line = line.trim_end_matches(['*', '_']).trim();
    let line = line.strip_suffix(':').unwrap_or(line).trim();
    let words: Vec<&str> = line.split_whitespace().collect();
    let lower = words.join(" ").to_lowercase();
    LABELS.contains(&lower.as_str())
}

/// A footnote definition (`[^1]: text`) or a link definition with a number for its label
/// (`[1]: https://…`): its label and the byte range of its text in `line`.
fn definition(line: &str) -> Option<(String, Range<usize>)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let rest = line[indent..].strip_prefix('[')?;
    let close = rest.find(']').filter(|&k| k <= MAX_LABEL_BYTES)?;
    let inner = &rest[..close];
    rest[close + 1..].strip_prefix(':')?;
    let label = match inner.strip_prefix('^') {
        Some(label) => label,
        None if !inner.is_empty() && inner.bytes().all(|b| b.is_ascii_digit()) => inner,
        None => return None,
    };
    if label.is_empty() || label.contains(char::is_whitespace) {
        return None;
    }
    let text_start = indent + 1 + close + 2;
    let text = &line[text_start..];
    let text_start = text_start + (text.len() - text.trim_start().len());
    Some((
        label.to_string(),
        text_start..line.trim_end().len().max(text_start),
    ))
}

/// A source list's entry: its label (none for a bullet without one) and the byte range of its
/// text in `line`. Forms: `[1] …`, `[^1] …`, `[1]: …`, `(1) …`, `1. …`, `1) …`, `¹ …`, `^1 …`,
/// each maybe after a bullet and in bold (`- **[2]** …`), and `- …`.
fn entry(line: &str) -> Option<(Option<String>, Range<usize>)> {
    let indent = line.len() - line.trim_start().len();
    let mut at = indent;
    let bullet = line[at..].starts_with(['-', '*', '+'])
        && line[at + 1..].starts_with([' ', '\t'])
        && !line[at..].starts_with("**");
    if bullet {
        at += 1;
        at += line[at..].len() - line[at..].trim_start().len();
    }
    let bold = ["**", "__"].into_iter().find(|b| line[at..].starts_with(b));
    let mut label_at = at + bold.map_or(0, str::len);
    let label = entry_label(&line[label_at..]);
    let label = match label {
        Some((label, len)) => {
            label_at += len;
            if let Some(b) = bold {
                label_at += line[label_at..].strip_prefix(b).map_or(0, |_| b.len());
            }
            Some(label)
        }
        None if bullet => {
            label_at = at;
            None
        }
        None => return None,
    };
    let rest = &line[label_at..];
    let text = rest.trim_start();
    if text.is_empty() || (label.is_some() && text.len() == rest.len() && !rest.starts_with(':')) {
        return None;
    }
    let text_start = label_at + (rest.len() - text.len());
    Some((label, text_start..line.trim_end().len().max(text_start)))
}

/// The label at the start of `s` and its length: `[1]`, `[^1]`, `[1]:`, `(1)`, `1.`, `1)`,
/// `¹`, `^1`.
fn entry_label(s: &str) -> Option<(String, usize)> {
    let label_like =
        |l: &str| !l.is_empty() && l.len() <= MAX_LABEL_BYTES && !l.contains(char::is_whitespace);
    if let Some(rest) = s.strip_prefix('[') {
        let close = rest.find(']').filter(|&k| k <= MAX_LABEL_BYTES)?;
        let inner = rest[..close].trim_start_matches('^');
        let colon = usize::from(rest[close + 1..].starts_with(':'));
        return label_like(inner).then(|| (inner.to_string(), close + 2 + colon));
    }
    if let Some(rest) = s.strip_prefix('(') {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        return (digits > 0 && digits <= 4 && rest[digits..].starts_with(')'))
            .then(|| (rest[..digits].to_string(), digits + 2));
    }
    let caret = usize::from(s.starts_with('^'));
    let digits = s[caret..].bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && digits <= 4 {
        let after = &s[caret + digits..];
        if caret == 1 {
            return Some((s[1..1 + digits].to_string(), 1 + digits));
        }
        return after
            .starts_with(['.', ')'])
            .then(|| (s[..digits].to_string(), digits + 1));
    }
    let mut label = String::new();
    let mut len = 0;
    for c in s.chars().take(4) {
        match superscript::digit(c) {
            Some(d) => {
                label.push(char::from(b'0' + d));
                len += c.len_utf8();
            }
            None => break,
        }
    }
    (!label.is_empty()).then_some((label, len))
}

/// The chunks each entry names, and the labels of the entries that name none.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceMap {
    /// Each matched entry's label and the chunks (positions) it names, first entry of a label
    /// only.
    pub named: Vec<(String, Vec<usize>)>,
    /// Labels of the entries of a source list (under a label line) that name no chunk, or
    /// several that disagree. A definition elsewhere that names none is left out: it may be a
    /// note.
    pub unmatched: Vec<String>,
}

/// Matches each entry of `list` to the chunks: by a URL in it (scheme, `www.` and a final `/`
/// aside), then by its whole text or a part of it between separators (`,` `;` `|` ` – ` `: `,
/// quotes, brackets) equal to a chunk's id or other name (title, file name, URL; a path's file
/// name too), then by a single word equal to one (`reef_location.pdf`). Names are compared
/// case-insensitively with white space collapsed; names that are only digits never match. The
/// first of these that finds a chunk decides; when it finds different chunks, the entry is
/// ambiguous and names none. A definition outside a source list (a footnote may be a note) is
/// not matched by a single word.
pub fn map(list: &SourceList, answer: &str, chunks: &[crate::input::Chunk]) -> SourceMap {
    let mut result = SourceMap::default();
    if list.entries.is_empty() {
        return result;
    }
    let mut names: FxHashMap<String, Vec<usize>> = FxHashMap::default();
    let mut add = |name: &str, position: usize| {
        for key in keys_of(name) {
            let chunks = names.entry(key).or_default();
            if chunks.last() != Some(&position) {
                chunks.push(position);
            }
        }
    };
    for (position, chunk) in chunks.iter().enumerate() {
        add(&chunk.id, position);
        for alias in &chunk.aliases {
            add(alias, position);
        }
    }
    let mut seen: rustc_hash::FxHashSet<&str> = rustc_hash::FxHashSet::default();
    for entry in &list.entries {
        if !seen.insert(&entry.label) {
            continue;
        }
        let mut end = entry.text.end.min(entry.text.start + MAX_ENTRY_BYTES);
        while !answer.is_char_boundary(end) {
            end -= 1;
        }
        let text = answer.get(entry.text.start..end).unwrap_or("");
        match named_by(text, &names, entry.listed) {
            Some(positions) => result.named.push((entry.label.clone(), positions)),
            None if entry.listed => result.unmatched.push(entry.label.clone()),
            None => {}
        }
    }
    result
}

/// The chunks `text` names, by the tiers of [`map`].
fn named_by(
    text: &str,
    names: &FxHashMap<String, Vec<usize>>,
    words_too: bool,
) -> Option<Vec<usize>> {
    let words = || {
        text.split(|c: char| c.is_whitespace() || matches!(c, '<' | '>' | '(' | ')' | '[' | ']'))
    };
    let urls = words().filter(|w| w.contains("://")).map(url_key);
    let parts = std::iter::once(normalise(text)).chain(
        text.split([
            ',', ';', '|', '"', '“', '”', '(', ')', '[', ']', '*', '–', '—',
        ])
        .flat_map(|part| part.split(" - "))
        .flat_map(|part| part.split(": "))
        .map(normalise),
    );
    let single = words().filter(|_| words_too).map(normalise);
    let tiers: [Vec<String>; 3] = [urls.collect(), parts.collect(), single.collect()];
    for tier in tiers {
        let mut found: Option<&Vec<usize>> = None;
        for key in &tier {
            if key.is_empty() || key.bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            if let Some(chunks) = names.get(key) {
                match found {
                    Some(other) if other != chunks => return None,
                    _ => found = Some(chunks),
                }
            }
        }
        if let Some(chunks) = found {
            return Some(chunks.clone());
        }
    }
    None
}

/// The keys a chunk's name is found by: the name compared loosely, a URL's address, a path's
/// file name.
fn keys_of(name: &str) -> Vec<String> {
    let mut keys = vec![normalise(name)];
    if name.contains("://") {
        keys.push(url_key(name));
    }
    if let Some((_, file)) = name.rsplit_once(['/', '\\'])
        && !file.is_empty()
    {
        keys.push(normalise(file));
    }
    keys.retain(|k| !k.is_empty() && !k.bytes().all(|b| b.is_ascii_digit()));
    keys.dedup();
    keys
}

/// A name compared loosely: lower-cased, white space collapsed, without the punctuation and
/// emphasis around it.
fn normalise(name: &str) -> String {
    let trimmed = name.trim_matches(|c: char| {
        c.is_whitespace()
            || matches!(
                c,
                '*' | '_'
                    | '"'
                    | '\''
                    | '“'
                    | '”'
                    | '‘'
                    | '’'
                    | '«'
                    | '»'
                    | '.'
                    | ','
                    | ';'
                    | ':'
                    | '<'
                    | '>'
                    | '('
                    | ')'
                    | '['
                    | ']'
                    | '`'
            )
    });
    let mut out = String::with_capacity(trimmed.len());
    for word in trimmed.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.extend(word.chars().flat_map(char::to_lowercase));
    }
    out
}

/// A URL compared by its page, as every web address is ([`super::url::normalize`]: without
/// scheme, `www.`, fragment, tracking parameters and a final `/`), after the punctuation
/// around it is dropped and it is lower-cased; another scheme's address (`ftp://…`) without
/// its scheme, `www.` and final `/`.
fn url_key(url: &str) -> String {
    let url = normalise(url);
    if let Some(page) = super::url::normalize(&url) {
        return page;
    }
    let url = url.split_once("://").map_or(url.as_str(), |(_, rest)| rest);
    let url = url.strip_prefix("www.").unwrap_or(url);
    url.trim_end_matches('/').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(answer: &str) -> Vec<(String, &str)> {
        read(answer)
            .entries
            .into_iter()
            .map(|e| (e.label, &answer[e.text]))
            .collect()
    }

    #[test]
    fn every_entry_form_after_a_label_line() {
        let answer = "Text [1].\n\nSources:\n[1] NASA, Webb mission overview\n2. Reef survey – https://reef.example/survey\n- [3] reef_location.pdf\n¹⁰ Ten\n(11) Eleven\n- **[12]** Twelve\n^13 Thirteen\n";
        assert_eq!(
            entries(answer),
            [
                ("1".to_string(), "NASA, Webb mission overview"),
                ("2".to_string(), "Reef survey – https://reef.example/survey"),
                ("3".to_string(), "reef_location.pdf"),
                ("10".to_string(), "Ten"),
                ("11".to_string(), "Eleven"),
                ("12".to_string(), "Twelve"),
                ("13".to_string(), "Thirteen"),
            ]
        );
    }

    #[test]
    fn label_lines() {
        for line in [
            "Sources:",
            "Sources",
            "**Sources**",
            "**Sources:**",
            "**Sources**:",
            "## References",
            "### Citations:",
            "Footnotes",
            "__Works cited__",
        ] {
            assert!(is_label_line(line), "{line:?}");
        }
        for line in [
            "Sources of energy:",
            "The sources say so:",
            "Key facts:",
            "Notes",
        ] {
            assert!(!is_label_line(line), "{line:?}");
        }
    }

    #[test]
    fn a_list_without_a_label_line_is_not_a_source_list() {
        let answer = "Key facts:\n1. The tower is 330 m tall.\n2. It opened in 1889.\n";
        let list = read(answer);
        assert!(list.entries.is_empty());
        assert!(list.lines.is_empty());
    }

    #[test]
    fn the_list_ends_at_the_first_line_that_is_no_entry() {
        let answer =
            "Sources:\n- [1] NASA\n  continued\n\n- [2] ESA\nLet me know if you need more.\n";
        let list = read(answer);
        assert_eq!(entries(answer)[0], ("1".to_string(), "NASA\n  continued"));
        assert_eq!(list.entries.len(), 2);
        assert_eq!(list.lines, [0, 9, 20, 33]);
        assert!(!list.holds_line(answer.find("Let").unwrap()));
    }

    #[test]
    fn unlabelled_bullets_take_their_position() {
        let answer = "References\n- NASA\n- ESA\n";
        assert_eq!(
            entries(answer),
            [("1".to_string(), "NASA"), ("2".to_string(), "ESA")]
        );
    }

    #[test]
    fn definitions_anywhere_are_entries_but_not_lines_outside_a_list() {
        let answer =
            "Text.[^a]\n\n[^a]: NASA, Webb\n[2]: https://x.example\n[docs]: https://y.example\n";
        assert_eq!(
            entries(answer),
            [
                ("a".to_string(), "NASA, Webb"),
                ("2".to_string(), "https://x.example")
            ]
        );
        assert!(read(answer).lines.is_empty());
    }

    fn chunk(id: &str, aliases: &[&str]) -> crate::input::Chunk {
        crate::input::Chunk {
            id: id.to_string(),
            text: String::new(),
            aliases: aliases.iter().map(|a| a.to_string()).collect(),
        }
    }

    #[test]
    fn entries_match_chunks_by_url_title_file_name_or_id() {
        let chunks = [
            chunk(
                "a",
                &["Webb mission overview", "https://nasa.example/webb/"],
            ),
            chunk("b", &["docs/reef_location.pdf"]),
            chunk("c", &[]),
            chunk("orbit-notes", &[]),
        ];
        let answer = "Sources:\n[1] NASA, Webb Mission Overview\n[2] See http://www.nasa.example/webb\n- [3] reef_location.pdf, page 4\n[4] orbit-notes\n[5] Something else\n[1] again\n";
        let map = map(&read(answer), answer, &chunks);
        assert_eq!(
            map.named,
            [
                ("1".to_string(), vec![0]),
                ("2".to_string(), vec![0]),
                ("3".to_string(), vec![1]),
                ("4".to_string(), vec![3]),
            ]
        );
        assert_eq!(map.unmatched, ["5"]);
    }

    #[test]
    fn an_entry_names_the_page_whatever_its_tracking_parameters() {
        let chunks = [
            chunk("https://en.wikipedia.org/wiki/Paris", &[]),
            chunk("x", &["https://example.com/a?id=2"]),
        ];
        let answer = "Sources:\n[1] https://en.wikipedia.org/wiki/Paris?utm_source=openai#History\n[2] https://example.com/a?id=3\n";
        let map = map(&read(answer), answer, &chunks);
        assert_eq!(map.named, [("1".to_string(), vec![0])]);
        assert_eq!(map.unmatched, ["2"]);
    }

    #[test]
    fn a_footnote_that_names_no_chunk_is_a_note_not_a_warning() {
        let chunks = [chunk("a", &["Honey"]), chunk("b", &["Bees.pdf"])];
        let answer = "Text.[^1][^2][^3]\n\n[^1]: Figures vary with honey and forage.\n[^2]: Bees.pdf\n\nSources:\n[^3]: Unknown\n";
        let map = map(&read(answer), answer, &chunks);
        assert_eq!(map.named, [("2".to_string(), vec![1])]);
        assert_eq!(map.unmatched, ["3"], "only the listed one is reported");
    }

    #[test]
    fn an_entry_naming_two_chunks_is_ambiguous() {
        let chunks = [chunk("a", &["Alpha"]), chunk("b", &["Beta"])];
        let answer = "Sources:\n[1] Alpha, Beta\n";
        let map = map(&read(answer), answer, &chunks);
        assert!(map.named.is_empty());
        assert_eq!(map.unmatched, ["1"]);
    }

    #[test]
    fn hostile_lists_are_read_in_linear_time() {
        let mut answer = "Sources:\n".to_string();
        for k in 0..20_000 {
            answer.push_str(&format!("- [{k}] a; b | ¹²³ c, {}\n", "¹".repeat(k % 50)));
        }
        let list = read(&answer);
        assert_eq!(list.entries.len(), 20_000);
        let chunks = [chunk("a", &[]), chunk("b", &[])];
        let map = map(&list, &answer, &chunks);
        assert_eq!(map.unmatched.len(), 20_000, "each names a and b: ambiguous");
    }
}
