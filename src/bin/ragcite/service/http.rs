//! The HTTP server of `ragcite serve`: the original contract's API, ragcite's additions, MCP at
//! `/mcp`, and the limits that keep it up: a body cap above the longest valid request, a body
//! read timeout, a token bucket per client (429), load shedding when the checks queue up
//! (503), a cap on open connections, a header read timeout, and a graceful shutdown. Every
//! error is an RFC 9457 problem document; one line per request goes to stderr, never a body.

use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use ragcite::api::Problem;
use ragcite::api::contract::{openapi, tool_definition};
use ragcite::api::request::{CalculateRequest, DocumentRef, QuoteRequest, VerifyRequest};
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tower::ServiceExt;

use super::Service;
use super::mcp::Tools;

/// The largest body read: above the longest request whose fields are only too long (a
/// calculate's 100,000 + 500,000 characters, a quote's 1,000,000 + 100,000, each character at
/// most 12 bytes as an escaped surrogate pair), so that it gets the contract's 422, not a 413.
pub const MAX_BODY_BYTES: usize = 16 * 1024 * 1024;
/// Connections open at once; beyond, a new one is closed as soon as it is accepted.
const MAX_CONNECTIONS: usize = 1024;
/// Requests waiting for a check, per check that may run at once; beyond, 503.
const QUEUE_PER_WORKER: usize = 8;

/// How the server runs.
#[derive(Debug, Clone)]
pub struct Settings {
    pub max_concurrent: usize,
    /// Requests per second per client, and the burst.
    pub rate_limit: NonZeroU32,
    /// `Access-Control-Allow-Origin` for this origin; no CORS header without it.
    pub cors: Option<String>,
    /// How long a client may take to send its headers, and again its body.
    pub timeout: Duration,
    /// Bound to a loopback address: MCP then accepts only loopback `Host` headers (against DNS
    /// rebinding); bound elsewhere, the operator chose to expose it and any host is accepted.
    pub loopback: bool,
}

struct App {
    service: Arc<Service>,
    limiter: DefaultKeyedRateLimiter<IpAddr>,
    /// Requests admitted to wait for or run a check.
    queue: Semaphore,
    cors: Option<HeaderValue>,
    timeout: Duration,
}

/// Serves until `shutdown` is cancelled, then lets in-flight requests finish.
pub async fn serve(
    listener: TcpListener,
    service: Arc<Service>,
    settings: Settings,
    shutdown: CancellationToken,
) -> std::io::Result<()> {
    let app = Arc::new(App {
        limiter: RateLimiter::keyed(Quota::per_second(settings.rate_limit)),
        queue: Semaphore::new(settings.max_concurrent.max(1) * QUEUE_PER_WORKER),
        cors: settings
            .cors
            .as_deref()
            .and_then(|origin| HeaderValue::from_str(origin).ok()),
        service: Arc::clone(&service),
        timeout: settings.timeout,
    });
    let router = router(
        Arc::clone(&app),
        &service,
        &settings,
        shutdown.child_token(),
    );
    let connections = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let graceful = GracefulShutdown::new();
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(settings.timeout)
        .keep_alive(true);
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
        let Ok(permit) = Arc::clone(&connections).try_acquire_owned() else {
            drop(stream);
            continue;
        };
        let router = router.clone();
        let service = TowerToHyperService::new(router.map_request(
            move |request: hyper::Request<hyper::body::Incoming>| {
                let mut request = request.map(Body::new);
                request.extensions_mut().insert(ConnectInfo(peer));
                request
            },
        ));
        let connection = builder
            .serve_connection_with_upgrades(TokioIo::new(stream), service)
            .into_owned();
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            let _ = connection.await;
            drop(permit);
        });
    }
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}

fn router(
    app: Arc<App>,
    service: &Arc<Service>,
    settings: &Settings,
    shutdown: CancellationToken,
) -> Router {
    let mut mcp_config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_sse_keep_alive(None)
        .with_max_request_body_bytes(MAX_BODY_BYTES)
        .with_cancellation_token(shutdown);
    if !settings.loopback {
        mcp_config = mcp_config.disable_allowed_hosts();
    }
    let tools = Tools::new(Arc::clone(service));
    let mcp = StreamableHttpService::new(
        move || Ok(tools.clone()),
        Arc::new(NeverSessionManager::default()),
        mcp_config,
    );
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
        .nest_service("/mcp", mcp)
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(middleware::from_fn_with_state(Arc::clone(&app), limit))
        .layer(middleware::from_fn_with_state(
            Arc::clone(&app),
            log_and_cors,
        ))
        .with_state(app)
}

/// A problem document with its status.
fn problem(problem: Problem) -> Response {
    let status = StatusCode::from_u16(problem.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = (status, axum::Json(&problem)).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/problem+json"),
    );
    response
}

/// A problem that asks the client to come back in `seconds` (at least 1).
fn retry_after(mut response: Response, seconds: u64) -> Response {
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(seconds.max(1)));
    response
}

/// The per-client token bucket, for every route but `/healthz`.
async fn limit(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
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
            return retry_after(
                problem(Problem::new(
                    429,
                    "Too many requests",
                    "rate-limited",
                    format!(
                        "this client is over the rate limit; retry in {} s",
                        seconds.max(1)
                    ),
                )),
                seconds,
            );
        }
    }
    next.run(request).await
}

/// One line per request on stderr (method, path, status, duration, size), and the CORS header
/// when one was asked for.
async fn log_and_cors(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let preflight = method == Method::OPTIONS && app.cors.is_some();
    let mut response = if preflight {
        StatusCode::NO_CONTENT.into_response()
    } else {
        next.run(request).await
    };
    if let Some(origin) = &app.cors {
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
    // Control characters of the path never reach the log as such.
    let line: String = line
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    eprintln!("{line}");
    response
}

/// The body, read within the limits: 413 beyond [`MAX_BODY_BYTES`], 408 when too slow.
async fn read_body(app: &App, request: Request) -> Result<Bytes, Response> {
    // A body announced over the limit is refused before it is read.
    let announced = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if announced.is_some_and(|length| length > MAX_BODY_BYTES as u64) {
        return Err(too_large());
    }
    let body = request.into_body();
    match tokio::time::timeout(app.timeout, axum::body::to_bytes(body, MAX_BODY_BYTES)).await {
        Err(_) => Err(problem(Problem::new(
            408,
            "Request timeout",
            "timeout",
            format!("the body did not arrive within {} s", app.timeout.as_secs()),
        ))),
        Ok(Err(e)) if is_too_long(&e) => Err(too_large()),
        Ok(Err(e)) => Err(problem(Problem::new(
            400,
            "Unreadable body",
            "unreadable-body",
            format!("the body could not be read: {e}"),
        ))),
        Ok(Ok(bytes)) => Ok(bytes),
    }
}

fn too_large() -> Response {
    problem(Problem::new(
        413,
        "Request body too large",
        "too-large",
        format!("the body is over {MAX_BODY_BYTES} bytes"),
    ))
}

/// Whether reading a body stopped at the length limit.
fn is_too_long(error: &axum::Error) -> bool {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(e) = cause {
        if e.is::<http_body_util::LengthLimitError>() {
            return true;
        }
        cause = e.source();
    }
    false
}

/// The answer when the checks' queue is full: 503, retry in a second.
fn overloaded() -> Response {
    retry_after(
        problem(Problem::new(
            503,
            "Overloaded",
            "overloaded",
            "too many checks are waiting; retry in a second",
        )),
        1,
    )
}

async fn calculate(State(app): State<Arc<App>>, request: Request) -> Response {
    let body = match read_body(&app, request).await {
        Ok(body) => body,
        Err(response) => return response,
    };
    // Admitted to the checks' queue, or shed.
    let Ok(_admitted) = app.queue.try_acquire() else {
        return overloaded();
    };
    let parsed = tokio::task::spawn_blocking(move || CalculateRequest::from_body(&body)).await;
    match parsed {
        Ok(Ok(request)) => match app.service.calculate(request).await {
            Ok(envelope) => axum::Json(envelope).into_response(),
            Err(timed_out) => problem(timed_out.problem()),
        },
        Ok(Err(e)) => problem(Problem::from_request(e)),
        Err(_) => internal_error(),
    }
}

async fn quote(State(app): State<Arc<App>>, request: Request) -> Response {
    let body = match read_body(&app, request).await {
        Ok(body) => body,
        Err(response) => return response,
    };
    // Admitted to the checks' queue, or shed.
    let Ok(_admitted) = app.queue.try_acquire() else {
        return overloaded();
    };
    let request = match QuoteRequest::from_body(&body) {
        Ok(request) => request,
        Err(e) => return problem(Problem::from_request(e)),
    };
    let verify = VerifyRequest {
        quote: request.quote,
        document: DocumentRef::Text(request.document),
        chunk_id: None,
    };
    match app.service.verify(verify).await {
        Ok(verification) => axum::Json(verification).into_response(),
        Err(_) => internal_error(),
    }
}

fn internal_error() -> Response {
    problem(Problem::new(
        500,
        "Internal error",
        "internal",
        "the check failed; this is a bug in ragcite",
    ))
}

async fn tool(State(app): State<Arc<App>>) -> Response {
    axum::Json(tool_definition(&app.service.base_url)).into_response()
}

async fn openapi_document(State(app): State<Arc<App>>) -> Response {
    axum::Json(openapi(&app.service.base_url)).into_response()
}

/// Alive, with the version and which support model the checks use (`shipped`, `formula` or
/// `file`: the path of a model file stays on the server).
async fn health(State(app): State<Arc<App>>) -> Response {
    axum::Json(serde_json::json!({
        "status": "ok",
        "version": env!("CARGO_PKG_VERSION"),
        "model": app.service.model_name,
    }))
    .into_response()
}

async fn methodology() -> Response {
    (
        [(header::CONTENT_TYPE, "text/markdown; charset=utf-8")],
        include_str!("../../../../docs/methodology.md"),
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

async fn not_found(request: Request) -> Response {
    problem(Problem::new(
        404,
        "Not found",
        "not-found",
        format!("no resource at {}", request.uri().path()),
    ))
}

async fn method_not_allowed(request: Request) -> Response {
    problem(Problem::new(
        405,
        "Method not allowed",
        "method-not-allowed",
        format!(
            "{} is not allowed on {}",
            request.method(),
            request.uri().path()
        ),
    ))
}
