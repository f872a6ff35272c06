//! Tests of what every provider shares: detection, the warnings, the errors, robustness.

use super::testing::*;
use super::*;

/// The format `text` is recognised as; panics on an error.
fn detected(text: &str) -> AnswerFormat {
    detect(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn cut_off_warning(field: &str, value: &str) -> String {
    format!(
        "the response was cut off by the token limit ({field} = \"{value}\"): the end of the \
         answer, and possibly citations, are missing"
    )
}

#[test]
fn every_fixture_is_recognised() {
    for (name, text, format) in FIXTURES {
        assert_eq!(detected(text), format, "{name}");
    }
}

#[test]
fn markdown_stays_text() {
    for text in [
        "[1] The Eiffel Tower is 330 metres tall.",
        "[1][2] Both sources agree.",
        "[1, 3] The tower is in Paris.",
        "[Paris](https://en.wikipedia.org/wiki/Paris) is the capital [1].",
        "{Note} The tower is 330 metres tall [1].",
        "{ note: the tower is tall }",
        "[\"a\", \"b\"] are the labels.",
        "data shows that the tower is tall [1].",
        "data: the tower is 330 metres tall [1].",
        ":smile: The tower is tall [1].",
        "event: the 1889 World's Fair [2].",
        "   \n\n## The Eiffel Tower\n\nIt is tall [1].",
        "",
    ] {
        assert_eq!(detected(text), AnswerFormat::Text, "{text:?}");
    }
}

#[test]
fn error_bodies_are_recognised_and_reported() {
    for (text, format, message) in [
        (
            r#"{"error": {"message": "Incorrect API key provided", "type": "invalid_request_error", "code": "invalid_api_key"}}"#,
            AnswerFormat::Openai,
            "Incorrect API key provided",
        ),
        (
            r#"{"error": "model \"llama9\" not found, try pulling it first"}"#,
            AnswerFormat::Ollama,
            "model \"llama9\" not found, try pulling it first",
        ),
        (
            r#"{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}"#,
            AnswerFormat::Anthropic,
            "Overloaded",
        ),
        (
            r#"{"error": {"code": 400, "message": "API key not valid.", "status": "INVALID_ARGUMENT"}}"#,
            AnswerFormat::Openai,
            "API key not valid.",
        ),
    ] {
        assert_eq!(detected(text), format, "{text}");
        let (line, got) = read_error(text, format);
        assert_eq!(
            (line, got.as_str()),
            (None, &*format!("the response is an error: {message}"))
        );
    }
    // Gemini's error body has the same shape; read as Gemini it says the same.
    let (_, message) = read_error(
        r#"{"error": {"code": 400, "message": "API key not valid.", "status": "INVALID_ARGUMENT"}}"#,
        AnswerFormat::Gemini,
    );
    assert_eq!(message, "the response is an error: API key not valid.");
    let (_, message) = read_error(
        r#"{"message": "invalid request: model is required"}"#,
        AnswerFormat::Cohere,
    );
    assert_eq!(
        message,
        "the response is an error: invalid request: model is required"
    );
}

#[test]
fn broken_json_is_guessed_from_its_keys() {
    for (text, format) in [
        (
            "{\"model\": \"llama3.2\", \"message\": {\"role\": \"assistant\", \"content\": \"The",
            AnswerFormat::Ollama,
        ),
        (
            "{\"model\":\"llama3.2\",\"response\":\"The\",\"done\":fals}\n{\"model\":\"llama3.2\"}",
            AnswerFormat::Ollama,
        ),
        (
            "{\n  \"id\": \"chatcmpl-1\",\n  \"choices\": [\n    {\"message\": {\"content\": \"x\"}\n",
            AnswerFormat::Openai,
        ),
        (
            "{\"id\": \"resp_1\", \"output\": [",
            AnswerFormat::OpenaiResponses,
        ),
        (
            "{\"type\": \"message\", \"content\": [], \"stop_reason\": max_tokens}",
            AnswerFormat::Anthropic,
        ),
        (
            "{\"finish_reason\": \"COMPLETE\", \"message\": {\"content\": [",
            AnswerFormat::Cohere,
        ),
        ("[{\"candidates\": [{\"content\": {", AnswerFormat::Gemini),
        (
            "{\"answer\": \"The tower\", \"citations\": [{\"source\": 1,}]}",
            AnswerFormat::CitationList,
        ),
    ] {
        assert_eq!(detected(text), format, "{text}");
    }
    let text =
        "{\"model\": \"llama3.2\",\n \"message\": {\"role\": \"assistant\", \"content\": 'The'}}";
    let (line, message) = read_error(text, detected(text));
    assert_eq!(line, Some(2));
    assert!(
        message.starts_with("invalid JSON: expected value (column "),
        "{message}"
    );
}

#[test]
fn sse_is_recognised_by_its_payloads() {
    let text = ": keep-alive\n\nevent: message_start\ndata: {\"type\": \"ping\"}\n\ndata: {\"type\": \"message_start\", \"message\": {}}\n";
    assert_eq!(detected(text), AnswerFormat::Anthropic);
    let text = "data: {\"candidates\": []}\n\n";
    assert_eq!(detected(text), AnswerFormat::Gemini);
    // Nothing says whose: read as OpenAI, which reports what is wrong.
    let text = "data: {\"broken\n\ndata: [DONE]\n";
    assert_eq!(detected(text), AnswerFormat::Openai);
    let (line, message) = read_error(text, AnswerFormat::Openai);
    assert_eq!(line, Some(1));
    assert!(message.starts_with("invalid JSON: "), "{message}");
    // A stream of some other API is not read as something it is not.
    let text = "event: delta\ndata: {\"kind\": \"delta\", \"text\": \"The tower\"}\n";
    assert_eq!(detected(text), AnswerFormat::Openai);
    let (_, message) = read_error(text, AnswerFormat::Openai);
    assert_eq!(
        message,
        "no chunk has `choices`: this is not an OpenAI chat completion stream"
    );
    let text = "event: message-start\ndata: {\"type\": \"message-start\", \"delta\": {}}\n";
    assert_eq!(detected(text), AnswerFormat::Cohere);
}

#[test]
fn cut_off_by_the_token_limit() {
    let truncated = "The Eiffel Tower is 330 metres tall [1]. It was completed in 1888 for \
                     the World's Fair [2]. It was designed by the engineering company of";
    let answer = read_detected(fixture!("ollama-chat-truncated.json"));
    assert_eq!(answer.text, truncated);
    assert_eq!(answer.warnings, [cut_off_warning("done_reason", "length")]);
    let answer = read_detected(fixture!("openai-chat-stream-truncated.sse"));
    assert_eq!(answer.text, truncated);
    assert_eq!(
        answer.warnings,
        [cut_off_warning("finish_reason", "length")]
    );
    assert_eq!(answer.usage, usage(389, 32));
    let answer = read_detected(fixture!("anthropic-max-tokens.json"));
    assert_eq!(
        answer.text,
        "According to the documents, the Eiffel Tower is 330 metres (1,083 ft) tall. It was completed in"
    );
    assert_eq!(answer.citations.len(), 1);
    assert_eq!(
        answer.warnings,
        [cut_off_warning("stop_reason", "max_tokens")]
    );

    let openai = r#"{"choices": [{"index": 0, "message": {"role": "assistant", "content": "The"}, "finish_reason": "length"}]}"#;
    assert_eq!(
        read_detected(openai).warnings,
        [cut_off_warning("finish_reason", "length")]
    );
    let responses = r#"{"object": "response", "status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"},
        "output": [{"type": "message", "content": [{"type": "output_text", "text": "The"}]}],
        "usage": {"input_tokens": 3, "output_tokens": 1}}"#;
    let answer = read_detected(responses);
    assert_eq!(
        answer.warnings,
        [cut_off_warning(
            "incomplete_details.reason",
            "max_output_tokens"
        )]
    );
    assert_eq!(answer.usage, usage(3, 1));
    let filtered = r#"{"object": "response", "status": "incomplete", "incomplete_details": {"reason": "content_filter"}, "output": []}"#;
    assert!(read_detected(filtered).warnings.is_empty());
    let cohere = r#"{"finish_reason": "MAX_TOKENS", "message": {"content": [{"type": "text", "text": "The"}]}}"#;
    assert_eq!(
        read_detected(cohere).warnings,
        [cut_off_warning("finish_reason", "MAX_TOKENS")]
    );
    let gemini = r#"{"candidates": [{"content": {"parts": [{"text": "The"}]}, "finishReason": "MAX_TOKENS"}]}"#;
    assert_eq!(
        read_detected(gemini).warnings,
        [cut_off_warning("finishReason", "MAX_TOKENS")]
    );
    let anthropic = r#"{"type": "message", "content": [{"type": "text", "text": "The"}], "stop_reason": "model_context_window_exceeded"}"#;
    assert_eq!(
        read_detected(anthropic).warnings,
        [cut_off_warning(
            "stop_reason",
            "model_context_window_exceeded"
        )]
    );
}

#[test]
fn an_error_inside_the_stream_keeps_what_came_before() {
    let answer = read_detected(fixture!("ollama-stream-error.ndjson"));
    assert_eq!(answer.text, "The Eiffel Tower is 330 metres tall [1].");
    assert_eq!(
        answer.warnings,
        [
            "the stream carried an error: an error was encountered while running the model: unexpected EOF",
            "the stream ended before its final message",
        ]
    );
    let sse = "data: {\"choices\": [{\"index\": 0, \"delta\": {\"content\": \"The tower\"}}]}\n\n\
               data: {\"error\": {\"message\": \"The server had an error\", \"type\": \"server_error\"}}\n\n\
               data: [DONE]\n";
    let answer = read_detected(sse);
    assert_eq!(answer.text, "The tower");
    assert_eq!(
        answer.warnings,
        ["the stream carried an error: The server had an error"]
    );
    // A stream that carried nothing but the error is the error.
    let (line, message) = read_error(
        "{\"error\": \"model requires more system memory\"}\n",
        AnswerFormat::Ollama,
    );
    assert_eq!(
        (line, message.as_str()),
        (
            None,
            "the response is an error: model requires more system memory"
        )
    );
}

#[test]
fn a_stream_that_ended_early() {
    let ndjson: Vec<&str> = fixture!("ollama-chat-stream.ndjson").lines().collect();
    let answer = read_as(&ndjson[..ndjson.len() - 1].join("\n"), AnswerFormat::Ollama);
    assert_eq!(
        answer.warnings,
        ["the stream ended before its final message"]
    );
    assert!(answer.usage.is_none());
    // Even the first line alone.
    assert_eq!(
        read_as(ndjson[0], AnswerFormat::Ollama).warnings,
        ["the stream ended before its final message"]
    );

    let sse = fixture!("openai-chat-stream.sse");
    let cut = &sse[..sse.find("\"content\":\" Fair [2].\"").unwrap_or(0)];
    let cut = &cut[..cut.rfind("\n\n").map_or(0, |k| k + 2)];
    let answer = read_as(cut, AnswerFormat::Openai);
    assert!(MARKED.starts_with(&answer.text) && !answer.text.is_empty());
    assert_eq!(
        answer.warnings,
        ["the stream ended before its final message"]
    );

    for (fixture, format) in [
        (
            fixture!("openai-responses-stream.sse"),
            AnswerFormat::OpenaiResponses,
        ),
        (fixture!("anthropic-stream.sse"), AnswerFormat::Anthropic),
        (fixture!("cohere-stream.sse"), AnswerFormat::Cohere),
        (fixture!("gemini-stream.sse"), AnswerFormat::Gemini),
    ] {
        let lines: Vec<&str> = fixture.lines().collect();
        let cut = lines[..lines.len() - 3].join("\n");
        let answer = read_as(&cut, format);
        assert!(!answer.text.is_empty(), "{format:?}");
        assert_eq!(
            answer.warnings,
            ["the stream ended before its final message"],
            "{format:?}"
        );
    }
}

#[test]
fn invalid_json_names_its_line() {
    let (line, message) = read_error(
        fixture!("ollama-stream-bad-line.ndjson"),
        AnswerFormat::Ollama,
    );
    assert_eq!(line, Some(3));
    assert_eq!(message, "invalid JSON: expected ident (column 125)");
    let err = read(
        fixture!("ollama-stream-bad-line.ndjson"),
        AnswerFormat::Ollama,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 3: invalid JSON: expected ident (column 125)"
    );
    // In SSE the column counts the `data: ` before the JSON.
    let sse = ": comment\n\ndata: {\"choices\": [}\n\n";
    let (line, message) = read_error(sse, AnswerFormat::Openai);
    assert_eq!(
        (line, message.as_str()),
        (Some(3), "invalid JSON: expected value (column 20)")
    );
    let (line, message) = read_error("{\n  \"answer\": \"x\",\n}", AnswerFormat::CitationList);
    assert_eq!(
        (line, message.as_str()),
        (Some(3), "invalid JSON: trailing comma (column 1)")
    );
}

#[test]
fn an_empty_stream_is_an_error() {
    for (text, format) in [
        (fixture!("openai-stream-empty.sse"), AnswerFormat::Openai),
        (": keep-alive\n\n", AnswerFormat::Openai),
        ("event: ping\n\n", AnswerFormat::OpenaiResponses),
        ("data: [DONE]\n", AnswerFormat::Anthropic),
        ("data: [DONE]\n", AnswerFormat::Gemini),
        ("\n\n", AnswerFormat::Ollama),
    ] {
        assert_eq!(
            read_error(text, format),
            (None, "the stream is empty".to_string()),
            "{text:?}"
        );
    }
}

#[test]
fn a_field_of_the_wrong_type_names_its_path() {
    for (text, format, line, expected) in [
        (
            "{\"model\": \"m\", \"message\": {\"content\": \"a\"}, \"done\": false}\n{\"model\": \"m\", \"message\": {\"content\": 3}, \"done\": false}\n",
            AnswerFormat::Ollama,
            Some(2),
            "`message.content` is a number; expected a string",
        ),
        (
            r#"{"model": "m", "response": ["a"], "done": true}"#,
            AnswerFormat::Ollama,
            None,
            "`response` is an array; expected a string",
        ),
        (
            r#"{"model": "m", "response": "a", "done": "yes"}"#,
            AnswerFormat::Ollama,
            None,
            "`done` is a string; expected a boolean",
        ),
        (
            r#"{"choices": [{"message": {"content": 42}}]}"#,
            AnswerFormat::Openai,
            None,
            "`choices[0].message.content` is a number; expected a string",
        ),
        (
            r#"{"choices": {}}"#,
            AnswerFormat::Openai,
            None,
            "`choices` is an object; expected an array",
        ),
        (
            r#"{"id": "x"}"#,
            AnswerFormat::Openai,
            None,
            "`choices` is missing; expected an array",
        ),
        (
            "data: {\"choices\": [{\"index\": 0, \"delta\": {\"content\": true}}]}\n",
            AnswerFormat::Openai,
            Some(1),
            "`choices[0].delta.content` is a boolean; expected a string",
        ),
        (
            r#"{"choices": [], "usage": {"prompt_tokens": "12"}}"#,
            AnswerFormat::Openai,
            None,
            "`usage.prompt_tokens` is a string; expected a number",
        ),
        (
            r#"{"object": "response", "output": [{"type": "message", "content": [{"type": "output_text", "text": {}}]}]}"#,
            AnswerFormat::OpenaiResponses,
            None,
            "`output[0].content[0].text` is an object; expected a string",
        ),
        (
            r#"{"type": "message", "content": [{"type": "text", "text": 5}]}"#,
            AnswerFormat::Anthropic,
            None,
            "`content[0].text` is a number; expected a string",
        ),
        (
            r#"{"type": "message", "content": [{"type": "text", "text": "a", "citations": [{"type": "char_location", "document_index": "0"}]}]}"#,
            AnswerFormat::Anthropic,
            None,
            "`content[0].citations[0].document_index` is a string; expected a number",
        ),
        (
            r#"{"message": {"content": [{"type": "text", "text": "a"}], "citations": [{"start": "0", "end": 1}]}}"#,
            AnswerFormat::Cohere,
            None,
            "`message.citations[0].start` is a string; expected a number",
        ),
        (
            r#"{"candidates": [{"content": {"parts": {"text": "a"}}}]}"#,
            AnswerFormat::Gemini,
            None,
            "`candidates[0].content.parts` is an object; expected an array",
        ),
        (
            r#"{"answer": 12}"#,
            AnswerFormat::CitationList,
            None,
            "`answer` is a number; expected a string",
        ),
        (
            r#"{"answer": "a", "citations": {"source": 1}}"#,
            AnswerFormat::CitationList,
            None,
            "`citations` is an object; expected an array",
        ),
        (
            r#"{"citations": []}"#,
            AnswerFormat::CitationList,
            None,
            "`answer` is missing; expected a string",
        ),
        (
            "{\"answer\": \"a\"}\n{\"answer\": \"b\"}",
            AnswerFormat::CitationList,
            Some(2),
            "expected one JSON response; found another JSON value after it",
        ),
        (
            "[1, 2]",
            AnswerFormat::Anthropic,
            Some(1),
            "expected a JSON object, found an array",
        ),
    ] {
        assert_eq!(
            read_error(text, format),
            (line, expected.to_string()),
            "{text}"
        );
    }
}

#[test]
fn no_text_is_not_an_error() {
    for (text, format) in [
        (
            r#"{"choices": [{"message": {"role": "assistant", "content": null, "refusal": "I can't help."}, "finish_reason": "stop"}]}"#,
            AnswerFormat::Openai,
        ),
        (r#"{"choices": []}"#, AnswerFormat::Openai),
        (
            r#"{"model": "m", "message": {"role": "assistant", "content": ""}, "done": true}"#,
            AnswerFormat::Ollama,
        ),
        (
            r#"{"promptFeedback": {"blockReason": "SAFETY"}, "usageMetadata": {"promptTokenCount": 9}}"#,
            AnswerFormat::Gemini,
        ),
        (
            r#"{"type": "message", "content": []}"#,
            AnswerFormat::Anthropic,
        ),
        (
            r#"{"finish_reason": "TOOL_CALL", "message": {"tool_plan": "p", "tool_calls": []}}"#,
            AnswerFormat::Cohere,
        ),
    ] {
        assert_eq!(detected(text), format, "{text}");
        let answer = read_as(text, format);
        assert_eq!(answer.text, "", "{text}");
    }
    // Recognised only with a string `answer`, but read when the format is given.
    assert_eq!(
        read_as(r#"{"answer": null}"#, AnswerFormat::CitationList).text,
        ""
    );
}

#[test]
fn no_input_makes_it_panic() {
    // Every fixture cut short at many places, read as every format: errors, never panics.
    for (name, text, _) in FIXTURES {
        // About 200 cuts each keep the test fast; the step varies, so cuts land everywhere.
        let cuts = text
            .char_indices()
            .map(|(at, _)| at)
            .step_by(text.len() / 200 + 1);
        for cut in cuts.chain([text.len()]) {
            let prefix = &text[..cut];
            let _ = detect(prefix);
            for format in AnswerFormat::ALL {
                let result = std::panic::catch_unwind(|| read(prefix, format));
                assert!(result.is_ok(), "{name} cut at {cut} read as {format:?}");
            }
        }
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = format!("{{\"answer\": {}", "[".repeat(100_000));
    assert_eq!(detected(&deep), AnswerFormat::CitationList);
    assert!(matches!(
        read(&deep, AnswerFormat::CitationList),
        Err(InputError::Response { line: Some(1), .. })
    ));
    let deep_sse = format!("data: {}\n", "[".repeat(100_000));
    assert!(read(&deep_sse, AnswerFormat::Openai).is_err());
}

#[test]
fn text_format_is_kept_as_given() {
    let answer = read_as("  The tower [1].\n", AnswerFormat::Text);
    assert_eq!(answer.text, "  The tower [1].\n");
    assert_eq!(answer.format, AnswerFormat::Text);
}

#[test]
fn through_read_answer() {
    let answer =
        crate::input::read_answer(fixture!("anthropic.json").as_bytes(), None).unwrap_or_default();
    assert_eq!(answer.format, AnswerFormat::Anthropic);
    assert_eq!(answer.citations.len(), 3);
    let answer = crate::input::read_answer(b"[1] The tower is tall.", None).unwrap_or_default();
    assert_eq!(answer.format, AnswerFormat::Text);
}

#[test]
fn json_of_no_known_format_is_an_error_naming_its_keys() {
    const TAIL: &str = "; point at the answer with `--answer-path PATH`, or read it as prose \
                        with `--answer-format text`";
    for (text, expected) in [
        (
            r#"{"text": "a JSON answer of no known shape", "meta": {}}"#,
            "JSON of no known response format (top-level keys: `meta`, `text`)".to_string() + TAIL,
        ),
        (
            "{}",
            "JSON of no known response format (no keys)".to_string() + TAIL,
        ),
        (
            "[{\"foo\": 1}, {\"bar\": 2}]",
            "JSON of no known response format (top-level keys: `foo`)".to_string() + TAIL,
        ),
        (
            "[]",
            "JSON of no known response format (no keys)".to_string() + TAIL,
        ),
        // Most conditions of a profile hold: it is named.
        (
            r#"{"summary": "It is tall.", "search_results": "not a list"}"#,
            "JSON of no known response format (top-level keys: `search_results`, `summary`); \
             closest: `vectara` (1 of 2 conditions) (name one with `--answer-format`)"
                .to_string()
                + TAIL,
        ),
    ] {
        assert_eq!(detect(text).unwrap_err().to_string(), expected, "{text}");
    }
    // Broken JSON that opens like an object and names no provider's key.
    for text in ["{\"title\": \"notes\", ", "{\"note\": \"the choices are\" "] {
        let err = detect(text).unwrap_err().to_string();
        assert!(err.starts_with("line 1: invalid JSON: "), "{err}");
    }
}

/// The samples of `testdata/stacks/`, as users of each stack have them.
const STACK_SAMPLES: [&str; 20] = [
    include_str!("../../../../../testdata/stacks/bedrock-kb/response.json"),
    include_str!("../../../../../testdata/stacks/bedrock-kb/retrieve.json"),
    include_str!("../../../../../testdata/stacks/bedrock-converse/response.json"),
    include_str!("../../../../../testdata/stacks/bedrock-converse/request.json"),
    include_str!("../../../../../testdata/stacks/azure-on-your-data/response.json"),
    include_str!("../../../../../testdata/stacks/azure-on-your-data/citations.json"),
    include_str!("../../../../../testdata/stacks/perplexity/response.json"),
    include_str!("../../../../../testdata/stacks/mistral/response.json"),
    include_str!("../../../../../testdata/stacks/mistral/tool-result.json"),
    include_str!("../../../../../testdata/stacks/openai-responses-file-search/response.json"),
    include_str!("../../../../../testdata/stacks/anthropic-documents/request.json"),
    include_str!("../../../../../testdata/stacks/anthropic-documents/response.json"),
    include_str!("../../../../../testdata/stacks/vertex-rag/response.json"),
    include_str!("../../../../../testdata/stacks/langchain/response.json"),
    include_str!("../../../../../testdata/stacks/langchain/dumpd.json"),
    include_str!("../../../../../testdata/stacks/llamaindex/response.json"),
    include_str!("../../../../../testdata/stacks/haystack/response.json"),
    include_str!("../../../../../testdata/stacks/haystack/response-v3.json"),
    include_str!("../../../../../testdata/stacks/chunks/csv-with-header.csv"),
    include_str!("../../../../../testdata/stacks/chunks/markdown-headings.md"),
];

#[test]
fn the_stacks_samples_cut_short_never_panic() {
    for text in STACK_SAMPLES {
        let cuts = text
            .char_indices()
            .map(|(at, _)| at)
            .step_by(text.len() / 150 + 1);
        for cut in cuts.chain([text.len()]) {
            let prefix = &text[..cut];
            let as_answer = std::panic::catch_unwind(|| {
                let _ = detect(prefix);
                for format in AnswerFormat::ALL {
                    let _ = read(prefix, format);
                }
            });
            assert!(as_answer.is_ok(), "cut at {cut} of {:.60}", text);
            let as_chunks = std::panic::catch_unwind(|| {
                for name in ["chunks.txt", "chunks.json", "chunks.csv"] {
                    let _ = crate::input::read_chunks_named(prefix.as_bytes(), name);
                }
                let _ = crate::input::chunks_from_value(
                    serde_json::from_str(prefix).unwrap_or(serde_json::Value::Null),
                );
            });
            assert!(as_chunks.is_ok(), "cut at {cut} of {:.60}", text);
        }
    }
}
