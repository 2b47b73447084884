#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// Which format an answer is encoded in: `format()`, else AVIF or WebP when enabled and the client's Accept names
/// them, else the source's own format (animations stay animated: GIF, animated WebP, APNG).
enum OutputFormat {
    /// Formats answered as they are when the source is in one of them (thumbor's set).
    static let passThrough: Set<ImageFormat> = [.jpeg, .png, .webp, .avif, .gif, .heic]

    static func choose(
        requested: ImageFormat?, source: Image, accept: String?, autoWebP: Bool, autoAVIF: Bool,
        canEncode: (ImageFormat) -> Bool
    ) -> ImageFormat {
        if let requested { return requested }
        if autoAVIF, !source.isAnimated, accepts("image/avif", in: accept), canEncode(.avif) { return .avif }
        if autoWebP, accepts("image/webp", in: accept), canEncode(.webp) { return .webp }
        let own = source.format == .heif ? ImageFormat.heic : source.format
        if passThrough.contains(own), canEncode(own) { return own }
        if source.isAnimated { return .gif }
        return source.hasAlpha ? .png : .jpeg
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
