import Foundation
import MMSearchTestSupport
import Testing

/// `tools/install.sh`, the README's first command: it installs into a prefix, says whether the prefix
/// is on the PATH, and uninstalls. It installs the binary this test run built (`--binary`): the
/// release build it makes without one takes minutes, and is the same script CI runs.
@Suite struct InstallScriptTests {
    static let script = SharedData.packageRoot + "/tools/install.sh"

    static func install(_ arguments: [String], path: String) throws -> ExternalProcess.Outcome {
        try ExternalProcess.run(script, arguments, input: Data(), environment: ["PATH": path])
    }

    @Test func installsRunsAndUninstalls() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let prefix = directory.file("prefix with space")
        let installed = prefix + "/bin/mmsearch"
        let systemPath = "/usr/local/bin:/usr/bin:/bin"

        let install = try Self.install(["--prefix", prefix, "--binary", MMSearchProcess.executable], path: systemPath)
        let said = String(decoding: install.output, as: UTF8.self)
        #expect(install.status == 0, "\(install.error)")
        let version = try MMSearchProcess.run(["--version"]).output
        #expect(said.hasPrefix("installed \(installed) (\(version.dropLast()))\n"), "\(said)")
        #expect(said.contains("\(prefix)/bin is not on your PATH"), "\(said)")
        let ran = try ExternalProcess.run(installed, ["--version"], input: Data())
        #expect(ran.status == 0 && String(decoding: ran.output, as: UTF8.self) == version)

        // Again, with the prefix on the PATH: replaced in place, and found.
        let again = try Self.install(["--prefix", prefix, "--binary", MMSearchProcess.executable], path: prefix + "/bin:" + systemPath)
        #expect(again.status == 0)
        #expect(String(decoding: again.output, as: UTF8.self).contains("\(prefix)/bin is on your PATH: `mmsearch` runs it"))

        let uninstall = try Self.install(["--prefix", prefix, "--uninstall"], path: systemPath)
        #expect(uninstall.status == 0 && String(decoding: uninstall.output, as: UTF8.self) == "removed \(installed)\n")
        #expect(!FileManager.default.fileExists(atPath: installed))
        #expect(try FileManager.default.contentsOfDirectory(atPath: prefix + "/bin").isEmpty, "no temporary copy left behind")
    }

    @Test func badUsageExitsTwo() throws {
        for arguments in [["--prefix"], ["--no-such-flag"], ["--binary"]] {
            let run = try Self.install(arguments, path: "/usr/bin:/bin")
            #expect(run.status == 2 && run.error.contains("usage: tools/install.sh"), "\(arguments): \(run.error)")
        }
        let missing = try Self.install(["--prefix", "/nonexistent", "--binary", "/nonexistent/mmsearch"], path: "/usr/bin:/bin")
        #expect(missing.status == 1 && missing.error.contains("is not an executable"))
    }
}
