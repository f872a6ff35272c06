#!/usr/bin/env python3
"""Every `contradicted` verdict (or, with `--verdict number-mismatch`, every number mismatch)
on labelled dev sets, with what decided it (stdlib only).

Runs `ragcite eval --features` on each file to find the units whose verdict is `contradicted`,
then checks each such unit alone (`ragcite check --format json`: its text against the record's
chunks) to show the contradiction: its kind, the sentence's words, the chunk's words and the
passage. Prints one block per flag with the human label, and a count per set; `--jsonl PATH`
writes the flags (id, set, label, sentence, kind, words, passage) for reading and labelling by
hand (a regression set under testdata/ is cut from such a file). With `--verdict
number-mismatch`, each flag has the figures no cited chunk holds and the cited chunks' texts.

Usage:
  scripts/dev/contradicted-flags.py --bin target/release/ragcite dev/attributionbench.jsonl \
      dev/expertqa.jsonl [--jsonl flags.jsonl] [--quiet]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor


def units(path):
    """(record id, unit index) → (record, text, label) for every labelled unit."""
    table = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            record = json.loads(line)
            sentences = record.get("sentences") or []
            if sentences:
                for k, s in enumerate(sentences):
                    table[(record["id"], k)] = (record, s["text"], s.get("label"))
            else:
                table[(record["id"], 0)] = (record, record.get("answer", ""), record.get("label"))
    return table


def check(binary, record, text, verdict):
    with tempfile.TemporaryDirectory() as tmp:
        answer = os.path.join(tmp, "answer.md")
        chunks = os.path.join(tmp, "chunks.json")
        with open(answer, "w", encoding="utf-8") as f:
            f.write(text)
        with open(chunks, "w", encoding="utf-8") as f:
            json.dump([{"id": c["id"], "text": c["text"]} for c in record["chunks"]], f)
        args = [binary, "check", answer, chunks, "--format", "json", "--isolated"]
        if record.get("question"):
            args += ["--question", record["question"]]
        out = subprocess.run(args, capture_output=True, text=True, check=False).stdout
    try:
        report = json.loads(out)
    except json.JSONDecodeError:
        return None
    for s in report["result"]["sentences"]:
        if s.get("verdict") == verdict:
            return s
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--bin", required=True)
    parser.add_argument("--jsonl")
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("--verdict", default="contradicted",
                        help="the verdict listed: contradicted (default) or number-mismatch")
    args = parser.parse_args()
    flags = []
    for path in args.files:
        name = os.path.basename(path).removesuffix(".jsonl")
        with tempfile.NamedTemporaryFile(suffix=".jsonl", delete=False) as f:
            features = f.name
        subprocess.run([args.bin, "eval", path, "--features", features],
                       capture_output=True, check=False)
        table = units(path)
        found = []
        with open(features, encoding="utf-8") as f:
            for line in f:
                u = json.loads(line)
                if u["verdict"] == args.verdict:
                    found.append(table[(u["record"], u["unit"])] + (u,))
        os.unlink(features)
        with ThreadPoolExecutor(4) as pool:
            details = list(pool.map(lambda x: check(args.bin, x[0], x[1], args.verdict), found))
        right = 0
        for (_record, text, label, u), s in zip(found, details):
            c = (s or {}).get("contradiction") or {}
            right += label is False
            if args.verdict == "number-mismatch":
                cited = (s or {}).get("cited") or []
                texts = {ch["id"]: ch["text"] for ch in _record["chunks"] if ch["id"] in cited}
                flags.append({
                    "id": f"{u['record']}#{u['unit']}", "set": name, "label": label,
                    "sentence": text, "missing": (s or {}).get("missingNumbers"),
                    "cited": texts,
                })
                if not args.quiet:
                    print(f"[{name}] {u['record']}#{u['unit']} missing {flags[-1]['missing']}")
                    print(f"  S: {text}")
                continue
            flags.append({
                "id": f"{u['record']}#{u['unit']}", "set": name, "label": label,
                "sentence": text, "kind": c.get("kind"), "sentenceWords": c.get("sentenceWords"),
                "chunkWords": c.get("chunkWords"), "passage": c.get("passage"),
            })
            if not args.quiet:
                mark = "RIGHT" if label is False else "WRONG"
                print(f"[{name}] {mark} {u['record']}#{u['unit']} {c.get('kind')}")
                print(f"  S: {text}")
                print(f"  s-words: {c.get('sentenceWords')!r}  c-words: {c.get('chunkWords')!r}")
                print(f"  P: {c.get('passage')}")
        n = len(found)
        print(f"== {name}: {n} {args.verdict}, {right} labelled not supported"
              f" (precision {right / n if n else float('nan'):.3f})", file=sys.stderr)
    if args.jsonl:
        with open(args.jsonl, "w", encoding="utf-8") as f:
            for flag in flags:
                f.write(json.dumps(flag, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
