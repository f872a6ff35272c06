#!/usr/bin/env python3
"""Claim detection figures, per split, for the page "Claims and non-claims, measured".

Two modes, each checking with the binary given (whole processes, `check --format json`):

  expertqa FILE --bin BIN [--split tune|held|all]
      FILE is ExpertQA's dev file (`dev/expertqa.jsonl`). Among the labelled sentences without
      a citation, each checked alone against its record's chunks: precision and recall of
      `uncited-claim` against the expert's `worthy`. Split by answer: sha1(record id) starting
      with 0-7 is `tune`, 8-f `held`.

  kinds FILE --bin BIN [--split tune|heldout|all]
      FILE is JSON Lines of whole answers, each {id, split, answer, chunks: [{id, text}],
      sentences: [{text, kind}]} with kind one of claim, pleasantry, meta, navigation, heading,
      question, instruction, reference, abstention, other. Each answer is checked whole; each
      labelled sentence takes the verdict of the sentence of ragcite's that overlaps it most.
      Per kind: the share of claims still claims (any verdict but no-claim), of non-claims
      quiet (no-claim; an abstention must be of kind abstention).
"""
import argparse
import collections
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor


def check(binary, answer, chunks, folder, name):
    path = os.path.join(folder, name + ".md")
    with open(path, "w", encoding="utf-8") as f:
        f.write(answer)
    chunk_path = os.path.join(folder, name + ".json")
    with open(chunk_path, "w", encoding="utf-8") as f:
        json.dump(chunks or [{"id": "0", "text": "nothing"}], f)
    out = subprocess.run(
        [binary, "check", path, chunk_path, "--format", "json"],
        capture_output=True, text=True, check=False,
    )
    return json.loads(out.stdout)["result"]["sentences"]


def expertqa(args, folder):
    items = []
    with open(args.file, encoding="utf-8") as f:
        for line in f:
            record = json.loads(line)
            digit = hashlib.sha1(record["id"].encode()).hexdigest()[0]
            split = "tune" if digit in "01234567" else "held"
            if args.split not in ("all", split):
                continue
            for sentence in record["sentences"]:
                if not sentence["citations"] and sentence.get("worthy") is not None:
                    items.append((sentence["text"], sentence["worthy"], record["chunks"]))

    def run(k):
        text, _, chunks = items[k]
        found = check(args.bin, text, chunks, folder, str(k))
        return any(s["verdict"] == "uncited-claim" for s in found)

    with ThreadPoolExecutor(4) as pool:
        flagged = list(pool.map(run, range(len(items))))
    tp = sum(1 for (_, w, _), f in zip(items, flagged) if f and w)
    fp = sum(1 for (_, w, _), f in zip(items, flagged) if f and not w)
    worthy = sum(1 for _, w, _ in items if w)
    print(f"{args.split}: {len(items)} uncited sentences, {worthy} worthy; "
          f"uncited-claim precision {tp / max(1, tp + fp):.3f} ({tp + fp} flagged), "
          f"recall {tp / max(1, worthy):.3f}")


def kinds(args, folder):
    with open(args.file, encoding="utf-8") as f:
        answers = [json.loads(line) for line in f]
    answers = [a for a in answers if args.split in ("all", a["split"])]

    def run(k):
        a = answers[k]
        return check(args.bin, a["answer"], a["chunks"], folder, str(k))

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(run, range(len(answers))))
    right, total = collections.Counter(), collections.Counter()
    for answer, found in zip(answers, results):
        text = answer["answer"].encode()
        at = 0
        for sentence in answer["sentences"]:
            piece = sentence["text"].encode()
            start = text.find(piece, at)
            if start < 0:
                start = text.find(piece)
            if start < 0 or not found:
                continue
            at = start + len(piece)
            end = start + len(piece)
            best = max(found, key=lambda r: min(r["span"]["end"], end) - max(r["span"]["start"], start))
            kind = sentence["kind"]
            if kind == "other":
                continue
            quiet = best["verdict"] == "no-claim"
            ok = (not quiet) if kind == "claim" else quiet and (
                kind != "abstention" or best.get("kind") == "abstention")
            total[kind] += 1
            right[kind] += ok
    for kind in sorted(total):
        print(f"{kind:12} {right[kind]}/{total[kind]} = {right[kind] / total[kind]:.3f}")
    named = ["pleasantry", "meta", "navigation", "reference", "abstention"]
    r = sum(right[k] for k in named)
    t = sum(total[k] for k in named)
    print(f"pleasantry, meta, navigation, reference, abstention quiet: {r}/{t} = {r / max(1, t):.3f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["expertqa", "kinds"])
    parser.add_argument("file")
    parser.add_argument("--bin", default="target/release/ragcite")
    parser.add_argument("--split", default="all")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        (expertqa if args.mode == "expertqa" else kinds)(args, folder)


if __name__ == "__main__":
    sys.exit(main())
