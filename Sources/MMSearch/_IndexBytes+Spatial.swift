import CMMSearchFormat

/// Reverse lookups through SPATIAL (`include/mmsearch_format.h`, "The spatial index"): the records
/// nearest a point by (haversine distance, id), filters applied, and the count of the records that
/// pass a filter, each a walk of the implicit k-d tree that enters a node only when its box can hold
/// an answer.
extension _IndexBytes {
    /// The SPATIAL value at `position` as a record number, checked: bits 29 and 30 clear and the record
    /// inside RECORDS; with the pivot's axis (true: longitude).
    @inline(__always)
    func spatialEntry(_ position: Int) throws(MMSearchError) -> (record: Int, longitude: Bool) {
        let value = try uint32(position, of: layout.spatial, count: layout.recordCount, "spatial position \(position) does not exist")
        let record = Int(value & MMS_SPATIAL_RECORD_MASK)
        guard value & ~(MMS_SPATIAL_RECORD_MASK | MMS_SPATIAL_AXIS_LONGITUDE) == 0, record < layout.recordCount else {
            throw corrupt(layout.spatial + position * 4, "spatial entry \(position) is \(value), not a record of \(layout.recordCount) and an axis bit")
        }
        return (record, value & MMS_SPATIAL_AXIS_LONGITUDE != 0)
    }

    /// Record `index`'s latitude and longitude in 1e-7 degree.
    @inline(__always)
    func coordinates(ofRecord index: Int) throws(MMSearchError) -> (latitude: Int32, longitude: Int32) {
        guard index >= 0, index < layout.recordCount else {
            throw corrupt(layout.records, "record \(index) does not exist (\(layout.recordCount) records)")
        }
        let offset = layout.records + index * _IndexLayout.recordSize
        return (raw.loadUnaligned(fromByteOffset: offset + Self.latitudeField, as: Int32.self),
                raw.loadUnaligned(fromByteOffset: offset + Self.longitudeField, as: Int32.self))
    }

    static let latitudeField = MemoryLayout<mms_record>.offset(of: \.lat_e7)!
    static let longitudeField = MemoryLayout<mms_record>.offset(of: \.lon_e7)!
    static let idField = MemoryLayout<mms_record>.offset(of: \.id)!

    /// The `limit` records nearest `point` that pass `filter` (nil: all), nearest first, by
    /// (distance, id, record): each with its distance in km, as `GeoPoint.distanceKm` computes it.
    func nearest(to point: GeoPoint, limit: Int, filter: ResolvedFilter?) throws(MMSearchError) -> [(record: Int, distanceKm: Double)] {
        guard limit > 0, layout.recordCount > 0 else { return [] }
        var search = _NearestSearch(index: self, point: point, limit: Swift.min(limit, layout.recordCount), filter: filter)
        try search.visit(0 ..< layout.recordCount, _SpatialBox.world)
        return search.sorted()
    }

    /// How many records pass `filter`: every record's check, but for whole nodes that a box or a
    /// `within` disc leaves out.
    func spatialCount(_ filter: ResolvedFilter) throws(MMSearchError) -> Int {
        let bounds = _FilterBounds(filter.filter)
        var count = 0
        /// At most one call a SPATIAL position: each node's range is inside its parent's and without its pivot.
        func visit(_ range: Range<Int>, _ box: _SpatialBox) throws(MMSearchError) {
            guard !bounds.excludes(box) else { return }
            if range.count <= Int(MMS_SPATIAL_LEAF_SIZE) {
                for position in range where try passes(try spatialEntry(position).record, filter) { count += 1 }
                return
            }
            let middle = range.lowerBound + range.count / 2
            let (record, longitude) = try spatialEntry(middle)
            if try passes(record, filter) { count += 1 }
            let split = try coordinates(ofRecord: record)
            let (low, high) = box.split(longitude: longitude, at: longitude ? split.longitude : split.latitude)
            try visit(range.lowerBound ..< middle, low)
            try visit(middle + 1 ..< range.upperBound, high)
        }
        try visit(0 ..< layout.recordCount, _SpatialBox.world)
        return count
    }

    /// The entry a record is found by when every record matches (the empty query): its PRIMARY one,
    /// of its display name unless that is empty and it has given alternates, then of its first.
    func emptyQueryEntry(ofRecord index: Int) throws(MMSearchError) -> UInt32 {
        let record = try record(index)
        var name = index
        if record.name_length == 0 {
            // The first given alternate of the record (ALTERNATES is sorted by record): a binary search
            // whose every read is checked, so damage it reads throws and damage it skips changes nothing.
            var low = 0, high = layout.givenAlternateCount
            while low < high {
                let middle = low + (high - low) / 2
                if Int(try alternate(middle).record) < index { low = middle + 1 } else { high = middle }
            }
            if low < layout.givenAlternateCount, Int(try alternate(low).record) == index { name = layout.recordCount + low }
        }
        return MMS_KIND_PRIMARY.rawValue << MMS_ENTRY_KIND_SHIFT | UInt32(name)
    }
}

/// A node's box in 1e-7 degree, edges included: the world, cut at each ancestor's pivot.
struct _SpatialBox {
    var south: Int32
    var north: Int32
    var west: Int32
    var east: Int32

    static let world = _SpatialBox(south: -90 * Int32(MMS_COORDINATE_SCALE), north: 90 * Int32(MMS_COORDINATE_SCALE),
                                   west: -180 * Int32(MMS_COORDINATE_SCALE), east: 180 * Int32(MMS_COORDINATE_SCALE))

    /// The boxes of the low child (at most `value` on the axis) and of the high child (at least).
    @inline(__always)
    func split(longitude: Bool, at value: Int32) -> (low: _SpatialBox, high: _SpatialBox) {
        var low = self, high = self
        if longitude {
            low.east = value
            high.west = value
        } else {
            low.north = value
            high.south = value
        }
        return (low, high)
    }

    @inline(__always)
    func contains(latitude: Int32, longitude: Int32) -> Bool {
        south <= latitude && latitude <= north && west <= longitude && longitude <= east
    }
}

/// Lower bounds of the haversine `a` (sin²(d / 2R)) from one point, without calling the C library:
/// what a search compares a node's box and a record with before it computes a distance exactly.
struct _HaversineBound {
    let p1: Double
    let l1: Double
    let cosP1: Double

    init(_ haversine: Haversine) {
        p1 = haversine.p1
        l1 = haversine.l1
        cosP1 = haversine.cosP1
    }

    /// Radians per 1e-7 degree.
    static let radiansPerUnit = Haversine.toRadians / Double(MMS_COORDINATE_SCALE)
    /// What the bound takes off every angle, in radians: more than the rounding of any angle the exact
    /// formula computes (its radians are within 1e-15 of the true ones), far less than 1e-7 degree.
    static let slack = 1e-13
    /// A relative margin: a bound must beat a distance by this much to rule a box or a record out.
    static let margin = 1e-9

    /// sin x from below, for 0 <= x <= π/2: the sine series to x^7 (its terms shrink there, so a sum
    /// that ends on a subtracted term is below it), within 1.6e-4 of it.
    @inline(__always)
    static func sinBelow(_ x: Double) -> Double {
        let x2 = x * x
        return x * (1 - x2 / 6 * (1 - x2 / 20 * (1 - x2 / 42)))
    }

    /// A lower bound of `a` to every point of `box`: the least latitude difference, the least longitude
    /// difference around the circle (across the 180th meridian too) and the least cosine of the box's
    /// latitudes (0 at a pole), each of which only lowers a = sin²(Δφ/2) + cos φ1 cos φ2 sin²(Δλ/2).
    @inline(__always)
    func a(south: Int32, north: Int32, west: Int32, east: Int32) -> Double {
        let unit = Self.radiansPerUnit
        let southP = Double(south) * unit, northP = Double(north) * unit
        let westL = Double(west) * unit, eastL = Double(east) * unit
        let dP = p1 < southP ? southP - p1 : p1 > northP ? p1 - northP : 0
        var dL = 0.0
        if l1 < westL || l1 > eastL {
            let toWest = abs(l1 - westL), toEast = abs(l1 - eastL)
            dL = Swift.min(Swift.min(toWest, 2 * .pi - toWest), Swift.min(toEast, 2 * .pi - toEast))
        }
        let halfP = Swift.min(Swift.max(0, dP - Self.slack), .pi) / 2
        let halfL = Swift.min(Swift.max(0, dL - Self.slack), .pi) / 2
        let highest = Swift.max(abs(southP), abs(northP))
        let cosBelow = Self.sinBelow(Swift.max(0, .pi / 2 - highest - Self.slack))
        let sinP = Self.sinBelow(halfP), sinL = Self.sinBelow(halfL)
        return sinP * sinP + cosP1 * cosBelow * (sinL * sinL)
    }

    /// Whether a bound rules out everything with an `a` at most `limit`.
    @inline(__always)
    static func exceeds(_ bound: Double, _ limit: Double) -> Bool { bound * (1 - margin) > limit * (1 + margin) }
}

/// What a filter lets a walk skip whole: the boxes outside its box, and those beyond its disc.
struct _FilterBounds {
    let box: BoundingBox?
    let disc: (bound: _HaversineBound, a: Double)?

    init(_ filter: GeoFilter) {
        box = filter.boundingBox
        if let within = filter.within, within.radiusKm / GeoPoint.earthRadiusKm < .pi {
            let sine = CMath.sin(within.radiusKm / (2 * GeoPoint.earthRadiusKm))
            disc = (_HaversineBound(Haversine(latitude: within.center.latitude, longitude: within.center.longitude)), sine * sine)
        } else {
            disc = nil
        }
    }

    /// Whether no point of `box` can pass.
    @inline(__always)
    func excludes(_ node: _SpatialBox) -> Bool {
        if let box {
            let scale = Double(MMS_COORDINATE_SCALE)
            // Degrees as a record's are computed: the integer over the scale (monotone, so edges agree).
            let south = Double(node.south) / scale, north = Double(node.north) / scale
            let west = Double(node.west) / scale, east = Double(node.east) / scale
            if north < box.south || south > box.north { return true }
            if box.west <= box.east ? (east < box.west || west > box.east) : (west > box.east && east < box.west) { return true }
        }
        if let disc, _HaversineBound.exceeds(disc.bound.a(south: node.south, north: node.north, west: node.west, east: node.east), disc.a) {
            return true
        }
        return false
    }
}

/// One k-nearest search: the best `limit` so far in a max-heap by (distance, id, record), the worst on
/// top, and the `a` a record or box must beat once the heap is full.
struct _NearestSearch {
    struct Found {
        var distance: Double
        var a: Double
        var id: UInt32
        var record: UInt32

        @inline(__always)
        static func worse(_ x: Found, _ y: Found) -> Bool {
            if x.distance != y.distance { return x.distance > y.distance }
            if x.id != y.id { return x.id > y.id }
            return x.record > y.record
        }
    }

    let index: _IndexBytes
    let haversine: Haversine
    let bound: _HaversineBound
    let limit: Int
    let filter: _IndexBytes.ResolvedFilter?
    let filterBounds: _FilterBounds?
    var heap: [Found] = []
    /// The worst kept `a` once `limit` are kept; infinity before.
    var worstA = Double.infinity

    init(index: _IndexBytes, point: GeoPoint, limit: Int, filter: _IndexBytes.ResolvedFilter?) {
        self.index = index
        haversine = Haversine(latitude: point.latitude, longitude: point.longitude)
        bound = _HaversineBound(haversine)
        self.limit = limit
        self.filter = filter
        filterBounds = filter.map { _FilterBounds($0.filter) }
        heap.reserveCapacity(limit)
    }

    /// Whether the node with `box` may hold a record that beats the worst kept (and passes the filter).
    @inline(__always)
    func mayHold(_ box: _SpatialBox) -> Bool {
        if let filterBounds, filterBounds.excludes(box) { return false }
        return worstA == .infinity || !_HaversineBound.exceeds(bound.a(south: box.south, north: box.north, west: box.west, east: box.east), worstA)
    }

    /// The node of `range` with `box` (already found worth entering): its pivot, then the child on the
    /// point's side, then the other if it still may hold a better record. Depth at most log2 of the
    /// record count, whatever the file says: each child's range is under half its parent's.
    mutating func visit(_ range: Range<Int>, _ box: _SpatialBox) throws(MMSearchError) {
        if range.count <= Int(MMS_SPATIAL_LEAF_SIZE) {
            for position in range { try consider(try index.spatialEntry(position).record) }
            return
        }
        let middle = range.lowerBound + range.count / 2
        let (record, longitude) = try index.spatialEntry(middle)
        let split = try index.coordinates(ofRecord: record)
        try consider(record, split)
        let value = longitude ? split.longitude : split.latitude
        let (low, high) = box.split(longitude: longitude, at: value)
        let lowRange = range.lowerBound ..< middle, highRange = middle + 1 ..< range.upperBound
        let here = longitude ? haversine.l1 : haversine.p1
        if here <= Double(value) * _HaversineBound.radiansPerUnit {
            if mayHold(low) { try visit(lowRange, low) }
            if mayHold(high) { try visit(highRange, high) }
        } else {
            if mayHold(high) { try visit(highRange, high) }
            if mayHold(low) { try visit(lowRange, low) }
        }
    }

    @inline(__always)
    mutating func consider(_ record: Int) throws(MMSearchError) {
        try consider(record, try index.coordinates(ofRecord: record))
    }

    /// Keeps `record` (at `at`) if it passes the filter and beats the worst kept: a bound first, the
    /// exact `a` next, the distance (asin) only for a record that may be kept.
    @inline(__always)
    mutating func consider(_ record: Int, _ at: (latitude: Int32, longitude: Int32)) throws(MMSearchError) {
        let full = heap.count == limit
        if full, _HaversineBound.exceeds(bound.a(south: at.latitude, north: at.latitude, west: at.longitude, east: at.longitude), worstA) { return }
        if let filter, !(try index.passes(record, filter)) { return }
        let scale = Double(Coordinate.scale)
        let a = haversine.a(latitude: Double(at.latitude) / scale, longitude: Double(at.longitude) / scale)
        if full, a > worstA * (1 + _HaversineBound.margin) { return }
        let id = index.raw.loadUnaligned(fromByteOffset: index.layout.records + record * _IndexLayout.recordSize + _IndexBytes.idField, as: UInt32.self)
        let found = Found(distance: Haversine.km(a), a: a, id: id, record: UInt32(record))
        if full {
            guard Found.worse(heap[0], found) else { return }
            heap[0] = found
            siftDown()
        } else {
            heap.append(found)
            siftUp()
        }
        if heap.count == limit { worstA = heap[0].a }
    }

    private mutating func siftUp() {
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Found.worse(heap[child], heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown() {
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var worst = parent
            if left < heap.count, Found.worse(heap[left], heap[worst]) { worst = left }
            if right < heap.count, Found.worse(heap[right], heap[worst]) { worst = right }
            guard worst != parent else { return }
            heap.swapAt(parent, worst)
            parent = worst
        }
    }

    /// What was kept, nearest first.
    func sorted() -> [(record: Int, distanceKm: Double)] {
        heap.sorted { Found.worse($1, $0) }.map { (Int($0.record), $0.distance) }
    }
}
