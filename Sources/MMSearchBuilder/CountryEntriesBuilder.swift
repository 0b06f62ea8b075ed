import CMMSearchFormat
import MMSearch

/// COUNTRY_RUNS, ENTRY_BLOCKS and ENTRY_DELTAS (`include/mmsearch_format.h`, "Country entries"): for
/// each country code the records hold, the positions of its records' entries, ascending, in blocks of
/// MMS_ENTRY_BLOCK_SIZE, each its first position and the gaps after it packed at the block's width.
struct CountryEntriesBuilder {
    private(set) var runs: [mms_country_run] = []
    private(set) var blocks: [mms_entry_block] = []
    private(set) var deltas: [UInt8] = []

    /// `entryRecords[i]` is the record of entry i (entries in key order); `recordCountries[r]` record r's
    /// country key (`CountryKey.of`, 0 for none).
    init(entryRecords: [UInt32], recordCountries: [UInt16]) {
        // Positions by code, ascending (entries visited in order): a counting sort by code.
        var counts = [Int](repeating: 0, count: 1 << 16)
        let codes = entryRecords.map { recordCountries[Int($0)] }
        for value in codes where value != 0 { counts[Int(value)] += 1 }
        var starts = [Int](repeating: 0, count: 1 << 16)
        var total = 0
        for value in 0 ..< 1 << 16 {
            starts[value] = total
            total += counts[value]
        }
        var positions = [UInt32](repeating: 0, count: total)
        var next = starts
        for (position, value) in codes.enumerated() where value != 0 {
            positions[next[Int(value)]] = UInt32(position)
            next[Int(value)] += 1
        }
        var bits = BitWriter()
        let blockSize = Int(MMS_ENTRY_BLOCK_SIZE)
        for value in 1 ..< 1 << 16 where counts[value] > 0 {
            let run = positions[starts[value] ..< starts[value] + counts[value]]
            runs.append(mms_country_run(code: CountryKey.bytes(UInt16(value)), reserved: (0, 0),
                                        block_first: UInt32(blocks.count), block_count: UInt32((run.count + blockSize - 1) / blockSize),
                                        position_count: UInt32(run.count)))
            for blockStart in Swift.stride(from: run.startIndex, to: run.endIndex, by: blockSize) {
                let block = run[blockStart ..< Swift.min(blockStart + blockSize, run.endIndex)]
                var width = 0
                for (previous, position) in zip(block, block.dropFirst()) {
                    let gap = position - previous - 1
                    width = Swift.max(width, UInt32.bitWidth - gap.leadingZeroBitCount)
                }
                blocks.append(mms_entry_block(first: block.first!, delta_bit: UInt32(bits.count), width: UInt8(width), reserved: (0, 0, 0)))
                for (previous, position) in zip(block, block.dropFirst()) { bits.append(UInt64(position - previous - 1), width: width) }
            }
        }
        deltas = bits.finished + [UInt8](repeating: 0, count: Int(MMS_ENTRY_DELTAS_TAIL))
    }
}
