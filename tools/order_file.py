#!/usr/bin/env python3
"""Writes tools/mmsearch.order, the symbol ordering file the shipped build links with; or checks it.

Why: the static `mmsearch` is a 24 MB executable, and a short command touches a few hundred of its
functions and data scattered over all of it. Each 4 KB page touched for the first time is a page fault
(2 to 4 µs on these VMs; the kernel maps up to 16 neighbouring pages of a file per fault), and a
whole `mmsearch query` used to take about 170 of them. lld's --symbol-ordering-file puts the named
symbols' sections first, in the file's order, so what a query touches sits side by side.

How: every command below runs the shipped binary under valgrind's lackey, which prints the address of
every instruction executed and every byte loaded or stored. Each address is mapped to the symbol that
holds it (`nm`), and the symbols are written in the order they were first touched: the start of the
process, then everything a query needs, then what the other commands add.

The commands: `--version`; `query` on the list alone (by absolute and by relative path) and on the list
joined with the GeoNames dump (default search, text), `query --format json`, `query --match name
--order name`, then `query` and `near` on the README's index (the dump, admin1 codes, countries and
their other names beside it: regions, qualifiers and the spatial walk), `get` and `info`.

usage:
  tools/order_file.py [--check] [--binary PATH] [--data CITY_LIST] [--geonames DUMP] [--out FILE]

  --binary  the mmsearch to trace [the shipped build's: tools/release-build.sh --show-bin-path]
  --geonames  the dump; admin1CodesASCII.txt, countryInfo.txt and alternateNames-countries.txt are read
            from its directory
  --check   write nothing: exit 1 when more than --tolerance (10%) of the symbols the commands touch
            are missing from the order file (regenerate it after a toolchain or hot-path change)

Needs valgrind, nm and the data in ../shared (CI has them). Takes about 30 s.
"""
import argparse
import bisect
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "data")


def symbols(binary):
    """(starts, ends, names) of the binary's sized, defined symbols, sorted by address."""
    listing = subprocess.run(["nm", "-n", "-S", "--defined-only", binary],
                             check=True, capture_output=True, text=True).stdout
    starts, ends, names = [], [], []
    for line in listing.splitlines():
        fields = line.split(" ", 3)
        if len(fields) != 4 or fields[2] in "aAuUwWvV":
            continue
        start, size = int(fields[0], 16), int(fields[1], 16)
        if size == 0:
            continue
        starts.append(start)
        ends.append(start + size)
        names.append(fields[3])
    return starts, ends, names


def touched(binary, arguments, table, seen, order, scratch):
    """Appends to `order` the symbols this run touches that `seen` does not hold yet. The run's working
    directory is `scratch`, where the indexes are, so a relative index path is traced too."""
    log = os.path.join(scratch, "lackey.txt")
    with open(os.devnull, "w") as null:
        subprocess.run(["valgrind", "--tool=lackey", "--trace-mem=yes", f"--log-file={log}", binary] + arguments,
                       check=True, stdout=null, cwd=scratch)
    starts, ends, names = table
    with open(log) as trace:
        for line in trace:
            # "I  0040a1b2,3" (instruction) or " L 0x1fff000640,8" (load, store, modify)
            if line.startswith("=="):
                continue
            text = line[3:].split(",", 1)[0]
            try:
                address = int(text, 16)
            except ValueError:
                continue
            position = bisect.bisect_right(starts, address) - 1
            if position >= 0 and address < ends[position]:
                name = names[position]
                if name not in seen:
                    seen.add(name)
                    order.append(name)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary")
    parser.add_argument("--data", default=os.path.join(SHARED, "city.list.json"))
    parser.add_argument("--geonames", default=os.path.join(SHARED, "cities500.txt.gz"))
    parser.add_argument("--out", default=os.path.join(ROOT, "tools", "mmsearch.order"))
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--tolerance", type=float, default=0.10)
    options = parser.parse_args()

    binary = options.binary
    if binary is None:
        bin_path = subprocess.run([os.path.join(ROOT, "tools", "release-build.sh"), "--show-bin-path"],
                                  check=True, capture_output=True, text=True).stdout.strip()
        binary = os.path.join(bin_path, "mmsearch")
    with tempfile.TemporaryDirectory(prefix="mmsearch-order-") as scratch:
        # valgrind 3.19 cannot read this toolchain's DWARF 5; symbols are all it needs.
        traced = os.path.join(scratch, "mmsearch")
        subprocess.run(["objcopy", "--strip-debug", binary, traced], check=True)
        list_index = os.path.join(scratch, "list.mms")
        joined_index = os.path.join(scratch, "joined.mms")
        subprocess.run([traced, "build", options.data, "-o", list_index], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run([traced, "build", options.data, "--geonames", options.geonames, "-o", joined_index],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # The README's index, as its quick start builds it.
        beside = os.path.dirname(options.geonames)
        readme_index = os.path.join(scratch, "readme.mms")
        subprocess.run([traced, "build", options.data, "--geonames", options.geonames,
                        "--admin1", os.path.join(beside, "admin1CodesASCII.txt"), "--countries", os.path.join(beside, "countryInfo.txt"),
                        "--alternate-names", os.path.join(beside, "alternateNames-countries.txt"), "-o", readme_index],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        table = symbols(traced)
        seen, order = set(), []
        for arguments in (["--version"],
                          ["query", "--index", list_index, "Lond"],
                          ["query", "--index", "list.mms", "Lond"],
                          ["query", "--index", joined_index, "Lond"],
                          ["query", "--index", joined_index, "münchen"],
                          ["query", "--index", list_index, "--format", "json", "san fr"],
                          ["query", "--index", list_index, "--match", "name", "--order", "name", "Par"],
                          ["query", "--index", readme_index, "Lond"],
                          ["near", "--index", readme_index, "51.5074,-0.1278"],
                          ["get", "--index", list_index, "2643743"],
                          ["info", list_index]):
            touched(traced, arguments, table, seen, order, scratch)

    if options.check:
        with open(options.out) as committed:
            listed = set(committed.read().splitlines())
        missing = [name for name in order if name not in listed]
        share = len(missing) / max(1, len(order))
        print(f"order_file.py: {len(order)} symbols touched, {len(missing)} ({share:.1%}) not in {options.out}")
        if share > options.tolerance:
            print("  regenerate it: tools/order_file.py (then rebuild with tools/release-build.sh); missing, first 20:",
                  *missing[:20], sep="\n    ", file=sys.stderr)
            return 1
        return 0
    with open(options.out, "w") as out:
        out.write("\n".join(order) + "\n")
    print(f"order_file.py: wrote {len(order)} symbols to {options.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
