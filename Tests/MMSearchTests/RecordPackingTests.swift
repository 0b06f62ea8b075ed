import CMMSearchFormat
import Foundation
@testable import MMSearch
import MMSearchBuilder
import MMSearchTestSupport
import Testing

/// RECORDS holds each record at the widths its values need (format 11): coordinates in the greatest
/// unit of 10^k x 1e-7 degree that every one is a whole number of, country codes as numbers of two
/// base-62 digits, no name lengths. Each record built must read back exactly, and verify must hold.
@Suite struct RecordPackingTests {
    static let source = SourceDescription(name: "packing.json", size: 0, checksum: 0, builtAt: 0)

    static func record(_ id: UInt32, _ name: String, _ country: String, _ latitudeE7: Int32, _ longitudeE7: Int32) -> SourceRecord {
        SourceRecord(id: id, name: Array(name.utf8), country: Array(country.utf8), latitudeE7: latitudeE7, longitudeE7: longitudeE7)
    }

    /// The exponent is the greatest that divides every coordinate (at most 7: whole degrees), and the
    /// coordinates read back exactly at each one, the extremes included.
    @Test(arguments: [
        (Int32(445_499_990), Int32(342_833_330), 1),   // 44.549999, 34.283333: the list's six decimals
        (Int32(280_000_000), Int32(-1_257_400), 2),    // 28, -0.12574
        (Int32(900_000_000), Int32(-1_800_000_000), 7), // the pole and the 180th meridian, in whole degrees
        (Int32(-15_000_000), Int32(1_799_999_999), 0),  // -1.5, 179.9999999: seven decimals
    ])
    func coordinatesAtTheGreatestUnit(latitudeE7: Int32, longitudeE7: Int32, exponent: Int) throws {
        let records = [Self.record(1, "Alpha", "UA", latitudeE7, longitudeE7), Self.record(2, "Beta", "UA", 0, 0)]
        let bytes = try IndexBuilder.makeIndex(records: records, source: Self.source).bytes
        #expect(IndexFile(bytes).headerValue("coordinate_exponent") == exponent)
        let index = try CityIndex(bytes: Data(bytes))
        try index.verify()
        let alpha = try index.cities(id: 1)
        #expect(alpha.map(\.coordinate) == [Coordinate(latitudeE7: latitudeE7, longitudeE7: longitudeE7)])
        #expect(try index.cities(id: 2).map(\.coordinate) == [Coordinate(latitudeE7: 0, longitudeE7: 0)])
    }

    /// Every code of two digits or ASCII letters reads back as given, none as none; a search restricted
    /// to a country finds its records, upper- or lower-case as the filter compares them.
    @Test func countryCodesReadBackAsGiven() throws {
        let codes = ["UA", "us", "Fr", "00", "z9", "9Z", "zz", "AA", ""]
        let records = codes.enumerated().map { Self.record(UInt32($0 + 1), "Place \($0)", $1, 0, 0) }
        let bytes = try IndexBuilder.makeIndex(records: records, source: Self.source).bytes
        let index = try CityIndex(bytes: Data(bytes))
        try index.verify()
        for (number, code) in codes.enumerated() {
            #expect(try index.cities(id: UInt32(number + 1)).map(\.country) == [code])
        }
        let file = IndexFile(bytes)
        #expect((0 ..< file.recordCount).map { file.countryCode(ofRecord: $0) }.filter { $0 != (0, 0) }.count == codes.count - 1)
        // RECORD_COUNTRIES holds the 8 codes as given, in byte order ("US" and "us" would be two), and a
        // record's country is 1 + its code's number there: 4 bits for 0 to 8 ("Records' countries").
        let stored = file.recordCountryCodes.map { String(decoding: [$0.0, $0.1], as: UTF8.self) }
        #expect(stored == codes.filter { !$0.isEmpty }.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        #expect(file.packedWidth(MMS_SECTION_RECORDS, field: "country") == 4)
        let american = try index.search("place", filter: GeoFilter(countries: ["US"]))
        #expect(try american.cities(in: 0 ..< american.count).map(\.id) == [2])
    }

    /// Ids at the width of the smallest section, the few greatest stored apart ("Values stored apart",
    /// format 21), as the list's 3 ids of 2^23 or more among 209,579: each id reads back, by its record
    /// and by `cities(id:)`, the greatest possible too; with none far greater, none is stored apart.
    @Test(arguments: [
        ([UInt32](1 ... 60) + [102_908_597, 71_296_900, UInt32.max], 6, 3), // 6 bits, 3 apart
        ([UInt32](1 ... 20) + [40], 6, 0),                                  // 6 bits: 40 apart at 5 bits costs more
        ([UInt32](1 ... 60) + [63, 1000], 6, 2),                            // 63 is at the threshold 2^6 - 2
    ])
    func idsAtTheSmallestSection(ids: [UInt32], width: Int, apart: Int) throws {
        let records = ids.enumerated().map { Self.record($1, "Place \($0)", "UA", 0, 0) }
        let bytes = try IndexBuilder.makeIndex(records: records, source: Self.source).bytes
        let file = IndexFile(bytes)
        #expect(PackedArrays.widthApart(ids) == (width, apart))
        #expect(file.headerValue("record_id_bits") == width && file.valuesApart(MMS_SECTION_RECORDS).count == 4 * apart)
        #expect((0 ..< file.recordCount).map { UInt32(file.id(ofRecord: $0)) }.sorted() == ids.sorted())
        let index = try CityIndex(bytes: Data(bytes))
        try index.verify()
        for (number, id) in ids.enumerated() {
            #expect(try index.cities(id: id).map(\.name) == ["Place \(number)"])
        }
        #expect(try index.search("place").cities(in: 0 ..< ids.count).map(\.id).sorted() == ids.sorted())
    }

    /// A code that is not two digits or ASCII letters is refused by name, before anything is written.
    @Test(arguments: ["U", "USA", "u!", "É1", " A"])
    func otherCountryCodesAreRefused(code: String) {
        let records = [Self.record(1, "Alpha", "UA", 0, 0), Self.record(77, "Beta", code, 0, 0)]
        #expect {
            _ = try IndexBuilder.makeIndex(records: records, source: Self.source)
        } throws: { error in
            "\(error)".contains("record 77") && "\(error)".contains("country code")
        }
    }
}
