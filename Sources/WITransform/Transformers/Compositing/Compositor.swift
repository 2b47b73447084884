import WICore

/// Draws one straight-alpha RGBA8 buffer over another, clipped, with one of the two arithmetics thumbor uses:
/// the one implementation behind `CanvasTransformer` (a frame over a colour) and `OverlayTransformer` (an image over
/// a frame).
///
/// Thread safety: stateless.
enum Compositor {
    /// `source` (`sourceSize`, packed RGBA8) drawn over `target` (`targetSize`, packed RGBA8) with its top left
    /// corner at (`left`, `top`); the parts outside the target are skipped. Stops (`.cancelled`) every 16 rows
    /// when its pool job was cancelled.
    static func merge(
        _ source: UnsafeBufferPointer<UInt8>, size sourceSize: PixelSize,
        into target: UnsafeMutableBufferPointer<UInt8>, size targetSize: PixelSize,
        at left: Int, _ top: Int, blending: CanvasTransformer.Blending
    ) throws(ImageError) {
        let startX = max(0, -left)
        let startY = max(0, -top)
        let originX = max(0, left)
        let originY = max(0, top)
        guard startX < sourceSize.width, startY < sourceSize.height, originX < targetSize.width,
            originY < targetSize.height
        else { return }
        let columns = min(sourceSize.width - startX, targetSize.width - originX)
        let rows = min(sourceSize.height - startY, targetSize.height - originY)
        for row in 0..<rows {
            if row & 15 == 0 { try WorkerPool.checkCancellation() }
            var from = ((startY + row) * sourceSize.width + startX) * 4
            var to = ((originY + row) * targetSize.width + originX) * 4
            switch blending {
            case .sourceOver:
                for _ in 0..<columns {
                    sourceOver(source, at: from, into: target, at: to)
                    from += 4
                    to += 4
                }
            case .composite:
                for _ in 0..<columns {
                    composite(source, at: from, into: target, at: to)
                    from += 4
                    to += 4
                }
            }
        }
    }

    /// `frame` (any format) drawn over a `canvas` of `color` with its top left corner at (`left`, `top`), clipped:
    /// the body of `CanvasTransformer` and `PaddingTransformer`. Straight RGBA8.
    static func drawn(
        _ frame: PixelBuffer, over color: RGBAColor, canvas: PixelSize, at left: Int, _ top: Int,
        blending: CanvasTransformer.Blending
    ) throws(ImageError) -> PixelBuffer {
        let source = try frame.converted(to: .rgba8).packedBytes()
        var output = try filled(color, size: canvas)
        try source.withUnsafeBufferPointer { (source) throws(ImageError) in
            try output.withUnsafeMutableBufferPointer { (target) throws(ImageError) in
                try merge(source, size: frame.size, into: target, size: canvas, at: left, top, blending: blending)
            }
        }
        return try PixelBuffer(width: canvas.width, height: canvas.height, format: .rgba8, bytes: output)
    }

    /// A buffer of `size` pixels of `color` (packed RGBA8); stops (`.cancelled`) every 256K pixels when its pool
    /// job was cancelled.
    static func filled(_ color: RGBAColor, size: PixelSize) throws(ImageError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: size.width * size.height * 4)
        try bytes.withUnsafeMutableBufferPointer { (buffer) throws(ImageError) in
            for index in stride(from: 0, to: buffer.count, by: 4) {
                if index & 0xF_FFFF == 0 { try WorkerPool.checkCancellation() }
                buffer[index] = color.red
                buffer[index + 1] = color.green
                buffer[index + 2] = color.blue
                buffer[index + 3] = color.alpha
            }
        }
        return bytes
    }

    /// Straight-alpha source-over, rounded to nearest: the output alpha is the source's plus the target's share of
    /// what the source leaves (truncated), each colour the alpha-weighted mean.
    @inline(__always)
    private static func sourceOver(
        _ source: UnsafeBufferPointer<UInt8>, at from: Int,
        into target: UnsafeMutableBufferPointer<UInt8>, at to: Int
    ) {
        let alpha = Int(source[from + 3])
        if alpha == 255 {
            for channel in 0..<4 { target[to + channel] = source[from + channel] }
            return
        }
        let below = Int(target[to + 3]) * (255 - alpha) / 255
        let total = alpha + below
        guard total > 0 else {
            for channel in 0..<4 { target[to + channel] = 0 }
            return
        }
        for channel in 0..<3 {
            let value = (Int(source[from + channel]) * alpha + Int(target[to + channel]) * below + total / 2) / total
            target[to + channel] = UInt8(min(255, value))
        }
        target[to + 3] = UInt8(total)
    }

    /// thumbor's `_composite` for one pixel: the alphas turned into transparencies, the colours weighted by them,
    /// the result divided by the combined opacity, each channel clamped and truncated (double precision).
    @inline(__always)
    private static func composite(
        _ source: UnsafeBufferPointer<UInt8>, at from: Int,
        into target: UnsafeMutableBufferPointer<UInt8>, at to: Int
    ) {
        let over = Double(255 - Int(source[from + 3]))
        let under = Double(255 - Int(target[to + 3]))
        var delta = (over / 255) * (under / 255)
        let alpha = 255 - 255 * delta
        delta = 1 - delta
        delta = delta <= 1e-12 ? 1 : 1 / delta
        for channel in 0..<3 {
            let top = Double(source[from + channel])
            let bottom = Double(target[to + channel])
            let mixed = (1 - over / 255) * top + (1 - under / 255) * bottom * (over / 255)
            target[to + channel] = truncated(delta * mixed)
        }
        target[to + 3] = truncated(alpha)
    }

    /// Clamped to 0...255, then truncated (thumbor's `ADJUST_COLOR_DOUBLE`).
    @inline(__always)
    private static func truncated(_ value: Double) -> UInt8 {
        value > 255 ? 255 : value < 0 ? 0 : UInt8(value)
    }
}
