#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The C functions whose names the types below reuse for methods: inside those types the plain name
// means the method, so they call these. (A call qualified by the C library's module name compiles
// against that one library only: .ci/run rejects it.)
@inline(__always) private func cRename(_ from: String, _ to: String) -> Int32 { rename(from, to) }
@inline(__always) private func cWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }
@inline(__always) private func cRead(_ fd: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, bytes, count) }
@inline(__always) private func cClose(_ fd: Int32) -> Int32 { close(fd) }
@inline(__always) private func cExit(_ status: Int32) -> Never { exit(status) }

/// Every C library call mmsearch makes, wrapped once: above this file, code sees `FileDescriptor`
/// values and thrown `MMSearchError.io` errors, never raw integers and `errno`.
package enum SystemCall {
    /// The C library's text for an errno value, e.g. "No such file or directory".
    package static func describe(errno code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }

    /// The current errno, read right after a failed call.
    @inline(__always)
    private static func failure(_ path: String, _ operation: String) -> MMSearchError {
        .io(path: path, operation: operation, errno: errno)
    }

    /// Opens `path` for reading.
    package static func openForReading(_ path: String) throws(MMSearchError) -> FileDescriptor {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure(path, "open") }
        return FileDescriptor(rawValue: fd, path: path)
    }

    /// Creates `path`, which must not exist yet (O_EXCL), for writing with mode 0644.
    package static func createExclusive(_ path: String) throws(MMSearchError) -> FileDescriptor {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(path, "create") }
        return FileDescriptor(rawValue: fd, path: path)
    }

    /// Renames `from` to `to`, replacing `to` atomically (rename(2)).
    package static func rename(_ from: String, to: String) throws(MMSearchError) {
        guard cRename(from, to) == 0 else { throw failure(to, "rename") }
    }

    /// Removes `path`; a missing file is not an error.
    package static func removeIfPresent(_ path: String) {
        _ = unlink(path)
    }

    /// Whether `path` names an existing file or directory.
    package static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Flushes the directory holding `path` so that a rename into it survives a crash.
    package static func syncDirectory(containing path: String) throws(MMSearchError) {
        let directory = FilePaths.directory(of: path)
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw failure(directory, "open") }
        defer { _ = close(fd) }
        guard fsync(fd) == 0 else { throw failure(directory, "fsync") }
    }

    /// Writes all of `bytes` to standard output or standard error, retrying short writes and EINTR.
    /// A closed pipe (EPIPE) ends the writes quietly: the reader has gone, as with `head`.
    package static func write(_ bytes: UnsafeRawBufferPointer, to stream: StandardStream) {
        var done = 0
        while done < bytes.count {
            let n = cWrite(stream.rawValue, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                return
            }
            done += n
        }
    }

    /// Whether `stream` is a terminal.
    package static func isTerminal(_ stream: StandardStream) -> Bool { isatty(stream.rawValue) == 1 }

    /// The value of environment variable `name`, if set and not empty.
    package static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    /// `path` made absolute against the current working directory (getcwd(3)): `path` itself when it
    /// is absolute already, or when the directory cannot be read (removed, say, or longer than
    /// PATH_MAX). Built as bytes in one buffer and made a String once, with code a search runs anyway,
    /// so that a relative path costs an absolute one's time and one system call.
    /// `firstCapacity`: the bytes tried first for the directory (a test makes it small, to reach the
    /// second try).
    package static func absolutePath(_ path: String, firstCapacity: Int = 256) -> String {
        guard let first = path.utf8.first, first != UInt8(ascii: "/") else { return path }
        let tail = path.utf8.count
        // Most directories fit 256 bytes; a longer one gets PATH_MAX.
        for capacity in [firstCapacity, Int(PATH_MAX) + 1] {
            let made: String?? = withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity + 1 + tail) { buffer in
                guard let base = buffer.baseAddress else { return .some(nil) }
                guard getcwd(base, capacity) != nil else { return errno == ERANGE ? nil : .some(nil) }
                var length = strlen(base)
                return buffer.withMemoryRebound(to: UInt8.self) { bytes in
                    if length == 0 || bytes[length - 1] != UInt8(ascii: "/") {
                        bytes[length] = UInt8(ascii: "/")
                        length += 1
                    }
                    for byte in path.utf8 {
                        bytes[length] = byte
                        length += 1
                    }
                    return .some(String(decoding: UnsafeBufferPointer(rebasing: bytes[..<length]), as: UTF8.self))
                }
            }
            if let made { return made ?? path }
        }
        return path
    }

    /// Ignores SIGPIPE so that a closed output pipe is an EPIPE error, not a silent death.
    package static func ignoreBrokenPipes() { signal(SIGPIPE, SIG_IGN) }

    /// Ends the process with `status`.
    package static func exit(_ status: Int32) -> Never { cExit(status) }

    /// The process id, to name temporary files.
    package static var processID: Int32 { getpid() }

    /// Seconds since 1970-01-01 UTC.
    package static var unixTime: Int64 { Int64(time(nil)) }
}

/// The standard output streams.
package enum StandardStream: Int32 {
    case output = 1
    case error = 2
}

/// An open file. `close()` reports a failed close; a file dropped unclosed (on an error path) is
/// closed quietly.
package final class FileDescriptor {
    private var rawValue: Int32
    package let path: String

    package init(rawValue: Int32, path: String) {
        self.rawValue = rawValue
        self.path = path
    }

    /// Writes all of `bytes`, retrying short writes and EINTR.
    package func writeAll(_ bytes: UnsafeRawBufferPointer) throws(MMSearchError) {
        var done = 0
        while done < bytes.count {
            let n = write(rawValue, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw MMSearchError.io(path: path, operation: "write", errno: errno)
            }
            done += n
        }
    }

    /// Reads everything from the current position to the end of the file.
    package func readToEnd() throws(MMSearchError) -> [UInt8] {
        var result: [UInt8] = []
        var info = stat()
        if fstat(rawValue, &info) == 0, info.st_size > 0 { result.reserveCapacity(Int(info.st_size)) }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = chunk.withUnsafeMutableBytes { cRead(rawValue, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw MMSearchError.io(path: path, operation: "read", errno: errno)
            }
            if n == 0 { return result }
            result.append(contentsOf: chunk[0..<n])
        }
    }

    /// Reads up to `buffer.count` bytes from the current position into `buffer`: how many it read,
    /// 0 at the end of the file.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(MMSearchError) -> Int {
        while true {
            let n = cRead(rawValue, buffer.baseAddress!, buffer.count)
            if n >= 0 { return n }
            if errno != EINTR { throw MMSearchError.io(path: path, operation: "read", errno: errno) }
        }
    }

    /// Flushes the file's data to the disk.
    package func sync() throws(MMSearchError) {
        guard fsync(rawValue) == 0 else { throw MMSearchError.io(path: path, operation: "fsync", errno: errno) }
    }

    package func close() throws(MMSearchError) {
        let fd = rawValue
        rawValue = -1
        guard fd < 0 || cClose(fd) == 0 else { throw MMSearchError.io(path: path, operation: "close", errno: errno) }
    }

    deinit { if rawValue >= 0 { _ = cClose(rawValue) } }
}

/// Path arithmetic on plain strings (no Foundation URL needed).
package enum FilePaths {
    /// "a/b/c.mms" gives "a/b"; "c.mms" gives ".".
    package static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// "a/b/c.mms" gives "c.mms".
    package static func fileName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}

@inline(__always) private func cSin(_ x: Double) -> Double { sin(x) }
@inline(__always) private func cCos(_ x: Double) -> Double { cos(x) }
@inline(__always) private func cAsin(_ x: Double) -> Double { asin(x) }
@inline(__always) private func cPow(_ x: Double, _ y: Double) -> Double { pow(x, y) }
@inline(__always) private func cExp2(_ x: Double) -> Double { exp2(x) }
@inline(__always) private func cLog2(_ x: Double) -> Double { log2(x) }

/// The C library's math functions that distances need, wrapped once: the same libm that rank.py's
/// `math` module calls, so both compute the same doubles.
package enum CMath {
    @inline(__always) package static func sin(_ x: Double) -> Double { cSin(x) }
    @inline(__always) package static func cos(_ x: Double) -> Double { cCos(x) }
    @inline(__always) package static func asin(_ x: Double) -> Double { cAsin(x) }
    @inline(__always) package static func pow(_ x: Double, _ y: Double) -> Double { cPow(x, y) }
    @inline(__always) package static func exp2(_ x: Double) -> Double { cExp2(x) }
    @inline(__always) package static func log2(_ x: Double) -> Double { cLog2(x) }
}
