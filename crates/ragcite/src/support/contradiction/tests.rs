//! The detector on small cases: what it catches, in each language and kind, and what it
//! leaves alone.

use super::*;
use crate::report::ContradictionKind;

fn find_in(language: Language, sentence: &str, chunk: &str) -> Option<Contradiction> {
    let analyzer = Analyzer::new(language);
    analyzer.begin();
    let chunks = vec![Chunk {
        id: "1".to_string(),
        text: chunk.to_string(),
        ..Chunk::default()
    }];
    // As a check reads it: the chunk screened by the sentence's words; and read whole, which
    // must find the same.
    let words = analyzer.content_words(sentence, &[]);
    let wanted = analyzer.word_filter(words.iter());
    let claim = Side::read(&analyzer, sentence, 0..sentence.len(), 0..sentence.len());
    assert!(
        claim.stems().iter().all(|&s| wanted.keeps(s)),
        "a word of {sentence:?} is not among its content words: the chunk is read whole"
    );
    let screened = Contradictions::new(&chunks, &analyzer, &wanted).find_text(sentence, 0);
    let whole = WordFilter::default();
    let read_whole = Contradictions::new(&chunks, &analyzer, &whole).find_text(sentence, 0);
    assert_eq!(
        format!("{screened:?}"),
        format!("{read_whole:?}"),
        "{sentence:?} against {chunk:?}"
    );
    screened
}

fn find(sentence: &str, chunk: &str) -> Option<Contradiction> {
    find_in(Language::English, sentence, chunk)
}

/// The kind and the chunk's words, checking that the span shows those words.
fn caught(language: Language, sentence: &str, chunk: &str) -> (ContradictionKind, String) {
    let found = find_in(language, sentence, chunk)
        .unwrap_or_else(|| panic!("not contradicted: {sentence:?} against {chunk:?}"));
    assert_eq!(
        &chunk[found.chunk_span.start..found.chunk_span.end],
        found.chunk_words
    );
    assert!(found.passage.chars().count() <= 200);
    (found.kind, found.chunk_words)
}

fn english(sentence: &str, chunk: &str) -> (ContradictionKind, String) {
    caught(Language::English, sentence, chunk)
}

fn none(sentence: &str, chunk: &str) {
    let found = find(sentence, chunk);
    assert!(found.is_none(), "{sentence:?} against {chunk:?}: {found:?}");
}

#[test]
fn a_negation_in_the_chunk_contradicts() {
    let (kind, words) = english(
        "Empagliflozin reduced all-cause mortality.",
        "In the trial, empagliflozin did not significantly reduce all-cause mortality in patients \
         with heart failure. Adverse events were rare.",
    );
    assert_eq!(kind, ContradictionKind::Polarity);
    assert_eq!(words, "did not significantly reduce");
    let (_, words) = english(
        "SMS codes are offered as a second factor.",
        "Authenticator apps and security keys are supported. SMS codes are not offered as a \
         second factor.",
    );
    assert_eq!(words, "are not offered");
}

#[test]
fn a_negation_in_the_sentence_contradicts() {
    let (kind, words) = english(
        "VACUUM FULL does not need an exclusive lock.",
        "VACUUM FULL requires an ACCESS EXCLUSIVE lock on the table it works on.",
    );
    assert_eq!(kind, ContradictionKind::Polarity);
    assert_eq!(words, "requires an ACCESS EXCLUSIVE lock");
}

#[test]
fn negations_in_other_languages_are_read() {
    let (kind, words) = caught(
        Language::French,
        "Le billet n'est pas valable le dimanche.",
        "Le billet est valable du lundi au dimanche.",
    );
    assert_eq!(kind, ContradictionKind::Polarity);
    assert_eq!(words, "valable du lundi au dimanche");
    caught(
        Language::German,
        "Das Ticket gilt am Sonntag nicht.",
        "Das Ticket gilt von Montag bis Sonntag.",
    );
    caught(
        Language::Spanish,
        "El billete no es válido el domingo.",
        "El billete es válido de lunes a domingo.",
    );
    caught(
        Language::Italian,
        "Il biglietto è valido la domenica.",
        "Il biglietto non è valido la domenica.",
    );
    caught(
        Language::Portuguese,
        "O bilhete é válido no domingo.",
        "O bilhete não é válido no domingo.",
    );
    caught(
        Language::Dutch,
        "Het ticket is geldig op zondag.",
        "Het ticket is niet geldig op zondag.",
    );
    // `ne … que` means only, not a negation.
    assert!(
        find_in(
            Language::French,
            "Le billet est valable le dimanche.",
            "Le billet n'est valable que le dimanche.",
        )
        .is_none()
    );
}

#[test]
fn direction_against_the_chunks_figures() {
    let (kind, words) = english(
        "Operating margin fell in 2023.",
        "Operating margin was 12.1% in 2022 and 14.3% in 2023.",
    );
    assert_eq!(kind, ContradictionKind::Direction);
    assert_eq!(words, "12.1% in 2022 and 14.3% in 2023");
    english(
        "Revenue increased last year.",
        "Revenue went from $4.2 million to $3.9 million last year.",
    );
    none(
        "Operating margin rose in 2023.",
        "Operating margin was 12.1% in 2022 and 14.3% in 2023.",
    );
    none(
        "Revenue decreased last year.",
        "Revenue went from $4.2 million to $3.9 million last year.",
    );
}

#[test]
fn antonyms_both_ways() {
    for (sentence, chunk, word) in [
        (
            "Profits rose sharply in the quarter.",
            "Profits fell sharply in the quarter.",
            "fell",
        ),
        (
            "Profits fell sharply in the quarter.",
            "Profits rose sharply in the quarter.",
            "rose",
        ),
        (
            "The dose was higher in the treated group.",
            "The dose was lower in the treated group.",
            "lower",
        ),
        (
            "Users may add a second account.",
            "Users may remove a second account.",
            "remove",
        ),
        (
            "The scan runs after the backup job.",
            "The scan runs before the backup job.",
            "before",
        ),
        (
            "Pets are allowed in the hotel rooms.",
            "Pets are prohibited in the hotel rooms.",
            "prohibited",
        ),
        (
            "The plan is available to students.",
            "The plan is unavailable to students.",
            "unavailable",
        ),
        (
            "Tokyo has the largest metro system.",
            "Tokyo has the smallest metro system.",
            "smallest",
        ),
    ] {
        let (kind, words) = english(sentence, chunk);
        assert_eq!(
            (kind, words.as_str()),
            (ContradictionKind::Antonym, word),
            "{sentence}"
        );
    }
}

#[test]
fn exclusivity_and_quantifiers() {
    let (kind, words) = english(
        "SSO is available on the Pro plan.",
        "SSO: Enterprise plan only.",
    );
    assert_eq!(kind, ContradictionKind::Exclusivity);
    assert_eq!(words, "Enterprise plan only");
    english(
        "SSO is available on all plans.",
        "SSO: Enterprise plan only.",
    );
    let (kind, _) = english(
        "All patients recovered within a week.",
        "None of the patients recovered within a week.",
    );
    assert_eq!(kind, ContradictionKind::Exclusivity);
    let (kind, _) = english(
        "The service always encrypts backups at rest.",
        "The service never encrypts backups at rest.",
    );
    assert_eq!(kind, ContradictionKind::Exclusivity);
    none(
        "SSO is available on the Enterprise plan.",
        "SSO: Enterprise plan only.",
    );
}

#[test]
fn what_is_not_a_contradiction() {
    // A negation in a counterfactual clause states no fact.
    none(
        "Without Charles II's return, the Protectorate under Cromwell might have continued [1].",
        "The rule of Oliver Cromwell ended, and the return of Charles II to the throne followed.",
    );
    none(
        "The bassoon in the recording produces a constant buzz [1].",
        "A modern bassoon sound would be much smoother without the constant buzz of the recording.",
    );
    // An unrelated negation elsewhere in the chunk.
    none(
        "Empagliflozin reduced all-cause mortality.",
        "Empagliflozin reduced all-cause mortality. It did not change blood pressure.",
    );
    none(
        "Empagliflozin reduced all-cause mortality.",
        "Empagliflozin reduced all-cause mortality, but it did not reduce hospital stays.",
    );
    // not only … but also.
    none(
        "The update fixes the crash and improves speed.",
        "The update not only fixes the crash but also improves speed.",
    );
    // Double negation.
    none(
        "It is not unusual for the bridge to close in winter.",
        "It is usual for the bridge to close in winter.",
    );
    none(
        "The feature cannot be used without a licence key.",
        "The feature requires a licence key to be used.",
    );
    // A negation on both sides.
    none(
        "The drug did not reduce mortality.",
        "The drug failed to reduce mortality in the trial.",
    );
    none(
        "The API is no longer supported.",
        "The old API is no longer supported after version 3.",
    );
    // Antonym under a negation agrees.
    none(
        "Sales did not decrease in 2023.",
        "Sales increased in 2023.",
    );
    // A negation about a word the chunk does not have.
    none(
        "The museum is not open on Mondays.",
        "The museum is open Tuesday to Sunday.",
    );
    // A bound on a figure.
    none(
        "No more than five users can join.",
        "More than five users can join the call.",
    );
    // Whether or not.
    none(
        "Whether or not the cache is warm, the query is fast.",
        "The query is fast, whether the cache is warm or cold.",
    );
}

#[test]
fn a_copied_sentence_is_never_contradicted() {
    let chunk = "Cats are not dogs. Cats are dogs. It is not true that cats are birds.";
    for sentence in ["Cats are dogs.", "Cats are not dogs.", "cats are birds"] {
        none(sentence, chunk);
    }
}

#[test]
fn the_equally_good_passage_that_agrees_wins() {
    none(
        "The bridge opened in spring.",
        "The bridge did not open in spring. Later reports: the bridge opened in spring.",
    );
}

#[test]
fn passages_are_bounded_and_cut_at_sentences() {
    let text = "One. Two! Three?\nFour";
    let cut: Vec<&str> = passages(text).into_iter().map(|r| &text[r]).collect();
    assert_eq!(cut, ["One.", " Two!", " Three?", "\n", "Four"]);
    let long = "word ".repeat(1000);
    assert!(passages(&long).iter().all(|r| r.len() <= MAX_PASSAGE + 5));
    let unbroken = "é".repeat(5000);
    let cut = passages(&unbroken);
    assert!(cut.len() > 1 && cut.iter().all(|r| unbroken.is_char_boundary(r.start)));
}

#[test]
fn hostile_texts_do_not_panic() {
    for (sentence, chunk) in [
        ("", ""),
        ("not", "not"),
        ("no no no no", "no, no. no"),
        ("é not ü", "ü not é"),
        ("from 1 to", "from 1 to 2"),
        ("fell in 2023", "1 in 2022 and 2 in 2023 and 3 in 2023"),
    ] {
        let _ = find(sentence, chunk);
    }
    let big = "The cache is not warm. ".repeat(20_000);
    assert!(find("The cache is warm and fast.", &big).is_none());
}

// ---------------------------------------------------------------------------------------------
// Issue 39: the polarity of the same predicate. Each pattern both ways: the pairs that say the
// same thing are left alone, and a pair of the same shape that says the opposite is caught.

/// Pattern 1: implicit negatives on one side agree with a plain negation on the other.
#[test]
fn implicit_negatives_agree_with_plain_ones() {
    none(
        "Older cars lack the safety features of new ones [1].",
        "An older car doesn't have the safety features of a new one.",
    );
    none(
        "It is unlikely that the update deletes user data [1].",
        "The update will not delete user data.",
    );
    none(
        "The ministry ruled out raising taxes this year [1].",
        "The ministry said it could not raise taxes this year.",
    );
    none(
        "Europe is unlikely to return to the prewar status quo [1].",
        "Europe might not return to the prewar status quo.",
    );
    none(
        "Landfills prevent contamination of the groundwater [1].",
        "Leachate is managed so as to not contaminate the groundwater.",
    );
    // The same predicate denied on one side only is still a contradiction.
    let (kind, _) = english(
        "The update will not delete user data [1].",
        "The update will delete user data from old devices.",
    );
    assert_eq!(kind, ContradictionKind::Polarity);
}

/// Pattern 2: both sides negative, aligned to different words, agree.
#[test]
fn two_negatives_agree() {
    none(
        "The company has not officially announced the release date [1].",
        "There is no official confirmation of the release date from the company.",
    );
    none(
        "We cannot know what happens when we die until we experience it [1].",
        "While we may not fully understand dying until we experience it, we do know what happens \
         to our bodies.",
    );
    let (kind, _) = english(
        "The company has not announced the release date [1].",
        "The company announced the release date on Monday.",
    );
    assert_eq!(kind, ContradictionKind::Polarity);
}

/// Pattern 3: a negation of another predicate denies nothing the other side states.
#[test]
fn a_negation_of_another_predicate_is_no_contradiction() {
    none(
        "Visitors may not notice the many styles of the old town [1].",
        "The guide describes the many styles of the old town.",
    );
    none(
        "Tax rates will not change in the next two years [1].",
        "The current tax rates will remain in effect for the next two years.",
    );
    none(
        "Developers who include affordable housing units get incentives [1].",
        "Incentives draw in developers who would never work on affordable housing projects.",
    );
    let (kind, _) = english(
        "Visitors do not notice the many styles of the old town [1].",
        "Visitors notice the many styles of the old town at once.",
    );
    assert_eq!(kind, ContradictionKind::Polarity);
}

/// One reversed word is a contradiction only when both sides say it of the same argument.
#[test]
fn one_reversed_word_needs_the_same_argument() {
    let (kind, words) = english(
        "Last year Alice attended the ceremony [1].",
        "Last year Alice did not attend.",
    );
    assert_eq!(kind, ContradictionKind::Polarity);
    assert_eq!(words, "did not attend");
    none(
        "Last year Alice attended the ceremony [1].",
        "Last year Bob did not attend.",
    );
    none(
        "However, not all gay men speak with a higher voice [1].",
        "Society so often stigmatizes those with gay-sounding voices.",
    );
}

/// Pattern 4: a converse comparative, its arguments swapped, agrees; the same order disagrees.
#[test]
fn converse_comparatives_agree() {
    none(
        "Steel is stronger than aluminium in tension [1].",
        "Aluminium is weaker than steel in tension.",
    );
    let (kind, _) = english(
        "Steel is stronger than aluminium in tension [1].",
        "Steel is weaker than aluminium in tension.",
    );
    assert_eq!(kind, ContradictionKind::Antonym);
}

/// Pattern 5: a superlative by negation states the superlative.
#[test]
fn a_superlative_by_negation_is_no_denial() {
    none(
        "Venice is the most crowded city in Italy in August [1].",
        "No other city in Italy is as crowded in August as Venice.",
    );
    none(
        "The Nile is the longest river in Africa [1].",
        "Nothing else in Africa is as long as the Nile river.",
    );
    let (kind, _) = english(
        "Venice is crowded in August [1].",
        "Venice is not crowded in August.",
    );
    assert_eq!(kind, ContradictionKind::Polarity);
}

/// Pattern 6: a counterfactual states no fact.
#[test]
fn counterfactuals_state_no_fact() {
    none(
        "Discs flatten because of the conservation of angular momentum [1].",
        "Were it not for the conservation of angular momentum, discs would not flatten.",
    );
    none(
        "The harbour flooded because of the storm surge [1].",
        "Had it not been for the storm surge, the harbour would not have flooded.",
    );
    none(
        "The bridge stood because of its steel cables [1].",
        "But for its steel cables, the bridge would not have stood.",
    );
    let (kind, _) = english(
        "Discs flatten because of the conservation of angular momentum [1].",
        "Discs do not flatten because of the conservation of angular momentum.",
    );
    assert_eq!(kind, ContradictionKind::Polarity);
}

/// Pattern 7: a negation in a condition (or a question, or advice against a description) asserts
/// nothing the other side denies.
#[test]
fn negated_conditions_questions_and_advice_assert_nothing() {
    none(
        "Regular watering keeps the leaves of the plant green [1].",
        "If the plant isn't watered regularly, its leaves turn yellow.",
    );
    none(
        "If there is an extra chip that cannot be divided evenly, players play for it [1].",
        "The players who share the winning hand evenly divide the pot.",
    );
    none(
        "There is debate over whether the judiciary should be representative of society [1].",
        "These courts are not representative of the society they serve.",
    );
    none(
        "You are advised to not accept friend requests from unknown people [1].",
        "Children accept friend requests from unknown people.",
    );
    // Both conditions: the two compare.
    let (kind, _) = english(
        "If the plant is not watered regularly, its leaves stay green [1].",
        "If the plant is watered regularly, its leaves stay green.",
    );
    assert_eq!(kind, ContradictionKind::Polarity);
}

/// The lexicon: a synonym of the denied predicate is the same predicate.
#[test]
fn a_synonym_of_the_denied_predicate_is_the_same_predicate() {
    let (kind, _) = english(
        "The city bought the harbour land from the railway in 1990 [1].",
        "The city did not purchase the harbour land from the railway in 1990.",
    );
    assert_eq!(kind, ContradictionKind::Polarity);
    // A predicate of another meaning is not one (`offered` is no `used`): left alone.
    none(
        "SMS codes can be used as a second factor [1].",
        "Authenticator apps and security keys are supported. SMS codes are not offered as a \
         second factor.",
    );
}
