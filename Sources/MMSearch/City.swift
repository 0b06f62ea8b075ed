/// One record of the list: a city (or region, or continent) with where it is.
///
/// ```swift
/// let city = try index.search("hurz")[0]
/// print(city.id, city.name, city.country)   // 707860 Hurzuf UA
/// ```
public struct City: Sendable, Hashable {
    /// The list's `_id`.
    public var id: UInt32
    /// Where it is, exactly as the list's decimal text said.
    public var coordinate: Coordinate
    /// The name as written in the list (original case and accents).
    public var name: String
    /// The ISO 3166-1 alpha-2 country code, or "" where the list gives none.
    public var country: String
    /// The region (GeoNames' admin1 division: a US state, a Swiss canton) where the index has one
    /// for this city (built with `--admin1`); nil otherwise.
    public var region: String?
    /// How many people live there (GeoNames' figure), or nil when the index has no populations (an
    /// index of the list alone); 0 when the index has them but not for this city.
    public var population: UInt32?
    /// The name a search found this city by, when that is not `name` (an alternate name such as
    /// "München" for "Muenchen", or a word of one); nil otherwise, and for cities read by id.
    public var matchedName: String?
    /// The distance in km from the point a search ranked near (`Proximity`), or from the point of
    /// `CityIndex.nearest(to:)`; nil otherwise.
    public var distanceKm: Double?
}

// The public initializer, outside the struct so that the struct keeps its memberwise one (the
// coordinate second: `init(id:coordinate:name:...)`), which it delegates to. A `City` made by an
// initializer of its own that set each property was copied out of its `self` and that `self`
// destroyed (its strings retained, then released): a page of cities took 1.22 times the instructions.
extension City {
    /// ```swift
    /// let hurzuf = City(id: 707860, name: "Hurzuf", country: "UA",
    ///                   coordinate: Coordinate(latitudeE7: 445_499_990, longitudeE7: 342_833_330))
    /// ```
    public init(id: UInt32, name: String, country: String, region: String? = nil, coordinate: Coordinate, population: UInt32? = nil, matchedName: String? = nil, distanceKm: Double? = nil) {
        self.init(id: id, coordinate: coordinate, name: name, country: country, region: region, population: population,
                  matchedName: matchedName, distanceKm: distanceKm)
    }
}

/// A latitude and longitude held as whole multiples of 1e-7 degree, so that the list's decimal text
/// (up to seven decimals) comes back digit for digit: `44.549999` stays `44.549999`, `28` stays `28`.
///
/// ```swift
/// let hurzuf = Coordinate(latitudeE7: 445_499_990, longitudeE7: 342_833_330)
/// print(hurzuf.latitudeText, hurzuf.longitudeText)   // 44.549999 34.283333
/// ```
public struct Coordinate: Sendable, Hashable {
    /// Units per degree.
    public static let scale: Int64 = 10_000_000

    /// Latitude in 1e-7 degree, within ±90 degrees.
    public var latitudeE7: Int32
    /// Longitude in 1e-7 degree, within ±180 degrees.
    public var longitudeE7: Int32

    /// ```swift
    /// let equator = Coordinate(latitudeE7: 0, longitudeE7: 0)
    /// ```
    public init(latitudeE7: Int32, longitudeE7: Int32) {
        self.latitudeE7 = latitudeE7
        self.longitudeE7 = longitudeE7
    }

    /// The latitude in degrees, as a `Double` (for arithmetic; `latitudeText` for display).
    ///
    /// ```swift
    /// Coordinate(latitudeE7: 445_499_990, longitudeE7: 0).latitude   // 44.549999
    /// ```
    public var latitude: Double { Double(latitudeE7) / Double(Self.scale) }
    /// The longitude in degrees, as a `Double`.
    ///
    /// ```swift
    /// Coordinate(latitudeE7: 0, longitudeE7: -1_257_400).longitude   // -0.12574
    /// ```
    public var longitude: Double { Double(longitudeE7) / Double(Self.scale) }

    /// The shortest decimal text of a 1e-7-degree value: `445499990` gives "44.549999", `280000000` "28".
    ///
    /// ```swift
    /// Coordinate.decimalText(-1_257_400)   // "-0.12574"
    /// ```
    public static func decimalText(_ e7: Int32) -> String {
        // Written digit by digit into the string's own storage: every result line shows two of these,
        // and building them from `String(_:)` pieces was a sixth of a whole `mmsearch query`.
        // At most 12 bytes: "-214.7483648" (Int32.min).
        String(unsafeUninitializedCapacity: 12) { text in
            let magnitude = Int64(e7).magnitude
            var whole = magnitude / UInt64(scale)
            var fraction = magnitude % UInt64(scale)
            var length = 0
            if e7 < 0 {
                text[0] = UInt8(ascii: "-")
                length = 1
            }
            let wholeStart = length
            repeat {
                text[length] = UInt8(ascii: "0") + UInt8(whole % 10)
                whole /= 10
                length += 1
            } while whole > 0
            text[wholeStart ..< length].reverse()
            guard fraction != 0 else { return length }
            var digits = 7
            while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
            text[length] = UInt8(ascii: ".")
            length += 1
            for position in (length ..< length + digits).reversed() {
                text[position] = UInt8(ascii: "0") + UInt8(fraction % 10)
                fraction /= 10
            }
            return length + digits
        }
    }

    /// The latitude as the list wrote it.
    ///
    /// ```swift
    /// Coordinate(latitudeE7: 280_000_000, longitudeE7: 0).latitudeText   // "28"
    /// ```
    public var latitudeText: String { Self.decimalText(latitudeE7) }
    /// The longitude as the list wrote it.
    ///
    /// ```swift
    /// Coordinate(latitudeE7: 0, longitudeE7: 342_833_330).longitudeText   // "34.283333"
    /// ```
    public var longitudeText: String { Self.decimalText(longitudeE7) }
}
