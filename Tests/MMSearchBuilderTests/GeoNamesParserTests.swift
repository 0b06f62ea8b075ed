import Foundation
import MMSearch
@testable import MMSearchBuilder
import MMSearchTestSupport
import Testing

/// The 19 columns of a plausible row, for tests to change one or two of.
private let plausible = TabRow(columns: [
    "1", "Name", "Name", "", "1.5", "-2.25", "P", "PPL", "UA", "", "01", "", "", "", "1000", "", "12",
    "Europe/Kyiv", "2024-01-01",
])

private func parse(_ text: String) throws(MMSearchError) -> [GeoNamesRow] {
    try GeoNamesParser.parse(Array(text.utf8), file: "test.txt").rows
}

/// Parses with `skipInvalid`.
private func parseSkipping(_ bytes: [UInt8]) throws(MMSearchError) -> ParsedGeoNames {
    try GeoNamesParser.parse(bytes, file: "bad.txt", options: CityListParseOptions(skipInvalid: true))
}

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

@Suite struct GeoNamesParserTests {
    // MARK: Happy path

    @Test func readsEveryField() throws {
        let text = """
            3038999\tSoldeu\tSoldeu\tSol'deu,Soldeu,Солдеу,ソルデウ\t42.57688\t1.66769\tP\tPPL\tAD\t\t02\t\t\t\t602\t1832\t1818\tEurope/Andorra\t2017-11-06
            707860\tHurzuf\t\t\t44.55082\t-34.29091\t\t\tUA\t\t11\t\t\t\t\t\t\tEurope/Simferopol\t

            """
        let rows = try parse(text)
        #expect(rows == [
            GeoNamesRow(
                id: 3_038_999, name: bytes("Soldeu"), asciiName: bytes("Soldeu"),
                alternateNames: [bytes("Sol'deu"), bytes("Soldeu"), bytes("Солдеу"), bytes("ソルデウ")],
                latitudeE7: 425_768_800, longitudeE7: 16_676_900, country: bytes("AD"), population: 602, admin1Code: bytes("02")
            ),
            GeoNamesRow(
                id: 707_860, name: bytes("Hurzuf"), asciiName: [], alternateNames: [],
                latitudeE7: 445_508_200, longitudeE7: -342_909_100, country: bytes("UA"), population: 0, admin1Code: bytes("11")
            ),
        ])
    }

    @Test func keepsNamesAsGiven() throws {
        // Raw UTF-8 of every length, quotes, backslashes, DEL and C1 controls (the real dump has
        // mojibake with U+0080-U+009F in it, which rank.py keeps too) are all kept byte for byte.
        let name = "Gorkhā \"Mar’ina\" \\ 서울 東京 😀 \u{7F}Barœ\u{9C}ul"
        let rows = try parse(plausible.row([1: name, 2: "", 3: "\u{85}x"]))
        #expect(rows.first?.name == bytes(name))
        #expect(rows.first?.asciiName == [])
        #expect(rows.first?.alternateNames == [bytes("\u{85}x")])
    }

    @Test(arguments: [
        ("", []), ("a", ["a"]), ("a,b", ["a", "b"]), ("a,,b", ["a", "", "b"]), (",", ["", ""]),
        (",a", ["", "a"]), ("a,", ["a", ""]), (" a , b ", [" a ", " b "]), ("Wien,Vienna,Bécs", ["Wien", "Vienna", "Bécs"]),
    ] as [(String, [String])])
    func splitsAlternateNamesAsPythonDoes(column: String, expected: [String]) throws {
        let rows = try parse(plausible.row([3: column]))
        #expect(rows.first?.alternateNames == expected.map(bytes))
    }

    @Test func skipsALeadingByteOrderMark() throws {
        let withMark: [UInt8] = [0xEF, 0xBB, 0xBF] + bytes(plausible.row() + "\n")
        #expect(try GeoNamesParser.parse(withMark, file: "bom.txt").rows == parse(plausible.row()))
        // Columns count from after the mark; byte offsets from the file's start.
        let bad: [UInt8] = [0xEF, 0xBB, 0xBF] + bytes(plausible.row([0: "x"]))
        #expect(throws: MMSearchError.invalidInput(
            file: "bom.txt", line: 1, column: 1, byteOffset: 3,
            message: #"expected a geonameid (a whole number from 0 to 4294967295) in column 1, found "x""#
        )) {
            try GeoNamesParser.parse(bad, file: "bom.txt")
        }
        // A mark anywhere else is part of the text: here it makes the id not a number.
        let lateMark = bytes(plausible.row() + "\n") + [0xEF, 0xBB, 0xBF] + bytes(plausible.row([0: "2"]))
        #expect(throws: MMSearchError.invalidInput(
            file: "x", line: 2, column: 1, byteOffset: plausible.row().utf8.count + 1,
            message: "expected a geonameid (a whole number from 0 to 4294967295) in column 1, found \"\u{FEFF}2\""
        )) {
            try GeoNamesParser.parse(lateMark, file: "x")
        }
    }

    @Test func lineEnds() throws {
        let one = plausible.row([0: "1"]), two = plausible.row([0: "2", 18: "2024-12-31"])
        // A final line without "\n", and a final "\n" after which nothing is a row.
        for text in [one + "\n" + two, one + "\n" + two + "\n"] {
            let rows = try parse(text)
            #expect(rows.map(\.id) == [1, 2])
        }
        #expect(try parse(one).map(\.id) == [1])
        // An empty line is a row of one column, even the last one.
        #expect(throws: MMSearchError.invalidInput(
            file: "test.txt", line: 3, column: 1, byteOffset: one.utf8.count + two.utf8.count + 2,
            message: "expected 19 tab-separated columns, found 1 (an empty line)"
        )) {
            try parse(one + "\n" + two + "\n\n")
        }
    }

    @Test func readsPopulations() throws {
        for (text, expected) in [("", 0), ("0", 0), ("007", 7), ("8933", 8933), ("18446744073709551615", UInt64.max)] as [(String, UInt64)] {
            #expect(try parse(plausible.row([14: text])).first?.population == expected, "\(text)")
        }
    }

    @Test func readsIds() throws {
        for (text, expected) in [("0", 0), ("007", 7), ("4294967295", UInt32.max), ("0004294967295", UInt32.max)] as [(String, UInt32)] {
            #expect(try parse(plausible.row([0: text])).first?.id == expected, "\(text)")
        }
    }

    @Test func readsCountryCodes() throws {
        for text in ["", "UA", "XK", "A1", "00", "ZZ"] {
            #expect(try parse(plausible.row([8: text])).first?.country == bytes(text), "\(text)")
        }
    }

    @Test(arguments: [
        ("44.549999", 445_499_990), ("42.53176", 425_317_600), ("-0.5", -5_000_000), ("28", 280_000_000),
        ("0", 0), ("-0", 0), ("-0.0", 0), ("000.000", 0), (".5", 5_000_000), ("5.", 50_000_000), ("-.5", -5_000_000),
        ("-5.", -50_000_000), ("0.0000001", 1), ("-0.0000001", -1), ("0.00000005", 1), ("-0.00000005", -1),
        ("0.00000004999999999", 0), ("0.00000015", 2), ("1.23456789", 12_345_679), ("-1.23456785", -12_345_679),
        ("-1.234567849", -12_345_678), ("90", 900_000_000), ("-90", -900_000_000), ("090.000", 900_000_000),
        ("90.00000004", 900_000_000), ("-90.0000000499999", -900_000_000), ("89.999999999999999999999999999999", 900_000_000),
        ("0000000000044.5", 445_000_000),
    ] as [(String, Int32)])
    func convertsLatitudeExactly(text: String, expected: Int32) throws {
        #expect(try parse(plausible.row([4: text])).first?.latitudeE7 == expected)
    }

    @Test func acceptsLongitudeUpTo180() throws {
        for (text, expected) in [("180", 1_800_000_000), ("-180", -1_800_000_000), ("-180.00000004", -1_800_000_000), ("179.99999995", 1_800_000_000)] as [(String, Int32)] {
            #expect(try parse(plausible.row([5: text])).first?.longitudeE7 == expected, "\(text)")
        }
    }

    @Test func arrayConvenienceMatchesBufferEntryPoint() throws {
        let input = bytes(plausible.row() + "\n" + plausible.row([0: "2"]))
        let fromBuffer = try input.withUnsafeBytes { try GeoNamesParser.parse($0, file: "x", options: CityListParseOptions()) }
        #expect(try GeoNamesParser.parse(input, file: "x") == fromBuffer)
        #expect(fromBuffer.skipped.isEmpty && fromBuffer.rows.count == 2)
    }

    /// The array entry point parses the rows of its two halves on two cores: the same rows, skipped
    /// rows and first error as the buffer's one pass, wherever the faults lie (in either half, a
    /// repeated id across them, a byte order mark first).
    @Test func theArraysTwoHalvesParseAsOnePass() throws {
        let cases: [(bad: Set<Int>, repeated: (first: Int, again: Int)?, mark: Bool)] = [
            ([], nil, false), ([], nil, true), ([3], nil, false), ([150], nil, true), ([3, 150], nil, false),
            ([], (10, 180), false), ([150], (10, 180), true), ([99, 100, 101], nil, false),
        ]
        for (bad, repeated, mark) in cases {
            var lines: [String] = []
            for line in 1 ... 200 {
                let id = repeated.map { line == $0.again ? $0.first : line } ?? line
                lines.append(bad.contains(line) ? plausible.row([0: "\(id)", 4: "91"]) : plausible.row([0: "\(id)"]))
            }
            let input = (mark ? [0xEF, 0xBB, 0xBF] : []) + bytes(lines.joined(separator: "\n") + "\n")
            for skipInvalid in [false, true] {
                let options = CityListParseOptions(skipInvalid: skipInvalid)
                let onePass = Result { () throws(MMSearchError) in try input.withRawBytes { (raw) throws(MMSearchError) in try GeoNamesParser.parse(raw, file: "x", options: options) } }
                let halves = Result { () throws(MMSearchError) in try GeoNamesParser.parse(input, file: "x", options: options) }
                #expect(halves == onePass, "bad lines \(bad.sorted()), repeated \(String(describing: repeated)), mark \(mark), skipInvalid \(skipInvalid)")
                // Every case with a fault fails without skipInvalid, so both ways are compared where it matters.
                if !skipInvalid, !bad.isEmpty || repeated != nil { #expect(throws: MMSearchError.self) { try halves.get() } }
            }
        }
    }

    // MARK: Errors

    /// A valid row with id 1, a line end, then `text` on line 2.
    static func second(_ text: String) -> String { plausible.row() + "\n" + text }
    static func second(_ bytes: [UInt8]) -> [UInt8] { Array((plausible.row() + "\n").utf8) + bytes }


    static let idMessage = "expected a geonameid (a whole number from 0 to 4294967295) in column 1, found "
    static let latitudeSyntax = "expected a latitude (a decimal number of degrees: an optional '-', digits, and an optional '.' and digits) in column 5, found "
    static let longitudeSyntax = "expected a longitude (a decimal number of degrees: an optional '-', digits, and an optional '.' and digits) in column 6, found "
    static let populationMessage = "expected a population (empty, or a whole number from 0 to 18446744073709551615) in column 15, found "
    static let countryMessage = "expected a country code (empty, or two characters A-Z or 0-9: ISO 3166-1 alpha-2) in column 9, found "

    static let badInputs: [BadInput] = [
        // Column counts.
        BadInput("18 columns", second(plausible.columns.dropLast().joined(separator: "\t")), 2, 1, "expected 19 tab-separated columns, found 18"),
        BadInput("1 column", "hello", 1, 1, "expected 19 tab-separated columns, found 1"),
        BadInput("empty line", second("\n" + plausible.row([0: "3"])), 2, 1, "expected 19 tab-separated columns, found 1 (an empty line)"),
        BadInput("only a line end", "\n", 1, 1, "expected 19 tab-separated columns, found 1 (an empty line)"),
        BadInput(
            "20 columns", second(plausible.row([0: "2"]) + "\textra"), 2, plausible.start(of: 19) - 1,
            "expected 19 tab-separated columns, found 20; this tab starts a column after column 19 (modification date)"
        ),
        BadInput("22 columns", plausible.row() + "\t\t\t", 1, plausible.start(of: 19) - 1, "expected 19 tab-separated columns, found 22"),
        BadInput("a space-separated dump", "1 Name Name", 1, 1, "expected 19 tab-separated columns, found 1"),
        BadInput("a JSON object", #"{"_id":1}"#, 1, 1, "expected 19 tab-separated columns, found 1"),

        // Ids.
        BadInput("id x12", plausible.row([0: "x12"]), 1, 1, idMessage + #""x12""#),
        BadInput("empty id", second(plausible.row([0: ""])), 2, 1, idMessage + #""""#),
        BadInput("negative id", plausible.row([0: "-1"]), 1, 1, idMessage + #""-1""#),
        BadInput("id with plus", plausible.row([0: "+1"]), 1, 1, idMessage + #""+1""#),
        BadInput("id with space", plausible.row([0: " 1"]), 1, 1, idMessage + #"" 1""#),
        BadInput("fractional id", plausible.row([0: "1.0"]), 1, 1, idMessage + #""1.0""#),
        BadInput("id too large", plausible.row([0: "4294967296"]), 1, 1, idMessage + #""4294967296""#),
        BadInput("id far too large", plausible.row([0: "123456789012345678901234567890"]), 1, 1, idMessage + #""123456789012345678901234567890""#),
        BadInput("repeated id", second(plausible.row([0: "2"]) + "\n" + plausible.row([0: "1", 1: "Again"])), 3, 1, "duplicate geonameid 1 in column 1; the first is on line 1"),

        // Coordinates.
        BadInput("latitude abc", plausible.row([4: "abc"]), 1, plausible.start(of: 4), latitudeSyntax + #""abc""#),
        BadInput("empty latitude", plausible.row([4: ""]), 1, plausible.start(of: 4), latitudeSyntax + #""""#),
        BadInput("exponent", plausible.row([4: "1e5"]), 1, plausible.start(of: 4), latitudeSyntax + #""1e5""#),
        BadInput("capital exponent", plausible.row([5: "4.5E1"]), 1, plausible.start(of: 5), longitudeSyntax + #""4.5E1""#),
        BadInput("nan", plausible.row([4: "nan"]), 1, plausible.start(of: 4), latitudeSyntax + #""nan""#),
        BadInput("inf", plausible.row([5: "-inf"]), 1, plausible.start(of: 5), longitudeSyntax + #""-inf""#),
        BadInput("plus sign", plausible.row([4: "+1"]), 1, plausible.start(of: 4), latitudeSyntax + #""+1""#),
        BadInput("leading space", plausible.row([4: " 1"]), 1, plausible.start(of: 4), latitudeSyntax + #"" 1""#),
        BadInput("trailing space", plausible.row([5: "1 "]), 1, plausible.start(of: 5), longitudeSyntax + #""1 ""#),
        BadInput("point alone", plausible.row([4: "."]), 1, plausible.start(of: 4), latitudeSyntax + #"".""#),
        BadInput("minus alone", plausible.row([4: "-"]), 1, plausible.start(of: 4), latitudeSyntax + #""-""#),
        BadInput("minus point", plausible.row([5: "-."]), 1, plausible.start(of: 5), longitudeSyntax + #""-.""#),
        BadInput("two points", plausible.row([4: "1.2.3"]), 1, plausible.start(of: 4), latitudeSyntax + #""1.2.3""#),
        BadInput("decimal comma", plausible.row([4: "1,5"]), 1, plausible.start(of: 4), latitudeSyntax + #""1,5""#),
        BadInput("underscore", plausible.row([4: "1_0"]), 1, plausible.start(of: 4), latitudeSyntax + #""1_0""#),
        BadInput("two minus signs", plausible.row([4: "--1"]), 1, plausible.start(of: 4), latitudeSyntax + #""--1""#),
        BadInput("latitude too large", plausible.row([4: "90.00000005"]), 1, plausible.start(of: 4), #"expected a latitude from -90 to 90 degrees in column 5, found "90.00000005""#),
        BadInput("latitude too small", second(plausible.row([4: "-91"])), 2, plausible.start(of: 4), #"expected a latitude from -90 to 90 degrees in column 5, found "-91""#),
        BadInput("longitude too large", plausible.row([5: "180.0000001"]), 1, plausible.start(of: 5), #"expected a longitude from -180 to 180 degrees in column 6, found "180.0000001""#),
        BadInput("longitude of 1000", plausible.row([5: "-1000"]), 1, plausible.start(of: 5), #"expected a longitude from -180 to 180 degrees in column 6, found "-1000""#),
        BadInput("longitude with zeros and too large", plausible.row([5: "000000000000181"]), 1, plausible.start(of: 5), #"expected a longitude from -180 to 180 degrees in column 6, found "000000000000181""#),
        BadInput("huge longitude", plausible.row([5: String(repeating: "9", count: 50)]), 1, plausible.start(of: 5), #"found "9999999999999999999999999999999999999999…""#),

        // Populations.
        BadInput("negative population", plausible.row([14: "-5"]), 1, plausible.start(of: 14), populationMessage + #""-5""#),
        BadInput("fractional population", plausible.row([14: "1.5"]), 1, plausible.start(of: 14), populationMessage + #""1.5""#),
        BadInput("population with exponent", plausible.row([14: "1e3"]), 1, plausible.start(of: 14), populationMessage + #""1e3""#),
        BadInput("population with space", plausible.row([14: " 1"]), 1, plausible.start(of: 14), populationMessage + #"" 1""#),
        BadInput("population too large", plausible.row([14: "18446744073709551616"]), 1, plausible.start(of: 14), populationMessage + #""18446744073709551616""#),

        // Countries.
        BadInput("country of three letters", plausible.row([8: "UKR"]), 1, plausible.start(of: 8), countryMessage + #""UKR""#),
        BadInput("country of one letter", plausible.row([8: "U"]), 1, plausible.start(of: 8), countryMessage + #""U""#),
        BadInput("lowercase country", plausible.row([8: "ua"]), 1, plausible.start(of: 8), countryMessage + #""ua""#),
        BadInput("non-ASCII country", plausible.row([8: "UÄ"]), 1, plausible.start(of: 8), countryMessage + #""UÄ""#),
        BadInput("country with a space", plausible.row([8: "U "]), 1, plausible.start(of: 8), countryMessage + #""U ""#),

        // Encoding and control characters, each at its byte; columns count scalars.
        BadInput(
            "invalid UTF-8 in a name", second(plausible.row(column: 1, bytes: Array("é東😀".utf8) + [0xFE])), 2, 6,
            "invalid UTF-8 byte 0xfe in column 2 (name): it never occurs in UTF-8"
        ),
        BadInput("stray continuation byte", plausible.row(column: 2, bytes: [0x41, 0x80]), 1, plausible.start(of: 2) + 1, "invalid UTF-8 byte 0x80 in column 3 (asciiname): a continuation byte with no lead byte"),
        BadInput("overlong two bytes", plausible.row(column: 1, bytes: [0xC0, 0x80]), 1, 3, "invalid UTF-8 byte 0xc0 in column 2 (name): it only starts overlong encodings"),
        BadInput("overlong three bytes", plausible.row(column: 3, bytes: [0xE0, 0x80, 0x80]), 1, plausible.start(of: 3), "invalid UTF-8 byte 0xe0 in column 4 (alternatenames): it starts an overlong encoding"),
        BadInput("UTF-8 surrogate", plausible.row(column: 1, bytes: [0xED, 0xA0, 0x80]), 1, 3, "invalid UTF-8 byte 0xed in column 2 (name): it starts an encoded UTF-16 surrogate"),
        BadInput("past U+10FFFF", plausible.row(column: 1, bytes: [0xF4, 0x90, 0x80, 0x80]), 1, 3, "invalid UTF-8 byte 0xf4 in column 2 (name): it starts a code point past U+10FFFF"),
        BadInput("cut short before a tab", plausible.row(column: 1, bytes: [0x41, 0xE6, 0x9D]), 1, 4, "invalid UTF-8 byte 0xe6 in column 2 (name): a sequence cut short"),
        BadInput("cut short at the end", plausible.row(column: 18, bytes: [0xF0, 0x9F, 0x98]), 1, plausible.start(of: 18), "invalid UTF-8 byte 0xf0 in column 19 (modification date): a sequence cut short"),
        BadInput("invalid UTF-8 in an unused column", plausible.row(column: 17, bytes: Array("Europe/".utf8) + [0xFF]), 1, plausible.start(of: 17) + 7, "invalid UTF-8 byte 0xff in column 18 (timezone)"),
        BadInput("NUL in a name", plausible.row(column: 1, bytes: [0x41, 0x00]), 1, 4, "unexpected control character U+0000 in column 2 (name)"),
        BadInput("escape in an unused column", plausible.row(column: 9, bytes: [0x1B]), 1, plausible.start(of: 9), "unexpected control character U+001B in column 10 (cc2)"),
        BadInput(
            "CRLF line ends", plausible.row() + "\r\n" + plausible.row([0: "3"]), 1, plausible.start(of: 19) - 1,
            #"unexpected carriage return (U+000D) in column 19 (modification date): a row ends at "\n" alone, so a "\r\n" line end leaves "\r" in the last column"#
        ),
        BadInput("CR at the very end", second(plausible.row([0: "2"]) + "\r"), 2, plausible.start(of: 19) - 1, "unexpected carriage return (U+000D) in column 19 (modification date): a row ends at"),
        BadInput("CR inside a name", plausible.row([1: "A\rB"]), 1, 4, "unexpected carriage return (U+000D) in column 2 (name)"),

        // Within a row, the error at the lowest offset comes first.
        BadInput("bad byte before a bad field", plausible.row(column: 1, bytes: [0xFF]).replacing(Array("1.5".utf8), with: Array("x".utf8)), 1, 3, "invalid UTF-8 byte 0xff in column 2 (name)"),
        BadInput("bad field before a bad byte", plausible.row(column: 17, bytes: [0xFF]).replacing(Array("1.5".utf8), with: Array("x".utf8)), 1, plausible.start(of: 4), latitudeSyntax + #""x""#),
        BadInput("bad byte inside a bad field", plausible.row(column: 8, bytes: [0x55, 0xFF]), 1, plausible.start(of: 8), countryMessage + "\"U\u{FFFD}\""),
        BadInput("first of two bad fields", plausible.row([4: "x", 0: "y"]), 1, 1, idMessage + #""y""#),
        BadInput("control character shown escaped", plausible.row(column: 0, bytes: [0x31, 0x00]), 1, 1, idMessage + #""1\u0000""#),

        // Lengths.
        BadInput(
            "name too long", plausible.row([1: String(repeating: "a", count: 65_536)]), 1, 3,
            "the name in column 2 (name) is 65536 bytes of UTF-8, more than the limit of 65535"
        ),
        BadInput(
            "asciiname too long", plausible.row([2: String(repeating: "a", count: 70_000)]), 1, plausible.start(of: 2, [1: "Name"]),
            "the asciiname in column 3 (asciiname) is 70000 bytes of UTF-8, more than the limit of 65535"
        ),
        BadInput(
            "alternate name too long", plausible.row([3: "a,b," + String(repeating: "c", count: 65_536) + ",d"]), 1, plausible.start(of: 3) + 4,
            "an alternate name in column 4 (alternatenames) is 65536 bytes of UTF-8, more than the limit of 65535"
        ),

        // Nothing to read.
        BadInput("empty input", "", 1, 1, "no rows: expected at least one GeoNames row"),
        BadInput("only a byte order mark", [0xEF, 0xBB, 0xBF], 1, 1, "no rows: expected at least one GeoNames row"),
    ]

    @Test(arguments: badInputs)
    func rejectsBadInput(_ input: BadInput) {
        input.expectRefused { bytes, file in _ = try GeoNamesParser.parse(bytes, file: file) }
    }

    @Test func describesTheErrorWithFileAndPlace() {
        let expected = MMSearchError.invalidInput(
            file: "cities.txt", line: 3, column: 1, byteOffset: 2 * (plausible.row().utf8.count + 1),
            message: #"expected a geonameid (a whole number from 0 to 4294967295) in column 1, found "x12""#
        )
        let text = plausible.row() + "\n" + plausible.row([0: "2"]) + "\n" + plausible.row([0: "x12"]) + "\n"
        #expect(throws: expected) { try GeoNamesParser.parse(bytes(text), file: "cities.txt") }
        #expect(expected.description.hasPrefix(#"cities.txt:3:1: expected a geonameid (a whole number from 0 to 4294967295) in column 1, found "x12" (byte "#))
    }

    // MARK: Repeated ids

    @Test func aRepeatedIDIsReportedAfterOtherErrors() {
        // Ids 5 and 6 each repeat; 6's repeat comes first in the input.
        let repeats = [plausible.row([0: "5"]), plausible.row([0: "6"]), plausible.row([0: "6"]), plausible.row([0: "5"])].joined(separator: "\n")
        #expect(throws: MMSearchError.invalidInput(
            file: "bad.txt", line: 3, column: 1, byteOffset: 2 * (plausible.row().utf8.count + 1),
            message: "duplicate geonameid 6 in column 1; the first is on line 2"
        )) {
            try GeoNamesParser.parse(bytes(repeats), file: "bad.txt")
        }
        // Ids are compared once the whole dump is read, so a later error of another kind wins.
        let alsoBad = [plausible.row([0: "5"]), plausible.row([0: "5"]), plausible.row([0: "7", 8: "ukr"])].joined(separator: "\n")
        #expect {
            try GeoNamesParser.parse(bytes(alsoBad), file: "bad.txt")
        } throws: { error in
            guard let error = error as? MMSearchError else { return false }
            return placeAndMessage(error).hasPrefix("3:\(plausible.start(of: 8)): " + Self.countryMessage)
        }
    }

    @Test func skipInvalidKeepsTheFirstOfRepeatedIDs() throws {
        let text = [
            plausible.row([0: "5", 1: "first"]),
            plausible.row([0: "6"]),
            plausible.row([0: "5", 1: "second"]),
            plausible.row([0: "6", 4: "nan"]),
            plausible.row([0: "5", 1: "third"]),
            plausible.row([0: "7"]),
        ].joined(separator: "\n")
        let parsed = try parseSkipping(bytes(text))
        #expect(parsed.rows.map(\.id) == [5, 6, 7])
        #expect(parsed.rows.first?.name == bytes("first"))
        // In input order: the repeats found after reading, and the error found while reading.
        #expect(parsed.skipped.map(placeAndMessage) == [
            "3:1: duplicate geonameid 5 in column 1; the first is on line 1",
            "4:\(plausible.start(of: 4)): " + Self.latitudeSyntax + #""nan""#,
            "5:1: duplicate geonameid 5 in column 1; the first is on line 1",
        ])
    }

    @Test func idsThatDifferInAnyBitAreDistinct() throws {
        let ids: [UInt32] = [1, 1 + 1 << 11, 1 + 1 << 22, 1 + 1 << 31, 4_294_967_295, 0, 4_294_967_295]
        let text = ids.map { plausible.row([0: "\($0)"]) }.joined(separator: "\n")
        let parsed = try parseSkipping(bytes(text))
        #expect(parsed.rows.map(\.id) == Array(ids.dropLast()))
        #expect(parsed.skipped.map(placeAndMessage) == ["7:1: duplicate geonameid 4294967295 in column 1; the first is on line 5"])
    }

    @Test func aRowDroppedForAnotherErrorDoesNotUseUpItsID() throws {
        let text = plausible.row([0: "5", 8: "UKR"]) + "\n" + plausible.row([0: "5", 1: "good"])
        let parsed = try parseSkipping(bytes(text))
        #expect(parsed.rows.map(\.name) == [bytes("good")])
        #expect(parsed.skipped.count == 1)
    }

    // MARK: Skipping invalid rows

    @Test(arguments: badInputs.filter { !$0.fragment.hasPrefix("no rows") && !$0.fragment.hasPrefix("duplicate") })
    func skipInvalidDropsTheRowAndKeepsTheSameError(_ input: BadInput) throws {
        // The bad input, then a good row with an id none of them has.
        let bytes = input.followed(by: plausible.row([0: "999"]))
        let strictError = try #require(input.strictError(parsing: bytes) { bytes, file throws(MMSearchError) in _ = try GeoNamesParser.parse(bytes, file: file) })
        let parsed = try parseSkipping(bytes)
        #expect(parsed.rows.last?.id == 999)
        #expect(parsed.skipped.first == strictError)
    }

    @Test func skipInvalidKeepsEveryValidRowAroundManyBadOnes() throws {
        var lines: [String] = []
        for id in 1...300 {
            switch id % 5 {
            case 0: lines.append(plausible.row([0: "\(id)", 8: "x"]))
            case 3: lines.append(plausible.row([0: "\(id)"]) + "\textra")
            default: lines.append(plausible.row([0: "\(id)"]))
            }
        }
        let parsed = try parseSkipping(bytes(lines.joined(separator: "\n") + "\n"))
        let isBad: (Int) -> Bool = { $0 % 5 == 0 || $0 % 5 == 3 }
        #expect(parsed.rows.map(\.id) == (1...300).filter { !isBad($0) }.map(UInt32.init))
        #expect(parsed.skipped.count == 120)
        let skippedLines = parsed.skipped.map { error -> Int in
            guard case let .invalidInput(_, line, _, _, _) = error else { return 0 }
            return line
        }
        #expect(skippedLines == (1...300).filter(isBad))
    }

    @Test func validDumpsGiveTheSameRowsEitherWay() throws {
        let text = bytes(plausible.row() + "\n" + plausible.row([0: "2"]) + "\n")
        let parsed = try parseSkipping(text)
        #expect(parsed == (try GeoNamesParser.parse(text, file: "x")))
        #expect(parsed.skipped.isEmpty && parsed.rows.count == 2)
    }

    @Test func everyRowSkippedIsAnError() {
        let firstError = #"expected a geonameid (a whole number from 0 to 4294967295) in column 1, found "x""#
        #expect(throws: MMSearchError.invalidInput(
            file: "bad.txt", line: 1, column: 1, byteOffset: 0,
            message: "no valid row: the only row was skipped; the first: " + firstError
        )) {
            try parseSkipping(bytes(plausible.row([0: "x"]) + "\n"))
        }
        let three = [plausible.row([0: "x"]), plausible.row([4: "91"]), "short"].joined(separator: "\n")
        #expect(throws: MMSearchError.invalidInput(
            file: "bad.txt", line: 1, column: 1, byteOffset: 0,
            message: "no valid row: all 3 rows were skipped; the first: " + firstError
        )) {
            try parseSkipping(bytes(three))
        }
        // Without skipInvalid, the first error itself.
        #expect(throws: MMSearchError.invalidInput(file: "bad.txt", line: 1, column: 1, byteOffset: 0, message: firstError)) {
            try GeoNamesParser.parse(bytes(three), file: "bad.txt")
        }
        // An empty input is an error either way.
        #expect(throws: MMSearchError.invalidInput(
            file: "bad.txt", line: 1, column: 1, byteOffset: 0,
            message: "no rows: expected at least one GeoNames row, found an empty input"
        )) {
            try parseSkipping([])
        }
    }

    @Test func placesErrorsExactlyFarIntoALongInput() throws {
        // Multibyte names, a byte order mark, a bad country every 37th row and a repeated id every 53rd.
        var lines: [String] = []
        for id in 1...700 {
            lines.append(plausible.row([
                0: "\(id % 53 == 0 ? id - 1 : id)", 1: "Zürich 東京 😀 \(id)", 3: "Цюрих,チューリッヒ",
                8: id % 37 == 0 ? "ukr" : "CH",
            ]))
        }
        let input: [UInt8] = [0xEF, 0xBB, 0xBF] + bytes(lines.joined(separator: "\n"))
        let parsed = try parseSkipping(input)
        #expect(parsed.rows.count + parsed.skipped.count == 700)
        // 18 bad countries and 13 repeats, but row 371 repeats the id of row 370, which was dropped
        // for its country, so it is kept.
        #expect(parsed.skipped.count == 18 + 13 - 1)
        #expect(parsed.rows.contains { $0.id == 370 && $0.name.last == UInt8(ascii: "1") })
        expectSkippedInOrderAtTheirPlaces(parsed.skipped, in: input) { message, line in
            #expect(message.hasSuffix("the first is on line \(line - 1)"), "\(message)")
        }
    }

    // MARK: Telling the inputs apart

    @Test(arguments: [
        ([], InputKind.geoNamesDump),
        ([0xEF, 0xBB, 0xBF], .geoNamesDump),
        (Array("[".utf8), .cityListJSON),
        (Array(" \t\r\n [{}]".utf8), .cityListJSON),
        ([0xEF, 0xBB, 0xBF] + Array("\r\n[".utf8), .cityListJSON),
        (Array("[not json at all".utf8), .cityListJSON),
        (Array("3038999\tSoldeu\t".utf8), .geoNamesDump),
        (Array("\n\n3038999\t".utf8), .geoNamesDump),
        (Array(#"{"_id":1}"#.utf8), .geoNamesDump),
        (Array(" \t\n".utf8), .geoNamesDump),
        ([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("[".utf8), .geoNamesDump),  // Only one mark is skipped.
        (Array(" ".utf8) + [0xEF, 0xBB, 0xBF] + Array("[".utf8), .geoNamesDump),  // A mark is only skipped at the start.
        (Array("\u{C}[".utf8), .geoNamesDump),  // Form feed is not whitespace here (nor in JSON).
        (Array("\u{A0}[".utf8), .geoNamesDump),
    ] as [([UInt8], InputKind)])
    func detectsTheInputKind(bytes: [UInt8], expected: InputKind) {
        #expect(bytes.withUnsafeBytes { InputKind.detect($0) } == expected)
    }

    @Test func detectsEachParsersOwnInput() throws {
        let list = Array(#"[{"_id":1,"name":"A","country":"UA","coord":{"lat":1,"lon":2}}]"#.utf8)
        let dump = bytes(plausible.row())
        #expect(list.withUnsafeBytes { InputKind.detect($0) } == .cityListJSON)
        #expect(dump.withUnsafeBytes { InputKind.detect($0) } == .geoNamesDump)
        #expect(try CityListParser.parse(list, file: "x").count == 1)
        #expect(try GeoNamesParser.parse(dump, file: "x").rows.count == 1)
    }

    // MARK: The real dump

    static let realDumpPath = SharedData.packageRoot + "/../shared/data/cities500.txt.gz"

    @Test func parsesTheRealDump() throws {
        guard let data = FileManager.default.contents(atPath: Self.realDumpPath) else {
            Issue.record("the real dump is missing: expected it at \(Self.realDumpPath) (see shared/data/README.md)")
            return
        }
        let text = try Gzip.decompress([UInt8](data), file: Self.realDumpPath)
        let parsed = try GeoNamesParser.parse(text, file: Self.realDumpPath)
        #expect(parsed.skipped.isEmpty)
        #expect(parsed.rows.count == 234_908)  // shared/data/README.md
        #expect(Set(parsed.rows.map(\.id)).count == parsed.rows.count)

        // Well-known rows, against a naive reading of their lines (as `zcat | grep ^ID` shows them).
        let wanted: Set<UInt32> = [707_860, 2_643_743, 2_988_507, 5_128_581, 1_850_147, 703_448, 3_448_439, 2_761_369, 3_038_999]
        // (Found with Data's search, as a byte loop over the whole dump is slow in debug builds.)
        let dump = Data(text)
        var lines: [UInt32: [UInt8]] = [:]
        for id in wanted {
            let start = try #require(dump.range(of: Data("\n\(id)\t".utf8)), "no row \(id)").lowerBound + 1
            let end = dump[start...].firstIndex(of: UInt8(ascii: "\n")) ?? dump.endIndex
            lines[id] = [UInt8](dump[start..<end])
        }
        let rows = Dictionary(uniqueKeysWithValues: parsed.rows.filter { wanted.contains($0.id) }.map { ($0.id, $0) })
        for (id, line) in lines {
            let columns = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false).map(Array.init)
            try #require(columns.count == 19)
            let alternates = columns[3].isEmpty
                ? [] : columns[3].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map(Array.init)
            let row = try #require(rows[id])
            #expect(row.name == columns[1])
            #expect(row.asciiName == columns[2])
            #expect(row.alternateNames == alternates)
            #expect(row.country == columns[8])
            #expect(row.population == (columns[14].isEmpty ? 0 : UInt64(String(decoding: columns[14], as: UTF8.self))))
            #expect(Coordinate.decimalText(row.latitudeE7) == Self.shortest(columns[4]), "\(id)")
            #expect(Coordinate.decimalText(row.longitudeE7) == Self.shortest(columns[5]), "\(id)")
        }
        #expect(rows[2_643_743]?.name == bytes("London"))
        #expect(rows[3_448_439]?.name == bytes("São Paulo"))
    }

    /// A coordinate's text without trailing zeros after the point (and without the point, if then last).
    static func shortest(_ text: [UInt8]) -> String {
        var text = String(decoding: text, as: UTF8.self)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }
}
