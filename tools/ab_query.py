#!/usr/bin/env python3
"""Interleaved A/B of whole `mmsearch query -` processes: two builds of mmsearch (say the last release
and this one), each on its own index, answer every line of a workload from standard input (fold,
locate, exact count, the first LIMIT as JSON); the runs alternate (A B, then B A, ...), and each run's
wall time divided by the workload's lines is one per-keystroke figure. Prints each build's median and
the ratio of the medians. A cheap check beside mmsearch-bench (which times inside the process); on a
shared machine, trust the medians and ratios, not single runs.

usage: tools/ab_query.py RUNS NAME=MMSEARCH:INDEX:WORKLOAD NAME=MMSEARCH:INDEX:WORKLOAD
       (a workload line's last tab-separated field is the query: typing-queries.txt, typing-near.txt)
environment: LIMIT, the page asked for [20]
"""
import os
import statistics
import subprocess
import sys
import time


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    runs, limit = int(sys.argv[1]), os.environ.get("LIMIT", "20")
    pairs = [argument.split("=", 1) for argument in sys.argv[2:]]
    results = {}
    for run in range(runs):
        for name, spec in (pairs if run % 2 == 0 else pairs[::-1]):
            binary, index, workload = spec.split(":")
            with open(workload, encoding="utf-8") as file:
                lines = [line.rstrip("\n").split("\t")[-1] for line in file]
            data = ("\n".join(lines) + "\n").encode()
            start = time.perf_counter()
            subprocess.run([binary, "query", "--index", index, "--limit", limit, "--format", "json", "-"],
                           input=data, capture_output=True, check=True, timeout=600)
            results.setdefault(name, []).append((time.perf_counter() - start) / len(lines) * 1e9)
    for name, values in results.items():
        print(f"{name}: median {statistics.median(values):.0f} ns per keystroke over {len(values)} runs "
              f"(min {min(values):.0f}, max {max(values):.0f})")
    first, second = list(results)
    print(f"ratio {second}/{first}: {statistics.median(results[second]) / statistics.median(results[first]):.3f}")


if __name__ == "__main__":
    main()
