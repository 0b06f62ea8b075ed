import Foundation
import MMSearchTestSupport

/// rank.py's answers (`../shared/peers/rank.py`, the normative definition), from one Python process
/// per real input that loads the data once and makes its index once per match mode
/// (`Tests/reference/rank_server.py`), then answers every run the tests of this process ask of them.
/// A run of rank.py itself does both each time: about 16 s for the joined list with regions, most of
/// what the acceptance tests spent waiting. (One process per input, not per input and mode: loading
/// the data is most of a server's start, and a full run starts them all at once on a few cores.)
final class RankPy: @unchecked Sendable {
    static let shared = RankPy()

    static let server = SharedData.packageRoot + "/Tests/reference/rank_server.py"

    /// One run's options, as rank.py takes them.
    struct Options: Sendable {
        var match = "words"
        var order = "rank"
        var typos = "off"
        var limit = 20
    }

    /// The process of one input: asked by one test at a time.
    private final class Server: @unchecked Sendable {
        let lock = NSLock()
        var started: Result<(process: Process, input: FileHandle, output: LineReader), RankAcceptanceTests.Failure>?
    }

    private let servers: [RealInput: Server] = Dictionary(uniqueKeysWithValues: RealInput.allCases.map { ($0, Server()) })

    /// rank.py's answers to `queries` on `input`, one a query, in order (first page `options.limit` long).
    func answers(_ input: RealInput, _ options: Options, _ queries: [String]) throws -> [RankAcceptanceTests.Answer] {
        let request: [String: Any] = ["match": options.match, "order": options.order, "typos": options.typos, "offset": 0, "limit": options.limit, "queries": queries]
        let parsed = try RankAcceptanceTests.answers(try answerLines(input, match: options.match, request), idsKey: "ids")
        guard parsed.count == queries.count else {
            throw RankAcceptanceTests.Failure(description: "rank.py \(input) \(options): \(parsed.count) answers to \(queries.count) queries")
        }
        for (query, answer) in zip(queries, parsed) where answer.query != query {
            throw RankAcceptanceTests.Failure(description: "rank.py \(input) \(options) answered \(answer.query.debugDescription) for \(query.debugDescription)")
        }
        return parsed
    }

    /// rank_server.py's answer to one `request` (its JSON object, `match` the request's match mode) on
    /// `input`: the JSON lines it printed, each with its line break, before its "end".
    func answerLines(_ input: RealInput, match: String, _ request: [String: Any]) throws -> Data {
        guard ["words", "name"].contains(match), let server = servers[input] else {
            throw RankAcceptanceTests.Failure(description: "rank.py has no match mode \(match.debugDescription)")
        }
        server.lock.lock()
        defer { server.lock.unlock() }
        if server.started == nil { server.started = Self.start(input) }
        let (process, requests, output) = try server.started!.get()
        var line = try JSONSerialization.data(withJSONObject: request)
        line.append(UInt8(ascii: "\n"))
        do {
            try requests.write(contentsOf: line)
        } catch {
            throw RankAcceptanceTests.Failure(description: "rank_server.py \(input) (status \(process.isRunning ? "running" : "\(process.terminationStatus)")) took no request: \(error)")
        }
        var answered = Data()
        while true {
            guard let answer = output.next() else {
                process.waitUntilExit()
                let failure = RankAcceptanceTests.Failure(description: "rank_server.py \(input) exited with \(process.terminationStatus) before it answered")
                server.started = .failure(failure)
                throw failure
            }
            if answer == Data("end".utf8) { break }
            answered.append(answer)
            answered.append(UInt8(ascii: "\n"))
        }
        return answered
    }

    private static func start(_ input: RealInput) -> Result<(process: Process, input: FileHandle, output: LineReader), RankAcceptanceTests.Failure> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", server, RealData.shared + "/peers"] + input.rankArguments
        process.environment = ProcessInfo.processInfo.environment.merging(["PYTHONIOENCODING": "utf-8", "PYTHONUTF8": "1"]) { $1 }
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        _ = MMSearchProcess.ignoreBrokenPipes
        do {
            try process.run()
        } catch {
            return .failure(RankAcceptanceTests.Failure(description: "rank_server.py \(input) did not start: \(error)"))
        }
        return .success((process, stdin.fileHandleForWriting, LineReader(stdout.fileHandleForReading)))
    }
}

/// The lines of a pipe, read as they come.
final class LineReader: @unchecked Sendable {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    /// Where the next line starts in `buffer`.
    private var start = 0

    init(_ handle: FileHandle) { self.handle = handle }

    /// The next line without its line break, or nil at the end of the output.
    func next() -> Data? {
        while true {
            if let end = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                defer { start = end + 1 }
                return Data(buffer[start ..< end])
            }
            buffer.removeFirst(start)
            start = 0
            let chunk = handle.availableData
            if chunk.isEmpty {
                guard !buffer.isEmpty else { return nil }
                defer { buffer = [] }
                return Data(buffer)
            }
            buffer += chunk
        }
    }
}
