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

/// One request as the service sees it, independent of the HTTP server.
struct ServeInput: Sendable {
    var method: String
    /// The path as sent (not percent-decoded).
    var path: String
    var accept: String?
    var ifNoneMatch: String?
    var ifModifiedSince: String? = nil
    /// When the answer is due (the request's arrival plus `--timeout`): the work stops there and the answer is 504.
    var deadline: ContinuousClock.Instant = .now + .seconds(30)
}

/// One answer: status, header fields, body (empty for HEAD and 304, with Content-Length still the full size).
struct ServeOutput: Sendable {
    var status: Int
    var headers: [(String, String)]
    var body: Data
    /// The length announced in Content-Length (the body's, or the GET body's for HEAD).
    var contentLength: Int
    /// A failure's description for the log (never sent).
    var detail: String? = nil
}

/// The thumbor-compatible image service (behind the admission gate): parse, check the signature, load through the
/// pipeline, encode, answer with validators. Errors are one-line text bodies with the matching status.
///
/// Thread safety: immutable after `init`; `respond` may run for any number of requests at once.
final class ImageService: Sendable {
    let configuration: ServeConfiguration
    let parts: ImageServiceParts
    let gate: AdmissionGate
    let metrics: ServeMetrics
    /// The request spans' tracer (the manager's too).
    let tracer: any Tracer
    private let signers: [ThumborSignature]
    private let sources: SourcePolicy
    /// Requests that went through the pipeline (load, transform, encode) rather than the variant cache.
    let renders = Atomic<Int>(0)
    /// Sources that failed and requests that timed out moments ago, answered again without any work.
    let failures: FailedSources<ContinuousClock>

    init(configuration: ServeConfiguration, metrics: ServeMetrics, logger: Logger,
         tracer: any Tracer = InstrumentationSystem.tracer,
         made: @Sendable (any ShutdownCapable) -> Void = { _ in }) async throws(ImageError) {
        self.configuration = configuration
        self.metrics = metrics
        self.tracer = tracer
        parts = try await ImageServiceParts.make(configuration: configuration, metrics: metrics, logger: logger,
                                                 tracer: tracer, made: made)
        gate = AdmissionGate(concurrency: configuration.concurrency, queue: configuration.queue)
        signers = configuration.keys.map(ThumborSignature.init(key:))
        sources = SourcePolicy(patterns: configuration.allowedSources)
        failures = FailedSources(ttl: .seconds(configuration.failureTTL), clock: ContinuousClock())
    }

    /// The answer to `input`, admitted by `gate` (the caller's job; never throws: every failure is an error answer).
    func respond(to input: ServeInput) async -> ServeOutput {
        do {
            let request = try ThumborRequest.parse(path: input.path)
            try authorize(request)
            guard request.filters.count <= configuration.maxFilters else {
                throw ServeError(.badRequest, "\(request.filters.count) filters exceed the limit of \(configuration.maxFilters)")
            }
            let url = try sourceURL(request)
            let plan = try EncodePlan(request: request, configuration: configuration)
            let maxAge = request.maxAge ?? configuration.maxAge
            let variantKey = VariantCache.key(signedPath: request.signedPath, requested: plan.format, accept: input.accept,
                                              autoWebP: configuration.autoWebP, autoAVIF: configuration.autoAVIF,
                                              keepMetadata: configuration.keepMetadata,
                                              keepCopyright: configuration.keepCopyright)
            // A stored answer whose source is still fresh is answered from its bytes (a 304 from its validators
            // alone); a stale one is rendered again, through the manager, which revalidates the source.
            if let variants = parts.variants {
                if input.ifNoneMatch != nil || input.ifModifiedSince != nil, let info = await variants.info(forKey: variantKey),
                   isFresh(info), Self.isNotModified(input, info) {
                    return ServeOutput(status: 304, headers: validators(info, maxAge: maxAge), body: Data(), contentLength: 0)
                }
                if let (body, info) = await variants.variant(forKey: variantKey), isFresh(info) {
                    return answer(body: body, format: ImageFormat.detect(body), info: info, maxAge: maxAge, input: input)
                }
            }
            let sourceKey = "source " + url.absoluteString, requestKey = "request " + request.signedPath
            if let failure = failures.failure(for: sourceKey) ?? failures.failure(for: requestKey) { throw failure }
            let (body, format, source): (Data, ImageFormat, HTTPCacheInfo?)
            do {
                (body, format, source) = try await withDeadline(input.deadline) {
                    // A load cancelled at the deadline returns only once its download, decode and transform
                    // stopped, so the request's slot is not given back while its work goes on.
                    try await CancelledWork.$isAwaited.withValue(true) {
                        try await self.render(request, url: url, plan: plan, accept: input.accept, failureKey: sourceKey)
                    }
                }
            } catch let timeout as ServeError where timeout.status == .gatewayTimeout {
                failures.record(timeout, for: requestKey)
                throw timeout
            }
            let info = variantInfo(body: body, key: variantKey, source: source)
            await parts.variants?.store(body, info: info, forKey: variantKey)
            return answer(body: body, format: format, info: info, maxAge: maxAge, input: input)
        } catch let error as ServeError {
            return failure(error, input: input)
        } catch {
            var failure = ServeError(.internalError, "internal error")
            failure.detail = "\(error)"
            return self.failure(failure, input: input)
        }
    }

    /// 403 unless the URL is signed with the key, or is `unsafe/` and that is allowed.
    private func authorize(_ request: ThumborRequest) throws(ServeError) {
        if request.signature == "unsafe" {
            guard configuration.allowUnsafe else { throw ServeError(.forbidden, "unsafe URLs are not allowed (start with --allow-unsafe)") }
            return
        }
        guard !signers.isEmpty else { throw ServeError(.forbidden, "signed URLs need a key (start with --key)") }
        guard signers.contains(where: { $0.isValid(request.signature, for: request.signedPath) }) else {
            throw ServeError(.forbidden, "bad signature")
        }
    }

    /// The source URL: a file under `--file-root` for a path without `http://` or `https://` when there is one;
    /// else http or https with a host, or 400; 403 when `--allow-source` does not allow it.
    private func sourceURL(_ request: ThumborRequest) throws(ServeError) -> URL {
        if let fileRoot = parts.fileRoot {
            let lower = request.imagePath.lowercased()
            if !lower.hasPrefix("http://"), !lower.hasPrefix("https://") { return try fileRoot.resolve(request.imagePath) }
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

    /// Loads, transforms and encodes; returns the bytes and their format. A load that fails is remembered under
    /// `failureKey`.
    private func render(_ request: ThumborRequest, url: URL, plan: EncodePlan, accept: String?, failureKey: String)
        async throws -> (Data, ImageFormat, HTTPCacheInfo?)
    {
        renders.add(1, ordering: .relaxed)
        var transformer = ThumborTransformer(request: request, pixelLimit: configuration.maxPixels)
        transformer.memoryLimit = configuration.maxRequestMemory
        let progress = TransformProgress()
        transformer.progress = progress
        transformer.watermarks = try await watermarks(of: request)
        var context = ImageContext()
        context[.imageTransformer] = transformer
        // Every frame counts against the pixel limit, before any is decoded (the service transforms them all).
        var decode = DecodeOptions(pixelLimit: configuration.maxPixels, preloadAllFrames: true)
        decode.frameLimit = configuration.maxFrames
        decode.thumbnailPixelSize = plan.decodeBox
        context[.decodeOptions] = decode
        context[.httpCachePolicy] = configuration.originCachePolicy
        if let box = plan.decodeBox { context[.thumbnailPixelSize] = box }
        selectLoader(for: url, in: &context)
        let result: ImageResult
        do {
            result = try await parts.manager.loadImage(with: url, options: [.retryFailed, .transformAnimatedImage],
                                                       context: context)
        } catch {
            let failure = ServeError(error)
            // The source's failures only: a transform that was refused (its output or memory) says nothing of
            // other variants of the source.
            if error.code != .cancelled, !progress.started.load(ordering: .relaxed) { failures.record(failure, for: failureKey) }
            throw failure
        }
        let image = result.image
        let format = OutputFormat.choose(requested: plan.format, source: image, accept: accept,
                                         autoWebP: configuration.autoWebP, autoAVIF: configuration.autoAVIF,
                                         canEncode: parts.coders.canEncode(to:))
        guard parts.coders.canEncode(to: format) else {
            throw ServeError(.badRequest, "this build cannot encode \(format.identifier)")
        }
        let animated = image.isAnimated
        let metadata = plan.metadata(of: image, configuration: configuration)
        let output = metadata == image.metadata ? image : image.with(metadata: metadata)
        let coders = parts.coders
        do {
            let data = try await parts.pool.runCancellable { () throws(ImageError) -> Data in
                try plan.encodeFitting(format) { (quality) throws(ImageError) in
                    try coders.encode(output, as: format, options: plan.encodeOptions(for: format, animated: animated,
                                                                                      quality: quality))
                }
            }
            return (data, format, result.httpCacheInfo)
        } catch {
            throw ServeError(error)
        }
    }

    /// The loader for URLs on the hosts `--allow-host` names (they may reach private addresses); others keep the
    /// manager's, which refuses them.
    private func selectLoader(for url: URL, in context: inout ImageContext) {
        if url.isFileURL, let fileLoader = parts.fileLoader {
            context[.imageLoader] = fileLoader
            return
        }
        if let host = url.host.map(ImageServiceParts.normalized(host:)), parts.allowedHosts.contains(host),
           let loader = parts.allowedLoader {
            context[.imageLoader] = loader
        }
    }

    /// The images of `request`'s `watermark()` filters by URL, loaded at once through the pipeline (cached, shared
    /// between requests, under the same address policy and pixel limit as sources). A watermark that cannot be
    /// loaded fails the request as its source would, its reason naming the watermark.
    private func watermarks(of request: ThumborRequest) async throws -> [String: Image] {
        var addresses: Set<String> = []
        for filter in request.filters { if case .watermark(let mark) = filter { addresses.insert(mark.url) } }
        guard !addresses.isEmpty else { return [:] }
        var urls: [(String, URL)] = []
        for address in addresses {
            guard let url = Self.httpURL(address) else { throw ServeError(.badRequest, "bad watermark URL") }
            guard sources.allows(url) else { throw ServeError(.forbidden, "this watermark's source is not allowed") }
            urls.append((address, url))
        }
        return try await withThrowingTaskGroup(of: (String, Image).self) { group in
            for (address, url) in urls {
                var context = ImageContext()
                var decode = DecodeOptions(pixelLimit: configuration.maxPixels, preloadAllFrames: true)
                decode.frameLimit = configuration.maxFrames
                context[.decodeOptions] = decode
                context[.httpCachePolicy] = configuration.originCachePolicy
                        selectLoader(for: url, in: &context)
                let manager = parts.manager
                group.addTask { [context] in
                    do {
                        return (address, try await manager.loadImage(with: url, options: [.retryFailed], context: context).image)
                    } catch {
                        let failure = (error as? ImageError).map(ServeError.init) ?? ServeError(.internalError, "internal error")
                        // A missing watermark is a bad request (thumbor's 400), not a missing image.
                        let status = failure.status == .notFound ? .badRequest : failure.status
                        throw ServeError(status, "watermark \(address): \(failure.reason)")
                    }
                }
            }
            var images: [String: Image] = [:]
            for try await (address, image) in group { images[address] = image }
            return images
        }
    }

    /// Runs `body`, or throws 504 when `deadline` passes first; `body` is cancelled then and the 504 comes once it
    /// has returned (the group waits for its children).
    private func withDeadline<T: Sendable>(_ deadline: ContinuousClock.Instant,
                                           _ body: @escaping @Sendable () async throws -> T) async throws -> T {
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
    private func answer(body: Data, format: ImageFormat, info: HTTPCacheInfo, maxAge: Int, input: ServeInput) -> ServeOutput {
        if Self.isNotModified(input, info) {
            return ServeOutput(status: 304, headers: validators(info, maxAge: maxAge), body: Data(), contentLength: 0)
        }
        return ServeOutput(status: 200, headers: [("Content-Type", format.mimeType)] + validators(info, maxAge: maxAge),
                           body: input.method == "HEAD" ? Data() : body, contentLength: body.count)
    }

    /// The header fields of a 200 and a 304: ETag, Last-Modified (the source's), Cache-Control (`maxAge` seconds:
    /// the request's `max_age()`, else the server's), and Vary when the Accept header picks formats.
    private func validators(_ info: HTTPCacheInfo, maxAge: Int) -> [(String, String)] {
        var headers = [("ETag", info.etag ?? "")]
        if let lastModified = info.lastModified { headers.append(("Last-Modified", lastModified)) }
        headers.append(("Cache-Control", "public, max-age=\(maxAge)"))
        if configuration.autoWebP || configuration.autoAVIF { headers.append(("Vary", "Accept")) }
        return headers
    }

    /// A variant's info: an ETag made from the source's validators and the variant key when the source has
    /// validators (an unchanged source keeps its answers' ETags, a changed one changes them), else from the bytes;
    /// the source's Last-Modified; and the source's date and freshness (`maxAge` when the origin gave none), so
    /// the stored answer lives as long as its source is fresh.
    func variantInfo(body: Data, key: String, source: HTTPCacheInfo?) -> HTTPCacheInfo {
        let digest = if let source, source.hasValidators {
            SHA1.digest("\(key)\n\(source.etag ?? "")\n\(source.lastModified ?? "")".utf8)
        } else {
            SHA1.digest(body)
        }
        let etag = "\"" + Base64URL.encode(digest, padded: false) + "\""
        return HTTPCacheInfo(etag: etag, lastModified: source?.lastModified, date: source?.date ?? Date(),
                             freshnessLifetime: source?.freshnessLifetime ?? configuration.maxAge,
                             noCache: source?.noCache ?? false)
    }

    /// Whether a stored answer may be served without rendering: always when sources ignore HTTP caching, else
    /// while its source is fresh.
    private func isFresh(_ info: HTTPCacheInfo) -> Bool {
        configuration.originCachePolicy == .ignore || info.isFresh(at: Date())
    }

    /// Whether the request's validators match: If-None-Match against the ETag, else If-Modified-Since against
    /// Last-Modified (an HTTP date at or after it).
    static func isNotModified(_ input: ServeInput, _ info: HTTPCacheInfo) -> Bool {
        if let match = input.ifNoneMatch { return info.etag.map { matches(match, etag: $0) } ?? false }
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
    func timedOutInLine(_ input: ServeInput) -> ServeOutput {
        failure(ServeError(.gatewayTimeout, "the request took longer than \(configuration.timeout) s (waiting for a slot)"),
                input: input)
    }

    private func failure(_ error: ServeError, input: ServeInput) -> ServeOutput {
        let body = Data((error.reason + "\n").utf8)
        var headers: [(String, String)] = [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")]
        if error.status == .serviceUnavailable { headers.append(("Retry-After", "1")) }
        return ServeOutput(status: error.status.rawValue, headers: headers,
                           body: input.method == "HEAD" ? Data() : body, contentLength: body.count, detail: error.detail)
    }
}
