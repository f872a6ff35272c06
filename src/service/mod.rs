//! What `ragcite serve` and `ragcite mcp` share: the checks run off the async threads, at most
//! as many at once as there are cores (shared fairly between clients: `slots.rs`), each within its deadline (`--check-timeout`), on the
//! library's API (`ragcite::api`). The HTTP server (`http.rs`) and the MCP tools (`mcp.rs`)
//! only carry requests to it.

pub mod http;
pub mod mcp;
mod slots;

use std::sync::Arc;
use std::time::Duration;

use ragcite::api::request::{CalculateRequest, DocumentRef, VerifyRequest};
use ragcite::api::verify::{DocumentError, Documents, Verification, verify};
use ragcite::api::{Problem, check_within, computed_at, envelope_value};
use ragcite::emit::api::tool_summary;
use ragcite::{Deadline, Model};

pub use self::slots::Client;
use self::slots::Slots;

/// A check that ran past its deadline and was stopped, without a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckTimedOut {
    /// The deadline, from the check's start.
    pub limit: Duration,
}

impl CheckTimedOut {
    /// What the client is told, in a problem document or a tool error.
    pub fn detail(&self) -> String {
        format!(
            "the check took longer than {} s (the server's --check-timeout) and was stopped; \
             send fewer chunks or sentences",
            self.limit.as_secs()
        )
    }

    /// 503 `check-timeout`, without Retry-After: the same request would take as long again.
    pub fn problem(&self) -> Problem {
        Problem::new(503, "Check timed out", "check-timeout", self.detail())
    }
}

/// What every envelope says of the server that wrote it: where it answers, for the links, and
/// the configuration file it applied (`ragcite serve`'s; `ragcite mcp` reads none).
#[derive(Debug, Clone)]
pub struct Origin {
    /// Where the server answers (`http://127.0.0.1:8080`).
    pub base_url: String,
    pub config: ragcite::emit::ConfigUsed,
}

/// The checks a server runs, shared by its transports.
#[derive(Debug)]
pub struct Service {
    /// Where the server answers (`http://127.0.0.1:8080`), for the envelope's links.
    pub base_url: String,
    /// The configuration file the server applied, or why none was.
    pub config: ragcite::emit::ConfigUsed,
    pub documents: Option<Documents>,
    /// What scores support in every check, loaded once at start.
    pub model: Arc<Model>,
    /// Which model that is, as `GET /healthz` says it: `shipped`, `formula` or `file`.
    pub model_name: &'static str,
    /// One slot per check running at once, shared fairly between clients.
    slots: Arc<Slots>,
    /// How long one check may run, from its start (not from its wait for a permit).
    check_timeout: Duration,
}

impl Service {
    /// `model` is what `--model` named, loaded; `model_name` says which kind it is.
    pub fn new(
        origin: Origin,
        documents: Option<Documents>,
        model_name: &'static str,
        model: Arc<Model>,
        max_concurrent: usize,
        max_concurrent_per_client: usize,
        check_timeout: Duration,
    ) -> Arc<Self> {
        Arc::new(Service {
            base_url: origin.base_url,
            config: origin.config,
            documents,
            model,
            model_name,
            slots: Slots::new(max_concurrent, max_concurrent_per_client),
            check_timeout,
        })
    }

    /// Runs `job` on a blocking thread once a check of `client` may start. The thread holds
    /// the slot until the job ends: a client that goes away does not free a slot whose check
    /// still runs (it runs until it ends or its deadline passes).
    async fn run<T: Send + 'static>(
        &self,
        client: Client,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> T {
        let slot = self.slots.acquire(client).await;
        let job = move || {
            let _slot = slot;
            job()
        };
        match tokio::task::spawn_blocking(job).await {
            Ok(value) => value,
            Err(e) => std::panic::resume_unwind(e.into_panic()),
        }
    }

    /// `calculate`: the envelope of a checked request, or `CheckTimedOut` when the check ran
    /// past `--check-timeout`. The check itself stops at its deadline, so that its thread and
    /// its permit are free again for the next request.
    pub async fn calculate(
        self: &Arc<Self>,
        client: Client,
        request: CalculateRequest,
    ) -> Result<serde_json::Value, CheckTimedOut> {
        self.calculate_with(client, request, false)
            .await
            .map(|(envelope, _)| envelope)
    }

    /// [`Service::calculate`] for the `rag_citation_debugger` tool: the envelope and the text
    /// an agent reads first (`ragcite::emit::api::tool_summary`).
    pub async fn calculate_for_tool(
        self: &Arc<Self>,
        client: Client,
        request: CalculateRequest,
    ) -> Result<(serde_json::Value, String), CheckTimedOut> {
        self.calculate_with(client, request, true).await
    }

    async fn calculate_with(
        self: &Arc<Self>,
        client: Client,
        request: CalculateRequest,
        summary: bool,
    ) -> Result<(serde_json::Value, String), CheckTimedOut> {
        let service = Arc::clone(self);
        let limit = self.check_timeout;
        self.run(client, move || {
            let deadline = Deadline::after(limit);
            let (report, gate) = check_within(&request, &service.model, &deadline)
                .map_err(|_| CheckTimedOut { limit })?;
            let envelope = envelope_value(
                &request,
                &report,
                &gate,
                &computed_at(),
                &service.base_url,
                &service.config,
            );
            let text = if summary {
                tool_summary(&report, &gate)
            } else {
                String::new()
            };
            Ok((envelope, text))
        })
        .await
    }

    /// `verify_citation`: the quote against a document given as text, or of the folder.
    pub async fn verify(
        self: &Arc<Self>,
        client: Client,
        request: VerifyRequest,
    ) -> Result<Verification, DocumentError> {
        let service = Arc::clone(self);
        self.run(client, move || {
            let text = match request.document {
                DocumentRef::Text(text) => text,
                DocumentRef::Id(id) => service
                    .documents
                    .as_ref()
                    .ok_or(DocumentError::NoFolder)?
                    .text(&id, request.chunk_id.as_deref())?,
            };
            Ok(verify(&text, &request.quote))
        })
        .await
    }
}

/// The client address a request came from, which the check slots are shared by.
pub fn client_of(extensions: &axum::http::Extensions) -> Client {
    extensions
        .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
        .map(|axum::extract::ConnectInfo(peer)| peer.ip())
}
