/// How stored pixels must be turned to appear upright: the EXIF orientation values 1 to 8.
///
/// Coders apply the orientation by default, so images come back `.up`; with
/// `DecodeOptions.applyOrientation = false` they keep the stored pixels and report the orientation here.
///
/// Thread safety: a value type; safe to send and share.
public enum ImageOrientation: Int, Hashable, Sendable, CaseIterable {
    /// 1: stored upright.
    case up = 1
    /// 2: mirrored left to right.
    case upMirrored = 2
    /// 3: rotated 180 degrees.
    case down = 3
    /// 4: mirrored top to bottom.
    case downMirrored = 4
    /// 5: mirrored along the top-left to bottom-right diagonal (transposed).
    case leftMirrored = 5
    /// 6: must be rotated 90 degrees clockwise to display.
    case right = 6
    /// 7: mirrored along the top-right to bottom-left diagonal (transversed).
    case rightMirrored = 7
    /// 8: must be rotated 90 degrees counter-clockwise to display.
    case left = 8

    /// Whether displaying swaps width and height (orientations 5 to 8).
    public var swapsDimensions: Bool { rawValue >= 5 }
}

extension PixelBuffer {
    /// The pixels turned upright for `orientation` (a new buffer; `self` for `.up`).
    ///
    /// Each source row is read once and written along the line its pixels take once displayed (a row for the
    /// mirrors and the half turn, a column for the quarter turns), a pixel at a time as one 32- or 64-bit word; the
    /// quarter turns go in 64x64 tiles so that the columns written stay in cache.
    public func applying(_ orientation: ImageOrientation) throws(ImageError) -> PixelBuffer {
        if orientation == .up { return self }
        let (w, h) = (width, height)
        var output = try PixelBuffer(
            width: orientation.swapsDimensions ? h : w, height: orientation.swapsDimensions ? w : h, format: format,
            zeroed: false)
        let source = self
        let outputRowBytes = output.bytesPerRow
        let wide = format.bytesPerPixel == 8
        try output.withUnsafeMutableBytes { (out) throws(ImageError) in
            try source.withUnsafeBytes { (input) throws(ImageError) in
                let geometry = Reorientation(
                    orientation: orientation, width: w, height: h, inputRowBytes: source.bytesPerRow,
                    outputRowBytes: outputRowBytes)
                if wide {
                    try geometry.copy(UInt64.self, from: input.baseAddress!, to: out.baseAddress!)
                } else {
                    try geometry.copy(UInt32.self, from: input.baseAddress!, to: out.baseAddress!)
                }
            }
        }
        return output
    }
}

/// Where each stored pixel goes once displayed, and the loops that move them.
private struct Reorientation {
    let orientation: ImageOrientation
    let width: Int, height: Int, inputRowBytes: Int, outputRowBytes: Int

    /// Where stored pixel (x, y) lands once displayed.
    func target(_ x: Int, _ y: Int) -> (x: Int, y: Int) {
        let (w, h) = (width, height)
        return switch orientation {
        case .up: (x, y)
        case .upMirrored: (w - 1 - x, y)
        case .down: (w - 1 - x, h - 1 - y)
        case .downMirrored: (x, h - 1 - y)
        case .leftMirrored: (y, x)
        case .right: (h - 1 - y, x)
        case .rightMirrored: (h - 1 - y, w - 1 - x)
        case .left: (y, w - 1 - x)
        }
    }

    /// Copies every pixel (one `Pixel` word each) from `input` to its place in `output`, 64 rows at a time, the pool
    /// job's cancellation looked at between them.
    func copy<Pixel: FixedWidthInteger>(_: Pixel.Type, from input: UnsafeRawPointer, to output: UnsafeMutableRawPointer)
        throws(ImageError)
    {
        let size = MemoryLayout<Pixel>.size
        // Where the next source pixel of a row lands, relative to this one's place.
        let step: Int =
            switch orientation {
            case .up, .downMirrored: size
            case .upMirrored, .down: -size
            case .leftMirrored, .right: outputRowBytes
            case .rightMirrored, .left: -outputRowBytes
            }
        let tile = orientation.swapsDimensions ? 64 : width
        for top in stride(from: 0, to: height, by: 64) {
            try WorkerPool.checkCancellation()
            for left in stride(from: 0, to: width, by: tile) {
                let count = min(tile, width - left)
                for y in top..<min(top + 64, height) {
                    let start = target(left, y)
                    var to = output + start.y * outputRowBytes + start.x * size
                    var from = input + y * inputRowBytes + left * size
                    for _ in 0..<count {
                        to.storeBytes(of: from.loadUnaligned(as: Pixel.self), as: Pixel.self)
                        from += size
                        to += step
                    }
                }
            }
        }
    }
}
