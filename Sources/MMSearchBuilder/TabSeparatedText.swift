import CMMSearchFormat
import MMSearch

// What the strict readers of GeoNames' tab-separated files (dumps, admin1CodesASCII.txt,
// countryInfo.txt) share: finding rows and their columns, the UTF-8 and control character checks,
// and the wording and placing of their errors. Each parser checks its own columns' values.

/// The columns of one kind of tab-separated file: a row has exactly as many as there are names.
struct TabSeparatedLayout {
    /// Each column's name, as error messages show it.
    let columnNames: [String]
    /// How many columns a row has, at most `TabSeparatedRow.maxColumnCount`.
    let columnCount: Int

    init(columnNames: [String]) {
        precondition(columnNames.count <= TabSeparatedRow.maxColumnCount)
        self.columnNames = columnNames
        self.columnCount = columnNames.count
    }

    /// "column 5 (latitude)" for the column counted from 0 as 4.
    func describe(_ index: Int) -> String {
        index < columnCount ? "column \(index + 1) (\(columnNames[index]))" : "column \(index + 1)"
    }
}

/// Where a row lies and what its scan found.
struct TabSeparatedRow {
    /// The most columns a layout may have: the room `columnStarts` has.
    static let maxColumnCount = 19

    /// The row's first byte.
    var start: Int
    /// The `\n` that ends it, or the end of the input.
    var end: Int
    /// The 1-based line it is on.
    var line: Int
    /// How many columns it has: one more than its tabs.
    var columnCount: Int
    /// The tab that starts a column past the layout's last, if there is one.
    var extraTab: Int
    /// The first byte that is invalid UTF-8 or a control character, or `Int.max`.
    var firstBadByte: Int
    /// Where each of its first columns (as many as the layout has) starts: a tuple, so that no row
    /// allocates.
    var columnStarts: ColumnStarts
    typealias ColumnStarts = (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int)

    /// The bytes of column `index` (counted from 0) of a row with the layout's column count, without its tab.
    func column(_ index: Int) -> Range<Int> {
        withUnsafeBytes(of: columnStarts) { starts in
            let starts = starts.bindMemory(to: Int.self)
            return starts[index] ..< (index + 1 < columnCount ? starts[index + 1] - 1 : end)
        }
    }

    var isEmpty: Bool { start == end }
}

/// A whole input read as rows of `layout`: UTF-8, rows ending at `\n`, columns separated by tabs,
/// one byte order mark at the very start skipped.
struct TabSeparatedText {
    let input: UnsafeRawBufferPointer
    let file: String
    let layout: TabSeparatedLayout
    /// Where the first line starts: after a byte order mark (EF BB BF), if the input starts with one.
    let textStart: Int

    /// Where `input` starts in the whole file: 0, or for a piece of a file read in pieces
    /// (`InputStream`) the byte offset of its first byte; errors name offsets in the whole file.
    let base: Int

    init(input: UnsafeRawBufferPointer, file: String, layout: TabSeparatedLayout, base: Int = 0) {
        self.input = input
        self.file = file
        self.layout = layout
        self.base = base
        let hasMark = base == 0 && input.count >= 3 && input[0] == 0xEF && input[1] == 0xBB && input[2] == 0xBF
        self.textStart = hasMark ? 3 : 0
    }

    var end: Int { input.count }

    /// Finds the row that starts at `start`: where it ends, where its columns start, and its first byte
    /// that is invalid UTF-8 or a control character. One pass over its bytes.
    func scanRow(from start: Int, line: Int) -> TabSeparatedRow {
        let columnCount = layout.columnCount
        var columnStarts: TabSeparatedRow.ColumnStarts = (start, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
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
                } else if byte == TabSeparatedByte.tab {
                    tabs += 1
                    if tabs < columnCount {
                        starts[tabs] = offset + 1
                    } else if tabs == columnCount {
                        extraTab = offset
                    }
                    offset += 1
                } else if byte == TabSeparatedByte.newline {
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
        return TabSeparatedRow(
            start: start, end: offset, line: line, columnCount: tabs + 1, extraTab: extraTab,
            firstBadByte: firstBadByte, columnStarts: columnStarts
        )
    }

    /// A copy of the bytes in `range`. (Rebasing makes it one block copy rather than a byte loop.)
    func copy(_ range: Range<Int>) -> [UInt8] {
        range.isEmpty ? [] : Array(UnsafeRawBufferPointer(rebasing: input[range]))
    }

    /// The digits in `range` as a number; nil if it is empty, holds anything but digits, or is over `limit`.
    func readWholeNumber(_ range: Range<Int>, limit: UInt64) -> UInt64? {
        guard !range.isEmpty else { return nil }
        var value: UInt64 = 0
        for offset in range {
            let byte = input[offset]
            guard TabSeparatedByte.isDigit(byte) else { return nil }
            let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times10.addingReportingOverflow(UInt64(byte - TabSeparatedByte.zero))
            guard !overflow, !carry, sum <= limit else { return nil }
            value = sum
        }
        return value
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

    func error(_ row: TabSeparatedRow, at offset: Int, _ message: String) -> MMSearchError {
        .invalidInput(file: file, line: row.line, column: column(of: offset, in: row), byteOffset: base + offset, message: message)
    }

    /// The row's first error: `error` (found by a check at `offset` or later) unless the row has a bad
    /// byte before `offset`. Parsers check a row's columns in order, so this gives the error at the
    /// lowest offset.
    func firstError(_ row: TabSeparatedRow, _ error: () -> MMSearchError, at offset: Int) -> MMSearchError {
        row.firstBadByte < offset ? badByteError(row) : error()
    }

    /// The 1-based column of `offset` in the row: Unicode scalars (bytes that do not continue a UTF-8
    /// sequence) from the row's start, which for the first row is after any byte order mark.
    func column(of offset: Int, in row: TabSeparatedRow) -> Int {
        var column = 1
        for index in row.start..<offset where input[index] & 0xC0 != 0x80 { column += 1 }
        return column
    }

    /// Which column (counted from 0) `offset` lies in.
    func columnIndex(of offset: Int, in row: TabSeparatedRow) -> Int {
        var index = 0
        for byteOffset in row.start..<offset where input[byteOffset] == TabSeparatedByte.tab { index += 1 }
        return index
    }

    /// The error for a row whose column count is not the layout's: at the row's start when it has too
    /// few, at the tab that starts the first column too many when it has too many.
    func columnCountError(_ row: TabSeparatedRow) -> MMSearchError {
        let expected = layout.columnCount
        let found = "expected \(expected) tab-separated columns, found \(row.columnCount)"
        if row.columnCount > expected {
            return error(row, at: row.extraTab, found + "; this tab starts a column after \(layout.describe(expected - 1))")
        }
        return error(row, at: row.start, found + (row.isEmpty ? " (an empty line)" : ""))
    }

    /// "expected `what` in `place`, found "text"", at the start of `range`, the text found.
    func valueError(_ row: TabSeparatedRow, _ range: Range<Int>, expected what: String, in place: String) -> MMSearchError {
        error(row, at: range.lowerBound, "expected \(what) in \(place), found \(quoted(range))")
    }

    func tooLongError(_ row: TabSeparatedRow, _ range: Range<Int>, _ what: String) -> MMSearchError {
        error(row, at: range.lowerBound, "\(what) is \(range.count) bytes of UTF-8, more than the limit of \(MMS_MAX_STRING_LENGTH)")
    }

    /// The error for the row's first byte that is invalid UTF-8 or a control character; `place` says
    /// where it is when that is not a column ("a comment line").
    func badByteError(_ row: TabSeparatedRow, in place: String? = nil) -> MMSearchError {
        let offset = row.firstBadByte
        let byte = input[offset]
        let column = place ?? layout.describe(columnIndex(of: offset, in: row))
        if byte == TabSeparatedByte.carriageReturn {
            let crlf = offset + 1 != row.end ? ""
                : place == nil ? ": a row ends at \"\\n\" alone, so a \"\\r\\n\" line end leaves \"\\r\" in the last column"
                : ": a line ends at \"\\n\" alone, so a \"\\r\\n\" line end leaves \"\\r\" at its end"
            return error(row, at: offset, "unexpected carriage return (U+000D) in \(column)\(crlf)")
        }
        if byte < 0x80 {
            return error(row, at: offset, "unexpected control character \(Self.scalarName(UInt32(byte))) in \(column)")
        }
        return error(row, at: offset, "invalid UTF-8 byte \(Self.hex(byte)) in \(column): \(utf8Fault(at: offset))")
    }

    /// The error for an input with no rows (`found` says what it has instead), at the text's start.
    func noRowsError(expected rowName: String, found: String) -> MMSearchError {
        .invalidInput(
            file: file, line: 1, column: 1, byteOffset: textStart,
            message: "no rows: expected at least one \(rowName), found \(found)"
        )
    }

    /// The error for an input whose `rowCount` rows were all dropped (`skipInvalid`), placed at the
    /// first skipped error and quoting it.
    func noValidRowError(rowCount: Int, firstSkipped: MMSearchError) -> MMSearchError {
        guard case let .invalidInput(_, line, column, offset, message) = firstSkipped else { return firstSkipped }
        let count = rowCount == 1 ? "the only row was skipped" : "all \(rowCount) rows were skipped"
        return .invalidInput(
            file: file, line: line, column: column, byteOffset: offset,
            message: "no valid row: \(count); the first: \(message)"
        )
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

enum TabSeparatedByte {
    static let tab = UInt8(ascii: "\t")
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let zero = UInt8(ascii: "0")

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- zero < 10 }
}
