//! The verdict rules: a sentence's verdict from what was found about it ([`decide`], in the
//! order the methodology states), what a sentence that is no claim is ([`kind`]), and when a
//! chunk it does not cite is suggested ([`suggests`]). Pure: every score and search is done
//! before, by the judge (`judge/sentence.rs`). A new verdict rule goes here, with its case in
//! the tests below.

use crate::claim::Kind;
use crate::report::Verdict;

use super::{EPSILON, MIN_CLAIM_WORDS, SUGGESTION_MARGIN, SentenceInput, UNSUPPORTED_BELOW};

/// What is known about a sentence when its verdict is decided.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Findings {
    /// It has citation markers (resolving or not).
    pub(crate) marked: bool,
    /// Its content words.
    pub(crate) words: usize,
    /// It has numbers.
    pub(crate) numbers: bool,
    /// It is a Markdown heading.
    pub(crate) heading: bool,
    /// It is one of the named non-claims (a pleasantry, an abstention, ...).
    pub(crate) nonclaim: bool,
    /// It is a line of the answer's source list.
    pub(crate) reference: bool,
    /// Some marker resolves to a chunk.
    pub(crate) resolves: bool,
    /// A quotation of it (or a provider citation's cited text on it) is not in its chunk.
    pub(crate) misquoted: bool,
    /// A number of it is in none of the cited chunks (nor derived from their figures).
    pub(crate) missing_numbers: bool,
    /// A cited chunk's matching passage says the opposite.
    pub(crate) contradicted: bool,
    /// Its support: the cited chunks', alone or together, whichever is higher.
    pub(crate) support: f64,
    /// Its support as if every number were found: rule 4 looks at the words alone.
    pub(crate) words_support: f64,
    /// The same without the negation feature: a contradicted sentence's words are judged as
    /// if they agreed, so that saying the opposite is `contradicted`, not unsupported.
    pub(crate) unflipped_support: f64,
}

/// Whether `score` reaches `limit`, allowing for floating-point error.
pub(crate) fn reaches(score: f64, limit: f64) -> bool {
    score >= limit - EPSILON
}

/// The verdict, first rule that applies (numbered as the methodology's "Verdicts"):
/// 0. a line of the answer's source list: `no-claim` (it names a source, it claims nothing);
///    one of the named non-claims ([`crate::claim`]), unless it misquotes: `no-claim`;
/// 1. no marker: `uncited-claim` when the sentence has [`MIN_CLAIM_WORDS`] content words or a
///    number and is no heading, else `no-claim`;
/// 2. markers, no content word, no number and no misquotation: `no-claim`;
/// 3. no marker resolves: `unsupported-citation`;
/// 4. the words' support is below half the threshold: `unsupported-citation`;
/// 5. a quotation not in its chunk: `misquote`;
/// 6. a number in no cited chunk: `number-mismatch`;
/// 7. the matching passage says the opposite: `contradicted`;
/// 8. support below the threshold: `weak-support`;
/// 9. otherwise `supported`.
pub(crate) fn decide(f: &Findings, threshold: f64) -> Verdict {
    if f.reference || (f.nonclaim && !f.misquoted) {
        return Verdict::NoClaim;
    }
    if !f.marked {
        let checkable = f.words >= MIN_CLAIM_WORDS || f.numbers;
        return if checkable && !f.heading {
            Verdict::UncitedClaim
        } else {
            Verdict::NoClaim
        };
    }
    let has_claim_words = f.words > 0 || f.numbers;
    if !has_claim_words && !f.misquoted {
        // A quotation that is not in its chunk is a claim about the chunk, words or not.
        return Verdict::NoClaim;
    }
    let words_support = if f.contradicted {
        f.unflipped_support
    } else {
        f.words_support
    };
    if !f.resolves || !reaches(words_support, threshold * UNSUPPORTED_BELOW) {
        Verdict::UnsupportedCitation
    } else if f.misquoted {
        Verdict::Misquote
    } else if f.missing_numbers {
        Verdict::NumberMismatch
    } else if f.contradicted {
        Verdict::Contradicted
    } else if !reaches(f.support, threshold) {
        Verdict::WeakSupport
    } else {
        Verdict::Supported
    }
}

/// What a sentence of verdict `verdict` is when it is no claim, and the words that said so:
/// a line of the source list, one of the named non-claims (with its cue), a heading without a
/// marker, else a fragment. `None` for a claim.
pub(crate) fn kind(sentence: &SentenceInput, verdict: Verdict) -> (Option<Kind>, Option<String>) {
    match (&sentence.nonclaim, verdict) {
        (_, v) if v != Verdict::NoClaim => (None, None),
        (_, _) if sentence.position.reference => (Some(Kind::Reference), None),
        (Some(n), _) => (Some(n.kind), (!n.cue.is_empty()).then(|| n.cue.clone())),
        (None, _) if sentence.position.heading && sentence.labels.is_empty() => {
            (Some(Kind::Heading), None)
        }
        (None, _) => (Some(Kind::Fragment), None),
    }
}

/// Whether a chunk the sentence does not cite (`cited` false), whose support of it is `score`,
/// is suggested as its citation: the sentence is a claim, and the chunk reaches the threshold
/// and beats the cited chunks' `support` by [`SUGGESTION_MARGIN`].
pub(crate) fn suggests(
    verdict: Verdict,
    cited: bool,
    score: f64,
    support: f64,
    threshold: f64,
) -> bool {
    verdict.is_claim()
        && !cited
        && reaches(score, threshold)
        && reaches(score, support + SUGGESTION_MARGIN)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim() -> Findings {
        Findings {
            marked: true,
            words: 5,
            numbers: false,
            heading: false,
            nonclaim: false,
            reference: false,
            resolves: true,
            misquoted: false,
            missing_numbers: false,
            contradicted: false,
            support: 0.8,
            words_support: 0.8,
            unflipped_support: 0.8,
        }
    }

    #[test]
    fn each_rule_in_order() {
        let t = 0.5;
        assert_eq!(decide(&claim(), t), Verdict::Supported);
        let weak = Findings {
            support: 0.4,
            words_support: 0.4,
            ..claim()
        };
        assert_eq!(decide(&weak, t), Verdict::WeakSupport);
        let low = Findings {
            support: 0.2,
            words_support: 0.2,
            unflipped_support: 0.2,
            ..claim()
        };
        assert_eq!(decide(&low, t), Verdict::UnsupportedCitation);
        let contradicted = Findings {
            contradicted: true,
            words_support: 0.1,
            ..claim()
        };
        // Saying the opposite lowers support; the words alone still match.
        assert_eq!(decide(&contradicted, t), Verdict::Contradicted);
        let both = Findings {
            missing_numbers: true,
            ..contradicted
        };
        assert_eq!(decide(&both, t), Verdict::NumberMismatch);
        let misquoted = Findings {
            misquoted: true,
            ..both
        };
        assert_eq!(decide(&misquoted, t), Verdict::Misquote);
        let unresolved = Findings {
            resolves: false,
            ..claim()
        };
        assert_eq!(decide(&unresolved, t), Verdict::UnsupportedCitation);
        let bare = Findings {
            words: 0,
            ..claim()
        };
        assert_eq!(decide(&bare, t), Verdict::NoClaim);
        let uncited = Findings {
            marked: false,
            ..claim()
        };
        assert_eq!(decide(&uncited, t), Verdict::UncitedClaim);
        let heading = Findings {
            heading: true,
            ..uncited
        };
        assert_eq!(decide(&heading, t), Verdict::NoClaim);
        // A source list's entry is no claim, marked or not, supported or not.
        for entry in [claim(), low, uncited] {
            let entry = Findings {
                reference: true,
                ..entry
            };
            assert_eq!(decide(&entry, t), Verdict::NoClaim);
        }
        let short = Findings {
            words: 2,
            ..uncited
        };
        assert_eq!(decide(&short, t), Verdict::NoClaim);
    }
}
