import CMMSearchFormat

/// A country as the index's COUNTRIES section holds it (from GeoNames' countryInfo.txt, through
/// `build --countries`).
///
/// ```swift
/// let us = try index.country(code: "US")   // US, USA, "United States"
/// ```
public struct Country: Sendable, Hashable {
    /// ISO 3166-1 alpha-2, as records hold it ("US").
    public let code: String
    /// ISO 3166-1 alpha-3 ("USA"), or nil when the country file gave none.
    public let iso3: String?
    /// The country's name ("United States"), or nil when the file gave none.
    public let name: String?
}

extension CityIndex {
    /// The country with ISO 3166-1 alpha-2 `code` ("US"), or nil when the index has none (built
    /// without `--countries`, or no record of that country). A binary search over the index's few
    /// hundred countries.
    ///
    /// ```swift
    /// try index.country(code: "DE")?.iso3   // "DEU"
    /// ```
    public func country(code: String) throws(MMSearchError) -> Country? {
        let bytes = Array(code.utf8)
        guard bytes.count == 2 else { return nil }
        return try withBytes { (index) throws(MMSearchError) -> Country? in
            guard let number = index.countryNumber(code: (bytes[0], bytes[1])) else { return nil }
            let (country, at) = index.country(number)
            let name = try index.span(offset: country.name_offset, length: country.name_length, at: at, what: "country \(number)")
            let iso3 = [country.iso3.0, country.iso3.1, country.iso3.2]
            return Country(code: code,
                               iso3: iso3 == [0, 0, 0] ? nil : String(decoding: iso3, as: UTF8.self),
                               name: name.isEmpty ? nil : String(decoding: name, as: UTF8.self))
        }
    }

    /// The name of the country with ISO 3166-1 alpha-2 `code` ("US"), as the index's country file gave
    /// it ("United States"), or nil when the index has no name for it (built without `--countries`).
    ///
    /// ```swift
    /// try index.countryName(code: "DE")   // "Germany"
    /// ```
    public func countryName(code: String) throws(MMSearchError) -> String? {
        try country(code: code)?.name
    }
}
