import Foundation
#if canImport(Testing) // a release build of every target (tools/release-build.sh, CI) has no Testing module
import Testing
#endif

/// Whether this run is the full one: `MMSEARCH_FULL_TESTS=1` in the environment (`.ci/run` sets it).
/// Without it, `swift test` is the quick run: the acceptance tests compare with the references on a
/// fixed sample of their queries, and the tests that only the full run makes show as skipped.
public enum FullTests {
    public static let variable = "MMSEARCH_FULL_TESTS"
    public static let enabled = ProcessInfo.processInfo.environment[variable] == "1"

    /// `full` in the full run, else `quick`: how many queries (or cases) a test asks.
    public static func count(quick: Int, full: Int) -> Int { enabled ? full : quick }
}

#if canImport(Testing)
extension Trait where Self == ConditionTrait {
    /// A test that only the full run makes; the quick run shows it as skipped, saying why.
    public static var fullRunOnly: Self {
        .enabled(if: FullTests.enabled, Comment(rawValue: "exhaustive: runs with \(FullTests.variable)=1"))
    }
}
#endif
