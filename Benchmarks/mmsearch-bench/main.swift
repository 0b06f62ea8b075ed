import MMSearch

// mmsearch-bench: startup and per-keystroke benchmarks of mmsearch, beside the seeds' approaches and
// (with --peers) marisa-trie, fst and SQLite from shared/peers/run.sh. See `usage`.

let usage = """
    usage: mmsearch-bench [--data PATH] [--geonames PATH] [--queries PATH] [--admin1 PATH] [--countries PATH]
                          [--typo-queries PATH] [--alternate-names PATH] [--near-queries PATH]
                          [--reverse-points PATH] [--reverse-peers FILE] [--key-peers FILE]
                          [--startup-peers DIR] [--smoke] [--geo-only]
                          [--scale] [--scale-dir DIR] [--peers FILE] [--markdown PATH] [--compare-binary BUILD=PATH]
                          [--command TEXT] [--revision TEXT] [--toolchain TEXT]

    Runs on the real list (alone, and joined with the GeoNames dump) and the keystroke workload, and
    prints one line per engine in the form of shared/peers/run.sh, then a readable table:
      1. build: JSON to finished index (median of 3 builds), index size, the build's peak RSS; the list
         alone and joined with the dump
      2. per keystroke: fold, locate, count, read the first 20 records; p50, p99, max, mean, matches
         (3 passes each, in fresh processes, interleaved; the pass with the median p99 is reported):
         the list alone by name in name order (what version 1 answered), the joined index with the
         defaults (every name and word, ranked), the list alone with the defaults; and the joined index
         built with regions and countries (--admin1, --countries) on the same workload and on the
         keystroke workload with typos, with what each typo search visits of the trie
      3. the largest results: the empty prefix and the three letters with the most matches, ranked,
         on the joined index (2,000 searches each), beside "lond"
      4. results, not time: for the 1,000 most populous cities, the characters of the name typed until
         the city is the first result, before (list alone, by name) and after (joined, defaults)
      5. startup, interleaved: whole processes spawn to exit (mmsearch query, /bin/true, and with
         --startup-peers look, sqlite3 and marisa-predictive-search; median of 600 each), and open ->
         first page inside fresh processes (mmsearch fresh, with a relative path, with Foundation
         already in use, and marisa-trie and fst the same way; median of 400 each); RSS growth; and
         mmsearch with the index evicted from the page cache (median of 50)
      6. the seeds' approaches (JSONDecoder + linear scan, every 25th query; + sort and binary search)
      8. near a point and in a country (issue 21), on the README's index (the list joined with the dump,
         regions, countries and the alternate names file): typing-near ranked near each keystroke's point,
         and typing-queries with --country US, then DE; each keystroke's exact count and first 20, beside
         the naive scan of every match, whose answers must be the same (3 passes each, in fresh
         processes, interleaved; the pass with the median p99 is reported)
      9. near me, reverse lookups (issue 21), on the same index: the 10 nearest cities of each point of
         reverse-points.txt (`nearest(to:limit: 10)`; the walk alone; the empty query in distance order),
         beside the naive scan of every record (every 25th point, same answers required) and, with
         --reverse-peers, SciPy's cKDTree and SQLite's R*Tree (Benchmarks/reverse-peers/run.py); 3 passes
         in fresh processes, each figure their median; `mmsearch near LAT,LON` is in item 5's whole-process
         comparison

    options:
      --data PATH        the city list (default ../shared/data/city.list.json)
      --geonames PATH    the GeoNames dump to join (default ../shared/data/cities500.txt.gz)
      --queries PATH     the keystroke workload (default ../shared/data/typing-queries.txt)
      --admin1 PATH      region names (default ../shared/data/admin1CodesASCII.txt)
      --countries PATH   country names (default ../shared/data/countryInfo.txt)
      --typo-queries PATH  the keystroke workload with typos (default ../shared/data/typing-typos.txt)
      --alternate-names PATH  other names (default ../shared/data/alternateNames-countries.txt), for item 8's index
      --near-queries PATH  the keystroke workload with points (default ../shared/data/typing-near.txt)
      --reverse-points PATH  the reverse lookups' points (default ../shared/data/reverse-points.txt)
      --reverse-peers FILE   output of Benchmarks/reverse-peers/run.py (one or more runs): adds cKDTree and
                         the R*Tree to item 9
      --key-peers FILE   output of Benchmarks/key-peers/run.sh: marisa-trie's and fst's sizes for the same
                         keys as mmsearch's indexes, beside its trie's (issue 22)
      --geo-only         items 8 and 9 alone (their index built once)
      --startup-peers DIR  what Benchmarks/startup-peers/prepare.sh DIR made: adds look, sqlite3,
                         marisa-predictive-search, marisa-trie and fst to the startup comparison
      --compare-binary BUILD=PATH   also time the whole process of another build of mmsearch (PATH), built
                         as BUILD says (run.sh: the dynamically linked `swift build -c release`)
      --smoke            every item with few runs, 1,000 queries and a 20,000-record synthetic list (CI)
      --scale            7. also synthetic lists of 209,579, 2M and 10M records, generated by
                         tools/gen_synthetic_list.py (about 1.2 GB of JSON; several minutes)
      --scale-dir DIR    keep the synthetic lists in DIR and reuse them on later runs
      --generator PATH   the generator (default: tools/gen_synthetic_list.py here or above the executable)
      --peers FILE       output of shared/peers/run.sh (one or more runs): adds marisa, fst and SQLite to the
                         per-keystroke table, with ratios; each by its run with the median p99
      --markdown PATH    also write the report as Markdown (what Benchmarks/run.sh writes to RESULTS.md),
                         keeping the sections of the file it replaces that were measured by hand
      --command, --revision, --toolchain TEXT   recorded in the Markdown report
    """

struct Options {
    var data = "../shared/data/city.list.json"
    var geonames = "../shared/data/cities500.txt.gz"
    var queries = "../shared/data/typing-queries.txt"
    var admin1 = "../shared/data/admin1CodesASCII.txt"
    var countries = "../shared/data/countryInfo.txt"
    var typoQueries = "../shared/data/typing-typos.txt"
    var alternateNames = "../shared/data/alternateNames-countries.txt"
    var nearQueries = "../shared/data/typing-near.txt"
    var reversePoints = "../shared/data/reverse-points.txt"
    var reversePeers: String?
    var keyPeers: String?
    var geoOnly = false
    var startupPeers: String?
    /// Other builds of mmsearch to time whole beside the shipped one: (how it was built, path).
    var compareBinaries: [(build: String, path: String)] = []
    var smoke = false
    var scale = false
    var scaleDirectory: String?
    var generator: String?
    var peers: String?
    var markdown: String?
    var command: String?
    var revision: String?
    var toolchain: String?

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func value(_ name: String) throws -> String {
            guard let value = rest.popFirst() else { throw BenchError("\(name) needs a value") }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--data": data = try value(argument)
            case "--geonames": geonames = try value(argument)
            case "--queries": queries = try value(argument)
            case "--admin1": admin1 = try value(argument)
            case "--countries": countries = try value(argument)
            case "--typo-queries": typoQueries = try value(argument)
            case "--alternate-names": alternateNames = try value(argument)
            case "--near-queries": nearQueries = try value(argument)
            case "--reverse-points": reversePoints = try value(argument)
            case "--reverse-peers": reversePeers = try value(argument)
            case "--key-peers": keyPeers = try value(argument)
            case "--geo-only": geoOnly = true
            case "--startup-peers": startupPeers = try value(argument)
            case "--compare-binary":
                let text = try value(argument)
                guard let equals = text.lastIndex(of: "=") else { throw BenchError("--compare-binary takes BUILD=PATH, not \(text)") }
                compareBinaries.append((String(text[..<equals]), String(text[text.index(after: equals)...])))
            case "--smoke": smoke = true
            case "--scale": scale = true
            case "--scale-dir": scaleDirectory = try value(argument)
            case "--generator": generator = try value(argument)
            case "--peers": peers = try value(argument)
            case "--markdown": markdown = try value(argument)
            case "--command": command = try value(argument)
            case "--revision": revision = try value(argument)
            case "--toolchain": toolchain = try value(argument)
            default: throw BenchError("unknown option \(argument)")
            }
        }
    }
}

func progress(_ message: String) {
    System.write("mmsearch-bench: \(message)\n", toStandardError: true)
}

/// The hidden child modes: each measures one thing in a fresh process and prints `key=value` pairs.
func runChild(_ arguments: [String]) throws -> String {
    func limit(_ text: String) -> Int? { Int(text) } // "all": every line
    func match(_ text: String) throws -> MatchMode {
        guard let mode = MatchMode(rawValue: text) else { throw BenchError("bad match mode \(text)") }
        return mode
    }
    func order(_ text: String) throws -> ResultOrder {
        guard let order = ResultOrder(rawValue: text) else { throw BenchError("bad order \(text)") }
        return order
    }
    switch (arguments.first, arguments.count) {
    case ("build", 6), ("build", 7):
        func given(_ text: String) -> String? { text == "-" ? nil : text }
        return try OurEngine.build(input: arguments[1], geonames: given(arguments[3]), admin1: given(arguments[4]), countries: given(arguments[5]),
                                   alternateNames: arguments.count > 6 ? given(arguments[6]) : nil, output: arguments[2])
    case ("startup", 5):
        guard let warmth = OurEngine.Warmth(rawValue: arguments[3]) else { throw BenchError("bad warmth \(arguments[3])") }
        return try OurEngine.startup(index: arguments[1], query: arguments[2], warmth: warmth, otherFile: arguments[4])
    case ("keystrokes", 7):
        return try OurEngine.keystrokes(index: arguments[1], queries: arguments[2], limit: limit(arguments[3]),
                                        match: match(arguments[4]), order: order(arguments[5]), engine: arguments[6])
    case ("prefixes", 5):
        guard let repetitions = Int(arguments[4]), repetitions > 0 else { throw BenchError("bad repetitions \(arguments[4])") }
        return try OurEngine.prefixes(index: arguments[1], match: match(arguments[2]), order: order(arguments[3]), repetitions: repetitions)
    case ("geo", 5):
        return try GeoMeasure.run(index: arguments[1], workload: arguments[2], file: arguments[3], limit: limit(arguments[4]))
    case ("typing", 6):
        guard let top = Int(arguments[5]), top > 0 else { throw BenchError("bad city count \(arguments[5])") }
        return try TypingMeasure.run(listIndex: arguments[1], joinedIndex: arguments[2], list: arguments[3], geonames: arguments[4], top: top)
    case ("reverse", 5):
        guard let every = Int(arguments[4]), every > 0 else { throw BenchError("bad scan interval \(arguments[4])") }
        return try ReverseMeasure.run(index: arguments[1], points: arguments[2], limit: limit(arguments[3]), scanEvery: every)
    case ("seed", 6):
        guard let seed = SeedEngine(rawValue: arguments[1]), let every = Int(arguments[4]), every > 0 else {
            throw BenchError("bad seed arguments \(arguments)")
        }
        return try seed.run(data: arguments[2], queries: arguments[3], every: every, limit: limit(arguments[5]))
    default: throw BenchError("unknown child mode \(arguments)")
    }
}

/// Runs every item and reports.
func runBenchmark(_ options: Options) throws {
    let started = System.nanoseconds()
    let plan = options.smoke ? Plan.smoke : Plan.full
    for path in [options.data, options.geonames, options.queries, options.admin1, options.countries, options.typoQueries,
                 options.alternateNames, options.nearQueries, options.reversePoints] where System.fileSize(path) == nil {
        throw BenchError("\(path) not found (--data, --geonames, --queries, --admin1, --countries, --typo-queries, --alternate-names, --near-queries and --reverse-points name the city list, the dump, the workload, the region and country names, the workload with typos, the other names, the workload with points and the reverse lookups' points)")
    }
    let data = SystemCall.absolutePath(options.data), geonames = SystemCall.absolutePath(options.geonames), queries = SystemCall.absolutePath(options.queries)
    let admin1 = SystemCall.absolutePath(options.admin1), countries = SystemCall.absolutePath(options.countries)
    let typoQueries = SystemCall.absolutePath(options.typoQueries)
    let alternateNames = SystemCall.absolutePath(options.alternateNames), nearQueries = SystemCall.absolutePath(options.nearQueries)
    let reversePoints = SystemCall.absolutePath(options.reversePoints)
    let reversePeers = try options.reversePeers.map { ReverseRun.peers(try System.readText($0)) } ?? []
    let keyPeers = try options.keyPeers.map { try KeyPeersRun(try System.readText($0)) }
    let builtBench = try System.executablePath()
    let builtMmsearch = FilePaths.directory(of: builtBench) + "/mmsearch"
    guard System.isExecutable(builtMmsearch) else {
        throw BenchError("\(builtMmsearch) not found: build it too (swift build -c release --product mmsearch)")
    }
    let startupPeers = try options.startupPeers.map { try StartupPeers(directory: $0) }
    // run.sh may run the peers several times; like ours, each peer is reported by its median-p99 run.
    let peerRuns = try options.peers.map { EngineLine.medianRuns(EngineLine.all(in: try System.readText($0))) } ?? []

    let work = try System.makeTemporaryDirectory(prefix: "mmsearch-bench")
    // The executables timed are copies, as tools/install.sh installs mmsearch (`cp`): the same bytes as
    // the linker wrote them take about 15 more page faults a process (0.2 ms of `mmsearch near`'s 1.0,
    // 2026-11-27), from how the kernel holds a file the linker has just written in its page cache.
    let benchExecutable = try System.installedCopy(of: builtBench, at: "\(work)/mmsearch-bench")
    let mmsearchExecutable = try System.installedCopy(of: builtMmsearch, at: "\(work)/mmsearch")
    let otherBuilds = try options.compareBinaries.enumerated().map { number, other in
        (build: other.build, path: try System.installedCopy(of: other.path, at: "\(work)/mmsearch-other-\(number)"))
    }
    defer {
        for file in ["readme.mms", "list.mms", "joined.mms", "regions.mms"] { System.remove("\(work)/\(file)") }
        for executable in [benchExecutable, mmsearchExecutable] + otherBuilds.map(\.path) { System.remove(executable) }
        System.removeDirectory(work)
    }
    let suite = Suite(benchExecutable: benchExecutable, mmsearchExecutable: mmsearchExecutable, plan: plan)
    // Item 8's index, the README's: built once (its build time is not reported).
    let readme = try suite.build(label: "readme", data: data, geonames: geonames, admin1: admin1, countries: countries, alternateNames: alternateNames,
                                 path: "\(work)/readme.mms", runs: 1)
    let geo = try suite.geo(index: readme, near: nearQueries, queries: queries)
    let reverse = try suite.reverse(index: readme, points: reversePoints)
    if options.geoOnly {
        System.write(GeoRun.table(geo, index: readme).text + "\n" + ReverseRun.table(reverse, peers: reversePeers).text)
        if let path = options.markdown {
            try System.writeText(GeoRun.table(geo, index: readme).markdown + "\n" + ReverseRun.table(reverse, peers: reversePeers).markdown, to: path)
            progress("wrote \(path)")
        }
        return
    }
    let list = try suite.build(label: "list", data: data, geonames: nil, path: "\(work)/list.mms", runs: plan.buildRuns)
    let joined = try suite.build(label: "joined", data: data, geonames: geonames, path: "\(work)/joined.mms", runs: plan.buildRuns)
    let regions = try suite.build(label: "regions", data: data, geonames: geonames, admin1: admin1, countries: countries,
                                  path: "\(work)/regions.mms", runs: plan.buildRuns)
    let keystrokes = try suite.keystrokes([
        (list, .name, .name, "mmsearch"),
        (joined, .words, .rank, "mmsearch-joined"),
        (list, .words, .rank, "mmsearch-list-words"),
        (regions, .words, .rank, "mmsearch-regions"),
    ], queries: queries)
    let typoKeystrokes = try suite.keystrokes([(regions, .words, .rank, "mmsearch-regions-typos")], queries: typoQueries)[0]
    let largest = try suite.prefixes(index: joined.path, match: .words, order: .rank)
    let typing = try suite.typing(listIndex: list.path, joinedIndex: joined.path, data: data, geonames: geonames)

    let inProcess = try suite.measureInProcessStartup(listIndex: list.path, joinedIndex: joined.path, otherFile: queries, peers: startupPeers)
    let wholeProcess = try suite.measureWholeProcess(listIndex: list.path, joinedIndex: joined.path, nearIndex: readme.path, peers: startupPeers,
                                                     otherBuilds: otherBuilds)
    progress("startup: \(plan.coldStartRuns) processes with the index evicted from the page cache")
    var mostCached = 0, totalPages = 0
    let cold = try suite.startup(index: list.path, query: startupQuery, runs: plan.coldStartRuns, evicting: true) {
        let pages = try System.cachedPages(list.path)
        mostCached = max(mostCached, pages.cached)
        totalPages = pages.total
    }

    let seeds = try SeedEngine.allCases.map { try suite.measureSeed($0, data: data, queries: queries) }
    var scale: [ListRun] = []
    if options.scale || options.smoke {
        scale = try runScale(suite: suite, options: options, counts: plan.scaleCounts)
    }

    let report = Report(
        list: list, joined: joined, regions: regions, readme: readme, geo: geo, reverse: reverse, reversePeers: reversePeers, keyPeers: keyPeers, keystrokes: keystrokes, typoKeystrokes: typoKeystrokes, largest: largest, typing: typing,
        inProcess: inProcess, wholeProcess: wholeProcess, cold: cold, cachedAfterEviction: (mostCached, totalPages),
        startupPeers: startupPeers, seeds: seeds, peers: peerRuns.map(\.line),
        peerRunCount: peerRuns.map(\.runs).min() ?? 0,
        real: suite.listRun(label: "real", data: data, built: list, run: keystrokes[0], startup: nil),
        scale: scale, plan: plan, options: options, elapsedSeconds: Double(System.nanoseconds() - started) / 1e9
    )
    System.write(report.engineLines + "\n" + report.text)
    if let path = options.markdown {
        // The sections measured by hand in the report this one replaces stay (Report.keepingHandSections).
        let previous = (try? System.readText(path)) ?? "" // none yet: nothing to keep
        try System.writeText(Report.keepingHandSections(of: previous, in: report.markdown), to: path)
        progress("wrote \(path)")
    }
}

/// Item 7: generates (or reuses) each synthetic list and measures mmsearch on it.
func runScale(suite: Suite, options: Options, counts: [Int]) throws -> [ListRun] {
    let generator = try options.generator ?? findGenerator()
    let directory = try options.scaleDirectory ?? System.makeTemporaryDirectory(prefix: "mmsearch-scale")
    try System.makeDirectory(directory)
    let keepFiles = options.scaleDirectory != nil
    var runs: [ListRun] = []
    for count in counts {
        let label = "synthetic-\(shortCount(count))"
        let list = "\(directory)/\(label).json", queries = "\(directory)/\(label).queries"
        if System.fileSize(list) == nil || System.fileSize(queries) == nil {
            // About 100 bytes of JSON and 75 of index a record (the real list: 94 and 63); keep a margin.
            let needed = count * 200
            let free = try System.freeBytes(at: directory)
            guard free > needed else {
                throw BenchError("\(directory) has \(size(bytes: free)) free; \(count) records need about \(size(bytes: needed))")
            }
            progress("\(label): generating \(grouped(count)) records into \(directory)")
            let result = try System.run("/usr/bin/env", [
                "python3", generator, "--count", String(count), "--seed", "1", "--out", list,
                "--source", options.data, "--workload", queries,
            ], output: .inherit)
            guard result.status == 0 else { throw BenchError("\(generator) exited with status \(result.status)") }
        }
        // The builder peaks at about 420 bytes a record (3.9 GiB for 10M records).
        if let available = Machine.availableMemoryBytes(), available < count * 450 {
            throw BenchError("building \(grouped(count)) records needs about \(size(bytes: count * 450)) of RAM; \(size(bytes: available)) is available")
        }
        runs.append(try suite.measureScale(label: label, data: list, queries: queries, directory: directory,
                                           warmRuns: suite.plan.scaleWarmStartRuns))
        System.remove("\(directory)/\(label).mms")
        if !keepFiles {
            System.remove(list)
            System.remove(queries)
        }
    }
    if !keepFiles { System.removeDirectory(directory) }
    return runs
}

/// tools/gen_synthetic_list.py in the working directory, or in a directory above the executable
/// (which lives in .build*/release/ of the package).
func findGenerator() throws -> String {
    let relative = "tools/gen_synthetic_list.py"
    if System.fileSize(relative) != nil { return relative }
    var directory = FilePaths.directory(of: try System.executablePath())
    for _ in 0 ..< 5 {
        directory = FilePaths.directory(of: directory)
        if System.fileSize("\(directory)/\(relative)") != nil { return "\(directory)/\(relative)" }
    }
    throw BenchError("cannot find \(relative); pass --generator PATH")
}

/// 10_000_000 -> "10M", 209_579 -> "209k" (as the issue names the real list's size).
func shortCount(_ count: Int) -> String {
    if count >= 1_000_000, count % 1_000_000 == 0 { return "\(count / 1_000_000)M" }
    if count >= 1_000 { return "\(count / 1_000)k" }
    return String(count)
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    if arguments.first == "--child" {
        System.write(try runChild(Array(arguments.dropFirst())) + "\n")
    } else if arguments.contains("--help") || arguments.contains("-h") {
        System.write(usage + "\n")
    } else {
        try runBenchmark(try Options(arguments))
    }
} catch {
    System.write("mmsearch-bench: \(error)\n", toStandardError: true)
    System.exit(1)
}
