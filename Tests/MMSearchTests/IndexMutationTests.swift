import CMMSearchFormat
import Foundation
import MMSearch
import MMSearchBuilder
import MMSearchTestSupport
import Testing

/// Damaged indexes: truncated, bytes flipped, offsets pointed outside the file, edges made into
/// cycles. Every case must end in a thrown error or a correct answer: no crash, no hang, and (under
/// `swift test --sanitize=address`, which CI runs) no read outside the mapping.
@Suite struct IndexMutationTests {
    /// A small but branchy index: syllable names that share prefixes, duplicates, empty fields.
    static let original: (bytes: [UInt8], records: [SourceRecord]) = {
        var random = SeededRandom(seed: 7)
        let syllables = ["al", "an", "ba", "bar", "ce", "do", "el", "ka", "la", "lon", "ma", "mo", "na", "ri", "sa", "to", "ü", "ø", "ß"]
        var records: [SourceRecord] = []
        for id in 0 ..< 400 {
            let name = (0 ..< Int.random(in: 1 ... 3, using: &random)).map { _ in syllables.randomElement(using: &random)! }.joined()
            let country = ["US", "GB", "DE", ""].randomElement(using: &random)!
            records.append(SourceRecord(id: UInt32(id), name: Array(name.capitalized.utf8), country: Array(country.utf8), latitudeE7: Int32(id), longitudeE7: -Int32(id)))
        }
        records.append(SourceRecord(id: 999, name: [], country: [], latitudeE7: 0, longitudeE7: 0))
        let source = SourceDescription(name: "mutation.json", size: 1, checksum: 2, builtAt: 3)
        return (try! IndexBuilder.makeIndex(records: records, source: source).bytes, records)
    }()

    static let queries = ["", "a", "al", "ala", "b", "bar", "barl", "l", "lo", "lon", "londo", "m", "sa", "sü", "z", "al, us", ", "]

    /// What the intact index answers, per query: the ids in order.
    static let expected: [String: [UInt32]] = {
        let index = try! CityIndex(bytes: Data(original.bytes), path: "original.mms")
        return Dictionary(uniqueKeysWithValues: queries.map { query in (query, try! index.search(query).map(\.id)) })
    }()

    enum Outcome { case rejectedAtOpen, failedQuery, answered }

    /// Opens `bytes` and runs every query, reading every record of every answer. Returns whether any
    /// step threw; never traps.
    @discardableResult
    static func exercise(_ bytes: [UInt8]) -> (outcome: Outcome, answers: [String: [UInt32]], verified: Bool) {
        guard let index = try? CityIndex(bytes: Data(bytes), path: "mutated.mms") else { return (.rejectedAtOpen, [:], false) }
        var answers: [String: [UInt32]] = [:]
        var outcome = Outcome.answered
        for query in queries {
            do {
                let results = try index.search(query)
                answers[query] = try (0 ..< results.count).map { try results.city(at: $0).id }
                _ = try results.cities(in: 0 ..< results.count) // the page read checks each record too
                _ = results.map(\.name) // the non-throwing subscript must not trap either
            } catch {
                outcome = .failedQuery
            }
        }
        let verified = (try? index.verify()) != nil
        return (outcome, answers, verified)
    }

    /// The first query whose answer differs from the intact index's, for a short failure message.
    static func firstDifference(_ answers: [String: [UInt32]]) -> String? {
        queries.first { answers[$0] != expected[$0] }.map { "query \($0.debugDescription): \(answers[$0]?.prefix(8).description ?? "nothing"), expected \(expected[$0]!.prefix(8))" }
    }

    static var layout: (header: mms_header, sections: [mms_section]) {
        original.bytes.withUnsafeBytes { raw in
            let header = raw.loadUnaligned(as: mms_header.self)
            let sections = withUnsafeBytes(of: header.sections) { Array($0.bindMemory(to: mms_section.self)) }
            return (header, sections)
        }
    }

    static func withChecksumFixed(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        let checksum = IndexChecksum.compute(bytes)
        bytes.withUnsafeMutableBytes { $0.storeBytes(of: checksum, toByteOffset: MemoryLayout<mms_header>.offset(of: \.checksum)!, as: UInt64.self) }
        return bytes
    }

    @Test func theOriginalIsSound() throws {
        let result = Self.exercise(Self.original.bytes)
        #expect(result.outcome == .answered && result.verified)
        #expect(Self.firstDifference(result.answers) == nil)
        #expect(Self.expected["al"]!.count > 5 && Self.expected[""]!.count == Self.original.records.count)
    }

    @Test func truncationAnywhereIsRejectedAtOpen() {
        let bytes = Self.original.bytes
        var cuts = Set([0, 1, 7, 8, 9, 100, bytes.count - 1])
        for section in Self.layout.sections where section.length > 0 {
            cuts.formUnion([Int(section.offset) - 1, Int(section.offset), Int(section.offset) + 1, Int(section.offset + section.length) - 1])
        }
        var random = SeededRandom(seed: 11)
        for _ in 0 ..< 60 { cuts.insert(Int.random(in: 0 ..< bytes.count, using: &random)) }
        for cut in cuts.sorted() where cut >= 0 && cut < bytes.count {
            #expect(Self.exercise(Array(bytes[..<cut])).outcome == .rejectedAtOpen, "cut at \(cut)")
        }
    }

    /// Every header byte flipped: open rejects it, or (for the checksum and reserved fields) the
    /// answers stay right and verify notices.
    @Test func everyHeaderByteFlipped() {
        for offset in 0 ..< MemoryLayout<mms_header>.size {
            for mask: UInt8 in [0x01, 0x80, 0xFF] {
                var bytes = Self.original.bytes
                bytes[offset] ^= mask
                let result = Self.exercise(bytes)
                #expect(!result.verified, "header byte \(offset) ^ \(mask) passed verify")
                if result.outcome == .answered {
                    #expect(Self.firstDifference(result.answers) == nil, "header byte \(offset) ^ \(mask) changed answers")
                }
            }
        }
    }

    /// Random flips in every section, with the checksum recomputed so that only the structural checks
    /// stand between the damage and the answers. Whatever verify accepts must answer as the original:
    /// only record fields (ids, coordinates) may change what comes back, and those are compared apart.
    @Test func flipsInEverySectionWithAValidChecksum() {
        var random = SeededRandom(seed: 23)
        let sections = Self.layout.sections
        let structural: [mms_section_kind] = [MMS_SECTION_NODES, MMS_SECTION_EDGES, MMS_SECTION_LABELS]
        for kind in [MMS_SECTION_NODES, MMS_SECTION_EDGES, MMS_SECTION_LABELS, MMS_SECTION_RECORDS, MMS_SECTION_NAMES, MMS_SECTION_ID_ORDER, MMS_SECTION_SOURCE] {
            let section = sections[Int(kind.rawValue)]
            for _ in 0 ..< 150 {
                var bytes = Self.original.bytes
                let offset = Int(section.offset) + Int.random(in: 0 ..< Int(section.length), using: &random)
                bytes[offset] ^= UInt8.random(in: 1 ... 255, using: &random)
                let plain = Self.exercise(bytes)
                #expect(!plain.verified, "a flip at \(offset) passed the checksum")
                let fixed = Self.exercise(Self.withChecksumFixed(bytes))
                if structural.contains(kind), fixed.verified {
                    #expect(Self.firstDifference(fixed.answers) == nil, "verify accepted a flip at \(offset) that changes answers")
                }
            }
        }
    }

    /// Offsets and indices pointed far outside their arrays, one field at a time.
    @Test func offsetsPointedOutOfBounds() {
        let (header, sections) = Self.layout
        let nodes = Int(sections[Int(MMS_SECTION_NODES.rawValue)].offset)
        let edges = Int(sections[Int(MMS_SECTION_EDGES.rawValue)].offset)
        let records = Int(sections[Int(MMS_SECTION_RECORDS.rawValue)].offset)
        var fields: [(String, Int, Int)] = [] // what, byte offset, width
        for node in [0, 1, 2, Int(header.node_count) - 1, Int(header.node_count)] {
            for (name, field) in [("record_first", \mms_node.record_first), ("record_count", \mms_node.record_count), ("edge_first", \mms_node.edge_first)] {
                fields.append(("node \(node) \(name)", nodes + node * MemoryLayout<mms_node>.stride + MemoryLayout<mms_node>.offset(of: field)!, 4))
            }
        }
        for edge in [0, 1, 2, Int(header.edge_count) - 1] {
            fields.append(("edge \(edge) label_offset", edges + edge * MemoryLayout<mms_edge>.stride, 4))
            fields.append(("edge \(edge) target", edges + edge * MemoryLayout<mms_edge>.stride + 4, 4))
            fields.append(("edge \(edge) label_length", edges + edge * MemoryLayout<mms_edge>.stride + 8, 2))
        }
        for record in [0, 1, Int(header.record_count) - 1] {
            fields.append(("record \(record) name_offset", records + record * MemoryLayout<mms_record>.stride + 12, 4))
            fields.append(("record \(record) name_length", records + record * MemoryLayout<mms_record>.stride + 16, 2))
        }
        for kind in 0 ..< Int(MMS_SECTION_COUNT.rawValue) {
            let entry = MemoryLayout<mms_header>.offset(of: \.sections)! + kind * MemoryLayout<mms_section>.stride
            fields.append(("section \(kind) offset", entry, 8))
            fields.append(("section \(kind) length", entry + 8, 8))
        }
        for name in ["record_count", "node_count", "edge_count"] {
            let offset = ["record_count": 40, "node_count": 44, "edge_count": 48][name]!
            fields.append((name, offset, 4))
        }
        for (what, offset, width) in fields {
            for value: UInt64 in [0, 1, 0x7FFF, 0xFFFF, 0x7FFF_FFFF, 0xFFFF_FFFE, 0xFFFF_FFFF, UInt64.max] {
                var bytes = Self.original.bytes
                bytes.withUnsafeMutableBytes { raw in
                    withUnsafeBytes(of: value.littleEndian) { raw.baseAddress!.advanced(by: offset).copyMemory(from: $0.baseAddress!, byteCount: width) }
                }
                let result = Self.exercise(Self.withChecksumFixed(bytes))
                if result.verified {
                    #expect(Self.firstDifference(result.answers) == nil || what.hasPrefix("record"), "\(what) = \(value) passed verify with other answers")
                }
            }
        }
    }

    /// Edges turned back to the root or to their own node: the walk must stop (it consumes a byte a
    /// step) and verify must refuse the cycle.
    @Test func edgesFormingCycles() {
        let (header, sections) = Self.layout
        let edges = Int(sections[Int(MMS_SECTION_EDGES.rawValue)].offset)
        for edge in 0 ..< Int(header.edge_count) where edge % 7 == 0 {
            for target: UInt32 in [0, UInt32(edge), UInt32(edge + 1) / 2] {
                var bytes = Self.original.bytes
                bytes.withUnsafeMutableBytes { $0.storeBytes(of: target, toByteOffset: edges + edge * MemoryLayout<mms_edge>.stride + 4, as: UInt32.self) }
                let result = Self.exercise(Self.withChecksumFixed(bytes))
                if result.verified { #expect(Self.firstDifference(result.answers) == nil, "edge \(edge) -> \(target) passed verify") }
            }
        }
    }
}
