/// Issue 22's like-for-like sizes, read from Benchmarks/key-peers/run.sh: for each index the script
/// built, the search keys `shared/peers/rank.py` gives it (checked there against `mmsearch info`'s count),
/// mmsearch's trie (LABELS, NODES, CHILDREN) and entries, and marisa-trie's and fst's files built from the
/// same keys by `shared/peers`' own programs, with their keystroke times over them, and the least bytes
/// known to hold what the index holds (Benchmarks/key-peers/budget.py).
struct KeyPeersRun {
    struct Index {
        var name: String
        var keys: Int
        var distinct: Int
        var keyBytes: Int
        var trieBytes: Int
        var entriesBytes: Int
        var fileBytes: Int
        /// budget.py's sum of each part's floor, and each part's floor and the index's bytes for it.
        var floorBytes: Int
        var parts: [(part: String, floorBytes: Int, indexBytes: Int)]
        var marisa: EngineLine
        var fst: EngineLine
    }

    var indexes: [Index]

    /// The script's output: an `index=NAME ...` line, then that index's `engine=marisa-NAME`,
    /// `budget=NAME ...` and `engine=fst-NAME` lines, for each index.
    init(_ text: String) throws {
        let lines = text.split(separator: "\n")
        let engines = EngineLine.all(in: text)
        indexes = try lines.compactMap { line -> Index? in
            let fields = KeyValues(line)
            guard let name = fields["index"] else { return nil }
            func engine(_ peer: String) throws -> EngineLine {
                guard let line = engines.first(where: { $0.engine == "\(peer)-\(name)" }) else {
                    throw BenchError("key peers: no engine=\(peer)-\(name) line")
                }
                return line
            }
            guard let budget = lines.lazy.map({ KeyValues($0) }).first(where: { $0["budget"] == name }) else {
                throw BenchError("key peers: no budget=\(name) line")
            }
            func int(_ key: String, of fields: KeyValues = fields) throws -> Int { Int(try fields.required(key, from: "key peers")) }
            let parts = try lines.map { KeyValues($0) }.filter { $0["budget_part"] == name }.map { part in
                (part: part["part"] ?? "", floorBytes: try int("floor_bytes", of: part), indexBytes: try int("index_bytes", of: part))
            }
            return Index(name: name, keys: try int("keys"), distinct: try int("distinct"), keyBytes: try int("key_bytes"),
                         trieBytes: try int("trie_bytes"), entriesBytes: try int("entries_bytes"), fileBytes: try int("file_bytes"),
                         floorBytes: try int("floor_bytes", of: budget), parts: parts, marisa: try engine("marisa"), fst: try engine("fst"))
        }
        guard !indexes.isEmpty else { throw BenchError("key peers: no index=... line") }
    }

    /// What each index is, by the script's names.
    static let described = ["list": "list alone", "joined": "list + cities500", "readme": "the README's index"]

    var table: Table {
        var table = Table(header: ["index", "keys (distinct)", "distinct keys' bytes", "mmsearch's trie: LABELS + NODES + CHILDREN",
                                   "marisa-trie", "fst (map: key → count)", "trie ÷ marisa", "trie ÷ fst", "mmsearch's ENTRIES",
                                   "whole index", "its parts' floors (budget.py)", "marisa p50", "fst p50"])
        for index in indexes {
            table.rows.append([Self.described[index.name] ?? index.name, "\(grouped(index.keys)) (\(grouped(index.distinct)))",
                               size(bytes: index.keyBytes), size(bytes: index.trieBytes), size(bytes: index.marisa.sizeBytes),
                               size(bytes: index.fst.sizeBytes), ratio(index.trieBytes, index.marisa.sizeBytes),
                               ratio(index.trieBytes, index.fst.sizeBytes), size(bytes: index.entriesBytes), size(bytes: index.fileBytes),
                               size(bytes: index.floorBytes), duration(nanoseconds: index.marisa.latency.p50), duration(nanoseconds: index.fst.latency.p50)])
        }
        return table
    }

    /// Each part of each index: its floor and the index's bytes for it (budget.py), in the first index's
    /// order of parts.
    var budgetTable: Table {
        var table = Table(header: ["part"] + indexes.flatMap { ["\(Self.described[$0.name] ?? $0.name): floor", "index"] })
        for part in indexes.first?.parts.map(\.part) ?? [] {
            table.rows.append([String(part.map { $0 == "-" ? " " : $0 })] + indexes.flatMap { index in
                guard let figures = index.parts.first(where: { $0.part == part }) else { return ["", ""] }
                return [size(bytes: figures.floorBytes), size(bytes: figures.indexBytes)]
            })
        }
        table.rows.append(["total"] + indexes.flatMap { [size(bytes: $0.floorBytes), size(bytes: $0.fileBytes)] })
        return table
    }

    private func ratio(_ ours: Int, _ theirs: Int) -> String { fixed(Double(ours) / Double(max(1, theirs)), 2) + "×" }
}
