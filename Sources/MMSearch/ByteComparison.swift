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

/// The positions `0 ..< count` whose key starts with `prefix`, for keys sorted in the format's string
/// order (`key(i)` gives key i): two binary searches. The one definition of a summary's primary range,
/// shared by the builder and `verify`.
package func prefixRange(count: Int, prefix: UnsafeRawBufferPointer, key: (Int) -> UnsafeRawBufferPointer) -> Range<Int> {
    // The first key not below `prefix`, then the first key past every key that starts with it.
    func firstPosition(where isPast: (UnsafeRawBufferPointer) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = low + (high - low) / 2
            if isPast(key(middle)) { high = middle } else { low = middle + 1 }
        }
        return low
    }
    let lower = firstPosition { compareBytes($0, 0 ..< $0.count, prefix, 0 ..< prefix.count) >= 0 }
    let upper = firstPosition { key in
        // Past the block when its first bytes sort after the prefix's (equal ones start with it or
        // are shorter than it, and so sort before or inside the block).
        let common = min(key.count, prefix.count)
        return compareBytes(key, 0 ..< common, prefix, 0 ..< common) > 0
    }
    return lower ..< max(lower, upper)
}
