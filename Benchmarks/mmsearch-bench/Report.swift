/// The figures of one benchmark run, as engine lines, a readable table, and a Markdown report.
struct Report {
    var real: ListRun
    var wholeProcess: WholeProcessRun
    var seeds: [EngineLine]
    var peers: [EngineLine]
    /// How many times run.sh ran each peer (the lines are the median-p99 runs).
    var peerRunCount: Int
    var scale: [ListRun]
    var plan: Plan
    var options: Options
    var elapsedSeconds: Double

    var ours: EngineLine { real.ours }

    /// One line per engine measured here, in the peers' exact form.
    var engineLines: String {
        ([ours] + seeds + scale.map(\.ours)).map { $0.text + "\n" }.joined()
    }

    /// Every engine on the real list, ours first, then the peers, then the seeds.
    private var engines: [EngineLine] { [ours] + peers + seeds }

    // MARK: Tables

    private var engineTable: Table {
        var table = Table(header: ["engine", "records", "build", "index size", "open → first page", "p50", "p99", "max", "mean", "queries", "matches", "peak RSS"])
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
        var table = Table(header: ["engine", "p50", "p99", "max", "mean", "open → first page", "index size", "build"])
        for line in engines where line.engine != ours.engine {
            table.rows.append([
                line.engine, ratio(line.latency.p50, to: ours.latency.p50), ratio(line.latency.p99, to: ours.latency.p99),
                ratio(line.latency.max, to: ours.latency.max), ratio(line.latency.mean, to: ours.latency.mean),
                ratio(line.openFirstMicroseconds, to: ours.openFirstMicroseconds),
                ratio(Double(line.sizeBytes), to: Double(ours.sizeBytes)), ratio(line.buildSeconds, to: ours.buildSeconds),
            ])
        }
        return table
    }

    private var startupTable: Table {
        var table = Table(header: ["mmsearch startup", "processes", "open → first page", "of which: open", "search", "20 records",
                                   "RSS growth (median / max)", "of which: file / private", "process peak RSS"])
        func add(_ name: String, _ runs: StartupRuns) {
            table.rows.append([name, String(runs.runs), duration(nanoseconds: runs.medianNanoseconds),
                               duration(nanoseconds: runs.medianOpenNanoseconds), duration(nanoseconds: runs.medianLocateNanoseconds),
                               duration(nanoseconds: runs.medianPageNanoseconds),
                               "\(memory(kib: runs.medianGrowthKiB)) / \(memory(kib: runs.maxGrowthKiB))",
                               "\(memory(kib: runs.medianFileGrowthKiB)) / \(memory(kib: runs.medianAnonymousGrowthKiB))",
                               memory(kib: runs.medianPeakKiB)])
        }
        add("warm: page cache as the build left it", real.warm)
        if let cold = real.cold { add("cold: index evicted before each process", cold) }
        if let again = real.warmAfterCold { add("warm: page cache as the cold runs read it", again) }
        table.rows.append(["in-process, after loading the workload (the peers' way)", "1",
                           duration(nanoseconds: real.inProcessOpenFirstMicroseconds * 1e3), "", "", "", "", "", ""])
        return table
    }

    private var scaleTable: Table {
        var table = Table(header: ["list", "records", "JSON", "build", "index size", "build peak RSS", "open → first page", "p50", "p99", "max", "mean", "queries", "matches", "query peak RSS"])
        for run in [real] + scale {
            let line = run.ours
            table.rows.append([
                run.label == "real" ? "real (city.list.json)" : run.label, grouped(run.records), size(bytes: run.listBytes),
                duration(nanoseconds: line.buildSeconds * 1e9), size(bytes: line.sizeBytes), memory(kib: run.buildPeakKiB),
                duration(nanoseconds: line.openFirstMicroseconds * 1e3), duration(nanoseconds: line.latency.p50),
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

    /// A target of issue 3 and whether this run met it.
    struct Target {
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
    private func target(_ what: String, goal: String, value: Double, limit: Double, text: (Double) -> String, atMost: Bool = false) -> Target {
        let met = atMost ? value <= limit : value < limit
        let measured = met ? text(value) : "\(text(value)), \(ratio(value, to: limit)) the target (over by \(text(value - limit)))"
        return Target(what: what, goal: goal, measured: measured, met: met)
    }

    var targets: [Target] {
        var targets: [Target] = []
        let p99 = ours.latency.p99
        targets.append(target("p99 per keystroke", goal: "under 2 µs", value: p99, limit: 2_000, text: { duration(nanoseconds: $0) }))
        for name in ["marisa", "fst", "sqlite"] {
            guard let peer = peers.first(where: { $0.engine == name }) else {
                targets.append(Target(what: "p99 vs \(name)", goal: "over 1000× better", measured: "run with --peers", met: nil))
                continue
            }
            let times = peer.latency.p99 / p99
            targets.append(Target(what: "p99 vs \(name)", goal: "over 1000× better",
                                  measured: "\(ratio(peer.latency.p99, to: p99)) better (\(duration(nanoseconds: peer.latency.p99)) vs \(duration(nanoseconds: p99)))"
                                      + (times > 1000 ? "" : ", \(fixed(1000 / times, 1))× short of 1000×"),
                                  met: times > 1000))
        }
        if let marisa = peers.first(where: { $0.engine == "marisa" }) {
            targets.append(target("p50 per keystroke", goal: "at or under marisa's (\(duration(nanoseconds: marisa.latency.p50)))",
                                  value: ours.latency.p50, limit: marisa.latency.p50, text: { duration(nanoseconds: $0) }, atMost: true))
        } else {
            targets.append(Target(what: "p50 per keystroke", goal: "at or under marisa's", measured: "run with --peers", met: nil))
        }
        targets.append(target("open → first page, warm (fresh process)", goal: "under 20 µs",
                              value: ours.openFirstMicroseconds * 1e3, limit: 20_000, text: { duration(nanoseconds: $0) }))
        targets.append(target("index size, all record fields", goal: "under 6 MB",
                              value: Double(ours.sizeBytes), limit: 6e6, text: { size(bytes: Int($0)) }))
        targets.append(target("build from JSON", goal: "under 1 s",
                              value: ours.buildSeconds * 1e9, limit: 1e9, text: { duration(nanoseconds: $0) }))
        var rss = target("RSS growth, open + first query (median, warm)", goal: "under 1 MB",
                         value: Double(real.warm.medianGrowthKiB * 1024), limit: 1e6, text: { size(bytes: Int($0)) })
        if let again = real.warmAfterCold {
            rss.measured += "; \(size(bytes: again.medianGrowthKiB * 1024)) once the page cache holds what page faults read"
        }
        targets.append(rss)
        let largest = scale.last, smallest = scale.first
        if let largest, let smallest, largest.records >= 10_000_000, largest.label != smallest.label {
            let growth = largest.ours.latency.p99 / smallest.ours.latency.p99
            targets.append(Target(
                what: "p99 at \(shortCount(largest.records)) vs at \(shortCount(smallest.records)) records (synthetic)", goal: "within 2×",
                measured: "\(fixed(growth, 2))× (\(duration(nanoseconds: largest.ours.latency.p99)) vs \(duration(nanoseconds: smallest.ours.latency.p99)); "
                    + "vs the real list's \(duration(nanoseconds: p99)): \(fixed(largest.ours.latency.p99 / p99, 2))×)",
                met: growth <= 2))
        } else {
            targets.append(Target(what: "p99 at 10M vs at 209k records", goal: "within 2×", measured: "run with --scale", met: nil))
        }
        return targets
    }

    private var targetTable: Table {
        var table = Table(header: ["target", "goal", "measured", "verdict"], textColumns: true)
        for target in targets { table.rows.append([target.what, target.goal, target.measured, target.verdict]) }
        return table
    }

    // MARK: Text

    /// The readable report for the terminal.
    var text: String {
        var out = "\n" + engineTable.text + "\n"
        if !peers.isEmpty { out += "Ratios to mmsearch (their figure ÷ ours; above 1× means slower or larger than ours):\n" + ratioTable.text + "\n" }
        out += startupTable.text + "\n"
        out += "whole process `mmsearch query --index F Lond`: \(duration(nanoseconds: wholeProcess.medianQueryNanoseconds)) median of \(wholeProcess.runs) "
            + "(`mmsearch --help`: \(duration(nanoseconds: wholeProcess.medianHelpNanoseconds)); /bin/true: \(duration(nanoseconds: wholeProcess.medianTrueNanoseconds)))\n"
        out += "per keystroke, search alone (fold, locate, count): p50 \(duration(nanoseconds: real.searchP50Nanoseconds)), "
            + "p99 \(duration(nanoseconds: real.searchP99Nanoseconds)); the rest is reading the 20 records\n"
        out += "build: \(real.buildSeconds.map { fixed($0, 3) + " s" }.joined(separator: ", ")); build peak RSS \(memory(kib: real.buildPeakKiB)); "
            + "query process peak RSS \(memory(kib: real.queryPeakKiB))\n"
        if let cached = real.cachedAfterEviction {
            out += "cold runs: at most \(cached.most) of the index's \(cached.total) pages were still cached after each eviction\n"
        }
        out += "seed-linear answers every \(plan.linearEvery)th query only; seed build_s is decode + fold (+ sort), size_bytes the JSON it decodes at every start\n"
        out += crossCheck
        if !scale.isEmpty { out += "\n" + scaleTable.text }
        out += "\n" + targetTable.text
        out += "\n\(fixed(elapsedSeconds, 0)) s in all\n"
        return out
    }

    // MARK: Markdown

    var markdown: String {
        let machine = Machine.current()
        var md = "# mmsearch benchmark results\n\n"
        md += "Made by `Benchmarks/run.sh` (issue 3): mmsearch, the seeds' approaches and the peer engines of "
            + "`shared/peers/run.sh` on the same list and keystroke workload, in one run on one machine.\n\n"
        if options.smoke { md += "**This is a smoke run (few iterations, 1,000 queries): its figures are not the benchmark.**\n\n" }
        md += "- date: \(System.utcDateText())\n"
        md += "- command: `\(options.command ?? "mmsearch-bench " + CommandLine.arguments.dropFirst().joined(separator: " "))`\n"
        if let revision = options.revision { md += "- revision: `\(revision)`\n" }
        md += "- machine: \(machine.processors) × \(machine.cpuModel), \(machine.memory) RAM, \(machine.kernel)\n"
        if let toolchain = options.toolchain { md += "- toolchain: \(toolchain)\n" }
        md += "- data: `\(options.data)` (\(grouped(real.records)) records, \(size(bytes: real.listBytes))); workload: `\(options.queries)` "
            + "(\(grouped(ours.latency.count)) queries)\n"
        md += "- this benchmark's part took \(fixed(elapsedSeconds, 0)) s\n\n"

        md += "## Every engine, side by side\n\n" + engineTable.markdown + "\n" + crossCheck + (crossCheck.isEmpty ? "" : "\n")
        if !peers.isEmpty {
            md += "Ratios to mmsearch: each engine's figure divided by ours (above 1× means slower or larger than mmsearch).\n\n"
            md += ratioTable.markdown + "\n"
        }

        md += "## Targets\n\n" + targetTable.markdown + "\n"

        md += "## mmsearch in detail\n\n" + startupTable.markdown + "\n"
        md += "- Per keystroke, the search alone (fold, locate, count; a second pass over the workload): p50 "
            + "\(duration(nanoseconds: real.searchP50Nanoseconds)), p99 \(duration(nanoseconds: real.searchP99Nanoseconds)); "
            + "the rest of each query's time is reading the first 20 records into `City` values.\n"
        md += "- Whole process `mmsearch query --index F Lond` (spawn to exit, output to /dev/null): "
            + "\(duration(nanoseconds: wholeProcess.medianQueryNanoseconds)) median of \(wholeProcess.runs); `mmsearch --help` (same executable "
            + "and libraries, no index): \(duration(nanoseconds: wholeProcess.medianHelpNanoseconds)); `/bin/true` on this machine: "
            + "\(duration(nanoseconds: wholeProcess.medianTrueNanoseconds)).\n"
        md += "- Build from JSON, \(counted(real.buildSeconds.count, "run")): \(real.buildSeconds.map { fixed($0, 3) + " s" }.joined(separator: ", ")) "
            + "(median in the table); peak RSS of the build process \(memory(kib: real.buildPeakKiB)); peak RSS of the query process "
            + "\(memory(kib: real.queryPeakKiB)). The engine line's peak_rss_kib is the larger of the two, as the peers build and query in one process.\n"
        if let cached = real.cachedAfterEviction {
            md += "- Cold runs: after each `posix_fadvise(POSIX_FADV_DONTNEED)` at most \(cached.most) of the index's \(cached.total) pages "
                + "were still in the page cache (checked with mincore).\n"
        }
        md += "\n"

        if !scale.isEmpty {
            md += "## Scaling\n\n"
            md += "Synthetic lists from `tools/gen_synthetic_list.py --seed 1` (real names' syllables recombined per country, real "
                + "shapes and coordinates moved by up to 0.2°, unique ids), each with its own workload made as "
                + "`shared/peers/workload.py` makes it (every prefix 1 to 16 characters of 2,000 records, seed 42). Each is built once, in a "
                + "child process: build peak RSS is that process's VmHWM. open → first page: median of \(plan.scaleWarmStartRuns) fresh processes, warm.\n\n"
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
            - **Repeats.** On a shared machine one run can be disturbed, so each engine's pass runs \(counted(plan.workloadRuns, "time")) in \
            fresh processes (mmsearch and the seeds by this benchmark; the peers by running `shared/peers/run.sh` \
            \(counted(peerRunCount, "time"))); every table shows, for each engine, the run with the median p99, and that run's p50, max, \
            mean and matches.
            - **Startup.** mmsearch's open_first_us is the median over fresh processes (the benchmark re-executes itself): from before \
            opening the index to holding the first page of the first workload line, with the index in the page cache. The peers time \
            the same span inside their benchmark process, after building; mmsearch's figure timed that way is in the detail table. \
            Cold: before each process the index is flushed and evicted with `posix_fadvise(POSIX_FADV_DONTNEED)`; that drops only clean, \
            unmapped pages of that one file: the executable (mmsearch's code is linked into it), the Swift runtime and the C library \
            stay cached, so "cold" means a cold index, not a cold machine.
            - **Build.** mmsearch: `IndexBuilder.build`, JSON file to a finished, fsync'd index (median of \(counted(plan.buildRuns, "build"))). The peers build \
            from keys already folded and sorted by `prepare.py` (not timed). The seeds' build_s is what they do at every start: read, \
            decode with `JSONDecoder`, fold keys (and sort); their size_bytes is the JSON they decode.
            - **Matches.** mmsearch, fst and seed-sorted count every record (\(grouped(ours.matches)) on the full workload). marisa stores \
            each distinct key once, so it counts distinct keys; SQLite's loader skips the 12 records with an empty name or country (strtok \
            merges empty fields), so it counts slightly fewer. \
            seed-linear answers every \(plan.linearEvery)th line only (its queries= and matches= are for those); it keeps the first 20 \
            matches in list order, not key order.
            - **Memory.** RSS growth: VmRSS after the first page minus VmRSS before opening, in the startup processes (mapped index pages \
            touched count as resident). Peak RSS: VmHWM of the process; the peers report getrusage's ru_maxrss, the same figure. \
            On kernels whose page cache holds large folios (this one: \(Machine.current().kernel)), one page fault on a mapped file \
            maps the whole folio it falls in, up to 2 MB, and a file written in one large `write` (as the builder writes the index) sits \
            in the page cache as large folios. So RSS growth depends on how the index got into the page cache: the first warm row \
            (as the build left it) against the last (as page faults read it back); the bytes are shared page cache either way, not read \
            or copied by the process.

            """
        md += "\n## Raw lines (each engine's median-p99 run)\n\n```\n" + (engineLines + peers.map { $0.text + "\n" }.joined()) + "```\n"
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
