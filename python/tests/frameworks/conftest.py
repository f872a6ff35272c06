"""Shared set-up of the eval-framework tests: no network, no telemetry, no writes outside
temporary folders, and the frameworks required when RAGCITE_REQUIRE_FRAMEWORKS=1.

pytest.ini beside this file keeps DeepEval's pytest plugin from loading, so that DeepEval is
imported only after the variables below are set (the plugin would import it before any
conftest runs).
"""

from __future__ import annotations

import filecmp
import importlib
import json
import os
import socket
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any, List

import pytest

HERE = Path(__file__).resolve().parent
CHECKOUT_PACKAGE = HERE.parent.parent / "ragcite"
TESTDATA = HERE.parent.parent.parent / "testdata"

# Where the frameworks may write: one temporary folder for the whole run.
_STATE = Path(tempfile.mkdtemp(prefix="ragcite-frameworks-"))

os.environ.update(
    {
        # DeepEval: no telemetry, no .env files or key file read from the working directory,
        # no update check, no prompt after a run; its state and cache in the temporary folder.
        "DEEPEVAL_TELEMETRY_OPT_OUT": "1",
        "DEEPEVAL_DISABLE_DOTENV": "1",
        "DEEPEVAL_DISABLE_LEGACY_KEYFILE": "1",
        "DEEPEVAL_NO_INSPECT_PROMPT": "1",
        "DEEPEVAL_HOME": str(_STATE / "deepeval-home"),
        "DEEPEVAL_CACHE_FOLDER": str(_STATE / "deepeval-cache"),
        # RAGAS: no usage tracking; its user id file (appdirs) in the temporary folder.
        "RAGAS_DO_NOT_TRACK": "true",
        "XDG_DATA_HOME": str(_STATE / "data"),
        # Hugging Face libraries (RAGAS imports `datasets`): offline, cache in the folder.
        "HF_HOME": str(_STATE / "huggingface"),
        "HF_HUB_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
    }
)
for name in (
    "DEEPEVAL_UPDATE_WARNING_OPT_IN",
    "DEEPEVAL_RESULTS_FOLDER",
    "CONFIDENT_API_KEY",
    "OPENAI_API_KEY",
    "RAGAS_APP_TOKEN",
):
    os.environ.pop(name, None)


# No network: a connection to anything but loopback, or a name look-up other than localhost,
# fails at once and is recorded; a test during which one was tried fails (see below).
_attempts: List[Any] = []
_connect = socket.socket.connect
_connect_ex = socket.socket.connect_ex
_getaddrinfo = socket.getaddrinfo
_LOCAL = ("localhost", "127.0.0.1", "::1", None)


def _is_local(address: Any) -> bool:
    if not isinstance(address, tuple):
        return True  # a Unix socket path
    host = address[0]
    return host in _LOCAL or (isinstance(host, str) and host.startswith("127."))


def _guarded_connect(self: socket.socket, address: Any) -> Any:
    if not _is_local(address):
        _attempts.append(address)
        raise OSError(f"network access in a test: connect to {address!r}")
    return _connect(self, address)


def _guarded_connect_ex(self: socket.socket, address: Any) -> Any:
    if not _is_local(address):
        _attempts.append(address)
        raise OSError(f"network access in a test: connect to {address!r}")
    return _connect_ex(self, address)


def _guarded_getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
    if host not in _LOCAL and not (isinstance(host, str) and host.startswith("127.")):
        _attempts.append(("getaddrinfo", host))
        raise socket.gaierror(f"network access in a test: look-up of {host!r}")
    return _getaddrinfo(host, *args, **kwargs)


socket.socket.connect = _guarded_connect  # type: ignore[method-assign]
socket.socket.connect_ex = _guarded_connect_ex  # type: ignore[method-assign]
socket.getaddrinfo = _guarded_getaddrinfo


@pytest.fixture(autouse=True)
def _no_network() -> Any:
    before = len(_attempts)
    yield
    tried = _attempts[before:]
    if tried:
        pytest.fail(f"the test tried to reach the network: {tried!r}", pytrace=False)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # Attempts from background threads (telemetry flushes) made after their test ended.
    if _attempts and session.exitstatus == 0:
        session.exitstatus = 1
        print(f"\nnetwork access was tried during the run: {_attempts!r}")


def pytest_sessionstart(session: pytest.Session) -> None:
    """The installed ragcite must carry this checkout's metrics code: the tests import the
    installed package (its native extension is there), so a stale install would test old code."""
    import ragcite

    installed = Path(ragcite.__file__).resolve().parent
    if installed == CHECKOUT_PACKAGE.resolve():
        return
    stale = [
        name
        for name in ("metrics.py", "_deepeval.py", "_ragas.py")
        if not (installed / name).is_file()
        or not filecmp.cmp(installed / name, CHECKOUT_PACKAGE / name, shallow=False)
    ]
    if stale:
        pytest.exit(
            f"the installed ragcite ({installed}) differs from this checkout in "
            f"{', '.join(stale)}: build and install the wheel of this checkout first",
            returncode=3,
        )


def require(package: str) -> ModuleType:
    """Imports a framework; without it, skips the calling test module, or fails it when
    RAGCITE_REQUIRE_FRAMEWORKS=1 (as CI sets)."""
    try:
        return importlib.import_module(package)
    except ImportError as error:
        message = f"{package} is not installed ({error})"
    if os.environ.get("RAGCITE_REQUIRE_FRAMEWORKS") == "1":
        pytest.fail(f"{message}, and RAGCITE_REQUIRE_FRAMEWORKS=1 requires it", pytrace=False)
    pytest.skip(message, allow_module_level=True)


def eiffel() -> "tuple[str, list[str]]":
    """The worked example: the answer and its chunks' texts, [1] citing the first."""
    answer = (TESTDATA / "eiffel" / "answer.md").read_text(encoding="utf-8")
    chunks = json.loads((TESTDATA / "eiffel" / "chunks.json").read_text(encoding="utf-8"))
    return answer, [chunk["text"] for chunk in chunks]


# The worked example's reason, written out by hand from the verdicts ragcite explains
# (supported, number-mismatch, unsupported-citation, uncited-claim): the three failing
# sentences, with the number no cited chunk holds and the chunk to cite instead.
EIFFEL_REASON = (
    "1 of 4 claim sentences supported (score 0.25). Not supported:\n"
    '- sentence 2, number-mismatch: "It was completed in 1888 for the World\'s Fair [2]." '
    "(not in the cited chunks: 1888)\n"
    '- sentence 3, unsupported-citation: "It was designed by the engineering company of '
    'Gustave Eiffel [3]." (support 0.00 < threshold 0.5; missing words: designed, '
    "engineering, company, gustave, eiffel; suggested citation: [4])\n"
    '- sentence 4, uncited-claim: "Around 7 million people visit it every year." '
    "(cites nothing)"
)

#: Two sentences that chunk 1 of the worked example supports.
SUPPORTED_ANSWER = (
    "The Eiffel Tower is a wrought-iron lattice tower in Paris [1]. "
    "It is 330 metres tall [1]."
)
