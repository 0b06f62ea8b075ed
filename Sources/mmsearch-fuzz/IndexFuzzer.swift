import CFuzzerDriver
#if canImport(FoundationEssentials) && !MMSEARCH_USE_FOUNDATION
import FoundationEssentials // Linux: Foundation without ICU
#else
import Foundation // Apple platforms have no FoundationEssentials
#endif
import MMSearch

/// Treats arbitrary bytes as an index: opens it, runs queries, reads every record of each answer's
/// first and last pages, and verifies it. Any outcome but a crash, a hang or an out-of-bounds read is
/// fine: a thrown error is the expected answer to most inputs.
enum IndexFuzzer {
    static let queries = ["", "a", "al", "lo", "lond", "london, gb", "s", "sao paulo", "ü", "z", ", ", "\u{0}", "aaaaaaaaaaaaaaaa"]

    static func exercise(_ bytes: Data) {
        guard let index = try? CityIndex(bytes: bytes, path: "fuzz.mms") else { return }
        for query in queries {
            guard let results = try? index.search(query) else { continue }
            let positions = Array(0 ..< min(results.count, 25)) + Array(max(0, results.count - 5) ..< results.count)
            for position in positions { _ = try? results.city(at: position) }
        }
        _ = try? index.verify()
    }
}

/// Built with `-sanitize=fuzzer -DLIBFUZZER` (tools/fuzz.sh), main hands over to libFuzzer; without,
/// it replays the files named on the command line (a corpus, or a crash to debug).
@main
enum FuzzMain {
    static func main() throws {
        #if LIBFUZZER
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        SystemCall.exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            IndexFuzzer.exercise(data.map { Data(bytes: $0, count: size) } ?? Data())
            return 0
        })
        #else
        let paths = CommandLine.arguments.dropFirst()
        for path in paths {
            IndexFuzzer.exercise(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        print("replayed \(paths.count) inputs")
        #endif
    }
}
