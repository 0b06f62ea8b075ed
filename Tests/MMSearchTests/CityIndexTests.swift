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
        #expect(try index.search("alabama, us ", typos: .off).isEmpty)
        #expect(try index.search("alabamax", typos: .off).isEmpty)
        // One typo from 4 characters when nothing matches as typed.
        #expect(try Self.names(index.search("alabamax")) == ["Alabama"] && index.search("alabamax").typos == 1)
        #expect(try Self.names(index.search("alabma")) == ["Alabama"] && index.search("alabma", typos: .off).isEmpty)
        #expect(try index.search("alabama").typos == 0 && (try index.search("xlabama").isEmpty)) // never the first character
        // Over the list alone, matching names in name order is version 1's search.
        #expect(Self.names(try index.search("a", match: .name, order: .name)) == ["Alabama", "Albuquerque", "Anaheim", "Arizona"])
        #expect(try index.search("", match: .name, order: .name).count == 5)
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
        // Words inside names: after a separator.
        #expect(Self.names(try index.search("paulo")) == ["São Paulo"])
        #expect(Self.names(try index.search("hertogenbosch")) == ["’s-Hertogenbosch"])
        #expect(Self.names(try index.search("s-her")) == ["’s-Hertogenbosch"])
        #expect(try index.search("paulo", match: .name).isEmpty)
        #expect(try index.search("aulo").isEmpty)
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
        // The second and third words: word keys, in name order (no populations, so no score).
        #expect(try index.search("york").map(\.id) == [40, 20, 30, 50])
        #expect(try index.search("mills").map(\.id) == [40, 20, 30])
        #expect(try index.search("york", match: .name).isEmpty)
        #expect(try index.search("york mills, us").map(\.id) == [40, 20, 30])
        #expect(try index.search("york, us").map(\.id) == [50])
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

    /// The shortest decimal text, against a naive reading of it: the integer part, then the fraction
    /// padded to 7 digits with its trailing zeros cut, for the extremes and a million random values.
    @Test func decimalTextIsTheShortestDecimal() {
        func naive(_ e7: Int32) -> String {
            let magnitude = Int64(e7).magnitude
            let digits = String(magnitude % 10_000_000)
            var fraction = String(repeating: "0", count: 7 - digits.count) + digits
            while fraction.hasSuffix("0") { fraction.removeLast() }
            return (e7 < 0 ? "-" : "") + String(magnitude / 10_000_000) + (fraction.isEmpty ? "" : "." + fraction)
        }
        var random = SeededRandom(seed: 5)
        let extremes: [Int32] = [0, 1, -1, 9, 10, 10_000_000, -10_000_000, 1_800_000_000, -1_800_000_000, 900_000_000, Int32.max, Int32.min, 123, -1_000_001]
        for value in extremes + (0 ..< 1_000_000).map({ _ in Int32.random(in: .min ... .max, using: &random) }) {
            #expect(Coordinate.decimalText(value) == naive(value), "\(value)")
        }
        #expect(Coordinate.decimalText(Int32.min) == "-214.7483648")
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
        // Version 29 (the one before) and version 31 (a later one), each in this version's layout.
        for other: UInt32 in [MMS_FORMAT_VERSION - 1, MMS_FORMAT_VERSION + 1] {
            bytes.withUnsafeMutableBytes { $0.storeBytes(of: other, toByteOffset: MemoryLayout<mms_header>.offset(of: \.version)!, as: UInt32.self) }
            #expect(throws: MMSearchError.unsupportedVersion(file: "v\(other).mms", found: other, supported: MMS_FORMAT_VERSION)) {
                _ = try CityIndex(bytes: Data(bytes), path: "v\(other).mms")
            }
        }
        let message = MMSearchError.unsupportedVersion(file: "v2.mms", found: 2, supported: 31).description
        #expect(message.contains("version 2") && message.contains("version 31"))
        #expect(MMS_FORMAT_VERSION == 31 && MMSearchVersion.indexFormat == 31)
    }

    /// A version-2 file as version 2's builder wrote it (larger than version 3's header, shorter than
    /// version 31's): refused by its version, both versions named, not as damage.
    @Test func versionTwoIndexIsRefusedByVersion() throws {
        let index = VersionTwoIndex.alabama
        #expect(index.count > 300)
        #expect(throws: MMSearchError.unsupportedVersion(file: "v2.mms", found: 2, supported: 31)) {
            _ = try CityIndex(bytes: Data(index), path: "v2.mms")
        }
        let message = MMSearchError.unsupportedVersion(file: "v2.mms", found: 2, supported: 31).description
        #expect(message == "v2.mms: index format version 2, but this mmsearch reads version 31; rebuild the index with `mmsearch build`")
        // Shorter than this version's header: still named by its version.
        #expect(throws: MMSearchError.unsupportedVersion(file: "v2.mms", found: 2, supported: 31)) {
            _ = try CityIndex(bytes: Data(index[..<300]), path: "v2.mms")
        }
    }

    /// A version-1 file as version 1's builder wrote it (its smaller header, its sections): refused by
    /// its version, not as damage.
    @Test func versionOneIndexIsRefusedByVersion() throws {
        let index = VersionOneIndex.alabama
        #expect(throws: MMSearchError.unsupportedVersion(file: "v1.mms", found: 1, supported: MMS_FORMAT_VERSION)) {
            _ = try CityIndex(bytes: Data(index), path: "v1.mms")
        }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Data(index).write(to: URL(fileURLWithPath: directory.file("v1.mms")))
        #expect(throws: MMSearchError.unsupportedVersion(file: directory.file("v1.mms"), found: 1, supported: MMS_FORMAT_VERSION)) {
            _ = try CityIndex(path: directory.file("v1.mms"))
        }
    }

    /// Version 1's smallest files are shorter than version 2's header: they too must be named by
    /// their version ("rebuild"), not called truncated: the reader reads the version before it
    /// checks the file against the version-2 header size.
    @Test func smallVersionOneIndexIsRefusedByVersion() throws {
        for (name, index) in [("empty", VersionOneIndex.empty), ("one blank record", VersionOneIndex.blank)] {
            #expect(index.count < MemoryLayout<mms_header>.size, "\(name)")
            #expect(throws: MMSearchError.unsupportedVersion(file: "v1.mms", found: 1, supported: MMS_FORMAT_VERSION), "\(name)") {
                _ = try CityIndex(bytes: Data(index), path: "v1.mms")
            }
            #expect(throws: MMSearchError.self) { _ = try CityIndex(bytes: Data(index), path: "v1.mms") }
        }
    }

    @Test func otherByteOrderIsNamed() throws {
        var bytes = try IndexBuilder.makeIndex(records: Self.classic, source: SourceDescription(name: "x", size: 0, checksum: 0, builtAt: 0)).bytes
        bytes.withUnsafeMutableBytes { $0.storeBytes(of: MMS_BYTE_ORDER_SWAPPED, toByteOffset: MemoryLayout<mms_header>.offset(of: \.byte_order)!, as: UInt32.self) }
        do {
            _ = try CityIndex(bytes: Data(bytes), path: "big.mms")
            Issue.record("a big-endian index opened")
        } catch {
            #expect(error.description.contains("big-endian") && error.description.contains("version \(MMS_FORMAT_VERSION)"))
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
        bytes[MemoryLayout<mms_header>.size] ^= 0x40 // LABELS' first byte (the file's last bytes are a count open reads)
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

    // MARK: Version 2: every name of a city, word starts, ranking

    static func record(_ id: UInt32, _ name: String, _ country: String, population: UInt32, alternates: [String] = []) -> SourceRecord {
        SourceRecord(id: id, name: Array(name.utf8), country: Array(country.utf8), latitudeE7: 0, longitudeE7: 0,
                     alternateNames: alternates.map { Array($0.utf8) }, population: population)
    }

    /// The examples of rank.py: "wien" shows Vienna (by its alternate name) before Wiener Neustadt,
    /// "münchen" Munich before Münchenstein, "st" Stockholm before Istanbul (whose old name "Stambol"
    /// is only weighed 20 once the query covers half of it).
    @Test func rankedByPopulationTimesWeight() throws {
        let index = try Self.index([
            Self.record(1, "Vienna", "AT", population: 1_900_000, alternates: ["Wien", "Vienne"]),
            Self.record(2, "Wiener Neustadt", "AT", population: 45_000),
            Self.record(3, "Munich", "DE", population: 1_500_000, alternates: ["München", "Muenchen"]),
            Self.record(4, "Münchenstein", "CH", population: 12_000),
            Self.record(5, "Stockholm", "SE", population: 975_000),
            Self.record(6, "Istanbul", "TR", population: 15_000_000, alternates: ["Stambol"]),
            Self.record(7, "Stade", "DE", population: 0),
        ])
        #expect(index.hasPopulation)
        #expect(try index.search("wien").map(\.id) == [1, 2])
        #expect(try index.search("wien")[0].matchedName == "Wien")
        #expect(try index.search("wien")[1].matchedName == nil)
        #expect(try index.search("münchen").map(\.id) == [3, 4])
        #expect(try index.search("Munchen")[0].matchedName == "München")
        #expect(try index.search("muenchen").map(\.id) == [3] && (try index.search("muenchen")[0].matchedName) == "Muenchen")
        // "st": Stockholm 975,000 x 100; Istanbul 15,000,000 x 1 ("Stambol" is 7 bytes, the query 2); Stade 0.
        #expect(try index.search("st").map(\.id) == [5, 6, 7])
        // "stam" covers half of "stambol": 15,000,000 x 20 comes first.
        #expect(try index.search("stam").map(\.id) == [6])
        #expect(try index.search("stam")[0].matchedName == "Stambol")
        #expect(try index.search("sta").map(\.id) == [6, 7])
        // In name order, by primary key: istanbul, stade, stockholm.
        #expect(try index.search("st", order: .name).map(\.id) == [6, 7, 5])
        // Populations come back; the list alone has none.
        #expect(try index.search("vienna")[0].population == 1_900_000)
        #expect(try index.search("stade")[0].population == 0)
        #expect(try Self.index(Self.classic).search("a")[0].population == nil)
        // "neustadt" is a word of a name: weight 1, after the names; "name" matching leaves it out.
        #expect(try index.search("neustadt").map(\.id) == [2])
        #expect(try index.search("neustadt", match: .name).isEmpty)
        try index.verify()
    }

    /// Which names a record keeps (rank.py's `_names`): lowercase ASCII alternates (machine
    /// transliterations) and names that fold like an earlier one are dropped; an empty display name
    /// gives way to the first alternate as the primary name.
    @Test func alternateNamesKeptAndDropped() throws {
        let index = try Self.index([
            Self.record(1, "Köln", "DE", population: 1_000_000, alternates: ["klwn", "Cologne", "KÖLN", "Koeln", "", "Colonia Agrippina"]),
            Self.record(2, "", "US", population: 10, alternates: ["nowhere", "Nowhere"]),
            Self.record(3, "", "", population: 0),
        ])
        #expect(try index.search("klwn").isEmpty)
        #expect(try index.search("cologne").map(\.matchedName) == ["Cologne"])
        #expect(try index.search("koln").map(\.matchedName) == [nil])
        #expect(try index.search("koe").map(\.matchedName) == ["Koeln"])
        #expect(try index.search("agrippina").map(\.id) == [1]) // a word of an alternate name
        #expect(try index.search("agrippina", match: .name).isEmpty)
        let nowhere = try index.search("now")
        #expect(nowhere.map(\.id) == [2] && nowhere[0].name == "" && nowhere[0].matchedName == "Nowhere")
        #expect(try index.search("now", match: .name, order: .name).map(\.id) == [2])
        // The empty query: every record once, ranked by population (kind: every record's primary key matches).
        #expect(try index.search("").map(\.id) == [1, 2, 3])
        #expect(try index.search("", order: .name).map(\.id) == [3, 2, 1]) // keys "", ", us", "koln, de"
        let info = try index.info()
        #expect(info.alternateCount == 4) // Cologne, Koeln, Colonia Agrippina, Nowhere
        try index.verify()
    }

    /// Big nodes (more than MMS_SUMMARY_THRESHOLD entries) answer their count and first ranked page
    /// from the summary; every page, in every match and order, must still agree with the entries.
    @Test func pagesOfBigResultsAgreeWithEachOther() throws {
        var records: [SourceRecord] = []
        for number in 0 ..< 150 {
            records.append(Self.record(UInt32(number), "San \(["Jose", "Juan", "Diego", "Luis"][number % 4]) \(number)", "US",
                                       population: UInt32(number * 7_919 % 10_000), alternates: number % 5 == 0 ? ["Saint \(number)", "Sankt Anything \(number)"] : []))
        }
        let index = try Self.index(records)
        for query in ["", "s", "sa", "san", "san j", "san ju", "san juan", "1", "sankt", "saint 1", "j", "juan"] {
            for match in MatchMode.allCases {
                for order in ResultOrder.withoutPoint {
                    let results = try index.search(query, match: match, order: order)
                    let all = try results.cities(in: 0 ..< results.count)
                    #expect(Set(all.map(\.id)).count == all.count, "\(query) \(match)/\(order): a city twice")
                    #expect(results.map { $0 } == all, "\(query) \(match)/\(order): subscript")
                    for start in stride(from: 0, to: results.count, by: 7) {
                        let end = min(results.count, start + 13)
                        #expect(try results.cities(in: start ..< end) == Array(all[start ..< end]), "\(query) \(match)/\(order) \(start)..<\(end)")
                        #expect(try results.city(at: start) == all[start])
                    }
                    #expect(try index.search(foldedPrefix: Folding.fold(query), match: match, order: order).map { $0 } == all)
                    #expect(results.match == match && results.order == order)
                }
            }
        }
        try index.verify()
        #expect(try index.info().summaryCount >= 4)
    }

    /// Generated indexes with every feature (several words, alternates dropped and kept, long
    /// alternates whose weight changes along a big node's edge, equal and zero populations, repeated
    /// names, empty fields) against the naive reference of rank.py: counts, every page, matched names,
    /// in every match and order, for every prefix of many names.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func generatedIndexesAgreeWithRankPy(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let syllables = ["al", "an", "ba", "ber", "ca", "do", "el", "ka", "la", "lon", "ma", "mü", "na", "ri", "sa", "san", "to", "ø", "ß", "ss"]
        func word() -> String { (0 ..< Int.random(in: 1 ... 3, using: &random)).map { _ in syllables.randomElement(using: &random)! }.joined().capitalized }
        var records: [ReferenceRecord] = []
        for id in 0 ..< 1200 {
            var name = Int.random(in: 0 ..< 40, using: &random) == 0 ? "" : word()
            if Int.random(in: 0 ..< 4, using: &random) == 0 { name += [" ", "-", "'", " (", "/", ". "].randomElement(using: &random)! + word() }
            var alternates: [String] = []
            for _ in 0 ..< [0, 0, 1, 2, 4].randomElement(using: &random)! {
                switch Int.random(in: 0 ..< 6, using: &random) {
                case 0: alternates.append(word().lowercased())
                case 1: alternates.append(name.uppercased())
                case 2: alternates.append((0 ..< Int.random(in: 3 ... 8, using: &random)).map { _ in word() }.joined(separator: " "))
                case 3: alternates.append("San " + word())
                default: alternates.append(word())
                }
            }
            let population: UInt32 = [0, 0, 1_000, 1_000, UInt32.random(in: 1 ... 5_000_000, using: &random), UInt32.max].randomElement(using: &random)!
            records.append(ReferenceRecord(id: UInt32(id), name: name, country: ["US", "DE", "", "GB"].randomElement(using: &random)!,
                                           alternateNames: alternates, population: population))
        }
        let reference = RankedReference(records: records)
        let source = SourceDescription(name: "generated.txt", size: 0, checksum: 0, builtAt: 0, kind: .geoNamesDump)
        let built = try IndexBuilder.makeIndex(records: records.map {
            SourceRecord(id: $0.id, name: Array($0.name.utf8), country: Array($0.country.utf8), latitudeE7: 0, longitudeE7: 0,
                         alternateNames: $0.alternateNames.map { Array($0.utf8) }, population: $0.population)
        }, source: source)
        let index = try CityIndex(bytes: Data(built.bytes), path: "generated.mms")
        try index.verify()
        var queries: Set<String> = ["", " ", "-", "zz", ", us", "san ", "a a"]
        for _ in 0 ..< 60 {
            let record = records.randomElement(using: &random)!
            let names = [record.name] + record.alternateNames
            let text = names.randomElement(using: &random)! + (record.country.isEmpty ? "" : ", " + record.country)
            for length in 0 ... min(text.count, 14) { queries.insert(String(text.prefix(length))) }
        }
        for query in queries.sorted() {
            for match in MatchMode.allCases {
                for order in ResultOrder.withoutPoint {
                    let (expected, typos) = reference.search(query, match: match, order: order, typos: .on)
                    let results = try index.search(query, match: match, order: order)
                    let what = "seed \(seed) \(query.debugDescription) \(match)/\(order)"
                    #expect(results.count == expected.count && results.typos == typos, "\(what)")
                    guard results.count == expected.count else { continue }
                    var pages = [0 ..< 20, 20 ..< 40, expected.count - 20 ..< expected.count]
                    if expected.count <= 100 { pages = [0 ..< expected.count] }
                    for page in pages {
                        let positions = page.clamped(to: 0 ..< expected.count)
                        let cities = try results.cities(in: positions)
                        #expect(cities.map(\.id) == expected[positions].map { records[$0.record].id }, "\(what) \(positions)")
                        #expect(cities.map { $0.matchedName.map { Folding.fold($0) } } == expected[positions].map(reference.foldedMatchedName), "\(what) \(positions) matched names")
                        #expect(cities.map(\.population) == expected[positions].map { Optional(records[$0.record].population) }, "\(what) \(positions) populations")
                    }
                }
            }
        }
    }
}
