import Foundation
#if canImport(Testing) // a release build of every target has no Testing module (FullTests.swift)
import Testing
#endif

/// The real data, read from `../shared` (never copied into the package), and the normative reference.
public enum RealData {
    public static let shared = SharedData.packageRoot + "/../shared"
    public static let cityList = SharedData.cityList
    public static let dump = shared + "/data/cities500.txt.gz"
    public static let typingQueries = SharedData.typingQueries
    public static let typingTypos = shared + "/data/typing-typos.txt"
    public static let admin1 = shared + "/data/admin1CodesASCII.txt"
    public static let countries = shared + "/data/countryInfo.txt"
    public static let alternateNames = shared + "/data/alternateNames-countries.txt"
    public static let typingNear = shared + "/data/typing-near.txt"
    public static let reversePoints = shared + "/data/reverse-points.txt"
    public static let rankScript = shared + "/peers/rank.py"
}

/// The inputs an index is built from: the list alone, the list joined with the GeoNames dump, and
/// the dump alone (version 2's three); and with region and country names: the list with countries,
/// the joined list with both and the countries' other names (what the README builds), the dump with regions.
public enum RealInput: String, CaseIterable, Sendable {
    case list, joined, dump
    case listCountries, joinedRegions, dumpRegions

    public static let versionTwo: [RealInput] = [.list, .joined, .dump]
    public static let withRegions: [RealInput] = [.listCountries, .joinedRegions, .dumpRegions]

    /// `mmsearch build` arguments, before `-o OUTPUT` (rank.py takes the same options).
    public var buildArguments: [String] {
        switch self {
        case .list: [RealData.cityList]
        case .joined: [RealData.cityList, "--geonames", RealData.dump]
        case .dump: [RealData.dump]
        case .listCountries: [RealData.cityList, "--countries", RealData.countries]
        case .joinedRegions: [RealData.cityList, "--geonames", RealData.dump, "--admin1", RealData.admin1, "--countries", RealData.countries,
                              "--alternate-names", RealData.alternateNames]
        case .dumpRegions: [RealData.dump, "--admin1", RealData.admin1]
        }
    }

    /// rank.py's arguments for the same records.
    public var rankArguments: [String] { ["--list"] + buildArguments }

    public var recordCount: Int { self == .dump || self == .dumpRegions ? 234_908 : 209_579 }

    /// Version 2's inputs that the acceptance tests build and ask: all three in the full run; the list
    /// alone in the quick run, which builds two real indexes only (a debug build of a joined input
    /// takes about 27 s here, and every rank.py run over it loads it again, about 16 s).
    public static let asked: [RealInput] = FullTests.enabled ? versionTwo : [.list]
    /// The same with region and country names: all three in the full run; in the quick one the list
    /// joined with the dump, the admin1 codes and the countries (what the README builds).
    public static let askedWithRegions: [RealInput] = FullTests.enabled ? withRegions : [.joinedRegions]
}

/// The indexes of the real inputs, each built once per test process with the `mmsearch` binary into
/// one temporary directory (removed when the process exits), whichever test asks first.
public final class RealIndexes: @unchecked Sendable {
    public static let shared = RealIndexes()

    public struct Built: Sendable {
        public let path: String
        /// What `mmsearch build` wrote on standard error.
        public let messages: String
    }

    public struct BuildFailed: Error, CustomStringConvertible {
        public let description: String
    }

    private final class Slot: @unchecked Sendable {
        let lock = NSLock()
        var result: Result<Built, BuildFailed>?
    }

    private static let prefix = "mmsearch-real-indexes-"

    private static let directory: String = {
        // Those of test processes that ended without running their atexit handlers (killed, crashed).
        let temporary = NSTemporaryDirectory()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? [] where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(atPath: temporary + name)
        }
        let path = temporary + prefix + "\(getpid())-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { RealIndexes.removeDirectory() }
        return path
    }()

    private static func removeDirectory() { try? FileManager.default.removeItem(atPath: directory) }

    private let slots: [RealInput: Slot] = Dictionary(uniqueKeysWithValues: RealInput.allCases.map { ($0, Slot()) })

    /// The index of `input`, built now if no test has built it yet (a build that failed fails again at
    /// once), waited for off the test pool.
    public func built(_ input: RealInput) async throws -> Built {
        try await offThePool { try self.blockingBuilt(input) }
    }

    public func path(_ input: RealInput) async throws -> String { try await built(input).path }

    /// `built(input)` for code that runs off the test pool already (in `offThePool`).
    public func blockingBuilt(_ input: RealInput) throws -> Built {
        let slot = slots[input]!
        slot.lock.lock()
        defer { slot.lock.unlock() }
        if let result = slot.result { return try result.get() }
        let path = Self.directory + "/\(input.rawValue).mms"
        let result: Result<Built, BuildFailed>
        if let messages = Self.cached(input, to: path) {
            result = .success(Built(path: path, messages: messages))
        } else {
            do {
                let build = try MMSearchProcess.run(["build"] + input.buildArguments + ["-o", path])
                result = build.status == 0
                    ? .success(Built(path: path, messages: build.error))
                    : .failure(BuildFailed(description: "mmsearch build \(input.buildArguments) failed with status \(build.status): \(build.error)"))
                if build.status == 0 { Self.keep(input, from: path, messages: build.error) }
            } catch {
                result = .failure(BuildFailed(description: "mmsearch build \(input.buildArguments) did not run: \(error)"))
            }
        }
        slot.result = result
        return try result.get()
    }

    /// Built indexes kept between test runs, in `.build/real-index-cache` (a debug build of the joined
    /// index takes about 45 s): each with the key of what built it, the `mmsearch` binary and the
    /// input files (path, size, modification time, as make would tell them apart), and its messages.
    /// MMSEARCH_INDEX_CACHE=off turns it off.
    private static let cacheDirectory: String? = ProcessInfo.processInfo.environment["MMSEARCH_INDEX_CACHE"] == "off"
        ? nil : SharedData.packageRoot + "/.build/real-index-cache"

    private static func cacheKey(_ input: RealInput) -> String? {
        var parts: [String] = []
        for path in [MMSearchProcess.executable] + input.buildArguments where path.hasPrefix("/") {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                  let size = attributes[.size] as? Int, let modified = attributes[.modificationDate] as? Date else { return nil }
            parts.append("\(path) \(size) \(modified.timeIntervalSince1970)")
        }
        return (parts + input.buildArguments).joined(separator: "\n")
    }

    /// Copies the kept index of `input` to `path` and returns its messages, when the key matches.
    private static func cached(_ input: RealInput, to path: String) -> String? {
        guard let directory = cacheDirectory, let key = cacheKey(input),
              let stored = try? String(contentsOfFile: "\(directory)/\(input.rawValue).key", encoding: .utf8), stored == key,
              let messages = try? String(contentsOfFile: "\(directory)/\(input.rawValue).messages", encoding: .utf8),
              (try? FileManager.default.copyItem(atPath: "\(directory)/\(input.rawValue).mms", toPath: path)) != nil else { return nil }
        return messages.replacingOccurrences(of: pathPlaceholder, with: path)
    }

    /// Where the messages kept name the index's path (the build's own temporary one).
    private static let pathPlaceholder = "\u{1}index path\u{1}"

    private static func keep(_ input: RealInput, from path: String, messages: String) {
        guard let directory = cacheDirectory, let key = cacheKey(input) else { return }
        let base = "\(directory)/\(input.rawValue)"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // The key last: a key names a complete index and its messages. Another process may keep the
        // same index at once; each writes its own temporary copy and renames it into place.
        try? FileManager.default.removeItem(atPath: base + ".key")
        let temporary = base + ".\(getpid()).tmp"
        guard (try? FileManager.default.copyItem(atPath: path, toPath: temporary)) != nil else { return }
        guard rename(temporary, base + ".mms") == 0 else { try? FileManager.default.removeItem(atPath: temporary); return }
        try? messages.replacingOccurrences(of: path, with: pathPlaceholder).write(toFile: base + ".messages", atomically: true, encoding: .utf8)
        try? key.write(toFile: base + ".key", atomically: true, encoding: .utf8)
    }

}

#if canImport(Testing)
extension RealInput: CustomTestStringConvertible {
    public var testDescription: String { rawValue }
}
#endif
