#if canImport(FoundationEssentials) && !MMSEARCH_USE_FOUNDATION
import FoundationEssentials // Linux: Foundation without ICU
#else
import Foundation // Apple platforms have no FoundationEssentials
#endif
import MMSearch

/// The two seed projects' approaches, as baselines in the same harness: at every start, decode the
/// whole JSON list with Foundation's `JSONDecoder` into structs, then answer each query by
///   - `linear`: a scan of every record (the first seed), or
///   - `sorted`: a binary search for the range of keys with the prefix, after sorting by key (the other).
/// Both are given the benefit of the doubt: search keys are folded once at load (with mmsearch's own
/// `Folding`, so they answer exactly what mmsearch answers) into one byte pool, and compared with
/// memcmp, not String methods. Their "startup" is read + decode + fold (+ sort).
enum SeedEngine: String, CaseIterable {
    case linear = "seed-linear"
    case sorted = "seed-sorted"

    /// One record as the seeds decode it.
    struct City: Decodable {
        let id: Int
        let name: String
        let country: String
        let coord: Coordinate

        struct Coordinate: Decodable {
            let lon: Double
            let lat: Double
        }

        enum CodingKeys: String, CodingKey {
            case id = "_id", name, country, coord
        }
    }

    /// Runs the workload (every `every`-th line of the first `limit`) and returns the engine line.
    func run(data: String, queries queryPath: String, every: Int, limit: Int?) throws -> String {
        let queries = try Workload.lines(queryPath, limit: limit).enumerated().filter { $0.offset % every == 0 }.map(\.element)
        guard !queries.isEmpty else { throw BenchError("\(queryPath): no queries") }

        let start = System.nanoseconds()
        let store = try Store(data: data, sorted: self == .sorted)
        let ready = System.nanoseconds()
        var page = SeedPage()
        _ = search(queries[0], in: store, page: &page)
        let openFirst = System.nanoseconds() - start

        var latencies: [UInt64] = []
        latencies.reserveCapacity(queries.count)
        var matches = 0
        let loopStart = System.nanoseconds()
        for query in queries {
            let queryStart = System.nanoseconds()
            matches += search(query, in: store, page: &page)
            latencies.append(System.nanoseconds() - queryStart)
        }
        let loop = System.nanoseconds() - loopStart
        let line = EngineLine(
            engine: rawValue, keys: store.cities.count, buildSeconds: Double(ready - start) / 1e9,
            sizeBytes: System.fileSize(data) ?? 0, openFirstMicroseconds: Double(openFirst) / 1e3,
            latency: LatencySummary(latencies: latencies, loopNanoseconds: loop), matches: matches,
            peakRSSKiB: System.resident().peak
        )
        return line.text + " every=\(every) sink=\(page.sink)"
    }

    /// Counts every match of `query` and keeps the first 20 in `page`: in list order for the scan,
    /// in key order (mmsearch's order) for the sorted array.
    private func search(_ query: String, in store: Store, page: inout SeedPage) -> Int {
        let folded = Folding.fold(query)
        page.clear()
        switch self {
        case .linear:
            var count = 0
            for record in store.cities.indices where store.key(record, hasPrefix: folded) {
                if count < SeedPage.size { page.append(store.cities[record]) }
                count += 1
            }
            return count
        case .sorted:
            let matches = store.sortedRange(ofPrefix: folded)
            for position in matches.prefix(SeedPage.size) { page.append(store.cities[Int(store.order[position])]) }
            return matches.count
        }
    }

    /// The decoded list and its folded keys.
    struct Store {
        let cities: [City]
        /// Record i's key is keys[keyStarts[i] ..< keyStarts[i + 1]].
        let keys: [UInt8]
        let keyStarts: [Int]
        /// Record indices in key order (by key bytes, name bytes, id), when sorted.
        let order: [UInt32]

        init(data: String, sorted: Bool) throws {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: data))
            cities = try JSONDecoder().decode([City].self, from: bytes)
            var keys: [UInt8] = []
            var starts = [0]
            keys.reserveCapacity(bytes.count / 5)
            starts.reserveCapacity(cities.count + 1)
            for city in cities {
                Folding.append(folding: city.name, to: &keys)
                if !city.country.isEmpty {
                    keys.append(contentsOf: ", ".utf8)
                    Folding.append(folding: city.country, to: &keys)
                }
                starts.append(keys.count)
            }
            self.keys = keys
            keyStarts = starts
            guard sorted else {
                order = []
                return
            }
            var order = Array(0 ..< UInt32(cities.count))
            let cities = cities
            keys.withUnsafeBytes { pool in
                order.sort { left, right in
                    let a = Int(left), b = Int(right)
                    let byKey = Self.compare(pool, starts[a] ..< starts[a + 1], pool, starts[b] ..< starts[b + 1])
                    if byKey != 0 { return byKey < 0 }
                    let nameA = cities[a].name.utf8, nameB = cities[b].name.utf8
                    if !nameA.elementsEqual(nameB) { return nameA.lexicographicallyPrecedes(nameB) }
                    return cities[a].id < cities[b].id
                }
            }
            self.order = order
        }

        func key(_ record: Int, hasPrefix prefix: [UInt8]) -> Bool {
            let start = keyStarts[record], length = keyStarts[record + 1] - start
            guard length >= prefix.count else { return false }
            return keys.withUnsafeBytes { pool in
                prefix.withUnsafeBytes { wanted in System.compareBytes(pool.baseAddress! + start, wanted.baseAddress!, wanted.count) == 0 }
            }
        }

        /// Positions in `order` whose keys start with `prefix`: two binary searches.
        func sortedRange(ofPrefix prefix: [UInt8]) -> Range<Int> {
            keys.withUnsafeBytes { pool in
                prefix.withUnsafeBytes { wanted in
                    // Compares the key's first |prefix| bytes with the prefix (a shorter key compares as its whole self).
                    func comparePrefix(_ position: Int) -> Int {
                        let record = Int(order[position])
                        let start = keyStarts[record], length = min(keyStarts[record + 1] - start, wanted.count)
                        let byBytes = System.compareBytes(pool.baseAddress! + start, wanted.baseAddress!, length)
                        if byBytes != 0 { return byBytes }
                        return length < wanted.count ? -1 : 0
                    }
                    func partition(_ belongsBefore: (Int) -> Bool) -> Int {
                        var low = 0, high = order.count
                        while low < high {
                            let middle = low + (high - low) / 2
                            if belongsBefore(middle) { low = middle + 1 } else { high = middle }
                        }
                        return low
                    }
                    let lower = partition { comparePrefix($0) < 0 }
                    let upper = partition { comparePrefix($0) <= 0 }
                    return lower ..< upper
                }
            }
        }

        /// Byte-wise order, shorter first on a common prefix: the index's key order.
        static func compare(_ a: UnsafeRawBufferPointer, _ aRange: Range<Int>, _ b: UnsafeRawBufferPointer, _ bRange: Range<Int>) -> Int {
            let common = min(aRange.count, bRange.count)
            let byBytes = System.compareBytes(a.baseAddress! + aRange.lowerBound, b.baseAddress! + bRange.lowerBound, common)
            if byBytes != 0 { return byBytes }
            return aRange.count - bRange.count
        }
    }
}

/// The first page of a seed's results: ids and names as Swift values, as `FirstPage` keeps ours.
struct SeedPage {
    static let size = 20
    private(set) var entries: [FirstPage.Entry] = []
    private(set) var sink = 0

    init() { entries.reserveCapacity(Self.size) }

    mutating func clear() {
        if let last = entries.last { sink &+= Int(last.id) &+ last.name.utf8.count }
        entries.removeAll(keepingCapacity: true)
    }

    mutating func append(_ city: SeedEngine.City) {
        entries.append(FirstPage.Entry(id: UInt32(truncatingIfNeeded: city.id), name: city.name))
    }
}
