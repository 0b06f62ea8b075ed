import MMSearch

enum GetCommand: Command {
    static let usage = """
        usage: mmsearch get [--index PATH] [--format FORMAT] ID...

        Prints the cities with the given ids (the list's "_id", what a favorites list stores), in the
        order asked; an id that the list repeats gives all its records, in alphabetical order.
        Each lookup is a binary search in the index's id-ordered section. An id with no city is
        reported on standard error and the others are still printed.

        options:
          --index PATH      the index (default: $MMSEARCH_INDEX, else cities.mms in this directory)
          --format FORMAT   text (the default: `Name, CC  lat, lon  id` a line), json (one array),
                            jsonl, tsv or geojson (one FeatureCollection); as for `query`

        exit status: 0 when every id was found, 1 when one was not (or on a bad index), 2 on bad usage.
        """

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, valued: ["--index", "--format"], flagNames: [])
        guard !parsed.positionals.isEmpty else { throw UsageError("expected at least one ID") }
        let ids = try parsed.positionals.map { (text) throws(UsageError) -> UInt32 in
            guard let id = UInt32(text) else { throw UsageError("an ID is a whole number from 0 to \(UInt32.max), not \"\(text)\"") }
            return id
        }
        let format = try ResultFormat(parsed)
        let index = try QueryCommand.openIndex(path: parsed.value("--index"), data: nil)
        var cities: [City] = []
        var unknown: [UInt32] = []
        for id in ids {
            let found = try index.cities(id: id)
            if found.isEmpty { unknown.append(id) }
            cities += found
        }
        var output = Output(.output)
        output.write(format.header() + format.render(cities: cities))
        output.flush()
        for id in unknown { Output.error("mmsearch get: no city with id \(id) in \(index.path)") }
        return unknown.isEmpty ? 0 : 1
    }
}
