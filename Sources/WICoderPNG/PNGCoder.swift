#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
import WICoderSupport
internal import CPNGShim

/// PNG decoding and encoding on libpng, with libdeflate for the image data of one-shot decodes and of encodes.
///
/// Decodes every standard PNG (bit depths 1-16, grey, grey+alpha, palette, RGB, RGBA, tRNS, Adam7) to RGBA8, or
/// RGBA16 with `keep16Bit`; applies eXIf orientation; keeps iCCP and eXIf as metadata; decodes incrementally.
/// Encodes to the smallest lossless layout that holds the pixels (grey, grey+alpha, RGB or RGBA; 8 or 16 bits).
/// Decodes APNG animations (composited as browsers show them) and encodes images with several frames as APNG.
///
/// ```swift
/// let coders = ImageCodersManager(coders: [PNGCoder()])
/// ```
///
/// Thread safety: stateless; decode and encode from any number of threads at once.
public struct PNGCoder: ProgressiveImageCoder, AnimatedImageCoder {
    /// Deflate effort, 0 (stored) to 9 (smallest), on libdeflate's scale (zlib's, smaller output at each level);
    /// 6 by default.
    public var compressionLevel: Int

    public init(compressionLevel: Int = 6) {
        self.compressionLevel = min(9, max(0, compressionLevel))
    }

    /// libpng's run-time version ("1.6.39").
    public static var libraryVersion: String { String(cString: wi_png_library_version()) }

    public var decodingFormats: [ImageFormat] { [.png] }

    public func canDecode(_ data: Data) -> Bool { ImageFormat.detect(data.prefix(16)) == .png }

    public func decode(_ data: Data, options: DecodeOptions) throws(ImageError) -> Image {
        if let structure = APNGStructure.read(data) {
            let decoder = try makeAnimatedDecoder(data, structure: structure, options: options)
            let metadata = APNGAnimation(data: data, structure: structure, pixelLimit: options.pixelLimit).metadata()
            return try decoder.image(format: .png, metadata: metadata, flags: structure.isTruncated ? .incomplete : [])
        }
        let handle = try PNGDecoderHandle(options: options)
        try handle.decode(data)
        return try handle.finalImage()
    }

    /// Frames on demand for an APNG; `.unsupportedFormat` for a still PNG.
    public func makeAnimatedDecoder(_ data: Data, options: DecodeOptions) throws(ImageError) -> any AnimatedImageDecoder
    {
        guard let structure = APNGStructure.read(data) else {
            throw ImageError(.unsupportedFormat, "PNG: not an animated PNG")
        }
        return try makeAnimatedDecoder(data, structure: structure, options: options)
    }

    private func makeAnimatedDecoder(_ data: Data, structure: APNGStructure, options: DecodeOptions)
        throws(ImageError) -> ImageCoding.CompositedAnimationDecoder
    {
        try options.checkFrameLimit(structure.frames.count)
        let count = options.firstFrameOnly ? 1 : structure.frames.count
        try options.checkPixelLimit(
            structure.canvas,
            frames: options.pixelLimitFrameCount(frameCount: count, canvas: structure.canvas))
        let source = APNGAnimation(data: data, structure: structure, pixelLimit: options.pixelLimit)
        return try ImageCoding.CompositedAnimationDecoder(
            canvasSize: structure.canvas, frames: structure.frames.map(\.info),
            loopCount: structure.plays, source: source, options: options)
    }

    public func makeIncrementalDecoder(header: Data, options: DecodeOptions) -> (any IncrementalImageDecoder)? {
        guard canDecode(header) else { return nil }
        return try? PNGIncrementalDecoder(options: options)
    }

    public func canEncode(to format: ImageFormat) -> Bool { format == .png }

    public func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(ImageError) -> Data {
        guard format == .png else { throw ImageError(.unsupportedFormat, "PNGCoder encodes PNG, not \(format)") }
        if image.isAnimated && !options.firstFrameOnly {
            return try APNGEncoder.encode(image, options: options, compressionLevel: compressionLevel)
        }
        var pixels = image.pixels
        if let box = options.maxPixelSize {
            let target = ImageCoding.Geometry.scaledSize(of: pixels.size, toFit: box)
            if target != pixels.size { pixels = try options.effectiveResampler.resample(pixels, to: target) }
        }
        let wide = pixels.format.bitsPerComponent == 16
        pixels = try pixels.converted(to: wide ? .rgba16 : .rgba8)
        let layout = PNGLayout.smallest(for: pixels).compatible(withProfile: image.metadata.iccProfile)
        let rows = try layout.pack(pixels)
        let exif = image.metadata.exif.map {
            ImageCoding.ExifReader.replacingOrientation(in: $0, with: image.orientation)
        }
        // PNG allows a grey profile only on grey images and an RGB profile only on colour images.
        let icc = image.metadata.iccProfile.flatMap { layout.accepts(profile: $0) ? $0 : nil }
        return try Self.write(
            rows, layout: layout, bitDepth: wide ? 16 : 8, level: compressionLevel, icc: icc, exif: exif)
    }

    static func write(
        _ rows: PixelBuffer, layout: PNGLayout, bitDepth: Int, level: Int, icc: Data?,
        exif: Data?
    ) throws(ImageError) -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize = 0
        var message = [CChar](repeating: 0, count: 256)
        let effort = Int32(min(9, max(0, level)))  // `compressionLevel` is a public var: clamp again, never trap
        let status = rows.withUnsafeBytes { pixels in
            (icc ?? Data()).withUnsafeBytes { iccBytes in
                (exif ?? Data()).withUnsafeBytes { exifBytes in
                    wi_png_encode(
                        pixels.bindMemory(to: UInt8.self).baseAddress, UInt32(rows.width),
                        UInt32(rows.height), rows.bytesPerRow, layout.shimLayout, Int32(bitDepth),
                        effort, iccBytes.bindMemory(to: UInt8.self).baseAddress, iccBytes.count,
                        exifBytes.bindMemory(to: UInt8.self).baseAddress, exifBytes.count,
                        &output, &outputSize, &message, message.count)
                }
            }
        }
        guard status == WI_PNG_OK, let output else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ImageError(status == WI_PNG_OUT_OF_MEMORY ? .outOfMemory : .encodingFailed, "PNG encode: \(text)")
        }
        return Data(bytesNoCopy: output, count: outputSize, deallocator: .free)
    }
}
