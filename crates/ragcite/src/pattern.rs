//! A house style of marker (`--marker REGEX`): a regular expression with one capture group, the
//! label. Its markers are found besides the built-in forms and win where both match at one place.
//! Like the built-in ones, a marker does not span lines and is at most [`MAX_MARKER_LEN`] bytes
//! long, and finding them is linear in the text. The format profiles carry their stacks' marker
//! forms as such patterns. Its own module, below both the input stage (whose answers carry a
//! profile's pattern) and the marker stage (which finds the markers).

use regex_automata::meta::Regex;
use regex_automata::util::captures::Captures;
use regex_automata::{Anchored, Input};

/// How far a marker may reach for its closing bracket, in bytes, whatever its form. Markers are
/// short; a longer bracket is prose (and the bound keeps scanning linear).
pub const MAX_MARKER_LEN: usize = 256;

/// The most memory the pattern's compiled form may take: a house style is a short pattern.
const SIZE_LIMIT: usize = 1 << 20;

/// A marker pattern given by the user.
#[derive(Debug, Clone)]
pub struct MarkerPattern {
    regex: Regex,
    pattern: String,
}

/// Two patterns are the same when they are written the same.
impl PartialEq for MarkerPattern {
    fn eq(&self, other: &Self) -> bool {
        self.pattern == other.pattern
    }
}

impl MarkerPattern {
    /// Compiles `pattern` (the `regex` crate's syntax). Refused, with the reason: a pattern that
    /// does not compile or is too large, that has no capture group or more than one, or that
    /// matches the empty text.
    pub fn new(pattern: &str) -> Result<MarkerPattern, String> {
        let regex = Regex::builder()
            .configure(Regex::config().nfa_size_limit(Some(SIZE_LIMIT)))
            .build(pattern)
            .map_err(|e| match (e.syntax_error(), e.size_limit()) {
                (Some(syntax), _) => {
                    format!(
                        "it is no valid regular expression: {}",
                        syntax_reason(syntax)
                    )
                }
                (None, Some(_)) => format!(
                    "it is larger than {} MiB compiled: a marker is a short pattern (write \
                     fewer or smaller repetitions)",
                    SIZE_LIMIT >> 20
                ),
                (None, None) => format!("it is no valid regular expression: {e}"),
            })?;
        let groups = regex
            .group_info()
            .group_len(regex_automata::PatternID::ZERO);
        if groups != 2 {
            return Err(format!(
                "it has {} capture groups; it needs exactly one, the label (write other groups \
                 as (?:…))",
                groups - 1
            ));
        }
        if regex.is_match("") {
            return Err("it matches the empty text".to_string());
        }
        if label_is_always_empty(pattern) {
            return Err(
                "its capture group can only hold empty text (as `(\\b)` does), so it never \
                 names a label: put the label's characters inside it"
                    .to_string(),
            );
        }
        Ok(MarkerPattern {
            regex,
            pattern: pattern.to_string(),
        })
    }

    /// The pattern as given.
    pub fn as_str(&self) -> &str {
        &self.pattern
    }

    /// The marker that starts at byte `i` of `text`: its labels and its length.
    pub fn at(&self, text: &str, i: usize) -> Option<(Vec<String>, usize)> {
        self.at_with(text, i, &mut self.regex.create_captures())
    }

    fn at_with(&self, text: &str, i: usize, caps: &mut Captures) -> Option<(Vec<String>, usize)> {
        let end = window_end(text, i);
        let input = Input::new(text).span(i..end).anchored(Anchored::Yes);
        looked_at(end - i);
        self.regex.search_captures(&input, caps);
        label_of(text, caps)
    }

    /// Every marker of `text`, in order, as (start, labels, length); no two overlap. A marker
    /// is what [`MarkerPattern::at`] finds at the first place it finds one, then at the first
    /// place after it, and so on. Each search reads at most two markers' length of text: one
    /// over the whole rest found a long match (across a line, or a long run) again from every
    /// place after a refused one, which made a line of them quadratic.
    pub fn all(&self, text: &str) -> Vec<(usize, Vec<String>, usize)> {
        let mut found = Vec::new();
        let mut caps = self.regex.create_captures();
        let mut at = 0;
        while at < text.len() {
            let end = floor_boundary(text, at + 2 * MAX_MARKER_LEN);
            let input = Input::new(text).span(at..end);
            looked_at(end - at);
            let Some(m) = self.regex.search(&input) else {
                // No marker starts in the span's first half: each would end inside it.
                if end == text.len() {
                    break;
                }
                at = floor_boundary(text, at + MAX_MARKER_LEN);
                continue;
            };
            match self.at_with(text, m.start(), &mut caps) {
                Some((label, len)) => {
                    found.push((m.start(), label, len));
                    at = m.start() + len;
                }
                None => {
                    at = m.start() + text[m.start()..].chars().next().map_or(1, char::len_utf8);
                }
            }
        }
        found
    }
}

work_counter!();

/// `i`, or the char boundary before it, at most `text.len()`.
fn floor_boundary(text: &str, i: usize) -> usize {
    let mut end = i.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    end
}

/// Why the regex syntax refused a pattern, on one line: the reason and the character it
/// stands at (the crate's own message draws a caret under the pattern, over several lines).
fn syntax_reason(error: &regex_syntax::Error) -> String {
    let (reason, span) = match error {
        regex_syntax::Error::Parse(e) => (e.kind().to_string(), e.span()),
        regex_syntax::Error::Translate(e) => (e.kind().to_string(), e.span()),
        other => return other.to_string().lines().last().unwrap_or("").to_string(),
    };
    format!("{reason} at character {}", span.start.column)
}

/// Whether the pattern's capture group can only match empty text (`(\b)`, `x(|)`): a marker's
/// label would always be empty, so no marker is ever found. A pattern that does not parse
/// here was refused before.
fn label_is_always_empty(pattern: &str) -> bool {
    fn group(hir: &regex_syntax::hir::Hir) -> Option<&regex_syntax::hir::Hir> {
        use regex_syntax::hir::HirKind;
        match hir.kind() {
            HirKind::Capture(capture) => Some(&capture.sub),
            HirKind::Concat(all) | HirKind::Alternation(all) => all.iter().find_map(group),
            HirKind::Repetition(repetition) => group(&repetition.sub),
            _ => None,
        }
    }
    regex_syntax::Parser::new()
        .parse(pattern)
        .ok()
        .and_then(|hir| group(&hir).map(|sub| sub.properties().maximum_len() == Some(0)))
        .unwrap_or(false)
}

/// Where a marker starting at `i` must end by: the end of its line, and at most
/// `MAX_MARKER_LEN` bytes on.
fn window_end(text: &str, i: usize) -> usize {
    let end = floor_boundary(text, i + MAX_MARKER_LEN);
    text[i..end].find('\n').map_or(end, |k| i + k)
}

/// The labels (the group, split at commas and semicolons, each trimmed: `7, 12` is two) and the
/// match's length; none when the group holds no label.
fn label_of(text: &str, caps: &Captures) -> Option<(Vec<String>, usize)> {
    let m = caps.get_match()?;
    let group = caps.get_group(1)?;
    let labels: Vec<String> = text[group.range()]
        .split([',', ';'])
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    (!labels.is_empty() && m.end() > m.start()).then(|| (labels, m.end() - m.start()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_group_is_the_label() {
        let style = MarkerPattern::new(r"\{\{cite:(\w+)\}\}").expect("valid");
        let text = "It is tall {{cite:doc1}}. It is old {{cite: }} {{cite:x2}}.";
        let found = style.all(text);
        let labels: Vec<&str> = found.iter().map(|(_, l, _)| l[0].as_str()).collect();
        assert_eq!(labels, ["doc1", "x2"]);
        assert_eq!(&text[found[0].0..found[0].0 + found[0].2], "{{cite:doc1}}");
        assert_eq!(
            style.at(text, 11).map(|(l, _)| l),
            Some(vec!["doc1".to_string()])
        );
        assert_eq!(style.at(text, 10), None);
    }

    #[test]
    fn a_marker_does_not_span_lines_or_run_long() {
        let style = MarkerPattern::new(r"<<(.+?)>>").expect("valid");
        assert!(style.all("a <<one\ntwo>> b").is_empty());
        let long = format!("a <<{}>> b <<ok>>", "x".repeat(300));
        let labels: Vec<Vec<String>> = style.all(&long).into_iter().map(|(_, l, _)| l).collect();
        assert_eq!(labels, [["ok"]]);
    }

    #[test]
    fn long_matches_on_a_long_line_are_refused_in_linear_work() {
        // Every `<<` of the line starts a match that ends at the line's last `>>`, too far away
        // for a marker: searching the whole rest again after each refused one was quadratic.
        let style = MarkerPattern::new(r"<<(.+?)>>").expect("valid");
        let work = |n: usize| {
            let text = format!("{}>> <<ok>>", "<<x".repeat(n));
            looked_at_during(|| {
                let found = style.all(&text);
                // Only the last 256 bytes' `<<` are near enough to the first `>>`.
                assert!(found.len() < 100, "{}", found.len());
                assert_eq!(
                    found.last().map(|(_, l, _)| l.clone()),
                    Some(vec!["ok".to_string()])
                );
            })
        };
        let (small, large) = (work(1_000), work(4_000));
        assert!(large <= 5 * small, "{small} then {large} bytes: not linear");
        // A greedy pattern finds its marker within the window, as `at` does.
        let greedy = MarkerPattern::new(r"\[(\d+)\]").expect("valid");
        let labels: Vec<_> = greedy
            .all("a [1] b [22]")
            .into_iter()
            .map(|(_, l, _)| l)
            .collect();
        assert_eq!(labels, [["1"], ["22"]]);
    }

    #[test]
    fn patterns_that_cannot_name_a_label_are_refused() {
        for (pattern, reason) in [
            (r"\[\d+\]", "it has 0 capture groups"),
            (r"\[(\d+)(a)?\]", "it has 2 capture groups"),
            (r"(\d*)", "it matches the empty text"),
            (
                r"([",
                "it is no valid regular expression: unclosed character class at character 2",
            ),
            (r"(\b)", "its capture group can only hold empty text"),
            (r"a(\b)+", "its capture group can only hold empty text"),
            (r"a{2}(a{99999}){99999}", "it is larger than 1 MiB compiled"),
        ] {
            let err = MarkerPattern::new(pattern).expect_err(pattern);
            assert!(err.starts_with(reason), "{pattern}: {err}");
        }
    }
}
