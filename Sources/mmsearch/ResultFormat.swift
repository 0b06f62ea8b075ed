import MMSearch

/// How `query` prints its answer.
enum ResultFormat {
    /// `Name, CC  lat, lon  id` a line, then `N matches`.
    case text
    /// One JSON object a query, on one line.
    case json

    func render(query: String, count: Int, offset: Int, cities: [City]) -> String {
        switch self {
        case .text:
            var text = ""
            for city in cities {
                let place = city.country.isEmpty ? city.name : "\(city.name), \(city.country)"
                text += "\(place)  \(city.coordinate.latitudeText), \(city.coordinate.longitudeText)  \(city.id)\n"
            }
            return text + "\(count) matches\n"
        case .json:
            let results = cities.map { city in
                "{\"id\": \(city.id), \"name\": \(JSONText.quoted(city.name)), \"country\": \(JSONText.quoted(city.country)), \"lat\": \(city.coordinate.latitudeText), \"lon\": \(city.coordinate.longitudeText)}"
            }
            return "{\"query\": \(JSONText.quoted(query)), \"count\": \(count), \"offset\": \(offset), \"results\": [\(results.joined(separator: ", "))]}\n"
        }
    }
}

/// JSON string literals: quotes, backslashes and control characters escaped, the rest kept as UTF-8.
enum JSONText {
    static func quoted(_ text: String) -> String {
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
