import CMMSearchFormat

/// The spellings a name brings (`shared/peers/rank.py`, "Rules of version 4"; mms_spelling_form): with
/// P the name without its periods and S = P with its hyphens as spaces, in order P, S, short(P),
/// short(S), long(P), long(S), where short() writes saint, sainte, sankt, santa, mount, fort, port and
/// point short and long() writes st, ste, sta, mt and ft out. Words are runs of bytes between
/// separators, compared folded. The builder keeps the spellings a record's names bring; a reader
/// writes a stored one out from its name and form (SPELLINGS), by the same code.
package enum Spellings {
    static let short = table(["saint": "St", "sainte": "Ste", "sankt": "St", "santa": "Sta", "mount": "Mt", "fort": "Ft", "port": "Pt", "point": "Pt"])
    static let long = table(["st": "Saint", "ste": "Sainte", "sta": "Santa", "mt": "Mount", "ft": "Fort"])

    private static func table(_ words: [String: String]) -> [[UInt8]: [UInt8]] {
        Dictionary(uniqueKeysWithValues: words.map { (Array($0.key.utf8), Array($0.value.utf8)) })
    }

    private static let dot = UInt8(ascii: "."), hyphen = UInt8(ascii: "-"), space = UInt8(ascii: " ")

    /// rank.py's six generated names of `name` (UTF-8), in its order (form i at i); none when every one
    /// would be `name` itself (no period, no hyphen, no word either table knows), as is so for most names.
    package static func generated(from name: [UInt8]) -> [[UInt8]] {
        guard name.contains(where: { $0 == dot || $0 == hyphen }) || hasTableWord(name) else { return [] }
        let periodless = name.filter { $0 != dot }
        return (0 ..< MMS_SPELLING_FORM_COUNT.rawValue).map { form($0, ofPeriodless: periodless) }
    }

    /// Form `form` (below MMS_SPELLING_FORM_COUNT) of `name`.
    package static func form(_ form: UInt32, of name: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        self.form(form, ofPeriodless: name.filter { $0 != dot })
    }

    /// Form `form` of a name without its periods (P).
    private static func form(_ form: UInt32, ofPeriodless periodless: [UInt8]) -> [UInt8] {
        var text = periodless
        if form & 1 == 1 { text = text.map { $0 == hyphen ? space : $0 } } // the spaced forms are odd
        switch form >> 1 {
        case 1: return words(text, short)
        case 2: return words(text, long)
        default: return text
        }
    }

    /// `text` with every word whose fold is a key of `table` replaced by its value. Separators are
    /// ASCII, so words are found on the bytes.
    static func words(_ text: [UInt8], _ table: [[UInt8]: [UInt8]]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.count + 8)
        forEachWord(text) { word, separator in
            if let replacement = table[fold(word)] { out += replacement } else { out += word }
            if let separator { out.append(separator) }
        }
        return out
    }

    private static func hasTableWord(_ text: [UInt8]) -> Bool {
        var found = false
        forEachWord(text) { word, _ in
            if !found, !word.isEmpty { let folded = fold(word); found = short[folded] != nil || long[folded] != nil }
        }
        return found
    }

    /// Each maximal run of non-separators (possibly empty), with the separator that ends it (nil at the end).
    private static func forEachWord(_ text: [UInt8], _ body: (ArraySlice<UInt8>, UInt8?) -> Void) {
        var start = 0
        for index in text.indices where WordStarts.isSeparator(text[index]) {
            body(text[start ..< index], text[index])
            start = index + 1
        }
        body(text[start...], nil)
    }

    /// fold(word): lowercase for ASCII (what folding does to it), `Folding` otherwise; the table keys
    /// are at most 6 ASCII letters, so a longer ASCII word is no key.
    private static func fold(_ word: ArraySlice<UInt8>) -> [UInt8] {
        if word.allSatisfy({ $0 < 0x80 }) {
            return word.count > 6 ? [] : word.map { $0 &- UInt8(ascii: "A") < 26 ? $0 | 0x20 : $0 }
        }
        return Folding.fold(utf8: word)
    }
}
