@testable import MMSearchBuilder
import Testing

/// `DistinctBytes` numbers strings by content: the first of each text gets the next number and
/// every equal one that number. Compared with a dictionary keyed by the bytes, numbering in the same
/// order, over strings that repeat, differ by a byte or by their length, are empty, and outgrow the
/// table several times.
@Suite struct DistinctBytesTests {
    @Test func numbersEveryStringAsADictionaryWould() {
        // Short strings over three letters (most repeat, many are prefixes of others), and longer
        // ones made of a counter (none repeats); a fixed generator, so every run checks the same.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        var pool: [UInt8] = [], spans: [(start: Int, length: Int)] = []
        for number in 0 ..< 60_000 {
            let text: [UInt8] = number % 3 == 0 ? Array("long text \(number)".utf8)
                : (0 ..< next(7)).map { _ in UInt8(ascii: "a") + UInt8(next(3)) }
            spans.append((pool.count, text.count))
            pool += text
        }
        var reference: [[UInt8]: Int] = [:], expected: [Int] = []
        for span in spans {
            let text = Array(pool[span.start ..< span.start + span.length])
            if reference[text] == nil { reference[text] = reference.count }
            expected.append(reference[text]!)
        }
        var distinct = DistinctBytes(expected: 4) // grown many times over
        let numbers = pool.withUnsafeBufferPointer { pool in spans.map { distinct.number(of: $0, in: pool) } }
        #expect(numbers == expected)
        #expect(distinct.count == reference.count)
        #expect(reference.count > 20_000 && reference.count < spans.count, "\(reference.count) distinct of \(spans.count)")
        for (number, span) in distinct.spans.enumerated() {
            #expect(reference[Array(pool[span.start ..< span.start + span.length])] == number)
        }
    }
}
