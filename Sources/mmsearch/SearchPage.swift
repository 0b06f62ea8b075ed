/// The page `serve` answers `/` with: one self-contained HTML file (no external script, font or
/// image), a search box that asks `/search` on every keystroke. Every name is put in the page as text
/// (`textContent`), never as markup; an answer older than the one shown is dropped. A "Near me" switch
/// asks the browser for its position and passes it as `near`: the cities near it first, each with its
/// distance, and with the box empty the nearest cities.
enum SearchPage {
    static let bytes: [UInt8] = Array(html.utf8)

    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>mmsearch</title>
        <style>
          :root { color-scheme: light dark; --accent: #2a6df4; }
          * { box-sizing: border-box; }
          body { font: 16px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0 auto; padding: 1rem; max-width: 40rem; }
          h1 { font-size: 1.1rem; margin: 0 0 .75rem; font-weight: 600; }
          .bar { display: flex; gap: .5rem; }
          input { flex: 1; min-width: 0; font: inherit; font-size: 1.15rem; padding: .6rem .75rem; border: 2px solid #888; border-radius: .5rem; }
          input:focus { outline: none; border-color: var(--accent); }
          #near { font: inherit; font-size: .95rem; padding: 0 .75rem; border: 2px solid #888; border-radius: .5rem; background: transparent; color: inherit; cursor: pointer; white-space: nowrap; }
          #near[aria-pressed="true"] { background: var(--accent); border-color: var(--accent); color: #fff; }
          #near:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
          #count { margin: .5rem .25rem; color: #777; font-size: .9rem; min-height: 1.3em; }
          ol { list-style: none; margin: 0; padding: 0; }
          li a { display: block; padding: .45rem .75rem; border-radius: .4rem; color: inherit; text-decoration: none; }
          li a:hover { background: rgba(127, 127, 127, .12); }
          li[aria-selected="true"] a { background: var(--accent); color: #fff; }
          .name { font-weight: 600; }
          .matched { opacity: .75; }
          .where { display: block; font-size: .85rem; opacity: .8; overflow-wrap: anywhere; }
          .error { color: #c33; }
        </style>
        </head>
        <body>
        <h1>mmsearch: cities by name, as you type</h1>
        <div class="bar">
        <input id="q" type="search" autocomplete="off" autofocus spellcheck="false" placeholder="Type a city's name, e.g. münch"
               role="combobox" aria-controls="results" aria-expanded="false" aria-label="City name">
        <button id="near" type="button" aria-pressed="false" title="Cities near your position first (the browser asks to share it)">Near me</button>
        </div>
        <div id="count" aria-live="polite">Type the start of a city's name.</div>
        <ol id="results" role="listbox"></ol>
        <script>
        "use strict";
        const input = document.getElementById("q");
        const count = document.getElementById("count");
        const list = document.getElementById("results");
        const nearButton = document.getElementById("near");
        let here = null;    // "LAT,LON" while "Near me" is on, else null
        let asked = 0;      // the number of the latest question asked
        let shown = 0;      // the number of the question whose answer is shown
        let selected = -1;  // the highlighted row, -1 for none

        function element(tag, className, text) {
          const made = document.createElement(tag);
          if (className) made.className = className;
          if (text !== undefined) made.textContent = text;  // text, never markup
          return made;
        }

        function osmLink(city) {
          return "https://www.openstreetmap.org/?mlat=" + city.lat + "&mlon=" + city.lon + "#map=12/" + city.lat + "/" + city.lon;
        }

        function select(row) {
          const rows = list.children;
          if (rows.length === 0) { selected = -1; return; }
          selected = Math.max(0, Math.min(rows.length - 1, row));
          for (let i = 0; i < rows.length; i++) rows[i].setAttribute("aria-selected", i === selected ? "true" : "false");
          input.setAttribute("aria-activedescendant", rows[selected].id);
          rows[selected].scrollIntoView({ block: "nearest" });
        }

        function show(answer) {
          list.replaceChildren();
          selected = -1;
          input.removeAttribute("aria-activedescendant");
          count.className = "";
          if (answer === null) {
            count.textContent = "Type the start of a city's name.";
            input.setAttribute("aria-expanded", "false");
            return;
          }
          const first = answer.results.length ? answer.offset + 1 : 0;
          count.textContent = answer.count === 0 ? (answer.query === "" ? "No city there." : "No city starts with that.")
            : answer.query === "" ? "The " + answer.results.length + " nearest of " + answer.count.toLocaleString("en-US") + " cities"
            : (answer.results.length < answer.count ? first + "–" + (answer.offset + answer.results.length) + " of " : "")
              + answer.count.toLocaleString("en-US") + (answer.count === 1 ? " match" : " matches")
              + (answer.typos ? ", with " + answer.typos + (answer.typos === 1 ? " typo" : " typos") : "");
          answer.results.forEach((city, row) => {
            const item = element("li");
            item.id = "result-" + row;
            item.setAttribute("role", "option");
            item.setAttribute("aria-selected", "false");
            const link = element("a");
            link.href = osmLink(city);
            link.append(element("span", "name", city.name));
            if (city.matched) link.append(" ", element("span", "matched", "(" + city.matched + ")"));
            const where = [city.region, city.country].filter(Boolean).join(", ");
            const population = city.population ? "population " + city.population.toLocaleString("en-US") : "";
            const distance = city.distance_km === undefined ? "" : city.distance_km.toFixed(1) + " km";
            link.append(element("span", "where", [where, population, distance].filter(Boolean).join(" · ")));
            link.addEventListener("mousemove", () => select(row));
            item.append(link);
            list.append(item);
          });
          input.setAttribute("aria-expanded", answer.results.length ? "true" : "false");
        }

        async function ask() {
          const query = input.value;
          const number = ++asked;
          if (query === "" && here === null) { shown = number; show(null); return; }
          let answer;
          try {
            // Near a point: those near it first; the empty query then lists the nearest.
            const near = here === null ? "" : (query === "" ? "&order=distance" : "") + "&near=" + here;
            const response = await fetch("search?limit=20&q=" + encodeURIComponent(query) + near);
            answer = await response.json();
            if (!response.ok) throw new Error(answer.error || "HTTP " + response.status);
          } catch (error) {
            if (number < shown) return;
            shown = number;
            show(null);
            count.className = "error";
            count.textContent = "Search failed: " + error.message;
            return;
          }
          if (number < shown) return;  // a newer answer is shown already
          shown = number;
          show(answer);
        }

        input.addEventListener("input", ask);
        // "Near me": the browser's position once each time it is switched on (the browser asks the
        // user first); off again forgets it.
        if (!navigator.geolocation) nearButton.disabled = true;
        nearButton.addEventListener("click", () => {
          if (here !== null) {
            here = null;
            nearButton.setAttribute("aria-pressed", "false");
            ask();
            return;
          }
          nearButton.textContent = "Locating…";
          navigator.geolocation.getCurrentPosition((position) => {
            here = position.coords.latitude + "," + position.coords.longitude;
            nearButton.textContent = "Near me";
            nearButton.setAttribute("aria-pressed", "true");
            ask();
            input.focus();
          }, (error) => {
            nearButton.textContent = "Near me";
            count.className = "error";
            count.textContent = "Your position is not available: " + error.message;
          }, { maximumAge: 60000, timeout: 15000 });
        });
        input.addEventListener("keydown", (event) => {
          if (event.key === "ArrowDown") { select(selected + 1); event.preventDefault(); }
          else if (event.key === "ArrowUp") { select(selected - 1); event.preventDefault(); }
          else if (event.key === "Enter") {
            const rows = list.children;
            if (rows.length === 0) return;
            window.location.href = rows[Math.max(0, selected)].querySelector("a").href;
            event.preventDefault();
          }
        });
        if (input.value) ask();
        </script>
        </body>
        </html>
        """#
}
