import CMMSearchFold

/// The search-key folding: what names and queries are compared as, so that "sao" finds "São Paulo".
///
/// Every Unicode scalar folds on its own (accents dropped, case folded, compatibility forms
/// decomposed, a few letters such as "ł" and "æ" spelled out), so `fold(a + b) == fold(a) + fold(b)`.
/// The normative definition is `shared/peers/fold.py`; `tools/gen_fold_table.py` turns it into the
/// table in `CMMSearchFold`, and this is the only code that reads that table.
///
/// ```swift
/// Folding.fold("São Paulo")                  // Array("sao paulo".utf8)
/// Folding.key(name: "Łódź", country: "PL")   // Array("lodz, pl".utf8)
/// ```
public enum Folding {
    // The generic entry points are @inlinable so that callers in other modules get them specialized
    // for String and Substring; unspecialized, their generic overhead costs more than the folding.

    /// The fold of `text`, as UTF-8 bytes.
    ///
    /// ```swift
    /// Folding.fold("Straße")   // Array("strasse".utf8)
    /// ```
    @inlinable
    public static func fold(_ text: some StringProtocol) -> [UInt8] {
        var output: [UInt8] = []
        append(folding: text, to: &output)
        return output
    }

    /// The fold of an ASCII byte: A-Z lower-cased, every other byte as it is (fold.py changes only
    /// A-Z in ASCII; the tests check all 128). For callers that fold ASCII text byte by byte.
    @inline(__always)
    package static func fold(ascii byte: UInt8) -> UInt8 { byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte }

    /// The key tail of a record whose country code is `code` (two digits or ASCII letters, as RECORDS
    /// holds it): ", " and the code folded; nil for none ((0, 0)). What readers compare and make, and
    /// what the builder leaves out of a label (format 25).
    @inline(__always)
    package static func countryTail(code: (UInt8, UInt8)) -> (UInt8, UInt8, UInt8, UInt8)? {
        code == (0, 0) ? nil : (UInt8(ascii: ","), UInt8(ascii: " "), fold(ascii: code.0), fold(ascii: code.1))
    }

    /// The fold of the UTF-8 text in `bytes` (invalid UTF-8 read as `append(foldingUTF8:to:)` reads it).
    package static func fold(utf8 bytes: some Collection<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        let folded: Void? = bytes.withContiguousStorageIfAvailable { append(foldingUTF8: $0, to: &output) }
        if folded == nil { Array(bytes).withUnsafeBufferPointer { append(foldingUTF8: $0, to: &output) } }
        return output
    }

    /// Appends the fold of `text` to `output`, as UTF-8 bytes.
    ///
    /// ```swift
    /// var key: [UInt8] = []
    /// Folding.append(folding: "İstanbul", to: &key)   // key == Array("istanbul".utf8)
    /// ```
    @inlinable
    public static func append(folding text: some StringProtocol, to output: inout [UInt8]) {
        let folded: Void? = text.utf8.withContiguousStorageIfAvailable { utf8 in
            append(foldingUTF8: utf8, to: &output)
        }
        if folded == nil {
            // Only strings not stored as UTF-8 (bridged ones) get here; copying makes them native.
            var copy = String(text)
            copy.withUTF8 { append(foldingUTF8: $0, to: &output) }
        }
    }

    /// Appends the fold of the UTF-8 text in `bytes` to `output`. Invalid UTF-8 is read as
    /// `String(decoding:as:)` reads it, each maximal invalid subsequence as one U+FFFD, so the result
    /// is always that of `fold(String(decoding: bytes, as: UTF8.self))`, without making the string.
    ///
    /// ```swift
    /// var key: [UInt8] = []
    /// let name: [UInt8] = Array("Ærø".utf8) + [0xFF]
    /// name.withUnsafeBufferPointer { Folding.append(foldingUTF8: $0, to: &key) }
    /// // key == Array("aero\u{FFFD}".utf8)
    /// ```
    public static func append(foldingUTF8 bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        var index = 0
        // Room for the rest of the input as it is: most folds are no longer. A fold that outgrows it
        // ends the pass, and the next pass makes room for at least that scalar's fold.
        var extraCapacity = 0
        while index < bytes.count {
            output.append(addingCapacity: bytes.count - index + extraCapacity) { span in
                while index < bytes.count {
                    let byte = bytes[index]
                    if byte < 0x80 {
                        guard !span.isFull else { return }
                        span.append(fold(ascii: byte)) // no lookup in the table for ASCII
                        index += 1
                        continue
                    }
                    let (scalar, length) = decodeNonASCII(bytes, at: index)
                    let folded = lookUpFold(of: scalar)
                        ?? (scalar == replacementCharacter
                            ? replacementCharacterUTF8 // the input may have been invalid: not its bytes
                            : UnsafeBufferPointer(rebasing: bytes[index ..< index + length]))
                    guard folded.count <= span.freeCapacity else {
                        extraCapacity = folded.count
                        return
                    }
                    for foldedByte in folded {
                        span.append(foldedByte)
                    }
                    index += length
                }
            }
        }
    }

    /// Whether the fold of the UTF-8 text in `bytes` (read as `append(foldingUTF8:to:)` reads it)
    /// surely holds no ASCII byte but word separators, so that no key made from it starts with an
    /// ASCII letter or digit: its ASCII bytes are all separators (which fold to themselves) and each
    /// other scalar lies in a page of 256 none of which folds to ASCII (`mms_fold_is_ascii_free`:
    /// Cyrillic, Arabic, CJK...). Read without folding or the table's search; false is always safe.
    package static func foldHasNoASCIIWord(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                guard WordStarts.isSeparator(byte) else { return false }
                index += 1
                continue
            }
            let (scalar, length) = decodeNonASCII(bytes, at: index)
            guard mms_fold_is_ascii_free(scalar) != 0 else { return false }
            index += length
        }
        return true
    }

    /// The search key of a record: `fold(name) + ", " + fold(country)`, or `fold(name)` when the
    /// country is empty (the list's continents have none).
    ///
    /// ```swift
    /// Folding.key(name: "Hurzuf", country: "UA")   // Array("hurzuf, ua".utf8)
    /// Folding.key(name: "Europe", country: "")     // Array("europe".utf8)
    /// ```
    @inlinable
    public static func key(name: some StringProtocol, country: some StringProtocol) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(name.utf8.count + 2 + country.utf8.count)
        append(folding: name, to: &output)
        if !country.isEmpty {
            output.append(UInt8(ascii: ","))
            output.append(UInt8(ascii: " "))
            append(folding: country, to: &output)
        }
        return output
    }

    /// The version of the Unicode data the folding table was generated from, for example "14.0.0".
    ///
    /// ```swift
    /// print("folding: Unicode \(Folding.unicodeVersion)")
    /// ```
    public static var unicodeVersion: String {
        String(cString: mms_fold_unicode_version())
    }

    private static let replacementCharacter: UInt32 = 0xFFFD
    private static var replacementCharacterUTF8: UnsafeBufferPointer<UInt8> {
        let encoded: StaticString = "\u{FFFD}"
        return UnsafeBufferPointer(start: encoded.utf8Start, count: encoded.utf8CodeUnitCount)
    }

    /// The table's fold of `scalar` (static bytes, possibly none), or nil when it folds to itself.
    @inline(__always)
    private static func lookUpFold(of scalar: UInt32) -> UnsafeBufferPointer<UInt8>? {
        var bytes: UnsafePointer<UInt8>? = nil
        var length = 0
        guard mms_fold_lookup(scalar, &bytes, &length) != 0 else { return nil }
        return UnsafeBufferPointer(start: bytes, count: length)
    }

    /// Decodes the scalar starting with the non-ASCII byte at `start`. Invalid input gives U+FFFD and
    /// the length of the maximal subpart (Unicode 3.9, "U+FFFD Substitution of Maximal Subparts"),
    /// the policy of `String(decoding:as:)`: a bad lead byte alone, or a truncated sequence up to the
    /// first byte that cannot continue it.
    @inline(__always)
    package static func decodeNonASCII(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> (scalar: UInt32, length: Int) {
        let lead = bytes[start]
        var continuations: Int
        var scalar: UInt32
        // The second byte's range is narrower after some leads, to exclude overlong forms,
        // surrogates and scalars past U+10FFFF (Unicode table 3-7).
        var lowest: UInt8 = 0x80
        var highest: UInt8 = 0xBF
        switch lead {
        case 0xC2 ... 0xDF: continuations = 1; scalar = UInt32(lead & 0x1F)
        case 0xE0: continuations = 2; scalar = 0; lowest = 0xA0
        case 0xE1 ... 0xEC, 0xEE ... 0xEF: continuations = 2; scalar = UInt32(lead & 0x0F)
        case 0xED: continuations = 2; scalar = 0xD; highest = 0x9F
        case 0xF0: continuations = 3; scalar = 0; lowest = 0x90
        case 0xF1 ... 0xF3: continuations = 3; scalar = UInt32(lead & 0x07)
        case 0xF4: continuations = 3; scalar = 4; highest = 0x8F
        default: return (replacementCharacter, 1)
        }
        var length = 1
        while continuations > 0 {
            guard start + length < bytes.count else { return (replacementCharacter, length) }
            let byte = bytes[start + length]
            guard byte >= lowest && byte <= highest else { return (replacementCharacter, length) }
            scalar = scalar << 6 | UInt32(byte & 0x3F)
            length += 1
            continuations -= 1
            lowest = 0x80
            highest = 0xBF
        }
        return (scalar, length)
    }
}
