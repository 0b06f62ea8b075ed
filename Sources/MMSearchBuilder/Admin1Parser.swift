import CMMSearchFormat
import MMSearch

/// One row of GeoNames' admin1CodesASCII.txt: a first-level administrative division (a region: a US
/// state, a Swiss canton, one of GB's nations) and its name.
public struct Admin1Region: Sendable, Equatable {
    /// The "CC" of column 1's "CC.CODE": two ASCII bytes each `A`-`Z` or `0`-`9`, as a record's country code.
    public var country: [UInt8]
    /// The "CODE" of column 1's "CC.CODE", everything after the first `.`: not empty (`01`, `ENG`, `ZH`);
    /// at most `MMS_MAX_STRING_LENGTH` bytes.
    public var code: [UInt8]
    /// Column 2, the name: UTF-8 as given, validated; at most `MMS_MAX_STRING_LENGTH` bytes. May be
    /// empty, in which case `rank.py` gives a record no region.
    public var name: [UInt8]
    /// Column 4, geonameid: the region's id in GeoNames, by which the alternate names file gives its
    /// other names; nil when the column is empty.
    public var geonameID: UInt32?

    public init(country: [UInt8], code: [UInt8], name: [UInt8], geonameID: UInt32? = nil) {
        self.country = country
        self.code = code
        self.name = name
        self.geonameID = geonameID
    }
}

/// A parsed admin1CodesASCII.txt: the regions kept, and why any other rows were dropped.
public struct ParsedAdmin1: Sendable, Equatable {
    /// The regions kept, in input order.
    public var regions: [Admin1Region]
    /// One error per dropped row (its first), in input order. Empty unless `skipInvalid` was set.
    public var skipped: [MMSearchError]

    public init(regions: [Admin1Region], skipped: [MMSearchError]) {
        self.regions = regions
        self.skipped = skipped
    }
}

/// A strict reader of GeoNames' admin1CodesASCII.txt (the names of first-level administrative
/// divisions, published beside the dumps): UTF-8 text, one row a line, each row 4 columns separated
/// by tabs:
///
///     1 code ("CC.CODE": country code, ".", admin1 code)  2 name  3 asciiname  4 geonameid
///
/// Rows are read as `shared/peers/rank.py` (`admin1_names`), the normative definition, reads them: it
/// maps column 1 to column 2, and from a file this parser accepts both get the same map (except that
/// this parser skips a byte order mark, which `rank.py` would keep in the first code). This parser
/// refuses more: codes that are not "CC.CODE", and repeated codes, where `rank.py` keeps the last.
///
/// ## What a file must be
///
/// - The input is UTF-8; one byte order mark (EF BB BF) at the very start is skipped. Each row is one
///   line and ends at `\n`; the last may end at the end of the input instead (a final `\n` is not
///   followed by an empty row, but an empty line anywhere else is a row, of one column). A `\r` is
///   not part of a line end, so `\r\n` line ends are refused. Error columns count Unicode scalars
///   from the line start, the mark excluded; a row's columns are counted from 1.
/// - There is at least one row.
/// - Every row has exactly 4 columns (3 tabs), every column is valid UTF-8 (no overlongs, surrogates
///   or code points past U+10FFFF) without control characters U+0000 to U+001F other than the tabs
///   between columns. Column 3 is not checked further.
/// - Column 1 is "CC.CODE": before its first `.` a country code of two characters each `A`-`Z` or
///   `0`-`9` (GeoNames' ISO 3166-1 alpha-2 codes, as in column 9 of a dump), after it the admin1 code,
///   any text that is not empty (it may hold more `.`s), at most `MMS_MAX_STRING_LENGTH` (65,535)
///   bytes. No two rows have the same column 1: a repeat is an error at its row's start, whose
///   message says which line the first is on.
/// - Column 2, the name, is at most `MMS_MAX_STRING_LENGTH` bytes; it may be empty.
/// - Column 4, the geonameid, is empty (GeoNames always fills it; other sources may not) or digits
///   only, from 0 to 4294967295. (A `\r` that ends it is left to the carriage return error, so that a
///   file with `\r\n` line ends gets that error, not one about its geonameids.)
///
/// ## What is rejected, and what `skipInvalid` skips
///
/// Every failure is `MMSearchError.invalidInput` with the line, column and byte offset of the
/// offending byte and a message saying what was expected and what was found, naming the column
/// (`admin1CodesASCII.txt:3:1: expected a country code (two characters A-Z or 0-9) before the "." in
/// column 1 (code), found "usa"`). A value that is not what its column needs is reported at the start
/// of the text it quotes (the country code, the admin1 code after the `.`, or the column); invalid
/// UTF-8 or a control character at the byte itself (a `\r` as "unexpected carriage return"). A row
/// whose column count is not 4 is reported as such before anything else in it is checked: at the
/// row's start when there are too few, at the tab that starts a 5th column when there are too many.
///
/// Every fault in a row is a content error, which `skipInvalid` skips. By default the first error in
/// input order is thrown (within a row, the one at the lowest offset; a repeated code is only looked
/// for in a row with no other error). With `skipInvalid`, a row with an error is dropped and its first
/// error kept in `ParsedAdmin1.skipped`, in input order. Of the rows sharing a code, the first one
/// kept stays and the later ones are dropped; a row dropped for another error does not count. Two
/// errors are thrown even with `skipInvalid`: an input with no rows at all, and one whose every row
/// was dropped.
public enum Admin1Parser {
    /// Parses a whole admin1CodesASCII.txt; with `options.skipInvalid`, rows with errors are dropped
    /// and listed in `skipped` rather than thrown. `file` is used only in error messages.
    public static func parse(
        _ bytes: UnsafeRawBufferPointer, file: String, options: CityListParseOptions
    ) throws(MMSearchError) -> ParsedAdmin1 {
        var parser = Admin1FileParser(input: bytes, file: file, skipInvalid: options.skipInvalid)
        return try parser.parseFile()
    }

    /// Parses a whole admin1CodesASCII.txt held in an array.
    public static func parse(
        _ bytes: [UInt8], file: String, options: CityListParseOptions = CityListParseOptions()
    ) throws(MMSearchError) -> ParsedAdmin1 {
        try bytes.withRawBytes { (raw) throws(MMSearchError) in try parse(raw, file: file, options: options) }
    }
}

// MARK: - Parser

/// The file's columns, counted from 0 as `rank.py` counts them.
private enum Admin1Column {
    static let code = 0, name = 1, geonameID = 3

    static let layout = TabSeparatedLayout(columnNames: ["code", "name", "asciiname", "geonameid"])
}

private struct Admin1FileParser {
    let text: TabSeparatedText
    let skipInvalid: Bool
    var skipped: [MMSearchError] = []
    /// The line of each code ("CC.CODE", column 1's bytes) kept so far.
    var firstLines: [[UInt8]: Int] = [:]

    init(input: UnsafeRawBufferPointer, file: String, skipInvalid: Bool) {
        self.text = TabSeparatedText(input: input, file: file, layout: Admin1Column.layout)
        self.skipInvalid = skipInvalid
    }

    mutating func parseFile() throws(MMSearchError) -> ParsedAdmin1 {
        var position = text.textStart
        guard position < text.end else { throw text.noRowsError(expected: "admin1 row", found: "an empty input") }
        var regions: [Admin1Region] = []
        var line = 1
        var rowCount = 0
        while position < text.end {
            rowCount += 1
            let row = text.scanRow(from: position, line: line)
            if let region = try readRow(row) { regions.append(region) }
            position = row.end + 1
            line += 1
        }
        if regions.isEmpty, let first = skipped.first {
            throw text.noValidRowError(rowCount: rowCount, firstSkipped: first)
        }
        return ParsedAdmin1(regions: regions, skipped: skipped)
    }

    /// The region `row` holds, checked and copied out; nil if it had an error and `skipInvalid` is set.
    mutating func readRow(_ row: TabSeparatedRow) throws(MMSearchError) -> Admin1Region? {
        guard row.columnCount == Admin1Column.layout.columnCount else { return try reject(text.columnCountError(row)) }
        // Each check reports at its column's start or later, so the columns are checked in order and
        // a bad byte before the first failing check is what comes first.
        func fault(_ error: () -> MMSearchError, at offset: Int) throws(MMSearchError) -> Admin1Region? {
            try reject(text.firstError(row, error, at: offset))
        }
        let column1 = Admin1Column.layout.describe(Admin1Column.code)

        let codeColumn = row.column(Admin1Column.code)
        guard let dot = codeColumn.first(where: { text.input[$0] == UInt8(ascii: ".") }) else {
            return try fault({ text.valueError(row, codeColumn, expected: #"a code "CC.CODE" (a country code, a ".", and an admin1 code)"#, in: column1) }, at: codeColumn.lowerBound)
        }
        let country = codeColumn.lowerBound..<dot
        guard country.count == 2, InputRules.countryCodeSlot(text.input[dot - 2], text.input[dot - 1]) != nil else {
            return try fault({ text.valueError(row, country, expected: #"a country code (two characters A-Z or 0-9) before the ".""#, in: column1) }, at: country.lowerBound)
        }
        let code = dot + 1 ..< codeColumn.upperBound
        if code.isEmpty {
            return try fault({ text.valueError(row, code, expected: #"an admin1 code (at least one character) after the ".""#, in: column1) }, at: code.lowerBound)
        }
        if code.count > Int(MMS_MAX_STRING_LENGTH) {
            return try fault({ text.tooLongError(row, code, "the admin1 code in \(column1)") }, at: code.lowerBound)
        }
        let name = row.column(Admin1Column.name)
        if name.count > Int(MMS_MAX_STRING_LENGTH) {
            return try fault({ text.tooLongError(row, name, "the name in \(Admin1Column.layout.describe(Admin1Column.name))") }, at: name.lowerBound)
        }
        let geonameID = row.column(Admin1Column.geonameID)
        // Read without the "\r" of a "\r\n" line end, so that such a file is told about its line ends
        // rather than about its geonameids.
        let endsWithCarriageReturn = !geonameID.isEmpty && text.input[geonameID.upperBound - 1] == TabSeparatedByte.carriageReturn
        let digits = geonameID.lowerBound ..< geonameID.upperBound - (endsWithCarriageReturn ? 1 : 0)
        let id = digits.isEmpty ? nil : text.readWholeNumber(digits, limit: UInt64(UInt32.max)).map { UInt32($0) }
        if !digits.isEmpty && id == nil {
            return try fault({ text.valueError(row, geonameID, expected: "a geonameid (empty, or a whole number from 0 to \(UInt32.max))", in: Admin1Column.layout.describe(Admin1Column.geonameID)) }, at: geonameID.lowerBound)
        }
        if row.firstBadByte != Int.max { return try reject(text.badByteError(row)) }

        // Only a row with no other error can be the first of its code.
        let key = text.copy(codeColumn)
        if let firstLine = firstLines[key] {
            let repeated = String(decoding: key, as: UTF8.self)
            return try reject(text.error(row, at: row.start, "duplicate admin1 code \(repeated); the first is on line \(firstLine)"))
        }
        firstLines[key] = row.line
        return Admin1Region(country: text.copy(country), code: text.copy(code), name: text.copy(name), geonameID: id)
    }

    /// Throws `error` by default; with `skipInvalid` notes it as the row's reason for being dropped.
    mutating func reject(_ error: MMSearchError) throws(MMSearchError) -> Admin1Region? {
        guard skipInvalid else { throw error }
        skipped.append(error)
        return nil
    }
}
