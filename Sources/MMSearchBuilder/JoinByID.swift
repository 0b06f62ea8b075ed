import MMSearch

/// A city list's records joined with a GeoNames dump's rows by id, by a merge of the two sorted by id.
/// The join had been a dictionary of the dump's ids, built after both parses, and each row's names
/// copied into its record (every name's storage retained, and released again with the dump): 200 to
/// 240 ms of a list + cities500 build, on its critical path, where this takes about 110. Each side's
/// order is made after its own parse, on its own core (a GeoNames file is nearly in id order, which
/// Swift's sort, a merge of runs, takes in about one pass); the merge takes a few milliseconds; and a
/// row's names are moved into its record, not copied.
enum JoinByID {
    /// Every position of `ids` keyed by its id, `id << 32 | position`, sorted: by id, and by position
    /// among equal ids. Positions are below 2^32 (an array of that many records or rows would not fit
    /// in memory), so a key's low half is its position alone.
    static func idOrder(_ ids: some Collection<UInt32>) -> [UInt64] {
        var keys: [UInt64] = []
        keys.reserveCapacity(ids.count)
        var inOrder = true, last: UInt64 = 0
        for (position, id) in ids.enumerated() {
            let key = UInt64(id) << 32 | UInt64(position)
            if key < last { inOrder = false }
            last = key
            keys.append(key)
        }
        if !inOrder { keys.sort() }
        return keys
    }

    /// Which row each record joins: `rowOfRecord[r]` is the position of the row whose id is record r's,
    /// or -1 for none (one for each of `records`). `records` and `rows` are idOrders, each without a repeated id (the parsers refuse
    /// one), so that a row joins one record at most: were an id repeated, its later records would join
    /// none, never a row another has taken.
    static func rows(ofRecords records: [UInt64], rows: [UInt64]) -> [Int] {
        var rowOfRecord = [Int](repeating: -1, count: records.count)
        var next = 0
        for key in records {
            let id = key >> 32
            while next < rows.count, rows[next] >> 32 < id { next += 1 }
            guard next < rows.count, rows[next] >> 32 == id else { continue }
            rowOfRecord[Int(truncatingIfNeeded: key & 0xFFFF_FFFF)] = Int(truncatingIfNeeded: rows[next] & 0xFFFF_FFFF)
            next += 1
        }
        return rowOfRecord
    }

    /// Gives each of `records` the row of its id among `rows` (`recordOrder` and `rowOrder` their
    /// idOrders): the row's name, ASCII name and alternate names, in that order, as its alternate
    /// names, the row's `population`, and its region. A joined row is left without its names: the
    /// record has taken them. Returns how many records have a row. Records are
    /// taken in list order, so that the first population refused is the first record's.
    static func join(_ records: inout [SourceRecord], order recordOrder: [UInt64], rows: inout [GeoNamesRow], order rowOrder: [UInt64],
                     population: (GeoNamesRow) throws(MMSearchError) -> UInt32) throws(MMSearchError) -> Int {
        let rowOfRecord = Self.rows(ofRecords: recordOrder, rows: rowOrder)
        var count = 0
        for index in records.indices where rowOfRecord[index] >= 0 {
            let rowIndex = rowOfRecord[index]
            records[index].population = try population(rows[rowIndex])
            // The row's one record takes its names, moved rather than copied: no name's storage is
            // retained here, and none released with the dump. (`rows` is changed in place, where a
            // copy of the caller's array would have been copied whole at the first change.) The list
            // of them is a new array, made here in list order: the row's own, made in dump order on
            // the other core, and taken whole, left the steps after that read them in list order
            // 100 ms slower (in-process A/B, list + cities500).
            var names: [[UInt8]] = []
            names.reserveCapacity(2 + rows[rowIndex].alternateNames.count)
            names.append(take(&rows[rowIndex].name))
            names.append(take(&rows[rowIndex].asciiName))
            for name in rows[rowIndex].alternateNames.indices { names.append(take(&rows[rowIndex].alternateNames[name])) }
            records[index].alternateNames = names
            records[index].admin1 = Admin1Key(row: rows[rowIndex])
            count += 1
        }
        return count
    }

    /// `value`, leaving an empty array in its place.
    private static func take<Element>(_ value: inout [Element]) -> [Element] {
        var taken: [Element] = []
        swap(&taken, &value)
        return taken
    }
}
