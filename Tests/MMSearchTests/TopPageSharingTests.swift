import CMMSearchFormat
import Foundation
import MMSearch
@testable import MMSearchBuilder
import MMSearchTestSupport
import Testing

/// First pages stored once (format 28, "TOP pages"): a page whose bits are an earlier page's is not
/// stored again, and its node reads it where the earlier one is. Names chosen so that big nodes have
/// the page of their biggest child: "Santa ..." cities, the most populous, fill the first page of
/// "s", "sa" and "san" as of "santa " (pages of name numbers, at nodes of more than 256 keys), and
/// "Porto ..." cities that of "port" as of "porto " (positions among the node's keys, which start at
/// the same key). Every prefix of every name answers as rank.py's reference does, and verify accepts it.
struct TopPageSharingTests {
    static let records: [ReferenceRecord] = {
        var random = SeededRandom(seed: 28)
        var records: [ReferenceRecord] = []
        func add(_ name: String, population: UInt32) {
            records.append(ReferenceRecord(id: UInt32(records.count + 1), name: name, country: "US", population: population))
        }
        for number in 0 ..< 300 { add("Santa " + IndexMutationTests.syllableWord(&random), population: 100_000 + UInt32(number)) }
        for number in 0 ..< 30 { add("San " + IndexMutationTests.syllableWord(&random), population: UInt32(number)) }
        for number in 0 ..< 30 { add("Sa" + IndexMutationTests.syllableWord(&random).lowercased(), population: UInt32(number)) }
        for number in 0 ..< 40 { add("Porto " + IndexMutationTests.syllableWord(&random), population: 5_000 + UInt32(number)) }
        for number in 0 ..< 5 { add("Portage " + IndexMutationTests.syllableWord(&random), population: UInt32(number)) }
        return records
    }()

    @Test func equalPagesAreStoredOnceAndEveryNodeReadsItsOwn() throws {
        let source = Self.records.enumerated().map { number, record in
            SourceRecord(id: record.id, name: Array(record.name.utf8), country: Array(record.country.utf8),
                         latitudeE7: Int32(number) * 10_000, longitudeE7: 0, population: record.population)
        }
        let bytes = try IndexBuilder.makeIndex(records: source, source: IndexMutationTests.source).bytes
        let file = IndexFile(bytes)
        // Summaries that read another's page: at least the big nodes above "santa " and "port" above "porto ".
        let firsts = (0 ..< file.count(of: MMS_SECTION_SUMMARIES)).map { file.packedValue(MMS_SECTION_SUMMARIES, $0, field: "top_first") }
        let sharing = firsts.count - Set(firsts).count
        #expect(sharing >= 4, "\(sharing) of \(firsts.count) summaries read a page stored for another")
        let index = try CityIndex(bytes: Data(bytes), path: "pages.mms")
        try index.verify()
        let reference = RankedReference(records: Self.records)
        var queries: Set<String> = [""]
        for record in Self.records {
            for length in 1 ... record.name.count { queries.insert(String(record.name.prefix(length))) }
        }
        for query in queries.sorted() {
            for (match, order) in [(MatchMode.words, ResultOrder.rank), (.name, .name)] {
                let (expected, typos) = reference.search(query, match: match, order: order, typos: .on)
                let results = try index.search(query, match: match, order: order)
                let ids = try results.cities(in: 0 ..< min(results.count, 2 * Int(MMS_TOP_COUNT))).map(\.id)
                #expect(results.count == expected.count && ids == expected.prefix(2 * Int(MMS_TOP_COUNT)).map { reference.records[$0.record].id }
                        && results.typos == typos, "\(query.debugDescription) \(match)/\(order)")
            }
        }
    }
}
