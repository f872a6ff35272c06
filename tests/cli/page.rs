//! The page of `ragcite serve` (`GET /` and its `/assets/`) and what the envelope carries for it:
//! the policy and headers the page is served with, the DOM contract's controls, the worked
//! example it embeds, the `answer`, `chunks` and `gate` blocks, marker spans in UTF-8 bytes over
//! non-ASCII text, and `lang`. What the page's script does is checked in a browser by the
//! Playwright and axe-core tests.

use serde_json::{Value, json};

use crate::service::{Server, agent, assert_valid, example};
use crate::util::path;

/// A GET's status, the headers named, and the body.
fn get_with_headers(server: &Server, route: &str, names: &[&str]) -> (u16, Vec<String>, String) {
    let mut response = agent()
        .get(&server.at(route))
        .call()
        .expect("the server answers");
    let headers = names
        .iter()
        .map(|name| {
            response
                .headers()
                .get(*name)
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_string()
        })
        .collect();
    let body = response.body_mut().read_to_string().expect("a text body");
    (response.status().as_u16(), headers, body)
}

#[test]
fn the_page_and_its_assets_are_served_under_a_strict_policy() {
    let server = Server::start(&[]);
    let (status, headers, page) = get_with_headers(
        &server,
        "/",
        &[
            "content-type",
            "content-security-policy",
            "x-content-type-options",
        ],
    );
    assert_eq!(status, 200);
    assert_eq!(headers[0], "text/html; charset=utf-8");
    assert_eq!(
        headers[1],
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; \
         img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    );
    assert_eq!(headers[2], "nosniff");
    for needle in [
        "<textarea id=\"answer\"",
        "<textarea id=\"chunks\"",
        "<input id=\"threshold\" name=\"threshold\" type=\"number\" min=\"0.1\" max=\"1\" step=\"0.05\" value=\"0.5\">",
        "<select id=\"lang\"",
        "<option value=\"auto\" selected>Detect (English when unsure)</option>",
        "<option value=\"en\">English</option>",
        "<option value=\"fr\">French</option>",
        "<button type=\"submit\" id=\"check\">",
        "<button type=\"button\" id=\"example\">",
        "<div id=\"error\" role=\"alert\" hidden>",
        "<section id=\"result\" aria-live=\"polite\"",
        "<button type=\"button\" id=\"copy-json\">",
        "<button type=\"button\" id=\"download\">",
        "<link rel=\"stylesheet\" href=\"/assets/style.css\">",
        "<script src=\"/assets/render.js\"></script>",
        "<script src=\"/assets/page.js\"></script>",
    ] {
        assert!(page.contains(needle), "the page lacks {needle}");
    }
    // No inline script or style runs: the only inline script is the example's JSON data.
    assert!(!page.contains("style="));
    assert!(!page.contains("<style"));
    assert_eq!(page.matches("<script>").count(), 0);
    let example_start = page.find("id=\"example-data\">").expect("the example") + 18;
    let example_end = example_start + page[example_start..].find("</script>").expect("its end");
    let example: Value = serde_json::from_str(&page[example_start..example_end]).expect("JSON");
    let answer = std::fs::read_to_string(path("testdata/eiffel/answer.md")).expect("answer");
    assert_eq!(example["answer"], answer.as_str());
    for (route, kind) in [
        ("/assets/style.css", "text/css; charset=utf-8"),
        ("/assets/render.js", "text/javascript; charset=utf-8"),
        ("/assets/page.js", "text/javascript; charset=utf-8"),
        ("/assets/report.js", "text/javascript; charset=utf-8"),
    ] {
        let (status, headers, body) = get_with_headers(
            &server,
            route,
            &["content-type", "cache-control", "x-content-type-options"],
        );
        assert_eq!(status, 200, "{route}");
        assert_eq!(headers[0], kind, "{route}");
        assert!(headers[1].contains("max-age="), "{route}: {}", headers[1]);
        assert_eq!(headers[2], "nosniff", "{route}");
        assert!(body.len() > 200, "{route}");
    }
    assert_eq!(server.get("/assets/none.js").status, 404);
    assert_eq!(server.stop(), Some(0));
}

#[test]
fn the_envelope_carries_what_the_page_shows() {
    let server = Server::start(&[]);
    let reply = server.post_json("/api/v1/calculate", &example());
    let envelope = reply.json();
    assert_valid("RagCitationDebuggerResult", &envelope);
    let block = |kind: &str| {
        envelope["presentation"]
            .as_array()
            .expect("presentation")
            .iter()
            .find(|b| b["kind"] == kind)
            .unwrap_or_else(|| panic!("no {kind} block"))
            .clone()
    };
    assert_eq!(block("answer")["text"], example()["answer"]);
    let chunks = block("chunks")["chunks"].clone();
    assert_eq!(chunks.as_array().expect("chunks").len(), 5);
    assert_eq!(chunks[3]["id"], "4");
    assert!(
        chunks[3]["text"]
            .as_str()
            .expect("text")
            .contains("Gustave Eiffel")
    );
    assert_eq!(block("gate")["passed"], false);
    let sentences = block("sentences")["sentences"].clone();
    assert_eq!(sentences[1]["missingNumbers"], json!(["1888"]));
    assert_eq!(sentences[2]["suggestedCitation"], "4");
    assert_eq!(sentences[2]["cited"], json!(["3"]));
    assert_eq!(
        sentences[0]["markerSpans"],
        json!([{"start": 36, "end": 39, "text": "[1]", "labels": ["1"], "chunks": ["1"]}])
    );

    // Spans are UTF-8 bytes of the answer block's text, non-ASCII included; `lang` is read.
    let answer = "Le café 😀 est ouvert depuis 1920 [1]. Il sert 300 clients [9].";
    let request = json!({
        "answer": answer,
        "chunks": "[{\"id\":\"1\",\"text\":\"Le café 😀 est ouvert depuis 1920.\"}]",
        "lang": "fr",
    });
    let envelope = server.post_json("/api/v1/calculate", &request).json();
    assert_valid("RagCitationDebuggerResult", &envelope);
    let presentation = envelope["presentation"].as_array().expect("blocks");
    let text = presentation
        .iter()
        .find(|b| b["kind"] == "answer")
        .expect("answer")["text"]
        .as_str()
        .expect("text")
        .to_string();
    assert_eq!(text, answer);
    let details = presentation
        .iter()
        .find(|b| b["kind"] == "sentences")
        .expect("sentences");
    for s in details["sentences"].as_array().expect("sentences") {
        let (start, end) = (
            s["span"]["start"].as_u64().expect("start") as usize,
            s["span"]["end"].as_u64().expect("end") as usize,
        );
        let sentence = &text[start..end];
        for marker in s["markerSpans"].as_array().expect("markers") {
            let (a, b) = (
                marker["start"].as_u64().expect("a") as usize,
                marker["end"].as_u64().expect("b") as usize,
            );
            assert_eq!(&sentence[a..b], marker["text"].as_str().expect("text"));
        }
    }
    assert_eq!(
        details["sentences"][1]["markerSpans"][0]["chunks"],
        json!([]),
        "[9] names no chunk"
    );
    let bad = server.post_json(
        "/api/v1/calculate",
        &json!({"answer": "a", "chunks": "", "lang": "xx"}),
    );
    let problem = bad.problem(422);
    assert_eq!(problem["errors"][0]["field"], "lang");

    // `citationScope` is read as `--citation-scope`; a superscript resolves through the
    // answer's source list in the marker spans as in the verdicts.
    let chunks = "[{\"id\":\"a\",\"text\":\"The reef is long.\"},{\"id\":\"b\",\"title\":\"Tower facts\",\"text\":\"The tower is 330 metres tall. It opened in 1889.\"}]";
    let answer = "The tower is 330 metres tall. It opened in 1889.¹\n\nSources:\n¹ Tower facts\n";
    let verdicts = |scope: &str| {
        let envelope = server
            .post_json(
                "/api/v1/calculate",
                &json!({"answer": answer, "chunks": chunks, "citationScope": scope}),
            )
            .json();
        assert_valid("RagCitationDebuggerResult", &envelope);
        let details = envelope["presentation"]
            .as_array()
            .expect("blocks")
            .iter()
            .find(|b| b["kind"] == "sentences")
            .expect("sentences")
            .clone();
        assert_eq!(
            details["sentences"][1]["markerSpans"][0]["chunks"],
            json!(["b"])
        );
        details["sentences"]
            .as_array()
            .expect("sentences")
            .iter()
            .map(|s| s["verdict"].as_str().expect("verdict").to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(verdicts("sentence")[..2], ["uncited-claim", "supported"]);
    assert_eq!(verdicts("paragraph")[..2], ["supported", "supported"]);
    let bad = server.post_json(
        "/api/v1/calculate",
        &json!({"answer": "a", "chunks": "", "citationScope": "answer"}),
    );
    assert_eq!(bad.problem(422)["errors"][0]["field"], "citationScope");
    assert_eq!(server.stop(), Some(0));
}
