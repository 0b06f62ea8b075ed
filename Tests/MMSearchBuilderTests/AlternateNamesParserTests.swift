import CMMSearchFormat
import Foundation
import MMSearch
@testable import MMSearchBuilder
import MMSearchTestSupport
import Testing

/// The 10 columns of a plausible row (alternateNamesV2.txt), for tests to change one or two of.
private let plausible = TabRow(columns: ["1", "2643743", "en", "London", "1", "", "", "", "", ""])

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

private func parse(_ text: String, wanted: @escaping (UInt32) -> Bool = { _ in true }) throws(MMSearchError) -> AlternateNames {
    try AlternateNamesParser.parse(bytes(text), file: "alt.txt", wanted: wanted)
}

extension AlternateNamesParser {
    static func parse(_ bytes: [UInt8], file: String, options: CityListParseOptions = CityListParseOptions(), wanted: (UInt32) -> Bool = { _ in true }) throws(MMSearchError) -> AlternateNames {
        try bytes.withRawBytes { (raw) throws(MMSearchError) in try parse(raw, file: file, options: options, wanted: wanted) }
    }
}

@Suite struct AlternateNamesParserTests {
    // MARK: What is a name

    @Test func keepsNamesInFileOrderAndDropsWhatRankPyDrops() throws {
        let text = [
            plausible.row([3: "London"]),
            plausible.row([0: "2", 3: "Londres", 2: "fr"]),
            plausible.row([0: "3", 2: "link", 3: "https://en.wikipedia.org/wiki/London"]),
            plausible.row([0: "4", 2: "wkdt", 3: "Q84"]),
            plausible.row([0: "5", 2: "post", 3: "EC1"]),
            plausible.row([0: "6", 2: "iata", 3: "LON"]),
            plausible.row([0: "7", 2: "fr_1793", 3: "Londres-la-Révolution"]),
            plausible.row([0: "8", 3: "Londinium", 7: "1"]),  // historic
            plausible.row([0: "9", 3: ""]),  // empty
            plausible.row([0: "10", 1: "2988507", 3: "Lutèce", 2: "fr", 6: "1", 8: "0", 9: "500"]),
            plausible.row([0: "11", 2: "abbr", 3: "LDN"]),  // an abbreviation is a name
            plausible.row([0: "12", 1: "99", 3: "Nowhere"]),  // not wanted
        ].joined(separator: "\n") + "\n"
        let names = try parse(text, wanted: { $0 != 99 })
        #expect(names.byID == [2643743: [bytes("London"), bytes("Londres"), bytes("LDN")], 2988507: [bytes("Lutèce")]])
        #expect(names.rowCount == 12 && names.keptCount == 4 && names.skipped.isEmpty)
    }

    @Test func aLastRowWithoutALineEndAndAByteOrderMarkAreRead() throws {
        let names = try AlternateNamesParser.parse([0xEF, 0xBB, 0xBF] + bytes(plausible.row() + "\n" + plausible.row([0: "2", 3: "Londra"])), file: "alt.txt")
        #expect(names.byID[2643743] == [bytes("London"), bytes("Londra")])
    }

    // MARK: Errors: file, line:column, what was expected

    @Test(arguments: [
        ("9 columns", plausible.row().split(separator: "\t", omittingEmptySubsequences: false).dropLast().joined(separator: "\t"), "1:1: expected 10 tab-separated columns, found 9"),
        ("an empty line", plausible.row() + "\n\n" + plausible.row(), "2:1: expected 10 tab-separated columns, found 1 (an empty line)"),
        ("a geonameid that is not a number", plausible.row([1: "26x"]), #"1:3: expected a whole number from 0 to 4294967295 in column 2 (geonameid), found "26x""#),
        ("a geonameid past 2^32", plausible.row([1: "4294967296"]), #"1:3: expected a whole number from 0 to 4294967295 in column 2 (geonameid), found "4294967296""#),
        ("an empty alternateNameId", plausible.row([0: ""]), #"1:1: expected a whole number from 0 to 4294967295 in column 1 (alternateNameId), found """#),
        ("a flag that is not 1", plausible.row([7: "yes"]), #"1:25: expected empty or "1" in column 8 (isHistoric), found "yes""#),
        ("a carriage return", plausible.row() + "\r\n" + plausible.row(), #"1:27: unexpected carriage return (U+000D) in column 10 (to): a row ends at "\n" alone"#),
        ("a name too long", plausible.row([3: String(repeating: "a", count: 70_000)]), "1:14: the name in column 4 (alternate name) is 70000 bytes of UTF-8, more than the limit of"),
    ])
    func rejectsBadRows(_ label: String, _ text: String, _ expected: String) {
        #expect {
            _ = try parse(plausible.row([0: "0"]) + "\n" + text)
        } throws: { error in
            // The bad row is line 2 here: the message's line is one more than the table's.
            let place = placeAndMessage(error as! MMSearchError)
            let table = expected.split(separator: ":", maxSplits: 1)
            return place.hasPrefix(String(Int(table[0])! + 1) + ":" + table[1])
        }
    }

    @Test func invalidUTF8IsNamedByItsByte() {
        #expect {
            _ = try AlternateNamesParser.parse(bytes("1\t2643743\ten\tLond") + [0xFF] + bytes("\t1\t\t\t\t\t\n"), file: "alt.txt")
        } throws: { error in
            placeAndMessage(error as! MMSearchError).hasPrefix("1:18: invalid UTF-8 byte 0xff in column 4 (alternate name)")
        }
    }

    @Test func skipInvalidDropsBadRowsAndNotesWhere() throws {
        let text = bytes([plausible.row(), plausible.row([1: "x"]), plausible.row([0: "3", 3: "Londra"]), plausible.row([5: "2"])].joined(separator: "\n"))
        let names = try AlternateNamesParser.parse(text, file: "alt.txt", options: CityListParseOptions(skipInvalid: true))
        #expect(names.byID[2643743] == [bytes("London"), bytes("Londra")])
        #expect(names.skipped.map(placeAndMessage).map { $0.prefix(4) } == ["2:3:", "4:23"])
        expectSkippedInOrderAtTheirPlaces(names.skipped, in: text) { _, _ in }
    }

    // MARK: Streamed

    /// A file of many pieces (`InputStream.pieceSize`), plain and gzip: the same names, the same size
    /// and checksum as the whole file read at once, and an error far in placed as in the whole file.
    @Test func aFileReadInPiecesAnswersAsTheWholeFile() throws {
        var lines: [String] = []
        for number in 0 ..< 80_000 {
            lines.append(plausible.row([0: String(number), 1: String(number % 1000), 3: "Name \(number) — ünïcödé"]))
        }
        let text = lines.joined(separator: "\n") + "\n"
        #expect(text.utf8.count > 3 * InputStream.pieceSize)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        do {
            let plain = directory.file("alternateNames.txt")
            try Data(text.utf8).write(to: URL(fileURLWithPath: plain))
            _ = try GzipTool.compress(plain)
            let whole = try parse(text, wanted: { $0 % 7 == 0 })
            for path in [plain, plain + ".gz"] {
                let read = try AlternateNamesParser.read(path) { $0 % 7 == 0 }
                #expect(read.byID == whole.byID && read.rowCount == 80_000 && read.keptCount == whole.keptCount)
                #expect(read.file?.size == UInt64(text.utf8.count))
                #expect(read.file?.checksum == IndexBuilderChecksum.of(Array(text.utf8)))
            }

            // A bad row past the first pieces: its line and byte offset are the whole file's.
            var bad = lines
            bad[45_678] = plausible.row([0: "1", 1: "oops"])
            let badText = bad.joined(separator: "\n")
            try Data(badText.utf8).write(to: URL(fileURLWithPath: plain))
            _ = try GzipTool.compress(plain)
            let offset = bad[..<45_678].reduce(0) { $0 + $1.utf8.count + 1 } + 2
            for path in [plain, plain + ".gz"] {
                #expect {
                    _ = try AlternateNamesParser.read(path) { _ in true }
                } throws: { error in
                    guard case let .invalidInput(_, line, column, byteOffset, _) = error as! MMSearchError else { return false }
                    return line == 45_679 && column == 3 && byteOffset == offset
                }
            }
        }
    }

    @Test func anEmptyFileAndACorruptGzipAreErrors() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        do {
            let empty = directory.file("empty.txt")
            try Data().write(to: URL(fileURLWithPath: empty))
            #expect { _ = try AlternateNamesParser.read(empty) { _ in true } } throws: { error in
                "\(error)".contains("no rows")
            }
            let plain = directory.file("alt.txt")
            try Data((plausible.row() + "\n").utf8).write(to: URL(fileURLWithPath: plain))
            _ = try GzipTool.compress(plain)
            var compressed = try Data(contentsOf: URL(fileURLWithPath: plain + ".gz"))
            compressed = compressed.prefix(compressed.count - 6)
            try compressed.write(to: URL(fileURLWithPath: plain + ".gz"))
            #expect { _ = try AlternateNamesParser.read(plain + ".gz") { _ in true } } throws: { error in
                "\(error)".contains("truncated gzip data")
            }
        }
    }
}

/// XXH64 (seed 0) of whole bytes, as SOURCE records an input's.
enum IndexBuilderChecksum {
    static func of(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { mms_xxh64($0.baseAddress, $0.count, 0) }
    }
}
