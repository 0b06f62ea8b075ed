import Foundation
import MMSearch
import MMSearchBuilder
import MMSearchTestSupport
import Testing

/// The acceptance test: the index built from the real list (../shared/data) against the naive
/// reference (Foundation's JSONDecoder and a linear scan over folded keys), for thousands of prefixes.
@Suite(.serialized) struct RealListAcceptanceTests {
    /// Built once for the suite: the real list, its reference, and its index in a temporary file.
    struct Fixture: Sendable {
        let reference: ReferenceSearch
        let index: CityIndex
    }

    static let fixture: Result<Fixture, Error> = Result {
        let cities = try SharedData.cities.get()
        let directory = try TemporaryDirectory()
        let path = directory.file("cities.mms")
        try IndexBuilder.build(input: SharedData.cityList, output: path)
        let index = try CityIndex(path: path)
        directory.remove() // the mapping stays valid after the name is gone
        return Fixture(reference: ReferenceSearch(cities: cities), index: index)
    }

    /// Compares the index's answer to `query` with the reference: the count, and the records (id,
    /// name, country, coordinates) at every position, or at sampled positions for large answers.
    func check(_ query: String, _ fixture: Fixture, random: inout SeededRandom) throws {
        let expected = fixture.reference.search(query)
        let results = try fixture.index.search(query)
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

    @Test func randomPrefixesAgreeWithTheNaiveReference() throws {
        let fixture = try Self.fixture.get()
        var random = SeededRandom(seed: 42)
        let cities = fixture.reference.cities
        var queries: Set<String> = ["", " ", "a", "A", "zzzzzz", "q", "New York Mills", "sao paulo", "lodz", "'s-her", "’s-Her",
                                    "istanbul", "İstanbul", ",", ", us", "ü", "\u{301}", "london, gb", "LONDON, GB ", "x\u{0}y"]
        // Every prefix (by character) of random "Name, CC" texts, as typed.
        for _ in 0 ..< 120 {
            let city = cities[Int.random(in: 0 ..< cities.count, using: &random)]
            let text = city.country.isEmpty ? city.name : city.name + ", " + city.country
            for length in 1 ... min(text.count, 24) { queries.insert(String(text.prefix(length))) }
        }
        // Non-ASCII names: prefixes of their original text, and of upper-cased and folded forms.
        let nonASCII = cities.filter { !$0.name.utf8.allSatisfy { $0 < 0x80 } }
        #expect(nonASCII.count > 1000)
        for _ in 0 ..< 80 {
            let city = nonASCII[Int.random(in: 0 ..< nonASCII.count, using: &random)]
            for length in [1, 2, 3, 5, 8, city.name.count] {
                queries.insert(String(city.name.prefix(length)))
                queries.insert(String(city.name.uppercased().prefix(length)))
            }
        }
        #expect(queries.count > 2000)
        for query in queries.sorted() { try check(query, fixture, random: &random) }
    }

    @Test func pagesNearTheEndAgree() throws {
        let fixture = try Self.fixture.get()
        for query in ["", "s", "san", "new"] {
            let expected = fixture.reference.search(query)
            let results = try fixture.index.search(query)
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

    /// Every record comes back with its id, name, country and coordinates exactly (coordinates held
    /// as 1e-7 degree integers convert to the same Double the JSON text gives).
    @Test func everyRecordRoundTrips() throws {
        let fixture = try Self.fixture.get()
        let all = try fixture.index.search("")
        #expect(all.count == fixture.reference.cities.count)
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

    @Test func realIndexVerifies() throws {
        try Self.fixture.get().index.verify()
    }
}
