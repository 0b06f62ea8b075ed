import CMMSearchFormat

extension CityIndex {
    /// The name of the country with ISO 3166-1 alpha-2 `code` ("US"), as the index's country file gave
    /// it ("United States"), or nil when the index has no name for it (built without `--countries`). A
    /// binary search over the index's few hundred countries.
    ///
    /// ```swift
    /// try index.countryName(code: "DE")   // "Germany"
    /// ```
    public func countryName(code: String) throws(MMSearchError) -> String? {
        let bytes = Array(code.utf8)
        guard bytes.count == 2 else { return nil }
        return try withBytes { (index) throws(MMSearchError) -> String? in
            guard let number = index.countryNumber(code: (bytes[0], bytes[1])) else { return nil }
            let (country, at) = index.country(number)
            let name = try index.span(offset: country.name_offset, length: country.name_length, at: at, what: "country \(number)")
            return name.isEmpty ? nil : String(decoding: name, as: UTF8.self)
        }
    }
}
