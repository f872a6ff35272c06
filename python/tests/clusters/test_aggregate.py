"""ragcite.aggregate without a cluster: records split into partitions, each reduced to counts,
the counts added up and summarized, must give what `ragcite batch` (the console script) says of
the same file, whatever the split and the limits."""

from __future__ import annotations

import json
import random

import pytest

from conftest import REPO, assert_same_as_batch, ragcite_batch

import ragcite.aggregate as agg

LIMITS = [
    {},
    {"max_uncited_rate": 0.05},
    {"max_uncited_rate": 0.5, "max_number_mismatch_rate": 0.01, "max_unsupported_rate": 1},
    {"max_uncited_rate": 0.05, "max_failing_records": 3, "max_bad_records": 1},
    {"max_failing_records": 100000, "max_bad_records": 100000},
    {"max_uncited": 1, "max_weak": 0, "max_misquotes": 2, "max_unknown_markers": 1},
    {"max_number_mismatch": 2, "max_unsupported": 1, "max_bad_records": 5},
]


def split(records, parts, rng):
    """``records`` cut into ``parts`` runs at random points; some runs are empty."""
    cuts = sorted(rng.randrange(len(records) + 1) for _ in range(parts - 1))
    return [records[a:b] for a, b in zip([0, *cuts], [*cuts, len(records)])]


def clustered(lines, limits, parts, seed=1, **options):
    rng = random.Random(seed)
    counted = [agg.counts(agg.from_lines(part), **limits, **options) for part in split(lines, parts, rng)]
    return agg.summarize(agg.total(counted), **limits)


@pytest.mark.parametrize("limits", LIMITS, ids=lambda limits: ",".join(limits) or "defaults")
def test_the_generated_set_in_partitions_equals_batch(lake, limits):
    path = lake(3000) / "transcripts.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    reference = ragcite_batch(path, limits)
    assert reference["aggregate"]["records"] == 3000
    for parts in (1, 7, 64):
        assert_same_as_batch(clustered(lines, limits, parts), reference)


@pytest.mark.parametrize(
    "name",
    ["batch/small.jsonl", "batch/ragas.jsonl", "batch/bad_records.jsonl", "batch/rates.jsonl",
     "batch/deepeval.jsonl", "batch/custom.jsonl", "batch/langchain.jsonl", "ci/batch.jsonl",
     "ci/escapes.jsonl", "ci/duplicate-ids.jsonl", "config/fields.jsonl"],
)
def test_testdata_transcripts_in_partitions_equal_batch(name):
    """Bad lines (cut off, not JSON, no answer), blank lines and every schema batch reads."""
    path = REPO / "testdata" / name
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    for limits in LIMITS:
        reference = ragcite_batch(path, limits)
        for parts in (1, 2, 3):
            assert_same_as_batch(clustered(lines, limits, parts, seed=parts), reference)


def test_other_options_go_to_every_partition(lake):
    path = lake(3000) / "transcripts.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    reference = ragcite_batch(path, {}, "--threshold", "0.3", "--lang", "en")
    assert_same_as_batch(clustered(lines, {}, 5, threshold=0.3, lang="en"), reference)
    custom = REPO / "testdata" / "batch" / "custom.jsonl"
    fields = {"id": "key", "answer": ["outputs.text", "completion"], "contexts": "docs[].body"}
    reference = ragcite_batch(
        custom, {}, "--field", "id=key", "--field", "answer=outputs.text",
        "--field", "answer=completion", "--field", "contexts=docs[].body",
    )
    lines = custom.read_text(encoding="utf-8").splitlines(keepends=True)
    assert_same_as_batch(clustered(lines, {}, 2, fields=fields), reference)


def test_a_rate_at_its_limit_holds_and_one_above_fails(tmp_path):
    """rates.jsonl: 1 uncited of 4 claim sentences, 0.25; a limit passes within 1e-9."""
    path = REPO / "testdata" / "batch" / "rates.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    for allowed in (0.25, 0.2499999999, 0.2499, 0.3, 0.0, 0.00001, 1e-7, 0.1 + 0.2):
        limits = {"max_uncited_rate": allowed}
        assert_same_as_batch(clustered(lines, limits, 2), ragcite_batch(path, limits))


def test_no_records_one_record_and_singular_words(tmp_path):
    empty = tmp_path / "empty.json"
    empty.write_text("[]")
    reference = ragcite_batch(empty, {})
    assert reference["summary"].startswith("PASS · 0 records")
    assert_same_as_batch(agg.summarize(agg.total([agg.counts([]), agg.counts(iter(()))])), reference)
    assert_same_as_batch(agg.summarize(agg.total([])), reference)
    one = tmp_path / "one.jsonl"
    one.write_text(
        json.dumps({"answer": "The tower was completed in 1887 [1].",
                    "contexts": ["The tower was completed in 1889."]}) + "\n"
        + '{"answer": "cut off\n'
    )
    reference = ragcite_batch(one, {})
    assert "2 records" in reference["summary"] and "1 failing record >" in reference["summary"]
    lines = one.read_text(encoding="utf-8").splitlines(keepends=True)
    assert_same_as_batch(clustered(lines, {}, 2), reference)


def test_lines_that_batch_counts_as_bad_are_bad(tmp_path):
    path = tmp_path / "odd.jsonl"
    good = json.dumps({"answer": "The tower is 330 metres tall [1].", "contexts": ["The tower is 330 metres tall."]})
    content = "\ufeff" + good + "\n\n  \t\n" + good + "\r\n" + "not json\n" + '"a string"\n' + "[1, 2]\n" \
        + '{"answer": "x", "contexts": ["y"], "score": NaN}\n' + "{}\n" + good
    path.write_text(content, encoding="utf-8")
    reference = ragcite_batch(path, {})
    assert reference["aggregate"]["badRecords"] == 5
    as_text = content.splitlines(keepends=True)
    assert_same_as_batch(clustered(as_text, {}, 1), reference)
    as_bytes = [line.encode("utf-8") for line in as_text] + [b"\xff\xfe{}\n"]
    path.write_bytes(content.encode("utf-8") + b"\n\xff\xfe{}\n")
    reference = ragcite_batch(path, {})
    assert reference["aggregate"]["badRecords"] == 6
    counted = agg.counts(agg.from_lines(as_bytes))
    assert_same_as_batch(agg.summarize(agg.total([counted])), reference)


def test_the_comparison_fails_on_a_difference(lake):
    """What makes the cluster tests able to fail: one record less, one limit else."""
    path = lake(3000) / "transcripts.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    reference = ragcite_batch(path, {})
    with pytest.raises(AssertionError):
        assert_same_as_batch(clustered(lines[1:], {}, 3), reference)
    with pytest.raises(AssertionError):
        assert_same_as_batch(clustered(lines, {"max_bad_records": 10**6}, 3), reference)
    off = clustered(lines, {}, 3)
    off["aggregate"]["rates"]["uncited"] += 1e-12
    with pytest.raises(AssertionError):
        assert_same_as_batch(off, reference)


def test_summarize_takes_only_limits():
    with pytest.raises(TypeError):
        agg.summarize(agg.total([]), threshold=0.5)
    assert set(agg.counts([])) == set(agg.FIELDS)
