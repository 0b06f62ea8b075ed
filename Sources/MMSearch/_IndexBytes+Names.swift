import CMMSearchFormat

/// Names: the records' and alternates' names, encoded in NAMES with the symbol tables of SYMBOLS and
/// NAME_TABLES and decoded one at a time ("Encoded names" in the format header), and the regions' and countries' texts, read as
/// they are stored in PLACE_NAMES.
extension _IndexBytes {
    /// The display name of record `index` (`record`, unpacked), decoded.
    func name(of record: mms_record, recordIndex: Int) throws(MMSearchError) -> [UInt8] {
        try withName(of: record, recordIndex: recordIndex) { Array($0) }
    }

    /// The display name of record `index` as a String: decoded on the stack, so that a name of up to 15
    /// bytes (most) allocates nothing.
    func nameString(of record: mms_record, recordIndex: Int) throws(MMSearchError) -> String {
        try withName(of: record, recordIndex: recordIndex) { String(decoding: $0, as: UTF8.self) }
    }

    func withName<R>(of record: mms_record, recordIndex: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) throws(MMSearchError) -> R {
        try withDecodedName(at: Int(record.name_offset), location: layout.records.byteOffset(recordIndex),
                            { "record \(recordIndex)'s name" }, body)
    }

    /// Whether `record` has a display name: its encoding, from its name offset, is not empty (the end
    /// byte is not there). A name offset past NAMES counts as a name, which decoding refuses.
    func hasDisplayName(_ record: mms_record) -> Bool {
        let offset = Int(record.name_offset)
        return offset >= layout.names.count || raw[layout.names.lowerBound + offset] != UInt8(MMS_STRING_END)
    }

    /// The text of alternate name `index`, decoded.
    func alternateText(_ index: Int) throws(MMSearchError) -> [UInt8] {
        try withAlternateText(index) { Array($0) }
    }

    /// A given alternate's text is decoded from NAMES; a spelling's is written out from the name it is
    /// made from, decoded, by its form ("Spellings").
    @inline(__always)
    func withAlternateText<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) throws(MMSearchError) -> R {
        try checkAlternate(index)
        let location = alternateOffset(index)
        guard index >= layout.givenAlternateCount else {
            return try withDecodedName(at: Int(givenNameOffset(index)), location: location, { "alternate name \(index)" }, body)
        }
        let form = try spellingForm(index)
        // Decoded and written out on the stack; nil when the spelling is longer than a name may be.
        var length = 0
        let result: R? = try withDecodedName(at: Int(try spellingNameOffset(index)), location: location, { "the name spelling \(index - layout.givenAlternateCount) is made from" }) { name in
            Spellings.withForm(form, of: name) { text in
                length = text.count
                return text.count <= Int(MMS_MAX_STRING_LENGTH) ? body(text) : nil
            }
        }
        guard let result else {
            throw corrupt(location, "spelling \(index - layout.givenAlternateCount) is \(length) bytes long; a name has at most \(MMS_MAX_STRING_LENGTH)")
        }
        return result
    }

    /// The text of the name an entry value was made from: a display name or an alternate.
    func nameText(ofEntry value: UInt32) throws(MMSearchError) -> [UInt8] {
        try withNameText(ofEntry: value) { Array($0) }
    }

    /// The same as a String, decoded on the stack.
    func nameString(ofEntry value: UInt32) throws(MMSearchError) -> String {
        try withNameText(ofEntry: value) { String(decoding: $0, as: UTF8.self) }
    }

    func withNameText<R>(ofEntry value: UInt32, _ body: (UnsafeBufferPointer<UInt8>) -> R) throws(MMSearchError) -> R {
        let name = Int(value & MMS_ENTRY_NAME_MASK)
        if name < layout.recordCount { return try withName(of: record(name), recordIndex: name, body) }
        return try withAlternateText(name - layout.recordCount, body)
    }

    /// The run of NAMES and the symbols of table `index` (below nameTableCount), as its entry and the
    /// one before give them, checked: the run inside NAMES and after the one before, the symbols inside
    /// SYMBOLS, at most MMS_MAX_SYMBOLS.
    func nameTable(_ index: Int) throws(MMSearchError) -> (names: Range<Int>, symbols: Range<Int>) {
        try nameRun(index, after: index == 0 ? (0, 0) : nameTableEnds(index - 1), to: nameTableEnds(index))
    }

    /// Where table `index`'s run of NAMES and its symbols end (NAME_TABLES[index]).
    @inline(__always)
    func nameTableEnds(_ index: Int) -> (names: Int, symbols: Int) {
        let entry = raw.loadUnaligned(fromByteOffset: layout.nameTables + index * _IndexLayout.nameTableSize, as: mms_name_table.self)
        return (Int(entry.names_end), Int(entry.symbols_end))
    }

    /// Table `index`'s run and symbols from where the table before ends (`start`) to where it ends,
    /// checked as `nameTable` says.
    @inline(__always)
    func nameRun(_ index: Int, after start: (names: Int, symbols: Int), to end: (names: Int, symbols: Int)) throws(MMSearchError) -> (names: Range<Int>, symbols: Range<Int>) {
        guard start.names < end.names, end.names <= layout.names.count, start.symbols <= end.symbols, end.symbols <= layout.symbolCount,
              end.symbols - start.symbols <= Int(MMS_MAX_SYMBOLS) else {
            throw corrupt(layout.nameTables + index * _IndexLayout.nameTableSize,
                          "name table \(index) has names \(start.names)..<\(end.names) and symbols \(start.symbols)..<\(end.symbols); expected a run of the \(layout.names.count)-byte name pool after the one before, and at most \(MMS_MAX_SYMBOLS) of the \(layout.symbolCount) symbols")
        }
        return (start.names ..< end.names, start.symbols ..< end.symbols)
    }

    /// The name encoded at `start` of NAMES, decoded up to its MMS_STRING_END with the table of the run
    /// it lies in, and handed to `body`: every code a symbol of that table or MMS_NAME_ESCAPE and the
    /// byte after it, the end inside the run, the text at most MMS_MAX_STRING_LENGTH bytes. Decoded into
    /// a buffer on the stack (eight bytes a code at most, and eight of slack: a symbol is copied as one
    /// 8-byte word). `location` and `what` say whose, for errors.
    func withDecodedName<R>(at start: Int, location: Int, _ what: () -> String, _ body: (UnsafeBufferPointer<UInt8>) -> R) throws(MMSearchError) -> R {
        // The run holding `start`: a few tables, the first ones the most used (Latin script), each
        // table's entry read once on the way.
        var table = 0, before = (names: 0, symbols: 0), ends = before
        while true {
            guard table < layout.nameTableCount else {
                throw corrupt(location, "\(what()) starts at \(start), past every name table's run of the \(layout.names.count)-byte name pool")
            }
            ends = nameTableEnds(table)
            if ends.names > start { break }
            before = ends
            table += 1
        }
        let run = try nameRun(table, after: before, to: ends)
        let first = layout.names.lowerBound + start, runEnd = layout.names.lowerBound + run.names.upperBound
        guard let codes = text(from: first, before: runEnd) else {
            throw corrupt(location, "\(what()) runs to the end of its name table's run without its end byte")
        }
        let limit = Swift.min(codes.count * Int(MMS_SYMBOL_MAX_LENGTH), Int(MMS_MAX_STRING_LENGTH))
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: limit + Int(MMS_SYMBOL_MAX_LENGTH)) { buffer throws(MMSearchError) -> R in
            let count = try decode(codes, run: run, into: buffer, limit: limit, location: location, what)
            return body(UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// Decodes `codes` (a name's, without its end byte) with `run`'s symbols into `buffer`, which holds
    /// `limit` + 8 bytes; returns the decoded length, at most `limit`.
    @inline(__always)
    private func decode(_ codes: UnsafeRawBufferPointer, run: (names: Range<Int>, symbols: Range<Int>), into buffer: UnsafeMutableBufferPointer<UInt8>,
                        limit: Int, location: Int, _ what: () -> String) throws(MMSearchError) -> Int {
        let symbolCount = run.symbols.count, firstSymbol = layout.symbols + run.symbols.lowerBound * _IndexLayout.symbolSize
        let escape = UInt8(MMS_NAME_ESCAPE), output = UnsafeMutableRawPointer(buffer.baseAddress!)
        // Read once, not at each code: reading a global initialised on first use is a call (swift_once).
        let lengthOffset = Self.symbolLengthOffset
        var count = 0, position = 0
        while position < codes.count {
            guard count <= limit else { break }
            let code = codes[position]
            if Int(code) < symbolCount {
                let symbol = firstSymbol + Int(code) * _IndexLayout.symbolSize
                let length = Int(raw[symbol + lengthOffset])
                guard (1 ... Int(MMS_SYMBOL_MAX_LENGTH)).contains(length) else {
                    throw corrupt(symbol, "symbol \(run.symbols.lowerBound + Int(code)) is \(length) bytes long; a symbol has 1 to \(MMS_SYMBOL_MAX_LENGTH)")
                }
                // All 8 bytes of the symbol at once (the buffer has the slack); `length` of them count.
                output.storeBytes(of: raw.loadUnaligned(fromByteOffset: symbol, as: UInt64.self), toByteOffset: count, as: UInt64.self)
                count += length
                position += 1
            } else if code == escape, position + 1 < codes.count {
                buffer[count] = codes[position + 1]
                count += 1
                position += 2
            } else {
                throw corrupt(codes.baseAddress! - raw.baseAddress! + position,
                              "\(what()) has code \(code): not one of its table's \(symbolCount) symbols nor the escape code and a byte after it")
            }
        }
        guard count <= limit else {
            throw corrupt(location, "\(what()) decodes to more than \(MMS_MAX_STRING_LENGTH) bytes")
        }
        return count
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
