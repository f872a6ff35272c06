//! Citation styles on the real binary (`testdata/styles/`): the same answer rendered three ways
//! (a citation group ending each paragraph, superscripts with a `Sources:` list, footnotes with
//! their definitions) gives the same verdicts; superscripts and `<sup>` as markers, exponents
//! as text; a source list's entries as the map to the chunks and as no claims;
//! `--citation-scope` from the command line and the configuration file.
//!
//! Regenerate the snapshots with `INSTA_UPDATE=always cargo test --test cli -- styles::`, and
//! read them before keeping them.

use serde_json::Value;

use crate::util::{Tree, ragcite};

const CHUNKS: &str = "testdata/styles/chunks.json";

/// `(verdict, cited)` of each sentence of `answer` checked with `extra` options.
fn verdicts(answer: &str, extra: &[&str]) -> Vec<(String, Vec<String>)> {
    let doc = ragcite(["check", answer, CHUNKS, "--format", "json"])
        .args(extra)
        .json(1);
    doc["result"]["sentences"]
        .as_array()
        .expect("sentences")
        .iter()
        .map(|s| {
            let cited = s["cited"].as_array().expect("cited");
            (
                s["verdict"].as_str().expect("verdict").to_string(),
                cited
                    .iter()
                    .map(|c| c.as_str().unwrap().to_string())
                    .collect(),
            )
        })
        .collect()
}

#[test]
fn three_renderings_of_one_answer_give_the_same_verdicts() {
    let paragraph = verdicts(
        "testdata/styles/paragraph.md",
        &["--citation-scope", "paragraph"],
    );
    let superscript = verdicts("testdata/styles/superscript.md", &[]);
    let footnotes = verdicts("testdata/styles/footnotes.md", &[]);
    let webb = || vec!["webb-overview".to_string()];
    let reef = || vec!["reef-survey".to_string()];
    let claims = [
        ("supported".to_string(), webb()),
        ("supported".to_string(), webb()),
        ("number-mismatch".to_string(), webb()),
        ("supported".to_string(), reef()),
        ("supported".to_string(), reef()),
    ];
    assert_eq!(paragraph, claims);
    assert_eq!(footnotes, claims, "the definitions are no sentences");
    // The `Sources:` line and its two entries follow the claims: no claims, citing nothing.
    assert_eq!(superscript[..5], claims);
    assert_eq!(
        superscript[5..],
        vec![("no-claim".to_string(), Vec::new()); 3]
    );
}

#[test]
fn a_paragraph_end_group_covers_only_its_own_sentence_by_default() {
    let sentence = verdicts("testdata/styles/paragraph.md", &[]);
    let found: Vec<&str> = sentence.iter().map(|(v, _)| v.as_str()).collect();
    assert_eq!(
        found,
        [
            "uncited-claim",
            "uncited-claim",
            "number-mismatch",
            "uncited-claim",
            "supported"
        ]
    );
    let doc = ragcite([
        "check",
        "testdata/styles/paragraph.md",
        CHUNKS,
        "--format",
        "json",
        "--citation-scope",
        "paragraph",
    ])
    .json(1);
    let inherited: Vec<&Value> = doc["result"]["sentences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["inheritedFrom"])
        .collect();
    assert_eq!(
        inherited,
        [
            &Value::from(3),
            &Value::from(3),
            &Value::Null,
            &Value::from(5),
            &Value::Null
        ]
    );
}

#[test]
fn the_scope_comes_from_the_configuration_file_too() {
    let tree = Tree::new();
    tree.write(".ragcite.toml", "citation-scope = \"paragraph\"\n");
    let answer =
        std::fs::read_to_string(crate::util::path("testdata/styles/paragraph.md")).unwrap();
    let answer = tree.write("answer.md", &answer);
    let chunks = std::fs::read_to_string(crate::util::path(CHUNKS)).unwrap();
    let chunks = tree.write("chunks.json", &chunks);
    let doc = tree
        .ragcite(
            &tree.root,
            [
                "check".as_ref(),
                answer.as_os_str(),
                chunks.as_os_str(),
                "--format".as_ref(),
                "json".as_ref(),
            ],
        )
        .json(1);
    assert_eq!(doc["result"]["sentences"][0]["verdict"], "supported");
    assert_eq!(doc["result"]["sentences"][0]["inheritedFrom"], 3);
    let bad = ragcite([
        "check",
        "testdata/styles/paragraph.md",
        CHUNKS,
        "--citation-scope",
        "answer",
    ])
    .usage_error();
    assert!(
        bad.contains("sentence") && bad.contains("paragraph"),
        "{bad}"
    );
}

#[test]
fn superscripts_and_sup_elements_are_markers_and_exponents_are_not() {
    let tree = Tree::new();
    let answer = tree.write(
        "answer.md",
        "The telescope launched on an Ariane 5 rocket.¹ It orbits the Sun near the second \
         Lagrange point.<sup>1</sup> Its mirror covers about 25 m² of area.\n",
    );
    let doc = ragcite(["check".as_ref(), answer.as_os_str(), CHUNKS.as_ref()])
        .args(["--format", "json"])
        .json(1);
    let sentences = doc["result"]["sentences"].as_array().unwrap();
    let found: Vec<(&str, &Value)> = sentences
        .iter()
        .map(|s| (s["verdict"].as_str().unwrap(), &s["markers"]))
        .collect();
    assert_eq!(
        found,
        [
            ("supported", &serde_json::json!(["1"])),
            ("supported", &serde_json::json!(["1"])),
            ("uncited-claim", &serde_json::json!([])),
        ]
    );
    assert_eq!(
        sentences[1]["sentence"],
        "It orbits the Sun near the second Lagrange point.<sup>1</sup>"
    );
    assert_eq!(sentences[2]["checkWorthy"], serde_json::json!(["25"]));
}

#[test]
fn an_unmatched_source_list_entry_is_reported_and_falls_back() {
    let tree = Tree::new();
    let answer = tree.write(
        "answer.md",
        "The telescope launched on an Ariane 5 rocket.[1]\n\n**Sources**\n- [1] A blog post\n",
    );
    let doc = ragcite(["check".as_ref(), answer.as_os_str(), CHUNKS.as_ref()])
        .args(["--format", "json"])
        .json(0);
    assert_eq!(doc["result"]["sentences"][0]["cited"][0], "webb-overview");
    let warnings = doc["warnings"].as_array().unwrap();
    assert!(
        warnings
            .iter()
            .any(|w| w.as_str().unwrap().contains("source list names no chunk")),
        "{warnings:?}"
    );
}

#[test]
fn superscript_rendering_table() {
    let stdout = ragcite([
        "check",
        "testdata/styles/superscript.md",
        CHUNKS,
        "--color",
        "never",
    ])
    .stdout(1);
    insta::assert_snapshot!("superscript_table", stdout);
}

#[test]
fn superscript_rendering_json() {
    let stdout = ragcite([
        "check",
        "testdata/styles/superscript.md",
        CHUNKS,
        "--format",
        "json",
    ])
    .stdout(1);
    insta::assert_snapshot!("superscript_json", stdout);
}

#[test]
fn a_house_marker_form_from_the_command_line_and_the_configuration_file() {
    let tree = Tree::new();
    let answer = tree.write(
        "answer.md",
        "The Eiffel Tower is 330 metres tall {{cite:1}}.\nIt was completed in 1888 {{cite: 2 }}. \
         It was designed by Gustave Eiffel.{{cite:4}} Around 7 million people visit it every year.\n",
    );
    let chunks = std::fs::read_to_string(crate::util::path("testdata/eiffel/chunks.json")).unwrap();
    let chunks = tree.write("chunks.json", &chunks);
    let check = |extra: &[&str]| {
        let mut args: Vec<&std::ffi::OsStr> = vec![
            "check".as_ref(),
            answer.as_os_str(),
            chunks.as_os_str(),
            "--format".as_ref(),
            "json".as_ref(),
        ];
        args.extend(extra.iter().map(|a: &&str| std::ffi::OsStr::new(*a)));
        let doc = tree.ragcite(&tree.root, args).json(1);
        doc["result"]["sentences"]
            .as_array()
            .expect("sentences")
            .iter()
            .map(|s| {
                (
                    s["verdict"].as_str().unwrap().to_string(),
                    s["cited"].clone(),
                )
            })
            .collect::<Vec<_>>()
    };
    let read = [
        ("supported".to_string(), serde_json::json!(["1"])),
        ("number-mismatch".to_string(), serde_json::json!(["2"])),
        // The marker after the full stop belongs to the sentence before.
        ("supported".to_string(), serde_json::json!(["4"])),
        ("uncited-claim".to_string(), serde_json::json!([])),
    ];
    assert_eq!(check(&["--marker", r"\{\{cite:([^}]*)\}\}"]), read);
    // Without it, nothing is cited.
    let plain = check(&[]);
    assert!(plain.iter().all(|(v, _)| v == "uncited-claim"), "{plain:?}");
    tree.write(".ragcite.toml", "marker = '\\{\\{cite:([^}]*)\\}\\}'\n");
    assert_eq!(check(&[]), read);
    // A pattern that cannot name a label is one error line, exit 2, that says why: what the
    // regex crate refused said "error parsing pattern 0" or "error building NFA", and a group
    // that can only hold empty text (`(\b)`), which never finds a marker, was taken (issue 38).
    for (pattern, reason) in [
        (r"\{\{cite:[^}]*\}\}", "it has 0 capture groups"),
        (r"(\d*)", "it matches the empty text"),
        (
            "([",
            "it is no valid regular expression: unclosed character class at character 2",
        ),
        ("(a", "unclosed group at character 1"),
        (r"(\p{Foo})", "Unicode property not found at character 2"),
        ("(a{5000}{5000}{5000})", "larger than 1 MiB compiled"),
        (r"(\b)", "its capture group can only hold empty text"),
        (r"x(\b|)y", "its capture group can only hold empty text"),
    ] {
        let out = ragcite([
            "check",
            "testdata/eiffel/answer.md",
            "testdata/eiffel/chunks.json",
            "--marker",
            pattern,
        ])
        .exits(2);
        assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
        assert!(out.stderr.contains("--marker <REGEX>"), "{}", out.stderr);
        assert!(out.stderr.contains(reason), "{pattern}: {}", out.stderr);
        for opaque in ["pattern 0", "building NFA"] {
            assert!(!out.stderr.contains(opaque), "{pattern}: {}", out.stderr);
        }
    }
}
