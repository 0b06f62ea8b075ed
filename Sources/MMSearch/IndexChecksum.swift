import CMMSearchFormat

/// The index checksum as `include/mmsearch_format.h` defines it: XXH64 over every byte but the
/// checksum field, chained (the bytes after the field, seeded with the hash of the bytes before it).
package enum IndexChecksum {
    package static func compute(_ file: UnsafeRawBufferPointer) -> UInt64 {
        let fieldStart = MemoryLayout<mms_header>.offset(of: \.checksum)!
        let fieldEnd = fieldStart + MemoryLayout<UInt64>.size
        precondition(file.count >= fieldEnd, "an index file is at least a header")
        let before = mms_xxh64(file.baseAddress, fieldStart, 0)
        return mms_xxh64(file.baseAddress! + fieldEnd, file.count - fieldEnd, before)
    }

    package static func compute(_ file: [UInt8]) -> UInt64 {
        file.withUnsafeBytes { compute($0) }
    }
}
