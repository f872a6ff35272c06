//! Chinese, Japanese and Korean on the real binary (`testdata/cjk/`): a sentence its chunk
//! supports is `supported`, a wrong year glued to Han characters is `number-mismatch`, an
//! uncited factual sentence is `uncited-claim`; dates written `2012年5月22日` match a chunk's
//! `2012-05-22`; markers before or after `。` belong to their sentence.

use serde_json::{Value, json};

use crate::util::{check_sentences, ragcite};

/// The verdict of each sentence of `testdata/cjk/<lang>-answer.md`.
fn verdicts(lang: &str) -> Vec<String> {
    let answer = format!("testdata/cjk/{lang}-answer.md");
    let chunks = format!("testdata/cjk/{lang}-chunks.json");
    let report = ragcite([
        "check", &answer, &chunks, "--format", "json", "--lang", lang,
    ])
    .json(1);
    report["result"]["sentences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["verdict"].as_str().unwrap().to_string())
        .collect()
}

/// Each sentence's verdict and missing numbers, for an answer against chunks (id, text).
fn check(answer: &str, chunks: &[(&str, &str)], lang: &str) -> Vec<(String, Value)> {
    check_sentences(answer, chunks, lang)
        .iter()
        .map(|s| {
            (
                s["verdict"].as_str().unwrap().to_string(),
                s["missingNumbers"].clone(),
            )
        })
        .collect()
}

#[test]
fn a_chinese_answer_gets_real_verdicts() {
    assert_eq!(
        verdicts("zh"),
        ["supported", "number-mismatch", "uncited-claim"]
    );
}

#[test]
fn a_japanese_answer_gets_real_verdicts() {
    assert_eq!(
        verdicts("ja"),
        ["supported", "number-mismatch", "uncited-claim"]
    );
}

#[test]
fn numbers_glued_to_han_characters_are_compared() {
    let chunk = [("1", "东京晴空塔于2012-05-22正式开放，高度为634米。")];
    let found = check("东京晴空塔于2012年5月22日正式开放[1]。", &chunk, "zh");
    assert_eq!(found[0].0, "supported", "{found:?}");
    let found = check("东京晴空塔的高度为643米[1]。", &chunk, "zh");
    assert_eq!(found[0].0, "number-mismatch", "{found:?}");
    assert_eq!(found[0].1, json!(["643"]));
    // Full-width percent sign and myriads.
    let chunk = [("1", "该市人口约为150万，其中35%是学生。")];
    let found = check(
        "该市人口约为1.5万的一百倍，其中35％是学生[1]。",
        &chunk,
        "zh",
    );
    assert_eq!(found[0].0, "number-mismatch", "{found:?}");
    let found = check("该市人口约为150万，其中35％是学生[1]。", &chunk, "zh");
    assert_eq!(found[0].0, "supported", "{found:?}");
}

#[test]
fn full_width_digits_are_numbers() {
    let chunk = [("1", "東京スカイツリーは2012年5月22日に開業した。")];
    let found = check(
        "スカイツリーは２０１２年５月２２日に開業した[1]。",
        &chunk,
        "ja",
    );
    assert_eq!(found[0].0, "supported", "{found:?}");
    let found = check(
        "スカイツリーは２０１３年５月２２日に開業した[1]。",
        &chunk,
        "ja",
    );
    assert_eq!(found[0].0, "number-mismatch", "{found:?}");
    assert_eq!(found[0].1, json!(["２０１３年５月２２日"]));
}

#[test]
fn markers_before_and_after_the_full_stop_belong_to_their_sentence() {
    let chunks = [
        ("1", "富士山の標高は3776メートルである。"),
        ("2", "東京スカイツリーの高さは634メートルである。"),
    ];
    for answer in [
        "富士山の標高は3776メートルです。[1]東京スカイツリーの高さは634メートルです。[2]",
        "富士山の標高は3776メートルです[1]。東京スカイツリーの高さは634メートルです[2]。",
    ] {
        let found = check(answer, &chunks, "ja");
        let verdicts: Vec<&str> = found.iter().map(|(v, _)| v.as_str()).collect();
        assert_eq!(verdicts, ["supported", "supported"], "{answer}");
    }
}

#[test]
fn a_korean_sentence_is_read_past_its_particles() {
    let chunk = [("1", "롯데월드타워는 서울에 있으며 높이는 555미터이다.")];
    let found = check("롯데월드타워의 높이는 555미터이다 [1].", &chunk, "ko");
    assert_eq!(found[0].0, "supported", "{found:?}");
    let found = check("롯데월드타워의 높이는 556미터이다 [1].", &chunk, "ko");
    assert_eq!(found[0].0, "number-mismatch", "{found:?}");
}

#[test]
fn chinese_and_japanese_tables() {
    for lang in ["zh", "ja"] {
        let answer = format!("testdata/cjk/{lang}-answer.md");
        let chunks = format!("testdata/cjk/{lang}-chunks.json");
        let stdout = ragcite([
            "check", &answer, &chunks, "--lang", lang, "--color", "never",
        ])
        .stdout(1);
        insta::assert_snapshot!(format!("{lang}_table"), stdout);
    }
}

#[test]
fn explain_marks_the_shared_character_pairs_of_a_chinese_or_japanese_passage() {
    // The index reads overlapping character pairs (富士, 士山): the passage marks them as one
    // run (it sliced the text backwards and panicked).
    for lang in ["zh", "ja"] {
        let answer = format!("testdata/cjk/{lang}-answer.md");
        let chunks = format!("testdata/cjk/{lang}-chunks.json");
        let out = ragcite(["explain", &answer, &chunks, "--lang", lang]).stdout(0);
        assert!(out.contains("supported"), "{lang}: {out}");
        let marked: Vec<&str> = out.split('*').skip(1).step_by(2).collect();
        assert!(!marked.is_empty(), "{lang}: no marked words in {out}");
        assert!(
            marked.iter().all(|m| !m.is_empty()),
            "{lang}: an empty mark (two runs side by side) in {out}"
        );
    }
}
