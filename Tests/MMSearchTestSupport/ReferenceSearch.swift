import Foundation
import MMSearch

/// One record of the city list as Foundation's JSONDecoder reads it: independent of the builder's parser.
public struct ListedCity: Decodable, Sendable {
    public struct Coord: Decodable, Sendable {
        public let lon: Double
        public let lat: Double
    }

    public let _id: UInt32
    public let name: String
    public let country: String
    public let coord: Coord
}

/// Where the shared data lies: `../shared` beside the package root.
public enum SharedData {
    public static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0 ..< 3 { url.deleteLastPathComponent() } // Tests/MMSearchTestSupport/ReferenceSearch.swift
        return url.path
    }()

    public static let cityList = packageRoot + "/../shared/data/city.list.json"
    public static let typingQueries = packageRoot + "/../shared/data/typing-queries.txt"

    /// The real list, decoded once per test process.
    public static let cities: Result<[ListedCity], Error> = Result {
        guard FileManager.default.fileExists(atPath: cityList) else {
            throw MissingData(path: cityList)
        }
        return try JSONDecoder().decode([ListedCity].self, from: Data(contentsOf: URL(fileURLWithPath: cityList)))
    }

    /// The naive reference over the real list, made once per test process.
    public static let reference: Result<ReferenceSearch, Error> = Result { ReferenceSearch(cities: try cities.get()) }

    public struct MissingData: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "the shared city list is missing at \(path); clone the repository with shared/ beside it" }
    }
}

/// The naive reference: every record's key folded up front, and each query answered by scanning all
/// of them, then sorting the matches by (key bytes, name bytes, id) as fold.py orders them.
public struct ReferenceSearch: Sendable {
    public let cities: [ListedCity]
    /// All keys back to back; record i's key is keyPool[keyStarts[i] ..< keyStarts[i + 1]].
    private let keyPool: [UInt8]
    private let keyStarts: [Int]
    private let names: [[UInt8]]

    public init(cities: [ListedCity]) {
        self.cities = cities
        var pool: [UInt8] = []
        var starts = [0]
        for city in cities {
            pool += Folding.key(name: city.name, country: city.country)
            starts.append(pool.count)
        }
        keyPool = pool
        keyStarts = starts
        names = cities.map { Array($0.name.utf8) }
    }

    private func key(_ record: Int) -> ArraySlice<UInt8> { keyPool[keyStarts[record] ..< keyStarts[record + 1]] }

    /// Indices into `cities` of the records whose key starts with fold(query), in index order.
    public func search(_ query: String) -> [Int] {
        let folded = Folding.fold(query)
        var matches: [Int] = []
        keyPool.withUnsafeBytes { pool in
            keyStarts.withUnsafeBufferPointer { starts in
                folded.withUnsafeBytes { prefix in
                    for record in 0 ..< cities.count where starts[record + 1] - starts[record] >= prefix.count {
                        if prefix.isEmpty || memcmp(pool.baseAddress! + starts[record], prefix.baseAddress!, prefix.count) == 0 {
                            matches.append(record)
                        }
                    }
                }
            }
        }
        return matches.sorted { a, b in
            let keyA = key(a), keyB = key(b)
            if keyA != keyB { return keyA.lexicographicallyPrecedes(keyB) }
            if names[a] != names[b] { return names[a].lexicographicallyPrecedes(names[b]) }
            return cities[a]._id < cities[b]._id
        }
    }
}

extension ReferenceSearch {
    /// The same list under rank.py's rules (`search(_:match:order:)`): every record's names are its
    /// display name alone and every population is 0.
    public func ranked() -> RankedReference {
        RankedReference(records: cities.map { ReferenceRecord(id: $0._id, name: $0.name, country: $0.country) })
    }
}

/// One record as `shared/peers/rank.py` sees it: the display name, the other names in the source's
/// order (before rank.py drops any), and the population (0 for the list alone).
public struct ReferenceRecord: Sendable, Hashable {
    public var id: UInt32
    public var name: String
    public var country: String
    public var alternateNames: [String]
    public var population: UInt32
    /// The region's name and admin1 code ("" for none), the country's ISO3 code and name ("" for none).
    public var region: String
    public var regionCode: String
    public var iso3: String
    public var countryName: String
    /// Other names of the country and the region (from an alternate names file), qualifiers too.
    public var extraQualifiers: [String]

    public init(id: UInt32, name: String, country: String, alternateNames: [String] = [], population: UInt32 = 0,
                region: String = "", regionCode: String = "", iso3: String = "", countryName: String = "", extraQualifiers: [String] = []) {
        self.id = id
        self.name = name
        self.country = country
        self.alternateNames = alternateNames
        self.population = population
        self.region = region
        self.regionCode = regionCode
        self.iso3 = iso3
        self.countryName = countryName
        self.extraQualifiers = extraQualifiers
    }

    /// rank.py's `qualifiers` (rules 4): folded without periods, without repeats, the empty ones left out.
    public var qualifiers: [[UInt8]] {
        let code = regionCode.count >= 2 && regionCode.unicodeScalars.allSatisfy({ ("A" ... "Z").contains($0) }) ? regionCode : ""
        var out: [[UInt8]] = []
        for text in [country, iso3, countryName, region, code] + extraQualifiers {
            let folded = Folding.fold(text).filter { $0 != UInt8(ascii: ".") }
            if !folded.isEmpty && !out.contains(folded) { out.append(folded) }
        }
        return out
    }
}

/// The naive reference for ranked search: `shared/peers/rank.py` written out straightforwardly. Every
/// key of every record (each kept name's fold + tail, and each word start's) is folded up front, and a
/// query is answered by scanning all of them, keeping each matching record's greatest weight and least
/// kind, and sorting. Independent of the index code: it uses `Folding.fold` and nothing else of
/// MMSearch but the `MatchMode` and `ResultOrder` names.
public struct RankedReference: Sendable {
    public let records: [ReferenceRecord]
    /// Per record, the names rank.py keeps: `names[r][0]` is the primary name.
    public let names: [[String]]
    /// Whether `names[r][0]` is the display name (it is not when the display name is empty and the
    /// record has another name).
    public let primaryIsDisplayName: [Bool]
    /// Every key back to back; key k is keyPool[keyStarts[k] ..< keyStarts[k + 1]].
    private let keyPool: [UInt8]
    private let keyStarts: [Int]
    private let keyRecord: [Int32]
    private let keyKind: [UInt8]
    /// Bytes of the key's name part: the fold of the name it was made from, from its word start.
    private let keyNameLength: [Int32]
    /// Whether the key was made from a generated spelling (matched with "words" only).
    private let keyIsSpelling: [Bool]
    /// Which of the record's kept names the key was made from.
    private let keyName: [Int32]
    /// Per record, its place in name order: (primary key bytes, display name bytes, id).
    private let nameRank: [Int]
    /// The keys by their first byte, so that a scan skips the keys that cannot match at once.
    private let keysByFirstByte: [[Int32]]

    /// rank.py's separators: a word starts after one of these.
    public static let separators: Set<UInt8> = Set(" -/().,'\"".utf8)

    /// rank.py's `_names`: empty names, alternates in lowercase ASCII only, and names whose fold repeats
    /// an earlier one's are dropped; nothing left means the display name alone.
    public static func keptNames(_ record: ReferenceRecord) -> (names: [String], primaryIsDisplayName: Bool) {
        var kept: [String] = []
        var seen: Set<[UInt8]> = []
        var displayKept = false
        for (position, name) in ([record.name] + record.alternateNames).enumerated() {
            if name.isEmpty { continue }
            let ascii = name.utf8.allSatisfy { $0 < 0x80 }
            if position > 0, ascii, name == name.lowercased(), name != name.uppercased() { continue }
            let folded = Folding.fold(name)
            if seen.contains(folded) { continue }
            seen.insert(folded)
            if position == 0 { displayKept = true }
            kept.append(name)
        }
        if kept.isEmpty { return ([record.name], true) }
        return (kept, displayKept)
    }

    /// rank.py's word starts of a folded name: p > 0 where a separator is followed by a non-separator.
    public static func wordStarts(_ folded: [UInt8]) -> [Int] {
        (1 ..< max(1, folded.count)).filter { !separators.contains(folded[$0]) && separators.contains(folded[$0 - 1]) }
    }

    /// A matching key's weight: primary 100; alternate 20 when the query covers half of it, else 1; word
    /// 1; ten times that when the query covers the whole name (rules 4).
    public static func weight(kind: Int, queryLength: Int, nameLength: Int) -> Int {
        let base: Int
        switch kind {
        case 0: base = 100
        case 1: base = 2 * queryLength >= nameLength ? 20 : 1
        default: base = 1
        }
        return queryLength >= nameLength ? base * 10 : base
    }

    /// rank.py's `spellings`: for each kept name, with P the name without periods and S = P with
    /// hyphens as spaces: P, S, short(P), short(S), long(P), long(S), kept as `keptNames` keeps
    /// alternates (never empty, never lowercase ASCII, never a fold met before).
    public static func spellings(of names: [String]) -> [String] {
        let short = ["saint": "St", "sainte": "Ste", "sankt": "St", "santa": "Sta", "mount": "Mt", "fort": "Ft", "port": "Pt", "point": "Pt"]
        let long = ["st": "Saint", "ste": "Sainte", "sta": "Santa", "mt": "Mount", "ft": "Fort"]
        func replacingWords(_ text: String, _ table: [String: String]) -> String {
            var parts: [String] = [], word = ""
            for character in text.unicodeScalars.map(String.init) + [" "] {
                if character.utf8.count == 1, separators.contains(character.utf8.first!) {
                    parts.append(word.isEmpty ? "" : table[String(decoding: Folding.fold(word), as: UTF8.self)] ?? word)
                    parts.append(character)
                    word = ""
                } else {
                    word += character
                }
            }
            return parts.dropLast().joined()
        }
        var seen = Set(names.map { Folding.fold($0) })
        var out: [String] = []
        for name in names {
            let plain = name.unicodeScalars.filter { $0 != "." }.map(String.init).joined()
            let spaced = plain.unicodeScalars.map { $0 == "-" ? " " : String($0) }.joined()
            for generated in [plain, spaced, replacingWords(plain, short), replacingWords(spaced, short), replacingWords(plain, long), replacingWords(spaced, long)] {
                if generated.isEmpty { continue }
                if generated.utf8.allSatisfy({ $0 < 0x80 }), generated == generated.lowercased(), generated != generated.uppercased() { continue }
                if seen.insert(Folding.fold(generated)).inserted { out.append(generated) }
            }
        }
        return out
    }

    public init(records: [ReferenceRecord]) {
        self.records = records
        var names: [[String]] = [], primaryIsDisplayName: [Bool] = []
        var pool: [UInt8] = [], starts = [0], owners: [Int32] = [], kinds: [UInt8] = [], lengths: [Int32] = [], nameNumbers: [Int32] = [], spelled: [Bool] = []
        var primaryKeys: [[UInt8]] = []
        for (index, record) in records.enumerated() {
            let tail: [UInt8] = record.country.isEmpty ? [] : Array(", ".utf8) + Folding.fold(record.country)
            primaryKeys.append(Folding.fold(record.name) + tail)
            let (kept, displayKept) = Self.keptNames(record)
            let all = kept + Self.spellings(of: kept)
            names.append(all)
            primaryIsDisplayName.append(displayKept)
            for (position, name) in all.enumerated() {
                let folded = Folding.fold(name)
                func add(from start: Int, kind: UInt8) {
                    pool += folded[start...]
                    pool += tail
                    starts.append(pool.count)
                    owners.append(Int32(index))
                    kinds.append(kind)
                    lengths.append(Int32(folded.count - start))
                    nameNumbers.append(Int32(position))
                    spelled.append(position >= kept.count)
                }
                add(from: 0, kind: position == 0 ? 0 : 1)
                for start in Self.wordStarts(folded) { add(from: start, kind: 2) }
            }
        }
        self.names = names
        self.primaryIsDisplayName = primaryIsDisplayName
        keyPool = pool
        keyStarts = starts
        keyRecord = owners
        keyKind = kinds
        keyNameLength = lengths
        keyIsSpelling = spelled
        keyName = nameNumbers
        let displayNames = records.map { Array($0.name.utf8) }
        let order = records.indices.sorted { a, b in
            if primaryKeys[a] != primaryKeys[b] { return primaryKeys[a].lexicographicallyPrecedes(primaryKeys[b]) }
            if displayNames[a] != displayNames[b] { return displayNames[a].lexicographicallyPrecedes(displayNames[b]) }
            return records[a].id < records[b].id
        }
        var rank = [Int](repeating: 0, count: records.count)
        for (position, record) in order.enumerated() { rank[record] = position }
        nameRank = rank
        var buckets = [[Int32]](repeating: [], count: 256)
        for key in 0 ..< owners.count where starts[key + 1] > starts[key] { buckets[Int(pool[starts[key]])].append(Int32(key)) }
        keysByFirstByte = buckets
    }

    /// One result: the record (an index into `records`), its score and kind, and its best entry's
    /// name (an index into `names[record]`): greatest weight, then least kind, then least key bytes,
    /// then first name, as the format's "best entry" (entries are in key, kind, record, name order).
    public struct Match: Sendable, Equatable {
        public var record: Int
        public var score: UInt64
        public var kind: Int
        public var bestName: Int
    }

    /// Every record matching `query`, in `order`: rank.py's `search` without the page cut, typos off.
    public func search(_ query: String, match: MatchMode = .words, order: ResultOrder = .rank) -> [Match] {
        search(query, match: match, order: order, typos: .off).matches
    }

    /// rank.py's `search` without the page cut: the matches, and how many typos were allowed. Every
    /// key that can start with the folded query (all of them for the empty query, else those with its
    /// first byte) is compared with it; "Name, Qualifier" splits are tried as rank.py's `_exact` tries
    /// them; with typos on and no match, every key is compared with the query's scalars by a full
    /// optimal-string-alignment table, as rank.py's `_typos` does.
    public func search(_ query: String, match: MatchMode, order: ResultOrder, typos: Typos) -> (matches: [Match], typos: Int) {
        var prefix = Folding.fold(query)
        if match == .words { prefix.removeAll { $0 == UInt8(ascii: ".") } } // every name has a spelling without periods
        var found = keyMatches(prefix, match: match) { key, pool, starts in
            starts[key + 1] - starts[key] >= prefix.count && (prefix.isEmpty || memcmp(pool.baseAddress! + starts[key], prefix, prefix.count) == 0)
        }
        if match == .words { addQualifierMatches(prefix, to: &found) }
        var allowed = 0
        let scalars = Array(String(decoding: prefix, as: UTF8.self).unicodeScalars)
        if found.isEmpty, typos == .on {
            for (maximum, shortest) in [(1, 4), (2, 8)] where found.isEmpty && scalars.count >= shortest {
                found = keyMatches(prefix, match: match) { key, pool, starts in
                    // Typos in the name part only; a country tail, if typed, typed exactly.
                    let nameEnd = starts[key] + Int(keyNameLength[key])
                    let name = Array(String(decoding: pool[starts[key] ..< nameEnd], as: UTF8.self).unicodeScalars)
                    let tail = Array(String(decoding: pool[nameEnd ..< starts[key + 1]], as: UTF8.self).unicodeScalars)
                    return Self.isWithin(maximum, of: scalars, name: name, tail: tail)
                }
                allowed = found.isEmpty ? 0 : maximum
            }
        }
        var matches = found.map { found in
            Match(record: found.record, score: UInt64(records[found.record].population) * UInt64(found.weight), kind: found.kind, bestName: Int(keyName[found.bestKey]))
        }
        switch order {
        case .rank:
            matches.sort { a, b in
                if a.score != b.score { return a.score > b.score }
                if a.kind != b.kind { return a.kind < b.kind }
                return nameRank[a.record] < nameRank[b.record]
            }
        case .name:
            matches.sort { nameRank[$0.record] < nameRank[$1.record] }
        case .distance:
            preconditionFailure("the naive reference ranks without a point; rank.py checks distance order")
        }
        return (matches, allowed)
    }

    /// Whether some prefix of `key` (itself included) is within `maximum` of `query`, the first scalar
    /// equal: the whole table, row by row, as rank.py's `_osa_row`, stopping where rank.py does.
    static func hasPrefixWithin(_ maximum: Int, of query: [Unicode.Scalar], in key: [Unicode.Scalar]) -> Bool {
        guard let first = key.first, first == query.first else { return false }
        var rows = [Array(0 ... query.count)]
        for depth in 1 ... key.count {
            let character = key[depth - 1]
            var row = [depth]
            for j in 1 ... query.count {
                var value = min(rows[depth - 1][j] + 1, row[j - 1] + 1, rows[depth - 1][j - 1] + (query[j - 1] == character ? 0 : 1))
                if depth >= 2, j >= 2, query[j - 1] == key[depth - 2], query[j - 2] == character {
                    value = min(value, rows[depth - 2][j - 2] + 1)
                }
                row.append(value)
            }
            if row[query.count] <= maximum { return true }
            if row.min()! > maximum { return false } // rank.py's `dead`: no prefix further on comes back
            rows.append(row)
        }
        return false
    }

    /// rank.py's rules-4 typo test of a key `name` + `tail`: some prefix of the name within `maximum`
    /// of the query, or the query a start within `maximum` of the whole name, then a non-empty start
    /// of the tail typed exactly.
    static func isWithin(_ maximum: Int, of query: [Unicode.Scalar], name: [Unicode.Scalar], tail: [Unicode.Scalar]) -> Bool {
        if hasPrefixWithin(maximum, of: query, in: name) { return true }
        guard !tail.isEmpty, let first = name.first, first == query.first else { return false }
        for j in 1 ..< query.count where tail.starts(with: query[j...]) {
            if distance(name, Array(query[..<j])) <= maximum { return true }
        }
        return false
    }

    /// The optimal-string-alignment distance of two scalar strings.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        distances(a, toPrefixesOf: b)[b.count]
    }

    /// The optimal-string-alignment distance from `a` to each start of `b`, b[..<j] for j in
    /// 0 ... b.count: the last row of the whole table.
    public static func distances(_ a: [Unicode.Scalar], toPrefixesOf b: [Unicode.Scalar]) -> [Int] {
        var rows = [Array(0 ... b.count)]
        for i in 1 ... max(1, a.count) where !a.isEmpty {
            var row = [i]
            for j in 1 ... max(1, b.count) where !b.isEmpty {
                var value = min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i >= 2, j >= 2, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { value = min(value, rows[i - 2][j - 2] + 1) }
                row.append(value)
            }
            if b.isEmpty { row = [i] }
            rows.append(row)
        }
        return rows[a.count]
    }

    /// Per matching record: its greatest weight, least kind, and best key so far.
    typealias Found = [(record: Int, weight: Int, kind: Int, bestWeight: Int, bestKind: Int, bestKey: Int)]

    /// rank.py's `_exact` for "Name, Qualifier": every split of the folded query as X + S + Q, every
    /// record with a name (kind 0 or 1) folding to X whose qualifiers Q fits, weight 100 or 20. A key
    /// match of the same weight and kind stays the record's best.
    func addQualifierMatches(_ query: [UInt8], to found: inout Found) {
        guard records.contains(where: { !$0.region.isEmpty || !$0.countryName.isEmpty }) else { return }
        for split in 1 ..< max(1, query.count) {
            for separator in [", ", ",", " "].map({ Array($0.utf8) }) where query[split...].starts(with: separator) {
                let x = Array(query[..<split]), rest = Array(query[(split + separator.count)...])
                if rest.first == UInt8(ascii: " ") { continue }
                for key in 0 ..< keyRecord.count where keyKind[key] != 2 {
                    let record = Int(keyRecord[key])
                    guard Folding.fold(names[record][Int(keyName[key])]) == x, Self.fits(rest, records[record].qualifiers) else { continue }
                    let kind = Int(keyKind[key]), weight = kind == 0 ? 1000 : 200
                    if let slot = found.firstIndex(where: { $0.record == record }) {
                        var current = found[slot]
                        current.weight = max(current.weight, weight)
                        current.kind = min(current.kind, kind)
                        if weight > current.bestWeight || (weight == current.bestWeight && kind < current.bestKind) {
                            (current.bestWeight, current.bestKind, current.bestKey) = (weight, kind, key)
                        }
                        found[slot] = current
                    } else {
                        found.append((record, weight, kind, weight, kind, key))
                    }
                }
            }
        }
    }

    /// rank.py's `_fits`, recursive as written there.
    static func fits(_ rest: [UInt8], _ qualifiers: [[UInt8]]) -> Bool {
        if rest.isEmpty { return true }
        for qualifier in qualifiers {
            if qualifier.starts(with: rest) { return true }
            guard rest.starts(with: qualifier) else { continue }
            let tail = Array(rest[qualifier.count...])
            for separator in [", ", ",", " "].map({ Array($0.utf8) }) where tail.starts(with: separator) {
                let next = Array(tail[separator.count...])
                if next.first != UInt8(ascii: " "), fits(next, qualifiers) { return true }
            }
        }
        return false
    }

    /// The records with a key `accepts`, each with its greatest weight, least kind and best key.
    func keyMatches(_ prefix: [UInt8], match: MatchMode, accepts: (Int, UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<Int>) -> Bool) -> Found {
        // Per matching record (an index into `found` by `slot[record]`): its greatest weight, least
        // kind, and best key so far.
        var slot = [Int32](repeating: -1, count: records.count)
        var found: Found = []
        func consider(_ key: Int, pool: UnsafeBufferPointer<UInt8>, starts: UnsafeBufferPointer<Int>) {
            let kind = Int(keyKind[key])
            if match == .name && (kind == 2 || keyIsSpelling[key]) { return }
            let weight = Self.weight(kind: kind, queryLength: prefix.count, nameLength: Int(keyNameLength[key]))
            let record = Int(keyRecord[key])
            guard slot[record] >= 0 else {
                slot[record] = Int32(found.count)
                found.append((record, weight, kind, weight, kind, key))
                return
            }
            var current = found[Int(slot[record])]
            current.weight = max(current.weight, weight)
            current.kind = min(current.kind, kind)
            if weight > current.bestWeight || (weight == current.bestWeight && kind < current.bestKind)
                || (weight == current.bestWeight && kind == current.bestKind && isBefore(key, current.bestKey, pool: pool, starts: starts)) {
                (current.bestWeight, current.bestKind, current.bestKey) = (weight, kind, key)
            }
            found[Int(slot[record])] = current
        }
        keyPool.withUnsafeBufferPointer { pool in
            keyStarts.withUnsafeBufferPointer { starts in
                guard let first = prefix.first else {
                    for key in 0 ..< keyRecord.count where accepts(key, pool, starts) { consider(key, pool: pool, starts: starts) }
                    return
                }
                // Both ways of matching need the key's first byte to be the query's.
                keysByFirstByte[Int(first)].withUnsafeBufferPointer { candidates in
                    for candidate in candidates where accepts(Int(candidate), pool, starts) {
                        consider(Int(candidate), pool: pool, starts: starts)
                    }
                }
            }
        }
        return found
    }

    /// Whether key `a` comes before key `b` of the same record and kind in entry order: by key bytes,
    /// then by name (display name first, then alternates in order).
    private func isBefore(_ a: Int, _ b: Int, pool: UnsafeBufferPointer<UInt8>, starts: UnsafeBufferPointer<Int>) -> Bool {
        let keyA = pool[starts[a] ..< starts[a + 1]], keyB = pool[starts[b] ..< starts[b + 1]]
        if !keyA.elementsEqual(keyB) { return keyA.lexicographicallyPrecedes(keyB) }
        return keyName[a] < keyName[b]
    }

    /// The name a result reports as matched (`City.matchedName`), folded: nil when the best entry was
    /// made from the display name. (Of alternates that fold alike the index may keep any one's text,
    /// so only the fold is defined.)
    public func foldedMatchedName(_ match: Match) -> [UInt8]? {
        if match.bestName == 0 && primaryIsDisplayName[match.record] { return nil }
        return Folding.fold(names[match.record][match.bestName])
    }
}

/// A temporary directory for one test, removed by `remove()`.
public struct TemporaryDirectory: Sendable {
    public let path: String

    public init() throws {
        path = NSTemporaryDirectory() + "mmsearch-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    public func file(_ name: String) -> String { path + "/" + name }

    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// A seeded generator (SplitMix64), so every randomized test names a case that reproduces.
public struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension ResultOrder {
    /// The orders a search without a point has (distance order needs one): what the tests that try
    /// every order iterate.
    public static let withoutPoint: [ResultOrder] = allCases.filter { $0 != .distance }
}
