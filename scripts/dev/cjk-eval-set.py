#!/usr/bin/env python3
"""Converts a Chinese or Japanese entailment set into ragcite eval records.

Reads OCNLI (`data/ocnli/train.*.json`, one JSON object a line) or JNLI
(`datasets/jnli-v1.3/valid-v1.3.json`, the same shape) and writes one eval record a line:
the premise is the one chunk, the hypothesis the claim citing it (`... [1]`); `entailment` is
supported (label true), `neutral` and `contradiction` are not. Pairs without a gold label
(OCNLI's `-`) are skipped.

    python3 scripts/dev/cjk-eval-set.py PATH/train.10k.json /tmp/ocnli.jsonl
    ragcite eval /tmp/ocnli.jsonl --lang zh

Write the output outside the repository: the data is not ours to commit.
"""

import json
import sys


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    source, out = sys.argv[1], sys.argv[2]
    dataset = "jnli" if "jnli" in source.lower() else "ocnli"
    name = source.rsplit("/", 1)[-1].lower()
    split = next((s for s in ("train", "valid", "dev", "test") if s in name), "")
    written = skipped = 0
    with open(source, encoding="utf-8") as f, open(out, "w", encoding="utf-8") as w:
        for n, line in enumerate(f):
            line = line.strip()
            if not line:
                continue
            pair = json.loads(line)
            label = pair.get("label")
            if label not in ("entailment", "neutral", "contradiction"):
                skipped += 1
                continue
            premise, hypothesis = pair["sentence1"].strip(), pair["sentence2"].strip()
            text = f"{hypothesis} [1]"
            pid = pair.get("id", pair.get("sentence_pair_id", n))
            record = {
                "id": f"{dataset}:{pid}",
                "dataset": dataset,
                "source": source,
                "unit": "claim",
                "question": "",
                "answer": text,
                "sentences": [
                    {
                        "text": text,
                        "raw": hypothesis,
                        "citations": ["1"],
                        "label": label == "entailment",
                        "label_raw": label,
                    }
                ],
                "labels": [label == "entailment"],
                "chunks": [{"id": "1", "title": "", "text": premise}],
                "markers": "synthetic_single_source",
                "split": split,
                "meta": {"genre": pair.get("genre", "")},
            }
            w.write(json.dumps(record, ensure_ascii=False) + "\n")
            written += 1
    print(f"{written} records written to {out} ({skipped} without a gold label)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
