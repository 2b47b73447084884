#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Everything that makes two loads the same load.
///
/// The fields live in one shared box with their hash computed once: the image task registry hashes the key when a
/// caller joins and again when the work finishes, and compares it with itself then, which is now at once (hashing
/// and comparing the fields, their identity dictionaries included, was 7% of a memory hit's profile).
struct ImageTaskKey: Hashable, Sendable {
    struct Fields: Hashable, Sendable {
        var finalKey: String?
        var options: Int
        var decodeOptions: DecodeOptions
        var transformerKey: String?
        var cacheTypes: SIMD4<Int>
        var load: LoadKey
        var result: [String: IdentityValue]
        var privateID: UUID?
    }

    private final class Box: Sendable {
        let fields: Fields
        let hash: Int

        init(_ fields: Fields) {
            self.fields = fields
            hash = fields.hashValue
        }
    }

    private let box: Box

    init(_ fields: Fields) { box = Box(fields) }

    static func == (a: ImageTaskKey, b: ImageTaskKey) -> Bool {
        a.box === b.box || (a.box.hash == b.box.hash && a.box.fields == b.box.fields)
    }

    func hash(into hasher: inout Hasher) { hasher.combine(box.hash) }
}

/// Everything that makes two downloads the same download: the loader and the request's identity as it sees it.
struct LoadKey: Hashable, Sendable {
    var loader: IdentityValue
    var identity: ImageLoading.Identity
}

/// Where decoded bytes came from.
enum DecodeSource: Hashable, Sendable {
    /// A download.
    case load(LoadKey)
    /// A cache entry: its key and the cache's identity.
    case cache(key: String, cache: IdentityValue)
}

/// Where decoded bytes came from, which coder decodes them, and how.
struct DecodeKey: Hashable, Sendable {
    var source: DecodeSource
    var coder: IdentityValue
    var options: DecodeOptions
}

/// A decode followed by a transformer chain's prefix.
struct TransformKey: Hashable, Sendable {
    var decode: DecodeKey
    var transformerKey: String
}

extension ImageManager {
    /// The key under which `request` joins or starts an image task (a private request's key equals no other).
    func imageTaskKey(_ request: ResolvedRequest) -> ImageTaskKey {
        let isPrivate = request.resultIdentity == nil || request.load.identity.isPrivate
        return ImageTaskKey(
            .init(
                finalKey: request.finalKey, options: request.options.rawValue,
                decodeOptions: request.decodeOptions, transformerKey: request.transformer?.key,
                cacheTypes: SIMD4(
                    request.queryType.rawValue, request.storeType.rawValue,
                    request.originalQueryType.rawValue, request.originalStoreType.rawValue),
                load: request.load, result: request.resultIdentity ?? [:],
                privateID: isPrivate ? UUID() : nil))
    }

    /// The decode key of `source` decoded for `request` with `options`.
    func decodeKey(_ source: DecodeSource, _ request: ResolvedRequest, options: DecodeOptions) -> DecodeKey {
        DecodeKey(source: source, coder: request.coderIdentity ?? IdentityValue.unique(), options: options)
    }

    /// The source of a cache entry under `key` in `cache`.
    func cacheSource(_ key: String, in cache: any ImageCache) -> DecodeSource {
        .cache(key: key, cache: ComponentIdentity.of(cache) ?? IdentityValue.unique())
    }
}
