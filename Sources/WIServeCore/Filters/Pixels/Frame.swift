import WICore
import WITransform

extension ThumborFilters {
    /// `frame(URL)`: thumbor 7.8's nine-patch frame, as thumbor 7.8 really draws it (decision 0085): every frame
    /// padded with opaque white by the widths `padding(of:)` reads from the frame image, the image composited over
    /// the white (`PaddingTransformer`, `.composite`). The frame image is loaded before the transform, like a
    /// watermark.
    struct Frame: ThumborFilter {
        static let name = "frame"
        /// The frame image's URL, as the request names it (`http://` added when it has no scheme).
        var url: String

        init(_ arguments: ThumborFilterArguments) throws(ServeError) {
            try arguments.count(1...1)
            guard let url = ThumborRequest.filterImageURL(arguments[0]) else {
                throw arguments.failure("argument 1 must be the frame image's URL")
            }
            self.url = url
        }

        func transformer(watermarks: [String: Image]) throws(ImageError) -> (any ImageTransformer)? {
            guard let image = watermarks[url] else {
                throw ImageError(.invalidArgument, "the frame \(url) was not loaded")
            }
            let widths = try Self.padding(of: image.pixels)
            return try PaddingTransformer(
                left: widths.left, top: widths.top, right: widths.right, bottom: widths.bottom, color: .white,
                blending: .composite)
        }

        func apply(to image: Image, in context: inout ThumborFilterContext) throws(ImageError) -> Image {
            guard let step = try transformer(watermarks: context.watermarks) as? PaddingTransformer else {
                return image
            }
            // Each width is below the frame image's side, itself within the pixel limit: no overflow.
            try context.checkLimit(
                PixelSize(
                    width: image.width + step.left + step.right, height: image.height + step.top + step.bottom))
            return try step.transform(image)
        }

        /// The padding (in pixels) thumbor 7.8's `_nine_patch.get_padding` finds in `frame`. Its C reads the image
        /// mode through a pointer to a Python object rather than to the text "RGBA", which makes every pixel one
        /// byte wide with that byte as its alpha: the frame's RGBA8 bytes are read as a `width` x `height` grid of
        /// single bytes (the first quarter of the pixels), a marker being a byte of 255. Left: the first marker
        /// of the grid's bottom row (columns 1...width-2) minus 1; right: the columns after its last marker; top and
        /// bottom the same down the right column (rows 1...height-2); 0 without a marker. Bounded by the frame's
        /// sides, so a `PaddingTransformer` accepts them.
        static func padding(of frame: PixelBuffer) throws(ImageError) -> (left: Int, top: Int, right: Int, bottom: Int)
        {
            let (width, height) = (frame.width, frame.height)
            guard width > 2, height > 2 else { return (0, 0, 0, 0) }
            // Only one row and one column of the grid are read, in place (a frame image can be large): byte `index`
            // of the packed RGBA8 pixels is in row `index / rowLength` of the buffer.
            let pixels = frame.format == .rgba8 ? frame : try frame.converted(to: .rgba8)
            let rowLength = width * 4
            return pixels.withUnsafeBytes { bytes in
                func marker(_ x: Int, _ y: Int) -> Bool {
                    let index = y * width + x
                    return bytes[index / rowLength * pixels.bytesPerRow + index % rowLength] == 255
                }
                let columns = 1...(width - 2)
                let rows = 1...(height - 2)
                let first = columns.first { marker($0, height - 1) }
                let last = columns.last { marker($0, height - 1) }
                let top = rows.first { marker(width - 1, $0) }
                let bottom = rows.last { marker(width - 1, $0) }
                return (
                    first.map { $0 - 1 } ?? 0, top.map { $0 - 1 } ?? 0, last.map { width - 2 - $0 } ?? 0,
                    bottom.map { height - 2 - $0 } ?? 0
                )
            }
        }

        var description: String { "frame(\(url))" }
    }
}
