import CMMSearchFormat
import Foundation
@testable import MMSearch
import MMSearchTestSupport
import Testing

/// A search that reads its node's entries and finds many matches (a big node's "Name, Qualifier"
/// matches: every San Juan for "san juan "), ranked, chooses its first page without ordering the rest
/// (`SearchResults.Plan.firstPage`) and orders them all only for a later page. Compared, on the README's
/// index, with the same matches ordered whole (`_IndexBytes.ordered`, a sort): the first page, the
/// second, and every position read by iteration, for typing-queries.txt's keystrokes with a separator
/// that take that path.
@Suite struct EntryFirstPageTests {
    @Test func firstPageChosenAloneIsTheOrderedMatchesFirst() async throws {
        let index = try CityIndex(path: try await RealIndexes.shared.path(.joinedRegions))
        let lines = try String(contentsOfFile: RealData.typingQueries, encoding: .utf8).split(separator: "\n")
        var queries = Set<String>()
        for line in lines where line.contains(" ") || line.contains(",") { queries.insert(String(line)) }
        var compared = 0
        for query in queries.sorted() {
            let results = try index.search(query)
            guard case let .firstPage(page, _) = results.plan else { continue }
            compared += 1
            // Every match once, ordered by a sort: what the page and the positions after it must be.
            let folded = Folding.fold(query)
            let ordered = try index.withBytes { (bytes) throws(MMSearchError) -> [_Match] in
                let (located, qualified) = try bytes.lookUp(folded, match: .words)
                var ranked = qualified // no key starts with the query: its "Name, Qualifier" matches alone
                if let located { ranked = try bytes.rankedMatches(located, for: _IndexBytes.ClassKeys(query: folded), match: .words, qualified: qualified) }
                return _IndexBytes.ordered(ranked, order: .rank, population: bytes.population)
            }
            #expect(results.count == ordered.count, "\(query): counted \(results.count), ordered \(ordered.count)")
            #expect(results.count > 2 * Int(MMS_SUMMARY_THRESHOLD), "\(query): \(results.count) matches chosen from alone")
            #expect(page.map(\.record) == ordered.prefix(Int(MMS_TOP_COUNT)).map(\.record), "\(query): the page chosen alone is not the first of the order")
            #expect(page.map(\.entry) == ordered.prefix(Int(MMS_TOP_COUNT)).map(\.entry), "\(query): the page's matched names differ")
            let ids = try index.withBytes { (bytes) throws(MMSearchError) -> [UInt32] in
                var ids: [UInt32] = []
                for match in ordered { ids.append(try bytes.recordID(Int(match.record))) }
                return ids
            }
            #expect(try results.cities(in: 0 ..< 20).map(\.id) == Array(ids.prefix(20)), "\(query): first page")
            #expect(try results.cities(in: 20 ..< 40).map(\.id) == Array(ids[20 ..< 40]), "\(query): second page")
            #expect(results.map(\.id) == ids, "\(query): every position")
        }
        // 8 distinct keystrokes on the README's index ("San Juan ", "Santa Maria ", ...): few, but each of
        // them one of the workload's slowest.
        #expect(compared >= 5, "only \(compared) of typing-queries' keystrokes with a separator choose their first page alone")
    }
}
