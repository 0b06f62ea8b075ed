#!/usr/bin/env bash
# Fuzzes the index reader with libFuzzer (+ AddressSanitizer) for SECONDS, seeded with real small
# indexes built by `mmsearch build`. Crashes land in $WORK/crashes; replay one with
#   swift run mmsearch-fuzz CRASH_FILE
# (lld: gold fails to link libFuzzer into a SwiftPM executable.)
# usage: tools/fuzz.sh [SECONDS] [WORK_DIR]
# MMSEARCH_BIN=PATH builds the seeds with that mmsearch (CI: the shipped one) instead of a build of its own.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
work=${2:-${TMPDIR:-/tmp}/mmsearch-fuzz}
# The corpus grows from run to run; the seeds are written anew, so only today's seed lists count.
rm -rf "$work/seeds"
mkdir -p "$work/seeds" "$work/corpus" "$work/crashes"

mmsearch=${MMSEARCH_BIN:-}
if [ -z "$mmsearch" ]; then
  swift build -c release --product mmsearch --scratch-path .build-fuzz-tools >/dev/null
  mmsearch=.build-fuzz-tools/release/mmsearch
fi
swift build -c release --product mmsearch-fuzz --scratch-path .build-fuzz \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DLIBFUZZER -Xswiftc -use-ld=lld >/dev/null

# Seeds: small real indexes (classic cities, accents, duplicates, empty fields, one blank record).
cat >"$work/seeds/classic.json" <<'JSON'
[{"_id":1,"name":"Alabama","country":"US","coord":{"lon":-86.75,"lat":32.75}},
 {"_id":2,"name":"Albuquerque","country":"US","coord":{"lon":-106.65,"lat":35.08}},
 {"_id":3,"name":"London","country":"GB","coord":{"lon":-0.12574,"lat":51.50853}},
 {"_id":4,"name":"London","country":"CA","coord":{"lon":-81.23304,"lat":42.983391}},
 {"_id":5,"name":"São Paulo","country":"BR","coord":{"lon":-46.636108,"lat":-23.547501}},
 {"_id":6,"name":"Łódź","country":"PL","coord":{"lon":19.466669,"lat":51.75}},
 {"_id":7,"name":"Europe","country":"","coord":{"lon":0,"lat":0}},
 {"_id":8,"name":"","country":"US","coord":{"lon":0,"lat":0}},
 {"_id":9,"name":"New York Mills","country":"US","coord":{"lon":-95.376152,"lat":46.518021}},
 {"_id":10,"name":"New York Mills","country":"US","coord":{"lon":-75.291283,"lat":43.10535}}]
JSON
echo '[{"_id":1,"name":"","country":"","coord":{"lon":0,"lat":0}}]' >"$work/seeds/blank.json"
# A GeoNames dump joined to the classic list (other names, populations), and a dump alone with more
# than 32 keys under "sa" and "mu", so that summaries and first pages are in the seeds too, and more
# than MMS_COUNTRY_PAGE_THRESHOLD (128) records of DE under "s", so that country pages are.
{
  printf '3	London	London	Londres,Londra,Lundun,London City	51.50853	-0.12574	P	PPLC	GB		ENG				8961989			Europe/London	
'
  printf '5	São Paulo	Sao Paulo	San Pablo,São Paulo City,Sampa	-23.5475	-46.63611	P	PPLA	BR		27				12400232			America/Sao_Paulo	
'
  printf '6	Łódź	Lodz	Lodsch,Lodzia	51.75	19.46667	P	PPLA	PL		74				768755			Europe/Warsaw	
'
} >"$work/seeds/joined.txt"
: >"$work/seeds/dump.txt"
for i in $(seq 1 140); do
  printf '%s	San Place %s	San Place %s	Saint Place %s,Munich %s,Mu-nich %s	%s.5	%s.25	P	PPL	DE		0%s				%s				
' \
    "$((100 + i))" "$i" "$i" "$i" "$i" "$i" "$((i % 80))" "$((i % 170))" "$((i % 3))" "$((i * 1000))" >>"$work/seeds/dump.txt"
done
# A dump of more than MMS_NEAR_LIST_THRESHOLD (1,500) records under "s", some found by another name or
# a word: NEAR_POINTS and NEAR_LISTS answer its first pages near a point.
: >"$work/seeds/near.txt"
for i in $(seq 1 1600); do
  printf '%s	Sa%s	Sa%s	Se %s	%s.5	%s.25	P	PPL	FR		0%s				%s				
' \
    "$((5000 + i))" "$i" "$i" "$i" "$((i % 170 - 85))" "$((i * 7 % 359 - 179))" "$((i % 3))" "$((i * 37 % 100000))" >>"$work/seeds/near.txt"
done
# Region and country names (admin1CodesASCII.txt's and countryInfo.txt's layouts) for the seeds with
# regions: the qualifier sections and "Name, Qualifier" matching are fuzzed too.
printf 'GB.ENG\tEngland\tEngland\t6269131\nBR.27\tSão Paulo\tSao Paulo\t3448433\nPL.74\tŁódź Voivodeship\tLodz Voivodeship\t3337493\nDE.00\tBayern\tBayern\t2951839\nDE.01\tBerlin\tBerlin\t2950157\n' >"$work/seeds/admin1.txt"
{
  printf '#ISO\tISO3\tISO-Numeric\tfips\tCountry\n'
  while read -r code iso3 id name; do
    printf '%s\t%s\t1\tXX\t%s\tCapital\t1\t1\tEU\t.x\tEUR\tEuro\t1\t\t\ten\t%s\t\t\n' "$code" "$iso3" "$name" "$id"
  done <<'ROWS'
GB GBR 2635167 United Kingdom
BR BRA 3469034 Brazil
PL POL 798544 Poland
DE DEU 2921044 Germany
US USA 6252001 United States
ROWS
} >"$work/seeds/countries.txt"
# Other names (alternateNamesV2.txt's layout) of countries, regions and records: the QUALIFIER_NAMES
# section and more alternates; links and historic names are left out by the builder.
printf '1\t2635167\tabbr\tUK\t\t\t\t\t\t\n2\t2921044\tde\tDeutschland\t1\t\t\t\t\t\n3\t6252001\tabbr\tU.S.A.\t\t\t\t\t\t\n4\t6269131\ten\tEngland and Wales\t\t\t\t\t\t\n5\t2951839\ten\tBavaria\t\t\t\t\t\t\n6\t3\tfr\tLondres\t\t\t\t\t\t\n7\t3\tlink\thttps://en.wikipedia.org/wiki/London\t\t\t\t\t\t\n8\t5\ten\tSt. Paul of Brazil\t\t\t\t1\t\t\n9\t101\ten\tSt. Place-One\t\t\t\t\t\t\n' >"$work/seeds/alternates.txt"
build_seed() { # OUTPUT INPUT [--geonames DUMP] [--admin1 FILE] [--countries FILE] [--alternate-names FILE]
  local output=$1; shift
  "$mmsearch" build "$@" -o "$work/corpus/$output.mms" 2>&1 | grep -v '^mmsearch build: \(wrote\|warning\|joined\|regions\|countries\|other names\)' || true
  [ -s "$work/corpus/$output.mms" ] || { echo "could not build the seed $output from $*" >&2; exit 1; }
}
for list in "$work"/seeds/*.json; do build_seed "$(basename "$list" .json)" "$list"; done
build_seed joined "$work/seeds/classic.json" --geonames "$work/seeds/joined.txt"
build_seed dump "$work/seeds/dump.txt"
build_seed near "$work/seeds/near.txt"
build_seed regions "$work/seeds/classic.json" --geonames "$work/seeds/joined.txt" --admin1 "$work/seeds/admin1.txt" --countries "$work/seeds/countries.txt" \
  --alternate-names "$work/seeds/alternates.txt"
build_seed dump-regions "$work/seeds/dump.txt" --admin1 "$work/seeds/admin1.txt" --countries "$work/seeds/countries.txt" \
  --alternate-names "$work/seeds/alternates.txt"

status=0
.build-fuzz/release/mmsearch-fuzz "$work/corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
  -artifact_prefix="$work/crashes/" -print_final_stats=1 2>"$work/fuzz.log" || status=$?
grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb|^#[0-9]+.*DONE' "$work/fuzz.log" || true
if [ "$status" -ne 0 ]; then
  tail -n 60 "$work/fuzz.log" >&2
  echo "fuzzing found a crash: see $work/crashes" >&2
fi
exit "$status"
