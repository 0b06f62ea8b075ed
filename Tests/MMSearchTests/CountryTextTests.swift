@testable import MMSearch
import Testing

@Suite struct CountryTextTests {
    /// A record's country as text: its two bytes decoded as UTF-8 (repaired when they are not), ""
    /// for none; every pair of bytes, against decoding them (upper-case codes come from a table).
    @Test func countryTextIsTheBytesDecoded() {
        var differing: [(UInt8, UInt8)] = []
        for first in 0 ... 255 {
            for second in 0 ... 255 {
                let bytes = (UInt8(first), UInt8(second))
                let expected = bytes == (0, 0) ? "" : String(decoding: [bytes.0, bytes.1], as: UTF8.self)
                if _IndexBytes.countryText(bytes) != expected { differing.append(bytes) }
            }
        }
        #expect(differing.isEmpty, "\(differing.prefix(5))")
        #expect(_IndexBytes.countryText((85, 83)) == "US" && _IndexBytes.countryText((90, 90)) == "ZZ")
    }
}
