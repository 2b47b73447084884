import WICore

/// thumbor's `_composite` with merge: one RGBA8 image drawn over another, both alphas taken into account, in
/// double precision, each channel clamped and truncated, as thumbor's extension computes it (its watermarks and
/// `background_color()`).
///
/// Thread safety: stateless.
enum ThumborComposite {
    /// `source` drawn over `target` with its top left corner at (`left`, `top`),
    /// clipped to the target.
    static func merge(_ source: [UInt8], size sourceSize: PixelSize, into target: inout [UInt8], size targetSize: PixelSize,
                      at left: Int, _ top: Int) {
        let startX = max(0, -left), startY = max(0, -top)
        let originX = max(0, left), originY = max(0, top)
        guard startX < sourceSize.width, startY < sourceSize.height, originX < targetSize.width,
              originY < targetSize.height else { return }
        let columns = min(sourceSize.width - startX, targetSize.width - originX)
        let rows = min(sourceSize.height - startY, targetSize.height - originY)
        source.withUnsafeBufferPointer { source in
            target.withUnsafeMutableBufferPointer { target in
                for row in 0..<rows {
                    var from = ((startY + row) * sourceSize.width + startX) * 4
                    var to = ((originY + row) * targetSize.width + originX) * 4
                    for _ in 0..<columns {
                        mergePixel(source, at: from, into: target, at: to)
                        from += 4
                        to += 4
                    }
                }
            }
        }
    }

    /// One pixel of `_composite`: the alphas turned into transparencies, the colours weighted by them, the result
    /// divided by the combined opacity, each channel clamped and truncated.
    @inline(__always)
    private static func mergePixel(_ source: UnsafeBufferPointer<UInt8>, at from: Int,
                                   into target: UnsafeMutableBufferPointer<UInt8>, at to: Int) {
        let over = Double(255 - Int(source[from + 3])), under = Double(255 - Int(target[to + 3]))
        var delta = (over / 255) * (under / 255)
        let alpha = 255 - 255 * delta
        delta = 1 - delta
        delta = delta <= 1e-12 ? 1 : 1 / delta
        for channel in 0..<3 {
            let top = Double(source[from + channel]), bottom = Double(target[to + channel])
            let mixed = (1 - over / 255) * top + (1 - under / 255) * bottom * (over / 255)
            target[to + channel] = truncated(delta * mixed)
        }
        target[to + 3] = truncated(alpha)
    }

    /// thumbor's `ADJUST_COLOR_DOUBLE`: clamped to 0...255, then truncated.
    @inline(__always)
    private static func truncated(_ value: Double) -> UInt8 {
        value > 255 ? 255 : value < 0 ? 0 : UInt8(value)
    }

    /// `image`'s frames, each merged over a canvas of `color` of its own size (`background_color()`).
    static func over(_ color: RGBAColor, image: Image) throws(ImageError) -> Image {
        try image.mappingFrames { (pixels) throws(ImageError) in
            let source = try pixels.converted(to: .rgba8).packedBytes()
            var target = [UInt8](repeating: 0, count: source.count)
            for index in stride(from: 0, to: target.count, by: 4) {
                target[index] = color.red
                target[index + 1] = color.green
                target[index + 2] = color.blue
                target[index + 3] = color.alpha
            }
            merge(source, size: pixels.size, into: &target, size: pixels.size, at: 0, 0)
            return try PixelBuffer(width: pixels.width, height: pixels.height, format: .rgba8, bytes: target)
        }
    }
}
