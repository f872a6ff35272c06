//! The next systems of `testdata/stacks/` (EXPECTED.md, "The next systems"), read as they
//! return: each sample with and without its chunks file, the verdict of every sentence and the
//! status of every chunk as EXPECTED.md gives them. The helpers are [`crate::stacks`]'s.

use crate::stacks::{VERDICTS, assert_worked_example, check_json, cited, statuses, strings};

fn status(id: &str, status: &str) -> (String, String) {
    (id.to_string(), status.to_string())
}

#[test]
fn cohere_v2_documents_in_the_response_and_the_request() {
    let ids = [
        "eiffel-tower-0",
        "eiffel-tower-1",
        "paris-0",
        "gustave-eiffel-0",
        "louvre-0",
    ];
    // The request's documents, matched to the citations by id.
    let doc = assert_worked_example(
        &[
            "cohere-v2-documents/response.json",
            "cohere-v2-documents/request.json",
        ],
        [ids[0], ids[1], ids[2]],
        &ids,
        ("cohere", "cohere"),
    );
    assert_eq!(doc["result"]["sentences"][2]["suggestedCitation"], ids[3]);
    // The response alone carries the documents it cites: no suggestion is possible.
    let doc = assert_worked_example(
        &["cohere-v2-documents/response.json"],
        [ids[0], ids[1], ids[2]],
        &ids[..3],
        ("cohere", "cohere"),
    );
    assert!(doc["result"]["sentences"][2]["suggestedCitation"].is_null());
}

/// The five pages of the web search samples, in the order C1..C5.
const PAGES: [&str; 5] = [
    "https://en.wikipedia.org/wiki/Eiffel_Tower",
    "https://www.toureiffel.paris/en/the-monument/history",
    "https://en.wikipedia.org/wiki/Paris",
    "https://en.wikipedia.org/wiki/Gustave_Eiffel",
    "https://en.wikipedia.org/wiki/Louvre",
];

#[test]
fn claude_web_search_results_are_pages_with_the_text_the_citations_quote() {
    let doc = check_json(&["claude-web-search/response.json"]);
    // The preamble before the tool use is a sentence of its own, and no claim.
    let verdicts = strings(&doc, "/result/sentences", "verdict");
    assert_eq!(verdicts[0], "no-claim");
    assert_eq!(verdicts[1..], VERDICTS);
    let page = |k: usize| vec![PAGES[k].to_string()];
    assert_eq!(cited(&doc)[1..], [page(0), page(1), page(2), Vec::new()]);
    // C4's text is not there: no suggestion is possible.
    assert!(doc["result"]["sentences"][3]["suggestedCitation"].is_null());
    assert_eq!(
        statuses(&doc),
        [
            status(PAGES[0], "used"),
            status(PAGES[1], "used"),
            status(PAGES[2], "cited-but-not-supporting"),
            status(PAGES[3], "unused"),
            status(PAGES[4], "unused"),
        ]
    );
    assert_eq!(doc["inputs"]["answer"]["format"], "anthropic");
    assert_eq!(doc["inputs"]["chunks"]["format"], "anthropic");
    // C4 and C5 are there by URL and title, without text: said once, and per chunk.
    let warnings: Vec<&str> = doc["warnings"]
        .as_array()
        .expect("warnings")
        .iter()
        .filter_map(serde_json::Value::as_str)
        .collect();
    assert!(
        warnings[0].starts_with("2 web search result(s) carry no text"),
        "{warnings:?}"
    );
    assert_eq!(
        warnings[1..],
        [
            format!("chunk {} is empty", PAGES[3]),
            format!("chunk {} is empty", PAGES[4])
        ]
    );
}

#[test]
fn bedrock_agents_events_with_the_trace_s_references() {
    let ids = [
        "73dd0469-a1b4-4d86-9bba-0e3a580d04ea",
        "d8011c87-23fd-40e5-a986-e39ce5d1b988",
        "ae67a658-94cc-4a07-be92-906319847251",
        "5618604c-8e93-4759-a6bf-14ae8ecace7b",
        "3d8f6d35-d167-4aaf-aaec-1d064b139dcf",
    ];
    // boto3's result with `chunk.bytes` decoded, and the events one per line in base64.
    for file in [
        "bedrock-agents/invoke-agent.json",
        "bedrock-agents/completion-events-base64.jsonl",
    ] {
        let doc = assert_worked_example(
            &[file],
            [ids[0], ids[1], ids[2]],
            &ids,
            ("bedrock-agents", "bedrock-agents"),
        );
        assert_eq!(doc["result"]["sentences"][2]["suggestedCitation"], ids[3]);
    }
}

#[test]
fn openai_assistants_file_citations_and_the_run_steps() {
    let (c1, c2, c4, c3, c5) = (
        "file-H4FxYSEfHE8DrZpN5GwB5E",
        "file-LiSVrbZ0fr9MVMT4N8dE0R",
        "file-W5BcSqmEdsgwiIPMeY3TEZ",
        "file-zJLuh1puzFS7ugz96SLTTi",
        "file-YW2nLwgjY66Gfv7cFcyh2s",
    );
    let doc = check_json(&[
        "openai-assistants/messages.json",
        "openai-assistants/run-steps.json",
    ]);
    assert_eq!(strings(&doc, "/result/sentences", "verdict"), VERDICTS);
    // `【4:3†source】` is the annotation's place, not a marker naming chunk 4: each sentence
    // cites the file its annotation names, and nothing else.
    let one = |id: &str| vec![id.to_string()];
    assert_eq!(cited(&doc), [one(c1), one(c2), one(c3), Vec::new()]);
    let markers: Vec<serde_json::Value> = doc["result"]["sentences"]
        .as_array()
        .expect("sentences")
        .iter()
        .map(|s| s["markers"].clone())
        .collect();
    assert_eq!(
        markers,
        [
            serde_json::json!([c1]),
            serde_json::json!([c2]),
            serde_json::json!([c3]),
            serde_json::json!([])
        ]
    );
    assert_eq!(doc["result"]["sentences"][2]["suggestedCitation"], c4);
    assert_eq!(
        statuses(&doc),
        [
            status(c1, "used"),
            status(c2, "used"),
            status(c4, "relevant-but-uncited"),
            status(c3, "cited-but-not-supporting"),
            status(c5, "unused"),
        ]
    );
    assert_eq!(doc["inputs"]["answer"]["format"], "openai-assistants");
    assert_eq!(doc["inputs"]["chunks"]["format"], "openai-assistants");
    assert_eq!(doc["warnings"], serde_json::json!([]));
    // The messages carry no text of the files: the error says which file to pass.
    let err = crate::stacks::input_error(&["check", "openai-assistants/messages.json"]);
    assert!(
        err.contains("the answer carries no sources: pass the run's steps"),
        "{err}"
    );
}

#[test]
fn open_webui_numbers_name_source_files() {
    // The sources are in score order C1, C2, C4, C3, C5; `[N]` names the N-th distinct file, so
    // S3's `[4]` is C3 and the suggested C4 is `[3]`.
    let doc = check_json(&["open-webui/chat-export-1755786131412.json"]);
    assert_eq!(strings(&doc, "/result/sentences", "verdict"), VERDICTS);
    let one = |id: &str| vec![id.to_string()];
    assert_eq!(cited(&doc), [one("1"), one("2"), one("4"), Vec::new()]);
    assert_eq!(doc["result"]["sentences"][2]["suggestedCitation"], "3");
    assert_eq!(
        statuses(&doc),
        [
            status("1", "used"),
            status("2", "used"),
            status("3", "relevant-but-uncited"),
            status("4", "cited-but-not-supporting"),
            status("5", "unused"),
        ]
    );
    assert_eq!(doc["inputs"]["answer"]["format"], "open-webui");
    assert_eq!(doc["result"]["unknownMarkers"], serde_json::json!([]));
    assert_eq!(doc["warnings"], serde_json::json!([]));
}
