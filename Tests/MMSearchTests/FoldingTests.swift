import CMMSearchFold
import Foundation
import MMSearch
import Testing

@Suite struct FoldingTests {
    private func folded(_ text: some StringProtocol) -> String {
        String(decoding: Folding.fold(text), as: UTF8.self)
    }

    private func foldedUTF8(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        bytes.withUnsafeBufferPointer { Folding.append(foldingUTF8: $0, to: &output) }
        return output
    }

    // MARK: The rules of fold.py

    @Test func dropsAccents() {
        #expect(folded("São Paulo") == "sao paulo")
        #expect(folded("Hà Nội") == "ha noi")
    }

    @Test func spellsOutLettersWithoutDecomposition() {
        #expect(folded("Łódź") == "lodz")
        #expect(folded("Æ") == "ae")
        #expect(folded("Œuvre Þórshöfn Đakovo Ærø") == "oeuvre thorshofn dakovo aero")
    }

    @Test func apostrophesAndDashesFoldToASCII() {
        #expect(folded("’s-Hertogenbosch") == folded("'s-Hertogenbosch"))
        #expect(folded("Mar’ina Roshcha") == "mar'ina roshcha")
        #expect(folded("Ivano–Frankivsk — “Ukraine”") == "ivano-frankivsk - \"ukraine\"")
    }

    @Test func caseFoldsFully() {
        #expect(folded("İstanbul") == folded("istanbul"))
        #expect(folded("Straße") == "strasse")
        #expect(folded("ΣΊΣΥΦΟΣ") == folded("σίσυφος"))
    }

    @Test func decomposesCompatibilityForms() {
        #expect(folded("\u{FB01}") == "fi")
        #expect(folded("ＡＢＣ１２３") == "abc123")
        #expect(folded("\u{00A0}") == " ")
    }

    @Test func combiningMarksVanish() {
        #expect(folded("e\u{301}") == "e")
        #expect(folded("\u{301}\u{308}\u{FE0F}").isEmpty)
        #expect(Folding.fold("\u{301}") == [])
    }

    @Test func asciiFoldsOnlyUppercaseLetters() {
        let ascii = (0 ..< 128).map { UInt8($0) }
        let expected = ascii.map { (0x41 ... 0x5A).contains($0) ? $0 + 0x20 : $0 }
        #expect(foldedUTF8(ascii) == expected)
    }

    /// `mms_fold_is_ascii_free` pages, which let a qualifier match skip names without folding them:
    /// no scalar of a flagged page folds to an ASCII byte, and each unflagged page (ASCII's own too) has
    /// one that does (so the flags leave out no page they could hold). Every scalar, folded alone.
    @Test func asciiFreePagesFoldToNoASCIIByte() {
        var flagged = 0
        for page in UInt32(0) ..< 0x1100 {
            let isFree = mms_fold_is_ascii_free(page << 8) != 0
            var foldsToASCII = false
            for scalar in page << 8 ..< (page + 1) << 8 {
                guard let unicode = Unicode.Scalar(scalar) else { continue } // surrogates
                #expect((mms_fold_is_ascii_free(scalar) != 0) == isFree)
                if folded(String(unicode)).utf8.contains(where: { $0 < 0x80 }) { foldsToASCII = true }
            }
            #expect(isFree != foldsToASCII, "page \(page): flagged \(isFree), a scalar folds to ASCII: \(foldsToASCII)")
            if isFree { flagged += 1 }
        }
        #expect(flagged > 4_000) // Cyrillic, Arabic, CJK, Hangul... (4,323 in Unicode 14)
        #expect(mms_fold_is_ascii_free(0x110000) == 0)
    }

    @Test func foldHasNoASCIIWordOnlyForScalarsOfASCIIFreePagesAndSeparators() {
        func check(_ text: String) -> Bool {
            Array(text.utf8).withUnsafeBufferPointer { Folding.foldHasNoASCIIWord(utf8: $0) }
        }
        #expect(check("Москва"))
        #expect(check("Санкт-Петербург (город)"))
        #expect(check("東京"))
        #expect(check(""))
        #expect(!check("Москва 2"))           // a digit
        #expect(!check("München"))            // ASCII letters
        #expect(!check("Ｔｏｋｙｏ"))         // fullwidth letters fold to ASCII
        #expect(!check("Αθήνα"))              // Greek's page holds ";" (U+037E) and so is not flagged
        #expect(![UInt8]([0xD0]).withUnsafeBufferPointer { Folding.foldHasNoASCIIWord(utf8: $0) }) // read as U+FFFD
        // Wherever it says so, the fold has no ASCII byte but separators.
        for text in ["Кызыл-Орда", "القاهرة", "서울", "Ереван / Երևան", "תל אביב-יפו"] where check(text) {
            #expect(!folded(text).utf8.contains { $0 < 0x80 && !WordStarts.isSeparator($0) }, "\(text)")
        }
    }

    @Test func foldingIsConcatenative() {
        let pieces = ["São ", "e\u{301}", "\u{301}", "Łódź", "İ", "ß", "서울", "𝐀😀", "ﬁ", "", "Hurzuf", "\u{FFFD}"]
        for first in pieces {
            for second in pieces {
                #expect(Folding.fold(first + second) == Folding.fold(first) + Folding.fold(second))
            }
        }
    }

    @Test func foldsLongerThanTheirInputGrowTheOutput() {
        #expect(folded("½") == "1\u{2044}2")
        #expect(folded("㍿") == "株式会社")
        let growing = ["½", "㍿", "서울", "\u{FDFA}", "a", "ẞ"]
        for piece in growing {
            let repeated = String(repeating: piece + "X", count: 40)
            #expect(Folding.fold(repeated) == Array(repeating: Folding.fold(piece) + [0x78], count: 40).flatMap { $0 })
        }
    }

    @Test func substringsFoldLikeStrings() {
        let text = "Ærø, Danmark"
        let name = text[..<text.firstIndex(of: ",")!]
        #expect(Folding.fold(name) == Folding.fold(String(name)))
        #expect(folded(name) == "aero")
    }

    @Test func appendKeepsWhatIsThere() {
        var output = Array("x|".utf8)
        Folding.append(folding: "Łódź", to: &output)
        #expect(output == Array("x|lodz".utf8))
    }

    @Test func keyJoinsNameAndCountry() {
        #expect(Folding.key(name: "Hurzuf", country: "UA") == Array("hurzuf, ua".utf8))
        #expect(Folding.key(name: "Łódź", country: "PL") == Array("lodz, pl".utf8))
        #expect(Folding.key(name: "Europe", country: "") == Folding.fold("Europe"))
        #expect(Folding.key(name: "", country: "") == [])
    }

    @Test func unicodeVersionIsReported() {
        let parts = Folding.unicodeVersion.split(separator: ".")
        #expect(parts.count == 3 && parts.allSatisfy { Int($0) != nil }, "\(Folding.unicodeVersion)")
    }

    // MARK: The UTF-8 variant is String(decoding:) followed by fold

    @Test(arguments: [
        [0xFF], [0x80], [0xC0, 0x80], [0xC1, 0xBF], [0xC2], [0xC2, 0x41], [0xE0, 0x80, 0x80], [0xE0, 0xA0],
        [0xE0, 0xA0, 0x41], [0xED, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEF, 0xBF, 0xBD], [0xF0, 0x8F, 0xBF, 0xBF],
        [0xF0, 0x90, 0x80], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80],
        [0xF5, 0x80, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0x41, 0xC3], [0xC3, 0x85, 0xC3],
        [0xE2, 0x80, 0x99, 0xE2, 0x80], [0xC3, 0xC3, 0x85], [0x80, 0x80, 0xC3, 0x9F, 0xBF],
    ] as [[UInt8]])
    func invalidUTF8FoldsAsStringDecodingReadsIt(bytes: [UInt8]) {
        #expect(foldedUTF8(bytes) == Folding.fold(String(decoding: bytes, as: UTF8.self)))
        // fold(utf8:) over an array, a slice of one and a collection with no contiguous storage.
        #expect(Folding.fold(utf8: bytes) == foldedUTF8(bytes))
        #expect(Folding.fold(utf8: ([0x41] + bytes)[1...]) == foldedUTF8(bytes))
        #expect(Folding.fold(utf8: bytes.lazy.map { $0 }) == foldedUTF8(bytes))
    }

    @Test func randomBytesFoldAsStringDecodingReadsThem() {
        // Bytes drawn mostly from UTF-8's lead and continuation ranges, so that near-misses are common.
        let alphabet: [UInt8] = [0x41, 0x7A, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xC3, 0xDF, 0xE0,
                                 0xE1, 0xED, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF, 0xC5, 0x81, 0xE1, 0xBA, 0x9E]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var mismatches: [[UInt8]] = []
        for _ in 0 ..< 20_000 {
            let bytes = (0 ..< next() % 9).map { _ in alphabet[next() % alphabet.count] }
            if foldedUTF8(bytes) != Folding.fold(String(decoding: bytes, as: UTF8.self)) { mismatches.append(bytes) }
        }
        #expect(mismatches.count == 0, "first: \(mismatches.prefix(5))")
    }

    @Test func validUTF8FoldsAsItsString() {
        for text in FoldingReference.trickyStrings {
            #expect(foldedUTF8(Array(text.utf8)) == Folding.fold(text), "\(text.debugDescription)")
        }
    }

    // MARK: Agreement with the reference, shared/peers/fold.py

    @Test func tableHasTheReferencesUnicodeVersion() throws {
        let pythonVersion = try FoldingReference.runPython(
            ["-c", "import sys, unicodedata; sys.stdout.write(unicodedata.unidata_version)"])
        #expect(String(decoding: pythonVersion, as: UTF8.self) == Folding.unicodeVersion,
                "python3's Unicode data differs from the table's: run `python3 tools/gen_fold_table.py` with it")
    }

    @Test func everyCityNameFoldsAsTheReferenceFoldsIt() throws {
        // Printed by python3 so the test needs no JSON parser; names that Python could see as more than one
        // line are left out (none in the list today).
        let dump = """
            import json, sys
            with open(sys.argv[1], encoding="utf-8") as f:
                names = sorted({record["name"] for record in json.load(f)})
            sys.stdout.buffer.write("".join(n + "\\n" for n in names if "".join(n.splitlines()) == n).encode("utf-8"))
            """
        let cityList = try FoldingReference.sharedFile("data/city.list.json")
        let names = FoldingReference.lines(try FoldingReference.runPython(["-c", dump, cityList]))
        #expect(names.count > 160_000, "expected the list's ~162,000 distinct names, python3 printed \(names.count)")
        try FoldingReference.expectAgreement(names + FoldingReference.trickyStrings)
    }

    @Test func asciiAndSampledScalarsFoldAsTheReferenceFoldsThem() throws {
        // All of ASCII but the line separator itself, then every 7th scalar above (surrogates dropped).
        let ascii = (0 ..< 0x80).filter { $0 != 0x0A }
        let scalars = (ascii + stride(from: 0x80, through: 0x10FFFF, by: 7)).compactMap(Unicode.Scalar.init)
        #expect(scalars.count > 150_000)
        try FoldingReference.expectAgreement(scalars.map { String($0) })
    }
}

/// Runs the reference folding, `<package root>/../shared/peers/fold.py`, with python3.
enum FoldingReference {
    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    static let sharedDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // MMSearchTests
        .deletingLastPathComponent() // Tests
        .deletingLastPathComponent() // package root
        .deletingLastPathComponent()
        .appendingPathComponent("shared")

    /// The path of `relativePath` under shared/, which must exist: these tests never pass by skipping.
    static func sharedFile(_ relativePath: String) throws -> String {
        let path = sharedDirectory.appendingPathComponent(relativePath).path
        guard FileManager.default.fileExists(atPath: path) else {
            throw Unavailable(description: "\(path) not found: the repository is cloned with shared/ beside the package")
        }
        return path
    }

    /// One string per class of scalar the table treats differently. None has "\n" in it; the other line
    /// breaks are fine, since fold.py reads standard input split at "\n" only (Python's default on POSIX).
    static let trickyStrings: [String] = [
        "", " ", "\t\u{1}\u{1F}AZaz09!~@[`{\u{7F}",
        "ÀÉÎÕÜÇÑÿ", "ŁłĐđĦħŦŧ", "IıİiĞğŞş", "ÆæŒœÞþƏəØøÐð", "Straße ẞ", "ǅǄǆ", "ŉ", "ſ",
        "’‘ʼ“”–—", "e\u{301}\u{308}", "\u{20DD}", "a\u{200B}b\u{200D}c\u{00AD}d", "\u{FE0F}", "\u{00A0}\u{2003}",
        "Mons-en-Barœ\u{9C}ul", "क्षि", "Ἀθῆναι ΣΊΣΥΦΟΣ ς ΐ", "Москва Йошкар-Ола Ёлки", "և", "שָׁלוֹם",
        "서울", "ᄀ", "東京", "\u{F900}", "ＡＢＣ１２３", "ｶﾞ", "²½№℃™Ⅻ", "\u{FB01}\u{FB02}\u{FB03}\u{FB06}", "ﻻ",
        "\u{212A}\u{212B}\u{2126}", "ꭰꭱᏸ Ꭰ", "𝐀𝐁", "𐐀𐐨", "😀👍🏽🇺🇦", "\u{E000}\u{FFFF}\u{10FFFF}", "\u{FFFD}",
        "ﷺ", "㍿", "Ⓐⓐ", "\u{1E900}", "\u{10400}", "a\rb\u{B}\u{C}\u{1C}\u{85}\u{2028}\u{2029}c",
    ]

    /// Expects Folding.fold of each string to be exactly what fold.py prints for it.
    static func expectAgreement(_ strings: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let foldScript = try sharedFile("peers/fold.py")
        var input: [UInt8] = []
        for string in strings {
            input += string.utf8
            input.append(0x0A)
        }
        let expected = lines(try runPython([foldScript], input: input))
        try #require(expected.count == strings.count,
                     "fold.py printed \(expected.count) lines for \(strings.count)", sourceLocation: sourceLocation)
        var mismatches: [String] = []
        for (text, reference) in zip(strings, expected) {
            let swift = String(decoding: Folding.fold(text), as: UTF8.self)
            if swift != reference {
                mismatches.append("\(scalarCodes(text)): Swift \(scalarCodes(swift)), fold.py \(scalarCodes(reference))")
            }
        }
        #expect(mismatches.count == 0, "\(mismatches.count) of \(strings.count) differ, first: \(mismatches.prefix(10).joined(separator: "; "))",
                sourceLocation: sourceLocation)
    }

    /// Standard output split at "\n" bytes only (Python's own line splitting knows more separators).
    static func lines(_ output: [UInt8]) -> [String] {
        var lines = output.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Runs `python3 arguments…` with `input` on standard input and returns its standard output.
    static func runPython(_ arguments: [String], input: [UInt8] = []) throws -> [UInt8] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mmsearch-fold-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Files rather than pipes: megabytes go each way, and pipes would need concurrent reading and writing.
        let inputFile = directory.appendingPathComponent("stdin")
        let outputFile = directory.appendingPathComponent("stdout")
        let errorFile = directory.appendingPathComponent("stderr")
        try Data(input).write(to: inputFile)
        try Data().write(to: outputFile)
        try Data().write(to: errorFile)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONIOENCODING"] = "utf-8"
        environment["PYTHONUTF8"] = "1"
        process.environment = environment
        let standardInput = try FileHandle(forReadingFrom: inputFile)
        let standardOutput = try FileHandle(forWritingTo: outputFile)
        let standardError = try FileHandle(forWritingTo: errorFile)
        defer { try? standardInput.close(); try? standardOutput.close(); try? standardError.close() }
        process.standardInput = standardInput
        process.standardOutput = standardOutput
        process.standardError = standardError
        do {
            try process.run()
        } catch {
            throw Unavailable(description: "cannot run python3 for the reference folding: \(error)")
        }
        process.waitUntilExit()

        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let errors = String(decoding: try Data(contentsOf: errorFile), as: UTF8.self)
            let hint = process.terminationStatus == 127 ? " (is python3 installed and on PATH?)" : ""
            throw Unavailable(description: "python3 \(arguments.first ?? "") failed with status \(process.terminationStatus)\(hint): \(errors)")
        }
        return Array(try Data(contentsOf: outputFile))
    }

    static func scalarCodes(_ text: String) -> String {
        "[" + text.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ") + "]"
    }
}
