/// Byte-wise comparison of two spans: negative, zero or positive as a sorts before, with or after b.
/// The one definition of the format's string order (shorter first on a common prefix).
@inline(__always)
package func compareBytes(_ a: UnsafeRawBufferPointer, _ aRange: Range<Int>, _ b: UnsafeRawBufferPointer, _ bRange: Range<Int>) -> Int {
    let common = min(aRange.count, bRange.count)
    for offset in 0 ..< common {
        let x = a[aRange.lowerBound + offset], y = b[bRange.lowerBound + offset]
        if x != y { return Int(x) - Int(y) }
    }
    return aRange.count - bRange.count
}
