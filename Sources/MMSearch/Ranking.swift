import CMMSearchFormat

/// The ranking rules of `include/mmsearch_format.h` ("Matching and ranking"), in one place: the
/// builder uses them for the summaries' first pages, the reader for everything else.
///
/// A matching entry falls in one of seven classes, best first, by (weight descending, kind
/// ascending): 0, a PRIMARY name the query covers whole (weight 1000); 1, an ALTERNATE (or SPELLING)
/// name it covers whole (200); 2, a PRIMARY name (100); 3, an ALTERNATE it covers at least half of
/// (20); 4, a WORD start it covers whole (10); 5, another ALTERNATE (1); 6, another WORD (1). A
/// record's best entry is its entry of least class (the first in entry order on a tie); its weight is
/// that class's, and its kind the least kind among all its matching entries.
package enum Ranking {
    /// The least class (the best); `classCount` classes in all.
    package static let classCount: UInt32 = 7

    /// The class of an entry of `kind` matching a folded query `queryLength` bytes long, where
    /// `nameLength` is the length of its key's name part (the key without its country tail): the query
    /// covers the name whole when queryLength >= nameLength, half of it when 2 * queryLength >= nameLength.
    @inline(__always)
    package static func matchClass(kind: UInt32, queryLength: Int, nameLength: Int) -> UInt32 {
        let whole = queryLength >= nameLength
        switch kind {
        case MMS_KIND_PRIMARY.rawValue: return whole ? 0 : 2
        case MMS_KIND_WORD.rawValue: return whole ? 4 : 6
        default: return whole ? 1 : 2 * queryLength >= nameLength ? 3 : 5 // ALTERNATE, SPELLING
        }
    }

    /// The query lengths at which an entry's class changes (the builder ends edges before them and
    /// `verify` checks it): the name length (whole), and for alternates ceil(nameLength / 2) (half).
    @inline(__always)
    package static func classThresholds(kind: UInt32, nameLength: Int) -> (half: Int?, whole: Int) {
        let isAlternate = kind == MMS_KIND_ALTERNATE.rawValue || kind == MMS_KIND_SPELLING.rawValue
        return (isAlternate ? (nameLength + 1) / 2 : nil, nameLength)
    }

    /// A match's base near a point (`shared/peers/rank.py`, "Geography"): (population + 1) × its
    /// class's weight, which the boost multiplies; one definition for the builder's near lists, the
    /// reader's pages and verify.
    @inline(__always)
    package static func nearBase(population: UInt64, ofClass matchClass: UInt32) -> UInt64 {
        (population + 1) * weight(ofClass: matchClass)
    }

    /// The weight of a class: 1000, 200, 100, 20, 10, 1, 1.
    @inline(__always)
    package static func weight(ofClass matchClass: UInt32) -> UInt64 {
        switch matchClass {
        case 0: return 1000
        case 1: return 200
        case 2: return 100
        case 3: return 20
        case 4: return 10
        default: return 1
        }
    }

    /// The kind (for the tie-break) of a class: 0 for PRIMARY, 1 for ALTERNATE and SPELLING, 2 for WORD.
    @inline(__always)
    package static func kind(ofClass matchClass: UInt32) -> UInt32 {
        switch matchClass {
        case 0, 2: return 0
        case 4, 6: return 2
        default: return 1
        }
    }

    /// A TOP rank: the number of a record's best class and least kind at a summarized node (the least
    /// kind at most the best class's), in (kind, class) order ("A TOP rank" in the format header).
    @inline(__always)
    package static func topRank(bestClass: UInt32, kind: UInt32) -> UInt8 {
        precondition(bestClass < classCount && kind <= Ranking.kind(ofClass: bestClass), "class \(bestClass) with least kind \(kind)")
        switch kind {
        case 0: return UInt8(bestClass)                                  // classes 0-6: 0-6
        case 1: return UInt8(7 + (bestClass == 1 ? 0 : bestClass - 2))  // classes 1, 3, 4, 5, 6: 7-11
        default: return UInt8(12 + (bestClass - 4) / 2)                  // classes 4, 6: 12, 13
        }
    }

    /// The best class and least kind a TOP rank numbers, or nil for MMS_TOP_RANK_COUNT and above
    /// (no pair; arithmetic, not a table, so that no global is initialised on the way).
    @inline(__always)
    package static func topRank(_ value: UInt8) -> (matchClass: UInt32, kind: UInt32)? {
        let code = UInt32(value)
        if code < 7 { return (code, 0) }
        if code < 12 { return (code == 7 ? 1 : code - 5, 1) }
        if code < MMS_TOP_RANK_COUNT { return (4 + 2 * (code - 12), 2) }
        return nil
    }

    /// A record's place in ranked order: its score (population times its best entry's weight), its
    /// kind (the least among its matching entries) and its index (name order).
    package struct Rank: Comparable {
        package var score: UInt64
        package var kind: UInt32
        package var record: UInt32

        package init(population: UInt64, bestClass: UInt32, kind: UInt32, record: UInt32) {
            score = population * Ranking.weight(ofClass: bestClass)
            self.kind = kind
            self.record = record
        }

        /// Ranked order: score descending, kind ascending, record index ascending.
        package static func < (a: Rank, b: Rank) -> Bool {
            if a.score != b.score { return a.score > b.score }
            if a.kind != b.kind { return a.kind < b.kind }
            return a.record < b.record
        }
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
