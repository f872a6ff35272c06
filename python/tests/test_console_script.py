"""The wheel's `ragcite` command is the Rust binary's program: same output, same exit codes."""

import json
import os
import signal
import subprocess
import sys
import urllib.request

import pytest

from conftest import REPO, TESTDATA

# What the runs see of the environment: no colour or CI variables, a fixed width, and a fixed
# clock for `--format api`'s computedAt (two runs a second apart would differ otherwise).
ENV = {
    key: value
    for key, value in os.environ.items()
    if key not in {"NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "FORCE_COLOR", "CI", "GITHUB_ACTIONS"}
}
ENV["COLUMNS"] = "100"
ENV["SOURCE_DATE_EPOCH"] = "1767225600"

EIFFEL = ["testdata/eiffel/answer.md", "testdata/eiffel/chunks.json"]

COMMANDS = [
    (["check", *EIFFEL], 1),
    (["check", *EIFFEL, "--format", "json"], 1),
    (["check", *EIFFEL, "--format", "sarif"], 1),
    (["check", *EIFFEL, "--format", "api"], 1),
    (["check", *EIFFEL, "--format", "github", "--max-uncited", "5", "--max-number-mismatch", "5", "--max-unsupported", "5"], 0),
    (["check", "testdata/stacks/bedrock-kb/response.json", "--format", "json"], None),
    (["check", "testdata/eiffel/missing.md", "testdata/eiffel/chunks.json"], 2),
    (["check", *EIFFEL, "--threshold", "7"], 2),
    (["batch", "testdata/ci/batch.jsonl"], 1),
    (["batch", "testdata/ci/batch.jsonl", "--format", "jsonl"], 1),
    (["batch", "testdata/ci/broken.json", "--format", "json"], 2),
    (["quote", "testdata/eiffel/chunks.json", "a wrought-iron lattice tower in Paris"], 0),
    (["quote", "testdata/eiffel/chunks.json", "a wrought iron lattice tower in Rome", "--format", "json"], 1),
    (["explain", "number-mismatch"], 0),
    (["explain", "no-such-verdict"], 2),
    (["--version"], 0),
    (["--help"], 0),
    (["check", "--help"], 0),
    (["no-such-command"], 2),
]


def run(program, args, stdin=None):
    isolated = ["--isolated"] if args and args[0] in {"check", "batch"} and "--help" not in args else []
    return subprocess.run(
        [program, *args, *isolated],
        input=stdin,
        capture_output=True,
        cwd=REPO,
        env=ENV,
        check=False,
    )


@pytest.mark.parametrize("args, code", COMMANDS, ids=[" ".join(c[0])[:60] for c in COMMANDS])
def test_same_output_and_exit_code_as_the_rust_binary(console_script, rust_binary, args, code):
    from_python = run(console_script, args)
    from_rust = run(rust_binary, args)
    if code is not None:
        assert from_python.returncode == code, from_python.stderr
    assert from_python.returncode == from_rust.returncode
    assert from_python.stdout == from_rust.stdout
    assert from_python.stderr == from_rust.stderr


def test_exit_codes(console_script):
    assert run(console_script, ["check", *EIFFEL]).returncode == 1
    clean = run(console_script, ["check", "testdata/eiffel/answer.md", "testdata/eiffel/chunks.json", "--max-uncited", "9", "--max-number-mismatch", "9", "--max-unsupported", "9"])
    assert clean.returncode == 0, clean.stderr
    missing = run(console_script, ["check", "nope.md", "testdata/eiffel/chunks.json"])
    assert missing.returncode == 2
    assert missing.stderr.decode().count("\n") == 1
    assert missing.stderr.decode().startswith("ragcite: error: nope.md: cannot read")


def test_standard_input_and_python_dash_m(console_script):
    answer = (TESTDATA / "eiffel" / "answer.md").read_bytes()
    piped = run(console_script, ["check", "-", "testdata/eiffel/chunks.json", "--format", "json"], stdin=answer)
    assert piped.returncode == 1
    assert [s["verdict"] for s in json.loads(piped.stdout)["result"]["sentences"]] == [
        "supported",
        "number-mismatch",
        "unsupported-citation",
        "uncited-claim",
    ]
    as_module = subprocess.run(
        [sys.executable, "-m", "ragcite", "--version"], capture_output=True, cwd=REPO, env=ENV, check=False
    )
    assert as_module.returncode == 0
    assert as_module.stdout == run(console_script, ["--version"]).stdout


def test_a_closed_pipe_is_no_error(console_script, tmp_path):
    record = {"response": "The tower is 330 metres tall [1].", "retrieved_contexts": ["The tower is 330 metres tall."]}
    runs = tmp_path / "runs.jsonl"
    runs.write_text("".join(json.dumps({"id": f"r{i}", **record}) + "\n" for i in range(5000)), encoding="utf-8")
    with open(runs, "rb") as stdin:
        reader = subprocess.Popen(
            [console_script, "batch", "-", "--format", "jsonl", "--isolated", "--stdin-filename", "runs.jsonl"],
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=REPO,
            env=ENV,
        )
        first = json.loads(reader.stdout.readline())
        reader.stdout.close()
        code = reader.wait(timeout=60)
    assert first["id"] == "r0" and first["passed"] is True
    # The records read so far passed, so the gate did; nothing is said about the closed pipe.
    assert code == 0
    assert reader.stderr.read() == b""


def test_serve_runs_in_the_console_script_and_stops_on_sigterm(console_script):
    server = subprocess.Popen(
        [console_script, "serve", "--port", "0", "--isolated"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=REPO,
        env=ENV,
    )
    try:
        first = server.stderr.readline().decode().strip()
        assert first.startswith("listening on http://127.0.0.1:"), first
        address = first.removeprefix("listening on ")
        with urllib.request.urlopen(address + "/healthz", timeout=10) as response:
            assert json.load(response)["status"] == "ok"
        body = json.dumps(
            {
                "answer": (TESTDATA / "eiffel" / "answer.md").read_text(encoding="utf-8"),
                "chunks": (TESTDATA / "eiffel" / "chunks.json").read_text(encoding="utf-8"),
            }
        ).encode()
        request = urllib.request.Request(
            address + "/api/v1/calculate", data=body, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            envelope = json.load(response)
        assert [s["verdict"] for s in envelope["result"]["sentences"]] == [
            "supported",
            "number-mismatch",
            "unsupported-citation",
            "uncited-claim",
        ]
    finally:
        server.send_signal(signal.SIGTERM)
        code = server.wait(timeout=30)
    assert code == 0
