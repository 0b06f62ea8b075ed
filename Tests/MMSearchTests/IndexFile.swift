import CMMSearchFormat
import MMSearch

/// The tests' one view of the on-disk layout. Everything layout-dependent that the damaged-index tests
/// need comes from here: section places from the header's own section table, element sizes from the C
/// structs, and the fields inside an element found by probing the struct (one byte at a time through
/// `Mirror`), never from byte offsets written in a test. When the format's structs change,
/// `IndexFormat.arrays` and `IndexFormat.meaning` below need an edit (and FormatLayoutTests' list of
/// C constants); fields are named by strings, so a field that goes away is simply not met.
enum IndexFormat {
    /// One field of a fixed-size element: its C name (a tuple element as "counts.3"), where it lies in
    /// the element, and its width in bytes.
    struct Field: Sendable, Hashable, CustomStringConvertible {
        let name: String
        let offset: Int
        let width: Int
        var description: String { name }
    }

    /// The layout of one element of an array section.
    struct Element: Sendable {
        let type: String
        let stride: Int
        let fields: [Field]

        func field(_ name: String) -> Field? { fields.first { $0.name == name } }
    }


    /// The sections that are arrays of fixed-size elements, and their elements. (LABELS, NAMES,
    /// SOURCE, ENTRY_DELTAS, PLACE_NAMES and ALTERNATE_DELTAS are not arrays; NODES, ENTRIES, SUMMARIES, TOP, RECORDS,
    /// POPULATION, ALTERNATES, ID_ORDER, RECORD_REGIONS, SPELLINGS, SPATIAL and RECORD_NAME_BASES are packed:
    /// `packedArrays`.)
    static let arrays: [(kind: mms_section_kind, element: Element)] = [
        (MMS_SECTION_CHILDREN, probe(mms_child_block.self)),
        (MMS_SECTION_REGIONS, probe(mms_region.self)),
        (MMS_SECTION_COUNTRIES, probe(mms_country.self)),
        (MMS_SECTION_QUALIFIER_NAMES, probe(mms_qualifier_name.self)),
        (MMS_SECTION_COUNTRY_RUNS, probe(mms_country_run.self)),
        (MMS_SECTION_COUNTRY_PAGES, probe(mms_country_page.self)),
        (MMS_SECTION_ENTRY_BLOCKS, probe(mms_entry_block.self)),
        (MMS_SECTION_SYMBOLS, probe(mms_symbol.self)),
        (MMS_SECTION_ALTERNATE_BLOCKS, probe(mms_alternate_block.self)),
        (MMS_SECTION_SPATIAL_BOUNDS, probe(mms_spatial_bounds.self)),
        (MMS_SECTION_RECORD_COUNTRIES, probe(mms_record_country.self)),
    ]

    static func element(of kind: mms_section_kind) -> Element? { arrays.first { $0.kind == kind }?.element }

    /// The packed arrays ("Packed arrays" in the format header), each with its fields (by name, with the
    /// header field that gives the field's width, or the width itself when the format fixes it; a
    /// value's fields follow one another from its first bit) and the header field that gives its count.
    static let packedArrays: [(kind: mms_section_kind, fields: [(name: String, width: String)], count: String)] = [
        (MMS_SECTION_NODES, [("label_offset", "node_label_bits")], "node_count"),
        (MMS_SECTION_ENTRIES, [("value", "entry_bits")], "entry_count"), (MMS_SECTION_TOP, [("bit", "1")], "top_bits"),
        (MMS_SECTION_ID_ORDER, [("value", "record_bits")], "record_count"),
        (MMS_SECTION_POPULATION, [("value", "population_bits")], "record_count"),
        (MMS_SECTION_ALTERNATES, alternateFields, "alternate_count"), (MMS_SECTION_SPELLINGS, spellingFields, "spelling_count"),
        (MMS_SECTION_RECORDS, [("id", "record_id_bits"), latitudeField, longitudeField, ("name_delta", "record_name_bits"),
                               countryField], "record_count"),
        (MMS_SECTION_RECORD_NAME_BASES, [("value", "name_offset_bits")], recordNameBlocks),
        (MMS_SECTION_SPATIAL, [("lat_cell", "\(MMS_SPATIAL_CELL_BITS)"), ("lon_cell", "\(MMS_SPATIAL_CELL_BITS)"), ("record", "record_bits"),
                               ("axis", "\(MMS_SPATIAL_AXIS_BITS)")], "record_count"),
        (MMS_SECTION_SUMMARIES, [("node", "summary_node_bits"), ("record_count", "summary_count_bits"), ("name_record_count", "summary_count_bits"),
                                 ("primary_first", "summary_count_bits"), ("primary_count", "summary_count_bits"), ("top_first", "summary_top_bits")], "summary_count"),
        (MMS_SECTION_RECORD_REGIONS, [("value", "region_bits")], "record_count"),
    ]
    /// RECORD_NAME_BASES' count: a base for each MMS_RECORD_NAME_BLOCK records ("Records' names").
    static let recordNameBlocks = "record_count / MMS_RECORD_NAME_BLOCK, rounded up"
    /// A record's coordinates (biased, in the header's unit: `IndexFile.coordinate`), at the widths of
    /// their greatest values in that unit (`IndexFile.width`).
    static let latitudeField = ("lat_e7", "latitude in coordinate units"), longitudeField = ("lon_e7", "longitude in coordinate units")
    /// A record's country: 0 for none, else 1 + its code's number in RECORD_COUNTRIES (`IndexFile.width`).
    static let countryField = ("country", "country number")
    /// An alternate's field (mms_alternate's name_offset; its record is in ALTERNATE_BLOCKS).
    static let alternateFields = [("name_offset", "name_offset_bits")]
    /// A spelling's fields: its form (mms_spelling_form), then the place of the name it is made from
    /// among its record's, or the number of its name offset stored apart ("Spellings").
    static let spellingFields = [("form", "\(MMS_SPELLING_FORM_BITS)"), ("place", "spelling_name_bits")]

    static func packed(_ kind: mms_section_kind) -> (kind: mms_section_kind, fields: [(name: String, width: String)], count: String)? {
        packedArrays.first { $0.kind == kind }
    }

    /// Nodes per child block, for the children lists (`MMS_CHILD_BLOCK_NODES`).
    static let childBlockNodes = Int(MMS_CHILD_BLOCK_NODES)

    /// What a field holds, as far as the damaged-index tests care.
    struct Meaning {
        /// The least value that points outside what the field indexes: a reader must refuse any value
        /// from here on before it reads through it.
        var firstInvalid: (IndexFile) -> Int
        /// The node (or record, ...) element `e` stands for, when that is not `e` (a child block
        /// stands for its first node): values at or below it make children lists cyclic or backwards.
        var selfIndex: (Int) -> Int = { $0 }
    }

    /// The fields that hold an index or offset into another section (by section and C field name), with
    /// the first value out of bounds. Names of fields the current layout lacks are simply never met.
    static func meaning(_ kind: mms_section_kind, _ field: String) -> Meaning? {
        switch (kind, field) {
        // A label offset past LABELS; with offsets stored apart, every packed value is an offset below the
        // threshold or the number of one stored apart, so none is out of bounds.
        case (MMS_SECTION_NODES, "label_offset"):
            return Meaning { $0.valuesApart(MMS_SECTION_NODES).isEmpty ? $0.section(MMS_SECTION_LABELS).count : 1 << $0.packedWidth(MMS_SECTION_NODES) }
        case (MMS_SECTION_ID_ORDER, "value"): return Meaning { $0.recordCount }
        case (MMS_SECTION_CHILDREN, "first"): return Meaning(firstInvalid: { $0.nodeCount + 1 }, selfIndex: { $0 * childBlockNodes })
        // A block's bits past those CHILDREN holds after its blocks. (Its head holds its deltas' width
        // beside a flag, so no one bound: IndexMutationTests.childDeltaWidthsOutOfBounds.)
        case (MMS_SECTION_CHILDREN, "bits_first"): return Meaning { $0.childBits + 1 }
        case (MMS_SECTION_SUMMARIES, "node"): return Meaning { $0.nodeCount }
        // A first page's start past TOP's bits (TOP is its bits: `packedArrays`).
        case (MMS_SECTION_SUMMARIES, "top_first"): return Meaning { $0.count(of: MMS_SECTION_TOP) + 1 }
        case (MMS_SECTION_SUMMARIES, "primary_first"): return Meaning { $0.recordCount + 1 }
        // A block's base past NAMES (every delta is at least 0); a record's country number past the codes.
        case (MMS_SECTION_RECORD_NAME_BASES, "value"): return Meaning { $0.section(MMS_SECTION_NAMES).count + 1 }
        case (MMS_SECTION_RECORDS, "country"): return Meaning { $0.recordCountryCodes.count + 1 }
        // Where a record country's regions start, past the regions' end (which is where they start when
        // every region's country is less).
        case (MMS_SECTION_RECORD_COUNTRIES, "first_region"): return Meaning { $0.count(of: MMS_SECTION_REGIONS) + 1 }
        case (MMS_SECTION_SPATIAL, "record"): return Meaning { $0.recordCount }
        // An alternate block's least record past the records (each of its alternates' is at least that),
        // its deltas past ALTERNATE_DELTAS' stream.
        case (MMS_SECTION_ALTERNATE_BLOCKS, "least_record"): return Meaning { $0.recordCount }
        case (MMS_SECTION_ALTERNATE_BLOCKS, "delta_bit"): return Meaning { $0.alternateDeltaStream.count * 8 + 1 }
        // (A spelling's place has no one bound: its record's given alternates; spellingNamesOutOfBounds.)
        case (MMS_SECTION_ALTERNATES, "name_offset"): return Meaning { $0.section(MMS_SECTION_NAMES).count }
        case (MMS_SECTION_SPELLINGS, "form"): return Meaning { _ in Int(MMS_SPELLING_FORM_COUNT.rawValue) }
        case (MMS_SECTION_QUALIFIER_NAMES, "folded_offset"), (MMS_SECTION_QUALIFIER_NAMES, "folded_length"): return Meaning { $0.section(MMS_SECTION_PLACE_NAMES).count + 1 }
        // A symbol's length past MMS_SYMBOL_MAX_LENGTH (0 is refused too, but it points nowhere).
        case (MMS_SECTION_SYMBOLS, "length"): return Meaning { _ in Int(MMS_SYMBOL_MAX_LENGTH) + 1 }
        // A run's blocks past ENTRY_BLOCKS (a run has at least one), a block's first position past ENTRIES,
        case (MMS_SECTION_COUNTRY_RUNS, "block_first"): return Meaning { $0.count(of: MMS_SECTION_ENTRY_BLOCKS) }
        case (MMS_SECTION_ENTRY_BLOCKS, "first"): return Meaning { $0.count(of: MMS_SECTION_ENTRIES) }
        // A block's step codes starting in the stream's tail (all zeros: more than 32 of them) or past it.
        case (MMS_SECTION_ENTRY_BLOCKS, "delta_bit"): return Meaning { $0.entryStepStream.count * 8 }
        // A country page's node past NODES, its first page past TOP's end (its entries at least a bit of
        // value and a rank each: "TOP pages").
        case (MMS_SECTION_COUNTRY_PAGES, "node"): return Meaning { $0.nodeCount }
        case (MMS_SECTION_COUNTRY_PAGES, "top_first"): return Meaning { $0.count(of: MMS_SECTION_TOP) - Int(MMS_TOP_COUNT) * (1 + Int(MMS_TOP_RANK_BITS)) + 1 }
        // SPATIAL: a point's lat_e7 and lon_e7 are structure, not content: verify checks them against the
        // record's.
        case (MMS_SECTION_REGIONS, "name_offset"), (MMS_SECTION_REGIONS, "folded_offset"), (MMS_SECTION_REGIONS, "code_offset"),
             (MMS_SECTION_REGIONS, "name_length"), (MMS_SECTION_REGIONS, "folded_length"), (MMS_SECTION_REGIONS, "code_length"),
             (MMS_SECTION_COUNTRIES, "name_offset"), (MMS_SECTION_COUNTRIES, "folded_offset"),
             (MMS_SECTION_COUNTRIES, "name_length"), (MMS_SECTION_COUNTRIES, "folded_length"):
            return Meaning { $0.section(MMS_SECTION_PLACE_NAMES).count + 1 }
        default: return nil
        }
    }

    /// Fields whose value is content, not structure: another value in range makes another index that
    /// `verify` cannot tell from the real one (an id, a population, which city an alternate name
    /// belongs to), so damage there may change answers and pass verify.
    static func isContent(_ kind: mms_section_kind, _ field: String) -> Bool {
        switch (kind, field) {
        // Where a city is: what distance order and the spatial index's boxes follow; another place in range
        // is another index that verify cannot tell from the real one.
        case (MMS_SECTION_RECORDS, "lat_e7"), (MMS_SECTION_RECORDS, "lon_e7"): return true
        case (MMS_SECTION_RECORDS, "id"), (MMS_SECTION_POPULATION, "value"), (MMS_SECTION_ALTERNATE_BLOCKS, "least_record"): return true
        // Another country's or region's other name, or another folded text of the pool (verify sees
        // only that it is folded and in order).
        case (MMS_SECTION_QUALIFIER_NAMES, "owner"), (MMS_SECTION_QUALIFIER_NAMES, "folded_offset"), (MMS_SECTION_QUALIFIER_NAMES, "folded_length"): return true
        // Which region a record is in (MMS_NO_REGION too), and a country's ISO3 code.
        case (MMS_SECTION_RECORD_REGIONS, "value"), (MMS_SECTION_COUNTRIES, "iso3.0"), (MMS_SECTION_COUNTRIES, "iso3.1"), (MMS_SECTION_COUNTRIES, "iso3.2"): return true
        // A record country's code in another case ("us" for "US"): the records' key tails fold it, and
        // filters compare it upper-cased, so only the code a city shows changes.
        case (MMS_SECTION_RECORD_COUNTRIES, "code.0"), (MMS_SECTION_RECORD_COUNTRIES, "code.1"): return true
        default: return false
        }
    }

    /// Header fields whose every value opens (content, as `isContent`): MMS_FLAG_QUALIFIED is what
    /// the records' regions and countries say, which only `verify` reads them all to check.
    static func isContentHeaderField(_ field: Field) -> Bool {
        switch field.name {
        case "flags": return true
        default: return false
        }
    }

    /// The fields of a C struct, found by setting one byte at a time in a zeroed value and seeing which
    /// leaf of its `Mirror` changes.
    static func probe<T: BitwiseCopyable>(_ type: T.Type) -> Element {
        let size = MemoryLayout<T>.size
        func leaves(_ mirror: Mirror, _ path: String) -> [(String, UInt64)] {
            mirror.children.enumerated().flatMap { position, child -> [(String, UInt64)] in
                var label = child.label ?? String(position)
                if label.hasPrefix(".") { label.removeFirst() }
                let name = path.isEmpty ? label : path + "." + label
                let inner = Mirror(reflecting: child.value)
                if !inner.children.isEmpty { return leaves(inner, name) }
                let value = (child.value as? any BinaryInteger).map { UInt64(truncatingIfNeeded: $0) } ?? 0
                return [(name, value)]
            }
        }
        var bytesOf: [String: [Int]] = [:]
        var order: [String] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: MemoryLayout<T>.alignment)
        defer { buffer.deallocate() }
        for byte in 0 ..< size {
            for index in 0 ..< size { buffer[index] = 0 }
            buffer[byte] = 0xFF
            let value = buffer.load(as: T.self)
            for (name, bits) in leaves(Mirror(reflecting: value), "") where bits != 0 {
                if bytesOf[name] == nil { order.append(name) }
                bytesOf[name, default: []].append(byte)
            }
        }
        let fields = order.map { name in
            let bytes = bytesOf[name]!
            precondition(bytes == Array(bytes.first! ... bytes.last!), "\(T.self).\(name) is not contiguous")
            return Field(name: name, offset: bytes.first!, width: bytes.count)
        }
        return Element(type: String(describing: T.self), stride: MemoryLayout<T>.stride, fields: fields)
    }

    /// The header's fields, probed the same way (the section table's entries as "sections.3.offset").
    static let header = probe(mms_header.self)
    static let headerSize = MemoryLayout<mms_header>.size
    static let checksumField = MemoryLayout<mms_header>.offset(of: \.checksum)!
    static let sectionTable = MemoryLayout<mms_header>.offset(of: \.sections)!
    static let sectionCount = Int(MMS_SECTION_COUNT.rawValue)
    /// The kinds that hold data, in file order.
    static let dataSections = (0 ..< sectionCount).map { mms_section_kind(UInt32($0)) }
}

/// An index file's bytes, with its header's view of where everything lies.
struct IndexFile {
    var bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The byte range of a section, as the header's section table gives it.
    func section(_ kind: mms_section_kind) -> Range<Int> {
        let entry = IndexFormat.sectionTable + Int(kind.rawValue) * MemoryLayout<mms_section>.stride
        let offset = Int(load(at: entry + MemoryLayout<mms_section>.offset(of: \.offset)!, width: 8))
        let length = Int(load(at: entry + MemoryLayout<mms_section>.offset(of: \.length)!, width: 8))
        return offset ..< offset + length
    }

    /// Elements in an array section, values in a packed one (from the header's count; none in an empty
    /// POPULATION).
    func count(of kind: mms_section_kind) -> Int {
        if let packed = IndexFormat.packed(kind) {
            guard !section(kind).isEmpty else { return 0 }
            let block = Int(MMS_RECORD_NAME_BLOCK)
            return packed.count == IndexFormat.recordNameBlocks ? (recordCount + block - 1) / block : headerValue(packed.count)
        }
        // CHILDREN: a block for every 32 nodes and the one after them, then their bits.
        if kind == MMS_SECTION_CHILDREN { return (nodeCount + IndexFormat.childBlockNodes - 1) / IndexFormat.childBlockNodes + 1 }
        return section(kind).count / (IndexFormat.element(of: kind)?.stride ?? 1)
    }

    /// The bits CHILDREN holds after its blocks: their further counts and entry deltas (the header's child_bits).
    var childBits: Int { headerValue("child_bits") }

    /// Where CHILDREN's bits start: after its blocks.
    var childBitsStart: Int { section(MMS_SECTION_CHILDREN).lowerBound + count(of: MMS_SECTION_CHILDREN) * MemoryLayout<mms_child_block>.stride }

    /// Child block `number` as read field by field and bit by bit: its first child and where its bits
    /// start, its delta width, whether its counts are bytes, its 32 nodes' child counts (by its mask,
    /// its first 16 in the block and the rest among its bits; or its bytes), where each count is (a
    /// byte offset, a bit from it and a width: each count less one, or each byte), and where its
    /// deltas start among CHILDREN's bits (`number` below the last).
    func childBlock(_ number: Int) -> (first: Int, bitsFirst: Int, width: Int, inBytes: Bool, counts: [Int],
                                      places: [(slot: Int, start: Int, bit: Int, width: Int)], deltas: Int) {
        let block = section(MMS_SECTION_CHILDREN).lowerBound + number * MemoryLayout<mms_child_block>.stride
        let first = Int(load(at: block, width: 4)), bitsFirst = Int(load(at: block + 4, width: 4))
        let mask = load(at: block + MemoryLayout<mms_child_block>.offset(of: \.mask)!, width: 4)
        let head = Int(load(at: block + MemoryLayout<mms_child_block>.offset(of: \.head)!, width: 1))
        let held = block + MemoryLayout<mms_child_block>.offset(of: \.counts)!, countBits = Int(MMS_CHILD_COUNT_BITS)
        let inBytes = head & Int(MMS_CHILD_BYTE_COUNTS) != 0
        var bit = bitsFirst, counts: [Int] = [], places: [(slot: Int, start: Int, bit: Int, width: Int)] = []
        for slot in 0 ..< IndexFormat.childBlockNodes {
            if inBytes {
                places.append((slot, childBitsStart, bit, 8))
                bit += 8
            } else if mask >> UInt64(slot) & 1 == 1 {
                let place = places.count
                places.append(place < Int(MMS_CHILD_BLOCK_COUNTS) ? (slot, held, countBits * place, countBits) : (slot, childBitsStart, bit, countBits))
                if place >= Int(MMS_CHILD_BLOCK_COUNTS) { bit += countBits }
            }
            let at = places.last.flatMap { $0.slot == slot ? $0 : nil }
            counts.append(at.map { Int(loadBits(from: $0.start, bit: $0.bit, width: $0.width)) + (inBytes ? 0 : 1) } ?? 0)
        }
        return (first, bitsFirst, head & Int(MMS_CHILD_WIDTH_MASK), inBytes, counts, places, bit)
    }

    /// The values stored apart after packed array `kind`'s values and their tail (POPULATION's big
    /// populations, RECORDS' big ids, RECORD_NAME_BASES' records' big name deltas, NODES' greatest label
    /// offsets, RECORD_REGIONS' greatest values, SPELLINGS' names as offsets: "Values stored apart"
    /// in the format header), 4 bytes each, to the section's end; their count is a header field
    /// (`apartCountField`).
    func valuesApart(_ kind: mms_section_kind) -> Range<Int> {
        let section = section(kind)
        guard !section.isEmpty else { return section }
        // The packed values end where value `count` would start.
        let packedEnd = section.lowerBound + (packedBits(kind, count(of: kind), field: nil).first + 7) / 8 + Int(MMS_PACKED_TAIL)
        return packedEnd ..< section.upperBound
    }

    /// The header field that counts the values after `kind`'s packed array.
    static func apartCountField(_ kind: mms_section_kind) -> String {
        switch kind {
        case MMS_SECTION_ENTRIES: return "primary_alternate_count"
        case MMS_SECTION_POPULATION: return "population_apart_count"
        case MMS_SECTION_RECORDS: return "record_id_apart_count"
        case MMS_SECTION_NODES: return "node_label_apart_count"
        case MMS_SECTION_RECORD_REGIONS: return "record_region_apart_count"
        case MMS_SECTION_SPELLINGS: return "spelling_apart_count"
        default: return "record_name_apart_count"
        }
    }

    /// The threshold of `kind`'s values apart, 2^width - (their count), the width its first field's (a
    /// spelling's place's): a packed value at or above it numbers one of them.
    func apartThreshold(_ kind: mms_section_kind) -> UInt64 {
        (UInt64(1) << UInt64(packedWidth(kind, field: kind == MMS_SECTION_SPELLINGS ? "place" : nil))) - UInt64(valuesApart(kind).count / 4)
    }

    /// Record `record`'s value of `kind`'s first field as "Values stored apart" defines it: its packed
    /// value when below the threshold, else the one of the values apart it numbers.
    func valueApart(_ kind: mms_section_kind, ofRecord record: Int) -> UInt64 {
        let value = packedValue(kind, record, field: IndexFormat.packed(kind)!.fields[0].name), threshold = apartThreshold(kind)
        guard value >= threshold else { return value }
        return load(at: valuesApart(kind).lowerBound + Int(value - threshold) * 4, width: 4)
    }

    /// Record `record`'s population; 0 in an index without populations.
    func population(ofRecord record: Int) -> UInt64 {
        count(of: MMS_SECTION_POPULATION) > 0 ? valueApart(MMS_SECTION_POPULATION, ofRecord: record) : 0
    }

    /// Node `node`'s label offset in LABELS.
    func labelOffset(ofNode node: Int) -> Int { Int(valueApart(MMS_SECTION_NODES, ofRecord: node)) }

    /// Record `record`'s id.
    func id(ofRecord record: Int) -> UInt64 { valueApart(MMS_SECTION_RECORDS, ofRecord: record) }

    /// Record `record`'s name offset ("Records' names"): its block's base in RECORD_NAME_BASES and its
    /// name delta in RECORDS, the greatest deltas stored apart after the bases.
    func nameOffset(ofRecord record: Int) -> UInt64 {
        let base = packedValue(MMS_SECTION_RECORD_NAME_BASES, record / Int(MMS_RECORD_NAME_BLOCK))
        let delta = packedValue(MMS_SECTION_RECORDS, record, field: "name_delta"), apart = valuesApart(MMS_SECTION_RECORD_NAME_BASES)
        let threshold = (UInt64(1) << UInt64(packedWidth(MMS_SECTION_RECORDS, field: "name_delta"))) - UInt64(apart.count / 4)
        return base + (delta < threshold ? delta : load(at: apart.lowerBound + Int(delta - threshold) * 4, width: 4))
    }

    /// The name offset of the name spelling `spelling` is made from ("Spellings"): stored apart at a
    /// place past the threshold, else its record's display name's (place 0) or j-th given alternate's.
    func spellingNameOffset(_ spelling: Int) -> UInt64 {
        let place = packedValue(MMS_SECTION_SPELLINGS, spelling, field: "place"), threshold = apartThreshold(MMS_SECTION_SPELLINGS)
        if place >= threshold { return load(at: valuesApart(MMS_SECTION_SPELLINGS).lowerBound + Int(place - threshold) * 4, width: 4) }
        let record = alternateRecord(givenAlternateCount + spelling)
        if place == 0 { return nameOffset(ofRecord: record) }
        let first = (0 ..< givenAlternateCount).first { alternateRecord($0) == record } ?? givenAlternateCount
        return packedValue(MMS_SECTION_ALTERNATES, first + Int(place) - 1, field: "name_offset")
    }

    /// The header field `name`'s value.
    func headerValue(_ name: String) -> Int {
        let field = IndexFormat.header.field(name)!
        return Int(load(at: field.offset, width: field.width))
    }

    /// The width in bits of field `field` (the first when nil) of the packed array `kind`'s values, as
    /// the header (or the format) gives it.
    func packedWidth(_ kind: mms_section_kind, field: String? = nil) -> Int {
        let fields = IndexFormat.packed(kind)!.fields
        return width((field.flatMap { name in fields.first { $0.name == name } } ?? fields[0]).width)
    }

    /// A packed field's width: the header field named `spec`, the number it spells, a record
    /// coordinate's (the bits of its greatest biased value, 180 or 360 degrees, in the header's unit) or
    /// country's, or a name number's.
    func width(_ spec: String) -> Int {
        if let number = Int(spec) { return number }
        switch spec {
        case IndexFormat.latitudeField.1: return Int.bitWidth - (2 * Int(MMS_LATITUDE_BIAS) / coordinateUnit).leadingZeroBitCount
        case IndexFormat.longitudeField.1: return Int.bitWidth - (2 * Int(MMS_LONGITUDE_BIAS) / coordinateUnit).leadingZeroBitCount
        case IndexFormat.countryField.1: return max(1, Int.bitWidth - recordCountryCodes.count.leadingZeroBitCount) // numbers up to the codes
        default: return headerValue(spec)
        }
    }

    /// RECORDS' coordinate unit in 1e-7 degree: 10^coordinate_exponent.
    var coordinateUnit: Int { (0 ..< headerValue("coordinate_exponent")).reduce(1) { unit, _ in unit * 10 } }

    /// RECORD_COUNTRIES' codes, in order (each an mms_record_country, the code first).
    var recordCountryCodes: [(UInt8, UInt8)] {
        let section = section(MMS_SECTION_RECORD_COUNTRIES)
        return stride(from: section.lowerBound, to: section.upperBound, by: Int(MMS_RECORD_COUNTRY_SIZE)).map { (bytes[$0], bytes[$0 + 1]) }
    }

    /// A record's country code (RECORDS): the code its number names in RECORD_COUNTRIES, after the 0
    /// that says none.
    func countryCode(ofRecord position: Int) -> (UInt8, UInt8) {
        let number = Int(packedValue(MMS_SECTION_RECORDS, position, field: "country"))
        return number == 0 ? (0, 0) : recordCountryCodes[number - 1]
    }

    /// A record's coordinate (RECORDS) in 1e-7 degree, unbiased.
    func coordinate(_ kind: mms_section_kind, _ position: Int, longitude: Bool) -> Int32 {
        let packed = Int64(packedValue(kind, position, field: longitude ? "lon_e7" : "lat_e7"))
        return Int32(truncatingIfNeeded: packed * Int64(coordinateUnit) - (longitude ? Int64(MMS_LONGITUDE_BIAS) : Int64(MMS_LATITUDE_BIAS)))
    }

    /// Where field `field` (the first when nil) of value `position` of the packed array `kind` starts,
    /// in bits from the section's start, and its width.
    func packedBits(_ kind: mms_section_kind, _ position: Int, field: String?) -> (first: Int, width: Int) {
        let fields = IndexFormat.packed(kind)!.fields.map { (name: $0.name, width: width($0.width)) }
        let valueWidth = fields.reduce(0) { $0 + $1.width }
        let index = field.map { name in
            guard let index = fields.firstIndex(where: { $0.name == name }) else { preconditionFailure("\(kind) has no packed field \(name)") }
            return index
        } ?? 0
        return (position * valueWidth + fields[..<index].reduce(0) { $0 + $1.width }, fields[index].width)
    }

    /// The field that bit `bit` of the packed array `kind` belongs to (counted from the section's
    /// start), or nil past the last value.
    func packedField(_ kind: mms_section_kind, bit: Int) -> String? {
        let fields = IndexFormat.packed(kind)!.fields.map { (name: $0.name, width: width($0.width)) }
        let valueWidth = fields.reduce(0) { $0 + $1.width }
        guard valueWidth > 0, bit < count(of: kind) * valueWidth else { return nil }
        var first = bit % valueWidth
        for field in fields {
            if first < field.width { return field.name }
            first -= field.width
        }
        return nil
    }

    /// Field `field` (the first when nil) of value `position` of the packed array `kind`, bit by bit as
    /// the format header defines it.
    func packedValue(_ kind: mms_section_kind, _ position: Int, field: String? = nil) -> UInt64 {
        let (first, width) = packedBits(kind, position, field: field)
        return loadBits(from: section(kind).lowerBound, bit: first, width: width)
    }

    /// The `width` bits from bit `bit` of the bytes from `start` (least significant first), as a number.
    func loadBits(from start: Int, bit first: Int, width: Int) -> UInt64 {
        (0 ..< width).reduce(UInt64(0)) { value, bit in
            let at = first + bit
            return value | UInt64(bytes[start + at / 8] >> UInt8(at % 8) & 1) << UInt64(bit)
        }
    }

    /// Stores `value` (below 2^width) as field `field` (the first when nil) of value `position` of the
    /// packed array `kind`.
    mutating func storePacked(_ value: UInt64, _ kind: mms_section_kind, _ position: Int, field: String? = nil) {
        let (first, width) = packedBits(kind, position, field: field)
        storeBits(value, from: section(kind).lowerBound, bit: first, width: width)
    }

    /// Stores `value` (below 2^width) as the `width` bits from bit `bit` of the bytes from `start`.
    mutating func storeBits(_ value: UInt64, from start: Int, bit first: Int, width: Int) {
        precondition(value >> UInt64(width) == 0, "\(value) does not fit \(width) bits")
        for bit in 0 ..< width {
            let at = first + bit, mask = UInt8(1) << UInt8(at % 8)
            bytes[start + at / 8] = value >> UInt64(bit) & 1 == 1 ? bytes[start + at / 8] | mask : bytes[start + at / 8] & ~mask
        }
    }

    /// The bits of a packed entry's name number (ENTRIES' below the word bit; a TOP page's that holds
    /// name numbers, not positions: "TOP pages").
    var entryNameBits: Int { headerValue("entry_bits") - Int(MMS_ENTRY_WORD_BITS) }

    /// Entry `position` of ENTRIES: its word bit and name number.
    func entry(_ position: Int) -> (word: UInt32, name: UInt32) {
        let value = packedValue(MMS_SECTION_ENTRIES, position)
        return (UInt32(value >> UInt64(entryNameBits)), UInt32(value & (1 << UInt64(entryNameBits) - 1)))
    }

    /// Stores an entry of ENTRIES (its word bit and name number); false (nothing stored) when they do not
    /// fit its bits.
    @discardableResult
    mutating func storeEntry(_ position: Int, word: UInt32, name: UInt64) -> Bool {
        guard name >> UInt64(entryNameBits) == 0, word < 1 << MMS_ENTRY_WORD_BITS else { return false }
        storePacked(UInt64(word) << UInt64(entryNameBits) | name, MMS_SECTION_ENTRIES, position)
        return true
    }

    /// The alternates listed PRIMARY after ENTRIES' packed entries (their name numbers, to the section's
    /// end; their count the header's), and where the list starts ("Entries' kinds").
    var primaryAlternates: (start: Int, names: [UInt32]) {
        let section = section(MMS_SECTION_ENTRIES)
        let count = headerValue(Self.apartCountField(MMS_SECTION_ENTRIES)), start = section.upperBound - 4 * count
        return (start, (0 ..< count).map { UInt32(load(at: start + 4 * $0, width: 4)) })
    }

    var nodeCount: Int { count(of: MMS_SECTION_NODES) }
    var recordCount: Int { count(of: MMS_SECTION_RECORDS) }
    /// Alternate names of every kind: the given ones (ALTERNATES), then the spellings (SPELLINGS).
    var alternateCount: Int { count(of: MMS_SECTION_ALTERNATES) + count(of: MMS_SECTION_SPELLINGS) }
    var givenAlternateCount: Int { count(of: MMS_SECTION_ALTERNATES) }

    /// Where `field` of element `element` of section `kind` lies in the file.
    func offset(_ kind: mms_section_kind, element: Int, _ field: IndexFormat.Field) -> Int {
        section(kind).lowerBound + element * IndexFormat.element(of: kind)!.stride + field.offset
    }

    /// The bytes no section holds: padding after each section up to the next one.
    var padding: [Range<Int>] {
        let sections = IndexFormat.dataSections.map(section)
        return zip(sections, sections.dropFirst()).map { $0.upperBound ..< $1.lowerBound }.filter { !$0.isEmpty }
    }

    /// ALTERNATE_DELTAS' stream of deltas, its zero tail left out: each delta is which record an
    /// alternate belongs to, content as `IndexFormat.isContent` says of an alternate block's least record.
    var alternateDeltaStream: Range<Int> {
        let deltas = section(MMS_SECTION_ALTERNATE_DELTAS)
        return deltas.lowerBound ..< deltas.upperBound - Int(MMS_PACKED_TAIL)
    }

    /// The record of alternate name `index` ("Alternates' records"): its block's least record plus its
    /// delta, at the width the next block's delta_bit gives.
    func alternateRecord(_ index: Int) -> Int {
        let element = IndexFormat.element(of: MMS_SECTION_ALTERNATE_BLOCKS)!, size = Int(MMS_ALTERNATE_BLOCK_SIZE)
        func field(_ block: Int, _ name: String) -> Int {
            Int(load(at: offset(MMS_SECTION_ALTERNATE_BLOCKS, element: block, element.field(name)!), width: element.field(name)!.width))
        }
        let block = index / size, first = field(index / size, "delta_bit")
        let width = (field(block + 1, "delta_bit") - first) / size
        return field(block, "least_record") + Int(loadBits(from: alternateDeltaStream.lowerBound, bit: first + index % size * width, width: width))
    }

    /// ENTRY_DELTAS without its tail: the country entries' step codes ("Country entries").
    var entryStepStream: Range<Int> {
        let steps = section(MMS_SECTION_ENTRY_DELTAS)
        return steps.lowerBound ..< steps.upperBound - Int(MMS_ENTRY_DELTAS_TAIL)
    }

    /// Each block of ENTRY_BLOCKS with where its step codes start and how many it has (its run's
    /// positions in it, less one), from COUNTRY_RUNS.
    var entryBlockSteps: [(block: Int, deltaBit: Int, steps: Int)] {
        let run = IndexFormat.element(of: MMS_SECTION_COUNTRY_RUNS)!, block = IndexFormat.element(of: MMS_SECTION_ENTRY_BLOCKS)!
        func field(_ element: IndexFormat.Element, _ kind: mms_section_kind, _ number: Int, _ name: String) -> Int {
            Int(load(at: offset(kind, element: number, element.field(name)!), width: element.field(name)!.width))
        }
        return (0 ..< count(of: MMS_SECTION_COUNTRY_RUNS)).flatMap { number in
            let first = field(run, MMS_SECTION_COUNTRY_RUNS, number, "block_first"), positions = field(run, MMS_SECTION_COUNTRY_RUNS, number, "position_count")
            return (0 ..< field(run, MMS_SECTION_COUNTRY_RUNS, number, "block_count")).map { index in
                (first + index, field(block, MMS_SECTION_ENTRY_BLOCKS, first + index, "delta_bit"), min(positions - index * Int(MMS_ENTRY_BLOCK_SIZE), Int(MMS_ENTRY_BLOCK_SIZE)) - 1)
            }
        }
    }

    /// The Elias-gamma step whose code starts at bit `bit` of the step stream, read bit by bit: z zero
    /// bits, a one, then the step's low z bits; nil past the section or at more than 32 zeros.
    func entryStep(at bit: Int) -> (step: UInt64, end: Int)? {
        let steps = section(MMS_SECTION_ENTRY_DELTAS)
        var zeros = 0
        while true {
            guard (bit + zeros) / 8 < steps.count, zeros <= Int(MMS_ENTRY_STEP_MAX_ZEROS) else { return nil }
            if loadBits(from: steps.lowerBound, bit: bit + zeros, width: 1) == 1 { break }
            zeros += 1
        }
        guard (bit + 2 * zeros + 1 + 7) / 8 <= steps.count else { return nil }
        return (UInt64(1) << UInt64(zeros) | loadBits(from: steps.lowerBound, bit: bit + zeros + 1, width: zeros), bit + 2 * zeros + 1)
    }

    /// The bytes of PLACE_NAMES that are content: the countries' and regions' other names (QUALIFIER_NAMES'
    /// folded texts). Only their own fields point at them, and verify sees only that each is folded
    /// and in order, so another folded text there is another index, as `IndexFormat.isContent` says of
    /// the fields themselves.
    var contentTexts: [Range<Int>] {
        let element = IndexFormat.element(of: MMS_SECTION_QUALIFIER_NAMES)!
        let names = section(MMS_SECTION_PLACE_NAMES).lowerBound
        return (0 ..< count(of: MMS_SECTION_QUALIFIER_NAMES)).map { position in
            let start = names + Int(load(at: offset(MMS_SECTION_QUALIFIER_NAMES, element: position, element.field("folded_offset")!), width: 4))
            return start ..< start + Int(load(at: offset(MMS_SECTION_QUALIFIER_NAMES, element: position, element.field("folded_length")!), width: 2))
        }
    }

    /// A little-endian unsigned integer of `width` bytes at `offset`.
    func load(at offset: Int, width: Int) -> UInt64 {
        (0 ..< width).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[offset + $1]) }
    }

    /// Stores the low `width` bytes of `value`, little-endian, at `offset`.
    mutating func store(_ value: UInt64, at offset: Int, width: Int) {
        for byte in 0 ..< width { bytes[offset + byte] = UInt8(truncatingIfNeeded: value >> (8 * byte)) }
    }

    /// The checksum recomputed over the damaged bytes, so that only the structural checks stand
    /// between the damage and the answers.
    mutating func fixChecksum() {
        store(IndexChecksum.compute(bytes), at: IndexFormat.checksumField, width: 8)
    }

    func withChecksumFixed() -> [UInt8] {
        var copy = self
        copy.fixChecksum()
        return copy.bytes
    }
}
