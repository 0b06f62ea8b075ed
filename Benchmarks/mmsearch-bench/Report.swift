/// The figures of one benchmark run, as engine lines, a readable table, and a Markdown report.
struct Report {
    var list: BuiltIndex
    var joined: BuiltIndex
    /// The joined index built with regions and countries (format version 3's --admin1, --countries).
    var regions: BuiltIndex
    /// The README's index (with the alternate names file too), and issue 21's workloads on it.
    var readme: BuiltIndex
    var geo: [GeoRun]
    /// Issue 21's reverse lookups on the README's index, and their peers (reverse-peers/run.py).
    var reverse: ReverseRun
    var reversePeers: [EngineLine]
    /// Issue 22's like-for-like sizes (Benchmarks/key-peers/run.sh), when given.
    var keyPeers: KeyPeersRun?
    /// The keystroke workload: [0] the list alone by name in name order ("mmsearch", the engine the peers
    /// are compared with), [1] the joined index with the defaults, [2] the list alone with the defaults,
    /// [3] the joined index with regions and countries, with the defaults.
    var keystrokes: [KeystrokeRun]
    /// The keystroke workload with typos on the joined index with regions and countries.
    var typoKeystrokes: KeystrokeRun
    var largest: [PrefixFigures]
    var typing: TypingFigures
    var inProcess: InProcessStartup
    var wholeProcess: WholeProcessComparison
    var cold: StartupRuns
    var cachedAfterEviction: (most: Int, total: Int)
    var startupPeers: StartupPeers?
    var seeds: [EngineLine]
    var peers: [EngineLine]
    /// How many times run.sh ran each peer (the lines are the median-p99 runs).
    var peerRunCount: Int
    /// The real list's row of the scaling table.
    var real: ListRun
    var scale: [ListRun]
    var plan: Plan
    var options: Options
    var elapsedSeconds: Double

    /// Version 1's figures on this workload (RESULTS.md at revision ae2e6c0, the issue's "today"): the list
    /// alone, names, name order; fold + locate + count + read 20 records.
    static let previous = (p50: 591.0, p99: 2_374.0, revision: "ae2e6c0")

    var ours: EngineLine { keystrokes[0].line }
    var joinedRun: KeystrokeRun { keystrokes[1] }
    var listWordsRun: KeystrokeRun { keystrokes[2] }
    var regionsRun: KeystrokeRun { keystrokes[3] }

    /// One line per engine measured here, in the peers' exact form.
    var engineLines: String {
        (keystrokes.map(\.line) + [typoKeystrokes.line] + seeds + scale.map(\.ours)).map { $0.text + "\n" }.joined()
    }

    /// Every engine on the real list: ours first, then the peers, then the seeds.
    private var engines: [EngineLine] { keystrokes.map(\.line) + peers + seeds }

    // MARK: Per keystroke

    private var engineTable: Table {
        var table = Table(header: ["engine", "records", "build", "index size", "open → first page (in-process, after loading the workload)",
                                   "p50", "p99", "max", "mean", "queries", "matches", "peak RSS"])
        for line in engines {
            table.rows.append([
                line.engine, grouped(line.keys), duration(nanoseconds: line.buildSeconds * 1e9), size(bytes: line.sizeBytes),
                duration(nanoseconds: line.openFirstMicroseconds * 1e3), duration(nanoseconds: line.latency.p50),
                duration(nanoseconds: line.latency.p99), duration(nanoseconds: line.latency.max),
                duration(nanoseconds: line.latency.mean), grouped(line.latency.count), grouped(line.matches),
                memory(kib: line.peakRSSKiB),
            ])
        }
        return table
    }

    private var ratioTable: Table {
        var table = Table(header: ["engine", "p50", "p99", "max", "mean", "open → first page (in-process)", "index size", "build"])
        for line in peers + seeds {
            table.rows.append([
                line.engine, ratio(line.latency.p50, to: ours.latency.p50), ratio(line.latency.p99, to: ours.latency.p99),
                ratio(line.latency.max, to: ours.latency.max), ratio(line.latency.mean, to: ours.latency.mean),
                ratio(line.openFirstMicroseconds, to: ours.openFirstMicroseconds),
                ratio(Double(line.sizeBytes), to: Double(ours.sizeBytes)), ratio(line.buildSeconds, to: ours.buildSeconds),
            ])
        }
        return table
    }

    // MARK: Names and ranking

    private var configurationTable: Table {
        var table = Table(header: ["mmsearch, per keystroke", "index", "p50", "p99", "max", "mean", "search alone p50 / p99", "matches"])
        table.rows.append(["version 1 (\(Self.previous.revision)): names, name order", "list alone", duration(nanoseconds: Self.previous.p50),
                           duration(nanoseconds: Self.previous.p99), "", "", "", ""])
        let labels = ["names, name order (`--match name --order name`)", "every name and word, ranked (the defaults)",
                      "every name and word, ranked (the defaults)", "every name and word, ranked, qualifiers, typos (the defaults)"]
        let indexes = ["list alone (\(size(bytes: list.sizeBytes)))", "joined with cities500 (\(size(bytes: joined.sizeBytes)))",
                       "list alone (\(size(bytes: list.sizeBytes)))", "joined, with regions and countries (\(size(bytes: regions.sizeBytes)))"]
        for (number, run) in keystrokes.enumerated() {
            let line = run.line
            table.rows.append([labels[number], indexes[number], duration(nanoseconds: line.latency.p50), duration(nanoseconds: line.latency.p99),
                               duration(nanoseconds: line.latency.max), duration(nanoseconds: line.latency.mean),
                               "\(duration(nanoseconds: run.searchP50Nanoseconds)) / \(duration(nanoseconds: run.searchP99Nanoseconds))",
                               grouped(line.matches)])
        }
        return table
    }

    private var largestTable: Table {
        var table = Table(header: ["prefix (joined index, defaults)", "matches", "first page p50", "p99", "max", "second page (median)"])
        for figures in largest {
            table.rows.append([figures.prefix.isEmpty ? "(empty: every city)" : "\"\(figures.prefix)\"", grouped(figures.count),
                               duration(nanoseconds: figures.p50), duration(nanoseconds: figures.p99), duration(nanoseconds: figures.max),
                               duration(nanoseconds: figures.secondPage)])
        }
        return table
    }

    private var typingTable: Table {
        var table = Table(header: ["characters typed until the city is first", "mean (of those first at some point)", "median", "first within 1 / 3 / 5",
                                   "never first, even typed in full"])
        func add(_ label: String, _ side: TypingFigures.Side) {
            table.rows.append([label, fixed(side.mean, 1), String(side.median), "\(side.within1) / \(side.within3) / \(side.within5)",
                               "\(side.never) of \(typing.cities)"])
        }
        add("before: list alone, names, name order (version 1)", typing.beforeShown)
        add("after: joined index, every name and word, ranked", typing.afterShown)
        add("the name alone, without \", CC\": before", typing.before)
        add("the name alone, without \", CC\": after", typing.after)
        return table
    }

    // MARK: Startup

    private var wholeProcessTable: Table {
        var table = Table(header: ["whole process, spawn to exit", "median", "p10", "p90", "÷ look", "lines printed", "what it runs"], textColumns: false)
        let look = wholeProcess.row("look")?.median
        for row in wholeProcess.rows {
            table.rows.append([row.command.name, duration(nanoseconds: row.median), duration(nanoseconds: row.p10), duration(nanoseconds: row.p90),
                               look.map { ratio(row.median, to: $0) } ?? "", String(row.outputLines), row.command.what])
        }
        return table
    }

    private var inProcessTable: Table {
        var table = Table(header: ["open → first page, in-process (median of \(inProcess.runs) processes)", "mmsearch", "marisa-trie", "fst"])
        let none = "—"
        func peer(_ figures: InProcessFigures?, _ value: (InProcessFigures) -> String) -> String { figures.map(value) ?? "not run" }
        table.rows.append(["fresh process, first open", duration(nanoseconds: inProcess.fresh.first),
                           peer(inProcess.marisa) { duration(nanoseconds: $0.first) }, peer(inProcess.fst) { duration(nanoseconds: $0.first) }])
        table.rows.append(["fresh process, first open, relative path", duration(nanoseconds: inProcess.relative.first), none, none])
        table.rows.append(["Foundation already in use (an app), MMSearch's first open", duration(nanoseconds: inProcess.foundationWarm.first), none, none])
        table.rows.append(["second open in the same process (all warm)", duration(nanoseconds: inProcess.fresh.second),
                           peer(inProcess.marisa) { duration(nanoseconds: $0.second) }, peer(inProcess.fst) { duration(nanoseconds: $0.second) }])
        table.rows.append(["fresh process, joined index (\(size(bytes: joined.sizeBytes))), first open", duration(nanoseconds: inProcess.joined.first), none, none])
        table.rows.append(["RSS growth over the fresh first open (file / private)",
                           "\(memory(kib: inProcess.fresh.growthKiB)) (\(memory(kib: inProcess.fresh.fileGrowthKiB)) / \(memory(kib: inProcess.fresh.anonymousGrowthKiB)))",
                           peer(inProcess.marisa) { "\(memory(kib: $0.growthKiB)) (\(memory(kib: $0.fileGrowthKiB)) / \(memory(kib: $0.anonymousGrowthKiB)))" },
                           peer(inProcess.fst) { "\(memory(kib: $0.growthKiB)) (\(memory(kib: $0.fileGrowthKiB)) / \(memory(kib: $0.anonymousGrowthKiB)))" }])
        return table
    }

    private var startupDetailTable: Table {
        var table = Table(header: ["mmsearch open → first page, parts (medians; page faults)", "processes", "total", "CityIndex(path:)", "search", "20 records", "RSS growth"])
        func part(_ time: Double?, _ faults: Double?) -> String {
            duration(nanoseconds: time ?? 0) + (faults.map { " (\(Int($0)))" } ?? "")
        }
        func add(_ label: String, _ figures: InProcessFigures) {
            table.rows.append([label, String(figures.runs), duration(nanoseconds: figures.first), part(figures.open, figures.openFaults),
                               part(figures.locate, figures.locateFaults), part(figures.page, figures.pageFaults), memory(kib: figures.growthKiB)])
        }
        add("fresh process", inProcess.fresh)
        add("fresh process, relative path", inProcess.relative)
        add("Foundation already in use", inProcess.foundationWarm)
        add("fresh process, joined index", inProcess.joined)
        table.rows.append(["index evicted from the page cache (fresh process)", String(cold.runs), duration(nanoseconds: cold.medianNanoseconds),
                           duration(nanoseconds: cold.medianOpenNanoseconds), duration(nanoseconds: cold.medianLocateNanoseconds),
                           duration(nanoseconds: cold.medianPageNanoseconds), memory(kib: cold.medianGrowthKiB)])
        return table
    }

    private var scaleTable: Table {
        var table = Table(header: ["list", "records", "JSON", "build", "index size", "build peak RSS", "open → first page (fresh process)", "p50", "p99", "max", "mean", "queries", "matches", "query peak RSS"])
        for run in [real] + scale {
            let line = run.ours
            table.rows.append([
                run.label == "real" ? "real (city.list.json)" : run.label, grouped(run.records), size(bytes: run.listBytes),
                duration(nanoseconds: line.buildSeconds * 1e9), size(bytes: line.sizeBytes), memory(kib: run.built.buildPeakKiB),
                run.startup.map { duration(nanoseconds: $0.medianNanoseconds) } ?? duration(nanoseconds: inProcess.fresh.first),
                duration(nanoseconds: line.latency.p50),
                duration(nanoseconds: line.latency.p99), duration(nanoseconds: line.latency.max),
                duration(nanoseconds: line.latency.mean), grouped(line.latency.count), grouped(line.matches),
                memory(kib: run.queryPeakKiB),
            ])
        }
        return table
    }

    // MARK: Targets

    /// Whether the engines that count every record agree with ours on the same workload.
    private var crossCheck: String {
        let comparable = (peers + seeds).filter { ["fst", SeedEngine.sorted.rawValue].contains($0.engine) && $0.latency.count == ours.latency.count }
        guard !comparable.isEmpty else { return "" }
        let disagreeing = comparable.filter { $0.matches != ours.matches }
        if disagreeing.isEmpty {
            let names = ["mmsearch"] + comparable.map(\.engine)
            return "Total matches agree: \(names.dropLast().joined(separator: ", ")) and \(names.last!) count \(grouped(ours.matches)) each.\n"
        }
        return "**Total matches disagree:** mmsearch \(grouped(ours.matches)), "
            + disagreeing.map { "\($0.engine) \(grouped($0.matches))" }.joined(separator: ", ") + ".\n"
    }

    /// A target of an issue and whether this run met it.
    struct Target {
        var issue: Int
        var what: String
        var goal: String
        var measured: String
        /// nil when this run cannot tell (a peer or the scale run missing).
        var met: Bool?
        var verdict: String {
            guard let met else { return "not measured" }
            return met ? "met" : "**missed**"
        }
    }

    /// "met" or how far off: "2.9 µs: 1.5× the target".
    private func target(_ issue: Int, _ what: String, goal: String, value: Double, limit: Double, text: (Double) -> String, atMost: Bool = false) -> Target {
        let met = atMost ? value <= limit : value < limit
        let measured = met ? text(value) : "\(text(value)), \(ratio(value, to: limit)) the target (over by \(text(value - limit)))"
        return Target(issue: issue, what: what, goal: goal, measured: measured, met: met)
    }

    /// The target "the whole process `command` takes at most `limit` times look's" (issues 9, 21, 22), from
    /// the whole-process comparison's medians; "run with --startup-peers" without look; nil when the
    /// comparison has no row for `command`.
    private func versusLook(_ issue: Int, _ command: String, what: String, withoutLook: String, limit: Double) -> Target? {
        guard let row = wholeProcess.row(command) else { return nil }
        let goal = "at most \(limit)× look's time"
        guard let look = wholeProcess.row("look") else {
            return Target(issue: issue, what: withoutLook, goal: goal, measured: "run with --startup-peers", met: nil)
        }
        let times = row.median / look.median
        return Target(issue: issue, what: what, goal: goal,
                      measured: "\(duration(nanoseconds: row.median)) = \(fixed(times, 2))× look's \(duration(nanoseconds: look.median))", met: times <= limit)
    }

    var targets: [Target] {
        var targets: [Target] = []
        let ns = { (value: Double) in duration(nanoseconds: value) }

        // Issue 8: names and ranking.
        let joinedLine = joinedRun.line
        targets.append(target(8, "joined index, defaults: p50 per keystroke", goal: "at most 1 µs", value: joinedLine.latency.p50, limit: 1_000, text: ns, atMost: true))
        targets.append(target(8, "joined index, defaults: p99 per keystroke", goal: "at most 5 µs", value: joinedLine.latency.p99, limit: 5_000, text: ns, atMost: true))
        targets.append(target(8, "list alone, names in name order: p50", goal: "no slower than version 1 (\(ns(Self.previous.p50)))",
                              value: ours.latency.p50, limit: Self.previous.p50, text: ns, atMost: true))
        targets.append(target(8, "list alone, names in name order: p99", goal: "no slower than version 1 (\(ns(Self.previous.p99)))",
                              value: ours.latency.p99, limit: Self.previous.p99, text: ns, atMost: true))
        if let worst = largest.max(by: { $0.count < $1.count }) {
            targets.append(target(8, "largest result's first page (\(worst.prefix.isEmpty ? "empty prefix" : "\"\(worst.prefix)\""), \(grouped(worst.count)) matches): p99",
                                  goal: "not in proportion to the matches: within the 5 µs p99 target", value: worst.p99, limit: 5_000, text: ns, atMost: true))
        }

        // Issue 15: regions, countries and typos.
        let regionsLine = regionsRun.line, typoLine = typoKeystrokes.line
        targets.append(target(15, "joined index with regions and countries, typing-queries: p50", goal: "at most 1 µs (today: \(ns(joinedLine.latency.p50)) in this run)",
                              value: regionsLine.latency.p50, limit: 1_000, text: ns, atMost: true))
        targets.append(target(15, "joined index with regions and countries, typing-queries: p99", goal: "at most 10 µs (today: \(ns(joinedLine.latency.p99)) in this run)",
                              value: regionsLine.latency.p99, limit: 10_000, text: ns, atMost: true))
        targets.append(target(15, "joined index with regions and countries, typing-typos (typos on): p50", goal: "at most 30 µs",
                              value: typoLine.latency.p50, limit: 30_000, text: ns, atMost: true))
        targets.append(target(15, "joined index with regions and countries, typing-typos (typos on): p99", goal: "at most 1 ms",
                              value: typoLine.latency.p99, limit: 1_000_000, text: ns, atMost: true))
        targets.append(target(15, "index size, list joined with cities500, admin1 and countries", goal: "at most 41 MB",
                              value: Double(regions.sizeBytes), limit: 41_000_000, text: { size(bytes: Int($0)) }, atMost: true))

        // Issue 21: near a point and in a country.
        for run in geo {
            targets.append(target(21, "\(run.title): p50", goal: "at most 10 µs", value: run.latency.p50, limit: 10_000, text: ns, atMost: true))
            targets.append(target(21, "\(run.title): p99", goal: "at most \(ns(run.p99Limit))", value: run.latency.p99, limit: run.p99Limit, text: ns, atMost: true))
        }

        // Issue 21: reverse lookups.
        targets.append(target(21, "reverse-points, the 10 nearest (`nearest(to:limit: 10)`, City values): p50", goal: "at most 2 µs",
                              value: reverse.p50, limit: 2_000, text: ns, atMost: true))
        targets.append(target(21, "reverse-points, the 10 nearest (`nearest(to:limit: 10)`, City values): p99", goal: "at most 10 µs",
                              value: reverse.p99, limit: 10_000, text: ns, atMost: true))
        targets.append(target(21, "the spatial part's share of the README's index (SPATIAL, SPATIAL_BOUNDS, NEAR_POINTS, NEAR_LISTS and the lists' entries)", goal: "at most 10%",
                              value: Double(reverse.spatialBytes) / Double(max(1, reverse.indexBytes)), limit: 0.1,
                              text: { "\(fixed($0 * 100, 1))% (\(size(bytes: reverse.spatialBytes)) of \(size(bytes: reverse.indexBytes)))" }, atMost: true))
        if let near = versusLook(21, "mmsearch near", what: "whole process `mmsearch near --index readme.mms \(startupNearPoint)`",
                                 withoutLook: "whole process `mmsearch near` vs look", limit: 1.2) { targets.append(near) }

        // Issue 22: half the size, steadier keystrokes (its table, each row as the issue states it; some
        // restate an earlier issue's).
        let bytes = { (value: Double) in size(bytes: Int(value)) }
        targets.append(target(22, "index size, list alone", goal: "at most 6 MB", value: Double(list.sizeBytes), limit: 6_000_000, text: bytes, atMost: true))
        targets.append(target(22, "index size, the README's index (list + cities500 + admin1 + countries + country names)", goal: "at most 20 MB",
                              value: Double(readme.sizeBytes), limit: 20_000_000, text: bytes, atMost: true))
        if let marisa = peers.first(where: { $0.engine == "marisa" }) {
            targets.append(target(22, "list alone, names in name order: p50", goal: "at or under marisa's in this run (\(ns(marisa.latency.p50)))",
                                  value: ours.latency.p50, limit: marisa.latency.p50, text: ns, atMost: true))
        } else {
            targets.append(Target(issue: 22, what: "list alone, names in name order: p50", goal: "at or under marisa's", measured: "run with --peers", met: nil))
        }
        targets.append(target(22, "joined index, defaults: p50", goal: "at most 1 µs", value: joinedLine.latency.p50, limit: 1_000, text: ns, atMost: true))
        targets.append(target(22, "joined index, defaults: p99", goal: "at most 5 µs", value: joinedLine.latency.p99, limit: 5_000, text: ns, atMost: true))
        if let query = versusLook(22, "mmsearch", what: "whole process `mmsearch query --index F Lond`", withoutLook: "whole process vs look",
                                  limit: 1.0) { targets.append(query) }
        targets.append(target(22, "build, joined (list + cities500)", goal: "at most 4 s", value: median(joined.buildSeconds), limit: 4,
                              text: { fixed($0, 2) + " s" }, atMost: true))

        // Issue 9: startup.
        if let mmsearch = wholeProcess.row("mmsearch") {
            if let query = versusLook(9, "mmsearch", what: "whole process `mmsearch query --index F Lond`", withoutLook: "whole process vs look",
                                      limit: 1.25) { targets.append(query) }
            for name in ["sqlite3", "marisa-predictive-search"] {
                if let peer = wholeProcess.row(name) {
                    targets.append(Target(issue: 9, what: "whole process vs \(name)", goal: "faster",
                                          measured: "\(ns(mmsearch.median)) vs \(ns(peer.median)) (\(ratio(mmsearch.median, to: peer.median)))",
                                          met: mmsearch.median < peer.median))
                } else {
                    targets.append(Target(issue: 9, what: "whole process vs \(name)", goal: "faster", measured: "run with --startup-peers", met: nil))
                }
            }
        }
        targets.append(target(9, "open → first page in a fresh process", goal: "at most 150 µs", value: inProcess.fresh.first, limit: 150_000, text: ns, atMost: true))
        targets.append(target(9, "open → first page, Foundation already in use", goal: "at most 25 µs", value: inProcess.foundationWarm.first, limit: 25_000, text: ns, atMost: true))
        if let marisa = inProcess.marisa, let fst = inProcess.fst {
            let best = min(marisa.second, fst.second)
            targets.append(Target(issue: 9, what: "open → first page, Foundation in use, vs marisa-trie and fst opened warm",
                                  goal: "below both", measured: "\(ns(inProcess.foundationWarm.first)) vs marisa \(ns(marisa.second)), fst \(ns(fst.second)) "
                                      + "(second open in their process; first open in a fresh one: marisa \(ns(marisa.first)), fst \(ns(fst.first)))",
                                  met: inProcess.foundationWarm.first < best))
        } else {
            targets.append(Target(issue: 9, what: "open → first page vs marisa-trie and fst", goal: "below both", measured: "run with --startup-peers", met: nil))
        }
        let relative = inProcess.relative.first, absolute = inProcess.fresh.first
        targets.append(Target(issue: 9, what: "relative path vs absolute (fresh process)", goal: "no dearer (within 5%, the noise of a median)",
                              measured: "\(ns(relative)) vs \(ns(absolute)) (\(ratio(relative, to: absolute)))", met: relative <= absolute * 1.05))

        // Issue 3, the project's first targets (the list alone, names in name order).
        let p99 = ours.latency.p99
        targets.append(target(3, "p99 per keystroke", goal: "under 2 µs", value: p99, limit: 2_000, text: ns))
        for name in ["marisa", "fst", "sqlite"] {
            guard let peer = peers.first(where: { $0.engine == name }) else {
                targets.append(Target(issue: 3, what: "p99 vs \(name)", goal: "over 1000× better", measured: "run with --peers", met: nil))
                continue
            }
            let times = peer.latency.p99 / p99
            targets.append(Target(issue: 3, what: "p99 vs \(name)", goal: "over 1000× better",
                                  measured: "\(ratio(peer.latency.p99, to: p99)) better (\(ns(peer.latency.p99)) vs \(ns(p99)))"
                                      + (times > 1000 ? "" : ", \(fixed(1000 / times, 1))× short of 1000×"),
                                  met: times > 1000))
        }
        if let marisa = peers.first(where: { $0.engine == "marisa" }) {
            targets.append(target(3, "p50 per keystroke", goal: "at or under marisa's (\(ns(marisa.latency.p50)))",
                                  value: ours.latency.p50, limit: marisa.latency.p50, text: ns, atMost: true))
        } else {
            targets.append(Target(issue: 3, what: "p50 per keystroke", goal: "at or under marisa's", measured: "run with --peers", met: nil))
        }
        targets.append(target(3, "index size, all record fields (list alone)", goal: "under 6 MB",
                              value: Double(list.sizeBytes), limit: 6e6, text: { size(bytes: Int($0)) }))
        targets.append(target(3, "build from JSON (list alone)", goal: "under 1 s",
                              value: median(list.buildSeconds) * 1e9, limit: 1e9, text: ns))
        targets.append(target(3, "RSS growth, open + first page (median, fresh process)", goal: "under 1 MB",
                              value: Double(inProcess.fresh.growthKiB * 1024), limit: 1e6, text: { size(bytes: Int($0)) }))
        let largestScale = scale.last, smallest = scale.first
        if let largestScale, let smallest, largestScale.records >= 10_000_000, largestScale.label != smallest.label {
            let growth = largestScale.ours.latency.p99 / smallest.ours.latency.p99
            targets.append(Target(
                issue: 3, what: "p99 at \(shortCount(largestScale.records)) vs at \(shortCount(smallest.records)) records (synthetic)", goal: "within 2×",
                measured: "\(fixed(growth, 2))× (\(ns(largestScale.ours.latency.p99)) vs \(ns(smallest.ours.latency.p99)); "
                    + "vs the real list's \(ns(p99)): \(fixed(largestScale.ours.latency.p99 / p99, 2))×)",
                met: growth <= 2))
        } else {
            targets.append(Target(issue: 3, what: "p99 at 10M vs at 209k records", goal: "within 2×", measured: "run with --scale", met: nil))
        }
        return targets
    }

    private var targetTable: Table {
        var table = Table(header: ["issue", "target", "goal", "measured", "verdict"], textColumns: true)
        for target in targets { table.rows.append([String(target.issue), target.what, target.goal, target.measured, target.verdict]) }
        return table
    }

    // MARK: Text

    /// The readable report for the terminal.
    var text: String {
        var out = "\n" + engineTable.text + "\n"
        if !peers.isEmpty { out += "Ratios to mmsearch (list alone, names; their figure ÷ ours; above 1× means slower or larger than ours):\n" + ratioTable.text + "\n" }
        if let keyPeers {
            out += "The same keys in marisa-trie and fst (Benchmarks/key-peers/run.sh):\n" + keyPeers.table.text + "\n"
            out += "Each part at the least bytes known to hold it (Benchmarks/key-peers/budget.py):\n" + keyPeers.budgetTable.text + "\n"
        }
        out += crossCheck
        out += "\n" + configurationTable.text + "\n" + largestTable.text + "\n" + typingTable.text
        out += "\n" + GeoRun.table(geo, index: readme).text
        out += "\n" + ReverseRun.table(reverse, peers: reversePeers).text
        if !typing.neverAfterExamples.isEmpty { out += "never first after, e.g.: \(typing.neverAfterExamples.joined(separator: "; "))\n" }
        out += "\n" + wholeProcessTable.text + "\n" + inProcessTable.text + "\n" + startupDetailTable.text
        out += "cold runs: at most \(cachedAfterEviction.most) of the index's \(cachedAfterEviction.total) pages were still cached after each eviction\n"
        out += "build: list \(list.buildSeconds.map { fixed($0, 3) + " s" }.joined(separator: ", ")) (peak RSS \(memory(kib: list.buildPeakKiB))); "
            + "joined \(joined.buildSeconds.map { fixed($0, 3) + " s" }.joined(separator: ", ")) (peak RSS \(memory(kib: joined.buildPeakKiB)))\n"
        out += "seed-linear answers every \(plan.linearEvery)th query only; seed build_s is decode + fold (+ sort), size_bytes the JSON it decodes at every start\n"
        if !scale.isEmpty { out += "\n" + scaleTable.text }
        out += "\n" + targetTable.text
        out += "\n\(fixed(elapsedSeconds, 0)) s in all\n"
        return out
    }

    // MARK: Markdown

    /// The heading of the section the hand-measured sections go before.
    static let handSectionsBefore = "## Startup (issue 9)"

    /// `report` with the sections of `previous` that were measured by hand (their first line of text
    /// starts "Measured by hand"), in their order, before `handSectionsBefore` (at the end without it):
    /// a run rewrites what it measures and keeps what it does not.
    static func keepingHandSections(of previous: String, in report: String) -> String {
        var sections: [[Substring]] = [], current: [Substring]?
        for line in previous.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") {
                if let current { sections.append(current) }
                current = [line]
            } else {
                current?.append(line)
            }
        }
        if let current { sections.append(current) }
        let kept = sections.filter { $0.dropFirst().first { !$0.isEmpty }?.hasPrefix("Measured by hand") == true }
        guard !kept.isEmpty else { return report }
        let text = kept.map { section in
            var lines = section
            while lines.last?.isEmpty == true { lines.removeLast() }
            return lines.joined(separator: "\n") + "\n\n"
        }.joined()
        var lines = report.split(separator: "\n", omittingEmptySubsequences: false)
        guard let before = lines.firstIndex(where: { $0 == handSectionsBefore }) else {
            return report + (report.hasSuffix("\n\n") ? "" : "\n") + text
        }
        lines.insert(Substring(text.dropLast(2)), at: before)
        lines.insert("", at: before + 1)
        return lines.joined(separator: "\n")
    }

    var markdown: String {
        let machine = Machine.current()
        var md = "# mmsearch benchmark results\n\n"
        md += "Made by `Benchmarks/run.sh`: mmsearch, the seeds' approaches and the peer engines of `shared/peers/run.sh` on the same list and "
            + "keystroke workload, and the startup comparison of issue 9 (mmsearch beside look, sqlite3, marisa-trie and fst), in one run on one machine.\n\n"
        if options.smoke { md += "**This is a smoke run (few iterations, 1,000 queries): its figures are not the benchmark.**\n\n" }
        md += "- date: \(System.utcDateText())\n"
        md += "- command: `\(options.command ?? "mmsearch-bench " + CommandLine.arguments.dropFirst().joined(separator: " "))`\n"
        if let revision = options.revision { md += "- revision: `\(revision)`\n" }
        md += "- machine: \(machine.processors) × \(machine.cpuModel), \(machine.memory) RAM, \(machine.kernel); shared, so every comparison "
            + "below is measured interleaved in this one run and reported as medians\n"
        if let toolchain = options.toolchain { md += "- toolchain: \(toolchain)\n" }
        md += "- binaries: `mmsearch` and `mmsearch-bench` as the README builds them (`tools/release-build.sh`: a static executable laid out by `tools/mmsearch.order`)\n"
        md += "- data: `\(options.data)` (\(grouped(list.records)) records, \(size(bytes: real.listBytes))), joined with `\(options.geonames)`; "
            + "workload: `\(options.queries)` (\(grouped(ours.latency.count)) queries)\n"
        md += "- this benchmark's part took \(fixed(elapsedSeconds, 0)) s\n\n"

        md += "## Targets\n\n" + targetTable.markdown + "\n"

        md += "## Per keystroke: every engine, side by side\n\n"
        md += "`mmsearch` is the list alone searched by name in name order (`--match name --order name`), the search the peers do; "
            + "`mmsearch-joined` the list joined with cities500 with the defaults (every name and word, ranked); `mmsearch-list-words` the list "
            + "alone with the defaults.\n\n"
        md += engineTable.markdown + "\n" + crossCheck + (crossCheck.isEmpty ? "" : "\n")
        if !peers.isEmpty {
            md += "Ratios to `mmsearch` (the list alone, by name): each engine's figure divided by ours (above 1× means slower or larger).\n\n"
            md += ratioTable.markdown + "\n"
        }
        if let keyPeers {
            md += "## The same keys in marisa-trie and fst (issue 22)\n\n"
            md += "The peers above hold one key a record (fold(name) + \", \" + fold(country)). mmsearch's trie holds every name, other name "
                + "and generated spelling of a record, and each word start of them, each with the record's \", cc\" tail. "
                + "`Benchmarks/key-peers/run.sh` builds each index from the data, writes the keys `shared/peers/rank.py` (version 4) gives it "
                + "(`Benchmarks/key-peers/keys.py`; their count checked equal to `mmsearch info`'s), and builds `shared/peers`' own marisa-trie "
                + "(a set of the distinct keys) and fst (a map of each distinct key to its count) programs on them, timed on the keystroke "
                + "workload over those keys (each keystroke counting every key it starts and keeping the first 20). mmsearch's CHILDREN also "
                + "holds each node's first entry, which neither peer stores, and neither maps a key to its records, as ENTRIES does. "
                + "\"Its parts' floors\" is `Benchmarks/key-peers/budget.py`'s sum: each part of the index (keys, entries, names, ids, "
                + "places, orders, fields, pages) at the least bytes known to hold it (marisa-trie's size for the keys, information "
                + "contents, xz -9e of the names and points as one stream), which no known index that reads one value at a time reaches; "
                + "each part's floor and the index's bytes for it are in the second table (what each part holds: the run's OUT_DIR/NAME.budget.md).\n\n"
            md += keyPeers.table.markdown + "\n" + keyPeers.budgetTable.markdown + "\n"
        }

        md += "## Names and ranking (issue 8)\n\n"
        md += configurationTable.markdown + "\n"
        md += "The largest results, ranked, on the joined index: each prefix searched \(grouped(plan.prefixRepetitions)) times in one process "
            + "(fold, locate, count, first page of 20). The first ranked page of a big node is stored in the index, so its cost does not grow "
            + "with the matches; a later page reads every matching entry, by design.\n\n"
        md += largestTable.markdown + "\n"
        md += "Results, not time: for the \(grouped(typing.cities)) most populous cities of the list (population from the dump's column 15, "
            + "joined by id with the list's `_id`; the smallest has \(grouped(typing.smallestPopulation))), the characters of the name as the list "
            + "displays it, followed by its country as results show a city (\"London, GB\"), typed one character at a time until that "
            + "city (by id) is the first result. (This reproduces the issue's figures for version 1, 6.2 characters and 105 never first.) "
            + "The last two rows type the name alone, which cannot tell namesakes apart.\n\n"
        md += typingTable.markdown + "\n"
        if !typing.neverAfterExamples.isEmpty {
            md += "Never first after, for example: \(typing.neverAfterExamples.joined(separator: "; ")).\n\n"
        }

        md += "## Near a point and in a country (issue 21)\n\n"
        md += "The README's index (the list joined with cities500, `--admin1`, `--countries` and `--alternate-names`, \(size(bytes: readme.sizeBytes))). "
            + "typing-near: each keystroke of typing-queries with the point it is typed from, ranked near it (`--near LAT,LON`, half distance "
            + "100 km); typing-queries restricted to a country. Each keystroke folded, located, counted exactly, its first 20 read; beside it, "
            + "in the same process, the naive scan of every match (read, filtered, ordered), whose counts and first 20 ids are checked equal "
            + "to the search's for every keystroke.\n\n"
        md += GeoRun.table(geo, index: readme).markdown + "\n"

        md += "## Near me: reverse lookups (issue 21)\n\n"
        md += "The same index; its spatial part (SPATIAL, a k-d tree of each record's coordinates beside its number, with SPATIAL_BOUNDS, where each inner node's records lie, and for pages near a point NEAR_POINTS, a k-d tree over name order and place, with NEAR_LISTS and the lists' entries in TOP) is "
            + "\(size(bytes: reverse.spatialBytes)), \(fixed(Double(reverse.spatialBytes) / Double(max(1, reverse.indexBytes)) * 100, 1))% of it. "
            + "The 10 nearest cities of each of the \(grouped(reverse.points)) points of reverse-points.txt, one call a point, in \(reverse.passes) "
            + "passes in fresh processes (each figure the median of the passes); beside it, in the same processes, the naive scan of every "
            + "record, whose ids must be the index's. The peers run from Python (Benchmarks/reverse-peers/run.py, one process a run, the run "
            + "with the median p99 shown): their p50 and p99 include Python's call, their mean is per point in batch.\n\n"
        md += ReverseRun.table(reverse, peers: reversePeers).markdown + "\n"

        md += "## Regions, countries and typos (issue 15)\n\n"
        md += "`mmsearch-regions` is the list joined with cities500 and built with `--admin1` and `--countries` (\(size(bytes: regions.sizeBytes)), "
            + "against \(size(bytes: joined.sizeBytes)) without), searched with the defaults (typos on): on typing-queries beside `mmsearch-joined` "
            + "(interleaved, in the same run), and on typing-typos (`mmsearch-regions-typos`: each keystroke folded, located, counted exactly, "
            + "its first 20 read; a keystroke that matches nothing as typed is searched again with typos allowed).\n\n"
        var regionsTable = Table(header: ["workload", "index", "p50", "p99", "max", "mean", "queries", "matches", "answered with typos", "those keystrokes: p50", "p99"])
        for (workload, run) in [("typing-queries", joinedRun), ("typing-queries", regionsRun), ("typing-typos", typoKeystrokes)] {
            regionsTable.rows.append([workload, run.line.engine, duration(nanoseconds: run.line.latency.p50), duration(nanoseconds: run.line.latency.p99),
                                      duration(nanoseconds: run.line.latency.max), duration(nanoseconds: run.line.latency.mean), grouped(run.line.latency.count),
                                      grouped(run.line.matches), grouped(run.typoKeystrokes),
                                      run.typoKeystrokes == 0 ? "" : duration(nanoseconds: run.typoP50Nanoseconds),
                                      run.typoKeystrokes == 0 ? "" : duration(nanoseconds: run.typoP99Nanoseconds)])
        }
        md += regionsTable.markdown + "\n"
        let visits = typoKeystrokes
        md += "What a typo search visits: it walks the mapped trie from the node of the query's first character, computing one row of "
            + "the optimal-string-alignment table per character of each edge label (a band of 2t + 1 cells for t typos), and stops a "
            + "branch as soon as no cell of its row is within t; a subtree whose prefix is within t matches whole (its entry range). "
            + "It never reads the list of keys. Over the \(grouped(visits.typoKeystrokes)) keystrokes of typing-typos answered with typos, "
            + "per keystroke (p50 / p99 / max): trie nodes entered \(visits.typoNodes.map { grouped(Int($0)) }.joined(separator: " / ")), "
            + "subtrees matched \(visits.typoSubtrees.map { grouped(Int($0)) }.joined(separator: " / ")), entries read under them "
            + "\(visits.typoEntries.map { grouped(Int($0)) }.joined(separator: " / ")) (of the index's \(grouped(regions.keys)) keys).\n\n"

        md += "## Startup (issue 9)\n\n"
        md += "Whole processes, spawn (posix_spawn) to exit (wait), output to /dev/null: \(wholeProcess.runs) rounds, each running every "
            + "command once, in a new random order each round (a process that follows its own executable finds more of it in the CPU's "
            + "caches), after two unmeasured rounds; the inputs of look, sqlite3 and marisa are made from the same list by "
            + "`Benchmarks/startup-peers/prepare.sh` (keys folded by `shared/peers/fold.py`).\n\n"
        md += wholeProcessTable.markdown + "\n"
        md += "Open → first page inside a process: from before opening (mapping) the file to holding the first page of 20 results "
            + "(mmsearch: `CityIndex(path:)`, `search(\"\(startupQuery)\")` with the count, 20 `City` values; marisa-trie: `Trie::mmap`, predictive "
            + "search for \"\(startupFoldedQuery)\", 20 keys; fst: `Map::from_path`, the range of keys starting with \"\(startupFoldedQuery)\", 20 keys). "
            + "\(inProcess.runs) rounds of fresh processes, one of each kind a round in a new random order; each process then closes the file "
            + "and times the same again (the second open). Foundation already in use: the process first maps another file with "
            + "`URL` + `Data(contentsOf:options: .alwaysMapped)` (median \(duration(nanoseconds: inProcess.foundationWarm.warmup ?? 0)), untimed), "
            + "as any app has, then MMSearch opens the index for the first time. Relative path: the same process opening `list.mms` "
            + "instead of its absolute path (both started through `/bin/sh -c 'cd DIR && exec …'` in the index's directory).\n\n"
        md += inProcessTable.markdown + "\n" + startupDetailTable.markdown + "\n"
        md += "- Cold: before each process the index is flushed and evicted with `posix_fadvise(POSIX_FADV_DONTNEED)` (at most "
            + "\(cachedAfterEviction.most) of its \(cachedAfterEviction.total) pages stayed cached, checked with mincore); that drops only the index, "
            + "so it means a cold index, not a cold machine.\n"
        md += "- RSS growth: VmRSS after the first page minus VmRSS before opening, in the same processes (mapped pages touched count as resident).\n\n"

        md += "## mmsearch in detail\n\n"
        md += "- Build from JSON, \(counted(list.buildSeconds.count, "run")): the list alone \(list.buildSeconds.map { fixed($0, 3) + " s" }.joined(separator: ", ")) "
            + "(\(size(bytes: list.sizeBytes)), \(grouped(list.keys)) search keys, peak RSS \(memory(kib: list.buildPeakKiB))); joined with cities500 "
            + "\(joined.buildSeconds.map { fixed($0, 3) + " s" }.joined(separator: ", ")) (\(size(bytes: joined.sizeBytes)), \(grouped(joined.keys)) "
            + "search keys, peak RSS \(memory(kib: joined.buildPeakKiB))).\n"
        md += "- Per keystroke, the search alone (fold, locate, count; a second pass over the workload), list alone by name: p50 "
            + "\(duration(nanoseconds: keystrokes[0].searchP50Nanoseconds)), p99 \(duration(nanoseconds: keystrokes[0].searchP99Nanoseconds)); "
            + "the rest of each query's time is reading the first 20 records into `City` values. Making those `City` values again from "
            + "their names already decoded in memory, what a page costs however an index stores it, takes p50 "
            + "\(duration(nanoseconds: keystrokes[0].pageFloorP50Nanoseconds)) a keystroke: with the search alone, the least a keystroke "
            + "of this workload can take while it answers with `City` values, "
            + "\(duration(nanoseconds: keystrokes[0].searchP50Nanoseconds + keystrokes[0].pageFloorP50Nanoseconds)) (p50s added).\n\n"

        if !scale.isEmpty {
            md += "## Scaling\n\n"
            md += "Synthetic lists from `tools/gen_synthetic_list.py --seed 1` (real names' syllables recombined per country, real "
                + "shapes and coordinates moved by up to 0.2°, unique ids), each with its own workload made as "
                + "`shared/peers/workload.py` makes it (every prefix 1 to 16 characters of 2,000 records, seed 42), searched by name in name "
                + "order. Each is built once, in a child process: build peak RSS is that process's VmHWM. open → first page: median of "
                + "\(plan.scaleWarmStartRuns) fresh processes, first workload line (the real list's row: the startup figure above).\n\n"
            md += scaleTable.markdown + "\n"
        }

        md += "## How it is measured\n\n"
        md += """
            - **Same work per query.** Every engine, per workload line: find the prefix, count every match, and keep the first \
            20 results. mmsearch and the seeds get the line as typed and fold it themselves (their times include folding); the peers \
            get lines folded beforehand by `shared/peers/prepare.py`. mmsearch reads each of the 20 records into a `City` and keeps \
            id and name as Swift values.
            - **Percentiles as the peers compute them:** sorted per-query times, p50 = lat[n/2], p99 = lat[n·99/100], max = the last, \
            mean = the loop's wall time / n. One pass over the workload right after opening, as the peers do.
            - **Repeats.** On a shared machine one run can be disturbed, so each configuration's pass runs \(counted(plan.workloadRuns, "time")) in \
            fresh processes, the three configurations in turn (mmsearch and the seeds by this benchmark; the peers by running \
            `shared/peers/run.sh` \(counted(peerRunCount, "time"))); every table shows the run with the median p99, and that run's p50, max, \
            mean and matches.
            - **Startup, like with like.** The engine table's "open → first page" is timed as the peers time theirs: inside the \
            benchmark process, after loading the workload. The startup section times every engine in fresh processes, the same span \
            (open to first page), interleaved; whole processes are timed from spawn to exit, every command in turn. The \
            executables timed (mmsearch, mmsearch-bench's children) are copies made with `cp` in a temporary directory, as \
            tools/install.sh installs mmsearch: the same bytes as the linker has just written them take about 15 more page faults \
            a process (how the kernel holds that file in its page cache).
            - **Build.** mmsearch: `IndexBuilder.build`, JSON file (and dump) to a finished, fsync'd index (median of \(counted(plan.buildRuns, "build"))). The peers build \
            from keys already folded and sorted by `prepare.py` (not timed). The seeds' build_s is what they do at every start: read, \
            decode with `JSONDecoder`, fold keys (and sort); their size_bytes is the JSON they decode.
            - **Matches.** mmsearch by name, fst and seed-sorted count every record (\(grouped(ours.matches)) on the full workload). marisa stores \
            each distinct key once, so it counts distinct keys; SQLite's loader skips the 12 records with an empty name or country (strtok \
            merges empty fields), so it counts slightly fewer. The default search counts cities matched by any name or word, so more. \
            seed-linear answers every \(plan.linearEvery)th line only (its queries= and matches= are for those); it keeps the first 20 \
            matches in list order, not key order.
            - **Memory.** Peak RSS: VmHWM of the process; the peers report getrusage's ru_maxrss, the same figure. \
            On kernels whose page cache holds large folios (this one: \(machine.kernel)), one page fault on a mapped file \
            maps the whole folio it falls in, so RSS growth depends on how the index got into the page cache; the bytes are shared page \
            cache either way, not read or copied by the process.

            """
        md += "\n## Raw lines (each engine's median-p99 run)\n\n```\n" + (engineLines + (peers + (keyPeers?.indexes.flatMap { [$0.marisa, $0.fst] } ?? [])).map { $0.text + "\n" }.joined()) + "```\n"
        return md
    }
}

/// "1 run", "3 runs".
func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

/// A table printed padded for the terminal or as Markdown. Columns of figures are right-aligned, the
/// first column (names) left-aligned; `textColumns` left-aligns every column.
struct Table {
    var header: [String]
    var rows: [[String]] = []
    var textColumns = false

    var text: String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        func render(_ row: [String]) -> String {
            row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 || textColumns ? cell + padding : padding + cell
            }.joined(separator: "  ")
        }
        return all.map { String(render($0).reversed().drop { $0 == " " }.reversed()) + "\n" }.joined()
    }

    var markdown: String {
        var md = "| " + header.joined(separator: " | ") + " |\n"
        md += "|" + header.indices.map { $0 == 0 || textColumns ? ":---|" : "---:|" }.joined() + "\n"
        for row in rows { md += "| " + row.joined(separator: " | ") + " |\n" }
        return md
    }
}

/// What the run ran on.
struct Machine {
    var processors: Int
    var cpuModel: String
    var memory: String
    var kernel: String

    /// The text after "NAME:" on the first line of `path` that starts with NAME (/proc/cpuinfo, /proc/meminfo).
    private static func field(_ name: String, in path: String) -> String? {
        let text = (try? System.readText(path)) ?? ""
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name) }),
              let colon = line.firstIndex(of: ":") else { return nil }
        return String(line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" })
    }

    /// A /proc/meminfo figure ("MemTotal", "MemAvailable") in bytes.
    private static func memoryBytes(_ name: String) -> Int? {
        field(name, in: "/proc/meminfo").flatMap { Int($0.split(separator: " ").first ?? "") }.map { $0 * 1024 }
    }

    static func availableMemoryBytes() -> Int? { memoryBytes("MemAvailable") }

    static func current() -> Machine {
        let memoryKiB = memoryBytes("MemTotal").map { $0 / 1024 }
        return Machine(
            processors: System.processorCount,
            cpuModel: field("model name", in: "/proc/cpuinfo") ?? "unknown CPU",
            memory: memoryKiB.map { "\(fixed(Double($0) / 1_048_576, 1)) GiB" } ?? "unknown",
            kernel: System.kernelDescription()
        )
    }
}
