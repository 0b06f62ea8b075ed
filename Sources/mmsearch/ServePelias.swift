import MMSearch
import MMSearchHTTP

/// Pelias' API (the geocoder behind geocode.earth and openrouteservice, spoken by Leaflet's and
/// geopy's Pelias clients): `/v1/search` and `/v1/autocomplete` (a prefix, a focus point, a box, a
/// circle, countries) and `/v1/reverse` (the cities nearest a point), answered as Pelias answers: a
/// GeoJSON FeatureCollection with a `geocoding` header, each city a `locality`. A bad parameter is
/// answered 400 with Pelias' error shape (`geocoding.errors`). The parameters are read here; the
/// search is `CitySearch`'s.
extension ServeRoutes {
    /// Results a request asks for by default, and at most (more is cut to this with a warning, as
    /// Pelias does).
    static let peliasDefaultSize = 10
    static let peliasMaximumSize = 40
    /// The radius of `boundary.circle` when only its center is given (Pelias' default).
    static let peliasDefaultCircleKm = "50"

    /// What the `geocoding` header says: the request as read (`query`), warnings and errors.
    struct PeliasHeader {
        /// `"name": value` members, each value JSON already.
        var query: [String] = []
        var warnings: [String] = []
        var errors: [String] = []

        mutating func echo(_ name: String, _ jsonValue: String) { query.append("\(JSONText.quoted(name)): \(jsonValue)") }
        mutating func echo(_ name: String, number: Double) { echo(name, String(describing: number)) }

        var json: String {
            var members = ["\"version\": \"0.2\"", "\"query\": {\(query.joined(separator: ", "))}"]
            if !warnings.isEmpty { members.append("\"warnings\": [\(warnings.map(JSONText.quoted).joined(separator: ", "))]") }
            if !errors.isEmpty { members.append("\"errors\": [\(errors.map(JSONText.quoted).joined(separator: ", "))]") }
            members.append("\"engine\": {\"name\": \"mmsearch\", \"author\": \"mmsearch\", \"version\": \(JSONText.quoted(MMSearchVersion.version))}")
            return "{" + members.joined(separator: ", ") + "}"
        }
    }

    /// `/v1/search` and `/v1/autocomplete` (`reverse` false), `/v1/reverse` (true).
    func pelias(_ target: HTTPTarget, reverse: Bool) -> HTTPResponse {
        var header = PeliasHeader()
        do throws(Refusal) {
            let search: CitySearch
            do throws(GeoOptions.Mistake) {
                search = reverse ? try Self.peliasReverse(target, header: &header) : try Self.peliasSearch(target, header: &header)
            } catch {
                throw Refusal(error)
            }
            let (index, page) = try run(search, counted: false)
            var features: [String] = []
            do {
                for city in page.cities { features.append(Self.peliasFeature(city, country: try index.country(code: city.country))) }
            } catch {
                throw internalError(error)
            }
            var body = "{\"geocoding\": \(header.json), \"type\": \"FeatureCollection\", \"features\": [\(features.joined(separator: ", "))]"
            if let box = Self.boundingBox(of: page.cities) { body += ", \"bbox\": \(box)" }
            return json(Array((body + "}\n").utf8))
        } catch {
            header.errors.append(error.message)
            let body = "{\"geocoding\": \(header.json), \"type\": \"FeatureCollection\", \"features\": []}\n"
            return HTTPResponse(status: error.status, headers: Self.jsonHeaders(corsOrigin: corsOrigin, cacheable: false), body: Array(body.utf8))
        }
    }

    /// `text`, `size`, `focus.point.lat`/`lon`, `boundary.rect.min_lon`/`min_lat`/`max_lon`/`max_lat`,
    /// `boundary.circle.lat`/`lon`/`radius` and `boundary.country`.
    private static func peliasSearch(_ target: HTTPTarget, header: inout PeliasHeader) throws(GeoOptions.Mistake) -> CitySearch {
        guard let text = target.value("text"), !text.isEmpty else {
            throw GeoOptions.Mistake(name: "text", problem: "is missing or empty (the start of a city's name)")
        }
        guard text.utf8.count <= maximumQueryBytes else {
            throw GeoOptions.Mistake(name: "text", problem: "is longer than \(maximumQueryBytes) bytes")
        }
        header.echo("text", JSONText.quoted(text))
        var search = CitySearch(query: text, limit: try peliasSize(target, header: &header))
        if let focus = try GeoOptions.point(latitude: target.given("focus.point.lat"), longitude: target.given("focus.point.lon"),
                                            latitudeName: "focus.point.lat", longitudeName: "focus.point.lon") {
            header.echo("focus.point.lat", number: focus.latitude)
            header.echo("focus.point.lon", number: focus.longitude)
            try search.geo.rank(near: focus, halfDistance: nil)
        }
        let rect = "boundary.rect."
        if let box = try GeoOptions.box(west: (rect + "min_lon", target.given(rect + "min_lon")), south: (rect + "min_lat", target.given(rect + "min_lat")),
                                        east: (rect + "max_lon", target.given(rect + "max_lon")), north: (rect + "max_lat", target.given(rect + "max_lat"))) {
            for (name, value) in [("min_lon", box.west), ("min_lat", box.south), ("max_lon", box.east), ("max_lat", box.north)] {
                header.echo(rect + name, number: value)
            }
            search.geo.filter.boundingBox = box
        }
        let circle = "boundary.circle."
        let radius = target.given(circle + "radius")
        if let center = try GeoOptions.point(latitude: target.given(circle + "lat"), longitude: target.given(circle + "lon"),
                                             latitudeName: circle + "lat", longitudeName: circle + "lon") {
            let disc = try GeoOptions.disc(center: center, radius: radius ?? GeoOptions.Given(name: circle + "radius", text: peliasDefaultCircleKm))
            header.echo(circle + "lat", number: center.latitude)
            header.echo(circle + "lon", number: center.longitude)
            header.echo(circle + "radius", number: disc.radiusKm)
            search.geo.filter.within = disc
        } else if radius != nil {
            throw GeoOptions.Mistake(name: circle + "lat", problem: "is missing (\(circle)radius is given: a circle takes its center, \(circle)lat and \(circle)lon)")
        }
        try peliasCountries(target, into: &search.geo.filter, header: &header)
        return search
    }

    /// `point.lat`/`lon`, `size`, `boundary.circle.radius` and `boundary.country`.
    private static func peliasReverse(_ target: HTTPTarget, header: inout PeliasHeader) throws(GeoOptions.Mistake) -> CitySearch {
        guard let point = try GeoOptions.point(latitude: target.given("point.lat"), longitude: target.given("point.lon"),
                                               latitudeName: "point.lat", longitudeName: "point.lon") else {
            throw GeoOptions.Mistake(name: "point.lat", problem: "is missing (/v1/reverse takes the point to look up as point.lat and point.lon)")
        }
        let size = try peliasSize(target, header: &header)
        header.echo("point.lat", number: point.latitude)
        header.echo("point.lon", number: point.longitude)
        var filter = GeoFilter.none
        if let radius = target.given("boundary.circle.radius") {
            filter.within = try GeoOptions.disc(center: point, radius: radius)
            header.echo("boundary.circle.radius", number: filter.within!.radiusKm)
        }
        if target.value("boundary.circle.lat") != nil || target.value("boundary.circle.lon") != nil {
            header.warnings.append("boundary.circle.lat/boundary.circle.lon are currently unsupported")
        }
        try peliasCountries(target, into: &filter, header: &header)
        return CitySearch.nearest(to: point, filter: filter, limit: size)
    }

    /// `size`: a whole number; below 1 or above 40 it is taken as 1 or 40, with a warning (as Pelias).
    private static func peliasSize(_ target: HTTPTarget, header: inout PeliasHeader) throws(GeoOptions.Mistake) -> Int {
        var size = peliasDefaultSize
        if let given = target.given("size") {
            guard let value = Int(given.text) else { throw GeoOptions.Mistake(given, expected: "a whole number of results (1 to \(peliasMaximumSize))") }
            size = min(max(value, 1), peliasMaximumSize)
            if size != value { header.warnings.append("out-of-range integer 'size', using \(size == 1 ? "MIN_SIZE" : "MAX_SIZE")") }
        }
        header.echo("size", String(size))
        return size
    }

    /// `boundary.country`: ISO 3166-1 alpha-2 or alpha-3 codes, comma-separated.
    private static func peliasCountries(_ target: HTTPTarget, into filter: inout GeoFilter, header: inout PeliasHeader) throws(GeoOptions.Mistake) {
        guard let given = target.given("boundary.country") else { return }
        filter.countries = try GeoOptions.countries(given)
        header.echo("boundary.country", "[" + filter.countries.map { JSONText.quoted($0.uppercased()) }.joined(separator: ", ") + "]")
    }

    /// A city as Pelias writes a locality: its ids (`gid` "mmsearch:locality:ID"), name, `distance`
    /// (km) from the focus or reverse point, country (name, ISO3 code `country_a`, ISO2
    /// `country_code`), region, and `label` "Name, Region, Country".
    static func peliasFeature(_ city: City, country: Country?) -> String {
        let id = String(city.id)
        var properties = "\"id\": \"\(id)\", \"gid\": \"mmsearch:locality:\(id)\", \"layer\": \"locality\", \"source\": \"mmsearch\", \"source_id\": \"\(id)\""
        properties += ", \"name\": \(JSONText.quoted(city.name))"
        if let distance = city.distanceKm { properties += ", \"distance\": \(ResultFormat.decimal(distance, places: 3))" }
        properties += ", \"accuracy\": \"centroid\""
        if let name = country?.name { properties += ", \"country\": \(JSONText.quoted(name))" }
        if let iso3 = country?.iso3 { properties += ", \"country_a\": \(JSONText.quoted(iso3))" }
        if !city.country.isEmpty { properties += ", \"country_code\": \(JSONText.quoted(city.country))" }
        if let region = city.region { properties += ", \"region\": \(JSONText.quoted(region))" }
        properties += ", \"locality\": \(JSONText.quoted(city.name))"
        if let population = city.population { properties += ", \"population\": \(population)" }
        let label = [city.name, city.region ?? "", country?.name ?? city.country].filter { !$0.isEmpty }.joined(separator: ", ")
        properties += ", \"label\": \(JSONText.quoted(label))"
        return "{\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [\(city.coordinate.longitudeText), \(city.coordinate.latitudeText)]}, \"properties\": {\(properties)}}"
    }

    /// `[min lon, min lat, max lon, max lat]` of the cities, as Pelias bounds its features; nil for none.
    static func boundingBox(of cities: [City]) -> String? {
        guard let first = cities.first?.coordinate else { return nil }
        var (west, south, east, north) = (first.longitudeE7, first.latitudeE7, first.longitudeE7, first.latitudeE7)
        for city in cities.dropFirst() {
            west = min(west, city.coordinate.longitudeE7)
            east = max(east, city.coordinate.longitudeE7)
            south = min(south, city.coordinate.latitudeE7)
            north = max(north, city.coordinate.latitudeE7)
        }
        return "[" + [west, south, east, north].map(Coordinate.decimalText).joined(separator: ", ") + "]"
    }
}
