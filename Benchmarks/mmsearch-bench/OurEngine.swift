#if canImport(FoundationEssentials) && !MMSEARCH_USE_FOUNDATION
import FoundationEssentials // Linux: Foundation without ICU
#else
import Foundation // Apple platforms have no FoundationEssentials
#endif
import MMSearch
import MMSearchBuilder

/// The measurements of mmsearch itself, each run in a fresh child process (see `Suite.child`) so that
/// no run inherits another's warm caches, heap or peak RSS. Each returns the `key=value` text the child
/// prints for the parent.
enum OurEngine {
    /// Builds the index from the JSON list (joined with a GeoNames dump when `geonames` is given), as
    /// `mmsearch build` does, and reports the wall time and the process's peak RSS (the build's).
    static func build(input: String, geonames: String?, admin1: String?, countries: String?, alternateNames: String? = nil, output: String) throws -> String {
        let start = System.nanoseconds()
        let summary = try IndexBuilder.build(input: input, geonames: geonames, admin1: admin1, countries: countries, alternateNames: alternateNames, output: output)
        let elapsed = System.nanoseconds() - start
        return "build_ns=\(elapsed) size_bytes=\(summary.fileSize) records=\(summary.recordCount) "
            + "keys=\(summary.entryCount) peak_rss_kib=\(System.resident().peak)"
    }

    /// How much of the process had already run when a startup child began to measure.
    enum Warmth: String {
        /// Nothing: the first use of Foundation and of MMSearch in this process is the open measured.
        case fresh
        /// Foundation already in use, as in any app: a URL made and a file mapped with
        /// `Data(contentsOf:options: .alwaysMapped)` (the calls `CityIndex(path:)` makes) before the open
        /// measured, which is then MMSearch's first.
        case foundation
    }

    /// From before opening the index to holding the first page (20 cities, and the count) of `query`:
    /// the startup cost a program pays before it can show a result, in this process as `warmth` left it.
    /// Then the index is dropped and opened again the same way: the second open (everything warm).
    /// RSS is read just outside the timed span.
    static func startup(index path: String, query: String, warmth: Warmth, otherFile: String) throws -> String {
        var warmup: UInt64 = 0
        if warmth == .foundation {
            let start = System.nanoseconds()
            let other = try Data(contentsOf: URL(filePath: otherFile, directoryHint: .notDirectory), options: .alwaysMapped)
            warmup = System.nanoseconds() - start
            precondition(!other.isEmpty, "\(otherFile) is empty")
        }
        let before = System.resident()
        var page = FirstPage()
        page.reserve()
        var faults = [System.minorFaults()]
        let start = System.nanoseconds()
        let (open, locate, matches): (UInt64, UInt64, Int) = try {
            let index = try CityIndex(path: path)
            let opened = System.nanoseconds()
            faults.append(System.minorFaults())
            let results = try index.search(query)
            let located = System.nanoseconds()
            faults.append(System.minorFaults())
            return (opened - start, located - opened, try page.fill(from: results))
        }()
        let end = System.nanoseconds()
        faults.append(System.minorFaults())
        let after = System.resident()
        // The first index is gone (its mapping released); the same calls again.
        let secondStart = System.nanoseconds()
        try {
            let index = try CityIndex(path: path)
            _ = try page.fill(from: index.search(query))
        }()
        let second = System.nanoseconds() - secondStart
        return "startup_ns=\(end - start) open_ns=\(open) locate_ns=\(locate) page_ns=\(end - start - open - locate) "
            + "second_open_ns=\(second) warmup_ns=\(warmup) open_faults=\(faults[1] - faults[0]) "
            + "locate_faults=\(faults[2] - faults[1]) page_faults=\(faults[3] - faults[2]) "
            + "rss_before_kib=\(before.current) rss_after_kib=\(after.current) peak_rss_kib=\(after.peak) "
            + "file_growth_kib=\(after.file - before.file) anonymous_growth_kib=\(after.anonymous - before.anonymous) "
            + "matches=\(matches) sink=\(page.sink)"
    }

    /// The keystroke workload: per line, fold, locate, count every match and read the first 20
    /// records, matched and ordered as asked. Opening and the first query are timed in this process too,
    /// the way the peers time them (after loading the workload), for a like-for-like open_first_us.
    static func keystrokes(index path: String, queries queryPath: String, limit: Int?, match: MatchMode, order: ResultOrder,
                           engine: String) throws -> String {
        let queries = try Workload.lines(queryPath, limit: limit)
        guard !queries.isEmpty else { throw BenchError("\(queryPath): no queries") }

        let openStart = System.nanoseconds()
        let index = try CityIndex(path: path)
        var page = FirstPage()
        _ = try page.fill(from: index.search(queries[0], match: match, order: order))
        let openFirst = System.nanoseconds() - openStart

        // MMSEARCH_BENCH_WARM=1: one unmeasured pass first, so that the measured one finds the index's
        // pages mapped (each 64 KiB the process touches first costs a page fault, about 5 µs on
        // swift-packages-b): what the keystrokes cost once a process has read the whole file.
        if ProcessInfo.processInfo.environment["MMSEARCH_BENCH_WARM"] != nil {
            for query in queries { _ = try page.fill(from: index.search(query, match: match, order: order)) }
        }
        var latencies: [UInt64] = []
        latencies.reserveCapacity(queries.count)
        var matches = 0
        let loopStart = System.nanoseconds()
        for query in queries {
            let start = System.nanoseconds()
            matches += try page.fill(from: index.search(query, match: match, order: order))
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
            searchMatches += try index.search(query, match: match, order: order).count
            searchLatencies.append(System.nanoseconds() - start)
        }
        let search = LatencySummary(latencies: searchLatencies, loopNanoseconds: 0)
        // MMSEARCH_BENCH_TIMES=PATH: each query's times (measured pass, search alone) and the query, a
        // line each, to find the keystrokes behind a percentile.
        if let timesPath = ProcessInfo.processInfo.environment["MMSEARCH_BENCH_TIMES"] {
            let lines = queries.indices.map { "\(latencies[$0])\t\(searchLatencies[$0])\t\(queries[$0])\n" }
            try System.writeText(lines.joined(), to: timesPath)
        }
        // The keystrokes that matched only with typos: their share of the measured pass, and what each
        // typo walk visits (counted in a pass of its own, after the timed ones).
        var typoLatencies: [UInt64] = [], nodes: [UInt64] = [], subtrees: [UInt64] = [], entries: [UInt64] = []
        for (position, query) in queries.enumerated() {
            let results = try index.search(query, match: match, order: order)
            guard results.typos > 0 else { continue }
            typoLatencies.append(latencies[position])
            let walk = try index.typoWalk(query, maximum: results.typos)
            nodes.append(UInt64(walk.nodes)); subtrees.append(UInt64(walk.subtrees)); entries.append(UInt64(walk.entries))
        }
        let typo = LatencySummary(latencies: typoLatencies.isEmpty ? [0] : typoLatencies, loopNanoseconds: 0)
        func percentiles(_ name: String, _ values: [UInt64]) -> String {
            let summary = LatencySummary(latencies: values.isEmpty ? [0] : values, loopNanoseconds: 0)
            return " typo_\(name)_p50=\(fixed(summary.p50, 0)) typo_\(name)_p99=\(fixed(summary.p99, 0)) typo_\(name)_max=\(fixed(summary.max, 0))"
        }
        // The floor of any format's page: each keystroke's first 20 cities, read from the index untimed,
        // made again from their names' bytes, already decoded and in memory, and their other fields
        // (what `City` values cost however an index stores them), after the passes above. One page at a
        // time, so that the peak RSS below stays the search's.
        var floorLatencies: [UInt64] = []
        floorLatencies.reserveCapacity(queries.count)
        var floorPage: [City] = []
        floorPage.reserveCapacity(FirstPage.size)
        for query in queries {
            let results = try index.search(query, match: match, order: order)
            let cities = try results.cities(in: 0 ..< min(FirstPage.size, results.count))
            let names = cities.map { Array($0.name.utf8) }
            let start = System.nanoseconds()
            floorPage.removeAll(keepingCapacity: true)
            for (name, city) in zip(names, cities) {
                floorPage.append(City(id: city.id, name: String(decoding: name, as: UTF8.self), country: city.country, region: city.region,
                                      coordinate: city.coordinate, population: city.population, matchedName: city.matchedName))
            }
            floorLatencies.append(System.nanoseconds() - start)
            if let last = floorPage.last { page.absorb(Int(last.id) &+ last.name.utf8.count) }
        }
        let floor = LatencySummary(latencies: floorLatencies, loopNanoseconds: 0)
        let floorText = "page_floor_p50_ns=\(fixed(floor.p50, 0)) page_floor_p99_ns=\(fixed(floor.p99, 0))"
        let typoText = "typo_keystrokes=\(typoLatencies.count) typo_p50_ns=\(fixed(typo.p50, 0)) typo_p99_ns=\(fixed(typo.p99, 0))"
            + percentiles("nodes", nodes) + percentiles("subtrees", subtrees) + percentiles("entries", entries)
        let line = EngineLine(
            engine: engine, keys: index.count, buildSeconds: 0, sizeBytes: index.fileSize,
            openFirstMicroseconds: Double(openFirst) / 1e3, latency: latency, matches: matches,
            peakRSSKiB: System.resident().peak
        )
        return line.text + " search_p50_ns=\(fixed(search.p50, 0)) search_p99_ns=\(fixed(search.p99, 0)) "
            + "search_matches=\(searchMatches) " + floorText + " " + typoText + " sink=\(page.sink)"
    }

    /// The prefixes with the most matches (the empty one, which matches every city, and the three single
    /// letters that match most), and "lond" for comparison: each searched `repetitions` times in this
    /// process (fold, locate, count, read the first page of 20), after one untimed search. Also the
    /// second page (positions 20 ..< 40) of each, which reads every matching entry by design.
    static func prefixes(index path: String, match: MatchMode, order: ResultOrder, repetitions: Int) throws -> String {
        let index = try CityIndex(path: path)
        var letters: [(prefix: String, count: Int)] = []
        for scalar in UInt8(ascii: "a") ... UInt8(ascii: "z") {
            let prefix = String(decoding: [scalar], as: UTF8.self)
            letters.append((prefix, try index.search(prefix, match: match, order: order).count))
        }
        letters.sort { $0.count != $1.count ? $0.count > $1.count : $0.prefix < $1.prefix }
        let chosen = [""] + letters.prefix(3).map(\.prefix) + ["lond"]
        var page = FirstPage()
        var out = "prefixes=\(chosen.count)"
        for (number, prefix) in chosen.enumerated() {
            let count = try page.fill(from: index.search(prefix, match: match, order: order))
            var times: [UInt64] = []
            times.reserveCapacity(repetitions)
            for _ in 0 ..< repetitions {
                let start = System.nanoseconds()
                _ = try page.fill(from: index.search(prefix, match: match, order: order))
                times.append(System.nanoseconds() - start)
            }
            let summary = LatencySummary(latencies: times, loopNanoseconds: 0)
            // The second page, a few times (it reads every matching entry).
            var secondPage: [UInt64] = []
            for _ in 0 ..< max(1, min(repetitions / 20, 25)) {
                let start = System.nanoseconds()
                let results = try index.search(prefix, match: match, order: order)
                let cities = try results.cities(in: min(20, results.count) ..< min(40, results.count))
                secondPage.append(System.nanoseconds() - start)
                page.absorb(cities.count)
            }
            out += " p\(number)_prefix=\(prefix) p\(number)_count=\(count) p\(number)_p50_ns=\(fixed(summary.p50, 0)) "
                + "p\(number)_p99_ns=\(fixed(summary.p99, 0)) p\(number)_max_ns=\(fixed(summary.max, 0)) "
                + "p\(number)_page2_ns=\(median(secondPage))"
        }
        return out + " repetitions=\(repetitions) sink=\(page.sink)"
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

    /// Touches the page's storage, so that its allocation is not counted in the span measured.
    mutating func reserve() {
        entries.append(Entry(id: 0, name: ""))
        entries.removeAll(keepingCapacity: true)
    }

    /// Replaces the page with the first records of `results`; returns the total number of matches.
    mutating func fill(from results: SearchResults) throws(MMSearchError) -> Int {
        entries.removeAll(keepingCapacity: true)
        for city in try results.cities(in: 0 ..< min(Self.size, results.count)) {
            entries.append(Entry(id: city.id, name: city.name))
        }
        if let last = entries.last { sink &+= Int(last.id) &+ last.name.utf8.count }
        return results.count
    }

    /// Folds `value` into the sink.
    mutating func absorb(_ value: Int) { sink &+= value }
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
