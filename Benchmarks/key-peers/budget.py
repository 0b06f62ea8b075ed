#!/usr/bin/env python3
"""Issue 22's size budget: what an index holds, each part at the least bytes known to hold it, beside
what the index spends on it. A lower reference for the issue's size targets, not an encoding: the floors
are information contents (a permutation of n records: log2 n! bits; a field: n times its zeroth-order
entropy), or what xz -9e makes of a part as one stream (no random access), or marisa-trie's measured
size for the same keys. None is proven least for every encoding (a model that knows more may go under
an entropy or xz), but an index that reads any one value alone, as this one must, needs more than each.

usage: Benchmarks/key-peers/budget.py MMSEARCH INDEX MARISA_BYTES CITY_LIST [--geonames F] [--admin1 F]
                                      [--countries F] [--alternate-names F] [--name NAME]
                                      [--table-to-stderr]
  MMSEARCH: the mmsearch binary (its `info` gives the index's counts and sections); INDEX: an index
  built by it from CITY_LIST and the options given; MARISA_BYTES: marisa-trie's size for the same keys
  (Benchmarks/key-peers/run.sh's engine=marisa-NAME size_bytes).
Prints a table (part, what it holds, the floor, the index's bytes for it), then a line a part,
`budget_part=PATH part=PART floor_bytes=F index_bytes=I`, and one line
`budget=PATH floor_bytes=F file_bytes=B` (Benchmarks/key-peers/run.sh prints the table to standard
error and the lines, its index named as its own lines name it, to standard output).
"""
import argparse
import collections
import lzma
import math
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.environ.get("MMSEARCH_PEERS", os.path.join(here, "..", "..", "..", "shared", "peers")))
import rank  # noqa: E402

parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("mmsearch")
parser.add_argument("index")
parser.add_argument("marisa_bytes", type=int)
parser.add_argument("list")
parser.add_argument("--geonames")
parser.add_argument("--admin1")
parser.add_argument("--countries")
parser.add_argument("--alternate-names")
parser.add_argument("--name", help="the index's name in the last line (default: its path)")
parser.add_argument("--table-to-stderr", action="store_true")
args = parser.parse_args()

info = subprocess.run([args.mmsearch, "info", args.index], capture_output=True, text=True, check=True).stdout
sections = {m.group(1): int(m.group(2)) for m in re.finditer(r"^  (\S.*?) +(\d+) bytes at offset", info, re.M)}


def info_number(pattern):
    match = re.search(pattern, info, re.M)
    if not match:
        sys.exit(f"budget.py: `mmsearch info {args.index}` has no line matching {pattern!r}")
    return int(match.group(1))


RECORDS = r"^records\s+(\d+)"
records = rank.load(args.list, args.geonames, args.admin1, args.countries, args.alternate_names, rules=4)
n = len(records)
if n != info_number(RECORDS):
    sys.exit(f"budget.py: rank.py loads {n} records, the index holds {info_number(RECORDS)}")
alternates = info_number(r"^names\s+(\d+) besides")
spellings = info_number(r"and (\d+) generated spellings")
keys = info_number(r"^search keys\s+(\d+)")
summaries = info_number(r"^summaries\s+(\d+)")
page_entries = info_number(r"^summaries\s+\d+ nodes with a stored count and first page \((\d+) first-page entries")
names = n + alternates + spellings


def log2_factorial(count):
    return math.lgamma(count + 1) / math.log(2)


def log2_choose(total, count):
    return (math.lgamma(total + 1) - math.lgamma(count + 1) - math.lgamma(total - count + 1)) / math.log(2)


def entropy_bits(values):
    """len(values) times the zeroth-order entropy of their distribution."""
    counts = collections.Counter(values)
    total = len(values)
    return -sum(c * math.log2(c / total) for c in counts.values())


def xz_bytes(data):
    return len(lzma.compress(data, preset=9 | lzma.PRESET_EXTREME))


def width(count):
    return max(1, (count - 1).bit_length())


rows = []  # (part, what, floor bits, index bytes, index sections)

def width_apart(values):
    """A field's width and its values stored apart ("Values stored apart" in include/mmsearch_format.h):
    the width w and count E of the fewest bits, w x count + 32 x E, every value but the E greatest below
    2^w - E."""
    descending = sorted(values, reverse=True)
    best = None
    for w in range(1, 33):
        apart = 0
        while apart < len(descending) and descending[apart] >= (1 << w) - apart:
            apart += 1
        if apart < len(descending) and descending[apart] >= (1 << w) - apart:
            continue
        bits = len(values) * w + 32 * apart
        if best is None or bits < best[0]:
            best = (bits, w, apart)
    return best[1], best[2]


# RECORDS' fields ("Packed arrays" in include/mmsearch_format.h): the id (the few greatest stored apart
# after the packed records), the coordinates, the display name's delta from its block's base in
# RECORD_NAME_BASES ("Records' names") and the country (its code's number among RECORD_COUNTRIES'), each
# record at the same width; the coordinates at the list's unit (1e-6 degree: 28 and 29 bits), the name
# delta's width what the others leave of the record's (neither is in `info`).
with open(os.path.join(here, "..", "..", "include", "mmsearch_format.h"), encoding="utf-8") as header:
    constants = dict(re.findall(r"^#define (MMS_\w+) (\d+)u", header.read(), re.M))
id_width, ids_apart = width_apart([r["id"] for r in records])
record_bits = (sections["records"] - int(constants["MMS_PACKED_TAIL"]) - 4 * ids_apart) * 8 // n
country_bits = width(len({r["country"] for r in records if r["country"]}) + 1)
coordinate_bits = width(180 * 10**6 + 1) + width(360 * 10**6 + 1)
name_delta_bits = record_bits - id_width - coordinate_bits - country_bits


def row(part, what, floor_bits, spent_sections, record_field_bits=0):
    spent = sum(sections.get(s, 0) for s in spent_sections) + record_field_bits * n / 8
    rows.append((part, what, max(0.0, floor_bits), spent, spent_sections))


name_bits = math.log2(names)
row("keys", f"the {keys:,} search keys (marisa-trie on the same keys)", 8 * args.marisa_bytes,
    ["labels", "nodes", "children"])
row("entries", f"each key's name: {keys:,} x log2({names:,})", keys * name_bits, ["entries"])

# Names: every distinct text the index stores (display names and given other names; a spelling is
# a form of one of them), as one xz stream. The index's bytes for them: NAMES and its tables, and where
# each name is (RECORDS' name offsets, ALTERNATES, SPELLINGS' offsets and forms).
texts = set()
for r in records:
    texts.update(r["names"])
    texts.add(r["name"])
texts.discard("")
stream = b"\n".join(sorted(t.encode() for t in texts))
row("names", f"{len(texts):,} distinct names, {len(stream):,} bytes, as one xz -9e stream", 8 * xz_bytes(stream),
    ["names", "symbols", "name tables", "alternates", "spellings", "record name bases"], name_delta_bits)

# Ids: the set of ids, and which record has which (one permutation, counted once for both ways).
ids = [r["id"] for r in records]
id_bits = id_width + 32 * (ids_apart + 1) / n
row("ids", f"the set of {n:,} ids below {max(ids) + 1:,}, and which record has which",
    log2_choose(max(ids) + 1, n) + log2_factorial(n), ["id order"], id_bits)

# Coordinates at the index's unit (the list's 1e-6 degree), as a set: Morton order, deltas, xz; and
# which record is at which point (the spatial index's order). NEAR_POINTS' order is another permutation.
unit = 1e6
points = sorted(set((round((r["lat"] + 90) * unit), round((r["lon"] + 180) * unit)) for r in records))


def morton(lat, lon):
    code = 0
    for bit in range(30):
        code |= ((lat >> bit) & 1) << (2 * bit) | ((lon >> bit) & 1) << (2 * bit + 1)
    return code


codes = sorted(morton(lat, lon) for lat, lon in points)
deltas = bytearray()
previous = 0
for code in codes:
    delta, previous = code - previous, code
    while True:
        byte, delta = delta & 0x7F, delta >> 7
        deltas.append(byte | (0x80 if delta else 0))
        if not delta:
            break
row("places", f"{len(points):,} distinct points (Morton order, deltas, xz), and which record is at which",
    8 * xz_bytes(bytes(deltas)) + log2_factorial(n), ["spatial", "spatial bounds"],
    coordinate_bits)
row("near order", "NEAR_POINTS' order of the records (a permutation)", log2_factorial(n), ["near points"])
row("countries", "each record's country (its entropy)", entropy_bits([r["country"] for r in records]), ["record countries"], country_bits)
row("populations", "each record's population (its entropy)", entropy_bits([r["population"] for r in records]),
    ["population"])
row("regions", "each record's region (its entropy)", entropy_bits([r["region_key"] if r["region"] else "" for r in records]),
    ["record regions", "regions", "countries", "qualifier names", "place names"])
# Which record each other name and spelling belongs to: sorted by record, a non-decreasing sequence.
row("owners", f"the record of each of the {alternates + spellings:,} other names and spellings",
    log2_choose(alternates + spellings + n, n), ["alternate blocks", "alternate deltas"])
# Country runs: which country each entry's record is in, by entry.
row("country entries", f"each entry's country, in entry order: {keys:,} x the records' country entropy",
    keys * entropy_bits([r["country"] for r in records]) / n, ["country runs", "entry blocks", "entry deltas"])
# What the design keeps for speed: each big node's count and first page. A page's entry names one of
# its node's keys (format 26 stores its position among them where the node has at most
# MMS_TOP_POSITION_LIMIT), and a summarized node has more than MMS_SUMMARY_THRESHOLD: at least
# log2(MMS_SUMMARY_THRESHOLD + 1) bits an entry.
least_choice = math.log2(int(constants["MMS_SUMMARY_THRESHOLD"]) + 1)
row("pages", f"{summaries:,} summaries' counts and {page_entries:,} stored page entries, each one of more than {constants['MMS_SUMMARY_THRESHOLD']} keys",
    summaries * 2 * math.log2(n) + page_entries * least_choice,
    ["summaries", "top pages", "country pages", "near lists"])

floor_total = sum(bits for _, _, bits, _, _ in rows) / 8
file_bytes = info_number(r"^file size\s+(\d+)")
counted = {s for _, _, _, _, spent in rows for s in spent} | {"records"}
other = sum(size for section, size in sections.items() if section not in counted)
table = sys.stderr if args.table_to_stderr else sys.stdout
print(f"| part | what it holds | floor | {os.path.basename(args.index)} |", file=table)
print("|:---|:---|---:|---:|", file=table)
for part, what, bits, spent, _ in rows:
    print(f"| {part} | {what} | {bits / 8e6:.2f} MB | {spent / 1e6:.2f} MB |", file=table)
print(f"| other sections | {', '.join(s for s in sections if s not in counted and sections[s])} | | {other / 1e6:.2f} MB |",
      file=table)
print(f"| total | | {floor_total / 1e6:.2f} MB | {file_bytes / 1e6:.2f} MB |", file=table)
name = args.name or args.index
for part, _, bits, spent, _ in rows:
    print(f"budget_part={name} part={part.replace(' ', '-')} floor_bytes={bits / 8:.0f} index_bytes={spent:.0f}")
print(f"budget={name} floor_bytes={floor_total:.0f} file_bytes={file_bytes}")
