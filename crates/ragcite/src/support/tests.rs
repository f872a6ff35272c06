use crate::report::{CheckResult, ChunkStatus, Verdict};
use crate::{Checker, Options, input};

fn check_at(answer: &str, chunks: &str, threshold: f64) -> CheckResult {
    let answer = input::read_answer(answer.as_bytes(), None).unwrap();
    let chunks = input::read_chunks(chunks.as_bytes(), false).unwrap();
    // The rules of the verdicts, with the formula's scores, which are easy to work out by
    // hand; the fitted model is tested apart (support::model).
    let options = Options {
        threshold,
        model: crate::Model::formula(),
        ..Options::default()
    };
    Checker::new(options).check(&answer, &chunks).result
}

fn check(answer: &str, chunks: &str) -> CheckResult {
    check_at(answer, chunks, 0.5)
}

fn verdicts(result: &CheckResult) -> Vec<Verdict> {
    result.sentences.iter().map(|s| s.verdict).collect()
}

fn statuses(result: &CheckResult) -> Vec<ChunkStatus> {
    result.chunks.iter().map(|c| c.status).collect()
}

const TOWER: &str = r#"["The Eiffel Tower in Paris is 330 metres tall and was completed in 1889.",
    "The Louvre museum holds the Mona Lisa painting."]"#;

#[test]
fn supported_when_coverage_reaches_the_threshold_and_numbers_match() {
    let result = check("The Eiffel Tower is 330 metres tall [1].", TOWER);
    assert_eq!(verdicts(&result), [Verdict::Supported]);
    assert_eq!(result.sentences[0].coverage, 1.0);
    assert_eq!(result.sentences[0].check_worthy, ["330"]);
}

#[test]
fn number_mismatch_when_a_number_is_in_no_cited_chunk() {
    let result = check("The Eiffel Tower is 324 metres tall [1].", TOWER);
    assert_eq!(verdicts(&result), [Verdict::NumberMismatch]);
    assert_eq!(result.sentences[0].missing_numbers, ["324"]);
}

#[test]
fn numbers_compare_by_value() {
    let chunks = r#"["The tower is 1083 feet tall and has 7,000,000 visitors a year."]"#;
    let result = check(
        "The tower is 1,083 feet tall with 7 million visitors [1].",
        chunks,
    );
    assert_eq!(verdicts(&result), [Verdict::Supported]);
    assert!(result.sentences[0].missing_numbers.is_empty());
}

#[test]
fn weak_support_between_half_the_threshold_and_the_threshold() {
    // Content words: eiffel, tower, paris, attracts, tourists, daily: 3 of 6 found, so
    // coverage 0.5; 2 of their 5 neighbouring pairs stand together in the chunk, so support
    // is 0.7 × 0.5 + 0.3 × 0.4 = 0.47.
    let sentence = "The Eiffel Tower in Paris attracts tourists daily [1].";
    let result = check(sentence, TOWER);
    assert_eq!(result.sentences[0].coverage, 0.5);
    assert_eq!(result.sentences[0].support, 0.47);
    assert_eq!(verdicts(&result), [Verdict::WeakSupport]);
    let reached = check_at(sentence, TOWER, 0.47);
    assert_eq!(
        verdicts(&reached),
        [Verdict::Supported],
        "0.47 reaches 0.47"
    );
    let strict = check_at(sentence, TOWER, 0.9);
    assert_eq!(verdicts(&strict), [Verdict::WeakSupport]);
    assert_eq!(
        strict.sentences[0].missing_words,
        ["attracts", "tourists", "daily"]
    );
}

#[test]
fn support_exactly_half_the_threshold_is_weak_not_unsupported() {
    // 1 of 4 content words found and no pair: support 0.7 × 0.25 = 0.175, half of 0.35.
    let sentence = "The tower attracts crowds daily [1].";
    let result = check_at(sentence, TOWER, 0.35);
    assert_eq!(result.sentences[0].coverage, 0.25);
    assert_eq!(result.sentences[0].support, 0.175);
    assert_eq!(verdicts(&result), [Verdict::WeakSupport]);
    let stricter = check_at(sentence, TOWER, 0.36);
    assert_eq!(verdicts(&stricter), [Verdict::UnsupportedCitation]);
}

#[test]
fn unsupported_when_coverage_is_below_half_the_threshold() {
    let result = check("The museum holds the Mona Lisa painting [1].", TOWER);
    assert_eq!(verdicts(&result), [Verdict::UnsupportedCitation]);
    assert_eq!(result.sentences[0].suggested_citation.as_deref(), Some("2"));
    assert_eq!(result.sentences[0].best_chunk.as_deref(), Some("2"));
}

#[test]
fn unsupported_when_no_marker_resolves() {
    let result = check("The Eiffel Tower is 330 metres tall [7].", TOWER);
    assert_eq!(verdicts(&result), [Verdict::UnsupportedCitation]);
    assert_eq!(result.unknown_markers, ["7"]);
    assert_eq!(result.sentences[0].unknown_markers, ["7"]);
    assert!(result.sentences[0].cited.is_empty());
    assert_eq!(result.sentences[0].coverage, 0.0);
    assert_eq!(result.counts.unknown_markers, 1);
}

#[test]
fn uncited_claims_need_three_content_words_or_a_number() {
    let result = check(
        "The tower is tall. It cost 5 francs. Thank you. Lovely views everywhere today.",
        TOWER,
    );
    assert_eq!(
        verdicts(&result),
        [
            Verdict::NoClaim,
            Verdict::UncitedClaim,
            Verdict::NoClaim,
            Verdict::UncitedClaim
        ]
    );
}

#[test]
fn an_uncited_heading_is_a_title_not_a_claim() {
    let result = check("# The Eiffel Tower in 1889\n## The Eiffel Tower [1]", TOWER);
    assert_eq!(verdicts(&result), [Verdict::NoClaim, Verdict::Supported]);
}

#[test]
fn a_marker_without_words_or_numbers_is_no_claim() {
    let result = check("It is so [1].", TOWER);
    assert_eq!(verdicts(&result), [Verdict::NoClaim]);
    assert_eq!(
        statuses(&result),
        [ChunkStatus::CitedButNotSupporting, ChunkStatus::Unused]
    );
    assert_eq!(result.chunks[0].times_cited, 1);
}

#[test]
fn without_content_words_the_numbers_alone_decide() {
    let result = check("It was 1889 [1]. It was 1888 [1].", TOWER);
    assert_eq!(
        verdicts(&result),
        [Verdict::Supported, Verdict::NumberMismatch]
    );
    assert_eq!(result.sentences[0].coverage, 1.0);
    assert_eq!(result.sentences[0].best_chunk.as_deref(), Some("1"));
    assert_eq!(result.sentences[1].best_chunk, None);
    // A number-only sentence makes only the chunks holding its number relevant.
    assert_eq!(result.chunks[1].supported_sentences, 0);
}

#[test]
fn coverage_is_the_best_single_cited_chunk_not_the_pool() {
    let chunks = r#"["Alpha beta gamma.", "Delta epsilon zeta.", "Alpha beta delta epsilon."]"#;
    let result = check("Alpha beta delta epsilon [1][2].", chunks);
    assert_eq!(result.sentences[0].coverage, 0.5);
    assert_eq!(result.sentences[0].best_chunk.as_deref(), Some("3"));
    assert_eq!(result.sentences[0].suggested_citation.as_deref(), Some("3"));
}

#[test]
fn best_chunk_ties_go_to_the_earliest_and_nothing_shared_is_null() {
    let chunks = r#"["Gamma alpha.", "Alpha gamma.", "Unrelated words."]"#;
    let result = check("Alpha gamma omega [3]. Zulu yankee xray [3].", chunks);
    assert_eq!(result.sentences[0].best_chunk.as_deref(), Some("1"));
    assert_eq!(result.sentences[1].best_chunk, None);
    assert_eq!(result.sentences[1].best_coverage, 0.0);
}

#[test]
fn a_suggestion_must_beat_the_own_coverage_by_a_margin() {
    // Own coverage 3/4 via chunk 1; chunk 2 covers 4/4, only 0.25 better: suggested.
    // Own coverage 3/5 = 0.6; chunk 2 4/5 = 0.8, only 0.2 better: suggested (margin reached).
    // Own coverage 3/6 = 0.5; chunk 2 4/6 = 0.667, 0.167 better: not suggested.
    let chunks = r#"["alpha beta gamma", "alpha beta gamma delta"]"#;
    let result = check(
        "Alpha beta gamma delta [1]. Alpha beta gamma delta omega [1]. Alpha beta gamma delta omega sigma [1].",
        chunks,
    );
    let suggested: Vec<_> = result
        .sentences
        .iter()
        .map(|s| s.suggested_citation.as_deref())
        .collect();
    assert_eq!(suggested, [Some("2"), Some("2"), None]);
}

#[test]
fn uncited_claims_get_a_suggestion_when_a_chunk_supports_them() {
    let result = check("The Mona Lisa painting hangs in the Louvre museum.", TOWER);
    assert_eq!(verdicts(&result), [Verdict::UncitedClaim]);
    assert_eq!(result.sentences[0].suggested_citation.as_deref(), Some("2"));
    assert_eq!(
        statuses(&result),
        [ChunkStatus::Unused, ChunkStatus::RelevantButUncited]
    );
}

#[test]
fn every_chunk_status() {
    let chunks = r#"["The Eiffel Tower is 330 metres tall.", "Bread is baked from flour.",
        "The Louvre museum holds the Mona Lisa.", "Whales are large mammals."]"#;
    let result = check(
        "The Eiffel Tower is 330 metres tall [1]. The Louvre museum holds the Mona Lisa [2].",
        chunks,
    );
    assert_eq!(
        statuses(&result),
        [
            ChunkStatus::Used,
            ChunkStatus::CitedButNotSupporting,
            ChunkStatus::RelevantButUncited,
            ChunkStatus::Unused
        ]
    );
    assert_eq!(result.chunks[2].supported_sentences, 1);
    assert_eq!(result.chunks[2].best_coverage, 1.0);
    assert_eq!(result.counts.used, 1);
    assert_eq!(result.counts.unused, 1);
}

#[test]
fn no_claim_sentences_never_make_a_chunk_relevant() {
    let chunks = r#"["Thanks again.", "Whales are large mammals."]"#;
    let result = check("Thanks again!", chunks);
    assert_eq!(verdicts(&result), [Verdict::NoClaim]);
    assert_eq!(
        statuses(&result),
        [ChunkStatus::Unused, ChunkStatus::Unused]
    );
}

#[test]
fn counts_tally_verdicts() {
    let result = check(
        "The Eiffel Tower is 330 metres tall [1]. The Eiffel Tower is 324 metres tall [1]. Lovely views everywhere today.",
        TOWER,
    );
    assert_eq!(result.counts.sentences, 3);
    assert_eq!(result.counts.claims, 3);
    assert_eq!(result.counts.supported, 1);
    assert_eq!(result.counts.number_mismatch, 1);
    assert_eq!(result.counts.uncited_claim, 1);
    assert_eq!(result.counts.chunks, 2);
}

/// The verdict explanations (`ragcite explain`, the methodology) quote the scoring constants:
/// changing a constant without its explanation fails here.
#[test]
fn verdict_explanations_quote_the_scoring_constants() {
    use super::{MIN_CLAIM_WORDS, UNSUPPORTED_BELOW};
    use crate::quote::MIN_QUOTATION_WORDS;
    let says = |verdict: Verdict, phrase: &str| {
        assert!(
            verdict.explanation().contains(phrase),
            "the {verdict} explanation should say `{phrase}`:\n{}",
            verdict.explanation()
        );
    };
    let count = |n: usize| ["none", "one", "two", "three", "four", "five"][n];
    let share = |x: f64| match x {
        0.5 => "half".to_string(),
        x => format!("{x}"),
    };
    // Supported describes the model that scores, in the words every other description uses.
    says(Verdict::Supported, super::model::HOW_SUPPORT_IS_SCORED);
    let floor = format!("{} the threshold", share(UNSUPPORTED_BELOW));
    for verdict in [
        Verdict::NumberMismatch,
        Verdict::WeakSupport,
        Verdict::UnsupportedCitation,
    ] {
        says(verdict, &floor);
    }
    let claim = count(MIN_CLAIM_WORDS);
    says(
        Verdict::UncitedClaim,
        &format!("{claim} or more content words"),
    );
    says(
        Verdict::NoClaim,
        &format!("fewer than {claim} content words"),
    );
    says(
        Verdict::Misquote,
        &format!("{} or more words", count(MIN_QUOTATION_WORDS)),
    );
}

/// Chunks whose order differs from the source list's numbering: the map, not the position,
/// decides what `[1]` cites.
const STYLED: &str = r#"[
    {"id": "reef", "filename": "docs/reef_location.pdf", "text": "The reef stretches for 2,300 kilometres along the coast."},
    {"id": "webb", "title": "Webb mission overview", "url": "https://nasa.example/webb", "text": "The telescope launched on an Ariane 5 rocket in December 2021."}]"#;

fn check_scoped(answer: &str, chunks: &str, scope: crate::CitationScope) -> CheckResult {
    let answer = input::read_answer(answer.as_bytes(), None).unwrap();
    let chunks = input::read_chunks(chunks.as_bytes(), false).unwrap();
    let options = Options {
        model: crate::Model::formula(),
        citation_scope: scope,
        ..Options::default()
    };
    Checker::new(options).check(&answer, &chunks).result
}

#[test]
fn a_source_list_maps_markers_to_the_chunks_it_names_and_is_no_claim() {
    let answer = "The telescope launched on an Ariane 5 rocket in December 2021.¹\n\nThe reef stretches for 2,300 kilometres along the coast.²\n\nSources:\n¹ NASA, Webb mission overview\n² reef_location.pdf\n";
    let result = check(answer, STYLED);
    let cited: Vec<&[String]> = result.sentences.iter().map(|s| &s.cited[..]).collect();
    assert_eq!(
        cited,
        [
            &["webb".to_string()][..],
            &["reef".to_string()],
            &[],
            &[],
            &[]
        ]
    );
    assert_eq!(
        verdicts(&result),
        [
            Verdict::Supported,
            Verdict::Supported,
            Verdict::NoClaim,
            Verdict::NoClaim,
            Verdict::NoClaim
        ]
    );
}

#[test]
fn a_source_list_entry_with_a_marker_is_never_linted() {
    // Before, `[1] Tower facts, 1889 edition` was a claim citing chunk 1.
    let answer = "The Eiffel Tower is 330 metres tall [1].\n\nReferences:\n[1] Tower facts, 1889 edition\n[2] Museum guide\n";
    let result = check(answer, TOWER);
    assert_eq!(
        verdicts(&result),
        [
            Verdict::Supported,
            Verdict::NoClaim,
            Verdict::NoClaim,
            Verdict::NoClaim
        ]
    );
    assert!(result.sentences[2].markers.is_empty());
}

#[test]
fn an_unmatched_source_list_falls_back_to_labels_with_a_warning() {
    let answer = input::read_answer(
        b"The Eiffel Tower is 330 metres tall [1].\n\nSources:\n[1] Somewhere else\n",
        None,
    )
    .unwrap();
    let chunks = input::read_chunks(TOWER.as_bytes(), false).unwrap();
    let report = Checker::new(Options::default()).check(&answer, &chunks);
    assert_eq!(report.result.sentences[0].cited, ["1"]);
    assert!(
        report
            .warnings
            .iter()
            .any(|w| w.contains("source list names no chunk") && w.contains(" 1:")),
        "{:?}",
        report.warnings
    );
}

#[test]
fn a_paragraph_end_marker_covers_the_paragraph_under_paragraph_scope() {
    let answer = "# Webb\nThe telescope launched on an Ariane 5 rocket. It launched in December 2021. [webb]\n\nThe reef stretches along the coast.\n- The reef stretches for 2,300 kilometres. [reef]\n";
    let sentence = check_scoped(answer, STYLED, crate::CitationScope::Sentence);
    assert_eq!(
        verdicts(&sentence),
        [
            Verdict::NoClaim,
            Verdict::UncitedClaim,
            Verdict::Supported,
            Verdict::UncitedClaim,
            Verdict::Supported
        ]
    );
    let paragraph = check_scoped(answer, STYLED, crate::CitationScope::Paragraph);
    // The heading takes no marker; the list item is its own paragraph.
    assert_eq!(
        verdicts(&paragraph),
        [
            Verdict::NoClaim,
            Verdict::Supported,
            Verdict::Supported,
            Verdict::UncitedClaim,
            Verdict::Supported
        ]
    );
    let inherited: Vec<Option<usize>> = paragraph
        .sentences
        .iter()
        .map(|s| s.inherited_from)
        .collect();
    assert_eq!(inherited, [None, Some(3), None, None, None]);
    assert_eq!(paragraph.sentences[1].markers, ["webb"]);
}

#[test]
fn a_huge_paragraph_end_group_is_not_inherited() {
    let group: String = (0..70).map(|k| format!("[x{k}]")).collect();
    let answer = format!("The reef stretches along the coast. It is long. {group}\n");
    let result = check_scoped(&answer, STYLED, crate::CitationScope::Paragraph);
    assert_eq!(result.sentences[0].verdict, Verdict::UncitedClaim);
    assert_eq!(result.sentences[0].inherited_from, None);
}
