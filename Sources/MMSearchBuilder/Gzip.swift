internal import CZlib
import MMSearch

/// Reading gzip files (RFC 1952) through the system zlib: the builder's only zlib code.
enum Gzip {
    /// Whether `bytes` start like a gzip file (the magic bytes 1f 8b), whatever the file is called.
    static func isCompressed(_ bytes: some Collection<UInt8>) -> Bool {
        var iterator = bytes.makeIterator()
        return iterator.next() == 0x1F && iterator.next() == 0x8B
    }

    /// The decompressed content of the gzip file `bytes`. Members written one after another (as
    /// `cat a.gz b.gz` makes) decompress to their contents one after another, as `gunzip` does.
    /// Corrupt, truncated or trailing data is `MMSearchError.invalidCompressedInput`, naming the byte
    /// of `bytes` where decompression stopped; `file` names the input in that error.
    static func decompress(_ bytes: [UInt8], file: String) throws(MMSearchError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(sizeHint(bytes))
        let inflater = try Inflater(file: file)
        try bytes.withRawBytes { (input) throws(MMSearchError) in
            try inflater.inflate(input, isLast: true) { output.append(contentsOf: $0) }
        }
        return output
    }

    /// A decompression in progress, fed the compressed bytes piece by piece: what reads a file too big
    /// to hold whole (`InputStream`).
    final class Inflater {
        private var stream = z_stream()
        private var chunk = [UInt8](repeating: 0, count: 1 << 20)
        private let file: String
        /// Compressed bytes consumed so far (error offsets count from the file's start).
        private var consumed = 0
        /// A member ended and nothing of the next one has been read yet.
        private var betweenMembers = false

        init(file: String) throws(MMSearchError) {
            self.file = file
            // 15 + 16: a window of up to 32 KiB, gzip wrapping only (no zlib or raw deflate).
            guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                throw .invalidCompressedInput(file: file, byteOffset: 0, message: "zlib could not start decompressing (out of memory?)")
            }
        }

        deinit { inflateEnd(&stream) }

        private func failure(_ offset: Int, _ message: String) -> MMSearchError {
            .invalidCompressedInput(file: file, byteOffset: offset, message: message)
        }

        /// Decompresses `input`, the compressed bytes that follow those fed before, giving what it
        /// decompresses to `output` in order. `isLast`: `input` ends the file, so a member cut short is
        /// an error.
        func inflate(_ input: UnsafeRawBufferPointer, isLast: Bool, output: (UnsafeRawBufferPointer) throws(MMSearchError) -> Void) throws(MMSearchError) {
            var used = 0
            while used < input.count || (isLast && !betweenMembers) {
                if betweenMembers {
                    // Another member may follow; anything else after a member is an error.
                    guard input[used] == 0x1F, used + 1 >= input.count || input[used + 1] == 0x8B else {
                        throw failure(consumed, "unexpected bytes after the end of the gzip data")
                    }
                    inflateReset(&stream)
                    betweenMembers = false
                }
                let base = UnsafeMutablePointer(mutating: (input.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!).assumingMemoryBound(to: UInt8.self))
                stream.next_in = base + used
                stream.avail_in = UInt32(min(input.count - used, Int(UInt32.max)))
                let before = Int(stream.avail_in)
                let status = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = UInt32(buffer.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let read = before - Int(stream.avail_in)
                used += read
                consumed += read
                let produced = chunk.count - Int(stream.avail_out)
                if produced > 0 {
                    try chunk.withRawBytes { (all) throws(MMSearchError) in try output(UnsafeRawBufferPointer(rebasing: all[0 ..< produced])) }
                }
                switch status {
                case Z_OK:
                    continue
                case Z_STREAM_END:
                    betweenMembers = true
                case Z_BUF_ERROR where used == input.count:
                    // zlib wants more input than this piece has.
                    if isLast { throw failure(consumed, "truncated gzip data: the file ends before the compressed stream does") }
                    return
                default:
                    let reason = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                    throw failure(consumed, "corrupt gzip data: \(reason)")
                }
            }
        }
    }

    /// The size of the decompressed content if `bytes` is one member: the trailer's ISIZE field (the
    /// size modulo 2^32), used only to reserve memory, so capped at deflate's best ratio (1032:1).
    private static func sizeHint(_ bytes: [UInt8]) -> Int {
        guard bytes.count >= 18 else { return 0 }
        let size = bytes[(bytes.count - 4)...].reversed().reduce(0) { $0 << 8 | Int($1) }
        return min(size, bytes.count * 1032)
    }
}
