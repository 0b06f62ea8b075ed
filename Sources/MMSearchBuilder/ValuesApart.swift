import CMMSearchFormat
import MMSearch

/// A packed field's values with the greatest few stored apart (`include/mmsearch_format.h`, "Values
/// stored apart"): POPULATION's populations, RECORDS' ids and name deltas, NODES' label offsets,
/// RECORD_REGIONS' values, SPELLINGS' name places (whose apart values are name offsets). A few
/// values are far greater than the rest (the biggest cities' populations; the newest ids; the labels
/// laid out last), so a width that holds the rest and 4 bytes for each of those take less than the
/// greatest's width for every value.
struct ValuesApart {
    /// w: the field's width.
    let width: Int
    /// Each value as its field holds it: the value below the threshold T = 2^w - E, else T plus its
    /// number among those stored apart (in the values' order).
    let packed: [UInt32]
    /// What follows the packed array in its section: the E values stored apart, 4 bytes each.
    let tail: [UInt8]
    /// E: how many (the header's field), as `tail` holds them.
    var apartCount: Int { tail.count / MemoryLayout<UInt32>.size }

    /// `stored(i)`: what is stored apart for value i when it is, the value itself unless a field says
    /// otherwise (SPELLINGS stores a name offset for a name place).
    init(_ values: [UInt32], storingApart stored: ((Int) -> UInt32)? = nil) {
        let (width, apart) = PackedArrays.widthApart(values)
        let threshold = PackedArrays.apartThreshold(width: width, apart: apart)
        var packed: [UInt32] = [], big: [UInt32] = []
        packed.reserveCapacity(values.count)
        for (position, value) in values.enumerated() {
            if UInt64(value) < threshold {
                packed.append(value)
            } else {
                packed.append(UInt32(threshold + UInt64(big.count))) // below 2^width <= 2^32
                big.append(stored?(position) ?? value)
            }
        }
        precondition(big.count == apart)
        self.width = width
        self.packed = packed
        tail = _SectionWriter.valuesAfter(big)
    }
}
