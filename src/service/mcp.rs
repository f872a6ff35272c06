//! The MCP tools, for both transports (stdio from `ragcite mcp`, Streamable HTTP at `/mcp` of
//! `ragcite serve`) and both handshake styles (rmcp answers `initialize` for protocol versions
//! up to 2025-11-25, and `server/discover` with per-request `_meta` for 2026-07-28):
//! - `rag_citation_debugger`: the API's input and envelope;
//! - `verify_citation`: a quotation against a document given as text or of the folder.
//!
//! The tools are listed by hand rather than by rmcp's macros, so that their schemas are the
//! contract's own and a request's every invalid field is listed, as the API does.

use std::sync::Arc;

use ragcite::api::contract::{
    VERIFY_TOOL, component, debugger_description, verify_description, verify_input_schema,
    verify_output_schema,
};
use ragcite::api::envelope::TOOL_ID;
use ragcite::api::json::quoted;
use ragcite::api::request::{CalculateRequest, RequestError, VerifyRequest};
use rmcp::ErrorData;
use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
    ToolAnnotations,
};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::Value;

use super::client_of;
use super::{Client, Service};

/// The most document ids `verify_citation`'s description lists.
const MAX_LISTED_DOCUMENTS: usize = 200;

/// The tools of one server.
#[derive(Debug, Clone)]
pub struct Tools {
    service: Arc<Service>,
}

impl Tools {
    pub fn new(service: Arc<Service>) -> Self {
        Tools { service }
    }

    fn list(&self) -> Vec<Tool> {
        let mut debugger = Tool::new(
            TOOL_ID,
            debugger_description(),
            object(component("RagCitationDebuggerInput")),
        );
        debugger.title = Some("RAG Citation Debugger".to_string());
        debugger.output_schema = Some(Arc::new(object(component("RagCitationDebuggerResult"))));
        debugger.annotations = Some(read_only("RAG Citation Debugger"));
        let documents = self.service.documents.as_ref();
        let mut description = verify_description(documents.is_some());
        if let Some(documents) = documents {
            // Names are the folder's, not the server's words: each one a JSON string on a
            // line of its own, so that none can pass for an instruction or another name.
            description.push_str(&format!(
                "\n\nDocuments ({}), one document_id per line as a JSON string:",
                documents.len()
            ));
            let ids: Vec<&str> = documents.ids().take(MAX_LISTED_DOCUMENTS).collect();
            for id in &ids {
                description.push('\n');
                description.push_str(&quoted(id));
            }
            let more = documents.len().saturating_sub(ids.len());
            if more > 0 {
                description.push_str(&format!("\n(and {more} more)"));
            }
        }
        let mut verify = Tool::new(VERIFY_TOOL, description, object(verify_input_schema()));
        verify.title = Some("Verify a citation".to_string());
        verify.output_schema = Some(Arc::new(object(verify_output_schema())));
        verify.annotations = Some(read_only("Verify a citation"));
        vec![debugger, verify]
    }

    /// Runs tool `name` for `client` (its address over HTTP; `None` over stdio).
    async fn call(
        &self,
        client: Client,
        name: &str,
        arguments: Value,
    ) -> Result<CallToolResult, ErrorData> {
        match name {
            TOOL_ID => match CalculateRequest::from_value(arguments) {
                Ok(request) => match self.service.calculate_for_tool(client, request).await {
                    Ok((envelope, summary)) => Ok(debugger_result(envelope, summary)),
                    Err(timed_out) => Ok(CallToolResult::error(vec![ContentBlock::text(
                        timed_out.detail(),
                    )])),
                },
                Err(e) => Ok(invalid(e)),
            },
            VERIFY_TOOL => match VerifyRequest::from_value(arguments) {
                Ok(request) => match self.service.verify(client, request).await {
                    Ok(verification) => Ok(CallToolResult::structured(
                        serde_json::to_value(verification).unwrap_or_default(),
                    )),
                    Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(
                        e.to_string(),
                    )])),
                },
                Err(e) => Ok(invalid(e)),
            },
            other => Err(ErrorData::invalid_params(
                format!("no tool `{other}` (the tools are {TOOL_ID} and {VERIFY_TOOL})"),
                None,
            )),
        }
    }
}

/// The `rag_citation_debugger` tool's result: the envelope as structured content, and as text
/// first the summary line and the findings (what an agent that reads the text needs first,
/// which the envelope's JSON puts after the inputs it echoes), then the envelope's JSON, as the
/// protocol asks of a tool with structured content, in a block of its own.
fn debugger_result(envelope: Value, summary: String) -> CallToolResult {
    let mut result = CallToolResult::structured(envelope);
    result.content.insert(0, ContentBlock::text(summary));
    result
}

/// A tool error that lists the invalid arguments, one per line (the first hundred, then how
/// many more).
fn invalid(error: RequestError) -> CallToolResult {
    let text = match error {
        RequestError::Malformed(message) => format!("invalid arguments: {message}"),
        RequestError::Invalid(errors) => {
            let mut lines: Vec<String> = errors
                .listed
                .iter()
                .map(|e| format!("{}: {}", e.field, e.message))
                .collect();
            lines.extend(errors.and_more());
            lines.join("\n")
        }
    };
    CallToolResult::error(vec![ContentBlock::text(text)])
}

fn read_only(title: &str) -> ToolAnnotations {
    ToolAnnotations::with_title(title)
        .read_only(true)
        .destructive(false)
        .idempotent(true)
        .open_world(false)
}

fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(object) => object,
        _ => JsonObject::new(),
    }
}

impl ServerHandler for Tools {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("ragcite", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "Deterministic checks of RAG answers and quotations (no model, no network). Call \
                 verify_citation before asserting that a document says something; call \
                 rag_citation_debugger on an answer and its retrieved chunks before passing it on.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.list()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // Over HTTP, rmcp hands on the request's head, and with it the client's address.
        let client = context
            .extensions
            .get::<axum::http::request::Parts>()
            .and_then(|parts| client_of(&parts.extensions));
        let arguments = Value::Object(request.arguments.unwrap_or_default());
        self.call(client, &request.name, arguments)
            .await
            .map(Into::into)
    }
}
