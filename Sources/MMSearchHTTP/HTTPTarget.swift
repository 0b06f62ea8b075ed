/// A request target split into its path and its query parameters, percent-decoded (and `+` as a
/// space in the query, as HTML forms send it).
public struct HTTPTarget: Sendable, Equatable {
    /// The decoded path, e.g. "/cities/2643743,5128581".
    public var path: String
    /// The parameters in the order given; a name given twice appears twice (`value(_:)` takes the last).
    public var parameters: [(name: String, value: String)]

    /// Why a target cannot be decoded, naming the parameter (or the path).
    public struct DecodingError: Error, Equatable {
        public var message: String
    }

    public init(_ target: String) throws(DecodingError) {
        let bytes = Array(target.utf8)
        let questionMark = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.count
        guard let path = Self.decode(bytes[..<questionMark], plusIsSpace: false) else {
            throw DecodingError(message: "the path has bad percent-encoding or is not UTF-8")
        }
        self.path = path
        parameters = []
        guard questionMark < bytes.count else { return }
        for pair in bytes[(questionMark + 1)...].split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
            guard let name = Self.decode(pair[..<equals], plusIsSpace: true) else {
                throw DecodingError(message: "a parameter name has bad percent-encoding or is not UTF-8")
            }
            let valueBytes = equals < pair.endIndex ? pair[(equals + 1)...] : pair[pair.endIndex...]
            guard let value = Self.decode(valueBytes, plusIsSpace: true) else {
                throw DecodingError(message: "parameter \(name): bad percent-encoding or not UTF-8")
            }
            parameters.append((name, value))
        }
    }

    /// The last value given for `name`.
    public func value(_ name: String) -> String? { parameters.last { $0.name == name }?.value }

    public static func == (left: HTTPTarget, right: HTTPTarget) -> Bool {
        left.path == right.path && left.parameters.map(\.name) == right.parameters.map(\.name)
            && left.parameters.map(\.value) == right.parameters.map(\.value)
    }

    /// Percent-decodes `bytes`; nil for a `%` not followed by two hex digits, or bytes that are not UTF-8.
    static func decode(_ bytes: ArraySlice<UInt8>, plusIsSpace: Bool) -> String? {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex,
                      let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else { return nil }
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(plusIsSpace && byte == UInt8(ascii: "+") ? 0x20 : byte)
                index += 1
            }
        }
        return String(validating: decoded, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A") ... UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// An answer: status, header fields and body. The server adds Content-Length and Connection.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public init(status: Int, headers: [(name: String, value: String)] = [], text: String) {
        self.init(status: status, headers: headers, body: Array(text.utf8))
    }

    /// The head and, unless `omitsBody` (a HEAD request), the body, as sent.
    func serialized(keepAlive: Bool, minorVersion: Int, omitsBody: Bool) -> [UInt8] {
        // A server answers with its own version, 1.1, whatever the client's (RFC 9110 §6.2).
        var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for header in headers { head += "\(header.name): \(header.value)\r\n" }
        head += "Content-Length: \(body.count)\r\n"
        if !keepAlive {
            head += "Connection: close\r\n"
        } else if minorVersion == 0 {
            head += "Connection: keep-alive\r\n"
        }
        head += "\r\n"
        var bytes = Array(head.utf8)
        if !omitsBody { bytes += body }
        return bytes
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status \(status)"
        }
    }
}
