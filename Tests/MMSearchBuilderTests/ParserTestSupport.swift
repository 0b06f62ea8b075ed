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
