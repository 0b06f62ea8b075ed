#!/usr/bin/env python3
"""rank.py's answers over one load of the data, for many runs: the acceptance tests' reference.

rank.py (../shared/peers/rank.py, the normative definition) loads the whole list on every run, about
16 s for the joined list with regions. This asks the same functions for every run a test process
makes over one input: `load` once, an `Index` once per match mode, and `Index.search` for each query,
printed as rank.py's own main() prints it. Rules of version 4 (what indexes of format 4 answer).

usage: rank_server.py PEERS_DIR RANK_ARGS...   (RANK_ARGS: rank.py's --list, --geonames, --admin1,
--countries, --alternate-names)
Then one request a line on standard input, a JSON object {"match", "order", "typos", "offset",
"limit", "queries": [...]} and optionally "geo": {"near": "LAT,LON", "near_km", "country", "bbox",
"within", "min_population"} (rank.py's options); the answer is one JSON line a query, as rank.py
prints them, then a line "end". Standard input closed: exit 0.
"""
import argparse
import json
import sys

sys.path.insert(0, sys.argv[1])
import rank  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--list", required=True)
ap.add_argument("--geonames")
ap.add_argument("--admin1")
ap.add_argument("--countries")
ap.add_argument("--alternate-names")
a = ap.parse_args(sys.argv[2:])
records = rank.load(a.list, a.geonames, a.admin1, a.countries, a.alternate_names, rules=4)
indexes = {}
for line in sys.stdin:
    request = json.loads(line)
    match = request["match"]
    if match not in indexes:
        indexes[match] = rank.Index(records, match, rules=4)
    index = indexes[match]
    geo = rank.Geography(**request.get("geo", {}))
    for q in request["queries"]:
        answer = index.search(q, request["order"], request["offset"], request["limit"], request["typos"], geo)
        print(json.dumps(answer, ensure_ascii=False))
    print("end", flush=True)
