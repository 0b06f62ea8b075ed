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
    @Test func firstPagesAsTheNaiveScanOrdersEveryMatch() async throws {
        let index = try CityIndex(path: try await RealIndexes.shared.path(.joinedRegions))
        let lines = try String(contentsOfFile: RealData.typingNear, encoding: .utf8).split(separator: "\n")
        var generator = SeededRandom(seed: 21)
        let sample = (0 ..< FullTests.count(quick: 40, full: 500)).map { _ in lines[Int(generator.next() % UInt64(lines.count))] }
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
                #expect(try fast.cities(in: first).map(\.id) == naive.cities(in: first).map(\.id), "\(what): first page")
                #expect(try fast.cities(in: second).map(\.id) == naive.cities(in: second).map(\.id), "\(what): second page")
                if naive.count <= 60 {
                    #expect(Array(fast).map(\.id) == Array(naive).map(\.id), "\(what): every match, iterated")
                }
            }
        }
    }
}
