#!/usr/bin/env bash
# shellcheck disable=SC2154  # check_1 ... check_4 (and last_median) are assigned by eval
# Times whole `ragcite` processes on the benchmark suite's generated inputs (crates/ragcite/benches/ragcite.rs):
# `check` at 1/4, 1/2 and all of the benchmark's full size (a 100,000-character answer and
# 500,000 characters of chunks) with the growth from 1/4 to all, `wc -w` over the same files as
# the floor for reading the text once, `quote` in a 5 MB document, and `batch` on a generated
# JSON Lines transcript.
#
# Usage: scripts/bench/bench-process.sh [RUNS]   (default 20; prints the best and the median of each)
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-20}
# shellcheck source=scripts/bench/bench-inputs.sh
. scripts/bench/bench-inputs.sh

# Prints "best median" in milliseconds of RUNS runs of the command (its output discarded; exit
# codes 0 and 1 are both normal for a linter).
times_ms() {
  local times=()
  for _ in $(seq "$runs"); do
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1 || [ $? -le 1 ]
    end=$(date +%s%N)
    times+=($(((end - start) / 1000)))
  done
  printf '%s\n' "${times[@]}" | sort -n |
    awk '{a[NR]=$1} END {printf "%.2f %.2f\n", a[1]/1000, a[int((NR+1)/2)]/1000}'
}

row() { # label, then the command
  local label=$1
  shift
  read -r best median < <(times_ms "$@")
  printf '%-44s %9s %9s\n' "$label" "$best" "$median"
  eval "last_best=$best; last_median=$median"
}

printf '%-44s %9s %9s\n' "whole process ($runs runs)" "best ms" "median ms"
for n in 4 2 1; do
  row "check 1/$n of the limits --format json" "$bin" check "$dir/answer-$n.md" "$dir/chunks-$n.json" --format json
  eval "check_$n=$last_median"
done
row "check at the limits (table)" "$bin" check "$dir/answer-1.md" "$dir/chunks-1.json" --color never
row "wc -w at the limits (floor)" wc -w "$dir/answer-1.md" "$dir/chunks-1.json"
floor=$last_median
row "quote, 5 MB document, found" "$bin" quote "$dir/document.txt" --quote-file "$dir/quote-found.txt"
row "quote, 5 MB document, one word changed" "$bin" quote "$dir/document.txt" --quote-file "$dir/quote-missing.txt"
row "batch, $(wc -c <"$dir/batch.jsonl") bytes --format jsonl" "$bin" batch "$dir/batch.jsonl" --format jsonl
batch=$last_median

echo
awk -v a="$check_4" -v b="$check_1" 'BEGIN {printf "growth: 4x the input took %.2fx the time (medians)\n", b / a}'
awk -v c="$check_1" -v f="$floor" 'BEGIN {printf "check at the limits / wc -w: %.1fx (medians)\n", c / f}'
awk -v s="$(wc -c <"$dir/batch.jsonl")" -v t="$batch" 'BEGIN {printf "batch: %.1f MB/s (median)\n", s / 1e6 / (t / 1000)}'
