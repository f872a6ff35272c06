//! Where the CI formats point for a response file (an SSE stream, NDJSON, a provider's or a
//! framework's JSON): at the line and column of the sentence's text inside that file. Each
//! finding's position is checked by reading the file there: the JSON string from that point,
//! unescaped, begins with the sentence's first characters, and the file just before its end
//! holds the sentence's last character.

use std::collections::HashMap;

use serde_json::Value;

use crate::util::{Tree, path, ragcite};

/// Every response of `testdata/responses/` that has findings at `--threshold 0.99` (with the
/// chunks of that folder), and every stack's response (with the chunks file it needs, if any):
/// one JSON object, SSE streams, NDJSON, a JSON Lines event log, and the formats read by profile.
const CASES: [(&str, Option<&str>); 52] = [
    ("responses/anthropic-max-tokens.json", RESPONSE_CHUNKS),
    ("responses/anthropic-stream.sse", RESPONSE_CHUNKS),
    ("responses/anthropic.json", RESPONSE_CHUNKS),
    ("responses/citation-list.json", RESPONSE_CHUNKS),
    ("responses/cohere-stream.sse", RESPONSE_CHUNKS),
    ("responses/cohere.json", RESPONSE_CHUNKS),
    ("responses/gemini-stream.sse", RESPONSE_CHUNKS),
    ("responses/gemini.json", RESPONSE_CHUNKS),
    ("responses/ollama-chat-stream.ndjson", RESPONSE_CHUNKS),
    ("responses/ollama-chat-truncated.json", RESPONSE_CHUNKS),
    ("responses/ollama-chat.json", RESPONSE_CHUNKS),
    ("responses/ollama-generate-stream.ndjson", RESPONSE_CHUNKS),
    ("responses/ollama-generate.json", RESPONSE_CHUNKS),
    ("responses/ollama-stream-error.ndjson", RESPONSE_CHUNKS),
    (
        "responses/openai-chat-stream-truncated.sse",
        RESPONSE_CHUNKS,
    ),
    ("responses/openai-chat-stream.sse", RESPONSE_CHUNKS),
    ("responses/openai-chat.json", RESPONSE_CHUNKS),
    ("responses/openai-responses-stream.sse", RESPONSE_CHUNKS),
    ("responses/openai-responses.json", RESPONSE_CHUNKS),
    ("stacks/amazon-q-business/chat-sync.json", None),
    (
        "stacks/anthropic-documents/response.json",
        Some("stacks/anthropic-documents/request.json"),
    ),
    ("stacks/anythingllm/response-context-markers.json", None),
    ("stacks/anythingllm/response.json", None),
    (
        "stacks/azure-agentic-retrieval/retrieve-answer-synthesis.json",
        None,
    ),
    ("stacks/azure-on-your-data/response.json", None),
    ("stacks/bedrock-agents/completion-events-base64.jsonl", None),
    ("stacks/bedrock-agents/invoke-agent.json", None),
    (
        "stacks/bedrock-converse/response.json",
        Some("stacks/bedrock-converse/request.json"),
    ),
    ("stacks/bedrock-kb/response.json", None),
    ("stacks/claude-web-search/response.json", None),
    ("stacks/cohere-v2-documents/response.json", None),
    ("stacks/dify/response.json", None),
    ("stacks/dspy/prediction.json", None),
    ("stacks/exa/answer.json", None),
    ("stacks/graphrag/local-search.json", None),
    ("stacks/haystack/response-v3.json", None),
    ("stacks/haystack/response.json", None),
    ("stacks/langchain/response.json", None),
    ("stacks/lightrag/response.json", None),
    ("stacks/llamaindex/response.json", None),
    (
        "stacks/mistral/response.json",
        Some("stacks/mistral/tool-result.json"),
    ),
    ("stacks/open-webui/chat-export-1755786131412.json", None),
    (
        "stacks/openai-assistants/messages.json",
        Some("stacks/openai-assistants/run-steps.json"),
    ),
    ("stacks/openai-responses-file-search/response.json", None),
    (
        "stacks/openai-web-search/response.json",
        Some("stacks/openai-web-search/chunks.json"),
    ),
    ("stacks/perplexity/response.json", None),
    ("stacks/pinecone-assistant/chat.json", None),
    ("stacks/privategpt/response.json", None),
    ("stacks/r2r/response.json", None),
    ("stacks/ragflow/response-v0.19.json", None),
    ("stacks/vectara/query.json", None),
    ("stacks/vertex-rag/response.json", None),
];

const RESPONSE_CHUNKS: Option<&str> = Some("responses/chunks.json");

/// A threshold that leaves few sentences supported, so that every sample has findings.
const THRESHOLD: &str = "0.99";

/// A finding as a CI format places it.
#[derive(Debug)]
struct Placed {
    /// The end of the message: the sentence, quoted.
    message: String,
    line: usize,
    column: usize,
    /// Just past the end, where the format gives it.
    end: Option<(usize, usize)>,
}

/// `ragcite check <answer> [chunks] --threshold 0.99 --format <format>`, from `testdata/`.
fn check(answer: &str, chunks: Option<&str>, format: &str) -> String {
    let mut args = vec!["check", answer];
    args.extend(chunks);
    args.extend(["--threshold", THRESHOLD, "--format", format]);
    let out = ragcite(&args).in_dir(path("testdata")).output().no_panic();
    assert!(
        matches!(out.code, Some(0 | 1)),
        "{}: {}",
        out.what,
        out.stderr
    );
    out.stdout
}

/// The sentences of a `check --format json` document, in order.
fn sentences(doc: &Value) -> Vec<String> {
    doc["result"]["sentences"]
        .as_array()
        .expect("sentences")
        .iter()
        .map(|s| s["sentence"].as_str().expect("sentence").to_string())
        .collect()
}

fn github(stdout: &str) -> Vec<Placed> {
    let mut placed = Vec::new();
    for line in stdout.lines() {
        let Some(rest) = line
            .strip_prefix("::error ")
            .or_else(|| line.strip_prefix("::warning "))
            .or_else(|| line.strip_prefix("::notice "))
        else {
            continue;
        };
        let (properties, message) = rest.split_once("::").expect("a message");
        let properties: HashMap<&str, &str> = properties
            .split(',')
            .filter_map(|p| p.split_once('='))
            .collect();
        let Some(line) = properties.get("line") else {
            continue; // The summary.
        };
        let number = |key: &str| properties[key].parse::<usize>().expect(key);
        placed.push(Placed {
            message: message.replace("%0A", "\n").replace("%25", "%"),
            line: line.parse().expect("line"),
            column: number("col"),
            end: Some((number("endLine"), number("endColumn"))),
        });
    }
    placed
}

fn sarif(stdout: &str) -> Vec<Placed> {
    let log: Value = serde_json::from_str(stdout).expect("SARIF is JSON");
    let number = |v: &Value| v.as_u64().expect("a number") as usize;
    log["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|result| {
            let region = &result["locations"][0]["physicalLocation"]["region"];
            Placed {
                message: result["message"]["text"]
                    .as_str()
                    .expect("text")
                    .to_string(),
                line: number(&region["startLine"]),
                column: number(&region["startColumn"]),
                end: Some((number(&region["endLine"]), number(&region["endColumn"]))),
            }
        })
        .collect()
}

/// JUnit's failures list their findings as `path:line:column: message`.
fn junit(stdout: &str, answer: &str) -> Vec<Placed> {
    let document = roxmltree::Document::parse(stdout).expect("JUnit is XML");
    let prefix = format!("{}:", answer.trim_start_matches("./"));
    let mut placed = Vec::new();
    for failure in document.descendants().filter(|n| n.has_tag_name("failure")) {
        for line in failure.text().unwrap_or("").lines() {
            let Some(rest) = line.split_once(&prefix).map(|(_, rest)| rest) else {
                continue;
            };
            let mut parts = rest.splitn(3, ':');
            let (Some(line), Some(column), Some(message)) =
                (parts.next(), parts.next(), parts.next())
            else {
                continue;
            };
            placed.push(Placed {
                message: message.to_string(),
                line: line.parse().expect("line"),
                column: column.parse().expect("column"),
                end: None,
            });
        }
    }
    placed
}

/// The file from `line`, `column` on (a BOM not counted in the column).
fn file_from(file: &str, line: usize, column: usize) -> &str {
    let body = file.strip_prefix('\u{feff}').unwrap_or(file);
    let mut start = 0;
    for _ in 1..line {
        start += body[start..].find('\n').expect("the line is in the file") + 1;
    }
    let rest = &body[start..];
    let skip = rest
        .char_indices()
        .nth(column - 1)
        .map_or(rest.len(), |(k, _)| k);
    &rest[skip..]
}

/// The JSON string content at the start of `rest`, unescaped, up to its closing quote.
fn unescaped(rest: &str) -> String {
    let bytes = rest.as_bytes();
    let mut end = 0;
    while end < bytes.len() && bytes[end] != b'"' && bytes[end] != b'\n' {
        end += if bytes[end] == b'\\' { 2 } else { 1 };
    }
    let content = rest.get(..end.min(rest.len())).expect("on a character");
    serde_json::from_str(&format!("\"{content}\""))
        .unwrap_or_else(|e| panic!("not a JSON string's content: {content:?}: {e}"))
}

/// The sentence a finding's message quotes (the message ends with it, white space collapsed).
fn sentence_of<'a>(message: &str, sentences: &'a [String]) -> &'a str {
    sentences
        .iter()
        .find(|s| {
            let collapsed = s.split_whitespace().collect::<Vec<_>>().join(" ");
            message.ends_with(&format!("\"{collapsed}\""))
        })
        .unwrap_or_else(|| panic!("no sentence ends {message:?}"))
}

/// The ways a JSON file may write `c`.
fn written_forms(c: char) -> Vec<String> {
    let mut forms = vec![c.to_string()];
    let escaped = serde_json::to_string(&c.to_string()).expect("a string");
    forms.push(escaped[1..escaped.len() - 1].to_string());
    let mut units = [0u16; 2];
    let utf16: Vec<String> = c
        .encode_utf16(&mut units)
        .iter()
        .map(|u| format!("{u:04x}"))
        .collect();
    forms.push(utf16.iter().map(|u| format!("\\u{u}")).collect());
    forms.push(
        utf16
            .iter()
            .map(|u| format!("\\u{}", u.to_uppercase()))
            .collect(),
    );
    forms
}

/// Checks that each finding lands on its sentence in `file`; the number of findings checked.
fn assert_placed(what: &str, file: &str, placed: &[Placed], sentences: &[String]) -> usize {
    for finding in placed {
        let sentence = sentence_of(&finding.message, sentences);
        let there = unescaped(file_from(file, finding.line, finding.column));
        let first: String = sentence.chars().take(12).collect();
        assert!(
            !there.is_empty() && (there.starts_with(&first) || first.starts_with(&there)),
            "{what}: {}:{} holds {there:?}, not the start of {sentence:?}",
            finding.line,
            finding.column
        );
        if let Some((line, column)) = finding.end {
            let last = sentence.chars().next_back().expect("a sentence");
            let body = file.strip_prefix('\u{feff}').unwrap_or(file);
            let line_start = body.len() - file_from(file, line, 1).len();
            let before = &body[..body.len() - file_from(file, line, column).len()];
            assert!(
                before.len() > line_start
                    && written_forms(last).iter().any(|f| before.ends_with(f)),
                "{what}: the end {line}:{column} is not just past {last:?} of {sentence:?}"
            );
        }
    }
    placed.len()
}

#[test]
fn ci_positions_of_a_response_land_on_its_sentences_in_the_file() {
    let mut checked = 0;
    for (answer, chunks) in CASES {
        let file = std::fs::read_to_string(path(&format!("testdata/{answer}"))).expect("read");
        let doc: Value = serde_json::from_str(&check(answer, chunks, "json")).expect("JSON");
        assert_ne!(doc["inputs"]["answer"]["format"], "text", "{answer}");
        let sentences = sentences(&doc);
        let github = github(&check(answer, chunks, "github"));
        let sarif = sarif(&check(answer, chunks, "sarif"));
        assert!(!sarif.is_empty(), "{answer} has no findings");
        checked += assert_placed(&format!("{answer} github"), &file, &github, &sentences);
        checked += assert_placed(&format!("{answer} sarif"), &file, &sarif, &sentences);
        let junit = junit(&check(answer, chunks, "junit"), answer);
        checked += assert_placed(&format!("{answer} junit"), &file, &junit, &sentences);
        // GitLab gives the first line only: SARIF's, finding for finding.
        let gitlab: Value =
            serde_json::from_str(&check(answer, chunks, "gitlab")).expect("GitLab is JSON");
        let lines: Vec<u64> = gitlab
            .as_array()
            .expect("entries")
            .iter()
            .map(|e| e["location"]["lines"]["begin"].as_u64().expect("begin"))
            .collect();
        let sarif_lines: Vec<u64> = sarif.iter().map(|p| p.line as u64).collect();
        assert_eq!(lines, sarif_lines, "{answer} gitlab");
    }
    assert!(checked >= 3 * CASES.len(), "{checked} findings checked");
}

#[test]
fn a_stream_with_a_bom_crlf_line_ends_and_escapes_is_placed_exactly() {
    // An OpenAI chat completion stream written by a Windows tool: a BOM, CRLF line ends, and
    // deltas with escapes (a quotation mark, an é as \u00e9, a line break).
    let deltas = [
        "The tower",
        " is 330 metres tall [1].",
        "\n\nIt was completed in 1888 ",
        "for the \"World's Fair\" [2]. Caf\u{e9} ",
        "prices rose by 50% in 1900.",
    ];
    let mut stream = String::from("\u{feff}: a comment\r\n\r\n");
    for delta in deltas {
        let content = serde_json::to_string(delta)
            .expect("a string")
            .replace('\u{e9}', "\\u00e9");
        stream.push_str(&format!(
            "data: {{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{{\"index\":0,\"delta\":{{\"content\":{content}}}}}]}}\r\n\r\n"
        ));
    }
    stream.push_str("data: [DONE]\r\n\r\n");
    let tree = Tree::new();
    let answer = tree.write("stream.sse", &stream);
    let chunks = tree.write(
        "chunks.json",
        r#"[{"id": "1", "text": "The tower is 330 metres tall."}, {"id": "2", "text": "It was completed in 1889 for the World's Fair."}]"#,
    );
    let run = |format: &str| {
        ragcite(["check"])
            .in_dir(&tree.root)
            .args([answer.as_os_str(), chunks.as_os_str()])
            .args(["--format", format])
            .output()
            .no_panic()
            .stdout
    };
    let doc: Value = serde_json::from_str(&run("json")).expect("JSON");
    let sentences = sentences(&doc);
    let sarif = sarif(&run("sarif"));
    // 1888 is not in chunk 2; the last sentence cites nothing.
    assert_eq!(sarif.len(), 2, "{sarif:?}");
    assert_eq!(assert_placed("sse", &stream, &sarif, &sentences), 2);
    assert_eq!(
        assert_placed("sse", &stream, &github(&run("github")), &sentences),
        2
    );
    // The second finding starts on the last line but one of the stream's deltas, after the
    // `data: ` and the event's JSON up to its content.
    let column = stream
        .lines()
        .nth(8)
        .expect("line 9")
        .find("Caf")
        .expect("Caf")
        + 1;
    assert_eq!((sarif[1].line, sarif[1].column), (9, column));
    // The first, "It was completed in 1888 ...", starts after the escaped line breaks.
    let third = stream.lines().nth(6).expect("line 7");
    let it = third.find("It was").expect("It was") + 1;
    assert_eq!((sarif[0].line, sarif[0].column), (7, it));
}
