#!/usr/bin/env python3
"""Cuts the contradiction regression set (testdata/contradictions/real.jsonl) from the dev sets.

Every `contradicted` verdict a build gave on AttributionBench and ExpertQA's dev sets (the flags
file `scripts/dev/contradicted-flags.py --jsonl` writes), read by hand: each line keeps the
sentence, the texts of the chunks it cites, the human support label of the data, and the hand
judgement of whether the chunk says the opposite of the sentence (`contradicts`), with a note.
The two sets' labels say whether the chunk supports the sentence, not whether it contradicts it:
a sentence that is not supported is not contradicted for that.

Usage:
  scripts/dev/cut-contradiction-set.py FLAGS.jsonl dev/attributionbench.jsonl dev/expertqa.jsonl \
      > testdata/contradictions/real.jsonl
"""

import json
import sys

# The hand judgements: id → (contradicts, note).
JUDGED = {
    "ab:ExpertQA_d7b9f04d-b84a-4c66-807d-fecd7319d2aa#0": (False, "`a lack of meaningful participation` and `not meaningfully involved`: two negatives agree"),
    "ab:ExpertQA_ddcf7fab-ad4f-433c-a7d6-423afc3ff96c#0": (False, "`will not change` and `will remain in effect`: the negation denies `change`, which the chunk does not state"),
    "ab:ExpertQA_817dd2d4-f74d-4b49-8267-e4673314dc8f#0": (False, "`could then once again be part` (after rejoining) and `will not form part`: a hypothetical against a plain future, and `form` is not `be`"),
    "ab:ExpertQA_55b84b4f-c9e0-48cd-b60f-48e4da31a273#0": (False, "`applied only at a universal or local level` and `delivered solely at the universal level`: both limit"),
    "ab:Stanford-GenSearch_95a496b1-21ea-4aa0-813d-5b84001dc2e8#0": (False, "`prohibit unfair advertising` and `allows the FTC to act … to prevent deceptive acts`: the verbs have other objects"),
    "ab:Stanford-GenSearch_579ab992-342e-4b0d-9466-64533811936b#0": (False, "`if there is an extra chip that cannot be divided`: a condition"),
    "ab:Stanford-GenSearch_eaae8a58-9f1b-4d4b-a345-47ccac155131#0": (False, "`No artistic style is static` denies `static`, which the sentence does not state"),
    "ab:Stanford-GenSearch_f1db4c85-268f-4a6e-b0bf-e93083cdd0c4#0": (False, "`debate over whether the judiciary should be representative`: a question asked, not an answer"),
    "ab:LFQA_gpt3_whudoc_13aaa4eb-82a7-433f-9022-f1ed10c7e554#0": (False, "`cannot know … until we experience it` and `may not fully understand … until we experience it`: two negatives agree"),
    "ab:Stanford-GenSearch_265f91ba-cecc-4d14-b1ae-f367cd710aff#0": (False, "`aren't incompatible`: a double negation, and of another predicate"),
    "ab:AttrScore-GenSearch_9e067715-528f-4933-89d2-611d03ac5d8a#0": (False, "`There was no Blood Moon in 2020` and `the term Blood Moon is not scientific`: the chunk names the term, it asserts no moon"),
    "ab:BEGIN_gpt2_tc_0021d14b-0a9b-47f8-837a-d175094c9a70#0": (False, "`I did not know that …`: the negation denies `know`, not the fact"),
    "expertqa:rr_sphere_gpt4:142e74ddb4#7": (False, "advice (`you are advised to … not accept requests`) against a description (`they accept requests`)"),
    "expertqa:rr_gs_gpt4:dc362bda42#0": (False, "`prevent contamination` and `so as to not contaminate`: two negatives agree"),
    "expertqa:rr_sphere_gpt4:8c0f9dd3ac#1": (False, "the same sentence as ab:ExpertQA_817dd2d4"),
    "expertqa:post_hoc_gs_gpt4:5d5fd5e1a9#4": (False, "`developers who would never work on affordable housing`: a negation of `work`, about other developers"),
    "expertqa:rr_sphere_gpt4:4da2ce83ad#9": (False, "`cannot be lawfully married under both` and `can't marry … and have this union lawfully recognised`: two negatives agree"),
    "expertqa:rr_sphere_gpt4:763ec1ed24#2": (False, "the same sentence as ab:ExpertQA_55b84b4f"),
    "expertqa:rr_sphere_gpt4:763ec1ed24#5": (False, "the same sentence as ab:ExpertQA_d7b9f04d"),
    "expertqa:rr_gs_gpt4:e1e6fd1237#3": (False, "`might not return` and `unlikely to return`: two negatives agree"),
}

SOURCES = {
    "ab:": ("OSU-NLP-Group/AttributionBench @ b33329b29946", "Apache-2.0"),
    "expertqa:": ("chaitanyamalaviya/ExpertQA @ f794bccb9243", "MIT"),
}


def main():
    flags_path, *sets = sys.argv[1:]
    records = {}
    for path in sets:
        with open(path, encoding="utf-8") as f:
            for line in f:
                r = json.loads(line)
                records[r["id"]] = r
    seen = set()
    with open(flags_path, encoding="utf-8") as f:
        for line in f:
            flag = json.loads(line)
            if flag["id"] not in JUDGED or flag["id"] in seen:
                continue
            seen.add(flag["id"])
            record_id, unit = flag["id"].rsplit("#", 1)
            record = records[record_id]
            sentence = (record.get("sentences") or [{"text": record.get("answer"), "citations": None}])[int(unit)]
            cited = sentence.get("citations") or [c["id"] for c in record["chunks"]]
            chunks = [{"id": c["id"], "text": c["text"]} for c in record["chunks"] if c["id"] in cited]
            contradicts, note = JUDGED[flag["id"]]
            source, licence = next(v for k, v in SOURCES.items() if flag["id"].startswith(k))
            print(json.dumps({
                "id": flag["id"], "source": source, "licence": licence,
                "answer": sentence["text"], "contexts": chunks,
                "supported": flag["label"], "contradicts": contradicts, "note": note,
            }, ensure_ascii=False))
    missing = set(JUDGED) - seen
    if missing:
        sys.exit(f"not among the flags: {sorted(missing)}")


if __name__ == "__main__":
    main()
