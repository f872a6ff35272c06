//! The claim rules on sentences of each kind, and on claims phrased like them.

use super::*;

fn kind(sentence: &str) -> Option<Kind> {
    classify(
        sentence,
        Traits {
            english: true,
            ..Traits::default()
        },
    )
    .map(|n| n.kind)
}

#[test]
fn the_issue_sentences() {
    for (sentence, expected) in [
        ("Let me know if you need anything else!", Kind::Pleasantry),
        ("I hope this helps.", Kind::Pleasantry),
        ("Here is what the knowledge base says.", Kind::Meta),
        (
            "I'll search for the Eiffel Tower's height, completion date and designer.",
            Kind::Meta,
        ),
        ("Let me look up when it was completed.", Kind::Meta),
        (
            "Based on the provided documents, here is a summary of the situation:",
            Kind::Meta,
        ),
        (
            "See the official documentation for details.",
            Kind::Navigation,
        ),
        (
            "> **Tip:** test your limits with a load generator before going live.",
            Kind::Instruction,
        ),
        (
            "I don't have enough information in the provided context to answer how many tourists visit each year",
            Kind::Abstention,
        ),
        (
            "The passages provided do not provide specific information on X.",
            Kind::Abstention,
        ),
    ] {
        assert_eq!(kind(sentence), Some(expected), "{sentence}");
    }
}

#[test]
fn claims_stay_claims_however_phrased() {
    for sentence in [
        "Based on the provided documents, the tower is tall and made of iron.",
        "Here are the causes: drought, strong winds and arson.",
        "According to my search results, two tax laws are very important in South Africa.",
        "The results do not indicate a link between coffee and cancer.",
        "While the text does not provide a detailed explanation, it implies a strong connection.",
        "The context does not mention the price, but the product ships worldwide from Berlin.",
        "Note that the reset link stays valid for one day.",
        "Use Praat or Audacity to measure the formant frequencies.",
        "Did you know that the tower was the tallest structure in the world?",
        "There is no evidence that vaccines cause autism.",
    ] {
        assert_eq!(kind(sentence), None, "{sentence}");
    }
}

#[test]
fn a_figure_or_a_quote_keeps_a_sentence_a_claim() {
    let traits = Traits {
        english: true,
        figures: true,
        ..Traits::default()
    };
    assert_eq!(
        classify("Take 500 mg twice a day, you should.", traits),
        None
    );
    assert_eq!(
        classify(
            "Here is the limit you asked for.",
            Traits {
                figures: false,
                ..traits
            }
        )
        .map(|n| n.kind),
        Some(Kind::Meta)
    );
}

#[test]
fn questions_in_any_language() {
    assert_eq!(
        kind("What does this mean for your team?"),
        Some(Kind::Question)
    );
    let french = classify(
        "Que faut-il retenir ?",
        Traits {
            english: false,
            ..Traits::default()
        },
    );
    assert_eq!(french.map(|n| n.kind), Some(Kind::Question));
    let statement = classify(
        "La tour mesure 330 mètres.",
        Traits {
            english: false,
            ..Traits::default()
        },
    );
    assert_eq!(statement, None);
}

#[test]
fn the_cue_is_the_matched_words_as_written() {
    let found = classify(
        "- **Let me know** if you need more.",
        Traits {
            english: true,
            ..Traits::default()
        },
    )
    .expect("a pleasantry");
    assert_eq!(found.cue, "Let me know");
}

#[test]
fn a_cited_instruction_or_statement_about_sources_is_checked() {
    let marked = Traits {
        english: true,
        marked: true,
        ..Traits::default()
    };
    for sentence in [
        "You should wear them sparingly during the day unless a doctor says otherwise.",
        "The sources provided discuss why people choose not to move out of their homes.",
    ] {
        assert_eq!(classify(sentence, marked), None, "{sentence}");
        assert!(kind(sentence).is_some(), "{sentence}");
    }
    // A lead-in, an abstention and a pleasantry are not claims, cited or not.
    for (sentence, expected) in [
        ("Two potential methods are outlined below:", Kind::Meta),
        (
            "The given context does not provide information about the president.",
            Kind::Abstention,
        ),
        ("Please feel free to ask more questions.", Kind::Pleasantry),
    ] {
        assert_eq!(
            classify(sentence, marked).map(|n| n.kind),
            Some(expected),
            "{sentence}"
        );
    }
}

#[test]
fn questions_that_assert_and_ignorance_that_asserts() {
    assert_eq!(kind("Hello, did you know the tower was painted red?"), None);
    assert_eq!(
        kind("Do you know why they are called dramas?"),
        Some(Kind::Question)
    );
    assert_eq!(
        kind("I did not know that Jon Stewart played soccer in college."),
        None
    );
    assert_eq!(kind("I don't know."), Some(Kind::Abstention));
}

#[test]
fn a_claim_before_or_after_an_abstention_keeps_the_sentence_a_claim() {
    assert_eq!(
        kind(
            "Whitney Houston won 22 American Music Awards, but the document does not mention any Grammy Awards."
        ),
        None
    );
    assert_eq!(
        kind("However, the provided context does not specify the exact clauses that apply."),
        Some(Kind::Abstention)
    );
}

#[test]
fn a_lead_in_announces_its_list() {
    assert_eq!(
        kind("Other factors that could contribute include:"),
        Some(Kind::Meta)
    );
    assert_eq!(
        kind("The advantages of a stratified sample include: 1."),
        Some(Kind::Meta)
    );
}

/// A rule's name, its patterns, and the gate that must pass wherever they match.
type Gated = (&'static str, &'static LazyLock<Regex>, fn(&str) -> bool);

fn gated() -> Vec<Gated> {
    let p = &PATTERNS;
    vec![
        ("pleasantry", &p.pleasantry, gate::pleasantry),
        ("navigation", &p.navigation, gate::navigation),
        ("meta", &p.meta, gate::meta),
        ("instruction", &p.instruction, gate::instruction),
        ("trailer", &p.trailer, gate::trailer),
        (
            "asserting_question",
            &p.asserting_question,
            gate::asserting_question,
        ),
        ("concessive", &p.concessive, gate::concessive),
        ("asserts_clause", &p.asserts_clause, gate::asserts_clause),
    ]
}

/// The sentences (and lines) of a text, roughly: the gates must hold on any text, so the
/// split need not be the checker's.
fn pieces(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .flat_map(|line| std::iter::once(line).chain(line.split_inclusive(". ")))
}

/// Checks every gate on `text`'s pieces; returns how many pieces some pattern matched.
fn check_gates(text: &str) -> usize {
    let mut matched = 0;
    for piece in pieces(text) {
        if LEAD.find(piece.as_bytes()).is_some_and(|m| !m.is_empty()) {
            assert!(gate::lead(piece), "lead: {piece:?}");
        }
        let prepared = Prepared::new(piece);
        let lower = prepared.lower.as_str();
        for (name, regex, gate) in gated() {
            if regex.is_match(lower.as_bytes()) {
                matched += 1;
                assert!(gate(lower), "{name}: {lower:?}");
            }
        }
    }
    matched
}

/// The text of every answer and sentence of a JSON Lines file of labelled records.
fn answers_of(jsonl: &str) -> String {
    let mut out = String::new();
    for line in jsonl.lines() {
        let Ok(value) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if let Some(answer) = value.get("answer").and_then(|a| a.as_str()) {
            out.push_str(answer);
            out.push('\n');
        }
        for sentence in value
            .get("sentences")
            .and_then(|s| s.as_array())
            .into_iter()
            .flatten()
        {
            if let Some(text) = sentence.get("text").and_then(|t| t.as_str()) {
                out.push_str(text);
                out.push('\n');
            }
        }
    }
    out
}

fn testdata_texts(dir: &std::path::Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            testdata_texts(&path, out);
        } else if let Ok(text) = std::fs::read_to_string(&path) {
            match path.extension().and_then(|e| e.to_str()) {
                Some("md" | "txt") => out.push(text),
                Some("jsonl") => out.push(answers_of(&text)),
                _ => {}
            }
        }
    }
}

/// The gates skip only what cannot match: on every answer of the test data (and the sentences
/// these tests name), a sentence a rule's patterns match passes the rule's gate.
#[test]
fn the_gates_pass_every_sentence_the_patterns_match() {
    let mut texts = Vec::new();
    testdata_texts(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata"),
        &mut texts,
    );
    texts.push(include_str!("tests.rs").to_string());
    let matched: usize = texts.iter().map(|t| check_gates(t)).sum();
    // The test data has sentences of every rule: the check above reads real matches.
    assert!(matched > 100, "{matched}");
}

/// The same on the development data (`RAGCITE_DEV=/path/to/eval/dev cargo test -p ragcite
/// --lib claim -- --ignored`): every answer and sentence of its JSON Lines files.
#[test]
#[ignore = "reads the development data named by RAGCITE_DEV"]
fn the_gates_pass_every_sentence_of_the_dev_data() {
    let dir = std::env::var("RAGCITE_DEV").expect("RAGCITE_DEV names the dev data's folder");
    let mut texts = Vec::new();
    testdata_texts(std::path::Path::new(&dir), &mut texts);
    assert!(!texts.is_empty(), "no JSON Lines files in {dir}");
    let matched: usize = texts.iter().map(|t| check_gates(t)).sum();
    assert!(matched > 1000, "{matched}");
}

/// A mixed sentence is a claim about what does not decline: the declining clause and its
/// connective are the part left out; an abstention alone, a concession and a plain claim
/// leave nothing out.
#[test]
fn the_declining_clause_of_a_mixed_sentence() {
    let part = |s: &str| declined_part(s).map(|r| s[r].to_string());
    assert_eq!(
        part("I could not find the 2023 figure, but the 2022 report gives 4.1%."),
        Some("I could not find the 2023 figure, but".to_string())
    );
    assert_eq!(
        part("The sources do not mention the CEO's salary; however, revenue was 12 million."),
        Some("The sources do not mention the CEO's salary; however".to_string())
    );
    assert_eq!(
        part("The sources do not mention the salary; the company reported revenue of 12 million."),
        Some("The sources do not mention the salary; ".to_string())
    );
    assert_eq!(
        part("The tower won 22 design awards, but the document does not mention the year."),
        Some(", but the document does not mention the year.".to_string())
    );
    assert_eq!(
        part("I could not find any information about this topic."),
        None
    );
    assert_eq!(
        part("The 2022 report gives an inflation rate of 4.1%."),
        None
    );
    assert_eq!(
        part("Although the context does not say so, the tower is 330 metres tall."),
        None
    );
}
