import CMMSearchFormat
import Foundation
import MMSearch
import MMSearchBuilder
import MMSearchTestSupport
import Testing

/// A big node's first page near a point from NEAR_POINTS and NEAR_LISTS ("Near a point" in the
/// format header), on an index built here with more than MMS_NEAR_LIST_THRESHOLD records under "s"
/// (names, other names and words that start with it, records without a display name, scattered over
/// the world, populations of every size): each page equal to the naive scan's (every match read, scored, ordered), and every damage
/// to the two sections or to the lists' part of TOP refused by verify, never a trap. (On the README's
/// index, GeoFirstPageTests compares real keystrokes near their points.)
@Suite struct NearIndexTests {
    static let records: [SourceRecord] = {
        var random = SeededRandom(seed: 31)
        var records: [SourceRecord] = []
        func word() -> String { IndexMutationTests.syllableWord(&random) }
        for number in 0 ..< 1_900 {
            var name: String
            var alternates: [String] = []
            switch number % 10 {
            case 0: name = "Nova S" + word().lowercased() // a word that starts with "s"
            case 1:
                name = word() // another name that starts with "s", typed whole at "s" + its length
                alternates = ["S" + word().lowercased()]
            case 2: name = "S" // a name typed whole at "s"
            case 4 where number % 3 == 0:
                name = "" // no display name: its first other name stands in as its primary name
                alternates = ["S" + word().lowercased()]
            default: name = "S" + word().lowercased() + (number % 7 == 0 ? " " + word() : "")
            }
            let population: UInt32 = number % 5 == 0 ? 0 : number % 97 == 3 ? UInt32.random(in: 1_000_000 ... 9_000_000, using: &random)
                : UInt32.random(in: 1 ... 60_000, using: &random)
            records.append(SourceRecord(id: UInt32(number), name: Array(name.utf8), country: Array(["US", "DE", "FR", "JP", "BR"][number % 5].utf8),
                                        latitudeE7: Int32.random(in: -850_000_000 ... 850_000_000, using: &random),
                                        longitudeE7: Int32.random(in: -1_800_000_000 ... 1_800_000_000, using: &random),
                                        alternateNames: alternates.map { Array($0.utf8) }, population: population))
        }
        return records
    }()

    static let bytes: [UInt8] = try! IndexBuilder.makeIndex(records: records, source: SourceDescription(name: "near.json", size: 0, checksum: 0, builtAt: 0)).bytes

    /// Points over the world: oceans, both poles, both sides of the 180th meridian, and the records' own places.
    static let points: [GeoPoint] = {
        var points = [(0.0, 0.0), (89.9, 10), (-89.9, -170), (10, 179.99), (10, -179.99), (48.85, 2.35), (-33.87, 151.21)].map { try! GeoPoint(latitude: $0.0, longitude: $0.1) }
        points += stride(from: 0, to: records.count, by: 37).map { try! GeoPoint(latitude: Double(records[$0].latitudeE7) / 1e7, longitude: Double(records[$0].longitudeE7) / 1e7) }
        return points
    }()

    /// "s" and "S" reach the node with a list; the others smaller nodes, read entry by entry.
    static let queries = ["s", "S", "sa", "nova"]

    /// What near searches answer on `index`: for each query, point and half distance, the count and the
    /// first two pages (every field of each city), or nil where it threw.
    static func answers(_ index: CityIndex, naive: Bool = false, points: ArraySlice<GeoPoint> = points[...]) -> [String: [City]?] {
        var answers: [String: [City]?] = [:]
        for query in queries {
            for point in points {
                for halfDistance in [10.0, 100, 2_000] {
                    let key = "\(query) near \(point.latitude),\(point.longitude) / \(halfDistance)"
                    do throws(MMSearchError) {
                        let near = try Proximity(point: point, halfDistanceKm: halfDistance)
                        let results = naive ? try index.searchScanningEveryMatch(query, near: near) : try index.search(query, near: near)
                        // The first page alone (what the tree and the list answer), then the next (every match ordered).
                        var cities = try results.cities(in: 0 ..< min(20, results.count)) + results.cities(in: min(20, results.count) ..< min(40, results.count))
                        cities.append(City(id: UInt32(results.count), name: "count", country: "", coordinate: Coordinate(latitudeE7: 0, longitudeE7: 0)))
                        answers[key] = cities
                    } catch {
                        answers[key] = .some(nil)
                    }
                }
            }
        }
        return answers
    }

    @Test func bigNodesHaveTheirListsAndPagesAreTheScans() throws {
        let index = try CityIndex(bytes: Data(Self.bytes), path: "near.mms")
        try index.verify()
        let sections = try index.info().sections
        let lists = try #require(sections.first { $0.name == "near lists" })
        #expect(lists.length >= 16, "no near list: \(lists.length) bytes")
        let fast = Self.answers(index), naive = Self.answers(index, naive: true)
        #expect(fast.count == naive.count && !fast.values.contains { $0 == nil })
        for (key, cities) in fast {
            #expect(cities == naive[key]!, "\(key)")
        }
        // The point decides: most pages at "s" differ from the page without one.
        let plain = try index.search("s").cities(in: 0 ..< 20).map(\.id)
        let moved = fast.filter { $0.key.hasPrefix("s near") && $0.value?.prefix(20).map(\.id) != plain }.count
        #expect(moved * 2 > fast.keys.filter { $0.hasPrefix("s near") }.count, "\(moved) pages near a point differ from the plain one")
    }

    /// What `info` says of the first pages (their entries, the near lists' entries and bytes), read from
    /// the header and the summaries' counts, against the pages a walk of the whole trie finds
    /// (`topPageLayouts`): every page's entries, and the near lists', which are TOP's last.
    @Test func infoCountsThePagesAWalkFinds() throws {
        let index = try CityIndex(bytes: Data(Self.bytes), path: "near.mms")
        let info = try index.info(), pages = try index.topPageLayouts()
        #expect(info.nearListCount > 0 && info.summaryCount > 0 && pages.count > info.nearListCount)
        #expect(info.firstPageEntryCount == pages.reduce(0) { $0 + $1.count })
        let lists = pages.suffix(info.nearListCount)
        #expect(info.nearListedCount == lists.reduce(0) { $0 + $1.count })
        // Pages tile TOP, each stored once (format 28): a page starts where the pages stored before it end,
        // or where an earlier page of as many bits starts (the same bits, read by both nodes).
        var topBits = 0, stored: [Int: Int] = [:]
        for page in pages {
            let bits = page.count * (page.valueWidth + Int(MMS_TOP_RANK_BITS))
            if page.firstBit == topBits {
                stored[topBits] = bits
                topBits += bits
            } else {
                #expect(stored[page.firstBit] == bits, "a page from bit \(page.firstBit), where no page of \(bits) bits was stored; the pages before it end at \(topBits)")
            }
        }
        #expect(info.nearListedBytes == (topBits - lists.first!.firstBit + 7) / 8)
    }

    /// A near list names its entries by their positions among its node's keys wherever a position is
    /// narrower than a name number (format 30): on the real indexes, each such list's values as wide as
    /// its node's positions (`nodeEntries`: read from ENTRIES) and narrower than the header's name
    /// numbers; only the root's (its keys more than 2^(name bits - 1)) keeps name numbers.
    @Test(arguments: [RealInput.list, .joinedRegions])
    func realNearListsHoldPositions(_ input: RealInput) async throws {
        let path = try await RealIndexes.shared.path(input)
        let index = try CityIndex(path: path)
        let lists = try index.topPageLayouts().filter(\.isNearList)
        let nameBits = IndexFile([UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))).entryNameBits
        #expect(lists.count == (try index.info().nearListCount) && lists.count > 100)
        var byName = 0
        for list in lists {
            guard let entries = list.nodeEntries else {
                #expect(list.valueWidth == nameBits)
                byName += 1
                continue
            }
            #expect(entries.count > Int(MMS_NEAR_LIST_THRESHOLD))
            #expect(list.valueWidth == PackedArrays.width(holding: UInt64(entries.count)) && list.valueWidth < nameBits,
                    "a near list at a node of \(entries.count) keys, \(list.valueWidth) bits an entry, names in \(nameBits)")
        }
        #expect(byName <= 1, "\(byName) of \(lists.count) near lists hold name numbers")
    }

    /// The same records without populations (a list alone): NEAR_POINTS holds each point's record
    /// number alone, its bound in 0 bits (every one is 0, format 21), and the pages are still the scans'.
    @Test func withoutPopulationsPointsHoldNoBound() throws {
        let records = Self.records.map { record in
            var record = record
            record.population = 0
            return record
        }
        let bytes = try IndexBuilder.makeIndex(records: records, source: SourceDescription(name: "near.json", size: 0, checksum: 0, builtAt: 0)).bytes
        let file = IndexFile(bytes), withPopulations = IndexFile(Self.bytes)
        let recordBits = file.headerValue("record_bits")
        #expect(file.section(MMS_SECTION_NEAR_POINTS).count == PackedArrays.byteCount(count: records.count, width: recordBits))
        #expect(withPopulations.section(MMS_SECTION_NEAR_POINTS).count == PackedArrays.byteCount(count: records.count, width: recordBits + Int(MMS_NEAR_BOUND_BITS)))
        let index = try CityIndex(bytes: Data(bytes), path: "near-unpopulated.mms")
        try index.verify()
        let fast = Self.answers(index, points: Self.points.prefix(12)), naive = Self.answers(index, naive: true, points: Self.points.prefix(12))
        #expect(fast.count == naive.count && !fast.values.contains { $0 == nil })
        for (key, cities) in fast {
            #expect(cities == naive[key]!, "\(key)")
        }
    }

    /// Bytes flipped in NEAR_POINTS' values, NEAR_LISTS and the lists' entries and ranks in TOP (the
    /// checksum fixed up): verify refuses every one, and no search traps (a damaged
    /// bound or cell may change a page, as SPATIAL's cells may; verify is what finds it).
    @Test func damageToTheNearSectionsIsRefused() throws {
        let file = IndexFile(Self.bytes)
        var targets: [(String, Range<Int>)] = []
        let points = file.section(MMS_SECTION_NEAR_POINTS)
        // The values' bytes, not the last (its bits past the values are padding) nor the zero tail.
        targets.append(("near points", points.lowerBound ..< points.upperBound - Int(MMS_PACKED_TAIL) - 1))
        targets.append(("near lists", file.section(MMS_SECTION_NEAR_LISTS)))
        // The lists' entries: TOP from the first list's first bit on (the lists come last in TOP).
        let list = file.section(MMS_SECTION_NEAR_LISTS)
        let firstBit = Int(file.load(at: list.lowerBound + MemoryLayout<mms_near_list>.offset(of: \.top_first)!, width: 4))
        let top = file.section(MMS_SECTION_TOP)
        targets.append(("near list entries and ranks", top.lowerBound + firstBit / 8 + 1 ..< top.upperBound - Int(MMS_PACKED_TAIL) - 1))
        var random = SeededRandom(seed: 32)
        for (name, range) in targets {
            #expect(!range.isEmpty, "\(name)")
            for _ in 0 ..< FullTests.count(quick: 12, full: 60) {
                let offset = Int.random(in: range, using: &random), mask = UInt8(1) << UInt8.random(in: 0 ..< 8, using: &random)
                var bytes = file.bytes
                bytes[offset] ^= mask
                let damaged = IndexFile(bytes).withChecksumFixed()
                guard let index = try? CityIndex(bytes: Data(damaged), path: "damaged.mms") else { continue }
                #expect(throws: MMSearchError.self, "\(name): byte \(offset) ^ \(mask) verified") { try index.verify() }
                _ = Self.answers(index, points: Self.points.prefix(4)) // throws or answers, never traps
            }
        }
    }
}
