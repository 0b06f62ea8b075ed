/// How an `HTTPServer` listens, and its limits.
public struct HTTPServerConfiguration: Sendable {
    public var address: ListenAddress
    /// A request's head must arrive within this many seconds of its first byte (slow clients).
    public var headerTimeout: Double = 10
    /// An open connection with no request, or an answer the client does not read, is closed after this
    /// many seconds.
    public var idleTimeout: Double = 30
    /// Event loops, each on its own thread, all accepting from the one listening socket.
    public var loopCount: Int = ServerSystemCall.processorCount
    /// Writes a line a request to standard error.
    public var accessLog = false
    /// The answer to a request the parser refused (the connection closes after it).
    public var errorResponse: @Sendable (_ status: Int, _ message: String) -> HTTPResponse

    public init(address: ListenAddress, errorResponse: @escaping @Sendable (_ status: Int, _ message: String) -> HTTPResponse) {
        self.address = address
        self.errorResponse = errorResponse
    }
}

/// An HTTP/1.1 server: keep-alive, pipelining, HTTP/1.0, and many thousands of connections on a few
/// threads, each thread an event loop over epoll (Linux) or kqueue (Apple systems). Knows nothing of
/// what it serves: each request goes to `handler`, on the loop's thread; a handler must be quick (the
/// loop serves its other connections after it returns) and safe to call from several threads at once.
public final class HTTPServer: @unchecked Sendable {
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    public let configuration: HTTPServerConfiguration
    /// The port listened on (the one the system chose when the address asked for port 0).
    public let port: UInt16
    let handler: Handler
    /// The listening sockets: on Linux one a loop, all bound to the port with SO_REUSEPORT, so that the
    /// kernel spreads connections evenly over the loops (one socket watched by every loop hands a
    /// burst of connections to whichever wakes first); elsewhere one, shared by every loop.
    let listeners: [Int32]
    private let lock = ServerLock()
    private var stopping = false

    /// Binds and listens at once, so that a taken port is an error before anything else starts.
    public init(configuration: HTTPServerConfiguration, handler: @escaping Handler) throws(ServerError) {
        self.configuration = configuration
        self.handler = handler
        let loopCount = max(1, configuration.loopCount)
        if configuration.address.port != 0, ServerSystemCall.spreadsConnections, loopCount > 1 {
            // Sockets with SO_REUSEPORT would share the port with another server of the same user
            // already on it: bind once without, so that a taken port is an error as usual.
            let probe = try ServerSystemCall.listen(on: configuration.address)
            ServerSystemCall.closeDescriptor(probe.fd)
        }
        let first = try ServerSystemCall.listen(on: configuration.address, reusePort: ServerSystemCall.spreadsConnections && loopCount > 1)
        port = first.port
        var listeners = [first.fd]
        if ServerSystemCall.spreadsConnections {
            do {
                for _ in 1 ..< loopCount {
                    listeners.append(try ServerSystemCall.listen(on: ListenAddress(host: configuration.address.host, port: first.port), reusePort: true).fd)
                }
            } catch {
                for fd in listeners { ServerSystemCall.closeDescriptor(fd) }
                throw error
            }
        }
        self.listeners = listeners
        _ = ServerSystemCall.raiseOpenFileLimit()
    }

    /// Serves until `stop()`; then answers what has been asked already, closes every connection (those
    /// still sending their answer get up to `drainSeconds`), and returns.
    public func run(drainSeconds: Double = 0.8) throws(ServerError) {
        var threads: [ServerThread] = []
        for number in 0 ..< max(1, configuration.loopCount) {
            let loop = try EventLoop(server: self, listener: listeners[number % listeners.count], drainSeconds: drainSeconds)
            threads.append(try ServerSystemCall.startThread { loop.run() })
        }
        for thread in threads { ServerSystemCall.join(thread) }
        for fd in listeners { ServerSystemCall.closeDescriptor(fd) }
    }

    /// Stops accepting connections and ends `run()` soon (within about a tenth of a second plus the
    /// drain). Safe from any thread.
    public func stop() { lock.withLock { stopping = true } }

    /// Whether `stop()` has been called.
    public var isStopping: Bool { lock.withLock { stopping } }
}

/// One connection's state: what has arrived and not been parsed, what is still to send.
private final class Connection {
    let fd: Int32
    let peer: String
    var input: [UInt8] = []
    var output: [UInt8] = []
    var outputSent = 0
    var closeAfterOutput = false
    var watchingWrite = false
    /// When the first byte of the request being received arrived (nil between requests).
    var requestStarted: UInt64?
    /// When bytes last moved either way.
    var lastActivity: UInt64

    init(fd: Int32, peer: String, now: UInt64) {
        self.fd = fd
        self.peer = peer
        lastActivity = now
    }

    var hasPendingOutput: Bool { outputSent < output.count }
}

/// One thread's loop: accepts connections, reads, answers, writes, and closes slow or idle ones.
private final class EventLoop: @unchecked Sendable {
    /// Answers queued for one connection beyond this wait until the client reads some (a client that
    /// pipelines without reading cannot make the server buffer without bound).
    static let outputLimit = 256 * 1024
    static let readSize = 64 * 1024

    let server: HTTPServer
    let listener: Int32
    let poller: Poller
    let drainNanoseconds: UInt64
    var connections: [Connection?] = Array(repeating: nil, count: 1024)
    var openCount = 0
    var now = ServerSystemCall.monotonicNanoseconds()
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: EventLoop.readSize, alignment: 16)

    init(server: HTTPServer, listener: Int32, drainSeconds: Double) throws(ServerError) {
        self.server = server
        self.listener = listener
        poller = try Poller()
        drainNanoseconds = UInt64(drainSeconds * 1e9)
        try poller.add(listener, shared: server.listeners.count == 1)
    }

    deinit { readBuffer.deallocate() }

    func run() {
        var drainDeadline: UInt64?
        var lastSweep = now
        while true {
            now = ServerSystemCall.monotonicNanoseconds()
            if drainDeadline == nil, server.isStopping {
                poller.remove(listener)
                drainDeadline = now + drainNanoseconds
                // Nothing is running between two events: close every connection with nothing left to send.
                for case let connection? in connections where !connection.hasPendingOutput { close(connection) }
            }
            if let deadline = drainDeadline, openCount == 0 || now >= deadline { break }
            for event in poller.wait(milliseconds: 100) {
                now = ServerSystemCall.monotonicNanoseconds()
                if event.fd == listener {
                    if drainDeadline == nil { acceptWaiting() }
                    continue
                }
                guard Int(event.fd) < connections.count, let connection = connections[Int(event.fd)] else { continue }
                if event.writable, connection.hasPendingOutput {
                    flush(connection)
                    if connections[Int(event.fd)] === connection, !connection.hasPendingOutput, drainDeadline == nil { serve(connection) }
                } else if event.readable, !connection.hasPendingOutput {
                    if drainDeadline == nil { receive(connection) } else { close(connection) }
                }
            }
            if now - lastSweep >= 250_000_000 {
                lastSweep = now
                closeExpired()
            }
        }
        for case let connection? in connections { close(connection) }
    }

    private func acceptWaiting() {
        // A bounded batch, so that one loop cannot take every connection of a burst.
        for _ in 0 ..< 64 {
            guard case .connection(let fd, let peer) = ServerSystemCall.accept(listener, wantsPeer: server.configuration.accessLog) else { return }
            do {
                try poller.add(fd)
            } catch {
                ServerSystemCall.closeDescriptor(fd)
                continue
            }
            if Int(fd) >= connections.count {
                connections += Array(repeating: nil, count: max(Int(fd) + 1, connections.count * 2) - connections.count)
            }
            connections[Int(fd)] = Connection(fd: fd, peer: peer, now: now)
            openCount += 1
        }
    }

    private func receive(_ connection: Connection) {
        switch ServerSystemCall.receive(connection.fd, into: readBuffer) {
        case .closed:
            close(connection)
        case .wouldBlock:
            return
        case .bytes(let count):
            connection.lastActivity = now
            if connection.requestStarted == nil { connection.requestStarted = now }
            connection.input.append(contentsOf: UnsafeRawBufferPointer(rebasing: readBuffer[0 ..< count]))
            serve(connection)
        }
    }

    /// Answers every whole request received, in order, while the answers fit `outputLimit`, and sends.
    private func serve(_ connection: Connection) {
        while true {
            var consumed = 0
            while consumed < connection.input.count, !connection.closeAfterOutput, connection.output.count - connection.outputSent < Self.outputLimit {
                let outcome = connection.input.withUnsafeBytes { HTTPRequestParser.parse(UnsafeRawBufferPointer(rebasing: $0[consumed...])) }
                switch outcome {
                case .incomplete:
                    break
                case .request(let request, let length):
                    consumed += length
                    respond(to: request, on: connection)
                    continue
                case .invalid(let error):
                    consumed = connection.input.count
                    let response = server.configuration.errorResponse(error.status, error.message)
                    connection.output += response.serialized(keepAlive: false, minorVersion: 1, omitsBody: false)
                    connection.closeAfterOutput = true
                    log(connection, "-", response.status, response.body.count)
                    continue
                }
                break
            }
            if consumed == connection.input.count {
                connection.input = [] // frees the buffer: an idle connection holds no memory for input
                connection.requestStarted = nil
            } else if consumed > 0 {
                connection.input.removeFirst(consumed)
                connection.requestStarted = now
            }
            flush(connection)
            // Sent everything, and requests wait that did not fit before: answer them too.
            guard connections[Int(connection.fd)] === connection, !connection.hasPendingOutput, consumed > 0, !connection.input.isEmpty else { return }
        }
    }

    private func respond(to request: HTTPRequest, on connection: Connection) {
        let started = server.configuration.accessLog ? ServerSystemCall.monotonicNanoseconds() : 0
        let response = server.handler(request)
        connection.output += response.serialized(keepAlive: request.keepAlive, minorVersion: request.minorVersion, omitsBody: request.method == "HEAD")
        if !request.keepAlive { connection.closeAfterOutput = true }
        if server.configuration.accessLog {
            let micros = (ServerSystemCall.monotonicNanoseconds() - started) / 1000
            log(connection, "\(request.method) \(request.target) HTTP/1.\(request.minorVersion)", response.status, response.body.count, micros: micros)
        }
    }

    private func log(_ connection: Connection, _ requestLine: String, _ status: Int, _ bytes: Int, micros: UInt64? = nil) {
        guard server.configuration.accessLog else { return }
        ServerSystemCall.writeError("\(connection.peer) \"\(requestLine)\" \(status) \(bytes)\(micros.map { " \($0)us" } ?? "")\n")
    }

    /// Sends what it can of the pending output; waits for writability when the socket is full.
    private func flush(_ connection: Connection) {
        while connection.hasPendingOutput {
            let outcome = connection.output.withUnsafeBytes { ServerSystemCall.send(connection.fd, UnsafeRawBufferPointer(rebasing: $0[connection.outputSent...])) }
            switch outcome {
            case .bytes(let count):
                connection.outputSent += count
                connection.lastActivity = now
            case .wouldBlock:
                if !connection.watchingWrite {
                    connection.watchingWrite = true
                    poller.watch(connection.fd, writing: true)
                }
                return
            case .closed:
                close(connection)
                return
            }
        }
        connection.output = []
        connection.outputSent = 0
        if connection.closeAfterOutput || server.isStopping {
            close(connection)
        } else if connection.watchingWrite {
            connection.watchingWrite = false
            poller.watch(connection.fd, writing: false)
        }
    }

    /// Closes connections whose request head is late (answered 408), idle ones, and those whose client
    /// has stopped reading its answer.
    private func closeExpired() {
        let headerLimit = UInt64(server.configuration.headerTimeout * 1e9)
        let idleLimit = UInt64(server.configuration.idleTimeout * 1e9)
        for case let connection? in connections {
            if connection.hasPendingOutput {
                if now - connection.lastActivity >= idleLimit { close(connection) }
            } else if let started = connection.requestStarted {
                if now - started >= headerLimit {
                    let response = server.configuration.errorResponse(408, "the request head did not arrive within \(server.configuration.headerTimeout) seconds")
                    connection.output = response.serialized(keepAlive: false, minorVersion: 1, omitsBody: false)
                    connection.closeAfterOutput = true
                    connection.input = []
                    log(connection, "-", 408, response.body.count)
                    flush(connection)
                    if connections[Int(connection.fd)] === connection { close(connection) }
                }
            } else if now - connection.lastActivity >= idleLimit {
                close(connection)
            }
        }
    }

    private func close(_ connection: Connection) {
        guard connections[Int(connection.fd)] === connection else { return }
        poller.remove(connection.fd)
        ServerSystemCall.closeDescriptor(connection.fd)
        connections[Int(connection.fd)] = nil
        openCount -= 1
    }
}
