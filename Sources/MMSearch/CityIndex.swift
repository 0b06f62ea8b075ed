import CMMSearchFormat
#if canImport(FoundationEssentials) && !MMSEARCH_USE_FOUNDATION
import FoundationEssentials // Linux: Foundation without ICU
#else
import Foundation // Apple platforms have no FoundationEssentials; CI compiles this branch on Linux too
#endif

/// A city index file, mapped into memory and searched in place: opening reads only the header, a
/// search is one walk down the trie to a range of search keys (every name of every city, and every
/// word start in them), and records are decoded only when asked for.
///
/// ```swift
/// let index = try CityIndex(path: "cities.mms")
/// let matches = try index.search("sao pa")
/// print(matches.count)                 // every match, counted in O(1)
/// for city in matches.prefix(20) { print(city.name, city.country) }   // biggest first
/// ```
///
/// An index is immutable and `Sendable`: share one between threads and query it from all of them.
/// Everything read from the file is checked before use, so a damaged file makes a call throw
/// `MMSearchError.invalidIndex`; it never crashes or reads outside the file. `verify()` checks the
/// whole file (checksum and structure) up front, for callers that want to know before they search.
public struct CityIndex: Sendable {
    /// The path the index was opened from, as given ("<memory>" for `init(bytes:)` by default).
    ///
    /// ```swift
    /// try CityIndex(path: "cities.mms").path   // "cities.mms"
    /// ```
    public var path: String { storage.path }
    /// The mapped bytes, their layout and the path, shared by every copy of the index: a copy (a
    /// `SearchResults` holds one) is one reference, not the layout's 952 bytes.
    let storage: _IndexStorage
    /// The layout read at open, borrowed from `storage` (not copied out at each use).
    var layout: _IndexLayout { _read { yield storage.layout } }

    /// Maps the index at `path` and checks its header (magic, version, byte order, section bounds),
    /// in O(1): nothing else of the file is read.
    ///
    /// ```swift
    /// let index = try CityIndex(path: "cities.mms")
    /// ```
    public init(path: String) throws(MMSearchError) {
        // Foundation makes a relative path absolute through FileManager (about 100 µs at its first use
        // in a process), and URL(fileURLWithPath:) asks the file system whether the path is a directory
        // (a stat). getcwd does the first for the cost of a system call, and a hint taken from the path's
        // own spelling (a trailing "/" means a directory) replaces the stat; the open then reports any
        // problem with the path, as before.
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(filePath: SystemCall.absolutePath(path), directoryHint: .inferFromPath), options: .alwaysMapped)
        } catch {
            throw MMSearchError.io(path: path, operation: "open", errno: Self.errno(of: error))
        }
        try self.init(bytes: bytes, path: path)
    }

    /// An index held in memory (for example a file read by other means); `path` names it in errors.
    ///
    /// ```swift
    /// let (bytes, _) = try IndexBuilder.makeIndex(records: records, source: source)
    /// let index = try CityIndex(bytes: Data(bytes))
    /// ```
    public init(bytes: Data, path: String = "<memory>") throws(MMSearchError) {
        // A slice keeps its parent's indices; rebase so offsets count from the file's first byte.
        let bytes = bytes.startIndex == 0 ? bytes : Data(bytes)
        let layout = try bytes.withRawBytes { (raw) throws(MMSearchError) in try _IndexLayout(raw, path: path) }
        storage = _IndexStorage(path: path, bytes: bytes, layout: layout)
    }

    /// Whether the index has populations (built with GeoNames data): `City.population` is then set.
    public var hasPopulation: Bool { layout.hasPopulation }

    /// The number of records in the index.
    ///
    /// ```swift
    /// try CityIndex(path: "cities.mms").count   // 209579
    /// ```
    public var count: Int { layout.recordCount }

    /// The size of the index file in bytes.
    ///
    /// ```swift
    /// try CityIndex(path: "cities.mms").fileSize   // 13197470
    /// ```
    public var fileSize: Int { layout.fileSize }

    /// The cities with a name, or a word of a name, that starts with the folded `prefix` (see
    /// `Folding`), biggest first; `match` and `order` choose otherwise (see `MatchMode`,
    /// `ResultOrder`). The empty prefix matches every city. Counting is O(1), and so is the first
    /// page of ranked results. In an index with regions or countries, "Name, Qualifier" matches too
    /// ("portland, or", "paris texas"); and when nothing matches, `typos` lets names within one or
    /// two typos match (see `Typos`; `SearchResults.typos` says how many were allowed).
    ///
    /// ```swift
    /// let munich = try index.search("München")[0]       // Muenchen, DE, matched by "München"
    /// let page = try index.search("lond", order: .name).cities(in: 0 ..< 20)
    /// let typo = try index.search("cincinatti").typos    // 1: Cincinnati, one typo away
    /// ```
    ///
    /// `filter` keeps only the cities that pass it (a country, a box, a disc, a population), as if
    /// the others were not in the index: for the count, the typo fallback and every page. `near` ranks
    /// the cities near a point first (see `Proximity`) and gives each result its `distanceKm`; with it,
    /// `order: .distance` is nearest first.
    ///
    /// ```swift
    /// let ohio = Proximity(point: try GeoPoint(latitude: 39.98, longitude: -82.98))
    /// try index.search("springfield", near: ohio)[0]                    // Springfield, Ohio
    /// try index.search("london", filter: GeoFilter(countries: ["US"]))[0] // London, Ohio
    /// ```
    public func search(_ prefix: some StringProtocol, match: MatchMode = .words, order: ResultOrder = .rank, typos: Typos = .on,
                       filter: GeoFilter = .none, near: Proximity? = nil) throws(MMSearchError) -> SearchResults {
        try search(foldedPrefix: Folding.fold(prefix), match: match, order: order, typos: typos, filter: filter, near: near)
    }

    /// The same search for `foldedPrefix`, bytes already folded by `Folding.fold`: for callers that
    /// fold once and search many times.
    ///
    /// ```swift
    /// let matches = try index.search(foldedPrefix: Folding.fold("São"))
    /// ```
    public func search(foldedPrefix: [UInt8], match: MatchMode = .words, order: ResultOrder = .rank, typos: Typos = .on,
                       filter: GeoFilter = .none, near: Proximity? = nil) throws(MMSearchError) -> SearchResults {
        if order == .distance, near == nil {
            throw .invalidOptions(message: "distance order needs a point to measure from (near)")
        }
        // Every name has a spelling without its periods: "st. paul" is "st paul" ("words" only).
        let foldedPrefix = match == .words && foldedPrefix.contains(UInt8(ascii: ".")) ? foldedPrefix.filter { $0 != UInt8(ascii: ".") } : foldedPrefix
        if foldedPrefix.isEmpty, order == .distance, let near {
            // Every city matches: the spatial index gives them nearest first, page by page.
            let count = try withBytes { (index) throws(MMSearchError) -> Int in
                filter.isFiltering ? try index.spatialCount(index.resolve(filter)) : index.layout.recordCount
            }
            let resolved = filter.isFiltering ? try withBytes { (index) throws(MMSearchError) in index.resolve(filter) } : nil
            return SearchResults(index: self, match: match, order: order, count: count, typos: 0, near: near, plan: .nearest(near.point, filter: resolved))
        }
        if filter.isFiltering || near != nil {
            let (count, plan, allowed) = try withBytes { (index) throws(MMSearchError) -> (Int, SearchResults.Plan, Int) in
                try index.geoPlan(foldedPrefix, match: match, order: order, typos: typos, filter: filter, near: near)
            }
            return SearchResults(index: self, match: match, order: order, count: count, typos: allowed, near: near, plan: plan)
        }
        let (count, plan, allowed) = try withBytes { (index) throws(MMSearchError) -> (Int, SearchResults.Plan, Int) in
            let (count, plan) = try index.plan(foldedPrefix, match: match, order: order)
            guard count == 0, typos == .on else { return (count, plan, 0) }
            // Nothing as typed: within one typo from 4 scalars, two from 8.
            let scalars = _IndexBytes.scalars(of: foldedPrefix)
            var visited = 0, subtrees = 0
            for (maximum, shortest) in [(1, 4), (2, 8)] where scalars.count >= shortest {
                let found = try index.typoMatches(scalars, queryLength: foldedPrefix.count, maximum: maximum, visited: &visited, subtrees: &subtrees)
                let matches = _IndexBytes.ordered(try index.rankedMatches(found, queryLength: foldedPrefix.count, match: match), order: order, population: index.population)
                if !matches.isEmpty { return (matches.count, .listed(matches), maximum) }
            }
            return (0, plan, 0)
        }
        return SearchResults(index: self, match: match, order: order, count: count, typos: allowed, near: nil, plan: plan)
    }

    /// The same search with a filter or a point answered the straightforward way: every match read,
    /// filtered and ordered (O(matches)), whatever the index stores to answer faster. The reference the
    /// benchmark and the tests compare the search with.
    package func searchScanningEveryMatch(_ prefix: some StringProtocol, match: MatchMode = .words, order: ResultOrder = .rank, typos: Typos = .on,
                                          filter: GeoFilter = .none, near: Proximity? = nil) throws(MMSearchError) -> SearchResults {
        if order == .distance, near == nil {
            throw .invalidOptions(message: "distance order needs a point to measure from (near)")
        }
        var folded = Folding.fold(prefix)
        if match == .words, folded.contains(UInt8(ascii: ".")) { folded.removeAll { $0 == UInt8(ascii: ".") } }
        let (count, plan, allowed) = try withBytes { (index) throws(MMSearchError) -> (Int, SearchResults.Plan, Int) in
            try index.geoPlan(folded, match: match, order: order, typos: typos, filter: filter, near: near, scanning: true)
        }
        return SearchResults(index: self, match: match, order: order, count: count, typos: allowed, near: near, plan: plan)
    }

    /// The `limit` cities nearest `point` that pass `filter`, nearest first (then by id), each with its
    /// `distanceKm`: a reverse lookup, `search("", order: .distance, filter: filter, near: point)`.
    ///
    /// ```swift
    /// let here = try GeoPoint(latitude: 48.85, longitude: 2.35)
    /// try index.nearest(to: here, limit: 1)[0].id   // 2988507, Paris: the id OpenWeatherMap's API takes
    /// ```
    /// Read from the spatial index: the nodes whose box may hold one of the `limit` nearest, so a few
    /// microseconds for ten, however many cities the index holds (a filter that few cities pass reads
    /// more).
    public func nearest(to point: GeoPoint, limit: Int, filter: GeoFilter = .none) throws(MMSearchError) -> [City] {
        try withBytes { (index) throws(MMSearchError) in
            try index.nearestCities(to: point, in: 0 ..< Swift.max(limit, 0), filter: filter.isFiltering ? index.resolve(filter) : nil, expected: nil)
        }
    }

    /// The ids and distances of the `limit` cities nearest `point`, as `nearest(to:limit:)` finds them,
    /// without making `City` values (for the benchmark's report: the walk alone).
    package func nearestIds(to point: GeoPoint, limit: Int) throws(MMSearchError) -> [(id: UInt32, distanceKm: Double)] {
        try withBytes { (index) throws(MMSearchError) in
            var found: [(id: UInt32, distanceKm: Double)] = []
            for (record, distanceKm) in try index.nearest(to: point, limit: limit, filter: nil) {
                found.append((try index.recordID(record), distanceKm))
            }
            return found
        }
    }

    /// What the typo walk for `query` within `maximum` typos visits (for the benchmark's report): the
    /// trie nodes it enters, the subtrees it matches, and the entries under them.
    package func typoWalk(_ query: some StringProtocol, maximum: Int) throws(MMSearchError) -> (nodes: Int, subtrees: Int, entries: Int) {
        let folded = Folding.fold(query), scalars = _IndexBytes.scalars(of: folded)
        return try withBytes { (index) throws(MMSearchError) in
            var visited = 0, subtrees = 0
            let found = try index.typoMatches(scalars, queryLength: folded.count, maximum: maximum, visited: &visited, subtrees: &subtrees)
            return (visited, subtrees, found.count)
        }
    }

    /// A first page in TOP as the damaged-index tests see it ("TOP pages" in the format header): the
    /// bit it starts at, its entries, each value's width, and its node's entries when the values are
    /// positions among them (nil: name numbers).
    package struct TopPageLayout: Sendable {
        package var firstBit: Int
        package var count: Int
        package var valueWidth: Int
        package var nodeEntries: Range<Int>?
        package var isNearList = false
    }

    /// Every first page in TOP (the summaries', the country pages', the near lists'), by first bit:
    /// each summarized node's, found by a walk of the whole trie.
    package func topPageLayouts() throws(MMSearchError) -> [TopPageLayout] {
        try withBytes { (index) throws(MMSearchError) in
            var pages: [TopPageLayout] = []
            func add(_ page: _IndexBytes.TopPage, isNearList: Bool = false) {
                pages.append(TopPageLayout(firstBit: page.firstBit, count: page.count, valueWidth: page.valueWidth, nodeEntries: page.entries, isNearList: isNearList))
            }
            var stack = [(node: 0, entries: 0 ..< layout.entryCount)], summarized: [Int: Range<Int>] = [:], visits = 0
            while let (node, entries) = stack.popLast(), visits < layout.nodeCount { // children are numbered after their parent
                visits += 1
                if entries.count > Int(MMS_SUMMARY_THRESHOLD) {
                    summarized[node] = entries
                    let summary = try index.summary(ofNode: node)
                    add(try index.topPage(from: Int(summary.top_first), count: min(Int(summary.record_count), Int(MMS_TOP_COUNT)),
                                          nodeEntries: entries, at: layout.summaries.start))
                    if let list = try index.nearList(ofNode: node, entries: entries) { add(list, isNearList: true) }
                }
                let children = try index.children(ofNode: node)
                try index.forEachChild(children, in: children.nodes, parent: entries) { child, childEntries in stack.append((child, childEntries)) }
            }
            for number in 0 ..< layout.countryPageCount {
                let page = try index.countryPage(number)
                guard let entries = summarized[page.node] else { continue } // verify refuses it
                add(try index.topPage(from: page.topFirst, count: Int(MMS_TOP_COUNT), nodeEntries: entries,
                                      at: layout.countryPages + number * _IndexLayout.countryPageSize))
            }
            return pages.sorted { $0.firstBit < $1.firstBit }
        }
    }

    /// Runs `body` over the raw layer; the only way into the mapped bytes. The raw layer refers to
    /// `storage` without owning it: `self` holds it for the whole call.
    func withBytes<Value>(_ body: (_IndexBytes) throws(MMSearchError) -> Value) throws(MMSearchError) -> Value {
        try storage.bytes.withRawBytes { (raw) throws(MMSearchError) in try body(_IndexBytes(raw: raw, layout: storage.layout, storage: storage)) }
    }

    /// The errno behind a failed `Data(contentsOf:)`, or EIO when Foundation gives none.
    private static func errno(of error: any Error) -> Int32 {
        if let posix = error as? POSIXError { return posix.code.rawValue }
        if let cocoa = error as? CocoaError, let underlying = cocoa.underlying as? POSIXError {
            return underlying.code.rawValue
        }
        return 5 // EIO
    }
}

/// What an open index holds: the path it was opened from, the mapped bytes and the layout read from
/// their header at open. Immutable; one instance behind every copy of a `CityIndex`.
final class _IndexStorage: Sendable {
    let path: String
    let bytes: Data
    let layout: _IndexLayout

    init(path: String, bytes: Data, layout: _IndexLayout) {
        self.path = path
        self.bytes = bytes
        self.layout = layout
    }
}
