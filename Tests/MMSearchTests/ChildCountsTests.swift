import CMMSearchFormat
@testable import MMSearch
import MMSearchTestSupport
import Testing

/// A node's children come from its block's first child and the counts of the nodes before it in the
/// block, which `children(ofNode:)` adds without a loop: 4-bit counts in byte lanes
/// (`_IndexBytes.childCount`), or, in a wide block (at the top of the trie), its counts as bytes, eight at
/// a time (`_IndexBytes.byteSum`): against the counts read one by one and added up, node after node,
/// for every node of the list's index and of the README's; and the two word tricks against loops.
@Suite struct ChildCountsTests {
    @Test(arguments: [RealInput.list, .joinedRegions])
    func everyNodesChildrenAreItsCountsAddedUp(input: RealInput) async throws {
        let index = try CityIndex(path: try await RealIndexes.shared.path(input))
        var differing: [(node: Int, read: Range<Int>, decoded: Range<Int>)] = []
        var inWideBlocks = 0, inNarrowBlocks = 0
        try index.withBytes { (bytes: _IndexBytes) throws(MMSearchError) in
            let layout = bytes.layout, blockNodes = Int(MMS_CHILD_BLOCK_NODES)
            var nextChild = 1
            for block in 0 ..< (layout.nodeCount + blockNodes - 1) / blockNodes {
                let offset = layout.children + block * MemoryLayout<mms_child_block>.stride
                let counts = offset + MemoryLayout<mms_child_block>.offset(of: \.counts)!
                let isWide = bytes.raw[offset + MemoryLayout<mms_child_block>.offset(of: \.delta_bits)!] & UInt8(MMS_CHILD_BLOCK_WIDE) != 0
                for node in block * blockNodes ..< min(layout.nodeCount, block * blockNodes + blockNodes) {
                    let slot = node % blockNodes, count: Int
                    if isWide {
                        let number = Int(bytes.raw[counts]) | Int(bytes.raw[counts + 1]) << 8
                        count = Int(bytes.raw[layout.wideChildCounts + (number - 1) * MemoryLayout<mms_wide_child_counts>.stride + slot])
                        inWideBlocks += 1
                    } else {
                        count = Int(bytes.raw[counts + slot / 2] >> UInt8(4 * (slot % 2)) & 0xF)
                        inNarrowBlocks += 1
                    }
                    let decoded = nextChild ..< nextChild + count
                    nextChild += count
                    let read = try bytes.children(ofNode: node).nodes
                    if read != decoded { differing.append((node, read, decoded)) }
                }
            }
            #expect(nextChild == layout.nodeCount)
        }
        #expect(differing.count == 0, "\(differing.count) nodes differ: \(differing.prefix(3))")
        // Both kinds are read: wide blocks at the top of the trie, narrow ones below.
        #expect(inWideBlocks > 1_000 && inNarrowBlocks > 100_000, "\(inWideBlocks) nodes in wide blocks, \(inNarrowBlocks) in narrow ones")
    }

    @Test func childCountsAreTheCountsAdded() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        var words: [UInt64] = [0, 0x00FF_FFFF_FFFF_FFFF, 0x0011_1111_1111_1111, 0x00F0_F0F0_F0F0_F0F0]
        for _ in 0 ..< 3_000 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            words.append(state & 0x00FF_FFFF_FFFF_FFFF | 0xBF00_0000_0000_0000) // 14 counts, delta_bits on top
        }
        var differing: [(word: UInt64, slot: Int)] = []
        for word in words {
            let counts = (0 ..< Int(MMS_CHILD_BLOCK_NODES)).map { Int(word >> UInt64(4 * $0) & 0xF) }
            for slot in counts.indices where _IndexBytes.childCount(word, slot: slot) != (counts[..<slot].reduce(0, +), counts[slot]) {
                differing.append((word, slot))
            }
        }
        #expect(differing.count == 0, "\(differing.count) differ: \(differing.prefix(3))")
    }

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
