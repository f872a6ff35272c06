//! A sentence against one passage: each read as tokens (stems, clauses, negations), then the
//! rules in order: polarity, antonyms, exclusivity, direction against the passage's figures.

use std::ops::Range;

use rustc_hash::FxHashSet;

use crate::report::{ContradictionKind, PolarityReading, PredicateSide};
use crate::words::{Analyzer, Language, is_general_word, numbers};

use super::lexicon::{self, Reach, SCOPE};

/// Tokens around a word within which a shared word makes it "where the other side's word
/// stands" (antonyms, direction words).
const NEAR: usize = 4;

/// Words that are opposites although they are stop words (so no stems): compared as written.
const STOP_OPPOSITES: &[(&str, &str)] = &[
    ("before", "after"),
    ("above", "below"),
    ("over", "under"),
    ("more", "less"),
    ("more", "fewer"),
    ("most", "least"),
];

/// Whether `lower` is one of [`STOP_OPPOSITES`].
pub(super) fn is_stop_opposite(lower: &str) -> bool {
    STOP_OPPOSITES
        .iter()
        .any(|&(a, b)| a == lower || b == lower)
}

/// Shared words a negation must reverse for a polarity contradiction, unless (in English) the
/// two sides say the predicate of the same argument: then one is enough.
const MIN_FLIPPED: usize = 2;

/// One token: where it is, as written lower-cased, its stem if a content word, its clause.
#[derive(Debug)]
pub(super) struct Token {
    start: usize,
    end: usize,
    lower: String,
    stem: Option<u32>,
    clause: u32,
    /// In the passage itself, not in the text read around it.
    inside: bool,
}

/// A sentence, or a passage with some text around it, as contradictions read it.
pub(super) struct Side<'t> {
    /// The whole text (the sentence, or the chunk): token offsets are into it.
    text: &'t str,
    /// The passage itself (the whole sentence for a sentence).
    pub(super) inside: Range<usize>,
    tokens: Vec<Token>,
    /// Distinct stems of the tokens inside, in order of appearance.
    stems: Vec<u32>,
    stem_set: FxHashSet<u32>,
    language: Language,
}

/// A contradiction found: its kind, the byte spans of the sentence's words and of the chunk's,
/// the passage as shown.
pub(super) type Found = (ContradictionKind, Range<usize>, Range<usize>, String);

impl<'t> Side<'t> {
    /// Reads `window` of `text`, of which `inside` is the passage.
    pub(super) fn read(
        analyzer: &Analyzer,
        text: &'t str,
        window: Range<usize>,
        inside: Range<usize>,
    ) -> Self {
        let base = text.as_ptr() as usize;
        let mut tokens: Vec<Token> = Vec::new();
        let mut clause = 0u32;
        let mut previous_end = window.start;
        let slice = text.get(window.clone()).unwrap_or("");
        analyzer.for_each_token(slice, &[], |token| {
            let start = (token.as_ptr() as usize).wrapping_sub(base);
            let end = start + token.len();
            let gap = text.get(previous_end..start).unwrap_or("");
            // ASCII tokens (most) lower-cased in one step, to the same text.
            let lower = if token.is_ascii() {
                token.to_ascii_lowercase()
            } else {
                token.to_lowercase().replace('\u{2019}', "'")
            };
            if !tokens.is_empty() && (breaks(gap) || lexicon::is_conjunction(&lower)) {
                clause += 1;
            }
            previous_end = end;
            tokens.push(Token {
                start,
                end,
                stem: analyzer.stem_id(token),
                lower,
                clause,
                inside: start >= inside.start && end <= inside.end,
            });
        });
        let mut stems = Vec::new();
        let mut stem_set = FxHashSet::default();
        for token in tokens.iter().filter(|t| t.inside) {
            if let Some(stem) = token.stem
                && stem_set.insert(stem)
            {
                stems.push(stem);
            }
        }
        Side {
            text,
            inside,
            tokens,
            stems,
            stem_set,
            language: analyzer.language(),
        }
    }

    pub(super) fn stems(&self) -> &[u32] {
        &self.stems
    }

    /// How many of this side's stems `other` holds.
    pub(super) fn shared(&self, other: &Side) -> usize {
        self.stems
            .iter()
            .filter(|s| other.stem_set.contains(s))
            .count()
    }

    /// Whether the tokens of `claim`, all of them, stand in a row in this side's text.
    pub(super) fn contains_copy(&self, claim: &Side) -> bool {
        let wanted: Vec<&str> = claim.tokens.iter().map(|t| t.lower.as_str()).collect();
        let Some(first) = wanted.first() else {
            return false;
        };
        (0..self.tokens.len()).any(|k| {
            self.tokens[k].lower == *first
                && self.tokens.len() - k >= wanted.len()
                && self.tokens[k..k + wanted.len()]
                    .iter()
                    .zip(&wanted)
                    .all(|(t, w)| t.lower == *w)
        })
    }

    /// The words of `range`, white space collapsed.
    pub(super) fn words(&self, range: Range<usize>) -> String {
        crate::input::collapse_white_space(self.text.get(range).unwrap_or(""))
    }

    /// Whether this side holds every stem of `other`'s tokens within `range`.
    pub(super) fn holds_words_of(&self, other: &Side, range: &Range<usize>) -> bool {
        other
            .tokens
            .iter()
            .filter(|t| t.start >= range.start && t.end <= range.end)
            .filter_map(|t| t.stem)
            .all(|stem| self.stem_set.contains(&stem))
    }

    /// The tokens of the passage itself.
    fn inside_tokens(&self) -> impl Iterator<Item = (usize, &Token)> {
        self.tokens.iter().enumerate().filter(|(_, t)| t.inside)
    }

    /// Whether token `k` has a word `other` shares within [`NEAR`] tokens, in its clause.
    fn near_shared(&self, k: usize, other: &Side) -> bool {
        !self.neighbours(k, other).is_empty()
    }

    /// The stems of the words `other` shares within [`NEAR`] tokens of token `k`, in its
    /// clause, each with whether it stands after the token.
    fn neighbours(&self, k: usize, other: &Side) -> Vec<(u32, bool)> {
        let clause = self.tokens[k].clause;
        let from = k.saturating_sub(NEAR);
        let to = (k + NEAR + 1).min(self.tokens.len());
        (from..to)
            .filter(|&j| j != k && self.tokens[j].clause == clause)
            .filter_map(|j| Some((self.tokens[j].stem?, j > k)))
            .filter(|(x, _)| other.stem_set.contains(x) && self.stem_set.contains(x))
            .collect()
    }
}

/// A token of `s` and one of `p` (inside, as `in_s` and `in_p` pick them) that stand among the
/// same shared words on the same sides: two of them in common, or the one the sentence's token
/// has. A word before one and after the other does not count: `steel is stronger than
/// aluminium` and `aluminium is weaker than steel` say the same with the arguments swapped.
/// In English both must be stated the same way (both asserted, or both conditions or questions),
/// both in advice or neither.
fn placed(
    s: &Side,
    p: &Side,
    in_s: impl Fn(&Token) -> bool,
    in_p: impl Fn(&Token) -> bool,
) -> Option<(usize, usize)> {
    let english = s.language == Language::English;
    for (i, _) in s.inside_tokens().filter(|(_, t)| in_s(t)) {
        let around = s.neighbours(i, p);
        if around.is_empty() {
            continue;
        }
        for (j, _) in p.inside_tokens().filter(|(_, t)| in_p(t)) {
            let there = p.neighbours(j, s);
            let common = around
                .iter()
                .filter(|&&(x, after)| there.contains(&(x, after)))
                .count();
            if common >= around.len().min(2)
                && (!english
                    || (asserted(s, i) == asserted(p, j) && directive(s, i) == directive(p, j)))
            {
                return Some((i, j));
            }
        }
    }
    None
}

/// Whether the text between two tokens ends a clause.
fn breaks(gap: &str) -> bool {
    gap.contains([
        ',', ';', ':', '.', '!', '?', '(', ')', '[', ']', '{', '}', '\n', '—', '–', '"', '“', '”',
    ]) || gap.contains(" - ")
}

/// Whether a sentence with `words` content stems, `shared` of which the passage holds, is
/// aligned with it: at least two words and half of them.
pub(super) fn aligned(shared: usize, words: usize) -> bool {
    shared >= 2 && ALIGNED * shared >= words
}

/// A passage is aligned with a sentence when it holds at least one in this many of its words.
const ALIGNED: usize = 3;

/// Which tokens of a side negations reach.
struct Marks {
    /// Per token, how many negations reach it.
    count: Vec<u8>,
    /// Per token, the first negation that reaches it.
    by: Vec<Option<usize>>,
    /// Tokens reached by a negation of an antonym (`not decrease` for `increase`): they agree.
    absorbed: Vec<bool>,
    /// Whether a negation reaching a token negates it: an odd count in English (`cannot … without`),
    /// any in languages where negations agree with each other (`ne … pas`, `no … nada`).
    parity: bool,
    /// Per negation token, the predicate it denies (English): the first content word it
    /// reaches, past a determiner's noun to the verb after it (`No artistic style is static`).
    heads: Vec<Option<usize>>,
    /// Per negation token, whether it stands where nothing is stated (English): a condition, a
    /// question, a counterfactual.
    unasserted: Vec<bool>,
}

impl Marks {
    fn negated(&self, k: usize) -> bool {
        let count = self.count[k];
        if self.parity {
            count % 2 == 1
        } else {
            count > 0
        }
    }
}

/// The tokens that a negation reaches in `side`: `paired` are the tokens of antonym pairs
/// (a negation reaching one of them makes the pair agree, and negates nothing else).
fn negations(analyzer: &Analyzer, side: &Side, other: &Side, paired: &[usize]) -> Marks {
    let language = analyzer.language();
    let english = language == Language::English;
    let tokens = &side.tokens;
    let n = tokens.len();
    let mut marks = Marks {
        count: vec![0; n],
        by: vec![None; n],
        absorbed: vec![false; n],
        parity: english,
        heads: vec![None; n],
        unasserted: vec![false; n],
    };
    let mut skip_without = false;
    for (i, token) in tokens.iter().enumerate() {
        let lower = token.lower.as_str();
        let next = tokens.get(i + 1).filter(|t| t.clause == token.clause);
        let failing = english
            && matches!(lower, "fail" | "fails" | "failed" | "failing")
            && next.is_some_and(|t| t.lower == "to");
        if !(lexicon::is_negation_word(language, lower) || failing) {
            continue;
        }
        let reach = lexicon::reach(language);
        // A negation before punctuation negates nothing after it (`No, …`, `… or not.`); one
        // that negates its whole clause may close it (`gilt am Sonntag nicht.`).
        let next = match next {
            Some(next) => next,
            None if reach == Reach::Clause => token,
            None => continue,
        };
        if lexicon::cancels(&next.lower) && !(language == Language::French && lower == "ne") {
            continue;
        }
        if i > 0 && tokens[i - 1].lower == "or" {
            continue; // whether or not
        }
        // A negation in a counterfactual clause states no fact: `without Charles II's return,
        // the Protectorate might have continued`, `would be smoother without the buzz`.
        // Its clause and the next one count (`Without X, Y might have …`).
        let near = |t: &&Token| t.clause == token.clause || t.clause == token.clause + 1;
        if english
            && tokens
                .iter()
                .filter(near)
                .any(|t| matches!(t.lower.as_str(), "would" | "might" | "could"))
            && tokens
                .iter()
                .filter(near)
                .any(|t| matches!(t.lower.as_str(), "have" | "be"))
        {
            continue;
        }
        // `No other city is as crowded as Venice`, `nothing else`: a superlative, not a denial.
        if english
            && matches!(lower, "no" | "none" | "nothing" | "nobody")
            && tokens[i + 1..n.min(i + 3)]
                .iter()
                .any(|t| matches!(t.lower.as_str(), "other" | "else"))
        {
            continue;
        }
        if english
            && lexicon::is_comparative(&next.lower)
            && tokens[i + 1..n.min(i + 4)]
                .iter()
                .any(|t| t.lower == "than")
        {
            continue; // no more than 5: a bound on a figure
        }
        let clause: Vec<usize> = (0..n)
            .filter(|&j| tokens[j].clause == token.clause)
            .collect();
        // `neither … nor` is one negation.
        if lower == "nor"
            && clause
                .iter()
                .any(|&j| j < i && tokens[j].lower == "neither")
        {
            continue;
        }
        if language == Language::French && matches!(lower, "ne" | "n") {
            // `ne … pas` is one negation (the `pas` counts); `ne … que` means only.
            let later = clause
                .iter()
                .filter(|&&j| j > i)
                .map(|&j| tokens[j].lower.as_str());
            if later.clone().any(|l| {
                l == "que" || l == "qu" || (lexicon::is_negation_word(language, l) && l != "n")
            }) {
                continue;
            }
        }
        let scope: Vec<usize> = match reach {
            Reach::Forward => clause
                .iter()
                .copied()
                .filter(|&j| j > i && j <= i + SCOPE)
                .collect(),
            Reach::Clause => clause.iter().copied().filter(|&j| j != i).collect(),
        };
        if scope.iter().any(|j| paired.contains(j)) {
            for &j in &scope {
                marks.absorbed[j] = true;
            }
            continue;
        }
        if english && double_negation(analyzer, side, other, &scope) {
            continue;
        }
        // `not unlikely`, `cannot fail to`, `never fails to`, `not impossible`: the two cancel.
        if english
            && scope
                .iter()
                .find(|&&j| !is_hedge(&tokens[j].lower) && !lexicon::is_auxiliary(&tokens[j].lower))
                .is_some_and(|&j| implicit_at(side, j).is_some())
        {
            continue;
        }
        if english {
            marks.heads[i] = head_of(tokens, i, &scope);
            marks.unasserted[i] = !asserted(side, i);
        }
        // `cannot be used without a key`: the key is required; the two negations cancel.
        if english && scope.iter().any(|&j| tokens[j].lower == "without") {
            skip_without = true;
            continue;
        }
        if english && lower == "without" && std::mem::take(&mut skip_without) {
            continue;
        }
        for j in scope {
            marks.count[j] = marks.count[j].saturating_add(1);
            marks.by[j].get_or_insert(i);
        }
    }
    marks
}

/// Whether the first content word a negation reaches is a prefixed opposite of a word of the
/// other side (`not unusual` against `usual`): the two negations cancel.
fn double_negation(analyzer: &Analyzer, side: &Side, other: &Side, scope: &[usize]) -> bool {
    let Some(&first) = scope.iter().find(|&&j| side.tokens[j].stem.is_some()) else {
        return false;
    };
    opposite_base(analyzer, &side.tokens[first], other).is_some()
}

/// The stem of the word `token` is the prefixed opposite of (`unavailable` → `available`),
/// when `other` holds that word and not `token`'s own (English).
fn opposite_base(analyzer: &Analyzer, token: &Token, other: &Side) -> Option<u32> {
    if analyzer.language() != Language::English
        || token.stem.is_none_or(|s| other.stem_set.contains(&s))
    {
        return None;
    }
    lexicon::OPPOSITE_PREFIXES.iter().find_map(|prefix| {
        let base = token.lower.strip_prefix(prefix)?;
        if base.len() < 4 {
            return None;
        }
        analyzer
            .stem_id(base)
            .filter(|stem| other.stem_set.contains(stem))
    })
}

/// Antonym pairs: a token of the sentence and one of the passage of opposite meaning, each
/// missing from the other side, each beside words the two share.
fn antonym_pairs(analyzer: &Analyzer, s: &Side, p: &Side) -> Vec<(usize, usize)> {
    if analyzer.language() != Language::English {
        return Vec::new();
    }
    let mut pairs = Vec::new();
    let stem_is = |stem: u32| move |t: &Token| t.stem == Some(stem);
    // The table's antonyms, read from the sentence's words; a sentence that uses both sides
    // of a pair (`younger than …, older than …`) contradicts nothing with them.
    let sentence = s.text.get(s.inside.clone()).unwrap_or("");
    for word in analyzer.content_words(sentence, &[]) {
        if p.stem_set.contains(&word.id)
            || word.antonyms.iter().any(|(a, _)| s.stem_set.contains(a))
        {
            continue;
        }
        for &(antonym, _) in &word.antonyms {
            if p.stem_set.contains(&antonym)
                && let Some(pair) = placed(s, p, stem_is(word.id), stem_is(antonym))
            {
                pairs.push(pair);
            }
        }
    }
    // Prefixed opposites, both ways.
    // The base written with its prefix as a word (`non-motor` against `nonmotor`) agrees.
    let prefixed = |side: &Side, stem: u32| {
        side.tokens.windows(2).any(|w| {
            w[1].stem == Some(stem) && lexicon::OPPOSITE_PREFIXES.contains(&w[0].lower.as_str())
        })
    };
    for (i, token) in s.inside_tokens() {
        if let Some(base) = opposite_base(analyzer, token, p)
            && !s.stem_set.contains(&base)
            && !prefixed(p, base)
            && let Some(pair) = placed(s, p, |t| std::ptr::eq(t, token), stem_is(base))
        {
            pairs.push((i, pair.1));
        }
    }
    for (_, token) in p.inside_tokens() {
        if let Some(base) = opposite_base(analyzer, token, s)
            && !p.stem_set.contains(&base)
            && !prefixed(s, base)
            && let Some(pair) = placed(s, p, stem_is(base), |t| std::ptr::eq(t, token))
        {
            pairs.push(pair);
        }
    }
    // Stop words of opposite meaning, compared as written.
    let has = |side: &Side, word: &str| side.inside_tokens().any(|(_, t)| t.lower == word);
    for &(a, b) in STOP_OPPOSITES {
        for (x, y) in [(a, b), (b, a)] {
            if has(p, x) || has(s, y) {
                continue;
            }
            // A degree word must bear on the same word: `more moderate` is no opposite of
            // `less significant`.
            let degree = !matches!(x, "before" | "after" | "above" | "below" | "over" | "under");
            let same_next = |(i, j): (usize, usize)| {
                let next = |side: &Side, k: usize| side.tokens.get(k + 1).and_then(|t| t.stem);
                !degree || next(s, i).is_some_and(|a| next(p, j) == Some(a))
            };
            if let Some(pair) =
                placed(s, p, |t| t.lower == x, |t| t.lower == y).filter(|&pair| same_next(pair))
            {
                pairs.push(pair);
            }
        }
    }
    pairs
}

/// Whether a stem's occurrences (inside) are all negated, none, or some.
#[derive(PartialEq, Clone, Copy)]
enum Status {
    Negated,
    Affirmed,
    Mixed,
}

fn status(side: &Side, marks: &Marks, stem: u32) -> (Status, Option<usize>) {
    let (mut negated, mut affirmed, mut first) = (false, false, None);
    for (k, token) in side.inside_tokens() {
        if token.stem != Some(stem) {
            continue;
        }
        if marks.negated(k) {
            negated = true;
            first.get_or_insert(k);
        } else {
            affirmed = true;
        }
    }
    let status = match (negated, affirmed) {
        (true, false) => Status::Negated,
        (false, true) => Status::Affirmed,
        _ => Status::Mixed,
    };
    (status, first)
}

/// The sentence against one passage: the first rule that finds a contradiction, with the
/// predicate's reading when the polarity rule found it in English.
/// `agreement` takes the first predicate that both sides deny (English), where no rule finds a
/// contradiction.
pub(super) fn compare(
    analyzer: &Analyzer,
    s: &Side,
    p: &Side,
    agreement: &mut Option<PolarityReading>,
) -> Option<(Found, Option<PolarityReading>)> {
    let pairs = antonym_pairs(analyzer, s, p);
    let s_paired: Vec<usize> = pairs.iter().map(|&(i, _)| i).collect();
    let p_paired: Vec<usize> = pairs.iter().map(|&(_, j)| j).collect();
    let s_marks = negations(analyzer, s, p, &s_paired);
    let p_marks = negations(analyzer, p, s, &p_paired);
    polarity(analyzer, s, p, &s_marks, &p_marks, agreement).or_else(|| {
        antonym(s, p, &pairs, &s_marks, &p_marks)
            .or_else(|| exclusivity(s, p))
            .or_else(|| direction(s, p, &s_marks, &p_marks))
            .map(|found| (found, None))
    })
}

/// A shared word negated on one side and not on the other, the negation reaching mostly words
/// the two share (`does not need an exclusive lock` against `requires an ACCESS EXCLUSIVE
/// lock`; not `is not open on Mondays` against `is open Tuesday to Sunday`).
fn polarity(
    analyzer: &Analyzer,
    s: &Side,
    p: &Side,
    s_marks: &Marks,
    p_marks: &Marks,
    agreement: &mut Option<PolarityReading>,
) -> Option<(Found, Option<PolarityReading>)> {
    for &stem in &s.stems {
        if !p.stem_set.contains(&stem) {
            continue;
        }
        let (s_status, s_first) = status(s, s_marks, stem);
        let (p_status, p_first) = status(p, p_marks, stem);
        let (negated, other, marks, first) = match (s_status, p_status) {
            (Status::Negated, Status::Affirmed) => (s, p, s_marks, s_first?),
            (Status::Affirmed, Status::Negated) => (p, s, p_marks, p_first?),
            _ => continue,
        };
        // A negation just before the word on the other side too (`is not “going to …`, `not
        // necessary to focus on the rules` against `without worrying about the rules`): both
        // negate, in ways the scopes do not tell apart.
        if negated_nearby(other, stem) {
            continue;
        }
        let negation = marks.by[first]?;
        let scope: Vec<u32> = (negation + 1..negated.tokens.len())
            .chain(0..negation)
            .filter(|&j| marks.by[j] == Some(negation) && !is_hedge(&negated.tokens[j].lower))
            .filter_map(|j| negated.tokens[j].stem)
            .collect();
        let held = scope.iter().filter(|s| other.stem_set.contains(s)).count();
        if 2 * held <= scope.len() {
            continue;
        }
        let flipped: Vec<u32> = s
            .stems
            .iter()
            .copied()
            .filter(|&x| {
                p.stem_set.contains(&x) && {
                    let (a, b) = (status(s, s_marks, x).0, status(p, p_marks, x).0);
                    a != b && a != Status::Mixed && b != Status::Mixed
                }
            })
            .collect();
        // One word alone is too little to tell a reversed fact from a different one, unless
        // the two sides say it of the same argument (see below).
        let english = s.language == Language::English;
        if flipped.is_empty() || (flipped.len() < MIN_FLIPPED && !english) {
            continue;
        }
        let other_marks = if std::ptr::eq(negated, s) {
            p_marks
        } else {
            s_marks
        };
        // The predicate's word on each side, ordered as sentence and chunk.
        let read = |denied: PredicateSide, other_side: PredicateSide| {
            if std::ptr::eq(negated, s) {
                PolarityReading {
                    sentence: denied,
                    chunk: other_side,
                }
            } else {
                PolarityReading {
                    sentence: other_side,
                    chunk: denied,
                }
            }
        };
        let phrase = phrase(negated, marks, negation);
        let denied = |head: usize| PredicateSide {
            word: negated.words(negated.tokens[head].start..negated.tokens[head].end),
            negation: Some(negated.words(phrase.clone())),
        };
        let place = if english {
            match same_predicate(analyzer, negated, other, marks, other_marks, negation) {
                Some(Same::Stated(place))
                    if flipped.len() >= MIN_FLIPPED
                        || same_argument(negated, negation, other, place) =>
                {
                    Some(place)
                }
                Some(Same::Stated(_)) => continue,
                Some(Same::Agrees { place, by }) => {
                    if agreement.is_none()
                        && let Some(head) = marks.heads[negation]
                    {
                        let also = PredicateSide {
                            word: other.words(other.tokens[place].start..other.tokens[place].end),
                            negation: Some(other.words(negative_phrase(other, by))),
                        };
                        *agreement = Some(read(denied(head), also));
                    }
                    continue;
                }
                None => continue,
            }
        } else {
            None
        };
        // `There was no Blood Moon in 2020` denies that a thing was: against a text that only
        // names it (`the term Blood Moon is not scientific`), two words are too few.
        let existential = matches!(
            negated.tokens[negation].lower.as_str(),
            "no" | "none" | "nothing" | "nobody" | "neither"
        ) && marks.heads[negation].is_some_and(|head| {
            !negated.tokens[negation..head]
                .iter()
                .any(|t| lexicon::is_auxiliary(&t.lower))
        });
        if english && existential && flipped.len() < 3 {
            continue;
        }
        let quantifier = lexicon::is_negative_quantifier(&negated.tokens[negation].lower)
            && other
                .inside_tokens()
                .any(|(_, t)| lexicon::is_universal(&t.lower));
        let kind = if quantifier {
            ContradictionKind::Exclusivity
        } else {
            ContradictionKind::Polarity
        };
        // The predicate as read on each side: denied where the negation stands, stated at
        // `place` on the other.
        let reading = place.zip(marks.heads[negation]).map(|(place, head)| {
            let stated = PredicateSide {
                word: other.words(other.tokens[place].start..other.tokens[place].end),
                negation: None,
            };
            read(denied(head), stated)
        });
        let found = if std::ptr::eq(negated, p) {
            let words = span_of(s, &flipped, None);
            (kind, words, phrase, String::new())
        } else {
            let words = span_of(p, &flipped, Some(s));
            (kind, phrase, words, String::new())
        };
        return Some((with_passage(p, found), reading));
    }
    None
}

/// Where `other` states what a negation of `negated` denies (English), if it does: the predicate it denies
/// is one the other side affirms, among the flipped words; neither stands in a condition, a
/// question or a counterfactual, or in advice where the other describes; and the other side
/// says nothing negative where it holds those words (`lack` against `doesn't have`,
/// `unlikely to return` against `might not return`: two negatives agree).
fn same_predicate(
    analyzer: &Analyzer,
    negated: &Side,
    other: &Side,
    marks: &Marks,
    other_marks: &Marks,
    negation: usize,
) -> Option<Same> {
    let head = marks.heads[negation]?;
    let predicate = negated.tokens[head].stem?;
    // The predicate's occurrences on the other side: the same stem, or a synonym or a
    // derivational form of it in the lexicon (`ascribed` ~ `credited`, `won` ~ `win`).
    let stem_text = |t: &Token| analyzer.content_word(&t.lower).map(|w| w.stem);
    let head_stem = stem_text(&negated.tokens[head]);
    let same = |t: &Token| {
        t.stem == Some(predicate)
            || (t.stem.is_some()
                && head_stem.as_deref().is_some_and(|h| {
                    stem_text(t).is_some_and(|x| crate::words::related_stems(h, &x))
                }))
    };
    // Stated the same way on both sides: both asserted (or both conditions, both questions),
    // both advice or neither.
    let (stated, advice) = (!marks.unasserted[negation], directive(negated, negation));
    let places: Vec<usize> = other
        .inside_tokens()
        .filter(|(k, t)| {
            same(t)
                && !other_marks.negated(*k)
                && asserted(other, *k) == stated
                && directive(other, *k) == advice
        })
        .map(|(k, _)| k)
        .collect();
    let &first = places.first()?;
    // Two negatives agree. The other side is negative where a negation of its own, plain or
    // implicit, reaches the predicate (`unlikely to return` against `might not return`,
    // `prevent contamination` against `not contaminate`) ...
    let negative_at = |k: usize| {
        lexicon::is_negation_word(Language::English, &other.tokens[k].lower)
            || implicit_at(other, k).is_some()
    };
    let reaches = |k: usize, target: usize| {
        k < target
            && target - k <= SCOPE + 2
            && other.tokens[k].clause == other.tokens[target].clause
    };
    if let Some((place, by)) = places.iter().find_map(|&target| {
        (0..target)
            .find(|&k| reaches(k, target) && negative_at(k))
            .map(|k| (target, k))
    }) {
        return Some(Same::Agrees { place, by });
    }
    // ... or where another clause of it, as close to the negated clause as the predicate's,
    // says something negative (`cannot know … until we experience it` against `may not fully
    // understand … until we experience it, we do know`).
    let clause = negated.tokens[negation].clause;
    let denied: FxHashSet<u32> = negated
        .tokens
        .iter()
        .filter(|t| t.clause == clause)
        .filter_map(|t| t.stem)
        .collect();
    let mut shared: rustc_hash::FxHashMap<u32, usize> = rustc_hash::FxHashMap::default();
    for (_, t) in other.inside_tokens() {
        if t.stem.is_some_and(|x| denied.contains(&x)) {
            *shared.entry(t.clause).or_default() += 1;
        }
    }
    let own: Vec<u32> = places.iter().map(|&k| other.tokens[k].clause).collect();
    let best_own = own
        .iter()
        .map(|c| shared.get(c).copied().unwrap_or(0))
        .max()
        .unwrap_or(0);
    let rivals: Vec<u32> = shared
        .iter()
        .filter(|&(c, &n)| !own.contains(c) && n >= best_own.max(1))
        .map(|(&c, _)| c)
        .collect();
    let rival_negative = other
        .tokens
        .iter()
        .enumerate()
        .position(|(k, t)| t.inside && rivals.contains(&t.clause) && negative_at(k));
    Some(match rival_negative {
        Some(by) => Same::Agrees { place: first, by },
        None => Same::Stated(first),
    })
}

/// Whether the argument a negation at `negation` speaks of (the last content word before it in
/// its clause: `codes` in `SMS codes are not offered`) stands before the predicate at `place`
/// on the other side, in its clause (`SMS codes are offered`): with one reversed word, what
/// tells a reversed fact from another fact about something else.
fn same_argument(negated: &Side, negation: usize, other: &Side, place: usize) -> bool {
    let clause = negated.tokens[negation].clause;
    let Some(argument) = negated.tokens[..negation]
        .iter()
        .rev()
        .take_while(|t| t.clause == clause)
        .find_map(|t| t.stem.filter(|_| !is_hedge(&t.lower)))
    else {
        return false;
    };
    let other_clause = other.tokens[place].clause;
    other.tokens[..place]
        .iter()
        .rev()
        .take_while(|t| t.clause == other_clause)
        .any(|t| t.stem == Some(argument))
}

/// What [`same_predicate`] found on the other side.
enum Same {
    /// It states the predicate, at this token.
    Stated(usize),
    /// It denies it too, at `place` (or in a clause beside it) by the negative at `by`: two
    /// negatives agree.
    Agrees { place: usize, by: usize },
}

/// The negative at token `k` of `side` as written: an implicit negative's words (`ruled out`),
/// or a negation word with the auxiliary before it (`could not`).
fn negative_phrase(side: &Side, k: usize) -> Range<usize> {
    let tokens = &side.tokens;
    let last = implicit_at(side, k).map_or(k, |n| (k + n.max(1) - 1).min(tokens.len() - 1));
    let first = if k > 0
        && tokens[k - 1].clause == tokens[k].clause
        && lexicon::is_auxiliary(&tokens[k - 1].lower)
    {
        k - 1
    } else {
        k
    };
    tokens[first].start..tokens[last].end
}

/// The predicate a negation at `i` denies: the first content word of its `scope` past hedges
/// (`not significantly reduce`, `no longer`, `not able to attend`); after a negative
/// determiner, the first past the verb that follows its noun (`No artistic style is static`),
/// or the noun itself when no verb follows (`there was no Blood Moon`).
fn head_of(tokens: &[Token], i: usize, scope: &[usize]) -> Option<usize> {
    let determiner = matches!(
        tokens[i].lower.as_str(),
        "no" | "none" | "neither" | "nothing" | "nobody" | "nor"
    );
    let mut from = 0;
    if determiner
        && let Some(p) = scope
            .iter()
            .position(|&j| lexicon::is_auxiliary(&tokens[j].lower))
    {
        from = p + 1;
    }
    scope[from..].iter().copied().find(|&j| {
        let lower = tokens[j].lower.as_str();
        tokens[j].stem.is_some()
            && !is_hedge(lower)
            && !matches!(
                lower,
                "able"
                    | "longer"
                    | "enough"
                    | "really"
                    | "necessarily"
                    | "considered"
                    | "regarded"
                    | "deemed"
            )
    })
}

/// Whether the text between tokens `a` and `a + 1` of `side` ends a sentence.
fn ends_sentence(side: &Side, a: usize) -> bool {
    let (Some(x), Some(y)) = (side.tokens.get(a), side.tokens.get(a + 1)) else {
        return true;
    };
    side.text
        .get(x.end..y.start)
        .is_none_or(|gap| gap.contains(['.', '!', '?', '\n']))
}

/// The first and last token of the sentence token `k` stands in.
fn sentence_of(side: &Side, k: usize) -> (usize, usize) {
    let mut start = k;
    while start > 0 && !ends_sentence(side, start - 1) {
        start -= 1;
    }
    let mut end = k;
    while end + 1 < side.tokens.len() && !ends_sentence(side, end) {
        end += 1;
    }
    (start, end)
}

/// Whether token `k` stands where its sentence states something (English): not after a
/// condition (`if`, `whether`, `unless`), not in a counterfactual (`were it not for`, `had it
/// not been for`, `but for`), not in a question.
fn asserted(side: &Side, k: usize) -> bool {
    let (start, end) = sentence_of(side, k);
    let tokens = &side.tokens;
    let before = &tokens[start..k];
    if before.iter().any(|t| lexicon::is_condition(&t.lower)) {
        return false;
    }
    let words: Vec<&str> = tokens[start..=end]
        .iter()
        .map(|t| t.lower.as_str())
        .collect();
    let counterfactual = words.windows(3).any(|w| {
        matches!(w[0], "were" | "had")
            && w[1] == "it"
            && lexicon::is_negation_word(Language::English, w[2])
    }) || words.starts_with(&["but", "for"]);
    if counterfactual {
        return false;
    }
    let after = side.text.get(tokens[end].end..).unwrap_or("");
    let question = after
        .trim_start_matches([' ', '"', '\'', ')', '”', '’', ']'])
        .starts_with('?');
    // A question opens with its word (`How does …?`, `Will it affect …?`): a `?` after a
    // statement that ran on (a passage cut without its full stop) asks nothing of it.
    !(question && lexicon::is_interrogative(&tokens[start].lower))
}

/// Whether token `k` stands in advice (English): a directive word before it in its sentence
/// (`you are advised … not to accept`, `should`), or a sentence that opens with `do not`,
/// `don't` or `never` (an imperative).
fn directive(side: &Side, k: usize) -> bool {
    let (start, _) = sentence_of(side, k);
    let tokens = &side.tokens;
    tokens[start..k]
        .iter()
        .any(|t| lexicon::is_directive(&t.lower))
        || matches!(tokens[start].lower.as_str(), "don't" | "never" | "avoid")
        || (tokens[start].lower == "do" && tokens.get(start + 1).is_some_and(|t| t.lower == "not"))
}

/// The length, in tokens, of the implicit negation that starts at token `k` of `side`, in its
/// clause (English).
fn implicit_at(side: &Side, k: usize) -> Option<usize> {
    let clause = side.tokens[k].clause;
    lexicon::implicit_negation(
        side.tokens[k..]
            .iter()
            .take_while(|t| t.clause == clause)
            .map(|t| t.lower.as_str()),
    )
}

/// Adverbs and fillers a negation's scope is measured without (`not significantly`, `not
/// also`).
fn is_hedge(lower: &str) -> bool {
    (lower.ends_with("ly") && lower.len() > 4) || matches!(lower, "also" | "even" | "still" | "yet")
}

/// Whether some occurrence of `stem` (inside) has a negation word within twice [`SCOPE`] tokens
/// before it, whatever the clauses.
fn negated_nearby(side: &Side, stem: u32) -> bool {
    side.inside_tokens()
        .filter(|(_, t)| t.stem == Some(stem))
        .any(|(k, _)| {
            side.tokens[k.saturating_sub(2 * SCOPE)..k].iter().any(|t| {
                lexicon::is_negation_word(side.language, &t.lower)
                    || matches!(t.lower.as_str(), "fail" | "fails" | "failed")
            })
        })
}

/// A negation with its auxiliary and what it negates: `did not significantly reduce`,
/// `n'est pas valable`, `are not offered`.
fn phrase(side: &Side, marks: &Marks, negation: usize) -> Range<usize> {
    let tokens = &side.tokens;
    let clause = tokens[negation].clause;
    let mut start = negation;
    while start > 0
        && negation - start < 2
        && tokens[start - 1].clause == clause
        && (lexicon::is_auxiliary(&tokens[start - 1].lower)
            || matches!(tokens[start - 1].lower.as_str(), "ne" | "n"))
    {
        start -= 1;
    }
    let end = (negation + 1..tokens.len())
        .filter(|&j| marks.by[j] == Some(negation))
        .find(|&j| {
            let t = &tokens[j];
            t.stem.is_some() && !(t.lower.ends_with("ly") && t.lower.len() > 4)
        })
        .unwrap_or(negation);
    tokens[start].start..tokens[end].end
}

/// The span of a side's `stems` (inside), from the first to the last in the first one's
/// clause; with `other`, extended back over up to three words to a verb the other side lacks
/// (`requires an ACCESS EXCLUSIVE lock`).
fn span_of(side: &Side, stems: &[u32], other: Option<&Side>) -> Range<usize> {
    let hits: Vec<usize> = side
        .inside_tokens()
        .filter(|(_, t)| t.stem.is_some_and(|x| stems.contains(&x)))
        .map(|(k, _)| k)
        .collect();
    let Some(&first) = hits.first() else {
        return side.inside.start..side.inside.start;
    };
    let clause = side.tokens[first].clause;
    let last = hits
        .iter()
        .copied()
        .filter(|&k| side.tokens[k].clause == clause)
        .max()
        .unwrap_or(first);
    let mut start = first;
    if let Some(other) = other {
        for j in (first.saturating_sub(3)..first).rev() {
            let t = &side.tokens[j];
            if t.clause != clause || !t.inside {
                break;
            }
            match t.stem {
                Some(x) if other.stem_set.contains(&x) => break,
                Some(_) => start = j,
                None => {}
            }
        }
    }
    side.tokens[start].start..side.tokens[last].end
}

/// Fills in the passage shown: the passage's text, white space collapsed, at most 200
/// characters around the chunk's words.
fn with_passage(p: &Side, found: Found) -> Found {
    let (kind, words, span, _) = found;
    let mut from = p.inside.start.min(span.start);
    let mut to = p.inside.end.max(span.end);
    let text = p.text;
    if to - from > 400 {
        from = span.start.saturating_sub(150).max(from);
        to = (span.end + 150).min(to);
    }
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    while !text.is_char_boundary(to) {
        to += 1;
    }
    let passage = crate::input::collapse_white_space(&text[from..to]);
    let passage = if passage.chars().count() > 200 {
        // Centred on the words: cut before and after by characters.
        let before = crate::input::collapse_white_space(&text[from..span.start.max(from)]);
        let skip = before.chars().count().saturating_sub(60);
        passage.chars().skip(skip).take(200).collect()
    } else {
        passage
    };
    (kind, words, span, passage)
}

/// Words of opposite meaning where the two sides share the words around them: `profits rose`
/// against `profits fell`. Not when a negation reaches either (`did not decrease`).
fn antonym(
    s: &Side,
    p: &Side,
    pairs: &[(usize, usize)],
    s_marks: &Marks,
    p_marks: &Marks,
) -> Option<Found> {
    let &(i, j) = pairs.iter().find(|&&(i, j)| {
        !s_marks.absorbed[i] && !p_marks.absorbed[j] && !s_marks.negated(i) && !p_marks.negated(j)
    })?;
    let found = (
        ContradictionKind::Antonym,
        s.tokens[i].start..s.tokens[i].end,
        p.tokens[j].start..p.tokens[j].end,
        String::new(),
    );
    Some(with_passage(p, found))
}

/// One side limits to a word where the other names another (`SSO: Enterprise plan only`
/// against `the Pro plan`), or everything (`all plans`).
fn exclusivity(s: &Side, p: &Side) -> Option<Found> {
    // Both limit (`applied only at a universal or local level` against `delivered solely at
    // the universal level`): what each limits to is a matter of scope, not a contradiction.
    let limits = |side: &Side| {
        side.inside_tokens()
            .any(|(_, t)| lexicon::is_exclusive(&t.lower))
    };
    if limits(s) && limits(p) {
        return None;
    }
    for (limiting, other) in [(p, s), (s, p)] {
        for (m, marker) in limiting.inside_tokens() {
            if !lexicon::is_exclusive(&marker.lower)
                || (m > 0
                    && lexicon::is_negation_word(Language::English, &limiting.tokens[m - 1].lower))
            {
                continue;
            }
            let clause = marker.clause;
            let close = |k: usize| {
                let t = &limiting.tokens[k];
                t.inside && t.clause == clause
            };
            for x in m.saturating_sub(2)..(m + 3).min(limiting.tokens.len()) {
                let filler = &limiting.tokens[x];
                let Some(stem) = filler.stem else { continue };
                if x == m
                    || !close(x)
                    || other.stem_set.contains(&stem)
                    || is_general_word(&filler.lower)
                {
                    continue;
                }
                for h in [x.wrapping_sub(1), x + 1] {
                    let Some(head) = limiting.tokens.get(h).filter(|_| close(h)) else {
                        continue;
                    };
                    let Some(head_stem) = head.stem.filter(|x| other.stem_set.contains(x)) else {
                        continue;
                    };
                    let before = x < h;
                    for (k, t) in other.inside_tokens() {
                        if t.stem != Some(head_stem) {
                            continue;
                        }
                        let y = if before { k.wrapping_sub(1) } else { k + 1 };
                        let Some(rival) = other
                            .tokens
                            .get(y)
                            .filter(|r| r.inside && r.clause == t.clause)
                        else {
                            continue;
                        };
                        let differs = rival.stem.is_some_and(|r| !limiting.stem_set.contains(&r))
                            && !is_general_word(&rival.lower);
                        let universal = lexicon::is_universal(&rival.lower)
                            || (before
                                && k >= 2
                                && lexicon::is_universal(&other.tokens[k - 2].lower));
                        if !(differs || universal) {
                            continue;
                        }
                        let (a, b) = (y.min(k), y.max(k));
                        let other_words = other.tokens[a].start..other.tokens[b].end;
                        let (c, d) = (x.min(h).min(m), x.max(h).max(m));
                        let limiting_words = limiting.tokens[c].start..limiting.tokens[d].end;
                        let found = if std::ptr::eq(limiting, p) {
                            (
                                ContradictionKind::Exclusivity,
                                other_words,
                                limiting_words,
                                String::new(),
                            )
                        } else {
                            (
                                ContradictionKind::Exclusivity,
                                limiting_words,
                                other_words,
                                String::new(),
                            )
                        };
                        return Some(with_passage(p, found));
                    }
                }
            }
        }
    }
    None
}

/// A direction word of the sentence (`fell`) against the passage's own figures (`12.1% in 2022
/// and 14.3% in 2023`, `from 12.1% to 14.3%`), when the passage has no direction word itself.
fn direction(s: &Side, p: &Side, s_marks: &Marks, p_marks: &Marks) -> Option<Found> {
    let _ = p_marks;
    if p.inside_tokens()
        .any(|(_, t)| lexicon::direction(&t.lower).is_some())
    {
        return None;
    }
    let (k, up) = s.inside_tokens().find_map(|(k, t)| {
        let up = lexicon::direction(&t.lower)?;
        (!s_marks.negated(k) && s.near_shared(k, p)).then_some((k, up))
    })?;
    let passage = p.text.get(p.inside.clone())?;
    let figures = numbers(passage);
    let value = |k: usize| -> Option<f64> { figures[k].value.to_string().parse().ok() };
    let year = |k: usize| {
        let v = value(k)?;
        (v.fract() == 0.0 && (1900.0..=2100.0).contains(&v) && figures[k].text.len() == 4)
            .then_some(v)
    };
    let currency = ['$', '€', '£', '¥', ' '];
    let between = |a: usize, b: usize| {
        passage
            .get(figures[a].span.end..figures[b].span.start)
            .map(|g| g.trim_matches(currency).to_lowercase())
    };
    // (earlier, later) figure indices.
    let mut trend: Option<(usize, usize)> = None;
    for a in 0..figures.len().saturating_sub(1) {
        let before = passage[..figures[a].span.start]
            .trim_end_matches(currency)
            .to_lowercase();
        if before.ends_with("from")
            && between(a, a + 1).as_deref() == Some("to")
            && year(a).is_none()
        {
            trend = Some((a, a + 1));
            break;
        }
    }
    if trend.is_none() {
        // Figure, `in` (`for`, `during`), year: ordered by year.
        let mut dated: Vec<(f64, usize)> = Vec::new();
        for a in 0..figures.len().saturating_sub(1) {
            if year(a).is_none()
                && let Some(y) = year(a + 1)
                && matches!(between(a, a + 1).as_deref(), Some("in" | "for" | "during"))
            {
                dated.push((y, a));
            }
        }
        dated.sort_by(|x, y| x.0.total_cmp(&y.0));
        dated.dedup_by(|x, y| x.0 == y.0);
        if dated.len() >= 2 {
            let claimed: Vec<f64> = numbers(s.text.get(s.inside.clone())?)
                .iter()
                .filter_map(|n| n.value.to_string().parse().ok())
                .collect();
            let at = dated
                .iter()
                .position(|(y, _)| claimed.contains(y))
                .unwrap_or(dated.len() - 1);
            if at == 0 {
                return None;
            }
            trend = Some((dated[at - 1].1, dated[at].1));
        }
    }
    let (a, b) = trend?;
    let (from, to) = (value(a)?, value(b)?);
    if from == to || (to > from) == up {
        return None;
    }
    let offset = p.inside.start;
    // The later figure's year is shown with it.
    let end = match figures.get(b + 1) {
        Some(next)
            if year(b + 1).is_some()
                && matches!(between(b, b + 1).as_deref(), Some("in" | "for" | "during")) =>
        {
            next.span.end
        }
        _ => figures[b].span.end,
    };
    let words = figures[a].span.start + offset..end + offset;
    let found = (
        ContradictionKind::Direction,
        s.tokens[k].start..s.tokens[k].end,
        words,
        String::new(),
    );
    Some(with_passage(p, found))
}
