#!/usr/bin/env bash
# The shipped build: `swift build` with the flags that make `mmsearch` start fast, and nothing else.
# Every place that builds the shipped binary (README "Quick start", .ci/run, Benchmarks/run.sh) runs this.
#
# usage: tools/release-build.sh [swift build arguments]     e.g. --product mmsearch, --show-bin-path
#
# On Linux (Benchmarks/RESULTS.md, "Startup", has the figures):
#   --static-swift-stdlib -Xswiftc -static-executable
#       one static executable: the Swift runtime, FoundationEssentials and the C library linked in, so
#       no dynamic loader runs and nothing is relocated (a dynamic build spends most of its start there).
#   -Xswiftc -use-ld=lld -Xswiftc -function-sections -Xlinker --symbol-ordering-file=tools/mmsearch.order
#       lld lays out first, side by side, the functions and data a query touches (tools/mmsearch.order,
#       made by tools/order_file.py from traced runs; -function-sections lets it move our own functions
#       one by one), so starting and answering one query takes about 100 page faults instead of 170
#       (a whole `mmsearch query`: 1.46 → 1.05 ms); on this VM a fault costs 2 to 4 µs. A symbol the
#       file names and the binary lacks is skipped, so a stale file makes the binary slower to start,
#       never wrong (`tools/order_file.py --check` tells).
#       Objects compiled before without -function-sections may be kept as they are (the compiler skips
#       writing an object whose code did not change): after changing these flags, delete the build folder.
# Elsewhere (macOS: no static Swift runtime; the system's dyld shared cache already starts it fast):
#   -c release.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if [ "$(uname -s)" = Linux ]; then
  order=$root/tools/mmsearch.order
  flags=(-c release --static-swift-stdlib -Xswiftc -static-executable
    -Xswiftc -use-ld=lld -Xswiftc -Xfrontend -Xswiftc -function-sections
    -Xlinker "--symbol-ordering-file=$order" -Xlinker --no-warn-symbol-ordering)
  # SwiftPM does not know the order file is an input: after it changes, drop what was linked with the old one.
  bin=$(swift build "${flags[@]}" "$@" --show-bin-path)
  for product in mmsearch mmsearch-bench; do
    if [ -e "$bin/$product" ] && [ "$order" -nt "$bin/$product" ]; then rm -f "$bin/$product"; fi
  done
  exec swift build "${flags[@]}" "$@"
else
  exec swift build -c release "$@"
fi
