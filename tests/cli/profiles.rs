//! Stacks read through the built-in format profiles (`crates/ragcite/src/input/response/profiles.toml`): each
//! sample of `testdata/stacks/` as the most natural command reads it, with the verdict of every
//! sentence, what each cites, the suggestion for the third, and the status of every chunk, as
//! `testdata/stacks/EXPECTED.md` gives them; then the user's own profiles, `--answer-path`, and
//! `ragcite formats`.

use serde_json::Value;

use crate::stacks::{VERDICTS, check_json, cited, statuses, strings};
use crate::util::ragcite;

/// One sample: the files `check` gets, the formats the report names, the chunk each of the first
/// three sentences cites, the suggestion for the third, and every chunk with its status.
struct Case<'a> {
    files: &'a [&'a str],
    formats: (&'a str, &'a str),
    cites: [&'a [&'a str]; 3],
    suggestion: Option<&'a str>,
    chunks: &'a [(&'a str, &'a str)],
}

const USED: &str = "used";
const CBNS: &str = "cited-but-not-supporting";
const RBU: &str = "relevant-but-uncited";
const UNUSED: &str = "unused";

/// The worked example's statuses, the chunks in the order C1..C5.
fn in_order<'a>(ids: &[&'a str; 5]) -> [(&'a str, &'a str); 5] {
    [
        (ids[0], USED),
        (ids[1], USED),
        (ids[2], CBNS),
        (ids[3], RBU),
        (ids[4], UNUSED),
    ]
}

/// The same, the chunks in score order as many stacks return them: C1, C2, C4, C3, C5.
fn score_order<'a>(ids: &[&'a str; 5]) -> [(&'a str, &'a str); 5] {
    let [c1, c2, c3, c4, c5] = in_order(ids);
    [c1, c2, c4, c3, c5]
}

fn assert_case(case: &Case) -> Value {
    let doc = check_json(case.files);
    let files = case.files;
    assert_eq!(
        strings(&doc, "/result/sentences", "verdict")[..4],
        VERDICTS,
        "{files:?}"
    );
    let expected: Vec<Vec<String>> = case
        .cites
        .iter()
        .map(|ids| ids.iter().map(|id| id.to_string()).collect())
        .chain([Vec::new()])
        .collect();
    assert_eq!(cited(&doc)[..4], expected, "{files:?}");
    assert_eq!(
        doc["result"]["sentences"][2]["suggestedCitation"].as_str(),
        case.suggestion,
        "{files:?}"
    );
    let chunks: Vec<(String, String)> = case
        .chunks
        .iter()
        .map(|(id, status)| (id.to_string(), status.to_string()))
        .collect();
    assert_eq!(statuses(&doc), chunks, "{files:?}");
    assert_eq!(
        doc["inputs"]["answer"]["format"], case.formats.0,
        "{files:?}"
    );
    assert_eq!(
        doc["inputs"]["chunks"]["format"], case.formats.1,
        "{files:?}"
    );
    doc
}

#[test]
fn vectara_markers_name_the_search_results_in_order() {
    let ids = [
        "eiffel-tower@0",
        "eiffel-tower@141",
        "paris@0",
        "gustave-eiffel@0",
        "louvre@0",
    ];
    assert_case(&Case {
        files: &["vectara/query.json"],
        formats: ("vectara", "vectara"),
        cites: [&[ids[0]], &[ids[1]], &[ids[2]]],
        suggestion: Some(ids[3]),
        chunks: &in_order(&ids),
    });
}

#[test]
fn vertex_ai_search_byte_offsets_as_strings_and_reference_ids() {
    let ids = [
        "Eiffel Tower p. 1",
        "Eiffel Tower p. 2",
        "Paris p. 1",
        "Gustave Eiffel p. 1",
        "Louvre p. 1",
    ];
    assert_case(&Case {
        files: &["vertex-ai-search-answer/answer.json"],
        formats: ("vertex-ai-search-answer", "vertex-ai-search-answer"),
        cites: [&[ids[0]], &[ids[1]], &[ids[2]]],
        suggestion: Some(ids[3]),
        chunks: &in_order(&ids),
    });
}

#[test]
fn amazon_q_segments_carry_the_only_chunks() {
    let ids = ["eiffel-tower.pdf", "eiffel-tower.pdf#2", "paris.pdf"];
    assert_case(&Case {
        files: &["amazon-q-business/chat-sync.json"],
        formats: ("amazon-q-business", "amazon-q-business"),
        cites: [&[ids[0]], &[ids[1]], &[ids[2]]],
        suggestion: None,
        chunks: &[(ids[0], USED), (ids[1], USED), (ids[2], CBNS)],
    });
}

#[test]
fn azure_agentic_ref_ids_with_and_without_the_extractive_references() {
    let key = |doc: &str, page: u8| {
        format!("{doc}_aHR0cHM6Ly9laWZmZWxzZWFyY2hkb2NzLmJsb2IuY29yZS53aW5kb3dzLm5ldC9kb2NzL")
            + match page {
                0 => "2VpZmZlbC10b3dlci5wZGY1_pages_0",
                1 => "2VpZmZlbC10b3dlci5wZGY1_pages_1",
                2 => "3BhcmlzLnBkZg2_pages_0",
                3 => "2d1c3RhdmUtZWlmZmVsLnBkZg2_pages_0",
                _ => "2xvdXZyZS5wZGY1_pages_0",
            }
    };
    let ids = [
        key("e20fad5e5f4c", 0),
        key("e20fad5e5f4c", 1),
        key("7b2f1c7b0f92", 2),
        key("4f3d7dc47ead", 3),
        key("1d93947855cf", 4),
    ];
    let (c1, c2, c3) = ([ids[0].as_str()], [ids[1].as_str()], [ids[2].as_str()]);
    let case = |files| Case {
        files,
        formats: ("azure-agentic-retrieval", "azure-agentic-retrieval"),
        cites: [&c1, &c2, &c3],
        suggestion: Some(&ids[3]),
        chunks: &[],
    };
    let chunks = [
        (ids[0].as_str(), USED),
        (&ids[1], USED),
        (&ids[2], CBNS),
        (&ids[3], RBU),
        (&ids[4], UNUSED),
    ];
    assert_case(&Case {
        chunks: &chunks,
        ..case(&["azure-agentic-retrieval/retrieve-answer-synthesis.json"])
    });
    assert_case(&Case {
        chunks: &chunks,
        formats: ("azure-agentic-retrieval", "azure-agentic-retrieval-sources"),
        ..case(&[
            "azure-agentic-retrieval/retrieve-answer-synthesis.json",
            "azure-agentic-retrieval/retrieve-extractive.json",
        ])
    });
    // The extractive response holds no answer: it is a chunks file.
    let line =
        crate::stacks::input_error(&["check", "azure-agentic-retrieval/retrieve-extractive.json"]);
    assert!(
        line.contains("holds sources and no answer: pass it as CHUNKS"),
        "{line}"
    );
}

#[test]
fn pinecone_positions_and_highlights_and_the_context_snippets() {
    let ids = [
        "eiffel-tower.pdf p. 1",
        "eiffel-tower.pdf p. 2",
        "paris.pdf p. 1",
        "gustave-eiffel.pdf p. 1",
        "louvre.pdf p. 1",
    ];
    let cites: [&[&str]; 3] = [&[ids[0]], &[ids[1]], &[ids[2]]];
    assert_case(&Case {
        files: &["pinecone-assistant/chat.json"],
        formats: ("pinecone-assistant", "pinecone-assistant"),
        cites,
        suggestion: None,
        chunks: &[(ids[0], USED), (ids[1], USED), (ids[2], CBNS)],
    });
    assert_case(&Case {
        files: &[
            "pinecone-assistant/chat.json",
            "pinecone-assistant/context.json",
        ],
        formats: ("pinecone-assistant", "pinecone-assistant-context"),
        cites,
        suggestion: Some(ids[3]),
        // The snippets come in score order: C1, C2, C4, C3, C5.
        chunks: &score_order(&ids),
    });
}

#[test]
fn ragflow_zero_based_markers_in_three_forms() {
    let ids = [
        "f88b16c6bbce53b1",
        "5756b2de07298f7b",
        "b301645a74268b13",
        "f25f4c43a13891c3",
        "f5b26c79af59b500",
    ];
    for (file, format) in [
        ("ragflow/response.json", "ragflow"),
        ("ragflow/response-v0.19.json", "ragflow"),
        ("ragflow/response-openai.json", "ragflow-openai"),
    ] {
        assert_case(&Case {
            files: &[file],
            formats: (format, format),
            cites: [&[ids[0]], &[ids[1]], &[ids[2]]],
            suggestion: Some(ids[3]),
            // Similarity order: C1, C2, C4, C3, C5; `[ID:3]` is the fourth, C3.
            chunks: &score_order(&ids),
        });
    }
}

#[test]
fn r2r_short_ids_are_prefixes_of_the_chunk_ids() {
    let ids = [
        "92018f1a-1a22-5764-b6fb-0b2755de5ba8",
        "fa4cc53e-e545-5efc-b3ba-1afed7c59092",
        "a08690c3-ab0f-59c8-9fa4-f8e578c2cd95",
        "841fdd60-6bc9-5656-be09-9524ea9862ec",
        "21c1c54e-9da5-5ff4-9531-06f95f3229e9",
    ];
    assert_case(&Case {
        files: &["r2r/response.json"],
        formats: ("r2r", "r2r"),
        cites: [&[ids[0]], &[ids[1]], &[ids[2]]],
        suggestion: Some(ids[3]),
        chunks: &score_order(&ids),
    });
}

#[test]
fn graphrag_data_references_name_source_records() {
    let doc = assert_case(&Case {
        files: &["graphrag/local-search.json"],
        formats: ("graphrag", "graphrag"),
        cites: [&["7"], &["12"], &["3"]],
        suggestion: Some("15"),
        chunks: &[
            ("7", USED),
            ("12", USED),
            ("3", CBNS),
            ("15", RBU),
            ("21", UNUSED),
        ],
    });
    // `Entities (1)` is a graph record, not an unknown marker.
    assert_eq!(doc["result"]["counts"]["unknownMarkers"], 0);
}

#[test]
fn lightrag_numbers_name_files_and_the_reference_list_is_no_claim() {
    let doc = assert_case(&Case {
        files: &["lightrag/response.json"],
        formats: ("lightrag", "lightrag"),
        cites: [&["1#1", "1#2"], &["1#1", "1#2"], &["2"]],
        suggestion: Some("3"),
        chunks: &[
            ("1#1", USED),
            ("1#2", USED),
            ("2", CBNS),
            ("3", RBU),
            ("4", UNUSED),
        ],
    });
    let verdicts = strings(&doc, "/result/sentences", "verdict");
    assert!(
        verdicts[4..].iter().all(|v| v == "no-claim"),
        "{verdicts:?}"
    );
}

#[test]
fn dspy_context_strings_are_numbered_from_one() {
    assert_case(&Case {
        files: &["dspy/prediction.json"],
        formats: ("dspy", "dspy"),
        cites: [&["1"], &["2"], &["3"]],
        suggestion: Some("4"),
        chunks: &[
            ("1", USED),
            ("2", USED),
            ("3", CBNS),
            ("4", RBU),
            ("5", UNUSED),
        ],
    });
}

#[test]
fn anythingllm_context_labels_count_from_zero() {
    let ids = [
        "b6f3e1a9-2c47-4d8e-9a15-3e7c0b8d2f61",
        "1d9a4c7e-8f2b-4e63-a0d5-6c3f9b1e7a28",
        "f4c8b2e6-5a1d-4c97-8e3b-0a6d2f9c1b54",
        "8a2e6d1f-3c9b-4f05-b7e4-9d1c5a3f8e72",
        "3e7b9f2c-6d4a-4b18-9c6f-1a8e4d7b5c03",
    ];
    let doc = check_json(&["anythingllm/response-context-markers.json"]);
    assert_eq!(strings(&doc, "/result/sentences", "verdict"), VERDICTS);
    let expected: Vec<Vec<String>> = [ids[0], ids[1], ids[2]]
        .iter()
        .map(|id| vec![id.to_string()])
        .chain([Vec::new()])
        .collect();
    assert_eq!(cited(&doc), expected);
    assert_eq!(doc["result"]["sentences"][2]["suggestedCitation"], ids[3]);
}

#[test]
fn vercel_ai_sdk_results_with_steps_or_fields() {
    let pages = [
        "https://en.wikipedia.org/wiki/Eiffel_Tower",
        "https://www.toureiffel.paris/en/the-monument/history",
        "https://en.wikipedia.org/wiki/Paris",
        "https://en.wikipedia.org/wiki/Gustave_Eiffel",
        "https://en.wikipedia.org/wiki/Louvre",
    ];
    for (file, format) in [
        ("vercel-ai-sdk/result.json", "vercel-ai-sdk"),
        ("vercel-ai-sdk/result-fields.json", "vercel-ai-sdk-fields"),
    ] {
        assert_case(&Case {
            files: &[file],
            formats: (format, format),
            cites: [&[pages[0]], &[pages[1]], &[pages[2]]],
            suggestion: Some(pages[3]),
            chunks: &[
                (pages[0], USED),
                (pages[1], USED),
                (pages[2], CBNS),
                (pages[3], RBU),
                (pages[4], UNUSED),
            ],
        });
    }
}

/// The no-attribution outcome (N): every sentence uncited; C1, C2, C4 relevant, C3, C5 unused.
#[test]
fn stacks_that_return_sources_without_citations() {
    let pages = [
        "https://en.wikipedia.org/wiki/Eiffel_Tower",
        "https://www.toureiffel.paris/en/the-monument/history",
        "https://en.wikipedia.org/wiki/Paris",
        "https://www.britannica.com/biography/Gustave-Eiffel",
        "https://en.wikipedia.org/wiki/Louvre",
    ];
    let dify = [
        "0d4e7a92-5c1f-4b38-9e6d-2a8f3c7b1e05",
        "1b9f3c64-8e2d-4a75-b0c9-6d4e1f8a2c37",
        "2c7a5e18-3f9b-4d60-a8e1-9b5c0d7f4a62",
        "3e8d1b75-9a4c-4f23-b7e5-0c6f2a9d5b84",
        "4f6c2d93-7b5e-4a81-9c0d-1e7a3b8f6c29",
    ];
    let private = [
        "eiffel-tower.txt",
        "eiffel-tower-history.txt",
        "paris.txt",
        "gustave-eiffel.txt",
        "louvre.txt",
    ];
    for (file, format, ids, order) in [
        ("exa/answer.json", "exa-answer", pages, [0, 1, 2, 3, 4]),
        ("dify/response.json", "dify", dify, [0, 1, 3, 2, 4]),
        (
            "privategpt/response.json",
            "privategpt",
            private,
            [0, 1, 3, 2, 4],
        ),
    ] {
        let doc = check_json(&[file]);
        assert_eq!(doc["inputs"]["answer"]["format"], format);
        assert_eq!(
            strings(&doc, "/result/sentences", "verdict"),
            ["uncited-claim"; 4],
            "{file}"
        );
        let suggested = strings(&doc, "/result/sentences", "suggestedCitation");
        assert_eq!(suggested, [ids[0], ids[1], ids[3], ""], "{file}");
        let status = [USED, USED, UNUSED, RBU, UNUSED].map(|s| if s == USED { RBU } else { s });
        let expected: Vec<(String, String)> = order
            .iter()
            .map(|&k| (ids[k].to_string(), status[k].to_string()))
            .collect();
        assert_eq!(statuses(&doc), expected, "{file}");
    }
}

#[test]
fn formats_lists_every_profile_and_detect_gives_the_scores() {
    let list = ragcite(["formats", "--format", "json"]).json(0);
    let names: Vec<&str> = list["formats"]
        .as_array()
        .expect("formats")
        .iter()
        .filter_map(|f| f["name"].as_str())
        .collect();
    for name in ["text", "openai", "vectara", "ragflow", "r2r", "graphrag"] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    // Pinecone's chat matches Cohere's reader too, and its more specific profile wins.
    let detect = ragcite([
        "formats",
        "detect",
        "testdata/stacks/pinecone-assistant/chat.json",
        "--format",
        "json",
    ])
    .json(0);
    assert_eq!(detect["format"], "pinecone-assistant");
    let candidates: Vec<(&str, u64)> = detect["candidates"]
        .as_array()
        .expect("candidates")
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap_or(""),
                c["score"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(candidates, [("pinecone-assistant", 3), ("cohere", 2)]);
}

#[test]
fn detect_reports_a_file_check_cannot_read_as_check_does() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let cases = [
        // Broken JSON with an OpenAI key: detection guesses `openai` from the keys.
        (
            "broken.json",
            r#"{"choices": [{"message": {"content": "x""#,
            "line 1: invalid JSON: EOF while parsing an object (column 40)",
        ),
        // Valid JSON that the format chosen cannot read.
        (
            "wrong.json",
            r#"{"object": "chat.completion", "choices": [{"message": {"role": "assistant", "content": 5}}]}"#,
            "`choices[0].message.content` is a number; expected a string",
        ),
    ];
    for (name, text, expected) in cases {
        let file = dir.path().join(name);
        std::fs::write(&file, text).expect("write");
        let file = file.to_str().expect("a path");
        let checked = ragcite(["check", file, "testdata/eiffel/chunks.json"]).input_error();
        assert_eq!(checked, format!("ragcite: error: {file}: {expected}"));
        let detected = ragcite(["formats", "detect", file]).input_error();
        assert_eq!(detected, checked);
        let out = ragcite(["formats", "detect", file, "--format", "json"])
            .output()
            .exits(2);
        let doc = out.json();
        assert_eq!(doc["error"], expected, "{name}");
        assert_eq!(doc["format"], serde_json::Value::Null, "{name}");
    }
    // JSON that no format matches is an answer, not an error: exit 0, the reason in `error`.
    let unknown = dir.path().join("unknown.json");
    std::fs::write(&unknown, r#"{"a": 1}"#).expect("write");
    let doc = ragcite([
        "formats",
        "detect",
        unknown.to_str().expect("a path"),
        "--format",
        "json",
    ])
    .json(0);
    assert!(
        doc["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("JSON of no known response format"))
    );
}

/// A house service's response, read through the user's `[[format]]` table: markers of its own,
/// sources under a key of its own; then the same file through `--answer-path`.
#[test]
fn a_profile_of_the_users_own_in_the_configuration() {
    let tree = crate::util::Tree::new();
    tree.write(
        ".ragcite.toml",
        r#"
[[format]]
name = "house-rag"
title = "Our retrieval service"
detect = ["result.text", "result.hits[].body"]
answer = "result.text"
sources = "result.hits[]"
source-id = "doc"
source-text = "body"
marker = '\{\{(\d+)\}\}'
"#,
    );
    let answer = tree.write(
        "work/answer.json",
        r#"{"result": {"text": "The Eiffel Tower is 330 metres tall {{1}}. It opened in 1888 {{2}}. It was designed by the engineer Gustave Eiffel.",
            "hits": [{"doc": "tower", "body": "The Eiffel Tower is 330 metres tall."},
                     {"doc": "opening", "body": "The tower opened in 1889."}]}}"#,
    );
    let dir = answer.parent().expect("a folder").to_path_buf();
    let doc = tree
        .ragcite(&dir, ["check", "answer.json", "--format", "json"])
        .json(1);
    assert_eq!(doc["inputs"]["answer"]["format"], "house-rag");
    assert_eq!(
        strings(&doc, "/result/sentences", "verdict"),
        ["supported", "number-mismatch", "uncited-claim"]
    );
    assert_eq!(
        cited(&doc),
        [
            vec!["tower".to_string()],
            vec!["opening".to_string()],
            Vec::new()
        ]
    );
    let listed = tree.ragcite(&dir, ["formats"]).stdout(0);
    assert!(
        listed.contains("house-rag") && listed.contains("user profile"),
        "{listed}"
    );
    // Without the configuration, the same file is JSON of no known format, and the error names
    // the option that reads it.
    let line = tree
        .ragcite(&dir, ["check", "answer.json", "--isolated"])
        .input_error();
    assert!(line.contains("--answer-path"), "{line}");
    let doc = tree
        .ragcite(
            &dir,
            [
                "check",
                "answer.json",
                "--isolated",
                "--answer-path",
                "result.text",
                "--sources-path",
                "result.hits[]",
                "--source-id-path",
                "doc",
                "--source-text-path",
                "body",
                "--marker",
                r"\{\{(\d+)\}\}",
                "--format",
                "json",
            ],
        )
        .json(1);
    assert_eq!(
        strings(&doc, "/result/sentences", "verdict"),
        ["supported", "number-mismatch", "uncited-claim"]
    );
    // A path that does not parse is refused, naming its option.
    let line = tree
        .ragcite(
            &dir,
            [
                "check",
                "answer.json",
                "--isolated",
                "--answer-path",
                "result[",
            ],
        )
        .input_error();
    assert!(
        line.contains("--answer-path `result[`: a `[` has no closing `]`"),
        "{line}"
    );
}

#[test]
fn a_profile_that_is_wrong_is_refused_with_its_field() {
    let tree = crate::util::Tree::new();
    tree.write(
        ".ragcite.toml",
        "[[format]]\nname = \"mine\"\ntitle = \"x\"\ndetect = [\"a[\"]\nanswer = \"a\"\n",
    );
    let line = tree.ragcite(&tree.dir("w"), ["formats"]).input_error();
    assert!(
        line.contains("format `mine`: `detect`: a `[` has no closing `]`"),
        "{line}"
    );
    tree.write(
        ".ragcite.toml",
        "[[format]]\nname = \"openai\"\ntitle = \"x\"\ndetect = [\"a\"]\nanswer = \"a\"\n",
    );
    let line = tree.ragcite(&tree.dir("w"), ["formats"]).input_error();
    assert!(line.contains("a built-in format has this name"), "{line}");
}

#[test]
fn storm_numbers_come_from_url_to_info_in_the_draft_and_the_polished_article() {
    let pages = [
        "https://en.wikipedia.org/wiki/Eiffel_Tower",
        "https://www.toureiffel.paris/en/the-monument/history",
        "https://en.wikipedia.org/wiki/Paris",
    ];
    for (article, copies) in [
        ("storm/storm_gen_article.txt", 1),
        ("storm/storm_gen_article_polished.txt", 2),
    ] {
        let doc = check_json(&[article, "storm/url_to_info.json"]);
        assert_eq!(doc["inputs"]["chunks"]["format"], "storm-url-to-info");
        // A heading, then the four sentences, once or twice.
        let verdicts = strings(&doc, "/result/sentences", "verdict");
        let once: Vec<&str> = std::iter::once("no-claim").chain(VERDICTS).collect();
        assert_eq!(verdicts, once.repeat(copies), "{article}");
        let cites: Vec<Vec<String>> = cited(&doc);
        for copy in 0..copies {
            let at = copy * 5;
            for k in 0..3 {
                assert_eq!(cites[at + 1 + k], [pages[k]], "{article}");
            }
        }
        // Only the cited pages are there: no suggestion is possible.
        assert!(doc["result"]["sentences"][3]["suggestedCitation"].is_null());
    }
    // The search results carry no numbers: they are no list of chunks to guess from.
    let line = crate::stacks::input_error(&[
        "check",
        "storm/storm_gen_article.txt",
        "storm/raw_search_results.json",
    ]);
    assert!(line.contains("an object of chunks keyed by id"), "{line}");
}

/// Every sample of `testdata/stacks/`: the profiles that match it are its own stack's, never
/// another's; samples read by a Rust reader match no profile at all.
#[test]
fn no_profile_claims_another_stacks_samples() {
    // The stack directories read through profiles, and the prefix of their profiles' names.
    let own = [
        ("amazon-q-business", "amazon-q"),
        ("anythingllm", "anythingllm"),
        ("azure-agentic-retrieval", "azure-agentic"),
        ("dify", "dify"),
        ("dspy", "dspy"),
        ("exa", "exa"),
        ("graphrag", "graphrag"),
        ("lightrag", "lightrag"),
        ("pinecone-assistant", "pinecone"),
        ("privategpt", "privategpt"),
        ("r2r", "r2r"),
        ("ragflow", "ragflow"),
        ("storm", "storm"),
        ("vectara", "vectara"),
        ("vercel-ai-sdk", "vercel"),
        ("vertex-ai-search-answer", "vertex-ai-search"),
        ("xai-live-search", "xai"),
    ];
    let root = std::path::Path::new(crate::util::ROOT).join("testdata/stacks");
    let mut seen = 0;
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .expect("testdata/stacks")
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .collect();
    dirs.sort_by_key(|e| e.file_name());
    for dir in dirs {
        let name = dir.file_name().to_string_lossy().into_owned();
        let prefix = own.iter().find(|(d, _)| *d == name).map(|(_, p)| *p);
        let mut files: Vec<_> = std::fs::read_dir(dir.path())
            .expect("a stack's folder")
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "json" || e == "jsonl"))
            .collect();
        files.sort();
        for file in files {
            let shown = file.display().to_string();
            let doc = ragcite(["formats", "detect", &shown, "--format", "json"]).json(0);
            seen += 1;
            for candidate in doc["candidates"].as_array().expect("candidates") {
                if candidate["kind"] == "reader" {
                    continue;
                }
                let profile = candidate["name"].as_str().unwrap_or("");
                assert!(
                    prefix.is_some_and(|p| profile.starts_with(p)),
                    "{shown} is matched by the profile {profile}"
                );
            }
        }
    }
    assert!(seen > 40, "only {seen} samples");
}

/// xAI returns the URLs it used and no text: alone nothing can be checked; with the pages keyed
/// by those URLs, every sentence is uncited (N).
#[test]
fn xai_live_search_needs_the_pages_and_then_cites_nothing() {
    let line = crate::stacks::input_error(&["check", "xai-live-search/response.json"]);
    assert!(line.contains("keyed by URL"), "{line}");
    let tree = crate::util::Tree::new();
    let pages = [
        (
            "https://en.wikipedia.org/wiki/Eiffel_Tower",
            "The Eiffel Tower is a wrought-iron lattice tower in Paris. It is 330 metres (1,083 ft) tall, about the same height as an 81-storey building.",
        ),
        (
            "https://www.toureiffel.paris/en/the-monument/history",
            "Construction of the tower began in 1887 and it was completed in 1889 as the centrepiece of the 1889 World's Fair (Exposition Universelle).",
        ),
        (
            "https://en.wikipedia.org/wiki/Paris",
            "Paris has a population of about 2.1 million inhabitants and is the capital of France.",
        ),
        (
            "https://en.wikipedia.org/wiki/Gustave_Eiffel",
            "The tower is named after the engineer Gustave Eiffel, whose company designed and built the tower.",
        ),
        (
            "https://en.wikipedia.org/wiki/Louvre",
            "The Louvre is the world's most-visited museum.",
        ),
    ];
    let chunks: serde_json::Map<String, Value> = pages
        .iter()
        .map(|(url, text)| (url.to_string(), serde_json::json!({ "text": text })))
        .collect();
    let file = tree.write("pages.json", &Value::Object(chunks).to_string());
    let answer = std::path::Path::new(crate::util::ROOT)
        .join("testdata/stacks/xai-live-search/response.json")
        .display()
        .to_string();
    let file = file.display().to_string();
    let doc = ragcite(["check", &answer, &file, "--format", "json"]).json(1);
    assert_eq!(doc["inputs"]["answer"]["format"], "xai-live-search");
    assert_eq!(
        strings(&doc, "/result/sentences", "verdict"),
        ["uncited-claim"; 4]
    );
    let suggested = strings(&doc, "/result/sentences", "suggestedCitation");
    assert_eq!(suggested[0], pages[0].0);
    assert_eq!(suggested[2], pages[3].0);
}

/// A profile of the user's that matches an OpenAI response as well as the reader does: the
/// reader reads it (a reader wins a tie), and a warning names both; a more specific profile
/// would win.
#[test]
fn a_tie_between_two_formats_is_said() {
    let tree = crate::util::Tree::new();
    tree.write(
        ".ragcite.toml",
        r#"
[[format]]
name = "my-chat"
title = "A chat completion, as our gateway logs it"
detect = ["choices[].message.content", "model"]
answer = "choices[0].message.content"
"#,
    );
    let answer = std::path::Path::new(crate::util::ROOT)
        .join("testdata/responses/openai-chat.json")
        .display()
        .to_string();
    let chunks = std::path::Path::new(crate::util::ROOT)
        .join("testdata/responses/chunks.json")
        .display()
        .to_string();
    let out = tree
        .ragcite(
            &tree.dir("w"),
            ["check", &answer, &chunks, "--format", "json"],
        )
        .output();
    let doc = out.json();
    assert_eq!(doc["inputs"]["answer"]["format"], "openai");
    let warnings = doc["warnings"].to_string();
    assert!(
        warnings.contains("matches the formats `openai` and `my-chat` equally well"),
        "{warnings}"
    );
    let detect = tree
        .ragcite(
            &tree.dir("w"),
            ["formats", "detect", &answer, "--format", "json"],
        )
        .json(0);
    assert_eq!(detect["tie"], true);
}

/// A response whose answer is under `t` and whose `n` sources are under `a`, each source holding
/// an empty list `a` of its own.
fn fanning_response(n: usize) -> String {
    let sources: Vec<Value> = (0..n)
        .map(|_| serde_json::json!({"a": [], "text": "Paris is in France."}))
        .collect();
    serde_json::json!({"t": "Paris is in France [1].", "a": sources}).to_string()
}

#[test]
fn a_path_that_climbs_back_over_its_items_is_refused_where_it_is_given() {
    let tree = crate::util::Tree::new();
    let dir = tree.dir("w");
    // 150 sources: the path below reaches 150^4 values, which once took 3 GiB and aborted.
    tree.write("w/fan.json", &fanning_response(150));
    let fans = "a[].^.a[].^.a[].^.a[]";
    let climbs = "its `^` climbs back above the items a `[]`, `*` or filter went over";
    let line = tree.ragcite(&dir, fan_check(fans, "text")).input_error();
    assert!(
        line.contains(&format!("--sources-path `{fans}`: {climbs}")),
        "{line}"
    );
    tree.write(
        "w/fan.jsonl",
        &format!("{}\n", fanning_response(150).replace("\"t\"", "\"answer\"")),
    );
    let out = tree
        .ragcite(
            &dir,
            [
                "batch",
                "fan.jsonl",
                "--isolated",
                "--field",
                &format!("contexts={fans}"),
            ],
        )
        .exits(2);
    assert!(out.stderr.contains(climbs), "{}", out.stderr);
    // In a filter's own path too.
    let out = tree
        .ragcite(
            &dir,
            [
                "batch",
                "fan.jsonl",
                "--isolated",
                "--field",
                "contexts=a[?^.a[].^.a].text",
            ],
        )
        .exits(2);
    assert!(out.stderr.contains(climbs), "{}", out.stderr);
    // A profile of the configuration: refused when the configuration is read, by every
    // command that reads it, the service before it listens.
    tree.write(
        ".ragcite.toml",
        &format!(
            "[[format]]\nname = \"fan\"\ntitle = \"x\"\ndetect = [\"t\"]\nanswer = \"t\"\n\
             sources = \"{fans}\"\nsource-text = \"text\"\n"
        ),
    );
    let line = tree.ragcite(&dir, ["check", "fan.json"]).input_error();
    assert!(
        line.contains(&format!("format `fan`: `sources`: {climbs}")),
        "{line}"
    );
    #[cfg(feature = "service")]
    {
        let line = tree
            .ragcite(&dir, ["serve", "--port", "0"])
            .timeout(std::time::Duration::from_secs(30))
            .input_error();
        assert!(line.contains("format `fan`: `sources`"), "{line}");
    }
}

#[test]
fn paths_that_fan_out_together_stop_at_the_readings_budget() {
    let tree = crate::util::Tree::new();
    let dir = tree.dir("w");
    // From each of 1,500 sources, a text path back over all of them: 2.25 M texts, which
    // no document of 1,500 sources holds.
    tree.write("w/fan.json", &fanning_response(1_500));
    let line = tree
        .ragcite(&dir, fan_check("a[]", "^.a[].text"))
        .timeout(std::time::Duration::from_secs(60))
        .input_error();
    assert!(
        line.starts_with("ragcite: error: fan.json: the path `^.a[].text` gives more than"),
        "{line}"
    );
    // The same paths once each read the 1,500 sources.
    let doc = tree
        .ragcite(
            &dir,
            [
                "check",
                "fan.json",
                "--isolated",
                "--answer-path",
                "t",
                "--sources-path",
                "a[]",
                "--source-text-path",
                "text",
                "--format",
                "json",
            ],
        )
        .json(0);
    assert_eq!(
        doc["result"]["chunks"].as_array().map(Vec::len),
        Some(1_500)
    );
    // A service whose configuration has such a profile answers a problem and goes on.
    #[cfg(feature = "service")]
    {
        tree.write(
            ".ragcite.toml",
            "[[format]]\nname = \"fan\"\ntitle = \"x\"\ndetect = [\"t\", \"a\"]\nanswer = \"t\"\n\
             sources = \"a[]\"\nsource-text = \"^.a[].text\"\n\n[serve]\nport = 0\n",
        );
        let server = crate::service::Server::spawn(tree.ragcite(&dir, ["serve"]));
        let body = serde_json::json!({"answer": fanning_response(1_500), "chunks": ""});
        let reply = server.post_json("/api/v1/calculate", &body);
        let problem = reply.problem(422);
        assert!(problem.to_string().contains("gives more than"), "{problem}");
        let reply = server.post_json("/api/v1/calculate", &crate::service::example());
        assert_eq!(reply.status, 200, "{}", reply.body);
        assert_eq!(server.stop(), Some(0));
    }
}

#[test]
fn a_dotted_key_does_not_let_a_path_climb_out_of_its_items() {
    let tree = crate::util::Tree::new();
    let dir = tree.dir("w");
    // `b.c` is one key of each source: `^.^` leaves the source for the document, and each of
    // the 300 sources would read the 300 items of `z` (once 44 s and 3.8 GB at 410 KB).
    let doc = serde_json::json!({
        "t": "Paris is in France [1].",
        "a": vec![serde_json::json!({"b.c": 0}); 300],
        "z": vec![serde_json::json!("Paris is in France."); 300],
    });
    tree.write("w/fan.json", &doc.to_string());
    let line = tree
        .ragcite(&dir, fan_check("a[].b.c.^.^.z[]", "@"))
        .input_error();
    assert!(
        line.starts_with(
            "ragcite: error: fan.json: the path `a[].b.c.^.^.z[]` climbs back above the items"
        ),
        "{line}"
    );
}

#[test]
fn empty_strings_read_from_every_source_stop_at_the_readings_budget() {
    let tree = crate::util::Tree::new();
    let dir = tree.dir("w");
    // From each of 100 sources, `^.z` is the 1,000 empty strings beside them: 100,000 chunks
    // of no text from a 5 KB file (once 900,000 chunks, 2.4 GB, from 12 KB).
    let doc = |m: usize| {
        serde_json::json!({
            "t": "Paris is in France [1].",
            "title": "Atlas",
            "a": (0..100).map(|k| serde_json::json!({"text": format!("Paris {k}.")}))
                .collect::<Vec<_>>(),
            "z": vec![serde_json::json!(""); m],
        })
        .to_string()
    };
    tree.write("w/empty.json", &doc(1_000));
    let read = |text: &str, format: &str| {
        tree.ragcite(
            &dir,
            [
                "check",
                "empty.json",
                "--isolated",
                "--answer-path",
                "t",
                "--sources-path",
                "a[]",
                "--source-text-path",
                text,
                "--source-id-path",
                "{^.title} {text}",
                "--format",
                format,
            ],
        )
    };
    let line = read("^.z", "table").input_error();
    assert!(
        line.starts_with("ragcite: error: empty.json: the path `^.z` gives more than"),
        "{line}"
    );
    // A relative path that reads a value beside the sources once per source is fine: each
    // chunk's id takes the document's title.
    let out = read("text", "json").output();
    let doc = out.json();
    let chunks = doc["result"]["chunks"].as_array().expect("chunks");
    assert_eq!(chunks.len(), 100, "{doc}");
    assert_eq!(chunks[0]["id"], "Atlas Paris 0.", "{doc}");
}

/// `check fan.json --isolated --answer-path t` with these sources and source-text paths.
fn fan_check<'a>(sources: &'a str, text: &'a str) -> [&'a str; 9] {
    [
        "check",
        "fan.json",
        "--isolated",
        "--answer-path",
        "t",
        "--sources-path",
        sources,
        "--source-text-path",
        text,
    ]
}
