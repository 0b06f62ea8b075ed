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
