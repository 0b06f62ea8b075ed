import CMMSearchFormat

/// "Name, Qualifier" matching (`include/mmsearch_format.h`, "Regions and countries"): "portland, or",
/// "paris texas", "london on". Nothing of it is stored but the regions and countries: a query is
/// split at each separator, the records with a name exactly the part before it are found by two
/// walks of the trie (their keys are that name and the country tail), and the rest is fitted to each
/// one's qualifiers.
extension _IndexBytes {
    /// The "Name, Qualifier" matches of the folded `query`, one per record (its best), sorted by record.
    /// `trail` is the walk of the query from the root: `trail[p]` the place after its first p bytes
    /// (as far as any key goes), where the names `query[..<p]` are found. A match through an entry
    /// whose key itself starts with the query is left out: that entry is a key match of the same
    /// class (a PRIMARY key weighs 100 either way, and an ALTERNATE key longer than half the query
    /// weighs 20 either way), so it changes no answer.
    func qualifiedMatches(_ query: [UInt8], trail: [WalkPoint]) throws(MMSearchError) -> [_Ranked] {
        guard layout.isQualified else { return [] }
        var matches: [_Ranked] = []
        for split in 1 ..< max(1, query.count) where query[split] == UInt8(ascii: ",") || query[split] == UInt8(ascii: " ") {
            // No key starts with the name: none starts with a longer one either.
            guard split < trail.count else { break }
            var named: [(position: Int, record: Int, kind: UInt32)]?
            for separator in Qualifiers.separators where query[split...].starts(with: separator) {
                let rest = query[(split + separator.count)...]
                if rest.first == UInt8(ascii: " ") { continue }
                if named == nil { named = try entries(namedExactly: split, at: trail[split]) }
                // Whether `rest` fits, by the qualifiers' owners: a record's qualifiers are its country's
                // and its region's, shared by every record named alike there ("la v": hundreds of "La").
                var fits: [UInt64: Bool] = [:]
                for (position, record, kind) in named! {
                    let value = try self.record(record)
                    // The entry's key is the name and the record's tail: it starts with the query when
                    // the tail starts with the separator and the rest.
                    if Self.tail(of: value, startsWith: query[split...]) { continue }
                    if !rest.isEmpty {
                        let owners = UInt64(value.country.0) << 40 | UInt64(value.country.1) << 32
                            | UInt64(try regionNumber(ofRecord: record).map { $0 + 1 } ?? 0)
                        let fit: Bool
                        if let known = fits[owners] {
                            fit = known
                        } else {
                            fit = try qualifiers(ofRecord: record).fit(rest)
                            fits[owners] = fit
                        }
                        guard fit else { continue }
                    }
                    // Weight 1000 by the PRIMARY name, else 200: classes 0 and 1.
                    let matchClass: UInt32 = kind == MMS_KIND_PRIMARY.rawValue ? 0 : 1
                    matches.append(_Ranked(record: UInt32(record), matchClass: matchClass, kind: Ranking.kind(ofClass: matchClass), entry: try entry(position)))
                }
            }
        }
        guard matches.count > 1 else { return matches }
        // One per record: the least class, then the first found (the shortest name before the query's
        // rest). Sorted as integers, record, class and place found packed as `candidate`s are (records
        // number below 2^29, checked at open; classes below 8).
        var order = matches.indices.map { UInt64(matches[$0].record) << 35 | UInt64(matches[$0].matchClass) << 32 | UInt64($0) }
        order.sort()
        var best: [_Ranked] = []
        for key in order where best.last?.record != UInt32(key >> 35) { best.append(matches[Int(key & 0xFFFF_FFFF)]) }
        return best
    }

    /// The PRIMARY and ALTERNATE entries made from a name whose fold is exactly the `length` bytes a
    /// walk took to reach `point`: their keys are the name + ", " + country (4 bytes longer) for a
    /// record with a country, under the place ", " further on; the name alone for one without, the
    /// node's own entries when the place is a node. Each with its position, record and kind.
    func entries(namedExactly length: Int, at point: WalkPoint) throws(MMSearchError) -> [(position: Int, record: Int, kind: UInt32)] {
        var found: [(position: Int, record: Int, kind: UInt32)] = []
        func add(_ positions: Range<Int>, hasCountry: Bool) throws(MMSearchError) {
            for position in positions {
                let value = try entry(position)
                let kind = value >> MMS_ENTRY_KIND_SHIFT
                guard kind != MMS_KIND_WORD.rawValue else { continue }
                let record = try owner(ofEntry: value, at: layout.entries.byteOffset(position)).record
                guard try recordHasCountry(record) == hasCountry else { continue }
                found.append((position, record, kind))
            }
        }
        var noTrail: [WalkPoint]? = nil
        let separator: StaticString = ", "
        if let withSeparator = try walk(UnsafeRawBufferPointer(start: separator.utf8Start, count: separator.utf8CodeUnitCount), from: point, trail: &noTrail) {
            // The own entries of the nodes `length + 4` deep: keys of exactly the name and a tail.
            let keyLength = length + Label.tailLength
            try forEachNode(under: try located(withSeparator), deepest: keyLength) { (depth, ownEntries) throws(MMSearchError) in
                if depth == keyLength { try add(ownEntries, hasCountry: true) }
            }
        }
        if point.inLabel == nil {
            let children = try children(ofNode: point.node)
            let ownEnd = children.nodes.isEmpty ? point.entries.upperBound : try entries(ofChild: children.nodes.lowerBound, siblings: children, parent: point.entries).lowerBound
            try add(point.entries.lowerBound ..< ownEnd, hasCountry: false)
        }
        return found
    }

    /// A record's key tail: ", " and its folded country code, or nil when it has no country.
    @inline(__always)
    static func tailBytes(of record: mms_record) -> (UInt8, UInt8, UInt8, UInt8)? {
        Folding.countryTail(code: record.country)
    }

    /// Whether a record's key tail starts with `bytes`, without making the tail.
    @inline(__always)
    static func tail(of record: mms_record, startsWith bytes: ArraySlice<UInt8>) -> Bool {
        guard let tail = tailBytes(of: record) else { return bytes.isEmpty }
        guard bytes.count <= Label.tailLength else { return false }
        return withUnsafeBytes(of: tail) { tail in
            bytes.indices.allSatisfy { bytes[$0] == tail[$0 - bytes.startIndex] }
        }
    }

    /// The class of record `index`'s best key match for the folded `query` and the least kind among
    /// its key matches (see `Ranking`), or nil when none of its keys starts with it: its names folded
    /// one by one. What a summarized node's qualifier matches need to know of their records, without
    /// reading the node's every entry.
    func bestKeyClass(ofRecord index: Int, query: [UInt8], match: MatchMode) throws(MMSearchError) -> (matchClass: UInt32, kind: UInt32)? {
        let tail = Self.tailBytes(of: try record(index))
        var best: (matchClass: UInt32, kind: UInt32)?
        func consider(_ matchClass: UInt32) {
            best = (Swift.min(best?.matchClass ?? Ranking.classCount, matchClass), Swift.min(best?.kind ?? 3, Ranking.kind(ofClass: matchClass)))
        }
        // Each name folded into one buffer, reused; its key is that fold and the tail, compared in
        // place (no key, no list of word starts made): a name costs its decoding and its fold.
        var folded: [UInt8] = []
        folded.reserveCapacity(64)
        let tailLength = tail == nil ? 0 : Label.tailLength, tailBytes = tail ?? (0, 0, 0, 0)
        func tailByte(_ at: Int) -> UInt8 {
            switch at { case 0: tailBytes.0; case 1: tailBytes.1; case 2: tailBytes.2; default: tailBytes.3 }
        }
        // A query starting with an ASCII letter or digit skips, unfolded, the names whose folds hold
        // none (Cyrillic, Arabic, CJK...): many of a big city's, whose folding took a quarter of "la ".
        let startsWithASCIIWord = query.first.map { $0 < 0x80 && !WordStarts.isSeparator($0) } ?? false
        try forEachName(ofRecord: index) { text, kind in
            if match == .name, kind == MMS_KIND_SPELLING.rawValue { return }
            if startsWithASCIIWord, Folding.foldHasNoASCIIWord(utf8: text) { return }
            folded.removeAll(keepingCapacity: true)
            Folding.append(foldingUTF8: text, to: &folded)
            folded.withUnsafeBufferPointer { name in
                /// Whether the key (the name, then the tail) from byte `start` of the name starts with the query.
                func keyStartsWithQuery(at start: Int) -> Bool {
                    guard name.count - start + tailLength >= query.count else { return false }
                    for offset in query.indices {
                        let at = start + offset
                        if (at < name.count ? name[at] : tailByte(at - name.count)) != query[offset] { return false }
                    }
                    return true
                }
                if keyStartsWithQuery(at: 0) {
                    consider(Ranking.matchClass(kind: kind, queryLength: query.count, nameLength: name.count))
                }
                guard match == .words else { return }
                // The word starts (WordStarts.of), those whose first byte is the query's compared further.
                var start = 1
                while start < name.count {
                    if query.isEmpty || name[start] == query[0], !WordStarts.isSeparator(name[start]), WordStarts.isSeparator(name[start - 1]),
                       keyStartsWithQuery(at: start) {
                        consider(Ranking.matchClass(kind: MMS_KIND_WORD.rawValue, queryLength: query.count, nameLength: name.count - start))
                    }
                    start += 1
                }
            }
        }
        return best
    }
}
