#!/usr/bin/env bash
# Runs the peer engines (shared/peers/run.sh: marisa-trie, fst, SQLite) and mmsearch-bench (mmsearch and
# the seeds' approaches) one after the other on the same city list and keystroke workload, and writes
# Benchmarks/RESULTS.md with every engine side by side.
#
# usage: Benchmarks/run.sh [--scale] [--scale-dir DIR] [--smoke]      (from any directory)
#   Flags go to mmsearch-bench: --scale adds synthetic lists of 209,579, 2M and 10M records (about
#   2 GB of disk in a temporary directory, 8 GB of RAM, and 10 to 15 minutes more).
# environment (defaults in brackets):
#   MMSEARCH_BENCH_DATA     the city list        [../shared/data/city.list.json beside the package]
#   MMSEARCH_BENCH_QUERIES  the workload         [../shared/data/typing-queries.txt]
#   MMSEARCH_BENCH_PEERS    the peers' script    [../shared/peers/run.sh]
#   MMSEARCH_BENCH_SCRATCH  SwiftPM scratch path [.build-bench in the package]
#   MMSEARCH_BENCH_RESULTS  the report           [Benchmarks/RESULTS.md]
#   MMSEARCH_BENCH_PEER_RUNS  runs of the peers' script; each peer is reported by its median-p99 run [3]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
shared=$(cd "$root/.." && pwd)/shared
data=${MMSEARCH_BENCH_DATA:-$shared/data/city.list.json}
queries=${MMSEARCH_BENCH_QUERIES:-$shared/data/typing-queries.txt}
peers=${MMSEARCH_BENCH_PEERS:-$shared/peers/run.sh}
scratch=${MMSEARCH_BENCH_SCRATCH:-$root/.build-bench}
results=${MMSEARCH_BENCH_RESULTS:-$root/Benchmarks/RESULTS.md}
peer_runs=${MMSEARCH_BENCH_PEER_RUNS:-3}
for file in "$data" "$queries" "$peers"; do
  [ -e "$file" ] || { echo "run.sh: $file not found (see the environment variables in $0)" >&2; exit 2; }
done

cd "$root"
started=$SECONDS
swift build -c release --scratch-path "$scratch" --product mmsearch
swift build -c release --scratch-path "$scratch" --product mmsearch-bench
bin=$(swift build -c release --scratch-path "$scratch" --show-bin-path)

work=$(mktemp -d "${TMPDIR:-/tmp}/mmsearch-run-XXXXXX")
trap 'rm -rf "$work"' EXIT
# The peers run several times, as mmsearch-bench runs each of its engines, so that on a shared machine
# one disturbed run decides nothing for either side.
for run in $(seq "$peer_runs"); do
  echo "run.sh: peers ($peers), run $run of $peer_runs" >&2
  PEERS_WORK="$work/peers-$run" "$peers" "$data" "$queries" | tee -a "$work/peers.txt"
done
peers_seconds=$((SECONDS - started))

echo "run.sh: mmsearch-bench" >&2
"$bin/mmsearch-bench" --data "$data" --queries "$queries" --peers "$work/peers.txt" --markdown "$results" \
  --command "Benchmarks/run.sh${*:+ $*}" \
  --revision "$(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)" \
  --toolchain "$(swift --version 2>/dev/null | head -n 1)" "$@"

total=$((SECONDS - started))
printf '\nThe whole command took %d s (builds and peers %d s, mmsearch-bench %d s).\n' \
  "$total" "$peers_seconds" "$((total - peers_seconds))" >> "$results"
echo "run.sh: wrote $results in $total s" >&2
