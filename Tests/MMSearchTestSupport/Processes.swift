import Foundation

/// Runs the built `mmsearch` binary (it sits beside the test bundle in the build folder).
public struct MMSearchProcess {
    public static let executable: String = {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.path != "/" {
            url.deleteLastPathComponent()
            let candidate = url.appendingPathComponent("mmsearch").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return "mmsearch"
    }()

    public struct Outcome {
        public let status: Int32
        public let output: String
        public let error: String
    }

    /// A child that exits before reading all its input (a fast static binary refusing its arguments)
    /// makes writing to its standard input fail: with SIGPIPE ignored that is an error the writer
    /// drops, not the death of the whole test process.
    public static let ignoreBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    public static func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:], in directory: String? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["MMSEARCH_INDEX"] = nil
        env["MMSEARCH_DATA"] = nil
        env.merge(environment) { $1 }
        process.environment = env
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let stdout = Pipe(), stderr = Pipe(), stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = stdin
        try process.run()
        // Read both pipes while the process runs, so a large answer cannot fill a pipe and block it.
        let errorData = LockedData()
        let errorReader = Thread { errorData.set(stderr.fileHandleForReading.readDataToEndOfFile()) }
        errorReader.start()
        _ = ignoreBrokenPipes
        let inputWriter = Thread {
            if let input { try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8)) }
            try? stdin.fileHandleForWriting.close()
        }
        inputWriter.start()
        let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errorData.isSet { usleep(1000) }
        return Outcome(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self), error: String(decoding: errorData.value, as: UTF8.self))
    }

    public final class LockedData: @unchecked Sendable {
        private let lock = NSLock()
        private var data: Data?
        public func set(_ value: Data) { lock.withLock { data = value } }
        public var isSet: Bool { lock.withLock { data != nil } }
        public var value: Data { lock.withLock { data ?? Data() } }
    }
}

/// Any program, with standard input written and both outputs read while it runs.
public enum ExternalProcess {
    public struct Outcome {
        public let status: Int32
        public let output: Data
        public let error: String
    }

    public static func run(_ executable: String, _ arguments: [String], input: Data, environment: [String: String] = [:]) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stdout = Pipe(), stderr = Pipe(), stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = stdin
        try process.run()
        let errorData = MMSearchProcess.LockedData()
        let errorReader = Thread { errorData.set(stderr.fileHandleForReading.readDataToEndOfFile()) }
        errorReader.start()
        _ = MMSearchProcess.ignoreBrokenPipes
        let inputWriter = Thread {
            try? stdin.fileHandleForWriting.write(contentsOf: input)
            try? stdin.fileHandleForWriting.close()
        }
        inputWriter.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errorData.isSet { usleep(1000) }
        return Outcome(status: process.terminationStatus, output: output, error: String(decoding: errorData.value, as: UTF8.self))
    }

    /// Runs `jobs` on other threads, all at once (each job limits itself), and returns when all have
    /// ended, waiting without holding a thread of the test pool (see `offThePool`).
    public static func inParallel(_ jobs: [@Sendable () -> Void]) async {
        let group = DispatchGroup()
        for job in jobs { DispatchQueue.global().async(group: group, execute: job) }
        await withCheckedContinuation { continuation in group.notify(queue: .global()) { continuation.resume() } }
    }
}

/// Runs `work` on a thread of its own and returns its result without holding a thread of the test
/// pool (Swift Testing runs tests on as many threads as there are cores: two here). A test that waits
/// for a process, or for a real index another test is building, then leaves the pool to tests that
/// compute; blocked in place, two such waits would stop every other test.
public func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// The system's gzip, for tests that read compressed inputs.
public enum GzipTool {
    public struct Failed: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs /bin/gzip on `path` (keeping it), giving `path.gz`; a failed run is an error.
    public static func compress(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-k", "-f", path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failed(description: "/bin/gzip failed on \(path) with status \(process.terminationStatus)") }
        return path + ".gz"
    }
}
