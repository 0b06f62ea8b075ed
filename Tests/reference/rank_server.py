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

Loading the joined list with the spellings and building its Index takes rank.py about a minute; the
result is kept in .build/rank-cache/ (pickled, one file per input and match mode, replaced when
rank.py, fold.py, this file or an input file changes: their contents' or stats' hash is checked
before use), which a later run reads in a few seconds. MMSEARCH_RANK_CACHE=off turns it off;
MMSEARCH_RANK_CACHE=DIR keeps it in DIR.

MMSEARCH_RANK_LOG=FILE appends a line to FILE for each load and each request: the process, the inputs,
what was asked and the CPU seconds it took (where a full run's time goes: docs/development.md, "CI").
"""
import argparse
import gc
import hashlib
import json
import os
import pickle
import sys
import time

sys.path.insert(0, sys.argv[1])
import rank  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--list", required=True)
ap.add_argument("--geonames")
ap.add_argument("--admin1")
ap.add_argument("--countries")
ap.add_argument("--alternate-names")
a = ap.parse_args(sys.argv[2:])
inputs = [a.list, a.geonames, a.admin1, a.countries, a.alternate_names]
here = os.path.dirname(os.path.abspath(__file__))
cache_setting = os.environ.get("MMSEARCH_RANK_CACHE", "")
cache_dir = None if cache_setting == "off" else (cache_setting or os.path.join(here, "..", "..", ".build", "rank-cache"))


def cache_key(match):
    """What a cached Index was made from: the code that made it and the inputs as they are now."""
    digest = hashlib.sha256()
    for code in (os.path.join(sys.argv[1], "rank.py"), os.path.join(sys.argv[1], "fold.py"), os.path.abspath(__file__)):
        with open(code, "rb") as file:
            digest.update(file.read())
    for path in inputs:
        if path:
            status = os.stat(path)
            digest.update(f"{os.path.realpath(path)}:{status.st_size}:{status.st_mtime_ns}".encode())
        digest.update(b"|")
    digest.update(f"rules=4 match={match}".encode())
    return digest.hexdigest()


def cache_path(match):
    slot = hashlib.sha256(repr([os.path.realpath(p) if p else None for p in inputs] + [match]).encode()).hexdigest()[:24]
    return os.path.join(cache_dir, slot + ".pickle")


def cached_index(match):
    """The Index kept for these inputs and match mode, or None when there is none that is current."""
    if cache_dir is None:
        return None
    try:
        with open(cache_path(match), "rb") as file:
            if pickle.load(file) != cache_key(match):
                return None
            gc.disable()  # unpickling a million small objects: the collector only slows it down
            try:
                return pickle.load(file)
            finally:
                gc.enable()
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError, TypeError, ValueError):
        return None


def keep(match, index):
    if cache_dir is None:
        return
    path = cache_path(match)
    try:
        os.makedirs(cache_dir, exist_ok=True)
        with open(path + f".{os.getpid()}.tmp", "wb") as file:
            pickle.dump(cache_key(match), file, protocol=pickle.HIGHEST_PROTOCOL)
            pickle.dump(index, file, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(path + f".{os.getpid()}.tmp", path)
    except (OSError, pickle.PicklingError, RecursionError):
        try:
            os.remove(path + f".{os.getpid()}.tmp")
        except OSError:
            pass


log_path = os.environ.get("MMSEARCH_RANK_LOG")


def log(what, started):
    """A line of MMSEARCH_RANK_LOG: process, inputs, what, CPU seconds since `started` (process_time)."""
    if log_path:
        with open(log_path, "a") as file:
            names = " ".join(os.path.basename(path) for path in inputs if path)
            file.write(f"{os.getpid()}\t{names}\t{what}\t{time.process_time() - started:.3f}\n")


records = None
indexes = {}
by_id = None  # id -> record, for "exact_distances"
for line in sys.stdin:
    request = json.loads(line)
    match = request["match"]
    started = time.process_time()
    if match not in indexes:
        index = cached_index(match)
        if index is None:
            if records is None:
                records = next(iter(indexes.values())).records if indexes else \
                    rank.load(a.list, a.geonames, a.admin1, a.countries, a.alternate_names, rules=4)
            index = rank.Index(records, match, rules=4)
            keep(match, index)
        indexes[match] = index
        log(f"load {match}", started)
        started = time.process_time()
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
                    by_id = {r["id"]: r for r in index.records}
                answer["exact_distances"] = [rank.distance_km(lat, lon, by_id[i]["lat"], by_id[i]["lon"]) for i in answer["ids"] + answer["tied_ids"]]
        print(json.dumps(answer, ensure_ascii=False))
    log(f"{match} {request['order']} typos={request['typos']} offset={offset} limit={limit} queries={len(queries)} "
        f"geo={sorted({key for geo in geos for key in geo})} values={values}", started)
    print("end", flush=True)
