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
}

impl Kind {
    pub const ALL: [Kind; 9] = [
        Kind::Fragment,
        Kind::Heading,
        Kind::Reference,
        Kind::Question,
        Kind::Pleasantry,
        Kind::Meta,
        Kind::Navigation,
        Kind::Instruction,
        Kind::Abstention,
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
static LEAD: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"(?ix)^(?:[\s>\-*+\#_]|•|\d{1,3}[.)]\s)*(?:(?:pro\s+)?(?:tip|note|hint|warning|caution|important|reminder|remember|disclaimer|n\.b\.)\s*(?:[:!.\-]|–|—)\s*(?:[*_]+\s*)?)?",
    )
});

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

/// A pattern over bytes, ASCII classes only (`\w`, `\b`): the rules read lower-cased ASCII
/// words, and white space is one space in the prepared text, so the patterns write it as one.
/// Built for a cheap start, since a check of one sentence may build most of them: no literal
/// prefilter, no one-pass or backtracking engine, only the lazy DFA (and the PikeVM it
/// falls back on), whose states are made as the sentences need them.
fn compile(pattern: &str) -> Regex {
    all(&[pattern])
}

/// A kind's patterns as one regex: a sentence is read once per kind, the leftmost match of
/// any of them found.
fn all(patterns: &[&str]) -> Regex {
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

/// What the sources are called when an answer talks about them.
const SOURCES: &str = r"(?:(?:the|these|those|this|my|your|our|its) )?(?:(?:provided|given|available|retrieved|supplied|attached|above|following|cited|referenced|search|relevant|uploaded|specific|two|three|several) )*(?:context|contexts|passages?|documents?|docs|sources?|search results|texts?|excerpts?|information|articles?|snippets?|knowledge base|materials?|content|references|files?|web pages?|pages?|extracts?)(?: (?:provided|given|above|available|supplied|retrieved|here|i (?:have|found|was given)))?";

/// Negated verbs of covering.
const NEG: &str = r"(?:do|does|did) ?(?:not|n't)|(?:is|are|was|were) not|(?:cannot|can't|can not|could not|couldn't)";

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

/// What sources do when they cover something.
const COVER: &str = r"(?:provide|mention|contain|include|specify|say|state|address|discuss|cover|give|offer|describe|list|indicate|explain|detail|answer|reveal|identify|touch on|talk about|refer to|shed light|elaborate|clarify|report|have|go into|delve)";

static PATTERNS: Patterns = Patterns {
    abstention: LazyLock::new(|| {
        all(&[
            // `The passages provided do not provide specific information on X`
            &format!(
                r"\b{SOURCES} (?:[a-z,'-]+ ){{0,8}}?(?:{NEG}) (?:[a-z]+ly |seem to |appear to |explicitly |actually )?{COVER}\b"
            ),
            &format!(
                r"\b{SOURCES} (?:(?:is|are) silent|(?:lacks?|lacking)\b|makes? no (?:mention|reference)|(?:has|have) no (?:information|details|data|mention))"
            ),
            // `… is not mentioned in the provided context`
            &format!(
                r"\b(?:is|are|was|were) not (?:[a-z]+ly )?(?:mentioned|provided|specified|stated|available|given|included|covered|addressed|discussed|described|found|listed|detailed|explained|apparent|clear|evident|indicated|present|contained) (?:in|from|by|within) {SOURCES}"
            ),
            &format!(
                r"\b(?:no|not (?:enough|sufficient|any)|insufficient|limited) (?:specific |relevant |detailed |further |direct |explicit |clear )?(?:information|details|data|mention|context|evidence) (?:(?:is|was|are) (?:available|provided|given) )?(?:(?:about|on|regarding|of|for|to|concerning) [^.;]*?)?(?:in|from|within|based on) {SOURCES}"
            ),
            r"\b(?:i|we) (?:do not|don't|did not|didn't|cannot|can't|could not|couldn't|was not able to|wasn't able to|am not able to|am unable to|'m unable to|'m not able to|was unable to|have not been able to|haven't been able to) (?:currently |really )?(?:have|find|locate|see|answer|determine|provide|access|tell|confirm|identify|say|give|verify|retrieve|offer|speculate)\b",
            r"\bi (?:do not|don't|really don't) know(?: (?:the answer|what|who|how|whether|which|when|where|why|if|for sure)\b| ?[.,!;]| ?$)",
            r"\b(?:i|we) (?:have|had|'ve) (?:no|not (?:found|got|enough))\b",
            r"\b(?:(?:the|this) )?question is (?:unanswerable|not answerable)\b",
            r"^(?:i'm sorry|i am sorry|we are sorry|we're sorry|sorry|i apologi[sz]e|we apologi[sz]e|unfortunately)\b[^.]*\b(?:not|no|unable|cannot|can't|couldn't)\b",
            r"^(?:unable|not able) to (?:answer|determine|find|provide|say|tell|confirm|identify)\b",
            &format!(
                r"\bit is (?:not possible|impossible|unclear|difficult|hard) to (?:answer|determine|say|tell|know|confirm|identify|provide|find|predict)\b[^.]*\b(?:from|based on|with|given|in) (?:only )?{SOURCES}"
            ),
            r"\b(?:the )?question (?:cannot|can't|could not|can not) be answered\b",
            r"\b(?:no|not enough|not sufficient|no sufficient|insufficient) (?:\w+ )?(?:information|details|data|context|evidence) (?:\w+ ){0,3}?to (?:answer|determine|say|tell|know|confirm|identify|provide|conclude)\b",
            &format!(
                r"\bnone of {SOURCES} (?:\w+ ){{0,3}}?(?:is|are|was|were|seems?|appears?) (?:to be )?(?:\w+ly )?(?:related|relevant|about|connected)\b"
            ),
            &format!(r"\bnone of {SOURCES} (?:\w+ly )?{COVER}"),
            &format!(
                r"^(?:from|in|based on|according to|within) {SOURCES},? (?:there is|there's|there are|i (?:can|could|do|did)) ?(?:no|not|n't)\b"
            ),
            r"\bit is (?:currently |still )?(?:not clear|unclear|unknown|not known) (?:from [^.]*? )?(?:who|what|how|whether|which|when|where|why|if)\b",
            r"\b(?:there is|there's) no (?:specific |relevant |direct )?(?:information|mention|answer) (?:about|on|regarding|of|for|to|in)\b",
            r"\bbeyond the scope of (?:the|these|this|my) (?:provided |given )?(?:context|passages?|documents?|sources?|information|search results|knowledge)",
        ])
    }),
    pleasantry: LazyLock::new(|| {
        all(&[
            r"^(?:hello|hi|hey|greetings|good (?:morning|afternoon|evening)|dear \w+)\b[ ,!.]*(?:there|everyone|all|again|friend)?[ ,!.]*$",
            r"\bthis is bing\b",
            r"^(?:thank you|thanks)\b",
            r"^(?:you're|you are) (?:very |most )?welcome\b",
            r"\b(?:i |we )?hope (?:this|that|it|the above|my answer|these|the information) (?:\w+ )?(?:helps?|was helpful|is helpful|answers|clarifies|gives|makes|useful)",
            r"\b(?:let me know|feel free to|don't hesitate|do not hesitate)\b",
            r"^please (?:try|ask|rephrase|provide|clarify|specify)\b",
            r"\bif you (?:have|need) (?:any )?(?:more|other|further|additional|follow-up) (?:questions|help|information|assistance)\b",
            r"^(?:i'm|i am|i'd be|i would be|i'll be|we're|we are) (?:always )?(?:happy|glad|pleased|delighted) to (?:help|assist|answer|provide|explain|clarify)\b",
            r"^(?:i'm|i am) glad (?:you|to|that you)\b",
            r"^(?:good luck|best of luck|best wishes|cheers|enjoy)\b",
            r"^(?:have|enjoy) a (?:great|nice|good|wonderful|lovely)\b",
            r"^(?:is there )?anything else\b",
            r"^(?:would|do) you (?:like|want) (?:me )?to\b",
            r"^(?:that's|that is|this is|what) (?:a|an) (?:very |really )?(?:great|good|excellent|interesting|broad|complex|tricky|fascinating|important|difficult|complicated|thoughtful) (?:\w+ )?question\b",
            r"^(?:great|good|interesting|excellent) question\b",
            r"^(?:sure|certainly|of course|absolutely|okay|ok) ?[!.,]? ?$",
            r"^(?:happy|glad) to help\b",
            r"^(?:i|we) (?:can|could) (?:help|assist) you\b",
        ])
    }),
    navigation: LazyLock::new(|| {
        all(&[
            r"^(?:please )?(?:see|refer to|consult|check(?: out)?|visit|read|review|look at|go to|head to|click|follow|explore)\b[^.]*\b(?:documentation|docs|guide|guides|manual|website|site|page|pages|link|links|article|section|faq|resources?|references?|sources?|details|information|more|reading|tutorial|chapter|appendix|url|below|above|paper|report)\b",
            r"^(?:for|to (?:learn|read|find out|get)) (?:more|further|additional|detailed|full|complete|the latest|up-to-date|current|specific|in-depth) (?:information|details|info|guidance|reading|instructions|data)?",
            r"^(?:you can|you may|you could|readers can) (?:also )?(?:find|read|learn|get|see|access) (?:more|further|additional|the full|detailed)\b",
            r"^(?:more|further|additional|detailed) (?:information|details|info) (?:can be|is|are|may be) (?:found|available|obtained)\b",
            r"^(?:learn|read|find out) more\b",
            r"^(?:cf\.?|see also)\b",
        ])
    }),
    meta: LazyLock::new(|| {
        all(&[
            r"^(?:here is|here are|here's|below is|below are|the following (?:is|are))\b",
            &format!(
                r"^(?:based on|according to|from|using|drawing on) {SOURCES},? (?:here (?:is|are|'s)|below (?:is|are)|i (?:can|will|have|found|would|could)|the following)\b"
            ),
            r"^(?:i|we) (?:have |also )?(?:found|searched|looked|gathered|compiled|collected|identified|did a search|performed a search|checked)\b",
            r"^(?:this|that|the above|the answer above|this answer|this list) is (?:a|an|just a|only a|not an?) (?:\w+ ){0,2}(?:overview|summary|list|introduction|outline|answer|selection|sample|explanation)\b",
            r"^(?:to (?:answer|address) your question|in (?:summary|short|conclusion|brief|a nutshell)|to (?:summari[sz]e|sum up|conclude)|overall|that said) ?[,:.]? ?$",
            r"^(?:let me|i will|i'll|allow me to|i can|i'd like to|i would like to) (?:try to )?(?:explain|summari[sz]e|break|outline|walk|give|provide|describe|list|share|help|answer|clarify|elaborate)\b",
            // What a model with a search tool says before it searches (`I'll search for the tower's
            // height.`): what it will do, not what is so.
            r"^(?:let me|let's|i will|i'll|i am going to|i'm going to) (?:first |quickly )?(?:search|look up|look for|look into|research|browse)\b",
            &format!(
                r"^{SOURCES} (?:\w+ly )?(?:provide|provides|offer|offers|contain|contains|include|includes|give|gives|cover|covers|discuss|discusses|describe|describes|may help|can help|might help|are helpful|is helpful|have more)\b"
            ),
            &format!(
                r"^{SOURCES} (?:is|are|seems? to be|appears? to be) (?:mostly |mainly |all |largely )?about\b"
            ),
            r"^(?:[^,]*, ?)?there are (?:several|many|various|different|numerous|multiple|a few|some|a number of|a variety of|a range of) (?:\w+ ){0,2}?(?:ways|factors|options|methods|techniques|approaches|strategies|reasons|steps|types|kinds|things|opinions|considerations|aspects|possibilities|ideas|theories|views|perspectives|solutions|tools|resources|answers|interpretations)\b[^.:;,]*(?:, ?depending on\b[^.:;]*)?[.!]?$",
            r"^(?:these|those|this|that) (?:are|is|were) (?:just |only )?(?:some|a few|the main|the key|several|a number) (?:of (?:the )?)?(?:\w+ ){0,2}?(?:points|steps|ways|factors|options|ideas|examples|tips|things|considerations|reasons|aspects|strategies|methods|approaches|resources|suggestions|measures)\b",
            r"^by (?:following|considering|implementing|using|applying|taking|adopting|combining) (?:these|this|the above|those|such)\b",
            r"^as an? (?:\w+ ){0,3}?(?:expert|professional|specialist)\b[^.]*\bi (?:can|will|would|cannot|can't)\b",
            r"^as an (?:ai|ai language model|language model|assistant|ai assistant)\b",
            r"^(?:i am|i'm) (?:not (?:a|an) \w+|an ai|just an ai)\b",
            r"\b(?:this|that|it) (?:may|might|could|will|would|should) help (?:me|us) (?:to )?(?:provide|give|answer)\b",
            r"\bi (?:would|will|'d) need (?:to know )?more (?:details|information|context)\b",
        ])
    }),
    instruction: LazyLock::new(|| {
        all(&[
            r"^(?:please )?(?:(?:do not|don't|never|always) )?(?:consult|contact|ask|see|seek|talk to|speak (?:to|with)|call|visit) (?:a|an|your|with a|with your) (?:\w+ )?(?:doctor|physician|lawyer|attorney|professional|expert|specialist|pharmacist|veterinarian|vet|advisor|adviser|accountant|dentist|therapist|provider|consultant|counsel|engineer)",
            r"^(?:please )?seek (?:immediate )?(?:medical|professional|legal|expert|financial) (?:advice|help|attention|care|guidance)\b",
            r"\b(?:it is|it's) (?:always )?(?:recommended|advisable|a good idea|best|wise|advised|important|essential|crucial|prudent) to (?:consult|contact|seek|speak|talk|check with|ask)\b",
            r"^(?:you (?:should|must|need to|may (?:want|need) to|might (?:want|need) to|will need to|'ll need to|have to)|make sure|be sure|remember to|don't forget to|do not forget to|we recommend|i recommend|i suggest|i would (?:recommend|suggest)|try to|consider)\b",
            r"^(?:please )?(?:(?:do not|don't|never|always) )?(?:test|check|try|use|make|keep|avoid|ensure|consider|review|read|start|stop|set|add|run|install|update|verify|confirm|follow|practice|practise|listen|take|give|get|be|stay|let|write|plan|prepare|monitor|limit|choose|pick|save|back up|turn|open|close|click|select|enter|type|wait|watch|look|ask|talk|tell|think|focus|pay|learn|study|store|wash|apply|remove|replace|clean|drink|eat|rest|exercise|call|contact|report|document|schedule|book)\b[^.]*\b(?:you|your|yours|yourself|yourselves)\b",
        ])
    }),
    trailer: LazyLock::new(|| compile(r"(?: ?(?:\d{1,3}[.)]?|-|–|—|•|\*+))+ ?$")),
    asserting_question: LazyLock::new(|| compile(r"\b(?:did|do) you know (?:that )?")),
    contrast: LazyLock::new(|| {
        compile(
            r"(?:,|;|—|–| -) ?(?:but|however|yet|although|though|whereas|while|nevertheless|nonetheless|instead|still)\b|; ?\w|\b(?:but|however) ?,",
        )
    }),
    conjunction: LazyLock::new(|| {
        compile(r"(?:,|;|—|–| -) ?(?:but|yet|whereas|while|although|though)\b")
    }),
    concessive: LazyLock::new(|| {
        compile(r"^(?:while|although|though|even though|whereas|despite|even if|if)\b[^,]*,")
    }),
    asserts_clause: LazyLock::new(|| {
        compile(
            r"\b(?:note|notice|recogni[sz]e|understand|remember|know|realize|realise|keep in mind|bear in mind) that\b",
        )
    }),
};

/// The sentence prepared for the rules: leading markup removed, emphasis dropped, curly
/// apostrophes straightened, white space single; `lower` is the same text lower-cased (ASCII),
/// byte for byte.
struct Prepared {
    text: String,
    lower: String,
}

impl Prepared {
    fn new(sentence: &str) -> Prepared {
        let start = LEAD.find(sentence.as_bytes()).map_or(0, |m| m.end());
        let sentence = sentence.get(start..).unwrap_or(sentence);
        let mut text = String::with_capacity(sentence.len());
        let mut space = true;
        for c in sentence.chars() {
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
        }
        while text.ends_with(' ') {
            text.pop();
        }
        let lower = text.to_ascii_lowercase();
        Prepared { text, lower }
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
        let concessive = p
            .concessive
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
    let body = p
        .trailer
        .find(bytes)
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
    if let Some(m) = p.pleasantry.find(bytes) {
        return found(Kind::Pleasantry, m.range());
    }
    if let Some(m) = p.navigation.find(bytes)
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
    if let Some(m) = p.meta.find(bytes)
        && !announces(lower, m.end())
    {
        return found(Kind::Meta, m.range());
    }
    if let Some(m) = p.instruction.find(bytes)
        && !p.asserts_clause.is_match(bytes)
        && !names_something(&prepared.text)
    {
        return found(Kind::Instruction, m.range());
    }
    None
}

/// Whether a question asserts what it asks about: `Did you know (that) the tower …?`, not `Do
/// you know why …?`.
fn asserts(p: &Patterns, lower: &str) -> bool {
    const ASKS: [&str; 14] = [
        "what", "who", "why", "how", "which", "when", "where", "whether", "if", "anything",
        "about", "any", "much", "more",
    ];
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
