//! Formats as data: a profile says where a stack's response keeps its answer, its sources and
//! its citations, in the [path language](crate::input::path), and what the citations mean. The
//! built-in profiles are `profiles.toml`, embedded in the binary; users add their own as
//! `[[format]]` tables of `.ragcite.toml`, in the same schema ([`ProfileSpec`]).
//!
//! Detection is scored: a profile matches a JSON document when every one of its `detect`
//! conditions holds, and scores the number of its conditions; a built-in reader written in Rust
//! scores [`READER_SCORE`]. The highest score wins, so the more specific shape is read by the
//! profile made for it (Pinecone Assistant's `citations[].position` over Cohere's `citations`),
//! and two that tie are named by `ragcite formats detect`.
//!
//! Reading is one walk over the parts of the document the profile names. A field of the wrong
//! type is an error naming its path; an offset outside the text is clamped or dropped.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock, RwLock};

use serde::Deserialize;
use serde_json::Value;

use super::offsets::{byte_span, char_starts, ending_at};
use super::reading::{Reading, Sources};
use crate::input::path::{Budget, Found, Path, PathError, Template, scalar_text};
use crate::input::{AnswerFormat, Chunk, CitationTarget, InputError, NativeCitation};
use crate::pattern::MarkerPattern;

/// What a reader written in Rust scores in detection: as much as a profile of two conditions.
pub const READER_SCORE: usize = 2;

/// The most profiles a configuration may add.
pub const MAX_USER_PROFILES: usize = 256;

/// A profile as written, in `profiles.toml` or a `[[format]]` table.
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ProfileSpec {
    /// The name `--answer-format` takes and reports give.
    pub name: String,
    /// What the format is, in a line.
    pub title: String,
    /// Where its shape comes from (the API reference or SDK file).
    #[serde(default)]
    pub source: String,
    /// Conditions that must all hold: `path` (it reaches a value that is not null),
    /// `path=value` (it reaches that string, number or boolean), `!path` (it reaches nothing).
    #[serde(default)]
    pub detect: Vec<String>,
    /// Paths to the answer's text, the first that reaches a string wins; several strings it
    /// reaches are joined by `answer-join`. No answer: a file of sources only.
    #[serde(default, deserialize_with = "one_or_many")]
    pub answer: Vec<String>,
    #[serde(default)]
    pub answer_join: String,
    #[serde(default, deserialize_with = "one_or_many")]
    pub question: Vec<String>,
    /// Paths to the document's own id (a record's, when `batch` reads it).
    #[serde(default, deserialize_with = "one_or_many")]
    pub id: Vec<String>,
    /// Paths to the list of sources (the first that reaches something wins).
    #[serde(default, deserialize_with = "one_or_many")]
    pub sources: Vec<String>,
    /// Within a source: its id (a path or a template such as `{file.name} p. {pages}`); without
    /// one, its URL, else its 1-based position.
    #[serde(default, deserialize_with = "one_or_many")]
    pub source_id: Vec<String>,
    /// Its text: a string, or a list of strings (one chunk each, ids `<id>#1`, `#2`, ...);
    /// `@` for sources that are strings.
    pub source_text: Option<String>,
    pub source_title: Option<String>,
    pub source_url: Option<String>,
    /// Other names a citation may give it.
    #[serde(default)]
    pub source_aliases: Vec<String>,
    /// The text starts after the first occurrence of this (a header the stack puts before it).
    pub source_text_after: Option<String>,
    /// What the first source is called by a bare number: 1 (the default) or 0.
    pub numbering: Option<u8>,
    /// A marker syntax the answer uses: a regular expression with one capture group, the label
    /// (several labels separated by commas).
    pub marker: Option<String>,
    /// What a marker's label is: `position` (a number, counted by `numbering`; the default),
    /// `id` (a source's id or other name) or `id-prefix` (the start of a source's id).
    pub marker_names: Option<String>,
    /// Paths to the citations attached to the answer.
    pub citations: Option<String>,
    /// Within a citation: its span's start and end, or the position it ends at.
    pub citation_start: Option<String>,
    pub citation_end: Option<String>,
    pub citation_position: Option<String>,
    /// `chars` (code points, the default), `bytes` (UTF-8) or `utf16`.
    pub citation_unit: Option<String>,
    /// The end names the last unit covered, not the one after.
    #[serde(default)]
    pub citation_end_inclusive: bool,
    /// Within a citation: what it cites, names or source objects.
    pub citation_targets: Option<String>,
    /// What a name is: `label` (resolved like a marker's label; the default), `position0` or
    /// `position1` (a position among the sources).
    pub citation_names: Option<String>,
    /// Within a cited source object: its id, text, title and URL (as for sources).
    #[serde(default, deserialize_with = "one_or_many")]
    pub cited_id: Vec<String>,
    pub cited_text: Option<String>,
    pub cited_title: Option<String>,
    pub cited_url: Option<String>,
    /// What to pass as the chunks file when the answer carries no sources.
    #[serde(default)]
    pub sources_elsewhere: String,
}

/// A string or a list of strings (alternatives, the first that gives something wins).
fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    Ok(match OneOrMany::deserialize(d)? {
        OneOrMany::One(one) => vec![one],
        OneOrMany::Many(many) => many,
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    Chars,
    Bytes,
    Utf16,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Names {
    Label,
    Position(u8),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum MarkerNames {
    Position,
    Id,
    IdPrefix,
}

#[derive(Debug)]
enum Condition {
    Exists(Path),
    Equals(Path, String),
    Absent(Path),
}

/// How to read one source object.
#[derive(Debug, Default)]
struct SourceShape {
    /// Alternatives: the first that renders.
    id: Vec<Template>,
    text: Option<Path>,
    title: Option<Template>,
    url: Option<Template>,
    aliases: Vec<Template>,
}

/// A profile ready to use.
#[derive(Debug)]
pub struct Profile {
    pub spec: ProfileSpec,
    /// Whether it comes from the user's configuration.
    pub user: bool,
    detect: Vec<Condition>,
    answer: Vec<Path>,
    question: Vec<Path>,
    id: Vec<Path>,
    sources: Vec<Path>,
    source: SourceShape,
    numbering: u8,
    /// The marker pattern, compiled once (see [`Profile::marker`]).
    marker: OnceLock<Option<Arc<MarkerPattern>>>,
    marker_names: MarkerNames,
    citations: Option<Path>,
    start: Option<Path>,
    end: Option<Path>,
    position: Option<Path>,
    unit: Unit,
    targets: Option<Path>,
    names: Names,
    cited: SourceShape,
}

impl Profile {
    /// Checks and compiles `spec`; the error names the field that is wrong.
    pub fn new(spec: ProfileSpec, user: bool) -> Result<Profile, String> {
        let name = &spec.name;
        let bad = |field: &str, why: String| format!("format `{name}`: `{field}`: {why}");
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        {
            return Err(format!(
                "format `{name}`: its name must be lowercase letters, digits and `-`"
            ));
        }
        let path = |field: &str, text: &str| Path::parse(text).map_err(|e| bad(field, e));
        let paths = |field: &str, texts: &[String]| -> Result<Vec<Path>, String> {
            texts.iter().map(|t| path(field, t)).collect()
        };
        let opt_path = |field: &str, text: &Option<String>| {
            text.as_deref().map(|t| path(field, t)).transpose()
        };
        let template = |field: &str, text: &Option<String>| {
            text.as_deref()
                .map(|t| Template::parse(t).map_err(|e| bad(field, e)))
                .transpose()
        };
        let templates = |field: &str, texts: &[String]| -> Result<Vec<Template>, String> {
            texts
                .iter()
                .map(|t| Template::parse(t).map_err(|e| bad(field, e)))
                .collect()
        };
        let detect = spec
            .detect
            .iter()
            .map(|c| {
                if let Some(absent) = c.strip_prefix('!') {
                    Ok(Condition::Absent(path("detect", absent)?))
                } else if let Some(at) = outside_brackets(c, '=') {
                    Ok(Condition::Equals(
                        path("detect", &c[..at])?,
                        c[at + 1..].to_string(),
                    ))
                } else {
                    Ok(Condition::Exists(path("detect", c)?))
                }
            })
            .collect::<Result<Vec<_>, String>>()?;
        if detect.iter().all(|c| matches!(c, Condition::Absent(_))) {
            return Err(bad(
                "detect",
                "it needs at least one condition that a path exists".into(),
            ));
        }
        if spec.answer.is_empty() && spec.sources.is_empty() {
            return Err(format!(
                "format `{name}`: it names neither `answer` nor `sources`"
            ));
        }
        let numbering = match spec.numbering {
            None | Some(1) => 1,
            Some(0) => 0,
            Some(n) => return Err(bad("numbering", format!("{n} is neither 0 nor 1"))),
        };
        // A user's pattern is compiled now, so that a wrong one is refused with the
        // configuration; a built-in one when an answer first needs it (a unit test compiles
        // them all), so that a process that reads no profile's answer pays nothing for them.
        let marker = OnceLock::new();
        if user && let Some(m) = &spec.marker {
            let compiled = MarkerPattern::new(m).map_err(|e| bad("marker", e))?;
            let _ = marker.set(Some(Arc::new(compiled)));
        }
        let marker_names = match spec.marker_names.as_deref() {
            None | Some("position") => MarkerNames::Position,
            Some("id") => MarkerNames::Id,
            Some("id-prefix") => MarkerNames::IdPrefix,
            Some(other) => {
                return Err(bad(
                    "marker-names",
                    format!("`{other}` is not position, id or id-prefix"),
                ));
            }
        };
        let unit = match spec.citation_unit.as_deref() {
            None | Some("chars") => Unit::Chars,
            Some("bytes") => Unit::Bytes,
            Some("utf16") => Unit::Utf16,
            Some(other) => {
                return Err(bad(
                    "citation-unit",
                    format!("`{other}` is not chars, bytes or utf16"),
                ));
            }
        };
        let names = match spec.citation_names.as_deref() {
            None | Some("label") => Names::Label,
            Some("position0") => Names::Position(0),
            Some("position1") => Names::Position(1),
            Some(other) => {
                return Err(bad(
                    "citation-names",
                    format!("`{other}` is not label, position0 or position1"),
                ));
            }
        };
        let citations = opt_path("citations", &spec.citations)?;
        let (start, end, position) = (
            opt_path("citation-start", &spec.citation_start)?,
            opt_path("citation-end", &spec.citation_end)?,
            opt_path("citation-position", &spec.citation_position)?,
        );
        let targets = opt_path("citation-targets", &spec.citation_targets)?;
        if citations.is_some() && (end.is_none() && position.is_none() || targets.is_none()) {
            return Err(bad(
                "citations",
                "a citation needs `citation-end` (or `citation-position`) and `citation-targets`"
                    .into(),
            ));
        }
        let source = SourceShape {
            id: templates("source-id", &spec.source_id)?,
            text: opt_path("source-text", &spec.source_text)?,
            title: template("source-title", &spec.source_title)?,
            url: template("source-url", &spec.source_url)?,
            aliases: spec
                .source_aliases
                .iter()
                .map(|a| Template::parse(a).map_err(|e| bad("source-aliases", e)))
                .collect::<Result<_, _>>()?,
        };
        let cited = SourceShape {
            id: templates("cited-id", &spec.cited_id)?,
            text: opt_path("cited-text", &spec.cited_text)?,
            title: template("cited-title", &spec.cited_title)?,
            url: template("cited-url", &spec.cited_url)?,
            aliases: Vec::new(),
        };
        Ok(Profile {
            answer: paths("answer", &spec.answer)?,
            question: paths("question", &spec.question)?,
            id: paths("id", &spec.id)?,
            sources: paths("sources", &spec.sources)?,
            detect,
            source,
            numbering,
            marker,
            marker_names,
            citations,
            start,
            end,
            position,
            unit,
            targets,
            names,
            cited,
            user,
            spec,
        })
    }

    pub fn name(&self) -> &str {
        &self.spec.name
    }

    /// Whether the profile reads answers (else only sources).
    pub fn has_answer(&self) -> bool {
        !self.answer.is_empty()
    }

    /// Its score for `value`: the number of its conditions, when all hold.
    /// A condition whose walk goes past the budget of its reading does not hold.
    pub fn score(&self, value: &Value) -> Option<usize> {
        let budget = Budget::new(value);
        let at = Found::root(value, &budget);
        let all = self.detect.iter().all(|c| holds(c, &at));
        (all && !budget.is_spent()).then_some(self.detect.len())
    }

    /// How many of its conditions hold for `value`, and how many it has.
    pub fn conditions_held(&self, value: &Value) -> (usize, usize) {
        let budget = Budget::new(value);
        let at = Found::root(value, &budget);
        let held = self.detect.iter().filter(|c| holds(c, &at)).count();
        (if budget.is_spent() { 0 } else { held }, self.detect.len())
    }

    /// Reads a whole response.
    pub(crate) fn read(&self, text: &str) -> Result<Reading, InputError> {
        let value: Value = serde_json::from_str(text.trim_start())
            .map_err(|e| super::json::invalid_json(&e, e.line(), 0))?;
        self.read_value(&value)
    }

    pub(crate) fn read_value(&self, value: &Value) -> Result<Reading, InputError> {
        let budget = Budget::new(value);
        let read = self.read_within(&Found::root(value, &budget));
        budget.finish()?;
        read
    }

    /// [`Profile::read_value`] from `root`, within its reading's budget.
    fn read_within(&self, root: &Found<'_>) -> Result<Reading, InputError> {
        let mut reading = Reading::default();
        if !self.has_answer() {
            return Err(InputError::Response {
                line: None,
                message: format!(
                    "this is {}, which holds sources and no answer: pass it as CHUNKS, the second \
                     argument",
                    self.spec.title
                ),
            });
        }
        reading.text = self
            .strings(root, &self.answer, "answer")?
            .unwrap_or_default();
        reading.question = self.strings(root, &self.question, "question")?;
        let mut sources = self.sources_within(root)?;
        self.read_citations(root, &reading.text, &mut reading.citations, &mut sources)?;
        if let Some(marker) = self.marker() {
            self.name_markers(&marker, &reading.text, &mut sources);
        }
        if !sources.chunks.is_empty() {
            reading.sources = Some(sources);
        }
        Ok(reading)
    }

    /// The document's own id (a string or a number), if the profile says where.
    pub fn id_of(&self, value: &Value) -> Result<Option<String>, PathError> {
        let budget = Budget::new(value);
        let root = Found::root(value, &budget);
        let id = self
            .id
            .iter()
            .find_map(|path| path.first(&root).and_then(scalar_text));
        budget.finish().map(|()| id)
    }

    /// The strings the first of `paths` that reaches any gives, joined.
    fn strings(
        &self,
        at: &Found<'_>,
        paths: &[Path],
        field: &str,
    ) -> Result<Option<String>, InputError> {
        for path in paths {
            let found = path.select(at);
            let mut parts = Vec::new();
            for f in &found {
                match f.value {
                    Value::String(s) => parts.push(s.as_str()),
                    Value::Null => {}
                    other => {
                        return Err(wrong_type(&self.spec.name, field, path, other, "a string"));
                    }
                }
            }
            if !parts.is_empty() {
                let bytes = parts.iter().map(|p| p.len()).sum();
                if !at.budget().take(bytes, path) {
                    return Ok(None);
                }
                return Ok(Some(parts.join(&self.spec.answer_join)));
            }
        }
        Ok(None)
    }

    /// The sources of the document, as a chunks file or beside the answer.
    pub(crate) fn read_sources(&self, value: &Value) -> Result<Sources, InputError> {
        let budget = Budget::new(value);
        let sources = self.sources_within(&Found::root(value, &budget));
        budget.finish()?;
        sources
    }

    /// [`Profile::read_sources`] from `root`, within its reading's budget.
    fn sources_within(&self, root: &Found<'_>) -> Result<Sources, InputError> {
        let mut sources = SourceList::default();
        let items = self
            .sources
            .iter()
            .map(|p| p.select(root))
            .find(|found| !found.is_empty())
            .unwrap_or_default();
        for (k, item) in items.iter().enumerate() {
            let fallback = (k + usize::from(self.numbering)).to_string();
            let read = read_source(&self.source, item, &self.spec, "sources", &fallback)?;
            let numbered = (self.numbering == 0).then(|| k.to_string());
            for chunk in read {
                sources.add(chunk, numbered.clone());
            }
        }
        Ok(sources.finish())
    }

    fn read_citations(
        &self,
        root: &Found<'_>,
        text: &str,
        out: &mut Vec<NativeCitation>,
        sources: &mut Sources,
    ) -> Result<(), InputError> {
        let (Some(citations), Some(targets)) = (&self.citations, &self.targets) else {
            return Ok(());
        };
        let offsets = Offsets::new(text, self.unit);
        let mut added = SourceList::from(std::mem::take(sources));
        for citation in citations.select(root) {
            let number = |path: &Option<Path>, field: &str| -> Result<Option<u64>, InputError> {
                let Some(path) = path else { return Ok(None) };
                match path.first(&citation) {
                    None => Ok(None),
                    Some(v) => whole(v).map(Some).ok_or_else(|| {
                        wrong_type(&self.spec.name, field, path, v, "a whole number")
                    }),
                }
            };
            let span = if let Some(position) = number(&self.position, "citation-position")? {
                offsets.byte(position).and_then(|at| ending_at(text, at))
            } else {
                let end = number(&self.end, "citation-end")?;
                // proto3 JSON leaves out a start of 0.
                let start = number(&self.start, "citation-start")?.unwrap_or(0);
                end.and_then(|end| {
                    let end = if self.spec.citation_end_inclusive {
                        end + 1
                    } else {
                        end
                    };
                    offsets.span(start, end)
                })
            };
            let Some(span) = span else { continue };
            for target in targets.select(&citation) {
                let target = match target.value {
                    Value::Object(_) => {
                        let fallback = format!("{}", added.chunks.len() + 1);
                        let mut read = read_source(
                            &self.cited,
                            &target,
                            &self.spec,
                            "citation-targets",
                            &fallback,
                        )?;
                        let Some(chunk) = read.drain(..).next() else {
                            continue;
                        };
                        CitationTarget::Label(added.add(chunk, None))
                    }
                    other => {
                        let Some(name) = scalar_text(other) else {
                            return Err(wrong_type(
                                &self.spec.name,
                                "citation-targets",
                                targets,
                                other,
                                "a name or an object",
                            ));
                        };
                        match self.names {
                            Names::Label => CitationTarget::Label(name),
                            Names::Position(base) => match name.trim().parse::<usize>() {
                                Ok(n) if n >= usize::from(base) => {
                                    CitationTarget::Position(n - usize::from(base))
                                }
                                _ => CitationTarget::Label(name),
                            },
                        }
                    }
                };
                out.push(NativeCitation {
                    span: Some(span.clone()),
                    target,
                    quote: None,
                });
            }
        }
        *sources = added.finish();
        Ok(())
    }

    /// Gives each source the names the answer's markers call it by, where the profile says
    /// what the labels are.
    fn name_markers(&self, marker: &MarkerPattern, text: &str, sources: &mut Sources) {
        if self.marker_names != MarkerNames::IdPrefix {
            return;
        }
        // A prefix this short would name too much; each label is looked up once.
        let labels: std::collections::BTreeSet<String> = marker
            .all(text)
            .into_iter()
            .flat_map(|(_, labels, _)| labels)
            .filter(|label| label.len() >= 4)
            .collect();
        let mut order: Vec<usize> = (0..sources.chunks.len()).collect();
        order.sort_by(|&a, &b| sources.chunks[a].id.cmp(&sources.chunks[b].id));
        for label in labels {
            // The ids that start with the label are together in sorted order; a label that
            // starts more than one names none of them.
            let first = order.partition_point(|&k| sources.chunks[k].id.as_str() < label.as_str());
            let named: Vec<usize> = order[first..]
                .iter()
                .take(2)
                .copied()
                .filter(|&k| sources.chunks[k].id.starts_with(&label))
                .collect();
            if let [one] = named[..] {
                let chunk = &mut sources.chunks[one];
                if chunk.id != label && !chunk.aliases.contains(&label) {
                    chunk.aliases.push(label);
                }
            }
        }
    }

    /// The marker syntax the profile's answers use, compiled on first use (a built-in pattern
    /// that did not compile would be none: the unit tests compile every one).
    pub fn marker(&self) -> Option<Arc<MarkerPattern>> {
        self.marker
            .get_or_init(|| {
                let pattern = self.spec.marker.as_deref()?;
                MarkerPattern::new(pattern).ok().map(Arc::new)
            })
            .clone()
    }
}

fn holds(condition: &Condition, at: &Found<'_>) -> bool {
    match condition {
        Condition::Exists(p) => p.exists(at),
        Condition::Absent(p) => !p.exists(at),
        Condition::Equals(p, wanted) => p
            .select(at)
            .iter()
            .any(|f| scalar_text(f.value).as_deref() == Some(wanted.as_str())),
    }
}

/// The chunks read so far: an id seen again with the same text (white space aside) is the same
/// chunk; with another text it gets `#2`, `#3`. Each addition costs a few hash lookups.
#[derive(Default)]
struct SourceList {
    chunks: Vec<Chunk>,
    /// Every id given, to its chunk.
    by_id: HashMap<String, usize>,
    /// An id as the source gave it and its text, to the chunk they became.
    by_content: HashMap<(String, String), usize>,
    /// The last suffix given to an id.
    suffix: HashMap<String, usize>,
    warnings: Vec<String>,
}

impl From<Sources> for SourceList {
    fn from(sources: Sources) -> Self {
        let mut list = SourceList {
            warnings: sources.warnings,
            ..SourceList::default()
        };
        for chunk in sources.chunks {
            list.add(chunk, None);
        }
        list
    }
}

impl SourceList {
    /// Adds `chunk` (with `alias` as another name) unless it is there; returns the id it has.
    fn add(&mut self, mut chunk: Chunk, alias: Option<String>) -> String {
        let base = chunk.id.clone();
        let content = (
            base.clone(),
            crate::input::collapse_white_space(&chunk.text),
        );
        if let Some(&at) = self.by_content.get(&content) {
            let known = &mut self.chunks[at];
            for name in chunk.aliases.into_iter().chain(alias) {
                if !known.aliases.contains(&name) && name != known.id {
                    known.aliases.push(name);
                }
            }
            return known.id.clone();
        }
        if self.by_id.contains_key(&base) {
            let n = self.suffix.entry(base.clone()).or_insert(1);
            loop {
                *n += 1;
                let id = format!("{base}#{n}");
                if !self.by_id.contains_key(&id) {
                    chunk.id = id;
                    break;
                }
            }
        }
        if let Some(alias) = alias
            && !chunk.aliases.contains(&alias)
        {
            chunk.aliases.push(alias);
        }
        if base != chunk.id && !chunk.aliases.contains(&base) {
            chunk.aliases.push(base);
        }
        let at = self.chunks.len();
        self.by_id.insert(chunk.id.clone(), at);
        self.by_content.insert(content, at);
        let id = chunk.id.clone();
        self.chunks.push(chunk);
        id
    }

    fn finish(self) -> Sources {
        Sources {
            chunks: self.chunks,
            ids_are_numbers: false,
            warnings: self.warnings,
        }
    }
}

/// The chunks one source object gives (several when its text is a list).
fn read_source(
    shape: &SourceShape,
    item: &Found<'_>,
    spec: &ProfileSpec,
    field: &str,
    fallback: &str,
) -> Result<Vec<Chunk>, InputError> {
    let render = |t: &Option<Template>| t.as_ref().and_then(|t| t.render(item));
    let url = render(&shape.url);
    let title = render(&shape.title);
    let id = shape
        .id
        .iter()
        .find_map(|t| t.render(item))
        .or_else(|| url.clone())
        .unwrap_or_else(|| fallback.to_string());
    let mut texts = Vec::new();
    if let Some(path) = &shape.text {
        // Each piece is a chunk, an empty one as much as any.
        let taken = |s: &str| item.budget().give_many(1, path) && item.budget().take(s.len(), path);
        match path.first(item) {
            None => {}
            Some(Value::String(s)) if taken(s) => texts.push(s.clone()),
            Some(Value::String(_)) => {}
            Some(Value::Array(items)) => {
                for piece in items {
                    match piece {
                        Value::String(s) if !taken(s) => break,
                        Value::String(s) => texts.push(s.clone()),
                        other => {
                            return Err(wrong_type(&spec.name, field, path, other, "a string"));
                        }
                    }
                }
            }
            Some(other) => return Err(wrong_type(&spec.name, field, path, other, "a string")),
        }
    }
    if let Some(after) = &spec.source_text_after {
        for text in &mut texts {
            if let Some(at) = text.find(after.as_str()) {
                *text = text[at + after.len()..].to_string();
            }
        }
    }
    let mut aliases: Vec<String> = shape
        .aliases
        .iter()
        .filter_map(|a| a.render(item))
        .collect();
    aliases.extend(url.into_iter().chain(title));
    aliases.retain(|a| *a != id && !a.is_empty());
    aliases.dedup();
    if texts.len() <= 1 {
        return Ok(vec![Chunk {
            id,
            text: texts.pop().unwrap_or_default(),
            aliases,
        }]);
    }
    aliases.push(id.clone());
    Ok(texts
        .into_iter()
        .enumerate()
        .map(|(k, text)| Chunk {
            id: format!("{id}#{}", k + 1),
            text,
            aliases: aliases.clone(),
        })
        .collect())
}

/// The first `wanted` of `text` that is not inside brackets.
fn outside_brackets(text: &str, wanted: char) -> Option<usize> {
    let mut depth = 0usize;
    for (at, c) in text.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            c if c == wanted && depth == 0 => return Some(at),
            _ => {}
        }
    }
    None
}

/// A whole number, also written as a string (proto3 JSON writes int64 so).
fn whole(value: &Value) -> Option<u64> {
    match value {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn wrong_type(name: &str, field: &str, path: &Path, value: &Value, expected: &str) -> InputError {
    InputError::Response {
        line: None,
        message: format!(
            "`{path}` is {}; the {name} format's `{field}` expects {expected}",
            crate::input::json_kind(value)
        ),
    }
}

/// Offsets in the profile's unit turned into byte offsets of the text.
struct Offsets<'t> {
    text: &'t str,
    unit: Unit,
    /// Byte offset of each unit boundary (characters or UTF-16 units), then the length.
    starts: Vec<usize>,
}

impl<'t> Offsets<'t> {
    fn new(text: &'t str, unit: Unit) -> Self {
        let starts = match unit {
            Unit::Bytes => Vec::new(),
            Unit::Chars => char_starts(text),
            Unit::Utf16 => {
                let mut starts = Vec::with_capacity(text.len() + 1);
                for (at, c) in text.char_indices() {
                    for _ in 0..c.len_utf16() {
                        starts.push(at);
                    }
                }
                starts.push(text.len());
                starts
            }
        };
        Offsets { text, unit, starts }
    }

    /// The byte offset of `offset`, clamped to the text's end (and onto a character boundary).
    fn byte(&self, offset: u64) -> Option<usize> {
        let len = self.text.len();
        match self.unit {
            Unit::Bytes => {
                let mut at = usize::try_from(offset).map_or(len, |o| o.min(len));
                while !self.text.is_char_boundary(at) {
                    at -= 1;
                }
                Some(at)
            }
            _ => Some(
                usize::try_from(offset)
                    .ok()
                    .and_then(|o| self.starts.get(o).copied())
                    .unwrap_or(len),
            ),
        }
    }

    fn span(&self, start: u64, end: u64) -> Option<std::ops::Range<usize>> {
        match self.unit {
            Unit::Bytes => byte_span(self.text, start, end),
            _ => {
                let (s, e) = (self.byte(start)?, self.byte(end)?);
                (s < e).then_some(s..e)
            }
        }
    }
}

/// The built-in profiles (`profiles.toml`), compiled once.
/// `profiles.toml` as JSON, written by the build script.
static BUILT_IN_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/profiles.json"));

pub fn built_in() -> &'static [Profile] {
    static BUILT_IN: OnceLock<Vec<Profile>> = OnceLock::new();
    BUILT_IN.get_or_init(|| {
        #[derive(Deserialize)]
        struct File {
            format: Vec<ProfileSpec>,
        }
        // `profiles.toml`, written as JSON by the build script (a unit test compares them).
        let file: File = serde_json::from_str(BUILT_IN_JSON)
            .expect("the built-in profiles are valid (a unit test reads them)");
        file.format
            .into_iter()
            .map(|spec| {
                Profile::new(spec, false)
                    .expect("the built-in profiles compile (a unit test reads them)")
            })
            .collect()
    })
}

static USER: RwLock<Vec<&'static Profile>> = RwLock::new(Vec::new());

/// Adds the user's profiles (from `[[format]]` tables). A name that a built-in format or
/// profile already has is refused, as is a profile that does not compile. Each profile lives
/// for the rest of the process (a configuration is read once).
pub fn add_user_profiles(specs: Vec<ProfileSpec>) -> Result<(), String> {
    if specs.len() > MAX_USER_PROFILES {
        return Err(format!("more than {MAX_USER_PROFILES} formats"));
    }
    let mut compiled: Vec<Profile> = Vec::with_capacity(specs.len());
    for spec in specs {
        let name = spec.name.as_str();
        if AnswerFormat::ALL.iter().any(|f| f.name() == name)
            || built_in().iter().any(|p| p.name() == name)
        {
            return Err(format!(
                "format `{name}`: a built-in format has this name; give yours another"
            ));
        }
        if compiled.iter().any(|p| p.name() == name) {
            return Err(format!("format `{name}`: two formats have this name"));
        }
        compiled.push(Profile::new(spec, true)?);
    }
    let mut users = USER.write().unwrap_or_else(|e| e.into_inner());
    for profile in compiled {
        users.retain(|p| p.spec.name != profile.spec.name);
        users.push(Box::leak(Box::new(profile)));
    }
    Ok(())
}

/// Every profile: the user's first (they win a tie), then the built-in ones.
pub fn all() -> Vec<&'static Profile> {
    let users = USER.read().unwrap_or_else(|e| e.into_inner());
    users.iter().copied().chain(built_in().iter()).collect()
}

/// The profile with this name.
pub fn named(name: &str) -> Option<&'static Profile> {
    all().into_iter().find(|p| p.spec.name == name)
}

#[cfg(test)]
mod tests;
