//! The transport of `ragcite serve` under hostile clients, over real sockets on loopback:
//! connections that send nothing or never read, a flood from one address, HTTP/2 cleartext,
//! MCP's bodies too large or too slow, CORS, the bodies held at once, and hyper's own
//! refusals. Counts and times are bounded; a time limit only bounds a hang. The statuses and
//! problem documents of the router (MCP's refusals, the checks' queue) are tested in process
//! (`src/service/http/tests.rs`).

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use crate::service::{Server, example};
use crate::util::ragcite;

fn address(server: &Server) -> String {
    server
        .at("")
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string()
}

/// What the server sent on `stream` until it closed it (end of file or reset); `None` when it
/// was still open after `limit`.
fn until_closed(stream: &mut TcpStream, limit: Duration) -> Option<Vec<u8>> {
    let started = Instant::now();
    let mut received = Vec::new();
    let mut buffer = [0u8; 64 * 1024];
    loop {
        let left = limit.saturating_sub(started.elapsed());
        if left.is_zero() {
            return None;
        }
        stream.set_read_timeout(Some(left)).expect("a read timeout");
        match stream.read(&mut buffer) {
            Ok(0) => return Some(received),
            Ok(n) => received.extend_from_slice(&buffer[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return None;
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            // Reset: closed.
            Err(_) => return Some(received),
        }
    }
}

/// One response read from a kept-alive connection: its head and body.
fn read_response(stream: &mut TcpStream) -> (String, String) {
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .expect("a read timeout");
    let mut received = Vec::new();
    let mut byte = [0u8; 1];
    while !received.ends_with(b"\r\n\r\n") {
        let n = stream.read(&mut byte).expect("a response head");
        assert!(
            n == 1,
            "closed in the head: {:?}",
            String::from_utf8_lossy(&received)
        );
        received.push(byte[0]);
    }
    let head = String::from_utf8(received).expect("an ASCII head");
    let length: usize = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length:")
                .map(|v| v.trim().parse().expect("a length"))
        })
        .unwrap_or(0);
    let mut body = vec![0u8; length];
    stream.read_exact(&mut body).expect("the body");
    (head, String::from_utf8(body).expect("a text body"))
}

/// The whole exchange of one request on a fresh connection that the server closes after it.
fn exchange(address: &str, request: &[u8]) -> String {
    let mut stream = TcpStream::connect(address).expect("connect");
    stream.write_all(request).expect("write");
    let received = until_closed(&mut stream, Duration::from_secs(30)).expect("closed");
    String::from_utf8_lossy(&received).into_owned()
}

#[test]
fn connections_that_send_nothing_are_closed_and_lock_nobody_out() {
    let server = Server::start(&["--timeout", "2"]);
    let address = address(&server);
    // A few hundred connections that never send a byte, from the one loopback address.
    let mut idle: Vec<TcpStream> = (0..300)
        .map(|_| TcpStream::connect(&address).expect("connect"))
        .collect();
    // A fresh connection is answered all the same.
    assert_eq!(server.get("/healthz").status, 200);
    // A kept-alive connection that waits after its request is closed like the others.
    let mut kept = TcpStream::connect(&address).expect("connect");
    write!(kept, "GET /healthz HTTP/1.1\r\nHost: {address}\r\n\r\n").expect("write");
    let (head, body) = read_response(&mut kept);
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(body.contains("\"ok\""), "{body}");
    assert!(
        until_closed(&mut kept, Duration::from_secs(15)).is_some(),
        "a kept-alive connection stayed open after --timeout"
    );
    // Every silent connection is closed by the server, after about --timeout.
    for (n, stream) in idle.iter_mut().enumerate() {
        assert!(
            until_closed(stream, Duration::from_secs(15)).is_some(),
            "silent connection {n} is still open after --timeout"
        );
    }
    assert_eq!(server.get("/healthz").status, 200);
}

/// A connection with a request in flight: its body is announced and never sent (the `100
/// Continue` says the request reached the handler).
fn busy_connection(address: &str) -> TcpStream {
    let mut stream = TcpStream::connect(address).expect("connect");
    write!(
        stream,
        "POST /api/v1/calculate HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: 10\r\nExpect: 100-continue\r\n\r\n"
    )
    .expect("write");
    let (head, _) = read_response(&mut stream);
    assert!(head.starts_with("HTTP/1.1 100"), "{head}");
    stream
}

#[test]
fn a_client_at_its_connection_limit_competes_only_with_itself() {
    let server = Server::start(&["--timeout", "30", "--max-connections-per-client", "4"]);
    let address = address(&server);
    let mut busy: Vec<TcpStream> = (0..4).map(|_| busy_connection(&address)).collect();
    // Every connection of the client has a request in flight: a fifth is closed at once,
    // unanswered.
    let mut fifth = TcpStream::connect(&address).expect("connect");
    let _ = write!(fifth, "GET /healthz HTTP/1.1\r\nHost: {address}\r\n\r\n");
    let received = until_closed(&mut fifth, Duration::from_secs(10)).expect("closed at once");
    assert!(
        received.is_empty(),
        "{:?}",
        String::from_utf8_lossy(&received)
    );
    // One request ends (its body is not JSON: 400); its connection waits for the next one.
    busy[0].write_all(b"0123456789").expect("write");
    let (head, _) = read_response(&mut busy[0]);
    assert!(head.starts_with("HTTP/1.1 400"), "{head}");
    // A new connection takes its place, long before --timeout would close it.
    assert_eq!(server.get("/healthz").status, 200);
    assert!(
        until_closed(&mut busy[0], Duration::from_secs(10)).is_some(),
        "the waiting connection kept its place"
    );
    // The requests in flight were not cut.
    for stream in &mut busy[1..] {
        stream.write_all(b"0123456789").expect("write");
        let (head, _) = read_response(stream);
        assert!(head.starts_with("HTTP/1.1 400"), "{head}");
    }
}

#[test]
fn a_client_that_stops_reading_is_cut_off() {
    let server = Server::start(&["--timeout", "1", "--rate-limit", "100000/s"]);
    let address = address(&server);
    // A thousand pipelined requests for a 55 kB page, and nothing read: far more than the
    // sockets' buffers hold.
    let mut stream = TcpStream::connect(&address).expect("connect");
    let request = format!("GET /methodology HTTP/1.1\r\nHost: {address}\r\n\r\n");
    stream
        .write_all(request.repeat(1_000).as_bytes())
        .expect("write");
    std::thread::sleep(Duration::from_secs(4));
    let received = until_closed(&mut stream, Duration::from_secs(60)).expect("closed");
    let answered = String::from_utf8_lossy(&received)
        .matches("HTTP/1.1 200")
        .count();
    assert!(
        answered < 1_000,
        "all {answered} answered to a client that did not read"
    );
    assert_eq!(server.get("/healthz").status, 200);
}

#[test]
fn http2_cleartext_is_not_served() {
    let server = Server::start(&[]);
    let address = address(&server);
    // Prior knowledge: the preface and an empty SETTINGS frame get no HTTP/2 frame back.
    let mut stream = TcpStream::connect(&address).expect("connect");
    stream
        .write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00")
        .expect("write");
    let received = until_closed(&mut stream, Duration::from_secs(10)).expect("closed");
    assert!(
        received.is_empty() || received.starts_with(b"HTTP/1.1 "),
        "{received:?}"
    );
    // An upgrade request is answered in HTTP/1.1, not switched.
    let reply = exchange(
        &address,
        format!(
            "GET /healthz HTTP/1.1\r\nHost: {address}\r\nConnection: Upgrade, HTTP2-Settings, close\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n"
        )
        .as_bytes(),
    );
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
}

#[test]
fn hyper_refuses_a_broken_request_with_an_empty_body() {
    // A deliberate limit: hyper answers a request it cannot parse before the server sees it,
    // with the status alone (400, 414, 431) and no problem document, and closes the connection.
    let server = Server::start(&[]);
    let address = address(&server);
    let reply = exchange(&address, b"NOT HTTP\r\n\r\n");
    assert!(reply.starts_with("HTTP/1.1 400 "), "{reply}");
    assert!(reply.contains("content-length: 0\r\n"), "{reply}");
    let huge = format!(
        "GET /healthz HTTP/1.1\r\nHost: {address}\r\nX-Big: {}\r\n\r\n",
        "a".repeat(1 << 20)
    );
    let reply = exchange(&address, huge.as_bytes());
    assert!(reply.starts_with("HTTP/1.1 431 "), "{reply}");
    assert!(reply.contains("content-length: 0\r\n"), "{reply}");
}

#[test]
fn mcp_bodies_too_large_or_too_slow_are_refused_on_the_socket() {
    // rmcp's refusals, the scan of the body and the queue are tested in process
    // (src/service/http/tests.rs); here, what a connection sees.
    let server = Server::start(&["--timeout", "1"]);
    let address = address(&server);
    // A body announced over 16 MiB is refused before it is read.
    let reply = exchange(
        &address,
        format!(
            "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            17 * 1024 * 1024
        )
        .as_bytes(),
    );
    assert!(reply.starts_with("HTTP/1.1 413"), "{reply}");
    assert!(reply.contains("application/problem+json"), "{reply}");
    // Five bytes, then silence: 408 after --timeout.
    let mut stream = TcpStream::connect(&address).expect("connect");
    write!(
        stream,
        "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{{\"jso"
    )
    .expect("write");
    let received = until_closed(&mut stream, Duration::from_secs(15)).expect("answered");
    let reply = String::from_utf8_lossy(&received);
    assert!(reply.starts_with("HTTP/1.1 408"), "{reply}");
    assert!(reply.contains("application/problem+json"), "{reply}");
}

#[test]
fn an_invalid_cors_origin_is_refused_at_start() {
    for origin in [
        "example.com",
        "https://example.com/",
        "https://exa mple.com",
        "",
    ] {
        let output = ragcite(["serve", "--port", "0", "--cors", origin])
            .timeout(Duration::from_secs(30))
            .exits(2);
        let lines: Vec<&str> = output.stderr.lines().collect();
        assert!(
            !lines.is_empty() && lines[0].contains("--cors"),
            "{origin:?}: {}",
            output.stderr
        );
    }
}

/// The CORS origin a response to `method` on `route` allows.
fn allowed_origin(server: &Server, method: &str, route: &str) -> Option<String> {
    let address = address(server);
    let reply = exchange(
        &address,
        format!(
            "{method} {route} HTTP/1.1\r\nHost: {address}\r\nOrigin: https://app.example\r\nAccess-Control-Request-Method: POST\r\nConnection: close\r\n\r\n"
        )
        .as_bytes(),
    );
    reply.lines().find_map(|l| {
        l.to_ascii_lowercase()
            .strip_prefix("access-control-allow-origin:")
            .map(|v| v.trim().to_string())
    })
}

#[test]
fn cors_opens_the_api_and_mcp_only_when_asked() {
    let server = Server::start(&["--cors", "https://app.example"]);
    assert_eq!(
        allowed_origin(&server, "OPTIONS", "/api/v1/calculate").as_deref(),
        Some("https://app.example")
    );
    assert_eq!(allowed_origin(&server, "OPTIONS", "/mcp"), None);
    assert_eq!(allowed_origin(&server, "POST", "/mcp"), None);
    let server = Server::start(&["--cors", "https://app.example", "--cors-mcp"]);
    assert_eq!(
        allowed_origin(&server, "OPTIONS", "/mcp").as_deref(),
        Some("https://app.example")
    );
    let warned = server.log_lines();
    assert!(
        warned
            .iter()
            .any(|l| l.starts_with("ragcite: warning: --cors-mcp")),
        "{warned:?}"
    );
    // Any origin: a warning at start.
    let server = Server::start(&["--cors", "*"]);
    let warned = server.log_lines();
    assert!(
        warned
            .first()
            .is_some_and(|l| l.starts_with("ragcite: warning: --cors '*'")),
        "{warned:?}"
    );
}

#[test]
fn bodies_held_at_once_are_bounded_per_client() {
    let server = Server::start(&["--timeout", "3", "--rate-limit", "1000/s"]);
    let address = address(&server);
    // Five requests of one client announce 16 MiB bodies and send a few bytes of them: four fill
    // the client's 64 MiB of bodies held at once, the fifth is refused at once (503) rather
    // than read, and the four others wait for their bodies until --timeout (408).
    let mut held: Vec<TcpStream> = (0..5)
        .map(|_| {
            let mut stream = TcpStream::connect(&address).expect("connect");
            write!(
                stream,
                "POST /api/v1/calculate HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{{\"answer\"",
                16 * 1024 * 1024
            )
            .expect("write");
            stream
        })
        .collect();
    // Another client address meanwhile is answered as usual.
    let (status, body) = crate::check_timeout::post_from(
        std::net::Ipv4Addr::new(127, 0, 0, 2),
        &server,
        "/api/v1/calculate",
        &example().to_string(),
    );
    assert!(status.starts_with("HTTP/1.1 200"), "{status} {body}");
    let mut statuses: Vec<String> = held
        .iter_mut()
        .map(|stream| {
            let received = until_closed(stream, Duration::from_secs(30)).expect("answered");
            let received = String::from_utf8_lossy(&received).into_owned();
            if received.starts_with("HTTP/1.1 503") {
                assert!(received.contains("retry-after: 1"), "{received}");
                assert!(received.contains("\"overloaded\""), "{received}");
                assert!(received.contains("64 MiB for this client"), "{received}");
            }
            received.lines().next().unwrap_or_default().to_string()
        })
        .collect();
    statuses.sort();
    assert_eq!(
        statuses,
        [
            "HTTP/1.1 408 Request Timeout",
            "HTTP/1.1 408 Request Timeout",
            "HTTP/1.1 408 Request Timeout",
            "HTTP/1.1 408 Request Timeout",
            "HTTP/1.1 503 Service Unavailable",
        ]
    );
    // Answered, they hold nothing: the client is served again.
    assert_eq!(
        server.post_json("/api/v1/calculate", &example()).status,
        200
    );
    assert_eq!(server.stop(), Some(0));
}
