import MMSearchHTTP
import Testing

/// The request parser alone, byte by byte: what it accepts, what it refuses with which status, and
/// that it never takes more than one request's bytes.
@Suite struct RequestParserTests {
    static func parse(_ text: String) -> HTTPRequestParser.Outcome {
        parse(Array(text.utf8))
    }

    static func parse(_ bytes: [UInt8]) -> HTTPRequestParser.Outcome {
        bytes.withUnsafeBytes { HTTPRequestParser.parse($0) }
    }

    static func status(_ text: String) -> Int? {
        if case .invalid(let error) = parse(text) { return error.status }
        return nil
    }

    @Test func aRequestTakesExactlyItsBytes() throws {
        let first = "GET /search?q=a HTTP/1.1\r\nHost: x\r\nAccept: */*\r\n\r\n"
        guard case .request(let request, let length) = Self.parse(first + "GET /health HTTP/1.1\r\n") else {
            Issue.record("not parsed")
            return
        }
        #expect(length == first.utf8.count)
        #expect(request.method == "GET" && request.target == "/search?q=a" && request.minorVersion == 1 && request.keepAlive)
        #expect(request.header("accept") == "*/*" && request.header("HOST") == "x")
        // A body (Content-Length) is part of the request, skipped.
        let withBody = "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
        #expect(Self.parse(withBody) == .request(HTTPRequest(method: "GET", target: "/", minorVersion: 1, headers: [("Host", "x"), ("Content-Length", "3")], keepAlive: true), length: withBody.utf8.count))
        #expect(Self.parse("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nab") == .incomplete)
    }

    /// The absolute form, which a server must accept (RFC 9112 §3.2.2), stands for its path and query.
    @Test func absoluteFormTargetsGiveTheirPath() {
        for (target, path) in [("http://127.0.0.1:8080/search?q=a", "/search?q=a"), ("HTTPS://x", "/"), ("http://x?q=b", "/?q=b"),
                               ("http://user@x:1/cities/1", "/cities/1")] {
            if case .request(let request, _) = Self.parse("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n") {
                #expect(request.target == path, "\(target)")
            } else {
                Issue.record("\(target) was refused")
            }
        }
    }

    @Test func everyPrefixOfARequestIsIncomplete() {
        let text = Array("GET /search?q=m%C3%BCnchen HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n".utf8)
        for end in 0 ..< text.count {
            #expect(Self.parse(Array(text[0 ..< end])) == .incomplete, "\(end) bytes")
        }
    }

    @Test func keepAliveFollowsTheVersionAndConnection() {
        func keepAlive(_ head: String) -> Bool? {
            if case .request(let request, _) = Self.parse(head + "\r\n") { return request.keepAlive }
            return nil
        }
        #expect(keepAlive("GET / HTTP/1.1\r\nHost: x\r\n") == true)
        #expect(keepAlive("GET / HTTP/1.1\r\nHost: x\r\nConnection: Close\r\n") == false)
        #expect(keepAlive("GET / HTTP/1.0\r\n") == false)
        #expect(keepAlive("GET / HTTP/1.0\r\nConnection: keep-alive\r\n") == true)
        // A bare LF ends a line too (RFC 9112 §2.2).
        #expect(keepAlive("GET / HTTP/1.1\nHost: x\n") == true)
    }

    @Test func malformedRequestsAreRefusedWithTheirStatus() {
        let cases: [(String, Int)] = [
            ("GET  / HTTP/1.1\r\nHost: x\r\n\r\n", 400),              // two spaces
            ("GET /\r\n\r\n", 400),                                   // HTTP/0.9
            ("GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505),
            ("GET / FTP/1.1\r\nHost: x\r\n\r\n", 400),
            ("G(T / HTTP/1.1\r\nHost: x\r\n\r\n", 400),               // the method is not a token
            ("GET x/ HTTP/1.1\r\nHost: x\r\n\r\n", 400),              // neither origin nor absolute form
            ("GET http:/x HTTP/1.1\r\nHost: x\r\n\r\n", 400),
            ("GET ftp://x/ HTTP/1.1\r\nHost: x\r\n\r\n", 400),
            ("GET http:/// HTTP/1.1\r\nHost: x\r\n\r\n", 400),
            ("GET /a\u{7F} HTTP/1.1\r\nHost: x\r\n\r\n", 400),
            ("GET /ü HTTP/1.1\r\nHost: x\r\n\r\n", 400),              // raw UTF-8 in the target
            ("GET / HTTP/1.1\r\n\r\n", 400),                          // no Host
            ("GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost x\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nBad Name: x\r\nHost: x\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: x\u{1}y\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx", 400),
            ("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999\r\n\r\n", 413),
            ("GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n", 501),
            ("GET / HTTP/1.1\r\nHost: \0\r\n\r\n", 400),
            ("GET /\0", 400),                                         // refused before the line ends
            ("GET /\rX", 400),                                        // a bare CR
        ]
        for (text, status) in cases {
            #expect(Self.status(text) == status, "\(text.debugDescription)")
        }
    }

    @Test func limitsGive414And431() {
        let longTarget = "GET /" + String(repeating: "a", count: HTTPRequestParser.requestLineLimit) + " HTTP/1.1\r\nHost: x\r\n\r\n"
        #expect(Self.status(longTarget) == 414)
        // Without its end yet: refused as soon as the limit is passed.
        #expect(Self.status("GET /" + String(repeating: "a", count: HTTPRequestParser.requestLineLimit)) == 414)
        let bigHeader = "GET / HTTP/1.1\r\nHost: x\r\nX: " + String(repeating: "b", count: HTTPRequestParser.headerLimit) + "\r\n\r\n"
        #expect(Self.status(bigHeader) == 431)
        let manyHeaders = "GET / HTTP/1.1\r\nHost: x\r\n" + String(repeating: "X-A: b\r\n", count: 2000)
        #expect(Self.status(manyHeaders) == 431)
        // Just under the limits: fine.
        let longest = "GET /" + String(repeating: "a", count: HTTPRequestParser.requestLineLimit - 16) + " HTTP/1.1\r\nHost: x\r\n\r\n"
        if case .request = Self.parse(longest) {} else { Issue.record("a request line under the limit was refused") }
    }

    @Test func targetsArePercentDecoded() throws {
        let target = try HTTPTarget("/search?q=M%C3%BCnchen+am&limit=5&flag&=x&q2=a%2Bb%26c")
        #expect(target.path == "/search")
        #expect(target.value("q") == "München am")
        #expect(target.value("limit") == "5")
        #expect(target.value("flag") == "")
        #expect(target.value("q2") == "a+b&c")
        #expect(try HTTPTarget("/cities/1%2C2").path == "/cities/1,2")
        #expect(try HTTPTarget("/search?q=a&q=b").value("q") == "b")
        for bad in ["/search?q=%", "/search?q=%4", "/search?q=%zz", "/search?q=%C3", "/search?q=%FF", "/%C3(", "/search?q%ZZ=1"] {
            #expect(throws: HTTPTarget.DecodingError.self, "\(bad)") { try HTTPTarget(bad) }
        }
        let error = try #require(throws: HTTPTarget.DecodingError.self) { try HTTPTarget("/search?limit=1&q=%C3") }
        #expect(error.message.contains("parameter q"))
    }
}
