#!/usr/bin/env python3
"""Times `ragcite batch` on a RAGAS-style JSON Lines file built from labelled eval data.

Usage: scripts/bench-batch.py EVAL_DIR [--bin target/release/ragcite] [--scale 10] [--runs 3]

EVAL_DIR holds *.jsonl files whose records have `answer` and `chunks[].text` (the labelled
data of docs/evaluation.md). The script writes, in a temporary directory, `ragas.jsonl` (one record per
source record: user_input, response, retrieved_contexts) and a copy repeated SCALE times, runs
`ragcite batch --format jsonl` on each (output discarded), and reports records per second, MB per
second and the peak resident memory of the ragcite process (from wait4), for both sizes.
"""
import argparse
import glob
import json
import os
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


def run(binary, path):
    """Wall seconds and peak RSS (KiB) of one `ragcite batch` run."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [binary, "batch", path, "--format", "jsonl", "--isolated"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit(f"ragcite batch exited with {code} on {path}")
    return elapsed, usage.ru_maxrss


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("eval_dir")
    parser.add_argument("--bin", default="target/release/ragcite")
    parser.add_argument("--scale", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if not os.path.exists(args.bin):
        sys.exit(f"{args.bin} not found: run `cargo build --release` first")
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
            seconds, rss = best
            rows.append((label, count, size, seconds, count / seconds, size / seconds, rss / 1024))
        print(f"{'file':>5} {'records':>9} {'MB':>8} {'seconds':>8} {'records/s':>10} {'MB/s':>7} {'peak MiB':>9}")
        for label, count, size, seconds, rps, mbps, rss in rows:
            print(f"{label:>5} {count:>9} {size:>8.1f} {seconds:>8.2f} {rps:>10.0f} {mbps:>7.1f} {rss:>9.1f}")
        print(json.dumps({"records": rows[0][1], "mb": round(rows[0][2], 1), "records_per_s": round(rows[0][4]),
                          "mb_per_s": round(rows[0][5], 1), "peak_mib": round(rows[0][6], 1),
                          "peak_mib_scaled": round(rows[1][6], 1), "scale": args.scale}))


if __name__ == "__main__":
    main()
