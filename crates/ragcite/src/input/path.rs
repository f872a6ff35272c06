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
//!
//! What a path may reach is bounded. A path whose `^` climbs back to (or above) the array or
//! object that an earlier `[]`, `*` or filter went over (`a[].^`, `a[].b.^.^`) reaches the same
//! values once per item, and is refused when it is parsed (and stopped when it is walked, where
//! a key with dots made the parser count a level too many). Paths that still fan out together
//! (a source path and, from each source, a relative path that climbs out again) are bounded by
//! the [`Budget`] of the reading, in places visited, values given and text taken: see there.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use serde_json::Value;

/// The longest path accepted: paths are written by people.
pub const MAX_PATH_LEN: usize = 512;

/// Places any reading may visit, whatever the document: the walks of a small document's paths
/// are never measured against it.
pub const BASE_VISITS: u64 = 1 << 20;
/// Places a reading may visit per value of its document, past [`BASE_VISITS`]: each path of a
/// profile visits each value of the document at most once (a relative path, once per item it
/// starts from, visits that item's own values), and a profile has a few dozen paths.
pub const VISITS_PER_VALUE: u64 = 64;
/// Bytes of text a reading's values may give whatever the document (strings joined, chunk
/// texts, values copied out).
pub const BASE_BYTES: u64 = 1 << 20;
/// Bytes of text a reading may give per byte of text in its document, past [`BASE_BYTES`]:
/// each string is taken once or twice (a chunk's text and its title, say), never per item.
pub const BYTES_PER_BYTE: u64 = 4;
/// Values any reading may give whatever the document: each value a walk reaches (a source, a
/// text, a filter's value), each piece of a list of texts (a chunk each) and each value copied
/// out, an empty string or a null as much as any.
pub const BASE_RESULTS: u64 = 1 << 15;
/// Values a reading may give per value of its document, past [`BASE_RESULTS`]: a source gives
/// itself and its id, title, URL and text, each once, and holds more values than that (each
/// key counts, with its value).
pub const RESULTS_PER_VALUE: u64 = 4;

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

/// A value a path reached, with the objects that hold it, so that a path relative to it can
/// step out with `^`, and the budget of the reading it belongs to. The holders are a chain
/// shared by every value found below them: a value found costs the same few words however
/// deep it is.
#[derive(Debug, Clone)]
pub struct Found<'v> {
    pub value: &'v Value,
    holders: Holders<'v>,
    /// The key by which the last `*` reached it.
    key: Option<&'v str>,
    budget: &'v Budget<'v>,
}

impl<'v> Found<'v> {
    /// The document itself, as a starting point: `budget` is the reading's, made for the same
    /// document.
    pub fn root(value: &'v Value, budget: &'v Budget<'v>) -> Self {
        Found {
            value,
            holders: None,
            key: None,
            budget,
        }
    }

    /// The key by which the last `*` of the path reached it.
    pub fn key(&self) -> Option<&'v str> {
        self.key
    }

    /// The budget of the reading it belongs to.
    pub fn budget(&self) -> &'v Budget<'v> {
        self.budget
    }
}

/// The objects that hold a value, innermost first; none at the document.
type Holders<'v> = Option<Rc<Holder<'v>>>;

/// One object that holds a value, and the ones that hold it.
#[derive(Debug)]
struct Holder<'v> {
    value: &'v Value,
    up: Holders<'v>,
    /// How many objects hold this one and it: the number of `^` a walk may take from below it.
    depth: usize,
}

fn depth(holders: &Holders<'_>) -> usize {
    holders.as_ref().map_or(0, |h| h.depth)
}

/// What one reading of a document by paths may cost: the places its walks visit, the values
/// they give and the bytes of text those give. Every path of a reading (a response through its
/// profile, with detection; a record's field) draws on the reading's budget. The limits are
/// small ([`BASE_VISITS`], [`BASE_RESULTS`], [`BASE_BYTES`]) until first reached; the document
/// is then measured once and they grow to [`VISITS_PER_VALUE`] places and
/// [`RESULTS_PER_VALUE`] values given per value of the document, and [`BYTES_PER_BYTE`] bytes
/// per byte of its text. A reading that goes past them goes over the same values again and
/// again, which no document needs: its walks stop at once, the paths after it reach nothing,
/// and [`Budget::finish`] gives the error, naming the path that went over. Linear in the
/// document however the paths fan out, in time and in what the reading holds: the values
/// given are counted whatever they hold (an empty string, a null), so a path cannot make more
/// chunks or values than a few per value of the document.
///
/// A walk whose `^` leaves the item of a `[]`, `*` or filter of its own path is stopped too:
/// the parser refuses such paths, but it counts each key as one level, and a key with dots
/// (`b.c`, one key of this document) is one level for two keys.
#[derive(Debug)]
pub struct Budget<'v> {
    document: &'v Value,
    visits: Cell<u64>,
    results: Cell<u64>,
    bytes: Cell<u64>,
    /// The limits, and whether the document was measured for them.
    limits: Cell<Limits>,
    /// The first path that went over, and what it went over.
    over: RefCell<Option<PathError>>,
    /// What a walk went over while no path is named yet.
    spent: Cell<Option<Spent>>,
}

#[derive(Debug, Clone, Copy)]
struct Limits {
    visits: u64,
    results: u64,
    bytes: u64,
    measured: bool,
}

/// What a walk went over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Spent {
    Visits,
    Results,
    /// A `^` that left the item of a fan of its own path.
    Climb,
}

/// A reading of a document that went past its [`Budget`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the path `{path}` {what}: it goes over the same values again and again, as a `^` back \
     above the items of a `[]` does"
)]
pub struct PathError {
    pub path: String,
    /// What went past its limit, with the limit.
    what: String,
}
impl<'v> Budget<'v> {
    /// The budget of one reading of `document`.
    pub fn new(document: &'v Value) -> Self {
        Budget {
            document,
            visits: Cell::new(0),
            results: Cell::new(0),
            bytes: Cell::new(0),
            limits: Cell::new(Limits {
                visits: BASE_VISITS,
                results: BASE_RESULTS,
                bytes: BASE_BYTES,
                measured: false,
            }),
            over: RefCell::new(None),
            spent: Cell::new(None),
        }
    }

    /// Whether the reading went over: its walks reach nothing more.
    pub fn is_spent(&self) -> bool {
        self.spent.get().is_some() || self.over.borrow().is_some()
    }

    /// The limits, measured on the document once the base ones are reached.
    fn limits(&self) -> Limits {
        let limits = self.limits.get();
        let within = self.visits.get() <= limits.visits
            && self.results.get() <= limits.results
            && self.bytes.get() <= limits.bytes;
        if within || limits.measured {
            return limits;
        }
        let (values, text) = measure(self.document);
        let limits = Limits {
            visits: BASE_VISITS.saturating_add(values.saturating_mul(VISITS_PER_VALUE)),
            results: BASE_RESULTS.saturating_add(values.saturating_mul(RESULTS_PER_VALUE)),
            bytes: BASE_BYTES.saturating_add(text.saturating_mul(BYTES_PER_BYTE)),
            measured: true,
        };
        self.limits.set(limits);
        limits
    }

    /// Counts one place visited; false once the reading went over.
    fn visit(&self) -> bool {
        self.visit_many(1)
    }

    /// Counts `n` places visited; false once the reading went over.
    fn visit_many(&self, n: u64) -> bool {
        if self.is_spent() {
            return false;
        }
        self.visits.set(self.visits.get().saturating_add(n));
        if self.visits.get() > self.limits().visits {
            self.spent.set(Some(Spent::Visits));
            return false;
        }
        true
    }

    /// Counts one value a walk gives; false once the reading went over.
    fn give(&self) -> bool {
        if self.is_spent() {
            return false;
        }
        self.results.set(self.results.get().saturating_add(1));
        if self.results.get() > self.limits().results {
            self.spent.set(Some(Spent::Results));
            return false;
        }
        true
    }

    /// Counts `n` values that `path` gives (the pieces of a list of texts, each a chunk; the
    /// values of a copy); false (and the reading over) when they go past the limit.
    pub fn give_many(&self, n: usize, path: &dyn std::fmt::Display) -> bool {
        if self.is_spent() {
            return false;
        }
        let total = self.results.get().saturating_add(n as u64);
        self.results.set(total);
        let limit = self.limits().results;
        if total > limit {
            self.name(path, Self::too_many(limit));
            return false;
        }
        true
    }

    fn too_many(limit: u64) -> String {
        format!(
            "gives more than {limit} values from this document (at most {RESULTS_PER_VALUE} per \
             value it holds)"
        )
    }

    /// Stops the walks: one of them took a `^` out of an item of its own path.
    fn climbed(&self) {
        if !self.is_spent() {
            self.spent.set(Some(Spent::Climb));
        }
    }

    /// Counts `bytes` of text that `path` gives; false (and the reading over) when they go
    /// past the limit.
    pub fn take(&self, bytes: usize, path: &dyn std::fmt::Display) -> bool {
        if self.is_spent() {
            return false;
        }
        let total = self.bytes.get().saturating_add(bytes as u64);
        self.bytes.set(total);
        let limit = self.limits().bytes;
        if total > limit {
            self.name(
                path,
                format!(
                    "takes more than {limit} bytes of text from this document (at most \
                     {BYTES_PER_BYTE} per byte of its text)"
                ),
            );
            return false;
        }
        true
    }

    /// Names the path a walk went over in, when none is named yet.
    fn name(&self, path: &dyn std::fmt::Display, what: String) {
        let mut over = self.over.borrow_mut();
        if over.is_none() {
            *over = Some(PathError {
                path: path.to_string(),
                what,
            });
        }
    }

    /// What a walk went over, said.
    fn what(&self, spent: Spent) -> String {
        let limits = self.limits.get();
        match spent {
            Spent::Visits => format!(
                "visits more than {} places of this document (at most {VISITS_PER_VALUE} per \
                 value it holds)",
                limits.visits
            ),
            Spent::Results => Self::too_many(limits.results),
            Spent::Climb => "climbs back above the items a `[]`, `*` or filter went over (in \
                             this document a run of its keys is one key with dots, one level: \
                             its `^` leaves the item)"
                .to_string(),
        }
    }

    /// Names `path` as the one whose walk went over, when the budget is spent and none is
    /// named yet.
    fn name_walk(&self, path: &dyn std::fmt::Display) {
        if let Some(spent) = self.spent.get()
            && self.over.borrow().is_none()
        {
            self.name(path, self.what(spent));
        }
    }

    /// The reading's outcome: the error of the path that went over, if one did.
    pub fn finish(&self) -> Result<(), PathError> {
        match (self.over.borrow().clone(), self.spent.get()) {
            (Some(error), _) => Err(error),
            (None, Some(spent)) => Err(PathError {
                path: String::from("?"),
                what: self.what(spent),
            }),
            (None, None) => Ok(()),
        }
    }
}

/// The values of `document` (objects, arrays, keys and scalars) and the bytes of its strings
/// and keys. Recursive: serde_json nests at most 128 levels deep.
fn measure(document: &Value) -> (u64, u64) {
    match document {
        Value::String(s) => (1, s.len() as u64),
        Value::Array(items) => items.iter().fold((1, 0), |(v, t), item| {
            let (iv, it) = measure(item);
            (v + iv, t + it)
        }),
        Value::Object(object) => object.iter().fold((1, 0), |(v, t), (key, item)| {
            let (iv, it) = measure(item);
            (v + iv + 1, t + it + key.len() as u64)
        }),
        _ => (1, 0),
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
        climbs_back(&steps)?;
        Ok(Path {
            steps,
            text: text.trim().to_string(),
        })
    }

    /// Every value the path reaches from `at`, in document order; none once the reading's
    /// budget is spent (which names this path when it went over here).
    pub fn select<'v>(&self, at: &Found<'v>) -> Vec<Found<'v>> {
        let found = select_steps(&self.steps, at);
        at.budget.name_walk(self);
        found
    }

    /// The value at the path as one JSON value, as a record's field is read (`--field`,
    /// `--group-by`): without `[]`, `*` or a filter, the first value it reaches; with one, the
    /// values each item gives, gathered in an array (an array per such step, nested as the
    /// steps are), and none when the array or object it goes over is not there. The copy is
    /// bounded as every reading is (see [`Budget`]).
    pub fn gather(&self, value: &Value) -> Result<Option<Value>, PathError> {
        let budget = Budget::new(value);
        let gathered = gather_steps(&self.steps, &Found::root(value, &budget), self, None);
        budget.name_walk(self);
        budget.finish().map(|()| gathered)
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
    select_below(steps, at, None)
}

/// [`select_steps`] within the item of a fan at the depth `floor`, if any (see [`Walk::walk`]).
fn select_below<'v>(steps: &[Step], at: &Found<'v>, floor: Option<usize>) -> Vec<Found<'v>> {
    let mut out = Vec::new();
    let mut walk = Walk {
        out: &mut out,
        item_key: at.key,
        budget: at.budget,
    };
    walk.walk(steps, at.value, &at.holders, at.key, floor);
    out
}

/// A copy of `value`, its text counted against the budget first; none once the budget is spent.
fn copied(value: &Value, budget: &Budget<'_>, path: &Path) -> Option<Value> {
    let (values, text) = measure(value);
    if !budget.visit_many(values) {
        return None;
    }
    let values = usize::try_from(values).unwrap_or(usize::MAX);
    let text = usize::try_from(text).unwrap_or(usize::MAX);
    (budget.give_many(values, path) && budget.take(text, path)).then(|| value.clone())
}

/// `floor`: the depth of the items of the first fan already gone over, which the steps' `^`
/// may not leave.
fn gather_steps(
    steps: &[Step],
    at: &Found<'_>,
    path: &Path,
    floor: Option<usize>,
) -> Option<Value> {
    let fans = |s: &Step| matches!(s, Step::Each | Step::Values | Step::Filter(..));
    let Some(fan) = steps.iter().position(fans) else {
        let first = select_below(steps, at, floor).into_iter().next()?;
        return copied(first.value, at.budget, path);
    };
    let container = select_below(&steps[..fan], at, floor).into_iter().next()?;
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
        items
            .into_iter()
            .map_while(|f| copied(f.value, at.budget, path))
            .collect()
    } else {
        items
            .iter()
            .filter_map(|item| {
                // An item of `[]` or a filter is held as its array is; one of `*` by its object.
                let floor = floor.or(Some(depth(&item.holders)));
                gather_steps(rest, item, path, floor)
            })
            .collect()
    }))
}

/// [`Path::gather`] of `path` written as text (a path that does not parse reaches nothing).
/// Each distinct path is parsed once per thread: a batch reads the same few field paths in
/// every record.
pub fn lookup(value: &Value, path: &str) -> Result<Option<Value>, PathError> {
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
    match parsed {
        Some(parsed) => parsed.gather(value),
        None => Ok(None),
    }
}

/// Refuses a path whose `^` climbs back to the object that holds the items an earlier `[]`, `*`
/// or filter went over (or above it): it would reach that object once per item. `^` steps to
/// the object that holds the current value (an array's items are held by the array's holder),
/// so depth here counts objects: a key, `*` or `[$key]` step goes one down, `^` one up. Every
/// key step counts (a dotted key such as `a.b` may be one key, one level: such a path is let
/// through, and its walk stops where its `^` would leave an item: see [`Walk::walk`]).
fn climbs_back(steps: &[Step]) -> Result<(), String> {
    let mut depth: i64 = 0;
    // The depth of the items of the shallowest `[]`, `*` or filter so far.
    let mut fanned: Option<i64> = None;
    for step in steps {
        let items = match step {
            Step::Each | Step::Filter(..) => Some(depth),
            Step::Values => Some(depth + 1),
            _ => None,
        };
        if let Some(items) = items {
            fanned = Some(fanned.map_or(items, |f| f.min(items)));
        }
        match step {
            Step::Key(_) | Step::Values | Step::ItemKey => depth += 1,
            Step::Parent => {
                depth -= 1;
                if fanned.is_some_and(|f| depth < f) {
                    return Err(
                        "its `^` climbs back above the items a `[]`, `*` or filter went over, \
                         which reaches the same values once per item: select the holder first \
                         and filter its items (`a[?b]`) instead"
                            .to_string(),
                    );
                }
            }
            Step::Each | Step::Filter(..) | Step::Index(_) | Step::Here => {}
        }
    }
    Ok(())
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
    budget: &'v Budget<'v>,
}

impl<'v> Walk<'_, 'v> {
    /// Walks `steps` from `value`, held by `holders`. `floor` is the depth of the holders of
    /// the items of the first `[]`, `*` or filter of these steps: a `^` from there would
    /// leave the item (the parser refuses such paths, but counts a key with dots as two
    /// levels), and stops the reading.
    fn walk(
        &mut self,
        steps: &[Step],
        value: &'v Value,
        holders: &Holders<'v>,
        key: Option<&'v str>,
        floor: Option<usize>,
    ) {
        if !self.budget.visit() {
            return;
        }
        let Some((step, rest)) = steps.split_first() else {
            if self.budget.give() {
                self.out.push(Found {
                    value,
                    holders: holders.clone(),
                    key,
                    budget: self.budget,
                });
            }
            return;
        };
        // The items of a fan of these steps, at the current depth unless an earlier one is.
        let items = Some(floor.unwrap_or(depth(holders)));
        match step {
            Step::Here => self.walk(rest, value, holders, key, floor),
            Step::Parent => {
                let Some(holder) = holders else { return };
                if floor.is_some_and(|floor| holder.depth <= floor) {
                    self.budget.climbed();
                    return;
                }
                self.walk(rest, holder.value, &holder.up, key, floor);
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
                        self.descend(value, inner, &steps[take..], holders, key, floor);
                        return;
                    }
                }
            }
            Step::ItemKey => {
                if let (Some(object), Some(wanted)) = (value.as_object(), self.item_key)
                    && let Some(inner) = object.get(wanted)
                {
                    self.descend(value, inner, rest, holders, key, floor);
                }
            }
            Step::Each => {
                if let Some(items_of) = value.as_array() {
                    for item in items_of {
                        self.walk(rest, item, holders, key, items);
                    }
                }
            }
            Step::Values => {
                if let Some(object) = value.as_object() {
                    // Its values are held by it: one level down.
                    let items = Some(floor.unwrap_or(depth(holders) + 1));
                    for (name, inner) in object {
                        self.descend(value, inner, rest, holders, Some(name.as_str()), items);
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
                        self.walk(rest, item, holders, key, floor);
                    }
                }
            }
            Step::Filter(path, wanted) => {
                if let Some(items_of) = value.as_array() {
                    for item in items_of {
                        let here = Found {
                            value: item,
                            holders: holders.clone(),
                            key,
                            budget: self.budget,
                        };
                        let keep = match wanted {
                            None => !select_steps(&path.steps, &here)
                                .iter()
                                .all(|f| f.value.is_null()),
                            Some(wanted) => select_steps(&path.steps, &here)
                                .iter()
                                .any(|f| scalar_text(f.value).as_deref() == Some(wanted.as_str())),
                        };
                        if keep {
                            self.walk(rest, item, holders, key, items);
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
        holders: &Holders<'v>,
        key: Option<&'v str>,
        floor: Option<usize>,
    ) {
        let held = Some(Rc::new(Holder {
            value,
            up: holders.clone(),
            depth: depth(holders) + 1,
        }));
        self.walk(rest, inner, &held, key, floor);
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
                    let joined = values.join(", ");
                    if !at.budget.give_many(values.len(), path)
                        || !at.budget.take(joined.len(), path)
                    {
                        return None;
                    }
                    out.push_str(&joined);
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
        let budget = Budget::new(value);
        Path::parse(path)
            .unwrap()
            .select(&Found::root(value, &budget))
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
        let budget = Budget::new(&doc);
        let items = Path::parse("m.*")
            .unwrap()
            .select(&Found::root(&doc, &budget));
        assert_eq!(items[1].key(), Some("k2"));
        let key = Template::parse("{$key}: {t}").unwrap();
        assert_eq!(key.render(&items[1]).as_deref(), Some("k2: y"));
        let index = json!({"index": {"k1": 1, "k2": 2}, "m": {"k1": {}, "k2": {}}});
        let budget = Budget::new(&index);
        let items = Path::parse("m.*")
            .unwrap()
            .select(&Found::root(&index, &budget));
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
        let budget = Budget::new(&doc);
        let found = path.select(&Found::root(&doc, &budget));
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
        let budget = Budget::new(&doc);
        let at = Found::root(&doc, &budget);
        let t = Template::parse("{file.name} p. {pages}").unwrap();
        assert_eq!(t.render(&at).as_deref(), Some("a.pdf p. 1, 2"));
        assert_eq!(
            Template::parse("file.name").unwrap().render(&at).as_deref(),
            Some("a.pdf")
        );
        assert_eq!(Template::parse("{nothing}").unwrap().render(&at), None);
        assert!(Template::parse("{a").is_err());
    }

    #[test]
    fn a_path_that_climbs_back_over_the_items_it_went_over_is_refused() {
        for fans in [
            "a[].^",
            "a[].^.a[]",
            "a[].b.^.^",
            "m.*.^",
            "a[?x].^.a",
            "a[].b[].^.^",
        ] {
            let err = Path::parse(fans).expect_err(fans);
            assert!(err.contains("climbs back"), "{fans}: {err}");
        }
        // Inside an item, `^` back to the item is one value per item; a relative path starts
        // with `^`; a filter's own path is relative to the item.
        for fine in [
            "a[].b.^.c",
            "^.^.index[$key]",
            "^.title",
            "a[?^.x].y",
            "a[1].^.b",
        ] {
            assert!(Path::parse(fine).is_ok(), "{fine}");
        }
    }

    /// A document of `n` items under `a`, each with a text.
    fn items(n: usize) -> Value {
        json!({"a": (0..n).map(|k| json!({"t": format!("item {k}"), "a": []})).collect::<Vec<_>>()})
    }

    #[test]
    fn paths_that_fan_out_together_stop_at_the_budget_and_name_the_path() {
        // Each of 3,000 items climbs to the root and over all the items again: 9 M places,
        // past the document's 15,000 values at 64 places per value, though it gives nothing.
        let doc = items(3_000);
        let budget = Budget::new(&doc);
        let root = Found::root(&doc, &budget);
        let sources = Path::parse("a[]").unwrap().select(&root);
        assert_eq!(sources.len(), 3_000);
        let relative = Path::parse("^.a[].none").unwrap();
        for item in &sources {
            assert!(relative.select(item).is_empty());
        }
        assert!(budget.visits.get() <= budget.limits.get().visits + 1);
        let err = budget.finish().expect_err("over budget");
        assert_eq!(err.path, "^.a[].none");
        assert!(err.to_string().contains("visits more than"), "{err}");
        // Giving a value at each place, it stops sooner: 9 M values past 4 per value.
        let budget = Budget::new(&doc);
        let root = Found::root(&doc, &budget);
        let sources = Path::parse("a[]").unwrap().select(&root);
        let relative = Path::parse("^.a[].t").unwrap();
        let reached: usize = sources.iter().map(|s| relative.select(s).len()).sum();
        assert!(reached as u64 <= budget.limits.get().results, "{reached}");
        let err = budget.finish().expect_err("over budget");
        assert_eq!(err.path, "^.a[].t");
        assert!(err.to_string().contains("gives more than"), "{err}");
        // The same walks once each stay within it.
        let budget = Budget::new(&doc);
        let root = Found::root(&doc, &budget);
        assert_eq!(Path::parse("a[].t").unwrap().select(&root).len(), 3_000);
        assert!(budget.finish().is_ok());
    }

    #[test]
    fn a_dotted_key_does_not_let_a_path_climb_out_of_its_items() {
        // `b.c` is one key here: the parser counts two levels, the walk one, and its second
        // `^` would leave each item for the document and go over `z` once per item.
        let dotted = json!({"a": vec![json!({"b.c": 0}); 50], "z": vec![json!(""); 50]});
        let nested = json!({"a": vec![json!({"b": {"c": 0}}); 50], "z": vec![json!(""); 50]});
        let path = Path::parse("a[].b.c.^.^.z[]").expect("parses: keys may be one key");
        let budget = Budget::new(&dotted);
        assert!(path.select(&Found::root(&dotted, &budget)).is_empty());
        let err = budget.finish().expect_err("climbs out");
        assert_eq!(err.path, "a[].b.c.^.^.z[]");
        assert!(
            err.to_string().contains("climbs back above the items"),
            "{err}"
        );
        // Gathered as a record's field (each item's rest walked from the item) too.
        let err = lookup(&dotted, "a[].b.c.^.^.z").expect_err("climbs out");
        assert!(
            err.to_string().contains("climbs back above the items"),
            "{err}"
        );
        // Where `b` and `c` are two keys, `^.^` is back at each item.
        let budget = Budget::new(&nested);
        let items = Path::parse("a[].b.c.^.^")
            .unwrap()
            .select(&Found::root(&nested, &budget));
        assert_eq!(items.len(), 50);
        assert!(budget.finish().is_ok());
        // A relative path starts outside any item of its own: `^` may climb.
        assert_eq!(Path::parse("^.z[]").unwrap().select(&items[0]).len(), 50);
    }

    /// `n` sources under `a`, each with a title, beside `z`, a list of `m` empty strings.
    fn beside_empty_strings(n: usize, m: usize) -> Value {
        json!({
            "title": "T",
            "a": (0..n).map(|k| json!({"t": format!("item {k}")})).collect::<Vec<_>>(),
            "z": vec![json!(""); m],
        })
    }

    #[test]
    fn values_given_again_and_again_stop_at_the_budget_even_when_empty() {
        // From each of 100 sources, the 1,000 empty strings beside them: 100,000 values of
        // no text, which no visit limit of a 1,300-value document stopped.
        let doc = beside_empty_strings(100, 1_000);
        let budget = Budget::new(&doc);
        let root = Found::root(&doc, &budget);
        let sources = Path::parse("a[]").unwrap().select(&root);
        assert_eq!(sources.len(), 100);
        let relative = Path::parse("^.z[]").unwrap();
        let reached: usize = sources.iter().map(|s| relative.select(s).len()).sum();
        let (values, _) = measure(&doc);
        let limit = BASE_RESULTS + RESULTS_PER_VALUE * values;
        assert!(
            reached as u64 <= limit,
            "{reached} values given, limit {limit}"
        );
        let err = budget.finish().expect_err("over budget");
        assert_eq!(err.path, "^.z[]");
        assert!(err.to_string().contains("gives more than"), "{err}");
        // In a filter's own path, gathered as a record's field, too.
        let err = lookup(&doc, "a[?^.z[]].t").expect_err("over budget");
        assert!(err.to_string().contains("gives more than"), "{err}");
        // Read once from each source, a value beside them is fine: `^.title`.
        let budget = Budget::new(&doc);
        let root = Found::root(&doc, &budget);
        let sources = Path::parse("a[]").unwrap().select(&root);
        let title = Path::parse("^.title").unwrap();
        assert!(sources.iter().all(|s| title.first(s) == Some(&json!("T"))));
        assert!(budget.finish().is_ok());
    }

    #[test]
    fn text_taken_again_and_again_stops_at_the_budget() {
        let doc = json!({"big": "x".repeat(100_000), "a": vec![json!({}); 200]});
        let budget = Budget::new(&doc);
        let path = Path::parse("big").unwrap();
        let mut taken = 0;
        while budget.take(100_000, &path) {
            taken += 1;
        }
        // 1 MiB whatever the document, then 4 bytes per byte of its text.
        assert_eq!(taken, (BASE_BYTES as usize + 4 * 100_003) / 100_000);
        assert!(
            budget
                .finish()
                .expect_err("over")
                .to_string()
                .contains("bytes")
        );
    }

    #[test]
    fn gathering_copies_within_the_budget() {
        let doc = items(2_000);
        assert_eq!(
            lookup(&doc, "a[].t")
                .unwrap()
                .unwrap()
                .as_array()
                .unwrap()
                .len(),
            2_000
        );
        // `[?^...]`: every item's filter walks all the items again.
        let err = lookup(&doc, "a[?^.a[].t=item 1999].t").expect_err("over budget");
        assert!(err.to_string().contains("a[?^.a[].t=item 1999].t"), "{err}");
        assert_eq!(lookup(&doc, "not a path["), Ok(None));
    }
}
