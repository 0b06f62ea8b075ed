import Foundation
@testable import MMSearch
import MMSearchBuilder
import MMSearchTestSupport
import Testing

/// The C library wrappers the reader itself uses (SystemCall.swift).
struct SystemCallTests {
    /// A relative path is made absolute against the working directory, as Foundation's own
    /// `currentDirectoryPath` names it; an absolute or empty one is left as it is. (The tests share one
    /// process, so none of them changes the working directory.)
    @Test(arguments: ["cities.mms", "data/cities.mms", "./x.mms", "../up/x.mms", "Zürich/città.mms", "a b/c"])
    func relativePathsBecomeAbsolute(_ path: String) {
        let directory = FileManager.default.currentDirectoryPath
        let expected = directory.hasSuffix("/") ? directory + path : directory + "/" + path
        #expect(SystemCall.absolutePath(path) == expected)
    }

    /// A working directory longer than the first buffer is read into the second.
    @Test func aDirectoryLongerThanTheFirstBufferIsReadIntoTheSecond() {
        let directory = FileManager.default.currentDirectoryPath
        let expected = directory.hasSuffix("/") ? directory + "cities.mms" : directory + "/cities.mms"
        // getcwd needs the name's length plus its end byte: both of these are short by at least one.
        #expect(SystemCall.absolutePath("cities.mms", firstCapacity: 1) == expected)
        #expect(SystemCall.absolutePath("cities.mms", firstCapacity: directory.utf8.count) == expected)
    }

    @Test(arguments: ["/tmp/cities.mms", "/", ""])
    func absoluteAndEmptyPathsStayAsTheyAre(_ path: String) {
        #expect(SystemCall.absolutePath(path) == path)
    }

    /// An index named by a path relative to the working directory opens, and reads as the same index
    /// named absolutely.
    @Test func anIndexOpensByARelativePath() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let records = [SourceRecord(id: 1, name: Array("Zürich".utf8), country: Array("CH".utf8), latitudeE7: 0, longitudeE7: 0)]
        let source = SourceDescription(name: "fixture.json", size: 1, checksum: 1, builtAt: 0)
        try IndexBuilder.writeAtomically(IndexBuilder.makeIndex(records: records, source: source).bytes, to: directory.file("cities.mms"))
        // Up from the working directory to the root, then down to the file.
        let depth = FileManager.default.currentDirectoryPath.split(separator: "/").count
        let relative = String(repeating: "../", count: depth) + directory.file("cities.mms").drop { $0 == "/" }
        let byRelative = try CityIndex(path: relative)
        let byAbsolute = try CityIndex(path: directory.file("cities.mms"))
        #expect(try byRelative.search("zur").cities(in: 0 ..< 1).map(\.id) == [1])
        #expect(byRelative.fileSize == byAbsolute.fileSize)
        #expect(throws: MMSearchError.self) { try CityIndex(path: relative + ".missing") }
    }
}
