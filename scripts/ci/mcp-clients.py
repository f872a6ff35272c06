#!/usr/bin/env python3
"""Drives ragcite's MCP tools with the official MCP Python SDK (`mcp` on PyPI, 2.x), over stdio
(`ragcite mcp`) and over Streamable HTTP (`/mcp` of `ragcite serve`), in every handshake style
the SDK offers:

  Client(mode="legacy")            the initialize handshake (protocol 2025-11-25)
  Client(mode="auto")              server/discover, falling back to initialize (2026-07-28 here)
  Client(mode="2026-07-28")        the modern protocol pinned, no probe
  ClientSession.initialize()       the low-level session, legacy handshake
  ClientSession.discover()         the low-level session, modern handshake

Usage: python scripts/ci/mcp-clients.py BIN        (e.g. target/debug/ragcite)

In each of the ten sessions it checks:
  - the negotiated protocol version;
  - tools/list: rag_citation_debugger and verify_citation, each with an input schema (with its
    required arguments) and an output schema that is a valid JSON Schema;
  - rag_citation_debugger on the worked example (testdata/eiffel): the verdicts supported,
    number-mismatch, unsupported-citation, uncited-claim in that order; structuredContent valid
    against the tool's outputSchema (jsonschema, Draft 2020-12), and the text content the same JSON;
  - verify_citation with `document` text: a sentence of it is found (offsets slice the quote out
    of the text, sha256 is the text's), the same sentence with one word changed is not found and
    closest.differingWords is 1;
  - verify_citation with `document_id` of a text file in a temporary documents folder;
  - verify_citation with `document_id` + `chunk_id` of a JSON chunks file (found in that chunk,
    not found when the quote is from another chunk; the sha256 is the chunk's text's);
  - an unknown document_id, an unknown chunk_id and a call without `quote` give isError results
    whose text says why.
Over HTTP it also checks that the server's first stderr line is `listening on http://HOST:PORT`,
that requests are logged one line each with status 200 (or 202 for a notification), and that
SIGTERM stops it with exit code 0; over stdio, that `ragcite mcp` exits with 0 when its
standard input closes.

Prints one line per check (`ok` or `FAIL` with the details) and a final `N passed, M failed`;
exits 1 when any check failed, 2 when the SDK or jsonschema is missing.
Needs `pip install mcp jsonschema`. Everything stays on this machine (stdio pipes and 127.0.0.1).
"""

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from serve_process import Server

try:
    import anyio
    import jsonschema
    from mcp import Client, ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client
    from mcp.client.streamable_http import streamable_http_client
except ImportError as e:
    print(f"mcp-clients: {e.name} is missing: pip install mcp jsonschema", file=sys.stderr)
    sys.exit(2)

REPO = Path(__file__).resolve().parents[2]
EXAMPLE_ANSWER = (REPO / "testdata/eiffel/answer.md").read_text(encoding="utf-8").strip()
EXAMPLE_CHUNKS_PATH = REPO / "testdata/eiffel/chunks.json"
EXAMPLE_CHUNKS = EXAMPLE_CHUNKS_PATH.read_text(encoding="utf-8")
EXPECTED_VERDICTS = ["supported", "number-mismatch", "unsupported-citation", "uncited-claim"]

DEBUGGER = "rag_citation_debugger"
VERIFY = "verify_citation"

# verify_citation's inputs. The text file of the documents folder is this document too.
DOCUMENT = (
    "Construction of the tower began in 1887 and it was completed in 1889 as the centrepiece "
    "of the 1889 World's Fair. The tower is named after the engineer Gustave Eiffel, whose "
    "company designed and built it.\n"
)
QUOTE = "it was completed in 1889 as the centrepiece"
QUOTE_ONE_WORD_CHANGED = "it was completed in 1888 as the centrepiece"
TEXT_ID = "notes/tower.txt"  # in a subfolder: ids are paths inside the folder
CHUNKS_ID = "eiffel-chunks.json"
CHUNK_QUOTE = "Paris has a population of about 2.1 million inhabitants"  # in chunk "3" only
SESSION_TIMEOUT = 120  # seconds for one whole session; a hang fails instead of waiting forever

LEGACY = "2025-11-25"
MODERN = "2026-07-28"
# (style, how the session is opened, the protocol version it must negotiate)
STYLES = [
    ("Client(mode='legacy')", "legacy", LEGACY),
    ("Client(mode='auto')", "auto", MODERN),
    (f"Client(mode='{MODERN}')", MODERN, MODERN),
    ("ClientSession.initialize()", "initialize", LEGACY),
    ("ClientSession.discover()", "discover", MODERN),
]


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, label, condition, detail=""):
        if condition:
            self.passed += 1
            print(f"ok   {label}", flush=True)
        else:
            self.failed += 1
            detail = detail if isinstance(detail, str) else repr(detail)
            print(f"FAIL {label}: {detail[:800]}", flush=True)
        return condition


CHECKS = Checks()
check = CHECKS.check


def sha256(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def schema_errors(instance, schema):
    """The validation errors of `instance` against `schema`, one line each ('' when valid)."""
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path))
    return "; ".join(f"{e.json_path}: {e.message[:200]}" for e in errors)


def tool_text(result):
    return "\n".join(getattr(block, "text", "") for block in result.content)


class Api:
    """list_tools, call_tool and the negotiated version of a high- or low-level session."""

    def __init__(self, list_tools, call_tool, version):
        self.list_tools = list_tools
        self.call_tool = call_tool
        self.version = version


async def exercise(tag, api, expect_version):
    check(f"{tag}: negotiated protocol {expect_version}", api.version() == expect_version, api.version())

    # tools/list
    listed = await api.list_tools()
    tools = {tool.name: tool for tool in listed.tools}
    if not check(f"{tag}: tools/list has {DEBUGGER} and {VERIFY}", {DEBUGGER, VERIFY} <= tools.keys(), sorted(tools)):
        return
    schemas = {}
    for name, required in ((DEBUGGER, {"answer", "chunks"}), (VERIFY, {"quote"})):
        tool = tools[name]
        inputs = tool.input_schema or {}
        check(
            f"{tag}: {name} inputSchema is an object requiring {sorted(required)}",
            inputs.get("type") == "object" and required <= set(inputs.get("required", [])),
            inputs,
        )
        output = tool.output_schema
        valid = False
        try:
            jsonschema.Draft202012Validator.check_schema(output or {})
            valid = bool(output)
        except jsonschema.SchemaError as e:
            output = f"not a JSON Schema: {e.message}"
        check(f"{tag}: {name} outputSchema is a JSON Schema", valid, output)
        schemas[name] = tool.output_schema if valid else {}

    # rag_citation_debugger on the worked example
    result = await api.call_tool(DEBUGGER, {"answer": EXAMPLE_ANSWER, "chunks": EXAMPLE_CHUNKS})
    content = result.structured_content or {}
    verdicts = [s.get("verdict") for s in content.get("result", {}).get("sentences", [])]
    check(f"{tag}: {DEBUGGER} worked example is not an error", not result.is_error, tool_text(result))
    check(f"{tag}: {DEBUGGER} verdicts {', '.join(EXPECTED_VERDICTS)}", verdicts == EXPECTED_VERDICTS, verdicts)
    check(f"{tag}: {DEBUGGER} schemaVersion 1.0", content.get("schemaVersion") == "1.0", content.get("schemaVersion"))
    errors = schema_errors(content, schemas[DEBUGGER])
    check(f"{tag}: {DEBUGGER} structuredContent valid against its outputSchema", not errors, errors)
    texts = [getattr(block, "text", "") for block in result.content]
    first_line = texts[0].split("\n")[0] if texts else ""
    gate = next((b for b in content.get("presentation", []) if b.get("kind") == "gate"), {})
    check(
        f"{tag}: {DEBUGGER} text content leads with the summary line",
        first_line == gate.get("summary") and first_line.startswith("FAIL · 4 sentences: 1 supported, "),
        first_line,
    )
    findings = texts[0].split("\n")[1:] if texts else []
    check(
        f"{tag}: {DEBUGGER} then one line per finding",
        [f.split(": ")[1] if ": " in f else f for f in findings] == EXPECTED_VERDICTS[1:],
        findings,
    )
    try:
        text_json = json.loads(texts[-1]) if len(texts) == 2 else None
    except ValueError:
        text_json = None
    check(f"{tag}: {DEBUGGER} then the same JSON in a text block", text_json == content, tool_text(result)[:300])

    # verify_citation with the document's text
    result = await api.call_tool(VERIFY, {"quote": QUOTE, "document": DOCUMENT})
    found = result.structured_content or {}
    offsets = found.get("offsets") or [0, 0]
    check(
        f"{tag}: {VERIFY} document text: found, offsets slice the quote, sha256 of the text",
        not result.is_error
        and found.get("found") is True
        and DOCUMENT[offsets[0] : offsets[1]] == QUOTE
        and found.get("sha256") == sha256(DOCUMENT)
        and found.get("closest") is None,
        found or tool_text(result),
    )
    errors = schema_errors(found, schemas[VERIFY])
    check(f"{tag}: {VERIFY} found result valid against its outputSchema", not errors, errors)

    result = await api.call_tool(VERIFY, {"quote": QUOTE_ONE_WORD_CHANGED, "document": DOCUMENT})
    missed = result.structured_content or {}
    closest = missed.get("closest") or {}
    check(
        f"{tag}: {VERIFY} one word changed: not found, closest.differingWords == 1",
        not result.is_error and missed.get("found") is False and closest.get("differingWords") == 1,
        missed or tool_text(result),
    )
    errors = schema_errors(missed, schemas[VERIFY])
    check(f"{tag}: {VERIFY} not-found result valid against its outputSchema", not errors, errors)

    # verify_citation with a document of the folder
    result = await api.call_tool(VERIFY, {"quote": QUOTE, "document_id": TEXT_ID})
    by_id = result.structured_content or {}
    check(
        f"{tag}: {VERIFY} document_id {TEXT_ID}: found, sha256 of the file",
        not result.is_error and by_id.get("found") is True and by_id.get("sha256") == sha256(DOCUMENT),
        by_id or tool_text(result),
    )

    chunks = {c["id"]: c["text"] for c in json.loads(EXAMPLE_CHUNKS)}
    result = await api.call_tool(VERIFY, {"quote": CHUNK_QUOTE, "document_id": CHUNKS_ID, "chunk_id": "3"})
    in_chunk = result.structured_content or {}
    check(
        f"{tag}: {VERIFY} document_id {CHUNKS_ID} chunk_id 3: found, sha256 of the chunk's text",
        not result.is_error and in_chunk.get("found") is True and in_chunk.get("sha256") == sha256(chunks["3"]),
        in_chunk or tool_text(result),
    )
    result = await api.call_tool(VERIFY, {"quote": CHUNK_QUOTE, "document_id": CHUNKS_ID, "chunk_id": "1"})
    other = result.structured_content or {}
    check(
        f"{tag}: {VERIFY} document_id {CHUNKS_ID} chunk_id 1: the quote of chunk 3 is not found there",
        not result.is_error and other.get("found") is False and other.get("sha256") == sha256(chunks["1"]),
        other or tool_text(result),
    )

    # errors come back as isError results with a reason
    for label, arguments, needle in (
        ("unknown document_id", {"quote": QUOTE, "document_id": "no/such/file.txt"}, "no/such/file.txt"),
        ("unknown chunk_id", {"quote": QUOTE, "document_id": CHUNKS_ID, "chunk_id": "99"}, "99"),
        ("no quote", {"document": DOCUMENT}, "quote"),
    ):
        result = await api.call_tool(VERIFY, arguments)
        text = tool_text(result)
        check(
            f"{tag}: {VERIFY} {label}: isError whose text names {needle!r}",
            result.is_error and needle in text,
            f"isError={result.is_error} text={text!r} structured={result.structured_content}",
        )


async def high_level(tag, server, mode, expect_version):
    async with Client(server, mode=mode) as client:
        api = Api(client.list_tools, client.call_tool, lambda: client.protocol_version)
        await exercise(tag, api, expect_version)


async def low_level(tag, transport, style, expect_version):
    async with transport as (read, write):
        async with ClientSession(read, write) as session:
            if style == "initialize":
                await session.initialize()
            else:
                await session.discover()
            api = Api(session.list_tools, session.call_tool, lambda: session.protocol_version)
            await exercise(tag, api, expect_version)


async def run_styles(transport_name, make_server, make_transport):
    """Every handshake style over one transport: `make_server()` gives what Client takes (a URL
    or a transport), `make_transport()` a new connection for ClientSession."""
    for style, how, expect_version in STYLES:
        tag = f"{transport_name} {style}"
        try:
            with anyio.fail_after(SESSION_TIMEOUT):
                if how in ("initialize", "discover"):
                    await low_level(tag, make_transport(), how, expect_version)
                else:
                    await high_level(tag, make_server(), how, expect_version)
        except Exception as e:  # noqa: BLE001 - any failure of a session is one failed check
            check(f"{tag}: the session ran to its end", False, describe(e))


def describe(error):
    """The innermost errors of an exception (task groups wrap them in ExceptionGroups)."""
    if isinstance(error, BaseExceptionGroup):
        return "; ".join(describe(e) for e in error.exceptions)
    return f"{type(error).__name__}: {error}"


def stdio_exits_cleanly(binary, documents):
    """`ragcite mcp` answers an initialize and exits 0 when its standard input closes."""
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "mcp-clients", "version": "0"}},
    }
    try:
        done = subprocess.run(
            [binary, "mcp", "--documents", str(documents)],
            input=json.dumps(initialize) + "\n",
            capture_output=True,
            text=True,
            timeout=30,
        )
    except subprocess.TimeoutExpired:
        check("stdio: the server exits when its standard input closes", False, "still running after 30 s")
        return
    lines = done.stdout.splitlines()
    check(
        "stdio: one JSON-RPC reply on stdout, exit code 0 when standard input closes",
        done.returncode == 0 and len(lines) == 1 and json.loads(lines[0]).get("id") == 1,
        f"exit code {done.returncode}, stdout {done.stdout[:300]!r}, stderr {done.stderr[-300:]!r}",
    )


def documents_folder(root):
    folder = Path(root) / "documents"
    (folder / "notes").mkdir(parents=True)
    (folder / TEXT_ID).write_text(DOCUMENT, encoding="utf-8")
    shutil.copyfile(EXAMPLE_CHUNKS_PATH, folder / CHUNKS_ID)
    return folder


async def main(binary):
    with tempfile.TemporaryDirectory(prefix="ragcite-mcp-clients-") as root:
        documents = documents_folder(root)

        # stdio: the SDK spawns `ragcite mcp` for each session; its stderr goes to a file.
        stdio_log = Path(root) / "stdio.stderr"
        with open(stdio_log, "w", encoding="utf-8") as errlog:
            params = StdioServerParameters(command=binary, args=["mcp", "--documents", str(documents)])
            # Client(...) is given the transport too, so that the stderr goes to the same file.
            transport = lambda: stdio_client(params, errlog=errlog)  # noqa: E731
            await run_styles("stdio", transport, transport)
        stdio_exits_cleanly(binary, documents)
        if CHECKS.failed:
            print(f"     (stderr of the stdio servers: {stdio_log.read_text(encoding='utf-8')[-2000:]!r})")

        # Streamable HTTP: one server for every session.
        server = Server(binary, "--documents", str(documents))
        prefix = "listening on http://127.0.0.1:"
        port = server.first_line[len(prefix) :]
        if not check("http: first stderr line is `listening on http://127.0.0.1:PORT`",
                     server.first_line.startswith(prefix) and port.isdigit() and int(port) > 0,
                     f"{server.first_line!r} (exit code {server.process.poll()})"):
            server.stop()
            return
        url = f"http://127.0.0.1:{port}/mcp"
        try:
            await run_styles("http", lambda: url, lambda: streamable_http_client(url))
        finally:
            code = server.stop()
        posts = [line.split(" ") for line in server.log if line.startswith("POST /mcp ")]
        statuses = sorted({parts[2] for parts in posts})
        check(
            "http: a log line per MCP request (at least 10 a session), each 200 or 202",
            len(posts) >= 10 * len(STYLES) and set(statuses) <= {"200", "202"},
            f"{len(posts)} POST /mcp lines with statuses {statuses}; the last lines: {server.log[-5:]}",
        )
        check("http: SIGTERM stops the server with exit code 0", code == 0, f"exit code {code}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bin", help="the ragcite binary, e.g. target/debug/ragcite")
    args = parser.parse_args()
    binary = os.path.abspath(args.bin)
    if not os.access(binary, os.X_OK):
        print(f"mcp-clients: {args.bin} is not an executable (build it with cargo build)", file=sys.stderr)
        sys.exit(2)
    started = time.monotonic()
    anyio.run(main, binary)
    print(f"mcp-clients took {time.monotonic() - started:.1f} s")
    print(f"mcp-clients: {CHECKS.passed} passed, {CHECKS.failed} failed")
    sys.exit(1 if CHECKS.failed else 0)
