import CMMSearchFormat
import Foundation
@testable import MMSearch
import MMSearchBuilder
import MMSearchTestSupport
import Testing

/// The alternates' records are stored apart from their names since format 12 ("Alternates' records":
/// ALTERNATE_BLOCKS, 32 alternates a block, each its least record, and ALTERNATE_DELTAS). Each record
/// the reader gives must be the one the test's own reader of the blocks and deltas (`IndexFile`, bit by
/// bit) gives, and each record's run of alternates (`alternates(ofRecord:in:)`, a search over the
/// blocks then over one block) the run a linear scan of those records finds; and each spelling's name
/// made from its record's j-th given alternate (format 29) that alternate's, found in that run.
@Suite struct AlternateBlocksTests {
    /// Checks every `stride`-th alternate's record against `IndexFile`'s, and every `stride`-th record's
    /// given alternates and spellings against a scan, and every `stride`-th spelling's name made from a
    /// given alternate; returns the records' alternates (given, then spellings) as the reader gives them,
    /// and how many spellings' names it checked.
    static func check(_ bytes: [UInt8], stride: Int) throws -> (owners: [Int], placesChecked: Int) {
        let file = IndexFile(bytes)
        let index = try CityIndex(bytes: Data(bytes))
        return try index.withBytes { (raw: _IndexBytes) throws(MMSearchError) -> (owners: [Int], placesChecked: Int) in
            let layout = raw.layout
            #expect(layout.alternateCount == file.alternateCount && layout.givenAlternateCount == file.givenAlternateCount)
            let owners = try (0 ..< layout.alternateCount).map { (alternate) throws(MMSearchError) in try raw.alternateOwner(alternate) }
            for alternate in Swift.stride(from: 0, to: owners.count, by: stride) {
                #expect(owners[alternate] == file.alternateRecord(alternate), "alternate \(alternate)")
            }
            // Where each record's run starts in a part: the first alternate whose record is at least its
            // (a sweep over the part: its records ascend), and so ends: where the next record's starts.
            var givenStarts: [Int] = []
            for part in [0 ..< layout.givenAlternateCount, layout.givenAlternateCount ..< layout.alternateCount] {
                var starts = [Int](repeating: part.upperBound, count: layout.recordCount + 1), record = 0
                for alternate in part {
                    while record <= min(owners[alternate], layout.recordCount) { starts[record] = alternate; record += 1 }
                }
                for record in Swift.stride(from: 0, to: layout.recordCount, by: stride) {
                    #expect(raw.alternates(ofRecord: record, in: part) == starts[record] ..< starts[record + 1], "record \(record) in \(part)")
                }
                if givenStarts.isEmpty { givenStarts = starts }
            }
            // Each spelling's name: its place (read bit by bit) among its record's names, the j-th of its
            // given alternates found in the sweep's run, against the reader's (one search for the run's
            // start, then the owner of the j-th checked).
            let threshold = file.apartThreshold(MMS_SECTION_SPELLINGS)
            var placesChecked = 0
            for spelling in Swift.stride(from: 0, to: layout.alternateCount - layout.givenAlternateCount, by: stride) {
                let place = file.packedValue(MMS_SECTION_SPELLINGS, spelling, field: "place"), record = owners[layout.givenAlternateCount + spelling]
                guard place > 0, place < threshold else { continue }
                #expect(Int(place) <= givenStarts[record + 1] - givenStarts[record], "spelling \(spelling)'s place")
                let expected = file.packedValue(MMS_SECTION_ALTERNATES, givenStarts[record] + Int(place) - 1, field: "name_offset")
                #expect(UInt64(try raw.spellingNameOffset(layout.givenAlternateCount + spelling)) == expected, "spelling \(spelling)")
                placesChecked += 1
            }
            return (owners, placesChecked)
        }
    }

    /// Generated records with none, one, a few and many alternates (a block of one record: width 0;
    /// a record over several blocks), runs of records without any (wide blocks), and spellings (the
    /// second part, starting inside a block): every record and run as read back, and verify holds.
    @Test(arguments: [0, 1, 2])
    func generatedAlternatesReadBack(seed: UInt64) throws {
        var random = SeededRandom(seed: 41 + seed)
        var records: [SourceRecord] = []
        for number in 0 ..< 400 {
            let count = [0, 0, 0, 1, 2, 3, 5, 40, 75].randomElement(using: &random)!
            let name = (number % 3 == 0 ? "Saint " : "") + "Place\(number)"
            let alternates = (0 ..< (number % 50 < 20 ? 0 : count)).map { Array("Other\(number) Name\($0)".utf8) }
            records.append(SourceRecord(id: UInt32(number + 1), name: Array(name.utf8), country: Array("US".utf8),
                                        latitudeE7: Int32(number) * 1000, longitudeE7: 0, alternateNames: alternates, population: UInt32(number)))
        }
        let bytes = try IndexBuilder.makeIndex(records: records, source: SourceDescription(name: "alternates", size: 0, checksum: 0, builtAt: 0)).bytes
        try CityIndex(bytes: Data(bytes)).verify()
        let owners = try Self.check(bytes, stride: 1).owners
        let file = IndexFile(bytes)
        #expect(file.givenAlternateCount > 500 && file.alternateCount > file.givenAlternateCount)
        #expect(file.givenAlternateCount % Int(MMS_ALTERNATE_BLOCK_SIZE) != 0 || seed > 0, "the spellings start inside a block")
        // Each record's given alternates, by the reader, are its names as given (none of these is dropped).
        let index = try CityIndex(bytes: Data(bytes))
        for record in records where !record.alternateNames.isEmpty {
            let city = try #require(try index.cities(id: record.id).first)
            let found = try index.search(String(decoding: record.alternateNames[0], as: UTF8.self), match: .name)
            #expect(try found.cities(in: 0 ..< found.count).contains { $0.id == city.id }, "\(city.name) by its first other name")
        }
        // Width 0 (a block of one record's alternates) and a wide block are both met.
        let size = Int(MMS_ALTERNATE_BLOCK_SIZE)
        let spans = Swift.stride(from: 0, to: owners.count, by: size).map { owners[$0 ..< min(owners.count, $0 + size)] }.map { $0.max()! - $0.min()! }
        #expect(spans.contains(0) && spans.contains { $0 >= 8 })
    }

    /// The README's index: every alternate's record against `IndexFile`'s (every 13th in the quick run),
    /// every record's runs against a scan (every 13th).
    @Test func realIndexAlternatesReadBack() async throws {
        let path = try await RealIndexes.shared.path(.joinedRegions)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let (owners, placesChecked) = try Self.check(bytes, stride: FullTests.count(quick: 13, full: 1))
        #expect(placesChecked > 1_000, "spellings made from a given alternate: \(placesChecked) checked")
        #expect(owners.count > 500_000 && zip(owners, owners.dropFirst()).filter { $0 > $1 }.count == 1) // sorted in each part
    }
}
