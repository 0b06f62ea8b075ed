import MMSearch

// PLACEHOLDER until the strict parser lands (same API).
public struct Admin1Region: Sendable, Equatable {
    public var country: [UInt8]
    public var code: [UInt8]
    public var name: [UInt8]
    public init(country: [UInt8], code: [UInt8], name: [UInt8]) { self.country = country; self.code = code; self.name = name }
}
public struct ParsedAdmin1: Sendable, Equatable {
    public var regions: [Admin1Region]
    public var skipped: [MMSearchError]
    public init(regions: [Admin1Region], skipped: [MMSearchError]) { self.regions = regions; self.skipped = skipped }
}
public enum Admin1Parser {
    public static func parse(_ bytes: UnsafeRawBufferPointer, file: String, options: CityListParseOptions) throws(MMSearchError) -> ParsedAdmin1 {
        try parse(Array(bytes), file: file, options: options)
    }
    public static func parse(_ bytes: [UInt8], file: String, options: CityListParseOptions = CityListParseOptions()) throws(MMSearchError) -> ParsedAdmin1 {
        var regions: [Admin1Region] = []
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let columns = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
            let key = columns[0].split(separator: UInt8(ascii: "."), maxSplits: 1)
            regions.append(Admin1Region(country: Array(key[0]), code: Array(key[1]), name: Array(columns[1])))
        }
        return ParsedAdmin1(regions: regions, skipped: [])
    }
}
