"""``ragcite batch`` over a cluster: check each partition, add up its counts, gate the total.

A partition's records are checked by ``ragcite batch`` and reduced to :func:`counts`, a flat
dict of integers that add up across partitions (records, checked, bad and failing records, and
every verdict and chunk-status count). The driver adds them with :func:`total`, and
:func:`summarize` hands the sum to the same code that ends ``ragcite batch --format json``: its
``summary``, ``aggregate`` and ``gate`` for the same records, field for field::

    import ragcite.aggregate as agg

    parts = [agg.counts(records) for records in partitions]  # on the workers
    result = agg.summarize(agg.total(parts))  # on the driver
    print(result["summary"])

Each record is checked on its own, so the totals do not depend on how the records are split.
Pass the same keywords (``threshold``, ``lang``, ``fields``, ``model``, the limits) to every
:func:`counts` and the limits to :func:`summarize`.
"""

from __future__ import annotations

import json
from typing import Any, Dict, Iterable, Mapping

from . import _batch_options, _native, _run_batch

__all__ = ["COUNTS", "FIELDS", "RECORDS", "counts", "from_lines", "summarize", "total"]

#: The verdict and chunk-status counts of ``aggregate.counts``, in the order batch writes them.
COUNTS = (
    "sentences",
    "claims",
    "supported",
    "numberMismatch",
    "weakSupport",
    "unsupportedCitation",
    "misquote",
    "contradicted",
    "uncitedClaim",
    "noClaim",
    "abstentions",
    "misquotedCitations",
    "unknownMarkers",
    "uncheckedLines",
    "chunks",
    "used",
    "citedButNotSupporting",
    "relevantButUncited",
    "unused",
)
#: The record counts of ``aggregate`` that add up (``abstainingRecords``: records with an
#: abstention, which ``rates.abstentions`` divides by ``checked``).
RECORDS = ("records", "checked", "badRecords", "failingRecords", "abstainingRecords")
#: The keys of :func:`counts`: :data:`RECORDS`, then :data:`COUNTS`.
FIELDS = RECORDS + COUNTS


def counts(records: Any, **options: Any) -> Dict[str, int]:
    """Checks ``records`` as :func:`ragcite.batch` does (same keywords) and returns the counts
    that add up: a dict with every key of :data:`FIELDS`.

    ``records``: JSON Lines as ``bytes`` (a partition of lines, joined: each line is read as
    ``ragcite batch`` reads a ``.jsonl`` file, and one that is not a record counts as a bad
    record), or an iterable of record dicts in any transcript schema batch reads. No records
    give zeros.
    """
    if not isinstance(records, (bytes, bytearray, memoryview)):
        records = list(records)
        if not records:
            return dict.fromkeys(FIELDS, 0)
    elif not bytes(records).strip():
        return dict.fromkeys(FIELDS, 0)
    threshold, lang = options.pop("threshold", 0.5), options.pop("lang", "en")
    fields, model = options.pop("fields", None), options.pop("model", None)
    option_list = _batch_options(threshold, lang, fields, options, model)
    # JSON Lines: the last line holds the aggregate, and no record list is built or read.
    last = _run_batch(records, "jsonl", option_list).rstrip("\n").rsplit("\n", 1)[-1]
    summary = json.loads(last)
    if not summary["complete"]:
        raise RuntimeError(f"the batch stopped: {summary['error']}")
    aggregate = summary["aggregate"]
    found = {key: aggregate[key] for key in RECORDS}
    found.update((key, aggregate["counts"][key]) for key in COUNTS)
    return found


def from_lines(lines: Iterable[Any]) -> bytes:
    """JSON Lines for :func:`counts` from the lines of a partition as an engine reads them
    (``str`` or ``bytes``, with or without their line ending): read by ``ragcite batch`` itself,
    so that a blank line is left out and a line that is not a record counts as a bad record,
    exactly as in a ``.jsonl`` file."""
    out = bytearray()
    for line in lines:
        out += line if isinstance(line, (bytes, bytearray)) else str(line).encode("utf-8", "surrogatepass")
        if not out.endswith(b"\n"):
            out += b"\n"
    return bytes(out)


def total(parts: Iterable[Mapping[str, Any]]) -> Dict[str, int]:
    """The sum of :func:`counts` dicts (or of rows with those keys, such as a dataframe's)."""
    summed = dict.fromkeys(FIELDS, 0)
    for part in parts:
        for key in FIELDS:
            summed[key] += int(part[key])
    return summed


def summarize(summed: Mapping[str, Any], **limits: Any) -> Dict[str, Any]:
    """``summary``, ``aggregate`` and ``gate`` (with ``complete`` and ``error``) as
    ``ragcite batch --format json`` writes them for the records whose :func:`counts` were summed
    into ``summed``: the rates over all their claim sentences, the gate of the batch's limits.

    ``limits`` are :func:`ragcite.batch`'s keywords; the per-record ones (``max_uncited``, ...)
    were applied by :func:`counts` (pass them there), the batch's own (``max_failing_records``,
    ``max_bad_records``, ``max_*_rate``) are applied here, with batch's defaults.
    """
    totals = {key: int(summed[key]) for key in RECORDS}
    totals["counts"] = {key: int(summed[key]) for key in COUNTS}
    options = _batch_options(0.5, "en", None, limits)
    return json.loads(_native.summarize(json.dumps(totals), options))
