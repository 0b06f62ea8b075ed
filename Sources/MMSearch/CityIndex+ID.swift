extension CityIndex {
    /// Every record with the list's `_id` equal to `id`, in key order; empty when there is none. Ids
    /// need not be unique (the format keeps repeats), so there may be more than one. A binary search
    /// over the index's id-ordered section: O(log n), nothing read up front. This is how a stored
    /// favorite (an id) comes back as a city.
    ///
    /// ```swift
    /// let index = try CityIndex(path: "cities.mms")
    /// if let london = try index.cities(id: 2643743).first {
    ///     print(london.name, london.country)   // London GB
    /// }
    /// ```
    public func cities(id: UInt32) throws(MMSearchError) -> [City] {
        try withBytes { (index) throws(MMSearchError) in
            func idAt(_ position: Int) throws(MMSearchError) -> UInt32 {
                try index.recordID(index.recordIndex(inIdOrder: position))
            }
            // The first entry whose id is not below `id`.
            var low = 0, high = count
            while low < high {
                let middle = low + (high - low) / 2
                if try idAt(middle) < id { low = middle + 1 } else { high = middle }
            }
            var cities: [City] = []
            while low < count, try idAt(low) == id {
                cities.append(try index.city(index.recordIndex(inIdOrder: low)))
                low += 1
            }
            return cities
        }
    }
}
