"""`ragcite batch` over a transcript lake with PySpark: python spark_recipe.py PATH...

Each PATH: JSON Lines (a path or glob ending in .jsonl or .ndjson), or else a Parquet dataset.
Prints, for each, the summary, aggregate and gate of `ragcite batch --format json` on the same
records, as one line of JSON; exits 1 when a gate failed, as batch does.
"""
import json
import os
import sys
import time

import pandas as pd
import pyarrow as pa
from pyspark.sql import SparkSession

import ragcite.aggregate as agg

# ragcite.batch's keywords: as `ragcite batch --max-uncited-rate 0.05 --max-number-mismatch-rate 0.05`
LIMITS = {"max_uncited_rate": 0.05, "max_number_mismatch_rate": 0.05}
SCHEMA = ", ".join(f"{key} long" for key in agg.FIELDS)


def check_lines(frames):  # JSON Lines read as text: the counts of each Arrow batch
    for frame in frames:
        yield pd.DataFrame([agg.counts(agg.from_lines(frame["value"]), **LIMITS)])


def check_rows(frames):  # rows of a Parquet dataset: the counts of each Arrow batch
    for frame in frames:
        records = pa.Table.from_pandas(frame, preserve_index=False).to_pylist()
        yield pd.DataFrame([agg.counts(records, **LIMITS)])


def check(spark, path):
    if path.endswith((".jsonl", ".ndjson")):
        parts = spark.read.text(path).mapInPandas(check_lines, SCHEMA).collect()
    else:
        parts = spark.read.parquet(path).mapInPandas(check_rows, SCHEMA).collect()
    return agg.summarize(agg.total(row.asDict() for row in parts), **LIMITS), len(parts)


if __name__ == "__main__":
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # the workers' Python: this one
    spark = (SparkSession.builder.master("local[2]")  # under spark-submit: drop these 5 lines
             .config("spark.driver.host", "127.0.0.1")
             .config("spark.driver.bindAddress", "127.0.0.1")
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false")
             .getOrCreate())
    passed = True
    for path in sys.argv[1:]:
        start = time.perf_counter()
        result, batches = check(spark, path)
        print(f"{path}: {batches} batches, {time.perf_counter() - start:.2f} s", file=sys.stderr)
        print(json.dumps(result, ensure_ascii=False))
        passed = passed and result["gate"]["passed"]
    spark.stop()
    sys.exit(0 if passed else 1)
