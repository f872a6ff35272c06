//! Property tests (proptest) of the invariants the README promises: spans and line:column
//! positions, score ranges, determinism, input-format independence, markers that never become
//! numbers, numbers read by value, the batch record scanner, and quotation search.
//!
//! The generators build answers from fragments that exercise every stage at once (markers,
//! Markdown, numbers, quotations, multi-byte text, CRLF, a leading BOM). Case counts are kept
//! small enough that the whole file runs in a few seconds on a debug build; the properties that
//! run the binary use a handful of cases.

// Test programs: they may say what they skipped.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::Config as ProptestConfig;
use serde_json::{Value, json};

use ragcite::batch::scan::{RecordScanner, Scanned};
use ragcite::input::{self, AnswerFormat};
use ragcite::quote::QuoteSearch;
use ragcite::{Checker, Options, Report};

// The runner of the CLI tests; this file uses only part of it.
#[path = "cli/util.rs"]
#[allow(dead_code, reason = "tests/cli/ uses the rest")]
mod util;

/// `cases` cases (or `PROPTEST_CASES` when set, for a longer search), and no regression file
/// written next to the tests.
fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(cases);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

/// Pieces an answer is made of: words, terminators, markers, line breaks, Markdown, numbers,
/// quotations and multi-byte characters.
const FRAGMENTS: &[&str] = &[
    // words
    "The",
    "tower",
    "Paris",
    "iron",
    "lattice",
    "metres",
    "visitors",
    "engineer",
    "Gustave",
    "Eiffel",
    "built",
    "élan",
    "naïve",
    "東京タワー",
    "данные",
    "e.g.",
    "U.S.",
    "Dr.",
    "No.",
    "etc.",
    "J.",
    "example.com",
    "don't",
    // terminators
    ".",
    "!",
    "?",
    "。",
    "！",
    "...",
    "?!",
    // markers
    "[1]",
    "[2]",
    "[^2]",
    "【3】",
    "【4:0†source】",
    "(source: 1)",
    "(Source 2)",
    "[1-3]",
    "[1, 2]",
    "[doc2]",
    " ^1",
    "[citation needed]",
    "¹",
    "²,³",
    "¹⁻³",
    "<sup>1</sup>",
    "<sup>[2]</sup>",
    "m²",
    "10⁶",
    "\nSources:\n",
    "\n**References**\n",
    "\n[1] ",
    "\n¹ ",
    // line breaks
    "\n",
    "\r\n",
    "\n\n",
    // Markdown
    "- ",
    "\n- ",
    "# ",
    "\n# ",
    "```",
    "\n```\n",
    "[x](http://a.b)",
    "[1](http://a.b)",
    "![alt](img.png)",
    "> ",
    "\n    code",
    "<b>",
    "</b>",
    "<!-- c -->",
    "\n[^1]: a note",
    "http://example.com/a.",
    "`code`",
    "*",
    "| a | b |",
    "---",
    // numbers
    "1,083",
    "3.5%",
    "7 million",
    "1888",
    ".5",
    "12 percent",
    "2.1 bn",
    "5th",
    "10k",
    "1 083",
    // quotations
    "\"the iron tower\"",
    "“built by the engineer”",
    "«a b c»",
    "‘x y z’",
    "'",
    "\"",
    // multi-byte and odd characters
    "é",
    "😀",
    "\u{a0}",
    "\u{200b}",
    "e\u{301}",
    "\t",
    "(",
    ")",
    "]",
    "[",
];

/// An answer: fragments joined by nothing or a space, sometimes after a BOM. Never empty of
/// visible text (an empty answer is an input error, tested elsewhere).
fn answer_bytes() -> impl Strategy<Value = Vec<u8>> {
    (
        any::<bool>(),
        prop::collection::vec((select(FRAGMENTS), select(&["", " ", " ", " "][..])), 1..60),
    )
        .prop_map(|(bom, parts)| {
            let mut text = String::new();
            for (fragment, separator) in parts {
                text.push_str(fragment);
                text.push_str(separator);
            }
            let mut bytes = Vec::new();
            if bom {
                bytes.extend_from_slice(b"\xEF\xBB\xBF");
            }
            bytes.extend_from_slice(text.as_bytes());
            bytes
        })
        .prop_filter("the answer has printable text", |bytes| {
            std::str::from_utf8(bytes)
                .map(|t| !input::is_blank(t))
                .unwrap_or(false)
        })
}

const CHUNK_WORDS: &[&str] = &[
    "the",
    "tower",
    "Paris",
    "iron",
    "lattice",
    "metres",
    "visitors",
    "engineer",
    "Gustave",
    "Eiffel",
    "built",
    "1,083",
    "1888",
    "3.5%",
    "7",
    "million",
    "élan",
    "東京タワー",
    "by",
    "the",
    "\"quoted",
    "words\"",
    "—",
    "river",
    "Seine",
];

/// A chunk's text: a run of chunk words.
fn chunk_text() -> impl Strategy<Value = String> {
    prop::collection::vec(select(CHUNK_WORDS), 0..25).prop_map(|words| words.join(" "))
}

/// Chunks as (id, text) pairs with distinct ids.
fn chunk_list() -> impl Strategy<Value = Vec<(String, String)>> {
    prop::collection::vec(chunk_text(), 1..6).prop_map(|texts| {
        texts
            .into_iter()
            .enumerate()
            .map(|(k, text)| {
                let id = if k % 2 == 0 {
                    format!("{}", k + 1)
                } else {
                    format!("doc{}", k + 1)
                };
                (id, text)
            })
            .collect()
    })
}

/// Chunks written as a JSON array, with the keys in the order given.
fn chunks_json(chunks: &[(String, String)], text_first: bool, pretty: bool) -> String {
    let items: Vec<String> = chunks
        .iter()
        .map(|(id, text)| {
            let id = serde_json::to_string(id).unwrap();
            let text = serde_json::to_string(text).unwrap();
            match (text_first, pretty) {
                (true, false) => format!("{{\"text\":{text},\"id\":{id}}}"),
                (false, false) => format!("{{\"id\":{id},\"text\":{text}}}"),
                (true, true) => format!("  {{\n    \"text\": {text},\n    \"id\": {id}\n  }}"),
                (false, true) => format!("  {{\n    \"id\" :  {id} ,\n\t\"text\":{text}\n  }}"),
            }
        })
        .collect();
    if pretty {
        format!("[\n{}\n]\n", items.join(",\n"))
    } else {
        format!("[{}]", items.join(","))
    }
}

fn check(answer_bytes: &[u8], chunks: &[(String, String)]) -> Report {
    let answer = input::read_answer(answer_bytes, Some(AnswerFormat::Text)).expect("answer reads");
    let chunks = input::read_chunks(chunks_json(chunks, false, false).as_bytes(), true)
        .expect("chunks read");
    Checker::new(Options::default()).check(&answer, &chunks)
}

/// 1-based line and column (in characters) of byte `at` of `text`.
fn line_column(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |k| k + 1);
    (line, before[line_start..].chars().count() + 1)
}

// ---------------------------------------------------------------------------------------------
// Spans, positions, scores, verdicts, determinism (library)
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(256))]

    /// Every span lies inside the answer as given, slices to the sentence, and its line:column
    /// positions agree with the text; sentences come in order and do not overlap.
    #[test]
    fn spans_slice_to_the_sentence_and_positions_agree(
        bytes in answer_bytes(),
        chunks in chunk_list(),
    ) {
        let report = check(&bytes, &chunks);
        let bom = if bytes.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
        let text = std::str::from_utf8(&bytes[bom..]).unwrap();
        let mut previous_end = 0;
        for s in &report.result.sentences {
            let (start, end) = (s.span.start, s.span.end);
            prop_assert!(start < end, "empty span {start}..{end} for {:?}", s.sentence);
            prop_assert!(end <= bytes.len(), "span {start}..{end} past {} bytes", bytes.len());
            prop_assert!(start >= bom, "span {start}..{end} starts inside the BOM");
            prop_assert!(start >= previous_end, "span {start}..{end} overlaps the one before");
            previous_end = end;
            let slice = std::str::from_utf8(&bytes[start..end]);
            prop_assert!(slice.is_ok(), "span {start}..{end} cuts a character");
            prop_assert_eq!(slice.unwrap(), s.sentence.as_str());
            prop_assert!(!s.sentence.contains('\n') && !s.sentence.ends_with('\r'),
                "a sentence holds a line break: {:?}", s.sentence);
            let (line, column) = line_column(text, start - bom);
            prop_assert_eq!((s.start.line, s.start.column), (line, column),
                "start of {:?} at bytes {}..{}", s.sentence, start, end);
            let (line, column) = line_column(text, end - bom);
            prop_assert_eq!((s.end.line, s.end.column), (line, column),
                "end of {:?} at bytes {}..{}", s.sentence, start, end);
        }
    }

    /// Scores lie in [0, 1], verdicts are the seven of the README, counts add up.
    #[test]
    fn scores_are_in_range_and_verdicts_are_known(
        bytes in answer_bytes(),
        chunks in chunk_list(),
    ) {
        let report = check(&bytes, &chunks);
        let json = serde_json::to_value(&report.result).unwrap();
        const VERDICTS: [&str; 8] = [
            "supported", "contradicted", "number-mismatch", "misquote", "weak-support",
            "unsupported-citation", "uncited-claim", "no-claim",
        ];
        let in_unit = |v: &Value| v.as_f64().is_some_and(|x| (0.0..=1.0).contains(&x));
        for s in json["sentences"].as_array().unwrap() {
            prop_assert!(VERDICTS.contains(&s["verdict"].as_str().unwrap()), "{}", s["verdict"]);
            prop_assert!(in_unit(&s["coverage"]), "coverage {}", s["coverage"]);
            prop_assert!(in_unit(&s["bestCoverage"]), "bestCoverage {}", s["bestCoverage"]);
            for q in s["quotes"].as_array().unwrap() {
                if !q["closest"].is_null() {
                    prop_assert!(in_unit(&q["closest"]["similarity"]), "similarity {}", q);
                }
            }
        }
        for c in json["chunks"].as_array().unwrap() {
            prop_assert!(in_unit(&c["bestCoverage"]), "chunk bestCoverage {}", c["bestCoverage"]);
        }
        for s in &report.result.sentences {
            prop_assert!((0.0..=1.0).contains(&s.coverage));
            prop_assert!((0.0..=1.0).contains(&s.best_coverage));
            for q in &s.quotes {
                if let Some(closest) = &q.result.closest {
                    prop_assert!((0.0..=1.0).contains(&closest.similarity));
                }
            }
        }
        let counts = &report.result.counts;
        prop_assert_eq!(counts.sentences, report.result.sentences.len());
        prop_assert_eq!(
            counts.supported + counts.number_mismatch + counts.weak_support
                + counts.unsupported_citation + counts.misquote + counts.contradicted
                + counts.uncited_claim + counts.no_claim,
            counts.sentences
        );
    }

    /// The chunk that decided is one the sentence cites; each cited chunk is judged once, in
    /// order; the words only one citation holds are its own and never missing; a finding
    /// agrees with the citation's support; a contradiction names a cited chunk and the words
    /// its span holds.
    #[test]
    fn deciding_and_cited_chunks_agree_with_the_citations(
        bytes in answer_bytes(),
        chunks in chunk_list(),
    ) {
        use ragcite::report::CitationFinding;
        let report = check(&bytes, &chunks);
        let text_of = |id: &str| chunks.iter().find(|(i, _)| i == id).map(|(_, t)| t.clone());
        for s in &report.result.sentences {
            if let Some(deciding) = &s.deciding_chunk {
                prop_assert!(s.cited.contains(deciding), "{deciding} not in {:?}", s.cited);
            }
            if !s.cited_chunks.is_empty() {
                let judged: Vec<&String> = s.cited_chunks.iter().map(|c| &c.chunk).collect();
                let cited: Vec<&String> = s.cited.iter().collect();
                prop_assert_eq!(judged, cited);
            }
            let mut owned = std::collections::HashSet::new();
            for c in &s.cited_chunks {
                prop_assert!((0.0..=1.0).contains(&c.support));
                for word in &c.adds {
                    prop_assert!(owned.insert(word.clone()), "{word} added by two citations");
                    prop_assert!(!s.missing_words.contains(word), "{word} both held and missing");
                }
                match c.finding {
                    CitationFinding::Supports => prop_assert!(c.support >= 0.5 - 1e-9),
                    CitationFinding::AddsNothing => {
                        prop_assert!(c.support < 0.5 && c.adds.is_empty())
                    }
                    CitationFinding::Partly => prop_assert!(c.support < 0.5),
                }
            }
            if let Some(found) = &s.contradiction {
                prop_assert!(s.cited.contains(&found.chunk));
                prop_assert_eq!(s.verdict, ragcite::Verdict::Contradicted);
                let text = text_of(&found.chunk).unwrap_or_default();
                let span = found.chunk_span.start..found.chunk_span.end;
                prop_assert_eq!(text.get(span), Some(found.chunk_words.as_str()));
            }
        }
    }

    /// Checking twice, with the same checker or a new one, gives equal reports.
    #[test]
    fn checking_is_deterministic(bytes in answer_bytes(), chunks in chunk_list()) {
        let answer = input::read_answer(&bytes, Some(AnswerFormat::Text)).unwrap();
        let chunks = input::read_chunks(chunks_json(&chunks, false, false).as_bytes(), true)
            .unwrap();
        let checker = Checker::new(Options::default());
        let first = checker.check(&answer, &chunks);
        let again = checker.check(&answer, &chunks);
        let fresh = Checker::new(Options::default()).check(&answer, &chunks);
        prop_assert_eq!(&first, &again);
        prop_assert_eq!(&first, &fresh);
        prop_assert_eq!(
            serde_json::to_string(&first.result).unwrap(),
            serde_json::to_string(&fresh.result).unwrap()
        );
    }

    /// The order of a chunk's keys, white space and pretty-printing do not change the result;
    /// neither does writing the same chunks as JSON Lines.
    #[test]
    fn chunk_key_order_and_white_space_do_not_matter(
        bytes in answer_bytes(),
        chunks in chunk_list(),
    ) {
        let answer = input::read_answer(&bytes, Some(AnswerFormat::Text)).unwrap();
        let checker = Checker::new(Options::default());
        let result_of = |text: &str| {
            let chunks = input::read_chunks(text.as_bytes(), true).expect("chunks read");
            serde_json::to_value(checker.check(&answer, &chunks).result).unwrap()
        };
        let reference = result_of(&chunks_json(&chunks, false, false));
        for (text_first, pretty) in [(true, false), (false, true), (true, true)] {
            let other = result_of(&chunks_json(&chunks, text_first, pretty));
            prop_assert_eq!(&reference, &other, "text first {}, pretty {}", text_first, pretty);
        }
        let lines: String = chunks
            .iter()
            .map(|(id, text)| format!("{}\n", json!({"text": text, "id": id})))
            .collect();
        let from_lines = result_of(&lines);
        prop_assert_eq!(&reference, &from_lines, "JSON Lines");
    }
}

// ---------------------------------------------------------------------------------------------
// Markers never produce numbers; numbers compare by value
// ---------------------------------------------------------------------------------------------

/// Markers whose labels are numbers that never appear in the prose of a sentence.
const NUMBERED_MARKERS: &[&str] = &[
    "[7]",
    "[77]",
    "[7-9]",
    "[7, 77]",
    "[7; 777]",
    "[^7]",
    "[^77]",
    "【7】",
    "【77:0†source】",
    "(source: 7)",
    "(sources: 7, 77)",
    "(Source 777)",
    "[Source 7]",
    "[source: 77]",
    "[doc7]",
    "[2020]",
    "^7",
    "[777][7]",
    "⁷",
    "⁷⁷",
    "⁷,⁷⁷",
    "⁷⁻⁹",
    "<sup>7</sup>",
    "<sup>[7]</sup>",
    "<sup>7, 77</sup>",
];

/// Numbers as written in prose; none of them holds the digit 7.
const PROSE_NUMBERS: &[&str] = &[
    "42",
    "1,083",
    "3.5%",
    "12 percent",
    "2 million",
    "1888",
    "0.25",
    "10,000,000",
    "6 per cent",
    "2.1 bn",
    "5th",
    "1990s",
    "30k",
];

/// Words that are neither scale words nor number endings.
const PROSE_WORDS: &[&str] = &[
    "tower", "Paris", "iron", "visitors", "engineer", "river", "élan", "city", "data",
];

#[derive(Debug, Clone)]
enum Token {
    Word(&'static str),
    Number(&'static str),
    Marker(&'static str),
}

/// One sentence's tokens: a word first, never two numbers in a row (`5 123` would be one
/// number), and a caret marker only after a space.
fn sentence_tokens() -> impl Strategy<Value = Vec<Token>> {
    let token = prop_oneof![
        select(PROSE_WORDS).prop_map(Token::Word),
        select(PROSE_NUMBERS).prop_map(Token::Number),
        select(NUMBERED_MARKERS).prop_map(Token::Marker),
    ];
    (select(PROSE_WORDS), prop::collection::vec(token, 1..12)).prop_map(|(first, rest)| {
        let mut tokens = vec![Token::Word(first)];
        for token in rest {
            if matches!(token, Token::Number(_)) && matches!(tokens.last(), Some(Token::Number(_)))
            {
                tokens.push(Token::Word("city"));
            }
            tokens.push(token);
        }
        tokens
    })
}

proptest! {
    #![proptest_config(config(256))]

    /// `checkWorthy` holds exactly the numbers written in the prose, in order: no number comes
    /// from inside a marker, whatever the marker's form.
    #[test]
    fn markers_never_produce_numbers(
        sentences in prop::collection::vec(sentence_tokens(), 1..6),
        marker_at_end in prop::collection::vec(select(NUMBERED_MARKERS), 6),
    ) {
        let mut answer = String::new();
        let mut expected = Vec::new();
        for (k, tokens) in sentences.iter().enumerate() {
            let mut numbers = Vec::new();
            let words: Vec<&str> = tokens
                .iter()
                .map(|t| match t {
                    Token::Word(w) => *w,
                    Token::Number(n) => {
                        numbers.push(n.to_string());
                        *n
                    }
                    Token::Marker(m) => m,
                })
                .collect();
            answer.push_str(&words.join(" "));
            answer.push_str(" .");
            answer.push_str(marker_at_end[k]);
            answer.push('\n');
            expected.push(numbers);
        }
        let chunks = vec![("7".to_string(), "tower 42".to_string())];
        let report = check(answer.as_bytes(), &chunks);
        let found: Vec<Vec<String>> = report
            .result
            .sentences
            .iter()
            .map(|s| s.check_worthy.clone())
            .collect();
        prop_assert_eq!(found, expected, "answer:\n{}", answer);
        for s in &report.result.sentences {
            for n in &s.check_worthy {
                prop_assert!(!n.contains('7'), "{n:?} came from a marker in {:?}", s.sentence);
            }
        }
    }

    /// A day written in ISO form and as `Month D, YYYY` or `D Month YYYY` is the same date:
    /// the ISO number's value is a value the written date's day and year are found by.
    #[test]
    fn a_date_is_the_same_day_in_every_form(year in 1000u32..3000, month in 1usize..=12, day in 1u32..=28) {
        const NAMES: [&str; 12] = ["January", "February", "March", "April", "May", "June", "July",
            "August", "September", "October", "November", "December"];
        let iso = ragcite::words::numbers(&format!("on {year:04}-{month:02}-{day:02}."));
        prop_assert_eq!(iso.len(), 1);
        let name = NAMES[month - 1];
        for written in [format!("on {name} {day}, {year}."), format!("on {day} {name} {year}.")] {
            let found = ragcite::words::numbers(&written);
            prop_assert_eq!(found.len(), 2, "{}", written);
            for number in &found {
                prop_assert!(number.also.contains(&iso[0].value), "{} {:?}", written, number);
            }
        }
        let slashed = ragcite::words::numbers(&format!("on {day:02}/{month:02}/{year:04}"));
        prop_assert!(
            slashed[0].value == iso[0].value || slashed[0].also.contains(&iso[0].value),
            "{:?}", slashed
        );
    }

    /// Any text: numbers and chunk numbers are read without panic, in order, within the text.
    #[test]
    fn numbers_of_any_text(text in "[0-9a-zA-Z .,:/%$`=_@-]{0,80}|\\PC{0,40}") {
        use ragcite::words::Decimal;
        for decimal in [Decimal::Point, Decimal::Comma] {
            let found = ragcite::words::numbers_in(&text, decimal);
            let mut end = 0;
            for n in &found {
                prop_assert!(n.span.start >= end && n.span.end <= text.len(), "{:?}", found);
                prop_assert_eq!(&text[n.span.clone()], n.text.as_str());
                end = n.span.end;
            }
            let _ = ragcite::words::chunk_numbers(&text, decimal);
        }
        let _ = ragcite::words::detect(&text, [text.as_str()], ragcite::Language::English);
    }

    /// With a decimal comma, `.` and space thousands groups and a currency word or sign do not
    /// change an amount's value: `1.250,50 €` = `1250,50 Euro` = `1 250,50 €`.
    #[test]
    fn decimal_comma_amounts_compare_by_value(n in 0u64..10_000_000_000, cents in 0u32..100) {
        use ragcite::words::{Decimal, numbers_in};
        let plain = n.to_string();
        let value = |text: &str| numbers_in(text, Decimal::Comma)[0].value.clone();
        let bare = value(&format!("{plain},{cents:02} Euro"));
        let dotted = value(&format!("{},{cents:02} €", group_thousands(&plain, ".")));
        let spaced = value(&format!("{},{cents:02} €", group_thousands(&plain, "\u{202f}")));
        prop_assert_eq!(&bare, &dotted);
        prop_assert_eq!(&bare, &spaced);
    }

    /// Chinese, Japanese and Korean text with ASCII and full-width digits: numbers lie on
    /// character boundaries, in order, as written; content words are read without panic.
    #[test]
    fn numbers_and_words_of_cjk_text(
        text in "[0-9０-９．。年月日万億米のはタワー东京富士山서울에서 .%％-]{0,60}"
    ) {
        let found = ragcite::words::numbers(&text);
        let mut end = 0;
        for n in &found {
            prop_assert!(n.span.start >= end && n.span.end <= text.len(), "{:?}", found);
            prop_assert_eq!(&text[n.span.clone()], n.text.as_str());
            end = n.span.end;
        }
        let _ = ragcite::words::chunk_numbers(&text, ragcite::words::Decimal::Point);
        for lang in [ragcite::Language::Chinese, ragcite::Language::Japanese, ragcite::Language::Korean] {
            let words = ragcite::words::Analyzer::new(lang).content_words(&text, &found);
            prop_assert!(words.iter().all(|w| !w.surface.is_empty()));
        }
    }

    /// Thousands separators, percent signs and percent words do not change a number's value.
    #[test]
    fn numbers_compare_by_value(n in 0u64..10_000_000_000_000, fraction in 0u32..100) {
        let plain = n.to_string();
        let grouped = group_thousands(&plain, ",");
        let spaced = group_thousands(&plain, "\u{a0}");
        let value_of = |text: &str| {
            let found = ragcite::words::numbers(text);
            assert_eq!(found.len(), 1, "{text:?} gives {found:?}");
            found[0].value.clone()
        };
        let value = value_of(&plain);
        prop_assert_eq!(&value_of(&grouped), &value, "{}", grouped);
        prop_assert_eq!(&value_of(&spaced), &value, "{:?}", spaced);
        prop_assert_eq!(&value_of(&format!("{plain}.000")), &value);
        prop_assert_eq!(&value_of(&format!("0{plain}")), &value);
        let decimal = format!("{plain}.{fraction:02}");
        let percent = value_of(&decimal);
        for form in ["%", " %", " percent", " per cent", " percentage points"] {
            let text = format!("{decimal}{form}");
            prop_assert_eq!(&value_of(&text), &percent, "{}", text);
            let text = format!("{grouped}.{fraction:02}{form}");
            prop_assert_eq!(&value_of(&text), &percent, "{}", text);
        }
        // Scale words multiply: `n million` is `n,000,000`.
        if n < 1_000_000 {
            let million = format!("{}", u128::from(n) * 1_000_000);
            prop_assert_eq!(
                value_of(&format!("{plain} million")),
                value_of(&group_thousands(&million, ","))
            );
            prop_assert_eq!(value_of(&format!("{plain}k")), value_of(&format!("{plain}000")));
        }
    }
}

/// `1234567` with `sep` → `1<sep>234<sep>567`.
fn group_thousands(digits: &str, sep: &str) -> String {
    let mut out = String::new();
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push_str(sep);
        }
        out.push(c);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The record scanner
// ---------------------------------------------------------------------------------------------

/// A JSON value with strings that stress the scanner: quotes, backslashes, brackets, braces,
/// commas, line breaks (escaped by JSON), and multi-byte characters.
fn json_value() -> impl Strategy<Value = Value> {
    let string = prop::collection::vec(
        select(
            &[
                "a", "b", " ", "\"", "\\", "[", "]", "{", "}", ",", ":", "\n", "\r\n", "é", "😀",
                "\\\"", "\"]", "}\n{", "\t", "\u{0}", "\u{2028}",
            ][..],
        ),
        0..8,
    )
    .prop_map(|parts| parts.concat());
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        // Binary fractions only: serde_json does not round-trip every float exactly.
        (-4000i32..4000).prop_map(|n| Value::from(f64::from(n) / 8.0)),
        string.clone().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 5, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((string.clone(), inner), 0..5)
                .prop_map(|pairs| Value::Object(pairs.into_iter().collect())),
        ]
    })
}

/// A record: an object with an answer and some other fields, none of them a key that would
/// make it a container of records.
fn record() -> impl Strategy<Value = Value> {
    (
        prop::collection::vec(
            (
                select(&["id", "answer", "contexts", "x", "é"][..]),
                json_value(),
            ),
            0..4,
        ),
        "[a-z \\[\\]{}\"]{0,12}",
    )
        .prop_map(|(fields, answer)| {
            let mut object = serde_json::Map::new();
            object.insert("answer".to_string(), Value::String(answer));
            for (key, value) in fields {
                object.insert(key.to_string(), value);
            }
            Value::Object(object)
        })
}

/// Writes the records as JSON Lines (with blank lines between some), returning the text and the
/// line each record starts on.
fn as_json_lines(records: &[Value], blank_after: &[bool]) -> (String, Vec<usize>) {
    let mut text = String::new();
    let mut lines = Vec::new();
    let mut line = 1;
    for (k, record) in records.iter().enumerate() {
        lines.push(line);
        text.push_str(&serde_json::to_string(record).unwrap());
        text.push('\n');
        line += 1;
        if blank_after.get(k).copied().unwrap_or(false) {
            text.push_str("  \n");
            line += 1;
        }
    }
    (text, lines)
}

/// Writes the records inside `open … close` with one record per `separator`, pretty or
/// compact; returns the text and the line each record starts on.
fn as_array(records: &[Value], open: &str, close: &str, pretty: bool) -> (String, Vec<usize>) {
    let mut text = String::from(open);
    let mut lines = Vec::new();
    for (k, record) in records.iter().enumerate() {
        if k > 0 {
            text.push(',');
        }
        if pretty {
            text.push_str("\n  ");
        }
        lines.push(text.matches('\n').count() + 1);
        let written = if pretty {
            serde_json::to_string_pretty(record).unwrap()
        } else {
            serde_json::to_string(record).unwrap()
        };
        text.push_str(&written);
    }
    if pretty {
        text.push('\n');
    }
    text.push_str(close);
    if pretty {
        text.push('\n');
    }
    (text, lines)
}

fn scan(text: &str, force_lines: bool) -> Result<Vec<(usize, Value)>, String> {
    let mut found = Vec::new();
    for item in RecordScanner::new(text.as_bytes(), force_lines) {
        match item {
            Ok(Scanned::Record(raw)) => {
                let value: Value = serde_json::from_slice(&raw.bytes)
                    .map_err(|e| format!("record at line {} does not parse: {e}", raw.line))?;
                found.push((raw.line, value));
            }
            Ok(Scanned::Bad { line, message }) => return Err(format!("bad {line}: {message}")),
            Err(e) => return Err(format!("stopped: {e}")),
        }
    }
    Ok(found)
}

proptest! {
    #![proptest_config(config(128))]

    /// JSON Lines, a JSON array (pretty and compact) and `{"samples": [...]}` (on one line and
    /// over several) yield the same records, each with the line it starts on.
    #[test]
    fn the_record_scanner_reads_every_layout_alike(
        records in prop::collection::vec(record(), 1..8),
        blank_after in prop::collection::vec(any::<bool>(), 8),
    ) {
        let expect = |lines: &[usize]| -> Vec<(usize, Value)> {
            lines.iter().copied().zip(records.iter().cloned()).collect()
        };
        let (text, lines) = as_json_lines(&records, &blank_after);
        prop_assert_eq!(scan(&text, false), Ok(expect(&lines)), "JSON Lines:\n{}", text);
        prop_assert_eq!(scan(&text, true), Ok(expect(&lines)), "forced JSON Lines:\n{}", text);
        let layouts = [
            ("[", "]", false),
            ("[", "]", true),
            ("{\"samples\": [", "]}", false),
            ("{\n  \"samples\": [", "]\n}", true),
            ("{\"name\": \"run\", \"results\": {\"results\": [", "]}}", false),
            ("{\n\"goldens\":\n[", "]}", true),
        ];
        for (open, close, pretty) in layouts {
            let (text, lines) = as_array(&records, open, close, pretty);
            prop_assert_eq!(scan(&text, false), Ok(expect(&lines)), "layout:\n{}", text);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Quotations
// ---------------------------------------------------------------------------------------------

/// Document words: letters (some multi-byte, all with a clean case round trip), digits, and
/// punctuation at their ends; never the letter `q`, which the changed word uses.
fn doc_word() -> impl Strategy<Value = String> {
    (
        "[a-pr-zéüñøжλ0-9]{1,8}",
        select(&["", "", "", ",", ".", ";", ")", "'s", "!"][..]),
        select(&["", "", "", "(", "\""][..]),
    )
        .prop_map(|(core, after, before)| format!("{before}{core}{after}"))
}

fn document() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(doc_word(), 1..80)
}

/// Joins words with varied white space.
fn join_with(words: &[String], gaps: &[&str]) -> String {
    let mut text = String::new();
    for (k, word) in words.iter().enumerate() {
        if k > 0 {
            text.push_str(gaps[k % gaps.len()]);
        }
        text.push_str(word);
    }
    text
}

proptest! {
    #![proptest_config(config(256))]

    /// A run of whole words taken from a document is found, also after case and white-space
    /// changes; with one word changed to a word the document lacks, it is not found, and the
    /// closest passage has a similarity in [0, 1].
    #[test]
    fn a_quote_taken_from_the_document_is_found(
        words in document(),
        doc_gaps in prop::collection::vec(select(&[" ", " ", "  ", "\n", " \t", "\u{a0}"][..]), 1..5),
        start in any::<prop::sample::Index>(),
        len in 1usize..20,
        change in any::<prop::sample::Index>(),
        quote_gaps in prop::collection::vec(select(&[" ", "   ", "\n", "\t", "\r\n", "\u{a0}", " \u{2009}"][..]), 1..5),
        upper in any::<bool>(),
    ) {
        let document = join_with(&words, &doc_gaps);
        let search = QuoteSearch::new(&document);
        let start = start.index(words.len());
        let end = (start + len).min(words.len());
        let run = &words[start..end];

        let quote = run.join(" ");
        let found = search.find(&quote);
        prop_assert!(found.found, "{:?} not found in {:?}", quote, document);
        let [from, to] = found.byte_offsets.unwrap();
        prop_assert!(from < to && to <= document.len());
        let [c_from, c_to] = found.offsets.unwrap();
        prop_assert_eq!(c_from, document[..from].chars().count());
        prop_assert_eq!(c_to, document[..to].chars().count());

        let spaced = join_with(run, &quote_gaps);
        let cased = if upper { spaced.to_uppercase() } else { spaced.to_lowercase() };
        for variant in [&spaced, &cased, &format!("  {cased}\n")] {
            prop_assert!(search.find(variant).found, "{:?} not found in {:?}", variant, document);
        }

        let mut changed = run.to_vec();
        let k = change.index(changed.len());
        changed[k] = "qqquq".to_string();
        let changed = changed.join(" ");
        let missed = search.find(&changed);
        prop_assert!(!missed.found, "{:?} found in {:?}", changed, document);
        if let Some(closest) = missed.closest {
            prop_assert!((0.0..=1.0).contains(&closest.similarity), "{}", closest.similarity);
            prop_assert!(closest.differing_words >= 1);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The binary: byte-identical JSON, standard input equals a file
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(8))]

    /// Two runs of `check --format json` write the same bytes; reading the answer or the
    /// chunks from standard input gives the same `result` as reading them from files.
    #[test]
    fn the_binary_is_deterministic_and_stdin_equals_a_file(
        bytes in answer_bytes(),
        chunks in chunk_list(),
    ) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("answer.md"), &bytes).unwrap();
        let chunks_text = chunks_json(&chunks, true, true);
        std::fs::write(dir.path().join("chunks.json"), &chunks_text).unwrap();
        let check = |answer: &str, chunks: &str| {
            util::ragcite(["check", answer, chunks, "--format", "json"]).in_dir(dir.path())
        };
        let first = check("answer.md", "chunks.json").output();
        let second = check("answer.md", "chunks.json").output();
        prop_assert!(matches!(first.code, Some(0 | 1)), "exit {:?}: {}", first.code, first.stderr);
        prop_assert_eq!(&first, &second);
        let from_file = first.json();

        let answer_stdin = check("-", "chunks.json").stdin(bytes.clone()).output();
        prop_assert_eq!(answer_stdin.code, first.code, "{}", answer_stdin.stderr);
        let doc = answer_stdin.json();
        prop_assert_eq!(&doc["result"], &from_file["result"]);
        prop_assert_eq!(&doc["inputs"]["answer"]["path"], "<stdin>");

        let chunks_stdin = check("answer.md", "-").stdin(chunks_text.clone()).output();
        prop_assert_eq!(chunks_stdin.code, first.code, "{}", chunks_stdin.stderr);
        let doc = chunks_stdin.json();
        prop_assert_eq!(&doc["result"], &from_file["result"]);
    }
}

// ---------------------------------------------------------------------------------------------
// Contradictions: a copied sentence is never contradicted; arbitrary text never panics
// ---------------------------------------------------------------------------------------------

/// A word of a small vocabulary with negations, antonyms, quantifiers and figures, so that
/// generated sentences often negate, reverse and limit each other.
fn claim_word() -> impl Strategy<Value = &'static str> {
    select(vec![
        "the",
        "bridge",
        "tower",
        "opened",
        "closed",
        "not",
        "no",
        "never",
        "only",
        "all",
        "none",
        "rose",
        "fell",
        "increased",
        "decreased",
        "higher",
        "lower",
        "before",
        "after",
        "without",
        "cannot",
        "didn't",
        "plan",
        "Enterprise",
        "Pro",
        "available",
        "unavailable",
        "in",
        "2022",
        "2023",
        "from",
        "to",
        "12.1%",
        "14.3%",
        "spring",
        "lock",
        "exclusive",
        ",",
    ])
}

fn claim_sentence() -> impl Strategy<Value = String> {
    prop::collection::vec(claim_word(), 2..14).prop_map(|words| format!("{}.", words.join(" ")))
}

proptest! {
    #![proptest_config(config(64))]

    /// A sentence copied from the chunk it cites is never `contradicted`, whatever the chunk's
    /// other sentences say.
    #[test]
    fn a_sentence_copied_from_its_chunk_is_never_contradicted(
        sentences in prop::collection::vec(claim_sentence(), 1..6),
        pick in any::<prop::sample::Index>(),
    ) {
        let copied = pick.get(&sentences).clone();
        let chunk = sentences.join(" ");
        let answer = format!("{} [1]", copied.trim_end_matches('.'));
        let report = check(answer.as_bytes(), &[("1".to_string(), chunk.clone())]);
        for sentence in &report.result.sentences {
            prop_assert!(
                sentence.verdict != ragcite::report::Verdict::Contradicted,
                "{answer:?} against {chunk:?}: {:?}",
                sentence.contradiction
            );
        }
    }

    /// Arbitrary answers against arbitrary chunks: no panic, and a contradiction's span is the
    /// chunk's words it shows.
    #[test]
    fn contradictions_on_arbitrary_text_do_not_panic(
        sentences in prop::collection::vec(claim_sentence(), 1..4),
        chunks in chunk_list(),
        text in chunk_text(),
    ) {
        let answer = sentences.iter().map(|s| format!("{s} [1]")).collect::<Vec<_>>().join(" ");
        let mut chunks: Vec<(String, String)> = chunks.into_iter().filter(|c| c.0 != "1").collect();
        chunks.insert(0, ("1".to_string(), format!("{text} {}", sentences.join(" "))));
        let report = check(answer.as_bytes(), &chunks);
        for sentence in &report.result.sentences {
            if let Some(found) = &sentence.contradiction {
                let chunk = &chunks.iter().find(|c| c.0 == found.chunk).unwrap().1;
                prop_assert_eq!(
                    chunk.get(found.chunk_span.start..found.chunk_span.end),
                    Some(found.chunk_words.as_str())
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Format profiles and the path language
// ---------------------------------------------------------------------------------------------

/// A JSON document built from the keys the built-in profiles look for, with offsets, texts and
/// lists in every place: the shapes that come close to a profile's without being one.
fn profile_document() -> impl Strategy<Value = Value> {
    let key = select(
        &[
            "answer",
            "summary",
            "text",
            "content",
            "message",
            "response",
            "citations",
            "sources",
            "references",
            "results",
            "search_results",
            "data",
            "chunks",
            "id",
            "url",
            "position",
            "start",
            "end",
            "startIndex",
            "endIndex",
            "beginOffset",
            "endOffset",
            "snippets",
            "reference_id",
            "answerText",
            "referenceId",
            "context",
            "reasoning",
            "type",
            "systemMessage",
            "textResponse",
            "generated_answer",
            "context_data",
        ][..],
    );
    let text = select(
        &[
            "The tower is 330 metres tall [1].",
            "[ID:0] ##1$$ [ref_id:2] [9df41c6] [CONTEXT 0]",
            "[Data: Sources (7, 12); Entities (1)]",
            "é😀\u{2028}",
            "",
            "12",
            "-3",
            "99999999999999999999",
        ][..],
    )
    .prop_map(|s| Value::String(s.to_string()));
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-5i64..400).prop_map(Value::from),
        Just(Value::from(u64::MAX)),
        text,
    ];
    leaf.prop_recursive(5, 48, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((key.clone(), inner), 0..6).prop_map(|pairs| {
                Value::Object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
            }),
        ]
    })
}

proptest! {
    #![proptest_config(config(256))]

    /// Any document, read by every built-in profile: no panic; whatever reads, its citations'
    /// spans lie inside the answer on character boundaries, and a detected format is one whose
    /// conditions all hold.
    #[test]
    fn every_profile_reads_any_document_without_panic(document in profile_document()) {
        let text = document.to_string();
        for format in AnswerFormat::every() {
            if let Ok(answer) = input::read_answer(text.as_bytes(), Some(format)) {
                for citation in &answer.citations {
                    if let Some(span) = &citation.span {
                        prop_assert!(span.start < span.end && span.end <= answer.text.len());
                        prop_assert!(answer.text.is_char_boundary(span.start));
                        prop_assert!(answer.text.is_char_boundary(span.end));
                    }
                }
            }
        }
        for candidate in input::response::candidates(&document) {
            if let AnswerFormat::Profile(profile) = candidate.format {
                prop_assert_eq!(profile.0.score(&document), Some(candidate.score));
            }
        }
    }

    /// Any text as a path or a template: parsed or refused, never a panic; a path that parses
    /// selects from any document without a panic, and prints as it was written.
    #[test]
    fn paths_parse_or_are_refused(
        parts in prop::collection::vec(
            select(&["a", ".", "[", "]", "[]", "[0]", "[-1]", "[?", "=", "^", "*", "@", "\"",
                     "[$key]", "{", "}", "b.c", "é"][..]),
            0..12,
        ),
        document in profile_document(),
    ) {
        use ragcite::input::path::{Budget, Found, Path, Template};
        let text = parts.concat();
        let budget = Budget::new(&document);
        if let Ok(path) = Path::parse(&text) {
            prop_assert_eq!(path.to_string(), text.trim());
            let _ = path.select(&Found::root(&document, &budget));
        }
        if let Ok(template) = Template::parse(&text) {
            let _ = template.render(&Found::root(&document, &budget));
        }
    }
}
