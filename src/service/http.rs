//! The HTTP server of `ragcite serve`: the original contract's API, ragcite's additions, MCP at
//! `/mcp`, and the limits that keep it up: HTTP/1.1 only, a cap on open connections in all and
//! per client address (where a connection waiting for a request gives its place to a new one),
//! an idle and header read timeout, a write timeout for clients that stop reading, a body cap
//! above the longest valid request, a budget for the bodies held at once (`budget.rs`), a body
//! read timeout, a token bucket per client (429), load shedding when the checks queue up (503),
//! and a graceful shutdown. Every error the server writes is an RFC 9457 problem document
//! (MCP's too, `problem.rs`); one line per request goes to stderr, never a body.
//!
//! In axum's shape: [`router`] builds the whole application on an [`AppState`], handlers return
//! `Result<_, Problem>`, and the bodies are read by the extractors of `extract.rs` (limits,
//! budget, queue, strict parsing). [`serve`] owns what is below a request: the connections,
//! their limits and timeouts, and shutdown. `tests.rs` calls the router in process.

mod budget;
mod connections;
mod extract;
mod problem;
#[cfg(test)]
mod tests;

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post};
use axum::{Json, Router};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use http_body_util::BodyExt;
use hyper_util::rt::{TokioIo, TokioTimer};
use ragcite::api::contract::{openapi, tool_definition};
use ragcite::api::request::{CalculateRequest, DocumentRef, QuoteRequest, VerifyRequest};
use ragcite::api::verify::Verification;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tower::ServiceExt;

use self::budget::Budget;
use self::connections::{Connections, Entry, Limits, Place, WriteDeadline};
pub use self::extract::{Admission, Admitted, FromBody, McpRequest};
pub use self::problem::Problem;
use super::Service;
use super::client_of;
use super::mcp::Tools;

/// The largest body read: above the longest request whose fields are only too long (a
/// calculate's 100,000 + 500,000 characters, a quote's 1,000,000 + 100,000, each character at
/// most 12 bytes as an escaped surrogate pair), so that it gets the contract's 422, not a 413.
pub const MAX_BODY_BYTES: usize = 16 * 1024 * 1024;
/// Requests waiting for a check, per check that may run at once; beyond, 503.
const QUEUE_PER_WORKER: usize = 8;
/// The most JSON values (objects, arrays, keys, strings, numbers, ...) an MCP message may hold:
/// a tool call holds a dozen; a parsed value costs tens of bytes, a `[0,0,...]` two.
pub const MAX_MCP_VALUES: usize = 10_000;
/// How long a connection asked to give its place to a new one may take to close (it waits for a
/// request, so it closes at once unless it is halfway through sending one).
const EVICTION_GRACE: Duration = Duration::from_secs(1);
/// How long the server must have had no new request before it gives freed memory back.
const QUIET: Duration = Duration::from_secs(2);

/// How the server runs.
#[derive(Debug, Clone)]
pub struct Settings {
    pub max_concurrent: usize,
    /// Requests per second per client, and the burst.
    pub rate_limit: NonZeroU32,
    /// `Access-Control-Allow-Origin` for this origin; no CORS header without it.
    pub cors: Option<String>,
    /// Whether `/mcp` gets the CORS headers too.
    pub cors_mcp: bool,
    /// How long a connection may wait before a request, then take to send its headers, and
    /// again its body; and how long a write may wait for a client that does not read.
    pub timeout: Duration,
    /// Connections open at once, in all and per client address.
    pub max_connections: usize,
    pub max_connections_per_client: usize,
    /// Bound to a loopback address: MCP then accepts only loopback `Host` headers (against DNS
    /// rebinding); bound elsewhere, the operator chose to expose it and any host is accepted.
    pub loopback: bool,
}

/// What every request of the router shares: the checks, and the limits that keep the server up.
pub struct AppState {
    service: Arc<Service>,
    limiter: DefaultKeyedRateLimiter<IpAddr>,
    /// Requests admitted to wait for or run a check.
    queue: Arc<Semaphore>,
    /// The bytes of request bodies held at once.
    bodies: Arc<Budget>,
    cors: Option<HeaderValue>,
    cors_mcp: bool,
    timeout: Duration,
    mcp: StreamableHttpService<Tools, NeverSessionManager>,
}

impl AppState {
    /// The state of a server of `service` run with `settings`; MCP's requests in flight are
    /// cancelled with `shutdown`.
    pub fn new(
        service: Arc<Service>,
        settings: &Settings,
        shutdown: &CancellationToken,
    ) -> Arc<Self> {
        Arc::new(AppState {
            limiter: RateLimiter::keyed(Quota::per_second(settings.rate_limit)),
            queue: Arc::new(Semaphore::new(
                settings.max_concurrent.max(1) * QUEUE_PER_WORKER,
            )),
            bodies: Budget::new(budget::TOTAL_BYTES, budget::PER_CLIENT_BYTES),
            cors: settings
                .cors
                .as_deref()
                .and_then(|origin| HeaderValue::from_str(origin).ok()),
            cors_mcp: settings.cors_mcp,
            mcp: mcp_service(&service, settings, shutdown.child_token()),
            service,
            timeout: settings.timeout,
        })
    }
}

/// Serves until `shutdown` is cancelled, then lets in-flight requests finish.
pub async fn serve(
    listener: TcpListener,
    service: Arc<Service>,
    settings: Settings,
    shutdown: CancellationToken,
) -> std::io::Result<()> {
    let app = AppState::new(service, &settings, &shutdown);
    let router = router(Arc::clone(&app));
    let connections = Connections::new(Limits {
        total: settings.max_connections,
        per_client: settings.max_connections_per_client,
    });
    // HTTP/1.1 only: hyper's header read timeout then runs from the moment a connection is
    // accepted, and again whenever a kept-alive one waits for its next request (the automatic
    // HTTP/1-or-2 builder has no timer while it reads the first bytes, and HTTP/2 is neither
    // needed nor configured).
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(settings.timeout)
        .keep_alive(true);
    let requests = Arc::new(AtomicU64::new(0));
    tokio::spawn(give_back_memory(Arc::clone(&requests), shutdown.clone()));
    let mut forget = tokio::time::interval(Duration::from_secs(60));
    loop {
        let (stream, peer) = tokio::select! {
            () = shutdown.cancelled() => break,
            _ = forget.tick() => {
                // The limiter keeps a bucket per client: forget the full ones.
                app.limiter.retain_recent();
                continue;
            }
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                // Out of file descriptors, a reset before accept: wait a little and go on.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let connection = Connection {
            stream,
            peer,
            router: router.clone(),
            builder: builder.clone(),
            requests: Arc::clone(&requests),
            timeout: settings.timeout,
            shutdown: shutdown.clone(),
        };
        match connections.admit(peer.ip(), &shutdown) {
            Entry::Now(place) => {
                tokio::spawn(connection.run(place));
            }
            Entry::Wait(waiter) => {
                // Bounded: a connection asked to close closes within EVICTION_GRACE unless it
                // has a request in flight.
                tokio::spawn(async move {
                    let limit = 2 * EVICTION_GRACE;
                    if let Some(place) = waiter.place(&connection.shutdown, limit).await {
                        connection.run(place).await;
                    }
                });
            }
            Entry::Refused => drop(connection),
        }
    }
    drop(listener);
    connections.all_closed().await;
    Ok(())
}

/// An accepted connection, to be served once it has a place.
struct Connection {
    stream: tokio::net::TcpStream,
    peer: SocketAddr,
    router: Router,
    builder: hyper::server::conn::http1::Builder,
    requests: Arc<AtomicU64>,
    timeout: Duration,
    shutdown: CancellationToken,
}

impl Connection {
    /// Serves the connection's requests until it closes, is asked to give its place, or the
    /// server stops.
    async fn run(self, place: Place) {
        let Connection {
            stream,
            peer,
            router,
            builder,
            requests,
            timeout,
            shutdown,
        } = self;
        let slot = Arc::clone(&place.slot);
        let service =
            hyper::service::service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
                requests.fetch_add(1, Ordering::Relaxed);
                // In flight from its head to the last byte of its response.
                let busy = slot.busy();
                let router = router.clone();
                async move {
                    let mut request = request.map(Body::new);
                    request.extensions_mut().insert(ConnectInfo(peer));
                    let Ok(response) = router.oneshot(request).await;
                    Ok::<_, Infallible>(response.map(|body| {
                        Body::new(body.map_frame(move |frame| {
                            busy.hold();
                            frame
                        }))
                    }))
                }
            });
        let io = WriteDeadline::new(TokioIo::new(stream), timeout);
        let connection = builder.serve_connection(io, service);
        let mut connection = std::pin::pin!(connection);
        let close = place.slot.close().clone();
        tokio::select! {
            _ = connection.as_mut() => {}
            () = close.cancelled() => {
                // Waiting for a request: closed at once; a request in flight finishes.
                connection.as_mut().graceful_shutdown();
                let closed = tokio::time::timeout(EVICTION_GRACE, connection.as_mut()).await;
                if closed.is_err() && (shutdown.is_cancelled() || place.slot.in_flight()) {
                    let _ = connection.await;
                }
            }
        }
        drop(place);
    }
}

/// Gives the memory freed after a burst back to the system once no request has come for
/// [`QUIET`]: mimalloc returns freed memory after a delay, when it next allocates, which an idle
/// server does not (three 16 MiB requests left 100 MiB resident).
async fn give_back_memory(requests: Arc<AtomicU64>, shutdown: CancellationToken) {
    let mut tick = tokio::time::interval(QUIET);
    let (mut seen, mut collected) = (0, 0);
    loop {
        tokio::select! {
            () = shutdown.cancelled() => return,
            _ = tick.tick() => {}
        }
        let now = requests.load(Ordering::Relaxed);
        if now == seen && now != collected {
            // SAFETY: mi_collect takes no pointer; it frees what this thread's heap no longer
            // uses and purges the free memory of mimalloc's arenas, for every thread.
            unsafe { libmimalloc_sys::mi_collect(true) };
            collected = now;
        }
        seen = now;
    }
}

/// MCP over Streamable HTTP: stateless, JSON replies.
fn mcp_service(
    service: &Arc<Service>,
    settings: &Settings,
    shutdown: CancellationToken,
) -> StreamableHttpService<Tools, NeverSessionManager> {
    let mut config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_sse_keep_alive(None)
        .with_max_request_body_bytes(MAX_BODY_BYTES)
        .with_cancellation_token(shutdown);
    if !settings.loopback {
        config = config.disable_allowed_hosts();
    }
    let tools = Tools::new(Arc::clone(service));
    StreamableHttpService::new(
        move || Ok(tools.clone()),
        Arc::new(NeverSessionManager::default()),
        config,
    )
}

/// The whole application: every route, the fallbacks for an unknown route or method, the
/// per-client rate limit and the log line with CORS. `serve` runs it on each connection; the
/// tests call it in process (`tower::ServiceExt::oneshot`). A request's client is the
/// `ConnectInfo<SocketAddr>` extension `serve` inserts; a request without one is not limited.
pub fn router(app: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(home))
        .route("/assets/style.css", get(style_css))
        .route("/assets/render.js", get(render_js))
        .route("/assets/page.js", get(page_js))
        .route("/assets/report.js", get(report_js))
        .route("/healthz", get(health))
        .route("/methodology", get(methodology))
        .route("/api/v1/calculate", post(calculate))
        .route("/api/v1/quote", post(quote))
        .route("/api/v1/tool", get(tool))
        .route("/api/v1/openapi.json", get(openapi_document))
        .route("/mcp", any(mcp))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(middleware::from_fn_with_state(Arc::clone(&app), limit))
        .layer(middleware::from_fn_with_state(
            Arc::clone(&app),
            log_and_cors,
        ))
        .with_state(app)
}

/// The per-client token bucket, for every route but `/healthz`.
async fn limit(
    State(app): State<Arc<AppState>>,
    request: Request,
    next: Next,
) -> Result<Response, Problem> {
    if request.uri().path() != "/healthz" {
        let client = request
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(peer)| peer.ip());
        if let Some(client) = client
            && let Err(not_until) = app.limiter.check_key(&client)
        {
            let wait = not_until.wait_time_from(governor::clock::Clock::now(
                &governor::clock::DefaultClock::default(),
            ));
            let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
            return Err(Problem::rate_limited(seconds));
        }
    }
    Ok(next.run(request).await)
}

/// One line per request on stderr (method, path, status, duration, size), and the CORS header
/// when one was asked for.
async fn log_and_cors(State(app): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    // `/mcp` reads the documents folder: a page of the --cors origin may call it only when
    // --cors-mcp says so.
    let cors = app.cors.as_ref().filter(|_| app.cors_mcp || path != "/mcp");
    let preflight = method == Method::OPTIONS && cors.is_some();
    let mut response = if preflight {
        StatusCode::NO_CONTENT.into_response()
    } else {
        next.run(request).await
    };
    if let Some(origin) = cors {
        let headers = response.headers_mut();
        headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin.clone());
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_METHODS,
            HeaderValue::from_static("GET, POST, OPTIONS"),
        );
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_HEADERS,
            HeaderValue::from_static(
                "content-type, accept, mcp-protocol-version, mcp-method, mcp-name",
            ),
        );
    }
    let size = match axum::body::HttpBody::size_hint(response.body()).exact() {
        Some(bytes) => format!("{bytes}B"),
        None => "-".to_string(),
    };
    let line = format!(
        "{method} {path} {} {:.1}ms {size}",
        response.status().as_u16(),
        started.elapsed().as_secs_f64() * 1000.0
    );
    // Control, bidirectional and invisible characters of the path never reach the log as such.
    eprintln!("{}", ragcite::escape::printable_line(&line));
    response
}

/// `/mcp`: a POST is read, admitted and scanned by [`McpRequest`] (its refusals are problem
/// documents), then handed to rmcp; rmcp's own refusals (406, 415, 403, 405, ...) come back
/// as problem documents too.
async fn mcp(State(app): State<Arc<AppState>>, request: McpRequest) -> Response {
    // `_admission` holds a POST's body bytes and its place in the queue until the answer.
    let (request, _admission) = match request {
        McpRequest::Post { request, admission } => (request, Some(admission)),
        McpRequest::Other(request) => (request, None),
    };
    mcp_problem(app.mcp.handle(request).await.map(Body::new)).await
}

/// An error rmcp wrote as plain text, as a problem document with its status; a JSON-RPC reply
/// (or a success) goes through unchanged. A body that is JSON but not a JSON-RPC message is a
/// 400, not rmcp's 415.
async fn mcp_problem(response: Response) -> Response {
    let status = response.status();
    let essence = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(|v| v.trim().to_ascii_lowercase())
        .unwrap_or_default();
    let structured = matches!(
        essence.as_str(),
        "application/json" | "application/problem+json" | "text/event-stream"
    );
    if status.is_success() || status.is_informational() || structured {
        return response;
    }
    let (parts, body) = response.into_parts();
    // rmcp's texts are one sentence; more is cut.
    let text = match tokio::time::timeout(
        Duration::from_secs(5),
        http_body_util::Limited::new(body, 4096).collect(),
    )
    .await
    {
        Ok(Ok(collected)) => String::from_utf8_lossy(&collected.to_bytes()).into_owned(),
        _ => String::new(),
    };
    let detail: String = text
        .trim()
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(500)
        .collect();
    let (status, title, code) = match status.as_u16() {
        415 if detail.starts_with("fail to deserialize") => {
            (400, "Not a JSON-RPC message", "invalid-message")
        }
        400 => (400, "Bad request", "bad-request"),
        403 => (403, "Forbidden", "forbidden"),
        404 => (404, "Not found", "not-found"),
        405 => (405, "Method not allowed", "method-not-allowed"),
        406 => (406, "Not acceptable", "not-acceptable"),
        413 => (413, "Request body too large", "too-large"),
        415 => (415, "Unsupported media type", "unsupported-media-type"),
        other => (
            other,
            status.canonical_reason().unwrap_or("Error"),
            if other >= 500 {
                "internal"
            } else {
                "mcp-error"
            },
        ),
    };
    let detail = if detail.is_empty() {
        format!("MCP refused the request ({status})")
    } else {
        detail
    };
    let refused = Problem::new(status, title, code, detail);
    match parts.headers.get(header::ALLOW) {
        Some(allow) => refused.allow(allow.clone()).into_response(),
        None => refused.into_response(),
    }
}

/// `POST /api/v1/calculate`: the envelope, or 503 when the check ran past `--check-timeout`.
async fn calculate(
    State(app): State<Arc<AppState>>,
    checked: Admitted<CalculateRequest>,
) -> Result<Json<serde_json::Value>, Problem> {
    // `checked.admission` holds the body's bytes and the queue's place until the answer.
    match app.service.calculate(checked.client, checked.request).await {
        Ok(envelope) => Ok(Json(envelope)),
        Err(timed_out) => Err(timed_out.problem().into()),
    }
}

/// `POST /api/v1/quote`: where the quote is in the document, or where it drifted.
async fn quote(
    State(app): State<Arc<AppState>>,
    checked: Admitted<QuoteRequest>,
) -> Result<Json<Verification>, Problem> {
    // `checked.admission` holds the body's bytes and the queue's place until the answer.
    let request = checked.request;
    let verify = VerifyRequest {
        quote: request.quote,
        document: DocumentRef::Text(request.document),
        chunk_id: None,
    };
    match app.service.verify(checked.client, verify).await {
        Ok(verification) => Ok(Json(verification)),
        Err(_) => Err(Problem::internal()),
    }
}

async fn tool(State(app): State<Arc<AppState>>) -> Json<serde_json::Value> {
    Json(tool_definition(&app.service.base_url))
}

async fn openapi_document(State(app): State<Arc<AppState>>) -> Json<serde_json::Value> {
    Json(openapi(&app.service.base_url))
}

/// Alive, with the version and which support model the checks use (`shipped`, `formula` or
/// `file`: the path of a model file stays on the server).
async fn health(State(app): State<Arc<AppState>>) -> Json<serde_json::Value> {
    Json(serde_json::json!({
        "status": "ok",
        "version": env!("CARGO_PKG_VERSION"),
        "model": app.service.model_name,
    }))
}

async fn methodology() -> Response {
    (
        [(header::CONTENT_TYPE, "text/markdown; charset=utf-8")],
        include_str!("../../docs/methodology.md"),
    )
        .into_response()
}

/// The page's Content-Security-Policy: its own scripts, styles and API only.
pub const PAGE_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The page for people: the form, and the result rendered from `/api/v1/calculate`.
async fn home() -> Response {
    let mut response = axum::response::Html(ragcite::emit::html::page_html()).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(PAGE_CSP),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// The page's stylesheet and scripts, cached for a day (they change only with the binary).
fn asset(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "public, max-age=86400"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        body,
    )
        .into_response()
}

async fn style_css() -> Response {
    asset("text/css; charset=utf-8", ragcite::emit::html::STYLE_CSS)
}

async fn render_js() -> Response {
    asset(
        "text/javascript; charset=utf-8",
        ragcite::emit::html::RENDER_JS,
    )
}

async fn report_js() -> Response {
    asset(
        "text/javascript; charset=utf-8",
        ragcite::emit::html::REPORT_JS,
    )
}

async fn page_js() -> Response {
    asset(
        "text/javascript; charset=utf-8",
        ragcite::emit::html::PAGE_JS,
    )
}

async fn not_found(uri: Uri) -> Problem {
    Problem::not_found(uri.path())
}

async fn method_not_allowed(method: Method, uri: Uri) -> Problem {
    Problem::method_not_allowed(&method, uri.path())
}
