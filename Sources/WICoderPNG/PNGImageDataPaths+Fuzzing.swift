#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// The two image data paths of a one-shot decode side by side, for the fuzz targets in Fuzz/ (a separate package)
/// without widening the public API: `@_spi(Fuzzing) import WICoderPNG`.
@_spi(Fuzzing)
public enum PNGImageDataPaths {
    /// Decodes `data` through the whole-buffer path (libdeflate, CPNGShim's image_data_decode.c) and through libpng's
    /// rows alone; nil when they agree (same pixels and metadata, or the same error), else what differs. The one
    /// allowed difference: a deflate stream that zlib refuses but libdeflate accepts (codes RFC 1951 reserves,
    /// such as literal/length symbols 286-287 or distance codes 30-31) decodes on the whole-buffer path.
    ///
    /// Thread safety: a pure function; callable from any thread.
    public static func mismatch(in data: Data, options: DecodeOptions) -> String? {
        let whole = outcome(data, wholeBuffer: true, options: options)
        let libpng = outcome(data, wholeBuffer: false, options: options)
        switch (whole, libpng) {
        case (.success(let a), .success(let b)):
            if a.pixels != b.pixels { return "pixels differ: whole-buffer \(a.pixels.size), libpng \(b.pixels.size)" }
            if a.metadata.iccProfile != b.metadata.iccProfile || a.metadata.exif != b.metadata.exif {
                return "metadata differs"
            }
            return nil
        case (.failure(let a), .failure(let b)):
            return a.code == b.code && a.message == b.message ? nil : "errors differ: \(a) / \(b)"
        case (.success, .failure(let error)):
            return error.message.contains("IDAT") || error.message.contains("compress")
                ? nil
                : "libpng failed (\(error)) where the whole-buffer path decoded"
        case (.failure(let error), .success):
            return "the whole-buffer path failed (\(error)) where libpng decoded"
        }
    }

    private static func outcome(_ data: Data, wholeBuffer: Bool, options: DecodeOptions) -> Result<Image, ImageError> {
        Result { () throws(ImageError) -> Image in
            let handle = try PNGDecoderHandle(options: options)
            try handle.decode(data, wholeBuffer: wholeBuffer)
            return try handle.finalImage()
        }
    }
}
