//! What `ragcite serve` and `ragcite mcp` share: the checks run off the async threads, at most
//! as many at once as there are cores, on the library's API (`ragcite::api`). The HTTP server
//! (`http.rs`) and the MCP tools (`mcp.rs`) only carry requests to it.

pub mod http;
pub mod mcp;

use std::sync::Arc;

use ragcite::Model;
use ragcite::api::request::{CalculateRequest, DocumentRef, VerifyRequest};
use ragcite::api::verify::{DocumentError, Documents, Verification, verify};
use ragcite::api::{calculate, computed_at};
use tokio::sync::Semaphore;

/// The checks a server runs, shared by its transports.
#[derive(Debug)]
pub struct Service {
    /// Where the server answers (`http://127.0.0.1:8080`), for the envelope's links.
    pub base_url: String,
    pub documents: Option<Documents>,
    /// What scores support in every check, loaded once at start.
    pub model: Arc<Model>,
    /// Which model that is, as `GET /healthz` says it: `shipped`, `formula` or `file`.
    pub model_name: &'static str,
    /// One permit per check running at once.
    work: Semaphore,
}

impl Service {
    /// `model` is what `--model` named, loaded; `model_name` says which kind it is.
    pub fn new(
        base_url: String,
        documents: Option<Documents>,
        model_name: &'static str,
        model: Arc<Model>,
        max_concurrent: usize,
    ) -> Arc<Self> {
        Arc::new(Service {
            base_url,
            documents,
            model,
            model_name,
            work: Semaphore::new(max_concurrent.max(1)),
        })
    }

    /// Runs `job` on a blocking thread once a check may start.
    async fn run<T: Send + 'static>(&self, job: impl FnOnce() -> T + Send + 'static) -> T {
        // The semaphore is never closed, so acquiring only waits.
        let _permit = self.work.acquire().await.ok();
        match tokio::task::spawn_blocking(job).await {
            Ok(value) => value,
            Err(e) => std::panic::resume_unwind(e.into_panic()),
        }
    }

    /// `calculate`: the envelope of a checked request.
    pub async fn calculate(self: &Arc<Self>, request: CalculateRequest) -> serde_json::Value {
        let service = Arc::clone(self);
        self.run(move || calculate(&request, &service.model, &computed_at(), &service.base_url))
            .await
    }

    /// `verify_citation`: the quote against a document given as text, or of the folder.
    pub async fn verify(
        self: &Arc<Self>,
        request: VerifyRequest,
    ) -> Result<Verification, DocumentError> {
        let service = Arc::clone(self);
        self.run(move || {
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
