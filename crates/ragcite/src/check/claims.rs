//! The claim scorer's pass over an answer's sentences (see [`crate::support::model::claims`]): each
//! sentence's place in the answer joins the features read of its words, and where the scorer
//! decides (an English sentence without a citation that is no heading, source-list line or
//! fragment, and that no phrase rule names), its score says whether it is a claim: below the
//! claim threshold it is `no-claim` of kind `background`. A sentence a phrase rule names keeps
//! its kind: letting the score overrule the rules lost on held-out answers (docs/evaluation.md
//! → "The claim scorer, measured"); the rules' cues are features of the score all the same.

use crate::claim::{Kind, NonClaim};
use crate::support::model::claims::{ClaimModel, Feature, Place, place_features};
use crate::support::{MIN_CLAIM_WORDS, SentenceInput};

use super::scope::{starts_item, starts_paragraph};

/// Joins each sentence's place to its claim features, and scores those the scorer decides.
pub(super) fn score(
    sentences: &mut [SentenceInput],
    answer: &str,
    model: Option<&ClaimModel>,
    threshold: f64,
) {
    let n = sentences.len();
    let cites: Vec<bool> = sentences
        .iter()
        .map(|s| !s.labels.is_empty() || !s.native.is_empty())
        .collect();
    let citing = cites.iter().filter(|&&c| c).count();
    // Where the line of the sentence at hand starts: the sentences come in order, so the text
    // before each is searched once for line breaks, not again from the start.
    let (mut line_start, mut searched) = (0, 0);
    for k in 0..n {
        if sentences[k].claim_features.is_none() {
            continue;
        }
        let start = sentences[k].position.span.start;
        if start < searched {
            (line_start, searched) = (0, 0);
        }
        if let Some(at) = answer[searched..start].rfind('\n') {
            line_start = searched + at + 1;
        }
        searched = start;
        let place = Place {
            index: k,
            sentences: n,
            list_item: starts_item(&answer[line_start..start])
                || is_item_mark(first_word(&sentences[k].text)),
            after_lead_in: k > 0 && ends_with_colon(&sentences[k - 1].text),
            first_in_paragraph: k == 0
                || starts_paragraph(answer, &sentences[k - 1], &sentences[k]),
            others_citing: citing - usize::from(cites[k]),
            neighbours_citing: usize::from(k > 0 && cites[k - 1])
                + usize::from(k + 1 < n && cites[k + 1]),
        };
        let sentence = &mut sentences[k];
        let Some(mut features) = sentence.claim_features else {
            continue;
        };
        place_features(&mut features, &place);
        sentence.claim_features = Some(features);
        let Some(model) = model else {
            continue;
        };
        // A sentence with an abstention phrase that the rules keep a claim is a mixed one (`I
        // could not find X, but Y`): a claim about the rest, which the phrase must not quiet.
        if !decides(sentence, cites[k]) || features.get(Feature::Abstention) > 0.0 {
            continue;
        }
        let score = model.score(&features);
        sentence.claim_score = Some(score);
        if score + crate::support::EPSILON < threshold {
            sentence.nonclaim = Some(NonClaim {
                kind: Kind::Background,
                cue: String::new(),
            });
        }
    }
}

/// Whether the scorer decides the sentence: it cites nothing, takes no citation from its
/// paragraph, and [`may_decide`] what it holds.
fn decides(sentence: &SentenceInput, cites: bool) -> bool {
    !cites
        && sentence.inherited_from.is_none()
        && may_decide(
            sentence.nonclaim.is_some(),
            &sentence.position,
            sentence.words.len(),
            !sentence.numbers.is_empty() || !sentence.quotations.is_empty(),
        )
}

/// Whether the scorer may decide a sentence, by what is known when it is read: no phrase rule
/// names it (`named`), it is no heading nor source-list line, it has enough content words to be
/// a claim at all, and it states no figure and quotes nothing (`figures_or_quotes`: they make a
/// claim however it is phrased). Its claim features are read only then (or for `--features`).
pub(super) fn may_decide(
    named: bool,
    position: &crate::sentence::SentenceSpan,
    words: usize,
    figures_or_quotes: bool,
) -> bool {
    !named
        && !position.heading
        && !position.reference
        && words >= MIN_CLAIM_WORDS
        && !figures_or_quotes
}

/// A bullet or an enumerator as a word of its own.
fn is_item_mark(word: &str) -> bool {
    matches!(word, "-" | "*" | "+" | "•") || (starts_item(word) && word.len() <= 4)
}

fn first_word(text: &str) -> &str {
    let text = text.trim_start();
    &text[..text.find(' ').unwrap_or(text.len())]
}

fn ends_with_colon(text: &str) -> bool {
    text.trim_end_matches(|c: char| c.is_whitespace() || matches!(c, '*' | '_'))
        .ends_with([':', '：'])
}
