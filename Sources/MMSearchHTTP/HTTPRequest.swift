/// One parsed HTTP/1.x request head (RFC 9112): what the server needs to answer it, nothing more.
public struct HTTPRequest: Sendable, Equatable {
    /// The method as sent, e.g. "GET" (methods are case-sensitive).
    public var method: String
    /// The request target as sent (origin form: "/search?q=M%C3%BCnchen").
    public var target: String
    /// 0 for HTTP/1.0, 1 for HTTP/1.1.
    public var minorVersion: Int
    /// Header fields in the order sent; names as sent (compare them with `header(_:)`).
    public var headers: [(name: String, value: String)]
    /// Whether the connection stays open after the answer: HTTP/1.1 unless `Connection: close`,
    /// HTTP/1.0 only with `Connection: keep-alive`.
    public var keepAlive: Bool

    public init(method: String, target: String, minorVersion: Int, headers: [(name: String, value: String)], keepAlive: Bool) {
        self.method = method
        self.target = target
        self.minorVersion = minorVersion
        self.headers = headers
        self.keepAlive = keepAlive
    }

    /// The value of the first header field named `name` (case-insensitively).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    public static func == (left: HTTPRequest, right: HTTPRequest) -> Bool {
        left.method == right.method && left.target == right.target && left.minorVersion == right.minorVersion
            && left.keepAlive == right.keepAlive && left.headers.map(\.name) == right.headers.map(\.name)
            && left.headers.map(\.value) == right.headers.map(\.value)
    }
}

/// A request the parser refuses: the status to answer, and why. The connection is closed after the
/// answer, since where the next request would start is unknown.
public struct HTTPRequestError: Error, Sendable, Equatable {
    public var status: Int
    public var message: String
    public init(_ status: Int, _ message: String) {
        self.status = status
        self.message = message
    }
}

/// Parses request heads from the bytes a connection has received so far. Pure (no I/O), so that it can
/// be fuzzed and tested alone.
///
/// Strict where that keeps requests unambiguous (RFC 9112): a request line of three parts separated by
/// single spaces, a target of visible ASCII (origin form, or absolute form made its path), a token method, `HTTP/1.0` or `HTTP/1.1`,
/// header names that are tokens, no NUL or bare CR, no obsolete line folding, no Transfer-Encoding,
/// one Content-Length at most (its body is skipped), Host required in HTTP/1.1. A line may end with a
/// bare LF (RFC 9112 §2.2 allows a server to accept one).
public enum HTTPRequestParser {
    /// The longest request line, and the longest header section, accepted: 414 and 431 beyond.
    public static let requestLineLimit = 8 * 1024
    public static let headerLimit = 8 * 1024
    /// The longest body a request may carry (skipped unread: GET and HEAD take none): 413 beyond.
    public static let bodyLimit = 8 * 1024

    public enum Outcome: Equatable {
        /// More bytes are needed.
        case incomplete
        /// A whole request, taking the first `length` bytes (head and body).
        case request(HTTPRequest, length: Int)
        case invalid(HTTPRequestError)
    }

    public static func parse(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        let bytes = bytes.bindMemory(to: UInt8.self)
        // The request line.
        guard let lineEnd = lineEnd(in: bytes, from: 0, limit: requestLineLimit) else {
            if bytes.count > requestLineLimit { return .invalid(HTTPRequestError(414, "the request line is longer than \(requestLineLimit) bytes")) }
            return firstInvalidByte(in: bytes, from: 0).map { .invalid($0) } ?? .incomplete
        }
        let requestLine: (method: String, target: String, minorVersion: Int)
        switch parseRequestLine(bytes[0 ..< lineEnd.contentEnd]) {
        case .success(let line): requestLine = line
        case .failure(let error): return .invalid(error)
        }
        // The header fields, up to an empty line.
        var headers: [(name: String, value: String)] = []
        var position = lineEnd.next
        while true {
            let headerLimitEnd = lineEnd.next + headerLimit
            guard let end = Self.lineEnd(in: bytes, from: position, limit: headerLimitEnd - position) else {
                if bytes.count >= headerLimitEnd { return .invalid(HTTPRequestError(431, "the header fields are longer than \(headerLimit) bytes")) }
                return firstInvalidByte(in: bytes, from: position).map { .invalid($0) } ?? .incomplete
            }
            if end.contentEnd == position {
                position = end.next
                break
            }
            switch parseHeader(bytes[position ..< end.contentEnd]) {
            case .success(let header): headers.append(header)
            case .failure(let error): return .invalid(error)
            }
            position = end.next
        }
        // What the fields mean for this server.
        var keepAlive = requestLine.minorVersion == 1
        var bodyLength = 0
        var hosts = 0
        var contentLengths = 0
        for header in headers {
            switch header.name.lowercased() {
            case "connection":
                let options = header.value.lowercased().split(separator: ",").map { $0.trimmingSpaces() }
                if options.contains("close") { keepAlive = false } else if options.contains("keep-alive") { keepAlive = true }
            case "transfer-encoding":
                return .invalid(HTTPRequestError(501, "Transfer-Encoding is not supported (GET and HEAD take no body)"))
            case "content-length":
                contentLengths += 1
                guard contentLengths == 1, let length = Int(header.value), length >= 0, header.value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                    return .invalid(HTTPRequestError(400, "bad Content-Length"))
                }
                guard length <= bodyLimit else { return .invalid(HTTPRequestError(413, "the body is longer than \(bodyLimit) bytes")) }
                bodyLength = length
            case "host":
                hosts += 1
            default:
                break
            }
        }
        if requestLine.minorVersion == 1, hosts != 1 {
            return .invalid(HTTPRequestError(400, hosts == 0 ? "an HTTP/1.1 request needs a Host header" : "more than one Host header"))
        }
        guard bytes.count - position >= bodyLength else { return .incomplete }
        let request = HTTPRequest(method: requestLine.method, target: requestLine.target, minorVersion: requestLine.minorVersion,
                                  headers: headers, keepAlive: keepAlive)
        return .request(request, length: position + bodyLength)
    }

    /// Where the line starting at `start` ends: the index of its CR or LF, and the index after its LF;
    /// nil when no LF comes within `limit` bytes.
    private static func lineEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, limit: Int) -> (contentEnd: Int, next: Int)? {
        var index = start
        let end = min(bytes.count, start + limit)
        while index < end {
            if bytes[index] == 0x0A {
                let contentEnd = index > start && bytes[index - 1] == 0x0D ? index - 1 : index
                return (contentEnd, index + 1)
            }
            index += 1
        }
        return nil
    }

    /// A NUL or a CR not followed by LF in what has arrived of an unfinished line: refused at once,
    /// rather than waiting for more of a request that cannot be valid.
    private static func firstInvalidByte(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> HTTPRequestError? {
        var index = start
        while index < bytes.count {
            if bytes[index] == 0 { return HTTPRequestError(400, "a NUL byte in the request head") }
            if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] != 0x0A { return HTTPRequestError(400, "a CR not followed by LF") }
            index += 1
        }
        return nil
    }

    private static func parseRequestLine(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> Result<(method: String, target: String, minorVersion: Int), HTTPRequestError> {
        let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
            return .failure(HTTPRequestError(400, "a request line is METHOD TARGET HTTP/1.x, separated by single spaces"))
        }
        guard parts[0].allSatisfy(isTokenByte) else { return .failure(HTTPRequestError(400, "the method is not a token")) }
        guard parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return .failure(HTTPRequestError(400, "the request target holds a byte that is not visible ASCII (percent-encode it)"))
        }
        var target = parts[1]
        if target.first != UInt8(ascii: "/") {
            // The absolute form ("http://host/path?query"), which a server must accept too (RFC 9112
            // §3.2.2): its path and query are the target.
            guard let path = absoluteFormPath(target) else {
                return .failure(HTTPRequestError(400, "the request target must be a path starting with / or an http URL"))
            }
            target = path
        }
        let version = Array(parts[2])
        guard version.count == 8, version.starts(with: Array("HTTP/1.".utf8)), version[7] == 0x30 || version[7] == 0x31 else {
            let isHTTP = version.starts(with: Array("HTTP/".utf8))
            return .failure(HTTPRequestError(isHTTP ? 505 : 400, isHTTP ? "only HTTP/1.0 and HTTP/1.1 are supported" : "the request line does not end with an HTTP version"))
        }
        let path = target.first == UInt8(ascii: "/") ? String(decoding: target, as: UTF8.self) : "/" + String(decoding: target, as: UTF8.self)
        return .success((String(decoding: parts[0], as: UTF8.self), path, Int(version[7] - 0x30)))
    }

    /// The path and query of an absolute-form target (`http://host:port/path?query`, `https://…`),
    /// empty when it has none; nil when the target is not one.
    private static func absoluteFormPath(_ target: Slice<UnsafeBufferPointer<UInt8>>) -> Slice<UnsafeBufferPointer<UInt8>>? {
        let lowered = target.prefix(8).map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        let schemeLength: Int
        if lowered.starts(with: Array("http://".utf8)) { schemeLength = 7 }
        else if lowered.starts(with: Array("https://".utf8)) { schemeLength = 8 }
        else { return nil }
        let authorityStart = target.index(target.startIndex, offsetBy: schemeLength)
        guard authorityStart < target.endIndex, target[authorityStart] != UInt8(ascii: "/") else { return nil }
        let pathStart = target[authorityStart...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? target.endIndex
        return target[pathStart...]
    }

    private static func parseHeader(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> Result<(name: String, value: String), HTTPRequestError> {
        guard let first = line.first, first != 0x20, first != 0x09 else {
            return .failure(HTTPRequestError(400, "obsolete line folding in the header fields"))
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return .failure(HTTPRequestError(400, "a header line without a colon")) }
        let name = line[line.startIndex ..< colon]
        guard !name.isEmpty, name.allSatisfy(isTokenByte) else { return .failure(HTTPRequestError(400, "a header name that is not a token")) }
        var value = line[(colon + 1)...]
        while let byte = value.first, byte == 0x20 || byte == 0x09 { value = value.dropFirst() }
        while let byte = value.last, byte == 0x20 || byte == 0x09 { value = value.dropLast() }
        // Field values: visible characters, spaces and tabs, and obs-text (bytes from 0x80).
        guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
            return .failure(HTTPRequestError(400, "a control character in a header value"))
        }
        return .success((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
    }

    /// tchar of RFC 9110 §5.6.2.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a") ... UInt8(ascii: "z"), UInt8(ascii: "A") ... UInt8(ascii: "Z"), UInt8(ascii: "0") ... UInt8(ascii: "9"): true
        default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}

extension Substring {
    func trimmingSpaces() -> Substring {
        var text = self
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return text
    }
}
