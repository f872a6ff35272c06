#!/usr/bin/env python3
"""The speed targets of docs/performance.md ("Fast again"), measured side by side: whole
processes, run in turns, medians of wall time, CPU time (user + system) and peak resident memory.

    python3 scripts/bench/bench-targets.py DEV_DIR [--bin BEFORE --bin AFTER] [--runs 15]
        [--peer PYTHON]

Workloads:
- a one-sentence answer citing its one chunk (written by the script), against `wc -w` on the
  same two files;
- the worked example (`testdata/eiffel`);
- the seed's limits: real text as `scripts/bench/bench-peer.py` builds it at the service's size
  limits (AttributionBench claims citing their passages, WiCE's pages as more chunks), against
  `wc -w` and the closest peer, citation-integrity-check 0.1.0, a pure-Python checker, run as
  `PYTHON -c` (`--peer` names an interpreter that can import it: `python3 -m venv /tmp/peer &&
  /tmp/peer/bin/pip install citation-integrity-check==0.1.0`).

Each ragcite process is `check ANSWER CHUNKS --format json --isolated`. Every command of a
workload runs once per round, in turn, `--runs` rounds. `batch` throughput is measured by
`scripts/bench/bench-batch.py` (see docs/performance.md). Peak memory is GNU time's (`/usr/bin/time
-f %M`, median of three more runs). Prints a Markdown table.
"""

import argparse
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def bench_peer():
    spec = importlib.util.spec_from_file_location("bench_peer", os.path.join(HERE, "bench-peer.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(command):
    """Wall ms and CPU ms of one whole process of `command`."""
    start = time.perf_counter()
    with open(os.devnull, "wb") as null:
        process = subprocess.Popen(command, stdout=null, stderr=null)
        _, status, usage = os.wait4(process.pid, 0)
    wall = (time.perf_counter() - start) * 1000
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{command[0]} exited with {code}: {' '.join(command)}")
    return wall, (usage.ru_utime + usage.ru_stime) * 1000


def peak(command):
    """Peak resident MiB of one process of `command`, as GNU time reports it. (The peak that
    wait4 gives a child of this script counts the script's own pages, which the child holds
    between fork and exec.)"""
    done = subprocess.run(["/usr/bin/time", "-f", "%M"] + command, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    return int(done.stderr.strip().splitlines()[-1]) / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dev")
    parser.add_argument("--bin", action="append", help="a ragcite binary (more than one: in turns)")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--peer", help="a Python interpreter that imports citation_integrity_check")
    args = parser.parse_args()
    binaries = args.bin or [os.path.join(ROOT, "target/release/ragcite")]
    peer = bench_peer()
    work = tempfile.mkdtemp()
    try:
        one = (os.path.join(work, "one.md"), os.path.join(work, "one.json"))
        with open(one[0], "w", encoding="utf-8") as f:
            f.write("The Eiffel Tower is 330 metres tall [1].\n")
        with open(one[1], "w", encoding="utf-8") as f:
            json.dump([{"id": "1", "text": "The Eiffel Tower is 330 metres tall and was built "
                        "in 1889."}], f)
        eiffel = (os.path.join(ROOT, "testdata/eiffel/answer.md"),
                  os.path.join(ROOT, "testdata/eiffel/chunks.json"))
        answer, chunks = peer.real_text(args.dev, 1)
        limits = (os.path.join(work, "answer.md"), os.path.join(work, "chunks.json"))
        with open(limits[0], "w", encoding="utf-8") as f:
            f.write(answer)
        with open(limits[1], "w", encoding="utf-8") as f:
            json.dump(chunks, f)
        sentences, n_chunks = answer.count("]."), len(chunks)
        workloads = [
            ("one-sentence answer", one, True, False),
            ("the worked example (testdata/eiffel)", eiffel, False, bool(args.peer)),
            (f"the seed's limits ({sentences} sentences, {n_chunks} chunks, real text)", limits,
             True, bool(args.peer)),
        ]
        print("| workload | command | wall ms | CPU ms | peak MiB |")
        print("|---|---|---|---|---|")
        for name, (a, c), with_wc, with_peer in workloads:
            commands = [(f"ragcite ({b})", [b, "check", a, c, "--format", "json", "--isolated"])
                        for b in binaries]
            if with_peer:
                commands.append(("peer", [args.peer, "-c", peer.PEER, a, c]))
            if with_wc:
                commands.append(("wc -w", ["wc", "-w", a, c]))
            results = {label: [] for label, _ in commands}
            for _, command in commands:  # one round to warm the page cache
                run(command)
            for _ in range(args.runs):
                for label, command in commands:
                    results[label].append(run(command))
            for label, command in commands:
                wall, cpu = (statistics.median(x[k] for x in results[label]) for k in range(2))
                mib = statistics.median(peak(command) for _ in range(3))
                print(f"| {name} | {label} | {wall:.2f} | {cpu:.2f} | {mib:.1f} |")
        print(f"\nwhole processes, medians of {args.runs} rounds, commands run in turns")
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
