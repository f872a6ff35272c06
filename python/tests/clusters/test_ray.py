"""Smoke test of the Ray Data recipe (examples/clusters/ray_recipe.py), run as its users run
it, on a local Ray of two CPUs, over 2,000 records as JSON Lines and as Parquet: each aggregate
must equal `ragcite batch` on the JSON Lines file.

Ray's servers listen on every interface whatever address it is given, so the recipe runs in a
network namespace of its own whose only interface is loopback (``unshare --net``, as root).
Skipped without ray or such a namespace, failing under RAGCITE_REQUIRE_CLUSTERS=1."""

from __future__ import annotations

import os
import time

from conftest import (
    assert_same_as_batch,
    ragcite_batch,
    recipe_limits,
    require,
    run_recipe,
    stats,
    unshare_prefix,
)

RECORDS = 2_000


def test_ray_recipe_equals_batch(lake):
    require("ray.data")
    require("pyarrow")
    prefix = unshare_prefix()
    folder = lake(RECORDS)
    reference = ragcite_batch(folder / "transcripts.jsonl", recipe_limits("ray_recipe.py"))
    paths = [folder / "transcripts.jsonl", folder / "parquet"]
    env = {"RAY_USAGE_STATS_ENABLED": "0"}
    started = time.perf_counter()
    results, stderr, _, namespaces = run_recipe(
        "ray_recipe.py", [str(p) for p in paths], prefix=prefix, env=env
    )
    print(f"\nthe recipe, Ray's start included: {time.perf_counter() - started:.1f} s")
    for path, result in zip(paths, results):
        parts, line = stats(stderr, path, result)
        print(line)
        assert_same_as_batch(result, reference)
        assert parts >= 2, "too few batches to test the sum"
    # Every process of the recipe ran in a namespace of its own, whose only interface is lo.
    assert namespaces, "the watch saw nothing of Ray"
    assert os.readlink("/proc/self/ns/net") not in namespaces
