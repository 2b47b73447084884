import Foundation
import WICore

/// Decodes a PNG as it arrives with libpng's progressive reader: rows appear as their bytes do (interlaced
/// files fill in pass by pass).
///
/// Not thread-safe: one transfer's decoder, used from one task at a time.
final class PNGIncrementalDecoder: IncrementalImageDecoder {
    private let handle: PNGDecoderHandle
    private var rowsShown: UInt64 = 0

    init(options: DecodeOptions) throws(ImageError) {
        handle = try PNGDecoderHandle(options: options)
    }

    func append(_ data: Data) throws(ImageError) -> Bool {
        try handle.feed(data)
        return handle.hasHeader && handle.rowsDelivered > rowsShown
    }

    func currentImage() -> Image? {
        rowsShown = handle.rowsDelivered
        return handle.partialImage()
    }

    func finish() throws(ImageError) -> Image {
        try handle.finalImage()
    }
}
