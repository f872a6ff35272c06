#!/usr/bin/env python3
"""Whether the WordNet tables would help support (estimated before building): a sentence word
that its cited chunks lack counts as found when they hold a related word (a first-sense
synonym, a derivation or pertainym, an irregular form: the tables of
crates/ragcite/src/words/wordnet/), stemmed with Snowball English (Porter2, as ragcite stems).

Prints, per labelled set, the ROC-AUC of plain word recall (stop words aside) against the
recall with the lexicon's words counted as found, for each table and all of them; with
`--features IN --write OUT`, adds two features to a `ragcite eval --features` file (the share
and the count of sentence words found only through the lexicon), for
`scripts/dev/threshold-per-set.py` to cross-validate with and without them.

    python3 -m venv /tmp/fit && /tmp/fit/bin/pip install numpy scikit-learn snowballstemmer
    /tmp/fit/bin/python scripts/dev/estimate-lexicon-support.py dev/attributionbench.jsonl \\
        dev/expertqa.jsonl dev/wice.jsonl dev/summedits.jsonl [--features F --write OUT]
"""

import argparse
import collections
import json
import os
import re
import sys

import snowballstemmer
from sklearn.metrics import roc_auc_score

TABLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "crates",
                      "ragcite", "src", "words", "wordnet")
STOP = set("""a an the of and or to in on at for by with from as is are was were be been being it
its this that these those which who whom whose what when where why how not no but if then than so
such can could will would should may might must has have had do does did i you he she we they
them his her our their my your me us him also there here about into over under after before
between through during out up down more most other some any each all both only very just""".split())
WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
MARKER = re.compile(r"\[\d+\]")
STEM = snowballstemmer.stemmer("english")


def stems(text):
    return [STEM.stemWord(w.lower()) for w in WORD.findall(text)
            if w.lower() not in STOP and len(w) > 2]


def related(kind):
    """Stem → stems of related words, both ways, from the tables of `kind`."""
    table = collections.defaultdict(set)

    def link(a, b):
        if " " in a or " " in b:
            return
        a, b = STEM.stemWord(a.lower()), STEM.stemWord(b.lower())
        if a != b:
            table[a].add(b)
            table[b].add(a)

    def lines(name):
        with open(os.path.join(TABLES, name), encoding="utf-8") as f:
            for line in f:
                if not line.startswith("#") and line.strip():
                    yield line.rstrip("\n").split("\t")

    if kind in ("all", "derivations"):
        for p in lines("derivations.txt"):
            if len(p) >= 5:
                link(p[1], p[3])
    for name in ("synonyms", "forms"):
        if kind in ("all", name):
            for p in lines(name + ".txt"):
                for w in p[2:]:
                    link(p[1], w)
    return table


def units(paths):
    """(set, record id, unit index, label, sentence stems, cited chunks' stems) of every
    labelled sentence (unit indexes count the labelled sentences, as `eval --features` does)."""
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                record = json.loads(line)
                chunks = {c["id"]: c["text"] for c in record["chunks"]}
                labelled = [s for s in record["sentences"] if s.get("label") is not None]
                for k, s in enumerate(labelled):
                    held = set()
                    for c in s.get("citations", []):
                        held.update(stems(chunks.get(c, "")))
                    yield (record.get("dataset", path), record["id"], k, s["label"],
                           stems(MARKER.sub("", s["text"])), held)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--features", help="a `ragcite eval --features` file")
    parser.add_argument("--write", help="where to write it with the two lexicon features")
    args = parser.parse_args()
    every = list(units(args.files))
    print("| set | units | plain recall AUC | " + " | ".join(
        f"with {k}" for k in ("derivations", "synonyms", "forms", "all")) + " |")
    print("|---|---|---|---|---|---|---|")
    tables = {k: related(k) for k in ("derivations", "synonyms", "forms", "all")}
    found = {}
    for name in sorted({u[0] for u in every}):
        mine = [u for u in every if u[0] == name and u[4] and u[5]]
        y = [u[3] for u in mine]
        plain = [sum(w in u[5] for w in u[4]) / len(u[4]) for u in mine]
        cells = []
        for kind, table in tables.items():
            score = []
            for u in mine:
                rescued = sum(w not in u[5] and bool(table.get(w, set()) & u[5]) for w in u[4])
                score.append((sum(w in u[5] for w in u[4]) + rescued) / len(u[4]))
                if kind == "all":
                    found[(u[1], u[2])] = (rescued / len(u[4]), float(rescued))
            cells.append(f"{roc_auc_score(y, score):.4f}")
        print(f"| {name} | {len(mine)} | {roc_auc_score(y, plain):.4f} | " + " | ".join(cells) + " |")
    if args.features and args.write:
        with open(args.features, encoding="utf-8") as f, open(args.write, "w", encoding="utf-8") as out:
            for line in f:
                row = json.loads(line)
                if row["features"] is not None:
                    share, count = found.get((row["record"], row["unit"]), (0.0, 0.0))
                    row["features"]["lexicon_found"] = share
                    row["features"]["lexicon_count"] = count
                out.write(json.dumps(row) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
