#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ImageManager {
    typealias ImageTicket = WorkRegistry<ImageTaskKey, ImageResult, ImageTaskEvent>.Ticket
    typealias ImageTaskContext = WorkRegistry<ImageTaskKey, ImageResult, ImageTaskEvent>.Context

    /// Joins or starts the shared image task for `request`; `cancellation` (the async form's) lets `cancelAll()`
    /// and `shutdown()` end this caller with 2002.
    func run(_ request: ResolvedRequest, priorityTicket: @Sendable (ImageTicket) -> Void,
             progress: (@Sendable (ImageLoading.Progress) -> Void)?,
             cancellation: WaiterCancellation? = nil) async -> Result<ImageResult, ImageError> {
        let url = request.url
        return await imageTasks.run(
            key: imageTaskKey(request), priority: ImageLoading.Priority(request.options),
            onEvent: { [weak self] event in
                switch event {
                case .response(let head): self?.emit(url, .response(statusCode: head.statusCode))
                case .progress(let received, let expected):
                    progress?(.bytes(received: received, expected: expected))
                    self?.emit(url, .progress(received: received, expected: expected))
                case .partialImage(let image):
                    progress?(.partialImage(image))
                    self?.emit(url, .partialImage(image.size))
                }
            },
            ticket: priorityTicket, coalesced: telemetry.coalescedLoad, cancellation: cancellation
        ) { [self] context in
            let result = await perform(request, context)
            if case .failure(let error) = result { recordFailure(request, error) }
            if case .success = result, request.options.contains(.retryFailed) { removeFailedURL(url) }
            return result
        }
    }

    /// A memory hit answered in the caller's task, before any shared work is joined (no task, no thread hand-off:
    /// most of a hit's cost before). Taken only where the shared task would answer exactly the same at once: the
    /// final key queried in memory, HTTP caching ignored, no frames to decode, no tracer (whose spans keep one
    /// `webimage.cache.query` per load). Nil when the shared task must answer; after a memory miss `request` then
    /// no longer asks the memory tier (each tier is asked once per load, and counted once).
    func memoryHit(_ request: inout ResolvedRequest) async -> Result<ImageResult, ImageError>? {
        guard !telemetry.isTracing, request.queryType.includesMemory, let key = request.finalKey,
              !request.options.contains(.fromLoaderOnly), !request.decodeOptions.preloadAllFrames,
              (request.context[.httpCachePolicy] ?? .ignore) == .ignore, !Task.isCancelled else { return nil }
        let cache = request.context[.imageCache] ?? self.cache
        guard let hit = await cache.query(key: key, options: request.options, context: request.context,
                                          cacheType: .memory) else {
            request.queryType = request.queryType.intersection(.disk)
            return nil
        }
        // Bytes without an image (a custom memory tier) are decoded by the shared task, which asks again.
        guard hit.image != nil, let result = await finalHit(hit, info: hit.httpCacheInfo, key: key, request: request,
                                                            cache: cache) else { return nil }
        if case .success = result, request.options.contains(.retryFailed) { removeFailedURL(request.url) }
        return result
    }

    /// SDWebImage's steps 3 to 7 for one shared image task, as one flow: the final image from the cache, or else
    /// an original (a cached one, or the network's) decoded, transformed and stored by one rule.
    private func perform(_ request: ResolvedRequest, _ task: ImageTaskContext) async -> Result<ImageResult, ImageError> {
        let cache = request.context[.imageCache] ?? self.cache
        if !request.options.contains(.fromLoaderOnly) {
            if let finalKey = request.finalKey,
               let hit = await query(cache, key: finalKey, options: request.options, context: request.context,
                                           cacheType: request.queryType),
               let result = await answer(hit, request: request, task: task, cache: cache, use: { info in
                   await finalHit(hit, info: info, key: finalKey, request: request, cache: cache)
               }) {
                return result
            }
            if Task.isCancelled { return .failure(Self.cancelled) }
            if let sourceKey = request.sourceKey, sourceKey != request.finalKey,
               let result = await fromCachedOriginal(request, sourceKey: sourceKey, cache: cache, task: task) {
                return result
            }
        }
        if Task.isCancelled { return .failure(Self.cancelled) }
        if request.options.contains(.fromCacheOnly) {
            return .failure(ImageError(.loadSkipped, "\(request.url.absoluteString) is not cached and .fromCacheOnly forbids loading"))
        }
        if let delegate, !delegate.shouldLoad(request.url) {
            return .failure(ImageError(.loadSkipped, "the delegate declined to load \(request.url.absoluteString)"))
        }
        switch await load(request, task: task) {
        case .success(let loaded): return await decodeAndFinish(request, loaded: loaded, cache: cache)
        case .failure(let error): return .failure(error)
        }
    }

    /// Where the original image of a result came from.
    enum Origin {
        /// Downloaded: the bytes, stored under the source key.
        case network(ImageLoadResult)
        /// A cache entry under the source key: where it was found, its bytes if read, and its HTTP cache info.
        case cache(ImageCacheType, Data?, HTTPCacheInfo?)
    }

    /// The result of a hit under the final key: a memory image as it is (a still when only the first frame is
    /// asked for, every frame decoded when `preloadAllFrames` meets frames on demand), or bytes decoded in the
    /// shared decode stage and promoted to memory with `info` (the entry's HTTP cache info, renewed when a 304 just
    /// confirmed it). Nil when the entry's bytes are bad (it is removed) and the load goes on as a miss.
    private func finalHit(_ hit: ImageCacheQueryResult, info: HTTPCacheInfo?, key: String, request: ResolvedRequest,
                          cache: any ImageCache) async -> Result<ImageResult, ImageError>?
    {
        let data = request.isDerived ? nil : hit.data
        if let image = hit.image {
            var held = image
            if request.decodeOptions.firstFrameOnly && image.isAnimated {
                held = image.with(frames: [ImageFrame(pixels: image.pixels)], loopCount: 0)
            } else if request.decodeOptions.preloadAllFrames && image.frameBuffer != nil {
                // Frames on demand in memory, every frame asked for now: decoded on the manager's pool (CPU work),
                // the cached image unchanged.
                let preloaded = await cpuPool.cancellableResult { () throws(ImageError) -> Image in
                    image.with(frames: try image.frames)
                }
                switch preloaded {
                case .success(let image): held = image
                case .failure(let error): return .failure(error)
                }
            }
            return .success(ImageResult(image: held, data: data, cacheType: hit.cacheType, url: request.url,
                                        sourceData: hit.data, httpCacheInfo: info))
        }
        guard let bytes = hit.data else { return nil }
        // A derived entry holds the finished image: decode it as stored, not reduced again.
        var options = request.decodeOptions
        if request.isDerived {
            options.thumbnailPixelSize = nil
            options.scaleDownLimitBytes = nil
        }
        switch await decode(bytes, source: cacheSource(key, in: cache), request: request, options: options) {
        case .success(let decoded):
            var image = decoded
            if request.isDerived {
                var flags = image.flags
                if request.decodeOptions.thumbnailPixelSize != nil { flags.insert(.thumbnail) }
                if request.transformer != nil { flags.insert(.transformed) }
                image = image.with(flags: flags)
            }
            if request.storeType.includesMemory && !request.options.contains(.avoidStoreCache) {
                await cache.store(image: image, data: nil, httpCacheInfo: info, key: key, cacheType: .memory,
                                  context: request.context)
            }
            return .success(ImageResult(image: image, data: data, cacheType: hit.cacheType, url: request.url,
                                        sourceData: bytes, httpCacheInfo: info))
        case .failure(let error):
            return await discardIfBad(error, bytes: bytes, key: key, cache: cache, request: request)
        }
    }

    /// A thumbnail or transform made from the cached original, without loading (SDWebImage's transformed-key miss).
    /// Nil on a miss, or when the original's bytes are bad (they are removed).
    private func fromCachedOriginal(_ request: ResolvedRequest, sourceKey: String, cache: any ImageCache,
                                    task: ImageTaskContext) async -> Result<ImageResult, ImageError>?
    {
        let originalCache = request.context[.originalImageCache] ?? cache
        guard let hit = await query(originalCache, key: sourceKey, options: request.options, context: request.context,
                                                  cacheType: request.originalQueryType) else { return nil }
        return await answer(hit, request: request, task: task, cache: cache) { info in
            await derive(request, from: hit, info: info, sourceKey: sourceKey, cache: cache)
        }
    }

    /// The result made from the original's cache `hit` (its HTTP cache info `info`); nil on bad bytes.
    private func derive(_ request: ResolvedRequest, from hit: ImageCacheQueryResult, info: HTTPCacheInfo?,
                        sourceKey: String, cache: any ImageCache) async -> Result<ImageResult, ImageError>? {
        let originalCache = request.context[.originalImageCache] ?? cache
        if let image = hit.image, image.decodeOptions == request.decodeOptions {
            return await finish(request, original: image, origin: .cache(hit.cacheType, hit.data, info), cache: cache)
        }
        var found = hit.data
        if found == nil {
            found = await query(originalCache, key: sourceKey, options: request.options.union(.queryMemoryData),
                                              context: request.context, cacheType: request.originalQueryType)?.data
        }
        guard let bytes = found else { return nil }
        switch await decode(bytes, source: cacheSource(sourceKey, in: originalCache), request: request,
                            options: request.decodeOptions) {
        case .success(let original):
            return await finish(request, original: original, origin: .cache(hit.cacheType, bytes, info), cache: cache)
        case .failure(let error):
            return await discardIfBad(error, bytes: bytes, key: sourceKey, cache: originalCache, request: request)
        }
    }

    /// After a cached entry failed to decode: removes it and returns nil (a miss) when the manager's own coders
    /// say its bytes are bad (1001); nil without removing it when no coder knows the format (1004); any other failure (a pixel limit, a per-request coder that does not know the
    /// format, memory) is the load's answer and the entry stays.
    private func discardIfBad(_ error: ImageError, bytes: Data, key: String, cache: any ImageCache,
                              request: ResolvedRequest) async -> Result<ImageResult, ImageError>? {
        if Task.isCancelled { return .failure(Self.cancelled) }
        // Bytes no coder of this request knows: a miss; the entry stays for a request whose coder does, and a
        // successful load replaces it.
        if error.code == .unsupportedFormat { return nil }
        guard error.code == .badImageData else { return .failure(error) }
        if request.context[.imageCoder] != nil {
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
        logger(request).warning("removed a cache entry whose bytes do not decode", metadata: [
            ImageManager.TelemetryNames.urlKey: "\(request.url.absoluteString)", ImageManager.TelemetryNames.cacheKeyKey: "\(key)",
            ImageManager.TelemetryNames.errorCodeKey: "\(error.code.rawValue)",
        ])
        await cache.remove(key: key, cacheType: .disk)
        return nil
    }

    /// Transforms `original` when asked, stores by the one rule, and makes the result.
    func finish(_ request: ResolvedRequest, original: Image, origin: Origin, cache: any ImageCache) async
        -> Result<ImageResult, ImageError>
    {
        let info: HTTPCacheInfo? = switch origin {
        case .network(let loaded): httpCacheInfo(of: loaded)
        case .cache(_, _, let cached): cached
        }
        // The images carry their info, so the objects the memory tier keeps are the ones the caller gets.
        let original = original.with(httpCacheInfo: info)
        var final = original
        if let transformer = request.transformer, !original.isAnimated || request.options.contains(.transformAnimatedImage) {
            let source: DecodeSource = switch origin {
            case .network: .load(request.load)
            case .cache: cacheSource(request.sourceKey ?? "", in: request.context[.originalImageCache] ?? cache)
            }
            switch await transform(original, with: transformer, decode: decodeKey(source, request, options: request.decodeOptions)) {
            case .success(let image): final = image.with(httpCacheInfo: info)
            case .failure(let error): return .failure(error)
            }
        }
        let sourceData: Data?
        var metrics: ImageLoading.Metrics?
        let cacheType: ImageCacheType
        switch origin {
        case .network(let loaded): (sourceData, metrics, cacheType) = (loaded.data, loaded.metrics, .none)
        case .cache(let type, let data, _): (sourceData, cacheType) = (data, type)
        }
        let store: @Sendable () async -> Void = { [self, final] in
            await telemetry.withSpan(ImageManager.TelemetryNames.cacheStoreSpan) { _ in
                await storeResult(request, original: original, final: final, origin: origin, info: info, cache: cache)
            }
        }
        if request.options.contains(.avoidStoreCache) {
            // Nothing to store.
        } else if request.options.contains(.waitStoreCache) {
            await store()
        } else {
            tracker.background(store)
        }
        return .success(ImageResult(image: final, data: request.isDerived ? nil : sourceData, cacheType: cacheType,
                                    url: request.url, metrics: metrics, sourceData: sourceData, httpCacheInfo: info))
    }

    /// The one store rule. The original's bytes go under the source key (downloads only; a cached original is
    /// there already) in `.originalImageCache` (or the cache), with the decoded image in memory when it is a full
    /// decode. The final image goes under the final key in every tier of the request's store type: a derived
    /// image (thumbnail, transform) with bytes of its own (the serializer's, or the cache encodes it), never under
    /// the source key. Every entry keeps the original's HTTP cache info (a download's response head, or the cached
    /// original's); unless the policy is `.ignore`, a `no-store` response reaches no data tier.
    private func storeResult(_ request: ResolvedRequest, original: Image, final: Image, origin: Origin,
                             info: HTTPCacheInfo?, cache: any ImageCache) async {
        guard let sourceKey = request.sourceKey, let finalKey = request.finalKey else { return }
        let serializer = request.context[.cacheSerializer] ?? cacheSerializer
        // `no-store` keeps a response out of every persistent tier (memory only) when HTTP caching is respected.
        let persistent: ImageCacheType = info?.noStore == true && (request.context[.httpCachePolicy] ?? .ignore) != .ignore
            ? .memory : .all
        if case .network(let loaded) = origin {
            let originalData = serializer.map { $0.cacheData(for: original, originalData: loaded.data, url: request.url) }
                ?? loaded.data
            if sourceKey == finalKey {
                var type = originalData == nil ? request.storeType.intersection(.memory) : request.storeType
                type = type.intersection(persistent)
                guard type != .none else { return }
                await cache.store(image: final, data: originalData, httpCacheInfo: info, key: finalKey, cacheType: type,
                                  context: request.context)
                return
            }
            let fullDecode = request.decodeOptions.thumbnailPixelSize == nil && request.decodeOptions.scaleDownLimitBytes == nil
            var originalType = request.originalStoreType.intersection(persistent)
            if !fullDecode { originalType = originalType.intersection(.disk) }
            if originalData == nil { originalType = originalType.intersection(.memory) }
            if originalType != .none {
                let originalCache = request.context[.originalImageCache] ?? cache
                await originalCache.store(image: fullDecode ? original : nil, data: originalData, httpCacheInfo: info,
                                          key: sourceKey, cacheType: originalType, context: request.context)
            }
        }
        let finalType = request.storeType.intersection(persistent)
        guard sourceKey != finalKey, finalType != .none else { return }
        let finalData = serializer?.cacheData(for: final, originalData: nil, url: request.url)
        await cache.store(image: final, data: finalData, httpCacheInfo: info, key: finalKey, cacheType: finalType,
                          context: request.context)
    }

    private func recordFailure(_ request: ResolvedRequest, _ error: ImageError) {
        let unblockable: Set<ImageError.Code> = [.cancelled, .loadSkipped, .blockedURL, .unsupportedFormat, .shutDown]
        guard !unblockable.contains(error.code) else { return }
        let loader = request.context[.imageLoader] ?? self.loader
        let block = delegate?.shouldBlockFailedURL(request.url, error: error)
            ?? loader.shouldBlockFailedURL(request.url, error: error)
        if block { _ = failedURLs.withLock { $0.insert(request.url.absoluteString) } }
    }

    static let cancelled = ImageError(.cancelled, "the request was cancelled")
}
