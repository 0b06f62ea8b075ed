import CMMSearchFormat
import MMSearch
@testable import MMSearchBuilder
import MMSearchTestSupport
import Testing

/// Where the builder puts the labels: the top of the trie's in node order, inside one 64 KiB window of
/// the file, so that the binary searches every query makes near the root cost one page fault in a
/// freshly mapped file.
struct LabelLayoutTests {
    static let window = TrieBuilder.hotLabelBytes

    @Test func topOfTheTrieHasItsLabelsInNodeOrderInOneWindowOfTheFile() throws {
        var random = SeededRandom(seed: 21)
        let records = (0 ..< 40_000).map { id in
            var name = IndexMutationTests.syllableWord(&random) + IndexMutationTests.syllableWord(&random)
            if id % 3 == 0 { name += " " + IndexMutationTests.syllableWord(&random) }
            return SourceRecord(id: UInt32(id), name: Array(name.utf8), country: Array("US".utf8), latitudeE7: 0, longitudeE7: 0)
        }
        let file = IndexFile(try IndexBuilder.makeIndex(records: records, source: IndexMutationTests.source).bytes)
        let labels = file.section(MMS_SECTION_LABELS)
        try #require(labels.count > Self.window, "the fixture's labels must overflow the hot part")
        func labelOffset(ofNode node: Int) -> Int {
            file.labelOffset(ofNode: node)
        }
        func labelLength(at offset: Int) -> Int {
            var end = labels.lowerBound + offset
            while file.bytes[end] < UInt8(MMS_LABEL_TAIL_END) { end += 1 }
            return end - labels.lowerBound - offset
        }
        // From node 1's label, walk the nodes in order while each label not seen before starts where the
        // previous new one ended.
        let start = labelOffset(ofNode: 1)
        var seen: Set<Int> = [0]
        var next = start
        var hotNodes = 0
        for node in 0 ..< file.nodeCount {
            let offset = labelOffset(ofNode: node)
            if seen.insert(offset).inserted {
                guard offset == next else { break }
                next = offset + labelLength(at: offset) + 1
            }
            hotNodes = node + 1
        }
        let first = labels.lowerBound + start, last = labels.lowerBound + next - 1
        #expect(first / Self.window == last / Self.window, "hot labels at file bytes \(first) ... \(last) cross a window boundary")
        #expect(next - start > Self.window / 2 - 64, "only \(next - start) bytes of hot labels")
        #expect(hotNodes > 1_000, "only \(hotNodes) nodes have their labels in node order")
    }

    /// The layout at every kind of place LABELS can start: offset 1 on a window boundary, a little room
    /// before the next boundary (the hot labels then start at it), much room (they start at offset 1),
    /// and a little room with too few other labels to fill it.
    @Test(arguments: [(0, 30_000), (100, 30_000), (20_000, 30_000), (40_000, 30_000), (65_535, 30_000), (20_000, 300)])
    func labelsReadBackAndTheHotOnesShareAWindow(roomBeforeBoundary room: Int, labelCount: Int) throws {
        var random = SeededRandom(seed: UInt64(room + labelCount))
        var pool: [UInt8] = []
        var spans = [TrieBuilder.LabelSpan(start: 0, length: 0, end: UInt8(MMS_STRING_END))] // the root
        for _ in 0 ..< labelCount {
            let length = Int.random(in: 1 ... 9, using: &random)
            // A third of them ended by MMS_LABEL_TAIL_END.
            let end = Int.random(in: 0 ..< 3, using: &random) == 0 ? UInt8(MMS_LABEL_TAIL_END) : UInt8(MMS_STRING_END)
            spans.append(TrieBuilder.LabelSpan(start: pool.count, length: length, end: end))
            pool.append(contentsOf: (0 ..< length).map { _ in UInt8.random(in: 0x61 ... 0x7A, using: &random) })
        }
        // LABELS at a file offset that leaves `room` bytes from its offset 1 to a window boundary.
        let fileOffset = 7 * Self.window - 1 - room
        var labels: [UInt8] = []
        let offsets = try TrieBuilder.layOutLabels(spans, pool: pool, fileOffset: fileOffset, into: &labels, file: "test")

        #expect(offsets[0] == 0 && labels[0] == UInt8(MMS_STRING_END))
        var used = [Bool](repeating: false, count: labels.count)
        used[0] = true
        for (node, span) in spans.enumerated().dropFirst() {
            let offset = Int(offsets[node])
            #expect(Array(labels[offset ..< offset + span.length]) == Array(pool[span.start ..< span.start + span.length]), "node \(node)")
            #expect(labels[offset + span.length] == span.end, "node \(node)")
            for byte in offset ... offset + span.length { used[byte] = true }
        }
        // Bytes no label uses: fewer than one label's (at most 9 bytes and its end byte).
        #expect(used.count { !$0 } < 10, "\(used.count { !$0 }) unused bytes")
        // The first 500 nodes' labels lie in one window of the file.
        let hot = spans.indices.dropFirst().prefix(500)
        let first = hot.map { fileOffset + Int(offsets[$0]) }.min()!
        let last = hot.map { fileOffset + Int(offsets[$0]) + spans[$0].length }.max()!
        #expect(first / Self.window == last / Self.window, "hot labels at file bytes \(first) ... \(last)")
    }

    /// The labels outside the hot window in order of their uses for their bytes, the most first, so that
    /// the last bytes of LABELS, whose offsets NODES stores apart ("Values stored apart"), serve few
    /// nodes. A chain is a label stored whole and the labels stored inside it (its tails), up to their
    /// common end byte; its uses are the nodes whose label is one of them.
    @Test func theLabelsLeastUsedForTheirBytesComeLast() throws {
        var random = SeededRandom(seed: 5)
        var pool: [UInt8] = []
        var distinct: [TrieBuilder.LabelSpan] = []
        for _ in 0 ..< 20_000 {
            let length = Int.random(in: 1 ... 12, using: &random)
            let end = Int.random(in: 0 ..< 3, using: &random) == 0 ? UInt8(MMS_LABEL_TAIL_END) : UInt8(MMS_STRING_END)
            distinct.append(TrieBuilder.LabelSpan(start: pool.count, length: length, end: end))
            pool.append(contentsOf: (0 ..< length).map { _ in UInt8.random(in: 0x61 ... 0x66, using: &random) })
        }
        // Nodes pick labels unevenly (the least of three draws): some labels serve many nodes.
        var spans = [TrieBuilder.LabelSpan(start: 0, length: 0, end: UInt8(MMS_STRING_END))]
        for _ in 0 ..< 60_000 {
            spans.append(distinct[(0 ..< 3).map { _ in Int.random(in: 0 ..< distinct.count, using: &random) }.min()!])
        }
        var labels: [UInt8] = []
        let offsets = try TrieBuilder.layOutLabels(spans, pool: pool, fileOffset: 3 * Self.window - 1 - 100, into: &labels, file: "test")
        for (node, span) in spans.enumerated().dropFirst() {
            let offset = Int(offsets[node])
            #expect(Array(labels[offset ..< offset + span.length]) == Array(pool[span.start ..< span.start + span.length]) && labels[offset + span.length] == span.end)
        }
        // The hot labels: from node 1's, each new one where the one before ended.
        var hotEnd = Int(offsets[1]), seen: Set<Int> = []
        for node in 1 ..< spans.count where seen.insert(Int(offsets[node])).inserted {
            guard Int(offsets[node]) == hotEnd else { break }
            hotEnd += spans[node].length + 1
        }
        let hot = Int(offsets[1]) ..< hotEnd
        var uses: [Int: Int] = [:] // by the end byte a label ends at
        for (node, span) in spans.enumerated().dropFirst() { uses[Int(offsets[node]) + span.length, default: 0] += 1 }
        var chains: [(uses: Int, bytes: Int)] = []
        var start = 1 // after the root's end byte
        for position in 1 ..< labels.count where labels[position] >= UInt8(MMS_LABEL_TAIL_END) {
            // Lone end bytes are the unused ones before the hot window.
            if position > start, !hot.contains(start) { chains.append((uses[position] ?? 0, position + 1 - start)) }
            start = position + 1
        }
        #expect(chains.count > 1_000 && hot.count > 1_000, "\(chains.count) chains outside \(hot.count) hot bytes")
        let outOfOrder = zip(chains, chains.dropFirst()).filter { $0.uses * $1.bytes < $1.uses * $0.bytes }.count
        #expect(outOfOrder == 0, "\(outOfOrder) chains used more for their bytes than the one before")
    }
}
