import MMSearch
import Testing

/// One input a parser must refuse, and where and how: the 1-based line and column its error names,
/// and a fragment of the message. Both parsers' error tables are made of these.
struct BadInput: Sendable, CustomTestStringConvertible {
    var label: String
    var bytes: [UInt8]
    var line: Int
    var column: Int
    var fragment: String
    var testDescription: String { label }

    init(_ label: String, _ text: String, _ line: Int, _ column: Int, _ fragment: String) {
        self.init(label, Array(text.utf8), line, column, fragment)
    }

    init(_ label: String, _ bytes: [UInt8], _ line: Int, _ column: Int, _ fragment: String) {
        self.label = label
        self.bytes = bytes
        self.line = line
        self.column = column
        self.fragment = fragment
    }
}

extension BadInput {
    /// Expects `parse` (given the bytes and `file` as their file's name) to refuse this input with an
    /// `invalidInput` error that names the file, this line and column and a message holding this
    /// fragment, at a byte offset inside the input where that line and column are.
    func expectRefused(file name: String = "bad.txt", by parse: (_ bytes: [UInt8], _ file: String) throws -> Void,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(sourceLocation: sourceLocation) {
            try parse(bytes, name)
        } throws: { error in
            guard case let MMSearchError.invalidInput(file, line, column, byteOffset, message) = error else { return false }
            #expect(file == name, sourceLocation: sourceLocation)
            #expect(line == self.line && column == self.column, "\(message)", sourceLocation: sourceLocation)
            #expect(message.contains(fragment), "\(message)", sourceLocation: sourceLocation)
            // The byte offset is where line and column say.
            #expect(byteOffset >= 0 && byteOffset <= bytes.count, sourceLocation: sourceLocation)
            let place = naivePlace(of: min(max(byteOffset, 0), bytes.count), in: bytes)
            #expect(place.line == line && place.column == column, "byte \(byteOffset): \(message)", sourceLocation: sourceLocation)
            return true
        }
    }
}

extension BadInput {
    /// This input with `row` after it, on a line of its own: a good row that a parse skipping invalid
    /// rows must keep.
    func followed(by row: String) -> [UInt8] {
        bytes + (bytes.last == UInt8(ascii: "\n") ? [] : [UInt8(ascii: "\n")]) + Array(row.utf8)
    }

    /// The error `parse` (given `bytes` and the file name "bad.txt") throws, expected at this input's
    /// line and column: what a parse skipping invalid rows must note for this input. Nil, with an issue
    /// recorded, when it throws none.
    func strictError(parsing bytes: [UInt8], by parse: (_ bytes: [UInt8], _ file: String) throws(MMSearchError) -> Void,
                     sourceLocation: SourceLocation = #_sourceLocation) -> MMSearchError? {
        do {
            try parse(bytes, "bad.txt")
        } catch {
            #expect(placeAndMessage(error).hasPrefix("\(line):\(column): "), sourceLocation: sourceLocation)
            return error
        }
        Issue.record("no error", sourceLocation: sourceLocation)
        return nil
    }
}

/// A plausible row of a tab-separated input (GeoNames' files), its columns as given, for tests to
/// change one or two of.
struct TabRow: Sendable {
    let columns: [String]

    /// The row (without its line end), with `changes` (by column counted from 0).
    func row(_ changes: [Int: String] = [:]) -> String {
        columns.indices.map { changes[$0] ?? columns[$0] }.joined(separator: "\t")
    }

    /// The column (in scalars, from 1) where column `index` (counted from 0) of `row(changes)` starts.
    func start(of index: Int, _ changes: [Int: String] = [:]) -> Int {
        1 + (0 ..< index).reduce(0) { $0 + (changes[$1] ?? columns[$1]).unicodeScalars.count + 1 }
    }

    /// The row as bytes, with `bytes` as column `column` (counted from 0).
    func row(column: Int, bytes: [UInt8]) -> [UInt8] {
        var columns = self.columns.map { Array($0.utf8) }
        columns[column] = bytes
        return Array(columns.joined(separator: [UInt8(ascii: "\t")]))
    }
}

/// "line:column: message" of an `invalidInput` error.
func placeAndMessage(_ error: MMSearchError) -> String {
    guard case let .invalidInput(_, line, column, _, message) = error else { return "not invalidInput: \(error)" }
    return "\(line):\(column): \(message)"
}

/// Where `offset` is, worked out the slow way from the start: lines end at "\n", columns count bytes
/// that do not continue a UTF-8 sequence, a byte order mark excluded.
func naivePlace(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
    let textStart = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    var place = (line: 1, column: 1)
    for index in textStart..<offset {
        if bytes[index] == UInt8(ascii: "\n") {
            place = (place.line + 1, 1)
        } else if bytes[index] & 0xC0 != 0x80 {
            place.column += 1
        }
    }
    return place
}

/// The errors a parser noted for the rows or records it skipped (`skipInvalid`): each an
/// `invalidInput` whose line and column are where its byte offset is in `bytes`, in increasing order
/// of offset; `duplicate` checks the message of each repeated id, given with its line.
func expectSkippedInOrderAtTheirPlaces(_ skipped: [MMSearchError], in bytes: [UInt8],
                                       duplicate: (_ message: String, _ line: Int) -> Void) {
    var lastOffset = 0
    for error in skipped {
        guard case let .invalidInput(_, line, column, byteOffset, message) = error else {
            Issue.record("not invalidInput: \(error)")
            continue
        }
        let expected = naivePlace(of: byteOffset, in: bytes)
        #expect(line == expected.line && column == expected.column, "\(message)")
        #expect(byteOffset > lastOffset)
        lastOffset = byteOffset
        if message.hasPrefix("duplicate") { duplicate(message, line) }
    }
}
