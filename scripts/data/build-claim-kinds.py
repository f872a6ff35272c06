#!/usr/bin/env python3
"""Builds testdata/claims/kinds.jsonl, whole answers of real RAG systems with every sentence
labelled by its kind (claim, pleasantry, meta, navigation, heading, question, instruction,
reference, abstention, mixed, other), from three public repositories read as bare git dirs at
pinned commits:

    ALCE        princeton-nlp/ALCE                human_eval/human_eval_utility_completed.json
    ExpertQA    chaitanyamalaviya/ExpertQA        data/lfqa/rand_test.jsonl, data/lfqa/rand_val.jsonl
    RAGChecker  amazon-science/RAGChecker         data/meta_evaluation/human_labeled_data.json

Usage (the git dirs are what the mirror or `git clone --bare` gives):

    python3 scripts/data/build-claim-kinds.py ALCE.git EXPERTQA.git RAGCHECKER.git
    python3 scripts/data/build-claim-kinds.py ALCE.git EXPERTQA.git RAGCHECKER.git --check
    python3 scripts/data/build-claim-kinds.py ALCE.git EXPERTQA.git RAGCHECKER.git --propose

The labels are the human part and live in the output file itself: each line's id, its sentences'
texts (the sentence boundaries) and their kinds, notes and claim parts. A build reads them from
testdata/claims/kinds.jsonl (or --labels FILE), takes every other field from the sources (the
answer as the system wrote it, the system's name, the chunks, the split), checks that the
sentences are substrings of the answer in order and that nothing but whitespace and list or
heading markers lies between them, checks that the ids are exactly those the selection rule
below picks, and writes the file again (or, with --check, compares it byte for byte with the
kept file and exits 1 on any difference).

--propose prints, for the answers the selection rule picks, draft lines with the sentences a
plain splitter finds and no kinds: the starting point for labelling, not part of a build.

Selection (deterministic): within each source the answers are ordered by the sha1 of their id
(its first hex digit taken mod 8, see order()); answers whose sentence count by the plain
splitter lies outside SENTENCES, or whose text was taken already (runs of one system sometimes
give the same answer), are skipped; then the first answers whose text matches CUES (words that
often open the rare kinds: thanks, apologies, "based on the documents", "for more
information", questions, source lists) are taken, then the first that do not match; PICK gives
how many of each. ExpertQA contributes Bing Chat and the two retrieve-and-read GPT-4 systems
(rr_gs_gpt4, rr_sphere_gpt4) only.

Chunks: ExpertQA's are the sources an answer lists ([n] url) with the evidence text the
annotation file quotes for them (Bing Chat's evidence is the URL alone); ALCE's human
evaluation file and RAGChecker's meta-evaluation file hold no retrieved passages, so their
chunks are empty. Each chunk is cut to CHUNK_MAX characters.

Split: sha1 of the id; a first hex digit 0-7 is "tune", 8-f "heldout".
"""

import argparse
import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

ALCE_COMMIT = "246c476a4edfc564266b7346b6e29ef4861ae937"
EXPERTQA_COMMIT = "1aa7ba81bd4c083c12ef1aa2fee338f6cb60fa87"
RAGCHECKER_COMMIT = "6091f08c00e676e87a970f2aeb4a23a484746348"

ALCE_PATH = "human_eval/human_eval_utility_completed.json"
EXPERTQA_PATHS = ("data/lfqa/rand_test.jsonl", "data/lfqa/rand_val.jsonl")
EXPERTQA_SYSTEMS = ("bing_chat", "rr_gs_gpt4", "rr_sphere_gpt4")
RAGCHECKER_PATH = "data/meta_evaluation/human_labeled_data.json"

OUT = Path(__file__).resolve().parents[2] / "testdata" / "claims" / "kinds.jsonl"

CHUNK_MAX = 1500
SENTENCES = {"alce": (3, 12), "expertqa": (3, 16), "ragchecker": (4, 24)}  # (fewest, most)
# (answers matching CUES, answers not matching) per source
PICK = {"alce": (24, 22), "expertqa": (28, 16), "ragchecker": (24, 19)}

CUES = re.compile(
    r"(?i)(hope (this|that)|let me know|feel free|sorry|glad|thank|"
    r"do(es)? not (provide|mention|contain|specify|include|say)|no (specific )?information|"
    r"not (clear|specified|mentioned|provided|stated)|"
    r"based on the (search|provided|given|context|documents?|information|passages?)|"
    r"according to the (search|provided|documents?|context|passages?)|search results|"
    r"the (provided |given )?(documents?|context|passages?|sources?|search results) "
    r"(do|does|did|provide|mention)|"
    r"for more (information|details)|you (can|may) (visit|check|refer|find|read|consult)|"
    r"\?|\bsources?:|references?:|https?://|"
    r"I (could not|couldn't|cannot|can't|don't have|am unable|was unable)|unfortunately)"
)

ABBREV = {
    "e.g", "i.e", "etc", "vs", "dr", "mr", "mrs", "ms", "st", "no", "fig", "inc", "ltd", "jr",
    "sr", "approx", "ca", "u.s", "u.k", "a.m", "p.m", "al", "cf", "mt", "ft", "gen", "col",
}
BULLET = re.compile(r"\s*(?:[-*\u2022]\s+|\d+[.)]\s+|#+\s+|>\s*)?")
GAP = re.compile(r"[\s\-*\u2022#>]*(?:\d+[.)])?[\s\-*\u2022#>]*")
END = re.compile(r"([.!?]+)((?:\*\*|[\"'\u201d\u2019)\]])*)((?:\s*\[\d+(?:[,\s]*\d+)*\])*)(?=\s)")


def git_show(git_dir: str, commit: str, path: str) -> bytes:
    return subprocess.run(
        ["git", f"--git-dir={git_dir}", "show", f"{commit}:{path}"],
        check=True, capture_output=True,
    ).stdout


def split_of(answer_id: str) -> str:
    return "tune" if hashlib.sha1(answer_id.encode()).hexdigest()[0] in "01234567" else "heldout"


def cut(text: str) -> str:
    return text if len(text) <= CHUNK_MAX else text[:CHUNK_MAX]


def alce(git_dir: str) -> list[dict]:
    data = json.loads(git_show(git_dir, ALCE_COMMIT, ALCE_PATH))
    out = []
    for dataset in sorted(data):
        for run in sorted(data[dataset]):
            system = "vicuna-13b" if "vicuna-13b" in run else "gpt-3.5-turbo"
            for qid, item in data[dataset][run].items():
                if "output" not in item:
                    continue  # the run's summary scores
                out.append({
                    "id": f"alce/{run}/{qid}", "source": "alce", "system": system,
                    "answer": item["output"], "chunks": [],
                })
    return out


def expertqa(git_dir: str) -> list[dict]:
    out = []
    for path in EXPERTQA_PATHS:
        name = path.rsplit("/", 1)[1].split(".")[0]
        lines = git_show(git_dir, EXPERTQA_COMMIT, path).decode("utf-8").splitlines()
        for n, line in enumerate(lines):
            item = json.loads(line)
            for system in EXPERTQA_SYSTEMS:
                ans = item["answers"].get(system)
                if not ans:
                    continue
                evidence = {}
                for claim in ans["claims"]:
                    for ev in claim["evidence"] or []:
                        m = re.match(r"\[(\d+)\] (\S+)\n\n(.*)", ev, re.S)
                        if m and m.group(1) not in evidence:
                            evidence[m.group(1)] = m.group(3)
                chunks = []
                for entry in ans["attribution"] or []:
                    m = re.match(r"\[(\d+)\] (.*)", entry, re.S)
                    if not m:
                        continue
                    text = evidence.get(m.group(1)) or m.group(2)
                    chunks.append({"id": m.group(1), "text": cut(text)})
                out.append({
                    "id": f"expertqa/{name}/{n}/{system}", "source": "expertqa",
                    "system": system, "answer": ans["answer_string"], "chunks": chunks,
                })
    return out


def ragchecker(git_dir: str) -> list[dict]:
    data = json.loads(git_show(git_dir, RAGCHECKER_COMMIT, RAGCHECKER_PATH))
    out, seen = [], set()
    for item in data:
        for side in ("model1", "model2"):
            model = item[side]
            answer_id = f"ragchecker/{item['dataset']}/{item['query_id']}/{model['model_name']}"
            if answer_id in seen:
                continue  # every pair is in the file once per annotator
            seen.add(answer_id)
            out.append({
                "id": answer_id, "source": "ragchecker", "system": model["model_name"],
                "answer": model["response"], "chunks": [],
            })
    return out


def plain_split(text: str) -> list[str]:
    """Lines, then sentence ends inside a line; leading list and heading markers left out."""
    out = []
    for line in text.split("\n"):
        m = BULLET.match(line)
        rest = line[m.end():]
        start = 0
        for e in END.finditer(rest):
            end = e.end()
            before = rest[start:e.start()]
            word = re.search(r"([\w.]+)$", before)
            word = word.group(1).lower() if word else ""
            if e.group(1) == "." and not e.group(2) and not e.group(3):
                if word in ABBREV or re.fullmatch(r"[a-z]", word) or re.fullmatch(r"\d+", before):
                    continue
            nxt = rest[end:].lstrip()
            if nxt and not re.match(r"[A-Z0-9\"'\u201c\u2018(\[*]", nxt):
                continue
            piece = rest[start:end].strip()
            if piece:
                out.append(piece)
            start = end
        piece = rest[start:].strip()
        if piece:
            out.append(piece)
    return out


def order(answer: dict) -> tuple[int, str]:
    """The sha1 of the id with its first hex digit taken mod 8: the digit that decides the split
    does not decide the order, so the picks fall evenly on both sides of it."""
    digest = hashlib.sha1(answer["id"].encode()).hexdigest()
    return int(digest[0], 16) % 8, digest[1:]


def select(pool: list[dict], source: str) -> list[dict]:
    n_cue, n_plain = PICK[source]
    cue, plain, texts = [], [], set()
    for a in sorted(pool, key=order):
        fewest, most = SENTENCES[source]
        if not fewest <= len(plain_split(a["answer"])) <= most or a["answer"] in texts:
            continue
        texts.add(a["answer"])
        if CUES.search(a["answer"]):
            if len(cue) < n_cue:
                cue.append(a)
        elif len(plain) < n_plain:
            plain.append(a)
    return cue + plain


def picked(dirs: list[str]) -> list[dict]:
    out = []
    for source, pool in (
        ("alce", alce(dirs[0])), ("expertqa", expertqa(dirs[1])), ("ragchecker", ragchecker(dirs[2]))
    ):
        out.extend(select(pool, source))
    return out


def check_sentences(answer: dict, sentences: list[dict]) -> list[str]:
    errors, pos, text = [], 0, answer["answer"]
    for s in sentences:
        at = text.find(s["text"], pos)
        if at < 0:
            errors.append(f"{answer['id']}: sentence not found in order: {s['text'][:60]!r}")
            continue
        if not GAP.fullmatch(text[pos:at]):
            errors.append(f"{answer['id']}: text left out before {s['text'][:40]!r}")
        if s["kind"] == "mixed" and s.get("claim_part", "") not in s["text"]:
            errors.append(f"{answer['id']}: claim_part not in its sentence")
        pos = at + len(s["text"])
    if not GAP.fullmatch(text[pos:]):
        errors.append(f"{answer['id']}: text left out at the end")
    return errors


KINDS = {
    "claim", "pleasantry", "meta", "navigation", "heading", "question", "instruction",
    "reference", "abstention", "mixed", "other",
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("alce")
    ap.add_argument("expertqa")
    ap.add_argument("ragchecker")
    ap.add_argument("--labels", default=str(OUT), help="file the labels are read from")
    ap.add_argument("--check", action="store_true", help="compare with the kept file")
    ap.add_argument("--propose", action="store_true", help="print unlabelled drafts")
    args = ap.parse_args()
    answers = picked([args.alce, args.expertqa, args.ragchecker])

    if args.propose:
        for a in answers:
            draft = {"id": a["id"], "sentences": [{"text": t, "kind": None}
                                                  for t in plain_split(a["answer"])]}
            print(json.dumps(draft, ensure_ascii=False))
        return 0

    labels = {}
    for line in Path(args.labels).read_text(encoding="utf-8").splitlines():
        if line.strip():
            item = json.loads(line)
            labels[item["id"]] = item["sentences"]
    errors = []
    want = [a["id"] for a in answers]
    if sorted(want) != sorted(labels):
        errors.append(
            f"labelled ids differ from the selection: missing {sorted(set(want) - set(labels))}, "
            f"extra {sorted(set(labels) - set(want))}"
        )
    lines = []
    for a in answers:
        sentences = labels.get(a["id"])
        if sentences is None:
            continue
        for s in sentences:
            if s.get("kind") not in KINDS:
                errors.append(f"{a['id']}: bad kind {s.get('kind')!r}")
        errors.extend(check_sentences(a, sentences))
        row = {
            "id": a["id"], "source": a["source"], "system": a["system"], "split": split_of(a["id"]),
            "answer": a["answer"], "chunks": a["chunks"], "sentences": sentences,
        }
        lines.append(json.dumps(row, ensure_ascii=False) + "\n")
    for e in errors:
        print(e, file=sys.stderr)
    if errors:
        return 1
    text = "".join(lines)
    if args.check:
        kept = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
        if kept != text:
            print(f"{OUT} differs from what the sources give", file=sys.stderr)
            return 1
        print(f"{OUT}: {len(lines)} answers match the sources")
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}: {len(lines)} answers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
