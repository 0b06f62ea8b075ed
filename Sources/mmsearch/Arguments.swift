import MMSearch

/// A command line after the subcommand: options (`--name value`, `--name=value`, `-o value`, flags)
/// and positional arguments; `--` ends the options, and `-` alone is a positional (standard input).
///
/// Plain arrays, not `Set` or `Dictionary`: a command line holds a handful of options, and the first
/// `Set<String>` or `[String: String]` in a process costs a scan of every protocol conformance in the
/// executable (about 100k instructions each in the static binary), which is a tenth of `mmsearch query`.
struct Arguments {
    /// Options with values, in the order given; a repeated option's last value wins.
    private var options: [(name: String, value: String)] = []
    private var flags: [String] = []
    private(set) var positionals: [String] = []

    /// Parses `arguments`; `valued` names the options that take a value, `flagNames` those that don't.
    init(_ arguments: [String], valued: [String], flagNames: [String]) throws(UsageError) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--" { positionals.append(contentsOf: rest); break }
            // "-" alone, and a negative number ("-33.87,151.21", a point south of the equator), are
            // positionals: no option starts with a digit.
            let isNegativeNumber = argument.utf8.count > 1 && argument.utf8.dropFirst().first.map { $0 &- UInt8(ascii: "0") < 10 || $0 == UInt8(ascii: ".") } == true
            guard argument.hasPrefix("-"), argument != "-", !isNegativeNumber else { positionals.append(argument); continue }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if flagNames.contains(name), inlineValue == nil {
                flags.append(name)
            } else if valued.contains(name) {
                guard let value = inlineValue ?? rest.popFirst() else { throw UsageError("\(name) needs a value") }
                options.append((name, value))
            } else {
                throw UsageError("unknown option \(argument)")
            }
        }
    }

    func value(_ name: String) -> String? { options.last { $0.name == name }?.value }
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// A whole number option, at least `minimum`.
    func integer(_ name: String, default fallback: Int, minimum: Int) throws(UsageError) -> Int {
        guard let text = value(name) else { return fallback }
        guard let value = Int(text), value >= minimum else {
            throw UsageError("\(name) takes a whole number of at least \(minimum), not \"\(text)\"")
        }
        return value
    }
}

/// A mistake in how mmsearch was called: exit status 2, with the command's usage.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// Buffered writing to standard output or error (the library's `SystemCall` does the writing), or
/// into memory (`collecting()`: what `serve` answers with, written by the same code as the commands').
struct Output {
    private var buffer: [UInt8] = []
    /// nil: everything written stays in `collected`.
    let stream: StandardStream?

    init(_ stream: StandardStream) {
        self.stream = stream
        buffer.reserveCapacity(1 << 16)
    }

    private init() { stream = nil }

    /// An output that keeps what is written, for `collected`.
    static func collecting() -> Output { Output() }

    /// Everything written to a collecting output.
    var collected: [UInt8] { buffer }

    mutating func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        guard let stream else { return }
        buffer.withUnsafeBytes { SystemCall.write($0, to: stream) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes one line to standard error at once.
    static func error(_ line: String) {
        var output = Output(.error)
        output.write(line + "\n")
        output.flush()
    }
}

extension String {
    /// The text right-aligned in a column `width` characters wide (as it is when already wider).
    func paddedLeft(to width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}
