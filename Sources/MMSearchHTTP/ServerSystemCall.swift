#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
#if os(Linux)
import CMMSearchHTTPSystem
#endif

// Every C library call the server makes (sockets, epoll or kqueue, threads, signals, clocks), wrapped
// once in this file, as MMSearch's SystemCall wraps the reader's: above it, code sees plain values and
// thrown `ServerError`s, never errno. (A call qualified by the C library's module name compiles against
// that one library only: .ci/run rejects it.)

/// A failed system call: what was done, and the C library's text for errno.
public struct ServerError: Error, CustomStringConvertible {
    public let operation: String
    public let code: Int32
    public var description: String {
        guard let text = strerror(code) else { return "\(operation): errno \(code)" }
        return "\(operation): \(String(cString: text))"
    }
    init(_ operation: String, code: Int32 = errno) {
        self.operation = operation
        self.code = code
    }
}

/// An IPv4 address and port to listen on.
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    public let host: String
    public let port: UInt16

    /// "HOST:PORT", HOST a dotted IPv4 address or `localhost`; nil when it is not one.
    public init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else { return nil }
        var host = String(text[..<colon])
        if host == "localhost" { host = "127.0.0.1" }
        var address = in_addr()
        guard inet_pton(AF_INET, host, &address) == 1 else { return nil }
        self.host = host
        self.port = port
    }

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    public var description: String { "\(host):\(port)" }
}

public enum ServerSystemCall {
    // Glibc imports the socket type flags as an enum; Musl and Darwin as plain integers.
    #if canImport(Glibc)
    private static let streamSocket = Int32(SOCK_STREAM.rawValue)
    #else
    private static let streamSocket = SOCK_STREAM
    #endif

    /// Whether several sockets listening on one port with SO_REUSEPORT share its connections out
    /// evenly: Linux's do; on Apple systems the last one bound takes them all.
    #if os(Linux)
    static let spreadsConnections = true
    #else
    static let spreadsConnections = false
    #endif

    /// A non-blocking TCP socket bound to `address` and listening; the port actually bound (port 0
    /// asks the system for a free one). `reusePort`: others may bind the same port (SO_REUSEPORT).
    static func listen(on address: ListenAddress, reusePort: Bool = false) throws(ServerError) -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, streamSocket, 0)
        guard fd >= 0 else { throw ServerError("socket") }
        var yes: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        if reusePort { _ = setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &yes, socklen_t(MemoryLayout<Int32>.size)) }
        var socketAddress = sockaddr_in()
        #if canImport(Darwin)
        socketAddress.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = address.port.bigEndian
        _ = inet_pton(AF_INET, address.host, &socketAddress.sin_addr)
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { let error = ServerError("bind \(address)"); closeDescriptor(fd); throw error }
        guard cListen(fd, 4096) == 0 else { let error = ServerError("listen"); closeDescriptor(fd); throw error }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        try setNonBlocking(fd)
        return (fd, UInt16(bigEndian: socketAddress.sin_port))
    }

    private static func setNonBlocking(_ fd: Int32) throws(ServerError) {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else { throw ServerError("fcntl O_NONBLOCK") }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    enum Accepted {
        case connection(fd: Int32, peer: String)
        /// Nothing waiting (another loop took it), or a transient error such as a full fd table.
        case none
    }

    /// One waiting connection, non-blocking, with its peer's address when `wantsPeer`.
    static func accept(_ listener: Int32, wantsPeer: Bool) -> Accepted {
        var peerAddress = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let fd = withUnsafeMutablePointer(to: &peerAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { (pointer) -> Int32 in
                #if os(Linux)
                return mmsearch_accept_nonblocking(listener, pointer, &length)
                #else
                return cAccept(listener, pointer, &length)
                #endif
            }
        }
        guard fd >= 0 else { return .none }
        #if !os(Linux)
        guard (try? setNonBlocking(fd)) != nil else { closeDescriptor(fd); return .none }
        var yes: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var noDelay: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        guard wantsPeer else { return .connection(fd: fd, peer: "") }
        var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        _ = inet_ntop(AF_INET, &peerAddress.sin_addr, &text, socklen_t(text.count))
        return .connection(fd: fd, peer: String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    enum Transfer {
        case bytes(Int)
        /// The socket would block: try again when it is ready.
        case wouldBlock
        /// The peer has closed (a read of 0), or the connection failed (reset, broken pipe).
        case closed
    }

    static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Transfer {
        while true {
            let n = read(fd, buffer.baseAddress!, buffer.count)
            if n > 0 { return .bytes(n) }
            if n == 0 { return .closed }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? .wouldBlock : .closed
        }
    }

    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Transfer {
        while true {
            #if os(Linux)
            let n = cSend(fd, bytes.baseAddress!, bytes.count, Int32(MSG_NOSIGNAL))
            #else
            let n = cSend(fd, bytes.baseAddress!, bytes.count, 0)
            #endif
            if n >= 0 { return .bytes(n) }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? .wouldBlock : .closed
        }
    }

    static func closeDescriptor(_ fd: Int32) { _ = close(fd) }

    /// Raises the open-file limit to its hard maximum (10,000 connections need more than the usual 1,024).
    public static func raiseOpenFileLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(resourceOpenFiles, &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            #if canImport(Darwin)
            limit.rlim_cur = min(limit.rlim_max, rlim_t(OPEN_MAX))
            #endif
            _ = setrlimit(resourceOpenFiles, &limit)
            _ = getrlimit(resourceOpenFiles, &limit)
        }
        return Int(clamping: limit.rlim_cur)
    }

    #if canImport(Glibc)
    private static let resourceOpenFiles = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resourceOpenFiles = RLIMIT_NOFILE
    #endif

    /// Monotonic time in nanoseconds.
    public static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        _ = clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    public static func sleep(milliseconds: Int) { _ = usleep(useconds_t(milliseconds * 1000)) }

    public static var processorCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Writes `text` to standard error in one write(2), so lines from several threads do not interleave.
    public static func writeError(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var done = 0
            while done < buffer.count {
                let n = write(2, buffer.baseAddress! + done, buffer.count - done)
                if n < 0 { if errno == EINTR { continue }; return }
                done += n
            }
        }
    }

    // MARK: Threads and signals

    /// Runs `body` on a new thread (joinable: `join` waits for it).
    public static func startThread(_ body: @escaping @Sendable () -> Void) throws(ServerError) -> ServerThread {
        final class Box { let body: @Sendable () -> Void; init(_ body: @escaping @Sendable () -> Void) { self.body = body } }
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        // The thread's argument is optional in Glibc's declaration, not in Darwin's.
        #if canImport(Darwin)
        let result = pthread_create(&thread, nil, { context in
            Unmanaged<Box>.fromOpaque(context).takeRetainedValue().body()
            return nil
        }, context)
        #else
        let result = pthread_create(&thread, nil, { context in
            Unmanaged<Box>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, context)
        #endif
        guard result == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            throw ServerError("pthread_create", code: result)
        }
        #if canImport(Darwin)
        return ServerThread(handle: thread!)
        #else
        return ServerThread(handle: thread)
        #endif
    }

    public static func join(_ thread: ServerThread) { _ = pthread_join(thread.handle, nil) }

    /// The signals the server handles itself (SIGHUP, SIGINT, SIGTERM), blocked in the calling thread and
    /// so in every thread it starts afterwards; `waitForSignal` then receives them synchronously.
    public static func blockServerSignals() {
        var set = serverSignals()
        _ = pthread_sigmask(SIG_BLOCK, &set, nil)
        signal(SIGPIPE, SIG_IGN)
    }

    /// Waits for one of the blocked server signals and returns it.
    public static func waitForSignal() -> ServerSignal {
        var set = serverSignals()
        while true {
            var received: Int32 = 0
            guard sigwait(&set, &received) == 0 else { continue }
            switch received {
            case SIGHUP: return .hangUp
            case SIGINT: return .interrupt
            case SIGTERM: return .terminate
            default: continue
            }
        }
    }

    /// Sends `signal` to this process (to wake the signal thread when the server stops by itself).
    public static func raise(_ signal: ServerSignal) {
        _ = kill(getpid(), signal.rawValue)
    }

    private static func serverSignals() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGHUP)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        return set
    }

    // MARK: Files

    /// What identifies the file at `path` now: device, inode, size and modification time; nil when it
    /// cannot be read. A rename over the path changes the inode.
    public static func fileIdentity(_ path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        #else
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        #endif
        return FileIdentity(device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino), size: Int64(info.st_size), modified: modified)
    }
}

// The C functions whose names the enum above reuses for methods.
@inline(__always) private func cListen(_ fd: Int32, _ backlog: Int32) -> Int32 { listen(fd, backlog) }
@inline(__always) private func cSend(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int { send(fd, bytes, count, flags) }
#if !os(Linux)
@inline(__always) private func cAccept(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: UnsafeMutablePointer<socklen_t>) -> Int32 { accept(fd, address, length) }
#endif

public struct FileIdentity: Sendable, Equatable {
    public let device: UInt64
    public let inode: UInt64
    public let size: Int64
    public let modified: Int64
}

public struct ServerThread: @unchecked Sendable {
    let handle: pthread_t
}

public enum ServerSignal: Int32, Sendable {
    case hangUp = 1 // SIGHUP
    case interrupt = 2 // SIGINT
    case terminate = 15 // SIGTERM
}

/// A mutex (pthread's: the package's oldest systems predate Synchronization's Mutex).
public final class ServerLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    public init() { pthread_mutex_init(mutex, nil) }
    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }
    public func withLock<Value>(_ body: () throws -> Value) rethrows -> Value {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// Readiness of many sockets at once: epoll on Linux, kqueue on Apple systems. Level-triggered: a
/// socket is reported for as long as it is ready and wanted.
final class Poller {
    struct Event {
        let fd: Int32
        let readable: Bool
        let writable: Bool
    }

    private let fd: Int32
    #if os(Linux)
    private var events = [epoll_event](repeating: epoll_event(), count: 256)
    #else
    private var events = [kevent](repeating: kevent(), count: 256)
    #endif

    init() throws(ServerError) {
        #if os(Linux)
        fd = epoll_create1(Int32(EPOLL_CLOEXEC_VALUE))
        guard fd >= 0 else { throw ServerError("epoll_create1") }
        #else
        fd = kqueue()
        guard fd >= 0 else { throw ServerError("kqueue") }
        #endif
    }

    deinit { _ = close(fd) }

    /// Watches `socket` for reading. `shared`: the listening socket, watched by every loop; on Linux only
    /// one of them is woken for each connection (EPOLLEXCLUSIVE).
    func add(_ socket: Int32, shared: Bool = false) throws(ServerError) {
        #if os(Linux)
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | (shared ? EPOLLEXCLUSIVE.rawValue : 0)
        event.data.fd = socket
        guard epoll_ctl(fd, EPOLL_CTL_ADD, socket, &event) == 0 else { throw ServerError("epoll_ctl add") }
        #else
        guard change(socket, filter: EVFILT_READ, flags: EV_ADD) else { throw ServerError("kevent add") }
        #endif
    }

    /// Waits for `socket` to become writable instead of readable (`writing`), or back.
    func watch(_ socket: Int32, writing: Bool) {
        #if os(Linux)
        var event = epoll_event()
        event.events = writing ? EPOLLOUT.rawValue : EPOLLIN.rawValue
        event.data.fd = socket
        _ = epoll_ctl(fd, EPOLL_CTL_MOD, socket, &event)
        #else
        _ = change(socket, filter: EVFILT_READ, flags: writing ? EV_DISABLE : EV_ENABLE)
        _ = change(socket, filter: EVFILT_WRITE, flags: writing ? EV_ADD : EV_DELETE)
        #endif
    }

    /// Stops watching `socket` (before it is closed; closing alone would do on Linux).
    func remove(_ socket: Int32) {
        #if os(Linux)
        var event = epoll_event()
        _ = epoll_ctl(fd, EPOLL_CTL_DEL, socket, &event)
        #else
        _ = change(socket, filter: EVFILT_READ, flags: EV_DELETE)
        _ = change(socket, filter: EVFILT_WRITE, flags: EV_DELETE)
        #endif
    }

    /// The sockets ready now, waiting at most `milliseconds` for the first.
    func wait(milliseconds: Int32) -> [Event] {
        #if os(Linux)
        let count = epoll_wait(fd, &events, Int32(events.count), milliseconds)
        guard count > 0 else { return [] }
        return (0 ..< Int(count)).map { position in
            let event = events[position]
            let failed = event.events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0
            return Event(fd: event.data.fd, readable: failed || event.events & EPOLLIN.rawValue != 0,
                         writable: failed || event.events & EPOLLOUT.rawValue != 0)
        }
        #else
        var timeout = timespec(tv_sec: Int(milliseconds / 1000), tv_nsec: Int(milliseconds % 1000) * 1_000_000)
        let count = kevent(fd, nil, 0, &events, Int32(events.count), &timeout)
        guard count > 0 else { return [] }
        return (0 ..< Int(count)).map { position in
            let event = events[position]
            let failed = event.flags & UInt16(EV_ERROR) != 0
            return Event(fd: Int32(event.ident), readable: failed || event.filter == Int16(EVFILT_READ),
                         writable: failed || event.filter == Int16(EVFILT_WRITE))
        }
        #endif
    }

    #if !os(Linux)
    private func change(_ socket: Int32, filter: Int32, flags: Int32) -> Bool {
        var change = kevent(ident: UInt(socket), filter: Int16(filter), flags: UInt16(flags), fflags: 0, data: 0, udata: nil)
        return kevent(fd, &change, 1, nil, 0, nil) == 0
    }
    #endif
}

#if os(Linux)
#if canImport(Glibc)
private let EPOLL_CLOEXEC_VALUE = Int32(EPOLL_CLOEXEC)
#else
private let EPOLL_CLOEXEC_VALUE = EPOLL_CLOEXEC
#endif
#endif
