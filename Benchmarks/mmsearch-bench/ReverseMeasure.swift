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
        let section = try index.info().sections.first { $0.name == "spatial" }?.length ?? 0
        return line.text + " page_p50_ns=\(fixed(page.p50, 0)) page_p99_ns=\(fixed(page.p99, 0)) page_max_ns=\(fixed(page.max, 0))"
            + " scan_points=\(scanned) scan_p50_ns=\(fixed(scan.p50, 0)) scan_p99_ns=\(fixed(scan.p99, 0)) scan_mismatches=\(mismatches)"
            + " spatial_bytes=\(section) sink=\(sink)"
    }
}
