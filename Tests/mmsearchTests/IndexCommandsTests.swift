import CMMSearchFormat
import Foundation
import MMSearch
import MMSearchTestSupport
import Testing

/// `get`, `info`, and `build` from gzip input (and without progress when standard error is no terminal).
@Suite struct IndexCommandsTests {
    /// Runs /bin/gzip on `path` (keeping it), giving `path.gz`.
    static func gzip(_ path: String) throws -> String { try GzipTool.compress(path) }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func newCommandsHaveHelp() throws {
        for command in ["search", "get", "info", "near"] {
            let help = try MMSearchProcess.run([command, "--help"])
            #expect(help.status == 0 && help.output.contains("usage: mmsearch \(command)"))
        }
        let overview = try MMSearchProcess.run(["--help"])
        #expect(["search", "get", "info", "near"].allSatisfy { overview.output.contains("mmsearch \($0) ") })
    }

    @Test func getFindsIdsAndReportsUnknownOnes() throws {
        let directory = try CommandLineTests.classicDirectory()
        defer { directory.remove() }
        let index = directory.file("cities.mms")
        let found = try MMSearchProcess.run(["get", "--index", index, "3", "5"])
        #expect(found.status == 0 && found.error.isEmpty)
        #expect(found.output == "Anaheim, US  33.835289, -117.914497  3\nSydney, AU  -33.867851, 151.207321  5\n")
        let someUnknown = try MMSearchProcess.run(["get", "--index", index, "42", "1", "7"])
        #expect(someUnknown.status == 1)
        #expect(someUnknown.output == "Alabama, US  32.75, -86.75  1\n")
        #expect(someUnknown.error.contains("no city with id 42") && someUnknown.error.contains("no city with id 7"))
        for arguments in [["get", "--index", index], ["get", "--index", index, "x1"], ["get", "--index", index, "-3"], ["get", "--index", index, "4294967296"]] {
            #expect(try MMSearchProcess.run(arguments).status == 2, "\(arguments)")
        }
    }

    @Test func infoDescribesTheIndexAndItsSource() throws {
        let directory = try CommandLineTests.classicDirectory()
        defer { directory.remove() }
        let list = try Self.bytes(directory.file("list.json"))
        let result = try MMSearchProcess.run(["info", directory.file("cities.mms")])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n").map(String.init)
        let fileSize = try Self.bytes(directory.file("cities.mms")).count
        #expect(lines.first == "index           \(directory.file("cities.mms"))")
        #expect(lines.contains("format version  \(MMS_FORMAT_VERSION)"))
        #expect(lines.contains("records         6"))
        #expect(lines.contains("file size       \(fileSize) bytes"))
        // The list alone: no other names, one key a name and one a word start (" Spaced" has one), no
        // populations.
        #expect(lines.contains("names           0 besides the records' own"))
        #expect(lines.contains { $0.hasPrefix("search keys     7 (names and word starts), in a trie of ") && $0.hasSuffix(" nodes") })
        #expect(lines.contains("summaries       0 nodes with a stored count and first page (0 first-page entries with the country pages' and near lists')"))
        #expect(lines.contains("population      none (ranked by how the name matched, then alphabetically)"))
        #expect(lines.contains { $0.hasPrefix("checksum        0x") && $0.hasSuffix(" (XXH64, as stored; `mmsearch verify` checks it)") })
        try Self.expectSections(lines, fileSize: fileSize)
        #expect(lines.contains { $0.hasPrefix("source          list.json, \(list.count) bytes of JSON as read (decompressed if gzip), XXH64 0x") })
        #expect(!lines.contains { $0.hasPrefix("joined") })
        let built = try #require(lines.first { $0.hasPrefix("built ") })
        #expect(built.hasSuffix(" UTC") && built.contains("20"))
        #expect(try MMSearchProcess.run(["info"]).status == 2)
        #expect(try MMSearchProcess.run(["info", directory.file("list.json")]).status == 1)
    }

    /// The section lines of `info`: every section of the format, in file order, back to back from the
    /// end of the header at 8-byte boundaries, the last one ending the file.
    static func expectSections(_ lines: [String], fileSize: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let names = ["labels", "nodes", "children", "entries", "summaries", "top pages", "records", "population", "alternates", "names", "id order", "record regions", "regions", "countries", "qualifier names", "spellings", "source", "spatial", "country runs", "entry blocks", "entry deltas", "symbols", "name tables", "place names", "country pages", "alternate blocks", "alternate deltas", "near points", "near lists", "spatial bounds", "record countries", "record name bases"]
        let start = try #require(lines.firstIndex(of: "sections"), sourceLocation: sourceLocation)
        let rows = lines[(start + 1)...].prefix { $0.hasPrefix("  ") }
        #expect(rows.count == names.count, "\(rows)", sourceLocation: sourceLocation)
        var end = MemoryLayout<mms_header>.size
        for (row, name) in zip(rows, names) {
            // "  NAME  LENGTH bytes at offset OFFSET", the name and the length padded to line up.
            #expect(row.hasPrefix("  " + name + " "), "\(row)", sourceLocation: sourceLocation)
            let words = row.dropFirst(2 + name.count).split(separator: " ")
            #expect(words.count == 5 && words[1] == "bytes" && words[2] == "at" && words[3] == "offset", "\(row)", sourceLocation: sourceLocation)
            guard words.count == 5, let length = Int(words[0]), let offset = Int(words[4]) else { continue }
            #expect(offset == (end + 7) / 8 * 8, "\(row): expected at \((end + 7) / 8 * 8)", sourceLocation: sourceLocation)
            end = offset + length
        }
        #expect(end == fileSize, "the sections end at \(end), the file at \(fileSize)", sourceLocation: sourceLocation)
    }

    /// A gzip list builds the very same index as the plain one (but for the source name and time),
    /// whatever the file is called, and SOURCE describes the decompressed JSON.
    @Test func buildReadsGzipInput() throws {
        let directory = try CommandLineTests.classicDirectory()
        defer { directory.remove() }
        let compressed = try Self.gzip(directory.file("list.json"))
        try FileManager.default.copyItem(atPath: compressed, toPath: directory.file("list-without-suffix"))
        for input in [compressed, directory.file("list-without-suffix")] {
            let output = directory.file("from-gzip.mms")
            let build = try MMSearchProcess.run(["build", input, "-o", output])
            #expect(build.status == 0, "\(build.error)")
            let plain = try MMSearchProcess.run(["query", "--index", directory.file("cities.mms"), "--limit", "10", ""])
            let fromGzip = try MMSearchProcess.run(["query", "--index", output, "--limit", "10", ""])
            #expect(fromGzip.output == plain.output && plain.output.hasSuffix("6 matches\n"))
            let plainInfo = try CityIndex(path: directory.file("cities.mms")).info().source
            let gzipInfo = try CityIndex(path: output).info().source
            #expect(gzipInfo.size == plainInfo.size && gzipInfo.checksum == plainInfo.checksum)
            #expect(gzipInfo.name == FilePaths.fileName(of: input))
        }
    }

    /// Concatenated gzip members are one list, as gunzip reads them.
    @Test func buildReadsConcatenatedGzipMembers() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Data("[{\"_id\":1,\"name\":\"Alpha\",\"country\":\"US\",\"coord\":{\"lon\":1,\"lat\":2}},\n".utf8).write(to: URL(fileURLWithPath: directory.file("a")))
        try Data(" {\"_id\":2,\"name\":\"Beta\",\"country\":\"US\",\"coord\":{\"lon\":1,\"lat\":2}}]".utf8).write(to: URL(fileURLWithPath: directory.file("b")))
        let joined = try Self.bytes(try Self.gzip(directory.file("a"))) + Self.bytes(try Self.gzip(directory.file("b")))
        try joined.write(to: URL(fileURLWithPath: directory.file("list.json.gz")))
        let build = try MMSearchProcess.run(["build", directory.file("list.json.gz"), "-o", directory.file("cities.mms")])
        #expect(build.status == 0, "\(build.error)")
        #expect(try MMSearchProcess.run(["query", "--index", directory.file("cities.mms"), ""]).output.hasSuffix("2 matches\n"))
    }

    /// Corrupt, truncated and trailing data: exit 1 with a clear message and the byte offset, and the
    /// index already at the output left alone.
    @Test func corruptGzipIsAClearError() throws {
        let directory = try CommandLineTests.classicDirectory()
        defer { directory.remove() }
        let good = try Self.bytes(try Self.gzip(directory.file("list.json")))
        let before = try Self.bytes(directory.file("cities.mms"))
        var flipped = good
        flipped[good.count / 2] ^= 0xFF
        var badChecksum = good
        badChecksum[good.count - 6] ^= 0x01 // in the CRC-32 of the trailer
        let cases: [(Data, String)] = [
            (good.prefix(good.count - 10), "truncated gzip data"),
            (flipped, "corrupt gzip data"),
            (badChecksum, "corrupt gzip data: incorrect data check"),
            (good + Data("junk".utf8), "unexpected bytes after the end of the gzip data (byte \(good.count) of the compressed file)"),
        ]
        for (bytes, message) in cases {
            try bytes.write(to: URL(fileURLWithPath: directory.file("bad.json.gz")))
            let result = try MMSearchProcess.run(["build", directory.file("bad.json.gz"), "-o", directory.file("cities.mms")])
            #expect(result.status == 1)
            #expect(result.error.contains("bad.json.gz: \(message)"), "\(result.error)")
            #expect(result.error.contains("(byte ") && result.error.contains("of the compressed file)"))
            #expect(try Self.bytes(directory.file("cities.mms")) == before)
        }
    }

    /// Progress is for terminals: with standard error a pipe, build prints its two usual lines only.
    @Test func buildShowsNoProgressWhenStandardErrorIsNoTerminal() throws {
        let directory = try CommandLineTests.classicDirectory()
        defer { directory.remove() }
        let result = try MMSearchProcess.run(["build", directory.file("list.json"), "-o", directory.file("again.mms")])
        #expect(result.status == 0)
        #expect(!result.error.contains("\r") && !result.error.contains("\u{1B}") && !result.error.contains("records read"))
        #expect(result.error.split(separator: "\n").count == 2) // the empty-country warning and "wrote"
    }
}
