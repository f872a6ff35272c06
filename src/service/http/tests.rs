//! The HTTP API in process, in the shape of axum's `examples/testing`: [`router`] called with
//! `tower::ServiceExt::oneshot`, no socket and no binary. Every status the API answers with
//! (200, 204, 400, 403, 404, 405, 406, 408, 413, 415, 422, 429, 500, 503), each problem
//! document's bytes, `Content-Type`, `Retry-After` and `Allow`, and each one valid against the
//! original contract's `Problem` schema. A request is handed on as `serve` hands it: from a
//! client address (`ConnectInfo`), to a loopback `Host`. What needs a socket, a signal, idle or
//! slow connections or stdio stays black-box, in `tests/cli/` (`service.rs`, `transport.rs`,
//! `service_hostile.rs`, `check_timeout.rs`).

use std::collections::VecDeque;
use std::net::{Ipv4Addr, SocketAddr};
use std::num::NonZeroU32;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, Request};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;
use hyper::body::Frame;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use tower::ServiceExt;

use super::{
    AppState, MAX_BODY_BYTES, MAX_MCP_VALUES, PAGE_CSP, Problem, Settings, mcp_problem, router,
};
use crate::service::Service;

const BASE_URL: &str = "http://127.0.0.1:8080";
const MIB: usize = 1024 * 1024;

fn settings() -> Settings {
    Settings {
        max_concurrent: 1,
        rate_limit: NonZeroU32::new(1000).expect("not zero"),
        cors: None,
        cors_mcp: false,
        timeout: Duration::from_secs(30),
        max_connections: 1024,
        max_connections_per_client: 64,
        loopback: true,
    }
}

/// The state of a server with `settings`, the formula's scores and a deadline per check.
fn state_with(settings: &Settings, check_timeout: Duration) -> Arc<AppState> {
    let origin = crate::service::Origin {
        base_url: BASE_URL.to_string(),
        config: ragcite::emit::ConfigUsed::isolated(),
    };
    let service = Service::new(
        origin,
        None,
        "formula",
        ragcite::Model::formula(),
        settings.max_concurrent,
        settings.max_concurrent,
        check_timeout,
    );
    AppState::new(service, settings, &CancellationToken::new())
}

fn state() -> Arc<AppState> {
    state_with(&settings(), Duration::from_secs(10))
}

fn app() -> Router {
    router(state())
}

/// A client address; `peer(1)` is 127.0.0.1.
fn peer(last: u8) -> SocketAddr {
    SocketAddr::from((Ipv4Addr::new(127, 0, 0, last), 50_000))
}

/// A request as `serve` hands it to the router: from 127.0.0.1, to a loopback `Host`.
fn request(method: Method, uri: &str, body: Body) -> Request {
    from(peer(1), method, uri, body)
}

fn from(peer: SocketAddr, method: Method, uri: &str, body: Body) -> Request {
    let mut request = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::HOST, "127.0.0.1:8080")
        .body(body)
        .expect("a request");
    request.extensions_mut().insert(ConnectInfo(peer));
    request
}

fn get(uri: &str) -> Request {
    request(Method::GET, uri, Body::empty())
}

fn post(uri: &str, body: impl Into<Body>) -> Request {
    let mut request = request(Method::POST, uri, body.into());
    request.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    request
}

/// A POST to `/mcp` as an MCP client sends it.
fn mcp_post(body: impl Into<Body>) -> Request {
    let mut request = post("/mcp", body);
    request.headers_mut().insert(
        header::ACCEPT,
        HeaderValue::from_static("application/json, text/event-stream"),
    );
    request
}

/// `request` announcing a body of `length` bytes.
fn announcing(mut request: Request, length: usize) -> Request {
    request
        .headers_mut()
        .insert(header::CONTENT_LENGTH, HeaderValue::from(length));
    request
}

/// The contract's worked example request.
fn example() -> Value {
    contract()["paths"]["/api/v1/calculate"]["post"]["requestBody"]["content"]
        ["application/json"]["examples"]["example1"]["value"]
        .clone()
}

fn contract() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/schemas/rag-citation-debugger.openapi.json"
    );
    let text = std::fs::read_to_string(path).expect("the contract");
    serde_json::from_str(&text).expect("the contract is JSON")
}

fn tool_call(name: &str, arguments: Value) -> Vec<u8> {
    json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
           "params": {"name": name, "arguments": arguments}})
    .to_string()
    .into_bytes()
}

/// A response, its body read.
struct Answer {
    status: StatusCode,
    headers: HeaderMap,
    body: String,
}

async fn send(app: &Router, request: Request) -> Answer {
    let Ok(response) = app.clone().oneshot(request).await;
    read(response).await
}

async fn read(response: Response) -> Answer {
    let (parts, body) = response.into_parts();
    let bytes = body.collect().await.expect("a body").to_bytes();
    Answer {
        status: parts.status,
        headers: parts.headers,
        body: String::from_utf8(bytes.to_vec()).expect("a text body"),
    }
}

impl Answer {
    fn header(&self, name: header::HeaderName) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }

    /// A problem document of `status`, `title` and `code`, valid against the contract, whatever
    /// its detail (the library's texts: serde_json's, the fields').
    #[track_caller]
    fn problem(&self, status: u16, title: &str, code: &str) -> Value {
        assert_eq!(self.status.as_u16(), status, "{}", self.body);
        assert_eq!(
            self.header(header::CONTENT_TYPE),
            Some("application/problem+json")
        );
        let problem = self.json();
        assert_valid_problem(&problem);
        assert_eq!(problem["type"], "about:blank", "{problem}");
        assert_eq!(problem["status"], status, "{problem}");
        assert_eq!(problem["title"], title, "{problem}");
        assert_eq!(problem["code"], code, "{problem}");
        problem
    }

    /// A problem document, to the byte: the server's own texts.
    #[track_caller]
    fn exactly(&self, status: u16, title: &str, code: &str, detail: &str) {
        self.problem(status, title, code);
        let expected = format!(
            r#"{{"type":"about:blank","title":{},"status":{status},"detail":{},"code":{}}}"#,
            Value::from(title),
            Value::from(detail),
            Value::from(code)
        );
        assert_eq!(self.body, expected);
    }
}

/// Valid against the original contract's `Problem` schema (RFC 9457's members and ours).
#[track_caller]
fn assert_valid_problem(instance: &Value) {
    let schema = contract()["components"]["schemas"]["Problem"].clone();
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(&schema)
        .expect("the contract's schema compiles");
    let problems: Vec<String> = validator
        .iter_errors(instance)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect();
    assert!(problems.is_empty(), "not a Problem: {problems:?}");
}

/// A body that sends `frames`, then ends, fails, or waits for ever: what a client on a
/// connection sends, without the connection.
struct Trickle {
    frames: VecDeque<Bytes>,
    then: Then,
}

#[derive(Clone, Copy)]
enum Then {
    End,
    Fail,
    Stall,
}

impl Trickle {
    fn body(frames: impl IntoIterator<Item = Bytes>, then: Then) -> Body {
        Body::new(Trickle {
            frames: frames.into_iter().collect(),
            then,
        })
    }
}

impl hyper::body::Body for Trickle {
    type Data = Bytes;
    type Error = std::io::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, std::io::Error>>> {
        let this = self.get_mut();
        if let Some(data) = this.frames.pop_front() {
            return Poll::Ready(Some(Ok(Frame::data(data))));
        }
        match this.then {
            Then::End => Poll::Ready(None),
            Then::Fail => Poll::Ready(Some(Err(std::io::Error::other("connection reset")))),
            // The read's timeout wakes the task.
            Then::Stall => Poll::Pending,
        }
    }
}

#[tokio::test]
async fn pages_documents_and_the_health_check_are_200() {
    let app = app();
    let page = send(&app, get("/")).await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(
        page.header(header::CONTENT_TYPE),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(page.header(header::CONTENT_SECURITY_POLICY), Some(PAGE_CSP));
    assert_eq!(page.header(header::X_CONTENT_TYPE_OPTIONS), Some("nosniff"));
    assert_eq!(page.header(header::CACHE_CONTROL), Some("no-cache"));
    for (route, content_type) in [
        ("/assets/style.css", "text/css; charset=utf-8"),
        ("/assets/render.js", "text/javascript; charset=utf-8"),
        ("/assets/page.js", "text/javascript; charset=utf-8"),
        ("/assets/report.js", "text/javascript; charset=utf-8"),
    ] {
        let asset = send(&app, get(route)).await;
        assert_eq!(asset.status, StatusCode::OK, "{route}");
        assert_eq!(asset.header(header::CONTENT_TYPE), Some(content_type));
        assert_eq!(
            asset.header(header::CACHE_CONTROL),
            Some("public, max-age=86400")
        );
        assert_eq!(
            asset.header(header::X_CONTENT_TYPE_OPTIONS),
            Some("nosniff")
        );
    }
    let methodology = send(&app, get("/methodology")).await;
    assert_eq!(methodology.status, StatusCode::OK);
    assert_eq!(
        methodology.header(header::CONTENT_TYPE),
        Some("text/markdown; charset=utf-8")
    );
    let health = send(&app, get("/healthz")).await;
    assert_eq!(health.status, StatusCode::OK);
    assert_eq!(
        health.header(header::CONTENT_TYPE),
        Some("application/json")
    );
    assert_eq!(
        health.json(),
        json!({"status": "ok", "version": env!("CARGO_PKG_VERSION"), "model": "formula"})
    );
    let head = send(&app, request(Method::HEAD, "/healthz", Body::empty())).await;
    assert_eq!(head.status, StatusCode::OK);
    assert_eq!(head.body, "");
    let tool = send(&app, get("/api/v1/tool")).await;
    assert_eq!(tool.status, StatusCode::OK);
    assert_eq!(
        tool.json()["endpoint"],
        format!("{BASE_URL}/api/v1/calculate")
    );
    let openapi = send(&app, get("/api/v1/openapi.json")).await;
    assert_eq!(openapi.status, StatusCode::OK);
    assert_eq!(openapi.json()["servers"][0]["url"], BASE_URL);
}

#[tokio::test]
async fn a_calculate_and_a_quote_are_200() {
    let app = app();
    let reply = send(&app, post("/api/v1/calculate", example().to_string())).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(reply.header(header::CONTENT_TYPE), Some("application/json"));
    let envelope = reply.json();
    assert_eq!(
        envelope["links"]["api"],
        format!("{BASE_URL}/api/v1/calculate")
    );
    assert_eq!(
        envelope["result"]["sentences"].as_array().map(Vec::len),
        Some(4)
    );
    // The Content-Type is not looked at, nor a length required.
    let untyped = request(
        Method::POST,
        "/api/v1/calculate",
        Body::from(example().to_string()),
    );
    assert_eq!(send(&app, untyped).await.body, reply.body);
    let document = "Construction of the tower began in 1887 and it was completed in 1889.";
    let quote = json!({"document": document, "quote": "“it was completed in 1889”"});
    let found = send(&app, post("/api/v1/quote", quote.to_string())).await;
    assert_eq!(found.status, StatusCode::OK, "{}", found.body);
    assert_eq!(found.header(header::CONTENT_TYPE), Some("application/json"));
    assert_eq!(found.json()["found"], true);
    assert_eq!(found.json()["offsets"], json!([44, 68]));
}

#[tokio::test]
async fn malformed_and_unreadable_bodies_are_400() {
    let app = app();
    let nested = "[".repeat(100_000);
    for body in [
        &b"{"[..],
        b"",
        b"\xff\xfe{}",
        b"{\"answer\": \"\xc3\x28\"}",
        nested.as_bytes(),
    ] {
        let reply = send(&app, post("/api/v1/calculate", body.to_vec())).await;
        reply.problem(400, "Malformed JSON body", "malformed-json");
    }
    send(&app, post("/api/v1/quote", "nope")).await.problem(
        400,
        "Malformed JSON body",
        "malformed-json",
    );
    // The connection fails halfway through the body.
    for route in ["/api/v1/calculate", "/api/v1/quote", "/mcp"] {
        let body = Trickle::body([Bytes::from_static(b"{\"ans")], Then::Fail);
        let mut request = mcp_post(body);
        *request.uri_mut() = route.parse().expect("a route");
        send(&app, request).await.exactly(
            400,
            "Unreadable body",
            "unreadable-body",
            "the body could not be read: connection reset",
        );
    }
}

#[tokio::test]
async fn unknown_routes_are_404_and_wrong_methods_405_with_allow() {
    let app = app();
    send(&app, get("/nowhere")).await.exactly(
        404,
        "Not found",
        "not-found",
        "no resource at /nowhere",
    );
    // The path as sent, not decoded.
    send(&app, get("/assets/none%20.js")).await.exactly(
        404,
        "Not found",
        "not-found",
        "no resource at /assets/none%20.js",
    );
    let reply = send(&app, get("/api/v1/calculate")).await;
    reply.exactly(
        405,
        "Method not allowed",
        "method-not-allowed",
        "GET is not allowed on /api/v1/calculate",
    );
    assert_eq!(reply.header(header::ALLOW), Some("POST"));
    let reply = send(&app, request(Method::DELETE, "/healthz", Body::empty())).await;
    reply.exactly(
        405,
        "Method not allowed",
        "method-not-allowed",
        "DELETE is not allowed on /healthz",
    );
    assert_eq!(reply.header(header::ALLOW), Some("GET,HEAD"));
}

#[tokio::test]
async fn bodies_over_16_mib_are_413_before_or_as_they_are_read() {
    let app = app();
    let too_large = format!("the body is over {MAX_BODY_BYTES} bytes");
    // Announced over the limit: refused before a byte is read.
    for route in ["/api/v1/calculate", "/api/v1/quote", "/mcp"] {
        let mut request = announcing(mcp_post(Body::empty()), MAX_BODY_BYTES + 1);
        *request.uri_mut() = route.parse().expect("a route");
        send(&app, request)
            .await
            .exactly(413, "Request body too large", "too-large", &too_large);
    }
    // Of no announced length: refused once it goes over.
    let mebibyte = Bytes::from(vec![b' '; MIB]);
    let body = Trickle::body(vec![mebibyte.clone(); 17], Then::End);
    send(&app, post("/api/v1/calculate", body)).await.exactly(
        413,
        "Request body too large",
        "too-large",
        &too_large,
    );
    // At the limit exactly, it is read (and found empty of JSON).
    let body = Trickle::body(vec![mebibyte; 16], Then::End);
    let request = announcing(post("/api/v1/calculate", body), MAX_BODY_BYTES);
    send(&app, request)
        .await
        .problem(400, "Malformed JSON body", "malformed-json");
}

#[tokio::test]
async fn an_mcp_body_of_too_many_values_is_413_before_it_is_parsed() {
    let app = app();
    // Two megabytes of zeros in an argument the tool does not take.
    let mut arguments = example();
    arguments["extra"] = Value::Array(vec![json!(0); 1_000_000]);
    let reply = send(
        &app,
        mcp_post(tool_call("rag_citation_debugger", arguments)),
    )
    .await;
    let problem = reply.problem(413, "Request body too large", "too-many-values");
    assert!(
        problem["detail"]
            .as_str()
            .is_some_and(|d| d.contains(&MAX_MCP_VALUES.to_string())),
        "{problem}"
    );
    // A call at the size limits of the contract is far below the count.
    let answer = "The tower was built in 1889 [1]. ".repeat(3_000);
    let chunks = json!([{"id": "1", "text": "The tower was built in 1889."}]).to_string();
    let call = tool_call(
        "rag_citation_debugger",
        json!({"answer": answer, "chunks": chunks}),
    );
    let reply = send(&app, mcp_post(call)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
}

/// A body of `count` unknown keys (and no known field).
fn unknown_keys(count: usize) -> String {
    let object: serde_json::Map<String, Value> = (0..count)
        .map(|k| (format!("unknown{k:05}"), json!(1)))
        .collect();
    Value::Object(object).to_string()
}

#[tokio::test]
async fn every_invalid_field_is_listed_in_a_422() {
    let app = app();
    let body = json!({"answer": "é".repeat(100_001), "supportThreshold": 3, "extra": 1});
    let problem = send(&app, post("/api/v1/calculate", body.to_string()))
        .await
        .problem(422, "Invalid input", "invalid-input");
    let fields: Vec<&str> = problem["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| e["field"].as_str().expect("field"))
        .collect();
    assert_eq!(fields, ["extra", "answer", "chunks", "supportThreshold"]);
    assert_eq!(
        problem["detail"],
        "4 invalid fields: extra, answer, chunks, supportThreshold"
    );
    assert!(
        problem["errors"][1]["message"]
            .as_str()
            .is_some_and(|m| m.contains("100,001 characters"))
    );
    assert_eq!(problem.get("moreErrors"), None);
    // 100,000 characters of two bytes each are within the limit.
    let mut answer = "é".repeat(99_990);
    answer.push_str(" tall [1].");
    let body = json!({"answer": answer, "chunks": example()["chunks"]});
    let reply = send(&app, post("/api/v1/calculate", body.to_string())).await;
    assert_eq!(reply.status, StatusCode::OK);
    // Chunks that cannot be read are a field problem too.
    let body = json!({"answer": "The tower is tall [1].", "chunks": "{\"x\": 1}"});
    let problem = send(&app, post("/api/v1/calculate", body.to_string()))
        .await
        .problem(422, "Invalid input", "invalid-input");
    assert_eq!(problem["errors"][0]["field"], "chunks");
    let problem = send(&app, post("/api/v1/quote", r#"{"quote": "x"}"#))
        .await
        .problem(422, "Invalid input", "invalid-input");
    assert_eq!(problem["errors"][0]["field"], "document");
}

#[tokio::test]
async fn a_422_lists_the_first_hundred_problems_then_a_count() {
    let app = app();
    // 5,000 unknown keys, and the missing answer and chunks: 5,002 problems.
    let body = unknown_keys(5_000);
    for route in ["/api/v1/calculate", "/api/v1/quote"] {
        let reply = send(&app, post(route, body.clone())).await;
        assert!(reply.body.len() < 32 * 1024, "{} bytes", reply.body.len());
        let problem = reply.problem(422, "Invalid input", "invalid-input");
        let errors = problem["errors"].as_array().expect("errors");
        assert_eq!(errors.len(), 100);
        assert_eq!(errors[0]["field"], "unknown00000");
        assert_eq!(problem["moreErrors"], 4_902);
        let detail = problem["detail"].as_str().expect("detail");
        assert!(detail.starts_with("5,002 invalid fields: "), "{detail}");
        assert!(detail.ends_with(", and 4,902 more"), "{detail}");
    }
    // A key of 100,000 characters is named by its beginning.
    let long = "k".repeat(100_000);
    let reply = send(
        &app,
        post("/api/v1/calculate", json!({ long: 1 }).to_string()),
    )
    .await;
    assert!(reply.body.len() < 4 * 1024, "{} bytes", reply.body.len());
    let problem = reply.problem(422, "Invalid input", "invalid-input");
    let field = problem["errors"][0]["field"].as_str().expect("field");
    assert!(field.starts_with("kkk") && field.ends_with('…'), "{field}");
}

#[tokio::test]
async fn duplicate_keys_are_refused_by_name() {
    let app = app();
    let body = r#"{"answer": "The tower is tall [1].", "chunks": "[1] The tower is tall.", "answer": "x"}"#;
    let problem = send(&app, post("/api/v1/calculate", body)).await.problem(
        422,
        "Invalid input",
        "invalid-input",
    );
    assert_eq!(problem["errors"][0]["field"], "answer", "{problem}");
    assert!(
        problem["errors"][0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("more than once")),
        "{problem}"
    );
    let body = r#"{"quote": "a b", "document": "a b c", "quote": "c"}"#;
    let problem = send(&app, post("/api/v1/quote", body)).await.problem(
        422,
        "Invalid input",
        "invalid-input",
    );
    assert_eq!(problem["errors"][0]["field"], "quote", "{problem}");
    // Over MCP, at any depth, before rmcp would keep the last one: 400.
    let twice = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"verify_citation","arguments":{"quote":"a","quote":"b","document":"a"}}}"#;
    let problem = send(&app, mcp_post(twice))
        .await
        .problem(400, "Duplicate key", "duplicate-key");
    let detail = problem["detail"].as_str().unwrap_or_default();
    assert!(detail.contains("`quote`"), "{detail}");
}

#[tokio::test]
async fn a_client_over_the_rate_limit_is_429_with_retry_after() {
    let settings = Settings {
        rate_limit: NonZeroU32::new(2).expect("not zero"),
        ..settings()
    };
    let app = router(state_with(&settings, Duration::from_secs(10)));
    let mut limited = None;
    for _ in 0..10 {
        let reply = send(&app, get("/api/v1/tool")).await;
        if reply.status == StatusCode::TOO_MANY_REQUESTS {
            limited = Some(reply);
            break;
        }
        assert_eq!(reply.status, StatusCode::OK);
    }
    let limited = limited.expect("a 429 after the burst");
    limited.exactly(
        429,
        "Too many requests",
        "rate-limited",
        "this client is over the rate limit; retry in 1 s",
    );
    assert_eq!(limited.header(header::RETRY_AFTER), Some("1"));
    // The health check is never limited, nor another client; an unknown route is.
    assert_eq!(send(&app, get("/healthz")).await.status, StatusCode::OK);
    let other = from(peer(2), Method::GET, "/api/v1/tool", Body::empty());
    assert_eq!(send(&app, other).await.status, StatusCode::OK);
    let nowhere = send(&app, get("/nowhere")).await;
    assert_eq!(nowhere.status, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn requests_beyond_the_checks_queue_are_503_with_retry_after() {
    let app = state();
    let router = router(Arc::clone(&app));
    // Eight waiting per check that may run at once (--max-concurrent 1): take every place.
    assert_eq!(app.queue.available_permits(), 8);
    let places = Arc::clone(&app.queue)
        .try_acquire_many_owned(8)
        .expect("eight places");
    let example = example().to_string();
    let quote = r#"{"quote": "a b", "document": "a b c"}"#;
    let call = tool_call(
        "verify_citation",
        json!({"quote": "a b", "document": "a b c"}),
    );
    for request in [
        post("/api/v1/calculate", example.clone()),
        post("/api/v1/quote", quote),
        mcp_post(call.clone()),
        // Admitted before it is parsed: a malformed body is shed all the same.
        post("/api/v1/calculate", "{"),
    ] {
        let reply = send(&router, request).await;
        reply.exactly(
            503,
            "Overloaded",
            "overloaded",
            "too many checks are waiting; retry in a second",
        );
        assert_eq!(reply.header(header::RETRY_AFTER), Some("1"));
    }
    // Read before it is admitted: a body over the limit is a 413 whatever the queue.
    let request = announcing(post("/api/v1/calculate", Body::empty()), MAX_BODY_BYTES + 1);
    assert_eq!(
        send(&router, request).await.status,
        StatusCode::PAYLOAD_TOO_LARGE
    );
    // Places given back, the same requests are answered, and give theirs back in turn.
    drop(places);
    for request in [
        post("/api/v1/calculate", example),
        post("/api/v1/quote", quote),
        mcp_post(call),
    ] {
        assert_eq!(send(&router, request).await.status, StatusCode::OK);
    }
    assert_eq!(app.queue.available_permits(), 8);
}

#[tokio::test]
async fn bodies_held_over_the_budget_are_503_and_bodies_that_stall_408() {
    let settings = Settings {
        timeout: Duration::from_secs(2),
        ..settings()
    };
    let app = router(state_with(&settings, Duration::from_secs(10)));
    // Four requests of one client announce 16 MiB each and send nine bytes: they fill the
    // client's 64 MiB of bodies held at once.
    let stalled = |route: &str| {
        let body = Trickle::body([Bytes::from_static(b"{\"answer\"")], Then::Stall);
        let mut request = announcing(mcp_post(body), MAX_BODY_BYTES);
        *request.uri_mut() = route.parse().expect("a route");
        tokio::spawn(send_owned(app.clone(), request))
    };
    let held: Vec<_> = [
        "/api/v1/calculate",
        "/api/v1/quote",
        "/mcp",
        "/api/v1/calculate",
    ]
    .into_iter()
    .map(stalled)
    .collect();
    tokio::time::sleep(Duration::from_millis(200)).await;
    // The fifth is refused at once rather than read.
    let fifth = announcing(post("/api/v1/calculate", Body::empty()), MAX_BODY_BYTES);
    let reply = send(&app, fifth).await;
    reply.exactly(
        503,
        "Overloaded",
        "overloaded",
        "the request bodies held at once would go over 256 MiB in all or 64 MiB for this \
         client; retry when earlier requests are answered",
    );
    assert_eq!(reply.header(header::RETRY_AFTER), Some("1"));
    // Another client is answered meanwhile.
    let other = from(
        peer(2),
        Method::POST,
        "/api/v1/calculate",
        Body::from(example().to_string()),
    );
    assert_eq!(send(&app, other).await.status, StatusCode::OK);
    // The four wait for their bodies until --timeout.
    for request in held {
        request.await.expect("answered").exactly(
            408,
            "Request timeout",
            "timeout",
            "the body did not arrive within 2 s",
        );
    }
    // Answered, they hold nothing: the client is served again.
    let again = post("/api/v1/calculate", example().to_string());
    assert_eq!(send(&app, again).await.status, StatusCode::OK);
}

async fn send_owned(app: Router, request: Request) -> Answer {
    send(&app, request).await
}

#[tokio::test]
async fn a_check_past_its_deadline_is_503_without_retry_after() {
    let app = router(state_with(&settings(), Duration::ZERO));
    let reply = send(&app, post("/api/v1/calculate", example().to_string())).await;
    reply.exactly(
        503,
        "Check timed out",
        "check-timeout",
        "the check took longer than 0 s (the server's --check-timeout) and was stopped; send \
         fewer chunks or sentences",
    );
    assert_eq!(reply.header(header::RETRY_AFTER), None);
}

#[tokio::test]
async fn mcp_answers_and_its_refusals_are_problem_documents() {
    let app = app();
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "ragcite-tests", "version": "1"}}});
    let reply = send(&app, mcp_post(init.to_string())).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(reply.json()["result"]["serverInfo"]["name"], "ragcite");
    // JSON-RPC's own errors stay JSON-RPC.
    let unknown = json!({"jsonrpc": "2.0", "id": 7, "method": "no/such/method"});
    let reply = send(&app, mcp_post(unknown.to_string())).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.header(header::CONTENT_TYPE), Some("application/json"));
    assert_eq!(reply.json()["id"], 7);
    // What rmcp refuses in plain text comes back as a problem document, with its status.
    let call = tool_call("rag_citation_debugger", example());
    send(&app, post("/mcp", call.clone())).await.exactly(
        406,
        "Not acceptable",
        "not-acceptable",
        "Not Acceptable: Client must accept both application/json and text/event-stream",
    );
    let mut plain = mcp_post("{}");
    plain
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain"));
    send(&app, plain).await.exactly(
        415,
        "Unsupported media type",
        "unsupported-media-type",
        "Unsupported Media Type: Content-Type must be application/json",
    );
    for method in [Method::GET, Method::DELETE, Method::OPTIONS] {
        let reply = send(&app, request(method, "/mcp", Body::empty())).await;
        reply.exactly(
            405,
            "Method not allowed",
            "method-not-allowed",
            "Method Not Allowed",
        );
        assert_eq!(reply.header(header::ALLOW), Some("POST"));
    }
    // DNS rebinding: a Host that is not loopback, on a loopback server.
    let mut rebound = mcp_post(call.clone());
    rebound
        .headers_mut()
        .insert(header::HOST, HeaderValue::from_static("evil.example"));
    send(&app, rebound).await.exactly(
        403,
        "Forbidden",
        "forbidden",
        "Forbidden: Host header is not allowed",
    );
    let mut hostless = mcp_post(call);
    hostless.headers_mut().remove(header::HOST);
    send(&app, hostless).await.exactly(
        400,
        "Bad request",
        "bad-request",
        "Bad Request: missing Host header",
    );
    // JSON that is no JSON-RPC message, and JSON nested too deep or cut short: 400, not 415.
    send(&app, mcp_post("{}")).await.exactly(
        400,
        "Not a JSON-RPC message",
        "invalid-message",
        "fail to deserialize request body unrecognized JSON-RPC message",
    );
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    for body in [deep.as_str(), "{\"jsonrpc\": "] {
        send(&app, mcp_post(body.to_string())).await.problem(
            400,
            "Malformed JSON body",
            "malformed-json",
        );
    }
}

#[tokio::test]
async fn a_cors_preflight_is_204_and_mcp_opens_only_when_asked() {
    let origin = "https://app.example";
    let cors = |cors_mcp: bool| Settings {
        cors: Some(origin.to_string()),
        cors_mcp,
        ..settings()
    };
    let preflight = |route: &str| {
        let mut request = request(Method::OPTIONS, route, Body::empty());
        let headers = request.headers_mut();
        headers.insert(header::ORIGIN, HeaderValue::from_static(origin));
        headers.insert(
            header::ACCESS_CONTROL_REQUEST_METHOD,
            HeaderValue::from_static("POST"),
        );
        request
    };
    let app = router(state_with(&cors(false), Duration::from_secs(10)));
    let reply = send(&app, preflight("/api/v1/calculate")).await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT);
    assert_eq!(reply.body, "");
    assert_eq!(
        reply.header(header::ACCESS_CONTROL_ALLOW_ORIGIN),
        Some(origin)
    );
    assert_eq!(
        reply.header(header::ACCESS_CONTROL_ALLOW_METHODS),
        Some("GET, POST, OPTIONS")
    );
    assert_eq!(
        reply.header(header::ACCESS_CONTROL_ALLOW_HEADERS),
        Some("content-type, accept, mcp-protocol-version, mcp-method, mcp-name")
    );
    assert_eq!(reply.header(header::ALLOW), Some("POST"));
    // Every answer carries the origin, problems too.
    let reply = send(&app, get("/nowhere")).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    assert_eq!(
        reply.header(header::ACCESS_CONTROL_ALLOW_ORIGIN),
        Some(origin)
    );
    // Not /mcp: rmcp answers the preflight, without the origin.
    let reply = send(&app, preflight("/mcp")).await;
    assert_eq!(reply.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(reply.header(header::ACCESS_CONTROL_ALLOW_ORIGIN), None);
    let app = router(state_with(&cors(true), Duration::from_secs(10)));
    let reply = send(&app, preflight("/mcp")).await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT);
    assert_eq!(
        reply.header(header::ACCESS_CONTROL_ALLOW_ORIGIN),
        Some(origin)
    );
}

/// What rmcp answered: `status`, a `content_type`, a body.
fn rmcp_said(status: u16, content_type: &str, body: &str) -> Response {
    let mut response = (
        StatusCode::from_u16(status).expect("a status"),
        body.to_string(),
    )
        .into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_str(content_type).expect("a content type"),
    );
    response
}

#[tokio::test]
async fn rmcp_s_plain_text_errors_become_problem_documents_and_the_rest_goes_through() {
    let answer = read(mcp_problem(rmcp_said(500, "text/plain", "it broke")).await).await;
    answer.exactly(500, "Internal Server Error", "internal", "it broke");
    let answer = read(mcp_problem(rmcp_said(418, "text/plain", " \n")).await).await;
    answer.exactly(
        418,
        "I'm a teapot",
        "mcp-error",
        "MCP refused the request (418)",
    );
    let answer = read(mcp_problem(rmcp_said(413, "text/plain", "too big")).await).await;
    answer.exactly(413, "Request body too large", "too-large", "too big");
    // Control characters become spaces, and the text is cut at 500 characters.
    let long = format!("a\u{7}b{}", "c".repeat(1_000));
    let answer = read(mcp_problem(rmcp_said(400, "text/plain", &long)).await).await;
    let detail = format!("a b{}", "c".repeat(497));
    answer.exactly(400, "Bad request", "bad-request", &detail);
    // Allow goes with a 405.
    let mut refused = rmcp_said(405, "text/plain", "Method Not Allowed");
    refused
        .headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static("POST"));
    let answer = read(mcp_problem(refused).await).await;
    assert_eq!(answer.header(header::ALLOW), Some("POST"));
    // JSON, problem documents, event streams and successes go through unchanged.
    for (status, content_type) in [
        (500, "application/json"),
        (400, "application/problem+json"),
        (400, "Text/Event-Stream; charset=utf-8"),
        (200, "text/plain"),
        (202, "text/plain"),
    ] {
        let answer = read(mcp_problem(rmcp_said(status, content_type, "x")).await).await;
        assert_eq!(answer.status.as_u16(), status, "{content_type}");
        assert_eq!(answer.body, "x", "{content_type}");
    }
}

#[tokio::test]
async fn a_problem_is_its_status_its_document_and_its_headers() {
    let answer = read(Problem::internal().into_response()).await;
    answer.exactly(
        500,
        "Internal error",
        "internal",
        "the check failed; this is a bug in ragcite",
    );
    assert_eq!(answer.header(header::RETRY_AFTER), None);
    assert_eq!(answer.header(header::ALLOW), None);
    // Retry-After is at least a second.
    let answer = read(Problem::rate_limited(0).into_response()).await;
    assert_eq!(answer.header(header::RETRY_AFTER), Some("1"));
    assert_eq!(
        answer.json()["detail"],
        "this client is over the rate limit; retry in 1 s"
    );
    let answer = read(Problem::rate_limited(3).into_response()).await;
    assert_eq!(answer.header(header::RETRY_AFTER), Some("3"));
    // The library's document, with its extension members, as it is.
    let document = ragcite::api::Problem::from_request(
        ragcite::api::request::RequestError::Malformed("x".to_string()),
    );
    let problem = Problem::from(document.clone());
    assert_eq!(problem.document(), &document);
    let answer = read(problem.into_response()).await;
    assert_eq!(answer.body, serde_json::to_string(&document).expect("JSON"));
    // A status HTTP has no code for is sent as a 500.
    let answer = read(Problem::new(1000, "Odd", "odd", "x").into_response()).await;
    assert_eq!(answer.status, StatusCode::INTERNAL_SERVER_ERROR);
}
