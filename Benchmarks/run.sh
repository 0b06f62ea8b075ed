#!/usr/bin/env bash
# The whole benchmark in one command: builds mmsearch and mmsearch-bench as the README builds the shipped
# binary (static), prepares the startup peers (Benchmarks/startup-peers/prepare.sh: look, sqlite3 and
# marisa-predictive-search from Debian's packages, installed if missing; marisa-trie's and fst's open
# timers), runs the peer engines (shared/peers/run.sh: marisa-trie, fst, SQLite) on the same city list and
# keystroke workload, then mmsearch-bench, and writes Benchmarks/RESULTS.md with everything side by side.
#
# usage: Benchmarks/run.sh [--scale] [--scale-dir DIR] [--smoke]      (from any directory)
#   Flags go to mmsearch-bench: --scale adds synthetic lists of 209k, 2M and 10M records (about 2 GB of
#   disk in a temporary directory, 8 GB of RAM, and 10 to 15 minutes more).
# environment (defaults in brackets):
#   MMSEARCH_BENCH_DATA     the city list        [../shared/data/city.list.json beside the package]
#   MMSEARCH_BENCH_GEONAMES the GeoNames dump    [../shared/data/cities500.txt.gz]
#   MMSEARCH_BENCH_QUERIES  the workload         [../shared/data/typing-queries.txt]
#   MMSEARCH_BENCH_PEERS    the peers' script    [../shared/peers/run.sh]
#   MMSEARCH_BENCH_SCRATCH  SwiftPM scratch path [.build-bench in the package; SCRATCH-dynamic and
#                           SCRATCH-unordered for the dynamic and the unordered static builds timed
#                           beside the shipped one]
#   MMSEARCH_BENCH_RESULTS  the report           [Benchmarks/RESULTS.md]
#   MMSEARCH_BENCH_PEER_RUNS  runs of the peers' script; each peer is reported by its median-p99 run [3]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
shared=$(cd "$root/.." && pwd)/shared
data=${MMSEARCH_BENCH_DATA:-$shared/data/city.list.json}
geonames=${MMSEARCH_BENCH_GEONAMES:-$shared/data/cities500.txt.gz}
queries=${MMSEARCH_BENCH_QUERIES:-$shared/data/typing-queries.txt}
peers=${MMSEARCH_BENCH_PEERS:-$shared/peers/run.sh}
scratch=${MMSEARCH_BENCH_SCRATCH:-$root/.build-bench}
results=${MMSEARCH_BENCH_RESULTS:-$root/Benchmarks/RESULTS.md}
peer_runs=${MMSEARCH_BENCH_PEER_RUNS:-3}
for file in "$data" "$geonames" "$queries" "$peers"; do
  [ -e "$file" ] || { echo "run.sh: $file not found (see the environment variables in $0)" >&2; exit 2; }
done

cd "$root"
started=$SECONDS
# The shipped binary's build (README, "Quick start"): tools/release-build.sh.
tools/release-build.sh --scratch-path "$scratch" --product mmsearch
tools/release-build.sh --scratch-path "$scratch" --product mmsearch-bench
bin=$(tools/release-build.sh --scratch-path "$scratch" --show-bin-path)
# For comparison: the binary as `swift build -c release` links it (Swift runtime and Foundation as shared
# libraries), and the static one without lld's symbol ordering (what tools/mmsearch.order saves).
swift build -c release --scratch-path "$scratch-dynamic" --product mmsearch
dynamic_bin=$(swift build -c release --scratch-path "$scratch-dynamic" --show-bin-path)
unordered_flags=(-c release --static-swift-stdlib -Xswiftc -static-executable --scratch-path "$scratch-unordered")
swift build "${unordered_flags[@]}" --product mmsearch
unordered_bin=$(swift build "${unordered_flags[@]}" --show-bin-path)

work=$(mktemp -d "${TMPDIR:-/tmp}/mmsearch-run-XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "run.sh: startup peers (Benchmarks/startup-peers/prepare.sh)" >&2
"$root/Benchmarks/startup-peers/prepare.sh" "$work/startup-peers" "$data"
# The peers run several times, as mmsearch-bench runs each of its engines, so that on a shared machine
# one disturbed run decides nothing for either side.
for run in $(seq "$peer_runs"); do
  echo "run.sh: peers ($peers), run $run of $peer_runs" >&2
  PEERS_WORK="$work/peers-$run" "$peers" "$data" "$queries" | tee -a "$work/peers.txt"
done
peers_seconds=$((SECONDS - started))

echo "run.sh: mmsearch-bench" >&2
"$bin/mmsearch-bench" --data "$data" --geonames "$geonames" --queries "$queries" --peers "$work/peers.txt" \
  --startup-peers "$work/startup-peers" --compare-binary "swift build -c release=$dynamic_bin/mmsearch" \
  --compare-binary "swift build -c release --static-swift-stdlib -Xswiftc -static-executable=$unordered_bin/mmsearch" --markdown "$results" \
  --command "Benchmarks/run.sh${*:+ $*}" \
  --revision "$(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)" \
  --toolchain "$(swift --version 2>/dev/null | head -n 1)" "$@"

total=$((SECONDS - started))
printf '\nThe whole command took %d s (builds, startup peers and peers %d s, mmsearch-bench %d s).\n' \
  "$total" "$peers_seconds" "$((total - peers_seconds))" >> "$results"
echo "run.sh: wrote $results in $total s" >&2
