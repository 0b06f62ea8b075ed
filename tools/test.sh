#!/usr/bin/env bash
# The test suite built optimized: what CI runs, and the quick run in about half the time of a debug
# `swift test` (the suite's own comparisons and naive scans of the real list are most of its work).
#
# usage: tools/test.sh [--full] [swift test arguments]      e.g. --filter RankAcceptance
#   --full   the full run (MMSEARCH_FULL_TESTS=1: every acceptance query, deep pages, the server under load)
#
# -c release with -enable-testing (the suite's @testable imports), in a scratch path of its own:
# .build's release directory holds the shipped build (tools/release-build.sh), linked otherwise.
# MMSEARCH_TEST_BINARY=PATH puts that mmsearch where the suite runs it (CI: the shipped one).
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release -Xswiftc -enable-testing --scratch-path .build-release-tests)
if [ "${1:-}" = "--full" ]; then
  shift
  export MMSEARCH_FULL_TESTS=1
fi
swift build "${flags[@]}" --build-tests
if [ -n "${MMSEARCH_TEST_BINARY:-}" ]; then
  cp "$MMSEARCH_TEST_BINARY" "$(swift build "${flags[@]}" --show-bin-path)/mmsearch"
fi
exec swift test "${flags[@]}" --skip-build "$@"
