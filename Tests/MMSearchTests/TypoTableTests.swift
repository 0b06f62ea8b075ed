@testable import MMSearch
import MMSearchTestSupport
import Testing

/// The typo walk's table keeps each row as bit sets over its band (`_TypoTable`): checked, every cell,
/// against the whole optimal-string-alignment table (`RankedReference.distances`) on random queries
/// and keys, pushed and popped as a walk down and back up a trie does. Some queries and keys are long
/// (60 to 90 scalars, the walk going 70 deep), and they mix ASCII with scalars of two to four bytes.
@Suite struct TypoTableTests {
    static let alphabet: [Unicode.Scalar] = ["a", "b", "c", "n", "é", "ж", "ß", "😀"]

    @Test(arguments: [1, 2, 3])
    func rowsAreTheWholeTablesBand(maximum: Int) {
        var random = SeededRandom(seed: 50 + UInt64(maximum))
        var cells = 0, within = 0, pruned = 0, deepest = 0
        for round in 0 ..< 300 {
            let length = round % 10 == 0 ? Int.random(in: 60 ... 90, using: &random) : Int.random(in: 1 ... 12, using: &random)
            // Few letters, and keys that mostly follow the query, so that many cells are within the typos.
            let letters = Array(Self.alphabet.shuffled(using: &random).prefix(Int.random(in: 2 ... 4, using: &random)))
            let query = (0 ..< length).map { _ in letters.randomElement(using: &random)! }
            var table = _TypoTable(query: query.map(\.value), maximum: maximum)
            var key: [Unicode.Scalar] = []
            var goesOn = true
            for _ in 0 ..< 3 * length + 20 {
                // Back up the trie now and then, as the walk does between siblings, and always where
                // the branch ended (the walk never goes below a dead branch or a match).
                if !key.isEmpty, !goesOn || Int.random(in: 0 ..< (length > 50 ? 40 : 4), using: &random) == 0 {
                    key.removeLast(Int.random(in: 1 ... (Bool.random(using: &random) ? min(key.count, 3) : key.count), using: &random))
                    table.pop(to: key.count)
                }
                if table.depth != key.count { Issue.record("depth \(table.depth), key \(key.count)"); return }
                // What the table says the next scalar may be when no typo is left.
                var next: Set<UInt32> = []
                if !table.hasTypoLeft {
                    table.onlyNext { next.insert(query[$0].value) }
                    // Pruned by `onlyNext`: a scalar it does not name would leave no cell within `maximum`.
                    for other in letters where !next.contains(other.value) {
                        #expect(RankedReference.distances(key + [other], toPrefixesOf: query).min()! > maximum, "\(query) \(key): \(other) was not a possible next scalar")
                        pruned += 1
                    }
                }
                // Mostly the query's next scalar (in long queries more so, to go deep), else any letter.
                let typo = Int.random(in: 0 ..< (length > 50 ? 12 : 3), using: &random) == 0
                let scalar = !typo && key.count < query.count ? query[key.count] : letters.randomElement(using: &random)!
                let (alive, matched) = table.push(scalar.value)
                key.append(scalar)
                goesOn = alive
                deepest = max(deepest, key.count)
                // Every cell of the row against the whole table: within `maximum` exactly where the band says so.
                let d = key.count
                var anyWithin = false, anyBelow = false
                let row = RankedReference.distances(key, toPrefixesOf: query)
                for j in 0 ... query.count {
                    let distance = row[j]
                    let k = j - d + maximum
                    #expect(table.isWithin(queryPrefix: j) == (distance <= maximum), "\(query) \(key) j \(j)")
                    if k >= 0, k < 2 * maximum + 1 {
                        cells += 1
                        if distance <= maximum { within += 1 }
                    } else {
                        #expect(distance > maximum, "\(query) \(key) j \(j) outside the band")
                    }
                    anyWithin = anyWithin || distance <= maximum
                    anyBelow = anyBelow || distance < maximum
                }
                let isMatch = row[query.count] <= maximum
                let firstEqual = key[0] == query[0]
                #expect(matched == (firstEqual && isMatch), "\(query) \(key) matched")
                #expect(alive == (firstEqual && anyWithin && !isMatch), "\(query) \(key) alive")
                #expect(table.hasTypoLeft == anyBelow, "\(query) \(key) typo left")
            }
        }
        #expect(cells > 20_000 && within > cells / 20 && pruned > 100 && deepest > 70, "\(cells) cells, \(within) within, \(pruned) pruned, \(deepest) deepest")
    }

    /// The table is made for the deepest a walk goes (a dead row ends a branch); a caller that pushes
    /// on below dead rows, several times that deep, gets rows grown to hold them, each still the band
    /// of the whole table (all cells outside the query, so nothing within), and the rows above intact.
    @Test(arguments: [1, 2])
    func rowsPastDeadRowsGrow(maximum: Int) {
        let query: [Unicode.Scalar] = ["a", "é", "b"]
        var table = _TypoTable(query: query.map(\.value), maximum: maximum)
        var key: [Unicode.Scalar] = []
        for round in 0 ..< 40 {
            let scalar = query[round % query.count]
            let (alive, matched) = table.push(scalar.value)
            key.append(scalar)
            let row = RankedReference.distances(key, toPrefixesOf: query)
            for j in 0 ... query.count {
                #expect(table.isWithin(queryPrefix: j) == (row[j] <= maximum), "\(key) j \(j)")
            }
            #expect(alive == (row.contains { $0 <= maximum } && row[query.count] > maximum), "\(key) alive")
            #expect(matched == (row[query.count] <= maximum), "\(key) matched")
        }
        // Back up to a row made before any growth: it is the one pushed then.
        table.pop(to: 2)
        let row = RankedReference.distances(Array(key.prefix(2)), toPrefixesOf: query)
        for j in 0 ... query.count { #expect(table.isWithin(queryPrefix: j) == (row[j] <= maximum), "popped, j \(j)") }
        #expect(table.depth == 2)
    }
}
