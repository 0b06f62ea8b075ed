import Foundation
import MMSearchTestSupport
import Testing

/// `mmsearch search` driven as a person would: in a tmux window, keys sent with send-keys, the screen
/// read with capture-pane. tmux is required: `.ci/run` installs it.
@Suite(.serialized) struct SearchScreenTests {
    /// London rows for "Lond", more for "Lon" than one screen holds, and "Zü" cities.
    static let list: String = {
        func city(_ id: Int, _ name: String, _ country: String, _ lat: String, _ lon: String) -> String {
            #"{"_id":\#(id),"name":"\#(name)","country":"\#(country)","coord":{"lon":\#(lon),"lat":\#(lat)}}"#
        }
        var cities = [
            city(2643743, "London", "GB", "51.50853", "-0.12574"),
            city(6058560, "London", "CA", "42.983391", "-81.23304"),
            city(4298960, "London", "US", "37.128979", "-84.08326"),
            city(4517009, "London", "US", "39.886452", "-83.44825"),
            city(2643736, "Londonderry", "GB", "54.997211", "-7.30917"),
            city(3458449, "Londrina", "BR", "-23.31028", "-51.162781"),
            city(5367929, "Long Beach", "US", "33.76696", "-118.189232"),
            city(2729907, "Longyearbyen", "SJ", "78.223167", "15.64669"),
            city(2657896, "Zürich", "CH", "47.366669", "8.55"),
            city(2657908, "Zug", "CH", "47.166672", "8.51667"),
            city(2988507, "Paris", "FR", "48.853409", "2.3488"),
        ]
        for number in 1 ... 30 { cities.append(city(9_000_000 + number, "Lonsdale \(number < 10 ? "0" : "")\(number)", "US", "40", "-100")) }
        return "[" + cities.joined(separator: ",\n") + "]"
    }()

    /// A directory with the fixture index, and a tmux window of `columns`×`rows` running sh in it.
    static func start(columns: Int = 80, rows: Int = 24) throws -> (TemporaryDirectory, TmuxWindow) {
        let directory = try TemporaryDirectory()
        try Data(list.utf8).write(to: URL(fileURLWithPath: directory.file("list.json")))
        let build = try MMSearchProcess.run(["build", directory.file("list.json"), "-o", directory.file("cities.mms")])
        #expect(build.status == 0, "build failed: \(build.error)")
        return (directory, try TmuxWindow(directory: directory, columns: columns, rows: rows))
    }

    /// Types the command that starts the search screen; its pid goes to `pid` and, once it has ended,
    /// the shell prints `status=N`.
    static func startSearch(in window: TmuxWindow, _ directory: TemporaryDirectory) throws {
        let command = "sh -c 'echo $$ > \(directory.file("pid")); exec \(MMSearchProcess.executable) search --index \(directory.file("cities.mms"))'; echo status=$?"
        try window.run(command)
        try window.waitFor("the empty-query prompt") { $0.contains("Search:") && $0.contains("41 cities") }
    }

    @Test func typingPagingAndChoosingLondon() throws {
        let (directory, window) = try Self.start()
        defer { window.close(); directory.remove() }
        try Self.startSearch(in: window, directory)

        try window.type("Lond")
        var screen = try window.waitFor("London rows and their count") { $0.contains("1-6 of 6 matches") }
        #expect(screen.contains("Search: Lond"))
        #expect(screen.contains("> London, CA") && screen.contains("  London, GB") && screen.contains("51.50853,") && screen.contains("Londrina, BR"))
        #expect(!screen.contains("Long Beach"))

        // One more letter redraws only the rows that change: the query, the count, the row that goes.
        let log = window.directory.file("redraw.log")
        try window.tmux(["pipe-pane", "-o", "-t", window.target, "cat > \(log)"])
        try window.type("o")
        screen = try window.waitFor("the narrower query") { $0.contains("1-5 of 5 matches") }
        try window.tmux(["pipe-pane", "-t", window.target])
        let redraw = TmuxWindow.pipedLog(log, timeout: 20) { $0.contains("Search: Londo") && $0.contains("1-5 of 5 matches") }
        #expect(redraw.contains("Search: Londo") && redraw.contains("1-5 of 5 matches"))
        #expect(!redraw.contains("London, GB") && !redraw.contains("\u{1B}[2J"), "unchanged rows were redrawn: \(redraw.debugDescription)")

        try window.press("BSpace", "BSpace")
        screen = try window.waitFor("wider results after Backspace") { $0.contains("1-21 of 38 matches") }
        #expect(screen.contains("Search: Lon") && screen.contains("Longyearbyen, SJ") && screen.contains("Lonsdale 13"))
        #expect(!screen.contains("Lonsdale 14"))

        try window.press("PageDown")
        screen = try window.waitFor("the next page") { $0.contains("18-38 of 38 matches") }
        #expect(screen.contains("Lonsdale 30, US") && !screen.contains("London, GB"))
        try window.press("PageUp")
        try window.waitFor("the first page again") { $0.contains("1-21 of 38 matches") && $0.contains("> London, CA") }

        // Ctrl-U clears the query; Ctrl-W deletes a word.
        try window.press("C-u")
        try window.waitFor("the prompt after Ctrl-U") { $0.contains("41 cities") }
        try window.type("Par x")
        try window.waitFor("no matches") { $0.contains("no matches") }
        try window.press("C-w", "BSpace")
        try window.waitFor("Paris after Ctrl-W") { $0.contains("1 match") && $0.contains("> Paris, FR") }

        try window.press("C-u")
        try window.type("Lond")
        try window.press("Down")
        try window.waitFor("London, GB selected") { $0.contains("> London, GB") }
        try window.press("Enter")
        screen = try window.waitFor("the chosen city") { TmuxWindow.exitStatus(on: $0) != nil }
        #expect(screen.contains("London, GB  51.50853, -0.12574  2643743"))
        #expect(screen.contains("https://www.openstreetmap.org/?mlat=51.50853&mlon=-0.12574#map=12/51.50853/-0.12574"))
        #expect(TmuxWindow.exitStatus(on: screen) == 0)
        #expect(!screen.contains("Search:")) // the alternate screen is gone
    }

    /// With regions, every row shows its region, so the Springfields differ; a typo is forgiven and
    /// the status line says so.
    @Test func regionsOnEveryRowAndTyposInTheStatus() throws {
        let directory = try RegionsCommandTests.directory()
        let window = try TmuxWindow(directory: directory, columns: 80, rows: 24)
        defer { window.close(); directory.remove() }
        try window.run("\(MMSearchProcess.executable) search --index \(directory.file("regions.mms")); echo status=$?")
        try window.waitFor("the empty-query prompt") { $0.contains("Search:") && $0.contains("12 cities") }
        try window.type("springf")
        var screen = try window.waitFor("the Springfields") { $0.contains("1-4 of 4 matches") }
        for state in ["Missouri", "Massachusetts", "Illinois", "Oregon"] { #expect(screen.contains("Springfield, \(state), US"), "\(screen)") }
        #expect(!screen.contains("typo"))
        try window.press("C-u")
        try window.type("sprinfg")
        screen = try window.waitFor("the Springfields, with a typo") { $0.contains("1-4 of 4 matches, with 1 typo") }
        #expect(screen.contains("> Springfield, Missouri, US"))
        try window.press("Escape")
        try window.waitFor("the screen closed") { TmuxWindow.exitStatus(on: $0) != nil }
    }

    /// `--near`: the cities near the point first, each row ending with its distance as `query`'s text
    /// writes it; the empty query lists the nearest; a bad point is a usage error naming it.
    @Test func nearAPointEachRowWithItsDistance() throws {
        let (directory, window) = try Self.start(columns: 90)
        defer { window.close(); directory.remove() }
        let index = directory.file("cities.mms")
        /// `query`'s text lines near the point: the place, and the distance it ends with.
        func expected(_ arguments: [String]) throws -> [(place: String, distance: String)] {
            let run = try MMSearchProcess.run(["query", "--index", index, "--near", "42.98,-81.2", "--country", "CA,US"] + arguments)
            #expect(run.status == 0, "\(run.error)")
            return run.output.split(separator: "\n").dropLast().map { line in
                let parts = line.components(separatedBy: "  ")
                return (parts[0], parts[parts.count - 1])
            }
        }
        func expectRows(_ rows: [(place: String, distance: String)], on screen: String) {
            let lines = screen.split(separator: "\n")
            for row in rows {
                #expect(lines.contains { $0.contains(row.place + " ") && $0.contains(" " + row.distance) }, "\(row): \(screen)")
            }
        }
        try window.run("\(MMSearchProcess.executable) search --index \(index) --near 42.98,-81.2 --country CA,US; echo status=$?")
        var screen = try window.waitFor("the nearest cities") { $0.contains("nearest first: 1-") && $0.contains(" of 34 cities") }
        let nearest = try expected(["--order", "distance", "--limit", "3", ""])
        #expect(nearest.first?.place == "London, CA")
        #expect(screen.contains("> London, CA"), "\(screen)")
        expectRows(nearest, on: screen)
        try window.type("lond")
        screen = try window.waitFor("the Londons near the point") { $0.contains("1-3 of 3 matches") }
        let londons = try expected(["lond"])
        #expect(londons.count == 3)
        expectRows(londons, on: screen)
        try window.press("Escape")
        try window.waitFor("the screen closed") { TmuxWindow.exitStatus(on: $0) != nil }
        let bad = try MMSearchProcess.run(["search", "--index", index, "--near", "91,0"])
        #expect(bad.status == 2 && bad.error.contains("--near") && bad.error.contains("91,0"), "\(bad.error)")
    }

    @Test func utf8InputAndCtrlCLeaveTheTerminalSane() throws {
        let (directory, window) = try Self.start()
        defer { window.close(); directory.remove() }
        try Self.startSearch(in: window, directory)
        try window.type("Zü")
        let screen = try window.waitFor("Zürich for \"Zü\"") { $0.contains("Zürich, CH") }
        #expect(screen.contains("Search: Zü") && screen.contains("1-2 of 2 matches") && screen.contains("Zug, CH"))
        try window.press("C-c")
        try window.waitFor("the exit status after Ctrl-C") { TmuxWindow.exitStatus(on: $0) == 130 }
        try Self.expectSaneTerminal(window)
    }

    @Test func sigtermRestoresTheTerminal() throws {
        let (directory, window) = try Self.start()
        defer { window.close(); directory.remove() }
        try Self.startSearch(in: window, directory)
        try window.type("Par")
        try window.waitFor("Paris") { $0.contains("Paris, FR") }
        let pidText = try String(contentsOfFile: directory.file("pid"), encoding: .utf8)
        let pid = try #require(Int32(pidText.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(pid, SIGTERM) == 0)
        try window.waitFor("the exit status after SIGTERM") { TmuxWindow.exitStatus(on: $0) == 143 }
        try Self.expectSaneTerminal(window)
    }

    /// The smallest supported window, then a resize (SIGWINCH), then Esc.
    @Test func smallWindowResizeAndEscape() throws {
        let (directory, window) = try Self.start(columns: 40, rows: 10)
        defer { window.close(); directory.remove() }
        try Self.startSearch(in: window, directory)
        try window.type("Lon")
        var screen = try window.waitFor("a page of 7 rows") { $0.contains("1-7 of 38 matches") }
        #expect(screen.contains("> London, CA") && screen.contains("42.983391,") && screen.contains("-81.23304"))
        try window.press("PageDown")
        screen = try window.waitFor("the second page") { $0.contains("8-14 of 38 matches") }
        #expect(screen.contains("> Longyearbye…") && screen.contains("Lonsdale 06"))
        try window.tmux(["resize-window", "-t", window.target, "-x", "60", "-y", "15"])
        screen = try window.waitFor("a page of 12 rows after the resize") { $0.contains("8-19 of 38 matches") }
        #expect(screen.contains("> Longyearbyen, SJ") && screen.contains("Lonsdale 11, US"))
        try window.press("Escape")
        try window.waitFor("the exit status after Esc") { TmuxWindow.exitStatus(on: $0) == 130 }
        try Self.expectSaneTerminal(window)
    }

    /// On a terminal, build shows its progress on one line of standard error, rewritten with \r.
    @Test func buildShowsProgressOnATerminal() throws {
        let (directory, window) = try Self.start()
        defer { window.close(); directory.remove() }
        let log = directory.file("build.log")
        try window.tmux(["pipe-pane", "-o", "-t", window.target, "cat > \(log)"])
        try window.run("\(MMSearchProcess.executable) build \(directory.file("list.json")) -o \(directory.file("again.mms")); echo status=$?")
        let screen = try window.waitFor("the build") { TmuxWindow.exitStatus(on: $0) != nil }
        try window.tmux(["pipe-pane", "-t", window.target])
        #expect(TmuxWindow.exitStatus(on: screen) == 0 && screen.contains("mmsearch build: wrote"))
        #expect(!screen.contains("records read")) // the progress line is cleared at the end
        // (Under a loaded test run a first read of the log found it empty.)
        let output = TmuxWindow.pipedLog(log, timeout: 10) { $0.contains("bytes written") }
        for stage in ["reading", "41 records read", "41 records sorted", "bytes written"] {
            #expect(output.contains(stage), "\(stage) in \(output.debugDescription)")
        }
        #expect(output.contains("\r\u{1B}[K"))
    }

    /// The shell after the screen: signals, canonical mode and echo back on, as stty reports them.
    static func expectSaneTerminal(_ window: TmuxWindow) throws {
        try window.run("echo \"[$(stty -a | tr ' ' '\\n' | grep -x -e '-*isig' -e '-*icanon' -e '-*echo' | tr '\\n' ' ')]\"")
        let screen = try window.waitFor("stty's answer") { $0.split(separator: "\n").contains { $0.hasPrefix("[") } }
        #expect(screen.contains("[isig icanon echo ]"), "\(screen)")
        #expect(!screen.contains("Search:"))
    }
}

/// A tmux server of its own (socket in the test's directory), with one window running sh: keys go in
/// with send-keys, the screen comes out with capture-pane.
struct TmuxWindow {
    let directory: TemporaryDirectory
    let target = "search"
    private let socket: String

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let tmux: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/tmux" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    init(directory: TemporaryDirectory, columns: Int, rows: Int) throws {
        guard Self.tmux != nil else {
            throw Failure(description: "tmux is not installed: the search screen tests need it (.ci/run installs it with apt-get install tmux)")
        }
        self.directory = directory
        socket = directory.file("tmux.socket")
        try tmux(["-f", "/dev/null", "new-session", "-d", "-s", target, "-x", "\(columns)", "-y", "\(rows)", "env PS1='$ ' /bin/sh",
                  ";", "set-option", "-g", "status", "off"])
        try waitFor("the shell prompt") { $0.contains("$") }
    }

    /// Runs tmux with this window's server; a failure throws with tmux's message.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let (status, output, error) = try Self.spawn(Self.tmux!, ["-S", socket] + arguments, in: directory)
        guard status == 0 else {
            throw Failure(description: "tmux \(arguments.joined(separator: " ")) failed (status \(status)): \(error)")
        }
        return output
    }

    /// Runs `executable` and waits for it, its output and errors going through files. Not Foundation's
    /// Process: the tmux server that a tmux client starts would inherit the descriptors Process uses to
    /// see its child end (and any other test's pipes open at the time), and hold them while it runs.
    /// Here the child gets standard streams only, and default signal handling.
    static func spawn(_ executable: String, _ arguments: [String], in directory: TemporaryDirectory) throws -> (status: Int32, output: String, error: String) {
        let outputPath = directory.file("spawn-\(UUID().uuidString).out"), errorPath = outputPath + ".err"
        defer { unlink(outputPath); unlink(errorPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap({ Int32($0) }) where fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw Failure(description: "could not start \(executable): errno \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        return ((status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F), read(outputPath), read(errorPath))
    }

    /// Types `text` as it is (no key names).
    func type(_ text: String) throws { try tmux(["send-keys", "-t", target, "-l", text]) }

    /// Presses keys by tmux's names: "Enter", "BSpace", "C-c", "PageDown"...
    func press(_ keys: String...) throws { try tmux(["send-keys", "-t", target] + keys) }

    /// Types a shell command line and Enter.
    func run(_ command: String) throws {
        try type(command)
        try press("Enter")
    }

    /// What the window shows now, wrapped lines joined.
    func screen() throws -> String { try tmux(["capture-pane", "-p", "-J", "-t", target]) }

    /// Polls the screen until `condition` holds, up to `timeout` seconds; then fails with what it shows.
    @discardableResult
    func waitFor(_ what: String, timeout: Double = 20, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var shown = ""
        repeat {
            shown = try screen()
            if condition(shown) { return shown }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        throw Failure(description: "waited \(timeout) s for \(what); the screen shows:\n\(shown)")
    }

    /// The file `pipe-pane`'s `cat > path` wrote, read until `condition` holds, for at most `timeout`
    /// seconds; then as it is. `cat`, another process, writes what it reads as it is scheduled, possibly
    /// after the pipe is closed, so one read as the pipe closes may find the file short.
    static func pipedLog(_ path: String, timeout: Double, until condition: (String) -> Bool) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var log = ""
        repeat {
            log = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            if condition(log) { break }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return log
    }

    func close() { _ = try? tmux(["kill-server"]) }

    /// N from the shell's `status=N` line on `screen` (the line the test commands end with), if shown.
    static func exitStatus(on screen: String) -> Int? {
        screen.split(separator: "\n").lazy.compactMap { $0.hasPrefix("status=") ? Int($0.dropFirst(7)) : nil }.first
    }
}
