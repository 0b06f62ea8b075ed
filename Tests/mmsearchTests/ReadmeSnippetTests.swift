import Foundation
import MMSearchTestSupport
import Testing

/// The README's library snippet compiles: it is cut out from between its marker comments and
/// type-checked with `swiftc` against the MMSearch module this test run built.
@Suite struct ReadmeSnippetTests {
    static let startMarker = "<!-- snippet:library"
    static let endMarker = "<!-- /snippet:library -->"

    /// The Swift code between the markers, without the Markdown fence.
    static func librarySnippet() throws -> String {
        let readme = try String(contentsOfFile: SharedData.packageRoot + "/README.md", encoding: .utf8)
        let start = try #require(readme.range(of: startMarker), "README.md has no \(startMarker) marker")
        let end = try #require(readme.range(of: endMarker, range: start.upperBound ..< readme.endIndex), "README.md has no \(endMarker) marker")
        let block = readme[start.upperBound ..< end.lowerBound]
        let code = try #require(block.range(of: "```swift\n")).upperBound
        let close = try #require(block.range(of: "```", range: code ..< block.endIndex)).lowerBound
        return String(block[code ..< close])
    }

    @Test func librarySnippetTypeChecks() throws {
        let snippet = try Self.librarySnippet()
        #expect(snippet.contains("import MMSearch") && snippet.contains("index.search("))
        // The build folder holding the mmsearch binary also holds the modules and the C module maps.
        let products = URL(fileURLWithPath: MMSearchProcess.executable).deletingLastPathComponent().path
        let moduleMaps = try FileManager.default.contentsOfDirectory(atPath: products)
            .filter { $0.hasSuffix(".build") }
            .map { "\(products)/\($0)/module.modulemap" }
            .filter { FileManager.default.fileExists(atPath: $0) }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.file("main.swift")
        try snippet.write(toFile: source, atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc", "-typecheck", "-I", products + "/Modules"]
            + moduleMaps.flatMap { ["-Xcc", "-fmodule-map-file=\($0)"] } + [source]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = errors
        try process.run()
        let messages = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "the README's library snippet does not compile:\n\(messages)")
    }
}
