#!/usr/bin/env bash
# Prepares what mmsearch-bench's startup comparison runs beside mmsearch (mmsearch-bench --startup-peers DIR):
# the Debian tools (look from bsdextrautils, sqlite3, marisa-predictive-search), their inputs made from the
# city list, and two small programs that time marisa-trie's and fst's open -> first page in-process the way
# mmsearch-bench times mmsearch's (marisa_open.cc, fst_open/ beside this script).
#
# usage: Benchmarks/startup-peers/prepare.sh DIR [CITY_LIST_JSON]
# Writes into DIR (created if needed):
#   keys.tsv        folded key, id, name, country, lat, lon; sorted by key (shared/peers/prepare.py): look's file
#   cities.db       SQLite: table cities(key, id, name, country, lat, lon) with an index on key
#   keys.marisa     marisa-trie of the folded keys (marisa-build)
#   cities.fst      fst map of the distinct folded keys (as shared/peers/fst_bench builds it)
#   lond.txt        the query "lond", for marisa-predictive-search's standard input
#   marisa_open, fst_open   the in-process startup programs
# Missing Debian packages are installed (apt-get; root, as on CI). Needs python3, g++ and cargo.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
dir=${1:?usage: prepare.sh DIR [CITY_LIST_JSON]}
data=${2:-$root/../shared/data/city.list.json}
prepare_py=${MMSEARCH_BENCH_PREPARE:-$root/../shared/peers/prepare.py}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

packages=()
command -v look >/dev/null || packages+=(bsdextrautils)
command -v sqlite3 >/dev/null || packages+=(sqlite3)
command -v marisa-predictive-search >/dev/null || packages+=(marisa)
[ -e /usr/include/marisa.h ] || packages+=(libmarisa-dev)
[ -d /usr/share/cargo/registry/fst-0.3.5 ] || packages+=(librust-fst-dev)
if [ ${#packages[@]} -gt 0 ]; then
  echo "prepare.sh: installing ${packages[*]}" >&2
  (apt-get update -qq && apt-get install -y -qq "${packages[@]}") >/dev/null
fi

g++ -O2 -std=c++17 "$here/marisa_open.cc" -lmarisa -o "$dir/marisa_open"
# Built from a copy, so that cargo's lock file lands in DIR, not in the repository.
rm -rf "$dir/fst_open-src" && cp -r "$here/fst_open" "$dir/fst_open-src"
(cd "$dir/fst_open-src" && CARGO_TARGET_DIR="$dir/fst-target" cargo build -q --release)
cp "$dir/fst-target/release/fst_open" "$dir/fst_open"

# The peers' own preparation: keys folded by shared/peers/fold.py, sorted by key bytes (as look needs).
: > "$dir/no-queries.txt"
python3 "$prepare_py" "$data" "$dir/no-queries.txt" "$dir" >/dev/null
rm -f "$dir/no-queries.txt" "$dir/queries.folded"

rm -f "$dir/cities.db"
# ASCII unit and record separators: names hold quotes, which .import would read as CSV quoting.
tr '\t\n' '\037\036' < "$dir/keys.tsv" > "$dir/keys.ascii"
sqlite3 "$dir/cities.db" <<SQL
CREATE TABLE cities(key TEXT, id INTEGER, name TEXT, country TEXT, lat TEXT, lon TEXT);
.import --ascii $dir/keys.ascii cities
CREATE INDEX cities_key ON cities(key);
SQL
rm -f "$dir/keys.ascii"

cut -f1 "$dir/keys.tsv" | marisa-build -o "$dir/keys.marisa" 2>/dev/null
"$dir/fst_open" --build "$dir/keys.tsv" "$dir/cities.fst"
printf 'lond\n' > "$dir/lond.txt"
echo "prepare.sh: startup peers ready in $dir ($(wc -l < "$dir/keys.tsv") keys)" >&2
