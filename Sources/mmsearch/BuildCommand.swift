import MMSearch
import MMSearchBuilder

enum BuildCommand: Command {
    static let usage = """
        usage: mmsearch build [--skip-invalid] [--geonames DUMP] [--admin1 FILE] [--countries FILE]
                             [--alternate-names FILE] INPUT -o OUTPUT

        Reads INPUT, OpenWeatherMap's city list (a JSON array of {"_id", "name", "country", "coord":
        {"lon", "lat"}}) or a GeoNames dump (cities500.txt, allCountries.txt, ...: 19 tab-separated
        columns a row), told apart by content, and writes its index to OUTPUT. With --geonames DUMP,
        the GeoNames dump is joined to the list by id: each city gets the dump's names (München, Munich,
        ...) and population, so that every name finds it and the biggest come first. The index is written to a temporary file beside OUTPUT, flushed
        and renamed over it: a failed or killed build never leaves a partial index at OUTPUT and never
        harms an index already there. Bad input is reported with file, line:column and what was expected.
        INPUT may be gzip-compressed (as OpenWeatherMap ships it, city.list.json.gz): it is recognized by
        its first bytes, whatever its name. When standard error is a terminal, one line there shows the
        progress (records read, sorted, written).

        --geonames DUMP join a GeoNames dump (plain or gzip) to the list INPUT by id
        --admin1 FILE   name each city's region from GeoNames' admin1CodesASCII.txt, by its dump row's
                        admin1 code (needs a dump: --geonames, or a dump as INPUT); results then show
                        it ("Springfield, Illinois, US") and "portland, or" finds Portland, Oregon
        --countries FILE
                        give each country its name and ISO3 code from GeoNames' countryInfo.txt, so
                        that "paris, france" and "paris usa" match
        --alternate-names FILE
                        add the other names GeoNames' alternateNamesV2.txt (plain or gzip; read as a
                        stream, so the whole 700 MB file builds in bounded memory) gives each city, by
                        its id, and each country and region (by the geonameids of --countries and
                        --admin1), so that "london, uk" and "münchen, deutschland" match; links, codes
                        and historic names are left out
        --skip-invalid  leave out records (or dump rows) whose content is invalid (a field missing or of the wrong
                        type, an id out of range or repeated, a bad country code, a name too long,
                        coordinates out of range, bad text in a string, ...) and report how many, with
                        the first few reasons; errors that break the JSON structure still stop the build
        """

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, valued: ["-o", "--output", "--geonames", "--admin1", "--countries", "--alternate-names"], flagNames: ["--skip-invalid"])
        guard parsed.positionals.count == 1 else { throw UsageError("expected one INPUT file") }
        guard let output = parsed.value("-o") ?? parsed.value("--output") else { throw UsageError("-o OUTPUT is required") }
        do {
            try build(input: parsed.positionals[0], geonames: parsed.value("--geonames"), admin1: parsed.value("--admin1"),
                      countries: parsed.value("--countries"), alternateNames: parsed.value("--alternate-names"), output: output,
                      options: CityListParseOptions(skipInvalid: parsed.has("--skip-invalid")))
        } catch let MMSearchError.invalidOptions(message) {
            throw UsageError(message)
        }
        return 0
    }

    /// Builds `output` from `input`, reporting the result on standard error, and the progress too
    /// when standard error is a terminal (one line, rewritten in place, cleared at the end).
    static func build(input: String, geonames: String? = nil, admin1: String? = nil, countries: String? = nil, alternateNames: String? = nil, output: String,
                      options: CityListParseOptions = CityListParseOptions()) throws {
        let clock = ContinuousClock()
        let start = clock.now
        let showsProgress = SystemCall.isTerminal(.error)
        func show(_ progress: String) {
            guard showsProgress else { return }
            var line = Output(.error)
            line.write("\r\u{1B}[K" + progress) // back to the line's start and clear it
            line.flush()
        }
        show("mmsearch build: reading \(input)...")
        let summary: BuildSummary
        do {
            summary = try IndexBuilder.build(input: input, geonames: geonames, admin1: admin1, countries: countries, alternateNames: alternateNames,
                                             output: output, options: options) { stage in
                switch stage {
                case .read(let records): show("mmsearch build: \(records) records read; sorting...")
                case .sorted(let records): show("mmsearch build: \(records) records sorted; writing \(output)...")
                case .written(let bytes): show("mmsearch build: \(bytes) bytes written")
                }
            }
        } catch {
            show("")
            throw error
        }
        show("")
        let elapsed = clock.now - start
        if !summary.skipped.isEmpty {
            let shown = 5
            Output.error("mmsearch build: warning: skipped \(summary.skipped.count) invalid records (--skip-invalid)" + (summary.skipped.count > shown ? "; the first \(shown):" : ":"))
            for error in summary.skipped.prefix(shown) { Output.error("  \(error)") }
        }
        if summary.emptyNames > 0 || summary.emptyCountries > 0 {
            Output.error("mmsearch build: warning: kept \(summary.emptyNames) records with an empty name and \(summary.emptyCountries) with an empty country")
        }
        if let joined = summary.joinedRecords, let geonames {
            Output.error("mmsearch build: joined \(geonames): \(joined) of \(summary.recordCount) records have its names and population")
        }
        if let admin1 {
            Output.error("mmsearch build: regions from \(admin1): \(summary.regionRecords) of \(summary.recordCount) records are in one of \(summary.regionCount) regions")
        }
        if let countries {
            Output.error("mmsearch build: countries from \(countries): \(summary.countryRecords) of \(summary.recordCount) records are in one of \(summary.countryCount) countries")
        }
        if let alternateNames {
            Output.error("mmsearch build: other names from \(alternateNames): \(summary.alternateNamesOfRecords) of cities, \(summary.qualifierNameCount) qualifier names of countries and regions")
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let counted = [summary.alternateCount > 0 ? "\(summary.alternateCount) other names" : nil,
                       summary.spellingCount > 0 ? "\(summary.spellingCount) spellings" : nil].compactMap { $0 }
        let names = counted.isEmpty ? "" : " (" + counted.joined(separator: ", ") + ")"
        Output.error("mmsearch build: wrote \(output): \(summary.recordCount) records\(names), \(summary.entryCount) search keys, \(summary.fileSize) bytes, in \(formatSeconds(seconds)) s")
    }

    private static func formatSeconds(_ seconds: Double) -> String {
        let milliseconds = Int((seconds * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
