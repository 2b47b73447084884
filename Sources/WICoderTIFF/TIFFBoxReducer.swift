import WICore

/// Box-averages rows streamed from top to bottom by an integer factor, so that a thumbnail decode holds one band
/// of full-width rows and the reduced image, never the full-size bitmap.
///
/// Straight alpha is averaged weighted by alpha (no dark fringes around transparent areas); premultiplied pixels
/// average as they are. Edge blocks that the factor does not divide average over the pixels they have.
/// Not thread-safe: owned by one decode.
struct TIFFBoxReducer {
    let factor: Int
    private let sourceWidth: Int
    private let straightAlpha: Bool
    private let wide: Bool
    private(set) var output: PixelBuffer
    /// Per output pixel: colour sums (weighted by alpha when straight), alpha sum, and the pixel count.
    private var sums: [UInt64]
    private var rowsInBlock = 0
    private var outputRow = 0

    init(source: PixelSize, factor: Int, format: PixelFormat) throws(ImageError) {
        self.factor = factor
        sourceWidth = source.width
        straightAlpha = !format.isPremultiplied
        wide = format.bitsPerComponent == 16
        let size = PixelSize(width: (source.width + factor - 1) / factor, height: (source.height + factor - 1) / factor)
        output = try PixelBuffer(width: size.width, height: size.height, format: format, zeroed: false)
        sums = [UInt64](repeating: 0, count: size.width * 5)
    }

    /// Adds `count` source rows at `rows`, `bytesPerRow` apart.
    mutating func add(rows: UnsafeRawPointer, count: Int, bytesPerRow: Int) throws(ImageError) {
        for r in 0..<count {
            let row = rows + r * bytesPerRow
            if wide {
                accumulate(row.assumingMemoryBound(to: UInt16.self))
            } else {
                accumulate(row.assumingMemoryBound(to: UInt8.self))
            }
            rowsInBlock += 1
            if rowsInBlock == factor { try emit() }
        }
    }

    /// The reduced image, once every source row was added.
    mutating func finish() throws(ImageError) -> PixelBuffer {
        if rowsInBlock > 0 { try emit() }
        return output
    }

    private mutating func accumulate<T: FixedWidthInteger & UnsignedInteger>(_ row: UnsafePointer<T>) {
        let width = sourceWidth
        let factor = self.factor
        let straight = straightAlpha
        sums.withUnsafeMutableBufferPointer { sums in
            var x = 0
            var column = 0
            while x < width {
                let end = Swift.min(x + factor, width)
                var red: UInt64 = 0
                var green: UInt64 = 0
                var blue: UInt64 = 0
                var alpha: UInt64 = 0
                for pixel in x..<end {
                    let p = row + pixel * 4
                    let a = UInt64(p[3])
                    let weight: UInt64 = straight ? a : 1
                    red += UInt64(p[0]) * weight
                    green += UInt64(p[1]) * weight
                    blue += UInt64(p[2]) * weight
                    alpha += a
                }
                let base = column * 5
                sums[base] += red
                sums[base + 1] += green
                sums[base + 2] += blue
                sums[base + 3] += alpha
                sums[base + 4] += UInt64(end - x)
                x = end
                column += 1
            }
        }
    }

    private mutating func emit() throws(ImageError) {
        let y = outputRow
        let straight = straightAlpha
        let wide = self.wide
        let width = output.width
        let stride = output.bytesPerRow
        try sums.withUnsafeMutableBufferPointer { (sums) throws(ImageError) in
            try output.withUnsafeMutableBytes { bytes in
                let row = bytes.baseAddress! + y * stride
                for column in 0..<width {
                    let base = column * 5
                    let count = sums[base + 4]
                    let alphaSum = sums[base + 3]
                    // Straight alpha: colour sums are weighted by alpha, so divide by the alpha sum.
                    let divisor = straight ? alphaSum : count
                    var values: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, (alphaSum + count / 2) / count)
                    if divisor > 0 {
                        values.0 = (sums[base] + divisor / 2) / divisor
                        values.1 = (sums[base + 1] + divisor / 2) / divisor
                        values.2 = (sums[base + 2] + divisor / 2) / divisor
                    }
                    if wide {
                        let p = (row + column * 8).assumingMemoryBound(to: UInt16.self)
                        p[0] = UInt16(values.0)
                        p[1] = UInt16(values.1)
                        p[2] = UInt16(values.2)
                        p[3] = UInt16(values.3)
                    } else {
                        let p = (row + column * 4).assumingMemoryBound(to: UInt8.self)
                        p[0] = UInt8(values.0)
                        p[1] = UInt8(values.1)
                        p[2] = UInt8(values.2)
                        p[3] = UInt8(values.3)
                    }
                    for i in base..<(base + 5) { sums[i] = 0 }
                }
            }
        }
        rowsInBlock = 0
        outputRow += 1
    }
}
