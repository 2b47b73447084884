import Synchronization
import WICore

extension ImageCoding {
    /// An `AnimatedImageDecoder` that produces frames on demand from an `ImageCoding.AnimationFrameSource` and a
    /// `ImageCoding.FrameCompositor`: the shared engine of the GIF and APNG coders.
    ///
    /// Frames come out composited on the full canvas and finished as the decode options ask (thumbnail size or byte
    /// limit, alpha form), so `canvasSize` is the finished size. Only the compositor's few keyframes and the canvas for
    /// the next frame stay in memory (fewer keyframes when frames are decoded on demand:
    /// `DecodeOptions.keyframeLimit(canvasBytes:frameCount:)`), so a player can show a long animation without holding
    /// every frame, and playing frames in order draws each frame once.
    ///
    /// ```swift
    /// let decoder = try ImageCoding.CompositedAnimationDecoder(canvasSize: size, frames: infos, loopCount: 0, source: source,
    ///                                              options: .init())
    /// let frame = try decoder.frame(at: 10)     // replays from the nearest keyframe
    /// ```
    ///
    /// Thread safety: all methods may be called from any thread; frame production is serialized by a lock.
    public final class CompositedAnimationDecoder: AnimatedImageDecoder {
        public let canvasSize: PixelSize
        public let loopCount: Int
        /// The frames' layout and timing.
        public let frameInfos: [ImageCoding.AnimationFrameInfo]
        /// The options every frame is finished with.
        public let options: DecodeOptions
        /// The canvas size in the file, before any thumbnail scaling.
        public let fullCanvasSize: PixelSize
        private let source: any ImageCoding.AnimationFrameSource
        private let compositor: Mutex<ImageCoding.FrameCompositor>

        /// A decoder over `frames` (rectangles inside a canvas of `canvasSize`, the file's own size).
        ///
        /// Does not check the pixel limit: the coder does that before making it (it knows the frame count it will use).
        public init(
            canvasSize: PixelSize, frames: [ImageCoding.AnimationFrameInfo], loopCount: Int,
            source: any ImageCoding.AnimationFrameSource,
            options: DecodeOptions = .init()
        ) throws(ImageError) {
            guard !frames.isEmpty else { throw ImageError(.badImageData, "the animation has no frames") }
            let keyframes = options.keyframeLimit(
                canvasBytes: canvasSize.area.multipliedReportingOverflow(by: 4).partialValue,
                frameCount: options.firstFrameOnly ? 1 : frames.count)
            self.compositor = Mutex(
                try ImageCoding.FrameCompositor(canvasSize: canvasSize, frames: frames, maxKeyframes: keyframes))
            self.fullCanvasSize = canvasSize
            self.canvasSize = options.targetSize(for: canvasSize) ?? canvasSize
            self.frameInfos = frames
            self.loopCount = loopCount
            self.source = source
            self.options = options
        }

        public var frameCount: Int { frameInfos.count }

        public func duration(at index: Int) -> Double {
            frameInfos.indices.contains(index)
                ? frameInfos[index].duration : ImageFrame.browserDuration(milliseconds: 0)
        }

        /// Bytes of the compositor's canvas states now (keyframes and the canvas for the next frame).
        public var heldBytes: Int { compositor.withLock { $0.heldBytes } }

        /// The most bytes of canvas states the compositor keeps between calls.
        public var maxHeldBytes: Int { compositor.withLock { $0.maxHeldBytes } }

        public func frame(at index: Int) throws(ImageError) -> PixelBuffer {
            let source = self.source
            let composited = try compositor.withLock { compositor throws(ImageError) in
                try compositor.frame(at: index) { frame, info, canvas throws(ImageError) in
                    try source.draw(frame: frame, info: info, onto: &canvas)
                }
            }
            return try options.finish(composited, orientation: .up).pixels
        }

        /// The animation as one `Image`, flagged a thumbnail when the options scaled it, plus `flags`: the first frame
        /// only with `options.firstFrameOnly`; frames on demand through an `ImageCoding.AnimatedFrameBuffer` (the first decoded now)
        /// unless `options.preloadAllFrames` asks for every frame now.
        ///
        /// Frames decoded now keep what decodes: when a frame after the first fails with `.badImageData`, the image
        /// holds the frames before it and is flagged `.incomplete`. On demand, such a frame throws when asked for. An
        /// error in the first frame is thrown.
        public func image(format: ImageFormat, metadata: ImageMetadata = .init(), flags: Image.Flags = [])
            throws(ImageError) -> Image
        {
            let total = options.firstFrameOnly ? 1 : frameCount
            var flags = flags.union(canvasSize != fullCanvasSize ? .thumbnail : [])
            if options.decodesOnDemand(frameCount: total) {
                let buffer = try ImageCoding.AnimatedFrameBuffer(decoder: self, options: options)
                return Image(
                    frameBuffer: buffer, loopCount: loopCount, format: format, scale: options.scaleFactor,
                    flags: flags, decodeOptions: options, metadata: metadata)
            }
            var frames: [ImageFrame] = []
            frames.reserveCapacity(total)
            for index in 0..<total {
                do {
                    frames.append(ImageFrame(pixels: try frame(at: index), duration: duration(at: index)))
                } catch  where index > 0 && error.code == .badImageData {
                    flags.insert(.incomplete)
                    break
                }
            }
            if frames.count == 1 { frames[0].duration = 0 }
            return Image(
                frames: frames, loopCount: frames.count == 1 ? 0 : loopCount, format: format,
                scale: options.scaleFactor, flags: flags, decodeOptions: options, metadata: metadata)
        }
    }
}
