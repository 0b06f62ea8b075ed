#!/usr/bin/env python3
"""Writes a synthetic city list, shaped like OpenWeatherMap's, of any size, for scaling benchmarks.

Names are the real list's syllables recombined: every real name is split into words and every word
into syllables (a run of consonants ending in a run of vowels), kept per country and by place in the
word (a whole one-syllable word, first, middle, last). A synthetic record copies the shape of a real
record picked at random (its country, its words and their syllable counts, the separators between
them, its coordinates moved by up to 0.2 degree) and fills each word with syllables of that country
drawn at random. So "Novinki, RU" may become "Kolyanki, RU" or "Verkhnaya Saldovo, RU": same
alphabets, accents, lengths and prefix distribution as the real list, and names as likely to repeat.
Ids are unique. Everything follows from --seed: the same arguments write the same bytes.

Output: a JSON array in the real file's layout, one compact record a line:
  [{"_id":707860,"name":"Hurzuf","country":"UA","coord":{"lon":34.283333,"lat":44.549999}},
   {...}]

--workload PATH also writes a keystroke workload for the synthetic list, exactly what
shared/peers/workload.py would write for it (every prefix of "Name, CC" from 1 to 16 characters of
--workload-records records sampled with --workload-seed), without holding the list in memory.

usage: gen_synthetic_list.py --count N --seed S --out PATH [--source CITY_LIST_JSON]
                             [--workload PATH] [--workload-records 2000] [--workload-seed 42]
"""
import argparse
import json
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SOURCE = os.path.join(HERE, "..", "..", "shared", "data", "city.list.json")

# Vowels of the alphabets the list uses most (Latin with accents, Cyrillic, Greek). A syllable is a
# run of non-vowel letters ending in a run of vowels; a word's trailing consonants join its last one.
# A script without these vowels (Hangul, kanji) makes each word a single "syllable", kept whole.
VOWELS = "aeiouyàáâãäåāăąèéêëēĕėęěìíîïĩīĭįıòóôõöøōŏőùúûüũūŭůűųýÿæœ" \
         "аеёиоуыэюяіїєαεηιουωάέήίόύώ"
SYLLABLE = re.compile("[^%s]*[%s]+" % (VOWELS + VOWELS.upper(), VOWELS + VOWELS.upper()))
# Words are split at spaces and at the punctuation that joins words in names ("Saint-Denis").
SEPARATOR = re.compile(r"([\s\-/,.()]+)")

# The maximum the list's coordinates move: enough to make new points, not to leave the region.
JITTER_DEGREES = 0.2
# An odd multiplier makes i -> i * ID_MULTIPLIER mod 2^32 a bijection: unique, scattered ids.
ID_MULTIPLIER = 2654435761


def syllables(word):
    """The syllables of `word`, in order; their concatenation is `word`."""
    parts = SYLLABLE.findall(word)
    used = sum(len(p) for p in parts)
    if not parts:
        return [word]
    if used < len(word):
        parts[-1] += word[used:]
    return parts if "".join(parts) == word else [word]


class SyllablePools:
    """Syllables of the real names by country and by place in the word."""

    PLACES = ("whole", "first", "middle", "last")

    def __init__(self):
        self.by_country = {}

    def pool(self, country, place):
        return self.by_country.setdefault(country, {p: [] for p in self.PLACES})[place]

    def add_word(self, country, word):
        parts = syllables(word)
        if len(parts) == 1:
            self.pool(country, "whole").append(word)
            return len(parts)
        self.pool(country, "first").append(parts[0])
        for part in parts[1:-1]:
            self.pool(country, "middle").append(part)
        self.pool(country, "last").append(parts[-1])
        return len(parts)

    def draw(self, rng, country, place):
        """A syllable for `place` in a word of `country`; falls back to any country's, then to "first"."""
        pools = self.by_country.get(country)
        if pools and pools[place]:
            return rng.choice(pools[place])
        if place == "middle":
            return self.draw(rng, country, "first").lower()
        return rng.choice(self.by_country[None][place])


def load_templates(source):
    """The real records as (country, [word syllable counts and separators], lat, lon), and the pools."""
    with open(source, encoding="utf-8") as f:
        cities = json.load(f)
    pools = SyllablePools()
    templates = []
    for city in cities:
        country = city["country"]
        shape = []
        for index, piece in enumerate(SEPARATOR.split(city["name"])):
            if index % 2 == 1 or not piece:
                shape.append(piece)  # a separator (or the empty text before a leading one), kept as is
                continue
            count = pools.add_word(country, piece)
            pools.add_word(None, piece)
            shape.append(count)
        templates.append((country, shape, float(city["coord"]["lat"]), float(city["coord"]["lon"])))
    return templates, pools


def make_name(rng, pools, country, shape):
    out = []
    for piece in shape:
        if isinstance(piece, str):
            out.append(piece)
        elif piece == 1:
            out.append(pools.draw(rng, country, "whole"))
        else:
            word = [pools.draw(rng, country, "first")]
            word += [pools.draw(rng, country, "middle") for _ in range(piece - 2)]
            word.append(pools.draw(rng, country, "last"))
            out.append("".join(word))
    return "".join(out)


def coordinate_text(value, limit):
    """Decimal text as the list writes it: up to 6 decimals, no trailing zeros ("28", "44.549999")."""
    value = max(-limit, min(limit, value))
    text = ("%.6f" % value).rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, required=True, help="records to write")
    parser.add_argument("--seed", type=int, required=True, help="random seed: same seed, same file")
    parser.add_argument("--out", required=True, help="the JSON list to write")
    parser.add_argument("--source", default=DEFAULT_SOURCE, help="the real city list (default: %(default)s)")
    parser.add_argument("--workload", help="also write a keystroke workload here")
    parser.add_argument("--workload-records", type=int, default=2000)
    parser.add_argument("--workload-seed", type=int, default=42)
    args = parser.parse_args()
    if args.count < 1 or args.count >= 2**32:
        sys.exit("gen_synthetic_list.py: --count must be from 1 to 2^32 - 1")

    templates, pools = load_templates(args.source)
    rng = random.Random(args.seed)
    id_offset = rng.getrandbits(32)

    # workload.py runs random.Random(seed).sample(cities, n); sample() picks by position from the
    # length alone, so sampling range(count) picks the very same records, in the same order.
    picked = {}
    if args.workload:
        sample_size = min(args.workload_records, args.count)
        for order, position in enumerate(random.Random(args.workload_seed).sample(range(args.count), sample_size)):
            picked[position] = order
    picked_texts = [None] * len(picked)

    temporary = args.out + ".tmp"
    with open(temporary, "w", encoding="utf-8", newline="\n") as out:
        for i in range(args.count):
            country, shape, lat, lon = templates[rng.randrange(len(templates))]
            name = make_name(rng, pools, country, shape)
            lat = coordinate_text(lat + rng.uniform(-JITTER_DEGREES, JITTER_DEGREES), 90)
            lon = coordinate_text(lon + rng.uniform(-JITTER_DEGREES, JITTER_DEGREES), 180)
            record_id = (i * ID_MULTIPLIER + id_offset) % 2**32
            out.write("[" if i == 0 else ",\n ")
            out.write('{"_id":%d,"name":%s,"country":%s,"coord":{"lon":%s,"lat":%s}}'
                      % (record_id, json.dumps(name, ensure_ascii=False), json.dumps(country), lon, lat))
            if i in picked:
                picked_texts[picked[i]] = name + (", " + country if country else "")
        out.write("]\n")
    os.replace(temporary, args.out)

    if args.workload:
        temporary = args.workload + ".tmp"
        with open(temporary, "w", encoding="utf-8", newline="\n") as out:
            for text in picked_texts:
                for i in range(1, min(len(text), 16) + 1):
                    if text[:i].strip():
                        out.write(text[:i] + "\n")
        os.replace(temporary, args.workload)


if __name__ == "__main__":
    main()
