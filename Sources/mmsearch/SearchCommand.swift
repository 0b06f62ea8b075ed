import MMSearch

enum SearchCommand: Command {
    static let usage = """
        usage: mmsearch search [--index PATH] [--near LAT,LON [--near-km H]] [--country CODES]
                               [--bbox W,S,E,N] [--within LAT,LON,KM] [--min-population N]

        A full-screen search: type the start of a city's name and the matches and their count follow
        every keystroke. Backspace, Ctrl-U (clear) and Ctrl-W (delete a word) edit the query; Up and
        Down (or Ctrl-P, Ctrl-N) move the selection, PageUp and PageDown go a screen at a time, Home
        and End to the first and last match. Enter prints the chosen city and its OpenStreetMap link
        on standard output and exits; Esc or Ctrl-C quits. The screen is drawn on the terminal
        (/dev/tty), so `mmsearch search > choice.txt` works, and the terminal is always restored.

        options:
          --index PATH   the index (default: $MMSEARCH_INDEX, else cities.mms in this directory)
          --near LAT,LON the cities near this point first, each row with its distance (as `query`;
                         --near-km H: the boost halves every H km, default 100); with the query
                         empty, the nearest cities
          --country CODES, --bbox W,S,E,N, --within LAT,LON,KM, --min-population N
                         only the cities these allow (as for `query`)

        exit status: 0 when a city was chosen, 130 when the search was quit (Esc, Ctrl-C), 128 + N when
        signal N ended it, 1 on a bad index or no terminal, 2 on bad usage.
        """

    /// How the screen ended.
    private enum Ending {
        case chosen(City)
        case quit
        case signaled(Int32)
    }

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, valued: ["--index"] + GeoOptions.commandLineNames, flagNames: [])
        guard parsed.positionals.isEmpty else { throw UsageError("search takes no PREFIX; type it on the screen") }
        let geo = try GeoOptions(parsed, order: .rank)
        let index = try QueryCommand.openIndex(path: parsed.value("--index"), data: nil)
        switch try runScreen(index, geo: geo) {
        case .chosen(let city):
            var output = Output(.output)
            output.write(ResultFormat.textLine(city) + "\n" + mapLink(city) + "\n")
            output.flush()
            return 0
        case .quit:
            return 130
        case .signaled(let signal):
            return 128 + signal
        }
    }

    /// Runs the screen until a city is chosen or the search ends; the terminal is restored on every
    /// way out, errors included.
    private static func runScreen(_ index: CityIndex, geo: GeoOptions) throws -> Ending {
        let terminal = try Terminal.start()
        defer { terminal.restore() }
        var screen = try SearchScreen(index: index, size: terminal.size, geo: geo)
        var decoder = KeyDecoder()
        terminal.write(try screen.update())
        while true {
            let keys: [Key]
            // A lone ESC may be the start of a sequence: wait a moment for the rest, then take it as Esc.
            switch try terminal.nextEvent(timeoutMilliseconds: decoder.hasPending ? 50 : nil) {
            case .input(let bytes): keys = decoder.decode(bytes)
            case .timeout: keys = decoder.flush()
            case .resized: screen.resize(to: terminal.size); keys = []
            case .ended(let signal): return .signaled(signal)
            }
            for key in keys {
                switch try screen.handle(key) {
                case .stay: continue
                case .choose(let city): return .chosen(city)
                case .cancel: return .quit
                }
            }
            // Every key of one read is handled before the screen is drawn once.
            terminal.write(try screen.update())
        }
    }

    /// The city on OpenStreetMap, a marker at its coordinates, zoomed to town level.
    static func mapLink(_ city: City) -> String {
        let latitude = city.coordinate.latitudeText, longitude = city.coordinate.longitudeText
        return "https://www.openstreetmap.org/?mlat=\(latitude)&mlon=\(longitude)#map=12/\(latitude)/\(longitude)"
    }
}
