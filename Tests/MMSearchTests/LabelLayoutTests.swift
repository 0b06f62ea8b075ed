import CMMSearchFormat
import MMSearch
@testable import MMSearchBuilder
import MMSearchTestSupport
import Testing

/// Where the builder puts the labels: the top of the trie first, in node order, so that the binary
/// searches every query makes near the root read one or two pages of a freshly mapped file.
struct LabelLayoutTests {
    @Test func topOfTheTrieHasItsLabelsFirstInNodeOrder() throws {
        var random = SeededRandom(seed: 21)
        let records = (0 ..< 40_000).map { id in
            var name = IndexMutationTests.syllableWord(&random) + IndexMutationTests.syllableWord(&random)
            if id % 3 == 0 { name += " " + IndexMutationTests.syllableWord(&random) }
            return SourceRecord(id: UInt32(id), name: Array(name.utf8), country: Array("US".utf8), latitudeE7: 0, longitudeE7: 0)
        }
        let file = IndexFile(try IndexBuilder.makeIndex(records: records, source: IndexMutationTests.source).bytes)
        let labels = file.section(MMS_SECTION_LABELS)
        try #require(labels.count > TrieBuilder.hotLabelBytes, "the fixture's labels must overflow the hot part")
        let labelField = try #require(IndexFormat.element(of: MMS_SECTION_NODES)?.field("label_offset"))

        func labelLength(at offset: Int) -> Int {
            var end = labels.lowerBound + offset
            while file.bytes[end] != UInt8(MMS_STRING_END) { end += 1 }
            return end - labels.lowerBound - offset
        }
        // Walk the nodes in order while each label not seen before starts where the previous new one ended.
        var seen: Set<Int> = [0]
        var next = 1
        var hotNodes = 0
        for node in 0 ..< file.nodeCount {
            let offset = Int(file.load(at: file.offset(MMS_SECTION_NODES, element: node, labelField), width: 4))
            if seen.insert(offset).inserted {
                guard offset == next else { break }
                next = offset + labelLength(at: offset) + 1
            }
            hotNodes = node + 1
        }
        // The run fills the hot bytes (up to one label short), and covers the root's children and more.
        #expect(next > TrieBuilder.hotLabelBytes - 64 && next <= TrieBuilder.hotLabelBytes, "hot labels end at \(next)")
        #expect(hotNodes > 1_000, "only \(hotNodes) nodes have their labels in node order")
    }
}
