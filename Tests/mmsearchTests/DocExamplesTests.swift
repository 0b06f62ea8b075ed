import Foundation
import MMSearchTestSupport
import Testing

/// The docs show what the code prints: every command example in README.md and docs/*.md is run on
/// the index the quick start builds (the real list joined with cities500, with region and country
/// names) and must print what the
/// doc shows, and the README's picture of the search screen is what the screen shows.
///
/// An example is a fenced block whose first line starts with `$ mmsearch `: each `$ ` line is a
/// command (words split at spaces; "double quotes" keep spaces), the lines up to the next one its
/// output, standard output then standard error. It runs in a directory where `cities.mms` is that
/// index. Masked on both sides, because they differ from build to build of the same data: `info`'s
/// build time and the index's checksum (the SOURCE section holds the build time).
@Suite struct DocExamplesTests {
    struct Example: Sendable, CustomTestStringConvertible {
        let file: String
        let line: Int
        let command: String
        let expected: String
        var testDescription: String { "\(file):\(line) $ \(command)" }

        /// The command's arguments, without the leading `mmsearch`.
        var arguments: [String] {
            var words: [String] = [], word = "", quoted = false, inWord = false
            for character in command {
                if character == "\"" { quoted.toggle(); inWord = true }
                else if character == " " && !quoted { if inWord { words.append(word) }; word = ""; inWord = false }
                else { word.append(character); inWord = true }
            }
            if inWord { words.append(word) }
            return Array(words.dropFirst())
        }
    }

    static let documents: [String] = {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: SharedData.packageRoot + "/docs")) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }()

    static func text(of document: String) throws -> String {
        try String(contentsOfFile: SharedData.packageRoot + "/" + document, encoding: .utf8)
    }

    /// The examples of one document, in order.
    static func examples(in text: String, file: String) -> [Example] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var examples: [Example] = []
        var number = 0
        while number < lines.count {
            defer { number += 1 }
            guard lines[number].hasPrefix("```"), number + 1 < lines.count, lines[number + 1].hasPrefix("$ mmsearch ") else { continue }
            number += 1
            while number < lines.count, !lines[number].hasPrefix("```") {
                let commandLine = number
                var output: [String] = []
                number += 1
                while number < lines.count, !lines[number].hasPrefix("```"), !lines[number].hasPrefix("$ ") {
                    output.append(lines[number])
                    number += 1
                }
                examples.append(Example(file: file, line: commandLine + 1, command: String(lines[commandLine].dropFirst(2)),
                                        expected: output.map { $0 + "\n" }.joined()))
            }
        }
        return examples
    }

    static let allExamples: [Example] = documents.flatMap { document in
        (try? text(of: document)).map { examples(in: $0, file: document) } ?? []
    }

    /// `output` with the build time and the index checksum of `info` replaced by placeholders.
    static func masked(_ output: String) -> String {
        output.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            if line.hasPrefix("built           ") { return "built           (build time)" }
            let checksum = "checksum        0x"
            if line.hasPrefix(checksum) { return "checksum        (index checksum)" + line.dropFirst(checksum.count + 16) }
            return String(line)
        }.joined(separator: "\n")
    }

    /// A directory in which `cities.mms` is the quick start's index: the real list joined with
    /// cities500, built with region and country names.
    static func directoryWithTheIndex() async throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: directory.file("cities.mms"), withDestinationPath: await RealIndexes.shared.path(.joinedRegions))
        return directory
    }

    @Test func theDocsHaveExamples() throws {
        #expect(Self.documents.contains("docs/commands.md"))
        let commands = Set(Self.allExamples.compactMap { $0.arguments.first })
        for command in ["query", "get", "info"] { #expect(commands.contains(command), "no example of \(command) in \(Self.documents)") }
        // The parser: commands, quoted words, outputs up to the next command or the end of the block.
        let parsed = Self.examples(in: "text\n```\n$ mmsearch query \"san fr\" x\na\nb\n$ mmsearch info i\n```\n```\n$ ls\n```\n", file: "t.md")
        #expect(parsed.map(\.arguments) == [["query", "san fr", "x"], ["info", "i"]])
        #expect(parsed.map(\.expected) == ["a\nb\n", ""])
        #expect(parsed.map(\.line) == [3, 6])
        #expect(Self.masked("built           2026-11-22 22:41:58 UTC\nchecksum        0xeb16484933bceb4d (XXH64)\nx")
            == "built           (build time)\nchecksum        (index checksum) (XXH64)\nx")
    }

    @Test(arguments: allExamples)
    func examplePrintsWhatTheDocShows(_ example: Example) async throws {
        let directory = try await Self.directoryWithTheIndex()
        defer { directory.remove() }
        let run = try MMSearchProcess.run(example.arguments, in: directory.path)
        #expect(Self.masked(run.output + run.error) == Self.masked(example.expected),
                "\(example.file):\(example.line): `\(example.command)` printed (status \(run.status)):\n\(run.output + run.error)")
    }

    /// docs/format.md's sizes on the real data: each row's keys, nodes and file size (in MB, two
    /// decimals) are what `mmsearch info` says of that index (the dump alone in the full run only).
    @Test(arguments: RealInput.asked + RealInput.askedWithRegions)
    func formatSizesAreTheRealIndexes(_ input: RealInput) async throws {
        let label = switch input {
        case .list: "the list alone"
        case .joined: "the list + cities500"
        case .dump: "cities500 alone"
        case .listCountries: "the list + countries"
        case .joinedRegions: "the list + cities500 + admin1 + countries + country names"
        case .dumpRegions: "cities500 + admin1 alone"
        }
        let format = try Self.text(of: "docs/format.md")
        let row = try #require(format.split(separator: "\n").first { $0.hasPrefix("| \(label) |") }, "docs/format.md has no row \(label)")
        let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        let info = try MMSearchProcess.run(["info", await RealIndexes.shared.path(input)]).output
        func value(_ prefix: String) -> String { info.split(separator: "\n").first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) } ?? "" }
        let keys = value("search keys     ").prefix { $0 != " " }
        let nodes = value("search keys     ").split(separator: " ").dropLast().last ?? ""
        let bytes = Double(value("file size       ").prefix { $0 != " " }) ?? 0
        func grouped(_ digits: Substring) -> String { Int(digits).map { $0.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US"))) } ?? "?" }
        #expect(cells.count >= 4 && cells[1] == grouped(keys) && cells[2] == grouped(nodes), "\(row) vs \(info)")
        #expect(cells.count >= 4 && cells[3].hasPrefix(String(format: "%.2f MB", bytes / 1e6)), "\(row): the file is \(Int(bytes)) bytes")
    }

    /// The README's picture: a capture of the search screen, between `<!-- capture: tmux COLSxROWS,
    /// the list joined with cities500, "TYPED" then Down -->` and the end of the block that follows.
    @Test func searchScreenPictureIsWhatTheScreenShows() async throws {
        let readme = try Self.text(of: "README.md")
        let marker = try #require(readme.range(of: "<!-- capture: tmux "), "README.md has no capture of the search screen")
        let comment = readme[marker.upperBound...].prefix { $0 != "\n" }
        let size = comment.prefix { $0 != "," }.split(separator: "x").compactMap { Int($0) }
        let typed = try #require(comment.split(separator: "\"").dropFirst().first.map(String.init))
        #expect(size.count == 2 && comment.hasSuffix("then Down -->"), "\(comment)")
        let block = readme[marker.upperBound...].drop { $0 != "`" }.dropFirst(4)
        let picture = String(block[..<(try #require(block.range(of: "```"))).lowerBound])
        guard size.count == 2 else { return }

        let directory = try await Self.directoryWithTheIndex()
        let window = try TmuxWindow(directory: directory, columns: size[0], rows: size[1])
        defer { window.close(); directory.remove() }
        // The window's shell starts in the test process's directory: `cities.mms` is in `directory`.
        try window.run("cd '\(directory.path)' && \(MMSearchProcess.executable) search; echo status=$?")
        try window.waitFor("the search screen") { $0.contains("Search:") }
        /// The screen line of the selected row (drawn with "> " in front).
        func selected(_ screen: String) -> Int? { screen.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("> ") } }
        try window.type(typed)
        let before = try window.waitFor("the matches of \(typed)") { $0.contains("Search: \(typed)") && $0.contains(" matches") && selected($0) != nil }
        try window.press("Down")
        let screen = try window.waitFor("the selection one row down") { selected($0) == selected(before)! + 1 }
        try window.press("Escape")
        func trimmed(_ text: String) -> String {
            text.split(separator: "\n", omittingEmptySubsequences: false)
                .map { String($0.reversed().drop { $0 == " " }.reversed()) }
                .reversed().drop { $0.isEmpty }.reversed().joined(separator: "\n")
        }
        #expect(trimmed(screen) == trimmed(picture), "the screen shows:\n\(screen)")
    }
}
