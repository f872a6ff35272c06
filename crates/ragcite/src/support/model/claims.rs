//! The claim scorer: how likely a sentence without a citation states something a reader would
//! want sourced, from explainable features of the sentence and its neighbours ([`Feature`]),
//! scored by gradient-boosted trees. The phrase rules of [`crate::claim::classify`] are features here,
//! not vetoes: a sentence they call meta that still states a fact scores as a claim, and a plain
//! statement of framing or common knowledge that no rule names can score below the threshold.
//!
//! The shipped model (`support/model/claims.json`) is compiled in; `ragcite train --claims` fits a team's
//! own on its labels, with the trainer of the support model (`support::model::train`), and
//! `--claim-model` reads it. Every model is fitted so that 0.5 is its threshold. The trees are
//! evaluated in a fixed order in `f64` with a portable `exp`: the same sentence gets the same
//! score on every machine.

use std::sync::{Arc, LazyLock};

use super::{ModelFile, Tree, check_header, read_trees, sigmoid};
use crate::report::features::Factor;

/// The model file's `format`.
pub const FORMAT: &str = "ragcite-claim-model";
/// The version of the claim model file this build reads.
pub const VERSION: u32 = 1;

/// The shipped model's file, as the tests read it.
#[cfg(test)]
static SHIPPED_JSON: &str = include_str!("claims.json");

/// The shipped model, from the static copy the build script writes of `claims.json`.
static SHIPPED: LazyLock<Arc<ClaimModel>> = LazyLock::new(|| {
    Arc::new(
        ClaimModel::from_file(&super::CLAIM_MODEL.file())
            .expect("the shipped claim model is valid"),
    )
});

pub use crate::report::claim_features::{COUNT, ClaimFeatures, Feature};

/// A claim model: trees over [`ClaimFeatures`].
#[derive(Debug, Clone, PartialEq)]
pub struct ClaimModel {
    /// What it is and how it was fitted.
    pub description: String,
    base: f64,
    trees: Vec<Tree>,
}

impl ClaimModel {
    /// The model compiled into ragcite.
    pub fn shipped() -> Arc<ClaimModel> {
        Arc::clone(&SHIPPED)
    }

    /// Reads a claim model file; the error says what is wrong with it.
    pub fn from_json(text: &str) -> Result<ClaimModel, String> {
        let file: ModelFile = serde_json::from_str(text).map_err(|e| e.to_string())?;
        ClaimModel::from_file(&file)
    }

    pub fn from_file(file: &ModelFile) -> Result<ClaimModel, String> {
        check_header(file, FORMAT, VERSION, ("claim", "claim model"))?;
        let (base, trees) = read_trees(file, |name| Feature::named(name).map(Feature::index))?;
        Ok(ClaimModel {
            description: file.description.clone(),
            base,
            trees,
        })
    }

    /// How likely the sentence is a claim a reader wants sourced, in 0..1 (0.5: the model's
    /// threshold).
    pub fn score(&self, features: &ClaimFeatures) -> f64 {
        let x = features.0.map(|v| v as f32);
        sigmoid(
            self.trees
                .iter()
                .fold(self.base, |z, tree| z + tree.walk(&x, None)),
        )
    }

    /// The features that pushed the score up or down the most, strongest first (at most
    /// `most`): each tree's changes of value along its path.
    pub fn factors(&self, features: &ClaimFeatures, most: usize) -> Vec<Factor> {
        let x = features.0.map(|v| v as f32);
        let mut effects = [0.0f64; COUNT];
        for tree in &self.trees {
            tree.walk(&x, Some(&mut effects));
        }
        super::strongest(
            &effects,
            &features.0,
            |k| Feature::ALL[k].name(),
            |_| true,
            most,
        )
    }
}

/// Words that hedge or soften what a sentence states.
const HEDGES: [&str; 22] = [
    "may",
    "might",
    "could",
    "can",
    "should",
    "would",
    "possibly",
    "perhaps",
    "likely",
    "unlikely",
    "generally",
    "typically",
    "usually",
    "often",
    "sometimes",
    "potentially",
    "probably",
    "tend",
    "tends",
    "depending",
    "depends",
    "vary",
];

/// Quantities that name no amount.
const VAGUE: [&str; 14] = [
    "various",
    "numerous",
    "many",
    "several",
    "some",
    "variety",
    "range",
    "multiple",
    "different",
    "certain",
    "other",
    "others",
    "number",
    "wide",
];

/// Words that stress importance rather than state a fact.
const IMPORTANCE: [&str; 10] = [
    "important",
    "essential",
    "crucial",
    "critical",
    "vital",
    "key",
    "necessary",
    "significant",
    "importance",
    "consider",
];

/// Openings that sum up what was said before.
const SUMMARY: [&str; 9] = [
    "in conclusion",
    "in summary",
    "overall",
    "therefore",
    "thus",
    "ultimately",
    "to summarize",
    "to sum up",
    "in short",
];

const FIRST_PERSON: [&str; 10] = [
    "i", "i'm", "i've", "i'd", "i'll", "we", "we're", "my", "our", "me",
];
const SECOND_PERSON: [&str; 5] = ["you", "your", "yours", "you're", "you'll"];

/// What the scorer reads of a sentence's own words and phrases.
#[derive(Debug, Clone, Copy, Default)]
pub struct Own<'a> {
    /// The sentence with its markers blanked.
    pub text: &'a str,
    pub content_words: usize,
    pub figures: usize,
    pub years: usize,
    pub names: usize,
    pub rare_words: usize,
    /// The sum of its content words' rarities.
    pub rarity: f64,
    pub general_words: usize,
    pub quotes: usize,
    /// Its content words that the question has.
    pub in_question: usize,
    /// The check's language is English: the phrase features apply.
    pub english: bool,
}

/// Where a sentence stands in its answer.
#[derive(Debug, Clone, Copy, Default)]
pub struct Place {
    /// 0-based index among the answer's sentences, and their number.
    pub index: usize,
    pub sentences: usize,
    pub list_item: bool,
    pub after_lead_in: bool,
    pub first_in_paragraph: bool,
    /// The answer's other sentences that cite.
    pub others_citing: usize,
    /// The sentences just before and after it that cite (0 to 2).
    pub neighbours_citing: usize,
}

/// The features of a sentence from what was read of it and where it stands.
pub fn features(own: &Own, place: &Place) -> ClaimFeatures {
    let mut f = own_features(own);
    place_features(&mut f, place);
    f
}

/// The features of a sentence's own words and phrases; its place's are zero.
pub fn own_features(own: &Own) -> ClaimFeatures {
    use Feature as F;
    let mut f = ClaimFeatures::default();
    let count = |n: usize| n as f64;
    f.set(F::ContentWords, count(own.content_words));
    f.set(F::Figures, count(own.figures));
    f.set(F::Years, count(own.years));
    f.set(F::Names, count(own.names));
    f.set(F::RareWords, count(own.rare_words));
    if own.content_words > 0 {
        f.set(F::MeanRarity, own.rarity / own.content_words as f64);
        f.set(
            F::GeneralWords,
            own.general_words as f64 / own.content_words as f64,
        );
        f.set(
            F::QuestionOverlap,
            own.in_question as f64 / own.content_words as f64,
        );
    }
    f.set(F::Quotes, count(own.quotes));
    let (mut hedges, mut vague, mut first, mut second, mut importance) = (0, 0, 0, 0, 0);
    for word in own
        .text
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’'))
        .filter(|w| !w.is_empty())
    {
        let lower = word.to_lowercase().replace('’', "'");
        let w = lower.as_str();
        hedges += usize::from(HEDGES.contains(&w));
        vague += usize::from(VAGUE.contains(&w));
        first += usize::from(FIRST_PERSON.contains(&w));
        second += usize::from(SECOND_PERSON.contains(&w));
        importance += usize::from(IMPORTANCE.contains(&w));
    }
    let opening = own
        .text
        .trim_start_matches(|c: char| !c.is_alphanumeric())
        .get(..16)
        .unwrap_or(own.text)
        .to_ascii_lowercase();
    f.set(
        F::Summary,
        f64::from(u8::from(SUMMARY.iter().any(|s| {
            opening.starts_with(s)
                && !opening[s.len()..].starts_with(|c: char| c.is_ascii_alphabetic())
        }))),
    );
    f.set(F::Importance, count(importance));
    f.set(F::Hedges, count(hedges));
    f.set(F::Vague, count(vague));
    f.set(F::FirstPerson, count(first));
    f.set(F::SecondPerson, count(second));
    let cues = crate::claim::cues(own.text, own.english);
    let flag = |b: bool| f64::from(u8::from(b));
    f.set(F::Question, flag(cues.question));
    f.set(F::LeadIn, flag(cues.lead_in));
    f.set(F::Abstention, flag(cues.abstention));
    f.set(F::Pleasantry, flag(cues.pleasantry));
    f.set(F::Meta, flag(cues.meta));
    f.set(F::Navigation, flag(cues.navigation));
    f.set(F::Instruction, flag(cues.instruction));
    f
}

/// Sets the features of a sentence's place in its answer.
pub fn place_features(f: &mut ClaimFeatures, place: &Place) {
    use Feature as F;
    let count = |n: usize| n as f64;
    let flag = |b: bool| f64::from(u8::from(b));
    f.set(F::ListItem, flag(place.list_item));
    f.set(F::AfterLeadIn, flag(place.after_lead_in));
    f.set(
        F::Position,
        if place.sentences > 1 {
            place.index as f64 / (place.sentences - 1) as f64
        } else {
            0.0
        },
    );
    f.set(F::FirstSentence, flag(place.index == 0));
    f.set(F::LastSentence, flag(place.index + 1 == place.sentences));
    f.set(F::FirstInParagraph, flag(place.first_in_paragraph));
    f.set(F::Sentences, count(place.sentences));
    if place.sentences > 1 {
        f.set(
            F::OthersCite,
            place.others_citing as f64 / (place.sentences - 1) as f64,
        );
    }
    f.set(F::NeighboursCite, count(place.neighbours_citing));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_model_reads_and_names_its_features() {
        let model = ClaimModel::from_json(SHIPPED_JSON).unwrap();
        assert!(!model.trees.is_empty());
        super::super::assert_transcribes(&super::super::CLAIM_MODEL, SHIPPED_JSON);
        for (k, feature) in Feature::ALL.iter().enumerate() {
            assert_eq!(feature.index(), k);
            assert_eq!(Feature::named(feature.name()), Some(*feature));
        }
    }

    #[test]
    fn a_support_model_is_no_claim_model() {
        let text = include_str!("model.json");
        let error = ClaimModel::from_json(text).unwrap_err();
        assert!(error.contains("not a ragcite claim model"), "{error}");
        let bad = SHIPPED_JSON.replacen("\"content_words\"", "\"colour\"", 1);
        let error = ClaimModel::from_json(&bad).unwrap_err();
        assert!(error.contains("unknown feature"), "{error}");
    }

    fn model(feature: &str, threshold: f64) -> ClaimModel {
        ClaimModel::from_json(&format!(
            r#"{{"format":"{FORMAT}","version":1,"kind":"trees",
            "features":[{{"name":"{feature}"}}],"base":0.0,
            "trees":[{{"feature":[0,-1,-1],"threshold":[{threshold},0,0],"left":[1,-1,-1],
            "right":[2,-1,-1],"value":[0.0,-1.0,1.0]}}]}}"#
        ))
        .unwrap()
    }

    #[test]
    fn a_tree_scores_and_explains_a_sentence() {
        let model = model("figures", 0.5);
        let mut x = ClaimFeatures::default();
        assert_eq!(model.score(&x), sigmoid(-1.0));
        x.set(Feature::Figures, 2.0);
        assert_eq!(model.score(&x), sigmoid(1.0));
        let factors = model.factors(&x, 3);
        assert_eq!(factors.len(), 1);
        assert_eq!((factors[0].feature, factors[0].effect), ("figures", 1.0));
    }

    #[test]
    fn the_words_and_the_place_give_the_features() {
        let own = Own {
            text: "You may find various options; I hope this helps!",
            content_words: 5,
            in_question: 2,
            general_words: 5,
            english: true,
            ..Own::default()
        };
        let place = Place {
            index: 3,
            sentences: 4,
            others_citing: 3,
            neighbours_citing: 1,
            ..Place::default()
        };
        let f = features(&own, &place);
        assert_eq!(f.get(Feature::SecondPerson), 1.0);
        assert_eq!(f.get(Feature::FirstPerson), 1.0);
        assert_eq!(f.get(Feature::Hedges), 1.0);
        assert_eq!(f.get(Feature::Vague), 1.0);
        assert_eq!(f.get(Feature::Pleasantry), 1.0);
        assert_eq!(f.get(Feature::Meta), 0.0);
        assert_eq!(f.get(Feature::QuestionOverlap), 0.4);
        assert_eq!(f.get(Feature::Position), 1.0);
        assert_eq!(f.get(Feature::LastSentence), 1.0);
        assert_eq!(f.get(Feature::FirstSentence), 0.0);
        assert_eq!(f.get(Feature::OthersCite), 1.0);
        // In another language, no English phrase is read.
        let f = features(
            &Own {
                english: false,
                ..own
            },
            &place,
        );
        assert_eq!(f.get(Feature::Pleasantry), 0.0);
    }
}
