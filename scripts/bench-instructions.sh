#!/usr/bin/env bash
# Counts the instructions of whole `ragcite check` processes with valgrind's callgrind, on the
# benchmark suite's generated inputs at 1/4, 1/2 and all of the seed API's size limits, and of
# `wc -w` on the same files. Unlike times, the counts do not depend on what else the machine
# is doing, so they show growth and the effect of a change exactly. Needs valgrind.
#
# Usage: scripts/bench-instructions.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 2; }
. scripts/bench-inputs.sh

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
