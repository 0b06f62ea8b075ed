import MMSearch

enum InfoCommand: Command {
    static let usage = """
        usage: mmsearch info INDEX

        Describes INDEX from its header, source section, near lists and summaries' counts, without
        reading the rest: format version, record count, trie size, the first pages' entries, the
        bytes that answer by place (the spatial sections and the near lists' pages) and their share
        of the file, the offset and size of each section, the stored checksum, and when and from what
        it was built (the list's file name, size and XXH64 checksum; for a gzip list, of the
        decompressed JSON: the index does not record the compressed file's size). `mmsearch verify`
        checks the whole file.
        """

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, valued: [], flagNames: [])
        guard parsed.positionals.count == 1 else { throw UsageError("expected one INDEX file") }
        let index = try CityIndex(path: parsed.positionals[0])
        let info = try index.info()
        var lines = [
            "index           \(index.path)",
            "format version  \(info.formatVersion)",
            "file size       \(info.fileSize) bytes",
            "records         \(info.recordCount)",
            "names           \(info.alternateCount) besides the records' own" + (info.spellingCount > 0 ? ", and \(info.spellingCount) generated spellings (St Paul for Saint Paul)" : ""),
            "search keys     \(info.entryCount) (names and word starts), in a trie of \(info.nodeCount) nodes",
            "summaries       \(info.summaryCount) nodes with a stored count and first page (\(info.firstPageEntryCount) first-page entries with the country pages' and near lists')",
            "population      \(info.hasPopulation ? "yes: results are ranked by it" : "none (ranked by how the name matched, then alphabetically)")",
            "regions         \(info.regionCount) regions and \(info.countryCount) named countries; \(info.matchesQualifiers ? "\"Name, Region\" and \"Name, Country\" queries match" : "none (build with --admin1 and --countries to match \"Name, Region\")")",
            "qualifier names \(info.qualifierNameCount) other names of countries and regions (\"uk\", \"deutschland\")\(info.qualifierNameCount == 0 ? "; build with --alternate-names to add them" : "")",
            "near lists      \(info.nearListCount) nodes list \(info.nearListedCount) matches for searches near a point (\(info.nearListedBytes) bytes of top pages and ranks)",
            "by place        \(info.spatialPartBytes) bytes answer by place, \(ResultFormat.decimal(100 * Double(info.spatialPartBytes) / Double(max(1, info.fileSize)), places: 2))% of the file (\(info.spatialPartSections.joined(separator: ", ")) and the lists' pages)",
            "checksum        \(hex(info.checksum)) (XXH64, as stored; `mmsearch verify` checks it)",
            "sections",
        ]
        let lengthWidth = info.sections.map { String($0.length).count }.max() ?? 0
        let nameWidth = (info.sections.map(\.name.count).max() ?? 0) + 1
        for section in info.sections {
            let name = section.name + String(repeating: " ", count: max(0, nameWidth - section.name.count))
            lines.append("  \(name)\(String(section.length).paddedLeft(to: lengthWidth)) bytes at offset \(section.offset)")
        }
        lines.append("built           \(utcText(info.source.builtAt))")
        let kind = info.source.kind == .cityList ? "JSON" : "GeoNames dump"
        // SOURCE holds the size and checksum of the text as parsed: a gzip file's decompressed text.
        lines.append("source          \(info.source.name), \(info.source.size) bytes of \(kind) \(asRead), XXH64 \(hex(info.source.checksum))")
        if let joined = info.source.joined {
            lines.append("joined          \(joined.name), \(joined.size) bytes of GeoNames dump \(asRead), XXH64 \(hex(joined.checksum))")
        }
        if let admin1 = info.source.admin1 {
            lines.append("admin1          \(admin1.name), \(admin1.size) bytes of GeoNames admin1 codes \(asRead), XXH64 \(hex(admin1.checksum))")
        }
        if let countries = info.source.countries {
            lines.append("countries       \(countries.name), \(countries.size) bytes of GeoNames country info \(asRead), XXH64 \(hex(countries.checksum))")
        }
        if let alternates = info.source.alternateNames {
            lines.append("alternates      \(alternates.name), \(alternates.size) bytes of GeoNames alternate names \(asRead), XXH64 \(hex(alternates.checksum)); "
                + "names it gave: \(info.source.alternateNamesOfRecords) of cities, \(info.source.alternateNamesOfPlaces) of countries and regions")
        }
        var output = Output(.output)
        output.write(lines.joined(separator: "\n") + "\n")
        output.flush()
        return 0
    }

    /// What a source size is of: the text as parsed, so a compressed and a plain copy agree.
    static let asRead = "as read (decompressed if gzip)"

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// `seconds` since 1970 as "2026-11-22 14:19:08 UTC" (the proleptic Gregorian calendar, after
    /// Howard Hinnant's civil_from_days), without Foundation's calendars.
    static func utcText(_ seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day)) \(two(secondOfDay / 3_600)):\(two(secondOfDay % 3_600 / 60)):\(two(secondOfDay % 60)) UTC"
    }
}
