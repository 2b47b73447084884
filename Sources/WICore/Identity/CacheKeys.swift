#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// SDWebImage's cache key rules: a thumbnail or transformer part is inserted before the path extension of URL
/// keys (query and fragment kept), or appended with "-" when there is no extension.
///
/// `http://a.com/b/c.png?x=1` with transformer key `Blur(2)` gives `http://a.com/b/c-Blur(2).png?x=1`.
public enum CacheKeys {
    /// The key part SDWebImage uses for a thumbnail size (`%f` of each side): `Thumbnail({256.000000,256.000000},1)`.
    public static func thumbnailPart(_ size: PixelSize, preserveAspectRatio: Bool) -> String {
        "Thumbnail({\(size.width).000000,\(size.height).000000},\(preserveAspectRatio ? 1 : 0))"
    }

    /// The key part of pixels converted to `target` (`DecodeOptions.targetColorSpace`); nil for `.preserve`, which
    /// adds nothing, so that keys made before colour conversion existed stay valid.
    public static func colorSpacePart(_ target: DecodeOptions.TargetColorSpace) -> String? {
        switch target {
        case .preserve: nil
        case .sRGB: "sRGB"
        }
    }

    /// The key part of an SVG drawn into a viewport (`DecodeOptions.vectorViewport`):
    /// `Viewport({200.000000,100.000000})`, in the thumbnail part's form.
    static func viewportPart(_ size: PixelSize) -> String {
        "Viewport({\(size.width).000000,\(size.height).000000})"
    }

    /// The key part of a thumbnail or transform made from the first frame only (`.decodeFirstFrameOnly`).
    public static let firstFramePart = "FirstFrame"

    /// `key` in the cache partition `partition`: `[partition length:partition]key`. The length prefix keeps every
    /// (partition, key) pair apart, whatever characters either holds.
    public static func partitioned(_ key: String, partition: String) -> String {
        "[\(partition.utf8.count):\(partition)]" + key
    }

    /// `key` for a thumbnail of `size`.
    public static func thumbnailed(_ key: String, size: PixelSize, preserveAspectRatio: Bool) -> String {
        inserting(thumbnailPart(size, preserveAspectRatio: preserveAspectRatio), into: key)
    }

    /// `key` for the output of a transformer whose key is `transformerKey`.
    public static func transformed(_ key: String, transformerKey: String) -> String {
        inserting(transformerKey, into: key)
    }

    /// Inserts `-part` before the path extension, or appends it when there is none.
    static func inserting(_ part: String, into key: String) -> String {
        // "scheme://authority/path?query#fragment": find the path by hand. (URLComponents' ranges point into its
        // own percent-encoded copy, not into `key`, once the key holds characters such as "{".)
        if let separator = key.firstRange(of: "://") {
            let afterAuthority = key[separator.upperBound...].firstIndex(of: "/") ?? key.endIndex
            let pathEnd = key[afterAuthority...].firstIndex { $0 == "?" || $0 == "#" } ?? key.endIndex
            let path = key[afterAuthority..<pathEnd]
            guard let pathExtension = Self.pathExtension(of: path) else { return key + "-" + part }
            let stemEnd = key.index(pathEnd, offsetBy: -(pathExtension.count + 1))
            return String(key[..<stemEnd]) + "-" + part + "." + pathExtension + String(key[pathEnd...])
        }
        guard let pathExtension = Self.pathExtension(of: Substring(key)) else { return key + "-" + part }
        return String(key.dropLast(pathExtension.count + 1)) + "-" + part + "." + pathExtension
    }

    /// The extension of the last path component ("png" of "/a/b.png"), nil when it has none.
    private static func pathExtension(of path: Substring) -> Substring? {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let pathExtension = name[name.index(after: dot)...]
        return pathExtension.isEmpty ? nil : pathExtension
    }
}
