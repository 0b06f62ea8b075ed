import CMMSearchFormat

/// Which keys a query is matched against.
///
/// ```swift
/// try index.search("york", match: .words)   // New York too: "york" starts a word of its name
/// try index.search("york", match: .name)    // only names that start with "york"
/// ```
public enum MatchMode: String, Sendable, CaseIterable {
    /// Any name of a city (its own, or an alternate such as "München"), or any word start inside one
    /// ("york" finds New York). The default.
    case words
    /// The start of any name of a city, primary or alternate; not words inside names.
    case name
}

/// The order of the results.
///
/// ```swift
/// try index.search("san", order: .rank)   // the biggest cities first
/// try index.search("san", order: .name)   // alphabetical, by folded name and country
/// ```
public enum ResultOrder: String, Sendable, CaseIterable {
    /// Population times the weight of the best matching name (a primary name outweighs an
    /// alternate, which outweighs a word inside a name), then primary names before alternates before
    /// words, then name order. The default. Without populations (an index of the list alone) this is
    /// the cities matched by their name in alphabetical order, then those matched by another name or a
    /// word.
    case rank
    /// Alphabetical: by folded name and country, then name, then id (`shared/peers/fold.py`'s order).
    case name
    /// Nearest first: by distance from the search's `Proximity` point, then id. Needs a point.
    case distance
}

/// Whether a query that matches nothing as typed may match names within a typo or two of it.
///
/// ```swift
/// try index.search("albuqerque").typos               // 1: Albuquerque
/// try index.search("albuqerque", typos: .off).count  // 0
/// ```
public enum Typos: String, Sendable, CaseIterable {
    /// When nothing matches and the folded query has at least 4 characters (Unicode scalars), the
    /// cities with a name (or a word of one, with `MatchMode.words`) that starts within one typo of it
    /// match: one character inserted, deleted or replaced, or two neighbours swapped, never the first;
    /// when none does and it has at least 8, within two. The default.
    case on
    /// Only what matches as typed.
    case off
}

/// The cities that match one search, in the order asked for. `count` is exact and O(1); the first
/// ranked page of a common prefix is stored in the index, other pages are read from the matching
/// entries when asked for, and each `City` is decoded from the file only when read.
///
/// ```swift
/// let results = try index.search("Al")
/// results.count            // total matches
/// results[0].name          // the first in order
/// ```
///
/// Reading a result checks it against the file. The subscript, which cannot throw, returns a city with
/// an empty name and country for a record the file has damaged; `city(at:)` and `cities(in:)` throw
/// instead, for callers that must tell the difference (the `mmsearch` command does).
/// `CityIndex.verify()` finds such damage before any search.
public struct SearchResults: RandomAccessCollection, Sendable {
    /// The index searched.
    public let index: CityIndex
    /// How the query was matched, and the order of the results.
    public let match: MatchMode
    public let order: ResultOrder
    /// The number of matches: distinct cities, each counted once however many of its names match.
    public let count: Int
    /// How many typos were allowed to find them: 0 when the query matched as typed; 1 or 2 when it
    /// matched nothing as typed and `Typos.on` let names within that many typos match (see `Typos`).
    public let typos: Int
    /// The point the search ranked near (`Proximity`), if any: every city read then has its
    /// `distanceKm` from it.
    public let near: Proximity?
    let plan: Plan

    /// How the results are read.
    enum Plan: Sendable {
        /// All of them, in order: each a record and the entry it was found by.
        case listed([_Match])
        /// Records `range` in name order (names matched, by name, in an index without alternates).
        case recordRange(Range<Int>)
        /// A big node: its first ranked page is TOP's `top` (when the match and order are the
        /// defaults) merged with `qualified`; other pages are read from `entries`, with `qualified`.
        /// `qualified` holds the "Name, Qualifier" matches that are not key matches, or rank better
        /// than their record's key matches.
        case summarized(_IndexBytes.Located, query: [UInt8], top: _IndexBytes.TopPage?, qualified: [_Ranked])
        /// A search with a filter or a point, or with many matches read entry by entry, in ranked order:
        /// its first page, chosen without ordering every match; the others are read (every match
        /// ordered) when a later position is asked for.
        /// (Indirect, as `nearest`: their payloads are the biggest, and a plain keystroke, which copies
        /// the plan with its results, should not pay for them.)
        indirect case firstPage([_Match], Rest)
        /// Every city that passes `filter` (nil: all), nearest `point` first: the empty query in distance
        /// order, read from the spatial index (each page the nearest up to its end).
        indirect case nearest(GeoPoint, filter: _IndexBytes.ResolvedFilter?)
    }

    /// What a search with a filter or a point needs to order every match again: the folded query,
    /// its match mode, filter and point (the matches as typed: the typo fallback is never paged so).
    struct Rest: Sendable {
        var query: [UInt8]
        var match: MatchMode
        var filter: GeoFilter
        var near: Proximity?

        /// Every match in order.
        func all(_ bytes: _IndexBytes) throws(MMSearchError) -> [_Match] {
            try bytes.geoOrdered(try bytes.allMatches(query, match: match, filter: filter.isFiltering ? bytes.resolve(filter) : nil), filter: nil, order: .rank, near: near)
        }
    }

    /// How many of the first matches a summary's stored page answers (0 when none does).
    var firstPageLength: Int {
        guard case .summarized(_, _, top: .some, _) = plan else { return 0 }
        return Swift.min(count, Int(MMS_TOP_COUNT))
    }

    /// Always 0: positions count from the first match.
    public var startIndex: Int { 0 }
    /// The number of matches.
    public var endIndex: Int { count }

    /// Iterating reads the matches past a stored first page once, not once a city: `for`, `map` and
    /// `Array(results)` cost O(entries) in all, where reading position by position past the first
    /// page costs that for every position.
    public func makeIterator() -> Iterator { Iterator(results: self) }

    /// The matches in order, decoded one by one; a record the file has damaged reads as an empty city.
    public struct Iterator: IteratorProtocol {
        private let results: SearchResults
        private var position = 0
        /// Every match in order, read once, when the iteration passes a stored first page.
        private var listed: [_Match]?

        init(results: SearchResults) { self.results = results }

        public mutating func next() -> City? {
            guard position < results.count else { return nil }
            defer { position += 1 }
            if case let .firstPage(page, rest) = results.plan, position >= page.count {
                if listed == nil { listed = (try? results.index.withBytes { (bytes) throws(MMSearchError) in try rest.all(bytes) }) ?? [] }
                return city(listed)
            }
            guard case let .summarized(located, query, _, qualified) = results.plan, position >= results.firstPageLength else {
                return results[position]
            }
            if listed == nil {
                let (match, order) = (results.match, results.order)
                listed = (try? results.index.withBytes { (bytes) throws(MMSearchError) in
                    try bytes.evaluate(located, for: _IndexBytes.ClassKeys(query: query), match: match, order: order, qualified: qualified)
                }) ?? []
            }
            return city(listed)
        }

        /// The city at the current position of `listed`, or the damaged city.
        private func city(_ listed: [_Match]?) -> City {
            let position = self.position
            guard let listed, position < listed.count,
                  let city = try? results.index.withBytes({ (bytes) throws(MMSearchError) in
                      try bytes.city(Int(listed[position].record), matchedBy: listed[position].entry)
                  }) else { return SearchResults.damaged }
            return city
        }
    }

    /// What a record the file has damaged reads as where no error can be thrown.
    static let damaged = City(id: 0, name: "", country: "", coordinate: Coordinate(latitudeE7: 0, longitudeE7: 0))

    /// Match `position`, decoded from the file; a record the file has damaged reads as an empty city
    /// (use `city(at:)` to get the error instead).
    ///
    /// ```swift
    /// let first = try index.search("lond")[0]
    /// ```
    public subscript(position: Int) -> City {
        precondition(position >= 0 && position < count, "SearchResults index out of range")
        return (try? city(at: position)) ?? Self.damaged
    }

    /// Match `position` (0-based within these results), or the error that stops it being read.
    ///
    /// ```swift
    /// let results = try index.search("lond")
    /// print(try results.city(at: 0).name)
    /// ```
    public func city(at position: Int) throws(MMSearchError) -> City {
        precondition(position >= 0 && position < count, "SearchResults index out of range")
        return try cities(in: position ..< position + 1)[0]
    }

    /// Matches `positions` (0-based within these results), decoded in one pass over the mapped file:
    /// the way to read a page. The first ranked page of a big result is stored in the index; a later
    /// page of one (or any page in another order or match mode) reads all its matching entries.
    ///
    /// ```swift
    /// let results = try index.search("lond")
    /// let secondPage = try results.cities(in: 20 ..< min(40, results.count))
    /// ```
    public func cities(in positions: Range<Int>) throws(MMSearchError) -> [City] {
        precondition(positions.lowerBound >= 0 && positions.upperBound <= count, "SearchResults range out of range")
        let match = self.match, order = self.order, near = self.near
        return try index.withBytes { (bytes) throws(MMSearchError) in
            /// The cities of `matches` at `positions`, read together.
            func read(_ matches: [_Match]) throws(MMSearchError) -> [City] {
                try bytes.cities(count: positions.count) { (Int(matches[positions.lowerBound + $0].record), matches[positions.lowerBound + $0].entry) }
            }
            var cities: [City]
            switch plan {
            case .listed(let matches):
                cities = try read(matches)
            case .recordRange(let records):
                cities = try bytes.cities(count: positions.count) { (records.lowerBound + positions.lowerBound + $0, nil) }
            case let .firstPage(page, rest):
                let matches = positions.upperBound <= page.count ? page : try rest.all(bytes)
                guard positions.upperBound <= page.count || matches.count == count else {
                    throw bytes.corrupt(bytes.layout.entries.start, "a search counted \(count) matches, ordering them found \(matches.count)")
                }
                cities = try read(matches)
            case let .nearest(point, filter):
                // With the walk's distances: the loop below leaves them as they are.
                cities = try bytes.nearestCities(to: point, in: positions, filter: filter, expected: count)
            case let .summarized(located, query, top, qualified):
                if let top, positions.upperBound <= firstPageLength, qualified.isEmpty {
                    // The stored page as it is: read in place, its keys in ENTRIES asked for first.
                    bytes.prefetchKeys(of: top, positions)
                    cities = try bytes.cities(count: positions.count) { (offset) throws(MMSearchError) in
                        let match = try bytes.topMatch(top, positions.lowerBound + offset)
                        return (Int(match.record), match.entry)
                    }
                } else if let top, positions.upperBound <= firstPageLength {
                    cities = try read(try bytes.firstPage(top: top, length: firstPageLength, qualified: qualified))
                } else {
                    let matches = try bytes.evaluate(located, for: _IndexBytes.ClassKeys(query: query), match: match, order: order, qualified: qualified)
                    guard matches.count == count else {
                        throw bytes.corrupt(bytes.layout.summaries.start, "a summary counts \(count) matches, the entries hold \(matches.count)")
                    }
                    cities = try read(matches)
                }
            }
            if let near {
                for position in cities.indices where cities[position].distanceKm == nil {
                    cities[position].distanceKm = near.point.distanceKm(to: GeoPoint(cities[position].coordinate))
                }
            }
            return cities
        }
    }
}

extension mms_summary {
    /// The records whose primary key starts with the node's prefix.
    var primaryRecords: Range<Int> { Int(primary_first) ..< Int(primary_first) + Int(primary_count) }
}

/// One matching record and the entry (its best matching key) it was found by.
struct _Match: Sendable {
    var record: UInt32
    var entry: UInt32
}

/// One matching record, the class of its best match and the least kind among its matches (see
/// `Ranking`), and the entry it was found by.
struct _Ranked: Sendable {
    var record: UInt32
    var matchClass: UInt32
    var kind: UInt32
    var entry: UInt32
}

extension _IndexBytes {
    /// Every record matching under `located`, once each, with
    /// the "Name, Qualifier" matches `qualified` (sorted by record) added, in `order`: the definition
    /// of the results, read entry by entry (O(entries), for small nodes, typos and pages past a
    /// summary's first).
    func evaluate(_ located: Located, for classKeys: ClassKeys, match: MatchMode, order: ResultOrder, qualified: [_Ranked] = []) throws(MMSearchError) -> [_Match] {
        Self.ordered(try rankedMatches(located, for: classKeys, match: match, qualified: qualified), order: order, population: population)
    }

    /// Every record matching under `located` with the "Name, Qualifier" matches `qualified` (sorted by
    /// record) added: once each, with its best match, sorted by record. `classKeys`: the query's (its
    /// length, and whether it holds no ','; `commaFree` false is always right, and reads more of the node).
    func rankedMatches(_ located: Located, for classKeys: ClassKeys, match: MatchMode, qualified: [_Ranked] = []) throws(MMSearchError) -> [_Ranked] {
        let total = located.entries.count
        /// Every candidate under `located` (at most one an entry), handed to `add`.
        func forEachCandidate(_ add: (UInt64) -> Void) throws(MMSearchError) {
            try withKeyLengths(under: located, for: classKeys) { (keyLengths) throws(MMSearchError) in
                for position in located.entries {
                    if let candidate = try candidate(position, keyLength: Int(keyLengths[position - located.entries.lowerBound]), queryLength: classKeys.queryLength, match: match) {
                        add(candidate)
                    }
                }
            }
        }
        // A few (a small node's: most keystrokes that read entries) in a buffer on the stack, sorted as
        // `sortByRecordAndClass` sorts so few; more in an array.
        guard total * MemoryLayout<UInt64>.stride > Self.stackBufferBytes else {
            return try withUnsafeTemporaryAllocation(of: UInt64.self, capacity: total) { (buffer) throws(MMSearchError) -> [_Ranked] in
                var count = 0
                try forEachCandidate { (buffer.baseAddress! + count).initialize(to: $0); count += 1 }
                var candidates = UnsafeMutableBufferPointer(rebasing: buffer[..<count])
                candidates.sort()
                return try best(ofSorted: UnsafeBufferPointer(candidates), qualified: qualified)
            }
        }
        var candidates: [UInt64] = []
        candidates.reserveCapacity(total)
        try forEachCandidate { candidates.append($0) }
        return try best(of: &candidates, qualified: qualified)
    }

    /// The same for entries given one by one, each with its key's length (the typo fallback's).
    func rankedMatches(_ entries: [(position: Int, keyLength: Int)], queryLength: Int, match: MatchMode) throws(MMSearchError) -> [_Ranked] {
        var candidates: [UInt64] = []
        candidates.reserveCapacity(entries.count)
        for (position, keyLength) in entries {
            if let candidate = try candidate(position, keyLength: keyLength, queryLength: queryLength, match: match) { candidates.append(candidate) }
        }
        return try best(of: &candidates, qualified: [])
    }

    /// A matching entry as one integer: its record, class and position, so that sorted, each record's
    /// best entry comes first among its own (records number below 2^29, checked at open); nil for an
    /// entry the match mode leaves out.
    @inline(__always)
    func candidate(_ position: Int, keyLength: Int, queryLength: Int, match: MatchMode) throws(MMSearchError) -> UInt64? {
        let value = try entry(position)
        let kind = value >> MMS_ENTRY_KIND_SHIFT
        // The owner first: it checks the name a SPELLING entry skipped below names (a spelling).
        if match == .name && kind == MMS_KIND_WORD.rawValue { return nil }
        let owner = try owner(ofEntry: value, at: layout.entries.byteOffset(position))
        if match == .name && kind == MMS_KIND_SPELLING.rawValue { return nil }
        // The key is the name part and the tail, ", cc" or nothing (a key too long to matter is left
        // as it is, its record unread).
        let nameLength = keyLength == Int(Int32.max) ? keyLength : try self.nameLength(ofKey: keyLength, record: owner.record)
        let matchClass = Ranking.matchClass(kind: kind, queryLength: queryLength, nameLength: nameLength)
        return UInt64(owner.record) << 35 | UInt64(matchClass) << 32 | UInt64(position)
    }

    /// Sorted candidates as one match per record (its best entry, the least kind of all its entries),
    /// with `qualified` merged in.
    func best(of candidates: inout [UInt64], qualified: [_Ranked]) throws(MMSearchError) -> [_Ranked] {
        Self.sortByRecordAndClass(&candidates, recordCount: layout.recordCount)
        return try candidates.withUnsafeBufferPointer { (candidates) throws(MMSearchError) in try best(ofSorted: candidates, qualified: qualified) }
    }

    /// The same for candidates already sorted.
    func best(ofSorted candidates: UnsafeBufferPointer<UInt64>, qualified: [_Ranked]) throws(MMSearchError) -> [_Ranked] {
        var best: [_Ranked] = []
        best.reserveCapacity(candidates.count + qualified.count)
        for candidate in candidates {
            let record = UInt32(candidate >> 35), matchClass = UInt32(candidate >> 32 & 7)
            if best.last?.record == record {
                best[best.count - 1].kind = Swift.min(best[best.count - 1].kind, Ranking.kind(ofClass: matchClass))
                continue
            }
            best.append(_Ranked(record: record, matchClass: matchClass, kind: Ranking.kind(ofClass: matchClass), entry: try entry(Int(candidate & 0xFFFF_FFFF))))
        }
        if !qualified.isEmpty { best = Self.merged(best, qualified) }
        return best
    }

    /// Sorts candidates as `sort()` would: by record and class (the high 32 bits), then position (the
    /// low 32). Many (a short prefix's tens of thousands) by a stable radix sort, 11 bits a pass, of
    /// the bits that positions and record numbers below `recordCount` use; the positions' passes are
    /// skipped when the candidates come in increasing position order (one node's entries), as a
    /// stable sort keeps them. A comparison sort took a fifth of a keystroke near a point on "s"
    /// (38,216 records, 105,356 entries).
    static func sortByRecordAndClass(_ candidates: inout [UInt64], recordCount: Int) {
        guard candidates.count > comparisonSortLimit else { return candidates.sort() }
        func width(_ value: UInt64) -> Int { UInt64.bitWidth - value.leadingZeroBitCount }
        var positionsInOrder = true, greatestPosition: UInt64 = 0
        for index in candidates.indices {
            let position = candidates[index] & 0xFFFF_FFFF
            if index > 0, position <= candidates[index - 1] & 0xFFFF_FFFF { positionsInOrder = false }
            greatestPosition = Swift.max(greatestPosition, position)
        }
        let digitBits = 11, digits = 1 << digitBits
        let recordBits = width(UInt64(Swift.max(recordCount, 1))) + 3
        var passes: [Int] = []
        if !positionsInOrder { passes += Swift.stride(from: 0, to: width(greatestPosition), by: digitBits) }
        passes += Swift.stride(from: 32, to: 32 + recordBits, by: digitBits)
        var scratch = [UInt64](repeating: 0, count: candidates.count)
        var counts = [Int](repeating: 0, count: digits)
        for shift in passes {
            // A digit never spans the position and record halves: 11-bit digits from 0 stop at 32.
            let mask = shift < 32 ? (UInt64(1) << UInt64(Swift.min(digitBits, 32 - shift))) - 1 : UInt64(digits - 1)
            counts.withUnsafeMutableBufferPointer { counts in
                for index in counts.indices { counts[index] = 0 }
                for candidate in candidates { counts[Int(candidate >> UInt64(shift) & mask)] += 1 }
                var total = 0
                for digit in 0 ..< digits { (counts[digit], total) = (total, total + counts[digit]) }
                scratch.withUnsafeMutableBufferPointer { scratch in
                    for candidate in candidates {
                        let digit = Int(candidate >> UInt64(shift) & mask)
                        scratch[counts[digit]] = candidate
                        counts[digit] += 1
                    }
                }
            }
            swap(&candidates, &scratch)
        }
    }

    /// Up to this many candidates are sorted by comparison, more by `sortByRecordAndClass`'s radix sort.
    static let comparisonSortLimit = 256

    /// Key matches and "Name, Qualifier" matches, each sorted by record, as one list sorted by record:
    /// a record in both keeps the better class, its key match on a tie.
    static func merged(_ keyMatches: [_Ranked], _ qualified: [_Ranked]) -> [_Ranked] {
        var merged: [_Ranked] = []
        merged.reserveCapacity(keyMatches.count + qualified.count)
        var next = 0
        for match in keyMatches {
            while next < qualified.count, qualified[next].record < match.record {
                merged.append(qualified[next])
                next += 1
            }
            if next < qualified.count, qualified[next].record == match.record {
                var better = qualified[next].matchClass < match.matchClass ? qualified[next] : match
                better.kind = Swift.min(qualified[next].kind, match.kind)
                merged.append(better)
                next += 1
            } else {
                merged.append(match)
            }
        }
        merged.append(contentsOf: qualified[next...])
        return merged
    }

    /// `matches` (sorted by record, one each) in `order`: ranked, or as they are (name order).
    static func ordered(_ matches: [_Ranked], order: ResultOrder, population: (Int) -> UInt64) -> [_Match] {
        if order == .rank {
            func rank(_ match: _Ranked) -> Ranking.Rank {
                Ranking.Rank(population: population(Int(match.record)), bestClass: match.matchClass, kind: match.kind, record: match.record)
            }
            // A few (a small node's, at most MMS_SUMMARY_THRESHOLD: most keystrokes that read entries)
            // by insertion in a buffer on the stack, which the library's sort also does at this size but
            // behind its general machinery (about 1,200 instructions more for 21 matches, callgrind) and
            // in arrays. Ranks are distinct (the record breaks ties), so the order is the same.
            typealias Item = (rank: Ranking.Rank, entry: UInt32)
            if matches.count * MemoryLayout<Item>.stride <= _IndexBytes.stackBufferBytes {
                return withUnsafeTemporaryAllocation(of: Item.self, capacity: matches.count) { items in
                    for (position, match) in matches.enumerated() {
                        var at = position
                        let item = (rank: rank(match), entry: match.entry)
                        (items.baseAddress! + position).initialize(to: item)
                        while at > 0, item.rank < items[at - 1].rank {
                            items[at] = items[at - 1]
                            at -= 1
                        }
                        items[at] = item
                    }
                    return items.map { _Match(record: $0.rank.record, entry: $0.entry) }
                }
            }
            return matches.map { (rank: rank($0), entry: $0.entry) }
                .sorted { $0.rank < $1.rank }
                .map { _Match(record: $0.rank.record, entry: $0.entry) }
        }
        return matches.map { _Match(record: $0.record, entry: $0.entry) }
    }

    /// The first `length` ranked matches under a summarized node whose stored page is `top`,
    /// with the "Name, Qualifier" matches `qualified` merged in: a record off the stored page ranks
    /// below its last, and a qualifier match only adds or raises a record, so the page is among the
    /// stored one and `qualified`. The stored records rank by their TOP ranks: no name of theirs is read.
    func firstPage(top: TopPage, length: Int, qualified: [_Ranked]) throws(MMSearchError) -> [_Match] {
        var stored: [_Ranked] = []
        stored.reserveCapacity(top.count)
        // The stored records with their classes and kinds, to rank them among the qualifier matches.
        for index in 0 ..< top.count { stored.append(try topRanked(top, index)) }
        stored.sort { $0.record < $1.record }
        return Array(Self.ordered(Self.merged(stored, qualified), order: .rank, population: population).prefix(length))
    }
}

extension _IndexBytes {
    /// The node the folded `query` reaches (nil when no key starts with it) and its "Name, Qualifier"
    /// matches: one walk down the trie, which keeps the place after each byte where those may match.
    func lookUp(_ query: [UInt8], match: MatchMode) throws(MMSearchError) -> (located: Located?, qualified: [_Ranked]) {
        let qualifying = match == .words && layout.isQualified && query.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: " ") }
        var trail: [WalkPoint]?
        if qualifying {
            trail = [rootPoint]
            trail!.reserveCapacity(query.count + 1)
        }
        let reached = try query.withRawBytes { (bytes) throws(MMSearchError) in try walk(bytes, from: rootPoint, trail: &trail) }
        let qualified = qualifying ? try qualifiedMatches(query, trail: trail ?? []) : []
        return (try reached.map(located), qualified)
    }

    /// Every match of the folded `query` as typed, once per record with its best match, sorted by
    /// record: what filters and ranking near a point start from. With `filter`, only those that pass
    /// it; when it admits only some countries, only their entries under the node are read (their
    /// positions from COUNTRY_RUNS), and the subtree walk for key lengths goes only where they are.
    /// `lookedUp`: `lookUp`'s answer for the query, when the caller has it already.
    func allMatches(_ query: [UInt8], match: MatchMode, filter: ResolvedFilter? = nil,
                    lookedUp: (located: Located?, qualified: [_Ranked])? = nil) throws(MMSearchError) -> [_Ranked] {
        let (reached, qualified) = if let lookedUp { lookedUp } else { try lookUp(query, match: match) }
        guard let located = reached else { return try passing(qualified, filter: filter) }
        guard let filter, let runs = try countryRuns(filter) else {
            return try passing(try rankedMatches(located, for: ClassKeys(query: query), match: match, qualified: qualified), filter: filter)
        }
        let positions = try positions(of: runs, in: located.entries)
        let lengths = try keyLengths(of: positions, under: located, for: ClassKeys(query: query))
        var candidates: [UInt64] = []
        candidates.reserveCapacity(positions.count)
        for (at, position) in positions.enumerated() {
            if let candidate = try candidate(position, keyLength: Int(lengths[at]), queryLength: query.count, match: match),
               try passes(Int(candidate >> 35), filter) {
                candidates.append(candidate)
            }
        }
        return try best(of: &candidates, qualified: passing(qualified, filter: filter))
    }

    /// How to read the results of the folded `query` as typed, and their count: one walk down the
    /// trie, then the node's summary or its entries, and the "Name, Qualifier" matches added.
    func plan(_ query: [UInt8], match: MatchMode, order: ResultOrder) throws(MMSearchError) -> (count: Int, plan: SearchResults.Plan) {
        let (reached, qualified) = try lookUp(query, match: match)
        guard let located = reached else {
            let matches = Self.ordered(qualified, order: order, population: population)
            return (matches.count, .listed(matches))
        }
        let isSummarized = located.entries.count > Int(MMS_SUMMARY_THRESHOLD)
        if match == .name, order == .name, layout.givenAlternateCount == 0 {
            // Only primary names can match: the records whose primary key starts with the prefix,
            // contiguous in name order (version 1's answer, as cheap).
            let records = isSummarized ? try summary(ofNode: located.node).primaryRecords : try primaryRecords(in: located.entries)
            return (records.count, .recordRange(records))
        }
        guard isSummarized, Self.readsQualifiersAlone(located, qualified) else {
            let ranked = try rankedMatches(located, for: ClassKeys(query: query), match: match, qualified: qualified)
            // Many, ranked (a big node's "Name, Qualifier" matches: every Santa Maria for "santa maria "):
            // the first page chosen without ordering the rest, as a search with a filter does; a later
            // page orders them all.
            if order == .rank, ranked.count > 2 * Int(MMS_SUMMARY_THRESHOLD) {
                let page = try firstRanked(ranked, near: nil, length: Int(MMS_TOP_COUNT))
                return (ranked.count, .firstPage(page, SearchResults.Rest(query: query, match: match, filter: .none, near: nil)))
            }
            let matches = Self.ordered(ranked, order: order, population: population)
            return (matches.count, .listed(matches))
        }
        let summary = try summary(ofNode: located.node)
        let stored = Int(match == .words ? summary.record_count : summary.name_record_count)
        guard stored <= located.entries.count else { // every record counted has an entry here
            throw corrupt(layout.summaries.start, "the summary of node \(located.node) counts \(stored) records under \(located.entries.count) entries")
        }
        let (added, raising) = try qualifierChanges(qualified, query: query, match: match)
        let top = match == .words && order == .rank
            ? try topPage(from: Int(summary.top_first), count: min(stored, Int(MMS_TOP_COUNT)), nodeEntries: located.entries, at: layout.summaries.start) : nil
        return (stored + added, .summarized(located, query: query, top: top, qualified: raising))
    }

    /// Whether a summarized node's "Name, Qualifier" matches are best looked at one by one, name by
    /// name (`qualifierChanges`), beside its summary; when there are many ("san luis ": every San Luis),
    /// reading the node's entries once costs less. One record's names cost about as much as 32
    /// entries (median search time of a keystroke, 256 against 32: "villa " 108 -> 8 µs, "lake " 50 ->
    /// 13, "la " 65 -> 31, "san luis " 21 -> 22; MMSEARCH_BENCH_TIMES, 2026-11-26).
    static func readsQualifiersAlone(_ located: Located, _ qualified: [_Ranked]) -> Bool {
        let entriesPerQualifier = 32
        return located.entries.count / entriesPerQualifier >= qualified.count
    }

    /// What the "Name, Qualifier" matches `qualified` change at a summarized node, whose summary counts
    /// and ranks its key matches: the records they add (matched by no key), and the matches that rank
    /// a record better than its keys (a better class), each as its record's best match: the qualifier's
    /// class and entry, the least kind of both (`merged`'s).
    func qualifierChanges(_ qualified: [_Ranked], query: [UInt8], match: MatchMode) throws(MMSearchError) -> (added: Int, raising: [_Ranked]) {
        var added = 0
        var raising: [_Ranked] = []
        for candidate in qualified {
            let key = try bestKeyClass(ofRecord: Int(candidate.record), query: query, match: match)
            if key == nil { added += 1 }
            // A class's kind is at most its record's least kind at the same class: a better kind alone
            // never raises a record, and a raised record keeps the least kind of both.
            if candidate.matchClass < key?.matchClass ?? Ranking.classCount {
                var raised = candidate
                raised.kind = Swift.min(candidate.kind, key?.kind ?? candidate.kind)
                raising.append(raised)
            }
        }
        return (added, raising)
    }
}
