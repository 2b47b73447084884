import Foundation

/// One load with everything resolved: options after the processor, decode options, keys, cache types.
struct ResolvedRequest: Sendable {
    var url: URL
    var options: ImageOptions
    var context: ImageContext
    var decodeOptions: DecodeOptions
    var transformer: (any ImageTransformer)?
    /// The key of the downloaded bytes: no thumbnail or transformer part. Nil: do not cache.
    var sourceKey: String?
    /// The key of the final image: with thumbnail and transformer parts.
    var finalKey: String?
    var queryType: ImageCacheType
    var storeType: ImageCacheType
    var originalQueryType: ImageCacheType
    var originalStoreType: ImageCacheType
    /// True when the context holds things that identical-looking requests may not share (modifiers, overrides).
    var isPrivate: Bool
}

/// Everything that makes two loads the same load.
struct ImageTaskKey: Hashable, Sendable {
    var url: String
    var finalKey: String?
    var options: Int
    var decodeOptions: DecodeOptions
    var transformerKey: String?
    var cacheTypes: [Int]
    var privateID: UUID?
}

/// Everything that makes two downloads the same download.
struct LoadKey: Hashable, Sendable {
    var url: String
    var options: Int
    var privateID: UUID?
}

/// Where decoded bytes came from, and how they are decoded.
struct DecodeKey: Hashable, Sendable {
    var source: LoadKey
    var options: DecodeOptions
}

/// A decode followed by a transformer chain's prefix.
struct TransformKey: Hashable, Sendable {
    var decode: DecodeKey
    var transformerKey: String
}

/// Events a shared image task sends its callers.
enum ImageTaskEvent: Sendable {
    case response(ImageLoadResponseHead)
    case progress(received: Int64, expected: Int64)
    case partialImage(Image)
}

extension ImageManager {
    /// The context keys that make a request private: values we cannot compare, which may change the result.
    static let privateContextKeys: Set<String> = [
        "imageCache", "originalImageCache", "imageLoader", "imageCoder", "requestModifier", "responseModifier",
        "decryptor", "cacheSerializer", "cacheKeyFilter",
    ]

    /// Validates the URL, runs the options processor and resolves keys and options (SDWebImage's step 1 and 2).
    func prepare(url: URL?, options: ImageOptions, context: ImageContext) throws(ImageError) -> ResolvedRequest {
        guard let url, !url.absoluteString.isEmpty, url.scheme != nil || url.isFileURL else {
            throw ImageError(.invalidURL, "the image URL is empty or invalid")
        }
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
        context[.decodeOptions] = decode

        let transformer = context[.imageTransformer] ?? self.transformer
        let filter = context[.cacheKeyFilter] ?? cacheKeyFilter
        let sourceKey = filter.map { $0.cacheKey(for: url) } ?? url.absoluteString
        var finalKey = sourceKey
        if let key = finalKey, let size = decode.thumbnailPixelSize {
            finalKey = CacheKeys.thumbnailed(key, size: size, preserveAspectRatio: decode.preserveAspectRatio)
        }
        if let key = finalKey, let transformer {
            finalKey = CacheKeys.transformed(key, transformerKey: transformer.key)
        }
        let isPrivate = !Self.privateContextKeys.isDisjoint(with: context.keyNames)
        return ResolvedRequest(
            url: url, options: options, context: context, decodeOptions: decode, transformer: transformer,
            sourceKey: sourceKey, finalKey: finalKey, queryType: context[.queryCacheType] ?? .all,
            storeType: context[.storeCacheType] ?? .all, originalQueryType: context[.originalQueryCacheType] ?? .disk,
            originalStoreType: context[.originalStoreCacheType] ?? .disk, isPrivate: isPrivate)
    }

    func imageTaskKey(_ request: ResolvedRequest) -> ImageTaskKey {
        ImageTaskKey(url: request.url.absoluteString, finalKey: request.finalKey, options: request.options.rawValue,
                     decodeOptions: request.decodeOptions, transformerKey: request.transformer?.key,
                     cacheTypes: [request.queryType, request.storeType, request.originalQueryType,
                                  request.originalStoreType].map(\.rawValue),
                     privateID: request.isPrivate ? UUID() : nil)
    }

    func loadKey(_ request: ResolvedRequest) -> LoadKey {
        let relevant: ImageOptions = [.progressiveLoad, .handleCookies, .allowInvalidSSLCertificates, .refreshCached]
        return LoadKey(url: request.url.absoluteString, options: request.options.intersection(relevant).rawValue,
                       privateID: request.isPrivate ? UUID() : nil)
    }
}
