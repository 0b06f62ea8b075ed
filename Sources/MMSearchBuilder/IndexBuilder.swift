import CMMSearchFormat
import MMSearch

/// How far a build has got: each stage is reported as it ends, for a progress display.
///
/// ```swift
/// try IndexBuilder.build(input: "city.list.json", output: "cities.mms") { print($0) }
/// // read(records: 209579), sorted(records: 209579), written(bytes: 13197470)
/// ```
public enum BuildProgress: Sendable, Equatable {
    /// The list is read (decompressed, if it was compressed) and parsed.
    case read(records: Int)
    /// The records' keys are folded and sorted.
    case sorted(records: Int)
    /// The index is written, flushed and in place.
    case written(bytes: Int)
}

/// What a build made.
///
/// ```swift
/// let summary = try IndexBuilder.build(input: "city.list.json", output: "cities.mms")
/// print("\(summary.recordCount) records, \(summary.fileSize) bytes")
/// ```
public struct BuildSummary: Sendable, Equatable {
    /// Records in the index (every record of the list).
    public var recordCount: Int
    /// Trie nodes (the root included) and edges.
    public var nodeCount: Int
    public var edgeCount: Int
    /// The index file, in bytes.
    public var fileSize: Int
    /// Records kept although their name, or country, is empty (the list has a few: continents).
    public var emptyNames: Int
    public var emptyCountries: Int
    /// Records of the list left out as invalid (with `skipInvalid`), one error each, in input order.
    public var skipped: [MMSearchError] = []
}

/// Turns records into index bytes (`makeIndex`) and writes them to a file without ever leaving a
/// partial index behind (`build`). The layout is `include/mmsearch_format.h`.
///
/// ```swift
/// let summary = try IndexBuilder.build(input: "city.list.json", output: "cities.mms")
/// print(summary.recordCount, summary.fileSize)
/// ```
public enum IndexBuilder {
    /// Reads the city list at `input`, builds its index and puts it at `output` atomically: it is
    /// written to a temporary file beside `output`, flushed, and renamed over it, so a failed or killed
    /// build leaves any index already at `output` as it was. A gzip-compressed list (recognized by its
    /// first bytes, whatever its name) is decompressed first. With `options.skipInvalid`, records with
    /// a content error are left out and their errors returned in `BuildSummary.skipped` (see
    /// `CityListParser` for which errors those are); a list with no valid record is an error all the
    /// same. `progress` hears of each stage as it ends.
    ///
    /// ```swift
    /// try IndexBuilder.build(input: "city.list.json.gz", output: "cities.mms") { stage in
    ///     if case .read(let records) = stage { print("\(records) records read") }
    /// }
    /// ```
    @discardableResult
    public static func build(input: String, output: String, options: CityListParseOptions = CityListParseOptions(), progress: (BuildProgress) -> Void = { _ in }) throws(MMSearchError) -> BuildSummary {
        let file = try SystemCall.openForReading(input)
        var bytes = try file.readToEnd()
        try file.close()
        if Gzip.isCompressed(bytes) { bytes = try Gzip.decompress(bytes, file: input) }
        let parsed = try bytes.withRawBytes { (raw) throws(MMSearchError) in
            try CityListParser.parse(raw, file: input, options: options)
        }
        let records = parsed.records
        if records.isEmpty, case let .invalidInput(file, line, column, byteOffset, message)? = parsed.skipped.first {
            throw .invalidInput(file: file, line: line, column: column, byteOffset: byteOffset,
                                message: "no valid record to index: all \(parsed.skipped.count) were skipped; the first: \(message)")
        }
        progress(.read(records: records.count))
        let source = SourceDescription(
            name: FilePaths.fileName(of: input),
            size: UInt64(bytes.count),
            checksum: bytes.withUnsafeBytes { mms_xxh64($0.baseAddress, $0.count, 0) },
            builtAt: SystemCall.unixTime
        )
        var (index, summary) = try makeIndex(records: records, source: source, file: input, progress: progress)
        summary.skipped = parsed.skipped
        try writeAtomically(index, to: output)
        progress(.written(bytes: index.count))
        return summary
    }

    /// The bytes of an index holding `records`, with `source` as its SOURCE section. `file` names the
    /// input in errors; `progress` hears `.sorted` once the keys are in order.
    ///
    /// ```swift
    /// let london = SourceRecord(id: 2643743, name: Array("London".utf8), country: Array("GB".utf8),
    ///                           latitudeE7: 515_085_300, longitudeE7: -1_257_400)
    /// let source = SourceDescription(name: "memory", size: 0, checksum: 0, builtAt: 0)
    /// let (bytes, _) = try IndexBuilder.makeIndex(records: [london], source: source)
    /// let index = try CityIndex(bytes: Data(bytes))
    /// ```
    public static func makeIndex(records: [SourceRecord], source: SourceDescription, file: String = "<records>", progress: (BuildProgress) -> Void = { _ in }) throws(MMSearchError) -> (bytes: [UInt8], summary: BuildSummary) {
        guard records.count < Int(UInt32.max) else {
            throw .limitExceeded(file: file, message: "\(records.count) records; an index holds at most \(UInt32.max - 1)")
        }
        let keys = try SortedKeys(records: records, file: file)
        progress(.sorted(records: records.count))
        let trie = try TrieBuilder(keys: keys, file: file)
        var names = BytePool()
        var recordEntries: [mms_record] = []
        recordEntries.reserveCapacity(records.count)
        for recordIndex in keys.order {
            let record = records[Int(recordIndex)]
            let nameOffset = try names.intern(record.name, file: file)
            recordEntries.append(mms_record(
                id: record.id,
                lat_e7: record.latitudeE7,
                lon_e7: record.longitudeE7,
                name_offset: nameOffset,
                name_length: UInt16(record.name.count),
                country: record.country.count == 2 ? (record.country[0], record.country[1]) : (0, 0)
            ))
        }
        // Positions in key order, sorted by (id, position): what `CityIndex.cities(id:)` searches.
        let idOrder = (0 ..< UInt32(recordEntries.count)).sorted {
            (recordEntries[Int($0)].id, $0) < (recordEntries[Int($1)].id, $1)
        }
        var sourceSection: [UInt8] = []
        withUnsafeBytes(of: mms_source(
            source_size: source.size,
            source_checksum: source.checksum,
            built_at: source.builtAt,
            name_length: UInt32(source.name.utf8.count),
            reserved: 0
        )) { sourceSection.append(contentsOf: $0) }
        sourceSection.append(contentsOf: source.name.utf8)

        var writer = _SectionWriter()
        writer.place(MMS_SECTION_NODES, trie.nodes)
        writer.place(MMS_SECTION_EDGES, trie.edges)
        writer.place(MMS_SECTION_LABELS, trie.labels.bytes)
        writer.place(MMS_SECTION_RECORDS, recordEntries)
        writer.place(MMS_SECTION_NAMES, names.bytes)
        writer.place(MMS_SECTION_ID_ORDER, idOrder)
        writer.place(MMS_SECTION_SOURCE, sourceSection)
        let bytes = writer.finish(
            recordCount: UInt32(recordEntries.count),
            nodeCount: UInt32(trie.nodes.count - 1),
            edgeCount: UInt32(trie.edges.count)
        )
        let summary = BuildSummary(
            recordCount: records.count,
            nodeCount: trie.nodes.count - 1,
            edgeCount: trie.edges.count,
            fileSize: bytes.count,
            emptyNames: records.count { $0.name.isEmpty },
            emptyCountries: records.count { $0.country.isEmpty }
        )
        return (bytes, summary)
    }

    static let writeChunkSize = 1 << 16

    /// Writes `bytes` to a new temporary file beside `path`, flushes it, and renames it over `path`.
    ///
    /// ```swift
    /// try IndexBuilder.writeAtomically(bytes, to: "cities.mms")
    /// ```
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(MMSearchError) {
        let temporary = "\(path).tmp-\(SystemCall.processID)"
        SystemCall.removeIfPresent(temporary) // a leftover of an earlier killed build with our pid
        do throws(MMSearchError) {
            let file = try SystemCall.createExclusive(temporary)
            // In 64 KiB writes, not one: the page cache keeps a file in folios as large as the writes
            // that made them (up to 2 MiB), and a reader's page fault maps a whole folio, so one big
            // write would make a fresh reader's first query map ~10 MiB instead of under 1 MiB.
            try bytes.withRawBytes { (raw) throws(MMSearchError) in
                for start in stride(from: 0, to: raw.count, by: Self.writeChunkSize) {
                    try file.writeAll(UnsafeRawBufferPointer(rebasing: raw[start ..< min(start + Self.writeChunkSize, raw.count)]))
                }
            }
            try file.sync()
            try file.close()
            try SystemCall.rename(temporary, to: path)
        } catch {
            SystemCall.removeIfPresent(temporary)
            throw error
        }
        try SystemCall.syncDirectory(containing: path)
    }
}

/// Every record's search key, folded once into one pool, and the records' order by
/// (key bytes, name bytes, id).
struct SortedKeys {
    /// Key bytes of all records, back to back, in input order.
    private(set) var pool: [UInt8] = []
    /// Record i's key is pool[starts[i] ..< starts[i + 1]].
    private(set) var starts: [Int] = [0]
    /// Input indices in key order.
    private(set) var order: [UInt32] = []

    init(records: [SourceRecord], file: String) throws(MMSearchError) {
        pool.reserveCapacity(records.count * 16)
        starts.reserveCapacity(records.count + 1)
        for record in records {
            record.name.withUnsafeBufferPointer { Folding.append(foldingUTF8: $0, to: &pool) }
            if !record.country.isEmpty {
                pool.append(contentsOf: ", ".utf8)
                record.country.withUnsafeBufferPointer { Folding.append(foldingUTF8: $0, to: &pool) }
            }
            guard pool.count - starts.last! <= Int(MMS_MAX_STRING_LENGTH) else {
                throw .limitExceeded(file: file, message: "the search key of record \(record.id) is \(pool.count - starts.last!) bytes; at most \(MMS_MAX_STRING_LENGTH) fit")
            }
            starts.append(pool.count)
        }
        order = Array(0 ..< UInt32(records.count))
        let starts = starts
        pool.withUnsafeBytes { pool in
            order.sort { left, right in
                let a = Int(left), b = Int(right)
                let byKey = compareBytes(pool, starts[a] ..< starts[a + 1], pool, starts[b] ..< starts[b + 1])
                if byKey != 0 { return byKey < 0 }
                let byName = records[a].name.withUnsafeBytes { nameA in
                    records[b].name.withUnsafeBytes { nameB in
                        compareBytes(nameA, 0 ..< nameA.count, nameB, 0 ..< nameB.count)
                    }
                }
                if byName != 0 { return byName < 0 }
                return records[a].id < records[b].id
            }
        }
    }

    /// The key of the record at `position` in key order, as a range of `pool`.
    func key(at position: Int) -> Range<Int> {
        let record = Int(order[position])
        return starts[record] ..< starts[record + 1]
    }
}

/// Byte strings stored once each: identical names (or labels) share their bytes.
struct BytePool {
    private(set) var bytes: [UInt8] = []
    private var offsets: [[UInt8]: UInt32] = [:]

    mutating func intern(_ string: [UInt8], file: String) throws(MMSearchError) -> UInt32 {
        if let offset = offsets[string] { return offset }
        guard bytes.count + string.count <= Int(UInt32.max) else {
            throw .limitExceeded(file: file, message: "string pool past 4 GiB; the format's offsets are 32-bit")
        }
        let offset = UInt32(bytes.count)
        bytes.append(contentsOf: string)
        offsets[string] = offset
        return offset
    }
}

/// The path-compressed trie over the sorted keys, as the format's flat arrays: nodes in preorder
/// (plus the sentinel), each node's edges contiguous and sorted by first byte.
struct TrieBuilder {
    private(set) var nodes: [mms_node] = []
    private(set) var edges: [mms_edge] = []
    private(set) var labels = BytePool()

    /// Records [first, end) in key order share their first `depth` key bytes; the node for them is
    /// reached by `parentEdge` (nil for the root).
    private struct Pending {
        var first: Int
        var end: Int
        var depth: Int
        var parentEdge: Int?
    }

    init(keys: SortedKeys, file: String) throws(MMSearchError) {
        let count = keys.order.count
        nodes.reserveCapacity(count * 3 / 2)
        edges.reserveCapacity(count * 3 / 2)
        // An explicit stack, not recursion: a key may be 65,535 bytes deep.
        var stack = [Pending(first: 0, end: count, depth: 0, parentEdge: nil)]
        try keys.pool.withRawBytes { (pool) throws(MMSearchError) in
            while let pending = stack.popLast() {
                let nodeIndex = nodes.count
                if let parentEdge = pending.parentEdge { edges[parentEdge].target = UInt32(nodeIndex) }
                nodes.append(mms_node(record_first: UInt32(pending.first), record_count: UInt32(pending.end - pending.first), edge_first: UInt32(edges.count)))
                // Records whose key is exactly this prefix come first (shorter sorts first); the rest
                // group by their next byte, each group one edge.
                var position = pending.first
                while position < pending.end, keys.key(at: position).count == pending.depth { position += 1 }
                var children: [Pending] = []
                while position < pending.end {
                    let groupKey = keys.key(at: position)
                    let byte = pool[groupKey.lowerBound + pending.depth]
                    var groupEnd = position + 1
                    while groupEnd < pending.end, pool[keys.key(at: groupEnd).lowerBound + pending.depth] == byte { groupEnd += 1 }
                    // Sorted keys: the group's common prefix is that of its first and last key.
                    let lastKey = keys.key(at: groupEnd - 1)
                    var shared = pending.depth + 1
                    while shared < groupKey.count, shared < lastKey.count,
                          pool[groupKey.lowerBound + shared] == pool[lastKey.lowerBound + shared] { shared += 1 }
                    let label = Array(pool[groupKey.lowerBound + pending.depth ..< groupKey.lowerBound + shared])
                    edges.append(mms_edge(
                        label_offset: try labels.intern(label, file: file),
                        target: 0, // set when the child is numbered
                        label_length: UInt16(label.count),
                        first_byte: byte,
                        reserved: 0
                    ))
                    children.append(Pending(first: position, end: groupEnd, depth: shared, parentEdge: edges.count - 1))
                    position = groupEnd
                }
                // Preorder: the first child is numbered next, so it goes on the stack last.
                stack.append(contentsOf: children.reversed())
            }
        }
        guard nodes.count < Int(UInt32.max) else {
            throw .limitExceeded(file: file, message: "\(nodes.count) trie nodes; at most \(UInt32.max - 1) fit")
        }
        nodes.append(mms_node(record_first: 0, record_count: 0, edge_first: UInt32(edges.count)))
    }
}
