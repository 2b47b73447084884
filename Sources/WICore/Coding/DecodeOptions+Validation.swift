extension DecodeOptions {
    /// Throws `.invalidArgument` when a value is out of range, naming it: thumbnail or vector viewport sides outside
    /// 0...`ImageCoding.Geometry.maximumSide` (0 leaves a side free), a `scaleFactor` that is not a finite number above 0,
    /// a `scaleDownLimitBytes` below 1, a `pixelLimit` below 1, or a `frameBufferLimitBytes` below 0.
    ///
    /// `ImageCodersManager` and the pipeline call it before decoding, so values taken from a query string give an
    /// error rather than a surprise. Thread safety: a pure function of the value.
    public func validate() throws(ImageError) {
        if let box = thumbnailPixelSize {
            try ArgumentCheck.within(box.width, 0...ImageCoding.Geometry.maximumSide, "thumbnail width")
            try ArgumentCheck.within(box.height, 0...ImageCoding.Geometry.maximumSide, "thumbnail height")
        }
        if let viewport = vectorViewport {
            try ArgumentCheck.within(viewport.width, 0...ImageCoding.Geometry.maximumSide, "vector viewport width")
            try ArgumentCheck.within(viewport.height, 0...ImageCoding.Geometry.maximumSide, "vector viewport height")
        }
        guard scaleFactor.isFinite, scaleFactor > 0 else {
            throw ArgumentCheck.invalid("scale factor", "be a finite number > 0", String(scaleFactor))
        }
        if let scaleDownLimitBytes {
            try ArgumentCheck.within(scaleDownLimitBytes, 1...Int.max, "scale-down limit bytes")
        }
        try ArgumentCheck.within(pixelLimit, 1...Int.max, "pixel limit")
        try ArgumentCheck.within(frameBufferLimitBytes, 0...Int.max, "frame buffer limit bytes")
        try ArgumentCheck.within(frameLimit, 1...Int.max, "frame limit")
    }

    /// These options after `validate()`, for chaining: `try options.validated()`.
    public func validated() throws(ImageError) -> DecodeOptions {
        try validate()
        return self
    }
}
