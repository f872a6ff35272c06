#!/usr/bin/env python3
"""Probes of the contradiction detector built from labelled data (stdlib only).

From labelled-supported sentences that ragcite calls `supported` (by the baseline binary,
`--base`, so that the selection does not move with the change measured), four kinds of probe
are built, each a reversed fact:

  negate     the sentence negated: `not` after its auxiliary, or `did not` + the verb
  antonym    a word of the sentence swapped for its antonym (crates/ragcite/src/words/antonyms.txt, less the
             direction words)
  direction  a direction word reversed (increased/decreased, rose/fell, higher/lower, ...)
  chunk      the sentence kept, the chunk's sentence that it matches negated

Each probe and each original is checked with `ragcite batch` (`--bin`, the release build);
caught = verdict `contradicted`, and "no longer supported" is reported too. Originals that
lose `supported` are listed. Records are split by a hash of their id into a tune half and a
held-out half; report the held-out half for figures tuned on the other.

Usage:
  scripts/dev/probe-contradictions.py --data dev --bin target/release/ragcite \
      --base BASELINE_BINARY [--half held-out|tune|all] [--show 10]
"""

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

SETS = ("attributionbench", "expertqa", "wice")
KINDS = ("negate", "antonym", "direction", "chunk")

AUXILIARIES = {
    "is", "are", "was", "were", "can", "could", "will", "would", "should", "may", "might",
    "must", "has", "have", "had", "does", "do", "did", "shall",
}
DIRECTIONS = [
    ("increased", "decreased"), ("increases", "decreases"), ("increase", "decrease"),
    ("increasing", "decreasing"), ("rose", "fell"), ("rises", "falls"), ("rise", "fall"),
    ("rising", "falling"), ("grew", "shrank"), ("grows", "shrinks"), ("higher", "lower"),
    ("more", "less"), ("larger", "smaller"), ("largest", "smallest"), ("greater", "smaller"),
    ("gained", "lost"), ("above", "below"), ("before", "after"), ("most", "least"),
    ("biggest", "smallest"), ("highest", "lowest"), ("up", "down"), ("earlier", "later"),
]
DIRECTION_WORDS = {w for pair in DIRECTIONS for w in pair}


def half(record_id):
    """The record's half: by a hash of its id, so that it never moves."""
    digest = hashlib.sha1(record_id.encode()).digest()
    return "tune" if digest[0] % 2 == 0 else "held-out"


def antonym_table(repo):
    table = {}
    path = os.path.join(repo, "crates", "ragcite", "src", "words", "antonyms.txt")
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#") or "|" not in line:
                continue
            left, right = (side.split() for side in line.split("|", 1))
            for a, b in ((left, right), (right, left)):
                for word in a:
                    if word not in DIRECTION_WORDS and b[0] not in DIRECTION_WORDS:
                        table.setdefault(word, b[0])
    return table


def keep_case(old, new):
    if old[:1].isupper():
        return new[:1].upper() + new[1:]
    return new


WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")


def base_form(verb):
    """`reduced` → `reduce`, `stopped` → `stop`, `carried` → `carry` (roughly)."""
    if verb.endswith("ied"):
        return verb[:-3] + "y"
    stem = verb[:-2]
    if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "lsz":
        return stem[:-1]
    if re.search(r"(?:[^aeiou][aeiou][cvsz]|[cgv]|u|at|iz|is|ur|or|ar|[^aeiou][bdgklmnprt]l)$", stem):
        return stem + "e"
    return stem


def negate(text):
    """The sentence negated, or None: `not` after the first auxiliary, else `did not` + the
    base form of the first past-tense verb after the first word."""
    words = list(WORD.finditer(text))
    for k, m in enumerate(words[:-1]):
        if m.group().lower() in AUXILIARIES and words[k + 1].group().lower() not in ("not", "n't"):
            return text[: m.end()] + " not" + text[m.end():]
    for m in words[1:]:
        w = m.group()
        if w.islower() and w.endswith("ed") and len(w) > 4:
            return text[: m.start()] + "did not " + base_form(w) + text[m.end():]
    return None


def swap(text, table):
    """The first word of `table` in the text swapped for its opposite, or None."""
    for m in WORD.finditer(text):
        w = m.group()
        new = table.get(w.lower())
        if new:
            return text[: m.start()] + keep_case(w, new) + text[m.end():]
    return None


def words_of(text):
    return {w.lower() for w in WORD.findall(text) if len(w) > 3}


def negate_chunk(claim, chunks, cited):
    """The cited chunks with the sentence that best matches the claim negated, or None."""
    claim_words = words_of(claim)
    best = None
    for k, chunk in enumerate(chunks):
        if chunk["id"] not in cited:
            continue
        for m in re.finditer(r"[^.!?\n]+[.!?]?", chunk["text"]):
            shared = len(claim_words & words_of(m.group()))
            if best is None or shared > best[0]:
                best = (shared, k, m)
    if best is None or best[0] < 2:
        return None
    _, k, m = best
    negated = negate(m.group())
    if negated is None:
        return None
    text = chunks[k]["text"]
    changed = [dict(c) for c in chunks]
    changed[k]["text"] = text[: m.start()] + negated + text[m.end():]
    return changed


def batch(binary, records):
    """Each record's outcome: `contradicted`, `supported` or `other`, by id."""
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
        path = f.name
    try:
        out = subprocess.run(
            [binary, "batch", path, "--format", "jsonl"],
            capture_output=True, text=True, check=False,
        ).stdout
    finally:
        os.unlink(path)
    outcome = {}
    for line in out.splitlines():
        r = json.loads(line)
        if r.get("type") != "record" or not r.get("counts"):
            continue
        c = r["counts"]
        if c["contradicted"] > 0:
            outcome[r["id"]] = "contradicted"
        elif c["claims"] > 0 and c["supported"] == c["claims"]:
            outcome[r["id"]] = "supported"
        else:
            outcome[r["id"]] = "other"
    return outcome


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", required=True, help="directory of the labelled dev files")
    parser.add_argument("--bin", required=True, help="the ragcite binary measured")
    parser.add_argument("--base", required=True, help="the baseline binary that selects")
    parser.add_argument("--half", default="held-out", choices=("held-out", "tune", "all"))
    parser.add_argument("--show", type=int, default=0, help="misses and lost originals shown")
    parser.add_argument("--kinds", default=",".join(KINDS))
    args = parser.parse_args()
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    table = antonym_table(repo)
    directions = {}
    for a, b in DIRECTIONS:
        directions.setdefault(a, b)
        directions.setdefault(b, a)
    kinds = args.kinds.split(",")

    originals = []
    for name in SETS:
        with open(os.path.join(args.data, name + ".jsonl"), encoding="utf-8") as f:
            for line in f:
                record = json.loads(line)
                if args.half != "all" and half(record["id"]) != args.half:
                    continue
                chunks = [{"id": c["id"], "text": c["text"]} for c in record["chunks"]]
                for k, sentence in enumerate(record.get("sentences", [])):
                    if sentence.get("label") is not True or not sentence.get("citations"):
                        continue
                    originals.append({
                        "id": f"{record['id']}#{k}",
                        "question": record.get("question", ""),
                        "answer": sentence["text"],
                        "contexts": chunks,
                        "cited": sentence["citations"],
                    })
    def strip(r):
        return {k: v for k, v in r.items() if k != "cited"}

    base = batch(args.base, [strip(r) for r in originals])
    chosen = [r for r in originals if base.get(r["id"]) == "supported"]
    now = batch(args.bin, [strip(r) for r in chosen])
    lost = [r for r in chosen if now.get(r["id"]) != "supported"]

    probes = {kind: [] for kind in kinds}
    for r in chosen:
        made = {
            "negate": lambda r=r: negate(r["answer"]),
            "antonym": lambda r=r: swap(r["answer"], table),
            "direction": lambda r=r: swap(r["answer"], directions),
        }
        for kind in kinds:
            if kind == "chunk":
                contexts = negate_chunk(r["answer"], r["contexts"], set(r["cited"]))
                if contexts is not None:
                    probes[kind].append({**strip(r), "id": r["id"] + "@chunk", "contexts": contexts})
                continue
            answer = made[kind]()
            if answer is not None and answer != r["answer"]:
                probes[kind].append({**strip(r), "id": r["id"] + "@" + kind, "answer": answer})
    every = [p for kind in kinds for p in probes[kind]]
    outcome = batch(args.bin, every)

    print(f"half: {args.half}; labelled-supported sentences {len(originals)}, "
          f"called supported by the baseline {len(chosen)}")
    print(f"originals that lose supported: {len(lost)} / {len(chosen)} "
          f"({100 * len(lost) / max(len(chosen), 1):.1f}%)")
    print(f"{'kind':<10} {'probes':>7} {'caught':>7} {'%':>6} {'not supported':>14} {'%':>6}")
    for kind in kinds:
        made = probes[kind]
        caught = sum(outcome.get(p["id"]) == "contradicted" for p in made)
        fails = sum(outcome.get(p["id"]) != "supported" for p in made)
        n = max(len(made), 1)
        print(f"{kind:<10} {len(made):>7} {caught:>7} {100 * caught / n:>6.1f} "
              f"{fails:>14} {100 * fails / n:>6.1f}")
    if args.show:
        print("\noriginals that lose supported:")
        for r in lost[: args.show]:
            print(f"  {r['id']}: {now.get(r['id'])}: {r['answer'][:200]}")
        for kind in kinds:
            missed = [p for p in probes[kind] if outcome.get(p["id"]) != "contradicted"]
            print(f"\n{kind}: missed {len(missed)}")
            for p in missed[: args.show]:
                print(f"  {p['id']}: {outcome.get(p['id'])}: {p['answer'][:200]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
