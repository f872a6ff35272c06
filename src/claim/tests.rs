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
        quotes: false,
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
