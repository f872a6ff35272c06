//! The requests of the HTTP API and the MCP tools, read in two steps so that every problem is
//! reported at once: the body is parsed to a JSON value (a failure is a malformed body, 400),
//! then every field is checked (each problem listed, 422), and only then are the answer and the
//! chunks read. Lengths count characters (code points), not bytes.

use std::fmt;

use serde::Serialize;
use serde::de::{self, Deserializer as _, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use super::json::shown;
use crate::check::{DEFAULT_THRESHOLD, THRESHOLD_RANGE};
use crate::input::{self, Answer, Chunks, json_kind};

/// The longest answer a request may carry, in characters.
pub const MAX_ANSWER_CHARS: usize = 100_000;
/// The longest `question` a `calculate` request may carry, in characters.
pub const MAX_QUESTION_CHARS: usize = 10_000;
/// The longest chunks string a request may carry, in characters.
pub const MAX_CHUNKS_CHARS: usize = 500_000;
/// The longest document `verify_citation` and `/api/v1/quote` take as text, in characters.
pub const MAX_DOCUMENT_CHARS: usize = 1_000_000;
/// The longest quotation, in characters.
pub const MAX_QUOTE_CHARS: usize = 100_000;
/// The most problems a request error lists; the others are counted.
pub const MAX_LISTED_ERRORS: usize = 100;

/// One invalid field and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldError {
    /// The field's name as the request spells it (`answer`, `supportThreshold`); `(body)` for
    /// the body as a whole.
    pub field: String,
    pub message: String,
}

impl FieldError {
    /// A problem with `field` (a name from the request is cut to its beginning when long).
    fn new(field: &str, message: impl Into<String>) -> Self {
        FieldError {
            field: shown(field),
            message: message.into(),
        }
    }
}

/// The problems of a request: the first [`MAX_LISTED_ERRORS`], and how many more there are,
/// so that neither the error nor the gathering of it grows with the request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldErrors {
    pub listed: Vec<FieldError>,
    /// The problems found beyond those listed.
    pub more: usize,
}

impl FieldErrors {
    fn one(error: FieldError) -> Self {
        FieldErrors {
            listed: vec![error],
            more: 0,
        }
    }

    /// Adds a problem: listed if there is room, else counted.
    fn push(&mut self, error: impl FnOnce() -> FieldError) {
        if self.listed.len() < MAX_LISTED_ERRORS {
            self.listed.push(error());
        } else {
            self.more += 1;
        }
    }

    /// Every problem found, listed or not.
    pub fn len(&self) -> usize {
        self.listed.len() + self.more
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `and 4,902 more` when problems go unlisted.
    pub fn and_more(&self) -> Option<String> {
        (self.more > 0).then(|| format!("and {} more", thousands(self.more)))
    }
}

/// Why a request cannot be served.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RequestError {
    /// The body is not JSON: 400.
    #[error("the body is not valid JSON: {0}")]
    Malformed(String),
    /// The body is JSON, but fields are missing, of the wrong type, too long or unreadable:
    /// 422, with each problem.
    #[error("{}", describe(.0))]
    Invalid(FieldErrors),
}

fn describe(errors: &FieldErrors) -> String {
    let mut listed: Vec<String> = errors
        .listed
        .iter()
        .map(|e| format!("{}: {}", e.field, e.message))
        .collect();
    listed.extend(errors.and_more());
    format!("invalid input: {}", listed.join("; "))
}

/// A checked `calculate` request (the `rag_citation_debugger` tool's input).
#[derive(Debug, Clone)]
pub struct CalculateRequest {
    /// The answer as given.
    pub answer_text: String,
    /// The chunks as given.
    pub chunks_text: String,
    pub threshold: f64,
    /// ragcite's addition to the contract: `lang`, English unless given (or detected).
    pub language: crate::Language,
    /// `lang` is `auto` or absent: the answer's language is detected (English when unsure).
    pub auto_language: bool,
    /// ragcite's addition: `citationScope` (`sentence` unless given).
    pub citation_scope: crate::CitationScope,
    /// The answer, its `question` set from the request's (ragcite's addition, as
    /// `--question`) when it gives one.
    pub answer: Answer,
    pub chunks: Chunks,
}

impl CalculateRequest {
    /// Reads a request body.
    pub fn from_body(body: &[u8]) -> Result<Self, RequestError> {
        Self::from_fields(Fields::parse(body, Self::FIELDS)?)
    }

    /// Reads a request already parsed to JSON (as MCP tool arguments are).
    pub fn from_value(value: Value) -> Result<Self, RequestError> {
        Self::from_fields(Fields::new(value, Self::FIELDS)?)
    }

    const FIELDS: &[&str] = &[
        "answer",
        "chunks",
        "supportThreshold",
        "lang",
        "citationScope",
        "question",
    ];

    fn from_fields(mut fields: Fields) -> Result<Self, RequestError> {
        let answer = fields.string("answer", MAX_ANSWER_CHARS, false);
        let chunks = fields.string("chunks", MAX_CHUNKS_CHARS, false);
        let threshold = fields.threshold("supportThreshold");
        // ragcite's addition: the language of `--lang` (detected when absent or `auto`).
        let lang = fields.optional_string("lang", 32);
        let auto_language = lang
            .as_deref()
            .is_none_or(|code| code.trim().eq_ignore_ascii_case("auto"));
        let language = match lang.filter(|_| !auto_language) {
            None => Some(crate::Language::default()),
            Some(code) => match code.parse::<crate::Language>() {
                Ok(language) => Some(language),
                Err(e) => {
                    fields.error("lang", e.to_string());
                    None
                }
            },
        };
        // ragcite's addition: what a marker covers, as `--citation-scope`.
        let citation_scope = match fields.optional_string("citationScope", 32) {
            None => Some(crate::CitationScope::default()),
            Some(scope) => match scope.parse::<crate::CitationScope>() {
                Ok(scope) => Some(scope),
                Err(e) => {
                    fields.error("citationScope", e);
                    None
                }
            },
        };
        // ragcite's addition: the question the answer replies to, as `--question` (a figure it
        // states is context); it wins over a question the answer's response holds.
        let question = fields.optional_string("question", MAX_QUESTION_CHARS);
        let (
            Some(answer_text),
            Some(chunks_text),
            Some(threshold),
            Some(language),
            Some(citation_scope),
        ) = (answer, chunks, threshold, language, citation_scope)
        else {
            return Err(fields.invalid());
        };
        fields.finish()?;
        // Then the contents: a provider response or prose, and the chunks in any format the
        // command line reads, or the sources the response carries when `chunks` is empty. The
        // contract allows empty strings: an empty answer has no sentence, empty chunks none to
        // cite, and a warning says so. An answer with no printable text is an empty one.
        let mut errors = Vec::new();
        let answer = if input::is_blank(&answer_text) {
            Some(Answer {
                warnings: vec!["the answer is empty".to_string()],
                ..Answer::default()
            })
        } else {
            input::read_answer(answer_text.as_bytes(), None)
                .map_err(|e| errors.push(FieldError::new("answer", e.to_string())))
                .ok()
        };
        let chunks = match &answer {
            _ if !chunks_text.trim().is_empty() => {
                input::read_chunks(chunks_text.as_bytes(), false)
                    .map_err(|e| errors.push(FieldError::new("chunks", e.to_string())))
                    .ok()
            }
            Some(Answer {
                sources: Some(sources),
                ..
            }) => Some(sources.clone()),
            _ => Some(Chunks {
                chunks: Vec::new(),
                format: input::ChunkFormat::Json,
                warnings: vec!["no chunks were given".to_string()],
                ids_are_numbers: false,
            }),
        };
        match (answer, chunks) {
            (Some(mut answer), Some(chunks)) if errors.is_empty() => Ok(CalculateRequest {
                answer: {
                    if question.is_some() {
                        answer.question = question;
                    }
                    answer
                },
                answer_text,
                chunks_text,
                threshold,
                language,
                auto_language,
                citation_scope,
                chunks,
            }),
            _ => Err(RequestError::Invalid(FieldErrors {
                listed: errors,
                more: 0,
            })),
        }
    }
}

/// A checked quote request: `/api/v1/quote`, or `verify_citation` with its document as text.
#[derive(Debug, Clone, PartialEq)]
pub struct QuoteRequest {
    pub quote: String,
    pub document: String,
}

impl QuoteRequest {
    pub fn from_body(body: &[u8]) -> Result<Self, RequestError> {
        let mut fields = Fields::parse(body, &["document", "quote"])?;
        let document = fields.string("document", MAX_DOCUMENT_CHARS, true);
        let quote = fields.quote();
        fields.finish()?;
        match (document, quote) {
            (Some(document), Some(quote)) => Ok(QuoteRequest { quote, document }),
            _ => Err(fields.invalid()),
        }
    }
}

/// A checked `verify_citation` request: the quote, and the document as text or as the id of a
/// document of the server's folder, with the id of one of its chunks.
#[derive(Debug, Clone, PartialEq)]
pub struct VerifyRequest {
    pub quote: String,
    pub document: DocumentRef,
    pub chunk_id: Option<String>,
}

/// Where `verify_citation` looks.
#[derive(Debug, Clone, PartialEq)]
pub enum DocumentRef {
    Text(String),
    Id(String),
}

impl VerifyRequest {
    pub fn from_value(value: Value) -> Result<Self, RequestError> {
        let mut fields = Fields::new(value, &["quote", "document", "document_id", "chunk_id"])?;
        let quote = fields.quote();
        let text = fields.optional_string("document", MAX_DOCUMENT_CHARS);
        let id = fields.optional_string("document_id", 1024);
        let chunk_id = fields.optional_string("chunk_id", 1024);
        if chunk_id.is_some() && text.is_some() {
            fields.error(
                "chunk_id",
                "names a chunk of a document_id; it cannot go with document",
            );
        }
        let document = match (text, id) {
            (Some(text), None) => Some(DocumentRef::Text(text)),
            (None, Some(id)) => Some(DocumentRef::Id(id)),
            (Some(_), Some(_)) => {
                fields.error(
                    "document_id",
                    "give either document or document_id, not both",
                );
                None
            }
            (None, None) if !fields.has_error("document") && !fields.has_error("document_id") => {
                fields.error("document", "give the document's text, or a document_id");
                None
            }
            (None, None) => None,
        };
        fields.finish()?;
        match (quote, document) {
            (Some(quote), Some(document)) => Ok(VerifyRequest {
                quote,
                document,
                chunk_id,
            }),
            _ => Err(fields.invalid()),
        }
    }
}

/// A key of the request that is not one of its fields.
fn unknown(key: &str, known: &[&str]) -> FieldError {
    FieldError::new(
        key,
        format!(
            "is not a field of this request (expected {})",
            known.join(", ")
        ),
    )
}

/// The fields of a request object, checked one by one, gathering every problem.
struct Fields {
    object: Map<String, Value>,
    errors: FieldErrors,
}

impl Fields {
    /// The request's object; a field not in `known` is a problem.
    fn new(value: Value, known: &[&str]) -> Result<Self, RequestError> {
        let Value::Object(object) = value else {
            return Err(not_an_object(json_kind(&value)));
        };
        let mut errors = FieldErrors::default();
        for key in object.keys().filter(|k| !known.contains(&k.as_str())) {
            errors.push(|| unknown(key, known));
        }
        Ok(Fields { object, errors })
    }

    /// A request body: malformed unless JSON; then its object's fields, a field not in
    /// `known` or given twice being a problem. Only the known fields' values are kept, so
    /// that the work and the memory follow the fields, not the keys a body may pile up.
    fn parse(body: &[u8], known: &[&str]) -> Result<Self, RequestError> {
        let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
        if body.iter().all(u8::is_ascii_whitespace) {
            return Err(RequestError::Malformed("the body is empty".to_string()));
        }
        let mut deserializer = serde_json::Deserializer::from_slice(body);
        let read = (&mut deserializer)
            .deserialize_any(BodyVisitor { known })
            .and_then(|read| deserializer.end().map(|()| read))
            .map_err(|e| RequestError::Malformed(e.to_string()))?;
        match read {
            Body::Object(fields) => Ok(fields),
            Body::Other(kind) => Err(not_an_object(kind)),
        }
    }

    fn error(&mut self, field: &str, message: impl Into<String>) {
        self.errors.push(|| FieldError::new(field, message));
    }

    fn has_error(&self, field: &str) -> bool {
        self.errors.listed.iter().any(|e| e.field == field)
    }

    /// A required string of at most `max` characters (and not blank when `not_blank`).
    fn string(&mut self, field: &str, max: usize, not_blank: bool) -> Option<String> {
        match self.object.remove(field) {
            None => {
                self.error(field, "is required");
                None
            }
            Some(value) => self.checked_string(field, value, max, not_blank),
        }
    }

    fn optional_string(&mut self, field: &str, max: usize) -> Option<String> {
        match self.object.remove(field) {
            None => None,
            Some(value) => self.checked_string(field, value, max, true),
        }
    }

    fn checked_string(
        &mut self,
        field: &str,
        value: Value,
        max: usize,
        not_blank: bool,
    ) -> Option<String> {
        let Value::String(text) = value else {
            self.error(
                field,
                format!("must be a string, not {}", json_kind(&value)),
            );
            return None;
        };
        let chars = text.chars().count();
        if chars > max {
            self.error(
                field,
                format!(
                    "is {} characters long; at most {} are allowed",
                    thousands(chars),
                    thousands(max)
                ),
            );
            return None;
        }
        if not_blank && text.trim().is_empty() {
            self.error(field, "must not be empty");
            return None;
        }
        Some(text)
    }

    /// The quotation, without one pair of quotation marks around it counted against it.
    fn quote(&mut self) -> Option<String> {
        self.string("quote", MAX_QUOTE_CHARS, true)
    }

    /// The support threshold: a number from 0.1 to 1, 0.5 when left out.
    fn threshold(&mut self, field: &str) -> Option<f64> {
        let (low, high) = THRESHOLD_RANGE;
        match self.object.remove(field) {
            None => Some(DEFAULT_THRESHOLD),
            Some(Value::Number(n)) => match n.as_f64() {
                Some(t) if (low..=high).contains(&t) => Some(t),
                _ => {
                    self.error(field, format!("must be from {low} to {high}, not {n}"));
                    None
                }
            },
            Some(other) => {
                self.error(
                    field,
                    format!("must be a number, not {}", json_kind(&other)),
                );
                None
            }
        }
    }

    fn invalid(&mut self) -> RequestError {
        RequestError::Invalid(std::mem::take(&mut self.errors))
    }

    /// The problems found, if any.
    fn finish(&mut self) -> Result<(), RequestError> {
        if self.errors.is_empty() {
            Ok(())
        } else {
            Err(self.invalid())
        }
    }
}

fn not_an_object(kind: &str) -> RequestError {
    RequestError::Invalid(FieldErrors::one(FieldError::new(
        "(body)",
        format!("must be a JSON object, not {kind}"),
    )))
}

/// What the top of a body holds.
enum Body {
    Object(Fields),
    Other(&'static str),
}

/// Reads a body's top level: an object's known fields as values, the others named and skipped.
struct BodyVisitor<'a> {
    known: &'a [&'a str],
}

impl<'de> Visitor<'de> for BodyVisitor<'_> {
    type Value = Body;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Body, A::Error> {
        let mut object = Map::new();
        let mut errors = FieldErrors::default();
        while let Some(key) = map.next_key::<String>()? {
            if !self.known.contains(&key.as_str()) {
                errors.push(|| unknown(&key, self.known));
                map.next_value::<IgnoredAny>()?;
            } else if object.contains_key(&key) {
                errors.push(|| {
                    FieldError::new(&key, "is given more than once (JSON keys must be unique)")
                });
                map.next_value::<IgnoredAny>()?;
            } else {
                let value = map.next_value::<Value>()?;
                object.insert(key, value);
            }
        }
        Ok(Body::Object(Fields { object, errors }))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Body, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Body::Other("an array"))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Body, E> {
        Ok(Body::Other("a boolean"))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Body, E> {
        Ok(Body::Other("a number"))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Body, E> {
        Ok(Body::Other("a number"))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Body, E> {
        Ok(Body::Other("a number"))
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Body, E> {
        Ok(Body::Other("a string"))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Body, E> {
        Ok(Body::Other("null"))
    }
}

/// `100000` as `100,000`.
pub(crate) fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHUNKS: &str = r#"[{"id":"1","text":"The tower is 330 metres tall."}]"#;

    fn invalid(body: &str) -> Vec<FieldError> {
        match CalculateRequest::from_body(body.as_bytes()) {
            Err(RequestError::Invalid(errors)) => errors.listed,
            other => panic!("expected a 422 for {body}, got {other:?}"),
        }
    }

    #[test]
    fn a_valid_request_applies_the_default_threshold() {
        let body =
            serde_json::json!({"answer": "The tower is 330 metres tall [1].", "chunks": CHUNKS});
        let request = CalculateRequest::from_body(body.to_string().as_bytes()).expect("valid");
        assert_eq!(request.threshold, 0.5);
        assert_eq!(request.chunks.chunks.len(), 1);
    }

    #[test]
    fn every_problem_is_listed() {
        let errors = invalid(r#"{"answer": 3, "supportThreshold": 2, "extra": true}"#);
        let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["extra", "answer", "chunks", "supportThreshold"]);
        assert_eq!(errors[1].message, "must be a string, not a number");
        assert_eq!(errors[2].message, "is required");
        assert_eq!(errors[3].message, "must be from 0.1 to 1, not 2");
    }

    #[test]
    fn lengths_count_characters_not_bytes() {
        // 100,000 three-byte characters: 300,000 bytes, within the limit.
        let answer = "é".repeat(MAX_ANSWER_CHARS - 3) + " [1]";
        let body = serde_json::json!({"answer": answer.chars().take(MAX_ANSWER_CHARS).collect::<String>(), "chunks": CHUNKS});
        assert!(CalculateRequest::from_body(body.to_string().as_bytes()).is_ok());
        let body =
            serde_json::json!({"answer": "é".repeat(MAX_ANSWER_CHARS + 1), "chunks": CHUNKS});
        let errors = invalid(&body.to_string());
        assert_eq!(
            errors[0].message,
            "is 100,001 characters long; at most 100,000 are allowed"
        );
    }

    #[test]
    fn empty_strings_are_valid_and_null_is_no_number() {
        let body = serde_json::json!({"answer": " ", "chunks": ""});
        let request = CalculateRequest::from_body(body.to_string().as_bytes()).expect("valid");
        assert_eq!(request.answer.warnings, ["the answer is empty"]);
        assert!(request.chunks.chunks.is_empty());
        // An answer with no printable text is an empty one.
        let body = serde_json::json!({"answer": "\u{0}\u{7}\u{1b} \u{200b}", "chunks": CHUNKS});
        let request = CalculateRequest::from_body(body.to_string().as_bytes()).expect("valid");
        assert_eq!(request.answer.warnings, ["the answer is empty"]);
        assert!(request.answer.text.is_empty());
        let errors = invalid(r#"{"answer": "a", "chunks": "b", "supportThreshold": null}"#);
        assert_eq!(errors[0].message, "must be a number, not null");
        let errors = invalid(r#"{"answer": null, "chunks": "b"}"#);
        assert_eq!(errors[0].message, "must be a string, not null");
    }

    #[test]
    fn malformed_json_is_not_an_invalid_field() {
        for body in ["", "{", "{\"answer\": }", "\u{FEFF}x"] {
            assert!(
                matches!(
                    CalculateRequest::from_body(body.as_bytes()),
                    Err(RequestError::Malformed(_))
                ),
                "{body:?}"
            );
        }
        assert_eq!(invalid("[1, 2]")[0].field, "(body)");
    }

    #[test]
    fn unreadable_chunks_are_a_field_problem() {
        let body = serde_json::json!({"answer": "The tower is tall [1].", "chunks": "{\"x\": 1}"});
        let errors = invalid(&body.to_string());
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].field, "chunks");
    }

    #[test]
    fn verify_needs_exactly_one_document() {
        let err = |value: Value| match VerifyRequest::from_value(value) {
            Err(RequestError::Invalid(errors)) => errors.listed,
            other => panic!("{other:?}"),
        };
        let errors = err(serde_json::json!({"quote": "a b c"}));
        assert_eq!(errors[0].field, "document");
        let errors =
            err(serde_json::json!({"quote": "a b c", "document": "x", "document_id": "y"}));
        assert_eq!(errors[0].field, "document_id");
        let errors = err(serde_json::json!({"quote": "a b c", "document": "x", "chunk_id": "2"}));
        assert_eq!(errors[0].field, "chunk_id");
        let ok = VerifyRequest::from_value(
            serde_json::json!({"quote": "a b c", "document_id": "d.txt", "chunk_id": "2"}),
        );
        assert_eq!(
            ok.expect("valid").document,
            DocumentRef::Id("d.txt".to_string())
        );
    }

    #[test]
    fn a_field_given_twice_is_a_problem_named_by_the_field() {
        let errors = invalid(r#"{"answer": "a", "chunks": "", "answer": "b"}"#);
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].field, "answer");
        assert_eq!(
            errors[0].message,
            "is given more than once (JSON keys must be unique)"
        );
        let quote = QuoteRequest::from_body(br#"{"quote": "a", "document": "a", "quote": "b"}"#);
        assert!(
            matches!(quote, Err(RequestError::Invalid(ref e)) if e.listed[0].field == "quote"),
            "{quote:?}"
        );
    }

    #[test]
    fn the_problems_listed_stop_at_a_hundred_and_the_rest_are_counted() {
        let keys: Vec<String> = (0..5_000).map(|k| format!("\"k{k}\": [1]")).collect();
        let body = format!("{{{}}}", keys.join(", "));
        for error in [
            CalculateRequest::from_body(body.as_bytes()).expect_err("invalid"),
            CalculateRequest::from_value(serde_json::from_str(&body).expect("JSON"))
                .expect_err("invalid"),
        ] {
            let RequestError::Invalid(errors) = &error else {
                panic!("{error:?}")
            };
            assert_eq!(errors.listed.len(), MAX_LISTED_ERRORS);
            // 5,000 unknown keys, the answer and the chunks missing.
            assert_eq!(errors.len(), 5_002);
            assert!(error.to_string().ends_with("; and 4,902 more"));
        }
        // A long key is named by its beginning.
        let body = format!("{{\"{}\": 1}}", "k".repeat(10_000));
        let errors = invalid(&body);
        assert_eq!(errors[0].field.chars().count(), 201);
    }

    #[test]
    fn bodies_that_are_not_objects_are_named_by_their_kind() {
        for (body, kind) in [
            ("[1, {}]", "an array"),
            ("\"x\"", "a string"),
            ("null", "null"),
            ("2.5", "a number"),
        ] {
            let errors = invalid(body);
            assert_eq!(
                errors[0].message,
                format!("must be a JSON object, not {kind}"),
                "{body}"
            );
        }
        assert!(matches!(
            CalculateRequest::from_body(b"{} {}"),
            Err(RequestError::Malformed(_))
        ));
        // Deep nesting is skipped without recursion where it is not kept, and stops at
        // serde_json's recursion limit where it is.
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(invalid(&deep)[0].field, "(body)");
        assert_eq!(invalid(&format!("{{\"x\": {deep}}}"))[0].field, "x");
        assert!(matches!(
            CalculateRequest::from_body(format!("{{\"answer\": {deep}}}").as_bytes()),
            Err(RequestError::Malformed(_))
        ));
    }
}
