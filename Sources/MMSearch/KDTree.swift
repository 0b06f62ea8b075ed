/// The format's implicit k-d trees (SPATIAL, and NEAR_POINTS after each node's top; "The spatial index"
/// and "Near a point" in `include/mmsearch_format.h`) split a node's points at their middle. The
/// builders, the walks and `verify` all take a node's pivot from here, so that they cannot disagree.
package enum KDTree {
    /// The pivot of the points `range` (SPATIAL's node [lo, hi), NEAR_POINTS' rest [lo + 1, hi)):
    /// lo + (hi - lo) / 2, the points before it its low child's and those after its high child's.
    @inline(__always)
    package static func pivot(of range: Range<Int>) -> Int { range.lowerBound + range.count / 2 }
}
