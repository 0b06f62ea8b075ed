import CMMSearchFormat

/// Each country's entries (`include/mmsearch_format.h`, "Country entries"): a search restricted to
/// countries reads only theirs under its node, and the typo walk skips the subtrees holding none.
extension _IndexBytes {
    /// A run's blocks, and how many positions it holds (every block MMS_ENTRY_BLOCK_SIZE but the last).
    struct CountryRun: Sendable {
        var blocks: Range<Int>
        var positionCount: Int
    }

    /// COUNTRY_RUNS[index], its blocks checked to lie inside ENTRY_BLOCKS and its count to fit them.
    func countryRun(_ index: Int) throws(MMSearchError) -> (code: UInt16, run: CountryRun) {
        guard index >= 0, index < layout.countryRunCount else {
            throw corrupt(layout.countryRuns, "country run \(index) does not exist (\(layout.countryRunCount) runs)")
        }
        let offset = layout.countryRuns + index * _IndexLayout.countryRunSize
        let run = raw.loadUnaligned(fromByteOffset: offset, as: mms_country_run.self)
        let first = Int(run.block_first), count = Int(run.block_count), positions = Int(run.position_count)
        let blockSize = Int(MMS_ENTRY_BLOCK_SIZE)
        guard first <= layout.entryBlockCount, count <= layout.entryBlockCount - first, positions >= 1,
              count == (positions + blockSize - 1) / blockSize else {
            throw corrupt(offset, "country run \(index) has blocks \(first) + \(count) for \(positions) positions, not inside the \(layout.entryBlockCount) blocks or not as many as its positions need")
        }
        return (CountryKey.packed(run.code), CountryRun(blocks: first ..< first + count, positionCount: positions))
    }

    /// The runs of the countries `filter` admits, when only records of those countries can pass it
    /// (nil when it admits any country, or records without one).
    func countryRuns(_ filter: ResolvedFilter?) throws(MMSearchError) -> [CountryRun]? {
        guard let filter, let codes = filter.countryCodes, !filter.passesWithoutCountry, !filter.passesWithoutISO3 else { return nil }
        var runs: [CountryRun] = []
        // Each code once (a filter may name a country twice, or by both its codes): a few codes, so
        // sorted rather than hashed (making a Set took more instructions than the runs' searches).
        let sorted = codes.sorted()
        for (offset, code) in sorted.enumerated() where offset == 0 || sorted[offset - 1] != code {
            var low = 0, high = layout.countryRunCount
            while low < high {
                let middle = low + (high - low) / 2
                if try countryRun(middle).code < code { low = middle + 1 } else { high = middle }
            }
            if low < layout.countryRunCount, case let (found, run) = try countryRun(low), found == code { runs.append(run) }
        }
        return runs
    }

    /// Block `index` of ENTRY_BLOCKS: its first position (checked to be an entry), and the bit its
    /// steps' codes start at.
    @inline(__always)
    func entryBlock(_ index: Int) throws(MMSearchError) -> mms_entry_block {
        guard index >= 0, index < layout.entryBlockCount else {
            throw corrupt(layout.entryBlocks, "entry block \(index) does not exist (\(layout.entryBlockCount) blocks)")
        }
        let block = raw.loadUnaligned(fromByteOffset: entryBlockOffset(index), as: mms_entry_block.self)
        guard Int(block.first) < layout.entryCount else { throw positionPastEntries(Int(block.first), block: index) }
        return block
    }

    /// The byte of block `index` of ENTRY_BLOCKS: where it is read, and where an error about it points.
    @inline(__always)
    func entryBlockOffset(_ index: Int) -> Int {
        layout.entryBlocks + index * _IndexLayout.entryBlockSize
    }

    /// The error for a position a block gives at or past entry_count.
    func positionPastEntries(_ position: Int, block: Int) -> MMSearchError {
        corrupt(entryBlockOffset(block), "entry block \(block) gives position \(position), past the \(layout.entryCount) entries")
    }

    /// The last of `blocks` (some blocks of one run) that starts at or before `start`, by binary
    /// search; the first of them when none does.
    func lastBlock(in blocks: Range<Int>, startingAtOrBefore start: Int) throws(MMSearchError) -> Int {
        var low = blocks.lowerBound, high = blocks.upperBound
        while low < high {
            let middle = low + (high - low) / 2
            if Int(try entryBlock(middle).first) <= start { low = middle + 1 } else { high = middle }
        }
        return Swift.max(blocks.lowerBound, low - 1)
    }

    /// Calls `body` with each position of `run` inside `range`, ascending, until it returns false:
    /// from the last block starting at or before the range's start (found by binary search over the
    /// run's blocks), block by block, a run of steps of 1 at a time or one longer step. Every position
    /// given is inside `range` (and so below entry_count when the range is).
    func forEachPosition(of run: CountryRun, in range: Range<Int>, _ body: (Int) throws(MMSearchError) -> Bool) throws(MMSearchError) {
        guard !range.isEmpty else { return }
        for index in try lastBlock(in: run.blocks, startingAtOrBefore: range.lowerBound) ..< run.blocks.upperBound {
            let block = try entryBlock(index), count = positionCount(ofBlock: index, in: run)
            var position = Int(block.first), bit = Int(block.delta_bit), given = 1
            guard position < range.upperBound else { return }
            if position >= range.lowerBound, try !body(position) { return }
            while given < count {
                let next = try steps(at: bit, block: index, most: count - given)
                bit = next.end
                for _ in 0 ..< next.repeats {
                    position += next.step
                    guard position < layout.entryCount else { throw positionPastEntries(position, block: index) }
                    guard position < range.upperBound else { return }
                    if position >= range.lowerBound, try !body(position) { return }
                }
                given += next.repeats
            }
        }
    }

    /// The number of positions in block `index` of `run` (MMS_ENTRY_BLOCK_SIZE but in its last).
    @inline(__always)
    func positionCount(ofBlock index: Int, in run: CountryRun) -> Int {
        index == run.blocks.upperBound - 1 ? run.positionCount - (run.blocks.count - 1) * Int(MMS_ENTRY_BLOCK_SIZE) : Int(MMS_ENTRY_BLOCK_SIZE)
    }

    /// The bits of ENTRY_DELTAS from bit `bit` on, at least 57 of them (the 8 bytes at its byte,
    /// checked to lie inside the section, shifted to it): a run of steps of 1 is their trailing ones.
    /// `block` is named in the error.
    @inline(__always)
    func stepBits(at bit: Int, block: Int) throws(MMSearchError) -> UInt64 {
        guard bit >= 0, bit &>> 3 &+ 8 <= layout.entryDeltas.count else { throw stepPastStream(bit, block: block) }
        return raw.loadUnaligned(fromByteOffset: layout.entryDeltas.lowerBound &+ bit &>> 3, as: UInt64.self) &>> UInt64(bit & 7)
    }

    /// The steps whose Elias-gamma codes start at bit `bit` of ENTRY_DELTAS (codes of block `block`,
    /// named in the error), read from the 8 bytes loaded there: a run of steps of 1 (their trailing
    /// ones), at most `most` of them (at least 1); or one longer step, z zeros (at most
    /// MMS_ENTRY_STEP_MAX_ZEROS), a one, then its low z bits, which for codes over 57 bits (steps past
    /// 2^28) a second checked load reads. Gives the step, how many times it repeats, and the bit after
    /// their codes. The one reader of the codes: the searches' and verify's.
    @inline(__always)
    func steps(at bit: Int, block: Int, most: Int) throws(MMSearchError) -> (step: Int, repeats: Int, end: Int) {
        let bits = try stepBits(at: bit, block: block)
        let ones = (~bits).trailingZeroBitCount
        if ones > 0 {
            let repeats = Swift.min(ones, most)
            return (1, repeats, bit &+ repeats)
        }
        let zeros = bits.trailingZeroBitCount
        guard zeros <= Int(MMS_ENTRY_STEP_MAX_ZEROS) else {
            throw corrupt(layout.entryDeltas.lowerBound + bit / 8, "entry block \(block) has a step code of \(zeros) zeros at bit \(bit) of the step stream, more than \(MMS_ENTRY_STEP_MAX_ZEROS)")
        }
        var low = bits &>> UInt64(zeros &+ 1)
        if 2 &* zeros &+ 1 > 64 &- (bit & 7) { low = try stepBits(at: bit &+ zeros &+ 1, block: block) }
        return (Int((UInt64(1) &<< UInt64(zeros)) | low & ((UInt64(1) &<< UInt64(zeros)) &- 1)), 1, bit &+ 2 &* zeros &+ 1)
    }

    /// The error for a step code read at or past the stream's last 8 bytes.
    func stepPastStream(_ bit: Int, block: Int) -> MMSearchError {
        corrupt(entryBlockOffset(block), "entry block \(block) reads a step at bit \(bit), past the \(layout.entryDeltas.count)-byte step stream and its \(MMS_ENTRY_DELTAS_TAIL)-byte tail")
    }

    /// Where block `index` of `run`'s step codes end in ENTRY_DELTAS, in bits (each code read as a search reads it).
    func stepsEnd(ofBlock index: Int, in run: CountryRun) throws(MMSearchError) -> Int {
        var bit = Int(try entryBlock(index).delta_bit), given = 1
        let count = positionCount(ofBlock: index, in: run)
        while given < count {
            let next = try steps(at: bit, block: index, most: count - given)
            bit = next.end
            given += next.repeats
        }
        return bit
    }

    /// A reader of one run's positions for a walk whose ranges start in ascending order (the typo
    /// walk visits the trie depth first in entry order): asked for the first position at or after a
    /// start, it reads on from its last answer, skipping whole blocks when the start has passed them;
    /// asked for an earlier start (not in a walk of a sound file), it starts over from a binary search.
    struct CountryCursor {
        let run: CountryRun
        /// The block read, its number of positions and the next block's first position (Int.max after
        /// the run's last); `step`, `position` and `bit` (its next code): where in it the cursor is.
        var block = -1
        var count = 0
        var nextFirst = Int.max
        var step = 0
        var position = 0
        var bit = 0
        /// The last start asked (every position before `position` is below it).
        var start = Int.max

        init(_ run: CountryRun) { self.run = run }
    }

    /// Puts `cursor` at the first position of block `index` (a block of its run).
    @inline(__always)
    func enter(_ cursor: inout CountryCursor, block index: Int) throws(MMSearchError) {
        let block = try entryBlock(index)
        cursor.block = index
        cursor.count = positionCount(ofBlock: index, in: cursor.run)
        cursor.nextFirst = index + 1 < cursor.run.blocks.upperBound ? Int(try entryBlock(index + 1).first) : Int.max
        cursor.step = 0
        cursor.position = Int(block.first)
        cursor.bit = Int(block.delta_bit)
    }

    /// The first position of the cursor's run at or after `start`, or nil when none is. The codes are
    /// read into locals, the cursor written back once: read and written through the cursor (an
    /// element of the walk's array), every code cost twice the instructions.
    func firstPosition(_ cursor: inout CountryCursor, atOrAfter start: Int) throws(MMSearchError) -> Int? {
        let blocks = cursor.run.blocks
        guard !blocks.isEmpty else { return nil }
        if start < cursor.start {
            try enter(&cursor, block: try lastBlock(in: blocks, startingAtOrBefore: start))
        }
        cursor.start = start
        guard cursor.position < start else { return cursor.position }
        var position = cursor.position, bit = cursor.bit, step = cursor.step
        defer {
            cursor.position = position
            cursor.bit = bit
            cursor.step = step
        }
        while position < start {
            if cursor.nextFirst <= start {
                // Skip to the last block starting at or before `start`: galloping, then a binary search.
                var low = cursor.block + 1, reach = 1
                while low + reach < blocks.upperBound, Int(try entryBlock(low + reach).first) <= start {
                    low += reach
                    reach *= 2
                }
                try enter(&cursor, block: try lastBlock(in: low ..< Swift.min(low + reach, blocks.upperBound), startingAtOrBefore: start))
                (position, bit, step) = (cursor.position, cursor.bit, cursor.step)
                continue
            }
            if step + 1 < cursor.count {
                // The codes that lie whole in 57 bits loaded at once: runs of steps of 1 (as far as
                // `start`) and longer steps, each shifted out. A code longer than what is left waits
                // for the next load, and one longer than 57 bits (a step past 2^28) is read by `steps`.
                let last = cursor.count - 1
                var word = try stepBits(at: bit, block: cursor.block) & (UInt64(1) &<< 57 &- 1), left = 57
                let before = step
                while position < start, step < last {
                    let ones = (~word).trailingZeroBitCount
                    if ones > 0 {
                        let repeats = Swift.min(ones, last &- step, start &- position)
                        position &+= repeats
                        step &+= repeats
                        bit &+= repeats
                        word &>>= UInt64(repeats)
                        left &-= repeats
                    } else {
                        let zeros = word.trailingZeroBitCount, length = 2 &* zeros &+ 1
                        guard length <= left else { break }
                        let high = UInt64(1) &<< UInt64(zeros)
                        position &+= Int(high | word &>> UInt64(zeros &+ 1) & (high &- 1))
                        step &+= 1
                        bit &+= length
                        word &>>= UInt64(length)
                        left &-= length
                    }
                }
                if step == before {
                    let next = try steps(at: bit, block: cursor.block, most: Swift.min(last - step, start - position))
                    position += next.step * next.repeats
                    bit = next.end
                    step += next.repeats
                }
            } else if cursor.block + 1 < blocks.upperBound {
                try enter(&cursor, block: cursor.block + 1)
                (position, bit, step) = (cursor.position, cursor.bit, cursor.step)
            } else {
                return nil
            }
        }
        // Every step read is at least 1 and at most 2^(MMS_ENTRY_STEP_MAX_ZEROS + 1): checked once, here.
        guard position < layout.entryCount else { throw positionPastEntries(position, block: cursor.block) }
        return position
    }

    /// Whether any of the cursors' runs has a position inside `range`.
    func hasPosition(_ cursors: inout [CountryCursor], in range: Range<Int>) throws(MMSearchError) -> Bool {
        guard !range.isEmpty else { return false }
        for index in cursors.indices {
            if let position = try firstPosition(&cursors[index], atOrAfter: range.lowerBound), position < range.upperBound { return true }
        }
        return false
    }

    /// The positions of `runs` inside `range`, ascending.
    func positions(of runs: [CountryRun], in range: Range<Int>) throws(MMSearchError) -> [Int] {
        var positions: [Int] = []
        for run in runs {
            try forEachPosition(of: run, in: range) { position in
                positions.append(position)
                return true
            }
        }
        if runs.count > 1 { positions.sort() }
        return positions
    }
}
