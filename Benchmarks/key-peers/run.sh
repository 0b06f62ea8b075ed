#!/usr/bin/env bash
# Issue 22's like-for-like sizes: marisa-trie and fst built from the same search keys as mmsearch's
# indexes (every name, other name, spelling and word start, with its ", cc" tail; Benchmarks/key-peers/
# keys.py, from shared/peers/rank.py version 4), beside the bytes of mmsearch's trie (LABELS, NODES,
# CHILDREN) and of its entries (ENTRIES: each key's record and kind), as `mmsearch info` gives them.
# The peers are shared/peers' own marisa_bench.cc and fst_bench (a set of the distinct keys; a map of
# each distinct key to its count), also timed on the keystroke workload over those keys.
# Each index is built here from the data by MMSEARCH, and its key count checked against rank.py's.
#
# usage: Benchmarks/key-peers/run.sh MMSEARCH OUT_DIR [CITY_LIST [GEONAMES [QUERIES]]]
#   (defaults: ../shared/data's city.list.json, cities500.txt.gz and typing-queries.txt; the README's
#   index also reads admin1CodesASCII.txt, countryInfo.txt and alternateNames-countries.txt there)
# Prints, per index (list, joined = list + cities500, readme = joined + admin1, countries, alternate
# names): `index=NAME keys=N distinct=D key_bytes=B trie_bytes=T entries_bytes=E file_bytes=F`, then
# each peer's line with `engine=marisa-NAME` or `engine=fst-NAME`, and `budget=NAME floor_bytes=F
# file_bytes=B` after a `budget_part=NAME part=P ...` line a part: the least bytes known to hold what
# the index holds (budget.py; its table in OUT_DIR/NAME.budget.md). Missing Debian packages are
# installed (apt-get; root, as on CI). Needs python3, g++ and cargo.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
shared=$(cd "$here/../../.." && pwd)/shared
usage="usage: run.sh MMSEARCH OUT_DIR [CITY_LIST [GEONAMES [QUERIES]]]"
mmsearch=${1:?$usage}
out=${2:?$usage}
list=${3:-$shared/data/city.list.json}
geonames=${4:-$shared/data/cities500.txt.gz}
queries=${5:-$shared/data/typing-queries.txt}
peers=${MMSEARCH_PEERS:-$shared/peers}
export MMSEARCH_PEERS=$peers
mkdir -p "$out"
out=$(cd "$out" && pwd)

if [ ! -e /usr/include/marisa.h ] || [ ! -d /usr/share/cargo/registry/fst-0.3.5 ]; then
  (apt-get update -qq && apt-get install -y -qq libmarisa-dev librust-fst-dev) >/dev/null
fi
g++ -O2 -std=c++17 "$peers/marisa_bench.cc" -lmarisa -o "$out/marisa_bench"
# Built from a copy, so that cargo's lock file lands in OUT_DIR, not in shared/.
rm -rf "$out/fst_bench-src" && cp -r "$peers/fst_bench" "$out/fst_bench-src"
(cd "$out/fst_bench-src" && CARGO_TARGET_DIR="$out/fst-target" cargo build -q --release)
# The keystrokes folded as the peers' own run folds them (shared/peers/prepare.py; its keys.tsv, one key
# a record, is not used here).
python3 "$peers/prepare.py" "$list" "$queries" "$out/prepared"

joined=(--geonames "$geonames")
readme=("${joined[@]}" --admin1 "$shared/data/admin1CodesASCII.txt" --countries "$shared/data/countryInfo.txt"
        --alternate-names "$shared/data/alternateNames-countries.txt")
for name in list joined readme; do
  case $name in
    list) options=() ;;
    joined) options=("${joined[@]}") ;;
    readme) options=("${readme[@]}") ;;
  esac
  "$mmsearch" build "$list" "${options[@]+"${options[@]}"}" -o "$out/$name.mms"
  info=$("$mmsearch" info "$out/$name.mms")
  section() { awk -v s="$1" '$0 ~ "^  "s" +[0-9]+ bytes" { for (i = 1; i <= NF; i++) if ($(i + 1) == "bytes") print $i }' <<< "$info"; }
  ours=$(awk '/^search keys/ { print $3 }' <<< "$info")
  counts=$(python3 "$here/keys.py" "$out/$name.keys" "$list" "${options[@]+"${options[@]}"}")
  theirs=$(sed 's/.*keys=\([0-9]*\).*/\1/' <<< "$counts")
  if [ -z "$ours" ] || [ "$ours" != "$theirs" ]; then
    echo "run.sh: $name: mmsearch info says $ours search keys, rank.py $theirs" >&2
    exit 1
  fi
  trie=$(( $(section labels) + $(section nodes) + $(section children) ))
  echo "index=$name $counts trie_bytes=$trie entries_bytes=$(section entries) file_bytes=$(stat -c %s "$out/$name.mms")"
  mkdir -p "$out/$name"
  marisa=$("$out/marisa_bench" "$out/$name.keys" "$out/prepared/queries.folded" "$out/$name")
  sed "s/^engine=marisa /engine=marisa-$name /" <<< "$marisa"
  # The index's parts beside the least bytes known to hold each (budget.py; its table on stderr).
  if ! python3 "$here/budget.py" "$mmsearch" "$out/$name.mms" "$(sed 's/.* size_bytes=\([0-9]*\).*/\1/' <<< "$marisa")" \
       "$list" "${options[@]+"${options[@]}"}" --name "$name" --table-to-stderr 2> "$out/$name.budget.md"; then
    cat "$out/$name.budget.md" >&2
    exit 1
  fi
  "$out/fst-target/release/fst_bench" "$out/$name.keys" "$out/prepared/queries.folded" "$out/$name" | sed "s/^engine=fst /engine=fst-$name /"
done
