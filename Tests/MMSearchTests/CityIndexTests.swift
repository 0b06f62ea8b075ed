import CMMSearchFormat
import Foundation
import MMSearch
import MMSearchBuilder
import MMSearchTestSupport
import Testing

/// Build-then-read round trips on small lists written here.
@Suite struct CityIndexTests {
    static func record(_ id: UInt32, _ name: String, _ country: String, lat: Int32 = 0, lon: Int32 = 0) -> SourceRecord {
        SourceRecord(id: id, name: Array(name.utf8), country: Array(country.utf8), latitudeE7: lat, longitudeE7: lon)
    }

    static func index(_ records: [SourceRecord]) throws -> CityIndex {
        let source = SourceDescription(name: "fixture.json", size: 0, checksum: 0, builtAt: 0)
        let built = try IndexBuilder.makeIndex(records: records, source: source)
        return try CityIndex(bytes: Data(built.bytes), path: "fixture.mms")
    }

    static let classic = [
        record(1, "Alabama", "US"), record(2, "Albuquerque", "US"), record(3, "Anaheim", "US"),
        record(4, "Arizona", "US"), record(5, "Sydney", "AU"),
    ]

    static func names(_ results: SearchResults) -> [String] { results.map(\.name) }

    @Test func classicExample() throws {
        let index = try Self.index(Self.classic)
        #expect(Self.names(try index.search("A")) == ["Alabama", "Albuquerque", "Anaheim", "Arizona"])
        #expect(Self.names(try index.search("Al")) == ["Alabama", "Albuquerque"])
        #expect(Self.names(try index.search("Alb")) == ["Albuquerque"])
        #expect(Self.names(try index.search("s")) == ["Sydney"])
        #expect(try index.search("z").isEmpty)
        #expect(try index.search("").count == 5)
        #expect(Self.names(try index.search("alabama, us")) == ["Alabama"])
        #expect(try index.search("alabama, us ").isEmpty)
        #expect(try index.search("alabamax").isEmpty)
        try index.verify()
    }

    @Test func caseAccentsAndApostrophesFold() throws {
        let index = try Self.index([
            Self.record(10, "São Paulo", "BR"), Self.record(11, "Łódź", "PL"), Self.record(12, "’s-Hertogenbosch", "NL"),
            Self.record(13, "İstanbul", "TR"), Self.record(14, "Straße", "DE"),
        ])
        #expect(Self.names(try index.search("sao paulo")) == ["São Paulo"])
        #expect(Self.names(try index.search("SÃO")) == ["São Paulo"])
        #expect(Self.names(try index.search("lodz")) == ["Łódź"])
        #expect(Self.names(try index.search("'s-her")) == ["’s-Hertogenbosch"])
        #expect(Self.names(try index.search("’s-Her")) == ["’s-Hertogenbosch"])
        #expect(Self.names(try index.search("istanbul")) == ["İstanbul"])
        #expect(Self.names(try index.search("İstanbul")) == ["İstanbul"])
        #expect(Self.names(try index.search("strasse")) == ["Straße"])
    }

    @Test func duplicatesAreKeptInNameThenIdOrder() throws {
        let index = try Self.index([
            Self.record(30, "New York Mills", "US", lat: 1), Self.record(20, "New York Mills", "US", lat: 2),
            Self.record(40, "NEW YORK MILLS", "US"), Self.record(50, "New York", "US"),
        ])
        let results = try index.search("new york mills")
        // Same key: by name bytes ("NEW..." < "New..."), then id.
        #expect(results.map(\.id) == [40, 20, 30])
        #expect(results[1].coordinate.latitudeE7 == 2)
        // " " (0x20) sorts before "," (0x2C): "new york mills, us" comes before "new york, us".
        #expect(try index.search("new york").map(\.id) == [40, 20, 30, 50])
        try index.verify()
    }

    @Test func emptyNamesAndCountriesAreSearchable() throws {
        let index = try Self.index([
            Self.record(1, "", "US"), Self.record(2, "Europe", ""), Self.record(3, "Europe", "FR"), Self.record(4, "", ""),
        ])
        #expect(try index.search("").map(\.id) == [4, 1, 2, 3])
        #expect(try index.search(", us").map(\.id) == [1])
        #expect(try index.search("europe").map(\.id) == [2, 3])
        #expect(try index.search("europe,").map(\.id) == [3])
        #expect(try index.search("Europe")[0].country == "")
        try index.verify()
    }

    @Test func emptyIndexAnswersNothing() throws {
        let index = try Self.index([])
        #expect(index.count == 0)
        #expect(try index.search("").isEmpty)
        #expect(try index.search("a").isEmpty)
        try index.verify()
    }

    @Test func recordFieldsRoundTrip() throws {
        let index = try Self.index([Self.record(707_860, "Hurzuf", "UA", lat: 445_499_990, lon: 342_833_330)])
        let city = try #require(try index.search("hurz").first)
        #expect(city == City(id: 707_860, name: "Hurzuf", country: "UA", coordinate: Coordinate(latitudeE7: 445_499_990, longitudeE7: 342_833_330)))
        #expect(city.coordinate.latitudeText == "44.549999")
        #expect(city.coordinate.longitudeText == "34.283333")
        #expect(Coordinate.decimalText(280_000_000) == "28")
        #expect(Coordinate.decimalText(-5_000_000) == "-0.5")
        #expect(Coordinate.decimalText(-1) == "-0.0000001")
    }

    /// Keys that share long prefixes and end inside each other exercise every branch of the walk.
    @Test func prefixesEndingInsideLabelsAndAtNodes() throws {
        let names = ["a", "ab", "abc", "abcd", "abd", "b", "ba", "bab", "babc", "c"]
        let index = try Self.index(names.enumerated().map { Self.record(UInt32($0.offset), $0.element, "") })
        for length in 0 ... 5 {
            for query in Set(names.map { String($0.prefix(length)) } + ["abx", "bb", "ca", "d"]) {
                let expected = names.filter { $0.hasPrefix(query) }.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
                #expect(Self.names(try index.search(query)) == expected, "query \(query)")
            }
        }
    }

    @Test func truncatedIndexThrowsAtOpen() throws {
        let built = try IndexBuilder.makeIndex(records: Self.classic, source: SourceDescription(name: "x", size: 0, checksum: 0, builtAt: 0)).bytes
        for length in [0, 1, 7, 8, 100, MemoryLayout<mms_header>.size, built.count / 2, built.count - 1] {
            #expect(throws: MMSearchError.self, "truncated to \(length) bytes") {
                _ = try CityIndex(bytes: Data(built[0 ..< length]), path: "cut.mms")
            }
        }
    }

    @Test func otherVersionNamesBothVersions() throws {
        var bytes = try IndexBuilder.makeIndex(records: Self.classic, source: SourceDescription(name: "x", size: 0, checksum: 0, builtAt: 0)).bytes
        bytes.withUnsafeMutableBytes { $0.storeBytes(of: UInt32(7), toByteOffset: MemoryLayout<mms_header>.offset(of: \.version)!, as: UInt32.self) }
        #expect(throws: MMSearchError.unsupportedVersion(file: "v7.mms", found: 7, supported: MMS_FORMAT_VERSION)) {
            _ = try CityIndex(bytes: Data(bytes), path: "v7.mms")
        }
        let message = MMSearchError.unsupportedVersion(file: "v7.mms", found: 7, supported: 1).description
        #expect(message.contains("version 7") && message.contains("version 1"))
    }

    @Test func otherByteOrderIsNamed() throws {
        var bytes = try IndexBuilder.makeIndex(records: Self.classic, source: SourceDescription(name: "x", size: 0, checksum: 0, builtAt: 0)).bytes
        bytes.withUnsafeMutableBytes { $0.storeBytes(of: MMS_BYTE_ORDER_SWAPPED, toByteOffset: MemoryLayout<mms_header>.offset(of: \.byte_order)!, as: UInt32.self) }
        do {
            _ = try CityIndex(bytes: Data(bytes), path: "big.mms")
            Issue.record("a big-endian index opened")
        } catch {
            #expect(error.description.contains("big-endian") && error.description.contains("version 1"))
        }
    }

    /// Past the format's limits the builder refuses with an error rather than writing a corrupt file.
    @Test func keysPastTheLimitAreRefused() throws {
        // "½" (2 bytes) folds to "1⁄2" (5 bytes): a 40,000-byte name has a 100,000-byte key, over 65,535.
        let long = Self.record(1, String(repeating: "½", count: 20_000), "DE")
        #expect(throws: MMSearchError.self) {
            _ = try IndexBuilder.makeIndex(records: [long], source: SourceDescription(name: "x", size: 0, checksum: 0, builtAt: 0))
        }
        let longest = Self.record(2, String(repeating: "a", count: Int(MMS_MAX_STRING_LENGTH) - 4), "DE") // key: name + ", de"
        let index = try Self.index([longest])
        #expect(try index.search(String(repeating: "A", count: 1000)).count == 1)
        try index.verify()
    }

    @Test func flippedByteFailsVerify() throws {
        var bytes = try IndexBuilder.makeIndex(records: Self.classic, source: SourceDescription(name: "x", size: 0, checksum: 0, builtAt: 0)).bytes
        bytes[bytes.count - 3] ^= 0x40
        let index = try CityIndex(bytes: Data(bytes), path: "flipped.mms") // the header is intact: open is O(1)
        #expect(throws: MMSearchError.self) { try index.verify() }
    }

    @Test func indexFileRoundTripsThroughDisk() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let list = directory.path + "/list.json"
        let json = #"[{"_id":1,"name":"Alabama","country":"US","coord":{"lon":-86.75,"lat":32.75}}]"#
        try Data(json.utf8).write(to: URL(fileURLWithPath: list))
        let output = directory.path + "/cities.mms"
        let summary = try IndexBuilder.build(input: list, output: output)
        #expect(summary.recordCount == 1)
        let index = try CityIndex(path: output)
        #expect(index.fileSize == summary.fileSize)
        #expect(try index.search("al").first?.coordinate.longitudeText == "-86.75")
        try index.verify()
        #expect(throws: MMSearchError.self) { _ = try CityIndex(path: directory.path + "/missing.mms") }
    }
}
