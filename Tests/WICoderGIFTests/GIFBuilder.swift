import Foundation

/// Writes small GIFs byte by byte for tests whose expected frames are derived by hand from the GIF rules.
///
/// Pixel data is "uncompressed" LZW: literal codes only, with a clear code often enough that the code width never
/// grows, so every file is valid for any LZW decoder and its pixels are exactly the indices given.
struct GIFBuilder {
    struct Frame {
        var x = 0, y = 0, width: Int, height: Int
        /// Palette indices, row by row (in display order; the builder interlaces them when asked).
        var indices: [UInt8]
        var localPalette: [(UInt8, UInt8, UInt8)]? = nil
        var interlaced = false
        /// Graphic control extension: delay in 1/100 s, disposal method, transparent index; nil writes none.
        var control: (delay: Int, disposal: Int, transparent: Int?)? = nil
    }

    var width: Int
    var height: Int
    var globalPalette: [(UInt8, UInt8, UInt8)]? = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]
    /// The NETSCAPE2.0 loop value; nil writes no extension.
    var netscapeLoops: Int? = nil
    var frames: [Frame] = []
    var trailer = true

    func build() -> Data {
        var out = [UInt8]("GIF89a".utf8)
        out += le16(width) + le16(height)
        out.append(globalPalette.map { 0x80 | UInt8(Self.sizeBits($0.count)) } ?? 0)
        out += [0, 0]
        if let globalPalette { out += Self.paletteBytes(globalPalette) }
        if let netscapeLoops {
            out += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1] + le16(netscapeLoops) + [0]
        }
        for frame in frames {
            if let control = frame.control {
                let packed = UInt8(control.disposal << 2) | (control.transparent == nil ? 0 : 1)
                out += [0x21, 0xF9, 4, packed] + le16(control.delay) + [UInt8(control.transparent ?? 0), 0]
            }
            out.append(0x2C)
            out += le16(frame.x) + le16(frame.y) + le16(frame.width) + le16(frame.height)
            var packed: UInt8 = frame.interlaced ? 0x40 : 0
            if let local = frame.localPalette { packed |= 0x80 | UInt8(Self.sizeBits(local.count)) }
            out.append(packed)
            if let local = frame.localPalette { out += Self.paletteBytes(local) }
            let rows = frame.interlaced ? Self.interlacedOrder(frame.height) : Array(0..<frame.height)
            var stored: [UInt8] = []
            for row in rows { stored += frame.indices[(row * frame.width)..<((row + 1) * frame.width)] }
            out += Self.lzw(stored, minimumCodeSize: 2)
        }
        if trailer { out.append(0x3B) }
        return Data(out)
    }

    private func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }

    private static func sizeBits(_ count: Int) -> Int {
        var bits = 0
        while 2 << bits < count { bits += 1 }
        return bits
    }

    private static func paletteBytes(_ palette: [(UInt8, UInt8, UInt8)]) -> [UInt8] {
        var bytes = palette.flatMap { [$0.0, $0.1, $0.2] }
        bytes += [UInt8](repeating: 0, count: (2 << sizeBits(palette.count)) * 3 - bytes.count)
        return bytes
    }

    static func interlacedOrder(_ height: Int) -> [Int] {
        [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in stride(from: start, to: height, by: step) }
    }

    /// Literal-only LZW at code width minimumCodeSize + 1, a clear code every 2^m - 2 literals; then sub-blocks.
    static func lzw(_ indices: [UInt8], minimumCodeSize m: Int) -> [UInt8] {
        let clear = 1 << m
        let end = clear + 1
        let width = m + 1
        var codes = [clear]
        for (i, index) in indices.enumerated() {
            if i > 0 && i % (clear - 2) == 0 { codes.append(clear) }
            codes.append(Int(index))
        }
        codes.append(end)
        var bytes: [UInt8] = []
        var accumulator = 0
        var bits = 0
        for code in codes {
            accumulator |= code << bits
            bits += width
            while bits >= 8 {
                bytes.append(UInt8(accumulator & 0xFF))
                accumulator >>= 8
                bits -= 8
            }
        }
        if bits > 0 { bytes.append(UInt8(accumulator & 0xFF)) }
        var out: [UInt8] = [UInt8(m)]
        var start = 0
        while start < bytes.count {
            let chunk = bytes[start..<Swift.min(start + 255, bytes.count)]
            out.append(UInt8(chunk.count))
            out += chunk
            start += 255
        }
        out.append(0)
        return out
    }
}
