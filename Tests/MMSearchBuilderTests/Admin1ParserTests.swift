import Foundation
import MMSearch
@testable import MMSearchBuilder
import MMSearchTestSupport
import Testing

/// The 4 columns of a plausible row, for tests to change one or two of.
private let plausible = TabRow(columns: ["US.IL", "Illinois", "Illinois", "4896861"])

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// The regions of `text`, without their geonameids (`readsTheGeonameID` checks those), so that the
/// tables below name a region by its code and name.
private func parse(_ text: String) throws(MMSearchError) -> [Admin1Region] {
    withoutIDs(try Admin1Parser.parse(bytes(text), file: "test.txt").regions)
}

private func withoutIDs(_ regions: [Admin1Region]) -> [Admin1Region] {
    regions.map { var region = $0; region.geonameID = nil; return region }
}

/// Parses with `skipInvalid`.
private func parseSkipping(_ bytes: [UInt8]) throws(MMSearchError) -> ParsedAdmin1 {
    var parsed = try Admin1Parser.parse(bytes, file: "bad.txt", options: CityListParseOptions(skipInvalid: true))
    parsed.regions = withoutIDs(parsed.regions)
    return parsed
}

private func region(_ country: String, _ code: String, _ name: String, _ geonameID: UInt32? = nil) -> Admin1Region {
    Admin1Region(country: bytes(country), code: bytes(code), name: bytes(name), geonameID: geonameID)
}

@Suite struct Admin1ParserTests {
    // MARK: Happy path

    /// Column 4, the geonameid the alternate names file names a region by: a number, or nil when empty.
    @Test func readsTheGeonameID() throws {
        let regions = try Admin1Parser.parse(bytes("CH.ZH\tZürich\tZurich\t2657895\nGB.ENG\tEngland\tEngland\t\n"), file: "x").regions
        #expect(regions.map(\.geonameID) == [2657895, nil])
    }

    @Test func readsEveryField() throws {
        let text = """
            CH.ZH\tZürich\tZurich\t2657895
            GB.ENG\tEngland\tEngland\t
            FR.11\tÎle-de-France\tIle-de-France\t3012874
            JP.40\t東京都\tTokyo\t1850144
            XX.a.b\t\t\t0
            """
        #expect(try parse(text) == [
            region("CH", "ZH", "Zürich"),
            region("GB", "ENG", "England"),
            region("FR", "11", "Île-de-France"),
            region("JP", "40", "東京都"),
            // A code is everything after the first ".", and a name may be empty.
            region("XX", "a.b", ""),
        ])
    }

    @Test func keepsNamesAsGiven() throws {
        // Quotes, backslashes, DEL and C1 controls are kept byte for byte, as in the dump's names.
        let name = "Sankt \"Gallen\" \\ 😀 \u{7F}x\u{85}"
        #expect(try parse(plausible.row([1: name, 2: "\u{9C}"])) == [region("US", "IL", name)])
        // The ASCII name is not checked to be ASCII, nor used.
        #expect(try parse(plausible.row([2: "Zürich"])) == [region("US", "IL", "Illinois")])
    }

    @Test(arguments: ["", "0", "4294967295", "0004896861"])
    func acceptsGeonameIDs(_ id: String) throws {
        #expect(try parse(plausible.row([3: id])).count == 1)
    }

    @Test(arguments: ["US", "GB", "00", "9Z", "A1"])
    func acceptsCountryCodes(_ country: String) throws {
        #expect(try parse(plausible.row([0: country + ".X"])) == [region(country, "X", "Illinois")])
    }

    @Test func skipsALeadingByteOrderMark() throws {
        let withMark: [UInt8] = [0xEF, 0xBB, 0xBF] + bytes(plausible.row() + "\n")
        #expect(try withoutIDs(Admin1Parser.parse(withMark, file: "bom.txt").regions) == parse(plausible.row()))
        // Columns count from after the mark; byte offsets from the file's start.
        #expect(throws: MMSearchError.invalidInput(
            file: "bom.txt", line: 1, column: 1, byteOffset: 3,
            message: #"expected a country code (two characters A-Z or 0-9) before the "." in column 1 (code), found "usa""#
        )) {
            try Admin1Parser.parse([0xEF, 0xBB, 0xBF] + bytes(plausible.row([0: "usa.IL"])), file: "bom.txt")
        }
        // A mark anywhere else is part of the text: here it makes the country code three characters.
        let lateMark = bytes(plausible.row() + "\n") + [0xEF, 0xBB, 0xBF] + bytes(plausible.row([0: "US.IN"]))
        #expect(throws: MMSearchError.invalidInput(
            file: "x", line: 2, column: 1, byteOffset: plausible.row().utf8.count + 1,
            message: "expected a country code (two characters A-Z or 0-9) before the \".\" in column 1 (code), found \"\u{FEFF}US\""
        )) {
            try Admin1Parser.parse(lateMark, file: "x")
        }
    }

    @Test func lineEnds() throws {
        let one = plausible.row(), two = plausible.row([0: "US.IN", 1: "Indiana"])
        // A final line without "\n", and a final "\n" after which nothing is a row.
        for text in [one + "\n" + two, one + "\n" + two + "\n"] {
            #expect(try parse(text).map(\.code) == [bytes("IL"), bytes("IN")])
        }
        #expect(try parse(one).count == 1)
        // An empty line is a row of one column, even the last one.
        #expect(throws: MMSearchError.invalidInput(
            file: "test.txt", line: 3, column: 1, byteOffset: one.utf8.count + two.utf8.count + 2,
            message: "expected 4 tab-separated columns, found 1 (an empty line)"
        )) {
            try parse(one + "\n" + two + "\n\n")
        }
    }

    @Test func arrayConvenienceMatchesBufferEntryPoint() throws {
        let input = bytes(plausible.row() + "\n" + plausible.row([0: "US.IN"]))
        let fromBuffer = try input.withUnsafeBytes { try Admin1Parser.parse($0, file: "x", options: CityListParseOptions()) }
        #expect(try Admin1Parser.parse(input, file: "x") == fromBuffer)
        #expect(fromBuffer.skipped.isEmpty && fromBuffer.regions.count == 2)
    }

    // MARK: Errors

    /// A valid row, a line end, then `text` on line 2.
    static func second(_ text: String) -> String { plausible.row([0: "US.AK"]) + "\n" + text }
    static func second(_ bytes: [UInt8]) -> [UInt8] { Array((plausible.row([0: "US.AK"]) + "\n").utf8) + bytes }


    static let codeMessage = #"expected a code "CC.CODE" (a country code, a ".", and an admin1 code) in column 1 (code), found "#
    static let countryMessage = #"expected a country code (two characters A-Z or 0-9) before the "." in column 1 (code), found "#
    static let admin1CodeMessage = #"expected an admin1 code (at least one character) after the "." in column 1 (code), found """#
    static let idMessage = "expected a geonameid (empty, or a whole number from 0 to 4294967295) in column 4 (geonameid), found "

    static let badInputs: [BadInput] = [
        // Column counts.
        BadInput("3 columns", second("US.IN\tIndiana\tIndiana"), 2, 1, "expected 4 tab-separated columns, found 3"),
        BadInput("1 column", "hello", 1, 1, "expected 4 tab-separated columns, found 1"),
        BadInput("empty line", second("\n" + plausible.row([0: "US.IN"])), 2, 1, "expected 4 tab-separated columns, found 1 (an empty line)"),
        BadInput("only a line end", "\n", 1, 1, "expected 4 tab-separated columns, found 1 (an empty line)"),
        BadInput(
            "5 columns", second(plausible.row([0: "US.IN"]) + "\textra"), 2, plausible.start(of: 4) - 1,
            "expected 4 tab-separated columns, found 5; this tab starts a column after column 4 (geonameid)"
        ),
        BadInput("7 columns", plausible.row() + "\t\t\t", 1, plausible.start(of: 4) - 1, "expected 4 tab-separated columns, found 7"),
        BadInput("a space-separated file", "US.IL Illinois Illinois 4896861", 1, 1, "expected 4 tab-separated columns, found 1"),
        BadInput("a dump row", "1\tName\tName\t\t1.5\t-2.25\tP", 1, 13, "expected 4 tab-separated columns, found 7"),

        // Column 1, "CC.CODE".
        BadInput("no dot", plausible.row([0: "USIL"]), 1, 1, codeMessage + #""USIL""#),
        BadInput("empty code column", second(plausible.row([0: ""])), 2, 1, codeMessage + #""""#),
        BadInput("a code with a space for a dot", plausible.row([0: "US IL"]), 1, 1, codeMessage + #""US IL""#),
        BadInput("country of three letters", plausible.row([0: "usa.IL"]), 1, 1, countryMessage + #""usa""#),
        BadInput("country of three capitals", plausible.row([0: "USA.IL"]), 1, 1, countryMessage + #""USA""#),
        BadInput("country of one letter", plausible.row([0: "U.IL"]), 1, 1, countryMessage + #""U""#),
        BadInput("lowercase country", plausible.row([0: "us.IL"]), 1, 1, countryMessage + #""us""#),
        BadInput("empty country", plausible.row([0: ".IL"]), 1, 1, countryMessage + #""""#),
        BadInput("non-ASCII country", plausible.row([0: "UÄ.IL"]), 1, 1, countryMessage + #""UÄ""#),
        BadInput("country with a space", second(plausible.row([0: " U.IL"])), 2, 1, countryMessage + #"" U""#),
        BadInput("empty admin1 code", plausible.row([0: "US."]), 1, 4, admin1CodeMessage),
        BadInput("only a dot", plausible.row([0: "."]), 1, 1, countryMessage + #""""#),
        BadInput("repeated code", plausible.row() + "\n" + plausible.row([0: "US.IN"]) + "\n" + plausible.row([1: "Again"]), 3, 1, "duplicate admin1 code US.IL; the first is on line 1"),

        // Column 4, the geonameid.
        BadInput("geonameid x12", plausible.row([3: "x12"]), 1, plausible.start(of: 3), idMessage + #""x12""#),
        BadInput("negative geonameid", plausible.row([3: "-1"]), 1, plausible.start(of: 3), idMessage + #""-1""#),
        BadInput("geonameid with plus", plausible.row([3: "+1"]), 1, plausible.start(of: 3), idMessage + #""+1""#),
        BadInput("geonameid with space", plausible.row([3: " 1"]), 1, plausible.start(of: 3), idMessage + #"" 1""#),
        BadInput("geonameid of a space", plausible.row([3: " "]), 1, plausible.start(of: 3), idMessage + #"" ""#),
        BadInput("fractional geonameid", plausible.row([3: "1.0"]), 1, plausible.start(of: 3), idMessage + #""1.0""#),
        BadInput("geonameid too large", plausible.row([3: "4294967296"]), 1, plausible.start(of: 3), idMessage + #""4294967296""#),

        // Encoding and control characters, each at its byte; columns count scalars.
        BadInput(
            "invalid UTF-8 in a name", second(plausible.row(column: 1, bytes: Array("é東😀".utf8) + [0xFE])), 2, plausible.start(of: 1) + 3,
            "invalid UTF-8 byte 0xfe in column 2 (name): it never occurs in UTF-8"
        ),
        BadInput("stray continuation byte", plausible.row(column: 2, bytes: [0x41, 0x80]), 1, plausible.start(of: 2) + 1, "invalid UTF-8 byte 0x80 in column 3 (asciiname): a continuation byte with no lead byte"),
        BadInput("overlong two bytes", plausible.row(column: 1, bytes: [0xC0, 0x80]), 1, plausible.start(of: 1), "invalid UTF-8 byte 0xc0 in column 2 (name): it only starts overlong encodings"),
        BadInput("UTF-8 surrogate", plausible.row(column: 1, bytes: [0xED, 0xA0, 0x80]), 1, plausible.start(of: 1), "invalid UTF-8 byte 0xed in column 2 (name): it starts an encoded UTF-16 surrogate"),
        BadInput("cut short before a tab", plausible.row(column: 2, bytes: [0xF0, 0x9F, 0x98]), 1, plausible.start(of: 2), "invalid UTF-8 byte 0xf0 in column 3 (asciiname): a sequence cut short"),
        BadInput("cut short at the end", plausible.row(column: 3, bytes: Array("12".utf8) + [0xF0, 0x9F, 0x98]), 1, plausible.start(of: 3), idMessage + "\"12\u{FFFD}\""),
        BadInput("invalid UTF-8 in the admin1 code", plausible.row(column: 0, bytes: Array("US.".utf8) + [0xFF]), 1, 4, "invalid UTF-8 byte 0xff in column 1 (code)"),
        BadInput("NUL in a name", plausible.row(column: 1, bytes: [0x41, 0x00]), 1, plausible.start(of: 1) + 1, "unexpected control character U+0000 in column 2 (name)"),
        BadInput("escape in the ASCII name", plausible.row(column: 2, bytes: [0x1B]), 1, plausible.start(of: 2), "unexpected control character U+001B in column 3 (asciiname)"),
        BadInput("vertical tab in the admin1 code", plausible.row(column: 0, bytes: Array("US.I".utf8) + [0x0B]), 1, 5, "unexpected control character U+000B in column 1 (code)"),
        BadInput(
            "CRLF line ends", plausible.row() + "\r\n" + plausible.row([0: "US.IN"]), 1, plausible.start(of: 4) - 1,
            #"unexpected carriage return (U+000D) in column 4 (geonameid): a row ends at "\n" alone, so a "\r\n" line end leaves "\r" in the last column"#
        ),
        BadInput("CR at the very end", second(plausible.row([0: "US.IN", 3: ""]) + "\r"), 2, plausible.start(of: 3), "unexpected carriage return (U+000D) in column 4 (geonameid): a row ends at"),
        BadInput("CR after a bad geonameid", plausible.row([3: "4x\r"]), 1, plausible.start(of: 3), idMessage + #""4x\u000D""#),
        BadInput("CR inside a name", plausible.row([1: "A\rB"]), 1, plausible.start(of: 1) + 1, "unexpected carriage return (U+000D) in column 2 (name)"),

        // Within a row, the error at the lowest offset comes first.
        BadInput("bad byte before a bad field", plausible.row(column: 1, bytes: [0xFF]).replacing(Array("4896861".utf8), with: Array("x".utf8)), 1, plausible.start(of: 1), "invalid UTF-8 byte 0xff in column 2 (name)"),
        BadInput("bad field before a bad byte", plausible.row(column: 3, bytes: [0x31, 0xFF]).replacing(Array("US.IL".utf8), with: Array("usa.IL".utf8)), 1, 1, countryMessage + #""usa""#),
        BadInput("bad byte inside a bad field", plausible.row(column: 0, bytes: [0x55, 0xFF, 0x2E, 0x41]), 1, 1, countryMessage + "\"U\u{FFFD}\""),
        BadInput("bad byte after an empty admin1 code", plausible.row(column: 0, bytes: Array("US.".utf8)).replacing(Array("Illinois".utf8), with: [0x00]), 1, 4, admin1CodeMessage),
        BadInput("control character shown escaped", plausible.row(column: 0, bytes: [0x31, 0x00, 0x2E, 0x41]), 1, 1, countryMessage + #""1\u0000""#),
        BadInput("first of two bad fields", plausible.row([0: "USIL", 3: "x"]), 1, 1, codeMessage + #""USIL""#),

        // Lengths.
        BadInput(
            "name too long", plausible.row([1: String(repeating: "a", count: 65_536)]), 1, plausible.start(of: 1),
            "the name in column 2 (name) is 65536 bytes of UTF-8, more than the limit of 65535"
        ),
        BadInput(
            "admin1 code too long", plausible.row([0: "US." + String(repeating: "A", count: 70_000)]), 1, 4,
            "the admin1 code in column 1 (code) is 70000 bytes of UTF-8, more than the limit of 65535"
        ),

        // Nothing to read.
        BadInput("empty input", "", 1, 1, "no rows: expected at least one admin1 row, found an empty input"),
        BadInput("only a byte order mark", [0xEF, 0xBB, 0xBF], 1, 1, "no rows: expected at least one admin1 row, found an empty input"),
    ]

    @Test(arguments: badInputs)
    func rejectsBadInput(_ input: BadInput) {
        input.expectRefused { bytes, file in _ = try Admin1Parser.parse(bytes, file: file) }
    }

    @Test func acceptsTheLongestNameAndCode() throws {
        let long = String(repeating: "a", count: 65_535)
        #expect(try parse(plausible.row([0: "US." + long, 1: long])) == [region("US", long, long)])
    }

    @Test func describesTheErrorWithFileAndPlace() {
        let expected = MMSearchError.invalidInput(
            file: "admin1CodesASCII.txt", line: 2, column: 1, byteOffset: plausible.row().utf8.count + 1,
            message: #"expected a country code (two characters A-Z or 0-9) before the "." in column 1 (code), found "usa""#
        )
        let text = plausible.row() + "\n" + plausible.row([0: "usa.01"]) + "\n"
        #expect(throws: expected) { try Admin1Parser.parse(bytes(text), file: "admin1CodesASCII.txt") }
        #expect(expected.description.hasPrefix(#"admin1CodesASCII.txt:2:1: expected a country code (two characters A-Z or 0-9) before the "." in column 1 (code), found "usa" (byte "#))
    }

    // MARK: Repeated codes

    @Test func repeatedCodesAreReportedInInputOrder() {
        // US.IL and US.IN each repeat; a later bad row comes after the first repeat.
        let text = [plausible.row(), plausible.row([0: "US.IN"]), plausible.row([0: "US.IN"]), plausible.row(), plausible.row([0: "us.AK"])].joined(separator: "\n")
        #expect(throws: MMSearchError.invalidInput(
            file: "bad.txt", line: 3, column: 1, byteOffset: 2 * (plausible.row().utf8.count + 1),
            message: "duplicate admin1 code US.IN; the first is on line 2"
        )) {
            try Admin1Parser.parse(bytes(text), file: "bad.txt")
        }
    }

    @Test func codesAreComparedWhole() throws {
        // Same code in another country, same country with a longer code, and case: all distinct.
        let text = [plausible.row(), plausible.row([0: "CA.IL"]), plausible.row([0: "US.ILL"]), plausible.row([0: "US.il"]), plausible.row([0: "US.I"])].joined(separator: "\n")
        #expect(try parse(text).count == 5)
    }

    @Test func skipInvalidKeepsTheFirstOfRepeatedCodes() throws {
        let text = [
            plausible.row([1: "first"]),
            plausible.row([0: "US.IN"]),
            plausible.row([1: "second"]),
            plausible.row([0: "US.IN", 3: "x"]),
            plausible.row([1: "third"]),
            plausible.row([0: "US.AK"]),
        ].joined(separator: "\n")
        let parsed = try parseSkipping(bytes(text))
        #expect(parsed.regions == [region("US", "IL", "first"), region("US", "IN", "Illinois"), region("US", "AK", "Illinois")])
        #expect(parsed.skipped.map(placeAndMessage) == [
            "3:1: duplicate admin1 code US.IL; the first is on line 1",
            "4:\(plausible.start(of: 3)): " + Self.idMessage + #""x""#,
            "5:1: duplicate admin1 code US.IL; the first is on line 1",
        ])
    }

    @Test func aRowDroppedForAnotherErrorDoesNotUseUpItsCode() throws {
        let text = plausible.row([3: "x"]) + "\n" + plausible.row([1: "good"])
        let parsed = try parseSkipping(bytes(text))
        #expect(parsed.regions == [region("US", "IL", "good")])
        #expect(parsed.skipped.count == 1)
        // Without skipInvalid the first error stops the parse, whatever follows.
        #expect(throws: MMSearchError.invalidInput(file: "bad.txt", line: 1, column: plausible.start(of: 3), byteOffset: plausible.start(of: 3) - 1, message: Self.idMessage + #""x""#)) {
            try Admin1Parser.parse(bytes(text), file: "bad.txt")
        }
    }

    // MARK: Skipping invalid rows

    @Test(arguments: badInputs.filter { !$0.fragment.hasPrefix("no rows") && !$0.fragment.hasPrefix("duplicate") })
    func skipInvalidDropsTheRowAndKeepsTheSameError(_ input: BadInput) throws {
        // The bad input, then a good row with a code none of them has.
        let bytes = input.followed(by: plausible.row([0: "ZZ.999"]))
        let strictError = try #require(input.strictError(parsing: bytes) { bytes, file throws(MMSearchError) in _ = try Admin1Parser.parse(bytes, file: file) })
        let parsed = try parseSkipping(bytes)
        #expect(parsed.regions.last == region("ZZ", "999", "Illinois"))
        #expect(parsed.skipped.first == strictError)
    }

    @Test func validFilesGiveTheSameRegionsEitherWay() throws {
        let text = bytes(plausible.row() + "\n" + plausible.row([0: "US.IN"]) + "\n")
        let parsed = try parseSkipping(text)
        let strict = try Admin1Parser.parse(text, file: "x")
        #expect(parsed.regions == withoutIDs(strict.regions) && parsed.skipped == strict.skipped)
        #expect(parsed.skipped.isEmpty && parsed.regions.count == 2)
    }

    @Test func everyRowSkippedIsAnError() {
        let firstError = Self.codeMessage + #""x""#
        #expect(throws: MMSearchError.invalidInput(
            file: "bad.txt", line: 1, column: 1, byteOffset: 0,
            message: "no valid row: the only row was skipped; the first: " + firstError
        )) {
            try parseSkipping(bytes(plausible.row([0: "x"]) + "\n"))
        }
        let three = [plausible.row([0: "x"]), plausible.row([3: "-"]), "short"].joined(separator: "\n")
        #expect(throws: MMSearchError.invalidInput(
            file: "bad.txt", line: 1, column: 1, byteOffset: 0,
            message: "no valid row: all 3 rows were skipped; the first: " + firstError
        )) {
            try parseSkipping(bytes(three))
        }
        // An empty input is an error either way.
        #expect(throws: MMSearchError.invalidInput(
            file: "bad.txt", line: 1, column: 1, byteOffset: 0,
            message: "no rows: expected at least one admin1 row, found an empty input"
        )) {
            try parseSkipping([])
        }
    }

    @Test func placesErrorsExactlyFarIntoALongInput() throws {
        // Multibyte names, a byte order mark, a bad country every 37th row and a repeated code every 53rd.
        var lines: [String] = []
        for number in 1...700 {
            lines.append(plausible.row([
                0: "\(number % 37 == 0 ? "ch" : "CH").\(number % 53 == 0 ? number - 1 : number)",
                1: "Zürich 東京 😀 \(number)", 2: "Zurich", 3: number % 2 == 0 ? "" : "\(number)",
            ]))
        }
        let input: [UInt8] = [0xEF, 0xBB, 0xBF] + bytes(lines.joined(separator: "\n"))
        let parsed = try parseSkipping(input)
        #expect(parsed.regions.count + parsed.skipped.count == 700)
        // 18 bad countries and 13 repeats, but row 371 repeats the code of row 370, which was dropped
        // for its country, so it is kept.
        #expect(parsed.skipped.count == 18 + 13 - 1)
        #expect(parsed.regions.contains { $0.code == bytes("370") && $0.name.last == UInt8(ascii: "1") })
        expectSkippedInOrderAtTheirPlaces(parsed.skipped, in: input) { message, line in
            #expect(message.hasSuffix("the first is on line \(line - 1)"), "\(message)")
        }
    }

    // MARK: The real file

    static let realFilePath = SharedData.packageRoot + "/../shared/data/admin1CodesASCII.txt"

    @Test func parsesTheRealFile() throws {
        guard let data = FileManager.default.contents(atPath: Self.realFilePath) else {
            Issue.record("the real file is missing: expected it at \(Self.realFilePath) (see shared/data/README.md)")
            return
        }
        let parsed = try Admin1Parser.parse([UInt8](data), file: Self.realFilePath)
        #expect(parsed.skipped.isEmpty)
        #expect(parsed.regions.count == 3_177)  // shared/data/README.md

        // A naive reading, as rank.py's admin1_names reads it: lines split at "\n", columns at "\t".
        var lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        let naive = lines.map { line -> Admin1Region in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            #expect(columns.count == 4, "\(line)")
            let code = columns[0].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            return Admin1Region(country: Array(code[0].utf8), code: Array(code.last!.utf8), name: Array(columns[1].utf8),
                                geonameID: UInt32(columns[3]))
        }
        #expect(parsed.regions.count == naive.count)
        for (parsedRegion, naiveRegion) in zip(parsed.regions, naive) {
            #expect(parsedRegion == naiveRegion)
        }

        let regions = Dictionary(uniqueKeysWithValues: parsed.regions.map {
            (String(decoding: $0.country + [UInt8(ascii: ".")] + $0.code, as: UTF8.self), $0)
        })
        #expect(regions.count == parsed.regions.count)
        #expect(regions["US.IL"] == region("US", "IL", "Illinois", 4896861))
        #expect(regions["CH.ZH"]?.code == bytes("ZH"))
        #expect(regions["CH.ZH"]?.name == bytes("Zurich"))
        #expect(regions["GB.ENG"]?.name == bytes("England"))
    }
}
