import CMMSearchFormat
import Foundation
import MMSearch
import MMSearchBuilder
import MMSearchTestSupport
import Testing

/// The spatial index (SPATIAL) against a linear scan over every record: `nearest(to:limit:filter:)`
/// and the empty query in distance order (its count and its pages) give exactly the scan's answer,
/// ordered by (distance, id), on the real list joined with cities500 (random points on the sphere and
/// reverse-points.txt: a few hundred in the quick run, thousands in the full run) and on small
/// synthetic indexes full of ties (equal coordinates, equal distances), poles and the 180th meridian.
@Suite struct SpatialIndexTests {
    /// Every record as the scan sees it, read from the index's RECORDS and POPULATION sections (a
    /// record's place is its record number, the last tie-break), with its point as a unit vector. Flat
    /// arrays, read through buffer pointers: the scan runs in debug builds.
    struct ScanRecords: Sendable {
        var ids: [UInt32] = []
        var points: [GeoPoint] = []
        /// Latitude and longitude in degrees, one after the other.
        var degrees: [Double] = []
        var countries: [UInt16] = []
        var populations: [UInt64] = []
        /// x, y, z of each point on the unit sphere, one after another.
        var vectors: [Double] = []
        var count: Int { ids.count }

        init(_ bytes: [UInt8]) {
            let file = IndexFile(bytes)
            let hasPopulation = file.count(of: MMS_SECTION_POPULATION) > 0
            let count = file.recordCount
            ids.reserveCapacity(count); points.reserveCapacity(count); degrees.reserveCapacity(2 * count)
            countries.reserveCapacity(count); populations.reserveCapacity(count); vectors.reserveCapacity(3 * count)
            for number in 0 ..< count {
                let point = GeoPoint(Coordinate(latitudeE7: file.coordinate(MMS_SECTION_RECORDS, number, longitude: false),
                                                longitudeE7: file.coordinate(MMS_SECTION_RECORDS, number, longitude: true)))
                let country = file.countryCode(ofRecord: number)
                ids.append(UInt32(file.id(ofRecord: number)))
                points.append(point)
                degrees.append(point.latitude)
                degrees.append(point.longitude)
                countries.append(ScanRecords.code(country.0, country.1))
                populations.append(hasPopulation ? file.population(ofRecord: number) : 0)
                let (x, y, z) = ScanRecords.vector(point)
                vectors.append(x)
                vectors.append(y)
                vectors.append(z)
            }
        }

        static func code(_ first: UInt8, _ second: UInt8) -> UInt16 {
            func upper(_ byte: UInt8) -> UInt16 { UInt16(byte >= 97 && byte <= 122 ? byte - 32 : byte) }
            return first == 0 && second == 0 ? 0 : upper(first) << 8 | upper(second)
        }

        static func vector(_ point: GeoPoint) -> (Double, Double, Double) {
            let (p, l) = (point.latitude * .pi / 180, point.longitude * .pi / 180)
            return (cos(p) * cos(l), cos(p) * sin(l), sin(p))
        }
    }

    /// The squared chord between unit vectors is within 1e-15 of the true one; it only preselects, with
    /// a margin far above that, the records whose exact haversine distance then decides.
    static let chordMargin = 1e-9

    /// Every record that passes `filter` (rank.py's "Geography": country or ISO3 code, box edges
    /// included, across the 180th meridian when west > east, `within` by the haversine distance,
    /// population), nearest `point` first by (distance, id, record): its first `limit`, and how many pass.
    static func scan(_ records: ScanRecords, _ point: GeoPoint, _ filter: GeoFilter, limit: Int, iso3: [String: String] = [:]) -> (found: [(id: UInt32, distance: Double)], count: Int) {
        var wanted: [UInt16]?
        if !filter.countries.isEmpty {
            let codes = filter.countries.map { $0.uppercased() }.map { code in iso3.first { $0.value == code }?.key ?? code }
            wanted = codes.map { Array($0.utf8) }.filter { $0.count == 2 }.map { ScanRecords.code($0[0], $0[1]) }
        }
        let minimum = filter.minimumPopulation ?? 0
        let box = filter.boundingBox
        let (south, north) = (box?.south ?? -90, box?.north ?? 90)
        // Longitudes inside [west1, east1] or [west2, east2] pass (the second empty unless the box crosses 180°).
        let (west1, east1, west2, east2) = box.map { $0.west <= $0.east ? ($0.west, $0.east, 1.0, 0.0) : ($0.west, 180.0, -180.0, $0.east) } ?? (-180, 180, 1, 0)
        let center = filter.within.map { ScanRecords.vector($0.center) } ?? (0, 0, 0)
        // The disc's squared chord (4 for none), and a band around it where the exact distance decides.
        let discChord = filter.within.map { pow(2 * sin(min($0.radiusKm / GeoPoint.earthRadiusKm, .pi) / 2), 2) } ?? 5
        let target = ScanRecords.vector(point)
        var passing = [Int](repeating: 0, count: records.count), chords = [Double](repeating: 0, count: records.count)
        var found = 0
        passing.withUnsafeMutableBufferPointer { passing in
            chords.withUnsafeMutableBufferPointer { chords in
                records.vectors.withUnsafeBufferPointer { vectors in
                    records.degrees.withUnsafeBufferPointer { degrees in
                        records.countries.withUnsafeBufferPointer { countries in
                            records.populations.withUnsafeBufferPointer { populations in
                                for number in 0 ..< records.count {
                                    if let wanted, !wanted.contains(countries[number]) { continue }
                                    if populations[number] < minimum { continue }
                                    let (latitude, longitude) = (degrees[2 * number], degrees[2 * number + 1])
                                    if latitude < south || latitude > north { continue }
                                    if !(west1 <= longitude && longitude <= east1) && !(west2 <= longitude && longitude <= east2) { continue }
                                    var dx = vectors[3 * number] - center.0, dy = vectors[3 * number + 1] - center.1, dz = vectors[3 * number + 2] - center.2
                                    let fromCenter = dx * dx + dy * dy + dz * dz
                                    if fromCenter > discChord * (1 + chordMargin) + 1e-18 { continue }
                                    if let within = filter.within, fromCenter >= discChord * (1 - chordMargin) - 1e-18,
                                       within.center.distanceKm(to: records.points[number]) > within.radiusKm { continue }
                                    dx = vectors[3 * number] - target.0; dy = vectors[3 * number + 1] - target.1; dz = vectors[3 * number + 2] - target.2
                                    passing[found] = number
                                    chords[found] = dx * dx + dy * dy + dz * dz
                                    found += 1
                                }
                            }
                        }
                    }
                }
            }
        }
        guard limit > 0, found > 0 else { return ([], found) }
        // The limit-th smallest chord, then every record within the margin of it, ranked exactly.
        var smallest: [Double] = []
        var bar = Double.infinity
        chords.withUnsafeBufferPointer { chords in
            for position in 0 ..< found where chords[position] < bar || smallest.count < limit {
                let chord = chords[position]
                smallest.insert(chord, at: smallest.firstIndex { $0 > chord } ?? smallest.count)
                if smallest.count > limit { smallest.removeLast() }
                if smallest.count == limit { bar = smallest[limit - 1] }
            }
        }
        let cut = smallest.last! * (1 + chordMargin) + 1e-18
        var ranked: [(distance: Double, id: UInt32, record: Int)] = []
        for position in 0 ..< found where chords[position] <= cut {
            let number = passing[position]
            ranked.append((point.distanceKm(to: records.points[number]), records.ids[number], number))
        }
        ranked.sort { ($0.distance, $0.id, $0.record) < ($1.distance, $1.id, $1.record) }
        return (ranked.prefix(limit).map { ($0.id, $0.distance) }, found)
    }

    static func records(of bytes: [UInt8]) -> ScanRecords { ScanRecords(bytes) }

    /// Compares the index with the scan for one point and filter: `nearest` for `limit`, and the empty
    /// query in distance order (count, first page, a later page).
    static func check(_ index: CityIndex, _ records: ScanRecords, _ point: GeoPoint, _ filter: GeoFilter, limit: Int,
                      iso3: [String: String] = [:], pages: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (expected, count) = scan(records, point, filter, limit: max(limit, pages ? 45 : 0), iso3: iso3)
        let what = "(\(point.latitude), \(point.longitude)) \(filter)"
        let nearest = try index.nearest(to: point, limit: limit, filter: filter)
        #expect(nearest.map(\.id) == expected.prefix(limit).map(\.id), "nearest \(limit) to \(what)", sourceLocation: sourceLocation)
        #expect(nearest.map { $0.distanceKm! } == expected.prefix(limit).map(\.distance), "distances to \(what)", sourceLocation: sourceLocation)
        guard pages else { return }
        let results = try index.search("", order: .distance, filter: filter, near: Proximity(point: point))
        #expect(results.count == count, "count near \(what)", sourceLocation: sourceLocation)
        guard results.count == count else { return }
        for page in [0 ..< min(10, count), min(count, 20) ..< min(count, 45)] {
            let cities = try results.cities(in: page)
            #expect(cities.map(\.id) == expected[page].map(\.id), "page \(page) near \(what)", sourceLocation: sourceLocation)
            #expect(cities.allSatisfy { $0.distanceKm != nil && $0.matchedName == nil }, sourceLocation: sourceLocation)
        }
    }

    // MARK: The real list joined with cities500

    static let iso3 = ["FR": "FRA", "DE": "DEU", "US": "USA", "FJ": "FJI", "JP": "JPN"]

    /// The filters asked, each of a kind: countries (one far from most points, one by its ISO3 code), a
    /// box (one across the 180th meridian), a disc (one across it), a population, and a combination.
    static func filters(around point: GeoPoint) -> [GeoFilter] {
        [
            .none,
            GeoFilter(countries: ["us"]),
            GeoFilter(countries: ["FJ", "FRA"]),
            GeoFilter(boundingBox: try! BoundingBox(west: -10, south: 35, east: 30, north: 60)),
            GeoFilter(boundingBox: try! BoundingBox(west: 170, south: -25, east: -170, north: -10)),
            GeoFilter(within: try! GeoCircle(center: point, radiusKm: 300)),
            GeoFilter(within: try! GeoCircle(center: try! GeoPoint(latitude: -17, longitude: 179.5), radiusKm: 2_000)),
            GeoFilter(minimumPopulation: 100_000),
            GeoFilter(countries: ["US", "CA"], within: try! GeoCircle(center: point, radiusKm: 5_000), minimumPopulation: 20_000),
        ]
    }

    /// Points where pruning in latitude and longitude is hardest: the poles, both sides of the 180th
    /// meridian and on it, an ocean, the equator.
    static let specialPoints: [(Double, Double)] = [(90, 0), (-90, 0), (89.9999, 179.9999), (-89.5, -120), (0, 180), (0, -180),
                                                     (-16.5, 179.9999), (-16.5, -179.9999), (65.5, -168.9), (0, -140), (-48.9, -123.4), (0, 0)]

    static let real: Result<(index: CityIndex, records: ScanRecords), Error> = Result {
        let path = try RealIndexes.shared.blockingBuilt(.joinedRegions).path
        return (try CityIndex(path: path), ScanRecords(Array(try Data(contentsOf: URL(fileURLWithPath: path)))))
    }

    @Test func nearestAgreesWithALinearScanOnTheRealList() async throws {
        let (index, records) = try await offThePool { try Self.real.get() }
        var random = SeededRandom(seed: 21)
        var points = Self.specialPoints.map { try! GeoPoint(latitude: $0.0, longitude: $0.1) }
        // Points exactly on cities.
        for _ in 0 ..< 4 { points.append(records.points[Int.random(in: 0 ..< records.count, using: &random)]) }
        let special = points.count
        // Uniform on the sphere, and from the benchmark's points (most within 30 km of a city).
        for _ in 0 ..< FullTests.count(quick: 30, full: 1_500) {
            let latitude = asin(2 * Double.random(in: 0 ... 1, using: &random) - 1) * 180 / .pi
            points.append(try GeoPoint(latitude: latitude, longitude: Double.random(in: -180 ... 180, using: &random)))
        }
        let lines = try String(contentsOfFile: RealData.reversePoints, encoding: .utf8).split(separator: "\n")
        for _ in 0 ..< FullTests.count(quick: 70, full: 1_500) {
            let parts = lines.randomElement(using: &random)!.split(separator: ",")
            points.append(try GeoPoint(latitude: Double(parts[0])!, longitude: Double(parts[1])!))
        }
        for (number, point) in points.enumerated() {
            let filters = Self.filters(around: point)
            // The full run: the special points with every filter, the others with one each, in turn. The
            // quick run (the library is a debug build there, and a country or population filter reads
            // every record for the count): the special points with the filters that leave most out, and
            // the others without a filter or with one of those; every filter at two special points.
            let cheap = [0, 4, 5, 6]
            let asked: [GeoFilter]
            if FullTests.enabled {
                asked = number < special ? filters : [filters[number % filters.count]]
            } else if number < 2 {
                asked = filters
            } else {
                asked = number < special ? cheap.map { filters[$0] } : [filters[cheap[number % cheap.count]]]
            }
            for filter in asked {
                let costly = !filter.countries.isEmpty || filter.minimumPopulation != nil
                try Self.check(index, records, point, filter, limit: number % 3 == 0 ? 1 : 10, iso3: Self.iso3,
                               pages: (number < special || number % 5 == 0) && (FullTests.enabled || !costly))
            }
        }
    }

    @Test(.fullRunOnly) func theRealIndexVerifiesWithItsSpatialIndex() async throws {
        let (index, _) = try await offThePool { try Self.real.get() }
        try index.verify()
        let section = try index.info().sections.first { $0.name == "spatial" }
        // A point packed: its cells, a record number at the width that holds them all, the axis bit.
        let recordBits = PackedArrays.width(holding: UInt64(index.count))
        #expect(section?.length == PackedArrays.byteCount(count: index.count, width: Int(2 * MMS_SPATIAL_CELL_BITS + MMS_SPATIAL_AXIS_BITS) + recordBits))
        // Its inner nodes' bounds: 2^13 - 1 of 4 bytes (floor(209,579 / 2^k) > 8 for k = 0 ... 14, 13 at most).
        #expect(try index.info().sections.first { $0.name == "spatial bounds" }?.length == 8_191 * 4)
    }

    // MARK: Synthetic indexes

    /// Records that make ties and edge cases: many at the same place (equal distances: ordered by id),
    /// on both poles, on both sides of the 180th meridian and on it, on a small grid (equal distances
    /// from many points), and scattered.
    static func syntheticRecords(count: Int, seed: UInt64) -> [SourceRecord] {
        var random = SeededRandom(seed: seed)
        var places: [(Int32, Int32)] = []
        let e7: (Double) -> Int32 = { Int32(($0 * 1e7).rounded()) }
        for _ in 0 ..< 20 { places.append((e7(48.85341), e7(2.3488))) }
        for latitude in [90.0, -90.0] { for longitude in [0.0, 180, -180, 45] { places.append((e7(latitude), e7(longitude))) } }
        for longitude in [179.9999999, -179.9999999, 180, -180, 179.5, -179.5] { places.append((e7(-16.5), e7(longitude))) }
        for latitude in stride(from: -2.0, through: 2.0, by: 1) { for longitude in stride(from: -2.0, through: 2.0, by: 1) { places.append((e7(latitude), e7(longitude))) } }
        places = Array(places.prefix(count))
        while places.count < count {
            let latitude = asin(2 * Double.random(in: 0 ... 1, using: &random) - 1) * 180 / .pi
            places.append((e7(latitude), e7(Double.random(in: -180 ... 180, using: &random))))
        }
        return places.enumerated().map { number, place in
            SourceRecord(id: UInt32(10_000 - number), name: Array("Place \(number % 50)".utf8), country: Array(["US", "FJ", "FR", ""][number % 4].utf8),
                         latitudeE7: place.0, longitudeE7: place.1, population: UInt32(number * 7919 % 100_000))
        }
    }

    static func syntheticIndex(count: Int, seed: UInt64) throws -> (CityIndex, ScanRecords) {
        let source = SourceDescription(name: "spatial.json", size: 0, checksum: 0, builtAt: 0)
        let (bytes, _) = try IndexBuilder.makeIndex(records: syntheticRecords(count: count, seed: seed), source: source)
        return (try CityIndex(bytes: Data(bytes)), ScanRecords(bytes))
    }

    @Test(arguments: [1, 2, 9, 17, 60, 300])
    func tiesPolesAndTheAntimeridianAgreeWithTheScan(count: Int) throws {
        let (index, all) = try Self.syntheticIndex(count: count, seed: UInt64(count))
        #expect(all.count == count)
        try index.verify()
        var random = SeededRandom(seed: 5)
        var points = (Self.specialPoints + [(48.85341, 2.3488), (0.5, 0.5), (1, 1), (0, 0)]).map { try! GeoPoint(latitude: $0.0, longitude: $0.1) }
        for _ in 0 ..< min(count, 30) { points.append(all.points.randomElement(using: &random)!) }
        for point in points {
            for filter in Self.filters(around: point) {
                for limit in [1, 10, 25] {
                    try Self.check(index, all, point, filter, limit: limit, pages: limit == 10)
                }
            }
        }
        // Every record asked for: the whole order.
        let point = try GeoPoint(latitude: 10, longitude: 170)
        let results = try index.search("", order: .distance, near: Proximity(point: point))
        #expect(try results.cities(in: 0 ..< results.count).map(\.id) == Self.scan(all, point, .none, limit: all.count).found.map(\.id))
        #expect(try index.nearest(to: point, limit: 0).isEmpty && index.nearest(to: point, limit: 10_000).count == all.count)
    }

    /// Crowds of candidates, more than a search keeps room for (twice the limit, at least 16 more): 150
    /// records at one place (the same distance: ordered by id), 150 in a square of about 23 m beside it
    /// (a few cells, whose bounds overlap, distinct distances) and 150 spread over a few km. The walk
    /// keeps candidates by their cells and must measure the crowd to make room; the answer is still the
    /// scan's.
    @Test func crowdedCellsAgreeWithTheScan() throws {
        var random = SeededRandom(seed: 77)
        let place: (Int32, Int32) = (488_534_100, 23_488_000)
        var places = Array(repeating: place, count: 150)
        // The square: 2,048 units from a corner 1,000 units from `place`.
        let corner = (place.0 + 1_000, place.1 + 1_000)
        for _ in 0 ..< 150 { places.append((corner.0 + Int32.random(in: 0 ..< 2_048, using: &random), corner.1 + Int32.random(in: 0 ..< 2_048, using: &random))) }
        for _ in 0 ..< 150 { places.append((place.0 + Int32.random(in: -300_000 ... 300_000, using: &random), place.1 + Int32.random(in: -300_000 ... 300_000, using: &random))) }
        let records = places.enumerated().map { number, place in
            SourceRecord(id: UInt32(50_000 - 7 * number), name: Array("Crowd \(number % 9)".utf8), country: Array(["FR", "DE"][number % 2].utf8),
                         latitudeE7: place.0, longitudeE7: place.1, population: UInt32(number))
        }
        let source = SourceDescription(name: "crowd.json", size: 0, checksum: 0, builtAt: 0)
        let (bytes, _) = try IndexBuilder.makeIndex(records: records, source: source)
        let index = try CityIndex(bytes: Data(bytes)), all = ScanRecords(bytes)
        try index.verify()
        let degrees = { (value: Int32) in Double(value) / 1e7 }
        let points = [(degrees(place.0), degrees(place.1)), (degrees(corner.0 + 1_024), degrees(corner.1 + 1_024)),
                      (degrees(place.0) + 0.01, degrees(place.1)), (degrees(place.0) - 0.3, degrees(place.1) + 0.2), (40, -100)]
        for (latitude, longitude) in points {
            let point = try GeoPoint(latitude: latitude, longitude: longitude)
            for filter in [GeoFilter.none, GeoFilter(countries: ["DE"])] {
                for limit in [1, 10, 25, 160, 400] {
                    try Self.check(index, all, point, filter, limit: limit, pages: limit == 10)
                }
            }
        }
    }

    /// The builder's tree holds the format's invariants: checked independently of `verify` and of the
    /// reader's boxes, from the section's bytes (each point's cells are its record's coordinates' in
    /// its node's box, the boxes cut at the pivots' cells, as "Boxes and cells" says).
    @Test func theBuilderLaysOutAKdTree() throws {
        let records = Self.syntheticRecords(count: 1_000, seed: 9)
        let source = SourceDescription(name: "spatial.json", size: 0, checksum: 0, builtAt: 0)
        let file = IndexFile(try IndexBuilder.makeIndex(records: records, source: source).bytes)
        #expect(file.count(of: MMS_SECTION_SPATIAL) == records.count)
        // Each point's record number, with its axis in bit 31 (as a reader holds it: mms_spatial_point).
        let values = (0 ..< records.count).map {
            UInt32(file.packedValue(MMS_SECTION_SPATIAL, $0, field: "record")) | UInt32(file.packedValue(MMS_SECTION_SPATIAL, $0, field: "axis")) << 31
        }
        #expect(Set(values.map { $0 & MMS_SPATIAL_RECORD_MASK }) == Set(0 ..< UInt32(records.count)))
        func coordinate(_ record: UInt32, longitude: Bool) -> Int32 {
            file.coordinate(MMS_SECTION_RECORDS, Int(record), longitude: longitude)
        }
        // Each point's cells: its record's row and column among the 2^MMS_SPATIAL_CELL_BITS its node's
        // box is cut in; a box (south, north, west, east) the world's, or its parent's cut at the pivot's
        // cell on the pivot's axis.
        let bits = Int64(MMS_SPATIAL_CELL_BITS), scale = Int64(MMS_COORDINATE_SCALE)
        // Each inner node's bounds (node n's at SPATIAL_BOUNDS[n - 1], the root 1, n's children 2n and
        // 2n + 1): the rows and columns of its records' least and greatest coordinates among the
        // 2^MMS_SPATIAL_BOUND_BITS its box is cut in. 1,000 records: floor(1000 / 2^k) > 8 for k = 0 ... 6.
        let bounds = Array(file.bytes[file.section(MMS_SECTION_SPATIAL_BOUNDS)])
        #expect(bounds.count == 127 * MemoryLayout<mms_spatial_bounds>.size)
        var boundsChecked = Set<Int>()
        var cellsChecked = 0
        func checkCells(_ range: Range<Int>, _ box: (Int64, Int64, Int64, Int64), number: Int = 1) {
            let latitudeStep = (box.1 - box.0) >> bits + 1, longitudeStep = (box.3 - box.2) >> bits + 1
            func cell(_ position: Int) -> (Int64, Int64) {
                let record = values[position] & MMS_SPATIAL_RECORD_MASK
                let latitude = (Int64(coordinate(record, longitude: false)) - box.0) / latitudeStep
                let longitude = (Int64(coordinate(record, longitude: true)) - box.2) / longitudeStep
                #expect(latitude >= 0 && latitude < 1 << bits && longitude >= 0 && longitude < 1 << bits)
                #expect(file.packedValue(MMS_SECTION_SPATIAL, position, field: "lat_cell") == UInt64(latitude))
                #expect(file.packedValue(MMS_SECTION_SPATIAL, position, field: "lon_cell") == UInt64(longitude))
                cellsChecked += 1
                return (latitude, longitude)
            }
            guard range.count > Int(MMS_SPATIAL_LEAF_SIZE) else {
                for position in range { _ = cell(position) }
                return
            }
            let boundBits = Int64(MMS_SPATIAL_BOUND_BITS)
            let latitudes = range.map { Int64(coordinate(values[$0] & MMS_SPATIAL_RECORD_MASK, longitude: false)) }
            let longitudes = range.map { Int64(coordinate(values[$0] & MMS_SPATIAL_RECORD_MASK, longitude: true)) }
            let rowStep = (box.1 - box.0) >> boundBits + 1, columnStep = (box.3 - box.2) >> boundBits + 1
            let expected = [(latitudes.min()! - box.0) / rowStep, (latitudes.max()! - box.0) / rowStep,
                            (longitudes.min()! - box.2) / columnStep, (longitudes.max()! - box.2) / columnStep]
            #expect(bounds[(number - 1) * 4 ..< number * 4].map(Int64.init) == expected, "node \(number)")
            boundsChecked.insert(number)
            let middle = range.lowerBound + range.count / 2
            let (row, column) = cell(middle)
            var low = box, high = box
            if values[middle] & MMS_SPATIAL_AXIS_LONGITUDE != 0 {
                high.2 = box.2 + column * longitudeStep
                low.3 = min(box.3, high.2 + longitudeStep - 1)
            } else {
                high.0 = box.0 + row * latitudeStep
                low.1 = min(box.1, high.0 + latitudeStep - 1)
            }
            checkCells(range.lowerBound ..< middle, low, number: 2 * number)
            checkCells(middle + 1 ..< range.upperBound, high, number: 2 * number + 1)
        }
        checkCells(0 ..< records.count, (-90 * scale, 90 * scale, -180 * scale, 180 * scale))
        #expect(cellsChecked == records.count)
        // The numbers no inner node has (leaves at depth 6, if any) hold zero bounds.
        #expect(boundsChecked.count > 60 && boundsChecked.allSatisfy { $0 < 128 })
        for number in 1 ..< 128 where !boundsChecked.contains(number) { #expect(bounds[(number - 1) * 4 ..< number * 4].allSatisfy { $0 == 0 }) }
        var splitsOnLongitude = 0, splits = 0
        func check(_ range: Range<Int>) {
            guard range.count > Int(MMS_SPATIAL_LEAF_SIZE) else {
                #expect(range.allSatisfy { values[$0] & MMS_SPATIAL_AXIS_LONGITUDE == 0 })
                return
            }
            let middle = range.lowerBound + range.count / 2
            let longitude = values[middle] & MMS_SPATIAL_AXIS_LONGITUDE != 0
            let pivot = coordinate(values[middle] & MMS_SPATIAL_RECORD_MASK, longitude: longitude)
            #expect(values[range.lowerBound ..< middle].allSatisfy { coordinate($0 & MMS_SPATIAL_RECORD_MASK, longitude: longitude) <= pivot })
            #expect(values[middle + 1 ..< range.upperBound].allSatisfy { coordinate($0 & MMS_SPATIAL_RECORD_MASK, longitude: longitude) >= pivot })
            splits += 1
            if longitude { splitsOnLongitude += 1 }
            check(range.lowerBound ..< middle)
            check(middle + 1 ..< range.upperBound)
        }
        check(0 ..< records.count)
        #expect(splitsOnLongitude > 0 && splitsOnLongitude < splits, "\(splitsOnLongitude) of \(splits) splits on longitude")
    }

    /// The walk tests a node's bounds before entering it: bounds narrowed to a corner of their box leave
    /// the node's cities out of some answers, and verify names every damaged node's bounds.
    @Test func theWalkReadsTheBoundsAndVerifyChecksThem() throws {
        let records = Self.syntheticRecords(count: 1_000, seed: 9)
        let source = SourceDescription(name: "spatial.json", size: 0, checksum: 0, builtAt: 0)
        let intact = IndexFile(try IndexBuilder.makeIndex(records: records, source: source).bytes)
        let all = ScanRecords(intact.bytes)
        let points = try [(10.0, 170.0), (48.85, 2.35), (-33.9, 151.2), (0, 0), (64, -20)].map { try GeoPoint(latitude: $0.0, longitude: $0.1) }
        let nearest = points.map { Self.scan(all, $0, .none, limit: 10).found.map(\.id) }
        let index = try CityIndex(bytes: Data(intact.bytes))
        #expect(try points.map { try index.nearest(to: $0, limit: 10).map(\.id) } == nearest)
        let bounds = intact.section(MMS_SECTION_SPATIAL_BOUNDS)
        var inner = 0, changed = 0
        for node in 1 ... bounds.count / 4 {
            let place = bounds.lowerBound + (node - 1) * 4 ..< bounds.lowerBound + node * 4
            guard intact.bytes[place].contains(where: { $0 != 0 }) else { continue } // no inner node
            inner += 1
            var damaged = intact
            // Rows and columns 0 to 0: the south-west corner of the node's box.
            for offset in place { damaged.bytes[offset] = 0 }
            let index = try CityIndex(bytes: Data(damaged.withChecksumFixed()), path: "damaged.mms")
            if try points.map({ try index.nearest(to: $0, limit: 10).map(\.id) }) != nearest { changed += 1 }
            do {
                try index.verify()
                Issue.record("node \(node)'s bounds zeroed, and verify passed")
            } catch let .invalidIndex(_, byteOffset, message) {
                #expect(byteOffset == place.lowerBound && message.contains("spatial node \(node)'s bounds"), "\(message)")
            } catch {
                Issue.record("\(error)")
            }
        }
        #expect(inner > 60 && changed > 0, "\(changed) of \(inner) damaged nodes change the nearest")
    }

    /// Bad points and filters are refused before any search, as everywhere else.
    @Test func aFilterThatNoCityPassesGivesNone() throws {
        let (index, records) = try Self.syntheticIndex(count: 200, seed: 3)
        let point = try GeoPoint(latitude: 0, longitude: 0)
        let nobody = GeoFilter(countries: ["ZZ"])
        #expect(try index.nearest(to: point, limit: 10, filter: nobody).isEmpty)
        #expect(try index.search("", order: .distance, filter: nobody, near: Proximity(point: point)).count == 0)
        let tiny = GeoFilter(within: try GeoCircle(center: records.points[7], radiusKm: 0))
        try Self.check(index, records, point, tiny, limit: 5)
    }
}
