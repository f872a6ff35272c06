//! A JSON answer with an explicit citation list: `{"answer": "...", "citations": [{"source": 2,
//! "quote": "..."}]}`. Each of `citations` (an object with `source` and `quote`, or a bare source)
//! becomes a citation to the label `source` (a whole number or a string), tied to no span. One
//! without a usable source is skipped with a warning: ``citations[<k>] has no `source`: it is
//! skipped`` or `` `citations[<k>].source` is <value>; expected a chunk number or label: it is
//! skipped``.

use serde_json::Value;

use super::json::{opt_array, opt_str, opt_whole, single_object, wrong};
use super::reading::Reading;
use super::{Provider, never, no_sources};
use crate::input::InputError;
use crate::input::{AnswerFormat, CitationTarget, NativeCitation, json_kind};

pub(super) const PROVIDER: Provider = Provider {
    format: AnswerFormat::CitationList,
    response: |object| object.get("answer").is_some_and(Value::is_string),
    event: never,
    error: never,
    array_stream: false,
    keys: &["answer"],
    read,
    sources_elsewhere: "",
    sources: no_sources,
};

fn read(text: &str) -> Result<Reading, InputError> {
    let object = &single_object(text)?;
    let answer = match object.get("answer") {
        Some(Value::String(answer)) => answer.clone(),
        Some(Value::Null) => String::new(),
        None => {
            return Err(InputError::Response {
                line: None,
                message: "`answer` is missing; expected a string".to_string(),
            });
        }
        Some(other) => return Err(wrong(other, "a string").at(None, "answer")),
    };
    let mut reading = Reading {
        text: answer,
        ..Reading::default()
    };
    let citations = opt_array(object.get("citations")).map_err(|w| w.at(None, "citations"))?;
    for (k, citation) in citations.iter().enumerate() {
        let (source, quote) = match citation {
            Value::Object(fields) => {
                let quote = opt_str(fields.get("quote"))
                    .map_err(|w| w.at(None, format_args!("citations[{k}].quote")))?;
                (fields.get("source"), quote)
            }
            // A bare list of sources: `"citations": [1, 3]`.
            other => (Some(other), None),
        };
        let label = match source {
            None | Some(Value::Null) => {
                reading
                    .warnings
                    .push(format!("citations[{k}] has no `source`: it is skipped"));
                continue;
            }
            Some(source) => source_label(source),
        };
        let Some(label) = label else {
            let shown = match source {
                Some(value @ (Value::Array(_) | Value::Object(_))) => json_kind(value).to_string(),
                Some(value) => format!("`{value}`"),
                None => String::new(),
            };
            reading.warnings.push(format!(
                "`citations[{k}].source` is {shown}; expected a chunk number or label: it is \
                 skipped"
            ));
            continue;
        };
        reading.citations.push(NativeCitation {
            span: None,
            target: CitationTarget::Label(label),
            quote: quote.map(str::to_string),
        });
    }
    Ok(reading)
}

/// The label a `source` names: a whole number (`2`, `2.0`; 0 too, which a chunk id may be) or a
/// non-empty string.
fn source_label(source: &Value) -> Option<String> {
    match source {
        Value::String(label) => Some(label.trim().to_string()).filter(|l| !l.is_empty()),
        Value::Number(_) => opt_whole(Some(source))
            .ok()
            .flatten()
            .map(|n| n.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::response::testing::*;

    #[test]
    fn citation_list() {
        let answer = read_detected(fixture!("citation-list.json"));
        assert_eq!(answer.text, MARKED);
        let label = |l: &str| CitationTarget::Label(l.to_string());
        assert_eq!(
            cited(&answer),
            [
                (None, label("1"), Some("It is 330 metres (1,083 ft) tall")),
                (None, label("2"), Some("it was completed in 1889")),
                (
                    None,
                    label("3"),
                    Some("Paris has a population of about 2.1 million inhabitants")
                ),
            ]
        );
        assert!(answer.warnings.is_empty() && answer.usage.is_none() && !answer.streamed);
    }

    #[test]
    fn citation_list_sources_that_name_nothing_are_skipped_with_a_warning() {
        let text = r#"{"answer": "The tower is tall [1].", "citations": [
            {"quote": "tall"}, {"source": null}, {"source": -1}, {"source": 2.5}, {"source": ""},
            {"source": true}, {"source": [1]}, {"source": 2.0}, {"source": " doc3 "}, 4, "5", {"source": 0}]}"#;
        let answer = read_detected(text);
        let labels: Vec<CitationTarget> =
            answer.citations.iter().map(|c| c.target.clone()).collect();
        let label = |l: &str| CitationTarget::Label(l.to_string());
        assert_eq!(
            labels,
            [
                label("2"),
                label("doc3"),
                label("4"),
                label("5"),
                label("0")
            ]
        );
        assert_eq!(
            answer.warnings,
            [
                "citations[0] has no `source`: it is skipped",
                "citations[1] has no `source`: it is skipped",
                "`citations[2].source` is `-1`; expected a chunk number or label: it is skipped",
                "`citations[3].source` is `2.5`; expected a chunk number or label: it is skipped",
                "`citations[4].source` is `\"\"`; expected a chunk number or label: it is skipped",
                "`citations[5].source` is `true`; expected a chunk number or label: it is skipped",
                "`citations[6].source` is an array; expected a chunk number or label: it is skipped",
            ]
        );
    }
}
