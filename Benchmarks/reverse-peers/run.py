#!/usr/bin/env python3
"""Reverse-lookup peers for issue 21: the 10 nearest cities of each point of reverse-points.txt, by
SciPy's cKDTree and by SQLite's R*Tree, over the same records as mmsearch (city.list.json's ids and
coordinates). Prints one line per engine in the form of shared/peers/run.sh (engine=... key=value).

Both are driven from Python, so their figures are per point *in batch*:
  - scipy-ckdtree: the tree over the points as unit vectors (the chord is monotone in the great-circle
    distance), built once; one `query(points, k=10)` call for all points, its time divided by the
    points (batch_ns_per_point, also mean_ns); p50/p99 are of one `query(point, k=10)` call a point,
    Python's call overhead included.
  - sqlite-rtree: an R*Tree table of the points (lat, lon boxes of zero size), in memory; per point, a
    box query around it, widened (x2) until it holds 10 points within the distance it guarantees
    (crossing the 180th meridian and reaching the poles handled), those ranked by haversine in
    Python. p50/p99 per point, mean_ns its batch time over the points.
Installs what is missing (numpy, scipy) with pip, or Debian's python3-scipy.

usage: Benchmarks/reverse-peers/run.py CITY_LIST REVERSE_POINTS [--limit N]
"""
import json
import math
import resource
import sqlite3
import subprocess
import sys
import time

EARTH_KM = 6371.0088


def ensure_scipy():
    try:
        import scipy.spatial  # noqa: F401
        return
    except ImportError:
        pass
    for command in ([sys.executable, "-m", "pip", "install", "--quiet", "scipy"],
                    [sys.executable, "-m", "pip", "install", "--quiet", "--break-system-packages", "scipy"],
                    ["apt-get", "install", "-y", "-q", "python3-scipy"]):
        if subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
            try:
                import scipy.spatial  # noqa: F401
                return
            except ImportError:
                continue
    sys.exit("reverse-peers: cannot install scipy (pip or apt-get python3-scipy)")


def haversine(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    l1, l2 = math.radians(lon1), math.radians(lon2)
    a = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin((l2 - l1) / 2) ** 2
    return 2 * EARTH_KM * math.asin(math.sqrt(a))


def percentiles(latencies, loop_ns):
    s = sorted(latencies)
    n = len(s)
    return {"queries": n, "p50_ns": s[n // 2], "p99_ns": s[n * 99 // 100], "max_ns": s[-1], "mean_ns": loop_ns // n}


def line(engine, keys, build_s, open_first_us, stats, matches, extra=""):
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return (f"engine={engine} keys={keys} build_s={build_s:.3f} size_bytes=0 open_first_us={open_first_us:.1f} "
            f"queries={stats['queries']} p50_ns={stats['p50_ns']} p99_ns={stats['p99_ns']} max_ns={stats['max_ns']} "
            f"mean_ns={stats['mean_ns']} matches={matches} peak_rss_kib={peak}{extra}")


def ckdtree(records, points, k):
    import numpy as np
    from scipy.spatial import cKDTree

    def vectors(latlon):
        a = np.radians(np.asarray(latlon, dtype=float))
        lat, lon = a[:, 0], a[:, 1]
        return np.column_stack((np.cos(lat) * np.cos(lon), np.cos(lat) * np.sin(lon), np.sin(lat)))

    start = time.perf_counter_ns()
    tree = cKDTree(vectors([(r[1], r[2]) for r in records]))
    build = (time.perf_counter_ns() - start) / 1e9
    queries = vectors(points)
    start = time.perf_counter_ns()
    tree.query(queries[:1], k=k)
    first = (time.perf_counter_ns() - start) / 1e3
    start = time.perf_counter_ns()
    _, batch = tree.query(queries, k=k)
    batch_ns = time.perf_counter_ns() - start
    latencies = []
    loop_start = time.perf_counter_ns()
    for q in queries:
        t = time.perf_counter_ns()
        tree.query(q, k=k)
        latencies.append(time.perf_counter_ns() - t)
    stats = percentiles(latencies, time.perf_counter_ns() - loop_start)
    stats["mean_ns"] = batch_ns // len(points)
    return line("scipy-ckdtree", len(records), build, first, stats, int(batch.size),
                f" batch_ns_per_point={batch_ns // len(points)} batch_ns={batch_ns}")


def rtree(records, points, k):
    db = sqlite3.connect(":memory:")
    start = time.perf_counter_ns()
    db.execute("CREATE VIRTUAL TABLE places USING rtree(id, min_lat, max_lat, min_lon, max_lon)")
    db.execute("CREATE TABLE cities(rowid INTEGER PRIMARY KEY, id INTEGER, lat REAL, lon REAL)")
    db.executemany("INSERT INTO places VALUES (?, ?, ?, ?, ?)", ((n, lat, lat, lon, lon) for n, (_, lat, lon) in enumerate(records)))
    db.executemany("INSERT INTO cities VALUES (?, ?, ?, ?)", ((n, i, lat, lon) for n, (i, lat, lon) in enumerate(records)))
    db.commit()
    build = (time.perf_counter_ns() - start) / 1e9
    query = ("SELECT c.id, c.lat, c.lon FROM places p JOIN cities c ON c.rowid = p.id "
             "WHERE p.min_lat >= ? AND p.max_lat <= ? AND p.min_lon >= ? AND p.max_lon <= ?")

    def nearest(lat, lon):
        r = 0.25  # degrees of latitude either side
        while True:
            south, north = lat - r, lat + r
            if south <= -90 or north >= 90:
                # A pole inside: every longitude, every point within r degrees.
                boxes, guaranteed = [(max(south, -90.0), min(north, 90.0), -180.0, 180.0)], r
            else:
                half = r / math.cos(math.radians(max(abs(south), abs(north))))
                if half >= 180:
                    boxes, guaranteed = [(south, north, -180.0, 180.0)], r
                else:
                    west, east = lon - half, lon + half
                    if west < -180:
                        boxes = [(south, north, west + 360, 180.0), (south, north, -180.0, east)]
                    elif east > 180:
                        boxes = [(south, north, west, 180.0), (south, north, -180.0, east - 360)]
                    else:
                        boxes = [(south, north, west, east)]
                    # The nearest a point outside the box can be: r of latitude, or across a longitude edge.
                    edge = math.degrees(math.asin(min(1.0, math.cos(math.radians(lat)) * math.sin(math.radians(min(half, 90.0))))))
                    guaranteed = min(r, edge)
            rows = []
            for box in boxes:
                rows += db.execute(query, box).fetchall()
            ranked = sorted((haversine(lat, lon, a, b), i) for i, a, b in rows)
            if len(ranked) >= k and ranked[k - 1][0] <= guaranteed * math.pi / 180 * EARTH_KM or r >= 180:
                return ranked[:k]
            r *= 2

    start = time.perf_counter_ns()
    nearest(*points[0])
    first = (time.perf_counter_ns() - start) / 1e3
    latencies, found = [], 0
    loop_start = time.perf_counter_ns()
    for lat, lon in points:
        t = time.perf_counter_ns()
        found += len(nearest(lat, lon))
        latencies.append(time.perf_counter_ns() - t)
    stats = percentiles(latencies, time.perf_counter_ns() - loop_start)
    return line("sqlite-rtree", len(records), build, first, stats, found, f" batch_ns_per_point={stats['mean_ns']}")


def main():
    args = sys.argv[1:]
    limit = None
    if "--limit" in args:
        at = args.index("--limit")
        limit = int(args[at + 1])
        del args[at:at + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    ensure_scipy()
    with open(args[0], encoding="utf-8") as f:
        records = [(c["_id"], float(c["coord"]["lat"]), float(c["coord"]["lon"])) for c in json.load(f)]
    with open(args[1], encoding="utf-8") as f:
        points = [tuple(float(x) for x in l.split(",")) for l in f.read().split("\n") if l]
    if limit:
        points = points[:limit]
    print(ckdtree(records, points, 10), flush=True)
    print(rtree(records, points, 10), flush=True)


if __name__ == "__main__":
    main()
