#!/usr/bin/env python3
"""Writes the labelled files of the `ragcite train` tests (tests/cli/train.rs) into this folder.

Every record is made up here: a chunk states a fact about an invented place, and the labelled
sentence cites it as [1]. A supported sentence restates the fact (sometimes in fewer or other
words); an unsupported one swaps the place, the thing or the deed for one the chunk lacks, or
says something else about the same place. No randomness: the same files every run.

    python3 testdata/train/make.py
"""

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent

PLACES = ["Corlan", "Vessa", "Tirrow", "Maldane", "Orrick", "Pellan", "Quester", "Sunmere",
          "Brakka", "Hollin", "Daventa", "Ferrow"]
THINGS = ["bridge", "library", "harbour", "observatory", "granary", "lighthouse", "mill",
          "theatre", "aqueduct", "monastery", "market", "foundry"]
DEEDS = [("was rebuilt after the great flood", "burned down during the winter riots"),
         ("was designed by a guild of stonemasons", "was funded by a wealthy merchant family"),
         ("stores grain for the northern valleys", "trains young sailors every summer"),
         ("houses a collection of copper maps", "hosts a festival of glass lanterns"),
         ("overlooks the marshes of the eastern coast", "stands beside a quarry of white marble"),
         ("was closed to visitors for a decade", "doubled its size under the last duke")]
FILLER = ["Local records describe it in detail.", "Travellers often mention it in letters.",
          "The town council keeps its old plans.", "Few buildings in the region are older."]


def record(k):
    place, thing = PLACES[k % len(PLACES)], THINGS[(k * 5) % len(THINGS)]
    deed, other = DEEDS[(k + k // 6) % len(DEEDS)]
    chunk = f"The {thing} of {place} {deed}. {FILLER[k % len(FILLER)]}"
    kind = k % 8
    if kind == 0:
        text, label = f"The {thing} of {place} {deed} [1].", True
    elif kind == 1:
        text, label = f"In {place}, the {thing} {deed} [1].", True
    elif kind == 2:
        # Fewer words: still supported.
        text, label = f"The {place} {thing} {' '.join(deed.split()[:2] + deed.split()[-2:])} [1].", True
    elif kind == 3:
        text, label = f"The {thing} of {place} {other} [1].", False
    elif kind == 4:
        stranger = PLACES[(k + 5) % len(PLACES)]
        text, label = f"The {thing} of {stranger} {other} [1].", False
    elif kind == 6:
        # A paraphrase that shares few words: supported, though the words say little.
        text, label = f"{place} still has its old {thing}, people say [1].", True
    elif kind == 7:
        # Every word of the fact is in the chunk, but the sentence denies it.
        text, label = f"It is false that the {thing} of {place} {deed} [1].", False
    else:
        place2 = THINGS[(k * 5 + 3) % len(THINGS)]
        text, label = f"A {place2} in {place} {other} [1].", False
    return {
        "id": f"train-{k}",
        "dataset": "invented",
        "sentences": [{"text": text, "label": label}],
        "chunks": [{"id": "1", "text": chunk}],
    }


def write(name, records):
    with open(HERE / name, "w", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def main():
    write("labelled.jsonl", [record(k) for k in range(60)])
    write("held-out.jsonl", [record(k) for k in range(60, 84)])
    # Only supported units: no model can be fitted.
    supported = [record(k) for k in range(24)]
    write("one-class.jsonl", [r for r in supported if r["sentences"][0]["label"]])
    # Sentences that cite nothing: no unit has features.
    uncited = []
    for k in range(4):
        r = record(k)
        r["sentences"][0]["text"] = r["sentences"][0]["text"].replace(" [1]", "")
        uncited.append(r)
    write("uncited.jsonl", uncited)
    # A JSON array over several lines: not JSON Lines.
    with open(HERE / "array.json", "w", encoding="utf-8") as f:
        json.dump([record(k) for k in range(3)], f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
