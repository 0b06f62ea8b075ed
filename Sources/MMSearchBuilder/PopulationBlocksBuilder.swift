import CMMSearchFormat
import MMSearch

/// POPULATION (`include/mmsearch_format.h`, "Populations"): a block a MMS_POPULATION_BLOCK_SIZE records
/// saying which have a population above 0 and how many the blocks before have, then those populations
/// alone, packed at the greatest's width. Only the records joined with a dump row have one, so the
/// others cost a bit each instead of a value's width.
struct PopulationBlocksBuilder {
    /// The section's bytes: the blocks, then the packed values and their tail.
    private(set) var bytes: [UInt8] = []
    /// The records with a population above 0 (the header's population_count).
    private(set) var count = 0

    /// `populations[r]` is record r's population; `width` the bits of the greatest.
    init(populations: [UInt32], width: Int) {
        let blockSize = Int(MMS_POPULATION_BLOCK_SIZE)
        var blocks: [mms_population_block] = []
        var values = BitWriter()
        for first in stride(from: 0, to: populations.count, by: blockSize) {
            var present: UInt64 = 0
            for (bit, population) in populations[first ..< min(first + blockSize, populations.count)].enumerated() where population > 0 {
                present |= 1 << UInt64(bit)
                values.append(UInt64(population), width: width)
            }
            var block = mms_population_block()
            block.before = UInt32(count)
            withUnsafeMutableBytes(of: &block.present) { $0.storeBytes(of: present.littleEndian, as: UInt64.self) }
            blocks.append(block)
            count += present.nonzeroBitCount
        }
        blocks.withUnsafeBytes { bytes.append(contentsOf: $0) }
        bytes += values.finished + [UInt8](repeating: 0, count: Int(MMS_PACKED_TAIL))
        precondition(bytes.count == blocks.count * MemoryLayout<mms_population_block>.stride + PackedArrays.byteCount(count: count, width: width))
    }
}
