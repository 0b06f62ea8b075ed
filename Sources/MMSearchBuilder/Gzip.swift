internal import CZlib
import MMSearch

/// Reading gzip files (RFC 1952) through the system zlib: the builder's only zlib code.
enum Gzip {
    /// Whether `bytes` start like a gzip file (the magic bytes 1f 8b), whatever the file is called.
    static func isCompressed(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    /// The decompressed content of the gzip file `bytes`. Members written one after another (as
    /// `cat a.gz b.gz` makes) decompress to their contents one after another, as `gunzip` does.
    /// Corrupt, truncated or trailing data is `MMSearchError.invalidCompressedInput`, naming the byte
    /// of `bytes` where decompression stopped; `file` names the input in that error.
    static func decompress(_ bytes: [UInt8], file: String) throws(MMSearchError) -> [UInt8] {
        func failure(_ offset: Int, _ message: String) -> MMSearchError {
            .invalidCompressedInput(file: file, byteOffset: offset, message: message)
        }
        var output: [UInt8] = []
        output.reserveCapacity(sizeHint(bytes))
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var stream = z_stream()
        // 15 + 16: a window of up to 32 KiB, gzip wrapping only (no zlib or raw deflate).
        guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw failure(0, "zlib could not start decompressing (out of memory?)")
        }
        defer { inflateEnd(&stream) }
        var consumed = 0
        try bytes.withRawBytes { (input) throws(MMSearchError) in
            let base = UnsafeMutablePointer(mutating: input.baseAddress!.assumingMemoryBound(to: UInt8.self))
            while true {
                stream.next_in = base + consumed
                stream.avail_in = UInt32(min(input.count - consumed, Int(UInt32.max)))
                let before = Int(stream.avail_in)
                let status = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = UInt32(buffer.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                consumed += before - Int(stream.avail_in)
                output.append(contentsOf: chunk[0 ..< chunk.count - Int(stream.avail_out)])
                switch status {
                case Z_OK:
                    continue
                case Z_STREAM_END:
                    // Another member may follow; anything else after a member is an error.
                    guard consumed < input.count else { return }
                    guard input.count - consumed >= 2, input[consumed] == 0x1F, input[consumed + 1] == 0x8B else {
                        throw failure(consumed, "unexpected bytes after the end of the gzip data")
                    }
                    inflateReset(&stream)
                case Z_BUF_ERROR where consumed == input.count:
                    throw failure(consumed, "truncated gzip data: the file ends before the compressed stream does")
                default:
                    let reason = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                    throw failure(consumed, "corrupt gzip data: \(reason)")
                }
            }
        }
        return output
    }

    /// The size of the decompressed content if `bytes` is one member: the trailer's ISIZE field (the
    /// size modulo 2^32), used only to reserve memory, so capped at deflate's best ratio (1032:1).
    private static func sizeHint(_ bytes: [UInt8]) -> Int {
        guard bytes.count >= 18 else { return 0 }
        let size = bytes[(bytes.count - 4)...].reversed().reduce(0) { $0 << 8 | Int($1) }
        return min(size, bytes.count * 1032)
    }
}
