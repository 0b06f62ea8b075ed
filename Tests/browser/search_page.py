#!/usr/bin/env python3
"""The search page of `mmsearch serve` in a real browser: Debian's chromium, driven by Playwright for
Python with the system chromium (no browser download). Types "münch", expects Munich first, presses
Down and Enter and expects the OpenStreetMap link; a city named "<b>x</b>" must show as text. Saves
a screenshot. Then, with a position granted to the browser (Augsburg), "Near me" on: the rows and
their distances must be /search's with that point as `near`, for a prefix and for the empty box (the
nearest cities). No network: the OpenStreetMap page is answered by the test itself.

usage: Tests/browser/search_page.py MMSEARCH_BINARY SCREENSHOT.png
exit status: 0 passed, 1 failed, 77 skipped (no chromium or no playwright: said on standard error).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
import json

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from serve_process import served  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

try:
    from playwright.sync_api import sync_playwright, expect
except ImportError:
    print("search_page.py: skipped: Playwright for Python is not installed (pip install playwright)", file=sys.stderr)
    sys.exit(77)
if not os.path.exists(CHROMIUM):
    print("search_page.py: skipped: no chromium (apt-get install chromium)", file=sys.stderr)
    sys.exit(77)


def dump_row(geonameid, name, alternates, lat, lon, country, population):
    """One GeoNames row: 19 tab-separated columns."""
    return "\t".join([str(geonameid), name, name, alternates, lat, lon, "P", "PPL", country, "", "01", "", "", "",
                      str(population), "", "", "Europe/Berlin", "2024-01-01"])


FIXTURE = [
    dump_row(2867714, "Munich", "München,Muenchen", "48.13743", "11.57549", "DE", 1260391),
    dump_row(2659551, "Münchenstein", "", "47.51", "7.62", "CH", 11644),
    dump_row(2867613, "Münchberg", "", "50.19", "11.79", "DE", 10328),
    dump_row(2867543, "Münchenbernsdorf", "", "50.82", "11.93", "DE", 2970),
    dump_row(9000001, "<b>x</b>", "<img src=x onerror=alert(1)>", "1", "2", "XX", 5),
    dump_row(2954172, "Augsburg", "", "48.37154", "10.89851", "DE", 259196),
    dump_row(2861650, "Nuremberg", "Nürnberg", "49.45421", "11.07752", "DE", 499237),
    dump_row(2895992, "Ingolstadt", "", "48.76508", "11.42372", "DE", 120658),
]
# Where the browser says it is for "Near me": Augsburg's town hall.
POSITION = {"latitude": 48.3689, "longitude": 10.8978}


def search(url, **parameters):
    """/search's answer, asked directly."""
    with urllib.request.urlopen(url + "search?" + urllib.parse.urlencode(parameters), timeout=5) as response:
        return json.load(response)


def check_rows(page, answer):
    """The page's rows are `answer`'s results in order, each with its distance (to 0.1 km)."""
    rows = page.locator("#results li")
    expect(rows).to_have_count(len(answer["results"]))
    for row, city in zip(rows.all(), answer["results"]):
        expect(row.locator(".name")).to_have_text(city["name"])
        where = row.locator(".where").inner_text()
        shown = re.search(r"([0-9]+\.[0-9]) km$", where)
        assert shown, f"no distance in {where!r}"
        assert abs(float(shown.group(1)) - city["distance_km"]) <= 0.05 + 1e-9, f"{where!r} against {city['distance_km']}"


def check_near_me(browser, url):
    """"Near me" with a granted position: prefix and empty box answered as /search near it."""
    context = browser.new_context(viewport={"width": 390, "height": 700}, geolocation=POSITION, permissions=["geolocation"])
    page = context.new_page()
    page.set_default_timeout(5000)
    page.goto(url)
    near = page.locator("#near")
    expect(near).to_have_attribute("aria-pressed", "false")
    point = f"{POSITION['latitude']},{POSITION['longitude']}"
    box = page.locator("#q")
    box.press_sequentially("münch", delay=40)
    expect(page.locator("#count")).to_have_text("4 matches")
    # Switched on: the same prefix near Augsburg, each row with its distance.
    with page.expect_response(re.compile(r".*/search\?.*near=")) as asked:
        near.click()
    expect(near).to_have_attribute("aria-pressed", "true")
    assert f"near={point}" in urllib.parse.unquote(asked.value.url), asked.value.url
    check_rows(page, search(url, limit=20, q="münch", near=point))
    # The empty box: the nearest cities, nearest first (Augsburg itself, then the rest).
    box.fill("")
    expected = search(url, limit=20, q="", order="distance", near=point)
    assert expected["results"][0]["name"] == "Augsburg", expected
    check_rows(page, expected)
    expect(page.locator("#count")).to_have_text(f"The {len(expected['results'])} nearest of {expected['count']} cities")
    # Switched off: no distances any more.
    box.fill("münch")
    near.click()
    expect(near).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#count")).to_have_text("4 matches")
    expect(page.locator("#results li").first).not_to_contain_text(" km")
    context.close()


def main():
    mmsearch, screenshot = sys.argv[1], sys.argv[2]
    os.makedirs(os.path.dirname(os.path.abspath(screenshot)), exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="mmsearch-browser-") as directory:
        dump = os.path.join(directory, "dump.txt")
        with open(dump, "w", encoding="utf-8") as file:
            file.write("\n".join(FIXTURE) + "\n")
        index = os.path.join(directory, "cities.mms")
        subprocess.run([mmsearch, "build", dump, "-o", index], check=True, capture_output=True, timeout=60)
        with served(mmsearch, index, "search_page.py") as (_, address):
            url = f"http://{address}/"
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
                page = browser.new_page(viewport={"width": 390, "height": 700})  # a phone's width
                page.set_default_timeout(5000)
                # Nothing leaves the machine: the OpenStreetMap page is a stand-in.
                page.route(re.compile(r"^https://www\.openstreetmap\.org/.*"),
                           lambda route: route.fulfill(status=200, content_type="text/html", body="<title>OSM</title>"))
                page.goto(url)
                box = page.locator("#q")
                expect(box).to_be_focused()
                box.press_sequentially("münch", delay=40)
                rows = page.locator("#results li")
                expect(page.locator("#count")).to_have_text("4 matches")
                expect(rows.first.locator(".name")).to_have_text("Munich")
                expect(rows.first).to_contain_text("DE")
                expect(rows.first).to_contain_text("population 1,260,391")
                page.screenshot(path=screenshot, full_page=True)

                # Markup in names is text: "<b>x</b>" shown as typed, no element made from it.
                box.fill("<b")
                expect(rows.first.locator(".name")).to_have_text("<b>x</b>")
                assert page.locator("#results b").count() == 0, "a name was put in the page as markup"
                assert page.locator("#results img").count() == 0, "a name was put in the page as markup"
                box.fill("")
                expect(rows).to_have_count(0)

                # One match is "1 match"; one found by allowing a typo says so, as the terminal does.
                box.fill("münchb")
                expect(page.locator("#count")).to_have_text("1 match")
                box.fill("munihc")
                expect(page.locator("#count")).to_have_text("1 match, with 1 typo")
                expect(rows.first.locator(".name")).to_have_text("Munich")
                box.fill("")
                expect(rows).to_have_count(0)

                # A stale answer never replaces a newer one: the answer to "m" is held back until the
                # answer to "münch" is shown, then let through.
                held = []
                page.route(re.compile(r".*/search\?limit=20&q=m$"), lambda route: held.append(route))
                box.press_sequentially("m", delay=40)
                page.wait_for_timeout(200)
                box.press_sequentially("ünch", delay=40)
                expect(page.locator("#count")).to_have_text("4 matches")
                assert len(held) == 1, f"{len(held)} requests for \"m\" held"
                held[0].fulfill(status=200, content_type="application/json",
                                body='{"query": "m", "count": 999, "offset": 0, "results": []}')
                page.wait_for_timeout(300)
                expect(page.locator("#count")).to_have_text("4 matches")
                expect(rows.first.locator(".name")).to_have_text("Munich")

                # Down selects Munich, Enter goes to its OpenStreetMap page.
                box.press("ArrowDown")
                expect(rows.first).to_have_attribute("aria-selected", "true")
                with page.expect_navigation():
                    box.press("Enter")
                assert page.url.startswith("https://www.openstreetmap.org/?mlat=48.13743&mlon=11.57549"), page.url
                check_near_me(browser, url)
                browser.close()

    print(f"search_page.py: passed; screenshot in {screenshot}")


if __name__ == "__main__":
    started = time.monotonic()
    main()
