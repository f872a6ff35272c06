"""`ragcite batch` over a transcript lake with Ray Data: python ray_recipe.py PATH...

Each PATH: JSON Lines (a path or glob ending in .jsonl or .ndjson), or else a Parquet dataset.
Prints, for each, the summary, aggregate and gate of `ragcite batch --format json` on the same
records, as one line of JSON; exits 1 when a gate failed, as batch does.
"""
import json
import os
import sys
import time

import pyarrow as pa
import ray

import ragcite.aggregate as agg

# ragcite.batch's keywords: as `ragcite batch --max-uncited-rate 0.05 --max-number-mismatch-rate 0.05`
LIMITS = {"max_uncited_rate": 0.05, "max_number_mismatch_rate": 0.05}


def check_lines(table: pa.Table) -> pa.Table:  # JSON Lines read as text: a batch's counts
    return pa.Table.from_pylist([agg.counts(agg.from_lines(table["text"].to_pylist()), **LIMITS)])


def check_rows(table: pa.Table) -> pa.Table:  # rows of a Parquet dataset: a batch's counts
    return pa.Table.from_pylist([agg.counts(table.to_pylist(), **LIMITS)])


def check(path):
    if path.endswith((".jsonl", ".ndjson")):
        data, fn = ray.data.read_text(path), check_lines
    else:
        data, fn = ray.data.read_parquet(path), check_rows
    parts = data.map_batches(fn, batch_format="pyarrow", batch_size=1_000).take_all()
    return agg.summarize(agg.total(parts), **LIMITS), len(parts)


if __name__ == "__main__":
    if os.environ.get("RAY_ADDRESS"):  # your cluster's
        ray.init()
    else:  # two CPUs on this machine; Ray listens on every interface: see docs/python.md
        ray.init(num_cpus=2, include_dashboard=False, _node_ip_address="127.0.0.1")
    passed = True
    for path in sys.argv[1:]:
        start = time.perf_counter()
        result, batches = check(path)
        print(f"{path}: {batches} batches, {time.perf_counter() - start:.2f} s", file=sys.stderr)
        print(json.dumps(result, ensure_ascii=False))
        passed = passed and result["gate"]["passed"]
    ray.shutdown()
    sys.exit(0 if passed else 1)
