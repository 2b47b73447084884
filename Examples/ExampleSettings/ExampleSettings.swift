// What the two example apps (HummingbirdApp, VaporApp) set up the same way, so that each main.swift shows only
// what differs: its framework's app and how the image routes are mounted in it.
import Foundation
public import WebImage
public import WIServeCore

/// The example apps' settings, from their environment: `PORT` (8080), `AVATAR_SOURCE` (where avatar `{id}` is
/// loaded from), `THUMBOR_KEY` (signed thumbor URLs; without it `unsafe/` ones) and `ALLOWED_HOSTS` (hosts whose
/// URLs may reach private addresses, comma-separated).
///
/// Thread safety: a value type; safe to send and share.
public struct ExampleSettings: Sendable {
    /// Where the app listens, on 127.0.0.1.
    public var port: Int
    /// The image service's configuration: the key or `unsafe/` URLs, the allowed hosts, the rest `wi serve`'s
    /// defaults (a variant cache in memory and under `$XDG_CACHE_HOME/wi-serve`).
    public var configuration = ServeConfiguration()
    /// The source URL of avatar `{id}`.
    public var avatarSource: String

    public init(_ environment: [String: String] = ProcessInfo.processInfo.environment) {
        port = environment["PORT"].flatMap { Int($0) } ?? 8080
        avatarSource = environment["AVATAR_SOURCE"] ?? "https://example.com/avatars/{id}.jpg"
        configuration.key = environment["THUMBOR_KEY"]
        configuration.allowUnsafe = configuration.key == nil
        configuration.allowedHosts = environment["ALLOWED_HOSTS"]?.split(separator: ",").map(String.init) ?? []
    }

    /// The app's own manager: a memory cache, every coder, and a loader that refuses private addresses (a thumbor
    /// URL names any host; the service's second loader reaches `ALLOWED_HOSTS`). The app shuts it down.
    public func makeManager() throws(ImageError) -> ImageManager {
        var loading = CurlImageLoader.Configuration()
        loading.addressPolicy = .publicOnly()
        let coders = WebImage.makeCoders()
        return ImageManager(
            cache: TieredImageCache(memory: MemoryCache(), dataTiers: [], coders: coders),
            loader: try CurlImageLoader(configuration: loading), coders: coders)
    }

    /// Avatar `id` as a `size` x `size` WebP: nil for an id that is not letters and digits (the app's 404); a size
    /// outside 16...512 is `ImageError` 1009, which the service answers as a 400 with its message.
    public func avatar(id: String, size: Int) throws(ImageError) -> ImageRoute? {
        guard !id.isEmpty, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
        guard (16...512).contains(size) else { throw ImageError(.invalidArgument, "size must be in 16...512") }
        guard let source = URL(string: avatarSource.replacingOccurrences(of: "{id}", with: id)) else { return nil }
        return ImageRoute(
            source: source, transformer: try .resize(width: size, height: size, mode: .aspectFill),
            format: .webp)
    }
}
