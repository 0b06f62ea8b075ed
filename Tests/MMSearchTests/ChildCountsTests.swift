@testable import MMSearch
import Testing

/// A node's first child is its block's first plus the counts before it, which `children(ofNode:)` adds
/// eight bytes at a time (`_IndexBytes.byteSum`): against adding them one by one.
@Suite struct ChildCountsTests {
    @Test func byteSumsAreTheBytesAdded() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var words: [UInt64] = [0, .max, 0x0101_0101_0101_0101, 0xFF00_FF00_FF00_FF00, 0x00FF_00FF_00FF_00FF]
        for _ in 0 ..< 2_000 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            words.append(state)
        }
        var differing: [(word: UInt64, count: Int)] = []
        for word in words {
            for count in 0 ... 8 {
                let added = (0 ..< count).reduce(0) { $0 + Int(word >> UInt64(8 * $1) & 0xFF) }
                if _IndexBytes.byteSum(word, before: count) != added { differing.append((word, count)) }
            }
        }
        #expect(differing.isEmpty, "\(differing.prefix(3))")
    }
}
