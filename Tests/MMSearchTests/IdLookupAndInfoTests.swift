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
        let index = try Self.index([Self.record(1, "Alpha"), Self.record(2, "Beta")])
        let info = try index.info()
        #expect(info.formatVersion == MMS_FORMAT_VERSION)
        #expect(info.recordCount == 2 && info.fileSize == index.fileSize)
        #expect(info.source == Self.source)
        #expect(info.sections.map(\.name) == ["nodes", "edges", "labels", "records", "names", "id order", "source"])
        #expect(info.sections.first?.offset == Int(MMS_HEADER_SIZE))
        #expect(info.sections.last.map { $0.offset + $0.length } == info.fileSize)
        #expect(info.sections.first { $0.name == "records" }?.length == 2 * Int(MMS_RECORD_SIZE))
        #expect(info.sections.first { $0.name == "source" }?.length == Int(MMS_SOURCE_SIZE) + "fixture.json".utf8.count)
    }

    /// A SOURCE section whose name length disagrees with its size is an error with its offset, not a
    /// read past the section.
    @Test func infoChecksTheSourceSection() throws {
        var bytes = try IndexBuilder.makeIndex(records: [Self.record(1, "Alpha")], source: Self.source).bytes
        let sourceOffset = try Self.index([Self.record(1, "Alpha")]).info().sections.last!.offset
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
    @Test func everyRecordOfTheRealListComesBackByItsId() throws {
        let cities = try SharedData.cities.get()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("cities.mms")
        try IndexBuilder.build(input: SharedData.cityList, output: path)
        let index = try CityIndex(path: path)
        var byId: [UInt32: Int] = [:]
        for city in cities { byId[city._id, default: 0] += 1 }
        for (position, city) in cities.enumerated() where position % 7 == 0 {
            let found = try index.cities(id: city._id)
            #expect(found.count == byId[city._id])
            #expect(found.contains { $0.name == city.name && $0.country == city.country }, "\(city._id)")
        }
        let info = try index.info()
        #expect(info.source.name == "city.list.json" && info.recordCount == cities.count)
    }
}
