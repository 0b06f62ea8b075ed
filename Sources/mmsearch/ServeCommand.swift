import MMSearch
import MMSearchHTTP

enum ServeCommand: Command {
    static let usage = """
        usage: mmsearch serve [--index PATH] [--listen HOST:PORT] [--cors ORIGIN] [--access-log]
                              [--header-timeout SECONDS] [--idle-timeout SECONDS] [--threads N]
                              [--watch-interval SECONDS]

        Serves the index over HTTP/1.1 (keep-alive, pipelining; HTTP/1.0 too), GET and HEAD:
          /search?q=PREFIX&limit=&offset=&match=&order=&typos=&near=&near_km=&country=&bbox=&within=&min_population=
                          `mmsearch query --json`'s object (limit at most 1000, default 20); the
                          geography as query's options (near=LAT,LON ranks near a point, each result
                          with its distance_km; order=distance and q= empty: the nearest cities)
          /api?q=PREFIX&limit=&lat=&lon=&zoom=&bbox=&countrycode=
                          Photon's answer: a GeoJSON FeatureCollection of Points (limit default 15)
          /reverse?lat=&lon=&radius=&limit=
                          Photon's reverse lookup: the cities nearest the point (limit default 1)
          /v1/search, /v1/autocomplete?text=&size=&focus.point.lat=&focus.point.lon=&boundary.rect.*=
                          &boundary.circle.*=&boundary.country=, /v1/reverse?point.lat=&point.lon=&size=
                          Pelias' answers: a GeoJSON FeatureCollection with a geocoding header
          /cities/ID[,ID...]
                          `mmsearch get --format json`'s array; 404 for an unknown id
          /health         what `mmsearch info` says: format version, cities, when built, from what
          /               a search page
        When ready it prints `listening on http://HOST:PORT (INDEX: N cities)` on standard output.
        A new index renamed over PATH (as `build` writes one) is served within a second; one that does
        not open is refused with a log line, and the old one stays. SIGHUP looks at once; SIGTERM and
        SIGINT stop accepting, finish what is running, and exit 0.

        options:
          --index PATH              the index (default: $MMSEARCH_INDEX, else cities.mms in this directory)
          --listen HOST:PORT        the IPv4 address and port (default 127.0.0.1:8080; port 0: any free one)
          --cors ORIGIN             the Access-Control-Allow-Origin of every answer (default *)
          --access-log              a line a request on standard error
          --header-timeout SECONDS  a request head must arrive within this (default 10)
          --idle-timeout SECONDS    an idle connection is closed after this (default 30)
          --threads N               event loops (default: one per processor)
          --watch-interval SECONDS  how often PATH is looked at for a new index (default 0.25)

        exit status: 0 after SIGTERM or SIGINT, 1 on a bad index or an address that cannot be bound,
        2 on bad usage.
        """

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, valued: ["--index", "--listen", "--cors", "--header-timeout", "--idle-timeout", "--threads", "--watch-interval"],
                                   flagNames: ["--access-log"])
        guard parsed.positionals.isEmpty else { throw UsageError("unexpected argument \"\(parsed.positionals[0])\"") }
        let listenText = parsed.value("--listen") ?? "127.0.0.1:8080"
        guard let address = ListenAddress(listenText) else {
            throw UsageError("--listen takes HOST:PORT, HOST an IPv4 address or localhost, not \"\(listenText)\"")
        }
        let headerTimeout = try seconds(parsed, "--header-timeout", default: 10)
        let idleTimeout = try seconds(parsed, "--idle-timeout", default: 30)
        let watchInterval = try seconds(parsed, "--watch-interval", default: 0.25)
        let threads = try parsed.integer("--threads", default: ServerSystemCall.processorCount, minimum: 1)
        let corsOrigin = parsed.value("--cors") ?? "*"

        // Before any thread starts, so that every thread inherits the mask and only the signal thread
        // below receives them.
        ServerSystemCall.blockServerSignals()
        let indexPath = parsed.value("--index") ?? SystemCall.environment("MMSEARCH_INDEX") ?? "cities.mms"
        let served = try ServedIndex(path: indexPath)
        let routes = ServeRoutes(served: served, corsOrigin: corsOrigin)
        var configuration = HTTPServerConfiguration(address: address) { status, message in
            ServeRoutes.errorResponse(status, message, corsOrigin: corsOrigin)
        }
        configuration.headerTimeout = headerTimeout
        configuration.idleTimeout = idleTimeout
        configuration.loopCount = threads
        configuration.accessLog = parsed.has("--access-log")
        let server = try HTTPServer(configuration: configuration, handler: routes.respond)

        let watcher = try ServerSystemCall.startThread {
            served.watch(every: Int(watchInterval * 1000)) { server.isStopping }
        }
        let signalWaiter = try ServerSystemCall.startThread {
            while true {
                switch ServerSystemCall.waitForSignal() {
                case .hangUp:
                    served.requestCheck()
                case .interrupt, .terminate:
                    server.stop()
                    return
                }
            }
        }
        var output = Output(.output)
        output.write("listening on http://\(address.host):\(server.port) (\(FilePaths.fileName(of: indexPath)): \(served.current.count) cities)\n")
        output.flush()
        try server.run()
        // Both end once the server has stopped: the watcher at its next look, the waiter after the
        // signal that stopped it.
        ServerSystemCall.join(watcher)
        ServerSystemCall.join(signalWaiter)
        return 0
    }

    private static func seconds(_ arguments: Arguments, _ name: String, default fallback: Double) throws(UsageError) -> Double {
        guard let text = arguments.value(name) else { return fallback }
        guard let value = Double(text), value > 0, value <= 86_400 else {
            throw UsageError("\(name) takes a number of seconds above 0, not \"\(text)\"")
        }
        return value
    }
}
