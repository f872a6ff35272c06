//! What a number is to its text, beyond its value: a version (compared as a version), a
//! label (`Stage 3`), a name that is no quantity (identifiers, code, URLs, enumerators), and
//! `1 in 5` as the share it states.
//!
//! - A **version** is a number of three or more dotted parts (`3.10.2`), a dotted number
//!   after a `v` of its own (`v2.0`) or after `version`, `release`, `ver.`, or a decimal with a
//!   trailing zero after a capitalised word that does not open the sentence (`Python 3.10`).
//!   Its value is its parts as written: `3.10` is not `3.1`. A chunk holds every plain decimal
//!   as a version too (its `3.10` holds a sentence's `Python 3.10`), and its versions' first
//!   parts as versions and quantities (`3.10.2` holds `3.10`).
//! - A **label** is a number after a label word (`step`, `stage`, `type`, `phase`, `article`,
//!   `section`, `chapter`, `No.`, ...): its value is the word with the number (`stage 3`).
//! - A **name** is a number inside inline code, a URL or an e-mail address; one written onto
//!   letters that are not a unit (`4IR`, `3D`), onto an `_` or `=` (`x86_64`, `burst=5`), or
//!   after a capitalised or short word and a hyphen (`Ka-27`, `COVID-19`, `F-35`); and a list
//!   enumerator (`1.` opening a line, `these steps: 1` ending the text).

use super::{Kind, Number, NumberValue, Role, digit_run};

/// Label words, singular and lower-cased: a number written after one is a label.
const LABEL_WORDS: &[&str] = &[
    "act",
    "amendment",
    "annex",
    "appendix",
    "article",
    "book",
    "canto",
    "category",
    "chapter",
    "class",
    "clause",
    "cohort",
    "episode",
    "exercise",
    "fig",
    "figure",
    "gen",
    "generation",
    "grade",
    "id",
    "item",
    "lesson",
    "level",
    "module",
    "no",
    "para",
    "paragraph",
    "part",
    "phase",
    "question",
    "rhapsody",
    "round",
    "rule",
    "scene",
    "season",
    "section",
    "series",
    "stage",
    "step",
    "table",
    "tier",
    "title",
    "type",
    "verse",
    "vol",
    "volume",
];

/// Words after which a dotted number is a version.
const VERSION_WORDS: &[&str] = &["version", "release", "ver", "v"];

/// Units a number may be written onto (`5km`, `10x`): with any other letters attached, the
/// number is part of a name (`4IR`, `3D`, `5G`).
const UNITS: &[&str] = &[
    "km", "m", "cm", "mm", "nm", "kg", "g", "mg", "mcg", "lb", "lbs", "oz", "t", "l", "L", "ml",
    "mL", "dl", "h", "hr", "hrs", "min", "mins", "s", "sec", "ms", "ns", "d", "y", "yr", "yrs",
    "x", "X", "GB", "MB", "KB", "kB", "TB", "PB", "Gb", "Mb", "kb", "kW", "W", "MW", "GW", "kWh",
    "MWh", "GWh", "TWh", "Wh", "Hz", "kHz", "MHz", "GHz", "V", "kV", "mV", "A", "mA", "mAh", "mph",
    "kph", "kmh", "ft", "in", "yd", "mi", "sq", "pp", "pts", "pt", "cal", "kcal", "J", "kJ", "MJ",
    "N", "Pa", "kPa", "MPa", "bar", "psi", "dB", "am", "pm", "AM", "PM", "BC", "AD", "BCE", "CE",
    "ppm", "ppb", "mol", "mmol", "mmHg", "IU", "hp", "bhp", "cc", "fps", "bit", "bits", "px",
    "dpi", "µg", "µm", "µl", "µL", "μg", "μm", "wt",
];

/// Whether `word` is a unit a number may be written onto.
pub fn is_unit(word: &str) -> bool {
    UNITS.contains(&word)
}

/// A version at `start` (its parts as written) spanning `span`.
pub(super) fn version(
    text: &str,
    span: std::ops::Range<usize>,
    core: std::ops::Range<usize>,
) -> Number {
    let value = NumberValue::tagged(Kind::Version, &text[core]);
    let mut number = Number::figure(text, span, value, 0);
    number.role = Role::Figure;
    number
}

/// The end of a version of three or more parts whose first two `number` reads (as `3.10`),
/// the text going on at `end` with `.` and digits.
pub(super) fn dotted_version_end(text: &str, number: &Number, end: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let (integer, fraction) = number.text.split_once('.')?;
    if integer.is_empty()
        || !integer.bytes().all(|b| b.is_ascii_digit())
        || !fraction.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let mut j = end;
    while bytes.get(j) == Some(&b'.') && bytes.get(j + 1).is_some_and(u8::is_ascii_digit) {
        j = digit_run(bytes, j + 1);
    }
    (j > end).then_some(j)
}

/// A dotted version after a `v` of its own (`v2.0.1`, `V3.1`), its digits starting at `i`.
pub(super) fn version_after_v(text: &str, i: usize) -> Option<(Number, usize)> {
    let bytes = text.as_bytes();
    if i == 0 || !matches!(bytes[i - 1], b'v' | b'V') {
        return None;
    }
    if i >= 2 && (bytes[i - 2].is_ascii_alphanumeric() || bytes[i - 2] >= 0x80) {
        return None;
    }
    let mut j = digit_run(bytes, i);
    let mut parts = 1;
    while bytes.get(j) == Some(&b'.') && bytes.get(j + 1).is_some_and(u8::is_ascii_digit) {
        j = digit_run(bytes, j + 1);
        parts += 1;
    }
    if parts < 2 || bytes.get(j).is_some_and(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    Some((version(text, i - 1..j, i..j), j))
}

/// What a chunk holds for a version: the version and each shorter one of two parts or more
/// (`3.10.2` holds `3.10`).
pub(super) fn version_values(value: &NumberValue, out: &mut Vec<NumberValue>) {
    let text = &value.digits;
    out.push(value.clone());
    let dots: Vec<usize> = text.match_indices('.').map(|(k, _)| k).collect();
    for &k in dots.iter().skip(1) {
        out.push(NumberValue::tagged(Kind::Version, &text[..k]));
    }
}

/// The word of ASCII letters ending at `end`, at most `reach` bytes before it, with where it
/// starts.
fn word_ending(text: &str, end: usize) -> Option<(&str, usize)> {
    let bytes = text.as_bytes();
    let mut start = end;
    while start > 0 && end - start < 24 && bytes[start - 1].is_ascii_alphabetic() {
        start -= 1;
    }
    (start < end).then(|| (&text[start..end], start))
}

/// Whether the word starting at `start` opens the text or a sentence of it.
fn opens_sentence(text: &str, start: usize) -> bool {
    let before = text[..start].trim_end_matches([' ', '\u{a0}', '\t', '*', '_', '"', '(']);
    before.is_empty() || before.ends_with(['.', '!', '?', ':', '\n', '-', '•'])
}

/// The label word before a number at `start` (`Stage 3`, `type-2`, `No. 4`, `#5`), singular
/// and lower-cased.
fn label_before(text: &str, start: usize) -> Option<String> {
    let bytes = text.as_bytes();
    let mut j = start;
    if j > 0 && bytes[j - 1] == b'#' {
        j -= 1;
    }
    let space = if j > 0 && matches!(bytes[j - 1], b' ' | b'-') {
        1
    } else {
        0
    };
    if space == 0 && j == start {
        return None;
    }
    let mut end = j - space;
    let dotted = end > 0 && bytes[end - 1] == b'.';
    if dotted {
        end -= 1;
    }
    let (word, _) = word_ending(text, end)?;
    let lower = word.to_ascii_lowercase();
    if lower == "no" && !dotted && j == start {
        return None; // `no 5 ...` is no label; `No. 5` and `No #5` are
    }
    let singular = match lower.strip_suffix('s') {
        Some(stem) if lower.len() > 3 && LABEL_WORDS.contains(&stem) => stem.to_string(),
        _ => lower,
    };
    LABEL_WORDS.contains(&singular.as_str()).then_some(singular)
}

/// Whether `start..end` lies inside one of the code spans (in order, apart), found by a
/// binary search: trying each span for each number made a line of code spans quadratic.
fn in_code(code: &[(usize, usize)], start: usize, end: usize) -> bool {
    let before = code.partition_point(|&(from, _)| from < start);
    looked_at(usize::BITS as usize - before.leading_zeros() as usize);
    before > 0 && end <= code[before - 1].1
}

/// Byte ranges of the inline code spans (between backticks) of `text`.
fn code_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut open: Option<usize> = None;
    for (k, b) in text.bytes().enumerate() {
        if b == b'`' {
            match open.take() {
                Some(from) => spans.push((from, k)),
                None => open = Some(k),
            }
        }
    }
    spans
}

work_counter!();

/// How far around a number [`Addresses`] looks, in bytes, each way.
const REACH: usize = 200;

/// Whether numbers stand in a URL or an e-mail address: the run of text without spaces around
/// one (looked at up to [`REACH`] bytes each way) has `://`, opens with `www.`, or has an `@` and a
/// letter. Asked for numbers in order, it reads the text once: where the white space and each
/// sign are is looked up from where it was last found (reading 400 bytes around each number
/// made a text of numbers without spaces slow).
struct Addresses<'a> {
    bytes: &'a [u8],
    /// White space before and after, `://`, `@` and letters.
    space_before: LastBefore,
    space_after: NextFrom,
    scheme: NextFrom,
    at_sign: NextFrom,
    letter: NextFrom,
}

impl<'a> Addresses<'a> {
    fn new(text: &'a str) -> Self {
        Addresses {
            bytes: text.as_bytes(),
            space_before: LastBefore::default(),
            space_after: NextFrom::default(),
            scheme: NextFrom::default(),
            at_sign: NextFrom::default(),
            letter: NextFrom::default(),
        }
    }

    /// Whether the number at `start..end` stands in an address.
    fn contain(&mut self, start: usize, end: usize) -> bool {
        let bytes = self.bytes;
        let space = |k: usize| bytes[k].is_ascii_whitespace();
        let run_start = self
            .space_before
            .before(start, REACH, space)
            .map_or(0, |k| k + 1);
        let from = run_start.max(start.saturating_sub(REACH));
        let to = self
            .space_after
            .from(end, bytes.len(), space)
            .min(end + REACH);
        let run = &bytes[from..to];
        run.starts_with(b"www.")
            || self
                .scheme
                .from(from, bytes.len(), |k| bytes[k..].starts_with(b"://"))
                + 3
                <= to
            || (self.at_sign.from(from, bytes.len(), |k| bytes[k] == b'@') < to
                && self
                    .letter
                    .from(from, bytes.len(), |k| bytes[k].is_ascii_alphabetic())
                    < to)
    }
}

/// The first place at or after a given one where a test holds, remembered: asked with places
/// that never go back, each byte is tested once.
#[derive(Default)]
struct NextFrom {
    asked: usize,
    found: Option<usize>,
}

impl NextFrom {
    /// The first `k` in `from..len` where `test(k)` holds, else `len`.
    fn from(&mut self, from: usize, len: usize, test: impl Fn(usize) -> bool) -> usize {
        let found = match self.found {
            Some(found) if self.asked <= from && from <= found => found,
            _ => {
                let found = (from..len).find(|&k| test(k)).unwrap_or(len);
                looked_at(found - from);
                found
            }
        };
        self.asked = from;
        self.found = Some(found);
        found
    }
}

/// The last place before a given one where a test holds, within a reach, remembered: asked
/// with places that never go back, each byte is tested once.
#[derive(Default)]
struct LastBefore {
    read_to: usize,
    found: Option<usize>,
}

impl LastBefore {
    /// The last `k` before `at` where `test(k)` holds, when one is at most `reach` bytes
    /// before it; else none or one further back.
    fn before(&mut self, at: usize, reach: usize, test: impl Fn(usize) -> bool) -> Option<usize> {
        if at < self.read_to {
            self.read_to = at.saturating_sub(reach);
            self.found = None;
        }
        looked_at(at - self.read_to);
        if let Some(k) = (self.read_to..at).rev().find(|&k| test(k)) {
            self.found = Some(k);
        }
        self.read_to = at;
        self.found
    }
}

/// Whether the number at `span` is part of an identifier.
fn in_identifier(text: &str, number: &Number) -> bool {
    let bytes = text.as_bytes();
    let (start, end) = (number.span.start, number.span.end);
    let after = &text[end..];
    // Letters written onto it that are not a unit: `4IR`, `3D`, `5G`, `gpt-4o`. Chinese and
    // Japanese write every number onto the next word (`3776米`, `50岁`).
    let letters: usize = after
        .chars()
        .take_while(|&c| c.is_alphabetic() && !crate::words::is_cjk(c))
        .map(char::len_utf8)
        .sum();
    if letters > 0 && !is_unit(&after[..letters]) {
        return true;
    }
    if matches!(bytes.get(end), Some(b'_' | b'='))
        && bytes
            .get(end + 1)
            .is_some_and(|b| b.is_ascii_alphanumeric())
    {
        return true;
    }
    if start == 0 {
        return false;
    }
    // A subdivision of a code's section written onto it (`501(c)(3)`, `§ 1983(b)(2)`): the
    // number in brackets right after a closing one, or one with a bracketed letter or number
    // written onto it.
    if bytes[start - 1] == b'('
        && start >= 2
        && bytes[start - 2] == b')'
        && bytes.get(end) == Some(&b')')
    {
        return true;
    }
    if bytes.get(end) == Some(&b'(')
        && let Some(close) = text[end + 1..].find(')')
        && (1..=3).contains(&close)
        && text[end + 1..end + 1 + close]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric())
    {
        return true;
    }
    // The edition year of a standard (`ISO 16:1975`, `EN 1090-1:2009`): a year after a colon
    // written onto the number of a standard named by an upper-case acronym.
    if bytes[start - 1] == b':' && number.text.len() == 4 && standard_number_before(text, start - 1)
    {
        return true;
    }
    // An isotope (`carbon-14`, `hassium-277`): a chemical element's name and a hyphen.
    if bytes[start - 1] == b'-'
        && let Some((word, _)) = word_ending(text, start - 1)
        && ELEMENTS
            .binary_search(&word.to_ascii_lowercase().as_str())
            .is_ok()
    {
        return true;
    }
    match bytes[start - 1] {
        b'_' => true,
        b'=' => start >= 2 && bytes[start - 2].is_ascii_alphanumeric(),
        b'-' => word_ending(text, start - 1).is_some_and(|(word, _)| {
            word.len() <= 2 || word.bytes().any(|b| b.is_ascii_uppercase())
        }),
        _ => false,
    }
}

/// Whether a standard's number ends at `end` (`ISO 16`, `EN 1090-1`, `IEC 60601-1`): digits
/// (with hyphenated parts) after an acronym of two to five upper-case letters and a space.
fn standard_number_before(text: &str, end: usize) -> bool {
    let bytes = text.as_bytes();
    let mut j = end;
    while j > 0 && (bytes[j - 1].is_ascii_digit() || bytes[j - 1] == b'-') {
        j -= 1;
    }
    if j == end || !bytes[j].is_ascii_digit() || j < 2 || bytes[j - 1] != b' ' {
        return false;
    }
    word_ending(text, j - 1).is_some_and(|(word, at)| {
        (2..=5).contains(&word.len())
            && word.bytes().all(|b| b.is_ascii_uppercase())
            && (at == 0 || !bytes[at - 1].is_ascii_alphanumeric())
    })
}

/// The chemical elements' names, lower-cased and sorted: a number after one and a hyphen is
/// an isotope's mass number (`carbon-14`), part of its name.
const ELEMENTS: &[&str] = &[
    "actinium",
    "aluminium",
    "aluminum",
    "americium",
    "antimony",
    "argon",
    "arsenic",
    "astatine",
    "barium",
    "berkelium",
    "beryllium",
    "bismuth",
    "bohrium",
    "boron",
    "bromine",
    "cadmium",
    "caesium",
    "calcium",
    "californium",
    "carbon",
    "cerium",
    "cesium",
    "chlorine",
    "chromium",
    "cobalt",
    "copernicium",
    "copper",
    "curium",
    "darmstadtium",
    "dubnium",
    "dysprosium",
    "einsteinium",
    "erbium",
    "europium",
    "fermium",
    "flerovium",
    "fluorine",
    "francium",
    "gadolinium",
    "gallium",
    "germanium",
    "gold",
    "hafnium",
    "hassium",
    "helium",
    "holmium",
    "hydrogen",
    "indium",
    "iodine",
    "iridium",
    "iron",
    "krypton",
    "lanthanum",
    "lawrencium",
    "lead",
    "lithium",
    "livermorium",
    "lutetium",
    "magnesium",
    "manganese",
    "meitnerium",
    "mendelevium",
    "mercury",
    "molybdenum",
    "moscovium",
    "neodymium",
    "neon",
    "neptunium",
    "nickel",
    "nihonium",
    "niobium",
    "nitrogen",
    "nobelium",
    "oganesson",
    "osmium",
    "oxygen",
    "palladium",
    "phosphorus",
    "platinum",
    "plutonium",
    "polonium",
    "potassium",
    "praseodymium",
    "promethium",
    "protactinium",
    "radium",
    "radon",
    "rhenium",
    "rhodium",
    "roentgenium",
    "rubidium",
    "ruthenium",
    "rutherfordium",
    "samarium",
    "scandium",
    "seaborgium",
    "selenium",
    "silicon",
    "silver",
    "sodium",
    "strontium",
    "sulfur",
    "sulphur",
    "tantalum",
    "technetium",
    "tellurium",
    "tennessine",
    "terbium",
    "thallium",
    "thorium",
    "thulium",
    "tin",
    "titanium",
    "tritium",
    "tungsten",
    "uranium",
    "vanadium",
    "xenon",
    "ytterbium",
    "yttrium",
    "zinc",
    "zirconium",
];

/// Whether the number is math notation, not a figure the text states: an exponent of a
/// variable or a base raised to one (`x^2`, `H^1(X)`, `2^n`), a bound or index of a variable
/// (`for k ≥ 3`, `n > 2`, `i = 1 to n`, `3 ≤ k`), or a term added to one (`x^2 + 1`). A
/// variable is one letter standing alone (Latin or Greek), or a word with `^` or `_` in it.
/// Not math: `p < 0.05` (a p-value), `n = 120` (a sample size), a value with a unit after it
/// (`T > 300 K`, `v = 3 m/s`), and a power of a number (`10^6`). Looks at most a few words
/// around the number.
fn math_notation(text: &str, number: &Number) -> bool {
    let (start, end) = (number.span.start, number.span.end);
    let before = window_before(text, start, 24);
    let after = window_after(text, end, 24);
    // `x^2`, `H^1(X)`: an exponent of a variable; `2^n`, `2^-i`: a base raised to one.
    if let Some(base) = before
        .strip_suffix('^')
        .or_else(|| before.strip_suffix("^{"))
    {
        return base.ends_with(|c: char| c.is_alphabetic() || c == ')' || c == '}');
    }
    if let Some(power) = after.strip_prefix('^') {
        let power = power.trim_start_matches(['{', '(', '-']);
        return power.starts_with(|c: char| c.is_alphabetic());
    }
    // The operator and the operand on each side of the number, spaces aside.
    let left = before.trim_end_matches([' ', '\u{a0}', '$']);
    let right = after.trim_start_matches([' ', '\u{a0}', '$']);
    let unit_after = right
        .split(|c: char| !c.is_alphanumeric() && c != '/')
        .next()
        .is_some_and(|w| {
            !w.is_empty()
                && (is_unit(w)
                    || is_unit(&w.to_lowercase())
                    || w.contains('/')
                    || (w.len() <= 2 && w.bytes().all(|b| b.is_ascii_uppercase())))
        });
    // Bounds and indices are whole numbers: `r = 0.87` and `p < 0.05` are statistics.
    let whole = number.value.as_whole().is_some() && !number.text.contains(['.', ',']);
    if let Some((operator, operand)) = operator_before(left)
        && let Some(variable) = variable_at_end(operand)
        && relation_holds(operator, variable, unit_after, whole)
    {
        return true;
    }
    operator_after(right).is_some_and(|(operator, operand)| {
        variable_at_start(operand)
            .is_some_and(|variable| relation_holds(operator, variable, false, whole))
    })
}

/// Whether `operator` between the number and `variable` makes the number math: a comparison
/// (not with `p`, a p-value) or an equation (not with `n`, a sample size, nor before a unit),
/// or a sum or difference with a variable; comparisons and equations with whole numbers only.
fn relation_holds(operator: &str, variable: &str, unit_after: bool, whole: bool) -> bool {
    let single = |letters: &[char]| {
        let mut chars = variable.chars();
        chars
            .next()
            .is_some_and(|c| chars.next().is_none() && letters.contains(&c))
    };
    match operator {
        "≥" | "≤" | ">" | "<" | ">=" | "<=" | "⩾" | "⩽" | "\\geq" | "\\leq" | "\\ge" | "\\le" => {
            whole && !single(&['p', 'P']) && !unit_after
        }
        "=" | "≠" | "!=" | "\\neq" => whole && !single(&['p', 'P', 'n', 'N']) && !unit_after,
        _ => !unit_after,
    }
}

/// The operators read around a number, longest first.
const OPERATORS: &[&str] = &[
    "\\geq", "\\leq", "\\neq", "\\ge", "\\le", ">=", "<=", "!=", "≥", "≤", "⩾", "⩽", "≠", ">", "<",
    "=", "+", "−", "×", "*", "/",
];

/// The operator ending `left` (spaces trimmed) and the text before it, spaces trimmed.
fn operator_before(left: &str) -> Option<(&'static str, &str)> {
    OPERATORS.iter().find_map(|&op| {
        left.strip_suffix(op)
            .map(|rest| (op, rest.trim_end_matches([' ', '\u{a0}'])))
    })
}

/// The operator opening `right` (spaces trimmed) and the text after it, spaces trimmed.
fn operator_after(right: &str) -> Option<(&'static str, &str)> {
    OPERATORS.iter().find_map(|&op| {
        right
            .strip_prefix(op)
            .map(|rest| (op, rest.trim_start_matches([' ', '\u{a0}'])))
    })
}

/// A variable ending `text`: one letter standing alone, or a word with `^` or `_` in it
/// (`x^2`, `a_i`), as written.
fn variable_at_end(text: &str) -> Option<&str> {
    let start = text
        .char_indices()
        .rev()
        .find(|&(_, c)| c.is_whitespace() || c == '(' || c == ',' || c == '$')
        .map_or(0, |(k, c)| k + c.len_utf8());
    is_variable(&text[start..]).then(|| &text[start..])
}

/// A variable opening `text` (see [`variable_at_end`]).
fn variable_at_start(text: &str) -> Option<&str> {
    let end = text
        .find(|c: char| c.is_whitespace() || matches!(c, ')' | ',' | '.' | ';' | ':' | '$'))
        .unwrap_or(text.len());
    is_variable(&text[..end]).then(|| &text[..end])
}

fn is_variable(word: &str) -> bool {
    let mut chars = word.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => c.is_alphabetic() && !crate::words::is_cjk(c),
        (Some(c), Some(_)) => {
            c.is_alphabetic()
                && word.contains(['^', '_'])
                && word
                    .chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '^' | '_' | '{' | '}' | '-'))
        }
        _ => false,
    }
}

/// At most `n` bytes of `text` before `at`, cut at a character boundary.
fn window_before(text: &str, at: usize, n: usize) -> &str {
    let mut from = at.saturating_sub(n);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    &text[from..at]
}

/// At most `n` bytes of `text` after `at`, cut at a character boundary.
fn window_after(text: &str, at: usize, n: usize) -> &str {
    let mut to = (at + n).min(text.len());
    while !text.is_char_boundary(to) {
        to -= 1;
    }
    &text[at..to]
}

/// Whether the number is a list enumerator: `1.` or `1)` opening a line, or a lone number
/// ending the text after a colon (`these steps: 1`). Both look back only over the characters
/// they skip: reading the line up to the number made a long line of numbers quadratic.
fn enumerator(text: &str, number: &Number) -> bool {
    if number.text.len() > 2 || !number.text.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let (start, end) = (number.span.start, number.span.end);
    let before = &text[..start];
    let bullets = before.trim_end_matches([' ', '\t', '-', '*', '•', '>']);
    looked_at(before.len() - bullets.len());
    let opens_line = bullets.is_empty() || bullets.ends_with('\n');
    if opens_line && matches!(text.as_bytes().get(end), Some(b'.' | b')')) {
        let rest = &text[end + 1..];
        if rest.is_empty() || rest.starts_with([' ', '\t', '\n', '\u{a0}']) {
            return true;
        }
    }
    // A lone number on a line of its own that ends the text, its marker blanked before the
    // full stop (`steps:\n\n1[1].`, read as `1   .`): the list's first item, cut off.
    if opens_line {
        let after = text[end..].trim_start_matches(' ');
        if after.len() < text.len() - end && matches!(after, "." | ")") {
            return true;
        }
    }
    let ends_text = text[end..]
        .bytes()
        .all(|b| b.is_ascii_whitespace() || matches!(b, b'.' | b':' | b')' | b'*'));
    ends_text && before.trim_end_matches([' ', '\u{a0}', '*']).ends_with(':')
}

/// The years a decade, a century or a two-digit year stands for, as other values of the
/// number: a chunk that holds one of them holds the number.
///
/// - Two digits and `s` for a decade (`the 60s`, `'40s`, `early 70s`, `60's`: after an
///   apostrophe, `the`, `early`, `mid` or `late`): the decade's first year in the 1900s and,
///   for `00s` to `20s`, the 2000s (`1960`); a chunk's `'40s` holds a sentence's `1940s`.
/// - An apostrophe and two digits (`class of '92`): the year in the 1900s and the 2000s.
/// - In a sentence only (a chunk's decade holds no year of it): a decade written in full
///   (`the 1890s`, `2000's`) is each year of it, and a century the sentence dates something
///   to (`the 19th century`) each year from `1800` to `1899`: a chunk that gives a year in it
///   holds the decade or century. A century that qualifies a noun (`20th-century politics`)
///   characterises, it dates nothing: it is no year of the chunk's.
fn era_values(text: &str, number: &Number, in_chunk: bool) -> Vec<NumberValue> {
    let digits = number
        .text
        .trim_end_matches(|c: char| c.is_ascii_alphabetic());
    if !digits.bytes().all(|b| b.is_ascii_digit()) || !(1..=4).contains(&digits.len()) {
        return Vec::new();
    }
    let (start, end) = (number.span.start, number.span.end);
    let ending = &number.text[digits.len()..];
    let after = &text[end..];
    let plural = ending == "s"
        || (ending.is_empty() && (after.starts_with("'s") || after.starts_with("\u{2019}s")));
    let before = &text[..start];
    let apostrophe = before.ends_with(['\'', '\u{2019}'])
        && before[..before.len() - before.chars().next_back().map_or(0, char::len_utf8)]
            .chars()
            .next_back()
            .is_none_or(|c| c.is_whitespace() || c == '(');
    let Ok(value) = digits.parse::<u64>() else {
        return Vec::new();
    };
    let years = |from: u64, to: u64| (from..=to).map(NumberValue::whole).collect::<Vec<_>>();
    match digits.len() {
        2 if plural && value % 10 == 0 => {
            let word = before
                .trim_end_matches(['-', ' '])
                .rsplit(|c: char| !c.is_ascii_alphabetic())
                .next()
                .unwrap_or("")
                .to_ascii_lowercase();
            if !apostrophe && !matches!(word.as_str(), "the" | "early" | "mid" | "late") {
                return Vec::new();
            }
            let mut out = vec![NumberValue::whole(1900 + value)];
            if value <= 20 {
                out.push(NumberValue::whole(2000 + value));
            }
            out
        }
        2 if apostrophe && ending.is_empty() && !plural => {
            vec![
                NumberValue::whole(1900 + value),
                NumberValue::whole(2000 + value),
            ]
        }
        4 if !in_chunk && plural && value % 10 == 0 && (1000..=2100).contains(&value) => {
            years(value + 1, value + 9)
        }
        1 | 2
            if !in_chunk
                && matches!(ending, "st" | "nd" | "rd" | "th")
                && (1..=21).contains(&value)
                && after.starts_with(" century")
                && before.trim_end().to_ascii_lowercase().ends_with(" the") =>
        {
            years((value - 1) * 100, (value - 1) * 100 + 99)
        }
        _ => Vec::new(),
    }
}

/// Whether the text is an entry of a bibliography, whose numbers (dates, pages, volumes) are
/// the entry's details, not figures it states: it gives where the work is found and when it
/// was read (`[Online]. Available: https://...`, `[Accessed: 14- May- 2021]`, `Retrieved
/// from https://...`), or it is a quoted title, `by` and its authors, and the year ending it
/// (`"The Machine Industry" by D. Shaw and J. T. Simpson, 2017.`).
fn reference_entry(text: &str) -> bool {
    const DETAILS: &[&str] = &[
        "[online]",
        "[accessed",
        "accessed:",
        "available: http",
        "available at: http",
        "retrieved from http",
    ];
    if text.len() > 1000 {
        return false;
    }
    let lower = text.to_ascii_lowercase();
    if DETAILS.iter().any(|d| lower.contains(d)) {
        return true;
    }
    // `"Title" by Authors, 2017.`
    let trimmed = text.trim_start().trim_end_matches([' ', '\n']);
    let Some(rest) = trimmed
        .strip_prefix('"')
        .or_else(|| trimmed.strip_prefix('\u{201c}'))
    else {
        return false;
    };
    let Some(close) = rest.find(['"', '\u{201d}']) else {
        return false;
    };
    let after = &rest[close..];
    let after = &after[after.chars().next().map_or(0, char::len_utf8)..];
    let Some(authors) = after.trim_start_matches(',').strip_prefix(" by ") else {
        return false;
    };
    let Some(head) = authors.strip_suffix('.') else {
        return false;
    };
    let head = head.trim_end();
    head.len() > 6
        && head.is_char_boundary(head.len() - 6)
        && head[head.len() - 6..].starts_with(", ")
        && head[head.len() - 4..].bytes().all(|b| b.is_ascii_digit())
        && matches!(head.as_bytes()[head.len() - 4], b'1' | b'2')
        && head.len() <= 160
}

/// A plain decimal as written (`3.10`), not grouped, scaled or a percentage.
fn plain_decimal(number: &Number) -> bool {
    number.value.kind == Kind::Quantity
        && number.text.split_once('.').is_some_and(|(i, f)| {
            !i.is_empty()
                && !f.is_empty()
                && i.bytes().all(|b| b.is_ascii_digit())
                && f.bytes().all(|b| b.is_ascii_digit())
        })
}

/// Whether a plain decimal is a version by the word before it: `version 3.1`, or a
/// capitalised word not opening the sentence with a trailing zero (`Python 3.10`).
fn named_version(text: &str, number: &Number) -> bool {
    let start = number.span.start;
    if start < 2 || text.as_bytes()[start - 1] != b' ' {
        return false;
    }
    let Some((word, word_start)) = word_ending(text, start - 1) else {
        return false;
    };
    if VERSION_WORDS.contains(&word.to_ascii_lowercase().as_str()) {
        return true;
    }
    // No unit, scale or percent after it (`Falcon 9.50 tonnes` is a weight).
    let next = text[number.span.end..].trim_start();
    let next_word: String = next.chars().take_while(|c| c.is_alphabetic()).collect();
    number.text.ends_with('0')
        && word.bytes().next().is_some_and(|b| b.is_ascii_uppercase())
        && !opens_sentence(text, word_start)
        && !is_unit(&next_word)
        && !next.starts_with('%')
}

/// `1 in 5`: the share as a percentage (rounded to a whole and to one decimal) and a
/// fraction (two decimals).
pub(super) fn share(numerator: u64, denominator: u64) -> Vec<NumberValue> {
    let percent = numerator as f64 * 100.0 / denominator as f64;
    let mut values = vec![
        NumberValue::whole(percent.round() as u64),
        NumberValue::from_parts(&((percent * 10.0).round() as u64).to_string(), "", -1),
        NumberValue::from_parts(&((percent).round() as u64).to_string(), "", -2),
    ];
    values.dedup();
    values
}

/// Roles of the numbers `found` in `text`: names, labels, versions and shares; in a chunk,
/// `extras` get the values it holds beside them (a label's number as a quantity, a decimal
/// as a version).
pub(super) fn annotate(
    text: &str,
    found: &mut [Number],
    mut extras: Option<&mut Vec<NumberValue>>,
) {
    let code = if text.contains('`') {
        code_spans(text)
    } else {
        Vec::new()
    };
    let mut addresses = Addresses::new(text);
    let reference = reference_entry(text);
    for k in 0..found.len() {
        if reference {
            found[k].role = Role::Name;
            continue;
        }
        let number = &found[k];
        if number.role != Role::Figure || !number.also.iter().all(|v| v.kind == Kind::Quantity) {
            continue;
        }
        let (start, end) = (number.span.start, number.span.end);
        let is_name = in_code(&code, start, end)
            || addresses.contain(start, end)
            || (number.value.kind == Kind::Quantity
                && (in_identifier(text, number)
                    || enumerator(text, number)
                    || math_notation(text, number)));
        if is_name {
            found[k].role = Role::Name;
            continue;
        }
        if number.value.kind != Kind::Quantity {
            continue;
        }
        if let Some(word) = label_before(text, start) {
            let label = format!(
                "{word} {}",
                number
                    .text
                    .trim_end_matches(|c: char| c.is_ascii_alphabetic())
            );
            let label = NumberValue::tagged(Kind::Label, &label);
            if let Some(extras) = extras.as_deref_mut() {
                extras.push(std::mem::replace(&mut found[k].value, label));
                extras.push(NumberValue::tagged(Kind::LabelWord, &word));
            } else {
                found[k].value = label;
            }
            found[k].role = Role::Label;
            continue;
        }
        let eras = era_values(text, number, extras.is_some());
        if !eras.is_empty() {
            found[k].also.extend(eras);
            continue;
        }
        if plain_decimal(number) {
            let version = NumberValue::tagged(Kind::Version, &number.text);
            if named_version(text, number) {
                let quantity = std::mem::replace(&mut found[k].value, version);
                if let Some(extras) = extras.as_deref_mut() {
                    extras.push(quantity);
                }
            } else if let Some(extras) = extras.as_deref_mut() {
                extras.push(version);
            }
            continue;
        }
        // `1 in 5`: 20 (percent) and 0.2 as well.
        if let Some(next) = found.get(k + 1)
            && text.get(end..next.span.start) == Some(" in ")
            && let (Some(a), Some(b)) = (number.value.as_whole(), next.value.as_whole())
            && a >= 1
            && a < b
            && b <= 1000
            && next.role == Role::Figure
        {
            let values = share(a, b);
            if let Some(extras) = extras.as_deref_mut() {
                extras.extend(values.iter().cloned());
            }
            found[k].also.extend(values.iter().cloned());
            found[k + 1].also.extend(values);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::numbers;

    fn roles(text: &str) -> Vec<(String, Role, String)> {
        numbers(text)
            .into_iter()
            .map(|n| (n.text, n.role, n.value.to_string()))
            .collect()
    }

    fn role_of(text: &str) -> Vec<Role> {
        numbers(text).into_iter().map(|n| n.role).collect()
    }

    #[test]
    fn names_are_no_quantities() {
        use Role::*;
        assert_eq!(role_of("Set `burst=5` and `limit 7` here"), [Name, Name]);
        assert_eq!(
            role_of("see https://example.com/2024/03/x and www.a.com/7"),
            [Name, Name, Name]
        );
        assert_eq!(role_of("write to team2024@example.com or to 7"), [Figure]);
        assert_eq!(
            role_of("gpt-4o on an H100, 4IR, 3D, x86_64"),
            [Name, Name, Name, Name]
        );
        assert_eq!(
            role_of("the Ka-27 and COVID-19 and F-35"),
            [Name, Name, Name]
        );
        assert_eq!(
            role_of("mid-2020, 5km, 10x faster, 12-year-old, 3 kg"),
            [Figure; 5]
        );
        assert_eq!(role_of("follow these steps: 1"), [Name]);
        assert_eq!(role_of("1. Preheat for 20 minutes"), [Name, Figure]);
        assert_eq!(role_of("it took 3 steps: 1"), [Figure, Name]);
        assert_eq!(role_of("ages 0-25"), [Figure, Figure]);
    }

    #[test]
    fn labels_carry_their_word() {
        let found =
            roles("Stage 3 cancer, type 2 diabetes, Article 5, section 4.2, Steps 1, No. 4, #7");
        let labels: Vec<&str> = found.iter().map(|(_, _, v)| v.as_str()).collect();
        assert_eq!(
            labels,
            [
                "stage 3",
                "type 2",
                "article 5",
                "section 4.2",
                "step 1",
                "no 4",
                "7e0"
            ]
        );
        assert!(found[..6].iter().all(|(_, role, _)| *role == Role::Label));
        assert_eq!(roles("no 5 cats")[0].1, Role::Figure);
    }

    #[test]
    fn versions_compare_as_versions() {
        let value = |text: &str| numbers(text)[0].value.clone();
        assert_eq!(value("with Python 3.10 installed").to_string(), "3.10");
        assert_eq!(value("with Python 3.10 installed").kind(), Kind::Version);
        assert_ne!(
            value("with Python 3.10 installed"),
            value("with Python 3.1 installed")
        );
        assert_eq!(value("upgrade to v2.0.1 now").to_string(), "2.0.1");
        assert_eq!(value("release 3.5.1").to_string(), "3.5.1");
        assert_eq!(value("version 2.1").kind(), Kind::Version);
        // Quantities stay quantities.
        assert_eq!(value("Revenue grew 3.10%").kind(), Kind::Quantity);
        assert_eq!(value("About 2.50 kg").kind(), Kind::Quantity);
        assert_eq!(value("Sales 3.10 billion").kind(), Kind::Quantity);
    }

    #[test]
    fn a_chunk_holds_decimals_as_versions_and_labels_as_quantities() {
        let (_, extras) = crate::words::chunk_numbers(
            "Python 3.10.2 and stage 4 at 1.50",
            crate::words::Decimal::Point,
        );
        let shown: Vec<String> = extras.iter().map(ToString::to_string).collect();
        for value in ["3.10.2", "3.10", "stage", "4e0", "1.50"] {
            assert!(shown.iter().any(|s| s == value), "{value} in {shown:?}");
        }
    }

    #[test]
    fn math_notation_is_no_figure() {
        // Exponents, bases raised to a variable, bounds and indices of a variable, terms added
        // to one: notation, not figures a chunk must hold. Statistics, sample sizes, quantities
        // with a unit, powers of ten and plain figures stay figures.
        let notation = [
            "for k ≥ 3",
            "H^1(X) vanishes",
            "x^2 + 1",
            "bounded by 2^-i",
            "2^n subsets",
            "for n > 2",
            "for i = 1 to n",
            "when 3 ≤ k",
            "$k \\geq 3$",
            "if x != 0",
        ];
        let figures = [
            "p < 0.05",
            "r = 0.87",
            "n = 120 patients",
            "T > 300 K",
            "v = 3 m/s",
            "10^6 cells",
            "rose 3% to 5",
            "a 3 + 4 split",
            "ages 18 to 65",
        ];
        let cases = notation
            .iter()
            .map(|t| (t, Role::Name))
            .chain(figures.iter().map(|t| (t, Role::Figure)));
        for (text, role) in cases {
            let roles = role_of(text);
            assert!(roles.iter().all(|&r| r == role), "{text}: {roles:?}");
        }
    }

    #[test]
    fn a_line_of_numbers_is_read_in_linear_work() {
        // `^1^1^1…` (a line of caret markers) and `` `1` `1` … ``: each number looked back to
        // its line's start for a list enumerator, and through every code span, which made a
        // long line quadratic (issue 38).
        for unit in ["^1", "`1` ", "a 1\n", "1 "] {
            let look = |n: usize| {
                let text = unit.repeat(n);
                looked_at_during(|| assert_eq!(numbers(&text).len(), n, "{unit}"))
            };
            let (small, large) = (look(1_000), look(4_000));
            assert!(
                large <= 5 * small.max(1),
                "{unit}: {small} then {large} bytes: not linear"
            );
        }
        // What the bounded scans still find.
        assert_eq!(role_of("- 1. Preheat"), [Role::Name]);
        assert_eq!(role_of("a\n 1) b"), [Role::Name]);
        assert_eq!(role_of("list: 1"), [Role::Name]);
        assert_eq!(role_of("list:\n1"), [Role::Figure]);
        assert_eq!(role_of("x 1. b"), [Role::Figure]);
        assert_eq!(role_of("`a` `b` `c` and `1` here"), [Role::Name]);
        assert_eq!(role_of("`a` 1 `b` `c`"), [Role::Figure]);
    }

    /// The address test as it was, reading around each number: the reference `Addresses` must
    /// agree with.
    fn in_address_by_reading(text: &str, start: usize, end: usize) -> bool {
        let bytes = text.as_bytes();
        let mut from = start;
        while from > 0 && start - from < REACH && !bytes[from - 1].is_ascii_whitespace() {
            from -= 1;
        }
        let mut to = end;
        while to < bytes.len() && to - end < REACH && !bytes[to].is_ascii_whitespace() {
            to += 1;
        }
        let run = &bytes[from..to];
        run.windows(3).any(|w| w == b"://")
            || run.starts_with(b"www.")
            || (run.contains(&b'@') && run.iter().any(u8::is_ascii_alphabetic))
    }

    #[test]
    fn addresses_read_once_agree_with_reading_around_each_number() {
        let pieces = [
            "1", "22", " ", "\n", "a", "@", "://", "www.", "x/", "^", "-", ".", "é",
        ];
        // Texts from every piece at many places, and runs longer than the reach.
        let mut texts: Vec<String> = Vec::new();
        let mut seed = 7u64;
        for _ in 0..400 {
            let mut text = String::new();
            for _ in 0..(seed % 60) {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let piece = pieces[(seed >> 33) as usize % pieces.len()];
                text.push_str(&piece.repeat(if seed.is_multiple_of(17) { 90 } else { 1 }));
            }
            texts.push(text);
        }
        texts.push(format!("{} 7 {}", "1".repeat(500), "@a"));
        texts.push(format!("http://{}1{}", "x".repeat(199), "2".repeat(300)));
        for text in &texts {
            let found = numbers(text);
            let mut addresses = Addresses::new(text);
            for n in &found {
                assert_eq!(
                    addresses.contain(n.span.start, n.span.end),
                    in_address_by_reading(text, n.span.start, n.span.end),
                    "{text:?} at {:?}",
                    n.span
                );
            }
        }
    }

    #[test]
    fn designations_and_list_items_are_no_figures() {
        use Role::*;
        // Quieted: a list's first item cut off with its marker blanked, a passage's id, a
        // code section's subdivision, a standard's edition year, an isotope.
        assert_eq!(role_of("follow these steps:\n\n1   ."), [Name]);
        assert_eq!(role_of("Quadrature Decoder Software\n5    ."), [Name]);
        assert_eq!(role_of("the study in Passage ID 1 found"), [Label]);
        assert_eq!(role_of("a 501(c)(3) organization"), [Name, Name]);
        assert_eq!(role_of("the standard ISO 16:1975 sets"), [Figure, Name]);
        assert_eq!(
            role_of("its isotope hassium-277 and carbon-14"),
            [Name, Name]
        );
        // Near cases stay figures: a line that goes on, a bracket after a space, a ratio with
        // no standard's acronym, a hyphenated word that names no element.
        assert_eq!(role_of("follow these steps:\n\n1 apple ."), [Figure]);
        assert_eq!(role_of("won 3 (c) and 4"), [Figure, Figure]);
        assert_eq!(role_of("a ratio of 16:1975 here"), [Figure, Figure]);
        assert_eq!(
            role_of("a pre-1990 law and Brand 16:1975"),
            [Figure, Figure, Figure]
        );
    }

    #[test]
    fn bibliography_entries_state_no_figures() {
        use Role::*;
        assert_eq!(role_of("[Accessed: 14- May- 2021].   "), [Name, Name]);
        assert_eq!(
            role_of("H&R Block, 2021. [Online]. Available: https://www.hrblock.com/x"),
            [Name]
        );
        assert_eq!(
            role_of("\"The Machine Industry\" by D. Shaw, D. D. Gray, and J. T. Simpson, 2017.   "),
            [Name]
        );
        // A quoted title in a sentence that states figures.
        assert_eq!(
            role_of("\"Thriller\" by Michael Jackson sold 70 million copies in 1982."),
            [Figure, Figure]
        );
        assert_eq!(
            role_of("\"Thriller\" by Michael Jackson, released 1982 at No 1."),
            [Figure, Figure]
        );
    }

    #[test]
    fn decades_centuries_and_two_digit_years_hold_their_years() {
        let also = |text: &str| -> Vec<String> {
            numbers(text)
                .iter()
                .flat_map(|n| n.also.iter().map(ToString::to_string))
                .collect()
        };
        let year = |y: u64| NumberValue::whole(y).to_string();
        assert!(also("in the 60s bowlers").contains(&year(1960)));
        assert!(also("in the early '40s").contains(&year(1940)));
        assert!(also("the class of '92 turned").contains(&year(1992)));
        assert!(also("in the late 1890s he").contains(&year(1897)));
        assert!(also("in the 2000's it").contains(&year(2001)));
        assert!(also("in the 19th century farmers").contains(&year(1845)));
        // Ages, a plain count, a year, a ordinal that is no century: no years.
        assert!(also("people in their 60s").is_empty());
        assert!(also("he ran 60s and 1890 laps, 1995, the 19th floor").is_empty());
        assert!(also("a moment in 20th-century politics").is_empty());
        // A chunk's two-digit decade holds the decade; its decade in full holds no year of it.
        let held = |text: &str| -> Vec<String> {
            let (found, extras) = crate::words::chunk_numbers(text, crate::words::Decimal::Point);
            found
                .iter()
                .flat_map(|n| n.also.iter().chain([&n.value]))
                .chain(&extras)
                .map(ToString::to_string)
                .collect()
        };
        assert!(held("early '70s German music").contains(&year(1970)));
        assert!(held("the early 70s German music").contains(&year(1970)));
        assert!(!held("in the 1890s").contains(&year(1895)));
    }

    #[test]
    fn one_in_five_is_twenty_percent() {
        let found = numbers("one patient in 10, 1 in 5 adults");
        let also: Vec<String> = found[1].also.iter().map(ToString::to_string).collect();
        assert!(also.contains(&"2e1".to_string()), "{also:?}");
    }
}
