import MMSearch
import MMSearchHTTP

/// Photon's API (komoot's geocoder over OpenStreetMap), so that clients and map widgets written for
/// Photon work unchanged: `/api` (search as you type, with Photon's location bias and box) and
/// `/reverse` (the cities nearest a point), both answered as Photon answers, a GeoJSON
/// FeatureCollection of Points. The parameters are read here; the search is `CitySearch`'s.
extension ServeRoutes {
    /// `/api?q=&limit=&lat=&lon=&zoom=&location_bias_scale=&bbox=&countrycode=`: `lat` and `lon` rank
    /// the cities near that point first (as `/search`'s `near`), `zoom` sets how near (Photon's
    /// radius for that zoom as the half distance), `bbox` and `countrycode` keep only the cities in
    /// that box and those countries.
    func photonSearch(_ target: HTTPTarget) throws(Refusal) -> HTTPResponse {
        let query = try query(target)
        let limit = try integer(target, "limit", default: 15, maximum: Self.maximumLimit)
        var search = CitySearch(query: query, limit: limit)
        do throws(GeoOptions.Mistake) {
            search.geo.filter = try Self.photonFilter(target)
            if let point = try GeoOptions.point(latitude: target.given("lat"), longitude: target.given("lon"), latitudeName: "lat", longitudeName: "lon") {
                search.geo.near = try Self.photonProximity(point, zoom: target.given("zoom"))
            }
            // Accepted and checked as Photon checks it, and ignored: how much a city's size counts is
            // rank.py's formula, the same at every point.
            if let scale = target.given("location_bias_scale"), GeoOptions.number(scale.text) == nil {
                throw GeoOptions.Mistake(scale, expected: "a number (Photon's weight of prominence; accepted and ignored)")
            }
        } catch {
            throw Refusal(error)
        }
        let (index, page) = try run(search)
        return try photonAnswer(page.cities, in: index)
    }

    /// `/reverse?lat=&lon=&radius=&limit=&countrycode=`: the `limit` cities (default 1, as Photon)
    /// nearest the point, nearest first; `radius` (km) leaves out those further away.
    func photonReverse(_ target: HTTPTarget) throws(Refusal) -> HTTPResponse {
        let limit = try integer(target, "limit", default: 1, maximum: Self.maximumLimit)
        let search: CitySearch
        do throws(GeoOptions.Mistake) {
            guard let point = try GeoOptions.point(latitude: target.given("lat"), longitude: target.given("lon"), latitudeName: "lat", longitudeName: "lon") else {
                throw GeoOptions.Mistake(name: "lat", problem: "is missing (/reverse takes the point to look up as lat and lon)")
            }
            var filter = try Self.photonFilter(target)
            if let radius = target.given("radius") { filter.within = try GeoOptions.disc(center: point, radius: radius) }
            search = CitySearch.nearest(to: point, filter: filter, limit: limit)
        } catch {
            throw Refusal(error)
        }
        let (index, page) = try run(search, counted: false)
        return try photonAnswer(page.cities, in: index)
    }

    /// `bbox` (W,S,E,N, as Photon and `/search` take it) and `countrycode` (Photon's: given once a
    /// country, or comma-separated).
    private static func photonFilter(_ target: HTTPTarget) throws(GeoOptions.Mistake) -> GeoFilter {
        var filter = GeoFilter.none
        if let box = target.given("bbox") { filter.boundingBox = try GeoOptions.box(box) }
        let codes = target.parameters.filter { $0.name == "countrycode" }.map(\.value)
        if !codes.isEmpty { filter.countries = try GeoOptions.countries(GeoOptions.Given(name: "countrycode", text: codes.joined(separator: ","))) }
        return filter
    }

    /// The bias near `point` for Photon's `zoom`: without it, `/search`'s (a half distance of 100 km);
    /// else the half distance is Photon's radius for that zoom, 0.25 × 2^(18 − zoom) km (zoom above 18
    /// as 18), and below zoom 4 there is no bias, as in Photon.
    static func photonProximity(_ point: GeoPoint, zoom: GeoOptions.Given?) throws(GeoOptions.Mistake) -> Proximity? {
        guard let zoom else { return Proximity(point: point) }
        guard let level = Int(zoom.text) else { throw GeoOptions.Mistake(zoom, expected: "a whole number (a map's zoom level)") }
        guard level >= 4 else { return nil }
        var radius = 0.25
        for _ in 0 ..< 18 - min(level, 18) { radius *= 2 }
        return try? Proximity(point: point, halfDistanceKm: radius)
    }

    private func photonAnswer(_ cities: [City], in index: CityIndex) throws(Refusal) -> HTTPResponse {
        var features = ""
        do {
            for city in cities {
                if !features.isEmpty { features += ", " }
                features += Self.photonFeature(city, countryName: try index.countryName(code: city.country))
            }
        } catch {
            throw internalError(error)
        }
        return json(Array("{\"type\": \"FeatureCollection\", \"features\": [\(features)]}\n".utf8))
    }

    /// A Photon feature: Photon's members in Photon's order (GeocodeJsonFormatter), those the index has
    /// no data for left out as Photon leaves out what a place lacks (`country`, the country's name, and
    /// `state`, the region, come from an index built with `--countries` and `--admin1`), then
    /// mmsearch's `id` and `population`.
    static func photonFeature(_ city: City, countryName: String?) -> String {
        var properties = "\"osm_key\": \"place\", \"osm_value\": \"city\", \"type\": \"city\""
        if let countryName { properties += ", \"country\": \(JSONText.quoted(countryName))" }
        if !city.country.isEmpty { properties += ", \"countrycode\": \(JSONText.quoted(city.country))" }
        if let region = city.region { properties += ", \"state\": \(JSONText.quoted(region))" }
        properties += ", \"name\": \(JSONText.quoted(city.name)), \"id\": \(city.id)"
        if let population = city.population { properties += ", \"population\": \(population)" }
        return "{\"type\": \"Feature\", \"properties\": {\(properties)}, \"geometry\": {\"type\": \"Point\", \"coordinates\": [\(city.coordinate.longitudeText), \(city.coordinate.latitudeText)]}}"
    }
}

extension HTTPTarget {
    /// The last value of parameter `name`, named for `GeoOptions`' readers.
    func given(_ name: String) -> GeoOptions.Given? { value(name).map { GeoOptions.Given(name: name, text: $0) } }
}
