//! The contract: the OpenAPI document (the original API's, with ragcite's additions), the tool
//! definition `GET /api/v1/tool` serves, and the MCP tools' descriptions and schemas.

use serde_json::{Value, json};

use super::envelope::TOOL_ID;

/// The OpenAPI 3.1 document, with `{{SERVER_URL}}` where the server's address goes.
const OPENAPI: &str = include_str!("openapi.json");

/// The OpenAPI document of a server at `base_url`.
pub fn openapi(base_url: &str) -> Value {
    let text = OPENAPI.replace("{{SERVER_URL}}", base_url.trim_end_matches('/'));
    serde_json::from_str(&text).expect("the committed OpenAPI document is JSON")
}

/// A schema of the OpenAPI document's components.
pub fn component(name: &str) -> Value {
    openapi("")["components"]["schemas"][name].clone()
}

/// The `calculate` operation's description: what the check does and how.
fn calculate_description() -> String {
    openapi("")["paths"]["/api/v1/calculate"]["post"]["description"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// `GET /api/v1/tool`: the tool's inputs, output schema and examples.
pub fn tool_definition(base_url: &str) -> Value {
    let document = openapi(base_url);
    let calculate = &document["paths"]["/api/v1/calculate"]["post"];
    let examples: Vec<Value> = calculate["requestBody"]["content"]["application/json"]["examples"]
        .as_object()
        .map(|all| all.values().cloned().collect())
        .unwrap_or_default();
    json!({
        "id": TOOL_ID,
        "name": "RAG Citation Debugger (ragcite)",
        "version": env!("CARGO_PKG_VERSION"),
        "summary": calculate["summary"],
        "description": calculate["description"],
        "endpoint": format!("{}/api/v1/calculate", base_url.trim_end_matches('/')),
        "method": "POST",
        "mcp": {"endpoint": format!("{}/mcp", base_url.trim_end_matches('/')), "tools": [TOOL_ID, VERIFY_TOOL]},
        "inputSchema": component("RagCitationDebuggerInput"),
        "outputSchema": component("RagCitationDebuggerResult"),
        "examples": examples,
    })
}

/// The name of the quotation tool.
pub const VERIFY_TOOL: &str = "verify_citation";

/// The `rag_citation_debugger` tool's description.
pub fn debugger_description() -> String {
    format!(
        "Checks a RAG answer's citations against the retrieved chunks, deterministically (no model, no network): \
         uncited claims, citations to chunks that do not support the sentence, cited chunks that say the opposite \
         (contradicted: in `presentation`, the chunk and its words; `unsupported-citation` in `result`), numbers \
         missing from the cited chunk, quotations not in the cited chunk, markers that point nowhere, and chunks \
         never used. Use it on an answer \
         before you pass it on. `answer` is the answer with its markers, or a provider's whole response (OpenAI, \
         Anthropic, Cohere, Gemini, Bedrock, ...); `chunks` the retrieved chunks as JSON [{{\"id\",\"text\"}}] or \
         [id] / id: blocks (empty when the response carries its sources).\n\n{}",
        calculate_description()
    )
}

/// The `verify_citation` tool's description.
pub fn verify_description(documents: bool) -> String {
    let source = if documents {
        "`document_id` names a document of the server's folder (listed at the end of this description, one per line); \
         with `chunk_id`, the search is limited to that chunk of a chunks file. Or give the text as `document`."
    } else {
        "Give the document's text as `document` (this server has no documents folder, so `document_id` is refused)."
    };
    format!(
        "Verifies that a quotation is really, word for word, in the document it names. Use it before asserting that \
         a document says something, above all when the quotation comes from somewhere other than a passage you were \
         just given: an earlier note, a summary, a previous answer. A quotation copied with one word changed, \
         stitched from two places or reworded still reads plausibly; this tool detects exactly that.\n\n\
         The check is deterministic: no generation, no language model. The quotation and the document are \
         normalised (Unicode NFKC, so ligatures and superscripts or subscripts; dashes; quotation marks; white space; \
         case; soft hyphens; words hyphenated across a line break), then the quotation is looked for as whole words. \
         One pair of quotation marks around it is ignored, and an ellipsis (...) splits it into parts that must appear \
         in order.\n\n\
         Returns: `found`, true only for an exact match after normalisation; a quotation with a single word changed \
         gives false. A false proves the exact words are not in this text; it does not prove the document does not \
         say the same thing in other words. `offsets`, [start, end) in characters of the text; `sha256`, of that \
         text, so the check can be reproduced; and when not found, `closest`: the most similar passage, its \
         similarity (0 to 1) and the number of words that differ, which shows where the quotation drifted. Measured \
         on QuoteSum's human-written quotations: 630 of 632 genuine quotations found, 0 of 423 quotations with one \
         word changed accepted.\n\n\
         Arguments: `quote`, the quoted text as you are about to assert it (a sentence or two; beyond a paragraph an \
         unseen rewording will fail the check for reasons unrelated to its honesty). {source}"
    )
}

/// The input schema of `verify_citation`.
pub fn verify_input_schema() -> Value {
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["quote"],
        "properties": {
            "quote": {"type": "string", "description": "The quoted text, as you are about to assert it.", "minLength": 1, "maxLength": super::request::MAX_QUOTE_CHARS},
            "document": {"type": "string", "description": "The document's text (instead of document_id).", "minLength": 1, "maxLength": super::request::MAX_DOCUMENT_CHARS},
            "document_id": {"type": "string", "description": "A document of the server's folder: its path inside the folder."},
            "chunk_id": {"type": "string", "description": "With document_id only: look only in this chunk of a chunks file."}
        }
    })
}

/// The output schema of `verify_citation` (and of `/api/v1/quote`).
pub fn verify_output_schema() -> Value {
    let mut schema = component("QuoteResult");
    schema["properties"]["closest"] =
        json!({"anyOf": [{"type": "null"}, component("ClosestPassage")]});
    schema
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every text that says how support is scored says it in the same words, and those words
    /// match the shipped model.
    #[test]
    fn every_description_of_support_is_the_models() {
        use crate::support::model::{HOW_SUPPORT_IS_SCORED, Model};
        let how = HOW_SUPPORT_IS_SCORED;
        assert!(debugger_description().contains(how), "MCP tool description");
        assert!(
            tool_definition("http://x")["description"]
                .as_str()
                .unwrap()
                .contains(how),
            "tool definition"
        );
        assert!(
            crate::Verdict::Supported.explanation().contains(how),
            "ragcite explain supported"
        );
        let units = crate::api::envelope::UNITS;
        assert!(
            units.iter().any(|&(k, v)| k == "support" && v == how),
            "units"
        );
        // The description's figures are the shipped model's.
        let description = Model::shipped().describe();
        assert!(description.contains("depth=2 n=100"), "{description}");
        assert!(how.contains("100 shallow decision trees"));
        assert!(how.contains(&format!(
            "{} lexical features",
            crate::support::model::features::COUNT
        )));
    }

    #[test]
    fn the_openapi_document_names_the_server() {
        let document = openapi("http://127.0.0.1:9000/");
        assert_eq!(document["servers"][0]["url"], "http://127.0.0.1:9000");
        assert_eq!(document["openapi"], "3.1.1");
        assert_eq!(
            document["paths"]["/api/v1/calculate"]["post"]["x-mcp-tool"],
            TOOL_ID
        );
    }

    #[test]
    fn the_debugger_tool_mentions_contradictions() {
        let description = debugger_description();
        assert!(
            description.contains("say the opposite (contradicted"),
            "{description}"
        );
    }

    #[test]
    fn the_tool_definition_carries_the_contract_schemas_and_the_example() {
        let tool = tool_definition("http://127.0.0.1:9000");
        assert_eq!(tool["inputSchema"]["additionalProperties"], false);
        assert_eq!(
            tool["outputSchema"]["properties"]["schemaVersion"]["const"],
            "1.0"
        );
        assert!(
            tool["examples"][0]["value"]["answer"]
                .as_str()
                .is_some_and(|a| a.starts_with("The Eiffel Tower"))
        );
    }

    #[test]
    fn the_quote_schemas_resolve_without_references() {
        let schema = verify_output_schema();
        assert!(!schema.to_string().contains("$ref"), "{schema}");
    }
}
