#!/usr/bin/env python3
"""Sanity check of the claim scorer against CLEF CheckThat! check-worthiness labels.

"Check-worthy" (worth a fact-checker's time) is not "needs a citation" (states something
checkable): most check-worthy lines are claims, but so are many lines that are not check-worthy.
So the figures to read are the share of check-worthy lines ragcite keeps claims (verdict other
than no-claim; it should be nearly all) and the ROC AUC of `claimScore`, check-worthy against not,
over the lines the scorer decided (a weak positive relation is what to expect).

Usage:

  python3 scripts/dev/checkthat-sanity.py --bin target/release/ragcite --data DIR \\
      [--split test|dev|training|all] [--window 10] [--examples 5] [--keep FILE]

DIR is a git directory as `fetch` leaves it (read with `git show`, nothing checked out) or an
extracted folder, of one of these repositories:

  apepa/clef2019-factchecking-task1   debates and speeches, `line <TAB> speaker <TAB> text <TAB>
                                      label`; test is data/test_annotated, training data/training
  sshaar/clef2020-factchecking-task1  tweets in zip files, `topic_id tweet_id tweet_url
                                      tweet_text claim check_worthiness`; test is
                                      test-gold.tsv, dev dev_v2.tsv, training training_v2.tsv
                                      (the tweets also carry a `claim` label, which is measured
                                      too: it is nearer ragcite's own notion)
  sshaar/clef2020-factchecking-task5  debates as in 2019, zipped; test is
                                      test-input/test-gold.zip, training data/v2.zip

Records are claims-only JSON Lines: one record per run of --window consecutive lines of a file
(a debate, or the tweets in file order), each line a labelled sentence; in a debate a speaker's
consecutive lines make a paragraph, each tweet is a paragraph of its own. The records are
written to a temporary file (or --keep FILE) and `ragcite eval --format json` reads them for
`claimDetection`. Each record is also checked whole (`ragcite check --format json`, no chunks);
each ragcite sentence goes to every labelled line it overlaps (a sentence ragcite runs across two
lines, after `D.C.` say, goes to both). A line is kept a claim when one of its sentences'
verdict is not no-claim, and its score is the highest claimScore among
them (a line without a scored sentence has no score and is left out of the AUC).
"""
import argparse
import collections
import csv
import io
import json
import os
import subprocess
import sys
import tempfile
import zipfile
from concurrent.futures import ThreadPoolExecutor

csv.field_size_limit(sys.maxsize)


def is_git_dir(path):
    return os.path.exists(os.path.join(path, "HEAD")) and os.path.isdir(os.path.join(path, "objects"))


def list_files(data):
    """(name, bytes) of every .tsv under DATA, zip members included (a zip's name prefixed)."""
    found = []
    if is_git_dir(data):
        names = subprocess.run(
            ["git", "--git-dir", data, "ls-tree", "-r", "--name-only", "HEAD"],
            capture_output=True, text=True, check=True,
        ).stdout.split("\n")

        def read(name):
            return subprocess.run(
                ["git", "--git-dir", data, "show", "HEAD:" + name], capture_output=True, check=True,
            ).stdout
    else:
        names = []
        for root, _, files in os.walk(data):
            names += [os.path.relpath(os.path.join(root, f), data) for f in files]

        def read(name):
            with open(os.path.join(data, name), "rb") as f:
                return f.read()
    for name in sorted(n for n in names if n):
        if name.endswith(".tsv"):
            found.append((name, read(name)))
        elif name.endswith(".zip"):
            with zipfile.ZipFile(io.BytesIO(read(name))) as z:
                for member in z.namelist():
                    if member.endswith(".tsv"):
                        found.append((name + "/" + member, z.read(member)))
    return found


def split_of(name):
    base = os.path.basename(name)
    if "test_annotated/" in name or "test-gold.zip/" in name or base == "test-gold.tsv":
        return "test"
    if "v1.zip/" in name or "v1.0/" in name:
        return None  # task 5's first release, relabelled in v2.0
    if "/training/" in "/" + name or base == "training_v2.tsv":
        return "training"
    if base == "dev_v2.tsv":
        return "dev"
    return None  # unlabelled test input, old v1 data, baselines, scorer and checker samples


def load(data, split):
    """Files of SPLIT, each (name, kind, [line]) with line {text, worthy, claim?, speaker}."""
    files = []
    for name, raw in list_files(data):
        s = split_of(name)
        if s is None or split not in ("all", s):
            continue
        rows = list(csv.reader(io.StringIO(raw.decode("utf-8")), delimiter="\t", quoting=csv.QUOTE_NONE))
        if rows and rows[0][:1] == ["topic_id"]:
            head = rows[0]
            worthy = head.index("check_worthiness") if "check_worthiness" in head else head.index(
                "claim_worthiness")
            lines = [{"text": r[3].strip(), "worthy": r[worthy] == "1", "claim": r[head.index("claim")] == "1",
                      "speaker": r[1]} for r in rows[1:] if len(r) > worthy]
            files.append((name, "tweets", lines))
        elif rows and len(rows[0]) == 4 and rows[0][0].isdigit():
            lines = [{"text": r[2].strip(), "worthy": r[3].strip() == "1", "speaker": r[1]}
                     for r in rows if len(r) == 4]
            files.append((name, "debate", lines))
    return files


def build(files, window):
    """Claims-only records; each keeps its lines (label, byte span) for the per-line figures."""
    records = []
    for name, kind, lines in files:
        lines = [x for x in lines if x["text"]]
        for at in range(0, len(lines), window):
            part = lines[at:at + window]
            answer, spans = "", []
            for k, line in enumerate(part):
                if k:
                    new_paragraph = kind == "tweets" or line["speaker"] != part[k - 1]["speaker"]
                    answer += "\n\n" if new_paragraph else " "
                start = len(answer.encode())
                answer += line["text"]
                spans.append((start, len(answer.encode())))
            records.append({"id": f"{name}#{at + 1}", "kind": kind, "answer": answer, "lines": part,
                            "spans": spans})
    return records


def write_claims_only(records, label, path):
    with open(path, "w", encoding="utf-8") as f:
        for r in records:
            sentences = [{"text": x["text"], "claim": x[label]} for x in r["lines"]]
            f.write(json.dumps({"id": r["id"], "answer": r["answer"], "sentences": sentences}) + "\n")


def run_eval(binary, path, lang):
    out = subprocess.run([binary, "eval", path, "--format", "json", "--lang", lang],
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        sys.exit(f"ragcite eval failed ({out.returncode}): {out.stderr.strip()}")
    report = json.loads(out.stdout)
    if report.get("badRecords"):
        print(f"  bad records: {report['badRecords'][:3]}")
    return report["groups"][0]["agreement"]["claimDetection"]


def check_record(binary, record, folder, lang):
    path = os.path.join(folder, record["id"].replace("/", "_") + ".md")
    with open(path, "w", encoding="utf-8") as f:
        f.write(record["answer"])
    chunks = os.path.join(folder, "chunks.json")
    out = subprocess.run([binary, "check", path, chunks, "--format", "json", "--lang", lang],
                         capture_output=True, text=True, check=False)
    try:
        found = json.loads(out.stdout)["result"]["sentences"]
    except (ValueError, KeyError):
        sys.exit(f"ragcite check failed on {record['id']}: {out.stderr.strip()}")
    per_line = [[] for _ in record["lines"]]
    for s in found:
        a, b = s["span"]["start"], s["span"]["end"]
        for k, (start, end) in enumerate(record["spans"]):
            if min(b, end) > max(a, start):
                per_line[k].append(s)
    results = []
    for line, sentences in zip(record["lines"], per_line):
        scores = [s["claimScore"] for s in sentences if s.get("claimScore") is not None]
        kept = any(s["verdict"] != "no-claim" for s in sentences)
        if kept:
            by_score = any(s.get("claimScore") is not None and s["verdict"] != "no-claim" for s in sentences)
            how = "claim, by score" if by_score else "claim, by rule"
        else:
            kinds = sorted({s.get("kind", "?") for s in sentences}) or ["no sentence"]
            how = "quiet: " + "+".join(kinds)
        results.append({"line": line, "kept": kept, "score": max(scores) if scores else None, "how": how})
    return results


def roc_auc(pairs):
    """ROC AUC of (score, label) pairs: the chance a positive outranks a negative, ties half."""
    pairs = sorted(pairs)
    pos = sum(1 for _, y in pairs if y)
    neg = len(pairs) - pos
    if not pos or not neg:
        return None
    rank_sum, k = 0.0, 0
    while k < len(pairs):
        j = k
        while j < len(pairs) and pairs[j][0] == pairs[k][0]:
            j += 1
        mid = (k + 1 + j) / 2  # mean rank of the tied run, ranks from 1
        rank_sum += mid * sum(1 for _, y in pairs[k:j] if y)
        k = j
    return (rank_sum - pos * (pos + 1) / 2) / (pos * neg)


def share(a, b):
    return f"{a}/{b} = {a / b:.3f}" if b else f"{a}/0"


def report(results, label, name):
    lines = [r for r in results if label in r["line"]]
    pos = [r for r in lines if r["line"][label]]
    neg = [r for r in lines if not r["line"][label]]
    scored = [r for r in lines if r["score"] is not None]
    print(f"  by {name} ({label}): {len(lines)} lines, {len(pos)} positive")
    print(f"    positive lines kept claims:   {share(sum(r['kept'] for r in pos), len(pos))}")
    print(f"    negative lines quieted:       {share(sum(not r['kept'] for r in neg), len(neg))}")
    print(f"    all lines quieted:            {share(sum(not r['kept'] for r in lines), len(lines))}")
    auc = roc_auc([(r["score"], r["line"][label]) for r in scored])
    n_pos = sum(1 for r in scored if r["line"][label])
    print(f"    claimScore ROC AUC over the {len(scored)} scored lines ({n_pos} positive): "
          + ("n/a" if auc is None else f"{auc:.3f}"))
    # All lines ranked: quieted by a rule 0, the score where there is one, a claim by rule 1.
    ranked = [((r["score"] if r["score"] is not None else (1.0 if r["kept"] else 0.0)), r["line"][label])
              for r in lines]
    auc_all = roc_auc(ranked)
    print("    AUC over all lines (rule-quieted 0, rule claims 1, else claimScore): "
          + ("n/a" if auc_all is None else f"{auc_all:.3f}"))
    for r in (pos, neg):
        for how, n in sorted(collections.Counter(x["how"] for x in r).items(), key=lambda t: -t[1]):
            scores = [x["score"] for x in r if x["how"] == how and x["score"] is not None]
            mean = f", mean claimScore {sum(scores) / len(scores):.3f}" if scores else ""
            print(f"      {'pos' if r is pos else 'neg'} {how:28} {n}{mean}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default="target/release/ragcite")
    parser.add_argument("--data", required=True, help="fetched git directory or extracted folder")
    parser.add_argument("--split", default="test", choices=["test", "dev", "training", "all"])
    parser.add_argument("--window", type=int, default=10, help="lines per record")
    parser.add_argument("--lang", default="en")
    parser.add_argument("--examples", type=int, default=5, help="quieted check-worthy lines to print")
    parser.add_argument("--keep", help="also write the claims-only records (check-worthy labels) here")
    parser.add_argument("--jobs", type=int, default=4)
    args = parser.parse_args()

    files = load(args.data, args.split)
    if not files:
        sys.exit(f"no labelled task-1 files of split {args.split} under {args.data}")
    records = build(files, args.window)
    labels = [("worthy", "check-worthiness")]
    if any(kind == "tweets" for _, kind, _ in files):
        labels.append(("claim", "the tweets' claim label"))
    n = sum(len(r["lines"]) for r in records)
    print(f"{args.data} [{args.split}]: {len(files)} files, {n} lines, {len(records)} records "
          f"of up to {args.window} lines")

    with tempfile.TemporaryDirectory() as folder:
        with open(os.path.join(folder, "chunks.json"), "w", encoding="utf-8") as f:
            json.dump([], f)
        print("ragcite eval, claimDetection:")
        for label, name in labels:
            path = args.keep if args.keep and label == "worthy" else os.path.join(folder, label + ".jsonl")
            write_claims_only(records, label, path)
            d = run_eval(args.bin, path, args.lang)
            b = d.get("best") or {}
            print(f"  {name}: labelled {d['labelled']}, positives {d['positives']}, flagged {d['flagged']}, "
                  f"correct {d['correct']}, precision {d['precision']}, recall {d['recall']}")
            if b:
                print(f"    best: threshold {b.get('threshold')}, precision {b.get('precision')}, "
                      f"recall {b.get('recall')}, f1 {b.get('f1')}")

        with ThreadPoolExecutor(args.jobs) as pool:
            per_record = list(pool.map(lambda r: check_record(args.bin, r, folder, args.lang), records))
    results = [x for rs in per_record for x in rs]
    print("ragcite check, per line:")
    for label, name in labels:
        report(results, label, name)
    quiet = [r for r in results if r["line"]["worthy"] and not r["kept"]]
    quiet.sort(key=lambda r: -(r["score"] if r["score"] is not None else -1))
    if quiet and args.examples:
        print(f"check-worthy lines quieted (highest claimScore first, {args.examples} of {len(quiet)}):")
        for r in quiet[:args.examples]:
            score = "-" if r["score"] is None else f"{r['score']:.3f}"
            print(f"  [{r['how']}, claimScore {score}] {r['line']['text']}")


if __name__ == "__main__":
    sys.exit(main())
