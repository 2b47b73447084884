#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A coder that can show an image while its bytes are still arriving.
///
/// The pipeline asks for a new decoder per transfer and feeds it each chunk as it arrives.
///
/// Thread safety: the coder is `Sendable`; each decoder it makes is used by one task at a time.
public protocol ProgressiveImageCoder: ImageCoder {
    /// A decoder for one transfer whose first bytes are `header` (at least 64 bytes, or the whole file when it is
    /// shorter: enough to sniff), or nil when this coder cannot decode them incrementally. The decoder is then fed
    /// from the file's first byte, `header` included.
    func makeIncrementalDecoder(header: Data, options: DecodeOptions) -> (any IncrementalImageDecoder)?
}

/// Decodes one file piece by piece as it arrives.
///
/// ```swift
/// let decoder = coder.makeIncrementalDecoder(header: firstChunk, options: .init())!
/// for chunk in chunks where try decoder.append(chunk) { show(decoder.currentImage()) }
/// let image = try decoder.finish()
/// ```
///
/// Thread safety: not thread-safe; use from one task at a time.
public protocol IncrementalImageDecoder: AnyObject {
    /// Feeds the next bytes of the file (the first call gets the file's first bytes). Returns whether more of the
    /// image can be shown than before.
    func append(_ data: Data) throws(ImageError) -> Bool

    /// The image as far as decoded, at its final size and flagged `.incremental`; nil before the header is read.
    func currentImage() -> Image?

    /// Ends the file: the complete image, equal to a one-shot decode of the same bytes, or an error when the data
    /// was invalid or incomplete.
    func finish() throws(ImageError) -> Image
}
