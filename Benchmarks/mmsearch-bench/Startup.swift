import MMSearch

/// Issue 9's startup comparison, like with like: whole processes timed spawn to exit, and open -> first
/// page timed inside fresh processes, each engine the same way, all interleaved in one run.

/// What `Benchmarks/startup-peers/prepare.sh DIR` made: the peers' inputs (from the same list, keys
/// folded by shared/peers/fold.py) and the programs that time marisa-trie's and fst's in-process startup.
/// The command-line tools come from $PATH (Debian's bsdextrautils, sqlite3 and marisa packages).
struct StartupPeers {
    let directory: String
    var keys: String { "\(directory)/keys.tsv" }
    var database: String { "\(directory)/cities.db" }
    var marisaTrie: String { "\(directory)/keys.marisa" }
    var fstMap: String { "\(directory)/cities.fst" }
    var queryFile: String { "\(directory)/lond.txt" }
    var marisaOpen: String { "\(directory)/marisa_open" }
    var fstOpen: String { "\(directory)/fst_open" }
    let look: String?
    let sqlite3: String?
    let marisaSearch: String?

    init(directory: String) throws {
        self.directory = SystemCall.absolutePath(directory)
        look = System.findInPath("look")
        sqlite3 = System.findInPath("sqlite3")
        marisaSearch = System.findInPath("marisa-predictive-search")
        for file in [keys, database, marisaTrie, fstMap, queryFile, marisaOpen, fstOpen] where System.fileSize(file) == nil {
            throw BenchError("\(file) not found: run Benchmarks/startup-peers/prepare.sh \(directory) first")
        }
    }
}

/// The query every startup figure answers: typed as a person types it for mmsearch, folded for the
/// peers (which are given folded keys).
let startupQuery = "Lond"
let startupFoldedQuery = "lond"
/// The point of the whole-process `mmsearch near` row: central London, as "Lond" is the query's.
let startupNearPoint = "51.5074,-0.1278"

/// One command timed whole.
struct ProcessCommand {
    /// A short name for tables.
    var name: String
    /// What it does, for the report.
    var what: String
    var executable: String
    var arguments: [String]
    /// Standard input from this file.
    var input: String?
}

/// A command's wall times, spawn to exit, over many runs.
struct WholeProcessRow {
    var command: ProcessCommand
    var runs: Int
    var median: Double
    var p10: Double
    var p90: Double
    /// Lines it printed (to /dev/null when timed), counted once beforehand.
    var outputLines: Int
}

struct WholeProcessComparison {
    var rows: [WholeProcessRow]
    var runs: Int
    func row(_ name: String) -> WholeProcessRow? { rows.first { $0.command.name == name } }
}

/// Open -> first page timed inside processes, per engine and situation.
struct InProcessFigures {
    var runs: Int
    /// Medians: the first open in the process, and a second open of the same file after the first was closed.
    var first: Double
    var second: Double
    /// Medians of RSS growth over the first open, and of its file-backed and private parts.
    var growthKiB: Int
    var fileGrowthKiB: Int
    var anonymousGrowthKiB: Int
    /// mmsearch only: the medians of the first open's parts (CityIndex(path:), search, 20 records), and of
    /// the Foundation warm-up that ran before it.
    var open: Double?
    var locate: Double?
    var page: Double?
    var warmup: Double?
    /// mmsearch only: median minor page faults in those three parts.
    var openFaults: Double?
    var locateFaults: Double?
    var pageFaults: Double?

    init(_ values: [KeyValues], firstKey: String, secondKey: String) throws {
        func all(_ key: String) throws -> [Double] { try values.map { try $0.required(key, from: "startup child") } }
        func optional(_ key: String) -> Double? {
            let found = values.compactMap { $0.double(key) }
            return found.count == values.count && !found.isEmpty ? median(found) : nil
        }
        runs = values.count
        first = median(try all(firstKey))
        second = median(try all(secondKey))
        let growths = try zip(all("rss_after_kib"), all("rss_before_kib")).map { Int($0 - $1) }
        growthKiB = median(growths)
        fileGrowthKiB = Int(median(try all("file_growth_kib")))
        anonymousGrowthKiB = Int(median(try all("anonymous_growth_kib")))
        open = optional("open_ns")
        locate = optional("locate_ns")
        page = optional("page_ns")
        warmup = optional("warmup_ns")
        openFaults = optional("open_faults")
        locateFaults = optional("locate_faults")
        pageFaults = optional("page_faults")
    }
}

struct InProcessStartup {
    var runs: Int
    /// mmsearch on the list alone, default search: fresh process (absolute path, and relative path run
    /// from the index's directory), Foundation already in use; and on the joined index, fresh.
    var fresh: InProcessFigures
    var relative: InProcessFigures
    var foundationWarm: InProcessFigures
    var joined: InProcessFigures
    var marisa: InProcessFigures?
    var fst: InProcessFigures?
}

extension Suite {
    /// `plan.inProcessRuns` rounds; in each, one fresh process of every kind, in turn.
    func measureInProcessStartup(listIndex: String, joinedIndex: String, otherFile: String, peers: StartupPeers?) throws -> InProcessStartup {
        struct Kind {
            var name: String
            var executable: String
            var arguments: [String]
            var directory: String?
        }
        let listDirectory = FilePaths.directory(of: listIndex), listName = FilePaths.fileName(of: listIndex)
        var kinds = [
            // Started the way the relative-path one must be (through /bin/sh, to change directory), so that
            // the two differ only in the path.
            Kind(name: "fresh", executable: benchExecutable, arguments: ["--child", "startup", listIndex, startupQuery, "fresh", otherFile],
                 directory: listDirectory),
            Kind(name: "relative", executable: benchExecutable, arguments: ["--child", "startup", listName, startupQuery, "fresh", otherFile],
                 directory: listDirectory),
            Kind(name: "foundation", executable: benchExecutable, arguments: ["--child", "startup", listIndex, startupQuery, "foundation", otherFile]),
            Kind(name: "joined", executable: benchExecutable, arguments: ["--child", "startup", joinedIndex, startupQuery, "fresh", otherFile]),
        ]
        if let peers {
            kinds.append(Kind(name: "marisa", executable: peers.marisaOpen, arguments: [peers.marisaTrie, startupFoldedQuery]))
            kinds.append(Kind(name: "fst", executable: peers.fstOpen, arguments: [peers.fstMap, startupFoldedQuery]))
        }
        progress("startup in-process: \(plan.inProcessRuns) rounds of \(kinds.map { $0.name }.joined(separator: ", ")) (fresh processes, interleaved)")
        var values: [String: [KeyValues]] = [:]
        var random = RoundOrder(seed: 9)
        for round in -1 ..< plan.inProcessRuns { // round -1: unmeasured, fills the caches
            for kind in random.shuffled(kinds) {
                let result = try System.run(kind.executable, kind.arguments, output: .capture, directory: kind.directory)
                guard result.status == 0 else { throw BenchError("\(kind.executable) \(kind.arguments) exited with status \(result.status)") }
                if round >= 0 { values[kind.name, default: []].append(KeyValues(result.output)) }
            }
        }
        func ours(_ name: String) throws -> InProcessFigures {
            try InProcessFigures(values[name]!, firstKey: "startup_ns", secondKey: "second_open_ns")
        }
        func theirs(_ name: String) throws -> InProcessFigures? {
            try values[name].map { try InProcessFigures($0, firstKey: "open_first_ns", secondKey: "second_open_ns") }
        }
        return InProcessStartup(runs: plan.inProcessRuns, fresh: try ours("fresh"), relative: try ours("relative"),
                                foundationWarm: try ours("foundation"), joined: try ours("joined"),
                                marisa: try theirs("marisa"), fst: try theirs("fst"))
    }

    /// `plan.wholeProcessRuns` rounds; in each, every command once, in turn, spawn to exit, output to /dev/null.
    func measureWholeProcess(listIndex: String, joinedIndex: String, nearIndex: String? = nil, peers: StartupPeers?,
                             otherBuilds: [(build: String, path: String)] = []) throws -> WholeProcessComparison {
        var commands = [ProcessCommand(name: "/bin/true", what: "the floor: any process start on this machine", executable: "/bin/true", arguments: [])]
        if let peers {
            if let look = peers.look {
                commands.append(ProcessCommand(name: "look", what: "`look lond keys.tsv`: binary search of the sorted folded keys (prints every match)",
                                               executable: look, arguments: [startupFoldedQuery, peers.keys]))
            }
            if let sqlite3 = peers.sqlite3 {
                commands.append(ProcessCommand(
                    name: "sqlite3", what: "`sqlite3 cities.db \"SELECT … WHERE key >= 'lond' AND key < 'lone' ORDER BY key LIMIT 20\"` (indexed key column)",
                    executable: sqlite3,
                    arguments: [peers.database, "SELECT name, country, lat, lon, id FROM cities WHERE key >= 'lond' AND key < 'lone' ORDER BY key LIMIT 20"]))
            }
            if let marisa = peers.marisaSearch {
                commands.append(ProcessCommand(name: "marisa-predictive-search", what: "`marisa-predictive-search -n 20 keys.marisa < lond.txt`",
                                               executable: marisa, arguments: ["-n", "20", peers.marisaTrie], input: peers.queryFile))
            }
        }
        commands.append(ProcessCommand(name: "mmsearch", what: "`mmsearch query --index list.mms Lond`: the list alone, default search",
                                       executable: mmsearchExecutable, arguments: ["query", "--index", listIndex, startupQuery]))
        commands.append(ProcessCommand(name: "mmsearch joined", what: "`mmsearch query --index joined.mms Lond`: the list joined with cities500",
                                       executable: mmsearchExecutable, arguments: ["query", "--index", joinedIndex, startupQuery]))
        if let nearIndex {
            commands.append(ProcessCommand(name: "mmsearch near", what: "`mmsearch near --index readme.mms \(startupNearPoint)`: the README's index, the 10 nearest cities and the count",
                                           executable: mmsearchExecutable, arguments: ["near", "--index", nearIndex, startupNearPoint]))
        }
        for other in otherBuilds {
            commands.append(ProcessCommand(name: "mmsearch, \(other.build)", what: "the same query, mmsearch built with `\(other.build)`",
                                           executable: other.path, arguments: ["query", "--index", listIndex, startupQuery]))
        }
        commands.append(ProcessCommand(name: "mmsearch --version", what: "`mmsearch --version`: the same executable, no index opened",
                                       executable: mmsearchExecutable, arguments: ["--version"]))
        progress("whole process: \(plan.wholeProcessRuns) rounds of \(commands.map(\.name).joined(separator: ", ")) (interleaved)")

        var lines: [Int] = []
        for command in commands {
            let result = try System.run(command.executable, command.arguments, output: .capture, input: command.input)
            guard result.status == 0 else { throw BenchError("\(command.executable) \(command.arguments) exited with status \(result.status)") }
            lines.append(result.output.split(separator: "\n").count)
        }
        var times = Array(repeating: [Double](), count: commands.count)
        var random = RoundOrder(seed: 7)
        for round in -2 ..< plan.wholeProcessRuns { // two unmeasured rounds fill the caches
            for (number, command) in random.shuffled(Array(commands.enumerated())) {
                let result = try System.run(command.executable, command.arguments, output: .discard, input: command.input)
                guard result.status == 0 else { throw BenchError("\(command.executable) \(command.arguments) exited with status \(result.status)") }
                if round >= 0 { times[number].append(Double(result.wallNanoseconds)) }
            }
        }
        let rows = commands.enumerated().map { number, command in
            let sorted = times[number].sorted()
            return WholeProcessRow(command: command, runs: sorted.count, median: sorted[sorted.count / 2],
                                   p10: sorted[sorted.count / 10], p90: sorted[sorted.count * 9 / 10], outputLines: lines[number])
        }
        return WholeProcessComparison(rows: rows, runs: plan.wholeProcessRuns)
    }
}

/// The order of the commands in each round, shuffled anew (a fixed seed, so runs repeat): a process
/// started right after another of the same executable finds more of it in the CPU's caches, so a fixed
/// order would favour whichever command follows its twin.
struct RoundOrder {
    private var state: UInt64

    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }

    /// xorshift64*.
    private mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }

    /// `items` in a new random order (Fisher-Yates).
    mutating func shuffled<T>(_ items: [T]) -> [T] {
        var items = items
        for index in stride(from: items.count - 1, to: 0, by: -1) {
            items.swapAt(index, Int(next() % UInt64(index + 1)))
        }
        return items
    }
}
