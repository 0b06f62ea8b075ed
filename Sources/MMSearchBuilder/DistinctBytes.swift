import CMMSearchFormat

/// Byte strings of one pool numbered by content: the first time a string is met it gets the next
/// number, and later equal ones the same. Open addressing over a table of numbers, each string hashed
/// with the format's XXH64 and compared in place: for the 700,000 names and 1.3 million labels of the
/// README's index, a `Dictionary` keyed by the bytes (SipHash, and a key struct a string) cost several
/// times as much.
struct DistinctBytes {
    /// Where each distinct string was first met, by number.
    private(set) var spans: [(start: Int, length: Int)] = []
    /// A number, or -1 for an empty slot; a power of two long, at most half full.
    private var slots: [Int32]

    init(expected count: Int) {
        var capacity = 16
        while capacity < 2 * count { capacity *= 2 }
        slots = [Int32](repeating: -1, count: capacity)
        spans.reserveCapacity(count)
    }

    var count: Int { spans.count }

    /// The number of `pool[span]`, a new one when no equal string was met before.
    mutating func number(of span: (start: Int, length: Int), in pool: UnsafeBufferPointer<UInt8>) -> Int {
        let text = pool.bytes(span)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: Self.hash(text)) & mask
        while true {
            let number = Int(slots[slot])
            if number < 0 { break }
            let known = spans[number]
            if known.length == span.length, pool[known.start ..< known.start + known.length].elementsEqual(text) { return number }
            slot = (slot + 1) & mask
        }
        let number = spans.count
        spans.append(span)
        slots[slot] = Int32(number)
        if 2 * spans.count > slots.count { grow(pool) }
        return number
    }

    private mutating func grow(_ pool: UnsafeBufferPointer<UInt8>) {
        slots = [Int32](repeating: -1, count: 2 * slots.count)
        let mask = slots.count - 1
        for (number, span) in spans.enumerated() {
            var slot = Int(truncatingIfNeeded: Self.hash(pool.bytes(span))) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(number)
        }
    }

    /// A string's hash: the format's XXH64, seed 0.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 { mms_xxh64(bytes.baseAddress, bytes.count, 0) }
}

extension UnsafeBufferPointer<UInt8> {
    /// The bytes of `span` (a start and a length inside this buffer).
    func bytes(_ span: (start: Int, length: Int)) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: self[span.start ..< span.start + span.length])
    }
}
