"""Smoke test of the PySpark recipe (examples/clusters/spark_recipe.py), run as its users run
it, in local mode bound to loopback, over 2,000 records as JSON Lines and as Parquet: each
aggregate must equal `ragcite batch` on the JSON Lines file. Needs pyspark and Java 17 or later;
skipped without them, failing under RAGCITE_REQUIRE_CLUSTERS=1."""

from __future__ import annotations

import shutil
import time

import pytest

from conftest import (
    REQUIRED,
    assert_loopback_only,
    assert_same_as_batch,
    ragcite_batch,
    recipe_limits,
    require,
    run_recipe,
    stats,
)

RECORDS = 2_000


def test_spark_recipe_equals_batch(lake):
    require("pyspark")
    require("pyarrow")
    if shutil.which("java") is None:
        if REQUIRED:
            pytest.fail("RAGCITE_REQUIRE_CLUSTERS=1 and there is no java for pyspark")
        pytest.skip("pyspark needs java")
    folder = lake(RECORDS)
    reference = ragcite_batch(folder / "transcripts.jsonl", recipe_limits("spark_recipe.py"))
    paths = [folder / "transcripts.jsonl", folder / "parquet"]
    # Arrow batches of 300 records: several partial counts to add up.
    submit = "--conf spark.sql.execution.arrow.maxRecordsPerBatch=300 pyspark-shell"
    started = time.perf_counter()
    results, stderr, listening, namespaces = run_recipe(
        "spark_recipe.py", [str(p) for p in paths], env={"PYSPARK_SUBMIT_ARGS": submit}
    )
    print(f"\nthe recipe, Spark's start included: {time.perf_counter() - started:.1f} s")
    for path, result in zip(paths, results):
        parts, line = stats(stderr, path, result)
        print(line)
        assert_same_as_batch(result, reference)
        assert parts >= 4, "too few batches to test the sum"
    assert_loopback_only(listening, namespaces)
