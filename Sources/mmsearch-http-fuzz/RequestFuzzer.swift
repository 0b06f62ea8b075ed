import FuzzerMain
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

@main
enum FuzzMain {
    static func main() throws { try FuzzerMain.run { RequestFuzzer.exercise(Array($0)) } }
}
