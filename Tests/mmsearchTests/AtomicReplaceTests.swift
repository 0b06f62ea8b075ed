import Foundation
import MMSearch
import MMSearchTestSupport
import Testing

/// The builder writes a temporary file beside the output and renames it over: killing it at any
/// moment must leave the index already at the output untouched and answering.
@Suite(.serialized) struct AtomicReplaceTests {
    /// The size of the temporary file the build of `output` (by process `pid`) is writing, if any.
    static func temporarySize(of output: String, pid: Int32) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: "\(output).tmp-\(pid)"))?[.size] as? Int
    }

    @Test func killingTheBuilderNeverHarmsTheOldIndex() async throws {
        let directory = try CommandLineTests.classicDirectory()
        defer { directory.remove() }
        let output = directory.file("cities.mms")
        let old = try Data(contentsOf: URL(fileURLWithPath: output))
        let expected = try CityIndex(path: output).search("al").map(\.id)
        // The size the real list's index will have, to aim kills at fractions of the write.
        let finalSize = try FileManager.default.attributesOfItem(atPath: await RealIndexes.shared.path(.list))[.size] as! Int

        var killedMidWrite = 0
        var random = SeededRandom(seed: 5)
        // Kill points: at random moments of the run, and as the temporary file reaches fractions of its
        // size. Each is most of a debug build of the real list (about 20 s): the quick run kills one,
        // halfway through the write.
        let plans: [Double?] = FullTests.enabled ? [nil, nil, nil, nil, 0.0, 0.0, 0.25, 0.5, 0.75, 0.9, 1.0, 1.0] : [0.5]
        for plan in plans {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: MMSearchProcess.executable)
            process.arguments = ["build", SharedData.cityList, "-o", output]
            process.standardError = FileHandle.nullDevice
            try process.run()
            let pid = process.processIdentifier
            if let fraction = plan {
                let deadline = Date().addingTimeInterval(180) // a debug build of the list on a busy machine: up to a minute
                while process.isRunning, Date() < deadline {
                    if let size = Self.temporarySize(of: output, pid: pid), size >= Int(Double(finalSize) * fraction) { break }
                    usleep(50)
                }
            } else {
                usleep(UInt32.random(in: 0 ..< 3_000_000, using: &random))
            }
            let wasWriting = Self.temporarySize(of: output, pid: pid) != nil
            kill(pid, SIGKILL)
            process.waitUntilExit()
            let current = try Data(contentsOf: URL(fileURLWithPath: output))
            if current == old {
                if wasWriting { killedMidWrite += 1 }
                let index = try CityIndex(path: output)
                #expect(try index.search("al").map(\.id) == expected)
                try index.verify()
            } else {
                // The kill came after the rename, or the build had finished (a release build of the
                // list takes about a second): the new index must then be whole.
                #expect(process.terminationReason == .uncaughtSignal || process.terminationStatus == 0)
                try CityIndex(path: output).verify()
                try old.write(to: URL(fileURLWithPath: output))
            }
            try? FileManager.default.removeItem(atPath: "\(output).tmp-\(pid)")
        }
        #expect(killedMidWrite >= FullTests.count(quick: 1, full: 4), "only \(killedMidWrite) kills landed while the temporary file was being written")
    }

    /// A reader keeps its mapping of the old file after a new index is renamed over the name: it goes
    /// on answering from the old one, and a new open sees the new one.
    @Test func readersKeepTheOldIndexAcrossARename() throws {
        let directory = try CommandLineTests.classicDirectory()
        defer { directory.remove() }
        let output = directory.file("cities.mms")
        let old = try CityIndex(path: output)
        let before = try old.search("a").map(\.id)
        // A bigger list, so the new file differs in every section.
        let cities = (1 ... 2_000).map { #"{"_id":\#($0),"name":"A\#($0)","country":"US","coord":{"lon":1,"lat":2}}"# }
        try Data(("[" + cities.joined(separator: ",") + "]").utf8).write(to: URL(fileURLWithPath: directory.file("bigger.json")))
        #expect(try MMSearchProcess.run(["build", directory.file("bigger.json"), "-o", output]).status == 0)
        #expect(try old.search("a").map(\.id) == before)
        try old.verify()
        let new = try CityIndex(path: output)
        #expect(new.count == 2_000)
        #expect(try new.search("a").count > before.count)
    }
}
