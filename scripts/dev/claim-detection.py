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
      labelled sentence takes the verdict of the sentence of ragcite's that overlaps it most
      (counted by claim-cv.py's `kinds_counts`; a mixed sentence counts as a claim). Per kind: the share of claims still claims (any verdict but no-claim), of non-claims
      quiet (no-claim; an abstention must be of kind abstention).
"""
import argparse
import hashlib
import importlib.util
import json
import os
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor


def claim_cv():
    """scripts/dev/claim-cv.py, whose checking and counting of the kinds set this shares."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "claim-cv.py")
    spec = importlib.util.spec_from_file_location("claim_cv", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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
        found = claim_cv().check(args.bin, text, chunks, None, folder, str(k), [])
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
    right, total, _ = claim_cv().kinds_counts(args.bin, answers, folder, [])
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
