import MMSearch

/// The geography of a search as the command line and the HTTP APIs spell it (`shared/peers/rank.py`,
/// "Geography"): a point to rank near and the filters, read from named text values and checked, each
/// mistake named by the option or parameter that holds it. One reader of each kind of value for every
/// interface: the command line asks for `--near`, `--near-km`, `--country`, `--bbox`, `--within`,
/// `--min-population`; `/search` for `near`, `near_km`, `country`, `bbox`, `within`,
/// `min_population`; Photon's and Pelias' APIs give the same values in their own parameters (`lat`
/// and `lon`, `boundary.rect.min_lon`...), read by the same static readers below.
struct GeoOptions {
    var filter = GeoFilter.none
    var near: Proximity?

    /// A value as given: the option or parameter as the caller spelled it, and its text.
    struct Given {
        let name: String
        let text: String
    }

    /// A value that is not what its option takes, or a value missing: `name` is the option or
    /// parameter as the caller spelled it, `problem` what is wrong with it (`takes a point LAT,LON
    /// ..., not "x"`). The command line writes `--near takes ...`, HTTP `parameter near takes ...`.
    struct Mistake: Error {
        let name: String
        let problem: String

        init(name: String, problem: String) {
            self.name = name
            self.problem = problem
        }

        /// `given` is not `expected`.
        init(_ given: Given, expected: String) {
            self.init(name: given.name, problem: "takes \(expected), not \"\(given.text)\"")
        }

        var message: String { "\(name) \(problem)" }
    }

    /// How options are named: `--near-km` on the command line, `near_km` over HTTP.
    enum Spelling {
        case commandLine, http
        func name(_ words: String) -> String {
            switch self {
            case .commandLine: return "--" + words.replacingAll("_", with: "-")
            case .http: return words
            }
        }
    }

    /// No filter and no point.
    init() {}

    /// Reads the options `value(name)` gives (nil: not given); `spelling` names them.
    init(spelling: Spelling, value: (String) -> String?) throws(Mistake) {
        func given(_ words: String) -> Given? {
            let name = spelling.name(words)
            return value(name).map { Given(name: name, text: $0) }
        }
        if let point = given("near") {
            try rank(near: try Self.point(point), halfDistance: given("near_km"))
        } else if let kilometres = given("near_km") {
            throw Mistake(name: kilometres.name, problem: "takes a distance only with \(spelling.name("near")) LAT,LON")
        }
        if let codes = given("country") { filter.countries = try Self.countries(codes) }
        if let box = given("bbox") { filter.boundingBox = try Self.box(box) }
        if let disc = given("within") { filter.within = try Self.disc(disc) }
        if let minimum = given("min_population") { filter.minimumPopulation = try Self.minimumPopulation(minimum) }
    }

    /// The command line's options: `--near` and the rest.
    static let commandLineNames = ["near", "near_km", "country", "bbox", "within", "min_population"].map { Spelling.commandLine.name($0) }

    /// The command line's options from `arguments`, checked against `order` (distance order needs
    /// `--near`): a mistake is a usage error that names the option and the value.
    init(_ arguments: Arguments, order: ResultOrder) throws(UsageError) {
        do {
            self = try GeoOptions(spelling: .commandLine) { arguments.value($0) }
            try check(order: order, orderName: "--order", pointName: "--near LAT,LON")
        } catch {
            throw UsageError(error.message)
        }
    }

    /// Ranks near `point`, the boost halving every `halfDistance` km (100 when not given).
    mutating func rank(near point: GeoPoint, halfDistance: Given?) throws(Mistake) {
        guard let halfDistance else {
            near = Proximity(point: point)
            return
        }
        guard let kilometres = Self.number(halfDistance.text), let proximity = try? Proximity(point: point, halfDistanceKm: kilometres) else {
            throw Mistake(halfDistance, expected: "a distance in km above 0")
        }
        near = proximity
    }

    /// Distance order needs a point to measure from: `orderName` is the option that asked for it,
    /// `pointName` how the point is given.
    func check(order: ResultOrder, orderName: String, pointName: String) throws(Mistake) {
        if order == .distance, near == nil {
            throw Mistake(name: orderName, problem: "takes distance only with a point to measure from (\(pointName))")
        }
    }

    // MARK: Readers of one kind of value each

    /// "LAT,LON" as a point.
    static func point(_ given: Given) throws(Mistake) -> GeoPoint {
        let values = numbers(given.text)
        guard values.count == 2, let point = try? GeoPoint(latitude: values[0], longitude: values[1]) else {
            throw Mistake(given, expected: "a point LAT,LON in degrees (latitude within ±90, longitude within ±180)")
        }
        return point
    }

    /// A point given as two values (Photon's `lat` and `lon`, Pelias' `focus.point.lat` and
    /// `focus.point.lon`): nil when neither is given, a mistake naming the one missing when only one is.
    static func point(latitude: Given?, longitude: Given?, latitudeName: String, longitudeName: String) throws(Mistake) -> GeoPoint? {
        switch (latitude, longitude) {
        case (nil, nil):
            return nil
        case (let latitude?, let longitude?):
            let (latitudeValue, longitudeValue) = (try Self.latitude(latitude), try Self.longitude(longitude))
            return Self.checkedPoint(latitudeValue, longitudeValue)
        case (nil, _):
            throw Mistake(name: latitudeName, problem: "is missing (\(longitudeName) is given: a point takes both)")
        case (_, nil):
            throw Mistake(name: longitudeName, problem: "is missing (\(latitudeName) is given: a point takes both)")
        }
    }

    /// The point of a latitude and a longitude already checked to be in range.
    private static func checkedPoint(_ latitude: Double, _ longitude: Double) -> GeoPoint {
        do { return try GeoPoint(latitude: latitude, longitude: longitude) } catch { preconditionFailure("\(error)") }
    }

    /// A latitude in degrees, within ±90.
    static func latitude(_ given: Given) throws(Mistake) -> Double {
        guard let value = number(given.text), (try? GeoPoint(latitude: value, longitude: 0)) != nil else {
            throw Mistake(given, expected: "a latitude in degrees, from -90 to 90")
        }
        return value
    }

    /// A longitude in degrees, within ±180.
    static func longitude(_ given: Given) throws(Mistake) -> Double {
        guard let value = number(given.text), (try? GeoPoint(latitude: 0, longitude: value)) != nil else {
            throw Mistake(given, expected: "a longitude in degrees, from -180 to 180")
        }
        return value
    }

    /// "W,S,E,N" as a box (Photon's order; W > E crosses the 180th meridian).
    static func box(_ given: Given) throws(Mistake) -> BoundingBox {
        let values = numbers(given.text)
        guard values.count == 4, let box = try? BoundingBox(west: values[0], south: values[1], east: values[2], north: values[3]) else {
            throw Mistake(given, expected: "a box W,S,E,N in degrees (min lon, min lat, max lon, max lat; W > E crosses the 180th meridian, S <= N)")
        }
        return box
    }

    /// A box given as four values (Pelias' `boundary.rect.min_lon`...): nil when none is given, a
    /// mistake naming the first one missing when only some are, and naming the south when it is
    /// above the north.
    static func box(west: (name: String, given: Given?), south: (name: String, given: Given?),
                    east: (name: String, given: Given?), north: (name: String, given: Given?)) throws(Mistake) -> BoundingBox? {
        let sides = [west, south, east, north]
        guard sides.contains(where: { $0.given != nil }) else { return nil }
        guard let westGiven = west.given, let southGiven = south.given, let eastGiven = east.given, let northGiven = north.given else {
            let missing = sides.first { $0.given == nil }!.name
            throw Mistake(name: missing, problem: "is missing (a box takes all four of \(sides.map(\.name).joined(separator: ", ")))")
        }
        let (w, s, e, n) = (try longitude(westGiven), try latitude(southGiven), try longitude(eastGiven), try latitude(northGiven))
        guard let box = try? BoundingBox(west: w, south: s, east: e, north: n) else {
            throw Mistake(southGiven, expected: "a latitude no further north than \(northGiven.name) (\(northGiven.text))")
        }
        return box
    }

    /// "LAT,LON,KM" as a disc.
    static func disc(_ given: Given) throws(Mistake) -> GeoCircle {
        let values = numbers(given.text)
        guard values.count == 3, let center = try? GeoPoint(latitude: values[0], longitude: values[1]),
              let circle = try? GeoCircle(center: center, radiusKm: values[2]) else {
            throw Mistake(given, expected: "a disc LAT,LON,KM (latitude within ±90, longitude within ±180, a radius of at least 0 km)")
        }
        return circle
    }

    /// The disc of `radius` km around `center` (Photon's `radius`, Pelias' `boundary.circle.radius`).
    static func disc(center: GeoPoint, radius: Given) throws(Mistake) -> GeoCircle {
        guard let kilometres = number(radius.text), let circle = try? GeoCircle(center: center, radiusKm: kilometres) else {
            throw Mistake(radius, expected: "a radius in km, at least 0")
        }
        return circle
    }

    /// Country codes, comma-separated: ISO 3166-1 alpha-2 or alpha-3.
    static func countries(_ given: Given) throws(Mistake) -> [String] {
        let codes = given.text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingASCIISpaces() }
        guard !codes.isEmpty, codes.allSatisfy({ (2 ... 3).contains($0.utf8.count) && $0.utf8.allSatisfy { isASCIILetterOrDigit($0) } }) else {
            throw Mistake(given, expected: "country codes (ISO 3166-1 alpha-2 or alpha-3, comma-separated: US,CA or USA)")
        }
        return codes
    }

    /// A whole number of people.
    static func minimumPopulation(_ given: Given) throws(Mistake) -> UInt64 {
        guard let minimum = UInt64(given.text) else {
            throw Mistake(given, expected: "a whole number of people, at least 0")
        }
        return minimum
    }

    /// Comma-separated decimal numbers; a value that is not one makes the list empty.
    static func numbers(_ text: String) -> [Double] {
        var values: [Double] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let value = number(String(part).trimmingASCIISpaces()) else { return [] }
            values.append(value)
        }
        return values
    }

    /// A finite decimal number ("12", "-33.87", "1e3"); not "nan", "inf" or hexadecimal.
    static func number(_ text: String) -> Double? {
        guard !text.isEmpty, text.utf8.allSatisfy({ isASCIIDigit($0) || "+-.eE".utf8.contains($0) }), let value = Double(text), value.isFinite else { return nil }
        return value
    }

    static func isASCIIDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    static func isASCIILetterOrDigit(_ byte: UInt8) -> Bool { isASCIIDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) }
}

extension String {
    /// The string without spaces at either end.
    func trimmingASCIISpaces() -> String {
        var scalars = Substring(self)
        while scalars.first == " " { scalars.removeFirst() }
        while scalars.last == " " { scalars.removeLast() }
        return String(scalars)
    }

    /// Every `target` replaced by `replacement` (without Foundation's ICU-backed string methods).
    func replacingAll(_ target: Character, with replacement: Character) -> String { String(map { $0 == target ? replacement : $0 }) }
}
