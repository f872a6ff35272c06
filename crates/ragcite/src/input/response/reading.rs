//! What a provider's reader gathers before it becomes an [`Answer`], and the warnings that a
//! response raises about itself. Their wording is part of the interface: the README documents
//! it.

use serde_json::Value;

use serde_json::Map;

use super::json::{
    Located, WrongType, error_message, is_an_error, object_of, opt_object, opt_str, opt_whole,
};
use crate::input::InputError;
use crate::input::{
    Answer, AnswerFormat, Chunk, ChunkFormat, Chunks, NativeCitation, Usage, finish_chunks,
};

/// A response stopped by its token limit. `field` and `value` are the provider's own names, so
/// that a user can find them in their logs.
pub(super) fn cut_off(field: &str, value: &str) -> String {
    format!(
        "the response was cut off by the token limit ({field} = \"{value}\"): the end of the \
         answer, and possibly citations, are missing"
    )
}

fn stream_error(message: &str) -> String {
    format!("the stream carried an error: {message}")
}

pub(super) const ENDED_EARLY: &str = "the stream ended before its final message";

/// What a reader gathers, before it becomes an [`Answer`].
#[derive(Default)]
pub(crate) struct Reading {
    pub text: String,
    pub streamed: bool,
    pub citations: Vec<NativeCitation>,
    pub prompt_tokens: Option<u64>,
    pub completion_tokens: Option<u64>,
    pub warnings: Vec<String>,
    /// The retrieved text the response carries beside the answer, when it carries some.
    pub sources: Option<Sources>,
    /// The question the answer replies to, when the response holds it (a chat export).
    pub question: Option<String>,
}

/// The chunks a response carries, in the order the stack gives them.
#[derive(Default)]
pub(crate) struct Sources {
    pub chunks: Vec<Chunk>,
    /// The stack numbers its sources itself and the ids are those numbers (Haystack's
    /// `source_index`): a bare number in a marker names the chunk with that id, never the n-th.
    pub ids_are_numbers: bool,
    /// What a reader should know about them (a source whose text is not there).
    pub warnings: Vec<String>,
}

impl Sources {
    /// The chunks, checked as every chunks file is (no duplicate ids; empty ones warned of).
    pub fn into_chunks(self, format: ChunkFormat) -> Result<Chunks, InputError> {
        let mut chunks = finish_chunks(self.chunks, format)?;
        chunks.ids_are_numbers = self.ids_are_numbers;
        chunks.warnings.splice(0..0, self.warnings);
        Ok(chunks)
    }
}

impl Reading {
    pub fn streamed() -> Self {
        Reading {
            streamed: true,
            ..Reading::default()
        }
    }

    pub fn into_answer(self, format: AnswerFormat) -> Result<Answer, InputError> {
        let usage =
            (self.prompt_tokens.is_some() || self.completion_tokens.is_some()).then_some(Usage {
                prompt_tokens: self.prompt_tokens,
                completion_tokens: self.completion_tokens,
            });
        let sources = match self.sources {
            Some(sources) => Some(sources.into_chunks(ChunkFormat::Sources(format))?),
            None => None,
        };
        Ok(Answer {
            text: self.text,
            offset: 0,
            format,
            streamed: self.streamed,
            citations: self.citations,
            usage,
            warnings: self.warnings,
            question: self.question,
            sources,
            marker: None,
        })
    }

    /// Token counts from the object at `usage` (`path` names it in errors); a count that is
    /// absent leaves the one read before, as streams send them in pieces.
    pub fn read_usage(
        &mut self,
        usage: Option<&Value>,
        path: &str,
        (prompt_key, completion_key): (&str, &str),
        at: Option<usize>,
    ) -> Result<(), InputError> {
        let Some(usage) = opt_object(usage).map_err(|w| w.at(at, path))? else {
            return Ok(());
        };
        let count = |key: &str| {
            opt_whole(usage.get(key)).map_err(|w: WrongType| w.at(at, format_args!("{path}.{key}")))
        };
        if let Some(tokens) = count(prompt_key)? {
            self.prompt_tokens = Some(tokens);
        }
        if let Some(tokens) = count(completion_key)? {
            self.completion_tokens = Some(tokens);
        }
        Ok(())
    }
}

/// Remembers the last error of a stream, to report it when the stream carried nothing else.
#[derive(Default)]
pub(super) struct StreamErrors {
    last: Option<(Option<usize>, String)>,
}

impl StreamErrors {
    pub fn note(&mut self, reading: &mut Reading, line: Option<usize>, message: String) {
        reading.warnings.push(stream_error(&message));
        self.last = Some((line, message));
    }

    /// The error for a stream that held no answer: its own error if it carried one.
    pub fn or(self, otherwise: InputError) -> InputError {
        match self.last {
            Some((line, message)) => is_an_error(line, &message),
            None => otherwise,
        }
    }
}

/// One event of a stream: its line, its object and its `type`.
pub(super) struct Event<'a> {
    pub at: Option<usize>,
    pub object: &'a Map<String, Value>,
    pub kind: Option<&'a str>,
}

/// The events of a stream whose events say their `type` (Anthropic, Cohere, OpenAI Responses),
/// in order; an error event is noted (a warning, and the error the stream is when it carries
/// nothing else) and left out.
pub(super) fn typed_events<'a>(
    items: &'a [Located],
    reading: &mut Reading,
    errors: &mut StreamErrors,
) -> Result<Vec<Event<'a>>, InputError> {
    let mut events = Vec::with_capacity(items.len());
    for item in items {
        let at = Some(item.line);
        let object = object_of(item)?;
        if let Some(message) = error_message(object) {
            errors.note(reading, at, message);
            continue;
        }
        let kind = opt_str(object.get("type")).map_err(|w| w.at(at, "type"))?;
        events.push(Event { at, object, kind });
    }
    Ok(events)
}
