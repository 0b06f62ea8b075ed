import CMMSearchFormat
import MMSearch

/// The SUMMARIES, TOP (entries and their ranks) and COUNTRY_PAGES sections: for every node with more than
/// MMS_SUMMARY_THRESHOLD entries, the exact number of distinct records among its entries (all, and
/// names only), the records whose primary key starts with its prefix, and its first ranked page for a
/// query as long as its prefix, with what ranks each record on it; and the same count and page for
/// each country with more than MMS_COUNTRY_PAGE_THRESHOLD of those records (their pages in TOP after
/// the summaries'), each page at its node's width ("TOP pages").
struct SummaryBuilder {
    private(set) var summaries: [mms_summary] = []
    private(set) var countryPages: [mms_country_page] = []
    private(set) var nearLists: [mms_near_list] = []
    /// TOP's pages, bit by bit; each page's top_first is the bit it starts at.
    private(set) var top = BitWriter()

    /// A page as TOP holds it: each entry's value (its position among the node's entries, or its name
    /// number) and rank, at `width` bits of value.
    private struct Page {
        var values: [UInt32] = []
        var ranks: [UInt8] = []
        var width = 0
    }

    /// `countries[r]`: record r's country code as COUNTRY_RUNS holds it (`CountryKey.of`), 0 for none;
    /// `nameBits` the width of a name number (ENTRIES' less its word bit).
    init(trie: TrieBuilder, keys: SearchKeys, primaryOrder: PrimaryOrder, populations: [UInt32], countries: [UInt16], recordCount: Int, nameBits: Int) {
        let threshold = Int(MMS_SUMMARY_THRESHOLD), pageLength = Int(MMS_TOP_COUNT), countryThreshold = Int(MMS_COUNTRY_PAGE_THRESHOLD)
        // Per record, stamped with the node being summarized so that nothing is cleared in between.
        var seen = [UInt32](repeating: 0, count: recordCount)
        var seenByName = [UInt32](repeating: 0, count: recordCount)
        var bestClass = [UInt32](repeating: 0, count: recordCount)
        var bestEntry = [UInt32](repeating: 0, count: recordCount)
        // Where each record's best entry is among the node's entries.
        var bestPosition = [UInt32](repeating: 0, count: recordCount)
        var leastKind = [UInt32](repeating: 0, count: recordCount)
        var touched: [UInt32] = []
        // Each summary's, country page's and near list's page, laid out in TOP in that order at the end.
        var summaryTop: [Page] = [], countryTop: [Page] = [], nearTop: [Page] = []
        var countryCounts = [Int](repeating: 0, count: 1 << 16)
        for node in 0 ..< trie.depths.count {
            let entries = trie.entryFirsts[node] ..< trie.entryEnds[node]
            guard entries.count > threshold else { continue }
            let stamp = UInt32(node + 1) // 0 is "never"; nodes number below UInt32.max - 1
            let queryLength = trie.depths[node]
            touched.removeAll(keepingCapacity: true)
            var nameRecords = 0
            for index in entries {
                let record = Int(keys.records[index]), kind = keys.kind(index), value = keys.values[index]
                let matchClass = Ranking.matchClass(kind: kind, queryLength: queryLength, nameLength: Int(keys.nameLengths[index]))
                if seen[record] != stamp {
                    seen[record] = stamp
                    touched.append(UInt32(record))
                    bestClass[record] = matchClass; bestEntry[record] = value; leastKind[record] = Ranking.kind(ofClass: matchClass)
                    bestPosition[record] = UInt32(index - entries.lowerBound)
                } else {
                    if matchClass < bestClass[record] { // on a tie the first in entry order stays
                        bestClass[record] = matchClass; bestEntry[record] = value
                        bestPosition[record] = UInt32(index - entries.lowerBound)
                    }
                    leastKind[record] = min(leastKind[record], Ranking.kind(ofClass: matchClass))
                }
                if kind != MMS_KIND_WORD.rawValue, kind != MMS_KIND_SPELLING.rawValue, seenByName[record] != stamp {
                    seenByName[record] = stamp
                    nameRecords += 1
                }
            }
            // The first page of `records`: the best `pageLength`, kept sorted in a small buffer.
            func firstPage(_ records: [UInt32], country: UInt16?) -> [Ranking.Rank] {
                var page: [Ranking.Rank] = []
                page.reserveCapacity(pageLength + 1)
                for record in records where country == nil || countries[Int(record)] == country {
                    let candidate = Ranking.Rank(population: UInt64(populations.isEmpty ? 0 : populations[Int(record)]),
                                                 bestClass: bestClass[Int(record)], kind: leastKind[Int(record)], record: record)
                    if page.count == pageLength, !(candidate < page[pageLength - 1]) { continue }
                    var slot = page.count
                    while slot > 0, candidate < page[slot - 1] { slot -= 1 }
                    page.insert(candidate, at: slot)
                    if page.count > pageLength { page.removeLast() }
                }
                return page
            }
            // `records` as TOP stores them at this node ("TOP pages").
            func stored(_ records: [UInt32], nearList: Bool = false) -> Page {
                let positions = PackedArrays.topHoldsPositions(entryCount: entries.count, nameBits: nameBits, nearList: nearList)
                return Page(values: records.map { positions ? bestPosition[Int($0)] : bestEntry[Int($0)] & MMS_ENTRY_NAME_MASK },
                            ranks: records.map { Ranking.topRank(bestClass: bestClass[Int($0)], kind: leastKind[Int($0)]) },
                            width: PackedArrays.topValueWidth(entryCount: entries.count, nameBits: nameBits, nearList: nearList))
            }
            let page = firstPage(touched, country: nil)
            // The countries with more than `countryThreshold` of these records, in code order.
            if touched.count > countryThreshold {
                var codes: [UInt16] = []
                for record in touched where countries[Int(record)] != 0 {
                    let code = Int(countries[Int(record)])
                    if countryCounts[code] == 0 { codes.append(UInt16(code)) }
                    countryCounts[code] += 1
                }
                for code in codes.sorted() {
                    let count = countryCounts[Int(code)]
                    countryCounts[Int(code)] = 0
                    guard count > countryThreshold else { continue }
                    let countryPage = firstPage(touched, country: code)
                    countryPages.append(mms_country_page(node: UInt32(node), code: CountryKey.bytes(code), reserved: (0, 0),
                                                         record_count: UInt32(count), top_first: 0))
                    countryTop.append(stored(countryPage.map(\.record)))
                }
            }
            // The records whose primary key starts with the node's prefix (the first key's first bytes).
            let primary = keys.pool.withUnsafeBytes { pool in
                primaryOrder.pool.withUnsafeBytes { primaryKeys in
                    prefixRange(count: recordCount, prefix: UnsafeRawBufferPointer(rebasing: pool[keys.keyStarts[entries.lowerBound] ..< keys.keyStarts[entries.lowerBound] + queryLength])) {
                        UnsafeRawBufferPointer(rebasing: primaryKeys[primaryOrder.key(at: $0)])
                    }
                }
            }
            summaries.append(mms_summary(
                node: UInt32(node),
                record_count: UInt32(touched.count),
                name_record_count: UInt32(nameRecords),
                primary_first: UInt32(primary.lowerBound),
                primary_count: UInt32(primary.count),
                top_first: 0
            ))
            summaryTop.append(stored(page.map(\.record)))
            // Near a point ("Near a point"): the records not matched by a primary name's prefix in the
            // primary range (a record without a display name, whose first other name stands in as its
            // primary name, is numbered by its empty name: outside it), by base.
            if touched.count > Int(MMS_NEAR_LIST_THRESHOLD) {
                func base(_ record: UInt32) -> UInt64 {
                    Ranking.nearBase(population: UInt64(populations.isEmpty ? 0 : populations[Int(record)]), ofClass: bestClass[Int(record)])
                }
                // A search scores the stored page first, so the page's last score is never below the least
                // of its bases: a match whose base x 1001 is below that never reaches a page.
                let least = Double(page.map { base($0.record) }.min() ?? 0)
                let others = touched.filter { (bestClass[Int($0)] != 2 || !primary.contains(Int($0))) && Double(base($0)) * 1001 >= least }
                if others.count <= Int(MMS_NEAR_LIST_MAX) {
                    let listed = others.map { (base: base($0), record: $0) }.sorted { $0.base != $1.base ? $0.base > $1.base : $0.record < $1.record }
                    nearLists.append(mms_near_list(node: UInt32(node), top_first: 0, count: UInt32(listed.count), reserved: 0))
                    nearTop.append(stored(listed.map(\.record), nearList: true))
                }
            }
        }
        // The pages back to back, each entry its value then its rank; a page equal to one placed before
        // it is not placed again, but read where that one is ("TOP pages": a big node's first page is
        // often its biggest child's).
        struct Bits: Hashable { var bytes: [UInt8], count: Int }
        var placed: [Bits: UInt32] = [:]
        func place(_ page: Page) -> UInt32 {
            var bits = BitWriter()
            for (value, rank) in zip(page.values, page.ranks) {
                bits.append(UInt64(value), width: page.width)
                bits.append(UInt64(rank), width: Int(MMS_TOP_RANK_BITS))
            }
            let key = Bits(bytes: bits.finished, count: bits.count)
            if let first = placed[key] { return first }
            let first = UInt32(truncatingIfNeeded: top.count) // IndexBuilder refuses TOP past 2^32 bits
            top.append(bits)
            placed[key] = first
            return first
        }
        for index in summaries.indices { summaries[index].top_first = place(summaryTop[index]) }
        for index in countryPages.indices { countryPages[index].top_first = place(countryTop[index]) }
        for index in nearLists.indices { nearLists[index].top_first = place(nearTop[index]) }
    }
}
