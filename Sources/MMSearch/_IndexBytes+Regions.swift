import CMMSearchFormat

/// Regions, countries and each record's names, read from the mapped file with every index and span
/// checked (see "Regions and countries" in `include/mmsearch_format.h`).
extension _IndexBytes {
    /// The region of record `index` (a valid record): its number in REGIONS, checked, or nil when it
    /// has none.
    @inline(__always)
    func regionNumber(ofRecord index: Int) throws(MMSearchError) -> Int? {
        guard layout.hasRegions, index >= 0, index < layout.recordCount else { return nil }
        let offset = layout.recordRegions + index * 2
        let value = Int(raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
        if value == Int(MMS_NO_REGION) { return nil }
        guard value < layout.regionCount else {
            throw corrupt(offset, "record \(index) has region \(value); there are \(layout.regionCount)")
        }
        return value
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

    /// The region name of record `index`, nil when it has none.
    func regionName(ofRecord index: Int) throws(MMSearchError) -> String? {
        guard let number = try regionNumber(ofRecord: index) else { return nil }
        return String(decoding: try regionTexts(number).name, as: UTF8.self)
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
        let wanted = UInt16(code.0) << 8 | UInt16(code.1)
        var low = 0, high = layout.countryCount
        while low < high {
            let middle = low + (high - low) / 2
            let found = country(middle).country.code
            if UInt16(found.0) << 8 | UInt16(found.1) < wanted { low = middle + 1 } else { high = middle }
        }
        guard low < layout.countryCount, country(low).country.code == code else { return nil }
        return low
    }

    /// The alternates of record `index` (a valid record): ALTERNATES is sorted by record, so they are
    /// one run, found by binary search. A file that breaks the order gives some run of alternates,
    /// each still checked when read.
    func alternates(ofRecord index: Int) -> Range<Int> {
        let recordField = MemoryLayout<mms_alternate>.offset(of: \.record)!
        func owner(_ position: Int) -> Int {
            Int(raw.loadUnaligned(fromByteOffset: layout.alternates + position * _IndexLayout.alternateSize + recordField, as: UInt32.self))
        }
        func firstPosition(notBelow record: Int) -> Int {
            var low = 0, high = layout.alternateCount
            while low < high {
                let middle = low + (high - low) / 2
                if owner(middle) < record { low = middle + 1 } else { high = middle }
            }
            return low
        }
        let first = firstPosition(notBelow: index)
        return first ..< max(first, firstPosition(notBelow: index + 1))
    }

    /// The names of record `index` in order, each with its kind (PRIMARY for the first, ALTERNATE for
    /// the rest): its display name unless that is empty and it has alternates, then its alternates.
    func names(ofRecord index: Int) throws(MMSearchError) -> [(text: UnsafeRawBufferPointer, kind: UInt32)] {
        let record = try record(index)
        let alternates = alternates(ofRecord: index)
        var names: [(text: UnsafeRawBufferPointer, kind: UInt32)] = []
        names.reserveCapacity(alternates.count + 1)
        if record.name_length > 0 || alternates.isEmpty {
            names.append((try name(of: record, recordIndex: index), MMS_KIND_PRIMARY.rawValue))
        }
        for alternate in alternates {
            names.append((try alternateText(alternate), names.isEmpty ? MMS_KIND_PRIMARY.rawValue : MMS_KIND_ALTERNATE.rawValue))
        }
        return names
    }

    /// Record `index`'s qualifiers, folded: its country code, ISO3 code, country name, region name, and
    /// region code when that is at least two letters A-Z. Empty ones are left out; repeats may stay
    /// (they change no answer).
    func qualifiers(ofRecord index: Int) throws(MMSearchError) -> Qualifiers {
        var qualifiers = Qualifiers()
        let code = try record(index).country
        if code != (0, 0) {
            qualifiers.add(asciiLowercased: [code.0, code.1])
            if let number = countryNumber(code: code) {
                let (country, at) = country(number)
                if country.iso3 != (0, 0, 0) { qualifiers.add(asciiLowercased: [country.iso3.0, country.iso3.1, country.iso3.2]) }
                qualifiers.add(try span(offset: country.folded_offset, length: country.folded_length, at: at, what: "country \(number)'s folded name"))
            }
        }
        if let number = try regionNumber(ofRecord: index) {
            let texts = try regionTexts(number)
            qualifiers.add(texts.folded)
            if texts.code.count >= 2, texts.code.allSatisfy({ $0 &- UInt8(ascii: "A") < 26 }) {
                qualifiers.add(asciiLowercased: Array(texts.code))
            }
        }
        return qualifiers
    }
}

/// A record's qualifiers, folded, back to back in one buffer.
struct Qualifiers {
    private(set) var bytes: [UInt8] = []
    private(set) var ranges: [Range<Int>] = []

    mutating func add(_ folded: UnsafeRawBufferPointer) {
        guard !folded.isEmpty else { return }
        ranges.append(bytes.count ..< bytes.count + folded.count)
        bytes.append(contentsOf: folded)
    }

    /// ASCII codes fold to their lowercase (the folding table's ASCII rows).
    mutating func add(asciiLowercased code: [UInt8]) {
        ranges.append(bytes.count ..< bytes.count + code.count)
        for byte in code { bytes.append(byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte) }
    }

    /// Whether `rest` fits the qualifiers: it is empty, or the start of one, or one whole followed by
    /// a separator (", ", "," or " ") and a rest that does not start with a space and fits in turn.
    /// One pass over the places in `rest` where a further qualifier may start.
    func fit(_ rest: ArraySlice<UInt8>) -> Bool {
        var reachable = [Bool](repeating: false, count: rest.count + 1)
        reachable[0] = true
        for start in 0 ... rest.count where reachable[start] {
            let tail = rest.dropFirst(start)
            if tail.isEmpty { return true }
            for range in ranges {
                let qualifier = bytes[range]
                if qualifier.starts(with: tail) { return true }
                guard tail.starts(with: qualifier) else { continue }
                let after = tail.dropFirst(qualifier.count)
                for separator in Self.separators where after.starts(with: separator) {
                    let next = after.dropFirst(separator.count)
                    if next.first != UInt8(ascii: " ") { reachable[start + qualifier.count + separator.count] = true }
                }
            }
        }
        return false
    }

    /// What may stand between a name and a qualifier, and between two qualifiers.
    static let separators: [[UInt8]] = [Array(", ".utf8), Array(",".utf8), Array(" ".utf8)]
}
