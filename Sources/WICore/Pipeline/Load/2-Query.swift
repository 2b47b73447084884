#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ImageManager {
    /// Asks `cache` for `key` in the tiers `cacheType` selects (with `options`, the request's by default), in a
    /// `webimage.cache.query` span when tracing.
    func query(
        _ cache: any ImageCache, key: String, request: ResolvedRequest, cacheType: ImageCacheType,
        options: ImageOptions? = nil
    ) async -> ImageCacheQueryResult? {
        let options = options ?? request.options
        guard telemetry.isTracing else {
            return await cache.query(key: key, options: options, context: request.context, cacheType: cacheType)
        }
        return await telemetry.withSpan(ImageManager.TelemetryNames.cacheQuerySpan) { span in
            let hit = await cache.query(key: key, options: options, context: request.context, cacheType: cacheType)
            span.attributes[ImageManager.TelemetryNames.cacheKeyKey] = key
            span.attributes[ImageManager.TelemetryNames.cacheTypeKey] = (hit?.cacheType ?? .none).description
            return hit
        }
    }

    /// After a cached entry failed to decode: removes it and returns nil (a miss) when the manager's own coders
    /// say its bytes are bad (1001); nil without removing it when no coder knows the format (1004); any other
    /// failure (a pixel limit, a per-request coder that does not know the format, memory) is the load's answer and
    /// the entry stays.
    func discardIfBad(
        _ error: ImageError, bytes: Data, key: String, cache: any ImageCache,
        request: ResolvedRequest
    ) async -> Result<ImageResult, ImageError>? {
        if Task.isCancelled { return .failure(Self.cancelled) }
        // Bytes no coder of this request knows: a miss; the entry stays for a request whose coder does, and a
        // successful load replaces it.
        if error.code == .unsupportedFormat { return nil }
        guard error.code == .badImageData else { return .failure(error) }
        if request.hasOwnCoder {
            // A per-request coder's verdict is not the manager's: ask the default coders.
            let coders = self.coders
            let options = request.decodeOptions
            let verdict = await cpuPool.run { () -> ImageError.Code? in
                do throws(ImageError) {
                    _ = try coders.decode(bytes, options: options)
                    return nil
                } catch {
                    return error.code
                }
            }
            guard verdict == .badImageData else { return .failure(error) }
        }
        request.logger.warning(
            "removed a cache entry whose bytes do not decode",
            metadata: [
                ImageManager.TelemetryNames.urlKey: "\(request.url.absoluteString)",
                ImageManager.TelemetryNames.cacheKeyKey: "\(key)",
                ImageManager.TelemetryNames.errorCodeKey: "\(error.code.rawValue)",
            ])
        await cache.remove(key: key, cacheType: .disk)
        return nil
    }
}
