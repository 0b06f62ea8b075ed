#if canImport(FoundationEssentials) && !MMSEARCH_USE_FOUNDATION
import FoundationEssentials // Linux: Foundation without ICU
#else
import Foundation // Apple platforms have no FoundationEssentials
#endif
import MMSearch

/// Issue 21, item 6's first two rows: prefix queries near a point (typing-near.txt, each keystroke
/// with the point it is typed from, ranked near it) and restricted to a country (typing-queries.txt
/// with `--country US`, then `--country DE`). Each keystroke: fold, locate, the exact count and the
/// first 20 records read. Beside it, in the same process, the naive scan of every match
/// (`CityIndex.searchScanningEveryMatch`): its time, and its answers compared with the search's
/// (the count and the first 20 ids must be equal; a mismatch fails the benchmark).
enum GeoMeasure {
    /// A workload: "near" (the file's lines are "LAT,LON<TAB>QUERY") or "country=CODES" (one query a line).
    struct GeoWorkload {
        var label: String
        var near: Bool
        var countries: [String]

        init(_ text: String) throws {
            label = text
            if text == "near" {
                near = true
                countries = []
            } else if text.hasPrefix("country=") {
                near = false
                countries = text.dropFirst("country=".count).split(separator: ",").map(String.init)
                guard !countries.isEmpty else { throw BenchError("geo workload \(text) names no country") }
            } else {
                throw BenchError("geo workload \(text): expected near or country=CODES")
            }
        }
    }

    /// One keystroke: the query and its point (near) or filter (country).
    struct Keystroke {
        var query: String
        var near: Proximity?
        var filter: GeoFilter
    }

    static func keystrokes(_ path: String, workload: GeoWorkload, limit: Int?) throws -> [Keystroke] {
        try Workload.lines(path, limit: limit).enumerated().map { number, line in
            guard workload.near else { return Keystroke(query: line, near: nil, filter: GeoFilter(countries: workload.countries)) }
            guard let tab = line.firstIndex(of: "\t") else { throw BenchError("\(path):\(number + 1): no tab between the point and the query") }
            let point = line[..<tab].split(separator: ",")
            guard point.count == 2, let latitude = Double(point[0]), let longitude = Double(point[1]) else {
                throw BenchError("\(path):\(number + 1): \(line[..<tab]) is not LAT,LON")
            }
            return Keystroke(query: String(line[line.index(after: tab)...]),
                             near: Proximity(point: try GeoPoint(latitude: latitude, longitude: longitude)), filter: .none)
        }
    }

    /// The child: the workload timed (fold, locate, count, the first 20 records read), then the naive
    /// scan timed and compared.
    static func run(index path: String, workload text: String, file: String, limit: Int?) throws -> String {
        let workload = try GeoWorkload(text)
        let lines = try keystrokes(file, workload: workload, limit: limit)
        guard !lines.isEmpty else { throw BenchError("\(file): no queries") }
        let index = try CityIndex(path: path)
        var page = FirstPage()
        _ = try page.fill(from: index.search(lines[0].query, filter: lines[0].filter, near: lines[0].near))

        var latencies: [UInt64] = []
        latencies.reserveCapacity(lines.count)
        var answers: [(count: Int, ids: [UInt32])] = []
        answers.reserveCapacity(lines.count)
        var matches = 0
        let loopStart = System.nanoseconds()
        for line in lines {
            let start = System.nanoseconds()
            let count = try page.fill(from: index.search(line.query, filter: line.filter, near: line.near))
            latencies.append(System.nanoseconds() - start)
            matches += count
            answers.append((count, page.ids))
        }
        let latency = LatencySummary(latencies: latencies, loopNanoseconds: System.nanoseconds() - loopStart)
        // MMSEARCH_BENCH_TIMES=PATH: each keystroke's time, count and query (with its point), a line
        // each, to find the keystrokes behind a percentile.
        if let timesPath = ProcessInfo.processInfo.environment["MMSEARCH_BENCH_TIMES"] {
            let text = lines.indices.map { number in
                let point = lines[number].near.map { "\($0.point.latitude),\($0.point.longitude)" } ?? "-"
                return "\(latencies[number])\t\(answers[number].count)\t\(point)\t\(lines[number].query)\n"
            }
            try System.writeText(text.joined(), to: timesPath)
        }

        // The naive scan of every match: timed, and its answers compared.
        var naive: [UInt64] = []
        naive.reserveCapacity(lines.count)
        var mismatches = 0, firstMismatch = ""
        for (number, line) in lines.enumerated() {
            let start = System.nanoseconds()
            let count = try page.fill(from: index.searchScanningEveryMatch(line.query, filter: line.filter, near: line.near))
            naive.append(System.nanoseconds() - start)
            if count != answers[number].count || page.ids != answers[number].ids {
                if mismatches == 0 {
                    firstMismatch = "\(line.query.utf8.map { String($0) }.joined(separator: ".")):\(count)/\(answers[number].count)"
                }
                mismatches += 1
            }
        }
        let naiveLatency = LatencySummary(latencies: naive, loopNanoseconds: 0)
        return "workload=\(workload.label) queries=\(lines.count) p50_ns=\(fixed(latency.p50, 0)) p99_ns=\(fixed(latency.p99, 0)) "
            + "max_ns=\(fixed(latency.max, 0)) mean_ns=\(fixed(latency.mean, 0)) matches=\(matches) "
            + "naive_p50_ns=\(fixed(naiveLatency.p50, 0)) naive_p99_ns=\(fixed(naiveLatency.p99, 0)) naive_max_ns=\(fixed(naiveLatency.max, 0)) "
            + "mismatches=\(mismatches) first_mismatch=\(firstMismatch.isEmpty ? "-" : firstMismatch) size_bytes=\(index.fileSize) sink=\(page.sink)"
    }
}

/// One geo workload's figures: the median-p99 run of several.
struct GeoRun {
    var label: String
    var queries: Int
    var latency: LatencySummary
    var matches: Int
    var naiveP50: Double
    var naiveP99: Double
    var naiveMax: Double

    init(_ values: KeyValues) throws {
        label = values["workload"] ?? "?"
        queries = Int(try values.required("queries", from: "geo"))
        latency = LatencySummary(count: queries, p50: try values.required("p50_ns", from: "geo"), p99: try values.required("p99_ns", from: "geo"),
                                 max: try values.required("max_ns", from: "geo"), mean: try values.required("mean_ns", from: "geo"))
        matches = Int(try values.required("matches", from: "geo"))
        naiveP50 = try values.required("naive_p50_ns", from: "geo")
        naiveP99 = try values.required("naive_p99_ns", from: "geo")
        naiveMax = try values.required("naive_max_ns", from: "geo")
    }

    /// What the workload is, as the report names it.
    var title: String {
        label == "near" ? "typing-near, ranked near each keystroke's point" : "typing-queries, --country \(label.dropFirst("country=".count))"
    }

    /// The issue's targets: p50 at most 10 µs; p99 at most 100 µs near a point, 500 µs in a country.
    var p99Limit: Double { label == "near" ? 100_000 : 500_000 }

    static func table(_ runs: [GeoRun], index: BuiltIndex) -> Table {
        var table = Table(header: ["workload (\(size(bytes: index.sizeBytes)) index)", "p50", "p99", "max", "mean", "naive scan p50", "p99", "max", "queries", "matches", "target p50 / p99"])
        for run in runs {
            table.rows.append([run.title, duration(nanoseconds: run.latency.p50), duration(nanoseconds: run.latency.p99),
                               duration(nanoseconds: run.latency.max), duration(nanoseconds: run.latency.mean),
                               duration(nanoseconds: run.naiveP50), duration(nanoseconds: run.naiveP99), duration(nanoseconds: run.naiveMax),
                               grouped(run.queries), grouped(run.matches),
                               "10 µs / \(duration(nanoseconds: run.p99Limit)): " + (run.latency.p50 <= 10_000 && run.latency.p99 <= run.p99Limit ? "met" : "not met")])
        }
        return table
    }
}

extension FirstPage {
    /// The ids of the page as filled.
    var ids: [UInt32] { entries.map(\.id) }
}
