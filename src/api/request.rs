//! The requests of the HTTP API and the MCP tools, read in two steps so that every problem is
//! reported at once: the body is parsed to a JSON value (a failure is a malformed body, 400),
//! then every field is checked (each problem listed, 422), and only then are the answer and the
//! chunks read. Lengths count characters (code points), not bytes.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::check::{DEFAULT_THRESHOLD, THRESHOLD_RANGE};
use crate::input::{self, Answer, Chunks, json_kind};

/// The longest answer a request may carry, in characters.
pub const MAX_ANSWER_CHARS: usize = 100_000;
/// The longest chunks string a request may carry, in characters.
pub const MAX_CHUNKS_CHARS: usize = 500_000;
/// The longest document `verify_citation` and `/api/v1/quote` take as text, in characters.
pub const MAX_DOCUMENT_CHARS: usize = 1_000_000;
/// The longest quotation, in characters.
pub const MAX_QUOTE_CHARS: usize = 100_000;

/// One invalid field and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldError {
    /// The field's name as the request spells it (`answer`, `supportThreshold`); `(body)` for
    /// the body as a whole.
    pub field: String,
    pub message: String,
}

impl FieldError {
    fn new(field: &str, message: impl Into<String>) -> Self {
        FieldError {
            field: field.to_string(),
            message: message.into(),
        }
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
    Invalid(Vec<FieldError>),
}

fn describe(errors: &[FieldError]) -> String {
    let listed: Vec<String> = errors
        .iter()
        .map(|e| format!("{}: {}", e.field, e.message))
        .collect();
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
    /// ragcite's addition to the contract: `lang`, English unless given.
    pub language: crate::Language,
    pub answer: Answer,
    pub chunks: Chunks,
}

impl CalculateRequest {
    /// Reads a request body.
    pub fn from_body(body: &[u8]) -> Result<Self, RequestError> {
        Self::from_value(parse(body)?)
    }

    /// Reads a request already parsed to JSON (as MCP tool arguments are).
    pub fn from_value(value: Value) -> Result<Self, RequestError> {
        let mut fields = Fields::new(value, &["answer", "chunks", "supportThreshold", "lang"])?;
        let answer = fields.string("answer", MAX_ANSWER_CHARS, false);
        let chunks = fields.string("chunks", MAX_CHUNKS_CHARS, false);
        let threshold = fields.threshold("supportThreshold");
        // ragcite's addition: the language of `--lang` (`en` when absent).
        let language = match fields.optional_string("lang", 32) {
            None => Some(crate::Language::default()),
            Some(code) => match code.parse::<crate::Language>() {
                Ok(language) => Some(language),
                Err(e) => {
                    fields.error("lang", e.to_string());
                    None
                }
            },
        };
        let (Some(answer_text), Some(chunks_text), Some(threshold), Some(language)) =
            (answer, chunks, threshold, language)
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
            (Some(answer), Some(chunks)) if errors.is_empty() => Ok(CalculateRequest {
                answer_text,
                chunks_text,
                threshold,
                language,
                answer,
                chunks,
            }),
            _ => Err(RequestError::Invalid(errors)),
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
        let mut fields = Fields::new(parse(body)?, &["document", "quote"])?;
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

/// The body as JSON, or why it is malformed.
fn parse(body: &[u8]) -> Result<Value, RequestError> {
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(RequestError::Malformed("the body is empty".to_string()));
    }
    serde_json::from_slice(body).map_err(|e| RequestError::Malformed(e.to_string()))
}

/// The fields of a request object, checked one by one, gathering every problem.
struct Fields {
    object: Map<String, Value>,
    errors: Vec<FieldError>,
}

impl Fields {
    /// The request's object; a field not in `known` is a problem.
    fn new(value: Value, known: &[&str]) -> Result<Self, RequestError> {
        let Value::Object(object) = value else {
            return Err(RequestError::Invalid(vec![FieldError::new(
                "(body)",
                format!("must be a JSON object, not {}", json_kind(&value)),
            )]));
        };
        let mut errors = Vec::new();
        for key in object.keys().filter(|k| !known.contains(&k.as_str())) {
            errors.push(FieldError::new(
                key,
                format!(
                    "is not a field of this request (expected {})",
                    known.join(", ")
                ),
            ));
        }
        Ok(Fields { object, errors })
    }

    fn error(&mut self, field: &str, message: impl Into<String>) {
        self.errors.push(FieldError::new(field, message));
    }

    fn has_error(&self, field: &str) -> bool {
        self.errors.iter().any(|e| e.field == field)
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

/// `100000` as `100,000`.
fn thousands(n: usize) -> String {
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
            Err(RequestError::Invalid(errors)) => errors,
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
            Err(RequestError::Invalid(errors)) => errors,
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
}
