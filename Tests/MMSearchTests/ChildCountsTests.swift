import CMMSearchFormat
import Foundation
@testable import MMSearch
import MMSearchTestSupport
import Testing

/// A node's children come from its block's first child and the counts of the nodes before it in the
/// block ("The trie"), which `children(ofNode:)` adds without a loop: the nodes with children before it
/// counted in the block's mask (`_IndexBytes.nodesWithChildren`) and their 4-bit counts, the block's
/// 16 and the rest among its bits, added in byte lanes (`_IndexBytes.nibbleSum`),
/// or, in a block of byte counts (at the top of the trie), the bytes added seven a load
/// (`byteSum`): against the counts the tests' view of the layout reads one bit at a time
/// (`IndexFile.childBlock`) added up, node after node, for every node of the list's index and of the
/// README's; and the word tricks against loops.
@Suite struct ChildCountsTests {
    @Test(arguments: [RealInput.list, .joinedRegions])
    func everyNodesChildrenAreItsCountsAddedUp(input: RealInput) async throws {
        let path = try await RealIndexes.shared.path(input)
        let index = try CityIndex(path: path)
        // The counts as the tests' view of the layout reads them, bit by bit (IndexFile.childBlock).
        let file = IndexFile(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        var differing: [(node: Int, read: Range<Int>, decoded: Range<Int>)] = []
        var inByteBlocks = 0, pastTheBlock = 0, inTheBlock = 0
        try index.withBytes { (bytes: _IndexBytes) throws(MMSearchError) in
            let layout = bytes.layout, blockNodes = Int(MMS_CHILD_BLOCK_NODES)
            var nextChild = 1
            for block in 0 ..< (layout.nodeCount + blockNodes - 1) / blockNodes {
                let decodedBlock = file.childBlock(block), counts = decodedBlock.counts
                // More than 16 nodes with children: their further counts are among the block's bits.
                if decodedBlock.inBytes { inByteBlocks += 1 } else if counts.filter({ $0 > 0 }).count > Int(MMS_CHILD_BLOCK_COUNTS) { pastTheBlock += 1 } else { inTheBlock += 1 }
                for node in block * blockNodes ..< min(layout.nodeCount, block * blockNodes + blockNodes) {
                    let count = counts[node % blockNodes]
                    let decoded = nextChild ..< nextChild + count
                    nextChild += count
                    // A node without children reads its block alone: its empty range is at the block's first child.
                    let read = try bytes.children(ofNode: node).nodes
                    if read != decoded, !(read.isEmpty && decoded.isEmpty) { differing.append((node, read, decoded)) }
                }
            }
            #expect(nextChild == layout.nodeCount)
        }
        #expect(differing.count == 0, "\(differing.count) nodes differ: \(differing.prefix(3))")
        // Every kind is read: blocks of bytes, and of 4-bit counts all in the block and some past it.
        #expect(inByteBlocks > 100 && pastTheBlock > 100 && inTheBlock > 1_000,
                "\(inByteBlocks) blocks of bytes, \(pastTheBlock) of counts past the block's, \(inTheBlock) with all in it")
    }

    @Test func nibbleSumsAreTheCountsAdded() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        var words: [UInt64] = [0, .max, 0x1111_1111_1111_1111, 0xF0F0_F0F0_F0F0_F0F0]
        for _ in 0 ..< 3_000 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            words.append(state)
        }
        var differing: [(word: UInt64, count: Int)] = []
        for word in words {
            for count in 0 ... 16 where _IndexBytes.nibbleSum(word, before: count) != (0 ..< count).reduce(0, { $0 + Int(word >> UInt64(4 * $1) & 0xF) }) {
                differing.append((word, count))
            }
        }
        #expect(differing.isEmpty, "\(differing.count) differ: \(differing.prefix(3))")
    }

    @Test func nodesWithChildrenAreTheMasksBitsCounted() {
        var state: UInt64 = 0x6A09_E667_F3BC_C908
        var masks: [UInt32] = [0, .max, 1, 1 << 31, 0x5555_5555]
        for _ in 0 ..< 3_000 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            masks.append(UInt32(truncatingIfNeeded: state))
        }
        var differing: [(mask: UInt32, slot: Int)] = []
        for mask in masks {
            for slot in 0 ..< Int(MMS_CHILD_BLOCK_NODES) {
                let expected = ((0 ..< slot).filter { mask >> UInt32($0) & 1 == 1 }.count, (0 ..< 32).filter { mask >> UInt32($0) & 1 == 1 }.count)
                if _IndexBytes.nodesWithChildren(mask, before: slot) != expected { differing.append((mask, slot)) }
            }
        }
        #expect(differing.isEmpty, "\(differing.count) differ: \(differing.prefix(3))")
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
