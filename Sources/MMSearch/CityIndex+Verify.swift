import CMMSearchFormat

extension CityIndex {
    /// Checks the whole file, O(file size): the checksum, then every invariant the format states
    /// (`include/mmsearch_format.h`): edges in bounds, sorted and leading to later nodes in preorder;
    /// child ranges nested in and tiling their parent's; every record's key spelled by the path to its
    /// node; records in (key, name, id) order; the id order a sorted permutation. Throws the first
    /// problem, with the byte offset where it is.
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

/// The state of one full verify over the raw layer.
private struct _Verifier {
    let index: _IndexBytes
    var layout: _IndexLayout { index.layout }

    init(index: _IndexBytes) { self.index = index }

    func corrupt(_ offset: Int, _ message: String) -> MMSearchError { index.corrupt(offset, message) }
    func nodeOffset(_ node: Int) -> Int { layout.nodes + node * _IndexLayout.nodeSize }
    func edgeOffset(_ edge: Int) -> Int { layout.edges + edge * _IndexLayout.edgeSize }
    func recordOffset(_ record: Int) -> Int { layout.records + record * _IndexLayout.recordSize }

    mutating func run() throws(MMSearchError) {
        try checkChecksum()
        _ = try index.source()
        let keys = try checkRecords()
        try checkTrie(keys: keys)
        try checkIdOrder()
    }

    func checkChecksum() throws(MMSearchError) {
        let stored = index.raw.loadUnaligned(fromByteOffset: _IndexLayout.checksumOffset, as: UInt64.self)
        let actual = IndexChecksum.compute(index.raw)
        guard stored == actual else {
            throw corrupt(_IndexLayout.checksumOffset, "checksum mismatch: the header says \(hex(stored)), the bytes give \(hex(actual))")
        }
    }

    /// Checks each record's fields and the order of all records; returns every record's key (folded
    /// from its name and country, as the builder made it), back to back, with their start offsets.
    func checkRecords() throws(MMSearchError) -> (pool: [UInt8], starts: [Int]) {
        var pool: [UInt8] = []
        var starts = [0]
        pool.reserveCapacity(layout.recordCount * 16)
        starts.reserveCapacity(layout.recordCount + 1)
        var previous: (name: UnsafeRawBufferPointer, id: UInt32)?
        for position in 0 ..< layout.recordCount {
            let record = try index.record(position)
            let name = try index.name(of: record, recordIndex: position)
            guard String(validating: name, as: UTF8.self) != nil else {
                throw corrupt(recordOffset(position), "record \(position) has a name that is not valid UTF-8")
            }
            let country = record.country
            let countryIsValid = country == (0, 0) || (country.0 > 0x20 && country.0 < 0x7F && country.1 > 0x20 && country.1 < 0x7F)
            guard countryIsValid else {
                throw corrupt(recordOffset(position), "record \(position) has country bytes \(country.0), \(country.1); expected two ASCII characters or two zero bytes")
            }
            let latitudeLimit = 90 * Int32(MMS_COORDINATE_SCALE), longitudeLimit = 180 * Int32(MMS_COORDINATE_SCALE)
            guard (-latitudeLimit ... latitudeLimit).contains(record.lat_e7), (-longitudeLimit ... longitudeLimit).contains(record.lon_e7) else {
                throw corrupt(recordOffset(position), "record \(position) has coordinates \(record.lat_e7), \(record.lon_e7) (1e-7 degree) outside +-90, +-180 degrees")
            }
            Folding.append(foldingUTF8: name.assumingMemoryBound(to: UInt8.self), to: &pool)
            if country != (0, 0) {
                pool.append(contentsOf: ", ".utf8)
                pool.append(contentsOf: Folding.fold(_IndexBytes.countryText(country)))
            }
            starts.append(pool.count)
            if let previous {
                let order = pool.withUnsafeBytes { keys in
                    compareBytes(keys, starts[position - 1] ..< starts[position], keys, starts[position] ..< starts[position + 1])
                }
                let nameOrder = order != 0 ? order : compareBytes(previous.name, 0 ..< previous.name.count, name, 0 ..< name.count)
                guard nameOrder < 0 || (nameOrder == 0 && previous.id <= record.id) else {
                    throw corrupt(recordOffset(position), "record \(position) sorts before record \(position - 1); records must be in (key, name, id) order")
                }
            }
            previous = (name, record.id)
        }
        return (pool, starts)
    }

    /// Walks the trie depth-first from the root: the walk must meet nodes 0, 1, 2, ... in turn (preorder,
    /// every node reached once), every edge well formed, every node's records tiled by its children
    /// after its own, and its own records' keys equal to the labels on the path to it.
    func checkTrie(keys: (pool: [UInt8], starts: [Int])) throws(MMSearchError) {
        let sentinel = try index.node(layout.nodeCount)
        guard Int(sentinel.edge_first) == layout.edgeCount else {
            throw corrupt(nodeOffset(layout.nodeCount), "the sentinel node's edge_first is \(sentinel.edge_first), expected \(layout.edgeCount)")
        }
        let root = try index.recordRange(ofNode: 0)
        guard root == 0 ..< layout.recordCount else {
            throw corrupt(nodeOffset(0), "the root covers records \(root), expected all \(layout.recordCount)")
        }
        var expectedNode = 0
        var stack: [(node: Int, prefix: [UInt8])] = [(0, [])]
        while let (node, prefix) = stack.popLast() {
            guard node == expectedNode else {
                throw corrupt(nodeOffset(node), "node \(node) is reached where node \(expectedNode) should be (nodes must be in preorder, each reached once)")
            }
            expectedNode += 1
            let records = try index.recordRange(ofNode: node)
            guard node == 0 || !records.isEmpty else {
                throw corrupt(nodeOffset(node), "node \(node) covers no records")
            }
            let edges = try index.edgeRange(ofNode: node)
            var childFirst = records.upperBound
            var children: [(node: Int, prefix: [UInt8])] = []
            var previousByte: UInt8?
            var nextFirst: Int?
            for edgeIndex in edges {
                let edge = try index.edge(edgeIndex)
                let label = try index.label(of: edge, edgeIndex: edgeIndex)
                guard edge.first_byte == label[0] else {
                    throw corrupt(edgeOffset(edgeIndex), "edge \(edgeIndex) says its label starts with \(edge.first_byte), the label starts with \(label[0])")
                }
                if let previousByte, previousByte >= edge.first_byte {
                    throw corrupt(edgeOffset(edgeIndex), "the edges of node \(node) are not sorted by first byte (\(previousByte) then \(edge.first_byte))")
                }
                previousByte = edge.first_byte
                let target = Int(edge.target)
                guard target > node, target < layout.nodeCount else {
                    throw corrupt(edgeOffset(edgeIndex), "edge \(edgeIndex) leads from node \(node) to node \(target); edges must lead to a later node below \(layout.nodeCount)")
                }
                let child = try index.recordRange(ofNode: target)
                if nextFirst == nil { childFirst = child.lowerBound }
                guard child.lowerBound == (nextFirst ?? child.lowerBound), records.contains(child.lowerBound), child.upperBound <= records.upperBound else {
                    throw corrupt(nodeOffset(target), "node \(target) covers records \(child), which do not follow on from its siblings inside its parent's \(records)")
                }
                nextFirst = child.upperBound
                children.append((target, prefix + Array(label)))
            }
            if let nextFirst, nextFirst != records.upperBound {
                throw corrupt(nodeOffset(node), "the children of node \(node) end at record \(nextFirst), the node at \(records.upperBound)")
            }
            // The node's own records, before its children's, have exactly its prefix as key.
            for position in records.lowerBound ..< childFirst {
                let key = keys.pool[keys.starts[position] ..< keys.starts[position + 1]]
                guard key.elementsEqual(prefix) else {
                    throw corrupt(recordOffset(position), "record \(position) has key \"\(String(decoding: key, as: UTF8.self))\" but sits at a trie node for \"\(String(decoding: prefix, as: UTF8.self))\"")
                }
            }
            stack.append(contentsOf: children.reversed())
        }
        guard expectedNode == layout.nodeCount else {
            throw corrupt(nodeOffset(expectedNode), "only \(expectedNode) of \(layout.nodeCount) nodes are reachable from the root")
        }
    }

    func checkIdOrder() throws(MMSearchError) {
        var seen = [Bool](repeating: false, count: layout.recordCount)
        var previous: (id: UInt32, position: Int)?
        for entry in 0 ..< layout.recordCount {
            let position = try index.recordIndex(inIdOrder: entry)
            let offset = layout.idOrder + entry * 4
            guard !seen[position] else { throw corrupt(offset, "record \(position) appears twice in the id order") }
            seen[position] = true
            let id = try index.record(position).id
            if let previous, (previous.id, previous.position) >= (id, position) {
                throw corrupt(offset, "the id order is not sorted at entry \(entry)")
            }
            previous = (id, position)
        }
    }
}

private func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }
