#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// Which format an answer is encoded in, as thumbor 7.8 chooses it: `format()`; else, for a still image, the first
/// auto conversion that is on and that the Accept header allows, in thumbor's order (WebP, AVIF, JPEG from
/// AUTO_PNG_TO_JPG or AUTO_JPG, HEIF, PNG); else the source's own format (a TIFF as PNG, as thumbor serves it; an SVG
/// as PNG, as thumbor's cairosvg renders it, AUTO_PNG_TO_JPG included; animations stay animated: GIF, animated WebP,
/// APNG).
enum OutputFormat {
    /// Formats answered as they are when the source is in one of them (thumbor's set).
    static let passThrough: Set<ImageFormat> = [.jpeg, .png, .webp, .avif, .gif, .heic]
    /// thumbor's WEBP_SIDE_LIMIT: a side above it is never auto-converted to WebP (libwebp's limit).
    static let webPSideLimit = 16_383

    /// The auto conversions the service makes from the Accept header (thumbor's AUTO_* settings).
    ///
    /// Thread safety: a value type; safe to send and share.
    struct Negotiation: Sendable, Hashable {
        var webP = false
        var avif = false
        var jpg = false
        var png = false
        var heif = false
        /// AUTO_PNG_TO_JPG: a PNG source without transparency answered as JPEG, whatever the Accept header.
        var pngToJPG = false

        init(
            webP: Bool = false, avif: Bool = false, jpg: Bool = false, png: Bool = false, heif: Bool = false,
            pngToJPG: Bool = false
        ) {
            self.webP = webP
            self.avif = avif
            self.jpg = jpg
            self.png = png
            self.heif = heif
            self.pngToJPG = pngToJPG
        }

        /// Whether an answer whose URL names no format may depend on the Accept header (`Vary: Accept`).
        var usesAccept: Bool { webP || avif || jpg || png || heif }

        /// What of `accept` the choice depends on: the enabled conversions the header allows (the variant key's
        /// part; empty when no conversion is on).
        func acceptKey(_ accept: String?) -> String {
            var key = ""
            if avif, OutputFormat.accepts("image/avif", in: accept) { key += "+avif" }
            if webP, OutputFormat.accepts("image/webp", in: accept) { key += "+webp" }
            if jpg, OutputFormat.acceptsJPEG(accept) { key += "+jpg" }
            if heif, OutputFormat.accepts("image/heif", in: accept) { key += "+heif" }
            if png, OutputFormat.accepts("image/png", in: accept) { key += "+png" }
            return key
        }
    }

    /// thumbor's `can_auto_convert_png_to_jpg` switch: AUTO_PNG_TO_JPG on is turned off by any `autojpg()` filter
    /// (thumbor 7.8's test of its override reads `override is None`); off, the filter's value decides.
    static func convertsPNGToJPG(configured: Bool, filter: Bool?) -> Bool {
        configured ? filter == nil : filter ?? false
    }

    static func choose(
        requested: ImageFormat?, source: Image, accept: String?, negotiation n: Negotiation, autojpg: Bool? = nil,
        canEncode: (ImageFormat) -> Bool
    ) -> ImageFormat {
        if let requested { return requested }
        let still = !source.isAnimated
        if still {
            if n.webP, accepts("image/webp", in: accept), source.width <= webPSideLimit,
                source.height <= webPSideLimit, canEncode(.webp)
            {
                return .webp
            }
            if n.avif, accepts("image/avif", in: accept), canEncode(.avif) { return .avif }
            let pngToJPG =
                convertsPNGToJPG(configured: n.pngToJPG, filter: autojpg) && [.png, .svg].contains(source.format)
            let autoJPG = n.jpg && acceptsJPEG(accept)
            if pngToJPG || autoJPG, !source.hasAlpha { return .jpeg }
            if n.heif, accepts("image/heif", in: accept), canEncode(.heic) { return .heic }
            if n.png, accepts("image/png", in: accept) { return .png }
        }
        let own: ImageFormat =
            switch source.format {
            case .heif: .heic
            case .tiff: .png  // thumbor serves a TIFF as PNG
            case .svg: .png  // thumbor's cairosvg makes an SVG a PNG first, and serves it so
            default: source.format
            }
        if passThrough.contains(own), canEncode(own) { return own }
        if source.isAnimated { return .gif }
        return source.hasAlpha ? .png : .jpeg
    }

    /// thumbor's test for AUTO_JPG: the Accept header names `*/*`, `image/jpg` or `image/jpeg`.
    static func acceptsJPEG(_ accept: String?) -> Bool {
        accepts("*/*", in: accept) || accepts("image/jpg", in: accept) || accepts("image/jpeg", in: accept)
    }

    /// Whether `body` is a GIF with more than one image (thumbor's `is_animated_gif`, which keeps `Vary: Accept` off
    /// such answers); a truncated or malformed GIF is not.
    static func isAnimatedGIF(_ body: Data) -> Bool {
        body.withUnsafeBytes { raw -> Bool in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard bytes.count >= 13, bytes[0] == 0x47, bytes[1] == 0x49, bytes[2] == 0x46 else { return false }
            func colorTable(_ flags: UInt8) -> Int { flags & 0x80 != 0 ? 3 << (Int(flags & 7) + 1) : 0 }
            var i = 13 + colorTable(bytes[10])
            var frames = 0
            while i < bytes.count, frames < 2 {
                let block = bytes[i]
                i += 1
                switch block {
                case 0x3B: return false
                case 0x21: i += 1  // extension label
                case 0x2C:
                    frames += 1
                    guard i + 9 <= bytes.count else { return false }
                    i += 8
                    i += 1 + colorTable(bytes[i])
                    i += 1  // LZW minimum code size
                default: return false
                }
                // Sub-blocks up to the terminator.
                while i < bytes.count {
                    let length = Int(bytes[i])
                    i += 1 + length
                    if length == 0 { break }
                }
            }
            return frames > 1
        }
    }

    /// Whether the Accept header lists `type` with a non-zero quality (wildcards do not count, as in thumbor).
    static func accepts(_ type: String, in accept: String?) -> Bool {
        guard let accept else { return false }
        for item in accept.split(separator: ",") {
            let parts = item.split(separator: ";").map { String($0).trimmingSpacesAndTabs().lowercased() }
            guard parts.first == type else { continue }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return quality > 0
        }
        return false
    }
}
