#!/usr/bin/env python3
"""Measures `--citation-scope sentence` against `paragraph` on whole labelled answers.

Usage: python3 scripts/dev/measure-citation-scope.py FILE [--bin target/release/ragcite]

FILE is JSON Lines whose records carry a whole `answer` (with its markers), its `chunks`
(`id`, `title`, `text`) and its labelled `sentences` (`text` as in the answer, `citations`,
`label`: the cited evidence fully supports it, `worthy`: it needs a citation), as ExpertQA's
records in the evaluation data do. Each answer is checked whole under both scopes; each labelled
sentence takes the verdict of the checked sentence that overlaps it most. Prints, per scope:
the worthy sentences without a marker of their own that end `uncited-claim` or are judged
against inherited chunks, the uncited sentences not worthy of a citation that are flagged, and
the agreement of "verdict is supported" with `label` (accuracy and macro-F1) on every labelled
sentence and on those with a marker of their own. Needs only Python's standard library.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter


def check(binary, answer, chunks, scope):
    with tempfile.TemporaryDirectory() as tmp:
        answer_path = os.path.join(tmp, "answer.md")
        chunks_path = os.path.join(tmp, "chunks.json")
        with open(answer_path, "w", encoding="utf-8") as f:
            f.write(answer)
        with open(chunks_path, "w", encoding="utf-8") as f:
            json.dump(chunks, f)
        out = subprocess.run(
            [binary, "check", answer_path, chunks_path, "--isolated", "--format", "json",
             "--citation-scope", scope],
            capture_output=True, check=False,
        )
        if out.returncode not in (0, 1):
            sys.exit(f"ragcite failed: {out.stderr.decode()}")
        return json.loads(out.stdout)["result"]["sentences"]


def align(answer, labelled, checked):
    """For each labelled sentence, the checked sentence (or None) that overlaps it most."""
    data = answer.encode("utf-8")
    cursor = 0
    result = []
    for sentence in labelled:
        needle = sentence["text"].encode("utf-8")
        at = data.find(needle, cursor)
        if at < 0:
            at = data.find(needle)
        if at < 0:
            result.append(None)
            continue
        cursor = at + len(needle)
        start, end = at, at + len(needle)
        best, best_overlap = None, 0
        for s in checked:
            overlap = min(end, s["span"]["end"]) - max(start, s["span"]["start"])
            if overlap > best_overlap:
                best, best_overlap = s, overlap
        result.append(best)
    return result


def macro_f1(pairs):
    def f1(positive):
        tp = sum(1 for p, g in pairs if p == positive and g == positive)
        fp = sum(1 for p, g in pairs if p == positive and g != positive)
        fn = sum(1 for p, g in pairs if p != positive and g == positive)
        return 0.0 if tp == 0 else 2 * tp / (2 * tp + fp + fn)
    return (f1(True) + f1(False)) / 2


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--bin", default="target/release/ragcite")
    args = parser.parse_args()
    records = [json.loads(line) for line in open(args.file, encoding="utf-8") if line.strip()]
    for scope in ("sentence", "paragraph"):
        tally = Counter()
        pairs_all, pairs_cited = [], []
        for record in records:
            chunks = [{"id": c["id"], "title": c.get("title") or "", "text": c["text"]}
                      for c in record["chunks"]]
            checked = check(args.bin, record["answer"], chunks, scope)
            for sentence, found in zip(record["sentences"], align(record["answer"], record["sentences"], checked)):
                if found is None or sentence.get("label") is None:
                    tally["unaligned"] += 1
                    continue
                verdict = found["verdict"]
                own = bool(sentence["citations"])
                supported = verdict == "supported"
                pairs_all.append((supported, bool(sentence["label"])))
                if own:
                    pairs_cited.append((supported, bool(sentence["label"])))
                    continue
                worthy = sentence.get("worthy")
                kind = "worthy" if worthy else ("not worthy" if worthy is False else "unjudged")
                if verdict == "uncited-claim":
                    tally[f"{kind}: uncited-claim"] += 1
                elif verdict == "no-claim":
                    tally[f"{kind}: no-claim"] += 1
                else:
                    tally[f"{kind}: judged"] += 1
                    if found.get("inheritedFrom"):
                        tally[f"{kind}: judged, inherited"] += 1
                    if supported:
                        tally[f"{kind}: judged supported"] += 1
        print(f"== --citation-scope {scope}")
        for key in sorted(tally):
            print(f"  {key}: {tally[key]}")
        flagged_worthy = tally["worthy: uncited-claim"]
        flagged = flagged_worthy + tally["not worthy: uncited-claim"]
        worthy = sum(v for k, v in tally.items() if k.startswith("worthy: ") and k.count(":") == 1
                     and not k.startswith("worthy: judged,") and k != "worthy: judged supported")
        print(f"  uncited-claim on sentences without a marker of their own: precision "
              f"{flagged_worthy / max(flagged, 1):.3f} (worthy among flagged), recall "
              f"{flagged_worthy / max(worthy, 1):.3f} ({flagged_worthy} of {worthy} worthy)")
        for name, pairs in (("all labelled", pairs_all), ("own marker", pairs_cited)):
            accuracy = sum(1 for p, g in pairs if p == g) / max(len(pairs), 1)
            print(f"  {name} ({len(pairs)}): accuracy {accuracy:.3f}, macro-F1 {macro_f1(pairs):.3f}")


if __name__ == "__main__":
    main()
