import CMMSearchFormat

/// The typo fallback (`include/mmsearch_format.h`, "Typos"): the trie walked depth first with the
/// optimal-string-alignment table of the query against the keys, one row per Unicode scalar of a
/// key, computed along the edges' labels. A branch ends where no cell of its row is within the
/// allowed typos (no key below can come back within them), and a subtree matches where the last cell
/// is (that prefix is within them): every key below whose name part is at least that long (typos are
/// spent in names, never in a country tail). A key whose name ends where the walk is, followed by a
/// country tail, also matches when the query is the name within the typos and then the tail's start
/// typed exactly ("cincinatti, u"). Only the band of cells within `maximum` of the diagonal can be
/// within `maximum`, so a row is 2 * maximum + 1 cells.
extension _IndexBytes {
    /// The Unicode scalars of a folded query, what typos are counted in (bytes that are not UTF-8, from
    /// `search(foldedPrefix:)`, read as U+FFFD).
    static func scalars(of folded: [UInt8]) -> [UInt32] {
        String(decoding: folded, as: UTF8.self).unicodeScalars.map(\.value)
    }

    /// The entries (each with its key's length) whose key's name part has a prefix within `maximum`
    /// typos of `query` (Unicode scalars, folded), the first scalar equal, or is within them of the
    /// query's start with the rest of the query the start of the key's country tail. At most
    /// `nodeCount` nodes are visited, whatever the file says; `visited` counts them, `subtrees` the
    /// subtrees matched. With `within` (a country filter's runs), only subtrees holding one of their
    /// entries are walked (the others' entries could not pass it).
    func typoMatches(_ query: [UInt32], maximum: Int, visited: inout Int, subtrees: inout Int, within: [CountryRun]? = nil) throws(MMSearchError) -> [(position: Int, keyLength: Int)] {
        guard !query.isEmpty, maximum > 0 else { return [] }
        let width = 2 * maximum + 1
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
        /// with `keyLength` nil, every entry whose name part is at least `shortestName` bytes.
        func collect(under located: Located, keyLength: Int?, shortestName: Int) throws(MMSearchError) {
            try forEachNode(under: located, deepest: keyLength ?? .max) { (depth, ownEntries) throws(MMSearchError) in
                if let keyLength, depth != keyLength { return }
                for position in ownEntries {
                    let hasCountry = try recordHasCountry(owner(ofEntry: try entry(position), at: layout.entries.byteOffset(position)).record)
                    if keyLength != nil ? hasCountry : depth - (hasCountry ? ClassKeys.tailLength : 0) >= shortestName { found.append((position, depth)) }
                }
            }
        }

        // Depth first, each frame a child to enter with the key state of its parent's end: the
        // scalars decoded so far, and the bytes of one the parent's label left unfinished.
        struct Frame {
            var node: Int
            var siblings: Children
            var parentEntries: Range<Int>
            var byteDepth: Int
            var scalarDepth: Int
            var pending: PendingScalar
        }
        // The first byte of each query scalar: once a branch has spent its typos, only a child whose
        // label starts with the next scalar to match (or one to swap with it) can go on.
        let firstBytes = query.map { scalar in
            Unicode.Scalar(scalar).map { UTF8.encode($0)!.first! } ?? 0
        }
        visited = 0
        // The first scalar is never a typo: only the root's child for its first byte.
        let root = try children(ofNode: 0)
        guard let first = try child(startingWith: firstBytes[0], among: root) else { return [] }
        var stack = [Frame(node: first, siblings: root, parentEntries: 0 ..< layout.entryCount, byteDepth: 0, scalarDepth: 0, pending: PendingScalar())]
        var wanted: [UInt8] = [] // the bytes a child may start with once no typo is left
        wanted.reserveCapacity(3 * maximum + 2)
        while let frame = stack.popLast() {
            visited += 1
            guard visited <= layout.nodeCount else {
                throw corrupt(nodeOffset(0), "the trie's nodes do not form a tree")
            }
            table.pop(to: frame.scalarDepth)
            // A subtree without the countries' entries is left before its label is read.
            let entries = try self.entries(ofChild: frame.node, siblings: frame.siblings, parent: frame.parentEntries)
            if within != nil, try !hasPosition(&cursors, in: entries) { continue }
            let labelStart = try self.labelStart(ofNode: frame.node)
            let label = try self.label(at: labelStart, ofNode: frame.node)
            var pending = frame.pending
            var goesOn = true, matched = false
            var byteDepth = frame.byteDepth
            for (offset, byte) in label.enumerated() {
                let completed = pending.add(byte)
                byteDepth += 1
                if let scalar = completed.cutShort { (goesOn, matched) = table.push(scalar) }
                if goesOn, let scalar = completed.scalar { (goesOn, matched) = table.push(scalar) }
                if !goesOn { break }
                // A name may end here: the query's rest, typed exactly, may start its country tail.
                if !tailStarts.isEmpty, pending.isEmpty {
                    for (j, bytes) in tailStarts {
                        let k = j - table.depth + maximum
                        guard k >= 0, k < width, Int(table.cell(k)) <= maximum else { continue }
                        let here = WalkPoint(node: frame.node, entries: entries, labelByte: offset + 1 < label.count ? labelStart + offset + 1 : nil, consumed: byteDepth)
                        var noTrail: [WalkPoint]? = nil
                        let reached = try bytes.withRawBytes { (raw) throws(MMSearchError) in try walk(raw, from: here, trail: &noTrail) }
                        if let reached { try collect(under: try located(reached), keyLength: byteDepth + 4, shortestName: 0) }
                    }
                }
            }
            guard matched || goesOn else { continue }
            if matched {
                subtrees += 1
                try collect(under: Located(node: frame.node, depth: frame.byteDepth + label.count, entries: entries), keyLength: nil, shortestName: byteDepth)
                continue
            }
            let children = try children(ofNode: frame.node)
            func enter(_ child: Int) {
                stack.append(Frame(node: child, siblings: children, parentEntries: entries, byteDepth: frame.byteDepth + label.count,
                                   scalarDepth: table.depth, pending: pending))
            }
            if pending.isEmpty, !table.hasTypoLeft {
                // No typo left: the next scalar must match one of the query's near this depth (the
                // band's, and those a swap still owed reaches back to), so only the children that
                // start with one of those can go on.
                // Kept in descending order (a few bytes: insertion), so that the stack pops them ascending.
                wanted.removeAll(keepingCapacity: true)
                let depth = table.depth
                for j in max(0, depth - 2 * maximum - 1) ..< min(last, depth + maximum + 1) where !wanted.contains(firstBytes[j]) {
                    var slot = wanted.count
                    wanted.append(firstBytes[j])
                    while slot > 0, wanted[slot - 1] < firstBytes[j] { wanted[slot] = wanted[slot - 1]; slot -= 1 }
                    wanted[slot] = firstBytes[j]
                }
                for byte in wanted {
                    if let child = try child(startingWith: byte, among: children) { enter(child) }
                }
            } else {
                for child in children.nodes.reversed() { enter(child) }
            }
        }
        return found
    }
}

/// The optimal-string-alignment table of a typo walk: one row per scalar of the key walked so far
/// (row 0 for the empty key), each the band of 2 * maximum + 1 cells around the diagonal. Cell k of row
/// d is the distance between the key's first d scalars and the query's first j = d - maximum + k, or
/// maximum + 1 when it is more than maximum (or j is out of range). Rows and scalars live in buffers
/// that grow and are never shrunk: going back up the trie only lowers `depth`.
struct _TypoTable {
    let query: [UInt32]
    let maximum: Int
    let width: Int
    let unreachable: UInt8
    /// The key's scalars so far: scalars[d - 1] made row d.
    private var scalars: [UInt32]
    private var rows: [UInt8]
    /// The key's scalars so far; rows 0 ... depth are the table.
    private(set) var depth = 0

    init(query: [UInt32], maximum: Int) {
        self.query = query
        self.maximum = maximum
        width = 2 * maximum + 1
        unreachable = UInt8(maximum + 1)
        scalars = [UInt32](repeating: 0, count: 64)
        rows = [UInt8](repeating: unreachable, count: 65 * width)
        for j in 0 ... min(maximum, query.count) { rows[maximum + j] = UInt8(j) }
    }

    /// Cell k of the last row.
    @inline(__always)
    func cell(_ k: Int) -> UInt8 { rows[depth * width + k] }

    /// Whether a cell of the last row is below `maximum`: a typo may still be spent below it.
    var hasTypoLeft: Bool {
        let row = depth * width
        for k in 0 ..< width where Int(rows[row + k]) < maximum { return true }
        return false
    }

    /// Back to the first `depth` scalars of the key.
    @inline(__always)
    mutating func pop(to depth: Int) { self.depth = depth }

    /// Adds the row for the key's next scalar; returns whether the walk goes on below it (not dead,
    /// not a match) and whether the key so far is a match (its last cell within `maximum`).
    mutating func push(_ scalar: UInt32) -> (alive: Bool, matched: Bool) {
        let depth = self.depth + 1
        if depth > scalars.count {
            scalars.append(contentsOf: repeatElement(0, count: scalars.count))
            rows.append(contentsOf: repeatElement(unreachable, count: rows.count))
        }
        self.depth = depth
        let (query, maximum, width, unreachable, last) = (self.query, self.maximum, self.width, self.unreachable, self.query.count)
        let swapScalar = depth >= 2 ? scalars[depth - 2] : 0
        scalars[depth - 1] = scalar
        let alive = rows.withUnsafeMutableBufferPointer { rows in
            let previous = (depth - 1) * width, row = depth * width
            var alive = false
            for k in 0 ..< width {
                let j = depth - maximum + k
                guard j >= 0, j <= last else {
                    rows[row + k] = unreachable
                    continue
                }
                var value: Int
                if j == 0 {
                    value = depth
                } else {
                    value = Int(rows[previous + k]) + (query[j - 1] == scalar ? 0 : 1)     // match or substitution
                    if k + 1 < width { value = min(value, Int(rows[previous + k + 1]) + 1) } // a key scalar extra
                    if k > 0 { value = min(value, Int(rows[row + k - 1]) + 1) }              // a query scalar extra
                    if depth >= 2, j >= 2, query[j - 1] == swapScalar, query[j - 2] == scalar {
                        value = min(value, Int(rows[(depth - 2) * width + k]) + 1)          // two swapped
                    }
                }
                rows[row + k] = UInt8(min(value, Int(unreachable)))
                if value <= maximum { alive = true }
            }
            return alive
        }
        if depth == 1, scalar != query[0] { return (false, false) }
        let lastCell = last - depth + maximum
        let matched = lastCell >= 0 && lastCell < width && Int(cell(lastCell)) <= maximum
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
