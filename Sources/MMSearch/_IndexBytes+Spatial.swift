import CMMSearchFormat

/// Reverse lookups through SPATIAL (`include/mmsearch_format.h`, "The spatial index"): the records
/// nearest a point by (haversine distance, id), filters applied, and the count of the records that
/// pass a filter, each a walk of the implicit k-d tree that enters a node only when its box can hold
/// an answer.
extension _IndexBytes {
    /// SPATIAL's point at `position`, checked to lie inside SPATIAL (its record number is not checked:
    /// `spatialRecord` does that).
    @inline(__always)
    func spatialPoint(_ position: Int) throws(MMSearchError) -> mms_spatial_point {
        guard position >= 0, position < layout.recordCount else {
            throw corrupt(layout.spatial.start, "spatial position \(position) does not exist (\(layout.recordCount) points)")
        }
        return unpackedPoint(position)
    }

    /// SPATIAL's point at `position` (checked by the caller to be below the record count), unpacked: its
    /// cell's low corner (see `_SpatialBox.cell`), its record number and axis bit.
    @inline(__always)
    func unpackedPoint(_ position: Int) -> mms_spatial_point {
        let start = layout.spatial.start, bit = position * layout.spatial.width, fields = layout.point
        let record = bits(start, at: bit + fields.record, fields.recordMask), axis = bits(start, at: bit + fields.axis, 1)
        return mms_spatial_point(
            lat_e7: Self.coordinate(bits(start, at: bit, _PointFields.latitudeMask) << MMS_SPATIAL_CELL_SHIFT, unit: 1, bias: Int64(MMS_LATITUDE_BIAS)),
            lon_e7: Self.coordinate(bits(start, at: bit + _PointFields.longitude, _PointFields.longitudeMask) << MMS_SPATIAL_CELL_SHIFT, unit: 1, bias: Int64(MMS_LONGITUDE_BIAS)),
            record_axis: record | axis << 31
        )
    }

    /// The low corner of the cell that holds (`latitude`, `longitude`): what SPATIAL stores of them.
    static func cellCorner(latitude: Int32, longitude: Int32) -> (latitude: Int32, longitude: Int32) {
        let shift = Int64(MMS_SPATIAL_CELL_SHIFT), latitudeBias = Int64(MMS_LATITUDE_BIAS), longitudeBias = Int64(MMS_LONGITUDE_BIAS)
        return (Int32(((Int64(latitude) + latitudeBias) >> shift) << shift - latitudeBias),
                Int32(((Int64(longitude) + longitudeBias) >> shift) << shift - longitudeBias))
    }

    /// The record number of the point at `position`, checked: bits 29 and 30 clear and the record inside
    /// RECORDS; with the pivot's axis (true: longitude).
    @inline(__always)
    func spatialRecord(_ point: mms_spatial_point, at position: Int) throws(MMSearchError) -> (record: Int, longitude: Bool) {
        let value = point.record_axis
        let record = Int(value & MMS_SPATIAL_RECORD_MASK)
        guard value & ~(MMS_SPATIAL_RECORD_MASK | MMS_SPATIAL_AXIS_LONGITUDE) == 0, record < layout.recordCount else {
            throw corrupt(layout.spatial.byteOffset(position),
                          "spatial point \(position) names \(value), not a record of \(layout.recordCount) and an axis bit")
        }
        return (record, value & MMS_SPATIAL_AXIS_LONGITUDE != 0)
    }

    /// Record `index`'s latitude and longitude in 1e-7 degree.
    @inline(__always)
    func coordinates(ofRecord index: Int) throws(MMSearchError) -> (latitude: Int32, longitude: Int32) {
        try checkRecord(index)
        return coordinates(packedCoordinates(ofRecord: index))
    }

    /// The `limit` records nearest `point` that pass `filter` (nil: all), nearest first, by
    /// (distance, id, record): each with its distance in km, as `GeoPoint.distanceKm` computes it.
    /// The walk reads SPATIAL's points (coordinates beside record numbers), and RECORDS only for the
    /// records it keeps (and those a filter asks about); it allocates the answer and, for a `limit`
    /// past what fits on the stack, its best-so-far buffer.
    func nearest(to point: GeoPoint, limit: Int, filter: ResolvedFilter?) throws(MMSearchError) -> [(record: Int, distanceKm: Double)] {
        guard limit > 0, layout.recordCount > 0 else { return [] }
        let capacity = Swift.min(limit, layout.recordCount)
        return try withUnsafeTemporaryAllocation(of: _NearestSearch.Found.self, capacity: capacity) { (buffer) throws(MMSearchError) in
            try withUnsafeTemporaryAllocation(of: _NearestSearch.Frame.self, capacity: _NearestSearch.stackCapacity) { (stack) throws(MMSearchError) in
                var search = _NearestSearch(index: self, point: point, heap: buffer, stack: stack, filter: filter)
                try search.run()
                return search.sorted()
            }
        }
    }

    /// The cities at `positions` of the nearest `point` that pass `filter` (as `nearest(to:limit:filter:)`
    /// orders them), each found by its empty-query entry and carrying the walk's distance: the same
    /// operations on the same doubles as `point.distanceKm(to:)`. Fewer than asked means the spatial
    /// index holds fewer than `expected` records that pass (nil: any number may).
    func nearestCities(to point: GeoPoint, in positions: Range<Int>, filter: ResolvedFilter?, expected: Int?) throws(MMSearchError) -> [City] {
        let found = try nearest(to: point, limit: positions.upperBound, filter: filter)
        if let expected, found.count < positions.upperBound {
            throw corrupt(layout.spatial.start, "the spatial index gives \(found.count) cities of the \(positions.upperBound) asked, of \(expected) that pass")
        }
        let kept = found[Swift.min(positions.lowerBound, found.count)...]
        var matches: [(record: Int, entry: UInt32?)] = []
        matches.reserveCapacity(kept.count)
        for (record, _) in kept { matches.append((record, try emptyQueryEntry(ofRecord: record))) }
        var cities = try self.cities(matches)
        for (position, (_, distanceKm)) in zip(cities.indices, kept) { cities[position].distanceKm = distanceKm }
        return cities
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
                for position in range {
                    let record = try spatialRecord(try spatialPoint(position), at: position).record
                    if try passes(record, filter) { count += 1 }
                }
                return
            }
            let middle = range.lowerBound + range.count / 2
            let pivot = try spatialPoint(middle)
            let (record, longitude) = try spatialRecord(pivot, at: middle)
            if try passes(record, filter) { count += 1 }
            let (low, high) = box.split(longitude: longitude, atCell: longitude ? pivot.lon_e7 : pivot.lat_e7)
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
        if !hasDisplayName(record) {
            // The first given alternate of the record (ALTERNATES is sorted by record): a binary search
            // whose every read is checked, so damage it reads throws and damage it skips changes nothing.
            var low = 0, high = layout.givenAlternateCount
            while low < high {
                let middle = low + (high - low) / 2
                if try alternateOwner(middle) < index { low = middle + 1 } else { high = middle }
            }
            if low < layout.givenAlternateCount, try alternateOwner(low) == index { name = layout.recordCount + low }
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

    /// The boxes of the children of a pivot whose cell starts at `corner` on the axis: the low child's
    /// cut at the cell's high edge, the high child's at its low edge (the pivot lies between).
    @inline(__always)
    func split(longitude: Bool, atCell corner: Int32) -> (low: _SpatialBox, high: _SpatialBox) {
        var (low, high) = split(longitude: longitude, at: corner)
        if longitude {
            low.east = Swift.min(corner &+ Self.cellSpan, Self.world.east)
        } else {
            low.north = Swift.min(corner &+ Self.cellSpan, Self.world.north)
        }
        return (low, high)
    }

    /// The box of a point's cell, from its low corner: every coordinate whose cell it is.
    @inline(__always)
    static func cell(latitude: Int32, longitude: Int32) -> _SpatialBox {
        _SpatialBox(south: latitude, north: Swift.min(latitude &+ cellSpan, world.north), west: longitude, east: Swift.min(longitude &+ cellSpan, world.east))
    }

    /// A cell's span less one, in units: its corners are this far apart on each axis.
    static let cellSpan = Int32(1 << MMS_SPATIAL_CELL_SHIFT) - 1

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
    /// that ends on a subtracted term is below it), within 1.6e-4 of it. Multiplied by the reciprocals
    /// of 6, 20 and 42, not divided (a division waits 13 to 20 cycles; a bound is computed for every
    /// point a walk considers): they differ in the last bit, which `margin` covers.
    @inline(__always)
    static func sinBelow(_ x: Double) -> Double {
        let x2 = x * x
        return x * (1 - x2 * (1 / 6) * (1 - x2 * (1 / 20) * (1 - x2 * (1 / 42))))
    }

    /// A lower bound of `a` to every point of `box`: the larger of two.
    /// The first takes the least latitude difference, the least longitude difference around the circle
    /// (across the 180th meridian too) and the least cosine of the box's latitudes (0 at a pole), each
    /// of which only lowers a = sin²(Δφ/2) + cos φ1 cos φ2 sin²(Δλ/2).
    /// The second holds for a box whose longitudes all differ from the point's by at least dL > 0: every
    /// point of it is at least as far as the meridian at dL (a point's distance grows with its
    /// longitude difference), which is the cross-track distance d, sin d = cos φ1 sin dL, for dL < 90°,
    /// and the distance to the nearer pole, 90° - |φ1|, from 90° on; a = sin²(d/2) = s² / (2 (1 + √(1 - s²)))
    /// with s = sin d. It keeps a box that reaches a pole (the first's cosine 0) from being entered
    /// whatever its longitudes.
    @inline(__always)
    func a(south: Int32, north: Int32, west: Int32, east: Int32) -> Double {
        let (separate, dL) = separateBound(south: south, north: north, west: west, east: east)
        let reach = dL - Self.slack
        guard reach > 0 else { return separate }
        let acrossTrack: Double
        if reach >= .pi / 2 {
            let half = Self.sinBelow(Swift.max(0, .pi / 2 - abs(p1) - Self.slack) / 2)
            acrossTrack = half * half
        } else {
            let sine = cosP1 * Self.sinBelow(reach), square = sine * sine
            acrossTrack = square / (2 * (1 + Swift.max(0, 1 - square).squareRoot()))
        }
        return Swift.max(separate, acrossTrack)
    }

    /// A lower bound of `a` to every point of a point's `cell`: the first bound of `a(south:...)` alone
    /// (a cell spans 2e-4 degree: the across-track bound adds nothing there worth its square root).
    @inline(__always)
    func a(cell: _SpatialBox) -> Double {
        separateBound(south: cell.south, north: cell.north, west: cell.west, east: cell.east).a
    }

    /// The first bound of `a(south:...)`, from the least latitude difference, the least longitude
    /// difference around the circle and the least cosine of the box's latitudes; and that longitude
    /// difference, in radians.
    @inline(__always)
    func separateBound(south: Int32, north: Int32, west: Int32, east: Int32) -> (a: Double, dL: Double) {
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
        return (sinP * sinP + cosP1 * cosBelow * (sinL * sinL), dL)
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

/// One k-nearest search: the best so far in a max-heap by (distance, id, record), the worst on top, in
/// a buffer of `limit` the caller allocates; the `a` a record or box must beat once the heap is full;
/// and the nodes still to enter on an explicit stack (a far child waits there while the near one is
/// walked, and is entered only if it still may hold a better record when its turn comes).
struct _NearestSearch {
    /// A kept record and its `a`; its distance is computed (asin) only where two `a`s are close
    /// enough for their distances to tie, and for the answer.
    struct Found {
        var a: Double
        var record: UInt32
    }

    /// Outside this relative difference of `a`, distances differ the same way: Haversine.km (a square
    /// root, an asin, a product) keeps a relative difference of 1e-12 in `a` as about 5e-13, far more
    /// than its few roundings of 1e-16, so the distances computed differ and in the same order.
    static let tieBand = 1e-12

    /// A node still to enter, its range of SPATIAL and its box, and the pivot of its parent (the point
    /// between it and its near sibling, considered when the frame is taken up; -1 for the root).
    struct Frame {
        var low: Int32
        var high: Int32
        var pivot: Int32
        var box: _SpatialBox
    }

    /// More than the depth of any tree of at most 2^29 points (each child's range is under half its
    /// parent's, so depth <= 30), and the stack holds at most one far child a level.
    static let stackCapacity = 64

    let index: _IndexBytes
    let haversine: Haversine
    let bound: _HaversineBound
    let filter: _IndexBytes.ResolvedFilter?
    let filterBounds: _FilterBounds?
    let heap: UnsafeMutableBufferPointer<Found>
    var count = 0
    let stack: UnsafeMutableBufferPointer<Frame>
    /// The worst kept `a` once the heap is full; infinity before.
    var worstA = Double.infinity
    /// The point in 1e-7 degree, and how far (in 1e-7 degree of latitude, and of longitude around the
    /// circle) a record or a box must at most be from it to possibly beat `worstA`: a quick test in
    /// front of the bounds (`updateReach`); infinity before the heap is full.
    let latitudeUnits: Double
    let longitudeUnits: Double
    var latitudeReach = Double.infinity
    var longitudeReach = Double.infinity
    /// SPATIAL's first byte, and its point count (the record count; the layout checked at open that
    /// SPATIAL holds that many points inside the file).
    let spatial: Int
    let points: Int

    init(index: _IndexBytes, point: GeoPoint, heap: UnsafeMutableBufferPointer<Found>, stack: UnsafeMutableBufferPointer<Frame>, filter: _IndexBytes.ResolvedFilter?) {
        self.index = index
        haversine = Haversine(latitude: point.latitude, longitude: point.longitude)
        bound = _HaversineBound(haversine)
        self.heap = heap
        self.stack = stack
        self.filter = filter
        filterBounds = filter.map { _FilterBounds($0.filter) }
        spatial = index.layout.spatial.start
        points = index.layout.recordCount
        latitudeUnits = point.latitude * Double(MMS_COORDINATE_SCALE)
        longitudeUnits = point.longitude * Double(MMS_COORDINATE_SCALE)
    }

    /// Sets the reaches from `worstA`, without the C library. Every record with `a` at most
    /// worstA × (1 + margin) (all a search may keep) is within the angle d = 2 asin x of the point,
    /// x = √a; asin x <= x / √(1 - x²), so d <= dmax = 2x / √(1 - x²) (taken larger still). Its latitude
    /// differs by at most dmax, and its longitude by at most asin(sin dmax / cos φ1) <= r / √(1 - r²),
    /// r = dmax / cos φ1 (the least distance to the places whose longitude differs by dL is
    /// asin(cos φ1 sin dL) up to dL = 90°, and 90° - |φ1| = asin(cos φ1) beyond; sin y <= y), or by
    /// anything when r is near 1. The reaches add a relative 1e-8, 1e-9 radians and 2 units to cover
    /// every rounding: they only let the bounds behind them decide.
    mutating func updateReach() {
        let unit = _HaversineBound.radiansPerUnit
        let square = Swift.min(1, worstA * (1 + 1e-8))
        guard square < 0.25 else {
            latitudeReach = .infinity
            longitudeReach = .infinity
            return
        }
        let dmax = 2 * square.squareRoot() / (1 - square).squareRoot() * (1 + 1e-8) + 1e-9
        latitudeReach = dmax / unit + 2
        let ratio = dmax / bound.cosP1
        if !(ratio < 0.5) {
            longitudeReach = .infinity
        } else {
            longitudeReach = (ratio / (1 - ratio * ratio).squareRoot() * (1 + 1e-8) + 1e-9) / unit + 2
        }
    }

    /// Whether the quick test rules out every point of `box`: its latitudes or its longitudes (around
    /// the circle) all farther than the reach.
    @inline(__always)
    func outOfReach(_ box: _SpatialBox) -> Bool {
        let south = Double(box.south), north = Double(box.north)
        let dP = latitudeUnits < south ? south - latitudeUnits : latitudeUnits > north ? latitudeUnits - north : 0
        if dP > latitudeReach { return true }
        let west = Double(box.west), east = Double(box.east)
        guard longitudeUnits < west || longitudeUnits > east else { return false }
        let turn = 360 * Double(MMS_COORDINATE_SCALE)
        let toWest = abs(longitudeUnits - west), toEast = abs(longitudeUnits - east)
        let dL = Swift.min(Swift.min(toWest, turn - toWest), Swift.min(toEast, turn - toEast))
        return dL > longitudeReach
    }

    /// Whether a kept record is worse than another by (distance, id, record): by `a` when the two are
    /// far enough apart (`tieBand`), else by the distances, and ids (read from RECORDS) only when the
    /// distances tie. Both records were checked to be in RECORDS when kept.
    @inline(__always)
    func worse(_ x: Found, _ y: Found) -> Bool {
        if x.a > y.a * (1 + Self.tieBand) { return true }
        if y.a > x.a * (1 + Self.tieBand) { return false }
        let xDistance = Haversine.km(x.a), yDistance = Haversine.km(y.a)
        if xDistance != yDistance { return xDistance > yDistance }
        let xId = id(x.record), yId = id(y.record)
        if xId != yId { return xId > yId }
        return x.record > y.record
    }

    /// The id of a record already checked to be below the record count.
    @inline(__always)
    func id(_ record: UInt32) -> UInt32 {
        index.bits(index.layout.records.start, at: Int(record) * index.layout.records.width, index.layout.record.idMask)
    }

    /// Whether the node with `box` may hold a record that beats the worst kept (and passes the filter).
    @inline(__always)
    func mayHold(_ box: _SpatialBox) -> Bool {
        if let filterBounds, filterBounds.excludes(box) { return false }
        return worstA == .infinity || !outOfReach(box) && !_HaversineBound.exceeds(bound.a(south: box.south, north: box.north, west: box.west, east: box.east), worstA)
    }

    /// The point at `position`, which the caller has checked is below `points` (its node's range is).
    @inline(__always)
    func point(_ position: Int) -> mms_spatial_point {
        index.unpackedPoint(position)
    }

    /// The walk from the root, down the children on the point's side to a leaf first (so that the best
    /// so far are near before most of the tree is tested against them); each far child waits on the
    /// stack with its parent's pivot, which is considered when the frame is taken up, and the child
    /// entered then if it still may hold a better record. Every range walked lies in [0, points) (the
    /// root's is, and a child's is inside its parent's), checked once a node.
    mutating func run() throws(MMSearchError) {
        stack[0] = Frame(low: 0, high: Int32(truncatingIfNeeded: points), pivot: -1, box: _SpatialBox.world)
        guard Int(stack[0].high) == points else { throw index.corrupt(spatial, "the spatial index holds \(points) points, more than 2^31") }
        var depth = 1
        while depth > 0 {
            depth -= 1
            var node = stack[depth]
            if node.pivot >= 0 { try consider(point(Int(node.pivot)), at: Int(node.pivot)) }
            if !mayHold(node.box) { continue }
            while true {
                let low = Int(node.low), high = Int(node.high)
                guard 0 <= low, low <= high, high <= points else {
                    throw index.corrupt(spatial, "a spatial node \(low) ..< \(high) lies outside the \(points) points")
                }
                if high - low <= Int(MMS_SPATIAL_LEAF_SIZE) {
                    for position in low ..< high { try consider(point(position), at: position) }
                    break
                }
                let middle = low + (high - low) / 2
                let pivot = point(middle)
                let longitude = pivot.record_axis & MMS_SPATIAL_AXIS_LONGITUDE != 0
                let value = longitude ? pivot.lon_e7 : pivot.lat_e7
                let (lowBox, highBox) = node.box.split(longitude: longitude, atCell: value)
                let lowNode = Frame(low: node.low, high: Int32(middle), pivot: -1, box: lowBox)
                let highNode = Frame(low: Int32(middle + 1), high: node.high, pivot: -1, box: highBox)
                let here = longitude ? haversine.l1 : haversine.p1
                let (near, farNode) = here <= Double(value) * _HaversineBound.radiansPerUnit ? (lowNode, highNode) : (highNode, lowNode)
                var far = farNode
                far.pivot = Int32(middle)
                guard depth < stack.count else { throw index.corrupt(spatial, "the spatial index is deeper than \(stack.count) levels") }
                stack[depth] = far
                depth += 1
                guard mayHold(near.box) else { break }
                node = near
            }
        }
    }

    /// Keeps the record of `point` (at `position`) if it passes the filter and beats the worst kept: a
    /// bound from the point's cell first, then the record's exact coordinates (RECORDS) and `a`, the
    /// distance (asin) only for a record that may be kept. The record number is checked before the
    /// record is read or kept.
    @inline(__always)
    mutating func consider(_ point: mms_spatial_point, at position: Int) throws(MMSearchError) {
        let full = count == heap.count
        if full {
            let cell = _SpatialBox.cell(latitude: point.lat_e7, longitude: point.lon_e7)
            if outOfReach(cell) || _HaversineBound.exceeds(bound.a(cell: cell), worstA) { return }
        }
        let record = try index.spatialRecord(point, at: position).record
        if let filter, !(try index.passes(record, filter)) { return }
        let (latitude, longitude) = try index.coordinates(ofRecord: record)
        let scale = Double(Coordinate.scale)
        let a = haversine.a(latitude: Double(latitude) / scale, longitude: Double(longitude) / scale)
        if full, a > worstA * (1 + _HaversineBound.margin) { return }
        let found = Found(a: a, record: UInt32(record))
        if full {
            guard worse(heap[0], found) else { return }
            heap[0] = found
            siftDown()
        } else {
            heap[count] = found
            count += 1
            siftUp()
        }
        if count == heap.count {
            worstA = heap[0].a
            updateReach()
        }
    }

    private mutating func siftUp() {
        var child = count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard worse(heap[child], heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown() {
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var worst = parent
            if left < count, worse(heap[left], heap[worst]) { worst = left }
            if right < count, worse(heap[right], heap[worst]) { worst = right }
            guard worst != parent else { return }
            heap.swapAt(parent, worst)
            parent = worst
        }
    }

    /// What was kept, nearest first.
    func sorted() -> [(record: Int, distanceKm: Double)] {
        var kept = UnsafeMutableBufferPointer(rebasing: heap[0 ..< count])
        kept.sort { worse($1, $0) }
        return kept.map { (Int($0.record), Haversine.km($0.a)) }
    }
}
