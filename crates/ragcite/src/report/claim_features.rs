//! The claim scorer's features (see `support::model::claims`): what it reads of a sentence and
//! its place in the answer, kept with each sentence's result for `explain` and `train --claims`.

macro_rules! claim_features {
    ($($variant:ident = $name:literal: $doc:literal,)*) => {
        /// A feature of a sentence that the claim scorer reads.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Feature {
            $(#[doc = $doc] $variant,)*
        }

        impl Feature {
            /// Every feature, in the order of [`ClaimFeatures`].
            pub const ALL: &'static [Feature] = &[$(Feature::$variant,)*];

            /// The feature's name, as model files and `explain` write it.
            pub fn name(self) -> &'static str {
                match self {
                    $(Feature::$variant => $name,)*
                }
            }

            /// What the feature measures, in a few words.
            pub fn describe(self) -> &'static str {
                match self {
                    $(Feature::$variant => $doc,)*
                }
            }
        }
    };
}

claim_features! {
    ContentWords = "content_words": "content words (not stop words)",
    Figures = "figures": "figures it states (numbers that are no name, label or enumerator)",
    Years = "years": "years it names (four digits from 1000 to 2100)",
    Names = "names": "capitalised words inside it (names, most likely)",
    RareWords = "rare_words": "rare words (Zipf frequency below 3.5 in general English)",
    MeanRarity = "mean_rarity": "mean rarity of its content words (9 minus Zipf frequency)",
    GeneralWords = "general_words": "share of its content words that are general English",
    Quotes = "quotes": "quotations",
    Hedges = "hedges": "hedges and modals (may, might, could, often, typically, should, ...)",
    Vague = "vague": "vague quantities (various, numerous, many, several, some, ...)",
    Importance = "importance": "words of importance (important, essential, crucial, key, ...)",
    Summary = "summary": "it opens with a summing-up (in conclusion, overall, therefore, ...)",
    FirstPerson = "first_person": "first-person words (I, we, my, our)",
    SecondPerson = "second_person": "second-person words (you, your)",
    Question = "question": "it ends with a question mark",
    LeadIn = "lead_in": "it ends with a colon (a list lead-in)",
    Abstention = "abstention": "an abstention phrase (the sources do not cover ...)",
    Pleasantry = "pleasantry": "a greeting, thanks, wish or offer phrase",
    Meta = "meta": "a phrase about the answer or its sources",
    Navigation = "navigation": "a phrase saying where to read more",
    Instruction = "instruction": "a phrase of advice to the reader",
    ListItem = "list_item": "it is an item of a list (a bullet or an enumerator)",
    AfterLeadIn = "after_lead_in": "the sentence before it ends with a colon",
    Position = "position": "where it stands in the answer (0 first, 1 last)",
    FirstSentence = "first_sentence": "it is the answer's first sentence",
    LastSentence = "last_sentence": "it is the answer's last sentence",
    FirstInParagraph = "first_in_paragraph": "it opens a paragraph",
    Sentences = "sentences": "sentences in the answer",
    QuestionOverlap = "question_overlap": "share of its content words that the question has",
    OthersCite = "others_cite": "share of the answer's other sentences that cite",
    NeighboursCite = "neighbours_cite": "the sentences just before and after it that cite (0 to 2)",
}

/// Features the scorer reads.
pub const COUNT: usize = Feature::ALL.len();

impl Feature {
    /// The feature's place in [`ClaimFeatures`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The feature of a name.
    pub fn named(name: &str) -> Option<Feature> {
        Feature::ALL.iter().copied().find(|f| f.name() == name)
    }
}

/// A sentence's claim features, in the order of [`Feature::ALL`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClaimFeatures(pub [f64; COUNT]);

impl Default for ClaimFeatures {
    fn default() -> Self {
        ClaimFeatures([0.0; COUNT])
    }
}

impl ClaimFeatures {
    pub fn get(&self, feature: Feature) -> f64 {
        self.0[feature.index()]
    }

    pub fn set(&mut self, feature: Feature, value: f64) {
        self.0[feature.index()] = value;
    }

    /// Each feature with its name, in order.
    pub fn named(&self) -> impl Iterator<Item = (&'static str, f64)> + '_ {
        Feature::ALL.iter().map(|f| (f.name(), self.get(*f)))
    }
}
