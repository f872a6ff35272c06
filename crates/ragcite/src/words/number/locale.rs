//! How numbers are written in each language: the decimal mark (`1,250.5` or `1.250,5`), the
//! other reading of an ambiguous figure (`1.250`), and the currency words written after an
//! amount (`1250,50 Euro`).

use std::ops::Range;

use super::follow::Words;

/// How a language writes the decimal mark and the thousands separator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Decimal {
    /// `1,250.5` (English): `,` groups thousands, `.` is the decimal point.
    #[default]
    Point,
    /// `1.250,5` (German, French, Spanish, ...): `.` groups thousands, `,` is the decimal
    /// comma. A lone `.` or `,` before exactly three digits (`1.250`, `1,250`) is read the
    /// language's way, with the other reading as an `also` value; a `.` before one, two or
    /// four digits (`2.5`) is a decimal point, as English-style figures are common in such
    /// texts too.
    Comma,
}

/// Whether the number at `start` is written with `,` thousands groups, which a decimal comma
/// cannot be: two groups or more (`10,000,000`), or one before a decimal point (`1,250.5`).
pub(super) fn point_grouped(text: &str, start: usize) -> bool {
    let bytes = text.as_bytes();
    let digits = |from: usize| {
        bytes.get(from..).map_or(0, |rest| {
            rest.iter().take_while(|b| b.is_ascii_digit()).count()
        })
    };
    let first = digits(start);
    if first == 0 || first > 3 {
        return false;
    }
    let mut at = start + first;
    let mut groups = 0;
    while bytes.get(at) == Some(&b',') && digits(at + 1) == 3 {
        at += 4;
        groups += 1;
    }
    groups >= 2 || (groups == 1 && bytes.get(at) == Some(&b'.') && digits(at + 1) > 0)
}

/// For a figure of a language with a decimal comma that reads two ways, the other reading's
/// integer and fraction digits: `1.250` (1250) is also 1.25, `1,250` (1.25) also 1250.
/// `span` is the figure's digits and separators, `first_end` the end of its first digit run,
/// `groups` the thousands groups read with `.`, `fraction` the digits after the comma.
pub(super) fn other_reading<'t>(
    text: &'t str,
    span: Range<usize>,
    first_end: usize,
    groups: usize,
    fraction: &str,
    decimal: Decimal,
) -> Option<(String, &'t str)> {
    if decimal != Decimal::Comma || first_end - span.start > 3 {
        return None;
    }
    let lone_group = groups == 1 && fraction.is_empty() && span.end == first_end + 4;
    let lone_comma = groups == 0
        && fraction.len() == 3
        && span.end == first_end + 4
        && text.as_bytes().get(first_end) == Some(&b',');
    if lone_group {
        Some((
            text[span.start..first_end].to_string(),
            &text[first_end + 1..span.end],
        ))
    } else if lone_comma {
        let whole = text[span].chars().filter(char::is_ascii_digit).collect();
        Some((whole, ""))
    } else {
        None
    }
}

/// Currency names and codes written after an amount (`1250,50 Euro`, `5 dollars`, `30 EUR`):
/// part of the number as written, like the signs (`€`, `$`) that are no words either, so that
/// `1.250,50 €` and `1250,50 Euro` read the same. `pound` is left out: it is a weight as often.
pub(super) const CURRENCY_WORDS: Words = Words::new(&[
    ("euros", 0, false),
    ("euro", 0, false),
    ("eur", 0, false),
    ("dollars", 0, false),
    ("dollar", 0, false),
    ("dólares", 0, false),
    ("dólar", 0, false),
    ("dollari", 0, false),
    ("dollaro", 0, false),
    ("usd", 0, false),
    ("gbp", 0, false),
    ("yen", 0, false),
    ("jpy", 0, false),
    ("yuan", 0, false),
    ("cny", 0, false),
    ("rupees", 0, false),
    ("rupee", 0, false),
    ("inr", 0, false),
    ("francs", 0, false),
    ("franc", 0, false),
    ("franken", 0, false),
    ("chf", 0, false),
]);
