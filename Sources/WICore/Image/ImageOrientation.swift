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
    public func applying(_ orientation: ImageOrientation) throws(ImageError) -> PixelBuffer {
        if orientation == .up { return self }
        let (w, h) = (width, height)
        let outWidth = orientation.swapsDimensions ? h : w
        let outHeight = orientation.swapsDimensions ? w : h
        var output = try PixelBuffer(width: outWidth, height: outHeight, format: format, zeroed: false)
        let bpp = format.bytesPerPixel
        let source = self
        let outputRowBytes = output.bytesPerRow
        try output.withUnsafeMutableBytes { out in
            source.withUnsafeBytes { input in
                for y in 0..<h {
                    let inRow = input.baseAddress! + y * source.bytesPerRow
                    for x in 0..<w {
                        // Where stored pixel (x, y) lands once displayed.
                        let (dx, dy): (Int, Int) =
                            switch orientation {
                            case .up: (x, y)
                            case .upMirrored: (w - 1 - x, y)
                            case .down: (w - 1 - x, h - 1 - y)
                            case .downMirrored: (x, h - 1 - y)
                            case .leftMirrored: (y, x)
                            case .right: (h - 1 - y, x)
                            case .rightMirrored: (h - 1 - y, w - 1 - x)
                            case .left: (y, w - 1 - x)
                            }
                        (out.baseAddress! + dy * outputRowBytes + dx * bpp).copyMemory(
                            from: inRow + x * bpp, byteCount: bpp)
                    }
                }
            }
        }
        return output
    }
}
