import CMMSearchFormat

/// A big node's first page near a point (`include/mmsearch_format.h`, "Near a point"), without reading
/// its matches: the records matched by a primary name's prefix (the summary's primary range) from
/// NEAR_POINTS, a k-d tree over (record number, latitude, longitude) walked best first, and the others
/// from the node's list in NEAR_LISTS, read by base until no more can reach the page.
extension _IndexBytes {
    /// A point of NEAR_POINTS: its cells in its node's box, its record (checked) and population bound.
    struct NearPoint {
        var cell: (latitude: UInt32, longitude: UInt32)
        var record: Int
        var bound: UInt32
    }

    /// NEAR_POINTS' point at `position` (below the record count: checked by the caller), its record
    /// checked to be inside RECORDS.
    @inline(__always)
    func nearPoint(_ position: Int) throws(MMSearchError) -> NearPoint {
        let start = layout.nearPoints.start, bit = position * layout.nearPoints.width, fields = layout.nearPoint
        let record = Int(bits(start, at: bit + fields.record, fields.recordMask))
        guard record < layout.recordCount else {
            throw corrupt(layout.nearPoints.byteOffset(position), "near point \(position) names record \(record) of \(layout.recordCount)")
        }
        return NearPoint(cell: (bits(start, at: bit, _PointFields.cellMask), bits(start, at: bit + _PointFields.longitude, _PointFields.cellMask)),
                         record: record, bound: bits(start, at: bit + fields.bound, UInt64(NearBound.unbounded)))
    }

    /// NEAR_LISTS[index]: its node and its range of TOP, checked to lie inside TOP and be at most
    /// MMS_NEAR_LIST_MAX long.
    func nearList(_ index: Int) throws(MMSearchError) -> (node: Int, top: Range<Int>) {
        guard index >= 0, index < layout.nearListCount else {
            throw corrupt(layout.nearLists, "near list \(index) does not exist (\(layout.nearListCount) lists)")
        }
        let offset = layout.nearLists + index * _IndexLayout.nearListSize
        let list = raw.loadUnaligned(fromByteOffset: offset, as: mms_near_list.self)
        let first = Int(list.top_first), count = Int(list.count)
        guard first <= layout.topCount, count <= layout.topCount - first, count <= Int(MMS_NEAR_LIST_MAX) else {
            throw corrupt(offset, "near list \(index) holds \(list.count) records from TOP \(list.top_first), outside the \(layout.topCount) of TOP or more than \(MMS_NEAR_LIST_MAX)")
        }
        return (Int(list.node), first ..< first + count)
    }

    /// The list of `node` (a range of TOP), by binary search over NEAR_LISTS' node order; nil when it has
    /// none (its matches are read).
    func nearList(ofNode node: Int) throws(MMSearchError) -> Range<Int>? {
        var low = 0, high = layout.nearListCount
        while low < high {
            let middle = low + (high - low) / 2
            if try nearList(middle).node < node { low = middle + 1 } else { high = middle }
        }
        guard low < layout.nearListCount else { return nil }
        let list = try nearList(low)
        return list.node == node ? list.top : nil
    }

    /// A node of the tree still to enter: its range of NEAR_POINTS, depth, box, the record numbers its
    /// records lie within, and a bound of its records' scores.
    struct NearFrame {
        var low: Int32
        var high: Int32
        var depth: Int32
        var box: _SpatialBox
        var records: Range<Int32>
        var bound: Double
    }

    /// The first `length` matches under the summarized node `located`, whose other matches are the TOP
    /// range `list`, ranked near `near` as `firstRanked` ranks every match: the summary's stored page
    /// scored first (a floor at once), then the tree's records of the primary range best first, each as
    /// class 2 (its best: the others are listed), a node entered only while its bound,
    /// bound(code) × 100 × boost(the least distance to its box), can reach the page; then the list
    /// until (population + 1) × weight × 1001 cannot. Each score is the one a scan computes.
    func firstRankedNear(under located: Located, summary: mms_summary, list: Range<Int>, near: Proximity, length: Int) throws(MMSearchError) -> [_Match] {
        var page = Selection<NearKey>(length: length)
        var floor: Double { page.items.count == length ? page.items[length - 1].key.score : 0 }
        let bound = _HaversineBound(Haversine(latitude: near.point.latitude, longitude: near.point.longitude))
        let primaryEntry = MMS_KIND_PRIMARY.rawValue << MMS_ENTRY_KIND_SHIFT
        /// The greatest score a base can have at a lower bound `a` of haversine's `a`, taken a relative
        /// 1e-9 larger (the roundings): its distance is at least 2R√a (asin x >= x), which costs a square
        /// root where the distance costs an asin too.
        @inline(__always)
        func reach(_ base: Double, _ a: Double) -> Double {
            base * near.boost(distanceKm: 2 * GeoPoint.earthRadiusKm * Swift.min(1, Swift.max(0, a)).squareRoot()) * (1 + 1e-9)
        }
        /// Offers record `record` with its base (`Ranking.nearBase`) scored near the point (once a record:
        /// a better score replaces its own); its distance is computed only when a bound from its
        /// coordinates can reach the page.
        func offer(_ record: Int, base: UInt64, kind: UInt32, entry: UInt32) throws(MMSearchError) {
            let base = Double(base)
            if base * 1001 < floor { return }
            let (latitude, longitude) = try coordinates(ofRecord: record)
            if reach(base, bound.a(south: latitude, north: latitude, west: longitude, east: longitude)) < floor { return }
            let distance = Self.distanceKm(from: near.point, latitudeE7: latitude, longitudeE7: longitude)
            page.offerOnce(NearKey(score: base * near.boost(distanceKm: distance), kind: kind, record: UInt32(record)), entry)
        }
        /// Offers TOP's record at `position` (a stored page's or a list's), by its stored class and kind;
        /// returns its base.
        @discardableResult
        func offerStored(_ position: Int) throws(MMSearchError) -> UInt64 {
            let rank = try topRank(position), match = try topMatch(position)
            let base = Ranking.nearBase(population: population(Int(match.record)), ofClass: rank.matchClass)
            try offer(Int(match.record), base: base, kind: rank.kind, entry: match.entry)
            return base
        }
        let stored = Int(summary.top_first) ..< Int(summary.top_first) + Swift.min(Int(summary.record_count), Int(MMS_TOP_COUNT))
        for position in stored { try offerStored(position) }
        let primary = summary.primaryRecords
        if !primary.isEmpty {
            /// Offers a point of the primary range.
            func consider(_ point: NearPoint, in box: _SpatialBox) throws(MMSearchError) {
                guard primary.contains(point.record) else { return }
                let current = floor
                if NearBound.value(point.bound) * 100 * 1001 < current { return }
                if reach(NearBound.value(point.bound) * 100, bound.a(cell: box.cell(latitude: point.cell.latitude, longitude: point.cell.longitude))) < current { return }
                try offer(point.record, base: Ranking.nearBase(population: population(point.record), ofClass: 2), kind: 0, entry: primaryEntry | UInt32(point.record))
            }
            var heap: [NearFrame] = []
            heap.reserveCapacity(64)
            let records = Int32(truncatingIfNeeded: layout.recordCount)
            heap.append(NearFrame(low: 0, high: records, depth: 0, box: .world, records: 0 ..< records, bound: .infinity))
            let leaf = Int32(MMS_NEAR_LEAF_SIZE)
            var entered = 0
            while let frame = heap.first {
                if frame.bound < floor { break }
                // Take the greatest off the max-heap.
                let last = heap.removeLast()
                if !heap.isEmpty {
                    heap[0] = last
                    var parent = 0
                    while true {
                        let left = 2 * parent + 1, right = left + 1
                        var greatest = parent
                        if left < heap.count, heap[left].bound > heap[greatest].bound { greatest = left }
                        if right < heap.count, heap[right].bound > heap[greatest].bound { greatest = right }
                        guard greatest != parent else { break }
                        heap.swapAt(parent, greatest)
                        parent = greatest
                    }
                }
                entered += 1
                guard entered <= layout.recordCount, 0 <= frame.low, frame.low <= frame.high, Int(frame.high) <= layout.recordCount else {
                    throw corrupt(layout.nearPoints.start, "the near points' tree does not hold \(layout.recordCount) points")
                }
                if frame.high - frame.low <= leaf {
                    for position in Int(frame.low) ..< Int(frame.high) { try consider(try nearPoint(position), in: frame.box) }
                    continue
                }
                let middle = Int(frame.low) + Int(frame.high - frame.low) / 2
                let pivot = try nearPoint(middle)
                try consider(pivot, in: frame.box)
                let axis = frame.depth % 4
                var low = NearFrame(low: frame.low, high: Int32(middle), depth: frame.depth + 1, box: frame.box, records: frame.records, bound: 0)
                var high = NearFrame(low: Int32(middle + 1), high: frame.high, depth: frame.depth + 1, box: frame.box, records: frame.records, bound: 0)
                if axis < 2 {
                    let split = Int32(truncatingIfNeeded: pivot.record)
                    low.records = frame.records.lowerBound ..< Swift.max(frame.records.lowerBound, Swift.min(split, frame.records.upperBound))
                    high.records = Swift.min(frame.records.upperBound, Swift.max(split + 1, frame.records.lowerBound)) ..< frame.records.upperBound
                } else {
                    (low.box, high.box) = frame.box.split(longitude: axis == 3, atCell: frame.box.cell(latitude: pivot.cell.latitude, longitude: pivot.cell.longitude))
                }
                /// Puts `child` on the heap if it holds some of the primary range and its bound can reach the page.
                func push(_ child: NearFrame) throws(MMSearchError) {
                    guard child.low < child.high, Int(child.records.lowerBound) < primary.upperBound, primary.lowerBound < Int(child.records.upperBound) else { return }
                    var child = child
                    // A node's bound: its pivot's (its subtree's), a leaf's its parent's.
                    let code = child.high - child.low > leaf ? try nearPoint(Int(child.low) + Int(child.high - child.low) / 2).bound : pivot.bound
                    if NearBound.value(code) * 100 * 1001 < floor { return }
                    child.bound = reach(NearBound.value(code) * 100, bound.a(south: child.box.south, north: child.box.north, west: child.box.west, east: child.box.east))
                    guard child.bound >= floor else { return }
                    heap.append(child)
                    var position = heap.count - 1
                    while position > 0 {
                        let parent = (position - 1) / 2
                        guard heap[position].bound > heap[parent].bound else { break }
                        heap.swapAt(position, parent)
                        position = parent
                    }
                }
                try push(low)
                try push(high)
            }
        }
        // In base order: once a base cannot reach the page (`offer` turned it down), no later one can.
        for position in list where Double(try offerStored(position)) * 1001 < floor { break }
        // A record the tree found is matched by its PRIMARY entry: its display name's, or for a record
        // without one the name standing in (`emptyQueryEntry`); offered as the display name's, here made right.
        var matches: [_Match] = []
        matches.reserveCapacity(page.items.count)
        for item in page.items {
            let record = item.key.record
            let entry = item.entry == primaryEntry | record ? try emptyQueryEntry(ofRecord: Int(record)) : item.entry
            matches.append(_Match(record: record, entry: entry))
        }
        return matches
    }
}
