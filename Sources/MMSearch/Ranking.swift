import CMMSearchFormat

/// The ranking rules of `include/mmsearch_format.h` ("Matching and ranking"), in one place: the
/// builder uses them for the summaries' first pages, the reader for everything else.
///
/// A matching entry falls in one of four classes, best first: 0, a PRIMARY name (weight 100); 1, an
/// ALTERNATE name the query covers at least half of (weight 20); 2, another ALTERNATE (weight 1);
/// 3, a WORD start (weight 1). Ordered by class, entries are ordered by (weight descending, kind
/// ascending): a record's best entry is its entry of least class, the first in entry order on a tie.
package enum Ranking {
    /// The class of an entry of `kind` matching a folded query `queryLength` bytes long, where
    /// `foldedLength` is the length of fold(name) (used for ALTERNATE only): 2 * queryLength >=
    /// foldedLength makes it class 1.
    @inline(__always)
    package static func matchClass(kind: UInt32, queryLength: Int, foldedLength: Int) -> UInt32 {
        switch kind {
        case MMS_KIND_PRIMARY.rawValue: return 0
        case MMS_KIND_ALTERNATE.rawValue: return 2 * queryLength >= foldedLength ? 1 : 2
        default: return 3
        }
    }

    /// The shortest folded query under which an ALTERNATE name of fold length `foldedLength` weighs
    /// 20 (class 1): ceil(foldedLength / 2), what `matchClass` tests. The builder ends edges there and
    /// `verify` checks it.
    @inline(__always)
    package static func coveringQueryLength(ofFoldedLength foldedLength: Int) -> Int { (foldedLength + 1) / 2 }

    /// The weight of a class: 100, 20, 1, 1.
    @inline(__always)
    package static func weight(ofClass matchClass: UInt32) -> UInt64 {
        switch matchClass {
        case 0: return 100
        case 1: return 20
        default: return 1
        }
    }

    /// The kind of key a class is of: PRIMARY, ALTERNATE, ALTERNATE, WORD.
    @inline(__always)
    package static func kind(ofClass matchClass: UInt32) -> UInt32 {
        switch matchClass {
        case 0: return MMS_KIND_PRIMARY.rawValue
        case 1, 2: return MMS_KIND_ALTERNATE.rawValue
        default: return MMS_KIND_WORD.rawValue
        }
    }

    /// A record's place in ranked order: its score (population times its best entry's weight), its
    /// kind (its best entry's) and its index (name order).
    package struct Rank: Comparable {
        package var score: UInt64
        package var kind: UInt32
        package var record: UInt32

        package init(population: UInt64, bestClass: UInt32, record: UInt32) {
            score = population * Ranking.weight(ofClass: bestClass)
            kind = Ranking.kind(ofClass: bestClass)
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
