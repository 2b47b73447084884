#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ImageManager {
    /// The one store rule. The original's bytes go under the source key (downloads only; a cached original is
    /// there already) in `.originalImageCache` (or the cache), with the decoded image in memory when it is a full
    /// decode. The final image goes under the final key in every tier of the request's store type: a derived
    /// image (thumbnail, transform) with bytes of its own (the serializer's, or the cache encodes it), never under
    /// the source key. Every entry keeps the original's HTTP cache info (a download's response head, or the cached
    /// original's); unless the policy is `.ignore`, a `no-store` response reaches no data tier.
    func store(_ request: ResolvedRequest, original: Image, final: Image, origin: Origin, info: HTTPCacheInfo?) async {
        guard let sourceKey = request.sourceKey, let finalKey = request.finalKey else { return }
        let serializer = request.serializer
        // `no-store` keeps a response out of every persistent tier (memory only) when HTTP caching is respected.
        let persistent: ImageCacheType = info?.noStore == true && request.httpCachePolicy != .ignore ? .memory : .all
        if case .network(let loaded) = origin {
            let originalData =
                serializer.map { $0.cacheData(for: original, originalData: loaded.data, url: request.url) }
                ?? loaded.data
            if sourceKey == finalKey {
                var type = originalData == nil ? request.storeType.intersection(.memory) : request.storeType
                type = type.intersection(persistent)
                guard type != .none else { return }
                await request.cache.store(
                    image: final, data: originalData, httpCacheInfo: info, key: finalKey,
                    cacheType: type, context: request.context)
                return
            }
            let fullDecode =
                request.decodeOptions.thumbnailPixelSize == nil && request.decodeOptions.scaleDownLimitBytes == nil
                && request.decodeOptions.targetColorSpace == .preserve && request.decodeOptions.vectorViewport == nil
            var originalType = request.originalStoreType.intersection(persistent)
            if !fullDecode { originalType = originalType.intersection(.disk) }
            if originalData == nil { originalType = originalType.intersection(.memory) }
            if originalType != .none {
                await request.originalCache.store(
                    image: fullDecode ? original : nil, data: originalData, httpCacheInfo: info,
                    key: sourceKey, cacheType: originalType, context: request.context)
            }
        }
        let finalType = request.storeType.intersection(persistent)
        guard sourceKey != finalKey, finalType != .none else { return }
        let finalData = serializer?.cacheData(for: final, originalData: nil, url: request.url)
        await request.cache.store(
            image: final, data: finalData, httpCacheInfo: info, key: finalKey, cacheType: finalType,
            context: request.context)
    }

    /// An image decoded from a data tier's bytes under the final key, put in the memory tier (with `info`) unless
    /// the request stores no memory image.
    func promote(_ image: Image, info: HTTPCacheInfo?, key: String, _ request: ResolvedRequest) async {
        guard request.storeType.includesMemory && !request.options.contains(.avoidStoreCache) else { return }
        await request.cache.store(
            image: image, data: nil, httpCacheInfo: info, key: key, cacheType: .memory,
            context: request.context)
    }

    /// Puts `info` on the request's entries (the original's and the final image's) after a 304.
    func renew(_ request: ResolvedRequest, info: HTTPCacheInfo) async {
        guard let sourceKey = request.sourceKey else { return }
        guard let finalKey = request.finalKey, finalKey != sourceKey else {
            return await request.cache.renewHTTPCacheInfo(info, key: sourceKey, cacheType: .all)
        }
        await request.originalCache.renewHTTPCacheInfo(info, key: sourceKey, cacheType: .all)
        await request.cache.renewHTTPCacheInfo(info, key: finalKey, cacheType: .all)
    }
}
