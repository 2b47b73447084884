import WICore

/// The directory of an ICO or CUR file: its entries, each an embedded BMP (DIB without file header, height doubled
/// for the AND mask) or PNG, and the choice of the entry to show.
struct IconDirectory {
    struct Entry {
        /// Width and height from the directory (0 means 256).
        var width: Int
        var height: Int
        /// Bits per pixel: the directory's for ICO, else the embedded image's.
        var bitCount: Int
        var offset: Int
        var isPNG: Bool
        var index: Int
        /// A cursor entry's hotspot, in the entry's own pixels (nil for icons).
        var hotspot: ImageCoding.PixelPoint?
        var area: Int { width * height }
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    let isCursor: Bool
    /// Entries whose data starts inside the file, in directory order.
    let entries: [Entry]

    init(_ r: ByteReader) throws(ImageError) {
        guard try r.u16(0, "reserved field") == 0 else { throw ImageError(.badImageData, "ICO: reserved field not 0") }
        let type = try r.u16(2, "type")
        guard type == 1 || type == 2 else { throw ImageError(.badImageData, "ICO: type \(type) is neither 1 nor 2") }
        let count = try r.u16(4, "entry count")
        guard count > 0 else { throw ImageError(.badImageData, "ICO: no images in the directory") }
        isCursor = type == 2
        var entries: [Entry] = []
        for index in 0..<count {
            let at = 6 + index * 16
            guard r.contains(at, 16) else { break }
            let offset = Int(try r.u32(at + 12, "entry offset"))
            guard r.contains(offset, 16) else { continue }
            let isPNG = r.contains(offset, 8) && (0..<8).allSatisfy { r.bytes[offset + $0] == Self.pngSignature[$0] }
            var bitCount = type == 1 ? try r.u16(at + 6, "bit count") : 0
            if bitCount == 0 {
                if isPNG {
                    if r.contains(offset + 24, 2) {
                        let depth = Int(r.bytes[offset + 24])
                        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(r.bytes[offset + 25])] ?? 1
                        bitCount = depth * channels
                    }
                } else {
                    bitCount = try r.u16(offset + 14, "bit count")
                }
            }
            let width = try r.u8(at, "width")
            let height = try r.u8(at + 1, "height")
            // A cursor's entry keeps its hotspot where an icon's keeps planes and bit count.
            let hotspot =
                type == 2
                ? ImageCoding.PixelPoint(x: try r.u16(at + 4, "hotspot x"), y: try r.u16(at + 6, "hotspot y")) : nil
            entries.append(
                Entry(
                    width: width == 0 ? 256 : width, height: height == 0 ? 256 : height,
                    bitCount: bitCount, offset: offset, isPNG: isPNG, index: index, hotspot: hotspot))
        }
        guard !entries.isEmpty else { throw ImageError(.badImageData, "ICO: no entry's data lies inside the file") }
        self.entries = entries
    }

    /// The entry to decode: the smallest at least as large as `box` (both dimensions; 0 leaves one free), or the
    /// largest when no box is given or none is that large. Ties go to more bits per pixel, then the earlier entry.
    func choose(for box: PixelSize?) -> Entry {
        func better(_ a: Entry, than b: Entry, smaller: Bool) -> Bool {
            if a.area != b.area { return smaller ? a.area < b.area : a.area > b.area }
            if a.bitCount != b.bitCount { return a.bitCount > b.bitCount }
            return a.index < b.index
        }
        let largest = entries.dropFirst().reduce(entries[0]) { better($1, than: $0, smaller: false) ? $1 : $0 }
        guard let box, box.width > 0 || box.height > 0 else { return largest }
        let covering = entries.filter { $0.width >= box.width && $0.height >= box.height }
        guard let first = covering.first else { return largest }
        return covering.dropFirst().reduce(first) { better($1, than: $0, smaller: true) ? $1 : $0 }
    }
}
