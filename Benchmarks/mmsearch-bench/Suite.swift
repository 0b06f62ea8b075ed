import MMSearch

/// How many times each measurement runs: the full run for people, or the smoke run for CI.
struct Plan {
    /// Each engine's pass over the workload runs this many times, each in a fresh process; the run
    /// with the median p99 is reported, so one disturbed run on a shared machine does not decide.
    var workloadRuns: Int
    var buildRuns: Int
    /// Rounds of the interleaved startup comparisons (one fresh process of each kind a round).
    var inProcessRuns: Int
    var wholeProcessRuns: Int
    /// Fresh processes with the index evicted from the page cache before each.
    var coldStartRuns: Int
    /// Searches of each prefix in the worst-prefix measurement.
    var prefixRepetitions: Int
    /// The most populous cities in the characters-typed measurement (issue 8 asks for 1,000).
    var typingCities: Int
    /// Only the first this many workload lines (nil: all).
    var queryLimit: Int?
    /// The linear scan answers every this-many-th query (it takes about a millisecond each).
    var linearEvery: Int
    var scaleCounts: [Int]
    /// Each synthetic list is built once (the 10M build takes a minute) and started this many times.
    var scaleWarmStartRuns: Int

    static let full = Plan(workloadRuns: 3, buildRuns: 3, inProcessRuns: 400, wholeProcessRuns: 600, coldStartRuns: 50,
                           prefixRepetitions: 2_000, typingCities: 1_000, queryLimit: nil, linearEvery: 25,
                           scaleCounts: [209_579, 2_000_000, 10_000_000], scaleWarmStartRuns: 50)
    static let smoke = Plan(workloadRuns: 1, buildRuns: 1, inProcessRuns: 3, wholeProcessRuns: 5, coldStartRuns: 2,
                            prefixRepetitions: 20, typingCities: 100, queryLimit: 1_000, linearEvery: 50,
                            scaleCounts: [20_000], scaleWarmStartRuns: 3)
}

/// Startup measured over many fresh processes of one kind (the scale lists, the cold runs).
struct StartupRuns {
    var runs: Int
    /// Median time from before opening the index to holding the first page of the query.
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

/// An index built from a list (and a dump), `runs` times.
struct BuiltIndex {
    var path: String
    var records: Int
    var keys: Int
    var sizeBytes: Int
    var buildSeconds: [Double]
    var buildPeakKiB: Int
}

/// One pass of the keystroke workload, matched and ordered one way: the median-p99 run of several.
struct KeystrokeRun {
    var line: EngineLine
    var match: MatchMode
    var order: ResultOrder
    /// Per keystroke, the search alone (fold, locate, count), without reading the page of records.
    var searchP50Nanoseconds: Double
    var searchP99Nanoseconds: Double
    /// Per keystroke, its first page's `City` values made again from names already decoded in memory:
    /// what a page costs whatever the format.
    var pageFloorP50Nanoseconds: Double
    /// The keystrokes answered with typos allowed, their latency, and what their typo walks visited
    /// (trie nodes entered, subtrees matched, entries under them): p50, p99, max.
    var typoKeystrokes: Int
    var typoP50Nanoseconds: Double
    var typoP99Nanoseconds: Double
    var typoNodes: [Double]
    var typoSubtrees: [Double]
    var typoEntries: [Double]
}

/// Everything measured on one list for the scaling table (and the real list's row in it).
struct ListRun {
    var label: String
    var records: Int
    var listBytes: Int
    /// The engine line; its build_s is the median build, its peak RSS the larger of the build's and the
    /// query process's (the peers build and query in one process).
    var ours: EngineLine
    var built: BuiltIndex
    var queryPeakKiB: Int
    /// Fresh processes, index in the page cache, the first workload line's first page.
    var startup: StartupRuns?
}

/// The largest results, searched over and over: `prefix`, its count, and the time of fold + locate +
/// count + first page (p50, p99, max over the repetitions), and of the second page (median).
struct PrefixFigures {
    var prefix: String
    var count: Int
    var p50: Double
    var p99: Double
    var max: Double
    var secondPage: Double
}

/// Issue 8's characters-typed measure (see `TypingMeasure`).
struct TypingFigures {
    struct Side {
        var found: Int
        var mean: Double
        var median: Int
        var never: Int
        var within1: Int
        var within3: Int
        var within5: Int
    }

    var cities: Int
    var smallestPopulation: Int
    /// Typing the name alone.
    var before: Side
    var after: Side
    /// Typing "Name, CC", as results show a city.
    var beforeShown: Side
    var afterShown: Side
    var neverAfterExamples: [String]

    init(_ values: KeyValues) throws {
        func side(_ label: String) throws -> Side {
            func int(_ key: String) throws -> Int { Int(try values.required("\(label)_\(key)", from: "typing")) }
            return Side(found: try int("found"), mean: try values.required("\(label)_mean", from: "typing"), median: try int("median"),
                        never: try int("never"), within1: try int("within1"), within3: try int("within3"), within5: try int("within5"))
        }
        cities = Int(try values.required("cities", from: "typing"))
        smallestPopulation = Int(try values.required("smallest_population", from: "typing"))
        before = try side("before")
        after = try side("after")
        beforeShown = try side("before_shown")
        afterShown = try side("after_shown")
        neverAfterExamples = (values["after_never_examples"] ?? "").split(separator: "|").map { percentDecodingSpaces(String($0)) }
    }
}

/// Runs the benchmark's children and collects their figures.
struct Suite {
    let benchExecutable: String
    let mmsearchExecutable: String
    let plan: Plan

    /// Builds `data` (joined with `geonames`, with `admin1` and `countries`, when given) into `path`
    /// `runs` times, each in a child process.
    func build(label: String, data: String, geonames: String?, admin1: String? = nil, countries: String? = nil, alternateNames: String? = nil,
               path: String, runs: Int) throws -> BuiltIndex {
        var seconds: [Double] = []
        var peak = 0, records = 0, keys = 0, size = 0
        for run in 1 ... runs {
            progress("\(label): build \(run)/\(runs)")
            let built = try child("build", [data, path, geonames ?? "-", admin1 ?? "-", countries ?? "-", alternateNames ?? "-"])
            seconds.append(try built.required("build_ns", from: "build") / 1e9)
            peak = max(peak, Int(try built.required("peak_rss_kib", from: "build")))
            records = Int(try built.required("records", from: "build"))
            keys = Int(try built.required("keys", from: "build"))
            size = Int(try built.required("size_bytes", from: "build"))
        }
        return BuiltIndex(path: path, records: records, keys: keys, sizeBytes: size, buildSeconds: seconds, buildPeakKiB: peak)
    }

    /// The keystroke workload on `index`, matched and ordered as given, `plan.workloadRuns` times in
    /// fresh processes, interleaved with the other configurations: `configurations` are run round-robin.
    func keystrokes(_ configurations: [(index: BuiltIndex, match: MatchMode, order: ResultOrder, engine: String)], queries: String) throws -> [KeystrokeRun] {
        var runs = Array(repeating: [(line: EngineLine, values: KeyValues)](), count: configurations.count)
        for run in 1 ... plan.workloadRuns {
            for (number, configuration) in configurations.enumerated() {
                progress("\(configuration.engine): keystroke workload (\(configuration.match.rawValue), \(configuration.order.rawValue)) \(run)/\(plan.workloadRuns)")
                let values = try child("keystrokes", [configuration.index.path, queries, plan.queryLimit.map(String.init) ?? "all",
                                                      configuration.match.rawValue, configuration.order.rawValue, configuration.engine])
                guard let line = EngineLine(values.text) else { throw BenchError("keystrokes printed no engine line") }
                runs[number].append((line, values))
            }
        }
        return try configurations.enumerated().map { number, configuration in
            let (medianLine, values) = runs[number].sorted { $0.line.latency.p99 < $1.line.latency.p99 }[runs[number].count / 2]
            var line = medianLine
            line.buildSeconds = median(configuration.index.buildSeconds)
            return KeystrokeRun(line: line, match: configuration.match, order: configuration.order,
                                searchP50Nanoseconds: try values.required("search_p50_ns", from: "keystrokes"),
                                searchP99Nanoseconds: try values.required("search_p99_ns", from: "keystrokes"),
                                pageFloorP50Nanoseconds: try values.required("page_floor_p50_ns", from: "keystrokes"),
                                typoKeystrokes: Int(try values.required("typo_keystrokes", from: "keystrokes")),
                                typoP50Nanoseconds: try values.required("typo_p50_ns", from: "keystrokes"),
                                typoP99Nanoseconds: try values.required("typo_p99_ns", from: "keystrokes"),
                                typoNodes: try ["p50", "p99", "max"].map { try values.required("typo_nodes_\($0)", from: "keystrokes") },
                                typoSubtrees: try ["p50", "p99", "max"].map { try values.required("typo_subtrees_\($0)", from: "keystrokes") },
                                typoEntries: try ["p50", "p99", "max"].map { try values.required("typo_entries_\($0)", from: "keystrokes") })
        }
    }

    /// Item 8: typing-near ranked near each point, and typing-queries in the US, then in Germany, on
    /// `index`, `plan.workloadRuns` times each in fresh processes, interleaved; each by its median-p99
    /// run. A child whose answers differ from the naive scan's fails the benchmark.
    func geo(index: BuiltIndex, near: String, queries: String) throws -> [GeoRun] {
        let workloads = [("near", near), ("country=US", queries), ("country=DE", queries)]
        var runs = Array(repeating: [GeoRun](), count: workloads.count)
        for run in 1 ... plan.workloadRuns {
            for (number, (workload, file)) in workloads.enumerated() {
                progress("\(workload): keystrokes with the naive scan beside them \(run)/\(plan.workloadRuns)")
                let values = try child("geo", [index.path, workload, file, plan.queryLimit.map(String.init) ?? "all"])
                guard values["mismatches"] == "0" else {
                    throw BenchError("\(workload): \(values["mismatches"] ?? "?") answers differ from the naive scan's (the first: query bytes:naive count/count \(values["first_mismatch"] ?? "?"))")
                }
                runs[number].append(try GeoRun(values))
            }
        }
        return runs.map { $0.sorted { $0.latency.p99 < $1.latency.p99 }[$0.count / 2] }
    }

    /// The prefixes with the most matches on `index`, searched over and over in one process.
    func prefixes(index: String, match: MatchMode, order: ResultOrder) throws -> [PrefixFigures] {
        progress("largest results: \(plan.prefixRepetitions) searches of each (\(match.rawValue), \(order.rawValue))")
        let values = try child("prefixes", [index, match.rawValue, order.rawValue, String(plan.prefixRepetitions)])
        return try (0 ..< Int(try values.required("prefixes", from: "prefixes"))).map { number in
            func value(_ key: String) throws -> Double { try values.required("p\(number)_\(key)", from: "prefixes") }
            return PrefixFigures(prefix: values["p\(number)_prefix"] ?? "", count: Int(try value("count")), p50: try value("p50_ns"),
                                 p99: try value("p99_ns"), max: try value("max_ns"), secondPage: try value("page2_ns"))
        }
    }

    /// Issue 8's characters typed until the city is first, before and after.
    func typing(listIndex: String, joinedIndex: String, data: String, geonames: String) throws -> TypingFigures {
        progress("characters typed until first: the \(plan.typingCities) most populous cities")
        return try TypingFigures(child("typing", [listIndex, joinedIndex, data, geonames, String(plan.typingCities)]))
    }

    /// `runs` fresh processes that each open `index` and read the first page of `query`; when
    /// `evicting`, the index is dropped from the page cache before each (and `afterEviction` runs).
    func startup(index: String, query: String, runs: Int, evicting: Bool, afterEviction: () throws -> Void = {}) throws -> StartupRuns {
        let arguments = [index, query, "fresh", index]
        // One unmeasured run first, so the warm runs find the executable and index cached.
        if !evicting { _ = try child("startup", arguments) }
        var times: [Double] = [], growths: [Int] = [], peaks: [Int] = []
        var opens: [Double] = [], locates: [Double] = [], pages: [Double] = []
        var fileGrowths: [Int] = [], anonymousGrowths: [Int] = []
        for _ in 0 ..< runs {
            if evicting {
                try System.evictFromPageCache(index)
                try afterEviction()
            }
            let result = try child("startup", arguments)
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

    /// One synthetic list for the scaling table: built once, its workload (names, in name order, as the
    /// real list's headline figure), and `warmRuns` fresh-process startups.
    func measureScale(label: String, data: String, queries: String, directory: String, warmRuns: Int) throws -> ListRun {
        let built = try build(label: label, data: data, geonames: nil, path: "\(directory)/\(label).mms", runs: 1)
        let run = try keystrokes([(built, .name, .name, "mmsearch-\(label)")], queries: queries)[0]
        let firstQuery = try Workload.lines(queries, limit: 1).first ?? ""
        progress("\(label): startup, \(warmRuns) fresh processes")
        let startup = try self.startup(index: built.path, query: firstQuery, runs: warmRuns, evicting: false)
        return listRun(label: label, data: data, built: built, run: run, startup: startup)
    }

    /// The scaling table's row for a list: the engine line with the median build and the larger peak RSS.
    func listRun(label: String, data: String, built: BuiltIndex, run: KeystrokeRun, startup: StartupRuns?) -> ListRun {
        var line = run.line
        line.peakRSSKiB = max(built.buildPeakKiB, run.line.peakRSSKiB)
        return ListRun(label: label, records: built.records, listBytes: System.fileSize(data) ?? 0, ours: line, built: built,
                       queryPeakKiB: run.line.peakRSSKiB, startup: startup)
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
    func child(_ mode: String, _ arguments: [String]) throws -> KeyValues {
        let result = try System.run(benchExecutable, ["--child", mode] + arguments, output: .capture)
        guard result.status == 0 else { throw BenchError("child \(mode) \(arguments) exited with status \(result.status)") }
        return KeyValues(result.output)
    }
}
