import CFuzzerDriver
#if canImport(FoundationEssentials) && !MMSEARCH_USE_FOUNDATION
import FoundationEssentials // Linux: Foundation without ICU
#else
import Foundation // Apple platforms have no FoundationEssentials
#endif
import MMSearch

/// The main of every fuzz target. Built with `-sanitize=fuzzer -DLIBFUZZER` (tools/fuzz.sh,
/// tools/fuzz-http.sh), it hands over to libFuzzer; without, it replays the files named on the command
/// line (a corpus, or a crash to debug).
public enum FuzzerMain {
    /// What libFuzzer's callback runs: a C function pointer cannot capture it.
    nonisolated(unsafe) private static var exercise: (Data) -> Void = { _ in }

    public static func run(_ exercise: @escaping (Data) -> Void) throws {
        #if LIBFUZZER
        Self.exercise = exercise
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        SystemCall.exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            FuzzerMain.exercise(data.map { Data(bytes: $0, count: size) } ?? Data())
            return 0
        })
        #else
        let paths = CommandLine.arguments.dropFirst()
        for path in paths {
            exercise(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        print("replayed \(paths.count) inputs")
        #endif
    }
}
