import CMMSearchFormat
import Foundation
import MMSearch
@testable import MMSearchBuilder
import MMSearchTestSupport
import Testing

/// Labels stored without their keys' country tail (format 25): the builder leaves out the tail of a
/// label into a node with own keys, and a reader makes it from the record of the node's first entry.
/// Names chosen so that the tails meet the cases a reader must get right: one name in several
/// countries (the labels "ondon" share their bytes), a name that itself ends like a tail ("Foo, Ba" in
/// XX beside "Foo" in BA: a node with own keys and children), codes as given in two cases ("us" and
/// "US"), a numeric code, a record without a country (no tail), names of exactly a tail's length. Every
/// prefix of every key, each with a typo, answers as rank.py's reference does, and verify accepts it.
struct LabelTailTests {
    static let records: [(name: String, country: String)] = [
        ("London", "GB"), ("London", "CA"), ("London", "us"), ("London", "US"), ("London", ""), ("Londonderry", "GB"),
        ("Foo, Ba", "XX"), ("Foo", "BA"), ("Foo", "XX"), ("Fo", "B1"), ("Ab", "CD"), ("Abcd", "EF"), ("Ab, Cd", "EF"),
        ("São Paulo", "BR"), ("Sao", "PT"), ("Zürich", "CH"), ("Zurich", "CH"), ("Zu", ""),
    ]

    @Test func everyPrefixIntoTheTailsAnswersAsTheReference() throws {
        let source = Self.records.enumerated().map { number, record in
            SourceRecord(id: UInt32(number + 1), name: Array(record.name.utf8), country: Array(record.country.utf8),
                         latitudeE7: Int32(number) * 10_000, longitudeE7: 0)
        }
        let bytes = try IndexBuilder.makeIndex(records: source, source: IndexMutationTests.source).bytes
        let file = IndexFile(bytes)
        let labels = file.section(MMS_SECTION_LABELS)
        let tailEnds = labels.count { file.bytes[$0] == UInt8(MMS_LABEL_TAIL_END) }
        #expect(tailEnds >= 4, "\(tailEnds) labels end with their country tail")
        let index = try CityIndex(bytes: Data(bytes), path: "tails.mms")
        try index.verify()
        let reference = RankedReference(records: Self.records.enumerated().map { number, record in
            ReferenceRecord(id: UInt32(number + 1), name: record.name, country: record.country)
        })
        var queries: Set<String> = []
        for record in Self.records {
            let text = record.country.isEmpty ? record.name : record.name + ", " + record.country
            for length in 1 ... text.count {
                let prefix = String(text.prefix(length))
                queries.insert(prefix)
                queries.insert(prefix.uppercased())
                queries.insert(prefix + "x") // one typo past the prefix
            }
        }
        var matchedInTails = 0
        for query in queries.sorted() {
            for (match, order) in [(MatchMode.words, ResultOrder.rank), (.name, .name)] {
                let (expected, typos) = reference.search(query, match: match, order: order, typos: .on)
                let results = try index.search(query, match: match, order: order)
                let ids = try results.cities(in: 0 ..< results.count).map(\.id)
                #expect(ids == expected.map { reference.records[$0.record].id } && results.typos == typos, "\(query.debugDescription) \(match)/\(order)")
                if query.contains(", "), !expected.isEmpty { matchedInTails += 1 }
            }
        }
        #expect(matchedInTails > 50, "\(matchedInTails) answers to queries that walk into a tail")
    }
}
