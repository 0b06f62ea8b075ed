import CMMSearchFormat
import MMSearch

/// COUNTRY_RUNS, ENTRY_BLOCKS and ENTRY_DELTAS (`include/mmsearch_format.h`, "Country entries"): for
/// each country code the records hold, the positions of its records' entries, ascending, in blocks of
/// MMS_ENTRY_BLOCK_SIZE, each its first position and the steps to the next ones as Elias-gamma codes.
struct CountryEntriesBuilder {
    private(set) var runs: [mms_country_run] = []
    private(set) var blocks: [mms_entry_block] = []
    private(set) var deltas: [UInt8] = []

    /// `entryRecords[i]` is the record of entry i (entries in key order); `recordCountries[r]` record r's
    /// country key (`CountryKey.of`, 0 for none).
    /// `file` names the input in the error when the steps would pass the 32-bit offsets of the blocks.
    init(entryRecords: [UInt32], recordCountries: [UInt16], file: String) throws(MMSearchError) {
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
                guard bits.count <= Int(UInt32.max) else {
                    throw .limitExceeded(file: file, message: "\(entryRecords.count) entries; the country entries' steps pass the 2^32 bits a block can point to")
                }
                blocks.append(mms_entry_block(first: block.first!, delta_bit: UInt32(bits.count)))
                for (previous, position) in zip(block, block.dropFirst()) { Self.appendStep(UInt64(position - previous), to: &bits) }
            }
        }
        deltas = bits.finished + [UInt8](repeating: 0, count: Int(MMS_ENTRY_DELTAS_TAIL))
    }

    /// Appends step `step` (at least 1) as its Elias-gamma code, least significant bit first: z =
    /// floor(log2 step) zeros, a one, then the step's low z bits.
    static func appendStep(_ step: UInt64, to bits: inout BitWriter) {
        let zeros = UInt64.bitWidth - 1 - step.leadingZeroBitCount
        bits.append(0, width: zeros)
        bits.append(1, width: 1)
        bits.append(step & ((1 << UInt64(zeros)) - 1), width: zeros)
    }
}
