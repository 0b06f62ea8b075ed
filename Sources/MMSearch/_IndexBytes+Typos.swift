import CMMSearchFormat

/// The typo fallback (`include/mmsearch_format.h`, "Typos"): the trie walked depth first with the
/// optimal-string-alignment table of the query against the keys, one row per Unicode scalar of a
/// key, computed along the edges' labels. A branch ends where no cell of its row is within the
/// allowed typos (no key below can come back within them), and a subtree matches where the last cell
/// is (that prefix is within them): every key below whose name part is at least that long (typos are
/// spent in names, never in a country tail). A key whose name ends where the walk is, followed by a
/// country tail, also matches when the query is the name within the typos and then the tail's start
/// typed exactly ("cincinatti, u"). Only the band of cells within `maximum` of the diagonal can be
/// within `maximum`, so a row is 2 * maximum + 1 cells, kept as bit sets (`_TypoTable`).
extension _IndexBytes {
    /// The Unicode scalars of a folded query, what typos are counted in (bytes that are not UTF-8, from
    /// `search(foldedPrefix:)`, read as U+FFFD).
    static func scalars(of folded: [UInt8]) -> [UInt32] {
        String(decoding: folded, as: UTF8.self).unicodeScalars.map(\.value)
    }

    /// The entries (each with its key's length) whose key's name part has a prefix within `maximum`
    /// typos of `query` (Unicode scalars, folded), the first scalar equal, or is within them of the
    /// query's start with the rest of the query the start of the key's country tail. A key's length is
    /// exact where a match's class depends on it (`ClassKeys` of the query's `queryLength` bytes) and
    /// Int32.max past that, as `rankedMatches` reads it. At most
    /// `nodeCount` nodes are visited, whatever the file says; `visited` counts them, `subtrees` the
    /// subtrees matched. With `within` (a country filter's runs), only subtrees holding one of their
    /// entries are walked (the others' entries could not pass it).
    func typoMatches(_ query: [UInt32], queryLength: Int, maximum: Int, visited: inout Int, subtrees: inout Int, within: [CountryRun]? = nil) throws(MMSearchError) -> [(position: Int, keyLength: Int)] {
        guard !query.isEmpty, maximum > 0 else { return [] }
        let last = query.count
        var table = _TypoTable(query: query, maximum: maximum)
        var cursors = (within ?? []).map(CountryCursor.init)
        var found: [(position: Int, keyLength: Int)] = []
        // Where a country tail may start in the query: a "," within the last four scalars (the tail is
        // ", cc"), not the first; with the query's bytes from there, to walk exactly.
        let tailStarts: [(scalar: Int, bytes: [UInt8])] = (max(1, last - 4) ..< last).compactMap { j in
            guard query[j] == UInt32(UInt8(ascii: ",")) else { return nil }
            var bytes: [UInt8] = []
            for scalar in query[j...] { if let value = Unicode.Scalar(scalar) { bytes.append(contentsOf: UTF8.encode(value)!) } }
            return (j, bytes)
        }
        /// The entries under `located` (a node at prefix length `located.depth`) with a key of
        /// exactly `keyLength` bytes whose record has a country (so a name part 4 bytes shorter), or,
        /// with `keyLength` nil, every entry whose name part is at least `shortestName` bytes, each with
        /// its key's length where the match's class depends on it: the subtree is walked only as deep
        /// as `ClassKeys` says (a name part up to twice the query, or `shortestName`), and the entries
        /// below, whose name part is longer than both, are taken without reading their records. With
        /// `within`, only the countries' entries (the others could not pass the filter), and only the
        /// subtrees that hold one: a subtree a typo matches may hold thousands of entries of the world,
        /// each of whose records would be read. The countries' positions under `located` are decoded
        /// once, in order, and each node's searched in them.
        /// `found` is passed, not captured: a local function capturing it made every append to it a
        /// dynamic exclusivity check (swift_beginAccess and its bookkeeping, about 80 instructions).
        func collect(under located: Located, keyLength: Int?, shortestName: Int, into found: inout [(position: Int, keyLength: Int)]) throws(MMSearchError) {
            func take(_ position: Int, depth: Int, into found: inout [(position: Int, keyLength: Int)]) throws(MMSearchError) {
                if keyLength == nil, depth == Int(Int32.max) { return found.append((position, depth)) } // a name part past shortestName
                let hasCountry = try recordHasCountry(owner(ofEntry: try entry(position), at: layout.entries.byteOffset(position)).record)
                if keyLength != nil ? hasCountry : depth - (hasCountry ? ClassKeys.tailLength : 0) >= shortestName { found.append((position, depth)) }
            }
            // Twice the query, or more: every name part shorter than `shortestName` has its length read.
            let classKeys = keyLength == nil ? ClassKeys(queryLength: Swift.max(queryLength, (shortestName + 1) / 2)) : nil
            guard let within else {
                if let classKeys {
                    let lengths = try keyLengths(under: located, for: classKeys)
                    for (offset, length) in lengths.enumerated() { try take(located.entries.lowerBound + offset, depth: Int(length), into: &found) }
                    return
                }
                try forEachNode(under: located, deepest: keyLength ?? .max) { (depth, ownEntries) throws(MMSearchError) in
                    if depth != keyLength { return }
                    for position in ownEntries { try take(position, depth: depth, into: &found) }
                }
                return
            }
            let positions = try self.positions(of: within, in: located.entries)
            let lengths = try keyLengths(of: positions, under: located, for: classKeys, deepest: keyLength ?? .max)
            for (index, position) in positions.enumerated() where keyLength == nil || Int(lengths[index]) == keyLength {
                try take(position, depth: Int(lengths[index]), into: &found)
            }
        }

        // Depth first, each level the children of a node still to enter (next ..< end: all of them, or
        // one a byte found), with the node's entries and the key state at its end: the scalars decoded
        // so far, and the bytes of one its label left unfinished.
        struct Level {
            var children: Children
            var next: Int
            var end: Int
            var entries: Range<Int>
            var byteDepth: Int
            var scalarDepth: Int
            var pending: PendingScalar
        }
        // The first byte of each query scalar: once a branch has spent its typos, only a child whose
        // label starts with a scalar the table can still match can go on.
        let firstBytes = query.map { scalar in
            Unicode.Scalar(scalar).map { UTF8.encode($0)!.first! } ?? 0
        }
        visited = 0
        // The first scalar is never a typo: only the root's child for its first byte.
        let root = try children(ofNode: 0)
        guard let first = try child(startingWith: firstBytes[0], among: root) else { return [] }
        var stack = [Level(children: root, next: first, end: first + 1, entries: 0 ..< layout.entryCount, byteDepth: 0, scalarDepth: 0, pending: PendingScalar())]
        var wanted: [UInt8] = [] // the bytes a child may start with once no typo is left
        wanted.reserveCapacity(table.width)
        while let level = stack.last {
            let node = level.next
            if node + 1 < level.end { stack[stack.count - 1].next = node + 1 } else { stack.removeLast() }
            visited += 1
            guard visited <= layout.nodeCount else {
                throw corrupt(nodeOffset(0), "the trie's nodes do not form a tree")
            }
            table.pop(to: level.scalarDepth)
            // A subtree without the countries' entries is left before its label is read.
            let entries = try self.entries(ofChild: node, siblings: level.children, parent: level.entries)
            if within != nil, try !hasPosition(&cursors, in: entries) { continue }
            let labelStart = try self.labelStart(ofNode: node)
            let label = try self.label(at: labelStart, ofNode: node)
            var pending = level.pending
            var goesOn = true, matched = false
            var byteDepth = level.byteDepth
            for (offset, byte) in label.enumerated() {
                let completed = pending.add(byte)
                byteDepth += 1
                if let scalar = completed.cutShort { (goesOn, matched) = table.push(scalar) }
                if goesOn, let scalar = completed.scalar { (goesOn, matched) = table.push(scalar) }
                if !goesOn { break }
                // A name may end here: the query's rest, typed exactly, may start its country tail.
                if !tailStarts.isEmpty, pending.isEmpty {
                    for (j, bytes) in tailStarts where table.isWithin(queryPrefix: j) {
                        let here = WalkPoint(node: node, entries: entries, labelByte: offset + 1 < label.count ? labelStart + offset + 1 : nil, consumed: byteDepth)
                        var noTrail: [WalkPoint]? = nil
                        let reached = try bytes.withRawBytes { (raw) throws(MMSearchError) in try walk(raw, from: here, trail: &noTrail) }
                        if let reached { try collect(under: try located(reached), keyLength: byteDepth + 4, shortestName: 0, into: &found) }
                    }
                }
            }
            guard matched || goesOn else { continue }
            if matched {
                subtrees += 1
                try collect(under: Located(node: node, depth: level.byteDepth + label.count, entries: entries), keyLength: nil, shortestName: byteDepth, into: &found)
                continue
            }
            let children = try children(ofNode: node)
            func enter(_ nodes: Range<Int>) {
                guard !nodes.isEmpty else { return }
                stack.append(Level(children: children, next: nodes.lowerBound, end: nodes.upperBound, entries: entries, byteDepth: level.byteDepth + label.count,
                                   scalarDepth: table.depth, pending: pending))
            }
            if pending.isEmpty, !table.hasTypoLeft {
                // No typo left: the next scalar must be one the table can still match (`onlyNext`),
                // so only the children whose label starts with one of those scalars' first bytes can go on.
                // Kept in descending order (a few bytes: insertion), so that they are entered ascending.
                wanted.removeAll(keepingCapacity: true)
                table.onlyNext { j in
                    guard !wanted.contains(firstBytes[j]) else { return }
                    var slot = wanted.count
                    wanted.append(firstBytes[j])
                    while slot > 0, wanted[slot - 1] < firstBytes[j] { wanted[slot] = wanted[slot - 1]; slot -= 1 }
                    wanted[slot] = firstBytes[j]
                }
                for byte in wanted {
                    if let child = try child(startingWith: byte, among: children) { enter(child ..< child + 1) }
                }
            } else {
                enter(children.nodes)
            }
        }
        return found
    }
}

/// The optimal-string-alignment table of a typo walk: one row per scalar of the key walked so far
/// (row 0 for the empty key), each the band of 2 * maximum + 1 cells around the diagonal, cell k of
/// row d the distance between the key's first d scalars and the query's first j = d - maximum + k.
/// A row is kept as maximum + 1 bit sets over its cells, bit k of set e standing for "cell k is at
/// most e" (Wu and Manber's bit-parallel rows, banded as Hyyrö's): a row is the new scalar compared
/// with the band's query scalars, then a few shifts, ands and ors of the rows before. Rows and
/// scalars live in buffers that grow and are never shrunk: going back up the trie only lowers `depth`.
struct _TypoTable {
    let query: [UInt32]
    let maximum: Int
    let width: Int
    /// The key's scalars so far: scalars[d - 1] made row d.
    private var scalars: [UInt32]
    /// Row d's sets at rows[d * (maximum + 1) + e].
    private var rows: [UInt32]
    /// The key's scalars so far; rows 0 ... depth are the table.
    private(set) var depth = 0

    init(query: [UInt32], maximum: Int) {
        precondition(maximum >= 1 && maximum <= 15, "a band of 2 * maximum + 1 cells must fit 32 bits")
        self.query = query
        self.maximum = maximum
        width = 2 * maximum + 1
        scalars = [UInt32](repeating: 0, count: 64)
        rows = [UInt32](repeating: 0, count: 65 * (maximum + 1))
        // Row 0: cell k is j = k - maximum, at distance j from the empty key.
        for e in 0 ... maximum {
            for j in 0 ... min(e, query.count) { rows[e] |= 1 << UInt32(maximum + j) }
        }
    }

    /// Whether the key so far is within `maximum` of the query's first j scalars: cell j - depth +
    /// maximum of the last row, when it is in the band (outside it, never).
    @inline(__always)
    func isWithin(queryPrefix j: Int) -> Bool {
        let k = j - depth + maximum
        return k >= 0 && k < width && rows[depth * (maximum + 1) + maximum] >> UInt32(k) & 1 != 0
    }

    /// Whether a cell of the last row is below `maximum`: a typo may still be spent below it.
    var hasTypoLeft: Bool { rows[depth * (maximum + 1) + maximum - 1] != 0 }

    /// With no typo left (`hasTypoLeft` false), the query scalars `body` is given (by index) are the
    /// only ones the key's next scalar can be for a cell of the next row to be within `maximum`: the
    /// next after a cell at `maximum`, since a match costs nothing and anything else a typo. A swap
    /// needs no more: it starts from a cell below `maximum` one row up, so the cell under it, one key
    /// scalar extra, is at `maximum` here, and the swap's new scalar is the query's next after it.
    @inline(__always)
    func onlyNext(_ body: (Int) -> Void) {
        let row = depth * (maximum + 1)
        var atMaximum = rows[row + maximum] & ~rows[row + maximum - 1]
        while atMaximum != 0 {
            let j = depth - maximum + atMaximum.trailingZeroBitCount
            atMaximum &= atMaximum - 1
            if j < query.count { body(j) }
        }
    }

    /// Back to the first `depth` scalars of the key.
    @inline(__always)
    mutating func pop(to depth: Int) { self.depth = depth }

    /// Bit i set where query[start + i] is `scalar`, for i in 0 ..< count (positions outside the query
    /// never are).
    @inline(__always)
    private func equal(_ scalar: UInt32, from start: Int, count: Int) -> UInt32 {
        let first = Swift.max(0, -start), end = Swift.min(count, query.count - start)
        guard first < end else { return 0 }
        return query.withUnsafeBufferPointer { query in
            var bits: UInt32 = 0
            for i in first ..< end { bits |= (query[start + i] == scalar ? 1 : 0) << UInt32(i) }
            return bits
        }
    }

    /// Adds the row for the key's next scalar; returns whether the walk goes on below it (not dead,
    /// not a match) and whether the key so far is a match (its last cell within `maximum`).
    mutating func push(_ scalar: UInt32) -> (alive: Bool, matched: Bool) {
        let depth = self.depth + 1
        let stride = maximum + 1
        if depth > scalars.count {
            scalars.append(contentsOf: repeatElement(0, count: scalars.count))
            rows.append(contentsOf: repeatElement(0, count: rows.count))
        }
        self.depth = depth
        scalars[depth - 1] = scalar
        let (maximum, width, last) = (self.maximum, self.width, query.count)
        // Cell k is j = low + k: inside the table while 0 <= j <= last, so for k from -low to last - low.
        let low = depth - maximum, band: UInt32 = (1 << UInt32(width)) - 1
        let fromStart = low < 0 ? band & ~((1 << UInt32(-low)) - 1) : band
        let toEnd: UInt32 = last - low < 0 ? 0 : last - low >= width - 1 ? band : (1 << UInt32(last - low + 1)) - 1
        let inside = fromStart & toEnd
        // Bit k of `scalarAt`: query[j - 2] is this scalar; bit k + 1: query[j - 1] is (a match).
        let scalarAt = equal(scalar, from: low - 2, count: width + 1)
        let match = scalarAt >> 1
        // Two swapped: query[j - 1] the key's scalar before and query[j - 2] this one.
        let swapped = depth >= 2 ? equal(scalars[depth - 2], from: low - 1, count: width) & scalarAt : 0
        let alive: Bool = rows.withUnsafeMutableBufferPointer { rows in
            let previous = (depth - 1) * stride, row = depth * stride, before = (depth - 2) * stride
            var lower: UInt32 = 0 // this row's set e - 1
            for e in 0 ... maximum {
                var set = rows[previous + e] & match                      // a match
                if e > 0 {
                    set |= rows[previous + e - 1]                          // a substitution
                        | rows[previous + e - 1] >> 1                      // a key scalar extra
                        | lower << 1                                       // a query scalar extra
                    if depth >= 2 { set |= rows[before + e - 1] & swapped } // two swapped
                }
                set &= inside
                rows[row + e] = set
                lower = set
            }
            return lower != 0
        }
        if depth == 1, scalar != query[0] { return (false, false) }
        let matched = isWithin(queryPrefix: last)
        return (alive && !matched, matched)
    }
}

/// A UTF-8 decoder fed a byte at a time, for keys whose scalars may be split between two labels. A
/// byte that cannot continue what came before (only in a damaged file) counts as a scalar of its
/// own, so every byte moves the walk on.
struct PendingScalar {
    private var value: UInt32 = 0
    private var remaining = 0

    /// Whether no scalar is under way (the next byte starts one).
    var isEmpty: Bool { remaining == 0 }

    /// The scalars `byte` completes, in order: an unfinished one it cuts short (damaged files only),
    /// then the one it ends, if any.
    @inline(__always)
    mutating func add(_ byte: UInt8) -> (cutShort: UInt32?, scalar: UInt32?) {
        var cutShort: UInt32?
        if remaining > 0 {
            if byte & 0xC0 == 0x80 {
                value = value << 6 | UInt32(byte & 0x3F)
                remaining -= 1
                return (nil, remaining == 0 ? value : nil)
            }
            cutShort = Self.outsideUnicode + value // equal to no query scalar
            remaining = 0
        }
        switch byte {
        case 0x00 ..< 0x80: return (cutShort, UInt32(byte))
        case 0xC0 ..< 0xE0: value = UInt32(byte & 0x1F); remaining = 1
        case 0xE0 ..< 0xF0: value = UInt32(byte & 0x0F); remaining = 2
        case 0xF0 ..< 0xF8: value = UInt32(byte & 0x07); remaining = 3
        default: return (cutShort, Self.outsideUnicode + UInt32(byte))
        }
        return (cutShort, nil)
    }

    private static let outsideUnicode: UInt32 = 0x11_0000
}
