import CFuzzerDriver
#if canImport(FoundationEssentials) && !MMSEARCH_USE_FOUNDATION
import FoundationEssentials // Linux: Foundation without ICU
#else
import Foundation // Apple platforms have no FoundationEssentials
#endif
import MMSearch
import MMSearchHTTP

/// Treats arbitrary bytes as what a client sent: parses requests from them as a connection does (one
/// after another while whole ones come), and decodes each target. Any outcome but a crash, a hang or
/// an out-of-bounds read is fine; the parser must also never claim more bytes than it was given.
enum RequestFuzzer {
    static func exercise(_ bytes: [UInt8]) {
        var consumed = 0
        while consumed < bytes.count {
            let outcome = bytes.withUnsafeBytes { HTTPRequestParser.parse(UnsafeRawBufferPointer(rebasing: $0[consumed...])) }
            guard case .request(let request, let length) = outcome else { return }
            precondition(length > 0 && consumed + length <= bytes.count, "the parser claimed \(length) bytes of \(bytes.count - consumed)")
            _ = try? HTTPTarget(request.target)
            _ = request.header("Host")
            consumed += length
        }
    }
}

/// Built with `-sanitize=fuzzer -DLIBFUZZER` (tools/fuzz-http.sh), main hands over to libFuzzer;
/// without, it replays the files named on the command line (a corpus, or a crash to debug).
@main
enum FuzzMain {
    static func main() throws {
        #if LIBFUZZER
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            RequestFuzzer.exercise(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
            return 0
        }
        SystemCall.exit(status)
        #else
        let paths = CommandLine.arguments.dropFirst()
        for path in paths {
            RequestFuzzer.exercise(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        }
        print("replayed \(paths.count) inputs")
        #endif
    }
}
