//! `ragcite serve`: the HTTP API and MCP at `/mcp`, until SIGINT or SIGTERM.

use std::io::Write;
use std::net::{IpAddr, SocketAddr};

use anyhow::{Context, Result};
use ragcite::api::verify::Documents;
use tokio_util::sync::CancellationToken;

use crate::cli::{ServeArgs, load_model, model_kind};
use crate::exit::ExitStatus;
use crate::service::http::{Settings, serve};
use crate::service::{Origin, Service};

pub fn run(args: &ServeArgs) -> Result<ExitStatus> {
    let documents = open_documents(args.documents.as_deref())?;
    // Loaded before the socket is bound: a bad model file stops the server from starting.
    let model = load_model(&args.model)?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let max_concurrent = args.max_concurrent.map_or(cores, usize::from);
    // One slot stays for the other clients unless the operator says otherwise (behind a
    // reverse proxy every client has the proxy's address).
    let per_client = args
        .max_concurrent_per_client
        .map_or(max_concurrent.saturating_sub(1), usize::from)
        .clamp(1, max_concurrent);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's threads")?;
    runtime.block_on(async {
        let address = SocketAddr::new(args.host, args.port);
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .with_context(|| format!("cannot listen on {address}"))?;
        let bound = listener.local_addr().context("cannot read the bound address")?;
        let base_url = format!("http://{}", display(bound));
        let mut stderr = std::io::stderr();
        let _ = writeln!(stderr, "listening on {base_url}");
        if !args.host.is_loopback() {
            let _ = writeln!(
                stderr,
                "ragcite: warning: listening on {}, not a loopback address: anyone who can reach this machine can call the API",
                args.host
            );
        }
        if args.cors.as_deref() == Some("*") {
            let _ = writeln!(
                stderr,
                "ragcite: warning: --cors '*' lets any web page a visitor opens call the API{}",
                if args.cors_mcp {
                    " and /mcp, whose verify_citation reads the documents folder"
                } else {
                    " (not /mcp: --cors-mcp would open it too)"
                }
            );
        } else if args.cors_mcp {
            let _ = writeln!(
                stderr,
                "ragcite: warning: --cors-mcp lets pages of {} call /mcp, whose verify_citation reads the documents folder",
                ragcite::escape::printable_line(args.cors.as_deref().unwrap_or_default())
            );
        }
        let origin = Origin {
            base_url,
            config: args.config_used.clone(),
        };
        let service = Service::new(
            origin,
            documents,
            model_kind(&args.model),
            model,
            max_concurrent,
            per_client,
            std::time::Duration::from_secs(args.check_timeout),
        );
        let shutdown = CancellationToken::new();
        let signals = shutdown.clone();
        tokio::spawn(async move {
            wait_for_signal().await;
            signals.cancel();
        });
        let settings = Settings {
            max_concurrent,
            rate_limit: args.rate_limit,
            cors: args.cors.clone(),
            cors_mcp: args.cors_mcp,
            loopback: args.host.is_loopback(),
            timeout: std::time::Duration::from_secs(args.timeout),
            max_connections: args.max_connections as usize,
            max_connections_per_client: args.max_connections_per_client as usize,
        };
        serve(listener, service, settings, shutdown)
            .await
            .context("the server stopped")
    })?;
    Ok(ExitStatus::Success)
}

/// The documents folder, listed once.
pub fn open_documents(dir: Option<&std::path::Path>) -> Result<Option<Documents>> {
    dir.map(|dir| Documents::open(dir).map_err(anyhow::Error::msg))
        .transpose()
}

/// `127.0.0.1:8080`, `[::1]:8080`.
fn display(address: SocketAddr) -> String {
    match address.ip() {
        IpAddr::V6(ip) => format!("[{ip}]:{}", address.port()),
        IpAddr::V4(ip) => format!("{ip}:{}", address.port()),
    }
}

/// SIGINT (Ctrl-C) or, on Unix, SIGTERM.
async fn wait_for_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
}
