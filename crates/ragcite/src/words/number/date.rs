//! Dates, compared by the day they name whatever their form: ISO `2024-03-31`, `31/03/2024`
//! and `03/31/2024` (an ambiguous `03/04/2024` is either day), `31.03.2024`, and dates with a
//! written month in English, French, German, Spanish, Italian, Portuguese and Dutch
//! (`March 31, 2024`, `31 March 2024`, `15. Februar 2024`, `31 de marzo de 2024`,
//! `March 2024`, `March 31`).
//!
//! A date in digits is one number whose value is the day. A date with a written month keeps
//! its day and year as numbers of their own (a chunk's `March 31, 2024` still holds `2024`),
//! each with the date as another value it may be found by. A chunk holds, beside each date,
//! its month (`2024-03`) and its day without the year (`--03-31`).

use super::{Kind, Number, NumberValue, Role, digit_run};

/// Months by name and abbreviation, lower-cased, in the languages ragcite stems most.
const MONTHS: &[(&str, u8)] = &[
    // English
    ("january", 1),
    ("february", 2),
    ("march", 3),
    ("april", 4),
    ("may", 5),
    ("june", 6),
    ("july", 7),
    ("august", 8),
    ("september", 9),
    ("october", 10),
    ("november", 11),
    ("december", 12),
    ("jan", 1),
    ("feb", 2),
    ("mar", 3),
    ("apr", 4),
    ("jun", 6),
    ("jul", 7),
    ("aug", 8),
    ("sep", 9),
    ("sept", 9),
    ("oct", 10),
    ("nov", 11),
    ("dec", 12),
    // French
    ("janvier", 1),
    ("février", 2),
    ("fevrier", 2),
    ("mars", 3),
    ("avril", 4),
    ("mai", 5),
    ("juin", 6),
    ("juillet", 7),
    ("août", 8),
    ("aout", 8),
    ("septembre", 9),
    ("octobre", 10),
    ("novembre", 11),
    ("décembre", 12),
    ("decembre", 12),
    // German
    ("januar", 1),
    ("jänner", 1),
    ("februar", 2),
    ("märz", 3),
    ("maerz", 3),
    ("juni", 6),
    ("juli", 7),
    ("oktober", 10),
    ("dezember", 12),
    // Spanish
    ("enero", 1),
    ("febrero", 2),
    ("marzo", 3),
    ("abril", 4),
    ("mayo", 5),
    ("junio", 6),
    ("julio", 7),
    ("agosto", 8),
    ("septiembre", 9),
    ("setiembre", 9),
    ("octubre", 10),
    ("noviembre", 11),
    ("diciembre", 12),
    // Italian
    ("gennaio", 1),
    ("febbraio", 2),
    ("aprile", 4),
    ("maggio", 5),
    ("giugno", 6),
    ("luglio", 7),
    ("settembre", 9),
    ("ottobre", 10),
    ("dicembre", 12),
    // Portuguese
    ("janeiro", 1),
    ("fevereiro", 2),
    ("março", 3),
    ("maio", 5),
    ("junho", 6),
    ("julho", 7),
    ("setembro", 9),
    ("outubro", 10),
    ("dezembro", 12),
    // Dutch
    ("januari", 1),
    ("februari", 2),
    ("maart", 3),
    ("mei", 5),
    ("augustus", 8),
];

/// Words that may stand between a day, its month and its year (`31st of March`,
/// `31 de marzo de 2024`, `marzo del 2024`).
const LINKS: &[&str] = &["of", "de", "del"];

/// The month a word names; `may` and `mar` only capitalised (`May 5`), being words of their
/// own.
fn month(word: &str) -> Option<u8> {
    if word.len() < 3 || word.len() > 12 {
        return None;
    }
    let lower = word.to_lowercase();
    let &(name, number) = MONTHS.iter().find(|(name, _)| *name == lower)?;
    let capital = word.chars().next().is_some_and(char::is_uppercase);
    if matches!(name, "may" | "mar") && !capital {
        return None;
    }
    Some(number)
}

/// The date `y-m-d` (or `y-m`, or `--m-d`) as a value.
fn value(year: Option<u32>, month: u8, day: Option<u8>) -> NumberValue {
    let text = match (year, day) {
        (Some(y), Some(d)) => format!("{y:04}-{month:02}-{d:02}"),
        (Some(y), None) => format!("{y:04}-{month:02}"),
        (None, Some(d)) => format!("--{month:02}-{d:02}"),
        (None, None) => format!("--{month:02}"),
    };
    NumberValue::tagged(Kind::Date, &text)
}

/// The month and the day without its year of a full date, which a chunk holds as well.
pub(super) fn coarser(date: &NumberValue, out: &mut Vec<NumberValue>) {
    if date.kind == Kind::Date
        && let Some((year, rest)) = date.digits.split_at_checked(4)
        && let Some((month, day)) = rest.get(1..).and_then(|r| r.split_once('-'))
        && year.bytes().all(|b| b.is_ascii_digit())
    {
        out.push(NumberValue::tagged(Kind::Date, &format!("{year}-{month}")));
        out.push(NumberValue::tagged(Kind::Date, &format!("--{month}-{day}")));
    }
}

fn valid(month: u32, day: u32) -> bool {
    (1..=12).contains(&month) && (1..=31).contains(&day)
}

/// A date in digits starting at `start`: `YYYY-MM-DD` (also with `/` or `.`), `D/M/YYYY` and
/// `M/D/YYYY` (with `/` or `-`; both readings when both are days), `D.M.YYYY`. Gives the
/// number, where it ends, and its parts as quantities (which a chunk holds too).
pub(super) fn numeric(text: &str, start: usize) -> Option<(Number, usize, Vec<NumberValue>)> {
    let bytes = text.as_bytes();
    let a_end = digit_run(bytes, start);
    let a_len = a_end - start;
    if !matches!(a_len, 1 | 2 | 4) {
        return None;
    }
    let sep = *bytes.get(a_end)?;
    if !matches!(sep, b'-' | b'/' | b'.') {
        return None;
    }
    let b_end = digit_run(bytes, a_end + 1);
    if !matches!(b_end - a_end - 1, 1 | 2) || bytes.get(b_end) != Some(&sep) {
        return None;
    }
    let c_end = digit_run(bytes, b_end + 1);
    let c_len = c_end - b_end - 1;
    // No further digit group: `1.2.3.4` and `2024-03-31-7` are something else.
    if matches!(bytes.get(c_end), Some(b'-' | b'/' | b'.'))
        && bytes.get(c_end + 1).is_some_and(u8::is_ascii_digit)
    {
        return None;
    }
    let a: u32 = text[start..a_end].parse().ok()?;
    let b: u32 = text[a_end + 1..b_end].parse().ok()?;
    let c: u32 = text[b_end + 1..c_end].parse().ok()?;
    let mut readings: Vec<(u32, u32, u32)> = Vec::new();
    if a_len == 4 && matches!(c_len, 1 | 2) {
        if valid(b, c) {
            readings.push((a, b, c));
        }
    } else if a_len <= 2 && c_len == 4 {
        if valid(b, a) {
            readings.push((c, b, a));
        }
        if sep != b'.' && valid(a, b) && a != b {
            readings.push((c, a, b));
        }
    }
    if !(1000..=2999).contains(&readings.first()?.0) {
        return None;
    }
    let mut values = readings
        .iter()
        .map(|&(y, m, d)| value(Some(y), m as u8, Some(d as u8)));
    let first = values.next()?;
    let mut number = Number::figure(text, start..c_end, first, 0);
    number.also.extend(values);
    let parts = [a, b, c]
        .into_iter()
        .map(|v| NumberValue::whole(u64::from(v)));
    Some((number, c_end, parts.collect()))
}

/// Where a run of digits ends that is followed by one of `marks` (after at most one space, as
/// Korean writes `2013년 5월`), and the end of the mark; `None` when the run is not `lengths`
/// digits long or no mark follows.
fn marked(
    text: &str,
    start: usize,
    lengths: std::ops::RangeInclusive<usize>,
    marks: [char; 2],
) -> Option<(u32, usize)> {
    let end = digit_run(text.as_bytes(), start);
    if !lengths.contains(&(end - start)) {
        return None;
    }
    let value: u32 = text[start..end].parse().ok()?;
    let mark = text[end..].chars().next()?;
    marks
        .contains(&mark)
        .then_some((value, end + mark.len_utf8()))
}

/// The start of the next digits after `from`, past one space at most.
fn digits_after(text: &str, from: usize) -> Option<usize> {
    let at = if text.as_bytes().get(from) == Some(&b' ') {
        from + 1
    } else {
        from
    };
    text.as_bytes()
        .get(at)
        .is_some_and(u8::is_ascii_digit)
        .then_some(at)
}

/// A Chinese, Japanese or Korean date starting at `start`: `2013年5月3日`, `2013年5月`,
/// `5月3日`, `2013년 5월 3일`. Gives the number, where it ends, and its parts as quantities
/// (which a chunk holds too). A year alone (`2013年`) is a year, not a date.
pub(super) fn east_asian(text: &str, start: usize) -> Option<(Number, usize, Vec<NumberValue>)> {
    let (year, month_start) = match marked(text, start, 4..=4, ['年', '년']) {
        Some((year, end)) => (Some(year), digits_after(text, end)?),
        None => (None, start),
    };
    let (month, month_end) = marked(text, month_start, 1..=2, ['月', '월'])?;
    let day = digits_after(text, month_end)
        .and_then(|at| marked(text, at, 1..=2, ['日', '일']))
        .filter(|&(day, _)| valid(month, day));
    if !(1..=12).contains(&month) || year.is_some_and(|y| !(1000..=2999).contains(&y)) {
        return None;
    }
    if year.is_none() && day.is_none() {
        return None;
    }
    let end = day.map_or(month_end, |(_, end)| end);
    let date = value(year, month as u8, day.map(|(d, _)| d as u8));
    let parts = year
        .into_iter()
        .chain(std::iter::once(month))
        .chain(day.map(|(d, _)| d))
        .map(|v| NumberValue::whole(u64::from(v)))
        .collect();
    Some((Number::figure(text, start..end, date, 0), end, parts))
}

/// The word of letters (and a trailing `.`) ending at `end` (after spaces), and its start.
fn word_before(text: &str, end: usize) -> Option<(&str, usize)> {
    let head = text.get(..end)?.trim_end_matches([' ', '\u{a0}', ',']);
    let head = head.strip_suffix('.').unwrap_or(head);
    let start = head
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_alphabetic())
        .last()
        .map(|(k, _)| k)?;
    // Within a bounded reach: spaces, a comma and a word.
    (end - start <= 24).then(|| (&head[start..], start))
}

/// The word of letters starting at `from` (after spaces and a `.`), and where it ends.
fn word_after(text: &str, from: usize) -> Option<(&str, usize)> {
    let rest = text.get(from..)?;
    let rest_trim = rest.trim_start_matches(['.', ' ', '\u{a0}']);
    let skipped = rest.len() - rest_trim.len();
    if skipped > 3 {
        return None;
    }
    let len: usize = rest_trim
        .chars()
        .take_while(|c| c.is_alphabetic())
        .take(13)
        .map(char::len_utf8)
        .sum();
    (len > 0).then(|| (&rest_trim[..len], from + skipped + len))
}

/// A written month after `from`, past a link word (`of`, `de`), and where it ends.
fn month_after(text: &str, from: usize) -> Option<(u8, usize)> {
    let (word, end) = word_after(text, from)?;
    if LINKS.contains(&word) {
        let (word, end) = word_after(text, end)?;
        return Some((month(word)?, end));
    }
    Some((month(word)?, end))
}

/// A written month before `to` (`March 31`), past a link word, and where it starts.
fn month_before(text: &str, to: usize) -> Option<(u8, usize)> {
    let (word, start) = word_before(text, to)?;
    Some((month(word)?, start))
}

/// Whether the number is a day of the month as written (`31`, `1st`, `15.`).
fn day(number: &Number) -> Option<u8> {
    let digits = number
        .text
        .trim_end_matches(|c: char| c.is_ascii_alphabetic());
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let day: u8 = digits.parse().ok()?;
    (1..=31).contains(&day).then_some(day)
}

/// Whether the number is a year as written (four digits, 1000 to 2999).
fn year(number: &Number) -> Option<u32> {
    if number.text.len() != 4 || !number.text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let year: u32 = number.text.parse().ok()?;
    (1000..=2999).contains(&year).then_some(year)
}

/// Whether only spaces, a comma and a link word stand between `from` and `to`.
fn joined(text: &str, from: usize, to: usize) -> bool {
    let Some(between) = text.get(from..to) else {
        return false;
    };
    if between.len() > 8 {
        return false;
    }
    between
        .split([' ', ',', '\u{a0}'])
        .all(|w| w.is_empty() || LINKS.contains(&w))
}

/// Dates with a written month among `found` (in order): the date becomes another value of
/// its day and its year; a chunk's `extras` get the date's month and yearless day.
pub(super) fn worded(text: &str, found: &mut [Number], mut extras: Option<&mut Vec<NumberValue>>) {
    let mut k = 0;
    while k < found.len() {
        let number = &found[k];
        if number.role != Role::Figure || number.value.kind != Kind::Quantity {
            k += 1;
            continue;
        }
        let next_year = |at: usize| {
            found
                .get(k + 1)
                .filter(|n| joined(text, at, n.span.start))
                .and_then(year)
        };
        let mut date: Option<(NumberValue, bool)> = None;
        if let Some(d) = day(number) {
            // `31 March 2024`, `15. Februar 2024`, `31 de marzo de 2024`, `31 March`
            if let Some((m, end)) = month_after(text, number.span.end) {
                date = Some((value(next_year(end), m, Some(d)), next_year(end).is_some()));
            } else if let Some((m, _)) = month_before(text, number.span.start) {
                // `March 31, 2024`, `March 31`
                let y = next_year(number.span.end);
                date = Some((value(y, m, Some(d)), y.is_some()));
            }
        } else if let Some(y) = year(number)
            && let Some((m, _)) = month_before(text, number.span.start)
        {
            // `March 2024`, `marzo de 2024`
            let before_month = found[..k].last().filter(|n| day(n).is_some());
            if before_month.is_none() {
                found[k].also.push(value(Some(y), m, None));
            }
        }
        if let Some((date, with_year)) = date {
            if let Some(extras) = extras.as_deref_mut() {
                coarser(&date, extras);
            }
            found[k].also.push(date.clone());
            if with_year {
                found[k + 1].also.push(date);
                k += 1;
            }
        }
        k += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::numbers;

    fn dates(text: &str) -> Vec<String> {
        numbers(text)
            .iter()
            .flat_map(|n| std::iter::once(&n.value).chain(&n.also))
            .filter(|v| v.kind == Kind::Date)
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn dates_in_digits() {
        assert_eq!(dates("on 2024-03-31."), ["2024-03-31"]);
        assert_eq!(dates("on 31/03/2024."), ["2024-03-31"]);
        assert_eq!(dates("on 03/31/2024."), ["2024-03-31"]);
        assert_eq!(dates("on 31.03.2024."), ["2024-03-31"]);
        assert_eq!(dates("on 03/04/2024."), ["2024-04-03", "2024-03-04"]);
        assert_eq!(dates("on 2024/3/9"), ["2024-03-09"]);
        assert!(dates("1.2.3.4 and 13/13/2024 and 2018-19").is_empty());
    }

    #[test]
    fn dates_with_a_written_month() {
        for text in [
            "March 31, 2024",
            "31 March 2024",
            "31st of March, 2024",
            "Mar. 31, 2024",
            "31. März 2024",
            "le 31 mars 2024",
            "31 de marzo de 2024",
            "31 marzo 2024",
            "31 de março de 2024",
            "31 maart 2024",
        ] {
            assert_eq!(dates(text), ["2024-03-31", "2024-03-31"], "{text}");
        }
        assert_eq!(dates("15. Februar 2024"), ["2024-02-15", "2024-02-15"]);
        assert_eq!(dates("in March 2024"), ["2024-03"]);
        assert_eq!(dates("on March 31"), ["--03-31"]);
        assert!(dates("you may 5 times, in 2024").is_empty());
    }
}
