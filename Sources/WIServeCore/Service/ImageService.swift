#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Synchronization
import Tracing
import WebImage
import WIHash

/// One request as the service sees it, independent of the HTTP server it came through.
///
/// Thread safety: a value type; safe to send and share.
public struct ServeRequest: Sendable {
    /// `GET` or `HEAD` (a HEAD answer has no body, its Content-Length still the GET's).
    public var method: String
    /// The path as sent, not percent-decoded, after the prefix the routes are mounted at; with its query.
    public var path: String
    /// The `Accept`, `If-None-Match` and `If-Modified-Since` header fields.
    public var accept: String?
    public var ifNoneMatch: String?
    public var ifModifiedSince: String?
    /// When the answer is due (the request's arrival plus the service's timeout, which
    /// `ImageService.respond(to:)` sets when it admits the request): the work stops there and the answer is 504.
    public var deadline: ContinuousClock.Instant
    /// The request's hold on the admission gate, once admitted (nil: answered outside the gate, as in tests).
    package var slot: RequestSlot?

    public init(
        method: String = "GET", path: String, accept: String? = nil, ifNoneMatch: String? = nil,
        ifModifiedSince: String? = nil, deadline: ContinuousClock.Instant = .now + .seconds(30)
    ) {
        self.method = method
        self.path = path
        self.accept = accept
        self.ifNoneMatch = ifNoneMatch
        self.ifModifiedSince = ifModifiedSince
        self.deadline = deadline
    }
}

/// One answer: status, header fields, body (empty for HEAD and 304, Content-Length still the full size).
///
/// Thread safety: a value type; safe to send and share.
public struct ServeResponse: Sendable {
    public var status: Int
    /// Header fields in order (Content-Type, ETag, Last-Modified, Cache-Control, Expires, Access-Control-Allow-Origin,
    /// Vary, Retry-After), without Content-Length, which is `contentLength`.
    public var headers: [(String, String)]
    public var body: Data
    /// The length announced in Content-Length (the body's, or the GET body's for HEAD).
    public var contentLength: Int
    /// A failure's description for the log (what went wrong inside: libraries, addresses); never sent.
    public var detail: String? = nil

    public init(status: Int, headers: [(String, String)], body: Data, contentLength: Int, detail: String? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.contentLength = contentLength
        self.detail = detail
    }
}

/// The image service, independent of any HTTP server: thumbor URLs (parse, signature, load through the pipeline,
/// transform, encode, answer with validators) and an app's own image routes (`ImageRoute`), behind one admission
/// gate, one variant cache and one error mapping. `ImageServer` serves it on its own port; `addThumborRoutes` and
/// `addImageRoute` (Hummingbird) and WIVapor mount it in an app's server.
///
/// Errors are answers, never thrown: a one-line text body with the matching status; what went wrong inside is in
/// the answer's `detail`, for the log only.
///
/// ```swift
/// let service = try await ImageService(configuration: configuration)
/// let answer = await service.respond(to: ServeRequest(path: "/unsafe/300x200/example.com/a.jpg"))
/// ```
///
/// Thread safety: immutable after `init`; `respond` may run for any number of requests at once. `shutdown()`
/// once, when no request is in flight.
public final class ImageService: Sendable {
    public let configuration: ServeConfiguration
    package let parts: ImageServiceParts
    package let gate: AdmissionGate
    package let metrics: ServeMetrics
    package let logger: Logger
    /// The request spans' tracer (the manager's too).
    package let tracer: any Tracer
    private let signers: [ThumborSignature]
    private let sources: SourcePolicy
    /// Requests that went through the pipeline (load, transform, encode) rather than the variant cache.
    package let renders = Atomic<Int>(0)
    /// Sources that failed and requests that timed out moments ago, answered again without any work.
    package let failures: FailedSources<ContinuousClock>
    /// The admission gate's refusal, built once.
    private let refusal: ServeResponse

    /// Builds the service for `configuration`: its own pipeline (caches, loaders, coders, as `wi serve` runs it),
    /// or, with `manager`, the app's (its caches, loaders and address policy: the service adds only the variant
    /// cache, `--file-root` and `--allow-host` loaders; the app shuts its manager down). Throws `.invalidArgument`
    /// for a value out of range, the disk tier's errors and `.networkError` when Redis cannot be reached.
    public convenience init(
        configuration: ServeConfiguration, manager: ImageManager? = nil,
        logger: Logger = .webImageNoOp, tracer: any Tracer = InstrumentationSystem.tracer
    )
        async throws(ImageError)
    {
        try await self.init(
            configuration: configuration, metrics: ServeMetrics(), logger: logger, tracer: tracer,
            manager: manager)
    }

    package init(
        configuration: ServeConfiguration, metrics: ServeMetrics, logger: Logger,
        tracer: any Tracer = InstrumentationSystem.tracer, manager: ImageManager? = nil,
        made: @Sendable (any ShutdownCapable) -> Void = { _ in }
    ) async throws(ImageError) {
        self.configuration = configuration
        self.metrics = metrics
        self.logger = logger
        self.tracer = tracer
        parts = try await ImageServiceParts.make(
            configuration: configuration, metrics: metrics, logger: logger,
            tracer: tracer, manager: manager, made: made)
        gate = AdmissionGate(
            concurrency: configuration.concurrency, queue: configuration.queue, whenIdle: configuration.whenIdle)
        signers = configuration.keys.map(ThumborSignature.init(key:))
        sources = SourcePolicy(patterns: configuration.allowedSources)
        failures = FailedSources(ttl: .seconds(configuration.failureTTL), clock: ContinuousClock())
        let reason = "too many requests: \(configuration.concurrency) working and \(configuration.queue) waiting"
        refusal = Self.failure(ServeError(.serviceUnavailable, reason), method: "GET")
    }

    /// The pipeline's manager (the service's own, or the app's).
    public var manager: ImageManager { parts.manager }

    /// Shuts down what the service made: with its own pipeline, the manager (its loads, caches, pools and
    /// threads); with an app's manager, only the service's own parts.
    public func shutdown() async {
        await parts.shutdown()
    }

    /// The answer to a thumbor URL (`request.path`: `/{unsafe|SIGNATURE}/.../IMAGE_URL`), admitted by the
    /// service's gate: a 503 when it is full, a 504 when the deadline (`configuration.timeout` from now) passes in
    /// line or at work.
    public func respond(to request: ServeRequest) async -> ServeResponse {
        await admitted(request) { input in await self.answer(thumbor: input) }
    }

    /// The answer to an app's own image URL: `route` says what to load and do, and the answer is cached and
    /// validated (ETag, 304) as a thumbor URL's is, under the same gate, deadline, limits and error mapping.
    public func respond(to request: ServeRequest, route: ImageRoute) async -> ServeResponse {
        await admitted(request) { input in await self.answer(route: route, input: input) }
    }

    /// Runs `body` once the gate admits `request` (with its deadline from now), or answers 503 / 504.
    private func admitted(_ request: ServeRequest, _ body: (ServeRequest) async -> ServeResponse) async -> ServeResponse
    {
        var input = request
        switch await admit(&input) {
        case .refused: return refused(request)
        case .timedOut: return timedOutInLine(input)
        case .admitted:
            defer { input.slot?.finish() }
            return await body(input)
        }
    }

    /// What the gate decided for a request.
    package enum Admission {
        /// Admitted: the caller answers, then calls `request.slot?.finish()`.
        case admitted
        /// The gate and its line are full (503).
        case refused
        /// The deadline passed while the request waited (504).
        case timedOut
    }

    /// Sets `request`'s deadline (`configuration.timeout` from now, or its own when sooner) and waits for a slot
    /// until then: the wait in line counts against the timeout. Admitted, the request holds its `slot`.
    package func admit(_ request: inout ServeRequest) async -> Admission {
        request.deadline = min(request.deadline, ContinuousClock.now + .seconds(configuration.timeout))
        switch gate.tryAcquire() {
        case .admitted:
            request.slot = RequestSlot(admittedBy: gate)
            return .admitted
        case .refused:
            return .refused
        case .queued(let ticket):
            guard await gate.wait(for: ticket, until: request.deadline) else {
                return ContinuousClock.now >= request.deadline ? .timedOut : .refused
            }
            guard ContinuousClock.now < request.deadline else {
                gate.release()
                return .timedOut
            }
            request.slot = RequestSlot(admittedBy: gate)
            return .admitted
        }
    }

    /// The JPEG encoder of `--progressive-jpeg` (libjpeg's standard progressive scan script).
    static let progressiveJPEG = ImageCodersManager(coders: [JPEGCoder(progressive: true)])

    /// The prebuilt 503 (no body for HEAD).
    package func refused(_ request: ServeRequest) -> ServeResponse {
        guard request.method == "HEAD" else { return refusal }
        var head = refusal
        head.body = Data()
        return head
    }

    /// The answer to a thumbor URL, once admitted (the caller holds the gate; never throws: every failure is an
    /// error answer).
    package func answer(thumbor input: ServeRequest) async -> ServeResponse {
        do {
            let request = try ThumborRequest.parse(path: input.path, strict: configuration.strict)
            if !request.skippedFilters.isEmpty {
                // thumbor's leniency hides a client's typo: the operator sees it at debug (--strict answers 400).
                logger.debug(
                    "filters skipped as thumbor skips them",
                    metadata: ["path": "\(input.path)", "skipped": "\(request.skippedFilters.joined(separator: ":"))"])
            }
            try authorize(request)
            guard request.filters.count <= configuration.maxFilters else {
                throw ServeError(
                    .badRequest, "\(request.filters.count) filters exceed the limit of \(configuration.maxFilters)")
            }
            let url = try sourceURL(request)
            if request.meta { return try await meta(request, url: url, input: input) }
            let plan = try EncodePlan(request: request, configuration: configuration)
            let variantKey = VariantCache.key(
                signedPath: request.signedPath, requested: plan.format, accept: input.accept,
                negotiation: configuration.negotiation,
                keepMetadata: configuration.keepMetadata,
                keepCopyright: configuration.keepCopyright,
                qualities: configuration.qualityKey)
            return try await serve(
                input, url: url, variantKey: variantKey, requestKey: "request " + request.signedPath,
                maxAge: request.maxAge ?? configuration.maxAge,
                negotiated: plan.format == nil && configuration.negotiation.usesAccept
            ) { sourceKey in
                var transformer = self.makeTransformer(request)
                let progress = TransformProgress()
                transformer.progress = progress
                transformer.watermarks = try await self.watermarks(of: request)
                return try await self.render(
                    url: url, transformer: transformer, progress: progress, plan: plan,
                    input: input, failureKey: sourceKey)
            }
        } catch {
            return failure(error, input: input)
        }
    }

    /// The answer to an app's route, once admitted.
    func answer(route: ImageRoute, input: ServeRequest) async -> ServeResponse {
        do {
            // A file is read only inside --file-root (an app's manager without it reads what its loader allows).
            let source = try routeSource(route.source)
            // The route's values are the app's, often from its URL: checked as a thumbor URL's are, a 400 each.
            guard (1...100).contains(route.quality) else {
                throw ServeError(.badRequest, "quality must be in 1...100, got \(route.quality)")
            }
            if let size = route.thumbnailSize {
                guard size.width >= 1, size.height >= 1 else {
                    throw ServeError(.badRequest, "thumbnail size \(size) must be at least 1x1")
                }
                guard size.area <= configuration.maxPixels else {
                    throw ServeError(.badRequest, "\(size) exceeds the pixel limit of \(configuration.maxPixels)")
                }
            }
            let plan = EncodePlan(format: route.format, quality: route.quality, decodeBox: route.thumbnailSize)
            let key = route.variantKey(accept: input.accept, configuration: configuration)
            return try await serve(
                input, url: source, variantKey: key, requestKey: key,
                maxAge: route.maxAge ?? configuration.maxAge,
                negotiated: route.format == nil && configuration.negotiation.usesAccept
            ) { sourceKey in
                let progress = TransformProgress()
                let transformer = route.transformer.map {
                    ProgressReportingTransformer(wrapped: $0, progress: progress)
                }
                return try await self.render(
                    url: source, transformer: transformer, progress: progress,
                    plan: plan, input: input, failureKey: sourceKey)
            }
        } catch {
            return failure(error, input: input)
        }
    }

    /// A route's source as it is loaded: a file inside --file-root (resolved; an app's manager without it reads
    /// what its loader allows, the service's own pipeline none), an http(s) URL the source policy allows.
    private func routeSource(_ url: URL) throws(ServeError) -> URL {
        if url.isFileURL {
            if let fileRoot = parts.fileRoot { return try fileRoot.resolve(absolute: url.path) }
            guard !parts.ownsManager else { throw ServeError(.forbidden, "this source is not allowed") }
            return url
        }
        guard Self.httpURL(url.absoluteString) != nil else { throw ServeError(.badRequest, "bad image URL") }
        guard sources.allows(url) else { throw ServeError(.forbidden, "this source is not allowed") }
        return url
    }

    /// The flow both kinds of URL share: a stored answer whose source is still fresh is answered from its bytes (a
    /// 304 from its validators alone); a stale one, or none, is rendered by `render` within the deadline (a source
    /// or request that failed moments ago fails again at once), stored, and answered. `negotiated`: the answer's
    /// format may depend on the Accept header (it then says `Vary: Accept`, unless it is an animated GIF).
    private func serve(
        _ input: ServeRequest, url: URL, variantKey: String, requestKey: String, maxAge: Int, negotiated: Bool,
        render: @escaping @Sendable (String) async throws -> (Data, ImageFormat, HTTPCacheInfo?)
    )
        async throws -> ServeResponse
    {
        if let variants = parts.variants {
            if input.ifNoneMatch != nil || input.ifModifiedSince != nil,
                let info = await variants.info(forKey: variantKey),
                isFresh(info), isNotModified(input, info)
            {
                return ServeResponse(
                    status: 304, headers: validators(info, maxAge: maxAge, vary: negotiated), body: Data(),
                    contentLength: 0)
            }
            if let (body, info) = await variants.variant(forKey: variantKey), isFresh(info) {
                return answer(
                    body: body, format: ImageFormat.detect(body), info: info, maxAge: maxAge, negotiated: negotiated,
                    input: input)
            }
        }
        let sourceKey = "source " + url.absoluteString
        if let failure = failures.failure(for: sourceKey) ?? failures.failure(for: requestKey) { throw failure }
        let (body, format, source): (Data, ImageFormat, HTTPCacheInfo?)
        // The slot is given back while the source (and any watermark) is fetched, and taken again for the decode.
        input.slot?.yield()
        do {
            (body, format, source) = try await withDeadline(input.deadline) {
                // A load cancelled at the deadline returns only once its download, decode and transform
                // stopped, so the request's slot is not given back while its work goes on.
                try await CancelledWork.$isAwaited.withValue(true) { try await render(sourceKey) }
            }
        } catch let timeout as ServeError where timeout.status == .gatewayTimeout {
            failures.record(timeout, for: requestKey)
            throw timeout
        }
        let info = variantInfo(body: body, key: variantKey, source: source)
        await parts.variants?.store(body, info: info, forKey: variantKey)
        return answer(body: body, format: format, info: info, maxAge: maxAge, negotiated: negotiated, input: input)
    }

    /// An error answer for any error: a `ServeError` as it is, a pipeline error mapped, anything else a 500
    /// whose description goes to `detail` only.
    package func failureAnswer(for error: any Error, method: String) -> ServeResponse {
        let failure: ServeError
        if let error = error as? ServeError {
            failure = error
        } else if let error = error as? ImageError {
            failure = ServeError(error, strict: configuration.strict)
        } else {
            var unexpected = ServeError(.internalError, "internal error")
            unexpected.detail = "\(error)"
            failure = unexpected
        }
        return Self.failure(failure, method: method)
    }

    private func failure(_ error: any Error, input: ServeRequest) -> ServeResponse {
        failureAnswer(for: error, method: input.method)
    }

    /// 400 (thumbor's answer; 403 with `--strict`) unless the URL is signed with the key, or is `unsafe/` and
    /// that is allowed.
    private func authorize(_ request: ThumborRequest) throws(ServeError) {
        let refused: ServeError.Status = configuration.strict ? .forbidden : .badRequest
        if request.signature == "unsafe" {
            guard configuration.allowUnsafe else {
                throw ServeError(refused, "unsafe URLs are not allowed (start with --allow-unsafe)")
            }
            return
        }
        guard !signers.isEmpty else { throw ServeError(refused, "signed URLs need a key (start with --key)") }
        guard signers.contains(where: { $0.isValid(request.signature, for: request.signedPath) }) else {
            throw ServeError(refused, "bad signature")
        }
    }

    /// The source URL: a file under `--file-root` for a path without `http://` or `https://` when there is one;
    /// else http or https with a host, or 400; 403 when `--allow-source` does not allow it.
    private func sourceURL(_ request: ThumborRequest) throws(ServeError) -> URL {
        if let fileRoot = parts.fileRoot {
            let lower = request.imagePath.lowercased()
            if !lower.hasPrefix("http://"), !lower.hasPrefix("https://") {
                return try fileRoot.resolve(request.imagePath)
            }
        }
        guard let url = Self.httpURL(request.imageURL) else { throw ServeError(.badRequest, "bad image URL") }
        guard sources.allows(url) else { throw ServeError(.forbidden, "this source is not allowed") }
        return url
    }

    /// `text` as an http or https URL whose host is a name or an address literal, or nil: a host with a percent
    /// sign, a space or any other character no DNS name has (`/unsafe/64x64/%zz`) is a bad request, never a lookup.
    static func httpURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty,
            host.unicodeScalars.allSatisfy({ hostCharacters.contains($0) }),
            !host.hasPrefix("."), !host.hasPrefix("-")
        else { return nil }
        return url
    }

    /// Letters, digits, `-`, `.`, `_` (names), `:` and brackets (IPv6 literals).
    private static let hostCharacters: Set<Unicode.Scalar> = Set(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._:[]".unicodeScalars)

    /// Loads (through the pipeline, with `transformer`), encodes as `plan` says; returns the bytes and their
    /// format. A load that fails before the transform started is remembered under `failureKey`.
    private func render(
        url: URL, transformer: (any ImageTransformer)?, progress: TransformProgress, plan: EncodePlan,
        input: ServeRequest, failureKey: String
    ) async throws -> (Data, ImageFormat, HTTPCacheInfo?) {
        renders.add(1, ordering: .relaxed)
        let accept = input.accept
        let result = try await load(
            url: url, transformer: transformer, progress: progress, decodeBox: plan.decodeBox,
            vectorViewport: plan.vectorViewport, failureKey: failureKey, slot: input.slot)
        // A load answered from memory, or joined to another request's, did its CPU work under no slot of this one.
        try await input.slot?.work()
        let image = result.image
        let format = OutputFormat.choose(
            requested: plan.format, source: image, accept: accept, negotiation: configuration.negotiation,
            canEncode: parts.coders.canEncode(to:))
        guard parts.coders.canEncode(to: format) else {
            throw ServeError(.badRequest, "this build cannot encode \(format.identifier)")
        }
        let animated = image.isAnimated
        let metadata = plan.metadata(of: image, configuration: configuration)
        let output = metadata == image.metadata ? image : image.with(metadata: metadata)
        let coders = format == .jpeg && configuration.progressiveJPEG ? Self.progressiveJPEG : parts.coders
        do {
            let data = try await parts.pool.runCancellable { () throws(ImageError) -> Data in
                try plan.encodeFitting(format) { (quality) throws(ImageError) in
                    try coders.encode(
                        output, as: format,
                        options: plan.encodeOptions(
                            for: format, animated: animated,
                            quality: quality))
                }
            }
            return (data, format, result.httpCacheInfo)
        } catch {
            throw ServeError(error, strict: configuration.strict)
        }
    }

    /// Loads `url` through the pipeline, with `transformer`, decoded within `decodeBox` if given (an SVG drawn into
    /// `vectorViewport`). A load that fails before the transform started is remembered under `failureKey`.
    private func load(
        url: URL, transformer: (any ImageTransformer)?, progress: TransformProgress, decodeBox: PixelSize?,
        vectorViewport: PixelSize? = nil, failureKey: String, slot: RequestSlot?
    ) async throws -> ImageResult {
        var context = ImageContext()
        // The shared task takes the request's slot again once the bytes are in hand, before it decodes.
        if let slot { context[.beforeWork] = slot.beforeWork }
        if let transformer { context[.imageTransformer] = transformer }
        // Every frame counts against the pixel limit, before any is decoded (the service transforms them all).
        var decode = DecodeOptions(pixelLimit: configuration.maxPixels, preloadAllFrames: true)
        decode.frameLimit = configuration.maxFrames
        decode.thumbnailPixelSize = decodeBox
        decode.vectorViewport = vectorViewport
        // Answers are sRGB (imgproxy's default): the source's profile is applied here, before a transform mixes
        // the pixels with sRGB ones (fill, watermarks) and before an encoder or strip_icc() drops it.
        decode.targetColorSpace = .sRGB
        context[.decodeOptions] = decode
        context[.httpCachePolicy] = configuration.originCachePolicy
        if let decodeBox { context[.thumbnailPixelSize] = decodeBox }
        selectLoader(for: url, in: &context)
        do {
            return try await parts.manager.loadImage(
                with: url, options: [.retryFailed, .transformAnimatedImage],
                context: context)
        } catch {
            let failure = ServeError(error, strict: configuration.strict)
            // The source's failures only: a transform that was refused (its output or memory) says nothing of
            // other variants of the source.
            if error.code != .cancelled, !progress.started.load(ordering: .relaxed) {
                failures.record(failure, for: failureKey)
            }
            throw failure
        }
    }

    /// thumbor's `meta/`: the source loaded whole (not decoded smaller), transformed as its image URL would be, and
    /// described as thumbor's JSON engine describes it (`ThumborMeta`); `application/json`, or `text/javascript`
    /// with `?callback=`. Not stored: it is rare, and costs what the image costs, within the same deadline.
    private func meta(_ request: ThumborRequest, url: URL, input: ServeRequest) async throws -> ServeResponse {
        let sourceKey = "source " + url.absoluteString
        if let failure = failures.failure(for: sourceKey) { throw failure }
        // No slot while the watermarks and the source are fetched; one again for the decode and the description.
        input.slot?.yield()
        var made = makeTransformer(request)
        made.watermarks = try await watermarks(of: request)
        let transformer = made
        let progress = TransformProgress()
        let meta = try await withDeadline(input.deadline) {
            try await CancelledWork.$isAwaited.withValue(true) {
                let source = try await self.load(
                    url: url, transformer: nil, progress: progress, decodeBox: nil,
                    vectorViewport: EncodePlan.vectorViewport(of: request, configuration: self.configuration),
                    failureKey: sourceKey, slot: input.slot)
                try await input.slot?.work()
                return try await self.parts.pool.runCancellable { () throws(ImageError) -> ThumborMeta in
                    let final = try transformer.transform(source.image)
                    return try ThumborMeta(
                        url: request.imagePath, transformer: transformer, loaded: source.image, final: final)
                }
            }
        }
        var text = meta.json
        if let callback = request.metaCallback { text = "\(callback)(\(text));" }
        let body = Data(text.utf8)
        return ServeResponse(
            status: 200,
            headers: [("Content-Type", request.metaCallback == nil ? "application/json" : "text/javascript")],
            body: input.method == "HEAD" ? Data() : body, contentLength: body.count)
    }

    /// The thumbor transformer of `request`, with the service's limits.
    private func makeTransformer(_ request: ThumborRequest) -> ThumborTransformer {
        var transformer = ThumborTransformer(request: request, pixelLimit: configuration.maxPixels)
        transformer.memoryLimit = configuration.maxRequestMemory
        (transformer.maxWidth, transformer.maxHeight) = (configuration.maxWidth, configuration.maxHeight)
        return transformer
    }

    /// The loader for URLs on the hosts `--allow-host` names (they may reach private addresses); others keep the
    /// manager's, which refuses them.
    private func selectLoader(for url: URL, in context: inout ImageContext) {
        if url.isFileURL, let fileLoader = parts.fileLoader {
            context[.imageLoader] = fileLoader
            return
        }
        if let host = url.host.map(ImageServiceParts.normalized(host:)), parts.allowedHosts.contains(host),
            let loader = parts.allowedLoader
        {
            context[.imageLoader] = loader
        }
    }

    /// The images of `request`'s `watermark()` and `frame()` filters by URL, loaded at once through the pipeline
    /// (cached, shared between requests, under the same address policy and pixel limit as sources). A watermark
    /// that cannot be loaded fails the request as its source would, its reason naming the watermark; a missing or
    /// undecodable frame image is thumbor's 500 (decision 0085).
    private func watermarks(of request: ThumborRequest) async throws -> [String: Image] {
        var addresses: [String: String] = [:]  // URL: the filter naming it
        for filter in request.filters.of(ThumborFilters.Frame.self) { addresses[filter.url] = "frame" }
        for filter in request.filters.of(ThumborFilters.Watermark.self) { addresses[filter.mark.url] = "watermark" }
        guard !addresses.isEmpty else { return [:] }
        var urls: [(String, URL, String)] = []
        for (address, kind) in addresses {
            guard let url = Self.httpURL(address) else { throw ServeError(.badRequest, "bad \(kind) URL") }
            guard sources.allows(url) else { throw ServeError(.forbidden, "this \(kind)'s source is not allowed") }
            urls.append((address, url, kind))
        }
        return try await withThrowingTaskGroup(of: (String, Image).self) { group in
            for (address, url, kind) in urls {
                var context = ImageContext()
                var decode = DecodeOptions(pixelLimit: configuration.maxPixels, preloadAllFrames: true)
                decode.frameLimit = configuration.maxFrames
                decode.targetColorSpace = .sRGB  // composited over sRGB answers
                context[.decodeOptions] = decode
                context[.httpCachePolicy] = configuration.originCachePolicy
                selectLoader(for: url, in: &context)
                // An SVG mark is drawn again into the request's box, as thumbor's engine draws any SVG it loads; a
                // raster mark stays one cache entry for every request size.
                decode.vectorViewport = EncodePlan.vectorViewport(of: request, configuration: configuration)
                var boxed = context
                boxed[.decodeOptions] = decode
                let manager = parts.manager
                let strict = configuration.strict
                group.addTask { [context, boxed] in
                    do {
                        let mark = try await manager.loadImage(with: url, options: [.retryFailed], context: context)
                        guard mark.image.format == .svg, boxed[.decodeOptions]?.vectorViewport != nil else {
                            return (address, mark.image)
                        }
                        return (
                            address,
                            try await manager.loadImage(with: url, options: [.retryFailed], context: boxed).image
                        )
                    } catch {
                        let failure =
                            (error as? ImageError).map { ServeError($0, strict: strict) }
                            ?? ServeError(.internalError, "internal error")
                        // A missing watermark is a bad request (thumbor's 400), not a missing image; a frame image
                        // missing or not an image fails thumbor's filter itself (500).
                        let status: ServeError.Status =
                            if kind == "frame", failure.status == .notFound || Self.isNotAnImage(error) {
                                .internalError
                            } else if kind == "watermark", failure.status == .notFound {
                                .badRequest
                            } else {
                                failure.status
                            }
                        throw ServeError(status, "\(kind) \(address): \(failure.reason)")
                    }
                }
            }
            var images: [String: Image] = [:]
            for try await (address, image) in group { images[address] = image }
            return images
        }
    }

    /// Whether `error` says the bytes loaded are no image the coders read (content type, format or data).
    private static func isNotAnImage(_ error: any Error) -> Bool {
        guard let code = (error as? ImageError)?.code else { return false }
        return [.invalidDownloadContentType, .unsupportedFormat, .badImageData].contains(code)
    }

    /// Runs `body`, or throws 504 when `deadline` passes first; `body` is cancelled then and the 504 comes once it
    /// has returned (the group waits for its children).
    private func withDeadline<T: Sendable>(
        _ deadline: ContinuousClock.Instant,
        _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let timeout = configuration.timeout
        return try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(until: deadline, clock: .continuous)
                throw ServeError(.gatewayTimeout, "the request took longer than \(timeout) s")
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw ServeError(.internalError, "no result") }
            return first
        }
    }

    /// 200 with validators, or 304 when the request's validators match; HEAD gets the head only.
    private func answer(
        body: Data, format: ImageFormat, info: HTTPCacheInfo, maxAge: Int, negotiated: Bool, input: ServeRequest
    ) -> ServeResponse {
        // thumbor's rule: an animated GIF is answered as such whatever the Accept header, so it does not vary.
        let vary = negotiated && !(format == .gif && OutputFormat.isAnimatedGIF(body))
        if isNotModified(input, info) {
            return ServeResponse(
                status: 304, headers: validators(info, maxAge: maxAge, vary: vary), body: Data(), contentLength: 0)
        }
        return ServeResponse(
            status: 200, headers: [("Content-Type", format.mimeType)] + validators(info, maxAge: maxAge, vary: vary),
            body: input.method == "HEAD" ? Data() : body, contentLength: body.count)
    }

    /// The header fields of a 200 and a 304: ETag, Last-Modified (the source's), Cache-Control and Expires (`maxAge`
    /// seconds: the request's `max_age()`, else the server's; as thumbor spells them, and neither for 0),
    /// Access-Control-Allow-Origin when configured, and `Vary: Accept` when `vary` (the Accept header picked the
    /// format).
    private func validators(_ info: HTTPCacheInfo, maxAge: Int, vary: Bool) -> [(String, String)] {
        var headers = configuration.etags ? [("ETag", info.etag ?? "")] : []
        if let lastModified = info.lastModified { headers.append(("Last-Modified", lastModified)) }
        if maxAge > 0 {
            headers.append(("Cache-Control", "max-age=\(maxAge),public"))
            headers.append(("Expires", HTTPCacheInfo.formatHTTPDate(Date().addingTimeInterval(Double(maxAge)))))
        }
        if let origin = configuration.accessControlAllowOrigin {
            headers.append(("Access-Control-Allow-Origin", origin))
        }
        if vary { headers.append(("Vary", "Accept")) }
        return headers
    }

    /// A variant's info: an ETag made from the source's validators and the variant key when the source has
    /// validators (an unchanged source keeps its answers' ETags, a changed one changes them), else from the bytes;
    /// the source's Last-Modified; and the source's date and freshness (`maxAge` when the origin gave none), so
    /// the stored answer lives as long as its source is fresh.
    func variantInfo(body: Data, key: String, source: HTTPCacheInfo?) -> HTTPCacheInfo {
        let digest =
            if let source, source.hasValidators {
                SHA1.digest("\(key)\n\(source.etag ?? "")\n\(source.lastModified ?? "")".utf8)
            } else {
                SHA1.digest(body)
            }
        let etag = "\"" + Base64URL.encode(digest, padded: false) + "\""
        return HTTPCacheInfo(
            etag: etag, lastModified: source?.lastModified, date: source?.date ?? Date(),
            freshnessLifetime: source?.freshnessLifetime ?? configuration.maxAge,
            noCache: source?.noCache ?? false)
    }

    /// Whether a stored answer may be served without rendering: always when sources ignore HTTP caching, else
    /// while its source is fresh.
    private func isFresh(_ info: HTTPCacheInfo) -> Bool {
        configuration.originCachePolicy == .ignore || info.isFresh(at: Date())
    }

    /// Whether the request's validators match: If-None-Match against the ETag (unless ETags are off, as thumbor's
    /// ENABLE_ETAGS = False: then it is passed over), else If-Modified-Since against Last-Modified (an HTTP date at
    /// or after it).
    private func isNotModified(_ input: ServeRequest, _ info: HTTPCacheInfo) -> Bool {
        if configuration.etags, let match = input.ifNoneMatch {
            return info.etag.map { Self.matches(match, etag: $0) } ?? false
        }
        guard let since = input.ifModifiedSince.flatMap(HTTPCacheInfo.parseHTTPDate),
            let modified = info.lastModified.flatMap(HTTPCacheInfo.parseHTTPDate)
        else { return false }
        return since >= modified
    }

    /// Whether an If-None-Match value names `etag` (weak comparison, `*` matches).
    static func matches(_ header: String, etag: String) -> Bool {
        header.split(separator: ",").contains { item in
            var tag = String(item).trimmingSpacesAndTabs()
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == "*" || tag == etag
        }
    }

    /// The 504 of a request whose deadline passed while it waited for a slot.
    package func timedOutInLine(_ input: ServeRequest) -> ServeResponse {
        Self.failure(
            ServeError(.gatewayTimeout, "the request took longer than \(configuration.timeout) s (waiting for a slot)"),
            method: input.method)
    }

    /// The text answer of `error` (no body for HEAD), its detail kept for the log.
    static func failure(_ error: ServeError, method: String) -> ServeResponse {
        let body = Data((error.reason + "\n").utf8)
        var headers: [(String, String)] = [
            ("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store"),
        ]
        if error.status == .serviceUnavailable { headers.append(("Retry-After", "1")) }
        return ServeResponse(
            status: error.status.rawValue, headers: headers,
            body: method == "HEAD" ? Data() : body, contentLength: body.count, detail: error.detail)
    }
}
