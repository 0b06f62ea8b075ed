import CMMSearchFormat
import MMSearch

/// The NEAR_POINTS section (`include/mmsearch_format.h`, "Near a point"): the records in the order of
/// an implicit k-d tree over (record number, latitude, longitude), split on the record number at depths
/// 0 and 1 of every 4, on the latitude at 2 and the longitude at 3, each node's top (its greatest
/// population bound) first, each point with its record's bound.
enum NearBuilder {
    /// A point as the section packs it: its cells in its node's box, its record, its bound's code.
    struct Point {
        var latitudeCell: UInt32 = 0
        var longitudeCell: UInt32 = 0
        var record: UInt32 = 0
        var bound: UInt32 = 0
    }

    /// The points of `records` (in record order) with `populations` (per record; empty: all 0). One
    /// pass down the tree places each node's top (its greatest bound, the least record number of those)
    /// first, then the median of the rest (by record number, or by coordinate then record number) in
    /// the middle of the rest's range, each with its cell in the node's box, which latitude and
    /// longitude splits cut as SPATIAL's are cut. O(n log n).
    static func points(of records: [mms_record], populations: [UInt32]) -> [Point] {
        var values = Array(0 ..< UInt32(records.count)) // record numbers, in tree order once placed
        var points = [Point](repeating: Point(), count: records.count)
        let latitudes = records.map(\.lat_e7), longitudes = records.map(\.lon_e7)
        let codes = records.indices.map { NearBound.code(population: populations.isEmpty ? 0 : UInt64(populations[$0])) }
        let leaf = Int(MMS_NEAR_LEAF_SIZE)
        var pending = [(range: 0 ..< records.count, depth: 0, box: _SpatialBox.world)]
        while let (range, depth, box) = pending.popLast() {
            /// Writes the point at `position` and returns its cell in `box`.
            func place(_ position: Int) -> _SpatialBox {
                let record = Int(values[position])
                let cell = box.cellNumbers(latitude: latitudes[record], longitude: longitudes[record])
                points[position] = Point(latitudeCell: cell.latitude, longitudeCell: cell.longitude, record: values[position], bound: codes[record])
                return box.cell(latitude: cell.latitude, longitude: cell.longitude)
            }
            guard !range.isEmpty else { continue }
            // The node's top first: its greatest bound (the least record number of those).
            var top = range.lowerBound
            for position in range.dropFirst() where (codes[Int(values[position])], values[top]) > (codes[Int(values[top])], values[position]) { top = position }
            // Moved there, not swapped: the rest keeps its order (a range sorted by record number stays
            // sorted), which `select`'s middle-of-three pivot needs; a swap made it quadratic here.
            let taken = values[top]
            for position in stride(from: top, to: range.lowerBound, by: -1) { values[position] = values[position - 1] }
            values[range.lowerBound] = taken
            _ = place(range.lowerBound)
            let rest = range.lowerBound + 1 ..< range.upperBound
            guard range.count > leaf else {
                for position in rest { _ = place(position) }
                continue
            }
            let middle = rest.lowerBound + rest.count / 2
            let axis = depth % 4
            if axis < 2 {
                SpatialBuilder.select(middle, in: rest, of: &values) { $0 < $1 }
            } else {
                let coordinates = axis == 3 ? longitudes : latitudes
                SpatialBuilder.select(middle, in: rest, of: &values) { a, b in
                    let (x, y) = (coordinates[Int(a)], coordinates[Int(b)])
                    return x != y ? x < y : a < b
                }
            }
            let pivotCell = place(middle)
            let (low, high) = axis < 2 ? (box, box) : box.split(longitude: axis == 3, atCell: pivotCell)
            pending.append((rest.lowerBound ..< middle, depth + 1, low))
            pending.append((middle + 1 ..< rest.upperBound, depth + 1, high))
        }
        return points
    }
}
