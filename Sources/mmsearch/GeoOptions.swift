import MMSearch

/// The geography of a search as the command line and the HTTP API spell it (`shared/peers/rank.py`,
/// "Geography"): a point to rank near and the filters, read from named text values and checked, each
/// mistake named by the option or parameter that holds it. One reader for both: the command line
/// asks for `--near`, `--near-km`, `--country`, `--bbox`, `--within`, `--min-population`; the HTTP
/// API for `near`, `near_km`, `country`, `bbox`, `within`, `min_population`.
struct GeoOptions {
    var filter = GeoFilter.none
    var near: Proximity?

    /// A value that is not what its option takes: `name` is the option or parameter as the caller
    /// spelled it, `value` what was given.
    struct Mistake: Error {
        let name: String
        let value: String
        let expected: String
        var message: String { "\(name) takes \(expected), not \"\(value)\"" }
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
        func named(_ words: String) -> (name: String, text: String)? { value(spelling.name(words)).map { (spelling.name(words), $0) } }
        if let (name, text) = named("near") {
            let point = try Self.point(text, name: name)
            var halfDistance = 100.0
            if let (kmName, kmText) = named("near_km") {
                guard let km = Self.number(kmText), km > 0, km.isFinite else {
                    throw Mistake(name: kmName, value: kmText, expected: "a distance in km above 0")
                }
                halfDistance = km
            }
            near = try? Proximity(point: point, halfDistanceKm: halfDistance)
        } else if let (kmName, kmText) = named("near_km") {
            throw Mistake(name: kmName, value: kmText, expected: "a distance only with \(spelling.name("near")) LAT,LON")
        }
        if let (name, text) = named("country") {
            let codes = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingASCIISpaces() }
            guard !codes.isEmpty, codes.allSatisfy({ (2 ... 3).contains($0.utf8.count) && $0.utf8.allSatisfy { Self.isASCIILetterOrDigit($0) } }) else {
                throw Mistake(name: name, value: text, expected: "country codes (ISO 3166-1 alpha-2 or alpha-3, comma-separated: US,CA or USA)")
            }
            filter.countries = codes
        }
        if let (name, text) = named("bbox") {
            let values = Self.numbers(text)
            let expected = "a box W,S,E,N in degrees (min lon, min lat, max lon, max lat; W > E crosses the 180th meridian, S <= N)"
            guard values.count == 4, let box = try? BoundingBox(west: values[0], south: values[1], east: values[2], north: values[3]) else {
                throw Mistake(name: name, value: text, expected: expected)
            }
            filter.boundingBox = box
        }
        if let (name, text) = named("within") {
            let values = Self.numbers(text)
            guard values.count == 3, let center = try? GeoPoint(latitude: values[0], longitude: values[1]),
                  let circle = try? GeoCircle(center: center, radiusKm: values[2]) else {
                throw Mistake(name: name, value: text, expected: "a disc LAT,LON,KM (latitude within ±90, longitude within ±180, a radius of at least 0 km)")
            }
            filter.within = circle
        }
        if let (name, text) = named("min_population") {
            guard let minimum = UInt64(text) else {
                throw Mistake(name: name, value: text, expected: "a whole number of people, at least 0")
            }
            filter.minimumPopulation = minimum
        }
    }

    /// The command line's options: `--near` and the rest.
    static let commandLineNames = ["near", "near_km", "country", "bbox", "within", "min_population"].map { Spelling.commandLine.name($0) }

    /// The command line's options from `arguments`, checked against `order` (distance order needs
    /// `--near`): a mistake is a usage error that names the option and the value.
    init(_ arguments: Arguments, order: ResultOrder) throws(UsageError) {
        do {
            self = try GeoOptions(spelling: .commandLine) { arguments.value($0) }
        } catch {
            throw UsageError(error.message)
        }
        if order == .distance, near == nil {
            throw UsageError("--order distance needs --near LAT,LON, the point to measure from")
        }
    }

    /// "LAT,LON" as a point.
    static func point(_ text: String, name: String) throws(Mistake) -> GeoPoint {
        let values = numbers(text)
        guard values.count == 2, let point = try? GeoPoint(latitude: values[0], longitude: values[1]) else {
            throw Mistake(name: name, value: text, expected: "a point LAT,LON in degrees (latitude within ±90, longitude within ±180)")
        }
        return point
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
