import CMMSearchFormat
import MMSearch

/// The symbol table NAMES is encoded with ("Encoded names" in the format header): up to
/// MMS_MAX_SYMBOLS symbols of 1 to 8 bytes, trained on the names as FSST trains its table (Boncz,
/// Neumann, Leis, "FSST: Fast Random Access String Compression", VLDB 2020), and the encoder that
/// replaces each name's bytes with their codes, longest symbol first, escaping a byte no symbol
/// starts.
struct NameEncoder {
    /// A symbol: its bytes, the first in the low byte of `value` (zero past `length`), and how many.
    struct Symbol: Hashable, Comparable {
        var value: UInt64
        var length: Int

        init(value: UInt64, length: Int) {
            self.length = length
            self.value = value & Self.mask(length)
        }

        /// The bytes of `value` below `length` (8 at most) set.
        @inline(__always)
        static func mask(_ length: Int) -> UInt64 { length >= 8 ? .max : (1 << UInt64(8 * length)) - 1 }

        /// This symbol's bytes then `next`'s, cut at MMS_SYMBOL_MAX_LENGTH.
        func appending(_ next: Symbol) -> Symbol {
            Symbol(value: length >= 8 ? value : value | next.value << UInt64(8 * length), length: Swift.min(Int(MMS_SYMBOL_MAX_LENGTH), length + next.length))
        }

        var bytes: [UInt8] { (0 ..< length).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * $0)) } }

        /// Bytes in order, then length: any total order does, for a table that is the same every time.
        static func < (a: Symbol, b: Symbol) -> Bool { (a.value.byteSwapped, a.length) < (b.value.byteSwapped, b.length) }
    }

    /// Code c stands for symbols[c].
    private(set) var symbols: [Symbol] = []
    /// The codes of the symbols that start with byte b, longest first: byFirstByte[starts[b] ..< starts[b + 1]].
    private var byFirstByte: [UInt8] = []
    private var starts = [Int](repeating: 0, count: 257)

    /// Bytes of sample the table is trained on (FSST's is 16 KB): on the README's index's names, tables
    /// trained on 128 KB, 1 MB or 16 MB encode them within 0.1% of one another, 128 KB the fastest.
    static let sampleBytes = 1 << 17
    /// Rounds of training (the paper's five): each encodes the sample with the table so far and
    /// keeps the symbols, and concatenations of two consecutive ones, that save the most.
    static let rounds = 5

    /// A table trained on `names` (each name's bytes; a deterministic sample of them when they are many).
    init(training names: [UnsafeBufferPointer<UInt8>]) {
        let total = names.reduce(0) { $0 + $1.count }
        let stride = max(1, total / Self.sampleBytes)
        let sample = Swift.stride(from: 0, to: names.count, by: stride).map { names[$0] }
        for round in 0 ..< Self.rounds {
            train(on: sample, withPairs: round < Self.rounds - 1)
        }
    }

    /// One round: counts how often each code (a symbol, or an escaped byte: 256 + the byte) and each
    /// pair of consecutive codes encodes the sample, then keeps the MMS_MAX_SYMBOLS candidates of
    /// greatest gain (frequency times length; a single byte's counted eight times, as FSST does, since
    /// escaping it costs two bytes).
    private mutating func train(on sample: [UnsafeBufferPointer<UInt8>], withPairs: Bool) {
        let codeSpace = 512
        var single = [Int](repeating: 0, count: codeSpace)
        var pairs = [Int32](repeating: 0, count: withPairs ? codeSpace * codeSpace : 0)
        for name in sample {
            var position = 0, previous = -1
            while position < name.count {
                let (code, length) = longestMatch(name, at: position)
                single[code] += 1
                if withPairs, previous >= 0 { pairs[previous * codeSpace + code] += 1 }
                previous = code
                position += length
            }
        }
        func symbol(_ code: Int) -> Symbol { code >= 256 ? Symbol(value: UInt64(code - 256), length: 1) : symbols[code] }
        var gains: [Symbol: Int] = [:]
        for first in 0 ..< codeSpace where single[first] > 0 {
            let head = symbol(first)
            gains[head, default: 0] += single[first] * head.length * (head.length == 1 ? 8 : 1)
            guard withPairs, head.length < Int(MMS_SYMBOL_MAX_LENGTH) else { continue }
            for second in 0 ..< codeSpace {
                let count = Int(pairs[first * codeSpace + second])
                guard count > 0 else { continue }
                let joined = head.appending(symbol(second))
                gains[joined, default: 0] += count * joined.length
            }
        }
        // The greatest gains, ties by bytes: the same names always give the same table.
        let kept = gains.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(Int(MMS_MAX_SYMBOLS))
        setSymbols(kept.map(\.key))
    }

    private mutating func setSymbols(_ table: [Symbol]) {
        symbols = table
        let codes = (0 ..< symbols.count).sorted { a, b in
            let x = symbols[a], y = symbols[b]
            let xFirst = x.value & 0xFF, yFirst = y.value & 0xFF
            return xFirst != yFirst ? xFirst < yFirst : x.length != y.length ? x.length > y.length : a < b
        }
        byFirstByte = codes.map(UInt8.init)
        starts = [Int](repeating: 0, count: 257)
        for code in codes { starts[Int(symbols[code].value & 0xFF) + 1] += 1 }
        for byte in 0 ..< 256 { starts[byte + 1] += starts[byte] }
    }

    /// The code that encodes `name` from `position` on: the longest symbol it starts with, or
    /// 256 + the byte when none does; and how many bytes that covers.
    @inline(__always)
    private func longestMatch(_ name: UnsafeBufferPointer<UInt8>, at position: Int) -> (code: Int, length: Int) {
        let rest = name.count - position
        var word: UInt64 = 0
        if rest >= 8 {
            word = UInt64(littleEndian: UnsafeRawPointer(name.baseAddress! + position).loadUnaligned(as: UInt64.self))
        } else {
            for offset in 0 ..< rest { word |= UInt64(name[position + offset]) << UInt64(8 * offset) }
        }
        let first = Int(name[position])
        for slot in starts[first] ..< starts[first + 1] {
            let code = Int(byFirstByte[slot]), symbol = symbols[code]
            if symbol.length <= rest, word & Symbol.mask(symbol.length) == symbol.value { return (code, symbol.length) }
        }
        return (256 + first, 1)
    }

    /// `name` encoded (without its end byte).
    func encode(_ name: [UInt8]) -> [UInt8] {
        var encoded: [UInt8] = []
        name.withUnsafeBufferPointer { encode($0, appendingTo: &encoded) }
        return encoded
    }

    /// Appends `name` encoded (without its end byte) to `encoded`: at most two bytes a byte of it,
    /// written into room made once.
    func encode(_ name: UnsafeBufferPointer<UInt8>, appendingTo encoded: inout [UInt8]) {
        let start = encoded.count
        encoded.append(contentsOf: repeatElement(0, count: 2 * name.count))
        let end = encoded.withUnsafeMutableBufferPointer { output in
            var position = 0, written = start
            while position < name.count {
                let (code, length) = longestMatch(name, at: position)
                if code < 256 {
                    output[written] = UInt8(code)
                    written += 1
                } else {
                    output[written] = UInt8(MMS_NAME_ESCAPE)
                    output[written + 1] = UInt8(code - 256)
                    written += 2
                }
                position += length
            }
            return written
        }
        encoded.removeLast(encoded.count - end)
    }

    /// The SYMBOLS section of this table: one mms_symbol a code.
    var tableSection: [mms_symbol] {
        symbols.map { symbol in
            var entry = mms_symbol()
            withUnsafeMutableBytes(of: &entry.bytes) { $0.copyBytes(from: symbol.bytes) }
            entry.length = UInt8(symbol.length)
            return entry
        }
    }
}

/// The records' and alternates' names, each stored once however many refer to it, encoded and
/// followed by MMS_STRING_END: NAMES, in one run a script group, each run encoded with a table trained
/// on its names ("Encoded names"); NAME_TABLES and SYMBOLS say which table encodes which run.
struct EncodedNamePool {
    private(set) var bytes: [UInt8] = []
    private(set) var tables: [mms_name_table] = []
    private(set) var symbols: [mms_symbol] = []
    /// Where each name given lies encoded: its offset and encoded length, in the order given.
    private(set) var spans: [(offset: UInt32, length: Int)] = []

    /// The pool of `names` (duplicates stored once), laid out run by run.
    init(names: [[UInt8]], file: String) throws(MMSearchError) {
        // The names back to back, so that numbering, grouping, training and encoding them read one
        // buffer and retain no array.
        var pool: [UInt8] = [], placed: [(start: Int, length: Int)] = []
        pool.reserveCapacity(names.reduce(0) { $0 + $1.count })
        placed.reserveCapacity(names.count)
        for name in names {
            placed.append((pool.count, name.count))
            pool.append(contentsOf: name)
        }
        try pool.withUnsafeBufferPointer { pool throws(MMSearchError) in
            // Each distinct name once, numbered by its first place in `names`.
            var distinct = DistinctBytes(expected: names.count)
            let numbers = placed.map { distinct.number(of: $0, in: pool) }
            let groups = distinct.spans.map { ScriptGroup.of(pool.bytes($0)) }
            var distinctSpans = [(offset: UInt32, length: Int)](repeating: (0, 0), count: distinct.count)
            for group in 0 ..< ScriptGroup.count {
                let members = groups.indices.filter { groups[$0] == group }
                guard !members.isEmpty else { continue }
                let encoder = NameEncoder(training: members.map { pool.bytes(distinct.spans[$0]) })
                for number in members {
                    let start = bytes.count
                    encoder.encode(pool.bytes(distinct.spans[number]), appendingTo: &bytes)
                    guard bytes.count < Int(UInt32.max) else {
                        throw .limitExceeded(file: file, message: "name pool past 4 GiB; the format's offsets are 32-bit")
                    }
                    distinctSpans[number] = (UInt32(start), bytes.count - start)
                    bytes.append(UInt8(MMS_STRING_END))
                }
                symbols += encoder.tableSection
                tables.append(mms_name_table(names_end: UInt32(bytes.count), symbols_end: UInt32(symbols.count)))
            }
            spans = numbers.map { distinctSpans[$0] }
        }
    }
}

/// The groups of names that share a symbol table: by the script most of a name's letters past ASCII
/// are written in (a name in ASCII alone is Latin). Each script's names share syllables and letters
/// (two or three bytes each in UTF-8) that its own table holds; one table for all holds few of any.
enum ScriptGroup {
    /// Unicode blocks and their groups, by first scalar; a scalar in none is group `other`.
    private static let blocks: [(first: UInt32, last: UInt32, group: Int)] = [
        (0x0080, 0x036F, 0), (0x1E00, 0x1EFF, 0),   // Latin-1 to IPA and combining marks; Latin Extended Additional
        (0x0370, 0x03FF, 1), (0x1F00, 0x1FFF, 1),   // Greek
        (0x0400, 0x052F, 2),                        // Cyrillic
        (0x0530, 0x05FF, 3), (0x10A0, 0x10FF, 3),   // Armenian, Hebrew; Georgian
        (0x0600, 0x08FF, 4),                        // Arabic, Syriac, Thaana
        (0x0900, 0x0DFF, 5),                        // Indic scripts
        (0x0E00, 0x109F, 6),                        // Thai, Lao, Tibetan, Myanmar
        (0x3040, 0x30FF, 7),                        // kana
        (0x3100, 0x9FFF, 8), (0xF900, 0xFAFF, 8),   // CJK ideographs
        (0x1100, 0x11FF, 9), (0xAC00, 0xD7AF, 9),   // Hangul
    ]
    static let other = 10
    static let count = 11

    static func of(_ name: UnsafeBufferPointer<UInt8>) -> Int {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: count) { counts in
            counts.initialize(repeating: 0)
            var position = 0, any = false
            while position < name.count {
                guard name[position] >= 0x80 else { position += 1; continue }
                // Decoded as String decodes it (an invalid sequence is U+FFFD, in group `other`).
                let (scalar, length) = Folding.decodeNonASCII(name, at: position)
                counts[blocks.first { $0.first <= scalar && scalar <= $0.last }?.group ?? other] += 1
                any = true
                position += length
            }
            guard any else { return 0 }
            let most = counts.max()!
            return counts.firstIndex(of: most)!
        }
    }
}
