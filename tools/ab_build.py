#!/usr/bin/env python3
"""Interleaved A/B of `mmsearch build`: two or more binaries build the same inputs in turn, in a new
random order each round, each to its own output in a scratch directory; the wall time of each whole
process is taken. Prints each binary's median, least and greatest time and every run, then each one's
median over the first's. On a shared machine only builds measured side by side compare.

usage: tools/ab_build.py ROUNDS NAME=MMSEARCH NAME=MMSEARCH [NAME=MMSEARCH ...] -- BUILD_ARGUMENTS
       (BUILD_ARGUMENTS: what follows `mmsearch build`, without -o, e.g.
       city.list.json --geonames cities500.txt.gz)
"""
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time


def main():
    if "--" not in sys.argv or sys.argv.index("--") < 4:
        raise SystemExit(__doc__)
    split = sys.argv.index("--")
    rounds, arguments = int(sys.argv[1]), sys.argv[split + 1:]
    binaries = [argument.split("=", 1) for argument in sys.argv[2:split]]
    times = {name: [] for name, _ in binaries}
    with tempfile.TemporaryDirectory(prefix="ab-build-") as scratch:
        for _ in range(rounds):
            for name, binary in random.sample(binaries, len(binaries)):
                start = time.perf_counter()
                subprocess.run([binary, "build", *arguments, "-o", os.path.join(scratch, name + ".mms")],
                               check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)
                times[name].append(time.perf_counter() - start)
    for name, _ in binaries:
        runs = times[name]
        print(f"{name}: median {statistics.median(runs):.3f} s, least {min(runs):.3f}, greatest {max(runs):.3f}, "
              f"runs {' '.join(f'{run:.2f}' for run in runs)}")
    first = statistics.median(times[binaries[0][0]])
    for name, _ in binaries[1:]:
        print(f"{name} / {binaries[0][0]}: {statistics.median(times[name]) / first:.3f}x")


main()
