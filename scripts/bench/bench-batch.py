#!/usr/bin/env python3
"""Times `ragcite batch` on a RAGAS-style JSON Lines file built from labelled eval data.

Usage: scripts/bench/bench-batch.py EVAL_DIR [--bin target/release/ragcite] [--scale 10] [--runs 3]
       scripts/bench/bench-batch.py EVAL_DIR --sizes 10,50,200 [--formats jsonl,json,table,...]
           [--bin BEFORE --bin AFTER] [--keep DIR] [--markdown]

EVAL_DIR holds *.jsonl files whose records have `answer` and `chunks[].text` (the labelled
data of docs/evaluation.md). The script writes, in a temporary directory, `ragas.jsonl` (one record per
source record: user_input, response, retrieved_contexts) and a copy repeated SCALE times, runs
`ragcite batch --format jsonl` on each (output discarded), and reports records per second, MB per
second and the peak resident memory of the ragcite process (from wait4), for both sizes.

With --sizes, it writes files of those many MB instead (the records shuffled once with a fixed
seed, so that every size has the same mix, and repeated as needed) and runs every format of --formats on each: whether memory stays flat as the file
grows, in each output format. Each cell gives MB per second of wall time, MB per second of CPU
time (user + system: what a run costs, whatever else the machine is doing) and the peak resident
memory. With --bin given more than once, the binaries run in turns on each file and format (the
same conditions for each), one row each. --keep DIR writes the files there (and keeps them, to
profile or to compare outputs) instead of a temporary directory; files already there of the
right size are reused. --markdown prints the table as Markdown.
"""
import argparse
import glob
import json
import os
import random
import subprocess
import sys
import tempfile
import time


def build(eval_dir, path):
    records = 0
    with open(path, "w", encoding="utf-8") as out:
        for source in sorted(glob.glob(os.path.join(eval_dir, "*.jsonl"))):
            with open(source, encoding="utf-8") as lines:
                for line in lines:
                    record = json.loads(line)
                    if "answer" not in record or "chunks" not in record:
                        continue
                    out.write(json.dumps({
                        "user_input": record.get("question") or "",
                        "response": record["answer"],
                        "retrieved_contexts": [c.get("text", "") for c in record["chunks"]],
                    }) + "\n")
                    records += 1
    return records


def run(binary, path, fmt="jsonl"):
    """Wall seconds, CPU seconds (user + system) and peak RSS (KiB) of one `ragcite batch` run."""
    start = time.perf_counter()
    # Through a fresh small interpreter that starts it and reports its usage: a process started
    # straight from this one inherits this one's peak memory (Linux keeps the largest resident
    # set across exec, and Python starts processes with vfork), which would be the floor of
    # every figure. The small interpreter's (about 10 MiB) is the floor instead.
    out = subprocess.run(
        [sys.executable, "-c", WAIT, binary, "batch", path, "--format", fmt, "--isolated"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True,
    ).stdout
    code, cpu, maxrss = json.loads(out)
    elapsed = time.perf_counter() - start
    if code not in (0, 1):
        sys.exit(f"ragcite batch exited with {code} on {path}")
    return elapsed, cpu, maxrss


# Runs argv[1:] with its output discarded and prints its exit code, CPU seconds and peak RSS (KiB).
WAIT = """
import json, os, subprocess, sys
proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_, status, usage = os.wait4(proc.pid, 0)
print(json.dumps([os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime, usage.ru_maxrss]))
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("eval_dir")
    parser.add_argument("--bin", action="append", help="the binary (default target/release/ragcite); "
                        "given more than once, each is measured in turns")
    parser.add_argument("--scale", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", help="file sizes in MB, comma-separated (e.g. 10,50)")
    parser.add_argument("--formats", default="jsonl,json,table,sarif,github,gitlab,junit,html")
    parser.add_argument("--keep", help="with --sizes: write the files in this folder and keep them")
    parser.add_argument("--markdown", action="store_true", help="with --sizes: a Markdown table")
    args = parser.parse_args()
    args.bin = args.bin or ["target/release/ragcite"]
    for binary in args.bin:
        if not os.path.exists(binary):
            sys.exit(f"{binary} not found: run `cargo build --release` first")
    if args.sizes:
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            return by_size(args, args.keep)
        with tempfile.TemporaryDirectory() as tmp:
            return by_size(args, tmp)
    args.bin = args.bin[0]
    with tempfile.TemporaryDirectory() as tmp:
        small = os.path.join(tmp, "ragas.jsonl")
        records = build(args.eval_dir, small)
        large = os.path.join(tmp, f"ragas-x{args.scale}.jsonl")
        with open(small, "rb") as src, open(large, "wb") as dst:
            data = src.read()
            for _ in range(args.scale):
                dst.write(data)
        rows = []
        for label, path, count in [("1x", small, records), (f"{args.scale}x", large, records * args.scale)]:
            size = os.path.getsize(path) / 1e6
            best = min((run(args.bin, path) for _ in range(args.runs)), key=lambda r: r[0])
            seconds, _, rss = best
            rows.append((label, count, size, seconds, count / seconds, size / seconds, rss / 1024))
        print(f"{'file':>5} {'records':>9} {'MB':>8} {'seconds':>8} {'records/s':>10} {'MB/s':>7} {'peak MiB':>9}")
        for label, count, size, seconds, rps, mbps, rss in rows:
            print(f"{label:>5} {count:>9} {size:>8.1f} {seconds:>8.2f} {rps:>10.0f} {mbps:>7.1f} {rss:>9.1f}")
        print(json.dumps({"records": rows[0][1], "mb": round(rows[0][2], 1), "records_per_s": round(rows[0][4]),
                          "mb_per_s": round(rows[0][5], 1), "peak_mib": round(rows[0][6], 1),
                          "peak_mib_scaled": round(rows[1][6], 1), "scale": args.scale}))


def by_size(args, tmp):
    sizes = [int(mb) for mb in args.sizes.split(",")]
    source = os.path.join(tmp, "ragas.jsonl")
    build(args.eval_dir, source)
    with open(source, "rb") as f:
        lines = f.read().splitlines(keepends=True)
    # The same mix of records (short claims, long web pages) at every size.
    random.Random(7).shuffle(lines)
    files = []
    for mb in sizes:
        path = os.path.join(tmp, f"ragas-{mb}mb.jsonl")
        if not os.path.exists(path) or os.path.getsize(path) > mb * 1e6 or os.path.getsize(path) < mb * 1e6 - 1e6:
            with open(path, "wb") as out:
                written = 0
                for k in range(10**9):
                    line = lines[k % len(lines)]
                    if written + len(line) > mb * 1e6:
                        break
                    out.write(line)
                    written += len(line)
        files.append((mb, path, os.path.getsize(path) / 1e6))
    several = len(args.bin) > 1
    head = ["format"] + (["binary"] if several else [])
    for _mb, _, size in files:
        head += [f"{size:.0f} MB: MB/s", "MB/CPU s", "peak MiB"]
    show(head, args.markdown)
    if args.markdown:
        show(["---"] * len(head), True)
    for fmt in args.formats.split(","):
        cells = {binary: [] for binary in args.bin}
        for _, path, size in files:
            # In turns: each binary's k-th run follows the others' (k-1)-th.
            results = {binary: [] for binary in args.bin}
            for _ in range(args.runs):
                for binary in args.bin:
                    results[binary].append(run(binary, path, fmt))
            for binary in args.bin:
                seconds, cpu, rss = min(results[binary], key=lambda r: r[0])
                cells[binary] += [f"{size / seconds:.1f}", f"{size / cpu:.1f}", f"{rss / 1024:.1f}"]
        for binary in args.bin:
            show([fmt] + ([os.path.basename(binary)] if several else []) + cells[binary], args.markdown)


def show(cells, markdown):
    if markdown:
        print("| " + " | ".join(cells) + " |", flush=True)
    else:
        print(" ".join(f"{c:>12}" for c in cells), flush=True)


if __name__ == "__main__":
    main()
