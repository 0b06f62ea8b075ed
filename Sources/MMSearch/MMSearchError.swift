/// Every failure mmsearch reports: what went wrong, where, and what was expected.
///
/// ```swift
/// do { _ = try CityIndex(path: "cities.mms") }
/// catch let error as MMSearchError { print(error) }   // "cities.mms: not an mmsearch index ..."
/// ```
public enum MMSearchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The city list is not what the builder reads. `line` and `column` are 1-based; the column counts
    /// Unicode scalars, as editors do; `byteOffset` is 0-based.
    case invalidInput(file: String, line: Int, column: Int, byteOffset: Int, message: String)
    /// The input is gzip-compressed but corrupt, truncated, or followed by other bytes; `byteOffset` is
    /// where in the compressed file decompression stopped.
    case invalidCompressedInput(file: String, byteOffset: Int, message: String)
    /// The input is well formed but goes past what the format can hold (see `include/mmsearch_format.h`).
    case limitExceeded(file: String, message: String)
    /// The index file is damaged or not an index: `byteOffset` is where the bad value is, when known.
    case invalidIndex(file: String, byteOffset: Int?, message: String)
    /// The index was written in another format version, or byte order, than this reader's.
    case unsupportedVersion(file: String, found: UInt32, supported: UInt32)
    /// A system call failed: `operation` says which (for example "open", "rename"), `errno` why.
    case io(path: String, operation: String, errno: Int32)
    /// Inputs or options that cannot go together (for example region names without a dump that
    /// gives regions): `mmsearch` reports it as a usage error.
    case invalidOptions(message: String)

    /// The message `mmsearch` prints: the file, where, and what went wrong.
    ///
    /// ```swift
    /// MMSearchError.io(path: "x.mms", operation: "open", errno: 2).description
    /// // "x.mms: open failed: No such file or directory"
    /// ```
    public var description: String {
        switch self {
        case let .invalidInput(file, line, column, byteOffset, message):
            return "\(file):\(line):\(column): \(message) (byte \(byteOffset))"
        case let .invalidCompressedInput(file, byteOffset, message):
            return "\(file): \(message) (byte \(byteOffset) of the compressed file)"
        case let .limitExceeded(file, message):
            return "\(file): \(message)"
        case let .invalidIndex(file, byteOffset, message):
            if let byteOffset { return "\(file): corrupt index at byte \(byteOffset): \(message)" }
            return "\(file): \(message)"
        case let .unsupportedVersion(file, found, supported):
            return "\(file): index format version \(found), but this mmsearch reads version \(supported); rebuild the index with `mmsearch build`"
        case let .io(path, operation, errno):
            return "\(path): \(operation) failed: \(SystemCall.describe(errno: errno))"
        case let .invalidOptions(message):
            return message
        }
    }
}
