import CMMSearchFormat
import MMSearch

/// POPULATION (`include/mmsearch_format.h`, "Populations"): each record's population packed at a width
/// w, the greatest ones instead as the number of a uint32_t after the packed values. A few cities are far
/// bigger than the rest, so a width that holds the rest and 4 bytes for each of those take less than
/// the greatest's width for every record.
struct PopulationsBuilder {
    /// The section's bytes: the packed values, their tail, the big populations, then their count.
    private(set) var bytes: [UInt8] = []
    /// w (the header's population_bits).
    private(set) var width = 0

    /// `populations[r]` is record r's population; some is above 0.
    init(populations: [UInt32]) {
        let (width, apart) = PackedArrays.populationWidth(populations)
        self.width = width
        let threshold = PackedArrays.populationThreshold(width: width, apart: apart)
        var values = BitWriter(), big: [UInt32] = []
        for population in populations {
            if UInt64(population) < threshold {
                values.append(UInt64(population), width: width)
            } else {
                values.append(threshold + UInt64(big.count), width: width)
                big.append(population)
            }
        }
        precondition(big.count == apart)
        bytes = values.finished + [UInt8](repeating: 0, count: Int(MMS_PACKED_TAIL))
        precondition(bytes.count == PackedArrays.byteCount(count: populations.count, width: width))
        for population in big + [UInt32(apart)] { withUnsafeBytes(of: population.littleEndian) { bytes.append(contentsOf: $0) } }
    }
}
