import CMMSearchFormat

/// Where everything lies in one index file: counts and byte offsets taken from its header, each
/// checked at open (O(1)) against the file's real size, so later reads need only compare an index
/// against a count. Plain integers, so it is `Sendable` and free to copy.
struct _IndexLayout: Sendable {
    let fileSize: Int
    let recordCount: Int
    let nodeCount: Int
    let entryCount: Int
    let alternateCount: Int
    let summaryCount: Int
    /// Bits of TOP's pages ("TOP pages").
    let topBits: Int
    /// Bits of a name number: a TOP entry's value at a node of more than MMS_TOP_POSITION_LIMIT entries.
    let nameBits: Int
    let regionCount: Int
    let countryCount: Int
    let qualifierNameCount: Int
    /// Whether the index has populations (its POPULATION section is not empty).
    let hasPopulation: Bool
    /// Whether some record has a region (its RECORD_REGIONS section is not empty).
    let hasRegions: Bool
    /// Whether "Name, Qualifier" queries match (MMS_FLAG_QUALIFIED).
    let isQualified: Bool
    /// The alternates given by the input (ALTERNATES; the alternates past them are the SPELLINGS,
    /// `alternateCount` counts both): without any, names match only by the records' primary keys.
    let givenAlternateCount: Int
    var hasGivenAlternates: Bool { givenAlternateCount > 0 }
    /// The packed arrays: NODES (a node's label_offset), ENTRIES (an entry's word bit and name number),
    /// TOP (a page entry's name number and rank),
    /// ID_ORDER (record numbers), ALTERNATES (an alternate's name_offset), SPELLINGS (a spelling's form
    /// and the place of the name it is made from among its record's),
    /// POPULATION (empty, count 0, when the index has none), RECORDS and SPATIAL (their fields: `record`
    /// and `point`).
    let nodes: _PackedArray
    let nodeLabelMask: UInt64
    /// NODES' greatest label offsets, stored apart after its packed ones ("Values stored apart"), and the
    /// packed values below which a value is an offset inside LABELS: the lesser of their threshold and
    /// LABELS' length.
    let labelsApart: _ValuesApart
    let directLabelLimit: UInt64
    let entries: _PackedArray
    /// A packed entry's name number bits (ENTRIES, all of TOP's): below them in ENTRIES, its word bit.
    let entryNameMask: UInt32
    /// The given alternates that are a record's PRIMARY name, after ENTRIES' packed entries ("Entries'
    /// kinds"), and the greatest of them (0 when there are none): the records without a display name,
    /// whose alternates they are, come first in name order, so nearly every name is above it.
    let primaryAlternates: _TailValues
    let lastPrimaryAlternate: UInt32
    /// TOP's bits, as an array of one-bit values: its pages start at bits, each at its node's width.
    let top: _PackedArray
    let idOrder: _PackedArray
    let alternates: _PackedArray
    let spellings: _PackedArray
    /// SPELLINGS' names stored apart, as name offsets: those of no place below the threshold ("Spellings").
    let spellingNamesApart: _ValuesApart
    let spellingNameMask: UInt64
    let alternateNameMask: UInt64
    let population: _PackedArray
    /// POPULATION's and RECORDS' ids' greatest values, stored apart after their packed values ("Values
    /// stored apart").
    let populationsApart: _ValuesApart
    let records: _PackedArray
    let record: _RecordFields
    let idsApart: _ValuesApart
    /// RECORD_NAME_BASES: the least name offset of each block of MMS_RECORD_NAME_BLOCK records, which a
    /// record's name delta adds to, the greatest deltas stored apart after them ("Records' names").
    let recordNameBases: _PackedArray
    let recordNamesApart: _ValuesApart
    let summaries: _PackedArray
    let summary: _SummaryFields
    let recordRegions: _PackedArray
    /// RECORD_REGIONS' values stored apart: the regions of the few records in another country's
    /// ("Records' regions").
    let regionsApart: _ValuesApart
    let spatial: _PackedArray
    let point: _PointFields
    /// SPATIAL_BOUNDS: the inner nodes' bounds (byte offset), numbered below 2^`spatialBoundDepth`.
    let spatialBounds: Int
    let spatialBoundDepth: Int
    /// NEAR_POINTS: the tree over name order and place (its points' fields: SPATIAL's cells, then the
    /// record number and the population bound); NEAR_LISTS: the big nodes' other matches (count, byte offset).
    let nearPoints: _PackedArray
    let nearPoint: _NearPointFields
    let nearListCount: Int
    let nearLists: Int
    /// Byte offsets of the fixed-size arrays.
    let children: Int
    /// CHILDREN's bits, after its blocks: a packed array of child_bits one-bit values (each block's
    /// further child counts and its entry deltas), which every block's are checked to lie within.
    let childBits: _PackedArray
    let regions: Int
    let countries: Int
    /// RECORD_COUNTRIES: the country codes the records hold (count, byte offset); a record's country
    /// field numbers them from 1.
    let recordCountryCount: Int
    let recordCountries: Int
    let qualifierNames: Int
    /// COUNTRY_RUNS and ENTRY_BLOCKS (their counts), and ENTRY_DELTAS' bytes: each country's entries.
    let countryRunCount: Int
    let countryRuns: Int
    let entryBlockCount: Int
    let entryBlocks: Int
    let entryDeltas: Range<Int>
    /// ALTERNATE_BLOCKS (byte offset; alternateBlockCount of them, the last one's delta_bit where the
    /// deltas end) and ALTERNATE_DELTAS' bits before its tail: each alternate's record.
    let alternateBlocks: Int
    let alternateBlockCount: Int
    let alternateDeltaStart: Int
    let alternateDeltaBits: Int
    /// SYMBOLS: the symbol tables NAMES is encoded with (its count and byte offset); NAME_TABLES: which
    /// run of NAMES each encodes (its count and byte offset).
    let symbolCount: Int
    let symbols: Int
    let nameTableCount: Int
    let nameTables: Int
    /// COUNTRY_PAGES: a country's count and first page at a big node (its count, from its length, and
    /// byte offset).
    let countryPageCount: Int
    let countryPages: Int
    /// Byte ranges of the pools: NAMES holds the records' and alternates' names encoded, PLACE_NAMES
    /// the regions' and countries' texts as they are.
    let labels: Range<Int>
    let names: Range<Int>
    let placeNames: Range<Int>
    let source: Range<Int>

    static let headerSize = MemoryLayout<mms_header>.size
    static let childBlockSize = MemoryLayout<mms_child_block>.stride
    /// CHILDREN's blocks: one for every MMS_CHILD_BLOCK_NODES nodes, and the one after them.
    static func childBlockCount(nodeCount: Int) -> Int {
        (nodeCount + Int(MMS_CHILD_BLOCK_NODES) - 1) / Int(MMS_CHILD_BLOCK_NODES) + 1
    }
    static let regionSize = MemoryLayout<mms_region>.stride
    static let countrySize = MemoryLayout<mms_country>.stride
    static let qualifierNameSize = MemoryLayout<mms_qualifier_name>.stride
    static let countryRunSize = MemoryLayout<mms_country_run>.stride
    static let entryBlockSize = MemoryLayout<mms_entry_block>.stride
    static let alternateBlockSize = MemoryLayout<mms_alternate_block>.stride
    static let symbolSize = MemoryLayout<mms_symbol>.stride
    static let nameTableSize = MemoryLayout<mms_name_table>.stride
    static let countryPageSize = MemoryLayout<mms_country_page>.stride
    static let nearListSize = MemoryLayout<mms_near_list>.stride
    static let spatialBoundsSize = Int(MMS_SPATIAL_BOUNDS_SIZE)
    static let recordCountrySize = Int(MMS_RECORD_COUNTRY_SIZE)
    static let sectionTableOffset = MemoryLayout<mms_header>.offset(of: \.sections)!
    static let checksumOffset = MemoryLayout<mms_header>.offset(of: \.checksum)!
    static let checksumSize = MemoryLayout<UInt64>.size
    /// The sections in file order, with the names that errors and `CityIndex.info()` give them.
    static let sectionNames: [(kind: mms_section_kind, name: String)] = [
        (MMS_SECTION_LABELS, "labels"), (MMS_SECTION_NODES, "nodes"), (MMS_SECTION_CHILDREN, "children"), (MMS_SECTION_ENTRIES, "entries"),
        (MMS_SECTION_SUMMARIES, "summaries"), (MMS_SECTION_TOP, "top pages"),
        (MMS_SECTION_RECORDS, "records"),
        (MMS_SECTION_POPULATION, "population"), (MMS_SECTION_ALTERNATES, "alternates"), (MMS_SECTION_NAMES, "names"),
        (MMS_SECTION_ID_ORDER, "id order"), (MMS_SECTION_RECORD_REGIONS, "record regions"), (MMS_SECTION_REGIONS, "regions"),
        (MMS_SECTION_COUNTRIES, "countries"), (MMS_SECTION_QUALIFIER_NAMES, "qualifier names"), (MMS_SECTION_SPELLINGS, "spellings"),
        (MMS_SECTION_SOURCE, "source"), (MMS_SECTION_SPATIAL, "spatial"), (MMS_SECTION_COUNTRY_RUNS, "country runs"),
        (MMS_SECTION_ENTRY_BLOCKS, "entry blocks"), (MMS_SECTION_ENTRY_DELTAS, "entry deltas"),
        (MMS_SECTION_SYMBOLS, "symbols"), (MMS_SECTION_NAME_TABLES, "name tables"), (MMS_SECTION_PLACE_NAMES, "place names"),
        (MMS_SECTION_COUNTRY_PAGES, "country pages"), (MMS_SECTION_ALTERNATE_BLOCKS, "alternate blocks"),
        (MMS_SECTION_ALTERNATE_DELTAS, "alternate deltas"), (MMS_SECTION_NEAR_POINTS, "near points"), (MMS_SECTION_NEAR_LISTS, "near lists"),
        (MMS_SECTION_SPATIAL_BOUNDS, "spatial bounds"), (MMS_SECTION_RECORD_COUNTRIES, "record countries"),
        (MMS_SECTION_RECORD_NAME_BASES, "record name bases"),
    ]

    /// The sections that answer by place (`IndexInfo.spatialPartBytes` adds the near lists' part of TOP
    /// to theirs).
    static let spatialPart = [MMS_SECTION_SPATIAL, MMS_SECTION_SPATIAL_BOUNDS, MMS_SECTION_NEAR_POINTS, MMS_SECTION_NEAR_LISTS]

    /// The name errors and `info` give section `kind`.
    static func name(of kind: mms_section_kind) -> String { sectionNames.first { $0.kind == kind }!.name }

    /// Where section `kind`'s entry of the header's section table lies.
    static func tableEntryOffset(of kind: mms_section_kind) -> Int { sectionTableOffset + Int(kind.rawValue) * MemoryLayout<mms_section>.stride }

    /// Reads and checks the header of `raw`, the whole mapped file.
    init(_ raw: UnsafeRawBufferPointer, path: String) throws(MMSearchError) {
        func corrupt(_ offset: Int?, _ message: String) -> MMSearchError {
            .invalidIndex(file: path, byteOffset: offset, message: message)
        }
        guard raw.count >= 8 else {
            throw corrupt(nil, "not an mmsearch index: the file is \(raw.count) bytes, smaller than an index header (\(Self.headerSize) bytes)")
        }
        guard raw.loadUnaligned(as: UInt64.self) == MMS_MAGIC else {
            throw corrupt(nil, "not an mmsearch index: the file does not start with the bytes \"MMSEARCH\"")
        }
        // Byte order and version sit at the same offsets in every version: name another version even
        // when its file is shorter than this version's header.
        if raw.count >= 16 {
            let byteOrder = raw.loadUnaligned(fromByteOffset: MemoryLayout<mms_header>.offset(of: \.byte_order)!, as: UInt32.self)
            let version = raw.loadUnaligned(fromByteOffset: MemoryLayout<mms_header>.offset(of: \.version)!, as: UInt32.self)
            if byteOrder == MMS_BYTE_ORDER_MARK, version != MMS_FORMAT_VERSION {
                throw .unsupportedVersion(file: path, found: version, supported: MMS_FORMAT_VERSION)
            }
        }
        guard raw.count >= Self.headerSize else {
            throw corrupt(nil, "truncated index: \(raw.count) bytes, smaller than an index header (\(Self.headerSize) bytes)")
        }
        let header = raw.loadUnaligned(as: mms_header.self)
        let at = { (field: PartialKeyPath<mms_header>) in MemoryLayout<mms_header>.offset(of: field)! }
        if header.byte_order == MMS_BYTE_ORDER_SWAPPED {
            throw corrupt(at(\.byte_order), "the index was written in the other byte order (big-endian); this mmsearch reads little-endian indexes of version \(MMS_FORMAT_VERSION)")
        }
        guard header.byte_order == MMS_BYTE_ORDER_MARK else {
            throw corrupt(at(\.byte_order), "bad byte-order mark 0x\(String(header.byte_order, radix: 16))")
        }
        guard header.version == MMS_FORMAT_VERSION else {
            throw .unsupportedVersion(file: path, found: header.version, supported: MMS_FORMAT_VERSION)
        }
        guard header.header_size == Self.headerSize, header.section_count == MMS_SECTION_COUNT.rawValue else {
            throw corrupt(at(\.header_size), "header size \(header.header_size) with \(header.section_count) sections, expected \(Self.headerSize) with \(MMS_SECTION_COUNT.rawValue)")
        }
        guard header.file_size == UInt64(raw.count) else {
            let what = header.file_size > UInt64(raw.count) ? "truncated index" : "index with trailing bytes"
            throw corrupt(at(\.file_size), "\(what): the header says \(header.file_size) bytes, the file has \(raw.count)")
        }
        guard header.node_count >= 1, header.node_count < UInt32.max else {
            throw corrupt(at(\.node_count), "node count \(header.node_count), expected at least 1 (the root)")
        }
        guard UInt64(header.record_count) + UInt64(header.alternate_count) + UInt64(header.spelling_count) <= UInt64(MMS_MAX_NAME_NUMBER) + 1 else {
            throw corrupt(at(\.alternate_count), "\(header.record_count) records, \(header.alternate_count) alternate names and \(header.spelling_count) spellings; name numbers hold at most \(UInt64(MMS_MAX_NAME_NUMBER) + 1)")
        }
        guard header.record_count < 1 << 29 else {
            throw corrupt(at(\.record_count), "record count \(header.record_count); an index holds fewer than \(1 << 29) records")
        }
        fileSize = raw.count
        recordCount = Int(header.record_count)
        nodeCount = Int(header.node_count)
        entryCount = Int(header.entry_count)
        alternateCount = Int(header.alternate_count) + Int(header.spelling_count)
        summaryCount = Int(header.summary_count)
        topBits = Int(header.top_bits)
        guard header.region_count < MMS_NO_REGION else {
            throw corrupt(at(\.region_count), "region count \(header.region_count); region numbers are below \(MMS_NO_REGION)")
        }
        regionCount = Int(header.region_count)
        countryCount = Int(header.country_count)
        guard header.flags & ~MMS_FLAG_QUALIFIED == 0 else {
            throw corrupt(at(\.flags), "header flags 0x\(String(header.flags, radix: 16)); the only flag is 0x\(String(MMS_FLAG_QUALIFIED, radix: 16))")
        }
        isQualified = header.flags & MMS_FLAG_QUALIFIED != 0
        givenAlternateCount = Int(header.alternate_count)
        // The least widths that hold every name number and record number ("Packed arrays").
        let nameCount = UInt64(header.record_count) + UInt64(header.alternate_count) + UInt64(header.spelling_count)
        let entryBits = PackedArrays.entryWidth(names: nameCount)
        nameBits = PackedArrays.width(holding: nameCount)
        let recordBits = PackedArrays.width(holding: UInt64(header.record_count))
        guard Int(header.entry_bits) == entryBits, Int(header.record_bits) == recordBits else {
            throw corrupt(at(\.entry_bits), "packed widths \(header.entry_bits) bits an entry and \(header.record_bits) a record number, expected \(entryBits) and \(recordBits) for \(nameCount) names and \(header.record_count) records")
        }
        qualifierNameCount = Int(header.qualifier_name_count)
        // Sections lie back to back in kind order, each at the next aligned offset after the one
        // before, and the file ends with the last: a damaged offset or length cannot shift an array
        // onto other bytes unnoticed.
        var expectedOffset = UInt64(Self.headerSize)
        /// A section's byte range, checked: where the canonical layout puts it, and (for arrays)
        /// exactly as long as its element count says.
        func section(_ kind: mms_section_kind, elementSize: Int? = nil, count: Int = 0) throws(MMSearchError) -> Range<Int> {
            let (name, entryOffset) = (Self.name(of: kind), Self.tableEntryOffset(of: kind))
            let entry = raw.loadUnaligned(fromByteOffset: entryOffset, as: mms_section.self)
            guard entry.offset == expectedOffset, entry.length <= UInt64(raw.count) - min(entry.offset, UInt64(raw.count)) else {
                throw corrupt(entryOffset, "the \(name) section (offset \(entry.offset), \(entry.length) bytes) is not where it belongs: at offset \(expectedOffset) and inside the \(raw.count)-byte file")
            }
            if let elementSize, entry.length != UInt64(elementSize) * UInt64(count) {
                throw corrupt(entryOffset, "the \(name) section is \(entry.length) bytes, expected \(count) entries of \(elementSize) bytes")
            }
            let alignment = UInt64(MMS_SECTION_ALIGNMENT)
            expectedOffset = (entry.offset + entry.length + alignment - 1) / alignment * alignment
            return Int(entry.offset) ..< Int(entry.offset + entry.length)
        }
        /// A packed array's section, checked to be exactly as long as its count and width say.
        func packed(_ kind: mms_section_kind, count: Int, width: Int) throws(MMSearchError) -> _PackedArray {
            try packed(kind, try section(kind), count: count, width: width)
        }
        /// The same for a section already placed (whose width depends on a later section).
        func packed(_ kind: mms_section_kind, _ range: Range<Int>, count: Int, width: Int) throws(MMSearchError) -> _PackedArray {
            guard range.count == PackedArrays.byteCount(count: count, width: width) else {
                throw corrupt(Self.tableEntryOffset(of: kind),
                              "the \(Self.name(of: kind)) section is \(range.count) bytes, expected \(PackedArrays.byteCount(count: count, width: width)) for \(count) values of \(width) bits")
            }
            return _PackedArray(start: range.lowerBound, count: count, width: width)
        }
        /// The uint32_t values after the packed array of `count` values of `width` bits that starts
        /// section `kind` (`range`): E of them, E the header's `values` (its field at byte `field`), at
        /// most `limit`; the section's length is exactly the packed array's and 4 x E. From the header
        /// alone: open reads none of the section's bytes. `what` names them.
        func valuesAfter(_ kind: mms_section_kind, _ range: Range<Int>, count: Int, width: Int, values: UInt32, field: Int, limit: Int,
                         _ what: String) throws(MMSearchError) -> _TailValues {
            let packedBytes = PackedArrays.byteCount(count: count, width: width), valueSize = MemoryLayout<UInt32>.size
            guard Int(values) <= limit else {
                throw corrupt(field, "\(values) \(what) after the \(Self.name(of: kind)) section's values; at most \(limit)")
            }
            guard range.count == packedBytes + valueSize * Int(values) else {
                throw corrupt(Self.tableEntryOffset(of: kind),
                              "the \(Self.name(of: kind)) section is \(range.count) bytes, expected \(packedBytes + valueSize * Int(values)): \(packedBytes) for \(count) values of \(width) bits, then the header's \(values) \(what), 4 bytes each")
            }
            return _TailValues(start: range.lowerBound + packedBytes, count: Int(values))
        }
        /// The values stored apart at the end of section `kind` (`range`), after a packed array of
        /// `count` values of `bytesWidth` bits whose field of `width` bits may number them ("Values stored
        /// apart"): at most 2^width.
        func valuesApart(_ kind: mms_section_kind, _ range: Range<Int>, count: Int, bytesWidth: Int, width: Int, apart: UInt32, field: Int) throws(MMSearchError) -> _ValuesApart {
            let apart = try valuesAfter(kind, range, count: count, width: bytesWidth, values: apart, field: field, limit: 1 << width, "values stored apart")
            return _ValuesApart(start: apart.start, count: apart.count, threshold: PackedArrays.apartThreshold(width: width, apart: apart.count))
        }
        labels = try section(MMS_SECTION_LABELS)
        // A node's label offset at most at the width that holds every one, the greatest stored apart
        // after them (verify checks that the width makes NODES smallest).
        let nodeLabelBits = Int(header.node_label_bits)
        guard (1 ... PackedArrays.width(holding: UInt64(labels.count))).contains(nodeLabelBits) else {
            throw corrupt(at(\.node_label_bits), "packed node width \(header.node_label_bits) bits, expected 1 to \(PackedArrays.width(holding: UInt64(labels.count))) for \(labels.count) bytes of labels")
        }
        nodeLabelMask = (1 << UInt64(nodeLabelBits)) - 1
        let nodesSection = try section(MMS_SECTION_NODES)
        labelsApart = try valuesApart(MMS_SECTION_NODES, nodesSection, count: nodeCount, bytesWidth: nodeLabelBits, width: nodeLabelBits,
                                      apart: header.node_label_apart_count, field: at(\.node_label_apart_count))
        directLabelLimit = min(labelsApart.threshold, UInt64(labels.count))
        nodes = _PackedArray(start: nodesSection.lowerBound, count: nodeCount, width: nodeLabelBits)
        // CHILDREN: the blocks and the one after them, and their bits with the packed arrays' zero tail.
        guard header.reserved_zero == 0 else {
            throw corrupt(at(\.reserved_zero), "reserved field \(header.reserved_zero), expected 0")
        }
        let childrenSection = try section(MMS_SECTION_CHILDREN)
        let blockBytes = Self.childBlockCount(nodeCount: nodeCount) * Self.childBlockSize
        let bitBytes = PackedArrays.byteCount(count: Int(header.child_bits), width: 1)
        guard childrenSection.count == blockBytes + bitBytes else {
            throw corrupt(Self.tableEntryOffset(of: MMS_SECTION_CHILDREN),
                          "the children section is \(childrenSection.count) bytes, expected \(blockBytes + bitBytes): \(blockBytes) of child blocks, \(header.child_bits) bits of child counts and entry deltas with their \(MMS_PACKED_TAIL)-byte tail")
        }
        children = childrenSection.lowerBound
        childBits = _PackedArray(start: children + blockBytes, count: Int(header.child_bits), width: 1)
        // ENTRIES: the packed entries, then the alternates that are PRIMARY (one a record at most).
        let entriesSection = try section(MMS_SECTION_ENTRIES)
        primaryAlternates = try valuesAfter(MMS_SECTION_ENTRIES, entriesSection, count: entryCount, width: entryBits, values: header.primary_alternate_count,
                                            field: at(\.primary_alternate_count), limit: recordCount, "alternates that are PRIMARY")
        lastPrimaryAlternate = primaryAlternates.count == 0 ? 0
            : raw.loadUnaligned(fromByteOffset: primaryAlternates.start + (primaryAlternates.count - 1) * MemoryLayout<UInt32>.size, as: UInt32.self)
        entries = _PackedArray(start: entriesSection.lowerBound, count: entryCount, width: entryBits)
        entryNameMask = UInt32((UInt64(1) << UInt64(nameBits)) - 1)
        // A summary's widths: the least that hold a node number, a count of records (up to all of them)
        // and a first page's starting bit (up to top_bits).
        summary = _SummaryFields(nodeBits: PackedArrays.width(holding: UInt64(nodeCount)), countBits: PackedArrays.width(holding: UInt64(recordCount) + 1),
                                 topBits: PackedArrays.width(holding: UInt64(topBits) + 1))
        guard Int(header.summary_node_bits) == summary.nodeBits, Int(header.summary_count_bits) == summary.countBits, Int(header.summary_top_bits) == summary.topBits else {
            throw corrupt(at(\.summary_node_bits), "summary widths \(header.summary_node_bits), \(header.summary_count_bits) and \(header.summary_top_bits) bits, expected \(summary.nodeBits), \(summary.countBits) and \(summary.topBits) for \(nodeCount) nodes, \(recordCount) records and \(topBits) bits of first pages")
        }
        summaries = try packed(MMS_SECTION_SUMMARIES, count: summaryCount, width: summary.width)
        // TOP: pages of entries at their nodes' widths, top_bits in all ("TOP pages").
        top = try packed(MMS_SECTION_TOP, count: topBits, width: 1)
        // A record's widths: its id's from the header (verify checks that it is the least), its
        // coordinates' from the header's unit (verify checks that it is the greatest the coordinates
        // allow), its name offset's from NAMES' length, which is known further down.
        guard (1 ... MMS_PACKED_MAX_WIDTH).contains(UInt32(header.record_id_bits)) else {
            throw corrupt(at(\.record_id_bits), "record id width \(header.record_id_bits) bits, expected 1 to \(MMS_PACKED_MAX_WIDTH)")
        }
        guard UInt32(header.coordinate_exponent) <= MMS_MAX_COORDINATE_EXPONENT else {
            throw corrupt(at(\.coordinate_exponent), "coordinate exponent \(header.coordinate_exponent), expected at most \(MMS_MAX_COORDINATE_EXPONENT) (a unit of 10^\(header.coordinate_exponent) x 1e-7 degree)")
        }
        let recordsSection = try section(MMS_SECTION_RECORDS)
        // POPULATION: empty (population_bits 0), or a population a record at population_bits, then the
        // populations stored apart.
        let populationSection = try section(MMS_SECTION_POPULATION)
        guard header.population_bits <= MMS_PACKED_MAX_WIDTH, (header.population_bits == 0) == populationSection.isEmpty else {
            throw corrupt(at(\.population_bits), "population width \(header.population_bits) bits with a \(populationSection.count)-byte population section; expected at most \(MMS_PACKED_MAX_WIDTH), and 0 exactly when the section is empty")
        }
        guard !populationSection.isEmpty || header.population_apart_count == 0 else {
            throw corrupt(at(\.population_apart_count), "\(header.population_apart_count) populations stored apart, but the population section is empty; expected 0")
        }
        hasPopulation = !populationSection.isEmpty
        population = _PackedArray(start: populationSection.lowerBound, count: hasPopulation ? recordCount : 0, width: Int(header.population_bits))
        populationsApart = hasPopulation ? try valuesApart(MMS_SECTION_POPULATION, populationSection, count: recordCount, bytesWidth: population.width, width: population.width,
                                                           apart: header.population_apart_count, field: at(\.population_apart_count))
            : _ValuesApart(start: populationSection.lowerBound, count: 0, threshold: .max)
        // An alternate's widths: the least that hold every record number and every name offset; NAMES
        // follows ALTERNATES, so the section is measured once NAMES' length is known.
        let alternatesSection = try section(MMS_SECTION_ALTERNATES)
        names = try section(MMS_SECTION_NAMES)
        let nameOffsetBits = PackedArrays.width(holding: UInt64(names.count))
        guard Int(header.name_offset_bits) == nameOffsetBits else {
            throw corrupt(at(\.name_offset_bits), "packed name offset width \(header.name_offset_bits) bits, expected \(nameOffsetBits) for \(names.count) bytes of names")
        }
        alternateNameMask = (1 << UInt64(nameOffsetBits)) - 1
        alternates = try packed(MMS_SECTION_ALTERNATES, alternatesSection, count: givenAlternateCount, width: nameOffsetBits)
        // RECORD_COUNTRIES' length gives the codes a record's country numbers: read from the section table
        // here, where a record's width needs it, and its place checked with the others' at the end.
        let recordCountriesLength = raw.loadUnaligned(fromByteOffset: Self.tableEntryOffset(of: MMS_SECTION_RECORD_COUNTRIES), as: mms_section.self).length
        guard recordCountriesLength % UInt64(Self.recordCountrySize) == 0, recordCountriesLength / UInt64(Self.recordCountrySize) <= UInt64(MMS_MAX_RECORD_COUNTRIES) else {
            throw corrupt(Self.tableEntryOffset(of: MMS_SECTION_RECORD_COUNTRIES), "the record countries section is \(recordCountriesLength) bytes, expected a multiple of \(Self.recordCountrySize), at most \(MMS_MAX_RECORD_COUNTRIES) codes")
        }
        recordCountryCount = Int(recordCountriesLength) / Self.recordCountrySize
        // A record's name delta: its width from the header, 1 to 32 (verify checks that it is the least).
        guard (1 ... MMS_PACKED_MAX_WIDTH).contains(UInt32(header.record_name_bits)) else {
            throw corrupt(at(\.record_name_bits), "record name delta width \(header.record_name_bits) bits, expected 1 to \(MMS_PACKED_MAX_WIDTH)")
        }
        record = _RecordFields(idBits: Int(header.record_id_bits), coordinateExponent: Int(header.coordinate_exponent), nameDeltaBits: Int(header.record_name_bits),
                               countryBits: PackedArrays.width(holding: UInt64(recordCountryCount) + 1))
        // RECORDS: the packed records, then the ids stored apart.
        idsApart = try valuesApart(MMS_SECTION_RECORDS, recordsSection, count: recordCount, bytesWidth: record.width, width: Int(header.record_id_bits),
                                 apart: header.record_id_apart_count, field: at(\.record_id_apart_count))
        records = _PackedArray(start: recordsSection.lowerBound, count: recordCount, width: record.width)
        idOrder = try packed(MMS_SECTION_ID_ORDER, count: recordCount, width: recordBits)
        // RECORD_REGIONS: empty (region_bits 0, none apart), or a record's region value at a width of 1 to
        // 32, the greatest stored apart after them ("Records' regions"; verify checks that the width makes
        // the section smallest).
        let recordRegionsSection = try section(MMS_SECTION_RECORD_REGIONS)
        hasRegions = !recordRegionsSection.isEmpty
        let regionBits = Int(header.region_bits)
        guard hasRegions ? (1 ... Int(MMS_PACKED_MAX_WIDTH)).contains(regionBits) : regionBits == 0 && header.record_region_apart_count == 0 else {
            throw corrupt(at(\.region_bits), "region width \(header.region_bits) bits and \(header.record_region_apart_count) values apart, expected "
                          + (hasRegions ? "1 to \(MMS_PACKED_MAX_WIDTH) bits" : "0 and 0 for an empty record regions section"))
        }
        if hasRegions {
            regionsApart = try valuesApart(MMS_SECTION_RECORD_REGIONS, recordRegionsSection, count: recordCount, bytesWidth: regionBits, width: regionBits,
                                           apart: header.record_region_apart_count, field: at(\.record_region_apart_count))
            recordRegions = _PackedArray(start: recordRegionsSection.lowerBound, count: recordCount, width: regionBits)
        } else {
            regionsApart = _ValuesApart(start: recordRegionsSection.lowerBound, count: 0, threshold: .max)
            recordRegions = _PackedArray(start: recordRegionsSection.lowerBound, count: 0, width: 0)
        }
        regions = try section(MMS_SECTION_REGIONS, elementSize: Self.regionSize, count: regionCount).lowerBound
        countries = try section(MMS_SECTION_COUNTRIES, elementSize: Self.countrySize, count: countryCount).lowerBound
        qualifierNames = try section(MMS_SECTION_QUALIFIER_NAMES, elementSize: Self.qualifierNameSize, count: qualifierNameCount).lowerBound
        // A spelling: its form, then the place of the name it is made from among its record's, the
        // names of no place below the threshold stored apart as offsets after them ("Spellings").
        let spellingNameBits = Int(header.spelling_name_bits)
        guard (1 ... Int(MMS_PACKED_MAX_WIDTH)).contains(spellingNameBits), header.reserved == (0, 0, 0) else {
            throw corrupt(at(\.spelling_name_bits), "spelling name width \(header.spelling_name_bits) bits and reserved bytes \(header.reserved), expected 1 to \(MMS_PACKED_MAX_WIDTH) and zeros")
        }
        let spellingsSection = try section(MMS_SECTION_SPELLINGS)
        let spellingBits = Int(MMS_SPELLING_FORM_BITS) + spellingNameBits
        spellingNamesApart = try valuesApart(MMS_SECTION_SPELLINGS, spellingsSection, count: Int(header.spelling_count), bytesWidth: spellingBits, width: spellingNameBits,
                                             apart: header.spelling_apart_count, field: at(\.spelling_apart_count))
        spellings = _PackedArray(start: spellingsSection.lowerBound, count: Int(header.spelling_count), width: spellingBits)
        spellingNameMask = (1 << UInt64(spellingNameBits)) - 1
        source = try section(MMS_SECTION_SOURCE)
        point = _PointFields(recordBits: recordBits)
        spatial = try packed(MMS_SECTION_SPATIAL, count: recordCount, width: point.width)
        countryRunCount = Int(header.country_run_count)
        countryRuns = try section(MMS_SECTION_COUNTRY_RUNS, elementSize: Self.countryRunSize, count: countryRunCount).lowerBound
        entryBlockCount = Int(header.entry_block_count)
        entryBlocks = try section(MMS_SECTION_ENTRY_BLOCKS, elementSize: Self.entryBlockSize, count: entryBlockCount).lowerBound
        entryDeltas = try section(MMS_SECTION_ENTRY_DELTAS)
        // SYMBOLS, NAME_TABLES and COUNTRY_PAGES: arrays whose lengths give their counts.
        /// Section `kind`'s element count and byte offset: its length a multiple of `elementSize`, and
        /// at most `limit` elements.
        func sizedArray(_ kind: mms_section_kind, elementSize: Int, limit: Int = .max) throws(MMSearchError) -> (count: Int, start: Int) {
            let range = try section(kind)
            guard range.count % elementSize == 0, range.count / elementSize <= limit else {
                throw corrupt(Self.tableEntryOffset(of: kind),
                              "the \(Self.name(of: kind)) section is \(range.count) bytes, expected a multiple of \(elementSize)" + (limit == .max ? "" : ", at most \(limit) of them"))
            }
            return (range.count / elementSize, range.lowerBound)
        }
        (symbolCount, symbols) = try sizedArray(MMS_SECTION_SYMBOLS, elementSize: Self.symbolSize)
        (nameTableCount, nameTables) = try sizedArray(MMS_SECTION_NAME_TABLES, elementSize: Self.nameTableSize, limit: Int(MMS_MAX_NAME_TABLES))
        placeNames = try section(MMS_SECTION_PLACE_NAMES)
        (countryPageCount, countryPages) = try sizedArray(MMS_SECTION_COUNTRY_PAGES, elementSize: Self.countryPageSize)
        // ALTERNATE_BLOCKS: a block for each MMS_ALTERNATE_BLOCK_SIZE alternates and one after them;
        // ALTERNATE_DELTAS: the deltas, then the zero tail.
        let blockSize = Int(MMS_ALTERNATE_BLOCK_SIZE)
        alternateBlockCount = (alternateCount + blockSize - 1) / blockSize + 1
        alternateBlocks = try section(MMS_SECTION_ALTERNATE_BLOCKS, elementSize: Self.alternateBlockSize, count: alternateBlockCount).lowerBound
        let alternateDeltas = try section(MMS_SECTION_ALTERNATE_DELTAS)
        guard alternateDeltas.count >= Int(MMS_PACKED_TAIL) else {
            throw corrupt(Self.tableEntryOffset(of: MMS_SECTION_ALTERNATE_DELTAS), "alternate deltas section of \(alternateDeltas.count) bytes, expected at least its \(MMS_PACKED_TAIL) zero tail bytes")
        }
        alternateDeltaBits = (alternateDeltas.count - Int(MMS_PACKED_TAIL)) * 8
        alternateDeltaStart = alternateDeltas.lowerBound
        nearPoint = _NearPointFields(recordBits: recordBits, hasPopulation: hasPopulation)
        nearPoints = try packed(MMS_SECTION_NEAR_POINTS, count: recordCount, width: nearPoint.width)
        (nearListCount, nearLists) = try sizedArray(MMS_SECTION_NEAR_LISTS, elementSize: Self.nearListSize)
        spatialBoundDepth = PackedArrays.spatialBoundDepth(records: recordCount)
        let boundCount = (1 << spatialBoundDepth) - 1
        spatialBounds = try section(MMS_SECTION_SPATIAL_BOUNDS, elementSize: Self.spatialBoundsSize, count: boundCount).lowerBound
        recordCountries = try section(MMS_SECTION_RECORD_COUNTRIES, elementSize: Self.recordCountrySize, count: recordCountryCount).lowerBound
        // RECORD_NAME_BASES: a block's base at a name offset's width, then the name deltas stored apart.
        let nameBasesSection = try section(MMS_SECTION_RECORD_NAME_BASES)
        let nameBlockCount = (recordCount + Int(MMS_RECORD_NAME_BLOCK) - 1) / Int(MMS_RECORD_NAME_BLOCK)
        recordNamesApart = try valuesApart(MMS_SECTION_RECORD_NAME_BASES, nameBasesSection, count: nameBlockCount, bytesWidth: nameOffsetBits, width: Int(header.record_name_bits),
                                         apart: header.record_name_apart_count, field: at(\.record_name_apart_count))
        recordNameBases = _PackedArray(start: nameBasesSection.lowerBound, count: nameBlockCount, width: nameOffsetBits)
        let fileEnd = nameBasesSection.upperBound
        guard fileEnd == raw.count else {
            throw corrupt(at(\.file_size), "the sections end at byte \(fileEnd), the file at \(raw.count)")
        }
    }
}

/// uint32_t values after a section's packed array, their count last (the values stored apart;
/// ENTRIES' alternates that are PRIMARY, "Entries' kinds" in the format header): `count` of them from
/// byte `start`.
struct _TailValues: Sendable {
    let start: Int
    let count: Int
}

/// The greatest values of a packed field, stored apart after its packed array as uint32_t ("Values
/// stored apart" in the format header): `count` (E) of them from byte `start`; a packed value at or
/// above `threshold` (T = 2^width - E) is the number (value - T) of one of them, so below E.
struct _ValuesApart: Sendable {
    let start: Int
    let count: Int
    let threshold: UInt64
}

/// A packed array of the file ("Packed arrays" in the format header): `count` values of `width` bits
/// from byte `start`, value i at bits i * width ..< (i + 1) * width, least significant bit first, then
/// MMS_PACKED_TAIL zero bytes, so that 8 bytes load at the byte of any value's first bit. Checked at
/// open to lie inside the file; `_IndexBytes.value(_:of:)` reads a value of one field, `entryFirst(ofNode:)`
/// and `labelStart(ofNode:)` a node's two. A field is at most 32 bits, so one 8-byte load at the byte of
/// its first bit holds it.
struct _PackedArray: Sendable {
    let start: Int
    let count: Int
    let width: Int
    let mask: UInt64

    init(start: Int, count: Int, width: Int) {
        self.start = start
        self.count = count
        self.width = width
        mask = width >= 64 ? .max : (UInt64(1) << UInt64(width)) - 1
    }

    /// The byte of value `position`'s first bit: where an error about it points.
    func byteOffset(_ position: Int) -> Int { start + position * width / 8 }

    /// The byte range of the values' bits and the tail after them.
    var bytes: Range<Int> { start ..< start + PackedArrays.byteCount(count: count, width: width) }
}

/// Where each field of a packed record lies in its value (bits from the value's first), and its mask
/// ("Packed arrays" in the format header: id, latitude, longitude, name delta, country); the unit its
/// coordinates are stored in (10^coordinate_exponent, in 1e-7 degree).
struct _RecordFields: Sendable {
    let latitude: Int, longitude: Int, nameDelta: Int, country: Int
    let idMask: UInt64, latitudeMask: UInt64, longitudeMask: UInt64, nameDeltaMask: UInt64, countryMask: UInt64
    let coordinateUnit: Int64
    let width: Int

    init(idBits: Int, coordinateExponent: Int, nameDeltaBits: Int, countryBits: Int) {
        coordinateUnit = PackedArrays.coordinateUnit(exponent: coordinateExponent)
        let latitudeBits = PackedArrays.latitudeWidth(unit: coordinateUnit), longitudeBits = PackedArrays.longitudeWidth(unit: coordinateUnit)
        latitude = idBits
        longitude = latitude + latitudeBits
        nameDelta = longitude + longitudeBits
        country = nameDelta + nameDeltaBits
        width = country + countryBits
        idMask = (1 << UInt64(idBits)) - 1
        latitudeMask = (1 << UInt64(latitudeBits)) - 1
        longitudeMask = (1 << UInt64(longitudeBits)) - 1
        nameDeltaMask = (1 << UInt64(nameDeltaBits)) - 1
        countryMask = (1 << UInt64(countryBits)) - 1
    }
}

/// Where each field of a packed summary lies in its value: node, record_count, name_record_count,
/// primary_first, primary_count, top_first.
struct _SummaryFields: Sendable {
    let nodeBits: Int, countBits: Int, topBits: Int
    let nodeMask: UInt64, countMask: UInt64, topMask: UInt64
    let width: Int

    init(nodeBits: Int, countBits: Int, topBits: Int) {
        self.nodeBits = nodeBits
        self.countBits = countBits
        self.topBits = topBits
        nodeMask = (1 << UInt64(nodeBits)) - 1
        countMask = (1 << UInt64(countBits)) - 1
        topMask = (1 << UInt64(topBits)) - 1
        width = nodeBits + 4 * countBits + topBits
    }

    /// Where count field `number` (0 record_count ... 3 primary_count) starts, and top_first.
    func count(_ number: Int) -> Int { nodeBits + number * countBits }
    var top: Int { nodeBits + 4 * countBits }
}

/// Where each field of a packed spatial point lies in its value: latitude cell, longitude cell,
/// record number, axis bit.
struct _PointFields: Sendable {
    let record: Int, axis: Int, recordMask: UInt64
    let width: Int
    /// The cells' fields: the latitude's first, then the longitude's, MMS_SPATIAL_CELL_BITS each.
    static let longitude = Int(MMS_SPATIAL_CELL_BITS)
    static let cellMask: UInt64 = (1 << UInt64(MMS_SPATIAL_CELL_BITS)) - 1

    init(recordBits: Int) {
        record = 2 * Int(MMS_SPATIAL_CELL_BITS)
        axis = record + recordBits
        width = axis + Int(MMS_SPATIAL_AXIS_BITS)
        recordMask = (1 << UInt64(recordBits)) - 1
    }
}

/// Where each field of a packed near point lies in its value: record number, population bound (none,
/// 0 bits, in an index without populations, where every bound is 0).
struct _NearPointFields: Sendable {
    let record: Int, bound: Int, recordMask: UInt64, boundMask: UInt64
    let width: Int

    init(recordBits: Int, hasPopulation: Bool) {
        let boundBits = PackedArrays.nearBoundWidth(hasPopulation: hasPopulation)
        record = 0
        bound = record + recordBits
        width = bound + boundBits
        recordMask = (1 << UInt64(recordBits)) - 1
        boundMask = (1 << UInt64(boundBits)) - 1
    }
}

/// The widths and lengths of packed arrays ("Packed arrays" in the format header), for the reader's
/// checks and the builder's writing alike.
package enum PackedArrays {
    /// D of "Bounds" ("The spatial index"): the number of depths k >= 0 at which floor(records / 2^k)
    /// exceeds MMS_SPATIAL_LEAF_SIZE (every inner node of SPATIAL's tree is numbered below 2^that), at
    /// most MMS_SPATIAL_BOUND_DEPTH. SPATIAL_BOUNDS holds 2^D - 1 bounds.
    package static func spatialBoundDepth(records: Int) -> Int {
        var depth = 0, largest = records
        while largest > Int(MMS_SPATIAL_LEAF_SIZE), depth < Int(MMS_SPATIAL_BOUND_DEPTH) {
            depth += 1
            largest /= 2
        }
        return depth
    }

    /// The least width (at least 1) that holds every number below `count`.
    package static func width(holding count: UInt64) -> Int { max(1, UInt64.bitWidth - (count - min(count, 1)).leadingZeroBitCount) }

    /// A field's width w and its number E of values stored apart ("Values stored apart" in the format
    /// header; POPULATION's populations, RECORDS' ids): for each w, the fewest E such that every value
    /// but the E greatest is below 2^w - E; of those, the w of the fewest bits (w x count + 32 x E), the
    /// least on a tie.
    package static func widthApart(_ values: [UInt32]) -> (width: Int, apart: Int) {
        let descending = values.sorted(by: >)
        var best = (bits: Int.max, width: 32, apart: 0)
        for width in 1 ... 32 {
            let limit = UInt64(1) << UInt64(width)
            var apart = 0
            while apart < descending.count, UInt64(apart) < limit, UInt64(descending[apart]) >= limit - UInt64(apart) { apart += 1 }
            guard apart == descending.count || UInt64(descending[apart]) < limit - UInt64(apart) else { continue }
            let bits = values.count * width + 32 * apart
            if bits < best.bits { best = (bits, width, apart) }
        }
        return (best.width, best.apart)
    }

    /// RECORD_NAME_BASES' bases ("Records' names" in the format header): for each block of
    /// MMS_RECORD_NAME_BLOCK records, the least of their name offsets.
    package static func recordNameBases(_ offsets: [UInt32]) -> [UInt32] {
        stride(from: 0, to: offsets.count, by: Int(MMS_RECORD_NAME_BLOCK)).map { offsets[$0 ..< min($0 + Int(MMS_RECORD_NAME_BLOCK), offsets.count)].min()! }
    }

    /// The threshold T = 2^width - apart: a packed value below it is the value, one at or above it the
    /// number (value - T) of a value stored apart ("Values stored apart").
    package static func apartThreshold(width: Int, apart: Int) -> UInt64 { (UInt64(1) << UInt64(width)) - UInt64(apart) }

    /// A NEAR_POINTS population bound's width: MMS_NEAR_BOUND_BITS, or 0 in an index without
    /// populations (every population 0, so every bound the code 0).
    package static func nearBoundWidth(hasPopulation: Bool) -> Int { hasPopulation ? Int(MMS_NEAR_BOUND_BITS) : 0 }

    /// An ENTRIES value's width when names are numbered below `nameCount`: its word bit and the name
    /// number's width.
    package static func entryWidth(names nameCount: UInt64) -> Int { Int(MMS_ENTRY_WORD_BITS) + width(holding: nameCount) }

    /// Whether a page of TOP at a node of `entryCount` entries holds their positions among them, not name
    /// numbers ("TOP pages" in the format header): a first page when they are at most
    /// MMS_TOP_POSITION_LIMIT, a near list when a position is narrower than a name number.
    @inline(__always)
    package static func topHoldsPositions(entryCount: Int, nameBits: Int, nearList: Bool) -> Bool {
        entryCount <= Int(MMS_TOP_POSITION_LIMIT) || (nearList && width(holding: UInt64(entryCount)) < nameBits)
    }

    /// A TOP entry's value width at a node of `entryCount` entries: a position's among them, or a name
    /// number's, `nameBits` (`topHoldsPositions`).
    @inline(__always)
    package static func topValueWidth(entryCount: Int, nameBits: Int, nearList: Bool) -> Int {
        topHoldsPositions(entryCount: entryCount, nameBits: nameBits, nearList: nearList) ? width(holding: UInt64(entryCount)) : nameBits
    }

    /// RECORDS' coordinate unit, in 1e-7 degree: 10^`exponent` (at most MMS_MAX_COORDINATE_EXPONENT).
    package static func coordinateUnit(exponent: Int) -> Int64 { (0 ..< exponent).reduce(1) { unit, _ in unit * 10 } }
    /// The widths of a record's latitude and longitude in `unit`s: those of the greatest biased values.
    package static func latitudeWidth(unit: Int64) -> Int { width(holding: UInt64(2 * Int64(MMS_LATITUDE_BIAS) / unit) + 1) }
    package static func longitudeWidth(unit: Int64) -> Int { width(holding: UInt64(2 * Int64(MMS_LONGITUDE_BIAS) / unit) + 1) }

    /// Whether `code` is a country code a record may have: two digits or ASCII letters ("Records'
    /// countries").
    package static func isCountryCode(_ code: (UInt8, UInt8)) -> Bool {
        func isDigitOrLetter(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 || (byte | 0x20) &- UInt8(ascii: "a") < 26 }
        return isDigitOrLetter(code.0) && isDigitOrLetter(code.1)
    }

    /// A section's length for `count` values of `width` bits: the values' bits in whole bytes, then the tail.
    package static func byteCount(count: Int, width: Int) -> Int { (count * width + 7) / 8 + Int(MMS_PACKED_TAIL) }
}
