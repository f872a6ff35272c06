"""``ragcite batch`` over a cluster: check each partition, add up its counts, gate the total.

A partition's records are checked by :func:`ragcite.batch` and reduced to :func:`counts`, a flat
dict of integers that add up across partitions (records, checked, bad and failing records, and
every verdict and chunk-status count). The driver adds them with :func:`total` and
:func:`summarize` turns the sum into the ``summary``, ``aggregate`` and ``gate`` that
``ragcite batch --format json`` writes for the same records, field for field::

    import ragcite.aggregate as agg

    parts = [agg.counts(records) for records in partitions]  # on the workers
    result = agg.summarize(agg.total(parts))  # on the driver
    print(result["summary"])

Each record is checked on its own, so the totals do not depend on how the records are split.
Pass the same keywords (``threshold``, ``lang``, ``fields``, the limits) to every
:func:`counts` and the limits to :func:`summarize`.
"""

from __future__ import annotations

import json
import math
from decimal import Decimal
from typing import Any, Dict, Iterable, List, Mapping, Optional, Union

from . import _BATCH_LIMITS, batch

__all__ = ["COUNTS", "FIELDS", "counts", "from_lines", "summarize", "total"]

#: The verdict and chunk-status counts of ``aggregate.counts``, in the order batch writes them.
COUNTS = (
    "sentences",
    "claims",
    "supported",
    "numberMismatch",
    "weakSupport",
    "unsupportedCitation",
    "misquote",
    "uncitedClaim",
    "noClaim",
    "misquotedCitations",
    "unknownMarkers",
    "chunks",
    "used",
    "citedButNotSupporting",
    "relevantButUncited",
    "unused",
)
#: The keys of :func:`counts`: the record counts of ``aggregate``, then :data:`COUNTS`.
FIELDS = ("records", "checked", "badRecords", "failingRecords") + COUNTS

_RATES = (  # aggregate.rates key, count, limit, what the gate says it counts
    ("uncited", "uncitedClaim", "max_uncited_rate", "uncited-claim rate"),
    ("numberMismatch", "numberMismatch", "max_number_mismatch_rate", "number-mismatch rate"),
    ("unsupported", "unsupportedCitation", "max_unsupported_rate", "unsupported-citation rate"),
)


def counts(records: Iterable[Any], **options: Any) -> Dict[str, int]:
    """Checks ``records`` as :func:`ragcite.batch` does (same keywords) and returns the counts
    that add up: a dict with every key of :data:`FIELDS`. No records give zeros.

    Each record is one dict in any transcript schema batch reads; one that cannot be read
    (no answer, no contexts, not an object) counts as a bad record, as in batch.
    """
    records = list(records)
    if not records:
        return dict.fromkeys(FIELDS, 0)
    report = batch(records, **options)
    if not report["complete"]:  # records held in memory do not stop a batch; a file might
        raise RuntimeError(f"the batch stopped: {report['error']}")
    aggregate = report["aggregate"]
    found = {key: aggregate[key] for key in FIELDS[:4]}
    found.update((key, aggregate["counts"][key]) for key in COUNTS)
    return found


def from_lines(lines: Iterable[Union[str, bytes]]) -> List[Any]:
    """The records of JSON Lines, for :func:`counts`, as ``ragcite batch`` reads a ``.jsonl``
    file: blank lines are left out, and a line that is not JSON is kept as its text, which
    :func:`counts` then counts as a bad record, as batch does (the error it gives differs).
    ``bytes`` lines are read as UTF-8. A byte order mark is dropped from the start of every
    line, where batch drops it from the start of the file only.
    """
    records: List[Any] = []
    for line in lines:
        if isinstance(line, (bytes, bytearray)):
            try:
                line = bytes(line).decode("utf-8")
            except UnicodeDecodeError:
                records.append("<not UTF-8>")  # batch: invalid JSON, a bad record
                continue
        if line.startswith("\ufeff"):
            line = line[1:]
        if not line.strip(" \t\n\r\f"):
            continue
        try:
            records.append(json.loads(line))
        except ValueError:
            records.append(line)  # not an object: a bad record, as batch counts it
    return records


def total(parts: Iterable[Mapping[str, Any]]) -> Dict[str, int]:
    """The sum of :func:`counts` dicts (or of rows with those keys, such as a dataframe's)."""
    summed = dict.fromkeys(FIELDS, 0)
    for part in parts:
        for key in FIELDS:
            summed[key] += int(part[key])
    return summed


def summarize(summed: Mapping[str, Any], **limits: Any) -> Dict[str, Any]:
    """``summary``, ``aggregate`` and ``gate`` as ``ragcite batch --format json`` writes them
    for the records whose :func:`counts` were summed into ``summed``.

    ``limits`` are :func:`ragcite.batch`'s keywords; the per-record ones (``max_uncited``, ...)
    were applied by :func:`counts` (pass them there), the batch's own (``max_failing_records``,
    ``max_bad_records``, ``max_*_rate``) are applied here, with batch's defaults: no bad or
    failing record may pass, unless a rate limit is set and ``max_failing_records`` is not.
    """
    for name in limits:
        if name not in _BATCH_LIMITS:
            raise TypeError(f"summarize() got an unexpected keyword argument '{name}'")
    summed = {key: int(summed[key]) for key in FIELDS}
    claims = max(summed["claims"], 1)
    raw = {key: summed[count] / claims for key, count, _, _ in _RATES}
    aggregate = {key: summed[key] for key in FIELDS[:4]}
    aggregate["counts"] = {key: summed[key] for key in COUNTS}
    aggregate["rates"] = {key: _round4(value) for key, value in raw.items()}

    any_rate = any(limits.get(limit) is not None for _, _, limit, _ in _RATES)
    max_failing: Optional[int] = limits.get("max_failing_records")
    if max_failing is None and not any_rate:
        max_failing = 0
    failures: List[Dict[str, Any]] = []
    for limit, what, allowed, found in (
        ("max-failing-records", "failing records", max_failing, summed["failingRecords"]),
        ("max-bad-records", "bad records", limits.get("max_bad_records", 0), summed["badRecords"]),
    ):
        if allowed is not None and found > allowed:
            failures.append(
                {"limit": limit, "counts": what, "found": found, "allowed": allowed,
                 "over": found - allowed}
            )
    rate_failures: List[Dict[str, Any]] = []
    for key, _, limit, what in _RATES:
        allowed = limits.get(limit)
        if allowed is not None and raw[key] > allowed + 1e-9:
            rate_failures.append(
                {"limit": limit.replace("_", "-"), "counts": what, "found": raw[key],
                 "allowed": float(allowed), "over": raw[key] - allowed}
            )
    passed = not failures and not rate_failures

    line = (
        f"{'PASS' if passed else 'FAIL'} · {summed['records']} "
        f"{_plural(summed['records'], 'record')}: {summed['checked']} checked, "
        f"{summed['badRecords']} bad, {summed['failingRecords']} failing · {summed['claims']} "
        f"claim {_plural(summed['claims'], 'sentence')}: uncited {raw['uncited'] * 100:.1f}%, "
        f"number-mismatch {raw['numberMismatch'] * 100:.1f}%, "
        f"unsupported {raw['unsupported'] * 100:.1f}%"
    )
    if passed:
        line += " · all limits held"
    else:
        said = [
            f"{f['found']} {f['counts'][:-1] if f['found'] == 1 else f['counts']} > "
            f"--{f['limit']} {f['allowed']} (+{f['over']})"
            for f in failures
        ]
        said += [
            f"{f['counts']} {f['found']:.4f} > --{f['limit']} {_display(f['allowed'])} "
            f"(+{f['over']:.4f})"
            for f in rate_failures
        ]
        line += " · limits exceeded: " + ", ".join(said)
    for failure in rate_failures:
        failure["found"] = _round4(failure["found"])
        failure["over"] = _round4(failure["over"])
    return {
        "summary": line,
        "aggregate": aggregate,
        "gate": {"passed": passed, "failures": failures, "rateFailures": rate_failures},
    }


def _plural(n: int, word: str) -> str:
    return word if n == 1 else word + "s"


def _round4(value: float) -> float:
    """Rounded to four decimals as batch's JSON writes it: halves away from zero."""
    scaled = value * 10_000.0
    whole = math.floor(scaled)
    if scaled - whole >= 0.5:
        whole += 1
    return whole / 10_000.0


def _display(value: float) -> str:
    """A number as Rust's ``{}`` writes an f64: shortest digits, no exponent, no ``.0``."""
    text = format(Decimal(repr(float(value))), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text
