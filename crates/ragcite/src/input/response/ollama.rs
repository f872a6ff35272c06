//! Ollama: `/api/chat` (`message.content`) and `/api/generate` (`response`), one JSON object or
//! the NDJSON stream (the default), whose text is joined from every line; `done_reason`,
//! `prompt_eval_count` and `eval_count` come from the `done: true` line. Cut off when
//! `done_reason` is `length`; a stream without its `done: true` line ended early. `{"error":
//! "..."}` is Ollama's error body, also as a line of a stream.

use serde_json::{Map, Value};

use super::json::{
    empty_stream, error_message, json_values, object_of, opt_object, opt_str, opt_whole, wrong,
};
use super::reading::{ENDED_EARLY, Reading, StreamErrors, cut_off};
use super::{Provider, never, no_sources};
use crate::input::AnswerFormat;
use crate::input::InputError;

pub(super) const PROVIDER: Provider = Provider {
    format: AnswerFormat::Ollama,
    response: is_response,
    event: never,
    error: |object| object.get("error").is_some_and(Value::is_string),
    array_stream: false,
    keys: &["done", "response", "message"],
    read,
    sources_elsewhere: "",
    sources: no_sources,
};

/// `message.content` or `response` as a string, with `done` or `model`.
fn is_response(object: &Map<String, Value>) -> bool {
    let ollama_fields = object.contains_key("done") || object.contains_key("model");
    let content = object.get("message").and_then(|m| m.get("content"));
    ollama_fields
        && (content.is_some_and(Value::is_string)
            || object.get("response").is_some_and(Value::is_string))
}

fn read(text: &str) -> Result<Reading, InputError> {
    let items = json_values(text)?;
    let streamed = items.len() > 1;
    let mut reading = Reading {
        streamed,
        ..Reading::default()
    };
    let mut errors = StreamErrors::default();
    let mut final_line = None;
    let mut saw_unfinished = false;
    let mut answered = false;
    for item in &items {
        // One object's fields need no line; a stream's do.
        let at = streamed.then_some(item.line);
        let object = object_of(item)?;
        if let Some(message) = error_message(object) {
            errors.note(&mut reading, at, message);
            continue;
        }
        answered = true;
        let piece = match opt_object(object.get("message")).map_err(|w| w.at(at, "message"))? {
            Some(message) => {
                opt_str(message.get("content")).map_err(|w| w.at(at, "message.content"))?
            }
            None => opt_str(object.get("response")).map_err(|w| w.at(at, "response"))?,
        };
        reading.text.push_str(piece.unwrap_or(""));
        match object.get("done") {
            Some(Value::Bool(true)) => final_line = Some((object, at)),
            Some(Value::Bool(false)) => saw_unfinished = true,
            None | Some(Value::Null) => {}
            Some(other) => return Err(wrong(other, "a boolean").at(at, "done")),
        }
    }
    if !answered {
        return Err(errors.or(empty_stream()));
    }
    match final_line {
        Some((object, at)) => {
            let reason = opt_str(object.get("done_reason")).map_err(|w| w.at(at, "done_reason"))?;
            if reason == Some("length") {
                reading.warnings.push(cut_off("done_reason", "length"));
            }
            let count = |key: &str| opt_whole(object.get(key)).map_err(|w| w.at(at, key));
            reading.prompt_tokens = count("prompt_eval_count")?;
            reading.completion_tokens = count("eval_count")?;
        }
        // One object without `done` at all may come from a compatible server: nothing to say.
        None if streamed || saw_unfinished => reading.warnings.push(ENDED_EARLY.to_string()),
        None => {}
    }
    Ok(reading)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::response::testing::*;

    #[test]
    fn ollama_chat_and_its_stream() {
        let single = read_detected(fixture!("ollama-chat.json"));
        let stream = read_detected(fixture!("ollama-chat-stream.ndjson"));
        for answer in [&single, &stream] {
            assert_eq!(answer.text, MARKED);
            assert_eq!(answer.format, AnswerFormat::Ollama);
            assert_eq!(answer.offset, 0);
            assert_eq!(answer.usage, usage(412, 52));
            assert!(answer.citations.is_empty());
            assert!(answer.warnings.is_empty(), "{:?}", answer.warnings);
        }
        assert!(!single.streamed);
        assert!(stream.streamed);
    }

    #[test]
    fn ollama_generate_and_its_stream() {
        let single = read_detected(fixture!("ollama-generate.json"));
        let stream = read_detected(fixture!("ollama-generate-stream.ndjson"));
        for answer in [&single, &stream] {
            assert_eq!(answer.text, MARKED);
            assert_eq!(answer.usage, usage(398, 52));
            assert!(answer.warnings.is_empty(), "{:?}", answer.warnings);
        }
        assert_eq!((single.streamed, stream.streamed), (false, true));
    }
}
