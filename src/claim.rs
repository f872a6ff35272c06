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
/// removed, lower-cased ASCII, curly apostrophes straightened and emphasis marks dropped.
struct Patterns {
    abstention: Regex,
    pleasantry: Regex,
    navigation: Regex,
    meta: Regex,
    instruction: Regex,
    /// What may follow a sentence's last word: an enumerator, a list dash, emphasis.
    trailer: Regex,
    /// A question that asserts: `Did you know that …?`.
    asserting_question: Regex,
    /// What turns an abstention into a claim: a contrast after it (`…, but X is Y`).
    contrast: Regex,
    /// A conjunction joining a clause before an abstention (`X is Y, but the context …`); a
    /// parenthetical `however` is none.
    conjunction: Regex,
    /// A leading concessive clause (`While the text does not …, it implies …`).
    concessive: Regex,
    /// A verb of knowing with a clause (`note that …`): the clause is asserted.
    asserts_clause: Regex,
}

/// A pattern over bytes, ASCII classes only (`\w`, `\s`, `\b`): the rules read lower-cased
/// ASCII words. Built for a cheap start, since a check of one sentence builds them all: no
/// literal prefilter, no one-pass or backtracking engine, only the lazy DFA (and the PikeVM it
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
const SOURCES: &str = r"(?:(?:the|these|those|this|my|your|our|its)\s+)?(?:(?:provided|given|available|retrieved|supplied|attached|above|following|cited|referenced|search|relevant|uploaded|specific|two|three|several)\s+)*(?:context|contexts|passages?|documents?|docs|sources?|search\s+results|texts?|excerpts?|information|articles?|snippets?|knowledge\s+base|materials?|content|references|files?|web\s+pages?|pages?|extracts?)(?:\s+(?:provided|given|above|available|supplied|retrieved|here|i\s+(?:have|found|was\s+given)))?";

/// What sources do when they cover something.
const COVER: &str = r"(?:provide|mention|contain|include|specify|say|state|address|discuss|cover|give|offer|describe|list|indicate|explain|detail|answer|reveal|identify|touch\s+on|talk\s+about|refer\s+to|shed\s+light|elaborate|clarify|report|have|go\s+into|delve)";

static PATTERNS: LazyLock<Patterns> = LazyLock::new(|| {
    let neg = r"(?:do|does|did)\s*(?:not|n't)|(?:is|are|was|were)\s+not|(?:cannot|can't|can\s+not|could\s+not|couldn't)";
    Patterns {
        abstention: all(&[
            // `The passages provided do not provide specific information on X`
            &format!(
                r"\b{SOURCES}\s+(?:[a-z,'-]+\s+){{0,8}}?(?:{neg})\s+(?:[a-z]+ly\s+|seem\s+to\s+|appear\s+to\s+|explicitly\s+|actually\s+)?{COVER}\b"
            ),
            &format!(
                r"\b{SOURCES}\s+(?:(?:is|are)\s+silent|(?:lacks?|lacking)\b|makes?\s+no\s+(?:mention|reference)|(?:has|have)\s+no\s+(?:information|details|data|mention))"
            ),
            // `… is not mentioned in the provided context`
            &format!(
                r"\b(?:is|are|was|were)\s+not\s+(?:[a-z]+ly\s+)?(?:mentioned|provided|specified|stated|available|given|included|covered|addressed|discussed|described|found|listed|detailed|explained|apparent|clear|evident|indicated|present|contained)\s+(?:in|from|by|within)\s+{SOURCES}"
            ),
            &format!(
                r"\b(?:no|not\s+(?:enough|sufficient|any)|insufficient|limited)\s+(?:specific\s+|relevant\s+|detailed\s+|further\s+|direct\s+|explicit\s+|clear\s+)?(?:information|details|data|mention|context|evidence)\s+(?:(?:is|was|are)\s+(?:available|provided|given)\s+)?(?:(?:about|on|regarding|of|for|to|concerning)\s+[^.;]*?)?(?:in|from|within|based\s+on)\s+{SOURCES}"
            ),
            r"\b(?:i|we)\s+(?:do\s+not|don't|did\s+not|didn't|cannot|can't|could\s+not|couldn't|was\s+not\s+able\s+to|wasn't\s+able\s+to|am\s+not\s+able\s+to|am\s+unable\s+to|'m\s+unable\s+to|'m\s+not\s+able\s+to|was\s+unable\s+to|have\s+not\s+been\s+able\s+to|haven't\s+been\s+able\s+to)\s+(?:currently\s+|really\s+)?(?:have|find|locate|see|answer|determine|provide|access|tell|confirm|identify|say|give|verify|retrieve|offer|speculate)\b",
            r"\bi\s+(?:do\s+not|don't|really\s+don't)\s+know(?:\s+(?:the\s+answer|what|who|how|whether|which|when|where|why|if|for\s+sure)\b|\s*[.,!;]|\s*$)",
            r"\b(?:i|we)\s+(?:have|had|'ve)\s+(?:no|not\s+(?:found|got|enough))\b",
            r"\b(?:(?:the|this)\s+)?question\s+is\s+(?:unanswerable|not\s+answerable)\b",
            r"^(?:i'm\s+sorry|i\s+am\s+sorry|we\s+are\s+sorry|we're\s+sorry|sorry|i\s+apologi[sz]e|we\s+apologi[sz]e|unfortunately)\b[^.]*\b(?:not|no|unable|cannot|can't|couldn't)\b",
            r"^(?:unable|not\s+able)\s+to\s+(?:answer|determine|find|provide|say|tell|confirm|identify)\b",
            &format!(
                r"\bit\s+is\s+(?:not\s+possible|impossible|unclear|difficult|hard)\s+to\s+(?:answer|determine|say|tell|know|confirm|identify|provide|find|predict)\b[^.]*\b(?:from|based\s+on|with|given|in)\s+(?:only\s+)?{SOURCES}"
            ),
            r"\b(?:the\s+)?question\s+(?:cannot|can't|could\s+not|can\s+not)\s+be\s+answered\b",
            r"\b(?:no|not\s+enough|not\s+sufficient|no\s+sufficient|insufficient)\s+(?:\w+\s+)?(?:information|details|data|context|evidence)\s+(?:\w+\s+){0,3}?to\s+(?:answer|determine|say|tell|know|confirm|identify|provide|conclude)\b",
            &format!(
                r"\bnone\s+of\s+{SOURCES}\s+(?:\w+\s+){{0,3}}?(?:is|are|was|were|seems?|appears?)\s+(?:to\s+be\s+)?(?:\w+ly\s+)?(?:related|relevant|about|connected)\b"
            ),
            &format!(r"\bnone\s+of\s+{SOURCES}\s+(?:\w+ly\s+)?{COVER}"),
            &format!(
                r"^(?:from|in|based\s+on|according\s+to|within)\s+{SOURCES},?\s+(?:there\s+is|there's|there\s+are|i\s+(?:can|could|do|did))\s*(?:no|not|n't)\b"
            ),
            r"\bit\s+is\s+(?:currently\s+|still\s+)?(?:not\s+clear|unclear|unknown|not\s+known)\s+(?:from\s+[^.]*?\s+)?(?:who|what|how|whether|which|when|where|why|if)\b",
            r"\b(?:there\s+is|there's)\s+no\s+(?:specific\s+|relevant\s+|direct\s+)?(?:information|mention|answer)\s+(?:about|on|regarding|of|for|to|in)\b",
            r"\bbeyond\s+the\s+scope\s+of\s+(?:the|these|this|my)\s+(?:provided\s+|given\s+)?(?:context|passages?|documents?|sources?|information|search\s+results|knowledge)",
        ]),
        pleasantry: all(&[
            r"^(?:hello|hi|hey|greetings|good\s+(?:morning|afternoon|evening)|dear\s+\w+)\b[\s,!.]*(?:there|everyone|all|again|friend)?[\s,!.]*$",
            r"\bthis\s+is\s+bing\b",
            r"^(?:thank\s+you|thanks)\b",
            r"^(?:you're|you\s+are)\s+(?:very\s+|most\s+)?welcome\b",
            r"\b(?:i\s+|we\s+)?hope\s+(?:this|that|it|the\s+above|my\s+answer|these|the\s+information)\s+(?:\w+\s+)?(?:helps?|was\s+helpful|is\s+helpful|answers|clarifies|gives|makes|useful)",
            r"\b(?:let\s+me\s+know|feel\s+free\s+to|don't\s+hesitate|do\s+not\s+hesitate)\b",
            r"^please\s+(?:try|ask|rephrase|provide|clarify|specify)\b",
            r"\bif\s+you\s+(?:have|need)\s+(?:any\s+)?(?:more|other|further|additional|follow-up)\s+(?:questions|help|information|assistance)\b",
            r"^(?:i'm|i\s+am|i'd\s+be|i\s+would\s+be|i'll\s+be|we're|we\s+are)\s+(?:always\s+)?(?:happy|glad|pleased|delighted)\s+to\s+(?:help|assist|answer|provide|explain|clarify)\b",
            r"^(?:i'm|i\s+am)\s+glad\s+(?:you|to|that\s+you)\b",
            r"^(?:good\s+luck|best\s+of\s+luck|best\s+wishes|cheers|enjoy)\b",
            r"^(?:have|enjoy)\s+a\s+(?:great|nice|good|wonderful|lovely)\b",
            r"^(?:is\s+there\s+)?anything\s+else\b",
            r"^(?:would|do)\s+you\s+(?:like|want)\s+(?:me\s+)?to\b",
            r"^(?:that's|that\s+is|this\s+is|what)\s+(?:a|an)\s+(?:very\s+|really\s+)?(?:great|good|excellent|interesting|broad|complex|tricky|fascinating|important|difficult|complicated|thoughtful)\s+(?:\w+\s+)?question\b",
            r"^(?:great|good|interesting|excellent)\s+question\b",
            r"^(?:sure|certainly|of\s+course|absolutely|okay|ok)\s*[!.,]?\s*$",
            r"^(?:happy|glad)\s+to\s+help\b",
            r"^(?:i|we)\s+(?:can|could)\s+(?:help|assist)\s+you\b",
        ]),
        navigation: all(&[
            r"^(?:please\s+)?(?:see|refer\s+to|consult|check(?:\s+out)?|visit|read|review|look\s+at|go\s+to|head\s+to|click|follow|explore)\b[^.]*\b(?:documentation|docs|guide|guides|manual|website|site|page|pages|link|links|article|section|faq|resources?|references?|sources?|details|information|more|reading|tutorial|chapter|appendix|url|below|above|paper|report)\b",
            r"^(?:for|to\s+(?:learn|read|find\s+out|get))\s+(?:more|further|additional|detailed|full|complete|the\s+latest|up-to-date|current|specific|in-depth)\s+(?:information|details|info|guidance|reading|instructions|data)?",
            r"^(?:you\s+can|you\s+may|you\s+could|readers\s+can)\s+(?:also\s+)?(?:find|read|learn|get|see|access)\s+(?:more|further|additional|the\s+full|detailed)\b",
            r"^(?:more|further|additional|detailed)\s+(?:information|details|info)\s+(?:can\s+be|is|are|may\s+be)\s+(?:found|available|obtained)\b",
            r"^(?:learn|read|find\s+out)\s+more\b",
            r"^(?:cf\.?|see\s+also)\b",
        ]),
        meta: all(&[
            r"^(?:here\s+is|here\s+are|here's|below\s+is|below\s+are|the\s+following\s+(?:is|are))\b",
            &format!(
                r"^(?:based\s+on|according\s+to|from|using|drawing\s+on)\s+{SOURCES},?\s+(?:here\s+(?:is|are|'s)|below\s+(?:is|are)|i\s+(?:can|will|have|found|would|could)|the\s+following)\b"
            ),
            r"^(?:i|we)\s+(?:have\s+|also\s+)?(?:found|searched|looked|gathered|compiled|collected|identified|did\s+a\s+search|performed\s+a\s+search|checked)\b",
            r"^(?:this|that|the\s+above|the\s+answer\s+above|this\s+answer|this\s+list)\s+is\s+(?:a|an|just\s+a|only\s+a|not\s+an?)\s+(?:\w+\s+){0,2}(?:overview|summary|list|introduction|outline|answer|selection|sample|explanation)\b",
            r"^(?:to\s+(?:answer|address)\s+your\s+question|in\s+(?:summary|short|conclusion|brief|a\s+nutshell)|to\s+(?:summari[sz]e|sum\s+up|conclude)|overall|that\s+said)\s*[,:.]?\s*$",
            r"^(?:let\s+me|i\s+will|i'll|allow\s+me\s+to|i\s+can|i'd\s+like\s+to|i\s+would\s+like\s+to)\s+(?:try\s+to\s+)?(?:explain|summari[sz]e|break|outline|walk|give|provide|describe|list|share|help|answer|clarify|elaborate)\b",
            &format!(
                r"^{SOURCES}\s+(?:\w+ly\s+)?(?:provide|provides|offer|offers|contain|contains|include|includes|give|gives|cover|covers|discuss|discusses|describe|describes|may\s+help|can\s+help|might\s+help|are\s+helpful|is\s+helpful|have\s+more)\b"
            ),
            &format!(
                r"^{SOURCES}\s+(?:is|are|seems?\s+to\s+be|appears?\s+to\s+be)\s+(?:mostly\s+|mainly\s+|all\s+|largely\s+)?about\b"
            ),
            r"^(?:[^,]*,\s*)?there\s+are\s+(?:several|many|various|different|numerous|multiple|a\s+few|some|a\s+number\s+of|a\s+variety\s+of|a\s+range\s+of)\s+(?:\w+\s+){0,2}?(?:ways|factors|options|methods|techniques|approaches|strategies|reasons|steps|types|kinds|things|opinions|considerations|aspects|possibilities|ideas|theories|views|perspectives|solutions|tools|resources|answers|interpretations)\b[^.:;,]*(?:,\s*depending\s+on\b[^.:;]*)?[.!]?$",
            r"^(?:these|those|this|that)\s+(?:are|is|were)\s+(?:just\s+|only\s+)?(?:some|a\s+few|the\s+main|the\s+key|several|a\s+number)\s+(?:of\s+(?:the\s+)?)?(?:\w+\s+){0,2}?(?:points|steps|ways|factors|options|ideas|examples|tips|things|considerations|reasons|aspects|strategies|methods|approaches|resources|suggestions|measures)\b",
            r"^by\s+(?:following|considering|implementing|using|applying|taking|adopting|combining)\s+(?:these|this|the\s+above|those|such)\b",
            r"^as\s+an?\s+(?:\w+\s+){0,3}?(?:expert|professional|specialist)\b[^.]*\bi\s+(?:can|will|would|cannot|can't)\b",
            r"^as\s+an\s+(?:ai|ai\s+language\s+model|language\s+model|assistant|ai\s+assistant)\b",
            r"^(?:i\s+am|i'm)\s+(?:not\s+(?:a|an)\s+\w+|an\s+ai|just\s+an\s+ai)\b",
            r"\b(?:this|that|it)\s+(?:may|might|could|will|would|should)\s+help\s+(?:me|us)\s+(?:to\s+)?(?:provide|give|answer)\b",
            r"\bi\s+(?:would|will|'d)\s+need\s+(?:to\s+know\s+)?more\s+(?:details|information|context)\b",
        ]),
        instruction: all(&[
            r"^(?:please\s+)?(?:(?:do\s+not|don't|never|always)\s+)?(?:consult|contact|ask|see|seek|talk\s+to|speak\s+(?:to|with)|call|visit)\s+(?:a|an|your|with\s+a|with\s+your)\s+(?:\w+\s+)?(?:doctor|physician|lawyer|attorney|professional|expert|specialist|pharmacist|veterinarian|vet|advisor|adviser|accountant|dentist|therapist|provider|consultant|counsel|engineer)",
            r"^(?:please\s+)?seek\s+(?:immediate\s+)?(?:medical|professional|legal|expert|financial)\s+(?:advice|help|attention|care|guidance)\b",
            r"\b(?:it\s+is|it's)\s+(?:always\s+)?(?:recommended|advisable|a\s+good\s+idea|best|wise|advised|important|essential|crucial|prudent)\s+to\s+(?:consult|contact|seek|speak|talk|check\s+with|ask)\b",
            r"^(?:you\s+(?:should|must|need\s+to|may\s+(?:want|need)\s+to|might\s+(?:want|need)\s+to|will\s+need\s+to|'ll\s+need\s+to|have\s+to)|make\s+sure|be\s+sure|remember\s+to|don't\s+forget\s+to|do\s+not\s+forget\s+to|we\s+recommend|i\s+recommend|i\s+suggest|i\s+would\s+(?:recommend|suggest)|try\s+to|consider)\b",
            r"^(?:please\s+)?(?:(?:do\s+not|don't|never|always)\s+)?(?:test|check|try|use|make|keep|avoid|ensure|consider|review|read|start|stop|set|add|run|install|update|verify|confirm|follow|practice|practise|listen|take|give|get|be|stay|let|write|plan|prepare|monitor|limit|choose|pick|save|back\s+up|turn|open|close|click|select|enter|type|wait|watch|look|ask|talk|tell|think|focus|pay|learn|study|store|wash|apply|remove|replace|clean|drink|eat|rest|exercise|call|contact|report|document|schedule|book)\b[^.]*\b(?:you|your|yours|yourself|yourselves)\b",
        ]),
        trailer: compile(r"(?:\s*(?:\d{1,3}[.)]?|-|–|—|•|\*+))+\s*$"),
        asserting_question: compile(r"\b(?:did|do)\s+you\s+know\s+(?:that\s+)?"),
        contrast: compile(
            r"(?:,|;|—|–|\s-)\s*(?:but|however|yet|although|though|whereas|while|nevertheless|nonetheless|instead|still)\b|;\s*\w|\b(?:but|however)\s*,",
        ),
        conjunction: compile(r"(?:,|;|—|–|\s-)\s*(?:but|yet|whereas|while|although|though)\b"),
        concessive: compile(
            r"^(?:while|although|though|even\s+though|whereas|despite|even\s+if|if)\b[^,]*,",
        ),
        asserts_clause: compile(
            r"\b(?:note|notice|recogni[sz]e|understand|remember|know|realize|realise|keep\s+in\s+mind|bear\s+in\s+mind)\s+that\b",
        ),
    }
});

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
    let p = &*PATTERNS;
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
    for m in p.abstention.find_iter(bytes) {
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
