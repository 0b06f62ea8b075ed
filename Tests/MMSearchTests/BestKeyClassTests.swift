import CMMSearchFormat
import Foundation
@testable import MMSearch
import MMSearchTestSupport
import Testing

/// A summarized node's "Name, Qualifier" matches learn their records' best key class by folding each
/// record's names (`bestKeyClass(ofRecord:query:match:)`), not by reading the node's entries. Compared,
/// on the README's index, with what the entries say: for a record, the least class and kind among the
/// entries under the query's node that it owns (their key lengths from the trie), nil when it owns none.
/// Queries: typing-queries.txt's folded prefixes that end at or after a separator ("san juan ", "la v",
/// "paris, t"); records: those owning entries under the query's node and those under the query less its
/// last byte, which a qualifier match's record ("San Juan" for "san juan ") usually is.
@Suite struct BestKeyClassTests {
    @Test(arguments: [MatchMode.words, .name])
    func namesFoldedGiveTheClassesTheEntriesGive(_ match: MatchMode) async throws {
        let index = try CityIndex(path: try await RealIndexes.shared.path(.joinedRegions))
        let lines = try String(contentsOfFile: RealData.typingQueries, encoding: .utf8).split(separator: "\n")
        var queries = Set<[UInt8]>()
        for line in lines where line.contains(where: { $0 == " " || $0 == "," }) {
            let folded = Folding.fold(String(line))
            guard let separator = folded.firstIndex(where: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: ",") }), separator > 0 else { continue }
            for length in separator + 1 ... min(folded.count, separator + 3) { queries.insert(Array(folded.prefix(length))) }
            if queries.count >= FullTests.count(quick: 300, full: 3_000) { break }
        }
        var compared = 0, withKeys = 0, withoutKeys = 0
        try index.withBytes { (bytes: _IndexBytes) throws(MMSearchError) in
            /// The best (class, kind) of every record owning an entry under `query`'s node.
            func classes(_ query: [UInt8]) throws(MMSearchError) -> [Int: (matchClass: UInt32, kind: UInt32)] {
                guard let located = try query.withRawBytes({ (raw) throws(MMSearchError) in try bytes.locate(raw) }),
                      located.entries.count <= 20_000 else { return [:] }
                let lengths = try bytes.keyLengths(under: located)
                var best: [Int: (matchClass: UInt32, kind: UInt32)] = [:]
                for offset in lengths.indices {
                    let position = located.entries.lowerBound + offset
                    let value = try bytes.entry(position)
                    let kind = value >> MMS_ENTRY_KIND_SHIFT
                    if match == .name, kind == MMS_KIND_WORD.rawValue || kind == MMS_KIND_SPELLING.rawValue { continue }
                    let record = try bytes.owner(ofEntry: value, at: 0).record
                    let matchClass = Ranking.matchClass(kind: kind, queryLength: query.count,
                                                        nameLength: try bytes.nameLength(ofKey: Int(lengths[offset]), record: record))
                    let known = best[record]
                    best[record] = (min(known?.matchClass ?? .max, matchClass), min(known?.kind ?? .max, Ranking.kind(ofClass: matchClass)))
                }
                return best
            }
            for query in queries.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                let truth = try classes(query)
                let records = Set(truth.keys.sorted().prefix(40)).union(try classes(Array(query.dropLast())).keys.sorted().prefix(40))
                for record in records.sorted() {
                    let found = try bytes.bestKeyClass(ofRecord: record, query: query, match: match)
                    let expected = truth[record]
                    compared += 1
                    if expected == nil { withoutKeys += 1 } else { withKeys += 1 }
                    #expect(found?.matchClass == expected?.matchClass && found?.kind == expected?.kind,
                            "\(String(decoding: query, as: UTF8.self)) (\(match)): record \(record) has best key \(String(describing: expected)) under the node, its names folded give \(String(describing: found))")
                }
            }
        }
        // Both answers must be common, or this compares little of what a search asks.
        let least = FullTests.count(quick: 500, full: 5_000)
        #expect(withKeys > least && withoutKeys > least, "\(compared) records compared: \(withKeys) with keys under the node, \(withoutKeys) without")
    }
}
