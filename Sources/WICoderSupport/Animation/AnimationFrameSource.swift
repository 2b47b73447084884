import WICore

extension ImageCoding {
    /// Decodes the frames of one animated file, each on its own (not composited): what an animated coder gives
    /// `ImageCoding.CompositedAnimationDecoder`.
    ///
    /// Thread safety: `Sendable`; `pixels(ofFrame:)` and `draw(frame:info:onto:)` may be called from any thread (one
    /// call at a time per decoder).
    public protocol AnimationFrameSource: Sendable {
        /// Frame `index`'s own pixels: RGBA8 (straight or premultiplied alpha), exactly the size of its
        /// `ImageCoding.AnimationFrameInfo` rectangle. Errors: `.badImageData` for damaged data, `.outOfMemory`.
        func pixels(ofFrame index: Int) throws(ImageError) -> PixelBuffer

        /// Draws frame `index` onto `canvas` (the full RGBA8 straight-alpha canvas) inside `info`'s rectangle with
        /// `info.blend`, exactly as `ImageCoding.FrameCompositor` draws the frame's `pixels(ofFrame:)`, touching nothing outside
        /// the rectangle. The default does that; a source that can write its pixels in place (GIF palette indices)
        /// implements it to save the intermediate frame buffer. Errors as for `pixels(ofFrame:)`.
        func draw(frame index: Int, info: ImageCoding.AnimationFrameInfo, onto canvas: inout PixelBuffer)
            throws(ImageError)
    }
}

extension ImageCoding.AnimationFrameSource {
    public func draw(frame index: Int, info: ImageCoding.AnimationFrameInfo, onto canvas: inout PixelBuffer)
        throws(ImageError)
    {
        try ImageCoding.FrameCompositor.draw(pixels(ofFrame: index), frame: index, info: info, onto: &canvas)
    }
}
