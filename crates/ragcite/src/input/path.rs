//! The path language of format profiles, `--answer-path`, `--sources-path`, `batch --field` and
//! `eval --group-by`: where a value is inside a JSON document.
//!
//! A path is steps separated by `.`:
//!
//! - `key` descends into an object. A key may itself hold dots (`mlflow.spanType`, as dataframe
//!   columns and OTel attributes are named): at each object the longest run of steps that is one
//!   of its keys wins. `["a.b"]` names such a key explicitly.
//! - `[]` is every item of an array; `*` every value of an object (in the document's order).
//! - `[2]` is the third item, `[-1]` the last.
//! - `[?type=text]` keeps the items of an array whose `type` (any path) is the string `text` (or
//!   the number, or the boolean, written so); `[?score]` those where it exists and is not null.
//! - `^` is the object that holds the current one (the attribution that holds a segment).
//! - `@` is the current value itself (for items that are strings).
//! - `[$key]` is the value, in an object, under the key by which `*` reached the current item
//!   (STORM's `url_to_unified_index[$key]` for the page an item of `url_to_info.*` is).
//!
//! A path selects every value it reaches, in document order: `results[].id` gives one value per
//! result that has an `id`. Selecting is one walk over the part of the document the path names;
//! no value is copied.

use serde_json::Value;

/// The longest path accepted: paths are written by people.
pub const MAX_PATH_LEN: usize = 512;

/// One step of a path.
#[derive(Debug, Clone, PartialEq)]
enum Step {
    Key(String),
    Each,
    Values,
    Index(i64),
    Filter(Path, Option<String>),
    Parent,
    Here,
    ItemKey,
}

/// A parsed path.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Path {
    steps: Vec<Step>,
    text: String,
}

/// A value a path reached, with the objects that hold it (outermost first), so that a path
/// relative to it can step out with `^`.
#[derive(Debug, Clone)]
pub struct Found<'v> {
    pub value: &'v Value,
    holders: Vec<&'v Value>,
    /// The key by which the last `*` reached it.
    key: Option<&'v str>,
}

impl<'v> Found<'v> {
    /// The document itself, as a starting point.
    pub fn root(value: &'v Value) -> Self {
        Found {
            value,
            holders: Vec::new(),
            key: None,
        }
    }

    /// The key by which the last `*` of the path reached it.
    pub fn key(&self) -> Option<&'v str> {
        self.key
    }
}

impl std::fmt::Display for Path {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

impl Path {
    /// Parses `text`; the error says what is wrong with it.
    pub fn parse(text: &str) -> Result<Path, String> {
        if text.len() > MAX_PATH_LEN {
            return Err(format!("it is longer than {MAX_PATH_LEN} bytes"));
        }
        let mut steps = Vec::new();
        let mut rest = text.trim();
        if rest.is_empty() {
            return Err("it is empty".to_string());
        }
        let mut expect_step = true;
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix('[') {
                let (inside, after) = bracket(after)?;
                steps.push(inside);
                rest = after;
                expect_step = false;
                continue;
            }
            if !expect_step {
                rest = rest
                    .strip_prefix('.')
                    .ok_or_else(|| format!("`{rest}` should follow a `.`"))?;
                expect_step = true;
                continue;
            }
            let end = rest.find(['.', '[']).unwrap_or(rest.len());
            let word = &rest[..end];
            steps.push(match word {
                "" => return Err("it has an empty step (`..` or a leading `.`)".to_string()),
                "^" => Step::Parent,
                "*" => Step::Values,
                "@" => Step::Here,
                key => Step::Key(key.to_string()),
            });
            rest = &rest[end..];
            expect_step = false;
        }
        if expect_step {
            return Err("it ends with `.`".to_string());
        }
        Ok(Path {
            steps,
            text: text.trim().to_string(),
        })
    }

    /// Every value the path reaches from `at`, in document order.
    pub fn select<'v>(&self, at: &Found<'v>) -> Vec<Found<'v>> {
        select_steps(&self.steps, at)
    }

    /// The value at the path as one JSON value, as a record's field is read (`--field`,
    /// `--group-by`): without `[]`, `*` or a filter, the first value it reaches; with one, the
    /// values each item gives, gathered in an array (an array per such step, nested as the
    /// steps are), and none when the array or object it goes over is not there.
    pub fn gather(&self, value: &Value) -> Option<Value> {
        gather_steps(&self.steps, &Found::root(value))
    }

    /// The first value the path reaches from `value` that is not null.
    pub fn first<'v>(&self, at: &Found<'v>) -> Option<&'v Value> {
        self.select(at)
            .into_iter()
            .map(|f| f.value)
            .find(|v| !v.is_null())
    }

    /// Whether the path reaches a value that is not null.
    pub fn exists(&self, at: &Found<'_>) -> bool {
        self.first(at).is_some()
    }

    /// Whether every step names an object key (no array, parent or filter step): such a path
    /// names one place.
    pub fn is_plain(&self) -> bool {
        self.steps.iter().all(|s| matches!(s, Step::Key(_)))
    }
}

fn select_steps<'v>(steps: &[Step], at: &Found<'v>) -> Vec<Found<'v>> {
    let mut out = Vec::new();
    let mut walk = Walk {
        out: &mut out,
        item_key: at.key,
    };
    walk.walk(steps, at.value, &mut at.holders.clone(), at.key);
    out
}

fn gather_steps(steps: &[Step], at: &Found<'_>) -> Option<Value> {
    let fans = |s: &Step| matches!(s, Step::Each | Step::Values | Step::Filter(..));
    let Some(fan) = steps.iter().position(fans) else {
        return select_steps(steps, at).first().map(|f| f.value.clone());
    };
    let container = select_steps(&steps[..fan], at).into_iter().next()?;
    let goes_over = match steps[fan] {
        Step::Values => container.value.is_object(),
        _ => container.value.is_array(),
    };
    if !goes_over {
        return None;
    }
    let items = select_steps(&steps[fan..=fan], &container);
    let rest = &steps[fan + 1..];
    Some(Value::Array(if rest.is_empty() {
        items.into_iter().map(|f| f.value.clone()).collect()
    } else {
        items
            .iter()
            .filter_map(|item| gather_steps(rest, item))
            .collect()
    }))
}

/// [`Path::gather`] of `path` written as text (a path that does not parse reaches nothing).
/// Each distinct path is parsed once per thread: a batch reads the same few field paths in
/// every record.
pub fn lookup(value: &Value, path: &str) -> Option<Value> {
    use std::cell::RefCell;
    use std::collections::HashMap;
    use std::rc::Rc;
    /// Enough for the field aliases and a user's paths; past it the cache starts again.
    const MOST: usize = 1024;
    thread_local! {
        static PARSED: RefCell<HashMap<String, Option<Rc<Path>>>> = RefCell::new(HashMap::new());
    }
    let parsed = PARSED.with(|cell| {
        let mut parsed = cell.borrow_mut();
        if let Some(known) = parsed.get(path) {
            return known.clone();
        }
        if parsed.len() >= MOST {
            parsed.clear();
        }
        let new = Path::parse(path).ok().map(Rc::new);
        parsed.insert(path.to_string(), new.clone());
        new
    });
    parsed?.gather(value)
}

/// Parses what follows a `[` up to its `]`.
fn bracket(after: &str) -> Result<(Step, &str), String> {
    if let Some(rest) = after.strip_prefix("$key]") {
        return Ok((Step::ItemKey, rest));
    }
    if let Some(quoted) = after.strip_prefix('"') {
        let end = quoted
            .find("\"]")
            .ok_or_else(|| "a `[\"` has no closing `\"]`".to_string())?;
        return Ok((Step::Key(quoted[..end].to_string()), &quoted[end + 2..]));
    }
    // A filter may hold a nested path with brackets of its own.
    let mut depth = 0usize;
    let mut close = None;
    for (at, c) in after.char_indices() {
        match c {
            '[' => depth += 1,
            ']' if depth == 0 => {
                close = Some(at);
                break;
            }
            ']' => depth -= 1,
            _ => {}
        }
    }
    let close = close.ok_or_else(|| "a `[` has no closing `]`".to_string())?;
    let inside = after[..close].trim();
    let rest = &after[close + 1..];
    let step = if inside.is_empty() {
        Step::Each
    } else if let Some(filter) = inside.strip_prefix('?') {
        let (path, value) = match filter.split_once('=') {
            Some((path, value)) => (path, Some(value.trim().to_string())),
            None => (filter, None),
        };
        Step::Filter(Path::parse(path)?, value)
    } else {
        let index = inside
            .parse::<i64>()
            .map_err(|_| format!("`[{inside}]` is neither `[]`, an index nor a `[?filter]`"))?;
        Step::Index(index)
    };
    Ok((step, rest))
}

/// One selection: where its results go, and the key of the item it started at.
struct Walk<'o, 'v> {
    out: &'o mut Vec<Found<'v>>,
    item_key: Option<&'v str>,
}

impl<'v> Walk<'_, 'v> {
    fn walk(
        &mut self,
        steps: &[Step],
        value: &'v Value,
        holders: &mut Vec<&'v Value>,
        key: Option<&'v str>,
    ) {
        let Some((step, rest)) = steps.split_first() else {
            self.out.push(Found {
                value,
                holders: holders.clone(),
                key,
            });
            return;
        };
        match step {
            Step::Here => self.walk(rest, value, holders, key),
            Step::Parent => {
                if let Some(holder) = holders.pop() {
                    self.walk(rest, holder, holders, key);
                    holders.push(holder);
                }
            }
            Step::Key(_) => {
                let Some(object) = value.as_object() else {
                    return;
                };
                // The longest run of key steps that is one key of this object.
                let keys = steps
                    .iter()
                    .take_while(|s| matches!(s, Step::Key(_)))
                    .count();
                for take in (1..=keys).rev() {
                    let name = join_keys(&steps[..take]);
                    if let Some(inner) = object.get(name.as_str()) {
                        self.descend(value, inner, &steps[take..], holders, key);
                        return;
                    }
                }
            }
            Step::ItemKey => {
                if let (Some(object), Some(wanted)) = (value.as_object(), self.item_key)
                    && let Some(inner) = object.get(wanted)
                {
                    self.descend(value, inner, rest, holders, key);
                }
            }
            Step::Each => {
                if let Some(items) = value.as_array() {
                    for item in items {
                        self.walk(rest, item, holders, key);
                    }
                }
            }
            Step::Values => {
                if let Some(object) = value.as_object() {
                    for (name, inner) in object {
                        self.descend(value, inner, rest, holders, Some(name.as_str()));
                    }
                }
            }
            Step::Index(index) => {
                if let Some(items) = value.as_array() {
                    let at = if *index < 0 {
                        usize::try_from(index.unsigned_abs())
                            .ok()
                            .and_then(|back| items.len().checked_sub(back))
                    } else {
                        usize::try_from(*index).ok()
                    };
                    if let Some(item) = at.and_then(|at| items.get(at)) {
                        self.walk(rest, item, holders, key);
                    }
                }
            }
            Step::Filter(path, wanted) => {
                if let Some(items) = value.as_array() {
                    for item in items {
                        let here = Found {
                            value: item,
                            holders: holders.clone(),
                            key,
                        };
                        let keep = match wanted {
                            None => path.exists(&here),
                            Some(wanted) => path
                                .select(&here)
                                .iter()
                                .any(|f| scalar_text(f.value).as_deref() == Some(wanted.as_str())),
                        };
                        if keep {
                            self.walk(rest, item, holders, key);
                        }
                    }
                }
            }
        }
    }

    /// Walks on from `inner`, a value inside the object `value`, which becomes its holder.
    fn descend(
        &mut self,
        value: &'v Value,
        inner: &'v Value,
        rest: &[Step],
        holders: &mut Vec<&'v Value>,
        key: Option<&'v str>,
    ) {
        holders.push(value);
        self.walk(rest, inner, holders, key);
        holders.pop();
    }
}

fn join_keys(steps: &[Step]) -> String {
    let mut key = String::new();
    for (k, step) in steps.iter().enumerate() {
        if let Step::Key(part) = step {
            if k > 0 {
                key.push('.');
            }
            key.push_str(part);
        }
    }
    key
}

/// A string, number or boolean as text; `None` for the rest.
pub fn scalar_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// A template such as `{file.name} p. {pages}`: text with paths in braces, each replaced by what
/// it reaches from `at` (several values joined by `, `). `None` when a path reaches nothing.
#[derive(Debug, Clone, PartialEq)]
pub struct Template {
    pieces: Vec<Piece>,
}

#[derive(Debug, Clone, PartialEq)]
enum Piece {
    Text(String),
    Path(Path),
    /// `{$key}`: the key by which `*` reached the item.
    Key,
}

impl Template {
    /// A template, or a bare path (`id`), which is the template `{id}`.
    pub fn parse(text: &str) -> Result<Template, String> {
        if !text.contains('{') {
            return Ok(Template {
                pieces: vec![Piece::Path(Path::parse(text)?)],
            });
        }
        let mut pieces = Vec::new();
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            if open > 0 {
                pieces.push(Piece::Text(rest[..open].to_string()));
            }
            let close = rest[open..]
                .find('}')
                .ok_or_else(|| "a `{` has no closing `}`".to_string())?;
            let inside = &rest[open + 1..open + close];
            pieces.push(if inside == "$key" {
                Piece::Key
            } else {
                Piece::Path(Path::parse(inside)?)
            });
            rest = &rest[open + close + 1..];
        }
        if !rest.is_empty() {
            pieces.push(Piece::Text(rest.to_string()));
        }
        Ok(Template { pieces })
    }

    /// The text the template gives at `at`.
    pub fn render(&self, at: &Found<'_>) -> Option<String> {
        let mut out = String::new();
        for piece in &self.pieces {
            match piece {
                Piece::Text(text) => out.push_str(text),
                Piece::Key => out.push_str(at.key?),
                Piece::Path(path) => {
                    let values: Vec<String> = path
                        .select(at)
                        .iter()
                        .flat_map(|f| match f.value {
                            Value::Array(items) => {
                                items.iter().filter_map(scalar_text).collect::<Vec<_>>()
                            }
                            other => scalar_text(other).into_iter().collect::<Vec<_>>(),
                        })
                        .collect();
                    if values.is_empty() {
                        return None;
                    }
                    out.push_str(&values.join(", "));
                }
            }
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn texts(path: &str, value: &Value) -> Vec<String> {
        Path::parse(path)
            .unwrap()
            .select(&Found::root(value))
            .iter()
            .map(|f| scalar_text(f.value).unwrap_or_else(|| f.value.to_string()))
            .collect()
    }

    #[test]
    fn keys_items_indices_and_dotted_keys() {
        let doc = json!({
            "a": {"b": [{"id": 1}, {"id": 2}, {"x": 3}]},
            "attributes": {"mlflow.spanType": "RETRIEVER", "mlflow": {"spanType": "no"}},
            "m": {"k1": {"t": "x"}, "k2": {"t": "y"}}
        });
        assert_eq!(texts("a.b[].id", &doc), ["1", "2"]);
        assert_eq!(texts("a.b[1].id", &doc), ["2"]);
        assert_eq!(texts("a.b[-1].x", &doc), ["3"]);
        assert_eq!(texts("a.b[-4].x", &doc), Vec::<String>::new());
        assert_eq!(texts("attributes.mlflow.spanType", &doc), ["RETRIEVER"]);
        assert_eq!(
            texts("attributes[\"mlflow.spanType\"]", &doc),
            ["RETRIEVER"]
        );
        assert_eq!(texts("m.*.t", &doc), ["x", "y"]);
        let items = Path::parse("m.*").unwrap().select(&Found::root(&doc));
        assert_eq!(items[1].key(), Some("k2"));
        let key = Template::parse("{$key}: {t}").unwrap();
        assert_eq!(key.render(&items[1]).as_deref(), Some("k2: y"));
        let index = json!({"index": {"k1": 1, "k2": 2}, "m": {"k1": {}, "k2": {}}});
        let items = Path::parse("m.*").unwrap().select(&Found::root(&index));
        let numbered = Path::parse("^.^.index[$key]").unwrap();
        assert_eq!(numbered.first(&items[1]), Some(&json!(2)));
        assert_eq!(texts("a.missing", &doc), Vec::<String>::new());
    }

    #[test]
    fn filters_and_parents() {
        let doc = json!({"content": [
            {"type": "text", "text": "A"},
            {"type": "source", "url": "u"},
            {"type": "text", "text": "B", "meta": {"n": 2}}
        ], "attributions": [{"doc": "d1", "segments": [{"s": 0}, {"s": 5}]}]});
        assert_eq!(texts("content[?type=text].text", &doc), ["A", "B"]);
        assert_eq!(texts("content[?meta.n=2].text", &doc), ["B"]);
        assert_eq!(texts("content[?url].type", &doc), ["source"]);
        let path = Path::parse("attributions[].segments[]").unwrap();
        let found = path.select(&Found::root(&doc));
        assert_eq!(found.len(), 2);
        let up = Path::parse("^.doc").unwrap();
        assert_eq!(up.first(&found[1]), Some(&json!("d1")));
        assert_eq!(
            Path::parse("@").unwrap().first(&found[0]),
            Some(&json!({"s": 0}))
        );
    }

    #[test]
    fn bad_paths_say_why() {
        for bad in ["", "a..b", ".a", "a.", "a[", "a[x]", "a[\"b"] {
            assert!(Path::parse(bad).is_err(), "{bad}");
        }
        assert!(Path::parse(&"a.".repeat(300)).is_err());
    }

    #[test]
    fn templates_join_values() {
        let doc = json!({"file": {"name": "a.pdf"}, "pages": [1, 2]});
        let at = Found::root(&doc);
        let t = Template::parse("{file.name} p. {pages}").unwrap();
        assert_eq!(t.render(&at).as_deref(), Some("a.pdf p. 1, 2"));
        assert_eq!(
            Template::parse("file.name").unwrap().render(&at).as_deref(),
            Some("a.pdf")
        );
        assert_eq!(Template::parse("{nothing}").unwrap().render(&at), None);
        assert!(Template::parse("{a").is_err());
    }
}
