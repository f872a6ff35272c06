#!/usr/bin/env python3
"""Fits ragcite's support model on the features `ragcite eval --features` exports, chooses the
model and its size by cross-validation grouped by source, and writes the chosen model as JSON.

    ragcite eval --model formula LABELLED.jsonl... --features features.jsonl
    python3 -m venv /tmp/fit && /tmp/fit/bin/pip install numpy==2.* scikit-learn==1.*
    /tmp/fit/bin/python scripts/data/fit-support.py features.jsonl -o crates/ragcite/src/support/model/model.json

Folds (cross-validation grouped by source): each AttributionBench sub-source (`subset`) is one
fold, held out whole; every other record goes to a fold by its question and its sources (a
record shares a fold with every record that asks the same question or cites the same chunks),
so that no question and no document is on both sides of a split. Every figure printed is on
records the model being scored was not fitted on: each candidate's out-of-fold scores, and for
macro-F1 a threshold chosen on the training folds only.

With `--drop-one`, nothing is written: the shipped model's kind (trees, depth 2, 100 rounds) is
cross-validated on the same folds with every feature, then once with each feature left out, and
a Markdown table gives each feature's contribution (the AUC and macro-F1 lost without it, out of
fold, per set):

    /tmp/fit/bin/python scripts/data/fit-support.py features.jsonl --drop-one \
        --drop bigram_overlap,trigram_overlap,copied_pairs,longest_copy,lcs_ratio,best_window_recall

Candidates: logistic regression (L2, features standardised, counts as log(1 + n)) at several
strengths, and gradient-boosted trees (scikit-learn's GradientBoostingClassifier, exact splits,
no subsampling: deterministic) of several depths and sizes. The winner has the highest mean of
the per-set AUCs, out of fold; it is then fitted on all the records and written out.
"""

import argparse
import hashlib
import json
import sys

import numpy as np
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

# Features counted in whole units: a logistic model reads them as log(1 + n).
COUNTS = {
    "missing_words",
    "missing_names",
    "missing_numbers",
    "matched_numbers",
    "sentence_words",
    "chunk_words",
}
FOLDS = 7


def read(paths):
    rows = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    rows.append(json.loads(line))
    return rows


class Groups:
    """Union-find over records: those sharing a question or a document are one group."""

    def __init__(self, n):
        self.parent = list(range(n))

    def find(self, a):
        while self.parent[a] != a:
            self.parent[a] = self.parent[self.parent[a]]
            a = self.parent[a]
        return a

    def union(self, a, b):
        a, b = self.find(a), self.find(b)
        if a != b:
            self.parent[max(a, b)] = min(a, b)


def folds(rows):
    groups = Groups(len(rows))
    first = {}
    for k, row in enumerate(rows):
        for key in (("q", row["group"], row["question"]), ("d", row["group"], row["document"])):
            if key[2] == "":
                continue
            if key in first:
                groups.union(k, first[key])
            else:
                first[key] = k
    subsets = sorted({r["subset"] for r in rows if r["group"] == "attributionbench"})
    fold_of_subset = {s: k % FOLDS for k, s in enumerate(subsets)}
    fold = np.zeros(len(rows), dtype=int)
    for k, row in enumerate(rows):
        if row["group"] == "attributionbench" and row["subset"] in fold_of_subset:
            fold[k] = fold_of_subset[row["subset"]]
        else:
            root = rows[groups.find(k)]
            key = f"{root['record']}".encode()
            fold[k] = int(hashlib.sha256(key).hexdigest(), 16) % FOLDS
    return fold


def matrix(rows, names):
    return np.array([[r["features"][n] for n in names] for r in rows], dtype=float)


def logistic_inputs(x, names):
    x = x.copy()
    for j, name in enumerate(names):
        if name in COUNTS:
            x[:, j] = np.log1p(x[:, j])
    return x


class Logistic:
    def __init__(self, c):
        self.c = c

    def describe(self):
        return f"logistic C={self.c}"

    def fit(self, x, y, names):
        t = logistic_inputs(x, names)
        self.mean = t.mean(axis=0)
        self.scale = t.std(axis=0)
        self.scale[self.scale == 0] = 1.0
        self.model = LogisticRegression(C=self.c, max_iter=5000, tol=1e-10)
        self.model.fit((t - self.mean) / self.scale, y)
        return self

    def predict(self, x, names):
        t = (logistic_inputs(x, names) - self.mean) / self.scale
        return self.model.predict_proba(t)[:, 1]

    def export(self, names):
        return {
            "kind": "logistic",
            "intercept": float(self.model.intercept_[0]),
            "features": [
                {
                    "name": n,
                    "transform": "log1p" if n in COUNTS else "identity",
                    "mean": float(self.mean[j]),
                    "scale": float(self.scale[j]),
                    "weight": float(self.model.coef_[0][j]),
                }
                for j, n in enumerate(names)
            ],
        }


class Trees:
    def __init__(self, depth, trees, rate, leaf):
        self.depth, self.trees, self.rate, self.leaf = depth, trees, rate, leaf

    def describe(self):
        return f"trees depth={self.depth} n={self.trees} rate={self.rate} leaf={self.leaf}"

    def fit(self, x, y, names):
        self.model = GradientBoostingClassifier(
            n_estimators=self.trees,
            max_depth=self.depth,
            learning_rate=self.rate,
            min_samples_leaf=self.leaf,
            subsample=1.0,
            random_state=0,
        )
        self.model.fit(x, y)
        return self

    def predict(self, x, names):
        return self.model.predict_proba(x)[:, 1]

    def export(self, names):
        base = float(self.model._raw_predict_init(np.zeros((1, len(names))))[0][0])
        trees = []
        for estimator in self.model.estimators_[:, 0]:
            tree = estimator.tree_
            value = tree.value[:, 0, 0] * self.rate
            weight = tree.weighted_n_node_samples
            # Internal nodes get the weighted mean of their leaves, so that a path's steps
            # (a feature's contribution) add up to the leaf's value.
            mean = value.copy()
            for node in reversed(range(tree.node_count)):
                left, right = tree.children_left[node], tree.children_right[node]
                if left != -1:
                    mean[node] = (mean[left] * weight[left] + mean[right] * weight[right]) / (
                        weight[left] + weight[right]
                    )
            trees.append(
                {
                    "feature": [int(f) if f >= 0 else -1 for f in tree.feature],
                    "threshold": [float(t) for t in tree.threshold],
                    "left": [int(c) for c in tree.children_left],
                    "right": [int(c) for c in tree.children_right],
                    "value": [float(v) for v in mean],
                }
            )
        return {
            "kind": "trees",
            "base": base,
            "features": [{"name": n} for n in names],
            "trees": trees,
        }


def macro_f1(y, predicted):
    def f1(tp, fp, fn):
        return 0.0 if tp == 0 else 2 * tp / (2 * tp + fp + fn)

    tp = int(np.sum(predicted & y))
    fp = int(np.sum(predicted & ~y))
    fn = int(np.sum(~predicted & y))
    tn = int(np.sum(~predicted & ~y))
    return (f1(tp, fp, fn) + f1(tn, fn, fp)) / 2


def best_threshold(score, y, blocked):
    best = (0.5, -1.0)
    for t in np.round(np.arange(0.10, 0.901, 0.01), 2):
        m = macro_f1(y, (score >= t) & ~blocked)
        if m > best[1] + 1e-12:
            best = (float(t), m)
    return best[0]


def cross_validate(candidate, x, y, blocked, fold, names, sets):
    out = np.zeros(len(y))
    predicted = np.zeros(len(y), dtype=bool)
    thresholds = []
    for k in range(FOLDS):
        train, test = fold != k, fold == k
        if not test.any():
            continue
        model = candidate.fit(x[train], y[train], names)
        out[test] = model.predict(x[test], names)
        # The threshold is chosen on the training folds' own scores.
        t = best_threshold(model.predict(x[train], names), y[train], blocked[train])
        thresholds.append(t)
        predicted[test] = (out[test] >= t) & ~blocked[test]
    figures = {}
    for name, where in sets.items():
        figures[name] = (
            roc_auc_score(y[where], out[where]),
            macro_f1(y[where], predicted[where]),
        )
    return out, figures, thresholds


def drop_one(x, y, blocked, fold, names, sets, groups, also):
    """Each feature's contribution: the out-of-fold figures of the shipped model's kind with
    every feature, against the same with the feature left out; then with each group of
    `also` (lists of names) left out together."""
    shipped = Trees(2, 100, 0.05, 20)
    _, full, _ = cross_validate(shipped, x, y, blocked, fold, names, sets)
    columns = list(sets)
    print("| left out | mean AUC | " + " | ".join(f"{c} AUC / mF1" for c in columns) + " |")
    print("|---|---:|" + "---:|" * len(columns))

    def row(label, figures, base):
        mean = np.mean([figures[g][0] for g in groups])
        cells = []
        for c in columns:
            auc, mf1 = figures[c]
            if base is None:
                cells.append(f"{auc:.3f} / {mf1:.3f}")
            else:
                cells.append(f"{auc - base[c][0]:+.3f} / {mf1 - base[c][1]:+.3f}")
        if base is not None:
            mean -= np.mean([base[g][0] for g in groups])
            return f"| {label} | {mean:+.4f} | " + " | ".join(cells) + " |"
        return f"| {label} | {mean:.4f} | " + " | ".join(cells) + " |"

    print(row("(none: every feature)", full, None))
    for left_out in [[name] for name in names] + also:
        unknown = [name for name in left_out if name not in names]
        if unknown:
            sys.exit(f"fit-support: no feature named {', '.join(unknown)}")
        keep = [k for k in range(len(names)) if names[k] not in left_out]
        kept = [names[k] for k in keep]
        _, figures, _ = cross_validate(shipped, x[:, keep], y, blocked, fold, kept, sets)
        label = ", ".join(f"`{name}`" for name in left_out)
        print(row(label, figures, full), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("features", nargs="+")
    parser.add_argument("-o", "--output")
    parser.add_argument("--quick", action="store_true", help="fewer candidates")
    parser.add_argument(
        "--drop-one", action="store_true", help="print each feature's contribution; write nothing"
    )
    parser.add_argument(
        "--drop",
        action="append",
        default=[],
        metavar="A,B,...",
        help="with --drop-one: also leave these features out together (repeatable)",
    )
    args = parser.parse_args()
    if not args.drop_one and not args.output:
        parser.error("--output is required (or --drop-one)")
    rows = [r for r in read(args.features) if r["features"] is not None]
    names = sorted(rows[0]["features"])
    x = matrix(rows, names)
    y = np.array([r["label"] for r in rows], dtype=bool)
    blocked = np.array([r["blocked"] for r in rows], dtype=bool)
    fold = folds(rows)
    groups = sorted({r["group"] for r in rows})
    sets = {g: np.array([r["group"] == g for r in rows]) for g in groups}
    sets["lfqa"] = np.array([r["subset"] == "LFQA" for r in rows])
    if args.drop_one:
        drop_one(x, y, blocked, fold, names, sets, groups, [d.split(",") for d in args.drop])
        return
    candidates = [Logistic(c) for c in (0.01, 0.1, 1.0, 10.0)]
    for depth in (2, 3, 4):
        for trees in (100, 200, 400):
            if args.quick and trees > 200:
                continue
            candidates.append(Trees(depth, trees, 0.05, 20))
    print(f"{len(rows)} units with features, {len(names)} features, {FOLDS} folds", file=sys.stderr)
    # The formula, as exported (`score` under `--model formula`): no fitting, threshold 0.5.
    formula = np.array([r["score"] for r in rows])
    report = {"formula": {}}
    for name, where in sets.items():
        report["formula"][name] = (
            roc_auc_score(y[where], formula[where]),
            macro_f1(y[where], (formula[where] >= 0.5 - 1e-9) & ~blocked[where]),
        )
    text = "  ".join(f"{g} AUC {a:.3f} mF1 {m:.3f}" for g, (a, m) in report["formula"].items())
    print(f"{'formula (not fitted)':40} {text}", file=sys.stderr)
    best = None
    for candidate in candidates:
        _, figures, thresholds = cross_validate(candidate, x, y, blocked, fold, names, sets)
        mean_auc = np.mean([figures[g][0] for g in groups])
        text = "  ".join(f"{g} AUC {a:.3f} mF1 {m:.3f}" for g, (a, m) in figures.items())
        print(f"{candidate.describe():40} mean AUC {mean_auc:.4f}  {text}  t={thresholds}", file=sys.stderr)
        if best is None or mean_auc > best[0] + 1e-9:
            best = (mean_auc, candidate, figures)
    chosen = best[1]
    print("\nout of fold, grouped (AUC, macro-F1 at a threshold chosen on the training folds):", file=sys.stderr)
    print(f"{'set':18} {'formula':>15} {'chosen model':>15}", file=sys.stderr)
    for name in sets:
        f, m = report["formula"][name], best[2][name]
        print(f"{name:18} {f[0]:.3f} / {f[1]:.3f}   {m[0]:.3f} / {m[1]:.3f}", file=sys.stderr)
    chosen.fit(x, y, names)
    threshold = best_threshold(chosen.predict(x, names), y, blocked)
    exported = chosen.export(names)
    # The threshold is folded into the intercept, so that 0.5 is the model's threshold.
    shift = -float(np.log(threshold / (1 - threshold)))
    key = "intercept" if exported["kind"] == "logistic" else "base"
    exported[key] += shift
    model = {
        "format": "ragcite-support-model",
        "version": 1,
        "description": f"{chosen.describe()}, fitted by scripts/data/fit-support.py "
        f"(threshold {threshold} folded in)",
        **exported,
    }
    with open(args.output, "w", encoding="utf-8") as f:
        json.dump(model, f, indent=None, separators=(",", ":"))
        f.write("\n")
    print(f"chose {chosen.describe()}, threshold {threshold}", file=sys.stderr)


if __name__ == "__main__":
    main()
