//! A fast Porter2 (Snowball "english") stemmer for ASCII words, byte for byte the same as
//! `rust_stemmers::Stemmer::create(Algorithm::English)` of rust-stemmers 1.2.0: the Porter2
//! algorithm as that release's code was generated from Snowball's `english.sbl`, before the
//! changes Snowball made to its English stemmer since (in 3.0, for example). rust-stemmers is
//! the oracle: the tests compare the two on a word list and on generated words, and
//! `Cargo.toml` pins it exactly (`=1.2.0`) so that an update cannot move the reference under
//! the tests. Words that are not ASCII, and every other language, go to rust-stemmers.
//!
//! It is faster because it does less, not because it cuts corners: the generated Snowball
//! code is a generic machine (each step searches a table of `Among` suffix records, with
//! routine hooks, through a cursor over the word), while this one knows English's steps and
//! tests their suffixes directly on the bytes of one buffer that becomes the stem, one
//! allocation per word. It runs about a quarter of rust-stemmers' instructions per word (see
//! the performance history in the evaluation docs).
//!
//! The algorithm, as rust-stemmers runs it:
//!
//! 1. Exceptional forms (`skis` → `ski`, `news` → `news`, …) are looked up whole; words of
//!    fewer than three letters are left alone.
//! 2. Prelude: a leading apostrophe is dropped; an initial `y` and a `y` after a vowel become
//!    the consonant `Y`.
//! 3. Regions: R1 starts after the first non-vowel that follows a vowel (after `gener`,
//!    `commun` or `arsen` when the word starts so), R2 likewise within R1.
//! 4. Steps, each replacing the longest matching suffix, most only in R1 or R2: 1a (`'s`,
//!    plurals), the invariant forms (`inning`, `proceed`, …) that stop here, 1b (`ed`, `ing`,
//!    `eed`, …), 1c (`y` → `i`), 2 (`ational` → `ate`, …), 3 (`icate` → `ic`, …), 4
//!    (`ement`, `ance`, …) and 5 (final `e`, `ll`).
//! 5. Postlude: `Y` back to `y`.
//!
//! Quirks kept from rust-stemmers: region positions are not moved when the word shrinks;
//! upper-case letters, digits and punctuation are consonants; a `Y` already in the word is
//! lowered by the postlude only when the prelude made a `Y` too.

/// The stem of `word`, exactly as rust-stemmers' English stemmer gives it, or `None` if `word`
/// is not all ASCII (the caller then asks rust-stemmers). Allocates the stem only.
pub(crate) fn stem_ascii(word: &str) -> Option<String> {
    if !word.is_ascii() {
        return None;
    }
    if let Some(stem) = exceptional_form(word.as_bytes()) {
        return Some(stem.to_owned());
    }
    if word.len() < 3 {
        return Some(word.to_owned());
    }
    let mut stem = Stem::new(word);
    stem.mark_regions();
    stem.step_1a();
    if !is_invariant(stem.bytes()) {
        stem.step_1b();
        stem.step_1c();
        stem.step_2();
        stem.step_3();
        stem.step_4();
        stem.step_5();
    }
    Some(stem.postlude())
}

/// The stem of an exceptional form, looked up before anything else.
fn exceptional_form(word: &[u8]) -> Option<&'static str> {
    Some(match word {
        b"skis" => "ski",
        b"skies" | b"sky" => "sky",
        b"dying" => "die",
        b"lying" => "lie",
        b"tying" => "tie",
        b"idly" => "idl",
        b"gently" => "gentl",
        b"ugly" => "ugli",
        b"early" => "earli",
        b"only" => "onli",
        b"singly" => "singl",
        b"news" => "news",
        b"howe" => "howe",
        b"atlas" => "atlas",
        b"cosmos" => "cosmos",
        b"bias" => "bias",
        b"andes" => "andes",
        _ => return None,
    })
}

/// Whether a word is left as it is after step 1a.
fn is_invariant(word: &[u8]) -> bool {
    matches!(
        word,
        b"inning"
            | b"outing"
            | b"canning"
            | b"herring"
            | b"earring"
            | b"proceed"
            | b"exceed"
            | b"succeed"
    )
}

/// The length of the prefix after which R1 starts whatever the vowels, if the word has one.
fn r1_prefix(word: &[u8]) -> Option<usize> {
    match word {
        [b'g', b'e', b'n', b'e', b'r', ..] | [b'a', b'r', b's', b'e', b'n', ..] => Some(5),
        [b'c', b'o', b'm', b'm', b'u', b'n', ..] => Some(6),
        _ => None,
    }
}

/// A vowel of Porter2: `aeiouy` (lower case only; `Y` is a consonant).
fn is_vowel(b: u8) -> bool {
    matches!(b, b'a' | b'e' | b'i' | b'o' | b'u' | b'y')
}

/// A letter that may end a short syllable: not a vowel, nor `w`, `x` or `Y`.
fn ends_short_syllable(b: u8) -> bool {
    !is_vowel(b) && !matches!(b, b'w' | b'x' | b'Y')
}

/// A letter before which step 2 deletes `li`.
fn is_valid_li(b: u8) -> bool {
    matches!(
        b,
        b'c' | b'd' | b'e' | b'g' | b'h' | b'k' | b'm' | b'n' | b'r' | b't'
    )
}

/// Whether `word` ends in a short syllable: a non-vowel (not `w`, `x` or `Y`), a vowel and a
/// non-vowel, or the whole word is a vowel and a non-vowel.
fn short_syllable(word: &[u8]) -> bool {
    match *word {
        [.., before, vowel, last] if ends_short_syllable(last) && is_vowel(vowel) => {
            !is_vowel(before)
        }
        [vowel, last] => is_vowel(vowel) && !is_vowel(last),
        _ => false,
    }
}

/// Whether `word` ends with `suffix`, compared from the end (inlined, no `memcmp` call).
fn ends_with(word: &[u8], suffix: &str) -> bool {
    word.len() >= suffix.len()
        && word
            .iter()
            .rev()
            .zip(suffix.as_bytes().iter().rev())
            .all(|(a, b)| a == b)
}

/// What a step does with the suffix it found, once the suffix is in the step's region.
#[derive(Clone, Copy)]
enum Then {
    /// Replace the suffix with these letters.
    Replace(&'static str),
    /// Delete the suffix if it is in R2 too (step 3's `ative`).
    DeleteInR2,
    /// Replace `ogi` with `og` after an `l`.
    OgAfterL,
    /// Delete `li` after one of `cdeghkmnrt`.
    DeleteLiAfterValid,
    /// Delete `ion` after `s` or `t`.
    DeleteIonAfterSOrT,
}

use Then::{DeleteInR2, DeleteIonAfterSOrT, DeleteLiAfterValid, OgAfterL, Replace};

/// A step's suffixes ending in one letter, longest first, so that the first one a word ends
/// with is the longest.
type Rules = &'static [(&'static str, Then)];

/// Step 2's suffixes ending in `last`.
fn step_2_rules(last: u8) -> Rules {
    match last {
        b'i' => &[
            ("lessli", Replace("less")),
            ("biliti", Replace("ble")),
            ("fulli", Replace("ful")),
            ("ousli", Replace("ous")),
            ("entli", Replace("ent")),
            ("aliti", Replace("al")),
            ("iviti", Replace("ive")),
            ("anci", Replace("ance")),
            ("enci", Replace("ence")),
            ("abli", Replace("able")),
            ("alli", Replace("al")),
            ("bli", Replace("ble")),
            ("ogi", OgAfterL),
            ("li", DeleteLiAfterValid),
        ],
        b'l' => &[("ational", Replace("ate")), ("tional", Replace("tion"))],
        b'm' => &[("alism", Replace("al"))],
        b'n' => &[("ization", Replace("ize")), ("ation", Replace("ate"))],
        b'r' => &[("izer", Replace("ize")), ("ator", Replace("ate"))],
        b's' => &[
            ("iveness", Replace("ive")),
            ("fulness", Replace("ful")),
            ("ousness", Replace("ous")),
        ],
        _ => &[],
    }
}

/// Step 3's suffixes ending in `last`.
fn step_3_rules(last: u8) -> Rules {
    match last {
        b'e' => &[
            ("icate", Replace("ic")),
            ("ative", DeleteInR2),
            ("alize", Replace("al")),
        ],
        b'i' => &[("iciti", Replace("ic"))],
        b'l' => &[
            ("ational", Replace("ate")),
            ("tional", Replace("tion")),
            ("ical", Replace("ic")),
            ("ful", Replace("")),
        ],
        b's' => &[("ness", Replace(""))],
        _ => &[],
    }
}

/// Step 4's suffixes ending in `last`.
fn step_4_rules(last: u8) -> Rules {
    match last {
        b'c' => &[("ic", Replace(""))],
        b'e' => &[
            ("ance", Replace("")),
            ("ence", Replace("")),
            ("able", Replace("")),
            ("ible", Replace("")),
            ("ate", Replace("")),
            ("ive", Replace("")),
            ("ize", Replace("")),
        ],
        b'i' => &[("iti", Replace(""))],
        b'l' => &[("al", Replace(""))],
        b'm' => &[("ism", Replace(""))],
        b'n' => &[("ion", DeleteIonAfterSOrT)],
        b'r' => &[("er", Replace(""))],
        b's' => &[("ous", Replace(""))],
        b't' => &[
            ("ement", Replace("")),
            ("ment", Replace("")),
            ("ant", Replace("")),
            ("ent", Replace("")),
        ],
        _ => &[],
    }
}

/// A word being stemmed: the stem so far (ASCII only, so any byte position is a character
/// boundary) and its regions.
struct Stem {
    s: String,
    /// Start of R1 (a byte position; not moved when the word shrinks).
    p1: usize,
    /// Start of R2.
    p2: usize,
    /// Whether the prelude made a `Y`; only then does the postlude lower every `Y`.
    y_found: bool,
}

impl Stem {
    /// The prelude: drops a leading apostrophe and marks the consonant `y`s as `Y`.
    fn new(word: &str) -> Stem {
        let word = word.strip_prefix('\'').unwrap_or(word);
        let mut stem = Stem {
            s: String::with_capacity(word.len()),
            p1: 0,
            p2: 0,
            y_found: false,
        };
        let mut from = 0;
        let mut prev_vowel = false;
        for (i, c) in word.bytes().enumerate() {
            let consonant_y = c == b'y' && (i == 0 || prev_vowel);
            if consonant_y {
                stem.s.push_str(word.get(from..i).unwrap_or_default());
                stem.s.push('Y');
                stem.y_found = true;
                from = i + 1;
            }
            prev_vowel = !consonant_y && is_vowel(c);
        }
        stem.s.push_str(word.get(from..).unwrap_or_default());
        stem
    }

    fn bytes(&self) -> &[u8] {
        self.s.as_bytes()
    }

    /// Sets R1 and R2: each starts after the first non-vowel following a vowel, from the start
    /// of the word (or after a special prefix) for R1 and from R1 for R2; at the end if none.
    fn mark_regions(&mut self) {
        let len = self.s.len();
        let p1 = r1_prefix(self.bytes()).or_else(|| self.region_after(0));
        self.p1 = p1.unwrap_or(len);
        self.p2 = p1.and_then(|p1| self.region_after(p1)).unwrap_or(len);
    }

    /// The position after the first non-vowel that follows a vowel at or after `from`.
    fn region_after(&self, from: usize) -> Option<usize> {
        let rest = self.bytes().get(from..)?;
        let vowel = rest.iter().position(|&c| is_vowel(c))?;
        let consonant = rest.get(vowel..)?.iter().position(|&c| !is_vowel(c))?;
        Some(from + vowel + consonant + 1)
    }

    fn ends_with(&self, suffix: &str) -> bool {
        ends_with(self.bytes(), suffix)
    }

    /// The position where a suffix of `len` bytes starts.
    fn start(&self, len: usize) -> usize {
        self.s.len().saturating_sub(len)
    }

    /// Replaces the last `len` bytes with `with`.
    fn replace(&mut self, len: usize, with: &str) {
        self.s.truncate(self.start(len));
        self.s.push_str(with);
    }

    /// The byte before position `at`, if any.
    fn before(&self, at: usize) -> Option<u8> {
        at.checked_sub(1).and_then(|i| self.bytes().get(i).copied())
    }

    /// Whether any of the first `end` bytes is a vowel.
    fn has_vowel_before(&self, end: usize) -> bool {
        self.bytes()
            .get(..end)
            .is_some_and(|b| b.iter().any(|&c| is_vowel(c)))
    }

    /// Step 1a: drops `'s'`, `'s` or `'`, then `sses` → `ss`, `ied`/`ies` → `i` (`ie` after a
    /// single letter), `s` deleted if a vowel comes before the letter before it (`ss` and `us`
    /// kept).
    fn step_1a(&mut self) {
        if let Some(apostrophe) = ["'s'", "'s", "'"].into_iter().find(|a| self.ends_with(a)) {
            self.replace(apostrophe.len(), "");
        }
        if self.ends_with("sses") {
            self.replace(2, "");
        } else if self.ends_with("ied") || self.ends_with("ies") {
            let keep_e = self.start(3) < 2;
            self.replace(if keep_e { 1 } else { 2 }, "");
        } else if self.ends_with("s")
            && !self.ends_with("ss")
            && !self.ends_with("us")
            && self.has_vowel_before(self.start(2))
        {
            self.replace(1, "");
        }
    }

    /// Step 1b: `eed`, `eedly` → `ee` in R1; `ed`, `edly`, `ing`, `ingly` deleted if a vowel
    /// comes before them, then `at`, `bl`, `iz` and short words get an `e` and a final double
    /// (`bb`, `dd`, `ff`, `gg`, `mm`, `nn`, `pp`, `rr`, `tt`) loses a letter.
    fn step_1b(&mut self) {
        // Each suffix, longest first, and whether it is an `eed` form.
        let rules: &[(&str, bool)] = match self.bytes().last() {
            Some(b'd') => &[("eed", true), ("ed", false)],
            Some(b'g') => &[("ing", false)],
            Some(b'y') => &[("eedly", true), ("ingly", false), ("edly", false)],
            _ => return,
        };
        let Some(&(suffix, eed)) = rules.iter().find(|(s, _)| self.ends_with(s)) else {
            return;
        };
        let start = self.start(suffix.len());
        if eed {
            if self.p1 <= start {
                self.replace(suffix.len(), "ee");
            }
        } else if self.has_vowel_before(start) {
            self.s.truncate(start);
            self.after_1b_deletion();
        }
    }

    /// The end of step 1b, after `ed` or `ing` has gone.
    fn after_1b_deletion(&mut self) {
        let b = self.bytes();
        if ends_with(b, "at") || ends_with(b, "bl") || ends_with(b, "iz") {
            self.s.push('e');
        } else if let [.., x, y] = *b
            && x == y
            && matches!(
                x,
                b'b' | b'd' | b'f' | b'g' | b'm' | b'n' | b'p' | b'r' | b't'
            )
        {
            self.s.pop();
        } else if self.p1 == b.len() && short_syllable(b) {
            self.s.push('e');
        }
    }

    /// Step 1c: a final `y` or `Y` after a non-vowel that is not the first letter becomes `i`.
    fn step_1c(&mut self) {
        if let [_, .., before, b'y' | b'Y'] = *self.bytes()
            && !is_vowel(before)
        {
            self.replace(1, "i");
        }
    }

    /// Step 2: `ational` → `ate`, `fulness` → `ful`, `li` deleted after `cdeghkmnrt`, … in R1.
    fn step_2(&mut self) {
        self.apply(step_2_rules, self.p1);
    }

    /// Step 3: `icate` → `ic`, `ness` deleted, … in R1; `ative` deleted in R2.
    fn step_3(&mut self) {
        self.apply(step_3_rules, self.p1);
    }

    /// Step 4: `ement`, `ance`, `ion` after `s` or `t`, … deleted in R2.
    fn step_4(&mut self) {
        self.apply(step_4_rules, self.p2);
    }

    /// Replaces the longest of the suffixes `rules` gives for the last letter if it starts at or
    /// after `region` and the rule's own condition holds.
    fn apply(&mut self, rules: fn(u8) -> Rules, region: usize) {
        let Some(&last) = self.bytes().last() else {
            return;
        };
        let Some(&(suffix, then)) = rules(last).iter().find(|(s, _)| self.ends_with(s)) else {
            return;
        };
        let start = self.start(suffix.len());
        if start < region {
            return;
        }
        let before = self.before(start);
        match then {
            Replace(with) => self.replace(suffix.len(), with),
            DeleteInR2 if self.p2 <= start => self.replace(suffix.len(), ""),
            OgAfterL if before == Some(b'l') => self.replace(1, ""),
            DeleteLiAfterValid if before.is_some_and(is_valid_li) => self.replace(2, ""),
            DeleteIonAfterSOrT if matches!(before, Some(b's' | b't')) => self.replace(3, ""),
            _ => {}
        }
    }

    /// Step 5: a final `e` is deleted in R2, or in R1 unless a short syllable comes before it;
    /// a final `l` after an `l` is deleted in R2.
    fn step_5(&mut self) {
        let Some((&last, rest)) = self.bytes().split_last() else {
            return;
        };
        let at = rest.len();
        let delete = match last {
            b'e' => self.p2 <= at || (self.p1 <= at && !short_syllable(rest)),
            b'l' => self.p2 <= at && rest.last() == Some(&b'l'),
            _ => false,
        };
        if delete {
            self.s.truncate(at);
        }
    }

    /// The postlude: every `Y` back to `y` if the prelude made any; the stem.
    fn postlude(mut self) -> String {
        if self.y_found {
            while let Some(at) = self.s.find('Y') {
                self.s.replace_range(at..=at, "y");
            }
        }
        self.s
    }
}

#[cfg(test)]
mod tests {
    use super::stem_ascii;
    use proptest::prelude::*;
    use rust_stemmers::{Algorithm, Stemmer};

    /// Suffixes of every step of Porter2, and then some.
    const ENDINGS: &[&str] = &[
        "", "s", "es", "ies", "ied", "sses", "us", "ss", "ed", "edly", "ing", "ingly", "eed",
        "eedly", "y", "ly", "li", "at", "bl", "iz", "tional", "ational", "enci", "anci", "abli",
        "entli", "izer", "ization", "ation", "ator", "alism", "aliti", "alli", "fulness", "ousli",
        "ousness", "iveness", "iviti", "biliti", "bli", "ogi", "logi", "fulli", "lessli", "alize",
        "icate", "iciti", "ical", "ful", "ness", "ative", "al", "ance", "ence", "er", "ic", "able",
        "ible", "ant", "ement", "ment", "ent", "ism", "ate", "iti", "ous", "ive", "ize", "ion",
        "sion", "tion", "e", "l", "ll", "le", "ating", "ated", "ates", "bling", "bled", "izing",
        "ized", "izes", "bbed", "dding", "ffed", "gging", "mmed", "nning", "pped", "rring", "tted",
        "lling", "ssed", "zzing", "ying", "yed", "yes", "ys", "yly", "ey", "ay", "oy", "ely",
        "ily", "ally", "ically", "ations", "ements", "iness", "ities", "ences", "ances", "ively",
        "ously", "fully", "lessly", "ently", "bility", "ability", "ologies", "'s", "s'", "'",
        "'s'", "ies'", "1", "2s", "ed9", "Y", "Ying", "E", "ING", "iving", "ived", "ivate",
        "ativing", "icating", "alizing", "aling", "ancing", "encing", "iting", "ering", "ousing",
        "anting", "enting", "ementing", "ioning", "ising", "izing", "ibling",
    ];

    /// Word starts that exercise the regions and the exceptional forms.
    const STARTS: &[&str] = &[
        "", "y", "a", "e", "i", "o", "u", "b", "sky", "ski", "dy", "ly", "ty", "id", "gent", "ug",
        "ear", "on", "sing", "new", "how", "atla", "cosmo", "bia", "ande", "inn", "out", "cann",
        "herr", "earr", "proc", "exc", "succ", "gener", "commun", "arsen", "genera", "communi",
        "arsena", "relat", "abolit", "develop", "recid", "conduc", "hop", "hope", "tap", "fil",
        "luxur", "bow", "box", "say", "play", "yyy", "ayy", "'y", "'a", "''", "o'clock", "don't",
        "tower", "cry", "by", "ow", "ski'",
    ];

    fn reference(word: &str) -> String {
        Stemmer::create(Algorithm::English).stem(word).into_owned()
    }

    fn assert_same(word: &str) {
        assert_eq!(
            stem_ascii(word).as_deref(),
            Some(reference(word).as_str()),
            "stem of {word:?}"
        );
    }

    /// A deterministic xorshift generator.
    struct XorShift(u64);

    impl XorShift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn pick(&mut self, items: &[u8]) -> u8 {
            let i = usize::try_from(self.next() % items.len() as u64).unwrap_or(0);
            items[i]
        }
    }

    /// A random start of 1–5 letters, alternating consonants and vowels more often than not.
    fn random_start(rng: &mut XorShift) -> String {
        const VOWELS: &[u8] = b"aeiouy";
        const CONSONANTS: &[u8] = b"bcdfghjklmnpqrstvwxyz";
        let len = 1 + rng.next() % 5;
        let mut vowel = rng.next().is_multiple_of(2);
        (0..len)
            .map(|_| {
                let c = rng.pick(if vowel { VOWELS } else { CONSONANTS });
                if !rng.next().is_multiple_of(4) {
                    vowel = !vowel;
                }
                char::from(c)
            })
            .collect()
    }

    fn words() -> Vec<String> {
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        let mut starts: Vec<String> = STARTS.iter().map(|s| s.to_string()).collect();
        starts.extend((0..300).map(|_| random_start(&mut rng)));
        // Longer words, whose R2 starts before the ending.
        starts.extend((0..200).map(|_| random_start(&mut rng) + &random_start(&mut rng)));
        let mut words = Vec::new();
        for start in &starts {
            for ending in ENDINGS {
                let word = format!("{start}{ending}");
                words.push(format!("'{word}"));
                words.push(format!("{word}'s"));
                words.push(word);
            }
        }
        words
    }

    #[test]
    fn same_as_rust_stemmers_on_generated_words() {
        let words = words();
        assert!(words.len() > 50_000, "{} words", words.len());
        for word in &words {
            assert_same(word);
        }
    }

    #[test]
    fn exceptional_forms() {
        let cases = [
            ("skis", "ski"),
            ("skies", "sky"),
            ("dying", "die"),
            ("lying", "lie"),
            ("tying", "tie"),
            ("idly", "idl"),
            ("gently", "gentl"),
            ("ugly", "ugli"),
            ("early", "earli"),
            ("only", "onli"),
            ("singly", "singl"),
            ("sky", "sky"),
            ("news", "news"),
            ("howe", "howe"),
            ("atlas", "atlas"),
            ("cosmos", "cosmos"),
            ("bias", "bias"),
            ("andes", "andes"),
            ("inning", "inning"),
            ("innings", "inning"),
            ("outing", "outing"),
            ("outings", "outing"),
            ("canning", "canning"),
            ("cannings", "canning"),
            ("herring", "herring"),
            ("herrings", "herring"),
            ("earring", "earring"),
            ("earrings", "earring"),
            ("proceed", "proceed"),
            ("exceed", "exceed"),
            ("succeed", "succeed"),
            ("generate", "generat"),
            ("communism", "communism"),
            ("arsenal", "arsenal"),
            ("yesterday", "yesterday"),
            ("saying", "say"),
            ("'tower's", "tower"),
        ];
        for (word, stem) in cases {
            assert_eq!(stem_ascii(word).as_deref(), Some(stem), "stem of {word:?}");
            assert_same(word);
        }
    }

    #[test]
    fn short_and_odd_words() {
        for word in [
            "", "a", "y", "'", "''", "'''", "'s", "''s", "'s'", "ab", "by", "aY", "Yay", "ys",
            "123", "a1b2", "ed", "ied", "ies", "'ies", "sses", "ing", "eed", "ly", "ies'", "YYY",
        ] {
            assert_same(word);
        }
    }

    #[test]
    fn not_ascii_is_left_to_rust_stemmers() {
        assert_eq!(stem_ascii("café"), None);
        assert_eq!(stem_ascii("naïvely"), None);
    }

    /// ASCII bytes, mostly lower-case letters and apostrophes.
    fn ascii_byte() -> impl Strategy<Value = u8> {
        prop_oneof![
            10 => b'a'..=b'z',
            3 => prop::sample::select(b"aeiouy'".to_vec()),
            1 => 0u8..128,
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(5000))]

        #[test]
        fn same_as_rust_stemmers_on_ascii(bytes in prop::collection::vec(ascii_byte(), 0..20)) {
            let word: String = bytes.into_iter().map(char::from).collect();
            prop_assert_eq!(stem_ascii(&word), Some(reference(&word)), "stem of {:?}", word);
        }

        #[test]
        fn same_as_rust_stemmers_on_suffixed_words(
            start in prop::collection::vec(ascii_byte(), 0..8),
            ending in prop::sample::select(ENDINGS),
        ) {
            let start: String = start.into_iter().map(char::from).collect();
            let word = format!("{start}{ending}");
            prop_assert_eq!(stem_ascii(&word), Some(reference(&word)), "stem of {:?}", word);
        }
    }
}
