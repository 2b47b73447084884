import WICore

/// Cuts away the borders in the colour of one corner: keeps the bounding box of the pixels whose colour lies
/// farther than `tolerance` (Euclidean distance over R, G, B and A, in 8-bit levels) from the top-left or
/// bottom-right pixel's. The box is found on the first frame and cut from every frame.
///
/// The scan is thumbor 7.8's `trim` (its `_bounding_box`, quirks included: row by row, the first such pixel from
/// the left of each row sets the left and bottom edges, a scan from the right edge the right one); an image with
/// nothing to keep, or a box that scan leaves inverted, is not trimmed. Sizes checked against a thumbor server
/// (Tests/Fixtures/serve-trim). Key: `Trim(top-left,10)`.
///
/// ```swift
/// let cropped = try TrimTransformer(corner: .bottomRight, tolerance: 10).transform(scan)
/// ```
///
/// Thread safety: an immutable value; safe to use from any thread at once.
public struct TrimTransformer: ImageTransformer, Hashable {
    /// The corner whose colour is the border's.
    public enum Corner: String, Hashable, Sendable {
        case topLeft = "top-left"
        case bottomRight = "bottom-right"
    }

    public let corner: Corner
    /// How far a pixel may be from the corner's colour and still be border (0...510).
    public let tolerance: Int

    /// Throws `.invalidArgument` unless `tolerance` is in 0...510 (the largest distance over four 8-bit channels).
    public init(corner: Corner = .topLeft, tolerance: Int = 0) throws(ImageError) {
        try ArgumentCheck.within(tolerance, 0...510, "trim tolerance")
        self.corner = corner
        self.tolerance = tolerance
    }

    public var key: String { TransformerKey.make("Trim", [corner.rawValue, String(tolerance)]) }

    public func transform(_ image: Image) throws(ImageError) -> Image {
        guard let kept = try window(in: try image.frame(at: 0).pixels) else { return image }
        return try CropTransformer(kept).transform(image)
    }

    /// The window trim keeps of `pixels`, or nil when the whole image stays.
    public func window(in pixels: PixelBuffer) throws(ImageError) -> PixelRect? {
        let bytes = try pixels.converted(to: .rgba8).packedBytes()
        let (width, height) = (pixels.width, pixels.height)
        guard width > 0, height > 0 else { return nil }
        let reference = corner == .bottomRight ? ((height - 1) * width + width - 1) * 4 : 0
        let limit = Double(tolerance)
        var left = width
        var top = height
        var right = 0
        var bottom = 0
        var cancelled = false
        bytes.withUnsafeBufferPointer { buffer in
            func differs(_ x: Int, _ y: Int) -> Bool {
                let at = (y * width + x) * 4
                var sum = 0
                for channel in 0..<4 {
                    let difference = Int(buffer[at + channel]) - Int(buffer[reference + channel])
                    sum += difference * difference
                }
                return Double(sum).squareRoot() > limit
            }
            for y in 0..<height {
                if y & 63 == 0, WorkerPool.isCancelled {
                    cancelled = true
                    return
                }
                var x = 0
                while x < width {
                    if differs(x, y) {
                        left = min(left, x)
                        top = min(top, y)
                        bottom = y
                        break
                    }
                    x += 1
                }
                var scan = width - 1
                let stop = max(x, right)
                while scan > stop {
                    if differs(scan, y) {
                        right = max(right, scan)
                        break
                    }
                    scan -= 1
                }
            }
        }
        if cancelled { try WorkerPool.checkCancellation() }
        guard right >= left, bottom >= top else { return nil }
        if left == 0, top == 0, right == width - 1, bottom == height - 1 { return nil }
        return PixelRect(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
    }
}
