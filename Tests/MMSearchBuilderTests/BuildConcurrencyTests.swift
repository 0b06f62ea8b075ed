import Foundation
import MMSearch
import MMSearchTestSupport
import Synchronization
import Testing
@testable import MMSearchBuilder

/// The build's work on two cores (`BuildConcurrency`): both results come back, an error is the one the
/// work in order would have thrown first, and an index is the same bytes however its parts' threads
/// interleave. CI runs this suite under ThreadSanitizer too (its name matches ConcurrencyTests).
struct BuildConcurrencyTests {
    static func error(_ message: String) -> MMSearchError { .invalidOptions(message: message) }

    @Test func bothResultsComeBack() throws {
        let (here, beside) = try BuildConcurrency.run({ () throws(MMSearchError) in (1 ... 1000).reduce(0, +) },
                                                      beside: { () throws(MMSearchError) in String(repeating: "a", count: 3) })
        #expect(here == 500_500)
        #expect(beside == "aaa")
    }

    @Test func theFirstErrorInOrderIsThrownOnceBothHaveEnded() {
        let besideEnded = Atomic<Bool>(false)
        // Both fail: the caller's own work comes first in order, so its error is thrown.
        #expect(throws: Self.error("here")) {
            _ = try BuildConcurrency.run({ () throws(MMSearchError) -> Int in throw Self.error("here") },
                                        beside: { () throws(MMSearchError) -> Int in throw Self.error("beside") })
        }
        // Only the work beside fails: its error.
        #expect(throws: Self.error("beside")) {
            _ = try BuildConcurrency.run({ () throws(MMSearchError) in 1 },
                                        beside: { () throws(MMSearchError) -> Int in throw Self.error("beside") })
        }
        // Only the caller's fails, at once: thrown after the slower work beside has ended, not before.
        #expect(throws: Self.error("here")) {
            _ = try BuildConcurrency.run({ () throws(MMSearchError) -> Int in throw Self.error("here") }, beside: { () throws(MMSearchError) in
                var sum = 0
                for value in 0 ..< 2_000_000 { sum &+= value }
                besideEnded.store(true, ordering: .sequentiallyConsistent)
                return sum
            })
        }
        let ended = besideEnded.load(ordering: .sequentiallyConsistent)
        #expect(ended)
    }

    /// Records with alternates, spellings, populations and several countries, so that every part run
    /// beside another (the names' pool, the labels, the second half's names) has work to do.
    static func records(count: Int, seed: UInt64) -> [SourceRecord] {
        var random = SeededRandom(seed: seed)
        let syllables = ["an", "ber", "ca", "do", "el", "fa", "go", "ha", "in", "lon", "ma", "no", "pa", "ri", "sa", "tö", "ur", "vi", "Ζα", "мо"]
        func word() -> String { (0 ..< Int.random(in: 1 ... 3, using: &random)).map { _ in syllables.randomElement(using: &random)! }.joined().capitalized }
        let countries = ["DE", "FR", "US", "GB", ""]
        return (0 ..< count).map { id in
            var name = word()
            if id % 4 == 0 { name = "Saint " + name }
            if id % 5 == 0 { name += " " + word() }
            let alternates = id % 3 == 0 ? [word(), "Mount " + word(), word() + "-" + word()] : []
            return SourceRecord(id: UInt32(id * 7 + 1), name: Array(name.utf8), country: Array(countries[id % countries.count].utf8),
                                latitudeE7: Int32(id % 1800 * 1_000_000 - 900_000_000), longitudeE7: Int32(id % 3600 * 1_000_000 - 1_800_000_000),
                                alternateNames: alternates.map { Array($0.utf8) }, population: UInt32.random(in: 0 ... 1_000_000, using: &random))
        }
    }

    /// The search keys made in two runs of records and joined (on two cores) are those of one run,
    /// wherever the runs split: the later run's alternates and spellings numbered after the earlier's.
    @Test func theSearchKeysAreTheSameWhereverTheRecordsSplit() throws {
        let records = Self.records(count: 900, seed: 11)
        func keyTexts(_ keys: SearchKeys) -> [[UInt8]] { (0 ..< keys.count).map { Array(keys.pool[keys.key($0)]) } }
        /// The first position where `a` and `b` differ (the shorter one's count if one is the other's start).
        func firstDifference<Value: Equatable>(_ a: [Value], _ b: [Value]) -> Int? {
            a.indices.first { $0 < b.count && a[$0] != b[$0] } ?? (a.count == b.count ? nil : min(a.count, b.count))
        }
        let whole = SearchKeys(sorting: try SearchKeys.Made(orderedRecords: records, split: records.count, file: "t"))
        #expect(whole.spellingCount > 0 && whole.alternates.count > whole.spellingCount)
        for split in [0, 1, 299, records.count / 2, records.count - 1] {
            let keys = SearchKeys(sorting: try SearchKeys.Made(orderedRecords: records, split: split, file: "t"))
            #expect(firstDifference(keys.values, whole.values) == nil, "split at \(split): entry values")
            #expect(firstDifference(keys.records, whole.records) == nil, "split at \(split): records")
            #expect(firstDifference(keys.nameLengths, whole.nameLengths) == nil, "split at \(split): name lengths")
            #expect(firstDifference(keyTexts(keys), keyTexts(whole)) == nil, "split at \(split): keys")
            #expect(keys.spellingCount == whole.spellingCount)
            #expect(firstDifference(keys.alternates.map(\.record), whole.alternates.map(\.record)) == nil, "split at \(split): alternates' records")
            #expect(firstDifference(keys.alternates.map(\.name), whole.alternates.map(\.name)) == nil, "split at \(split): alternates' names")
            #expect(firstDifference(keys.alternates.map(\.spellingForm), whole.alternates.map(\.spellingForm)) == nil, "split at \(split): spellings' forms")
        }
    }

    @Test func anIndexIsTheSameBytesEveryBuild() throws {
        let records = Self.records(count: FullTests.count(quick: 6000, full: 20000), seed: 7)
        let source = SourceDescription(name: "t", size: 0, checksum: 0, builtAt: 0)
        let first = try IndexBuilder.makeIndex(records: records, source: source).bytes
        for _ in 0 ..< 3 {
            let again = try IndexBuilder.makeIndex(records: records, source: source).bytes
            #expect(again == first)
        }
        // And the index is one a reader accepts whole.
        try CityIndex(bytes: Data(first), path: "built.mms").verify()
    }
}
