//! Recognising a response's format from its content, by asking each provider of
//! [`PROVIDERS`](super::PROVIDERS) in turn.

use serde_json::{Map, Value};

use super::json::{DONE, invalid_json, is_sse};
use super::{PROVIDERS, Provider};
use crate::input::AnswerFormat;
use crate::input::InputError;

/// The format `text` is written in, recognised from its content.
///
/// - Text whose first non-blank characters are `data:`, `event:` or `:` is a server-sent event
///   stream when one of its `data:` lines holds a JSON object or `[DONE]`. The first payload that
///   a provider recognises as one of its stream's events decides (`choices` is OpenAI Chat
///   Completions, `candidates` Gemini, a `type` starting with `response.` the OpenAI Responses
///   API, an Anthropic or Cohere event type those). A stream none of whose payloads says (only
///   `data: [DONE]`, only errors, a payload that is not valid JSON) is read as OpenAI, the format
///   most servers speak, so that [`read`](super::read) reports what is wrong with it. Without
///   such a `data:` line it is text.
/// - Text starting with `{` or `[` is recognised by its first JSON value (one object, or the
///   first line of NDJSON): the first provider whose response it is (see each provider's
///   module), else the first whose stream event it is (events logged one per line), else the
///   first whose error body it is (so that reading it reports the provider's message). A JSON
///   array whose first object is a Gemini response is Gemini's JSON-array stream.
/// - JSON that no provider recognises is an error naming its top-level keys, never prose: an
///   object, or an array when the whole text is JSON. So is JSON that does not parse but opens
///   like an object (`{"`, or `[{"`), unless one of a provider's keys (a quoted name followed by
///   `:`) names the format: then that provider's reader reports the JSON error with its line.
/// - Everything else is text, including Markdown that starts with `[1]` (its first JSON value is
///   the array `[1]`, followed by prose) or with `{` in prose.
pub fn detect(text: &str) -> Result<AnswerFormat, InputError> {
    detect_with_tie(text).map(|(format, _)| format)
}

/// [`detect`], and the format that matches the JSON as well as the one chosen, when one does
/// (the highest [`candidates`] tie): the answer was read by the first, and a warning says so.
pub fn detect_with_tie(text: &str) -> Result<(AnswerFormat, Option<AnswerFormat>), InputError> {
    let start = text.trim_start();
    if is_sse(start) {
        return Ok((detect_sse(start), None));
    }
    if !start.starts_with(['{', '[']) {
        return Ok((AnswerFormat::Text, None));
    }
    let best_of = |value: &Value| {
        let found = candidates(value);
        let best = *found.first()?;
        let tie = found
            .get(1)
            .filter(|c| c.score == best.score && c.format != best.format)
            .map(|c| c.format);
        Some((best.format, tie))
    };
    let mut values = serde_json::Deserializer::from_str(start).into_iter::<Value>();
    match values.next() {
        Some(Ok(value @ Value::Object(_))) => best_of(&value).ok_or_else(|| unknown_json(&value)),
        Some(Ok(value @ Value::Array(_))) => {
            let items = value.as_array().map(Vec::as_slice).unwrap_or_default();
            let first = items.first().and_then(Value::as_object);
            if let Some(provider) = first.and_then(|first| {
                PROVIDERS
                    .iter()
                    .find(|p| p.array_stream && (p.response)(first))
            }) {
                return Ok((provider.format, None));
            }
            // `[1] The tower is tall.` is Markdown; a text that is nothing but JSON is not.
            if values.all(|v| v.is_ok()) {
                return best_of(&value).ok_or_else(|| unknown_json(&value));
            }
            Ok((AnswerFormat::Text, None))
        }
        Some(Ok(_)) => Ok((AnswerFormat::Text, None)),
        Some(Err(e)) if opens_a_json_object(start) => match guess_from_keys(start) {
            Some(format) => Ok((format, None)),
            None => Err(invalid_json(&e, e.line(), 0)),
        },
        _ => Ok((AnswerFormat::Text, None)),
    }
}

/// The error for JSON that no provider recognises, naming the keys of the object (or of an
/// array's first object) and the profiles most of whose conditions hold.
fn unknown_json(value: &Value) -> InputError {
    const SHOWN: usize = 12;
    let object = value
        .as_object()
        .or_else(|| value.as_array()?.first()?.as_object());
    let mut near: Vec<(usize, usize, &str)> = super::profile::all()
        .into_iter()
        .filter(|p| p.has_answer())
        .filter_map(|p| {
            let (held, all) = p.conditions_held(value);
            (held > 0 && held * 2 >= all).then_some((held, all, p.name()))
        })
        .collect();
    // Most conditions held first, then the fewest missing; equals keep the list's order.
    near.sort_by(|a, b| b.0.cmp(&a.0).then((a.1 - a.0).cmp(&(b.1 - b.0))));
    let closest: Vec<String> = near
        .iter()
        .take(3)
        .map(|(held, all, name)| format!("`{name}` ({held} of {all} conditions)"))
        .collect();
    let keys: Vec<String> = object
        .map(|o| o.keys().take(SHOWN).map(|k| format!("`{k}`")).collect())
        .unwrap_or_default();
    let more = object.is_some_and(|o| o.len() > SHOWN);
    InputError::UnknownJson {
        keys: keys.join(", ") + if more { ", ..." } else { "" },
        closest: closest.join(", "),
    }
}

fn detect_sse(text: &str) -> AnswerFormat {
    let mut has_payload = false;
    for line in text.lines() {
        let Some(payload) = line.strip_prefix("data:").map(str::trim) else {
            continue;
        };
        if payload == DONE {
            has_payload = true;
        } else if payload.starts_with('{') {
            has_payload = true;
            let value = serde_json::from_str::<Value>(payload).ok();
            if let Some(format) = value
                .as_ref()
                .and_then(Value::as_object)
                .and_then(classify_event)
            {
                return format;
            }
        }
    }
    if has_payload {
        AnswerFormat::Openai
    } else {
        AnswerFormat::Text
    }
}

/// How a provider recognises one JSON object (its response, event or error body).
type Recognises = fn(&Map<String, Value>) -> bool;

fn first_format(
    object: &Map<String, Value>,
    test: fn(&Provider) -> Recognises,
) -> Option<AnswerFormat> {
    PROVIDERS.iter().find(|p| test(p)(object)).map(|p| p.format)
}

fn classify_event(event: &Map<String, Value>) -> Option<AnswerFormat> {
    first_format(event, |p| p.event)
}

/// The format of one JSON document: the best of its [`candidates`].
pub(super) fn classify(value: &Value) -> Option<AnswerFormat> {
    candidates(value).first().map(|c| c.format)
}

/// A format that a JSON document matches, and how well.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Candidate {
    pub format: AnswerFormat,
    /// A profile's number of conditions; a reader written in Rust scores
    /// [`READER_SCORE`](super::profile::READER_SCORE) for a response of its own, one less for an
    /// event of its stream and none for its error body.
    pub score: usize,
}

/// Every format that the JSON document `value` matches, best first: the highest score wins;
/// among equals, a reader written in Rust comes before a profile, the user's profiles before the
/// built-in ones, and otherwise the order of their lists.
pub fn candidates(value: &Value) -> Vec<Candidate> {
    let mut found = Vec::new();
    if let Some(object) = value.as_object() {
        let score = super::profile::READER_SCORE;
        let rust = first_format(object, |p| p.response)
            .map(|format| (format, score))
            .or_else(|| classify_event(object).map(|format| (format, score - 1)))
            .or_else(|| first_format(object, |p| p.error).map(|format| (format, 0)));
        if let Some((format, score)) = rust {
            found.push(Candidate { format, score });
        }
    }
    for profile in super::profile::all() {
        if let Some(score) = profile.score(value) {
            found.push(Candidate {
                format: AnswerFormat::Profile(crate::input::ProfileRef(profile)),
                score,
            });
        }
    }
    // Stable: equals keep the order above.
    found.sort_by_key(|c| std::cmp::Reverse(c.score));
    found
}

/// `{"`, or `[{"`, with any white space between: a JSON object's first key, which prose does not
/// start with.
fn opens_a_json_object(start: &str) -> bool {
    let rest = start.strip_prefix('[').map_or(start, str::trim_start);
    rest.strip_prefix('{')
        .is_some_and(|rest| rest.trim_start().starts_with('"'))
}

/// The format of the first provider one of whose keys occurs in `text`.
fn guess_from_keys(text: &str) -> Option<AnswerFormat> {
    PROVIDERS
        .iter()
        .find(|p| p.keys.iter().any(|key| has_key(text, key)))
        .map(|p| p.format)
}

/// Whether `"key"` followed by `:` occurs in `text`: a JSON key, not the word in the answer.
fn has_key(text: &str, key: &str) -> bool {
    let quoted = format!("\"{key}\"");
    text.match_indices(&quoted).any(|(at, _)| {
        text.get(at + quoted.len()..)
            .is_some_and(|rest| rest.trim_start().starts_with(':'))
    })
}
