#!/usr/bin/env bash
# The whole benchmark in one command: builds (or reuses) mmsearch and mmsearch-bench as the shipped binary
# is built (tools/release-build.sh, into .build as tools/install.sh builds it; incremental, so a current
# build is reused), prepares the startup peers (Benchmarks/startup-peers/prepare.sh: look, sqlite3 and
# marisa-predictive-search from Debian's packages, installed if missing; marisa-trie's and fst's open
# timers), runs the peer engines (shared/peers/run.sh: marisa-trie, fst, SQLite) on the same city list and
# keystroke workload, and the reverse-lookup peers (Benchmarks/reverse-peers/run.py: SciPy's cKDTree and
# SQLite's R*Tree on reverse-points.txt) and marisa-trie and fst on the same keys as mmsearch's indexes
# (Benchmarks/key-peers/run.sh), then mmsearch-bench, and writes its report with everything side by side.
#
# usage: Benchmarks/run.sh [--out FILE | --results] [--scale] [--scale-dir DIR] [--smoke]   (from any directory)
#   --out FILE  the Markdown report to FILE [SCRATCH/RESULTS.md]; mmsearch-bench's text report goes to
#               standard output either way
#   --results   the Markdown report to Benchmarks/RESULTS.md, the figures the docs quote (commit both); the
#               sections measured by hand there (their text starts "Measured by hand") are kept, before Startup
#   Other flags go to mmsearch-bench: --scale adds synthetic lists of 209k, 2M and 10M records (about 2 GB
#   of disk in a temporary directory, 8 GB of RAM, and 10 to 15 minutes more).
# The builds' and the peers' output goes to SCRATCH/run.log (the static links' glibc warnings are expected:
# docs/static-build.md), so a run leaves the clone as it was unless --results asks otherwise.
# environment (defaults in brackets):
#   MMSEARCH_BENCH_DATA     the city list        [../shared/data/city.list.json beside the package]
#   MMSEARCH_BENCH_GEONAMES the GeoNames dump    [../shared/data/cities500.txt.gz]
#   MMSEARCH_BENCH_QUERIES  the workload         [../shared/data/typing-queries.txt]
#   MMSEARCH_BENCH_POINTS   the reverse lookups' points [../shared/data/reverse-points.txt]
#   MMSEARCH_BENCH_PEERS    the peers' script    [../shared/peers/run.sh]
#   MMSEARCH_BENCH_SCRATCH  the log, the default report, and SCRATCH-dynamic and SCRATCH-unordered, the
#                           SwiftPM scratch paths of the dynamic and the unordered static builds timed
#                           beside the shipped one [.build-bench in the package]
#   MMSEARCH_BENCH_PEER_RUNS  runs of the peers' script; each peer is reported by its median-p99 run [3]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
shared=$(cd "$root/.." && pwd)/shared
data=${MMSEARCH_BENCH_DATA:-$shared/data/city.list.json}
geonames=${MMSEARCH_BENCH_GEONAMES:-$shared/data/cities500.txt.gz}
queries=${MMSEARCH_BENCH_QUERIES:-$shared/data/typing-queries.txt}
points=${MMSEARCH_BENCH_POINTS:-$shared/data/reverse-points.txt}
peers=${MMSEARCH_BENCH_PEERS:-$shared/peers/run.sh}
scratch=${MMSEARCH_BENCH_SCRATCH:-$root/.build-bench}
peer_runs=${MMSEARCH_BENCH_PEER_RUNS:-3}
results=$scratch/RESULTS.md
command=(Benchmarks/run.sh "$@")
bench_flags=()
while [ $# -gt 0 ]; do
  case $1 in
    --out) [ $# -ge 2 ] || { echo "run.sh: --out needs a FILE" >&2; exit 2; }; results=$2; shift 2 ;;
    --results) results=$root/Benchmarks/RESULTS.md; shift ;;
    *) bench_flags+=("$1"); shift ;;
  esac
done
case $results in /*) ;; *) results=$PWD/$results ;; esac
for file in "$data" "$geonames" "$queries" "$points" "$peers"; do
  [ -e "$file" ] || { echo "run.sh: $file not found (see the environment variables in $0)" >&2; exit 2; }
done

cd "$root"
mkdir -p "$scratch"
log=$scratch/run.log
: > "$log"
# Runs a command with its output in the log; when it fails, shows the end of the log and stops.
logged() {
  "$@" >> "$log" 2>&1 || { echo "run.sh: $* failed; the end of $log:" >&2; tail -n 40 "$log" >&2; exit 1; }
}
echo "run.sh: builds (their output in $log)" >&2
started=$SECONDS
# The shipped binary's build (tools/release-build.sh), where tools/install.sh makes it: reused when current.
logged tools/release-build.sh --product mmsearch
logged tools/release-build.sh --product mmsearch-bench
bin=$(tools/release-build.sh --show-bin-path)
# For comparison: the binary as `swift build -c release` links it (Swift runtime and Foundation as shared
# libraries), and the static one without lld's symbol ordering (what tools/mmsearch.order saves).
logged swift build -c release --scratch-path "$scratch-dynamic" --product mmsearch
dynamic_bin=$(swift build -c release --scratch-path "$scratch-dynamic" --show-bin-path)
unordered_flags=(-c release --static-swift-stdlib -Xswiftc -static-executable --scratch-path "$scratch-unordered")
logged swift build "${unordered_flags[@]}" --product mmsearch
unordered_bin=$(swift build "${unordered_flags[@]}" --show-bin-path)

work=$(mktemp -d "${TMPDIR:-/tmp}/mmsearch-run-XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "run.sh: startup peers (Benchmarks/startup-peers/prepare.sh)" >&2
logged "$root/Benchmarks/startup-peers/prepare.sh" "$work/startup-peers" "$data"
# The peers run several times, as mmsearch-bench runs each of its engines, so that on a shared machine
# one disturbed run decides nothing for either side.
for run in $(seq "$peer_runs"); do
  echo "run.sh: peers ($peers), run $run of $peer_runs" >&2
  PEERS_WORK="$work/peers-$run" "$peers" "$data" "$queries" 2>> "$log" | tee -a "$work/peers.txt" >> "$log"
done
for run in $(seq "$peer_runs"); do
  echo "run.sh: reverse-lookup peers (Benchmarks/reverse-peers/run.py), run $run of $peer_runs" >&2
  python3 "$root/Benchmarks/reverse-peers/run.py" "$data" "$points" 2>> "$log" | tee -a "$work/reverse-peers.txt" >> "$log"
done
echo "run.sh: the same keys in marisa-trie and fst (Benchmarks/key-peers/run.sh)" >&2
"$root/Benchmarks/key-peers/run.sh" "$bin/mmsearch" "$work/key-peers" "$data" "$geonames" "$queries" 2>> "$log" \
  | tee "$work/key-peers.txt" >> "$log"
peers_seconds=$((SECONDS - started))

echo "run.sh: mmsearch-bench" >&2
"$bin/mmsearch-bench" --data "$data" --geonames "$geonames" --queries "$queries" --peers "$work/peers.txt" \
  --reverse-points "$points" --reverse-peers "$work/reverse-peers.txt" --key-peers "$work/key-peers.txt" \
  --startup-peers "$work/startup-peers" --compare-binary "swift build -c release=$dynamic_bin/mmsearch" \
  --compare-binary "swift build -c release --static-swift-stdlib -Xswiftc -static-executable=$unordered_bin/mmsearch" --markdown "$results" \
  --command "${command[*]}" \
  --revision "$(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)" \
  --toolchain "$(swift --version 2>/dev/null | head -n 1)" ${bench_flags[@]+"${bench_flags[@]}"}

total=$((SECONDS - started))
printf '\nThe whole command took %d s (builds, startup peers and peers %d s, mmsearch-bench %d s).\n' \
  "$total" "$peers_seconds" "$((total - peers_seconds))" >> "$results"
echo "run.sh: wrote $results in $total s (the builds' and peers' output: $log)" >&2
