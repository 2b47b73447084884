#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// Decodes and encodes TIFF with libtiff, reading from and writing to memory (never a temporary file).
///
/// Decodes strip and tile layouts, contiguous or planar samples of 1-16 bits, grey (MinIsBlack and MinIsWhite),
/// palette, RGB, CMYK (converted to RGB as Pillow does), CIE L*a*b* (8 or 16 bits, CIELab or ICCLab; converted to
/// sRGB with a D50 white, as Pillow's LittleCMS transform), JPEG-compressed YCbCr, with associated or unassociated
/// alpha, and every compression Debian's libtiff has (none, LZW, Deflate, PackBits, JPEG, CCITT RLE/G3/G4, ...).
/// Grey and RGB also with 32-bit integer or 32/64-bit floating-point samples, reduced as the reference decoders do:
/// unsigned 32-bit integers keep their top 16 bits, signed ones are clipped to 0...65535 (Pillow's "I"); floating
/// point is clipped to 0...255 and truncated (Pillow's "F" to "L", libvips' cast), so data in 0...1 is black.
/// Other layouts (uncompressed YCbCr, LogLuv...) go through libtiff's RGBA interface (8-bit only). 16-bit samples
/// (and 32-bit integers) give `.rgba16` when `keep16Bit` asks. The Orientation tag is applied like EXIF
/// orientation; the ICC profile and XMP are kept as metadata.
///
/// A thumbnail decode reads one strip (or row of tiles) at a time and box-reduces it by the largest integer factor
/// that keeps the target covered, then resamples the rest: no full-size bitmap. The pixel limit counts every page
/// decoded, before anything image-sized is allocated. libtiff's errors and warnings go to handlers of the one
/// handle (`TIFFOpenOptionsSetErrorHandlerExtR`), never to stderr or libtiff's process-wide handlers.
///
/// Pages: `decode` gives the first page unless `decodesAllPages` is set (and `firstFrameOnly` is not), then every
/// page of the main IFD chain becomes a frame of the first page's size (other sizes drawn at the top left, clipped,
/// on transparent); `makeAnimatedDecoder` gives the pages one at a time. Pages show 0.1 s each as frames. The pages
/// are the main IFD chain's, each counted once: a chain that loops back (to the first page, to itself, to any
/// earlier page) ends there, as Pillow's n_frames counts it (libtiff remembers the offsets it has read).
///
/// Encodes every frame as a page (the first only with `firstFrameOnly`) of 8-bit RGB, or RGBA with unassociated
/// alpha when a frame is not opaque, compressed with LZW or Deflate and the horizontal predictor, with the image's
/// orientation in the Orientation tag. Always lossless: `quality` and `maxFileSize` do not apply.
///
/// ```swift
/// let coders = ImageCodersManager(coders: [TIFFCoder()])
/// let data = try TIFFCoder(compression: .deflate).encode(image, as: .tiff, options: .init())
/// ```
///
/// Thread safety: a value type with no shared state; decode and encode from any number of threads at once.
public struct TIFFCoder: AnimatedImageCoder {
    /// How encoded pages are compressed (both lossless).
    public enum Compression: Hashable, Sendable {
        /// LZW: read by every TIFF reader.
        case lzw
        /// Deflate (zlib): usually smaller.
        case deflate
    }

    /// The compression of encoded pages.
    public var compression: Compression
    /// Whether `decode` returns every page as a frame (unless `DecodeOptions.firstFrameOnly`).
    public var decodesAllPages: Bool

    public init(compression: Compression = .lzw, decodesAllPages: Bool = false) {
        self.compression = compression
        self.decodesAllPages = decodesAllPages
    }

    public var decodingFormats: [ImageFormat] { [.tiff] }

    public func canDecode(_ data: Data) -> Bool { ImageFormat.detect(data.prefix(16)) == .tiff }

    public func decode(_ data: Data, options: DecodeOptions) throws(ImageError) -> Image {
        let result: Result<Image, ImageError> = data.withUnsafeBytes { bytes in
            do throws(ImageError) {
                let reader = try TIFFReader(
                    bytes: bytes, copy: false,
                    maxSingleAllocation: Self.maxSingleAllocation(options))
                let count = decodesAllPages && !options.firstFrameOnly ? reader.pageCount : 1
                return .success(try Self.decodePages(reader, count: count, options: options))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Decodes the first page and reports the size libtiff's rows were reduced to while streaming (before any
    /// resampling): the size of the largest bitmap the decode allocated. For tests of the reduced decode.
    package func decodeReportingReduction(_ data: Data, options: DecodeOptions) throws(ImageError)
        -> (image: Image, decodedSize: PixelSize)
    {
        let result: Result<(Image, PixelSize), ImageError> = data.withUnsafeBytes { bytes in
            do throws(ImageError) {
                let reader = try TIFFReader(
                    bytes: bytes, copy: false,
                    maxSingleAllocation: Self.maxSingleAllocation(options))
                try Self.checkPixelLimit(reader, pages: 0...0, options: options)
                let decoded = try TIFFPageDecoder.decode(reader, page: 0, options: options)
                let finished = try options.finish(
                    decoded.pixels, orientation: decoded.orientation,
                    fullSize: decoded.storedSize)
                let image = Image(
                    pixels: finished.pixels, format: .tiff, orientation: finished.orientation,
                    flags: Self.flags(finished, incomplete: decoded.isIncomplete))
                return .success((image, decoded.pixels.size))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Decodes page `index` (from 0) alone, at its own size. Errors as for `decode`; `.badImageData` when the file
    /// has no such page.
    public func decodePage(_ index: Int, of data: Data, options: DecodeOptions) throws(ImageError) -> Image {
        let result: Result<Image, ImageError> = data.withUnsafeBytes { bytes in
            do throws(ImageError) {
                let reader = try TIFFReader(
                    bytes: bytes, copy: false,
                    maxSingleAllocation: Self.maxSingleAllocation(options))
                guard index >= 0, index < reader.pageCount else {
                    throw ImageError(.badImageData, "TIFF: no page \(index) (the file has \(reader.pageCount))")
                }
                try Self.checkPixelLimit(reader, pages: index...index, options: options)
                let (finished, incomplete) = try Self.finishedPage(reader, page: index, options: options)
                return .success(
                    Image(
                        pixels: finished.pixels, format: .tiff, scale: options.scaleFactor,
                        orientation: finished.orientation,
                        flags: Self.flags(finished, incomplete: incomplete),
                        decodeOptions: options, metadata: reader.metadata()))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    public func makeAnimatedDecoder(_ data: Data, options: DecodeOptions) throws(ImageError) -> any AnimatedImageDecoder
    {
        try TIFFPages(data: data, options: options)
    }

    public func canEncode(to format: ImageFormat) -> Bool { format == .tiff }

    public func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(ImageError) -> Data {
        guard format == .tiff else { throw ImageError(.unsupportedFormat, "TIFFCoder encodes TIFF, not \(format)") }
        return try TIFFEncoder.encode(image, options: options, compression: compression)
    }

    /// libtiff's cap on any one allocation: room for the largest strip the pixel limit allows (16-bit RGBA).
    static func maxSingleAllocation(_ options: DecodeOptions) -> Int {
        let (bytes, overflow) = options.pixelLimit.multipliedReportingOverflow(by: 8)
        return overflow ? Int.max : Swift.max(bytes, 16 << 20)
    }

    /// The first `count` pages as one image (frames when more than one).
    static func decodePages(_ reader: TIFFReader, count: Int, options: DecodeOptions) throws(ImageError) -> Image {
        guard count > 0 else { throw ImageError(.badImageData, "TIFF: the file has no pages") }
        try checkPixelLimit(reader, pages: 0...(count - 1), options: options)
        var frames: [ImageFrame] = []
        var first: DecodeOptions.FinishedPixels?
        var metadata = ImageMetadata()
        var anyIncomplete = false
        for index in 0..<count {
            let finished: DecodeOptions.FinishedPixels
            do {
                let page = try finishedPage(reader, page: index, options: options)
                finished = page.finished
                anyIncomplete = anyIncomplete || page.incomplete
            } catch  where index > 0 && error.code == .badImageData {
                // A damaged later page ends the document there: the pages before it are kept, flagged.
                anyIncomplete = true
                break
            }
            if index == 0 {
                first = finished
                metadata = reader.metadata()
                frames.append(ImageFrame(pixels: finished.pixels))
            } else if let first {
                let pixels = try TIFFPages.place(finished.pixels, on: first.pixels.size, format: first.pixels.format)
                frames.append(ImageFrame(pixels: pixels, duration: TIFFPages.pageDuration))
            }
        }
        guard let first else { throw ImageError(.badImageData, "TIFF: the file has no pages") }
        if frames.count > 1 { frames[0].duration = TIFFPages.pageDuration }
        return Image(
            frames: frames, format: .tiff, scale: options.scaleFactor, orientation: first.orientation,
            flags: flags(first, incomplete: anyIncomplete), decodeOptions: options, metadata: metadata)
    }

    /// One page decoded and finished (resize remainder, orientation, depth, alpha form), and whether its data ran
    /// short.
    static func finishedPage(_ reader: TIFFReader, page: Int, options: DecodeOptions) throws(ImageError)
        -> (finished: DecodeOptions.FinishedPixels, incomplete: Bool)
    {
        let decoded = try TIFFPageDecoder.decode(reader, page: page, options: options)
        let finished = try options.finish(
            decoded.pixels, orientation: decoded.orientation, fullSize: decoded.storedSize)
        return (finished, decoded.isIncomplete)
    }

    /// An image's flags: a thumbnail when reduced, incomplete when the data ran short.
    static func flags(_ finished: DecodeOptions.FinishedPixels, incomplete: Bool) -> Image.Flags {
        var flags: Image.Flags = finished.isThumbnail ? .thumbnail : []
        if incomplete { flags.insert(.incomplete) }
        return flags
    }

    /// width x height summed over the pages to decode, against the pixel limit, from the directories alone.
    static func checkPixelLimit(_ reader: TIFFReader, pages: ClosedRange<Int>, options: DecodeOptions)
        throws(ImageError)
    {
        try options.checkFrameLimit(pages.count)
        var total = 0
        for index in pages {
            let size = try reader.size(ofPage: index)
            try options.checkPixelLimit(size)
            let (sum, overflow) = total.addingReportingOverflow(size.area)
            guard !overflow, sum <= options.pixelLimit else {
                throw ImageError(
                    .pixelLimitExceeded,
                    "\(pages.count) TIFF pages exceed the pixel limit of \(options.pixelLimit) pixels")
            }
            total = sum
        }
    }
}

extension TIFFCoder: LibraryOpeningCoder {
    package func openLibraries() {
        _ = try? TIFFLibrary.load()
    }
}
