import CMMSearchFormat
import Foundation
import MMSearch
import MMSearchBuilder
import MMSearchTestSupport
import Testing

/// `CityIndex.cities(id:)` (binary search over ID_ORDER) and `CityIndex.info()` (header and SOURCE).
@Suite struct IdLookupAndInfoTests {
    static func record(_ id: UInt32, _ name: String, _ country: String = "US", lat: Int32 = 0) -> SourceRecord {
        SourceRecord(id: id, name: Array(name.utf8), country: Array(country.utf8), latitudeE7: lat, longitudeE7: 0)
    }

    static let source = SourceDescription(name: "fixture.json", size: 1234, checksum: 0xDEAD_BEEF, builtAt: 1_700_000_000)

    static func index(_ records: [SourceRecord]) throws -> CityIndex {
        try CityIndex(bytes: Data(IndexBuilder.makeIndex(records: records, source: source).bytes), path: "fixture.mms")
    }

    @Test func everyIdIsFoundAndUnknownOnesAreNot() throws {
        let records = [
            Self.record(7, "Gamma"), Self.record(3, "Alpha"), Self.record(UInt32.max, "Last"), Self.record(0, "Zero"),
            Self.record(5, "Beta"), Self.record(3, "Alpha", lat: 1), Self.record(3, "Aardvark"),
        ]
        let index = try Self.index(records)
        #expect(try index.cities(id: 7).map(\.name) == ["Gamma"])
        #expect(try index.cities(id: 0).map(\.name) == ["Zero"])
        #expect(try index.cities(id: UInt32.max).map(\.name) == ["Last"])
        // Repeated ids: all of them, in key order.
        let threes = try index.cities(id: 3)
        #expect(threes.map(\.name) == ["Aardvark", "Alpha", "Alpha"])
        #expect(threes.map(\.coordinate.latitudeE7) == [0, 0, 1])
        for missing: UInt32 in [1, 2, 4, 6, 8, UInt32.max - 1] {
            #expect(try index.cities(id: missing).isEmpty, "\(missing)")
        }
        #expect(try Self.index([]).cities(id: 1).isEmpty)
    }

    @Test func infoReadsTheHeaderAndSource() throws {
        let built = try IndexBuilder.makeIndex(records: [Self.record(1, "Alpha"), Self.record(2, "Beta")], source: Self.source)
        let index = try CityIndex(bytes: Data(built.bytes), path: "fixture.mms")
        let info = try index.info()
        #expect(info.formatVersion == MMS_FORMAT_VERSION && info.formatVersion == 31)
        #expect(info.recordCount == 2 && info.fileSize == index.fileSize && info.fileSize == built.bytes.count)
        #expect(info.source == Self.source && info.source.kind == .cityList && info.source.joined == nil)
        #expect(info.nodeCount == built.summary.nodeCount && info.entryCount == built.summary.entryCount)
        #expect(info.entryCount == 2 && info.alternateCount == 0 && info.summaryCount == 0 && !info.hasPopulation && !index.hasPopulation)
        // The sections in file order, each where the header's table puts it (the reserved entry left out).
        let file = IndexFile(built.bytes)
        #expect(info.sections.count == IndexFormat.dataSections.count)
        for (section, kind) in zip(info.sections, IndexFormat.dataSections) {
            #expect(section.offset == file.section(kind).lowerBound && section.length == file.section(kind).count, "\(section.name)")
        }
        let names = info.sections.map(\.name)
        #expect(Set(names).count == names.count && !names.contains(""))
        let known = ["labels", "nodes", "entries", "summaries", "top pages", "records", "population", "alternates", "names", "id order",
                     "record regions", "regions", "countries", "qualifier names", "spellings", "source", "spatial", "symbols", "name tables", "place names"]
        #expect(names.filter(known.contains) == known, "\(names)")
        #expect(info.sections.first?.offset == Int(MMS_HEADER_SIZE))
        #expect(info.sections.last.map { $0.offset + $0.length } == info.fileSize)
        // Two records packed at 2 bits an id (the greatest is 2), the coordinates (both 0, 0: in whole
        // degrees, coordinate exponent 7, so 180 and 360 at most, 8 and 9 bits), 2 bits a name offset
        // (NAMES is "Alpha" and "Beta" encoded, each one symbol of a table trained on them, and its end:
        // 4 bytes), the country (1 bit: none, or the one code, "US"); then no id stored apart ("Values stored apart"): their count, 0, is the header's.
        #expect(file.headerValue("coordinate_exponent") == 7)
        let recordBits = 2 + 8 + 9 + 2 + 1
        #expect(info.sections.first { $0.name == "names" }?.length == 4)
        #expect(info.sections.first { $0.name == "name tables" }?.length == Int(MMS_NAME_TABLE_SIZE)) // both Latin
        #expect(info.sections.first { $0.name == "records" }?.length == PackedArrays.byteCount(count: 2, width: recordBits))
        #expect(file.headerValue("record_id_apart_count") == 0)
        #expect(info.sections.first { $0.name == "population" }?.length == 0)
        #expect(info.sections.first { $0.name == "source" }?.length == Int(MMS_SOURCE_SIZE) + "fixture.json".utf8.count)
        #expect(info.checksum == IndexChecksum.compute(built.bytes))
    }

    /// With alternate names and populations (a list joined with a GeoNames dump): the counts, the
    /// population section, and both source names.
    @Test func infoOfAJoinedIndex() throws {
        let source = SourceDescription(name: "city.list.json", size: 10, checksum: 11, builtAt: 12, kind: .cityList,
                                       joined: SourceDescription.InputFile(name: "cities500.txt", size: 13, checksum: 14))
        var records = (0 ..< 40).map { Self.record(UInt32($0), "San \($0)") }
        records[0].alternateNames = [Array("Saint Zero".utf8), Array("zero".utf8), Array("SAN 0".utf8)] // the last two are dropped
        records[1].population = 123_456
        let built = try IndexBuilder.makeIndex(records: records, source: source)
        let index = try CityIndex(bytes: Data(built.bytes), path: "joined.mms")
        let info = try index.info()
        #expect(info.source == source)
        #expect(info.alternateCount == 1 && built.summary.alternateCount == 1)
        // 40 primary keys, 40 word keys ("0" ... "39"), one alternate key and its word key ("zero"),
        // and the spelling "St Zero" (rules 4) with its own.
        #expect(info.spellingCount == 1 && built.summary.spellingCount == 1)
        #expect(info.entryCount == 84 && built.summary.entryCount == 84)
        #expect(info.summaryCount >= 2) // the root and "san " have more than 32 entries
        #expect(info.hasPopulation && index.hasPopulation)
        // The smallest section ("Values stored apart"): a bit a record (0, or 1 for the one stored apart), the
        // tail, then 123,456 in 4 bytes (its count, 1, the header's), not 17 bits a record.
        #expect(PackedArrays.widthApart(records.map(\.population)) == (1, 1))
        #expect(info.sections.first { $0.name == "population" }?.length == PackedArrays.byteCount(count: records.count, width: 1) + 4)
        #expect(IndexFile(built.bytes).headerValue("population_apart_count") == 1)
        #expect(info.sections.first { $0.name == "source" }?.length == Int(MMS_SOURCE_SIZE) + "city.list.json".utf8.count + "cities500.txt".utf8.count)
        #expect(try index.cities(id: 1).first?.population == 123_456)
        #expect(try index.cities(id: 2).first?.population == 0)
        #expect(try index.cities(id: 0).first?.matchedName == nil)
        // A dump alone is a source of its own kind.
        let dump = SourceDescription(name: "cities500.txt", size: 1, checksum: 2, builtAt: 3, kind: .geoNamesDump)
        let fromDump = try CityIndex(bytes: Data(IndexBuilder.makeIndex(records: records, source: dump).bytes))
        #expect(try fromDump.info().source == dump)
        try index.verify()
    }

    /// With regions and countries: their counts, the qualified flag, the record regions section (a
    /// uint16_t a record), both files in the source, and a city's region.
    @Test func infoOfAnIndexWithRegionsAndCountries() throws {
        let source = SourceDescription(name: "cities500.txt", size: 1, checksum: 2, builtAt: 3, kind: .geoNamesDump,
                                       admin1: SourceDescription.InputFile(name: "admin1CodesASCII.txt", size: 4, checksum: 5),
                                       countries: SourceDescription.InputFile(name: "countryInfo.txt", size: 6, checksum: 7))
        var records = [Self.record(1, "Springfield"), Self.record(2, "Springfield"), Self.record(3, "Paris")]
        records[0].admin1 = Admin1Key(country: Array("US".utf8), code: Array("IL".utf8))
        records[1].admin1 = Admin1Key(country: Array("US".utf8), code: Array("MO".utf8))
        records[2].admin1 = Admin1Key(country: Array("US".utf8), code: Array("XX".utf8)) // named by no row: no region
        let regions = [("IL", "Illinois"), ("MO", "Missouri"), ("OR", "Oregon")].map { Admin1Region(country: Array("US".utf8), code: Array($0.0.utf8), name: Array($0.1.utf8)) }
        let countries = [CountryInfo(code: Array("US".utf8), iso3: Array("USA".utf8), name: Array("United States".utf8)),
                         CountryInfo(code: Array("FR".utf8), iso3: Array("FRA".utf8), name: Array("France".utf8))]
        let built = try IndexBuilder.makeIndex(records: records, source: source, regions: regions, countries: countries)
        let index = try CityIndex(bytes: Data(built.bytes), path: "regions.mms")
        let info = try index.info()
        #expect(info.source == source)
        // Only what some record has: two regions, one country.
        #expect(info.regionCount == 2 && info.countryCount == 1 && info.matchesQualifiers)
        #expect(built.summary.regionRecords == 2 && built.summary.countryRecords == 3)
        // Two regions: 2 bits a record (3, every bit set, is "no region"), then the tail.
        #expect(info.sections.first { $0.name == "record regions" }?.length == PackedArrays.byteCount(count: records.count, width: 2))
        #expect(info.sections.first { $0.name == "regions" }?.length == 2 * Int(MMS_REGION_SIZE))
        #expect(info.sections.first { $0.name == "countries" }?.length == Int(MMS_COUNTRY_SIZE))
        #expect(try index.cities(id: 1).first?.region == "Illinois" && index.cities(id: 2).first?.region == "Missouri")
        #expect(try index.cities(id: 3).first?.region == nil)
        #expect(try index.search("springfield, il").map(\.id) == [1] && index.search("springfield mis").map(\.id) == [2])
        #expect(try index.search("springfield, usa, illinois").map(\.id) == [1] && index.search("paris, united").map(\.id) == [3])
        try index.verify()
        // Without regions and countries there is no such matching, and no sections for them.
        let plain = try Self.index(records)
        #expect(try !plain.info().matchesQualifiers && plain.search("springfield, il", typos: .off).isEmpty)
        #expect(try plain.info().sections.filter { ["record regions", "regions", "countries"].contains($0.name) }.allSatisfy { $0.length == 0 })
    }

    /// A SOURCE section whose name length disagrees with its size is an error with its offset, not a
    /// read past the section.
    @Test func infoChecksTheSourceSection() throws {
        var bytes = try IndexBuilder.makeIndex(records: [Self.record(1, "Alpha")], source: Self.source).bytes
        let sourceOffset = try Self.index([Self.record(1, "Alpha")]).info().sections.first { $0.name == "source" }!.offset
        let nameLengthField = sourceOffset + MemoryLayout<mms_source>.offset(of: \.name_length)!
        bytes[nameLengthField] = 0xFF
        let index = try CityIndex(bytes: Data(bytes), path: "bad.mms")
        #expect(throws: MMSearchError.self) { try index.info() }
        do {
            _ = try index.info()
        } catch {
            guard case let .invalidIndex(_, offset, message) = error else { Issue.record("\(error)"); return }
            #expect(offset == sourceOffset && message.contains("source"))
        }
    }

    /// The real list: every record comes back by its id.
    @Test func everyRecordOfTheRealListComesBackByItsId() async throws {
        let cities = try SharedData.cities.get()
        let index = try CityIndex(path: await RealIndexes.shared.path(.list))
        var byId: [UInt32: Int] = [:]
        for city in cities { byId[city._id, default: 0] += 1 }
        for (position, city) in cities.enumerated() where position % FullTests.count(quick: 31, full: 7) == 0 {
            let found = try index.cities(id: city._id)
            #expect(found.count == byId[city._id])
            #expect(found.contains { $0.name == city.name && $0.country == city.country }, "\(city._id)")
        }
        let info = try index.info()
        #expect(info.source.name == "city.list.json" && info.recordCount == cities.count)
    }
}
