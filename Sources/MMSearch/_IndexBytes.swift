import CMMSearchFormat

/// The one layer that reads an index's bytes. It lives only inside `Data.withUnsafeBytes` (the
/// pointer never escapes), and every read checks the index or span it was given against the layout
/// before loading, so a corrupt file throws instead of reading out of bounds.
struct _IndexBytes {
    let raw: UnsafeRawBufferPointer
    let layout: _IndexLayout
    let path: String

    func corrupt(_ offset: Int, _ message: String) -> MMSearchError {
        .invalidIndex(file: path, byteOffset: offset, message: message)
    }

    /// Node `index`; the sentinel (index `nodeCount`) included.
    @inline(__always)
    func node(_ index: Int) throws(MMSearchError) -> mms_node {
        guard index >= 0, index <= layout.nodeCount else {
            throw corrupt(layout.nodes, "node \(index) does not exist (\(layout.nodeCount) nodes)")
        }
        return raw.loadUnaligned(fromByteOffset: layout.nodes + index * _IndexLayout.nodeSize, as: mms_node.self)
    }

    @inline(__always)
    func edge(_ index: Int) throws(MMSearchError) -> mms_edge {
        guard index >= 0, index < layout.edgeCount else {
            throw corrupt(layout.edges, "edge \(index) does not exist (\(layout.edgeCount) edges)")
        }
        return raw.loadUnaligned(fromByteOffset: layout.edges + index * _IndexLayout.edgeSize, as: mms_edge.self)
    }

    /// The first byte of edge `index`'s label, read alone: this is what the binary search compares.
    @inline(__always)
    private func edgeFirstByte(_ index: Int) -> UInt8 {
        raw.load(fromByteOffset: layout.edges + index * _IndexLayout.edgeSize + MemoryLayout<mms_edge>.offset(of: \.first_byte)!, as: UInt8.self)
    }

    /// The edges of node `index`, checked to lie inside the edge array.
    @inline(__always)
    func edgeRange(ofNode index: Int) throws(MMSearchError) -> Range<Int> {
        let first = Int(try node(index).edge_first)
        let end = Int(try node(index + 1).edge_first)
        guard first <= end, end <= layout.edgeCount else {
            throw corrupt(layout.nodes + index * _IndexLayout.nodeSize, "node \(index) has edges \(first)..<\(end), outside the \(layout.edgeCount) edges")
        }
        return first ..< end
    }

    /// The label bytes of `edge`, checked to lie inside the label pool and be non-empty.
    @inline(__always)
    func label(of edge: mms_edge, edgeIndex: Int) throws(MMSearchError) -> UnsafeRawBufferPointer {
        let start = Int(edge.label_offset), length = Int(edge.label_length)
        guard length >= 1, start <= layout.labels.count - length else {
            throw corrupt(layout.edges + edgeIndex * _IndexLayout.edgeSize, "edge \(edgeIndex) has label \(start)+\(length), outside the \(layout.labels.count)-byte label pool")
        }
        return UnsafeRawBufferPointer(rebasing: raw[layout.labels.lowerBound + start ..< layout.labels.lowerBound + start + length])
    }

    /// The records under node `index`, checked to lie inside the record array.
    @inline(__always)
    func recordRange(ofNode index: Int) throws(MMSearchError) -> Range<Int> {
        let node = try node(index)
        let first = Int(node.record_first), count = Int(node.record_count)
        guard first <= layout.recordCount, count <= layout.recordCount - first else {
            throw corrupt(layout.nodes + index * _IndexLayout.nodeSize, "node \(index) covers records \(first)+\(count), outside the \(layout.recordCount) records")
        }
        return first ..< first + count
    }

    /// The records whose key starts with `query` (already folded): one walk from the root, at most
    /// `query.count` steps whatever the file says, since every edge consumes at least one byte.
    func locate(_ query: UnsafeRawBufferPointer) throws(MMSearchError) -> Range<Int> {
        var nodeIndex = 0
        var rest = query[...]
        while let wanted = rest.first {
            let edges = try edgeRange(ofNode: nodeIndex)
            // Binary search for the edge whose first byte is `wanted`.
            var low = edges.lowerBound, high = edges.upperBound
            while low < high {
                let middle = low + (high - low) / 2
                if edgeFirstByte(middle) < wanted { low = middle + 1 } else { high = middle }
            }
            guard low < edges.upperBound, edgeFirstByte(low) == wanted else { return 0 ..< 0 }
            let edge = try edge(low)
            let label = try label(of: edge, edgeIndex: low)
            let target = Int(edge.target)
            guard target > nodeIndex, target < layout.nodeCount else {
                throw corrupt(layout.edges + low * _IndexLayout.edgeSize, "edge \(low) leads from node \(nodeIndex) to node \(target); edges must lead to a later node below \(layout.nodeCount)")
            }
            let compared = min(label.count, rest.count)
            guard memoryEqual(label.baseAddress!, UnsafeRawBufferPointer(rebasing: rest).baseAddress!, compared) else {
                return 0 ..< 0
            }
            rest = rest.dropFirst(compared)
            nodeIndex = target
        }
        return try recordRange(ofNode: nodeIndex)
    }

    /// Record `index` of the key-ordered array.
    @inline(__always)
    func record(_ index: Int) throws(MMSearchError) -> mms_record {
        guard index >= 0, index < layout.recordCount else {
            throw corrupt(layout.records, "record \(index) does not exist (\(layout.recordCount) records)")
        }
        return raw.loadUnaligned(fromByteOffset: layout.records + index * _IndexLayout.recordSize, as: mms_record.self)
    }

    /// The name bytes of record `index`, checked to lie inside the name pool.
    func name(of record: mms_record, recordIndex: Int) throws(MMSearchError) -> UnsafeRawBufferPointer {
        let start = Int(record.name_offset), length = Int(record.name_length)
        guard start <= layout.names.count - length else {
            throw corrupt(layout.records + recordIndex * _IndexLayout.recordSize, "record \(recordIndex) has name \(start)+\(length), outside the \(layout.names.count)-byte name pool")
        }
        return UnsafeRawBufferPointer(rebasing: raw[layout.names.lowerBound + start ..< layout.names.lowerBound + start + length])
    }

    /// Record `index` as a `City`.
    func city(_ index: Int) throws(MMSearchError) -> City {
        let record = try record(index)
        let name = try name(of: record, recordIndex: index)
        return City(
            id: record.id,
            name: String(decoding: name, as: UTF8.self),
            country: Self.countryText(record.country),
            coordinate: Coordinate(latitudeE7: record.lat_e7, longitudeE7: record.lon_e7)
        )
    }

    static func countryText(_ country: (UInt8, UInt8)) -> String {
        if country == (0, 0) { return "" }
        // Decoded from the tuple's own bytes: no temporary array on the per-result path.
        return withUnsafeBytes(of: country) { String(decoding: $0, as: UTF8.self) }
    }

    /// Entry `position` of the id order: the index of a record, in order of ids.
    func recordIndex(inIdOrder position: Int) throws(MMSearchError) -> Int {
        guard position >= 0, position < layout.recordCount else {
            throw corrupt(layout.idOrder, "id order position \(position) does not exist")
        }
        let value = Int(raw.loadUnaligned(fromByteOffset: layout.idOrder + position * 4, as: UInt32.self))
        guard value < layout.recordCount else {
            throw corrupt(layout.idOrder + position * 4, "id order entry \(position) names record \(value) of \(layout.recordCount)")
        }
        return value
    }

    /// The header's section table, in kind order. Open checked every entry (in the canonical layout
    /// and inside the file), so the values can be shown as they are.
    func sectionTable() -> [mms_section] {
        (0 ..< Int(MMS_SECTION_COUNT.rawValue)).map { kind in
            raw.loadUnaligned(fromByteOffset: _IndexLayout.sectionTableOffset + kind * MemoryLayout<mms_section>.stride, as: mms_section.self)
        }
    }

    /// The header's stored checksum (not recomputed: that is `verify`'s work).
    var storedChecksum: UInt64 { raw.loadUnaligned(fromByteOffset: _IndexLayout.checksumOffset, as: UInt64.self) }

    /// The SOURCE section: its fixed part and the source name bytes after it, checked to fill the
    /// section exactly.
    func source() throws(MMSearchError) -> (fields: mms_source, name: UnsafeRawBufferPointer) {
        let section = layout.source, fixedSize = MemoryLayout<mms_source>.size
        guard section.count >= fixedSize else {
            throw corrupt(section.lowerBound, "the source section is \(section.count) bytes, smaller than its \(fixedSize)-byte header")
        }
        let fields = raw.loadUnaligned(fromByteOffset: section.lowerBound, as: mms_source.self)
        guard Int(fields.name_length) == section.count - fixedSize else {
            throw corrupt(section.lowerBound, "the source name is \(fields.name_length) bytes, but the section leaves room for \(section.count - fixedSize)")
        }
        return (fields, UnsafeRawBufferPointer(rebasing: raw[section.lowerBound + fixedSize ..< section.upperBound]))
    }
}

@inline(__always)
private func memoryEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
    for offset in 0 ..< count where a.load(fromByteOffset: offset, as: UInt8.self) != b.load(fromByteOffset: offset, as: UInt8.self) {
        return false
    }
    return true
}
