#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging

/// One load with everything resolved once, at its start, and handed down the stages: options after the processor,
/// decode options, keys, cache types, identity, and the components it uses (the context's, else the manager's).
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

    /// The cache queried and stored into: `context[.imageCache]`, else the manager's.
    var cache: any ImageCache
    /// Where the original of a thumbnail or transform lives: `context[.originalImageCache]`, else `cache`.
    var originalCache: any ImageCache
    /// The loader: `context[.imageLoader]`, else the manager's.
    var loader: any ImageLoader
    /// The coder: `context[.imageCoder]`, else the manager's coders.
    var coder: any ImageCoder
    /// Whether `coder` is the request's own (its verdict on cached bytes is not the manager's).
    var hasOwnCoder: Bool
    /// `coder`'s identity (nil: it has none, and no two decodes share work).
    var coderIdentity: IdentityValue?
    /// Chooses the bytes stored in data caches: `context[.cacheSerializer]`, else the manager's.
    var serializer: (any CacheSerializer)?
    /// `context[.httpCachePolicy]`, else `.ignore`.
    var httpCachePolicy: HTTPCachePolicy
    /// `context[.logger]`, else the manager's.
    var logger: Logger

    /// Whether the final image differs from what the source bytes decode to at full size (thumbnail, colour
    /// conversion or transform asked for): such a result carries no `data`, and its own cache entry.
    var isDerived: Bool {
        sourceKey != finalKey || decodeOptions.thumbnailPixelSize != nil || transformer != nil
            || decodeOptions.targetColorSpace != .preserve || decodeOptions.vectorViewport != nil
    }
}

extension ImageManager {
    /// Validates the URL, runs the options processor and resolves keys, options, identity and components, once per
    /// load (SDWebImage's steps 1 and 2).
    func resolve(url: URL?, options: ImageOptions, context: ImageContext, order: UInt64? = nil) throws(ImageError)
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
        if let key = finalKey, let viewport = decode.vectorViewport {
            finalKey = CacheKeys.inserting(CacheKeys.viewportPart(viewport), into: key)
        }
        if let key = finalKey, let part = CacheKeys.colorSpacePart(decode.targetColorSpace) {
            finalKey = CacheKeys.inserting(part, into: key)
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
        let ownCoder = context[.imageCoder]
        let cache = context[.imageCache] ?? self.cache
        var loadRequest = ImageLoading.Request(url: url, options: options, context: context, cacheKey: sourceKey)
        loadRequest.handoverOrder = order
        let loaderIdentity = ownLoader.map { ComponentIdentity.of($0) } ?? ownIdentities.loader
        let load = LoadKey(loader: loaderIdentity ?? IdentityValue.unique(), identity: loader.identity(of: loadRequest))
        return ResolvedRequest(
            url: url, options: options, context: context, decodeOptions: decode, transformer: transformer,
            sourceKey: sourceKey, finalKey: finalKey, queryType: context[.queryCacheType] ?? .all,
            storeType: context[.storeCacheType] ?? .all, originalQueryType: context[.originalQueryCacheType] ?? .disk,
            originalStoreType: context[.originalStoreCacheType] ?? .disk, loadRequest: loadRequest, load: load,
            resultIdentity: context.identity(of: [.result]),
            cache: cache, originalCache: context[.originalImageCache] ?? cache, loader: loader,
            coder: ownCoder ?? coders, hasOwnCoder: ownCoder != nil,
            coderIdentity: ownCoder.map { ComponentIdentity.of($0) } ?? ownIdentities.coders,
            serializer: context[.cacheSerializer] ?? cacheSerializer,
            httpCachePolicy: context[.httpCachePolicy] ?? .ignore, logger: context[.logger] ?? telemetry.logger)
    }
}
