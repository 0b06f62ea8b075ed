import CMMSearchFormat
import MMSearch

/// The SUMMARIES, TOP and TOP_RANKS sections: for every node with more than MMS_SUMMARY_THRESHOLD
/// entries, the exact number of distinct records among its entries (all, and names only), the records
/// whose primary key starts with its prefix, and its first ranked page for a query as long as its
/// prefix, with what ranks each record on it.
struct SummaryBuilder {
    private(set) var summaries: [mms_summary] = []
    private(set) var top: [UInt32] = []
    private(set) var topRanks: [UInt8] = []

    init(trie: TrieBuilder, keys: SearchKeys, primaryOrder: PrimaryOrder, populations: [UInt32], recordCount: Int) {
        let threshold = Int(MMS_SUMMARY_THRESHOLD), pageLength = Int(MMS_TOP_COUNT)
        // Per record, stamped with the node being summarized so that nothing is cleared in between.
        var seen = [UInt32](repeating: 0, count: recordCount)
        var seenByName = [UInt32](repeating: 0, count: recordCount)
        var bestClass = [UInt32](repeating: 0, count: recordCount)
        var bestEntry = [UInt32](repeating: 0, count: recordCount)
        var leastKind = [UInt32](repeating: 0, count: recordCount)
        var touched: [UInt32] = []
        for node in 0 ..< trie.depths.count {
            let entries = Int(trie.nodes[node].entry_first) ..< trie.entryEnds[node]
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
                } else {
                    if matchClass < bestClass[record] { // on a tie the first in entry order stays
                        bestClass[record] = matchClass; bestEntry[record] = value
                    }
                    leastKind[record] = min(leastKind[record], Ranking.kind(ofClass: matchClass))
                }
                if kind != MMS_KIND_WORD.rawValue, kind != MMS_KIND_SPELLING.rawValue, seenByName[record] != stamp {
                    seenByName[record] = stamp
                    nameRecords += 1
                }
            }
            // The first page: the best `pageLength` records, kept sorted in a small buffer.
            var page: [Ranking.Rank] = []
            page.reserveCapacity(pageLength + 1)
            for record in touched {
                let candidate = Ranking.Rank(population: UInt64(populations.isEmpty ? 0 : populations[Int(record)]),
                                             bestClass: bestClass[Int(record)], kind: leastKind[Int(record)], record: record)
                if page.count == pageLength, !(candidate < page[pageLength - 1]) { continue }
                var slot = page.count
                while slot > 0, candidate < page[slot - 1] { slot -= 1 }
                page.insert(candidate, at: slot)
                if page.count > pageLength { page.removeLast() }
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
                top_first: UInt32(top.count)
            ))
            top.append(contentsOf: page.map { bestEntry[Int($0.record)] })
            topRanks.append(contentsOf: page.map { Ranking.topRank(bestClass: bestClass[Int($0.record)], kind: leastKind[Int($0.record)]) })
        }
    }
}
