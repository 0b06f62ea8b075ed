import CMMSearchFormat
import MMSearch

/// One row of a GeoNames dump, with the columns the builder uses. Columns are counted from 1 here,
/// as in error messages (`rank.py` counts them from 0: column 1 is its `cols[0]`).
public struct GeoNamesRow: Sendable, Equatable {
    /// Column 1, the geonameid.
    public var id: UInt32
    /// Column 2, the name: UTF-8 as given, validated; at most `MMS_MAX_STRING_LENGTH` bytes; may be empty.
    public var name: [UInt8]
    /// Column 3, the name in plain ASCII as GeoNames spells it (not checked to be ASCII); may be empty.
    public var asciiName: [UInt8]
    /// Column 4 split at every `,`, empty pieces kept (`"a,,b"` gives three); an empty column gives none.
    public var alternateNames: [[UInt8]]
    /// Column 5 in 1e-7 degree, within ±90 degrees.
    public var latitudeE7: Int32
    /// Column 6 in 1e-7 degree, within ±180 degrees.
    public var longitudeE7: Int32
    /// Column 9, the country code: empty, or two ASCII bytes each `A`-`Z` or `0`-`9`.
    public var country: [UInt8]
    /// Column 15; 0 where the column is empty.
    public var population: UInt64
    /// Column 11, the admin1 code (the region: "IL", "11"), as given; may be empty. With the country
    /// code it names the region in GeoNames' admin1CodesASCII.txt ("US.IL").
    public var admin1Code: [UInt8]

    public init(
        id: UInt32, name: [UInt8], asciiName: [UInt8], alternateNames: [[UInt8]],
        latitudeE7: Int32, longitudeE7: Int32, country: [UInt8], population: UInt64, admin1Code: [UInt8] = []
    ) {
        self.admin1Code = admin1Code
        self.id = id
        self.name = name
        self.asciiName = asciiName
        self.alternateNames = alternateNames
        self.latitudeE7 = latitudeE7
        self.longitudeE7 = longitudeE7
        self.country = country
        self.population = population
    }
}

/// A parsed GeoNames dump: the rows kept, and why any others were dropped.
public struct ParsedGeoNames: Sendable, Equatable {
    /// The rows kept, in input order.
    public var rows: [GeoNamesRow]
    /// One error per dropped row (its first), in input order. Empty unless `skipInvalid` was set.
    public var skipped: [MMSearchError]

    public init(rows: [GeoNamesRow], skipped: [MMSearchError]) {
        self.rows = rows
        self.skipped = skipped
    }
}

/// A strict reader of GeoNames dumps (`cities500.txt`, `cities1000.txt`, `allCountries.txt` and the
/// like): UTF-8 text, one row a line, each row 19 columns separated by tabs:
///
///     1 geonameid  2 name  3 asciiname  4 alternatenames  5 latitude  6 longitude  7 feature class
///     8 feature code  9 country code  10 cc2  11-14 admin1 to admin4 codes  15 population
///     16 elevation  17 dem  18 timezone  19 modification date
///
/// Rows are read as `shared/peers/rank.py` (`geonames_rows`, `load`), the normative definition, reads
/// them: from a dump this parser accepts, both get the same rows and fields (except that this parser
/// skips a byte order mark, which would make `rank.py`'s first id unreadable). This parser refuses
/// more, such as ids written `+7` or ` 7`, which Python's `int` takes, and repeated ids.
///
/// ## What a dump must be
///
/// - The input is UTF-8; one byte order mark (EF BB BF) at the very start is skipped. Each row is one
///   line and ends at `\n`; the last may end at the end of the input instead (a final `\n` is not
///   followed by an empty row, but an empty line anywhere else is a row, of one column). A `\r` is
///   not part of a line end, so `\r\n` line ends are refused (see below). Error columns count Unicode
///   scalars from the line start, the mark excluded; a row's columns are counted from 1.
/// - There is at least one row (an empty dump is an error: building from it would replace an index
///   with one that finds nothing).
/// - Every row has exactly 19 columns (18 tabs), every column is valid UTF-8 (no overlongs, surrogates
///   or code points past U+10FFFF) without control characters U+0000 to U+001F other than the tabs
///   between columns. Columns the builder does not use are not checked further.
/// - Column 1, the geonameid, is digits only (no sign; leading zeros are allowed, as Python's `int`
///   allows them) from 0 to 4294967295, and no two rows have the same one: a row with an id an earlier
///   row has is an error at its id, whose message says which line the first is on. Ids are compared
///   once the whole dump is read (it is much cheaper), so any other error is reported before a
///   repeated id.
/// - Columns 2 and 3 (name, asciiname) and each comma-separated piece of column 4 (alternatenames)
///   are at most `MMS_MAX_STRING_LENGTH` (65,535) bytes; a longer one is an error at its start. They
///   may be empty; an empty column 4 means no alternate names.
/// - Columns 5 and 6 (latitude, longitude) are an optional `-`, digits, and an optional `.` and
///   digits, with at least one digit in all (`-.5` and `5.` are numbers; `+1`, `1e5`, `nan`, `inf`,
///   ` 1` and `.` are not). They are converted exactly from their decimal text (never through
///   `Double`) to whole multiples of 1e-7 degree, rounded to the nearest with ties away from zero:
///   `0.00000005` gives 1. The rounded value must lie within ±90 (latitude) or ±180 (longitude) degrees.
/// - Column 9, the country code, is empty or two characters each `A`-`Z` or `0`-`9`.
/// - Column 15, the population, is empty (read as 0) or digits only, at most 18446744073709551615.
///
/// ## What is rejected, and what `skipInvalid` skips
///
/// Every failure is `MMSearchError.invalidInput` with the line, column and byte offset of the
/// offending byte and a message saying what was expected and what was found, naming the column
/// (`cities.txt:3:1: expected a geonameid (a whole number from 0 to 4294967295) in column 1, found
/// "x12"`). A value that is not what its column needs is reported at the column's start; invalid
/// UTF-8 or a control character at the byte itself (a `\r` as "unexpected carriage return"). A row
/// whose column count is not 19 is reported as such before anything else in it is checked, since its
/// columns cannot be told apart: at the row's start when there are too few, at the tab that starts
/// a 20th column when there are too many.
///
/// As every row ends at the next `\n` whatever it holds, every fault in a row is a content error, which
/// `skipInvalid` skips. By default the first error is thrown: the first in input order (within a row,
/// the one at the lowest offset), except that repeated ids come last. With `skipInvalid`, a row with
/// an error is dropped and its first error kept in `ParsedGeoNames.skipped`, in input order. Of the
/// rows sharing an id, the first one kept stays and the later ones are dropped; a row dropped for
/// another error does not count. Two errors are thrown even with `skipInvalid`: an input with no
/// rows at all, and one whose every row was dropped.
public enum GeoNamesParser {
    /// Parses a whole dump; with `options.skipInvalid`, rows with errors are dropped and listed in
    /// `skipped` rather than thrown. `file` is used only in error messages.
    public static func parse(
        _ bytes: UnsafeRawBufferPointer, file: String, options: CityListParseOptions
    ) throws(MMSearchError) -> ParsedGeoNames {
        var parser = DumpParser(input: bytes, file: file, skipInvalid: options.skipInvalid)
        return try parser.parseDump()
    }

    /// Parses a whole dump held in an array.
    public static func parse(
        _ bytes: [UInt8], file: String, options: CityListParseOptions = CityListParseOptions()
    ) throws(MMSearchError) -> ParsedGeoNames {
        try bytes.withRawBytes { (raw) throws(MMSearchError) in try parse(raw, file: file, options: options) }
    }
}

/// The two kinds of input the builder reads.
public enum InputKind: Sendable, Equatable {
    /// OpenWeatherMap's JSON city list, read by `CityListParser`.
    case cityListJSON
    /// A GeoNames dump, read by `GeoNamesParser`.
    case geoNamesDump
}

extension InputKind {
    /// Which kind `bytes` (already decompressed) are, from their content alone, whatever the file is
    /// called: after a UTF-8 byte order mark at the very start and any ASCII whitespace (space, tab,
    /// `\n`, `\r`), a `[` means the JSON list and anything else (the end of the input included) a
    /// GeoNames dump. A dump row starts with a digit, so it is never taken for the list; a broken
    /// list that still starts with `[` gets the JSON parser's messages, and any other input is read as
    /// a dump, whose errors say what a dump row needs.
    ///
    /// ```swift
    /// InputKind.detect(UnsafeRawBufferPointer(start: nil, count: 0))   // .geoNamesDump
    /// ```
    public static func detect(_ bytes: UnsafeRawBufferPointer) -> InputKind {
        var offset = 0
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { offset = 3 }
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0A, 0x0D: offset += 1
            case UInt8(ascii: "["): return .cityListJSON
            default: return .geoNamesDump
            }
        }
        return .geoNamesDump
    }
}

// MARK: - Parser

/// The dump's columns, counted from 0 as `rank.py` counts them.
private enum DumpColumn {
    static let count = 19
    static let id = 0, name = 1, asciiName = 2, alternateNames = 3, latitude = 4, longitude = 5
    static let country = 8, admin1Code = 10, population = 14

    static let names = [
        "geonameid", "name", "asciiname", "alternatenames", "latitude", "longitude", "feature class",
        "feature code", "country code", "cc2", "admin1 code", "admin2 code", "admin3 code", "admin4 code",
        "population", "elevation", "dem", "timezone", "modification date",
    ]

    /// "column 5 (latitude)" for the column counted from 0 as 4.
    static func describe(_ index: Int) -> String {
        index < count ? "column \(index + 1) (\(names[index]))" : "column \(index + 1)"
    }
}

private enum DumpByte {
    static let tab = UInt8(ascii: "\t")
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let comma = UInt8(ascii: ",")
    static let minus = UInt8(ascii: "-")
    static let dot = UInt8(ascii: ".")
    static let zero = UInt8(ascii: "0")

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- zero < 10 }
}

private enum Axis {
    case latitude, longitude
    static let both: [Axis] = [.latitude, .longitude]
    var name: String { self == .latitude ? "latitude" : "longitude" }
    var column: Int { self == .latitude ? DumpColumn.latitude : DumpColumn.longitude }
    var limitDegrees: Int64 { self == .latitude ? 90 : 180 }
}

/// Where a row lies and what its scan found.
private struct RowScan {
    /// The row's first byte.
    var start: Int
    /// The `\n` that ends it, or the end of the input.
    var end: Int
    /// The 1-based line it is on.
    var line: Int
    /// How many columns it has: one more than its tabs.
    var columnCount: Int
    /// The tab that starts a 20th column, if there is one.
    var extraTab: Int
    /// The first byte that is invalid UTF-8 or a control character, or `Int.max`.
    var firstBadByte: Int
    /// Where each of its first 19 columns starts (a tuple, so that no row allocates).
    var columnStarts: ColumnStarts
    typealias ColumnStarts = (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int)

    /// The bytes of column `index` (counted from 0) of a row of 19 columns, without its tab.
    func column(_ index: Int) -> Range<Int> {
        withUnsafeBytes(of: columnStarts) { starts in
            let starts = starts.bindMemory(to: Int.self)
            return starts[index] ..< (index + 1 < DumpColumn.count ? starts[index + 1] - 1 : end)
        }
    }
}

private struct DumpParser {
    let input: UnsafeRawBufferPointer
    let file: String
    let skipInvalid: Bool
    var skipped: [MMSearchError] = []
    /// Country codes seen so far, indexed by `countryCodeSlot`, so that rows share one array per code
    /// instead of allocating one each.
    var countryCodes = [[UInt8]](repeating: [], count: 36 * 36)
    /// The line and the start of each row kept so far, for `rejectRepeatedIDs`.
    var keptLines: [Int] = []
    var keptStarts: [Int] = []

    init(input: UnsafeRawBufferPointer, file: String, skipInvalid: Bool) {
        self.input = input
        self.file = file
        self.skipInvalid = skipInvalid
    }

    var end: Int { input.count }

    // MARK: Rows

    mutating func parseDump() throws(MMSearchError) -> ParsedGeoNames {
        var position = 0
        if end >= 3 && input[0] == 0xEF && input[1] == 0xBB && input[2] == 0xBF { position = 3 }
        guard position < end else {
            throw MMSearchError.invalidInput(
                file: file, line: 1, column: 1, byteOffset: position,
                message: "no rows: expected at least one GeoNames row, found an empty input"
            )
        }
        // cities500.txt spends about 140 bytes a row, allCountries.txt more.
        var rows: [GeoNamesRow] = []
        rows.reserveCapacity(end / 128)
        keptLines.reserveCapacity(end / 128)
        keptStarts.reserveCapacity(end / 128)
        var line = 1
        var rowCount = 0
        while position < end {
            rowCount += 1
            let scan = scanRow(from: position, line: line)
            if let row = try readRow(scan) {
                rows.append(row)
                keptLines.append(line)
                keptStarts.append(scan.start)
            }
            position = scan.end + 1
            line += 1
        }
        try rejectRepeatedIDs(in: &rows)
        if rows.isEmpty, let first = skipped.first, case let .invalidInput(_, line, column, offset, message) = first {
            let count = rowCount == 1 ? "the only row was skipped" : "all \(rowCount) rows were skipped"
            throw MMSearchError.invalidInput(
                file: file, line: line, column: column, byteOffset: offset,
                message: "no valid row: \(count); the first: \(message)"
            )
        }
        return ParsedGeoNames(rows: rows, skipped: skipped)
    }

    /// Finds the row that starts at `start`: where it ends, where its columns start, and its first byte
    /// that is invalid UTF-8 or a control character. One pass over its bytes.
    func scanRow(from start: Int, line: Int) -> RowScan {
        var columnStarts: RowScan.ColumnStarts = (start, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var tabs = 0
        var extraTab = -1
        var firstBadByte = Int.max
        var offset = start
        withUnsafeMutableBytes(of: &columnStarts) { starts in
            let starts = starts.bindMemory(to: Int.self)
            while offset < end {
                let byte = input[offset]
                if byte >= 0x20 && byte < 0x80 {
                    offset += 1
                } else if byte == DumpByte.tab {
                    tabs += 1
                    if tabs < DumpColumn.count {
                        starts[tabs] = offset + 1
                    } else if tabs == DumpColumn.count {
                        extraTab = offset
                    }
                    offset += 1
                } else if byte == DumpByte.newline {
                    break
                } else if byte < 0x80 {  // Another control character.
                    if firstBadByte == Int.max { firstBadByte = offset }
                    offset += 1
                } else {
                    let length = Self.sequenceLength(input, at: offset)
                    if length == 0 {
                        if firstBadByte == Int.max { firstBadByte = offset }
                        offset += 1
                    } else {
                        offset += length
                    }
                }
            }
        }
        return RowScan(
            start: start, end: offset, line: line, columnCount: tabs + 1, extraTab: extraTab,
            firstBadByte: firstBadByte, columnStarts: columnStarts
        )
    }

    /// The row `scan` found, checked and copied out; nil if it had an error and `skipInvalid` is set.
    mutating func readRow(_ scan: RowScan) throws(MMSearchError) -> GeoNamesRow? {
        guard scan.columnCount == DumpColumn.count else { return try reject(columnCountError(scan)) }
        // Each check reports at its column's start, or later, so the columns are checked in order and
        // a bad byte before the first failing check is what comes first.
        func fault(_ error: () -> MMSearchError, at offset: Int) throws(MMSearchError) -> GeoNamesRow? {
            try reject(scan.firstBadByte < offset ? badByteError(scan) : error())
        }

        let idColumn = scan.column(DumpColumn.id)
        guard let id = readWholeNumber(idColumn, limit: UInt64(UInt32.max)) else {
            return try fault({ columnError(scan, DumpColumn.id, expected: "a geonameid (a whole number from 0 to \(UInt32.max))") }, at: idColumn.lowerBound)
        }
        let name = scan.column(DumpColumn.name)
        if name.count > Int(MMS_MAX_STRING_LENGTH) {
            return try fault({ tooLongError(scan, name, "the name in \(DumpColumn.describe(DumpColumn.name))") }, at: name.lowerBound)
        }
        let asciiName = scan.column(DumpColumn.asciiName)
        if asciiName.count > Int(MMS_MAX_STRING_LENGTH) {
            return try fault({ tooLongError(scan, asciiName, "the asciiname in \(DumpColumn.describe(DumpColumn.asciiName))") }, at: asciiName.lowerBound)
        }
        let alternates = scan.column(DumpColumn.alternateNames)
        if alternates.count > Int(MMS_MAX_STRING_LENGTH), let piece = longPiece(in: alternates) {
            return try fault({ tooLongError(scan, piece, "an alternate name in \(DumpColumn.describe(DumpColumn.alternateNames))") }, at: piece.lowerBound)
        }
        var latitude: Int32 = 0, longitude: Int32 = 0
        for axis in Axis.both {
            let column = scan.column(axis.column)
            switch readDegrees(column, limit: axis.limitDegrees) {
            case let .value(value):
                if axis == .latitude { latitude = value } else { longitude = value }
            case .notANumber:
                return try fault({ columnError(scan, axis.column, expected: "a \(axis.name) (a decimal number of degrees: an optional '-', digits, and an optional '.' and digits)") }, at: column.lowerBound)
            case .outOfRange:
                return try fault({ columnError(scan, axis.column, expected: "a \(axis.name) from -\(axis.limitDegrees) to \(axis.limitDegrees) degrees") }, at: column.lowerBound)
            }
        }
        let countryColumn = scan.column(DumpColumn.country)
        guard let country = readCountry(countryColumn) else {
            return try fault({ columnError(scan, DumpColumn.country, expected: "a country code (empty, or two characters A-Z or 0-9: ISO 3166-1 alpha-2)") }, at: countryColumn.lowerBound)
        }
        let populationColumn = scan.column(DumpColumn.population)
        guard let population = populationColumn.isEmpty ? 0 : readWholeNumber(populationColumn, limit: UInt64.max) else {
            return try fault({ columnError(scan, DumpColumn.population, expected: "a population (empty, or a whole number from 0 to \(UInt64.max))") }, at: populationColumn.lowerBound)
        }
        if scan.firstBadByte != Int.max { return try reject(badByteError(scan)) }

        return GeoNamesRow(
            id: UInt32(id), name: copy(name), asciiName: copy(asciiName), alternateNames: split(alternates),
            latitudeE7: latitude, longitudeE7: longitude, country: country, population: population,
            admin1Code: copy(scan.column(DumpColumn.admin1Code))
        )
    }

    /// Throws `error` by default; with `skipInvalid` notes it as the row's reason for being dropped.
    mutating func reject(_ error: MMSearchError) throws(MMSearchError) -> GeoNamesRow? {
        guard skipInvalid else { throw error }
        skipped.append(error)
        return nil
    }

    /// Rejects each row whose id an earlier row kept already has: with `skipInvalid` it is dropped,
    /// its error put among the others in input order; otherwise the first is thrown. As in
    /// `CityListParser`, this runs once the whole dump is read, and first only asks whether any id
    /// repeats, by sorting a copy of the ids: a few sequential passes rather than a cache miss per id.
    mutating func rejectRepeatedIDs(in rows: inout [GeoNamesRow]) throws(MMSearchError) {
        guard InputRules.hasRepeats(rows.map { $0.id }) else { return }
        // Rare from here on: find where each id is first, and drop the repeats.
        var firstLines: [UInt32: Int] = [:]
        var kept: [GeoNamesRow] = []
        var repeats: [MMSearchError] = []
        for (index, row) in rows.enumerated() {
            guard let firstLine = firstLines[row.id] else {
                firstLines[row.id] = keptLines[index]
                kept.append(row)
                continue
            }
            let repeated = MMSearchError.invalidInput(
                file: file, line: keptLines[index], column: 1, byteOffset: keptStarts[index],
                message: "duplicate geonameid \(row.id) in column 1; the first is on line \(firstLine)"
            )
            guard skipInvalid else { throw repeated }
            repeats.append(repeated)
        }
        rows = kept
        func offset(_ error: MMSearchError) -> Int {
            if case let .invalidInput(_, _, _, byteOffset, _) = error { return byteOffset }
            return 0
        }
        skipped = (skipped + repeats).sorted { offset($0) < offset($1) }
    }


    // MARK: Fields

    /// The digits in `range` as a number; nil if it is empty, holds anything but digits, or is over `limit`.
    func readWholeNumber(_ range: Range<Int>, limit: UInt64) -> UInt64? {
        guard !range.isEmpty else { return nil }
        var value: UInt64 = 0
        for offset in range {
            let byte = input[offset]
            guard DumpByte.isDigit(byte) else { return nil }
            let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times10.addingReportingOverflow(UInt64(byte - DumpByte.zero))
            guard !overflow, !carry, sum <= limit else { return nil }
            value = sum
        }
        return value
    }

    enum Degrees { case value(Int32), notANumber, outOfRange }

    /// Reads `[-]digits[.digits]` (at least one digit) as a whole count of 1e-7 degree, rounded to the
    /// nearest with ties away from zero, exactly from the decimal digits; out of range past ±`limit`.
    func readDegrees(_ range: Range<Int>, limit: Int64) -> Degrees {
        var offset = range.lowerBound
        let isNegative = offset < range.upperBound && input[offset] == DumpByte.minus
        if isNegative { offset += 1 }
        let integerStart = offset
        while offset < range.upperBound && DumpByte.isDigit(input[offset]) { offset += 1 }
        let integerDigits = integerStart..<offset
        var fractionDigits = offset..<offset
        if offset < range.upperBound && input[offset] == DumpByte.dot {
            offset += 1
            let fractionStart = offset
            while offset < range.upperBound && DumpByte.isDigit(input[offset]) { offset += 1 }
            fractionDigits = fractionStart..<offset
        }
        guard offset == range.upperBound, !(integerDigits.isEmpty && fractionDigits.isEmpty) else { return .notANumber }

        var first = integerDigits.lowerBound
        while first < integerDigits.upperBound && input[first] == DumpByte.zero { first += 1 }
        // Past three whole digits no coordinate is in range (and the value could overflow).
        guard integerDigits.upperBound - first <= 3 else { return .outOfRange }
        var magnitude: Int64 = 0
        for index in first..<integerDigits.upperBound { magnitude = magnitude * 10 + Int64(input[index] - DumpByte.zero) }
        var fractionOffset = fractionDigits.lowerBound
        for _ in 0..<7 {
            var digit: Int64 = 0
            if fractionOffset < fractionDigits.upperBound {
                digit = Int64(input[fractionOffset] - DumpByte.zero)
                fractionOffset += 1
            }
            magnitude = magnitude * 10 + digit
        }
        // The first dropped digit decides: 5 or more is at least a half, which rounds away from zero.
        if fractionOffset < fractionDigits.upperBound && input[fractionOffset] >= UInt8(ascii: "5") { magnitude += 1 }
        guard magnitude <= limit * Coordinate.scale else { return .outOfRange }
        return .value(Int32(isNegative ? -magnitude : magnitude))
    }

    /// The country code in `range`, shared with earlier rows that have it; nil if it is not empty or a code.
    mutating func readCountry(_ range: Range<Int>) -> [UInt8]? {
        if range.isEmpty { return [] }
        guard range.count == 2 else { return nil }
        let first = input[range.lowerBound], second = input[range.lowerBound + 1]
        guard let slot = InputRules.countryCodeSlot(first, second) else { return nil }
        if countryCodes[slot].isEmpty { countryCodes[slot] = [first, second] }
        return countryCodes[slot]
    }


    /// The first comma-separated piece of `range` longer than `MMS_MAX_STRING_LENGTH` bytes, if any.
    func longPiece(in range: Range<Int>) -> Range<Int>? {
        var pieceStart = range.lowerBound
        for offset in range where input[offset] == DumpByte.comma {
            if offset - pieceStart > Int(MMS_MAX_STRING_LENGTH) { return pieceStart..<offset }
            pieceStart = offset + 1
        }
        return range.upperBound - pieceStart > Int(MMS_MAX_STRING_LENGTH) ? pieceStart..<range.upperBound : nil
    }

    /// `range` split at every comma, as Python's `split(",")`, except that an empty range gives no piece.
    func split(_ range: Range<Int>) -> [[UInt8]] {
        guard !range.isEmpty else { return [] }
        var pieces: [[UInt8]] = []
        var pieceStart = range.lowerBound
        for offset in range where input[offset] == DumpByte.comma {
            pieces.append(copy(pieceStart..<offset))
            pieceStart = offset + 1
        }
        pieces.append(copy(pieceStart..<range.upperBound))
        return pieces
    }

    /// A copy of the bytes in `range`. (Rebasing makes it one block copy rather than a byte loop.)
    func copy(_ range: Range<Int>) -> [UInt8] {
        range.isEmpty ? [] : Array(UnsafeRawBufferPointer(rebasing: input[range]))
    }

    // MARK: UTF-8

    /// The length of the well-formed UTF-8 sequence led by the non-ASCII byte at `offset` (Unicode's
    /// table 3-7 of well-formed byte sequences); 0 if it does not lead one.
    @inline(__always)
    static func sequenceLength(_ input: UnsafeRawBufferPointer, at offset: Int) -> Int {
        let lead = input[offset]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: return 0
        }
        guard offset + length <= input.count, secondRange.contains(input[offset + 1]) else { return 0 }
        for index in offset + 2 ..< offset + length where input[index] & 0xC0 != 0x80 { return 0 }
        return length
    }

    /// Why the non-ASCII byte at `offset` does not lead a well-formed sequence.
    func utf8Fault(at offset: Int) -> StaticString {
        let lead = input[offset]
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        var narrowed: StaticString = ""
        switch lead {
        case 0xE0: secondRange = 0xA0...0xBF; narrowed = "it starts an overlong encoding"
        case 0xED: secondRange = 0x80...0x9F; narrowed = "it starts an encoded UTF-16 surrogate"
        case 0xF0: secondRange = 0x90...0xBF; narrowed = "it starts an overlong encoding"
        case 0xF4: secondRange = 0x80...0x8F; narrowed = "it starts a code point past U+10FFFF"
        case 0x80...0xBF: return "a continuation byte with no lead byte"
        case 0xC0, 0xC1: return "it only starts overlong encodings"
        case 0xF5...0xFF: return "it never occurs in UTF-8"
        default: break
        }
        guard offset + 1 < end && input[offset + 1] & 0xC0 == 0x80 else { return "a sequence cut short" }
        guard secondRange.contains(input[offset + 1]) else { return narrowed }
        return "a sequence cut short"
    }

    // MARK: Errors (only built when reported)

    func error(_ scan: RowScan, at offset: Int, _ message: String) -> MMSearchError {
        .invalidInput(file: file, line: scan.line, column: column(of: offset, in: scan), byteOffset: offset, message: message)
    }

    /// The 1-based column of `offset` in the row: Unicode scalars (bytes that do not continue a UTF-8
    /// sequence) from the row's start, which for the first row is after any byte order mark.
    func column(of offset: Int, in scan: RowScan) -> Int {
        var column = 1
        for index in scan.start..<offset where input[index] & 0xC0 != 0x80 { column += 1 }
        return column
    }

    /// Which column (counted from 0) `offset` lies in.
    func columnIndex(of offset: Int, in scan: RowScan) -> Int {
        var index = 0
        for byteOffset in scan.start..<offset where input[byteOffset] == DumpByte.tab { index += 1 }
        return index
    }

    func columnCountError(_ scan: RowScan) -> MMSearchError {
        let found = "expected \(DumpColumn.count) tab-separated columns, found \(scan.columnCount)"
        if scan.columnCount > DumpColumn.count {
            return error(scan, at: scan.extraTab, found + "; this tab starts a column after \(DumpColumn.describe(DumpColumn.count - 1))")
        }
        return error(scan, at: scan.start, found + (scan.start == scan.end ? " (an empty line)" : ""))
    }

    /// "expected `what` in column N, found "text"", at the column's start.
    func columnError(_ scan: RowScan, _ index: Int, expected what: String) -> MMSearchError {
        let range = scan.column(index)
        return error(scan, at: range.lowerBound, "expected \(what) in column \(index + 1), found \(quoted(range))")
    }

    func tooLongError(_ scan: RowScan, _ range: Range<Int>, _ what: String) -> MMSearchError {
        error(scan, at: range.lowerBound, "\(what) is \(range.count) bytes of UTF-8, more than the limit of \(MMS_MAX_STRING_LENGTH)")
    }

    /// The error for the row's first byte that is invalid UTF-8 or a control character.
    func badByteError(_ scan: RowScan) -> MMSearchError {
        let offset = scan.firstBadByte
        let byte = input[offset]
        let column = DumpColumn.describe(columnIndex(of: offset, in: scan))
        if byte == DumpByte.carriageReturn {
            let crlf = offset + 1 == scan.end
                ? ": a row ends at \"\\n\" alone, so a \"\\r\\n\" line end leaves \"\\r\" in the last column"
                : ""
            return error(scan, at: offset, "unexpected carriage return (U+000D) in \(column)\(crlf)")
        }
        if byte < 0x80 {
            return error(scan, at: offset, "unexpected control character \(Self.scalarName(UInt32(byte))) in \(column)")
        }
        return error(scan, at: offset, "invalid UTF-8 byte \(Self.hex(byte)) in \(column): \(utf8Fault(at: offset))")
    }

    /// The text in `range` in double quotes for a message, control characters escaped, shortened when long.
    func quoted(_ range: Range<Int>) -> String {
        let shown = range.lowerBound ..< min(range.upperBound, range.lowerBound + 200)
        var text = ""
        for (count, scalar) in String(decoding: copy(shown), as: UTF8.self).unicodeScalars.enumerated() {
            if count == 40 { text += "…"; break }
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: text += "\\u" + Self.scalarName(scalar.value).dropFirst(2)
            default: text.unicodeScalars.append(scalar)
            }
        }
        return "\"\(text)\""
    }

    static func hex(_ byte: UInt8) -> String {
        "0x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
    }

    static func scalarName(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
