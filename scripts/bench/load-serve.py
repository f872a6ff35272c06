#!/usr/bin/env python3
"""Measures `ragcite serve` under load on this machine: throughput, latency, errors by status
and the server's memory. Standard library only (threads, http.client with keep-alive).

Usage: python3 scripts/bench/load-serve.py [BIN] [--requests 3000] [--levels 1,4,16]
                                     [--memory 1000,20000] [--large-requests 20]
                                     [--idle 2000] [--phase-time 60] [--short]
  BIN defaults to target/release/ragcite (build it with `cargo build --release`; a debug build
  measures the debug build, and the script says so). --short is the CI size: 300 requests a
  level, memory after 200 and 2,000 requests, 2 requests at the size limits a level, 300 idle
  connections.

What it does, against servers it starts on 127.0.0.1 (`serve --port 0 --isolated`, rate limit
1000000/s so that the limiter never answers, default --max-concurrent, and every check slot open
to one address, since all the clients here come from 127.0.0.1):
  1. POST /api/v1/calculate with the worked example (testdata/eiffel) by 1, 4 and 16 clients,
     each a thread with its own keep-alive connection, --requests requests a level after a
     warm-up: requests per second, p50 and p99 latency, the server's CPU time per request, and
     errors by status. Every 200 must carry the worked example's verdicts.
  2. A fresh server, 4 clients: VmRSS and VmHWM (peak) of the server from /proc/PID/status after
     1,000 and after 20,000 requests (--memory); memory is flat when VmRSS grew by less than
     16 MiB between the first and the last reading (under 1 KiB a request at 20,000; the
     allocator's caches move it by a few MiB either way, a leak grows with the count).
  3. One request at the size limits of the contract: an answer of 100,000 characters with
     citation markers and chunks of 500,000 characters as JSON [{"id","text"}], realistic prose
     generated from a fixed seed; it must be accepted, and one more character in either field
     must give 422. Then the same figures as in 1 for it, by 1 and by 4 clients (--large-requests
     each), and the server's memory after each.
  4. A fresh server with --timeout 2: --idle connections opened at once that never send a byte
     (all from 127.0.0.1, far over the 64 a client may hold); GET /healthz from another client
     address (127.0.0.2) must still answer on a fresh connection, and every idle connection must
     be closed by the server within the timeout and 5 s.
  5. A fresh server: three 16 MiB MCP tools/call at once whose unused argument is an array of
     zeros (refused with 413 before it is parsed), then three whose unused argument is a 16 MiB
     string (a tool error); the peak (VmHWM) must stay under 384 MiB above the server's memory at
     start, and VmRSS must come back within 64 MiB of it after 5 s without requests.
Each phase stops starting requests after --phase-time seconds. The figures print as a Markdown
table, with the machine's cores and load average (the clients share the cores with the server,
so the figures are for the pair, on this machine).

Exit code 1 when a request got an error other than 429 or 503 (or a wrong body), when the
size-limit requests were not answered as the contract says, when memory was not flat, when idle
connections were not closed or locked /healthz out, when the oversized MCP calls went over their
memory bounds, or when the server did not exit with 0 on SIGTERM; 0 otherwise.
"""

import argparse
import http.client
import json
import math
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = {
    "answer": (REPO / "testdata/eiffel/answer.md").read_text(encoding="utf-8").strip(),
    "chunks": (REPO / "testdata/eiffel/chunks.json").read_text(encoding="utf-8"),
}
EXAMPLE_MARK = b'"number-mismatch"'  # every 200 for the worked example has this verdict
MAX_ANSWER = 100_000  # characters (the contract's limits)
MAX_CHUNKS = 500_000
ACCEPTABLE = {429, 503}  # errors a client is told to retry
MIB = 1024 * 1024


# ---------------------------------------------------------------------------- the server ----


class Server:
    """`ragcite serve` on a free loopback port; its log goes to a file (no reader thread to
    compete with the clients for the cores)."""

    def __init__(self, binary, log_path, extra=()):
        self.log_path = log_path
        self.log = open(log_path, "w+", encoding="utf-8")
        self.process = subprocess.Popen(
            [binary, "serve", "--host", "127.0.0.1", "--port", "0", "--isolated", "--rate-limit", "1000000/s",
             "--max-concurrent-per-client", str(os.cpu_count() or 1), *extra],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=self.log,
        )
        deadline = time.monotonic() + 30
        first = ""
        while time.monotonic() < deadline and self.process.poll() is None:
            text = Path(log_path).read_text(encoding="utf-8")
            if "\n" in text:
                first = text.split("\n", 1)[0]
                break
            time.sleep(0.02)
        prefix = "listening on http://127.0.0.1:"
        if not first.startswith(prefix):
            self.stop()
            raise SystemExit(f"load-serve: the server did not start: {first!r}")
        self.port = int(first[len(prefix) :].strip())

    def status(self):
        """VmRSS and VmHWM in bytes, from /proc/PID/status."""
        values = {}
        with open(f"/proc/{self.process.pid}/status", encoding="ascii") as status:
            for line in status:
                key, _, value = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    values[key] = int(value.split()[0]) * 1024
        return values

    def cpu_seconds(self):
        """User + system CPU time of the server so far."""
        with open(f"/proc/{self.process.pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def logged_statuses(self):
        counts = Counter()
        for line in Path(self.log_path).read_text(encoding="utf-8").splitlines()[1:]:
            parts = line.split(" ")
            if len(parts) == 5 and parts[2].isdigit():
                counts[int(parts[2])] += 1
        return counts

    def stop(self):
        """SIGTERM, then the exit code (None when it did not exit within 15 s, then killed)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            code = None
        self.log.close()
        return code


# ------------------------------------------------------------------------- the clients ----


class Run:
    """The outcome of a phase: latencies of the requests answered with 200 (a quick 429 or 503
    would flatter them), statuses, wall time, the server's CPU time."""

    def __init__(self):
        self.latencies = []
        self.statuses = Counter()
        self.wall = 0.0
        self.cpu = 0.0

    @property
    def requests(self):
        return sum(self.statuses.values())

    def percentile(self, p):
        ordered = sorted(self.latencies)
        return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)] if ordered else float("nan")

    def errors(self):
        return {status: n for status, n in self.statuses.items() if status != 200}

    def bad_errors(self):
        return {status: n for status, n in self.errors().items() if status not in ACCEPTABLE}


def client(port, body, mark, count, deadline, run, lock):
    """One client: `count` POSTs of `body` on one keep-alive connection, until `deadline`."""
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    latencies, statuses = [], Counter()
    for _ in range(count):
        if time.monotonic() > deadline:
            break
        started = time.perf_counter()
        try:
            connection.request("POST", "/api/v1/calculate", body, headers)
            response = connection.getresponse()
            data = response.read()
            status = response.status
            if response.will_close:
                connection.close()
        except (OSError, http.client.HTTPException) as e:
            status = f"connection error ({type(e).__name__})"
            connection.close()
        elapsed = time.perf_counter() - started
        if status == 200 and mark not in data:
            status = "200 with a wrong body"
        statuses[status] += 1
        if status == 200:
            latencies.append(elapsed)
    connection.close()
    with lock:
        run.latencies.extend(latencies)
        run.statuses.update(statuses)


def load(server, body, mark, clients, requests, phase_time):
    """`requests` POSTs split over `clients` threads; the run's figures."""
    run, lock = Run(), threading.Lock()
    deadline = time.monotonic() + phase_time
    shares = [requests // clients + (1 if i < requests % clients else 0) for i in range(clients)]
    threads = [
        threading.Thread(target=client, args=(server.port, body, mark, share, deadline, run, lock))
        for share in shares
    ]
    cpu = server.cpu_seconds()
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    run.wall = time.perf_counter() - started
    run.cpu = server.cpu_seconds() - cpu
    return run


def post_once(port, payload):
    """The status of one POST /api/v1/calculate with `payload`, and its body."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    try:
        connection.request("POST", "/api/v1/calculate", json.dumps(payload), {"Content-Type": "application/json"})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


# ---------------------------------------------------------------- requests at the limits ----

SUBJECTS = [
    "The tower", "The bridge", "The cathedral", "The observatory", "The harbour", "The museum",
    "The railway station", "The city council", "The engineering firm", "The survey team",
    "The restoration project", "The northern wing", "The old market", "The university library",
]
VERBS = [
    "was completed in", "was restored in", "was extended in", "opened to the public in",
    "was damaged by a storm in", "was surveyed again in", "received its first visitors in",
]
DETAILS = [
    "after {n} years of work", "at a cost of {n} million francs", "with {n} workers on site",
    "when {n} metres of new track were laid", "while {n} visitors a day queued at the gates",
    "before the exhibition of {year}", "under the direction of the chief engineer",
    "despite the objections of {n} local artists", "as part of the plan drawn up in {year}",
]
REMARKS = [
    "Its iron frame is painted every seven years to protect it from rust.",
    "The records of the period describe the site as crowded and noisy.",
    "Historians still disagree about the reasons for the delay.",
    "Local newspapers followed the works closely and printed weekly reports.",
    "The original drawings are kept in the city archives.",
    "Several smaller buildings nearby were demolished to make room for it.",
]


def sentence(rng):
    """One sentence of plausible prose about a building, with a year and numbers."""
    detail = rng.choice(DETAILS).format(n=rng.randint(2, 900), year=rng.randint(1850, 1990))
    return f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.randint(1850, 1990)} {detail}."


def limit_request(seed=20240601):
    """An answer of exactly MAX_ANSWER characters citing chunks whose JSON is exactly MAX_CHUNKS
    characters, from a fixed seed: most answer sentences are copied from the chunk they cite,
    some are cited to the wrong chunk, some carry no marker."""
    rng = random.Random(seed)
    chunks, size, number = [], 2, 0  # size counts the characters of the JSON array so far
    while True:
        number += 1
        text = " ".join(sentence(rng) if rng.random() < 0.8 else rng.choice(REMARKS) for _ in range(rng.randint(4, 9)))
        entry = {"id": f"doc{number}", "text": text}
        grown = size + len(json.dumps(entry, ensure_ascii=False)) + (2 if chunks else 0)
        if grown > MAX_CHUNKS - 400:
            break
        chunks.append(entry)
        size = grown
    # Fill the last characters with one more chunk whose text is cut to fit exactly.
    number += 1
    filler = {"id": f"doc{number}", "text": ""}
    room = MAX_CHUNKS - size - 2 - len(json.dumps(filler, ensure_ascii=False))
    filler["text"] = " ".join(sentence(rng) for _ in range(10))[: room - 1].rstrip() + "."
    chunks.append(filler)
    chunks_text = json.dumps(chunks, ensure_ascii=False, separators=(", ", ": "))
    chunks_text = chunks_text[:-1] + " " * (MAX_CHUNKS - len(chunks_text)) + "]"  # white space pads to the limit

    parts, length = [], 0
    while True:
        chunk_index = rng.randrange(len(chunks))
        sentences = [s.strip() + "." for s in chunks[chunk_index]["text"].split(".") if s.strip()]
        roll = rng.random()
        if roll < 0.7:
            part = f"{rng.choice(sentences)[:-1]} [{chunk_index + 1}]."
        elif roll < 0.85:
            part = f"{rng.choice(sentences)[:-1]} [{rng.randrange(len(chunks)) + 1}]."
        else:
            part = sentence(rng)
        if length + len(part) + 1 > MAX_ANSWER:
            break
        parts.append(part)
        length += len(part) + 1
    answer = " ".join(parts)
    answer += " " * (MAX_ANSWER - len(answer))  # trailing white space pads to the limit
    return {"answer": answer, "chunks": chunks_text}


# ------------------------------------------------------------- hostile clients ----

IDLE_TIMEOUT = 2  # --timeout of the idle-connection server, in seconds


def healthz(port, timeout=10, source=None):
    """The status of GET /healthz on a fresh connection (from `source`, another loopback
    address, when given), or the error's name."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=timeout, source_address=(source, 0) if source else None)
    try:
        connection.request("GET", "/healthz")
        response = connection.getresponse()
        response.read()
        return response.status
    except (OSError, http.client.HTTPException) as e:
        return type(e).__name__
    finally:
        connection.close()


def closed_by_server(sock, deadline):
    """Whether the server closed `sock` (end of file or reset) before `deadline`."""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        sock.settimeout(left)
        try:
            if not sock.recv(65536):
                return True
        except socket.timeout:
            return False
        except OSError:
            return True


def idle_connections(binary, tmp, count):
    """Phase 4: `count` connections that send nothing; the figures and the problems."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = count + 256
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))
    server = Server(binary, os.path.join(tmp, "idle.log"), ["--timeout", str(IDLE_TIMEOUT)])
    problems, sockets, refused = [], [], 0
    started = time.monotonic()
    for _ in range(count):
        try:
            sockets.append(socket.create_connection(("127.0.0.1", server.port), timeout=5))
        except OSError:
            refused += 1
    opened = time.monotonic() - started
    # From another client address: the flood's own address only competes with itself (at its
    # per-address cap, its oldest waiting connection gives way, which may be a request of its
    # own that the server has not read yet).
    status = healthz(server.port, source="127.0.0.2")
    if status != 200:
        problems.append(f"GET /healthz got {status} while {len(sockets)} idle connections were open")
    deadline = time.monotonic() + IDLE_TIMEOUT + 5
    still_open = sum(1 for sock in sockets if not closed_by_server(sock, deadline))
    closed_after = time.monotonic() - started
    for sock in sockets:
        sock.close()
    if still_open:
        problems.append(f"{still_open} of {len(sockets)} idle connections still open {IDLE_TIMEOUT + 5} s after --timeout {IDLE_TIMEOUT}")
    status_after = healthz(server.port)
    if status_after != 200:
        problems.append(f"GET /healthz got {status_after} after the idle connections")
    peak = server.status()["VmHWM"]
    code = server.stop()
    if code != 0:
        problems.append(f"the idle-connection server exited with {code} on SIGTERM, not 0")
    figures = {
        "count": count,
        "connected": len(sockets),
        "refused": refused,
        "opened": opened,
        "healthz": status,
        "closed_after": closed_after,
        "still_open": still_open,
        "peak": peak,
    }
    return figures, problems


def mcp_call(arguments):
    """A tools/call of rag_citation_debugger with `arguments`, as compact JSON bytes."""
    message = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "rag_citation_debugger", "arguments": arguments}}
    return json.dumps(message, separators=(",", ":")).encode()


def post_mcp(port, body, results, lock):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    try:
        connection.request("POST", "/mcp", body, {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"})
        response = connection.getresponse()
        data = response.read()
        outcome = (response.status, data[:200])
    except (OSError, http.client.HTTPException) as e:
        outcome = (f"connection error ({type(e).__name__})", b"")
    finally:
        connection.close()
    with lock:
        results.append(outcome)


def oversized_mcp(binary, tmp):
    """Phase 5: three 16 MiB MCP calls at once with an unused array, then with an unused string."""
    limit = 16 * MIB
    small = {"answer": EXAMPLE["answer"], "chunks": EXAMPLE["chunks"]}
    room = limit - len(mcp_call(dict(small, extra=[]))) - 16
    bodies = {
        "array of zeros": mcp_call(dict(small, extra=[0] * (room // 2))),
        "string": mcp_call(dict(small, extra="a" * room)),
    }
    server = Server(binary, os.path.join(tmp, "mcp.log"))
    start = server.status()
    problems, rows = [], []
    for label, body in bodies.items():
        assert len(body) <= limit, (label, len(body))
        results, lock = [], threading.Lock()
        threads = [threading.Thread(target=post_mcp, args=(server.port, body, results, lock)) for _ in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        statuses = Counter(status for status, _ in results)
        expected = 413 if label == "array of zeros" else 200
        if statuses != Counter({expected: 3}):
            problems.append(f"three MCP calls with an unused {label}: {dict(statuses)}, not three {expected}")
        rows.append((label, len(body), statuses, server.status()))
    time.sleep(5)
    idle = server.status()
    code = server.stop()
    if code != 0:
        problems.append(f"the MCP server exited with {code} on SIGTERM, not 0")
    peak = max(values["VmHWM"] for _, _, _, values in rows)
    if peak - start["VmRSS"] > 384 * MIB:
        problems.append(f"the oversized MCP calls took the server from {mib(start['VmRSS'])} to a peak of {mib(peak)} MiB")
    if idle["VmRSS"] - start["VmRSS"] > 64 * MIB:
        problems.append(f"5 s after the oversized MCP calls the server holds {mib(idle['VmRSS'])} MiB, {mib(start['VmRSS'])} at start")
    return (start, rows, idle), problems


# ------------------------------------------------------------------------------ report ----


def mib(value):
    return f"{value / MIB:.1f}"


def describe_errors(errors):
    return ", ".join(f"{status}: {n}" for status, n in sorted(errors.items(), key=str)) or "none"


def row(label, clients, run):
    rate = run.requests / run.wall if run.wall else 0
    rate = f"{rate:,.0f}" if rate >= 10 else f"{rate:.1f}"
    cpu = run.cpu / run.requests * 1000 if run.requests else float("nan")
    return (
        f"| {label} | {clients} | {run.requests} | {rate} | {run.percentile(50) * 1000:.2f} | "
        f"{run.percentile(99) * 1000:.2f} | {cpu:.2f} | {describe_errors(run.errors())} |"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bin", nargs="?", default=str(REPO / "target/release/ragcite"), help="default target/release/ragcite")
    parser.add_argument("--requests", type=int, default=3000, help="requests per concurrency level (default 3000)")
    parser.add_argument("--levels", default="1,4,16", help="numbers of concurrent clients (default 1,4,16)")
    parser.add_argument("--memory", default="1000,20000", help="request counts after which to read the memory (default 1000,20000)")
    parser.add_argument("--large-requests", type=int, default=20, help="requests at the size limits by 1, then by 4 clients (default 20)")
    parser.add_argument("--idle", type=int, default=2000, help="idle connections opened at once (default 2000)")
    parser.add_argument("--phase-time", type=float, default=60, help="seconds after which a phase starts no more requests (default 60)")
    parser.add_argument("--short", action="store_true", help="the CI size: 300 requests a level, memory after 200 and 2,000, 2 large a level, 300 idle connections")
    args = parser.parse_args()
    if args.short:
        args.requests, args.memory, args.large_requests, args.idle = 300, "200,2000", 2, 300
    levels = [int(n) for n in args.levels.split(",")]
    memory_after = [int(n) for n in args.memory.split(",")]
    binary = os.path.abspath(args.bin)
    if not os.access(binary, os.X_OK):
        print(f"load-serve: {args.bin} is not an executable (build it with cargo build --release)", file=sys.stderr)
        return 2
    build = "release" if "/release/" in binary else "NOT a release build"
    # A debug build checks the size-limit request in about 10 s on two idle cores, the default
    # --check-timeout: there the smoke test gives its checks more time, since it asks for their
    # answers, not their speed.
    slow = () if build == "release" else ("--check-timeout", "120")
    problems = []
    started = time.monotonic()
    body = json.dumps(EXAMPLE).encode()

    with tempfile.TemporaryDirectory(prefix="ragcite-load-") as tmp:
        # 1. The worked example by 1, 4, 16 clients.
        server = Server(binary, os.path.join(tmp, "throughput.log"))
        load(server, body, EXAMPLE_MARK, 4, 200, args.phase_time)  # warm-up: threads, allocator, caches
        runs = [(clients, load(server, body, EXAMPLE_MARK, clients, args.requests, args.phase_time)) for clients in levels]
        logged = server.logged_statuses()
        code = server.stop()
        if code != 0:
            problems.append(f"the server exited with {code} on SIGTERM, not 0")
        sent = sum(run.requests for _, run in runs) + 200
        if sum(logged.values()) != sent:
            problems.append(f"the server logged {sum(logged.values())} requests, the clients sent {sent}")

        # 2. Memory after 1,000 and 20,000 requests of a fresh server.
        server = Server(binary, os.path.join(tmp, "memory.log"), slow)
        memory, done = [("started", 0, 0, server.status())], 0
        for target in memory_after:
            run = load(server, body, EXAMPLE_MARK, 4, target - done, args.phase_time * 3)
            done += run.requests
            if run.bad_errors():
                problems.append(f"memory phase: errors {describe_errors(run.bad_errors())}")
            memory.append((f"after {done:,} requests", done, 0, server.status()))

        # 3. One request at the size limits, then by 1 and 4 clients.
        large = limit_request()
        status, reply = post_once(server.port, large)
        if status != 200:
            problems.append(f"the request at the size limits got {status}: {reply[:300]!r}")
        verdicts = Counter(s["verdict"] for s in json.loads(reply)["result"]["sentences"]) if status == 200 else Counter()
        # One more character: a space at the end of the answer, before the chunks' closing ].
        for field, longer in (("answer", large["answer"] + " "), ("chunks", large["chunks"][:-1] + " ]")):
            status_over, reply_over = post_once(server.port, dict(large, **{field: longer}))
            if status_over != 422 or b"at most" not in reply_over or field.encode() not in reply_over:
                problems.append(f"{field} one character over its limit got {status_over}, not 422: {reply_over[:200]!r}")
        large_body = json.dumps(large, ensure_ascii=False).encode()
        large_runs = []
        for clients in (1, 4):
            run = load(server, large_body, b'"verdict"', clients, args.large_requests, args.phase_time)
            large_runs.append((clients, run))
            large_done = sum(r.requests for _, r in large_runs) + 3
            memory.append((f"then after {large_done} at the size limits", done, large_done, server.status()))
        code = server.stop()
        if code != 0:
            problems.append(f"the memory server exited with {code} on SIGTERM, not 0")

        # 4. Idle connections; 5. oversized MCP calls.
        idle, idle_problems = idle_connections(binary, tmp, args.idle)
        problems.extend(idle_problems)
        oversized, mcp_problems = oversized_mcp(binary, tmp)
        problems.extend(mcp_problems)

    for clients, run in runs + large_runs:
        if run.bad_errors():
            problems.append(f"{clients} clients: errors other than 429/503: {describe_errors(run.bad_errors())}")
    first, last = memory[1][3]["VmRSS"], memory[len(memory_after)][3]["VmRSS"]
    flat = last - first < 16 * MIB
    if not flat:
        problems.append(f"memory grew from {mib(first)} to {mib(last)} MiB VmRSS between {memory[1][0]} and {memory[len(memory_after)][0]}")

    # The report.
    load1, load5, _ = os.getloadavg()
    print(f"### ragcite serve under load ({build}: {os.path.relpath(binary, REPO)})\n")
    print(
        f"{os.cpu_count()} cores shared by the server and the clients (Python threads, one keep-alive connection "
        f"each); load average {load1:.2f} (1 min), {load5:.2f} (5 min) at the end; server with the default "
        f"--max-concurrent, --max-concurrent-per-client {os.cpu_count()} (the clients share one address) and --rate-limit 1000000/s. Latency is per request answered with 200, as a client sees it; "
        f"server CPU is its user + system time divided by the requests.\n"
    )
    print("| request | clients | requests | req/s | p50 ms | p99 ms | server CPU ms/req | errors by status |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for clients, run in runs:
        print(row("worked example (4 sentences, 5 chunks)", clients, run))
    size = f"size limits ({len(large['answer']):,} + {len(large['chunks']):,} chars, {len(large_body) / MIB:.1f} MiB)"
    for clients, run in large_runs:
        print(row(size, clients, run))
    print()
    print("| server memory | worked examples | at the size limits | VmRSS MiB | VmHWM (peak) MiB |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for label, examples, large_count, values in memory:
        print(f"| {label} | {examples:,} | {large_count} | {mib(values['VmRSS'])} | {mib(values['VmHWM'])} |")
    print()
    print(f"The size-limit request: {sum(verdicts.values())} sentences ({', '.join(f'{v}: {n}' for v, n in verdicts.most_common())}).")
    grown = (last - first) / max(1, memory[len(memory_after)][1] - memory[1][1])
    print(
        f"Memory {'flat' if flat else 'NOT flat'}: VmRSS {mib(first)} MiB {memory[1][0]}, {mib(last)} MiB "
        f"{memory[len(memory_after)][0]} ({grown:+.0f} bytes a request)."
    )
    print(
        f"Idle connections (--timeout {IDLE_TIMEOUT}): {idle['connected']:,} of {idle['count']:,} connected in "
        f"{idle['opened']:.1f} s ({idle['refused']} refused by the system); GET /healthz from 127.0.0.2 meanwhile: {idle['healthz']}; "
        f"{idle['connected'] - idle['still_open']:,} closed by the server {idle['closed_after']:.1f} s after the first, "
        f"{idle['still_open']} still open; server peak {mib(idle['peak'])} MiB."
    )
    print()
    start, rows, after = oversized
    print("| three MCP calls at once, 16 MiB each, unused argument | body MiB | statuses | VmRSS MiB after | VmHWM (peak) MiB |")
    print("| --- | ---: | --- | ---: | ---: |")
    print(f"| (server at start) | | | {mib(start['VmRSS'])} | {mib(start['VmHWM'])} |")
    for label, size, statuses, values in rows:
        print(f"| {label} | {size / MIB:.1f} | {describe_errors(statuses)} | {mib(values['VmRSS'])} | {mib(values['VmHWM'])} |")
    print(f"| then 5 s without requests | | | {mib(after['VmRSS'])} | {mib(after['VmHWM'])} |")
    print()
    print(f"load-serve took {time.monotonic() - started:.1f} s")
    for problem in problems:
        print(f"load-serve: FAIL {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
