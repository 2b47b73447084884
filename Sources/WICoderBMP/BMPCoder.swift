#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// BMP, ICO and CUR decoding and encoding, in Swift (no C library).
///
/// ```swift
/// let coders = ImageCodersManager(coders: [PNGCoder(), BMPCoder(pngCoder: PNGCoder())])
/// let favicon = try coders.decode(icoData, options: .init(thumbnailPixelSize: .init(width: 32, height: 32)))
/// let bmp = try BMPCoder().encode(favicon, as: .bmp, options: .init())
/// ```
///
/// Decoding: BMP headers of 12 (OS/2 1.x), 40, 52, 56, 64 (OS/2 2.x), 108 (V4) and 124 (V5) bytes; 1, 2, 4, 8, 16,
/// 24 and 32 bits per pixel; RLE4 and RLE8 (skipped pixels transparent); BI_BITFIELDS and BI_ALPHABITFIELDS with any
/// contiguous masks, scaled to 8 bits as `v * 255 / max`; top-down and bottom-up rows; alpha from an alpha mask
/// (a V4/V5 header's, or BI_ALPHABITFIELDS), an all-zero alpha channel showing opaque. ICO and CUR: the entry closest
/// above the thumbnail size asked for (the largest when none is), BMP entries with their AND mask, PNG entries
/// through the `pngCoder` given at init (without one they throw `.unsupportedFormat`). Every offset and size is
/// checked against the data, and the pixel limit before any allocation; a file that ends early gives the rows that
/// arrived, flagged `.incomplete`.
///
/// Encoding: `.bmp` as 24-bit BI_RGB when the image is opaque, else 32-bit BGRA with a V4 header and alpha mask;
/// `.ico` as one entry of the image's size (scaled to fit 256x256): PNG when a `pngCoder` was given, else a 32-bit
/// BMP entry with its AND mask.
///
/// Thread safety: immutable; decode and encode from any number of threads at once.
public struct BMPCoder: ImageCoder {
    private let pngCoder: (any ImageCoder)?

    /// A coder; `pngCoder` decodes (and encodes) the PNG images inside ICO files, e.g. `PNGCoder()`.
    public init(pngCoder: (any ImageCoder)? = nil) {
        self.pngCoder = pngCoder
    }

    public var decodingFormats: [ImageFormat] { [.bmp, .ico, .cur] }

    public func canDecode(_ data: Data) -> Bool {
        [.bmp, .ico, .cur].contains(ImageFormat.detect(data.prefix(64)))
    }

    public func decode(_ data: Data, options: DecodeOptions) throws(ImageError) -> Image {
        let format = ImageFormat.detect(data.prefix(64))
        let decoded = try ByteReader.read(data) { (reader) throws(ImageError) -> IconDecoder.Decoded in
            switch format {
            case .bmp: return try decodeBMP(reader, options: options)
            case .ico, .cur:
                return try IconDecoder(reader: reader, data: data, pngCoder: pngCoder).decode(options: options)
            default: throw ImageError(.unsupportedFormat, "BMPCoder: not a BMP, ICO or CUR file")
            }
        }
        let finished = try options.finish(decoded.pixels, orientation: .up, fullSize: decoded.fullSize)
        var flags: Image.Flags = finished.isThumbnail ? [.thumbnail] : []
        if !decoded.complete { flags.insert(.incomplete) }
        var metadata = ImageMetadata()
        metadata.cursorHotspot = decoded.hotspot.map {
            Self.scaled($0, from: decoded.pixels.size, to: finished.pixels.size)
        }
        return Image(
            pixels: finished.pixels, format: format, scale: options.scaleFactor,
            orientation: finished.orientation, flags: flags, decodeOptions: options, metadata: metadata)
    }

    /// A hotspot moved with its pixels from `source` to `target` size, kept inside the image.
    static func scaled(_ point: ImageCoding.PixelPoint, from source: PixelSize, to target: PixelSize)
        -> ImageCoding.PixelPoint
    {
        guard source != target else {
            return ImageCoding.PixelPoint(x: min(point.x, source.width - 1), y: min(point.y, source.height - 1))
        }
        let x = point.x * target.width / source.width
        let y = point.y * target.height / source.height
        return ImageCoding.PixelPoint(x: min(max(0, x), target.width - 1), y: min(max(0, y), target.height - 1))
    }

    private func decodeBMP(_ reader: ByteReader, options: DecodeOptions) throws(ImageError) -> IconDecoder.Decoded {
        let fileOffset = Int(try reader.u32(10, "pixel data offset"))
        let header = try BMPHeader.read(reader, dibOffset: 14, fileOffset: fileOffset, isIcon: false)
        try options.checkPixelLimit(PixelSize(width: header.width, height: header.height))
        let result = try BitmapDecoder(header: header, reader: reader).decode()
        return IconDecoder.Decoded(pixels: result.pixels, complete: result.complete, fullSize: result.pixels.size)
    }

    public func canEncode(to format: ImageFormat) -> Bool { format == .bmp || format == .ico }

    public func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(ImageError) -> Data {
        switch format {
        case .bmp: return try BMPEncoder.encodeBMP(image.pixels, options: options)
        case .ico: return try BMPEncoder.encodeICO(image.pixels, options: options, pngCoder: pngCoder)
        default: throw ImageError(.unsupportedFormat, "BMPCoder encodes BMP and ICO, not \(format)")
        }
    }
}
