#!/usr/bin/env python3
"""Times whole `ragcite check` processes on two workloads, beside the closest peer and the floor.

    python3 scripts/bench/bench-peer.py DEV_DIR [--runs 21] [--bin target/release/ragcite]

- real text, at the service's size limits (an answer of up to 100,000 characters, chunks of up to
  500,000): one sentence per AttributionBench claim that cites one passage, citing it, and
  WiCE's web pages as extra chunks, at 1/4, 1/2 and all of the limits;
- all-match: chunks that each share words with every sentence of the answer (1,400 sentences
  against 2,000 chunks, and a quarter of that), where a check that visits every sentence-chunk
  pair that shares a word grows with their product.

DEV_DIR holds attributionbench.jsonl and wice.jsonl in the eval schema. The peer is
citation-integrity-check 0.1.0 (a pure-Python token-overlap checker that compares each
sentence with the chunk it cites), timed as a whole `python3 -c` process on the same files when
it can be imported (`pip install citation-integrity-check==0.1.0`), skipped otherwise. The floor
is `wc -w` over the two files and `cat` of the two files. Prints medians and bests in ms.

    python3 scripts/bench/bench-peer.py DEV_DIR --instructions BIN [BIN ...]

counts instead the instructions of one whole `check` process of each binary on each workload
with valgrind's callgrind (they do not move with the machine's load), to compare two builds.
"""

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ANSWER_LIMIT = 100_000
CHUNKS_LIMIT = 500_000

PEER = """
import json, sys
from citation_integrity_check import verify
answer = open(sys.argv[1], encoding="utf-8").read()
chunks = json.load(open(sys.argv[2], encoding="utf-8"))
verify(answer, [{"id": c["id"], "text": c["text"]} for c in chunks])
"""


def read(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def real_text(dev, fraction):
    """An answer and its chunks from labelled claims, filled to `fraction` of the limits."""
    claims = []
    for record in read(os.path.join(dev, "attributionbench.jsonl")):
        for sentence in record["sentences"]:
            if len(sentence["citations"]) != 1 or len(record["chunks"]) != 1:
                continue
            # Passages of a paragraph or two, as retrievers return them.
            if len(record["chunks"][0]["text"]) > 600:
                continue
            text = " ".join(sentence.get("raw", sentence["text"]).split())
            claims.append((text.rstrip(), record["chunks"][0]["text"]))
    pages = [r["chunks"][0]["text"] for r in read(os.path.join(dev, "wice.jsonl")) if r["chunks"]]
    answer_limit, chunks_limit = ANSWER_LIMIT // fraction, CHUNKS_LIMIT // fraction
    sentences, chunks, size = [], [], 0
    for text, passage in claims:
        sentence = f"{text.rstrip('.')} [{len(chunks) + 1}]."
        if len(" ".join(sentences)) + len(sentence) + 1 > answer_limit:
            break
        if size + len(passage) > chunks_limit * 0.7:
            break
        sentences.append(sentence)
        chunks.append({"id": str(len(chunks) + 1), "text": passage})
        size += len(passage)
    for page in pages:
        if size + len(page) > chunks_limit:
            continue
        chunks.append({"id": str(len(chunks) + 1), "text": page})
        size += len(page)
    return " ".join(sentences), chunks


def all_match(scale):
    """`1400 * scale / 4` sentences and `2000 * scale / 4` chunks, every chunk sharing words
    with every sentence."""
    rng = random.Random(7)
    common = ["tower", "river", "museum", "bridge", "garden", "station"]
    words = [f"w{k:04d}" for k in range(3000)]
    n_sentences, n_chunks = 350 * scale, 500 * scale
    sentences = []
    for k in range(n_sentences):
        own = " ".join(rng.choice(words) for _ in range(6))
        sentences.append(f"The {common[k % 6]} and the {common[(k + 1) % 6]} near {own} [{k % n_chunks + 1}].")
    chunks = []
    for k in range(n_chunks):
        own = " ".join(rng.choice(words) for _ in range(30))
        chunks.append({"id": str(k + 1), "text": f"{' '.join(common)} {own}."})
    return " ".join(sentences), chunks


def instructions(command):
    """Instructions of one run of `command`, counted by callgrind."""
    with tempfile.TemporaryDirectory() as scratch:
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={scratch}/out"] + command,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    for line in done.stderr.splitlines():
        if "Collected" in line:
            return int(line.split()[-1])
    return None


def timed(command, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append((time.perf_counter() - start) * 1000)
        if done.returncode not in (0, 1):
            return None
    return statistics.median(times), min(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dev")
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--bin", default="target/release/ragcite")
    parser.add_argument("--instructions", nargs="+", metavar="BIN",
                        help="count instructions of these binaries' check processes instead")
    args = parser.parse_args()
    peer = subprocess.run([sys.executable, "-c", "import citation_integrity_check"],
                          capture_output=True).returncode == 0
    work = tempfile.mkdtemp()
    try:
        rows = []
        cases = [(f"real text 1/{f}", real_text(args.dev, f)) for f in (4, 2, 1)]
        cases += [(f"all-match {label}", all_match(s)) for label, s in (("1/4", 1), ("1", 4))]
        for name, (answer, chunks) in cases:
            a, c = os.path.join(work, "answer.md"), os.path.join(work, "chunks.json")
            with open(a, "w", encoding="utf-8") as f:
                f.write(answer)
            with open(c, "w", encoding="utf-8") as f:
                json.dump(chunks, f)
            size = os.path.getsize(a) + os.path.getsize(c)
            sentences = answer.count("].")
            row = [name, f"{sentences} sentences, {len(chunks)} chunks, {size / 1000:.0f} kB"]
            if args.instructions:
                counts = [instructions([b, "check", a, c, "--format", "json", "--isolated"])
                          for b in args.instructions]
                row += [f"{n / 1e6:.1f} M" if n else "-" for n in counts]
                if len(counts) > 1 and counts[0] and counts[-1]:
                    row.append(f"{(counts[-1] / counts[0] - 1) * 100:+.1f}%")
                rows.append(row)
                continue
            for command in (
                [args.bin, "check", a, c, "--format", "json", "--isolated"],
                [sys.executable, "-c", PEER, a, c] if peer else None,
                ["wc", "-w", a, c],
                ["cat", a, c],
            ):
                result = timed(command, args.runs) if command else None
                row.append("-" if result is None else f"{result[0]:.1f} ({result[1]:.1f})")
            rows.append(row)
        header = ["workload", "size", "ragcite check", "peer (python3)", "wc -w", "cat"]
        if args.instructions:
            header = ["workload", "size"] + args.instructions
            if len(args.instructions) > 1:
                header.append("last / first")
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for row in rows:
            print("| " + " | ".join(row) + " |")
        if args.instructions:
            print("\ninstructions of one whole `check --format json` process (callgrind)")
        else:
            print(f"\nwhole processes, median (best) of {args.runs} runs, in ms")
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
