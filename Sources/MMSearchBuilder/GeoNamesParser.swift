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

    /// Parses a whole dump held in an array, as the other `parse` does: the rows that start in its
    /// first half on the caller's core and the rest on a second (`BuildConcurrency`), then joined
    /// (the same rows, skipped rows and errors as one pass: the first half's error comes first).
    public static func parse(
        _ bytes: [UInt8], file: String, options: CityListParseOptions = CityListParseOptions()
    ) throws(MMSearchError) -> ParsedGeoNames {
        // The later half starts after the first newline at or after the middle (none: it is empty).
        let middle = bytes[(bytes.count / 2)...].firstIndex(of: TabSeparatedByte.newline).map { $0 + 1 } ?? bytes.count
        var (read, later) = try BuildConcurrency.run({ () throws(MMSearchError) in
            try bytes.withRawBytes { (raw) throws(MMSearchError) in
                var parser = DumpParser(input: raw, file: file, skipInvalid: options.skipInvalid)
                return try parser.parseRows(before: middle, from: parser.text.textStart, line: 1)
            }
        }, beside: { () throws(MMSearchError) in
            try bytes.withRawBytes { (raw) throws(MMSearchError) in
                var parser = DumpParser(input: raw, file: file, skipInvalid: options.skipInvalid)
                let line = 1 + bytes[..<middle].count { $0 == TabSeparatedByte.newline }
                return try parser.parseRows(before: raw.count, from: max(middle, parser.text.textStart), line: line)
            }
        })
        read.append(later)
        return try bytes.withRawBytes { (raw) throws(MMSearchError) in
            var parser = DumpParser(input: raw, file: file, skipInvalid: options.skipInvalid)
            return try parser.finish(read)
        }
    }
}

/// The rows a `DumpParser` read from a run of the input: what `finish` checks and returns.
private struct DumpRows: Sendable {
    var rows: [GeoNamesRow] = []
    /// The line and the start of each row kept, for `rejectRepeatedIDs`.
    var keptLines: [Int] = []
    var keptStarts: [Int] = []
    var skipped: [MMSearchError] = []
    /// Every row read, kept or not.
    var rowCount = 0

    /// `later`'s rows (read from the input after these) added after these, in place.
    mutating func append(_ later: DumpRows) {
        rows += later.rows
        keptLines += later.keptLines
        keptStarts += later.keptStarts
        skipped += later.skipped
        rowCount += later.rowCount
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
    static let id = 0, name = 1, asciiName = 2, alternateNames = 3, latitude = 4, longitude = 5
    static let country = 8, admin1Code = 10, population = 14

    static let layout = TabSeparatedLayout(columnNames: [
        "geonameid", "name", "asciiname", "alternatenames", "latitude", "longitude", "feature class",
        "feature code", "country code", "cc2", "admin1 code", "admin2 code", "admin3 code", "admin4 code",
        "population", "elevation", "dem", "timezone", "modification date",
    ])

    /// "column 5 (latitude)" for the column counted from 0 as 4.
    static func describe(_ index: Int) -> String { layout.describe(index) }
}

private enum DumpByte {
    static let comma = UInt8(ascii: ",")
    static let minus = UInt8(ascii: "-")
    static let dot = UInt8(ascii: ".")
}

private enum Axis {
    case latitude, longitude
    static let both: [Axis] = [.latitude, .longitude]
    var name: String { self == .latitude ? "latitude" : "longitude" }
    var column: Int { self == .latitude ? DumpColumn.latitude : DumpColumn.longitude }
    var limitDegrees: Int64 { self == .latitude ? 90 : 180 }
}

private struct DumpParser {
    let text: TabSeparatedText
    let skipInvalid: Bool
    var skipped: [MMSearchError] = []
    /// Country codes seen so far, indexed by `countryCodeSlot`, so that rows share one array per code
    /// instead of allocating one each.
    var countryCodes = [[UInt8]](repeating: [], count: 36 * 36)

    init(input: UnsafeRawBufferPointer, file: String, skipInvalid: Bool) {
        self.text = TabSeparatedText(input: input, file: file, layout: DumpColumn.layout)
        self.skipInvalid = skipInvalid
    }

    var input: UnsafeRawBufferPointer { text.input }
    var file: String { text.file }
    var end: Int { text.end }

    // MARK: Rows

    mutating func parseDump() throws(MMSearchError) -> ParsedGeoNames {
        try finish(parseRows(before: end, from: text.textStart, line: 1))
    }

    /// The rows that start from `start` (a row's start, on line `line`) and before `limit`.
    mutating func parseRows(before limit: Int, from start: Int, line: Int) throws(MMSearchError) -> DumpRows {
        var read = DumpRows()
        // cities500.txt spends about 140 bytes a row, allCountries.txt more.
        let expected = max(limit - start, 0) / 128
        read.rows.reserveCapacity(expected)
        read.keptLines.reserveCapacity(expected)
        read.keptStarts.reserveCapacity(expected)
        var position = start, line = line
        while position < limit {
            read.rowCount += 1
            let scan = text.scanRow(from: position, line: line)
            if let row = try readRow(scan) {
                read.rows.append(row)
                read.keptLines.append(line)
                read.keptStarts.append(scan.start)
            }
            position = scan.end + 1
            line += 1
        }
        read.skipped = skipped
        return read
    }

    /// The dump's rows, `read` from the whole input, with the rows that repeat an id dropped; refused
    /// when it has none.
    mutating func finish(_ read: DumpRows) throws(MMSearchError) -> ParsedGeoNames {
        guard text.textStart < end else { throw text.noRowsError(expected: "GeoNames row", found: "an empty input") }
        var rows = read.rows
        skipped = read.skipped
        try rejectRepeatedIDs(in: &rows, keptLines: read.keptLines, keptStarts: read.keptStarts)
        if rows.isEmpty, let first = skipped.first {
            throw text.noValidRowError(rowCount: read.rowCount, firstSkipped: first)
        }
        return ParsedGeoNames(rows: rows, skipped: skipped)
    }

    /// The row `scan` found, checked and copied out; nil if it had an error and `skipInvalid` is set.
    mutating func readRow(_ scan: TabSeparatedRow) throws(MMSearchError) -> GeoNamesRow? {
        guard scan.columnCount == DumpColumn.layout.columnCount else { return try reject(text.columnCountError(scan)) }
        // Each check reports at its column's start, or later, so the columns are checked in order and
        // a bad byte before the first failing check is what comes first.
        func fault(_ error: () -> MMSearchError, at offset: Int) throws(MMSearchError) -> GeoNamesRow? {
            try reject(text.firstError(scan, error, at: offset))
        }

        let idColumn = scan.column(DumpColumn.id)
        guard let id = text.readWholeNumber(idColumn, limit: UInt64(UInt32.max)) else {
            return try fault({ columnError(scan, DumpColumn.id, expected: "a geonameid (a whole number from 0 to \(UInt32.max))") }, at: idColumn.lowerBound)
        }
        let name = scan.column(DumpColumn.name)
        if name.count > Int(MMS_MAX_STRING_LENGTH) {
            return try fault({ text.tooLongError(scan, name, "the name in \(DumpColumn.describe(DumpColumn.name))") }, at: name.lowerBound)
        }
        let asciiName = scan.column(DumpColumn.asciiName)
        if asciiName.count > Int(MMS_MAX_STRING_LENGTH) {
            return try fault({ text.tooLongError(scan, asciiName, "the asciiname in \(DumpColumn.describe(DumpColumn.asciiName))") }, at: asciiName.lowerBound)
        }
        let alternates = scan.column(DumpColumn.alternateNames)
        if alternates.count > Int(MMS_MAX_STRING_LENGTH), let piece = longPiece(in: alternates) {
            return try fault({ text.tooLongError(scan, piece, "an alternate name in \(DumpColumn.describe(DumpColumn.alternateNames))") }, at: piece.lowerBound)
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
        guard let population = populationColumn.isEmpty ? 0 : text.readWholeNumber(populationColumn, limit: UInt64.max) else {
            return try fault({ columnError(scan, DumpColumn.population, expected: "a population (empty, or a whole number from 0 to \(UInt64.max))") }, at: populationColumn.lowerBound)
        }
        if scan.firstBadByte != Int.max { return try reject(text.badByteError(scan)) }

        return GeoNamesRow(
            id: UInt32(id), name: text.copy(name), asciiName: text.copy(asciiName), alternateNames: split(alternates),
            latitudeE7: latitude, longitudeE7: longitude, country: country, population: population,
            admin1Code: text.copy(scan.column(DumpColumn.admin1Code))
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
    mutating func rejectRepeatedIDs(in rows: inout [GeoNamesRow], keptLines: [Int], keptStarts: [Int]) throws(MMSearchError) {
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

    enum Degrees { case value(Int32), notANumber, outOfRange }

    /// Reads `[-]digits[.digits]` (at least one digit) as a whole count of 1e-7 degree, rounded to the
    /// nearest with ties away from zero, exactly from the decimal digits; out of range past ±`limit`.
    func readDegrees(_ range: Range<Int>, limit: Int64) -> Degrees {
        var offset = range.lowerBound
        let isNegative = offset < range.upperBound && input[offset] == DumpByte.minus
        if isNegative { offset += 1 }
        let integerStart = offset
        while offset < range.upperBound && TabSeparatedByte.isDigit(input[offset]) { offset += 1 }
        let integerDigits = integerStart..<offset
        var fractionDigits = offset..<offset
        if offset < range.upperBound && input[offset] == DumpByte.dot {
            offset += 1
            let fractionStart = offset
            while offset < range.upperBound && TabSeparatedByte.isDigit(input[offset]) { offset += 1 }
            fractionDigits = fractionStart..<offset
        }
        guard offset == range.upperBound, !(integerDigits.isEmpty && fractionDigits.isEmpty) else { return .notANumber }

        var first = integerDigits.lowerBound
        while first < integerDigits.upperBound && input[first] == TabSeparatedByte.zero { first += 1 }
        // Past three whole digits no coordinate is in range (and the value could overflow).
        guard integerDigits.upperBound - first <= 3 else { return .outOfRange }
        var magnitude: Int64 = 0
        for index in first..<integerDigits.upperBound { magnitude = magnitude * 10 + Int64(input[index] - TabSeparatedByte.zero) }
        var fractionOffset = fractionDigits.lowerBound
        for _ in 0..<7 {
            var digit: Int64 = 0
            if fractionOffset < fractionDigits.upperBound {
                digit = Int64(input[fractionOffset] - TabSeparatedByte.zero)
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
            pieces.append(text.copy(pieceStart..<offset))
            pieceStart = offset + 1
        }
        pieces.append(text.copy(pieceStart..<range.upperBound))
        return pieces
    }

    /// "expected `what` in column N, found "text"", at the column's start.
    func columnError(_ scan: TabSeparatedRow, _ index: Int, expected what: String) -> MMSearchError {
        text.valueError(scan, scan.column(index), expected: what, in: "column \(index + 1)")
    }
}
