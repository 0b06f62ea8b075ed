import CMMSearchFormat
import Foundation
@testable import MMSearch
import MMSearchBuilder
import MMSearchTestSupport
import Testing

/// Since format 16 a spelling is stored as one of six forms of a name in NAMES ("Spellings"), and a
/// reader writes it out. Each record's spellings, read back, must be the ones the reference
/// (`RankedReference.spellings`, rank.py's rules written apart) makes from its names, in its order:
/// the same folds (so the same keys), and the same texts but where the index shows the name a spelling
/// is made from in another text of the same fold (of which the fixture has some).
@Suite struct SpellingFormsTests {
    /// Names with periods, hyphens and the words either table knows, some with other names given first
    /// in one text and more often in another ("Saint-etienne" once, "Saint-Étienne" twice).
    static let records: [SourceRecord] = {
        let names = ["Saint Paul", "St. Louis", "Sault Ste. Marie", "Winston-Salem", "Mount Pleasant", "Fort-de-France", "Ste-Foy",
                     "Port Louis", "Sankt Gallen", "Santa Cruz", "Mt. Vernon", "Ft. Worth", "Point Fortin", "D.C.", "Plain", "Saint-Étienne"]
        var records: [SourceRecord] = []
        for (number, name) in names.enumerated() {
            var alternates: [String] = []
            switch number % 4 {
            case 0: alternates = ["\(name)-sur-Mer", "St-\(name)"]
            case 1: alternates = ["Saint-etienne \(number)", "Saint-Étienne \(number)", "Saint-Étienne \(number)"]
            case 2: alternates = ["mount-\(number)", "Mount-\(number)", "MOUNT-\(number)", "MOUNT-\(number)"]
            default: alternates = []
            }
            records.append(SourceRecord(id: UInt32(number + 1), name: Array(name.utf8), country: Array("US".utf8), latitudeE7: Int32(number) * 10_000,
                                        longitudeE7: 0, alternateNames: alternates.map { Array($0.utf8) }, population: UInt32(100 * number)))
        }
        return records
    }()

    @Test func spellingsReadBackAsTheReferenceMakesThem() throws {
        let bytes = try IndexBuilder.makeIndex(records: Self.records, source: SourceDescription(name: "spellings", size: 0, checksum: 0, builtAt: 0)).bytes
        let index = try CityIndex(bytes: Data(bytes))
        try index.verify()
        let byID = Dictionary(uniqueKeysWithValues: Self.records.map { record in
            (record.id, ReferenceRecord(id: record.id, name: String(decoding: record.name, as: UTF8.self), country: "US",
                                        alternateNames: record.alternateNames.map { String(decoding: $0, as: UTF8.self) }))
        })
        var spellings = 0, shownOtherwise = 0
        try index.withBytes { (raw: _IndexBytes) throws(MMSearchError) in
            for record in 0 ..< raw.layout.recordCount {
                var given: [String] = [], spelled: [String] = []
                try raw.forEachName(ofRecord: record) { text, kind in
                    let name = String(decoding: text, as: UTF8.self)
                    if kind == MMS_KIND_SPELLING.rawValue { spelled.append(name) } else { given.append(name) }
                }
                let reference = byID[try raw.record(record).id]!
                let kept = RankedReference.keptNames(reference).names
                let expected = RankedReference.spellings(of: kept)
                #expect(spelled.map { Folding.fold($0) } == expected.map { Folding.fold($0) }, "\(reference.name): \(spelled) for \(expected)")
                for (text, wanted) in zip(spelled, expected) where text != wanted {
                    // Only a name shown in another text than the one given first makes a spelling shown so.
                    #expect(given != kept, "\(reference.name): \(text) for \(wanted), its names shown as given first: \(given)")
                    shownOtherwise += 1
                }
                spellings += spelled.count
            }
        }
        #expect(spellings > 40 && shownOtherwise > 0, "\(spellings) spellings, \(shownOtherwise) shown otherwise")
    }
}
