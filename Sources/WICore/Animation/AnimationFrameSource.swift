/// Decodes the frames of one animated file, each on its own (not composited): what an animated coder gives
/// `CompositedAnimationDecoder`.
///
/// Thread safety: `Sendable`; `pixels(ofFrame:)` may be called from any thread (one call at a time per decoder).
public protocol AnimationFrameSource: Sendable {
    /// Frame `index`'s own pixels: RGBA8 (straight or premultiplied alpha), exactly the size of its
    /// `AnimationFrameInfo` rectangle. Errors: `.badImageData` for damaged data, `.outOfMemory`.
    func pixels(ofFrame index: Int) throws(ImageError) -> PixelBuffer
}
