import Foundation
import MMSearchTestSupport
import Testing

/// `mmsearch serve` end to end: a child process on 127.0.0.1, a free port, raw sockets. Every wait is
/// bounded; every server is stopped at the end of its test.
@Suite struct ServeTests {
    static let fullTests = ProcessInfo.processInfo.environment["MMSEARCH_FULL_TESTS"] == "1"

    static func city(_ id: Int, _ name: String, _ country: String, _ lat: String, _ lon: String) -> String {
        #"{"_id":\#(id),"name":"\#(name)","country":"\#(country)","coord":{"lon":\#(lon),"lat":\#(lat)}}"#
    }

    static let cities = [
        city(2867714, "München", "DE", "48.137428", "11.57549"),
        city(2659551, "Münchenstein", "CH", "47.513779", "7.62434"),
        city(2643743, "London", "GB", "51.50853", "-0.12574"),
        city(6058560, "London", "CA", "42.983391", "-81.23304"),
        city(2643736, "Londonderry", "GB", "54.997211", "-7.30917"),
        city(5391959, "San Francisco", "US", "37.774929", "-122.419418"),
        city(2988507, "Paris", "FR", "48.853409", "2.3488"),
        city(2657896, "Zürich", "CH", "47.366669", "8.55"),
        city(9000001, #"<b>x<\/b> \"quoted\""#, "XX", "1", "2"),
    ]

    /// A directory with `list.json` (the fixture cities and `extra`) and its index `cities.mms`.
    static func fixture(extra: [String] = []) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try build(cities + extra, to: directory.file("cities.mms"), in: directory)
        return directory
    }

    static func build(_ records: [String], to index: String, in directory: TemporaryDirectory) throws {
        let list = directory.file("list-\(records.count).json")
        try Data(("[" + records.joined(separator: ",\n") + "]").utf8).write(to: URL(fileURLWithPath: list))
        let build = try MMSearchProcess.run(["build", list, "-o", index])
        #expect(build.status == 0, "build failed: \(build.error)")
    }

    static func serve(_ directory: TemporaryDirectory, _ options: [String] = []) throws -> ServeProcess {
        try ServeProcess(index: directory.file("cities.mms"), options: options, errorLog: directory.file("serve-\(UUID().uuidString).log"))
    }

    @Test func searchAnswersAreQueryJSONByte_for_byte() throws {
        let directory = try Self.fixture()
        defer { directory.remove() }
        let server = try Self.serve(directory)
        defer { server.stop() }
        #expect(server.readyLine == "listening on http://127.0.0.1:\(server.port) (cities.mms: 9 cities)")
        let cases: [(String, [String])] = [
            ("q=l", ["l"]),
            ("q=M%C3%BCnchen", ["München"]),
            ("q=m%c3%bcnch", ["münch"]),
            ("q=san+f", ["san f"]),
            ("q=san%20f&limit=1", ["--limit", "1", "san f"]),
            ("q=l&limit=1&offset=1", ["--limit", "1", "--offset", "1", "l"]),
            ("q=l&limit=0", ["--limit", "0", "l"]),
            ("q=l&offset=99", ["--offset", "99", "l"]),
            ("q=francisco&match=name", ["--match", "name", "francisco"]),
            ("q=l&order=name&match=words", ["--order", "name", "l"]),
            ("q=", [""]),
            ("q=%3Cb%3E", ["<b>"]),
            ("q=l&typos=off", ["l"]),
            ("lang=de&q=z&unknown=1", ["z"]),
        ]
        for (parameters, arguments) in cases {
            let response = try server.request("/search?" + parameters)
            let expected = try MMSearchProcess.run(["query", "--index", directory.file("cities.mms"), "--json"] + arguments)
            #expect(response.status == 200, "\(parameters): \(response.text)")
            #expect(response.text == expected.output, "\(parameters)")
            #expect(response.header("Content-Type") == "application/json; charset=utf-8")
            #expect(response.header("Content-Length") == String(response.body.count))
            #expect(response.header("Access-Control-Allow-Origin") == "*")
            #expect(response.header("Cache-Control") == "public, max-age=60")
        }
        // The name with markup comes back as JSON text.
        let markup = try #require(server.request("/search?q=%3Cb").json)
        let first = try #require((markup["results"] as? [[String: Any]])?.first)
        #expect(first["name"] as? String == #"<b>x</b> "quoted""#)
    }

    /// Names that need escaping in JSON (quotes, backslashes, control characters, U+2028) come back
    /// whole from every JSON answer, escaped as `query --json` escapes them; plain ones unchanged.
    @Test func namesAreEscapedInEveryJSONAnswer() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let name = "a\"b\\c\u{1}d\u{2028}e\u{7F}f"
        let escaped = #"a\"b\\c\u0001d\u2028e\u007ff"#
        try Self.build([Self.city(1, #"a\"b\\c\u0001d\u2028e\u007ff"#, "US", "1", "2"), Self.city(2, "abc ü", "US", "1", "2")],
                       to: directory.file("cities.mms"), in: directory)
        let server = try Self.serve(directory)
        defer { server.stop() }
        for target in ["/search?q=a", "/api?q=a", "/cities/1,2"] {
            let response = try server.request(target)
            #expect(response.text.contains("\"" + escaped + "\"") && response.text.contains("\"abc ü\""), "\(target): \(response.text)")
            let parsed = try JSONSerialization.jsonObject(with: Data(response.body))
            #expect("\(parsed)".contains("abc"), "\(target)")
        }
        let results = try #require(try server.request("/search?q=a").json?["results"] as? [[String: Any]])
        #expect(Set(results.compactMap { $0["name"] as? String }) == [name, "abc ü"])
    }

    @Test func citiesHealthPhotonAndThePage() throws {
        let directory = try Self.fixture()
        defer { directory.remove() }
        let server = try Self.serve(directory, ["--cors", "https://maps.example"])
        defer { server.stop() }
        let index = directory.file("cities.mms")

        let cities = try server.request("/cities/2643743,2867714")
        #expect(cities.status == 200)
        #expect(cities.text == (try MMSearchProcess.run(["get", "--index", index, "--format", "json", "2643743", "2867714"])).output)
        #expect(cities.header("Access-Control-Allow-Origin") == "https://maps.example")
        let unknown = try server.request("/cities/2643743,1")
        #expect(unknown.status == 404 && unknown.json?["error"] as? String == "no city with id 1 in cities.mms")

        let health = try #require(try server.request("/health").json)
        #expect(health["status"] as? String == "ok" && health["cities"] as? Int == 9 && health["format_version"] as? Int != nil)
        #expect((health["built"] as? String)?.hasSuffix(" UTC") == true)
        #expect((health["sources"] as? [[String: Any]])?.first?["name"] as? String == "list-9.json")

        // Photon's shape: a FeatureCollection of Points, [lon, lat], Photon's property names.
        let photon = try #require(try server.request("/api?q=M%C3%BCnchen&limit=1&lang=en").json)
        #expect(photon["type"] as? String == "FeatureCollection")
        let features = try #require(photon["features"] as? [[String: Any]])
        #expect(features.count == 1)
        let feature = features[0]
        #expect(feature["type"] as? String == "Feature")
        let geometry = try #require(feature["geometry"] as? [String: Any])
        #expect(geometry["type"] as? String == "Point" && geometry["coordinates"] as? [Double] == [11.57549, 48.137428])
        let properties = try #require(feature["properties"] as? [String: Any])
        #expect(properties["name"] as? String == "München" && properties["countrycode"] as? String == "DE")
        #expect(properties["osm_key"] as? String == "place" && properties["osm_value"] as? String == "city" && properties["type"] as? String == "city")
        #expect(properties["id"] as? Int == 2867714)
        let fifteen = try #require(try server.request("/api?q=").json?["features"] as? [Any])
        #expect(fifteen.count == 9)

        let page = try server.request("/")
        #expect(page.status == 200 && page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.text.hasPrefix("<!doctype html>") && page.text.contains("search?limit=20&q="))
        #expect(!page.text.contains("<script src") && !page.text.contains("http://") && !page.text.contains("<link"))
    }

    @Test func badRequestsGetAJSONErrorNamingTheParameter() throws {
        let directory = try Self.fixture()
        defer { directory.remove() }
        let server = try Self.serve(directory)
        defer { server.stop() }
        let cases: [(String, Int, String)] = [
            ("/search", 400, "parameter q"),
            ("/search?q=a&limit=-1", 400, "parameter limit"),
            ("/search?q=a&limit=1001", 400, "parameter limit"),
            ("/search?q=a&limit=x", 400, "parameter limit"),
            ("/search?q=a&offset=1.5", 400, "parameter offset"),
            ("/search?q=a&match=exact", 400, "parameter match"),
            ("/search?q=a&order=random", 400, "parameter order"),
            ("/search?q=a&typos=maybe", 400, "parameter typos"),
            ("/search?q=" + String(repeating: "a", count: 1025), 400, "parameter q"),
            ("/search?q=%ZZ", 400, "parameter q"),
            ("/search?q=%FF", 400, "parameter q"),
            ("/search?q=%C3", 400, "parameter q"),
            ("/api?limit=2", 400, "parameter q"),
            ("/api?q=a&limit=many", 400, "parameter limit"),
            ("/cities/abc", 400, "an id"),
            ("/cities/", 400, "an id"),
            ("/cities/99999999999", 400, "an id"),
            ("/cities/7", 404, "no city with id 7"),
            ("/nothing", 404, "no such path"),
            ("/%FF", 400, "path"),
        ]
        for (target, status, message) in cases {
            let response = try server.request(target)
            #expect(response.status == status, "\(target): \(response.text)")
            #expect((response.json?["error"] as? String)?.contains(message) == true, "\(target): \(response.text)")
            #expect(response.header("Content-Type") == "application/json; charset=utf-8")
            #expect(response.header("Cache-Control") == "no-store")
        }
        // q of exactly 1 KiB is fine.
        #expect(try server.request("/search?q=" + String(repeating: "a", count: 1024)).status == 200)
        #expect(try server.request("/search?q=a").status == 200)
    }

    @Test func headAndOtherMethods() throws {
        let directory = try Self.fixture()
        defer { directory.remove() }
        let server = try Self.serve(directory)
        defer { server.stop() }
        for target in ["/search?q=l", "/", "/health", "/cities/2643743", "/api?q=p"] {
            let get = try server.request(target)
            // The HEAD answer is read as a head alone: were a body sent, the next read would find it.
            let connection = try RawConnection(port: server.port)
            connection.send("HEAD \(target) HTTP/1.1\r\nHost: x\r\n\r\nGET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let head = try connection.readResponse(head: true)
            #expect(head.status == 200 && head.body.isEmpty, "\(target)")
            #expect(head.header("Content-Length") == String(get.body.count), "\(target)")
            #expect(head.header("Content-Type") == get.header("Content-Type"), "\(target)")
            #expect(try connection.readResponse().json?["status"] as? String == "ok", "\(target): a body followed the HEAD answer")
        }
        for method in ["POST", "PUT", "DELETE", "OPTIONS", "PATCH", "get"] {
            let response = try server.request("/search?q=a", method: method)
            #expect(response.status == 405, "\(method)")
            #expect(response.header("Allow") == "GET, HEAD", "\(method)")
            #expect(response.json?["error"] != nil)
        }
    }

    @Test func keepAlivePipeliningAndHTTP10() throws {
        let directory = try Self.fixture()
        defer { directory.remove() }
        let server = try Self.serve(directory)
        defer { server.stop() }
        let expected = try ["l", "p", "z"].map { try server.request("/search?q=\($0)").text }

        // Three requests in one write: three answers, in order, and the connection stays open.
        let connection = try RawConnection(port: server.port)
        connection.send(["l", "p", "z"].map { "GET /search?q=\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
        for position in 0 ..< 3 {
            let response = try connection.readResponse()
            #expect(response.status == 200 && response.text == expected[position])
            #expect(response.header("Connection") == nil)
        }
        // A request sent a byte at a time on the same connection.
        for byte in Array("GET /search?q=p HTTP/1.1\r\nHost: x\r\n\r\n".utf8) { connection.send([byte]) }
        #expect(try connection.readResponse().text == expected[1])
        // The absolute form is the same request.
        connection.send("GET http://127.0.0.1:\(server.port)/search?q=l HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try connection.readResponse().text == expected[0])
        // Connection: close is answered, then the server closes.
        connection.send("GET /search?q=z HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let last = try connection.readResponse()
        #expect(last.text == expected[2] && last.header("Connection") == "close")
        #expect(connection.isClosedByServer())

        // HTTP/1.0: closed after the answer, unless it asks to keep the connection.
        let old = try RawConnection(port: server.port)
        old.send("GET /search?q=l HTTP/1.0\r\n\r\n")
        #expect(try old.readResponse().text == expected[0])
        #expect(old.isClosedByServer())
        let oldKeepAlive = try RawConnection(port: server.port)
        oldKeepAlive.send("GET /search?q=l HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /search?q=p HTTP/1.0\r\n\r\n")
        let kept = try oldKeepAlive.readResponse()
        #expect(kept.text == expected[0] && kept.header("Connection") == "keep-alive")
        #expect(try oldKeepAlive.readResponse().text == expected[1])
        #expect(oldKeepAlive.isClosedByServer())

        // Many pipelined requests (more answers than the server buffers at once), read only at the end.
        let many = try RawConnection(port: server.port)
        let count = 2000
        many.send(String(repeating: "GET / HTTP/1.1\r\nHost: x\r\n\r\n", count: count) + "GET /search?q=l HTTP/1.1\r\nHost: x\r\n\r\n")
        var pages = 0
        for _ in 0 ..< count where try many.readResponse().status == 200 { pages += 1 }
        #expect(pages == count)
        #expect(try many.readResponse().text == expected[0])
    }

    /// Each hostile client gets a 4xx or a closed connection, and a request made after it succeeds.
    @Test func hostileClientsGet4xxOrAClosedConnection() throws {
        let directory = try Self.fixture()
        defer { directory.remove() }
        let server = try Self.serve(directory)
        defer { server.stop() }
        let good = try server.request("/search?q=l").text
        let hostile: [(String, [UInt8], Int?)] = [
            ("a malformed request line", Array("GET/ HTTP/1.1\r\nHost: x\r\n\r\n".utf8), 400),
            ("a target of neither form", Array("GET search?q=a HTTP/1.1\r\nHost: x\r\n\r\n".utf8), 400),
            ("HTTP/2 preface", Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8), 400),
            ("HTTP/3.0", Array("GET / HTTP/3.0\r\nHost: x\r\n\r\n".utf8), 505),
            ("a long request line", Array(("GET /search?q=" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\nHost: x\r\n\r\n").utf8), 414),
            ("huge headers", Array(("GET / HTTP/1.1\r\nHost: x\r\n" + String(repeating: "X-Filler: " + String(repeating: "y", count: 100) + "\r\n", count: 200) + "\r\n").utf8), 431),
            ("a NUL in the target", Array("GET /search?q=a\0b HTTP/1.1\r\nHost: x\r\n\r\n".utf8), 400),
            ("a NUL in a header", Array("GET / HTTP/1.1\r\nHost: x\0\r\n\r\n".utf8), 400),
            ("raw UTF-8 in the target", Array("GET /search?q=München HTTP/1.1\r\nHost: x\r\n\r\n".utf8), 400),
            ("bytes that are not UTF-8", [0x47, 0x45, 0x54, 0x20, 0x2F, 0xFF, 0xFE, 0x20] + Array("HTTP/1.1\r\nHost: x\r\n\r\n".utf8), 400),
            ("no Host", Array("GET / HTTP/1.1\r\n\r\n".utf8), 400),
            ("chunked", Array("GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n".utf8), 501),
            ("random bytes", (0 ..< 4096).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }, nil),
            ("TLS client hello", [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03] + [UInt8](repeating: 0, count: 64), nil),
        ]
        for (name, bytes, status) in hostile {
            let connection = try RawConnection(port: server.port)
            connection.send(bytes)
            // Ends the stream for inputs that stay incomplete: the server then sees the client leave.
            if status == nil { shutdown(connection.fd, Int32(SHUT_WR)) }
            let answer = connection.readToEnd()
            let text = String(decoding: answer, as: UTF8.self)
            if let status {
                #expect(text.hasPrefix("HTTP/1.1 \(status) "), "\(name): \(text.prefix(200).debugDescription)")
                #expect(text.contains("Connection: close") && text.contains("{\"error\": "), "\(name)")
            } else {
                #expect(answer.isEmpty || text.hasPrefix("HTTP/1.1 4"), "\(name): \(text.prefix(200).debugDescription)")
            }
            #expect(try server.request("/search?q=l").text == good, "after \(name)")
        }

        // A good request, then garbage on the same connection: the answer, then a 400, then the close.
        let pipelined = try RawConnection(port: server.port)
        pipelined.send("GET /search?q=l HTTP/1.1\r\nHost: x\r\n\r\nGARBAGE\r\n\r\nGET /search?q=l HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try pipelined.readResponse().text == good)
        #expect(try pipelined.readResponse().status == 400)
        #expect(pipelined.isClosedByServer())

        // Clients that vanish mid-request, and mid-response (many answers asked, none read).
        for _ in 0 ..< 20 {
            let halfRequest = try RawConnection(port: server.port)
            halfRequest.send("GET /search?q=l HTTP/1.1\r\nHo")
            let greedy = try RawConnection(port: server.port)
            greedy.send(String(repeating: "GET / HTTP/1.1\r\nHost: x\r\n\r\n", count: 500))
            var linger = linger(l_onoff: 1, l_linger: 0) // close with a reset, as a crashed client does
            setsockopt(greedy.fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
        }
        #expect(try server.request("/search?q=l").text == good, "after vanishing clients")
        #expect(server.stop()?.status == 0)
    }

    /// A byte a second (slowloris) gets a 408 when the head is late; an idle connection is closed; both
    /// with the time limits made short for the test.
    @Test func slowAndIdleClientsAreClosed() throws {
        let directory = try Self.fixture()
        defer { directory.remove() }
        let server = try Self.serve(directory, ["--header-timeout", "1", "--idle-timeout", "1.5"])
        defer { server.stop() }
        let slow = try RawConnection(port: server.port, timeout: 4)
        let started = Date()
        var answer = ""
        for byte in Array("GET /search?q=l HTTP/1.1\r\nHost: x\r\n".utf8) {
            guard slow.send([byte]) else { break }
            usleep(100_000)
            if Date().timeIntervalSince(started) > 1.3 { break }
        }
        answer = String(decoding: slow.readToEnd(), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 408 "), "\(answer.debugDescription)")
        #expect(Date().timeIntervalSince(started) < 3.5)

        let idle = try RawConnection(port: server.port, timeout: 4)
        idle.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try idle.readResponse().status == 200)
        let idleStarted = Date()
        #expect(idle.isClosedByServer())
        let idleSeconds = Date().timeIntervalSince(idleStarted)
        #expect(idleSeconds > 1 && idleSeconds < 3.5, "closed after \(idleSeconds) s")
        #expect(try server.request("/search?q=l").status == 200)
    }

    /// Idle connections by the thousand cost no thread each: a request made while they are open is
    /// answered. (The full run opens 10,000 and reports the server's memory.)
    @Test func thousandsOfIdleConnections() throws {
        try Self.idleConnections(Self.fullTests ? 10_000 : 1_000)
    }

    static func idleConnections(_ count: Int) throws {
        let limit = raiseOpenFileLimit()
        try #require(limit > count + 100, "the open-file limit is \(limit)")
        let directory = try Self.fixture()
        defer { directory.remove() }
        let server = try Self.serve(directory)
        defer { server.stop() }
        let rssBefore = residentKilobytes(server.process.processIdentifier)
        var connections: [RawConnection] = []
        for _ in 0 ..< count { connections.append(try RawConnection(port: server.port)) }
        // A request on one in ten, so that each is accepted and known to the server.
        for connection in connections.enumerated() where connection.offset % 10 == 0 {
            connection.element.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        }
        for connection in connections.enumerated() where connection.offset % 10 == 0 {
            #expect(try connection.element.readResponse().status == 200)
        }
        #expect(try server.request("/search?q=l").status == 200)
        let rssAfter = residentKilobytes(server.process.processIdentifier)
        print("serve: \(count) idle connections: RSS \(rssBefore) kB before, \(rssAfter) kB with them open")
        connections.removeAll()
        #expect(try server.request("/search?q=l").status == 200)
    }

    static func residentKilobytes(_ pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// A new index renamed over the path is served within a second; one that does not open is refused
    /// with a log line, and the old one keeps serving.
    @Test func aNewIndexIsServedAndABadOneRefused() throws {
        let directory = try Self.fixture()
        defer { directory.remove() }
        let server = try Self.serve(directory)
        defer { server.stop() }
        let index = directory.file("cities.mms")
        try Self.build(Self.cities + [Self.city(9000002, "Lyon", "FR", "45.75", "4.85")], to: index, in: directory)
        #expect(try Self.waitForCities(10, server), "the new index was not served within a second")
        #expect(server.logCount(of: "now serving the new", atLeast: 1) == 1, "\(server.log)")

        // A damaged header, and another format version, renamed over the path: refused.
        let good = try Array(Data(contentsOf: URL(fileURLWithPath: index)))
        var refusals = 0
        for (name, damage) in [("garbage", { (bytes: inout [UInt8]) in bytes = Array("not an index".utf8) }),
                               ("version 99", { (bytes: inout [UInt8]) in bytes[8] = 99 })] {
            var bytes = good
            damage(&bytes)
            let temporary = directory.file("damaged.tmp")
            try Data(bytes).write(to: URL(fileURLWithPath: temporary))
            #expect(rename(temporary, index) == 0)
            refusals += 1
            #expect(server.logCount(of: "refused the new", atLeast: refusals) == refusals, "\(name): \(server.log)")
            #expect(try server.request("/health").json?["cities"] as? Int == 10, "\(name)")
            #expect(try server.request("/search?q=lyon").json?["count"] as? Int == 1, "\(name)")
        }
        usleep(600_000)
        #expect(server.log.components(separatedBy: "refused the new").count - 1 == 2, "a refused file is logged once: \(server.log)")
        #expect(server.log.contains("version"), "\(server.log)")
    }

    /// With checks rare, SIGHUP looks at the file at once.
    @Test func sighupChecksAtOnce() throws {
        let directory = try Self.fixture()
        defer { directory.remove() }
        let server = try Self.serve(directory, ["--watch-interval", "3600"])
        defer { server.stop() }
        try Self.build(Self.cities + [Self.city(9000002, "Lyon", "FR", "45.75", "4.85")], to: directory.file("cities.mms"), in: directory)
        usleep(300_000)
        #expect(try server.request("/health").json?["cities"] as? Int == 9, "swapped without SIGHUP")
        server.signal(SIGHUP)
        #expect(try Self.waitForCities(10, server, within: 0.5))
    }

    static func waitForCities(_ count: Int, _ server: ServeProcess, within seconds: Double = 1) throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if try server.request("/health").json?["cities"] as? Int == count { return true }
            usleep(10_000)
        } while Date() < deadline
        return false
    }

    /// SIGTERM and SIGINT: the server stops accepting, finishes, and exits 0 within a second, with
    /// keep-alive connections open.
    @Test(arguments: [SIGTERM, SIGINT])
    func signalsStopTheServerWithinASecond(signal: Int32) throws {
        let directory = try Self.fixture()
        defer { directory.remove() }
        let server = try Self.serve(directory)
        let open = try RawConnection(port: server.port)
        open.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try open.readResponse().status == 200)
        let partial = try RawConnection(port: server.port)
        partial.send("GET /hea")
        let stopped = server.stop(signal)
        #expect(stopped?.status == 0)
        #expect((stopped?.seconds ?? 99) < 1, "took \(stopped?.seconds ?? 99) s")
        #expect(open.isClosedByServer())
    }

    /// `--access-log`: a line a request on standard error, refused requests included; none without it.
    @Test func accessLogHasALineARequest() throws {
        let directory = try Self.fixture()
        defer { directory.remove() }
        let logged = try Self.serve(directory, ["--access-log"])
        defer { logged.stop() }
        _ = try logged.request("/search?q=M%C3%BCnchen")
        _ = try logged.request("/nothing", method: "HEAD")
        let bad = try RawConnection(port: logged.port)
        bad.send("BROKEN\r\n\r\n")
        _ = bad.readToEnd()
        let deadline = Date().addingTimeInterval(2)
        while logged.log.split(separator: "\n").count < 3, Date() < deadline { usleep(10_000) }
        let lines = logged.log.split(separator: "\n")
        #expect(lines.count == 3, "\(logged.log)")
        #expect(lines.first { $0.hasPrefix("127.0.0.1 \"GET /search?q=M%C3%BCnchen HTTP/1.1\" 200 ") && $0.hasSuffix("us") } != nil, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("127.0.0.1 \"HEAD /nothing HTTP/1.1\" 404 ") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("127.0.0.1 \"-\" 400 ") }, "\(lines)")

        let quiet = try Self.serve(directory)
        defer { quiet.stop() }
        _ = try quiet.request("/search?q=l")
        #expect(quiet.log.isEmpty, "\(quiet.log)")
    }

    /// Startup problems: exit 1 with the reason (a taken port, no index), 2 for bad usage.
    @Test func startupErrorsExitWithTheReason() throws {
        let directory = try Self.fixture()
        defer { directory.remove() }
        let server = try Self.serve(directory)
        defer { server.stop() }
        let taken = try MMSearchProcess.run(["serve", "--index", directory.file("cities.mms"), "--listen", "127.0.0.1:\(server.port)"])
        #expect(taken.status == 1 && taken.error.contains("bind 127.0.0.1:\(server.port)"), "\(taken.error)")
        let missing = try MMSearchProcess.run(["serve", "--index", directory.file("none.mms"), "--listen", "127.0.0.1:0"])
        #expect(missing.status == 1 && missing.error.contains("none.mms"), "\(missing.error)")
        for arguments in [["--listen", "8080"], ["--listen", "example.org:80"], ["--listen", "127.0.0.1:70000"], ["--idle-timeout", "0"],
                          ["--threads", "0"], ["--header-timeout", "x"], ["extra"]] {
            let bad = try MMSearchProcess.run(["serve", "--index", directory.file("cities.mms")] + arguments)
            #expect(bad.status == 2 && bad.error.contains("usage: mmsearch serve"), "\(arguments): \(bad.error)")
        }
        #expect(try server.request("/health").status == 200)
    }

    /// The index rebuilt and renamed over the served path 20 times while clients ask without pause:
    /// no error, and every answer is the old index's or the new one's.
    @Test(.enabled(if: fullTests)) func indexSwapUnderLoad() throws {
        let directory = try Self.fixture()
        defer { directory.remove() }
        let index = directory.file("cities.mms")
        let lists = [Self.cities, Self.cities + [Self.city(9000003, "Lille", "FR", "50.63", "3.06")]]
        try Self.build(lists[1], to: directory.file("b.mms"), in: directory)
        let answers = try [index, directory.file("b.mms")].map {
            try MMSearchProcess.run(["query", "--index", $0, "--json", "--limit", "100", "l"]).output
        }
        #expect(answers[0] != answers[1])
        let server = try Self.serve(directory)
        defer { server.stop() }

        final class Tally: @unchecked Sendable {
            let lock = NSLock()
            var counts = [0, 0]
            var failures: [String] = []
            var running = true
        }
        let tally = Tally()
        let port = server.port
        let clients = (0 ..< 3).map { _ in
            Thread {
                do {
                    var connection = try RawConnection(port: port)
                    var sent = 0
                    while tally.lock.withLock({ tally.running }) {
                        // A new connection now and then, so that connects happen during swaps too.
                        if sent % 100 == 99 { connection = try RawConnection(port: port) }
                        connection.send("GET /search?q=l&limit=100 HTTP/1.1\r\nHost: x\r\n\r\n")
                        sent += 1
                        let response = try connection.readResponse()
                        tally.lock.withLock {
                            if response.status == 200, let which = answers.firstIndex(of: response.text) {
                                tally.counts[which] += 1
                            } else {
                                tally.failures.append("\(response.status): \(response.text.prefix(200))")
                            }
                        }
                    }
                } catch {
                    tally.lock.withLock { tally.failures.append("\(error)") }
                }
            }
        }
        for client in clients { client.start() }
        for round in 1 ... 20 {
            try Self.build(lists[round % 2], to: index, in: directory)
            usleep(300_000)
        }
        #expect(try Self.waitForCities(lists[0].count, server))
        tally.lock.withLock { tally.running = false }
        usleep(500_000)
        tally.lock.withLock {
            #expect(tally.failures.isEmpty, "\(tally.failures.prefix(5))")
            #expect(tally.counts[0] > 0 && tally.counts[1] > 0, "\(tally.counts)")
            print("serve: index swapped 20 times under load: \(tally.counts[0] + tally.counts[1]) answers, none failed")
        }
        #expect(server.logCount(of: "now serving the new", atLeast: 10) >= 10, "\(server.log)")
    }
}
