extension DecodeOptions {
    /// Whether an animation of `frameCount` frames is decoded on demand into an `ImageCoding.AnimatedFrameBuffer` (neither
    /// `firstFrameOnly` nor `preloadAllFrames`, and more than one frame).
    ///
    /// Thread safety: a pure function of the value.
    public func decodesOnDemand(frameCount: Int) -> Bool {
        frameCount > 1 && !firstFrameOnly && !preloadAllFrames
    }

    /// How many decoded frames besides the first an `ImageCoding.AnimatedFrameBuffer` keeps when each takes `frameBytes`:
    /// `frameBufferLimitBytes / frameBytes`, at least 1.
    ///
    /// Thread safety: a pure function of the value.
    public func frameBufferCapacity(frameBytes: Int) -> Int {
        Swift.max(1, frameBufferLimitBytes / Swift.max(1, frameBytes))
    }

    /// How many canvas states a `ImageCoding.FrameCompositor` keeps for an animation on a canvas of `canvasBytes`: 32 when
    /// frames are decoded up front; on demand, as many as a quarter of `frameBufferLimitBytes` holds, 1 to 32.
    ///
    /// Thread safety: a pure function of the value.
    public func keyframeLimit(canvasBytes: Int, frameCount: Int) -> Int {
        guard decodesOnDemand(frameCount: frameCount) else { return Self.upFrontKeyframes }
        return Swift.min(Self.upFrontKeyframes, Swift.max(1, frameBufferLimitBytes / 4 / Swift.max(1, canvasBytes)))
    }

    /// The number of frames to check against `pixelLimit` for an animation of `frameCount` frames on `canvas`:
    /// the frames held decoded at once. 1 with `firstFrameOnly`, every frame with `preloadAllFrames`, and on demand
    /// the first frame, the frame buffer, the compositor's keyframes and its working canvas (at most `frameCount`).
    ///
    /// Thread safety: a pure function of the value.
    public func pixelLimitFrameCount(frameCount: Int, canvas: PixelSize) -> Int {
        if firstFrameOnly { return Swift.min(1, frameCount) }
        guard decodesOnDemand(frameCount: frameCount) else { return frameCount }
        let (canvasBytes, overflow) = canvas.area.multipliedReportingOverflow(by: 4)
        let bytes = overflow ? Int.max : canvasBytes
        let held =
            2 + frameBufferCapacity(frameBytes: bytes) + keyframeLimit(canvasBytes: bytes, frameCount: frameCount)
        return Swift.min(frameCount, held)
    }

    /// The keyframes a compositor keeps for frames decoded up front (and at most on demand).
    static let upFrontKeyframes = 32
}
