import CMMSearchFormat
import Testing

/// Swift must see the on-disk structs exactly as the C compiler lays them out (the header asserts
/// the same numbers with _Static_assert): the C enum values below are computed by clang's offsetof.
@Suite struct FormatLayoutTests {
    @Test func structSizesMatchTheHeader() {
        #expect(MemoryLayout<mms_header>.size == MMS_HEADER_SIZE)
        #expect(MemoryLayout<mms_node>.stride == MMS_NODE_SIZE)
        #expect(MemoryLayout<mms_edge>.stride == MMS_EDGE_SIZE)
        #expect(MemoryLayout<mms_record>.stride == MMS_RECORD_SIZE)
        #expect(MemoryLayout<mms_source>.stride == MMS_SOURCE_SIZE)
        // Strides equal sizes: arrays of these structs have no hidden padding.
        #expect(MemoryLayout<mms_node>.size == MemoryLayout<mms_node>.stride)
        #expect(MemoryLayout<mms_edge>.size == MemoryLayout<mms_edge>.stride)
        #expect(MemoryLayout<mms_record>.size == MemoryLayout<mms_record>.stride)
    }

    @Test func fieldOffsetsMatchTheHeader() {
        #expect(MemoryLayout<mms_header>.offset(of: \.checksum) == MMS_HEADER_CHECKSUM_OFFSET)
        #expect(MemoryLayout<mms_header>.offset(of: \.magic) == 0)
        #expect(MemoryLayout<mms_header>.offset(of: \.version) == 8)
        #expect(MemoryLayout<mms_header>.offset(of: \.sections) == 56)
        #expect(MemoryLayout<mms_edge>.offset(of: \.first_byte) == 10)
        #expect(MemoryLayout<mms_record>.offset(of: \.country) == 18)
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
}
