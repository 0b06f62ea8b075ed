import MMSearch

enum QueryCommand: Command {
    static let usage = """
        usage: mmsearch query [--index PATH] [--data PATH] [--limit N] [--offset K] [--format FORMAT] PREFIX

        Prints the cities whose "name, country" starts with PREFIX, ignoring case and accents, in
        alphabetical order: one a line as `Name, CC  lat, lon  id`, then a line `N matches` with the
        total. PREFIX is used exactly as given (spaces included). PREFIX "-" reads queries from standard
        input, one a line (only the line break is removed), and answers each in turn.

        options:
          --index PATH      the index (default: $MMSEARCH_INDEX, else cities.mms in this directory)
          --data PATH       a city list to build the index from first, if the index does not exist
                            (default: $MMSEARCH_DATA)
          --limit N         print at most N results (default 20; 0 prints only the count)
          --offset K        skip the first K results (default 0)
          --format FORMAT   how to print the answer:
            text      (the default) a line a city as above, then `N matches`
            json      one JSON object a query, on one line:
                      {"query": "...", "count": N, "offset": K, "results": [{"id": ..., "name": "...",
                       "country": "..", "lat": ..., "lon": ...}, ...]}
            jsonl     one JSON object a city ({"id", "name", "country", "lat", "lon"}), a line each;
                      no count
            tsv       a header line `id name country lat lon` (tab-separated), then a row a city;
                      tabs, line breaks and backslashes in names are written \\t, \\n, \\r, \\\\
            geojson   one GeoJSON FeatureCollection of Point features ([lon, lat], properties id,
                      name, country) a query, on one line
          --json            the same as --format json

        With PREFIX "-", each query is answered in turn in the chosen format; the tsv header comes
        once, at the start.

        exit status: 0 on success (no matches included), 1 on a bad index or list, 2 on bad usage.
        """

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, valued: ["--index", "--data", "--limit", "--offset", "--format"], flagNames: ["--json"])
        guard parsed.positionals.count == 1 else { throw UsageError("expected one PREFIX (\"-\" reads them from standard input)") }
        let limit = try parsed.integer("--limit", default: 20, minimum: 0)
        let offset = try parsed.integer("--offset", default: 0, minimum: 0)
        let format = try ResultFormat(parsed)
        let index = try openIndex(path: parsed.value("--index"), data: parsed.value("--data"))
        var output = Output(.output)
        output.write(format.header)
        let prefix = parsed.positionals[0]
        if prefix == "-" {
            while let line = readLine(strippingNewline: true) {
                try answer(line, in: index, limit: limit, offset: offset, format: format, to: &output)
                output.flush()
            }
        } else {
            try answer(prefix, in: index, limit: limit, offset: offset, format: format, to: &output)
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

    /// Writes one query's page of results and its count.
    static func answer(_ query: String, in index: CityIndex, limit: Int, offset: Int, format: ResultFormat, to output: inout Output) throws {
        let results = try index.search(query)
        let page = min(offset, results.count) ..< min(offset.addingReportingOverflow(limit).partialValue, results.count)
        let cities = try results.cities(in: page)
        output.write(format.render(query: query, count: results.count, offset: offset, cities: cities))
    }
}
