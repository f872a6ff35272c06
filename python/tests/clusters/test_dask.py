"""The Dask recipe (examples/clusters/dask_recipe.py), run as its users run it, on a
LocalCluster of two worker processes bound to loopback, over 100,000 records as JSON Lines and
as Parquet: each aggregate must equal `ragcite batch` on the JSON Lines file."""

from __future__ import annotations

import time

from conftest import (
    assert_loopback_only,
    assert_same_as_batch,
    ragcite_batch,
    recipe_limits,
    require,
    run_recipe,
    stats,
)

RECORDS = 100_000


def test_dask_recipe_equals_batch(lake):
    require("dask.distributed")
    require("pyarrow")
    folder = lake(RECORDS)
    started = time.perf_counter()
    reference = ragcite_batch(folder / "transcripts.jsonl", recipe_limits("dask_recipe.py"))
    print(f"\nragcite batch: {RECORDS} records in {time.perf_counter() - started:.1f} s")
    assert reference["aggregate"]["records"] == RECORDS
    paths = [folder / "transcripts.jsonl", folder / "parquet"]
    started = time.perf_counter()
    results, stderr, listening, namespaces = run_recipe("dask_recipe.py", [str(p) for p in paths])
    print(f"the recipe, a cluster's start included: {time.perf_counter() - started:.1f} s")
    for path, result in zip(paths, results):
        parts, line = stats(stderr, path, result)
        print(line)
        assert_same_as_batch(result, reference)
        assert parts >= 4, "too few partitions to test the sum"
    assert_loopback_only(listening, namespaces)
