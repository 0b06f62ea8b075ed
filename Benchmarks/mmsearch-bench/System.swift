#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// C's write(2) and exit(3), for `System`, whose own `write` and `exit` the plain names mean inside it.
// (A call qualified by the C library's module name compiles against that one library only.)
@inline(__always) private func cWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }
@inline(__always) private func cExit(_ status: Int32) -> Never { exit(status) }

/// Every C library call the benchmark makes, wrapped once: the clock, /proc, the page cache, and
/// spawning itself and other programs. The rest of the benchmark sees Swift values and thrown
/// `SystemError`s.
enum System {
    // MARK: Time

    /// CLOCK_MONOTONIC in nanoseconds, the clock the C peers read.
    @inline(__always)
    static func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    }

    /// Now, UTC, as "2025-01-31 14:05 UTC".
    static func utcDateText() -> String {
        var seconds = time(nil)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min)) UTC"
    }

    /// memcmp: negative, zero or positive as the `count` bytes at `a` sort before, with or after `b`'s.
    @inline(__always)
    static func compareBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Int {
        count == 0 ? 0 : Int(memcmp(a, b, count))
    }

    // MARK: This process

    /// This process's memory, from /proc/self/status, in KiB.
    struct Resident {
        /// VmRSS: resident now; VmHWM: the most resident so far.
        var current = 0
        var peak = 0
        /// RssFile: resident pages mapped from files (a mapped index's pages count here);
        /// RssAnon: the heap, stacks and other private memory.
        var file = 0
        var anonymous = 0
    }

    static func resident() -> Resident {
        let status = (try? readText("/proc/self/status")) ?? ""
        var resident = Resident()
        for line in status.split(separator: "\n") {
            let value = { firstInteger(in: line) ?? 0 }
            if line.hasPrefix("VmRSS:") { resident.current = value() }
            if line.hasPrefix("VmHWM:") { resident.peak = value() }
            if line.hasPrefix("RssFile:") { resident.file = value() }
            if line.hasPrefix("RssAnon:") { resident.anonymous = value() }
        }
        return resident
    }

    /// Minor page faults of this process so far (getrusage): each first touch of a mapped page that is
    /// in the page cache but not yet in this process's page tables (or of a new private page).
    static func minorFaults() -> Int {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        return Int(usage.ru_minflt)
    }

    /// The path of the running executable, so the benchmark can start fresh copies of itself.
    static func executablePath() throws(SystemError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { throw .failed("readlink /proc/self/exe", errno) }
        return String(decoding: buffer[0 ..< length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func write(_ text: String, toStandardError: Bool = false) {
        var bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { cWrite(toStandardError ? 2 : 1, $0.baseAddress! + done, $0.count - done) }
            if n < 0 { if errno == EINTR { continue }; return }
            done += n
        }
        bytes.removeAll()
    }

    static func exit(_ status: Int32) -> Never { cExit(status) }

    // MARK: Files

    static func readBytes(_ path: String) throws(SystemError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .failed("open \(path)", errno) }
        defer { close(fd) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 { if errno == EINTR { continue }; throw .failed("read \(path)", errno) }
            if n == 0 { return result }
            result.append(contentsOf: chunk[0 ..< n])
        }
    }

    static func readText(_ path: String) throws(SystemError) -> String {
        String(decoding: try readBytes(path), as: UTF8.self)
    }

    static func writeText(_ text: String, to path: String) throws(SystemError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .failed("create \(path)", errno) }
        defer { close(fd) }
        var bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { cWrite(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 { if errno == EINTR { continue }; throw .failed("write \(path)", errno) }
            done += n
        }
        bytes.removeAll()
    }

    /// `copy`, a copy of the executable `path` made by `cp`, as tools/install.sh installs mmsearch.
    static func installedCopy(of path: String, at copy: String) throws -> String {
        let result = try run("/bin/cp", [path, copy], output: .discard)
        guard result.status == 0 else { throw BenchError("cp \(path) \(copy) exited with status \(result.status)") }
        return copy
    }

    /// The size of `path` in bytes, or nil when it does not exist.
    static func fileSize(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_size)
    }

    static func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }

    static func remove(_ path: String) { _ = unlink(path) }

    static func removeDirectory(_ path: String) { _ = rmdir(path) }

    static func makeDirectory(_ path: String) throws(SystemError) {
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else { throw .failed("mkdir \(path)", errno) }
    }

    /// A new, empty directory under $TMPDIR (or /tmp).
    static func makeTemporaryDirectory(prefix: String) throws(SystemError) -> String {
        let parent = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(parent)/\(prefix)-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw .failed("mkdtemp in \(parent)", errno)
        }
        return String(cString: made)
    }

    /// Bytes free for an unprivileged writer on the file system holding `path`.
    static func freeBytes(at path: String) throws(SystemError) -> Int {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { throw .failed("statvfs \(path)", errno) }
        return Int(info.f_bavail) * Int(info.f_frsize)
    }

    // MARK: The page cache

    /// Drops `path`'s pages from the page cache: flushes it (only clean pages can be dropped), then
    /// posix_fadvise(POSIX_FADV_DONTNEED). Pages some process has mapped stay; so do other files'
    /// pages, the benchmark's own executable and libraries included.
    static func evictFromPageCache(_ path: String) throws(SystemError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .failed("open \(path)", errno) }
        defer { close(fd) }
        guard fdatasync(fd) == 0 else { throw .failed("fdatasync \(path)", errno) }
        let result = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)
        guard result == 0 else { throw .failed("posix_fadvise \(path)", result) }
    }

    /// How many of `path`'s pages are in the page cache (mincore over a fresh mapping, which itself
    /// reads nothing), and how many pages it has.
    static func cachedPages(_ path: String) throws(SystemError) -> (cached: Int, total: Int) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .failed("open \(path)", errno) }
        defer { close(fd) }
        guard let size = fileSize(path), size > 0 else { return (0, 0) }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let pages = (size + pageSize - 1) / pageSize
        guard let mapping = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0), mapping != MAP_FAILED else {
            throw .failed("mmap \(path)", errno)
        }
        defer { munmap(mapping, size) }
        var vector = [UInt8](repeating: 0, count: pages)
        guard mincore(mapping, size, &vector) == 0 else { throw .failed("mincore \(path)", errno) }
        return (vector.reduce(0) { $0 + Int($1 & 1) }, pages)
    }

    // MARK: The machine

    static var processorCount: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// The kernel's release and machine, e.g. "Linux 6.1.0-18-amd64 x86_64".
    static func kernelDescription() -> String {
        var names = utsname()
        uname(&names)
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
        }
        return "\(text(names.sysname)) \(text(names.release)) \(text(names.machine))"
    }

    // MARK: Other processes

    /// What to do with a child's standard output.
    enum ChildOutput {
        /// Read it all; it comes back in `ChildResult.output`.
        case capture
        /// Send it to /dev/null.
        case discard
        /// Leave it on ours.
        case inherit
    }

    struct ChildResult {
        /// The exit status, or 128 + the signal that killed it.
        var status: Int32
        var output: String
        /// From just before posix_spawn to just after wait4 returned.
        var wallNanoseconds: UInt64
    }

    /// Runs `executable` with `arguments` (argv[1...]) and our environment, and waits for it. Standard
    /// error is ours, so a failing child explains itself. `input` names a file for its standard input
    /// (else ours). `directory`, its working directory, goes through `/bin/sh -c 'cd DIR && exec ...'`
    /// (posix_spawn has no portable chdir), so time such a child from the inside only.
    static func run(_ executable: String, _ arguments: [String], output: ChildOutput, input: String? = nil,
                    directory: String? = nil) throws(SystemError) -> ChildResult {
        if let directory {
            return try run("/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", directory, executable] + arguments, output: output, input: input)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input { posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0) }
        var pipeEnds: [Int32] = [-1, -1]
        switch output {
        case .capture:
            guard pipe(&pipeEnds) == 0 else { throw .failed("pipe", errno) }
            // Only the duplicate on fd 1 should reach the child (and no later child).
            for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        case .discard:
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        case .inherit:
            break
        }
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }

        var pid: pid_t = 0
        let start = nanoseconds()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        if output == .capture { close(pipeEnds[1]) }
        guard spawned == 0 else {
            if output == .capture { close(pipeEnds[0]) }
            throw .failed("posix_spawn \(executable)", spawned)
        }
        var captured: [UInt8] = []
        if output == .capture {
            var chunk = [UInt8](repeating: 0, count: 1 << 14)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress!, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                captured.append(contentsOf: chunk[0 ..< n])
            }
            close(pipeEnds[0])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw .failed("waitpid", errno) }
        }
        let elapsed = nanoseconds() - start
        // The <sys/wait.h> macros, which Swift cannot import: low 7 bits the signal, next 8 the exit code.
        let signal = status & 0x7F
        return ChildResult(
            status: signal == 0 ? (status >> 8) & 0xFF : 128 + signal,
            output: String(decoding: captured, as: UTF8.self),
            wallNanoseconds: elapsed
        )
    }

    /// The first executable named `name` in the directories of $PATH, or nil.
    static func findInPath(_ name: String) -> String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            if isExecutable(candidate) { return candidate }
        }
        return nil
    }

    // MARK: Helpers

    private static func firstInteger(in line: Substring) -> Int? {
        line.split(whereSeparator: { $0 == " " || $0 == "\t" }).lazy.compactMap { Int($0) }.first
    }
}

/// A failed system call: what was attempted and the errno it gave.
struct SystemError: Error, CustomStringConvertible {
    let operation: String
    let code: Int32

    static func failed(_ operation: String, _ code: Int32) -> SystemError { SystemError(operation: operation, code: code) }

    var description: String {
        let text = strerror(code).map { String(cString: $0) } ?? "errno \(code)"
        return "\(operation): \(text)"
    }
}
