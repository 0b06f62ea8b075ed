import Foundation
import MMSearch
import MMSearchTestSupport
import Testing

@Suite struct CommandLineTests {
    static let classicList = """
        [{"_id":1,"name":"Alabama","country":"US","coord":{"lon":-86.75,"lat":32.75}},
         {"_id":2,"name":"Albuquerque","country":"US","coord":{"lon":-106.651138,"lat":35.084492}},
         {"_id":3,"name":"Anaheim","country":"US","coord":{"lon":-117.914497,"lat":33.835289}},
         {"_id":4,"name":"Arizona","country":"US","coord":{"lon":-111.500977,"lat":34.500301}},
         {"_id":5,"name":"Sydney","country":"AU","coord":{"lon":151.207321,"lat":-33.867851}},
         {"_id":6,"name":" Spaced","country":"","coord":{"lon":0,"lat":0}}]
        """

    /// A directory holding `list.json` (the classic list) and its index `cities.mms`.
    static func classicDirectory() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try Data(classicList.utf8).write(to: URL(fileURLWithPath: directory.file("list.json")))
        let build = try MMSearchProcess.run(["build", directory.file("list.json"), "-o", directory.file("cities.mms")])
        #expect(build.status == 0, "build failed: \(build.error)")
        return directory
    }

    @Test func queryPrintsLinesThenTheCount() throws {
        let directory = try Self.classicDirectory()
        defer { directory.remove() }
        let result = try MMSearchProcess.run(["query", "--index", directory.file("cities.mms"), "Al"])
        #expect(result.status == 0)
        #expect(result.output == "Alabama, US  32.75, -86.75  1\nAlbuquerque, US  35.084492, -106.651138  2\n2 matches\n")
        let none = try MMSearchProcess.run(["query", "--index", directory.file("cities.mms"), "z"])
        #expect(none.status == 0 && none.output == "0 matches\n")
        let paged = try MMSearchProcess.run(["query", "--index", directory.file("cities.mms"), "--limit", "1", "--offset", "2", "a"])
        #expect(paged.output == "Anaheim, US  33.835289, -117.914497  3\n4 matches\n")
    }

    /// An index named relatively opens from any working directory, one whose name is longer than the
    /// reader's first getcwd buffer (256 bytes) too, and through "..".
    @Test func relativeIndexPathsOpenFromShallowAndDeepDirectories() throws {
        let directory = try Self.classicDirectory()
        defer { directory.remove() }
        var deep = directory.path
        while deep.utf8.count <= 300 { deep += "/nested-directory-\(deep.utf8.count)" }
        try FileManager.default.createDirectory(atPath: deep, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: directory.file("cities.mms"), toPath: deep + "/cities.mms")
        for workingDirectory in [directory.path, deep] {
            let result = try MMSearchProcess.run(["query", "--index", "cities.mms", "Al"], in: workingDirectory)
            #expect(result.status == 0, "in \(workingDirectory.utf8.count)-byte directory: \(result.error)")
            #expect(result.output.hasSuffix("2 matches\n"), "in \(workingDirectory.utf8.count)-byte directory")
        }
        let upAndDown = try MMSearchProcess.run(["query", "--index", "../" + (directory.path as NSString).lastPathComponent + "/cities.mms", "Al"],
                                                in: directory.path)
        #expect(upAndDown.output.hasSuffix("2 matches\n"), "\(upAndDown.error)")
    }

    /// A repeated option's last value wins, in either spelling (`--limit 3`, `--limit=1`), and `--`
    /// makes what follows a prefix even when it starts with a dash.
    @Test func repeatedOptionsTakeTheLastValue() throws {
        let directory = try Self.classicDirectory()
        defer { directory.remove() }
        let index = directory.file("cities.mms")
        let last = try MMSearchProcess.run(["query", "--index", "/nonexistent.mms", "--limit", "3", "--index=\(index)", "--limit=1", "a"])
        #expect(last.status == 0, "\(last.error)")
        #expect(last.output == "Alabama, US  32.75, -86.75  1\n4 matches\n")
        let flagTwice = try MMSearchProcess.run(["query", "--index", index, "--json", "--json", "--limit", "0", "a"])
        #expect(flagTwice.output == "{\"query\": \"a\", \"count\": 4, \"offset\": 0, \"typos\": 0, \"results\": []}\n")
        let dashed = try MMSearchProcess.run(["query", "--index", index, "--", "-a"])
        #expect(dashed.status == 0 && dashed.output == "0 matches\n")
    }

    /// The default order is rank: without populations, cities found by a name come before those found by
    /// a word start, each group alphabetically (here the same as name order, there being no word matches).
    @Test func defaultOrderIsRankAndNameOrderIsTheOldOne() throws {
        let directory = try Self.classicDirectory()
        defer { directory.remove() }
        let index = directory.file("cities.mms")
        let lines = "Alabama, US  32.75, -86.75  1\nAlbuquerque, US  35.084492, -106.651138  2\nAnaheim, US  33.835289, -117.914497  3\nArizona, US  34.500301, -111.500977  4\n4 matches\n"
        for flags in [[], ["--order", "rank"], ["--order", "name"], ["--match", "name", "--order", "name"], ["--match=name", "--order=rank"]] {
            let result = try MMSearchProcess.run(["query", "--index", index] + flags + ["a"])
            #expect(result.status == 0 && result.error.isEmpty, "\(flags)")
            #expect(result.output == lines, "\(flags)")
        }
        // "s": Sydney by its name, " Spaced" by the word start after its leading space: rank puts the name
        // match first whatever the alphabet says; name order puts " Spaced" (key " spaced") first.
        let ranked = try MMSearchProcess.run(["query", "--index", index, "s"])
        #expect(ranked.output == "Sydney, AU  -33.867851, 151.207321  5\n Spaced  0, 0  6\n2 matches\n")
        let alphabetical = try MMSearchProcess.run(["query", "--index", index, "--order", "name", "s"])
        #expect(alphabetical.output == " Spaced  0, 0  6\nSydney, AU  -33.867851, 151.207321  5\n2 matches\n")
        let namesOnly = try MMSearchProcess.run(["query", "--index", index, "--match", "name", "s"])
        #expect(namesOnly.output == "Sydney, AU  -33.867851, 151.207321  5\n1 match\n")
    }

    @Test func queryJSONHasTheContractedShape() throws {
        let directory = try Self.classicDirectory()
        defer { directory.remove() }
        let result = try MMSearchProcess.run(["query", "--index", directory.file("cities.mms"), "--json", "--limit", "1", "s"])
        #expect(result.status == 0)
        // An index of the list alone has no populations: no "population" member; no "matched" either,
        // Sydney being found by its own name.
        #expect(result.output == #"{"query": "s", "count": 2, "offset": 0, "typos": 0, "results": [{"id": 5, "name": "Sydney", "country": "AU", "lat": -33.867851, "lon": 151.207321}]}"# + "\n")
        // Names only, alphabetically: exactly the answer of version 1.
        let old = try MMSearchProcess.run(["query", "--index", directory.file("cities.mms"), "--json", "--match", "name", "--order", "name", "--limit", "1", "s"])
        #expect(old.output == #"{"query": "s", "count": 1, "offset": 0, "typos": 0, "results": [{"id": 5, "name": "Sydney", "country": "AU", "lat": -33.867851, "lon": 151.207321}]}"# + "\n")
        // Found by a word start of its own name: still no "matched" member.
        let word = try MMSearchProcess.run(["query", "--index", directory.file("cities.mms"), "--json", "--offset", "1", "s"])
        #expect(word.output == #"{"query": "s", "count": 2, "offset": 1, "typos": 0, "results": [{"id": 6, "name": " Spaced", "country": "", "lat": 0, "lon": 0}]}"# + "\n")
    }

    /// Queries are used exactly as written: a leading space is part of the prefix.
    @Test func standardInputAnswersEachLineAsWritten() throws {
        let directory = try Self.classicDirectory()
        defer { directory.remove() }
        // " s" finds " Spaced" by its name; "s" finds Sydney by its name and " Spaced" by a word start,
        // which --match name leaves out.
        for (flags, expected) in [([String](), [4, 1, 2, 6, 1]), (["--match", "name"], [4, 1, 1, 6, 1])] {
            let result = try MMSearchProcess.run(["query", "--index", directory.file("cities.mms"), "--json", "--limit", "0"] + flags + ["-"], input: "a\n s\ns\n\nalb\r\n")
            #expect(result.status == 0)
            let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            #expect(lines.count == 5)
            let objects = try lines.map { line in try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any] }
            #expect(objects.map { $0["count"] as! Int } == expected, "\(flags)")
            #expect(objects.map { $0["query"] as! String } == ["a", " s", "s", "", "alb"])
            #expect(lines[1].hasPrefix(#"{"query": " s""#))
        }
    }

    @Test func usageErrorsExitTwo() throws {
        let directory = try Self.classicDirectory()
        defer { directory.remove() }
        let index = directory.file("cities.mms")
        for arguments in [["query", "--index", index], ["query", "--index", index, "--limit", "-1", "a"], ["query", "--bogus", "a"], ["frobnicate"], [], ["build", "x.json"],
                          ["build", "x.json", "--geonames"], ["build", "--geonames", "x.txt", "-o", "out.mms"]] {
            let result = try MMSearchProcess.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(!result.error.isEmpty)
            #expect(result.output.isEmpty)
        }
        // --match and --order take one of their values: anything else (a wrong case, an empty value, a
        // missing one) is a usage error that names the option and its values, and nothing is printed.
        let badModes: [([String], String)] = [
            (["--match", "prefix"], #"--match takes one of words, name, not "prefix""#),
            (["--match", "Words"], #"--match takes one of words, name, not "Words""#),
            (["--match="], #"--match takes one of words, name, not """#),
            (["--order", "population"], #"--order takes one of rank, name, distance, not "population""#),
            (["--order=alphabetical"], #"--order takes one of rank, name, distance, not "alphabetical""#),
            (["--match", "name", "--order", "names"], #"--order takes one of rank, name, distance, not "names""#),
        ]
        for (flags, message) in badModes {
            let result = try MMSearchProcess.run(["query", "--index", index] + flags + ["a"])
            #expect(result.status == 2, "\(flags)")
            #expect(result.error.contains("mmsearch query: " + message), "\(flags): \(result.error)")
            #expect(result.error.contains("usage: mmsearch query"), "\(flags)")
            #expect(result.output.isEmpty, "\(flags)")
        }
        for option in ["--match", "--order"] {
            let result = try MMSearchProcess.run(["query", "--index", index, option])
            #expect(result.status == 2 && result.error.contains("\(option) needs a value"), "\(option): \(result.error)")
        }
        // Standard input mode checks its options before it reads a line.
        let piped = try MMSearchProcess.run(["query", "--index", index, "--order", "best", "-"], input: "a\n")
        #expect(piped.status == 2 && piped.output.isEmpty)
        for command in ["build", "query", "verify"] {
            let help = try MMSearchProcess.run([command, "--help"])
            #expect(help.status == 0 && help.output.contains("usage: mmsearch \(command)"))
        }
    }

    @Test func badIndexExitsOneWithAMessage() throws {
        let directory = try Self.classicDirectory()
        defer { directory.remove() }
        let whole = try Data(contentsOf: URL(fileURLWithPath: directory.file("cities.mms")))
        try whole.prefix(whole.count - 5).write(to: URL(fileURLWithPath: directory.file("cut.mms")))
        let result = try MMSearchProcess.run(["query", "--index", directory.file("cut.mms"), "a"])
        #expect(result.status == 1)
        #expect(result.error.contains("truncated index"))
        let verify = try MMSearchProcess.run(["verify", directory.file("cities.mms")])
        #expect(verify.status == 0)
    }

    /// A bad list: an error with line:column, exit 1, and the index already at the output untouched.
    @Test func badInputKeepsTheOldIndex() throws {
        let directory = try Self.classicDirectory()
        defer { directory.remove() }
        let before = try Data(contentsOf: URL(fileURLWithPath: directory.file("cities.mms")))
        try Data("[{\"_id\":1,\n \"name\":2}]".utf8).write(to: URL(fileURLWithPath: directory.file("bad.json")))
        let result = try MMSearchProcess.run(["build", directory.file("bad.json"), "-o", directory.file("cities.mms")])
        #expect(result.status == 1)
        #expect(result.error.contains("bad.json:2:"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.file("cities.mms"))) == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".tmp") }
        #expect(leftovers.isEmpty)
        let fresh = try MMSearchProcess.run(["build", directory.file("bad.json"), "-o", directory.file("new.mms")])
        #expect(fresh.status == 1 && !FileManager.default.fileExists(atPath: directory.file("new.mms")))
    }

    @Test func indexIsFoundOrBuiltOnFirstUse() throws {
        let directory = try Self.classicDirectory()
        defer { directory.remove() }
        // No index in the working directory and no list named: a message that says how to build one.
        let empty = try TemporaryDirectory()
        defer { empty.remove() }
        let missing = try MMSearchProcess.run(["query", "a"], in: empty.path)
        #expect(missing.status == 2 && missing.error.contains("mmsearch build"))
        // $MMSEARCH_INDEX names the index.
        let byEnvironment = try MMSearchProcess.run(["query", "alb"], environment: ["MMSEARCH_INDEX": directory.file("cities.mms")], in: empty.path)
        #expect(byEnvironment.output.hasSuffix("1 match\n"))
        // --data builds ./cities.mms first, and says so.
        let built = try MMSearchProcess.run(["query", "--data", directory.file("list.json"), "ana"], in: empty.path)
        #expect(built.status == 0 && built.output.hasSuffix("1 match\n") && built.error.contains("building"))
        #expect(FileManager.default.fileExists(atPath: empty.file("cities.mms")))
        // $MMSEARCH_DATA does the same for an index named by $MMSEARCH_INDEX.
        let viaEnvironment = try MMSearchProcess.run(["query", "syd"], environment: ["MMSEARCH_DATA": directory.file("list.json"), "MMSEARCH_INDEX": empty.file("other.mms")], in: empty.path)
        #expect(viaEnvironment.status == 0 && viaEnvironment.output.hasSuffix("1 match\n"))
    }

    /// The CLI end to end on the real list, many queries through one process, against the naive
    /// reference of version 1: over an index of the list alone, `--match name --order name` gives
    /// exactly version 1's answers (counts, and pages in fold.py's order).
    @Test func jsonAnswersAgreeWithTheNaiveReferenceOnTheRealList() async throws {
        let reference = try SharedData.reference.get()
        let index = try await RealIndexes.shared.path(.list)
        let workload = try String(contentsOfFile: SharedData.typingQueries, encoding: .utf8).split(separator: "\n").map(String.init)
        let queries = stride(from: 0, to: workload.count, by: FullTests.count(quick: 120, full: 40)).map { workload[$0] } + ["", "Łódź", "sao paulo", "zzzz"]
        let result = try MMSearchProcess.run(["query", "--index", index, "--json", "--match", "name", "--order", "name", "--limit", "25", "-"], input: queries.joined(separator: "\n") + "\n")
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == queries.count)
        for (query, line) in zip(queries, lines) {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            let expected = reference.search(query)
            #expect(object["query"] as? String == query)
            #expect(object["count"] as? Int == expected.count, "\(query)")
            let ids = (object["results"] as! [[String: Any]]).map { ($0["id"] as! NSNumber).uint32Value }
            #expect(ids == expected.prefix(25).map { reference.cities[$0]._id }, "\(query)")
        }
    }
}
