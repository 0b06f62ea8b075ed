import Dispatch
import Foundation
import MMSearch
import MMSearchBuilder
import MMSearchTestSupport
import Testing

/// One index shared by many threads answers exactly as it does on one. CI runs this suite under
/// ThreadSanitizer (`swift test --sanitize=thread`).
@Suite struct ConcurrencyTests {
    @Test func manyThreadsAgreeWithOne() throws {
        var random = SeededRandom(seed: 99)
        let syllables = ["an", "ber", "ca", "do", "el", "fa", "go", "ha", "in", "lon", "ma", "no", "pa", "ri", "sa", "tö", "ur", "vi"]
        func word() -> String { (0 ..< Int.random(in: 1 ... 3, using: &random)).map { _ in syllables.randomElement(using: &random)! }.joined().capitalized }
        let records = (0 ..< 5000).map { id -> SourceRecord in
            var name = word()
            if id % 4 == 0 { name += " " + word() }
            let alternates = id % 3 == 0 ? [word(), word() + " " + word()] : []
            return SourceRecord(id: UInt32(id), name: Array(name.utf8), country: Array("DE".utf8), latitudeE7: Int32(id), longitudeE7: 0,
                                alternateNames: alternates.map { Array($0.utf8) }, population: UInt32.random(in: 0 ... 100_000, using: &random))
        }
        let built = try IndexBuilder.makeIndex(records: records, source: SourceDescription(name: "t", size: 0, checksum: 0, builtAt: 0))
        let index = try CityIndex(bytes: Data(built.bytes), path: "shared.mms")
        let queries = [""] + records.prefix(FullTests.count(quick: 120, full: 300)).flatMap { record in
            let name = String(decoding: record.name, as: UTF8.self)
            return (1 ... min(6, name.count)).map { String(name.prefix($0)) }
        }
        let combinations = MatchMode.allCases.flatMap { match in ResultOrder.withoutPoint.map { (match, $0) } }
        /// The first page, a later one (read from the entries), the matched names and the count.
        @Sendable func answer(_ query: String, _ match: MatchMode, _ order: ResultOrder) -> [String]? {
            guard let results = try? index.search(query, match: match, order: order),
                  let first = try? results.cities(in: 0 ..< min(20, results.count)),
                  let later = try? results.cities(in: min(25, results.count) ..< min(35, results.count)) else { return nil }
            return (first + later).map { "\($0.id) \($0.matchedName ?? "")" } + [String(results.count)]
        }
        let expected = queries.enumerated().map { offset, query in
            let (match, order) = combinations[offset % combinations.count]
            return answer(query, match, order)
        }
        #expect(!expected.contains { $0 == nil })

        let threads = 8
        let mismatches = Counter()
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var local = 0
            for round in 0 ..< FullTests.count(quick: 1, full: 3) {
                for offset in 0 ..< queries.count {
                    let position = (offset * (thread + 1) + round) % queries.count // each thread its own order
                    let (match, order) = combinations[position % combinations.count]
                    if answer(queries[position], match, order) != expected[position] { local += 1 }
                }
            }
            mismatches.add(local)
        }
        #expect(mismatches.value == 0)
    }
}

/// A total shared by the threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var total = 0
    func add(_ amount: Int) { lock.withLock { total += amount } }
    var value: Int { lock.withLock { total } }
}
