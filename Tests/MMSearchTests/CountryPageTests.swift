import CMMSearchFormat
import Foundation
@testable import MMSearch
import MMSearchTestSupport
import Testing

/// A search restricted to one country, ranked, at a big node where that country has more than
/// MMS_COUNTRY_PAGE_THRESHOLD records reads their count and first page from COUNTRY_PAGES: compared,
/// on the README's index, with the naive scan (every match read, filtered, ordered): the count, the
/// first page's cities and the names they matched by, and the page after it (read past the stored
/// one), for the first one to three bytes of typing-queries.txt's lines and some longer prefixes, in
/// the countries with the most records, spelled as a filter may spell them.
@Suite struct CountryPageTests {
    @Test func countryPagesAnswerAsTheNaiveScan() async throws {
        let index = try CityIndex(path: try await RealIndexes.shared.path(.joinedRegions))
        let lines = try String(contentsOfFile: RealData.typingQueries, encoding: .utf8).split(separator: "\n")
        var prefixes: Set<String> = ["", "san", "sant", "new", "bad", "saint-", "nueva ", "st"]
        for line in lines.prefix(FullTests.count(quick: 300, full: 3_000)) {
            for length in 1 ... FullTests.count(quick: 2, full: 3) where length <= line.count { prefixes.insert(String(line.prefix(length))) }
        }
        let filters = [["US"], ["de"], ["FR"], ["IN"], ["BRA"], ["MX"], ["IT", "it"], ["PH"], ["RU"], ["ES"]].map { GeoFilter(countries: $0) }
        var compared = 0, paged = 0
        for prefix in prefixes.sorted() {
            for filter in filters {
                let fast = try index.search(prefix, filter: filter)
                let naive = try index.searchScanningEveryMatch(prefix, filter: filter)
                let what = "\"\(prefix)\" in \(filter.countries)"
                #expect(fast.count == naive.count && fast.typos == naive.typos, "\(what): count \(fast.count), naive \(naive.count)")
                guard fast.count == naive.count else { continue }
                let first = 0 ..< min(20, naive.count), second = min(20, naive.count) ..< min(40, naive.count)
                let fastFirst = try fast.cities(in: first), naiveFirst = try naive.cities(in: first)
                #expect(fastFirst.map(\.id) == naiveFirst.map(\.id), "\(what): first page")
                #expect(fastFirst.map(\.matchedName) == naiveFirst.map(\.matchedName), "\(what): the names the first page matched by")
                #expect(try fast.cities(in: second).map(\.id) == naive.cities(in: second).map(\.id), "\(what): second page")
                compared += 1
                if try hasCountryPage(index, prefix, filter) { paged += 1 }
            }
        }
        // The pages must have answered a good share, or this compares nothing they do.
        #expect(paged >= FullTests.count(quick: 100, full: 400) && paged < compared, "\(paged) of \(compared) searches answered from a country page")
    }

    /// Whether the node `prefix` reaches has a country page for the filter's one country.
    func hasCountryPage(_ index: CityIndex, _ prefix: String, _ filter: GeoFilter) throws -> Bool {
        try index.withBytes { (bytes: _IndexBytes) throws(MMSearchError) in
            let resolved = bytes.resolve(filter)
            guard let codes = resolved.countryCodes, Set(codes).count == 1,
                  let located = try bytes.lookUp(Folding.fold(prefix), match: .words).located,
                  located.entries.count > Int(MMS_SUMMARY_THRESHOLD) else { return false }
            return try bytes.countryPage(ofNode: located.node, code: codes[0], entries: located.entries) != nil
        }
    }
}
