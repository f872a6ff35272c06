"""`ragcite batch` over a transcript lake with Dask: python dask_recipe.py PATH...

Each PATH: JSON Lines (a path or glob ending in .jsonl or .ndjson), or else a Parquet dataset.
Runs on the scheduler that DASK_SCHEDULER_ADDRESS names, else on a local cluster of two worker
processes reachable on loopback only. Prints, for each PATH, the summary, aggregate and gate of
`ragcite batch --format json` for the same records, as one line of JSON.
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

# ragcite.batch's keywords, as `ragcite batch --max-uncited-rate 0.05 --max-number-mismatch-rate 0.05`
LIMITS = {"max_uncited_rate": 0.05, "max_number_mismatch_rate": 0.05}


def check_lines(lines):  # a partition of JSON Lines: its counts, as a list of one
    return [agg.counts(agg.from_lines(lines), **LIMITS)]


def check_frame(frame):  # a partition of a Parquet dataset: its counts, as a row
    records = pa.Table.from_pandas(frame, preserve_index=False).to_pylist()
    return pd.DataFrame([agg.counts(records, **LIMITS)])


def check(path):
    if path.endswith((".jsonl", ".ndjson")):
        parts = db.read_text(path, blocksize="8MiB").map_partitions(check_lines).compute()
    else:
        meta = dict.fromkeys(agg.FIELDS, "int64")
        parts = dd.read_parquet(path).map_partitions(check_frame, meta=meta).compute()
        parts = parts.to_dict("records")
    return agg.summarize(agg.total(parts), **LIMITS), len(parts)


if __name__ == "__main__":
    if dask.config.get("scheduler-address", None):
        client = Client()
    else:
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               host="127.0.0.1", dashboard_address="127.0.0.1:0")
        client = Client(cluster)
    workers = len(client.scheduler_info()["workers"])
    passed = True
    for path in sys.argv[1:]:
        start = time.perf_counter()
        result, partitions = check(path)
        seconds = time.perf_counter() - start
        records = result["aggregate"]["records"]
        print(f"{path}: {records} records, {partitions} partitions, {workers} workers: "
              f"{seconds:.1f} s, {records / seconds:.0f} records/s", file=sys.stderr)
        print(json.dumps(result, ensure_ascii=False))
        passed = passed and result["gate"]["passed"]
    sys.exit(0 if passed else 1)
