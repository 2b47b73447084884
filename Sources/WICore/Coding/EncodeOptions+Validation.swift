extension EncodeOptions {
    /// Throws `.invalidArgument` when a value is out of range, naming it: a `quality` that is not a finite number
    /// in 0...1, `maxPixelSize` sides outside 1...`ImageCoding.Geometry.maximumSide`, or a `maxFileSize` below 1.
    ///
    /// `ImageCodersManager.encode` calls it before encoding. Thread safety: a pure function of the value.
    public func validate() throws(ImageError) {
        try ArgumentCheck.within(quality, 0...1, "quality")
        if let box = maxPixelSize {
            try ArgumentCheck.side(box.width, "max pixel width")
            try ArgumentCheck.side(box.height, "max pixel height")
        }
        if let maxFileSize { try ArgumentCheck.within(maxFileSize, 1...Int.max, "max file size") }
    }

    /// These options after `validate()`, for chaining: `try options.validated()`.
    public func validated() throws(ImageError) -> EncodeOptions {
        try validate()
        return self
    }
}
