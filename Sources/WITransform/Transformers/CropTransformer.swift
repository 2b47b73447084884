import WICore

/// Cuts out a rectangle, pixel for pixel; the part of the rectangle outside the image is dropped.
///
/// Key: `Crop(10,20,200x200)` (x, y, size). `transform` throws `.badImageData` when the rectangle misses the image.
///
/// ```swift
/// let square = try CropTransformer(x: 0, y: 0, width: 200, height: 200).transform(image)
/// ```
///
/// Thread safety: an immutable value; safe to use from any thread at once.
public struct CropTransformer: ImageTransformer, Hashable {
    public let x: Int
    public let y: Int
    public let size: PixelSize

    /// The rectangle with top-left (`x`, `y`) and size `width` x `height`.
    ///
    /// Throws `.invalidArgument` unless `width` and `height` are in 1...`ImageCoding.Geometry.maximumSide` and `x` and `y`
    /// in -`maximumSide`...`maximumSide`.
    public init(x: Int, y: Int, width: Int, height: Int) throws(ImageError) {
        let limit = ImageCoding.Geometry.maximumSide
        try ArgumentCheck.within(x, -limit...limit, "crop x")
        try ArgumentCheck.within(y, -limit...limit, "crop y")
        try ArgumentCheck.side(width, "crop width")
        try ArgumentCheck.side(height, "crop height")
        self.x = x
        self.y = y
        self.size = PixelSize(width: width, height: height)
    }

    /// The rectangle `rect`; throws as `init(x:y:width:height:)`.
    public init(_ rect: PixelRect) throws(ImageError) {
        try self.init(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
    }

    public var key: String { TransformerKey.make("Crop", [String(x), String(y), "\(size)"]) }

    public func transform(_ image: Image) throws(ImageError) -> Image {
        let left = max(0, x)
        let top = max(0, y)
        let right = min(image.width, x + size.width)
        let bottom = min(image.height, y + size.height)
        guard right > left, bottom > top else {
            throw ImageError(.badImageData, "crop \(key) lies outside the \(image.size) image")
        }
        let outputSize = PixelSize(width: right - left, height: bottom - top)
        return try image.transformingFrames(outputSize: outputSize) { buffer throws(ImageError) in
            // The rows copied as they are, in the frame's own format: no premultiplication round trip, so
            // translucent pixels keep their exact colour.
            var output = try PixelBuffer(
                width: outputSize.width, height: outputSize.height, format: buffer.format,
                zeroed: false)
            let pixel = buffer.format.bytesPerPixel
            let rowLength = outputSize.width * pixel
            let targetStride = output.bytesPerRow
            try output.withUnsafeMutableBytes { (target: UnsafeMutableRawBufferPointer) throws(ImageError) in
                buffer.withUnsafeBytes { (source: UnsafeRawBufferPointer) in
                    guard let targetBase = target.baseAddress, let sourceBase = source.baseAddress else { return }
                    for row in 0..<outputSize.height {
                        (targetBase + row * targetStride).copyMemory(
                            from: sourceBase + (top + row) * buffer.bytesPerRow + left * pixel, byteCount: rowLength)
                    }
                }
            }
            return output
        }
    }
}
