#!/usr/bin/env python3
"""Proves that a refactor changed no output: runs two builds of ragcite on every input under
testdata/, in every output format, and compares stdout, stderr and the exit code byte for byte.

    python3 scripts/dev/same-outputs.py BEFORE_BIN AFTER_BIN [--keep DIR] [--jobs 2] [--list]

    cargo build --release && cp target/release/ragcite /tmp/ragcite-before   # on the old commit
    cargo build --release                                                      # on the new one
    python3 scripts/dev/same-outputs.py /tmp/ragcite-before target/release/ragcite --keep /tmp/diff

It prints one line per difference (which stream, then the command), a count of runs per
command, and last `N runs, M differ`; it exits 0 when nothing differs, 1 when a run differs, 2 on
a usage error. --keep DIR writes both sides of every differing run to DIR/NNNN-<command>/
(command.txt, before.stdout, before.stderr, before.exit, after.*). --list prints the runs
without running them.

The runs are found in the repository (two folders above this file), not listed here:

- `check ANSWER [CHUNKS]` in every `--format` that BEFORE's `check --help` lists. An answer is a
  .md, .txt, .json, .jsonl, .ndjson or .sse file; its chunks are `X-chunks.json` for
  `X-answer.*`, `X.json` for `X.md`, else the folder's chunks.json. A folder with answer.md and no
  chunks.json (testdata/formats) pairs answer.md with each of its other files. A stack sample
  folder (testdata/stacks/NAME/) runs each file alone and each ordered pair of its files (a
  response with its request, retrieve results, tool result or source list). The chunks-only
  folders (CHUNKS_FOLDERS) are checked as the chunks of testdata/eiffel/answer.md.
- `explain ANSWER [CHUNKS]` for the same pairs, `explain`, `explain --features`, and `explain
  VERDICT` for each verdict `explain` lists.
- `batch FILE` in every format of `batch --help`, on every file and every leaf folder (a Giskard
  report) under testdata/batch and testdata/ci (and testdata/traces and testdata/exports if there
  are any), and once with all the files of each folder together; also every other .csv or .tsv
  table of testdata (outside the chunks folders), and BATCH_EXTRA's transcripts that need
  `--field`.
- `eval FILE` in every format of `eval --help`, and `train FILE -o MODEL` (the model file compared
  too), on the labelled sets of testdata/eval and testdata/train.
- `quote DOCUMENT QUOTE` in every format of `quote --help`: each answer's quotations against its
  chunks file, the whole answer as `--quote-file`, and for every .md and .txt file of testdata a
  passage taken from it, the same passage with a word left out, and the passage cut by an ellipsis.
- `formats` and `formats detect FILE`, in their formats, on every file of testdata.

Every run gets `--isolated` when the command's `--help` (BEFORE's) lists it, runs in the
repository root with NO_COLOR=1, COLUMNS=100, SOURCE_DATE_EPOCH=0, the CI, terminal and backtrace
variables removed, standard input empty (/dev/null), and at most 60 s; a run that times out on
either side counts as a difference. The one thing not compared byte for byte is the thread id of
a panic message (`thread 'main' (5540) panicked at`), which changes from run to run; runs that
panic in both builds are named on standard error. Runs go two at a time (--jobs); the report is
in the order of the runs whatever finishes first. A file of testdata/ that only `formats detect`
reads is named on standard error, so that a new kind of fixture is noticed.

Plain Python 3.9+, standard library only.
"""

import argparse
import concurrent.futures
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TIMEOUT = 60

# Removed from the environment of every run: colour choices, the terminal, CI markers (which
# change the progress display and the annotations) and backtraces, as tests/cli/util.rs does.
SCRUBBED = (
    "CLICOLOR",
    "CLICOLOR_FORCE",
    "FORCE_COLOR",
    "TERM",
    "COLORTERM",
    "CI",
    "GITHUB_ACTIONS",
    "GITLAB_CI",
    "JENKINS_URL",
    "RUST_BACKTRACE",
    "RUST_LIB_BACKTRACE",
    "RUST_LOG",
)
ENV = {k: v for k, v in os.environ.items() if k not in SCRUBBED}
ENV.update(NO_COLOR="1", COLUMNS="100", SOURCE_DATE_EPOCH="0")

ANSWER_SUFFIXES = (".md", ".txt", ".json", ".jsonl", ".ndjson", ".sse")
TEXT_SUFFIXES = (".md", ".txt")
LABELLED_SUFFIXES = (".json", ".jsonl")
# The answer the chunks-only folders are checked against (as tests/cli/stacks.rs and check.rs do).
REFERENCE_ANSWER = "testdata/eiffel/answer.md"
# Folders of chunks files (in every format, or broken), not answers.
CHUNKS_FOLDERS = ("testdata/stacks/chunks", "testdata/errors")
STACKS = "testdata/stacks"
BATCH_ROOTS = ("testdata/batch", "testdata/ci", "testdata/traces", "testdata/exports")
LABELLED_ROOTS = ("testdata/eval", "testdata/train")
# Transcripts outside the batch folders, with the options that read them (tests/cli/config.rs).
BATCH_EXTRA = {
    "testdata/config/fields.jsonl": [
        "--field",
        "answer=outputs.text",
        "--field",
        "contexts=docs",
        "--field",
        "id=key",
    ],
}
# Stands for the model file `train` writes: a path of each side's own, shown as this.
MODEL = "<MODEL>"
# `thread 'main' (5540) panicked at`: the id in parentheses differs between any two runs.
PANIC_THREAD = re.compile(rb"(thread '[^'\n]*' )\(\d+\) panicked")
# Quotations an answer makes: “…”, "…", «…», „…“, 「…」.
QUOTATION = re.compile(
    r"“([^”\n]{3,300})”|\"([^\"\n]{3,300})\"|«\s*([^»\n]{3,300}?)\s*»"
    r"|„([^“”\n]{3,300})[“”]|「([^」\n]{3,300})」"
)


def absolute(path):
    return os.path.join(REPO, *path.split("/"))


def entries(folder):
    """The files and the folders of `folder` (repository-relative), sorted by name."""
    names = sorted(os.listdir(absolute(folder)))
    files = [f"{folder}/{n}" for n in names if os.path.isfile(absolute(f"{folder}/{n}"))]
    dirs = [f"{folder}/{n}" for n in names if os.path.isdir(absolute(f"{folder}/{n}"))]
    return files, dirs


def walk(folder):
    """Every folder from `folder` down (itself first), depth first, sorted."""
    if not os.path.isdir(absolute(folder)):
        return []
    found = [folder]
    for sub in entries(folder)[1]:
        found.extend(walk(sub))
    return found


def all_files(folder):
    return [f for d in walk(folder) for f in entries(d)[0]]


def under(path, folders):
    return any(path == f or path.startswith(f + "/") for f in folders)


# ---------------------------------------------------------------------------------------------
# What BEFORE's help says


def help_text(binary, command):
    done = subprocess.run(
        [binary, *command, "--help"],
        cwd=REPO,
        env=ENV,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=TIMEOUT,
    )
    if done.returncode != 0:
        sys.exit(
            f"same-outputs: `{binary} {' '.join(command)} --help` failed: "
            f"{done.stderr.decode(errors='replace').strip()}"
        )
    return done.stdout.decode("utf-8", errors="replace")


def option_values(text, option):
    """The possible values of `option` in a --help text (long or short form), [] if none."""
    lines = text.splitlines()
    start = re.compile(r"^\s*(-\w, )?" + re.escape(option) + r"[ =<]")
    for at, line in enumerate(lines):
        if not start.match(line):
            continue
        short = re.search(r"\[possible values: ([^\]]+)\]", line)
        if short:
            return [v.strip() for v in short.group(1).split(",")]
        values = []
        for following in lines[at + 1 :]:
            if re.match(r"^\s*(-\w, )?--[a-z]", following) or re.match(r"^\S", following):
                break
            value = re.match(r"^\s+- ([A-Za-z0-9_.-]+)(:|\s*$)", following)
            if value:
                values.append(value.group(1))
        return values
    return []


def takes(text, flag):
    return re.search(r"^\s*(-\w, )?" + re.escape(flag) + r"\b", text, re.MULTILINE) is not None


class Command:
    """One subcommand as BEFORE documents it: its output formats and whether it takes
    --isolated."""

    def __init__(self, binary, words):
        self.words = list(words)
        text = help_text(binary, self.words)
        self.formats = option_values(text, "--format") or [None]
        self.isolated = takes(text, "--isolated")

    def runs(self, args):
        """`ragcite WORDS ARGS [--format F] [--isolated]` for each format F."""
        tail = ["--isolated"] if self.isolated else []
        return [
            (" ".join(self.words), [*self.words, *args, *(["--format", f] if f else []), *tail])
            for f in self.formats
        ]


# ---------------------------------------------------------------------------------------------
# The inputs


def chunks_for(answer, files):
    """The chunks file that goes with `answer` in its folder, or None."""
    folder, name = answer.rsplit("/", 1)
    stem = name.rsplit(".", 1)[0]
    candidates = []
    if "answer" in stem:
        candidates.append(stem.replace("answer", "chunks") + ".json")
    if not name.endswith(".json"):
        candidates.append(stem + ".json")
    candidates.append("chunks.json")
    for candidate in candidates:
        path = f"{folder}/{candidate}"
        if path != answer and path in files:
            return path
    return None


def check_pairs(used):
    """(answer, chunks or None) for every answer of testdata/, as the module docstring says."""
    pairs = []
    skip = (*CHUNKS_FOLDERS, *BATCH_ROOTS, *LABELLED_ROOTS)
    for folder in walk("testdata"):
        if under(folder, skip):
            continue
        files, _ = entries(folder)
        inputs = [f for f in files if f.endswith(ANSWER_SUFFIXES) and f not in BATCH_EXTRA]
        if under(folder, [STACKS]) and folder != STACKS:
            # A stack's sample: each file alone, and each ordered pair.
            pairs += [(f, None) for f in inputs]
            pairs += [(a, c) for a in inputs for c in inputs if a != c]
            continue
        if folder == STACKS:
            continue  # EXPECTED.md and SOURCES.md describe the samples
        partner = {f: chunks_for(f, files) for f in inputs}
        chunks = {c for c in partner.values() if c}
        answers = [f for f in inputs if f not in chunks]
        main = f"{folder}/answer.md"
        if main in answers and partner[main] is None:
            # answer.md with its chunks in every format the folder holds.
            others = [f for f in files if f != main and f not in BATCH_EXTRA]
            pairs += [(main, c) for c in others]
            answers = [a for a in answers if a != main and a not in others]
        pairs += [(a, partner[a]) for a in answers]
    for folder in CHUNKS_FOLDERS:
        pairs += [(REFERENCE_ANSWER, f) for f in all_files(folder)]
    for answer, chunks in pairs:
        used.update(p for p in (answer, chunks) if p)
    return pairs


def batch_inputs(used):
    """Every transcript file and leaf folder, each folder's files together, and BATCH_EXTRA."""
    inputs = []
    for root in BATCH_ROOTS:
        for folder in walk(root):
            files, dirs = entries(folder)
            if folder != root and not dirs:
                inputs.append([folder])  # a report folder (Giskard RAGET) is one input
            inputs += [[f] for f in files]
            if len(files) > 1:
                inputs.append(files)
            used.update(files)
    # A CSV table elsewhere (a DSPy Evaluate export among the stacks) is a transcript too.
    skip = (*BATCH_ROOTS, *CHUNKS_FOLDERS)
    for path in all_files("testdata"):
        if path.endswith((".csv", ".tsv")) and not under(path, skip):
            inputs.append([path])
            used.add(path)
    for path, options in BATCH_EXTRA.items():
        if os.path.isfile(absolute(path)):
            inputs.append([path, *options])
            used.add(path)
    return inputs


def labelled_sets(used):
    found = [f for root in LABELLED_ROOTS for f in all_files(root) if f.endswith(LABELLED_SUFFIXES)]
    used.update(found)
    return found


def read_text(path):
    with open(absolute(path), encoding="utf-8", errors="replace") as f:
        return f.read().replace("\x00", "")


def passages(path):
    """A passage of the file, the same with its third word left out, and the passage's first
    and last words around an ellipsis; [] when no line has eight words."""
    for line in read_text(path).splitlines():
        words = line.split()
        if len(words) >= 8:
            found = words[1:8]
            return [
                " ".join(found),
                " ".join(found[:2] + found[3:]),
                " ".join(found[:3]) + " … " + " ".join(found[-2:]),
            ]
    return []


def quotations(path):
    text = read_text(path)
    return [next(g for g in m.groups() if g) for m in QUOTATION.finditer(text)]


def discover(before):
    """Every run, in report order: (command name, arguments after the binary)."""
    cmd = {
        words: Command(before, words.split())
        for words in (
            "check",
            "explain",
            "batch",
            "eval",
            "train",
            "quote",
            "formats",
            "formats detect",
        )
    }
    used = set()
    pairs = check_pairs(used)
    runs = []
    for answer, chunks in pairs:
        runs += cmd["check"].runs([answer, *([chunks] if chunks else [])])
    explain_text = subprocess.run(
        [before, "explain"],
        cwd=REPO,
        env=ENV,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=TIMEOUT,
    ).stdout.decode("utf-8", errors="replace")
    verdicts = re.findall(r"^([a-z][a-z-]*): \S", explain_text, re.MULTILINE)
    runs += cmd["explain"].runs([])
    runs += cmd["explain"].runs(["--features"])
    for verdict in verdicts:
        runs += cmd["explain"].runs([verdict])
    for answer, chunks in pairs:
        runs += cmd["explain"].runs([answer, *([chunks] if chunks else [])])
    for inputs in batch_inputs(used):
        runs += cmd["batch"].runs(inputs)
    labelled = labelled_sets(used)
    for path in labelled:
        runs += cmd["eval"].runs([path])
    for path in labelled:
        runs += cmd["train"].runs([path, "-o", MODEL])
    quoted = set()
    for answer, chunks in pairs:
        if not (chunks and answer.endswith(TEXT_SUFFIXES)) or (answer, chunks) in quoted:
            continue
        quoted.add((answer, chunks))
        for quotation in quotations(answer):
            runs += cmd["quote"].runs([chunks, quotation])
        runs += cmd["quote"].runs([chunks, "--quote-file", answer])
    every = all_files("testdata")
    for path in every:
        if path.endswith(TEXT_SUFFIXES):
            used.add(path)
            for passage in passages(path):
                runs += cmd["quote"].runs([path, passage])
    runs += cmd["formats"].runs([])
    for path in every:
        runs += cmd["formats detect"].runs([path])
    unused = [p for p in every if p not in used and not p.endswith(".py")]
    seen = set()
    unique = []
    for run in runs:
        if tuple(run[1]) not in seen:  # the same quotation twice in an answer, say
            seen.add(tuple(run[1]))
            unique.append(run)
    return unique, unused


# ---------------------------------------------------------------------------------------------
# Running and comparing


def execute(binary, args, scratch):
    """(exit code or "timeout", stdout, stderr, model file bytes or None) of one run."""
    model = os.path.join(scratch, "model.json")
    argv = [binary, *(model if a == MODEL else a for a in args)]
    proc = subprocess.Popen(
        argv,
        cwd=REPO,
        env=ENV,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=TIMEOUT)
        code = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        code = "timeout"
    # A panic names the thread's id, which changes from run to run: the one thing compared
    # with less than every byte.
    err = PANIC_THREAD.sub(rb"\1(ID) panicked", err)
    written = None
    if MODEL in args:
        out = out.replace(model.encode(), MODEL.encode())
        err = err.replace(model.encode(), MODEL.encode())
        if os.path.exists(model):
            with open(model, "rb") as f:
                written = f.read()
            os.remove(model)
    return code, out, err, written


def display(args):
    return "ragcite " + shlex.join(args)


class Pair:
    """Runs one command with both binaries, in a scratch folder of each worker's own."""

    def __init__(self, before, after, scratch, keep_outputs):
        self.before, self.after = before, after
        self.scratch = scratch
        self.keep_outputs = keep_outputs

    def __call__(self, run):
        _, args = run
        folder = tempfile.mkdtemp(dir=self.scratch)
        try:
            old = execute(self.before, args, folder)
            new = execute(self.after, args, folder)
        finally:
            os.rmdir(folder)
        lines = []
        if "timeout" in (old[0], new[0]):
            side = "both" if old[0] == new[0] else ("before" if old[0] == "timeout" else "after")
            lines.append(f"timed out ({side}, {TIMEOUT} s)")
        else:
            if old[0] != new[0]:
                lines.append(f"exit code differs ({old[0]} before, {new[0]} after)")
            for k, stream in ((1, "stdout"), (2, "stderr"), (3, "model file")):
                if old[k] != new[k]:
                    lines.append(f"{stream} differs")
        outputs = (old, new) if lines and self.keep_outputs else None
        panics = b" panicked at " in old[2] and b" panicked at " in new[2]
        return lines, outputs, panics


def keep(folder, number, args, outputs):
    slug = re.sub(r"[^A-Za-z0-9.-]+", "_", " ".join(args)).strip("_")[:100]
    where = os.path.join(folder, f"{number:04d}-{slug}")
    os.makedirs(where, exist_ok=True)
    env = " ".join(f"{k}={ENV[k]}" for k in ("NO_COLOR", "COLUMNS", "SOURCE_DATE_EPOCH"))
    with open(os.path.join(where, "command.txt"), "w", encoding="utf-8") as f:
        f.write(f"cd {shlex.quote(REPO)} && {env} {display(args)} </dev/null\n")
    for side, (code, out, err, model) in zip(("before", "after"), outputs):
        for name, data in (("stdout", out), ("stderr", err), ("model.json", model)):
            if data is not None:
                with open(os.path.join(where, f"{side}.{name}"), "wb") as f:
                    f.write(data)
        with open(os.path.join(where, f"{side}.exit"), "w", encoding="utf-8") as f:
            f.write(f"{code}\n")


def main():
    parser = argparse.ArgumentParser(
        description="Runs two ragcite builds on every testdata input in every format and "
        "compares stdout, stderr and exit codes byte for byte.",
    )
    parser.add_argument("before", metavar="BEFORE_BIN", help="the build before the change")
    parser.add_argument("after", metavar="AFTER_BIN", help="the build after it")
    parser.add_argument("--keep", metavar="DIR", help="write both sides of each differing run here")
    parser.add_argument("--jobs", type=int, default=2, help="runs at a time (default 2)")
    parser.add_argument("--list", action="store_true", help="print the runs, run nothing")
    args = parser.parse_args()
    binaries = []
    for binary in (args.before, args.after):
        path = os.path.abspath(binary)
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            parser.error(f"{binary}: not an executable file")
        binaries.append(path)

    runs, unused = discover(binaries[0])
    for path in unused:
        print(f"same-outputs: only `formats detect` reads {path}", file=sys.stderr)
    if args.list:
        for _, run_args in runs:
            print(display(run_args))
        return 0

    per_command = {}
    for name, _ in runs:
        per_command[name] = per_command.get(name, 0) + 1
    differ = 0
    panicked = []
    progress = sys.stderr.isatty()
    with tempfile.TemporaryDirectory(prefix="same-outputs-") as scratch:
        pair = Pair(binaries[0], binaries[1], scratch, bool(args.keep))
        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
            # map() yields in the order of the runs, whichever finishes first.
            results = pool.map(pair, runs)
            for number, (run, (lines, outputs, panics)) in enumerate(zip(runs, results)):
                if progress:
                    print(f"\r{number + 1}/{len(runs)} runs", end="", file=sys.stderr)
                if panics:
                    panicked.append(run[1])
                if not lines:
                    continue
                differ += 1
                if progress:
                    print("\r\033[K", end="", file=sys.stderr)
                for line in lines:
                    print(f"{line}: {display(run[1])}", flush=True)
                if args.keep:
                    keep(args.keep, number, run[1], outputs)
    if progress:
        print("\r\033[K", end="", file=sys.stderr)
    for run_args in panicked:
        print(f"same-outputs: both builds panic: {display(run_args)}", file=sys.stderr)
    counts = ", ".join(f"{name} {n}" for name, n in per_command.items())
    print(f"runs per command: {counts}")
    print(f"{len(runs)} runs, {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
