import WICore

/// thumbor's `trim`: the bounding box of the pixels whose colour lies farther than the tolerance (Euclidean distance
/// over R, G, B and A) from the top-left or bottom-right pixel's, found as thumbor's `_bounding_box` finds it, row by
/// row: the first such pixel from the left of each row sets the left and bottom edges, a scan from the right edge
/// the right one. An image with nothing to keep (or a box thumbor's scan leaves inverted) is not trimmed.
///
/// Thread safety: stateless.
enum Trimming {
    /// The window to keep (`x`, `y`, `width`, `height`) of `pixels`, or nil when the whole image stays.
    static func window(of pixels: PixelBuffer, _ trim: ThumborRequest.Trim) throws(ImageError)
        -> (x: Int, y: Int, width: Int, height: Int)?
    {
        let bytes = try pixels.converted(to: .rgba8).packedBytes()
        let (width, height) = (pixels.width, pixels.height)
        guard width > 0, height > 0 else { return nil }
        let reference = trim.bottomRight ? ((height - 1) * width + width - 1) * 4 : 0
        let limit = Double(trim.tolerance)
        var left = width, top = height, right = 0, bottom = 0
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
        guard right >= left, bottom >= top else { return nil }
        if left == 0, top == 0, right == width - 1, bottom == height - 1 { return nil }
        return (left, top, right - left + 1, bottom - top + 1)
    }
}
