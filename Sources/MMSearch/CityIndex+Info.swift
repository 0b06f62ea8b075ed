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

    /// A file read beside the input (a GeoNames dump joined by id, the admin1 file, the country
    /// file): its name, size and checksum, as for the input.
    public struct InputFile: Sendable, Equatable {
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
    public var joined: InputFile?
    /// GeoNames' admin1CodesASCII.txt, the regions' names (`mmsearch build --admin1`), if any.
    public var admin1: InputFile?
    /// GeoNames' countryInfo.txt, the countries' names (`mmsearch build --countries`), if any.
    public var countries: InputFile?
    /// GeoNames' alternateNamesV2.txt, other names of cities, countries and regions
    /// (`mmsearch build --alternate-names`), if any.
    public var alternateNames: InputFile?
    /// Of the alternate names file's rows, the names it gave records (by their ids) and the names it
    /// gave countries and regions (qualifier names), before repeated folds were dropped.
    public var alternateNamesOfRecords: Int
    public var alternateNamesOfPlaces: Int

    /// ```swift
    /// let source = SourceDescription(name: "city.list.json", size: 0, checksum: 0, builtAt: 0)
    /// ```
    public init(name: String, size: UInt64, checksum: UInt64, builtAt: Int64, kind: Kind = .cityList, joined: InputFile? = nil,
                admin1: InputFile? = nil, countries: InputFile? = nil, alternateNames: InputFile? = nil,
                alternateNamesOfRecords: Int = 0, alternateNamesOfPlaces: Int = 0) {
        self.name = name
        self.size = size
        self.checksum = checksum
        self.builtAt = builtAt
        self.kind = kind
        self.joined = joined
        self.admin1 = admin1
        self.countries = countries
        self.alternateNames = alternateNames
        self.alternateNamesOfRecords = alternateNamesOfRecords
        self.alternateNamesOfPlaces = alternateNamesOfPlaces
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
        /// The section's name, as `mmsearch info` prints it: "labels", "nodes", "records", "spatial",
        /// "spatial bounds" and so on, one for each section `include/mmsearch_format.h` defines.
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
    /// Names other than the display names, as given (by a GeoNames dump, the alternate names file).
    public var alternateCount: Int
    /// Names generated from the names (`St Paul` for `Saint Paul`; rank.py's "Spellings"), matched
    /// with `MatchMode.words` only.
    public var spellingCount: Int
    /// Nodes with a stored count and first page.
    public var summaryCount: Int
    /// The entries of the first pages TOP stores: the summaries', the country pages' and the near lists'.
    public var firstPageEntryCount: Int
    /// Whether the cities have populations (built with GeoNames data).
    public var hasPopulation: Bool
    /// Regions (GeoNames admin1 divisions) some city is in, and countries with a name.
    public var regionCount: Int
    public var countryCount: Int
    /// Whether "Name, Qualifier" queries ("portland, or") match: some city has a region or a named country.
    public var matchesQualifiers: Bool
    /// Other names of countries and regions that qualifiers match ("uk", "deutschland"), from the
    /// alternate names file.
    public var qualifierNameCount: Int
    /// Big nodes with a list for searches near a point (NEAR_LISTS), the matches listed (those not by a
    /// primary name's prefix that may reach a first page), and the bytes of TOP those take.
    public var nearListCount: Int
    public var nearListedCount: Int
    public var nearListedBytes: Int
    /// The bytes that answer by place (issue 21's "spatial part"): SPATIAL and SPATIAL_BOUNDS (the
    /// nearest cities, filters by area), NEAR_POINTS and NEAR_LISTS (pages ranked near a point), and
    /// the near lists' part of TOP (`nearListedBytes`).
    public var spatialPartBytes: Int
    /// The names of the sections `spatialPartBytes` counts whole ("spatial", "spatial bounds", "near
    /// points", "near lists"), as `sections` names them.
    public var spatialPartSections: [String]
    /// The checksum the header stores; `CityIndex.verify()` checks it against the bytes.
    public var checksum: UInt64
    /// Every section in file order.
    public var sections: [Section]
    /// What the index was built from, and when.
    public var source: SourceDescription
}

extension CityIndex {
    /// The header's counts and section table and the SOURCE section, checked against the file. Reads
    /// the header, SOURCE, NEAR_LISTS and the summaries' counts only, so it costs well under a
    /// millisecond; opening the index does not read SOURCE.
    ///
    /// ```swift
    /// let info = try CityIndex(path: "cities.mms").info()
    /// print(info.source.name, info.recordCount)   // city.list.json 209579
    /// ```
    public func info() throws(MMSearchError) -> IndexInfo {
        try withBytes { (index) throws(MMSearchError) in
            let (fields, names) = try index.source()
            func file(_ name: UnsafeRawBufferPointer, size: UInt64, checksum: UInt64) -> SourceDescription.InputFile? {
                name.isEmpty && size == 0 ? nil : SourceDescription.InputFile(name: String(decoding: name, as: UTF8.self), size: size, checksum: checksum)
            }
            let table = index.sectionTable()
            var listed = 0
            for list in 0 ..< layout.nearListCount { listed += try index.nearList(list).count }
            var pageEntries = listed + layout.countryPageCount * Int(MMS_TOP_COUNT)
            for summary in 0 ..< layout.summaryCount { pageEntries += min(Int(index.unpackedSummary(summary).record_count), Int(MMS_TOP_COUNT)) }
            // The lists' pages are TOP's last ("TOP pages"; verify checks that the pages tile TOP).
            let nearListed = layout.nearListCount == 0 ? 0 : (layout.topBits - min(layout.topBits, try index.nearList(0).topFirst) + 7) / 8
            return IndexInfo(
                formatVersion: MMS_FORMAT_VERSION, // open accepts exactly this version
                fileSize: layout.fileSize,
                recordCount: layout.recordCount,
                nodeCount: layout.nodeCount,
                entryCount: layout.entryCount,
                alternateCount: layout.givenAlternateCount,
                spellingCount: layout.alternateCount - layout.givenAlternateCount,
                summaryCount: layout.summaryCount,
                firstPageEntryCount: pageEntries,
                hasPopulation: layout.hasPopulation,
                regionCount: layout.regionCount,
                countryCount: layout.countryCount,
                matchesQualifiers: layout.isQualified,
                qualifierNameCount: layout.qualifierNameCount,
                nearListCount: layout.nearListCount,
                nearListedCount: listed,
                nearListedBytes: nearListed,
                spatialPartBytes: _IndexLayout.spatialPart.map { Int(table[Int($0.rawValue)].length) }.reduce(nearListed, +),
                spatialPartSections: _IndexLayout.spatialPart.map(_IndexLayout.name(of:)),
                checksum: index.storedChecksum,
                sections: _IndexLayout.sectionNames.map { kind, name in
                    let entry = table[Int(kind.rawValue)]
                    return IndexInfo.Section(name: name, offset: Int(entry.offset), length: Int(entry.length))
                },
                source: SourceDescription(
                    name: String(decoding: names.source, as: UTF8.self),
                    size: fields.source_size,
                    checksum: fields.source_checksum,
                    builtAt: fields.built_at,
                    kind: SourceDescription.Kind(rawValue: fields.source_kind) ?? .cityList,
                    joined: file(names.joined, size: fields.joined_size, checksum: fields.joined_checksum),
                    admin1: file(names.admin1, size: fields.admin1_size, checksum: fields.admin1_checksum),
                    countries: file(names.countries, size: fields.countries_size, checksum: fields.countries_checksum),
                    alternateNames: file(names.alternates, size: fields.alternates_size, checksum: fields.alternates_checksum),
                    alternateNamesOfRecords: Int(fields.alternates_record_names),
                    alternateNamesOfPlaces: Int(fields.alternates_qualifier_names)
                )
            )
        }
    }
}
