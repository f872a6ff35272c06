//! Line-level Markdown: fenced and indented code, footnote and link definitions, line prefixes;
//! and what of the answer is not read as prose because it is code or a comment.
//!
//! An answer is text a model wrote, not Markdown a person checked in a preview: Markdown's
//! rules would let an answer opt out of the check by opening a fence or a comment it never
//! closes, or by indenting its text. So:
//!
//! - A fence (```` ``` ````, `~~~`) that no later line closes is no code block: its line is
//!   blanked, the lines after it are prose, and a warning says so.
//! - An HTML comment `<!--` that no `-->` closes blanks its four characters only, with a
//!   warning; the text after it is prose.
//! - Indented lines (four spaces or a tab, after a blank line) are code only when the answer is
//!   otherwise Markdown (some line that is not blank is not indented) and the block looks like
//!   code ([`looks_like_code`]); else they are prose.
//!
//! Every line that held text and that code or a comment took wholly is counted as not checked
//! ([`Hidden`]): each output says how many. So is a line on which text that reads as words was
//! blanked as markup though prose is left on it, or though Markdown would not show it as code:
//! a comment of three words or more, a fence's info string of three words or more, and a
//! footnote definition or a link definition's title that reads as a sentence
//! ([`reads_as_sentence`]) rather than as a reference.

use std::ops::Range;
use std::sync::LazyLock;

use regex::{Regex, RegexSet};

use super::Blanker;

static FOOTNOTE_DEFINITION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^ {0,3}\[\^[^\]\n]+\]:").unwrap());
static LINK_DEFINITION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^ {0,3}\[[^\]\n]+\]:[ \t]*(?:<[^>\n]*>|\S+)(?:[ \t]+(?:"([^"\n]*)"|'([^'\n]*)'|\(([^)\n]*)\)))?[ \t]*\r?$"#)
        .unwrap()
});
static LINE_PREFIX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[ \t]*(?:>[ \t]?)*[ \t]*(?:#{1,6}(?:[ \t]+|$)|(?:[-*+]|[0-9]{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?)?").unwrap()
});
static LIST_ITEM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[ \t]*(?:>[ \t]?)*[ \t]*(?:[-*+]|[0-9]{1,9}[.)])[ \t]+").unwrap()
});
static FENCE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^ {0,3}(?:>[ \t]?)*[ \t]*(`{3,}|~{3,})").unwrap());

/// What marks a line as code: punctuation and operators that prose does not end or join words
/// with, declarations, assignments, calls, prompts, comments, tags, commands. Compiled only
/// when an indented block has to be judged.
static CODE_LINE: LazyLock<RegexSet> = LazyLock::new(|| {
    RegexSet::new([
        // Ends with `;`, `{` or `}`, or starts with a closing bracket.
        r"[;{}]\s*$",
        r"^\s*[}\])]",
        // Operators and an assignment at the start of the line.
        r"\S\s*(?:==|!=|<=|>=|=>|->|:=|\+=|-=|\*=|/=|&&|\|\|)\s*\S",
        r#"^\s*[\w.\[\]"'$]+\s*=\s*\S"#,
        // A call that ends the line, `f(x)`, `main():`.
        r"[\w.]\([^()]*\)\s*[;:,{]?\s*$",
        // Declarations and imports, in lower case as code writes them.
        r"^\s*(?:def|fn|function|class|struct|enum|impl|interface|trait|func)\s+\w+\s*[(<:{]",
        r"^\s*(?:import\s+[\w.]+(?:\s+as\s+\w+)?|from\s+[\w.]+\s+import\s+.+)\s*;?\s*$",
        r"^\s*(?:#include|#define|#!|//|/\*|\*/|<\?|<!DOCTYPE)",
        // Prompts, and a line that is one tag.
        r"^\s*(?:\$|>>>|\.\.\.|%|PS>)\s",
        r"^\s*</?[A-Za-z][\w-]*(?:\s[^<>]*)?/?>\s*$",
        r"^\s*(?:SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP)\s",
        // A JSON key, a YAML key alone on its line.
        r#"^\s*"[^"]*"\s*:"#,
        r"^\s*[\w-]+:\s*$",
    ])
    .unwrap()
});

/// A command at the start of a line that does not end as a sentence does.
static COMMAND: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:pip3?|npm|npx|yarn|pnpm|cargo|git|cd|curl|wget|docker|kubectl|python3?|node|sudo|apt(?:-get)?|brew|export|mkdir|chmod|ragcite)\s+[-\w./]").unwrap()
});

/// What the block stage blanked as code, comments or hidden text, for counting the lines not
/// checked.
#[derive(Debug, Default)]
pub(super) struct Hidden {
    /// Indices (0-based) of the lines that code took, ascending.
    pub code_lines: Vec<usize>,
    /// Byte ranges of the closed HTML comments, ascending.
    pub comments: Vec<Range<usize>>,
    /// Byte ranges of blanked text that reads as words (a comment of three words, a footnote
    /// that reads as a sentence, ...): every line they touch is not checked, whatever prose is
    /// left on it. In no order.
    pub text: Vec<Range<usize>>,
    /// What was read otherwise than Markdown would (an unclosed fence or comment).
    pub warnings: Vec<String>,
}

/// Byte ranges of the HTML comments of `text` that close, `<!--` to `-->`; each `<!--` that no
/// `-->` follows is blanked alone (its four characters), with a warning in `hidden`. One pass.
pub(super) fn blank_comments(text: &str, out: &mut Blanker, hidden: &mut Hidden) {
    let mut from = 0;
    let mut unclosed = None;
    while let Some(start) = text.get(from..).and_then(|rest| rest.find("<!--")) {
        let start = from + start;
        // Once one `<!--` finds no `-->` after it, none after it will: they are not searched
        // again (which made a flood of them quadratic).
        let close = if unclosed.is_none() {
            text[start + 4..].find("-->")
        } else {
            None
        };
        match close {
            Some(k) => {
                let end = start + 4 + k + 3;
                out.blank(start..end);
                hidden.comments.push(start..end);
                if words(&text[start + 4..end - 3]).count() >= HIDDEN_WORDS {
                    hidden.text.push(start..end);
                }
                from = end;
            }
            None => {
                out.blank(start..start + 4);
                unclosed.get_or_insert(start);
                from = start + 4;
            }
        }
    }
    if let Some(start) = unclosed {
        let line = 1 + text[..start].bytes().filter(|&b| b == b'\n').count();
        hidden.warnings.push(format!(
            "the HTML comment opened at line {line} never closes: the text after it is checked"
        ));
    }
}

/// How many words blanked text must hold to be text rather than markup, where it has no other
/// use (a comment, a fence's info string): `<!-- prettier-ignore -->` and ```` ```python ````
/// are markup, `<!-- The tower is 500 m tall. -->` is not.
pub(super) const HIDDEN_WORDS: usize = 3;

/// The words of `text`: what is left of each token once the punctuation around it is trimmed,
/// when it is letters (inner `'`, `’` and `-` allowed). Numbers, URLs, `name=value`,
/// `[link](target)`, `MD013` are no words.
pub(super) fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split_whitespace()
        .map(|token| token.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|word| {
            word.chars().next().is_some_and(char::is_alphabetic)
                && word
                    .chars()
                    .all(|c| c.is_alphabetic() || matches!(c, '\'' | '’' | '-'))
        })
}

/// Whether `text` reads as a sentence rather than as a reference (a URL, a title, names, a
/// publisher, a year): four words or more, at least three of them, and at least half, in lower
/// case. `NASA, Webb mission overview`, `Eiffel Tower - Wikipedia`, `Smith, J. (2020). The
/// Eiffel Tower. Paris Press.` are references; `Around 7 million people visit it every year.`
/// is a sentence.
pub(super) fn reads_as_sentence(text: &str) -> bool {
    let (mut all, mut lower) = (0, 0);
    for word in words(text) {
        all += 1;
        lower += usize::from(word.starts_with(char::is_lowercase));
    }
    all >= 4 && lower >= 3 && 2 * lower >= all
}

/// The length of `line`'s leading spaces and tabs, and whether a line prefix or list item
/// can start after them (a quote mark, a heading mark, a bullet or a digit): when not, neither
/// `LINE_PREFIX` nor `LIST_ITEM` can match more than those spaces and tabs.
fn may_have_prefix(line: &str) -> (usize, bool) {
    let lead = line.len() - line.trim_start_matches([' ', '\t']).len();
    let rest = &line[lead..];
    let marked = rest.starts_with(['>', '#', '-', '*', '+'])
        || rest.starts_with(|c: char| c.is_ascii_digit());
    (lead, marked)
}

/// The fence (its backticks or tildes) that `line` opens or closes, if any; none at all when
/// the text has no three backticks or tildes in a row (`fences` false).
fn fence_at(fences: bool, line: &str) -> Option<regex::Match<'_>> {
    if !fences {
        return None;
    }
    FENCE.captures(line).and_then(|c| c.get(1))
}

/// The length of the fence that `line` could close a block with (a fence and nothing after it),
/// by its character: backticks first, tildes second.
fn closer(fences: bool, line: &str) -> Option<(usize, usize)> {
    let m = fence_at(fences, line)?;
    if !line[m.end()..].trim().is_empty() {
        return None;
    }
    let kind = usize::from(m.as_str().as_bytes()[0] == b'~');
    Some((kind, m.len()))
}

/// For each line, the longest fence of each kind that a line after it could close a block
/// with: a fence opened at line `k` with a fence of length `n` closes when `after[k+1]` of its
/// kind is at least `n` (else it never closes). Empty when the text has no fences.
fn closers_after(fences: bool, lines: &[&str]) -> Vec<[usize; 2]> {
    if !fences {
        return Vec::new();
    }
    let mut after = vec![[0usize; 2]; lines.len() + 1];
    for (k, line) in lines.iter().enumerate().rev() {
        after[k] = after[k + 1];
        if let Some((kind, len)) = closer(true, line) {
            after[k][kind] = after[k][kind].max(len);
        }
    }
    after
}

/// Whether an indented block's lines (each with its indentation) look like code: at least one
/// line marked as code, and no more lines that read as sentences (three words or more ending in
/// `.`, `!` or `?`, markers and closing brackets aside) than lines marked as code.
pub(super) fn looks_like_code(lines: &[&str]) -> bool {
    let mut code = 0;
    let mut sentences = 0;
    for line in lines {
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        let ends = text
            .trim_end_matches(|c: char| c == ']' || c == '[' || c.is_ascii_digit() || c == ',')
            .trim_end_matches(['"', '\'', ')', '”', '’', '*', '_'])
            .ends_with(['.', '!', '?']);
        let words = text.split_whitespace().count();
        let sentence = ends && words >= 3;
        if CODE_LINE.is_match(text) || (!ends && COMMAND.is_match(text)) {
            code += 1;
        } else if sentence {
            sentences += 1;
        }
    }
    code > 0 && code >= sentences
}

/// A footnote definition and its continuation lines, blanked: counted as not checked when its
/// text reads as a sentence ([`reads_as_sentence`]), kept as a reference when it does not.
struct Footnote {
    /// From the start of its definition line to the end of its last line.
    span: Range<usize>,
    /// Its text (the definition's label left out), its lines joined by spaces.
    text: String,
}

impl Footnote {
    fn add(&mut self, end: usize, line: &str) {
        if !line.trim().is_empty() {
            self.span.end = end;
            self.text.push(' ');
            self.text.push_str(line.trim());
        }
    }

    fn judge(self, hidden: &mut Hidden) {
        if reads_as_sentence(&self.text) {
            hidden.text.push(self.span);
        }
    }
}

/// The indented block last judged: its end (a line index, exclusive) and whether it is code.
#[derive(Default)]
struct IndentedBlock {
    end: usize,
    code: bool,
}

fn is_indented(line: &str) -> bool {
    line.starts_with('\t') || line.starts_with("    ")
}

/// Line-level Markdown: fenced and indented code, footnote and link definitions, line prefixes.
/// Returns the offsets of heading lines; the lines code took go to `hidden`.
pub(super) fn blank_blocks(answer: &str, out: &mut Blanker, hidden: &mut Hidden) -> Vec<usize> {
    let mut headings = Vec::new();
    let mut fence: Option<(u8, usize)> = None;
    let mut previous_blank = true;
    let mut in_list = false;
    // The footnote definition the lines belong to: its first line, its byte range so far, and
    // its text.
    let mut footnote: Option<Footnote> = None;
    let mut offset = 0;
    let fences = answer.contains("```") || answer.contains("~~~");
    let raw_lines: Vec<&str> = answer.split_inclusive('\n').collect();
    let lines: Vec<&str> = raw_lines
        .iter()
        .map(|l| l.trim_end_matches(['\n', '\r']))
        .collect();
    let closers = closers_after(fences, &lines);
    // Whether some line that holds text is not indented: only then can indentation mark code.
    let markdown = lines
        .iter()
        .any(|l| !l.trim().is_empty() && !is_indented(l));
    let mut block = IndentedBlock::default();
    let mut unclosed_fence = None;
    for (k, raw_line) in raw_lines.iter().enumerate() {
        let line = lines[k];
        let range = offset..offset + line.len();
        offset += raw_line.len();
        let visible = std::str::from_utf8(&out.bytes[range.clone()]).unwrap_or("");
        let blank_line = visible.trim().is_empty();
        if let Some((ch, len)) = fence {
            if let Some(m) = fence_at(fences, line)
                && m.as_str().as_bytes()[0] == ch
                && m.len() >= len
                && line[m.end()..].trim().is_empty()
            {
                fence = None;
            }
            out.blank(range);
            hidden.code_lines.push(k);
            continue;
        }
        if let Some(m) = fence_at(fences, line) {
            let (ch, len) = (m.as_str().as_bytes()[0], m.len());
            let kind = usize::from(ch == b'~');
            out.blank(range.clone());
            if closers.get(k + 1).is_some_and(|after| after[kind] >= len) {
                fence = Some((ch, len));
                hidden.code_lines.push(k);
            } else {
                // A fence that never closes opens no block: its line is blanked, the rest read.
                // (A closed fence's opening line is code, counted as such, info string and all.)
                if words(&line[m.end()..]).count() >= HIDDEN_WORDS {
                    hidden.text.push(range);
                }
                unclosed_fence.get_or_insert(k + 1);
                previous_blank = true;
            }
            continue;
        }
        let indent = is_indented(line);
        if let Some(note) = footnote.as_mut()
            && (indent || blank_line)
        {
            out.blank(range.clone());
            note.add(range.end, line);
            previous_blank = blank_line;
            continue;
        }
        if let Some(note) = footnote.take() {
            note.judge(hidden);
        }
        if indent && !blank_line && !in_list {
            if k >= block.end && previous_blank {
                // The block runs to the next line that holds text and is not indented; it is
                // judged once, as a whole.
                let end = (k..lines.len())
                    .find(|&j| !lines[j].trim().is_empty() && !is_indented(lines[j]))
                    .unwrap_or(lines.len());
                block = IndentedBlock {
                    end,
                    code: markdown && looks_like_code(&lines[k..end]),
                };
            }
            if k < block.end && block.code {
                out.blank(range);
                hidden.code_lines.push(k);
                previous_blank = false;
                continue;
            }
        }
        if blank_line {
            previous_blank = true;
            continue;
        }
        let definition = line.trim_start_matches(' ').starts_with('[');
        if definition && let Some(label) = FOOTNOTE_DEFINITION.find(line) {
            out.blank(range.clone());
            footnote = Some(Footnote {
                span: range.clone(),
                text: line[label.end()..].to_string(),
            });
            previous_blank = false;
            continue;
        }
        if definition && let Some(parts) = LINK_DEFINITION.captures(line) {
            out.blank(range.clone());
            let title = (1..=3).find_map(|k| parts.get(k));
            if title.is_some_and(|title| reads_as_sentence(title.as_str())) {
                hidden.text.push(range);
            }
            previous_blank = false;
            continue;
        }
        // A line whose first character after spaces and tabs cannot start a prefix (a quote
        // mark, a heading mark, a bullet or an enumerator's digit) is no list item, and its
        // prefix is those spaces and tabs: neither pattern is searched (nor compiled, for an
        // answer of plain lines: 0.4 M instructions, a tenth of a one-sentence check).
        let (lead, marked) = may_have_prefix(line);
        if marked && LIST_ITEM.is_match(line) {
            in_list = true;
        } else if !indent {
            in_list = false;
        }
        if !marked {
            out.blank(range.start..range.start + lead);
        } else if let Some(m) = LINE_PREFIX.find(line) {
            if m.as_str().contains('#') {
                headings.push(range.start);
            }
            out.blank(range.start..range.start + m.end());
        }
        previous_blank = false;
    }
    if let Some(note) = footnote.take() {
        note.judge(hidden);
    }
    if let Some(line) = unclosed_fence {
        hidden.warnings.push(format!(
            "the code fence opened at line {line} never closes: the lines after it are checked \
             as text"
        ));
    }
    headings
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_line_without_a_mark_has_no_prefix_but_its_spaces() {
        let mut lines: Vec<String> = [
            "plain text",
            "  indented",
            "\t tab",
            "",
            "   ",
            "#hash",
            "# heading",
            "> quote",
            "- item",
            "* item",
            "+ item",
            "1. one",
            "12) two",
            "\t> - nested",
            "[x] box",
            "– dash",
            "•  bullet",
            "é accent",
            " >",
            "\u{a0}nbsp",
            "\r",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        // Every line of the answers in testdata.
        for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata"))
            .unwrap()
            .flatten()
        {
            let answer = entry.path().join("answer.md");
            if let Ok(text) = std::fs::read_to_string(answer) {
                lines.extend(text.lines().map(str::to_string));
            }
        }
        let mut unmarked = 0;
        for line in &lines {
            let (lead, marked) = super::may_have_prefix(line);
            if !marked {
                unmarked += 1;
                assert!(!super::LIST_ITEM.is_match(line), "{line:?}");
                let m = super::LINE_PREFIX.find(line).unwrap();
                assert_eq!((m.start(), m.end()), (0, lead), "{line:?}");
            }
        }
        assert!(unmarked > 20);
    }

    use super::*;

    #[test]
    fn code_is_told_from_indented_prose() {
        for code in [
            ["    let x = 1;", "    println!(\"{x}\");"].as_slice(),
            &["    def main():", "        return 0"],
            &["    $ pip install ragcite"],
            &["    pip install ragcite"],
            &["    import numpy as np"],
            &["    SELECT id FROM t"],
            &["    <div class=\"x\">"],
            &["    \"key\": 1"],
            &["    x = compute(a, b)", "    The result is printed below."],
        ] {
            assert!(looks_like_code(code), "{code:?}");
        }
        for prose in [
            ["    The Eiffel Tower is 330 metres tall [1]."].as_slice(),
            &[
                "    It was completed in 1889 and",
                "    from the start it drew crowds [2].",
            ],
            &["    Paris is the capital"],
            &["    export restrictions were lifted in 1990."],
            &["    See the guide (chapter 2)."],
        ] {
            assert!(!looks_like_code(prose), "{prose:?}");
        }
    }

    #[test]
    fn fences_close_only_with_a_fence_of_their_kind_as_long() {
        let lines = ["```", "x", "~~~~", "````", "y"];
        let after = closers_after(true, &lines);
        assert_eq!(after[1], [4, 4]);
        assert_eq!(after[4], [0, 0]);
        assert_eq!(closer(true, "``` rust"), None);
    }
}
