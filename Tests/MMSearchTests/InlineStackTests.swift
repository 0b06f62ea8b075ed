@testable import MMSearch
import MMSearchTestSupport
import Testing

/// The buffers a small node's search keeps on the stack give what the arrays they stand for give.
@Suite struct InlineStackTests {
    /// `_InlineStack` pops what an array used as a stack pops, through any mix of pushes and pops,
    /// across its buffer's capacity (0, 1, 3 and 24 values inline; up to 200 in all).
    @Test(arguments: [0, 1, 3, 24])
    func popsAsAnArrayDoes(capacity: Int) {
        var generator = SeededRandom(seed: UInt64(capacity) + 1)
        withUnsafeTemporaryAllocation(of: (Int, Int).self, capacity: capacity) { buffer in
            var stack = _InlineStack(buffer)
            var reference: [(Int, Int)] = []
            var pushed = 0, mismatches = 0
            for _ in 0 ..< 2_000 {
                // Pushes twice as likely as pops while the stack is short, so it grows past the buffer.
                if reference.count < 200, generator.next() % 3 != 0 {
                    stack.push((pushed, -pushed))
                    reference.append((pushed, -pushed))
                    pushed += 1
                } else {
                    let popped = stack.pop(), expected = reference.popLast()
                    if popped?.0 != expected?.0 || popped?.1 != expected?.1 { mismatches += 1 }
                }
            }
            while let expected = reference.popLast() {
                if let popped = stack.pop(), popped == expected { continue }
                mismatches += 1
            }
            #expect(mismatches == 0, "capacity \(capacity)")
            #expect(stack.pop() == nil)
            #expect(pushed > 200, "the test pushed past every capacity")
        }
    }

    /// `ordered` ranks as a sort by `Ranking.Rank` does, at every size: a small node's matches by
    /// insertion on the stack (up to 42), more by the library's sort.
    @Test func orderedRanksAsASortDoes() {
        var generator = SeededRandom(seed: 22)
        for count in Array(0 ... 70) + [200] {
            // Populations with ties (so kinds and records break them), records distinct and ascending.
            var record: UInt32 = 0
            var matches: [_Ranked] = []
            for _ in 0 ..< count {
                record += 1 + UInt32(generator.next() % 5)
                let matchClass = UInt32(generator.next() % 7)
                matches.append(_Ranked(record: record, matchClass: matchClass, kind: Ranking.kind(ofClass: matchClass), entry: UInt32(generator.next() % 1_000)))
            }
            let population = { (record: Int) -> UInt64 in UInt64(record % 4) * 1_000 }
            let expected = matches.sorted {
                Ranking.Rank(population: population(Int($0.record)), bestClass: $0.matchClass, kind: $0.kind, record: $0.record)
                    < Ranking.Rank(population: population(Int($1.record)), bestClass: $1.matchClass, kind: $1.kind, record: $1.record)
            }
            let ordered = _IndexBytes.ordered(matches, order: .rank, population: population)
            #expect(ordered.map(\.record) == expected.map(\.record), "\(count) matches")
            #expect(ordered.map(\.entry) == expected.map(\.entry), "\(count) matches")
        }
    }
}
