import CMMSearchFormat
import FoundationEssentials

/// A city index file, mapped into memory and searched in place: opening reads only the header, a
/// search is one walk down the trie, and records are decoded only when asked for.
///
/// ```swift
/// let index = try CityIndex(path: "cities.mms")
/// let matches = try index.search("sao pa")
/// print(matches.count)                 // every match, counted in O(1)
/// for city in matches.prefix(20) { print(city.name, city.country) }
/// ```
///
/// An index is immutable and `Sendable`: share one between threads and query it from all of them.
/// Everything read from the file is checked before use, so a damaged file makes a call throw
/// `MMSearchError.invalidIndex`; it never crashes or reads outside the file. `verify()` checks the
/// whole file (checksum and structure) up front, for callers that want to know before they search.
public struct CityIndex: Sendable {
    /// The path the index was opened from, as given ("<memory>" for `init(bytes:)` by default).
    ///
    /// ```swift
    /// try CityIndex(path: "cities.mms").path   // "cities.mms"
    /// ```
    public let path: String
    let bytes: Data
    let layout: _IndexLayout

    /// Maps the index at `path` and checks its header (magic, version, byte order, section bounds),
    /// in O(1): nothing else of the file is read.
    ///
    /// ```swift
    /// let index = try CityIndex(path: "cities.mms")
    /// ```
    public init(path: String) throws(MMSearchError) {
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw MMSearchError.io(path: path, operation: "open", errno: Self.errno(of: error))
        }
        try self.init(bytes: bytes, path: path)
    }

    /// An index held in memory (for example a file read by other means); `path` names it in errors.
    ///
    /// ```swift
    /// let (bytes, _) = try IndexBuilder.makeIndex(records: records, source: source)
    /// let index = try CityIndex(bytes: Data(bytes))
    /// ```
    public init(bytes: Data, path: String = "<memory>") throws(MMSearchError) {
        // A slice keeps its parent's indices; rebase so offsets count from the file's first byte.
        let bytes = bytes.startIndex == 0 ? bytes : Data(bytes)
        self.path = path
        self.bytes = bytes
        self.layout = try bytes.withRawBytes { (raw) throws(MMSearchError) in try _IndexLayout(raw, path: path) }
    }

    /// The number of records in the index.
    ///
    /// ```swift
    /// try CityIndex(path: "cities.mms").count   // 209579
    /// ```
    public var count: Int { layout.recordCount }

    /// The size of the index file in bytes.
    ///
    /// ```swift
    /// try CityIndex(path: "cities.mms").fileSize   // 13197470
    /// ```
    public var fileSize: Int { layout.fileSize }

    /// The records whose search key starts with the folded `prefix`, in key order (see `Folding`).
    /// The empty prefix matches every record. Counting and indexing the result are O(1).
    ///
    /// ```swift
    /// let page = try index.search("lond").dropFirst(20).prefix(20)   // the second page
    /// ```
    public func search(_ prefix: some StringProtocol) throws(MMSearchError) -> SearchResults {
        let folded = Folding.fold(prefix)
        return try search(foldedPrefix: folded)
    }

    /// The records whose key starts with `foldedPrefix`, bytes already folded by `Folding.fold`: for
    /// callers that fold once and search many times.
    ///
    /// ```swift
    /// let matches = try index.search(foldedPrefix: Folding.fold("São"))
    /// ```
    public func search(foldedPrefix: [UInt8]) throws(MMSearchError) -> SearchResults {
        let range = try withBytes { (index) throws(MMSearchError) in
            try foldedPrefix.withRawBytes { (query) throws(MMSearchError) in try index.locate(query) }
        }
        return SearchResults(index: self, records: range)
    }

    /// Record `position` of the whole index, in key order.
    func city(at position: Int) throws(MMSearchError) -> City {
        try withBytes { (index) throws(MMSearchError) in try index.city(position) }
    }

    /// Records `positions` of the whole index, in key order, decoded in one entry into the bytes.
    func cities(atRecords positions: Range<Int>) throws(MMSearchError) -> [City] {
        try withBytes { (index) throws(MMSearchError) in
            var cities: [City] = []
            cities.reserveCapacity(positions.count)
            for position in positions { cities.append(try index.city(position)) }
            return cities
        }
    }

    /// Runs `body` over the raw layer; the only way into the mapped bytes.
    func withBytes<Value>(_ body: (_IndexBytes) throws(MMSearchError) -> Value) throws(MMSearchError) -> Value {
        try bytes.withRawBytes { (raw) throws(MMSearchError) in try body(_IndexBytes(raw: raw, layout: layout, path: path)) }
    }

    /// The errno behind a failed `Data(contentsOf:)`, or EIO when Foundation gives none.
    private static func errno(of error: any Error) -> Int32 {
        if let posix = error as? POSIXError { return posix.code.rawValue }
        if let cocoa = error as? CocoaError, let underlying = cocoa.underlying as? POSIXError {
            return underlying.code.rawValue
        }
        return 5 // EIO
    }
}
