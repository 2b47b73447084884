/// A decoded image: one frame for stills, several for animations, with everything known about how it was made.
///
/// Immutable; derive a changed copy with `with(...)`. The pixels are shared, never copied, between copies.
/// An `Image` is a class so that caches can tell when one is still in use elsewhere (the memory cache's weak tier).
///
/// ```swift
/// let image = Image(pixels: buffer, format: .png)
/// print(image.width, image.height, image.cost)      // size and bytes of pixels
/// ```
///
/// Thread safety: immutable; safe to share between threads and tasks.
public final class Image: Sendable {
    /// Properties that describe how the image came to be.
    public struct Flags: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// A partial image from an unfinished transfer (never stored in a cache).
        public static let incremental = Flags(rawValue: 1 << 0)
        /// Decoded smaller than the file, to a thumbnail size or byte limit.
        public static let thumbnail = Flags(rawValue: 1 << 1)
        /// The output of a transformer.
        public static let transformed = Flags(rawValue: 1 << 2)
        /// The file was truncated or damaged; what could be decoded is shown.
        public static let incomplete = Flags(rawValue: 1 << 3)
        /// Rasterized from a vector document (SVG, PDF) at the size asked for: decoding again at a larger size
        /// gives sharper pixels, not a resampled copy.
        public static let vector = Flags(rawValue: 1 << 4)
    }

    /// How the frames are held: every frame decoded, or frames on demand.
    private enum Storage: Sendable {
        case decoded([ImageFrame])
        case onDemand(ImageCoding.AnimatedFrameBuffer)
    }

    private let storage: Storage
    /// The number of frames (1 for stills).
    public let frameCount: Int
    /// How many times an animation plays: 0 forever, 1 once, N times. 0 for stills.
    public let loopCount: Int
    /// The format the image was decoded from (`.undefined` when made in memory).
    public let format: ImageFormat
    /// Pixels per point, for apps that draw at a display scale (1 by default).
    public let scale: Double
    /// How the pixels must still be turned to appear upright (`.up` once applied, the default).
    public let orientation: ImageOrientation
    /// How the image came to be.
    public let flags: Flags
    /// The options of the decode that produced the image, if it was decoded.
    public let decodeOptions: DecodeOptions?
    /// ICC, EXIF and XMP blocks from the file.
    public let metadata: ImageMetadata
    /// Bytes of pixel memory the image holds at most: the cost in a memory cache. Every frame's bytes when the frames
    /// are decoded; for frames on demand, `ImageCoding.AnimatedFrameBuffer.maxHeldBytes` (the first frame, the buffer's
    /// capacity and the decoder's canvas states).
    public let cost: Int
    /// The validators and freshness of the response the image was made from, when a cache stored them with it:
    /// memory tiers keep them with the image (`TieredImageCache` sets them); nil when unknown.
    let httpCacheInfo: HTTPCacheInfo?

    /// Makes an image from its frames (which must not be empty and must all have the same size).
    public convenience init(
        frames: [ImageFrame], loopCount: Int = 0, format: ImageFormat = .undefined, scale: Double = 1,
        orientation: ImageOrientation = .up, flags: Flags = [], decodeOptions: DecodeOptions? = nil,
        metadata: ImageMetadata = .init()
    ) {
        precondition(!frames.isEmpty, "an Image has at least one frame")
        self.init(
            storage: .decoded(frames), loopCount: loopCount, format: format, scale: scale, orientation: orientation,
            flags: flags, decodeOptions: decodeOptions, metadata: metadata, httpCacheInfo: nil)
    }

    /// Makes an animated image whose frames are decoded on demand by `frameBuffer` (its first frame is already
    /// decoded): the image holds at most `frameBuffer.maxHeldBytes` of pixels, however many frames it has.
    public convenience init(
        frameBuffer: ImageCoding.AnimatedFrameBuffer, loopCount: Int = 0, format: ImageFormat = .undefined,
        scale: Double = 1,
        orientation: ImageOrientation = .up, flags: Flags = [], decodeOptions: DecodeOptions? = nil,
        metadata: ImageMetadata = .init()
    ) {
        self.init(
            storage: .onDemand(frameBuffer), loopCount: loopCount, format: format, scale: scale,
            orientation: orientation, flags: flags, decodeOptions: decodeOptions, metadata: metadata,
            httpCacheInfo: nil)
    }

    private init(
        storage: Storage, loopCount: Int, format: ImageFormat, scale: Double, orientation: ImageOrientation,
        flags: Flags, decodeOptions: DecodeOptions?, metadata: ImageMetadata, httpCacheInfo: HTTPCacheInfo?
    ) {
        self.storage = storage
        switch storage {
        case .decoded(let frames):
            frameCount = frames.count
            cost = frames.reduce(0) { $0 + $1.pixels.byteCount }
        case .onDemand(let buffer):
            frameCount = buffer.frameCount
            cost = buffer.maxHeldBytes
        }
        self.loopCount = loopCount
        self.format = format
        self.scale = scale
        self.orientation = orientation
        self.flags = flags
        self.decodeOptions = decodeOptions
        self.metadata = metadata
        self.httpCacheInfo = httpCacheInfo
    }

    /// Makes a still image.
    public convenience init(
        pixels: PixelBuffer, format: ImageFormat = .undefined, scale: Double = 1, orientation: ImageOrientation = .up,
        flags: Flags = [], decodeOptions: DecodeOptions? = nil, metadata: ImageMetadata = .init()
    ) {
        self.init(
            frames: [ImageFrame(pixels: pixels)], format: format, scale: scale, orientation: orientation,
            flags: flags, decodeOptions: decodeOptions, metadata: metadata)
    }

    /// A copy with some properties replaced; the pixels (and a frame buffer) are shared, not copied. Passing
    /// `frames` makes an image holding those frames decoded.
    public func with(
        frames: [ImageFrame]? = nil, loopCount: Int? = nil, format: ImageFormat? = nil, scale: Double? = nil,
        orientation: ImageOrientation? = nil, flags: Flags? = nil, decodeOptions: DecodeOptions?? = nil,
        metadata: ImageMetadata? = nil
    ) -> Image {
        let loopCount = loopCount ?? self.loopCount
        let format = format ?? self.format
        let scale = scale ?? self.scale
        let orientation = orientation ?? self.orientation
        let flags = flags ?? self.flags
        let decodeOptions = decodeOptions ?? self.decodeOptions
        let metadata = metadata ?? self.metadata
        if let frames { precondition(!frames.isEmpty, "an Image has at least one frame") }
        return Image(
            storage: frames.map { .decoded($0) } ?? storage, loopCount: loopCount, format: format, scale: scale,
            orientation: orientation, flags: flags, decodeOptions: decodeOptions, metadata: metadata,
            httpCacheInfo: httpCacheInfo)
    }

    /// A still of the first frame when animated (what `.decodeFirstFrameOnly` asks for), else this image.
    var firstFrameStill: Image {
        isAnimated ? with(frames: [ImageFrame(pixels: pixels)], loopCount: 0) : self
    }

    /// This image (the same object when nothing changes) carrying `info` as its HTTP cache info.
    func with(httpCacheInfo info: HTTPCacheInfo?) -> Image {
        guard info != httpCacheInfo else { return self }
        return Image(
            storage: storage, loopCount: loopCount, format: format, scale: scale, orientation: orientation,
            flags: flags, decodeOptions: decodeOptions, metadata: metadata, httpCacheInfo: info)
    }

    /// The first frame's pixels (the whole image for stills); always held, never decoded on access.
    public var pixels: PixelBuffer {
        switch storage {
        case .decoded(let frames): frames[0].pixels
        case .onDemand(let buffer): buffer.poster
        }
    }
    /// Width in pixels of the canvas.
    public var width: Int { pixels.width }
    /// Height in pixels of the canvas.
    public var height: Int { pixels.height }
    /// The canvas size in pixels.
    public var size: PixelSize { pixels.size }
    /// Whether the image has more than one frame.
    public var isAnimated: Bool { frameCount > 1 }
    /// The frame buffer of an animation decoded on demand; nil when every frame is held decoded.
    public var frameBuffer: ImageCoding.AnimatedFrameBuffer? {
        if case .onDemand(let buffer) = storage { return buffer }
        return nil
    }

    /// Frame `index` with its duration: held, or decoded on demand through the frame buffer (which keeps it while
    /// it has room). Errors: `.invalidArgument` for an index outside the frames; for frames on demand, the decoder's
    /// error (`.badImageData` for a damaged frame, `.outOfMemory`).
    public func frame(at index: Int) throws(ImageError) -> ImageFrame {
        switch storage {
        case .decoded(let frames):
            guard frames.indices.contains(index) else {
                throw ArgumentCheck.invalid("frame index", "be in 0..<\(frames.count)", String(index))
            }
            return frames[index]
        case .onDemand(let buffer):
            return ImageFrame(pixels: try buffer.frame(at: index), duration: buffer.duration(at: index))
        }
    }

    /// How long frame `index` shows, in seconds (0 for stills; the browser default outside the frames); never
    /// decodes.
    public func duration(at index: Int) -> Double {
        switch storage {
        case .decoded(let frames): frames.indices.contains(index) ? frames[index].duration : 0
        case .onDemand(let buffer): buffer.duration(at: index)
        }
    }

    /// Every frame's duration in seconds, in order; never decodes.
    public var durations: [Double] {
        switch storage {
        case .decoded(let frames): frames.map(\.duration)
        case .onDemand(let buffer): buffer.allDurations
        }
    }

    /// Every frame, decoded: the held frames, or for frames on demand each one decoded in order and all returned
    /// together (so `frameCount` frames are held by the caller: the pixel limit of `decodeOptions` is checked
    /// first). Players and encoders that can take one frame at a time use `frame(at:)` instead.
    ///
    /// Errors: `.pixelLimitExceeded`, and as for `frame(at:)`.
    public var frames: [ImageFrame] {
        get throws(ImageError) {
            switch storage {
            case .decoded(let frames):
                return frames
            case .onDemand(let buffer):
                try (decodeOptions ?? DecodeOptions()).checkPixelLimit(size, frames: frameCount)
                var frames: [ImageFrame] = []
                frames.reserveCapacity(frameCount)
                for index in 0..<frameCount {
                    frames.append(ImageFrame(pixels: try buffer.frame(at: index), duration: buffer.duration(at: index)))
                }
                return frames
            }
        }
    }

    /// Whether any pixel of any frame is not fully opaque. For frames on demand, frames after an opaque first one
    /// are decoded in order through the frame buffer until one has alpha; a frame that cannot be decoded counts as
    /// having alpha (the canvas under it is transparent).
    public var hasAlpha: Bool {
        switch storage {
        case .decoded(let frames):
            return frames.contains { !$0.pixels.isOpaque }
        case .onDemand(let buffer):
            return (0..<frameCount).contains { index in
                guard let pixels = try? buffer.frame(at: index) else { return true }
                return !pixels.isOpaque
            }
        }
    }
}

extension Image: CustomStringConvertible {
    public var description: String {
        "Image(\(format) \(width)x\(height), \(frameCount) frame\(frameCount == 1 ? "" : "s"), \(pixels.format))"
    }
}
