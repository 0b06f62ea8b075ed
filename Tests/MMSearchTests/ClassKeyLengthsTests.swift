import CMMSearchFormat
import Foundation
@testable import MMSearch
import MMSearchTestSupport
import Testing

/// A search's walk for its matches' classes (`keyLengths(under:for:)`) leaves out the keys
/// whose name part is longer than twice the query, without reading them: below twice the query's
/// length it enters only nodes whose path has a country tail's ',' in the last places. Compared, on
/// the README's index, with the walk that reads every key's length: for every entry under each
/// prefix, the same class (`Ranking.matchClass`) from either length, and the same length wherever
/// the pruned walk gives one. Prefixes: the first one to four bytes of typing-queries.txt's folded
/// lines, and some that end at or inside a country tail ("paris, ", "sa, r"). A prefix with no ','
/// is walked a second time as one (`commaFree`), which enters fewer nodes, and compared the same way.
@Suite struct ClassKeyLengthsTests {
    @Test func prunedWalkGivesEveryClassTheFullWalkGives() async throws {
        let index = try CityIndex(path: try await RealIndexes.shared.path(.joinedRegions))
        let lines = try String(contentsOfFile: RealData.typingQueries, encoding: .utf8).split(separator: "\n")
        var prefixes = Set<[UInt8]>()
        for line in lines.prefix(FullTests.count(quick: 400, full: 4_000)) {
            let folded = Folding.fold(String(line))
            for length in 1 ... 4 where length <= folded.count { prefixes.insert(Array(folded.prefix(length))) }
        }
        for extra in ["paris, ", "paris, f", "sa, r", "a, ", "l", "", "москва", "東"] { prefixes.insert(Folding.fold(extra)) }
        var compared = 0, pruned = 0, deepestOnly = 0, commaFreeCompared = 0, commaFreePruned = 0
        try index.withBytes { (bytes: _IndexBytes) throws(MMSearchError) in
            for prefix in prefixes.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                guard let located = try prefix.withRawBytes({ (query) throws(MMSearchError) in try bytes.locate(query) }) else { continue }
                let full = try bytes.keyLengths(under: located)
                let forClasses = try bytes.keyLengths(under: located, for: .init(queryLength: prefix.count))
                let commaFree = prefix.contains(UInt8(ascii: ",")) ? nil : try bytes.keyLengths(under: located, for: .init(query: prefix))
                // What the walk bounded by depth alone (2q + 4) would have left out.
                var measured = 0
                try bytes.forEachNode(under: located, deepest: _IndexBytes.ClassKeys(queryLength: prefix.count).deepest) { (_, own) in measured += own.count }
                deepestOnly += located.entries.count - measured
                for offset in full.indices {
                    let position = located.entries.lowerBound + offset
                    let value = try bytes.entry(position)
                    let kind = value >> MMS_ENTRY_KIND_SHIFT
                    let owner = try bytes.owner(ofEntry: value, at: 0)
                    func matchClass(_ length: Int32) throws(MMSearchError) -> UInt32 {
                        Ranking.matchClass(kind: kind, queryLength: prefix.count,
                                           nameLength: length == .max ? Int(length) : try bytes.nameLength(ofKey: Int(length), record: owner.record))
                    }
                    compared += 1
                    if forClasses[offset] == .max { pruned += 1 } else {
                        #expect(forClasses[offset] == full[offset], "\(String(decoding: prefix, as: UTF8.self)): entry \(position)'s length")
                    }
                    let fullClass = try matchClass(full[offset]), prunedClass = try matchClass(forClasses[offset])
                    #expect(prunedClass == fullClass,
                            "\(String(decoding: prefix, as: UTF8.self)): entry \(position) (key length \(full[offset])) has class \(fullClass), the pruned walk gives \(prunedClass)")
                    if let commaFree {
                        commaFreeCompared += 1
                        if commaFree[offset] == .max { commaFreePruned += 1 } else {
                            #expect(commaFree[offset] == full[offset], "\(String(decoding: prefix, as: UTF8.self)): entry \(position)'s length, comma-free walk")
                        }
                        let commaFreeClass = try matchClass(commaFree[offset])
                        #expect(commaFreeClass == fullClass,
                                "\(String(decoding: prefix, as: UTF8.self)): entry \(position) (key length \(full[offset])) has class \(fullClass), the comma-free walk gives \(commaFreeClass)")
                    }
                }
            }
        }
        // The ',' rule must have left out keys the depth alone keeps, or this compares nothing it does.
        #expect(compared > 1_000_000 && pruned > deepestOnly, "\(compared) entries compared, \(pruned) left out, \(deepestOnly) by depth alone")
        // The comma-free walk must leave out keys the other keeps (those under the children it does not enter).
        #expect(commaFreeCompared > 1_000_000 && commaFreePruned > pruned * commaFreeCompared / compared,
                "\(commaFreeCompared) entries compared comma-free, \(commaFreePruned) left out")
    }
}

/// The typo fallback's walk reads a matched subtree's key lengths as deep as the classes need
/// (`ClassKeys` of the query, or of `shortestName`) and gives the keys below Int32.max, their records
/// unread. Compared, on the README's index, with every entry's length from a walk of the whole trie:
/// each entry the typo walk finds, alone and within a country (its runs, as a `--country` search
/// walks them), has that length, or Int32.max where the length gives the same class as Int32.max (a
/// name part longer than twice the query, never one a shorter name would turn away). Queries: the
/// lines of typing-typos.txt that match nothing as typed, within one typo and, from 8 scalars, two.
@Suite struct TypoKeyLengthsTests {
    @Test func typoWalkGivesEveryClassTheWholeTrieGives() async throws {
        let index = try CityIndex(path: try await RealIndexes.shared.path(.joinedRegions))
        let lines = try String(contentsOfFile: RealData.typingTypos, encoding: .utf8).split(separator: "\n")
        var compared = 0, pruned = 0, withinCompared = 0
        try index.withBytes { (bytes: _IndexBytes) throws(MMSearchError) in
            guard let root = try [UInt8]().withRawBytes({ (query) throws(MMSearchError) in try bytes.locate(query) }),
                  let within = try bytes.countryRuns(bytes.resolve(GeoFilter(countries: ["US"]))) else {
                Issue.record("the README's index has no root or no US entries")
                return
            }
            let full = try bytes.keyLengths(under: root)
            for line in lines.prefix(FullTests.count(quick: 300, full: 3_000)) {
                let folded = Folding.fold(String(line)), scalars = _IndexBytes.scalars(of: folded)
                guard scalars.count >= 4, try bytes.plan(folded, match: .words, order: .rank).count == 0 else { continue }
                for (maximum, shortest) in [(1, 4), (2, 8)] where scalars.count >= shortest {
                    for runs in [nil, within] {
                        var visited = 0, subtrees = 0
                        let found = try bytes.typoMatches(scalars, queryLength: folded.count, maximum: maximum, visited: &visited, subtrees: &subtrees, within: runs)
                        #expect(Set(found.map(\.position)).count == found.count, "\(line): an entry found twice")
                        for (position, length) in found {
                            let value = try bytes.entry(position)
                            let owner = try bytes.owner(ofEntry: value, at: 0)
                            func matchClass(_ length: Int) throws(MMSearchError) -> UInt32 {
                                Ranking.matchClass(kind: value >> MMS_ENTRY_KIND_SHIFT, queryLength: folded.count,
                                                   nameLength: length == Int(Int32.max) ? length : try bytes.nameLength(ofKey: length, record: owner.record))
                            }
                            let exact = Int(full[position])
                            if runs == nil { compared += 1 } else { withinCompared += 1 }
                            if length == Int(Int32.max) {
                                pruned += 1
                                // Left unread only past twice the query: past the shortest name the walk may keep.
                                #expect(try bytes.nameLength(ofKey: exact, record: owner.record) > 2 * folded.count, "\(line): entry \(position) (key length \(exact)) is given Int32.max")
                                #expect(try matchClass(exact) == matchClass(length), "\(line): entry \(position) (key length \(exact)) is given Int32.max and another class")
                            } else {
                                #expect(length == exact, "\(line): entry \(position) has key length \(exact), the typo walk gives \(length)")
                            }
                        }
                    }
                }
            }
        }
        // The walk must have left keys out, alone and in a country, or this compares nothing it does.
        #expect(compared > 10_000 && withinCompared > 1_000 && pruned > compared / 10,
                "\(compared) entries compared, \(withinCompared) within a country, \(pruned) given Int32.max")
    }
}
