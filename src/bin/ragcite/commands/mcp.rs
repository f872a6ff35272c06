//! `ragcite mcp`: the MCP tools over stdio. Standard output carries protocol messages only.

use anyhow::{Context, Result, bail};
use rmcp::ServiceExt;

use super::serve::open_documents;
use crate::app::cli::{McpArgs, load_model, model_kind};
use crate::app::exit::ExitStatus;
use crate::app::service::Service;
use crate::app::service::mcp::Tools;

pub fn run(args: &McpArgs) -> Result<ExitStatus> {
    let documents = open_documents(args.documents.as_deref())?;
    if args.model == "-" {
        bail!("--model: standard input carries the MCP messages, not a model file");
    }
    let model = load_model(&args.model)?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's threads")?;
    runtime.block_on(async {
        let service = Service::new(
            ragcite::api::DEFAULT_BASE_URL.to_string(),
            documents,
            model_kind(&args.model),
            model,
            cores,
            std::time::Duration::from_secs(args.check_timeout),
        );
        let running = Tools::new(service)
            .serve(rmcp::transport::stdio())
            .await
            .context("cannot start MCP over stdio")?;
        running.waiting().await.context("MCP over stdio stopped")?;
        anyhow::Ok(())
    })?;
    Ok(ExitStatus::Success)
}
