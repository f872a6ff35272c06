#!/usr/bin/env bash
# Checks that the WordNet tables committed under crates/ragcite/src/words/wordnet/ are what
# scripts/data/build-wordnet.py makes from Open English WordNet at the commit it names: fetches
# that commit alone (network) into a temporary folder, builds the tables there and compares.
#
#   scripts/data/check-wordnet.sh [REPOSITORY]
#
# REPOSITORY is where to fetch from: GitHub's by default, or a local clone (offline).
set -euo pipefail
cd "$(dirname "$0")/../.."

commit=$(sed -n 's/^COMMIT = "\([0-9a-f]\{40\}\)"$/\1/p' scripts/data/build-wordnet.py)
if [ -z "$commit" ]; then
  echo "check-wordnet: no COMMIT in scripts/data/build-wordnet.py" >&2
  exit 2
fi
repository=${1:-https://github.com/globalwordnet/english-wordnet}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The one commit, without history (the repository's full clone is several hundred MB).
git init -q "$tmp/english-wordnet"
git -C "$tmp/english-wordnet" fetch -q --depth 1 "$repository" "$commit"
git -C "$tmp/english-wordnet" checkout -q FETCH_HEAD

python3 scripts/data/build-wordnet.py "$tmp/english-wordnet" "$tmp/tables"
# related-stems.txt is made from these tables by `cargo xtask generate` (its test checks it).
if ! diff -r -x related-stems.txt crates/ragcite/src/words/wordnet "$tmp/tables"; then
  echo "check-wordnet: the committed tables differ from what build-wordnet.py makes (above)" >&2
  exit 1
fi
echo "check-wordnet: the tables match english-wordnet $commit"
