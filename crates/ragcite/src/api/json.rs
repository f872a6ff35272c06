//! JSON read strictly: a key given twice in one object is an error, where serde_json would keep
//! the last one silently. One pass over the text, each key checked as it is inserted, as deep as
//! serde_json's recursion limit (128 levels) lets any reading go.

use std::cell::{Cell, RefCell};
use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// The longest key or field name an error message repeats, in characters.
pub const MAX_SHOWN_CHARS: usize = 200;

/// Why a text is not strict JSON.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JsonError {
    /// Not JSON at all (or nested deeper than the recursion limit).
    #[error("{0}")]
    Syntax(String),
    /// A key given twice in one object; `path` names the object (its keys and array indices
    /// from the top, empty for the top-level object).
    #[error("the key `{}` is given more than once{}", shown(.key), within(.path))]
    Duplicate { path: Vec<String>, key: String },
    /// More values than [`parse_unique_within`] was given.
    #[error("the text holds more than {0} JSON values")]
    TooManyValues(usize),
}

fn within(path: &[String]) -> String {
    if path.is_empty() {
        String::new()
    } else {
        let names: Vec<String> = path.iter().map(|p| shown(p)).collect();
        format!(" in `{}`", names.join("."))
    }
}

/// `text` as an error message repeats it: at most [`MAX_SHOWN_CHARS`] characters, then `…`.
pub fn shown(text: &str) -> String {
    match text.char_indices().nth(MAX_SHOWN_CHARS) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}…", &text[..cut]),
    }
}

/// `text` as a JSON string on one line that shows every character it holds: quotes,
/// backslashes, control characters, line and paragraph separators, and the invisible or
/// direction-changing ones (bidi controls, zero-width characters, variation selectors, tag
/// characters) escaped as `\uXXXX`, so that a name read by a person or a model cannot pass for
/// something else.
pub fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if is_invisible(c) => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Characters that show nothing, or change how the text around them shows: those a terminal
/// never gets raw ([`crate::escape::hidden`]), and those that hide text in a name (a soft
/// hyphen, fillers, variation selectors, tag characters) which a terminal may still show.
fn is_invisible(c: char) -> bool {
    crate::escape::hidden(c)
        || matches!(c,
            '\u{00AD}' | '\u{034F}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
            | '\u{180B}'..='\u{180F}' | '\u{2060}'..='\u{206F}' | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}' | '\u{FFA0}' | '\u{FFF0}'..='\u{FFFB}'
            | '\u{1D173}'..='\u{1D17A}' | '\u{E0000}'..='\u{E0FFF}')
}

/// Parses `bytes` as one JSON value, refusing a key given twice in any object.
pub fn parse_unique(bytes: &[u8]) -> Result<Value, JsonError> {
    parse_unique_within(bytes, usize::MAX)
}

/// [`parse_unique`] of a text of at most `limit` values (objects, arrays, keys, strings,
/// numbers, ...): past it, [`JsonError::TooManyValues`] before more is built, so that what is
/// built stays a few times the size of a small message whatever the text holds.
pub fn parse_unique_within(bytes: &[u8], limit: usize) -> Result<Value, JsonError> {
    let duplicate = RefCell::new(None);
    let count = Cell::new(0);
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value = Unique {
        duplicate: &duplicate,
        count: &count,
        limit,
    }
    .deserialize(&mut deserializer)
    .and_then(|value| deserializer.end().map(|()| value));
    match (value, duplicate.into_inner()) {
        (_, Some((path, key))) => Err(JsonError::Duplicate { path, key }),
        (Ok(value), None) => Ok(value),
        (Err(_), None) if count.get() > limit => Err(JsonError::TooManyValues(limit)),
        (Err(e), None) => Err(JsonError::Syntax(e.to_string())),
    }
}

/// The value of `key` in an object of which only the start is known (a message cut at a size
/// limit), if the start holds the key before it is cut; keys before it are skipped unbuilt.
pub fn key_in_start(start: &[u8], key: &str) -> Option<Value> {
    struct Find<'a> {
        key: &'a str,
        found: &'a mut Option<Value>,
    }
    impl<'de> Visitor<'de> for Find<'_> {
        type Value = ();
        fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
            formatter.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            while let Some(key) = map.next_key::<String>()? {
                if key == self.key {
                    *self.found = Some(map.next_value::<Value>()?);
                    return Ok(());
                }
                map.next_value::<de::IgnoredAny>()?;
            }
            Ok(())
        }
    }
    let mut found = None;
    let _ = de::Deserializer::deserialize_map(
        &mut serde_json::Deserializer::from_slice(start),
        Find {
            key,
            found: &mut found,
        },
    );
    found
}

/// Builds a value as serde_json's own does, and stops at the first duplicate key, noting it
/// (and, as the error goes up, the path to it) in `duplicate`.
#[derive(Clone, Copy)]
struct Unique<'a> {
    duplicate: &'a RefCell<Option<(Vec<String>, String)>>,
    /// Values read so far, and how many may be.
    count: &'a Cell<usize>,
    limit: usize,
}

impl Unique<'_> {
    /// One more value read: an error past the limit.
    fn tick<E: de::Error>(self) -> Result<(), E> {
        self.count.set(self.count.get() + 1);
        if self.count.get() > self.limit {
            Err(E::custom("too many values"))
        } else {
            Ok(())
        }
    }

    /// On the way up from a duplicate: `segment` is one more step of its path.
    fn note(self, segment: impl FnOnce() -> String) {
        if let Some((path, _)) = self.duplicate.borrow_mut().as_mut() {
            path.insert(0, segment());
        }
    }
}

impl<'de> DeserializeSeed<'de> for Unique<'_> {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Unique<'_> {
    type Value = Value;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<Value, E> {
        self.tick()?;
        Ok(Value::Bool(value))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Value, E> {
        self.tick()?;
        Ok(Value::Number(value.into()))
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Value, E> {
        self.tick()?;
        Ok(Value::Number(value.into()))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Value, E> {
        self.tick()?;
        Ok(Number::from_f64(value).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<Value, E> {
        self.tick()?;
        Ok(Value::String(value.to_string()))
    }

    fn visit_string<E: de::Error>(self, value: String) -> Result<Value, E> {
        self.tick()?;
        Ok(Value::String(value))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        self.tick()?;
        Ok(Value::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        self.tick()?;
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        self.tick()?;
        let mut items = Vec::new();
        loop {
            match seq.next_element_seed(self) {
                Ok(Some(item)) => items.push(item),
                Ok(None) => return Ok(Value::Array(items)),
                Err(e) => {
                    self.note(|| items.len().to_string());
                    return Err(e);
                }
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        self.tick()?;
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            self.tick()?;
            if object.contains_key(&key) {
                *self.duplicate.borrow_mut() = Some((Vec::new(), key));
                return Err(de::Error::custom("a key is given more than once"));
            }
            match map.next_value_seed(self) {
                Ok(value) => {
                    object.insert(key, value);
                }
                Err(e) => {
                    self.note(|| key);
                    return Err(e);
                }
            }
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_past_the_limit_are_refused_before_they_are_built() {
        // An object, its key and its two-item array: five values.
        let text = br#"{"a": [1, "b"]}"#;
        assert!(parse_unique_within(text, 5).is_ok());
        assert_eq!(
            parse_unique_within(text, 4),
            Err(JsonError::TooManyValues(4))
        );
        let zeros = format!("[{}0]", "0,".repeat(100_000));
        assert_eq!(
            parse_unique_within(zeros.as_bytes(), 10_000),
            Err(JsonError::TooManyValues(10_000))
        );
        assert!(matches!(
            parse_unique_within(b"[1,", 10),
            Err(JsonError::Syntax(_))
        ));
    }

    fn duplicate(text: &str) -> (Vec<String>, String) {
        match parse_unique(text.as_bytes()) {
            Err(JsonError::Duplicate { path, key }) => (path, key),
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn values_are_read_as_serde_json_reads_them() {
        let text = r#"{"a": [1, -2, 3.5, "x", null, true, {"b": {}}], "c": "\u00e9"}"#;
        let expected: Value = serde_json::from_str(text).expect("JSON");
        assert_eq!(parse_unique(text.as_bytes()), Ok(expected));
        assert_eq!(parse_unique(b" 7 "), Ok(Value::from(7)));
    }

    #[test]
    fn a_key_given_twice_is_named_with_its_path() {
        assert_eq!(duplicate(r#"{"a": 1, "a": 2}"#), (vec![], "a".to_string()));
        let (path, key) = duplicate(r#"{"params": {"arguments": [{}, {"q": 1, "q": 1}]}}"#);
        assert_eq!(path, ["params", "arguments", "1"]);
        assert_eq!(key, "q");
        let error = parse_unique(br#"{"p": {"x\"y": 1, "x\"y": 1}}"#).expect_err("duplicate");
        assert_eq!(
            error.to_string(),
            "the key `x\"y` is given more than once in `p`"
        );
        // The same key in two objects is no duplicate.
        assert!(parse_unique(br#"[{"a": 1}, {"a": 2}]"#).is_ok());
    }

    #[test]
    fn malformed_deep_and_trailing_texts_are_syntax_errors() {
        for text in ["{", "[1,]", "{} x", "\"\\ud800\"x", ""] {
            assert!(
                matches!(parse_unique(text.as_bytes()), Err(JsonError::Syntax(_))),
                "{text:?}"
            );
        }
        let deep = "[".repeat(10_000);
        assert!(matches!(
            parse_unique(deep.as_bytes()),
            Err(JsonError::Syntax(_))
        ));
        assert!(matches!(
            parse_unique(b"{\"a\": \"\xff\"}"),
            Err(JsonError::Syntax(_))
        ));
    }

    #[test]
    fn long_keys_are_shown_by_their_beginning() {
        let key = "é".repeat(1_000);
        let shown = shown(&key);
        assert_eq!(shown.chars().count(), MAX_SHOWN_CHARS + 1);
        assert!(shown.ends_with('…'));
    }

    #[test]
    fn a_key_is_found_in_the_start_of_a_cut_object() {
        let found = |text: &str| key_in_start(text.as_bytes(), "id");
        assert_eq!(
            found(r#"{"jsonrpc": "2.0", "id": 3, "params": {"a": "xx"#),
            Some(3.into())
        );
        assert_eq!(
            found(r#"{"x": [1, {"id": 2}], "id": "a-1", "params""#),
            Some("a-1".into())
        );
        assert_eq!(found(r#"{"params": {"a": "xxxxxxx"#), None);
        assert_eq!(found("\u{ff}"), None);
    }

    #[test]
    fn quoted_names_show_every_character_on_one_line() {
        assert_eq!(quoted("a.md"), "\"a.md\"");
        assert_eq!(quoted("é 2024/q3.md"), "\"é 2024/q3.md\"");
        assert_eq!(
            quoted("a\"b\\c\nd\u{7}\u{85}\u{2028}\u{202E}\u{200B}\u{E0041}"),
            "\"a\\\"b\\\\c\\nd\\u0007\\u0085\\u2028\\u202e\\u200b\\udb40\\udc41\""
        );
        // What it gives is a JSON string of the same text.
        let text = "x\u{202E}\n\u{E0041}\"";
        assert_eq!(
            serde_json::from_str::<String>(&quoted(text)).expect("JSON"),
            text
        );
    }
}
