import Foundation
import MMSearch
import MMSearchTestSupport
import Testing

/// `mmsearch build --geonames DUMP` and a GeoNames dump as INPUT, end to end on small fixtures written
/// by the tests: every name of a city finds it, results are ranked by population, and the output shows
/// the population and the name a city was found by. (RankAcceptanceTests compares with rank.py on the
/// real data; GeoNamesParserTests checks the parser's every rule.)
@Suite struct GeoNamesCommandTests {
    /// Muenchen (the list's spelling) is Munich; Münchenstein is small; Munchkin has no row in the dump.
    static let list = """
        [{"_id":2867714,"name":"Muenchen","country":"DE","coord":{"lon":11.57549,"lat":48.137428}},
         {"_id":2659551,"name":"Münchenstein","country":"CH","coord":{"lon":7.62434,"lat":47.513779}},
         {"_id":5128581,"name":"New York City","country":"US","coord":{"lon":-74.005966,"lat":40.714272}},
         {"_id":5106292,"name":"West New York","country":"US","coord":{"lon":-74.014313,"lat":40.78788}},
         {"_id":2761369,"name":"Vienna","country":"AT","coord":{"lon":16.37208,"lat":48.208488}},
         {"_id":2761367,"name":"Wiener Neustadt","country":"AT","coord":{"lon":16.25,"lat":47.799999}},
         {"_id":9000001,"name":"Munchkin","country":"US","coord":{"lon":-100,"lat":40}}]
        """

    /// The 19 columns of a GeoNames row (geonameid, name, asciiname, alternatenames, latitude, longitude,
    /// feature class and code, country code, cc2, admin1 to admin4, population, elevation, dem, timezone,
    /// modification date), as one line without its line break.
    static func columns(_ id: Int, _ name: String, _ ascii: String, _ alternates: String, _ latitude: String, _ longitude: String, _ country: String, _ population: String) -> [String] {
        [String(id), name, ascii, alternates, latitude, longitude, "P", "PPL", country, "", "01", "", "", "", population, "", "520", "Europe/Berlin", "2024-01-01"]
    }

    static func row(_ id: Int, _ name: String, _ ascii: String, _ alternates: String, _ latitude: String, _ longitude: String, _ country: String, _ population: String) -> String {
        columns(id, name, ascii, alternates, latitude, longitude, country, population).joined(separator: "\t")
    }

    /// Rows for six of the list's cities (coordinates a little off the list's: the list's are kept)
    /// and one city the list does not have. "mnshn" is a lowercase ASCII transliteration (dropped),
    /// "MUC" and "NYC" codes in capitals (kept).
    static let dumpRows = [
        row(2867714, "Munich", "Munich", "München,Monaco di Baviera,mnshn,MUC,Minga", "48.13743", "11.57549", "DE", "1260391"),
        row(2659551, "Münchenstein", "Muenchenstein", "", "47.51", "7.62", "CH", "11644"),
        row(5128581, "New York City", "New York City", "Nueva York,NYC,Big Apple", "40.71427", "-74.00597", "US", "8175133"),
        row(5106292, "West New York", "West New York", "", "40.78788", "-74.01431", "US", "53366"),
        row(2761369, "Vienna", "Vienna", "Wien,Vienne,Bécs", "48.20849", "16.37208", "AT", "1691468"),
        row(2761367, "Wiener Neustadt", "Wiener Neustadt", "", "47.8", "16.25", "AT", "39940"),
        row(1234567, "Nowhere", "Nowhere", "", "1", "2", "", "7"),
    ]
    static let dump = dumpRows.joined(separator: "\n") + "\n"

    /// A directory with `list.json`, `dump.txt` and `joined.mms` (the list joined with the dump).
    static func directory() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try Data(list.utf8).write(to: URL(fileURLWithPath: directory.file("list.json")))
        try Data(dump.utf8).write(to: URL(fileURLWithPath: directory.file("dump.txt")))
        let build = try MMSearchProcess.run(["build", directory.file("list.json"), "--geonames", directory.file("dump.txt"), "-o", directory.file("joined.mms")])
        #expect(build.status == 0, "build failed: \(build.error)")
        #expect(build.error.contains("mmsearch build: joined \(directory.file("dump.txt")): 6 of 7 records have its names and population\n"), "\(build.error)")
        #expect(build.error.contains("mmsearch build: wrote \(directory.file("joined.mms")): 7 records (12 other names), 28 search keys, "), "\(build.error)")
        return directory
    }

    static func query(_ index: String, _ arguments: [String], input: String? = nil) throws -> MMSearchProcess.Outcome {
        try MMSearchProcess.run(["query", "--index", index] + arguments, input: input)
    }

    static func json(_ text: some StringProtocol) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    static func files(in directory: TemporaryDirectory) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
    }

    static let muenchen = "Muenchen, DE  48.137428, 11.57549  2867714  population 1260391"
    static let muenchenstein = "Münchenstein, CH  47.513779, 7.62434  2659551  population 11644"
    static let newYork = "New York City, US  40.714272, -74.005966  5128581  population 8175133"
    static let westNewYork = "West New York, US  40.78788, -74.014313  5106292  population 53366"
    static let vienna = "Vienna, AT  48.208488, 16.37208  2761369  population 1691468"
    static let wienerNeustadt = "Wiener Neustadt, AT  47.799999, 16.25  2761367  population 39940"
    static let munchkin = "Munchkin, US  40, -100  9000001  population 0"

    /// `Name, CC (Matched)  lat, lon  id  population N`: another name in parentheses, the list's own
    /// name and coordinates, the dump's population (0 for a city the dump has no row for).
    @Test func textShowsTheMatchedNameAndThePopulation() throws {
        let directory = try Self.directory()
        defer { directory.remove() }
        let index = directory.file("joined.mms")
        func matched(_ line: String, _ name: String) -> String {
            line.replacingOccurrences(of: "  ", with: " (\(name))  ", options: [], range: line.range(of: "  "))
        }
        let cases: [(query: String, lines: [String])] = [
            // Munich by its German name, before Münchenstein found by its own but smaller.
            ("München", [matched(Self.muenchen, "München"), Self.muenchenstein]),
            ("münchen", [matched(Self.muenchen, "München"), Self.muenchenstein]),
            ("Munich", [matched(Self.muenchen, "Munich")]),
            // By its own name: no parentheses; Münchenstein by its ASCII name.
            ("Muenchen", [Self.muenchen, matched(Self.muenchenstein, "Muenchenstein")]),
            ("mu", [Self.muenchen, Self.muenchenstein, Self.munchkin]),
            ("munchk", [Self.munchkin]),
            ("baviera", [matched(Self.muenchen, "Monaco di Baviera")]),
            ("MUC", [matched(Self.muenchen, "MUC")]),
            // Lowercase ASCII alternates are GeoNames' machine transliterations: dropped.
            ("mnshn", []),
            // "wien" covers all of "Wien": Vienna (20 x 1,691,468) before Wiener Neustadt (100 x 39,940);
            // "w" covers a quarter of it: weight 1, after both cities named with a W.
            ("wien", [matched(Self.vienna, "Wien"), Self.wienerNeustadt]),
            ("w", [Self.westNewYork, Self.wienerNeustadt, matched(Self.vienna, "Wien")]),
            ("Bécs", [matched(Self.vienna, "Bécs")]),
            // Word starts: of the city's own name (no parentheses), and of another name.
            // "york" covers all of the word "York" of "Nueva York" (rules 4: ten times the weight of a
            // word it only starts, as "York City" of the city's own name): found by that name.
            ("york", [matched(Self.newYork, "Nueva York"), Self.westNewYork]),
            ("new y", [Self.newYork, Self.westNewYork]),
            ("nyc", [matched(Self.newYork, "NYC")]),
            ("apple", [matched(Self.newYork, "Big Apple")]),
            ("nueva", [matched(Self.newYork, "Nueva York")]),
            // The dump's row for a city the list lacks adds nothing.
            ("nowhere", []),
        ]
        for (query, lines) in cases {
            let result = try Self.query(index, [query])
            #expect(result.status == 0 && result.error.isEmpty, "\(query)")
            #expect(result.output == lines.map { $0 + "\n" }.joined() + "\(lines.count) \(lines.count == 1 ? "match" : "matches")\n", "\(query)")
        }
        // Every city once, the biggest first.
        let all = try Self.query(index, [""])
        #expect(all.output == [Self.newYork, Self.vienna, Self.muenchen, Self.westNewYork, Self.wienerNeustadt, Self.muenchenstein, Self.munchkin].map { $0 + "\n" }.joined() + "7 matches\n")
        // --order name: alphabetical by the list's name, whatever name matched.
        let alphabetical = try Self.query(index, ["--order", "name", "w"])
        #expect(alphabetical.output == [matched(Self.vienna, "Wien"), Self.westNewYork, Self.wienerNeustadt].map { $0 + "\n" }.joined() + "3 matches\n")
        // --match name: no word starts.
        #expect(try Self.query(index, ["--match", "name", "york"]).output == "0 matches\n")
        #expect(try Self.query(index, ["--match", "name", "--order", "name", "new y"]).output == Self.newYork + "\n1 match\n")
        // Paging in rank order.
        #expect(try Self.query(index, ["--offset", "1", "--limit", "1", "w"]).output == Self.wienerNeustadt + "\n3 matches\n")
        // get: the population, and no matched name (the cities are read by id).
        let got = try MMSearchProcess.run(["get", "--index", index, "2867714", "9000001"])
        #expect(got.status == 0 && got.output == Self.muenchen + "\n" + Self.munchkin + "\n")
    }

    /// JSON results gain "population" (the index has populations) and "matched" (found by another
    /// name), after the other members; jsonl and GeoJSON too; tsv keeps its five columns.
    @Test func jsonHasPopulationAndMatchedMembers() throws {
        let directory = try Self.directory()
        defer { directory.remove() }
        let index = directory.file("joined.mms")
        let muenchen = #"{"id": 2867714, "name": "Muenchen", "country": "DE", "lat": 48.137428, "lon": 11.57549, "population": 1260391, "matched": "München"}"#
        let muenchenstein = #"{"id": 2659551, "name": "Münchenstein", "country": "CH", "lat": 47.513779, "lon": 7.62434, "population": 11644}"#
        let json = try Self.query(index, ["--json", "München"])
        #expect(json.status == 0)
        #expect(json.output == #"{"query": "München", "count": 2, "offset": 0, "typos": 0, "results": ["# + muenchen + ", " + muenchenstein + "]}\n")
        #expect(try Self.query(index, ["--format", "jsonl", "München"]).output == muenchen + "\n" + muenchenstein + "\n")
        // Population 0 is written (the index has populations; the dump had no row for Munchkin).
        let munchkin = try Self.query(index, ["--json", "munchk"])
        #expect(munchkin.output == #"{"query": "munchk", "count": 1, "offset": 0, "typos": 0, "results": [{"id": 9000001, "name": "Munchkin", "country": "US", "lat": 40, "lon": -100, "population": 0}]}"# + "\n")
        let parsed = try Self.json(try Self.query(index, ["--json", "big app"]).output) as! [String: Any]
        let result = try #require((parsed["results"] as? [[String: Any]])?.first)
        #expect(result["matched"] as? String == "Big Apple" && result["population"] as? Int == 8_175_133)
        let geojson = try Self.query(index, ["--format", "geojson", "--limit", "1", "wien"])
        #expect(geojson.output == #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [16.37208, 48.208488]}, "properties": {"id": 2761369, "name": "Vienna", "country": "AT", "population": 1691468, "matched": "Wien"}}]}"# + "\n")
        let tsv = try Self.query(index, ["--format", "tsv", "München"])
        #expect(tsv.output == "id\tname\tcountry\tlat\tlon\tregion\n2867714\tMuenchen\tDE\t48.137428\t11.57549\t\n2659551\tMünchenstein\tCH\t47.513779\t7.62434\t\n")
        let got = try Self.json(try MMSearchProcess.run(["get", "--index", index, "--format", "json", "2867714"]).output) as! [[String: Any]]
        #expect(got.count == 1 && got[0]["population"] as? Int == 1_260_391 && got[0]["matched"] == nil)
        // An index of the list alone has neither member.
        let alone = directory.file("alone.mms")
        #expect(try MMSearchProcess.run(["build", directory.file("list.json"), "-o", alone]).status == 0)
        #expect(try Self.query(alone, ["--json", "Muenchen"]).output == #"{"query": "Muenchen", "count": 1, "offset": 0, "typos": 0, "results": [{"id": 2867714, "name": "Muenchen", "country": "DE", "lat": 48.137428, "lon": 11.57549}]}"# + "\n")
        // Without the dump, München finds Münchenstein only.
        #expect(try Self.query(alone, ["München"]).output == "Münchenstein, CH  47.513779, 7.62434  2659551\n1 match\n")
        #expect(try Self.query(alone, ["Muenchen"]).output == "Muenchen, DE  48.137428, 11.57549  2867714\n1 match\n")
    }

    /// info names the list and the dump joined to it, and says the index has populations.
    @Test func infoShowsTheJoinedSource() throws {
        let directory = try Self.directory()
        defer { directory.remove() }
        let result = try MMSearchProcess.run(["info", directory.file("joined.mms")])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n").map(String.init)
        let fileSize = try IndexCommandsTests.bytes(directory.file("joined.mms")).count
        #expect(lines.contains("records         7"))
        #expect(lines.contains("names           12 besides the records' own"))
        #expect(lines.contains { $0.hasPrefix("search keys     28 (names and word starts), in a trie of ") })
        #expect(lines.contains("population      yes: results are ranked by it"))
        try IndexCommandsTests.expectSections(lines, fileSize: fileSize)
        let listSize = Data(Self.list.utf8).count, dumpSize = Data(Self.dump.utf8).count
        let source = try #require(lines.firstIndex { $0.hasPrefix("source ") })
        #expect(lines[source].hasPrefix("source          list.json, \(listSize) bytes of JSON as read (decompressed if gzip), XXH64 0x"), "\(lines[source])")
        #expect(source + 1 < lines.count && lines[source + 1].hasPrefix("joined          dump.txt, \(dumpSize) bytes of GeoNames dump as read (decompressed if gzip), XXH64 0x"), "\(lines)")
        #expect(lines.last?.hasPrefix("joined ") == true)
        let info = try CityIndex(path: directory.file("joined.mms")).info()
        #expect(info.source.kind == .cityList && info.source.joined?.name == "dump.txt" && info.hasPopulation)
        // A gzip dump joins the same: the same answers, and the decompressed text's size and checksum.
        let compressed = try IndexCommandsTests.gzip(directory.file("dump.txt"))
        let fromGzip = directory.file("joined-gz.mms")
        #expect(try MMSearchProcess.run(["build", directory.file("list.json"), "--geonames", compressed, "-o", fromGzip]).status == 0)
        #expect(try Self.query(fromGzip, ["--json", "-"], input: "münchen\nw\n\n").output == Self.query(directory.file("joined.mms"), ["--json", "-"], input: "münchen\nw\n\n").output)
        let gzipInfo = try CityIndex(path: fromGzip).info().source.joined
        #expect(gzipInfo?.name == "dump.txt.gz" && gzipInfo?.size == info.source.joined?.size && gzipInfo?.checksum == info.source.joined?.checksum)
        let gzipLines = try MMSearchProcess.run(["info", fromGzip]).output
        #expect(gzipLines.contains("\njoined          dump.txt.gz, \(dumpSize) bytes of GeoNames dump as read (decompressed if gzip), XXH64 0x"))
        #expect(try MMSearchProcess.run(["verify", fromGzip]).status == 0)
        #expect(try MMSearchProcess.run(["verify", directory.file("joined.mms")]).output == "\(directory.file("joined.mms")): ok, 7 records, \(fileSize) bytes\n")
    }

    /// A dump as INPUT (told from a JSON list by content, whatever its name, plain or gzip): a city a
    /// row, with the dump's name, coordinates and population.
    @Test func dumpAsInput() throws {
        let directory = try Self.directory()
        defer { directory.remove() }
        let input = directory.file("cities.json") // a dump, whatever the name says
        try FileManager.default.copyItem(atPath: directory.file("dump.txt"), toPath: input)
        let build = try MMSearchProcess.run(["build", input, "-o", directory.file("dump.mms")])
        #expect(build.status == 0, "\(build.error)")
        let messages = build.error.split(separator: "\n").map(String.init)
        #expect(messages.count == 2, "\(build.error)")
        #expect(messages.first == "mmsearch build: warning: kept 0 records with an empty name and 1 with an empty country")
        let size = try IndexCommandsTests.bytes(directory.file("dump.mms")).count
        #expect(messages.last?.hasPrefix("mmsearch build: wrote \(directory.file("dump.mms")): 7 records (11 other names), 27 search keys, \(size) bytes, in ") == true, "\(build.error)")
        let index = directory.file("dump.mms")
        let munich = "Munich, DE  48.13743, 11.57549  2867714  population 1260391"
        #expect(try Self.query(index, ["München"]).output == "Munich, DE (München)  48.13743, 11.57549  2867714  population 1260391\nMünchenstein, CH  47.51, 7.62  2659551  population 11644\n2 matches\n")
        #expect(try Self.query(index, ["munich"]).output == munich + "\n1 match\n")
        #expect(try Self.query(index, ["--limit", "3", ""]).output == "New York City, US  40.71427, -74.00597  5128581  population 8175133\nVienna, AT  48.20849, 16.37208  2761369  population 1691468\n\(munich)\n7 matches\n")
        // The row the list lacks is a city here; an empty country prints the name alone.
        #expect(try Self.query(index, ["nowhere"]).output == "Nowhere  1, 2  1234567  population 7\n1 match\n")
        let info = try MMSearchProcess.run(["info", index]).output.split(separator: "\n").map(String.init)
        #expect(info.contains("records         7") && info.contains("names           11 besides the records' own"))
        #expect(info.contains("population      yes: results are ranked by it"))
        #expect(info.contains { $0.hasPrefix("source          cities.json, \(Data(Self.dump.utf8).count) bytes of GeoNames dump as read (decompressed if gzip), XXH64 0x") })
        #expect(!info.contains { $0.hasPrefix("joined") })
        // gzip: the same index but for the source's name and time.
        let compressed = try IndexCommandsTests.gzip(directory.file("dump.txt"))
        #expect(try MMSearchProcess.run(["build", compressed, "-o", directory.file("dump-gz.mms")]).status == 0)
        let queries = "münchen\nw\n\nyork\nnyc\n"
        #expect(try Self.query(directory.file("dump-gz.mms"), ["--json", "-"], input: queries).output == Self.query(index, ["--json", "-"], input: queries).output)
        #expect(try MMSearchProcess.run(["verify", index]).status == 0)
    }

    struct BadDump: CustomTestStringConvertible, Sendable {
        let name: String
        let text: String
        /// "line:column" of the error, and the message after it.
        let place: String
        let message: String
        var testDescription: String { name }
    }

    static let badDumps: [BadDump] = {
        // Columns count Unicode scalars from the line start ("Bécs" is 4, not 5 bytes' worth).
        let population = columns(2761369, "Vienna", "Vienna", "Wien,Bécs", "48.20849", "16.37208", "AT", "12x")
        let populationColumn = population[0 ..< 14].joined(separator: "\t").unicodeScalars.count + 2
        let latitude = columns(2761369, "Vienna", "Vienna", "Wien,Bécs", "x", "16.37208", "AT", "1")
        let latitudeColumn = latitude[0 ..< 4].joined(separator: "\t").unicodeScalars.count + 2
        let eighteen = columns(2761369, "Vienna", "Vienna", "", "48.20849", "16.37208", "AT", "1").dropLast()
        return [
            BadDump(name: "18 columns", text: dumpRows[0] + "\n" + dumpRows[1] + "\n" + eighteen.joined(separator: "\t") + "\n",
                    place: "3:1", message: "expected 19 tab-separated columns, found 18"),
            BadDump(name: "bad population", text: dumpRows[0] + "\n" + population.joined(separator: "\t") + "\n", place: "2:\(populationColumn)",
                    message: #"expected a population (empty, or a whole number from 0 to 18446744073709551615) in column 15, found "12x""#),
            BadDump(name: "bad latitude", text: dumpRows[0] + "\n" + latitude.joined(separator: "\t") + "\n", place: "2:\(latitudeColumn)",
                    message: #"expected a latitude (a decimal number of degrees: an optional '-', digits, and an optional '.' and digits) in column 5, found "x""#),
            BadDump(name: "CRLF line ends", text: dumpRows[0] + "\r\n" + dumpRows[1] + "\r\n", place: "1:\(dumpRows[0].unicodeScalars.count + 1)",
                    message: "unexpected carriage return (U+000D) in column 19"),
            BadDump(name: "bad id", text: dumpRows[0] + "\n" + "x" + dumpRows[1] + "\n", place: "2:1",
                    message: #"expected a geonameid (a whole number from 0 to 4294967295) in column 1, found "x2659551""#),
        ]
    }()

    /// A bad row, in a dump given as INPUT or with --geonames: exit 1, `file:line:column: message`,
    /// no output written, and an index already at the output left as it was.
    @Test(arguments: badDumps)
    func badDumpRowIsRefused(_ bad: BadDump) throws {
        let directory = try Self.directory()
        defer { directory.remove() }
        let input = directory.file("bad.txt")
        try Data(bad.text.utf8).write(to: URL(fileURLWithPath: input))
        let before = try Self.files(in: directory)
        let expected = "mmsearch build: \(input):\(bad.place): \(bad.message)"
        for arguments in [[input, "-o", directory.file("new.mms")], [directory.file("list.json"), "--geonames", input, "-o", directory.file("new.mms")]] {
            let result = try MMSearchProcess.run(["build"] + arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.error.contains(expected), "\(arguments): \(result.error)")
            #expect(result.output.isEmpty)
            #expect(try Self.files(in: directory) == before, "\(arguments)")
        }
        // Over an existing index: untouched, and no temporary file left beside it.
        let old = try IndexCommandsTests.bytes(directory.file("joined.mms"))
        for arguments in [[input, "-o", directory.file("joined.mms")], [directory.file("list.json"), "--geonames", input, "-o", directory.file("joined.mms")]] {
            let result = try MMSearchProcess.run(["build"] + arguments)
            #expect(result.status == 1 && result.error.contains(expected), "\(arguments): \(result.error)")
            #expect(try IndexCommandsTests.bytes(directory.file("joined.mms")) == old)
            #expect(try Self.files(in: directory) == before, "\(arguments)")
        }
    }

    /// --skip-invalid leaves out bad rows of the dump too, and says which.
    @Test func skipInvalidLeavesOutBadDumpRows() throws {
        let directory = try Self.directory()
        defer { directory.remove() }
        let bad = directory.file("bad.txt")
        var rows = Self.dumpRows
        rows.insert(Self.row(7, "Sevenhill", "Sevenhill", "", "1", "2", "DE", "12x"), at: 1)
        try Data((rows.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: bad))
        let strict = try MMSearchProcess.run(["build", directory.file("list.json"), "--geonames", bad, "-o", directory.file("strict.mms")])
        #expect(strict.status == 1 && strict.error.contains("\(bad):2:"))
        let joined = try MMSearchProcess.run(["build", "--skip-invalid", directory.file("list.json"), "--geonames", bad, "-o", directory.file("skipped.mms")])
        #expect(joined.status == 0, "\(joined.error)")
        #expect(joined.error.contains("skipped 1 invalid records") && joined.error.contains("\(bad):2:"), "\(joined.error)")
        #expect(try Self.query(directory.file("skipped.mms"), ["München"]).output == Self.query(directory.file("joined.mms"), ["München"]).output)
        let alone = try MMSearchProcess.run(["build", "--skip-invalid", bad, "-o", directory.file("alone.mms")])
        #expect(alone.status == 0 && alone.error.contains("skipped 1 invalid records"))
        #expect(try Self.query(directory.file("alone.mms"), ["sevenhill"]).output == "0 matches\n")
        #expect(try Self.query(directory.file("alone.mms"), ["--limit", "0", ""]).output == "7 matches\n")
    }

    /// --geonames needs a dump and INPUT then needs a list: anything else is an error at 1:1 saying
    /// what was expected, exit 1, nothing written.
    @Test func geonamesMustBeADumpJoinedToAList() throws {
        let directory = try Self.directory()
        defer { directory.remove() }
        let before = try Self.files(in: directory)
        let list = directory.file("list.json"), dump = directory.file("dump.txt")
        let cases: [([String], String)] = [
            ([list, "--geonames", list], "mmsearch build: \(list):1:1: expected a GeoNames dump (19 tab-separated columns a row) to join, found a JSON array"),
            ([dump, "--geonames", dump], "mmsearch build: \(dump):1:1: expected OpenWeatherMap's city list (a JSON array) to join the GeoNames dump to"),
            ([list, "--geonames", directory.file("missing.txt")], "mmsearch build: \(directory.file("missing.txt")): open failed"),
        ]
        for (arguments, message) in cases {
            let result = try MMSearchProcess.run(["build"] + arguments + ["-o", directory.file("out.mms")])
            #expect(result.status == 1, "\(arguments)")
            #expect(result.error.contains(message), "\(arguments): \(result.error)")
            #expect(try Self.files(in: directory) == before, "\(arguments)")
        }
    }
}
