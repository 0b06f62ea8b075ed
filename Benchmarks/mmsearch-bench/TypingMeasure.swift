import MMSearch
import MMSearchBuilder

/// Issue 8's measure of results (not of time): for the most populous cities of the list (population from
/// the GeoNames dump, joined by id with the list's `_id`), how many characters of the city's name as the
/// list displays it, followed by its country as results show a city ("London, GB"), one types before that
/// city is the first result; and how many are never first, even typed in full. (Typing "Name, CC"
/// reproduces the issue's figures for version 1: 6.2 characters, 105 never.) Also the name alone. BEFORE is what version 1 answered (the list alone, names only, in name
/// order); AFTER is the default search of the joined index (every name and word, ranked).
enum TypingMeasure {
    struct Outcome {
        /// Per city, the characters typed until it was first, or nil when it never was.
        var typed: [Int?]
        var found: [Int] { typed.compactMap { $0 } }
        var never: Int { typed.count - found.count }
        var mean: Double { found.isEmpty ? 0 : Double(found.reduce(0, +)) / Double(found.count) }
        var median: Int { found.isEmpty ? 0 : median_(found) }
        /// First within `characters` characters.
        func within(_ characters: Int) -> Int { found.filter { $0 <= characters }.count }
    }

    /// The `top` most populous cities of `list` by the dump's populations (ties by id), and each one's
    /// characters typed on the two indexes; `key=value` pairs for the parent.
    static func run(listIndex: String, joinedIndex: String, list: String, geonames: String, top: Int) throws -> String {
        var population: [UInt32: UInt32] = [:]
        for record in try IndexBuilder.loadRecords(input: geonames).records { population[record.id] = record.population }
        let cities = try IndexBuilder.loadRecords(input: list).records
        let chosen = cities.compactMap { city in population[city.id].map { (city: city, population: $0) } }
            .filter { !$0.city.name.isEmpty }
            .sorted { $0.population != $1.population ? $0.population > $1.population : $0.city.id < $1.city.id }
            .prefix(top)

        let before = try CityIndex(path: listIndex), after = try CityIndex(path: joinedIndex)
        // Typing the name alone, and typing it as results show it, "Name, CC" (the key includes the country).
        var outcomes = Array(repeating: Outcome(typed: []), count: 4)
        var neverAfter: [String] = []
        for (city, _) in chosen {
            let name = String(decoding: city.name, as: UTF8.self)
            let shown = city.country.isEmpty ? name : "\(name), \(String(decoding: city.country, as: UTF8.self))"
            outcomes[0].typed.append(try typedUntilFirst(name, id: city.id, in: before, match: .name, order: .name))
            let typed = try typedUntilFirst(name, id: city.id, in: after, match: .words, order: .rank)
            outcomes[1].typed.append(typed)
            outcomes[2].typed.append(try typedUntilFirst(shown, id: city.id, in: before, match: .name, order: .name))
            outcomes[3].typed.append(try typedUntilFirst(shown, id: city.id, in: after, match: .words, order: .rank))
            if typed == nil, neverAfter.count < 8 { neverAfter.append(shown) }
        }
        var out = "cities=\(chosen.count) smallest_population=\(chosen.last?.population ?? 0)"
        for (label, outcome) in zip(["before", "after", "before_shown", "after_shown"], outcomes) {
            out += " \(label)_found=\(outcome.found.count) \(label)_mean=\(fixed(outcome.mean, 2)) \(label)_median=\(outcome.median)"
                + " \(label)_never=\(outcome.never) \(label)_within1=\(outcome.within(1)) \(label)_within3=\(outcome.within(3))"
                + " \(label)_within5=\(outcome.within(5))"
        }
        // Names hold spaces; the parent splits on them, so they travel percent-encoded.
        let examples = neverAfter.map(percentEncodingSpaces)
        return out + " after_never_examples=\(examples.joined(separator: "|"))"
    }

    /// Types `name` one character at a time and returns how many characters it took for the city with
    /// `id` to be the first result; nil when it is not first even with the whole name typed.
    static func typedUntilFirst(_ name: String, id: UInt32, in index: CityIndex, match: MatchMode, order: ResultOrder) throws -> Int? {
        var prefix = ""
        var typed = 0
        for character in name {
            prefix.append(character)
            typed += 1
            let results = try index.search(prefix, match: match, order: order)
            if results.count > 0, try results.city(at: 0).id == id { return typed }
        }
        return nil
    }
}

private func median_(_ values: [Int]) -> Int { median(values) }

/// `text` with "%" written "%25" and " " written "%20", so that it travels as one `key=value` token.
func percentEncodingSpaces(_ text: String) -> String {
    var encoded = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "%": encoded += "%25"
        case " ": encoded += "%20"
        default: encoded.unicodeScalars.append(scalar)
        }
    }
    return encoded
}

/// The inverse of `percentEncodingSpaces`.
func percentDecodingSpaces(_ text: String) -> String {
    var decoded = ""
    var rest = Substring(text)
    while let percent = rest.firstIndex(of: "%") {
        decoded += rest[..<percent]
        let code = rest[percent...].prefix(3)
        decoded += code == "%20" ? " " : code == "%25" ? "%" : String(code)
        rest = rest[rest.index(percent, offsetBy: code.count)...]
    }
    return decoded + rest
}
