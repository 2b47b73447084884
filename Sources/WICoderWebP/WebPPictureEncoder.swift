#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
internal import CWebP

/// libwebp's encoder configuration and pictures, shared by still and animated encodes.
enum WebPPictureEncoder {
    /// A validated libwebp configuration: `quality` 0...1 becomes 0...100 (for lossless, the effort spent on
    /// making the file smaller).
    static func config(quality: Double, lossless: Bool, _ settings: WebPCoder.Configuration) throws(ImageError)
        -> WebPConfig
    {
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else {
            throw ImageError(.encodingFailed, "WebP: libwebp rejected its encoder configuration (ABI mismatch)")
        }
        config.quality = Float(min(1, max(0, quality)) * 100)
        // Clamped again: the settings' properties are public vars a caller may set after `init` clamped them.
        config.method = Int32(min(6, max(0, settings.method)))
        config.lossless = lossless ? 1 : 0
        if lossless, let nearLossless = settings.nearLossless {
            config.near_lossless = Int32(min(100, max(0, nearLossless)))
        }
        config.alpha_quality = Int32(min(100, max(0, settings.alphaQuality)))
        // libwebp 1.2.4 skips near-lossless preprocessing when `exact` is set, so the lossless default yields to it.
        config.exact = (settings.exactColorUnderAlpha ?? (lossless && settings.nearLossless == nil)) ? 1 : 0
        guard WebPValidateConfig(&config) != 0 else {
            throw ImageError(.encodingFailed, "WebP: invalid encoder configuration")
        }
        return config
    }

    /// Runs `body` with a libwebp picture holding `pixels` (any format; imported as straight RGBA8), freed after.
    static func withPicture<R>(_ pixels: PixelBuffer, _ body: (inout WebPPicture) throws(ImageError) -> R)
        throws(ImageError) -> R
    {
        let rgba = try pixels.converted(to: .rgba8)
        guard rgba.width <= Int(WEBP_MAX_DIMENSION), rgba.height <= Int(WEBP_MAX_DIMENSION) else {
            throw ImageError(
                .encodingFailed, "WebP: \(rgba.size) exceeds the format's \(WEBP_MAX_DIMENSION) pixel limit")
        }
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else {
            throw ImageError(.encodingFailed, "WebP: libwebp rejected its picture (ABI mismatch)")
        }
        picture.width = Int32(rgba.width)
        picture.height = Int32(rgba.height)
        picture.use_argb = 1
        defer { WebPPictureFree(&picture) }
        let imported = rgba.withUnsafeBytes { bytes in
            WebPPictureImportRGBA(
                &picture, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(rgba.bytesPerRow))
        }
        guard imported != 0 else { throw ImageError(.outOfMemory, "WebP: cannot import \(rgba.size) pixels") }
        return try body(&picture)
    }

    /// A still WebP file of `pixels`.
    static func encode(_ pixels: PixelBuffer, config: WebPConfig) throws(ImageError) -> Data {
        var config = config
        return try withPicture(pixels) { picture throws(ImageError) -> Data in
            var writer = WebPMemoryWriter()
            WebPMemoryWriterInit(&writer)
            defer { WebPMemoryWriterClear(&writer) }
            let succeeded = withUnsafeMutablePointer(to: &writer) { output in
                picture.writer = WebPMemoryWrite
                picture.custom_ptr = UnsafeMutableRawPointer(output)
                return WebPEncode(&config, &picture)
            }
            guard succeeded != 0, let memory = writer.mem else {
                throw WebPStatus.encodingError(picture.error_code, "encode")
            }
            return Data(bytes: memory, count: writer.size)
        }
    }
}
