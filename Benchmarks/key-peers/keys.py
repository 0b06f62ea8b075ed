#!/usr/bin/env python3
"""Every search key of an index as shared/peers/rank.py defines them (version 4, match "words": each
name, alternate name and generated spelling of a record folded, and each of its word starts, with the
record's ", cc" tail), one per line in byte order, repeats kept (one a key's record, as the peers'
keys.tsv has a line a record): the keys marisa-trie and fst are built from for issue 22's like-for-like
size comparison (Benchmarks/key-peers/run.sh).

usage: Benchmarks/key-peers/keys.py OUT CITY_LIST [--geonames F] [--admin1 F] [--countries F]
                                    [--alternate-names F]
Prints one line: keys=N distinct=D key_bytes=B (B: the distinct keys' UTF-8 bytes, no separators).
"""
import argparse
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.environ.get("MMSEARCH_PEERS", os.path.join(here, "..", "..", "..", "shared", "peers")))
import rank  # noqa: E402

parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("out")
parser.add_argument("list")
parser.add_argument("--geonames")
parser.add_argument("--admin1")
parser.add_argument("--countries")
parser.add_argument("--alternate-names")
args = parser.parse_args()

records = rank.load(args.list, args.geonames, args.admin1, args.countries, args.alternate_names, rules=4)
keys = rank.Index(records, "words", rules=4).keys  # sorted by bytes
for key in keys:
    if b"\n" in key or b"\t" in key:
        sys.exit(f"keys.py: a key holds a tab or a line break: {key!r}")
with open(args.out, "wb") as out:
    for key in keys:
        out.write(key + b"\n")
distinct = sorted(set(keys))
print(f"keys={len(keys)} distinct={len(distinct)} key_bytes={sum(len(k) for k in distinct)}")
