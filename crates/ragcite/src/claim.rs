//! Claim stage: whether a sentence states something to check, or is one of the sentences every
//! assistant writes that no reviewer wants cited: a pleasantry or offer, a meta statement about
//! the answer or its sources, navigation, a question, an instruction to the reader, an entry of
//! a source list, or an abstention (the answer says its sources do not cover something).
//!
//! Rules over the sentence's words, in a fixed order, each naming the words that decided it
//! (the cue), so that every outcome can be explained. A sentence that states a figure or quotes
//! something stays a claim however it is phrased; so does one whose frame (`Here are the
//! causes:`) is followed by what it announces (`drought, wind and arson`). The patterns are
//! English: in another language only headings, source lists, questions and fragments are told
//! apart.

use std::fmt;
use std::ops::Range;
use std::sync::LazyLock;

use regex_automata::meta::Regex;
use regex_automata::util::syntax;
use serde::Serialize;

mod patterns;

use patterns::gate;

/// Why a sentence is `no-claim`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Too few content words and no number (`Yes.`, `In short:`), or markers alone.
    Fragment,
    /// A Markdown heading without a marker: a title.
    Heading,
    /// An entry of the answer's source list (`[1] NASA, Webb mission overview`).
    Reference,
    /// A question to the reader (`What does this mean for you?`).
    Question,
    /// A greeting, thanks, wish or offer (`I hope this helps!`, `Let me know if …`).
    Pleasantry,
    /// A statement about the answer or its sources that says nothing about the world
    /// (`Here is what the knowledge base says.`).
    Meta,
    /// Where to read more (`See the official documentation for details.`).
    Navigation,
    /// Advice addressed to the reader that asserts nothing checkable (`Test your limits
    /// before going live.`).
    Instruction,
    /// The answer says its sources do not cover something, or declines to answer.
    Abstention,
    /// No phrase rule names it, and the claim scorer finds nothing a reader would want
    /// sourced: framing, a generality or common knowledge (`Exercise has many benefits.`).
    Background,
}

impl Kind {
    pub const ALL: [Kind; 10] = [
        Kind::Fragment,
        Kind::Heading,
        Kind::Reference,
        Kind::Question,
        Kind::Pleasantry,
        Kind::Meta,
        Kind::Navigation,
        Kind::Instruction,
        Kind::Abstention,
        Kind::Background,
    ];

    /// The kind's name as every output writes it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Fragment => "fragment",
            Kind::Heading => "heading",
            Kind::Reference => "reference",
            Kind::Question => "question",
            Kind::Pleasantry => "pleasantry",
            Kind::Meta => "meta",
            Kind::Navigation => "navigation",
            Kind::Instruction => "instruction",
            Kind::Abstention => "abstention",
            Kind::Background => "background",
        }
    }

    /// Why a sentence of this kind is not checked, in a few words.
    pub fn reason(self) -> &'static str {
        match self {
            Kind::Fragment => "fewer than three content words and no number",
            Kind::Heading => "a Markdown heading: a title",
            Kind::Reference => "an entry of the answer's source list",
            Kind::Question => "a question, which asserts nothing",
            Kind::Pleasantry => "a greeting, thanks, wish or offer",
            Kind::Meta => "says something about the answer or its sources, not about the world",
            Kind::Navigation => "says where to read more",
            Kind::Instruction => "advice to the reader that asserts nothing checkable",
            Kind::Abstention => "the answer says its sources do not cover this, or declines",
            Kind::Background => {
                "the claim scorer reads framing or common knowledge, nothing to source"
            }
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A sentence that is not a claim: its kind and the words that decided it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NonClaim {
    pub kind: Kind,
    /// The words of the sentence that matched the rule, as written (empty for a fragment).
    pub cue: String,
}

/// What the claim rules read of a sentence besides its text.
#[derive(Debug, Clone, Copy, Default)]
pub struct Traits {
    /// It states a figure (a number that is no name, label or enumerator).
    pub figures: bool,
    /// It quotes something.
    pub quotes: bool,
    /// The patterns of English apply (the check's language is English).
    pub english: bool,
    /// It has citation markers: its writer gives it a source, so advice and statements about
    /// the sources are checked against it (a pleasantry, a question, navigation, a lead-in and
    /// an abstention are still not claims).
    pub marked: bool,
}

/// Leading markup and labels that are not part of what a sentence says: white space, block
/// quotes, list bullets and enumerators, heading marks, emphasis, and a label such as `Tip:`.
static LEAD: LazyLock<Regex> = LazyLock::new(|| all(&patterns::lead()));

/// The claim rules' patterns, each matched against the sentence with its leading markup
/// removed, lower-cased ASCII, curly apostrophes straightened, emphasis marks dropped and white
/// space made single spaces. Each is built when a sentence first needs it: a check whose
/// sentences all state figures or cite a source builds neither the meta nor the instruction
/// patterns.
struct Patterns {
    abstention: LazyLock<Regex>,
    pleasantry: LazyLock<Regex>,
    navigation: LazyLock<Regex>,
    meta: LazyLock<Regex>,
    instruction: LazyLock<Regex>,
    /// What may follow a sentence's last word: an enumerator, a list dash, emphasis.
    trailer: LazyLock<Regex>,
    /// A question that asserts: `Did you know that …?`.
    asserting_question: LazyLock<Regex>,
    /// What turns an abstention into a claim: a contrast after it (`…, but X is Y`).
    contrast: LazyLock<Regex>,
    /// A conjunction joining a clause before an abstention (`X is Y, but the context …`); a
    /// parenthetical `however` is none.
    conjunction: LazyLock<Regex>,
    /// A leading concessive clause (`While the text does not …, it implies …`).
    concessive: LazyLock<Regex>,
    /// A verb of knowing with a clause (`note that …`): the clause is asserted.
    asserts_clause: LazyLock<Regex>,
}

/// A kind's patterns (`claim::patterns`) as one regex: a sentence is read once per kind, the
/// leftmost match of any of them found. Built for a cheap start, since a check of one sentence
/// may build most of them: no literal prefilter, no one-pass or backtracking engine, only the
/// lazy DFA (and the PikeVM it falls back on), whose states are made as the sentences need
/// them.
fn all(patterns: &[String]) -> Regex {
    Regex::builder()
        .syntax(syntax::Config::new().unicode(false).utf8(false))
        .configure(
            Regex::config()
                .auto_prefilter(false)
                .onepass(false)
                .backtrack(false)
                .dfa(false),
        )
        .build_many(patterns)
        .expect("valid patterns")
}

/// Words of which every abstention pattern needs one, besides a word that ends in `not` or
/// `n't` (`not`, `cannot`, `don't`): a sentence with none of them declines nothing and is not
/// searched for it.
const NEGATIVE_WORDS: [&str; 16] = [
    "no",
    "none",
    "unknown",
    "unable",
    "unclear",
    "impossible",
    "difficult",
    "hard",
    "insufficient",
    "limited",
    "silent",
    "lack",
    "lacks",
    "lacking",
    "beyond",
    "unanswerable",
];

/// Whether the prepared, lower-cased sentence has a word an abstention needs.
fn may_decline(lower: &str) -> bool {
    lower
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '\''))
        .any(|w| w.ends_with("not") || w.ends_with("n't") || NEGATIVE_WORDS.contains(&w))
}

static PATTERNS: Patterns = Patterns {
    abstention: LazyLock::new(|| all(&patterns::abstention())),
    pleasantry: LazyLock::new(|| all(&patterns::pleasantry())),
    navigation: LazyLock::new(|| all(&patterns::navigation())),
    meta: LazyLock::new(|| all(&patterns::meta())),
    instruction: LazyLock::new(|| all(&patterns::instruction())),
    trailer: LazyLock::new(|| all(&patterns::trailer())),
    asserting_question: LazyLock::new(|| all(&patterns::asserting_question())),
    contrast: LazyLock::new(|| all(&patterns::contrast())),
    conjunction: LazyLock::new(|| all(&patterns::conjunction())),
    concessive: LazyLock::new(|| all(&patterns::concessive())),
    asserts_clause: LazyLock::new(|| all(&patterns::asserts_clause())),
};

/// The sentence prepared for the rules: leading markup removed, emphasis dropped, curly
/// apostrophes straightened, white space single; `lower` is the same text lower-cased (ASCII),
/// byte for byte.
struct Prepared {
    text: String,
    lower: String,
    /// For each byte of `text`, the offset in the sentence of the character it comes from.
    origin: Vec<usize>,
    /// The sentence's length: where the end of `text` is in it.
    end: usize,
}

impl Prepared {
    fn new(sentence: &str) -> Prepared {
        let start = gate::lead(sentence)
            .then(|| LEAD.find(sentence.as_bytes()))
            .flatten()
            .map_or(0, |m| m.end());
        let end = sentence.len();
        let (start, sentence) = match sentence.get(start..) {
            Some(rest) => (start, rest),
            None => (0, sentence),
        };
        let mut text = String::with_capacity(sentence.len());
        let mut origin = Vec::with_capacity(sentence.len());
        let mut space = true;
        for (at, c) in sentence.char_indices() {
            let c = match c {
                '’' | '‘' | 'ʼ' => '\'',
                '*' | '_' | '`' => continue,
                c if c.is_whitespace() => ' ',
                c => c,
            };
            if c == ' ' {
                if space {
                    continue;
                }
                space = true;
            } else {
                space = false;
            }
            text.push(c);
            origin.extend(std::iter::repeat_n(start + at, c.len_utf8()));
        }
        while text.ends_with(' ') {
            text.pop();
            origin.pop();
        }
        let lower = text.to_ascii_lowercase();
        Prepared {
            text,
            lower,
            origin,
            end,
        }
    }

    /// Where `range` of the prepared text is in the sentence.
    fn original(&self, range: Range<usize>) -> Range<usize> {
        let at = |k: usize| self.origin.get(k).copied().unwrap_or(self.end);
        at(range.start)..at(range.end)
    }

    /// The words of the sentence that `range` (in the prepared text) covers, as written.
    fn cue(&self, range: Range<usize>) -> String {
        self.text.get(range).unwrap_or_default().trim().to_string()
    }
}

/// Content words before `at` (a byte offset of the prepared text).
fn words_before(text: &str, at: usize) -> usize {
    long_words(text.get(..at).unwrap_or_default())
}

/// Content words after `at` (a byte offset of the prepared text): words of three or more
/// letters, a rough count for "does anything follow the frame".
fn words_after(text: &str, at: usize) -> usize {
    long_words(text.get(at..).unwrap_or_default())
}

fn long_words(text: &str) -> usize {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 3)
        .count()
}

/// Whether the prepared sentence names something: a capitalised word that is not its first,
/// nor `I`, nor right after a colon or an opening bracket or quote.
fn names_something(text: &str) -> bool {
    let mut first = true;
    let mut after_break = false;
    for word in text.split(' ') {
        let trimmed = word.trim_start_matches(|c: char| !c.is_alphanumeric());
        let capital = trimmed.chars().next().is_some_and(char::is_uppercase);
        let opens = word.len() != trimmed.len() && word.starts_with(['(', '"', '“', '\'', '[']);
        if capital
            && !first
            && !after_break
            && !opens
            && trimmed != "I"
            && !trimmed.starts_with("I'")
        {
            return true;
        }
        first = false;
        after_break = word.ends_with([':', '.', '!', '?']);
    }
    false
}

/// The clause of a mixed sentence that declines (`I could not find the 2023 figure, but the
/// 2022 report gives 4.1%`: `I could not find the 2023 figure`), as a byte range of the
/// sentence, when a contrast follows it with a claim or a claim comes before it (`X won 22
/// awards, but the document does not mention …`): the sentence is a claim about the rest, and
/// the declining clause's words and figures are no part of it. English only.
pub fn declined_part(sentence: &str) -> Option<Range<usize>> {
    // The contrast and conjunction patterns need a `;` or one of their words: most sentences
    // have neither, and are not prepared.
    const JOINS: [&[u8]; 10] = [
        b"but",
        b"however",
        b"yet",
        b"though",
        b"whereas",
        b"while",
        b"nevertheless",
        b"nonetheless",
        b"instead",
        b"still",
    ];
    let bytes = sentence.as_bytes();
    let joined = bytes.contains(&b';')
        || JOINS.iter().any(|w| {
            bytes
                .windows(w.len())
                .any(|window| window.eq_ignore_ascii_case(w))
        });
    if !joined {
        return None;
    }
    let p = &PATTERNS;
    let prepared = Prepared::new(sentence);
    let lower = prepared.lower.as_str();
    let bytes = lower.as_bytes();
    if lower.is_empty() || !may_decline(lower) {
        return None;
    }
    let concessive = gate::concessive(lower);
    for m in p.abstention.find_iter(bytes) {
        if concessive
            && p.concessive
                .find(bytes)
                .is_some_and(|c| m.start() < c.end())
        {
            continue;
        }
        if let Some(c) = p.contrast.find(&bytes[m.end()..])
            && words_after(lower, m.end() + c.end()) >= 3
        {
            // From the sentence's start (or the last clause break before the abstention) to
            // the contrast.
            let start = lower[..m.start()].rfind([';', ':']).map_or(0, |k| k + 1);
            // The connective too (`, but`, `; however,`), not a word it only touches (`; the`).
            let mut end = m.end() + c.end();
            if lower[end..].starts_with(|ch: char| ch.is_alphanumeric()) {
                end = m.end()
                    + c.start()
                    + lower[m.end() + c.start()..end]
                        .trim_end_matches(|ch: char| ch.is_alphanumeric())
                        .len();
            }
            return Some(prepared.original(start..end));
        }
        if let Some(c) = p.conjunction.find_iter(&bytes[..m.start()]).last()
            && words_before(lower, c.start()) >= 3
        {
            return Some(prepared.original(c.start()..lower.len()));
        }
    }
    None
}

/// Whether the sentence is one of the non-claims, and which: the first rule that applies of
/// abstention, question, pleasantry, navigation, meta statement and instruction. Fragments,
/// headings and source-list entries are told by their shape elsewhere.
pub fn classify(sentence: &str, traits: Traits) -> Option<NonClaim> {
    if !traits.english {
        return question_any_language(sentence);
    }
    let p = &PATTERNS;
    let prepared = Prepared::new(sentence);
    let lower = prepared.lower.as_str();
    let bytes = lower.as_bytes();
    if lower.is_empty() {
        return None;
    }
    let found = |kind: Kind, range: Range<usize>| {
        Some(NonClaim {
            kind,
            cue: prepared.cue(range),
        })
    };
    // An abstention is one whatever else it names (the topic it declines on), unless it
    // stands in a concessive clause or a contrast follows it with a claim.
    let declines = may_decline(lower);
    for m in declines
        .then(|| p.abstention.find_iter(bytes))
        .into_iter()
        .flatten()
    {
        let concessive = gate::concessive(lower)
            && p.concessive
                .find(bytes)
                .is_some_and(|c| m.start() < c.end());
        // `X won 22 awards, but the document does not mention …`: a claim before the
        // contrast; `The context does not say …, but X is Y`: a claim after it.
        let claim_before = p
            .conjunction
            .find_iter(&bytes[..m.start()])
            .last()
            .is_some_and(|c| words_before(lower, c.start()) >= 3);
        let claim_after = p
            .contrast
            .find(&bytes[m.end()..])
            .is_some_and(|c| words_after(lower, m.end() + c.end()) >= 3);
        if !concessive && !claim_before && !claim_after {
            return found(Kind::Abstention, m.range());
        }
    }
    let body = gate::trailer(lower)
        .then(|| p.trailer.find(bytes))
        .flatten()
        .and_then(|t| lower.get(..t.start()))
        .unwrap_or(lower);
    if body.ends_with('?') && !asserts(p, lower) {
        let start = lower[..lower.len() - 1].rfind(' ').map_or(0, |s| s + 1);
        return found(Kind::Question, start..body.len());
    }
    // Whatever else a sentence is, it is a claim when it states a figure or quotes (a title in
    // quotes in a pointer to read more is no quotation of a source).
    if traits.figures {
        return None;
    }
    if let Some(m) = gate::pleasantry(lower)
        .then(|| p.pleasantry.find(bytes))
        .flatten()
    {
        return found(Kind::Pleasantry, m.range());
    }
    if let Some(m) = gate::navigation(lower)
        .then(|| p.navigation.find(bytes))
        .flatten()
        && !announces(lower, m.end())
    {
        return found(Kind::Navigation, m.range());
    }
    if traits.quotes {
        return None;
    }
    // A lead-in (`Other factors include:`) announces the list that follows, whose items say
    // what is to be checked.
    if let Some(head) = body.strip_suffix(':') {
        let start = head.rfind(' ').map_or(0, |s| s + 1);
        return found(Kind::Meta, start..body.len());
    }
    if traits.marked {
        return None;
    }
    if let Some(m) = gate::meta(lower).then(|| p.meta.find(bytes)).flatten()
        && !announces(lower, m.end())
    {
        return found(Kind::Meta, m.range());
    }
    if let Some(m) = gate::instruction(lower)
        .then(|| p.instruction.find(bytes))
        .flatten()
        && !(gate::asserts_clause(lower) && p.asserts_clause.is_match(bytes))
        && !names_something(&prepared.text)
    {
        return found(Kind::Instruction, m.range());
    }
    None
}

/// Which phrase families of the claim rules a sentence holds, each read alone (no family
/// vetoes another, no trait gates one): the claim scorer's features.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cues {
    pub question: bool,
    pub lead_in: bool,
    pub abstention: bool,
    pub pleasantry: bool,
    pub meta: bool,
    pub navigation: bool,
    pub instruction: bool,
}

/// The [`Cues`] of a sentence; the phrase families only in English.
pub fn cues(sentence: &str, english: bool) -> Cues {
    let end = sentence
        .trim_end_matches(|c: char| c.is_whitespace() || matches!(c, '*' | '_' | ')' | '"'));
    let mut cues = Cues {
        question: end.ends_with(['?', '？']),
        lead_in: end.ends_with([':', '：']),
        ..Cues::default()
    };
    if !english {
        return cues;
    }
    let p = &PATTERNS;
    let prepared = Prepared::new(sentence);
    let lower = prepared.lower.as_str();
    let bytes = lower.as_bytes();
    if lower.is_empty() {
        return cues;
    }
    cues.abstention = may_decline(lower) && p.abstention.is_match(bytes);
    cues.pleasantry = gate::pleasantry(lower) && p.pleasantry.is_match(bytes);
    cues.navigation = gate::navigation(lower) && p.navigation.is_match(bytes);
    cues.meta = gate::meta(lower) && p.meta.is_match(bytes);
    cues.instruction = gate::instruction(lower) && p.instruction.is_match(bytes);
    cues
}

/// Whether a question asserts what it asks about: `Did you know (that) the tower …?`, not `Do
/// you know why …?`.
fn asserts(p: &Patterns, lower: &str) -> bool {
    const ASKS: [&str; 14] = [
        "what", "who", "why", "how", "which", "when", "where", "whether", "if", "anything",
        "about", "any", "much", "more",
    ];
    if !gate::asserting_question(lower) {
        return false;
    }
    p.asserting_question
        .find(lower.as_bytes())
        .is_some_and(|m| {
            let next = lower
                .get(m.end()..)
                .unwrap_or_default()
                .split(|c: char| !c.is_ascii_alphabetic())
                .next();
            !next.is_some_and(|w| ASKS.contains(&w))
        })
}

/// Whether a frame ending at `at` is followed by what it announces: three or more content
/// words after a colon (`Here are the causes: drought, wind and arson.`), or a clause that
/// states something (`Based on the documents, here is the answer: it is 330 m tall`).
fn announces(lower: &str, at: usize) -> bool {
    lower
        .get(at..)
        .and_then(|rest| rest.find(':'))
        .is_some_and(|colon| words_after(lower, at + colon + 1) >= 3)
}

/// In any language: a sentence that ends with a question mark is a question.
fn question_any_language(sentence: &str) -> Option<NonClaim> {
    let trimmed = sentence.trim_end_matches(|c: char| c.is_whitespace() || c == '*' || c == '_');
    trimmed.ends_with(['?', '？']).then(|| NonClaim {
        kind: Kind::Question,
        cue: "?".to_string(),
    })
}

#[cfg(test)]
mod tests;
