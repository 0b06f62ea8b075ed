import Foundation
import MMSearch
import MMSearchTestSupport
import Testing

/// A search with a point or a filter in ranked order chooses its first page without ordering every
/// match (only the matches whose bound can reach it are measured): compared, on the README's index,
/// with the naive scan of every match (`searchScanningEveryMatch`: every match read, filtered, ordered),
/// the count, the first page and the page after it, for keystrokes of typing-near.txt near their
/// points at several half distances, in a country, and both (rank.py's answers for these paths are
/// NearCommandTests' and the acceptance tests').
@Suite struct GeoFirstPageTests {
    /// Restricted to countries, a search reads only their entries (COUNTRY_RUNS) and its typo walk only
    /// the subtrees holding some: compared with the naive scan (every match read, then filtered; the
    /// typo walk unpruned) on keystrokes of typing-typos.txt (most match nothing in one country, so
    /// the typo fallback decides) and typing-queries.txt, in every order, for one country, several
    /// (upper and lower case, an ISO3 code), a country no record has, and a country with a box.
    @Test func countryRestrictedSearchesAsTheNaiveScan() async throws {
        let index = try CityIndex(path: try await RealIndexes.shared.path(.joinedRegions))
        var generator = SeededRandom(seed: 22)
        var queries: [Substring] = []
        for path in [RealData.typingTypos, RealData.typingQueries] {
            let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            queries += (0 ..< FullTests.count(quick: 40, full: 150)).map { _ in lines[Int(generator.next() % UInt64(lines.count))] }
        }
        let point = try GeoPoint(latitude: 40.0, longitude: -83.0)
        let filters = [
            GeoFilter(countries: ["US"]), GeoFilter(countries: ["de"]), GeoFilter(countries: ["FR", "it", "ESP"]), GeoFilter(countries: ["ZZ"]),
            GeoFilter(countries: ["US", "CA"], boundingBox: try BoundingBox(west: -90, south: 35, east: -70, north: 50)),
        ]
        for query in queries {
            for filter in filters {
                for (order, near) in [(ResultOrder.rank, nil), (.name, nil), (.distance, Proximity(point: point)), (.rank, Proximity(point: point))] {
                    let fast = try index.search(query, order: order, filter: filter, near: near)
                    let naive = try index.searchScanningEveryMatch(query, order: order, filter: filter, near: near)
                    let what = "\(query) \(filter.countries) \(order) \(near == nil ? "" : "near")"
                    #expect(fast.count == naive.count && fast.typos == naive.typos, "\(what): count \(fast.count) typos \(fast.typos), naive \(naive.count) \(naive.typos)")
                    let first = 0 ..< min(20, naive.count), second = min(20, naive.count) ..< min(40, naive.count)
                    #expect(try fast.cities(in: first).map(\.id) == naive.cities(in: first).map(\.id), "\(what): first page")
                    #expect(try fast.cities(in: second).map(\.id) == naive.cities(in: second).map(\.id), "\(what): second page")
                }
            }
        }
    }

    @Test func firstPagesAsTheNaiveScanOrdersEveryMatch() async throws {
        let index = try CityIndex(path: try await RealIndexes.shared.path(.joinedRegions))
        let lines = try String(contentsOfFile: RealData.typingNear, encoding: .utf8).split(separator: "\n")
        var generator = SeededRandom(seed: 21)
        var sample = (0 ..< FullTests.count(quick: 40, full: 500)).map { _ in lines[Int(generator.next() % UInt64(lines.count))] }
        // Big nodes, whose first page near a point comes from NEAR_POINTS and NEAR_LISTS: at sea, near
        // a pole, on both sides of the 180th meridian, in a city; and with "Name, Qualifier" matches
        // beside them ("san ": the records named San, their qualifier empty, which no key matches).
        for point in ["46.28285,-59.09194", "-89.5,0", "-17.7,179.9", "-17.7,-179.9", "48.8534,2.3488", "13.5,-88.9"] {
            sample += ["S", "Sa", "San", "B", "Ki", "Lo", "A", "Che", "Sain", "San ", "La ", "Santa ", "Le ", "St. ", "El "].map { Substring(point + "\t" + $0) }
        }
        for line in sample {
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
            let coordinates = parts[0].split(separator: ",").map { Double($0)! }
            let point = try GeoPoint(latitude: coordinates[0], longitude: coordinates[1])
            let query = String(parts[1])
            let cases: [(GeoFilter, Proximity?)] = [
                (.none, Proximity(point: point)),
                (.none, try Proximity(point: point, halfDistanceKm: 10)),
                (.none, try Proximity(point: point, halfDistanceKm: 1_000)),
                (GeoFilter(countries: ["US"]), nil),
                (GeoFilter(countries: ["de", "GBR"]), nil),
                (GeoFilter(countries: ["US"]), try Proximity(point: point, halfDistanceKm: 50)),
                (GeoFilter(minimumPopulation: 10_000), Proximity(point: point)),
            ]
            for (filter, near) in cases {
                let fast = try index.search(query, filter: filter, near: near)
                let naive = try index.searchScanningEveryMatch(query, filter: filter, near: near)
                let what = "\(query) \(filter) \(String(describing: near))"
                #expect(fast.count == naive.count && fast.typos == naive.typos, "\(what): count")
                let first = 0 ..< min(20, naive.count), second = min(20, naive.count) ..< min(40, naive.count)
                // Every field: the name each city was matched by and its distance too.
                #expect(try fast.cities(in: first) == naive.cities(in: first), "\(what): first page")
                #expect(try fast.cities(in: second).map(\.id) == naive.cities(in: second).map(\.id), "\(what): second page")
                if naive.count <= 60 {
                    #expect(Array(fast).map(\.id) == Array(naive).map(\.id), "\(what): every match, iterated")
                }
            }
        }
    }
}
