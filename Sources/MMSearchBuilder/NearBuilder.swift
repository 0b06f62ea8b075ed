import CMMSearchFormat
import MMSearch

/// The NEAR_POINTS section (`include/mmsearch_format.h`, "Near a point"): the records in the order of
/// an implicit k-d tree over (record number, latitude, longitude), split on the record number at depths
/// 0 and 1 of every 4, on the latitude at 2 and the longitude at 3, each point with a population bound
/// (its subtree's greatest for a pivot, its own in a leaf).
enum NearBuilder {
    /// A point as the section packs it: its cells in its node's box, its record, its bound's code.
    struct Point {
        var latitudeCell: UInt32 = 0
        var longitudeCell: UInt32 = 0
        var record: UInt32 = 0
        var bound: UInt32 = 0
    }

    /// The points of `records` (in record order) with `populations` (per record; empty: all 0). One
    /// pass down the tree places each node's median (by record number, or by coordinate then record
    /// number) in the middle of its range with its cell in the node's box, which latitude and longitude
    /// splits cut as SPATIAL's are cut; a second, from the leaves up, gives each pivot its subtree's
    /// greatest bound. O(n log n).
    static func points(of records: [mms_record], populations: [UInt32]) -> [Point] {
        var values = Array(0 ..< UInt32(records.count)) // record numbers, in tree order once placed
        var points = [Point](repeating: Point(), count: records.count)
        let latitudes = records.map(\.lat_e7), longitudes = records.map(\.lon_e7)
        let leaf = Int(MMS_NEAR_LEAF_SIZE)
        var pending = [(range: 0 ..< records.count, depth: 0, box: _SpatialBox.world)]
        while let (range, depth, box) = pending.popLast() {
            /// Writes the point at `position` and returns its cell in `box`.
            func place(_ position: Int) -> _SpatialBox {
                let record = Int(values[position])
                let cell = box.cellNumbers(latitude: latitudes[record], longitude: longitudes[record])
                let population = populations.isEmpty ? 0 : UInt64(populations[record])
                points[position] = Point(latitudeCell: cell.latitude, longitudeCell: cell.longitude, record: values[position],
                                         bound: NearBound.code(population: population))
                return box.cell(latitude: cell.latitude, longitude: cell.longitude)
            }
            guard range.count > leaf else {
                for position in range { _ = place(position) }
                continue
            }
            let middle = range.lowerBound + range.count / 2
            let axis = depth % 4
            if axis < 2 {
                SpatialBuilder.select(middle, in: range, of: &values) { $0 < $1 }
            } else {
                let coordinates = axis == 3 ? longitudes : latitudes
                SpatialBuilder.select(middle, in: range, of: &values) { a, b in
                    let (x, y) = (coordinates[Int(a)], coordinates[Int(b)])
                    return x != y ? x < y : a < b
                }
            }
            let pivotCell = place(middle)
            let (low, high) = axis < 2 ? (box, box) : box.split(longitude: axis == 3, atCell: pivotCell)
            pending.append((range.lowerBound ..< middle, depth + 1, low))
            pending.append((middle + 1 ..< range.upperBound, depth + 1, high))
        }
        /// The greatest bound in `range`'s subtree, given to its pivot.
        func fill(_ range: Range<Int>) -> UInt32 {
            guard range.count > leaf else { return range.map { points[$0].bound }.max() ?? 0 }
            let middle = range.lowerBound + range.count / 2
            let greatest = max(points[middle].bound, fill(range.lowerBound ..< middle), fill(middle + 1 ..< range.upperBound))
            points[middle].bound = greatest
            return greatest
        }
        _ = fill(0 ..< records.count)
        return points
    }
}
