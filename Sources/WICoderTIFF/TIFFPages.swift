#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import WICore

/// The pages of one TIFF file as frames, decoded on demand.
///
/// The canvas is the first page's decoded size; a page of another size is drawn at the top left, clipped, on
/// transparent. Thread safety: `Sendable`; the libtiff handle (which has one current page) is behind a mutex.
final class TIFFPages: AnimatedImageDecoder {
    /// How long each page shows when pages play as frames.
    static let pageDuration = ImageFrame.browserDuration(milliseconds: 0)

    let canvasSize: PixelSize
    let frameCount: Int
    var loopCount: Int { 0 }
    private let options: DecodeOptions
    private let canvasFormat: PixelFormat
    // The reader owns a copy of the file's bytes, so it outlives the caller's Data.
    private let reader: Mutex<TIFFReader>

    init(data: Data, options: DecodeOptions) throws(ImageError) {
        let opened: Result<TIFFReader, ImageError> = data.withUnsafeBytes { bytes in
            do throws(ImageError) {
                return .success(
                    try TIFFReader(
                        bytes: bytes, copy: true,
                        maxSingleAllocation: TIFFCoder.maxSingleAllocation(options)))
            } catch {
                return .failure(error)
            }
        }
        let reader = try opened.get()
        let count = options.firstFrameOnly ? 1 : reader.pageCount
        guard count > 0 else { throw ImageError(.badImageData, "TIFF: the file has no pages") }
        try TIFFCoder.checkPixelLimit(reader, pages: 0...(count - 1), options: options)
        let first = try TIFFCoder.finishedPage(reader, page: 0, options: options).finished
        canvasSize = first.pixels.size
        canvasFormat = first.pixels.format
        frameCount = count
        self.options = options
        self.reader = Mutex(reader)
    }

    func duration(at index: Int) -> Double { Self.pageDuration }

    func frame(at index: Int) throws(ImageError) -> PixelBuffer {
        guard index >= 0, index < frameCount else {
            throw ImageError(.badImageData, "TIFF: no page \(index) (the file has \(frameCount))")
        }
        let options = self.options
        let finished = try reader.withLock { reader throws(ImageError) in
            try TIFFCoder.finishedPage(reader, page: index, options: options).finished
        }
        return try Self.place(finished.pixels, on: canvasSize, format: canvasFormat)
    }

    /// `pixels` in `format` on a transparent canvas of `size`, at the top left (as is when it already fits).
    static func place(_ pixels: PixelBuffer, on size: PixelSize, format: PixelFormat) throws(ImageError) -> PixelBuffer
    {
        let source = try pixels.converted(to: format)
        guard source.size != size else { return source }
        var canvas = try PixelBuffer(width: size.width, height: size.height, format: format)
        let rows = Swift.min(size.height, source.height)
        let bytes = Swift.min(size.width, source.width) * format.bytesPerPixel
        let canvasStride = canvas.bytesPerRow
        try source.withUnsafeBytes { (from) throws(ImageError) in
            try canvas.withUnsafeMutableBytes { to in
                for y in 0..<rows {
                    (to.baseAddress! + y * canvasStride).copyMemory(
                        from: from.baseAddress! + y * source.bytesPerRow,
                        byteCount: bytes)
                }
            }
        }
        return canvas
    }
}
