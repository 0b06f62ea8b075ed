import CMMSearchFormat

/// The one layer that reads an index's bytes. It lives only inside `Data.withUnsafeBytes` (the
/// pointer never escapes), and every read checks the index or span it was given against the layout
/// before loading, so a corrupt file throws instead of reading out of bounds.
///
/// Plain integers and pointers: a copy (a closure that uses it holds one) is a `memcpy` that retains
/// nothing.
struct _IndexBytes {
    let raw: UnsafeRawBufferPointer
    /// The layout, copied from the storage: a walk reads it from memory nothing else writes to, so
    /// its fields stay in registers across the walk's stores (read through the storage, each was read
    /// again after every store: 7% more instructions in a typo walk).
    let layout: _IndexLayout
    /// The index's storage, for its path; not owned (the `CityIndex` whose `withBytes` made this value
    /// holds it for the call), so a copy retains nothing.
    unowned(unsafe) let storage: _IndexStorage
    var path: String { storage.path }

    func corrupt(_ offset: Int, _ message: String) -> MMSearchError {
        .invalidIndex(file: path, byteOffset: offset, message: message)
    }

    /// The byte of node `index`'s first bit: where an error about it points.
    @inline(__always)
    func nodeOffset(_ index: Int) -> Int { layout.nodes.byteOffset(index) }

    /// The field of at most 32 bits (`mask`) at bit `bit` of a packed array from byte `start`: one
    /// unaligned 8-byte load, which the array's checked length and zero tail keep inside the file for
    /// any field of a value below its count (so `start + bit / 8` lies in the file: it wraps, as it
    /// cannot overflow).
    @inline(__always)
    func bits(_ start: Int, at bit: Int, _ mask: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: packedWord(start, at: bit) & mask)
    }

    /// The 64 bits from bit `bit` of a packed array from byte `start`, bit `bit` first: the same one
    /// load as `bits`, so every field of a value up to 57 bits wide (and `bit` its first) at once.
    @inline(__always)
    func packedWord(_ start: Int, at bit: Int) -> UInt64 {
        raw.loadUnaligned(fromByteOffset: start &+ bit &>> 3, as: UInt64.self) &>> UInt64(bit & 7)
    }

    /// A node's children (numbered `nodes`) and where their entry deltas are: from bit `deltaBit` of
    /// CHILDREN's deltas, `deltaWidth` bits each.
    struct Children {
        let nodes: Range<Int>
        let deltaBit: Int
        let deltaWidth: Int
        let deltaMask: UInt64
    }

    /// The children of node `index` (a valid node), from its child block (its first child, its mask of
    /// nodes with children, its head and its first 16 such nodes' counts) and, for a node past them or
    /// in a block of byte counts, its block's bits ("The trie"): checked to be numbered after it and
    /// inside the node array, and their counts and entry deltas to lie inside CHILDREN's bits. A node
    /// without children (most nodes) reads its block's mask alone, and its empty range is at the
    /// block's first child.
    @inline(__always)
    func children(ofNode index: Int) throws(MMSearchError) -> Children {
        let block = childBlockOffset(ofNode: index), slot = index & (Int(MMS_CHILD_BLOCK_NODES) &- 1)
        // first and bits_first as one load, mask and head as another (the header's static asserts place them so).
        let pair = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: block, as: UInt64.self))
        let maskAndHead = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: block &+ MemoryLayout<mms_child_block>.offset(of: \.mask)!, as: UInt64.self))
        let mask = UInt32(truncatingIfNeeded: maskAndHead), blockFirst = Int(UInt32(truncatingIfNeeded: pair))
        guard (mask &>> UInt32(slot)) & 1 != 0 else {
            return Children(nodes: blockFirst ..< blockFirst, deltaBit: 0, deltaWidth: 0, deltaMask: 0)
        }
        let bitsFirst = Int(pair &>> 32), head = Int(truncatingIfNeeded: maskAndHead &>> 32) & 0xFF
        let width = head & Int(MMS_CHILD_WIDTH_MASK), inBytes = head & Int(MMS_CHILD_BYTE_COUNTS) != 0
        let held = Int(MMS_CHILD_BLOCK_COUNTS), countBits = Int(MMS_CHILD_COUNT_BITS)
        let withChildren = Self.nodesWithChildren(mask, before: slot)
        // Its deltas follow its byte counts, or its counts past the block's own 16.
        let countsEnd = bitsFirst &+ (inBytes ? 8 &* Int(MMS_CHILD_BLOCK_NODES) : Swift.max(0, withChildren.all &- held) &* countBits)
        guard countsEnd <= layout.childBits.count else {
            throw corrupt(block, "node \(index)'s child block's counts end at bit \(countsEnd), past the \(layout.childBits.count) bits of CHILDREN")
        }
        let counts = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: block &+ MemoryLayout<mms_child_block>.offset(of: \.counts)!, as: UInt64.self))
        let count: (before: Int, count: Int)
        if inBytes {
            count = childCount(bytesAt: bitsFirst, slot: slot)
        } else if withChildren.before < held {
            count = Self.nibbleCounts(counts, before: withChildren.before)
        } else {
            // Past the block's 16: the rest among its bits (inside them, as the node is one of them).
            let rest = childCount(nibblesAt: bitsFirst, before: withChildren.before &- held)
            count = (rest.before &+ held &+ Self.nibbleSum(counts, before: held), rest.count)
        }
        let first = blockFirst &+ count.before, end = first &+ count.count
        guard first > index || first == end, end <= layout.nodeCount else {
            throw corrupt(block, "node \(index) has children \(first)..<\(end); children must follow their parent inside the \(layout.nodeCount) nodes")
        }
        // No overflow: a 32-bit offset, at most 32 x 255 children before, a width below 64.
        let deltaBit = countsEnd &+ count.before &* width
        guard width <= 32, deltaBit &+ count.count &* width <= layout.childBits.count else {
            throw corrupt(block, "node \(index)'s children have their entry deltas at bit \(deltaBit), \(width) bits each, past the \(layout.childBits.count) bits of CHILDREN (or wider than 32 bits)")
        }
        return Children(nodes: first ..< end, deltaBit: deltaBit, deltaWidth: width, deltaMask: (1 &<< UInt64(width)) &- 1)
    }

    /// How many nodes of a block's `mask` have children: those before `slot`, and all of them. One
    /// count of both at once, in byte lanes (x86-64's baseline, which Swift builds for on Linux, has no
    /// popcount instruction: each `nonzeroBitCount` is 17 instructions of the same lanes).
    @inline(__always)
    static func nodesWithChildren(_ mask: UInt32, before slot: Int) -> (before: Int, all: Int) {
        let both = UInt64(mask & ((1 &<< UInt32(slot)) &- 1)) | UInt64(mask) &<< 32
        var lanes = both &- ((both &>> 1) & 0x5555_5555_5555_5555)
        lanes = (lanes & 0x3333_3333_3333_3333) &+ ((lanes &>> 2) & 0x3333_3333_3333_3333)
        lanes = (lanes &+ (lanes &>> 4)) & 0x0F0F_0F0F_0F0F_0F0F
        let sums = lanes &* 0x0101_0101_0101_0101 // byte i: the one bits of bytes 0 ... i
        let before = Int((sums &>> 24) & 0xFF)
        return (before, Int(sums &>> 56) &- before)
    }

    /// In 4-bit counts from bit `nibbles` of CHILDREN's bits (each the count less one of a node with
    /// children, checked to lie inside), the children of the nodes before a node with children
    /// (`before` of them have children) and its own, 14 counts a load (a block's counts past its own
    /// 16: at most 16 of them, one or two loads).
    @inline(__always)
    func childCount(nibblesAt nibbles: Int, before withChildren: Int) -> (before: Int, count: Int) {
        let perLoad = 14
        var before = 0, left = withChildren, at = nibbles
        while left >= perLoad {
            before &+= perLoad &+ Self.nibbleSum(packedWord(layout.childBits.start, at: at), before: perLoad)
            left &-= perLoad
            at &+= perLoad &* Int(MMS_CHILD_COUNT_BITS)
        }
        let last = Self.nibbleCounts(packedWord(layout.childBits.start, at: at), before: left)
        return (before &+ last.before, last.count)
    }

    /// In a word of 4-bit counts (each the count less one of a node with children), the children of
    /// the nodes of the first `count` (0 ... 15) counts and of the next one's node: the counts added in
    /// byte lanes without a loop, and one added for each node.
    @inline(__always)
    static func nibbleCounts(_ word: UInt64, before count: Int) -> (before: Int, count: Int) {
        (count &+ nibbleSum(word, before: count), Int((word &>> UInt64(Int(MMS_CHILD_COUNT_BITS) &* count)) & 0xF) &+ 1)
    }

    /// The sum of the first `count` (0 ... 16) 4-bit values of `word` (its least significant first),
    /// without a loop: the values before it masked, added in byte lanes (each at most 2 x 15), and the
    /// lanes added in the top one (at most 16 x 15).
    @inline(__always)
    static func nibbleSum(_ word: UInt64, before count: Int) -> Int {
        let kept = count == 0 ? 0 : word & (UInt64.max &>> UInt64(64 &- 4 &* count)), nibbles: UInt64 = 0x0F0F_0F0F_0F0F_0F0F
        let lanes = (kept & nibbles) &+ ((kept &>> 4) & nibbles)
        return Int((lanes &* 0x0101_0101_0101_0101) &>> 56)
    }

    /// In a block whose counts are bytes (at the top of the trie, where a node has up to hundreds of
    /// children), from bit `counts` of CHILDREN's bits (checked to lie inside), the children of the
    /// nodes before `slot` and its own: seven bytes a load, each load's added without a loop.
    @inline(__always)
    func childCount(bytesAt counts: Int, slot: Int) -> (before: Int, count: Int) {
        var before = 0, byte = 0
        while byte &+ 7 <= slot {
            before &+= Self.byteSum(packedWord(layout.childBits.start, at: counts &+ 8 &* byte), before: 7)
            byte &+= 7
        }
        let word = packedWord(layout.childBits.start, at: counts &+ 8 &* byte)
        return (before &+ Self.byteSum(word, before: slot &- byte), Int((word &>> UInt64(8 &* (slot &- byte))) & 0xFF))
    }

    /// The sum of the first `count` (0 ... 8) bytes of `word` (its least significant first).
    @inline(__always)
    static func byteSum(_ word: UInt64, before count: Int) -> Int {
        let kept = count == 0 ? 0 : word & (UInt64.max &>> UInt64(64 &- 8 &* count))
        let pairs = (kept & 0x00FF_00FF_00FF_00FF) &+ (kept &>> 8 & 0x00FF_00FF_00FF_00FF) // 4 lanes, each at most 510
        return Int((pairs &* 0x0001_0001_0001_0001) &>> 48) // the lanes added in the top one: at most 2,040
    }

    /// The entry delta of `child`, one of `children` (checked to lie inside CHILDREN by `children(ofNode:)`).
    @inline(__always)
    func entryDelta(of child: Int, among children: Children) -> Int {
        assert(children.nodes.contains(child), "node \(child) is not one of the children \(children.nodes)")
        return Int(bits(layout.childBits.start, at: children.deltaBit &+ (child &- children.nodes.lowerBound) &* children.deltaWidth, children.deltaMask))
    }

    /// Where the CHILDREN block holding node `index`'s child count is in the file (`index` a valid node).
    @inline(__always)
    func childBlockOffset(ofNode index: Int) -> Int {
        layout.children &+ index / Int(MMS_CHILD_BLOCK_NODES) &* _IndexLayout.childBlockSize
    }

    /// Node `index`'s value in NODES as packed: its label offset, or the threshold plus its number among
    /// those stored apart; `index` below node_count.
    @inline(__always)
    func packedLabelOffset(ofNode index: Int) -> UInt64 {
        UInt64(bits(layout.nodes.start, at: index &* layout.nodes.width, layout.nodeLabelMask))
    }

    /// Where node `index`'s label starts in the file, checked to lie inside the label pool.
    /// Every caller's node is below node_count (the root, or a child `children(ofNode:)` checked), so
    /// its arithmetic wraps, as it cannot overflow: a binary search for a child (`child(startingWith:)`)
    /// reads it at every probe, and a typo walk at every node. So one comparison tells both at once that
    /// the value is an offset (below the threshold of those stored apart) and that it is inside LABELS:
    /// any other value, stored apart or out of bounds, takes the other branch. (That branch calls no
    /// function: a call there made the walks keep their values on the stack, 1% more instructions.)
    @inline(__always)
    func labelStart(ofNode index: Int) throws(MMSearchError) -> Int {
        var offset = packedLabelOffset(ofNode: index)
        if _slowPath(offset >= layout.directLabelLimit) {
            offset = unpacked(offset, layout.labelsApart)
            guard offset < UInt64(layout.labels.count) else { throw labelOutsidePool(index, Int(truncatingIfNeeded: offset)) }
        }
        return layout.labels.lowerBound &+ Int(truncatingIfNeeded: offset)
    }

    /// The error for node `index` whose label offset `offset` is past the label pool.
    func labelOutsidePool(_ index: Int, _ offset: Int) -> MMSearchError {
        corrupt(nodeOffset(index), "node \(index) has its label at \(offset), outside the \(layout.labels.count)-byte label pool")
    }

    /// A node's label as LABELS holds it: `stored`, its bytes before its end byte, and whether its
    /// node's keys' country tail (", " and a code: MMS_COUNTRY_TAIL_LENGTH bytes, `countryTail`) follows
    /// them, not stored (its end byte MMS_LABEL_TAIL_END).
    struct Label {
        let stored: UnsafeRawBufferPointer
        let hasTail: Bool
        static let tailLength = Int(MMS_COUNTRY_TAIL_LENGTH)
        /// Its length, the tail's bytes included.
        var count: Int { stored.count &+ (hasTail ? Self.tailLength : 0) }
        /// Whether its byte `place` (below `count`) is a ',': a tail's first byte is, its others (a code's
        /// two digits or ASCII letters) are not.
        @inline(__always)
        func isComma(at place: Int) -> Bool {
            place < stored.count ? stored[place] == UInt8(ascii: ",") : place == stored.count
        }
    }

    /// The label of node `index` (up to its end byte), checked to end inside the label pool.
    func label(ofNode index: Int) throws(MMSearchError) -> Label {
        try label(at: try labelStart(ofNode: index), ofNode: index)
    }

    /// The label starting at `start` (node `index`'s `labelStart`), checked to end inside the label pool.
    @inline(__always)
    func label(at start: Int, ofNode index: Int) throws(MMSearchError) -> Label {
        guard let end = Self.end(of: raw, from: start, before: layout.labels.upperBound, least: UInt8(MMS_LABEL_TAIL_END)) else { throw unendedLabel(index) }
        return Label(stored: UnsafeRawBufferPointer(rebasing: raw[start ..< end]), hasTail: raw[end] == UInt8(MMS_LABEL_TAIL_END))
    }

    /// The error for a label with no end byte before the end of the label pool.
    func unendedLabel(_ node: Int) -> MMSearchError {
        corrupt(nodeOffset(node), "node \(node)'s label runs to the end of the label pool without its end byte")
    }

    /// The country tail of node `node`'s own keys, whose entries are `entries` (a label ended by
    /// MMS_LABEL_TAIL_END), as 4 bytes, the first least significant: ", " and the folded code of the
    /// country of the record its first entry names. Not inlined: the walks that may read a tail's
    /// code (`tailByte`) rarely do, and keep their loops small.
    @inline(never)
    func countryTail(ofNode node: Int, entries: Range<Int>) throws(MMSearchError) -> UInt32 {
        let value = try entry(entries.lowerBound)
        let record = try owner(ofEntry: value, at: layout.entries.byteOffset(entries.lowerBound)).record
        guard let tail = Folding.countryTail(code: try recordCountry(record)) else {
            throw corrupt(nodeOffset(node), "node \(node)'s label goes on with its keys' country tail, but its first entry's record, \(record), has no country")
        }
        return UInt32(tail.0) | UInt32(tail.1) << 8 | UInt32(tail.2) << 16 | UInt32(tail.3) << 24
    }

    /// Byte `place` of the country tail of node `node`'s own keys (`countryTail`): its ", " without
    /// reading anything, its code's from the record.
    @inline(__always)
    func tailByte(_ place: Int, ofNode node: Int, entries: Range<Int>) throws(MMSearchError) -> UInt8 {
        switch place {
        case 0: UInt8(ascii: ",")
        case 1: UInt8(ascii: " ")
        default: UInt8(truncatingIfNeeded: try countryTail(ofNode: node, entries: entries) >> (8 * place))
        }
    }

    /// The bytes from `start` up to the first MMS_STRING_END, which must come before `limit`; nil when
    /// it does not. `start ... limit` must lie inside the file.
    @inline(__always)
    func text(from start: Int, before limit: Int) -> UnsafeRawBufferPointer? {
        Self.end(of: raw, from: start, before: limit, least: UInt8(MMS_STRING_END)).map { UnsafeRawBufferPointer(rebasing: raw[start ..< $0]) }
    }

    /// Where the first end byte of `bytes` at or after `start` is, when it comes before `limit`
    /// (`start ... limit` inside `bytes`): a byte with every bit of `least` set, so MMS_STRING_END
    /// alone (a name's) or MMS_LABEL_TAIL_END too (a label's). Eight bytes at a time while eight fit
    /// before `limit`: a byte is an end byte where the inverted word masked by `least` has a zero
    /// byte, and the lowest flag the classic test for one raises is exact (a higher one may be false).
    @inline(__always)
    static func end(of bytes: UnsafeRawBufferPointer, from start: Int, before limit: Int, least: UInt8) -> Int? {
        var end = start
        let mask = UInt64(least) &* 0x0101_0101_0101_0101
        while end &+ 8 <= limit {
            let inverted = ~UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: end, as: UInt64.self)) & mask
            let ends = (inverted &- 0x0101_0101_0101_0101) & ~inverted & 0x8080_8080_8080_8080
            if ends != 0 { return end &+ ends.trailingZeroBitCount >> 3 }
            end &+= 8
        }
        while end < limit, bytes[end] & least != least { end += 1 }
        return end < limit ? end : nil
    }

    /// Where a walk ended: the node, the length of its prefix (the query's, or more when the query
    /// ended inside the node's label), and the entries under it.
    struct Located: Sendable {
        var node: Int
        var depth: Int
        var entries: Range<Int>
    }

    /// The entries of `child`, one of `siblings` (a node's children) under a node whose entries are
    /// `parent`: from its entry_first (the parent's first plus its delta) to its next sibling's, or to
    /// its parent's end; checked to lie inside the parent's and not to be empty.
    @inline(__always)
    func entries(ofChild child: Int, siblings: Children, parent: Range<Int>) throws(MMSearchError) -> Range<Int> {
        // Entry positions and deltas below 2^32: their sums cannot overflow.
        let first = parent.lowerBound &+ entryDelta(of: child, among: siblings)
        let last = child + 1 < siblings.nodes.upperBound ? parent.lowerBound &+ entryDelta(of: child + 1, among: siblings) : parent.upperBound
        return try checkedEntries(first, last, ofChild: child, parent: parent)
    }

    /// Each of `children` (a node's, under a node whose entries are `parent`) in `visited` (a part of
    /// them) with its entries, in order, as `entries(ofChild:siblings:parent:)` gives them: each child's
    /// entry_first read once.
    @inline(__always)
    func forEachChild(_ children: Children, in visited: Range<Int>, parent: Range<Int>, _ body: (_ child: Int, _ entries: Range<Int>) throws(MMSearchError) -> Void) throws(MMSearchError) {
        guard !visited.isEmpty else { return }
        var first = parent.lowerBound &+ entryDelta(of: visited.lowerBound, among: children)
        for child in visited {
            let last = child + 1 < children.nodes.upperBound ? parent.lowerBound &+ entryDelta(of: child + 1, among: children) : parent.upperBound
            try body(child, try checkedEntries(first, last, ofChild: child, parent: parent))
            first = last
        }
    }

    /// A child's entries, from its entry_first to the next (or its parent's end), checked to be a
    /// non-empty part of its parent's.
    @inline(__always)
    func checkedEntries(_ first: Int, _ last: Int, ofChild child: Int, parent: Range<Int>) throws(MMSearchError) -> Range<Int> {
        guard parent.lowerBound <= first, first < last, last <= parent.upperBound else {
            throw corrupt(nodeOffset(child), "node \(child) covers entries \(first)..<\(last), not a non-empty part of its parent's \(parent)")
        }
        return first ..< last
    }

    /// The entries whose key starts with `query` (already folded): one walk from the root, at most
    /// `query.count` steps whatever the file says, since every step consumes at least one byte.
    func locate(_ query: UnsafeRawBufferPointer) throws(MMSearchError) -> Located? {
        var trail: [WalkPoint]? = nil
        guard let point = try walk(query, from: rootPoint, trail: &trail) else { return nil }
        return try located(point)
    }

    /// A place on the trie's paths: inside the label into `node`, whose entries are `entries`, before
    /// `inLabel` (its next byte); or the node itself (`inLabel` nil). `consumed` bytes of the walk's
    /// query lead here.
    struct WalkPoint: Sendable {
        var node: Int
        var entries: Range<Int>
        var inLabel: LabelPlace?
        var consumed: Int
    }

    /// A label's next byte: a stored one (its offset in the file), or byte `place` of its node's
    /// country tail (`countryTail`).
    enum LabelPlace: Sendable, Equatable {
        case stored(Int)
        case tail(Int)
    }

    /// The root: the empty prefix.
    var rootPoint: WalkPoint { WalkPoint(node: 0, entries: 0 ..< layout.entryCount, inLabel: nil, consumed: 0) }

    /// Walks on from `start` by the bytes of `query`; nil when no key goes on with them. A `trail`
    /// gets the place after each byte, so that a caller can come back to any of them. At most
    /// `query.count` steps whatever the file says, since every step consumes one byte.
    func walk(_ query: UnsafeRawBufferPointer, from start: WalkPoint, trail: inout [WalkPoint]?) throws(MMSearchError) -> WalkPoint? {
        var point = start
        for offset in 0 ..< query.count {
            let wanted = query[offset]
            switch point.inLabel {
            case .stored(let byte):
                guard raw[byte] == wanted else { return nil }
                point.inLabel = try place(after: byte, ofNode: point.node)
            case .tail(let place):
                guard try tailByte(place, ofNode: point.node, entries: point.entries) == wanted else { return nil }
                point.inLabel = place + 1 < Label.tailLength ? .tail(place + 1) : nil
            case nil:
                let children = try children(ofNode: point.node)
                guard let child = try child(startingWith: wanted, among: children) else { return nil }
                let start = try labelStart(ofNode: child)
                point.entries = try entries(ofChild: child, siblings: children, parent: point.entries)
                point.node = child
                point.inLabel = try place(after: start, ofNode: child)
            }
            point.consumed += 1
            trail?.append(point)
        }
        return point
    }

    /// The place after the stored byte at `byte` of node `node`'s label, a byte a query matched (so
    /// never an end byte): the next stored byte, the node's tail, or the node itself (nil).
    @inline(__always)
    func place(after byte: Int, ofNode node: Int) throws(MMSearchError) -> LabelPlace? {
        let next = byte &+ 1
        guard next < layout.labels.upperBound else { throw unendedLabel(node) }
        let value = raw[next]
        if value < UInt8(MMS_LABEL_TAIL_END) { return .stored(next) }
        return value == UInt8(MMS_STRING_END) ? nil : .tail(0)
    }

    /// The child among `children` (a node's, sorted by their labels' first bytes) whose label starts
    /// with `byte`: a binary search, the walks' most frequent step (its arithmetic wraps: the children
    /// are below node_count, checked by `children(ofNode:)`).
    @inline(__always)
    func child(startingWith byte: UInt8, among children: Children) throws(MMSearchError) -> Int? {
        var low = children.nodes.lowerBound, high = children.nodes.upperBound
        while low < high {
            let middle = (low &+ high) &>> 1
            if raw[try labelStart(ofNode: middle)] < byte { low = middle &+ 1 } else { high = middle }
        }
        guard low < children.nodes.upperBound, raw[try labelStart(ofNode: low)] == byte else { return nil }
        return low
    }

    /// The node a walk reached: a query that ends inside a label reaches the node all the same, its
    /// prefix longer.
    func located(_ point: WalkPoint) throws(MMSearchError) -> Located {
        switch point.inLabel {
        case nil:
            return Located(node: point.node, depth: point.consumed, entries: point.entries)
        case .tail(let place):
            return Located(node: point.node, depth: point.consumed + Label.tailLength - place, entries: point.entries)
        case .stored(let byte):
            let rest = try label(at: byte, ofNode: point.node)
            return Located(node: point.node, depth: point.consumed + rest.count, entries: point.entries)
        }
    }

    /// The length of every entry's key under `located` (the entry at `located.entries.lowerBound + i`
    /// has the key length `i`th in the result): each entry's key is its node's prefix, so one walk of
    /// the node's subtree gives them all, without reading any name. With a query's `ClassKeys`, only the
    /// lengths its matches' classes depend on; the others read as Int32.max.
    func keyLengths(under located: Located, for classKeys: ClassKeys? = nil) throws(MMSearchError) -> [Int32] {
        // Not `Array(repeating:count:)`: its allocator is not specialized, and looks up the storage's
        // generic metadata at every call (about 500 instructions).
        var lengths = Array(repeatElement(Int32(0), count: located.entries.count))
        try lengths.withUnsafeMutableBufferPointer { (lengths) throws(MMSearchError) in try fillKeyLengths(lengths, under: located, for: classKeys) }
        return lengths
    }

    /// The same handed to `body`: a small node's (most keystrokes that read entries) on the stack, a
    /// bigger one's in an array (`stackBufferBytes`).
    func withKeyLengths<R>(under located: Located, for classKeys: ClassKeys?,
                           _ body: (UnsafeBufferPointer<Int32>) throws(MMSearchError) -> R) throws(MMSearchError) -> R {
        guard located.entries.count * MemoryLayout<Int32>.stride <= Self.stackBufferBytes else {
            return try keyLengths(under: located, for: classKeys).withUnsafeBufferPointer { (lengths) throws(MMSearchError) in try body(lengths) }
        }
        return try withUnsafeTemporaryAllocation(of: Int32.self, capacity: located.entries.count) { (lengths) throws(MMSearchError) -> R in
            try fillKeyLengths(lengths, under: located, for: classKeys)
            return try body(UnsafeBufferPointer(lengths))
        }
    }

    /// Writes `keyLengths(under:for:)` into `lengths`, one for each of `located`'s entries.
    private func fillKeyLengths(_ lengths: UnsafeMutableBufferPointer<Int32>, under located: Located, for classKeys: ClassKeys?) throws(MMSearchError) {
        lengths.initialize(repeating: classKeys == nil ? 0 : .max)
        try forEachNode(under: located, classKeys: classKeys) { (depth, ownEntries) throws(MMSearchError) in
            // Inside `located` by construction (each child's entries are checked to lie in its parent's),
            // checked again where a write past `lengths` (on the stack, unchecked) would not be caught.
            guard ownEntries.lowerBound >= located.entries.lowerBound, ownEntries.upperBound <= located.entries.upperBound else {
                throw corrupt(nodeOffset(located.node), "a node under node \(located.node) covers entries \(ownEntries), outside its \(located.entries)")
            }
            for position in ownEntries { lengths[position - located.entries.lowerBound] = Int32(truncatingIfNeeded: depth) }
        }
    }

    /// The most a search's temporary buffers take on the stack; bigger ones are arrays. Past 1 KiB,
    /// `withUnsafeTemporaryAllocation` first asks the runtime for the thread's stack bounds (25 to 45 ns
    /// a call here), and a trial that kept every node's buffers on the stack was slower at the p99
    /// (1.076x, RESULTS.md "A small node's search allocates less").
    static let stackBufferBytes = 1024

    /// The key lengths of `positions` (ascending, inside `located.entries`), as `keyLengths(under:for:)`
    /// gives them (Int32.max where the walk does not reach, with `classKeys` or below `deepest`): one
    /// walk of the subtree that enters only the nodes holding one of them, each node's own entries
    /// searched in them. A search restricted to countries asks it for their positions under its node.
    func keyLengths(of positions: [Int], under located: Located, for classKeys: ClassKeys?, deepest: Int = .max) throws(MMSearchError) -> [Int32] {
        var lengths = Array(repeatElement(Int32.max, count: positions.count)) // as above
        guard !positions.isEmpty else { return lengths }
        /// The first of `positions` at or after `position`. A binary search whose step is a conditional
        /// move, not a branch: the walk asks it at every node it may enter, and a branch on the
        /// comparison is mispredicted half the time.
        func firstPosition(from position: Int) -> Int {
            positions.withUnsafeBufferPointer { positions in
                var base = 0, length = positions.count
                while length > 1 {
                    let half = length / 2
                    base = positions[base + half] < position ? base + half : base
                    length -= half
                }
                return positions[base] < position ? base + 1 : base
            }
        }
        try forEachNode(under: located, deepest: deepest, classKeys: classKeys, entering: { range in
            let first = firstPosition(from: range.lowerBound)
            return first < positions.count && positions[first] < range.upperBound
        }) { (depth, ownEntries) in
            var at = firstPosition(from: ownEntries.lowerBound)
            while at < positions.count, positions[at] < ownEntries.upperBound {
                lengths[at] = Int32(truncatingIfNeeded: depth)
                at += 1
            }
        }
        return lengths
    }

    /// The keys whose length the class of a match of a query `queryLength` bytes long depends on
    /// (`Ranking.matchClass`): those whose name part, the key without its country tail (", cc", 4
    /// bytes), is at most twice the query; a longer one is neither covered whole nor half. So a walk
    /// needs no node deeper than `nameLimit` + 4, and past `nameLimit` only nodes whose path has a ','
    /// (where such a tail starts) at most 4 bytes above them and at most `nameLimit` deep.
    /// A query with no ',' (`commaFree`) has every match's country tail after it, so a key whose tail
    /// starts above `nameLimit` is one with a ',' the walk reads; without that, a key whose tail would
    /// start inside the query (its ',' one of the query's bytes, not read) is kept too.
    struct ClassKeys {
        /// A country tail's length: ", " and the two characters of a code.
        static let tailLength = Label.tailLength
        /// The query's length in bytes (folded), and whether it holds no ','.
        let queryLength: Int
        let commaFree: Bool
        init(queryLength: Int, commaFree: Bool = false) {
            self.queryLength = queryLength
            self.commaFree = commaFree
        }
        /// A folded query's: its length, and whether it holds no ','.
        init(query: [UInt8]) {
            self.init(queryLength: query.count, commaFree: !query.contains(UInt8(ascii: ",")))
        }
        var nameLimit: Int { 2 * queryLength }
        var deepest: Int { nameLimit + Self.tailLength }
    }

    /// The length of the name part of a key `keyLength` bytes long of `record`: the key less the
    /// record's country tail, when it has a country.
    @inline(__always)
    func nameLength(ofKey keyLength: Int, record: Int) throws(MMSearchError) -> Int {
        keyLength - (try recordHasCountry(record) ? ClassKeys.tailLength : 0)
    }

    /// Walks the subtree under `located` depth first, giving each node's prefix length and its own
    /// entries (those whose key is exactly its prefix); nodes deeper than `deepest` are not entered,
    /// nor those whose entries `entering` turns down, nor with `classKeys` those under which no key
    /// may be one it names (of the path, the walk knows the labels it reads: a node is left out only
    /// when those hold every place a tail's ',' could be). At most `nodeCount` nodes are visited,
    /// whatever the file says.
    func forEachNode(under located: Located, deepest: Int = .max, classKeys: ClassKeys? = nil,
                     entering: ((Range<Int>) throws(MMSearchError) -> Bool)? = nil,
                     _ body: (_ depth: Int, _ ownEntries: Range<Int>) throws(MMSearchError) -> Void) throws(MMSearchError) {
        let deepest = Swift.min(deepest, classKeys?.deepest ?? .max), nameLimit = classKeys?.nameLimit ?? .max
        let commaFree = classKeys?.commaFree ?? false
        // Per node: the deepest place of a ',' in the labels walked, at most `nameLimit` deep (-1: none).
        // The nodes still to visit on the stack, up to 24 of them (a small node's subtree: nothing
        // allocated), in an array past that.
        try withUnsafeTemporaryAllocation(of: (node: Int, depth: Int, entryStart: Int, entryEnd: Int, comma: Int).self, capacity: 24) { (buffer) throws(MMSearchError) in
            var stack = _InlineStack(buffer)
            stack.push((located.node, located.depth, located.entries.lowerBound, located.entries.upperBound, -1))
            var visits = 0
            while let (node, depth, entryStart, entryEnd, comma) = stack.pop() {
                let entries = entryStart ..< entryEnd
                visits += 1
                guard visits <= layout.nodeCount else {
                    throw corrupt(nodeOffset(located.node), "the nodes under node \(located.node) do not form a tree")
                }
                let children = try children(ofNode: node)
                var ownEnd = entries.upperBound, visited = children.nodes
                if commaFree, depth == nameLimit, comma < 0, let first = children.nodes.first {
                    // No ',' in the places above and none in the query: of this node's children only one
                    // whose label starts with ',' can hold a key whose name part is at most `nameLimit`. It
                    // is found by a binary search over the children's first bytes, the others' labels unread
                    // (at a one-letter prefix's second level, about 200 labels read instead of 1,000).
                    ownEnd = try self.entries(ofChild: first, siblings: children, parent: entries).lowerBound
                    visited = try child(startingWith: UInt8(ascii: ","), among: children).map { $0 ..< $0 + 1 } ?? first ..< first
                }
                prefetchLabels(of: visited)
                try forEachChild(children, in: visited, parent: entries) { (child, childEntries) throws(MMSearchError) in
                    if child == children.nodes.lowerBound { ownEnd = childEntries.lowerBound }
                    guard try entering?(childEntries) ?? true else { return } // before its label is read
                    let label = try label(ofNode: child)
                    let childDepth = depth + label.count
                    guard childDepth <= deepest else { return }
                    // Only a ',' in the last tailLength places up to `nameLimit` may keep a deeper node.
                    let tail = ClassKeys.tailLength
                    var childComma = comma
                    if depth <= nameLimit, childDepth > nameLimit - tail + 1 {
                        var place = Swift.max(depth, nameLimit - tail + 1)
                        while place < childDepth, place <= nameLimit {
                            if label.isComma(at: place - depth) { childComma = place }
                            place += 1
                        }
                    }
                    if childDepth > nameLimit, commaFree || childDepth - tail >= located.depth, childComma < childDepth - tail { return }
                    stack.push((child, childDepth, childEntries.lowerBound, childEntries.upperBound, childComma))
                }
                try body(depth, entries.lowerBound ..< ownEnd)
            }
        }
    }

    /// Fetches the cache lines of a few sibling nodes' labels and child blocks ahead of their reads, so
    /// that a walk under a small node (a query's key lengths, for its matches' classes) waits for each
    /// level's labels, scattered over LABELS, together instead of one by one: the slowest keystrokes
    /// are such nodes' (search alone p99 0.92x on the list + cities500, RESULTS.md). Not for one child
    /// (nothing to overlap) or many (a big node's walk, hot). A hint only: labels outside the pool are
    /// refused where they are read; nor are the few labels whose offsets are stored apart fetched. The
    /// same for the walk down to a node (search p50 1.05x) and for a small node's entries' owners (p50
    /// 1.03x, p99 1.0x) cost more than it saved.
    @inline(__always)
    func prefetchLabels(of nodes: Range<Int>) {
        guard nodes.count >= 2, nodes.count <= 16 else { return }
        for node in nodes {
            let offset = packedLabelOffset(ofNode: node)
            if offset < layout.directLabelLimit { prefetch(layout.labels.lowerBound &+ Int(truncatingIfNeeded: offset)) }
            prefetch(childBlockOffset(ofNode: node))
        }
    }

    /// Entry `index` as a reader holds it (kind << MMS_ENTRY_KIND_SHIFT | name number), unchecked
    /// (`owner(ofEntry:at:)` checks them): a WORD by its bit, any other kind by its name number
    /// ("Entries' kinds").
    @inline(__always)
    func entry(_ index: Int) throws(MMSearchError) -> UInt32 {
        let packed = try value(index, of: layout.entries, "entry \(index) does not exist (\(layout.entryCount) entries)")
        let name = packed & layout.entryNameMask
        let kind = packed > layout.entryNameMask ? MMS_KIND_WORD.rawValue : kind(ofName: name)
        return kind << MMS_ENTRY_KIND_SHIFT | name
    }

    /// The kind of an entry that is no WORD, made from name `name`: PRIMARY for a display name or an
    /// alternate listed after ENTRIES (standing in for an empty display name), SPELLING for a spelling
    /// (or a number past the names, which `owner(ofEntry:at:)` refuses), else ALTERNATE.
    @inline(__always)
    func kind(ofName name: UInt32) -> UInt32 {
        let alternate = Int(name) - layout.recordCount
        if alternate < 0 { return MMS_KIND_PRIMARY.rawValue }
        if alternate >= layout.givenAlternateCount { return MMS_KIND_SPELLING.rawValue }
        return name <= layout.lastPrimaryAlternate && isPrimaryAlternate(name) ? MMS_KIND_PRIMARY.rawValue : MMS_KIND_ALTERNATE.rawValue
    }

    /// Whether name `name` is among the alternates listed PRIMARY after ENTRIES (a binary search over
    /// their strictly increasing numbers; open checked that they lie inside ENTRIES).
    func isPrimaryAlternate(_ name: UInt32) -> Bool {
        let list = layout.primaryAlternates, size = MemoryLayout<UInt32>.size
        var low = 0, high = list.count
        while low < high {
            let middle = low + (high - low) / 2
            let value = raw.loadUnaligned(fromByteOffset: list.start + middle * size, as: UInt32.self)
            if value == name { return true }
            if value < name { low = middle + 1 } else { high = middle }
        }
        return false
    }

    /// Value `position` of a packed array (ENTRIES, TOP, ID_ORDER); `missing` is the error's message when
    /// there is no such value. Open checked the array's bytes, its tail included, to lie in the file,
    /// so the 8 bytes at the byte of any value's first bit do.
    @inline(__always)
    func value(_ position: Int, of array: _PackedArray, _ missing: @autoclosure () -> String) throws(MMSearchError) -> UInt32 {
        guard position >= 0, position < array.count else { throw corrupt(array.start, missing()) }
        return bits(array.start, at: position * array.width, array.mask)
    }

    /// The record an entry value belongs to, and the number of its alternate name (nil for a
    /// display name); `at` is where the value was read, for errors.
    @inline(__always)
    func owner(ofEntry value: UInt32, at offset: Int) throws(MMSearchError) -> (record: Int, alternate: Int?) {
        let kind = value >> MMS_ENTRY_KIND_SHIFT
        let name = Int(value & MMS_ENTRY_NAME_MASK)
        if name < layout.recordCount {
            guard kind == MMS_KIND_PRIMARY.rawValue || kind == MMS_KIND_WORD.rawValue else {
                throw corrupt(offset, "an alternate-name entry names record \(name)'s display name")
            }
            return (name, nil)
        }
        let alternate = name - layout.recordCount
        // Given alternates come first in ALTERNATES, spellings last: each kind names its own.
        let isSpelling = alternate >= layout.givenAlternateCount
        guard kind == MMS_KIND_WORD.rawValue || isSpelling == (kind == MMS_KIND_SPELLING.rawValue) else {
            throw corrupt(offset, "entry \(value) of kind \(kind) names alternate name \(alternate), \(isSpelling ? "a generated spelling" : "a given name")")
        }
        return (try alternateOwner(alternate), alternate)
    }

    /// The record alternate name `index` belongs to, checked (its name offset left unread).
    @inline(__always)
    func alternateOwner(_ index: Int) throws(MMSearchError) -> Int {
        try checkAlternate(index)
        let record = alternateRecord(index)
        guard record < layout.recordCount else {
            throw corrupt(alternateBlockOffset(index), record == .max
                ? "alternate block \(index / Int(MMS_ALTERNATE_BLOCK_SIZE)) puts its deltas past the \(layout.alternateDeltaBits) bits of alternate deltas, before its own start or wider than 32 bits"
                : "alternate name \(index) belongs to record \(record) of \(layout.recordCount)")
        }
        return record
    }

    /// Throws unless alternate name `index` exists (ALTERNATES' or SPELLINGS').
    @inline(__always)
    func checkAlternate(_ index: Int) throws(MMSearchError) {
        guard index >= 0, index < layout.alternateCount else {
            throw corrupt(layout.alternates.start, "alternate name \(index) does not exist (\(layout.alternateCount) alternates)")
        }
    }

    /// Where spelling `index` (an alternate at or past the given ones) starts in SPELLINGS: its form,
    /// then its name's place ("Spellings").
    @inline(__always)
    func spellingBit(_ index: Int) -> Int { (index - layout.givenAlternateCount) * layout.spellings.width }

    /// The name offset of given alternate `index` (a valid one, below the given count); decoding checks it.
    @inline(__always)
    func givenNameOffset(_ index: Int) -> UInt32 {
        bits(layout.alternates.start, at: index * layout.alternates.width, layout.alternateNameMask)
    }

    /// The name offset of the name spelling `index` (a valid alternate past the given ones) is made from
    /// ("Spellings"): one stored apart, or its record's display name (place 0) or j-th given alternate
    /// (place j, which its record must have). Decoding checks the offset.
    func spellingNameOffset(_ index: Int) throws(MMSearchError) -> UInt32 {
        let place = spellingNamePlace(index), apart = layout.spellingNamesApart
        if place >= apart.threshold { return UInt32(truncatingIfNeeded: unpacked(place, apart)) }
        let record = try alternateOwner(index)
        if place == 0 { return nameOffset(ofRecord: record) }
        // One search, for the record's first given alternate (a page may show several spellings, each
        // searching): the j-th from it is the record's exactly when its record is the same, the records
        // ascending, so the run's end is searched for only to report a place past it.
        let alternate = firstAlternate(notBelow: record, in: 0 ..< layout.givenAlternateCount) + Int(place) - 1
        guard alternate < layout.givenAlternateCount, alternateRecord(alternate) == record else {
            let given = alternates(ofRecord: record, in: 0 ..< layout.givenAlternateCount)
            throw corrupt(alternateOffset(index), "spelling \(index - layout.givenAlternateCount) is made from name \(place) of record \(record), which has \(given.count) given alternates")
        }
        return givenNameOffset(alternate)
    }

    /// The place spelling `index` (an alternate at or past the given ones) stores for its name, or the
    /// threshold and past for one stored apart ("Spellings").
    @inline(__always)
    func spellingNamePlace(_ index: Int) -> UInt64 {
        UInt64(bits(layout.spellings.start, at: spellingBit(index) + Int(MMS_SPELLING_FORM_BITS), layout.spellingNameMask))
    }

    /// The form of spelling `index` (an alternate at or past the given ones), checked to be one.
    func spellingForm(_ index: Int) throws(MMSearchError) -> UInt32 {
        let value = bits(layout.spellings.start, at: spellingBit(index), (1 << UInt64(MMS_SPELLING_FORM_BITS)) - 1)
        guard value < MMS_SPELLING_FORM_COUNT.rawValue else {
            throw corrupt(alternateOffset(index), "spelling \(index - layout.givenAlternateCount) has form \(value); a form is below \(MMS_SPELLING_FORM_COUNT.rawValue)")
        }
        return value
    }

    /// The record of alternate name `index` (a valid one; "Alternates' records"): its block's least
    /// record plus its delta, or Int.max when the block's deltas do not lie inside ALTERNATE_DELTAS at
    /// a width of at most 32. Never a read out of bounds, so the binary search over a record's
    /// alternates compares it unchecked; `alternateOwner` checks it.
    @inline(__always)
    func alternateRecord(_ index: Int) -> Int {
        guard let block = alternateDeltas(ofBlock: index &>> 5) else { return .max }
        return block.least &+ Int(alternateDelta(index, in: block))
    }

    /// Where an alternate block's deltas are: its least record, its first delta's bit, their width and
    /// the mask of that width.
    typealias AlternateDeltas = (least: Int, first: Int, width: Int, mask: UInt64)

    /// Where block `index`'s deltas are (below alternateBlockCount - 1; "Alternates' records"): its
    /// least record, its first delta's bit and their width, which the next block's start gives (every
    /// alternate's block has a next one: the last block ends the deltas); nil when they do not lie
    /// inside ALTERNATE_DELTAS at a width of at most 32. Block index / 32: MMS_ALTERNATE_BLOCK_SIZE, 32
    /// as the header asserts.
    @inline(__always)
    func alternateDeltas(ofBlock index: Int) -> AlternateDeltas? {
        let block = alternateBlock(index), first = Int(block.delta_bit), end = Int(alternateBlock(index &+ 1).delta_bit)
        let width = (end &- first) &>> 5
        guard first <= end, end <= layout.alternateDeltaBits, width <= Int(MMS_PACKED_MAX_WIDTH) else { return nil }
        return (Int(block.least_record), first, width, (1 &<< UInt64(width)) &- 1)
    }

    /// Alternate `index`'s delta in its block `block` (`alternateDeltas`): its last bit is below the
    /// next block's start, so its byte and the 8 loaded there lie inside the section.
    @inline(__always)
    func alternateDelta(_ index: Int, in block: AlternateDeltas) -> UInt32 {
        bits(layout.alternateDeltaStart, at: block.first &+ (index & 31) &* block.width, block.mask)
    }

    /// Block `index` of ALTERNATE_BLOCKS (below alternateBlockCount), as stored: what verify and the
    /// search for a record's alternates read.
    @inline(__always)
    func alternateBlock(_ index: Int) -> mms_alternate_block {
        raw.loadUnaligned(fromByteOffset: layout.alternateBlocks &+ index &* MemoryLayout<mms_alternate_block>.stride, as: mms_alternate_block.self)
    }

    /// The byte of alternate name `index`'s name (a valid one: its offset, or its spelling's form and
    /// place): where an error about its name points.
    func alternateOffset(_ index: Int) -> Int {
        index < layout.givenAlternateCount ? layout.alternates.byteOffset(index) : layout.spellings.byteOffset(index - layout.givenAlternateCount)
    }

    /// The byte of alternate name `index`'s block (a valid one): where an error about its record points.
    func alternateBlockOffset(_ index: Int) -> Int {
        layout.alternateBlocks + index / Int(MMS_ALTERNATE_BLOCK_SIZE) * _IndexLayout.alternateBlockSize
    }

    /// The population of record `index`; 0 when the index has none. A packed value at or above the
    /// threshold is the number of one of the big cities' populations after the packed values
    /// ("Values stored apart"): below their count by construction, so that read needs no check.
    @inline(__always)
    func population(_ index: Int) -> UInt64 {
        guard index >= 0, index < layout.population.count else { return 0 }
        return population(packed: packedPopulation(index))
    }

    /// Record `index`'s value in POPULATION as packed: its population, or the threshold plus its number
    /// among those stored apart. `index` is below the section's count (so below the record count, in an
    /// index with populations).
    @inline(__always)
    func packedPopulation(_ index: Int) -> UInt64 {
        UInt64(bits(layout.population.start, at: index * layout.population.width, layout.population.mask))
    }

    /// The population a value `packedPopulation` read stands for.
    @inline(__always)
    func population(packed value: UInt64) -> UInt64 { unpacked(value, layout.populationsApart) }

    /// The value a packed field's value `value` (below 2^width) stands for: itself below the threshold,
    /// else the value stored apart it numbers, below their count by construction, so that read needs no
    /// check ("Values stored apart").
    @inline(__always)
    func unpacked(_ value: UInt64, _ apart: _ValuesApart) -> UInt64 {
        guard value >= apart.threshold else { return value }
        return UInt64(raw.loadUnaligned(fromByteOffset: apart.start + Int(value - apart.threshold) * MemoryLayout<UInt32>.size, as: UInt32.self))
    }

    /// The summary of node `node` (a binary search over SUMMARIES, sorted by node); a node with more
    /// entries than MMS_SUMMARY_THRESHOLD must have one.
    func summary(ofNode node: Int) throws(MMSearchError) -> mms_summary {
        var low = 0, high = layout.summaryCount
        while low < high {
            let middle = low + (high - low) / 2
            if Int(summaryNode(middle)) < node { low = middle + 1 } else { high = middle }
        }
        guard low < layout.summaryCount, Int(summaryNode(low)) == node else {
            throw corrupt(nodeOffset(node), "node \(node) has more than \(MMS_SUMMARY_THRESHOLD) entries but no summary")
        }
        let summary = unpackedSummary(low), offset = layout.summaries.byteOffset(low)
        guard summary.name_record_count <= summary.record_count,
              UInt64(summary.primary_first) + UInt64(summary.primary_count) <= UInt64(layout.recordCount),
              UInt64(summary.top_first) <= UInt64(layout.topBits) else { // its page is checked where it is read (`topPage`)
            throw corrupt(offset, "the summary of node \(node) has counts or ranges outside the file")
        }
        return summary
    }

    /// The node of summary `position` (below the summary count).
    @inline(__always)
    func summaryNode(_ position: Int) -> UInt32 {
        bits(layout.summaries.start, at: position * layout.summaries.width, layout.summary.nodeMask)
    }

    /// Summary `position` (below the summary count), unpacked.
    func unpackedSummary(_ position: Int) -> mms_summary {
        let start = layout.summaries.start, bit = position * layout.summaries.width, fields = layout.summary
        func count(_ number: Int) -> UInt32 { bits(start, at: bit + fields.count(number), fields.countMask) }
        return mms_summary(node: summaryNode(position), record_count: count(0), name_record_count: count(1), primary_first: count(2),
                           primary_count: count(3), top_first: bits(start, at: bit + fields.top, fields.topMask))
    }

    /// The records with a PRIMARY entry made from their display name among `entries`: in an index
    /// without alternates, the records whose primary key starts with the entries' common prefix,
    /// contiguous in name order (checked).
    func primaryRecords(in entries: Range<Int>) throws(MMSearchError) -> Range<Int> {
        var first: Int?, count = 0
        for position in entries {
            let value = try entry(position)
            let record = try owner(ofEntry: value, at: layout.entries.byteOffset(position)).record // checks the kind
            guard value >> MMS_ENTRY_KIND_SHIFT == MMS_KIND_PRIMARY.rawValue else { continue }
            guard record == (first ?? record) + count else {
                throw corrupt(layout.entries.byteOffset(position), "entry \(position) names record \(record) after \(count) records from \(first ?? record); primary entries must be in record order")
            }
            if first == nil { first = record }
            count += 1
        }
        return (first ?? 0) ..< (first ?? 0) + count
    }

    /// A first page in TOP ("TOP pages" in the format header): `count` entries from bit `firstBit`,
    /// each a value of `valueWidth` bits then a rank; a value is a position among `entries` (its
    /// node's, when they are at most MMS_TOP_POSITION_LIMIT, or in a near list when a position is
    /// narrower than a name number) or, when `entries` is nil, a name number.
    struct TopPage {
        let firstBit: Int
        let count: Int
        let valueWidth: Int
        let valueMask: UInt64
        let entries: Range<Int>?

        /// The bit of TOP entry `index`'s value.
        @inline(__always)
        func bit(_ index: Int) -> Int { firstBit + index * (valueWidth + Int(MMS_TOP_RANK_BITS)) }
    }

    /// The page of `count` entries from bit `firstBit` of TOP at a node whose entries are `nodeEntries`
    /// (a walk's), checked to lie inside TOP; `offset` is where `firstBit` was read, for errors.
    func topPage(from firstBit: Int, count: Int, nodeEntries: Range<Int>, nearList: Bool = false, at offset: Int) throws(MMSearchError) -> TopPage {
        let valueWidth = PackedArrays.topValueWidth(entryCount: nodeEntries.count, nameBits: layout.nameBits, nearList: nearList)
        guard firstBit >= 0, count >= 0, count <= (layout.topBits - min(firstBit, layout.topBits)) / (valueWidth + Int(MMS_TOP_RANK_BITS)) else {
            throw corrupt(offset, "a first page of \(count) entries of \(valueWidth + Int(MMS_TOP_RANK_BITS)) bits from bit \(firstBit) of TOP, past its \(layout.topBits) bits")
        }
        return TopPage(firstBit: firstBit, count: count, valueWidth: valueWidth, valueMask: (1 << UInt64(valueWidth)) - 1,
                       entries: PackedArrays.topHoldsPositions(entryCount: nodeEntries.count, nameBits: layout.nameBits, nearList: nearList) ? nodeEntries : nil)
    }

    /// Fetches the cache lines of the keys in ENTRIES that entries `indices` of `page` name by position
    /// ahead of their reads (a hint each; nothing for a page of name numbers, or past the page).
    func prefetchKeys(of page: TopPage, _ indices: Range<Int>) {
        guard let entries = page.entries else { return }
        for index in indices where index >= 0 && index < page.count {
            let position = Int(topValue(page, index))
            guard position < entries.count else { continue } // refused where it is read
            prefetch(layout.entries.start + ((entries.lowerBound + position) * layout.entries.width) >> 3)
        }
    }

    /// The value entry `index` (below the page's count) of `page` stores: a position or a name number.
    @inline(__always)
    func topValue(_ page: TopPage, _ index: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: packedWord(layout.top.start, at: page.bit(index)) & page.valueMask)
    }

    /// Entry `index` of `page` and its rank ("TOP pages"): the name number of the entry ENTRIES holds
    /// at its position, or the name number it stores, with the kind its rank's class has ("Entries'
    /// kinds"); the rank its record's best class and least kind at the node ("A TOP rank"), checked.
    @inline(__always)
    func topEntry(_ page: TopPage, _ index: Int) throws(MMSearchError) -> (entry: UInt32, rank: (matchClass: UInt32, kind: UInt32)) {
        guard index >= 0, index < page.count else { throw corrupt(layout.top.start, "entry \(index) of a first page of \(page.count)") }
        let bit = page.bit(index)
        // Inside TOP's bits (`topPage`), which its tail follows.
        let word = packedWord(layout.top.start, at: bit)
        let value = UInt32(truncatingIfNeeded: word & page.valueMask)
        let code = UInt8(truncatingIfNeeded: word >> UInt64(page.valueWidth)) & UInt8((1 << MMS_TOP_RANK_BITS) - 1)
        guard let rank = Ranking.topRank(code) else {
            throw corrupt(layout.top.start + bit / 8, "first page entry \(index) from bit \(bit) of TOP has rank \(code): no class and kind")
        }
        var name = value
        if let entries = page.entries {
            guard Int(value) < entries.count else {
                throw corrupt(layout.top.start + bit / 8, "first page entry \(index) from bit \(bit) of TOP is position \(value) of a node of \(entries.count) entries")
            }
            // The key's name number; its kind, as a name number's, from the rank (verify checks they agree).
            name = try self.value(entries.lowerBound + Int(value), of: layout.entries, "entry \(entries.lowerBound + Int(value)) does not exist") & layout.entryNameMask
        }
        let kind: UInt32
        switch Ranking.kind(ofClass: rank.matchClass) {
        case 0: kind = MMS_KIND_PRIMARY.rawValue
        case 1: kind = Int(name) - layout.recordCount < layout.givenAlternateCount ? MMS_KIND_ALTERNATE.rawValue : MMS_KIND_SPELLING.rawValue
        default: kind = MMS_KIND_WORD.rawValue
        }
        return (kind << MMS_ENTRY_KIND_SHIFT | name, rank)
    }

    /// Entry `index` of `page` with its record (checked) and rank.
    @inline(__always)
    func topRanked(_ page: TopPage, _ index: Int) throws(MMSearchError) -> _Ranked {
        let (entry, rank) = try topEntry(page, index)
        let record = try owner(ofEntry: entry, at: layout.top.start + page.bit(index) / 8).record
        return _Ranked(record: UInt32(record), matchClass: rank.matchClass, kind: rank.kind, entry: entry)
    }

    /// Entry `index` of `page` and its record, checked.
    @inline(__always)
    func topMatch(_ page: TopPage, _ index: Int) throws(MMSearchError) -> _Match {
        let ranked = try topRanked(page, index)
        return _Match(record: ranked.record, entry: ranked.entry)
    }

    /// Record `index`, in name order, unpacked.
    @inline(__always)
    func record(_ index: Int) throws(MMSearchError) -> mms_record {
        try checkRecord(index)
        let (latitude, longitude) = coordinates(packedCoordinates(ofRecord: index))
        return mms_record(
            id: id(ofCheckedRecord: index),
            lat_e7: latitude,
            lon_e7: longitude,
            name_offset: nameOffset(ofRecord: index),
            country: try countryCode(number: packedCountry(ofRecord: index), ofRecord: index),
            reserved: (0, 0)
        )
    }

    /// Record `index`'s name offset ("Records' names"): its block's base and its delta. Not checked
    /// against NAMES here (a damaged sum wraps): the name's reader checks it. `index` is checked by the
    /// caller.
    @inline(__always)
    func nameOffset(ofRecord index: Int) -> UInt32 {
        let delta = unpacked(packedNameDelta(ofRecord: index), layout.recordNamesApart)
        return UInt32(truncatingIfNeeded: UInt64(recordNameBase(index / Int(MMS_RECORD_NAME_BLOCK))) &+ delta)
    }

    /// Record `index`'s name delta as RECORDS packs it: the delta, or the threshold plus its number among
    /// those stored apart. `index` is checked by the caller.
    @inline(__always)
    func packedNameDelta(ofRecord index: Int) -> UInt64 {
        UInt64(bits(layout.records.start, at: index * layout.records.width + layout.record.nameDelta, layout.record.nameDeltaMask))
    }

    /// The base of block `block` of records' names (RECORD_NAME_BASES), below the block count.
    @inline(__always)
    func recordNameBase(_ block: Int) -> UInt32 {
        bits(layout.recordNameBases.start, at: block * layout.recordNameBases.width, layout.recordNameBases.mask)
    }

    /// Record `index`'s latitude and longitude as RECORDS packs them (biased, in its unit), read alone:
    /// what verify checks before they are scaled. `index` is checked by the caller.
    @inline(__always)
    func packedCoordinates(ofRecord index: Int) -> (latitude: UInt32, longitude: UInt32) {
        let start = layout.records.start, bit = index * layout.records.width, fields = layout.record
        return (bits(start, at: bit + fields.latitude, fields.latitudeMask), bits(start, at: bit + fields.longitude, fields.longitudeMask))
    }

    /// Packed coordinates (`packedCoordinates(ofRecord:)`) in 1e-7 degree.
    @inline(__always)
    func coordinates(_ packed: (latitude: UInt32, longitude: UInt32)) -> (latitude: Int32, longitude: Int32) {
        let unit = layout.record.coordinateUnit
        return (Self.coordinate(packed.latitude, unit: unit, bias: Int64(MMS_LATITUDE_BIAS)), Self.coordinate(packed.longitude, unit: unit, bias: Int64(MMS_LONGITUDE_BIAS)))
    }

    /// Record `index`'s country number as RECORDS packs it (0: none), read alone. `index` is checked by
    /// the caller.
    @inline(__always)
    func packedCountry(ofRecord index: Int) -> UInt32 {
        bits(layout.records.start, at: index * layout.records.width + layout.record.country, layout.record.countryMask)
    }

    /// RECORD_COUNTRIES' code `number` (a record's field: 1 + its place there), checked to lie inside the
    /// section; record `index`'s, where an error points.
    @inline(__always)
    func recordCountry(number: UInt32, ofRecord index: Int) throws(MMSearchError) -> mms_record_country {
        guard number >= 1, Int(number) <= layout.recordCountryCount else {
            throw corrupt(layout.records.byteOffset(index), "record \(index) has country \(number); there are \(layout.recordCountryCount) codes")
        }
        return raw.loadUnaligned(fromByteOffset: layout.recordCountries + (Int(number) - 1) * _IndexLayout.recordCountrySize, as: mms_record_country.self)
    }

    /// A record's country code bytes from its country number (0: none, (0, 0)).
    @inline(__always)
    func countryCode(number: UInt32, ofRecord index: Int) throws(MMSearchError) -> (UInt8, UInt8) {
        guard number != 0 else { return (0, 0) }
        return try recordCountry(number: number, ofRecord: index).code
    }

    /// Checks that record `index` exists.
    @inline(__always)
    func checkRecord(_ index: Int) throws(MMSearchError) {
        guard index >= 0, index < layout.recordCount else {
            throw corrupt(layout.records.start, "record \(index) does not exist (\(layout.recordCount) records)")
        }
    }

    /// A record's packed latitude or longitude (`unit`s, biased by `bias`) in 1e-7 degree. A damaged
    /// value past the range may wrap into it; verify checks the packed values themselves.
    @inline(__always)
    static func coordinate(_ packed: UInt32, unit: Int64, bias: Int64) -> Int32 {
        Int32(truncatingIfNeeded: Int64(packed) &* unit &- bias) // both factors below 2^33: no overflow
    }

    /// Record `index`'s id, read alone.
    @inline(__always)
    func recordID(_ index: Int) throws(MMSearchError) -> UInt32 {
        try checkRecord(index)
        return id(ofCheckedRecord: index)
    }

    /// Record `index`'s id as RECORDS packs it: the id, or the number of one stored apart.
    @inline(__always)
    func packedID(ofRecord index: Int) -> UInt64 {
        UInt64(bits(layout.records.start, at: index * layout.records.width, layout.record.idMask))
    }

    /// The id of record `index`, already checked to be below the record count.
    @inline(__always)
    func id(ofCheckedRecord index: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: unpacked(packedID(ofRecord: index), layout.idsApart))
    }

    /// Whether record `index` has a country code (its number is not 0), read alone without decoding it.
    @inline(__always)
    func recordHasCountry(_ index: Int) throws(MMSearchError) -> Bool {
        try checkRecord(index)
        return packedCountry(ofRecord: index) != 0
    }

    /// Record `index`'s country code bytes, read alone.
    @inline(__always)
    func recordCountry(_ index: Int) throws(MMSearchError) -> (UInt8, UInt8) {
        try checkRecord(index)
        return try countryCode(number: packedCountry(ofRecord: index), ofRecord: index)
    }

    /// Record `index` as a `City`; `matchedBy`, an entry value of the record, names the name a search
    /// found it by (reported when it is not the display name).
    func city(_ index: Int, matchedBy entry: UInt32? = nil) throws(MMSearchError) -> City {
        try city(index, fields: try cityFields(index), matchedBy: entry)
    }

    /// Records as `City` values, in order, each with the entry it was found by (`match(i)` gives the
    /// i-th of `count`, asked once each): the fields of every one in RECORDS, POPULATION and
    /// RECORD_REGIONS read first, then each one's names, so that a page's reads of scattered records
    /// overlap instead of waiting for one another. The matches and fields are held in temporary
    /// buffers (on the stack for a page), not arrays: two allocations less a page, and no array types
    /// of theirs to instantiate at a process's first page.
    func cities(count: Int, _ match: (Int) throws(MMSearchError) -> (record: Int, entry: UInt32?)) throws(MMSearchError) -> [City] {
        try withUnsafeTemporaryAllocation(of: (record: Int, entry: UInt32?).self, capacity: count) { (matches) throws(MMSearchError) in
            for position in 0 ..< count { (matches.baseAddress! + position).initialize(to: try match(position)) }
            // Every record's packed fields asked for first (a cache hint each; records outside RECORDS are
            // skipped here and refused below), so that the reads below wait for them together.
            for match in matches where match.record >= 0 && match.record < layout.recordCount {
                prefetchFields(ofRecord: match.record)
            }
            return try withUnsafeTemporaryAllocation(of: CityFields.self, capacity: count) { (fields) throws(MMSearchError) in
                for position in 0 ..< count { (fields.baseAddress! + position).initialize(to: try cityFields(matches[position].record)) }
                // Then, before any is decoded, where each one's names and region lie (each address checked
                // to be inside its section).
                for (match, fields) in zip(matches, fields) {
                    if Int(fields.record.name_offset) < layout.names.count {
                        prefetch(layout.names.lowerBound + Int(fields.record.name_offset))
                    }
                    if let region = fields.region { prefetch(layout.regions + region * _IndexLayout.regionSize) }
                    if let entry = match.entry {
                        // A given alternate's name (a spelling's is found as it is read, by a search).
                        let alternate = Int(entry & MMS_ENTRY_NAME_MASK) - layout.recordCount
                        if alternate >= 0, alternate < layout.givenAlternateCount {
                            let offset = Int(givenNameOffset(alternate))
                            if offset < layout.names.count { prefetch(layout.names.lowerBound + offset) }
                        }
                    }
                }
                var cities: [City] = []
                cities.reserveCapacity(count)
                for (match, fields) in zip(matches, fields) { cities.append(try city(match.record, fields: fields, matchedBy: match.entry)) }
                return cities
            }
        }
    }

    /// Fetches the cache lines of record `index`'s packed fields (RECORDS, POPULATION, RECORD_REGIONS)
    /// ahead of `cityFields`. `index` is below the record count.
    @inline(__always)
    func prefetchFields(ofRecord index: Int) {
        prefetch(layout.records.start + (index * layout.records.width) >> 3)
        if index < layout.population.count { prefetch(layout.population.start + (index * layout.population.width) >> 3) }
        if index < layout.recordRegions.count { prefetch(layout.recordRegions.start + (index * layout.recordRegions.width) >> 3) }
    }

    /// Fetches the cache line of byte `offset` of the file (inside it) ahead of its read.
    @inline(__always)
    func prefetch(_ offset: Int) {
        guard offset >= 0, offset < raw.count, let base = raw.baseAddress else { return }
        mms_prefetch(base + offset)
    }

    /// What a `City` takes from a record's packed fields: the record, its population and region number.
    struct CityFields {
        var record: mms_record
        var population: UInt64
        var region: Int?
    }

    @inline(__always)
    func cityFields(_ index: Int) throws(MMSearchError) -> CityFields {
        CityFields(record: try record(index), population: population(index), region: try regionNumber(ofRecord: index))
    }

    /// Inlined into its callers, a page's loop in `cities` above all.
    @inline(__always)
    func city(_ index: Int, fields: CityFields, matchedBy entry: UInt32?) throws(MMSearchError) -> City {
        let record = fields.record
        let name = try nameString(of: record, recordIndex: index)
        var matchedName: String?
        if let entry, Int(entry & MMS_ENTRY_NAME_MASK) != index {
            matchedName = try nameString(ofEntry: entry)
        }
        return City(
            id: record.id,
            name: name,
            country: Self.countryText(record.country),
            region: try fields.region.map { (number) throws(MMSearchError) in try regionName(number) },
            coordinate: Coordinate(latitudeE7: record.lat_e7, longitudeE7: record.lon_e7),
            population: layout.hasPopulation ? UInt32(fields.population) : nil,
            matchedName: matchedName
        )
    }

    static func countryText(_ country: (UInt8, UInt8)) -> String {
        if country == (0, 0) { return "" }
        // Two upper-case letters (every code the builder writes): a string made once, copied without a
        // reference count (a 2-byte string is stored inline). Decoding and validating the two bytes
        // again for every result was 4% of a keystroke's instructions.
        let first = Int(country.0) &- 65, second = Int(country.1) &- 65
        if first >= 0, first < 26, second >= 0, second < 26 { return upperCaseCodes[first &* 26 &+ second] }
        // Any other bytes (a damaged record): decoded from the tuple's own bytes, repaired.
        return withUnsafeBytes(of: country) { String(decoding: $0, as: UTF8.self) }
    }

    /// "AA" ... "ZZ", in order. Written out, not computed: the compiler lays a literal array of literal
    /// strings out in the binary, so its first use costs a few hundred nanoseconds, where building the
    /// 676 strings at the first page of a process took 6 to 20 µs of it (`mmsearch-bench --child
    /// startup`). CountryTextTests checks every entry.
    private static let upperCaseCodes: [String] = [
        "AA", "AB", "AC", "AD", "AE", "AF", "AG", "AH", "AI", "AJ", "AK", "AL", "AM",
        "AN", "AO", "AP", "AQ", "AR", "AS", "AT", "AU", "AV", "AW", "AX", "AY", "AZ",
        "BA", "BB", "BC", "BD", "BE", "BF", "BG", "BH", "BI", "BJ", "BK", "BL", "BM",
        "BN", "BO", "BP", "BQ", "BR", "BS", "BT", "BU", "BV", "BW", "BX", "BY", "BZ",
        "CA", "CB", "CC", "CD", "CE", "CF", "CG", "CH", "CI", "CJ", "CK", "CL", "CM",
        "CN", "CO", "CP", "CQ", "CR", "CS", "CT", "CU", "CV", "CW", "CX", "CY", "CZ",
        "DA", "DB", "DC", "DD", "DE", "DF", "DG", "DH", "DI", "DJ", "DK", "DL", "DM",
        "DN", "DO", "DP", "DQ", "DR", "DS", "DT", "DU", "DV", "DW", "DX", "DY", "DZ",
        "EA", "EB", "EC", "ED", "EE", "EF", "EG", "EH", "EI", "EJ", "EK", "EL", "EM",
        "EN", "EO", "EP", "EQ", "ER", "ES", "ET", "EU", "EV", "EW", "EX", "EY", "EZ",
        "FA", "FB", "FC", "FD", "FE", "FF", "FG", "FH", "FI", "FJ", "FK", "FL", "FM",
        "FN", "FO", "FP", "FQ", "FR", "FS", "FT", "FU", "FV", "FW", "FX", "FY", "FZ",
        "GA", "GB", "GC", "GD", "GE", "GF", "GG", "GH", "GI", "GJ", "GK", "GL", "GM",
        "GN", "GO", "GP", "GQ", "GR", "GS", "GT", "GU", "GV", "GW", "GX", "GY", "GZ",
        "HA", "HB", "HC", "HD", "HE", "HF", "HG", "HH", "HI", "HJ", "HK", "HL", "HM",
        "HN", "HO", "HP", "HQ", "HR", "HS", "HT", "HU", "HV", "HW", "HX", "HY", "HZ",
        "IA", "IB", "IC", "ID", "IE", "IF", "IG", "IH", "II", "IJ", "IK", "IL", "IM",
        "IN", "IO", "IP", "IQ", "IR", "IS", "IT", "IU", "IV", "IW", "IX", "IY", "IZ",
        "JA", "JB", "JC", "JD", "JE", "JF", "JG", "JH", "JI", "JJ", "JK", "JL", "JM",
        "JN", "JO", "JP", "JQ", "JR", "JS", "JT", "JU", "JV", "JW", "JX", "JY", "JZ",
        "KA", "KB", "KC", "KD", "KE", "KF", "KG", "KH", "KI", "KJ", "KK", "KL", "KM",
        "KN", "KO", "KP", "KQ", "KR", "KS", "KT", "KU", "KV", "KW", "KX", "KY", "KZ",
        "LA", "LB", "LC", "LD", "LE", "LF", "LG", "LH", "LI", "LJ", "LK", "LL", "LM",
        "LN", "LO", "LP", "LQ", "LR", "LS", "LT", "LU", "LV", "LW", "LX", "LY", "LZ",
        "MA", "MB", "MC", "MD", "ME", "MF", "MG", "MH", "MI", "MJ", "MK", "ML", "MM",
        "MN", "MO", "MP", "MQ", "MR", "MS", "MT", "MU", "MV", "MW", "MX", "MY", "MZ",
        "NA", "NB", "NC", "ND", "NE", "NF", "NG", "NH", "NI", "NJ", "NK", "NL", "NM",
        "NN", "NO", "NP", "NQ", "NR", "NS", "NT", "NU", "NV", "NW", "NX", "NY", "NZ",
        "OA", "OB", "OC", "OD", "OE", "OF", "OG", "OH", "OI", "OJ", "OK", "OL", "OM",
        "ON", "OO", "OP", "OQ", "OR", "OS", "OT", "OU", "OV", "OW", "OX", "OY", "OZ",
        "PA", "PB", "PC", "PD", "PE", "PF", "PG", "PH", "PI", "PJ", "PK", "PL", "PM",
        "PN", "PO", "PP", "PQ", "PR", "PS", "PT", "PU", "PV", "PW", "PX", "PY", "PZ",
        "QA", "QB", "QC", "QD", "QE", "QF", "QG", "QH", "QI", "QJ", "QK", "QL", "QM",
        "QN", "QO", "QP", "QQ", "QR", "QS", "QT", "QU", "QV", "QW", "QX", "QY", "QZ",
        "RA", "RB", "RC", "RD", "RE", "RF", "RG", "RH", "RI", "RJ", "RK", "RL", "RM",
        "RN", "RO", "RP", "RQ", "RR", "RS", "RT", "RU", "RV", "RW", "RX", "RY", "RZ",
        "SA", "SB", "SC", "SD", "SE", "SF", "SG", "SH", "SI", "SJ", "SK", "SL", "SM",
        "SN", "SO", "SP", "SQ", "SR", "SS", "ST", "SU", "SV", "SW", "SX", "SY", "SZ",
        "TA", "TB", "TC", "TD", "TE", "TF", "TG", "TH", "TI", "TJ", "TK", "TL", "TM",
        "TN", "TO", "TP", "TQ", "TR", "TS", "TT", "TU", "TV", "TW", "TX", "TY", "TZ",
        "UA", "UB", "UC", "UD", "UE", "UF", "UG", "UH", "UI", "UJ", "UK", "UL", "UM",
        "UN", "UO", "UP", "UQ", "UR", "US", "UT", "UU", "UV", "UW", "UX", "UY", "UZ",
        "VA", "VB", "VC", "VD", "VE", "VF", "VG", "VH", "VI", "VJ", "VK", "VL", "VM",
        "VN", "VO", "VP", "VQ", "VR", "VS", "VT", "VU", "VV", "VW", "VX", "VY", "VZ",
        "WA", "WB", "WC", "WD", "WE", "WF", "WG", "WH", "WI", "WJ", "WK", "WL", "WM",
        "WN", "WO", "WP", "WQ", "WR", "WS", "WT", "WU", "WV", "WW", "WX", "WY", "WZ",
        "XA", "XB", "XC", "XD", "XE", "XF", "XG", "XH", "XI", "XJ", "XK", "XL", "XM",
        "XN", "XO", "XP", "XQ", "XR", "XS", "XT", "XU", "XV", "XW", "XX", "XY", "XZ",
        "YA", "YB", "YC", "YD", "YE", "YF", "YG", "YH", "YI", "YJ", "YK", "YL", "YM",
        "YN", "YO", "YP", "YQ", "YR", "YS", "YT", "YU", "YV", "YW", "YX", "YY", "YZ",
        "ZA", "ZB", "ZC", "ZD", "ZE", "ZF", "ZG", "ZH", "ZI", "ZJ", "ZK", "ZL", "ZM",
        "ZN", "ZO", "ZP", "ZQ", "ZR", "ZS", "ZT", "ZU", "ZV", "ZW", "ZX", "ZY", "ZZ",
    ]

    /// Entry `position` of the id order: the index of a record, in order of ids.
    func recordIndex(inIdOrder position: Int) throws(MMSearchError) -> Int {
        let value = Int(try self.value(position, of: layout.idOrder, "id order position \(position) does not exist"))
        guard value < layout.recordCount else {
            throw corrupt(layout.idOrder.byteOffset(position), "id order entry \(position) names record \(value) of \(layout.recordCount)")
        }
        return value
    }

    /// The header's section table, in kind order. Open checked every entry (in the canonical layout
    /// and inside the file), so the values can be shown as they are.
    func sectionTable() -> [mms_section] {
        (0 ..< MMS_SECTION_COUNT.rawValue).map { kind in
            raw.loadUnaligned(fromByteOffset: _IndexLayout.tableEntryOffset(of: mms_section_kind(kind)), as: mms_section.self)
        }
    }

    /// The header's stored checksum (not recomputed: that is `verify`'s work).
    var storedChecksum: UInt64 { raw.loadUnaligned(fromByteOffset: _IndexLayout.checksumOffset, as: UInt64.self) }

    /// The SOURCE section: its fixed part, then the names of the input, the joined dump, the admin1
    /// file, the country file and the alternate names file, checked to fill the section exactly.
    func source() throws(MMSearchError) -> (fields: mms_source, names: (source: UnsafeRawBufferPointer, joined: UnsafeRawBufferPointer, admin1: UnsafeRawBufferPointer, countries: UnsafeRawBufferPointer, alternates: UnsafeRawBufferPointer)) {
        let section = layout.source, fixedSize = MemoryLayout<mms_source>.size
        guard section.count >= fixedSize else {
            throw corrupt(section.lowerBound, "the source section is \(section.count) bytes, smaller than its \(fixedSize)-byte header")
        }
        let fields = raw.loadUnaligned(fromByteOffset: section.lowerBound, as: mms_source.self)
        let lengths = [fields.name_length, fields.joined_name_length, fields.admin1_name_length, fields.countries_name_length, fields.alternates_name_length].map(Int.init)
        guard lengths.reduce(0, +) == section.count - fixedSize else {
            throw corrupt(section.lowerBound, "the source names are \(lengths.map(String.init).joined(separator: " + ")) bytes, but the section leaves room for \(section.count - fixedSize)")
        }
        var start = section.lowerBound + fixedSize
        let names = lengths.map { length in
            defer { start += length }
            return UnsafeRawBufferPointer(rebasing: raw[start ..< start + length])
        }
        return (fields, (names[0], names[1], names[2], names[3], names[4]))
    }
}
