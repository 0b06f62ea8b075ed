import CMMSearchFormat
import MMSearch
import MMSearchTestSupport
import Testing

/// `mmsearch --version` and `-V` name the release and the index format the binary reads, the latter
/// straight from the format header's `MMS_FORMAT_VERSION`.
@Suite struct VersionTests {
    @Test(arguments: ["--version", "-V"])
    func printsTheReleaseAndTheIndexFormat(_ flag: String) throws {
        let result = try MMSearchProcess.run([flag])
        #expect(result.status == 0)
        #expect(result.error.isEmpty)
        #expect(result.output == "mmsearch \(MMSearchVersion.version) (index format \(MMS_FORMAT_VERSION))\n")
        #expect(result.output.contains(MMSearchVersion.version))
        #expect(result.output.contains("index format \(MMS_FORMAT_VERSION)"))
    }

    /// One place for the release, and it reads as MAJOR.MINOR.PATCH.
    @Test func theReleaseIsThreeNumbers() {
        let parts = MMSearchVersion.version.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
        #expect(MMSearchVersion.indexFormat == MMS_FORMAT_VERSION)
    }
}
