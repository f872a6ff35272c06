//! Superscript markers: Unicode superscript digits (`tall.¹`, `¹²`, `¹,²`, `¹˒²`, `¹⁻³`) and the
//! rule that tells a footnote number from an exponent (`m²`, `10⁶`, `E = mc²`), shared with
//! HTML `<sup>` (read by the sentence stage).

/// The value of a superscript digit.
pub(crate) fn digit(c: char) -> Option<u8> {
    Some(match c {
        '⁰' => 0,
        '¹' => 1,
        '²' => 2,
        '³' => 3,
        '⁴'..='⁹' => 4 + (c as u32 - '⁴' as u32) as u8,
        _ => return None,
    })
}

/// Characters that separate two labels of one superscript group: `¹,²`, `¹˒²` (the modifier
/// letter people and models use as a raised comma), `¹⁻³` and `¹-³` (a range).
fn separator(c: char) -> Option<bool> {
    match c {
        ',' | '˒' | '⸴' => Some(false),
        '⁻' | '-' | '–' => Some(true),
        _ => None,
    }
}

/// How many characters a superscript group may have: a group is a few labels; a longer run is
/// no marker (and the bound keeps scanning linear).
const MAX_GROUP_CHARS: usize = 24;

/// The labels of the superscript group that starts at byte `i` of `text` and its length in
/// bytes, when it is a marker: it starts with a superscript digit, does not stand where an
/// exponent stands ([`exponent_base`]) and is not followed by a digit or a caret (`²3`, `²^`:
/// a formula). A run of digits is one label (`¹²` is footnote 12, as `[12]` is); `,` `˒` separate
/// labels and `⁻` `-` `–` make a range (`¹⁻³` is 1, 2 and 3).
pub(crate) fn group(text: &str, i: usize) -> Option<(Vec<String>, usize)> {
    let rest = &text[i..];
    digit(rest.chars().next()?)?;
    if exponent_base(&text[..i]) {
        return None;
    }
    let mut labels: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut range_from: Option<String> = None;
    let mut len = 0;
    for (count, (k, c)) in rest.char_indices().enumerate() {
        if count > MAX_GROUP_CHARS {
            return None;
        }
        if let Some(d) = digit(c) {
            current.push(char::from(b'0' + d));
            len = k + c.len_utf8();
            continue;
        }
        // A separator counts only between two digits.
        let next_is_digit = rest[k + c.len_utf8()..]
            .chars()
            .next()
            .is_some_and(|n| digit(n).is_some());
        match separator(c) {
            Some(is_range) if next_is_digit && !current.is_empty() => {
                let label = std::mem::take(&mut current);
                push_label(&mut labels, range_from.take(), label)?;
                if is_range {
                    range_from = labels.pop();
                }
            }
            _ => break,
        }
    }
    push_label(&mut labels, range_from, current)?;
    let after = &rest[len..];
    if after.starts_with(|c: char| c.is_ascii_digit() || c == '^') {
        return None;
    }
    Some((labels, len))
}

/// Adds `label`, or the range from `from` to it (`1`, `3` → `1`, `2`, `3`); `None` when a
/// range runs backwards or is too long.
fn push_label(labels: &mut Vec<String>, from: Option<String>, label: String) -> Option<()> {
    match from {
        None => labels.push(label),
        Some(from) => labels.extend(super::number_range(&format!("{from}-{label}"))?),
    }
    Some(())
}

/// How far back [`exponent_base`] reads into a parenthesis: `(a+b)²` is short.
const MAX_PARENTHESIS_LOOK_BACK: usize = 32;

/// Whether a superscript written right after `before` is an exponent rather than a footnote
/// number. It is when it stands right after
/// - a digit or another superscript (`10⁶`, `3²`, `2¹⁰`);
/// - a word of one or two letters, a unit or a variable (`m²`, `km²`, `x²`, `E = mc²`, `s⁻¹`),
///   unless both letters are capitals (`the US¹` is a footnote; `KM²` is rare);
/// - a closing parenthesis whose content is a formula (an operator or at most two characters:
///   `(a+b)²`, `(x)²`).
///
/// After white space, punctuation or a longer word (`rocket.¹`, `rocket¹`, `tall, ²`) it is a
/// marker.
pub(crate) fn exponent_base(before: &str) -> bool {
    let mut back = before.chars().rev();
    let Some(last) = back.next() else {
        return false;
    };
    if last.is_numeric() {
        return true;
    }
    if last == ')' {
        let inside: String = back
            .take(MAX_PARENTHESIS_LOOK_BACK)
            .take_while(|&c| c != '(')
            .collect();
        return inside.chars().count() <= 2
            || inside.contains(['+', '-', '*', '/', '=', '^', '×', '·', '−']);
    }
    if !last.is_alphabetic() {
        return false;
    }
    let mut letters = vec![last];
    for c in back.take(2) {
        if !c.is_alphabetic() {
            break;
        }
        letters.push(c);
    }
    match letters.as_slice() {
        [_] => true,
        [a, b] => !(a.is_uppercase() && b.is_uppercase()),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(text: &str, i: usize) -> Option<Vec<String>> {
        group(text, i).map(|(labels, _)| labels)
    }

    #[test]
    fn superscript_groups_and_their_labels() {
        assert_eq!(labels("rocket.¹ It", 7).unwrap(), ["1"]);
        assert_eq!(labels("rocket¹ It", 6).unwrap(), ["1"]);
        assert_eq!(labels("rocket.¹² It", 7).unwrap(), ["12"]);
        assert_eq!(labels("rocket.¹,² It", 7).unwrap(), ["1", "2"]);
        assert_eq!(labels("rocket.¹˒² It", 7).unwrap(), ["1", "2"]);
        assert_eq!(labels("rocket.¹⁻³ It", 7).unwrap(), ["1", "2", "3"]);
        assert_eq!(labels("rocket.⁴⁻⁶,⁹", 7).unwrap(), ["4", "5", "6", "9"]);
        assert_eq!(labels("rocket.¹, then", 7).unwrap(), ["1"], "a comma after");
        let (_, len) = group("a.¹, b", 2).unwrap();
        assert_eq!(len, '¹'.len_utf8());
    }

    #[test]
    fn exponents_are_not_markers() {
        for (text, at) in [
            ("an area of 5 m² here", "²"),
            ("5 km² here", "²"),
            ("10⁶ cells", "⁶"),
            ("E = mc²", "²"),
            ("x² + y²", "²"),
            ("(a+b)² is", "²"),
            ("a rate of 3 s⁻¹", "⁻"),
            ("2¹⁰ bytes", "¹"),
            ("the 1980s¹", "¹"),
            ("formula ²3", "²"),
        ] {
            let i = text.find(at).unwrap();
            assert_eq!(labels(text, i), None, "{text:?}");
        }
    }

    #[test]
    fn footnotes_after_words_and_punctuation_are_markers() {
        for text in [
            "rocket.¹",
            "rocket,¹ and",
            "the US¹",
            "(NASA)¹",
            "\"quoted\"¹",
            "**bold**¹",
            "tall ¹",
        ] {
            let i = text.find('¹').unwrap();
            assert_eq!(labels(text, i).unwrap(), ["1"], "{text:?}");
        }
    }

    #[test]
    fn long_runs_and_backward_ranges_are_not_markers() {
        let long = "¹".repeat(MAX_GROUP_CHARS + 2);
        assert_eq!(labels(&long, 0), None);
        assert_eq!(labels("a.³⁻¹", 2), None);
    }
}
