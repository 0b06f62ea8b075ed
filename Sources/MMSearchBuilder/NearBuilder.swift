import CMMSearchFormat
import MMSearch

/// The NEAR_POINTS section (`include/mmsearch_format.h`, "Near a point"): the records in the order of
/// an implicit k-d tree over (record number, latitude, longitude), split on the record number at depths
/// 0 and 1 of every 4, on the latitude at 2 and the longitude at 3, each node's top (its greatest
/// population bound) first, each point with its record's bound.
enum NearBuilder {
    /// A point as the section packs it: its record and its bound's code.
    struct Point {
        var record: UInt32 = 0
        var bound: UInt32 = 0
    }

    /// The points of the records at `latitudes` and `longitudes` (in record order) with `populations`
    /// (per record; empty: all 0). One pass down the tree places each node's top (its greatest bound,
    /// the least record number of those) first, then the median of the rest (by record number, or by
    /// coordinate then record number) in the middle of the rest's range. O(n log n).
    static func points(latitudes: [Int32], longitudes: [Int32], populations: [UInt32]) -> [Point] {
        precondition(latitudes.count == longitudes.count, "a latitude and a longitude a record")
        var values = Array(0 ..< UInt32(latitudes.count)) // record numbers, in tree order once placed
        let codes = latitudes.indices.map { NearBound.code(population: populations.isEmpty ? 0 : UInt64(populations[$0])) }
        let leaf = Int(MMS_NEAR_LEAF_SIZE)
        var pending = [(range: 0 ..< latitudes.count, depth: 0)]
        while let (range, depth) = pending.popLast() {
            guard !range.isEmpty else { continue }
            // The node's top first: its greatest bound (the least record number of those).
            var top = range.lowerBound
            for position in range.dropFirst() where (codes[Int(values[position])], values[top]) > (codes[Int(values[top])], values[position]) { top = position }
            // Moved there, not swapped: the rest keeps its order (a range sorted by record number stays
            // sorted), which `select`'s middle-of-three pivot needs; a swap made it quadratic here.
            let taken = values[top]
            for position in stride(from: top, to: range.lowerBound, by: -1) { values[position] = values[position - 1] }
            values[range.lowerBound] = taken
            let rest = range.lowerBound + 1 ..< range.upperBound
            guard range.count > leaf else { continue }
            let middle = KDTree.pivot(of: rest)
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
            pending.append((rest.lowerBound ..< middle, depth + 1))
            pending.append((middle + 1 ..< rest.upperBound, depth + 1))
        }
        return values.map { Point(record: $0, bound: codes[Int($0)]) }
    }
}
