#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The load path, once, in call order. Every `loadImage` form is an adapter over `load(_:options:context:order:caller:)`;
// the stages live beside this file, numbered as the data flows through them:
//
//   1-Resolve          the request resolved once: keys, identity, and the cache, loader and coder it uses
//   2-Query            the caches asked (memory in the caller's task, then the shared task's tiers)
//   3-HTTPCachePolicy  a cached entry judged by its HTTP freshness: used, or revalidated (304 / new bytes)
//   4-Load             the shared download
//   5-Decode           the shared decode (and progressive partial images)
//   6-Transform        the shared transformer steps
//   7-Store            the one store rule
//   8-Revalidation     `.refreshCached` and stale entries, revalidated in the background
//
// Data goes one way: each stage returns a value to this file, which decides the next step. Telemetry
// (Telemetry/ImageTelemetry.swift) observes the stages (spans, counters) and owns none of them.

extension ImageManager {
    typealias ImageTicket = WorkRegistry<ImageTaskKey, ImageResult, ImageTaskEvent>.Ticket
    typealias ImageTaskContext = WorkRegistry<ImageTaskKey, ImageResult, ImageTaskEvent>.Context

    /// What a caller's form adds to the one load path: how it is tracked and cancelled, how it hears of progress
    /// and priority, and where a background revalidation's new image goes.
    struct Caller: Sendable {
        /// The tracker registration the form made before its call returned (the callback form); nil: the load
        /// registers itself, and `cancellation` ends its wait.
        var registration: Int?
        /// Ends this caller's wait on the shared image task with 2002 (the async form's `cancelAll()` path).
        var cancellation: WaiterCancellation?
        /// Receives the image task's ticket (the callback form's token changes its priority through it).
        var priorityTicket: @Sendable (ImageTicket) -> Void = { _ in }
        /// Byte counts and partial images.
        var progress: (@Sendable (ImageLoading.Progress) -> Void)?
        /// The new image when a `.refreshCached` revalidation replaced the answer (the callback form's second call).
        /// Nil: with `.waitStoreCache` the load waits for the revalidation and answers with its outcome.
        var replaced: (@Sendable (ImageResult) -> Void)?
    }

    /// The one load: resolves the request, answers a memory hit in the caller's task or joins the shared image
    /// task, starts a `.refreshCached` revalidation, and reports the answer (events, HTTP cache counts), all
    /// inside the load's observation (span, counters, duration, log).
    func load(_ url: URL?, options: ImageOptions, context: ImageContext, order: UInt64, caller: Caller) async
        -> Result<ImageResult, ImageError>
    {
        await observed(url: url, options: options, context: context) { () async -> Result<ImageResult, ImageError> in
            await self.loadObserved(url, options: options, context: context, order: order, caller: caller)
        }
    }

    /// The load's work inside its observation.
    private func loadObserved(_ url: URL?, options: ImageOptions, context: ImageContext, order: UInt64, caller: Caller)
        async
        -> Result<ImageResult, ImageError>
    {
        let request: ResolvedRequest
        do throws(ImageError) {
            request = try resolve(url: url, options: options, context: context, order: order)
        } catch {
            return .failure(error)
        }
        // The load runs in the caller's task, with no task of its own. `cancelAll()` and `shutdown()` reach the
        // caller through its registration, which ends its wait in the image task registry with 2002.
        var ownRegistration: Int?
        if caller.registration == nil {
            let cancellation = caller.cancellation
            guard let id = tracker.register(cancel: { cancellation?.cancel() }) else {
                return .failure(Self.shutDownError)
            }
            ownRegistration = id
        }
        defer { if let ownRegistration { tracker.finish(ownRegistration) } }
        emit(request.url, .started)
        var shared = request
        var result =
            if let hit = await memoryHit(&shared) {
                hit
            } else {
                await runImageTask(shared, caller: caller)
            }
        let refreshes =
            if case .success(let value) = result {
                request.options.contains(.refreshCached) && needsRefresh(value)
            } else {
                false
            }
        let waits = refreshes && caller.replaced == nil && request.options.contains(.waitStoreCache)
        if waits, case .success(let value) = result {
            // Complete once the caches hold the refreshed entry: the revalidation's outcome is the answer.
            result = .success(await refreshAndWait(request, after: value))
        }
        switch result {
        case .success(let value):
            report(value, url: request.url)
            emit(request.url, .finished(value.cacheType))
            if refreshes, !waits, !Task.isCancelled {
                var waiter: RefreshWaiter?
                if let deliver = caller.replaced {
                    waiter = { outcome in if case .replaced(let new) = outcome { deliver(new) } }
                }
                refreshInBackground(request, after: value, waiter: waiter)
            }
        case .failure(let error):
            emit(request.url, error.code == .cancelled ? .cancelled : .failed(error))
        }
        return result
    }

    /// A memory hit answered in the caller's task, before any shared work is joined (no task, no thread hand-off:
    /// most of a hit's cost before). Taken only where the shared task would answer exactly the same at once: the
    /// final key queried in memory, HTTP caching ignored, no frames to decode, no tracer (whose spans keep one
    /// `webimage.cache.query` per load). Nil when the shared task must answer; after a memory miss `request` then
    /// no longer asks the memory tier (each tier is asked once per load, and counted once).
    private func memoryHit(_ request: inout ResolvedRequest) async -> Result<ImageResult, ImageError>? {
        guard !telemetry.isTracing, request.queryType.includesMemory, let key = request.finalKey,
            !request.options.contains(.fromLoaderOnly), !request.decodeOptions.preloadAllFrames,
            request.httpCachePolicy == .ignore, !Task.isCancelled
        else { return nil }
        guard let hit = await query(request.cache, key: key, request: request, cacheType: .memory) else {
            request.queryType = request.queryType.intersection(.disk)
            return nil
        }
        // Bytes without an image (a custom memory tier) are decoded by the shared task, which asks again.
        guard hit.image != nil, let result = await use(.final(hit, key: key), info: hit.httpCacheInfo, request) else {
            return nil
        }
        if case .success = result, request.options.contains(.retryFailed) { removeFailedURL(request.url) }
        return result
    }

    /// Joins or starts the shared image task for `request`, forwarding its events to `caller`.
    private func runImageTask(_ request: ResolvedRequest, caller: Caller) async -> Result<ImageResult, ImageError> {
        let url = request.url
        let progress = caller.progress
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
            ticket: caller.priorityTicket, coalesced: telemetry.coalescedLoad, cancellation: caller.cancellation
        ) { [self] task in
            let result = await perform(request, task)
            if case .failure(let error) = result { recordFailure(request, error) }
            if case .success = result, request.options.contains(.retryFailed) { removeFailedURL(url) }
            return result
        }
    }

    /// SDWebImage's steps 3 to 7 for one shared image task: the final image from the cache (2, 3), else the
    /// cached original (2, 3), else the network's (4); decoded (5), transformed (6) and stored (7).
    private func perform(_ request: ResolvedRequest, _ task: ImageTaskContext) async -> Result<ImageResult, ImageError>
    {
        if !request.options.contains(.fromLoaderOnly) {
            if let key = request.finalKey,
                let hit = await query(request.cache, key: key, request: request, cacheType: request.queryType),
                let result = await answer(.final(hit, key: key), request, task)
            {
                return result
            }
            if Task.isCancelled { return .failure(Self.cancelled) }
            if let key = request.sourceKey, key != request.finalKey,
                let hit = await query(
                    request.originalCache, key: key, request: request, cacheType: request.originalQueryType),
                let result = await answer(.original(hit, key: key), request, task)
            {
                return result
            }
        }
        if Task.isCancelled { return .failure(Self.cancelled) }
        if request.options.contains(.fromCacheOnly) {
            return .failure(
                ImageError(
                    .loadSkipped, "\(request.url.absoluteString) is not cached and .fromCacheOnly forbids loading"))
        }
        if let delegate, !delegate.shouldLoad(request.url) {
            return .failure(ImageError(.loadSkipped, "the delegate declined to load \(request.url.absoluteString)"))
        }
        switch await load(request, task: task) {
        case .success(let loaded): return await downloaded(loaded, request)
        case .failure(let error): return .failure(error)
        }
    }

    /// A cache entry found under the final key (the image itself) or under the source key (the original of a
    /// thumbnail or transform).
    enum CachedEntry {
        case final(ImageCacheQueryResult, key: String)
        case original(ImageCacheQueryResult, key: String)

        var hit: ImageCacheQueryResult {
            switch self {
            case .final(let hit, _), .original(let hit, _): hit
            }
        }
    }

    /// The answer a cached `entry` gives under the request's HTTP cache policy (3): used as it is (and revalidated
    /// in the background when stale within its grace), or revalidated first: a 304 uses it renewed, new bytes are
    /// finished as a download. Nil: a miss (no entry, or its bytes are bad).
    private func answer(_ entry: CachedEntry, _ request: ResolvedRequest, _ task: ImageTaskContext) async
        -> Result<ImageResult, ImageError>?
    {
        switch await verdict(on: entry.hit.httpCacheInfo, request, task) {
        case .use(let info, let outcome, let revalidateAfter):
            let result = await use(entry, info: info, request)
            if revalidateAfter, case .success(let value)? = result {
                revalidateInBackground(request, info: info, cachedBytes: value.sourceData, waiter: nil)
            }
            guard let outcome else { return result }
            return result.map { mark($0, outcome) }
        case .replaced(let loaded, let conditional):
            let result = await downloaded(loaded, conditional)
            if case .success = result { httpCounts.withLock { $0.replaced += 1 } }
            return mark(result, .replaced)
        case .failed(let error):
            return .failure(error)
        }
    }

    /// The result a cached `entry` gives, with `info` (its HTTP cache info, renewed when a 304 just confirmed it).
    /// Under the final key: a memory image as it is (a still when only the first frame is asked for, every frame
    /// decoded when `preloadAllFrames` meets frames on demand), or bytes decoded (5) and promoted to memory. Under
    /// the source key: the original (its memory image, else its bytes decoded) transformed and stored (6, 7).
    /// Nil when the entry's bytes are bad (a removed entry) and the load goes on as a miss.
    private func use(_ entry: CachedEntry, info: HTTPCacheInfo?, _ request: ResolvedRequest) async
        -> Result<ImageResult, ImageError>?
    {
        switch entry {
        case .final(let hit, let key):
            if let image = hit.image { return await memoryImage(image, hit: hit, info: info, request) }
            guard let bytes = hit.data else { return nil }
            // A derived entry holds the finished image: decode it as stored, not reduced again.
            var options = request.decodeOptions
            if request.isDerived {
                options.thumbnailPixelSize = nil
                options.scaleDownLimitBytes = nil
                options.vectorViewport = nil
            }
            switch await decode(bytes, source: cacheSource(key, in: request.cache), request: request, options: options)
            {
            case .success(let decoded):
                var image = decoded
                if request.isDerived {
                    var flags = image.flags
                    if request.decodeOptions.thumbnailPixelSize != nil { flags.insert(.thumbnail) }
                    if request.transformer != nil { flags.insert(.transformed) }
                    image = image.with(flags: flags)
                }
                await promote(image, info: info, key: key, request)
                return .success(
                    ImageResult(
                        image: image, data: request.isDerived ? nil : bytes, cacheType: hit.cacheType,
                        url: request.url, sourceData: bytes, httpCacheInfo: info))
            case .failure(let error):
                return await discardIfBad(error, bytes: bytes, key: key, cache: request.cache, request: request)
            }
        case .original(let hit, let key):
            if let image = hit.image, image.decodeOptions == request.decodeOptions {
                return await finish(request, original: image, origin: .cache(hit.cacheType, hit.data, info))
            }
            var found = hit.data
            if found == nil {
                found = await query(
                    request.originalCache, key: key, request: request, cacheType: request.originalQueryType,
                    options: request.options.union(.queryMemoryData))?.data
            }
            guard let bytes = found else { return nil }
            switch await decode(
                bytes, source: cacheSource(key, in: request.originalCache), request: request,
                options: request.decodeOptions)
            {
            case .success(let original):
                return await finish(request, original: original, origin: .cache(hit.cacheType, bytes, info))
            case .failure(let error):
                return await discardIfBad(error, bytes: bytes, key: key, cache: request.originalCache, request: request)
            }
        }
    }

    /// A memory image found under the final key, as the request asks for it: a still when only the first frame is
    /// asked for, every frame decoded (on the manager's pool) when `preloadAllFrames` meets frames on demand.
    private func memoryImage(
        _ image: Image, hit: ImageCacheQueryResult, info: HTTPCacheInfo?, _ request: ResolvedRequest
    )
        async -> Result<ImageResult, ImageError>
    {
        var held = image
        if request.decodeOptions.firstFrameOnly && image.isAnimated {
            held = image.firstFrameStill
        } else if request.decodeOptions.preloadAllFrames && image.frameBuffer != nil {
            let preloaded = await cpuPool.cancellableResult { () throws(ImageError) -> Image in
                image.with(frames: try image.frames)
            }
            switch preloaded {
            case .success(let image): held = image
            case .failure(let error): return .failure(error)
            }
        }
        return .success(
            ImageResult(
                image: held, data: request.isDerived ? nil : hit.data, cacheType: hit.cacheType,
                url: request.url, sourceData: hit.data, httpCacheInfo: info))
    }

    /// Downloaded bytes decoded (5), then transformed and stored as the new original (6, 7).
    func downloaded(_ loaded: ImageLoadResult, _ request: ResolvedRequest) async -> Result<ImageResult, ImageError> {
        switch await decode(loaded.data, source: .load(request.load), request: request, options: request.decodeOptions)
        {
        case .success(let original): return await finish(request, original: original, origin: .network(loaded))
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

    /// Transforms `original` when asked (6), stores by the one rule (7), and makes the result.
    private func finish(_ request: ResolvedRequest, original: Image, origin: Origin) async -> Result<
        ImageResult, ImageError
    > {
        let info: HTTPCacheInfo? =
            switch origin {
            case .network(let loaded): httpCacheInfo(of: loaded)
            case .cache(_, _, let cached): cached
            }
        // The images carry their info, so the objects the memory tier keeps are the ones the caller gets.
        let original = original.with(httpCacheInfo: info)
        var final = original
        if let transformer = request.transformer,
            !original.isAnimated || request.options.contains(.transformAnimatedImage)
        {
            if let refused = await beforeWork(request) { return .failure(refused) }
            let source: DecodeSource =
                switch origin {
                case .network: .load(request.load)
                case .cache: cacheSource(request.sourceKey ?? "", in: request.originalCache)
                }
            switch await transform(
                original, with: transformer, decode: decodeKey(source, request, options: request.decodeOptions))
            {
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
        let storing: @Sendable () async -> Void = { [self, final] in
            await telemetry.withSpan(ImageManager.TelemetryNames.cacheStoreSpan) { _ in
                await self.store(request, original: original, final: final, origin: origin, info: info)
            }
        }
        if request.options.contains(.avoidStoreCache) {
            // Nothing to store.
        } else if request.options.contains(.waitStoreCache) {
            await storing()
        } else {
            tracker.background(storing)
        }
        return .success(
            ImageResult(
                image: final, data: request.isDerived ? nil : sourceData, cacheType: cacheType,
                url: request.url, metrics: metrics, sourceData: sourceData, httpCacheInfo: info))
    }

    /// `result` with `outcome` recorded.
    private func mark(_ result: Result<ImageResult, ImageError>, _ outcome: ImageResult.HTTPCacheOutcome)
        -> Result<ImageResult, ImageError>
    {
        result.map { mark($0, outcome) }
    }

    private func mark(_ value: ImageResult, _ outcome: ImageResult.HTTPCacheOutcome) -> ImageResult {
        var value = value
        value.httpCacheOutcome = outcome
        return value
    }

    /// Puts a failed URL on the list when the delegate (else the loader) says so.
    private func recordFailure(_ request: ResolvedRequest, _ error: ImageError) {
        let unblockable: Set<ImageError.Code> = [.cancelled, .loadSkipped, .blockedURL, .unsupportedFormat, .shutDown]
        guard !unblockable.contains(error.code) else { return }
        let block =
            delegate?.shouldBlockFailedURL(request.url, error: error)
            ?? request.loader.shouldBlockFailedURL(request.url, error: error)
        if block { _ = failedURLs.withLock { $0.insert(request.url.absoluteString) } }
    }

    /// Counts an answer's outcome and sends the `.httpCache` event (once per caller).
    private func report(_ result: ImageResult, url: URL) {
        guard let outcome = result.httpCacheOutcome else { return }
        if outcome == .fresh || outcome == .stale {
            httpCounts.withLock { if outcome == .fresh { $0.fresh += 1 } else { $0.stale += 1 } }
        }
        emit(url, .httpCache(outcome))
    }

    static let cancelled = ImageError(.cancelled, "the request was cancelled")
}

/// Events a shared image task sends its callers.
enum ImageTaskEvent: Sendable {
    case response(ImageLoading.ResponseHead)
    case progress(received: Int64, expected: Int64)
    case partialImage(Image)
}
