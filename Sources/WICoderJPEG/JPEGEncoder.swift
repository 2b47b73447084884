#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
import WICoderSupport
internal import CJPEGShim

/// One encode: pixels prepared once, then written at one quality or searched down to a file size.
struct JPEGEncoder {
    let coder: JPEGCoder
    let options: EncodeOptions

    func encode(_ image: Image) throws(ImageError) -> Data {
        var pixels = image.pixels
        if let box = options.maxPixelSize {
            let target = ImageCoding.Geometry.scaledSize(of: pixels.size, toFit: box)
            if target != pixels.size { pixels = try options.effectiveResampler.resample(pixels, to: target) }
        }
        pixels = try pixels.converted(to: .rgba8)
        // The pixels are written as they are, so the file must say what they still need (upright: 1).
        let exif =
            image.metadata.exif.map { ImageCoding.ExifReader.replacingOrientation(in: $0, with: image.orientation) }
            ?? (image.orientation == .up ? nil : JPEGExif.minimal(orientation: image.orientation))
        let prepared = Prepared(pixels: pixels, exif: exif, icc: image.metadata.iccProfile, settings: settings)
        let quality = Self.libjpegQuality(options.quality)
        let first = try prepared.write(quality: quality)
        guard let limit = options.maxFileSize, first.count > limit else { return first }
        // Binary search for the highest quality that fits; the lowest quality's file when none does.
        var (low, high) = (1, quality - 1)
        var best: Data?
        var lowest: Data? = quality == 1 ? first : nil
        while low <= high {
            let middle = (low + high) / 2
            let data = try prepared.write(quality: middle)
            if middle == 1 { lowest = data }
            if data.count <= limit {
                best = data
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        if let best { return best }
        if let lowest { return lowest }
        return try prepared.write(quality: 1)
    }

    /// EncodeOptions.quality 0...1 to libjpeg's 1...100.
    static func libjpegQuality(_ quality: Double) -> Int {
        max(1, min(100, Int((max(0, min(1, quality)) * 100).rounded())))
    }

    private var settings: wi_jpeg_encode_settings {
        let background = options.backgroundColor ?? .white
        return wi_jpeg_encode_settings(
            quality: 0, progressive: coder.progressive ? 1 : 0,
            optimize_coding: coder.optimizeHuffman ? 1 : 0,
            chroma_444: coder.chromaSubsampling == .yuv444 ? 1 : 0,
            background: (background.red, background.green, background.blue))
    }

    private struct Prepared {
        let pixels: PixelBuffer
        let exif: Data?
        let icc: Data?
        let settings: wi_jpeg_encode_settings

        func write(quality: Int) throws(ImageError) -> Data {
            var settings = settings
            settings.quality = Int32(quality)
            var output: UnsafeMutablePointer<UInt8>?
            var outputSize = 0
            var message = [CChar](repeating: 0, count: 256)
            let status = pixels.withUnsafeBytes { rgba in
                (exif ?? Data()).withUnsafeBytes { exifBytes in
                    (icc ?? Data()).withUnsafeBytes { iccBytes in
                        wi_jpeg_encode(
                            rgba.bindMemory(to: UInt8.self).baseAddress, UInt32(pixels.width),
                            UInt32(pixels.height), pixels.bytesPerRow, &settings,
                            exifBytes.bindMemory(to: UInt8.self).baseAddress, exifBytes.count,
                            iccBytes.bindMemory(to: UInt8.self).baseAddress, iccBytes.count,
                            &output, &outputSize, &message, message.count)
                    }
                }
            }
            guard status == WI_JPEG_OK, let output else {
                let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                throw ImageError(
                    status == WI_JPEG_OUT_OF_MEMORY ? .outOfMemory : .encodingFailed, "JPEG encode: \(text)")
            }
            return Data(bytesNoCopy: output, count: outputSize, deallocator: .free)
        }
    }
}
