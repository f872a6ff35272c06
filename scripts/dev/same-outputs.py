#!/usr/bin/env python3
"""Runs two builds of ragcite on every input under testdata/ in every output format and compares
what they print: the proof that a refactor changed no output.

    python3 scripts/dev/same-outputs.py BEFORE_BIN AFTER_BIN [--keep DIR] [--jobs 2]

The runs: `check` on every answer-like file of testdata/ (Markdown and text answers, and every
stack's and every response's JSON, JSON Lines and SSE file), with the folder's chunks.json when
there is one, in every `--format` that BEFORE's `check --help` lists, plus `--explain`-style
views that take no format (`explain VERDICT`, `explain --features`); `batch` on every
transcript-like file (testdata/batch, testdata/ci, testdata/eval, the exports) in every `--format`
of `batch --help`; `formats` and `formats detect FILE` on every response; `eval` on the
labelled sets. Each run is `--isolated` where the command takes it (check, batch), with NO_COLOR=1, COLUMNS=100,
SOURCE_DATE_EPOCH=0, stdin empty, the repository as the working directory, and at most 60 s.

Prints one line per run whose stdout, stderr or exit code differs, then `N runs, M differ`;
exits 1 when one differs. With --keep DIR, writes both sides of each differing run there.
Standard library only.
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENV = dict(os.environ, NO_COLOR="1", COLUMNS="100", SOURCE_DATE_EPOCH="0", LC_ALL="C.UTF-8")
ENV.pop("CLICOLOR_FORCE", None)
ENV.pop("FORCE_COLOR", None)
ANSWER_SUFFIXES = (".md", ".txt", ".json", ".jsonl", ".sse", ".ndjson")
BATCH_FOLDERS = ("testdata/batch", "testdata/ci", "testdata/eval", "testdata/train")


def formats(binary, command):
    """The `--format` values that `ragcite COMMAND --help` lists."""
    help_text = subprocess.run(
        [binary, command, "--help"], capture_output=True, text=True, env=ENV, check=True
    ).stdout
    block = help_text.split("--format <FORMAT>", 1)[1]
    block = block.split("Possible values:", 1)[1]
    values = []
    for line in block.splitlines()[1:]:
        found = re.match(r"\s+- ([a-z0-9-]+)", line)
        if found:
            values.append(found.group(1))
        elif line.strip() and not line.startswith("            "):
            break
    return values


def files_under(folder):
    found = []
    for dirpath, _, names in os.walk(os.path.join(REPO, folder)):
        for name in sorted(names):
            found.append(os.path.relpath(os.path.join(dirpath, name), REPO))
    return sorted(found)


def runs(binary):
    check_formats = formats(binary, "check")
    batch_formats = formats(binary, "batch")
    commands = []
    batch_files = set()
    for folder in BATCH_FOLDERS:
        for path in files_under(folder):
            batch_files.add(path)
            for fmt in batch_formats:
                commands.append(["batch", path, "--isolated", "--format", fmt])
    for path in files_under("testdata"):
        name = os.path.basename(path)
        if path in batch_files or not name.endswith(ANSWER_SUFFIXES):
            continue
        if name.startswith("chunks") or name in ("SOURCES.md", "EXPECTED.md", "README.md"):
            continue
        chunks = os.path.join(os.path.dirname(path), "chunks.json")
        with_chunks = [chunks] if os.path.exists(os.path.join(REPO, chunks)) else []
        for fmt in check_formats:
            commands.append(["check", path, *with_chunks, "--isolated", "--format", fmt])
        if name.endswith((".json", ".jsonl", ".sse", ".ndjson")):
            commands.append(["formats", "detect", path])
    for path in files_under("testdata/eval"):
        commands.append(["eval", path])
    commands.append(["formats"])
    commands.append(["explain", "--features"])
    for verdict in (
        "supported",
        "weak-support",
        "unsupported-citation",
        "uncited-claim",
        "number-mismatch",
        "misquote",
        "contradicted",
        "no-claim",
    ):
        commands.append(["explain", verdict])
    return commands


def run(binary, args):
    try:
        done = subprocess.run(
            [binary, *args],
            cwd=REPO,
            env=ENV,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=60,
        )
        return done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired:
        return "timeout", b"", b""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--keep", help="write both sides of each differing run here")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    commands = runs(args.before)
    # A command the first build does not take (a flag it lacks) is dropped, as it would differ.

    def both(command):
        return command, run(args.before, command), run(args.after, command)

    differ = 0
    by_command = {}
    exits = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for command, before, after in pool.map(both, commands):
            by_command[command[0]] = by_command.get(command[0], 0) + 1
            exits[before[0]] = exits.get(before[0], 0) + 1
            if before == after:
                continue
            differ += 1
            what = [n for n, k in (("exit", 0), ("stdout", 1), ("stderr", 2)) if before[k] != after[k]]
            print(f"differs ({', '.join(what)}): ragcite {' '.join(command)}")
            if args.keep:
                os.makedirs(args.keep, exist_ok=True)
                stem = re.sub(r"[^A-Za-z0-9.]+", "_", " ".join(command))[:150]
                for side, result in (("before", before), ("after", after)):
                    with open(os.path.join(args.keep, f"{stem}.{side}"), "wb") as out:
                        out.write(f"exit {result[0]}\n--- stdout\n".encode())
                        out.write(result[1])
                        out.write(b"\n--- stderr\n")
                        out.write(result[2])
    counts = ", ".join(f"{n} {c}" for c, n in sorted(by_command.items()))
    codes = ", ".join(f"{n} exit {c}" for c, n in sorted(exits.items(), key=str))
    print(f"{len(commands)} runs ({counts}; {codes}), {differ} differ")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
