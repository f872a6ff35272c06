#!/usr/bin/env bash
# Times whole `ragcite check` processes on the inputs issue 38 found super-linear, each at two
# sizes: a flood of `--marker '\{\{cite:(\w+)\}\}'` markers, a line of `^1`, `--format full` of
# sentences on one line, and sentences against chunks that all resemble each other (the check's
# work is sentences times the chunks that share their words). Linear work takes about twice as
# long at the larger size (the first three) or four times (the last, whose sentences and chunks
# both double); quadratic work four and sixteen times.
#
# Usage: scripts/bench/bench-floods.sh [BINARY...]   (default target/release/ragcite; with
# several, one column each, e.g. a build before a change and one after)
set -euo pipefail
cd "$(dirname "$0")/../.."
bins=("$@")
if [ ${#bins[@]} -eq 0 ]; then
  cargo build --release --quiet
  bins=(target/release/ragcite)
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - "$dir" <<'PY'
import json, sys
d = sys.argv[1]
json.dump([{"id": "1", "text": "The tower is 330 metres tall."}], open(f"{d}/one.json", "w"))
for kb in (400, 800):
    open(f"{d}/cite-{kb}.md", "w").write("{{cite:1}}" * (kb * 1000 // 10))
    open(f"{d}/caret-{kb}.md", "w").write("^1" * (kb * 1000 // 2))
for n in (40_000, 80_000):
    open(f"{d}/line-{n}.md", "w").write("The tower is 500 metres tall [1]. " * n + "\n")
# issue 38's shape: sentences of six words and chunks of three, all from eight words.
words = ["tower", "height", "iron", "paris", "metres", "steel", "bridge", "river"]
for sentences, chunks in ((1500, 4500), (3000, 9000)):
    seed = 0x9E3779B97F4A7C15
    def pick(n):
        global seed
        seed ^= (seed << 13) & (2**64 - 1); seed ^= seed >> 7; seed ^= (seed << 17) & (2**64 - 1)
        return seed % n
    texts = [{"id": str(k), "text": " ".join(words[pick(8)] for _ in range(3))} for k in range(chunks)]
    answer = " ".join(
        "The %s [%d]." % (" ".join(words[pick(8)] for _ in range(6)), pick(chunks) + 1)
        for _ in range(sentences)
    )
    open(f"{d}/alike-{sentences}.md", "w").write(answer)
    json.dump(texts, open(f"{d}/alike-{sentences}.json", "w"))
PY

# Seconds of one run (its output discarded; exit codes 0 and 1 are a linter's verdicts).
secs() {
  local start end
  start=$(date +%s%N)
  "$@" >/dev/null 2>&1 || [ $? -le 1 ]
  end=$(date +%s%N)
  awk -v ns=$((end - start)) 'BEGIN { printf "%.2f", ns / 1e9 }'
}

row() { # label, then the arguments after `check`
  local label=$1
  shift
  printf '%-42s' "$label"
  for bin in "${bins[@]}"; do
    printf ' %9s' "$(secs "$bin" check --isolated "$@")"
  done
  printf '\n'
}

printf '%-42s' "seconds"
for bin in "${bins[@]}"; do printf ' %9s' "$(basename "$(dirname "$(dirname "$bin")")")"; done
printf '\n'
for kb in 400 800; do
  row "--marker flood, $kb kB" "$dir/cite-$kb.md" "$dir/one.json" --format concise \
    --marker '\{\{cite:(\w+)\}\}'
done
for kb in 400 800; do
  row "a line of ^1, $kb kB" "$dir/caret-$kb.md" "$dir/one.json" --format concise
done
for n in 40000 80000; do
  row "--format full, $n sentences on one line" "$dir/line-$n.md" "$dir/one.json" --format full
done
for n in 1500 3000; do
  row "$n sentences, $((n * 3)) resembling chunks" "$dir/alike-$n.md" "$dir/alike-$n.json" \
    --format concise
done
