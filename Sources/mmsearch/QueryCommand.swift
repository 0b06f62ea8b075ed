import MMSearch

enum QueryCommand: Command {
    static let usage = """
        usage: mmsearch query [--index PATH] [--data PATH] [--match words|name] [--order rank|name|distance]
                              [--typos on|off] [--limit N] [--offset K] [--format FORMAT]
                              [--near LAT,LON [--near-km H]] [--country CODES] [--bbox W,S,E,N]
                              [--within LAT,LON,KM] [--min-population N] PREFIX

        Prints the cities that PREFIX finds, ignoring case and accents: by default every city with a
        name (its own or another, such as München for Muenchen) or a word of a name that starts with
        PREFIX, biggest first. In an index built with regions or countries, "Name, Qualifier" finds a
        city by its name and its region, country or their codes too ("portland, or", "paris texas").
        When nothing matches, names within a typo of PREFIX match (two typos from 8 characters).
        One a line as `Name, Region, CC (matched name)  lat, lon  id  population N` (the region where
        the city has one, the matched name only when it is not the city's own, the population only
        when the index has them), then a line `N matches` with the exact total (`N matches, with 1
        typo` when typos were allowed). PREFIX is used exactly as given (spaces included). PREFIX "-"
        reads queries from standard input, one a line (only the line break is removed), and answers
        each in turn.

        options:
          --index PATH      the index (default: $MMSEARCH_INDEX, else cities.mms in this directory)
          --data PATH       a city list to build the index from first, if the index does not exist
                            (default: $MMSEARCH_DATA)
          --match MODE      words (the default): a name, or a word inside a name, starts with PREFIX;
                            name: a name starts with PREFIX ("york" then misses New York)
          --order ORDER     rank (the default): population times how well the name matched, names
                            before words; name: alphabetical by folded name and country
          --typos on|off    on (the default): when nothing matches, allow one typo from 4 characters
                            (a character added, dropped, replaced, or two swapped; never the first),
                            two from 8; off: only what matches as typed
          --near LAT,LON    rank cities near this point first: a city at the point counts as if 1001
                            times bigger, and that boost halves every --near-km H km (default 100);
                            every result then ends with its distance (`  12.3 km`; JSON "distance_km")
          --order distance  with --near: nearest first, then by id (PREFIX "" gives the nearest cities)
          --country CODES   only cities of these countries: codes or ISO3 codes, comma-separated
          --bbox W,S,E,N    only cities in this box (min lon, min lat, max lon, max lat; W > E crosses
                            the 180th meridian)
          --within LAT,LON,KM  only cities within KM of that point
          --min-population N   only cities of at least N people
                            (the filters apply before the count, the typo fallback and every page;
                            a value may start with "-": --near -33.87,151.21)
          --limit N         print at most N results (default 20; 0 prints only the count)
          --offset K        skip the first K results (default 0)
          --format FORMAT   how to print the answer:
            text      (the default) a line a city as above, then `N matches`
            json      one JSON object a query, on one line:
                      {"query": "...", "count": N, "offset": K, "typos": T, "results": [{"id": ...,
                       "name": "...", "country": "..", "lat": ..., "lon": ..., "region": "...",
                       "population": ..., "matched": "..."}, ...]}
                      ("typos" 0, or 1 or 2 when typos were allowed; "region" where the city has
                      one, "population" where the index has populations, "matched" where the city
                      was found by another name than its own)
            jsonl     one JSON object a city (as in json's results), a line each; no count
            tsv       a header line `id name country lat lon region` (tab-separated; with --near
                      also `distance_km`), then a row a city; tabs, line breaks and backslashes in
                      names are written \\t, \\n, \\r, \\\\
            geojson   one GeoJSON FeatureCollection of Point features ([lon, lat], properties id,
                      name, country, and region, population, matched as in json) a query, on one line
          --json            the same as --format json

        With PREFIX "-", each query is answered in turn in the chosen format; the tsv header comes
        once, at the start.

        exit status: 0 on success (no matches included), 1 on a bad index or list, 2 on bad usage.
        """

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, valued: ["--index", "--data", "--limit", "--offset", "--format", "--match", "--order", "--typos"] + GeoOptions.commandLineNames, flagNames: ["--json"])
        guard parsed.positionals.count == 1 else { throw UsageError("expected one PREFIX (\"-\" reads them from standard input)") }
        let limit = try parsed.integer("--limit", default: 20, minimum: 0)
        let offset = try parsed.integer("--offset", default: 0, minimum: 0)
        let format = try ResultFormat(parsed)
        let mode = try searchMode(parsed)
        let geo = try GeoOptions(parsed, order: mode.order)
        let index = try openIndex(path: parsed.value("--index"), data: parsed.value("--data"))
        var output = Output(.output)
        output.write(format.header(withDistance: geo.near != nil))
        let prefix = parsed.positionals[0]
        if prefix == "-" {
            while let line = readLine(strippingNewline: true) {
                try answer(line, in: index, mode: mode, geo: geo, limit: limit, offset: offset, format: format, to: &output)
                output.flush()
            }
        } else {
            try answer(prefix, in: index, mode: mode, geo: geo, limit: limit, offset: offset, format: format, to: &output)
        }
        output.flush()
        return 0
    }

    /// The index to search: `path`, else $MMSEARCH_INDEX, else ./cities.mms; built first from `data`
    /// (or $MMSEARCH_DATA) when it does not exist yet.
    static func openIndex(path: String?, data: String?) throws -> CityIndex {
        let indexPath = path ?? SystemCall.environment("MMSEARCH_INDEX") ?? "cities.mms"
        if !SystemCall.exists(indexPath) {
            guard let list = data ?? SystemCall.environment("MMSEARCH_DATA") else {
                throw UsageError("no index at \(indexPath); build one with `mmsearch build city.list.json -o \(indexPath)`, or name a city list with --data PATH (or $MMSEARCH_DATA) to build it on first use")
            }
            Output.error("mmsearch: no index at \(indexPath) yet; building it from \(list)")
            try BuildCommand.build(input: list, output: indexPath)
        }
        return try CityIndex(path: indexPath)
    }

    /// How a query is matched, ordered, and allowed typos: `--match`, `--order` and `--typos`.
    struct SearchMode {
        var match: MatchMode
        var order: ResultOrder
        var typos: Typos
    }

    /// `--match`, `--order` and `--typos`, each defaulting to the library's default.
    static func searchMode(_ arguments: Arguments) throws(UsageError) -> SearchMode {
        let matchText = arguments.value("--match") ?? MatchMode.words.rawValue
        let orderText = arguments.value("--order") ?? ResultOrder.rank.rawValue
        let typosText = arguments.value("--typos") ?? Typos.on.rawValue
        guard let match = MatchMode(rawValue: matchText) else {
            throw UsageError("--match takes one of \(MatchMode.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(matchText)\"")
        }
        guard let order = ResultOrder(rawValue: orderText) else {
            throw UsageError("--order takes one of \(ResultOrder.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(orderText)\"")
        }
        guard let typos = Typos(rawValue: typosText) else {
            throw UsageError("--typos takes one of \(Typos.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(typosText)\"")
        }
        return SearchMode(match: match, order: order, typos: typos)
    }

    /// Writes one query's page of results and its count.
    static func answer(_ query: String, in index: CityIndex, mode: SearchMode, geo: GeoOptions = GeoOptions(), limit: Int, offset: Int, format: ResultFormat, to output: inout Output) throws {
        let page = try CitySearch(query: query, mode: mode, geo: geo, limit: limit, offset: offset).run(in: index)
        output.write(format.render(query: query, count: page.count ?? 0, offset: offset, typos: page.typos, cities: page.cities))
    }
}
