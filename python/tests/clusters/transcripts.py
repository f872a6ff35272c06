"""A deterministic transcript set for the cluster recipes' tests: ``n`` records made from the
repository's own testdata answers and chunks, varied by a seeded RNG so that every verdict and
some bad records occur, written as JSON Lines (one file) and as Parquet (a folder of part files).

Every record has the same shape, so that it fits one Parquet schema::

    {"id": str | None, "question": str | None, "answer": str | None,
     "contexts": [{"id": str, "text": str}, ...] | None}

A null ``id`` makes ``ragcite batch`` number the record by its position; a null ``answer`` or
``contexts``, or a blank answer, makes it a bad record.

    python python/tests/clusters/transcripts.py OUT_DIR [--records 100000] [--seed 7]
"""

from __future__ import annotations

import argparse
import json
import random
import re
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional

REPO = Path(__file__).resolve().parents[3]
TESTDATA = REPO / "testdata"

#: (answer file, chunks file) pairs of testdata.
_ANSWER_FILES = [
    ("eiffel/answer.md", "eiffel/chunks.json"),
    ("weak/answer.md", "weak/chunks.json"),
    ("markdown/answer.md", "markdown/chunks.json"),
    ("quotes/quoted.md", "quotes/chunks.json"),
    ("quotes/misquoted.md", "quotes/chunks.json"),
    ("quotes/plain.md", "quotes/chunks.json"),
    ("quotes/uncited-quote.md", "quotes/chunks.json"),
    ("quotes/quote-marks.md", "quotes/chunks.json"),
    ("quotes/citation-list-misquote.json", "eiffel/chunks.json"),
]
#: JSON Lines transcripts of testdata; lines that do not parse are left out.
_JSONL_FILES = [
    "ci/batch.jsonl",
    "batch/small.jsonl",
    "batch/rates.jsonl",
    "batch/ragas.jsonl",
    "batch/bad_records.jsonl",
    "batch/deepeval.jsonl",
]

Record = Dict[str, Any]


def _chunks(value: Any) -> Optional[List[Dict[str, str]]]:
    """Contexts as ``[{"id", "text"}]``: strings are numbered from 1, as batch numbers them."""
    if value is None:
        return None
    chunks = []
    for number, item in enumerate(value, start=1):
        if isinstance(item, str):
            chunks.append({"id": str(number), "text": item})
        else:
            chunks.append({"id": str(item.get("id", number)), "text": item["text"]})
    return chunks


def templates() -> List[Record]:
    """The records the set is made from, in a fixed order."""
    found: List[Record] = []
    for answer, chunks in _ANSWER_FILES:
        found.append(
            {
                "question": None,
                "answer": (TESTDATA / answer).read_text(encoding="utf-8"),
                "contexts": _chunks(json.loads((TESTDATA / chunks).read_text(encoding="utf-8"))),
            }
        )
    for name in _JSONL_FILES:
        for line in (TESTDATA / name).read_text(encoding="utf-8").splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue
            answer = next(
                (record[k] for k in ("response", "answer", "actual_output") if k in record), None
            )
            contexts = next(
                (
                    record[k]
                    for k in ("retrieved_contexts", "contexts", "retrieval_context")
                    if k in record
                ),
                None,
            )
            if not answer or not contexts:
                continue  # bad records come from the variations below
            question = record.get("question", record.get("user_input", record.get("input")))
            found.append({"question": question, "answer": answer, "contexts": _chunks(contexts)})
    for line in (TESTDATA / "eval/labelled.jsonl").read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if "sentences" in record:
            answer = " ".join(s["text"] for s in record["sentences"])
            found.append(
                {"question": None, "answer": answer, "contexts": _chunks(record["chunks"])}
            )
    return found


_MARKER = re.compile(r"\[[^\]\n]*\]")
_NUMBER = re.compile(r"\d+")


def _change_a_number(answer: str, rng: random.Random) -> str:
    """The answer with one number outside citation markers changed."""
    spans = []
    position = 0
    for marker in _MARKER.finditer(answer):
        spans.append((position, marker.start()))
        position = marker.end()
    spans.append((position, len(answer)))
    numbers = [m for start, end in spans for m in _NUMBER.finditer(answer, start, end)]
    if not numbers:
        return answer
    m = rng.choice(numbers)
    changed = str(int(m.group()) + rng.randint(1, 9))
    return answer[: m.start()] + changed + answer[m.end() :]


def records(n: int, seed: int = 7) -> Iterator[Record]:
    """``n`` records, the same for the same ``n`` and ``seed``."""
    rng = random.Random(seed)
    base = templates()
    for index in range(n):
        template = base[rng.randrange(len(base))]
        answer = template["answer"]
        contexts = [dict(c) for c in template["contexts"]] if template["contexts"] else None
        if answer is not None:
            if rng.random() < 0.25:
                answer = _change_a_number(answer, rng)  # number-mismatch
            if rng.random() < 0.08:
                answer = _MARKER.sub("", answer)  # uncited-claim
            if rng.random() < 0.04:
                answer = answer.rstrip() + " It is also the tallest [9]."  # an unknown marker
        if contexts:
            if rng.random() < 0.5:
                rng.shuffle(contexts)  # same ids: the same verdicts
            if rng.random() < 0.15 and all(c["id"].isdigit() for c in contexts):
                # numbered anew in their shuffled order: markers now point elsewhere
                for number, chunk in enumerate(contexts, start=1):
                    chunk["id"] = str(number)
            if rng.random() < 0.3:
                copy = dict(rng.choice(contexts))
                copy["id"] = f"copy-{index}"
                contexts.insert(rng.randrange(len(contexts) + 1), copy)
        roll = rng.random()
        if roll < 0.004:
            answer = None  # bad: no answer
        elif roll < 0.008:
            contexts = None  # bad: no contexts
        elif roll < 0.010:
            answer = " \n"  # bad: an empty answer
        yield {
            "id": None if rng.random() < 0.05 else f"t{index:06d}",
            "question": template["question"],
            "answer": answer,
            "contexts": contexts,
        }


def write_jsonl(path: Path, rows: List[Record]) -> Path:
    with open(path, "w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    return path


def write_parquet(folder: Path, rows: List[Record], files: int = 8) -> Path:
    """``rows`` as ``files`` Parquet files ``part-000.parquet``, ... in ``folder``, in order."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pa.schema(
        [
            ("id", pa.string()),
            ("question", pa.string()),
            ("answer", pa.string()),
            ("contexts", pa.list_(pa.struct([("id", pa.string()), ("text", pa.string())]))),
        ]
    )
    folder.mkdir(parents=True, exist_ok=True)
    size = -(-len(rows) // files)
    for part in range(files):
        table = pa.Table.from_pylist(rows[part * size : (part + 1) * size], schema=schema)
        pq.write_table(table, folder / f"part-{part:03d}.parquet", row_group_size=5_000)
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rows = list(records(args.records, args.seed))
    args.out.mkdir(parents=True, exist_ok=True)
    write_jsonl(args.out / "transcripts.jsonl", rows)
    write_parquet(args.out / "parquet", rows)


if __name__ == "__main__":
    main()
