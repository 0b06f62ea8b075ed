import CMMSearchFormat
import MMSearch

/// ALTERNATE_BLOCKS and ALTERNATE_DELTAS (`include/mmsearch_format.h`, "Alternates' records"): the
/// alternates' records, MMS_ALTERNATE_BLOCK_SIZE a block, each block its least record and each
/// record's difference from it at the block's least width, then a last block where the deltas end.
struct AlternateBlocks {
    private(set) var blocks: [mms_alternate_block] = []
    private(set) var deltas: [UInt8] = []

    /// `records[i]` is alternate i's record (the given alternates', then the spellings'); `file` names
    /// the input in the error when the deltas would pass the 32-bit offsets of the blocks.
    init(records: [UInt32], file: String) throws(MMSearchError) {
        var bits = BitWriter()
        let size = Int(MMS_ALTERNATE_BLOCK_SIZE)
        blocks.reserveCapacity(records.count / size + 2)
        for start in Swift.stride(from: 0, to: records.count, by: size) {
            let block = records[start ..< Swift.min(start + size, records.count)]
            let least = block.min()!, greatest = block.max()!
            let width = UInt32.bitWidth - (greatest - least).leadingZeroBitCount
            guard bits.count + size * width <= Int(UInt32.max) else {
                throw .limitExceeded(file: file, message: "\(records.count) alternate names; their records' deltas pass the 2^32 bits a block can point to")
            }
            blocks.append(mms_alternate_block(least_record: least, delta_bit: UInt32(bits.count)))
            for slot in 0 ..< size {
                bits.append(start + slot < records.count ? UInt64(records[start + slot] - least) : 0, width: width)
            }
        }
        blocks.append(mms_alternate_block(least_record: 0, delta_bit: UInt32(bits.count)))
        deltas = bits.finished + [UInt8](repeating: 0, count: Int(MMS_PACKED_TAIL))
    }
}
