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
    /// cell numbers in its node's box (`_SpatialBox.cell(of:)`), its record number and axis bit. One
    /// load: a point is at most 56 bits (a record number of at most 31: record_count <= 2^30), so it
    /// lies in the 64 from its first bit, which starts at most 7 bits into the byte loaded.
    @inline(__always)
    func unpackedPoint(_ position: Int) -> mms_spatial_point {
        let fields = layout.point
        let word = packedWord(layout.spatial.start, at: position * layout.spatial.width)
        let record = UInt32(truncatingIfNeeded: word &>> UInt64(fields.record) & fields.recordMask)
        let axis = UInt32(truncatingIfNeeded: word &>> UInt64(fields.axis) & 1)
        return mms_spatial_point(
            lat_cell: UInt32(truncatingIfNeeded: word & _PointFields.cellMask),
            lon_cell: UInt32(truncatingIfNeeded: word &>> UInt64(_PointFields.longitude) & _PointFields.cellMask),
            record_axis: record | axis << 31
        )
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

    /// SPATIAL_BOUNDS' entry of node `number`, which the caller checked to be from 1 to below
    /// 2^`spatialBoundDepth` (so inside the section, whose length the layout checked).
    @inline(__always)
    func spatialBounds(ofNode number: Int) -> mms_spatial_bounds {
        raw.loadUnaligned(fromByteOffset: layout.spatialBounds + (number - 1) * _IndexLayout.spatialBoundsSize, as: mms_spatial_bounds.self)
    }

    /// Record `index`'s latitude and longitude in 1e-7 degree.
    @inline(__always)
    func coordinates(ofRecord index: Int) throws(MMSearchError) -> (latitude: Int32, longitude: Int32) {
        try checkRecord(index)
        return coordinates(packedCoordinates(ofRecord: index))
    }

    /// The `limit` records nearest `point` that pass `filter` (nil: all), nearest first, by
    /// (distance, id, record): each with its distance in km, as `GeoPoint.distanceKm` computes it.
    /// The walk reads SPATIAL's points (each one's cell beside its record number), and RECORDS only at
    /// the end, for the candidates whose cells leave them among the nearest (and for those a filter
    /// asks about); it allocates the answer and, for a `limit` past what fits on the stack, its
    /// buffers.
    func nearest(to point: GeoPoint, limit: Int, filter: ResolvedFilter?) throws(MMSearchError) -> [(record: Int, distanceKm: Double)] {
        guard limit > 0, layout.recordCount > 0 else { return [] }
        let kept = Swift.min(limit, layout.recordCount)
        let room = _NearestSearch.candidateCapacity(limit: kept, records: layout.recordCount)
        return try withUnsafeTemporaryAllocation(of: Double.self, capacity: kept) { (uppers) throws(MMSearchError) in
            try withUnsafeTemporaryAllocation(of: _NearestSearch.Found.self, capacity: room) { (candidates) throws(MMSearchError) in
                try withUnsafeTemporaryAllocation(of: _NearestSearch.Frame.self, capacity: _NearestSearch.stackCapacity) { (stack) throws(MMSearchError) in
                    var search = _NearestSearch(index: self, point: point, uppers: uppers, candidates: candidates, stack: stack, filter: filter)
                    try search.run(in: self)
                    return try search.nearest(in: self)
                }
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
        // Each city as matched by its display name: the entry `emptyQueryEntry` gives unless the name is
        // empty (a name read non-empty is there), so only those are asked it, after the page's reads.
        var cities = try self.cities(count: kept.count) { (offset) throws(MMSearchError) in (kept[kept.startIndex + offset].record, nil) }
        for (position, (record, distanceKm)) in zip(cities.indices, kept) {
            cities[position].distanceKm = distanceKm
            guard cities[position].name.isEmpty else { continue }
            let entry = try emptyQueryEntry(ofRecord: record)
            if Int(entry & MMS_ENTRY_NAME_MASK) != record { cities[position].matchedName = try nameString(ofEntry: entry) }
        }
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
            let middle = KDTree.pivot(of: range)
            let pivot = try spatialPoint(middle)
            let (record, longitude) = try spatialRecord(pivot, at: middle)
            if try passes(record, filter) { count += 1 }
            let (low, high) = box.split(longitude: longitude, atCell: box.cell(of: pivot))
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

/// A node's box in 1e-7 degree, edges included: the world, cut at each ancestor's pivot's cell; and
/// the cells a box is cut in ("Boxes and cells"), which the builder writes points with and a reader
/// reads them back by.
package struct _SpatialBox: Equatable {
    package var south: Int32
    package var north: Int32
    package var west: Int32
    package var east: Int32

    package init(south: Int32, north: Int32, west: Int32, east: Int32) {
        (self.south, self.north, self.west, self.east) = (south, north, west, east)
    }

    package static let world = _SpatialBox(south: -90 * Int32(MMS_COORDINATE_SCALE), north: 90 * Int32(MMS_COORDINATE_SCALE),
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

    /// The boxes of the children of a pivot with cell `cell` (inside this box): the low child's cut at
    /// the cell's high edge on the axis, the high child's at its low edge (the pivot lies between).
    @inline(__always)
    package func split(longitude: Bool, atCell cell: _SpatialBox) -> (low: _SpatialBox, high: _SpatialBox) {
        var low = self, high = self
        if longitude {
            low.east = cell.east
            high.west = cell.west
        } else {
            low.north = cell.north
            high.south = cell.south
        }
        return (low, high)
    }

    /// The span of one of the 2^`bits` cells (rows or columns) from `low` to `high` (edges included).
    @inline(__always)
    static func step(_ low: Int32, _ high: Int32, bits: UInt32 = MMS_SPATIAL_CELL_BITS) -> Int64 {
        (Int64(high) - Int64(low)) >> Int64(bits) + 1
    }

    /// The rows and columns of `extent`'s edges (a rectangle inside the box) in the box cut into
    /// 2^MMS_SPATIAL_BOUND_BITS, as its south-west and north-east corners' cells at those bits: what
    /// SPATIAL_BOUNDS stores of an inner node ("Bounds").
    package func bounds(of extent: _SpatialBox) -> mms_spatial_bounds {
        let low = cellNumbers(latitude: extent.south, longitude: extent.west, bits: MMS_SPATIAL_BOUND_BITS)
        let high = cellNumbers(latitude: extent.north, longitude: extent.east, bits: MMS_SPATIAL_BOUND_BITS)
        return mms_spatial_bounds(south: UInt8(clamping: low.latitude), north: UInt8(clamping: high.latitude),
                                  west: UInt8(clamping: low.longitude), east: UInt8(clamping: high.longitude))
    }

    /// The rectangle `bounds` stand for in this box: from the south-west corner of the cell (south,
    /// west) to the north-east corner of the cell (north, east) at MMS_SPATIAL_BOUND_BITS, so inside the
    /// box whatever the bytes (damaged bounds give wrong answers, which verify finds, never a read out
    /// of bounds).
    @inline(__always)
    func rectangle(_ bounds: mms_spatial_bounds) -> _SpatialBox {
        let low = cell(latitude: UInt32(bounds.south), longitude: UInt32(bounds.west), bits: MMS_SPATIAL_BOUND_BITS)
        let high = cell(latitude: UInt32(bounds.north), longitude: UInt32(bounds.east), bits: MMS_SPATIAL_BOUND_BITS)
        return _SpatialBox(south: low.south, north: high.north, west: low.west, east: high.east)
    }

    /// The cell numbers of (`latitude`, `longitude`), a place inside the box: what SPATIAL stores of it
    /// (for a place outside it, a number clamped to UInt32, never a trap); with `bits`, its row and
    /// column of the box cut into 2^`bits` instead.
    package func cellNumbers(latitude: Int32, longitude: Int32, bits: UInt32 = MMS_SPATIAL_CELL_BITS) -> (latitude: UInt32, longitude: UInt32) {
        (UInt32(clamping: (Int64(latitude) - Int64(south)) / Self.step(south, north, bits: bits)),
         UInt32(clamping: (Int64(longitude) - Int64(west)) / Self.step(west, east, bits: bits)))
    }

    /// The box of the cell with numbers (`latitude`, `longitude`) (each below 2^MMS_SPATIAL_CELL_BITS,
    /// or 2^`bits`): every place whose cell it is, its edges no farther than the box's.
    @inline(__always)
    package func cell(latitude: UInt32, longitude: UInt32, bits: UInt32 = MMS_SPATIAL_CELL_BITS) -> _SpatialBox {
        let latitudeStep = Self.step(south, north, bits: bits), longitudeStep = Self.step(west, east, bits: bits)
        let cellSouth = Swift.min(Int64(south) + Int64(latitude) * latitudeStep, Int64(north))
        let cellWest = Swift.min(Int64(west) + Int64(longitude) * longitudeStep, Int64(east))
        return _SpatialBox(south: Int32(truncatingIfNeeded: cellSouth), north: Int32(truncatingIfNeeded: Swift.min(cellSouth + latitudeStep - 1, Int64(north))),
                           west: Int32(truncatingIfNeeded: cellWest), east: Int32(truncatingIfNeeded: Swift.min(cellWest + longitudeStep - 1, Int64(east))))
    }

    /// The cell of `point` (a point of the node with this box).
    @inline(__always)
    func cell(of point: mms_spatial_point) -> _SpatialBox { cell(latitude: point.lat_cell, longitude: point.lon_cell) }

    @inline(__always)
    package func contains(latitude: Int32, longitude: Int32) -> Bool {
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

    /// An upper bound of `a` to every point of a point's `cell`: the greatest latitude difference, the
    /// greatest longitude difference around the circle (an edge's, or near π where the cell holds the
    /// point's opposite meridian: its half squared is then past 1, which bounds sin² anyway) and the
    /// greatest cosine of the cell's latitudes, each of which only raises a; sin x <= x, and
    /// cos x <= 1 - x²/2 + x⁴/24. Each angle is taken `slack` larger (the exact formula's are within
    /// 1e-15 of the true ones) and the sum a relative 1e-12 larger (its roundings, and the cosine's).
    @inline(__always)
    func upperA(cell: _SpatialBox) -> Double {
        let unit = Self.radiansPerUnit
        let southP = Double(cell.south) * unit, northP = Double(cell.north) * unit
        let westL = Double(cell.west) * unit, eastL = Double(cell.east) * unit
        let halfP = (Swift.max(abs(p1 - southP), abs(p1 - northP)) + Self.slack) / 2
        let toWest = abs(l1 - westL), toEast = abs(l1 - eastL)
        let halfL = (Swift.max(Swift.min(toWest, 2 * .pi - toWest), Swift.min(toEast, 2 * .pi - toEast)) + Self.slack) / 2
        let lowest = southP <= 0 && northP >= 0 ? 0 : Swift.max(0, Swift.min(abs(southP), abs(northP)) - Self.slack)
        let square = lowest * lowest
        let cosAbove = Swift.min(1, 1 - square * 0.5 * (1 - square * (1 / 12)))
        return (halfP * halfP + cosP1 * cosAbove * (halfL * halfL)) * (1 + 1e-12)
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

/// One k-nearest search. A point's cell bounds its record's `a` from below and from above, so the walk
/// keeps candidates by their cells alone and reads a record's exact coordinates (RECORDS, in record
/// order, scattered over the file) only at the end, all at once, for the candidates that may still be
/// among the `limit` nearest: about `limit` of them, where reading each record that was among the best
/// so far on the way read nearly twice as many, one after another. The `limit` least upper bounds seen
/// are a max-heap whose top, once it is full, is the `a` a record or box must beat; the nodes still to
/// enter wait on an explicit stack (a far child waits there while the near one is walked, and is
/// entered only if it still may hold a better record when its turn comes). The index is passed to each
/// step, not held: a copy of `_IndexBytes` is 952 bytes, made and destroyed through its value witness,
/// and cost 5% of a walk.
struct _NearestSearch {
    /// A candidate record and its `a`: a lower bound from its cell until `exact`, then its own.
    struct Found {
        var a: Double
        var record: UInt32
        var exact: Bool
    }

    /// Outside this relative difference of `a`, distances differ the same way: Haversine.km (a square
    /// root, an asin, a product) keeps a relative difference of 1e-12 in `a` as about 5e-13, far more
    /// than its few roundings of 1e-16, so the distances computed differ and in the same order.
    static let tieBand = 1e-12

    /// A node still to enter, its range of SPATIAL, its number ("Bounds": the root's 1, a node n's
    /// children 2n and 2n + 1, made wrapping: a tree of at most 2^30 records is under 28 deep) and its
    /// box, and the pivot of its parent (the point between it and its near sibling, considered when the
    /// frame is taken up; -1 for the root) with that pivot's cell (in the parent's box, which the frame
    /// does not keep).
    struct Frame {
        var low: Int32
        var high: Int32
        var pivot: Int32
        var number: Int32
        var box: _SpatialBox
        var pivotCell: _SpatialBox
    }

    /// More than the depth of any tree of at most 2^29 points (each child's range is under half its
    /// parent's, so depth <= 30), and the stack holds at most one far child a level.
    static let stackCapacity = 64

    /// Room for the candidates of a search for `limit` records among `records`: twice `limit` (at least
    /// 16 more), so that measuring and keeping the best `limit` always frees room; or every record.
    static func candidateCapacity(limit: Int, records: Int) -> Int {
        Swift.min(Swift.max(2 * limit, limit + 16), records)
    }

    let haversine: Haversine
    let bound: _HaversineBound
    let filter: _IndexBytes.ResolvedFilter?
    let filterBounds: _FilterBounds?
    /// The `limit` least upper bounds of the candidates' `a`s, a max-heap (`upperCount` of them).
    let uppers: UnsafeMutableBufferPointer<Double>
    var upperCount = 0
    /// The candidates, `count` of them, in the order they were found.
    let candidates: UnsafeMutableBufferPointer<Found>
    var count = 0
    let stack: UnsafeMutableBufferPointer<Frame>
    /// Once `limit` candidates are kept, the greatest of the `limit` least upper bounds: at least the
    /// `a` of the `limit`-th nearest record. Infinity before.
    var worstA = Double.infinity
    /// The point in 1e-7 degree, and how far (in 1e-7 degree of latitude, and of longitude around the
    /// circle) a record or a box must at most be from it to possibly beat `worstA`: a quick test in
    /// front of the bounds (`updateReach`); infinity before `worstA` is known.
    let latitudeUnits: Double
    let longitudeUnits: Double
    /// 1 / cos φ1 (infinity at a pole), for `updateReach`.
    let inverseCosP1: Double
    var latitudeReach = Double.infinity
    var longitudeReach = Double.infinity
    /// SPATIAL's first byte, and its point count (the record count; the layout checked at open that
    /// SPATIAL holds that many points inside the file).
    let spatial: Int
    let points: Int
    /// 2^D of "Bounds": the nodes numbered from 1 to below it have bounds.
    let boundLimit: Int

    init(index: _IndexBytes, point: GeoPoint, uppers: UnsafeMutableBufferPointer<Double>, candidates: UnsafeMutableBufferPointer<Found>,
         stack: UnsafeMutableBufferPointer<Frame>, filter: _IndexBytes.ResolvedFilter?) {
        haversine = Haversine(latitude: point.latitude, longitude: point.longitude)
        bound = _HaversineBound(haversine)
        self.uppers = uppers
        self.candidates = candidates
        self.stack = stack
        self.filter = filter
        filterBounds = filter.map { _FilterBounds($0.filter) }
        spatial = index.layout.spatial.start
        points = index.layout.recordCount
        boundLimit = 1 << index.layout.spatialBoundDepth
        latitudeUnits = point.latitude * Double(MMS_COORDINATE_SCALE)
        longitudeUnits = point.longitude * Double(MMS_COORDINATE_SCALE)
        inverseCosP1 = 1 / bound.cosP1
    }

    /// Sets the reaches from `worstA`, without the C library, a division or more than one square root
    /// (it runs each time `worstA` falls). Every record with `a` at most worstA × (1 + margin) (all a
    /// search may keep) is within the angle d = 2 asin x of the point, x = √a; asin x <= x / √(1 - x²),
    /// so d <= dmax = 2x / √(1 - x²). Its latitude differs by at most dmax, and its longitude by at
    /// most asin(sin dmax / cos φ1) <= r / √(1 - r²), r = dmax / cos φ1 (the least distance to the
    /// places whose longitude differs by dL is asin(cos φ1 sin dL) up to dL = 90°, and 90° - |φ1| =
    /// asin(cos φ1) beyond; sin y <= y), or by anything when r is near 1. Both take 1 / √(1 - y) for
    /// y = x² or r² below 1/4, where that convex function lies under its chord, 1 + 0.6188 y: so
    /// 1 + 0.62 y, larger still. The reaches add a relative 1e-8, 1e-9 radians and 2 units to cover
    /// every rounding (the reciprocals' too): they only let the bounds behind them decide.
    mutating func updateReach() {
        let square = Swift.min(1, worstA * (1 + 1e-8))
        guard square < 0.25 else {
            latitudeReach = .infinity
            longitudeReach = .infinity
            return
        }
        let dmax = 2 * square.squareRoot() * (1 + 0.62 * square) * (1 + 1e-8) + 1e-9
        latitudeReach = dmax * Self.unitsPerRadian + 2
        let ratio = dmax * inverseCosP1
        if !(ratio < 0.5) {
            longitudeReach = .infinity
        } else {
            longitudeReach = (ratio * (1 + 0.62 * (ratio * ratio)) * (1 + 1e-8) + 1e-9) * Self.unitsPerRadian + 2
        }
    }

    /// 1e-7 degrees per radian.
    static let unitsPerRadian = 1 / _HaversineBound.radiansPerUnit

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

    /// Whether a measured record is worse than another by (distance, id, record): by `a` when the two
    /// are far enough apart (`tieBand`), else by the distances, and ids (read from RECORDS) only when
    /// the distances tie. Both records were checked to be in RECORDS when kept.
    @inline(__always)
    func worse(_ x: Found, _ y: Found, in index: _IndexBytes) -> Bool {
        if x.a > y.a * (1 + Self.tieBand) { return true }
        if y.a > x.a * (1 + Self.tieBand) { return false }
        let xDistance = Haversine.km(x.a), yDistance = Haversine.km(y.a)
        if xDistance != yDistance { return xDistance > yDistance }
        let xId = index.id(ofCheckedRecord: Int(x.record)), yId = index.id(ofCheckedRecord: Int(y.record))
        if xId != yId { return xId > yId }
        return x.record > y.record
    }

    /// What a search tests before entering the node of `frame`: an inner node's bounds (SPATIAL_BOUNDS)
    /// when it has them, those of the first D depths (`spatialBoundDepth`), numbered from 1 to below
    /// 2^D; else its box. The number is checked, so the read stays inside the section.
    @inline(__always)
    func extent(of frame: Frame, in index: _IndexBytes) -> _SpatialBox {
        let number = Int(frame.number)
        guard Int(frame.high) - Int(frame.low) > Int(MMS_SPATIAL_LEAF_SIZE), number > 0, number < boundLimit else { return frame.box }
        return frame.box.rectangle(index.spatialBounds(ofNode: number))
    }

    /// Whether the node of `frame` may hold a record that beats the worst kept (and passes the filter):
    /// its box's quick test first (the bounds lie inside the box), then its extent's. `mutating` though
    /// it changes nothing, so that the walk passes itself by reference: called from the mutating walk
    /// as a non-mutating method, it was given a copy of the search (368 bytes, a memcpy each call: 7% of
    /// the walk's instructions).
    @inline(__always)
    mutating func mayEnter(_ frame: Frame, in index: _IndexBytes) -> Bool {
        // Nothing to test a node against yet (no `limit` candidates, no filter): its bounds not read.
        if worstA == .infinity, filterBounds == nil { return true }
        if worstA != .infinity, outOfReach(frame.box) { return false }
        return mayHold(extent(of: frame, in: index))
    }

    /// Whether the node with `box` may hold a record that beats the worst kept (and passes the filter).
    @inline(__always)
    func mayHold(_ box: _SpatialBox) -> Bool {
        if let filterBounds, filterBounds.excludes(box) { return false }
        return worstA == .infinity || !outOfReach(box) && !_HaversineBound.exceeds(bound.a(south: box.south, north: box.north, west: box.west, east: box.east), worstA)
    }

    /// The walk from the root, down the children on the point's side to a leaf first (so that the best
    /// so far are near before most of the tree is tested against them); each far child waits on the
    /// stack with its parent's pivot, which is considered when the frame is taken up, and the child
    /// entered then if it still may hold a better record. Every range walked lies in [0, points) (the
    /// root's is, and a child's is inside its parent's), checked once a node.
    mutating func run(in index: _IndexBytes) throws(MMSearchError) {
        stack[0] = Frame(low: 0, high: Int32(truncatingIfNeeded: points), pivot: -1, number: 1, box: _SpatialBox.world, pivotCell: _SpatialBox.world)
        guard Int(stack[0].high) == points else { throw index.corrupt(spatial, "the spatial index holds \(points) points, more than 2^31") }
        var depth = 1
        while depth > 0 {
            depth -= 1
            var node = stack[depth]
            if node.pivot >= 0 { try consider(index.unpackedPoint(Int(node.pivot)), cell: node.pivotCell, at: Int(node.pivot), in: index) }
            if !mayEnter(node, in: index) { continue }
            while true {
                let low = Int(node.low), high = Int(node.high)
                guard 0 <= low, low <= high, high <= points else {
                    throw index.corrupt(spatial, "a spatial node \(low) ..< \(high) lies outside the \(points) points")
                }
                if high - low <= Int(MMS_SPATIAL_LEAF_SIZE) {
                    for position in low ..< high {
                        let point = index.unpackedPoint(position)
                        try consider(point, cell: node.box.cell(of: point), at: position, in: index)
                    }
                    break
                }
                let middle = KDTree.pivot(of: low ..< high)
                // Both children's first reads asked for before this pivot's is used, so that whichever
                // the walk enters, now or from the stack, finds its line on the way (SPATIAL's points
                // are read one node after another, each load waiting on the one before).
                prefetchNode(low ..< middle, in: index)
                prefetchNode(middle + 1 ..< high, in: index)
                let pivot = index.unpackedPoint(middle)
                let longitude = pivot.record_axis & MMS_SPATIAL_AXIS_LONGITUDE != 0
                let pivotCell = node.box.cell(of: pivot)
                let value = longitude ? pivotCell.west : pivotCell.south
                let (lowBox, highBox) = node.box.split(longitude: longitude, atCell: pivotCell)
                let lowNode = Frame(low: node.low, high: Int32(middle), pivot: -1, number: 2 &* node.number, box: lowBox, pivotCell: pivotCell)
                let highNode = Frame(low: Int32(middle + 1), high: node.high, pivot: -1, number: 2 &* node.number &+ 1, box: highBox, pivotCell: pivotCell)
                let here = longitude ? haversine.l1 : haversine.p1
                let (near, farNode) = here <= Double(value) * _HaversineBound.radiansPerUnit ? (lowNode, highNode) : (highNode, lowNode)
                var far = farNode
                far.pivot = Int32(middle)
                guard depth < stack.count else { throw index.corrupt(spatial, "the spatial index is deeper than \(stack.count) levels") }
                stack[depth] = far
                depth += 1
                guard mayEnter(near, in: index) else { break }
                node = near
            }
        }
    }

    /// Asks for the cache lines of what entering the node of `range` reads first: its pivot, or a
    /// leaf's points (from its first's first byte to its last's last). A hint only: `prefetch` skips an
    /// address outside the file.
    @inline(__always)
    func prefetchNode(_ range: Range<Int>, in index: _IndexBytes) {
        let width = index.layout.spatial.width
        if range.count > Int(MMS_SPATIAL_LEAF_SIZE) {
            index.prefetch(spatial &+ (KDTree.pivot(of: range) &* width) &>> 3)
        } else if !range.isEmpty {
            index.prefetch(spatial &+ (range.lowerBound &* width) &>> 3)
            index.prefetch(spatial &+ (range.upperBound &* width &- 1) &>> 3)
        }
    }

    /// Keeps the record of `point` (at `position`, with `cell`) as a candidate if it passes the filter
    /// and its cell does not rule it out: its `a` at least the cell's lower bound, at most its upper
    /// bound (which may lower `worstA`). The record number is checked before the record is read or kept.
    @inline(__always)
    mutating func consider(_ point: mms_spatial_point, cell: _SpatialBox, at position: Int, in index: _IndexBytes) throws(MMSearchError) {
        if worstA != .infinity, outOfReach(cell) { return }
        let low = bound.a(cell: cell)
        if _HaversineBound.exceeds(low, worstA) { return }
        let record = try index.spatialRecord(point, at: position).record
        if let filter, !(try index.passes(record, filter)) { return }
        if count == candidates.count { try makeRoom(in: index) }
        candidates[count] = Found(a: low, record: UInt32(record), exact: false)
        count += 1
        offerUpper(bound.upperA(cell: cell))
    }

    /// Adds a candidate's upper bound to the `limit` least; `worstA` (and the reach) follow their
    /// greatest once there are `limit`.
    @inline(__always)
    mutating func offerUpper(_ upper: Double) {
        if upperCount < uppers.count {
            var child = upperCount
            uppers[child] = upper
            upperCount += 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard uppers[child] > uppers[parent] else { break }
                uppers.swapAt(child, parent)
                child = parent
            }
            guard upperCount == uppers.count else { return }
        } else {
            guard upper < uppers[0] else { return }
            uppers[0] = upper
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var greatest = parent
                if left < upperCount, uppers[left] > uppers[greatest] { greatest = left }
                if right < upperCount, uppers[right] > uppers[greatest] { greatest = right }
                guard greatest != parent else { break }
                uppers.swapAt(parent, greatest)
                parent = greatest
            }
        }
        worstA = uppers[0]
        updateReach()
    }

    /// Frees room for a candidate: drops those `worstA` now rules out. When that drops none (more
    /// candidates than the room in cells as near as one another), measures them: their own `a`s become
    /// the upper bounds, and those the `limit`-th least of them rules out are dropped. When even that
    /// drops none (the same distance many times: the same place), keeps the best `limit` in order. The
    /// room is more than `limit` (`candidateCapacity`, and a full buffer holds fewer than every
    /// record), so one is freed.
    mutating func makeRoom(in index: _IndexBytes) throws(MMSearchError) {
        dropRuledOut()
        guard count == candidates.count else { return }
        try measure(in: index)
        offerMeasured()
        dropRuledOut()
        guard count == candidates.count else { return }
        order(in: index)
        count = Swift.min(count, uppers.count)
        offerMeasured()
    }

    /// The upper bounds made again from the candidates, all measured: the `limit` least of their `a`s
    /// (every candidate whose upper bound was among them is still one: its lower bound is below it).
    mutating func offerMeasured() {
        upperCount = 0
        for position in 0 ..< count { offerUpper(candidates[position].a) }
    }

    /// Drops the candidates whose lower bound exceeds `worstA`: `limit` records are at least as near.
    mutating func dropRuledOut() {
        var kept = 0
        for position in 0 ..< count where !_HaversineBound.exceeds(candidates[position].a, worstA) {
            candidates[kept] = candidates[position]
            kept += 1
        }
        count = kept
    }

    /// Reads the exact coordinates of every candidate not yet measured, all their RECORDS lines asked
    /// for first (`prefetch`) so that the reads overlap, then their `a`s.
    mutating func measure(in index: _IndexBytes) throws(MMSearchError) {
        let records = index.layout.records, latitude = index.layout.record.latitude
        for position in 0 ..< count where !candidates[position].exact {
            index.prefetch(records.start + (Int(candidates[position].record) * records.width + latitude) >> 3)
        }
        let scale = Double(Coordinate.scale)
        for position in 0 ..< count where !candidates[position].exact {
            let (latitude, longitude) = try index.coordinates(ofRecord: Int(candidates[position].record))
            candidates[position].a = haversine.a(latitude: Double(latitude) / scale, longitude: Double(longitude) / scale)
            candidates[position].exact = true
        }
    }

    /// Orders the measured candidates nearest first (a few: by insertion).
    mutating func order(in index: _IndexBytes) {
        var kept = UnsafeMutableBufferPointer(rebasing: candidates[0 ..< count])
        guard count > 32 else {
            for next in kept.indices.dropFirst() {
                var position = next
                while position > 0, worse(kept[position - 1], kept[position], in: index) {
                    kept.swapAt(position - 1, position)
                    position -= 1
                }
            }
            return
        }
        kept.sort { worse($1, $0, in: index) }
    }

    /// The `limit` nearest, nearest first: the candidates `worstA` does not rule out, measured and
    /// ordered.
    mutating func nearest(in index: _IndexBytes) throws(MMSearchError) -> [(record: Int, distanceKm: Double)] {
        dropRuledOut()
        try measure(in: index)
        order(in: index)
        return candidates[0 ..< Swift.min(count, uppers.count)].map { (Int($0.record), Haversine.km($0.a)) }
    }
}
