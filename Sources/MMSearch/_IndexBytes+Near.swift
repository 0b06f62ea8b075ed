import CMMSearchFormat

/// A big node's first page near a point (`include/mmsearch_format.h`, "Near a point"), without reading
/// its matches: the records matched by a primary name's prefix (the summary's primary range) from
/// NEAR_POINTS, a k-d tree over (record number, latitude, longitude) walked best first, and the others
/// from the node's list in NEAR_LISTS, read by base until no more can reach the page.
extension _IndexBytes {
    /// A point of NEAR_POINTS: its record (checked) and population bound.
    struct NearPoint {
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
        return NearPoint(record: record, bound: bits(start, at: bit + fields.bound, fields.boundMask))
    }

    /// The population bound of NEAR_POINTS' point at `position` (below the record count: checked by the
    /// caller) alone: what a walk reads of a node before it enters it.
    @inline(__always)
    func nearBound(_ position: Int) -> UInt32 {
        bits(layout.nearPoints.start, at: position * layout.nearPoints.width + layout.nearPoint.bound, layout.nearPoint.boundMask)
    }

    /// NEAR_LISTS[index]: its node, the bit of TOP its entries start at and how many (checked to be
    /// at most MMS_NEAR_LIST_MAX; inside TOP where it is read, `nearList(ofNode:entries:)`).
    func nearList(_ index: Int) throws(MMSearchError) -> (node: Int, topFirst: Int, count: Int) {
        guard index >= 0, index < layout.nearListCount else {
            throw corrupt(layout.nearLists, "near list \(index) does not exist (\(layout.nearListCount) lists)")
        }
        let offset = layout.nearLists + index * _IndexLayout.nearListSize
        let list = raw.loadUnaligned(fromByteOffset: offset, as: mms_near_list.self)
        guard list.count <= MMS_NEAR_LIST_MAX else {
            throw corrupt(offset, "near list \(index) holds \(list.count) records, more than \(MMS_NEAR_LIST_MAX)")
        }
        return (Int(list.node), Int(list.top_first), Int(list.count))
    }

    /// The list of `node`, whose entries are `entries` (a page of TOP), by binary search over NEAR_LISTS'
    /// node order; nil when it has none (its matches are read).
    func nearList(ofNode node: Int, entries: Range<Int>) throws(MMSearchError) -> TopPage? {
        var low = 0, high = layout.nearListCount
        while low < high {
            let middle = low + (high - low) / 2
            if try nearList(middle).node < node { low = middle + 1 } else { high = middle }
        }
        guard low < layout.nearListCount else { return nil }
        let list = try nearList(low)
        guard list.node == node else { return nil }
        return try topPage(from: list.topFirst, count: list.count, nodeEntries: entries, nearList: true, at: layout.nearLists + low * _IndexLayout.nearListSize)
    }

    /// A node of the tree still to enter: its range of NEAR_POINTS, depth, box, the record numbers its
    /// records lie within, what its top's population bound allows a record's base ((population + 1) x
    /// 100), and the boost at the least distance to its box, or until `measured` to its parent's (no
    /// less).
    struct NearFrame {
        var low: Int32
        var high: Int32
        var depth: Int32
        var measured: Bool
        var box: _SpatialBox
        var records: Range<Int32>
        var base: Double
        var boost: Double
    }

    /// A frame waiting on the walk's max-heap: its bound (its base times its boost) and its place in the
    /// frames, so that the heap moves 16 bytes, not a frame.
    struct NearWaiting {
        var bound: Double
        var frame: Int32
    }

    /// The first `length` matches under the summarized node `located`, whose other matches are TOP's
    /// page `list`, and of the "Name, Qualifier" matches that raise a record or add one (`qualified`,
    /// `qualifierChanges`), ranked near `near` as `firstRanked` ranks every match: the summary's stored
    /// page and `qualified` scored first (a floor at once), then the tree's records of the primary
    /// range best first, each as class 2 (its best: the others are listed), a node entered only while
    /// its bound, bound(its top's code) × 100 × boost(the least distance to its box), can reach the
    /// page; then the list until (population + 1) × weight × 1001 cannot. Each score is the one a scan
    /// computes.
    func firstRankedNear(under located: Located, summary: mms_summary, list: TopPage, qualified: [_Ranked], near: Proximity, length: Int) throws(MMSearchError) -> [_Match] {
        var page = Selection<NearKey>(length: length)
        var floor: Double { page.items.count == length ? page.items[length - 1].key.score : 0 }
        let bound = _HaversineBound(Haversine(latitude: near.point.latitude, longitude: near.point.longitude))
        let primaryEntry = MMS_KIND_PRIMARY.rawValue << MMS_ENTRY_KIND_SHIFT
        /// The greatest boost at a lower bound `a` of haversine's `a`, taken a relative 1e-9 larger (the
        /// roundings, and exp2 for pow): its distance is at least 2R√a (asin x >= x), which costs a square
        /// root where the distance costs an asin too.
        @inline(__always)
        func boost(_ a: Double) -> Double {
            (1 + 1000 * CMath.exp2(-2 * GeoPoint.earthRadiusKm * Swift.min(1, Swift.max(0, a)).squareRoot() / near.halfDistanceKm)) * (1 + 1e-9)
        }
        /// Offers record `record` with its base (`Ranking.nearBase`) scored near the point (once a record:
        /// a better score replaces its own); its distance is computed only when a bound from its
        /// coordinates can reach the page.
        func offer(_ record: Int, base: UInt64, kind: UInt32, entry: UInt32) throws(MMSearchError) {
            let base = Double(base)
            if base * 1001 < floor { return }
            let (latitude, longitude) = try coordinates(ofRecord: record)
            // The place's own bound: `a(cell:)` of a box that is one place, nearly its exact `a`.
            if base * boost(bound.a(cell: _SpatialBox(south: latitude, north: latitude, west: longitude, east: longitude))) < floor { return }
            let distance = Self.distanceKm(from: near.point, latitudeE7: latitude, longitudeE7: longitude)
            page.offerOnce(NearKey(score: base * near.boost(distanceKm: distance), kind: kind, record: UInt32(record)), entry)
        }
        /// Offers the record of entry `index` of TOP's `stored` (a stored page or a list), by its stored
        /// class and kind; returns its base.
        @discardableResult
        func offerStored(_ stored: TopPage, _ index: Int) throws(MMSearchError) -> UInt64 {
            let stored = try topRanked(stored, index)
            let base = Ranking.nearBase(population: population(Int(stored.record)), ofClass: stored.matchClass)
            try offer(Int(stored.record), base: base, kind: stored.kind, entry: stored.entry)
            return base
        }
        let stored = try topPage(from: Int(summary.top_first), count: Swift.min(Int(summary.record_count), Int(MMS_TOP_COUNT)),
                                 nodeEntries: located.entries, at: layout.summaries.start)
        for index in 0 ..< stored.count { try offerStored(stored, index) }
        // A qualifier's score is its record's best (a better class than its keys'): `offerOnce` keeps it.
        for match in qualified {
            try offer(Int(match.record), base: Ranking.nearBase(population: population(Int(match.record)), ofClass: match.matchClass), kind: match.kind, entry: match.entry)
        }
        let primary = summary.primaryRecords
        if !primary.isEmpty {
            /// Offers a point of the primary range, inside a node whose boost is `boost`.
            func consider(_ point: NearPoint, boost nodeBoost: Double) throws(MMSearchError) {
                guard primary.contains(point.record) else { return }
                let current = floor, base = NearBound.primaryBase(point.bound)
                if base * nodeBoost < current { return }
                try offer(point.record, base: Ranking.nearBase(population: population(point.record), ofClass: 2), kind: 0, entry: primaryEntry | UInt32(point.record))
            }
            // Best first: the frames entered or waiting, and a max-heap of those waiting, by bound. A
            // child is measured (its box's boost computed) when it is taken off the heap, not when it is
            // put there: many wait there until the page is full. Until then its parent's boost bounds it.
            var frames: [NearFrame] = []
            var heap: [NearWaiting] = []
            frames.reserveCapacity(256)
            heap.reserveCapacity(64)
            func push(_ waiting: NearWaiting) {
                heap.append(waiting)
                heap.withUnsafeMutableBufferPointer { heap in
                    var position = heap.count - 1
                    while position > 0 {
                        let parent = (position - 1) / 2
                        guard heap[position].bound > heap[parent].bound else { break }
                        heap.swapAt(position, parent)
                        position = parent
                    }
                }
            }
            func pop() {
                let last = heap.removeLast()
                guard !heap.isEmpty else { return }
                heap.withUnsafeMutableBufferPointer { heap in
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
            }
            let records = Int32(truncatingIfNeeded: layout.recordCount)
            frames.append(NearFrame(low: 0, high: records, depth: 0, measured: true, box: .world, records: 0 ..< records, base: .infinity, boost: 1001 * (1 + 1e-9)))
            heap.append(NearWaiting(bound: .infinity, frame: 0))
            let leaf = Int32(MMS_NEAR_LEAF_SIZE)
            var entered = 0
            while let top = heap.first {
                if top.bound < floor { break }
                pop()
                var frame = frames[Int(top.frame)]
                if !frame.measured {
                    frame.boost = boost(bound.a(south: frame.box.south, north: frame.box.north, west: frame.box.west, east: frame.box.east))
                    frame.measured = true
                    frames[Int(top.frame)] = frame
                    let measured = frame.base * frame.boost
                    if measured < floor { continue }
                    if let next = heap.first, measured < next.bound {
                        push(NearWaiting(bound: measured, frame: top.frame))
                        continue
                    }
                }
                entered += 1
                guard entered <= layout.recordCount, 0 <= frame.low, frame.low <= frame.high, Int(frame.high) <= layout.recordCount else {
                    throw corrupt(layout.nearPoints.start, "the near points' tree does not hold \(layout.recordCount) points")
                }
                // The node's top (its greatest bound), then a leaf's other points, or the pivot.
                try consider(try nearPoint(Int(frame.low)), boost: frame.boost)
                if frame.high - frame.low <= leaf {
                    for position in Int(frame.low) + 1 ..< Int(frame.high) { try consider(try nearPoint(position), boost: frame.boost) }
                    continue
                }
                let rest = Int(frame.low) + 1
                let middle = KDTree.pivot(of: rest ..< Int(frame.high))
                let pivot = try nearPoint(middle)
                try consider(pivot, boost: frame.boost)
                let axis = frame.depth % 4
                var low = NearFrame(low: Int32(rest), high: Int32(middle), depth: frame.depth + 1, measured: axis < 2, box: frame.box,
                                    records: frame.records, base: 0, boost: frame.boost)
                var high = low
                high.low = Int32(middle + 1)
                high.high = frame.high
                if axis < 2 {
                    let split = Int32(truncatingIfNeeded: pivot.record)
                    low.records = frame.records.lowerBound ..< Swift.max(frame.records.lowerBound, Swift.min(split, frame.records.upperBound))
                    high.records = Swift.min(frame.records.upperBound, Swift.max(split + 1, frame.records.lowerBound)) ..< frame.records.upperBound
                } else {
                    let at = try coordinates(ofRecord: pivot.record)
                    (low.box, high.box) = frame.box.split(longitude: axis == 3, at: axis == 3 ? at.longitude : at.latitude)
                }
                /// Puts `child` on the heap if it holds some of the primary range and its bound (its
                /// top's code times its boost so far) can reach the page.
                func wait(_ child: NearFrame) {
                    guard child.low < child.high, Int(child.records.lowerBound) < primary.upperBound, primary.lowerBound < Int(child.records.upperBound) else { return }
                    var child = child
                    child.base = NearBound.primaryBase(nearBound(Int(child.low)))
                    let bound = child.base * child.boost
                    guard bound >= floor else { return }
                    frames.append(child)
                    push(NearWaiting(bound: bound, frame: Int32(truncatingIfNeeded: frames.count - 1)))
                }
                wait(low)
                wait(high)
            }
        }
        // In base order: once a base cannot reach the page (`offer` turned it down), no later one can.
        // A list of positions (format 30) names its entries in ENTRIES, scattered over a big node's
        // range: each asked for a few entries ahead (read as they came, typing-near's p99 was 1.07x and
        // its mean 1.05x format 29's, whose lists held name numbers).
        let ahead = 8
        prefetchKeys(of: list, 0 ..< ahead)
        for index in 0 ..< list.count {
            prefetchKeys(of: list, index + ahead ..< index + ahead + 1)
            if Double(try offerStored(list, index)) * 1001 < floor { break }
        }
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
