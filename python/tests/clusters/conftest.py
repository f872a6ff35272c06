"""What the cluster recipes' tests share: the transcript sets, `ragcite batch` on them (the
reference every aggregate must equal), running a recipe as its users do and watching what its
cluster listens on.

RAGCITE_REQUIRE_CLUSTERS=1 turns a missing engine (dask, pyspark, ray, a network namespace for
Ray) into a failure instead of a skip, as CI sets it.
"""

from __future__ import annotations

import importlib
import importlib.util
import ipaddress
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import transcripts  # noqa: E402

REPO = HERE.parents[2]
RECIPES = REPO / "python" / "examples" / "clusters"
REQUIRED = os.environ.get("RAGCITE_REQUIRE_CLUSTERS") == "1"
#: The fields of `ragcite batch --format json` that a recipe's result holds.
COMPARED = ("summary", "aggregate", "gate")


def require(module: str):
    """The module, or a skip (a failure under RAGCITE_REQUIRE_CLUSTERS=1) when it is missing."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        if REQUIRED:
            pytest.fail(f"RAGCITE_REQUIRE_CLUSTERS=1 and {module} cannot be imported: {e}")
        pytest.skip(f"{module} is not installed")


@pytest.fixture(scope="session")
def lake(tmp_path_factory):
    """``lake(n)``: the folder of the transcript set of ``n`` records (``transcripts.jsonl``
    and the Parquet dataset ``parquet/``), made once per session."""
    made: Dict[int, Path] = {}

    def make(n: int) -> Path:
        if n not in made:
            folder = tmp_path_factory.mktemp(f"lake{n}")
            rows = list(transcripts.records(n))
            transcripts.write_jsonl(folder / "transcripts.jsonl", rows)
            if importlib.util.find_spec("pyarrow") is not None:
                transcripts.write_parquet(folder / "parquet", rows)
            made[n] = folder
        return made[n]

    return make


def limit_options(limits: Dict[str, object]) -> List[str]:
    """``ragcite.batch`` keywords as the command line's options."""
    options: List[str] = []
    for name, value in limits.items():
        options += ["--" + name.replace("_", "-"), str(value)]
    return options


def ragcite_batch(path: Path, limits: Dict[str, object], *more: str) -> dict:
    """The document of the console script ``ragcite batch PATH --format json --isolated``."""
    script = Path(sys.executable).with_name("ragcite")
    command = [str(script) if script.exists() else "ragcite"]
    command += ["batch", str(path), "--format", "json", "--isolated", *more]
    command += limit_options(limits)
    run = subprocess.run(command, capture_output=True, timeout=300)
    assert run.returncode in (0, 1), run.stderr.decode()
    return json.loads(run.stdout)


def assert_same_as_batch(result: dict, reference: dict) -> None:
    """``summary``, ``aggregate`` and ``gate`` equal, field by field and as JSON writes them."""
    for field in COMPARED:
        assert field in result, f"the result has no {field}"
    assert result["summary"] == reference["summary"]
    got, want = result["aggregate"], reference["aggregate"]
    for key in ("records", "checked", "badRecords", "failingRecords"):
        assert got[key] == want[key], f"aggregate.{key}: {got[key]} != {want[key]}"
    for key, value in want["counts"].items():
        assert got["counts"][key] == value, f"aggregate.counts.{key}: {got['counts'][key]} != {value}"
    for key, value in want["rates"].items():
        assert repr(got["rates"][key]) == repr(value), f"aggregate.rates.{key}: {got['rates'][key]!r} != {value!r}"
    assert result["gate"] == reference["gate"]
    for field in COMPARED:  # as printed: same keys, same numbers, same types
        assert json.dumps(result[field], sort_keys=True) == json.dumps(reference[field], sort_keys=True)


def _is_loopback(ip: str) -> bool:
    address = ipaddress.ip_address(ip.split("%")[0])
    mapped = getattr(address, "ipv4_mapped", None)
    return address.is_loopback or bool(mapped and mapped.is_loopback)


def run_recipe(
    script: str, args: Sequence[str], *, prefix: Sequence[str] = (), env: Optional[dict] = None,
    timeout: float = 600,
) -> Tuple[List[dict], str, List[Tuple[str, int]], set]:
    """Runs ``python examples/clusters/SCRIPT ARGS`` (after ``prefix``, such as ``unshare``) as
    its users do, and returns its results (one per path), its standard error, every listening TCP address that
    its processes opened and the network namespaces they ran in, seen by polling them while it
    ran (needs psutil; it sees the sockets of this process's namespace only)."""
    import psutil

    command = [*prefix, sys.executable, str(RECIPES / script), *args]
    full_env = dict(os.environ, PYTHONUNBUFFERED="1", **(env or {}))
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=full_env)
    seen: set = set()
    namespaces: set = set()
    done = threading.Event()

    def watch() -> None:
        root = psutil.Process(process.pid)
        while not done.is_set():
            try:
                tree = [root, *root.children(recursive=True)]
            except psutil.Error:
                break
            for member in tree:
                try:
                    # The prefix's `unshare` starts in this namespace and leaves it before it
                    # runs anything: its command line, read before the namespace, says which.
                    with open(f"/proc/{member.pid}/cmdline", "rb") as cmdline:
                        program = os.path.basename(cmdline.read().split(b"\0", 1)[0])
                    if prefix and program == os.path.basename(prefix[0]).encode():
                        continue
                    namespaces.add(os.readlink(f"/proc/{member.pid}/ns/net"))
                except OSError:
                    pass
                try:
                    connections = member.net_connections(kind="inet")
                except psutil.Error:
                    continue
                for c in connections:
                    if c.status == psutil.CONN_LISTEN:
                        seen.add((c.laddr.ip, c.laddr.port))
            time.sleep(0.2)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        out, err = process.communicate(timeout=timeout)
    finally:
        done.set()
        if process.poll() is None:
            process.kill()
            process.communicate()
        watcher.join()
    stderr = err.decode("utf-8", errors="replace")
    assert process.returncode in (0, 1), f"{script} failed ({process.returncode}):\n{stderr[-4000:]}"
    lines = out.decode("utf-8").strip().splitlines()
    assert len(lines) == len(args), f"{script} printed {len(lines)} results:\n{stderr[-4000:]}"
    return [json.loads(line) for line in lines], stderr, sorted(seen), namespaces


def assert_loopback_only(listening: List[Tuple[str, int]], namespaces: set) -> None:
    assert namespaces == {os.readlink("/proc/self/ns/net")}, "the cluster ran in another network namespace"
    assert listening, "no listening socket was seen: the watch saw nothing of the cluster"
    public = [address for address in listening if not _is_loopback(address[0])]
    assert not public, f"the cluster listened beyond loopback: {public}"


def recipe_limits(script: str) -> dict:
    """The LIMITS a recipe passes, read from its source (without importing its engine)."""
    import ast

    tree = ast.parse((RECIPES / script).read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "LIMITS" for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError(f"{script} sets no LIMITS")


def stats(stderr: str, path: Path, result: dict) -> Tuple[int, str]:
    """What the recipe says of ``path`` on standard error (``PATH: 5 partitions, 11.40 s``):
    the number of partitions (or batches) and a line with records/s."""
    import re

    said = re.findall(rf"^{re.escape(str(path))}: (\d+) (\w+), ([\d.]+) s$", stderr, re.M)
    assert said, f"nothing said of {path} in:\n{stderr[-2000:]}"
    parts, what, seconds = said[-1]
    records = result["aggregate"]["records"]
    line = (f"{path.name}: {records} records in {parts} {what}, {float(seconds):.1f} s, "
            f"{records / float(seconds):.0f} records/s")
    return int(parts), line


def unshare_prefix() -> List[str]:
    """A command prefix that runs in a new network namespace whose only interface is loopback,
    or a skip (a failure under RAGCITE_REQUIRE_CLUSTERS=1) when none can be made here."""
    unshare, ip = shutil.which("unshare"), shutil.which("ip") or "/usr/sbin/ip"
    prefix = [unshare or "unshare", "--net", "sh", "-c", f'{ip} link set lo up && exec "$0" "$@"']
    probe = subprocess.run([*prefix, "cat", "/proc/net/dev"], capture_output=True, timeout=30)
    interfaces = [line.split(":")[0].strip() for line in probe.stdout.decode().splitlines()[2:]]
    if probe.returncode != 0 or interfaces != ["lo"]:
        reason = f"no network namespace with loopback only: {probe.stderr.decode().strip() or interfaces}"
        if REQUIRED:
            pytest.fail(f"RAGCITE_REQUIRE_CLUSTERS=1 and {reason}")
        pytest.skip(reason)
    return prefix
