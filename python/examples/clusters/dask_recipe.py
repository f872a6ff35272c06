"""`ragcite batch` over a transcript lake with Dask: python dask_recipe.py PATH...

Each PATH: JSON Lines (a path or glob ending in .jsonl or .ndjson), or else a Parquet dataset.
Prints, for each, the summary, aggregate and gate of `ragcite batch --format json` on the same
records, as one line of JSON; exits 1 when a gate failed, as batch does.
"""
import json
import sys
import time

import dask
import dask.bag as db
import dask.dataframe as dd
import pandas as pd
import pyarrow as pa
from dask.distributed import Client, LocalCluster

import ragcite.aggregate as agg

# ragcite.batch's keywords: as `ragcite batch --max-uncited-rate 0.05 --max-number-mismatch-rate 0.05`
LIMITS = {"max_uncited_rate": 0.05, "max_number_mismatch_rate": 0.05}


def check_lines(lines):  # a partition of JSON Lines: its counts, in a list
    return [agg.counts(agg.from_lines(lines), **LIMITS)]


def check_frame(frame):  # a partition of a Parquet dataset: its counts, as a row
    records = pa.Table.from_pandas(frame, preserve_index=False).to_pylist()
    return pd.DataFrame([agg.counts(records, **LIMITS)])


def check(path):
    if path.endswith((".jsonl", ".ndjson")):
        parts = db.read_text(path, blocksize="8MiB").map_partitions(check_lines).compute()
    else:
        meta = dict.fromkeys(agg.FIELDS, "int64")
        frame = dd.read_parquet(path).map_partitions(check_frame, meta=meta).compute()
        parts = frame.to_dict("records")
    return agg.summarize(agg.total(parts), **LIMITS), len(parts)


if __name__ == "__main__":
    if dask.config.get("scheduler-address", None):  # DASK_SCHEDULER_ADDRESS: your cluster's
        client = Client()
    else:  # two worker processes on this machine, reachable on loopback only
        client = Client(LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                     host="127.0.0.1", dashboard_address="127.0.0.1:0"))
    passed = True
    for path in sys.argv[1:]:
        start = time.perf_counter()
        result, partitions = check(path)
        print(f"{path}: {partitions} partitions, {time.perf_counter() - start:.2f} s", file=sys.stderr)
        print(json.dumps(result, ensure_ascii=False))
        passed = passed and result["gate"]["passed"]
    sys.exit(0 if passed else 1)
