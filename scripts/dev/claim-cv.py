#!/usr/bin/env python3
"""Cross-validated figures of the claim scorer (stdlib only): the figures of docs/evaluation.md
→ "The claim scorer, measured".

Every answer of the labelled files is put in one of two folds by the sha1 of its text (the first
200 characters, white space made single), so that an answer in two files (the kinds set holds
ExpertQA answers that ExpertQA's dev file holds too) is in the same fold in both. For each fold,
a claim model is fitted with `ragcite train --claims` on the other fold's answers, and measured
on this fold's:

  - ExpertQA (`--expertqa FILE`: records with `worthy`): `ragcite eval` on the fold's records,
    the precision and recall of `uncited-claim` against `worthy` among the labelled sentences
    without a citation (each answer checked whole), at the claim threshold given and at the best;
  - the kinds set (`--kinds FILE`, testdata/claims/kinds.jsonl): each answer checked whole with
    `ragcite check`; each labelled sentence takes the verdict of ragcite's sentence that
    overlaps it most. Claims (and mixed sentences) still claims; the others `no-claim` (an
    abstention of kind `abstention`); `other` is not counted.

The two folds' counts are added. `--rules` measures the phrase rules alone (`--claim-model
rules`), with no fitting. Usage:

  python3 scripts/dev/claim-cv.py --bin target/release/ragcite \\
      --expertqa dev/expertqa.jsonl --kinds testdata/claims/kinds.jsonl \\
      [--claim-threshold 0.5] [--rules] [--trees 100 --depth 2 --min-leaf 20]
"""

import argparse
import collections
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor


def fold_of(record):
    text = re.sub(r"\s+", " ", record.get("answer", "")).strip()[:200]
    return int(hashlib.sha1(text.encode()).hexdigest()[0], 16) % 2


def read(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def write(path, records):
    with open(path, "w", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def check(binary, answer, chunks, question, folder, name, extra):
    path = os.path.join(folder, name + ".md")
    with open(path, "w", encoding="utf-8") as f:
        f.write(answer)
    chunk_path = os.path.join(folder, name + ".json")
    with open(chunk_path, "w", encoding="utf-8") as f:
        json.dump(chunks or [{"id": "0", "text": "nothing"}], f)
    command = [binary, "check", path, chunk_path, "--format", "json", "--isolated", *extra]
    if question:
        command += ["--question", question]
    out = subprocess.run(command, capture_output=True, text=True, check=False)
    return json.loads(out.stdout)["result"]["sentences"]


def kinds_counts(binary, answers, folder, extra):
    def run(k):
        a = answers[k]
        return check(binary, a["answer"], a["chunks"], a.get("question"), folder, f"k{k}", extra)

    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(run, range(len(answers))))
    right, total = collections.Counter(), collections.Counter()
    misses = []
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
            end = start + len(piece)
            at = end
            best = max(found, key=lambda r: min(r["span"]["end"], end) - max(r["span"]["start"], start))
            if min(best["span"]["end"], end) - max(best["span"]["start"], start) <= 0:
                continue
            kind = sentence["kind"]
            if kind == "other":
                continue
            kind = "claim" if kind == "mixed" else kind
            quiet = best["verdict"] == "no-claim"
            ok = (not quiet) if kind == "claim" else quiet and (
                kind != "abstention" or best.get("kind") == "abstention")
            total[kind] += 1
            right[kind] += ok
            if not ok:
                misses.append((kind, best["verdict"], best.get("claimScore"), sentence["text"]))
    return right, total, misses


def expertqa_counts(binary, path, extra):
    out = subprocess.run([binary, "eval", path, "--format", "json", *extra],
                         capture_output=True, text=True, check=True)
    d = json.loads(out.stdout)["groups"][0]["agreement"]["claimDetection"]
    return d


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default="target/release/ragcite")
    parser.add_argument("--expertqa", required=True)
    parser.add_argument("--kinds", required=True)
    parser.add_argument("--claim-threshold", default="0.5")
    parser.add_argument("--rules", action="store_true")
    parser.add_argument("--trees", default="100")
    parser.add_argument("--depth", default="2")
    parser.add_argument("--min-leaf", default="20")
    parser.add_argument("--learning-rate", default="0.05")
    parser.add_argument("--train-on", choices=["both", "kinds", "expertqa"], default="both")
    parser.add_argument("--misses", action="store_true", help="print the kinds set's misses")
    args = parser.parse_args()
    expertqa, kinds = read(args.expertqa), read(args.kinds)
    totals = collections.Counter()
    right, total = collections.Counter(), collections.Counter()
    best = []
    with tempfile.TemporaryDirectory() as folder:
        for fold in (0, 1):
            pool = {"both": expertqa + kinds, "kinds": kinds, "expertqa": expertqa}[args.train_on]
            train = [r for r in pool if fold_of(r) != fold]
            test_e = [r for r in expertqa if fold_of(r) == fold]
            test_k = [r for r in kinds if fold_of(r) == fold]
            write(os.path.join(folder, "train.jsonl"), train)
            write(os.path.join(folder, "test-e.jsonl"), test_e)
            model = os.path.join(folder, f"model{fold}.json")
            if args.rules:
                extra = ["--claim-model", "rules"]
            else:
                subprocess.run([args.bin, "train", "--claims", os.path.join(folder, "train.jsonl"),
                                "-o", model, "--trees", args.trees, "--depth", args.depth,
                                "--min-leaf", args.min_leaf, "--learning-rate", args.learning_rate],
                               check=True, capture_output=True)
                extra = ["--claim-model", model]
            extra += ["--claim-threshold", args.claim_threshold]
            d = expertqa_counts(args.bin, os.path.join(folder, "test-e.jsonl"), extra)
            for key in ("labelled", "positives", "flagged", "correct"):
                totals[key] += d[key]
            if d.get("best"):
                best.append(d["best"])
            r, t, misses = kinds_counts(args.bin, test_k, folder, extra)
            right.update(r)
            total.update(t)
            if args.misses:
                for m in misses:
                    print(f"fold {fold} miss: {m[0]:11} {m[1]:15} {m[2]} {m[3][:150]!r}")
    p = totals["correct"] / max(1, totals["flagged"])
    r = totals["correct"] / max(1, totals["positives"])
    print(f"ExpertQA uncited sentences: {totals['labelled']} ({totals['positives']} worthy); "
          f"uncited-claim precision {p:.3f} ({totals['flagged']} flagged), recall {r:.3f}")
    for b in best:
        print(f"  fold best threshold {b['threshold']}: precision {b['precision']:.3f}, "
              f"recall {b['recall']:.3f}, F1 {b['f1']:.3f}")
    for kind in sorted(total):
        print(f"  kinds {kind:12} {right[kind]}/{total[kind]} = {right[kind] / total[kind]:.3f}")
    named = [k for k in total if k != "claim"]
    rn, tn = sum(right[k] for k in named), sum(total[k] for k in named)
    print(f"kinds: claims still claims {right['claim']}/{total['claim']} = "
          f"{right['claim'] / max(1, total['claim']):.3f}; non-claims quiet {rn}/{tn} = {rn / max(1, tn):.3f}")


if __name__ == "__main__":
    sys.exit(main())
