import CMMSearchFormat
import MMSearch

/// The path-compressed trie over the sorted search keys, as the format's flat arrays: nodes numbered
/// breadth first, so each node's children are contiguous (sorted by first byte) and numbered after it,
/// and the labels laid out with shared tails. It also ends an edge early where a summarized node's
/// first page would otherwise change along it (see "Summaries" in the format header).
struct TrieBuilder {
    /// A node's label as LABELS holds it: `length` bytes of the keys' pool from `start`, then `end`:
    /// MMS_STRING_END, or MMS_LABEL_TAIL_END where the node's keys' country tail follows, not stored.
    struct LabelSpan {
        var start: Int
        var length: Int
        var end: UInt8
    }

    /// Per node: its label in the keys' pool (laid out in LABELS by `labels(pool:file:)`).
    private(set) var labelSpans: [LabelSpan] = []
    /// A block every MMS_CHILD_BLOCK_NODES nodes, and the one after them ("The trie").
    private(set) var childBlocks: [mms_child_block] = []
    /// Each block's counts past the block's own (or its byte counts) and its children's entry deltas,
    /// block by block, packed (CHILDREN's bytes after its blocks, with the packed arrays' zero tail).
    private(set) var childBits: [UInt8] = []
    /// How many bits of `childBits` they take (the header's child_bits).
    private(set) var childBitCount = 0
    /// Per node: its prefix length and its entry range (the format derives both; the builder keeps
    /// them to make summaries).
    private(set) var depths: [Int] = []
    private(set) var entryFirsts: [Int] = []
    private(set) var entryEnds: [Int] = []

    /// A node found but not yet expanded: its entries share their first `depth` key bytes; its label
    /// is `pool[labelStart ..< labelStart + labelLength]`.
    private struct Pending {
        var first: Int
        var end: Int
        var depth: Int
        var labelStart: Int
        var labelLength: Int
    }

    /// `recordCountries[r]`: record r's country code as RECORDS holds it ((0, 0): none).
    init(keys: SearchKeys, recordCountries: [(UInt8, UInt8)], file: String) throws(MMSearchError) {
        let threshold = Int(MMS_SUMMARY_THRESHOLD)
        var queue = [Pending(first: 0, end: keys.count, depth: 0, labelStart: 0, labelLength: 0)]
        var childCounts: [UInt8] = []
        queue.reserveCapacity(keys.count + keys.count / 2)
        childCounts.reserveCapacity(queue.capacity)
        keys.pool.withUnsafeBufferPointer { pool in
            var next = 0
            while next < queue.count {
                let node = queue[next]
                next += 1
                let firstChild = queue.count
                defer { childCounts.append(UInt8(queue.count - firstChild)) } // distinct first bytes: at most 245
                let depth = node.depth
                // Entries whose key is exactly this prefix come first (shorter sorts first); the rest
                // group by their next byte, each group one child.
                var position = node.first
                while position < node.end, Int(keys.keyLengths[position]) == depth { position += 1 }
                while position < node.end {
                    let groupKey = keys.key(position)
                    let byte = pool[groupKey.lowerBound + depth]
                    var groupEnd = position + 1
                    while groupEnd < node.end, pool[keys.keyStarts[groupEnd] + depth] == byte { groupEnd += 1 }
                    // Sorted keys: the group's common prefix is that of its first and last key.
                    let lastKey = keys.key(groupEnd - 1)
                    var shared = depth + 1
                    while shared < groupKey.count, shared < lastKey.count,
                          pool[groupKey.lowerBound + shared] == pool[lastKey.lowerBound + shared] { shared += 1 }
                    if groupEnd - position > threshold {
                        shared = Self.edgeEnd(keys: keys, entries: position ..< groupEnd, parentDepth: depth, sharedDepth: shared)
                    }
                    queue.append(Pending(first: position, end: groupEnd, depth: shared,
                                         labelStart: groupKey.lowerBound + depth, labelLength: shared - depth))
                    position = groupEnd
                }
            }
        }
        guard queue.count < Int(UInt32.max) else {
            throw .limitExceeded(file: file, message: "\(queue.count) trie nodes; at most \(UInt32.max - 1) fit")
        }
        // Breadth first, node n's children follow node n - 1's: a running sum of the counts. Each
        // child's entry_first is stored as its delta from its parent's, a block's children's at the
        // least width that holds them.
        var deltas = [UInt32](repeating: 0, count: queue.count)
        var child = 1
        for (parent, count) in childCounts.enumerated() {
            for _ in 0 ..< Int(count) {
                deltas[child] = UInt32(queue[child].first - queue[parent].first)
                child += 1
            }
        }
        let blockNodes = Int(MMS_CHILD_BLOCK_NODES)
        var first = 1
        var bits = BitWriter()
        // A block from child `first` and the bits written so far: each block's, and the one after them.
        func nextBlock() throws(MMSearchError) -> mms_child_block {
            guard bits.count <= Int(UInt32.max) else {
                throw .limitExceeded(file: file, message: "\(bits.count) bits of child counts and entry deltas; the format counts them in 32 bits")
            }
            var block = mms_child_block()
            block.first = UInt32(first)
            block.bits_first = UInt32(bits.count)
            return block
        }
        for blockStart in stride(from: 0, to: childCounts.count, by: blockNodes) {
            let counts = childCounts[blockStart ..< min(blockStart + blockNodes, childCounts.count)]
            let children = counts.reduce(0) { $0 + Int($1) }
            let blockDeltas = deltas[first ..< first + children]
            let width = UInt32.bitWidth - (blockDeltas.max() ?? 0).leadingZeroBitCount
            var block = try nextBlock()
            block.mask = counts.enumerated().reduce(UInt32(0)) { $1.element > 0 ? $0 | 1 << UInt32($1.offset) : $0 }
            // Each node with children's count less one in 4 bits, the first 16 in the block and the
            // rest among its bits; or, when one does not fit (the top of the trie), every node's count
            // as a byte among its bits (0 past the last node).
            let inBytes = counts.contains { Int($0) > 1 << Int(MMS_CHILD_COUNT_BITS) }
            block.head = UInt8(width) | (inBytes ? UInt8(MMS_CHILD_BYTE_COUNTS) : 0)
            if inBytes {
                for slot in 0 ..< blockNodes { bits.append(UInt64(slot < counts.count ? counts[blockStart + slot] : 0), width: 8) }
            } else {
                for (place, count) in counts.filter({ $0 > 0 }).enumerated() {
                    if place < Int(MMS_CHILD_BLOCK_COUNTS) {
                        block.counts |= UInt64(count - 1) << UInt64(place * Int(MMS_CHILD_COUNT_BITS))
                    } else {
                        bits.append(UInt64(count - 1), width: Int(MMS_CHILD_COUNT_BITS))
                    }
                }
            }
            childBlocks.append(block)
            for delta in blockDeltas { bits.append(UInt64(delta), width: width) }
            first += children
        }
        childBlocks.append(try nextBlock())
        childBits = bits.finished + [UInt8](repeating: 0, count: Int(MMS_PACKED_TAIL))
        childBitCount = bits.count
        labelSpans = keys.pool.withUnsafeBufferPointer { pool in
            queue.map { node in
                Self.endsWithCountryTail(node, keys: keys, pool: pool, recordCountries: recordCountries)
                    ? LabelSpan(start: node.labelStart, length: node.labelLength - Int(MMS_COUNTRY_TAIL_LENGTH), end: UInt8(MMS_LABEL_TAIL_END))
                    : LabelSpan(start: node.labelStart, length: node.labelLength, end: UInt8(MMS_STRING_END))
            }
        }
        depths = queue.map(\.depth)
        entryFirsts = queue.map(\.first)
        entryEnds = queue.map(\.end)
    }

    /// Whether `node`'s label is stored without its last 4 bytes, the country tail (", " and the folded
    /// code) of the node's own keys, which a reader makes from the record of the node's first entry:
    /// a label longer than the tail, into a node with own keys (its first entry's key is its prefix),
    /// the first one's record with a country, whose tail those 4 bytes are. Most leaves: their tails,
    /// stored, kept labels from sharing their bytes ("ondon, gb" and "ondon, ca").
    private static func endsWithCountryTail(_ node: Pending, keys: SearchKeys, pool: UnsafeBufferPointer<UInt8>, recordCountries: [(UInt8, UInt8)]) -> Bool {
        let tail = Int(MMS_COUNTRY_TAIL_LENGTH)
        guard node.labelLength > tail, node.first < node.end, Int(keys.keyLengths[node.first]) == node.depth else { return false }
        guard let bytes = Folding.countryTail(code: recordCountries[Int(keys.records[node.first])]) else { return false }
        let start = node.labelStart + node.labelLength - tail
        return pool[start] == bytes.0 && pool[start + 1] == bytes.1 && pool[start + 2] == bytes.2 && pool[start + 3] == bytes.3
    }

    /// Where the edge into a big node (more than MMS_SUMMARY_THRESHOLD entries) must end so that its
    /// first ranked page holds for every query length along it: an entry's class changes at the query
    /// lengths `Ranking.classThresholds` gives (its name covered half, or whole), so no such t may fall
    /// in (parentDepth + 1, end]. With one there, the edge ends at t - 1 and the rest is a further edge.
    private static func edgeEnd(keys: SearchKeys, entries: Range<Int>, parentDepth: Int, sharedDepth: Int) -> Int {
        var end = sharedDepth
        for index in entries {
            let thresholds = Ranking.classThresholds(kind: keys.kind(index), nameLength: Int(keys.nameLengths[index]))
            for threshold in [thresholds.half, thresholds.whole] {
                if let threshold, threshold > parentDepth + 1, threshold <= end { end = threshold - 1 }
            }
        }
        return end
    }

    var nodeCount: Int { depths.count }

    /// LABELS' bytes and each node's label offset in them (NODES), as `layOutLabels` lays them out
    /// where LABELS starts, the file's first section (see _SectionWriter's callers in IndexBuilder).
    func labels(pool: [UInt8], file: String) throws(MMSearchError) -> (bytes: [UInt8], offsets: [UInt32]) {
        var bytes: [UInt8] = []
        let offsets = try Self.layOutLabels(labelSpans, pool: pool, fileOffset: _SectionWriter.offset(afterSectionsOf: []), into: &bytes, file: file)
        return (bytes, offsets)
    }

    /// The hot labels' window: the kernel maps a file's pages into a process up to 16 at a time, the
    /// 64 KiB-aligned window around the page touched (fault-around), so labels in one window cost one
    /// page fault on a first touch.
    static let hotLabelBytes = 1 << 16

    /// Lays the labels out in `labels`, each ended by its end byte, identical labels (bytes and end
    /// byte) stored once; returns each label's offset. The root's empty label is the lone
    /// MMS_STRING_END at offset 0. `fileOffset` is where LABELS will start in the file.
    ///
    /// The labels of the top of the trie (nodes in breadth-first order) come in node order, inside one
    /// `hotLabelBytes` window of the file: every search binary-searches the root's children, and their
    /// children, by label, and with siblings' labels side by side in one window those probes cost one
    /// page fault in a freshly mapped index instead of one each (2 to 3 µs apiece). They start right after
    /// the root's byte when at least half a window is left before the next window boundary, else at that
    /// boundary, the bytes before it filled with other labels (and under one label's worth of end
    /// bytes no label uses). The other labels are stored so that a label that is the tail of another
    /// (with the same end byte) is stored inside it, those most used by nodes for their bytes first:
    /// NODES stores the greatest offsets apart ("Values stored apart"), so the last bytes serve few nodes.
    static func layOutLabels(_ spans: [LabelSpan], pool: [UInt8], fileOffset: Int,
                             into labels: inout [UInt8], file: String) throws(MMSearchError) -> [UInt32] {
        let end = UInt8(MMS_STRING_END)
        labels = [end]
        var offsets = [UInt32](repeating: 0, count: spans.count)
        pool.withUnsafeBufferPointer { pool in
            // Distinct labels first (most labels repeat: ", us", "a", ...), those of each end byte
            // numbered apart: the ones ended by MMS_STRING_END first.
            var distinct = DistinctBytes(expected: spans.count / 2), distinctTailed = DistinctBytes(expected: spans.count / 4)
            var labelIndex = [Int](repeating: 0, count: spans.count)
            for (node, span) in spans.enumerated() where span.length > 0 && span.end == end {
                labelIndex[node] = distinct.number(of: (span.start, span.length), in: pool)
            }
            for (node, span) in spans.enumerated() where span.length > 0 && span.end != end {
                labelIndex[node] = distinct.count + distinctTailed.number(of: (span.start, span.length), in: pool)
            }
            let distinctSpans = distinct.spans.map { LabelSpan(start: $0.start, length: $0.length, end: end) }
                + distinctTailed.spans.map { LabelSpan(start: $0.start, length: $0.length, end: UInt8(MMS_LABEL_TAIL_END)) }
            // Bytes from offset 1 to the next window boundary of the file (0: offset 1 is on one).
            let window = hotLabelBytes
            let room = (window - (fileOffset + 1) % window) % window
            let fromBoundary = room > 0 && room < window / 2
            let hotBudget = room == 0 || fromBoundary ? window : room

            // The top of the trie's labels, in node order; offsets relative to `hot`.
            var hot: [UInt8] = []
            var hotOffsets = [Int](repeating: -1, count: distinctSpans.count)
            for (node, span) in spans.enumerated() where span.length > 0 {
                guard hot.count + span.length + 1 <= hotBudget else { break }
                let label = labelIndex[node]
                if hotOffsets[label] < 0 {
                    hotOffsets[label] = hot.count
                    hot.append(contentsOf: pool.bytes((span.start, span.length)))
                    hot.append(span.end)
                }
            }
            // A label that is the tail of a hot one (its end byte too) is stored inside it.
            var hotTails: [[UInt8]: Int] = [:]
            var labelStart = 0
            for (offset, byte) in hot.enumerated() where byte >= UInt8(MMS_LABEL_TAIL_END) {
                for start in labelStart ..< offset where hotTails[Array(hot[start ... offset])] == nil {
                    hotTails[Array(hot[start ... offset])] = start
                }
                labelStart = offset + 1
            }
            for (label, span) in distinctSpans.enumerated() where hotOffsets[label] < 0 {
                if let offset = hotTails[Array(pool.bytes((span.start, span.length))) + [span.end]] { hotOffsets[label] = offset }
            }
            // The rest in descending order of reversed bytes, the end byte last (so first compared): a
            // label that is the tail of another comes right after one it is the tail of, so each chain
            // of them is stored as its first label, the others inside it. Compared by their end byte and
            // last seven bytes, reversed, as one integer first (zero bytes past a short label's start),
            // in full only when those are equal.
            let lastBytes = distinctSpans.map { span in
                var key = UInt64(span.end)
                for back in 0 ..< 7 { key = key << 8 | UInt64(back < span.length ? pool[span.start + span.length - 1 - back] : 0) }
                return key
            }
            let byReversedText = (0 ..< distinctSpans.count).filter { hotOffsets[$0] < 0 }.sorted { a, b in
                if lastBytes[a] != lastBytes[b] { return lastBytes[a] > lastBytes[b] }
                let x = distinctSpans[a], y = distinctSpans[b]
                var i = x.length - 1, j = y.length - 1
                while i >= 0, j >= 0 {
                    let p = pool[x.start + i], q = pool[y.start + j]
                    if p != q { return p > q }
                    i -= 1; j -= 1
                }
                return x.length > y.length
            }
            // Chains: a label stored whole (`head`), and where each of its members (itself and its tails)
            // starts inside it.
            var chainHeads: [Int] = [], chainFirsts: [Int] = [], members: [(label: Int, at: Int)] = []
            var previous: (span: LabelSpan, at: Int)?
            for label in byReversedText {
                let span = distinctSpans[label]
                if let previous, previous.span.end == span.end, previous.span.length >= span.length,
                   bytesEqual(pool.baseAddress! + previous.span.start + previous.span.length - span.length, pool.baseAddress! + span.start, span.length) {
                    members.append((label, previous.at + previous.span.length - span.length))
                } else {
                    chainHeads.append(label)
                    chainFirsts.append(members.count)
                    members.append((label, 0))
                }
                previous = (span, members[members.count - 1].at)
            }
            chainFirsts.append(members.count)
            // The chains most used for their bytes first, the least last: NODES stores the greatest label
            // offsets apart ("Values stored apart"), so the fewer nodes use the last bytes, the fewer
            // offsets go there. Uses: the nodes whose label each distinct label is.
            var uses = [Int](repeating: 0, count: distinctSpans.count)
            for (node, span) in spans.enumerated() where span.length > 0 { uses[labelIndex[node]] += 1 }
            let chainUses = chainHeads.indices.map { chain in members[chainFirsts[chain] ..< chainFirsts[chain + 1]].reduce(0) { $0 + uses[$1.label] } }
            let byUse = chainHeads.indices.sorted { a, b in
                let x = chainUses[a] * (distinctSpans[chainHeads[b]].length + 1), y = chainUses[b] * (distinctSpans[chainHeads[a]].length + 1)
                return x != y ? x > y : a < b
            }
            // Offsets relative to `cold`; `coldEnds` holds where each chain ends, the places `cold` may be cut.
            var cold: [UInt8] = []
            var coldOffsets = [Int](repeating: -1, count: distinctSpans.count)
            var coldEnds: [Int] = []
            for chain in byUse {
                let head = distinctSpans[chainHeads[chain]]
                for member in members[chainFirsts[chain] ..< chainFirsts[chain + 1]] { coldOffsets[member.label] = cold.count + member.at }
                cold.append(contentsOf: pool.bytes((head.start, head.length)))
                cold.append(head.end)
                coldEnds.append(cold.count)
            }

            // [root's byte][cold before the cut][unused end bytes][hot][cold after the cut], the hot
            // labels from the window boundary; or [root's byte][hot][cold] when there is room before
            // it, or too few other labels to fill the bytes up to it.
            let cut = fromBoundary && cold.count >= room ? coldEnds.last { $0 <= room } ?? 0 : nil
            let hotBase: Int
            if let cut {
                labels.append(contentsOf: cold[..<cut])
                labels.append(contentsOf: repeatElement(end, count: room - cut))
                hotBase = labels.count
                labels.append(contentsOf: hot)
                labels.append(contentsOf: cold[cut...])
            } else {
                hotBase = labels.count
                labels.append(contentsOf: hot)
                labels.append(contentsOf: cold)
            }
            let coldAfterCut = hotBase + hot.count
            for (node, span) in spans.enumerated() where span.length > 0 {
                let label = labelIndex[node]
                let offset: Int
                if hotOffsets[label] >= 0 {
                    offset = hotBase + hotOffsets[label]
                } else if let cut, coldOffsets[label] < cut {
                    offset = 1 + coldOffsets[label]
                } else {
                    offset = coldAfterCut + coldOffsets[label] - (cut ?? 0)
                }
                offsets[node] = UInt32(truncatingIfNeeded: offset)
            }
        }
        guard labels.count <= Int(UInt32.max) else {
            throw .limitExceeded(file: file, message: "label pool past 4 GiB; the format's offsets are 32-bit")
        }
        return offsets
    }
}

/// Whether the `count` bytes at `a` and at `b` are equal.
@inline(__always)
private func bytesEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    for offset in 0 ..< count where a[offset] != b[offset] { return false }
    return true
}
