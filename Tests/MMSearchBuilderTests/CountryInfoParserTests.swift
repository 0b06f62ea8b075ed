import Foundation
import MMSearch
@testable import MMSearchBuilder
import MMSearchTestSupport
import Testing

/// The 19 columns of a plausible row, for tests to change one or two of.
private let plausible = TabRow(columns: [
    "DE", "DEU", "276", "GM", "Germany", "Berlin", "357021", "82927922", "EU", ".de", "EUR", "Euro", "49",
    "#####", #"^(\d{5})$"#, "de", "2921044", "CH,PL,NL,DK,BE,CZ,LU,FR,AT", "",
])

/// GeoNames' own header, a comment with tabs in it.
private let header = "#ISO\tISO3\tISO-Numeric\tfips\tCountry\tCapital\tArea(in sq km)\tPopulation\tContinent\ttld\tCurrencyCode\tCurrencyName\tPhone\tPostal Code Format\tPostal Code Regex\tLanguages\tgeonameid\tneighbours\tEquivalentFipsCode"

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// The countries of `text`, without their geonameids (`readsTheGeonameID` checks those).
private func parse(_ text: String) throws(MMSearchError) -> [CountryInfo] {
    withoutIDs(try CountryInfoParser.parse(bytes(text), file: "test.txt").countries)
}

private func withoutIDs(_ countries: [CountryInfo]) -> [CountryInfo] {
    countries.map { var country = $0; country.geonameID = nil; return country }
}

/// Parses with `skipInvalid`.
private func parseSkipping(_ bytes: [UInt8]) throws(MMSearchError) -> ParsedCountryInfo {
    var parsed = try CountryInfoParser.parse(bytes, file: "bad.txt", options: CityListParseOptions(skipInvalid: true))
    parsed.countries = withoutIDs(parsed.countries)
    return parsed
}

private func country(_ code: String, _ iso3: String, _ name: String, _ geonameID: UInt32? = nil) -> CountryInfo {
    CountryInfo(code: bytes(code), iso3: bytes(iso3), name: bytes(name), geonameID: geonameID)
}

@Suite struct CountryInfoParserTests {
    // MARK: Happy path

    /// Column 17, the geonameid the alternate names file names a country by: a number, nil when
    /// empty, an error otherwise (at the column's start, named).
    @Test func readsTheGeonameID() throws {
        let countries = try CountryInfoParser.parse(bytes(plausible.row() + "\n" + plausible.row([0: "FR", 16: ""])), file: "x").countries
        #expect(countries.map(\.geonameID) == [2921044, nil])
        #expect {
            _ = try CountryInfoParser.parse(bytes(plausible.row([16: "29x"])), file: "x")
        } throws: { error in
            guard case let .invalidInput(_, line, _, _, message) = error as! MMSearchError else { return false }
            return line == 1 && message == #"expected a geonameid (empty, or a whole number from 0 to 4294967295) in column 17 (geonameid), found "29x""#
        }
    }

    @Test func readsEveryField() throws {
        let text = [
            "# GeoNames Country Info",
            "#",
            header,
            plausible.row(),
            plausible.row([0: "AX", 1: "ALA", 4: "Åland", 5: "Mariehamn"]),
            "#  a comment between rows, with\ttabs",
            plausible.row([0: "CI", 1: "CIV", 4: "Côte d’Ivoire"]),
            plausible.row([0: "XK", 1: "", 4: ""]),
            "#",
        ].joined(separator: "\n")
        #expect(try parse(text) == [
            country("DE", "DEU", "Germany"),
            country("AX", "ALA", "Åland"),
            country("CI", "CIV", "Côte d’Ivoire"),
            // ISO3 and the name may be empty.
            country("XK", "", ""),
        ])
    }

    @Test func keepsNamesAsGiven() throws {
        let name = "Tür \"kiye\" \\ 😀 \u{7F}x\u{85}"
        #expect(try parse(plausible.row([4: name])) == [country("DE", "DEU", name)])
        // Columns not used are not checked beyond UTF-8 and control characters (the geonameid is:
        // `readsTheGeonameID`).
        let odd = plausible.row([2: "x", 3: "??", 6: "-1.5e3", 7: "lots", 8: "", 16: "", 17: ",,"])
        #expect(try parse(odd) == [country("DE", "DEU", "Germany")])
    }

    @Test(arguments: ["DE", "00", "9Z", "A1"])
    func acceptsCountryCodes(_ code: String) throws {
        #expect(try parse(plausible.row([0: code])).map(\.code) == [bytes(code)])
    }

    @Test func skipsALeadingByteOrderMark() throws {
        let withMark: [UInt8] = [0xEF, 0xBB, 0xBF] + bytes(header + "\n" + plausible.row() + "\n")
        #expect(try withoutIDs(CountryInfoParser.parse(withMark, file: "bom.txt").countries) == parse(plausible.row()))
        // Columns count from after the mark; byte offsets from the file's start.
        #expect(throws: MMSearchError.invalidInput(
            file: "bom.txt", line: 1, column: 1, byteOffset: 3,
            message: #"expected a country code (two characters A-Z or 0-9: ISO 3166-1 alpha-2) in column 1 (ISO), found "usa""#
        )) {
            try CountryInfoParser.parse([0xEF, 0xBB, 0xBF] + bytes(plausible.row([0: "usa"])), file: "bom.txt")
        }
        // A mark anywhere else is part of the text: here it makes a line that is not a comment.
        let lateMark = bytes(plausible.row() + "\n") + [0xEF, 0xBB, 0xBF] + bytes("# not a comment")
        #expect(throws: MMSearchError.invalidInput(
            file: "x", line: 2, column: 1, byteOffset: plausible.row().utf8.count + 1,
            message: "expected 19 tab-separated columns, found 1"
        )) {
            try CountryInfoParser.parse(lateMark, file: "x")
        }
    }

    @Test func lineEnds() throws {
        let one = plausible.row(), two = plausible.row([0: "FR", 1: "FRA", 4: "France"])
        // A final line without "\n", and a final "\n" after which nothing is a row.
        for text in [one + "\n" + two, one + "\n" + two + "\n", header + "\n" + one + "\n" + two + "\n#"] {
            #expect(try parse(text).map(\.code) == [bytes("DE"), bytes("FR")])
        }
        // An empty line is a row of one column, even the last one; it is not a comment.
        #expect(throws: MMSearchError.invalidInput(
            file: "test.txt", line: 3, column: 1, byteOffset: one.utf8.count + two.utf8.count + 2,
            message: "expected 19 tab-separated columns, found 1 (an empty line)"
        )) {
            try parse(one + "\n" + two + "\n\n")
        }
    }

    @Test func arrayConvenienceMatchesBufferEntryPoint() throws {
        let input = bytes(header + "\n" + plausible.row() + "\n" + plausible.row([0: "FR"]))
        let fromBuffer = try input.withUnsafeBytes { try CountryInfoParser.parse($0, file: "x", options: CityListParseOptions()) }
        #expect(try CountryInfoParser.parse(input, file: "x") == fromBuffer)
        #expect(fromBuffer.skipped.isEmpty && fromBuffer.countries.count == 2)
    }

    // MARK: Errors

    /// A comment and a valid row, then `text` on line 3.
    static func third(_ text: String) -> String { header + "\n" + plausible.row([0: "AT"]) + "\n" + text }
    static func third(_ bytes: [UInt8]) -> [UInt8] { Array((header + "\n" + plausible.row([0: "AT"]) + "\n").utf8) + bytes }


    static let codeMessage = "expected a country code (two characters A-Z or 0-9: ISO 3166-1 alpha-2) in column 1 (ISO), found "
    static let iso3Message = "expected an ISO3 code (empty, or three letters A-Z: ISO 3166-1 alpha-3) in column 2 (ISO3), found "

    static let badInputs: [BadInput] = [
        // Column counts.
        BadInput("18 columns", third(plausible.columns.dropLast().joined(separator: "\t")), 3, 1, "expected 19 tab-separated columns, found 18"),
        BadInput("1 column", "hello", 1, 1, "expected 19 tab-separated columns, found 1"),
        BadInput("empty line", third("\n" + plausible.row([0: "FR"])), 3, 1, "expected 19 tab-separated columns, found 1 (an empty line)"),
        BadInput("empty line among comments", "#a\n\n#b\n" + plausible.row(), 2, 1, "expected 19 tab-separated columns, found 1 (an empty line)"),
        BadInput("only a line end", "\n", 1, 1, "expected 19 tab-separated columns, found 1 (an empty line)"),
        BadInput("a comment after a space", " #ISO\tISO3", 1, 1, "expected 19 tab-separated columns, found 2"),
        BadInput(
            "20 columns", third(plausible.row([0: "FR"]) + "\textra"), 3, plausible.start(of: 19) - 1,
            "expected 19 tab-separated columns, found 20; this tab starts a column after column 19 (EquivalentFipsCode)"
        ),
        BadInput("22 columns", plausible.row() + "\t\t\t", 1, plausible.start(of: 19) - 1, "expected 19 tab-separated columns, found 22"),
        BadInput("4 columns (an admin1 row)", "US.IL\tIllinois\tIllinois\t4896861", 1, 1, "expected 19 tab-separated columns, found 4"),

        // Column 1, ISO.
        BadInput("code of three letters", plausible.row([0: "DEU"]), 1, 1, codeMessage + #""DEU""#),
        BadInput("code of one letter", plausible.row([0: "D"]), 1, 1, codeMessage + #""D""#),
        BadInput("empty code", third(plausible.row([0: ""])), 3, 1, codeMessage + #""""#),
        BadInput("lowercase code", plausible.row([0: "de"]), 1, 1, codeMessage + #""de""#),
        BadInput("non-ASCII code", plausible.row([0: "DÄ"]), 1, 1, codeMessage + #""DÄ""#),
        BadInput("code with a space", plausible.row([0: "D "]), 1, 1, codeMessage + #""D ""#),
        BadInput("repeated code", header + "\n" + plausible.row() + "\n" + plausible.row([0: "FR"]) + "\n" + plausible.row([4: "Again"]), 4, 1, "duplicate country code DE; the first is on line 2"),

        // Column 2, ISO3.
        BadInput("ISO3 of two letters", plausible.row([1: "DE"]), 1, plausible.start(of: 1), iso3Message + #""DE""#),
        BadInput("ISO3 of four letters", plausible.row([1: "DEUT"]), 1, plausible.start(of: 1), iso3Message + #""DEUT""#),
        BadInput("lowercase ISO3", plausible.row([1: "deu"]), 1, plausible.start(of: 1), iso3Message + #""deu""#),
        BadInput("ISO3 with a digit", third(plausible.row([1: "DE1"])), 3, plausible.start(of: 1), iso3Message + #""DE1""#),
        BadInput("ISO3 with a space", plausible.row([1: "DE "]), 1, plausible.start(of: 1), iso3Message + #""DE ""#),
        BadInput("non-ASCII ISO3", plausible.row([1: "DEÜ"]), 1, plausible.start(of: 1), iso3Message + #""DEÜ""#),

        // Encoding and control characters, each at its byte; columns count scalars.
        BadInput(
            "invalid UTF-8 in a name", third(plausible.row(column: 4, bytes: Array("é東😀".utf8) + [0xFE])), 3, plausible.start(of: 4) + 3,
            "invalid UTF-8 byte 0xfe in column 5 (Country): it never occurs in UTF-8"
        ),
        BadInput("stray continuation byte", plausible.row(column: 5, bytes: [0x41, 0x80]), 1, plausible.start(of: 5) + 1, "invalid UTF-8 byte 0x80 in column 6 (Capital): a continuation byte with no lead byte"),
        BadInput("UTF-8 surrogate", plausible.row(column: 4, bytes: [0xED, 0xA0, 0x80]), 1, plausible.start(of: 4), "invalid UTF-8 byte 0xed in column 5 (Country): it starts an encoded UTF-16 surrogate"),
        BadInput("cut short at the end", plausible.row(column: 18, bytes: [0xF0, 0x9F, 0x98]), 1, plausible.start(of: 18), "invalid UTF-8 byte 0xf0 in column 19 (EquivalentFipsCode): a sequence cut short"),
        BadInput("NUL in a name", plausible.row(column: 4, bytes: [0x41, 0x00]), 1, plausible.start(of: 4) + 1, "unexpected control character U+0000 in column 5 (Country)"),
        BadInput("escape in an unused column", plausible.row(column: 14, bytes: [0x1B]), 1, plausible.start(of: 14), "unexpected control character U+001B in column 15 (Postal Code Regex)"),
        BadInput(
            "CRLF line ends", plausible.row() + "\r\n" + plausible.row([0: "FR"]), 1, plausible.start(of: 19) - 1,
            #"unexpected carriage return (U+000D) in column 19 (EquivalentFipsCode): a row ends at "\n" alone, so a "\r\n" line end leaves "\r" in the last column"#
        ),
        BadInput("CR inside a name", plausible.row([4: "A\rB"]), 1, plausible.start(of: 4) + 1, "unexpected carriage return (U+000D) in column 5 (Country)"),

        // Comments are checked for UTF-8 and control characters too.
        BadInput("invalid UTF-8 in a comment", [0x23, 0xC3, 0xA9, 0xFF, 0x0A] + bytes(plausible.row()), 1, 3, "invalid UTF-8 byte 0xff in a comment line: it never occurs in UTF-8"),
        BadInput("NUL in a comment", third("# a\u{0}b"), 3, 4, "unexpected control character U+0000 in a comment line"),
        BadInput("CRLF after a comment", header + "\r\n" + plausible.row(), 1, header.unicodeScalars.count + 1, #"unexpected carriage return (U+000D) in a comment line: a line ends at "\n" alone, so a "\r\n" line end leaves "\r" at its end"#),

        // Within a row, the error at the lowest offset comes first.
        BadInput("bad byte inside a bad field", plausible.row(column: 0, bytes: [0x44, 0xFF]).replacing(Array("DEU".utf8), with: Array("x".utf8)), 1, 1, codeMessage + "\"D\u{FFFD}\""),
        BadInput("bad field before a bad byte", plausible.row(column: 5, bytes: [0xFF]).replacing(Array("DEU".utf8), with: Array("x".utf8)), 1, plausible.start(of: 1), iso3Message + #""x""#),
        BadInput("control character shown escaped", plausible.row(column: 0, bytes: Array("D".utf8) + [0x01]), 1, 1, codeMessage + #""D\u0001""#),
        BadInput("first of two bad fields", plausible.row([0: "de", 1: "x"]), 1, 1, codeMessage + #""de""#),

        // Lengths.
        BadInput(
            "name too long", plausible.row([4: String(repeating: "a", count: 65_536)]), 1, plausible.start(of: 4),
            "the country name in column 5 (Country) is 65536 bytes of UTF-8, more than the limit of 65535"
        ),

        // Nothing to read.
        BadInput("empty input", "", 1, 1, "no rows: expected at least one country row, found an empty input"),
        BadInput("only a byte order mark", [0xEF, 0xBB, 0xBF], 1, 1, "no rows: expected at least one country row, found an empty input"),
        BadInput("only comments", "# GeoNames\n" + header + "\n", 1, 1, "no rows: expected at least one country row, found only comment lines"),
        BadInput("only a comment mark", "#", 1, 1, "no rows: expected at least one country row, found only comment lines"),
    ]

    @Test(arguments: badInputs)
    func rejectsBadInput(_ input: BadInput) {
        input.expectRefused { bytes, file in _ = try CountryInfoParser.parse(bytes, file: file) }
    }

    @Test func acceptsTheLongestName() throws {
        let long = String(repeating: "é", count: 65_534 / 2) + "a"
        #expect(try parse(plausible.row([4: long])) == [country("DE", "DEU", long)])
    }

    @Test func describesTheErrorWithFileAndPlace() {
        let expected = MMSearchError.invalidInput(
            file: "countryInfo.txt", line: 2, column: 1, byteOffset: header.utf8.count + 1,
            message: #"expected a country code (two characters A-Z or 0-9: ISO 3166-1 alpha-2) in column 1 (ISO), found "usa""#
        )
        let text = header + "\n" + plausible.row([0: "usa"]) + "\n"
        #expect(throws: expected) { try CountryInfoParser.parse(bytes(text), file: "countryInfo.txt") }
        #expect(expected.description.hasPrefix(#"countryInfo.txt:2:1: expected a country code (two characters A-Z or 0-9: ISO 3166-1 alpha-2) in column 1 (ISO), found "usa" (byte "#))
    }

    // MARK: Repeated codes

    @Test func skipInvalidKeepsTheFirstOfRepeatedCodes() throws {
        let text = [
            header,
            plausible.row([4: "first"]),
            plausible.row([0: "FR"]),
            plausible.row([4: "second"]),
            plausible.row([0: "FR", 1: "x"]),
            "# \u{1}",
            plausible.row([4: "third"]),
            plausible.row([0: "AT"]),
        ].joined(separator: "\n")
        let parsed = try parseSkipping(bytes(text))
        #expect(parsed.countries == [country("DE", "DEU", "first"), country("FR", "DEU", "Germany"), country("AT", "DEU", "Germany")])
        #expect(parsed.skipped.map(placeAndMessage) == [
            "4:1: duplicate country code DE; the first is on line 2",
            "5:\(plausible.start(of: 1)): " + Self.iso3Message + #""x""#,
            "6:3: unexpected control character U+0001 in a comment line",
            "7:1: duplicate country code DE; the first is on line 2",
        ])
    }

    @Test func aRowDroppedForAnotherErrorDoesNotUseUpItsCode() throws {
        let text = plausible.row([1: "x"]) + "\n" + plausible.row([4: "good"])
        let parsed = try parseSkipping(bytes(text))
        #expect(parsed.countries == [country("DE", "DEU", "good")])
        #expect(parsed.skipped.count == 1)
    }

    // MARK: Skipping invalid rows

    @Test(arguments: badInputs.filter { !$0.fragment.hasPrefix("no rows") && !$0.fragment.hasPrefix("duplicate") })
    func skipInvalidDropsTheRowAndKeepsTheSameError(_ input: BadInput) throws {
        // The bad input, then a good row with a code none of them has.
        let bytes = input.followed(by: plausible.row([0: "ZZ", 4: "Last"]))
        let strictError = try #require(input.strictError(parsing: bytes) { bytes, file throws(MMSearchError) in _ = try CountryInfoParser.parse(bytes, file: file) })
        let parsed = try parseSkipping(bytes)
        #expect(parsed.countries.last == country("ZZ", "DEU", "Last"))
        #expect(parsed.skipped.first == strictError)
    }

    @Test func validFilesGiveTheSameCountriesEitherWay() throws {
        let text = bytes(header + "\n" + plausible.row() + "\n" + plausible.row([0: "FR"]) + "\n")
        let parsed = try parseSkipping(text)
        let strict = try CountryInfoParser.parse(text, file: "x")
        #expect(parsed.countries == withoutIDs(strict.countries) && parsed.skipped == strict.skipped)
        #expect(parsed.skipped.isEmpty && parsed.countries.count == 2)
    }

    @Test func everyRowSkippedIsAnError() {
        let firstError = Self.codeMessage + #""x""#
        #expect(throws: MMSearchError.invalidInput(
            file: "bad.txt", line: 1, column: 1, byteOffset: 0,
            message: "no valid row: the only row was skipped; the first: " + firstError
        )) {
            try parseSkipping(bytes(plausible.row([0: "x"]) + "\n"))
        }
        // A bad comment is skipped too, but the error quotes the first bad row, and counts rows only.
        let three = ["#\u{1}", plausible.row([0: "x"]), "#", plausible.row([1: "x"]), "short"].joined(separator: "\n")
        #expect(throws: MMSearchError.invalidInput(
            file: "bad.txt", line: 2, column: 1, byteOffset: 3,
            message: "no valid row: all 3 rows were skipped; the first: " + firstError
        )) {
            try parseSkipping(bytes(three))
        }
        // Comments alone are an error either way, bad ones included.
        #expect(throws: MMSearchError.invalidInput(
            file: "bad.txt", line: 1, column: 1, byteOffset: 0,
            message: "no rows: expected at least one country row, found only comment lines"
        )) {
            try parseSkipping(bytes("#\n#\u{1}\n"))
        }
        #expect(throws: MMSearchError.invalidInput(
            file: "bad.txt", line: 1, column: 1, byteOffset: 0,
            message: "no rows: expected at least one country row, found an empty input"
        )) {
            try parseSkipping([])
        }
    }

    @Test func placesErrorsExactlyFarIntoALongInput() throws {
        // All 1,296 codes, multibyte names, a byte order mark, comments, a bad ISO3 every 37th row and
        // a repeated code every 53rd.
        let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let codes = digits.flatMap { first in digits.map { String([first, $0]) } }
        var lines: [String] = [header]
        for number in 1..<codes.count {
            if number % 100 == 0 { lines.append("# Ωμέγα \(number)") }
            lines.append(plausible.row([
                0: codes[number % 53 == 0 ? number - 1 : number], 1: number % 37 == 0 ? "ÄÄÄ" : "",
                4: "Zürich 東京 😀 \(number)",
            ]))
        }
        let input: [UInt8] = [0xEF, 0xBB, 0xBF] + bytes(lines.joined(separator: "\n"))
        let parsed = try parseSkipping(input)
        #expect(parsed.countries.count + parsed.skipped.count == codes.count - 1)
        // 35 bad ISO3 codes and 24 repeats, but row 371 repeats the code of row 370, which was dropped
        // for its ISO3, so it is kept.
        #expect(parsed.skipped.count == 35 + 24 - 1)
        #expect(parsed.countries.contains { $0.code == bytes(codes[370]) && $0.name.last == UInt8(ascii: "1") })
        expectSkippedInOrderAtTheirPlaces(parsed.skipped, in: input) { message, line in
            #expect(message.hasSuffix("the first is on line \(line - 1)"), "\(message)")
        }
    }

    // MARK: The real file

    static let realFilePath = SharedData.packageRoot + "/../shared/data/countryInfo.txt"

    @Test func parsesTheRealFile() throws {
        guard let data = FileManager.default.contents(atPath: Self.realFilePath) else {
            Issue.record("the real file is missing: expected it at \(Self.realFilePath) (see shared/data/README.md)")
            return
        }
        let parsed = try CountryInfoParser.parse([UInt8](data), file: Self.realFilePath)
        #expect(parsed.skipped.isEmpty)
        #expect(parsed.countries.count == 252)  // shared/data/README.md

        // A naive reading, as rank.py's country_names reads it: lines split at "\n", columns at "\t".
        var lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        let naive = lines.filter { !$0.hasPrefix("#") }.map { line -> CountryInfo in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            #expect(columns.count == 19, "\(line)")
            return CountryInfo(code: Array(columns[0].utf8), iso3: Array(columns[1].utf8), name: Array(columns[4].utf8),
                               geonameID: UInt32(columns[16]))
        }
        #expect(parsed.countries.count == naive.count)
        for (parsedCountry, naiveCountry) in zip(parsed.countries, naive) {
            #expect(parsedCountry == naiveCountry)
        }

        let countries = Dictionary(uniqueKeysWithValues: parsed.countries.map { (String(decoding: $0.code, as: UTF8.self), $0) })
        #expect(countries.count == parsed.countries.count)
        #expect(countries["DE"] == country("DE", "DEU", "Germany", 2921044))
        #expect(countries["CH"] == country("CH", "CHE", "Switzerland", 2658434))
        #expect(countries["US"] == country("US", "USA", "United States", 6252001))
    }
}
