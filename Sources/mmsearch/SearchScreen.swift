import MMSearch

/// The search screen apart from the terminal: keys go in, and out come the bytes that redraw what
/// changed. A query line at the top, a status line with the count and the rows shown, a page of
/// matches with the selection in reverse video, and a line of key help at the bottom.
struct SearchScreen {
    /// What a key leads to.
    enum Outcome {
        case stay
        case choose(City)
        case cancel
    }

    private static let prompt = "Search: "
    private static let help = " Up/Dn PgUp/PgDn  Enter pick  Esc quit"

    let index: CityIndex
    /// The point to rank near and the filters (`--near`, `--country`...).
    let geo: GeoOptions
    private var query = ""
    /// The matches of `query`; nil while it is empty (the screen then shows a prompt, not every city),
    /// unless near a point: then the nearest cities.
    private var results: SearchResults?
    /// The selected match, and the first one on screen.
    private var selected = 0
    private var top = 0
    private var rows: Int
    private var columns: Int
    /// The rows as last drawn, to redraw only those that change.
    private var drawnRows: [String] = []

    init(index: CityIndex, size: (rows: Int, columns: Int), geo: GeoOptions = GeoOptions()) throws(MMSearchError) {
        self.index = index
        self.geo = geo
        (rows, columns) = size
        try search()
    }

    /// Matches on one screen: every row but the query, status and help lines.
    private var pageSize: Int { max(1, rows - 3) }
    private var matchCount: Int { results?.count ?? 0 }

    mutating func handle(_ key: Key) throws(MMSearchError) -> Outcome {
        switch key {
        case .text(let scalar):
            query.unicodeScalars.append(scalar)
            try search()
        case .backspace where !query.isEmpty:
            query.removeLast()
            try search()
        case .control("u"):
            query = ""
            try search()
        case .control("w"):
            // The word before the cursor, and the spaces after it.
            while query.last?.isWhitespace == true { query.removeLast() }
            while let last = query.last, !last.isWhitespace { query.removeLast() }
            try search()
        case .up, .control("p"): select(selected - 1)
        case .down, .control("n"): select(selected + 1)
        case .pageUp: page(by: -1)
        case .pageDown: page(by: 1)
        case .home: select(0)
        case .end: select(matchCount - 1)
        case .enter:
            if let results, !results.isEmpty { return .choose(try results.city(at: selected)) }
        case .escape, .control("c"):
            return .cancel
        default:
            break
        }
        return .stay
    }

    /// The window is now `size`: the next update redraws everything.
    mutating func resize(to size: (rows: Int, columns: Int)) {
        (rows, columns) = size
        drawnRows = []
        select(selected)
    }

    /// What to write to the terminal to show the current state: the rows that differ from the last
    /// frame (all of them after a resize), then the cursor at the end of the query.
    mutating func update() throws(MMSearchError) -> String {
        let frame = try render()
        var output = "\u{1B}[?25l" // no cursor while rows change
        if drawnRows.isEmpty { output += "\u{1B}[2J" }
        for (row, line) in frame.enumerated() where row >= drawnRows.count || drawnRows[row] != line {
            output += "\u{1B}[\(row + 1);1H" + line
        }
        drawnRows = frame
        let queryLine = Self.fitTail(query, width: columns - DisplayWidth.of(Self.prompt) - 1)
        output += "\u{1B}[1;\(min(columns, DisplayWidth.of(Self.prompt) + DisplayWidth.of(queryLine) + 1))H\u{1B}[?25h"
        return output
    }

    private mutating func search() throws(MMSearchError) {
        if query.isEmpty {
            // Near a point, the empty query is the nearest cities; else a prompt.
            results = geo.near == nil ? nil : try index.search("", order: .distance, typos: .off, filter: geo.filter, near: geo.near)
        } else {
            results = try index.search(query, filter: geo.filter, near: geo.near)
        }
        selected = 0
        top = 0
    }

    /// Selects match `position` (clamped), scrolling as little as keeps it on screen.
    private mutating func select(_ position: Int) {
        selected = max(0, min(position, matchCount - 1))
        if selected < top { top = selected }
        if selected >= top + pageSize { top = selected - pageSize + 1 }
    }

    /// One screen forward or back: the view and the selection move together, O(1).
    private mutating func page(by direction: Int) {
        top = max(0, min(top + direction * pageSize, matchCount - pageSize))
        select(selected + direction * pageSize)
    }

    /// Every row of the screen, each exactly `columns` wide, with its colors.
    private func render() throws(MMSearchError) -> [String] {
        let status: String
        var body: [String] = []
        if let results {
            let typos = ResultFormat.typosNote(results.typos)
            switch results.count {
            case _ where query.isEmpty: status = "  nearest first: \(top + 1)-\(min(top + pageSize, results.count)) of \(results.count) cities"
            case 0: status = "  no matches"
            case 1: status = "  1 match" + typos
            default: status = "  \(top + 1)-\(min(top + pageSize, results.count)) of \(results.count) matches" + typos
            }
            let shown = try results.cities(in: top ..< min(top + pageSize, results.count))
            for (offset, city) in shown.enumerated() {
                // Fixed columns wide enough for six decimals, so rows do not shift as the page changes.
                var coordinates = (city.coordinate.latitudeText + ",").paddedLeft(to: 11) + " " + city.coordinate.longitudeText.paddedLeft(to: 11) + " "
                if let distance = city.distanceKm { coordinates += (ResultFormat.decimal(distance, places: 1) + " km").paddedLeft(to: 10) + " " }
                body.append(row(place: ResultFormat.placeText(city), coordinates: coordinates, isSelected: top + offset == selected))
            }
        } else {
            status = "  \(index.count) cities"
            body = ["", "  Type the start of a city's name:", "  lond, sao pa, zürich...", "  Case and accents do not matter."]
                .map { Self.fitted($0, columns) }
        }
        var lines = [Self.fitted(Self.prompt + Self.fitTail(query, width: columns - DisplayWidth.of(Self.prompt) - 1), columns), Self.fitted(status, columns)]
        lines += body.prefix(pageSize)
        lines += Array(repeating: Self.fitted("", columns), count: max(0, pageSize - body.count))
        lines.append("\u{1B}[2m" + Self.fitted(Self.help, columns) + "\u{1B}[m")
        return Array(lines.prefix(rows))
    }

    /// `> Name, CC ... lat, lon`, the coordinates against the right edge (left out when the window is
    /// too narrow for them and a useful part of the name); the selection in reverse video.
    private func row(place: String, coordinates: String, isSelected: Bool) -> String {
        let marker = isSelected ? "> " : "  "
        let placeWidth = columns - marker.count - coordinates.count - 2
        let line: String
        if placeWidth >= 10 {
            line = Self.fitted(marker + DisplayWidth.fit(place, width: placeWidth), columns - coordinates.count) + coordinates
        } else {
            line = Self.fitted(marker + place, columns)
        }
        return isSelected ? "\u{1B}[7m" + line + "\u{1B}[m" : line
    }

    /// `text` cut or padded with spaces to exactly `width` columns.
    private static func fitted(_ text: String, _ width: Int) -> String {
        let cut = DisplayWidth.fit(text, width: width)
        return cut + String(repeating: " ", count: max(0, width - DisplayWidth.of(cut)))
    }

    /// The end of `text` in at most `width` columns, "…" first when the start is cut off: the query
    /// line shows what is being typed.
    private static func fitTail(_ text: String, width: Int) -> String {
        guard DisplayWidth.of(text) > width else { return text }
        var tail: [Character] = []
        var used = 1
        for character in text.reversed() {
            let characterWidth = DisplayWidth.of(character)
            guard used + characterWidth <= width else { break }
            used += characterWidth
            tail.append(character)
        }
        return width > 0 ? "…" + String(tail.reversed()) : ""
    }
}

/// How many terminal columns text takes: combining marks and format characters none, East Asian
/// wide and fullwidth characters two, others one. Control characters are shown as U+FFFD, so a name
/// can never send the terminal a command.
enum DisplayWidth {
    static func of(_ text: String) -> Int { text.reduce(0) { $0 + of($1) } }

    static func of(_ character: Character) -> Int {
        character.unicodeScalars.reduce(0) { $0 + of($1) }
    }

    static func of(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: return isWide(scalar.value) ? 2 : 1
        }
    }

    /// `text` with control characters replaced, cut to at most `width` columns at a character
    /// boundary, with "…" marking the cut.
    static func fit(_ text: String, width: Int) -> String {
        let characters = text.map { $0.unicodeScalars.contains { $0.properties.generalCategory == .control } ? "\u{FFFD}" : $0 }
        let widths = characters.map(of)
        guard widths.reduce(0, +) > width else { return String(characters) }
        guard width > 0 else { return "" }
        var shown = "", used = 0
        for (character, characterWidth) in zip(characters, widths) {
            guard used + characterWidth <= width - 1 else { break }
            shown.append(character)
            used += characterWidth
        }
        return shown + "…"
    }

    /// East Asian Wide (W) and Fullwidth (F) blocks, in outline: CJK, Hangul, kana, fullwidth forms and
    /// the emoji blocks.
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100 ... 0x115F, 0x2E80 ... 0x303E, 0x3041 ... 0x33FF, 0x3400 ... 0x4DBF, 0x4E00 ... 0x9FFF,
             0xA000 ... 0xA4CF, 0xAC00 ... 0xD7A3, 0xF900 ... 0xFAFF, 0xFE30 ... 0xFE4F, 0xFF00 ... 0xFF60,
             0xFFE0 ... 0xFFE6, 0x1F300 ... 0x1F64F, 0x1F900 ... 0x1F9FF, 0x20000 ... 0x2FFFD, 0x30000 ... 0x3FFFD:
            return true
        default:
            return false
        }
    }
}
