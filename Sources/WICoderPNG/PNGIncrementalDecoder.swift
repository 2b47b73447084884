#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// Decodes a PNG as it arrives with libpng's progressive reader: rows appear as their bytes do (interlaced
/// files fill in pass by pass). For an APNG the partial images show the IDAT image as it arrives, and `finish()`
/// decodes every frame.
///
/// Not thread-safe: one transfer's decoder, used from one task at a time.
final class PNGIncrementalDecoder: IncrementalImageDecoder {
    private let handle: PNGDecoderHandle
    private var rowsShown: UInt64 = 0
    /// Every byte so far: an APNG's frames are decoded from the whole file at the end.
    private var received = Data()

    init(options: DecodeOptions) throws(ImageError) {
        handle = try PNGDecoderHandle(options: options)
    }

    func append(_ data: Data) throws(ImageError) -> Bool {
        received.append(data)
        try handle.feed(data)
        return handle.hasHeader && handle.rowsDelivered > rowsShown
    }

    func currentImage() -> Image? {
        rowsShown = handle.rowsDelivered
        return handle.partialImage()
    }

    func finish() throws(ImageError) -> Image {
        if APNGStructure.read(received) != nil { return try PNGCoder().decode(received, options: handle.options) }
        return try handle.finalImage()
    }
}
