//! The HTML reports (`check --format html`, `batch --format html`): their structure as
//! snapshots with the inline script and stylesheet bodies and the JSON data blocks cut out (the
//! element tree, ids, classes, data attributes and text stay), the Content-Security-Policy's
//! hashes recomputed, no reference to the network, data blocks that cannot close their
//! element, and byte-identical output from two runs. What the script renders is checked in a
//! browser by the Playwright and axe-core tests.
//!
//! Regenerate with `INSTA_UPDATE=always cargo test --test cli -- html::` and read every changed
//! `tests/cli/snapshots/cli__html__*.snap` file before keeping it.

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::util::{EIFFEL_VERDICTS, ragcite, verdicts_in};

/// The bodies of the elements `<open ...>…</close>` whose opening tag starts with `open`.
fn bodies<'a>(html: &'a str, open: &str, close: &str) -> Vec<(&'a str, &'a str)> {
    let mut found = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find(open) {
        let tag_end = at + rest[at..].find('>').expect("the tag ends");
        let tag = &rest[at..=tag_end];
        let end = tag_end + 1 + rest[tag_end + 1..].find(close).expect("the element ends");
        found.push((tag, &rest[tag_end + 1..end]));
        rest = &rest[end..];
    }
    found
}

/// The document with every inline script's, stylesheet's and data block's body replaced by `…`.
fn structure(html: &str) -> String {
    let mut out = html.to_string();
    for (open, close) in [("<script", "</script>"), ("<style", "</style>")] {
        for (_, body) in bodies(html, open, close) {
            if !body.is_empty() {
                out = out.replacen(&format!(">{body}{close}"), &format!(">…{close}"), 1);
            }
        }
    }
    // The hashes change with every edit of the script or the stylesheet; they are checked
    // against the inline blocks instead.
    let mut masked = String::with_capacity(out.len());
    let mut rest = out.as_str();
    while let Some(at) = rest.find("'sha256-") {
        let end = at + 1 + rest[at + 1..].find('\'').expect("the hash ends");
        masked.push_str(&rest[..at]);
        masked.push_str("'sha256-…'");
        rest = &rest[end + 1..];
    }
    masked.push_str(rest);
    masked
}

/// Base64 of SHA-256, as a CSP source.
fn hash(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in digest.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..=chunk.len() {
            out.push(alphabet[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
        for _ in chunk.len()..3 {
            out.push('=');
        }
    }
    format!("'sha256-{out}'")
}

/// Checks the policy's hashes against the inline script and stylesheet, that every other
/// script is a JSON data block, and that nothing refers to the network.
#[track_caller]
fn assert_self_contained(html: &str) {
    let csp_start = html
        .find("<meta http-equiv=\"Content-Security-Policy\" content=\"")
        .expect("a CSP meta element")
        + 52;
    let csp = &html[csp_start..csp_start + html[csp_start..].find('"').expect("its end")];
    let scripts: Vec<&str> = bodies(html, "<script", "</script>")
        .into_iter()
        .filter(|(tag, _)| *tag == "<script>")
        .map(|(_, body)| body)
        .collect();
    assert_eq!(scripts.len(), 1, "one inline script");
    let styles = bodies(html, "<style", "</style>");
    assert_eq!(styles.len(), 1, "one inline stylesheet");
    assert_eq!(
        csp,
        format!(
            "default-src 'none'; script-src {}; style-src {}; img-src data:; base-uri 'none'; form-action 'none'",
            hash(scripts[0]),
            hash(styles[0].1)
        )
    );
    for (tag, body) in bodies(html, "<script ", "</script>") {
        assert!(tag.contains("type=\"application/json\""), "{tag}");
        let _: Value = serde_json::from_str(body).expect("a data block is JSON");
        assert!(!body.contains('<'), "a data block holds no `<`");
    }
    // The data blocks hold the envelope's links and sources, which nothing loads; the rest of
    // the document names no other origin.
    let mut rest = structure(html);
    rest = rest.replace(&format!(" content=\"{csp}\""), "");
    for needle in ["http:", "https:", "\"//", "'//", "url(", "@import", " src="] {
        assert!(!rest.contains(needle), "`{needle}` in the report");
    }
    for (_, script) in bodies(html, "<script>", "</script>") {
        for needle in ["http:", "https:", "fetch(", "XMLHttpRequest", "import("] {
            assert!(!script.contains(needle), "`{needle}` in the script");
        }
    }
}

#[test]
fn the_single_answer_report() {
    let args = [
        "check",
        "testdata/eiffel/answer.md",
        "testdata/eiffel/chunks.json",
        "--format",
        "html",
    ];
    let html = ragcite(args).stdout(1);
    assert_self_contained(&html);
    assert_eq!(ragcite(args).stdout(1), html, "two runs differ");
    insta::assert_snapshot!("check_eiffel", structure(&html));
    // The data: the envelope without `computedAt`, with the answer, the chunks and the gate.
    let data = bodies(
        &html,
        "<script type=\"application/json\" id=\"envelope\">",
        "</script>",
    );
    let envelope: Value = serde_json::from_str(data[0].1).expect("JSON");
    assert!(envelope.get("computedAt").is_none());
    let kinds: Vec<&str> = envelope["presentation"]
        .as_array()
        .expect("blocks")
        .iter()
        .map(|b| b["kind"].as_str().expect("a kind"))
        .collect();
    assert_eq!(kinds, ["sentences", "answer", "chunks", "gate"]);
    assert_eq!(
        verdicts_in(&envelope["presentation"][0]["sentences"]),
        EIFFEL_VERDICTS
    );
}

#[test]
fn the_batch_report() {
    let args = [
        "batch",
        "testdata/ci/batch.jsonl",
        "testdata/ci/records.json",
        "--format",
        "html",
    ];
    let run = ragcite(args).exits(1);
    let html = run.stdout;
    assert_self_contained(&html);
    assert_eq!(ragcite(args).exits(1).stdout, html, "two runs differ");
    insta::assert_snapshot!("batch_ci", structure(&html));
    let rows: Vec<Value> = bodies(
        &html,
        "<script type=\"application/json\" class=\"row-data\">",
        "</script>",
    )
    .into_iter()
    .map(|(_, body)| serde_json::from_str(body).expect("JSON"))
    .collect();
    assert!(
        rows.iter().any(|r| r["status"] == "bad"),
        "a bad record has its row"
    );
    assert!(rows.iter().any(|r| r["status"] == "failing"));
    for row in rows.iter().filter(|r| r["status"] != "bad") {
        let id = format!(
            "<script type=\"application/json\" id=\"record-{}\">",
            row["index"]
        );
        assert!(
            html.contains(&id),
            "record {} has its envelope",
            row["index"]
        );
    }
}

/// The answer's text in the envelope of a batch report's first record.
fn first_answer(html: &str) -> Value {
    let record = bodies(
        html,
        "<script type=\"application/json\" id=\"record-1\">",
        "</script>",
    );
    let envelope: Value = serde_json::from_str(record[0].1).expect("JSON");
    envelope["presentation"]
        .as_array()
        .expect("blocks")
        .iter()
        .find(|b| b["kind"] == "answer")
        .expect("the answer")["text"]
        .clone()
}

#[test]
fn data_that_looks_like_markup_cannot_close_its_block() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("t.jsonl");
    std::fs::write(
        &file,
        r#"{"id": "x</script><script>alert(1)</script><!--", "response": "It says </script><!-- here [1].", "contexts": ["It says </script><!-- here."]}"#,
    )
    .expect("write");
    let html = ragcite(["batch", file.to_str().expect("a path"), "--format", "html"])
        .exits(0)
        .stdout;
    assert_self_contained(&html);
    assert_eq!(
        html.matches("</script>").count(),
        html.matches("<script").count()
    );
    assert!(!html.contains("<script>alert"));
    assert_eq!(first_answer(&html), "It says </script><!-- here [1].");
}

#[test]
fn no_control_character_reaches_a_page_as_it_is() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let text = "It is 330 metres \u{1b}]0;x\u{7} tall \u{7f}\u{9b}2J\u{202e} [1].";
    let file = dir.path().join("t.jsonl");
    let record = serde_json::json!({"id": "r\u{1b}[31m1", "answer": text,
        "contexts": ["It is 330 metres tall."]});
    std::fs::write(&file, format!("{record}\n")).expect("write");
    let answer = dir.path().join("answer.txt");
    std::fs::write(&answer, text).expect("write");
    let chunks = dir.path().join("chunks.json");
    std::fs::write(&chunks, r#"["It is 330 metres tall."]"#).expect("write");
    let batch = ragcite(["batch", file.to_str().expect("a path"), "--format", "html"])
        .output()
        .stdout;
    let check = ragcite([
        "check",
        answer.to_str().expect("a path"),
        chunks.to_str().expect("a path"),
        "--format",
        "html",
    ])
    .output()
    .stdout;
    for (what, html) in [("batch", &batch), ("check", &check)] {
        assert!(html.contains("</html>"), "{what}: a whole page");
        for raw in ['\u{1b}', '\u{7}', '\u{7f}', '\u{9b}', '\u{202e}'] {
            assert!(!html.contains(raw), "{what}: {raw:?} reached the page");
        }
    }
    // The data blocks hold the text as it was, escaped as JSON.
    assert_eq!(first_answer(&batch), text);
}
