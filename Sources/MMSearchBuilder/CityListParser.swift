import CMMSearchFormat
import MMSearch

/// One record as read from the list, before folding and sorting.
public struct SourceRecord: Sendable, Equatable {
    /// The list's `"_id"`.
    public var id: UInt32
    /// The name: UTF-8, escapes decoded, validated; at most `MMS_MAX_STRING_LENGTH` bytes; may be empty.
    public var name: [UInt8]
    /// The country code: empty, or two ASCII bytes each `A`-`Z` or `0`-`9`.
    public var country: [UInt8]
    /// Latitude in 1e-7 degree, within ±90 degrees.
    public var latitudeE7: Int32
    /// Longitude in 1e-7 degree, within ±180 degrees.
    public var longitudeE7: Int32

    public init(id: UInt32, name: [UInt8], country: [UInt8], latitudeE7: Int32, longitudeE7: Int32) {
        self.id = id
        self.name = name
        self.country = country
        self.latitudeE7 = latitudeE7
        self.longitudeE7 = longitudeE7
    }
}

/// A strict reader of OpenWeatherMap's city list: a JSON array (RFC 8259) of objects
/// `{"_id": 707860, "name": "Hurzuf", "country": "UA", "coord": {"lon": 34.283333, "lat": 44.549999}}`.
///
/// - The input is UTF-8; one byte order mark (EF BB BF) at the very start is skipped. Lines end at
///   `\n`, and error columns count Unicode scalars from the line start, the mark excluded.
/// - Each record has exactly the keys `"_id"`, `"name"`, `"country"` and `"coord"` (with `"lat"` and
///   `"lon"`), in any order. Other keys are skipped after their value is checked to be valid JSON
///   nested at most `maximumNesting` levels deep (the top-level array is level 1). A key repeated in
///   any object is an error.
/// - `"_id"` is an integer written without sign, fraction or exponent, from 0 to 4294967295.
///   Repeated ids are not an error here.
/// - `"name"` is a string of at most `MMS_MAX_STRING_LENGTH` (65,535) UTF-8 bytes once escapes are
///   decoded; a longer one is `invalidInput` at its opening quote. It may be empty.
/// - `"country"` is `""` or two characters each `A`-`Z` or `0`-`9`.
/// - `"lat"` and `"lon"` are JSON numbers, converted exactly from their decimal text (never through
///   `Double`) to whole multiples of 1e-7 degree, rounded to the nearest with ties away from zero:
///   `0.00000005` gives 1. The rounded value must lie within ±90 (lat) or ±180 (lon) degrees.
///
/// Every failure is `MMSearchError.invalidInput` with the place of the offending byte and a message
/// saying what was expected and what was found. Places are worked out only when an error is thrown.
public enum CityListParser {
    /// How deeply arrays and objects may nest, the top-level array included.
    public static let maximumNesting = 64

    /// Parses a whole city list. `file` is used only in error messages.
    public static func parse(_ bytes: UnsafeRawBufferPointer, file: String) throws(MMSearchError) -> [SourceRecord] {
        var parser = Parser(input: InputBytes(bytes), file: file)
        return try parser.parseList()
    }

    /// Parses a whole city list held in an array. `file` is used only in error messages.
    public static func parse(_ bytes: [UInt8], file: String) throws(MMSearchError) -> [SourceRecord] {
        // withUnsafeBytes rethrows `any Error`; a Result carries the typed error through.
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(MMSearchError) in try parse(buffer, file: file) }
        }
        return try result.get()
    }
}

// MARK: - Raw input

/// The only code that reads the caller's memory. Every offset passed in is below `count`: callers
/// check, so release builds read without a second bounds check.
private struct InputBytes {
    private let buffer: UnsafeRawBufferPointer

    init(_ buffer: UnsafeRawBufferPointer) { self.buffer = buffer }

    var count: Int { buffer.count }

    @inline(__always)
    subscript(offset: Int) -> UInt8 { buffer[offset] }

    /// A copy of the bytes in `range`. (Rebasing makes it one block copy rather than a byte loop.)
    func copy(_ range: Range<Int>) -> [UInt8] { Array(UnsafeRawBufferPointer(rebasing: buffer[range])) }

    /// Appends the bytes in `range` to `output`.
    func append(_ range: Range<Int>, to output: inout [UInt8]) {
        output.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[range]))
    }

    /// Whether the bytes in `range` spell `text`.
    func equals(_ range: Range<Int>, _ text: StaticString) -> Bool {
        text.withUTF8Buffer { text in
            guard text.count == range.count else { return false }
            // A plain loop: the generic elementsEqual is not specialized into a tight one.
            for index in 0..<text.count where text[index] != buffer[range.lowerBound + index] { return false }
            return true
        }
    }
}

// MARK: - Tokens

/// A string already checked: the bytes between its quotes, still escaped.
private struct StringToken {
    /// Just after the opening quote.
    var start: Int
    /// The closing quote.
    var end: Int
    var hasEscapes: Bool
    var openingQuote: Int { start - 1 }
    var rawRange: Range<Int> { start..<end }
}

/// A number already checked against the JSON grammar.
private struct NumberToken {
    var start: Int
    var end: Int
    var isNegative: Bool
    var integerDigits: Range<Int>
    /// Empty when there is no fraction.
    var fractionDigits: Range<Int>
    var hasFraction: Bool
    var hasExponent: Bool
    /// The exponent's value, clamped to ±`NumberToken.exponentClamp` so that huge ones cannot overflow.
    var exponent: Int

    /// Far beyond any exponent that leaves a coordinate in range, yet far from overflowing an `Int`.
    static let exponentClamp = 1_000_000_000_000_000
}

private enum RecordKey { case id, name, country, coord, other }
private enum CoordKey { case latitude, longitude, other }

/// Which object a key belongs to, and where its '{' is, for messages.
private enum ObjectKind {
    case record(start: Int)
    case coord(start: Int)
    case other(start: Int)
}

private enum Axis {
    case latitude, longitude
    var key: String { self == .latitude ? "lat" : "lon" }
    var limitDegrees: Int64 { self == .latitude ? 90 : 180 }
}

private enum ASCII {
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let comma = UInt8(ascii: ",")
    static let colon = UInt8(ascii: ":")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let minus = UInt8(ascii: "-")
    static let plus = UInt8(ascii: "+")
    static let dot = UInt8(ascii: ".")
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")
    static let newline = UInt8(ascii: "\n")

    static func isDigit(_ byte: UInt8) -> Bool { byte &- zero < 10 }
    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- UInt8(ascii: "a") < 26 }

    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case zero...nine: return UInt32(byte - zero)
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }
}

// MARK: - Parser

private struct Parser {
    let input: InputBytes
    let file: String
    var position = 0
    /// Where the text starts: 3 after a byte order mark, else 0.
    var textStart = 0
    /// Country codes seen so far, indexed by `countryCodeSlot`, so that records share one array per
    /// code instead of allocating one each.
    var countryCodes = [[UInt8]](repeating: [], count: 36 * 36)

    init(input: InputBytes, file: String) {
        self.input = input
        self.file = file
    }

    var end: Int { input.count }

    /// Whether the byte at `position` is `byte` (false at the end).
    func isAt(_ byte: UInt8) -> Bool { position < end && input[position] == byte }

    mutating func skipWhitespace() {
        while position < end {
            switch input[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    // MARK: Structure

    mutating func parseList() throws(MMSearchError) -> [SourceRecord] {
        if end >= 3 && input[0] == 0xEF && input[1] == 0xBB && input[2] == 0xBF {
            textStart = 3
            position = 3
        }
        skipWhitespace()
        guard isAt(ASCII.openBracket) else { throw expected("'[' to start the city list") }
        position += 1
        // The real list spends about 94 bytes a record.
        var records: [SourceRecord] = []
        records.reserveCapacity(end / 90)
        skipWhitespace()
        if isAt(ASCII.closeBracket) {
            position += 1
        } else {
            while true {
                skipWhitespace()
                records.append(try parseRecord())
                skipWhitespace()
                if isAt(ASCII.comma) { position += 1; continue }
                if isAt(ASCII.closeBracket) { position += 1; break }
                throw expected("',' or ']' after a record")
            }
        }
        skipWhitespace()
        guard position == end else { throw expected("end of input after the array") }
        return records
    }

    mutating func parseRecord() throws(MMSearchError) -> SourceRecord {
        guard isAt(ASCII.openBrace) else { throw expected("'{' to start a record") }
        let recordStart = position
        position += 1
        var id: UInt32?
        var name: [UInt8]?
        var country: [UInt8]?
        var coordinate: (latitude: Int32, longitude: Int32)?
        var otherKeys: [[UInt8]] = []
        let object = ObjectKind.record(start: recordStart)

        var more = try openContainer(depth: 2)
        while more {
            let key = try readKey(in: object)
            switch recordKey(key) {
            case .id:
                guard id == nil else { throw duplicateKey(key, in: object) }
                id = try readID()
            case .name:
                guard name == nil else { throw duplicateKey(key, in: object) }
                name = try readName()
            case .country:
                guard country == nil else { throw duplicateKey(key, in: object) }
                country = try readCountry()
            case .coord:
                guard coordinate == nil else { throw duplicateKey(key, in: object) }
                coordinate = try readCoordinate()
            case .other:
                try noteOtherKey(key, in: &otherKeys, of: object)
                try skipValue(for: key, depth: 3)
            }
            more = try endMember(after: key)
        }

        let closingBrace = position - 1
        func missing(_ key: String) -> MMSearchError {
            error(at: closingBrace, "missing field \"\(key)\" in \(describe(object))")
        }
        guard let id else { throw missing("_id") }
        guard let name else { throw missing("name") }
        guard let country else { throw missing("country") }
        guard let coordinate else { throw missing("coord") }
        return SourceRecord(
            id: id, name: name, country: country,
            latitudeE7: coordinate.latitude, longitudeE7: coordinate.longitude
        )
    }

    mutating func readCoordinate() throws(MMSearchError) -> (latitude: Int32, longitude: Int32) {
        guard isAt(ASCII.openBrace) else { throw expected("an object for \"coord\"") }
        let objectStart = position
        position += 1
        var latitude: Int32?
        var longitude: Int32?
        var otherKeys: [[UInt8]] = []
        let object = ObjectKind.coord(start: objectStart)

        var more = try openContainer(depth: 3)
        while more {
            let key = try readKey(in: object)
            switch coordKey(key) {
            case .latitude:
                guard latitude == nil else { throw duplicateKey(key, in: object) }
                latitude = try readDegrees(.latitude)
            case .longitude:
                guard longitude == nil else { throw duplicateKey(key, in: object) }
                longitude = try readDegrees(.longitude)
            case .other:
                try noteOtherKey(key, in: &otherKeys, of: object)
                try skipValue(for: key, depth: 4)
            }
            more = try endMember(after: key)
        }

        let closingBrace = position - 1
        guard let latitude else { throw error(at: closingBrace, "missing field \"lat\" in \(describe(object))") }
        guard let longitude else { throw error(at: closingBrace, "missing field \"lon\" in \(describe(object))") }
        return (latitude, longitude)
    }

    /// Called just after an opening brace or bracket at nesting level `depth`: refuses nesting past the
    /// limit, then consumes an empty container's closing byte. Returns whether members follow.
    mutating func openContainer(depth: Int, closing: UInt8 = ASCII.closeBrace) throws(MMSearchError) -> Bool {
        guard depth <= CityListParser.maximumNesting else {
            throw error(at: position - 1, "nesting deeper than \(CityListParser.maximumNesting) levels")
        }
        skipWhitespace()
        if isAt(closing) { position += 1; return false }
        return true
    }

    /// Reads `"key" :` and leaves `position` at the value.
    mutating func readKey(in object: ObjectKind) throws(MMSearchError) -> StringToken {
        skipWhitespace()
        guard isAt(ASCII.quote) else { throw expected("a string key in \(describe(object))") }
        let key = try scanString()
        skipWhitespace()
        guard isAt(ASCII.colon) else { throw expected("':' after the key \(describeKey(key))") }
        position += 1
        skipWhitespace()
        return key
    }

    /// After a member's value: consumes `,` (returns true: another member follows) or `}`.
    mutating func endMember(after key: StringToken) throws(MMSearchError) -> Bool {
        skipWhitespace()
        if isAt(ASCII.comma) { position += 1; return true }
        if isAt(ASCII.closeBrace) { position += 1; return false }
        throw expected("',' or '}' after the value of \(describeKey(key))")
    }

    func recordKey(_ key: StringToken) -> RecordKey {
        if key.hasEscapes { return recordKey(decodedKey: decode(key)) }
        let range = key.rawRange
        switch range.count {
        case 3 where input.equals(range, "_id"): return .id
        case 4 where input.equals(range, "name"): return .name
        case 5 where input.equals(range, "coord"): return .coord
        case 7 where input.equals(range, "country"): return .country
        default: return .other
        }
    }

    func recordKey(decodedKey key: [UInt8]) -> RecordKey {
        switch String(decoding: key, as: UTF8.self) {
        case "_id": return .id
        case "name": return .name
        case "coord": return .coord
        case "country": return .country
        default: return .other
        }
    }

    func coordKey(_ key: StringToken) -> CoordKey {
        if key.hasEscapes {
            switch String(decoding: decode(key), as: UTF8.self) {
            case "lat": return .latitude
            case "lon": return .longitude
            default: return .other
            }
        }
        let range = key.rawRange
        guard range.count == 3 else { return .other }
        if input.equals(range, "lat") { return .latitude }
        if input.equals(range, "lon") { return .longitude }
        return .other
    }

    /// Remembers a key the parser skips, refusing it if the same object already had it.
    func noteOtherKey(_ key: StringToken, in seen: inout [[UInt8]], of object: ObjectKind) throws(MMSearchError) {
        let bytes = decode(key)
        guard !seen.contains(bytes) else { throw duplicateKey(key, in: object) }
        seen.append(bytes)
    }

    // MARK: Fields

    mutating func readID() throws(MMSearchError) -> UInt32 {
        guard startsNumber() else { throw expected("a number for \"_id\"") }
        let number = try scanNumber()
        let limit = UInt64(UInt32.max)
        func outOfRange() -> MMSearchError {
            error(at: number.start, "\"_id\" must be an integer from 0 to \(limit) without sign, fraction or exponent, found \(numberText(number))")
        }
        guard !number.isNegative, !number.hasFraction, !number.hasExponent, number.integerDigits.count <= 10 else {
            throw outOfRange()
        }
        var value: UInt64 = 0
        for offset in number.integerDigits { value = value * 10 + UInt64(input[offset] - ASCII.zero) }
        guard value <= limit else { throw outOfRange() }
        return UInt32(value)
    }

    mutating func readName() throws(MMSearchError) -> [UInt8] {
        guard isAt(ASCII.quote) else { throw expected("a string for \"name\"") }
        let token = try scanString()
        let name = decode(token)
        guard name.count <= Int(MMS_MAX_STRING_LENGTH) else {
            throw error(at: token.openingQuote, "\"name\" is \(name.count) bytes of UTF-8, more than the limit of \(MMS_MAX_STRING_LENGTH)")
        }
        return name
    }

    mutating func readCountry() throws(MMSearchError) -> [UInt8] {
        guard isAt(ASCII.quote) else { throw expected("a string for \"country\"") }
        let token = try scanString()
        if !token.hasEscapes && token.rawRange.isEmpty { return [] }
        if !token.hasEscapes && token.rawRange.count == 2 {
            let first = input[token.start], second = input[token.start + 1]
            if let slot = Self.countryCodeSlot(first, second) {
                if countryCodes[slot].isEmpty { countryCodes[slot] = [first, second] }
                return countryCodes[slot]
            }
        }
        // Escaped, or not a code: decode and check the slow way.
        let country = decode(token)
        guard country.isEmpty || (country.count == 2 && country.allSatisfy(Self.isCountryCharacter)) else {
            throw error(
                at: token.openingQuote,
                "expected \"country\" to be empty or two characters A-Z or 0-9 (ISO 3166-1 alpha-2), found \(Self.quoted(country))"
            )
        }
        return country
    }

    static func isCountryCharacter(_ byte: UInt8) -> Bool {
        ASCII.isDigit(byte) || byte &- UInt8(ascii: "A") < 26
    }

    /// A distinct number below 36 × 36 for each valid code, nil for anything else.
    static func countryCodeSlot(_ first: UInt8, _ second: UInt8) -> Int? {
        func value(_ byte: UInt8) -> Int? {
            if ASCII.isDigit(byte) { return Int(byte - ASCII.zero) }
            if byte &- UInt8(ascii: "A") < 26 { return Int(byte - UInt8(ascii: "A")) + 10 }
            return nil
        }
        guard let high = value(first), let low = value(second) else { return nil }
        return high * 36 + low
    }

    /// Reads a JSON number as a whole count of 1e-7 degree, rounded to the nearest with ties away from
    /// zero, and refuses it outside ±90 (latitude) or ±180 (longitude) degrees.
    mutating func readDegrees(_ axis: Axis) throws(MMSearchError) -> Int32 {
        guard startsNumber() else { throw expected("a number for \"\(axis.key)\"") }
        let number = try scanNumber()
        let limit = axis.limitDegrees * Coordinate.scale
        guard let magnitude = scaledMagnitude(number), magnitude <= limit else {
            throw error(
                at: number.start,
                "\"\(axis.key)\" must be from -\(axis.limitDegrees) to \(axis.limitDegrees) degrees, found \(numberText(number))"
            )
        }
        return Int32(number.isNegative ? -magnitude : magnitude)
    }

    /// |number| × 10^7 rounded to the nearest whole (ties away from zero), exactly from the decimal
    /// digits; nil when it is 10^10 or more, which no coordinate reaches.
    func scaledMagnitude(_ number: NumberToken) -> Int64? {
        let integerCount = number.integerDigits.count
        let digitCount = integerCount + number.fractionDigits.count
        func digit(_ index: Int) -> Int64 {
            let offset = index < integerCount
                ? number.integerDigits.lowerBound + index
                : number.fractionDigits.lowerBound + (index - integerCount)
            return Int64(input[offset] - ASCII.zero)
        }
        var first = 0
        while first < digitCount && digit(first) == 0 { first += 1 }
        let significantCount = digitCount - first
        if significantCount == 0 { return 0 }
        // How many of the significant digits (padded with zeros) lie before the decimal point once
        // the value is in units of 1e-7. The exponent is clamped, so this cannot overflow.
        let wholeCount = significantCount + number.exponent + 7 - number.fractionDigits.count
        if wholeCount > 10 { return nil }
        if wholeCount < 0 { return 0 }
        var value: Int64 = 0
        for index in 0..<wholeCount {
            value = value * 10 + (index < significantCount ? digit(first + index) : 0)
        }
        // The first dropped digit decides: 5 or more is at least a half, which rounds away from zero.
        if wholeCount < significantCount && digit(first + wholeCount) >= 5 { value += 1 }
        return value
    }

    // MARK: Skipping other values

    /// Checks and skips any JSON value; `depth` is the nesting level a container here would have.
    mutating func skipValue(for key: StringToken, depth: Int) throws(MMSearchError) {
        guard position < end else { throw expected("a value for \(describeKey(key))") }
        switch input[position] {
        case ASCII.quote:
            _ = try scanString()
        case ASCII.minus, ASCII.zero...ASCII.nine:
            guard startsNumber() else { throw expected("a value for \(describeKey(key))") }
            _ = try scanNumber()
        case ASCII.openBrace:
            let objectStart = position
            position += 1
            var keys: [[UInt8]] = []
            let object = ObjectKind.other(start: objectStart)
            var more = try openContainer(depth: depth)
            while more {
                let member = try readKey(in: object)
                try noteOtherKey(member, in: &keys, of: object)
                try skipValue(for: member, depth: depth + 1)
                more = try endMember(after: member)
            }
        case ASCII.openBracket:
            position += 1
            var more = try openContainer(depth: depth, closing: ASCII.closeBracket)
            while more {
                skipWhitespace()
                try skipValue(for: key, depth: depth + 1)
                skipWhitespace()
                if isAt(ASCII.comma) { position += 1; continue }
                if isAt(ASCII.closeBracket) { position += 1; more = false; continue }
                throw expected("',' or ']' in the array value of \(describeKey(key))")
            }
        default:
            for literal: StaticString in ["true", "false", "null"] where matches(literal) {
                position += literal.utf8CodeUnitCount
                return
            }
            throw expected("a value for \(describeKey(key))")
        }
    }

    func matches(_ literal: StaticString) -> Bool {
        let length = literal.utf8CodeUnitCount
        return position + length <= end && input.equals(position..<position + length, literal)
    }

    // MARK: Strings

    /// Checks the string whose opening quote is at `position` and moves past its closing quote:
    /// UTF-8 valid (no overlongs, surrogates or code points past U+10FFFF), no raw control
    /// characters, escapes well formed with surrogates paired.
    mutating func scanString() throws(MMSearchError) -> StringToken {
        let openingQuote = position
        var offset = position + 1
        var hasEscapes = false
        while true {
            guard offset < end else {
                throw error(at: openingQuote, "unterminated string: the input ends before its closing '\"'")
            }
            let byte = input[offset]
            if byte == ASCII.quote { break }
            if byte == ASCII.backslash {
                offset += try escapeLength(at: offset)
                hasEscapes = true
            } else if byte < 0x20 {
                let hint = byte == ASCII.newline ? "; is a closing '\"' missing?" : ""
                throw error(at: offset, "control character \(Self.scalarName(UInt32(byte))) in string must be escaped\(hint)")
            } else if byte < 0x80 {
                offset += 1
            } else {
                offset += try multibyteLength(at: offset)
            }
        }
        position = offset + 1
        return StringToken(start: openingQuote + 1, end: offset, hasEscapes: hasEscapes)
    }

    /// The length of the well-formed escape at `offset` (a backslash).
    func escapeLength(at offset: Int) throws(MMSearchError) -> Int {
        guard offset + 1 < end else { throw expected("an escape after '\\'", at: offset + 1) }
        switch input[offset + 1] {
        case ASCII.quote, ASCII.backslash, UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return 2
        case UInt8(ascii: "u"):
            let unit = try hexUnit(at: offset + 2)
            switch unit {
            case 0xD800...0xDBFF:
                if offset + 7 < end && input[offset + 6] == ASCII.backslash && input[offset + 7] == UInt8(ascii: "u"),
                   case 0xDC00...0xDFFF = try hexUnit(at: offset + 8) {
                    return 12
                }
                throw error(at: offset, "lone surrogate \(Self.escapeText(unit)) in string: a high surrogate must be followed by a \\uDC00-\\uDFFF escape")
            case 0xDC00...0xDFFF:
                throw error(at: offset, "lone surrogate \(Self.escapeText(unit)) in string: a low surrogate must follow a \\uD800-\\uDBFF escape")
            default:
                return 6
            }
        case let escaped:
            let shown = escaped > 0x20 && escaped < 0x7F
                ? "'\\\(Character(Unicode.Scalar(escaped)))'"
                : "'\\' followed by \(describeCharacter(at: offset + 1))"
            throw error(at: offset, "invalid escape \(shown) in string; expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
        }
    }

    /// The four hex digits of a `\u` escape starting at `offset`.
    func hexUnit(at offset: Int) throws(MMSearchError) -> UInt32 {
        var unit: UInt32 = 0
        for index in offset..<offset + 4 {
            guard index < end, let value = ASCII.hexValue(input[index]) else {
                throw expected("4 hex digits after \\u", at: index)
            }
            unit = unit << 4 | value
        }
        return unit
    }

    /// The length of the well-formed UTF-8 sequence led by the non-ASCII byte at `offset`
    /// (Unicode's table 3-7 of well-formed byte sequences).
    func multibyteLength(at offset: Int) throws(MMSearchError) -> Int {
        let lead = input[offset]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        var narrowedBecause = ""
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF; narrowedBecause = "an overlong encoding"
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F; narrowedBecause = "an encoded UTF-16 surrogate"
        case 0xF0: length = 4; secondRange = 0x90...0xBF; narrowedBecause = "an overlong encoding"
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F; narrowedBecause = "a code point past U+10FFFF"
        case 0x80...0xBF: throw invalidUTF8(at: offset, "a continuation byte with no lead byte")
        case 0xC0, 0xC1: throw invalidUTF8(at: offset, "it only starts overlong encodings")
        default: throw invalidUTF8(at: offset, "it never occurs in UTF-8")
        }
        guard offset + 1 < end && input[offset + 1] & 0xC0 == 0x80 else {
            throw invalidUTF8(at: offset, "a sequence cut short")
        }
        guard secondRange.contains(input[offset + 1]) else { throw invalidUTF8(at: offset, "it starts \(narrowedBecause)") }
        for index in offset + 2..<offset + length {
            guard index < end, input[index] & 0xC0 == 0x80 else { throw invalidUTF8(at: offset, "a sequence cut short") }
        }
        return length
    }

    func invalidUTF8(at offset: Int, _ reason: String) -> MMSearchError {
        error(at: offset, "invalid UTF-8 byte \(Self.hex(input[offset])) in string: \(reason)")
    }

    /// The text of a checked string with its escapes decoded.
    func decode(_ token: StringToken) -> [UInt8] {
        guard token.hasEscapes else { return input.copy(token.rawRange) }
        var output: [UInt8] = []
        output.reserveCapacity(token.rawRange.count)
        var segmentStart = token.start
        var offset = token.start
        while offset < token.end {
            guard input[offset] == ASCII.backslash else { offset += 1; continue }
            input.append(segmentStart..<offset, to: &output)
            let escaped = input[offset + 1]
            var scalar: UInt32
            switch escaped {
            case UInt8(ascii: "b"): scalar = 0x08
            case UInt8(ascii: "f"): scalar = 0x0C
            case UInt8(ascii: "n"): scalar = 0x0A
            case UInt8(ascii: "r"): scalar = 0x0D
            case UInt8(ascii: "t"): scalar = 0x09
            case UInt8(ascii: "u"):
                // Already checked by escapeLength, so these cannot fail.
                scalar = (try? hexUnit(at: offset + 2)) ?? 0
                if (0xD800...0xDBFF).contains(scalar) {
                    let low = (try? hexUnit(at: offset + 8)) ?? 0xDC00
                    scalar = 0x10000 + ((scalar - 0xD800) << 10 | (low - 0xDC00))
                    offset += 6
                }
                offset += 4
            default: scalar = UInt32(escaped)
            }
            offset += 2
            Self.appendUTF8(scalar, to: &output)
            segmentStart = offset
        }
        input.append(segmentStart..<token.end, to: &output)
        return output
    }

    static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            output.append(UInt8(scalar))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | scalar >> 6))
            output.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | scalar >> 12))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        default:
            output.append(UInt8(0xF0 | scalar >> 18))
            output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    // MARK: Numbers

    /// Whether a number starts at `position`: a digit, or '-' and a digit.
    func startsNumber() -> Bool {
        guard position < end else { return false }
        let byte = input[position]
        if ASCII.isDigit(byte) { return true }
        return byte == ASCII.minus && position + 1 < end && ASCII.isDigit(input[position + 1])
    }

    /// Checks the number at `position` against RFC 8259's grammar and moves past it.
    mutating func scanNumber() throws(MMSearchError) -> NumberToken {
        let start = position
        let isNegative = input[position] == ASCII.minus
        if isNegative { position += 1 }
        let integerStart = position
        skipDigits()
        if position - integerStart > 1 && input[integerStart] == ASCII.zero {
            throw error(at: integerStart, "leading zeros are not allowed in a number, found \(text(start..<position))")
        }
        let integerDigits = integerStart..<position
        var fractionDigits = position..<position
        var hasFraction = false
        if isAt(ASCII.dot) {
            position += 1
            guard position < end && ASCII.isDigit(input[position]) else { throw expected("a digit after '.' in a number") }
            let fractionStart = position
            skipDigits()
            fractionDigits = fractionStart..<position
            hasFraction = true
        }
        var exponent = 0
        var hasExponent = false
        if isAt(UInt8(ascii: "e")) || isAt(UInt8(ascii: "E")) {
            position += 1
            var exponentIsNegative = false
            if isAt(ASCII.plus) || isAt(ASCII.minus) {
                exponentIsNegative = input[position] == ASCII.minus
                position += 1
            }
            guard position < end && ASCII.isDigit(input[position]) else { throw expected("a digit in the exponent of a number") }
            while position < end && ASCII.isDigit(input[position]) {
                exponent = min(exponent * 10 + Int(input[position] - ASCII.zero), NumberToken.exponentClamp)
                position += 1
            }
            if exponentIsNegative { exponent = -exponent }
            hasExponent = true
        }
        return NumberToken(
            start: start, end: position, isNegative: isNegative, integerDigits: integerDigits,
            fractionDigits: fractionDigits, hasFraction: hasFraction, hasExponent: hasExponent, exponent: exponent
        )
    }

    mutating func skipDigits() {
        while position < end && ASCII.isDigit(input[position]) { position += 1 }
    }

    func numberText(_ number: NumberToken) -> String { text(number.start..<number.end) }

    /// ASCII text from the input for a message, shortened when long.
    func text(_ range: Range<Int>) -> String {
        let shown = range.count > 40 ? range.lowerBound..<range.lowerBound + 40 : range
        return String(decoding: input.copy(shown), as: UTF8.self) + (shown == range ? "" : "…")
    }

    // MARK: Errors (only built when thrown)

    func error(at offset: Int, _ message: String) -> MMSearchError {
        let (line, column) = location(of: offset)
        return .invalidInput(file: file, line: line, column: column, byteOffset: offset, message: message)
    }

    /// "expected X, found Y" at `offset`, or "unexpected end of input, expected X" there.
    func expected(_ what: String, at offset: Int? = nil) -> MMSearchError {
        let offset = offset ?? position
        if offset >= end { return error(at: offset, "unexpected end of input, expected \(what)") }
        return error(at: offset, "expected \(what), found \(describeToken(at: offset))")
    }

    func duplicateKey(_ key: StringToken, in object: ObjectKind) -> MMSearchError {
        error(at: key.openingQuote, "duplicate key \(describeKey(key)) in \(describe(object))")
    }

    func describe(_ object: ObjectKind) -> String {
        switch object {
        case let .record(start): "the record that starts at \(lineAndColumn(start))"
        case let .coord(start): "the \"coord\" object that starts at \(lineAndColumn(start))"
        case let .other(start): "the object that starts at \(lineAndColumn(start))"
        }
    }

    /// 1-based line and column of `offset`: lines end at "\n", columns count Unicode scalars (bytes
    /// that do not continue a UTF-8 sequence), not counting a byte order mark.
    func location(of offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for index in 0..<min(offset, end) where input[index] == ASCII.newline {
            line += 1
            lineStart = index + 1
        }
        if lineStart == 0 { lineStart = min(textStart, offset) }
        var column = 1
        for index in lineStart..<min(offset, end) where input[index] & 0xC0 != 0x80 { column += 1 }
        return (line, column)
    }

    func lineAndColumn(_ offset: Int) -> String {
        let (line, column) = location(of: offset)
        return "line \(line):\(column)"
    }

    /// What a value or token at `offset` looks like, for "found ...".
    func describeToken(at offset: Int) -> String {
        let byte = input[offset]
        switch byte {
        case ASCII.quote: return "a string"
        case ASCII.openBrace: return "an object"
        case ASCII.openBracket: return "an array"
        case ASCII.zero...ASCII.nine: return "a number"
        case ASCII.minus where offset + 1 < end && ASCII.isDigit(input[offset + 1]): return "a number"
        default:
            guard byte == ASCII.minus || ASCII.isLetter(byte) else { return describeCharacter(at: offset) }
            // A bare word such as true, null, NaN or -Infinity.
            var wordEnd = offset + 1
            while wordEnd < end && wordEnd - offset < 20 && ASCII.isLetter(input[wordEnd]) { wordEnd += 1 }
            return "'\(text(offset..<wordEnd))'"
        }
    }

    /// The single character at `offset`, for "found ...".
    func describeCharacter(at offset: Int) -> String {
        let byte = input[offset]
        switch byte {
        case 0x20: return "a space"
        case 0x09: return "a tab"
        case 0x0A: return "a line break"
        case 0x0D: return "a carriage return"
        case 0..<0x20, 0x7F: return "control character \(Self.scalarName(UInt32(byte)))"
        case 0..<0x80: return "'\(Character(Unicode.Scalar(byte)))'"
        default:
            var iterator = input.copy(offset..<min(end, offset + 4)).makeIterator()
            var decoder = UTF8()
            if case let .scalarValue(scalar) = decoder.decode(&iterator) {
                return "'\(Character(scalar))' (\(Self.scalarName(scalar.value)))"
            }
            return "invalid UTF-8 byte \(Self.hex(byte))"
        }
    }

    func describeKey(_ key: StringToken) -> String { Self.quoted(decode(key)) }

    /// Shows decoded string bytes in double quotes, control characters escaped, shortened when long.
    static func quoted(_ bytes: [UInt8]) -> String {
        var shown = ""
        for (count, scalar) in String(decoding: bytes, as: UTF8.self).unicodeScalars.enumerated() {
            if count == 40 { shown += "…"; break }
            switch scalar {
            case "\"": shown += "\\\""
            case "\\": shown += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: shown += escapeText(scalar.value)
            default: shown.unicodeScalars.append(scalar)
            }
        }
        return "\"\(shown)\""
    }

    static func hex(_ byte: UInt8) -> String {
        "0x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
    }

    static func scalarName(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    static func escapeText(_ unit: UInt32) -> String {
        let digits = String(unit, radix: 16, uppercase: true)
        return "\\u" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
