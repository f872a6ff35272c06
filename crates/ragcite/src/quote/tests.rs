use super::marks::*;
use super::normalise::*;
use super::search::*;
use super::words::*;
use super::*;

fn found(document: &str, quote: &str) -> QuoteMatch {
    QuoteSearch::new(document).find(quote)
}

/// The character offsets of `needle`'s first occurrence in `haystack`.
fn char_span(haystack: &str, needle: &str) -> [usize; 2] {
    let start = haystack.find(needle).expect("needle in haystack");
    let chars = haystack[..start].chars().count();
    [chars, chars + needle.chars().count()]
}

fn assert_found_at(document: &str, quote: &str, passage: &str) {
    let m = found(document, quote);
    assert!(m.found, "{quote:?} not found in {document:?}: {m:?}");
    let start = document.find(passage).expect("passage in document");
    assert_eq!(m.byte_offsets, Some([start, start + passage.len()]));
    assert_eq!(m.offsets, Some(char_span(document, passage)));
    assert_eq!(m.closest, None);
}

#[test]
fn nfkc_ligatures_and_full_width_forms() {
    assert_found_at("the ﬁnal report", "the final report", "the ﬁnal report");
    assert_found_at("a ﬁnal word", "final", "ﬁnal");
    assert_found_at(
        "ＡＢＣ　Ｃｏｒｐ was founded",
        "abc corp was",
        "ＡＢＣ　Ｃｏｒｐ was",
    );
    assert_eq!(normalize("ﬃ ﬂ １２３"), "ffi fl 123");
}

#[test]
fn sup_and_sub_tags_are_dropped() {
    let document = "water is H<sub>2</sub>O and E = mc<SUP>2</Sup> here";
    assert_found_at(
        document,
        "H2O and E = mc2",
        "H<sub>2</sub>O and E = mc<SUP>2</Sup>",
    );
    assert_eq!(normalize("x<sup>2</sup> <sub>i</SUB>"), "x2 i");
    assert_eq!(normalize("a <span>b</span>"), "a <span>b</span>");
}

#[test]
fn every_dash_is_a_hyphen() {
    let dashes = [
        '\u{2010}', '\u{2011}', '\u{2012}', '\u{2013}', '\u{2014}', '\u{2015}', '\u{2212}',
        '\u{FE58}', '\u{FE63}', '\u{FF0D}',
    ];
    for dash in dashes {
        let document = format!("pages 10{dash}20 were");
        assert_found_at(&document, "pages 10-20 were", &document);
        let quote = format!("pages 10{dash}20 were");
        assert!(found("see pages 10-20 were", &quote).found, "{dash:?}");
    }
    assert_eq!(normalize("a – b — c"), "a - b - c");
}

#[test]
fn curly_quotes_become_straight() {
    let document = "he said “it’s fine” and «left» or ‘so’ ″";
    assert_eq!(
        normalize(document),
        "he said \"it's fine\" and \"left\" or 'so' \""
    );
    assert_found_at(document, "said \"it's fine\" and", "said “it’s fine” and");
    assert!(found("„Wir ‚gehen‘“", "\"wir 'gehen'\"").found);
}

#[test]
fn white_space_is_collapsed_and_trimmed() {
    let document = "a\u{A0}quick \t\n brown\u{2003}\u{3000}fox";
    assert_eq!(normalize(document), "a quick brown fox");
    assert_found_at(document, "  a quick\nbrown fox ", document);
    assert_eq!(normalize(" \n\t "), "");
}

#[test]
fn case_is_folded() {
    assert_found_at("THE Quick Fox", "the quick fox", "THE Quick Fox");
    assert_found_at("ΟΔΟΣ ΕΝΑ ΔΥΟ", "οδος ενα δυο", "ΟΔΟΣ ΕΝΑ ΔΥΟ");
    assert_eq!(normalize("ΟΔΟΣ"), normalize("οδος"));
}

#[test]
fn soft_hyphens_are_removed() {
    assert_found_at(
        "the infor\u{AD}mation age",
        "information age",
        "infor\u{AD}mation age",
    );
    assert_eq!(normalize("infor\u{AD}\nmation"), "information");
    assert_eq!(normalize("a \u{AD}b"), "a b");
}

#[test]
fn words_hyphenated_across_a_line_break_are_joined() {
    assert_eq!(normalize("infor-\nmation"), "information");
    assert_eq!(normalize("infor- \r\n  mation"), "information");
    assert_eq!(normalize("infor‐\nmation"), "information");
    // Not a line break, or not letters on both sides: the hyphen stays.
    assert_eq!(normalize("infor- mation"), "infor- mation");
    assert_eq!(normalize("10-\n20"), "10- 20");
    assert_eq!(normalize("word -\nnext"), "word - next");
    assert_eq!(normalize("ends-"), "ends-");
    let document = "in the infor-\n  mation age";
    assert_found_at(document, "the information age", "the infor-\n  mation age");
}

#[test]
fn offsets_map_back_through_multi_byte_characters() {
    let document = "café ☕ — naïve text here";
    assert_found_at(document, "naïve text", "naïve text");
    let m = found(document, "naïve text");
    assert_eq!(m.offsets, Some([9, 19]));
    assert_eq!(m.byte_offsets, Some([14, 25]));
    // A decomposed é composes to match a precomposed one, and maps to both characters.
    let decomposed = "x cafe\u{301} au lait";
    assert_found_at(decomposed, "café au lait", "cafe\u{301} au lait");
    assert_eq!(found(decomposed, "café au lait").offsets, Some([2, 15]));
}

#[test]
fn offsets_map_back_through_nfkc_expansions() {
    let document = "x ﬃ y … ｚ";
    let m = found(document, "ffi y");
    assert_eq!(m.byte_offsets, Some([2, 7]));
    assert_eq!(m.offsets, Some([2, 5]));
    // `…` became three dots: a match ending inside it covers all of it.
    let m = found("wait… then go", "wait.");
    assert_eq!(m.byte_offsets, Some([0, 7]));
    assert_eq!(m.offsets, Some([0, 5]));
    assert_found_at(document, "Z", "ｚ");
    // Segments map the characters after an expansion back to the right bytes.
    let long = format!("{}ﬁ {}", "é".repeat(3000), "the end");
    assert_found_at(&long, "the end", "the end");
}

#[test]
fn ellipsis_fragments_are_found_in_order() {
    let document =
        "The committee met on Monday. After a long debate, it approved the budget for next year.";
    let passage = "The committee met on Monday. After a long debate, it approved the budget";
    for quote in [
        "The committee met … approved the budget",
        "The committee met ... approved the budget",
        "The committee met . . . approved the budget",
        "The committee met [...] approved the budget",
        "The committee met […] approved the budget",
        "… The committee met (...) approved the budget …",
    ] {
        assert_found_at(document, quote, passage);
    }
    let m = found(document, "approved the budget … the committee met");
    assert!(!m.found);
    let closest = m.closest.expect("closest for the fragment out of order");
    assert_eq!(closest.text, "The committee met");
    assert_eq!(closest.differing_words, 0);
    // Fragments may not overlap.
    assert!(!found("one two three", "one two … two three").found);
    assert!(found("one two two three", "one two … two three").found);
}

#[test]
fn ellipsis_closest_is_for_the_first_fragment_not_found() {
    let document = "The committee met on Monday. After a long debate, it approved the budget.";
    let m = found(document, "The committee met … rejected the budget");
    assert!(!m.found);
    let closest = m.closest.expect("closest");
    assert_eq!(closest.differing_words, 1);
    assert!(closest.text.contains("approved the budget"), "{closest:?}");
}

#[test]
fn altered_quotes_do_not_match() {
    let document = "Officials said the drug is not safe for children under 12 years old.";
    for (quote, passage) in [
        (
            "the drug is safe for children",
            "the drug is not safe for children",
        ),
        (
            "safe for children under 13 years",
            "safe for children under 12 years",
        ),
        (
            "the drug is not safe for adults",
            "the drug is not safe for children",
        ),
        (
            "the drug is not risky for children",
            "the drug is not safe for children",
        ),
    ] {
        let m = found(document, quote);
        assert!(!m.found, "{quote}");
        let closest = m.closest.expect("closest");
        assert_eq!(closest.differing_words, 1, "{quote}: {closest:?}");
        assert_eq!(closest.text, passage, "{quote}");
        assert_eq!(closest.offsets, char_span(document, passage));
    }
    // A number cut short, a word cut short: not whole words.
    assert!(!found("born in 1950 in Paris", "born in 195").found);
    assert!(!found("and she was elected", "he was elected").found);
    assert!(found("and she was elected", "she was elected").found);
}

#[test]
fn closest_passage_names_one_word_for_one_change() {
    let document = "Aerobic denitrifiers are mainly Gram-negative bacteria in the phylum \
                    Proteobacteria. Enzymes NapAB, NirS, NirK and NosZ are located in the \
                    periplasm, a wide space bordered by the cytoplasmic and the outer membrane.";
    let search = QuoteSearch::new(document);
    let replaced = search.find("Enzymes NapAB, NirS, NirK and NosZ are found in the periplasm");
    let closest = replaced.closest.expect("closest");
    assert_eq!(closest.differing_words, 1);
    assert_eq!(
        closest.text,
        "Enzymes NapAB, NirS, NirK and NosZ are located in the periplasm"
    );
    assert!((closest.similarity - (1.0 - 1.0 / 11.0)).abs() < 1e-9);

    let dropped = search.find("a wide space bordered by cytoplasmic and the outer");
    let closest = dropped.closest.expect("closest");
    assert_eq!(closest.differing_words, 1);
    assert_eq!(
        closest.text,
        "a wide space bordered by the cytoplasmic and the outer"
    );
}

#[test]
fn dashes_that_are_not_hyphens_separate_words() {
    let document = "Gothic flourished—the medieval cathedrals such as Canterbury Cathedral, \
                    Westminster Abbey and York Minster–all of them";
    let m = found(document, "the medieval cathedrals such as Canterbury lords");
    let closest = m.closest.expect("closest");
    assert_eq!(closest.differing_words, 1);
    assert_eq!(
        closest.text,
        "the medieval cathedrals such as Canterbury Cathedral"
    );
    let m = found(document, "Abbey and York Minster—all of us");
    let closest = m.closest.expect("closest");
    assert_eq!(closest.differing_words, 1);
    assert_eq!(closest.text, "Abbey and York Minster–all of them");

    let text = "gram-negative (1950), don't 3.5 a—b 東京";
    let words: Vec<&str> = word_spans(text, &[])
        .into_iter()
        .map(|r| &text[r])
        .collect();
    assert_eq!(
        words,
        [
            "gram-negative",
            "1950",
            "don't",
            "3.5",
            "a",
            "b",
            "東",
            "京"
        ]
    );
    let normalized = normalize_mapped("a—b c-d");
    let spans = word_spans(&normalized.text, &normalized.dash_breaks);
    assert_eq!(spans, [0..1, 2..3, 4..7]);
}

#[test]
fn punctuation_only_differences_score_below_one() {
    let m = found("the cat, which sat", "the cat which sat");
    assert!(!m.found);
    let closest = m.closest.expect("closest");
    assert_eq!(closest.differing_words, 0);
    assert!(
        closest.similarity < 1.0 && closest.similarity > 0.8,
        "{closest:?}"
    );
}

#[test]
fn similarity_stays_between_zero_and_one() {
    let document = "alpha beta gamma delta epsilon zeta eta theta iota kappa";
    for quote in [
        "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu",
        "nothing in common here at all",
        "kappa iota theta",
        "alphas",
        "gamma, delta!",
        "x",
    ] {
        let m = found(document, quote);
        assert!(!m.found);
        let closest = m.closest.expect("closest");
        assert!(
            (0.0..=1.0).contains(&closest.similarity),
            "{quote}: {closest:?}"
        );
    }
    let m = found(document, "nothing in common");
    let closest = m.closest.expect("closest");
    assert_eq!(closest.similarity, 0.0);
    assert_eq!(closest.offsets[0], 0);
}

#[test]
fn quote_longer_than_the_document() {
    let document = "short text here";
    let m = found(document, "a short text here that goes on and on");
    assert!(!m.found);
    let closest = m.closest.expect("closest");
    assert_eq!(closest.text, "short text here");
    assert_eq!(closest.offsets, [0, 15]);
    assert_eq!(closest.differing_words, 6);
    assert!((closest.similarity - 3.0 / 9.0).abs() < 1e-9);
}

#[test]
fn empty_quotes_and_documents() {
    for quote in ["", "   ", "\u{AD}", "<sup></sup>", "...", "[…]"] {
        let m = found("some document text", quote);
        assert_eq!(m, QuoteMatch::not_found(None), "{quote:?}");
    }
    assert_eq!(found("", "some quote"), QuoteMatch::not_found(None));
    assert_eq!(found("", ""), QuoteMatch::not_found(None));
    assert_eq!(found(" \n ", "a b c"), QuoteMatch::not_found(None));
    // Punctuation only: searched, but there are no words to compare.
    assert_eq!(found("a b c", "!!!"), QuoteMatch::not_found(None));
    assert!(found("wait !!! what", "!!!").found);
}

#[test]
fn serialises_in_camel_case() {
    let m = found("the drug is not safe", "the drug is safe");
    let json = serde_json::to_value(&m).expect("serialisable");
    assert_eq!(json["found"], false);
    assert_eq!(json["offsets"], serde_json::Value::Null);
    assert_eq!(json["byteOffsets"], serde_json::Value::Null);
    assert_eq!(json["closest"]["differingWords"], 1);
    assert_eq!(json["closest"]["offsets"], serde_json::json!([0, 20]));
    let m = found("the drug is not safe", "is not");
    let json = serde_json::to_value(&m).expect("serialisable");
    assert_eq!(json["byteOffsets"], serde_json::json!([9, 15]));
    assert_eq!(json["closest"], serde_json::Value::Null);
}

/// A deterministic generator, so the test document is the same on every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as usize
    }
}

#[test]
fn large_document_closest_passage() {
    let mut rng = Lcg(7);
    let vocabulary: Vec<String> = (0..3000)
        .map(|i| {
            let len = 3 + rng.next() % 6;
            let mut word: String = (0..len)
                .map(|_| char::from(b'a' + (rng.next() % 26) as u8))
                .collect();
            word.push_str(&i.to_string());
            word
        })
        .collect();
    let pick = |rng: &mut Lcg| vocabulary[rng.next() % vocabulary.len()].as_str();
    let passage: Vec<&str> = (0..12).map(|_| pick(&mut rng)).collect();
    let mut document = String::with_capacity(5_200_000);
    let mut inserted_at = None;
    while document.len() < 5_000_000 {
        if inserted_at.is_none() && document.len() > 3_000_000 {
            inserted_at = Some(document.len());
            document.push_str(&passage.join(" "));
            document.push_str(". ");
        }
        document.push_str(pick(&mut rng));
        document.push(if rng.next().is_multiple_of(10) {
            '\n'
        } else {
            ' '
        });
    }
    let search = QuoteSearch::new(&document);
    let mut quote = passage.clone();
    quote[5] = "replaced";
    let m = search.find(&quote.join(" "));
    assert!(!m.found);
    let closest = m.closest.expect("closest");
    assert_eq!(closest.text, passage.join(" "));
    assert_eq!(closest.differing_words, 1);
    let start = inserted_at.expect("inserted");
    assert_eq!(closest.offsets, [start, start + closest.text.len()]);
    // Its time is the benches' (`cargo bench -p ragcite`), not a test's.

    let exact = search.find(&passage[2..9].join(" "));
    assert!(exact.found);
}

fn texts(sentence: &str) -> Vec<String> {
    quotations(sentence).into_iter().map(|q| q.text).collect()
}

#[test]
fn quotations_in_every_style() {
    let cases = [
        ("He said “the cat sat down” today.", "the cat sat down"),
        ("He said \"the cat sat down\" today.", "the cat sat down"),
        ("Il a dit « le chat est assis » hier.", "le chat est assis"),
        (
            "Er sagte „die Katze sitzt hier“ heute.",
            "die Katze sitzt hier",
        ),
        (
            "Er sagte „die Katze sitzt hier” heute.",
            "die Katze sitzt hier",
        ),
        ("彼は「猫が座った」と言った。", "猫が座った"),
        ("彼は『猫が座った』と言った。", "猫が座った"),
        ("He said ‘the cat sat down’ today.", "the cat sat down"),
        ("He said 'the cat sat down' today.", "the cat sat down"),
        ("'The cat sat down', he said.", "The cat sat down"),
    ];
    for (sentence, text) in cases {
        let found = quotations(sentence);
        assert_eq!(found.len(), 1, "{sentence}");
        let q = &found[0];
        assert_eq!(q.text, text, "{sentence}");
        let marked = &sentence[q.span.clone()];
        assert!(marked.contains(text), "{sentence}");
        assert!(
            !marked.starts_with(text) && !marked.ends_with(text),
            "{sentence}"
        );
    }
    let sentence = "It was “a long day” and then \"a longer night\" came.";
    let found = quotations(sentence);
    assert_eq!(texts(sentence), ["a long day", "a longer night"]);
    assert_eq!(&sentence[found[0].span.clone()], "“a long day”");
    assert_eq!(&sentence[found[1].span.clone()], "\"a longer night\"");
}

#[test]
fn short_quotations_are_ignored() {
    assert!(quotations("The “Red Scare” began.").is_empty());
    assert!(quotations("He was \"quite\" sure.").is_empty());
    assert!(quotations("A 「猫」 sat.").is_empty());
    assert_eq!(
        texts("The “Red Scare” was, they said, “a time of fear”."),
        ["a time of fear"]
    );
}

#[test]
fn apostrophes_are_not_quote_marks() {
    assert!(quotations("I don't think the students' books are here.").is_empty());
    assert!(quotations("I don’t think the students’ books are here, it’s late.").is_empty());
    assert!(quotations("rock 'n' roll and the kids' toys are fun").is_empty());
    assert!(quotations("a 12\" pipe and a 6\" pipe are needed").is_empty());
    assert_eq!(
        texts("She said 'the students' books are gone' and left."),
        ["the students' books are gone"]
    );
    assert_eq!(
        texts("She said ‘it’s the students’ own work’ today."),
        ["it’s the students’ own work"]
    );
}

#[test]
fn nested_and_unbalanced_marks() {
    assert_eq!(
        texts("He wrote “she said ‘no way out’ to us” then."),
        ["she said ‘no way out’ to us"]
    );
    assert!(quotations("““““ ”").is_empty());
    assert!(quotations("« unclosed quotation here").is_empty());
    assert!(quotations("closed here » and “ here").is_empty());
    assert_eq!(
        texts("“ unclosed and then “a closed one here” ok"),
        ["a closed one here"]
    );
    assert_eq!(
        texts("« non fermé puis « une citation ici » fin"),
        ["une citation ici"]
    );
    assert_eq!(texts("\"one two three\" \"four five"), ["one two three"]);
    for sentence in [
        "\"",
        "'",
        "“",
        "”",
        "„“",
        "' '",
        "\"\"",
        "「」",
        "a\"b'c‘d’e",
    ] {
        let _ = quotations(sentence);
    }
}

#[test]
fn no_panics_on_odd_input() {
    let pieces: Vec<&str> =
        "a| |\n|-|\u{AD}|…|.|[|]|“|”|'|\"|é|e\u{301}|\u{301}|ﬁ|<sup>|</SUB>|<|İ|ς\
        |\u{1100}|\u{1161}|\u{11A8}|猫|\u{200B}|１|\r\n|Ⅻ|㎏|\u{0}|\u{10FFFF}|「|」|‘|’|„"
            .split('|')
            .collect();
    let mut rng = Lcg(42);
    for _ in 0..300 {
        let mut document = String::new();
        let mut quote = String::new();
        for _ in 0..(rng.next() % 40) {
            document.push_str(pieces[rng.next() % pieces.len()]);
        }
        for _ in 0..(rng.next() % 12) {
            quote.push_str(pieces[rng.next() % pieces.len()]);
        }
        let search = QuoteSearch::new(&document);
        let m = search.find(&quote);
        for [start, end] in [
            m.byte_offsets,
            m.closest.as_ref().map(|c| {
                let s = document
                    .char_indices()
                    .nth(c.offsets[0])
                    .map_or(document.len(), |p| p.0);
                let e = document
                    .char_indices()
                    .nth(c.offsets[1])
                    .map_or(document.len(), |p| p.0);
                [s, e]
            }),
        ]
        .into_iter()
        .flatten()
        {
            assert!(
                start <= end && end <= document.len(),
                "{document:?} {quote:?}"
            );
            assert!(document.is_char_boundary(start) && document.is_char_boundary(end));
        }
        if let Some(c) = &m.closest {
            assert!((0.0..=1.0).contains(&c.similarity));
        }
        let _ = quotations(&document);
        // The whole document, as a quotation, is found unless nothing but ellipses is left.
        let normalized = normalize(&document);
        let has_text = !fragments(&normalized).is_empty();
        assert_eq!(search.find(&document).found, has_text, "{document:?}");
    }
}

#[test]
fn hangul_jamo_compose_across_starters() {
    // ᄀ + ᅡ + ᆨ (conjoining jamo) compose to 각.
    let document = "x \u{1100}\u{1161}\u{11A8} y";
    assert_eq!(normalize(document), "x 각 y");
    assert_found_at(document, "각 y", "\u{1100}\u{1161}\u{11A8} y");
}
