import MMSearch
import MMSearchBuilder

/// The measurements of mmsearch itself, each run in a fresh child process (see `Child`) so that no
/// run inherits another's warm caches, heap or peak RSS. Each returns the `key=value` text the child
/// prints for the parent.
enum OurEngine {
    /// Builds the index from the JSON list, as `mmsearch build` does, and reports the wall time and
    /// the process's peak RSS (which is then the build's).
    static func build(input: String, output: String) throws -> String {
        let start = System.nanoseconds()
        let summary = try IndexBuilder.build(input: input, output: output)
        let elapsed = System.nanoseconds() - start
        return "build_ns=\(elapsed) size_bytes=\(summary.fileSize) records=\(summary.recordCount) peak_rss_kib=\(System.resident().peak)"
    }

    /// From before opening the index to holding the first page of the first query: the startup cost
    /// a program pays before it can show a result. RSS is read just outside the timed span.
    static func startup(index path: String, query: String) throws -> String {
        let before = System.resident()
        let start = System.nanoseconds()
        let index = try CityIndex(path: path)
        let opened = System.nanoseconds()
        let results = try index.search(query)
        let located = System.nanoseconds()
        var page = FirstPage()
        let matches = try page.fill(from: results)
        let end = System.nanoseconds()
        let after = System.resident()
        return "startup_ns=\(end - start) open_ns=\(opened - start) locate_ns=\(located - opened) page_ns=\(end - located) "
            + "rss_before_kib=\(before.current) rss_after_kib=\(after.current) peak_rss_kib=\(after.peak) "
            + "file_growth_kib=\(after.file - before.file) anonymous_growth_kib=\(after.anonymous - before.anonymous) "
            + "matches=\(matches) sink=\(page.sink)"
    }

    /// The keystroke workload: per line, fold, locate, count every match and read the first 20
    /// records. Opening and the first query are timed in this process too, the way the peers time
    /// them (after loading the workload), for a like-for-like open_first_us.
    static func keystrokes(index path: String, queries queryPath: String, limit: Int?) throws -> String {
        let queries = try Workload.lines(queryPath, limit: limit)
        guard !queries.isEmpty else { throw BenchError("\(queryPath): no queries") }

        let openStart = System.nanoseconds()
        let index = try CityIndex(path: path)
        var page = FirstPage()
        _ = try page.fill(from: index.search(queries[0]))
        let openFirst = System.nanoseconds() - openStart

        var latencies: [UInt64] = []
        latencies.reserveCapacity(queries.count)
        var matches = 0
        let loopStart = System.nanoseconds()
        for query in queries {
            let start = System.nanoseconds()
            matches += try page.fill(from: index.search(query))
            latencies.append(System.nanoseconds() - start)
        }
        let loop = System.nanoseconds() - loopStart
        let latency = LatencySummary(latencies: latencies, loopNanoseconds: loop)

        // A second pass times the search alone (fold, locate, count) to show where the time goes; it
        // runs after the measured pass so that pass sees the same cold start the peers' passes see.
        var searchLatencies: [UInt64] = []
        searchLatencies.reserveCapacity(queries.count)
        var searchMatches = 0
        for query in queries {
            let start = System.nanoseconds()
            searchMatches += try index.search(query).count
            searchLatencies.append(System.nanoseconds() - start)
        }
        let search = LatencySummary(latencies: searchLatencies, loopNanoseconds: 0)
        let line = EngineLine(
            engine: "mmsearch", keys: index.count, buildSeconds: 0, sizeBytes: index.fileSize,
            openFirstMicroseconds: Double(openFirst) / 1e3, latency: latency, matches: matches,
            peakRSSKiB: System.resident().peak
        )
        return line.text + " search_p50_ns=\(fixed(search.p50, 0)) search_p99_ns=\(fixed(search.p99, 0)) "
            + "search_matches=\(searchMatches) sink=\(page.sink)"
    }
}

/// The first page of results as a program would keep it: ids and names as Swift values.
struct FirstPage {
    struct Entry {
        var id: UInt32
        var name: String
    }

    static let size = 20
    private(set) var entries: [Entry] = []
    /// Folds every id and name length read, and is printed, so the optimizer cannot drop the reads.
    private(set) var sink = 0

    init() { entries.reserveCapacity(Self.size) }

    /// Replaces the page with the first records of `results`; returns the total number of matches.
    mutating func fill(from results: SearchResults) throws(MMSearchError) -> Int {
        entries.removeAll(keepingCapacity: true)
        for city in try results.cities(in: 0 ..< min(Self.size, results.count)) {
            entries.append(Entry(id: city.id, name: city.name))
        }
        if let last = entries.last { sink &+= Int(last.id) &+ last.name.utf8.count }
        return results.count
    }
}

/// A keystroke workload file: one query a line, exactly as written but for the "\n", as the peers
/// read it (std::getline, BufRead::lines, fgets).
enum Workload {
    static func lines(_ path: String, limit: Int?) throws -> [String] {
        var lines = try System.readBytes(path).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() } // the final line break ends the last line
        if let limit { lines = Array(lines.prefix(limit)) }
        return lines.map { String(decoding: $0, as: UTF8.self) }
    }
}
