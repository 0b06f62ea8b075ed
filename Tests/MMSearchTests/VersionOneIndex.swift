import MMSearch

/// Index files of format version 1, laid out as version 1's builder wrote them (version 1's
/// `include/mmsearch_format.h`, commit c208972): a 184-byte header (magic, version 1, byte-order mark,
/// file size, checksum, header size, section count 8, record, node and edge counts, reserved, then
/// 8 sections), then NODES (12-byte {record_first, record_count, edge_first}, one more than
/// node_count: the sentinel), EDGES (12-byte {label_offset, target, label_length, first_byte,
/// reserved}), LABELS, RECORDS (20 bytes, as in version 2), NAMES, ID_ORDER and SOURCE (32-byte
/// {source_size, source_checksum, built_at, name_length, reserved} + name), each at the next multiple
/// of 8. Written out here, byte by byte, because version 2 has no code left that writes them.
enum VersionOneIndex {
    /// "Alabama", US, from "x.json": larger than version 2's header.
    static let alabama: [UInt8] = make(
        recordCount: 1,
        nodes: [(0, 1, 0), (0, 1, 1), (0, 0, 1)],
        edges: [(0, 1, 11, UInt8(ascii: "a"))],
        labels: Array("alabama, us".utf8),
        records: [(id: 1, name: (0, 7), country: Array("US".utf8))],
        names: Array("Alabama".utf8),
        source: "x.json"
    )

    /// An index of no record (the library made these; the command refused empty lists).
    static let empty: [UInt8] = make(recordCount: 0, nodes: [(0, 0, 0), (0, 0, 0)], edges: [], labels: [], records: [], names: [], source: "x.json")

    /// One record with an empty name and country, built from "a.json" by the command: 278 bytes.
    static let blank: [UInt8] = make(
        recordCount: 1, nodes: [(0, 1, 0), (0, 0, 0)], edges: [], labels: [],
        records: [(id: 1, name: (0, 0), country: [])], names: [], source: "a.json"
    )

    static func make(recordCount: Int, nodes: [(UInt32, UInt32, UInt32)], edges: [(UInt32, UInt32, UInt16, UInt8)], labels: [UInt8],
                     records: [(id: UInt32, name: (UInt32, UInt16), country: [UInt8])], names: [UInt8], source: String) -> [UInt8] {
        func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
        var nodeBytes: [UInt8] = [], edgeBytes: [UInt8] = [], recordBytes: [UInt8] = [], idOrder: [UInt8] = [], sourceBytes: [UInt8] = []
        for node in nodes { nodeBytes += le(node.0); nodeBytes += le(node.1); nodeBytes += le(node.2) }
        for edge in edges { edgeBytes += le(edge.0); edgeBytes += le(edge.1); edgeBytes += le(edge.2); edgeBytes += [edge.3, 0] }
        for (position, record) in records.enumerated() {
            recordBytes += le(record.id); recordBytes += le(Int32(0)); recordBytes += le(Int32(0))
            recordBytes += le(record.name.0); recordBytes += le(record.name.1)
            recordBytes += record.country.isEmpty ? [0, 0] : record.country
            idOrder += le(UInt32(position))
        }
        sourceBytes += le(UInt64(0)); sourceBytes += le(UInt64(0)); sourceBytes += le(Int64(0))
        sourceBytes += le(UInt32(source.utf8.count)); sourceBytes += le(UInt32(0)); sourceBytes += Array(source.utf8)
        let sections: [[UInt8]] = [nodeBytes, edgeBytes, labels, recordBytes, names, idOrder, sourceBytes]
        let headerSize = 56 + 8 * 16
        var body: [UInt8] = []
        var table: [UInt8] = []
        for section in sections {
            while (headerSize + body.count) % 8 != 0 { body.append(0) }
            table += le(UInt64(headerSize + body.count)) + le(UInt64(section.count))
            body += section
        }
        table += [UInt8](repeating: 0, count: 16) // RESERVED
        var file: [UInt8] = le(UInt64(0x4843_5241_4553_4D4D)) // magic
        for field: UInt32 in [1, 0x0102_0304] { file += le(field) } // version, byte order
        file += le(UInt64(headerSize + body.count)) // file size
        file += le(UInt64(0)) // checksum, below
        for field in [headerSize, 8, recordCount, nodes.count - 1, edges.count, 0] { file += le(UInt32(field)) }
        file += table
        file += body
        precondition(file.count == headerSize + body.count)
        let checksum = le(IndexChecksum.compute(file))
        file.replaceSubrange(24 ..< 32, with: checksum)
        return file
    }
}
