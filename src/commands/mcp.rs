//! `ragcite mcp`: the MCP tools over stdio. Standard output carries protocol messages only.
//!
//! Standard input is read here, one line at a time and at most [`MAX_LINE_BYTES`] of a line,
//! before rmcp sees it: a line that is not UTF-8 or not JSON gets JSON-RPC's parse error
//! (-32700, id null), a line over the limit is skipped to its end unbuffered and gets an
//! Invalid Request error (-32600, with its id when the line's start names one), a key given
//! twice gets an error naming it; rmcp would drop each of them silently and leave the client
//! waiting. The other lines go to rmcp through an in-process pipe, and one writer puts rmcp's
//! replies and these errors on standard output, a whole line at a time.

use std::io::BufRead;

use anyhow::{Context, Result, bail};
use ragcite::api::json::{JsonError, key_in_start, parse_unique};
use rmcp::ServiceExt;
use rmcp::transport::async_rw::AsyncRwTransport;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::mpsc;

use super::serve::open_documents;
use crate::cli::{McpArgs, load_model, model_kind};
use crate::exit::ExitStatus;
use crate::service::mcp::Tools;
use crate::service::{Origin, Service};

/// The longest message line read, without its newline: the size of the largest body `/mcp`
/// takes.
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;
/// How much of an oversized line is kept to find its id.
const KEPT_OF_OVERSIZED: usize = 4096;

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
        let origin = Origin {
            base_url: ragcite::api::DEFAULT_BASE_URL.to_string(),
            config: ragcite::emit::ConfigUsed::isolated(),
        };
        let service = Service::new(
            origin,
            documents,
            model_kind(&args.model),
            model,
            cores,
            // One client over stdio: every slot is its own.
            cores,
            std::time::Duration::from_secs(args.check_timeout),
        );
        let (mut to_server, server_in) = tokio::io::duplex(64 * 1024);
        let (server_out, from_server) = tokio::io::duplex(64 * 1024);
        let (lines, mut lines_out) = mpsc::channel::<Vec<u8>>(1);
        let (replies, replies_out) = mpsc::channel::<Vec<u8>>(16);
        // A thread of its own: a read of standard input cannot be cancelled, and a thread
        // blocked in one does not keep the process from exiting.
        std::thread::spawn(move || read_lines(std::io::stdin().lock(), &lines, &replies));
        let forward = tokio::spawn(async move {
            while let Some(line) = lines_out.recv().await {
                if to_server.write_all(&line).await.is_err() {
                    break;
                }
            }
            // Dropping the pipe ends rmcp's input.
        });
        let writer = tokio::spawn(write_out(from_server, replies_out));
        let transport = AsyncRwTransport::new_server(server_in, server_out)
            .with_max_line_length(MAX_LINE_BYTES + 1);
        let running = Tools::new(service)
            .serve(transport)
            .await
            .context("cannot start MCP over stdio")?;
        running.waiting().await.context("MCP over stdio stopped")?;
        forward.abort();
        writer
            .await
            .context("MCP over stdio stopped")?
            .context("cannot write to standard output")?;
        anyhow::Ok(())
    })?;
    Ok(ExitStatus::Success)
}

/// Reads `input` a line at a time, never holding more than [`MAX_LINE_BYTES`] of one: good
/// lines (newline-terminated) go to `lines`, the errors of the others to `replies`.
fn read_lines(
    mut input: impl BufRead,
    lines: &mpsc::Sender<Vec<u8>>,
    replies: &mpsc::Sender<Vec<u8>>,
) {
    let mut line = Vec::new();
    let mut oversized = false;
    loop {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        if available.is_empty() {
            // The end: a last line without its newline is still a line.
            if (!line.is_empty() || oversized) && !take_line(&line, oversized, lines, replies) {
                return;
            }
            break;
        }
        let newline = available.iter().position(|b| *b == b'\n');
        let end = newline.unwrap_or(available.len());
        if !oversized {
            if line.len() + end > MAX_LINE_BYTES {
                oversized = true;
                let keep = KEPT_OF_OVERSIZED.saturating_sub(line.len()).min(end);
                line.extend_from_slice(&available[..keep]);
                line.truncate(KEPT_OF_OVERSIZED);
                line.shrink_to_fit();
            } else {
                line.extend_from_slice(&available[..end]);
            }
        }
        let consumed = newline.map_or(available.len(), |n| n + 1);
        input.consume(consumed);
        if newline.is_some() {
            if !take_line(&line, oversized, lines, replies) {
                return;
            }
            line.clear();
            oversized = false;
        }
    }
}

/// Sends one line on, or its error; false once nobody listens any more.
fn take_line(
    line: &[u8],
    oversized: bool,
    lines: &mpsc::Sender<Vec<u8>>,
    replies: &mpsc::Sender<Vec<u8>>,
) -> bool {
    let reply = |id: Value, code: i64, message: String| {
        let mut text =
            json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
                .to_string();
        text.push('\n');
        replies.blocking_send(text.into_bytes()).is_ok()
    };
    if oversized {
        return reply(
            id_in_start(line),
            -32600,
            format!(
                "Invalid Request: the message is over 16 MiB ({MAX_LINE_BYTES} bytes), the most \
                 one line may hold; it was skipped"
            ),
        );
    }
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return true;
    }
    if let Err(e) = std::str::from_utf8(line) {
        return reply(
            Value::Null,
            -32700,
            format!(
                "Parse error: the message is not valid UTF-8 (at byte {})",
                e.valid_up_to()
            ),
        );
    }
    match parse_unique(line) {
        Ok(_) => {
            let mut message = line.to_vec();
            message.push(b'\n');
            lines.blocking_send(message).is_ok()
        }
        // A line's values are bounded by its length alone (`parse_unique` counts none).
        Err(e @ (JsonError::Syntax(_) | JsonError::TooManyValues(_))) => {
            reply(Value::Null, -32700, format!("Parse error: {e}"))
        }
        Err(duplicate @ JsonError::Duplicate { .. }) => {
            let JsonError::Duplicate { path, .. } = &duplicate else {
                unreachable!()
            };
            let (code, kind) = if path.first().is_some_and(|p| p == "params") {
                (-32602, "Invalid params")
            } else {
                (-32600, "Invalid Request")
            };
            let id = serde_json::from_slice::<Value>(line)
                .ok()
                .and_then(|v| v.get("id").cloned())
                .filter(|id| id.is_number() || id.is_string())
                .unwrap_or(Value::Null);
            reply(
                id,
                code,
                format!("{kind}: {duplicate} (JSON keys must be unique)"),
            )
        }
    }
}

/// The id of a message of which only the start is known, if the start names one before it is
/// cut (`{"jsonrpc": "2.0", "id": 3, "method": ...`).
fn id_in_start(start: &[u8]) -> Value {
    let start = start.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(start);
    key_in_start(start, "id")
        .filter(|id| id.is_number() || id.is_string())
        .unwrap_or(Value::Null)
}

/// Writes rmcp's messages and the readers' errors to standard output, whole lines, until rmcp
/// is done.
async fn write_out(
    from_server: DuplexStream,
    mut replies: mpsc::Receiver<Vec<u8>>,
) -> std::io::Result<()> {
    let mut stdout = tokio::io::stdout();
    let mut from_server = BufReader::new(from_server);
    let mut line = Vec::new();
    loop {
        tokio::select! {
            // Partial reads stay in `line` when the other branch wins.
            read = from_server.read_until(b'\n', &mut line) => {
                if read? == 0 {
                    break;
                }
                // One message one line, for readers that split on Unicode line ends too.
                stdout.write_all(&ragcite::escape::line_safe_json(&line)).await?;
                stdout.flush().await?;
                line.clear();
            }
            Some(reply) = replies.recv() => {
                stdout.write_all(&ragcite::escape::line_safe_json(&reply)).await?;
                stdout.flush().await?;
            }
        }
    }
    // rmcp is done: the errors already queued still go out.
    while let Ok(reply) = replies.try_recv() {
        stdout
            .write_all(&ragcite::escape::line_safe_json(&reply))
            .await?;
    }
    stdout.flush().await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_id_of_an_oversized_message_is_a_number_or_a_string() {
        assert_eq!(
            id_in_start(br#"{"jsonrpc": "2.0", "id": 3, "par"#),
            json!(3)
        );
        assert_eq!(id_in_start(b"\xEF\xBB\xBF{\"id\": \"a\", \"x"), json!("a"));
        assert_eq!(id_in_start(br#"{"id": {"x": 1}}"#), Value::Null);
        assert_eq!(id_in_start(b"\xff"), Value::Null);
    }
}
