import CMMSearchFormat

/// What an index was built from, as its SOURCE section records it: the builder writes one, and
/// `CityIndex.info()` reads it back.
///
/// ```swift
/// let source = try CityIndex(path: "cities.mms").info().source
/// print(source.name, source.size)   // city.list.json.gz 19628084
/// ```
public struct SourceDescription: Sendable, Equatable {
    /// The input file's name as given to the builder, without its directory.
    public var name: String
    /// Bytes of the input as parsed: after decompression, for a gzip-compressed list.
    public var size: UInt64
    /// XXH64 (seed 0) of those bytes.
    public var checksum: UInt64
    /// When the index was written, in seconds since 1970-01-01 UTC.
    public var builtAt: Int64

    /// ```swift
    /// let source = SourceDescription(name: "city.list.json", size: 0, checksum: 0, builtAt: 0)
    /// ```
    public init(name: String, size: UInt64, checksum: UInt64, builtAt: Int64) {
        self.name = name
        self.size = size
        self.checksum = checksum
        self.builtAt = builtAt
    }
}

/// What an index holds and where: its header's counts and section table, and its SOURCE section.
///
/// ```swift
/// let info = try CityIndex(path: "cities.mms").info()
/// print(info.formatVersion, info.recordCount)             // 1 209579
/// for section in info.sections { print(section.name, section.length) }
/// ```
public struct IndexInfo: Sendable, Equatable {
    /// One section of the file, as the header's section table places it.
    public struct Section: Sendable, Equatable {
        /// "nodes", "edges", "labels", "records", "names", "id order" or "source".
        public var name: String
        /// Byte offset from the start of the file.
        public var offset: Int
        /// Bytes in the section, padding excluded.
        public var length: Int
    }

    /// The format version (`MMS_FORMAT_VERSION` in `include/mmsearch_format.h`).
    public var formatVersion: UInt32
    /// The whole file, in bytes.
    public var fileSize: Int
    public var recordCount: Int
    /// Trie nodes (the root included) and edges.
    public var nodeCount: Int
    public var edgeCount: Int
    /// The checksum the header stores; `CityIndex.verify()` checks it against the bytes.
    public var checksum: UInt64
    /// Every section in file order (the reserved entry left out).
    public var sections: [Section]
    /// What the index was built from, and when.
    public var source: SourceDescription
}

extension CityIndex {
    /// The header's counts and section table and the SOURCE section, checked against the file. Reads
    /// the header and SOURCE only, so it costs microseconds; opening the index does not read SOURCE.
    ///
    /// ```swift
    /// let info = try CityIndex(path: "cities.mms").info()
    /// print(info.source.name, info.recordCount)   // city.list.json 209579
    /// ```
    public func info() throws(MMSearchError) -> IndexInfo {
        try withBytes { (index) throws(MMSearchError) in
            let (fields, name) = try index.source()
            let table = index.sectionTable()
            return IndexInfo(
                formatVersion: MMS_FORMAT_VERSION, // open accepts exactly this version
                fileSize: layout.fileSize,
                recordCount: layout.recordCount,
                nodeCount: layout.nodeCount,
                edgeCount: layout.edgeCount,
                checksum: index.storedChecksum,
                sections: _IndexLayout.sectionNames.map { kind, name in
                    let entry = table[Int(kind.rawValue)]
                    return IndexInfo.Section(name: name, offset: Int(entry.offset), length: Int(entry.length))
                },
                source: SourceDescription(
                    name: String(decoding: name, as: UTF8.self),
                    size: fields.source_size,
                    checksum: fields.source_checksum,
                    builtAt: fields.built_at
                )
            )
        }
    }
}
