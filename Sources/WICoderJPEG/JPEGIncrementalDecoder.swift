#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// Decodes a JPEG as it arrives: rows appear as their bytes do (single-scan files) and progressive files show the
/// whole image after each completed scan (libjpeg's buffered-image mode).
///
/// Not thread-safe: one transfer's decoder, used from one task at a time.
final class JPEGIncrementalDecoder: IncrementalImageDecoder {
    private let handle: JPEGDecoderHandle
    private var progressShown: UInt64 = 0

    init(options: DecodeOptions) throws(ImageError) {
        handle = try JPEGDecoderHandle(options: options)
    }

    func append(_ data: Data) throws(ImageError) -> Bool {
        try handle.feed(data)
        return handle.isStarted && handle.progress > progressShown
    }

    func currentImage() -> Image? {
        guard handle.isStarted else { return nil }
        progressShown = handle.progress
        return handle.partialImage()
    }

    func finish() throws(ImageError) -> Image {
        try handle.endOfData()
        return try handle.finalImage()
    }
}
