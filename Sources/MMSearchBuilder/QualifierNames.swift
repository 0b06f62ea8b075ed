/// Other names of countries and regions (from GeoNames' alternate names file), by country code and by
/// region: what "Name, Qualifier" queries also match ("london, uk", "münchen, deutschland").
public struct QualifierNames: Sendable {
    public var byCountry: [[UInt8]: [[UInt8]]]
    public var byRegion: [Admin1Key: [[UInt8]]]

    public init(byCountry: [[UInt8]: [[UInt8]]] = [:], byRegion: [Admin1Key: [[UInt8]]] = [:]) {
        self.byCountry = byCountry
        self.byRegion = byRegion
    }

    /// How many names, all owners together.
    public var count: Int {
        byCountry.values.reduce(0) { $0 + $1.count } + byRegion.values.reduce(0) { $0 + $1.count }
    }
}
