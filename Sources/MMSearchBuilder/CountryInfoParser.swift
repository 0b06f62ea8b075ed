import MMSearch

// PLACEHOLDER until the strict parser lands (same API).
public struct CountryInfo: Sendable, Equatable {
    public var code: [UInt8]
    public var iso3: [UInt8]
    public var name: [UInt8]
    public init(code: [UInt8], iso3: [UInt8], name: [UInt8]) { self.code = code; self.iso3 = iso3; self.name = name }
}
public struct ParsedCountryInfo: Sendable, Equatable {
    public var countries: [CountryInfo]
    public var skipped: [MMSearchError]
    public init(countries: [CountryInfo], skipped: [MMSearchError]) { self.countries = countries; self.skipped = skipped }
}
public enum CountryInfoParser {
    public static func parse(_ bytes: UnsafeRawBufferPointer, file: String, options: CityListParseOptions) throws(MMSearchError) -> ParsedCountryInfo {
        try parse(Array(bytes), file: file, options: options)
    }
    public static func parse(_ bytes: [UInt8], file: String, options: CityListParseOptions = CityListParseOptions()) throws(MMSearchError) -> ParsedCountryInfo {
        var countries: [CountryInfo] = []
        for line in bytes.split(separator: UInt8(ascii: "\n")) where line.first != UInt8(ascii: "#") {
            let columns = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
            countries.append(CountryInfo(code: Array(columns[0]), iso3: Array(columns[1]), name: Array(columns[4])))
        }
        return ParsedCountryInfo(countries: countries, skipped: [])
    }
}
