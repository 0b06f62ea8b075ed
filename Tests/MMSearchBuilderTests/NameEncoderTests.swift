import CMMSearchFormat
import MMSearch
import MMSearchTestSupport
import Testing
@testable import MMSearchBuilder

/// The symbol table and the encoder ("Encoded names" in the format header), decoded here by a decoder
/// of the test's own from the table as it is written (SYMBOLS' bytes): every name comes back whole, the
/// encoding never holds the end byte, and the table is well formed and the same for the same names.
struct NameEncoderTests {
    /// The test's decoder: code c < symbols.count is symbols[c], MMS_NAME_ESCAPE the byte after it.
    static func decode(_ encoded: [UInt8], with table: [mms_symbol]) -> [UInt8]? {
        var text: [UInt8] = [], position = 0
        while position < encoded.count {
            let code = encoded[position]
            if code == UInt8(MMS_NAME_ESCAPE) {
                guard position + 1 < encoded.count else { return nil }
                text.append(encoded[position + 1])
                position += 2
            } else if Int(code) < table.count {
                let symbol = table[Int(code)]
                text += withUnsafeBytes(of: symbol.bytes) { Array($0.prefix(Int(symbol.length))) }
                position += 1
            } else {
                return nil
            }
        }
        return text
    }

    static func checkTable(_ table: [mms_symbol]) {
        #expect(table.count <= Int(MMS_MAX_SYMBOLS))
        var seen = Set<[UInt8]>()
        for symbol in table {
            let bytes = withUnsafeBytes(of: symbol.bytes) { Array($0) }
            #expect((1 ... Int(MMS_SYMBOL_MAX_LENGTH)).contains(Int(symbol.length)))
            #expect(bytes[Int(symbol.length)...].allSatisfy { $0 == 0 }, "bytes past a symbol's length are zero")
            #expect(seen.insert(Array(bytes.prefix(Int(symbol.length)))).inserted, "no symbol twice")
        }
    }

    /// A table trained on `names`, given to the trainer as the builder gives them: views of one pool.
    static func encoder(training names: [[UInt8]]) -> NameEncoder {
        let pool = Array(names.joined())
        return pool.withUnsafeBufferPointer { pool in
            var start = 0
            return NameEncoder(training: names.map { name in
                defer { start += name.count }
                return UnsafeBufferPointer(rebasing: pool[start ..< start + name.count])
            })
        }
    }

    static func roundTrip(_ names: [[UInt8]], trainedOn training: [[UInt8]]) -> (encoded: Int, raw: Int) {
        let encoder = Self.encoder(training: training)
        let table = encoder.tableSection
        checkTable(table)
        var encodedBytes = 0, rawBytes = 0
        for name in names {
            let encoded = encoder.encode(name)
            #expect(!encoded.contains(UInt8(MMS_STRING_END)), "\(name): the end byte inside an encoding")
            #expect(decode(encoded, with: table) == name, "\(String(decoding: name, as: UTF8.self)) comes back whole")
            encodedBytes += encoded.count
            rawBytes += name.count
        }
        return (encodedBytes, rawBytes)
    }

    @Test func namesNoSymbolHasAndLongRunsComeBackWhole() {
        let training = ["London", "Londonderry", "New London", "Springfield", "Saint Paul", "Sankt Pölten"].map { Array($0.utf8) }
        // Empty, bytes no symbol starts (CJK, Cyrillic, emoji), runs longer than a symbol, every byte
        // value UTF-8 uses, alone.
        let odd = ["", "東京", "Москва", "🏙️ city", String(repeating: "London", count: 40), "ŁÓDŹ", "a"].map { Array($0.utf8) }
            + (0 ..< 0xF5).filter { $0 < 0x80 || $0 >= 0xC2 }.map { [UInt8($0)] }
        _ = Self.roundTrip(training + odd, trainedOn: training)
        _ = Self.roundTrip(odd, trainedOn: [])
    }

    /// Every name of the real list, trained on them all: each comes back whole, and the table saves a
    /// good part of their bytes (FSST's 2-3x on short strings; a third at least here).
    @Test func theRealListsNamesComeBackWhole() throws {
        let names = try SharedData.cities.get().map { Array($0.name.utf8) }
        let (encoded, raw) = Self.roundTrip(names, trainedOn: names)
        #expect(encoded * 3 < raw * 2, "\(encoded) encoded bytes for \(raw)")
    }

    @Test func theSameNamesGiveTheSameTable() throws {
        let names = try SharedData.cities.get().prefix(20_000).map { Array($0.name.utf8) }
        let first = Self.encoder(training: names).symbols, second = Self.encoder(training: names).symbols
        #expect(first == second && !first.isEmpty)
    }
}
