//! End-to-end tests of provider responses as the answer of `ragcite check`: every fixture of
//! `testdata/responses/` as a table and as JSON (snapshots), streamed and unstreamed forms of the
//! same answer, the warnings a response raises, unreadable responses, `--answer-format`, the
//! citations providers attach (Anthropic, Cohere, Gemini, citation lists) and the quotes they
//! carry.
//!
//! Regenerate the snapshots with `INSTA_UPDATE=always cargo test --test cli -- responses::`, then
//! read every changed `tests/cli/snapshots/cli__responses__*.snap` before keeping it.

use serde_json::{Value, json};

use crate::util::{Run, chars, chunk_text, pair, path, ragcite, strings};

/// The chunks every fixture of `testdata/responses/` was written against.
const CHUNKS: &str = "testdata/responses/chunks.json";

/// Chunks and answers made for these tests.
const QUOTES: &str = "testdata/quotes";

/// The cut-off warning, in the wording `src/input/response.rs` documents.
fn cut_off(field: &str, value: &str) -> String {
    format!(
        "the response was cut off by the token limit ({field} = \"{value}\"): the end of the \
         answer, and possibly citations, are missing"
    )
}

/// `ragcite check ANSWER CHUNKS EXTRA...`.
fn check(answer: &str, chunks: &str, extra: &[&str]) -> Run {
    ragcite(["check", answer, chunks]).args(extra)
}

/// The table of `check`, uncoloured.
fn table(answer: &str, chunks: &str, extra: &[&str]) -> Run {
    check(answer, chunks, &["--color", "never"]).args(extra)
}

/// The JSON document of `check`.
fn json(answer: &str, chunks: &str, extra: &[&str]) -> Run {
    check(answer, chunks, &["--format", "json"]).args(extra)
}

fn response(name: &str) -> String {
    format!("testdata/responses/{name}")
}

fn quotes_file(name: &str) -> String {
    format!("{QUOTES}/{name}")
}

/// Each sentence's `cited` chunk ids.
fn cited(document: &Value) -> Vec<Vec<String>> {
    sentences(document)
        .iter()
        .map(|s| strings(&s["cited"]))
        .collect()
}

fn sentences(document: &Value) -> &Vec<Value> {
    document["result"]["sentences"]
        .as_array()
        .expect("result.sentences is an array")
}

fn verdicts(document: &Value) -> Vec<String> {
    sentences(document)
        .iter()
        .map(|s| s["verdict"].as_str().expect("a verdict").to_string())
        .collect()
}

fn warnings(document: &Value) -> Vec<String> {
    strings(&document["warnings"])
}

/// A citation of `result.citations` as (index, source, chunk, sentences).
type Citation = (u64, String, Option<String>, Vec<u64>);

fn cite(index: u64, source: &str, chunk: Option<&str>, sentences: &[u64]) -> Citation {
    (
        index,
        source.to_string(),
        chunk.map(str::to_string),
        sentences.to_vec(),
    )
}

/// Each of `result.citations` as (index, source, chunk, sentences).
fn citations(document: &Value) -> Vec<Citation> {
    document["result"]["citations"]
        .as_array()
        .expect("result.citations is an array")
        .iter()
        .map(|c| {
            (
                c["index"].as_u64().expect("an index"),
                c["source"].as_str().expect("a source").to_string(),
                c["chunk"].as_str().map(str::to_string),
                c["sentences"]
                    .as_array()
                    .expect("sentences")
                    .iter()
                    .map(|k| k.as_u64().expect("a sentence index"))
                    .collect(),
            )
        })
        .collect()
}

/// The lines of a table, asserting that `warning` is a `warning:` line after the tables and
/// before the summary, which is the last line.
fn assert_table_warns(stdout: &str, warning: &str) {
    let lines: Vec<&str> = stdout.lines().collect();
    let wanted = format!("warning: {warning}");
    let at = lines
        .iter()
        .position(|l| *l == wanted)
        .unwrap_or_else(|| panic!("no line {wanted:?} in:\n{stdout}"));
    let summary = lines.len() - 1;
    assert!(
        lines[summary].starts_with("PASS · ") || lines[summary].starts_with("FAIL · "),
        "the last line is not the summary:\n{stdout}"
    );
    assert!(at < summary, "the warning comes after the summary");
    let last_table_line = lines
        .iter()
        .rposition(|l| l.starts_with('└'))
        .expect("a table");
    assert!(at > last_table_line, "the warning is not after the tables");
}

// ------------------------------------------------------------------------------------------
// Snapshots of every valid response

/// Files of `testdata/responses/` that are not valid responses: the chunks, a stream with a
/// broken line, an empty stream.
const NOT_RESPONSES: [&str; 3] = [
    "chunks.json",
    "ollama-stream-bad-line.ndjson",
    "openai-stream-empty.sse",
];

/// Every valid response, the name of its snapshots and its exit code with the default limits.
const SNAPSHOTS: [(&str, &str, i32); 19] = [
    ("anthropic-max-tokens.json", "anthropic_max_tokens", 0),
    ("anthropic-stream.sse", "anthropic_stream", 0),
    ("anthropic.json", "anthropic", 0),
    ("citation-list.json", "citation_list", 1),
    ("cohere-stream.sse", "cohere_stream", 0),
    ("cohere.json", "cohere", 0),
    ("gemini-stream.sse", "gemini_stream", 0),
    ("gemini.json", "gemini", 0),
    ("ollama-chat-stream.ndjson", "ollama_chat_stream", 1),
    ("ollama-chat-truncated.json", "ollama_chat_truncated", 1),
    ("ollama-chat.json", "ollama_chat", 1),
    ("ollama-generate-stream.ndjson", "ollama_generate_stream", 1),
    ("ollama-generate.json", "ollama_generate", 1),
    ("ollama-stream-error.ndjson", "ollama_stream_error", 0),
    (
        "openai-chat-stream-truncated.sse",
        "openai_chat_stream_truncated",
        1,
    ),
    ("openai-chat-stream.sse", "openai_chat_stream", 1),
    ("openai-chat.json", "openai_chat", 1),
    ("openai-responses-stream.sse", "openai_responses_stream", 1),
    ("openai-responses.json", "openai_responses", 1),
];

/// Snapshots the table and the JSON of one fixture.
fn snapshot(file: &str) {
    let (_, name, code) = SNAPSHOTS
        .iter()
        .find(|(f, _, _)| *f == file)
        .unwrap_or_else(|| panic!("{file} is not in SNAPSHOTS"));
    let path = response(file);
    let shown = table(&path, CHUNKS, &[]).exits_quietly(*code);
    insta::assert_snapshot!(format!("{name}_table"), shown.stdout);
    let document = json(&path, CHUNKS, &[]).exits_quietly(*code);
    insta::assert_snapshot!(format!("{name}_json"), document.stdout);
}

macro_rules! snapshot_tests {
    ($($test:ident => $file:literal),* $(,)?) => {
        $(
            #[test]
            fn $test() {
                snapshot($file);
            }
        )*
    };
}

snapshot_tests! {
    snapshot_anthropic_max_tokens => "anthropic-max-tokens.json",
    snapshot_anthropic_stream => "anthropic-stream.sse",
    snapshot_anthropic => "anthropic.json",
    snapshot_citation_list => "citation-list.json",
    snapshot_cohere_stream => "cohere-stream.sse",
    snapshot_cohere => "cohere.json",
    snapshot_gemini_stream => "gemini-stream.sse",
    snapshot_gemini => "gemini.json",
    snapshot_ollama_chat_stream => "ollama-chat-stream.ndjson",
    snapshot_ollama_chat_truncated => "ollama-chat-truncated.json",
    snapshot_ollama_chat => "ollama-chat.json",
    snapshot_ollama_generate_stream => "ollama-generate-stream.ndjson",
    snapshot_ollama_generate => "ollama-generate.json",
    snapshot_ollama_stream_error => "ollama-stream-error.ndjson",
    snapshot_openai_chat_stream_truncated => "openai-chat-stream-truncated.sse",
    snapshot_openai_chat_stream => "openai-chat-stream.sse",
    snapshot_openai_chat => "openai-chat.json",
    snapshot_openai_responses_stream => "openai-responses-stream.sse",
    snapshot_openai_responses => "openai-responses.json",
}

/// A fixture added to `testdata/responses/` must be snapshotted (or listed as not a response).
#[test]
fn every_fixture_is_snapshotted_or_known_not_to_be_a_response() {
    let dir = path("testdata/responses");
    let mut on_disk: Vec<String> = std::fs::read_dir(dir)
        .expect("testdata/responses is readable")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    on_disk.sort();
    let mut known: Vec<String> = SNAPSHOTS
        .iter()
        .map(|(f, _, _)| f.to_string())
        .chain(NOT_RESPONSES.iter().map(|f| f.to_string()))
        .collect();
    known.sort();
    assert_eq!(on_disk, known);
}

/// Each response is recognised as its provider's format, with its token counts.
#[test]
fn formats_and_token_counts_are_reported() {
    /// (file, format, streamed, (prompt tokens, completion tokens)).
    type Case = (&'static str, &'static str, bool, Option<(u64, u64)>);
    let cases: [Case; 19] = [
        (
            "anthropic-max-tokens.json",
            "anthropic",
            false,
            Some((1184, 24)),
        ),
        ("anthropic-stream.sse", "anthropic", true, Some((1184, 71))),
        ("anthropic.json", "anthropic", false, Some((1184, 71))),
        ("citation-list.json", "citation-list", false, None),
        ("cohere-stream.sse", "cohere", true, Some((1354, 97))),
        ("cohere.json", "cohere", false, Some((1354, 97))),
        ("gemini-stream.sse", "gemini", true, Some((402, 44))),
        ("gemini.json", "gemini", false, Some((402, 44))),
        ("ollama-chat-stream.ndjson", "ollama", true, Some((412, 52))),
        (
            "ollama-chat-truncated.json",
            "ollama",
            false,
            Some((412, 32)),
        ),
        ("ollama-chat.json", "ollama", false, Some((412, 52))),
        (
            "ollama-generate-stream.ndjson",
            "ollama",
            true,
            Some((398, 52)),
        ),
        ("ollama-generate.json", "ollama", false, Some((398, 52))),
        ("ollama-stream-error.ndjson", "ollama", true, None),
        (
            "openai-chat-stream-truncated.sse",
            "openai",
            true,
            Some((389, 32)),
        ),
        ("openai-chat-stream.sse", "openai", true, Some((389, 49))),
        ("openai-chat.json", "openai", false, Some((389, 49))),
        (
            "openai-responses-stream.sse",
            "openai-responses",
            true,
            Some((402, 181)),
        ),
        (
            "openai-responses.json",
            "openai-responses",
            false,
            Some((402, 181)),
        ),
    ];
    for (file, format, streamed, tokens) in cases {
        let code = SNAPSHOTS
            .iter()
            .find(|(f, _, _)| *f == file)
            .expect("listed")
            .2;
        let document = json(&response(file), CHUNKS, &[]).json(code);
        let answer = &document["inputs"]["answer"];
        assert_eq!(answer["path"], response(file), "{file}");
        assert_eq!(answer["format"], format, "{file}");
        assert_eq!(answer["streamed"], streamed, "{file}");
        let expected = match tokens {
            Some((prompt, completion)) => {
                json!({"promptTokens": prompt, "completionTokens": completion})
            }
            None => Value::Null,
        };
        assert_eq!(answer["tokens"], expected, "{file}");
    }
}

// ------------------------------------------------------------------------------------------
// Streamed and unstreamed forms of one answer

/// Pairs of the same answer, unstreamed then streamed.
const STREAM_PAIRS: [(&str, &str); 7] = [
    ("ollama-chat.json", "ollama-chat-stream.ndjson"),
    ("ollama-generate.json", "ollama-generate-stream.ndjson"),
    ("openai-chat.json", "openai-chat-stream.sse"),
    ("openai-responses.json", "openai-responses-stream.sse"),
    ("anthropic.json", "anthropic-stream.sse"),
    ("cohere.json", "cohere-stream.sse"),
    ("gemini.json", "gemini-stream.sse"),
];

#[test]
fn streamed_and_unstreamed_responses_give_the_same_result() {
    for (whole, stream) in STREAM_PAIRS {
        let code = SNAPSHOTS
            .iter()
            .find(|(f, _, _)| *f == whole)
            .expect("listed")
            .2;
        let a = json(&response(whole), CHUNKS, &[]).json(code);
        let b = json(&response(stream), CHUNKS, &[]).json(code);
        assert!(
            !sentences(&a).is_empty(),
            "{whole} gave no sentences to compare"
        );
        assert_eq!(a["result"], b["result"], "{whole} vs {stream}");
        assert_eq!(a["warnings"], b["warnings"], "{whole} vs {stream}");
        assert_eq!(a["summary"], b["summary"], "{whole} vs {stream}");
        let (a, b) = (&a["inputs"]["answer"], &b["inputs"]["answer"]);
        assert_eq!(a["format"], b["format"], "{whole} vs {stream}");
        assert_eq!(a["tokens"], b["tokens"], "{whole} vs {stream}");
        assert_eq!(a["streamed"], false, "{whole}");
        assert_eq!(b["streamed"], true, "{stream}");
    }
}

/// Ollama chat and generate, OpenAI Chat Completions and Responses carry the same answer text:
/// whatever the provider, the result is the same.
#[test]
fn the_same_text_from_different_providers_gives_the_same_result() {
    let files = [
        "ollama-chat.json",
        "ollama-generate.json",
        "openai-chat.json",
        "openai-responses.json",
    ];
    let first = json(&response(files[0]), CHUNKS, &[]).json(1);
    assert_eq!(
        verdicts(&first),
        [
            "supported",
            "number-mismatch",
            "unsupported-citation",
            "uncited-claim"
        ]
    );
    for file in &files[1..] {
        let other = json(&response(file), CHUNKS, &[]).json(1);
        assert_eq!(first["result"], other["result"], "{file}");
        assert_ne!(
            first["inputs"]["answer"], other["inputs"]["answer"],
            "{file} should differ in its inputs"
        );
    }
}

// ------------------------------------------------------------------------------------------
// Warnings

#[test]
fn truncated_responses_warn_in_json_and_in_the_table() {
    let cases = [
        (
            "ollama-chat-truncated.json",
            cut_off("done_reason", "length"),
            1,
        ),
        (
            "openai-chat-stream-truncated.sse",
            cut_off("finish_reason", "length"),
            1,
        ),
        (
            "anthropic-max-tokens.json",
            cut_off("stop_reason", "max_tokens"),
            0,
        ),
    ];
    for (file, warning, code) in cases {
        let document = json(&response(file), CHUNKS, &[]).json(code);
        assert_eq!(warnings(&document), [warning.as_str()], "{file}");
        let shown = table(&response(file), CHUNKS, &[]).exits_quietly(code);
        assert_table_warns(&shown.stdout, &warning);
    }
}

#[test]
fn a_complete_response_does_not_warn() {
    for file in [
        "ollama-chat.json",
        "openai-chat-stream.sse",
        "anthropic.json",
    ] {
        let document = json(&response(file), CHUNKS, &[]).output().json();
        assert_eq!(warnings(&document), Vec::<String>::new(), "{file}");
        let shown = table(&response(file), CHUNKS, &[]).output();
        assert!(!shown.stdout.contains("warning:"), "{}", shown.stdout);
    }
}

/// The truncated answer is checked as far as it goes: its last sentence has lost its marker.
#[test]
fn a_truncated_answer_is_checked_as_far_as_it_goes() {
    let document = json(&response("ollama-chat-truncated.json"), CHUNKS, &[]).json(1);
    assert_eq!(
        verdicts(&document),
        ["supported", "number-mismatch", "uncited-claim"]
    );
    let last = &sentences(&document)[2];
    assert_eq!(
        last["sentence"],
        "It was designed by the engineering company of"
    );
    let document = json(&response("anthropic-max-tokens.json"), CHUNKS, &[]).json(0);
    assert_eq!(sentences(&document)[1]["sentence"], "It was completed in");
    assert_eq!(sentences(&document)[1]["verdict"], "no-claim");
}

#[test]
fn an_error_inside_a_stream_warns_and_keeps_what_came_before() {
    let file = response("ollama-stream-error.ndjson");
    let expected = [
        "the stream carried an error: an error was encountered while running the model: \
         unexpected EOF",
        "the stream ended before its final message",
    ];
    let document = json(&file, CHUNKS, &[]).json(0);
    assert_eq!(warnings(&document), expected);
    assert_eq!(
        sentences(&document)
            .iter()
            .map(|s| s["sentence"].as_str().expect("text"))
            .collect::<Vec<_>>(),
        ["The Eiffel Tower is 330 metres tall [1]."]
    );
    assert_eq!(verdicts(&document), ["supported"]);
    assert_eq!(document["inputs"]["answer"]["streamed"], true);
    assert_eq!(document["inputs"]["answer"]["tokens"], Value::Null);
    let shown = table(&file, CHUNKS, &[]).exits_quietly(0);
    for warning in expected {
        assert_table_warns(&shown.stdout, warning);
    }
}

#[test]
fn a_stream_with_a_broken_line_is_an_input_error_naming_the_file_and_line() {
    let file = response("ollama-stream-bad-line.ndjson");
    for format in ["table", "json"] {
        let line = check(&file, CHUNKS, &["--format", format]).input_error();
        assert!(
            line.starts_with(&format!("ragcite: error: {file}: line 3: invalid JSON: ")),
            "{line}"
        );
        assert!(line.ends_with("(column 125)"), "{line}");
    }
}

#[test]
fn a_server_sent_event_stream_with_a_broken_payload_names_its_line() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("broken.sse");
    std::fs::write(
        &path,
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"The tower [1].\"}}]}\n\n\
         data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\" More\"}}],\n\n\
         data: [DONE]\n",
    )
    .expect("written");
    let path = path.to_str().expect("a UTF-8 path");
    let line = check(path, CHUNKS, &[]).input_error();
    assert!(
        line.starts_with(&format!("ragcite: error: {path}: line 3: invalid JSON: ")),
        "{line}"
    );
}

#[test]
fn an_empty_stream_is_an_input_error() {
    let file = response("openai-stream-empty.sse");
    let line = check(&file, CHUNKS, &[]).input_error();
    assert_eq!(line, format!("ragcite: error: {file}: the stream is empty"));
}

#[test]
fn an_answer_without_any_citation_warns() {
    let warning = "the answer has no citation at all";
    let answer = quotes_file("plain.md");
    let chunks = quotes_file("chunks.json");
    let document = json(&answer, &chunks, &[]).json(1);
    assert_eq!(warnings(&document), [warning]);
    assert_eq!(verdicts(&document), ["uncited-claim", "uncited-claim"]);
    let shown = table(&answer, &chunks, &[]).exits_quietly(1);
    assert_table_warns(&shown.stdout, warning);
    // One marker is enough to silence it.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let cited = dir.path().join("cited.md");
    std::fs::write(
        &cited,
        "The inspection report concluded that the tower was repainted every seven years \
         [report]. Sixty tonnes of paint are used each time.\n",
    )
    .expect("written");
    let document = json(cited.to_str().expect("UTF-8"), &chunks, &[]).json(1);
    assert!(!warnings(&document).iter().any(|w| w == warning));
}

/// Issue 38: Cohere citations with a negative `start` are clamped to the text's start; one with
/// no `start` or running backwards is kept with its sources and named in a warning, and the
/// answer is no longer said to have no citation at all.
#[test]
fn cohere_citations_out_of_shape_are_clamped_or_named() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let answer = dir.path().join("cohere.json");
    std::fs::write(
        &answer,
        r#"{"message": {"role": "assistant", "content": [{"type": "text",
            "text": "The tower is 330 metres tall. It was built in 1889."}], "citations": [
            {"start": -4, "end": 28, "sources": [{"type": "document", "id": "a"}]},
            {"end": 50, "sources": [{"type": "document", "id": "b"}]},
            {"start": 40, "end": 31, "sources": [{"type": "document", "id": "b"}]}]},
            "finish_reason": "COMPLETE"}"#,
    )
    .expect("written");
    let chunks = dir.path().join("chunks.json");
    std::fs::write(
        &chunks,
        r#"[{"id": "a", "text": "The tower is 330 metres tall."},
            {"id": "b", "text": "The tower was built in 1889."}]"#,
    )
    .expect("written");
    let document = json(
        answer.to_str().expect("UTF-8"),
        chunks.to_str().expect("UTF-8"),
        &[],
    )
    .json(1);
    assert_eq!(cited(&document), [vec!["a".to_string()], vec![]]);
    let said = warnings(&document);
    assert!(
        !said.iter().any(|w| w.contains("no citation at all")),
        "{said:?}"
    );
    assert_eq!(said.len(), 2, "{said:?}");
    assert!(
        said[0].contains("`message.citations[1]` has no `start`"),
        "{said:?}"
    );
    assert!(
        said[1].contains("`message.citations[2]` runs backwards"),
        "{said:?}"
    );
    assert!(
        said.iter().all(|w| w.contains("cites no sentence")),
        "{said:?}"
    );
}

// ------------------------------------------------------------------------------------------
// --answer-format

#[test]
fn answer_format_text_reads_a_response_as_text() {
    let file = response("ollama-chat.json");
    let auto = json(&file, CHUNKS, &[]).json(1);
    let text = json(&file, CHUNKS, &["--answer-format", "text"]).json(1);
    assert_eq!(
        text["inputs"]["answer"],
        json!({"path": file, "format": "text", "streamed": false})
    );
    assert_ne!(auto["result"], text["result"]);
    assert_eq!(sentences(&auto).len(), 4);
    // The JSON itself is the text: its first sentence is the first field.
    assert_eq!(sentences(&text)[0]["sentence"], "\"model\": \"llama3.2\",");
    assert!(sentences(&text).len() > 4);
}

#[test]
fn answer_format_auto_and_the_right_format_agree_with_detection() {
    for (file, format) in [
        ("anthropic.json", "anthropic"),
        ("cohere-stream.sse", "cohere"),
        ("gemini.json", "gemini"),
        ("openai-responses-stream.sse", "openai-responses"),
        ("citation-list.json", "citation-list"),
    ] {
        let detected = json(&response(file), CHUNKS, &[]).output().json();
        for forced in ["auto", format] {
            let document = json(&response(file), CHUNKS, &["--answer-format", forced])
                .output()
                .json();
            assert_eq!(detected, document, "{file} with --answer-format {forced}");
        }
    }
}

#[test]
fn answer_format_ollama_on_markdown_is_an_input_error() {
    let file = "testdata/eiffel/answer.md";
    let line = check(file, CHUNKS, &["--answer-format", "ollama"]).input_error();
    assert!(
        line.starts_with(&format!("ragcite: error: {file}: line 1: invalid JSON")),
        "{line}"
    );
}

#[test]
fn a_wrong_forced_format_is_an_input_error_naming_what_is_missing() {
    let file = response("gemini.json");
    let line = check(&file, CHUNKS, &["--answer-format", "openai"]).input_error();
    assert_eq!(
        line,
        format!("ragcite: error: {file}: `choices` is missing; expected an array")
    );
    let line = check(&file, CHUNKS, &["--answer-format", "nonsense"]).input_error();
    assert!(line.contains("--answer-format"), "{line}");
}

// ------------------------------------------------------------------------------------------
// Native citations

/// Asserts that each sentence's text holds the citation span that put its chunk there.
fn assert_sentence_holds(document: &Value, index: usize, fragment: &str) {
    let sentence = sentences(document)[index - 1]["sentence"]
        .as_str()
        .expect("text");
    assert!(
        sentence.contains(fragment),
        "sentence {index} {sentence:?} does not hold {fragment:?}"
    );
}

#[test]
fn anthropic_citations_cite_the_sentences_they_cover() {
    let document = json(&response("anthropic.json"), CHUNKS, &[]).json(0);
    assert_eq!(cited(&document), [vec!["1"], vec!["2"], vec!["4"]]);
    assert_eq!(verdicts(&document), ["supported"; 3]);
    assert_eq!(
        citations(&document),
        [
            cite(1, "1", Some("1"), &[1]),
            cite(2, "2", Some("2"), &[2]),
            cite(3, "4", Some("4"), &[3]),
        ]
    );
    assert_sentence_holds(
        &document,
        1,
        "the Eiffel Tower is 330 metres (1,083 ft) tall",
    );
    assert_sentence_holds(
        &document,
        2,
        "It was completed in 1889 as the centrepiece of the World's Fair",
    );
    assert_sentence_holds(
        &document,
        3,
        "It was designed and built by the company of Gustave Eiffel",
    );
    // Each cited text is found where the chunk holds it.
    for citation in document["result"]["citations"]
        .as_array()
        .expect("citations")
    {
        let quote = &citation["quote"];
        assert_eq!(quote["origin"], "citation");
        assert_eq!(quote["found"], true, "{quote}");
        assert_eq!(quote["closest"], Value::Null);
        let chunk = chunk_text(CHUNKS, citation["chunk"].as_str().expect("a chunk"));
        assert_eq!(
            chars(&chunk, &quote["offsets"]),
            quote["text"].as_str().expect("text")
        );
    }
    assert_eq!(
        pair(&document["result"]["citations"][0]["quote"]["offsets"]),
        (59, 140)
    );
    // The sentence carries its citation's quote check too.
    assert_eq!(
        sentences(&document)[0]["quotes"],
        json!([document["result"]["citations"][0]["quote"]])
    );
}

#[test]
fn cohere_citations_resolve_generated_ids_to_positions() {
    let document = json(&response("cohere.json"), CHUNKS, &[]).json(0);
    assert_eq!(cited(&document), [vec!["1"], vec!["2", "4"]]);
    assert_eq!(
        citations(&document),
        [
            cite(1, "1", Some("1"), &[1]),
            cite(2, "1", Some("1"), &[1]),
            cite(3, "2", Some("2"), &[2]),
            cite(4, "4", Some("4"), &[2]),
        ]
    );
    // Character offsets past `—` and `’`: the spans land on the words they name.
    assert_sentence_holds(&document, 1, "wrought-iron landmark");
    assert_sentence_holds(&document, 1, "330 metres tall");
    assert_sentence_holds(&document, 2, "completed in 1889 for the World's Fair");
    assert_sentence_holds(&document, 2, "designed by the company of Gustave Eiffel");
    for citation in document["result"]["citations"]
        .as_array()
        .expect("citations")
    {
        assert_eq!(
            citation["quote"],
            Value::Null,
            "Cohere carries no cited text"
        );
    }
    assert!(
        sentences(&document)
            .iter()
            .all(|s| s["quotes"] == json!([]))
    );
}

#[test]
fn gemini_grounding_supports_cite_their_segments() {
    let document = json(&response("gemini.json"), CHUNKS, &[]).json(0);
    assert_eq!(cited(&document), [vec!["1"], vec!["2"], vec!["4"]]);
    assert_eq!(verdicts(&document), ["supported"; 3]);
    assert_eq!(
        citations(&document),
        [
            cite(1, "1", Some("1"), &[1]),
            cite(2, "2", Some("2"), &[2]),
            cite(3, "4", Some("4"), &[3]),
        ]
    );
    // Byte offsets (the first segment holds two `—` and a `’`) map onto whole sentences.
    let spans: Vec<(u64, u64)> = sentences(&document)
        .iter()
        .map(|s| {
            (
                s["span"]["start"].as_u64().expect("start"),
                s["span"]["end"].as_u64().expect("end"),
            )
        })
        .collect();
    assert_eq!(spans, [(0, 76), (77, 123), (124, 176)]);
    assert_sentence_holds(
        &document,
        3,
        "The company of Gustave Eiffel designed and built it.",
    );
}

/// Citations count as markers: without them the same text cites nothing.
#[test]
fn native_citations_are_what_makes_the_sentences_cited() {
    for file in ["anthropic.json", "cohere.json", "gemini.json"] {
        let document = json(&response(file), CHUNKS, &[]).output().json();
        let markers: Vec<Vec<String>> = sentences(&document)
            .iter()
            .map(|s| strings(&s["markers"]))
            .collect();
        assert_eq!(
            markers,
            cited(&document),
            "{file}: markers are the cited ids"
        );
        assert!(
            !warnings(&document)
                .iter()
                .any(|w| w.contains("no citation"))
        );
    }
}

#[test]
fn an_anthropic_cited_text_not_in_its_chunk_is_a_misquote() {
    let file = quotes_file("anthropic-misquote.json");
    let document = json(&file, CHUNKS, &[]).json(1);
    assert_eq!(verdicts(&document), ["misquote", "supported"]);
    assert_eq!(document["result"]["counts"]["misquote"], 1);
    assert_eq!(document["result"]["counts"]["misquotedCitations"], 0);
    let quote = &sentences(&document)[0]["quotes"][0];
    assert_eq!(quote["origin"], "citation");
    assert_eq!(quote["chunk"], "1");
    assert_eq!(quote["found"], false);
    assert_eq!(quote["offsets"], Value::Null);
    assert_eq!(quote["byteOffsets"], Value::Null);
    let closest = &quote["closest"];
    assert_eq!(closest["differingWords"], 1);
    assert!(
        closest["text"]
            .as_str()
            .expect("text")
            .contains("about the same height as an 81-storey building"),
        "{closest}"
    );
    assert_eq!(
        chars(&chunk_text(CHUNKS, "1"), &closest["offsets"]),
        closest["text"].as_str().expect("text")
    );
    let similarity = closest["similarity"].as_f64().expect("a similarity");
    assert!(similarity > 0.0 && similarity < 1.0, "{similarity}");
    assert_eq!(document["result"]["citations"][0]["quote"], *quote);
    assert_eq!(document["result"]["citations"][1]["quote"]["found"], true);
    assert_eq!(
        document["gate"]["failures"],
        json!([{"limit": "max-misquotes", "counts": "misquotes", "found": 1, "allowed": 0, "over": 1}])
    );

    let shown = table(&file, CHUNKS, &[]).columns(200).exits_quietly(1);
    assert!(
        shown.stdout.contains("misquote: “It is 330 metres"),
        "{}",
        shown.stdout
    );
    // The cell wraps where the width says: each part on some line.
    for part in ["not in chunk 1;", "closest (0.93, 1 word differs)"] {
        assert!(shown.stdout.contains(part), "{part}: {}", shown.stdout);
    }

    let relaxed = json(&file, CHUNKS, &["--max-misquotes", "1"]).json(0);
    assert_eq!(relaxed["gate"], json!({"passed": true, "failures": []}));
    assert_eq!(verdicts(&relaxed), ["misquote", "supported"]);
}

/// A provider's cited text that is not in its chunk is a misquote however few words the
/// sentence it covers has: here it covers `It is so.`, which has no content word.
#[test]
fn a_misquoted_citation_on_a_sentence_without_a_claim_still_fails_the_gate() {
    let file = quotes_file("anthropic-misquote-no-claim.json");
    let document = json(&file, CHUNKS, &[]).output().json();
    // The citation is checked and not found...
    assert_eq!(sentences(&document)[1]["quotes"][0]["found"], false);
    assert_eq!(document["result"]["citations"][1]["quote"]["found"], false);
    // ... so --max-misquotes 0 must fail.
    assert_eq!(document["gate"]["passed"], false, "{}", document["summary"]);
    check(&file, CHUNKS, &[]).exits_quietly(1);
}

// ------------------------------------------------------------------------------------------
// Citation lists

#[test]
fn a_citation_list_checks_each_quote_in_its_source() {
    let document = json(&response("citation-list.json"), CHUNKS, &[]).json(1);
    assert_eq!(
        citations(&document),
        [
            cite(1, "1", Some("1"), &[]),
            cite(2, "2", Some("2"), &[]),
            cite(3, "3", Some("3"), &[]),
        ]
    );
    for citation in document["result"]["citations"]
        .as_array()
        .expect("citations")
    {
        let quote = &citation["quote"];
        assert_eq!(quote["found"], true, "{quote}");
        assert_eq!(quote["origin"], "citation");
        assert_eq!(quote["chunk"], citation["chunk"]);
        let chunk = chunk_text(CHUNKS, citation["chunk"].as_str().expect("a chunk"));
        assert_eq!(
            chars(&chunk, &quote["offsets"]),
            quote["text"].as_str().expect("text")
        );
    }
    // The list's entries cover no span: the markers in the text decide what each sentence cites.
    assert_eq!(
        cited(&document),
        [vec!["1"], vec!["2"], vec!["3"], Vec::<&str>::new()]
    );
    assert!(
        sentences(&document)
            .iter()
            .all(|s| s["quotes"] == json!([]))
    );
    assert_eq!(document["result"]["counts"]["misquotedCitations"], 0);
    assert_eq!(warnings(&document), Vec::<String>::new());
}

#[test]
fn a_citation_list_source_that_does_not_exist_warns_and_is_an_unknown_marker() {
    let file = quotes_file("citation-list-unknown-source.json");
    let warning = "citation 2 names source 9, which does not exist";
    // It counts against --max-unknown-markers like a marker that points nowhere.
    let document = json(&file, CHUNKS, &[]).json(1);
    assert_eq!(warnings(&document), [warning]);
    assert_eq!(document["result"]["unknownMarkers"], json!(["9"]));
    assert_eq!(
        document["gate"]["failures"][0]["limit"],
        "max-unknown-markers"
    );
    json(&file, CHUNKS, &["--max-unknown-markers", "1"]).exits_quietly(0);
    assert_eq!(
        citations(&document),
        [cite(1, "1", Some("1"), &[]), cite(2, "9", None, &[]),]
    );
    assert_eq!(document["result"]["citations"][1]["quote"], Value::Null);
    let shown = table(&file, CHUNKS, &[]).columns(200).exits_quietly(1);
    assert_table_warns(&shown.stdout, warning);
}

#[test]
fn a_citation_list_quote_not_in_its_source_fails_max_misquotes() {
    let file = quotes_file("citation-list-misquote.json");
    let document = json(&file, CHUNKS, &[]).json(1);
    let counts = &document["result"]["counts"];
    assert_eq!(counts["misquotedCitations"], 1);
    assert_eq!(counts["misquote"], 0);
    assert_eq!(verdicts(&document), ["supported", "supported"]);
    let quote = &document["result"]["citations"][1]["quote"];
    assert_eq!(quote["found"], false);
    assert_eq!(quote["chunk"], "2");
    assert_eq!(quote["closest"]["text"], "it was completed in 1889");
    assert_eq!(quote["closest"]["differingWords"], 1);
    assert_eq!(
        document["gate"]["failures"],
        json!([{"limit": "max-misquotes", "counts": "misquotes", "found": 1, "allowed": 0, "over": 1}])
    );
    let shown = table(&file, CHUNKS, &[]).columns(200).exits_quietly(1);
    assert!(
        shown
            .stdout
            .contains("misquote: “it was finished in 1889” not in chunk 2"),
        "{}",
        shown.stdout
    );
    json(&file, CHUNKS, &["--max-misquotes", "1"]).exits_quietly(0);
}

// ------------------------------------------------------------------------------------------
// Quotations written in a response's text, and responses on standard input

/// A sentence of a response that quotes is checked in the chunk its native citation names,
/// beside the citation's own cited text.
#[test]
fn a_quotation_in_a_cited_response_sentence_is_checked_in_the_cited_chunk() {
    let file = quotes_file("anthropic-quoting-sentence.json");
    let document = json(&file, CHUNKS, &[]).json(1);
    assert_eq!(verdicts(&document), ["misquote"]);
    assert_eq!(cited(&document), [vec!["1"]]);
    let quotes = sentences(&document)[0]["quotes"]
        .as_array()
        .expect("quotes");
    let summary: Vec<(&str, bool, &str)> = quotes
        .iter()
        .map(|q| {
            (
                q["origin"].as_str().expect("an origin"),
                q["found"].as_bool().expect("found"),
                q["chunk"].as_str().expect("a chunk"),
            )
        })
        .collect();
    assert_eq!(summary, [("sentence", false, "1"), ("citation", true, "1")]);
    assert_eq!(
        quotes[0]["text"],
        "about the same height as an 80-storey building"
    );
    assert_eq!(
        quotes[0]["closest"]["text"],
        "about the same height as an 81-storey building"
    );
}

#[test]
fn a_response_on_standard_input_is_recognised() {
    let bytes = std::fs::read(path(&response("ollama-chat.json"))).expect("the fixture");
    let piped = json("-", CHUNKS, &[]).stdin(bytes).exits(1).json();
    let from_file = json(&response("ollama-chat.json"), CHUNKS, &[]).json(1);
    assert_eq!(piped["result"], from_file["result"]);
    assert_eq!(
        piped["inputs"]["answer"],
        json!({
            "path": "<stdin>",
            "format": "ollama",
            "streamed": false,
            "tokens": {"promptTokens": 412, "completionTokens": 52}
        })
    );
}
