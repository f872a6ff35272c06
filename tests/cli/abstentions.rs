//! Abstentions on the real binary: a sentence where the answer says its sources do not cover
//! something is `no-claim` of kind `abstention`, counted in `counts.abstentions`, quoted in the
//! table's `abstains on:` line and explained by `explain`; `--max-abstentions` (check) and
//! `--max-abstention-rate` (batch) gate them, unlimited by default, also from the config file.

use serde_json::json;

use crate::util::Tree;

/// An answer with one supported claim, one abstention and one pleasantry.
const ANSWER: &str = "The tower is 330 metres tall [1]. The provided documents do not say how \
                      many people visit it each year. Let me know if you need anything else!\n";
const CHUNKS: &str = "[1] The Eiffel Tower is 330 metres tall.\n";

fn tree() -> Tree {
    let tree = Tree::new();
    tree.write("answer.md", ANSWER);
    tree.write("chunks.txt", CHUNKS);
    tree
}

#[test]
fn an_abstention_is_counted_and_passes_by_default() {
    let tree = tree();
    let doc = tree
        .ragcite(
            &tree.root,
            ["check", "answer.md", "chunks.txt", "--format", "json"],
        )
        .output()
        .exits(0)
        .json();
    let counts = &doc["result"]["counts"];
    assert_eq!(counts["abstentions"], 1, "{counts}");
    assert_eq!(counts["noClaim"], 2, "{counts}");
    assert_eq!(counts["uncitedClaim"], 0, "{counts}");
    assert_eq!(doc["result"]["sentences"][1]["kind"], "abstention");
    assert_eq!(doc["inputs"]["limits"]["maxAbstentions"], json!(null));
}

#[test]
fn max_abstentions_fails_the_check_with_exit_code_1() {
    let tree = tree();
    let out = tree
        .ragcite(
            &tree.root,
            [
                "check",
                "answer.md",
                "chunks.txt",
                "--max-abstentions",
                "0",
                "--color",
                "never",
            ],
        )
        .output()
        .exits(1);
    assert!(
        out.stdout
            .contains("limits exceeded: 1 abstention > --max-abstentions 0 (+1)"),
        "{}",
        out.stdout
    );
    let doc = tree
        .ragcite(
            &tree.root,
            [
                "check",
                "answer.md",
                "chunks.txt",
                "--max-abstentions",
                "0",
                "--format",
                "json",
            ],
        )
        .output()
        .exits(1)
        .json();
    assert_eq!(doc["gate"]["failures"][0]["limit"], "max-abstentions");
    assert_eq!(doc["inputs"]["limits"]["maxAbstentions"], 0);
    tree.ragcite(
        &tree.root,
        ["check", "answer.md", "chunks.txt", "--max-abstentions", "1"],
    )
    .output()
    .exits(0);
    let error = tree
        .ragcite(
            &tree.root,
            [
                "check",
                "answer.md",
                "chunks.txt",
                "--max-abstentions",
                "some",
            ],
        )
        .output()
        .usage_error();
    assert!(error.contains("--max-abstentions"), "{error}");
}

#[test]
fn the_table_says_why_a_sentence_is_not_a_claim_and_quotes_the_abstentions() {
    let tree = tree();
    let out = tree
        .ragcite(
            &tree.root,
            ["check", "answer.md", "chunks.txt", "--color", "never"],
        )
        .columns(240)
        .output()
        .exits(0);
    assert!(
        out.stdout
            .contains("not a claim: pleasantry (\"Let me know\")"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("not a claim: abstention"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .lines()
            .any(|l| l
                .starts_with("abstains on: \"The provided documents do not say how many people")),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains(" · 1 abstention · "), "{}", out.stdout);
}

#[test]
fn the_abstains_line_escapes_what_a_terminal_would_obey() {
    let tree = Tree::new();
    tree.write(
        "answer.md",
        "The provided documents do not say \u{1b}[31mhow many people visit it.\n",
    );
    tree.write("chunks.txt", CHUNKS);
    let out = tree
        .ragcite(
            &tree.root,
            ["check", "answer.md", "chunks.txt", "--color", "never"],
        )
        .output();
    let line = out
        .stdout
        .lines()
        .find(|l| l.starts_with("abstains on:"))
        .unwrap_or_else(|| panic!("{}", out.stdout));
    assert!(!line.contains('\u{1b}'), "{line}");
    assert!(line.contains("\\u{1b}"), "{line}");
}

#[test]
fn explain_gives_the_kind_its_reason_and_its_cue() {
    let tree = tree();
    let out = tree
        .ragcite(&tree.root, ["explain", "answer.md", "chunks.txt"])
        .output()
        .exits(0);
    assert!(
        out.stdout.contains(
            "not a claim: pleasantry (\"Let me know\") — a greeting, thanks, wish or offer"
        ),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("not a claim: abstention (\"The provided documents do not say\") — the answer says its sources do not cover this, or declines"),
        "{}",
        out.stdout
    );
}

#[test]
fn max_abstentions_is_a_config_key() {
    let tree = tree();
    tree.write(".ragcite.toml", "max-abstentions = 0\n");
    let doc = tree
        .ragcite(
            &tree.root,
            ["check", "answer.md", "chunks.txt", "--format", "json"],
        )
        .output()
        .exits(1)
        .json();
    assert_eq!(doc["inputs"]["limits"]["maxAbstentions"], 0);
    // The command line wins.
    tree.ragcite(
        &tree.root,
        ["check", "answer.md", "chunks.txt", "--max-abstentions", "3"],
    )
    .output()
    .exits(0);
}

/// Three records: the first abstains twice, the others not at all.
fn records(tree: &Tree) {
    let lines = [
        json!({"id": "a", "answer": "The documents do not mention the tower's height. I don't have enough information in the provided context to answer how many people visit it.", "contexts": ["The Eiffel Tower is 330 metres tall."]}),
        json!({"id": "b", "answer": "The tower is 330 metres tall [1].", "contexts": ["The Eiffel Tower is 330 metres tall."]}),
        json!({"id": "c", "answer": "The tower is 330 metres tall [1].", "contexts": ["The Eiffel Tower is 330 metres tall."]}),
    ];
    let text: Vec<String> = lines.iter().map(ToString::to_string).collect();
    tree.write("records.jsonl", &(text.join("\n") + "\n"));
}

#[test]
fn the_batch_rate_is_the_share_of_records_that_abstain() {
    let tree = Tree::new();
    records(&tree);
    let doc = tree
        .ragcite(&tree.root, ["batch", "records.jsonl", "--format", "json"])
        .output()
        .exits(0)
        .json();
    let aggregate = &doc["aggregate"];
    assert_eq!(aggregate["counts"]["abstentions"], 2, "{aggregate}");
    assert_eq!(aggregate["abstainingRecords"], 1, "{aggregate}");
    assert_eq!(aggregate["rates"]["abstentions"], 0.3333, "{aggregate}");

    let out = tree
        .ragcite(
            &tree.root,
            [
                "batch",
                "records.jsonl",
                "--max-abstention-rate",
                "0.25",
                "--color",
                "never",
            ],
        )
        .output()
        .exits(1);
    assert!(
        out.stdout.contains("--max-abstention-rate"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("abstaining records 33.3%"),
        "{}",
        out.stdout
    );
    tree.ragcite(
        &tree.root,
        ["batch", "records.jsonl", "--max-abstention-rate", "0.34"],
    )
    .output()
    .exits(0);
    // The per-record limit makes the abstaining record fail.
    let doc = tree
        .ragcite(
            &tree.root,
            [
                "batch",
                "records.jsonl",
                "--max-abstentions",
                "1",
                "--format",
                "json",
            ],
        )
        .output()
        .exits(1)
        .json();
    assert_eq!(doc["aggregate"]["failingRecords"], 1);
    assert_eq!(doc["inputs"]["limits"]["perRecord"]["maxAbstentions"], 1);
}

#[test]
fn max_abstention_rate_is_a_config_key() {
    let tree = Tree::new();
    records(&tree);
    tree.write(".ragcite.toml", "max-abstention-rate = 0.2\n");
    let doc = tree
        .ragcite(&tree.root, ["batch", "records.jsonl", "--format", "json"])
        .output()
        .exits(1)
        .json();
    assert_eq!(doc["inputs"]["limits"]["maxAbstentionRate"], 0.2);
    assert_eq!(
        doc["gate"]["rateFailures"][0]["limit"],
        "max-abstention-rate"
    );
}

/// The sentences every assistant writes, each with the outcome a reviewer gives it: the claims
/// checked, the rest `no-claim` with its kind, the source list mapping `[1]` to its chunk.
#[test]
fn the_sentences_no_reviewer_wants_cited_are_named() {
    let doc = crate::util::ragcite([
        "check",
        "testdata/claims/answer.md",
        "testdata/claims/chunks.json",
        "--format",
        "json",
    ])
    .output()
    .exits(0)
    .json();
    let outcomes: Vec<(String, String)> = doc["result"]["sentences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let verdict = s["verdict"].as_str().unwrap().to_string();
            let kind = s["kind"].as_str().unwrap_or("").to_string();
            (verdict, kind)
        })
        .collect();
    let expected = [
        ("no-claim", "meta"),
        ("no-claim", "meta"),
        ("supported", ""),
        ("supported", ""),
        ("no-claim", "abstention"),
        ("no-claim", "abstention"),
        ("no-claim", "navigation"),
        ("no-claim", "instruction"),
        ("no-claim", "pleasantry"),
        ("no-claim", "pleasantry"),
        ("no-claim", "reference"),
        ("no-claim", "reference"),
    ];
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(v, k)| (v.to_string(), k.to_string()))
        .collect();
    assert_eq!(outcomes, expected);
    assert_eq!(doc["result"]["counts"]["abstentions"], 2);
    assert_eq!(doc["result"]["counts"]["uncitedClaim"], 0);
}

/// A sentence that declines and then states something is a claim about what it states: the
/// declining clause's figure (`2023`) is not looked for, the claim's are.
#[test]
fn a_mixed_sentence_is_judged_on_its_claim() {
    let tree = Tree::new();
    tree.write(
        "answer.md",
        "I could not find the 2023 figure, but the 2022 report gives an inflation rate of 4.1% [1].\n\
         I could not find the 2023 figure, but the 2022 report gives an inflation rate of 5.2% [1].\n",
    );
    tree.write(
        "chunks.txt",
        "[1] The 2022 report gives an inflation rate of 4.1%.\n",
    );
    let doc = tree
        .ragcite(
            &tree.root,
            ["check", "answer.md", "chunks.txt", "--format", "json"],
        )
        .json(1);
    let sentences = &doc["result"]["sentences"];
    assert_eq!(sentences[0]["verdict"], "supported", "{doc:#}");
    assert_eq!(sentences[0]["checkWorthy"], json!(["2022", "4.1%"]));
    assert_eq!(sentences[1]["verdict"], "number-mismatch", "{doc:#}");
    assert_eq!(sentences[1]["missingNumbers"], json!(["5.2%"]));
}
