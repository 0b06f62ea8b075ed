import CMMSearchFormat
import MMSearch

/// The names a record is searched by, as `shared/peers/rank.py` keeps them: the display name first,
/// then the alternates in the source's order; empty names dropped, alternates in lowercase ASCII only
/// dropped (GeoNames' machine transliterations such as "klwn"), and every name whose fold repeats an
/// earlier one's dropped. When nothing is left the display name alone stays. Then the spellings
/// generated from them (rank.py's "Spellings": periods dropped, hyphens as spaces, saint/st and the
/// like shortened and spelled out), by the same rules, each marked `isSpelling`.
///
/// Which text an alternate keeps is ours to choose (its keys are the same either way), and it is
/// what a result shows as matched: of alternates that fold alike, the spelling the source gives most
/// often, then the one with the most non-ASCII bytes, then the first. So Munich is found as "München"
/// (given twice, "Munchen" once), not "Munchen", and as "Munich" (twice), not "Múnich" (once).
struct RecordNames {
    struct Name {
        var bytes: [UInt8]
        var folded: [UInt8]
        /// The record's display name (else one of its alternates).
        var isDisplayName: Bool
        /// For a generated spelling of another name (matched with "words" only): the text it is made
        /// from and its form (SPELLINGS stores those, not `bytes`).
        var spelling: Spelling? = nil
        var isSpelling: Bool { spelling != nil }
    }

    struct Spelling {
        var source: [UInt8]
        var form: UInt32
    }

    private(set) var names: [Name] = []

    init(_ record: SourceRecord) {
        var place = FoldPlaces() // fold -> its name's place in `names`
        // Per name: each spelling the source gives, in the order met, and how often.
        var spellings: [[(bytes: [UInt8], count: Int)]] = []
        func consider(_ name: [UInt8], isDisplayName: Bool) {
            guard !name.isEmpty, isDisplayName || !Self.isLowercaseASCII(name) else { return }
            let folded = Folding.fold(utf8: name)
            if let earlier = place.find(folded, in: names) {
                if let known = spellings[earlier].firstIndex(where: { $0.bytes == name }) {
                    spellings[earlier][known].count += 1
                } else {
                    spellings[earlier].append((name, 1))
                }
                return
            }
            place.add(folded, at: names.count, in: names)
            names.append(Name(bytes: name, folded: folded, isDisplayName: isDisplayName))
            spellings.append([(name, 1)])
        }
        consider(record.name, isDisplayName: true)
        for alternate in record.alternateNames { consider(alternate, isDisplayName: false) }
        for index in names.indices where !names[index].isDisplayName {
            var chosen = spellings[index][0]
            for spelling in spellings[index].dropFirst() where Self.isPreferred(spelling.bytes, count: spelling.count, over: chosen.bytes, count: chosen.count) {
                chosen = spelling
            }
            names[index].bytes = chosen.bytes
        }
        if names.isEmpty {
            names = [Name(bytes: record.name, folded: Folding.fold(utf8: record.name), isDisplayName: true)]
            return
        }
        // Spellings come from each name as rank.py keeps it: the first text met of each fold.
        let given = names.indices.map { spellings[$0][0].bytes }
        for (index, text) in given.enumerated() {
            // SPELLINGS stores a spelling as a form of a name in NAMES: of the text the name shows
            // whenever that form of it folds as the spelling does (its keys are the same, and it shows
            // as the name does: "Dair az Zaŭr" beside the alternate shown as "Dair az-Zaŭr", rather than
            // "Dair az Zaur" from "Dair az-Zaur", given first), so that NAMES need not hold the text
            // given first too.
            let shown = names[index].bytes
            for (form, bytes) in Spellings.generated(from: text).enumerated() {
                guard !bytes.isEmpty, !Self.isLowercaseASCII(bytes) else { continue }
                let folded = Folding.fold(utf8: bytes)
                guard place.find(folded, in: names) == nil else { continue }
                place.add(folded, at: names.count, in: names)
                let source = shown == text || Folding.fold(utf8: shown.withUnsafeBufferPointer { Spellings.form(UInt32(form), of: $0) }) != folded ? text : shown
                names.append(Name(bytes: bytes, folded: folded, isDisplayName: false, spelling: Spelling(source: source, form: UInt32(form))))
            }
        }
    }

    /// Where each fold kept so far lies in `names`: found by comparing them one by one while they are
    /// few (most records have a handful of names, and a dictionary a record, hashing each with
    /// SipHash, cost a tenth of the README's build), in a dictionary past that.
    struct FoldPlaces {
        static let linearLimit = 16
        private var dictionary: [ByteString: Int]?

        func find(_ folded: [UInt8], in names: [Name]) -> Int? {
            if let dictionary { return dictionary[ByteString(folded)] }
            return names.firstIndex { $0.folded == folded }
        }

        mutating func add(_ folded: [UInt8], at place: Int, in names: [Name]) {
            if dictionary == nil, place >= Self.linearLimit {
                dictionary = Dictionary(uniqueKeysWithValues: names.indices.map { (ByteString(names[$0].folded), $0) })
            }
            dictionary?[ByteString(folded)] = place
        }
    }

    /// Whether a spelling given `count` times is shown rather than `current`, given `currentCount`
    /// times and met before it: more often given, then more non-ASCII bytes; on a tie the earlier.
    static func isPreferred(_ spelling: [UInt8], count: Int, over current: [UInt8], count currentCount: Int) -> Bool {
        if count != currentCount { return count > currentCount }
        return nonASCIICount(spelling) > nonASCIICount(current)
    }

    static func nonASCIICount(_ name: [UInt8]) -> Int { name.count { $0 >= 0x80 } }

    /// Python's `n.isascii() and n == n.lower() and n != n.upper()`: ASCII with a lowercase letter
    /// and no uppercase one.
    static func isLowercaseASCII(_ name: [UInt8]) -> Bool {
        var hasLowercase = false
        for byte in name {
            if byte >= 0x80 || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) { return false }
            if byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") { hasLowercase = true }
        }
        return hasLowercase
    }
}

/// Every search key of every record, as the format's entries: folded once into one pool, sorted by
/// (key bytes, kind, record, name number), exact repeats dropped. Records are numbered in primary-key
/// order (`order`); alternate names are numbered in the order they are met.
struct SearchKeys {
    /// An alternate name row, before its text has a place in the name pool: a given name's text, or
    /// for a spelling the text it is made from and its form.
    struct Alternate {
        var record: UInt32
        var name: [UInt8]
        var spellingForm: UInt32? = nil
    }

    /// Key bytes of every entry, back to back, in the order they were made.
    private(set) var pool: [UInt8] = []
    /// Per entry, in sorted order: where its key lies in `pool`, its entry value (kind and name
    /// number), its record, and the length of its key's name part (the key without its country
    /// tail: what a match's class depends on).
    private(set) var keyStarts: [Int] = []
    private(set) var keyLengths: [Int32] = []
    private(set) var values: [UInt32] = []
    private(set) var records: [UInt32] = []
    private(set) var nameLengths: [UInt16] = []
    /// Every alternate name: the given ones, then the generated spellings (the last `spellingCount`).
    private(set) var alternates: [Alternate] = []
    private(set) var spellingCount = 0

    var count: Int { values.count }

    /// Every key and name of the records as made, in record order, before the keys are sorted: what
    /// the names' pool needs (`alternates`) is known here, so it can be made while the keys are sorted.
    struct Made: Sendable {
        /// Key bytes of every entry, back to back, in the order they were made.
        var pool: [UInt8]
        /// Per entry, in the order made: where its key lies in `pool` and its length, its entry value,
        /// its record, and the length of its key's name part.
        var starts: [Int], lengths: [Int32], values: [UInt32], owners: [UInt32], folded: [UInt16]
        /// Every alternate name: the given ones, then the generated spellings (the last `spellingCount`).
        var alternates: [Alternate]
        var spellingCount: Int

        /// The keys of `orderedRecords` (in primary-key order: `orderedRecords[i]` is record i). Those
        /// of the first `split` records (half of them unless given) and of the rest are made
        /// on two cores, each run numbered as if it came first, then joined: the same keys wherever
        /// the runs split.
        init(orderedRecords: [SourceRecord], split: Int? = nil, file: String) throws(MMSearchError) {
            let recordCount = orderedRecords.count
            // Each record's names folded, their spellings made and their keys laid out: a fifth of the build.
            let half = min(max(split ?? recordCount / 2, 0), recordCount)
            let (first, later) = try BuildConcurrency.run({ () throws(MMSearchError) in
                try KeyBatch(orderedRecords, 0 ..< half, file: file)
            }, beside: { () throws(MMSearchError) in try KeyBatch(orderedRecords, half ..< recordCount, file: file) })
            let givenCount = first.alternates.count + later.alternates.count
            let spellingTotal = first.spellings.count + later.spellings.count
            guard recordCount + givenCount + spellingTotal <= Int(MMS_MAX_NAME_NUMBER) + 1 else {
                throw .limitExceeded(file: file, message: "\(recordCount) records with \(givenCount + spellingTotal) alternate names and spellings; at most \(Int(MMS_MAX_NAME_NUMBER) + 1) names fit")
            }
            guard first.values.count + later.values.count < Int(UInt32.max) else {
                throw .limitExceeded(file: file, message: "\(first.values.count + later.values.count) search keys; at most \(UInt32.max - 1) fit")
            }
            // The later half after the first: its keys' places in the pool, its alternates' numbers after
            // the first half's alternates, its spellings' after the first half's spellings. Then every
            // spelling numbered after all given alternates.
            pool = first.pool + later.pool
            starts = first.starts + later.starts.map { $0 + first.pool.count }
            values = first.values
            values.reserveCapacity(first.values.count + later.values.count)
            var laterSpellings = later.spellingEntries.makeIterator(), nextSpelling = laterSpellings.next()
            for (position, value) in later.values.enumerated() {
                if position == nextSpelling {
                    values.append(value + UInt32(first.spellings.count))
                    nextSpelling = laterSpellings.next()
                } else {
                    values.append(value & MMS_ENTRY_NAME_MASK >= UInt32(recordCount) ? value + UInt32(first.alternates.count) : value)
                }
            }
            for entry in first.spellingEntries + later.spellingEntries.map({ $0 + first.values.count }) { values[entry] += UInt32(recordCount + givenCount) }
            alternates = first.alternates + later.alternates + first.spellings + later.spellings
            spellingCount = spellingTotal
            lengths = first.lengths + later.lengths
            owners = first.owners + later.owners
            folded = first.folded + later.folded
        }
    }

    /// The keys `made`, sorted, with exact repeats (one name giving one key twice) dropped.
    init(sorting made: Made) {
        pool = made.pool
        alternates = made.alternates
        spellingCount = made.spellingCount
        let order = Self.sortedOrder(pool: made.pool, starts: made.starts, lengths: made.lengths, values: made.values, records: made.owners)
        var previous: Int?
        for index in order.map({ Int($0) }) {
            if let previous, made.values[previous] == made.values[index], made.owners[previous] == made.owners[index],
               Self.compareKeys(made.pool, made.starts[previous], made.lengths[previous], made.starts[index], made.lengths[index]) == 0 {
                continue
            }
            keyStarts.append(made.starts[index]); keyLengths.append(made.lengths[index]); values.append(made.values[index])
            records.append(made.owners[index]); nameLengths.append(made.folded[index])
            previous = index
        }
    }

    /// The keys and names of a run of records, as `Made` makes them for the whole list when the run
    /// starts it: each key in `pool`, with its entry value, record and name part's length; alternates
    /// numbered from the record count in the order met, spellings from 0 (`spellingEntries`: their
    /// entries' positions, in increasing order).
    private struct KeyBatch: Sendable {
        var pool: [UInt8] = []
        var starts: [Int] = [], lengths: [Int32] = [], values: [UInt32] = [], owners: [UInt32] = [], folded: [UInt16] = []
        var alternates: [Alternate] = [], spellings: [Alternate] = []
        var spellingEntries: [Int] = []

        init(_ orderedRecords: [SourceRecord], _ run: Range<Int>, file: String) throws(MMSearchError) {
            let estimate = run.count * 2
            starts.reserveCapacity(estimate); lengths.reserveCapacity(estimate); values.reserveCapacity(estimate)
            owners.reserveCapacity(estimate); folded.reserveCapacity(estimate); pool.reserveCapacity(estimate * 16)
            var tail: [UInt8] = []
            for recordIndex in run {
                let record = orderedRecords[recordIndex]
                tail.removeAll(keepingCapacity: true)
                if !record.country.isEmpty {
                    tail.append(contentsOf: ", ".utf8)
                    record.country.withUnsafeBufferPointer { Folding.append(foldingUTF8: $0, to: &tail) }
                }
                try add(RecordNames(record).names, of: record, number: recordIndex, recordCount: orderedRecords.count, tail: tail, file: file)
            }
        }

        /// Record `recordIndex`'s keys and names, its keys ending with `tail`.
        private mutating func add(_ names: [RecordNames.Name], of record: SourceRecord, number recordIndex: Int, recordCount: Int,
                                  tail: [UInt8], file: String) throws(MMSearchError) {
            for (position, name) in names.enumerated() {
                guard name.bytes.count <= Int(MMS_MAX_STRING_LENGTH) else {
                    throw .limitExceeded(file: file, message: "a name of record \(record.id) is \(name.bytes.count) bytes; at most \(MMS_MAX_STRING_LENGTH) fit")
                }
                // A display name's number is its record's; an alternate's and a spelling's are renumbered
                // when the runs are joined (the name numbers' limit is checked there).
                let nameNumber = name.isDisplayName ? recordIndex : name.isSpelling ? spellings.count : recordCount + alternates.count
                let kind = position == 0 ? MMS_KIND_PRIMARY : name.isSpelling ? MMS_KIND_SPELLING : MMS_KIND_ALTERNATE
                let keyLength = name.folded.count + tail.count
                guard keyLength <= Int(MMS_MAX_STRING_LENGTH) else {
                    throw .limitExceeded(file: file, message: "the search key of record \(record.id) is \(keyLength) bytes; at most \(MMS_MAX_STRING_LENGTH) fit")
                }
                if let spelling = name.spelling {
                    spellings.append(Alternate(record: UInt32(recordIndex), name: spelling.source, spellingForm: spelling.form))
                } else if !name.isDisplayName {
                    alternates.append(Alternate(record: UInt32(recordIndex), name: name.bytes))
                }
                func add(_ kind: mms_kind, from start: Int) {
                    if name.isSpelling { spellingEntries.append(values.count) }
                    starts.append(pool.count)
                    pool.append(contentsOf: name.folded[start...])
                    pool.append(contentsOf: tail)
                    lengths.append(Int32(name.folded.count - start + tail.count))
                    values.append(kind.rawValue << MMS_ENTRY_KIND_SHIFT | UInt32(truncatingIfNeeded: nameNumber))
                    owners.append(UInt32(recordIndex))
                    folded.append(UInt16(name.folded.count - start))
                }
                add(kind, from: 0)
                for start in WordStarts.of(name.folded) { add(MMS_KIND_WORD, from: start) }
            }
        }
    }

    /// The key of sorted entry `index`, as a range of `pool`.
    @inline(__always)
    func key(_ index: Int) -> Range<Int> { keyStarts[index] ..< keyStarts[index] + Int(keyLengths[index]) }

    @inline(__always)
    func kind(_ index: Int) -> UInt32 { values[index] >> MMS_ENTRY_KIND_SHIFT }

    /// Entry indices sorted by (key bytes, kind, record, name number). Keys are compared by their
    /// first eight bytes as one integer first, and in full only when those are equal.
    private static func sortedOrder(pool: [UInt8], starts: [Int], lengths: [Int32], values: [UInt32], records: [UInt32]) -> [UInt32] {
        let count = values.count
        var prefixes = [UInt64](repeating: 0, count: count)
        var ties = [UInt64](repeating: 0, count: count)
        pool.withUnsafeBufferPointer { pool in
            for index in 0 ..< count {
                var prefix: UInt64 = 0
                let start = starts[index], length = Int(lengths[index])
                for offset in 0 ..< 8 {
                    prefix <<= 8
                    if offset < length { prefix |= UInt64(pool[start + offset]) }
                }
                prefixes[index] = prefix
                let kind = UInt64(values[index] >> MMS_ENTRY_KIND_SHIFT)
                ties[index] = kind << 60 | UInt64(records[index]) << 30 | UInt64(values[index] & MMS_ENTRY_NAME_MASK)
            }
        }
        var order = Array(0 ..< UInt32(count))
        pool.withUnsafeBytes { raw in
            prefixes.withUnsafeBufferPointer { prefixes in
                ties.withUnsafeBufferPointer { ties in
                    starts.withUnsafeBufferPointer { starts in
                        lengths.withUnsafeBufferPointer { lengths in
                            order.sort { left, right in
                                let a = Int(left), b = Int(right)
                                if prefixes[a] != prefixes[b] { return prefixes[a] < prefixes[b] }
                                let byKey = compareBytes(raw, starts[a] ..< starts[a] + Int(lengths[a]), raw, starts[b] ..< starts[b] + Int(lengths[b]))
                                if byKey != 0 { return byKey < 0 }
                                return ties[a] < ties[b]
                            }
                        }
                    }
                }
            }
        }
        return order
    }

    private static func compareKeys(_ pool: [UInt8], _ a: Int, _ aLength: Int32, _ b: Int, _ bLength: Int32) -> Int {
        pool.withUnsafeBytes { raw in compareBytes(raw, a ..< a + Int(aLength), raw, b ..< b + Int(bLength)) }
    }
}
