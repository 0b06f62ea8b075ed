import CMMSearchFormat
import MMSearch

/// The RECORD_REGIONS, REGIONS and COUNTRIES sections: the regions and countries the records have,
/// as `shared/peers/rank.py` assigns them. A record's region is the admin1 file's row named by its
/// dump row's "CC.CODE", when that row has a name; its country's row is the country file's row with
/// its country code. Only regions and countries some record has are stored, sorted.
struct PlaceTables {
    private(set) var recordRegions: [UInt16] = []
    private(set) var regions: [mms_region] = []
    private(set) var countries: [mms_country] = []
    /// Other names of the stored countries and regions (QUALIFIER_NAMES), sorted.
    private(set) var qualifierNames: [mms_qualifier_name] = []
    /// Whether some record has a region or a country with a name: "Name, Qualifier" queries match.
    private(set) var isQualified = false
    private(set) var regionRecords = 0
    private(set) var countryRecords = 0

    /// `orderedRecords` in primary-key order; texts are interned in `names`.
    init(orderedRecords: [SourceRecord], regions regionRows: [Admin1Region], countries countryRows: [CountryInfo],
         qualifierNames otherNames: QualifierNames = QualifierNames(), names: inout BytePool, file: String) throws(MMSearchError) {
        // As rank.py's dictionaries: a later row with the same key replaces an earlier one.
        var regionNames: [Admin1Key: [UInt8]] = [:]
        for row in regionRows where !row.name.isEmpty { regionNames[Admin1Key(country: row.country, code: row.code)] = row.name }
        var countryRowOfCode: [ByteString: CountryInfo] = [:]
        for row in countryRows { countryRowOfCode[ByteString(row.code)] = row }

        // Regions: those some record has, sorted by (country, code), numbered in that order.
        let recordKeys = orderedRecords.map { record in record.admin1.flatMap { regionNames[$0] == nil ? nil : $0 } }
        let usedKeys = Set(recordKeys.compactMap { $0 }).sorted { a, b in
            a.country != b.country ? a.country.lexicographicallyPrecedes(b.country) : a.code.lexicographicallyPrecedes(b.code)
        }
        guard usedKeys.count < Int(MMS_NO_REGION) else {
            throw .limitExceeded(file: file, message: "\(usedKeys.count) regions; an index holds at most \(MMS_NO_REGION - 1)")
        }
        var numberOfKey: [Admin1Key: UInt16] = [:]
        for (number, key) in usedKeys.enumerated() {
            numberOfKey[key] = UInt16(number)
            try addQualifierNames(otherNames.byRegion[key] ?? [], of: MMS_QUALIFIER_OF_REGION, number: number, names: &names, file: file)
            let name = regionNames[key]!
            let folded = Folding.fold(utf8: name)
            for text in [name, folded, key.code] where text.count > Int(MMS_MAX_STRING_LENGTH) {
                throw .limitExceeded(file: file, message: "region \(String(decoding: key.country + [UInt8(ascii: ".")] + key.code, as: UTF8.self)) has a name or code of \(text.count) bytes; at most \(MMS_MAX_STRING_LENGTH) fit")
            }
            regions.append(mms_region(
                name_offset: try names.intern(name, file: file),
                folded_offset: try names.intern(folded, file: file),
                code_offset: try names.intern(key.code, file: file),
                name_length: UInt16(name.count),
                folded_length: UInt16(folded.count),
                code_length: UInt16(key.code.count),
                country: (key.country[0], key.country[1])
            ))
        }
        if !usedKeys.isEmpty {
            recordRegions = recordKeys.map { $0.map { numberOfKey[$0]! } ?? UInt16(MMS_NO_REGION) }
            regionRecords = recordKeys.count { $0 != nil }
        }

        // Countries: those some record has, sorted by code.
        let usedCodes = Set(orderedRecords.compactMap { countryRowOfCode[ByteString($0.country)] == nil ? nil : ByteString($0.country) })
        for code in usedCodes.sorted(by: { $0.bytes.lexicographicallyPrecedes($1.bytes) }) {
            let row = countryRowOfCode[code]!
            try addQualifierNames(otherNames.byCountry[code.bytes] ?? [], of: MMS_QUALIFIER_OF_COUNTRY, number: countries.count, names: &names, file: file)
            let folded = Folding.fold(utf8: row.name)
            guard row.name.count <= Int(MMS_MAX_STRING_LENGTH), folded.count <= Int(MMS_MAX_STRING_LENGTH) else {
                throw .limitExceeded(file: file, message: "country \(String(decoding: row.code, as: UTF8.self)) has a name of \(max(row.name.count, folded.count)) bytes; at most \(MMS_MAX_STRING_LENGTH) fit")
            }
            let iso3 = row.iso3.count == 3 ? (row.iso3[0], row.iso3[1], row.iso3[2]) : (0, 0, 0)
            countries.append(mms_country(
                name_offset: try names.intern(row.name, file: file),
                folded_offset: try names.intern(folded, file: file),
                name_length: UInt16(row.name.count),
                folded_length: UInt16(folded.count),
                code: (row.code[0], row.code[1]),
                iso3: iso3,
                reserved: (0, 0, 0)
            ))
            if !row.name.isEmpty { isQualified = true }
        }
        countryRecords = orderedRecords.count { countryRowOfCode[ByteString($0.country)] != nil }
        isQualified = isQualified || regionRecords > 0
        qualifierNames.sort { a, b in
            (a.owner_kind, a.owner) != (b.owner_kind, b.owner) ? (a.owner_kind, a.owner) < (b.owner_kind, b.owner)
                : names.bytes[Int(a.folded_offset) ..< Int(a.folded_offset) + Int(a.folded_length)]
                    .lexicographicallyPrecedes(names.bytes[Int(b.folded_offset) ..< Int(b.folded_offset) + Int(b.folded_length)])
        }
    }

    /// The folded `otherNames` of country or region `number`, each once, none empty.
    private mutating func addQualifierNames(_ otherNames: [[UInt8]], of kind: UInt32, number: Int, names: inout BytePool, file: String) throws(MMSearchError) {
        var seen: Set<ByteString> = []
        for name in otherNames {
            let folded = Folding.fold(utf8: name)
            guard !folded.isEmpty, folded.count <= Int(MMS_MAX_STRING_LENGTH), seen.insert(ByteString(folded)).inserted else { continue }
            qualifierNames.append(mms_qualifier_name(owner: UInt32(number), folded_offset: try names.intern(folded, file: file),
                                                     folded_length: UInt16(folded.count), owner_kind: UInt8(kind), reserved: 0))
        }
    }
}
