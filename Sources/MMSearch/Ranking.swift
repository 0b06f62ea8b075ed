import CMMSearchFormat

/// The ranking rules of `include/mmsearch_format.h` ("Matching and ranking"), in one place: the
/// builder uses them for the summaries' first pages, the reader for everything else.
package enum Ranking {
    /// A matching entry's weight: PRIMARY 100, WORD 1, ALTERNATE 20 when the folded query covers at
    /// least half of the folded name (`2 * queryLength >= foldedLength`, in bytes), else 1.
    @inline(__always)
    package static func weight(kind: UInt32, queryLength: Int, foldedLength: Int) -> UInt64 {
        switch kind {
        case MMS_KIND_PRIMARY.rawValue: return 100
        case MMS_KIND_ALTERNATE.rawValue: return 2 * queryLength >= foldedLength ? 20 : 1
        default: return 1
        }
    }

    /// Whether a record with (score, kind, index) `a` ranks before one with `b`: score descending,
    /// kind ascending, record index (name order) ascending.
    @inline(__always)
    package static func ranksBefore(_ a: (score: UInt64, kind: UInt32, record: UInt32), _ b: (score: UInt64, kind: UInt32, record: UInt32)) -> Bool {
        if a.score != b.score { return a.score > b.score }
        if a.kind != b.kind { return a.kind < b.kind }
        return a.record < b.record
    }

    /// Whether entry `a` (weight, kind) is a better match for its record than `b`, an entry met
    /// earlier in entry order: greater weight, then lesser kind; on a tie the earlier one stays.
    @inline(__always)
    package static func isBetterMatch(weight a: UInt64, kind aKind: UInt32, than b: UInt64, kind bKind: UInt32) -> Bool {
        a > b || (a == b && aKind < bKind)
    }
}

/// Word starts, as `include/mmsearch_format.h` ("Names and keys") defines them: the builder makes a
/// WORD key at each, and `verify` checks WORD keys against them.
package enum WordStarts {
    /// The separators: ' ' '-' '/' '(' ')' '.' ',' '\'' '"' (all ASCII).
    @inline(__always)
    package static func isSeparator(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "/"), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: "'"), UInt8(ascii: "\""):
            return true
        default:
            return false
        }
    }

    /// The word starts of a folded name: positions p > 0 where a separator is followed by a byte that
    /// is not one. Separators are ASCII, so p always starts a character.
    package static func of(_ folded: [UInt8]) -> [Int] {
        var starts: [Int] = []
        var index = 1
        while index < folded.count {
            if !isSeparator(folded[index]), isSeparator(folded[index - 1]) { starts.append(index) }
            index += 1
        }
        return starts
    }
}
