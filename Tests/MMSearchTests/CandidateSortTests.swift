@testable import MMSearch
import MMSearchTestSupport
import Testing

/// The radix sort of a search's candidates (record << 35 | class << 32 | position) gives what a
/// comparison sort gives, for candidates made in position order (one node's entries) and in any
/// order (several nodes, the typo fallback), small and large record numbers, lists short and long.
@Suite struct CandidateSortTests {
    @Test(arguments: [10, 209_579, (1 << 29) - 1])
    func radixSortAsSort(recordCount: Int) {
        var generator = SeededRandom(seed: UInt64(recordCount))
        for count in [0, 1, 255, 257, 3_000, 40_000] {
            for inPositionOrder in [true, false] {
                var position = UInt64(generator.next() % 1_000)
                var candidates: [UInt64] = []
                for _ in 0 ..< count {
                    position += inPositionOrder ? 1 + generator.next() % 40 : 0
                    let at = inPositionOrder ? position : generator.next() % (1 << 32)
                    let record = generator.next() % UInt64(recordCount), matchClass = generator.next() % 7
                    candidates.append(record << 35 | matchClass << 32 | at)
                }
                if !inPositionOrder { candidates = Array(Set(candidates)) } // positions never repeat in a search
                var sorted = candidates
                _IndexBytes.sortByRecordAndClass(&sorted, recordCount: recordCount)
                let same = sorted == candidates.sorted() // not in the #expect: its failure would print both lists
                #expect(same, "\(count) candidates, \(recordCount) records, in position order: \(inPositionOrder)")
            }
        }
    }
}
