import CMMSearchFormat
import MMSearch

/// One country of GeoNames' countryInfo.txt, with the columns the builder uses.
public struct CountryInfo: Sendable, Equatable {
    /// Column 1, ISO: two ASCII bytes each `A`-`Z` or `0`-`9`, as a record's country code.
    public var code: [UInt8]
    /// Column 2, ISO3: three ASCII bytes each `A`-`Z`, or empty.
    public var iso3: [UInt8]
    /// Column 5, Country: the name, UTF-8 as given, validated; at most `MMS_MAX_STRING_LENGTH` bytes;
    /// may be empty.
    public var name: [UInt8]
    /// Column 17, geonameid: the country's id in GeoNames, by which the alternate names file gives its
    /// other names; nil when the column is empty.
    public var geonameID: UInt32?

    public init(code: [UInt8], iso3: [UInt8], name: [UInt8], geonameID: UInt32? = nil) {
        self.code = code
        self.iso3 = iso3
        self.name = name
        self.geonameID = geonameID
    }
}

/// A parsed countryInfo.txt: the countries kept, and why any other rows were dropped.
public struct ParsedCountryInfo: Sendable, Equatable {
    /// The countries kept, in input order.
    public var countries: [CountryInfo]
    /// One error per dropped row or comment line (its first), in input order. Empty unless
    /// `skipInvalid` was set.
    public var skipped: [MMSearchError]

    public init(countries: [CountryInfo], skipped: [MMSearchError]) {
        self.countries = countries
        self.skipped = skipped
    }
}

/// A strict reader of GeoNames' countryInfo.txt: UTF-8 text, one line a row or a comment. A comment
/// starts with `#`; a row has 19 columns separated by tabs:
///
///     1 ISO  2 ISO3  3 ISO-Numeric  4 fips  5 Country  6 Capital  7 Area(in sq km)  8 Population
///     9 Continent  10 tld  11 CurrencyCode  12 CurrencyName  13 Phone  14 Postal Code Format
///     15 Postal Code Regex  16 Languages  17 geonameid  18 neighbours  19 EquivalentFipsCode
///
/// Rows are read as `shared/peers/rank.py` (`country_names`), the normative definition, reads them: it
/// maps column 1 to columns 2 and 5, and from a file this parser accepts both get the same map (except
/// that this parser skips a byte order mark, which `rank.py` would keep, so that a first line of
/// "mark, `#`" would be a row to it). This parser refuses more: codes that are not what their columns
/// need, and repeated ISO codes, where `rank.py` keeps the last.
///
/// ## What a file must be
///
/// - The input is UTF-8; one byte order mark (EF BB BF) at the very start is skipped. Each line ends
///   at `\n`; the last may end at the end of the input instead (a final `\n` is not followed by an
///   empty line, but an empty line anywhere else is a row, of one column: it is not a comment). A
///   `\r` is not part of a line end, so `\r\n` line ends are refused. Error columns count Unicode
///   scalars from the line start, the mark excluded; a row's columns are counted from 1.
/// - A line whose first byte is `#` is a comment, and is only checked to be valid UTF-8 without control
///   characters other than tabs (GeoNames' column header is a comment with tabs in it); a fault in
///   one is reported "in a comment line".
/// - There is at least one row (an empty input, or one of comments only, is an error).
/// - Every row has exactly 19 columns (18 tabs), every column is valid UTF-8 (no overlongs, surrogates
///   or code points past U+10FFFF) without control characters U+0000 to U+001F other than the tabs
///   between columns. Columns other than 1, 2 and 5 are not checked further.
/// - Column 1, ISO, is two characters each `A`-`Z` or `0`-`9` (ISO 3166-1 alpha-2, as a dump's column
///   9), and no two rows have the same one: a repeat is an error at its row's start, whose message
///   says which line the first is on.
/// - Column 2, ISO3, is empty or three characters `A`-`Z` (ISO 3166-1 alpha-3).
/// - Column 5, Country, is at most `MMS_MAX_STRING_LENGTH` (65,535) bytes; it may be empty.
///
/// ## What is rejected, and what `skipInvalid` skips
///
/// Every failure is `MMSearchError.invalidInput` with the line, column and byte offset of the
/// offending byte and a message saying what was expected and what was found, naming the column
/// (`countryInfo.txt:6:1: expected a country code (two characters A-Z or 0-9: ISO 3166-1 alpha-2) in
/// column 1 (ISO), found "usa"`). A value that is not what its column needs is reported at the
/// column's start; invalid UTF-8 or a control character at the byte itself (a `\r` as "unexpected
/// carriage return"). A row whose column count is not 19 is reported as such before anything else in
/// it is checked: at the row's start when there are too few, at the tab that starts a 20th column
/// when there are too many.
///
/// Every fault in a line is a content error, which `skipInvalid` skips. By default the first error in
/// input order is thrown (within a row, the one at the lowest offset; a repeated ISO code is only
/// looked for in a row with no other error). With `skipInvalid`, a row or comment with an error is
/// dropped and its first error kept in `ParsedCountryInfo.skipped`, in input order. Of the rows
/// sharing an ISO code, the first one kept stays and the later ones are dropped; a row dropped for
/// another error does not count. Two errors are thrown even with `skipInvalid`: an input with no rows
/// at all, and one whose every row was dropped.
public enum CountryInfoParser {
    /// Parses a whole countryInfo.txt; with `options.skipInvalid`, rows with errors are dropped and
    /// listed in `skipped` rather than thrown. `file` is used only in error messages.
    public static func parse(
        _ bytes: UnsafeRawBufferPointer, file: String, options: CityListParseOptions
    ) throws(MMSearchError) -> ParsedCountryInfo {
        var parser = CountryInfoFileParser(input: bytes, file: file, skipInvalid: options.skipInvalid)
        return try parser.parseFile()
    }

    /// Parses a whole countryInfo.txt held in an array.
    public static func parse(
        _ bytes: [UInt8], file: String, options: CityListParseOptions = CityListParseOptions()
    ) throws(MMSearchError) -> ParsedCountryInfo {
        try bytes.withRawBytes { (raw) throws(MMSearchError) in try parse(raw, file: file, options: options) }
    }
}

// MARK: - Parser

/// The file's columns, counted from 0 as `rank.py` counts them.
private enum CountryColumn {
    static let code = 0, iso3 = 1, name = 4, geonameID = 16

    /// The names of GeoNames' own header line.
    static let layout = TabSeparatedLayout(columnNames: [
        "ISO", "ISO3", "ISO-Numeric", "fips", "Country", "Capital", "Area(in sq km)", "Population",
        "Continent", "tld", "CurrencyCode", "CurrencyName", "Phone", "Postal Code Format",
        "Postal Code Regex", "Languages", "geonameid", "neighbours", "EquivalentFipsCode",
    ])
}

private struct CountryInfoFileParser {
    let text: TabSeparatedText
    let skipInvalid: Bool
    var skipped: [MMSearchError] = []
    /// The line of each ISO code kept so far, indexed by `countryCodeSlot`; 0 for none.
    var firstLines = [Int](repeating: 0, count: 36 * 36)

    init(input: UnsafeRawBufferPointer, file: String, skipInvalid: Bool) {
        self.text = TabSeparatedText(input: input, file: file, layout: CountryColumn.layout)
        self.skipInvalid = skipInvalid
    }

    mutating func parseFile() throws(MMSearchError) -> ParsedCountryInfo {
        var position = text.textStart
        guard position < text.end else { throw text.noRowsError(expected: "country row", found: "an empty input") }
        var countries: [CountryInfo] = []
        var line = 1
        var rowCount = 0
        // The first error of a row (not a comment) dropped, for the error when every row is.
        var firstRowSkipped: MMSearchError?
        while position < text.end {
            // A comment is scanned as a row too: that finds its end and its first bad byte, and a tab
            // in it is no fault.
            let row = text.scanRow(from: position, line: line)
            if text.input[position] == UInt8(ascii: "#") {
                if row.firstBadByte != Int.max { _ = try reject(text.badByteError(row, in: "a comment line")) }
            } else {
                rowCount += 1
                if let country = try readRow(row) {
                    countries.append(country)
                } else if firstRowSkipped == nil {
                    firstRowSkipped = skipped.last
                }
            }
            position = row.end + 1
            line += 1
        }
        guard rowCount > 0 else { throw text.noRowsError(expected: "country row", found: "only comment lines") }
        if countries.isEmpty, let firstRowSkipped {
            throw text.noValidRowError(rowCount: rowCount, firstSkipped: firstRowSkipped)
        }
        return ParsedCountryInfo(countries: countries, skipped: skipped)
    }

    /// The country `row` holds, checked and copied out; nil if it had an error and `skipInvalid` is set.
    mutating func readRow(_ row: TabSeparatedRow) throws(MMSearchError) -> CountryInfo? {
        guard row.columnCount == CountryColumn.layout.columnCount else { return try reject(text.columnCountError(row)) }
        // Each check reports at its column's start or later, so the columns are checked in order and
        // a bad byte before the first failing check is what comes first.
        func fault(_ error: () -> MMSearchError, at offset: Int) throws(MMSearchError) -> CountryInfo? {
            try reject(text.firstError(row, error, at: offset))
        }
        func columnError(_ index: Int, expected what: String) -> MMSearchError {
            text.valueError(row, row.column(index), expected: what, in: CountryColumn.layout.describe(index))
        }

        let code = row.column(CountryColumn.code)
        guard code.count == 2, let slot = InputRules.countryCodeSlot(text.input[code.lowerBound], text.input[code.lowerBound + 1]) else {
            return try fault({ columnError(CountryColumn.code, expected: "a country code (two characters A-Z or 0-9: ISO 3166-1 alpha-2)") }, at: code.lowerBound)
        }
        let iso3 = row.column(CountryColumn.iso3)
        guard iso3.isEmpty || (iso3.count == 3 && iso3.allSatisfy({ text.input[$0] &- UInt8(ascii: "A") < 26 })) else {
            return try fault({ columnError(CountryColumn.iso3, expected: "an ISO3 code (empty, or three letters A-Z: ISO 3166-1 alpha-3)") }, at: iso3.lowerBound)
        }
        let name = row.column(CountryColumn.name)
        if name.count > Int(MMS_MAX_STRING_LENGTH) {
            return try fault({ text.tooLongError(row, name, "the country name in \(CountryColumn.layout.describe(CountryColumn.name))") }, at: name.lowerBound)
        }
        let geonameID = row.column(CountryColumn.geonameID)
        var id: UInt32?
        if !geonameID.isEmpty {
            guard let value = text.readWholeNumber(geonameID, limit: UInt64(UInt32.max)) else {
                return try fault({ columnError(CountryColumn.geonameID, expected: "a geonameid (empty, or a whole number from 0 to \(UInt32.max))") }, at: geonameID.lowerBound)
            }
            id = UInt32(value)
        }
        if row.firstBadByte != Int.max { return try reject(text.badByteError(row)) }

        // Only a row with no other error can be the first of its code.
        if firstLines[slot] != 0 {
            let repeated = String(decoding: text.copy(code), as: UTF8.self)
            return try reject(text.error(row, at: row.start, "duplicate country code \(repeated); the first is on line \(firstLines[slot])"))
        }
        firstLines[slot] = row.line
        return CountryInfo(code: text.copy(code), iso3: text.copy(iso3), name: text.copy(name), geonameID: id)
    }

    /// Throws `error` by default; with `skipInvalid` notes it as the line's reason for being dropped.
    mutating func reject(_ error: MMSearchError) throws(MMSearchError) -> CountryInfo? {
        guard skipInvalid else { throw error }
        skipped.append(error)
        return nil
    }
}
