import CMMSearchFormat

/// The spellings a name brings (`shared/peers/rank.py`, "Rules of version 4"; mms_spelling_form): with
/// P the name without its periods and S = P with its hyphens as spaces, in order P, S, short(P),
/// short(S), long(P), long(S), where short() writes saint, sainte, sankt, santa, mount, fort, port and
/// point short and long() writes st, ste, sta, mt and ft out. Words are runs of bytes between
/// separators, compared folded. The builder keeps the spellings a record's names bring; a reader
/// writes a stored one out from its name and form (SPELLINGS), by the same code.
package enum Spellings {
    /// The words short() and long() replace, folded, as `key(ofFolded:)` packs them, each with its
    /// replacement: looked up by comparing one integer with a handful, not by hashing arrays.
    private static let short = table(["saint": "St", "sainte": "Ste", "sankt": "St", "santa": "Sta", "mount": "Mt", "fort": "Ft", "port": "Pt", "point": "Pt"])
    private static let long = table(["st": "Saint", "ste": "Sainte", "sta": "Santa", "mt": "Mount", "ft": "Fort"])

    private static func table(_ words: KeyValuePairs<String, String>) -> [(key: UInt64, replacement: [UInt8])] {
        words.map { word, replacement in (Array(word.utf8).withUnsafeBufferPointer { key(ofFolded: $0)! }, Array(replacement.utf8)) }
    }

    private static let dot = UInt8(ascii: "."), hyphen = UInt8(ascii: "-"), space = UInt8(ascii: " ")
    /// The tables' words are at most this long (folded); a longer word is none of them.
    private static let longestWord = 6

    /// rank.py's six generated names of `name` (UTF-8), in its order (form i at i); none when every one
    /// would be `name` itself (no period, no hyphen, no word either table knows), as is so for most names.
    package static func generated(from name: [UInt8]) -> [[UInt8]] {
        name.withUnsafeBufferPointer { name in
            guard name.contains(where: { $0 == dot || $0 == hyphen }) || hasTableWord(name) else { return [] }
            return (0 ..< MMS_SPELLING_FORM_COUNT.rawValue).map { form($0, of: name) }
        }
    }

    /// Form `form` (below MMS_SPELLING_FORM_COUNT) of `name`.
    package static func form(_ form: UInt32, of name: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        withForm(form, of: name) { Array($0) }
    }

    /// Form `form` of `name`, written into a buffer on the stack (a reader writes one out for each
    /// result matched by a spelling: allocating arrays and hashing words there made a page of them,
    /// "St M", take 10 to 14 µs) and handed to `body`.
    package static func withForm<R>(_ form: UInt32, of name: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        // A replaced word (at least a byte) becomes at most 6 bytes, and replaced words are apart by
        // separators: at most 5 x (count + 1) / 2 bytes more than the name's, whatever a word folds to.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4 * name.count + 8) { buffer in
            body(UnsafeBufferPointer(rebasing: buffer[..<write(form, of: name, into: buffer)]))
        }
    }

    /// Writes form `form` of `name` into `output` (at least 4 x name.count + 8 bytes) and returns its
    /// length: the name without its periods (P), with its hyphens as spaces in the odd forms (S), and
    /// in forms 2-3 short(), in 4-5 long() applied word by word.
    private static func write(_ form: UInt32, of name: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let spaced = form & 1 == 1
        let table: [(key: UInt64, replacement: [UInt8])]? = switch form >> 1 { case 1: short; case 2: long; default: nil }
        var count = 0, wordStart = 0, word = WordKey()
        /// The word output[wordStart ..< count] replaced when the table has it.
        func replaceWord(_ table: [(key: UInt64, replacement: [UInt8])]) {
            guard let key = word.key(of: UnsafeBufferPointer(rebasing: output[wordStart ..< count])),
                  let replacement = table.first(where: { $0.key == key })?.replacement else { return }
            count = wordStart
            for byte in replacement { output[count] = byte; count += 1 }
        }
        for var byte in name where byte != dot {
            if spaced, byte == hyphen { byte = space }
            if let table {
                if WordStarts.isSeparator(byte) {
                    replaceWord(table)
                    wordStart = count + 1
                    word = WordKey()
                } else {
                    word.add(byte)
                }
            }
            output[count] = byte
            count += 1
        }
        if let table { replaceWord(table) }
        return count
    }

    /// Whether a word of `text` is one either table replaces.
    private static func hasTableWord(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var wordStart = 0, word = WordKey()
        for end in 0 ... text.count {
            guard end == text.count || WordStarts.isSeparator(text[end]) else { word.add(text[end]); continue }
            if let key = word.key(of: UnsafeBufferPointer(rebasing: text[wordStart ..< end])),
               short.contains(where: { $0.key == key }) || long.contains(where: { $0.key == key }) {
                return true
            }
            wordStart = end + 1
            word = WordKey()
        }
        return false
    }

    /// fold(word) as the tables key it, made as the word's bytes come: an ASCII word's folded (upper
    /// case to lower, what folding does to ASCII) into one integer byte by byte; a word with other
    /// bytes folded whole by `Folding` at the end.
    private struct WordKey {
        var bytes: UInt64 = 0, length = 0, isASCII = true

        mutating func add(_ byte: UInt8) {
            if length < Spellings.longestWord { bytes |= UInt64(Folding.fold(ascii: byte)) << (8 * UInt64(length)) }
            length += 1
            if byte >= 0x80 { isASCII = false }
        }

        /// The key of the word added, whose bytes are `word`; nil when it can be no table's word.
        func key(of word: UnsafeBufferPointer<UInt8>) -> UInt64? {
            guard isASCII else { return Folding.fold(utf8: word).withUnsafeBufferPointer { Spellings.key(ofFolded: $0) } }
            return (1 ... Spellings.longestWord).contains(length) ? bytes | UInt64(length) << 56 : nil
        }
    }

    /// A folded word of 1 to 6 bytes as one integer: its bytes, the first lowest, and its length on
    /// top (so that a zero byte cannot make two words one); nil for any other length.
    private static func key(ofFolded word: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard (1 ... longestWord).contains(word.count) else { return nil }
        var key = UInt64(word.count) << 56
        for (index, byte) in word.enumerated() { key |= UInt64(byte) << (8 * index) }
        return key
    }
}
