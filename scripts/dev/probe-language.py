#!/usr/bin/env python3
"""Measures `--lang auto`: which language ragcite detects, on real text (stdlib only).

Two kinds of input, both read from paths given on the command line (no data is committed):

  dev FILE.jsonl ...     labelled eval files (the records of docs/evaluation.md): each labelled
                         sentence with its record's chunks, as `ragcite eval` checks it. Prints
                         how many units are read in each language, and lists those not read in
                         English.
  split FILE.conllu ...  the same treebanks' sentences, five at a time as one answer read in
                         their language (`--lang`): how often ragcite finds exactly the five
                         sentences, splits one (too many) or runs two together (too few). Run
                         with `--bin` and with `--base` (a build before a change) to compare.
  conllu FILE.conllu ... Universal Dependencies treebanks (`# text = ...` lines are real
                         sentences); the language is the file name's prefix (`fr_gsd-ud-test`:
                         fr). Answers of three shapes: `short` (one sentence, no chunk), `short
                         +chunk` (one sentence, the five sentences after it as its chunk), `long`
                         (five sentences, the next five as chunk). Prints, per language and
                         shape, the share detected right, detected as another language (wrong),
                         and left undetected (read as English, as without `--lang`).

Each unit is a record of one `ragcite batch --lang auto --format jsonl --all` run (`--bin`);
a record's `lang` is the language detected, absent when the answer is read in English (detected
as English, or the detector was unsure). For English text, "right" counts the answers read in
English.

Usage:
  scripts/dev/probe-language.py --bin target/release/ragcite dev dev/*.jsonl
  scripts/dev/probe-language.py --bin target/release/ragcite conllu ud/*.conllu [--per-language 300]
  scripts/dev/probe-language.py --bin target/release/ragcite --base OLD_BINARY split ud/*.conllu
"""

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile


def run_batch(binary, records, lang="auto", field="lang"):
    """`lang` of each record (None when undetected), by id (or another field of its line)."""
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        for r in records:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
        path = f.name
    try:
        out = subprocess.run(
            [binary, "batch", path, "--lang", lang, "--format", "jsonl", "--all", "--isolated"],
            capture_output=True, text=True, check=False,
        ).stdout
    finally:
        os.unlink(path)
    found = {}
    for line in out.splitlines():
        row = json.loads(line)
        if row.get("type") == "record" and row.get("id") is not None:
            found[row["id"]] = row.get(field)
    return found


def dev(args):
    for path in args.files:
        records = []
        for line in open(path, encoding="utf-8"):
            rec = json.loads(line)
            chunks = [c["text"] for c in rec.get("chunks", [])]
            for k, s in enumerate(rec.get("sentences", [])):
                if s.get("label") is None:
                    continue
                records.append({"id": f"{rec['id']}#{k}", "answer": s["text"], "contexts": chunks or [""]})
        found = run_batch(args.bin, records)
        counts = collections.Counter(found.get(r["id"]) or "read in English" for r in records)
        print(f"{os.path.basename(path)}: {len(records)} units: "
              + ", ".join(f"{k} {v}" for k, v in counts.most_common()))
        for r in records:
            lang = found.get(r["id"])
            if lang not in (None, "en"):
                print(f"  {lang}: {r['id']}: {r['answer'][:120]}")


def sentences(path):
    out = []
    for line in open(path, encoding="utf-8"):
        if line.startswith("# text = "):
            text = line[len("# text = "):].strip()
            if len(text.split()) >= 3:
                out.append(text)
    return out


def conllu(args):
    print("| language | shape | units | right | wrong | undetected |")
    print("|---|---|---|---|---|---|")
    for path in args.files:
        lang = os.path.basename(path).split("_")[0]
        texts = sentences(path)
        shapes = {"short": [], "short+chunk": [], "long": []}
        step = max(1, (len(texts) - 10) // args.per_language)
        for n, k in enumerate(range(0, len(texts) - 10, step)):
            if n >= args.per_language:
                break
            passage = " ".join(texts[k + 1:k + 6])
            shapes["short"].append({"id": f"s{k}", "answer": texts[k], "contexts": [""]})
            shapes["short+chunk"].append({"id": f"c{k}", "answer": texts[k], "contexts": [passage]})
            shapes["long"].append({
                "id": f"l{k}", "answer": " ".join(texts[k:k + 5]),
                "contexts": [" ".join(texts[k + 5:k + 10])],
            })
        for shape, records in shapes.items():
            found = run_batch(args.bin, records)
            got = [found.get(r["id"]) or "en" for r in records]
            right = sum(1 for g in got if g == lang)
            none = sum(1 for g in got if g == "en" and lang != "en")
            wrong = len(records) - right - none
            total = max(1, len(records))
            print(f"| {lang} | {shape} | {len(records)} | {right / total:.1%} | {wrong / total:.1%} "
                  f"| {none / total:.1%} |")
            if args.show:
                for r in records:
                    got = found.get(r["id"])
                    if got not in (None, lang):
                        print(f"    {got}: {r['answer'][:100]}", file=sys.stderr)


def split(args):
    print("| language | binary | answers | exactly 5 | too many | too few |")
    print("|---|---|---|---|---|---|")
    for path in args.files:
        lang = os.path.basename(path).split("_")[0]
        texts = sentences(path)
        records = [
            {"id": f"p{k}", "answer": " ".join(texts[k:k + 5]), "contexts": ["x"]}
            for k in range(0, len(texts) - 5, 5)
        ]
        for name, binary in (("base", args.base), ("new", args.bin)):
            if not binary:
                continue
            found = run_batch(binary, records, lang=lang, field="counts")
            got = [found.get(r["id"], {}).get("sentences", 0) for r in records]
            total = max(1, len(records))
            exact = sum(1 for g in got if g == 5)
            many = sum(1 for g in got if g > 5)
            few = sum(1 for g in got if g < 5)
            print(f"| {lang} | {name} | {len(records)} | {exact / total:.1%} | {many / total:.1%} "
                  f"| {few / total:.1%} |")
            if args.show and name == "new":
                for r, g in zip(records, got):
                    if g > 5:
                        print(f"    {g}: {r['answer'][:300]}", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True, help="the ragcite binary (a release build)")
    parser.add_argument("--base", help="split: a build to compare with (before the change)")
    parser.add_argument("--per-language", type=int, default=300)
    parser.add_argument("--show", action="store_true", help="list wrong detections on stderr")
    parser.add_argument("mode", choices=("dev", "conllu", "split"))
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    {"dev": dev, "conllu": conllu, "split": split}[args.mode](args)


if __name__ == "__main__":
    main()
