"""Shared fixtures of the Python package's tests: the repository's testdata, and the console
script of the installed wheel. Run from a fresh virtual environment with the wheel installed:
`pytest python/tests` (see CONTRIBUTING.md)."""

import json
import os
import shutil
import sysconfig
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TESTDATA = REPO / "testdata"


@pytest.fixture(scope="session")
def eiffel():
    """The worked example: its answer text and its chunks as a list of dicts."""
    answer = (TESTDATA / "eiffel" / "answer.md").read_text(encoding="utf-8")
    chunks = json.loads((TESTDATA / "eiffel" / "chunks.json").read_text(encoding="utf-8"))
    return answer, chunks


@pytest.fixture(scope="session")
def console_script():
    """The `ragcite` command of the environment pytest runs in (the wheel's console script)."""
    # Never one found on PATH, which may be a `cargo install`ed binary.
    path = shutil.which("ragcite", path=sysconfig.get_path("scripts"))
    assert path, "the wheel's `ragcite` console script is not in this environment"
    return path


@pytest.fixture(scope="session")
def rust_binary():
    """The Rust binary to compare the console script with: RAGCITE_BIN (CI sets it to the
    binary `cargo build` made). Without it, the comparisons are skipped."""
    path = os.environ.get("RAGCITE_BIN")
    if not path:
        pytest.skip("RAGCITE_BIN is not set: no Rust binary to compare with")
    return path
