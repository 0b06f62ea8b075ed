import CMMSearchFormat

/// Regions, countries and each record's names, read from the mapped file with every index and span
/// checked (see "Regions and countries" in `include/mmsearch_format.h`).
extension _IndexBytes {
    /// The region of record `index` (a valid record): its number in REGIONS, checked, or nil when it
    /// has none. Counted from where its country's regions start ("Records' regions").
    @inline(__always)
    func regionNumber(ofRecord index: Int) throws(MMSearchError) -> Int? {
        guard index >= 0, index < layout.recordRegions.count else { return nil }
        let value = unpacked(packedRegion(ofRecord: index), layout.regionsApart)
        guard value != 0 else { return nil }
        let country = packedCountry(ofRecord: index), regions = UInt64(layout.regionCount)
        let first = country == 0 ? 0 : UInt64(try recordCountry(number: country, ofRecord: index).first_region)
        // Both at most R: their sum less one is below 2R, so one subtraction brings it below R.
        guard value <= regions, first <= regions else {
            throw corrupt(layout.recordRegions.byteOffset(index), "record \(index) has region value \(value) from region \(first); at most \(regions) each (the regions)")
        }
        let number = first + value - 1
        return Int(number >= regions ? number - regions : number)
    }

    /// Record `index`'s region value as RECORD_REGIONS packs it (a record with regions): the value, or the
    /// number of one stored apart.
    @inline(__always)
    func packedRegion(ofRecord index: Int) -> UInt64 {
        UInt64(bits(layout.recordRegions.start, at: index * layout.recordRegions.width, layout.recordRegions.mask))
    }

    /// Region `number`.
    @inline(__always)
    func region(_ number: Int) throws(MMSearchError) -> mms_region {
        guard number >= 0, number < layout.regionCount else {
            throw corrupt(layout.regions, "region \(number) does not exist (\(layout.regionCount) regions)")
        }
        return raw.loadUnaligned(fromByteOffset: layout.regions + number * _IndexLayout.regionSize, as: mms_region.self)
    }

    /// A region's name, folded name and code, checked to lie inside the name pool.
    func regionTexts(_ number: Int) throws(MMSearchError) -> (name: UnsafeRawBufferPointer, folded: UnsafeRawBufferPointer, code: UnsafeRawBufferPointer) {
        let region = try region(number)
        let at = layout.regions + number * _IndexLayout.regionSize
        return (try span(offset: region.name_offset, length: region.name_length, at: at, what: "region \(number)"),
                try span(offset: region.folded_offset, length: region.folded_length, at: at, what: "region \(number)'s folded name"),
                try span(offset: region.code_offset, length: region.code_length, at: at, what: "region \(number)'s code"))
    }

    /// The region name of record `index`, nil when it has none: only the name is read (every result
    /// shows it).
    func regionName(ofRecord index: Int) throws(MMSearchError) -> String? {
        guard let number = try regionNumber(ofRecord: index) else { return nil }
        return try regionName(number)
    }

    /// Region `number`'s name.
    func regionName(_ number: Int) throws(MMSearchError) -> String {
        let region = try region(number)
        let name = try span(offset: region.name_offset, length: region.name_length, at: layout.regions + number * _IndexLayout.regionSize, what: "region \(number)")
        return String(decoding: name, as: UTF8.self)
    }

    /// Country `number` and where it lies.
    @inline(__always)
    func country(_ number: Int) -> (country: mms_country, at: Int) {
        let at = layout.countries + number * _IndexLayout.countrySize
        return (raw.loadUnaligned(fromByteOffset: at, as: mms_country.self), at)
    }

    /// The number of the country with `code` in COUNTRIES (a binary search: they are sorted by code),
    /// or nil when there is none.
    func countryNumber(code: (UInt8, UInt8)) -> Int? {
        let wanted = CountryKey.packed(code)
        var low = 0, high = layout.countryCount
        while low < high {
            let middle = low + (high - low) / 2
            let found = country(middle).country.code
            if CountryKey.packed(found) < wanted { low = middle + 1 } else { high = middle }
        }
        guard low < layout.countryCount, country(low).country.code == code else { return nil }
        return low
    }

    /// The alternates of record `index` (a valid record) among `part` of ALTERNATES (the given ones,
    /// or the spellings), each sorted by record, so they are one run, found by binary search. A file
    /// that breaks the order gives some run of alternates, each still checked when read.
    func alternates(ofRecord index: Int, in part: Range<Int>) -> Range<Int> {
        let first = firstAlternate(notBelow: index, in: part)
        return first ..< max(first, firstAlternate(notBelow: index + 1, in: part))
    }

    /// The first position of `part` whose alternate's record is at least `record` (the records
    /// ascending in it): a binary search over the least records of the blocks wholly inside `part`
    /// (ALTERNATE_BLOCKS: such a block's first record is its least), which reads no delta, then one over
    /// the alternates of the block before the first that starts at `record` or above (or of the
    /// part's partial blocks at its ends), each record an alternate block and a delta.
    func firstAlternate(notBelow record: Int, in part: Range<Int>) -> Int {
        let size = Int(MMS_ALTERNATE_BLOCK_SIZE)
        let firstWhole = (part.lowerBound + size - 1) / size, whole = firstWhole ..< max(firstWhole, part.upperBound / size)
        var low = part.lowerBound, high = part.upperBound
        if !whole.isEmpty {
            var lowBlock = whole.lowerBound, highBlock = whole.upperBound
            while lowBlock < highBlock {
                let middle = lowBlock + (highBlock - lowBlock) / 2
                if Int(alternateBlock(middle).least_record) < record { lowBlock = middle + 1 } else { highBlock = middle }
            }
            if lowBlock > whole.lowerBound { low = (lowBlock - 1) * size }
            if lowBlock < whole.upperBound { high = lowBlock * size }
        }
        if low < high, low / size == (high - 1) / size { return firstAlternate(notBelow: record, inOneBlock: low ..< high) }
        while low < high {
            let middle = low + (high - low) / 2
            if alternateRecord(middle) < record { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// `firstAlternate` over `range`, alternates of one block (where the search over blocks leaves it,
    /// but at a part's ends): the block's least record and delta width read once, then each probe a
    /// delta alone, where `alternateRecord` read both blocks again for each (a page showing spellings
    /// searches once for each). A block whose deltas do not lie inside ALTERNATE_DELTAS reads as
    /// `alternateRecord` reads it, every record Int.max: `range`'s start.
    @inline(__always)
    private func firstAlternate(notBelow record: Int, inOneBlock range: Range<Int>) -> Int {
        guard let block = alternateDeltas(ofBlock: range.lowerBound / Int(MMS_ALTERNATE_BLOCK_SIZE)), record > block.least else { return range.lowerBound }
        // alternateRecord(i) < record exactly when its delta is below record - least.
        let below = record - block.least
        var low = range.lowerBound, high = range.upperBound
        while low < high {
            let middle = low + (high - low) / 2
            if Int(alternateDelta(middle, in: block)) < below { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The names of record `index` in order, each decoded and handed to `body` with its kind (PRIMARY
    /// for the first, ALTERNATE or SPELLING for the rest): its display name unless that is empty and it
    /// has alternates, then its given alternates, then its spellings. Inlined, with `withAlternateText`,
    /// into each caller: called, each name's closures retained and released what they capture, which
    /// was 40% of a "San Juan " keystroke (a qualifier match's names read one by one).
    @inline(__always)
    func forEachName(ofRecord index: Int, _ body: (UnsafeBufferPointer<UInt8>, _ kind: UInt32) -> Void) throws(MMSearchError) {
        let record = try record(index)
        let given = alternates(ofRecord: index, in: 0 ..< layout.givenAlternateCount)
        let spellings = alternates(ofRecord: index, in: layout.givenAlternateCount ..< layout.alternateCount)
        var first = true
        if hasDisplayName(record) || given.isEmpty {
            try withName(of: record, recordIndex: index) { body($0, MMS_KIND_PRIMARY.rawValue) }
            first = false
        }
        for alternate in given {
            try withAlternateText(alternate) { body($0, first ? MMS_KIND_PRIMARY.rawValue : MMS_KIND_ALTERNATE.rawValue) }
            first = false
        }
        for alternate in spellings { try withAlternateText(alternate) { body($0, MMS_KIND_SPELLING.rawValue) } }
    }

    /// Record `index`'s qualifiers, folded: its country code, ISO3 code, country name, region name, and
    /// region code when that is at least two letters A-Z, then its country's and region's other names
    /// (QUALIFIER_NAMES, each checked here). Views of the mapped file: valid inside `withBytes` only.
    /// Nothing is allocated: a keystroke of a "Name, Qualifier" query makes one for each record named
    /// exactly as the name part.
    func qualifiers(ofRecord index: Int) throws(MMSearchError) -> Qualifiers {
        var qualifiers = Qualifiers(qualifierNames: UnsafeRawBufferPointer(rebasing: raw[layout.qualifierNames ..< layout.qualifierNames + layout.qualifierNameCount * _IndexLayout.qualifierNameSize]),
                                    names: UnsafeRawBufferPointer(rebasing: raw[layout.placeNames]))
        let record = try record(index)
        var countryNumber: Int?
        if record.country != (0, 0) {
            qualifiers.addCountryCode(record.country)
            if let number = self.countryNumber(code: record.country) {
                countryNumber = number
                let (country, at) = country(number)
                let iso3 = at + MemoryLayout<mms_country>.offset(of: \.iso3)!
                if country.iso3 != (0, 0, 0) { qualifiers.add(UnsafeRawBufferPointer(rebasing: raw[iso3 ..< iso3 + 3]), isCode: true) }
                qualifiers.add(try span(offset: country.folded_offset, length: country.folded_length, at: at, what: "country \(number)'s folded name"), isCode: false)
            }
        }
        let regionNumber = try self.regionNumber(ofRecord: index)
        if let number = regionNumber {
            let texts = try regionTexts(number)
            qualifiers.add(texts.folded, isCode: false)
            if texts.code.count >= 2, texts.code.allSatisfy({ $0 &- UInt8(ascii: "A") < 26 }) { qualifiers.add(texts.code, isCode: true) }
        }
        if layout.qualifierNameCount > 0 {
            if let countryNumber { qualifiers.countryNames = try qualifierNames(of: MMS_QUALIFIER_OF_COUNTRY, countryNumber) }
            if let regionNumber { qualifiers.regionNames = try qualifierNames(of: MMS_QUALIFIER_OF_REGION, regionNumber) }
        }
        return qualifiers
    }

    /// The other names of country or region `number` (`kind`): their run of QUALIFIER_NAMES, sorted by
    /// (kind, owner), found by binary search; each name's text checked to lie in the name pool.
    func qualifierNames(of kind: UInt32, _ number: Int) throws(MMSearchError) -> Range<Int> {
        let wanted = UInt64(kind) << 32 | UInt64(number)
        func owner(_ position: Int) -> UInt64 {
            let name = raw.loadUnaligned(fromByteOffset: layout.qualifierNames + position * _IndexLayout.qualifierNameSize, as: mms_qualifier_name.self)
            return UInt64(name.owner_kind) << 32 | UInt64(name.owner)
        }
        var low = 0, high = layout.qualifierNameCount
        while low < high {
            let middle = low + (high - low) / 2
            if owner(middle) < wanted { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < layout.qualifierNameCount, owner(end) == wanted {
            let at = layout.qualifierNames + end * _IndexLayout.qualifierNameSize
            let name = raw.loadUnaligned(fromByteOffset: at, as: mms_qualifier_name.self)
            _ = try span(offset: name.folded_offset, length: name.folded_length, at: at, what: "qualifier name \(end)")
            end += 1
        }
        return low ..< end
    }
}

/// A record's qualifiers: views of the mapped file, each folded text, or an ASCII code (country, ISO3,
/// region) that folds to its lowercase, compared as such; periods in them are passed over (a query's
/// are dropped before: "washington, d.c." fits the region code DC), and a text of periods only (or
/// none) is no qualifier. The record's own texts are held in place, its country's and region's other
/// names as runs of QUALIFIER_NAMES whose texts `qualifierNames(of:_:)` checked: no heap storage.
struct Qualifiers {
    /// QUALIFIER_NAMES and the pool of their texts (PLACE_NAMES).
    private let qualifierNames: UnsafeRawBufferPointer
    private let names: UnsafeRawBufferPointer
    /// The record's own: country code, ISO3 code, country name, region name, region code (those it has).
    /// The country code is unpacked from its record, so it is held here, not viewed: `own.0` is empty
    /// and `fit` views `countryCode` in its place when `hasCountryCode`.
    private var own: (UnsafeRawBufferPointer, UnsafeRawBufferPointer, UnsafeRawBufferPointer, UnsafeRawBufferPointer, UnsafeRawBufferPointer)
    private var countryCode: (UInt8, UInt8) = (0, 0)
    private var hasCountryCode = false
    private var ownCount = 0
    /// Bit i: `own`'s text i is a code.
    private var ownCodes: UInt8 = 0
    var countryNames: Range<Int> = 0 ..< 0
    var regionNames: Range<Int> = 0 ..< 0

    init(qualifierNames: UnsafeRawBufferPointer, names: UnsafeRawBufferPointer) {
        self.qualifierNames = qualifierNames
        self.names = names
        let none = UnsafeRawBufferPointer(start: nil, count: 0)
        own = (none, none, none, none, none)
    }

    /// The record's country code: the first of its own qualifiers.
    mutating func addCountryCode(_ code: (UInt8, UInt8)) {
        precondition(ownCount == 0, "the country code comes first")
        countryCode = code
        hasCountryCode = true
        add(UnsafeRawBufferPointer(start: nil, count: 0), isCode: true)
    }

    mutating func add(_ text: UnsafeRawBufferPointer, isCode: Bool) {
        precondition(ownCount < 5, "a record has at most five qualifiers of its own")
        switch ownCount {
        case 0: own.0 = text
        case 1: own.1 = text
        case 2: own.2 = text
        case 3: own.3 = text
        default: own.4 = text
        }
        if isCode { ownCodes |= 1 << UInt8(ownCount) }
        ownCount += 1
    }

    /// The record's own qualifier `number`.
    @inline(__always)
    private func ownText(_ number: Int) -> (text: UnsafeRawBufferPointer, isCode: Bool) {
        let isCode = ownCodes & (1 << UInt8(number)) != 0
        switch number {
        case 0: return (own.0, isCode)
        case 1: return (own.1, isCode)
        case 2: return (own.2, isCode)
        case 3: return (own.3, isCode)
        default: return (own.4, isCode)
        }
    }

    /// The folded text of QUALIFIER_NAMES entry `position`.
    @inline(__always)
    private func otherName(_ position: Int) -> UnsafeRawBufferPointer {
        let name = qualifierNames.loadUnaligned(fromByteOffset: position * MemoryLayout<mms_qualifier_name>.stride, as: mms_qualifier_name.self)
        // Checked when the run was found (`qualifierNames(of:_:)`); clamped all the same.
        let start = Swift.min(Int(name.folded_offset), names.count)
        return UnsafeRawBufferPointer(rebasing: names[start ..< Swift.min(start + Int(name.folded_length), names.count)])
    }

    /// The names of `run` whose text starts with `byte`: a run is sorted by folded text, so they are
    /// one stretch of it, found by binary search without reading the others' texts.
    private func otherNames(in run: Range<Int>, startingWith byte: UInt8) -> Range<Int> {
        func firstByte(_ position: Int) -> UInt8 { otherName(position).first ?? 0 }
        var low = run.lowerBound, high = run.upperBound
        while low < high {
            let middle = low + (high - low) / 2
            if firstByte(middle) < byte { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < run.upperBound, firstByte(end) == byte { end += 1 }
        return low ..< end
    }

    /// How many bytes of `bytes` from `start` `text` matches, compared as folded and without its
    /// periods, and whether that is all of it (never, for a text of periods only).
    @inline(__always)
    private static func matched(_ text: UnsafeRawBufferPointer, isCode: Bool, _ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (count: Int, whole: Bool) {
        var offset = 0
        var position = start
        var anyLetter = false
        while offset < text.count {
            let byte = isCode ? Folding.fold(ascii: text[offset]) : text[offset]
            if byte == UInt8(ascii: ".") { offset += 1; continue }
            anyLetter = true
            guard position < bytes.count, byte == bytes[position] else { break }
            offset += 1
            position += 1
        }
        guard anyLetter || offset < text.count else { return (0, false) }
        return (position - start, offset == text.count)
    }

    /// Whether `rest` fits the qualifiers: it is empty, or the start of one, or one whole followed by
    /// a separator (", ", "," or " ") and a rest that does not start with a space and fits in turn.
    /// One pass over the places in `rest` where a further qualifier may start; of the other names, only
    /// those that start with the byte there (or with a period, passed over) are read.
    func fit(_ rest: ArraySlice<UInt8>) -> Bool {
        guard !rest.isEmpty else { return true }
        var code = countryCode
        return withUnsafeBytes(of: &code) { codeBytes in rest.withUnsafeBufferPointer { rest in
            withUnsafeTemporaryAllocation(of: Bool.self, capacity: rest.count + 1) { reachable in
                reachable.initialize(repeating: false)
                reachable[0] = true
                // Whether `text` taken at `start` ends `rest` (true), else marks where the next may start.
                func take(_ text: UnsafeRawBufferPointer, isCode: Bool, at start: Int) -> Bool {
                    let (matched, whole) = Self.matched(text, isCode: isCode, rest, from: start)
                    let after = start + matched
                    if after == rest.count { return true } // the start of this qualifier
                    guard whole else { return false }
                    for separator in Self.separators where rest.count - after >= separator.count
                        && separator.indices.allSatisfy({ rest[after + $0] == separator[$0] }) {
                        let next = after + separator.count
                        guard next == rest.count || rest[next] != UInt8(ascii: " ") else { continue }
                        reachable[next] = true
                    }
                    return false
                }
                // The other names that start with a period, tried at every start (the period is passed over).
                let countryPeriods = otherNames(in: countryNames, startingWith: UInt8(ascii: "."))
                let regionPeriods = otherNames(in: regionNames, startingWith: UInt8(ascii: "."))
                func takeOtherName(in run: Range<Int>, periods: Range<Int>, at start: Int) -> Bool {
                    guard !run.isEmpty else { return false }
                    let starting = rest[start] == UInt8(ascii: ".") ? periods.upperBound ..< periods.upperBound : otherNames(in: run, startingWith: rest[start])
                    return periods.contains { take(otherName($0), isCode: false, at: start) }
                        || starting.contains { take(otherName($0), isCode: false, at: start) }
                }
                for start in 0 ... rest.count where reachable[start] {
                    if start == rest.count { return true }
                    for number in 0 ..< ownCount {
                        let (text, isCode) = number == 0 && hasCountryCode ? (codeBytes, true) : ownText(number)
                        if take(text, isCode: isCode, at: start) { return true }
                    }
                    if takeOtherName(in: countryNames, periods: countryPeriods, at: start)
                        || takeOtherName(in: regionNames, periods: regionPeriods, at: start) { return true }
                }
                return false
            }
        } }
    }

    /// What may stand between a name and a qualifier, and between two qualifiers.
    static let separators: [[UInt8]] = [Array(", ".utf8), Array(",".utf8), Array(" ".utf8)]
}
