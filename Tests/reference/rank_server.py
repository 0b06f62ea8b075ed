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
"within", "min_population"} (rank.py's options), or "geos": a list of such dicts, one a query (many
points in one request); the answer is one JSON line a query, as rank.py prints them, then a line "end".
With "values": true each answer also has what the geography's tests compare near-ties with (from
`Index.search(..., with_sort=True)`): "values", the sort value of each result of the page (the score,
or the distance in distance order; not for order "name"), "tied_ids" and "tied_values", the results
after the page whose value is within 1e-9 (relative) of the page's last one, in rank.py's order, and
with a point "exact_distances", the distance of each of the page's and then the tied results, not
rounded. Standard input closed: exit 0.
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
by_id = None  # id -> record, for "exact_distances"
for line in sys.stdin:
    request = json.loads(line)
    match = request["match"]
    if match not in indexes:
        indexes[match] = rank.Index(records, match, rules=4)
    index = indexes[match]
    queries = request["queries"]
    geos = request.get("geos") or [request.get("geo", {})] * len(queries)
    values = request.get("values", False)
    offset, limit = request["offset"], request["limit"]
    for q, geo in zip(queries, geos):
        geography = rank.Geography(**geo)
        answer = index.search(q, request["order"], offset, limit, request["typos"], geography, with_sort=values)
        if values:
            sort, ranked = answer.pop("_sort"), answer.pop("_ranked")
            end = offset + len(answer["ids"])
            answer["values"] = sort[offset:end]
            tied = end
            last = sort[end - 1] if end > offset else None
            while last is not None and tied < len(sort) and abs(sort[tied] - last) <= 1e-9 * max(abs(sort[tied]), abs(last)):
                tied += 1
            answer["tied_ids"], answer["tied_values"] = ranked[end:tied], sort[end:tied]
            if geography.near is not None:
                lat, lon = geography.near
                if by_id is None:
                    by_id = {r["id"]: r for r in records}
                answer["exact_distances"] = [rank.distance_km(lat, lon, by_id[i]["lat"], by_id[i]["lon"]) for i in answer["ids"] + answer["tied_ids"]]
        print(json.dumps(answer, ensure_ascii=False))
    print("end", flush=True)
