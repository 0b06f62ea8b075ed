import Foundation
import MMSearch
import MMSearchTestSupport
import Testing

/// `mmsearch build` on bad lists: a message with file:line:column and what was expected, exit 1, and
/// no output file. (CityListParserTests checks the parser's every rule; this checks the command.)
@Suite struct BadInputTests {
    static let good = #"{"_id":1,"name":"Hurzuf","country":"UA","coord":{"lon":34.283333,"lat":44.549999}}"#

    struct BadList: CustomTestStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]
        /// "line:column" where the error is, and a fragment of the message.
        let place: String
        let message: String
        var testDescription: String { name }

        init(_ name: String, _ text: String, _ place: String, _ message: String) {
            self.init(name, Array(text.utf8), place, message)
        }

        init(_ name: String, _ bytes: [UInt8], _ place: String, _ message: String) {
            self.name = name
            self.bytes = bytes
            self.place = place
            self.message = message
        }
    }

    static let lists: [BadList] = [
        BadList("truncated", "[\(good),\n" + String(good.prefix(40)), "2:41", "unexpected end of input"),
        BadList("wrong type", #"[{"_id":"1","name":"A","country":"UA","coord":{"lon":1,"lat":2}}]"#, "1:9", #"expected a number for "_id""#),
        BadList("missing field", #"[{"_id":1,"name":"A","coord":{"lon":1,"lat":2}}]"#, "1:", #"missing field "country""#),
        BadList("invalid UTF-8", Array(#"[{"_id":1,"name":"A"#.utf8) + [0xFF] + Array(#"","country":"UA","coord":{"lon":1,"lat":2}}]"#.utf8), "1:20", "invalid UTF-8"),
        BadList("NaN", #"[{"_id":1,"name":"A","country":"UA","coord":{"lon":NaN,"lat":2}}]"#, "1:52", "NaN"),
        BadList("latitude out of range", #"[{"_id":1,"name":"A","country":"UA","coord":{"lon":1,"lat":90.5}}]"#, "1:", #""lat" must be from -90 to 90"#),
        BadList("huge name", #"[{"_id":1,"name":""# + String(repeating: "x", count: 70_000) + #"","country":"UA","coord":{"lon":1,"lat":2}}]"#, "1:18", "65535"),
        BadList("deep nesting", #"[{"x":"# + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + #","_id":1}]"#, "1:", "nesting deeper than 64"),
        BadList("empty array", "[\n]", "2:1", "the list is empty"),
        BadList("duplicate ids", "[\(good),\n\(good)]", "2:8", #"duplicate "_id" 1; the first is at line 1:9"#),
        BadList("trailing garbage", "[\(good)] extra", "1:", "expected end of input after the array"),
        // Input that does not start with '[' is read as a GeoNames dump (told apart by content), whose
        // errors say what a dump row needs.
        BadList("not an array", #"{"cities":[]}"#, "1:1", "expected 19 tab-separated columns, found 1"),
        BadList("empty file", "", "1:1", "expected at least one GeoNames row, found an empty input"),
        BadList("array after a byte order mark and blank lines", [0xEF, 0xBB, 0xBF] + Array(" \n\n[\(good),\n 7]".utf8), "4:2", "expected '{' to start a record, found a number"),
    ]

    @Test(arguments: lists)
    func badListIsRefused(_ list: BadList) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let input = directory.file("bad.json")
        try Data(list.bytes).write(to: URL(fileURLWithPath: input))
        let result = try MMSearchProcess.run(["build", input, "-o", directory.file("out.mms")])
        #expect(result.status == 1)
        #expect(result.error.contains("bad.json:\(list.place)"), "\(result.error)")
        #expect(result.error.contains(list.message), "\(result.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["bad.json"])
    }

    @Test func byteOrderMarkIsAccepted() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Data([0xEF, 0xBB, 0xBF] + Array("[\(Self.good)]".utf8)).write(to: URL(fileURLWithPath: directory.file("bom.json")))
        let result = try MMSearchProcess.run(["build", directory.file("bom.json"), "-o", directory.file("out.mms")])
        #expect(result.status == 0)
        #expect(try CityIndex(path: directory.file("out.mms")).search("hurz").count == 1)
    }

    /// --skip-invalid leaves out records with bad content, says how many and why, and keeps the rest;
    /// a broken structure still stops the build.
    @Test func skipInvalidKeepsTheValidRecords() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let list = """
            [{"_id":1,"name":"Alabama","country":"US","coord":{"lon":1,"lat":2}},
             {"_id":2,"name":"Bad","country":"USA","coord":{"lon":1,"lat":2}},
             {"_id":3,"name":"Arizona","country":"US","coord":{"lon":1,"lat":200}},
             {"_id":1,"name":"Again","country":"US","coord":{"lon":1,"lat":2}},
             {"_id":4,"name":"Anaheim","country":"US","coord":{"lon":1,"lat":2}}]
            """
        try Data(list.utf8).write(to: URL(fileURLWithPath: directory.file("list.json")))
        let strict = try MMSearchProcess.run(["build", directory.file("list.json"), "-o", directory.file("strict.mms")])
        #expect(strict.status == 1 && strict.error.contains("list.json:2:"))
        let skipping = try MMSearchProcess.run(["build", "--skip-invalid", directory.file("list.json"), "-o", directory.file("out.mms")])
        #expect(skipping.status == 0)
        #expect(skipping.error.contains("skipped 3 invalid records"))
        #expect(skipping.error.contains("list.json:2:") && skipping.error.contains("list.json:3:") && skipping.error.contains("list.json:4:"))
        #expect(try CityIndex(path: directory.file("out.mms")).search("a").map(\.id) == [1, 4])

        try Data((list.dropLast() + ",]").utf8).write(to: URL(fileURLWithPath: directory.file("broken.json")))
        let broken = try MMSearchProcess.run(["build", "--skip-invalid", directory.file("broken.json"), "-o", directory.file("broken.mms")])
        #expect(broken.status == 1 && broken.error.contains("broken.json:5:"))
        #expect(!FileManager.default.fileExists(atPath: directory.file("broken.mms")))
    }
}
