//! Numbers of a text, read by value: `1,083` = `1083`, `3.5 %` = `3.5 percent` = `3.5`,
//! `7 million` = `7,000,000`, `2.1 bn` = `2,100,000,000`, `25 cents` = `0.25`,
//! `150 bp` = `1.5` (percentage points); dates in every common form compared by day
//! (number/date.rs); versions, labels and names told from quantities (number/role.rs).

use std::fmt;
use std::ops::Range;

/// A number found in a text, with where it stands and what it is worth.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Number {
    /// Byte span of the number as written, scale word and percent sign included.
    pub span: Range<usize>,
    /// The number as written (`"1,083"`, `"7 million"`, `"3.5%"`).
    pub text: String,
    /// Its value, exact.
    pub value: NumberValue,
    /// Other values, any of which a chunk may hold for the number to be found: the date a
    /// day or a year is part of (`31` of `March 31, 2024`), the other reading of an
    /// ambiguous date (`03/04/2024`), `20` (percent) for `1 in 5`.
    pub also: Vec<NumberValue>,
    /// What the number is to its text: a figure it states, a label or a name.
    pub role: Role,
    /// Power of ten of the last digit as written (`12.5%`: -1, `2,054`: 0, `7 million`: 6):
    /// the precision a figure derived from others is compared at.
    pub precision: i64,
}

/// What a number is to the text it stands in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A figure the text states: a chunk must hold its value (or one of its `also`).
    Figure,
    /// A label (`Stage 3`, `type 2`, `Article 5`): its value is the label word with the
    /// number; missing only when a chunk names the same label word with another number.
    Label,
    /// Part of a name, not a quantity: an identifier (`gpt-4o`, `4IR`, `Ka-27`, `x86_64`),
    /// inline code (`burst=5`), a URL or e-mail address, a list enumerator (`steps: 1`).
    Name,
}

impl Number {
    /// A figure read from the text: `value` alone, as written at `span`.
    fn figure(text: &str, span: Range<usize>, value: NumberValue, precision: i64) -> Self {
        Number {
            text: text[span.clone()].to_string(),
            span,
            value,
            also: Vec::new(),
            role: Role::Figure,
            precision,
        }
    }

    /// The label word of a [`Role::Label`] (`stage` of `Stage 3`), as the value a chunk holds
    /// when it names that label with any number.
    pub fn label_word(&self) -> Option<NumberValue> {
        (self.value.kind == Kind::Label)
            .then(|| self.value.digits.split_once(' '))
            .flatten()
            .map(|(word, _)| NumberValue::tagged(Kind::LabelWord, word))
    }
}

/// An exact decimal value: significant digits times a power of ten.
///
/// Kept as digits rather than `f64` so that `2.1 bn` and `2,100,000,000` are equal without
/// rounding error and very long digit runs never overflow.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NumberValue {
    /// What the value is; for a quantity, `digits` and `exponent` are its decimal value,
    /// for the others `digits` is the value's text (`2024-03-31`, `3.10`, `stage 3`).
    kind: Kind,
    /// Significant digits without leading or trailing zeros; `"0"` for zero.
    digits: String,
    /// Power of ten the digits are multiplied by.
    exponent: i64,
}

/// What a [`NumberValue`] is: values of two kinds are never equal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// An amount, compared by value (`1,083` = `1083.0`).
    Quantity,
    /// A day (`2024-03-31`), a month (`2024-03`) or a day without its year (`--03-31`).
    Date,
    /// A version, compared component by component as written (`3.10` is not `3.1`).
    Version,
    /// A label with its number (`stage 3`).
    Label,
    /// A label word a text writes with a number (`stage`).
    LabelWord,
    /// A time of day (`09:00`, `17:30`).
    Time,
}

impl NumberValue {
    /// Builds a value from integer digits, fraction digits and a power-of-ten scale.
    pub fn from_parts(integer: &str, fraction: &str, scale: i64) -> Self {
        let mut all: String = integer.chars().chain(fraction.chars()).collect();
        let mut exponent = scale - fraction.len() as i64;
        let leading = all.bytes().take_while(|&b| b == b'0').count();
        all.drain(..leading);
        if all.is_empty() {
            return NumberValue {
                kind: Kind::Quantity,
                digits: "0".to_string(),
                exponent: 0,
            };
        }
        let trailing = all.bytes().rev().take_while(|&b| b == b'0').count();
        all.truncate(all.len() - trailing);
        exponent += trailing as i64;
        NumberValue {
            kind: Kind::Quantity,
            digits: all,
            exponent,
        }
    }

    /// A value that is not a quantity, by its text.
    pub fn tagged(kind: Kind, text: &str) -> Self {
        NumberValue {
            kind,
            digits: text.to_string(),
            exponent: 0,
        }
    }

    /// What the value is.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// A quantity as a float (`None` for the other kinds, or past `f64`'s range).
    pub fn as_f64(&self) -> Option<f64> {
        if self.kind != Kind::Quantity || self.digits.len() > 30 || self.exponent.abs() > 300 {
            return None;
        }
        let value: f64 = format!("{}e{}", self.digits, self.exponent).parse().ok()?;
        value.is_finite().then_some(value)
    }

    /// A whole quantity (`from_parts` of an integer).
    pub(crate) fn whole(value: u64) -> Self {
        NumberValue::from_parts(&value.to_string(), "", 0)
    }

    /// The quantity as an integer, when it is a whole number of at most 18 digits.
    pub(crate) fn as_whole(&self) -> Option<u64> {
        if self.kind != Kind::Quantity
            || self.exponent < 0
            || self.digits.len() + self.exponent as usize > 18
        {
            return None;
        }
        let digits: u64 = self.digits.parse().ok()?;
        digits.checked_mul(10u64.checked_pow(self.exponent as u32)?)
    }
}

impl fmt::Display for NumberValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            Kind::Quantity => write!(f, "{}e{}", self.digits, self.exponent),
            _ => f.write_str(&self.digits),
        }
    }
}

/// Every number of `text`, in order, written the English way (see [`numbers_in`]).
pub fn numbers(text: &str) -> Vec<Number> {
    scan(text, None, Decimal::Point)
}

/// Every number of `text`, in order.
///
/// A number starts at a digit that does not continue a word (`doc2`, `covid19`) or another
/// number (`3.5.1` gives `3.5` only). Thousands separators are a space (also the no-break and
/// thin spaces) and, by `decimal`, `,` or `.` before exactly three digits; the other of the two
/// is the decimal mark.
pub fn numbers_in(text: &str, decimal: Decimal) -> Vec<Number> {
    scan(text, None, decimal)
}

/// [`numbers`] of a chunk, and the values of the numbers written onto the end of a word, as
/// text scraped from web pages and PDFs glues them (`Spain1986— Introduction of ...`,
/// `grunting2 – Good`): the digits after a letter, up to the end of the word. [`numbers`] reads
/// none of them (`covid19`, `doc2` are words); a chunk holds them as well, so that a chunk holds
/// the `1986` a sentence gives. One pass over the text for both.
pub fn chunk_numbers(text: &str, decimal: Decimal) -> (Vec<Number>, Vec<NumberValue>) {
    let mut glued = Vec::new();
    let found = scan(text, Some(&mut glued), decimal);
    (found, glued)
}

fn scan(text: &str, glued: Option<&mut Vec<NumberValue>>, decimal: Decimal) -> Vec<Number> {
    // Full-width digits (`２０１３`, Chinese and Japanese text) are read as ASCII ones, on a
    // copy whose spans are mapped back. Most texts have none: a search for their lead byte.
    if text.as_bytes().contains(&0xEF)
        && let Some((ascii, folded)) = fold_full_width(text)
    {
        let original = |at: usize| at + 2 * folded.partition_point(|&q| q < at);
        let mut found = scan_ascii(&ascii, glued, decimal);
        for number in &mut found {
            number.span = original(number.span.start)..original(number.span.end);
            number.text = text[number.span.clone()].to_string();
        }
        return found;
    }
    scan_ascii(text, glued, decimal)
}

/// `text` with its full-width digits, and full-width full stops between them, as ASCII, and
/// the offsets in the copy of the characters folded (each two bytes shorter than it was);
/// `None` when there is none.
fn fold_full_width(text: &str) -> Option<(String, Vec<usize>)> {
    let digit = |c: char| ('\u{ff10}'..='\u{ff19}').contains(&c);
    let mut ascii = String::with_capacity(text.len());
    let mut folded = Vec::new();
    let mut previous_digit = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let point = c == '\u{ff0e}' && previous_digit && chars.peek().is_some_and(|&d| digit(d));
        if digit(c) || point {
            folded.push(ascii.len());
            ascii.push(if point {
                '.'
            } else {
                char::from(b'0' + (u32::from(c) - 0xff10) as u8)
            });
        } else {
            ascii.push(c);
        }
        previous_digit = digit(c);
    }
    (!folded.is_empty()).then_some((ascii, folded))
}

fn scan_ascii(
    text: &str,
    mut glued: Option<&mut Vec<NumberValue>>,
    decimal: Decimal,
) -> Vec<Number> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while let Some(digit) = next_digit(bytes, i) {
        i = digit;
        if !starts_number(text, i) {
            // `v2.0.1`: a version after a `v` of its own.
            if let Some((version, end)) = role::version_after_v(text, i) {
                if let Some(glued) = glued.as_deref_mut() {
                    role::version_values(&version.value, glued);
                }
                found.push(version);
                i = end;
                continue;
            }
            if let Some(glued) = glued.as_deref_mut()
                && after_letter(text, i)
            {
                let (number, end) = read_number(text, i, decimal);
                if word_ends_at(text, end) {
                    glued.push(number.value);
                }
                i = end.max(i + 1);
            } else {
                i += 1;
            }
            continue;
        }
        // `17:30`: one number, a time of day; a chunk holds its hour and minutes as well.
        if let Some((time, end, parts)) = clock_time(text, i) {
            if let Some(glued) = glued.as_deref_mut() {
                glued.extend(parts);
            }
            found.push(time);
            i = end;
            continue;
        }
        // `2024-03-31`, `31/03/2024`, `31.03.2024`, `2024年3月31日`: one number, a date.
        if let Some((date, end, parts)) =
            date::numeric(text, i).or_else(|| date::east_asian(text, i))
        {
            if let Some(glued) = glued.as_deref_mut() {
                glued.extend(parts);
                for value in std::iter::once(&date.value).chain(&date.also) {
                    date::coarser(value, glued);
                }
            }
            found.push(date);
            i = end;
            continue;
        }
        let (mut number, mut end) = read_number(text, i, decimal);
        // `.5` is a half: a decimal point before the digits, not after another number.
        if i > 0 && bytes[i - 1] == b'.' && number.text.bytes().all(|b| b.is_ascii_digit()) {
            let digits = &text[i..end];
            number = Number::figure(
                text,
                i - 1..end,
                NumberValue::from_parts("", digits, 0),
                -(digits.len() as i64),
            );
        }
        // `3.10.2`: a version (whose first two parts are also the quantity `3.1` in a chunk).
        if let Some(version_end) = role::dotted_version_end(text, &number, end) {
            if let Some(glued) = glued.as_deref_mut() {
                glued.push(number.value.clone());
            }
            number = role::version(text, i..version_end, i..version_end);
            if let Some(glued) = glued.as_deref_mut() {
                role::version_values(&number.value, glued);
            }
            end = version_end;
        }
        if let Some(previous) = found.last()
            && let Some(year) = year_range_end(text, previous, &number, end)
        {
            number.value = year;
        }
        found.push(number);
        i = end.max(i + 1);
    }
    if !found.is_empty() {
        date::worded(text, &mut found, glued.as_deref_mut());
        role::annotate(text, &mut found, glued);
    }
    found
}

/// The full year that two digits after a year and a dash or slash stand for (`2018–19`,
/// `1990/91`, `1999-00`): `previous` is the year, `number` the two digits, ending at `end`.
/// Only when the two digits come later in the century than the year's own last two (or the
/// year ends in 99 and they are 00), and no further `-` or `/` and digit follows: `2020-05-12`
/// and `2010-11-05` are dates, not ranges.
fn year_range_end(
    text: &str,
    previous: &Number,
    number: &Number,
    end: usize,
) -> Option<NumberValue> {
    let bytes = text.as_bytes();
    let year = &previous.text;
    if year.len() != 4 || !year.bytes().all(|b| b.is_ascii_digit()) || !year.starts_with(['1', '2'])
    {
        return None;
    }
    let between = text.get(previous.span.end..number.span.start)?;
    if !matches!(between, "-" | "\u{2013}" | "\u{2014}" | "/") {
        return None;
    }
    let two = &number.text;
    if two.len() != 2 || !two.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if matches!(bytes.get(end), Some(b'-' | b'/'))
        && bytes.get(end + 1).is_some_and(u8::is_ascii_digit)
    {
        return None;
    }
    let first: u32 = year.parse().ok()?;
    let last: u32 = two.parse().ok()?;
    let full = if last > first % 100 {
        first - first % 100 + last
    } else if last == 0 && first % 100 == 99 {
        first + 1
    } else {
        return None;
    };
    Some(NumberValue::from_parts(&full.to_string(), "", 0))
}

/// Whether the character before byte `i` is a letter.
fn after_letter(text: &str, i: usize) -> bool {
    match text.as_bytes().get(i.wrapping_sub(1)) {
        None => false,
        Some(b) if b.is_ascii() => b.is_ascii_alphabetic(),
        Some(_) => text[..i]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphabetic() && !crate::words::is_cjk(c)),
    }
}

/// Position of the first ASCII digit of `bytes` at or after `from`. Most of a text has no
/// digit: it is passed over eight bytes at a time.
fn next_digit(bytes: &[u8], from: usize) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    let mut i = from;
    while let Some(eight) = bytes.get(i..i + 8) {
        // XOR with `0` maps exactly the digits to 0..=9; then a byte below 10 leaves its high
        // bit set in `(x - 10) & !x` (the classic "has less than" test, exact for the lowest
        // such byte, which is the first in little-endian order).
        let x = u64::from_le_bytes(eight.try_into().unwrap_or([0; 8])) ^ (ONES * b'0' as u64);
        let found = x.wrapping_sub(ONES * 10) & !x & HIGHS;
        if found != 0 {
            return Some(i + found.trailing_zeros() as usize / 8);
        }
        i += 8;
    }
    bytes
        .get(i..)?
        .iter()
        .position(u8::is_ascii_digit)
        .map(|k| i + k)
}

fn starts_number(text: &str, i: usize) -> bool {
    let mut before = text[..i].chars().rev();
    match before.next() {
        None => true,
        // Chinese and Japanese write numbers onto their words (`高度3776米`, `第3`).
        Some(c) if c.is_alphanumeric() => crate::words::is_cjk(c),
        // `3.5.1` is a version: its `1` is not a number of its own. `1,2` is two numbers.
        Some('.') => !matches!(before.next(), Some(d) if d.is_ascii_digit()),
        Some(_) => true,
    }
}

fn digit_run(bytes: &[u8], from: usize) -> usize {
    let mut j = from;
    while j < bytes.len() && bytes[j].is_ascii_digit() {
        j += 1;
    }
    j
}

/// Length in bytes of a thousands separator at `j`: `mark` (`,` or `.`), or a space (also the
/// no-break, narrow no-break and thin spaces) when `mark` is `None`.
fn separator_len(text: &str, j: usize, mark: Option<char>) -> Option<usize> {
    let c = text[j..].chars().next()?;
    let ok = match mark {
        Some(mark) => c == mark,
        None => matches!(c, ' ' | '\u{00A0}' | '\u{202F}' | '\u{2009}'),
    };
    ok.then(|| c.len_utf8())
}

/// A group of exactly three digits at `j`, not followed by a further digit.
fn three_digit_group(bytes: &[u8], j: usize) -> bool {
    digit_run(bytes, j) == j + 3
}

/// A time of day at `start`: `H:MM` or `HH:MM` (hours up to 23, minutes up to 59), not part of
/// a longer run of digits, colons or points (`3:16:20`, `10.5:30`), with the values of its hour
/// and minutes, which a chunk holds too.
fn clock_time(text: &str, start: usize) -> Option<(Number, usize, Vec<NumberValue>)> {
    let bytes = text.as_bytes();
    if start > 0 && matches!(bytes[start - 1], b'0'..=b'9' | b':' | b'.') {
        return None;
    }
    let hour_end = digit_run(bytes, start);
    if !(1..=2).contains(&(hour_end - start)) || bytes.get(hour_end) != Some(&b':') {
        return None;
    }
    let minute_end = digit_run(bytes, hour_end + 1);
    if minute_end - hour_end - 1 != 2
        || bytes.get(minute_end).is_some_and(|b| {
            b.is_ascii_digit()
                || matches!(b, b':')
                || (*b == b'.' && bytes.get(minute_end + 1).is_some_and(u8::is_ascii_digit))
        })
    {
        return None;
    }
    let hour: u32 = text[start..hour_end].parse().ok()?;
    let minute: u32 = text[hour_end + 1..minute_end].parse().ok()?;
    if hour > 23 || minute > 59 {
        return None;
    }
    let value = NumberValue::tagged(Kind::Time, &format!("{hour:02}:{minute:02}"));
    let parts = vec![
        NumberValue::from_parts(&hour.to_string(), "", 0),
        NumberValue::from_parts(&minute.to_string(), "", 0),
    ];
    Some((
        Number::figure(text, start..minute_end, value, 0),
        minute_end,
        parts,
    ))
}

impl NumberValue {
    /// A time of day in hours (`17:30` is 17.5); `None` for the other kinds.
    pub fn as_hours(&self) -> Option<f64> {
        if self.kind != Kind::Time {
            return None;
        }
        let (hour, minute) = self.digits.split_once(':')?;
        Some(f64::from(hour.parse::<u32>().ok()?) + f64::from(minute.parse::<u32>().ok()?) / 60.0)
    }
}

fn read_number(text: &str, start: usize, decimal: Decimal) -> (Number, usize) {
    let bytes = text.as_bytes();
    // `10,000,000` or `1,250.5` in a text of decimal commas is written the English way.
    let decimal = if decimal == Decimal::Comma && locale::point_grouped(text, start) {
        Decimal::Point
    } else {
        decimal
    };
    let first_end = digit_run(bytes, start);
    let mut integer: String = text[start..first_end].to_string();
    let mut end = first_end;
    let (group_mark, decimal_mark) = match decimal {
        Decimal::Point => (',', b'.'),
        Decimal::Comma => ('.', b','),
    };
    // The groups read with the language's mark: how many, and whether a space grouped them.
    let mut marked_groups = 0;
    if first_end - start <= 3 {
        for mark in [Some(group_mark), None] {
            let mut j = end;
            let mut groups = 0;
            while let Some(sep) = separator_len(text, j, mark) {
                if !three_digit_group(bytes, j + sep) {
                    break;
                }
                integer.push_str(&text[j + sep..j + sep + 3]);
                j += sep + 3;
                groups += 1;
            }
            if groups > 0 {
                end = j;
                if mark.is_some() {
                    marked_groups = groups;
                }
                break;
            }
        }
    }
    let mut fraction = "";
    if end + 1 < bytes.len() && bytes[end] == decimal_mark && bytes[end + 1].is_ascii_digit() {
        let frac_end = digit_run(bytes, end + 1);
        fraction = &text[end + 1..frac_end];
        end = frac_end;
    } else if decimal == Decimal::Comma
        && marked_groups == 0
        && end + 1 < bytes.len()
        && bytes[end] == b'.'
        && bytes[end + 1].is_ascii_digit()
    {
        // `2.5` in a text of decimal commas: no group of three, so a decimal point.
        let frac_end = digit_run(bytes, end + 1);
        fraction = &text[end + 1..frac_end];
        end = frac_end;
    }
    let other = other_reading(
        text,
        start..end,
        first_end,
        marked_groups,
        fraction,
        decimal,
    );
    let mut scale = 0;
    let mut raw = None;
    if let Some(len) = attached_word(text, end, ATTACHED_ENDINGS) {
        end += len;
    } else if let Some(len) = percent_at(text, end) {
        end += len;
    } else if let Some((len, power)) = scale_at(text, end).or_else(|| east_asian_scale(text, end)) {
        end += len;
        scale = power;
    } else if let Some((len, power)) = currency_scale(text, start, end) {
        end += len;
        scale = power;
    } else if let Some(len) = subunit_at(text, end) {
        // `25 cents` = `0.25`; `150 bp` = `1.5` (percentage points). The figure as written
        // counts too: a chunk's `500 base pairs` holds a sentence's `500 bp`.
        end += len;
        scale = -2;
        raw = Some(NumberValue::from_parts(&integer, fraction, 0));
    }
    // `5 million euros`: the currency after the amount and its scale.
    if let Some(len) = attached_word(text, end, CURRENCY_WORDS) {
        end += len;
    }
    let value = NumberValue::from_parts(&integer, fraction, scale);
    let mut number = Number::figure(text, start..end, value, scale - fraction.len() as i64);
    number.also.extend(raw);
    if let Some((whole, part)) = other {
        number
            .also
            .push(NumberValue::from_parts(&whole, part, scale));
    }
    (number, end)
}

/// Number words and their values: cardinals, and ordinals other than `second` (a unit of time
/// as often as a rank).
const NUMBER_WORDS: &[(&str, u64)] = &[
    ("zero", 0),
    ("one", 1),
    ("two", 2),
    ("three", 3),
    ("four", 4),
    ("five", 5),
    ("six", 6),
    ("seven", 7),
    ("eight", 8),
    ("nine", 9),
    ("ten", 10),
    ("eleven", 11),
    ("twelve", 12),
    ("thirteen", 13),
    ("fourteen", 14),
    ("fifteen", 15),
    ("sixteen", 16),
    ("seventeen", 17),
    ("eighteen", 18),
    ("nineteen", 19),
    ("twenty", 20),
    ("thirty", 30),
    ("forty", 40),
    ("fifty", 50),
    ("sixty", 60),
    ("seventy", 70),
    ("eighty", 80),
    ("ninety", 90),
    ("first", 1),
    ("third", 3),
    ("fourth", 4),
    ("fifth", 5),
    ("sixth", 6),
    ("seventh", 7),
    ("eighth", 8),
    ("ninth", 9),
    ("tenth", 10),
    ("eleventh", 11),
    ("twelfth", 12),
    ("thirteenth", 13),
    ("fourteenth", 14),
    ("fifteenth", 15),
    ("sixteenth", 16),
    ("seventeenth", 17),
    ("eighteenth", 18),
    ("nineteenth", 19),
    ("twentieth", 20),
    ("thirtieth", 30),
    ("fortieth", 40),
    ("fiftieth", 50),
    ("sixtieth", 60),
    ("seventieth", 70),
    ("eightieth", 80),
    ("ninetieth", 90),
    ("dozen", 12),
];

/// Multipliers written as words: `hundred` multiplies the group before it, the others close it.
const MULTIPLIER_WORDS: &[(&str, u64)] = &[
    ("hundred", 100),
    ("thousand", 1_000),
    ("million", 1_000_000),
    ("billion", 1_000_000_000),
    ("trillion", 1_000_000_000_000),
];

/// What a word means to a number written in words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Spelled {
    Number(u64),
    Multiplier(u64),
    /// `and`, as in `one hundred and five`.
    And,
    /// `a`, as in `a hundred`.
    Article,
}

/// For each first letter of the number words and `and`, the second letters they go on with,
/// one bit each: most words of a text are ruled out by their first two letters.
const NUMBER_OPENINGS: [u32; 26] = {
    let mut table = [0u32; 26];
    let lists = [NUMBER_WORDS, MULTIPLIER_WORDS, &[("and", 0)]];
    let mut l = 0;
    while l < lists.len() {
        let mut k = 0;
        while k < lists[l].len() {
            let word = lists[l][k].0.as_bytes();
            table[(word[0] - b'a') as usize] |= 1 << (word[1] - b'a');
            k += 1;
        }
        l += 1;
    }
    table
};

/// Whether a word of ASCII letters may be a number word, `and` or `a`, by its length and first
/// two letters.
fn may_be_number_word(word: &[u8]) -> bool {
    match *word {
        [only] => only.eq_ignore_ascii_case(&b'a'),
        // Only ordinals (`seventeenth`) are longer than nine letters.
        [first, second, ..] if word.len() <= 9 || (word.len() <= 11 && word.ends_with(b"th")) => {
            let first = first.to_ascii_lowercase().wrapping_sub(b'a');
            let second = second.to_ascii_lowercase().wrapping_sub(b'a');
            first < 26 && second < 26 && NUMBER_OPENINGS[first as usize] & (1 << second) != 0
        }
        _ => false,
    }
}

/// A word of up to 16 ASCII letters as one lower-cased integer; `None` for longer words, which
/// are never number words.
fn word_key(word: &[u8]) -> Option<u128> {
    if word.len() > 16 {
        return None;
    }
    let key = (0..).zip(word).fold(0u128, |key, (k, b)| {
        key | u128::from(b.to_ascii_lowercase()) << (8 * k)
    });
    Some(key)
}

/// The number words, by key.
fn spelled_table() -> &'static rustc_hash::FxHashMap<u128, Spelled> {
    static TABLE: std::sync::OnceLock<rustc_hash::FxHashMap<u128, Spelled>> =
        std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let numbers = NUMBER_WORDS.iter().map(|&(w, v)| (w, Spelled::Number(v)));
        let multipliers = MULTIPLIER_WORDS
            .iter()
            .map(|&(w, v)| (w, Spelled::Multiplier(v)));
        numbers
            .chain(multipliers)
            .chain([("and", Spelled::And), ("a", Spelled::Article)])
            .filter_map(|(w, meaning)| Some((word_key(w.as_bytes())?, meaning)))
            .collect()
    })
}

/// Reads English numbers written in words (`six` = 6, `twenty-five` = 25, `one hundred` = 100,
/// `four billion` = 4,000,000,000, `a hundred` = 100) from the words of a text, given one at a
/// time in order, so that it rides on a pass that cuts the text into words anyway.
///
/// Only chunks are read this way: a chunk that writes `six studio albums` holds the `6` of a
/// sentence. Sentences keep their digits only, so that `one of the ...` is never a claim about
/// the number 1.
#[derive(Debug, Default)]
pub struct SpelledNumbers {
    found: Vec<NumberValue>,
    /// The number being read: closed groups (`total`) and the open group (`group`).
    total: u64,
    group: Option<u64>,
    reading: bool,
    previous_article: bool,
    /// The number read last.
    last: Option<u64>,
    /// A number followed by `in`, while the number after is read (`one in five`).
    armed: Option<u64>,
    /// The word before was `a` or `an`: `a year`, `an hour` hold 1.
    indefinite: bool,
}

impl SpelledNumbers {
    /// The next word of the text (as [`crate::words::Analyzer::for_each_token`] cuts them:
    /// punctuation and numbers in digits are not words). Any word that is not part of a
    /// number ends the number being read.
    pub fn word(&mut self, word: &str) {
        // `a second time` is no duration.
        if std::mem::take(&mut self.indefinite)
            && spelled::is_time_unit(word)
            && !word.eq_ignore_ascii_case("second")
        {
            self.found.push(NumberValue::whole(1));
        }
        self.indefinite = word.eq_ignore_ascii_case("a") || word.eq_ignore_ascii_case("an");
        let word = word.as_bytes();
        // `half` and `quarter`: 0.5 and 50 (percent), 0.25 and 25.
        let share = match word {
            b"half" | b"Half" => Some((5, 50)),
            b"quarter" | b"Quarter" => Some((25, 25)),
            _ => None,
        };
        if let Some((fraction, percent)) = share {
            let places = if fraction < 10 { -1 } else { -2 };
            self.found
                .push(NumberValue::from_parts(&fraction.to_string(), "", places));
            self.found.push(NumberValue::whole(percent));
        }
        let is_in = word.eq_ignore_ascii_case(b"in");
        let was_reading = self.reading;
        // Every word of every chunk passes here: most are ruled out by their length and first
        // two letters; the others cost one integer key and one hash lookup.
        let entry = (may_be_number_word(word) && word.iter().all(u8::is_ascii_alphabetic))
            .then(|| {
                word_key(word)
                    .and_then(|key| spelled_table().get(&key))
                    .copied()
            })
            .flatten();
        match entry {
            Some(Spelled::Number(value)) => {
                // `twenty five`: a unit after a ten joins it; any other run of two starts anew.
                let joins =
                    matches!(self.group, Some(g) if g % 100 >= 20 && g % 10 == 0 && value < 10);
                if self.reading && !joins && self.group.is_some_and(|g| g % 100 != 0) {
                    self.flush();
                }
                self.group = Some(self.group.unwrap_or(0) + value);
                self.reading = true;
            }
            Some(Spelled::Multiplier(multiplier)) => {
                let base = match self.group {
                    Some(g) => g,
                    None if self.reading || self.previous_article => 1,
                    // A bare `million` (`millions of people`) is no number.
                    None => {
                        self.previous_article = false;
                        return;
                    }
                };
                if multiplier == 100 {
                    self.group = Some(base.saturating_mul(100));
                } else {
                    self.total = self.total.saturating_add(base.saturating_mul(multiplier));
                    self.group = None;
                }
                self.reading = true;
            }
            // `one hundred and five`
            Some(Spelled::And) if self.reading => {}
            _ if self.reading => self.flush(),
            _ => {}
        }
        if is_in {
            self.armed = self.last.filter(|_| was_reading);
        } else if !matches!(entry, Some(Spelled::Number(_) | Spelled::Multiplier(_))) {
            self.armed = None;
        }
        self.previous_article = entry == Some(Spelled::Article);
    }

    /// Whether `word` is a plain word to [`SpelledNumbers::word`]: no number word, `and`,
    /// article, time unit, share (`half`) or `in`, so that reading it only ends the number
    /// being read ([`SpelledNumbers::plain_word`]). A property of the word form alone, worked
    /// out once per distinct token.
    pub fn is_plain(word: &str) -> bool {
        let bytes = word.as_bytes();
        let entry = may_be_number_word(bytes)
            && bytes.iter().all(u8::is_ascii_alphabetic)
            && word_key(bytes).is_some_and(|key| spelled_table().contains_key(&key));
        !(entry
            || spelled::is_time_unit(word)
            || word.eq_ignore_ascii_case("a")
            || word.eq_ignore_ascii_case("an")
            || word.eq_ignore_ascii_case("in")
            || matches!(bytes, b"half" | b"Half" | b"quarter" | b"Quarter"))
    }

    /// The next word of the text when it [`SpelledNumbers::is_plain`]: the same as
    /// [`SpelledNumbers::word`] on it, without reading it again.
    pub fn plain_word(&mut self) {
        self.indefinite = false;
        if self.reading {
            self.flush();
        }
        self.armed = None;
        self.previous_article = false;
    }

    /// The values read, in order.
    pub fn finish(mut self) -> Vec<NumberValue> {
        self.flush();
        self.found
    }

    fn flush(&mut self) {
        if self.reading {
            let value = self.total.saturating_add(self.group.unwrap_or(0));
            self.found.push(NumberValue::whole(value));
            // `one in five`: 20 (percent) and 0.2 as well.
            if let Some(from) = self.armed.take()
                && from >= 1
                && from < value
                && value <= 1000
            {
                self.found.extend(role::share(from, value));
            }
            self.last = Some(value);
        }
        self.total = 0;
        self.group = None;
        self.reading = false;
    }
}

mod date;
mod follow;
use follow::{
    ATTACHED_ENDINGS, attached_word, currency_scale, east_asian_scale, percent_at, scale_at,
    subunit_at, word_ends_at,
};
mod locale;
pub use locale::Decimal;
use locale::{CURRENCY_WORDS, other_reading};
mod role;
mod spelled;
pub use spelled::spelled_figures;

#[cfg(test)]
mod tests;
