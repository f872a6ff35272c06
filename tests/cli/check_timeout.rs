//! The per-check deadline of `ragcite serve` and `ragcite mcp` (`--check-timeout`): a check
//! that runs past it stops, its request gets a 503 `check-timeout` problem (a tool error over
//! MCP), and the check slot it held is free again for the next request.

use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use socket2::{Domain, Socket, Type};

use serde_json::{Value, json};

use crate::service::{Server, agent, assert_valid, call, example, mcp_stdio, verdicts_of};
use crate::util::EIFFEL_VERDICTS;

/// A request within the size limits whose check is slow: about 11,000 chunks of three words
/// and 2,000 sentences of six, all drawn from eight words, so that every sentence shares words
/// with nearly every chunk (a release build takes about 10 s of CPU, a debug build far more).
fn heavy_request() -> Value {
    let words = [
        "tower", "height", "iron", "paris", "metres", "steel", "bridge", "river",
    ];
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut chunks: Vec<Value> = Vec::new();
    let mut chunk_chars = 2;
    loop {
        let text: Vec<&str> = (0..3).map(|_| words[next(words.len())]).collect();
        let chunk = json!({"id": chunks.len().to_string(), "text": text.join(" ")});
        chunk_chars += chunk.to_string().len() + 1;
        if chunk_chars > 490_000 {
            break;
        }
        chunks.push(chunk);
    }
    let mut answer = String::new();
    while answer.len() < 98_000 {
        let text: Vec<&str> = (0..6).map(|_| words[next(words.len())]).collect();
        answer.push_str(&format!(
            "The {} [{}]. ",
            text.join(" "),
            next(chunks.len()) + 1
        ));
    }
    let chunks = Value::Array(chunks).to_string();
    assert!(answer.chars().count() <= 100_000 && chunks.chars().count() <= 500_000);
    json!({"answer": answer, "chunks": chunks})
}

#[test]
fn a_check_past_its_deadline_is_stopped_and_frees_its_slot() {
    // One check at a time: the normal request waits for the heavy one's slot.
    let server = Server::start(&[
        "--check-timeout",
        "1",
        "--max-concurrent",
        "1",
        "--rate-limit",
        "1000/s",
    ]);
    let heavy = heavy_request().to_string();
    let url = server.at("/api/v1/calculate");
    std::thread::scope(|scope| {
        let slow = scope.spawn(|| {
            let mut response = agent()
                .post(&url)
                .header("content-type", "application/json")
                .send(heavy.as_bytes())
                .expect("an answer");
            let header = |name: &str| {
                let value = response.headers().get(name);
                value.and_then(|v| v.to_str().ok()).map(str::to_string)
            };
            let (content_type, retry_after) = (header("content-type"), header("retry-after"));
            let body = response.body_mut().read_to_string().expect("a body");
            (response.status().as_u16(), content_type, retry_after, body)
        });
        // Let the heavy check take the slot first (when it does not, the normal request only
        // answers sooner).
        std::thread::sleep(Duration::from_millis(300));
        let started = Instant::now();
        let normal = server.post_json("/api/v1/calculate", &example());
        let waited = started.elapsed();
        assert_eq!(normal.status, 200);
        assert_eq!(
            verdicts_of(&json!({"result": {"structuredContent": normal.json()}})),
            EIFFEL_VERDICTS
        );
        // A bound on a hang, not a timing: without the deadline it waits for the whole heavy
        // check (minutes in a debug build).
        assert!(waited < Duration::from_secs(30), "waited {waited:?}");
        let (status, content_type, retry_after, body) = slow.join().expect("the heavy request");
        assert_eq!(status, 503, "{body}");
        assert_eq!(content_type.as_deref(), Some("application/problem+json"));
        // Retrying the same request would take as long again.
        assert_eq!(retry_after, None);
        let problem: Value = serde_json::from_str(&body).expect("JSON");
        assert_valid("Problem", &problem);
        assert_eq!(problem["status"], 503);
        assert_eq!(problem["code"], "check-timeout");
        let detail = problem["detail"].as_str().expect("a detail");
        assert!(
            detail.contains("longer than 1 s") && detail.contains("fewer chunks or sentences"),
            "{detail}"
        );
    });
    // The server goes on.
    assert_eq!(
        server.post_json("/api/v1/calculate", &example()).status,
        200
    );
    assert_eq!(server.stop(), Some(0));
}

#[test]
fn an_mcp_check_past_its_deadline_is_a_tool_error() {
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "ragcite-tests", "version": "1"}}});
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let replies = mcp_stdio(
        &["--check-timeout", "1"],
        &[
            init,
            initialized,
            call(2, "rag_citation_debugger", heavy_request(), false),
            call(3, "rag_citation_debugger", example(), false),
        ],
    );
    assert_eq!(replies[1]["result"]["isError"], true, "{}", replies[1]);
    let text = replies[1]["result"]["content"][0]["text"]
        .as_str()
        .expect("text");
    assert!(text.contains("longer than 1 s"), "{text}");
    assert_eq!(verdicts_of(&replies[2]), EIFFEL_VERDICTS);
}

#[test]
fn the_check_timeout_is_a_whole_number_of_seconds() {
    for bad in ["0", "-1", "1.5", "3601", "soon"] {
        crate::util::ragcite(["serve", "--port", "0", "--check-timeout", bad]).usage_error();
        crate::util::ragcite(["mcp", "--check-timeout", bad]).usage_error();
    }
}

/// POSTs `body` to `route` from the loopback address `from` (another client address than the
/// 127.0.0.1 the other requests come from); the response's status line and body.
pub(crate) fn post_from(
    from: Ipv4Addr,
    server: &Server,
    route: &str,
    body: &str,
) -> (String, String) {
    let address: SocketAddr = server
        .at("")
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .expect("the server's address");
    let socket = Socket::new(Domain::IPV4, Type::STREAM, None).expect("a socket");
    socket
        .bind(&SocketAddr::new(from.into(), 0).into())
        .expect("bind to a loopback address");
    socket.connect(&address.into()).expect("connect");
    let mut stream: TcpStream = socket.into();
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .expect("a read timeout");
    write!(
        stream,
        "POST {route} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("write");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("the response");
    let (head, body) = response.split_once("\r\n\r\n").expect("a head and a body");
    let status = head.lines().next().unwrap_or_default().to_string();
    (status, body.to_string())
}

#[test]
fn a_client_whose_checks_run_to_their_deadline_leaves_a_slot_for_the_others() {
    // Two checks at once; by default one client address may run one of them.
    let server = Server::start(&[
        "--check-timeout",
        "3",
        "--max-concurrent",
        "2",
        "--rate-limit",
        "1000/s",
    ]);
    let heavy = heavy_request().to_string();
    let url = server.at("/api/v1/calculate");
    let answered = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        // One client (127.0.0.1) sends three checks that each run to their deadline.
        for _ in 0..3 {
            scope.spawn(|| {
                let status = agent()
                    .post(&url)
                    .header("content-type", "application/json")
                    .send(heavy.as_bytes())
                    .map_or(0, |response| response.status().as_u16());
                answered.fetch_add(1, Ordering::SeqCst);
                assert_eq!(status, 503);
            });
        }
        // Let them reach the server first (when they do not, the other client only answers
        // sooner).
        std::thread::sleep(Duration::from_millis(500));
        // Another client's check runs in the slot left free: it is answered before any of the
        // first client's checks ends (the first of them ends at its 3 s deadline). With every
        // slot held by the first client, it waited for that deadline.
        let (status, body) = post_from(
            Ipv4Addr::new(127, 0, 0, 2),
            &server,
            "/api/v1/calculate",
            &example().to_string(),
        );
        assert_eq!(answered.load(Ordering::SeqCst), 0, "{status}");
        assert!(status.starts_with("HTTP/1.1 200"), "{status} {body}");
        let envelope: Value = serde_json::from_str(&body).expect("JSON");
        assert_eq!(
            verdicts_of(&json!({"result": {"structuredContent": envelope}})),
            EIFFEL_VERDICTS
        );
    });
    assert_eq!(server.stop(), Some(0));
}

/// A tree holding the heavy request's answer and chunks as `answer.md` and `chunks.json`, and
/// `ragcite check` of them there with `--check-timeout SECONDS` (no configuration file).
fn heavy_check(seconds: &str) -> (crate::util::Tree, crate::util::Run) {
    let tree = crate::util::Tree::new();
    let heavy = heavy_request();
    tree.write("answer.md", heavy["answer"].as_str().expect("an answer"));
    tree.write("chunks.json", heavy["chunks"].as_str().expect("chunks"));
    let args = [
        "check",
        "answer.md",
        "chunks.json",
        "--isolated",
        "--check-timeout",
        seconds,
    ];
    let run = tree.ragcite(&tree.root, args);
    (tree, run)
}

/// `check --check-timeout`: the heavy request's answer and chunks as files, checked with a bound
/// of one second, stop with an input error that says what ran out and how to raise it, long
/// before the check would end (minutes in a debug build); the same bound from the configuration
/// file; without one, a quick check is unaffected.
#[test]
fn a_command_line_check_past_its_timeout_is_an_input_error() {
    let bounded = |run: crate::util::Run| {
        let started = Instant::now();
        let line = run.timeout(Duration::from_secs(60)).input_error();
        // A bound on a hang, not a timing.
        assert!(started.elapsed() < Duration::from_secs(30), "{line}");
        line
    };
    let (tree, run) = heavy_check("1");
    let line = bounded(run);
    assert!(
        line.starts_with(
            "ragcite: error: answer.md: the check ran longer than --check-timeout 1 s"
        ),
        "{line}"
    );
    assert!(line.contains("sentences judged"), "{line}");
    tree.write(".ragcite.toml", "check-timeout = 1\n");
    let line = bounded(tree.ragcite(&tree.root, ["check", "answer.md", "chunks.json"]));
    assert!(line.contains("longer than --check-timeout 1 s"), "{line}");
    // A quick check within its bound gives its verdicts.
    let out = crate::util::ragcite([
        "check",
        &crate::util::path("testdata/eiffel/answer.md").to_string_lossy(),
        &crate::util::path("testdata/eiffel/chunks.json").to_string_lossy(),
        "--check-timeout",
        "60",
        "--format",
        "json",
    ])
    .json(1);
    assert_eq!(
        crate::util::verdicts_in(&out["result"]["sentences"]),
        EIFFEL_VERDICTS
    );
    // The bound is whole seconds, at least one.
    crate::util::ragcite(["check", "a.md", "--check-timeout", "0"]).usage_error();
}

/// On a terminal, a check longer than a second shows a progress bar of the sentences judged on
/// standard error, and clears it; a quick check shows none and ends at once (the bar's thread
/// once waited for a check that had already ended, forever).
#[test]
fn a_long_check_on_a_terminal_shows_its_progress() {
    let (_tree, run) = heavy_check("3");
    // A terminal that can redraw a line (without TERM, or with `dumb`, no bar is drawn).
    let run = run.env("TERM", "xterm").timeout(Duration::from_secs(60));
    let Some((code, shown)) = crate::util::in_a_pseudo_terminal(&run, 100) else {
        return;
    };
    assert_eq!(code, Some(2), "{shown}");
    assert!(shown.contains(" sentences judged "), "{shown}");
    assert!(shown.contains("longer than --check-timeout 3 s"), "{shown}");
    let quick = crate::util::ragcite([
        "check",
        &crate::util::path("testdata/eiffel/answer.md").to_string_lossy(),
        &crate::util::path("testdata/eiffel/chunks.json").to_string_lossy(),
    ])
    .env("TERM", "xterm");
    let started = Instant::now();
    let (code, shown) = crate::util::in_a_pseudo_terminal(&quick, 100).expect("script");
    assert_eq!(code, Some(1), "{shown}");
    assert!(!shown.contains("sentences judged"), "{shown}");
    assert!(started.elapsed() < Duration::from_secs(30));
}
