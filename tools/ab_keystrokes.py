#!/usr/bin/env python3
"""Interleaved A/B of the per-keystroke search inside the process: two builds' mmsearch-bench, each on
its own index, time every line of a workload (fold, locate, exact count, read the first 20 cities) in
fresh processes (`mmsearch-bench --child keystrokes`); the runs alternate (A B, then B A, ...). Prints
each build's median over runs of p50, p99 and mean, and the ratios of those medians. mmsearch-bench's
own report measures one build; this puts two side by side on a shared machine.

usage: tools/ab_keystrokes.py RUNS NAME=BENCH:INDEX NAME=BENCH:INDEX WORKLOAD [MATCH ORDER]
       (BENCH: a release build's mmsearch-bench; WORKLOAD: typing-queries.txt, typing-typos.txt;
       MATCH ORDER: words rank by default)
"""
import statistics
import subprocess
import sys


def main():
    if len(sys.argv) not in (5, 7):
        raise SystemExit(__doc__)
    runs, workload = int(sys.argv[1]), sys.argv[4]
    match, order = (sys.argv[5], sys.argv[6]) if len(sys.argv) == 7 else ("words", "rank")
    builds = [argument.split("=", 1) for argument in sys.argv[2:4]]
    keys = ("search_p50_ns", "search_p99_ns", "p50_ns", "p99_ns", "mean_ns")
    results = {name: {key: [] for key in keys} for name, _ in builds}
    for run in range(runs):
        for name, spec in (builds if run % 2 == 0 else builds[::-1]):
            bench, index = spec.split(":")
            output = subprocess.run([bench, "--child", "keystrokes", index, workload, "all", match, order, name],
                                    capture_output=True, text=True, check=True, timeout=900).stdout
            values = dict(field.split("=", 1) for field in output.split() if "=" in field)
            for key in keys:
                results[name][key].append(float(values[key]))
    (first, _), (second, _) = builds
    for key in keys:
        a, b = statistics.median(results[first][key]), statistics.median(results[second][key])
        print(f"{key}: {first} {a:.0f}  {second} {b:.0f}  ratio {second}/{first} {b / a:.3f}  ({runs} runs each)")


if __name__ == "__main__":
    main()
