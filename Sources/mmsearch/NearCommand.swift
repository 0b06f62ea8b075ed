import MMSearch

/// `mmsearch near LAT,LON`: the cities nearest a point, nearest first (a reverse lookup): the empty
/// query in distance order, as `mmsearch query --near LAT,LON --order distance ""` answers it.
enum NearCommand: Command {
    static let usage = """
        usage: mmsearch near [--index PATH] [--limit N] [--offset K] [--country CODES] [--bbox W,S,E,N]
                             [--within LAT,LON,KM] [--min-population N] [--format FORMAT] LAT,LON

        Prints the cities nearest the point LAT,LON (degrees; "-33.87,151.21" works as it is), nearest
        first (ties by id), each with its distance in km (haversine on a sphere of radius 6371.0088 km,
        as rank.py measures it), then how many cities there are to choose from. The filters (as for
        `query`) leave cities out: `--country US` the nearest in the US, `--within LAT,LON,KM` only
        those within KM of a point. The same as `mmsearch query --near LAT,LON --order distance ""`.

        options:
          --index PATH        the index (default: $MMSEARCH_INDEX, else cities.mms in this directory)
          --limit N           print at most N cities (default 10)
          --offset K          skip the first K (default 0)
          --country CODES     only cities of these countries (codes or ISO3 codes, comma-separated)
          --bbox W,S,E,N      only cities in this box (west > east crosses the 180th meridian)
          --within LAT,LON,KM only cities within KM of that point
          --min-population N  only cities of at least N people
          --format FORMAT     text (the default), json, jsonl, tsv or geojson, as for `query`, each
                              result with its distance ("distance_km" in JSON, a last TSV column)

        exit status: 0 on success, 1 on a bad index, 2 on bad usage (a bad point names it).
        """

    static func run(_ arguments: [String]) throws -> Int32 {
        let names = ["--index", "--limit", "--offset", "--format", "--country", "--bbox", "--within", "--min-population"]
        let parsed = try Arguments(arguments, valued: names, flagNames: ["--json"])
        guard parsed.positionals.count == 1 else { throw UsageError("expected one point LAT,LON") }
        var queryArguments = ["--near", parsed.positionals[0], "--order", "distance", "--limit", parsed.value("--limit") ?? "10"]
        for name in names where name != "--limit" {
            if let value = parsed.value(name) { queryArguments += [name, value] }
        }
        if parsed.has("--json") { queryArguments.append("--json") }
        return try QueryCommand.run(queryArguments + [""])
    }
}
