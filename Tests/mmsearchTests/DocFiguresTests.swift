import Foundation
import MMSearchTestSupport
import Testing

/// The docs quote benchmark figures from one report, `Benchmarks/RESULTS.md`: every timing or ratio in
/// README.md and docs/*.md (a number with ns, µs, ms, a decimal number of s, or ×) must appear in it
/// as written, so a new report makes a stale figure fail here until the docs are updated with it.
/// A section whose heading says "Measured outside Benchmarks/run.sh" is not checked: it holds
/// one-off measurements, each with how it was made.
@Suite struct DocFiguresTests {
    static let figure = try! NSRegularExpression(
        pattern: #"(?<![\d.,])(?:\d[\d,]*(?:\.\d+)? ?(?:ns|\u00B5s|ms)(?!\w)|\d[\d,]*(?:\.\d+)?×|\d+\.\d+ s(?!\w))"#)

    static func read(_ document: String) throws -> String {
        try String(contentsOfFile: SharedData.packageRoot + "/" + document, encoding: .utf8)
    }

    /// The checked text of a document: without the sections measured outside run.sh.
    static func checkedText(_ text: String) -> String {
        var kept: [Substring] = [], skipping = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#") { skipping = line.contains("Measured outside Benchmarks/run.sh") }
            if !skipping { kept.append(line) }
        }
        return kept.joined(separator: "\n")
    }

    static func figures(in text: String) -> [String] {
        figure.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { String(text[Range($0.range, in: text)!]) }
    }

    /// Whether `figure` is in `results` as a whole figure (not the end of a longer number).
    static func quoted(_ figure: String, in results: String) -> Bool {
        let escaped = NSRegularExpression.escapedPattern(for: figure)
        return results.range(of: #"(?<![\d.,])"# + escaped, options: .regularExpression) != nil
    }

    @Test func figuresAreFoundAsWritten() {
        #expect(Self.figures(in: "998.4 µs (1.17× look), 2.51 s, 8 ms and 1,036× but not 3 s or 40 MB") == ["998.4 µs", "1.17×", "2.51 s", "8 ms", "1,036×"])
        #expect(Self.quoted("1 µs", in: "at most 1 µs") && !Self.quoted("1 µs", in: "971 µs") && !Self.quoted("1.1 µs", in: "31.1 µs"))
        #expect(Self.checkedText("a 1 ms\n## Measured outside Benchmarks/run.sh\nb 2 ms\n## Next\nc 3 ms") == "a 1 ms\n## Next\nc 3 ms")
    }

    @Test func everyQuotedFigureIsInTheResults() throws {
        let results = try Self.read("Benchmarks/RESULTS.md")
        var checked = 0
        for document in DocExamplesTests.documents {
            for figure in Self.figures(in: Self.checkedText(try Self.read(document))) {
                let found = Self.quoted(figure, in: results) // not in the #expect: its failure would print all of RESULTS.md
                #expect(found, "\(document) quotes \(figure), which Benchmarks/RESULTS.md does not have")
                checked += 1
            }
        }
        #expect(checked > 30, "only \(checked) figures found in the docs")
    }
}
