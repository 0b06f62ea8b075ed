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
    let plan: Plan

    /// How the results are read.
    enum Plan: Sendable {
        /// All of them, in order: each a record and the entry it was found by.
        case listed([_Match])
        /// Records `range` in name order (names matched, by name, in an index without alternates).
        case recordRange(Range<Int>)
        /// A big node: its first ranked page is `TOP[top]` (when the match and order are the
        /// defaults); other pages are read from `entries`.
        case summarized(_IndexBytes.Located, queryLength: Int, top: Range<Int>?)
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
            guard case let .summarized(located, queryLength, top) = results.plan, position >= top?.count ?? 0 else {
                return results[position]
            }
            if listed == nil {
                let (match, order) = (results.match, results.order)
                listed = (try? results.index.withBytes { (bytes) throws(MMSearchError) in
                    try bytes.evaluate(located, queryLength: queryLength, match: match, order: order)
                }) ?? []
            }
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
        let match = self.match, order = self.order
        return try index.withBytes { (bytes) throws(MMSearchError) in
            var cities: [City] = []
            cities.reserveCapacity(positions.count)
            switch plan {
            case .listed(let matches):
                for position in positions {
                    cities.append(try bytes.city(Int(matches[position].record), matchedBy: matches[position].entry))
                }
            case .recordRange(let records):
                for position in positions { cities.append(try bytes.city(records.lowerBound + position)) }
            case let .summarized(located, queryLength, top):
                if let top, positions.upperBound <= top.count {
                    for position in positions {
                        let entry = try bytes.topEntry(top.lowerBound + position)
                        let owner = try bytes.owner(ofEntry: entry, at: bytes.layout.top + (top.lowerBound + position) * 4)
                        cities.append(try bytes.city(owner.record, matchedBy: entry))
                    }
                } else {
                    let matches = try bytes.evaluate(located, queryLength: queryLength, match: match, order: order)
                    guard matches.count == count else {
                        throw bytes.corrupt(bytes.layout.summaries, "a summary counts \(count) matches, the entries hold \(matches.count)")
                    }
                    for position in positions {
                        cities.append(try bytes.city(Int(matches[position].record), matchedBy: matches[position].entry))
                    }
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

extension _IndexBytes {
    /// Every record matching under `located`, once each, in `order`: the definition of the results,
    /// read entry by entry (O(entries), for small nodes and for pages past a summary's first).
    func evaluate(_ located: Located, queryLength: Int, match: MatchMode, order: ResultOrder) throws(MMSearchError) -> [_Match] {
        let entries = located.entries
        // Only an ALTERNATE match's weight needs its key's length.
        let keyLengths = layout.alternateCount == 0 ? [] : try keyLengths(under: located)
        // One integer per matching entry: record, class (best first), position; sorted, each
        // record's best entry comes first among its own.
        var candidates: [UInt64] = []
        candidates.reserveCapacity(entries.count)
        for position in entries {
            let value = try entry(position)
            let kind = value >> MMS_ENTRY_KIND_SHIFT
            if match == .name && kind == MMS_KIND_WORD.rawValue { continue }
            let owner = try owner(ofEntry: value, at: layout.entries + position * 4)
            var foldedLength = 0
            if kind == MMS_KIND_ALTERNATE.rawValue {
                // The key is fold(name) + tail, and the tail is ", cc" or nothing.
                let tail = try record(owner.record).country == (0, 0) ? 0 : 4
                foldedLength = Int(keyLengths[position - entries.lowerBound]) - tail
            }
            let matchClass = Ranking.matchClass(kind: kind, queryLength: queryLength, foldedLength: foldedLength)
            candidates.append(UInt64(owner.record) << 34 | UInt64(matchClass) << 32 | UInt64(position - entries.lowerBound))
        }
        candidates.sort()
        var best: [(record: UInt32, matchClass: UInt32, entry: UInt32)] = []
        best.reserveCapacity(candidates.count)
        for candidate in candidates {
            let record = UInt32(candidate >> 34)
            if best.last?.record == record { continue }
            let position = entries.lowerBound + Int(candidate & 0xFFFF_FFFF)
            best.append((record, UInt32(candidate >> 32 & 3), try entry(position)))
        }
        if order == .rank {
            return best.map { (rank: Ranking.Rank(population: population(Int($0.record)), bestClass: $0.matchClass, record: $0.record), entry: $0.entry) }
                .sorted { $0.rank < $1.rank }
                .map { _Match(record: $0.rank.record, entry: $0.entry) }
        }
        return best.map { _Match(record: $0.record, entry: $0.entry) } // already by record: name order
    }
}
