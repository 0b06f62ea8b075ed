import CMMSearchFormat
@testable import MMSearch
import MMSearchTestSupport
import Testing

/// Names end at their first MMS_STRING_END, labels at their first MMS_STRING_END or MMS_LABEL_TAIL_END,
/// which `_IndexBytes.end(of:from:before:least:)` finds eight bytes at a time: compared with a
/// byte-by-byte scan on random bytes (0xFF common, and bytes that the word test could take for an end:
/// 0xFE, 0xFD, 0x7F, 0x7E, 0x00, 0x80), every start and limit of short spans, and the end bytes at every
/// place of a word or just past the limit, for each of the two.
@Suite struct TextEndTests {
    static func byteByByte(_ bytes: [UInt8], from start: Int, before limit: Int, least: UInt8) -> Int? {
        var end = start
        while end < limit, bytes[end] != UInt8(MMS_STRING_END), least == UInt8(MMS_STRING_END) || bytes[end] != UInt8(MMS_LABEL_TAIL_END) { end += 1 }
        return end < limit ? end : nil
    }

    @Test(arguments: [UInt8(MMS_STRING_END), UInt8(MMS_LABEL_TAIL_END)])
    func wordsFindTheEndAByteScanFinds(least: UInt8) {
        var random = SeededRandom(seed: 41 + UInt64(least))
        let alphabet: [UInt8] = [0xFF, 0xFE, 0xFD, 0x7F, 0x7E, 0x00, 0x80, 0x01, 0x41, 0xC3]
        var compared = 0, found = 0
        for round in 0 ..< 200 {
            let count = Int.random(in: 1 ... 40, using: &random)
            // Sparse ends in some rounds (long spans to scan), dense in others.
            let bytes = (0 ..< count).map { _ in round % 2 == 0 ? alphabet.randomElement(using: &random)! : (Int.random(in: 0 ..< 20, using: &random) == 0 ? 0xFF : UInt8.random(in: 0 ... 0xFE, using: &random)) }
            bytes.withUnsafeBytes { raw in
                for start in 0 ... count {
                    for limit in start ... count {
                        let expected = Self.byteByByte(bytes, from: start, before: limit, least: least)
                        #expect(_IndexBytes.end(of: raw, from: start, before: limit, least: least) == expected, "\(bytes) from \(start) before \(limit)")
                        compared += 1
                        if expected != nil { found += 1 }
                    }
                }
            }
        }
        #expect(compared > 50_000 && found > compared / 4 && found < compared, "\(found) ends among \(compared) spans")
    }
}
