//! The words contradictions read, per language: negations (never stop words for this purpose),
//! what cancels one (`not only`, `whether or not`), what ends a clause, exclusivity markers,
//! universal quantifiers and direction words.

use crate::words::{Language, is_negation};

/// How far a negation reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Reach {
    /// The words after it in its clause, up to [`SCOPE`] tokens (English, French, Spanish,
    /// Italian, Portuguese, Russian: the negation stands before what it negates).
    Forward,
    /// Its whole clause (German, Dutch and the Scandinavian languages, where `nicht`, `niet`,
    /// `ikke` often stand after the verb and its object).
    Clause,
}

/// Tokens after a forward negation that it negates: `did not significantly reduce all-cause
/// mortality`, `are not offered as a second factor`.
pub(super) const SCOPE: usize = 6;

pub(super) fn reach(language: Language) -> Reach {
    match language {
        Language::German
        | Language::Dutch
        | Language::Danish
        | Language::Norwegian
        | Language::Swedish => Reach::Clause,
        _ => Reach::Forward,
    }
}

/// Whether `lower` (a lower-cased token) is a negation in `language`. French `ne` and `n'`
/// count too (with `pas`, `jamais`, …); `ne … que` (only) is cancelled by the caller.
pub(super) fn is_negation_word(language: Language, lower: &str) -> bool {
    let words: &[&str] = match language {
        Language::English => {
            return is_negation(lower)
                || matches!(lower, "nothing" | "nobody" | "unable" | "lacks" | "lacked");
        }
        Language::French => &[
            "ne", "n", "pas", "jamais", "aucun", "aucune", "sans", "ni", "rien", "guère", "nul",
            "nulle",
        ],
        Language::German => &[
            "nicht", "kein", "keine", "keinen", "keinem", "keiner", "keines", "nie", "niemals",
            "ohne", "weder", "nichts", "niemand",
        ],
        Language::Spanish => &[
            "no", "nunca", "ningún", "ninguno", "ninguna", "sin", "ni", "jamás", "tampoco", "nada",
            "nadie",
        ],
        Language::Italian => &[
            "non", "mai", "nessun", "nessuno", "nessuna", "senza", "né", "nemmeno", "neanche",
            "niente", "nulla",
        ],
        Language::Portuguese => &[
            "não", "nunca", "nenhum", "nenhuma", "sem", "nem", "jamais", "nada", "ninguém",
        ],
        Language::Dutch => &[
            "niet", "geen", "nooit", "zonder", "noch", "niets", "niemand",
        ],
        Language::Danish | Language::Norwegian => {
            &["ikke", "aldrig", "aldri", "ingen", "intet", "uden", "uten"]
        }
        Language::Swedish => &["inte", "icke", "aldrig", "ingen", "inget", "inga", "utan"],
        Language::Russian => &["не", "нет", "никогда", "без", "ни"],
        _ => &[],
    };
    words.contains(&lower)
}

/// Whether a negation followed by `next` negates nothing: `not only … but also`, `nicht nur`,
/// `non seulement`.
pub(super) fn cancels(next: &str) -> bool {
    matches!(
        next,
        "only"
            | "just"
            | "merely"
            | "simply"
            | "seulement"
            | "solo"
            | "sólo"
            | "solamente"
            | "soltanto"
            | "nur"
            | "alleen"
            | "só"
            | "apenas"
            | "bara"
            | "kun"
            | "que"
            | "qu"
    )
}

/// Comparatives that make `no more than 5` a bound on a figure, not a negation.
pub(super) fn is_comparative(word: &str) -> bool {
    matches!(
        word,
        "more" | "less" | "fewer" | "greater" | "higher" | "lower" | "later" | "earlier"
    )
}

/// Words that start a new clause: a negation before them does not reach past them.
pub(super) fn is_conjunction(lower: &str) -> bool {
    matches!(
        lower,
        "but"
            | "whereas"
            | "while"
            | "although"
            | "though"
            | "however"
            | "unlike"
            | "mais"
            | "cependant"
            | "aber"
            | "sondern"
            | "jedoch"
            | "pero"
            | "sino"
            | "aunque"
            | "ma"
            | "però"
            | "mas"
            | "porém"
            | "maar"
            | "men"
            | "но"
    )
}

/// Exclusivity markers: `only`, `exclusively`, `solely` (and their equivalents).
pub(super) fn is_exclusive(lower: &str) -> bool {
    matches!(
        lower,
        "only"
            | "exclusively"
            | "solely"
            | "seulement"
            | "uniquement"
            | "nur"
            | "ausschließlich"
            | "solo"
            | "sólo"
            | "únicamente"
            | "soltanto"
            | "solamente"
            | "apenas"
            | "somente"
            | "alleen"
            | "uitsluitend"
    )
}

/// Universal quantifiers, which a negative quantifier (`none`, `never`) or an exclusivity
/// marker on the other side contradicts.
pub(super) fn is_universal(lower: &str) -> bool {
    matches!(
        lower,
        "all"
            | "every"
            | "always"
            | "everyone"
            | "everything"
            | "any"
            | "tous"
            | "toutes"
            | "toujours"
            | "alle"
            | "immer"
            | "todos"
            | "todas"
            | "siempre"
            | "sempre"
            | "tutti"
            | "tutte"
            | "altijd"
    )
}

/// Negations that are quantifiers (`none`, `never`): against a universal they are an
/// exclusivity contradiction rather than a plain negation.
pub(super) fn is_negative_quantifier(lower: &str) -> bool {
    matches!(
        lower,
        "none" | "never" | "nothing" | "nobody" | "jamais" | "aucun" | "nie" | "niemals" | "nunca"
    )
}

/// Which way a direction word points: up (`rose`, `increased`, `higher`) or down.
pub(super) fn direction(lower: &str) -> Option<bool> {
    const UP: &[&str] = &[
        "increase",
        "increased",
        "increases",
        "increasing",
        "rise",
        "rose",
        "risen",
        "rises",
        "rising",
        "grew",
        "grow",
        "grown",
        "grows",
        "growing",
        "gained",
        "climbed",
        "jumped",
        "higher",
        "improved",
        "expanded",
        "doubled",
        "tripled",
    ];
    const DOWN: &[&str] = &[
        "decrease",
        "decreased",
        "decreases",
        "decreasing",
        "fall",
        "fell",
        "fallen",
        "falls",
        "falling",
        "decline",
        "declined",
        "declines",
        "declining",
        "drop",
        "dropped",
        "drops",
        "reduced",
        "shrank",
        "shrunk",
        "lower",
        "halved",
        "slipped",
        "contracted",
    ];
    if UP.contains(&lower) {
        Some(true)
    } else if DOWN.contains(&lower) {
        Some(false)
    } else {
        None
    }
}

/// English auxiliaries shown with a negation after them: `did not significantly reduce`.
pub(super) fn is_auxiliary(lower: &str) -> bool {
    matches!(
        lower,
        "do" | "does"
            | "did"
            | "is"
            | "are"
            | "was"
            | "were"
            | "be"
            | "been"
            | "has"
            | "have"
            | "had"
            | "can"
            | "could"
            | "will"
            | "would"
            | "shall"
            | "should"
            | "may"
            | "might"
            | "must"
            | "est"
            | "sont"
            | "ist"
            | "sind"
            | "es"
            | "son"
            | "è"
            | "é"
    )
}

/// Prefixes that make a word its own opposite (`unavailable`, `non-profit`): English only, and
/// only these two; `in-`, `im-` and `dis-` start too many unrelated words (`increase`).
pub(super) const OPPOSITE_PREFIXES: &[&str] = &["un", "non"];
