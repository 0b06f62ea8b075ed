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
