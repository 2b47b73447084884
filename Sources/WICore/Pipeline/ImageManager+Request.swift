#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One load with everything resolved: options after the processor, decode options, keys, cache types, identity.
struct ResolvedRequest: Sendable {
    var url: URL
    var options: ImageOptions
    var context: ImageContext
    var decodeOptions: DecodeOptions
    var transformer: (any ImageTransformer)?
    /// The key of the downloaded bytes: partition, no thumbnail or transformer part. Nil: do not cache.
    var sourceKey: String?
    /// The key of the final image: with partition, thumbnail and transformer parts.
    var finalKey: String?
    var queryType: ImageCacheType
    var storeType: ImageCacheType
    var originalQueryType: ImageCacheType
    var originalStoreType: ImageCacheType
    /// The request handed to the loader, and its identity as that loader sees it.
    var loadRequest: ImageLoading.Request
    var load: LoadKey
    /// The identity of the context values that change the result (coder, caches, serializer...); nil: private.
    var resultIdentity: [String: IdentityValue]?

    /// Whether the final image differs from what the source bytes decode to at full size (thumbnail or transform
    /// asked for): such a result carries no `data`, and its own cache entry.
    var isDerived: Bool { sourceKey != finalKey || decodeOptions.thumbnailPixelSize != nil || transformer != nil }
}

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

/// Events a shared image task sends its callers.
enum ImageTaskEvent: Sendable {
    case response(ImageLoading.ResponseHead)
    case progress(received: Int64, expected: Int64)
    case partialImage(Image)
}

extension ImageManager {
    /// Validates the URL, runs the options processor and resolves keys, options and identity (SDWebImage's
    /// steps 1 and 2).
    func prepare(url: URL?, options: ImageOptions, context: ImageContext, order: UInt64? = nil) throws(ImageError)
        -> ResolvedRequest
    {
        guard let url, !url.absoluteString.isEmpty, url.scheme != nil || url.isFileURL else {
            throw ImageError(.invalidURL, "the image URL is empty or invalid")
        }
        if tracker.isShutDown { throw Self.shutDownError }
        if !options.contains(.retryFailed) && isFailedURL(url) {
            throw ImageError(.blockedURL, "\(url.absoluteString) failed before; use .retryFailed to load it again")
        }
        var options = options
        var context = context
        if let processed = optionsProcessor?.process(url: url, options: options, context: context) {
            (options, context) = processed
        }
        var decode = context[.decodeOptions] ?? DecodeOptions()
        if let size = context[.thumbnailPixelSize] { decode.thumbnailPixelSize = size }
        if let keep = context[.preserveAspectRatio] { decode.preserveAspectRatio = keep }
        if let scale = context[.scaleFactor] { decode.scaleFactor = scale }
        if let limit = context[.scaleDownLimitBytes] {
            decode.scaleDownLimitBytes = limit
        } else if options.contains(.scaleDownLargeImages) {
            decode.scaleDownLimitBytes = 60 * 1024 * 1024
        }
        if options.contains(.decodeFirstFrameOnly) { decode.firstFrameOnly = true }
        if options.contains(.preloadAllFrames) { decode.preloadAllFrames = true }
        // Caller data (a server passes query-string values straight in) fails here, before any cache or download.
        try decode.validate()
        try context[.encodeOptions]?.validate()
        context[.decodeOptions] = decode

        let transformer = context[.imageTransformer] ?? self.transformer
        let filter = context[.cacheKeyFilter] ?? cacheKeyFilter
        var sourceKey = filter.map { $0.cacheKey(for: url) } ?? url.absoluteString
        var finalKey = sourceKey
        if let key = finalKey, let size = decode.thumbnailPixelSize {
            finalKey = CacheKeys.thumbnailed(key, size: size, preserveAspectRatio: decode.preserveAspectRatio)
        }
        if let key = finalKey, let transformer {
            finalKey = CacheKeys.transformed(key, transformerKey: transformer.key)
        }
        // A derived entry made from the first frame is a still: it must not answer a load that wants the animation.
        if let key = finalKey, key != sourceKey, decode.firstFrameOnly {
            finalKey = CacheKeys.inserting(CacheKeys.firstFramePart, into: key)
        }
        if let partition = context[.cachePartition] {
            sourceKey = sourceKey.map { CacheKeys.partitioned($0, partition: partition) }
            finalKey = finalKey.map { CacheKeys.partitioned($0, partition: partition) }
        }
        let ownLoader = context[.imageLoader]
        let loader = ownLoader ?? self.loader
        var loadRequest = ImageLoading.Request(url: url, options: options, context: context, cacheKey: sourceKey)
        loadRequest.handoverOrder = order
        let loaderIdentity = ownLoader.map { ComponentIdentity.of($0) } ?? ownIdentities.loader
        let load = LoadKey(loader: loaderIdentity ?? IdentityValue.unique(), identity: loader.identity(of: loadRequest))
        return ResolvedRequest(
            url: url, options: options, context: context, decodeOptions: decode, transformer: transformer,
            sourceKey: sourceKey, finalKey: finalKey, queryType: context[.queryCacheType] ?? .all,
            storeType: context[.storeCacheType] ?? .all, originalQueryType: context[.originalQueryCacheType] ?? .disk,
            originalStoreType: context[.originalStoreCacheType] ?? .disk, loadRequest: loadRequest, load: load,
            resultIdentity: context.identity(of: [.result]))
    }

    func imageTaskKey(_ request: ResolvedRequest) -> ImageTaskKey {
        let isPrivate = request.resultIdentity == nil || request.load.identity.isPrivate
        return ImageTaskKey(.init(finalKey: request.finalKey, options: request.options.rawValue,
                                  decodeOptions: request.decodeOptions, transformerKey: request.transformer?.key,
                                  cacheTypes: SIMD4(request.queryType.rawValue, request.storeType.rawValue,
                                                    request.originalQueryType.rawValue, request.originalStoreType.rawValue),
                                  load: request.load, result: request.resultIdentity ?? [:],
                                  privateID: isPrivate ? UUID() : nil))
    }

    /// The decode key of `source` decoded for `request` with `options`.
    func decodeKey(_ source: DecodeSource, _ request: ResolvedRequest, options: DecodeOptions) -> DecodeKey {
        let coder = request.context[.imageCoder].map { ComponentIdentity.of($0) } ?? ownIdentities.coders
        return DecodeKey(source: source, coder: coder ?? IdentityValue.unique(), options: options)
    }

    /// The source of a cache entry under `key` in `cache`.
    func cacheSource(_ key: String, in cache: any ImageCache) -> DecodeSource {
        .cache(key: key, cache: ComponentIdentity.of(cache) ?? IdentityValue.unique())
    }
}
