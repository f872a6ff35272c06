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

/// The implicit negations of `implicit_negations.txt` (English), by their first word: each
/// phrase as its words after the first. Read on first use.
fn implicit_table() -> &'static rustc_hash::FxHashMap<&'static str, Vec<Vec<&'static str>>> {
    static TABLE: std::sync::OnceLock<rustc_hash::FxHashMap<&'static str, Vec<Vec<&'static str>>>> =
        std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table: rustc_hash::FxHashMap<&'static str, Vec<Vec<&'static str>>> =
            rustc_hash::FxHashMap::default();
        for line in include_str!("implicit_negations.txt").lines() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let phrase = line.split('|').next().unwrap_or("");
            let mut words = phrase.split_whitespace();
            if let Some(first) = words.next() {
                table.entry(first).or_default().push(words.collect());
            }
        }
        // Longest phrases first: `no longer` before `no`.
        for phrases in table.values_mut() {
            phrases.sort_by_key(|p| std::cmp::Reverse(p.len()));
        }
        table
    })
}

/// The number of words of the implicit negation that starts with `words`' first (English,
/// lower-cased), if one does: `lack` 1, `rule out` 2, `no longer` 2.
pub(super) fn implicit_negation<'w>(mut words: impl Iterator<Item = &'w str>) -> Option<usize> {
    let first = words.next()?;
    let phrases = implicit_table().get(first)?;
    let rest: Vec<&str> = words.take(3).collect();
    phrases
        .iter()
        .find(|phrase| phrase.len() <= rest.len() && phrase.iter().zip(&rest).all(|(a, b)| a == b))
        .map(|phrase| phrase.len() + 1)
}

/// Words before a negation (or an affirmed word) in its sentence that make what follows a
/// condition, not a statement: `if the plant isn't watered`, `whether … should be`.
pub(super) fn is_condition(lower: &str) -> bool {
    matches!(
        lower,
        "if" | "unless"
            | "whether"
            | "whenever"
            | "suppose"
            | "supposing"
            | "assuming"
            | "provided"
            | "imagine"
            | "hypothetically"
    )
}

/// Words that make a sentence advice, not a description: `you are advised not to accept`,
/// `should not be shared`.
pub(super) fn is_directive(lower: &str) -> bool {
    matches!(
        lower,
        "advised"
            | "advise"
            | "advisable"
            | "recommended"
            | "recommend"
            | "recommends"
            | "encouraged"
            | "important"
            | "essential"
            | "crucial"
            | "ensure"
            | "please"
            | "tip"
    )
}

/// Words a question opens with (English).
pub(super) fn is_interrogative(lower: &str) -> bool {
    matches!(
        lower,
        "what"
            | "how"
            | "why"
            | "when"
            | "where"
            | "who"
            | "whom"
            | "whose"
            | "which"
            | "do"
            | "does"
            | "did"
            | "is"
            | "are"
            | "was"
            | "were"
            | "can"
            | "could"
            | "will"
            | "would"
            | "should"
            | "shall"
            | "may"
            | "might"
            | "has"
            | "have"
            | "had"
            | "isn't"
            | "aren't"
            | "don't"
            | "doesn't"
            | "didn't"
            | "won't"
            | "can't"
    )
}
