import Foundation
import MMSearch
@testable import MMSearchBuilder
import MMSearchTestSupport
import Testing

/// The list joined with a dump by id (`IndexBuilder.loadRecords`, through `JoinByID`'s merge), against
/// a join by a dictionary of the dump's ids: the records' names, populations and regions.
@Suite struct JoinByIDTests {
    /// Each record given its row as a dictionary of the dump's ids would give it, in the list's order:
    /// the reference the merge is held to.
    static func referenceJoin(_ records: [SourceRecord], _ rows: [GeoNamesRow]) -> (records: [SourceRecord], joined: Int) {
        let rowOfID = Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0) })
        var joined = 0
        let records = records.map { record in
            guard let row = rowOfID[record.id] else { return record }
            var record = record
            record.alternateNames = [row.name, row.asciiName] + row.alternateNames
            record.population = UInt32(row.population)
            record.admin1 = row.admin1Code.isEmpty ? nil : Admin1Key(country: row.country, code: row.admin1Code)
            joined += 1
            return record
        }
        return (records, joined)
    }

    @Test func theMergePairsEachRecordWithTheRowOfItsID() {
        var random = SeededRandom(seed: 22)
        for trial in 0 ..< 200 {
            // Ids from a small range, so that records and rows miss one another; rows in id order in
            // some trials (as GeoNames writes them, nearly), records and the other rows shuffled.
            let range = UInt32(1) ... UInt32(1 + random.next() % 60)
            var recordIDs = Array(Set((0 ..< Int(random.next() % 40)).map { _ in UInt32.random(in: range, using: &random) }))
            var rowIDs = Array(Set((0 ..< Int(random.next() % 40)).map { _ in UInt32.random(in: range, using: &random) }))
            recordIDs.shuffle(using: &random)
            if trial % 3 == 0 { rowIDs.sort() } else { rowIDs.shuffle(using: &random) }

            let recordOrder = JoinByID.idOrder(recordIDs), rowOrder = JoinByID.idOrder(rowIDs)
            #expect(recordOrder == recordIDs.enumerated().map { UInt64($0.element) << 32 | UInt64($0.offset) }.sorted(), "trial \(trial)")
            #expect(rowOrder == rowIDs.enumerated().map { UInt64($0.element) << 32 | UInt64($0.offset) }.sorted(), "trial \(trial)")
            let rowOfRecord = JoinByID.rows(ofRecords: recordOrder, rows: rowOrder)
            let rowOfID = Dictionary(uniqueKeysWithValues: rowIDs.enumerated().map { ($0.element, $0.offset) })
            #expect(rowOfRecord == recordIDs.map { rowOfID[$0] ?? -1 }, "trial \(trial): \(recordIDs) against \(rowIDs)")
        }
    }

    /// A list that misses one of the dump's rows and has a record the dump lacks, joined with a dump
    /// out of id order; rows with and without alternate names and regions.
    @Test func loadRecordsJoinsAsADictionaryWould() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let list = """
            [{"_id":5,"name":"Five","country":"UA","coord":{"lat":1,"lon":2}},
             {"_id":9,"name":"Nine","country":"DE","coord":{"lat":3,"lon":4}},
             {"_id":3,"name":"Three","country":"FR","coord":{"lat":7,"lon":8}},
             {"_id":7,"name":"Seven","country":"US","coord":{"lat":9,"lon":10}}]
            """
        func row(_ id: Int, _ name: String, _ alternates: String, _ admin1: String, _ population: Int, _ country: String) -> String {
            ["\(id)", name, name + " ascii", alternates, "1.5", "-2.25", "P", "PPL", country, "", admin1, "", "", "",
             "\(population)", "", "12", "Europe/Kyiv", "2024-01-01"].joined(separator: "\t")
        }
        let dump = [row(7, "Sieben", "Seven,Siete,,Sept", "IL", 700, "US"), row(3, "Trois", "", "", 30, "FR"),
                    row(11, "Onze", "Eleven", "11", 1100, "FR"), row(5, "Fünf", "Five,Cinq", "01", 500, "UA")].joined(separator: "\n")
        try Data(list.utf8).write(to: URL(fileURLWithPath: directory.file("list.json")))
        try Data(dump.utf8).write(to: URL(fileURLWithPath: directory.file("dump.txt")))

        let loaded = try IndexBuilder.loadRecords(input: directory.file("list.json"), geonames: directory.file("dump.txt"))
        let reference = Self.referenceJoin(try CityListParser.parse(Array(list.utf8), file: "list.json"),
                                           try GeoNamesParser.parse(Array(dump.utf8), file: "dump.txt").rows)
        #expect(loaded.records == reference.records)
        #expect(loaded.joinedRecords == 3)
        #expect(reference.joined == 3)
        #expect(loaded.records.map(\.alternateNames.count) == [4, 0, 2, 6])
        #expect(loaded.records.map(\.population) == [500, 0, 30, 700])
        #expect(loaded.records.map { $0.admin1.map { String(decoding: $0.code, as: UTF8.self) } } == ["01", nil, nil, "IL"])
    }

    /// The real list joined with the real cities500, against the dictionary's join of the same parses.
    @Test func theRealListJoinsAsADictionaryWould() throws {
        let listPath = SharedData.packageRoot + "/../shared/data/city.list.json"
        let dumpPath = GeoNamesParserTests.realDumpPath
        guard FileManager.default.fileExists(atPath: listPath), FileManager.default.fileExists(atPath: dumpPath) else {
            Issue.record("the real list or dump is missing: expected them at \(listPath) and \(dumpPath) (see shared/data/README.md)")
            return
        }
        let loaded = try IndexBuilder.loadRecords(input: listPath, geonames: dumpPath)
        let list = try [UInt8](Data(contentsOf: URL(fileURLWithPath: listPath)))
        let dump = try Gzip.decompress([UInt8](Data(contentsOf: URL(fileURLWithPath: dumpPath))), file: dumpPath)
        let reference = Self.referenceJoin(try CityListParser.parse(list, file: listPath), try GeoNamesParser.parse(dump, file: dumpPath).rows)
        #expect(loaded.joinedRecords == reference.joined)
        #expect(reference.joined == 128_851)  // `mmsearch build`'s own count of this join
        #expect(loaded.records.count == reference.records.count)
        let differing = zip(loaded.records, reference.records).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(differing.count == 0, "records differ, the first at \(differing.prefix(5))")
    }
}
