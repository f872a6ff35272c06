//! `ragcite mcp`: the MCP tools over stdio. Standard output carries protocol messages only.

use anyhow::{Context, Result};
use rmcp::ServiceExt;

use super::serve::open_documents;
use crate::app::cli::McpArgs;
use crate::app::exit::ExitStatus;
use crate::app::service::Service;
use crate::app::service::mcp::Tools;

pub fn run(args: &McpArgs) -> Result<ExitStatus> {
    let documents = open_documents(args.documents.as_deref())?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's threads")?;
    runtime.block_on(async {
        let service = Service::new(ragcite::api::DEFAULT_BASE_URL.to_string(), documents, cores);
        let running = Tools::new(service)
            .serve(rmcp::transport::stdio())
            .await
            .context("cannot start MCP over stdio")?;
        running.waiting().await.context("MCP over stdio stopped")?;
        anyhow::Ok(())
    })?;
    Ok(ExitStatus::Success)
}
