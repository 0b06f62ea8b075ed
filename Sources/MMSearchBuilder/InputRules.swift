/// What the city list parser and the GeoNames dump parser check alike.
enum InputRules {
    /// Whether any id occurs twice: a radix sort (three passes of 11 bits) and one scan, much cheaper
    /// than a set of 200,000 ids; the parsers find where the repeat is only when there is one.
    static func hasRepeats(_ ids: [UInt32]) -> Bool {
        var ids = ids
        var sorted = [UInt32](repeating: 0, count: ids.count)
        for shift in stride(from: UInt32(0), to: 32, by: 11) {
            // Where each digit's run starts in `sorted`, from how many ids have each smaller digit.
            var starts = [Int](repeating: 0, count: 2049)
            for id in ids { starts[Int(id >> shift & 0x7FF) + 1] += 1 }
            for digit in 1..<2049 { starts[digit] += starts[digit - 1] }
            for id in ids {
                let digit = Int(id >> shift & 0x7FF)
                sorted[starts[digit]] = id
                starts[digit] += 1
            }
            swap(&ids, &sorted)
        }
        return zip(ids, ids.dropFirst()).contains { $0 == $1 }
    }

    /// A country code's place among the 36 x 36 codes of two characters `A`-`Z` or `0`-`9`, or nil
    /// when it is not one: what lets records of one country share one array.
    static func countryCodeSlot(_ first: UInt8, _ second: UInt8) -> Int? {
        func value(_ byte: UInt8) -> Int? {
            if byte &- UInt8(ascii: "0") < 10 { return Int(byte - UInt8(ascii: "0")) }
            if byte &- UInt8(ascii: "A") < 26 { return Int(byte - UInt8(ascii: "A")) + 10 }
            return nil
        }
        guard let high = value(first), let low = value(second) else { return nil }
        return high * 36 + low
    }
}
