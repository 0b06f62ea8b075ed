import CMMSearchFormat

/// What an index was built from, as its SOURCE section records it: the builder writes one, and
/// `CityIndex.info()` reads it back.
///
/// ```swift
/// let source = try CityIndex(path: "cities.mms").info().source
/// print(source.name, source.size)   // city.list.json.gz 19628084
/// ```
public struct SourceDescription: Sendable, Equatable {
    /// What kind of file the input was.
    public enum Kind: UInt32, Sendable {
        /// OpenWeatherMap's JSON city list.
        case cityList = 1
        /// A GeoNames dump (cities500.txt, allCountries.txt, ...).
        case geoNamesDump = 2
    }

    /// A GeoNames dump joined to the list by id: its name, size and checksum, as for the input.
    public struct Joined: Sendable, Equatable {
        public var name: String
        public var size: UInt64
        public var checksum: UInt64

        public init(name: String, size: UInt64, checksum: UInt64) {
            self.name = name
            self.size = size
            self.checksum = checksum
        }
    }

    /// The input file's name as given to the builder, without its directory.
    public var name: String
    /// Bytes of the input as parsed: after decompression, for a gzip-compressed list.
    public var size: UInt64
    /// XXH64 (seed 0) of those bytes.
    public var checksum: UInt64
    /// When the index was written, in seconds since 1970-01-01 UTC.
    public var builtAt: Int64
    /// The input's kind.
    public var kind: Kind
    /// The GeoNames dump joined to the list (`mmsearch build --geonames`), if any.
    public var joined: Joined?

    /// ```swift
    /// let source = SourceDescription(name: "city.list.json", size: 0, checksum: 0, builtAt: 0)
    /// ```
    public init(name: String, size: UInt64, checksum: UInt64, builtAt: Int64, kind: Kind = .cityList, joined: Joined? = nil) {
        self.name = name
        self.size = size
        self.checksum = checksum
        self.builtAt = builtAt
        self.kind = kind
        self.joined = joined
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
        /// The section's name: "nodes", "labels", "entries", "summaries", "top pages", "records",
        /// "population", "alternates", "names", "id order" or "source".
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
    /// Trie nodes (the root included).
    public var nodeCount: Int
    /// Search keys: one per name of a city and per word start inside one.
    public var entryCount: Int
    /// Names other than the display names.
    public var alternateCount: Int
    /// Nodes with a stored count and first page.
    public var summaryCount: Int
    /// Whether the cities have populations (built with GeoNames data).
    public var hasPopulation: Bool
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
            let (fields, name, joinedName) = try index.source()
            let table = index.sectionTable()
            return IndexInfo(
                formatVersion: MMS_FORMAT_VERSION, // open accepts exactly this version
                fileSize: layout.fileSize,
                recordCount: layout.recordCount,
                nodeCount: layout.nodeCount,
                entryCount: layout.entryCount,
                alternateCount: layout.alternateCount,
                summaryCount: layout.summaryCount,
                hasPopulation: layout.hasPopulation,
                checksum: index.storedChecksum,
                sections: _IndexLayout.sectionNames.map { kind, name in
                    let entry = table[Int(kind.rawValue)]
                    return IndexInfo.Section(name: name, offset: Int(entry.offset), length: Int(entry.length))
                },
                source: SourceDescription(
                    name: String(decoding: name, as: UTF8.self),
                    size: fields.source_size,
                    checksum: fields.source_checksum,
                    builtAt: fields.built_at,
                    kind: SourceDescription.Kind(rawValue: fields.source_kind) ?? .cityList,
                    joined: fields.joined_name_length == 0 && fields.joined_size == 0 ? nil : SourceDescription.Joined(
                        name: String(decoding: joinedName, as: UTF8.self), size: fields.joined_size, checksum: fields.joined_checksum)
                )
            )
        }
    }
}
