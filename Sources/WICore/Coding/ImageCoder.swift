#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes image files into `Image`s and encodes `Image`s into files, for one or more formats.
///
/// A coder answers `canDecode` from magic bytes only, and decodes with the given options (thumbnail size, byte
/// limit, pixel limit, alpha form...). Register coders with an `ImageCodersManager`; the last added wins.
///
/// ```swift
/// let coders = ImageCodersManager(coders: [PNGCoder()])
/// let image = try coders.decode(data, options: DecodeOptions(thumbnailPixelSize: .init(width: 256, height: 256)))
/// ```
///
/// Thread safety: coders are `Sendable` and must decode and encode from any number of threads at once.
public protocol ImageCoder: Sendable {
    /// The formats this coder decodes (for HTTP Accept headers and listings), most preferred first.
    var decodingFormats: [ImageFormat] { get }

    /// Whether `data` looks like a format this coder decodes, judged from its first bytes without decoding.
    func canDecode(_ data: Data) -> Bool

    /// Decodes `data`. Errors: `.badImageData` (with the library's message), `.pixelLimitExceeded`,
    /// `.outOfMemory`, or `.unsupportedFormat` to let the next coder try.
    func decode(_ data: Data, options: DecodeOptions) throws(ImageError) -> Image

    /// Whether this coder can encode to `format`.
    func canEncode(to format: ImageFormat) -> Bool

    /// Encodes `image` as `format`. Errors: `.encodingFailed`, `.unsupportedFormat`.
    func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(ImageError) -> Data
}

extension ImageCoder {
    public var decodingFormats: [ImageFormat] { [] }

    public func canEncode(to format: ImageFormat) -> Bool { false }

    public func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(ImageError) -> Data {
        throw ImageError(.unsupportedFormat, "\(Self.self) cannot encode \(format)")
    }
}
