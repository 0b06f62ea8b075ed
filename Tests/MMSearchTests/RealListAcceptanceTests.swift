import Foundation
import MMSearch
import MMSearchTestSupport
import Testing

/// The acceptance test: the index built from the real list (../shared/data) against the naive
/// references (Foundation's JSONDecoder and linear scans over folded keys), for thousands of prefixes:
/// `.name`/`.name` against fold.py's prefix search (what version 1 answered), and the default
/// `.words`/`.rank` (and the other two combinations) against rank.py's rules. The quick run asks a
/// fixed-seed sample of the same kinds of prefixes (hundreds); `MMSEARCH_FULL_TESTS=1` asks them all.
@Suite struct RealListAcceptanceTests {
    /// Made once for the suite, off the test pool: the real list, its reference, and its index (the
    /// one every test process builds once, `RealIndexes`).
    static func fixture() async throws -> Fixture { try await offThePool { try made.get() } }

    struct Fixture: Sendable {
        let reference: ReferenceSearch
        let ranked: RankedReference
        let index: CityIndex
    }

    private static let made: Result<Fixture, Error> = Result {
        let index = try CityIndex(path: RealIndexes.shared.blockingBuilt(.list).path)
        let reference = try SharedData.reference.get()
        return Fixture(reference: reference, ranked: reference.ranked(), index: index)
    }

    /// Compares the index's answer to `query`, matched by name in name order (version 1's search),
    /// with fold.py's: the count, and the records (id, name, country) at every position, or at
    /// sampled positions for large answers.
    func check(_ query: String, _ fixture: Fixture, random: inout SeededRandom) throws {
        let expected = fixture.reference.search(query)
        let results = try fixture.index.search(query, match: .name, order: .name, typos: .off)
        #expect(results.count == expected.count, "count for \(query.debugDescription)")
        guard results.count == expected.count else { return }
        var positions = Array(0 ..< min(expected.count, 200))
        if expected.count > 200 {
            positions += (expected.count - 20 ..< expected.count)
            positions += (0 ..< 20).map { _ in Int.random(in: 0 ..< expected.count, using: &random) }
        }
        for position in positions {
            let listed = fixture.reference.cities[expected[position]]
            let city = try results.city(at: position)
            #expect(city.id == listed._id && city.name == listed.name && city.country == listed.country,
                    "\(query.debugDescription) #\(position): got \(city.id) \(city.name), expected \(listed._id) \(listed.name)")
        }
    }

    /// Random cities whose "Name, CC" prefixes are asked, and random non-ASCII names (fewer in the quick run).
    static let randomCityCount = FullTests.count(quick: 4, full: 120)
    static let nonASCIICityCount = FullTests.count(quick: 5, full: 80)

    @Test func randomPrefixesAgreeWithTheNaiveReference() async throws {
        let fixture = try await Self.fixture()
        var random = SeededRandom(seed: 42)
        let cities = fixture.reference.cities
        var queries: Set<String> = ["", " ", "a", "A", "zzzzzz", "q", "New York Mills", "sao paulo", "lodz", "'s-her", "’s-Her",
                                    "istanbul", "İstanbul", ",", ", us", "ü", "\u{301}", "london, gb", "LONDON, GB ", "x\u{0}y"]
        // Every prefix (by character) of random "Name, CC" texts, as typed.
        for _ in 0 ..< Self.randomCityCount {
            let city = cities[Int.random(in: 0 ..< cities.count, using: &random)]
            let text = city.country.isEmpty ? city.name : city.name + ", " + city.country
            for length in 1 ... min(text.count, 24) { queries.insert(String(text.prefix(length))) }
        }
        // Non-ASCII names: prefixes of their original text, and of upper-cased and folded forms.
        let nonASCII = cities.filter { !$0.name.utf8.allSatisfy { $0 < 0x80 } }
        #expect(nonASCII.count > 1000)
        for _ in 0 ..< Self.nonASCIICityCount {
            let city = nonASCII[Int.random(in: 0 ..< nonASCII.count, using: &random)]
            for length in [1, 2, 3, 5, 8, city.name.count] {
                queries.insert(String(city.name.prefix(length)))
                queries.insert(String(city.name.uppercased().prefix(length)))
            }
        }
        #expect(queries.count > FullTests.count(quick: 100, full: 2000))
        for query in queries.sorted() { try check(query, fixture, random: &random) }
    }

    @Test func pagesNearTheEndAgree() async throws {
        let fixture = try await Self.fixture()
        for query in ["", "s", "san", "new"] {
            let expected = fixture.reference.search(query)
            let results = try fixture.index.search(query, match: .name, order: .name, typos: .off)
            #expect(results.count == expected.count)
            for offset in [expected.count - 1, expected.count - 20, expected.count / 2] where offset >= 0 {
                let page = results.dropFirst(offset).prefix(20).map(\.id)
                let reference = expected.dropFirst(offset).prefix(20).map { fixture.reference.cities[$0]._id }
                #expect(page == reference, "\(query.debugDescription) page at \(offset)")
                let batch = try results.cities(in: offset ..< min(offset + 20, results.count)).map(\.id)
                #expect(batch == reference, "\(query.debugDescription) batch page at \(offset)")
            }
            #expect(results.dropFirst(expected.count).isEmpty)
        }
    }

    /// The workload's prefixes as typed, and short ones, searched the default way (every key, ranked)
    /// and compared with rank.py's rules: the count, the first page (stored in the index for big
    /// results) and deeper pages (read from the entries). Every fourth query also in the other three
    /// combinations of match and order. The workload is sampled every `workloadStride` lines.
    static let workloadStride = FullTests.count(quick: 250, full: 7)

    @Test func rankedSearchAgreesWithRankPy() async throws {
        let fixture = try await Self.fixture()
        let workload = try String(contentsOfFile: SharedData.typingQueries, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var queries = ["", "s", "sa", "de", "new", "york", "am m", "New York", "san ", "st", "la", "-", "'", "(", "mills", "zzzz", " ", "x\u{0}y"]
        var seen = Set(queries)
        for line in stride(from: 0, to: workload.count, by: Self.workloadStride).map({ workload[$0] }) where seen.insert(line).inserted { queries.append(line) }
        #expect(queries.count > FullTests.count(quick: 100, full: 3000))
        var compared = 0, deep = 0
        for (number, query) in queries.enumerated() {
            let combinations: [(MatchMode, ResultOrder)] = number % 4 == 0 ? MatchMode.allCases.flatMap { m in ResultOrder.withoutPoint.map { (m, $0) } } : [(.words, .rank)]
            for (match, order) in combinations {
                let expected = fixture.ranked.search(query, match: match, order: order)
                let results = try fixture.index.search(query, match: match, order: order, typos: .off)
                let what = "\(query.debugDescription) \(match)/\(order)"
                #expect(results.count == expected.count, "count for \(what)")
                guard results.count == expected.count else { continue }
                for page in [0 ..< 20, 20 ..< 40, 100 ..< 110] where page.lowerBound < expected.count {
                    let positions = page.clamped(to: 0 ..< expected.count)
                    let cities = try results.cities(in: positions)
                    let wanted = expected[positions]
                    #expect(cities.map(\.id) == wanted.map { fixture.ranked.records[$0.record].id }, "\(what) positions \(positions)")
                    #expect(cities.map { $0.matchedName.map { Folding.fold($0) } } == wanted.map { fixture.ranked.foldedMatchedName($0) }, "\(what): matched names")
                    if page.lowerBound > 0 { deep += 1 }
                }
                compared += 1
            }
        }
        #expect(compared > FullTests.count(quick: 150, full: 3500) && deep > FullTests.count(quick: 10, full: 300))
        // Words inside names count: "york" finds New York by its second word, after the names that start with it.
        let york = try fixture.index.search("york")
        let firstWordMatch = try #require(try york.cities(in: 0 ..< york.count).firstIndex { !Folding.fold($0.name).starts(with: Folding.fold("york")) })
        #expect(try york.cities(in: firstWordMatch ..< york.count).allSatisfy { !Folding.fold($0.name).starts(with: Folding.fold("york")) })
        #expect(try york.cities(in: 0 ..< york.count).contains { $0.name == "New York" && $0.country == "US" })
    }

    /// Every record comes back with its id, name, country and coordinates exactly (coordinates held
    /// as 1e-7 degree integers convert to the same Double the JSON text gives).
    @Test func everyRecordRoundTrips() async throws {
        let fixture = try await Self.fixture()
        // Position by position through name order (a range of records: each read is O(1)).
        let all = try fixture.index.search("", match: .name, order: .name)
        #expect(all.count == fixture.reference.cities.count)
        // The default search finds them all too, read at once (every position past the first page of
        // a big answer evaluates the node's entries, so one read, not one per position).
        let ranked = try fixture.index.search("")
        #expect(ranked.count == all.count)
        #expect(try Set(ranked.cities(in: 0 ..< ranked.count).map(\.id)).count == Set(fixture.reference.cities.map(\._id)).count)
        var byId: [UInt32: [City]] = [:]
        for position in 0 ..< all.count {
            let city = try all.city(at: position)
            byId[city.id, default: []].append(city)
        }
        for listed in fixture.reference.cities {
            let found = byId[listed._id] ?? []
            #expect(found.count == 1, "id \(listed._id) appears \(found.count) times")
            guard let city = found.first else { continue }
            #expect(city.name == listed.name && city.country == listed.country, "id \(listed._id)")
            #expect(city.coordinate.latitude == listed.coord.lat && city.coordinate.longitude == listed.coord.lon,
                    "id \(listed._id): \(city.coordinate.latitudeText), \(city.coordinate.longitudeText) vs \(listed.coord.lat), \(listed.coord.lon)")
        }
    }

    @Test func realIndexVerifies() async throws {
        try await Self.fixture().index.verify()
    }
}
