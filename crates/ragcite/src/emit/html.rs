//! `check --format html`: one self-contained HTML page, the page of `ragcite serve` without its
//! form. The stylesheet and the renderer (`src/emit/html/`) are inline; the data is the API
//! envelope in a `<script type="application/json">` block; a Content-Security-Policy meta
//! element allows exactly the inline style and script by their hashes, and nothing from the
//! network. The output is deterministic: the envelope's `computedAt` is left out.

use std::fmt::Write as _;
use std::io::{self, Write};

use sha2::{Digest, Sha256};

use super::api::ReadInputs;
use super::{Emitter, Run};
use crate::api::DEFAULT_BASE_URL;
use crate::api::envelope::{Envelope, EnvelopeParts};

/// The stylesheet shared by the page and the reports.
pub const STYLE_CSS: &str = include_str!("html/style.css");
/// The renderer: the envelope to the highlighted view, shared by the page and the reports.
pub const RENDER_JS: &str = include_str!("html/render.js");
/// The page's form: reads the inputs, calls the API, renders its envelope.
pub const PAGE_JS: &str = include_str!("html/page.js");
/// The single-answer report's start-up.
pub const REPORT_JS: &str = include_str!("html/report.js");
/// The batch report's table: rows built in pieces, sorting, filtering, expanding.
pub const BATCH_JS: &str = include_str!("html/batch.js");
/// The page `ragcite serve` answers `GET /` with; `{{EXAMPLE}}` and `{{LANGUAGES}}` are filled in.
pub const PAGE_HTML_TEMPLATE: &str = include_str!("html/page.html");

/// The page of `ragcite serve`: the form, the worked example (`testdata/eiffel/`) and the
/// languages of `--lang`, `auto` (detect it) selected.
pub fn page_html() -> String {
    let example = serde_json::json!({
        "answer": include_str!("../../../../testdata/eiffel/answer.md"),
        "chunks": include_str!("../../../../testdata/eiffel/chunks.json"),
    });
    let languages: String = std::iter::once(
        "<option value=\"auto\" selected>Detect (English when unsure)</option>".to_string(),
    )
    .chain(crate::Language::ALL.iter().map(|l| {
        format!(
            "<option value=\"{}\">{}</option>",
            l.code(),
            escape(l.name())
        )
    }))
    .collect();
    PAGE_HTML_TEMPLATE
        .replace("{{LANGUAGES}}", &languages)
        .replace("{{EXAMPLE}}", &json_block(&example))
}

/// `sha256-…` of a text, as a Content-Security-Policy source.
pub fn csp_hash(text: &str) -> String {
    use std::fmt::Write as _;
    let digest = Sha256::digest(text.as_bytes());
    // Base64 by hand: no dependency for 32 bytes.
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::from("'sha256-");
    for chunk in digest.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    let _ = write!(out, "'");
    out
}

/// The Content-Security-Policy of a report whose one inline script is `script` and whose one
/// inline stylesheet is `style`: nothing else runs, nothing is fetched.
pub fn report_csp(script: &str, style: &str) -> String {
    format!(
        "default-src 'none'; script-src {}; style-src {}; img-src data:; base-uri 'none'; form-action 'none'",
        csp_hash(script),
        csp_hash(style)
    )
}

/// JSON for a `<script type="application/json">` block: every `<` escaped as `\u003c`, so
/// that no `</script>` or `<!--` in the data can end or change the block.
pub fn json_block(value: &serde_json::Value) -> String {
    let json = serde_json::to_string(value).expect("JSON values serialise");
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            // serde_json escapes C0 controls; DEL, C1 controls and the bidirectional and
            // invisible characters it writes raw, which no page should hold as bytes.
            c if crate::escape::hidden(c) => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}

/// Escapes text for HTML element content and attribute values. A control character (ESC,
/// BEL, ...), a bidirectional control or an invisible character is written as its visible
/// `\u{…}` escape, as on a terminal ([`crate::escape::printable`]): no raw control byte
/// reaches the page; a carriage return is a space, a line break and a tab stay.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\n' | '\t' => out.push(c),
            '\r' => out.push(' '),
            c if crate::escape::hidden(c) => crate::escape::push_escape(&mut out, c),
            c => out.push(c),
        }
    }
    out
}

/// The head of a report: doctype, CSP, title, the inline stylesheet.
pub fn head(title: &str, script: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{}\">\n\
         <link rel=\"icon\" href=\"data:,\">\n<title>{}</title>\n<style>{}</style>\n</head>\n",
        report_csp(script, STYLE_CSS),
        escape(title),
        STYLE_CSS
    )
}

/// The envelope of a run as JSON, without `computedAt`, so that two runs are byte-identical.
/// `inputs.answer` and `inputs.chunks` are empty: the `answer` and `chunks` blocks hold them.
pub fn envelope_value(run: &Run<'_>, read: &ReadInputs) -> serde_json::Value {
    let envelope = Envelope::new(EnvelopeParts {
        report: run.report,
        answer: "",
        chunks: "",
        threshold: run.inputs.threshold,
        answer_format: &run.inputs.answer.format,
        chunks_format: &run.inputs.chunks.format,
        computed_at: "",
        base_url: DEFAULT_BASE_URL,
        read: Some(read.parts()),
        gate: Some(run.gate),
        config: &run.inputs.config,
    });
    let mut value = serde_json::to_value(&envelope).expect("the envelope serialises");
    if let Some(object) = value.as_object_mut() {
        object.remove("computedAt");
    }
    value
}

/// Writes the single-answer report.
#[derive(Debug, Clone)]
pub struct HtmlEmitter {
    pub read: ReadInputs,
}

impl HtmlEmitter {
    /// The report's inline script: the renderer, then its start-up.
    pub fn script() -> String {
        format!("{RENDER_JS}\n{REPORT_JS}")
    }
}

impl Emitter for HtmlEmitter {
    fn emit(&self, run: &Run<'_>, out: &mut dyn Write) -> io::Result<()> {
        let script = Self::script();
        let mut page = head(
            &format!("ragcite report: {}", run.inputs.answer.path),
            &script,
        );
        page.push_str("<body>\n<main id=\"main\">\n<h1>ragcite report</h1>\n");
        page.push_str(&format!(
            "<p class=\"inputs\">Answer <code>{}</code> ({}), chunks <code>{}</code> ({}); {}.</p>\n",
            escape(&run.inputs.answer.path),
            escape(&run.inputs.answer.format),
            escape(&run.inputs.chunks.path),
            escape(&run.inputs.chunks.format),
            escape(&run.inputs.decided()),
        ));
        page.push_str("<div id=\"result\" aria-live=\"polite\">\n");
        page.push_str("<div id=\"view\"><noscript>This report needs JavaScript to show its result.</noscript></div>\n");
        page.push_str("</div>\n</main>\n");
        page.push_str("<script type=\"application/json\" id=\"envelope\">");
        page.push_str(&json_block(&envelope_value(run, &self.read)));
        page.push_str("</script>\n<script>");
        page.push_str(&script);
        page.push_str("</script>\n</body>\n</html>\n");
        out.write_all(page.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_base64_sha256() {
        // sha256("") = 47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=
        assert_eq!(
            csp_hash(""),
            "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"
        );
    }

    #[test]
    fn json_blocks_cannot_close_their_script() {
        let block = json_block(&serde_json::json!({"t": "</script><!--"}));
        assert!(!block.contains('<'));
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&block).unwrap()["t"],
            "</script><!--"
        );
    }

    #[test]
    fn the_renderer_names_each_verdict_with_its_summary() {
        for verdict in crate::Verdict::ALL {
            assert!(RENDER_JS.contains(verdict.summary()), "{}", verdict.name());
        }
    }

    #[test]
    fn the_renderer_gives_each_kind_of_non_claim_its_reason() {
        for kind in crate::claim::Kind::ALL {
            let entry = format!("'{}': ", kind.name());
            let line = RENDER_JS
                .lines()
                .find(|l| l.trim_start().starts_with(&entry))
                .unwrap_or_else(|| panic!("{kind} is not in the renderer's KINDS"));
            assert!(line.contains(kind.reason()), "{kind}: {line}");
        }
    }
}
