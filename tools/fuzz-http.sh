#!/usr/bin/env bash
# Fuzzes the HTTP request parser (MMSearchHTTP's HTTPRequestParser and HTTPTarget) with libFuzzer
# (+ AddressSanitizer) for SECONDS, seeded with real requests and hostile ones. Crashes land in
# $WORK/crashes; replay one with
#   swift run mmsearch-http-fuzz CRASH_FILE
# (lld: gold fails to link libFuzzer into a SwiftPM executable.)
# usage: tools/fuzz-http.sh [SECONDS] [WORK_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
work=${2:-${TMPDIR:-/tmp}/mmsearch-http-fuzz}
mkdir -p "$work/corpus" "$work/crashes"

swift build -c release --product mmsearch-http-fuzz --scratch-path .build-fuzz \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DLIBFUZZER -Xswiftc -use-ld=lld >/dev/null

# Seeds: what clients send, one after another as on a keep-alive connection, and what attackers send.
seed() { printf "$2" >"$work/corpus/seed-$1"; }
seed search 'GET /search?q=M%%C3%%BCnchen&limit=5&offset=0&match=words&order=rank&typos=on HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: curl/8\r\nAccept: */*\r\n\r\n'
seed pipelined 'GET /search?q=lon HTTP/1.1\r\nHost: x\r\n\r\nHEAD /health HTTP/1.1\r\nHost: x\r\n\r\nGET /cities/1,2 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n'
seed photon 'GET /api?q=san+fr&limit=3&lang=en HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'
seed body 'GET / HTTP/1.1\nHost: x\nContent-Length: 5\n\nhelloGET / HTTP/1.1\nHost: x\n\n'
seed hostile 'GET /%%ZZ?q=%%C3%%28&%%=%%&&== HTTP/1.1\r\nHost: x\r\nHost: y\r\nTransfer-Encoding: chunked\r\n folded\r\n\r\n'
seed nul 'GET /\0 HTTP/1.1\r\n\r\n'

status=0
.build-fuzz/release/mmsearch-http-fuzz "$work/corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
  -max_len=20000 -artifact_prefix="$work/crashes/" -print_final_stats=1 2>"$work/fuzz.log" || status=$?
grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb|^#[0-9]+.*DONE' "$work/fuzz.log" || true
if [ "$status" -ne 0 ]; then
  tail -n 60 "$work/fuzz.log" >&2
  echo "fuzzing found a crash: see $work/crashes" >&2
fi
exit "$status"
