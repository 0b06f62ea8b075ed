import CMMSearchFormat
import MMSearch

/// One record as read from the list (or a GeoNames dump), before folding and sorting.
public struct SourceRecord: Sendable, Equatable {
    /// The list's `"_id"` (a GeoNames id).
    public var id: UInt32
    /// The display name: UTF-8, escapes decoded, validated; at most `MMS_MAX_STRING_LENGTH` bytes; may be empty.
    public var name: [UInt8]
    /// The country code: empty, or two ASCII bytes each `A`-`Z` or `0`-`9` as the parsers give it
    /// (`IndexBuilder.makeIndex` takes `a`-`z` too, and refuses any other code by the record's id).
    public var country: [UInt8]
    /// Latitude in 1e-7 degree, within ±90 degrees.
    public var latitudeE7: Int32
    /// Longitude in 1e-7 degree, within ±180 degrees.
    public var longitudeE7: Int32
    /// Other names the city is known by, as the source gives them and in its order (for a GeoNames
    /// row: its name, ASCII name and alternate names). The builder drops empty ones, lowercase ASCII
    /// transliterations and repeats, as `shared/peers/rank.py` defines (see `SearchKeys`).
    public var alternateNames: [[UInt8]]
    /// How many people live there (GeoNames' population); 0 when unknown.
    public var population: UInt32
    /// The region a GeoNames row gives the city (its country and admin1 codes), to be named from
    /// admin1CodesASCII.txt; nil without a row or an admin1 code.
    public var admin1: Admin1Key?

    public init(id: UInt32, name: [UInt8], country: [UInt8], latitudeE7: Int32, longitudeE7: Int32,
                alternateNames: [[UInt8]] = [], population: UInt32 = 0, admin1: Admin1Key? = nil) {
        self.admin1 = admin1
        self.id = id
        self.name = name
        self.country = country
        self.latitudeE7 = latitudeE7
        self.longitudeE7 = longitudeE7
        self.alternateNames = alternateNames
        self.population = population
    }
}

/// A region as GeoNames names it: "CC.CODE" in admin1CodesASCII.txt, from a dump row's country code
/// (column 9) and admin1 code (column 11).
public struct Admin1Key: Sendable, Hashable {
    public var country: [UInt8]
    public var code: [UInt8]

    public init(country: [UInt8], code: [UInt8]) {
        self.country = country
        self.code = code
    }

    /// The key of a dump row's region; nil when the row has no admin1 code.
    init?(row: GeoNamesRow) {
        guard !row.admin1Code.isEmpty else { return nil }
        self.init(country: row.country, code: row.admin1Code)
    }
}

/// How `CityListParser` treats a record it rejects.
public struct CityListParseOptions: Sendable {
    /// Drop each record with a content error, noting the error, instead of throwing it. Structural
    /// errors are thrown all the same; `CityListParser` says which errors are which.
    public var skipInvalid: Bool

    public init(skipInvalid: Bool = false) {
        self.skipInvalid = skipInvalid
    }
}

/// A parsed city list: the records kept, and why any others were dropped.
public struct ParsedCityList: Sendable, Equatable {
    /// The records kept, in input order.
    public var records: [SourceRecord]
    /// One error per dropped record (its first), in input order. Empty unless `skipInvalid` was set.
    public var skipped: [MMSearchError]

    public init(records: [SourceRecord], skipped: [MMSearchError]) {
        self.records = records
        self.skipped = skipped
    }
}

/// A strict reader of OpenWeatherMap's city list: a JSON array (RFC 8259) of objects
/// `{"_id": 707860, "name": "Hurzuf", "country": "UA", "coord": {"lon": 34.283333, "lat": 44.549999}}`.
///
/// ## What a list must be
///
/// - The input is UTF-8; one byte order mark (EF BB BF) at the very start is skipped. Lines end at
///   `\n`, and error columns count Unicode scalars from the line start, the mark excluded.
/// - The top level is one array of at least one element, with only whitespace after it (an empty
///   list is an error: building from it would replace an index with one that finds nothing).
/// - Each record has exactly the keys `"_id"`, `"name"`, `"country"` and `"coord"` (with `"lat"` and
///   `"lon"`), in any order. Other keys are skipped after their value is checked to be valid JSON
///   nested at most `maximumNesting` levels deep (the top-level array is level 1). A key repeated in
///   any object is an error.
/// - `"_id"` is an integer written without sign, fraction or exponent, from 0 to 4294967295, and no
///   two records have the same one: a record with an id an earlier record has is an error at its
///   `"_id"` value, whose message says where the first is. Ids are compared once the whole list is
///   read (it is much cheaper), so any other error is reported before a repeated id.
/// - `"name"` is a string of at most `MMS_MAX_STRING_LENGTH` (65,535) UTF-8 bytes once escapes are
///   decoded; a longer one is an error at its opening quote. It may be empty.
/// - `"country"` is `""` or two characters each `A`-`Z` or `0`-`9`.
/// - `"lat"` and `"lon"` are JSON numbers, converted exactly from their decimal text (never through
///   `Double`) to whole multiples of 1e-7 degree, rounded to the nearest with ties away from zero:
///   `0.00000005` gives 1. The rounded value must lie within ±90 (lat) or ±180 (lon) degrees.
///
/// ## What is rejected, and what `skipInvalid` skips
///
/// Every failure is `MMSearchError.invalidInput` with the line, column and byte offset of the
/// offending byte and a message saying what was expected and what was found. Places are worked out
/// only for the errors reported. There are two kinds of failure.
///
/// **Content errors** are faults inside one element of the array that leave its end certain:
/// - a known field of the wrong type (`"_id": "1"`, `"coord": [1, 2]`, `"country": null`), a missing
///   field, or a key repeated in any object of the record;
/// - an `"_id"` out of range, negative, fractional or with an exponent, or one an earlier record
///   already has;
/// - a `"country"` that is not a code, a `"name"` over the limit, a `"lat"` or `"lon"` out of range;
/// - in any string of the record, keys included: invalid UTF-8, an invalid escape, a lone surrogate
///   escape, or a raw control character other than a line break;
/// - a number against JSON's grammar whose end is still plain: leading zeros (`007`), no digit
///   after `.` or in the exponent (`1.`, `1e`);
/// - a bare word where a value belongs other than `true`, `false` and `null`, such as `NaN`,
///   `-Infinity` or `tru`: it ends where its letters end;
/// - an element that is a JSON value but not an object, such as `42` or `[1]`.
///
/// **Structural errors** leave the parser unable to tell where an element ends:
/// - the input ends early, inside a string (a closing quote missing) or anywhere else;
/// - a raw line break (U+000A or U+000D) in a string: it almost always means a closing quote is
///   missing, and the string's end found by reading on would be the opening quote of a later one;
/// - something else where `,`, `:`, `}` or `]` belongs (such as a missing comma between records, or
///   a trailing comma), or a key that is not a string;
/// - where a value belongs, a byte that cannot start one, such as `+`, `.` or invalid UTF-8;
/// - a top level that is not an array, or anything but whitespace after its `]`;
/// - arrays and objects nested more than `maximumNesting` deep.
///
/// By default the first error is thrown: the first in input order, except that repeated ids come
/// last. With `skipInvalid`, an element with a content error is dropped and its first error kept in
/// `ParsedCityList.skipped`, in input order; the rest of the element is still read, so a structural
/// error anywhere is thrown. Of the records sharing an id, the first one kept stays and the later ones
/// are dropped; a record dropped for another error does not count.
public enum CityListParser {
    /// How deeply arrays and objects may nest, the top-level array included.
    public static let maximumNesting = 64

    /// Parses a whole city list, throwing at its first error. `file` is used only in error messages.
    public static func parse(_ bytes: UnsafeRawBufferPointer, file: String) throws(MMSearchError) -> [SourceRecord] {
        try parse(bytes, file: file, options: CityListParseOptions()).records
    }

    /// Parses a whole city list; with `options.skipInvalid`, records with content errors are dropped
    /// and listed in `skipped` rather than thrown. `file` is used only in error messages.
    public static func parse(
        _ bytes: UnsafeRawBufferPointer, file: String, options: CityListParseOptions
    ) throws(MMSearchError) -> ParsedCityList {
        var parser = Parser(input: InputBytes(bytes), file: file, skipInvalid: options.skipInvalid)
        return try parser.parseList()
    }

    /// Parses a whole city list held in an array, throwing at its first error.
    public static func parse(_ bytes: [UInt8], file: String) throws(MMSearchError) -> [SourceRecord] {
        try bytes.withRawBytes { (raw) throws(MMSearchError) in try parse(raw, file: file) }
    }

    /// Parses a whole city list held in an array, with `options`.
    public static func parse(
        _ bytes: [UInt8], file: String, options: CityListParseOptions
    ) throws(MMSearchError) -> ParsedCityList {
        try bytes.withRawBytes { (raw) throws(MMSearchError) in try parse(raw, file: file, options: options) }
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

/// A string already scanned: the bytes between its quotes, still escaped.
private struct StringToken {
    /// Just after the opening quote.
    var start: Int
    /// The closing quote.
    var end: Int
    var hasEscapes: Bool
    /// False when the string had a content error (only read past with `skipInvalid`).
    var isValid: Bool
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
    static let carriageReturn = UInt8(ascii: "\r")

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

/// What the parser has found wrong so far, and a table for placing errors. A class, so that the
/// parser's non-mutating methods, which build an error only when it is needed, can also record it.
private final class Diagnostics {
    /// The first content error of the element being read (only with `skipInvalid`).
    var elementError: MMSearchError?
    /// The first error of each element dropped so far.
    var skipped: [MMSearchError] = []
    /// Line and column at every `checkpointStride`th byte, built for the first error placed: with
    /// `skipInvalid` there may be an error per record, and placing each by scanning from the start
    /// of the input would take time quadratic in its size.
    var checkpoints: [(line: Int, column: Int)] = []
    static let checkpointStride = 4096
}

// MARK: - Parser

private struct Parser {
    let input: InputBytes
    let file: String
    let skipInvalid: Bool
    let diagnostics = Diagnostics()
    var position = 0
    /// Where the text starts: 3 after a byte order mark, else 0.
    var textStart = 0
    /// Country codes seen so far, indexed by `countryCodeSlot`, so that records share one array per
    /// code instead of allocating one each.
    var countryCodes = [[UInt8]](repeating: [], count: 36 * 36)
    /// Where the `"_id"` value of each record kept so far is, for `rejectRepeatedIDs`.
    var idOffsets: [Int] = []

    init(input: InputBytes, file: String, skipInvalid: Bool) {
        self.input = input
        self.file = file
        self.skipInvalid = skipInvalid
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

    // MARK: Content errors

    /// Reports a content error: thrown by default. With `skipInvalid` the element's first one is kept
    /// and reading goes on, as the element's end can still be found; later ones are not even built.
    func reject(_ error: @autoclosure () -> MMSearchError) throws(MMSearchError) {
        guard skipInvalid else { throw error() }
        if diagnostics.elementError == nil { diagnostics.elementError = error() }
    }

    /// Reports that `what` was expected at `position`: a content error, or a structural one if the
    /// input ends there.
    func rejectUnlessEnded(_ what: String) throws(MMSearchError) {
        guard position < end else { throw expected(what) }
        try reject(expected(what))
    }

    /// Ends an element that had a content error (reached only with `skipInvalid`, since otherwise the
    /// error was thrown): its error is kept, the element dropped.
    func dropElement() -> SourceRecord? {
        if let error = diagnostics.elementError { diagnostics.skipped.append(error) }
        diagnostics.elementError = nil
        return nil
    }

    // MARK: Structure

    mutating func parseList() throws(MMSearchError) -> ParsedCityList {
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
        idOffsets.reserveCapacity(end / 90)
        skipWhitespace()
        // An empty list is refused: building from it would replace an index with one that finds nothing.
        guard !isAt(ASCII.closeBracket) else { throw expected("a record (the list is empty)") }
        while true {
            skipWhitespace()
            if let record = try parseRecord() { records.append(record) }
            skipWhitespace()
            if isAt(ASCII.comma) { position += 1; continue }
            if isAt(ASCII.closeBracket) { position += 1; break }
            throw expected("',' or ']' after a record")
        }
        skipWhitespace()
        guard position == end else { throw expected("end of input after the array") }
        try rejectRepeatedIDs(in: &records)
        return ParsedCityList(records: records, skipped: diagnostics.skipped)
    }

    /// Rejects each record whose id an earlier record kept already has: with `skipInvalid` it is
    /// dropped, its error put among the others in input order; otherwise the first is thrown.
    ///
    /// This runs once the whole list is read, and first only asks whether any id repeats, by sorting
    /// a copy of the ids: a few sequential passes, about 3 ms for the real list. A hash table costs a
    /// cache miss per id instead; looking ids up in one as they were read added 20 to 30 ms, since
    /// the parsing between lookups evicts the table, so each lookup waits for memory.
    mutating func rejectRepeatedIDs(in records: inout [SourceRecord]) throws(MMSearchError) {
        guard InputRules.hasRepeats(records.map { $0.id }) else { return }
        // Rare from here on: find where each id is first, and drop the repeats.
        var firstOffsets: [UInt32: Int] = [:]
        var kept: [SourceRecord] = []
        var repeats: [MMSearchError] = []
        for (index, record) in records.enumerated() {
            let offset = idOffsets[index]
            guard let first = firstOffsets[record.id] else {
                firstOffsets[record.id] = offset
                kept.append(record)
                continue
            }
            let repeated = error(at: offset, "duplicate \"_id\" \(record.id); the first is at \(lineAndColumn(first))")
            guard skipInvalid else { throw repeated }
            repeats.append(repeated)
        }
        records = kept
        // Each error lies inside its own element, so ordering by offset puts them in input order.
        func offset(_ error: MMSearchError) -> Int {
            if case let .invalidInput(_, _, _, byteOffset, _) = error { return byteOffset }
            return 0
        }
        diagnostics.skipped = (diagnostics.skipped + repeats).sorted { offset($0) < offset($1) }
    }


    /// Reads one element of the list: its record, or nil if it had a content error.
    mutating func parseRecord() throws(MMSearchError) -> SourceRecord? {
        guard isAt(ASCII.openBrace) else {
            try skipWrongValue(expected: "'{' to start a record", for: nil, depth: 2)
            return dropElement()
        }
        let recordStart = position
        position += 1
        var id: UInt32?
        var idOffset = 0
        var name: [UInt8]?
        var country: [UInt8]?
        var coordinate: (latitude: Int32, longitude: Int32)?
        var otherKeys: Set<[UInt8]> = []
        let object = ObjectKind.record(start: recordStart)

        var more = try openContainer(depth: 2)
        while more {
            let key = try readKey(in: object)
            switch recordKey(key) {
            case .id where id == nil:
                idOffset = position
                id = try readID(key)
            case .name where name == nil:
                name = try readName(key)
            case .country where country == nil:
                country = try readCountry(key)
            case .coord where coordinate == nil:
                coordinate = try readCoordinate(key)
            case .other:
                try noteOtherKey(key, in: &otherKeys, of: object)
                try skipValue(for: key, depth: 3)
            default:  // A known key seen before.
                try reject(duplicateKey(key, in: object))
                try skipValue(for: key, depth: 3)
            }
            more = try endMember(after: key)
        }

        let closingBrace = position - 1
        func missing(_ key: String) -> MMSearchError {
            error(at: closingBrace, "missing field \"\(key)\" in \(describe(object))")
        }
        if id == nil { try reject(missing("_id")) }
        if name == nil { try reject(missing("name")) }
        if country == nil { try reject(missing("country")) }
        if coordinate == nil { try reject(missing("coord")) }
        // (In strict mode a content error has been thrown, so the class need not be asked.)
        guard let id, let name, let country, let coordinate, !(skipInvalid && diagnostics.elementError != nil) else {
            return dropElement()
        }
        idOffsets.append(idOffset)
        return SourceRecord(
            id: id, name: name, country: country,
            latitudeE7: coordinate.latitude, longitudeE7: coordinate.longitude
        )
    }

    mutating func readCoordinate(_ key: StringToken) throws(MMSearchError) -> (latitude: Int32, longitude: Int32) {
        guard isAt(ASCII.openBrace) else {
            try skipWrongValue(expected: "an object for \"coord\"", for: key, depth: 3)
            return (0, 0)
        }
        let objectStart = position
        position += 1
        var latitude: Int32?
        var longitude: Int32?
        var otherKeys: Set<[UInt8]> = []
        let object = ObjectKind.coord(start: objectStart)

        var more = try openContainer(depth: 3)
        while more {
            let member = try readKey(in: object)
            switch coordKey(member) {
            case .latitude where latitude == nil:
                latitude = try readDegrees(.latitude, member)
            case .longitude where longitude == nil:
                longitude = try readDegrees(.longitude, member)
            case .other:
                try noteOtherKey(member, in: &otherKeys, of: object)
                try skipValue(for: member, depth: 4)
            default:  // A known key seen before.
                try reject(duplicateKey(member, in: object))
                try skipValue(for: member, depth: 4)
            }
            more = try endMember(after: member)
        }

        let closingBrace = position - 1
        if latitude == nil { try reject(error(at: closingBrace, "missing field \"lat\" in \(describe(object))")) }
        if longitude == nil { try reject(error(at: closingBrace, "missing field \"lon\" in \(describe(object))")) }
        return (latitude ?? 0, longitude ?? 0)
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

    /// Remembers a key the parser skips, rejecting it if the same object already had it.
    func noteOtherKey(_ key: StringToken, in seen: inout Set<[UInt8]>, of object: ObjectKind) throws(MMSearchError) {
        if !seen.insert(decode(key)).inserted { try reject(duplicateKey(key, in: object)) }
    }

    // MARK: Fields

    // After a content error a reader returns a placeholder and reading goes on: with `skipInvalid`
    // the record will be dropped, but its end must still be found and the rest of it checked.

    mutating func readID(_ key: StringToken) throws(MMSearchError) -> UInt32 {
        guard startsNumber() else {
            try skipWrongValue(expected: "a number for \"_id\"", for: key, depth: 3)
            return 0
        }
        let number = try scanNumber()
        let limit = UInt64(UInt32.max)
        func outOfRange() -> MMSearchError {
            error(at: number.start, "\"_id\" must be an integer from 0 to \(limit) without sign, fraction or exponent, found \(numberText(number))")
        }
        guard !number.isNegative, !number.hasFraction, !number.hasExponent, number.integerDigits.count <= 10 else {
            try reject(outOfRange())
            return 0
        }
        var value: UInt64 = 0
        for offset in number.integerDigits { value = value * 10 + UInt64(input[offset] - ASCII.zero) }
        guard value <= limit else {
            try reject(outOfRange())
            return 0
        }
        return UInt32(value)
    }

    mutating func readName(_ key: StringToken) throws(MMSearchError) -> [UInt8] {
        guard isAt(ASCII.quote) else {
            try skipWrongValue(expected: "a string for \"name\"", for: key, depth: 3)
            return []
        }
        let token = try scanString()
        let name = decode(token)
        if name.count > Int(MMS_MAX_STRING_LENGTH) {
            try reject(error(at: token.openingQuote, "\"name\" is \(name.count) bytes of UTF-8, more than the limit of \(MMS_MAX_STRING_LENGTH)"))
        }
        return name
    }

    mutating func readCountry(_ key: StringToken) throws(MMSearchError) -> [UInt8] {
        guard isAt(ASCII.quote) else {
            try skipWrongValue(expected: "a string for \"country\"", for: key, depth: 3)
            return []
        }
        let token = try scanString()
        if !token.hasEscapes && token.rawRange.isEmpty { return [] }
        if !token.hasEscapes && token.rawRange.count == 2 {
            let first = input[token.start], second = input[token.start + 1]
            if let slot = InputRules.countryCodeSlot(first, second) {
                if countryCodes[slot].isEmpty { countryCodes[slot] = [first, second] }
                return countryCodes[slot]
            }
        }
        // Escaped, or not a code: decode and check the slow way.
        let country = decode(token)
        guard country.isEmpty || (country.count == 2 && country.allSatisfy(Self.isCountryCharacter)) else {
            try reject(error(
                at: token.openingQuote,
                "expected \"country\" to be empty or two characters A-Z or 0-9 (ISO 3166-1 alpha-2), found \(Self.quoted(country))"
            ))
            return []
        }
        return country
    }

    static func isCountryCharacter(_ byte: UInt8) -> Bool {
        ASCII.isDigit(byte) || byte &- UInt8(ascii: "A") < 26
    }


    /// Reads a JSON number as a whole count of 1e-7 degree, rounded to the nearest with ties away from
    /// zero, and rejects it outside ±90 (latitude) or ±180 (longitude) degrees.
    mutating func readDegrees(_ axis: Axis, _ key: StringToken) throws(MMSearchError) -> Int32 {
        guard startsNumber() else {
            try skipWrongValue(expected: "a number for \"\(axis.key)\"", for: key, depth: 4)
            return 0
        }
        let number = try scanNumber()
        let limit = axis.limitDegrees * Coordinate.scale
        guard let magnitude = scaledMagnitude(number), magnitude <= limit else {
            try reject(error(
                at: number.start,
                "\"\(axis.key)\" must be from -\(axis.limitDegrees) to \(axis.limitDegrees) degrees, found \(numberText(number))"
            ))
            return 0
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

    // MARK: Skipping values

    /// Where `what` was expected but another value is: a content error, skipping the value, if a
    /// value (or bare word) starts here, as `skipValue` then finds its end; otherwise the structure
    /// is broken. `key` and `depth` are as for `skipValue`.
    mutating func skipWrongValue(expected what: String, for key: StringToken?, depth: Int) throws(MMSearchError) {
        guard startsValue() else { throw expected(what) }
        try reject(expected(what))
        try skipValue(for: key, depth: depth)
    }

    /// Checks and skips any JSON value; `depth` is the nesting level a container here would have.
    /// `key` names the value in messages; nil for an element of the list.
    mutating func skipValue(for key: StringToken?, depth: Int) throws(MMSearchError) {
        guard position < end else { throw expected(valueWanted(for: key)) }
        switch input[position] {
        case ASCII.quote:
            _ = try scanString()
        case ASCII.openBrace:
            let objectStart = position
            position += 1
            var keys: Set<[UInt8]> = []
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
                throw expected("',' or ']' in the array value of \(key.map { describeKey($0) } ?? "a list element")")
            }
        default:
            if startsNumber() {
                _ = try scanNumber()
            } else if let wordEnd = bareWordEnd() {
                // Not JSON unless it is a literal, but it plainly ends with its letters.
                let word = position..<wordEnd
                if !(input.equals(word, "true") || input.equals(word, "false") || input.equals(word, "null")) {
                    try reject(expected(valueWanted(for: key)))
                }
                position = wordEnd
            } else {
                throw expected(valueWanted(for: key))
            }
        }
    }

    func valueWanted(for key: StringToken?) -> String {
        key.map { "a value for \(describeKey($0))" } ?? "a value"
    }

    /// Whether a value, or a bare word, starts at `position`.
    func startsValue() -> Bool {
        guard position < end else { return false }
        switch input[position] {
        case ASCII.quote, ASCII.openBrace, ASCII.openBracket: return true
        default: return startsNumber() || bareWordEnd() != nil
        }
    }

    /// Where the bare word at `position` ends: ASCII letters after an optional '-' (as in
    /// `-Infinity`). Nil if there is none.
    func bareWordEnd() -> Int? {
        var offset = position
        if offset < end && input[offset] == ASCII.minus { offset += 1 }
        let lettersStart = offset
        while offset < end && ASCII.isLetter(input[offset]) { offset += 1 }
        return offset > lettersStart ? offset : nil
    }

    // MARK: Strings

    /// Checks the string whose opening quote is at `position` and moves past its closing quote:
    /// UTF-8 valid (no overlongs, surrogates or code points past U+10FFFF), no raw control
    /// characters, escapes well formed with surrogates paired. Each fault is a content error after
    /// which the scan goes on to the closing quote, except a raw line break, taken for a missing one.
    mutating func scanString() throws(MMSearchError) -> StringToken {
        let openingQuote = position
        var offset = position + 1
        var hasEscapes = false
        var isValid = true
        while true {
            guard offset < end else {
                throw error(at: openingQuote, "unterminated string: the input ends before its closing '\"'")
            }
            let byte = input[offset]
            if byte == ASCII.quote { break }
            if byte == ASCII.backslash {
                offset += try escapeLength(at: offset, isValid: &isValid)
                hasEscapes = true
            } else if byte < 0x20 {
                try rejectControlCharacter(at: offset)
                isValid = false
                offset += 1
            } else if byte < 0x80 {
                offset += 1
            } else {
                offset += try multibyteLength(at: offset, isValid: &isValid)
            }
        }
        position = offset + 1
        return StringToken(start: openingQuote + 1, end: offset, hasEscapes: hasEscapes, isValid: isValid)
    }

    /// Reports the raw control character at `offset` in a string: a content error, but a structural
    /// one for a line break. (Out of line, or the messages' set-up is hoisted into every string scan.)
    @inline(never)
    func rejectControlCharacter(at offset: Int) throws(MMSearchError) {
        let byte = input[offset]
        let message = "control character \(Self.scalarName(UInt32(byte))) in string must be escaped"
        if byte == ASCII.newline || byte == ASCII.carriageReturn {
            throw error(at: offset, message + "; is a closing '\"' missing?")
        }
        try reject(error(at: offset, message))
    }

    /// The length of the escape at `offset` (a backslash). A malformed one is a content error, and
    /// the length returned is where to go on scanning.
    func escapeLength(at offset: Int, isValid: inout Bool) throws(MMSearchError) -> Int {
        guard offset + 1 < end else { throw expected("an escape after '\\'", at: offset + 1) }
        switch input[offset + 1] {
        case ASCII.quote, ASCII.backslash, UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return 2
        case UInt8(ascii: "u"):
            guard let unit = hexUnit(at: offset + 2) else {
                try rejectHexDigits(at: offset + 2)
                isValid = false
                return 2
            }
            switch unit {
            case 0xD800...0xDBFF:
                if offset + 7 < end && input[offset + 6] == ASCII.backslash && input[offset + 7] == UInt8(ascii: "u"),
                   let low = hexUnit(at: offset + 8), (0xDC00...0xDFFF).contains(low) {
                    return 12
                }
                try reject(error(at: offset, "lone surrogate \(Self.escapeText(unit)) in string: a high surrogate must be followed by a \\uDC00-\\uDFFF escape"))
            case 0xDC00...0xDFFF:
                try reject(error(at: offset, "lone surrogate \(Self.escapeText(unit)) in string: a low surrogate must follow a \\uD800-\\uDBFF escape"))
            default:
                return 6
            }
            isValid = false
            return 6
        case let escaped:
            try reject(error(at: offset, "invalid escape \(describeEscape(escaped, at: offset + 1)) in string; expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX"))
            isValid = false
            // The escaped byte is then scanned as an ordinary one.
            return 1
        }
    }

    func describeEscape(_ escaped: UInt8, at offset: Int) -> String {
        escaped > 0x20 && escaped < 0x7F
            ? "'\\\(Character(Unicode.Scalar(escaped)))'"
            : "'\\' followed by \(describeCharacter(at: offset))"
    }

    /// The value of the four hex digits at `offset`; nil if they are not four hex digits.
    func hexUnit(at offset: Int) -> UInt32? {
        guard offset + 4 <= end else { return nil }
        var unit: UInt32 = 0
        for index in offset..<offset + 4 {
            guard let value = ASCII.hexValue(input[index]) else { return nil }
            unit = unit << 4 | value
        }
        return unit
    }

    /// Reports the `\u` escape whose four hex digits should start at `offset` but do not: at the
    /// first byte that is not one, or, structurally, where the input ends.
    func rejectHexDigits(at offset: Int) throws(MMSearchError) {
        var index = offset
        while index < end && ASCII.hexValue(input[index]) != nil { index += 1 }
        guard index < end else { throw expected("4 hex digits after \\u", at: index) }
        try reject(expected("4 hex digits after \\u", at: index))
    }

    /// The length of the well-formed UTF-8 sequence led by the non-ASCII byte at `offset`
    /// (Unicode's table 3-7 of well-formed byte sequences); 1 after a content error.
    func multibyteLength(at offset: Int, isValid: inout Bool) throws(MMSearchError) -> Int {
        func fault(_ reason: StaticString) throws(MMSearchError) -> Int {
            try reject(error(at: offset, "invalid UTF-8 byte \(Self.hex(input[offset])) in string: \(reason)"))
            isValid = false
            return 1
        }
        let lead = input[offset]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        var narrowed: StaticString = ""
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF; narrowed = "it starts an overlong encoding"
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F; narrowed = "it starts an encoded UTF-16 surrogate"
        case 0xF0: length = 4; secondRange = 0x90...0xBF; narrowed = "it starts an overlong encoding"
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F; narrowed = "it starts a code point past U+10FFFF"
        case 0x80...0xBF: return try fault("a continuation byte with no lead byte")
        case 0xC0, 0xC1: return try fault("it only starts overlong encodings")
        default: return try fault("it never occurs in UTF-8")
        }
        guard offset + 1 < end && input[offset + 1] & 0xC0 == 0x80 else { return try fault("a sequence cut short") }
        guard secondRange.contains(input[offset + 1]) else { return try fault(narrowed) }
        for index in offset + 2..<offset + length {
            guard index < end, input[index] & 0xC0 == 0x80 else { return try fault("a sequence cut short") }
        }
        return length
    }

    /// The text of a scanned string with its escapes decoded. A string with content errors (read on
    /// only with `skipInvalid`, in a record that will be dropped) comes back as its raw bytes, which
    /// serve to match keys and show them in messages.
    func decode(_ token: StringToken) -> [UInt8] {
        guard token.hasEscapes && token.isValid else { return input.copy(token.rawRange) }
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
                // Checked by scanString, so these are never nil.
                scalar = hexUnit(at: offset + 2) ?? 0
                if (0xD800...0xDBFF).contains(scalar) {
                    let low = hexUnit(at: offset + 8) ?? 0xDC00
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

    /// Checks the number at `position` against RFC 8259's grammar and moves past it. Where the
    /// grammar is broken but the number's end is plain, that is a content error.
    mutating func scanNumber() throws(MMSearchError) -> NumberToken {
        let start = position
        let isNegative = input[position] == ASCII.minus
        if isNegative { position += 1 }
        let integerStart = position
        skipDigits()
        if position - integerStart > 1 && input[integerStart] == ASCII.zero {
            try reject(error(at: integerStart, "leading zeros are not allowed in a number, found \(text(start..<position))"))
        }
        let integerDigits = integerStart..<position
        var fractionDigits = position..<position
        var hasFraction = false
        if isAt(ASCII.dot) {
            position += 1
            let fractionStart = position
            skipDigits()
            if position == fractionStart { try rejectUnlessEnded("a digit after '.' in a number") }
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
            let exponentStart = position
            while position < end && ASCII.isDigit(input[position]) {
                exponent = min(exponent * 10 + Int(input[position] - ASCII.zero), NumberToken.exponentClamp)
                position += 1
            }
            if position == exponentStart { try rejectUnlessEnded("a digit in the exponent of a number") }
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

    // MARK: Errors (only built when reported)

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
    /// that do not continue a UTF-8 sequence), not counting a byte order mark. Starts from the
    /// checkpoint before `offset`, so scans at most `Diagnostics.checkpointStride` bytes.
    func location(of offset: Int) -> (line: Int, column: Int) {
        let offset = min(offset, end)
        let stride = Diagnostics.checkpointStride
        if diagnostics.checkpoints.isEmpty {
            var checkpoints: [(line: Int, column: Int)] = []
            checkpoints.reserveCapacity(end / stride + 1)
            var place = (line: 1, column: 1)
            for index in 0..<end {
                if index % stride == 0 { checkpoints.append(place) }
                advance(&place, past: index)
            }
            if end % stride == 0 { checkpoints.append(place) }
            diagnostics.checkpoints = checkpoints
        }
        var place = diagnostics.checkpoints[offset / stride]
        for index in offset / stride * stride ..< offset { advance(&place, past: index) }
        return place
    }

    /// Moves `place` from the byte at `index` to the next one.
    func advance(_ place: inout (line: Int, column: Int), past index: Int) {
        let byte = input[index]
        if byte == ASCII.newline {
            place = (place.line + 1, 1)
        } else if byte & 0xC0 != 0x80 && index >= textStart {
            place.column += 1
        }
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
