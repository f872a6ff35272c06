//! Derived figures: a number of the sentence that no cited chunk holds, but that one
//! arithmetic step over two figures of the cited chunks gives (`3,204 + 2,850 = 6,054`): a sum,
//! a difference (also the years between two years), a product,
//! a ratio (also as a percentage) or a percentage change. Such a number is no mismatch.
//!
//! Pure: the missing number and the cited chunks' figures in, a [`Derivation`] out. Compared
//! at the precision the sentence writes the number in (`12.5%` is 12.45 to 12.55). Bounded
//! and guarded against coincidence, since with small numbers nearly anything is derivable:
//! - the figures come from the cited chunks together, and only when they hold at most
//!   [`MAX_OPERANDS`] distinct figures (a long page gives nothing);
//! - the number must have three significant digits or more (`2,054`, `12.5%`, not `20` or
//!   `600`, which round figures hit by chance) and not be a year, unless it is the years
//!   between two years (a duration); operands are at least 10 and distinct; a percentage
//!   comes only from a ratio or a change, other figures never from those;
//! - the search is `O(n log n)` over the sorted figures: for each figure, each operation's
//!   other operand is looked up by binary search.

use std::fmt;

use crate::words::{Kind, Number, NumberValue, Role};

/// The most distinct figures the cited chunks may hold together for a derivation.
pub const MAX_OPERANDS: usize = 24;

/// How a number follows from two figures of the cited chunks.
#[derive(Debug, Clone, PartialEq)]
pub struct Derivation {
    /// The number as the sentence writes it.
    pub number: String,
    left: String,
    operation: Operation,
    right: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Operation {
    Sum,
    Difference,
    Product,
    Ratio,
    /// `b / a` as a percentage
    Percentage,
    /// `(b - a) / a` as a percentage
    Change,
    /// The time between two times of day (`17:30 − 9:00 = 8.5 hours`).
    Duration,
}

impl fmt::Display for Derivation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (l, r, n) = (&self.left, &self.right, &self.number);
        match self.operation {
            Operation::Sum => write!(f, "{l} + {r} = {n}"),
            Operation::Difference => write!(f, "{l} \u{2212} {r} = {n}"),
            Operation::Product => write!(f, "{l} \u{d7} {r} = {n}"),
            Operation::Ratio => write!(f, "{l} / {r} = {n}"),
            Operation::Percentage => write!(f, "{l} / {r} = {n}"),
            Operation::Change => write!(f, "{l} \u{2192} {r}: {n}"),
            Operation::Duration => write!(f, "{l} \u{2212} {r} = {n}"),
        }
    }
}

/// The figure a chunk holds as `value`, for a search: quantities of 2 or more.
pub fn operand(value: &NumberValue) -> Option<f64> {
    value.as_f64().filter(|v| v.abs() >= 2.0)
}

/// The figures for a search: sorted, each once.
pub fn operands(values: impl Iterator<Item = f64>) -> Vec<f64> {
    let mut all: Vec<f64> = values.collect();
    all.sort_by(f64::total_cmp);
    all.dedup();
    all
}

fn is_year(value: f64) -> bool {
    value.fract() == 0.0 && (1000.0..=2100.0).contains(&value)
}

/// Significant digits of the number as written, leading and trailing zeros left out
/// (`600`: 1, `0.25`: 2, `2,054`: 4, `12.50`: 3).
fn significant_digits(text: &str) -> usize {
    let digits: Vec<u8> = text
        .split(|c: char| c.is_alphabetic() || c == '%')
        .next()
        .unwrap_or("")
        .bytes()
        .filter(u8::is_ascii_digit)
        .skip_while(|&b| b == b'0')
        .collect();
    let trailing = digits.iter().rev().take_while(|&&b| b == b'0').count();
    digits.len() - trailing
}

/// Whether the number is written as a percentage.
fn is_percentage(text: &str) -> bool {
    text.ends_with('%') || text.to_ascii_lowercase().contains("percent") || text.ends_with("cent")
}

/// The derivation of `number` from the `operands` (see [`operands`]), if one step gives it.
/// `stated`: the other figures a sentence that shows its arithmetic (`60 items * £10/unit =
/// £600`) writes and its cited chunks hold; its result is derived from them whatever its size
/// (the guards below keep out coincidences among figures the sentence does not combine).
pub fn derive(number: &Number, operands: &[f64], stated: &[f64]) -> Option<Derivation> {
    if number.role != Role::Figure
        || number.value.kind() != Kind::Quantity
        || operands.len() < 2
        || operands.len() > MAX_OPERANDS
    {
        return None;
    }
    let significant = significant_digits(&number.text);
    let percentage = is_percentage(&number.text);
    let target = number.value.as_f64()?;
    // `2,054` with its separator is a count, not a year.
    let count = number.text.contains([',', ' ', '\u{a0}']) && target.fract() == 0.0;
    let year = is_year(target) && !count;
    if year || target == 0.0 {
        return None;
    }
    let tolerance = 0.5 * 10f64.powi(number.precision.clamp(-12, 12) as i32);
    let (low, high) = (target - tolerance, target + tolerance);
    let near = |x: f64| x >= low - 1e-9 * x.abs() && x <= high + 1e-9 * x.abs();
    // Each operation: for a figure `a`, the range of `b` that gives the number.
    let found = |a: &f64, b: &f64, operation: Operation| {
        // A count written with its separator (`2,054`) comes from counts: `1,204` among the
        // operands is no year then.
        let years = if count {
            0
        } else {
            is_year(*a) as u8 + is_year(*b) as u8
        };
        // Three significant digits at least (`5`, `20`, `650` are too easy to hit), or the
        // years between two years; operands of 10 or more; a percentage only from a
        // percentage or a change, and no other figure from them.
        let allowed = match operation {
            Operation::Difference if years == 2 => !percentage && a.fract() == 0.0,
            Operation::Sum | Operation::Difference | Operation::Product | Operation::Ratio => {
                years == 0 && !percentage && significant >= 3
            }
            Operation::Percentage | Operation::Change => {
                years == 0 && percentage && significant >= 3
            }
            // Durations come from `duration` only.
            Operation::Duration => false,
        } && (years == 2 || (a.abs() >= 10.0 && b.abs() >= 10.0));
        let shown = stated.contains(a) && stated.contains(b) && !percentage;
        let allowed = allowed || shown;
        (allowed && !std::ptr::eq(a, b)).then(|| Derivation {
            number: number.text.clone(),
            left: plain(*a),
            operation,
            right: plain(*b),
        })
    };
    let search = |from: f64, to: f64| -> &[f64] {
        let (from, to) = if from <= to { (from, to) } else { (to, from) };
        let start = operands.partition_point(|&o| o < from - 1e-9 * from.abs());
        let end = operands.partition_point(|&o| o <= to + 1e-9 * to.abs());
        &operands[start..end.max(start)]
    };
    for a in operands {
        let v = *a;
        // a + b = n
        for b in search(low - v, high - v) {
            if *b >= v
                && near(v + *b)
                && let Some(d) = found(a, b, Operation::Sum)
            {
                return Some(d);
            }
        }
        // a - b = n
        for b in search(v - high, v - low) {
            if near(v - *b)
                && let Some(d) = found(a, b, Operation::Difference)
            {
                return Some(d);
            }
        }
        if v > 0.0 {
            // a × b = n
            for b in search(low / v, high / v) {
                if *b >= v
                    && near(v * *b)
                    && let Some(d) = found(a, b, Operation::Product)
                {
                    return Some(d);
                }
            }
            // b / a = n, and as a percentage
            for (scale, operation) in [(1.0, Operation::Ratio), (100.0, Operation::Percentage)] {
                for b in search(low * v / scale, high * v / scale) {
                    if near(*b / v * scale)
                        && let Some(d) = found(b, a, operation)
                    {
                        return Some(d);
                    }
                }
            }
            // (b - a) / a = ±n percent
            for sign in [1.0, -1.0] {
                let (from, to) = (
                    v * (1.0 + sign * low / 100.0),
                    v * (1.0 + sign * high / 100.0),
                );
                for b in search(from, to) {
                    if near(((*b - v) / v * 100.0).abs())
                        && let Some(d) = found(a, b, Operation::Change)
                    {
                        return Some(d);
                    }
                }
            }
        }
    }
    None
}

/// The duration `number` states (`unit`: the word after it, `hours` or `minutes`) as the
/// time between two of `times` (times of day in hours, sorted), at the precision it is written.
pub fn duration(number: &Number, unit: &str, times: &[f64]) -> Option<Derivation> {
    let per_hour = match unit.to_ascii_lowercase().as_str() {
        "hour" | "hours" | "hr" | "hrs" | "h" => 1.0,
        "minute" | "minutes" | "min" | "mins" => 60.0,
        _ => return None,
    };
    if number.role != Role::Figure || times.len() < 2 || times.len() > MAX_OPERANDS {
        return None;
    }
    let target = number.value.as_f64()?;
    // A whole number of hours or minutes is exact; a decimal at the precision it is written.
    let tolerance = if number.precision < 0 {
        0.5 * 10f64.powi(number.precision.max(-12) as i32)
    } else {
        0.0
    };
    for (k, &start) in times.iter().enumerate() {
        for &end in &times[k + 1..] {
            let between = (end - start) * per_hour;
            if between > 0.0 && (between - target).abs() <= tolerance + 1e-9 {
                let clock = |hours: f64| {
                    let minutes = (hours * 60.0).round() as u32;
                    format!("{}:{:02}", minutes / 60, minutes % 60)
                };
                return Some(Derivation {
                    number: format!("{} {unit}", number.text),
                    left: clock(end),
                    operation: Operation::Duration,
                    right: clock(start),
                });
            }
        }
    }
    None
}

/// A quantity in plain decimals with thousands separators (`1,204`, `0.25`, `2,100,000`);
/// a year without (`1992`).
fn plain(float: f64) -> String {
    let text = format!("{float}");
    if is_year(float) {
        return text;
    }
    let (integer, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let (sign, integer) = integer
        .strip_prefix('-')
        .map_or(("", integer), |rest| ("-", rest));
    let mut grouped = String::new();
    for (k, c) in integer.chars().enumerate() {
        if k > 0 && (integer.len() - k) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    if fraction.is_empty() {
        format!("{sign}{grouped}")
    } else {
        format!("{sign}{grouped}.{fraction}")
    }
}

/// The unit a figure is written with, normalised (`kilograms` → `kg`), from the words after
/// it: `350 mg`, `350 to 700 mg` (a range takes its last figure's unit), `5–10 mg/kg`.
/// `None` when no word follows.
fn unit_after(text: &str, end: usize) -> Option<(String, Option<String>)> {
    let rest = text.get(end..)?;
    let mut rest = rest.trim_start();
    // A range: `to`, `-`, `–` and the next figure before the unit.
    for joint in ["to ", "–", "-", "—", "and "] {
        if let Some(after) = rest.strip_prefix(joint) {
            let after = after.trim_start();
            let digits = after
                .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))
                .unwrap_or(after.len());
            if digits > 0 {
                rest = after[digits..].trim_start();
            }
            break;
        }
    }
    let word_end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == 'µ'))
        .unwrap_or(rest.len());
    let unit = normal_unit(&rest[..word_end])?;
    let after = rest[word_end..].trim_start();
    let per = after
        .strip_prefix('/')
        .or_else(|| after.strip_prefix("per "))
        .map(str::trim_start)
        .and_then(|p| {
            let e = p
                .find(|c: char| !(c.is_alphanumeric() || c == 'µ'))
                .unwrap_or(p.len());
            normal_unit(&p[..e])
        });
    Some((unit, per))
}

/// A unit word as one spelling: lower case, singular, the usual abbreviation.
fn normal_unit(word: &str) -> Option<String> {
    if word.is_empty() || word.len() > 16 || !word.chars().next()?.is_alphabetic() {
        return None;
    }
    let lower = word.to_lowercase();
    let unit = match lower.as_str() {
        "kilogram" | "kilograms" | "kgs" => "kg",
        "milligram" | "milligrams" | "mgs" => "mg",
        "gram" | "grams" | "gm" => "g",
        "microgram" | "micrograms" | "µg" | "ug" => "mcg",
        "litre" | "litres" | "liter" | "liters" => "l",
        "millilitre" | "millilitres" | "milliliter" | "milliliters" => "ml",
        "pound" | "pounds" | "lbs" => "lb",
        "hour" | "hours" | "hr" | "hrs" => "h",
        "minute" | "minutes" | "mins" => "min",
        "days" => "day",
        "metre" | "metres" | "meter" | "meters" => "m",
        "kilometre" | "kilometres" | "kilometer" | "kilometers" => "km",
        other => other,
    };
    Some(unit.to_string())
}

/// A figure with a unit: its value and text, and its unit (and the unit it is per, for a
/// rate: `mg` per `kg`).
pub struct WithUnit {
    value: f64,
    text: String,
    unit: String,
    per: Option<String>,
}

/// The figures of `numbers` (read from `text`) written with a unit, in order.
fn with_units<'a>(text: &'a str, numbers: &'a [Number]) -> impl Iterator<Item = WithUnit> + 'a {
    numbers
        .iter()
        .filter(|n| n.role == Role::Figure && n.value.kind() == Kind::Quantity)
        .filter_map(|n| {
            let (unit, per) = unit_after(text, n.span.end)?;
            Some(WithUnit {
                value: n.value.as_f64()?,
                text: n.text.clone(),
                unit,
                per,
            })
        })
}

/// Whether a rate could derive a missing figure of the sentence: one of `missing` has a unit,
/// and another figure with a unit stands beside it. Most sentences with a missing figure have
/// no such pair, and their cited chunks are not read again for rates.
pub fn wants_rates(sentence: &str, numbers: &[Number], missing: &[String]) -> bool {
    let mut units = with_units(sentence, numbers).take(MAX_OPERANDS);
    let mut seen = 0;
    let mut result = false;
    for quantity in units.by_ref() {
        seen += 1;
        result |= missing.contains(&quantity.text);
        if seen >= 2 && result {
            return true;
        }
    }
    false
}

/// The rates a chunk states (`5–10 mg/kg`: 5 and 10, `mg` per `kg`), read once per chunk;
/// `None` when it states more than [`MAX_OPERANDS`] (a long page gives nothing).
pub fn rates_of(text: &str, decimal: crate::words::Decimal) -> Option<Vec<WithUnit>> {
    let found = crate::words::numbers_in(text, decimal);
    let rates: Vec<WithUnit> = with_units(text, &found)
        .filter(|r| r.per.is_some())
        .take(MAX_OPERANDS + 1)
        .collect();
    (rates.len() <= MAX_OPERANDS).then_some(rates)
}

/// Figures a sentence gives from a rate that its cited chunks state and a quantity of its own
/// (`for a 70 kg adult, 350 to 700 mg` against `5–10 mg/kg`: `70 kg × 5 mg/kg = 350 mg`), the
/// units agreeing: the result in the rate's unit, the quantity in the unit it is per. Such a
/// figure is no mismatch, nor is the quantity it was derived from (the sentence's own input).
/// `missing`: the sentence's numbers that no cited chunk holds; returns those still missing
/// and the derivations. `chunk_rates`: each cited chunk's [`rates_of`] (`None`: too many).
pub fn by_rate<'r>(
    sentence: &str,
    numbers: &[Number],
    missing: Vec<String>,
    chunk_rates: impl Iterator<Item = Option<&'r [WithUnit]>>,
) -> (Vec<String>, Vec<(String, String)>) {
    let own: Vec<WithUnit> = with_units(sentence, numbers).take(MAX_OPERANDS).collect();
    if missing.is_empty() || own.len() < 2 {
        return (missing, Vec::new());
    }
    let mut rates: Vec<&WithUnit> = Vec::new();
    for found in chunk_rates {
        let Some(found) = found else {
            return (missing, Vec::new());
        };
        rates.extend(found);
        if rates.len() > MAX_OPERANDS {
            return (missing, Vec::new());
        }
    }
    let mut derived = Vec::new();
    let mut inputs = Vec::new();
    for result in own.iter().filter(|r| missing.contains(&r.text)) {
        let Some(number) = numbers.iter().find(|n| n.text == result.text) else {
            continue;
        };
        let tolerance = 0.5 * 10f64.powi(number.precision.clamp(-12, 12) as i32);
        let how = rates.iter().find_map(|rate| {
            let per = rate.per.as_deref()?;
            if rate.unit != result.unit {
                return None;
            }
            own.iter()
                .filter(|q| q.unit == per && q.per.is_none() && q.text != result.text)
                .find(|q| (q.value * rate.value - result.value).abs() <= tolerance + 1e-9)
                .map(|q| {
                    inputs.push(q.text.clone());
                    format!(
                        "{} {} \u{d7} {} {}/{} = {} {}",
                        q.text, q.unit, rate.text, rate.unit, per, result.text, result.unit
                    )
                })
        });
        if let Some(how) = how {
            derived.push((result.text.clone(), how));
        }
    }
    let left = missing
        .into_iter()
        .filter(|m| !derived.iter().any(|(d, _)| d == m) && !inputs.contains(m))
        .collect();
    (left, derived)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::numbers;

    fn derived(sentence: &str, chunk: &str) -> Option<String> {
        let number = numbers(sentence).into_iter().next()?;
        let found = numbers(chunk);
        let list = operands(found.iter().filter_map(|n| operand(&n.value)));
        derive(&number, &list, &[]).map(|d| d.to_string())
    }

    #[test]
    fn a_sentence_that_shows_its_arithmetic_derives_its_result() {
        let number = numbers("£600").into_iter().next().unwrap();
        let list = operands([60.0, 10.0, 15.0, 100.0].into_iter());
        assert_eq!(
            derive(&number, &list, &[60.0, 10.0])
                .map(|d| d.to_string())
                .as_deref(),
            Some("10 \u{d7} 60 = 600")
        );
        // Operands the sentence does not write: guarded as before.
        assert_eq!(derive(&number, &list, &[60.0]), None);
    }

    #[test]
    fn one_step_over_two_figures() {
        assert_eq!(
            derived("6,054 in all", "3,204 in May and 2,850 in June").as_deref(),
            Some("2,850 + 3,204 = 6,054")
        );
        // A count in the years' range, written with its separator.
        assert_eq!(
            derived("2,054 units", "1,204 units and 850 units").as_deref(),
            Some("850 + 1204 = 2,054")
        );
        assert_eq!(
            derived("it lasted 46 years", "from 1946 to 1992").as_deref(),
            Some("1992 \u{2212} 1946 = 46")
        );
        assert_eq!(
            derived("costs £615", "41 items at $15/unit").as_deref(),
            Some("15 \u{d7} 41 = 615")
        );
        assert_eq!(
            derived("a rise of 12.5%", "from 200 to 225 users").as_deref(),
            Some("200 \u{2192} 225: 12.5%")
        );
        assert_eq!(
            derived("a rise of 12.5%", "from 3,000 to 3,374.1 users").as_deref(),
            Some("3,000 \u{2192} 3,374.1: 12.5%")
        );
        assert_eq!(
            derived("a share of 12.5%", "25 of 200 patients").as_deref(),
            Some("25 / 200 = 12.5%")
        );
    }

    #[test]
    fn durations_between_two_times_of_day() {
        let times = [9.0, 17.5];
        let read = |sentence: &str, unit: &str| {
            let number = numbers(sentence).into_iter().next().unwrap();
            duration(&number, unit, &times).map(|d| d.to_string())
        };
        assert_eq!(
            read("8.5 hours", "hours").as_deref(),
            Some("17:30 \u{2212} 9:00 = 8.5 hours")
        );
        assert_eq!(
            read("510 minutes", "minutes").as_deref(),
            Some("17:30 \u{2212} 9:00 = 510 minutes")
        );
        // Whole hours are exact, and only hours and minutes count.
        assert_eq!(read("9 hours", "hours"), None);
        assert_eq!(read("8.5 days", "days"), None);
    }

    #[test]
    fn coincidences_are_guarded() {
        // Round figures: anything is derivable from small numbers.
        assert_eq!(derived("5 cats", "2 dogs and 3 birds"), None);
        assert_eq!(derived("costs £600", "60 items at $10/unit"), None);
        assert_eq!(derived("a 20% discount", "2 plans at $10"), None);
        assert_eq!(derived("a 25% cut", "99 users in 4 teams"), None);
        // Years are no sums, and no percentage comes from two years.
        assert_eq!(derived("up 1%", "from 2020 to 2021"), None);
        assert_eq!(derived("in 2024", "2000 and 24"), None);
        // At the precision written: 12.47 is not 12.5 when the sentence says 12.47.
        assert_eq!(derived("a rise of 12.47%", "from 200 to 225 users"), None);
        // A figure is not used with itself.
        assert_eq!(derived("12 pies", "6 cakes"), None);
        // Too many figures to search.
        let many: String = (0..=MAX_OPERANDS)
            .map(|k| format!("{} ", 100 + 7 * k))
            .collect();
        assert_eq!(derived("a total of 213", &many), None);
    }
}
