#!/usr/bin/env python3
"""geopy's Photon and Pelias geocoders (PyPI: geopy, a real and widely used geocoding library) pointed
at `mmsearch serve` on 127.0.0.1, as issue 21 tried them: a location bias, a bounding box, countries,
reverse lookups. Each answer must be the command line's (`mmsearch query --format json`, `mmsearch
near`) for the same question, city for city, in order. Pelias' `focus.point`, which geopy's Pelias
client does not send, is asked over plain HTTP beside it.

usage: Tests/clients/geopy_clients.py MMSEARCH_BINARY [INDEX]
       INDEX: an index with regions and country names; without it one is built from ../shared/data
       (the city list joined with cities500, admin1 codes and countries) in a temporary directory.
exit status: 0 passed, 1 failed, 77 skipped (geopy is not installed: said on standard error).
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from serve_process import served  # noqa: E402

try:
    from geopy.geocoders import Pelias, Photon
except ImportError:
    print("geopy_clients.py: skipped: geopy is not installed (pip install geopy)", file=sys.stderr)
    sys.exit(77)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "..", "shared", "data")
TIMEOUT = 20  # seconds for one answer: a debug build measures every city's distance in a reverse lookup


def build_index(mmsearch, directory):
    index = os.path.join(directory, "cities.mms")
    subprocess.run([mmsearch, "build", os.path.join(DATA, "city.list.json"), "--geonames", os.path.join(DATA, "cities500.txt.gz"),
                    "--admin1", os.path.join(DATA, "admin1CodesASCII.txt"), "--countries", os.path.join(DATA, "countryInfo.txt"),
                    "-o", index], check=True, capture_output=True, timeout=300)
    return index


class Checks:
    def __init__(self, mmsearch, index):
        self.mmsearch, self.index = mmsearch, index
        self.failures, self.passed = [], 0

    def cli(self, *arguments):
        """The results of `mmsearch ARGUMENTS --index INDEX --format json`."""
        run = subprocess.run([self.mmsearch, *arguments, "--index", self.index, "--format", "json"],
                             capture_output=True, text=True, timeout=TIMEOUT)
        if run.returncode != 0:
            raise AssertionError(f"mmsearch {' '.join(arguments)}: {run.stderr}")
        return json.loads(run.stdout)["results"]

    def expect(self, what, condition, detail=""):
        if condition:
            self.passed += 1
        else:
            self.failures.append(f"{what}: {detail}")

    def same_cities(self, what, locations, expected, id_of):
        """`locations` (geopy's answer, one or a list) are `expected` (the command line's), in order."""
        if not isinstance(locations, list):
            locations = [] if locations is None else [locations]
        got = [id_of(location.raw) for location in locations]
        want = [city["id"] for city in expected]
        self.expect(what, got == want and want, f"geopy got {got}, the command line {want}")
        for location, city in zip(locations, expected):
            self.expect(what + " coordinates", (round(location.latitude, 6), round(location.longitude, 6)) == (city["lat"], city["lon"]),
                        f"{location.point} against {city['lat']}, {city['lon']}")


def photon_id(raw):
    return raw["properties"]["id"]


def pelias_id(raw):
    return int(raw["properties"]["id"])


def check_photon(checks, address):
    photon = Photon(domain=address, scheme="http", timeout=TIMEOUT)
    # The bias: Springfield, Ohio from Columbus (issue 21: Missouri, Massachusetts, Illinois came first).
    answer = photon.geocode("springfield", location_bias=(39.98, -82.98), exactly_one=False, limit=5)
    checks.same_cities("Photon springfield near Columbus", answer, checks.cli("query", "--near", "39.98,-82.98", "--limit", "5", "springfield"), photon_id)
    checks.expect("Photon springfield near Columbus is in Ohio", answer and answer[0].raw["properties"].get("state") == "Ohio", answer and answer[0].raw)
    # The box: Paris, Texas inside a box around Texas (issue 21: Paris, France came first).
    answer = photon.geocode("paris", bbox=[(30, -100), (36, -90)])
    checks.same_cities("Photon paris in a box", answer, checks.cli("query", "--bbox", "-100,30,-90,36", "--limit", "1", "paris"), photon_id)
    checks.expect("Photon paris in a box is in Texas", answer and "Texas" in answer.address, answer and answer.address)
    # No bias: the biggest first, as query ranks them.
    answer = photon.geocode("springfield", exactly_one=False, limit=3)
    checks.same_cities("Photon springfield", answer, checks.cli("query", "--limit", "3", "springfield"), photon_id)
    # Reverse (issue 21: a 404): the nearest city, and the three nearest across the 180th meridian.
    answer = photon.reverse((48.85, 2.35))
    checks.same_cities("Photon reverse Paris", answer, checks.cli("near", "48.85,2.35", "--limit", "1"), photon_id)
    checks.expect("Photon reverse Paris names Paris", answer and answer.address.startswith("Paris, "), answer and answer.address)
    answer = photon.reverse((-17.8, 179.99), exactly_one=False, limit=3)
    checks.same_cities("Photon reverse Fiji", answer, checks.cli("near", "-17.8,179.99", "--limit", "3"), photon_id)


def check_pelias(checks, address):
    pelias = Pelias(domain=address, scheme="http", timeout=TIMEOUT)
    # Countries: London restricted to the US (ISO3, as geopy documents it).
    answer = pelias.geocode("london", countries=["USA"], exactly_one=False)
    expected = checks.cli("query", "--country", "USA", "--limit", "10", "london")
    checks.same_cities("Pelias london in the USA", answer, expected, pelias_id)
    for location, city in zip(answer or [], expected):
        properties = location.raw["properties"]
        checks.expect("Pelias country_a", properties.get("country_a") == "USA" and properties.get("layer") == "locality", properties)
        label = ", ".join(part for part in [city["name"], city.get("region"), "United States"] if part)
        checks.expect("Pelias label", properties.get("label") == label, f"{properties.get('label')!r} against {label!r}")
    # A box.
    answer = pelias.geocode("paris", boundary_rect=[(30, -100), (36, -90)], exactly_one=False)
    checks.same_cities("Pelias paris in a box", answer, checks.cli("query", "--bbox", "-100,30,-90,36", "--limit", "10", "paris"), pelias_id)
    # Reverse: ten by default, each with its distance.
    answer = pelias.reverse((48.85, 2.35), exactly_one=False)
    expected = checks.cli("near", "48.85,2.35", "--limit", "10")
    checks.same_cities("Pelias reverse Paris", answer, expected, pelias_id)
    for location, city in zip(answer or [], expected):
        checks.expect("Pelias reverse distance", location.raw["properties"].get("distance") == city["distance_km"], (location.raw["properties"], city))
    # focus.point (geopy's Pelias client has no parameter for it): London, Ontario from nearby.
    query = urllib.parse.urlencode({"text": "london", "size": 3, "focus.point.lat": 43.0, "focus.point.lon": -81.2})
    with urllib.request.urlopen(f"http://{address}/v1/autocomplete?{query}", timeout=TIMEOUT) as response:
        features = json.load(response)["features"]
    expected = checks.cli("query", "--near", "43.0,-81.2", "--limit", "3", "london")
    checks.expect("Pelias focus.point", [int(f["properties"]["id"]) for f in features] == [c["id"] for c in expected],
                  f"{[f['properties']['label'] for f in features]} against {[c['name'] for c in expected]}")
    checks.expect("Pelias focus.point is London, Ontario", features and features[0]["properties"]["label"] == "London, Ontario, Canada", features[:1])


def main():
    if len(sys.argv) not in (2, 3):
        raise SystemExit(__doc__)
    started = time.monotonic()
    mmsearch = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="mmsearch-geopy-") as directory:
        index = sys.argv[2] if len(sys.argv) == 3 else build_index(mmsearch, directory)
        checks = Checks(mmsearch, index)
        with served(mmsearch, index, "geopy_clients.py") as (_, address):
            check_photon(checks, address)
            check_pelias(checks, address)
    for failure in checks.failures:
        print(f"geopy_clients.py: FAILED {failure}", file=sys.stderr)
    seconds = time.monotonic() - started
    if checks.failures:
        print(f"geopy_clients.py: {len(checks.failures)} of {len(checks.failures) + checks.passed} checks failed ({seconds:.1f} s)", file=sys.stderr)
    else:
        print(f"geopy_clients.py: passed ({checks.passed} checks, {seconds:.1f} s)")
    sys.exit(1 if checks.failures else 0)


if __name__ == "__main__":
    main()
