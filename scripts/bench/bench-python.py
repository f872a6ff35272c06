#!/usr/bin/env python3
"""Times the Python package against `ragcite batch` on the same records.

Usage: PYTHON scripts/bench/bench-python.py EVAL_DIR [--records 10000] [--runs 3]

Run it with the Python of a virtual environment where the wheel is installed (its `ragcite`
console script is the batch it compares with). EVAL_DIR holds *.jsonl files whose records have
`answer` and `chunks[].text` (the labelled data of docs/evaluation.md); the first --records of
them, in file order, are the workload. It reports, best of --runs:

- `ragcite.check_many` on the (answer, chunks) pairs, results as dicts;
- a plain Python loop calling `ragcite.check` on each pair;
- `ragcite.batch` on the same records as a JSON Lines file, and on the records as dicts;
- the console script `ragcite batch FILE --format jsonl` as a whole process;
- the time to import ragcite in a fresh interpreter (median of 10) and the wheel's size
  (--wheel PATH).

It checks that check_many and batch agree on every record's counts before it times anything.
"""
import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time

import ragcite


def load(eval_dir, limit):
    records = []
    for source in sorted(glob.glob(os.path.join(eval_dir, "*.jsonl"))):
        with open(source, encoding="utf-8") as lines:
            for line in lines:
                record = json.loads(line)
                if "answer" not in record or "chunks" not in record:
                    continue
                records.append(
                    {
                        "id": f"r{len(records) + 1}",
                        "response": record["answer"],
                        "retrieved_contexts": [c.get("text", "") for c in record["chunks"]],
                    }
                )
                if len(records) == limit:
                    return records
    return records


def best(runs, work):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("eval_dir")
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--wheel", help="the wheel file, to report its size")
    args = parser.parse_args()
    records = load(args.eval_dir, args.records)
    if not records:
        sys.exit(f"no records with `answer` and `chunks` in {args.eval_dir}/*.jsonl")
    pairs = [(r["response"], r["retrieved_contexts"]) for r in records]
    script = os.path.join(sysconfig.get_path("scripts"), "ragcite")

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "records.jsonl")
        with open(path, "w", encoding="utf-8") as out:
            for record in records:
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
        size_mb = os.path.getsize(path) / 1e6

        # They must agree before they are timed.
        many = ragcite.check_many(pairs)
        batched = ragcite.batch(path, max_failing_records=len(records))
        for report, record in zip(many, batched["records"]):
            if record["error"] is None and report["result"]["counts"] != record["counts"]:
                sys.exit(f"check_many and batch differ on {record['id']}")

        rows = [
            ("check_many (pairs → dicts)", best(args.runs, lambda: ragcite.check_many(pairs))),
            ("loop of check (pairs → dicts)", best(args.runs, lambda: [ragcite.check(a, c) for a, c in pairs])),
            ("batch (the file → dict)", best(args.runs, lambda: ragcite.batch(path))),
            ("batch (the records → dict)", best(args.runs, lambda: ragcite.batch(records))),
            (
                "console script: ragcite batch FILE --format jsonl",
                best(
                    args.runs,
                    lambda: subprocess.run(
                        [script, "batch", path, "--format", "jsonl", "--isolated"],
                        stdout=subprocess.DEVNULL,
                        check=False,
                    ),
                ),
            ),
        ]
        imports = []
        for _ in range(10):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", "import ragcite"], check=True)
            imports.append(time.perf_counter() - start)
        bare = []
        for _ in range(10):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", "pass"], check=True)
            bare.append(time.perf_counter() - start)

    print(f"{len(records):,} records, {size_mb:.1f} MB of JSON Lines, {os.cpu_count()} cores, best of {args.runs}")
    print()
    print("| how | seconds | records/s |")
    print("| --- | ---: | ---: |")
    for label, seconds in rows:
        print(f"| {label} | {seconds:.2f} | {len(records) / seconds:,.0f} |")
    print()
    print(
        f"import ragcite: {statistics.median(imports) * 1000:.0f} ms in a fresh interpreter "
        f"(python -c pass: {statistics.median(bare) * 1000:.0f} ms), median of 10"
    )
    if args.wheel:
        print(f"wheel: {os.path.basename(args.wheel)}, {os.path.getsize(args.wheel) / 2**20:.1f} MiB")


if __name__ == "__main__":
    main()
