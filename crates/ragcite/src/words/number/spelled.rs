//! Figures a sentence writes in words: a cardinal number in words (`one`, `twenty-five`, `two
//! hundred`, `a dozen`) right before a unit or a counted noun (`one hour`, `three weeks`, `five
//! times`, `two million people`). Only before such a word: `one of the reasons`, `the first
//! two`, `no one` say nothing checkable. Chunks read numbers in words everywhere (see
//! [`super::SpelledNumbers`]), so `six studio albums` holds the sentence's `6` and `one hour`
//! is missing from a chunk that says `30 minutes`.

use std::ops::Range;

use super::{MULTIPLIER_WORDS, NUMBER_WORDS, Number, NumberValue, Role};

/// Cardinal words and their values: the number words up to `ninety` (ordinals are
/// positions, not quantities), and `dozen`.
const CARDINALS: &[(&str, u64)] = NUMBER_WORDS.split_at(28).0;
const DOZEN: (&str, u64) = ("dozen", 12);

/// Multipliers: `hundred` multiplies its group, the others close it.
const MULTIPLIERS: &[(&str, u64)] = MULTIPLIER_WORDS;

/// Units and counted nouns after which a number in words is a figure, with the factor to the
/// next smaller unit a chunk may use instead (`one hour` is also `60` minutes).
const UNITS: &[(&str, u64)] = &[
    ("second", 0),
    ("minute", 60),
    ("hour", 60),
    ("day", 24),
    ("week", 7),
    ("month", 0),
    ("year", 12),
    ("decade", 10),
    ("century", 100),
    ("centurie", 100),
    ("time", 0),
    ("percent", 0),
    ("people", 0),
    ("person", 0),
    ("patient", 0),
    ("participant", 0),
    ("member", 0),
    ("employee", 0),
    ("child", 0),
    ("children", 0),
    ("country", 0),
    ("countrie", 0),
    ("state", 0),
    ("city", 0),
    ("citie", 0),
    ("language", 0),
    ("mile", 0),
    ("kilometre", 0),
    ("kilometer", 0),
    ("metre", 0),
    ("meter", 0),
    ("foot", 0),
    ("feet", 0),
    ("dollar", 0),
    ("euro", 0),
    ("pound", 0),
    ("cent", 0),
    ("copie", 0),
    ("copy", 0),
    ("studie", 0),
    ("study", 0),
    ("trial", 0),
    ("step", 0),
];

/// Units of time: `one` counts before them only (`one person` is seldom a count), and a
/// chunk's `a year`, `an hour` holds 1.
const TIME_UNITS: &[&str] = &[
    "second", "minute", "hour", "day", "week", "month", "year", "decade", "century",
];

/// Whether `word` is a unit of time, singular (`year`, not `years`).
pub fn is_time_unit(word: &str) -> bool {
    TIME_UNITS.iter().any(|u| u.eq_ignore_ascii_case(word))
}

/// The unit `word` is (plural or singular), with its factor.
fn unit(word: &str) -> Option<u64> {
    let lower = word.to_ascii_lowercase();
    let singular = lower.strip_suffix('s').unwrap_or(&lower);
    UNITS
        .iter()
        .find(|(u, _)| *u == singular || *u == lower)
        .map(|&(_, factor)| factor)
}

fn value_of(table: &[(&str, u64)], word: &str) -> Option<u64> {
    table
        .iter()
        .find(|(w, _)| w.eq_ignore_ascii_case(word))
        .map(|&(_, v)| v)
}

/// The ASCII words of `text` with their byte spans (a hyphen joins `twenty-five` into two).
fn words(text: &str) -> Vec<(Range<usize>, &str)> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut k = 0;
    while k < bytes.len() {
        if bytes[k].is_ascii_alphabetic() {
            let start = k;
            while k < bytes.len() && bytes[k].is_ascii_alphabetic() {
                k += 1;
            }
            // A word glued to digits or other letters is no number word (`one2one`).
            let glued = bytes
                .get(k)
                .is_some_and(|b| b.is_ascii_digit() || *b >= 0x80);
            if !glued {
                out.push((start..k, &text[start..k]));
            }
        } else {
            k += 1;
        }
    }
    out
}

/// Whether some word of `text` is a cardinal (`a dozen`, `a hundred` need `dozen` or
/// `hundred` too): one pass over the bytes, each word lower-cased in a buffer.
fn may_hold_a_number_word(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut k = 0;
    while k < bytes.len() {
        if !bytes[k].is_ascii_alphabetic() {
            k += 1;
            continue;
        }
        let start = k;
        while k < bytes.len() && bytes[k].is_ascii_alphabetic() {
            k += 1;
        }
        let word = &bytes[start..k];
        if (3..=9).contains(&word.len()) {
            let mut buffer = [0u8; 9];
            buffer[..word.len()].copy_from_slice(word);
            buffer[..word.len()].make_ascii_lowercase();
            let lower = &buffer[..word.len()];
            if CARDINALS
                .iter()
                .chain([&DOZEN])
                .any(|(w, _)| w.as_bytes() == lower)
                || MULTIPLIERS.iter().any(|(w, _)| w.as_bytes() == lower)
            {
                return true;
            }
        }
    }
    false
}

/// The figures `text` writes in words before a unit or counted noun.
pub fn spelled_figures(text: &str) -> Vec<Number> {
    // Most sentences hold no number word: a cheap test first, on the words' first two
    // letters.
    if !may_hold_a_number_word(text) {
        return Vec::new();
    }
    let words = words(text);
    let mut found = Vec::new();
    let mut k = 0;
    while k < words.len() {
        let start = k;
        let (mut total, mut group) = (0u64, None::<u64>);
        // `a dozen`, `a hundred`.
        // The words of one number stand next to each other: `A 193 million dollar` is no
        // `a million`.
        let next_to = |k: usize| {
            text[words[k - 1].0.end..words[k].0.start]
                .bytes()
                .all(|b| matches!(b, b' ' | b'-'))
        };
        if words[k].1.eq_ignore_ascii_case("a")
            && words.get(k + 1).is_some_and(|(_, w)| {
                w.eq_ignore_ascii_case("dozen") || value_of(MULTIPLIERS, w).is_some()
            })
            && next_to(k + 1)
        {
            group = Some(1);
            k += 1;
        }
        let mut read = false;
        while let Some((_, word)) = words.get(k) {
            if k > start && !next_to(k) {
                break;
            }
            if let Some(value) = value_of(CARDINALS, word).or(value_of(&[DOZEN], word)) {
                let joins = matches!(group, Some(g) if g % 100 >= 20 && g % 10 == 0 && value < 10);
                if read && !joins && group.is_some_and(|g| g % 100 != 0) {
                    break;
                }
                group = Some(if value == 12 && word.eq_ignore_ascii_case("dozen") {
                    group.unwrap_or(1).saturating_mul(12)
                } else {
                    group.unwrap_or(0) + value
                });
            } else if let Some(multiplier) = value_of(MULTIPLIERS, word) {
                let Some(base) = group.or(read.then_some(1)) else {
                    break;
                };
                if multiplier == 100 {
                    group = Some(base.saturating_mul(100));
                } else {
                    total = total.saturating_add(base.saturating_mul(multiplier));
                    group = None;
                }
            } else if read && word.eq_ignore_ascii_case("and") && group.is_some_and(|g| g >= 100) {
                // `one hundred and five`
            } else {
                break;
            }
            read = true;
            k += 1;
        }
        if !read {
            k = start + 1;
            continue;
        }
        let mut value = total.saturating_add(group.unwrap_or(0));
        let last = k - 1;
        // `half a million`: half the number.
        let mut start = start;
        if start > 0
            && words[start].1.eq_ignore_ascii_case("a")
            && words[start - 1].1.eq_ignore_ascii_case("half")
            && next_to(start)
            && value % 2 == 0
        {
            value /= 2;
            start -= 1;
        }
        let next = words.get(k).map(|(_, w)| *w);
        // `one person`, `one study` are seldom counts; `one hour`, `one year` are.
        let counted = value > 1 || next.is_some_and(|w| is_time_unit(w.trim_end_matches('s')));
        match next.and_then(unit) {
            Some(factor) if value > 0 && counted => {
                let span = words[start].0.start..words[last].0.end;
                let mut number = Number {
                    text: text[span.clone()].to_string(),
                    span,
                    value: NumberValue::from_parts(&value.to_string(), "", 0),
                    also: Vec::new(),
                    role: Role::Figure,
                    precision: 0,
                };
                if factor > 0 {
                    let smaller = value.saturating_mul(factor);
                    number
                        .also
                        .push(NumberValue::from_parts(&smaller.to_string(), "", 0));
                }
                found.push(number);
            }
            _ => {}
        }
        k = k.max(start + 1);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<(String, String)> {
        spelled_figures(text)
            .into_iter()
            .map(|n| (n.text, n.value.to_string()))
            .collect()
    }

    #[test]
    fn number_words_stand_next_to_each_other() {
        // `A 193 million dollar`: the article and the scale word are not one number.
        assert_eq!(read("A 193 million dollar contract"), []);
        assert_eq!(
            read("over half a million dollars in bills"),
            [("half a million".into(), "5e5".into())]
        );
        assert_eq!(
            read("a million dollars in bills"),
            [("a million".into(), "1e6".into())]
        );
    }

    #[test]
    fn numbers_in_words_before_a_unit_are_figures() {
        assert_eq!(
            read("The link expires after one hour."),
            [("one".into(), "1e0".into())]
        );
        assert_eq!(
            read("It took twenty-five years"),
            [("twenty-five".into(), "25e0".into())]
        );
        assert_eq!(
            read("two hundred and five people"),
            [("two hundred and five".into(), "205e0".into())]
        );
        assert_eq!(
            read("a dozen countries joined"),
            [("a dozen".into(), "12e0".into())]
        );
        assert_eq!(
            read("two million people"),
            [("two million".into(), "2e6".into())]
        );
        assert_eq!(read("three times a day"), [("three".into(), "3e0".into())]);
        let hour = spelled_figures("one hour").remove(0);
        assert_eq!(hour.also, [NumberValue::from_parts("60", "", 0)]);
    }

    #[test]
    fn the_cardinals_end_at_ninety() {
        assert_eq!(CARDINALS.last(), Some(&("ninety", 90)));
    }

    #[test]
    fn other_numbers_in_words_are_not() {
        assert!(read("one of the reasons").is_empty());
        assert!(read("the first two").is_empty());
        assert!(read("no one knows").is_empty());
        assert!(read("someone, anyone").is_empty());
        assert!(read("the second day").is_empty());
        assert!(read("what one person considers vulgar").is_empty());
        assert_eq!(read("within one year"), [("one".into(), "1e0".into())]);
        assert!(read("").is_empty());
    }
}
