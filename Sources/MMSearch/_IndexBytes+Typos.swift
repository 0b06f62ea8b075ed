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
            let stored = label.stored, labelEnd = level.byteDepth + label.count
            var pending = level.pending
            var goesOn = true, matched = false
            var byteDepth = level.byteDepth
            for offset in 0 ..< label.count {
                // A country tail's code read from its record only where the walk reaches it (most
                // branches end within its ", ").
                let byte = offset < stored.count ? stored[offset] : try tailByte(offset - stored.count, ofNode: node, entries: entries)
                let completed = pending.add(byte)
                byteDepth += 1
                if let scalar = completed.cutShort { (goesOn, matched) = table.push(scalar) }
                if goesOn, let scalar = completed.scalar { (goesOn, matched) = table.push(scalar) }
                if !goesOn { break }
                // A name may end here: the query's rest, typed exactly, may start its country tail.
                if !tailStarts.isEmpty, pending.isEmpty {
                    for (j, bytes) in tailStarts where table.isWithin(queryPrefix: j) {
                        let next = offset + 1
                        let place: LabelPlace? = next < stored.count ? .stored(labelStart + next) : next < label.count ? .tail(next - stored.count) : nil
                        let here = WalkPoint(node: node, entries: entries, inLabel: place, consumed: byteDepth)
                        var noTrail: [WalkPoint]? = nil
                        let reached = try bytes.withRawBytes { (raw) throws(MMSearchError) in try walk(raw, from: here, trail: &noTrail) }
                        if let reached { try collect(under: try located(reached), keyLength: byteDepth + Label.tailLength, shortestName: 0, into: &found) }
                    }
                }
            }
            guard matched || goesOn else { continue }
            if matched {
                subtrees += 1
                try collect(under: Located(node: node, depth: labelEnd, entries: entries), keyLength: nil, shortestName: byteDepth, into: &found)
                continue
            }
            let children = try children(ofNode: node)
            let scalarDepth = table.depth
            func enter(_ nodes: Range<Int>) {
                guard !nodes.isEmpty else { return }
                stack.append(Level(children: children, next: nodes.lowerBound, end: nodes.upperBound, entries: entries, byteDepth: labelEnd,
                                   scalarDepth: scalarDepth, pending: pending))
            }
            if pending.isEmpty, !table.hasTypoLeft {
                // No typo left: the next scalar must be one the table can still match (`onlyNext`),
                // so only the children whose label starts with one of those scalars' first bytes can go on.
                // Entered in descending order, so that they are walked ascending.
                var wanted = _ByteSet()
                table.onlyNext { j in wanted.insert(firstBytes[j]) }
                while let byte = wanted.removeGreatest() {
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
/// with the band's query scalars, then a few shifts, ands and ors of the rows before. The comparison
/// is a window of the scalar's positions in the query, a bit set made once a walk (a walk pushes a
/// row for every scalar of every label it reads: a loop over the band's query scalars and the array
/// accesses around it were most of a one-typo walk's instructions). Rows and the key's scalars' sets live in
/// buffers made for the deepest a branch can go (a row with no cell left inside the query is dead),
/// grown if pushed past that, never shrunk: going back up the trie only lowers `depth`.
struct _TypoTable: ~Copyable {
    let query: [UInt32]
    let maximum: Int
    let width: Int
    /// 64-bit words a set of query positions takes.
    private let words: Int
    /// The positions in the query of each of its distinct scalars (bit j of a set: query[j] is the
    /// scalar), `words` words a set: set 0 empty (every scalar the query does not hold), then the
    /// ASCII scalars', then the others'.
    private let positionSets: UnsafeMutablePointer<UInt64>
    /// The set of each ASCII scalar, and the query's other scalars, whose sets follow the ASCII ones'
    /// from `firstOtherSet` on.
    private let asciiSets: UnsafeMutablePointer<UInt8>
    private let otherScalars: [UInt32]
    private let firstOtherSet: Int
    /// The set of each of the key's scalars so far: keySets[d - 1] is that of the scalar that made row d.
    private var keySets: UnsafeMutablePointer<Int>
    /// Row d's sets at rows[d * (maximum + 1) + e], for d up to `capacity`.
    private var rows: UnsafeMutablePointer<UInt32>
    private var capacity: Int
    /// The key's scalars so far; rows 0 ... depth are the table.
    private(set) var depth = 0

    init(query: [UInt32], maximum: Int) {
        precondition(maximum >= 1 && maximum <= 15, "a band of 2 * maximum + 1 cells must fit 32 bits")
        self.query = query
        self.maximum = maximum
        width = 2 * maximum + 1
        words = Swift.max(1, (query.count + 63) / 64)
        var ascii: [UInt32] = [], others: [UInt32] = []
        for scalar in query where !(scalar < 0x80 ? ascii : others).contains(scalar) {
            if scalar < 0x80 { ascii.append(scalar) } else { others.append(scalar) }
        }
        otherScalars = others
        firstOtherSet = 1 + ascii.count
        let setCount = firstOtherSet + others.count
        let asciiSets = UnsafeMutablePointer<UInt8>.allocate(capacity: 0x80)
        asciiSets.initialize(repeating: 0, count: 0x80)
        for (offset, scalar) in ascii.enumerated() { asciiSets[Int(scalar)] = UInt8(1 + offset) }
        self.asciiSets = asciiSets
        positionSets = .allocate(capacity: setCount * words)
        positionSets.initialize(repeating: 0, count: setCount * words)
        capacity = query.count + maximum + 2
        keySets = .allocate(capacity: capacity)
        rows = .allocate(capacity: (capacity + 1) * (maximum + 1))
        rows.initialize(repeating: 0, count: (capacity + 1) * (maximum + 1))
        // Row 0: cell k is j = k - maximum, at distance j from the empty key.
        for e in 0 ... maximum {
            for j in 0 ... min(e, query.count) { rows[e] |= 1 << UInt32(maximum + j) }
        }
        // Each query position in its scalar's set, found as a push finds it.
        for (j, scalar) in query.enumerated() { positionSets[positionSet(of: scalar) * words + j / 64] |= 1 << UInt64(j % 64) }
    }

    deinit {
        positionSets.deallocate()
        asciiSets.deallocate()
        keySets.deallocate()
        rows.deallocate()
    }

    /// Whether the key so far is within `maximum` of the query's first j scalars: cell j - depth +
    /// maximum of the last row, when it is in the band (outside it, never).
    @inline(__always)
    func isWithin(queryPrefix j: Int) -> Bool {
        let k = j - depth + maximum
        return k >= 0 && k < width && rows[depth * (maximum + 1) + maximum] >> UInt32(k) & 1 != 0
    }

    /// Whether a cell of the last row is below `maximum`: a typo may still be spent below it. Inlined
    /// always: the walk asks at every node, and the compiler may stop inlining it as the walk grows.
    @inline(__always)
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

    /// The position set of `scalar` (0, the empty set, for a scalar the query does not hold).
    @inline(__always)
    private func positionSet(of scalar: UInt32) -> Int {
        if scalar < 0x80 { return Int(asciiSets[Int(scalar)]) }
        guard let other = otherScalars.firstIndex(of: scalar) else { return 0 }
        return firstOtherSet + other
    }

    /// Bit i set where query[start + i] is a scalar whose position set (`words` words) is at `set`,
    /// for i in 0 ..< count (count at most 32; positions outside the query never are): a window of
    /// the set. Static, given the set's words: a method of the noncopyable table copied the table to
    /// the stack at each call.
    @inline(__always)
    private static func window(_ set: UnsafePointer<UInt64>, words: Int, from start: Int, count: Int) -> UInt32 {
        var bits: UInt64
        if start < 0 {
            guard start > -64 else { return 0 }
            bits = set[0] &<< UInt64(-start)
        } else {
            let word = start &>> 6, bit = start & 63
            guard word < words else { return 0 }
            bits = set[word] &>> UInt64(bit)
            if bit != 0, word &+ 1 < words { bits |= set[word &+ 1] &<< UInt64(64 &- bit) }
        }
        return UInt32(truncatingIfNeeded: bits & ((1 &<< UInt64(count)) &- 1))
    }

    /// Room for rows past `capacity` (only a caller that pushes below a dead row needs it).
    private mutating func grow() {
        let stride = maximum + 1, larger = 2 * capacity
        let newRows = UnsafeMutablePointer<UInt32>.allocate(capacity: (larger + 1) * stride)
        newRows.initialize(repeating: 0, count: (larger + 1) * stride)
        newRows.update(from: rows, count: (capacity + 1) * stride)
        rows.deallocate()
        rows = newRows
        let newSets = UnsafeMutablePointer<Int>.allocate(capacity: larger)
        newSets.initialize(from: keySets, count: capacity)
        keySets.deallocate()
        keySets = newSets
        capacity = larger
    }

    /// Adds the row for the key's next scalar; returns whether the walk goes on below it (not dead,
    /// not a match) and whether the key so far is a match (its last cell within `maximum`).
    mutating func push(_ scalar: UInt32) -> (alive: Bool, matched: Bool) {
        let depth = self.depth + 1
        if depth > capacity { grow() }
        self.depth = depth
        let set = positionSet(of: scalar)
        keySets[depth - 1] = set
        let (maximum, width, last) = (self.maximum, self.width, query.count)
        let stride = maximum + 1
        // Cell k is j = low + k: inside the table while 0 <= j <= last, so for k from -low to last - low.
        let low = depth - maximum, band: UInt32 = (1 << UInt32(width)) - 1
        let fromStart = low < 0 ? band & ~((1 << UInt32(-low)) - 1) : band
        let toEnd: UInt32 = last - low < 0 ? 0 : last - low >= width - 1 ? band : (1 << UInt32(last - low + 1)) - 1
        let inside = fromStart & toEnd
        // Bit k of `scalarAt`: query[j - 2] is this scalar; bit k + 1: query[j - 1] is (a match).
        let scalarAt = Self.window(positionSets + set * words, words: words, from: low - 2, count: width + 1)
        let match = scalarAt >> 1
        // Two swapped: query[j - 1] the key's scalar before and query[j - 2] this one.
        let swapped = depth >= 2 ? Self.window(positionSets + keySets[depth - 2] * words, words: words, from: low - 1, count: width) & scalarAt : 0
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
        if depth == 1, scalar != query[0] { return (false, false) }
        let matched = isWithin(queryPrefix: last)
        return (lower != 0 && !matched, matched)
    }
}

/// A set of bytes, 256 bits: the first bytes a typo walk's next child may start with (a few; an
/// array's append and clear cost more than the walk's use of them).
struct _ByteSet {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    @inline(__always)
    mutating func insert(_ byte: UInt8) {
        let bit = UInt64(1) &<< UInt64(byte & 63)
        switch byte >> 6 {
        case 0: words.0 |= bit
        case 1: words.1 |= bit
        case 2: words.2 |= bit
        default: words.3 |= bit
        }
    }

    /// The greatest byte of the set, taken out of it; nil when it is empty.
    @inline(__always)
    mutating func removeGreatest() -> UInt8? {
        if words.3 != 0 { return Self.removeHighest(&words.3, base: 192) }
        if words.2 != 0 { return Self.removeHighest(&words.2, base: 128) }
        if words.1 != 0 { return Self.removeHighest(&words.1, base: 64) }
        if words.0 != 0 { return Self.removeHighest(&words.0, base: 0) }
        return nil
    }

    @inline(__always)
    private static func removeHighest(_ word: inout UInt64, base: UInt8) -> UInt8 {
        let bit = 63 &- word.leadingZeroBitCount
        word &= ~(UInt64(1) &<< UInt64(bit))
        return base &+ UInt8(truncatingIfNeeded: bit)
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
