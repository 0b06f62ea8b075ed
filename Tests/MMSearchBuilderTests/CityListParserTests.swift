import Foundation
import MMSearch
import MMSearchBuilder
import Testing

private func parse(_ text: String) throws(MMSearchError) -> [SourceRecord] {
    try CityListParser.parse(Array(text.utf8), file: "test.json")
}

private func record(_ id: UInt32, _ name: String, _ country: String, lat: Int32, lon: Int32) -> SourceRecord {
    SourceRecord(id: id, name: Array(name.utf8), country: Array(country.utf8), latitudeE7: lat, longitudeE7: lon)
}

/// Parses with `skipInvalid`.
private func parseSkipping(_ bytes: [UInt8]) throws(MMSearchError) -> ParsedCityList {
    try CityListParser.parse(bytes, file: "bad.json", options: CityListParseOptions(skipInvalid: true))
}

/// A valid one-line record: `{"_id":1,"name":"N1",...}` is 62 bytes for a one-digit id.
private func validRecord(_ id: UInt32) -> String {
    #"{"_id":\#(id),"name":"N\#(id)","country":"UA","coord":{"lat":1,"lon":2}}"#
}

/// A one-record list with the given coordinate texts.
private func coordinates(lat: String, lon: String) throws(MMSearchError) -> (lat: Int32, lon: Int32) {
    let records = try parse(#"[{"_id":1,"name":"A","country":"UA","coord":{"lat":\#(lat),"lon":\#(lon)}}]"#)
    return (records[0].latitudeE7, records[0].longitudeE7)
}

@Suite struct CityListParserTests {
    // MARK: Happy path

    @Test func readsTheDocumentedShape() throws {
        let records = try parse("""
            [{"_id":707860,"name":"Hurzuf","country":"UA","coord":{"lon":34.283333,"lat":44.549999}},
             {"_id":519188,"name":"Novinki","country":"RU","coord":{"lon":37.666668,"lat":55.683334}}]
            """)
        #expect(records == [
            record(707860, "Hurzuf", "UA", lat: 445_499_990, lon: 342_833_330),
            record(519188, "Novinki", "RU", lat: 556_833_340, lon: 376_666_680),
        ])
    }

    @Test func acceptsKeysInAnyOrderAndSkipsOtherKeys() throws {
        let records = try parse("""
            [ {
              "coord": {"extra": {"a": [1, -2.5e3, true, false, null, "x\\"y"], "b": {}}, "lat": -0.5, "lon": 1e1},
              "country": "",
              "population": 12000,
              "name": "",
              "tags": [[], {}, [[["deep"]]]],
              "_id": 4294967295
            } ]
            """)
        #expect(records == [record(4_294_967_295, "", "", lat: -5_000_000, lon: 100_000_000)])
    }

    @Test func acceptsNestingUpToTheLimit() throws {
        // The list is level 1 and the record level 2, so 62 brackets in a record's value reach level 64.
        let nested = String(repeating: "[", count: 62) + String(repeating: "]", count: 62)
        let records = try parse(#"[{"x":\#(nested),"_id":1,"name":"A","country":"UA","coord":{"lat":1,"lon":2}}]"#)
        #expect(records.count == 1)
        #expect(CityListParser.maximumNesting == 64)
    }

    @Test func emptyArrayIsRefused() throws {
        for (text, line, column) in [("[]", 1, 2), (" \t\r\n[ \n ]\r\n ", 3, 2)] {
            #expect(throws: MMSearchError.invalidInput(file: "x", line: line, column: column, byteOffset: text.utf8.count - (text == "[]" ? 1 : 4),
                                                       message: "expected a record (the list is empty), found ']'")) {
                _ = try CityListParser.parse(Array(text.utf8), file: "x")
            }
        }
    }

    @Test func decodesEveryEscape() throws {
        let records = try parse(#"""
            [{"_id":1,"name":"S\u00e3o \"Q\" \\ \/ \b\f\n\r\t \uD83D\uDE00 \u20AC \u0041","country":"BR","coord":{"lat":0,"lon":0}}]
            """#)
        #expect(records.first?.name == Array("São \"Q\" \\ / \u{8}\u{C}\n\r\t 😀 € A".utf8))
    }

    @Test func keepsRawUTF8AsIs() throws {
        let records = try parse(#"[{"_id":1,"name":"Gorkhā Mar’ina 서울 東京 Barœ\#u{9C}ul","country":"NP","coord":{"lat":0,"lon":0}}]"#)
        #expect(records.first?.name == Array("Gorkhā Mar’ina 서울 東京 Barœ\u{9C}ul".utf8))
    }

    @Test func recognizesEscapedKeys() throws {
        let records = try parse(#"[{"\u005fid":7,"n\u0061me":"A","country":"U\u0041","coord":{"l\u0061t":1,"lon":2}}]"#)
        #expect(records == [record(7, "A", "UA", lat: 10_000_000, lon: 20_000_000)])
    }

    @Test func skipsALeadingByteOrderMark() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"[{"_id":1,"name":"A","country":"UA","coord":{"lat":1,"lon":2}}]"#.utf8)
        let records = try CityListParser.parse(bytes, file: "bom.json")
        #expect(records == [record(1, "A", "UA", lat: 10_000_000, lon: 20_000_000)])
    }

    @Test(arguments: [
        ("1e1", 100_000_000), ("-0.5", -5_000_000), ("44.549999", 445_499_990), ("28", 280_000_000),
        ("0", 0), ("-0", 0), ("0.0000001", 1), ("-0.0000001", -1),
        ("0.00000005", 1), ("-0.00000005", -1), ("0.00000004999999999", 0), ("0.00000015", 2),
        ("1.23456789", 12_345_679), ("-1.23456785", -12_345_679), ("-1.234567849", -12_345_678),
        ("90", 900_000_000), ("-90", -900_000_000), ("90.00000004", 900_000_000),
        ("4.4549999E1", 445_499_990), ("4454.9999e-2", 445_499_990), ("0.0445499990e+3", 445_499_990),
        ("1e-99999999999999999999999", 0), ("0e99999999999999999999999", 0), ("0.000e0", 0),
        ("89.999999999999999999999999999999", 900_000_000),
    ] as [(String, Int32)])
    func convertsLatitudeExactly(text: String, expected: Int32) throws {
        #expect(try coordinates(lat: text, lon: "0").lat == expected)
    }

    @Test func acceptsLongitudeUpTo180() throws {
        #expect(try coordinates(lat: "0", lon: "180") == (0, 1_800_000_000))
        #expect(try coordinates(lat: "0", lon: "-180.00000004") == (0, -1_800_000_000))
    }

    @Test func arrayConvenienceMatchesBufferEntryPoint() throws {
        let bytes = Array(#"[{"_id":3,"name":"B","country":"FR","coord":{"lat":1.5,"lon":-2}}]"#.utf8)
        let fromBuffer = try bytes.withUnsafeBytes { try CityListParser.parse($0, file: "x") }
        #expect(try CityListParser.parse(bytes, file: "x") == fromBuffer)
    }

    // MARK: Errors

    /// A one-record list whose name is `nameBytes` as written between the quotes (which start at column 18).
    static func listWithName(_ nameBytes: [UInt8]) -> [UInt8] {
        Array(#"[{"_id":1,"name":""#.utf8) + nameBytes + Array(#"","country":"UA","coord":{"lat":1,"lon":2}}]"#.utf8)
    }

    static let good = #"{"_id":1,"name":"A","country":"UA","coord":{"lat":1,"lon":2}}"#

    static let badInputs: [BadInput] = [
        // Structure.
        BadInput("empty input", "", 1, 1, "unexpected end of input, expected '[' to start the city list"),
        BadInput("top level is an object", #"{"_id":1}"#, 1, 1, "expected '[' to start the city list, found an object"),
        BadInput("top level is a number", "  42", 1, 3, "expected '[' to start the city list, found a number"),
        BadInput("truncated array", "[\(good)", 1, 63, "unexpected end of input, expected ',' or ']' after a record"),
        BadInput("truncated after comma", "[\(good),\n", 2, 1, "unexpected end of input, expected '{' to start a record"),
        BadInput("missing comma", "[\(good)\n \(good)]", 2, 2, "expected ',' or ']' after a record, found an object"),
        BadInput("bad separator", "[\(good)x", 1, 63, "expected ',' or ']' after a record, found 'x'"),
        BadInput("trailing comma", "[\(good),]", 1, 64, "expected '{' to start a record, found ']'"),
        BadInput("record not an object", "[[1]]", 1, 2, "expected '{' to start a record, found an array"),
        BadInput("trailing garbage", "[\(good)] x", 1, 65, "expected end of input after the array, found 'x'"),
        BadInput("second array", "[\(good)]\n[]", 2, 1, "expected end of input after the array, found an array"),
        BadInput("CRLF lines", "[\r\n\(good)\r\n x]", 3, 2, "expected ',' or ']' after a record, found 'x'"),
        BadInput("missing colon", #"[{"_id" 1}]"#, 1, 9, #"expected ':' after the key "_id", found a number"#),
        BadInput("non-string key", #"[{_id:1}]"#, 1, 3, "expected a string key in the record that starts at line 1:2, found '_'"),
        BadInput(
            "trailing comma in record", #"[{"_id":1,}]"#, 1, 11,
            "expected a string key in the record that starts at line 1:2, found '}'"
        ),
        BadInput(
            "missing comma in record", #"[{"_id":1 "name":"A"}]"#, 1, 11,
            #"expected ',' or '}' after the value of "_id", found a string"#
        ),
        BadInput("truncated in a string", #"[{"_id":1,"name":"Hur"#, 1, 18, "unterminated string"),
        BadInput("truncated in a key", #"[{"_i"#, 1, 3, "unterminated string"),
        BadInput("truncated in a number", #"[{"_id":1,"name":"A","country":"UA","coord":{"lat":1."#, 1, 54, "unexpected end of input, expected a digit after '.'"),

        // Types.
        BadInput("id is a string", #"[{"_id":"1","name":"A","country":"UA","coord":{"lat":1,"lon":2}}]"#, 1, 9, #"expected a number for "_id", found a string"#),
        BadInput("name is a number", #"[{"_id":1,"name":5,"country":"UA","coord":{"lat":1,"lon":2}}]"#, 1, 18, #"expected a string for "name", found a number"#),
        BadInput("country is null", #"[{"_id":1,"name":"A","country":null,"coord":{"lat":1,"lon":2}}]"#, 1, 32, #"expected a string for "country", found 'null'"#),
        BadInput("coord is an array", #"[{"_id":1,"name":"A","country":"UA","coord":[1,2]}]"#, 1, 45, #"expected an object for "coord", found an array"#),
        BadInput("lat is a string", #"[{"_id":1,"name":"A","country":"UA","coord":{"lat":"44.5","lon":2}}]"#, 1, 52, #"expected a number for "lat", found a string"#),
        BadInput("lon is true", #"[{"_id":1,"name":"A","country":"UA","coord":{"lat":1,"lon":true}}]"#, 1, 60, #"expected a number for "lon", found 'true'"#),
        BadInput("NaN", #"[{"_id":1,"name":"A","country":"UA","coord":{"lat":NaN,"lon":2}}]"#, 1, 52, #"expected a number for "lat", found 'NaN'"#),
        BadInput("minus Infinity", #"[{"_id":1,"name":"A","country":"UA","coord":{"lat":1,"lon":-Infinity}}]"#, 1, 60, #"expected a number for "lon", found '-Infinity'"#),
        BadInput("plus sign", #"[{"_id":1,"name":"A","country":"UA","coord":{"lat":+1,"lon":2}}]"#, 1, 52, #"expected a number for "lat", found '+'"#),
        BadInput("bare fraction", #"[{"_id":1,"name":"A","country":"UA","coord":{"lat":.5,"lon":2}}]"#, 1, 52, #"expected a number for "lat", found '.'"#),
        BadInput("exponent without digits", #"[{"_id":1,"name":"A","country":"UA","coord":{"lat":1e+,"lon":2}}]"#, 1, 55, "expected a digit in the exponent of a number, found ','"),
        BadInput("bad literal in other key", #"[{"x":tru,"_id":1}]"#, 1, 7, #"expected a value for "x", found 'tru'"#),

        // Missing and repeated keys.
        BadInput(
            "missing country", "[\(good),\n {\"_id\":2,\"name\":\"B\",\"coord\":{\"lat\":1,\"lon\":2}}]", 2, 47,
            #"missing field "country" in the record that starts at line 2:2"#
        ),
        BadInput("missing id", #"[{}]"#, 1, 3, #"missing field "_id" in the record that starts at line 1:2"#),
        BadInput(
            "missing lat", #"[{"_id":1,"name":"A","country":"UA","coord":{"lon":2}}]"#, 1, 53,
            #"missing field "lat" in the "coord" object that starts at line 1:45"#
        ),
        BadInput(
            "duplicate name", #"[{"_id":1,"name":"A","name":"B","country":"UA","coord":{"lat":1,"lon":2}}]"#, 1, 22,
            #"duplicate key "name" in the record that starts at line 1:2"#
        ),
        BadInput(
            "duplicate escaped id", #"[{"_id":1,"\u005fid":2,"name":"A","country":"UA","coord":{"lat":1,"lon":2}}]"#, 1, 11,
            #"duplicate key "_id" in the record that starts at line 1:2"#
        ),
        BadInput(
            "duplicate lat", #"[{"_id":1,"name":"A","country":"UA","coord":{"lat":1,"lat":1,"lon":2}}]"#, 1, 54,
            #"duplicate key "lat" in the "coord" object"#
        ),
        BadInput(
            "duplicate other key", #"[{"x":1,"_id":1,"x":[2],"name":"A","country":"UA","coord":{"lat":1,"lon":2}}]"#, 1, 17,
            #"duplicate key "x" in the record that starts at line 1:2"#
        ),
        BadInput(
            "duplicate key in a skipped object", #"[{"x":{"a":1,"b":2,"a":3}}]"#, 1, 20,
            #"duplicate key "a" in the object that starts at line 1:7"#
        ),

        // Strings.
        BadInput("invalid UTF-8 byte", listWithName([0x41, 0xFF, 0x42]), 1, 20, "invalid UTF-8 byte 0xff in string"),
        BadInput("column counts scalars", listWithName(Array("é東😀".utf8) + [0xFE]), 1, 22, "invalid UTF-8 byte 0xfe in string"),
        BadInput("stray continuation byte", listWithName([0x80]), 1, 19, "invalid UTF-8 byte 0x80 in string: a continuation byte"),
        BadInput("overlong two bytes", listWithName([0xC0, 0x80]), 1, 19, "invalid UTF-8 byte 0xc0 in string"),
        BadInput("overlong three bytes", listWithName([0xE0, 0x80, 0x80]), 1, 19, "invalid UTF-8 byte 0xe0 in string: it starts an overlong encoding"),
        BadInput("UTF-8 surrogate", listWithName([0xED, 0xA0, 0x80]), 1, 19, "invalid UTF-8 byte 0xed in string: it starts an encoded UTF-16 surrogate"),
        BadInput("past U+10FFFF", listWithName([0xF4, 0x90, 0x80, 0x80]), 1, 19, "invalid UTF-8 byte 0xf4 in string: it starts a code point past U+10FFFF"),
        BadInput("cut-short sequence", listWithName([0xE6, 0x9D]), 1, 19, "invalid UTF-8 byte 0xe6 in string: a sequence cut short"),
        BadInput("invalid UTF-8 outside a string", [0x5B, 0x20, 0xFF, 0x5D], 1, 3, "expected '{' to start a record, found invalid UTF-8 byte 0xff"),
        BadInput("control character", listWithName([0x41, 0x09]), 1, 20, "control character U+0009 in string must be escaped"),
        BadInput("raw line break", "[{\"_id\":1,\"name\":\"Hur\n\"}]", 1, 22, "control character U+000A in string must be escaped; is a closing '\"' missing?"),
        BadInput("lone high surrogate", listWithName(Array(#"ab\uD800x"#.utf8)), 1, 21, #"lone surrogate \uD800 in string"#),
        BadInput("high surrogate then non-low", listWithName(Array(#"\uD83D\u0041"#.utf8)), 1, 19, #"lone surrogate \uD83D in string"#),
        BadInput("lone low surrogate", listWithName(Array(#"\uDE00"#.utf8)), 1, 19, #"lone surrogate \uDE00 in string: a low surrogate must follow"#),
        BadInput("short unicode escape", listWithName(Array(#"\u12G4"#.utf8)), 1, 23, "expected 4 hex digits after \\u, found 'G'"),
        BadInput("invalid escape", listWithName(Array(#"a\x"#.utf8)), 1, 20, "invalid escape '\\x' in string"),
        BadInput("escaped non-ASCII", listWithName(Array(#"\é"#.utf8)), 1, 19, "invalid escape '\\' followed by 'é' (U+00E9) in string"),
        BadInput(
            "name too long", listWithName([UInt8](repeating: 0x61, count: 65_536)), 1, 18,
            #""name" is 65536 bytes of UTF-8, more than the limit of 65535"#
        ),

        // Numbers and ranges.
        BadInput("id too large", #"[{"_id":4294967296}]"#, 1, 9, #""_id" must be an integer from 0 to 4294967295"#),
        BadInput("id far too large", #"[{"_id":123456789012345678901234567890}]"#, 1, 9, "found 123456789012345678901234567890"),
        BadInput("negative id", #"[{"_id":-1}]"#, 1, 9, #""_id" must be an integer from 0 to 4294967295 without sign, fraction or exponent, found -1"#),
        BadInput("fractional id", #"[{"_id":1.5}]"#, 1, 9, "without sign, fraction or exponent, found 1.5"),
        BadInput("exponent id", #"[{"_id":1e3}]"#, 1, 9, "without sign, fraction or exponent, found 1e3"),
        BadInput("leading zeros in id", #"[{"_id":007}]"#, 1, 9, "leading zeros are not allowed in a number, found 007"),
        BadInput("leading zeros in lat", #"[{"_id":1,"name":"A","country":"UA","coord":{"lat":-01.5,"lon":2}}]"#, 1, 53, "leading zeros are not allowed in a number, found -01"),
        BadInput("lat too large", #"[{"_id":1,"name":"A","country":"UA","coord":{"lat":90.00000005,"lon":2}}]"#, 1, 52, #""lat" must be from -90 to 90 degrees, found 90.00000005"#),
        BadInput("lat too small", #"[{"_id":1,"name":"A","country":"UA","coord":{"lat":-91,"lon":2}}]"#, 1, 52, #""lat" must be from -90 to 90 degrees, found -91"#),
        BadInput("lon too large", #"[{"_id":1,"name":"A","country":"UA","coord":{"lat":1,"lon":180.0000001}}]"#, 1, 60, #""lon" must be from -180 to 180 degrees, found 180.0000001"#),
        BadInput("huge exponent", #"[{"_id":1,"name":"A","country":"UA","coord":{"lat":1,"lon":1e99999999999999999999999}}]"#, 1, 60, #""lon" must be from -180 to 180 degrees, found 1e99999999999999999999999"#),
        BadInput("lon of 1e10", #"[{"_id":1,"name":"A","country":"UA","coord":{"lat":1,"lon":-1E10}}]"#, 1, 60, #""lon" must be from -180 to 180 degrees"#),

        // Country.
        BadInput("country too long", #"[{"_id":1,"name":"A","country":"UKR","coord":{"lat":1,"lon":2}}]"#, 1, 32, #"expected "country" to be empty or two characters A-Z or 0-9 (ISO 3166-1 alpha-2), found "UKR""#),
        BadInput("country too short", #"[{"_id":1,"name":"A","country":"U","coord":{"lat":1,"lon":2}}]"#, 1, 32, #"found "U""#),
        BadInput("lowercase country", #"[{"_id":1,"name":"A","country":"ua","coord":{"lat":1,"lon":2}}]"#, 1, 32, #"found "ua""#),
        BadInput("non-ASCII country", #"[{"_id":1,"name":"A","country":"UÄ","coord":{"lat":1,"lon":2}}]"#, 1, 32, #"found "UÄ""#),

        // Nesting.
        BadInput(
            "deep nesting in another key",
            #"[{"x":"# + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}]", 1, 69,
            "nesting deeper than 64 levels"
        ),
        BadInput(
            "deep objects in another key",
            #"[{"x":"# + String(repeating: #"{"a":"#, count: 100), 1, 6 + 62 * 5 + 1,
            "nesting deeper than 64 levels"
        ),
    ]

    @Test(arguments: badInputs)
    func rejectsBadInput(_ input: BadInput) {
        input.expectRefused(file: "bad.json") { bytes, file in _ = try CityListParser.parse(bytes, file: file) }
    }

    @Test func reportsByteOffsetsAndColumnsAfterABOM() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("[\n ] x".utf8)
        #expect(throws: MMSearchError.invalidInput(
            file: "f", line: 2, column: 2, byteOffset: 6,
            message: "expected a record (the list is empty), found ']'"
        )) {
            try CityListParser.parse(bytes, file: "f")
        }
        let sameLine: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("x".utf8)
        #expect(throws: MMSearchError.invalidInput(
            file: "f", line: 1, column: 1, byteOffset: 3,
            message: "expected '[' to start the city list, found 'x'"
        )) {
            try CityListParser.parse(sameLine, file: "f")
        }
    }

    @Test func describesTheErrorWithFileAndPlace() {
        let expected = MMSearchError.invalidInput(
            file: "cities.json", line: 2, column: 1, byteOffset: 2,
            message: "unexpected end of input, expected '{' to start a record"
        )
        #expect(throws: expected) { try CityListParser.parse(Array("[\n".utf8), file: "cities.json") }
        #expect(expected.description == "cities.json:2:1: unexpected end of input, expected '{' to start a record (byte 2)")
    }

    // MARK: Repeated ids

    @Test func aRepeatedIDIsAnErrorAtTheLaterOne() {
        let list = """
            [{"_id":707860,"name":"Hurzuf","country":"UA","coord":{"lon":34.283333,"lat":44.549999}},
             {"_id":519188,"name":"Novinki","country":"RU","coord":{"lon":37.666668,"lat":55.683334}},
             {"_id":707860,"name":"Hurzuf again","country":"UA","coord":{"lon":34.283333,"lat":44.549999}}]
            """
        #expect(throws: MMSearchError.invalidInput(
            file: "dup.json", line: 3, column: 9, byteOffset: 189,
            message: #"duplicate "_id" 707860; the first is at line 1:9"#
        )) {
            try CityListParser.parse(Array(list.utf8), file: "dup.json")
        }
    }

    @Test func theFirstRepeatIsReportedAndOtherErrorsComeFirst() throws {
        // Ids 5 and 6 each repeat; 6's repeat comes first in the input.
        let repeats = "[\(validRecord(5)),\n\(validRecord(6)),\n\(validRecord(6)),\n\(validRecord(5))]"
        #expect(throws: MMSearchError.invalidInput(
            file: "bad.json", line: 3, column: 8, byteOffset: 136,
            message: #"duplicate "_id" 6; the first is at line 2:8"#
        )) {
            try CityListParser.parse(Array(repeats.utf8), file: "bad.json")
        }
        // Repeated ids are compared after the whole list is read, so a later error of another kind wins.
        let alsoBad = "[\(validRecord(5)),\n\(validRecord(5)),\n" + #"{"_id":7,"name":"A","country":"ukr","coord":{"lat":1,"lon":2}}]"#
        #expect {
            try CityListParser.parse(Array(alsoBad.utf8), file: "bad.json")
        } throws: { error in
            guard case let MMSearchError.invalidInput(_, line, _, _, message) = error else { return false }
            return line == 3 && message.contains(#"found "ukr""#)
        }
    }

    @Test func skipInvalidKeepsTheFirstOfRepeatedIDs() throws {
        let list = [
            #"{"_id":5,"name":"first","country":"UA","coord":{"lat":1,"lon":2}}"#,
            validRecord(6),
            #"{"_id":5,"name":"second","country":"UA","coord":{"lat":1,"lon":2}}"#,
            #"{"_id":6,"name":"bad too","country":"","coord":{"lat":1,"lon":2},"x":tru}"#,
            #"{"_id":5,"name":"third","country":"UA","coord":{"lat":1,"lon":2}}"#,
            validRecord(7),
        ].joined(separator: ",\n")
        let parsed = try parseSkipping(Array("[\(list)]".utf8))
        #expect(parsed.records.map(\.id) == [5, 6, 7])
        #expect(parsed.records.first?.name == Array("first".utf8))
        // In input order: the repeats found after reading, and the content error found while reading.
        let messages = parsed.skipped.map { error -> String in
            guard case let .invalidInput(_, line, column, _, message) = error else { return "?" }
            return "\(line):\(column): \(message)"
        }
        #expect(messages == [
            #"3:8: duplicate "_id" 5; the first is at line 1:9"#,
            #"4:70: expected a value for "x", found 'tru'"#,
            #"5:8: duplicate "_id" 5; the first is at line 1:9"#,
        ])
    }

    @Test func idsThatDifferInAnyBitAreDistinct() throws {
        // Each differs from 1 in one of the three 11-bit digits the ids are sorted by, or in the top bit.
        let ids: [UInt32] = [1, 1 + 1 << 11, 1 + 1 << 22, 1 + 1 << 31, 4_294_967_295, 0, 4_294_967_295]
        let list = "[" + ids.map(validRecord).joined(separator: ",\n") + "]"
        let parsed = try parseSkipping(Array(list.utf8))
        #expect(parsed.records.map(\.id) == Array(ids.dropLast()))
        try #require(parsed.skipped.count == 1)
        guard case let .invalidInput(_, line, _, _, message) = parsed.skipped[0] else { return }
        #expect(line == 7 && message == #"duplicate "_id" 4294967295; the first is at line 5:8"#)
    }

    @Test func aRecordDroppedForAnotherErrorDoesNotUseUpItsID() throws {
        let list = "[" + #"{"_id":5,"name":"bad","country":"UKR","coord":{"lat":1,"lon":2}}"# + ",\n"
            + #"{"_id":5,"name":"good","country":"UA","coord":{"lat":1,"lon":2}}"# + "]"
        let parsed = try parseSkipping(Array(list.utf8))
        #expect(parsed.records.map(\.name) == [Array("good".utf8)])
        #expect(parsed.skipped.count == 1)
    }

    // MARK: Skipping invalid records

    struct BadElement: Sendable, CustomTestStringConvertible {
        var label: String
        var bytes: [UInt8]
        var column: Int
        var fragment: String
        var testDescription: String { label }

        init(_ label: String, _ text: String, _ column: Int, _ fragment: String) {
            self.init(label, Array(text.utf8), column, fragment)
        }

        init(_ label: String, _ bytes: [UInt8], _ column: Int, _ fragment: String) {
            self.label = label
            self.bytes = bytes
            self.column = column
            self.fragment = fragment
        }
    }

    /// Record 2, written with the given parts; the name's opening quote is at column 17.
    static func record2(
        id: String = "2", name: [UInt8] = Array("B".utf8), country: String = #""UA""#,
        coord: String = #"{"lat":1,"lon":2}"#, extra: [UInt8] = []
    ) -> [UInt8] {
        Array(#"{"_id":\#(id),"name":""#.utf8) + name + Array(#"","country":\#(country),"coord":\#(coord)"#.utf8)
            + extra + Array("}".utf8)
    }

    /// Elements each with one content error, meant for line 2 of a list.
    static let contentErrors: [BadElement] = [
        // Types and fields.
        BadElement("id is a string", record2(id: #""2""#), 8, #"expected a number for "_id", found a string"#),
        BadElement("name is a number", #"{"_id":2,"name":5,"country":"UA","coord":{"lat":1,"lon":2}}"#, 17, #"expected a string for "name", found a number"#),
        BadElement("country is null", record2(country: "null"), 31, #"expected a string for "country", found 'null'"#),
        BadElement("coord is an array", record2(coord: #"[1,{"a":[2]}]"#), 44, #"expected an object for "coord", found an array"#),
        BadElement("lat is a string", record2(coord: #"{"lat":"44.5","lon":2}"#), 51, #"expected a number for "lat", found a string"#),
        BadElement("lon is an object", record2(coord: #"{"lat":1,"lon":{"deg":2}}"#), 59, #"expected a number for "lon", found an object"#),
        BadElement("NaN", record2(coord: #"{"lat":NaN,"lon":2}"#), 51, #"expected a number for "lat", found 'NaN'"#),
        BadElement("minus Infinity", record2(coord: #"{"lat":1,"lon":-Infinity}"#), 59, #"expected a number for "lon", found '-Infinity'"#),
        BadElement("missing country", #"{"_id":2,"name":"B","coord":{"lat":1,"lon":2}}"#, 46, #"missing field "country" in the record that starts at line 2:1"#),
        BadElement("missing lon", record2(coord: #"{"lat":1}"#), 52, #"missing field "lon" in the "coord" object that starts at line 2:44"#),
        BadElement("repeated key", #"{"_id":2,"name":"B","name":"C","country":"UA","coord":{"lat":1,"lon":2}}"#, 21, #"duplicate key "name" in the record that starts at line 2:1"#),
        BadElement("repeated key in another object", record2(extra: Array(#","x":{"a":1,"a":2}"#.utf8)), 73, #"duplicate key "a" in the object that starts at line 2:66"#),

        // Ids.
        BadElement("id too large", record2(id: "4294967296"), 8, #""_id" must be an integer from 0 to 4294967295 without sign, fraction or exponent, found 4294967296"#),
        BadElement("negative id", record2(id: "-2"), 8, "without sign, fraction or exponent, found -2"),
        BadElement("fractional id", record2(id: "2.5"), 8, "without sign, fraction or exponent, found 2.5"),
        BadElement("id with an exponent", record2(id: "2e0"), 8, "without sign, fraction or exponent, found 2e0"),
        BadElement("repeated id", record2(id: "1"), 8, #"duplicate "_id" 1; the first is at line 1:9"#),

        // Numbers and ranges.
        BadElement("leading zeros", record2(id: "002"), 8, "leading zeros are not allowed in a number, found 002"),
        BadElement("lat too large", record2(coord: #"{"lat":90.00000005,"lon":2}"#), 51, #""lat" must be from -90 to 90 degrees, found 90.00000005"#),
        BadElement("lon too small", record2(coord: #"{"lat":1,"lon":-181}"#), 59, #""lon" must be from -180 to 180 degrees, found -181"#),
        BadElement("no digit after the point", record2(coord: #"{"lat":1.,"lon":2}"#), 53, "expected a digit after '.' in a number, found ','"),
        BadElement("no digit in the exponent", record2(coord: #"{"lat":1,"lon":2e}"#), 61, "expected a digit in the exponent of a number, found '}'"),

        // Country and name.
        BadElement("country too long", record2(country: #""UKR""#), 31, #"expected "country" to be empty or two characters A-Z or 0-9 (ISO 3166-1 alpha-2), found "UKR""#),
        BadElement("lowercase country", record2(country: #""ua""#), 31, #"found "ua""#),
        BadElement(
            "name too long", record2(name: [UInt8](repeating: 0x61, count: 65_536)), 17,
            #""name" is 65536 bytes of UTF-8, more than the limit of 65535"#
        ),

        // Strings.
        BadElement("invalid UTF-8 in the name", record2(name: [0x41, 0xFF, 0x42]), 19, "invalid UTF-8 byte 0xff in string: it never occurs in UTF-8"),
        BadElement("overlong UTF-8", record2(name: [0xC0, 0x80]), 18, "invalid UTF-8 byte 0xc0 in string: it only starts overlong encodings"),
        BadElement("UTF-8 cut short", record2(name: [0xE6, 0x9D]), 18, "invalid UTF-8 byte 0xe6 in string: a sequence cut short"),
        BadElement("lone high surrogate", record2(name: Array(#"ab\uD800x"#.utf8)), 20, #"lone surrogate \uD800 in string: a high surrogate must be followed"#),
        BadElement("lone low surrogate", record2(name: Array(#"\uDE00"#.utf8)), 18, #"lone surrogate \uDE00 in string: a low surrogate must follow"#),
        BadElement("invalid escape", record2(name: Array(#"a\x"#.utf8)), 19, #"invalid escape '\x' in string"#),
        BadElement("bad unicode escape", record2(name: Array(#"\u12G4"#.utf8)), 22, #"expected 4 hex digits after \u, found 'G'"#),
        BadElement("raw tab", record2(name: Array("A\tB".utf8)), 19, "control character U+0009 in string must be escaped"),
        BadElement("invalid UTF-8 in a key", record2(extra: Array(#","k"#.utf8) + [0xFE] + Array(#"":1"#.utf8)), 64, "invalid UTF-8 byte 0xfe in string"),
        BadElement("invalid UTF-8 in another value", record2(extra: Array(#","x":["ok",""#.utf8) + [0xFF] + Array(#""]"#.utf8)), 73, "invalid UTF-8 byte 0xff in string"),
        BadElement("bare word in another value", record2(extra: Array(#","x":tru"#.utf8)), 66, #"expected a value for "x", found 'tru'"#),

        // Elements that are JSON values but not objects.
        BadElement("number element", "42", 1, "expected '{' to start a record, found a number"),
        BadElement("string element", #""Hurzuf""#, 1, "expected '{' to start a record, found a string"),
        BadElement("array element", #"[1,{"a":[]}]"#, 1, "expected '{' to start a record, found an array"),
        BadElement("null element", "null", 1, "expected '{' to start a record, found 'null'"),
    ]

    @Test(arguments: contentErrors)
    func skipInvalidDropsARecordWithAContentError(_ bad: BadElement) throws {
        let list = Array("[\(validRecord(1)),\n".utf8) + bad.bytes + Array(",\n\(validRecord(3))]".utf8)
        let parsed = try parseSkipping(list)
        #expect(parsed.records.map(\.id) == [1, 3])
        try #require(parsed.skipped.count == 1)
        guard case let .invalidInput(file, line, column, _, message) = parsed.skipped[0] else {
            Issue.record("not invalidInput: \(parsed.skipped[0])")
            return
        }
        #expect(file == "bad.json")
        #expect(line == 2 && column == bad.column, "\(message)")
        #expect(message.contains(bad.fragment), "\(message)")
        // Without skipInvalid, the very same error is thrown.
        #expect(throws: parsed.skipped[0]) { try CityListParser.parse(list, file: "bad.json") }
    }

    @Test func aRecordWithSeveralErrorsIsSkippedOnceWithItsFirst() throws {
        let bad = #"{"_id":-2,"name":5,"country":"ukr","coord":{"lat":NaN,"lon":999},"x":{"a":1,"a":[tru]}}"#
        let list = "[\(bad),\n\(bad),\n\(validRecord(3))]"
        let parsed = try parseSkipping(Array(list.utf8))
        #expect(parsed.records.map(\.id) == [3])
        let places = parsed.skipped.map { error -> String in
            guard case let .invalidInput(_, line, column, _, message) = error else { return "?" }
            return "\(line):\(column) \(message.prefix(6))"
        }
        #expect(places == ["1:9 \"_id\" ", "2:8 \"_id\" "])
    }

    @Test func skipInvalidKeepsEveryValidRecordAroundManyBadOnes() throws {
        var elements: [String] = []
        for id in 1...300 as ClosedRange<UInt32> {
            switch id % 5 {
            case 0: elements.append(#"{"_id":\#(id),"name":"X","country":"x","coord":{"lat":1,"lon":2}}"#)
            case 3: elements.append("\(id)")
            default: elements.append(validRecord(id))
            }
        }
        let parsed = try parseSkipping(Array("[\(elements.joined(separator: ",\n"))]".utf8))
        let isBad: (UInt32) -> Bool = { $0 % 5 == 0 || $0 % 5 == 3 }
        let validIDs: [UInt32] = (1...300).filter { !isBad($0) }
        let badLines: [Int] = (1...300).filter { isBad(UInt32($0)) }
        #expect(parsed.records.map(\.id) == validIDs)
        #expect(parsed.skipped.count == 120)
        let lines = parsed.skipped.map { error -> Int in
            guard case let .invalidInput(_, line, _, _, _) = error else { return 0 }
            return line
        }
        #expect(lines == badLines)
    }

    @Test func validListsGiveTheSameRecordsEitherWay() throws {
        let list = Array("[\(validRecord(1)),\n\(validRecord(2))]".utf8)
        let parsed = try parseSkipping(list)
        #expect(parsed == ParsedCityList(records: try CityListParser.parse(list, file: "x"), skipped: []))
        #expect(CityListParseOptions().skipInvalid == false)
    }

    /// `text` after a skippable bad record on line 1 and a valid one on line 2.
    static func afterSkippedRecords(_ text: String) -> [UInt8] {
        afterSkippedRecords(Array(text.utf8))
    }

    static func afterSkippedRecords(_ bytes: [UInt8]) -> [UInt8] {
        Array("[".utf8) + record2(country: #""UKR""#) + Array(",\n\(validRecord(1)),\n".utf8) + bytes
    }

    static let structuralErrors: [BadInput] = [
        BadInput("empty input", "", 1, 1, "unexpected end of input, expected '[' to start the city list"),
        BadInput("top level is an object", #"{"_id":1}"#, 1, 1, "expected '[' to start the city list, found an object"),
        BadInput("truncated record", afterSkippedRecords(#"{"_id":3,"name":"A""#), 3, 20, #"unexpected end of input, expected ',' or '}' after the value of "name""#),
        BadInput("truncated after a comma", afterSkippedRecords(validRecord(3) + ","), 3, 64, "unexpected end of input, expected '{' to start a record"),
        BadInput("truncated number", afterSkippedRecords(#"{"_id":3,"name":"A","country":"UA","coord":{"lat":1."#), 3, 53, "unexpected end of input, expected a digit after '.' in a number"),
        BadInput("truncated escape", afterSkippedRecords(#"{"_id":3,"name":"a\u12"#), 3, 23, #"unexpected end of input, expected 4 hex digits after \u"#),
        BadInput("unterminated string", afterSkippedRecords(#"{"_id":3,"name":"Hur"#), 3, 17, "unterminated string: the input ends before its closing '\"'"),
        BadInput(
            "raw line break in a string", afterSkippedRecords("{\"_id\":3,\"name\":\"Hur\n\",\"country\":\"UA\",\"coord\":{\"lat\":1,\"lon\":2}}]"), 3, 21,
            "control character U+000A in string must be escaped; is a closing '\"' missing?"
        ),
        BadInput(
            "raw carriage return in a string", afterSkippedRecords("{\"_id\":3,\"name\":\"Hur\r\n\",\"country\":\"UA\",\"coord\":{\"lat\":1,\"lon\":2}}]"), 3, 21,
            "control character U+000D in string must be escaped; is a closing '\"' missing?"
        ),
        BadInput("missing comma between records", afterSkippedRecords(validRecord(3) + "\n" + validRecord(4) + "]"), 4, 1, "expected ',' or ']' after a record, found an object"),
        BadInput("trailing comma", afterSkippedRecords(validRecord(3) + ",]"), 3, 64, "expected '{' to start a record, found ']'"),
        BadInput("trailing garbage", afterSkippedRecords(validRecord(3) + "] x"), 3, 65, "expected end of input after the array, found 'x'"),
        BadInput("second array", afterSkippedRecords(validRecord(3) + "]\n[]"), 4, 1, "expected end of input after the array, found an array"),
        BadInput("missing colon", afterSkippedRecords(#"{"_id" 3}]"#), 3, 8, #"expected ':' after the key "_id", found a number"#),
        BadInput("key not a string", afterSkippedRecords("{_id:3}]"), 3, 2, "expected a string key in the record that starts at line 3:1, found '_'"),
        BadInput("missing comma in a record", afterSkippedRecords(#"{"_id":3 "name":"A"}]"#), 3, 10, #"expected ',' or '}' after the value of "_id", found a string"#),
        BadInput("plus sign", afterSkippedRecords(#"{"_id":+3}]"#), 3, 8, #"expected a number for "_id", found '+'"#),
        BadInput("bare fraction", afterSkippedRecords(#"{"x":.5}]"#), 3, 6, #"expected a value for "x", found '.'"#),
        BadInput("invalid UTF-8 between values", afterSkippedRecords([0xFF, 0x5D]), 3, 1, "expected '{' to start a record, found invalid UTF-8 byte 0xff"),
        BadInput(
            "deep nesting", afterSkippedRecords(#"{"x":"# + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}]"), 3, 68,
            "nesting deeper than 64 levels"
        ),
        BadInput(
            "structure broken after a content error in the same record",
            afterSkippedRecords(#"{"_id":3,"country":"ukr","x":[1 2]}]"#), 3, 33,
            #"expected ',' or ']' in the array value of "x", found a number"#
        ),
    ]

    @Test(arguments: structuralErrors)
    func skipInvalidStillThrowsStructuralErrors(_ input: BadInput) {
        #expect {
            try parseSkipping(input.bytes)
        } throws: { error in
            guard case let MMSearchError.invalidInput(file, line, column, _, message) = error else { return false }
            #expect(file == "bad.json")
            #expect(line == input.line && column == input.column, "\(message)")
            #expect(message.contains(input.fragment), "\(message)")
            return true
        }
    }

    @Test func placesErrorsExactlyFarIntoALongInput() throws {
        // Over 60 KB: some lines longer than the parser's 4 KiB between checkpoints, multibyte names,
        // a byte order mark, and errors (a bad country every 37th record, a repeated id every 53rd).
        var text = "["
        for id in 1...700 {
            let separator = id == 1 ? "" : (id % 9 == 0 && !(100..<250).contains(id) ? ",\n" : ", ")
            let country = id % 37 == 0 ? "ukr" : "UA"
            let recordID = id % 53 == 0 ? id - 1 : id
            text += separator + #"{"_id":\#(recordID),"name":"Zürich 東京 😀 \#(id)","country":"\#(country)","coord":{"lat":1,"lon":2}}"#
        }
        text += "]"
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(text.utf8)
        let parsed = try parseSkipping(bytes)
        #expect(parsed.records.count + parsed.skipped.count == 700)
        // 18 bad countries and 13 repeats, but record 371 repeats the id of record 370, which was
        // dropped for its country, so it is kept.
        #expect(parsed.skipped.count == 18 + 13 - 1)
        #expect(parsed.records.contains { $0.id == 370 && $0.name.last == UInt8(ascii: "1") })
        // A repeated id's message places the first one too.
        expectSkippedInOrderAtTheirPlaces(parsed.skipped, in: bytes) { message, _ in
            let id = message.split(separator: " ")[2].split(separator: ";")[0]
            let first = Array(text.utf8).firstRange(of: Array(#"{"_id":\#(id),"#.utf8))!.lowerBound + 3 + 7
            let place = naivePlace(of: first, in: bytes)
            #expect(message.hasSuffix("the first is at line \(place.line):\(place.column)"), "\(message)")
        }
    }

    // MARK: The real list

    static let realListPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // MMSearchBuilderTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("../shared/data/city.list.json")
        .standardizedFileURL

    @Test func parsesTheRealListAndEveryCoordinateRoundTrips() throws {
        let path = Self.realListPath.path
        guard let data = FileManager.default.contents(atPath: path) else {
            Issue.record("the real city list is missing: expected it at \(path) (see shared/data/README.md)")
            return
        }
        let bytes = [UInt8](data)
        let records = try CityListParser.parse(bytes, file: path)

        #expect(records.count == 209_579)  // shared/data/README.md
        #expect(records.first == record(707860, "Hurzuf", "UA", lat: 445_499_990, lon: 342_833_330))
        #expect(records.filter { $0.name.isEmpty }.count == 4)
        #expect(records.filter { $0.country.isEmpty }.count == 8)

        let (latitudes, longitudes) = Self.coordinateTexts(in: bytes)
        try #require(latitudes.count == records.count && longitudes.count == records.count)
        var mismatches: [String] = []
        for (index, record) in records.enumerated() {
            let lat = Coordinate.decimalText(record.latitudeE7)
            let lon = Coordinate.decimalText(record.longitudeE7)
            if lat != latitudes[index] || lon != longitudes[index] {
                mismatches.append("record \(index) (id \(record.id)): lat \(latitudes[index]) -> \(lat), lon \(longitudes[index]) -> \(lon)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) coordinates differ, first: \(mismatches.prefix(5))")
    }

    @Test func skipsNothingInTheRealList() throws {
        let path = Self.realListPath.path
        guard let data = FileManager.default.contents(atPath: path) else {
            Issue.record("the real city list is missing: expected it at \(path) (see shared/data/README.md)")
            return
        }
        let parsed = try CityListParser.parse([UInt8](data), file: path, options: CityListParseOptions(skipInvalid: true))
        #expect(parsed.skipped.isEmpty)
        #expect(parsed.records.count == 209_579)
        #expect(Set(parsed.records.map(\.id)).count == 209_579)
    }

    /// The raw text of every number after `"lat":` and after `"lon":`, in file order: a reading of the
    /// list's coordinates independent of the parser. (No name in the list contains `"lat":`, since a
    /// quote inside a name is escaped as `\"`.)
    static func coordinateTexts(in bytes: [UInt8]) -> (latitudes: [String], longitudes: [String]) {
        var latitudes: [String] = []
        var longitudes: [String] = []
        // Through a buffer pointer, as the array's checked subscript makes this slow in debug builds.
        bytes.withUnsafeBufferPointer { bytes in
            var index = 0
            while index + 6 < bytes.count {
                guard bytes[index] == UInt8(ascii: "\""), bytes[index + 1] == UInt8(ascii: "l"),
                      bytes[index + 4] == UInt8(ascii: "\""), bytes[index + 5] == UInt8(ascii: ":") else {
                    index += 1
                    continue
                }
                let isLatitude = bytes[index + 2] == UInt8(ascii: "a") && bytes[index + 3] == UInt8(ascii: "t")
                let isLongitude = bytes[index + 2] == UInt8(ascii: "o") && bytes[index + 3] == UInt8(ascii: "n")
                index += 6
                guard isLatitude || isLongitude else { continue }
                let start = index
                while index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: ".")
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                    index += 1
                }
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                if isLatitude { latitudes.append(text) } else { longitudes.append(text) }
            }
        }
        return (latitudes, longitudes)
    }
}
