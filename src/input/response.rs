//! Provider responses as the answer: recognises the format and reads the text, the native
//! citations, the cut-off and the token counts.

use crate::error::InputError;

use super::{Answer, AnswerFormat};

/// The format `text` is written in, recognised from its content.
pub fn detect(_text: &str) -> AnswerFormat {
    AnswerFormat::Text
}

/// Reads a provider response written in `format`.
pub fn read(_text: &str, format: AnswerFormat) -> Result<Answer, InputError> {
    Err(InputError::Response {
        line: None,
        message: format!("{} responses cannot be read yet", format.name()),
    })
}
