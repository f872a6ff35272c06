#!/usr/bin/env bash
# Runs the pre-commit hooks of .pre-commit-hooks.yaml the way a user's repository does, with no
# Rust toolchain, and fails unless each gives what it must:
#
#   scripts/ci/pre-commit-hooks.sh WHEEL_DIR
#
# WHEEL_DIR holds the ragcite wheel of this checkout's version (Cargo.toml's [workspace.package]
# version), built for this machine. In a temporary directory the script
#   1. installs pre-commit from PyPI into a virtual environment of its own, and downloads
#      setuptools and wheel next to a copy of the ragcite wheel (the placeholder package of
#      setup.py is built with them); that is all it takes from the network;
#   2. commits this checkout's working tree (tracked files as they are now, untracked files that
#      are not ignored) to a fresh repository, so that uncommitted edits are what is tested;
#   3. makes a repository whose .pre-commit-config.yaml uses that one at that commit, and runs
#      pre-commit in it with PIP_NO_INDEX=1 and PIP_FIND_LINKS (pip installs the hooks from the
#      local wheel, never from PyPI), PRE_COMMIT_HOME in the temporary directory, a PATH without
#      cargo, rustc, rustup or another ragcite, and no network (unshare -n) where it can;
#   4. checks: transcripts that pass give exit 0; one that fails the gate gives exit 1 with
#      ragcite's report; `ragcite-check` on an answer and its chunks gives ragcite's verdict and
#      exit code, and with no answer a usage error; the hooks' `ragcite` is the wheel's console
#      script, its extension module the wheel's own bytes.
#
# It prints how long pre-commit took to install the hooks. RAGCITE_KEEP_TMP=1 keeps the temporary
# directory for a look after a failure.
set -euo pipefail

PRE_COMMIT_VERSION=4.7.0
# What pip builds the placeholder package with (setup.py, no pyproject.toml): setuptools, and wheel
# for the pip and setuptools that still ask for it (0.45.1: the last wheel with no dependencies).
SETUPTOOLS_VERSION=84.2.1
WHEEL_VERSION=0.45.1

if [ $# -ne 1 ] || [ ! -d "$1" ]; then
  echo "usage: $0 WHEEL_DIR (a directory that holds the ragcite wheel)" >&2
  exit 2
fi
wheel_dir=$(cd "$1" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)

fail() {
  echo "pre-commit-hooks: FAIL: $*" >&2
  exit 1
}

version=$(sed -n '/^\[workspace\.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' "$root/Cargo.toml")
[ -n "$version" ] || fail "no [workspace.package] version in Cargo.toml"
shopt -s nullglob
wheels=("$wheel_dir"/ragcite-"$version"-*.whl)
shopt -u nullglob
[ ${#wheels[@]} -eq 1 ] || fail "$wheel_dir holds ${#wheels[@]} ragcite-$version-*.whl files, not one"
wheel=${wheels[0]}

tmp=$(mktemp -d)
if [ "${RAGCITE_KEEP_TMP:-}" = 1 ]; then
  echo "pre-commit-hooks: keeping $tmp"
else
  trap 'rm -rf "$tmp"' EXIT
fi

# 1. pre-commit and the find-links directory: the only downloads.
python3 -m venv "$tmp/tool"
"$tmp/tool/bin/python" -m pip install --quiet --disable-pip-version-check "pre-commit==$PRE_COMMIT_VERSION"
mkdir "$tmp/wheels"
cp "$wheel" "$tmp/wheels/"
"$tmp/tool/bin/python" -m pip download --quiet --disable-pip-version-check --no-deps \
  --only-binary=:all: --dest "$tmp/wheels" "setuptools==$SETUPTOOLS_VERSION" "wheel==$WHEEL_VERSION"

# 2. The hook repository: the working tree as one commit.
hooks="$tmp/ragcite"
mkdir "$hooks"
(
  cd "$root"
  git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' file; do
      if [ -e "$file" ] || [ -L "$file" ]; then printf '%s\0' "$file"; fi
    done |
    tar --null -T - -cf -
) | tar -xf - -C "$hooks"
git_quiet() {
  git -c init.defaultBranch=main -c user.name=pre-commit-hooks -c user.email=hooks@localhost \
    -c commit.gpgsign=false "$@"
}
git_quiet -C "$hooks" init -q
git_quiet -C "$hooks" add -A
git_quiet -C "$hooks" commit -q -m "the working tree of $root"
rev=$(git -C "$hooks" rev-parse HEAD)

# 3. The user's repository: transcripts and answers, staged (pre-commit reads the index).
user="$tmp/user"
mkdir -p "$user/evals" "$user/answers"
git_quiet -C "$user" init -q
# Configuration discovery walks up from the repository's root: this file, found first, keeps any
# configuration above the temporary directory out of the runs.
printf 'threshold = 0.5\n' > "$user/.ragcite.toml"
cat > "$user/evals/pass.jsonl" <<'EOF'
{"id": "p1", "question": "How tall is the Eiffel Tower?", "response": "The Eiffel Tower is 330 metres tall [1].", "retrieved_contexts": ["The Eiffel Tower is 330 metres tall and opened in 1889."]}
{"id": "p2", "question": "When did it open?", "response": "The Eiffel Tower opened in 1889 [1].", "retrieved_contexts": ["The Eiffel Tower is 330 metres tall and opened in 1889."]}
EOF
cp "$root/testdata/eiffel/answer.md" "$user/answers/eiffel.md"
cp "$root/testdata/eiffel/chunks.json" "$user/answers/eiffel.chunks.json"
printf '%s\n' "The Eiffel Tower is 330 metres tall [1]. It was completed in 1889 for the World's Fair [2]. It was designed by the engineering company of Gustave Eiffel [4]." \
  > "$user/answers/fixed.md"
# The hooks as a user writes them; ragcite-check once per answer, each with its own files.
config() { # config FILE HOOK...: a configuration that uses the hook repository at $rev
  local file=$1
  shift
  {
    printf 'repos:\n  - repo: %s\n    rev: %s\n    hooks:\n' "$hooks" "$rev"
    printf '%s\n' "$@"
  } > "$user/$file"
}
batch_hook='      - id: ragcite-batch'
fixed_hook='      - id: ragcite-check
        files: ^answers/(fixed\.md|eiffel\.chunks\.json)$
        args: [answers/fixed.md, answers/eiffel.chunks.json]'
eiffel_hook='      - id: ragcite-check
        files: ^answers/(eiffel\.md|eiffel\.chunks\.json)$
        args: [answers/eiffel.md, answers/eiffel.chunks.json]'
bare_check_hook='      - id: ragcite-check'
config .pre-commit-config.yaml "$batch_hook" "$fixed_hook"
config eiffel.yaml "$eiffel_hook"
config bare-check.yaml "$bare_check_hook"
git -C "$user" add -A

# The environment pre-commit runs in: no index, the local wheels, everything in $tmp, and a PATH
# without cargo, rustc, rustup or another ragcite. A directory of the PATH that holds one of those
# is replaced by links to its other programs, so that git, python3 and what git's scripts call
# stay when they live beside cargo (a packaged Rust in /usr/bin).
path=
farms=0
IFS=: read -r -a dirs <<< "$PATH"
for dir in "${dirs[@]}"; do
  case "$dir" in "" | .) continue ;; esac
  for tool in cargo rustc rustup ragcite; do
    if [ -e "$dir/$tool" ]; then
      farms=$((farms + 1))
      farm="$tmp/path/$farms"
      mkdir -p "$farm"
      for program in "$dir"/*; do
        case "${program##*/}" in cargo* | rust* | clippy-driver | ragcite) continue ;; esac
        if [ -f "$program" ] && [ -x "$program" ]; then ln -s "$program" "$farm/"; fi
      done
      dir=$farm
      break
    fi
  done
  path="${path:+$path:}$dir"
done
for tool in cargo rustc rustup ragcite; do
  if found=$(PATH=$path command -v "$tool"); then
    fail "$tool is still on the PATH the hooks run with: $found"
  fi
done
echo "pre-commit-hooks: PATH without cargo, rustc, rustup and ragcite: $path"
# No network at all where the machine lets a process have a network namespace of its own.
offline=()
if unshare -n true 2> /dev/null; then
  offline=(unshare -n)
elif unshare -rn true 2> /dev/null; then
  offline=(unshare -rn)
fi
if [ ${#offline[@]} -gt 0 ]; then
  echo "pre-commit-hooks: pre-commit runs with no network (${offline[*]})"
else
  echo "pre-commit-hooks: no network namespace here: pre-commit runs with PIP_NO_INDEX=1 only"
fi
in_env() {
  "${offline[@]}" env -u CARGO_HOME -u RUSTUP_HOME -u VIRTUAL_ENV -u PIP_INDEX_URL -u PIP_EXTRA_INDEX_URL \
    PATH="$path" \
    PIP_NO_INDEX=1 PIP_FIND_LINKS="$tmp/wheels" PIP_CONFIG_FILE=/dev/null \
    PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_CACHE_DIR="$tmp/cache/pip" \
    VIRTUALENV_NO_PERIODIC_UPDATE=1 XDG_CACHE_HOME="$tmp/cache" XDG_DATA_HOME="$tmp/data" \
    PRE_COMMIT_HOME="$tmp/pre-commit" PRE_COMMIT_COLOR=never COLUMNS=100 \
    "$@"
}
pre_commit=$tmp/tool/bin/pre-commit

# 4. The checks.
start=$(date +%s.%N)
if ! (cd "$user" && in_env "$pre_commit" install-hooks) > "$tmp/install.out" 2>&1; then
  cat "$tmp/install.out" >&2
  fail "pre-commit could not install the hooks"
fi
end=$(date +%s.%N)
install_seconds=$(python3 -c "print(f'{$end - $start:.1f}')")

# run NAME WANT [pre-commit run options]: `pre-commit run --all-files`, its exit code must be WANT.
run() {
  local name=$1 want=$2 got=0
  shift 2
  (cd "$user" && in_env "$pre_commit" run --all-files --verbose --color never "$@") \
    > "$tmp/$name.out" 2>&1 || got=$?
  if [ "$got" != "$want" ]; then
    cat "$tmp/$name.out" >&2
    fail "$name: pre-commit exited with $got, not $want"
  fi
}
# expect NAME TEXT...: the output of run NAME holds each TEXT (a fixed string).
expect() {
  local name=$1 text
  shift
  for text in "$@"; do
    if ! grep -qF -- "$text" "$tmp/$name.out"; then
      cat "$tmp/$name.out" >&2
      fail "$name: the output lacks: $text"
    fi
  done
}

# The hooks' environment: one virtual environment whose ragcite is the wheel's.
mapfile -t scripts < <(find "$tmp/pre-commit" -path '*/py_env-*/bin/ragcite')
[ ${#scripts[@]} -eq 1 ] || fail "pre-commit made ${#scripts[@]} environments with a ragcite, not one"
script=${scripts[0]}
env_python=$(dirname "$script")/python
if find "$tmp/pre-commit" -maxdepth 2 -name 'rustenv-*' | grep -q .; then
  fail "pre-commit made a Rust environment"
fi
if [ "$(head -c 2 "$script")" != '#!' ] || ! grep -qF 'from ragcite.__main__ import main' "$script"; then
  fail "$script is not the wheel's console script"
fi
"$env_python" - "$wheel" "$version" << 'EOF' || fail "the hooks' ragcite is not the wheel's"
import hashlib, importlib.metadata as metadata, sys, zipfile
wheel, version = sys.argv[1], sys.argv[2]
dist = metadata.distribution("ragcite")
assert dist.version == version, f"ragcite {dist.version} installed, {version} wanted"
placeholder = metadata.distribution("pre_commit_placeholder_package")
assert placeholder.requires == [f"ragcite=={version}"], placeholder.requires
native = [f for f in dist.files if f.name.startswith("_native") and f.name.endswith(".so")]
assert len(native) == 1, native
with zipfile.ZipFile(wheel) as whl:
    packed = whl.read(str(native[0]))
installed = native[0].locate().read_bytes()
assert hashlib.sha256(packed).digest() == hashlib.sha256(installed).digest(), "module differs"
print(f"pre-commit-hooks: the hooks run ragcite {version} from the wheel ({native[0]})")
EOF

# Transcripts that pass, and the answer with its chunks that passes.
run pass 0
expect pass 'ragcite (eval transcripts)' 'ragcite (one answer)' \
  'PASS · 2 records' 'PASS · 3 sentences: 3 supported'
[ "$(grep -c 'Passed$' "$tmp/pass.out")" = 2 ] || {
  cat "$tmp/pass.out" >&2
  fail "pass: both hooks must have run and passed"
}

# A transcript that fails the gate: one failing record and one bad record.
cp "$root/testdata/ci/batch.jsonl" "$user/evals/fail.jsonl"
git -C "$user" add evals/fail.jsonl
run fail 1
expect fail '- hook id: ragcite-batch' '- exit code: 1' 'FAIL · 6 records: 5 checked, 1 bad, 1 failing' \
  'evals/fail.jsonl:2' 'evals/fail.jsonl:3' 'PASS · 3 sentences: 3 supported'

# One answer that fails its check: the verdict and exit code of ragcite itself.
direct=0
(cd "$user" && "$script" check answers/eiffel.md answers/eiffel.chunks.json --color never) \
  > "$tmp/direct.out" 2>&1 || direct=$?
[ "$direct" = 1 ] || fail "ragcite check on the Eiffel example exited with $direct, not 1"
summary=$(tail -n 1 "$tmp/direct.out")
case "$summary" in "FAIL · 4 sentences: "*) ;; *) fail "unexpected summary: $summary" ;; esac
run eiffel 1 --config eiffel.yaml
expect eiffel '- hook id: ragcite-check' '- exit code: 1' "$summary" 'number-mismatch' \
  'unsupported-citation' 'uncited-claim'

# ragcite-check with no answer: a usage error, never a pass.
run bare-check 1 --config bare-check.yaml
expect bare-check '- exit code: 2' '<ANSWER>'

echo "pre-commit-hooks: OK: pre-commit $PRE_COMMIT_VERSION installed the hooks in ${install_seconds} s from $(basename "$wheel")"
