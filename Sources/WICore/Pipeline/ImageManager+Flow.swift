import Foundation

extension ImageManager {
    typealias ImageTicket = WorkRegistry<ImageTaskKey, ImageResult, ImageTaskEvent>.Ticket

    /// Joins or starts the shared image task for `request`.
    func run(_ request: ResolvedRequest, priorityTicket: @Sendable (ImageTicket) -> Void,
             progress: (@Sendable (ImageLoadProgress) -> Void)?) async -> Result<ImageResult, ImageError> {
        let url = request.url
        return await imageTasks.run(
            key: imageTaskKey(request), priority: ImageRequestPriority(request.options),
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
            ticket: priorityTicket
        ) { [self] context in
            let result = await perform(request, context)
            if case .failure(let error) = result { recordFailure(request, error) }
            if case .success = result, request.options.contains(.retryFailed) { removeFailedURL(url) }
            return result
        }
    }

    /// SDWebImage's steps 3 to 7 for one shared image task.
    private func perform(_ request: ResolvedRequest, _ task: WorkRegistry<ImageTaskKey, ImageResult, ImageTaskEvent>.Context)
        async -> Result<ImageResult, ImageError>
    {
        let cache = request.context[.imageCache] ?? self.cache
        if !request.options.contains(.fromLoaderOnly), let finalKey = request.finalKey {
            // Revalidation compares the server's bytes with the cached ones, so read those too.
            let queryOptions = request.options.contains(.refreshCached) ? request.options.union(.queryMemoryData) : request.options
            if let hit = await cache.query(key: finalKey, options: queryOptions, context: request.context,
                                           cacheType: request.queryType), let image = hit.image {
                return .success(ImageResult(image: image, data: hit.data, cacheType: hit.cacheType, url: request.url))
            }
            if Task.isCancelled { return .failure(Self.cancelled) }
            if let sourceKey = request.sourceKey, sourceKey != finalKey,
               let result = await fromOriginal(request, sourceKey: sourceKey, finalKey: finalKey, cache: cache) {
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
        let source = loadKey(request)
        let loaded: ImageLoadResult
        switch await load(request, source: source, task: task) {
        case .success(let value): loaded = value
        case .failure(let error): return .failure(error)
        }
        let original: Image
        switch await decode(loaded.data, source: source, request: request) {
        case .success(let image): original = image
        case .failure(let error): return .failure(error)
        }
        var final = original
        var transformed = false
        if let transformer = request.transformer, !original.isAnimated || request.options.contains(.transformAnimatedImage) {
            switch await transform(original, with: transformer, decode: DecodeKey(source: source, options: request.decodeOptions)) {
            case .success(let image): (final, transformed) = (image, true)
            case .failure(let error): return .failure(error)
            }
        }
        let store: @Sendable () async -> Void = { [self, final, transformed] in
            await storeResult(request, original: original, data: loaded.data, final: final, transformed: transformed, cache: cache)
        }
        if request.options.contains(.waitStoreCache) { await store() } else { Task { await store() } }
        return .success(ImageResult(image: final, data: loaded.data, cacheType: .none, url: request.url, metrics: loaded.metrics))
    }

    /// A thumbnail or transform made from the cached original, without loading (SDWebImage's transformed-key miss).
    private func fromOriginal(_ request: ResolvedRequest, sourceKey: String, finalKey: String, cache: any ImageCache) async
        -> Result<ImageResult, ImageError>?
    {
        let originalCache = request.context[.originalImageCache] ?? cache
        var context = request.context
        context[.storeCacheType] = ImageCacheType.none   // a thumbnail decode must not land under the full-size key
        guard let hit = await originalCache.query(key: sourceKey, options: request.options.union(.queryMemoryData),
                                                  context: context, cacheType: request.originalQueryType) else { return nil }
        let original: Image
        if let image = hit.image, hit.cacheType == .disk || image.decodeOptions == request.decodeOptions {
            original = image   // a data-tier hit is decoded with this request's options
        } else if let data = hit.data {
            let source = LoadKey(url: "cache:" + sourceKey, options: 0, privateID: request.isPrivate ? UUID() : nil)
            guard case .success(let image) = await decode(data, source: source, request: request) else { return nil }
            original = image
        } else {
            return nil
        }
        var final = original
        var transformed = false
        if let transformer = request.transformer, !original.isAnimated || request.options.contains(.transformAnimatedImage) {
            let decodeKey = DecodeKey(source: LoadKey(url: "cache:" + sourceKey, options: 0, privateID: UUID()),
                                      options: request.decodeOptions)
            switch await transform(original, with: transformer, decode: decodeKey) {
            case .success(let image): (final, transformed) = (image, true)
            case .failure(let error): return .failure(error)
            }
        }
        let storeType = transformed ? request.storeType : (request.storeType.includesMemory ? .memory : .none)
        let serializer = request.context[.cacheSerializer] ?? cacheSerializer
        let data = transformed ? serializer?.cacheData(for: final, originalData: nil, url: request.url) : nil
        let store: @Sendable () async -> Void = { [final] in
            guard storeType != .none, !request.options.contains(.avoidStoreCache) else { return }
            await cache.store(image: final, data: data, key: finalKey, cacheType: storeType, context: request.context)
        }
        if request.options.contains(.waitStoreCache) { await store() } else { Task { await store() } }
        return .success(ImageResult(image: final, data: hit.data, cacheType: hit.cacheType, url: request.url))
    }

    /// Stores the original bytes under the source key and the final image under the final key.
    private func storeResult(_ request: ResolvedRequest, original: Image, data: Data, final: Image, transformed: Bool,
                             cache: any ImageCache) async {
        guard !request.options.contains(.avoidStoreCache), let sourceKey = request.sourceKey,
              let finalKey = request.finalKey else { return }
        let serializer = request.context[.cacheSerializer] ?? cacheSerializer
        let originalData = serializer.map { $0.cacheData(for: original, originalData: data, url: request.url) } ?? data
        if sourceKey == finalKey {
            let type = originalData == nil ? (request.storeType.includesMemory ? .memory : .none) : request.storeType
            guard type != .none else { return }
            await cache.store(image: final, data: originalData, key: finalKey, cacheType: type, context: request.context)
            return
        }
        // The original: its bytes (disk by default); the image too when it is a full decode and memory is asked.
        let fullDecode = request.decodeOptions.thumbnailPixelSize == nil && request.decodeOptions.scaleDownLimitBytes == nil
        var originalType = request.originalStoreType
        if !fullDecode { originalType = originalType.includesDisk ? .disk : .none }
        if originalData == nil { originalType = originalType.includesMemory && fullDecode ? .memory : .none }
        if originalType != .none {
            await cache.store(image: fullDecode ? original : nil, data: originalData, key: sourceKey,
                              cacheType: originalType, context: request.context)
        }
        // The final image: a transform is stored in every tier asked; a mere thumbnail only in memory (its bytes are
        // the original's, already stored under the source key).
        let finalType = transformed ? request.storeType : (request.storeType.includesMemory ? .memory : .none)
        guard finalType != .none else { return }
        let finalData = transformed ? serializer?.cacheData(for: final, originalData: nil, url: request.url) : nil
        await cache.store(image: final, data: finalData, key: finalKey, cacheType: finalType, context: request.context)
    }

    private func recordFailure(_ request: ResolvedRequest, _ error: ImageError) {
        guard error.code != .cancelled, error.code != .loadSkipped, error.code != .blockedURL else { return }
        let loader = request.context[.imageLoader] ?? self.loader
        let block = delegate?.shouldBlockFailedURL(request.url, error: error)
            ?? loader.shouldBlockFailedURL(request.url, error: error)
        if block { _ = failedURLs.withLock { $0.insert(request.url.absoluteString) } }
    }

    static let cancelled = ImageError(.cancelled, "the request was cancelled")
}
