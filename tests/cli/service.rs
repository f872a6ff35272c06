//! `ragcite serve` and `ragcite mcp` through real sockets and pipes: a real HTTP client (ureq)
//! against the server on a free loopback port, responses validated against the original
//! contract's own schema (committed in `tests/schemas/`), MCP over both transports and both
//! handshake styles as raw JSON-RPC, the configuration and the model the server starts with,
//! and graceful shutdown. Every status the API answers with, and each problem document, is
//! tested in process on the router (`src/service/http/tests.rs`); here, what needs the binary.
//! The official Python MCP client and schemathesis run from `.ci/run`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, ChildStderr, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::util::{CONSTANT_MODEL, EIFFEL_VERDICTS, Run, Tree, path, ragcite, verdicts_in};

/// The original contract (OpenAPI 3.1), verbatim.
fn contract() -> Value {
    let text = std::fs::read_to_string(path("tests/schemas/rag-citation-debugger.openapi.json"))
        .expect("the contract");
    serde_json::from_str(&text).expect("the contract is JSON")
}

/// The contract's worked example request.
pub(crate) fn example() -> Value {
    contract()["paths"]["/api/v1/calculate"]["post"]["requestBody"]["content"]
        ["application/json"]["examples"]["example1"]["value"]
        .clone()
}

/// Validates `instance` against the contract's schema `name`, listing every problem.
#[track_caller]
pub(crate) fn assert_valid(name: &str, instance: &Value) {
    let schema = contract()["components"]["schemas"][name].clone();
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(true)
        .build(&schema)
        .expect("the contract's schema compiles");
    let problems: Vec<String> = validator
        .iter_errors(instance)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect();
    assert!(
        problems.is_empty(),
        "not a valid {name}:\n{}",
        problems.join("\n")
    );
}

/// A running `ragcite serve`, stopped with SIGTERM when dropped.
pub(crate) struct Server {
    child: Child,
    url: String,
    log: mpsc::Receiver<String>,
}

impl Server {
    pub(crate) fn start(extra: &[&str]) -> Server {
        let mut args = vec!["serve", "--port", "0"];
        args.extend_from_slice(extra);
        Server::spawn(ragcite(args))
    }

    pub(crate) fn spawn(run: Run) -> Server {
        let mut child = run
            .env("SOURCE_DATE_EPOCH", "1796083199")
            .command()
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("ragcite serve starts");
        let stderr = child.stderr.take().expect("stderr");
        let (sender, log) = mpsc::channel();
        std::thread::spawn(move || forward(stderr, &sender));
        let first = log
            .recv_timeout(Duration::from_secs(30))
            .expect("a first line on stderr");
        let url = first
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("the first line is `{first}`"))
            .to_string();
        assert!(url.starts_with("http://127.0.0.1:"), "{url}");
        Server { child, url, log }
    }

    pub(crate) fn at(&self, route: &str) -> String {
        format!("{}{route}", self.url)
    }

    /// The status, headers and body of a POST of `body` (raw bytes).
    pub(crate) fn post(&self, route: &str, body: &[u8]) -> Reply {
        let agent = agent();
        let response = agent
            .post(&self.at(route))
            .header("content-type", "application/json")
            .send(body);
        Reply::from(response)
    }

    pub(crate) fn post_json(&self, route: &str, body: &Value) -> Reply {
        self.post(route, body.to_string().as_bytes())
    }

    pub(crate) fn get(&self, route: &str) -> Reply {
        Reply::from(agent().get(&self.at(route)).call())
    }

    /// Sends SIGTERM and waits for the exit status.
    pub(crate) fn stop(mut self) -> Option<i32> {
        terminate(&self.child);
        wait(&mut self.child, Duration::from_secs(30))
    }

    /// The log lines so far.
    pub(crate) fn log_lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        while let Ok(line) = self.log.recv_timeout(Duration::from_millis(200)) {
            lines.push(line);
        }
        lines
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn forward(stderr: ChildStderr, sender: &mpsc::Sender<String>) {
    for line in BufReader::new(stderr).lines() {
        let Ok(line) = line else { break };
        if sender.send(line).is_err() {
            break;
        }
    }
}

#[cfg(unix)]
fn terminate(child: &Child) {
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
}

pub(crate) fn wait(child: &mut Child, limit: Duration) -> Option<i32> {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return status.code();
        }
        assert!(started.elapsed() < limit, "the server did not stop");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A client that reports every status as a response, not an error.
pub(crate) fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(120)))
        .build()
        .into()
}

pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) content_type: String,
    pub(crate) body: String,
}

impl Reply {
    pub(crate) fn from(response: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> Reply {
        let mut response = response.expect("the server answers");
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        let content_type = header("content-type").unwrap_or_default();
        let body = response.body_mut().read_to_string().expect("a text body");
        Reply {
            status: response.status().as_u16(),
            content_type,
            body,
        }
    }

    pub(crate) fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }

    /// The problem document of an error, checked against RFC 9457 and the contract.
    #[track_caller]
    pub(crate) fn problem(&self, status: u16) -> Value {
        assert_eq!(self.status, status, "{}", self.body);
        assert_eq!(self.content_type, "application/problem+json");
        let problem = self.json();
        assert_valid("Problem", &problem);
        assert_eq!(problem["status"], status);
        problem
    }
}

#[test]
fn the_worked_example_gives_the_contract_envelope() {
    let server = Server::start(&[]);
    let reply = server.post_json("/api/v1/calculate", &example());
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.content_type, "application/json");
    let envelope = reply.json();
    assert_valid("RagCitationDebuggerResult", &envelope);
    assert_eq!(
        verdicts_in(&envelope["result"]["sentences"]),
        EIFFEL_VERDICTS
    );
    let sentences = &envelope["result"]["sentences"];
    assert_eq!(sentences[1]["missingNumbers"], json!(["1888"]));
    assert_eq!(sentences[2]["suggestedCitation"], "4");
    assert_eq!(envelope["computedAt"], "2026-11-30T23:59:59Z");
    assert_eq!(envelope["inputs"]["supportThreshold"], 0.5);
    assert_eq!(envelope["links"]["api"], server.at("/api/v1/calculate"));
    // The same inputs through `check --format api` give the same envelope, links aside.
    let answer = example()["answer"].as_str().expect("answer").to_string();
    let chunks = example()["chunks"].as_str().expect("chunks").to_string();
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(dir.path().join("answer.md"), &answer).expect("answer");
    std::fs::write(dir.path().join("chunks.json"), &chunks).expect("chunks");
    let offline = ragcite(["check", "answer.md", "chunks.json", "--format", "api"])
        .in_dir(dir.path())
        .env("SOURCE_DATE_EPOCH", "1796083199")
        .json(1);
    assert_eq!(offline["result"], envelope["result"]);
    assert_eq!(offline["presentation"], envelope["presentation"]);
    assert_eq!(server.stop(), Some(0));
}

/// `question` (ragcite's addition, as `--question`): a figure the question states is context,
/// not a claim the answer must cite; a question that is not a string is a 422 naming it.
#[test]
fn the_question_a_request_carries_is_context() {
    let server = Server::start(&[]);
    let request = |question: Option<Value>| {
        let mut body = json!({
            "answer": "A 12 year old who attempted suicide should see a psychiatrist at once [1].",
            "chunks": json!([{"id": "1", "text": "A child who attempted suicide should see a \
                psychiatrist at once."}]).to_string(),
        });
        if let Some(question) = question {
            body["question"] = question;
        }
        server.post_json("/api/v1/calculate", &body)
    };
    let verdict = |reply: &Reply| reply.json()["result"]["sentences"][0]["verdict"].clone();
    assert_eq!(verdict(&request(None)), "number-mismatch");
    let asked = json!("Should a 12 year old who attempted suicide see a psychiatrist?");
    assert_eq!(verdict(&request(Some(asked))), "supported");
    let problem = request(Some(json!(12))).problem(422);
    assert_eq!(problem["errors"][0]["field"], "question", "{problem:#}");
    assert_eq!(server.stop(), Some(0));
}

#[test]
fn a_body_announced_over_16_mib_is_refused_before_it_is_sent() {
    let server = Server::start(&[]);
    // Refused before it is read (a client still sending it would see the connection reset, so
    // only the headers are sent here); the statuses of every other refusal are tested in
    // process (src/service/http/tests.rs).
    let address = server.url.trim_start_matches("http://").to_string();
    let mut stream = TcpStream::connect(&address).expect("connect");
    write!(
        stream,
        "POST /api/v1/calculate HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        17 * 1024 * 1024
    )
    .expect("write");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .expect("timeout");
    let mut reply = Vec::new();
    let _ = stream.read_to_end(&mut reply);
    let reply = String::from_utf8_lossy(&reply);
    assert!(reply.starts_with("HTTP/1.1 413"), "{reply}");
    assert!(reply.contains("application/problem+json"), "{reply}");
    // And the server is still there.
    assert_eq!(server.get("/healthz").status, 200);
}

#[test]
fn the_contract_and_the_tool_are_served() {
    let server = Server::start(&[]);
    let openapi = server.get("/api/v1/openapi.json").json();
    assert_eq!(openapi["servers"][0]["url"], server.url);
    // The contract's schemas are served unchanged.
    for name in [
        "RagCitationDebuggerInput",
        "RagCitationDebuggerResult",
        "Problem",
    ] {
        assert_eq!(
            openapi["components"]["schemas"][name],
            contract()["components"]["schemas"][name],
            "{name}"
        );
    }
    let tool = server.get("/api/v1/tool").json();
    assert_eq!(tool["id"], "rag_citation_debugger");
    assert_eq!(tool["examples"][0]["value"], example());
    let health = server.get("/healthz").json();
    assert_eq!(health["status"], "ok");
}

#[test]
fn a_quote_gives_where_it_is_or_where_it_drifted() {
    let server = Server::start(&[]);
    let document = "Construction of the tower began in 1887 and it was completed in 1889.";
    let found = server
        .post_json(
            "/api/v1/quote",
            &json!({"document": document, "quote": "“it was completed in 1889”"}),
        )
        .json();
    assert_eq!(found["found"], true);
    assert_eq!(found["offsets"], json!([44, 68]));
    assert_eq!(found["closest"], Value::Null);
    let drifted = server
        .post_json(
            "/api/v1/quote",
            &json!({"document": document, "quote": "it was completed in 1888"}),
        )
        .json();
    assert_eq!(drifted["found"], false);
    assert_eq!(drifted["closest"]["differingWords"], 1);
    assert_eq!(drifted["sha256"], found["sha256"]);
    server
        .post_json("/api/v1/quote", &json!({"quote": "x"}))
        .problem(422);
}

/// An answer of 100,000 characters and chunks of 500,000: the contract's limits.
pub(crate) fn at_the_size_limits() -> (String, String) {
    let words = [
        "tower", "river", "bridge", "station", "market", "built", "city", "north", "museum",
        "garden", "railway", "harbour", "1889", "330", "metres",
    ];
    let sentence = |k: usize| {
        let picked: Vec<&str> = (0..12)
            .map(|j| words[(k * 7 + j * 3) % words.len()])
            .collect();
        format!("The {} [{}]. ", picked.join(" "), k % 200 + 1)
    };
    let mut answer = String::new();
    let mut k = 0;
    while answer.len() + 120 < 100_000 {
        answer.push_str(&sentence(k));
        k += 1;
    }
    let chunks: Vec<Value> = (0..200)
        .map(|c| {
            let mut text = String::new();
            let mut j = c;
            while text.len() < 2_400 {
                text.push_str(&sentence(j));
                j += 13;
            }
            json!({"id": (c + 1).to_string(), "text": text})
        })
        .collect();
    let chunks = Value::Array(chunks).to_string();
    assert!(answer.chars().count() <= 100_000 && chunks.chars().count() <= 500_000);
    (answer, chunks)
}

#[test]
fn a_slow_body_times_out_and_a_slow_header_is_cut() {
    let server = Server::start(&["--timeout", "1"]);
    let address = server.url.trim_start_matches("http://").to_string();
    // A body that trickles in: 408.
    let mut stream = TcpStream::connect(&address).expect("connect");
    write!(
        stream,
        "POST /api/v1/calculate HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"answer\""
    )
    .expect("write");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    let mut reply = String::new();
    let _ = stream.read_to_string(&mut reply);
    assert!(reply.starts_with("HTTP/1.1 408"), "{reply}");
    assert!(reply.contains("application/problem+json"), "{reply}");
    // Headers that never end: the connection is closed.
    let mut stream = TcpStream::connect(&address).expect("connect");
    write!(stream, "GET /healthz HTTP/1.1\r\nHost: x\r\n").expect("write");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    let started = Instant::now();
    let mut rest = Vec::new();
    let _ = stream.read_to_end(&mut rest);
    assert!(
        started.elapsed() < Duration::from_secs(9),
        "the connection stayed open"
    );
    assert_eq!(server.get("/healthz").status, 200);
}

#[test]
fn shutdown_lets_requests_in_flight_finish() {
    let server = Server::start(&["--max-concurrent", "1"]);
    let (answer, chunks) = at_the_size_limits();
    let body = json!({"answer": answer, "chunks": chunks}).to_string();
    let url = server.at("/api/v1/calculate");
    let in_flight = std::thread::spawn(move || {
        agent()
            .post(&url)
            .send(body.as_bytes())
            .map(|r| r.status().as_u16())
    });
    // Wait until the request has arrived, then stop the server.
    std::thread::sleep(Duration::from_millis(300));
    let log = server.log_lines();
    let status = server.stop();
    assert_eq!(status, Some(0), "{log:?}");
    assert_eq!(in_flight.join().expect("client").expect("an answer"), 200);
}

#[test]
fn each_request_is_one_log_line_without_its_body() {
    let server = Server::start(&[]);
    server.post_json("/api/v1/calculate", &example());
    server.get("/nowhere");
    let lines = server.log_lines();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("POST /api/v1/calculate 200 ")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("GET /nowhere 404 ")),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains("Eiffel")), "{lines:?}");
}

#[test]
fn a_non_loopback_bind_warns() {
    let mut child = ragcite(["serve", "--host", "0.0.0.0", "--port", "0"])
        .command()
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let stderr = child.stderr.take().expect("stderr");
    let mut lines = BufReader::new(stderr).lines();
    let first = lines.next().expect("a line").expect("text");
    let second = lines.next().expect("a line").expect("text");
    let _ = child.kill();
    let _ = child.wait();
    assert!(first.starts_with("listening on http://0.0.0.0:"), "{first}");
    assert!(
        second.starts_with("ragcite: warning: listening on 0.0.0.0"),
        "{second}"
    );
}

/// MCP over Streamable HTTP, raw: the JSON-RPC reply to `message`.
pub(crate) fn mcp_http(server: &Server, message: &Value, version: Option<&str>) -> Value {
    let mut request = agent()
        .post(&server.at("/mcp"))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    if let Some(version) = version {
        request = request
            .header("mcp-protocol-version", version)
            .header("mcp-method", message["method"].as_str().unwrap_or_default());
        if let Some(name) = message["params"]["name"].as_str() {
            request = request.header("mcp-name", name);
        }
    }
    let reply = Reply::from(request.send(message.to_string().as_bytes()));
    assert_eq!(reply.status, 200, "{}", reply.body);
    reply.json()
}

/// Per-request `_meta` of protocol 2026-07-28.
pub(crate) fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "ragcite-tests", "version": "1"}
    })
}

pub(crate) fn call(id: u64, name: &str, arguments: Value, with_meta: bool) -> Value {
    let mut params = json!({"name": name, "arguments": arguments});
    if with_meta {
        params["_meta"] = meta();
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
}

pub(crate) fn verdicts_of(result: &Value) -> Vec<String> {
    verdicts_in(&result["result"]["structuredContent"]["result"]["sentences"])
}

/// Asserts that a `rag_citation_debugger` result on the contract's example leads its text with
/// the summary line `ragcite check` ends with, then the findings, one per line; and that its
/// second text block is the envelope's JSON, the same as its structured content.
#[track_caller]
pub(crate) fn assert_summary_first(result: &Value) {
    let content = &result["result"]["content"];
    let text = content[0]["text"].as_str().expect("a text block first");
    let lines: Vec<&str> = text.lines().collect();
    let structured = &result["result"]["structuredContent"];
    let gate = structured["presentation"]
        .as_array()
        .expect("presentation")
        .iter()
        .find(|b| b["kind"] == "gate")
        .expect("a gate block");
    assert_eq!(lines[0], gate["summary"], "{text}");
    assert!(
        lines[0].starts_with(
            "FAIL · 4 sentences: 1 supported, 1 number-mismatch, 1 unsupported-citation, 1 uncited-claim · 5 chunks"
        ),
        "{text}"
    );
    let findings: Vec<&str> = lines[1..]
        .iter()
        .map(|l| l.split(": ").nth(1).unwrap_or(l))
        .collect();
    assert_eq!(
        findings,
        ["number-mismatch", "unsupported-citation", "uncited-claim"],
        "{text}"
    );
    assert!(lines[1].starts_with("sentence 2 (1:"), "{text}");
    assert!(
        lines[1].contains("1888 is in none of the cited chunks"),
        "{text}"
    );
    let json: Value =
        serde_json::from_str(content[1]["text"].as_str().expect("a second text block"))
            .expect("the second block is JSON");
    assert_eq!(&json, structured);
    assert_eq!(content.as_array().map(Vec::len), Some(2));
}

#[test]
fn mcp_over_http_in_both_handshake_styles() {
    let server = Server::start(&[]);
    // initialize-based (2025-11-25), stateless: every request stands alone.
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "ragcite-tests", "version": "1"}}});
    let reply = mcp_http(&server, &init, None);
    assert_eq!(reply["result"]["protocolVersion"], "2025-11-25");
    assert_eq!(reply["result"]["serverInfo"]["name"], "ragcite");
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let tools = mcp_http(&server, &list, Some("2025-11-25"));
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| t["name"].as_str().expect("name"))
        .collect();
    assert_eq!(names, ["rag_citation_debugger", "verify_citation"]);
    let result = mcp_http(
        &server,
        &call(3, "rag_citation_debugger", example(), false),
        Some("2025-11-25"),
    );
    assert_eq!(verdicts_of(&result), EIFFEL_VERDICTS);
    assert_summary_first(&result);
    assert_valid(
        "RagCitationDebuggerResult",
        &result["result"]["structuredContent"],
    );
    // 2026-07-28: discover, then calls that carry their version in _meta.
    let discover = json!({"jsonrpc": "2.0", "id": 4, "method": "server/discover", "params": {"_meta": meta()}});
    let found = mcp_http(&server, &discover, Some("2026-07-28"));
    let versions = found["result"]["supportedVersions"].to_string();
    assert!(
        versions.contains("2026-07-28") && versions.contains("2025-11-25"),
        "{found}"
    );
    let result = mcp_http(
        &server,
        &call(5, "rag_citation_debugger", example(), true),
        Some("2026-07-28"),
    );
    assert_eq!(verdicts_of(&result), EIFFEL_VERDICTS);
    assert_summary_first(&result);
    let quote = json!({"quote": "it was completed in 1888", "document": "It was completed in 1889 as the centrepiece."});
    let result = mcp_http(
        &server,
        &call(6, "verify_citation", quote, true),
        Some("2026-07-28"),
    );
    let verification = &result["result"]["structuredContent"];
    assert_eq!(verification["found"], false);
    assert_eq!(verification["closest"]["differingWords"], 1);
}

/// `ragcite mcp ARGS` started with its standard input and output piped, its errors dropped.
pub(crate) fn spawn_mcp(args: &[&str]) -> std::process::Child {
    let mut all = vec!["mcp"];
    all.extend_from_slice(args);
    ragcite(all)
        .command()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("ragcite mcp starts")
}

/// `ragcite mcp` over stdio, raw: writes each message and reads the replies by id.
pub(crate) fn mcp_stdio(args: &[&str], messages: &[Value]) -> Vec<Value> {
    let mut child = spawn_mcp(args);
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut replies: Vec<Value> = Vec::new();
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        for line in stdout.lines() {
            let Ok(line) = line else { break };
            let _ = sender.send(line);
        }
    });
    for message in messages {
        writeln!(stdin, "{message}").expect("write");
        stdin.flush().expect("flush");
        if message.get("id").is_none() {
            continue;
        }
        let id = message["id"].clone();
        loop {
            let line = receiver
                .recv_timeout(Duration::from_secs(60))
                .expect("a reply");
            // Standard output carries protocol messages only.
            let reply: Value = serde_json::from_str(&line)
                .unwrap_or_else(|e| panic!("not JSON-RPC on stdout: {e}: {line}"));
            if reply["id"] == id {
                replies.push(reply);
                break;
            }
        }
    }
    drop(stdin);
    let status = wait(&mut child, Duration::from_secs(30));
    assert_eq!(status, Some(0), "ragcite mcp exits 0 when its input ends");
    replies
}

#[test]
fn mcp_over_stdio_in_both_handshake_styles() {
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "ragcite-tests", "version": "1"}}});
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let replies = mcp_stdio(
        &[],
        &[
            init,
            initialized,
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
            call(3, "rag_citation_debugger", example(), false),
            call(4, "rag_citation_debugger", json!({"answer": 1}), false),
        ],
    );
    assert_eq!(replies[0]["result"]["protocolVersion"], "2025-06-18");
    let tools = &replies[1]["result"]["tools"];
    assert_eq!(
        tools[0]["outputSchema"],
        contract()["components"]["schemas"]["RagCitationDebuggerResult"]
    );
    assert_eq!(verdicts_of(&replies[2]), EIFFEL_VERDICTS);
    assert_summary_first(&replies[2]);
    // Every invalid argument is listed, as a tool error.
    assert_eq!(replies[3]["result"]["isError"], true);
    let text = replies[3]["result"]["content"][0]["text"]
        .as_str()
        .expect("text");
    assert_eq!(
        text,
        "answer: must be a string, not a number\nchunks: is required"
    );

    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(
        dir.path().join("tower.md"),
        "Construction began in 1887 and it was completed in 1889.",
    )
    .expect("document");
    std::fs::create_dir(dir.path().join("sets")).expect("folder");
    std::fs::write(
        dir.path().join("sets/chunks.json"),
        std::fs::read_to_string(path("testdata/eiffel/chunks.json")).expect("chunks"),
    )
    .expect("chunks");
    let folder = dir.path().to_str().expect("a UTF-8 path");
    let replies = mcp_stdio(
        &["--documents", folder],
        &[
            json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta()}}),
            call(
                2,
                "verify_citation",
                json!({"quote": "it was completed in 1889", "document_id": "tower.md"}),
                true,
            ),
            call(
                3,
                "verify_citation",
                json!({"quote": "named after the engineer Gustave Eiffel", "document_id": "sets/chunks.json", "chunk_id": "4"}),
                true,
            ),
            call(
                4,
                "verify_citation",
                json!({"quote": "a b c", "document_id": "../tower.md"}),
                true,
            ),
        ],
    );
    assert!(
        replies[0]["result"]["supportedVersions"]
            .to_string()
            .contains("2026-07-28")
    );
    assert_eq!(replies[1]["result"]["structuredContent"]["found"], true);
    assert_eq!(
        replies[1]["result"]["structuredContent"]["offsets"],
        json!([31, 55])
    );
    assert_eq!(replies[2]["result"]["structuredContent"]["found"], true);
    assert_eq!(replies[3]["result"]["isError"], true);
    assert!(
        replies[3]["result"]["content"][0]["text"]
            .as_str()
            .is_some_and(|t| t.contains("no document `../tower.md`"))
    );
}

#[test]
fn the_serve_table_of_the_configuration_sets_the_servers_options() {
    let tree = Tree::new();
    tree.write(
        ".ragcite.toml",
        "threshold = 0.9\n\n[serve]\nport = 0\nrate-limit = \"2/s\"\n",
    );
    let server = Server::spawn(tree.ragcite(&tree.root, ["serve"]));
    let statuses: Vec<u16> = (0..6).map(|_| server.get("/api/v1/tool").status).collect();
    assert!(statuses.contains(&429), "{statuses:?}");
    // The command line wins over the table.
    let server = Server::spawn(tree.ragcite(&tree.root, ["serve", "--rate-limit", "1000/s"]));
    let statuses: Vec<u16> = (0..6).map(|_| server.get("/api/v1/tool").status).collect();
    assert!(statuses.iter().all(|s| *s == 200), "{statuses:?}");
    // Every envelope names the configuration the server applied.
    let envelope = server.post_json("/api/v1/calculate", &example()).json();
    assert_eq!(
        envelope["inputs"]["config"],
        json!({"source": "found", "path": ".ragcite.toml"})
    );
    // check and batch read the top-level keys and leave the table to serve.
    let answer = path("testdata/eiffel/answer.md");
    let chunks = path("testdata/eiffel/chunks.json");
    let doc = tree
        .ragcite(
            &tree.root,
            [
                "check".as_ref(),
                answer.as_os_str(),
                chunks.as_os_str(),
                "--format".as_ref(),
                "json".as_ref(),
            ],
        )
        .json(1);
    assert_eq!(doc["inputs"]["threshold"], 0.9);
}

#[test]
fn a_wrong_serve_table_is_a_configuration_error() {
    let tree = Tree::new();
    tree.write(".ragcite.toml", "[serve]\nprot = 8080\n");
    let message = tree.ragcite(&tree.root, ["serve"]).input_error();
    assert!(message.contains("unknown key `serve.prot`"), "{message}");
    tree.write(".ragcite.toml", "[serve]\nrate-limit = \"fast\"\n");
    let message = tree.ragcite(&tree.root, ["serve"]).input_error();
    assert!(message.contains("key `serve.rate-limit`"), "{message}");
    tree.write(".ragcite.toml", "serve = 3\n");
    let answer = path("testdata/eiffel/answer.md");
    let message = tree
        .ragcite(&tree.root, ["check".as_ref(), answer.as_os_str()])
        .input_error();
    assert!(
        message.contains("key `serve`: expected a table"),
        "{message}"
    );
}

/// Each sentence's `support`, from the envelope's presentation.
fn supports(envelope: &Value) -> Vec<f64> {
    let sentences = envelope["presentation"]
        .as_array()
        .expect("presentation")
        .iter()
        .find(|part| part["kind"] == "sentences")
        .expect("a sentences part");
    sentences["sentences"]
        .as_array()
        .expect("sentences")
        .iter()
        .map(|s| s["support"].as_f64().expect("a support"))
        .collect()
}

#[test]
fn the_model_is_the_servers_setting() {
    let default = Server::start(&[]);
    let formula = Server::start(&["--model", "formula"]);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("constant.json");
    std::fs::write(&file, CONSTANT_MODEL).expect("model");
    let constant = Server::start(&["--model", file.to_str().expect("a UTF-8 path")]);
    let mut found = Vec::new();
    for (server, name) in [
        (&default, "shipped"),
        (&formula, "formula"),
        (&constant, "file"),
    ] {
        let health = server.get("/healthz").json();
        assert_eq!(health["model"], name);
        let reply = server.post_json("/api/v1/calculate", &example());
        assert_eq!(reply.status, 200, "{}", reply.body);
        let envelope = reply.json();
        assert_valid("RagCitationDebuggerResult", &envelope);
        found.push(supports(&envelope));
    }
    // Sentence 2 of the worked example: 0.425 by the formula, about 0.59 by the shipped model.
    assert!((0.55..0.65).contains(&found[0][1]), "{:?}", found[0]);
    assert_eq!(found[1][1], 0.425);
    assert_eq!(found[2][..2], [0.9526, 0.9526]);
    // MCP at /mcp checks with the same model.
    let result = mcp_http(
        &formula,
        &call(1, "rag_citation_debugger", example(), true),
        Some("2026-07-28"),
    );
    assert_eq!(supports(&result["result"]["structuredContent"]), found[1]);
    for server in [default, formula, constant] {
        assert_eq!(server.stop(), Some(0));
    }
}

#[test]
fn a_bad_model_file_stops_the_server_before_it_listens() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("model.json");
    std::fs::write(&file, "{\"format\": \"something else\"}").expect("model");
    let shown = file.to_str().expect("a UTF-8 path");
    for args in [
        vec!["serve", "--port", "0", "--model", shown],
        vec!["mcp", "--model", shown],
    ] {
        let line = ragcite(args).input_error();
        assert!(
            line.starts_with(&format!(
                "ragcite: error: {shown}: not a ragcite support model: "
            )),
            "{line}"
        );
    }
    let line = ragcite(["serve", "--port", "0", "--model", "missing.json"]).input_error();
    assert!(line.contains("missing.json"), "{line}");
}

#[test]
fn mcp_over_stdio_checks_with_its_model() {
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "ragcite-tests", "version": "1"}}});
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let messages = [
        init,
        initialized,
        call(2, "rag_citation_debugger", example(), false),
    ];
    let shipped = mcp_stdio(&[], &messages);
    let formula = mcp_stdio(&["--model", "formula"], &messages);
    let of = |replies: &[Value]| supports(&replies[1]["result"]["structuredContent"]);
    assert_eq!(of(&formula)[1], 0.425);
    assert_ne!(of(&shipped)[1], 0.425);
}

#[test]
fn the_serve_table_names_the_model() {
    let tree = Tree::new();
    tree.write(".ragcite.toml", "[serve]\nport = 0\nmodel = \"formula\"\n");
    let server = Server::spawn(tree.ragcite(&tree.root, ["serve"]));
    assert_eq!(server.get("/healthz").json()["model"], "formula");
    let envelope = server.post_json("/api/v1/calculate", &example()).json();
    assert_eq!(supports(&envelope)[1], 0.425);
    assert_eq!(server.stop(), Some(0));
    // A relative path is the configuration file's, not the working directory's.
    tree.write("models/constant.json", CONSTANT_MODEL);
    tree.write(
        "project/.ragcite.toml",
        "[serve]\nport = 0\nmodel = \"../models/constant.json\"\n",
    );
    let elsewhere = tree.dir("project/deeper");
    let server = Server::spawn(tree.ragcite(&elsewhere, ["serve"]));
    assert_eq!(server.get("/healthz").json()["model"], "file");
    let envelope = server.post_json("/api/v1/calculate", &example()).json();
    assert_eq!(supports(&envelope)[1], 0.9526);
    assert_eq!(server.stop(), Some(0));
}
