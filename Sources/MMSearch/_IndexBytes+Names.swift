import CMMSearchFormat

/// Names: the records' and alternates' names, encoded in NAMES with the symbol tables of SYMBOLS and
/// NAME_TABLES and decoded one at a time ("Encoded names" in the format header), and the regions' and countries' texts, read as
/// they are stored in PLACE_NAMES.
extension _IndexBytes {
    /// The display name of record `index` (`record`, unpacked), decoded.
    func name(of record: mms_record, recordIndex: Int) throws(MMSearchError) -> [UInt8] {
        try decodedName(at: Int(record.name_offset), location: layout.records.byteOffset(recordIndex)) { "record \(recordIndex)'s name" }
    }

    /// The text of alternate name `index`, decoded.
    func alternateText(_ index: Int) throws(MMSearchError) -> [UInt8] {
        try decodedName(at: Int(try alternate(index).name_offset), location: alternateOffset(index)) { "alternate name \(index)" }
    }

    /// The length of fold(alternate name `index`), what an ALTERNATE match weighs by.
    func foldedLength(ofAlternate index: Int) throws(MMSearchError) -> Int {
        var folded: [UInt8] = []
        try alternateText(index).withUnsafeBufferPointer { Folding.append(foldingUTF8: $0, to: &folded) }
        return folded.count
    }

    /// The text of the name an entry value was made from: a display name or an alternate.
    func nameText(ofEntry value: UInt32) throws(MMSearchError) -> [UInt8] {
        let name = Int(value & MMS_ENTRY_NAME_MASK)
        if name < layout.recordCount { return try self.name(of: record(name), recordIndex: name) }
        return try alternateText(name - layout.recordCount)
    }

    /// The run of NAMES and the symbols of table `index` (below nameTableCount), as its entry and the
    /// one before give them, checked: the run inside NAMES and after the one before, the symbols inside
    /// SYMBOLS, at most MMS_MAX_SYMBOLS.
    func nameTable(_ index: Int) throws(MMSearchError) -> (names: Range<Int>, symbols: Range<Int>) {
        func ends(_ table: Int) -> (names: Int, symbols: Int) {
            guard table >= 0 else { return (0, 0) }
            let entry = raw.loadUnaligned(fromByteOffset: layout.nameTables + table * _IndexLayout.nameTableSize, as: mms_name_table.self)
            return (Int(entry.names_end), Int(entry.symbols_end))
        }
        let start = ends(index - 1), end = ends(index)
        guard start.names < end.names, end.names <= layout.names.count, start.symbols <= end.symbols, end.symbols <= layout.symbolCount,
              end.symbols - start.symbols <= Int(MMS_MAX_SYMBOLS) else {
            throw corrupt(layout.nameTables + index * _IndexLayout.nameTableSize,
                          "name table \(index) has names \(start.names)..<\(end.names) and symbols \(start.symbols)..<\(end.symbols); expected a run of the \(layout.names.count)-byte name pool after the one before, and at most \(MMS_MAX_SYMBOLS) of the \(layout.symbolCount) symbols")
        }
        return (start.names ..< end.names, start.symbols ..< end.symbols)
    }

    /// The name encoded at `start` of NAMES, decoded up to its MMS_STRING_END with the table of the run
    /// it lies in: every code a symbol of that table or MMS_NAME_ESCAPE and the byte after it, the end
    /// inside the run, the text at most MMS_MAX_STRING_LENGTH bytes. `location` and `what` say whose,
    /// for errors.
    func decodedName(at start: Int, location: Int, _ what: () -> String) throws(MMSearchError) -> [UInt8] {
        // The run holding `start`: a few tables, the first ones the most used (Latin script).
        var table = 0
        while table < layout.nameTableCount,
              Int(raw.loadUnaligned(fromByteOffset: layout.nameTables + table * _IndexLayout.nameTableSize, as: mms_name_table.self).names_end) <= start {
            table += 1
        }
        guard table < layout.nameTableCount else {
            throw corrupt(location, "\(what()) starts at \(start), past every name table's run of the \(layout.names.count)-byte name pool")
        }
        let run = try nameTable(table)
        let end = layout.names.lowerBound + run.names.upperBound, symbolCount = run.symbols.count
        let firstSymbol = layout.symbols + run.symbols.lowerBound * _IndexLayout.symbolSize
        let escape = UInt8(MMS_NAME_ESCAPE), stringEnd = UInt8(MMS_STRING_END)
        var text: [UInt8] = []
        text.reserveCapacity(24)
        var position = layout.names.lowerBound + start
        while true {
            guard position < end else {
                throw corrupt(location, "\(what()) runs to the end of its name table's run without its end byte")
            }
            let code = raw[position]
            if code == stringEnd { return text }
            if Int(code) < symbolCount {
                let symbol = firstSymbol + Int(code) * _IndexLayout.symbolSize
                let length = Int(raw[symbol + Self.symbolLengthOffset])
                guard (1 ... Int(MMS_SYMBOL_MAX_LENGTH)).contains(length) else {
                    throw corrupt(symbol, "symbol \(run.symbols.lowerBound + Int(code)) is \(length) bytes long; a symbol has 1 to \(MMS_SYMBOL_MAX_LENGTH)")
                }
                text.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[symbol ..< symbol + length]))
                position += 1
            } else if code == escape {
                guard position + 1 < end, raw[position + 1] != stringEnd else {
                    throw corrupt(position, "\(what()) ends with an escape code and no byte after it")
                }
                text.append(raw[position + 1])
                position += 2
            } else {
                throw corrupt(position, "\(what()) has code \(code): not one of its table's \(symbolCount) symbols nor the escape code")
            }
            guard text.count <= Int(MMS_MAX_STRING_LENGTH) else {
                throw corrupt(location, "\(what()) decodes to more than \(MMS_MAX_STRING_LENGTH) bytes")
            }
        }
    }

    static let symbolLengthOffset = MemoryLayout<mms_symbol>.offset(of: \.length)!

    /// `length` bytes at `offset` of PLACE_NAMES (a region's or a country's text), checked; `at` and
    /// `what` say whose, for errors.
    @inline(__always)
    func span(offset: UInt32, length: UInt16, at location: Int, what: @autoclosure () -> String) throws(MMSearchError) -> UnsafeRawBufferPointer {
        let start = Int(offset), count = Int(length), pool = layout.placeNames
        guard start <= pool.count - count else {
            throw corrupt(location, "\(what()) has text \(start)+\(count), outside the \(pool.count)-byte place name pool")
        }
        return UnsafeRawBufferPointer(rebasing: raw[pool.lowerBound + start ..< pool.lowerBound + start + count])
    }
}
