import CMMSearchFormat

/// Filters and ranking near a point (`include/mmsearch_format.h`, "Geography"): which records pass a
/// `GeoFilter`, their distance from a point, and matches put in ranked-near or distance order.
extension _IndexBytes {
    /// A `GeoFilter` with its country codes resolved against the index: the two-byte codes a record
    /// may hold (upper case) to pass, ISO3 codes turned into theirs through COUNTRIES.
    struct ResolvedFilter: Sendable {
        var filter: GeoFilter
        /// nil: any country.
        var countryCodes: [UInt16]?
        /// Whether a record with no ISO3 code (its country not in COUNTRIES) passes: a code "" asked.
        var passesWithoutISO3 = false
        var passesWithoutCountry = false
    }

    func resolve(_ filter: GeoFilter) -> ResolvedFilter {
        var resolved = ResolvedFilter(filter: filter)
        guard !filter.countries.isEmpty else { return resolved }
        var codes: [UInt16] = []
        for text in filter.countries {
            let code = Array(text.utf8).map(CountryKey.asciiUppercased)
            if code.isEmpty { resolved.passesWithoutISO3 = true; resolved.passesWithoutCountry = true }
            if code.count == 2 { codes.append(CountryKey.of((code[0], code[1]))) }
            if code.count == 3 {
                for number in 0 ..< layout.countryCount {
                    let country = self.country(number).country
                    if [country.iso3.0, country.iso3.1, country.iso3.2] == code {
                        codes.append(CountryKey.of(country.code))
                    }
                }
            }
        }
        resolved.countryCodes = codes
        return resolved
    }

    /// Whether record `index` passes `filter`.
    func passes(_ index: Int, _ filter: ResolvedFilter) throws(MMSearchError) -> Bool {
        if let codes = filter.countryCodes {
            let code = try recordCountry(index)
            var passes = code != (0, 0) && codes.contains(CountryKey.of(code))
            if !passes, filter.passesWithoutCountry || filter.passesWithoutISO3 {
                passes = (filter.passesWithoutCountry && code == (0, 0))
                    || (filter.passesWithoutISO3 && (countryNumber(code: code).map { country($0).country.iso3 == (0, 0, 0) } ?? true))
            }
            guard passes else { return false }
        }
        if let minimum = filter.filter.minimumPopulation, population(index) < minimum { return false }
        if filter.filter.boundingBox != nil || filter.filter.within != nil {
            let (latitudeE7, longitudeE7) = try coordinates(ofRecord: index)
            let latitude = Double(latitudeE7) / Double(Coordinate.scale), longitude = Double(longitudeE7) / Double(Coordinate.scale)
            if let box = filter.filter.boundingBox, !box.contains(latitude: latitude, longitude: longitude) { return false }
            if let circle = filter.filter.within,
               GeoPoint.haversineKm(circle.center.latitude, circle.center.longitude, latitude, longitude) > circle.radiusKm { return false }
        }
        return true
    }

    /// The distance in km from `point` to record `index`.
    @inline(__always)
    func distanceKm(from point: GeoPoint, toRecord index: Int) throws(MMSearchError) -> Double {
        let (latitude, longitude) = try coordinates(ofRecord: index)
        return Self.distanceKm(from: point, latitudeE7: latitude, longitudeE7: longitude)
    }

    /// The distance in km from `point` to coordinates in 1e-7 degree (a record's, already read).
    @inline(__always)
    static func distanceKm(from point: GeoPoint, latitudeE7: Int32, longitudeE7: Int32) -> Double {
        GeoPoint.haversineKm(point.latitude, point.longitude, Double(latitudeE7) / Double(Coordinate.scale), Double(longitudeE7) / Double(Coordinate.scale))
    }

    /// `matches` (one per record) that pass `filter`, in `order`, near `near` when given: ranked by
    /// (population + 1) × weight × boost(distance) (a double, as rank.py computes it), then kind, then
    /// record; or by (distance, id); or as the other orders say.
    func geoOrdered(_ matches: [_Ranked], filter: ResolvedFilter?, order: ResultOrder, near: Proximity?) throws(MMSearchError) -> [_Match] {
        var kept = matches
        if let filter {
            kept = []
            kept.reserveCapacity(matches.count)
            for match in matches where try passes(Int(match.record), filter) { kept.append(match) }
        }
        switch (order, near) {
        case (.distance, let near?):
            var keyed: [(distance: Double, id: UInt32, match: _Ranked)] = []
            keyed.reserveCapacity(kept.count)
            for match in kept {
                keyed.append((try distanceKm(from: near.point, toRecord: Int(match.record)), try recordID(Int(match.record)), match))
            }
            keyed.sort { ($0.distance, $0.id, $0.match.record) < ($1.distance, $1.id, $1.match.record) }
            return keyed.map { _Match(record: $0.match.record, entry: $0.match.entry) }
        case (.rank, let near?):
            var keyed: [(score: Double, kind: UInt32, match: _Ranked)] = []
            keyed.reserveCapacity(kept.count)
            for match in kept {
                let record = Int(match.record)
                let base = Ranking.nearBase(population: population(record), ofClass: match.matchClass)
                let score = Double(base) * near.boost(distanceKm: try distanceKm(from: near.point, toRecord: record))
                keyed.append((score, match.kind, match))
            }
            keyed.sort { a, b in
                if a.score != b.score { return a.score > b.score }
                if a.kind != b.kind { return a.kind < b.kind }
                return a.match.record < b.match.record
            }
            return keyed.map { _Match(record: $0.match.record, entry: $0.match.entry) }
        case (.distance, nil):
            throw .invalidOptions(message: "distance order needs a point to measure from (near)")
        default:
            return Self.ordered(kept, order: order, population: population)
        }
    }
}

extension _IndexBytes {
    /// The count and the results of a search with a filter or a point: every match as typed, filtered;
    /// in ranked order, the first page chosen from them without ordering the rest (those are ordered
    /// when a later page is read, `SearchResults.Plan.firstPage`); in another order, all of them
    /// ordered. When none passes, the typo fallback, filtered the same way. `scanning` orders every
    /// match whatever the order (the reference the benchmark and the tests compare with).
    func geoPlan(_ query: [UInt8], match: MatchMode, order: ResultOrder, typos: Typos, filter: GeoFilter, near: Proximity?, scanning: Bool = false) throws(MMSearchError) -> (Int, SearchResults.Plan, Int) {
        let resolved = filter.isFiltering ? resolve(filter) : nil
        if !scanning, order == .rank {
            let lookedUp = try lookUp(query, match: match)
            // Restricted to one country at a node where it has many records: its stored page.
            if near == nil, match == .words, let resolved, let paged = try countryPagePlan(query, lookedUp: lookedUp, filter: resolved) {
                return (paged.count, paged.plan, 0)
            }
            // Near a point, unfiltered, at a big node with a near list: its first page from the tree, the
            // list and the "Name, Qualifier" matches ("Near a point"), its count the summary's and theirs;
            // the matches are read for a later page.
            if let near, resolved == nil, match == .words, let located = lookedUp.located, located.entries.count > Int(MMS_SUMMARY_THRESHOLD),
               Self.readsQualifiersAlone(located, lookedUp.qualified), let list = try nearList(ofNode: located.node, entries: located.entries) {
                let summary = try summary(ofNode: located.node)
                let (added, raising) = try qualifierChanges(lookedUp.qualified, query: query, match: match)
                let page = try firstRankedNear(under: located, summary: summary, list: list, qualified: raising, near: near, length: Int(MMS_TOP_COUNT))
                return (Int(summary.record_count) + added, .firstPage(page, SearchResults.Rest(query: query, match: match, filter: filter, near: near)), 0)
            }
            let kept = try allMatches(query, match: match, filter: resolved, lookedUp: lookedUp)
            if !kept.isEmpty || typos == .off {
                let page = try firstRanked(kept, near: near, length: Int(MMS_TOP_COUNT))
                return (kept.count, .firstPage(page, SearchResults.Rest(query: query, match: match, filter: filter, near: near)), 0)
            }
        }
        // The naive scan reads every match and filters them; the search only what may pass.
        let matches = scanning ? try geoOrdered(try allMatches(query, match: match), filter: resolved, order: order, near: near)
            : try geoOrdered(try allMatches(query, match: match, filter: resolved), filter: nil, order: order, near: near)
        guard matches.isEmpty, typos == .on else { return (matches.count, .listed(matches), 0) }
        let scalars = Self.scalars(of: query)
        var visited = 0, subtrees = 0
        // Restricted to countries, the walk skips the subtrees that hold none of their entries.
        let within = scanning ? nil : try countryRuns(resolved)
        for (maximum, shortest) in [(1, 4), (2, 8)] where scalars.count >= shortest {
            let entries = try typoMatches(scalars, queryLength: query.count, maximum: maximum, visited: &visited, subtrees: &subtrees, within: within)
            let found = try geoOrdered(try rankedMatches(entries, queryLength: query.count, match: match), filter: resolved, order: order, near: near)
            if !found.isEmpty { return (found.count, .listed(found), maximum) }
        }
        return (0, .listed([]), 0)
    }

    /// `matches` that pass `filter` (all of them without one).
    func passing(_ matches: [_Ranked], filter: ResolvedFilter?) throws(MMSearchError) -> [_Ranked] {
        guard let filter else { return matches }
        var kept: [_Ranked] = []
        kept.reserveCapacity(matches.count)
        for match in matches where try passes(Int(match.record), filter) { kept.append(match) }
        return kept
    }

    /// The first `length` of `matches` in ranked order (near `near` when given), as `geoOrdered` orders
    /// them, without ordering the rest. Near a point, only the matches that could be among them are
    /// measured: a match's score is at most its base (population + 1) × weight times 1001 (the boost
    /// at distance 0; the same rounded products, so the bound holds in doubles too), and the first
    /// page's last score is at least the least score of the `length` greatest bases; a match whose
    /// bound is below that least score has `length` matches above it.
    func firstRanked(_ matches: [_Ranked], near: Proximity?, length: Int) throws(MMSearchError) -> [_Match] {
        guard let near else {
            var best = Selection<Ranking.Rank>(length: length)
            for match in matches {
                best.offer(Ranking.Rank(population: population(Int(match.record)), bestClass: match.matchClass, kind: match.kind, record: match.record), match.entry)
            }
            return best.items.map { _Match(record: $0.key.record, entry: $0.entry) }
        }
        var bases: [UInt64] = []
        bases.reserveCapacity(matches.count)
        for match in matches { bases.append(Ranking.nearBase(population: population(Int(match.record)), ofClass: match.matchClass)) }
        // The least score among the matches of the `length` greatest bases.
        var greatest = Selection<BaseKey>(length: length)
        for (position, base) in bases.enumerated() { greatest.offer(BaseKey(base: base, position: position), 0) }
        var floor = Double.infinity
        for item in greatest.items {
            floor = Swift.min(floor, Double(item.key.base) * near.boost(distanceKm: try distanceKm(from: near.point, toRecord: Int(matches[item.key.position].record))))
        }
        if greatest.items.count < length { floor = 0 }
        // The floor rises as the page fills: a match whose bound is below the page's last score so far
        // cannot enter it either (its distance, three libm calls, is not computed).
        var best = Selection<NearKey>(length: length)
        for (position, match) in matches.enumerated() {
            let bound = Double(bases[position]) * 1001
            if bound < floor || best.items.count == length && bound < best.items[length - 1].key.score { continue }
            let score = Double(bases[position]) * near.boost(distanceKm: try distanceKm(from: near.point, toRecord: Int(match.record)))
            best.offer(NearKey(score: score, kind: match.kind, record: match.record), match.entry)
        }
        return best.items.map { _Match(record: $0.key.record, entry: $0.entry) }
    }

    /// A base and where it is, the greater base first (then the earlier).
    struct BaseKey: Comparable {
        var base: UInt64
        var position: Int
        static func < (a: BaseKey, b: BaseKey) -> Bool { a.base != b.base ? a.base > b.base : a.position < b.position }
    }

    /// A match's place in ranked order near a point: score descending, kind, record.
    struct NearKey: Comparable {
        var score: Double
        var kind: UInt32
        var record: UInt32
        static func < (a: NearKey, b: NearKey) -> Bool {
            if a.score != b.score { return a.score > b.score }
            if a.kind != b.kind { return a.kind < b.kind }
            return a.record < b.record
        }
    }
}

/// The first `length` items offered, in order (`<` first): a sorted array of at most `length`,
/// an item that does not come before the last of a full one costing one comparison.
struct Selection<Key: Comparable> {
    let length: Int
    private(set) var items: [(key: Key, entry: UInt32)] = []

    /// Takes item `index` out (to offer its key again, better).
    mutating func removeItem(at index: Int) { items.remove(at: index) }

    init(length: Int) {
        self.length = length
        items.reserveCapacity(length + 1)
    }

    @inline(__always)
    mutating func offer(_ key: Key, _ entry: UInt32) {
        guard length > 0 else { return }
        if items.count == length {
            guard key < items[length - 1].key else { return }
            items.removeLast()
        }
        var position = items.count
        while position > 0, key < items[position - 1].key { position -= 1 }
        items.insert((key, entry), at: position)
    }
}

extension Selection where Key == _IndexBytes.NearKey {
    /// Offers a record that may be offered again (from the tree and from a list): one item a record,
    /// the better key kept.
    @inline(__always)
    mutating func offerOnce(_ key: Key, _ entry: UInt32) {
        if let index = items.firstIndex(where: { $0.key.record == key.record }) {
            guard key < items[index].key else { return }
            removeItem(at: index)
        }
        offer(key, entry)
    }
}
