import FuzzerMain
#if canImport(FoundationEssentials) && !MMSEARCH_USE_FOUNDATION
import FoundationEssentials // Linux: Foundation without ICU
#else
import Foundation // Apple platforms have no FoundationEssentials
#endif
import MMSearch

/// Treats arbitrary bytes as an index: opens it, runs queries in every match mode and order, reads
/// every record of each answer's first, a middle and the last page, and verifies it. Any outcome but
/// a crash, a hang or an out-of-bounds read is fine: a thrown error is the expected answer to most
/// inputs.
enum IndexFuzzer {
    /// Prefixes, "Name, Qualifier" forms, and typos (found only with them allowed).
    static let queries = ["", "a", "al", "lo", "lond", "london, gb", "s", "sao paulo", "mu", "münchen", "ü", "z", ", ", "\u{0}", "aaaaaaaaaaaaaaaa",
                          "london, eng", "london united", "sao paulo, br", "san place 1, bay", "san place ", "londn", "sao palo", "lodz voiv", "mnich 12"]

    static func exercise(_ bytes: Data) {
        guard let index = try? CityIndex(bytes: bytes, path: "fuzz.mms") else { return }
        for query in queries {
            for match in MatchMode.allCases {
                for order in ResultOrder.allCases where order != .distance {
                    guard let results = try? index.search(query, match: match, order: order) else { continue }
                    let pages = [0 ..< min(results.count, 25), results.count / 2 ..< min(results.count, results.count / 2 + 3),
                                 max(0, results.count - 5) ..< results.count]
                    for page in pages { _ = try? results.cities(in: page) }
                    if results.count > 0 { _ = try? results.city(at: 0) }
                }
            }
            // Restricted to countries: their entries under the node, and the typo walk's subtrees; to one
            // country, its page at a big node (COUNTRY_PAGES), then a page past it.
            for countries in [["US", "DE", "fr"], ["de"]] {
                if let results = try? index.search(query, filter: GeoFilter(countries: countries)) {
                    _ = try? results.cities(in: 0 ..< min(results.count, 25))
                    _ = try? results.cities(in: min(results.count, 20) ..< min(results.count, 45))
                }
            }
        }
        // Reverse lookups: the spatial index walked from points around the world, with filters.
        for (latitude, longitude) in [(0.0, 0.0), (51.5, -0.1), (90, 0), (-90, 180), (-16.5, 179.99), (-16.5, -179.99)] {
            guard let point = try? GeoPoint(latitude: latitude, longitude: longitude) else { continue }
            _ = try? index.nearest(to: point, limit: 10)
            _ = try? index.nearest(to: point, limit: 3, filter: GeoFilter(countries: ["GB", "DEU"], within: try? GeoCircle(center: point, radiusKm: 2_000)))
            _ = try? index.nearest(to: point, limit: 5, filter: GeoFilter(boundingBox: try? BoundingBox(west: 170, south: -20, east: -170, north: 60), minimumPopulation: 1))
            if let results = try? index.search("", order: .distance, near: Proximity(point: point)) {
                _ = try? results.cities(in: 0 ..< min(results.count, 25))
                _ = try? results.cities(in: max(0, results.count - 3) ..< results.count)
            }
            // Ranked near the point: at a big node, its first page from NEAR_POINTS and NEAR_LISTS.
            for query in ["s", "sa", "se", "lo"] {
                if let results = try? index.search(query, near: Proximity(point: point)) {
                    _ = try? results.cities(in: 0 ..< min(results.count, 20))
                    _ = try? results.cities(in: min(results.count, 20) ..< min(results.count, 30))
                }
            }
        }
        _ = try? index.verify()
    }
}

@main
enum FuzzMain {
    static func main() throws { try FuzzerMain.run(IndexFuzzer.exercise) }
}
