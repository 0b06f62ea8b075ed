/// The records that match one search: a contiguous range of the index's key-ordered records, so
/// `count` and any position are O(1), and each `City` is decoded from the file only when read.
///
/// ```swift
/// let results = try index.search("Al")
/// results.count            // total matches
/// results[0].name          // the first in order
/// ```
///
/// Reading a record checks it against the file. The subscript, which cannot throw, returns a city with
/// an empty name and country for a record the file has damaged; `city(at:)` throws instead, for callers
/// that must tell the difference (the `mmsearch` command does). `CityIndex.verify()` finds such damage
/// before any search.
public struct SearchResults: RandomAccessCollection, Sendable {
    /// The index searched.
    public let index: CityIndex
    /// The matching records' positions in the whole index (key order).
    ///
    /// ```swift
    /// let positions = try index.search("lond").records   // lowerBound ..< lowerBound + count
    /// ```
    public let records: Range<Int>

    /// Always 0: positions count from the first match.
    public var startIndex: Int { 0 }
    /// The number of matches.
    public var endIndex: Int { records.count }

    /// Match `position`, decoded from the file; a record the file has damaged reads as an empty city
    /// (use `city(at:)` to get the error instead).
    ///
    /// ```swift
    /// let first = try index.search("lond")[0]
    /// ```
    public subscript(position: Int) -> City {
        precondition(position >= 0 && position < records.count, "SearchResults index out of range")
        if let city = try? city(at: position) { return city }
        return City(id: 0, name: "", country: "", coordinate: Coordinate(latitudeE7: 0, longitudeE7: 0))
    }

    /// Match `position` (0-based within these results), or the error that stops it being read.
    ///
    /// ```swift
    /// let results = try index.search("lond")
    /// for position in 20 ..< min(40, results.count) { print(try results.city(at: position).name) }
    /// ```
    public func city(at position: Int) throws(MMSearchError) -> City {
        precondition(position >= 0 && position < records.count, "SearchResults index out of range")
        return try index.city(at: records.lowerBound + position)
    }

    /// Matches `positions` (0-based within these results), decoded in one pass over the mapped file:
    /// the way to read a page, cheaper than one subscript a city.
    ///
    /// ```swift
    /// let results = try index.search("lond")
    /// let secondPage = try results.cities(in: 20 ..< min(40, results.count))
    /// ```
    public func cities(in positions: Range<Int>) throws(MMSearchError) -> [City] {
        precondition(positions.lowerBound >= 0 && positions.upperBound <= records.count, "SearchResults range out of range")
        return try index.cities(atRecords: records.lowerBound + positions.lowerBound ..< records.lowerBound + positions.upperBound)
    }
}
