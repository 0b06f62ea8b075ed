#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import MMSearch

// The command line's one file of C calls (the library's are in MMSearch's SystemCall.swift): the
// terminal in raw mode, its size, signals, and keys decoded from the bytes it sends.

// C's write(2), for `Terminal`, whose own `write` the plain name means inside it. (A call qualified
// by the C library's module name compiles against that one library only.)
@inline(__always) private func cWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }

/// The controlling terminal (/dev/tty), switched to raw mode and the alternate screen for a
/// full-screen program. `restore()` puts back everything `start()` changed; call it on every way out
/// (it is idempotent). Standard input and output are left alone, so the program's result can go to
/// standard output while the screen is drawn on the terminal.
final class Terminal {
    /// What the terminal has for the program.
    enum Event {
        /// Bytes typed (or pasted).
        case input([UInt8])
        /// The window changed size (SIGWINCH).
        case resized
        /// Nothing arrived within the time asked for.
        case timeout
        /// A signal asks the program to end (SIGTERM, SIGHUP, SIGINT, SIGQUIT); a terminal that hung up
        /// counts as SIGHUP.
        case ended(signal: Int32)
    }

    private static let path = "/dev/tty"
    /// The signals that end the screen, and the one that resizes it.
    private static let endingSignals = [SIGTERM, SIGHUP, SIGINT, SIGQUIT]
    private static let watchedSignals = endingSignals + [SIGWINCH]

    private let fd: Int32
    private let originalMode: termios
    private var originalActions: [Int32: sigaction] = [:]
    /// Signal handlers write the signal number here; the event loop polls the other end.
    private let signalPipe: (read: Int32, write: Int32)
    private var isRestored = false

    /// Opens the terminal, installs the signal handlers, and enters raw mode and the alternate screen.
    static func start() throws(MMSearchError) -> Terminal {
        let fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw .io(path: path, operation: "open", errno: errno) }
        var mode = termios()
        guard tcgetattr(fd, &mode) == 0 else {
            let code = errno
            _ = close(fd)
            throw .io(path: path, operation: "tcgetattr", errno: code)
        }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            let code = errno
            _ = close(fd)
            throw .io(path: path, operation: "pipe", errno: code)
        }
        // Neither end is inherited; a handler's write never blocks, nor does draining the pipe.
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        let terminal = Terminal(fd: fd, originalMode: mode, signalPipe: (ends[0], ends[1]))
        try terminal.enter()
        return terminal
    }

    private init(fd: Int32, originalMode: termios, signalPipe: (read: Int32, write: Int32)) {
        self.fd = fd
        self.originalMode = originalMode
        self.signalPipe = signalPipe
    }

    private func enter() throws(MMSearchError) {
        signalPipeWriteEnd = signalPipe.write
        for signal in Self.watchedSignals {
            var action = sigaction()
            // The handler sits in a union that each C library names differently.
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = forwardSignal
            #elseif canImport(Musl)
            action.__sa_handler.sa_handler = forwardSignal
            #elseif canImport(Darwin)
            action.__sigaction_u.__sa_handler = forwardSignal
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            var previous = sigaction()
            _ = sigaction(signal, &action, &previous)
            originalActions[signal] = previous
        }
        // Raw: bytes as typed, no echo, no line editing, no signals from Ctrl-C (it is a key here).
        // (cfmakeraw also sets VMIN 1, VTIME 0: a read returns as soon as one byte is there.)
        var raw = originalMode
        cfmakeraw(&raw)
        guard tcsetattr(fd, TCSADRAIN, &raw) == 0 else {
            let code = errno
            restore()
            throw .io(path: Self.path, operation: "tcsetattr", errno: code)
        }
        // The alternate screen (the shell's screen comes back on exit), no line wrap, cleared.
        write("\u{1B}[?1049h\u{1B}[?7l\u{1B}[H\u{1B}[2J")
    }

    /// Leaves the alternate screen, shows the cursor, puts the terminal mode and signal handlers back.
    func restore() {
        guard !isRestored else { return }
        isRestored = true
        write("\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l")
        var mode = originalMode
        _ = tcsetattr(fd, TCSADRAIN, &mode)
        for (signal, action) in originalActions {
            var action = action
            _ = sigaction(signal, &action, nil)
        }
        signalPipeWriteEnd = -1
        _ = close(signalPipe.read)
        _ = close(signalPipe.write)
        _ = close(fd)
    }

    deinit { restore() }

    /// The window's size in character cells; 80×24 if the terminal does not say.
    var size: (rows: Int, columns: Int) {
        var window = winsize()
        // TIOCGWINSZ is an Int32 in Glibc and Musl, a UInt on Darwin; every overlay's ioctl takes a UInt.
        guard ioctl(fd, UInt(TIOCGWINSZ), &window) == 0, window.ws_row > 0, window.ws_col > 0 else { return (24, 80) }
        return (Int(window.ws_row), Int(window.ws_col))
    }

    /// Writes all of `text`, retrying short writes and EINTR; a failure (the terminal gone) is left
    /// to the next read to notice.
    func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var done = 0
            while done < bytes.count {
                let n = cWrite(fd, bytes.baseAddress! + done, bytes.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    return
                }
                done += n
            }
        }
    }

    /// Waits for the next event: input, a signal, or (with `timeoutMilliseconds`) the time running out.
    func nextEvent(timeoutMilliseconds: Int32? = nil) throws(MMSearchError) -> Event {
        while true {
            var watched = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: signalPipe.read, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&watched, 2, timeoutMilliseconds ?? -1)
            if ready < 0 {
                if errno == EINTR { continue } // a signal: its byte is in the pipe now
                throw .io(path: Self.path, operation: "poll", errno: errno)
            }
            if ready == 0 { return .timeout }
            if watched[1].revents != 0 {
                var signals = [UInt8](repeating: 0, count: 64)
                let count = read(signalPipe.read, &signals, signals.count)
                let received = signals.prefix(max(0, count)).map(Int32.init)
                if let ending = received.first(where: Self.endingSignals.contains) { return .ended(signal: ending) }
                if received.contains(SIGWINCH) { return .resized }
            }
            guard watched[0].revents != 0 else { continue }
            var bytes = [UInt8](repeating: 0, count: 4096)
            let n = read(fd, &bytes, bytes.count)
            if n < 0, errno == EINTR || errno == EAGAIN { continue }
            guard n > 0 else { return .ended(signal: SIGHUP) } // end of file or an error: the terminal hung up
            return .input(Array(bytes[0 ..< n]))
        }
    }
}

/// Where a signal handler sends the signal number: set while a `Terminal` is open. A C handler can
/// capture nothing, so this is global; written only outside handlers, read inside them.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// The handler for every watched signal: writes its number to the signal pipe, which is all an
/// async-signal-safe handler may do here; the event loop does the rest.
private func forwardSignal(_ signal: Int32) {
    let savedErrno = errno
    var number = UInt8(truncatingIfNeeded: signal)
    _ = write(signalPipeWriteEnd, &number, 1)
    errno = savedErrno
}

/// A key, as decoded from the bytes a terminal sends.
enum Key: Equatable {
    /// A printable character (a Unicode scalar, from however many UTF-8 bytes).
    case text(Unicode.Scalar)
    case enter, backspace, escape, up, down, pageUp, pageDown, home, end
    /// Ctrl and a letter, e.g. `.control("c")` for Ctrl-C (byte 3).
    case control(Character)
    /// Something this program has no use for (another escape sequence, an invalid byte).
    case other
}

/// Turns terminal input bytes into keys: UTF-8 characters, control keys, and the ANSI escape
/// sequences for arrows, Home/End and PageUp/PageDown. A sequence or character cut in two by a read
/// is kept until the next bytes arrive; `flush()` ends it (a lone ESC byte is the Esc key, which is
/// told from the start of a sequence by nothing following it soon).
struct KeyDecoder {
    private var pending: [UInt8] = []

    /// Whether bytes are waiting for the rest of their key.
    var hasPending: Bool { !pending.isEmpty }

    mutating func decode(_ bytes: [UInt8]) -> [Key] {
        pending += bytes
        var keys: [Key] = []
        var position = 0
        while position < pending.count {
            guard let (key, length) = Self.key(in: pending[position...]) else { break } // incomplete
            keys.append(key)
            position += length
        }
        pending.removeFirst(position)
        return keys
    }

    /// Ends what is pending: a lone ESC is the Esc key; a cut-off sequence or character is dropped.
    mutating func flush() -> [Key] {
        defer { pending.removeAll() }
        return pending == [0x1B] ? [.escape] : pending.isEmpty ? [] : [.other]
    }

    /// The key at the start of `bytes` and how many bytes it takes, or nil when more are needed.
    private static func key(in bytes: ArraySlice<UInt8>) -> (Key, Int)? {
        let first = bytes[bytes.startIndex]
        switch first {
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x1B: return escapeSequence(in: bytes)
        case 0x01 ... 0x1A: return (.control(Character(Unicode.Scalar(first + 0x60))), 1)
        case 0x00, 0x1C ... 0x1F: return (.other, 1)
        case 0x20 ... 0x7E: return (.text(Unicode.Scalar(first)), 1)
        default: return utf8Character(in: bytes)
        }
    }

    /// ESC [ parameters final (CSI), ESC O final (SS3), or ESC alone.
    private static func escapeSequence(in bytes: ArraySlice<UInt8>) -> (Key, Int)? {
        let start = bytes.startIndex
        guard bytes.count >= 2 else { return nil }
        switch bytes[start + 1] {
        case UInt8(ascii: "["):
            // Parameter and intermediate bytes (0x20-0x3F), then one final byte (0x40-0x7E).
            var end = start + 2
            while end < bytes.endIndex, (0x20 ... 0x3F).contains(bytes[end]) { end += 1 }
            guard end < bytes.endIndex else { return nil }
            let parameters = String(decoding: bytes[(start + 2) ..< end], as: UTF8.self)
            let length = end + 1 - start
            switch (bytes[end], parameters.split(separator: ";").first ?? "") {
            case (UInt8(ascii: "A"), _): return (.up, length)
            case (UInt8(ascii: "B"), _): return (.down, length)
            case (UInt8(ascii: "H"), _): return (.home, length)
            case (UInt8(ascii: "F"), _): return (.end, length)
            case (UInt8(ascii: "~"), "5"): return (.pageUp, length)
            case (UInt8(ascii: "~"), "6"): return (.pageDown, length)
            case (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): return (.home, length)
            case (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): return (.end, length)
            default: return (.other, length)
            }
        case UInt8(ascii: "O"):
            guard bytes.count >= 3 else { return nil }
            switch bytes[start + 2] {
            case UInt8(ascii: "A"): return (.up, 3)
            case UInt8(ascii: "B"): return (.down, 3)
            case UInt8(ascii: "H"): return (.home, 3)
            case UInt8(ascii: "F"): return (.end, 3)
            default: return (.other, 3)
            }
        case 0x1B:
            return (.escape, 1) // Esc pressed twice: the first is a key of its own
        default:
            return (.other, 2) // Alt and a key
        }
    }

    /// One UTF-8 encoded scalar of 2 to 4 bytes; an invalid byte is `.other`, one byte long.
    private static func utf8Character(in bytes: ArraySlice<UInt8>) -> (Key, Int)? {
        let first = bytes[bytes.startIndex]
        let length: Int
        switch first {
        case 0xC2 ... 0xDF: length = 2
        case 0xE0 ... 0xEF: length = 3
        case 0xF0 ... 0xF4: length = 4
        default: return (.other, 1) // a continuation byte, or a byte UTF-8 never uses
        }
        // A byte that cannot continue the character ends it as invalid, at once rather than after a wait.
        guard bytes.dropFirst().prefix(length - 1).allSatisfy({ $0 & 0xC0 == 0x80 }) else { return (.other, 1) }
        guard bytes.count >= length else { return nil }
        let encoded = bytes[bytes.startIndex ..< bytes.startIndex + length]
        // The standard library's decoder (not `String(validating:as:)`, which needs macOS 15) refuses
        // overlong forms, surrogates and scalars past U+10FFFF.
        var decoder = UTF8()
        var iterator = encoded.makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator), case .emptyInput = decoder.decode(&iterator)
        else { return (.other, 1) }
        return (.text(scalar), length)
    }
}
