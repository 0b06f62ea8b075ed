import CMMSearchFormat
import MMSearch

/// A text file read in pieces of whole lines, decompressed on the way when it is gzip (recognized by
/// its first bytes), so that a file far bigger than memory (GeoNames' whole alternateNamesV2.txt: 16
/// million rows, 700 MB) is read in about `pieceSize` bytes at a time. Also what the SOURCE section
/// says of it: the size and XXH64 of its content as read (decompressed).
struct InputStream {
    static let pieceSize = 1 << 20

    /// Reads the file at `path` and hands `body` its content in order, in pieces that end at a `\\n`
    /// (the last may not) together with where each starts in the content: every line whole in one piece.
    static func read(_ path: String, body: (_ piece: UnsafeRawBufferPointer, _ base: Int) throws(MMSearchError) -> Void) throws(MMSearchError) -> SourceDescription.InputFile {
        let file = try SystemCall.openForReading(path)
        var raw = [UInt8](repeating: 0, count: pieceSize)
        var pending: [UInt8] = []
        pending.reserveCapacity(2 * pieceSize)
        var base = 0
        var hash = mms_xxh64_state()
        mms_xxh64_reset(&hash, 0)
        var inflater: Gzip.Inflater?
        var first = true

        /// Takes decompressed (or plain) bytes; hands over the whole lines once a piece's worth is pending.
        func take(_ bytes: UnsafeRawBufferPointer, atEnd: Bool) throws(MMSearchError) {
            mms_xxh64_update(&hash, bytes.baseAddress, bytes.count)
            pending.append(contentsOf: bytes)
            guard atEnd || pending.count >= pieceSize else { return }
            let cut = atEnd ? pending.count : (pending.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0)
            guard cut > 0 else { return }  // One line longer than a piece so far: wait for its end.
            try pending.withRawBytes { (all) throws(MMSearchError) in try body(UnsafeRawBufferPointer(rebasing: all[0 ..< cut]), base) }
            base += cut
            pending.removeFirst(cut)
        }

        while true {
            let count = try raw.withUnsafeMutableBytes { buffer in Result { () throws(MMSearchError) in try file.read(into: buffer) } }.get()
            if first {
                first = false
                if Gzip.isCompressed(raw[0 ..< count]) { inflater = try Gzip.Inflater(file: path) }
            }
            try raw.withRawBytes { (all) throws(MMSearchError) in
                let piece = UnsafeRawBufferPointer(rebasing: all[0 ..< count])
                if let inflater {
                    try inflater.inflate(piece, isLast: count == 0) { (bytes) throws(MMSearchError) in try take(bytes, atEnd: false) }
                } else {
                    try take(piece, atEnd: false)
                }
            }
            if count == 0 { break }
        }
        try take(UnsafeRawBufferPointer(start: nil, count: 0), atEnd: true)
        try file.close()
        return SourceDescription.InputFile(name: FilePaths.fileName(of: path), size: UInt64(base), checksum: mms_xxh64_digest(&hash))
    }
}
