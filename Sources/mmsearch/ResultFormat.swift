import MMSearch

/// How `query` and `get` print cities (`--format`).
enum ResultFormat: String, CaseIterable {
    /// `Name, CC  lat, lon  id` a line; `query` adds `N matches`.
    case text
    /// One JSON value, on one line: for `query` the object with the query, count, offset and results;
    /// for `get` the array of records.
    case json
    /// One JSON object a city, a line each; no count.
    case jsonl
    /// A header line `id name country lat lon region`, once before everything, then a row a city,
    /// tab-separated (region empty where a city has none).
    case tsv
    /// One GeoJSON FeatureCollection (RFC 7946) of Point features on one line: `query` writes one per
    /// query, `get` one for all its records.
    case geojson

    /// The format `--format` names, or `--json` (its older spelling); text when neither is given.
    init(_ arguments: Arguments) throws(UsageError) {
        let named = arguments.value("--format")
        if arguments.has("--json"), let named, named != "json" {
            throw UsageError("--json and --format \(named) ask for different formats")
        }
        guard let format = ResultFormat(rawValue: named ?? (arguments.has("--json") ? "json" : "text")) else {
            throw UsageError("--format takes one of \(Self.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(named ?? "")\"")
        }
        self = format
    }

    /// What comes once at the start of the output, before any answer; `withDistance`: the answers
    /// are near a point, so TSV rows end with a `distance_km` column.
    func header(withDistance: Bool = false) -> String {
        self == .tsv ? "id\tname\tcountry\tlat\tlon\tregion" + (withDistance ? "\tdistance_km\n" : "\n") : ""
    }

    /// One query's answer: the cities of the page asked for, the total count, and how many typos
    /// were allowed to find them.
    func render(query: String, count: Int, offset: Int, typos: Int, cities: [City]) -> String {
        switch self {
        case .text:
            return render(cities: cities) + Self.countLine(count, typos: typos) + "\n"
        case .json:
            let results = Self.joined(cities, separator: ", ", Self.jsonObject)
            return "{\"query\": \(JSONText.quoted(query)), \"count\": \(count), \"offset\": \(offset), \"typos\": \(typos), \"results\": [\(results)]}\n"
        case .jsonl, .tsv, .geojson:
            return render(cities: cities)
        }
    }

    /// Records by themselves (what `get` prints).
    func render(cities: [City]) -> String {
        switch self {
        case .text:
            return Self.joined(cities, terminator: "\n", Self.textLine)
        case .json:
            return "[" + Self.joined(cities, separator: ", ", Self.jsonObject) + "]\n"
        case .jsonl:
            return Self.joined(cities, terminator: "\n", Self.jsonObject)
        case .tsv:
            return Self.joined(cities, terminator: "\n", Self.tsvRow)
        case .geojson:
            let features = Self.joined(cities, separator: ", ", Self.geoJSONFeature)
            return "{\"type\": \"FeatureCollection\", \"features\": [\(features)]}\n"
        }
    }

    /// Each city's text, with `separator` between two and `terminator` after each. A loop rather
    /// than `map(_:).joined(separator:)`: the generic `joined` costs a scan of every protocol
    /// conformance in the executable on its first use, a tenth of a whole `mmsearch query`.
    private static func joined(_ cities: [City], separator: String = "", terminator: String = "",
                               _ text: (City) -> String) -> String {
        var result = ""
        for position in cities.indices {
            if position > cities.startIndex { result += separator }
            result += text(cities[position])
            result += terminator
        }
        return result
    }

    /// "N matches" ("1 match"), and ", with 1 typo" (or "2 typos") when the matches were found by allowing typos.
    static func countLine(_ count: Int, typos: Int) -> String {
        "\(count) " + (count == 1 ? "match" : "matches") + typosNote(typos)
    }

    /// ", with 1 typo" or ", with 2 typos"; nothing when the query matched as typed.
    static func typosNote(_ typos: Int) -> String {
        typos == 0 ? "" : ", with \(typos) typo" + (typos == 1 ? "" : "s")
    }

    /// `Name, Region, CC (Matched)  lat, lon  id  population N`: the matched name only when the city was found
    /// by another name, the population only when the index has populations.
    static func textLine(_ city: City) -> String {
        // Bytes first, one String at the end: appending to a String piece by piece (or interpolating)
        // cost about 5,000 instructions a line, a tenth of a whole `mmsearch query`.
        var line: [UInt8] = []
        line.reserveCapacity(128)
        line.append(contentsOf: placeText(city).utf8)
        for piece in ["  ", city.coordinate.latitudeText, ", ", city.coordinate.longitudeText, "  ", String(city.id)] {
            line.append(contentsOf: piece.utf8)
        }
        if let population = city.population {
            line.append(contentsOf: "  population ".utf8)
            line.append(contentsOf: String(population).utf8)
        }
        if let distance = city.distanceKm {
            line.append(contentsOf: "  ".utf8)
            line.append(contentsOf: decimal(distance, places: 1).utf8)
            line.append(contentsOf: " km".utf8)
        }
        return String(decoding: line, as: UTF8.self)
    }

    /// `Name, Region, CC`, without the parts a city lacks; then ` (Matched)` when the city was found by
    /// another name (`Muenchen, Bavaria, DE (München)`).
    static func placeText(_ city: City) -> String {
        var place = city.name
        for part in [city.region ?? "", city.country] where !part.isEmpty { place += ", " + part }
        return city.matchedName.map { "\(place) (\($0))" } ?? place
    }

    /// `"region"` where the city has one, `"population"` where the index has populations, `"matched"`
    /// where the city was found by another name: the members JSON and GeoJSON add after the others.
    static func extraMembers(_ city: City) -> String {
        var members = ""
        if let region = city.region { members += ", \"region\": \(JSONText.quoted(region))" }
        if let population = city.population { members += ", \"population\": \(population)" }
        if let matched = city.matchedName { members += ", \"matched\": \(JSONText.quoted(matched))" }
        if let distance = city.distanceKm { members += ", \"distance_km\": \(decimal(distance, places: 3))" }
        return members
    }

    /// `value` rounded to `places` decimals (half away from zero), written with exactly that many:
    /// "12.3", "0.000". Distances are never negative, and far below 2^53 / 1000.
    static func decimal(_ value: Double, places: Int) -> String {
        var scale = 1.0
        for _ in 0 ..< places { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let divisor = Int(scale)
        let fraction = String(scaled % divisor)
        return String(scaled / divisor) + "." + String(repeating: "0", count: places - fraction.count) + fraction
    }

    /// The coordinates are the list's decimal text, so they come back digit for digit.
    static func jsonObject(_ city: City) -> String {
        "{\"id\": \(city.id), \"name\": \(JSONText.quoted(city.name)), \"country\": \(JSONText.quoted(city.country)), \"lat\": \(city.coordinate.latitudeText), \"lon\": \(city.coordinate.longitudeText)\(extraMembers(city))}"
    }

    /// Tabs, line breaks and backslashes in names are written `\t`, `\n`, `\r` and `\\`, so every row
    /// is one line of six fields.
    static func tsvRow(_ city: City) -> String {
        func escaped(_ text: String) -> String {
            var escaped = ""
            for character in text.unicodeScalars {
                switch character {
                case "\t": escaped += "\\t"
                case "\n": escaped += "\\n"
                case "\r": escaped += "\\r"
                case "\\": escaped += "\\\\"
                default: escaped.unicodeScalars.append(character)
                }
            }
            return escaped
        }
        let distance = city.distanceKm.map { "\t" + decimal($0, places: 3) } ?? ""
        return "\(city.id)\t\(escaped(city.name))\t\(city.country)\t\(city.coordinate.latitudeText)\t\(city.coordinate.longitudeText)\t\(escaped(city.region ?? ""))" + distance
    }

    /// A Point feature; GeoJSON puts longitude first.
    static func geoJSONFeature(_ city: City) -> String {
        "{\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [\(city.coordinate.longitudeText), \(city.coordinate.latitudeText)]}, \"properties\": {\"id\": \(city.id), \"name\": \(JSONText.quoted(city.name)), \"country\": \(JSONText.quoted(city.country))\(extraMembers(city))}}"
    }
}

/// JSON string literals: quotes, backslashes and control characters escaped, the rest kept as UTF-8.
enum JSONText {
    static func quoted(_ text: String) -> String {
        // Most names need no escape: copied whole after one scan of their bytes (0xE2 leads U+2028 and
        // U+2029), rather than a scalar at a time (a quarter of `serve`'s time per answer).
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xE2 }) {
            return "\"" + text + "\""
        }
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\u{2028}" || scalar == "\u{2029}":
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
