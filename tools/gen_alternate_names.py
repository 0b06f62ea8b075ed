#!/usr/bin/env python3
"""Writes a synthetic file in GeoNames' alternateNamesV2.txt layout, as big as the real one, to measure
`mmsearch build --alternate-names` on it (peak memory and time; Benchmarks/RESULTS.md).

The real file (download.geonames.org/export/dump/alternateNamesV2.zip) has about 16 million rows for
every kind of place: most name places that are not in any city index (mountains, rivers, farms,
streets), a few million name cities. This one is shaped the same way: ROWS rows (default 16,000,000),
a fifth of them naming the ids of the list (so that the build keeps their names, as it would keep the
real file's), the rest naming ids that are not cities; every tenth a link, id or code
(link, wkdt, post, iata, ...), every twentieth historic; names of 3 to 30 characters, some not ASCII.
Deterministic for a seed.

usage: gen_alternate_names.py CITY_LIST_JSON OUTPUT [--rows N] [--seed S] [--gzip]
"""
import argparse
import gzip
import json
import random

SKIPPED_LANGUAGES = ["link", "wkdt", "post", "iata", "icao", "unlc"]
LANGUAGES = ["en", "de", "fr", "es", "it", "ru", "ja", "zh", "ar", "pt", "nl", "pl", "", "abbr"]
LETTERS = "abcdefghijklmnopqrstuvwxyz"
OTHER = "éèüößçñåøłżščăîâ"


def name(rng):
    words = []
    for _ in range(rng.choice([1, 1, 1, 2, 2, 3])):
        length = rng.randint(3, 10)
        word = "".join(rng.choice(LETTERS if rng.random() < 0.93 else OTHER) for _ in range(length))
        words.append(word.capitalize())
    return " ".join(words)[:30]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("city_list")
    ap.add_argument("output")
    ap.add_argument("--rows", type=int, default=16_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--gzip", action="store_true", help="write it gzip-compressed")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    with open(a.city_list, encoding="utf-8") as f:
        ids = [r["_id"] for r in json.load(f)]
    opener = gzip.open if a.gzip else open
    with opener(a.output, "wt", encoding="utf-8", newline="\n") as out:
        batch = []
        for number in range(1, a.rows + 1):
            geonameid = rng.choice(ids) if rng.random() < 0.2 else rng.randint(10_000_000, 13_000_000)
            if number % 10 == 0:
                language, text = rng.choice(SKIPPED_LANGUAGES), f"https://example.org/{number}"
            else:
                language, text = rng.choice(LANGUAGES), name(rng)
            historic = "1" if number % 20 == 7 else ""
            preferred = "1" if number % 13 == 0 else ""
            batch.append(f"{number}\t{geonameid}\t{language}\t{text}\t{preferred}\t\t\t{historic}\t\t\n")
            if len(batch) == 100_000:
                out.write("".join(batch))
                batch = []
        out.write("".join(batch))


if __name__ == "__main__":
    main()
