import Foundation
import MMSearchTestSupport
import Testing

/// `query --format text|json|jsonl|tsv|geojson`, and `get` in the same formats.
@Suite struct OutputFormatTests {
    /// A name with a tab, a quote and a backslash, to see each format escape it.
    static let list = """
        [{"_id":1,"name":"Alabama","country":"US","coord":{"lon":-86.75,"lat":32.75}},
         {"_id":2,"name":"Albuquerque","country":"US","coord":{"lon":-106.651138,"lat":35.084492}},
         {"_id":5,"name":"Sydney","country":"AU","coord":{"lon":151.207321,"lat":-33.867851}},
         {"_id":9,"name":"Odd\\tname \\"q\\" \\\\","country":"","coord":{"lon":0,"lat":-0.5}}]
        """

    static func directory() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try Data(list.utf8).write(to: URL(fileURLWithPath: directory.file("list.json")))
        let build = try MMSearchProcess.run(["build", directory.file("list.json"), "-o", directory.file("cities.mms")])
        #expect(build.status == 0, "build failed: \(build.error)")
        return directory
    }

    static func query(_ directory: TemporaryDirectory, _ arguments: [String], input: String? = nil) throws -> MMSearchProcess.Outcome {
        try MMSearchProcess.run(["query", "--index", directory.file("cities.mms")] + arguments, input: input)
    }

    static func json(_ line: some StringProtocol) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(line.utf8))
    }

    @Test func textAndJSONKeepTheirContract() throws {
        let directory = try Self.directory()
        defer { directory.remove() }
        let text = try Self.query(directory, ["--format", "text", "al"])
        #expect(text.output == "Alabama, US  32.75, -86.75  1\nAlbuquerque, US  35.084492, -106.651138  2\n2 matches\n")
        let json = try Self.query(directory, ["--format", "json", "--limit", "1", "s"])
        let legacy = try Self.query(directory, ["--json", "--limit", "1", "s"])
        #expect(json.output == #"{"query": "s", "count": 1, "offset": 0, "typos": 0, "results": [{"id": 5, "name": "Sydney", "country": "AU", "lat": -33.867851, "lon": 151.207321}]}"# + "\n")
        #expect(legacy.output == json.output)
        #expect(try Self.query(directory, ["--json", "--format", "json", "s"]).status == 0)
    }

    @Test func jsonlIsOneObjectPerCityWithoutACount() throws {
        let directory = try Self.directory()
        defer { directory.remove() }
        let result = try Self.query(directory, ["--format", "jsonl", ""])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 4)
        let objects = try lines.map { try Self.json($0) as! [String: Any] }
        #expect(objects.map { $0["id"] as! Int } == [1, 2, 9, 5])
        #expect(objects[2]["name"] as? String == "Odd\tname \"q\" \\" && objects[2]["country"] as? String == "")
        #expect(objects[2]["lat"] as? Double == -0.5)
        #expect(try Self.query(directory, ["--format", "jsonl", "zz"]).output == "")
    }

    @Test func tsvHasAHeaderAndEscapedFields() throws {
        let directory = try Self.directory()
        defer { directory.remove() }
        let result = try Self.query(directory, ["--format", "tsv", "o"])
        #expect(result.output == "id\tname\tcountry\tlat\tlon\tregion\n9\tOdd\\tname \"q\" \\\\\t\t-0.5\t0\t\n")
        // Standard input: the header once, then every query's rows.
        let many = try Self.query(directory, ["--format", "tsv", "-"], input: "al\nzz\ns\n")
        #expect(many.output == "id\tname\tcountry\tlat\tlon\tregion\n1\tAlabama\tUS\t32.75\t-86.75\t\n2\tAlbuquerque\tUS\t35.084492\t-106.651138\t\n5\tSydney\tAU\t-33.867851\t151.207321\t\n")
        for row in many.output.split(separator: "\n") { #expect(row.split(separator: "\t", omittingEmptySubsequences: false).count == 6) }
    }

    /// RFC 7946: a FeatureCollection of Features with Point geometry, [longitude, latitude].
    @Test func geoJSONIsAFeatureCollectionOfPoints() throws {
        let directory = try Self.directory()
        defer { directory.remove() }
        let result = try Self.query(directory, ["--format", "geojson", "a"])
        #expect(result.status == 0)
        #expect(result.output.hasSuffix("}\n") && result.output.split(separator: "\n").count == 1)
        let collection = try Self.json(result.output) as! [String: Any]
        #expect(Set(collection.keys) == ["type", "features"])
        #expect(collection["type"] as? String == "FeatureCollection")
        let features = collection["features"] as! [[String: Any]]
        #expect(features.count == 2)
        for feature in features {
            #expect(Set(feature.keys) == ["type", "geometry", "properties"])
            #expect(feature["type"] as? String == "Feature")
            let geometry = feature["geometry"] as! [String: Any]
            #expect(geometry["type"] as? String == "Point")
            #expect((geometry["coordinates"] as! [Double]).count == 2)
        }
        let alabama = features[0]
        #expect((alabama["geometry"] as! [String: Any])["coordinates"] as! [Double] == [-86.75, 32.75])
        let properties = alabama["properties"] as! [String: Any]
        #expect(properties["id"] as? Int == 1 && properties["name"] as? String == "Alabama" && properties["country"] as? String == "US")
        // The coordinates are the list's decimal text, digit for digit.
        #expect(result.output.contains("[-106.651138, 35.084492]"))
        // No matches: an empty collection. Standard input: one collection a query, a line each.
        #expect(try Self.query(directory, ["--format", "geojson", "zz"]).output == #"{"type": "FeatureCollection", "features": []}"# + "\n")
        let many = try Self.query(directory, ["--format", "geojson", "-"], input: "al\ns\n")
        let counts = try many.output.split(separator: "\n").map { ((try Self.json($0) as! [String: Any])["features"] as! [Any]).count }
        #expect(counts == [2, 1])
    }

    @Test func badFormatsAreUsageErrors() throws {
        let directory = try Self.directory()
        defer { directory.remove() }
        for arguments in [["--format", "xml", "a"], ["--json", "--format", "tsv", "a"], ["--format"]] {
            let result = try Self.query(directory, arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.error.contains("--format") || result.error.contains("--json"))
        }
    }

    @Test func getPrintsEachFormat() throws {
        let directory = try Self.directory()
        defer { directory.remove() }
        func get(_ arguments: [String]) throws -> MMSearchProcess.Outcome {
            try MMSearchProcess.run(["get", "--index", directory.file("cities.mms")] + arguments)
        }
        #expect(try get(["5", "1"]).output == "Sydney, AU  -33.867851, 151.207321  5\nAlabama, US  32.75, -86.75  1\n")
        let json = try Self.json(try get(["--format", "json", "2", "5"]).output) as! [[String: Any]]
        #expect(json.map { $0["id"] as! Int } == [2, 5])
        #expect(try get(["--format", "jsonl", "2", "5"]).output.split(separator: "\n").count == 2)
        #expect(try get(["--format", "tsv", "9"]).output == "id\tname\tcountry\tlat\tlon\tregion\n9\tOdd\\tname \"q\" \\\\\t\t-0.5\t0\t\n")
        let geojson = try Self.json(try get(["--format", "geojson", "1", "2", "5"]).output) as! [String: Any]
        #expect((geojson["features"] as! [Any]).count == 3)
    }
}
