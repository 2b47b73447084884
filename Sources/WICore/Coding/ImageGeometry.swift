extension ImageCoding {
    /// The size rules every coder and transformer shares (SDWebImage's `scaledSize` rules).
    ///
    /// Thread safety: pure functions and constants; safe from any thread.
    public enum Geometry {
        /// The largest width or height any caller may ask for (a resize, crop, thumbnail or encode box): 65536 (1 << 16).
        /// Initializers and `validate()` methods refuse larger values with `.invalidArgument`.
        public static let maximumSide = 1 << 16

        /// The size of `source` scaled into `box`.
        ///
        /// Never upscales (a source already inside the box keeps its size). With the aspect kept the result fits inside
        /// the box, rounded (5250x3450 into 400x300 gives 400x263); otherwise each side is the box's, or the source's
        /// where that is smaller (100x200 into 150x150 gives 100x150, as SDWebImage's `scaledSizeWithImageSize`
        /// without scaling up). A box dimension of 0 leaves that dimension free. Results are at least 1x1.
        public static func scaledSize(of source: PixelSize, toFit box: PixelSize, preserveAspectRatio: Bool = true)
            -> PixelSize
        {
            guard source.width > 0, source.height > 0, box.width > 0 || box.height > 0 else { return source }
            let boxWidth = box.width > 0 ? box.width : Int.max
            let boxHeight = box.height > 0 ? box.height : Int.max
            if source.width <= boxWidth && source.height <= boxHeight { return source }
            if !preserveAspectRatio {
                // Each side clamped to the box on its own: never larger than the source's.
                return PixelSize(width: Swift.min(boxWidth, source.width), height: Swift.min(boxHeight, source.height))
            }
            let ratio = Swift.min(Double(boxWidth) / Double(source.width), Double(boxHeight) / Double(source.height))
            let width = Swift.max(1, Swift.min(boxWidth, Int((Double(source.width) * ratio).rounded())))
            let height = Swift.max(1, Swift.min(boxHeight, Int((Double(source.height) * ratio).rounded())))
            return PixelSize(width: width, height: height)
        }

        /// The largest size with the aspect of `source` whose pixels take at most `limitBytes` (at least 1x1).
        public static func scaledSize(of source: PixelSize, limitBytes: Int, bytesPerPixel: Int = 4) -> PixelSize {
            let limitPixels = Swift.max(1, limitBytes / Swift.max(1, bytesPerPixel))
            guard source.area > limitPixels else { return source }
            let factor = (Double(limitPixels) / Double(source.area)).squareRoot()
            var width = Swift.max(1, Int((Double(source.width) * factor).rounded(.down)))
            var height = Swift.max(1, Int((Double(source.height) * factor).rounded(.down)))
            while width * height > limitPixels && (width > 1 || height > 1) {
                if width >= height { width -= 1 } else { height -= 1 }
            }
            return PixelSize(width: width, height: height)
        }
    }
}
