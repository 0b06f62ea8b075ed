import Foundation
import MMSearchTestSupport
import Testing

/// `mmsearch serve` run as a child process on 127.0.0.1 and a free port; `stop()` (or the end of the
/// test, through `defer`) ends it. Standard error goes to a file the test can read.
final class ServeProcess {
    let process = Process()
    let port: UInt16
    let errorLog: String
    /// The line printed when ready.
    let readyLine: String

    /// Starts serving `index` with `options`, and waits at most `timeout` seconds for "listening on".
    init(index: String, options: [String] = [], errorLog: String, timeout: Double = 10) throws {
        self.errorLog = errorLog
        process.executableURL = URL(fileURLWithPath: MMSearchProcess.executable)
        process.arguments = ["serve", "--index", index, "--listen", "127.0.0.1:0"] + options
        let output = Pipe()
        process.standardOutput = output
        _ = FileManager.default.createFile(atPath: errorLog, contents: nil)
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorLog))
        try process.run()
        let line = try Self.readLine(output.fileHandleForReading.fileDescriptor, timeout: timeout)
        readyLine = line
        guard let range = line.range(of: "127.0.0.1:"), let port = UInt16(line[range.upperBound...].prefix { $0.isNumber }) else {
            process.terminate()
            throw ServeTestError("no port in the ready line \(line.debugDescription)")
        }
        self.port = port
    }

    /// One line from `fd`, waiting at most `timeout` seconds.
    static func readLine(_ fd: Int32, timeout: Double) throws -> String {
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        while !bytes.contains(0x0A) {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let remaining = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
            guard remaining > 0, poll(&poller, 1, remaining) == 1 else {
                throw ServeTestError("no line within \(timeout) s (so far: \(String(decoding: bytes, as: UTF8.self).debugDescription))")
            }
            var byte: UInt8 = 0
            guard read(fd, &byte, 1) == 1 else { throw ServeTestError("the server's output ended: \(String(decoding: bytes, as: UTF8.self).debugDescription)") }
            bytes.append(byte)
        }
        return String(decoding: bytes.dropLast(), as: UTF8.self)
    }

    var log: String { (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? "" }

    /// How many times `text` is in the log, waiting at most `seconds` for it to be there `count` times:
    /// the server writes its log line after the change it tells of, so a request can see the change first.
    func logCount(of text: String, atLeast count: Int, within seconds: Double = 2) -> Int {
        let deadline = Date().addingTimeInterval(seconds)
        var found = log.components(separatedBy: text).count - 1
        while found < count, Date() < deadline {
            usleep(20_000)
            found = log.components(separatedBy: text).count - 1
        }
        return found
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Sends `signal` and waits at most `timeout` seconds: the exit status and the seconds it took (nil
    /// when it did not end, after which it is killed).
    @discardableResult
    func stop(_ number: Int32 = SIGTERM, timeout: Double = 5) -> (status: Int32, seconds: Double)? {
        guard process.isRunning else { return (process.terminationStatus, 0) }
        let started = Date()
        signal(number)
        while process.isRunning, Date().timeIntervalSince(started) < timeout { usleep(5_000) }
        guard !process.isRunning else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return (process.terminationStatus, Date().timeIntervalSince(started))
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

struct ServeTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A response as read off the wire.
struct RawResponse {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
    func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
    var json: [String: Any]? { try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] }
}

/// A TCP connection to 127.0.0.1 that sends raw bytes and reads raw responses, every read bounded
/// by `timeout`.
final class RawConnection {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(port: UInt16, timeout: Double = 5) throws {
        #if canImport(Glibc)
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw ServeTestError("socket: errno \(errno)") }
        var time = timeval(tv_sec: Int(timeout), tv_usec: .init((timeout - Double(Int(timeout))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw ServeTestError("connect to 127.0.0.1:\(port): errno \(errno)")
        }
    }

    deinit { close(fd) }

    // A send to a connection the server has closed is an error, not SIGPIPE (Apple systems lack
    // MSG_NOSIGNAL; SIGPIPE is ignored in the test process there, as MMSearchProcess does).
    #if os(Linux)
    static let noSignal = Int32(MSG_NOSIGNAL)
    #else
    static let noSignal: Int32 = { _ = MMSearchProcess.ignoreBrokenPipes; return 0 }()
    #endif

    /// Sends all of `bytes`; false when the server has closed the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Foundation.send(fd, $0.baseAddress! + done, bytes.count - done, Self.noSignal) }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// More bytes into the buffer; false at the end of the stream (or an error or the timeout).
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
        guard n > 0 else { return false }
        buffer += chunk[0 ..< n]
        return true
    }

    /// The next response; `head`: the response to a HEAD request (no body, whatever Content-Length says).
    func readResponse(head: Bool = false) throws -> RawResponse {
        var headEnd: Int?
        while true {
            if let end = buffer.firstRange(of: Array("\r\n\r\n".utf8)) { headEnd = end.upperBound; break }
            guard fill() else { throw ServeTestError("the connection ended before a whole response head: \(String(decoding: buffer, as: UTF8.self).debugDescription)") }
        }
        let lines = String(decoding: buffer[0 ..< headEnd! - 4], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0] == "HTTP/1.1", let status = Int(statusParts[1]) else { throw ServeTestError("bad status line \(lines[0])") }
        let headers = lines.dropFirst().map { line -> (name: String, value: String) in
            let colon = line.firstIndex(of: ":")!
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let length = head ? 0 : Int(headers.first { $0.name.lowercased() == "content-length" }?.value ?? "0")!
        while buffer.count < headEnd! + length {
            guard fill() else { throw ServeTestError("the connection ended inside a body") }
        }
        let body = Array(buffer[headEnd! ..< headEnd! + length])
        buffer.removeFirst(headEnd! + length)
        return RawResponse(status: status, headers: headers, body: body)
    }

    /// Whether the server closes the connection within the read timeout, with nothing more sent.
    func isClosedByServer() -> Bool {
        buffer.isEmpty && !fill() && buffer.isEmpty
    }

    /// Everything until the server closes the connection (or the timeout).
    func readToEnd() -> [UInt8] {
        while fill() {}
        defer { buffer = [] }
        return buffer
    }
}

extension ServeProcess {
    /// One GET (or `method`) on a new connection.
    func request(_ target: String, method: String = "GET") throws -> RawResponse {
        let connection = try RawConnection(port: port)
        connection.send("\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        return try connection.readResponse(head: method == "HEAD")
    }
}

/// Raises this process's open-file limit to its hard maximum (tests that open thousands of connections).
func raiseOpenFileLimit() -> Int {
    var limit = rlimit()
    getrlimit(RLIMIT_NOFILE_VALUE, &limit)
    limit.rlim_cur = limit.rlim_max
    setrlimit(RLIMIT_NOFILE_VALUE, &limit)
    getrlimit(RLIMIT_NOFILE_VALUE, &limit)
    return Int(limit.rlim_cur)
}

#if canImport(Glibc)
private let RLIMIT_NOFILE_VALUE = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
#else
private let RLIMIT_NOFILE_VALUE = RLIMIT_NOFILE
#endif
