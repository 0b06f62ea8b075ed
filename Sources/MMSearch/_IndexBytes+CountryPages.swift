import CMMSearchFormat

/// Country pages (`include/mmsearch_format.h`, "Country pages"): a search restricted to one country,
/// ranked, at a big node where that country has many records, reads their count and first page there
/// instead of the country's entries under the node.
extension _IndexBytes {
    /// COUNTRY_PAGES[index]: its node, code, count and the bit of TOP its first page starts at, checked:
    /// the count above MMS_COUNTRY_PAGE_THRESHOLD (the page inside TOP where it is read, `topPage`).
    func countryPage(_ index: Int) throws(MMSearchError) -> (node: Int, code: UInt16, recordCount: Int, topFirst: Int) {
        guard index >= 0, index < layout.countryPageCount else {
            throw corrupt(layout.countryPages, "country page \(index) does not exist (\(layout.countryPageCount) pages)")
        }
        let offset = layout.countryPages + index * _IndexLayout.countryPageSize
        let page = raw.loadUnaligned(fromByteOffset: offset, as: mms_country_page.self)
        guard page.record_count > MMS_COUNTRY_PAGE_THRESHOLD else {
            throw corrupt(offset, "country page \(index) counts \(page.record_count) records, \(MMS_COUNTRY_PAGE_THRESHOLD) or fewer; a page is for more")
        }
        return (Int(page.node), CountryKey.packed(page.code), Int(page.record_count), Int(page.top_first))
    }

    /// The page of country `code` at `node`, whose entries are `entries`, by binary search over
    /// COUNTRY_PAGES' (node, code) order; nil when there is none.
    func countryPage(ofNode node: Int, code: UInt16, entries: Range<Int>) throws(MMSearchError) -> (recordCount: Int, top: TopPage)? {
        var low = 0, high = layout.countryPageCount
        while low < high {
            let middle = low + (high - low) / 2
            let page = try countryPage(middle)
            if (page.node, page.code) < (node, code) { low = middle + 1 } else { high = middle }
        }
        guard low < layout.countryPageCount else { return nil }
        let page = try countryPage(low)
        guard page.node == node, page.code == code else { return nil }
        return (page.recordCount, try topPage(from: page.topFirst, count: Int(MMS_TOP_COUNT), nodeEntries: entries,
                                              at: layout.countryPages + low * _IndexLayout.countryPageSize))
    }

    /// The count and first ranked page of the folded `query` ("words") restricted by `filter` to one
    /// country and nothing else, read from the country's page at the node the query reaches (`lookedUp`,
    /// `lookUp`'s answer); nil when that does not answer it: another filter, no page there, or a
    /// "Name, Qualifier" match in the country (those are read with the rest).
    func countryPagePlan(_ query: [UInt8], lookedUp: (located: Located?, qualified: [_Ranked]), filter: ResolvedFilter) throws(MMSearchError) -> (count: Int, plan: SearchResults.Plan)? {
        guard layout.countryPageCount > 0, let codes = filter.countryCodes, let code = codes.first, codes.allSatisfy({ $0 == code }),
              !filter.passesWithoutCountry, !filter.passesWithoutISO3, filter.filter.minimumPopulation == nil,
              filter.filter.boundingBox == nil, filter.filter.within == nil,
              let located = lookedUp.located, located.entries.count > Int(MMS_SUMMARY_THRESHOLD),
              try passing(lookedUp.qualified, filter: filter).isEmpty,
              let page = try countryPage(ofNode: located.node, code: code, entries: located.entries) else { return nil }
        guard page.recordCount <= located.entries.count else { // every record counted has an entry here
            throw corrupt(layout.countryPages, "the country page of node \(located.node) counts \(page.recordCount) records under \(located.entries.count) entries")
        }
        var matches: [_Match] = []
        matches.reserveCapacity(page.top.count)
        for index in 0 ..< page.top.count { matches.append(try topMatch(page.top, index)) }
        return (page.recordCount, .firstPage(matches, SearchResults.Rest(query: query, match: .words, filter: filter.filter, near: nil)))
    }
}
