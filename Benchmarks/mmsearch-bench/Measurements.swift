/// Latency figures computed exactly as the peers compute them: sort the per-query times, then
/// p50 = lat[n / 2], p99 = lat[n * 99 / 100], max = the last, and mean = the whole loop's wall time / n
/// (so the mean includes the clock reads and bookkeeping between queries, as theirs does).
struct LatencySummary {
    var count: Int
    var p50: Double
    var p99: Double
    var max: Double
    var mean: Double

    init(latencies: [UInt64], loopNanoseconds: UInt64) {
        let sorted = latencies.sorted()
        count = sorted.count
        p50 = sorted.isEmpty ? 0 : Double(sorted[sorted.count / 2])
        p99 = sorted.isEmpty ? 0 : Double(sorted[sorted.count * 99 / 100])
        max = Double(sorted.last ?? 0)
        mean = sorted.isEmpty ? 0 : Double(loopNanoseconds) / Double(sorted.count)
    }

    init(count: Int, p50: Double, p99: Double, max: Double, mean: Double) {
        self.count = count
        self.p50 = p50
        self.p99 = p99
        self.max = max
        self.mean = mean
    }
}

/// One engine's figures: printed, and parsed, in exactly the form `shared/peers/run.sh` prints:
/// `engine=NAME keys=… build_s=… size_bytes=… open_first_us=… queries=… p50_ns=… p99_ns=… max_ns=…
/// mean_ns=… matches=… peak_rss_kib=…`.
struct EngineLine {
    var engine: String
    var keys: Int
    var buildSeconds: Double
    var sizeBytes: Int
    var openFirstMicroseconds: Double
    var latency: LatencySummary
    var matches: Int
    var peakRSSKiB: Int

    var text: String {
        "engine=\(engine) keys=\(keys) build_s=\(fixed(buildSeconds, 3)) size_bytes=\(sizeBytes) "
            + "open_first_us=\(fixed(openFirstMicroseconds, 1)) queries=\(latency.count) "
            + "p50_ns=\(fixed(latency.p50, 0)) p99_ns=\(fixed(latency.p99, 0)) max_ns=\(fixed(latency.max, 0)) "
            + "mean_ns=\(fixed(latency.mean, 0)) matches=\(matches) peak_rss_kib=\(peakRSSKiB)"
    }

    init(engine: String, keys: Int, buildSeconds: Double, sizeBytes: Int, openFirstMicroseconds: Double,
         latency: LatencySummary, matches: Int, peakRSSKiB: Int) {
        self.engine = engine
        self.keys = keys
        self.buildSeconds = buildSeconds
        self.sizeBytes = sizeBytes
        self.openFirstMicroseconds = openFirstMicroseconds
        self.latency = latency
        self.matches = matches
        self.peakRSSKiB = peakRSSKiB
    }

    /// Reads a line of that form; nil when a field is missing.
    init?(_ line: some StringProtocol) {
        let fields = KeyValues(line)
        guard let engine = fields["engine"], let keys = fields.int("keys"), let build = fields.double("build_s"),
              let size = fields.int("size_bytes"), let open = fields.double("open_first_us"),
              let queries = fields.int("queries"), let p50 = fields.double("p50_ns"), let p99 = fields.double("p99_ns"),
              let max = fields.double("max_ns"), let mean = fields.double("mean_ns"),
              let matches = fields.int("matches"), let peak = fields.int("peak_rss_kib")
        else { return nil }
        self.init(engine: engine, keys: keys, buildSeconds: build, sizeBytes: size, openFirstMicroseconds: open,
                  latency: LatencySummary(count: queries, p50: p50, p99: p99, max: max, mean: mean),
                  matches: matches, peakRSSKiB: peak)
    }

    /// Every line of `text` that is an engine line.
    static func all(in text: String) -> [EngineLine] {
        text.split(separator: "\n").filter { $0.hasPrefix("engine=") }.compactMap { EngineLine($0) }
    }

    /// Of several runs of one engine, the one with the median p99 (the upper middle of an even count).
    static func medianRun(_ runs: [EngineLine]) -> EngineLine {
        runs.sorted { $0.latency.p99 < $1.latency.p99 }[runs.count / 2]
    }

    /// `lines` grouped by engine, in order of first appearance, each group reduced to its median run;
    /// with how many runs each engine had.
    static func medianRuns(_ lines: [EngineLine]) -> [(line: EngineLine, runs: Int)] {
        var order: [String] = []
        var groups: [String: [EngineLine]] = [:]
        for line in lines {
            if groups[line.engine] == nil { order.append(line.engine) }
            groups[line.engine, default: []].append(line)
        }
        return order.map { (medianRun(groups[$0]!), groups[$0]!.count) }
    }
}

/// `key=value` pairs separated by spaces: what the child processes print and what the peers print.
struct KeyValues {
    /// The text as printed.
    let text: String
    private var values: [String: String] = [:]

    init(_ text: some StringProtocol) {
        self.text = String(text)
        for token in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            guard let equals = token.firstIndex(of: "=") else { continue }
            values[String(token[..<equals])] = String(token[token.index(after: equals)...])
        }
    }

    subscript(key: String) -> String? { values[key] }
    func int(_ key: String) -> Int? { values[key].flatMap { Int($0) } }
    func double(_ key: String) -> Double? { values[key].flatMap { Double($0) } }

    /// The value of `key`, or an error naming the child whose output lacked it.
    func required(_ key: String, from child: String) throws -> Double {
        guard let value = double(key) else { throw BenchError("\(child) printed no \(key): \(values)") }
        return value
    }
}

/// A benchmark failure, said in one line.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

// MARK: - Numbers as text (no Foundation formatting in this target)

/// `value` with `decimals` digits after the point, rounded half away from zero: fixed(2.345, 1) == "2.3".
func fixed(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return "\(value)" }
    var scale = 1.0
    for _ in 0 ..< decimals { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 9e18 else { return "\(value)" }
    let digits = String(Int64(scaled))
    let sign = value < 0 && scaled != 0 ? "-" : ""
    guard decimals > 0 else { return sign + digits }
    let padded = String(repeating: "0", count: max(0, decimals + 1 - digits.count)) + digits
    return sign + padded.dropLast(decimals) + "." + padded.suffix(decimals)
}

/// An integer with thousands separators: 30436556 -> "30,436,556".
func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var result = ""
    for (offset, digit) in digits.enumerated() {
        if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
        result.append(digit)
    }
    return (value < 0 ? "-" : "") + result
}

/// Nanoseconds in a unit that reads well: "540 ns", "1.92 µs", "2.95 ms", "1.21 s".
func duration(nanoseconds: Double) -> String {
    switch nanoseconds {
    case ..<1_000: return "\(fixed(nanoseconds, 0)) ns"
    case ..<10_000: return "\(fixed(nanoseconds / 1e3, 2)) µs"
    case ..<1_000_000: return "\(fixed(nanoseconds / 1e3, 1)) µs"
    case ..<1_000_000_000: return "\(fixed(nanoseconds / 1e6, 2)) ms"
    default: return "\(fixed(nanoseconds / 1e9, 2)) s"
    }
}

/// Bytes in decimal units: "836 KB", "13.2 MB", "1.02 GB".
func size(bytes: Int) -> String {
    let value = Double(bytes)
    switch value {
    case ..<1e3: return "\(bytes) B"
    case ..<1e6: return "\(fixed(value / 1e3, 0)) KB"
    case ..<1e9: return "\(fixed(value / 1e6, value < 1e7 ? 2 : 1)) MB"
    default: return "\(fixed(value / 1e9, 2)) GB"
    }
}

/// KiB in the unit that reads well: "812 KiB", "34.2 MiB", "3.88 GiB".
func memory(kib: Int) -> String {
    switch kib {
    case ..<10_240: return "\(grouped(kib)) KiB"
    case ..<1_048_576: return "\(fixed(Double(kib) / 1024, 1)) MiB"
    default: return "\(fixed(Double(kib) / 1_048_576, 2)) GiB"
    }
}

/// How many times `value` is `reference`: "1,520×", "3.4×", "0.063×".
func ratio(_ value: Double, to reference: Double) -> String {
    guard reference > 0 else { return "n/a" }
    let times = value / reference
    switch times {
    case 100...: return "\(grouped(Int(times.rounded())))×"
    case 10...: return "\(fixed(times, 0))×"
    case 1...: return "\(fixed(times, 1))×"
    case 0.1...: return "\(fixed(times, 2))×"
    default: return "\(fixed(times, 3))×"
    }
}

/// The median of `values`, taken as the peers take p50: sorted[n / 2].
func median<T: Comparable>(_ values: [T]) -> T {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}
