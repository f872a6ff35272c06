//! The claim rules' patterns as text, one list per rule: each list is one automaton, searched
//! for the leftmost match of any of its patterns. Patterns over bytes, ASCII classes only (`\w`,
//! `\b`): the rules read lower-cased ASCII words, and white space is one space in the prepared
//! text, so the patterns write it as one. `claim::automata` builds them.

/// Leading markup and labels that are not part of what a sentence says: white space, block
/// quotes, list bullets and enumerators, heading marks, emphasis, and a label such as `Tip:`.
pub fn lead() -> Vec<String> {
    vec![
        r"(?ix)^(?:[\s>\-*+\#_]|•|\d{1,3}[.)]\s)*(?:(?:pro\s+)?(?:tip|note|hint|warning|caution|important|reminder|remember|disclaimer|n\.b\.)\s*(?:[:!.\-]|–|—)\s*(?:[*_]+\s*)?)?".into(),
    ]
}

/// What the sources are called when an answer talks about them.
const SOURCES: &str = r"(?:(?:the|these|those|this|my|your|our|its) )?(?:(?:provided|given|available|retrieved|supplied|attached|above|following|cited|referenced|search|relevant|uploaded|specific|two|three|several) )*(?:context|contexts|passages?|documents?|docs|sources?|search results|texts?|excerpts?|information|articles?|snippets?|knowledge base|materials?|content|references|files?|web pages?|pages?|extracts?)(?: (?:provided|given|above|available|supplied|retrieved|here|i (?:have|found|was given)))?";

/// Negated verbs of covering.
const NEG: &str = r"(?:do|does|did) ?(?:not|n't)|(?:is|are|was|were) not|(?:cannot|can't|can not|could not|couldn't)";

/// What sources do when they cover something.
const COVER: &str = r"(?:provide|mention|contain|include|specify|say|state|address|discuss|cover|give|offer|describe|list|indicate|explain|detail|answer|reveal|identify|touch on|talk about|refer to|shed light|elaborate|clarify|report|have|go into|delve)";

pub fn abstention() -> Vec<String> {
    vec![
        // `The passages provided do not provide specific information on X`
            format!(
                r"\b{SOURCES} (?:[a-z,'-]+ ){{0,8}}?(?:{NEG}) (?:[a-z]+ly |seem to |appear to |explicitly |actually )?{COVER}\b"
            ),
            format!(
                r"\b{SOURCES} (?:(?:is|are) silent|(?:lacks?|lacking)\b|makes? no (?:mention|reference)|(?:has|have) no (?:information|details|data|mention))"
            ),
            // `… is not mentioned in the provided context`
            format!(
                r"\b(?:is|are|was|were) not (?:[a-z]+ly )?(?:mentioned|provided|specified|stated|available|given|included|covered|addressed|discussed|described|found|listed|detailed|explained|apparent|clear|evident|indicated|present|contained) (?:in|from|by|within) {SOURCES}"
            ),
            format!(
                r"\b(?:no|not (?:enough|sufficient|any)|insufficient|limited) (?:specific |relevant |detailed |further |direct |explicit |clear )?(?:information|details|data|mention|context|evidence) (?:(?:is|was|are) (?:available|provided|given) )?(?:(?:about|on|regarding|of|for|to|concerning) [^.;]*?)?(?:in|from|within|based on) {SOURCES}"
            ),
            r"\b(?:i|we) (?:do not|don't|did not|didn't|cannot|can't|could not|couldn't|was not able to|wasn't able to|am not able to|am unable to|'m unable to|'m not able to|was unable to|have not been able to|haven't been able to) (?:currently |really )?(?:have|find|locate|see|answer|determine|provide|access|tell|confirm|identify|say|give|verify|retrieve|offer|speculate)\b".into(),
            r"\bi (?:do not|don't|really don't) know(?: (?:the answer|what|who|how|whether|which|when|where|why|if|for sure)\b| ?[.,!;]| ?$)".into(),
            r"\b(?:i|we) (?:have|had|'ve) (?:no|not (?:found|got|enough))\b".into(),
            r"\b(?:(?:the|this) )?question is (?:unanswerable|not answerable)\b".into(),
            r"^(?:i'm sorry|i am sorry|we are sorry|we're sorry|sorry|i apologi[sz]e|we apologi[sz]e|unfortunately)\b[^.]*\b(?:not|no|unable|cannot|can't|couldn't)\b".into(),
            r"^(?:unable|not able) to (?:answer|determine|find|provide|say|tell|confirm|identify)\b".into(),
            format!(
                r"\bit is (?:not possible|impossible|unclear|difficult|hard) to (?:answer|determine|say|tell|know|confirm|identify|provide|find|predict)\b[^.]*\b(?:from|based on|with|given|in) (?:only )?{SOURCES}"
            ),
            r"\b(?:the )?question (?:cannot|can't|could not|can not) be answered\b".into(),
            r"\b(?:no|not enough|not sufficient|no sufficient|insufficient) (?:\w+ )?(?:information|details|data|context|evidence) (?:\w+ ){0,3}?to (?:answer|determine|say|tell|know|confirm|identify|provide|conclude)\b".into(),
            format!(
                r"\bnone of {SOURCES} (?:\w+ ){{0,3}}?(?:is|are|was|were|seems?|appears?) (?:to be )?(?:\w+ly )?(?:related|relevant|about|connected)\b"
            ),
            format!(r"\bnone of {SOURCES} (?:\w+ly )?{COVER}"),
            format!(
                r"^(?:from|in|based on|according to|within) {SOURCES},? (?:there is|there's|there are|i (?:can|could|do|did)) ?(?:no|not|n't)\b"
            ),
            r"\bit is (?:currently |still )?(?:not clear|unclear|unknown|not known) (?:from [^.]*? )?(?:who|what|how|whether|which|when|where|why|if)\b".into(),
            r"\b(?:there is|there's) no (?:specific |relevant |direct )?(?:information|mention|answer) (?:about|on|regarding|of|for|to|in)\b".into(),
            r"\bbeyond the scope of (?:the|these|this|my) (?:provided |given )?(?:context|passages?|documents?|sources?|information|search results|knowledge)".into(),
    ]
}

pub fn pleasantry() -> Vec<String> {
    vec![
        r"^(?:hello|hi|hey|greetings|good (?:morning|afternoon|evening)|dear \w+)\b[ ,!.]*(?:there|everyone|all|again|friend)?[ ,!.]*$".into(),
            r"\bthis is bing\b".into(),
            r"^(?:thank you|thanks)\b".into(),
            r"^(?:you're|you are) (?:very |most )?welcome\b".into(),
            r"\b(?:i |we )?hope (?:this|that|it|the above|my answer|these|the information) (?:\w+ )?(?:helps?|was helpful|is helpful|answers|clarifies|gives|makes|useful)".into(),
            r"\b(?:let me know|feel free to|don't hesitate|do not hesitate)\b".into(),
            r"^please (?:try|ask|rephrase|provide|clarify|specify)\b".into(),
            r"\bif you (?:have|need) (?:any )?(?:more|other|further|additional|follow-up) (?:questions|help|information|assistance)\b".into(),
            r"^(?:i'm|i am|i'd be|i would be|i'll be|we're|we are) (?:always )?(?:happy|glad|pleased|delighted) to (?:help|assist|answer|provide|explain|clarify)\b".into(),
            r"^(?:i'm|i am) glad (?:you|to|that you)\b".into(),
            r"^(?:good luck|best of luck|best wishes|cheers|enjoy)\b".into(),
            r"^(?:have|enjoy) a (?:great|nice|good|wonderful|lovely)\b".into(),
            r"^(?:is there )?anything else\b".into(),
            r"^(?:would|do) you (?:like|want) (?:me )?to\b".into(),
            r"^(?:that's|that is|this is|what) (?:a|an) (?:very |really )?(?:great|good|excellent|interesting|broad|complex|tricky|fascinating|important|difficult|complicated|thoughtful) (?:\w+ )?question\b".into(),
            r"^(?:great|good|interesting|excellent) question\b".into(),
            r"^(?:sure|certainly|of course|absolutely|okay|ok) ?[!.,]? ?$".into(),
            r"^(?:happy|glad) to help\b".into(),
            r"^(?:i|we) (?:can|could) (?:help|assist) you\b".into(),
    ]
}

pub fn navigation() -> Vec<String> {
    vec![
        r"^(?:please )?(?:see|refer to|consult|check(?: out)?|visit|read|review|look at|go to|head to|click|follow|explore)\b[^.]*\b(?:documentation|docs|guide|guides|manual|website|site|page|pages|link|links|article|section|faq|resources?|references?|sources?|details|information|more|reading|tutorial|chapter|appendix|url|below|above|paper|report)\b".into(),
            r"^(?:for|to (?:learn|read|find out|get)) (?:more|further|additional|detailed|full|complete|the latest|up-to-date|current|specific|in-depth) (?:information|details|info|guidance|reading|instructions|data)?".into(),
            r"^(?:you can|you may|you could|readers can) (?:also )?(?:find|read|learn|get|see|access) (?:more|further|additional|the full|detailed)\b".into(),
            r"^(?:more|further|additional|detailed) (?:information|details|info) (?:can be|is|are|may be) (?:found|available|obtained)\b".into(),
            r"^(?:learn|read|find out) more\b".into(),
            r"^(?:cf\.?|see also)\b".into(),
    ]
}

pub fn meta() -> Vec<String> {
    vec![
        r"^(?:here is|here are|here's|below is|below are|the following (?:is|are))\b".into(),
            format!(
                r"^(?:based on|according to|from|using|drawing on) {SOURCES},? (?:here (?:is|are|'s)|below (?:is|are)|i (?:can|will|have|found|would|could)|the following)\b"
            ),
            r"^(?:i|we) (?:have |also )?(?:found|searched|looked|gathered|compiled|collected|identified|did a search|performed a search|checked)\b".into(),
            r"^(?:this|that|the above|the answer above|this answer|this list) is (?:a|an|just a|only a|not an?) (?:\w+ ){0,2}(?:overview|summary|list|introduction|outline|answer|selection|sample|explanation)\b".into(),
            r"^(?:to (?:answer|address) your question|in (?:summary|short|conclusion|brief|a nutshell)|to (?:summari[sz]e|sum up|conclude)|overall|that said) ?[,:.]? ?$".into(),
            r"^(?:let me|i will|i'll|allow me to|i can|i'd like to|i would like to) (?:try to )?(?:explain|summari[sz]e|break|outline|walk|give|provide|describe|list|share|help|answer|clarify|elaborate)\b".into(),
            // What a model with a search tool says before it searches (`I'll search for the tower's
            // height.`): what it will do, not what is so.
            r"^(?:let me|let's|i will|i'll|i am going to|i'm going to) (?:first |quickly )?(?:search|look up|look for|look into|research|browse)\b".into(),
            format!(
                r"^{SOURCES} (?:\w+ly )?(?:provide|provides|offer|offers|contain|contains|include|includes|give|gives|cover|covers|discuss|discusses|describe|describes|may help|can help|might help|are helpful|is helpful|have more)\b"
            ),
            format!(
                r"^{SOURCES} (?:is|are|seems? to be|appears? to be) (?:mostly |mainly |all |largely )?about\b"
            ),
            r"^(?:[^,]*, ?)?there are (?:several|many|various|different|numerous|multiple|a few|some|a number of|a variety of|a range of) (?:\w+ ){0,2}?(?:ways|factors|options|methods|techniques|approaches|strategies|reasons|steps|types|kinds|things|opinions|considerations|aspects|possibilities|ideas|theories|views|perspectives|solutions|tools|resources|answers|interpretations)\b[^.:;,]*(?:, ?depending on\b[^.:;]*)?[.!]?$".into(),
            r"^(?:these|those|this|that) (?:are|is|were) (?:just |only )?(?:some|a few|the main|the key|several|a number) (?:of (?:the )?)?(?:\w+ ){0,2}?(?:points|steps|ways|factors|options|ideas|examples|tips|things|considerations|reasons|aspects|strategies|methods|approaches|resources|suggestions|measures)\b".into(),
            r"^by (?:following|considering|implementing|using|applying|taking|adopting|combining) (?:these|this|the above|those|such)\b".into(),
            r"^as an? (?:\w+ ){0,3}?(?:expert|professional|specialist)\b[^.]*\bi (?:can|will|would|cannot|can't)\b".into(),
            r"^as an (?:ai|ai language model|language model|assistant|ai assistant)\b".into(),
            r"^(?:i am|i'm) (?:not (?:a|an) \w+|an ai|just an ai)\b".into(),
            r"\b(?:this|that|it) (?:may|might|could|will|would|should) help (?:me|us) (?:to )?(?:provide|give|answer)\b".into(),
            r"\bi (?:would|will|'d) need (?:to know )?more (?:details|information|context)\b".into(),
    ]
}

pub fn instruction() -> Vec<String> {
    vec![
        r"^(?:please )?(?:(?:do not|don't|never|always) )?(?:consult|contact|ask|see|seek|talk to|speak (?:to|with)|call|visit) (?:a|an|your|with a|with your) (?:\w+ )?(?:doctor|physician|lawyer|attorney|professional|expert|specialist|pharmacist|veterinarian|vet|advisor|adviser|accountant|dentist|therapist|provider|consultant|counsel|engineer)".into(),
            r"^(?:please )?seek (?:immediate )?(?:medical|professional|legal|expert|financial) (?:advice|help|attention|care|guidance)\b".into(),
            r"\b(?:it is|it's) (?:always )?(?:recommended|advisable|a good idea|best|wise|advised|important|essential|crucial|prudent) to (?:consult|contact|seek|speak|talk|check with|ask)\b".into(),
            r"^(?:you (?:should|must|need to|may (?:want|need) to|might (?:want|need) to|will need to|'ll need to|have to)|make sure|be sure|remember to|don't forget to|do not forget to|we recommend|i recommend|i suggest|i would (?:recommend|suggest)|try to|consider)\b".into(),
            r"^(?:please )?(?:(?:do not|don't|never|always) )?(?:test|check|try|use|make|keep|avoid|ensure|consider|review|read|start|stop|set|add|run|install|update|verify|confirm|follow|practice|practise|listen|take|give|get|be|stay|let|write|plan|prepare|monitor|limit|choose|pick|save|back up|turn|open|close|click|select|enter|type|wait|watch|look|ask|talk|tell|think|focus|pay|learn|study|store|wash|apply|remove|replace|clean|drink|eat|rest|exercise|call|contact|report|document|schedule|book)\b[^.]*\b(?:you|your|yours|yourself|yourselves)\b".into(),
    ]
}

pub fn trailer() -> Vec<String> {
    vec![r"(?: ?(?:\d{1,3}[.)]?|-|–|—|•|\*+))+ ?$".into()]
}

pub fn asserting_question() -> Vec<String> {
    vec![r"\b(?:did|do) you know (?:that )?".into()]
}

pub fn contrast() -> Vec<String> {
    vec![
        r"(?:,|;|—|–| -) ?(?:but|however|yet|although|though|whereas|while|nevertheless|nonetheless|instead|still)\b|; ?\w|\b(?:but|however) ?,".into(),
    ]
}

pub fn conjunction() -> Vec<String> {
    vec![r"(?:,|;|—|–| -) ?(?:but|yet|whereas|while|although|though)\b".into()]
}

pub fn concessive() -> Vec<String> {
    vec![r"^(?:while|although|though|even though|whereas|despite|even if|if)\b[^,]*,".into()]
}

pub fn asserts_clause() -> Vec<String> {
    vec![
        r"\b(?:note|notice|recogni[sz]e|understand|remember|know|realize|realise|keep in mind|bear in mind) that\b".into(),
    ]
}

/// Cheap tests that a sentence can match a rule's patterns: each is true of every prepared,
/// lower-cased sentence that one of the rule's patterns matches (a pattern anchored at the
/// start needs its first literal words there; one anywhere needs a word it cannot match
/// without), so that a sentence failing it is neither searched nor, when no sentence passes,
/// the patterns built. Change a rule's patterns and its gate together: the tests check, on
/// every sentence of the test data, that a sentence the patterns match passes the gate.
pub mod gate {
    /// `lead`: markup, an enumerator or a label; without them it matches nothing (an empty
    /// match at the start).
    pub fn lead(sentence: &str) -> bool {
        let b = sentence.as_bytes();
        b.first().is_some_and(|&c| {
            c.is_ascii_whitespace()
                || c == 0x0b
                || c.is_ascii_digit()
                || matches!(c, b'>' | b'-' | b'*' | b'+' | b'#' | b'_' | 0xe2)
        }) || [
            "tip",
            "note",
            "hint",
            "warning",
            "caution",
            "important",
            "reminder",
            "remember",
            "disclaimer",
            "n.b.",
            "pro",
        ]
        .iter()
        .any(|w| {
            b.get(..w.len())
                .is_some_and(|h| h.eq_ignore_ascii_case(w.as_bytes()))
        })
    }

    fn starts(lower: &str, prefixes: &[&str]) -> bool {
        prefixes.iter().any(|p| lower.starts_with(p))
    }

    fn has(lower: &str, words: &[&str]) -> bool {
        words.iter().any(|w| lower.contains(w))
    }

    pub fn pleasantry(lower: &str) -> bool {
        starts(
            lower,
            &[
                "hello",
                "hi",
                "hey",
                "greetings",
                "good ",
                "dear ",
                "thank",
                "you",
                "please ",
                "i ",
                "i'",
                "we ",
                "we'",
                "best ",
                "cheers",
                "enjoy",
                "have ",
                "is there ",
                "anything else",
                "would ",
                "do ",
                "that",
                "this is",
                "what ",
                "great ",
                "interesting ",
                "excellent ",
                "sure",
                "certainly",
                "of course",
                "absolutely",
                "ok",
                "happy ",
                "glad ",
            ],
        ) || has(
            lower,
            &[
                "bing",
                "hope ",
                "let me know",
                "feel free to",
                "hesitate",
                "if you ",
            ],
        )
    }

    pub fn navigation(lower: &str) -> bool {
        starts(
            lower,
            &[
                "please ",
                "see",
                "refer to",
                "consult",
                "check",
                "visit",
                "read",
                "review",
                "look at",
                "go to",
                "head to",
                "click",
                "follow",
                "explore",
                "for ",
                "to ",
                "you ",
                "readers can",
                "more ",
                "further ",
                "additional ",
                "detailed ",
                "learn",
                "find out",
                "cf",
            ],
        )
    }

    pub fn meta(lower: &str) -> bool {
        starts(
            lower,
            &[
                // Frames, lead-ins and the assistant speaking of itself.
                "here",
                "below",
                "based on",
                "according to",
                "from",
                "using",
                "drawing on",
                "i ",
                "i'",
                "we ",
                "we'",
                "this",
                "that",
                "to ",
                "in ",
                "overall",
                "let",
                "allow me",
                "by ",
                "as a",
                // What `SOURCES` may start with.
                "the",
                "these",
                "those",
                "my ",
                "your ",
                "our ",
                "its ",
                "provided",
                "given",
                "available",
                "retrieved",
                "supplied",
                "attached",
                "above",
                "following",
                "cited",
                "referenced",
                "search",
                "relevant",
                "uploaded",
                "specific",
                "two",
                "three",
                "several",
                "context",
                "passage",
                "document",
                "docs",
                "source",
                "text",
                "excerpt",
                "information",
                "article",
                "snippet",
                "knowledge base",
                "material",
                "content",
                "references",
                "file",
                "web page",
                "page",
                "extract",
            ],
        ) || has(lower, &["there are", "help me", "help us", "need "])
    }

    pub fn instruction(lower: &str) -> bool {
        starts(
            lower,
            &[
                "please ",
                "do not ",
                "don't ",
                "never ",
                "always ",
                "consult",
                "contact",
                "ask",
                "see",
                "seek",
                "talk to",
                "speak",
                "call",
                "visit",
                "make sure",
                "be sure",
                "remember to",
                "we recommend",
                "i recommend",
                "i suggest",
                "i would",
                "try to",
                "consider",
            ],
        ) || has(lower, &["you", "it is ", "it's "])
    }

    /// `trailer`: what ends a unit is a digit, a dash, a bullet or a star, or a full stop or
    /// bracket right after a digit; a space may follow.
    pub fn trailer(lower: &str) -> bool {
        let b = lower.as_bytes();
        let b = b.strip_suffix(b" ").unwrap_or(b);
        match b {
            [.., d, b'.' | b')'] => d.is_ascii_digit(),
            // `–`, `—` and `•` end in these bytes.
            [.., last] => last.is_ascii_digit() || matches!(last, b'-' | b'*' | 0x93 | 0x94 | 0xa2),
            [] => false,
        }
    }

    pub fn asserting_question(lower: &str) -> bool {
        lower.contains("you know")
    }

    pub fn concessive(lower: &str) -> bool {
        starts(
            lower,
            &[
                "while", "although", "though", "even ", "whereas", "despite", "if",
            ],
        ) && lower.contains(',')
    }

    pub fn asserts_clause(lower: &str) -> bool {
        lower.contains(" that")
    }
}
