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

    /// The frames, at least one. Every frame has the same size (the canvas).
    public let frames: [ImageFrame]
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
    /// Bytes of pixel memory held by all frames: the cost in a memory cache.
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
        self.init(frames: frames, loopCount: loopCount, format: format, scale: scale, orientation: orientation,
                  flags: flags, decodeOptions: decodeOptions, metadata: metadata, httpCacheInfo: nil)
    }

    private init(frames: [ImageFrame], loopCount: Int, format: ImageFormat, scale: Double, orientation: ImageOrientation,
                 flags: Flags, decodeOptions: DecodeOptions?, metadata: ImageMetadata, httpCacheInfo: HTTPCacheInfo?) {
        precondition(!frames.isEmpty, "an Image has at least one frame")
        self.frames = frames
        self.loopCount = loopCount
        self.format = format
        self.scale = scale
        self.orientation = orientation
        self.flags = flags
        self.decodeOptions = decodeOptions
        self.metadata = metadata
        self.httpCacheInfo = httpCacheInfo
        self.cost = frames.reduce(0) { $0 + $1.pixels.byteCount }
    }

    /// Makes a still image.
    public convenience init(
        pixels: PixelBuffer, format: ImageFormat = .undefined, scale: Double = 1, orientation: ImageOrientation = .up,
        flags: Flags = [], decodeOptions: DecodeOptions? = nil, metadata: ImageMetadata = .init()
    ) {
        self.init(frames: [ImageFrame(pixels: pixels)], format: format, scale: scale, orientation: orientation,
                  flags: flags, decodeOptions: decodeOptions, metadata: metadata)
    }

    /// A copy with some properties replaced; the pixels are shared, not copied.
    public func with(
        frames: [ImageFrame]? = nil, loopCount: Int? = nil, format: ImageFormat? = nil, scale: Double? = nil,
        orientation: ImageOrientation? = nil, flags: Flags? = nil, decodeOptions: DecodeOptions?? = nil,
        metadata: ImageMetadata? = nil
    ) -> Image {
        Image(frames: frames ?? self.frames, loopCount: loopCount ?? self.loopCount, format: format ?? self.format,
              scale: scale ?? self.scale, orientation: orientation ?? self.orientation, flags: flags ?? self.flags,
              decodeOptions: decodeOptions ?? self.decodeOptions, metadata: metadata ?? self.metadata,
              httpCacheInfo: httpCacheInfo)
    }

    /// This image (the same object when nothing changes) carrying `info` as its HTTP cache info.
    func with(httpCacheInfo info: HTTPCacheInfo?) -> Image {
        guard info != httpCacheInfo else { return self }
        return Image(frames: frames, loopCount: loopCount, format: format, scale: scale, orientation: orientation,
                     flags: flags, decodeOptions: decodeOptions, metadata: metadata, httpCacheInfo: info)
    }

    /// The first frame's pixels (the whole image for stills).
    public var pixels: PixelBuffer { frames[0].pixels }
    /// Width in pixels of the canvas.
    public var width: Int { frames[0].pixels.width }
    /// Height in pixels of the canvas.
    public var height: Int { frames[0].pixels.height }
    /// The canvas size in pixels.
    public var size: PixelSize { frames[0].pixels.size }
    /// Whether the image has more than one frame.
    public var isAnimated: Bool { frames.count > 1 }
    /// Whether any pixel of any frame is not fully opaque.
    public var hasAlpha: Bool { frames.contains { !$0.pixels.isOpaque } }
}

extension Image: CustomStringConvertible {
    public var description: String {
        "Image(\(format) \(width)x\(height), \(frames.count) frame\(frames.count == 1 ? "" : "s"), \(pixels.format))"
    }
}
