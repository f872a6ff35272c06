//! Text from the inputs made safe to write, in one place for every output and the command
//! line's errors.
//!
//! For a terminal or a log ([`printable`], [`printable_line`]): control characters (C0, DEL,
//! C1: an escape sequence could retitle the terminal, clear it or plant a link), bidirectional
//! controls (which reorder what is shown) and invisible characters (which hide text) become
//! visible `\u{…}` escapes, as Rust writes them.
//!
//! For JSON ([`to_writer`], [`to_vec_pretty`], ...): U+0085, U+2028 and U+2029, which JSON
//! allows raw in strings but which readers that split on Unicode line ends (Python's
//! `str.splitlines`, some JavaScript) take for line breaks, are written as `\u0085`,
//! `\u2028` and `\u2029`, so that one JSON Lines record is one line for every reader.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io;

use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter, PrettyFormatter, Serializer};

/// Whether a character must not reach a terminal or a log as it is: a control character, a
/// bidirectional control (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), an invisible
/// character (U+200B–U+200D, U+2060–U+2064, U+FEFF) or a line or paragraph separator (U+2028,
/// U+2029).
pub fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{2069}'
                | '\u{FEFF}'
        )
}

/// Appends the visible form of a [`hidden`] character: `\u{1b}`, `\u{202e}`.
pub fn push_escape(out: &mut String, c: char) {
    let _ = write!(out, "{}", c.escape_unicode());
}

/// Text made safe for a terminal: every [`hidden`] character but the line break written as
/// its `\u{…}` escape. Line breaks stay (a table cell uses them for its lines).
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c != '\n' && hidden(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if c != '\n' && hidden(c) {
            push_escape(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Text made safe for one line of a terminal (an error or a warning): a line break, a carriage
/// return or a tab becomes a space, every other [`hidden`] character its `\u{…}` escape.
pub fn printable_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' | '\r' | '\t' => out.push(' '),
            c if hidden(c) => push_escape(&mut out, c),
            c => out.push(c),
        }
    }
    out
}

/// At most `max` characters of `text`, the last of them `…` when it was longer. Unlike the
/// report's `preview` it keeps the text's spaces and line breaks.
pub fn cut(text: &str, max: usize) -> Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => Cow::Borrowed(text),
        Some(_) => {
            let keep = text
                .char_indices()
                .nth(max.saturating_sub(1))
                .map_or(text.len(), |(at, _)| at);
            Cow::Owned(format!("{}…", &text[..keep]))
        }
    }
}

/// JSON that another writer serialised (an MCP library's messages) with U+0085, U+2028 and
/// U+2029 written as `\u` escapes, as [`LineSafe`] writes them. Their UTF-8 bytes can stand
/// only inside strings of a JSON text, so replacing them there is enough.
pub fn line_safe_json(json: &[u8]) -> Cow<'_, [u8]> {
    let raw = |at: usize| match json[at..] {
        [0xC2, 0x85, ..] => Some((2, "\\u0085")),
        [0xE2, 0x80, 0xA8, ..] => Some((3, "\\u2028")),
        [0xE2, 0x80, 0xA9, ..] => Some((3, "\\u2029")),
        _ => None,
    };
    if !(0..json.len()).any(|at| raw(at).is_some()) {
        return Cow::Borrowed(json);
    }
    let mut out = Vec::with_capacity(json.len() + 16);
    let mut at = 0;
    while at < json.len() {
        match raw(at) {
            Some((len, escape)) => {
                out.extend_from_slice(escape.as_bytes());
                at += len;
            }
            None => {
                out.push(json[at]);
                at += 1;
            }
        }
    }
    Cow::Owned(out)
}

/// A serde_json formatter that writes U+0085, U+2028 and U+2029 in strings as `\u` escapes,
/// and everything else as the formatter it wraps.
#[derive(Debug, Clone)]
pub struct LineSafe<F>(pub F);

impl<F: Formatter> Formatter for LineSafe<F> {
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        // The three characters' UTF-8 starts with 0xC2 or 0xE2: most fragments hold neither,
        // and a byte scan is cheaper than decoding characters.
        if !fragment.bytes().any(|b| b == 0xC2 || b == 0xE2) {
            return self.0.write_string_fragment(writer, fragment);
        }
        let mut rest = fragment;
        while let Some(at) = rest.find(['\u{0085}', '\u{2028}', '\u{2029}']) {
            self.0.write_string_fragment(writer, &rest[..at])?;
            let c = rest[at..].chars().next().unwrap_or_default();
            write!(writer, "\\u{:04x}", u32::from(c))?;
            rest = &rest[at + c.len_utf8()..];
        }
        self.0.write_string_fragment(writer, rest)
    }

    // The formatters' state (the pretty printer's indentation) lives in the wrapped one.
    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn end_object_key<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_key(w)
    }
    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_value(w)
    }
}

/// `value` as compact JSON (one line) to `writer`, line ends escaped.
pub fn to_writer<W: io::Write, T: Serialize + ?Sized>(
    writer: W,
    value: &T,
) -> serde_json::Result<()> {
    value.serialize(&mut Serializer::with_formatter(
        writer,
        LineSafe(CompactFormatter),
    ))
}

/// `value` as pretty-printed JSON to `writer`, line ends escaped.
pub fn to_writer_pretty<W: io::Write, T: Serialize + ?Sized>(
    writer: W,
    value: &T,
) -> serde_json::Result<()> {
    value.serialize(&mut Serializer::with_formatter(
        writer,
        LineSafe(PrettyFormatter::new()),
    ))
}

/// `value` as compact JSON, line ends escaped.
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    let mut bytes = Vec::new();
    to_writer(&mut bytes, value)?;
    // Only valid UTF-8 is written.
    String::from_utf8(bytes).map_err(|e| serde_json::Error::io(io::Error::other(e)))
}

/// `value` as pretty-printed JSON, line ends escaped.
pub fn to_vec_pretty<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    to_writer_pretty(&mut bytes, value)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialised_json_gets_its_unicode_line_ends_escaped() {
        let json = serde_json::to_vec(&"a\u{85}b\u{2028}c\u{2029}d é").unwrap();
        let safe = line_safe_json(&json);
        let text = std::str::from_utf8(&safe).unwrap();
        assert_eq!(text, r#""a\u0085b\u2028c\u2029d é""#);
        assert_eq!(text.lines().count(), 1);
        let back: String = serde_json::from_slice(&safe).unwrap();
        assert_eq!(back, "a\u{85}b\u{2028}c\u{2029}d é");
        assert!(matches!(line_safe_json(b"{}"), Cow::Borrowed(_)));
    }

    #[test]
    fn printable_escapes_controls_bidi_and_invisible_characters() {
        let text = "a\u{1b}]0;t\u{7}b\u{9b}c\u{202e}d\u{2066}e\u{200b}f\u{feff}g\u{61c}h\ni\tj";
        assert_eq!(
            printable(text),
            "a\\u{1b}]0;t\\u{7}b\\u{9b}c\\u{202e}d\\u{2066}e\\u{200b}f\\u{feff}g\\u{61c}h\ni\\u{9}j"
        );
        assert!(matches!(printable("plain\ntext é 中"), Cow::Borrowed(_)));
        assert_eq!(
            printable_line("a\nb\r\tc\u{1b}[2J\u{2028}"),
            "a b  c\\u{1b}[2J\\u{2028}"
        );
    }

    #[test]
    fn every_listed_character_is_hidden() {
        let listed = [
            0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f,
            0x061c, 0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0x85, 0x2028, 0x2029, 0x9b, 0x7f, 0x7,
        ];
        for c in listed {
            assert!(hidden(char::from_u32(c).unwrap()), "U+{c:04X}");
        }
        for c in ['a', ' ', 'é', '中', '…', '\u{2010}', '\u{2070}', '😀'] {
            assert!(!hidden(c), "{c:?}");
        }
    }

    #[test]
    fn cut_keeps_at_most_max_characters() {
        assert_eq!(cut("abc", 3), "abc");
        assert_eq!(cut("abcd", 3), "ab…");
        assert_eq!(cut("é中😀x", 3), "é中…");
        assert_eq!(cut("a\nb c", 10), "a\nb c");
        assert_eq!(cut(&"x".repeat(1_000_000), 40).chars().count(), 40);
    }

    #[test]
    fn json_line_ends_are_escaped_and_read_back() {
        let value = serde_json::json!({"a\u{2028}": ["x\u{85}y\u{2029}z", "\u{2028}"], "b": "é\n"});
        for text in [
            to_string(&value).unwrap(),
            String::from_utf8(to_vec_pretty(&value).unwrap()).unwrap(),
        ] {
            assert!(!text.contains(['\u{85}', '\u{2028}', '\u{2029}']), "{text}");
            assert!(text.contains("x\\u0085y\\u2029z"), "{text}");
            let back: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(back, value);
        }
        // The pretty printer still indents.
        let pretty = String::from_utf8(to_vec_pretty(&value).unwrap()).unwrap();
        assert_eq!(
            pretty,
            serde_json::to_string_pretty(&value)
                .unwrap()
                .replace('\u{85}', "\\u0085")
                .replace('\u{2028}', "\\u2028")
                .replace('\u{2029}', "\\u2029")
        );
    }
}
