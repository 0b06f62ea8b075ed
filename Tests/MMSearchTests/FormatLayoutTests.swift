import CMMSearchFormat
import Foundation
import MMSearch
import MMSearchTestSupport
import Testing

/// Swift must see the on-disk structs exactly as the C compiler lays them out (the header asserts
/// its numbers with _Static_assert): the C enum values below are computed by clang's sizeof and
/// offsetof, so these tests hold whatever the layout of the current version is.
@Suite struct FormatLayoutTests {
    @Test func structSizesMatchTheHeader() {
        #expect(MemoryLayout<mms_header>.size == MMS_HEADER_SIZE)
        #expect(MemoryLayout<mms_node>.stride == MMS_NODE_SIZE)
        #expect(MemoryLayout<mms_child_block>.stride == MMS_CHILD_BLOCK_SIZE)
        #expect(MemoryLayout<mms_summary>.stride == MMS_SUMMARY_SIZE)
        #expect(MemoryLayout<mms_record>.stride == MMS_RECORD_SIZE)
        #expect(MemoryLayout<mms_alternate>.stride == MMS_ALTERNATE_SIZE)
        #expect(MemoryLayout<mms_source>.stride == MMS_SOURCE_SIZE)
        #expect(MemoryLayout<mms_spatial_point>.stride == MMS_SPATIAL_POINT_SIZE)
        #expect(MemoryLayout<mms_spatial_bounds>.stride == MMS_SPATIAL_BOUNDS_SIZE)
        #expect(MemoryLayout<mms_record_country>.stride == MMS_RECORD_COUNTRY_SIZE)
        #expect(MemoryLayout<mms_country_run>.stride == MMS_COUNTRY_RUN_SIZE)
        #expect(MemoryLayout<mms_country_page>.stride == MMS_COUNTRY_PAGE_SIZE)
        #expect(MemoryLayout<mms_entry_block>.stride == MMS_ENTRY_BLOCK_SIZE_BYTES)
        #expect(MemoryLayout<mms_alternate_block>.stride == MMS_ALTERNATE_BLOCK_SIZE_BYTES)
        #expect(MemoryLayout<mms_section>.stride == 16)
    }

    /// The header's first line names the version it specifies (it said 17 through versions 18 and 19).
    @Test func headerNamesItsVersion() throws {
        let header = try String(contentsOfFile: SharedData.packageRoot + "/include/mmsearch_format.h", encoding: .utf8)
        let firstLines = header.split(separator: "\n").prefix(3).joined(separator: "\n")
        #expect(firstLines.contains("the mmsearch index file format, version \(MMS_FORMAT_VERSION)."), "\(firstLines)")
    }

    /// Every element of an array section is all fields: no padding inside or after it, so the builder
    /// writes no uninitialized bytes and arrays have no gaps.
    @Test func arrayElementsHaveNoHiddenPadding() {
        for (kind, element) in IndexFormat.arrays {
            #expect(element.fields.reduce(0) { $0 + $1.width } == element.stride, "\(element.type) (section \(kind.rawValue)): \(element.fields)")
            let covered = element.fields.flatMap { $0.offset ..< $0.offset + $0.width }
            #expect(Set(covered).count == covered.count && covered.allSatisfy { $0 < element.stride }, "\(element.type) fields overlap")
        }
        let header = IndexFormat.header
        #expect(header.fields.reduce(0) { $0 + $1.width } == MemoryLayout<mms_header>.size)
    }

    @Test func headerLayout() {
        // Magic and version lead every version's header at the same offsets; the section table ends it.
        #expect(MemoryLayout<mms_header>.offset(of: \.magic) == 0)
        #expect(MemoryLayout<mms_header>.offset(of: \.version) == 8)
        #expect(MemoryLayout<mms_header>.offset(of: \.checksum) == MMS_HEADER_CHECKSUM_OFFSET)
        #expect(MemoryLayout<mms_header>.offset(of: \.sections)! + Int(MMS_SECTION_COUNT.rawValue) * MemoryLayout<mms_section>.stride == MemoryLayout<mms_header>.size)
        #expect(MMS_SECTION_RECORD_NAME_BASES.rawValue + 1 == MMS_SECTION_COUNT.rawValue) // RECORD_NAME_BASES ends the file
        // The probe agrees with the compiler.
        #expect(IndexFormat.header.field("magic") == IndexFormat.Field(name: "magic", offset: 0, width: 8))
        #expect(IndexFormat.header.field("checksum")?.offset == Int(MMS_HEADER_CHECKSUM_OFFSET))
        #expect(IndexFormat.header.field("sections.0.offset")?.offset == MemoryLayout<mms_header>.offset(of: \.sections))
        #expect(IndexFormat.header.field("sections.1.length")?.offset == MemoryLayout<mms_header>.offset(of: \.sections)! + 24)
    }

    @Test func spatialValuesSplitAxisAndRecord() {
        #expect(MMS_SPATIAL_RECORD_MASK == (1 << 29) - 1 && MMS_SPATIAL_AXIS_LONGITUDE == 1 << 31)
        #expect(MMS_SPATIAL_LEAF_SIZE >= 1)
    }

    @Test func entryBitsSplitKindAndName() {
        #expect(MMS_ENTRY_NAME_MASK == (1 << MMS_ENTRY_KIND_SHIFT) - 1)
        let word = MMS_KIND_WORD.rawValue << MMS_ENTRY_KIND_SHIFT
        #expect(word >> MMS_ENTRY_KIND_SHIFT == MMS_KIND_WORD.rawValue && word & MMS_ENTRY_NAME_MASK == 0)
        #expect(MMS_MAX_NAME_NUMBER == MMS_ENTRY_NAME_MASK)
    }

    /// TOP ranks' numbers: every class with each kind up to its own, each to its own number below
    /// MMS_TOP_RANK_COUNT and back; no other number is a rank.
    @Test func topRanksNumberEachClassAndKind() {
        var numbers: Set<UInt8> = []
        for matchClass in 0 ..< UInt32(Ranking.classCount) {
            for kind in 0 ... Ranking.kind(ofClass: matchClass) {
                let number = Ranking.topRank(bestClass: matchClass, kind: kind)
                #expect(UInt32(number) < MMS_TOP_RANK_COUNT && numbers.insert(number).inserted, "class \(matchClass) kind \(kind): \(number)")
                let back = Ranking.topRank(number)
                #expect(back?.matchClass == matchClass && back?.kind == kind, "class \(matchClass) kind \(kind)")
            }
        }
        #expect(numbers.count == Int(MMS_TOP_RANK_COUNT) && MMS_TOP_RANK_COUNT <= 1 << MMS_TOP_RANK_BITS)
        for number in UInt8(MMS_TOP_RANK_COUNT) ... 255 { #expect(Ranking.topRank(number) == nil, "\(number)") }
    }

    /// A packed array's width is the least that holds its values, never 0; its length rounds its bits
    /// up to bytes and adds the tail a reader's 8-byte loads may reach.
    @Test func packedWidthsAreTheLeastThatHold() {
        for (count, width) in [(0, 1), (1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (209_579, 18), (1 << 18, 18), (1 << 18 + 1, 19)] {
            #expect(PackedArrays.width(holding: UInt64(count)) == width, "\(count)")
        }
        #expect(PackedArrays.entryWidth(names: UInt64(MMS_MAX_NAME_NUMBER) + 1) == 31)
        #expect(PackedArrays.byteCount(count: 0, width: 7) == Int(MMS_PACKED_TAIL))
        #expect(PackedArrays.byteCount(count: 3, width: 7) == 3 + Int(MMS_PACKED_TAIL))
        #expect(PackedArrays.byteCount(count: 8, width: 7) == 7 + Int(MMS_PACKED_TAIL))
        #expect(MMS_PACKED_TAIL >= 8 && MMS_PACKED_MAX_WIDTH == 32 && MMS_ENTRY_WORD_BITS + MMS_ENTRY_KIND_SHIFT <= 32)
    }

    @Test func magicSpellsMMSEARCH() {
        withUnsafeBytes(of: MMS_MAGIC.littleEndian) { bytes in
            #expect(Array(bytes) == Array("MMSEARCH".utf8))
        }
    }

    /// Known XXH64 values of the reference implementation.
    @Test func checksumIsXXH64() {
        #expect(mms_xxh64(nil, 0, 0) == 0xEF46DB3751D8E999)
        let abc = Array("abc".utf8)
        #expect(mms_xxh64(abc, abc.count, 0) == 0x44BC2CF5AD770999)
        let long = Array("Nobody inspects the spammish repetition".utf8)
        #expect(mms_xxh64(long, long.count, 0) == 0xFBCEA83C8A378BF1)
    }

    /// The streamed form (reset, update piece by piece, digest) gives what the whole form gives, however
    /// the bytes are cut: pieces shorter than a 32-byte stripe, across stripes, empty ones.
    @Test func streamedChecksumIsTheWholeOne() {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 31, 32, 33, 63, 64, 65, 100, 1000, 4099] {
            let bytes = (0 ..< length).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
            for seed: UInt64 in [0, 0x9E3779B185EBCA87] {
                let whole = mms_xxh64(bytes, bytes.count, seed)
                for _ in 0 ..< 20 {
                    var state = mms_xxh64_state()
                    mms_xxh64_reset(&state, seed)
                    var at = 0
                    while at < length {
                        let piece = Int.random(in: 0 ... min(70, length - at), using: &generator)
                        bytes[at ..< at + piece].withUnsafeBytes { mms_xxh64_update(&state, $0.baseAddress, piece) }
                        at += piece
                    }
                    #expect(mms_xxh64_digest(&state) == whole, "\(length) bytes, seed \(seed)")
                }
            }
        }
    }
}
