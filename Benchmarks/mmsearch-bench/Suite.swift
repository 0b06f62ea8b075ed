/// How many times each measurement runs: the full run for people, or the smoke run for CI.
struct Plan {
    /// Each engine's pass over the workload runs this many times, each in a fresh process; the run
    /// with the median p99 is reported, so one disturbed run on a shared machine does not decide.
    var workloadRuns: Int
    var buildRuns: Int
    var warmStartRuns: Int
    var coldStartRuns: Int
    var wholeProcessRuns: Int
    /// Only the first this many workload lines (nil: all).
    var queryLimit: Int?
    /// The linear scan answers every this-many-th query (it takes about a millisecond each).
    var linearEvery: Int
    var scaleCounts: [Int]
    /// Each synthetic list is built once (the 10M build takes a minute) and started this many times.
    var scaleWarmStartRuns: Int

    static let full = Plan(workloadRuns: 3, buildRuns: 3, warmStartRuns: 200, coldStartRuns: 50, wholeProcessRuns: 200,
                           queryLimit: nil, linearEvery: 25,
                           scaleCounts: [209_579, 2_000_000, 10_000_000], scaleWarmStartRuns: 50)
    static let smoke = Plan(workloadRuns: 1, buildRuns: 1, warmStartRuns: 5, coldStartRuns: 3, wholeProcessRuns: 5,
                            queryLimit: 1_000, linearEvery: 50,
                            scaleCounts: [20_000], scaleWarmStartRuns: 3)
}

/// Startup measured over many fresh processes.
struct StartupRuns {
    var runs: Int
    /// Median time from before opening the index to holding the first page of the first query.
    var medianNanoseconds: Double
    /// Median and largest RSS growth over that span, and the median peak RSS of the whole child.
    var medianGrowthKiB: Int
    var maxGrowthKiB: Int
    var medianPeakKiB: Int
    /// Medians of the growth's two parts: pages mapped from files (the index) and private memory.
    var medianFileGrowthKiB: Int
    var medianAnonymousGrowthKiB: Int
    /// Medians of the three parts: CityIndex(path:), search (fold, locate, count), reading 20 records.
    var medianOpenNanoseconds: Double
    var medianLocateNanoseconds: Double
    var medianPageNanoseconds: Double
}

/// Everything measured on one list.
struct ListRun {
    var label: String
    var records: Int
    var listBytes: Int
    /// The engine line; its open_first_us is the warm fresh-process median, its peak RSS the larger of
    /// the build's and the query process's (the peers build and query in one process).
    var ours: EngineLine
    var buildSeconds: [Double]
    var buildPeakKiB: Int
    var queryPeakKiB: Int
    /// open_first_us timed the peers' way: in the query process, after loading the workload.
    var inProcessOpenFirstMicroseconds: Double
    /// Per keystroke, the search alone (fold, locate, count), without reading the page of records.
    var searchP50Nanoseconds: Double
    var searchP99Nanoseconds: Double
    /// Warm: the page cache as the build left it; cold: the index evicted before each process; warm
    /// after cold: the page cache as the cold runs' page faults filled it.
    var warm: StartupRuns
    var cold: StartupRuns?
    var warmAfterCold: StartupRuns?
    /// The most pages of the index still cached right after an eviction, of its total.
    var cachedAfterEviction: (most: Int, total: Int)?
}

/// Process-level figures, spawn to exit: `mmsearch query --index F Lond`; `mmsearch --help`, which
/// loads the same executable and libraries but opens no index; and /bin/true, the floor any process
/// start pays on this machine.
struct WholeProcessRun {
    var runs: Int
    var medianQueryNanoseconds: Double
    var medianHelpNanoseconds: Double
    var medianTrueNanoseconds: Double
}

/// Runs the benchmark's children and collects their figures.
struct Suite {
    let benchExecutable: String
    let mmsearchExecutable: String
    let plan: Plan

    /// Items 1 to 4 for mmsearch on `data` with `queries`: builds into `directory` `buildRuns` times,
    /// then starts `warmRuns` processes with the index cached and `coldRuns` with it evicted.
    func measureOurs(label: String, data: String, queries: String, directory: String,
                     buildRuns: Int, warmRuns: Int, coldRuns: Int) throws -> ListRun {
        let index = "\(directory)/\(label).mms"
        var buildSeconds: [Double] = []
        var buildPeak = 0, records = 0
        for run in 1 ... buildRuns {
            progress("\(label): build \(run)/\(buildRuns)")
            let built = try child("build", [data, index])
            buildSeconds.append(try built.required("build_ns", from: "build") / 1e9)
            buildPeak = max(buildPeak, Int(try built.required("peak_rss_kib", from: "build")))
            records = Int(try built.required("records", from: "build"))
        }

        var workloadRuns: [(line: EngineLine, values: KeyValues)] = []
        for run in 1 ... plan.workloadRuns {
            progress("\(label): keystroke workload \(run)/\(plan.workloadRuns)")
            let values = try child("keystrokes", [index, queries, plan.queryLimit.map(String.init) ?? "all"])
            guard let line = EngineLine(values.text) else { throw BenchError("keystrokes printed no engine line") }
            workloadRuns.append((line, values))
        }
        let (medianLine, keystrokes) = workloadRuns.sorted { $0.line.latency.p99 < $1.line.latency.p99 }[workloadRuns.count / 2]
        var line = medianLine
        let inProcessOpen = line.openFirstMicroseconds
        let queryPeak = line.peakRSSKiB

        let firstQuery = try Workload.lines(queries, limit: 1).first ?? ""
        progress("\(label): startup, \(warmRuns) warm processes")
        let warm = try startup(index: index, query: firstQuery, runs: warmRuns, evicting: false)
        var cold: StartupRuns?, warmAfterCold: StartupRuns?
        var cachedAfterEviction: (Int, Int)?
        if coldRuns > 0 {
            progress("\(label): startup, \(coldRuns) cold processes")
            var most = 0, total = 0
            cold = try startup(index: index, query: firstQuery, runs: coldRuns, evicting: true) {
                let pages = try System.cachedPages(index)
                most = max(most, pages.cached)
                total = pages.total
            }
            cachedAfterEviction = (most, total)
            // The page cache now holds what the cold runs' page faults read, not what the builder wrote
            // (on kernels with large folios that changes how much one fault maps: see RESULTS.md).
            progress("\(label): startup, \(warmRuns) warm processes again")
            warmAfterCold = try startup(index: index, query: firstQuery, runs: warmRuns, evicting: false)
        }

        line.buildSeconds = median(buildSeconds)
        line.openFirstMicroseconds = warm.medianNanoseconds / 1e3
        line.peakRSSKiB = max(buildPeak, queryPeak)
        line.engine = label == "real" ? "mmsearch" : "mmsearch-\(label)"
        return ListRun(
            label: label, records: records, listBytes: System.fileSize(data) ?? 0, ours: line,
            buildSeconds: buildSeconds, buildPeakKiB: buildPeak, queryPeakKiB: queryPeak,
            inProcessOpenFirstMicroseconds: inProcessOpen,
            searchP50Nanoseconds: try keystrokes.required("search_p50_ns", from: "keystrokes"),
            searchP99Nanoseconds: try keystrokes.required("search_p99_ns", from: "keystrokes"), warm: warm, cold: cold, warmAfterCold: warmAfterCold,
            cachedAfterEviction: cachedAfterEviction
        )
    }

    /// `runs` fresh processes that each open the index and read the first page of `query`; when
    /// `evicting`, the index is dropped from the page cache before each (and `afterEviction` runs).
    private func startup(index: String, query: String, runs: Int, evicting: Bool,
                         afterEviction: () throws -> Void = {}) throws -> StartupRuns {
        // One unmeasured run first, so the warm runs find the executable and index cached.
        if !evicting { _ = try child("startup", [index, query]) }
        var times: [Double] = [], growths: [Int] = [], peaks: [Int] = []
        var opens: [Double] = [], locates: [Double] = [], pages: [Double] = []
        var fileGrowths: [Int] = [], anonymousGrowths: [Int] = []
        for _ in 0 ..< runs {
            if evicting {
                try System.evictFromPageCache(index)
                try afterEviction()
            }
            let result = try child("startup", [index, query])
            times.append(try result.required("startup_ns", from: "startup"))
            growths.append(Int(try result.required("rss_after_kib", from: "startup") - result.required("rss_before_kib", from: "startup")))
            peaks.append(Int(try result.required("peak_rss_kib", from: "startup")))
            opens.append(try result.required("open_ns", from: "startup"))
            locates.append(try result.required("locate_ns", from: "startup"))
            pages.append(try result.required("page_ns", from: "startup"))
            fileGrowths.append(Int(try result.required("file_growth_kib", from: "startup")))
            anonymousGrowths.append(Int(try result.required("anonymous_growth_kib", from: "startup")))
        }
        return StartupRuns(runs: runs, medianNanoseconds: median(times), medianGrowthKiB: median(growths),
                           maxGrowthKiB: growths.max() ?? 0, medianPeakKiB: median(peaks),
                           medianFileGrowthKiB: median(fileGrowths), medianAnonymousGrowthKiB: median(anonymousGrowths),
                           medianOpenNanoseconds: median(opens), medianLocateNanoseconds: median(locates),
                           medianPageNanoseconds: median(pages))
    }

    /// The whole-process wall time of `mmsearch query --index INDEX Lond`, and of /bin/true.
    func measureWholeProcess(index: String) throws -> WholeProcessRun {
        progress("whole process: \(plan.wholeProcessRuns) runs each of `mmsearch query --index F Lond`, `mmsearch --help`, /bin/true")
        func medianWall(_ executable: String, _ arguments: [String]) throws -> Double {
            _ = try System.run(executable, arguments, output: .discard) // unmeasured: fills the caches
            var times: [Double] = []
            for _ in 0 ..< plan.wholeProcessRuns {
                let result = try System.run(executable, arguments, output: .discard)
                guard result.status == 0 else { throw BenchError("\(executable) \(arguments) exited with \(result.status)") }
                times.append(Double(result.wallNanoseconds))
            }
            return median(times)
        }
        let query = try medianWall(mmsearchExecutable, ["query", "--index", index, "Lond"])
        let help = try medianWall(mmsearchExecutable, ["--help"])
        let floor = try medianWall("/bin/true", [])
        return WholeProcessRun(runs: plan.wholeProcessRuns, medianQueryNanoseconds: query, medianHelpNanoseconds: help,
                               medianTrueNanoseconds: floor)
    }

    /// Item 5: the seeds' approaches on the same list and workload.
    func measureSeed(_ seed: SeedEngine, data: String, queries: String) throws -> EngineLine {
        let every = seed == .linear ? plan.linearEvery : 1
        var lines: [EngineLine] = []
        for run in 1 ... plan.workloadRuns {
            progress("\(seed.rawValue): decode and \(every == 1 ? "every query" : "every \(every)th query"), \(run)/\(plan.workloadRuns)")
            let result = try child("seed", [seed.rawValue, data, queries, String(every), plan.queryLimit.map(String.init) ?? "all"])
            guard let line = EngineLine(result.text) else { throw BenchError("\(seed.rawValue) printed no engine line") }
            lines.append(line)
        }
        return EngineLine.medianRun(lines)
    }

    /// Runs this executable in child mode `mode` and returns what it printed.
    private func child(_ mode: String, _ arguments: [String]) throws -> KeyValues {
        let result = try System.run(benchExecutable, ["--child", mode] + arguments, output: .capture)
        guard result.status == 0 else { throw BenchError("child \(mode) \(arguments) exited with status \(result.status)") }
        return KeyValues(result.output)
    }
}
