@testable import MMSearch
import MMSearchTestSupport
import Testing

/// The country cursor the typo walk asks "any of the country's entries here?" (`firstPosition`,
/// `hasPosition`) decodes a run's gamma codes many at a time from one load: compared, on the README's
/// index, with the run's positions as `positions(of:in:)` reads them one by one, for starts that go
/// forward by small steps (inside a block), by large ones (past whole blocks), and now and then back
/// (the cursor starts again from the block holding the start), in countries with many entries and
/// with few.
@Suite struct CountryCursorTests {
    @Test func firstPositionsAreTheRunsOwn() async throws {
        let index = try CityIndex(path: try await RealIndexes.shared.path(.joinedRegions))
        let countries = ["US", "DE", "FR", "IN", "BR", "NZ", "IS", "LI", "VA"]
        var random = SeededRandom(seed: 22)
        var asked = 0, insideBlocks = 0, backwards = 0
        for country in countries {
            try index.withBytes { (bytes: _IndexBytes) throws(MMSearchError) in
                guard let runs = try bytes.countryRuns(bytes.resolve(GeoFilter(countries: [country]))), runs.count == 1 else {
                    Issue.record("\(country): no run")
                    return
                }
                let entries = bytes.layout.entryCount
                let positions = try bytes.positions(of: runs, in: 0 ..< entries)
                #expect(positions.count == runs[0].positionCount, "\(country): \(positions.count) positions read one by one, the run says \(runs[0].positionCount)")
                /// The reference: the first position at or after `start`, by binary search.
                func expected(_ start: Int) -> Int? {
                    var low = 0, high = positions.count
                    while low < high {
                        let middle = (low + high) / 2
                        if positions[middle] < start { low = middle + 1 } else { high = middle }
                    }
                    return low < positions.count ? positions[low] : nil
                }
                var cursor = _IndexBytes.CountryCursor(runs[0])
                var cursors = [_IndexBytes.CountryCursor(runs[0])]
                var start = 0
                for _ in 0 ..< FullTests.count(quick: 3_000, full: 30_000) {
                    switch Int.random(in: 0 ..< 20, using: &random) {
                    case 0: // back
                        start = Int.random(in: 0 ... start, using: &random)
                        backwards += 1
                    case 1 ... 4: // past blocks
                        start += Int.random(in: 1 ... entries / 50, using: &random)
                    default: // near: a few of the run's positions on
                        start += Int.random(in: 0 ... 40, using: &random)
                        insideBlocks += 1
                    }
                    if start >= entries { start = Int.random(in: 0 ..< entries, using: &random) }
                    let found = try bytes.firstPosition(&cursor, atOrAfter: start)
                    #expect(found == expected(start), "\(country): the first position at or after \(start) is \(found.map(String.init) ?? "none"), not \(expected(start).map(String.init) ?? "none")")
                    let end = start + Int.random(in: 1 ... 200, using: &random)
                    let has = try bytes.hasPosition(&cursors, in: start ..< end)
                    #expect(has == (expected(start).map { $0 < end } ?? false), "\(country): a position in \(start) ..< \(end)")
                    asked += 1
                }
            }
        }
        #expect(asked == countries.count * FullTests.count(quick: 3_000, full: 30_000) && backwards > 100 && insideBlocks > 1_000)
    }
}
