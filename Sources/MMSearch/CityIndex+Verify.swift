import CMMSearchFormat

extension CityIndex {
    /// Checks the whole file: the checksum, then every invariant the format states
    /// (`include/mmsearch_format.h`): the trie (children sorted, each node reached once, labels
    /// non-empty and ended, entry ranges tiling); every entry's key spelled by the path to its node and
    /// made from its name as the format says; entries in order; a summary exactly for every big node,
    /// with its counts and first page as a search computes them; records in (key, name, id) order;
    /// alternate names well formed; the id order a sorted permutation. Throws the first problem, with
    /// the byte offset where it is. O(entries x depth): a few seconds for the largest indexes.
    ///
    /// ```swift
    /// try CityIndex(path: "cities.mms").verify()
    /// ```
    public func verify() throws(MMSearchError) {
        try withBytes { (index) throws(MMSearchError) in
            var verifier = _Verifier(index: index)
            try verifier.run()
        }
    }
}

/// Every record's primary key, in record order: key i is pool[starts[i] ..< starts[i + 1]].
private struct PrimaryKeys {
    var pool: [UInt8] = []
    var starts: [Int] = [0]
}

/// The state of one full verify over the raw layer.
private struct _Verifier {
    let index: _IndexBytes
    var layout: _IndexLayout { index.layout }

    init(index: _IndexBytes) { self.index = index }

    func corrupt(_ offset: Int, _ message: String) -> MMSearchError { index.corrupt(offset, message) }
    func nodeOffset(_ node: Int) -> Int { index.nodeOffset(node) }
    func entryOffset(_ entry: Int) -> Int { layout.entries.byteOffset(entry) }
    func recordOffset(_ record: Int) -> Int { layout.records.byteOffset(record) }

    mutating func run() throws(MMSearchError) {
        try checkChecksum()
        try checkSource()
        try checkPadding()
        try checkSymbols()
        let keys = try checkRecords()
        try checkAlternateBlocks()
        let folded = try checkAlternates()
        try checkTrie(tails: keys.tails, primaryKeys: keys.primary, alternateFolds: folded)
        try checkIdOrder()
        try checkRegionsAndCountries()
        try checkSpatial()
        try checkNearPoints()
        try checkCountryEntries()
    }

    /// COUNTRY_RUNS, ENTRY_BLOCKS and ENTRY_DELTAS: the runs sorted by code (well formed, reserved bytes
    /// zero), their blocks tiling ENTRY_BLOCKS in order and the blocks' step codes the stream from bit 0 (every
    /// bit past the last zero, and the 8 bytes after it there), each run's positions strictly ascending
    /// with every entry's record of the run's code, and as many positions as entries whose record has a
    /// country: each such entry listed exactly once. O(entry_count).
    func checkCountryEntries() throws(MMSearchError) {
        var nextBlock = 0, nextBit = 0, listed = 0
        var previousCode: UInt16?
        for number in 0 ..< layout.countryRunCount {
            let offset = layout.countryRuns + number * _IndexLayout.countryRunSize
            let fields = raw(offset, as: mms_country_run.self)
            let (code, run) = try index.countryRun(number)
            guard fields.reserved == (0, 0), code != 0, CountryKey.of(fields.code) == code else {
                throw corrupt(offset, "country run \(number) has code \(code) (0x\(String(code, radix: 16))) or reserved bytes not zero; a code is two bytes, not both zero, no lower-case letter")
            }
            guard previousCode.map({ $0 < code }) ?? true else {
                throw corrupt(offset, "country run \(number) (code 0x\(String(code, radix: 16))) does not come after the one before it in code order")
            }
            previousCode = code
            guard run.blocks.lowerBound == nextBlock else {
                throw corrupt(offset, "country run \(number)'s blocks start at \(run.blocks.lowerBound), expected \(nextBlock) (the runs' blocks follow one another)")
            }
            nextBlock = run.blocks.upperBound
            var last = -1, count = 0
            for block in run.blocks {
                let fields = try index.entryBlock(block)
                guard Int(fields.delta_bit) == nextBit else {
                    throw corrupt(index.entryBlockOffset(block), "entry block \(block) starts its step codes at bit \(fields.delta_bit), expected \(nextBit) (where the block before's end)")
                }
                nextBit = try index.stepsEnd(ofBlock: block, in: run)
            }
            try index.forEachPosition(of: run, in: 0 ..< layout.entryCount) { (position) throws(MMSearchError) in
                guard position > last else {
                    throw corrupt(offset, "country run \(number) lists entry \(position) after entry \(last); its positions must ascend")
                }
                let owner = try index.owner(ofEntry: try index.entry(position), at: entryOffset(position))
                let recordCode = CountryKey.of(try index.recordCountry(owner.record))
                guard recordCode == code else {
                    throw corrupt(offset, "country run \(number) (code 0x\(String(code, radix: 16))) lists entry \(position), whose record \(owner.record) has code 0x\(String(recordCode, radix: 16))")
                }
                last = position
                count += 1
                return true
            }
            guard count == run.positionCount else {
                throw corrupt(offset, "country run \(number) gives \(count) positions below the \(layout.entryCount) entries, its count says \(run.positionCount)")
            }
            listed += count
        }
        guard nextBlock == layout.entryBlockCount else {
            throw corrupt(layout.entryBlocks, "the country runs hold \(nextBlock) blocks, the entry blocks section \(layout.entryBlockCount)")
        }
        // The step stream as a packed array of one-bit values (its tail, MMS_ENTRY_DELTAS_TAIL, is MMS_PACKED_TAIL).
        let stream = _PackedArray(start: layout.entryDeltas.lowerBound, count: nextBit, width: 1)
        guard layout.entryDeltas.count == stream.bytes.count else {
            throw corrupt(layout.entryDeltas.lowerBound, "the step stream is \(layout.entryDeltas.count) bytes; its blocks' step codes take \(nextBit) bits, so \(stream.bytes.count) bytes with the \(MMS_ENTRY_DELTAS_TAIL) zero bytes after")
        }
        try checkZeroPastValues(stream, "entry deltas")
        var withCountry = 0
        for position in 0 ..< layout.entryCount {
            let owner = try index.owner(ofEntry: try index.entry(position), at: entryOffset(position))
            if try index.recordCountry(owner.record) != (0, 0) { withCountry += 1 }
        }
        guard listed == withCountry else {
            throw corrupt(layout.countryRuns, "the country runs list \(listed) entries; \(withCountry) entries have a record with a country")
        }
    }

    /// SPATIAL: every record exactly once, bits 29 and 30 clear, no axis bit in a leaf, every record
    /// inside its node's box as the tree's splits give it (the world cut at each ancestor's pivot's
    /// coordinate: each pivot splits its node as the format says), so inside the box a reader knows
    /// (cut at the pivots' cells), and every point's cells its record's in that box. SPATIAL_BOUNDS
    /// ("Bounds"), in the same walk: the bounds of each inner node of the first D depths (numbered below
    /// 2^D) the rows and columns of its records' least and greatest coordinates in its box, every other
    /// entry zero. O(record_count).
    func checkSpatial() throws(MMSearchError) {
        var seen = [Bool](repeating: false, count: layout.recordCount)
        var expectedBounds = [mms_spatial_bounds](repeating: mms_spatial_bounds(), count: (1 << layout.spatialBoundDepth) - 1)
        func offset(_ position: Int) -> Int { layout.spatial.byteOffset(position) }
        func check(_ position: Int, in box: _SpatialBox, tree: _SpatialBox, pivot: Bool) throws(MMSearchError) -> (point: mms_spatial_point, longitude: Bool, at: (latitude: Int32, longitude: Int32)) {
            let point = try index.spatialPoint(position)
            let (record, longitude) = try index.spatialRecord(point, at: position)
            guard !seen[record] else { throw corrupt(offset(position), "record \(record) appears twice in the spatial index") }
            seen[record] = true
            guard pivot || !longitude else { throw corrupt(offset(position), "spatial point \(position) is in a leaf but has the axis bit set") }
            let at = try index.coordinates(ofRecord: record)
            guard tree.contains(latitude: at.latitude, longitude: at.longitude) else {
                throw corrupt(offset(position), "record \(record) at \(at.latitude), \(at.longitude) (1e-7 degree) lies outside its spatial node's box: latitude \(tree.south) to \(tree.north), longitude \(tree.west) to \(tree.east)")
            }
            let cell = box.cellNumbers(latitude: at.latitude, longitude: at.longitude)
            guard point.lat_cell == cell.latitude, point.lon_cell == cell.longitude else {
                throw corrupt(offset(position), "spatial point \(position) is cell \(point.lat_cell), \(point.lon_cell) of its node's box (latitude \(box.south) to \(box.north), longitude \(box.west) to \(box.east)), but its record \(record) at \(at.latitude), \(at.longitude) (1e-7 degree) is in cell \(cell.latitude), \(cell.longitude)")
            }
            return (point, longitude, at)
        }
        /// Checks the node of `range`, numbered `number`, with the box a reader knows and the one the
        /// splits give; returns its records' extent, and puts an inner node's bounds in `expectedBounds`.
        /// (The tree's shape comes from the record count alone: at most 28 levels of recursion.)
        func checkNode(_ range: Range<Int>, box: _SpatialBox, tree: _SpatialBox, number: Int) throws(MMSearchError) -> _SpatialBox {
            var extent = _SpatialBox(south: .max, north: .min, west: .max, east: .min)
            func include(_ other: _SpatialBox) {
                extent = _SpatialBox(south: min(extent.south, other.south), north: max(extent.north, other.north),
                                     west: min(extent.west, other.west), east: max(extent.east, other.east))
            }
            func include(_ at: (latitude: Int32, longitude: Int32)) {
                include(_SpatialBox(south: at.latitude, north: at.latitude, west: at.longitude, east: at.longitude))
            }
            if range.count <= Int(MMS_SPATIAL_LEAF_SIZE) {
                for position in range { include(try check(position, in: box, tree: tree, pivot: false).at) }
                return extent
            }
            let middle = KDTree.pivot(of: range)
            let pivot = try check(middle, in: box, tree: tree, pivot: true)
            include(pivot.at)
            let (low, high) = box.split(longitude: pivot.longitude, atCell: box.cell(of: pivot.point))
            let (lowTree, highTree) = tree.split(longitude: pivot.longitude, at: pivot.longitude ? pivot.at.longitude : pivot.at.latitude)
            include(try checkNode(range.lowerBound ..< middle, box: low, tree: lowTree, number: 2 * number))
            include(try checkNode(middle + 1 ..< range.upperBound, box: high, tree: highTree, number: 2 * number + 1))
            if number <= expectedBounds.count { expectedBounds[number - 1] = box.bounds(of: extent) }
            return extent
        }
        _ = try checkNode(0 ..< layout.recordCount, box: _SpatialBox.world, tree: _SpatialBox.world, number: 1)
        for (position, bounds) in expectedBounds.enumerated() {
            let stored = index.spatialBounds(ofNode: position + 1)
            guard (stored.south, stored.north, stored.west, stored.east) == (bounds.south, bounds.north, bounds.west, bounds.east) else {
                throw corrupt(layout.spatialBounds + position * _IndexLayout.spatialBoundsSize,
                              "spatial node \(position + 1)'s bounds are rows \(stored.south) to \(stored.north) and columns \(stored.west) to \(stored.east) of its box; its records give \(bounds.south) to \(bounds.north) and \(bounds.west) to \(bounds.east)" + (bounds.north == 0 && bounds.east == 0 && bounds.south == 0 && bounds.west == 0 ? " (or it is no inner node, whose bounds are zero)" : ""))
            }
        }
    }

    /// NEAR_POINTS ("Near a point"): every record exactly once; each record between the record-number
    /// splits above it and inside the box the latitude and longitude splits give it (the world cut at
    /// each such ancestor's pivot's coordinate), the box a reader knows; every bound its record's own,
    /// and each node's top's the greatest of its node's. O(record_count log record_count).
    func checkNearPoints() throws(MMSearchError) {
        var seen = [Bool](repeating: false, count: layout.recordCount)
        func offset(_ position: Int) -> Int { layout.nearPoints.byteOffset(position) }
        /// The point at `position`, checked: its record once, inside `records` and `box`, its bound its
        /// record's and at most `top` (its node's top's; for a node's top, its parent's top's); and its
        /// record's coordinates.
        func check(_ position: Int, in box: _SpatialBox, records: Range<Int>, top: UInt32) throws(MMSearchError) -> (point: _IndexBytes.NearPoint, at: (latitude: Int32, longitude: Int32)) {
            let point = try index.nearPoint(position)
            let record = point.record
            guard !seen[record] else { throw corrupt(offset(position), "record \(record) appears twice in the near points") }
            seen[record] = true
            guard records.contains(record) else {
                throw corrupt(offset(position), "near point \(position) names record \(record), outside the record numbers \(records) its node's splits leave it")
            }
            let at = try index.coordinates(ofRecord: record)
            guard box.contains(latitude: at.latitude, longitude: at.longitude) else {
                throw corrupt(offset(position), "record \(record) at \(at.latitude), \(at.longitude) (1e-7 degree) lies outside its near node's box: latitude \(box.south) to \(box.north), longitude \(box.west) to \(box.east)")
            }
            let bound = NearBound.code(population: index.population(record))
            guard point.bound == bound else {
                throw corrupt(offset(position), "near point \(position) has the population bound \(point.bound); its record's is \(bound)")
            }
            guard bound <= top else {
                throw corrupt(offset(position), "near point \(position) has the population bound \(bound), above \(top), the greatest its place in the tree allows (its node's top's, or its parent's for a top)")
            }
            return (point, at)
        }
        /// Checks the subtree of `range` (not empty) at `depth`: its top first, at most `parentTop`.
        func subtree(_ range: Range<Int>, depth: Int, box: _SpatialBox, records: Range<Int>, parentTop: UInt32) throws(MMSearchError) {
            let top = try check(range.lowerBound, in: box, records: records, top: parentTop).point.bound
            let rest = range.lowerBound + 1 ..< range.upperBound
            if range.count <= Int(MMS_NEAR_LEAF_SIZE) {
                for position in rest { _ = try check(position, in: box, records: records, top: top) }
                return
            }
            let middle = KDTree.pivot(of: rest)
            let (pivot, at) = try check(middle, in: box, records: records, top: top)
            let axis = depth % 4
            let children: [(range: Range<Int>, box: _SpatialBox, records: Range<Int>)]
            if axis < 2 {
                children = [(rest.lowerBound ..< middle, box, records.lowerBound ..< pivot.record),
                            (middle + 1 ..< rest.upperBound, box, pivot.record + 1 ..< records.upperBound)]
            } else {
                let longitude = axis == 3
                let (low, high) = box.split(longitude: longitude, at: longitude ? at.longitude : at.latitude)
                children = [(rest.lowerBound ..< middle, low, records), (middle + 1 ..< rest.upperBound, high, records)]
            }
            // A child's top holds its greatest: at most this node's top.
            for child in children where !child.range.isEmpty {
                try subtree(child.range, depth: depth + 1, box: child.box, records: child.records, parentTop: top)
            }
        }
        if layout.recordCount > 0 { try subtree(0 ..< layout.recordCount, depth: 0, box: .world, records: 0 ..< layout.recordCount, parentTop: NearBound.unbounded) }
    }

    /// Regions and countries: each well formed (names in the pool, followed by their end byte, the
    /// folded name the fold of the name), sorted and unique; every region some record's (their
    /// numbers `regionNumber` checks); and the QUALIFIED flag set exactly when some record has a
    /// region or a country with a name.
    func checkRegionsAndCountries() throws(MMSearchError) {
        func checkText(_ text: UnsafeRawBufferPointer, at offset: Int, _ what: String, nonEmpty: Bool) throws(MMSearchError) {
            let end = text.isEmpty ? nil : text.baseAddress.map { $0 - UnsafeRawPointer(index.raw.baseAddress!) + text.count }
            guard isValidUTF8(text), !nonEmpty || !text.isEmpty, end.map({ $0 < layout.placeNames.upperBound && index.raw[$0] == UInt8(MMS_STRING_END) }) ?? true else {
                throw corrupt(offset, "\(what) is \(nonEmpty ? "empty, " : "")not valid UTF-8 or not followed by its end byte")
            }
        }
        func isCode(_ first: UInt8, _ second: UInt8) -> Bool {
            [first, second].allSatisfy { $0 &- UInt8(ascii: "A") < 26 || $0 &- UInt8(ascii: "0") < 10 }
        }
        var previousRegion: (country: (UInt8, UInt8), code: [UInt8])?
        for number in 0 ..< layout.regionCount {
            let region = try index.region(number), at = layout.regions + number * _IndexLayout.regionSize
            let (name, folded, code) = try index.regionTexts(number)
            try checkText(name, at: at, "region \(number)'s name", nonEmpty: true)
            try checkText(folded, at: at, "region \(number)'s folded name", nonEmpty: false)
            try checkText(code, at: at, "region \(number)'s code", nonEmpty: true)
            guard Folding.fold(utf8: name).elementsEqual(folded), isCode(region.country.0, region.country.1) else {
                throw corrupt(at, "region \(number) has a folded name that is not its name's fold, or a country that is not two characters A-Z or 0-9")
            }
            if let previousRegion {
                let order = previousRegion.country.0 != region.country.0 ? (previousRegion.country.0 < region.country.0 ? -1 : 1)
                    : previousRegion.country.1 != region.country.1 ? (previousRegion.country.1 < region.country.1 ? -1 : 1)
                    : previousRegion.code.withUnsafeBytes { compareBytes($0, 0 ..< $0.count, code, 0 ..< code.count) }
                guard order < 0 else { throw corrupt(at, "region \(number) is not after region \(number - 1) in (country, code) order") }
            }
            previousRegion = (region.country, Array(code))
        }
        var previousCode: UInt16?
        var named = [Bool](repeating: false, count: layout.countryCount)
        for number in 0 ..< layout.countryCount {
            let (country, at) = index.country(number)
            let name = try index.span(offset: country.name_offset, length: country.name_length, at: at, what: "country \(number)")
            let folded = try index.span(offset: country.folded_offset, length: country.folded_length, at: at, what: "country \(number)'s folded name")
            try checkText(name, at: at, "country \(number)'s name", nonEmpty: false)
            try checkText(folded, at: at, "country \(number)'s folded name", nonEmpty: false)
            let iso3 = [country.iso3.0, country.iso3.1, country.iso3.2]
            let code = CountryKey.packed(country.code)
            guard Folding.fold(utf8: name).elementsEqual(folded), isCode(country.code.0, country.code.1),
                  iso3 == [0, 0, 0] || iso3.allSatisfy({ $0 &- UInt8(ascii: "A") < 26 }), country.reserved == (0, 0, 0),
                  previousCode.map({ $0 < code }) ?? true else {
                throw corrupt(at, "country \(number) is not well formed (its fold, code, ISO3 code or reserved bytes), or not after country \(number - 1) in code order")
            }
            previousCode = code
            named[number] = !name.isEmpty
        }
        // RECORD_COUNTRIES: codes of two digits or ASCII letters, strictly sorted ("Records' countries"),
        // each with where its country's regions start (REGIONS is sorted by country: "Records' regions").
        for number in 0 ..< layout.recordCountryCount {
            let at = layout.recordCountries + number * _IndexLayout.recordCountrySize
            let country = raw(at, as: mms_record_country.self)
            let previous = number == 0 ? nil : raw(at - _IndexLayout.recordCountrySize, as: mms_record_country.self).code
            guard PackedArrays.isCountryCode(country.code), previous.map({ $0 < country.code }) ?? true else {
                throw corrupt(at, "record country \(number) is not two digits or ASCII letters, or not after record country \(number - 1) in byte order")
            }
            let code = CountryKey.of(country.code)
            var firstRegion = 0
            while firstRegion < layout.regionCount, CountryKey.packed(try index.region(firstRegion).country) < code { firstRegion += 1 }
            guard Int(country.first_region) == firstRegion else {
                throw corrupt(at, "record country \(number) says its regions start at region \(country.first_region); they start at \(firstRegion)")
            }
        }
        var regionUsed = [Bool](repeating: false, count: layout.regionCount)
        var countryUsed = [Bool](repeating: false, count: layout.countryCount)
        var recordCountryUsed = [Bool](repeating: false, count: layout.recordCountryCount)
        var qualified = false
        // A record's region value the greatest stored apart, at the width of the smallest section
        // ("Records' regions"); at most the region count, so that each region has one value (its read,
        // `regionNumber`, checks that).
        var regionValues = ApartTakers(index, layout.regionsApart, "region value", at: layout.recordRegions)
        for record in 0 ..< layout.recordCount {
            let number = index.packedCountry(ofRecord: record), code = try index.countryCode(number: number, ofRecord: record)
            if number != 0 { recordCountryUsed[Int(number) - 1] = true }
            if layout.hasRegions { try regionValues.take(index.packedRegion(ofRecord: record), record: record) }
            if let region = try index.regionNumber(ofRecord: record) {
                regionUsed[region] = true
                qualified = true
            }
            if let country = index.countryNumber(code: code) {
                countryUsed[country] = true
                qualified = qualified || named[country]
            }
        }
        if layout.hasRegions {
            try regionValues.checkAllTaken(width: layout.recordRegions.width, widthAt: MemoryLayout<mms_header>.offset(of: \.region_bits)!)
        }
        if let unused = regionUsed.firstIndex(of: false) {
            throw corrupt(layout.regions + unused * _IndexLayout.regionSize, "region \(unused) is no record's region")
        }
        if let unused = recordCountryUsed.firstIndex(of: false) {
            throw corrupt(layout.recordCountries + unused * _IndexLayout.recordCountrySize, "record country \(unused) is no record's country")
        }
        if let unused = countryUsed.firstIndex(of: false) {
            throw corrupt(layout.countries + unused * _IndexLayout.countrySize, "country \(unused) is no record's country")
        }
        try checkQualifierNames(checkText)
        if layout.hasRegions, layout.regionCount == 0 {
            throw corrupt(layout.recordRegions.start, "the record regions section is not empty, but no record has a region")
        }
        guard qualified == layout.isQualified else {
            throw corrupt(MemoryLayout<mms_header>.offset(of: \.flags)!, "the qualified flag is \(layout.isQualified ? "set" : "clear"), but \(qualified ? "some record has" : "no record has") a region or a named country")
        }
    }

    /// QUALIFIER_NAMES: each of a country or region that exists, its folded name in the pool, non-empty,
    /// folded (its fold is itself) and followed by its end byte, sorted by (owner kind, owner, name), no
    /// two equal, reserved zero.
    func checkQualifierNames(_ checkText: (UnsafeRawBufferPointer, Int, String, Bool) throws(MMSearchError) -> Void) throws(MMSearchError) {
        var previous: (owner: UInt64, name: UnsafeRawBufferPointer)?
        for position in 0 ..< layout.qualifierNameCount {
            let at = layout.qualifierNames + position * _IndexLayout.qualifierNameSize
            let name = raw(at, as: mms_qualifier_name.self)
            let limit = name.owner_kind == MMS_QUALIFIER_OF_COUNTRY ? layout.countryCount : name.owner_kind == MMS_QUALIFIER_OF_REGION ? layout.regionCount : 0
            guard Int(name.owner) < limit, name.reserved == 0 else {
                throw corrupt(at, "qualifier name \(position) belongs to \(name.owner_kind == MMS_QUALIFIER_OF_REGION ? "region" : "country") \(name.owner) of kind \(name.owner_kind), which does not exist, or has a reserved byte set")
            }
            let text = try index.span(offset: name.folded_offset, length: name.folded_length, at: at, what: "qualifier name \(position)")
            try checkText(text, at, "qualifier name \(position)", true)
            guard Folding.fold(utf8: text).elementsEqual(text) else {
                throw corrupt(at, "qualifier name \(position) is not folded")
            }
            let owner = UInt64(name.owner_kind) << 32 | UInt64(name.owner)
            if let previous {
                let order = previous.owner != owner ? (previous.owner < owner ? -1 : 1) : compareBytes(previous.name, 0 ..< previous.name.count, text, 0 ..< text.count)
                guard order < 0 else { throw corrupt(at, "qualifier name \(position) is not after qualifier name \(position - 1) in (owner, name) order") }
            }
            previous = (owner, text)
        }
    }

    /// The SOURCE section: names filling it (`source()` checks), a known kind, no size for a file not named.
    func checkSource() throws(MMSearchError) {
        let fields = try index.source().fields
        guard SourceDescription.Kind(rawValue: fields.source_kind) != nil,
              fields.alternates_name_length > 0 || (fields.alternates_size == 0 && fields.alternates_checksum == 0
                  && fields.alternates_record_names == 0 && fields.alternates_qualifier_names == 0),
              fields.joined_name_length > 0 || (fields.joined_size == 0 && fields.joined_checksum == 0),
              fields.admin1_name_length > 0 || (fields.admin1_size == 0 && fields.admin1_checksum == 0),
              fields.countries_name_length > 0 || (fields.countries_size == 0 && fields.countries_checksum == 0) else {
            throw corrupt(layout.source.lowerBound, "the source section has kind \(fields.source_kind), or a size for a file it does not name; kinds are 1 and 2")
        }
    }

    /// The bytes between sections (each padded to the next multiple of 8) are zero, and the string
    /// pools end with a string's end byte (a pool grown into its padding would not).
    func checkPadding() throws(MMSearchError) {
        // A label's end byte may also be MMS_LABEL_TAIL_END.
        for (name, pool, least) in [("label", layout.labels, MMS_LABEL_TAIL_END), ("name", layout.names, MMS_STRING_END), ("place name", layout.placeNames, MMS_STRING_END)] where !pool.isEmpty {
            guard index.raw[pool.upperBound - 1] >= UInt8(least) else {
                throw corrupt(pool.upperBound - 1, "the \(name) pool does not end with a string's end byte")
            }
        }
        // A packed array's bits past its last value, and its tail, are zero.
        let arrays = [("nodes", layout.nodes), ("entries", layout.entries), ("top pages", layout.top), ("id order", layout.idOrder),
                      ("alternates", layout.alternates), ("spellings", layout.spellings), ("records", layout.records), ("spatial", layout.spatial),
                      ("summaries", layout.summaries), ("record name bases", layout.recordNameBases)]
            + (layout.hasPopulation ? [("population", layout.population)] : []) + (layout.hasRegions ? [("record regions", layout.recordRegions)] : [])
            + [("child blocks' bits", layout.childBits)]
        for (name, array) in arrays { try checkZeroPastValues(array, name) }
        let table = index.sectionTable()
        for (position, entry) in _IndexLayout.sectionNames.enumerated() {
            let section = table[Int(entry.kind.rawValue)]
            let end = Int(section.offset + section.length)
            let next = position + 1 < _IndexLayout.sectionNames.count
                ? Int(table[Int(_IndexLayout.sectionNames[position + 1].kind.rawValue)].offset) : layout.fileSize
            for offset in end ..< next where index.raw[offset] != 0 {
                throw corrupt(offset, "padding after the \(entry.name) section is not zero")
            }
        }
    }

    func checkChecksum() throws(MMSearchError) {
        let stored = index.raw.loadUnaligned(fromByteOffset: _IndexLayout.checksumOffset, as: UInt64.self)
        let actual = IndexChecksum.compute(index.raw)
        guard stored == actual else {
            throw corrupt(_IndexLayout.checksumOffset, "checksum mismatch: the header says \(hex(stored)), the bytes give \(hex(actual))")
        }
    }

    /// NAME_TABLES and SYMBOLS: the tables' runs tiling NAMES and their symbols tiling SYMBOLS, at most
    /// MMS_MAX_SYMBOLS a table (`nameTable` checks each against the one before); each symbol 1 to
    /// MMS_SYMBOL_MAX_LENGTH bytes long, its bytes past that zero.
    func checkSymbols() throws(MMSearchError) {
        var ends = (names: 0, symbols: 0)
        for table in 0 ..< layout.nameTableCount {
            let run = try index.nameTable(table)
            ends = (run.names.upperBound, run.symbols.upperBound)
        }
        guard ends == (layout.names.count, layout.symbolCount) else {
            throw corrupt(layout.nameTables, "the name tables end at \(ends.names) bytes of names and \(ends.symbols) symbols; expected all \(layout.names.count) and \(layout.symbolCount)")
        }
        for code in 0 ..< layout.symbolCount {
            let offset = layout.symbols + code * _IndexLayout.symbolSize
            let symbol = raw(offset, as: mms_symbol.self)
            let length = Int(symbol.length)
            let padding = withUnsafeBytes(of: symbol.bytes) { bytes in bytes[min(length, bytes.count)...].allSatisfy { $0 == 0 } }
            guard (1 ... Int(MMS_SYMBOL_MAX_LENGTH)).contains(length), padding else {
                throw corrupt(offset, "symbol \(code) is \(length) bytes long, or has bytes past its length that are not zero; a symbol has 1 to \(MMS_SYMBOL_MAX_LENGTH), zero past them")
            }
        }
    }

    /// Checks each record's fields and the order of all records; returns every record's key tail
    /// (", " + fold(country), or nothing), which every key of the record ends with, and its primary key.
    func checkRecords() throws(MMSearchError) -> (tails: [[UInt8]], primary: PrimaryKeys) {
        var tails: [[UInt8]] = [], primary = PrimaryKeys()
        tails.reserveCapacity(layout.recordCount)
        var previous: (key: [UInt8], name: [UInt8], id: UInt32)?
        // The populations and ids stored apart ("Values stored apart"): each taken once, in record order.
        var populations = ApartTakers(index, layout.populationsApart, "population", at: layout.population)
        var ids = ApartTakers(index, layout.idsApart, "id", at: layout.records)
        // So are the records' name deltas, from their blocks' bases ("Records' names").
        var nameDeltas = ApartTakers(index, layout.recordNamesApart, "name delta", at: layout.records)
        var nameOffsets: [UInt32] = []
        nameOffsets.reserveCapacity(layout.recordCount)
        // Whether every coordinate is a multiple of ten units: then a greater unit would have held them.
        let unit = layout.record.coordinateUnit
        var tenUnitsHoldEvery = true
        for position in 0 ..< layout.recordCount {
            let record = try index.record(position)
            // The name decoded (up to its end byte, inside its table's run, every code valid).
            let name = try index.name(of: record, recordIndex: position)
            guard isValidUTF8(name) else {
                throw corrupt(recordOffset(position), "record \(position) has a name that is not valid UTF-8")
            }
            let country = record.country // its number checked to be at most the codes' by the read
            // The packed coordinates at most the greatest biased values, so that none wraps once scaled.
            let (latitude, longitude) = index.packedCoordinates(ofRecord: position)
            guard Int64(latitude) * unit <= 2 * Int64(MMS_LATITUDE_BIAS), Int64(longitude) * unit <= 2 * Int64(MMS_LONGITUDE_BIAS) else {
                throw corrupt(recordOffset(position), "record \(position) has coordinates \(latitude), \(longitude) (units of \(unit)e-7 degree, biased) past +90, +180 degrees")
            }
            if tenUnitsHoldEvery, !(record.lat_e7.isMultiple(of: Int32(10 * unit)) && record.lon_e7.isMultiple(of: Int32(10 * unit))) {
                tenUnitsHoldEvery = false
            }
            var tail: [UInt8] = []
            if country != (0, 0) {
                tail.append(contentsOf: ", ".utf8)
                tail.append(contentsOf: Folding.fold(_IndexBytes.countryText(country)))
            }
            let key = Folding.fold(utf8: name) + tail
            if let previous {
                let order = key.withUnsafeBytes { b in previous.key.withUnsafeBytes { a in compareBytes(a, 0 ..< a.count, b, 0 ..< b.count) } }
                let nameOrder = order != 0 ? order : name.withUnsafeBytes { b in previous.name.withUnsafeBytes { a in compareBytes(a, 0 ..< a.count, b, 0 ..< b.count) } }
                guard nameOrder < 0 || (nameOrder == 0 && previous.id <= record.id) else {
                    throw corrupt(recordOffset(position), "record \(position) sorts before record \(position - 1); records must be in (key, name, id) order")
                }
            }
            previous = (key, name, record.id)
            tails.append(tail)
            primary.pool.append(contentsOf: key)
            primary.starts.append(primary.pool.count)
            if layout.hasPopulation { try populations.take(index.packedPopulation(position), record: position) }
            try ids.take(index.packedID(ofRecord: position), record: position)
            try nameDeltas.take(index.packedNameDelta(ofRecord: position), record: position)
            nameOffsets.append(record.name_offset)
        }
        // Ids, name deltas and populations at the widths of the smallest sections, coordinates in the
        // greatest unit.
        let header = index.raw.loadUnaligned(as: mms_header.self)
        try ids.checkAllTaken(width: Int(header.record_id_bits), widthAt: MemoryLayout<mms_header>.offset(of: \.record_id_bits)!)
        try nameDeltas.checkAllTaken(width: Int(header.record_name_bits), widthAt: MemoryLayout<mms_header>.offset(of: \.record_name_bits)!)
        // Each block's base the least of its records' name offsets, so that no delta is stored wider.
        for (block, base) in PackedArrays.recordNameBases(nameOffsets).enumerated() where index.recordNameBase(block) != base {
            throw corrupt(layout.recordNameBases.byteOffset(block), "records \(block * Int(MMS_RECORD_NAME_BLOCK)) on have their names from offset \(base), their base says \(index.recordNameBase(block)); a base is the least of its block's")
        }
        if layout.hasPopulation { try populations.checkAllTaken(width: layout.population.width, widthAt: MemoryLayout<mms_header>.offset(of: \.population_bits)!) }
        guard !tenUnitsHoldEvery || UInt32(header.coordinate_exponent) == MMS_MAX_COORDINATE_EXPONENT else {
            throw corrupt(MemoryLayout<mms_header>.offset(of: \.coordinate_exponent)!, "records' coordinates are in units of \(unit)e-7 degree (exponent \(header.coordinate_exponent)), and every one is a multiple of ten of them; the exponent must be the greatest that holds them")
        }
        return (tails, primary)
    }

    /// A packed field's values stored apart ("Values stored apart"), checked as records take them: each
    /// value at or above the threshold the next of them, in record order, and itself at least the
    /// threshold; at the end every one taken, at the width (and count apart) of the smallest section.
    struct ApartTakers {
        let index: _IndexBytes, apart: _ValuesApart, what: String, array: _PackedArray, takers: String
        var next = 0
        var values: [UInt32] = []

        /// `takers`: what takes the values, one each ("record", or "node" for NODES' label offsets).
        init(_ index: _IndexBytes, _ apart: _ValuesApart, _ what: String, at array: _PackedArray, takers: String = "record") {
            self.index = index
            self.apart = apart
            self.what = what
            self.array = array
            self.takers = takers
        }

        /// Record (or node) `record`'s packed value `value`.
        mutating func take(_ value: UInt64, record: Int) throws(MMSearchError) {
            let full = index.unpacked(value, apart)
            if value >= apart.threshold {
                guard value - apart.threshold == UInt64(next), full >= apart.threshold else {
                    throw index.corrupt(array.byteOffset(record), "\(takers) \(record) takes \(what) \(value - apart.threshold) of those stored apart (\(full)); expected number \(next), in \(takers) order, and \(what) of at least \(apart.threshold)")
                }
                next += 1
            }
            values.append(UInt32(truncatingIfNeeded: full))
        }

        /// Every value stored apart taken, and `width` (the header's, at byte `widthAt`) the smallest
        /// section's.
        func checkAllTaken(width: Int, widthAt: Int) throws(MMSearchError) {
            guard next == apart.count else {
                throw index.corrupt(apart.start, "\(apart.count) \(what)s are stored apart, \(takers)s take \(next) of them")
            }
            let expected = PackedArrays.widthApart(values)
            guard expected.width == width, expected.apart == apart.count else {
                throw index.corrupt(widthAt, "\(what)s are packed at \(width) bits with \(apart.count) stored apart; the smallest section is \(expected.width) bits with \(expected.apart)")
            }
        }
    }

    /// The bits of packed array `array` past its last value, and its MMS_PACKED_TAIL bytes, are zero
    /// (its length checked by the caller: at open, or from the blocks of a delta stream).
    func checkZeroPastValues(_ array: _PackedArray, _ name: String) throws(MMSearchError) {
        let valueBits = array.count * array.width
        let lastByte = array.start + valueBits / 8
        if valueBits % 8 != 0, index.raw[lastByte] >> UInt8(valueBits % 8) != 0 {
            throw corrupt(lastByte, "the \(name) section has bits set past its last value")
        }
        for offset in array.start + (valueBits + 7) / 8 ..< array.bytes.upperBound where index.raw[offset] != 0 {
            throw corrupt(offset, "the \(name) section's \(MMS_PACKED_TAIL) bytes after its values are not zero")
        }
    }

    /// ALTERNATE_BLOCKS and ALTERNATE_DELTAS ("Alternates' records"): each block's deltas where the one
    /// before's end, a multiple of 32 bits, at most 32 bits each and the least width that holds the
    /// greatest; its least_record the least of its records (some delta 0); the slots past the last
    /// alternate zero; the last block's least_record 0; the stream as long as the deltas (every bit past
    /// them zero, and the 8 bytes after). O(alternates).
    func checkAlternateBlocks() throws(MMSearchError) {
        let blockSize = Int(MMS_ALTERNATE_BLOCK_SIZE)
        var nextBit = 0
        for block in 0 ..< layout.alternateBlockCount {
            let fields = index.alternateBlock(block), offset = layout.alternateBlocks + block * _IndexLayout.alternateBlockSize
            guard Int(fields.delta_bit) == nextBit else {
                throw corrupt(offset, "alternate block \(block) starts its deltas at bit \(fields.delta_bit), expected \(nextBit) (where the block before's end)")
            }
            guard block < layout.alternateBlockCount - 1 else {
                guard fields.least_record == 0 else { throw corrupt(offset, "the last alternate block, which ends the deltas, has least record \(fields.least_record), expected 0") }
                break
            }
            let end = Int(index.alternateBlock(block + 1).delta_bit)
            guard end >= nextBit, (end - nextBit) % blockSize == 0, (end - nextBit) / blockSize <= Int(MMS_PACKED_MAX_WIDTH), end <= layout.alternateDeltaBits else {
                throw corrupt(offset, "alternate block \(block)'s deltas take bits \(nextBit)..<\(end): not 32 deltas of at most \(MMS_PACKED_MAX_WIDTH) bits inside the \(layout.alternateDeltaBits) bits of alternate deltas")
            }
            let width = (end - nextBit) / blockSize
            var greatest: UInt32 = 0, least = UInt32.max
            for slot in 0 ..< blockSize {
                let delta = index.bits(layout.alternateDeltaStart, at: nextBit + slot * width, (1 << UInt64(width)) - 1)
                if block * blockSize + slot < layout.alternateCount {
                    greatest = max(greatest, delta)
                    least = min(least, delta)
                } else if delta != 0 {
                    throw corrupt(offset, "alternate block \(block) has delta \(delta) in slot \(slot), past the \(layout.alternateCount) alternates; expected 0")
                }
            }
            guard least == 0, width == UInt32.bitWidth - greatest.leadingZeroBitCount else {
                throw corrupt(offset, "alternate block \(block) has deltas from \(least) to \(greatest) at \(width) bits; expected the least of them 0 (least_record the least record) and the least width that holds the greatest")
            }
            nextBit = end
        }
        // The stream: the blocks' deltas as a packed array of one-bit values, as CHILDREN's deltas are.
        let stream = _PackedArray(start: layout.alternateDeltaStart, count: nextBit, width: 1)
        guard layout.alternateDeltaBits / 8 + Int(MMS_PACKED_TAIL) == stream.bytes.count else {
            throw corrupt(layout.alternateDeltaStart, "the alternate deltas are \(layout.alternateDeltaBits / 8 + Int(MMS_PACKED_TAIL)) bytes; its blocks' deltas take \(nextBit) bits, so \(stream.bytes.count) bytes with the \(MMS_PACKED_TAIL) zero bytes after")
        }
        try checkZeroPastValues(stream, "alternate deltas")
    }

    /// Checks every alternate name (its record, in record order among the given ones and among the
    /// spellings, and its text); returns their folds.
    func checkAlternates() throws(MMSearchError) -> [[UInt8]] {
        var folds: [[UInt8]] = []
        folds.reserveCapacity(layout.alternateCount)
        var previousRecord: UInt32 = 0
        for index in 0 ..< layout.alternateCount {
            let record = UInt32(try self.index.alternateOwner(index))
            if index == layout.givenAlternateCount { previousRecord = 0 } // the spellings start over
            guard record >= previousRecord else {
                throw corrupt(self.index.alternateBlockOffset(index), "alternate name \(index) belongs to record \(record), after one of record \(previousRecord); alternates are sorted by record")
            }
            previousRecord = record
            let text = try self.index.alternateText(index)
            guard !text.isEmpty, isValidUTF8(text) else {
                throw corrupt(self.index.alternateOffset(index), "alternate name \(index) is empty or not valid UTF-8")
            }
            folds.append(Folding.fold(utf8: text))
        }
        try checkPrimaryAlternates()
        try checkSpellingNames()
        return folds
    }

    /// SPELLINGS' names ("Spellings"; each read, so checked, by `checkAlternates`): those stored apart
    /// taken in spelling order, each once, and each none of its record's first T names (else it would
    /// be stored as its place); the width and count apart the smallest section's, for the places with
    /// those of no place above every other.
    func checkSpellingNames() throws(MMSearchError) {
        let apart = layout.spellingNamesApart
        var next = 0
        var places: [UInt32] = []
        places.reserveCapacity(layout.alternateCount - layout.givenAlternateCount)
        for alternate in layout.givenAlternateCount ..< layout.alternateCount {
            let place = index.spellingNamePlace(alternate), spelling = alternate - layout.givenAlternateCount
            guard place >= apart.threshold else {
                places.append(UInt32(place))
                continue
            }
            guard place - apart.threshold == UInt64(next) else {
                throw corrupt(index.alternateOffset(alternate), "spelling \(spelling) takes name \(place - apart.threshold) of those stored apart; expected number \(next), in spelling order")
            }
            next += 1
            // Its place among its record's names, if it has one: the display name's, then each given alternate's.
            let offset = try index.spellingNameOffset(alternate), record = try index.alternateOwner(alternate)
            let given = index.alternates(ofRecord: record, in: 0 ..< layout.givenAlternateCount)
            let offsets = [index.nameOffset(ofRecord: record)] + given.map { index.givenNameOffset($0) }
            let found = offsets.firstIndex(of: offset).map(UInt32.init) ?? .max
            guard UInt64(found) >= apart.threshold else {
                throw corrupt(index.alternateOffset(alternate), "spelling \(spelling) stores apart name offset \(offset), name \(found) of record \(record); a name below \(apart.threshold) is stored as its place")
            }
            places.append(found)
        }
        guard next == apart.count else {
            throw corrupt(apart.start, "\(apart.count) spelling names are stored apart, spellings take \(next) of them")
        }
        let expected = PackedArrays.widthApart(places), width = layout.spellings.width - Int(MMS_SPELLING_FORM_BITS)
        guard expected.width == width, expected.apart == apart.count else {
            throw corrupt(MemoryLayout<mms_header>.offset(of: \.spelling_name_bits)!, "spelling names are packed at \(width) bits with \(apart.count) stored apart; the smallest section is \(expected.width) bits with \(expected.apart)")
        }
    }

    /// The alternates listed PRIMARY after ENTRIES ("Entries' kinds"): strictly increasing, each a
    /// given alternate, the first of its record, which has no display name. With every record's one
    /// PRIMARY entry (checked after the trie's walk), the list holds every alternate that is names[0].
    func checkPrimaryAlternates() throws(MMSearchError) {
        let list = layout.primaryAlternates, size = MemoryLayout<UInt32>.size
        var previous: UInt32?
        for position in 0 ..< list.count {
            let offset = list.start + position * size
            let name = raw(offset, as: UInt32.self), alternate = Int(name) - layout.recordCount
            guard previous.map({ name > $0 }) ?? true, alternate >= 0, alternate < layout.givenAlternateCount else {
                throw corrupt(offset, "alternate \(position) listed PRIMARY after the entries is name \(name); expected a given alternate's number (\(layout.recordCount) to \(layout.recordCount + layout.givenAlternateCount - 1)), after the one before")
            }
            let record = try index.alternateOwner(alternate)
            let isFirst = alternate == 0 ? true : try index.alternateOwner(alternate - 1) != record
            guard isFirst, !index.hasDisplayName(try index.record(record)) else {
                throw corrupt(offset, "alternate \(position) listed PRIMARY after the entries, name \(name), is not the first name of record \(record): not its first alternate, or the record has a display name")
            }
            previous = name
        }
    }

    /// Walks the trie depth first from the root. Every node but the root must be some node's child
    /// exactly once (children lists, numbered after their parents, tile 1 ..< node_count); labels are
    /// non-empty, ended, their first bytes increasing; ranges tile their parent's; each node's own
    /// entries have exactly its prefix as key, made from their names as the format says, in (kind,
    /// record, name) order; big nodes have their summaries, and those hold what a search computes.
    func checkTrie(tails: [[UInt8]], primaryKeys: PrimaryKeys, alternateFolds: [[UInt8]]) throws(MMSearchError) {
        for summary in 0 ..< layout.summaryCount {
            let node = index.summaryNode(summary)
            guard Int(node) < layout.nodeCount, summary == 0 || index.summaryNode(summary - 1) < node else {
                throw corrupt(layout.summaries.byteOffset(summary), "summary \(summary) is for node \(node); summaries must be for nodes below \(layout.nodeCount), in increasing order")
            }
        }
        var previousPage: (node: Int, code: UInt16)?
        for number in 0 ..< layout.countryPageCount {
            let page = try index.countryPage(number)
            let offset = layout.countryPages + number * _IndexLayout.countryPageSize
            let reserved = raw(offset + MemoryLayout<mms_country_page>.offset(of: \.reserved)!, as: UInt16.self)
            let code = CountryKey.bytes(page.code)
            guard page.code != 0, CountryKey.of(code) == page.code, reserved == 0 else {
                throw corrupt(offset, "country page \(number) has the code bytes \(code.0) \(code.1) and reserved \(reserved); a code is not 0 0 and has no lower-case letter, reserved is 0")
            }
            if let previousPage, previousPage >= (page.node, page.code) {
                throw corrupt(offset, "country page \(number) is not after the one before in (node, code) order")
            }
            previousPage = (page.node, page.code)
        }
        var previousList: Int?
        for number in 0 ..< layout.nearListCount {
            let list = try index.nearList(number)
            let offset = layout.nearLists + number * _IndexLayout.nearListSize
            let reserved = raw(offset + MemoryLayout<mms_near_list>.offset(of: \.reserved)!, as: UInt32.self)
            guard reserved == 0, previousList.map({ $0 < list.node }) ?? true else {
                throw corrupt(offset, "near list \(number) is for node \(list.node) with reserved \(reserved); lists are sorted by node, no two for one, reserved 0")
            }
            previousList = list.node
        }
        var nearListsChecked = 0
        var countryPagesChecked = 0
        var topPages: [TopPageExtent] = []
        guard try index.label(ofNode: 0).count == 0 else {
            throw corrupt(nodeOffset(0), "the root must have an empty label")
        }
        // The child blocks add up: node n's children start where node n - 1's end, from node 1 on, as
        // the counts give them, read one by one; each block's bits start where the one before's end,
        // its counts in bytes exactly when one does not fit 4 bits, its mask marking exactly its nodes
        // with children, its deltas at the least width that holds them; and the block after the last
        // closes the count.
        let blockNodes = Int(MMS_CHILD_BLOCK_NODES), blocks = _IndexLayout.childBlockCount(nodeCount: layout.nodeCount)
        let childBits = layout.childBits, countBits = Int(MMS_CHILD_COUNT_BITS), held = Int(MMS_CHILD_BLOCK_COUNTS)
        let field = { (offset: Int, path: PartialKeyPath<mms_child_block>) in offset + MemoryLayout<mms_child_block>.offset(of: path)! }
        var expectedFirst = 1, expectedBit = 0
        for block in 0 ..< blocks {
            let offset = layout.children + block * _IndexLayout.childBlockSize
            let first = Int(raw(offset, as: UInt32.self)), bitsFirst = Int(raw(field(offset, \.bits_first), as: UInt32.self))
            let mask = raw(field(offset, \.mask), as: UInt32.self), head = Int(raw(field(offset, \.head), as: UInt8.self))
            let reserved = (0 ..< 3).map { raw(field(offset, \.reserved) + $0, as: UInt8.self) }
            let heldCounts = raw(field(offset, \.counts), as: UInt64.self)
            guard first == expectedFirst, bitsFirst == expectedBit else {
                throw corrupt(offset, "child block \(block) starts at child \(first), bit \(bitsFirst); the blocks before it end at child \(expectedFirst), bit \(expectedBit)")
            }
            guard head & ~Int(MMS_CHILD_WIDTH_MASK | MMS_CHILD_BYTE_COUNTS) == 0, reserved == [0, 0, 0] else {
                throw corrupt(field(offset, \.head), "child block \(block)'s head, \(head), holds bits besides its width and the byte-counts flag, or its reserved bytes, \(reserved), are not zero")
            }
            guard block < blocks - 1 else {
                guard mask == 0, head == 0, heldCounts == 0 else {
                    throw corrupt(offset, "the child block after the last has mask \(mask), head \(head), counts \(heldCounts); they must be 0")
                }
                break
            }
            let width = head & Int(MMS_CHILD_WIDTH_MASK), inBytes = head & Int(MMS_CHILD_BYTE_COUNTS) != 0
            guard width <= 32 else {
                throw corrupt(field(offset, \.head), "child block \(block)'s deltas are \(width) bits each; at most 32")
            }
            var position = bitsFirst, counts: [Int] = []
            if inBytes {
                guard heldCounts == 0, position + 8 * blockNodes <= childBits.count else {
                    throw corrupt(offset, "child block \(block)'s counts are bytes past the \(childBits.count) bits of CHILDREN, or its own counts, \(heldCounts), are not 0")
                }
                counts = (0 ..< blockNodes).map { Int(index.bits(childBits.start, at: position + 8 * $0, 0xFF)) }
                position += 8 * blockNodes
                guard counts.contains(where: { $0 > 1 << countBits }) else {
                    throw corrupt(offset, "child block \(block)'s counts are bytes but all fit \(countBits) bits, \(counts); such a block must hold them so")
                }
            } else {
                let withChildren = mask.nonzeroBitCount
                guard position + max(0, withChildren - held) * countBits <= childBits.count else {
                    throw corrupt(offset, "child block \(block)'s counts run past the \(childBits.count) bits of CHILDREN")
                }
                guard withChildren >= held || heldCounts >> UInt64(countBits * withChildren) == 0 else {
                    throw corrupt(field(offset, \.counts), "child block \(block)'s counts, \(heldCounts), hold more than its \(withChildren) nodes with children")
                }
                var place = 0
                for slot in 0 ..< blockNodes {
                    guard mask >> UInt32(slot) & 1 == 1 else { counts.append(0); continue }
                    if place < held {
                        counts.append(Int(heldCounts >> UInt64(countBits * place) & 0xF) + 1)
                    } else {
                        counts.append(Int(index.bits(childBits.start, at: position, (1 << UInt64(countBits)) - 1)) + 1)
                        position += countBits
                    }
                    place += 1
                }
            }
            guard (0 ..< blockNodes).allSatisfy({ (mask >> UInt32($0) & 1 == 1) == (counts[$0] > 0) }) else {
                throw corrupt(field(offset, \.mask), "child block \(block)'s mask, \(mask), does not mark exactly its nodes with children: \(counts)")
            }
            let lastNode = layout.nodeCount - 1 - block * blockNodes
            guard lastNode >= blockNodes - 1 || counts[(lastNode + 1)...].allSatisfy({ $0 == 0 }) else {
                throw corrupt(offset, "child block \(block) gives children to nodes past the last (\(layout.nodeCount - 1)): \(counts)")
            }
            let children = counts.reduce(0, +)
            guard position + children * width <= childBits.count else {
                throw corrupt(offset, "child block \(block)'s deltas end at bit \(position + children * width), past the \(childBits.count) bits of CHILDREN")
            }
            var greatest: UInt32 = 0
            for child in 0 ..< children {
                greatest = max(greatest, index.bits(childBits.start, at: position + child * width, (1 << UInt64(width)) - 1))
            }
            guard width == UInt32.bitWidth - greatest.leadingZeroBitCount else {
                throw corrupt(offset, "child block \(block)'s deltas are \(width) bits each; the least that holds its greatest, \(greatest), is \(UInt32.bitWidth - greatest.leadingZeroBitCount)")
            }
            expectedFirst += children
            expectedBit = position + children * width
        }
        guard expectedFirst == layout.nodeCount else {
            throw corrupt(layout.children, "the child counts add up to \(expectedFirst - 1) children; every node but the root, \(layout.nodeCount - 1), must be one")
        }
        // The bits take what the header says (the bits past them and their tail are zero: checkPadding).
        guard expectedBit == childBits.count else {
            throw corrupt(childBits.start, "the child blocks' bits take \(expectedBit) bits; the header says \(childBits.count)")
        }
        // The label offsets stored apart ("Values stored apart"): each taken once, in node order, at the
        // width of the smallest NODES (each offset is checked against LABELS where the walk reads it).
        var labelOffsets = ApartTakers(index, layout.labelsApart, "label offset", at: layout.nodes, takers: "node")
        for node in 0 ..< layout.nodeCount { try labelOffsets.take(index.packedLabelOffset(ofNode: node), record: node) }
        try labelOffsets.checkAllTaken(width: layout.nodes.width, widthAt: MemoryLayout<mms_header>.offset(of: \.node_label_bits)!)
        var summarized = 0
        var primaries = [UInt8](repeating: 0, count: layout.recordCount)

        var visited = 0
        var stack: [(node: Int, entries: Range<Int>, prefix: [UInt8], parentDepth: Int, tailed: Bool)] = [(0, 0 ..< layout.entryCount, [], -1, false)]
        while let (node, entries, prefix, parentDepth, tailed) = stack.popLast() {
            visited += 1
            let children = try index.children(ofNode: node)
            var ownEnd = entries.upperBound
            var childItems: [(node: Int, entries: Range<Int>, prefix: [UInt8], parentDepth: Int, tailed: Bool)] = []
            var previousByte: UInt8?
            for child in children.nodes {
                let label = try index.label(ofNode: child)
                guard let firstByte = label.stored.first else {
                    throw corrupt(nodeOffset(child), "node \(child) has an empty label, or one with nothing stored before its country tail")
                }
                if let previousByte, previousByte >= firstByte {
                    throw corrupt(nodeOffset(child), "the children of node \(node) are not sorted by first byte (\(previousByte) then \(firstByte))")
                }
                previousByte = firstByte
                let childEntries = try index.entries(ofChild: child, siblings: children, parent: entries)
                if childItems.isEmpty { ownEnd = childEntries.lowerBound }
                var bytes = prefix + Array(label.stored)
                if label.hasTail {
                    let tail = try index.countryTail(ofNode: child, entries: childEntries)
                    bytes += (0 ..< _IndexBytes.Label.tailLength).map { UInt8(truncatingIfNeeded: tail >> (8 * $0)) }
                }
                childItems.append((child, childEntries, bytes, prefix.count, label.hasTail))
            }
            // A label that goes on with a country tail is its node's own keys' (their key the node's prefix).
            guard !tailed || ownEnd > entries.lowerBound else {
                throw corrupt(nodeOffset(node), "node \(node)'s label goes on with its keys' country tail, but no key is its prefix exactly")
            }
            try checkOwnEntries(entries.lowerBound ..< ownEnd, node: node, prefix: prefix, tails: tails, alternateFolds: alternateFolds, primaries: &primaries)
            if entries.count > Int(MMS_SUMMARY_THRESHOLD) {
                countryPagesChecked += try checkSummary(node: node, entries: entries, prefix: prefix, parentDepth: parentDepth, primaryKeys: primaryKeys, nearLists: &nearListsChecked, topPages: &topPages)
                summarized += 1
            }
            stack.append(contentsOf: childItems.reversed())
        }
        guard visited == layout.nodeCount else {
            throw corrupt(nodeOffset(0), "\(visited) of \(layout.nodeCount) nodes are reachable from the root")
        }
        if let record = primaries.firstIndex(where: { $0 != 1 }) {
            throw corrupt(recordOffset(record), "record \(record) has \(primaries[record]) primary-name keys; every record has one")
        }
        guard summarized == layout.summaryCount else {
            throw corrupt(layout.summaries.start, "\(layout.summaryCount) summaries for \(summarized) nodes with more than \(MMS_SUMMARY_THRESHOLD) entries; a smaller node has one")
        }
        guard nearListsChecked == layout.nearListCount else {
            throw corrupt(layout.nearLists, "\(layout.nearListCount) near lists, \(nearListsChecked) of them for a summarized node with more than \(MMS_NEAR_LIST_THRESHOLD) records")
        }
        guard countryPagesChecked == layout.countryPageCount else {
            throw corrupt(layout.countryPages, "\(layout.countryPageCount) country pages, \(countryPagesChecked) of them for a summarized node's country with more than \(MMS_COUNTRY_PAGE_THRESHOLD) records there")
        }
        // The pages tile TOP in order, each stored once: the summaries' by node, the country pages' by
        // (node, code), the near lists' by node; a page whose bits are those of a page before it in that
        // order starts where that one does, any other where the pages before it end ("TOP pages").
        var nextBit = 0
        var stored: [[UInt32]: Int] = [:]
        for page in topPages.sorted(by: { $0.order < $1.order }) {
            // The page's bits, 32 at a time (each page checked inside TOP), and its length.
            let bits = stride(from: 0, to: page.bits, by: 32).map { offset in
                index.bits(layout.top.start, at: page.first + offset, offset + 32 <= page.bits ? UInt64(UInt32.max) : (1 << UInt64(page.bits - offset)) - 1)
            } + [UInt32(page.bits)]
            if let first = stored[bits] {
                guard page.first == first else {
                    throw corrupt(layout.top.start + min(page.first, layout.topBits) / 8, "\(page.what)'s first page starts at bit \(page.first) of TOP; the same page is stored from bit \(first), before it in TOP's order, and is stored once")
                }
                continue
            }
            guard page.first == nextBit else {
                throw corrupt(layout.top.start + min(page.first, layout.topBits) / 8, "\(page.what)'s first page starts at bit \(page.first) of TOP; the pages before it in TOP's order end at bit \(nextBit)")
            }
            stored[bits] = page.first
            nextBit += page.bits
        }
        guard nextBit == layout.topBits else {
            throw corrupt(layout.top.start, "TOP's pages take \(nextBit) bits; the header says \(layout.topBits)")
        }
    }

    /// A first page in TOP that verify has checked: its first bit, its bits, and its place in TOP's
    /// order (0 for a summary's, 1 a country page's, 2 a near list's; its node; its country code).
    struct TopPageExtent {
        var first: Int
        var bits: Int
        var order: (Int, Int, Int)
        var what: String
    }

    /// The entries whose key is exactly `prefix`: each made from its name, in (kind, record, name) order.
    /// `primaries` counts each record's PRIMARY entries (one each, checked after the walk); a record
    /// whose display name is not empty has its display name as primary name.
    func checkOwnEntries(_ entries: Range<Int>, node: Int, prefix: [UInt8], tails: [[UInt8]], alternateFolds: [[UInt8]], primaries: inout [UInt8]) throws(MMSearchError) {
        var previous: UInt64?
        for position in entries {
            let value = try index.entry(position)
            let (record, _) = try index.owner(ofEntry: value, at: entryOffset(position))
            let kind = value >> MMS_ENTRY_KIND_SHIFT, name = Int(value & MMS_ENTRY_NAME_MASK)
            if kind == MMS_KIND_PRIMARY.rawValue {
                primaries[record] = primaries[record] &+ 1 == 0 ? 255 : primaries[record] &+ 1
                let hasDisplayName = index.hasDisplayName(try index.record(record))
                guard name == record || !hasDisplayName else {
                    throw corrupt(entryOffset(position), "entry \(position) makes another name record \(record)'s primary name; a record with a name has it as its primary name")
                }
            }
            let order = UInt64(kind) << 60 | UInt64(record) << 30 | UInt64(name)
            if let previous, previous >= order {
                throw corrupt(entryOffset(position), "entry \(position) is not after entry \(position - 1) in (key, kind, record, name) order")
            }
            previous = order
            let folded: [UInt8]
            if name < layout.recordCount {
                guard name == record else { throw corrupt(entryOffset(position), "entry \(position) names record \(name) but belongs to \(record)") }
                folded = Folding.fold(utf8: try index.nameText(ofEntry: value))
            } else {
                folded = alternateFolds[name - layout.recordCount]
            }
            let tail = tails[record]
            let isMadeFromName: Bool
            if kind == MMS_KIND_WORD.rawValue {
                isMadeFromName = WordStarts.of(folded).contains { start in
                    folded.count - start + tail.count == prefix.count
                        && folded[start...].elementsEqual(prefix[..<(folded.count - start)]) && tail.elementsEqual(prefix[(folded.count - start)...])
                }
            } else {
                isMadeFromName = folded.count + tail.count == prefix.count
                    && folded.elementsEqual(prefix[..<folded.count]) && tail.elementsEqual(prefix[folded.count...])
            }
            guard isMadeFromName else {
                throw corrupt(entryOffset(position), "entry \(position) (kind \(kind), record \(record)) sits at the key \"\(String(decoding: prefix, as: UTF8.self))\", which its name does not make")
            }
        }
    }

    /// A big node's summary: there, holding what a search computes; and no entry under it changes
    /// class along the edge into it (its first page holds there). Its country pages: one for each
    /// country with more than MMS_COUNTRY_PAGE_THRESHOLD of its records, holding what a search restricted
    /// to that country computes; returns how many.
    func checkSummary(node: Int, entries: Range<Int>, prefix: [UInt8], parentDepth: Int, primaryKeys: PrimaryKeys, nearLists: inout Int,
                      topPages: inout [TopPageExtent]) throws(MMSearchError) -> Int {
        let summary = try index.summary(ofNode: node)
        let offset = layout.summaries.start // for messages: the section
        let depth = prefix.count
        let located = _IndexBytes.Located(node: node, depth: depth, entries: entries)
        let matches = try index.rankedMatches(located, for: .init(queryLength: depth), match: .words) // sorted by record
        let ranked = _IndexBytes.ordered(matches, order: .rank, population: index.population)
        let named = try index.evaluate(located, for: .init(queryLength: depth), match: .name, order: .name)
        let primary = prefix.withUnsafeBytes { prefix in
            primaryKeys.pool.withUnsafeBytes { pool in
                prefixRange(count: primaryKeys.starts.count - 1, prefix: prefix) { position in
                    UnsafeRawBufferPointer(rebasing: pool[primaryKeys.starts[position] ..< primaryKeys.starts[position + 1]])
                }
            }
        }
        guard Int(summary.record_count) == ranked.count, Int(summary.name_record_count) == named.count,
              Int(summary.primary_count) == primary.count, Int(summary.primary_first) == primary.lowerBound else {
            throw corrupt(offset, "the summary of node \(node) says \(summary.record_count) records, \(summary.name_record_count) by name, primaries \(summary.primary_first)+\(summary.primary_count); the entries give \(ranked.count), \(named.count), \(primary.lowerBound)+\(primary.count)")
        }
        /// The match of `record`, one of `matches` (sorted by record).
        func rankedMatch(of record: UInt32) -> _Ranked {
            var low = 0, high = matches.count
            while low < high {
                let middle = (low + high) / 2
                if matches[middle].record < record { low = middle + 1 } else { high = middle }
            }
            return matches[low]
        }
        /// Where `page` lies in TOP, for the check that the pages tile it.
        func extent(_ page: _IndexBytes.TopPage, order: (Int, Int, Int), _ what: String) -> TopPageExtent {
            TopPageExtent(first: page.firstBit, bits: page.bit(page.count) - page.firstBit, order: order, what: what)
        }
        /// Entry `position` of `top` and its rank; a stored position must name a key whose kind is the
        /// rank's (what a reader takes), so that the entry read is the key itself.
        func storedEntry(_ top: _IndexBytes.TopPage, _ position: Int) throws(MMSearchError) -> (entry: UInt32, rank: (matchClass: UInt32, kind: UInt32)) {
            let (entry, rank) = try index.topEntry(top, position)
            if let entries = top.entries, try index.entry(entries.lowerBound + Int(index.topValue(top, position))) != entry {
                throw corrupt(layout.top.start + top.bit(position) / 8, "first page entry \(position) from bit \(top.bit(position)) of TOP names a key of another kind than its rank's")
            }
            return (entry, rank)
        }
        /// A stored first page, `top`, against `page` (ranked matches).
        func checkPage(_ page: some Collection<_Match>, top: _IndexBytes.TopPage, of what: String) throws(MMSearchError) {
            guard top.count == page.count else {
                throw corrupt(layout.top.start + top.firstBit / 8, "the first page of \(what) holds \(top.count) entries; its ranked results give \(page.count)")
            }
            for (position, match) in page.enumerated() {
                let (entry, rank) = try storedEntry(top, position)
                guard entry == match.entry else {
                    throw corrupt(layout.top.start + top.bit(position) / 8, "the first page of \(what) differs from its ranked results at position \(position)")
                }
                let record = rankedMatch(of: match.record)
                guard rank.matchClass == record.matchClass, rank.kind == record.kind else {
                    throw corrupt(layout.top.start + top.bit(position) / 8, "the first page of \(what) ranks record \(match.record) at position \(position) by class \(rank.matchClass) and kind \(rank.kind), its entries by \(record.matchClass) and \(record.kind)")
                }
            }
        }
        let top = try index.topPage(from: Int(summary.top_first), count: min(Int(summary.record_count), Int(MMS_TOP_COUNT)), nodeEntries: entries, at: offset)
        try checkPage(ranked.prefix(Int(MMS_TOP_COUNT)), top: top, of: "node \(node)")
        topPages.append(extent(top, order: (0, node, 0), "node \(node)"))
        // The near list ("Near a point"): the matches not by a primary name's prefix that may reach a
        // page, by base; at a node with many records, when they are not too many.
        var expectedList: [_Ranked]?
        if ranked.count > Int(MMS_NEAR_LIST_THRESHOLD) {
            func base(_ match: _Ranked) -> UInt64 { Ranking.nearBase(population: index.population(Int(match.record)), ofClass: match.matchClass) }
            let least = Double(ranked.prefix(Int(MMS_TOP_COUNT)).map { base(rankedMatch(of: $0.record)) }.min() ?? 0)
            let others = matches.filter { ($0.matchClass != 2 || !primary.contains(Int($0.record))) && Double(base($0)) * 1001 >= least }
            if others.count <= Int(MMS_NEAR_LIST_MAX) {
                expectedList = others.sorted { base($0) != base($1) ? base($0) > base($1) : $0.record < $1.record }
            }
        }
        let list = try index.nearList(ofNode: node, entries: entries)
        guard (list == nil) == (expectedList == nil), list?.count ?? 0 == expectedList?.count ?? 0 else {
            throw corrupt(layout.nearLists, "node \(node) has \(list.map { "a near list of \($0.count)" } ?? "no near list"); its matches give \(expectedList.map { "a list of \($0.count)" } ?? "none")")
        }
        if let list, let expectedList {
            for (position, match) in expectedList.enumerated() {
                let (entry, rank) = try storedEntry(list, position)
                guard entry == match.entry, rank.matchClass == match.matchClass, rank.kind == match.kind else {
                    throw corrupt(layout.top.start + list.bit(position) / 8, "the near list of node \(node) differs from its matches at position \(position)")
                }
            }
            topPages.append(extent(list, order: (2, node, 0), "the near list of node \(node)"))
            nearLists += 1
        }
        // The country pages: the ranked matches of each country with more than the threshold.
        var pages = 0
        if ranked.count > Int(MMS_COUNTRY_PAGE_THRESHOLD) {
            var byCountry: [UInt16: [_Match]] = [:]
            for match in ranked {
                let code = CountryKey.of(try index.recordCountry(Int(match.record)))
                if code != 0 { byCountry[code, default: []].append(match) }
            }
            for (code, countryRanked) in byCountry where countryRanked.count > Int(MMS_COUNTRY_PAGE_THRESHOLD) {
                let country = _IndexBytes.countryText(CountryKey.bytes(code))
                guard let page = try index.countryPage(ofNode: node, code: code, entries: entries) else {
                    throw corrupt(layout.countryPages, "node \(node) has \(countryRanked.count) records of country \(country) and no country page for them")
                }
                guard page.recordCount == countryRanked.count else {
                    throw corrupt(layout.countryPages, "the country page of node \(node) for \(country) counts \(page.recordCount) records; the entries give \(countryRanked.count)")
                }
                try checkPage(countryRanked.prefix(Int(MMS_TOP_COUNT)), top: page.top, of: "node \(node) in country \(country)")
                topPages.append(extent(page.top, order: (1, node, Int(code)), "node \(node) in country \(country)"))
                pages += 1
            }
        }
        guard node != 0 else { return pages }
        let keyLengths = try index.keyLengths(under: located)
        for position in entries {
            let value = try index.entry(position)
            let record = try index.owner(ofEntry: value, at: entryOffset(position)).record
            let nameLength = try index.nameLength(ofKey: Int(keyLengths[position - entries.lowerBound]), record: record)
            let thresholds = Ranking.classThresholds(kind: value >> MMS_ENTRY_KIND_SHIFT, nameLength: nameLength)
            for threshold in [thresholds.half, thresholds.whole] {
                if let threshold, threshold > parentDepth + 1, threshold <= depth {
                    throw corrupt(nodeOffset(node), "entry \(position) changes weight inside the edge into node \(node), whose first page must hold along it")
                }
            }
        }
        return pages
    }

    func raw<T: BitwiseCopyable>(_ offset: Int, as type: T.Type) -> T { index.raw.loadUnaligned(fromByteOffset: offset, as: type) }

    func checkIdOrder() throws(MMSearchError) {
        var seen = [Bool](repeating: false, count: layout.recordCount)
        var previous: (id: UInt32, position: Int)?
        for entry in 0 ..< layout.recordCount {
            let position = try index.recordIndex(inIdOrder: entry)
            let offset = layout.idOrder.byteOffset(entry)
            guard !seen[position] else { throw corrupt(offset, "record \(position) appears twice in the id order") }
            seen[position] = true
            let id = try index.recordID(position)
            if let previous, (previous.id, previous.position) >= (id, position) {
                throw corrupt(offset, "the id order is not sorted at entry \(entry)")
            }
            previous = (id, position)
        }
    }
}

private func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }

/// Whether `bytes` are well-formed UTF-8, as `String(validating:as:)` (macOS 15) decides: the standard
/// library's decoder refuses overlong forms, surrogates and scalars past U+10FFFF alike.
private func isValidUTF8(_ bytes: some Sequence<UInt8>) -> Bool {
    var decoder = UTF8()
    var iterator = bytes.makeIterator()
    while true {
        switch decoder.decode(&iterator) {
        case .scalarValue: continue
        case .emptyInput: return true
        case .error: return false
        }
    }
}
