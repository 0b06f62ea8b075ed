import CMMSearchFormat
import MMSearch

/// The names an alternate names file gives, by the geonameid they name, each id's in file order.
public struct AlternateNames: Sendable, Equatable {
    /// The names of each geonameid that was asked for (`wanted`), from the rows that are names.
    public var byID: [UInt32: [[UInt8]]]
    /// Rows read, and of those the rows that are names of a wanted id (kept in `byID`).
    public var rowCount: Int
    public var keptCount: Int
    /// Of those, the names given to records (`IndexBuilder.addAlternateNames` counts them).
    public var recordNameCount: Int = 0
    /// One error per dropped row (its first), in input order. Empty unless `skipInvalid` was set.
    public var skipped: [MMSearchError]
    /// What the SOURCE section says of the file.
    public var file: SourceDescription.InputFile?

    public init(byID: [UInt32: [[UInt8]]] = [:], rowCount: Int = 0, keptCount: Int = 0, skipped: [MMSearchError] = [], file: SourceDescription.InputFile? = nil) {
        self.byID = byID
        self.rowCount = rowCount
        self.keptCount = keptCount
        self.skipped = skipped
        self.file = file
    }
}

/// A strict reader of GeoNames' alternateNamesV2.txt layout (10 tab-separated columns, no header):
///
///     1 alternateNameId  2 geonameid  3 isolanguage  4 alternate name  5 isPreferredName
///     6 isShortName  7 isColloquial  8 isHistoric  9 from  10 to
///
/// - Columns 1 and 2 are whole numbers from 0 to 2^32 - 1; columns 5 to 8 are empty or `1`; the name
///   is at most `MMS_MAX_STRING_LENGTH` bytes; every byte is well-formed UTF-8 and no control character.
/// - A row is a name unless its isolanguage is one of link, wkdt, post, iata, icao, faac, tcid, unlc,
///   fr_1793 (links, ids and codes), it is historic (column 8 is `1`) or its name is empty: `rank.py`'s
///   rule. Only names of ids `wanted` answers true for are kept: the file is streamed (`InputStream`),
///   so GeoNames' whole file (16 million rows, 700 MB) is read in bounded memory.
/// - Errors are `MMSearchError.invalidInput` with line, column (Unicode scalars, 1-based) and byte
///   offset in the content as read (decompressed). With `skipInvalid`, a row with an error is dropped
///   and its error noted instead.
public enum AlternateNamesParser {
    /// Reads the alternate names file at `path` (plain or gzip), keeping the names of the ids `wanted` accepts.
    public static func read(_ path: String, options: CityListParseOptions = CityListParseOptions(), wanted: (UInt32) -> Bool) throws(MMSearchError) -> AlternateNames {
        var parser = AlternateNamesFileParser(file: path, skipInvalid: options.skipInvalid)
        let file = try InputStream.read(path) { (piece, base) throws(MMSearchError) in
            try parser.parse(piece, base: base, wanted: wanted)
        }
        var names = parser.names
        guard names.rowCount > 0 else {
            throw .invalidInput(file: path, line: 1, column: 1, byteOffset: 0, message: "no rows: expected at least one alternate name row (10 tab-separated columns), found an empty input")
        }
        if names.rowCount == names.skipped.count, let first = names.skipped.first {
            throw TabSeparatedText(input: UnsafeRawBufferPointer(start: nil, count: 0), file: path, layout: AlternateNamesColumn.layout)
                .noValidRowError(rowCount: names.rowCount, firstSkipped: first)
        }
        names.file = file
        return names
    }

    /// Parses `bytes`, a whole file's content, keeping the names of the ids `wanted` accepts (tests, fuzzing).
    public static func parse(_ bytes: UnsafeRawBufferPointer, file: String, options: CityListParseOptions = CityListParseOptions(), wanted: (UInt32) -> Bool = { _ in true }) throws(MMSearchError) -> AlternateNames {
        var parser = AlternateNamesFileParser(file: file, skipInvalid: options.skipInvalid)
        try parser.parse(bytes, base: 0, wanted: wanted)
        return parser.names
    }
}

// MARK: - Parser

/// The file's columns, counted from 0.
private enum AlternateNamesColumn {
    static let alternateNameID = 0, geonameID = 1, language = 2, name = 3, isPreferred = 4, isHistoric = 7

    static let layout = TabSeparatedLayout(columnNames: [
        "alternateNameId", "geonameid", "isolanguage", "alternate name", "isPreferredName", "isShortName",
        "isColloquial", "isHistoric", "from", "to",
    ])

    /// isolanguage values that mark links, ids and codes rather than names (`rank.py`'s NOT_NAMES).
    static let notNames: Set<[UInt8]> = Set(["link", "wkdt", "post", "iata", "icao", "faac", "tcid", "unlc", "fr_1793"].map { Array($0.utf8) })
}

private struct AlternateNamesFileParser {
    let file: String
    let skipInvalid: Bool
    var names = AlternateNames()
    /// The line the next piece starts on.
    var line = 1

    init(file: String, skipInvalid: Bool) {
        self.file = file
        self.skipInvalid = skipInvalid
    }

    /// Parses the rows of `piece`, whole lines starting `base` bytes into the file's content.
    mutating func parse(_ piece: UnsafeRawBufferPointer, base: Int, wanted: (UInt32) -> Bool) throws(MMSearchError) {
        let text = TabSeparatedText(input: piece, file: file, layout: AlternateNamesColumn.layout, base: base)
        var position = text.textStart
        while position < text.end {
            let row = text.scanRow(from: position, line: line)
            names.rowCount += 1
            try readRow(row, in: text, wanted: wanted)
            position = row.end + 1
            line += 1
        }
    }

    /// Checks `row` and keeps its name if it is one of a wanted id.
    mutating func readRow(_ row: TabSeparatedRow, in text: TabSeparatedText, wanted: (UInt32) -> Bool) throws(MMSearchError) {
        let layout = AlternateNamesColumn.layout
        guard row.columnCount == layout.columnCount else { return try reject(text.columnCountError(row)) }
        // Each check reports at its column's start or later, so the columns are checked in order and
        // a bad byte before the first failing check is what comes first.
        func fault(_ error: () -> MMSearchError, at offset: Int) throws(MMSearchError) {
            try reject(text.firstError(row, error, at: offset))
        }
        func number(_ index: Int) -> UInt32? {
            text.readWholeNumber(row.column(index), limit: UInt64(UInt32.max)).map { UInt32($0) }
        }
        for index in [AlternateNamesColumn.alternateNameID, AlternateNamesColumn.geonameID] where number(index) == nil {
            let range = row.column(index)
            return try fault({ text.valueError(row, range, expected: "a whole number from 0 to \(UInt32.max)", in: layout.describe(index)) }, at: range.lowerBound)
        }
        let name = row.column(AlternateNamesColumn.name)
        if name.count > Int(MMS_MAX_STRING_LENGTH) {
            return try fault({ text.tooLongError(row, name, "the name in \(layout.describe(AlternateNamesColumn.name))") }, at: name.lowerBound)
        }
        for index in AlternateNamesColumn.isPreferred ... AlternateNamesColumn.isHistoric {
            let flag = row.column(index)
            guard flag.isEmpty || (flag.count == 1 && text.input[flag.lowerBound] == UInt8(ascii: "1")) else {
                return try fault({ text.valueError(row, flag, expected: #"empty or "1""#, in: layout.describe(index)) }, at: flag.lowerBound)
            }
        }
        if row.firstBadByte != Int.max { return try reject(text.badByteError(row)) }

        let id = number(AlternateNamesColumn.geonameID)!
        guard !name.isEmpty, wanted(id), row.column(AlternateNamesColumn.isHistoric).isEmpty else { return }
        let language = row.column(AlternateNamesColumn.language)
        if language.count <= 7, AlternateNamesColumn.notNames.contains(text.copy(language)) { return }
        names.byID[id, default: []].append(text.copy(name))
        names.keptCount += 1
    }

    /// Throws `error` by default; with `skipInvalid` notes it as the row's reason for being dropped.
    mutating func reject(_ error: MMSearchError) throws(MMSearchError) {
        guard skipInvalid else { throw error }
        names.skipped.append(error)
    }
}
