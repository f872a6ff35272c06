//! Why an input could not be read. The binary wraps these errors with the name of the file they concern.

use super::ChunkPosition;

/// Why an input could not be read. Each message is one line and says what is wrong and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InputError {
    #[error("invalid UTF-8 at byte {offset}")]
    InvalidUtf8 { offset: usize },
    #[error("the {what} is empty")]
    Empty { what: &'static str },
    #[error("invalid JSON at line {line}, column {column}: {message}")]
    Json {
        line: usize,
        column: usize,
        message: String,
    },
    #[error("duplicate chunk id `{id}` (chunks {first} and {second})")]
    DuplicateId {
        id: String,
        first: usize,
        second: usize,
    },
    /// A provider response that cannot be read: invalid JSON where JSON was recognised, an empty
    /// stream, a field of the wrong type.
    #[error("{}{message}", line.map(|l| format!("line {l}: ")).unwrap_or_default())]
    Response {
        line: Option<usize>,
        message: String,
    },
    /// JSON that no response format ragcite knows matches: never linted as prose.
    #[error(
        "JSON of no known response format ({}){}; point at the answer with `--answer-path PATH`, \
         or read it as prose with `--answer-format text`",
        if keys.is_empty() { "no keys".to_string() } else { format!("top-level keys: {keys}") },
        if closest.is_empty() { String::new() } else { format!("; closest: {closest} (name one with `--answer-format`)") }
    )]
    UnknownJson { keys: String, closest: String },
    #[error("{}{message}", position_prefix(position))]
    ChunkShape {
        position: Option<ChunkPosition>,
        message: String,
    },
}

fn position_prefix(position: &Option<ChunkPosition>) -> String {
    match position {
        None => String::new(),
        Some(ChunkPosition {
            index,
            line: Some(line),
        }) => format!("chunk {index} (line {line}): "),
        Some(ChunkPosition { index, line: None }) => format!("chunk {index}: "),
    }
}

/// A reading by paths that went past its budget is a response that cannot be read.
impl From<super::path::PathError> for InputError {
    fn from(error: super::path::PathError) -> Self {
        InputError::Response {
            line: None,
            message: error.to_string(),
        }
    }
}
