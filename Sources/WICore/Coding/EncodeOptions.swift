/// How to encode: quality, losslessness, size limits, background, frames and the resampler that scales down.
///
/// `Hashable` like `DecodeOptions`: the resampler is compared by identity (its type, plus its value when `Hashable`,
/// its instance when a class; unset is a resampler of its own).
///
/// Thread safety: a value type; safe to send and share.
public struct EncodeOptions: Hashable, Sendable {
    /// Quality from 0 (smallest) to 1 (best) for lossy formats; PNG maps it to compression effort.
    public var quality: Double
    /// Encode losslessly where the format can (WebP, AVIF, HEIC); PNG and GIF always are.
    public var lossless: Bool
    /// Scale down (aspect kept, never up) to fit this box before encoding.
    public var maxPixelSize: PixelSize?
    /// Search quality so the file is at most this many bytes (lossy formats); the smallest quality's result
    /// when even that is larger.
    public var maxFileSize: Int?
    /// Composite onto this colour when the format has no alpha (JPEG); white when nil.
    public var backgroundColor: RGBAColor?
    /// Encode only the first frame of an animation.
    public var firstFrameOnly: Bool
    /// Embed a thumbnail where the format supports it (HEIC, AVIF).
    public var embedThumbnail: Bool
    /// The resampler that scales down for `maxPixelSize` and embedded thumbnails; nil (the default) leaves it to
    /// the `ImageCodersManager` that encodes (its `resampler`), else `ImageCoding.AreaAverageResampler`. Coders read
    /// `effectiveResampler`.
    public var resampler: (any ImageResampler)?

    /// The resampler coders use: `resampler`, or WICore's `ImageCoding.AreaAverageResampler` when unset.
    public var effectiveResampler: any ImageResampler { resampler ?? ImageCoding.AreaAverageResampler() }

    public init(
        quality: Double = 0.9, lossless: Bool = false, maxPixelSize: PixelSize? = nil, maxFileSize: Int? = nil,
        backgroundColor: RGBAColor? = nil, firstFrameOnly: Bool = false, embedThumbnail: Bool = false,
        resampler: (any ImageResampler)? = nil
    ) {
        self.quality = quality
        self.lossless = lossless
        self.maxPixelSize = maxPixelSize
        self.maxFileSize = maxFileSize
        self.backgroundColor = backgroundColor
        self.firstFrameOnly = firstFrameOnly
        self.embedThumbnail = embedThumbnail
        self.resampler = resampler
    }
}

extension EncodeOptions {
    /// Whether every field is equal, the resamplers by identity (type, plus value or instance).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.quality == rhs.quality && lhs.lossless == rhs.lossless && lhs.maxPixelSize == rhs.maxPixelSize
            && lhs.maxFileSize == rhs.maxFileSize && lhs.backgroundColor == rhs.backgroundColor
            && lhs.firstFrameOnly == rhs.firstFrameOnly && lhs.embedThumbnail == rhs.embedThumbnail
            && ResamplerIdentity(lhs.resampler) == ResamplerIdentity(rhs.resampler)
    }

    /// Hashes every field, the resampler by identity, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(quality)
        hasher.combine(lossless)
        hasher.combine(maxPixelSize)
        hasher.combine(maxFileSize)
        hasher.combine(backgroundColor)
        hasher.combine(firstFrameOnly)
        hasher.combine(embedThumbnail)
        hasher.combine(ResamplerIdentity(resampler))
    }
}
