import Foundation
import MMSearch
import MMSearchTestSupport
import Testing

/// `mmsearch build --admin1 FILE --countries FILE`, "Name, Qualifier" queries, typos, and the region
/// in every output, end to end on small fixtures written here: four Springfields and two Portlands in
/// different states, Paris in France and Texas. (RegionsAndTyposAcceptanceTests compares with rank.py
/// on the real data; Admin1ParserTests and CountryInfoParserTests check the readers' every rule.)
@Suite struct RegionsCommandTests {
    /// A dump row: geonameid, name, asciiname, alternatenames, lat, lon, class, code, country, cc2,
    /// admin1, admin2-4, population, elevation, dem, timezone, date.
    static func row(_ id: Int, _ name: String, _ alternates: String, _ country: String, _ admin1: String, _ population: Int) -> String {
        [String(id), name, name, alternates, "10", "20", "P", "PPL", country, "", admin1, "", "", "", String(population), "", "1", "UTC", "2024-01-01"]
            .joined(separator: "\t")
    }

    static let dump = [
        row(4409896, "Springfield", "", "US", "MO", 170_188), row(4951788, "Springfield", "", "US", "MA", 154_341),
        row(4250542, "Springfield", "", "US", "IL", 114_394), row(5754005, "Springfield", "", "US", "OR", 60_870),
        row(5746545, "Portland", "", "US", "OR", 652_503), row(4975802, "Portland", "", "US", "ME", 66_595),
        row(2988507, "Paris", "Paname,Lutece", "FR", "11", 2_138_551), row(4717560, "Paris", "", "US", "TX", 24_782),
        row(6058560, "London", "", "CA", "08", 422_324), row(2643743, "London", "Londres", "GB", "ENG", 8_961_989),
        row(4508722, "Cincinnati", "", "US", "OH", 311_097), row(1111111, "Nowhere", "", "US", "ZZ", 5),
    ].joined(separator: "\n") + "\n"

    /// admin1CodesASCII.txt's layout: "CC.CODE", name, ASCII name, geonameid. No row for US.ZZ.
    static let admin1 = [("US.MO", "Missouri"), ("US.MA", "Massachusetts"), ("US.IL", "Illinois"), ("US.OR", "Oregon"), ("US.ME", "Maine"),
                         ("FR.11", "Île-de-France"), ("US.TX", "Texas"), ("CA.08", "Ontario"), ("GB.ENG", "England"), ("US.OH", "Ohio")]
        .map { "\($0.0)\t\($0.1)\t\($0.1)\t" }.joined(separator: "\n") + "\n"

    /// countryInfo.txt's layout: comment lines, then 19 columns (ISO, ISO3, ..., Country in column 5, ...).
    static let countries = "#ISO\tISO3\tISO-Numeric\tfips\tCountry\t...\n" + [("US", "USA", "United States"), ("FR", "FRA", "France"),
                                                                          ("CA", "CAN", "Canada"), ("GB", "GBR", "United Kingdom")]
        .map { [$0.0, $0.1, "1", "XX", $0.2, "Capital", "1", "1", "NA", ".x", "USD", "Dollar", "1", "", "", "en", "1", "", ""].joined(separator: "\t") }
        .joined(separator: "\n") + "\n"

    /// A directory with the three files and `regions.mms`, the dump built with both.
    static func directory() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        for (name, text) in [("dump.txt", dump), ("admin1.txt", admin1), ("countries.txt", countries)] {
            try Data(text.utf8).write(to: URL(fileURLWithPath: directory.file(name)))
        }
        let build = try MMSearchProcess.run(["build", directory.file("dump.txt"), "--admin1", directory.file("admin1.txt"),
                                             "--countries", directory.file("countries.txt"), "-o", directory.file("regions.mms")])
        #expect(build.status == 0, "\(build.error)")
        #expect(build.error.contains("mmsearch build: regions from \(directory.file("admin1.txt")): 11 of 12 records are in one of 10 regions\n"), "\(build.error)")
        #expect(build.error.contains("mmsearch build: countries from \(directory.file("countries.txt")): 12 of 12 records are in one of 4 countries\n"), "\(build.error)")
        return directory
    }

    static func query(_ directory: TemporaryDirectory, _ arguments: [String]) throws -> String {
        let result = try MMSearchProcess.run(["query", "--index", directory.file("regions.mms")] + arguments)
        #expect(result.status == 0 && result.error.isEmpty, "\(arguments): \(result.error)")
        return result.output
    }

    static func ids(_ directory: TemporaryDirectory, _ text: String) throws -> [Int] {
        let object = try JSONSerialization.jsonObject(with: Data(try query(directory, ["--json", text]).utf8)) as! [String: Any]
        return (object["results"] as! [[String: Any]]).map { $0["id"] as! Int }
    }

    /// Every Springfield shows its state, so the four differ on screen.
    @Test func resultsShowTheirRegion() throws {
        let directory = try Self.directory()
        defer { directory.remove() }
        #expect(try Self.query(directory, ["--limit", "4", "springfield"]) == """
            Springfield, Missouri, US  10, 20  4409896  population 170188
            Springfield, Massachusetts, US  10, 20  4951788  population 154341
            Springfield, Illinois, US  10, 20  4250542  population 114394
            Springfield, Oregon, US  10, 20  5754005  population 60870
            4 matches

            """)
        // A region the admin1 file does not name is no region.
        #expect(try Self.query(directory, ["nowhere"]) == "Nowhere, US  10, 20  1111111  population 5\n1 match\n")
        let json = try JSONSerialization.jsonObject(with: Data(try Self.query(directory, ["--json", "--limit", "1", "paris"]).utf8)) as! [String: Any]
        let first = (json["results"] as! [[String: Any]])[0]
        #expect(first["region"] as? String == "Île-de-France" && json["typos"] as? Int == 0)
        #expect(try Self.query(directory, ["--format", "tsv", "--limit", "1", "portland"]) == "id\tname\tcountry\tlat\tlon\tregion\n5746545\tPortland\tUS\t10\t20\tOregon\n")
        #expect(try Self.query(directory, ["--format", "jsonl", "--limit", "1", "portland"]).contains(#""region": "Oregon""#))
        #expect(try Self.query(directory, ["--format", "geojson", "--limit", "1", "portland"]).contains(#""properties": {"id": 5746545, "name": "Portland", "country": "US", "region": "Oregon""#))
        let get = try MMSearchProcess.run(["get", "--index", directory.file("regions.mms"), "4250542"])
        #expect(get.output == "Springfield, Illinois, US  10, 20  4250542  population 114394\n")
    }

    /// "Name, Qualifier" in the forms people write: the region's code or name, the country's code,
    /// ISO3 code or name, several in turn, and a trailing separator while the rest is typed.
    @Test func nameAndQualifierFindTheCityMeant() throws {
        let directory = try Self.directory()
        defer { directory.remove() }
        for (text, expected) in [("portland, or", [5746545]), ("portland oregon", [5746545]), ("portland, maine", [4975802]),
                                 ("paris, tx", [4717560]), ("paris texas", [4717560]), ("paris, france", [2988507]), ("paris usa", [4717560]),
                                 ("paris, fra", [2988507]), ("paris, ile", [2988507]), ("london, ontario", [6058560]), ("london on", [6058560]),
                                 ("london, england, gb", [2643743]), ("london, united k", [2643743]), ("springfield,il", [4250542]),
                                 ("springfield, us, massachusetts", [4951788]), ("paname, fr", [2988507])] as [(String, [Int])] {
            #expect(try Self.ids(directory, text) == expected, "\(text)")
        }
        // The name must be whole, and a qualifier must fit.
        #expect(try Self.ids(directory, "pari, tx").isEmpty && Self.ids(directory, "paris, germany").isEmpty)
        // "paris, " keeps every Paris while the rest is typed, the biggest first.
        #expect(try Self.ids(directory, "paris, ") == [2988507, 4717560])
        #expect(try Self.ids(directory, "paris ") == [2988507, 4717560])
    }

    /// When nothing matches, one typo from 4 characters, two from 8; the count line and JSON say so;
    /// --typos off answers as typed.
    @Test func typosAreForgivenWhenNothingMatches() throws {
        let directory = try Self.directory()
        defer { directory.remove() }
        #expect(try Self.query(directory, ["cincinatti"]) == "Cincinnati, Ohio, US  10, 20  4508722  population 311097\n1 match, with 2 typos\n")
        #expect(try Self.query(directory, ["cincinnatti"]) == "Cincinnati, Ohio, US  10, 20  4508722  population 311097\n1 match, with 1 typo\n")
        #expect(try Self.query(directory, ["--typos", "off", "cincinatti"]) == "0 matches\n")
        #expect(try Self.query(directory, ["--json", "prtland"]).hasPrefix(#"{"query": "prtland", "count": 2, "offset": 0, "typos": 1, "results": [{"id": 5746545"#))
        #expect(try Self.query(directory, ["sprinfgield"]).hasSuffix("4 matches, with 1 typo\n"))
        // Never the first character, nothing under 4 characters, and nothing when the query matches as typed.
        #expect(try Self.query(directory, ["xortland"]) == "0 matches\n" && Self.query(directory, ["prt"]) == "0 matches\n")
        #expect(try Self.query(directory, ["--json", "paris"]).contains(#""typos": 0"#))
        let usage = try MMSearchProcess.run(["query", "--index", directory.file("regions.mms"), "--typos", "maybe", "paris"])
        #expect(usage.status == 2 && usage.error.contains("--typos takes one of on, off, not \"maybe\""))
    }

    /// info names both files, with sizes and checksums, and the counts.
    @Test func infoNamesTheRegionAndCountryFiles() throws {
        let directory = try Self.directory()
        defer { directory.remove() }
        let lines = try MMSearchProcess.run(["info", directory.file("regions.mms")]).output.split(separator: "\n").map(String.init)
        #expect(lines.contains("regions         10 regions and 4 named countries; \"Name, Region\" and \"Name, Country\" queries match"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("admin1          admin1.txt, \(Data(Self.admin1.utf8).count) bytes of GeoNames admin1 codes as read (decompressed if gzip), XXH64 0x") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("countries       countries.txt, \(Data(Self.countries.utf8).count) bytes of GeoNames country info as read (decompressed if gzip), XXH64 0x") }, "\(lines)")
        let verify = try MMSearchProcess.run(["verify", directory.file("regions.mms")])
        #expect(verify.status == 0, "\(verify.error)")
    }

    /// --admin1 needs a dump's region codes: with the list alone it is a usage error, before anything is
    /// read or written; bad admin1 and country files are errors with their place, and nothing is written.
    @Test func badOptionsAndFilesLeaveNothingBehind() throws {
        let directory = try Self.directory()
        defer { directory.remove() }
        try Data(#"[{"_id":1,"name":"Springfield","country":"US","coord":{"lon":1,"lat":2}}]"#.utf8).write(to: URL(fileURLWithPath: directory.file("list.json")))
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        let listAlone = try MMSearchProcess.run(["build", directory.file("list.json"), "--admin1", directory.file("admin1.txt"), "-o", directory.file("out.mms")])
        #expect(listAlone.status == 2 && listAlone.error.contains("--admin1 names regions by a GeoNames dump's admin1 codes") && listAlone.error.contains("usage: mmsearch build"), "\(listAlone.error)")
        // The list with countries alone is fine.
        let listCountries = try MMSearchProcess.run(["build", directory.file("list.json"), "--countries", directory.file("countries.txt"), "-o", directory.file("list.mms")])
        #expect(listCountries.status == 0, "\(listCountries.error)")
        #expect(try MMSearchProcess.run(["query", "--index", directory.file("list.mms"), "--json", "springfield usa"]).output.contains(#""count": 1"#))
        try FileManager.default.removeItem(atPath: directory.file("list.mms"))
        try Data("US.IL\tIllinois\tIllinois\t1\nUSIL\tBad\tBad\t\n".utf8).write(to: URL(fileURLWithPath: directory.file("bad-admin1.txt")))
        try Data("#c\nUS\tUSA\t1\n".utf8).write(to: URL(fileURLWithPath: directory.file("bad-countries.txt")))
        for (option, file, place) in [("--admin1", "bad-admin1.txt", ":2:1: "), ("--countries", "bad-countries.txt", ":2:1: ")] {
            let result = try MMSearchProcess.run(["build", directory.file("dump.txt"), option, directory.file(file), "-o", directory.file("out.mms")])
            #expect(result.status == 1 && result.error.contains(directory.file(file) + place), "\(option): \(result.error)")
        }
        let after = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        #expect(after == before.union(["bad-admin1.txt", "bad-countries.txt"]), "\(after.subtracting(before))")
    }
}
