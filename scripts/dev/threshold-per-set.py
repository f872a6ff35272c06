#!/usr/bin/env python3
"""Whether one threshold fits every labelled set: the support model's kind (trees, depth 2, 100
rounds, as `scripts/data/fit-support.py` fits it) cross-validated on the same folds (grouped by
source), with chosen sets in training and chosen weights per set; for each set, macro-F1 out of
fold at the threshold chosen on the training folds (the median of the folds' choices, each
maximising the mean of the training sets' macro-F1) against the set's own best threshold.

Units without features (a sentence that cites nothing or has no content words) count as
predicted not supported, as `ragcite eval` counts them; units whose label is null are left out.

    ragcite eval --model formula dev/attributionbench.jsonl dev/wice.jsonl dev/summedits.jsonl \\
        dev/expertqa.jsonl --features features.jsonl
    /tmp/fit/bin/python scripts/dev/threshold-per-set.py features.jsonl
    /tmp/fit/bin/python scripts/dev/threshold-per-set.py features.jsonl --train all \\
        --weights expertqa=2,attributionbench=2,wice=2,summedits=0.5 --balance

`--drop a,b` leaves features out; `--balance` first weighs each set to the same total.
"""

import argparse
import importlib.util
import os
import sys

import numpy as np
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.metrics import roc_auc_score

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "fit", os.path.join(HERE, "..", "data", "fit-support.py")
)
fit = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fit)

THRESHOLDS = np.round(np.arange(0.10, 0.901, 0.01), 2)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("features", nargs="+")
    parser.add_argument("--train", default="attributionbench,summedits,wice",
                        help="sets fitted on (comma-separated), or `all`")
    parser.add_argument("--weights", default="", help="set=weight,... (default 1 each)")
    parser.add_argument("--balance", action="store_true", help="each set the same total weight")
    parser.add_argument("--drop", default="", help="features left out (comma-separated)")
    args = parser.parse_args()

    every = [r for r in fit.read(args.features) if r["label"] is not None]
    rows = [r for r in every if r["features"] is not None]
    featureless = [r for r in every if r["features"] is None]
    drop = {d for d in args.drop.split(",") if d}
    names = sorted(n for n in rows[0]["features"] if n not in drop)
    x = fit.matrix(rows, names)
    y = np.array([r["label"] for r in rows], dtype=bool)
    blocked = np.array([r["blocked"] for r in rows], dtype=bool)
    group = np.array([r["group"] for r in rows])
    fold = fit.folds(rows)
    sets = sorted(set(group))
    train_sets = set(sets) if args.train == "all" else set(args.train.split(","))

    weight = np.ones(len(y))
    if args.balance:
        for s in sets:
            weight[group == s] = len(y) / (len(sets) * np.sum(group == s))
    for item in filter(None, args.weights.split(",")):
        name, value = item.split("=")
        weight[group == name] *= float(value)

    def mean_macro_f1(score, yy, bl, gg, t):
        return np.mean([
            fit.macro_f1(yy[gg == s], (score[gg == s] >= t) & ~bl[gg == s]) for s in sorted(set(gg))
        ])

    out = np.zeros(len(y))
    chosen = []
    for k in range(fit.FOLDS):
        train = (fold != k) & np.isin(group, list(train_sets))
        test = fold == k
        if not test.any():
            continue
        model = GradientBoostingClassifier(
            n_estimators=100, max_depth=2, learning_rate=0.05, min_samples_leaf=20,
            subsample=1.0, random_state=0,
        )
        model.fit(x[train], y[train], sample_weight=weight[train])
        out[test] = model.predict_proba(x[test])[:, 1]
        seen = model.predict_proba(x[train])[:, 1]
        best = max(THRESHOLDS, key=lambda t: (
            round(mean_macro_f1(seen, y[train], blocked[train], group[train], t), 12), -t))
        chosen.append(float(best))
    t0 = float(np.median(chosen))
    print(f"trained on {', '.join(sorted(train_sets))}; weights {args.weights or 'equal'}"
          f"{' (balanced)' if args.balance else ''}; thresholds chosen per fold {chosen}")
    print(f"| set | AUC (units with features) | macro-F1 at {t0:.2f} | best macro-F1 (threshold) | gap |")
    print("|---|---|---|---|---|")
    lfqa = np.array([r["subset"] == "LFQA" for r in rows])
    for name in sets + ["lfqa"]:
        where = lfqa if name == "lfqa" else group == name
        extra = np.array(
            [r["label"] for r in featureless
             if (r["subset"] == "LFQA" if name == "lfqa" else r["group"] == name)], dtype=bool)

        def macro_f1_at(t, where=where, extra=extra):
            yy = np.concatenate([y[where], extra])
            pp = np.concatenate([(out[where] >= t) & ~blocked[where], np.zeros(len(extra), bool)])
            return fit.macro_f1(yy, pp)

        best = max(THRESHOLDS, key=lambda t: (round(macro_f1_at(t), 12), -t))
        at, top = macro_f1_at(t0), macro_f1_at(best)
        print(f"| {name} | {roc_auc_score(y[where], out[where]):.3f} | {at:.3f} | "
              f"{top:.3f} ({best:.2f}) | {top - at:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
