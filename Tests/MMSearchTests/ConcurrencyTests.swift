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
        let records = (0 ..< 5000).map { id -> SourceRecord in
            let name = (0 ..< Int.random(in: 1 ... 4, using: &random)).map { _ in syllables.randomElement(using: &random)! }.joined()
            return SourceRecord(id: UInt32(id), name: Array(name.capitalized.utf8), country: Array("DE".utf8), latitudeE7: Int32(id), longitudeE7: 0)
        }
        let built = try IndexBuilder.makeIndex(records: records, source: SourceDescription(name: "t", size: 0, checksum: 0, builtAt: 0))
        let index = try CityIndex(bytes: Data(built.bytes), path: "shared.mms")
        let queries = [""] + records.prefix(300).flatMap { record in
            let name = String(decoding: record.name, as: UTF8.self)
            return (1 ... min(6, name.count)).map { String(name.prefix($0)) }
        }
        let expected = try queries.map { try index.search($0).prefix(30).map(\.id) + [UInt32(try index.search($0).count)] }

        let threads = 8
        let mismatches = Counter()
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var local = 0
            for round in 0 ..< 3 {
                for offset in 0 ..< queries.count {
                    let position = (offset * (thread + 1) + round) % queries.count // each thread its own order
                    let results = try? index.search(queries[position])
                    let answer = results.map { $0.prefix(30).map(\.id) + [UInt32($0.count)] }
                    if answer != expected[position] { local += 1 }
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
