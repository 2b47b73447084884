/// How to encode: quality, losslessness, size limits, background and frames.
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

    public init(
        quality: Double = 0.9, lossless: Bool = false, maxPixelSize: PixelSize? = nil, maxFileSize: Int? = nil,
        backgroundColor: RGBAColor? = nil, firstFrameOnly: Bool = false, embedThumbnail: Bool = false
    ) {
        self.quality = quality
        self.lossless = lossless
        self.maxPixelSize = maxPixelSize
        self.maxFileSize = maxFileSize
        self.backgroundColor = backgroundColor
        self.firstFrameOnly = firstFrameOnly
        self.embedThumbnail = embedThumbnail
    }
}
