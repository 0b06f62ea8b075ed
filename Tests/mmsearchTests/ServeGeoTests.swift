import Foundation
import MMSearchTestSupport
import Testing

/// `serve`'s geography on the real joined index (the README's), every endpoint compared with the
/// command line that answers the same question: `/search` byte for byte with `mmsearch query --format
/// json`, Photon's `/api` and `/reverse` and Pelias' `/v1/*` city for city (ids, order, distances)
/// with `query` and `near`; Pelias' ISO3 codes with countryInfo.txt itself. A handful of cases in the
/// quick run, samples of the shared typing and reverse files in the full one. Every bad parameter is
/// a 400 naming it, and the server goes on serving.
@Suite struct ServeGeoTests {
    /// A server on the real joined index (with regions and country names), and that index's path.
    static func serve() async throws -> (ServeProcess, String, TemporaryDirectory) {
        let index = try await RealIndexes.shared.path(.joinedRegions)
        let directory = try TemporaryDirectory()
        let server = try ServeProcess(index: index, errorLog: directory.file("serve.log"))
        return (server, index, directory)
    }

    /// The server reverse lookups are asked of: the real joined index in the full run; in the quick
    /// one, NearCommandTests' capitals (both sides of the 180th meridian, both hemispheres, the poles)
    /// with the country names, since a debug build takes seconds to measure every city's distance
    /// where the release build `.ci/run` tests takes milliseconds.
    static func serveForReverse() async throws -> (ServeProcess, String, TemporaryDirectory, points: [String]) {
        let fixedPoints = ["48.85341,2.3488", "-20,179", "-20,-179.5", "89.9,0", "-90,0", "0,-140", "42.98,-81.2"]
        if FullTests.enabled {
            let (server, index, directory) = try await serve()
            // 10 of the shared reverse points: until the spatial index lands, a reverse lookup measures
            // every city (about 0.8 s in a release build on this machine), asked eight times a point.
            return (server, index, directory, fixedPoints + ["40.7128,-74.006", "-17.8,179.99", "-17.8,-179.99"] + (try reversePoints(10)))
        }
        let directory = try TemporaryDirectory()
        let index = directory.file("capitals.mms")
        let build = try MMSearchProcess.run(["build", try NearCommandTests.dump(in: directory), "--countries", RealData.countries, "-o", index])
        #expect(build.status == 0, "\(build.error)")
        let server = try ServeProcess(index: index, errorLog: directory.file("serve.log"))
        return (server, index, directory, fixedPoints)
    }

    /// `mmsearch query --index INDEX --format json ARGUMENTS`: its one JSON object.
    static func query(_ index: String, _ arguments: [String]) throws -> (text: String, object: [String: Any]) {
        let run = try MMSearchProcess.run(["query", "--index", index, "--format", "json"] + arguments)
        #expect(run.status == 0, "query \(arguments): \(run.error)")
        return (run.output, (try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]) ?? [:])
    }

    static func results(_ object: [String: Any]) -> [[String: Any]] { object["results"] as? [[String: Any]] ?? [] }
    static func features(_ object: [String: Any]?) -> [[String: Any]] { object?["features"] as? [[String: Any]] ?? [] }
    static func properties(_ feature: [String: Any]) -> [String: Any] { feature["properties"] as? [String: Any] ?? [:] }

    /// A parameter's value, percent-encoded for a query string.
    static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~,")) ?? text
    }

    /// GeoNames' countryInfo.txt: each code's ISO3 code and name (the reference for Pelias' country
    /// members, read apart from the index).
    static let countryInfo: [String: (iso3: String, name: String)] = {
        let text = (try? String(contentsOfFile: RealData.countries, encoding: .utf8)) ?? ""
        var countries: [String: (String, String)] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            if columns.count > 4 { countries[String(columns[0])] = (String(columns[1]), String(columns[4])) }
        }
        return countries
    }()

    // MARK: /search

    /// `/search` with every geography parameter answers exactly what `query --format json` prints
    /// with the same options.
    @Test func searchIsQueryJSONByteForByte() async throws {
        let (server, index, directory) = try await Self.serve()
        defer { server.stop(); directory.remove() }
        var cases: [(parameters: [(String, String)], arguments: [String])] = [
            ([("q", "springfield"), ("near", "39.98,-82.98"), ("limit", "5")], ["--near", "39.98,-82.98", "--limit", "5", "springfield"]),
            ([("q", "london"), ("country", "US")], ["--country", "US", "london"]),
            ([("q", "paris"), ("bbox", "-100,30,-90,36"), ("limit", "3")], ["--bbox", "-100,30,-90,36", "--limit", "3", "paris"]),
            ([("q", "las vegas"), ("near", "35.6,-105.2"), ("near_km", "50"), ("min_population", "1000")],
             ["--near", "35.6,-105.2", "--near-km", "50", "--min-population", "1000", "las vegas"]),
            ([("q", "san"), ("within", "37.77,-122.42,80"), ("order", "distance"), ("near", "37.77,-122.42")],
             ["--within", "37.77,-122.42,80", "--order", "distance", "--near", "37.77,-122.42", "san"]),
        ]
        if FullTests.enabled {
            // Keystrokes of the shared typing-near file, each with its point, and country filters.
            let lines = try String(contentsOfFile: RealData.typingNear, encoding: .utf8).split(separator: "\n")
            for line in stride(from: 0, to: lines.count, by: max(1, lines.count / 150)).map({ lines[$0] }) {
                let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { continue }
                cases.append(([("q", parts[1]), ("near", parts[0])], ["--near", parts[0], parts[1]]))
                cases.append(([("q", parts[1]), ("country", "US,DE")], ["--country", "US,DE", parts[1]]))
            }
        }
        for (parameters, arguments) in cases {
            let target = "/search?" + parameters.map { "\($0.0)=\(Self.encoded($0.1))" }.joined(separator: "&")
            let response = try server.request(target)
            #expect(response.status == 200, "\(target): \(response.text)")
            #expect(response.text == (try Self.query(index, arguments)).text, "\(target)")
        }
    }

    // MARK: Photon

    /// Photon's `/api`: `lat`/`lon` is `--near` (and `zoom` its half distance, or no bias below
    /// zoom 4), `bbox` is `--bbox`, `countrycode` is `--country`; the features are query's cities, in
    /// order, with the country's name and the region.
    @Test func photonSearchIsQuery() async throws {
        let (server, index, directory) = try await Self.serve()
        defer { server.stop(); directory.remove() }
        let cases: [(String, [String])] = [
            ("q=springfield&lat=39.98&lon=-82.98&limit=3", ["--near", "39.98,-82.98", "--limit", "3", "springfield"]),
            ("q=paris&bbox=-100,30,-90,36&limit=2", ["--bbox", "-100,30,-90,36", "--limit", "2", "paris"]),
            ("q=springfield&lat=39.98&lon=-82.98&zoom=10&limit=3", ["--near", "39.98,-82.98", "--near-km", "64", "--limit", "3", "springfield"]),
            ("q=springfield&lat=39.98&lon=-82.98&zoom=3&limit=3", ["--limit", "3", "springfield"]),
            ("q=london&countrycode=CA&countrycode=US&location_bias_scale=0.2&limit=4", ["--country", "CA,US", "--limit", "4", "london"]),
        ]
        for (parameters, arguments) in cases {
            let response = try server.request("/api?" + parameters)
            #expect(response.status == 200, "\(parameters): \(response.text)")
            let expected = Self.results(try Self.query(index, arguments).object)
            let features = Self.features(response.json)
            #expect(!expected.isEmpty && features.map { Self.properties($0)["id"] as? Int } == expected.map { $0["id"] as? Int }, "\(parameters): \(response.text)")
            for (feature, city) in zip(features, expected) {
                let properties = Self.properties(feature)
                #expect(properties["name"] as? String == city["name"] as? String && properties["state"] as? String == city["region"] as? String)
                #expect(properties["countrycode"] as? String == city["country"] as? String)
                #expect(properties["country"] as? String == Self.countryInfo[city["country"] as? String ?? ""]?.name)
                #expect((feature["geometry"] as? [String: Any])?["coordinates"] as? [Double] == [city["lon"] as! Double, city["lat"] as! Double])
            }
        }
    }

    /// Photon's `/reverse`: the nearest cities as `mmsearch near` lists them, `radius` as `--within`,
    /// one city unless `limit` asks for more; points on both sides of the 180th meridian, a pole, an
    /// ocean.
    @Test func photonReverseIsNear() async throws {
        let (server, index, directory, points) = try await Self.serveForReverse()
        defer { server.stop(); directory.remove() }
        for point in points {
            let coordinates = point.split(separator: ",")
            for (extra, arguments) in [("", ["--limit", "1"]), ("&limit=5&radius=3000", ["--limit", "5", "--within", point + ",3000"])] {
                let response = try server.request("/reverse?lat=\(coordinates[0])&lon=\(coordinates[1])" + extra)
                #expect(response.status == 200, "\(point)\(extra): \(response.text)")
                let near = try MMSearchProcess.run(["near", point, "--index", index, "--format", "json"] + arguments)
                let expected = Self.results((try JSONSerialization.jsonObject(with: Data(near.output.utf8)) as? [String: Any]) ?? [:])
                #expect(Self.features(response.json).map { Self.properties($0)["id"] as? Int } == expected.map { $0["id"] as? Int }, "\(point)\(extra)")
            }
        }
    }

    /// `count` points of the shared reverse-points file, evenly spread.
    static func reversePoints(_ count: Int) throws -> [String] {
        let lines = try String(contentsOfFile: RealData.reversePoints, encoding: .utf8).split(separator: "\n").map(String.init)
        return stride(from: 0, to: lines.count, by: max(1, lines.count / count)).map { lines[$0] }
    }

    // MARK: Pelias

    /// Pelias' `/v1/search` and `/v1/autocomplete`: query's cities in order, each a locality with
    /// its gid, its country's name and ISO3 code (as countryInfo.txt gives them), its region, the label
    /// "Name, Region, Country", and with a focus point its distance; the collection's bbox bounds them.
    @Test func peliasSearchIsQuery() async throws {
        let (server, index, directory) = try await Self.serve()
        defer { server.stop(); directory.remove() }
        let cases: [(String, [String])] = [
            ("text=springfield&size=4&focus.point.lat=39.98&focus.point.lon=-82.98", ["--near", "39.98,-82.98", "--limit", "4", "springfield"]),
            ("text=london&boundary.country=USA", ["--country", "USA", "--limit", "10", "london"]),
            ("text=paris&boundary.rect.min_lon=-100&boundary.rect.min_lat=30&boundary.rect.max_lon=-90&boundary.rect.max_lat=36&size=3",
             ["--bbox", "-100,30,-90,36", "--limit", "3", "paris"]),
            ("text=san&boundary.circle.lat=37.77&boundary.circle.lon=-122.42&boundary.circle.radius=80&size=5",
             ["--within", "37.77,-122.42,80", "--limit", "5", "san"]),
            ("text=m%C3%BCnchen&size=2", ["--limit", "2", "münchen"]),
        ]
        for (parameters, arguments) in cases {
            for path in ["/v1/search", "/v1/autocomplete"] {
                let response = try server.request(path + "?" + parameters)
                #expect(response.status == 200, "\(path)?\(parameters): \(response.text)")
                try Self.expectPelias(response, equals: Self.results(try Self.query(index, arguments).object), "\(path)?\(parameters)")
            }
        }
    }

    /// Pelias' `/v1/reverse`: `mmsearch near`'s cities, ten by default, `boundary.circle.radius` as
    /// `--within`, `boundary.country` as `--country`, each with its distance.
    @Test func peliasReverseIsNear() async throws {
        let (server, index, directory, points) = try await Self.serveForReverse()
        defer { server.stop(); directory.remove() }
        for point in points {
            let coordinates = point.split(separator: ",")
            // /search's reverse lookup too: the empty query in distance order, a page past the first.
            let target = "/search?q=&near=\(point)&order=distance&limit=3&offset=2"
            #expect(try server.request(target).text == (try Self.query(index, ["--near", point, "--order", "distance", "--limit", "3", "--offset", "2", ""])).text, "\(target)")
            for (extra, arguments) in [("", ["--limit", "10"]), ("&size=3&boundary.circle.radius=2500&boundary.country=US,CA,FR", ["--limit", "3", "--within", point + ",2500", "--country", "US,CA,FR"])] {
                let response = try server.request("/v1/reverse?point.lat=\(coordinates[0])&point.lon=\(coordinates[1])" + extra)
                #expect(response.status == 200, "\(point)\(extra): \(response.text)")
                let near = try MMSearchProcess.run(["near", point, "--index", index, "--format", "json"] + arguments)
                let expected = Self.results((try JSONSerialization.jsonObject(with: Data(near.output.utf8)) as? [String: Any]) ?? [:])
                try Self.expectPelias(response, equals: expected, "\(point)\(extra)")
            }
        }
    }

    /// A Pelias answer whose features are `expected` (query's JSON results), member by member.
    static func expectPelias(_ response: RawResponse, equals expected: [[String: Any]], _ what: String) throws {
        let object = try #require(response.json, "\(what): \(response.text)")
        let geocoding = try #require(object["geocoding"] as? [String: Any], "\(what)")
        #expect(geocoding["version"] as? String == "0.2" && geocoding["errors"] == nil, "\(what)")
        #expect(object["type"] as? String == "FeatureCollection")
        let features = features(object)
        #expect(features.map { properties($0)["id"] as? String } == expected.map { ($0["id"] as? Int).map(String.init) }, "\(what): \(response.text)")
        for (feature, city) in zip(features, expected) {
            let properties = properties(feature)
            let id = city["id"] as! Int, code = city["country"] as! String
            let country = countryInfo[code]
            #expect(properties["gid"] as? String == "mmsearch:locality:\(id)" && properties["layer"] as? String == "locality" && properties["source"] as? String == "mmsearch")
            #expect(properties["name"] as? String == city["name"] as? String && properties["region"] as? String == city["region"] as? String, "\(what)")
            // A city of no country (the list has a few, such as "Antarctica") has no country members.
            #expect(properties["country_a"] as? String == country?.iso3 && properties["country"] as? String == country?.name, "\(what): \(code)")
            #expect(properties["country_code"] as? String == (code.isEmpty ? nil : code), "\(what): \(code)")
            let label = [city["name"] as? String, city["region"] as? String, country?.name ?? code].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")
            #expect(properties["label"] as? String == label, "\(what)")
            #expect(properties["distance"] as? Double == city["distance_km"] as? Double, "\(what): \(properties) \(city)")
            #expect((feature["geometry"] as? [String: Any])?["coordinates"] as? [Double] == [city["lon"] as! Double, city["lat"] as! Double])
        }
        if expected.isEmpty {
            #expect(object["bbox"] == nil)
        } else {
            let longitudes = expected.map { $0["lon"] as! Double }, latitudes = expected.map { $0["lat"] as! Double }
            #expect(object["bbox"] as? [Double] == [longitudes.min()!, latitudes.min()!, longitudes.max()!, latitudes.max()!], "\(what)")
        }
    }

    // MARK: Bad values

    /// Every bad geography value is a 400 naming its parameter (Pelias' in `geocoding.errors`), and
    /// the server goes on answering.
    @Test func badValuesAreA400NamingTheParameter() async throws {
        let (server, _, directory) = try await Self.serve()
        defer { server.stop(); directory.remove() }
        let plain: [(String, String)] = [
            ("/search?q=a&near=91,0", "parameter near"),
            ("/search?q=a&near=0,181", "parameter near"),
            ("/search?q=a&near=x,1", "parameter near"),
            ("/search?q=a&near=1", "parameter near"),
            ("/search?q=a&near=1,2&near_km=0", "parameter near_km"),
            ("/search?q=a&near=1,2&near_km=-5", "parameter near_km"),
            ("/search?q=a&near_km=5", "parameter near_km"),
            ("/search?q=a&bbox=0,10,1,5", "parameter bbox"),
            ("/search?q=a&bbox=0,0,1", "parameter bbox"),
            ("/search?q=a&bbox=0,0,181,1", "parameter bbox"),
            ("/search?q=a&within=1,2,-3", "parameter within"),
            ("/search?q=a&within=1,2", "parameter within"),
            ("/search?q=a&country=U", "parameter country"),
            ("/search?q=a&country=", "parameter country"),
            ("/search?q=a&min_population=-1", "parameter min_population"),
            ("/search?q=a&min_population=many", "parameter min_population"),
            ("/search?q=a&order=distance", "parameter order"),
            ("/search?q=a&near=nan,1", "parameter near"),
            ("/api?q=a&lat=100&lon=0", "parameter lat"),
            ("/api?q=a&lat=0&lon=-200", "parameter lon"),
            ("/api?q=a&lat=1", "parameter lon"),
            ("/api?q=a&lon=1", "parameter lat"),
            ("/api?q=a&lat=1&lon=2&zoom=far", "parameter zoom"),
            ("/api?q=a&location_bias_scale=x", "parameter location_bias_scale"),
            ("/api?q=a&bbox=0,10,1,5", "parameter bbox"),
            ("/api?q=a&countrycode=United+States", "parameter countrycode"),
            ("/reverse?lat=1", "parameter lon"),
            ("/reverse", "parameter lat"),
            ("/reverse?lat=91&lon=0", "parameter lat"),
            ("/reverse?lat=1&lon=2&radius=-1", "parameter radius"),
            ("/reverse?lat=1&lon=2&radius=x", "parameter radius"),
            ("/reverse?lat=1&lon=2&limit=-1", "parameter limit"),
        ]
        for (target, name) in plain {
            let response = try server.request(target)
            #expect(response.status == 400, "\(target): \(response.text)")
            #expect((response.json?["error"] as? String)?.hasPrefix(name + " ") == true, "\(target): \(response.text)")
        }
        let pelias: [(String, String)] = [
            ("/v1/search", "parameter text"),
            ("/v1/search?text=", "parameter text"),
            ("/v1/autocomplete?text=a&size=ten", "parameter size"),
            ("/v1/search?text=a&focus.point.lat=91&focus.point.lon=0", "parameter focus.point.lat"),
            ("/v1/search?text=a&focus.point.lat=1", "parameter focus.point.lon"),
            ("/v1/search?text=a&focus.point.lat=1&focus.point.lon=x", "parameter focus.point.lon"),
            ("/v1/search?text=a&boundary.rect.min_lon=0&boundary.rect.min_lat=10&boundary.rect.max_lon=1&boundary.rect.max_lat=5", "parameter boundary.rect.min_lat"),
            ("/v1/search?text=a&boundary.rect.min_lon=0&boundary.rect.min_lat=1&boundary.rect.max_lon=1", "parameter boundary.rect.max_lat"),
            ("/v1/search?text=a&boundary.rect.min_lon=-181&boundary.rect.min_lat=1&boundary.rect.max_lon=1&boundary.rect.max_lat=2", "parameter boundary.rect.min_lon"),
            ("/v1/search?text=a&boundary.circle.lat=1&boundary.circle.lon=2&boundary.circle.radius=-1", "parameter boundary.circle.radius"),
            ("/v1/search?text=a&boundary.circle.radius=10", "parameter boundary.circle.lat"),
            ("/v1/search?text=a&boundary.country=U", "parameter boundary.country"),
            ("/v1/reverse", "parameter point.lat"),
            ("/v1/reverse?point.lat=1", "parameter point.lon"),
            ("/v1/reverse?point.lat=x&point.lon=1", "parameter point.lat"),
            ("/v1/reverse?point.lat=1&point.lon=1&boundary.circle.radius=-2", "parameter boundary.circle.radius"),
        ]
        for (target, name) in pelias {
            let response = try server.request(target)
            #expect(response.status == 400, "\(target): \(response.text)")
            let errors = (response.json?["geocoding"] as? [String: Any])?["errors"] as? [String]
            #expect(errors?.count == 1 && errors?.first?.hasPrefix(name + " ") == true, "\(target): \(response.text)")
            #expect(Self.features(response.json).isEmpty && response.json?["type"] as? String == "FeatureCollection")
            #expect(response.header("Content-Type") == "application/json; charset=utf-8" && response.header("Cache-Control") == "no-store")
        }
        // A size out of range is taken in range with a warning, as Pelias does.
        let big = try server.request("/v1/search?text=san&size=100")
        #expect(big.status == 200 && Self.features(big.json).count == 40)
        #expect(((big.json?["geocoding"] as? [String: Any])?["warnings"] as? [String])?.first?.contains("size") == true)
        #expect(try server.request("/health").status == 200)
        #expect(server.process.isRunning)
    }

    // MARK: docs/serving.md

    /// docs/serving.md's examples (`$ curl 'http://127.0.0.1:8080/...'` and the lines up to the next
    /// `$` or the end of the block) are what the server answers on the README's index; the reverse
    /// lookups in the full run only (a debug build measures every city's distance: seconds each).
    @Test func servingDocExamplesAreWhatTheServerAnswers() async throws {
        let (server, _, directory) = try await Self.serve()
        defer { server.stop(); directory.remove() }
        let text = try String(contentsOfFile: SharedData.packageRoot + "/docs/serving.md", encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let prefix = "$ curl 'http://127.0.0.1:8080"
        var checked = 0
        var number = 0
        while number < lines.count {
            let line = lines[number]
            number += 1
            guard line.hasPrefix(prefix), line.hasSuffix("'") else { continue }
            let target = String(line.dropFirst(prefix.count).dropLast())
            var expected = ""
            while number < lines.count, !lines[number].hasPrefix("$ "), !lines[number].hasPrefix("```") {
                expected += lines[number] + "\n"
                number += 1
            }
            checked += 1
            let reverse = target.hasPrefix("/reverse?") || target.hasPrefix("/v1/reverse?") || (target.contains("q=&") && target.contains("order=distance"))
            guard FullTests.enabled || !reverse else { continue }
            let response = try server.request(target)
            #expect(response.text == expected, "docs/serving.md: \(target) answers:\n\(response.text)")
        }
        #expect(checked >= 15, "docs/serving.md has \(checked) curl examples")
    }
}
