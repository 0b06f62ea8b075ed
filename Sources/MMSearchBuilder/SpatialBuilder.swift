import CMMSearchFormat
import MMSearch

/// The SPATIAL section (`include/mmsearch_format.h`, "The spatial index"): the records in the order
/// of an implicit k-d tree over their coordinates. Each node of more than MMS_SPATIAL_LEAF_SIZE
/// records puts its median (by coordinate on its axis, then record number) in the middle of its
/// range, the records at most it before and those at least it after, and splits on the axis where its
/// records spread more: latitude, or longitude with its span scaled by the cosine of the middle
/// latitude (a degree of longitude is that much shorter there).
enum SpatialBuilder {
    /// The SPATIAL section of the records at `latitudes` and `longitudes` (in record order): each tree
    /// slot's record's cell in its node's box beside its number and axis bit, the boxes cut at the
    /// pivots' cells as a reader cuts them ("Boxes and cells"); and SPATIAL_BOUNDS: each inner node's
    /// records' extent in its box ("Bounds").
    /// One pass down the tree: a node's extent is measured and its median selected, then written with
    /// its cell in the node's box, which cuts its children's boxes. O(n log n).
    static func tree(latitudes: [Int32], longitudes: [Int32]) -> (points: [mms_spatial_point], bounds: [mms_spatial_bounds]) {
        precondition(latitudes.count == longitudes.count, "a latitude and a longitude a record")
        var values = Array(0 ..< UInt32(latitudes.count)) // record numbers, in tree order once placed
        var points = [mms_spatial_point](repeating: mms_spatial_point(), count: latitudes.count)
        var bounds = [mms_spatial_bounds](repeating: mms_spatial_bounds(), count: (1 << PackedArrays.spatialBoundDepth(records: latitudes.count)) - 1)
        var pending = [(range: 0 ..< latitudes.count, box: _SpatialBox.world, number: 1)]
        while let (range, box, number) = pending.popLast() {
            /// Writes the point at `position` (its record inside `box`, as the tree's splits leave it)
            /// with `axis`, and returns its cell.
            func place(_ position: Int, axis: UInt32 = 0) -> _SpatialBox {
                let record = Int(values[position])
                let cell = box.cellNumbers(latitude: latitudes[record], longitude: longitudes[record])
                points[position] = mms_spatial_point(lat_cell: cell.latitude, lon_cell: cell.longitude, record_axis: values[position] | axis)
                return box.cell(latitude: cell.latitude, longitude: cell.longitude)
            }
            guard range.count > Int(MMS_SPATIAL_LEAF_SIZE) else {
                for position in range { _ = place(position) }
                continue
            }
            var south = Int32.max, north = Int32.min, west = Int32.max, east = Int32.min
            for position in range {
                let record = Int(values[position])
                south = min(south, latitudes[record]); north = max(north, latitudes[record])
                west = min(west, longitudes[record]); east = max(east, longitudes[record])
            }
            // The inner nodes numbered below 2^D (those of the first D depths) have their bounds.
            if number <= bounds.count { bounds[number - 1] = box.bounds(of: _SpatialBox(south: south, north: north, west: west, east: east)) }
            let middleLatitude = (Double(south) + Double(north)) / 2 / Double(MMS_COORDINATE_SCALE)
            let longitudeSpan = (Double(east) - Double(west)) * CMath.cos(middleLatitude * .pi / 180)
            let onLongitude = longitudeSpan > Double(north) - Double(south)
            let coordinates = onLongitude ? longitudes : latitudes
            let middle = KDTree.pivot(of: range)
            select(middle, in: range, of: &values) { a, b in
                let (x, y) = (coordinates[Int(a)], coordinates[Int(b)])
                return x != y ? x < y : a < b
            }
            let pivotCell = place(middle, axis: onLongitude ? MMS_SPATIAL_AXIS_LONGITUDE : 0)
            let (low, high) = box.split(longitude: onLongitude, atCell: pivotCell)
            pending.append((range.lowerBound ..< middle, low, 2 * number))
            pending.append((middle + 1 ..< range.upperBound, high, 2 * number + 1))
        }
        return (points, bounds)
    }

    /// Puts the element that sorts `nth` in `range` at `nth`, the ones before it before and the ones
    /// after after (quickselect, the middle of three as the pivot; `less` is a strict total order).
    static func select(_ nth: Int, in range: Range<Int>, of values: inout [UInt32], by less: (UInt32, UInt32) -> Bool) {
        var low = range.lowerBound, high = range.upperBound - 1
        while low < high {
            let middle = low + (high - low) / 2
            // The median of values[low], values[middle], values[high] to values[high], as the pivot.
            if less(values[middle], values[low]) { values.swapAt(middle, low) }
            if less(values[high], values[low]) { values.swapAt(high, low) }
            if less(values[middle], values[high]) { values.swapAt(middle, high) }
            let pivot = values[high]
            var store = low
            for position in low ..< high where less(values[position], pivot) {
                values.swapAt(position, store)
                store += 1
            }
            values.swapAt(store, high)
            if store == nth { return }
            if nth < store { high = store - 1 } else { low = store + 1 }
        }
    }
}
