import MMSearch

/// One search as every interface asks it, and the page of cities it answers: the command line's
/// `query` and `near`, `serve`'s `/search`, Photon's `/api` and `/reverse`, Pelias' `/v1/search`,
/// `/v1/autocomplete` and `/v1/reverse` each read their own parameters into one of these and run it
/// here, the one place a search runs; each then writes the page in its own shape.
struct CitySearch {
    /// The prefix; "" with distance order near a point is a reverse lookup (the nearest cities).
    var query: String
    var mode = QueryCommand.SearchMode(match: .words, order: .rank, typos: .on)
    var geo = GeoOptions()
    var limit: Int
    var offset = 0

    /// A page of the answer: `count` the exact total (nil when it was not asked for), `typos` how
    /// many typos were allowed to find the cities.
    struct Page {
        let count: Int?
        let typos: Int
        let cities: [City]
    }

    /// The cities nearest `point` that pass `filter`, nearest first.
    static func nearest(to point: GeoPoint, filter: GeoFilter, limit: Int) -> CitySearch {
        var geo = GeoOptions()
        geo.filter = filter
        geo.near = Proximity(point: point)
        return CitySearch(query: "", mode: QueryCommand.SearchMode(match: .words, order: .distance, typos: .off), geo: geo, limit: limit)
    }

    /// Whether this asks for the cities nearest a point, with no name to match.
    var isReverse: Bool { query.isEmpty && mode.order == .distance && geo.near != nil }

    /// Runs the search on `index`. `counted`: the exact total is wanted; without it a reverse lookup
    /// goes through `CityIndex.nearest` (the spatial index), which does not count.
    func run(in index: CityIndex, counted: Bool = true) throws(MMSearchError) -> Page {
        if !counted, isReverse, let near = geo.near {
            let (end, overflow) = offset.addingReportingOverflow(limit)
            let cities = try index.nearest(to: near.point, limit: overflow ? Int.max : end, filter: geo.filter)
            return Page(count: nil, typos: 0, cities: Array(cities.dropFirst(offset)))
        }
        let results = try index.search(query, match: mode.match, order: mode.order, typos: mode.typos, filter: geo.filter, near: geo.near)
        let page = min(offset, results.count) ..< min(offset.addingReportingOverflow(limit).partialValue, results.count)
        return Page(count: results.count, typos: results.typos, cities: try results.cities(in: page))
    }
}
