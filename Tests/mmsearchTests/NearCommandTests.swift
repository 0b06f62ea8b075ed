import Foundation
import MMSearchTestSupport
import Testing

/// `mmsearch near` and the distance every result carries near a point, compared with rank.py
/// (`--rules 4`, its "Geography") on a small dump: capitals on both sides of the 180th meridian,
/// both hemispheres, a point exactly on a city.
@Suite struct NearCommandTests {
    static let rows: [(id: Int, name: String, lat: String, lon: String, country: String, population: Int)] = [
        (1, "Paris", "48.85341", "2.3488", "FR", 2_138_551),
        (2, "London", "51.50853", "-0.12574", "GB", 8_961_989),
        (3, "Sydney", "-33.86785", "151.20732", "AU", 4_627_345),
        (4, "Suva", "-18.14161", "178.44149", "FJ", 77_366),
        (5, "Apia", "-13.83333", "-171.76666", "WS", 40_407),
        (6, "London", "42.98339", "-81.23304", "CA", 422_324),
        (7, "Paris", "33.66094", "-95.55551", "US", 24_171),
        (8, "Longyearbyen", "78.2186", "15.64007", "SJ", 2_060),
        (9, "McMurdo", "-77.846", "166.676", "AQ", 0),
    ]

    static func dump(in directory: TemporaryDirectory) throws -> String {
        let path = directory.file("dump.txt")
        let text = rows.map { row in
            var columns = Array(repeating: "", count: 19)
            (columns[0], columns[1], columns[2], columns[4], columns[5]) = (String(row.id), row.name, row.name, row.lat, row.lon)
            (columns[6], columns[7], columns[8], columns[14]) = ("P", "PPL", row.country, String(row.population))
            return columns.joined(separator: "\t")
        }.joined(separator: "\n") + "\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// rank.py's answer (ids and distances) for `arguments` over the dump.
    static func rankPy(_ dump: String, _ arguments: [String]) throws -> (ids: [Int], distances: [Double], count: Int) {
        let run = try ExternalProcess.run("/usr/bin/env", ["python3", RealData.rankScript, "--list", dump, "--rules", "4"] + arguments, input: Data())
        #expect(run.status == 0, "rank.py \(arguments): \(run.error)")
        let object = try JSONSerialization.jsonObject(with: run.output) as! [String: Any]
        return (object["ids"] as! [Int], (object["distances"] as? [Double]) ?? [], object["count"] as! Int)
    }

    @Test func nearAnswersAsRankPyInDistanceOrder() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dump = try Self.dump(in: directory)
        let index = directory.file("cities.mms")
        #expect(try MMSearchProcess.run(["build", dump, "-o", index]).status == 0)
        // Points: on Paris exactly, Fiji (the 180th meridian close by, west and east), the poles, an ocean.
        let points = ["48.85341,2.3488", "-20,179", "-20,-179.5", "89.9,0", "-90,0", "0,-140", "42.98,-81.2"]
        for point in points {
            for filter in [[], ["--country", "US,gb"], ["--within", "\(point),5000"], ["--min-population", "50000"]] {
                let expected = try Self.rankPy(dump, ["--order", "distance", "--near=\(point)", "--limit", "4"] + filter.chunked() + [""])
                let run = try MMSearchProcess.run(["near", point, "--limit", "4", "--format", "json", "--index", index] + filter)
                #expect(run.status == 0, "\(point) \(filter): \(run.error)")
                let object = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as! [String: Any]
                let results = object["results"] as! [[String: Any]]
                #expect(object["count"] as? Int == expected.count, "\(point) \(filter)")
                #expect(results.map { $0["id"] as! Int } == expected.ids, "\(point) \(filter)")
                for (result, distance) in zip(results, expected.distances) {
                    #expect(abs((result["distance_km"] as! Double) - distance) < 0.0015, "\(point) \(filter): \(result)")
                }
            }
        }
    }

    @Test func everyFormatCarriesTheDistance() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let index = directory.file("cities.mms")
        #expect(try MMSearchProcess.run(["build", try Self.dump(in: directory), "-o", index]).status == 0)
        // A point exactly on Paris, France: 0.0 km; a latitude that starts with "-" is a value.
        let text = try MMSearchProcess.run(["near", "48.85341,2.3488", "--limit", "2", "--index", index])
        #expect(text.status == 0)
        let lines = text.output.split(separator: "\n")
        #expect(lines.first == "Paris, FR  48.85341, 2.3488  1  population 2138551  0.0 km", "\(text.output)")
        #expect(lines.count == 3 && lines[1].hasPrefix("London, GB  51.50853, -0.12574  2  population 8961989  ") && lines[1].hasSuffix(" km"))
        #expect(lines.last == "9 matches")
        let tsv = try MMSearchProcess.run(["query", "--index", index, "--near", "-33.87,151.21", "--format", "tsv", "--limit", "1", "syd"])
        #expect(tsv.output.hasPrefix("id\tname\tcountry\tlat\tlon\tregion\tdistance_km\n3\tSydney\tAU\t-33.86785\t151.20732\t\t0."), "\(tsv.output)")
        let geojson = try MMSearchProcess.run(["query", "--index", index, "--near=-33.87,151.21", "--format", "geojson", "--limit", "1", "syd"])
        #expect(geojson.output.contains("\"distance_km\": 0."), "\(geojson.output)")
        // Without a point, no distance anywhere.
        let plain = try MMSearchProcess.run(["query", "--index", index, "--format", "tsv", "syd"])
        #expect(plain.output.hasPrefix("id\tname\tcountry\tlat\tlon\tregion\n") && !plain.output.contains("distance"))
    }

    @Test func aBadPointIsAUsageErrorNamingIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let index = directory.file("cities.mms")
        #expect(try MMSearchProcess.run(["build", try Self.dump(in: directory), "-o", index]).status == 0)
        for bad in ["91,0", "0,181", "x,1", "1"] {
            let run = try MMSearchProcess.run(["near", bad, "--index", index])
            #expect(run.status == 2 && run.error.contains(bad) && run.output.isEmpty, "\(bad): \(run.error)")
        }
        let none = try MMSearchProcess.run(["near", "--index", index])
        #expect(none.status == 2 && none.error.contains("usage: mmsearch near"))
    }
}

private extension Array where Element == String {
    /// Option and value as one argument ("--within=-20,179,5000"): how rank.py takes a value that
    /// starts with "-".
    func chunked() -> [String] {
        stride(from: 0, to: count, by: 2).map { self[$0] + "=" + self[$0 + 1] }
    }
}
