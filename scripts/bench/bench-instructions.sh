#!/usr/bin/env bash
# shellcheck disable=SC2154  # check_1 ... check_4 are assigned by eval
# Counts the instructions of whole `ragcite check` processes with valgrind's callgrind, on the
# benchmark suite's generated inputs at 1/4, 1/2 and all of the benchmark's full size, and of
# `wc -w` on the same files. Unlike times, the counts do not depend on what else the machine
# is doing, so they show growth and the effect of a change exactly. Needs valgrind.
#
# Usage: scripts/bench/bench-instructions.sh (needs valgrind, with callgrind_annotate)
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 2; }
# shellcheck source=scripts/bench/bench-inputs.sh
. scripts/bench/bench-inputs.sh

# Prints the instruction count of one run of the command (output discarded; exit status 1,
# a failed gate, is normal for a linter).
instructions() {
  { valgrind --tool=callgrind --callgrind-out-file="$dir/callgrind.out" "$@" 2>&1 >/dev/null || true; } |
    awk '/Collected/ {print $4}'
}

printf '%-44s %15s\n' "process" "instructions"
for n in 4 2 1; do
  count=$(instructions "$bin" check "$dir/answer-$n.md" "$dir/chunks-$n.json" --format json)
  printf '%-44s %15s\n' "check 1/$n of the limits --format json" "$count"
  eval "check_$n=$count"
done
floor=$(instructions wc -w "$dir/answer-1.md" "$dir/chunks-1.json")
printf '%-44s %15s\n' "wc -w at the limits" "$floor"
echo
awk -v a="$check_4" -v b="$check_1" 'BEGIN {printf "growth: 4x the input took %.2fx the instructions\n", b / a}'
awk -v c="$check_1" -v f="$floor" 'BEGIN {printf "check at the limits / wc -w: %.1fx the instructions\n", c / f}'

# The same check at the limits, counted per thread: the main thread's count is the part that
# a second core cannot shorten (the other threads read the chunks, stem new tokens and judge
# half of the sentences beside it).
valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$dir/threads.out" \
  "$bin" check "$dir/answer-1.md" "$dir/chunks-1.json" --format json >/dev/null 2>&1 || true
main=0
others=0
for part in "$dir"/threads.out-*; do
  count=$(callgrind_annotate "$part" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
  case "$part" in
    *-01) main=$count ;;
    *) others=$((others + count)) ;;
  esac
done
printf '%-44s %15s\n' "check at the limits, main thread" "$main"
printf '%-44s %15s\n' "check at the limits, other threads" "$others"
