"""check_many against batch on 10,000 records, and the API from many threads at once."""

import json
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import ragcite
from ragcite import _native

sys.path.insert(0, str(Path(__file__).resolve().parent / "clusters"))
import transcripts  # noqa: E402  (the seeded transcript set of the cluster tests)


@pytest.fixture(scope="module")
def rows():
    return list(transcripts.records(10_000))


@pytest.fixture(scope="module")
def good_pairs(rows):
    """(answer, chunks) of the first 3,000 records that batch could read."""
    first = rows[:3000]
    read = ragcite.batch(first)["records"]
    return [(row["answer"], row["contexts"]) for row, record in zip(first, read) if record["error"] is None]


def test_check_many_on_10000_records_equals_batch(rows, tmp_path):
    path = transcripts.write_jsonl(tmp_path / "runs.jsonl", rows)
    batched = ragcite.batch(str(path))
    assert batched["aggregate"]["records"] == len(rows) == 10_000
    checked = [(row, record) for row, record in zip(rows, batched["records"]) if record["error"] is None]
    # The set has bad records too (no answer, no contexts): batch counts them, check raises.
    assert 0 < batched["aggregate"]["badRecords"] < 1000
    assert len(checked) == batched["aggregate"]["checked"]

    reports = ragcite.check_many((row["answer"], row["contexts"]) for row, _ in checked)
    assert len(reports) == len(checked)
    totals = dict.fromkeys(batched["aggregate"]["counts"], 0)
    for report, (_, record) in zip(reports, checked):
        assert report["result"]["counts"] == record["counts"], record["id"]
        assert report["gate"]["passed"] == record["passed"], record["id"]
        for key, value in report["result"]["counts"].items():
            totals[key] += value
    assert totals == batched["aggregate"]["counts"]
    failing = sum(not report["gate"]["passed"] for report in reports)
    assert failing == batched["aggregate"]["failingRecords"]
    # Every verdict occurs, so that the comparison covers them all.
    assert all(value > 0 for key, value in totals.items() if key not in {"misquote", "contradicted", "abstentions", "misquotedCitations"})


def test_check_many_reports_in_input_order_as_check_does(good_pairs):
    pairs = good_pairs[:300]
    many = ragcite.check_many(pairs)
    one_by_one = [ragcite.check(answer, chunks) for answer, chunks in pairs]
    assert many == one_by_one
    assert ragcite.check_many([]) == []


def test_threads_calling_at_once_get_what_one_thread_gets(good_pairs):
    pairs = good_pairs[:200]
    expected = [json.dumps(ragcite.check(a, c), sort_keys=True) for a, c in pairs]

    def check(pair):
        return json.dumps(ragcite.check(*pair), sort_keys=True)

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert list(pool.map(check, pairs * 4)) == expected * 4
        # check_many from several threads at once, each running on every core.
        halves = [pairs[: len(pairs) // 2], pairs[len(pairs) // 2 :]] * 3
        results = list(pool.map(ragcite.check_many, halves))
    flat = [json.dumps(r, sort_keys=True) for r in results[0] + results[1]]
    assert flat == expected
    assert results[2:] == results[:2] * 2


def test_check_many_releases_the_interpreter(good_pairs):
    """While the checks run, another Python thread runs: with a switch interval longer than the
    test, the main thread never hands the interpreter over on its own, so the counter moves
    during the call only if the extension releases it."""
    pairs = [(answer.encode(), json.dumps(chunks).encode(), None) for answer, chunks in good_pairs]
    options = ["--threshold", "0.5", "--lang", "en", "--answer-format", "auto"]
    ticks = [0]
    stop = threading.Event()

    def count():
        # Sleeping hands the interpreter back at once, so that the main thread never waits.
        while not stop.is_set():
            ticks[0] += 1
            time.sleep(0.0005)

    interval = sys.getswitchinterval()
    counter = threading.Thread(target=count)
    counter.start()
    try:
        sys.setswitchinterval(100.0)
        before = ticks[0]
        _native.check_many(pairs, options)
        during = ticks[0] - before
    finally:
        sys.setswitchinterval(interval)
        stop.set()
        counter.join()
    assert during > 0


def test_check_many_passes_each_records_question():
    # A record's `question` is `check`'s: a figure it states is context, not a claim.
    answer = "A 12 year old who attempted suicide should see a psychiatrist at once [1]."
    chunks = [{"id": "1", "text": "A child who attempted suicide should see a psychiatrist at once."}]
    asked = "Should a 12 year old who attempted suicide see a psychiatrist?"
    records = [
        {"answer": answer, "chunks": chunks, "question": asked},
        {"answer": answer, "chunks": chunks},
        (answer, chunks),
    ]
    reports = ragcite.check_many(records)
    verdicts = [report["result"]["sentences"][0]["verdict"] for report in reports]
    assert verdicts == ["supported", "number-mismatch", "number-mismatch"]
    assert reports[0] == ragcite.check(answer, chunks, question=asked)
    with pytest.raises(TypeError, match=r"records\[0\]: question must be a str"):
        ragcite.check_many([{"answer": answer, "chunks": chunks, "question": 12}])
