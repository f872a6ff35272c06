#!/usr/bin/env python3
"""Measure `ragcite quote` on human-written quotations (QuoteSum; docs/evaluation.md says where
the data comes from and how the file is laid out).

    scripts/dev/measure-quotes.py dev/quotesum_quotes.jsonl [--bin target/release/ragcite]

For every quotation flagged `verbatim_in_text` it runs

    ragcite quote <chunk file> --quote-file <quote file> --format json

and reports:
  - the share of these genuine quotations that are found in their chunk (goal: all);
  - for each one of four or more words (white-space tokens), two altered copies: one word
    replaced by another word of the same chunk (different ignoring case) and one interior word
    dropped (dropping the first or last word would leave a genuine, shorter quotation). How
    many altered copies are wrongly found (goal: none), and how often the closest passage
    reports exactly one differing word.

A "word" to replace, drop or put in is a token that is one word: letters and digits, with
apostrophes or hyphens only inside (`don't`, `Gram-negative`), once the punctuation at its ends
is set aside. Tokens such as `1848–1851` or `date.Stats` are two words in any reading, and
changing one would change two.

An altered copy that still occurs in the chunk (a repeated phrase) is a genuine quotation and is
left out of the counts. Choices are made with a seeded random.Random, so runs are repeatable.
The data stays where it is: the script writes only temporary files. The last line of output is a
one-line JSON summary.
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time

EDGE_PUNCT = re.compile(r"^\W+|\W+$", re.UNICODE)
ONE_WORD = re.compile(r"[^\W_]+(?:['’\-‐][^\W_]+)*", re.UNICODE)


def core(token):
    """A token without the punctuation at its ends, lower-cased: the word it stands for."""
    return EDGE_PUNCT.sub("", token).lower()


def is_one_word(token):
    """Whether a token (its end punctuation aside) is a single word."""
    return ONE_WORD.fullmatch(EDGE_PUNCT.sub("", token)) is not None


def plain(text):
    """Lower case, white space collapsed: enough to tell whether an altered quote still occurs."""
    return " ".join(text.lower().split())


def replace_one(tokens, chunk_words, rng):
    """The quote with one word replaced by a different word of the chunk, or None."""
    positions = [i for i, t in enumerate(tokens) if is_one_word(t)]
    if not positions:
        return None
    i = rng.choice(positions)
    original = core(tokens[i])
    choices = [w for w in chunk_words if w != original]
    if not choices:
        return None
    replacement = rng.choice(choices)
    # Keep the original token's punctuation so that only the word changes.
    token = tokens[i]
    lead = re.match(r"^\W*", token).group(0)
    trail = re.search(r"\W*$", token).group(0)
    altered = list(tokens)
    altered[i] = lead + replacement + trail
    return " ".join(altered)


def drop_one(tokens, rng):
    """The quote with one interior word dropped, or None."""
    positions = [i for i in range(1, len(tokens) - 1) if is_one_word(tokens[i])]
    if not positions:
        return None
    i = rng.choice(positions)
    return " ".join(tokens[:i] + tokens[i + 1 :])


class Runner:
    def __init__(self, binary, workdir):
        self.binary = binary
        self.workdir = workdir
        self.chunk_files = {}
        self.calls = 0
        self.errors = []

    def chunk_file(self, key, text):
        path = self.chunk_files.get(key)
        if path is None:
            path = os.path.join(self.workdir, f"chunk-{len(self.chunk_files)}.txt")
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            self.chunk_files[key] = path
        return path

    def run(self, chunk_path, quote):
        quote_path = os.path.join(self.workdir, "quote.txt")
        with open(quote_path, "w", encoding="utf-8") as f:
            f.write(quote)
        self.calls += 1
        proc = subprocess.run(
            [self.binary, "quote", chunk_path, "--quote-file", quote_path, "--format", "json"],
            capture_output=True,
            text=True,
        )
        if proc.returncode not in (0, 1):
            self.errors.append((quote, proc.returncode, proc.stderr.strip()))
            return None
        try:
            result = json.loads(proc.stdout)
        except json.JSONDecodeError:
            self.errors.append((quote, proc.returncode, "output is not JSON: " + proc.stdout[:200]))
            return None
        if result.get("found") != (proc.returncode == 0):
            self.errors.append((quote, proc.returncode, "exit code disagrees with found"))
        return result


def share(n, d):
    return n / d if d else None


def pct(n, d):
    return f"{n}/{d} ({100 * n / d:.1f}%)" if d else f"{n}/0"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", help="quotesum_quotes.jsonl")
    parser.add_argument("--bin", default="target/release/ragcite", help="the ragcite binary")
    parser.add_argument("--seed", type=int, default=13, help="seed of the word choices")
    parser.add_argument("--show", type=int, default=5, help="examples of each failure to print")
    args = parser.parse_args()

    if not os.path.exists(args.bin):
        sys.exit(f"{args.bin} not found: build it (cargo build --release) or pass --bin")

    rng = random.Random(args.seed)
    started = time.time()
    genuine = found = 0
    missed = []
    altered = {"replaced": [], "dropped": []}  # (quote, altered, result)
    still_genuine = {"replaced": 0, "dropped": 0}

    with tempfile.TemporaryDirectory(prefix="measure-quotes-") as workdir:
        runner = Runner(args.bin, workdir)
        with open(args.data, encoding="utf-8") as f:
            for line in f:
                record = json.loads(line)
                chunks = {c["id"]: c for c in record["chunks"]}
                for q in record.get("quotes", []):
                    chunk = chunks.get(q["chunk_id"])
                    if not q.get("verbatim_in_text") or chunk is None:
                        continue
                    text = chunk["text"]
                    path = runner.chunk_file((record["id"], q["chunk_id"]), text)
                    result = runner.run(path, q["text"])
                    genuine += 1
                    if result and result["found"]:
                        found += 1
                    else:
                        missed.append((q["text"], result))

                    tokens = q["text"].split()
                    if len(tokens) < 4:
                        continue
                    chunk_words = sorted({core(t) for t in text.split() if is_one_word(t)})
                    for kind, quote in (
                        ("replaced", replace_one(tokens, chunk_words, rng)),
                        ("dropped", drop_one(tokens, rng)),
                    ):
                        if quote is None:
                            continue
                        if plain(quote) in plain(text):
                            still_genuine[kind] += 1
                            continue
                        altered[kind].append((q["text"], quote, runner.run(path, quote)))

        elapsed = time.time() - started
        summary = {"genuine": genuine, "found": found, "foundShare": share(found, genuine)}
        print(f"Genuine quotations (verbatim_in_text) found: {pct(found, genuine)}")
        for text, result in missed[: args.show]:
            closest = (result or {}).get("closest") or {}
            print(f"  missed: {text!r}")
            print(f"    closest: {closest.get('text')!r} ({closest.get('differingWords')} differing)")

        for kind, cases in altered.items():
            results = [r for _, _, r in cases if r is not None]
            wrongly_found = [(q, a) for q, a, r in cases if r and r["found"]]
            not_found = [r for r in results if not r["found"]]
            with_closest = [r for r in not_found if r.get("closest")]
            one_word = [r for r in with_closest if r["closest"]["differingWords"] == 1]
            print(
                f"One word {kind}: {len(cases)} altered quotations "
                f"({still_genuine[kind]} more still occur in the chunk, left out)"
            )
            print(f"  wrongly found: {pct(len(wrongly_found), len(results))}")
            print(f"  closest passage with exactly 1 differing word: {pct(len(one_word), len(not_found))}")
            for q, a in wrongly_found[: args.show]:
                print(f"  wrongly found: {a!r} (from {q!r})")
            others = [
                (q, a, r) for q, a, r in cases
                if r and not r["found"] and (r.get("closest") or {}).get("differingWords") != 1
            ]
            for _q, a, r in others[: args.show]:
                closest = r.get("closest") or {}
                print(f"  {closest.get('differingWords')} differing: {a!r}")
                print(f"    closest: {closest.get('text')!r}")
            summary[kind] = {
                "altered": len(cases),
                "wronglyFound": len(wrongly_found),
                "notFound": len(not_found),
                "oneDifferingWord": len(one_word),
                "oneDifferingWordShare": share(len(one_word), len(not_found)),
                "stillInChunk": still_genuine[kind],
            }

        if runner.errors:
            print(f"CLI errors: {len(runner.errors)}")
            for quote, code, message in runner.errors[: args.show]:
                print(f"  exit {code} for {quote!r}: {message}")
        print(f"{runner.calls} runs of {args.bin} in {elapsed:.1f} s")
        summary["errors"] = len(runner.errors)
        summary["runs"] = runner.calls
        summary["seed"] = args.seed
        print(json.dumps(summary, sort_keys=True))


if __name__ == "__main__":
    main()
