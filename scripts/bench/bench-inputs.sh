# shellcheck shell=bash disable=SC2034  # $dir and $bin are for the script that sources this
# Sourced by the bench-*.sh scripts: from the repository's top, writes the benchmark suite's
# generated inputs (crates/ragcite/benches/ragcite.rs) to a temporary directory `$dir`, removed on exit, and
# builds the release binary `$bin`.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
RAGCITE_BENCH_WRITE="$dir" cargo bench --quiet -p ragcite --bench ragcite >/dev/null
cargo build --release --quiet
bin=target/release/ragcite
