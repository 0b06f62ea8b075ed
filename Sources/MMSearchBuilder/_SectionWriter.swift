import CMMSearchFormat
import MMSearch

/// Lays sections out after the header, each at a multiple of MMS_SECTION_ALIGNMENT with zero padding
/// between them, then writes the header and the checksum. The builder's only raw-byte code.
struct _SectionWriter {
    /// The header's counts.
    struct Counts {
        var records: Int
        var nodes: Int
        var entries: Int
        var alternates: Int
        var summaries: Int
        var topBits: Int
        var regions: Int
        var countries: Int
        var qualifierNames: Int
        var spellings: Int
        var flags: UInt32
        var countryRuns: Int
        var entryBlocks: Int
        var entryBits: Int
        var recordBits: Int
        var nodeLabelBits: Int
        var childBits: Int
        /// The uint32_t values after ENTRIES', POPULATION's, RECORDS', RECORD_NAME_BASES' and NODES' packed arrays.
        var primaryAlternates: Int
        var populationsApart: Int
        var idsApart: Int
        var recordNamesApart: Int
        var nodeLabelsApart: Int
        var recordRegionsApart: Int
        var spellingsApart: Int
        var nameOffsetBits: Int
        var populationBits: Int
        var recordIdBits: Int
        var recordNameBits: Int
        var coordinateExponent: Int
        /// A summary's fields' widths: node, the four counts, top_first.
        var summaryWidths: [Int]
        var regionBits: Int
        var spellingNameBits: Int
    }

    private var body: [UInt8] = []
    private var sections = [mms_section](repeating: mms_section(offset: 0, length: 0), count: Int(MMS_SECTION_COUNT.rawValue))
    private static let headerSize = MemoryLayout<mms_header>.size

    /// Where a section starts in the file when sections of these byte lengths precede it, placed as
    /// `place` places them (the builder lays some bytes out knowing where they will land).
    static func offset(afterSectionsOf lengths: [Int]) -> Int {
        aligned(lengths.reduce(headerSize) { aligned($0) + $1 })
    }

    private static func aligned(_ offset: Int) -> Int {
        let alignment = Int(MMS_SECTION_ALIGNMENT)
        return (offset + alignment - 1) / alignment * alignment
    }

    /// Appends `elements` (plain C structs or integers) as section `kind`.
    mutating func place<Element: BitwiseCopyable>(_ kind: mms_section_kind, _ elements: [Element]) {
        let offset = Self.aligned(Self.headerSize + body.count)
        body.append(contentsOf: repeatElement(0, count: offset - Self.headerSize - body.count))
        elements.withUnsafeBytes { body.append(contentsOf: $0) }
        sections[Int(kind.rawValue)] = mms_section(offset: UInt64(offset), length: UInt64(body.count + Self.headerSize - offset))
    }

    /// `values` as the uint32_t values that follow a section's packed array, 4 bytes each,
    /// little-endian (the values stored apart; ENTRIES' alternates that are PRIMARY); their count is a
    /// header field (`Counts`).
    static func valuesAfter(_ values: [UInt32]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(4 * values.count)
        for value in values { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        return bytes
    }

    /// Appends `values` as the packed array section `kind`, `width` bits each ("Packed arrays" in the
    /// format header): least significant bit first, zero bits to the byte, then the zero tail.
    mutating func place(_ kind: mms_section_kind, packed values: [UInt32], width: Int, then after: [UInt8] = []) {
        place(kind, packed: values.count, widths: [width], then: after) { value, _ in values[value] }
    }

    /// Appends `count` values of the fields `widths` as the packed array section `kind`: value i's
    /// field f is `field(i, f)`, the fields one after another from the value's first bit; then `after`
    /// (`valuesAfter`: the values stored apart in POPULATION and RECORDS, the alternates that are
    /// PRIMARY in ENTRIES).
    mutating func place(_ kind: mms_section_kind, packed count: Int, widths: [Int], then after: [UInt8] = [], _ field: (Int, Int) -> UInt32) {
        var bits = BitWriter()
        for value in 0 ..< count {
            for (number, width) in widths.enumerated() { bits.append(UInt64(field(value, number)), width: width) }
        }
        let bytes = bits.finished + [UInt8](repeating: 0, count: Int(MMS_PACKED_TAIL))
        precondition(bytes.count == PackedArrays.byteCount(count: count, width: widths.reduce(0, +)))
        place(kind, bytes + after)
    }

    /// The whole file: header (with checksum) followed by the sections.
    func finish(counts: Counts) -> [UInt8] {
        var header = mms_header()
        header.magic = MMS_MAGIC
        header.version = MMS_FORMAT_VERSION
        header.byte_order = MMS_BYTE_ORDER_MARK
        header.file_size = UInt64(Self.headerSize + body.count)
        header.checksum = 0
        header.header_size = UInt32(Self.headerSize)
        header.section_count = MMS_SECTION_COUNT.rawValue
        header.record_count = UInt32(counts.records)
        header.node_count = UInt32(counts.nodes)
        header.entry_count = UInt32(counts.entries)
        header.alternate_count = UInt32(counts.alternates)
        header.summary_count = UInt32(counts.summaries)
        header.top_bits = UInt32(counts.topBits)
        header.region_count = UInt32(counts.regions)
        header.country_count = UInt32(counts.countries)
        header.flags = counts.flags
        header.qualifier_name_count = UInt32(counts.qualifierNames)
        header.spelling_count = UInt32(counts.spellings)
        header.country_run_count = UInt32(counts.countryRuns)
        header.entry_block_count = UInt32(counts.entryBlocks)
        header.child_bits = UInt32(counts.childBits)
        header.primary_alternate_count = UInt32(counts.primaryAlternates)
        header.population_apart_count = UInt32(counts.populationsApart)
        header.record_id_apart_count = UInt32(counts.idsApart)
        header.record_name_apart_count = UInt32(counts.recordNamesApart)
        header.node_label_apart_count = UInt32(counts.nodeLabelsApart)
        header.record_region_apart_count = UInt32(counts.recordRegionsApart)
        header.spelling_apart_count = UInt32(counts.spellingsApart)
        header.entry_bits = UInt8(counts.entryBits)
        header.record_bits = UInt8(counts.recordBits)
        header.node_label_bits = UInt8(counts.nodeLabelBits)
        header.name_offset_bits = UInt8(counts.nameOffsetBits)
        header.population_bits = UInt8(counts.populationBits)
        header.record_id_bits = UInt8(counts.recordIdBits)
        header.record_name_bits = UInt8(counts.recordNameBits)
        header.coordinate_exponent = UInt8(counts.coordinateExponent)
        header.summary_node_bits = UInt8(counts.summaryWidths[0])
        header.summary_count_bits = UInt8(counts.summaryWidths[1])
        header.summary_top_bits = UInt8(counts.summaryWidths[5])
        header.region_bits = UInt8(counts.regionBits)
        header.spelling_name_bits = UInt8(counts.spellingNameBits)
        withUnsafeMutableBytes(of: &header.sections) { table in
            sections.withUnsafeBytes { table.copyMemory(from: $0) }
        }
        var file: [UInt8] = []
        file.reserveCapacity(Self.headerSize + body.count)
        withUnsafeBytes(of: header) { file.append(contentsOf: $0) }
        file.append(contentsOf: body)
        let checksum = IndexChecksum.compute(file)
        file.withUnsafeMutableBytes {
            $0.storeBytes(of: checksum, toByteOffset: MemoryLayout<mms_header>.offset(of: \.checksum)!, as: UInt64.self)
        }
        return file
    }
}

/// Bits appended least significant first, bit i in byte i / 8: whole bytes leave a 64-bit
/// accumulator as they fill.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private(set) var count = 0
    private var pending: UInt64 = 0
    private var pendingBits = 0

    /// Appends the low `width` bits of `value` (width at most 32, value below 2^width).
    mutating func append(_ value: UInt64, width: Int) {
        pending |= value << UInt64(pendingBits)
        pendingBits += width
        count += width
        while pendingBits >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: pending))
            pending >>= 8
            pendingBits -= 8
        }
    }

    /// Appends `other`'s bits.
    mutating func append(_ other: BitWriter) {
        for byte in other.bytes { append(UInt64(byte), width: 8) }
        if other.pendingBits > 0 { append(other.pending, width: other.pendingBits) }
    }

    /// The bytes with the last, partly filled one (its unused bits zero).
    var finished: [UInt8] { pendingBits > 0 ? bytes + [UInt8(truncatingIfNeeded: pending)] : bytes }
}
