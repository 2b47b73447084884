/// How to decode: target size, alpha form, depth, frames and limits.
///
/// The defaults decode the whole image, all frames, to straight-alpha RGBA8, upright.
/// `Hashable`: the pipeline shares one decode among requests with equal options. Two options are equal when every
/// field is, the resampler compared by identity (its type, plus its value when `Hashable`, its instance when a class;
/// unset is a resampler of its own).
///
/// Thread safety: a value type; safe to send and share.
public struct DecodeOptions: Hashable, Sendable {
    /// Decode no larger than this box (aspect kept by default; never upscaled). A width or height of 0 leaves
    /// that dimension free. Coders use their own reduced decode first, then resample the rest.
    public var thumbnailPixelSize: PixelSize?
    /// With `thumbnailPixelSize`: fit inside the box (true) or become exactly that size (false).
    public var preserveAspectRatio: Bool
    /// The display scale recorded on the image (`Image.scale`).
    public var scaleFactor: Double
    /// Decode only the first frame of an animation.
    public var firstFrameOnly: Bool
    /// Decode every frame of an animation up front (`ImageOptions.preloadAllFrames`) instead of on demand into a
    /// frame buffer of `frameBufferLimitBytes`.
    public var preloadAllFrames: Bool
    /// The most bytes of decoded frames an animation decoded on demand keeps besides its first frame
    /// (`ImageCoding.AnimatedFrameBuffer`; at least one frame is kept); default 32 MiB. Ignored with `preloadAllFrames`.
    public var frameBufferLimitBytes: Int
    /// Keep the output at most this many bytes of pixels (aspect kept, at least 1x1); wins over
    /// `thumbnailPixelSize`.
    public var scaleDownLimitBytes: Int?
    /// Keep 16 bits per component when the source has more than 8 (output `.rgba16`).
    public var keep16Bit: Bool
    /// Output premultiplied alpha instead of straight alpha.
    public var premultipliedAlpha: Bool
    /// Turn pixels upright for the file's EXIF or container orientation (default); false keeps them as stored and
    /// reports `Image.orientation`.
    public var applyOrientation: Bool
    /// Refuse files whose width x height x frames exceeds this, before allocating (default 256 megapixels).
    public var pixelLimit: Int
    /// Refuse animations (and multi-page files) of more frames than this, before decoding any (default: no limit;
    /// `wi serve --max-frames`). Not checked with `firstFrameOnly`, which decodes one.
    public var frameLimit = Int.max
    /// The resampler that finishes thumbnails and byte-limited decodes after the coder's own reduced decode; nil
    /// (the default) leaves it to the `ImageCodersManager` that decodes (its `resampler`), else
    /// `ImageCoding.AreaAverageResampler`. Coders read `effectiveResampler`.
    public var resampler: (any ImageResampler)?
    /// The colour space the pixels come out in: `.preserve` (the default: the file's own, its description kept in
    /// `Image.metadata`) or `.sRGB` (converted by the decoding `ImageCodersManager`'s colour converter, the
    /// description dropped). It joins the cache key when not `.preserve`.
    public var targetColorSpace: TargetColorSpace = .preserve
    /// The converter an `ImageCodersManager` hands its coders with `.sRGB` (for samples only the coder sees, such
    /// as a JPEG's CMYK); not part of equality, and never recorded on an image.
    package var colorConverter: (any ImageCoding.ColorConverter)?
    /// For SVG documents only (`SVGCoder`; raster and PDF coders ignore it): the canvas to draw the document into,
    /// in pixels, instead of its own size, `thumbnailPixelSize` and `scaleFactor`. With both sides given the canvas
    /// is exactly that size and the document is placed in it as its `preserveAspectRatio` says: by default fitted
    /// and centred, the rest transparent (letterboxed), as cairosvg's `svg2png(output_width:output_height:)` draws
    /// it; a side of 0 follows the document's aspect (rounded half to even); 0x0 is the document's own size.
    /// `scaleDownLimitBytes` still caps the result (aspect kept). It joins the cache key.
    public var vectorViewport: PixelSize?

    /// The resampler coders use: `resampler`, or WICore's `ImageCoding.AreaAverageResampler` when unset.
    public var effectiveResampler: any ImageResampler { resampler ?? ImageCoding.AreaAverageResampler() }

    /// The default pixel limit: 256 megapixels over all frames.
    public static let defaultPixelLimit = 256 * 1024 * 1024

    /// The default frame buffer of animations decoded on demand: 32 MiB.
    public static let defaultFrameBufferLimitBytes = 32 * 1024 * 1024

    public init(
        thumbnailPixelSize: PixelSize? = nil, preserveAspectRatio: Bool = true, scaleFactor: Double = 1,
        firstFrameOnly: Bool = false, scaleDownLimitBytes: Int? = nil, keep16Bit: Bool = false,
        premultipliedAlpha: Bool = false, applyOrientation: Bool = true,
        pixelLimit: Int = DecodeOptions.defaultPixelLimit,
        resampler: (any ImageResampler)? = nil, preloadAllFrames: Bool = false,
        frameBufferLimitBytes: Int = DecodeOptions.defaultFrameBufferLimitBytes
    ) {
        self.thumbnailPixelSize = thumbnailPixelSize
        self.preserveAspectRatio = preserveAspectRatio
        self.scaleFactor = scaleFactor
        self.firstFrameOnly = firstFrameOnly
        self.scaleDownLimitBytes = scaleDownLimitBytes
        self.keep16Bit = keep16Bit
        self.premultipliedAlpha = premultipliedAlpha
        self.applyOrientation = applyOrientation
        self.pixelLimit = pixelLimit
        self.resampler = resampler
        self.preloadAllFrames = preloadAllFrames
        self.frameBufferLimitBytes = frameBufferLimitBytes
    }

    /// The size to output for a source of `size` (after orientation), or nil to keep the full size.
    public func targetSize(for size: PixelSize, bytesPerPixel: Int = 4) -> PixelSize? {
        if let limit = scaleDownLimitBytes {
            let scaled = ImageCoding.Geometry.scaledSize(of: size, limitBytes: limit, bytesPerPixel: bytesPerPixel)
            return scaled == size ? nil : scaled
        }
        if let box = thumbnailPixelSize {
            let scaled = ImageCoding.Geometry.scaledSize(of: size, toFit: box, preserveAspectRatio: preserveAspectRatio)
            return scaled == size ? nil : scaled
        }
        return nil
    }

    /// Throws `.pixelLimitExceeded` when `size` x `frames` is over `pixelLimit`. Call before allocating.
    /// Throws `.pixelLimitExceeded` when a file of `frameCount` frames has more than `frameLimit` and more than
    /// one is to be decoded; coders call it with the count their container declares, before decoding a frame.
    ///
    /// Thread safety: a pure function of the value.
    public func checkFrameLimit(_ frameCount: Int) throws(ImageError) {
        guard firstFrameOnly || frameCount <= frameLimit else {
            throw ImageError(.pixelLimitExceeded, "\(frameCount) frames exceed the frame limit of \(frameLimit)")
        }
    }

    public func checkPixelLimit(_ size: PixelSize, frames: Int = 1) throws(ImageError) {
        let (total, overflow) = size.area.multipliedReportingOverflow(by: Swift.max(frames, 1))
        guard size.width > 0, size.height > 0 else {
            throw ImageError(.badImageData, "invalid image size \(size)")
        }
        guard !overflow, total <= pixelLimit else {
            throw ImageError(
                .pixelLimitExceeded,
                "\(size) x \(frames) frame(s) exceeds the pixel limit of \(pixelLimit) pixels")
        }
    }
}

extension DecodeOptions {
    /// Whether every field is equal, the resamplers by identity (type, plus value or instance).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.thumbnailPixelSize == rhs.thumbnailPixelSize && lhs.preserveAspectRatio == rhs.preserveAspectRatio
            && lhs.scaleFactor == rhs.scaleFactor && lhs.firstFrameOnly == rhs.firstFrameOnly
            && lhs.scaleDownLimitBytes == rhs.scaleDownLimitBytes && lhs.keep16Bit == rhs.keep16Bit
            && lhs.premultipliedAlpha == rhs.premultipliedAlpha && lhs.applyOrientation == rhs.applyOrientation
            && lhs.pixelLimit == rhs.pixelLimit && ResamplerIdentity(lhs.resampler) == ResamplerIdentity(rhs.resampler)
            && lhs.preloadAllFrames == rhs.preloadAllFrames && lhs.frameBufferLimitBytes == rhs.frameBufferLimitBytes
            && lhs.frameLimit == rhs.frameLimit && lhs.targetColorSpace == rhs.targetColorSpace
            && lhs.vectorViewport == rhs.vectorViewport
    }

    /// Hashes every field, the resampler by identity, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(thumbnailPixelSize)
        hasher.combine(preserveAspectRatio)
        hasher.combine(scaleFactor)
        hasher.combine(firstFrameOnly)
        hasher.combine(scaleDownLimitBytes)
        hasher.combine(keep16Bit)
        hasher.combine(premultipliedAlpha)
        hasher.combine(applyOrientation)
        hasher.combine(pixelLimit)
        hasher.combine(ResamplerIdentity(resampler))
        hasher.combine(preloadAllFrames)
        hasher.combine(frameBufferLimitBytes)
        hasher.combine(frameLimit)
        hasher.combine(targetColorSpace)
        hasher.combine(vectorViewport)
    }
}
