#!/usr/bin/env python3
"""How well the words alone predict ExpertQA's `worthy` on answers not fitted on: a bag-of-words
logistic regression (TF-IDF, class-balanced), fitted and measured with the folds of
scripts/dev/claim-cv.py (sha1 of the answer's first 200 characters), trained on ExpertQA's and
the kinds set's labelled sentences and measured on ExpertQA's uncited ones. A ceiling check for
the claim scorer: if the words cannot rank the experts' labels, no feature of them will.

Needs numpy and scikit-learn (`python3 -m venv /tmp/fit && /tmp/fit/bin/pip install
numpy==2.3.5 scikit-learn==1.7.2`). Usage:

  /tmp/fit/bin/python scripts/dev/claim-text-ceiling.py --expertqa dev/expertqa.jsonl \\
      --kinds testdata/claims/kinds.jsonl
"""

import argparse
import hashlib
import json
import re

from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score


def fold_of(answer):
    text = re.sub(r"\s+", " ", answer).strip()[:200]
    return int(hashlib.sha1(text.encode()).hexdigest()[0], 16) % 2


def rows_of(expertqa, kinds):
    rows = []
    with open(expertqa, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            for s in r["sentences"]:
                if s.get("worthy") is not None:
                    rows.append(("expertqa", fold_of(r["answer"]), bool(s["citations"]), s["text"], s["worthy"]))
    with open(kinds, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            for s in r["sentences"]:
                if s["kind"] != "other":
                    cited = bool(re.search(r"\[\d", s["text"]))
                    rows.append(("kinds", fold_of(r["answer"]), cited, s["text"], s["kind"] in ("claim", "mixed")))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--expertqa", required=True)
    parser.add_argument("--kinds", required=True)
    args = parser.parse_args()
    rows = rows_of(args.expertqa, args.kinds)

    def words(text):
        return re.sub(r"\[[^\]]*\]", "", text)

    for ngrams in ((1, 1), (1, 2)):
        scores, labels = [], []
        for fold in (0, 1):
            train = [r for r in rows if r[1] != fold]
            test = [r for r in rows if r[1] == fold and r[0] == "expertqa" and not r[2]]
            vectorizer = TfidfVectorizer(sublinear_tf=True, ngram_range=ngrams, min_df=2)
            x = vectorizer.fit_transform([words(r[3]) for r in train])
            model = LogisticRegression(max_iter=2000, class_weight="balanced").fit(x, [r[4] for r in train])
            scores += list(model.predict_proba(vectorizer.transform([words(r[3]) for r in test]))[:, 1])
            labels += [r[4] for r in test]
        print(f"n-grams {ngrams}: held-out AUC on {len(labels)} uncited ExpertQA sentences "
              f"{roc_auc_score(labels, scores):.3f}")


if __name__ == "__main__":
    main()
