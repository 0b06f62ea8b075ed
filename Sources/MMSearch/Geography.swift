import CMMSearchFormat
#if canImport(FoundationEssentials) && !MMSEARCH_USE_FOUNDATION
import FoundationEssentials // Linux: Foundation without ICU
#else
import Foundation // Apple platforms have no FoundationEssentials; CI compiles this branch on Linux too
#endif

/// A place on the Earth, in degrees: latitude within ±90, longitude within ±180.
///
/// ```swift
/// let columbus = try GeoPoint(latitude: 39.98, longitude: -82.98)
/// columbus.distanceKm(to: try GeoPoint(latitude: 41.5, longitude: -81.69))   // 200.3
/// ```
public struct GeoPoint: Sendable, Hashable {
    public let latitude: Double
    public let longitude: Double

    /// A point; `invalidOptions` when a value is not a finite number within ±90 (latitude) or ±180
    /// (longitude).
    public init(latitude: Double, longitude: Double) throws(MMSearchError) {
        guard latitude.isFinite, abs(latitude) <= 90 else {
            throw .invalidOptions(message: "latitude \(latitude) is not within -90 and 90")
        }
        guard longitude.isFinite, abs(longitude) <= 180 else {
            throw .invalidOptions(message: "longitude \(longitude) is not within -180 and 180")
        }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The point of a coordinate (always within range: the format holds only such).
    public init(_ coordinate: Coordinate) {
        latitude = coordinate.latitude
        longitude = coordinate.longitude
    }

    /// The mean Earth radius the distances use (`shared/peers/rank.py`, "Geography").
    public static let earthRadiusKm = 6371.0088

    /// The great-circle distance in km: the haversine formula on a sphere of `earthRadiusKm`, in the
    /// order rank.py writes it, so that both give the same doubles.
    public func distanceKm(to other: GeoPoint) -> Double {
        Self.haversineKm(latitude, longitude, other.latitude, other.longitude)
    }

    @inline(__always)
    static func haversineKm(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let from = Haversine(latitude: lat1, longitude: lon1)
        return Haversine.km(from.a(latitude: lat2, longitude: lon2))
    }
}

/// The haversine formula from one point, in two steps: `a` (sin²(d / 2R), what a search compares,
/// monotone in the distance) and `km(a)`; the same operations in the same order as
/// `GeoPoint.haversineKm`, which is made of them, so both give the same doubles.
struct Haversine {
    /// Degrees to radians: computed first, as Python's math.radians does.
    static let toRadians = Double.pi / 180
    /// The point's latitude and longitude in radians, and the cosine of its latitude.
    let p1: Double
    let l1: Double
    let cosP1: Double

    @inline(__always)
    init(latitude: Double, longitude: Double) {
        p1 = latitude * Self.toRadians
        l1 = longitude * Self.toRadians
        cosP1 = CMath.cos(p1)
    }

    /// sin²((p2 - p1) / 2) + cos(p1) cos(p2) sin²((l2 - l1) / 2) to the point (`latitude`, `longitude`).
    @inline(__always)
    func a(latitude: Double, longitude: Double) -> Double {
        let p2 = latitude * Self.toRadians, l2 = longitude * Self.toRadians
        let sinP = CMath.sin((p2 - p1) / 2), sinL = CMath.sin((l2 - l1) / 2)
        return sinP * sinP + cosP1 * CMath.cos(p2) * (sinL * sinL)
    }

    /// The distance in km of an `a`.
    @inline(__always)
    static func km(_ a: Double) -> Double { 2 * GeoPoint.earthRadiusKm * CMath.asin(a.squareRoot()) }
}

/// A latitude and longitude box, in Photon's order (west, south, east, north). When `west > east` the
/// box crosses the 180th meridian: longitudes from `west` to 180 and from -180 to `east`.
///
/// ```swift
/// let texas = try BoundingBox(west: -100, south: 30, east: -90, north: 36)
/// let fiji = try BoundingBox(west: 177, south: -19, east: -178, north: -16)   // across 180°
/// ```
public struct BoundingBox: Sendable, Hashable {
    public let west: Double
    public let south: Double
    public let east: Double
    public let north: Double

    /// A box; `invalidOptions` when a value is out of range or `south > north`.
    public init(west: Double, south: Double, east: Double, north: Double) throws(MMSearchError) {
        _ = try GeoPoint(latitude: south, longitude: west)
        _ = try GeoPoint(latitude: north, longitude: east)
        guard south <= north else {
            throw .invalidOptions(message: "the box's south \(south) is above its north \(north)")
        }
        (self.west, self.south, self.east, self.north) = (west, south, east, north)
    }

    /// Whether `latitude` and `longitude` (degrees) lie in the box, its edges included.
    @inline(__always)
    public func contains(latitude: Double, longitude: Double) -> Bool {
        guard south <= latitude, latitude <= north else { return false }
        return west <= east ? (west <= longitude && longitude <= east) : (longitude >= west || longitude <= east)
    }
}

/// A disc on the Earth: the places within `radiusKm` of `center` (the edge included).
public struct GeoCircle: Sendable, Hashable {
    public let center: GeoPoint
    public let radiusKm: Double

    /// `invalidOptions` when the radius is negative or not a number.
    public init(center: GeoPoint, radiusKm: Double) throws(MMSearchError) {
        guard radiusKm >= 0, !radiusKm.isNaN else {
            throw .invalidOptions(message: "the radius \(radiusKm) km is not a number of at least 0")
        }
        self.center = center
        self.radiusKm = radiusKm
    }
}

/// Which cities a search may answer (`shared/peers/rank.py`, "Geography"): a city must pass every
/// condition given. A city that does not is as if absent: from the count, the typo fallback and every
/// page.
///
/// ```swift
/// let inTheUS = GeoFilter(countries: ["US"])
/// try index.search("london", filter: inTheUS)[0]   // London, Ohio
/// ```
public struct GeoFilter: Sendable, Hashable {
    /// Country codes, ISO 3166-1 alpha-2 or alpha-3, any case; empty: any country.
    public var countries: [String]
    public var boundingBox: BoundingBox?
    public var within: GeoCircle?
    /// At least this many people (GeoNames' figure; 0 where the index has none).
    public var minimumPopulation: UInt64?

    public init(countries: [String] = [], boundingBox: BoundingBox? = nil, within: GeoCircle? = nil, minimumPopulation: UInt64? = nil) {
        self.countries = countries
        self.boundingBox = boundingBox
        self.within = within
        self.minimumPopulation = minimumPopulation
    }

    /// No condition: every city passes.
    public static let none = GeoFilter()

    /// Whether any condition is given.
    public var isFiltering: Bool { !countries.isEmpty || boundingBox != nil || within != nil || minimumPopulation != nil }
}

/// A country code as filters compare it: its two bytes, ASCII letters upper-cased, as one number (0 for
/// a record without a country). A `GeoFilter`'s codes are matched by it, and COUNTRY_RUNS is sorted and
/// keyed by it (the builder and the reader use this one definition).
package enum CountryKey {
    @inline(__always)
    package static func asciiUppercased(_ byte: UInt8) -> UInt8 { byte &- UInt8(ascii: "a") < 26 ? byte & 0xDF : byte }

    @inline(__always)
    package static func of(_ code: (UInt8, UInt8)) -> UInt16 { packed((asciiUppercased(code.0), asciiUppercased(code.1))) }

    /// Two code bytes as one number, as they are (a stored code, which sorts as its bytes do).
    @inline(__always)
    package static func packed(_ code: (UInt8, UInt8)) -> UInt16 { UInt16(code.0) << 8 | UInt16(code.1) }

    /// The two bytes of a key.
    @inline(__always)
    package static func bytes(_ key: UInt16) -> (UInt8, UInt8) { (UInt8(key >> 8), UInt8(key & 0xFF)) }
}

/// Ranking near a place (`shared/peers/rank.py`, "Geography"): a city's score is multiplied by
/// 1 + 1000 × 2^(−d / halfDistanceKm), d its distance from `point` in km. A city at the point counts
/// as if 1001 times bigger, and that boost halves every `halfDistanceKm`.
///
/// ```swift
/// let ontario = Proximity(point: try GeoPoint(latitude: 43.0, longitude: -81.2))
/// try index.search("london", near: ontario)[0]   // London, Ontario
/// ```
public struct Proximity: Sendable, Hashable {
    public let point: GeoPoint
    public let halfDistanceKm: Double

    /// `halfDistanceKm` must be a number above 0 (`invalidOptions` otherwise).
    public init(point: GeoPoint, halfDistanceKm: Double = 100) throws(MMSearchError) {
        guard halfDistanceKm > 0, halfDistanceKm.isFinite else {
            throw .invalidOptions(message: "the near distance \(halfDistanceKm) km is not a number above 0")
        }
        self.point = point
        self.halfDistanceKm = halfDistanceKm
    }

    /// `point` with the default half distance, 100 km.
    public init(point: GeoPoint) {
        self.point = point
        self.halfDistanceKm = 100
    }

    /// The factor a city `distanceKm` away is boosted by: 1 + 1000 × 2^(−d / H), as rank.py computes it.
    @inline(__always)
    public func boost(distanceKm: Double) -> Double { 1 + 1000 * CMath.pow(2, -distanceKm / halfDistanceKm) }
}

/// A population bound as NEAR_POINTS stores it (`include/mmsearch_format.h`, "Near a point"): a code c
/// for which (population + 1) <= 2^(c / 4) (MMS_NEAR_BOUND_CODES_PER_DOUBLING), the least; 127 bounds
/// every number. The builder, the reader and `verify` use this one definition.
package enum NearBound {
    /// The greatest code: no bound.
    package static let unbounded: UInt32 = (1 << MMS_NEAR_BOUND_BITS) - 1

    /// What code `code` bounds (population + 1) by.
    @inline(__always)
    package static func value(_ code: UInt32) -> Double {
        code >= unbounded ? .infinity : CMath.exp2(Double(code) / Double(MMS_NEAR_BOUND_CODES_PER_DOUBLING))
    }

    /// What code `code` bounds the base of a record matched by a primary name's prefix by (class 2,
    /// `Ranking.nearBase`): `value(code)` times the class's weight, from a table (a near page asks it
    /// for every node and point it considers).
    @inline(__always)
    static func primaryBase(_ code: UInt32) -> Double { primaryBases[Int(Swift.min(code, unbounded))] }

    private static let primaryBases: [Double] = (0 ... unbounded).map { value($0) * Double(Ranking.weight(ofClass: 2)) }

    /// The least code that bounds `population`.
    package static func code(population: UInt64) -> UInt32 {
        let target = Double(population) + 1
        var code = UInt32(Swift.min(Double(unbounded), Swift.max(0, (Double(MMS_NEAR_BOUND_CODES_PER_DOUBLING) * CMath.log2(target)).rounded(.up))))
        while code > 0, value(code - 1) >= target { code -= 1 }
        while value(code) < target { code += 1 }
        return code
    }
}
