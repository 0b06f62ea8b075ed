@testable import MMSearch
import Foundation
import MMSearchTestSupport
import Testing

/// A reverse lookup keeps candidates by their cells (`_HaversineBound.a(cell:)` from below,
/// `upperA(cell:)` from above) and measures only the ones that may be among the nearest: both bounds
/// checked against the `a` the search computes (`Haversine.a`, the same doubles) for coordinates all
/// over their cells (corners, edges, inside), from points all over the sphere: the poles, both sides
/// of the 180th meridian, the cell's own corner, its point's opposite, and random ones. A cell is a
/// place's in a box around it (`_SpatialBox.cellNumbers`, `cell`), so of every size a k-d tree's boxes
/// give: the world's (kilometres), and boxes down to a few metres.
@Suite struct CellBoundsTests {
    static func units(_ degrees: Double) -> Int32 { Int32((degrees * 1e7).rounded()) }

    @Test func cellBoundsHoldTheExactDistance() throws {
        var random = SeededRandom(seed: 2026)
        let scale = Double(Coordinate.scale)
        var places: [(Int32, Int32)] = [(900_000_000, 0), (-900_000_000, 1_800_000_000), (899_999_999, -1_800_000_000), (0, 1_799_999_999),
                                        (0, -1_800_000_000), (-165_000_000, 1_799_990_000), (488_534_100, 23_488_000), (1, 1), (-1, -1)]
        for _ in 0 ..< 400 {
            let latitude = asin(2 * Double.random(in: 0 ... 1, using: &random) - 1) * 180 / .pi
            places.append((Self.units(latitude), Self.units(Double.random(in: -180 ... 180, using: &random))))
        }
        var checked = 0, tightest = Double.infinity
        let world = _SpatialBox.world
        for (number, place) in places.enumerated() {
            // Boxes around the place, their spans in 1e-7 degree (0: the world), cut where the place is.
            for span in [0, 400_000_000, 10_000_000, 300_000, 20_000] as [Int64] {
                var box = world
                if span > 0 {
                    func edges(_ value: Int32, _ low: Int32, _ high: Int32) -> (Int32, Int32) {
                        let below = Int64.random(in: 0 ... span, using: &random)
                        return (Int32(Swift.max(Int64(low), Int64(value) - below)), Int32(Swift.min(Int64(high), Int64(value) + span - below)))
                    }
                    (box.south, box.north) = edges(place.0, world.south, world.north)
                    (box.west, box.east) = edges(place.1, world.west, world.east)
                }
                let numbers = box.cellNumbers(latitude: place.0, longitude: place.1)
                let cell = box.cell(latitude: numbers.latitude, longitude: numbers.longitude)
                #expect(cell.contains(latitude: place.0, longitude: place.1) && box.south <= cell.south && cell.north <= box.north && box.west <= cell.west && cell.east <= box.east)
                // Coordinates of the cell: its corners, its place, and random ones inside.
                var inside = [(cell.south, cell.west), (cell.south, cell.east), (cell.north, cell.west), (cell.north, cell.east), place]
                for _ in 0 ..< 4 { inside.append((Int32.random(in: cell.south ... cell.north, using: &random), Int32.random(in: cell.west ... cell.east, using: &random))) }
                // Points: fixed hard ones, the cell's own, its opposite, and random ones (some near it).
                var points: [(Double, Double)] = [(90, 0), (-90, 0), (0, 180), (0, -180), (-16.5, 179.9999), (-16.5, -179.9999)]
                let latitude = Double(place.0) / scale, longitude = Double(place.1) / scale
                points.append((latitude, longitude))
                points.append((-latitude, longitude > 0 ? longitude - 180 : longitude + 180))
                points.append((Swift.min(90, latitude + 0.0003), longitude))
                for _ in 0 ..< 6 {
                    let near = number % 2 == 0
                    points.append(near ? (Swift.max(-90, Swift.min(90, latitude + Double.random(in: -0.01 ... 0.01, using: &random))),
                                          Swift.max(-180, Swift.min(180, longitude + Double.random(in: -0.01 ... 0.01, using: &random))))
                                       : (Double.random(in: -90 ... 90, using: &random), Double.random(in: -180 ... 180, using: &random)))
                }
                for point in points {
                    let haversine = Haversine(latitude: point.0, longitude: point.1)
                    let bound = _HaversineBound(haversine)
                    let low = bound.a(cell: cell), high = bound.upperA(cell: cell)
                    for coordinate in inside {
                        let a = haversine.a(latitude: Double(coordinate.0) / scale, longitude: Double(coordinate.1) / scale)
                        #expect(!_HaversineBound.exceeds(low, a), "lower bound \(low) > a \(a): point \(point), coordinate \(coordinate)")
                        #expect(a <= high, "upper bound \(high) < a \(a): point \(point), coordinate \(coordinate)")
                        if a > 1e-6 { tightest = Swift.min(tightest, high / a) }
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 250_000)
        // Not vacuous: the upper bound is close where it matters (a point far from a cell of a few metres).
        #expect(tightest < 1.000_01, "the upper bound is at best \(tightest) of a")
    }
}
