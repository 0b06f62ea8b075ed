import CMMSearchFormat
import MMSearch

/// How far a build has got: each stage is reported as it ends, for a progress display.
///
/// ```swift
/// try IndexBuilder.build(input: "city.list.json", output: "cities.mms") { print($0) }
/// // read(records: 209579), sorted(records: 209579), written(bytes: 13197470)
/// ```
public enum BuildProgress: Sendable, Equatable {
    /// The inputs are read (decompressed, if they were compressed), parsed and joined.
    case read(records: Int)
    /// The search keys are folded and sorted.
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
    /// Trie nodes (the root included).
    public var nodeCount: Int
    /// Search keys (entries): every name's key and every word start's.
    public var entryCount: Int = 0
    /// Names other than the display names, as given (by the dump, the alternate names file).
    public var alternateCount: Int = 0
    /// Names generated from those (`Spellings`: "St Paul" for "Saint Paul"), matched with words only.
    public var spellingCount: Int = 0
    /// The index file, in bytes.
    public var fileSize: Int
    /// Records kept although their name, or country, is empty (the list has a few: continents).
    public var emptyNames: Int
    public var emptyCountries: Int
    /// With a GeoNames dump joined (`geonames:`): how many records of the list it had a row for.
    public var joinedRecords: Int?
    /// Records with a region (named by the admin1 file), and with a country the country file names.
    public var regionRecords: Int = 0
    public var countryRecords: Int = 0
    /// Regions and countries in the index (those some record has).
    public var regionCount: Int = 0
    public var countryCount: Int = 0
    /// With an alternate names file: the names it gave records, and the other names of countries and
    /// regions (qualifier names) it gave.
    public var alternateNamesOfRecords: Int = 0
    public var qualifierNameCount: Int = 0
    /// Records (or dump rows) left out as invalid (with `skipInvalid`), one error each, in input order.
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
    /// Reads the city list or GeoNames dump at `input` (told apart by content, see `InputKind`),
    /// joins the GeoNames dump at `geonames` to it by id if given, builds the index and puts it at
    /// `output` atomically: it is written to a temporary file beside `output`, flushed, and renamed
    /// over it, so a failed or killed build leaves any index already at `output` as it was. Gzip input
    /// (recognized by its first bytes, whatever its name) is decompressed first. With
    /// `options.skipInvalid`, records or rows with a content error are left out and their errors
    /// returned in `BuildSummary.skipped`; input with no valid record is an error all the same.
    /// `progress` hears of each stage as it ends.
    ///
    /// ```swift
    /// try IndexBuilder.build(input: "city.list.json.gz", geonames: "cities500.txt", output: "cities.mms")
    /// ```
    ///
    /// `admin1` (GeoNames' admin1CodesASCII.txt) names each record's region from its dump row; it
    /// needs a dump (joined, or the input itself), else the build is refused with `invalidOptions`.
    /// `countries` (GeoNames' countryInfo.txt) gives each country its name and ISO3 code.
    ///
    /// `alternateNames` (GeoNames' alternateNamesV2.txt layout, plain or gzip, streamed) adds the
    /// names it gives a record's id to that record, and the names it gives a country's or a region's
    /// geonameid (from `countries` and `admin1`) to what "Name, Qualifier" queries match.
    @discardableResult
    public static func build(input: String, geonames: String? = nil, admin1: String? = nil, countries: String? = nil,
                             alternateNames: String? = nil, output: String,
                             options: CityListParseOptions = CityListParseOptions(), progress: (BuildProgress) -> Void = { _ in }) throws(MMSearchError) -> BuildSummary {
        var loaded = try loadRecords(input: input, geonames: geonames, needsRegionCodes: admin1 != nil, options: options)
        let names = try loadRegionsAndCountries(admin1: admin1, countries: countries, options: options)
        loaded.source.admin1 = names.admin1File
        loaded.source.countries = names.countriesFile
        var qualifierNames = QualifierNames()
        var otherNames = AlternateNames()
        if let alternateNames {
            (qualifierNames, otherNames) = try addAlternateNames(alternateNames, to: &loaded.records, regions: names.regions, countries: names.countries, options: options)
            loaded.source.alternateNames = otherNames.file
            loaded.source.alternateNamesOfRecords = otherNames.recordNameCount
            loaded.source.alternateNamesOfPlaces = otherNames.keptCount - otherNames.recordNameCount
        }
        progress(.read(records: loaded.records.count))
        var (index, summary) = try makeIndex(records: loaded.records, source: loaded.source, regions: names.regions, countries: names.countries,
                                             qualifierNames: qualifierNames, file: input, progress: progress)
        summary.skipped = loaded.skipped + names.skipped + otherNames.skipped
        summary.alternateNamesOfRecords = loaded.source.alternateNamesOfRecords
        summary.joinedRecords = loaded.joinedRecords
        try writeAtomically(index, to: output)
        progress(.written(bytes: index.count))
        return summary
    }

    /// The regions of the admin1 file at `admin1` and the countries of the country file at
    /// `countries` (either may be nil), and what the SOURCE section says of each file.
    public static func loadRegionsAndCountries(admin1: String?, countries: String?, options: CityListParseOptions = CityListParseOptions()) throws(MMSearchError)
        -> (regions: [Admin1Region], countries: [CountryInfo], skipped: [MMSearchError], admin1File: SourceDescription.InputFile?, countriesFile: SourceDescription.InputFile?) {
        var regions: [Admin1Region] = [], countryRows: [CountryInfo] = [], skipped: [MMSearchError] = []
        var admin1File: SourceDescription.InputFile?, countriesFile: SourceDescription.InputFile?
        if let admin1 {
            let bytes = try readDecompressed(admin1)
            let parsed = try bytes.withRawBytes { (raw) throws(MMSearchError) in try Admin1Parser.parse(raw, file: admin1, options: options) }
            (regions, skipped) = (parsed.regions, parsed.skipped)
            admin1File = SourceDescription.InputFile(name: FilePaths.fileName(of: admin1), size: UInt64(bytes.count), checksum: checksum(bytes))
        }
        if let countries {
            let bytes = try readDecompressed(countries)
            let parsed = try bytes.withRawBytes { (raw) throws(MMSearchError) in try CountryInfoParser.parse(raw, file: countries, options: options) }
            countryRows = parsed.countries
            skipped += parsed.skipped
            countriesFile = SourceDescription.InputFile(name: FilePaths.fileName(of: countries), size: UInt64(bytes.count), checksum: checksum(bytes))
        }
        return (regions, countryRows, skipped, admin1File, countriesFile)
    }

    /// Reads the alternate names file at `path` (streamed: only the names of the records', countries'
    /// and regions' ids are kept) and adds its names: a record's after its own, in file order; a
    /// country's and a region's to the qualifier names returned.
    public static func addAlternateNames(_ path: String, to records: inout [SourceRecord], regions: [Admin1Region], countries: [CountryInfo],
                                         options: CityListParseOptions = CityListParseOptions()) throws(MMSearchError) -> (QualifierNames, AlternateNames) {
        var recordIDs = Set<UInt32>(minimumCapacity: records.count)
        for record in records { recordIDs.insert(record.id) }
        var placeIDs = Set<UInt32>()
        for country in countries { if let id = country.geonameID { placeIDs.insert(id) } }
        for region in regions { if let id = region.geonameID { placeIDs.insert(id) } }
        var names = try AlternateNamesParser.read(path, options: options) { recordIDs.contains($0) || placeIDs.contains($0) }
        for index in records.indices {
            guard let more = names.byID[records[index].id] else { continue }
            records[index].alternateNames += more
            names.recordNameCount += more.count
        }
        var qualifierNames = QualifierNames()
        for country in countries {
            guard let id = country.geonameID, let more = names.byID[id] else { continue }
            qualifierNames.byCountry[country.code, default: []] += more
        }
        for region in regions {
            guard let id = region.geonameID, let more = names.byID[id] else { continue }
            qualifierNames.byRegion[Admin1Key(country: region.country, code: region.code), default: []] += more
        }
        return (qualifierNames, names)
    }

    /// The records of `input` (a city list or a GeoNames dump), with the dump at `geonames` joined by
    /// id: a list record whose id is a row's gets the row's name, ASCII name and alternate names as
    /// alternates, and its population. Also what the SOURCE section says of the inputs.
    /// `needsRegionCodes` (region names asked for) refuses, before parsing, a list without a dump.
    public static func loadRecords(input: String, geonames: String? = nil, needsRegionCodes: Bool = false, options: CityListParseOptions = CityListParseOptions()) throws(MMSearchError) -> (records: [SourceRecord], skipped: [MMSearchError], joinedRecords: Int?, source: SourceDescription) {
        let bytes = try readDecompressed(input)
        let kind = bytes.withUnsafeBytes { InputKind.detect($0) }
        if needsRegionCodes, kind == .cityListJSON, geonames == nil {
            throw .invalidOptions(message: "--admin1 names regions by a GeoNames dump's admin1 codes, and \(input) is a city list without one: add --geonames DUMP, or build from a dump")
        }
        // The dump to join is read and parsed on a second core while the input is parsed; each side's
        // order by id, for the join, is made there too, and the input's checksum while the dump's
        // parse, the longer, goes on.
        let joining = geonames != nil
        var ((parsedInput, inputSkipped, inputOrder, inputChecksum), parsedDump) = try BuildConcurrency.run({ () throws(MMSearchError) -> ([SourceRecord], [MMSearchError], [UInt64], UInt64) in
            let (records, skipped) = try parseRecords(bytes, kind: kind, input: input, joining: joining, options: options)
            return (records, skipped, joining ? JoinByID.idOrder(records.lazy.map(\.id)) : [], checksum(bytes))
        }, beside: { () throws(MMSearchError) -> (rows: ParsedGeoNames, order: [UInt64], file: SourceDescription.InputFile)? in
            guard let geonames else { return nil }
            let dump = try readDecompressed(geonames)
            guard dump.withUnsafeBytes({ InputKind.detect($0) }) == .geoNamesDump else {
                throw .invalidInput(file: geonames, line: 1, column: 1, byteOffset: 0, message: "expected a GeoNames dump (19 tab-separated columns a row) to join, found a JSON array")
            }
            let parsed = try GeoNamesParser.parse(dump, file: geonames, options: options)
            return (parsed, JoinByID.idOrder(parsed.rows.lazy.map(\.id)),
                    SourceDescription.InputFile(name: FilePaths.fileName(of: geonames), size: UInt64(dump.count), checksum: checksum(dump)))
        })
        var records = parsedInput
        var skipped = inputSkipped
        var joinedRecords: Int?
        let joinedFile = parsedDump?.file
        // Taken out of its optional, so that the join changes the one copy of the dump's rows in place.
        if let geonames, var dump = parsedDump.take() {
            skipped += dump.rows.skipped
            joinedRecords = try JoinByID.join(&records, order: inputOrder, rows: &dump.rows.rows, order: dump.order) { (row) throws(MMSearchError) in
                try population(of: row, file: geonames)
            }
        }
        let source = SourceDescription(
            name: FilePaths.fileName(of: input),
            size: UInt64(bytes.count),
            checksum: inputChecksum,
            builtAt: SystemCall.unixTime,
            kind: kind == .cityListJSON ? .cityList : .geoNamesDump,
            joined: joinedFile
        )
        return (records, skipped, joinedRecords, source)
    }

    /// The records of `bytes`, the input file `input` read as `kind`, and the bad ones skipped; refused
    /// when none is valid, and a dump refused when a dump is `joining` it.
    private static func parseRecords(_ bytes: [UInt8], kind: InputKind, input: String, joining: Bool, options: CityListParseOptions) throws(MMSearchError) -> ([SourceRecord], [MMSearchError]) {
        var records: [SourceRecord]
        var skipped: [MMSearchError]
        switch kind {
        case .cityListJSON:
            let parsed = try bytes.withRawBytes { (raw) throws(MMSearchError) in try CityListParser.parse(raw, file: input, options: options) }
            (records, skipped) = (parsed.records, parsed.skipped)
        case .geoNamesDump:
            if joining {
                throw .invalidInput(file: input, line: 1, column: 1, byteOffset: 0, message: "expected OpenWeatherMap's city list (a JSON array) to join the GeoNames dump to, found what is not a JSON array (read as a GeoNames dump)")
            }
            let parsed = try GeoNamesParser.parse(bytes, file: input, options: options)
            skipped = parsed.skipped
            records = try parsed.rows.map { (row) throws(MMSearchError) in
                SourceRecord(id: row.id, name: row.name, country: row.country, latitudeE7: row.latitudeE7, longitudeE7: row.longitudeE7,
                             alternateNames: [row.asciiName] + row.alternateNames, population: try population(of: row, file: input),
                             admin1: Admin1Key(row: row))
            }
        }
        if records.isEmpty, case let .invalidInput(file, line, column, byteOffset, message)? = skipped.first {
            throw .invalidInput(file: file, line: line, column: column, byteOffset: byteOffset,
                                message: "no valid record to index: all \(skipped.count) were skipped; the first: \(message)")
        }
        return (records, skipped)
    }

    /// The bytes of the file at `path`, decompressed when it is gzip.
    private static func readDecompressed(_ path: String) throws(MMSearchError) -> [UInt8] {
        let file = try SystemCall.openForReading(path)
        var bytes = try file.readToEnd()
        try file.close()
        if Gzip.isCompressed(bytes) { bytes = try Gzip.decompress(bytes, file: path) }
        return bytes
    }

    private static func checksum(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { mms_xxh64($0.baseAddress, $0.count, 0) }
    }

    private static func population(of row: GeoNamesRow, file: String) throws(MMSearchError) -> UInt32 {
        guard let population = UInt32(exactly: row.population) else {
            throw .limitExceeded(file: file, message: "row \(row.id) has population \(row.population); the format holds at most \(UInt32.max)")
        }
        return population
    }

    /// The bytes of an index holding `records`, with `source` as its SOURCE section. `file` names the
    /// input in errors; `progress` hears `.sorted` once the keys are in order.
    ///
    /// ```swift
    /// let london = SourceRecord(id: 2643743, name: Array("London".utf8), country: Array("GB".utf8),
    ///                           latitudeE7: 515_085_300, longitudeE7: -1_257_400,
    ///                           alternateNames: [Array("Londres".utf8)], population: 8_961_989)
    /// let source = SourceDescription(name: "memory", size: 0, checksum: 0, builtAt: 0)
    /// let (bytes, _) = try IndexBuilder.makeIndex(records: [london], source: source)
    /// let index = try CityIndex(bytes: Data(bytes))
    /// ```
    public static func makeIndex(records: [SourceRecord], source: SourceDescription, regions: [Admin1Region] = [], countries: [CountryInfo] = [],
                                 qualifierNames: QualifierNames = QualifierNames(), file: String = "<records>", progress: (BuildProgress) -> Void = { _ in }) throws(MMSearchError) -> (bytes: [UInt8], summary: BuildSummary) {
        guard records.count < 1 << 29 else {
            throw .limitExceeded(file: file, message: "\(records.count) records; an index holds at most \((1 << 29) - 1)")
        }
        // RECORD_COUNTRIES holds country codes of two digits or ASCII letters (the parsers accept only
        // digits and capital letters).
        if let record = records.first(where: { !$0.country.isEmpty && ($0.country.count != 2 || !PackedArrays.isCountryCode(($0.country[0], $0.country[1]))) }) {
            throw .limitExceeded(file: file, message: "record \(record.id) has country code \"\(String(decoding: record.country, as: UTF8.self))\"; an index holds none or two of 0-9, A-Z and a-z")
        }
        let primaryOrder = try PrimaryOrder(records: records, file: file)
        let ordered = primaryOrder.order.map { records[Int($0)] }
        let populations = ordered.contains { $0.population != 0 } ? ordered.map(\.population) : []
        // The spatial and near trees read the records' coordinates and populations alone: made on
        // another core while the search keys are.
        let latitudes = ordered.map(\.latitudeE7), longitudes = ordered.map(\.longitudeE7)
        let (madeKeys, (spatial, nearPoints)) = try BuildConcurrency.run({ () throws(MMSearchError) in
            try SearchKeys.Made(orderedRecords: ordered, file: file)
        }, beside: {
            (SpatialBuilder.tree(latitudes: latitudes, longitudes: longitudes),
             NearBuilder.points(latitudes: latitudes, longitudes: longitudes, populations: populations))
        })
        let (points, spatialBounds) = spatial
        // Each record's country key, as COUNTRY_RUNS and COUNTRY_PAGES hold it (0: no two-byte code).
        let countryCodes = ordered.map { $0.country.count == 2 ? CountryKey.of(($0.country[0], $0.country[1])) : 0 }
        // Each record's country code as RECORDS holds it ((0, 0): none), which the trie's labels leave
        // out of its keys' tails.
        let recordCodes = ordered.map { $0.country.count == 2 ? ($0.country[0], $0.country[1]) : (UInt8(0), UInt8(0)) }
        // Region and country texts, which qualifiers compare as they are: a few tens of KB that every
        // page of results reads, together in PLACE_NAMES.
        var placeNames = BytePool()
        // The records' and alternates' names, encoded with tables trained on them ("Encoded names"),
        // read the names alone, and the trie's summaries its shape alone: each a sixth of the build,
        // made on a second core, the names beside the keys' sort and the whole trie, the summaries
        // beside its labels.
        let nameList = ordered.map(\.name) + madeKeys.alternates.map(\.name)
        // A name number's width ("Packed arrays"): ENTRIES' below its word bit, and a first page's at a big node.
        let nameBits = PackedArrays.width(holding: UInt64(nameList.count))
        let ((keys, trie, labels, summaries, places), names) = try BuildConcurrency.run({ () throws(MMSearchError) in
            let keys = SearchKeys(sorting: madeKeys)
            progress(.sorted(records: records.count))
            let trie = try TrieBuilder(keys: keys, recordCountries: recordCodes, file: file)
            let (labels, summaries) = try BuildConcurrency.run({ () throws(MMSearchError) in try trie.labels(pool: keys.pool, file: file) }, beside: {
                SummaryBuilder(trie: trie, keys: keys, primaryOrder: primaryOrder, populations: populations, countries: countryCodes, recordCount: ordered.count,
                               nameBits: nameBits)
            })
            let places = try PlaceTables(orderedRecords: ordered, regions: regions, countries: countries, qualifierNames: qualifierNames, names: &placeNames, file: file)
            return (keys, trie, labels, summaries, places)
        }, beside: { () throws(MMSearchError) in try EncodedNamePool(names: nameList, file: file) })
        guard summaries.top.count < Int(UInt32.max) else {
            throw .limitExceeded(file: file, message: "first pages past 2^32 bits; the format's page starts are 32-bit")
        }
        var recordEntries: [mms_record] = []
        recordEntries.reserveCapacity(ordered.count)
        for (number, record) in ordered.enumerated() {
            recordEntries.append(mms_record(
                id: record.id,
                lat_e7: record.latitudeE7,
                lon_e7: record.longitudeE7,
                name_offset: names.spans[number].offset,
                country: recordCodes[number],
                reserved: (0, 0)
            ))
        }
        var alternates: [mms_alternate] = []
        alternates.reserveCapacity(keys.alternates.count)
        for (number, alternate) in keys.alternates.enumerated() {
            alternates.append(mms_alternate(record: alternate.record, name_offset: names.spans[ordered.count + number].offset))
        }
        // Positions in name order, sorted by (id, position): what `CityIndex.cities(id:)` searches.
        let idOrder = (0 ..< UInt32(recordEntries.count)).sorted {
            (recordEntries[Int($0)].id, $0) < (recordEntries[Int($1)].id, $1)
        }

        // Entries packed at the least width that holds every name number ("Packed arrays"), with no more
        // of the kind than the name number leaves open ("Entries' kinds"): ENTRIES a WORD's bit above the
        // name bits, and the alternates that are PRIMARY after them (TOP's pages: SummaryBuilder).
        let entryBits = Int(MMS_ENTRY_WORD_BITS) + nameBits
        let recordBits = PackedArrays.width(holding: UInt64(recordEntries.count))
        let packedEntries = keys.values.map { value in
            (value >> MMS_ENTRY_KIND_SHIFT == MMS_KIND_WORD.rawValue ? 1 : 0) << UInt32(nameBits) | value & MMS_ENTRY_NAME_MASK
        }
        let primaryAlternates = Set(keys.values.lazy.filter { $0 >> MMS_ENTRY_KIND_SHIFT == MMS_KIND_PRIMARY.rawValue }
            .map { $0 & MMS_ENTRY_NAME_MASK }.filter { $0 >= UInt32(recordEntries.count) }).sorted()

        // A node packed as its label_offset, the greatest stored apart ("Values stored apart").
        let labelsApart = ValuesApart(labels.offsets)

        // An alternate packed as its name offset (its record in ALTERNATE_BLOCKS); populations as POPULATION's rule packs them.
        let nameOffsetBits = PackedArrays.width(holding: UInt64(names.bytes.count))
        let populationsApart = populations.isEmpty ? nil : ValuesApart(populations)
        let populationBits = populationsApart?.width ?? 0
        // A record packed field by field ("Packed arrays"): id (the greatest stored apart), biased
        // coordinates in the greatest unit that holds every one (the list's six decimals: 1e-6 degree),
        // name delta (below), country number.
        let idsApart = ValuesApart(recordEntries.map(\.id))
        let recordIdBits = idsApart.width
        // A record's name as its offset less its block's base, the least of its block's offsets, the
        // greatest few of those stored apart ("Records' names").
        let nameBases = PackedArrays.recordNameBases(recordEntries.map(\.name_offset))
        let namesApart = ValuesApart(recordEntries.indices.map { recordEntries[$0].name_offset - nameBases[$0 / Int(MMS_RECORD_NAME_BLOCK)] })
        var coordinateExponent = 0
        while UInt32(coordinateExponent) < MMS_MAX_COORDINATE_EXPONENT {
            let tenUnits = Int32(PackedArrays.coordinateUnit(exponent: coordinateExponent + 1))
            guard recordEntries.allSatisfy({ $0.lat_e7.isMultiple(of: tenUnits) && $0.lon_e7.isMultiple(of: tenUnits) }) else { break }
            coordinateExponent += 1
        }
        let coordinateUnit = PackedArrays.coordinateUnit(exponent: coordinateExponent)
        // The country codes the records hold, as given and sorted ("Records' countries"); a record's
        // country is 1 + its code's number among them, 0 for none. Each with where the regions of its
        // code upper-cased start in REGIONS (sorted by country): a record's region is its place from there.
        let recordCountries = Set(recordEntries.lazy.map { CountryKey.packed($0.country) }.filter { $0 != 0 }).sorted().map { code in
            let bytes = CountryKey.bytes(code), key = CountryKey.of(bytes)
            return mms_record_country(code: bytes, first_region: UInt16(places.regions.count { CountryKey.packed($0.country) < key }))
        }
        var countryNumberOfCode: [UInt16: UInt32] = [:]
        for (number, country) in recordCountries.enumerated() { countryNumberOfCode[CountryKey.packed(country.code)] = UInt32(number + 1) }
        let recordCountryNumbers = recordEntries.map { $0.country == (0, 0) ? 0 : countryNumberOfCode[CountryKey.packed($0.country)]! }
        let recordWidths = [recordIdBits, PackedArrays.latitudeWidth(unit: coordinateUnit), PackedArrays.longitudeWidth(unit: coordinateUnit),
                            namesApart.width, PackedArrays.width(holding: UInt64(recordCountries.count) + 1)]
        func latitude(_ value: Int32) -> UInt32 { UInt32(Int64(value) + Int64(MMS_LATITUDE_BIAS)) }
        func longitude(_ value: Int32) -> UInt32 { UInt32(Int64(value) + Int64(MMS_LONGITUDE_BIAS)) }
        // A summary packed as its node, its four counts and its first page's start.
        let summaryWidths = [PackedArrays.width(holding: UInt64(trie.nodeCount))] + Array(repeating: PackedArrays.width(holding: UInt64(recordEntries.count) + 1), count: 4)
            + [PackedArrays.width(holding: UInt64(summaries.top.count) + 1)]
        // A record's region as 1 + its place from its country's first region, cyclically; 0 for none. Those in
        // another country's regions (a few) take the greatest values, stored apart ("Records' regions").
        let regionsApart = places.recordRegions.isEmpty ? nil : ValuesApart(recordEntries.indices.map { position in
            let region = places.recordRegions[position]
            guard region != UInt16(MMS_NO_REGION) else { return 0 }
            let country = Int(recordCountryNumbers[position])
            let first = country == 0 ? 0 : Int(recordCountries[country - 1].first_region)
            return UInt32(1 + (Int(region) - first + places.regions.count) % places.regions.count)
        })
        let givenCount = alternates.count - keys.spellingCount
        let alternateBlocks = try AlternateBlocks(records: alternates.map(\.record), file: file)
        let spellingNames = Self.spellingNames(alternates, givenCount: givenCount, records: recordEntries)

        var writer = _SectionWriter()
        writer.place(MMS_SECTION_LABELS, labels.bytes)
        writer.place(MMS_SECTION_NODES, packed: labelsApart.packed, width: labelsApart.width, then: labelsApart.tail)
        writer.place(MMS_SECTION_CHILDREN, trie.childBlocks.withUnsafeBytes { Array($0) } + trie.childBits)
        writer.place(MMS_SECTION_ENTRIES, packed: packedEntries, width: entryBits, then: _SectionWriter.valuesAfter(primaryAlternates))
        writer.place(MMS_SECTION_SUMMARIES, packed: summaries.summaries.count, widths: summaryWidths) { position, field in
            let summary = summaries.summaries[position]
            return [summary.node, summary.record_count, summary.name_record_count, summary.primary_first, summary.primary_count, summary.top_first][field]
        }
        writer.place(MMS_SECTION_TOP, summaries.top.finished + [UInt8](repeating: 0, count: Int(MMS_PACKED_TAIL)))
        writer.place(MMS_SECTION_RECORDS, packed: recordEntries.count, widths: recordWidths, then: idsApart.tail) { position, field in
            let record = recordEntries[position]
            switch field {
            case 0: return idsApart.packed[position]
            case 1: return UInt32(Int64(latitude(record.lat_e7)) / coordinateUnit)
            case 2: return UInt32(Int64(longitude(record.lon_e7)) / coordinateUnit)
            case 3: return namesApart.packed[position]
            default: return recordCountryNumbers[position]
            }
        }
        if let populationsApart {
            writer.place(MMS_SECTION_POPULATION, packed: populationsApart.packed, width: populationsApart.width, then: populationsApart.tail)
        } else {
            writer.place(MMS_SECTION_POPULATION, [UInt8]())
        }
        writer.place(MMS_SECTION_ALTERNATES, packed: givenCount, widths: [nameOffsetBits]) { position, _ in alternates[position].name_offset }
        writer.place(MMS_SECTION_NAMES, names.bytes)
        writer.place(MMS_SECTION_ID_ORDER, packed: idOrder, width: recordBits)
        if let regionsApart {
            writer.place(MMS_SECTION_RECORD_REGIONS, packed: regionsApart.packed, width: regionsApart.width, then: regionsApart.tail)
        } else {
            writer.place(MMS_SECTION_RECORD_REGIONS, [UInt8]())
        }
        writer.place(MMS_SECTION_REGIONS, places.regions)
        writer.place(MMS_SECTION_COUNTRIES, places.countries)
        writer.place(MMS_SECTION_QUALIFIER_NAMES, places.qualifierNames)
        // A spelling: its form, then the place of the name it is made from among its record's ("Spellings").
        writer.place(MMS_SECTION_SPELLINGS, packed: keys.spellingCount, widths: [Int(MMS_SPELLING_FORM_BITS), spellingNames.width], then: spellingNames.tail) { position, field in
            field == 0 ? keys.alternates[givenCount + position].spellingForm! : spellingNames.packed[position]
        }
        writer.place(MMS_SECTION_SOURCE, sourceSection(source))
        // A spatial point: the cell of its coordinates in its node's box, its record number and its axis bit.
        writer.place(MMS_SECTION_SPATIAL, packed: points.count, widths: [Int(MMS_SPATIAL_CELL_BITS), Int(MMS_SPATIAL_CELL_BITS), recordBits, Int(MMS_SPATIAL_AXIS_BITS)]) { position, field in
            let point = points[position]
            switch field {
            case 0: return point.lat_cell
            case 1: return point.lon_cell
            case 2: return point.record_axis & MMS_SPATIAL_RECORD_MASK
            default: return point.record_axis >> 31
            }
        }
        let countryEntries = try CountryEntriesBuilder(entryRecords: keys.records, recordCountries: countryCodes, file: file)
        writer.place(MMS_SECTION_COUNTRY_RUNS, countryEntries.runs)
        writer.place(MMS_SECTION_ENTRY_BLOCKS, countryEntries.blocks)
        writer.place(MMS_SECTION_ENTRY_DELTAS, countryEntries.deltas)
        writer.place(MMS_SECTION_SYMBOLS, names.symbols)
        writer.place(MMS_SECTION_NAME_TABLES, names.tables)
        writer.place(MMS_SECTION_PLACE_NAMES, placeNames.bytes)
        writer.place(MMS_SECTION_COUNTRY_PAGES, summaries.countryPages)
        writer.place(MMS_SECTION_ALTERNATE_BLOCKS, alternateBlocks.blocks)
        writer.place(MMS_SECTION_ALTERNATE_DELTAS, alternateBlocks.deltas)
        // A near point: its record number and its population bound (none without populations: all 0).
        writer.place(MMS_SECTION_NEAR_POINTS, packed: nearPoints.count, widths: [recordBits, PackedArrays.nearBoundWidth(hasPopulation: populationBits > 0)]) { position, field in
            let point = nearPoints[position]
            return [point.record, point.bound][field]
        }
        writer.place(MMS_SECTION_NEAR_LISTS, summaries.nearLists)
        writer.place(MMS_SECTION_SPATIAL_BOUNDS, spatialBounds)
        writer.place(MMS_SECTION_RECORD_COUNTRIES, recordCountries)
        writer.place(MMS_SECTION_RECORD_NAME_BASES, packed: nameBases, width: nameOffsetBits, then: namesApart.tail)
        let bytes = writer.finish(counts: _SectionWriter.Counts(
            records: recordEntries.count, nodes: trie.nodeCount, entries: keys.count,
            alternates: givenCount, summaries: summaries.summaries.count, topBits: summaries.top.count,
            regions: places.regions.count, countries: places.countries.count, qualifierNames: places.qualifierNames.count,
            spellings: keys.spellingCount, flags: places.isQualified ? MMS_FLAG_QUALIFIED : 0,
            countryRuns: countryEntries.runs.count, entryBlocks: countryEntries.blocks.count,
            entryBits: entryBits, recordBits: recordBits, nodeLabelBits: labelsApart.width, childBits: trie.childBitCount,
            primaryAlternates: primaryAlternates.count, populationsApart: populationsApart?.apartCount ?? 0, idsApart: idsApart.apartCount,
            recordNamesApart: namesApart.apartCount, nodeLabelsApart: labelsApart.apartCount, recordRegionsApart: regionsApart?.apartCount ?? 0, spellingsApart: spellingNames.apartCount,
            nameOffsetBits: nameOffsetBits, populationBits: populationBits, recordIdBits: recordIdBits, recordNameBits: namesApart.width, coordinateExponent: coordinateExponent,
            summaryWidths: summaryWidths, regionBits: regionsApart?.width ?? 0, spellingNameBits: spellingNames.width
        ))
        var summary = BuildSummary(
            recordCount: records.count,
            nodeCount: trie.nodeCount,
            entryCount: keys.count,
            alternateCount: givenCount,
            spellingCount: keys.spellingCount,
            fileSize: bytes.count,
            emptyNames: records.count { $0.name.isEmpty },
            emptyCountries: records.count { $0.country.isEmpty }
        )
        summary.regionRecords = places.regionRecords
        summary.countryRecords = places.countryRecords
        summary.regionCount = places.regions.count
        summary.countryCount = places.countries.count
        summary.qualifierNameCount = places.qualifierNames.count
        return (bytes, summary)
    }

    /// SPELLINGS' name places ("Spellings"): for each spelling (the alternates past `givenCount`), the
    /// place of the name it is made from among its record's names, 0 its display name and j its j-th
    /// given alternate (the given ones sorted by record); a name that is none of them takes the
    /// greatest value, so it is stored apart, as are the greatest places, each as its name offset.
    private static func spellingNames(_ alternates: [mms_alternate], givenCount: Int, records: [mms_record]) -> ValuesApart {
        var firstGiven = [Int](repeating: givenCount, count: records.count) // each record's first given alternate
        for position in (0 ..< givenCount).reversed() { firstGiven[Int(alternates[position].record)] = position }
        let spellings = alternates[givenCount...]
        let places = spellings.map { spelling -> UInt32 in
            let record = Int(spelling.record)
            if spelling.name_offset == records[record].name_offset { return 0 }
            var position = firstGiven[record]
            while position < givenCount, alternates[position].record == spelling.record {
                if alternates[position].name_offset == spelling.name_offset { return UInt32(position - firstGiven[record] + 1) }
                position += 1
            }
            return .max
        }
        return ValuesApart(places) { alternates[givenCount + $0].name_offset }
    }

    /// The SOURCE section: the fixed part, then the input's name, then the joined dump's.
    private static func sourceSection(_ source: SourceDescription) -> [UInt8] {
        var section: [UInt8] = []
        withUnsafeBytes(of: mms_source(
            source_size: source.size,
            source_checksum: source.checksum,
            built_at: source.builtAt,
            joined_size: source.joined?.size ?? 0,
            joined_checksum: source.joined?.checksum ?? 0,
            admin1_size: source.admin1?.size ?? 0,
            admin1_checksum: source.admin1?.checksum ?? 0,
            countries_size: source.countries?.size ?? 0,
            countries_checksum: source.countries?.checksum ?? 0,
            name_length: UInt32(source.name.utf8.count),
            joined_name_length: UInt32(source.joined?.name.utf8.count ?? 0),
            admin1_name_length: UInt32(source.admin1?.name.utf8.count ?? 0),
            countries_name_length: UInt32(source.countries?.name.utf8.count ?? 0),
            source_kind: source.kind.rawValue,
            alternates_name_length: UInt32(source.alternateNames?.name.utf8.count ?? 0),
            alternates_size: source.alternateNames?.size ?? 0,
            alternates_checksum: source.alternateNames?.checksum ?? 0,
            alternates_record_names: UInt32(clamping: source.alternateNamesOfRecords),
            alternates_qualifier_names: UInt32(clamping: source.alternateNamesOfPlaces)
        )) { section.append(contentsOf: $0) }
        for name in [source.name, source.joined?.name, source.admin1?.name, source.countries?.name, source.alternateNames?.name] {
            section.append(contentsOf: (name ?? "").utf8)
        }
        return section
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

/// Every record's primary key (fold(display name) + tail), folded once into one pool, and the
/// records' order by (key bytes, name bytes, id): the order of RECORDS.
struct PrimaryOrder {
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

/// Texts stored once each, each followed by MMS_STRING_END: identical texts share their bytes.
struct BytePool {
    private(set) var bytes: [UInt8] = []
    private var offsets: [ByteString: UInt32] = [:]

    init(expectedCount: Int = 0) { offsets.reserveCapacity(expectedCount) }

    mutating func intern(_ string: [UInt8], file: String) throws(MMSearchError) -> UInt32 {
        if let offset = offsets[ByteString(string)] { return offset }
        guard bytes.count + string.count < Int(UInt32.max) else {
            throw .limitExceeded(file: file, message: "string pool past 4 GiB; the format's offsets are 32-bit")
        }
        let offset = UInt32(bytes.count)
        bytes.append(contentsOf: string)
        bytes.append(UInt8(MMS_STRING_END))
        offsets[ByteString(string)] = offset
        return offset
    }
}


/// Bytes as a dictionary key, hashed in one pass (an array of bytes hashes them one by one, which
/// made hashing the largest part of a build).
struct ByteString: Hashable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
