import MMSearch
import MMSearchHTTP

/// The index `serve` answers from, replaced when a new file appears at its path (as `build` renames
/// one over it). Each request takes the current `CityIndex` once and answers from it alone: a swap
/// never mixes two files in one answer, and the old mapping lives until its last request ends.
final class ServedIndex: @unchecked Sendable {
    let path: String
    private let lock = ServerLock()
    private var index: CityIndex
    /// The file `index` was opened from, and the last one that failed to open (refused once, not at
    /// every check).
    private var identity: FileIdentity?
    private var refused: FileIdentity?
    private var checkRequested = false

    init(path: String) throws {
        self.path = path
        identity = ServerSystemCall.fileIdentity(path)
        index = try CityIndex(path: path)
    }

    var current: CityIndex { lock.withLock { index } }

    /// Asks the watcher to look at the file now (SIGHUP).
    func requestCheck() { lock.withLock { checkRequested = true } }

    /// Opens the file at `path` if it is not the one being served and swaps it in; a file that does not
    /// open (another format version, a damaged header) is refused with a log line, and the served one
    /// stays.
    func reloadIfChanged() {
        guard let found = ServerSystemCall.fileIdentity(path) else { return } // between unlink and rename: keep serving
        let (served, refusedBefore) = lock.withLock { (identity, refused) }
        guard found != served, found != refusedBefore else { return }
        do {
            let fresh = try CityIndex(path: path)
            lock.withLock {
                index = fresh
                identity = found
            }
            ServerSystemCall.writeError("mmsearch serve: now serving the new \(path) (\(fresh.count) cities)\n")
        } catch {
            lock.withLock { refused = found }
            ServerSystemCall.writeError("mmsearch serve: refused the new \(path): \(error); still serving the previous index\n")
        }
    }

    /// Checks the file every `interval` milliseconds, and at once after `requestCheck()`, until `stop`
    /// says so.
    func watch(every interval: Int, until stop: () -> Bool) {
        var waited = 0
        while !stop() {
            ServerSystemCall.sleep(milliseconds: 25)
            waited += 25
            let requested = lock.withLock { () -> Bool in
                defer { checkRequested = false }
                return checkRequested
            }
            if requested || waited >= interval {
                waited = 0
                reloadIfChanged()
            }
        }
    }
}

/// What `serve` answers, by path. Every JSON answer of a city comes from `ResultFormat`, the code the
/// commands print with: `/search` is `query --json`'s object, `/cities/ID` `get --format json`'s array.
struct ServeRoutes: Sendable {
    let served: ServedIndex
    /// The Access-Control-Allow-Origin value (`--cors`).
    let corsOrigin: String

    /// `limit` above this is refused: one request's work and answer stay small.
    static let maximumLimit = 1000
    /// The longest `q`, in bytes after percent-decoding.
    static let maximumQueryBytes = 1024
    /// Ids in one `/cities/` request.
    static let maximumIds = 100

    /// A bad request: the status and the message of its `{"error": ...}` answer.
    struct Refusal: Error {
        var status = 400
        var message: String
        var allow: String?

        init(status: Int = 400, message: String, allow: String? = nil) {
            self.status = status
            self.message = message
            self.allow = allow
        }

        /// A bad geography parameter: `parameter near takes a point LAT,LON ..., not "x"`.
        init(_ mistake: GeoOptions.Mistake) {
            self.init(message: "parameter " + mistake.message)
        }
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        do throws(Refusal) {
            guard request.method == "GET" || request.method == "HEAD" else {
                throw Refusal(status: 405, message: "method \(request.method) is not allowed: use GET or HEAD", allow: "GET, HEAD")
            }
            let target: HTTPTarget
            do { target = try HTTPTarget(request.target) } catch { throw Refusal(message: error.message) }
            switch target.path {
            case "/": return page()
            case "/search": return try search(target)
            case "/api": return try photonSearch(target)
            case "/reverse": return try photonReverse(target)
            case "/v1/search", "/v1/autocomplete": return pelias(target, reverse: false)
            case "/v1/reverse": return pelias(target, reverse: true)
            case "/health": return try health()
            case _ where target.path.hasPrefix("/cities/"): return try cities(String(target.path.dropFirst("/cities/".count)))
            default:
                throw Refusal(status: 404, message: "no such path: \(target.path) (the paths are /search, /api, /reverse, /v1/search, /v1/autocomplete, /v1/reverse, /cities/ID, /health and /)")
            }
        } catch {
            return Self.errorResponse(error.status, error.message, corsOrigin: corsOrigin, allow: error.allow)
        }
    }

    static func errorResponse(_ status: Int, _ message: String, corsOrigin: String, allow: String? = nil) -> HTTPResponse {
        var headers = jsonHeaders(corsOrigin: corsOrigin, cacheable: false)
        if let allow { headers.append(("Allow", allow)) }
        return HTTPResponse(status: status, headers: headers, text: "{\"error\": \(JSONText.quoted(message))}\n")
    }

    /// Answers are cacheable for a minute: an index swap shows within that.
    static func jsonHeaders(corsOrigin: String, cacheable: Bool = true) -> [(name: String, value: String)] {
        [("Content-Type", "application/json; charset=utf-8"),
         ("Cache-Control", cacheable ? "public, max-age=60" : "no-store"),
         ("Access-Control-Allow-Origin", corsOrigin),
         ("X-Content-Type-Options", "nosniff")]
    }

    func json(_ body: [UInt8], cacheable: Bool = true) -> HTTPResponse {
        HTTPResponse(status: 200, headers: Self.jsonHeaders(corsOrigin: corsOrigin, cacheable: cacheable), body: body)
    }

    // MARK: Parameters

    func query(_ target: HTTPTarget) throws(Refusal) -> String {
        guard let query = target.value("q") else { throw Refusal(message: "missing parameter q (the prefix to search for)") }
        guard query.utf8.count <= Self.maximumQueryBytes else {
            throw Refusal(message: "parameter q is longer than \(Self.maximumQueryBytes) bytes")
        }
        return query
    }

    func integer(_ target: HTTPTarget, _ name: String, default fallback: Int, maximum: Int) throws(Refusal) -> Int {
        guard let text = target.value(name) else { return fallback }
        guard let value = Int(text), value >= 0, value <= maximum else {
            throw Refusal(message: "parameter \(name) takes a whole number from 0 to \(maximum), not \(JSONText.quoted(text))")
        }
        return value
    }

    private func choice<Choice: RawRepresentable & CaseIterable>(_ target: HTTPTarget, _ name: String, default fallback: Choice) throws(Refusal) -> Choice where Choice.RawValue == String {
        guard let text = target.value(name) else { return fallback }
        guard let value = Choice(rawValue: text) else {
            throw Refusal(message: "parameter \(name) takes one of \(Choice.allCases.map(\.rawValue).joined(separator: ", ")), not \(JSONText.quoted(text))")
        }
        return value
    }

    // MARK: Endpoints

    /// `/search?q=&limit=&offset=&match=&order=&typos=` and the geography (`near`, `near_km`,
    /// `country`, `bbox`, `within`, `min_population`): `mmsearch query --json`'s object, written by
    /// `QueryCommand.answer`.
    private func search(_ target: HTTPTarget) throws(Refusal) -> HTTPResponse {
        let query = try query(target)
        let limit = try integer(target, "limit", default: 20, maximum: Self.maximumLimit)
        let offset = try integer(target, "offset", default: 0, maximum: Int(Int32.max))
        let match: MatchMode = try choice(target, "match", default: .words)
        let order: ResultOrder = try choice(target, "order", default: .rank)
        let typos: Typos = try choice(target, "typos", default: .on)
        let geo: GeoOptions
        do throws(GeoOptions.Mistake) {
            geo = try GeoOptions(spelling: .http) { target.value($0) }
            try geo.check(order: order, orderName: "order", pointName: "near=LAT,LON")
        } catch {
            throw Refusal(error)
        }
        let index = served.current
        var output = Output.collecting()
        do {
            try QueryCommand.answer(query, in: index, mode: QueryCommand.SearchMode(match: match, order: order, typos: typos), geo: geo,
                                    limit: limit, offset: offset, format: .json, to: &output)
        } catch {
            throw internalError(error)
        }
        return json(output.collected)
    }

    /// Runs `search` on the index served now (taken once: the answer and everything written with it,
    /// such as country names, come from one file); a failure of the index is a 500.
    func run(_ search: CitySearch, counted: Bool = true) throws(Refusal) -> (index: CityIndex, page: CitySearch.Page) {
        let index = served.current
        do {
            return (index, try search.run(in: index, counted: counted))
        } catch {
            throw internalError(error)
        }
    }

    /// `/cities/ID[,ID...]`: `mmsearch get --format json`'s array; 404 when an id has no city.
    private func cities(_ list: String) throws(Refusal) -> HTTPResponse {
        let texts = list.split(separator: ",", omittingEmptySubsequences: false)
        guard texts.count <= Self.maximumIds else { throw Refusal(message: "at most \(Self.maximumIds) ids a request, not \(texts.count)") }
        var ids: [UInt32] = []
        for text in texts {
            guard let id = UInt32(text) else {
                throw Refusal(message: "an id is a whole number from 0 to \(UInt32.max), not \(JSONText.quoted(String(text)))")
            }
            ids.append(id)
        }
        let index = served.current
        var found: [City] = []
        var unknown: [String] = []
        do {
            for id in ids {
                let cities = try index.cities(id: id)
                if cities.isEmpty { unknown.append(String(id)) }
                found += cities
            }
        } catch {
            throw internalError(error)
        }
        guard unknown.isEmpty else {
            throw Refusal(status: 404, message: "no city with id \(unknown.joined(separator: ", ")) in \(FilePaths.fileName(of: index.path))")
        }
        return json(Array(ResultFormat.json.render(cities: found).utf8))
    }

    /// `/health`: what `mmsearch info` says of the served index, as JSON.
    private func health() throws(Refusal) -> HTTPResponse {
        let index = served.current
        let info: IndexInfo
        do { info = try index.info() } catch { throw internalError(error) }
        func sourceObject(name: String, size: UInt64, kind: String) -> String {
            "{\"name\": \(JSONText.quoted(name)), \"size\": \(size), \"kind\": \"\(kind)\"}"
        }
        var sources = [sourceObject(name: info.source.name, size: info.source.size, kind: info.source.kind == .cityList ? "city list" : "GeoNames dump")]
        if let joined = info.source.joined { sources.append(sourceObject(name: joined.name, size: joined.size, kind: "GeoNames dump")) }
        if let admin1 = info.source.admin1 { sources.append(sourceObject(name: admin1.name, size: admin1.size, kind: "GeoNames admin1 codes")) }
        if let countries = info.source.countries { sources.append(sourceObject(name: countries.name, size: countries.size, kind: "GeoNames country info")) }
        let body = "{\"status\": \"ok\", \"index\": \(JSONText.quoted(FilePaths.fileName(of: index.path))), \"format_version\": \(info.formatVersion), \"cities\": \(info.recordCount), \"population\": \(info.hasPopulation), \"built\": \"\(InfoCommand.utcText(info.source.builtAt))\", \"sources\": [\(sources.joined(separator: ", "))]}\n"
        return json(Array(body.utf8), cacheable: false)
    }

    /// `/`: the search page.
    private func page() -> HTTPResponse {
        HTTPResponse(status: 200, headers: [
            ("Content-Type", "text/html; charset=utf-8"),
            ("Cache-Control", "no-cache"),
            ("Content-Security-Policy", "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'none'; base-uri 'none'"),
            ("X-Content-Type-Options", "nosniff"),
        ], body: SearchPage.bytes)
    }

    /// A failure of the index itself (a damaged file): logged, and answered 500.
    func internalError(_ error: any Error) -> Refusal {
        ServerSystemCall.writeError("mmsearch serve: \(error)\n")
        return Refusal(status: 500, message: "the index could not answer: \(error)")
    }
}
