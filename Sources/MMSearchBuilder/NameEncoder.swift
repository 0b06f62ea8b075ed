import CMMSearchFormat
import MMSearch

/// The symbol table NAMES is encoded with ("Encoded names" in the format header): up to
/// MMS_MAX_SYMBOLS symbols of 1 to 8 bytes, trained on the names as FSST trains its table (Boncz,
/// Neumann, Leis, "FSST: Fast Random Access String Compression", VLDB 2020), and the encoder that
/// replaces each name's bytes with their codes, longest symbol first, escaping a byte no symbol
/// starts.
struct NameEncoder {
    /// Code c stands for symbols[c].
    private(set) var symbols: [[UInt8]] = []
    /// For each first byte, the codes of the symbols that start with it, longest first.
    private var codesByFirstByte = [[UInt8]](repeating: [], count: 256)

    /// Bytes of sample the table is trained on: enough for the frequent symbols of every script,
    /// little enough that training takes a small part of a build.
    static let sampleBytes = 1 << 20
    /// Rounds of training (the paper's five): each encodes the sample with the table so far and
    /// keeps the symbols, and concatenations of two consecutive ones, that save the most.
    static let rounds = 5

    /// A table trained on `names` (each name's bytes; a deterministic sample of them when they are many).
    init(training names: [[UInt8]]) {
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
    private mutating func train(on sample: [[UInt8]], withPairs: Bool) {
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
        func bytes(_ code: Int) -> [UInt8] { code >= 256 ? [UInt8(code - 256)] : symbols[code] }
        var gains: [Candidate: Int] = [:]
        for first in 0 ..< codeSpace where single[first] > 0 {
            let symbol = bytes(first)
            gains[Candidate(symbol), default: 0] += single[first] * symbol.count * (symbol.count == 1 ? 8 : 1)
            guard withPairs, symbol.count < Int(MMS_SYMBOL_MAX_LENGTH) else { continue }
            for second in 0 ..< codeSpace {
                let count = Int(pairs[first * codeSpace + second])
                guard count > 0 else { continue }
                let joined = Array((symbol + bytes(second)).prefix(Int(MMS_SYMBOL_MAX_LENGTH)))
                gains[Candidate(joined), default: 0] += count * joined.count
            }
        }
        // The greatest gains, ties by bytes: the same names always give the same table.
        let kept = gains.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(Int(MMS_MAX_SYMBOLS))
        setSymbols(kept.map(\.key.bytes))
    }

    private mutating func setSymbols(_ table: [[UInt8]]) {
        symbols = table
        codesByFirstByte = [[UInt8]](repeating: [], count: 256)
        for (code, symbol) in symbols.enumerated() { codesByFirstByte[Int(symbol[0])].append(UInt8(code)) }
        for byte in 0 ..< 256 {
            codesByFirstByte[byte].sort { (symbols[Int($0)].count, $1) > (symbols[Int($1)].count, $0) }
        }
    }

    /// The code that encodes `name` from `position` on: the longest symbol it starts with, or
    /// 256 + the byte when none does; and how many bytes that covers.
    @inline(__always)
    private func longestMatch(_ name: [UInt8], at position: Int) -> (code: Int, length: Int) {
        let rest = name.count - position
        for code in codesByFirstByte[Int(name[position])] {
            let symbol = symbols[Int(code)]
            guard symbol.count <= rest else { continue }
            var index = 1
            while index < symbol.count, symbol[index] == name[position + index] { index += 1 }
            if index == symbol.count { return (Int(code), symbol.count) }
        }
        return (256 + Int(name[position]), 1)
    }

    /// `name` encoded (without its end byte).
    func encode(_ name: [UInt8]) -> [UInt8] {
        var encoded: [UInt8] = []
        encoded.reserveCapacity(name.count)
        var position = 0
        while position < name.count {
            let (code, length) = longestMatch(name, at: position)
            if code < 256 {
                encoded.append(UInt8(code))
            } else {
                encoded.append(UInt8(MMS_NAME_ESCAPE))
                encoded.append(UInt8(code - 256))
            }
            position += length
        }
        return encoded
    }

    /// The SYMBOLS section: one mms_symbol a code.
    var tableSection: [mms_symbol] {
        symbols.map { symbol in
            var entry = mms_symbol()
            withUnsafeMutableBytes(of: &entry.bytes) { $0.copyBytes(from: symbol) }
            entry.length = UInt8(symbol.count)
            return entry
        }
    }

    /// A candidate symbol, as a dictionary key.
    private struct Candidate: Hashable, Comparable {
        let bytes: [UInt8]
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        static func < (a: Candidate, b: Candidate) -> Bool { a.bytes.lexicographicallyPrecedes(b.bytes) }
    }
}

/// The records' and alternates' names, each stored once however many refer to it, encoded and
/// followed by MMS_STRING_END: NAMES, in one run a script group, each run encoded with a table trained
/// on its names ("Encoded names"); NAME_TABLES and SYMBOLS say which table encodes which run.
struct EncodedNamePool {
    private(set) var bytes: [UInt8] = []
    private(set) var tables: [mms_name_table] = []
    private(set) var symbols: [mms_symbol] = []
    private var spans: [ByteString: (offset: UInt32, length: Int)] = [:]

    /// The pool of `names` (duplicates stored once), laid out run by run.
    init(names: [[UInt8]], file: String) throws(MMSearchError) {
        var seen = Set<ByteString>()
        var groups = [[[UInt8]]](repeating: [], count: ScriptGroup.count)
        for name in names where seen.insert(ByteString(name)).inserted { groups[ScriptGroup.of(name)].append(name) }
        spans.reserveCapacity(seen.count)
        for group in groups where !group.isEmpty {
            let encoder = NameEncoder(training: group)
            for name in group {
                let encoded = encoder.encode(name)
                guard bytes.count + encoded.count < Int(UInt32.max) else {
                    throw .limitExceeded(file: file, message: "name pool past 4 GiB; the format's offsets are 32-bit")
                }
                spans[ByteString(name)] = (UInt32(bytes.count), encoded.count)
                bytes.append(contentsOf: encoded)
                bytes.append(UInt8(MMS_STRING_END))
            }
            symbols += encoder.tableSection
            tables.append(mms_name_table(names_end: UInt32(bytes.count), symbols_end: UInt32(symbols.count)))
        }
    }

    /// Where `name`, one of the pool's, lies encoded: its offset and encoded length.
    func span(of name: [UInt8]) -> (offset: UInt32, length: Int) { spans[ByteString(name)]! }
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

    static func of(_ name: [UInt8]) -> Int {
        var counts = (0 ..< count).map { _ in 0 }
        for scalar in String(decoding: name, as: UTF8.self).unicodeScalars where scalar.value >= 0x80 {
            counts[blocks.first { $0.first <= scalar.value && scalar.value <= $0.last }?.group ?? other] += 1
        }
        let most = counts.max()!
        return most == 0 ? 0 : counts.firstIndex(of: most)!
    }
}
