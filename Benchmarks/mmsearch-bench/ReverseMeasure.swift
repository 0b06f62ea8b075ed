#if canImport(FoundationEssentials) && !MMSEARCH_USE_FOUNDATION
import FoundationEssentials // Linux: Foundation without ICU
#else
import Foundation // Apple platforms have no FoundationEssentials
#endif
import MMSearch

/// Issue 21's reverse lookups: the 10 nearest cities of each point of reverse-points.txt, through the
/// spatial index (`CityIndex.nearest`), beside a naive scan of every record that must give the same
/// answers; and the empty query in distance order (what `mmsearch near` asks: count, first page).
enum ReverseMeasure {
    /// "LAT,LON" a line.
    static func points(_ path: String, limit: Int?) throws -> [GeoPoint] {
        try Workload.lines(path, limit: limit).map { line in
            let parts = line.split(separator: ",")
            guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]) else {
                throw BenchError("\(path): not a point \"LAT,LON\": \(line)")
            }
            do { return try GeoPoint(latitude: latitude, longitude: longitude) } catch { throw BenchError("\(path): \(error)") }
        }
    }

    /// The child: per point, `nearest(to:limit: 10)` timed (ids and names read as a program keeps them);
    /// then the first page of the distance order (count included) timed; then every `scanEvery`th
    /// point by a scan of all records, timed, its ids compared with the index's.
    static func run(index path: String, points pointsPath: String, limit: Int?, scanEvery: Int) throws -> String {
        let points = try points(pointsPath, limit: limit)
        guard !points.isEmpty else { throw BenchError("\(pointsPath): no points") }
        let nearest = 10
        let openStart = System.nanoseconds()
        let index = try CityIndex(path: path)
        var sink = try index.nearest(to: points[0], limit: nearest).count
        let openFirst = System.nanoseconds() - openStart

        var latencies: [UInt64] = [], answers: [[UInt32]] = []
        latencies.reserveCapacity(points.count)
        answers.reserveCapacity(points.count)
        var found = 0
        let loopStart = System.nanoseconds()
        for point in points {
            let start = System.nanoseconds()
            let cities = try index.nearest(to: point, limit: nearest)
            latencies.append(System.nanoseconds() - start)
            found += cities.count
            answers.append(cities.map(\.id))
            if let last = cities.last { sink &+= Int(last.id) &+ last.name.utf8.count }
        }
        let loop = System.nanoseconds() - loopStart
        let latency = LatencySummary(latencies: latencies, loopNanoseconds: loop)

        // The walk alone: ids and distances, no `City` values (names, regions) made.
        var walkLatencies: [UInt64] = []
        walkLatencies.reserveCapacity(points.count)
        for (number, point) in points.enumerated() {
            let start = System.nanoseconds()
            let found = try index.nearestIds(to: point, limit: nearest)
            walkLatencies.append(System.nanoseconds() - start)
            if found.map(\.id) != answers[number] { throw BenchError("point \(number): the walk and nearest(to:) disagree") }
        }
        let walk = LatencySummary(latencies: walkLatencies, loopNanoseconds: 0)
        // MMSEARCH_BENCH_TIMES=PATH: each point's times (City values, the walk alone) and the point, a
        // line each, to find the points behind a percentile.
        if let timesPath = ProcessInfo.processInfo.environment["MMSEARCH_BENCH_TIMES"] {
            let text = points.indices.map { "\(latencies[$0])\t\(walkLatencies[$0])\t\(points[$0].latitude),\(points[$0].longitude)\n" }
            try System.writeText(text.joined(), to: timesPath)
        }

        // What `mmsearch near` asks of the library: the empty query nearest first, counted, 10 cities.
        var pageLatencies: [UInt64] = []
        pageLatencies.reserveCapacity(points.count)
        for point in points {
            let start = System.nanoseconds()
            let results = try index.search("", order: .distance, near: Proximity(point: point))
            let cities = try results.cities(in: 0 ..< min(nearest, results.count))
            pageLatencies.append(System.nanoseconds() - start)
            sink &+= cities.count &+ results.count
        }
        let page = LatencySummary(latencies: pageLatencies, loopNanoseconds: 0)

        // The naive scan: every record's distance, the 10 least by (distance, id, record).
        let all = try index.search("", order: .name, typos: .off)
        let records = try all.cities(in: 0 ..< all.count).map { (id: $0.id, point: GeoPoint($0.coordinate)) }
        var scanLatencies: [UInt64] = []
        var mismatches = 0, scanned = 0
        var nearestFound: [(distance: Double, id: UInt32, record: Int)] = []
        for (number, point) in points.enumerated() where number % scanEvery == 0 {
            let start = System.nanoseconds()
            nearestFound.removeAll(keepingCapacity: true)
            for (record, candidate) in records.enumerated() {
                let distance = point.distanceKm(to: candidate.point)
                if nearestFound.count == nearest, let worst = nearestFound.last, (worst.distance, worst.id, worst.record) < (distance, candidate.id, record) { continue }
                let entry = (distance, candidate.id, record)
                let place = nearestFound.firstIndex { ($0.distance, $0.id, $0.record) > entry } ?? nearestFound.count
                nearestFound.insert(entry, at: place)
                if nearestFound.count > nearest { nearestFound.removeLast() }
            }
            scanLatencies.append(System.nanoseconds() - start)
            scanned += 1
            if nearestFound.map(\.id) != answers[number] { mismatches += 1 }
        }
        let scan = LatencySummary(latencies: scanLatencies, loopNanoseconds: 0)
        let line = EngineLine(engine: "mmsearch-reverse", keys: index.count, buildSeconds: 0, sizeBytes: index.fileSize,
                              openFirstMicroseconds: Double(openFirst) / 1e3, latency: latency, matches: found, peakRSSKiB: System.resident().peak)
        let section = try index.info().spatialPartBytes
        return line.text + " walk_p50_ns=\(fixed(walk.p50, 0)) walk_p99_ns=\(fixed(walk.p99, 0)) page_p50_ns=\(fixed(page.p50, 0)) page_p99_ns=\(fixed(page.p99, 0)) page_max_ns=\(fixed(page.max, 0))"
            + " scan_points=\(scanned) scan_p50_ns=\(fixed(scan.p50, 0)) scan_p99_ns=\(fixed(scan.p99, 0)) scan_mismatches=\(mismatches)"
            + " spatial_bytes=\(section) sink=\(sink)"
    }
}

/// Issue 21's reverse lookups, as the report shows them: each figure the median of the passes (each
/// pass a fresh process over the same points), and the peers of Benchmarks/reverse-peers/run.py.
struct ReverseRun {
    var passes: Int
    var points: Int
    var indexBytes: Int
    var spatialBytes: Int
    /// `nearest(to:limit: 10)`: 10 `City` values (names, regions, distances).
    var p50: Double
    var p99: Double
    var max: Double
    var mean: Double
    /// The walk alone: ids and distances.
    var walkP50: Double
    var walkP99: Double
    /// The empty query in distance order: counted, its first 10 read.
    var pageP50: Double
    var pageP99: Double
    /// The naive scan of every record, every `scanEvery`th point.
    var scanPoints: Int
    var scanP50: Double
    var scanP99: Double

    init(_ passes: [KeyValues]) throws {
        precondition(!passes.isEmpty)
        func median(_ key: String) throws -> Double {
            let values = try passes.map { try $0.required(key, from: "reverse") }.sorted()
            return values[values.count / 2]
        }
        self.passes = passes.count
        points = Int(try median("queries"))
        indexBytes = Int(try median("size_bytes"))
        spatialBytes = Int(try median("spatial_bytes"))
        p50 = try median("p50_ns")
        p99 = try median("p99_ns")
        max = try median("max_ns")
        mean = try median("mean_ns")
        walkP50 = try median("walk_p50_ns")
        walkP99 = try median("walk_p99_ns")
        pageP50 = try median("page_p50_ns")
        pageP99 = try median("page_p99_ns")
        scanPoints = Int(try median("scan_points"))
        scanP50 = try median("scan_p50_ns")
        scanP99 = try median("scan_p99_ns")
    }

    /// The peers' lines (engine scipy-ckdtree, sqlite-rtree; one or more runs each): each by its run
    /// with the median p99, as the prefix peers.
    static func peers(_ text: String) -> [EngineLine] {
        EngineLine.medianRuns(EngineLine.all(in: text)).map(\.line)
    }

    static func table(_ run: ReverseRun, peers: [EngineLine]) -> Table {
        var table = Table(header: ["10 nearest of each of \(grouped(run.points)) points", "p50", "p99", "max", "mean", "what is timed"])
        table.rows.append(["mmsearch `nearest(to:limit: 10)`", duration(nanoseconds: run.p50), duration(nanoseconds: run.p99),
                           duration(nanoseconds: run.max), duration(nanoseconds: run.mean), "one call: the walk and 10 `City` values (names, regions, distances)"])
        table.rows.append(["mmsearch, the walk alone", duration(nanoseconds: run.walkP50), duration(nanoseconds: run.walkP99), "", "",
                           "one call: the 10 ids and distances, no `City` values"])
        table.rows.append(["mmsearch, empty query in distance order", duration(nanoseconds: run.pageP50), duration(nanoseconds: run.pageP99), "", "",
                           "`search(\"\", order: .distance, near:)`: the count and the first 10 cities (what `mmsearch near` asks)"])
        table.rows.append(["naive scan of every record", duration(nanoseconds: run.scanP50), duration(nanoseconds: run.scanP99), "", "",
                           "every record's haversine distance, the 10 least kept (\(grouped(run.scanPoints)) points; same ids as the index's)"])
        for peer in peers {
            let what = peer.engine == "scipy-ckdtree"
                ? "SciPy cKDTree over unit vectors, from Python: p50/p99 of one `query(point, k=10)` call a point (Python's call included); mean = one batch `query(points, k=10)` ÷ points"
                : "SQLite R*Tree in memory, from Python: per point, box queries widened until 10 are sure, ranked by haversine in Python; mean = the batch ÷ points"
            table.rows.append([peer.engine, duration(nanoseconds: peer.latency.p50), duration(nanoseconds: peer.latency.p99),
                               duration(nanoseconds: peer.latency.max), duration(nanoseconds: peer.latency.mean), what])
        }
        return table
    }
}

extension Suite {
    /// The reverse child `plan.workloadRuns` times (fresh processes); every pass's answers must equal
    /// the naive scan's.
    func reverse(index: BuiltIndex, points: String) throws -> ReverseRun {
        var passes: [KeyValues] = []
        for run in 1 ... plan.workloadRuns {
            progress("reverse lookups: the 10 nearest of each point, the naive scan every \(plan.linearEvery)th \(run)/\(plan.workloadRuns)")
            let values = try child("reverse", [index.path, points, plan.queryLimit.map(String.init) ?? "all", String(plan.linearEvery)])
            guard values["scan_mismatches"] == "0" else {
                throw BenchError("reverse lookups: \(values["scan_mismatches"] ?? "?") points' nearest differ from the naive scan's")
            }
            passes.append(values)
        }
        return try ReverseRun(passes)
    }
}
