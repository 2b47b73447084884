#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Synchronization
import WebImage

/// One request as the service sees it, independent of the HTTP server.
struct ServeInput: Sendable {
    var method: String
    /// The path as sent (not percent-decoded).
    var path: String
    var accept: String?
    var ifNoneMatch: String?
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
    private let signers: [ThumborSignature]
    private let sources: SourcePolicy
    /// Requests that went through the pipeline (load, transform, encode) rather than the variant cache.
    let renders = Atomic<Int>(0)
    /// Sources that failed and requests that timed out moments ago, answered again without any work.
    let failures: FailedSources<ContinuousClock>

    init(configuration: ServeConfiguration, metrics: ServeMetrics, logger: Logger,
         made: @Sendable (any ShutdownCapable) -> Void = { _ in }) async throws(ImageError) {
        self.configuration = configuration
        self.metrics = metrics
        parts = try await ImageServiceParts.make(configuration: configuration, metrics: metrics, logger: logger, made: made)
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
            if let variants = parts.variants {
                if let match = input.ifNoneMatch, let etag = await variants.etag(forKey: variantKey),
                   Self.matches(match, etag: etag) {
                    return ServeOutput(status: 304, headers: validators(etag: etag, maxAge: maxAge), body: Data(),
                                       contentLength: 0)
                }
                if let (body, etag) = await variants.variant(forKey: variantKey) {
                    return answer(body: body, format: ImageFormat.detect(body), etag: etag, maxAge: maxAge, input: input)
                }
            }
            let sourceKey = "source " + url.absoluteString, requestKey = "request " + request.signedPath
            if let failure = failures.failure(for: sourceKey) ?? failures.failure(for: requestKey) { throw failure }
            let (body, format): (Data, ImageFormat)
            do {
                (body, format) = try await withDeadline(input.deadline) {
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
            let etag = "\"" + Base64URL.encode(SHA1.digest(body)).filter { $0 != "=" } + "\""
            await parts.variants?.store(body, etag: etag, forKey: variantKey)
            return answer(body: body, format: format, etag: etag, maxAge: maxAge, input: input)
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

    /// The source URL: http or https with a host, else 400; 403 when `--allow-source` does not allow it.
    private func sourceURL(_ request: ThumborRequest) throws(ServeError) -> URL {
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
        async throws -> (Data, ImageFormat)
    {
        renders.add(1, ordering: .relaxed)
        var transformer = ThumborTransformer(request: request, pixelLimit: configuration.maxPixels)
        transformer.watermarks = try await watermarks(of: request)
        var context = ImageContext()
        context[.imageTransformer] = transformer
        // Every frame counts against the pixel limit, before any is decoded (the service transforms them all).
        var decode = DecodeOptions(pixelLimit: configuration.maxPixels, preloadAllFrames: true)
        decode.frameLimit = configuration.maxFrames
        decode.thumbnailPixelSize = plan.decodeBox
        context[.decodeOptions] = decode
        if let box = plan.decodeBox { context[.thumbnailPixelSize] = box }
        selectLoader(for: url, in: &context)
        let result: ImageResult
        do {
            result = try await parts.manager.loadImage(with: url, options: [.retryFailed, .transformAnimatedImage],
                                                       context: context)
        } catch {
            let failure = ServeError(error)
            if error.code != .cancelled { failures.record(failure, for: failureKey) }
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
            return (data, format)
        } catch {
            throw ServeError(error)
        }
    }

    /// The loader for URLs on the hosts `--allow-host` names (they may reach private addresses); others keep the
    /// manager's, which refuses them.
    private func selectLoader(for url: URL, in context: inout ImageContext) {
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

    /// 200 with validators, or 304 when If-None-Match names the ETag; HEAD gets the head only.
    private func answer(body: Data, format: ImageFormat, etag: String, maxAge: Int, input: ServeInput) -> ServeOutput {
        if let match = input.ifNoneMatch, Self.matches(match, etag: etag) {
            return ServeOutput(status: 304, headers: validators(etag: etag, maxAge: maxAge), body: Data(), contentLength: 0)
        }
        return ServeOutput(status: 200, headers: [("Content-Type", format.mimeType)] + validators(etag: etag, maxAge: maxAge),
                           body: input.method == "HEAD" ? Data() : body, contentLength: body.count)
    }

    /// The header fields of a 200 and a 304: ETag, Cache-Control (`maxAge` seconds: the request's `max_age()`, else
    /// the server's), and Vary when the Accept header picks formats.
    private func validators(etag: String, maxAge: Int) -> [(String, String)] {
        var headers = [("ETag", etag), ("Cache-Control", "public, max-age=\(maxAge)")]
        if configuration.autoWebP || configuration.autoAVIF { headers.append(("Vary", "Accept")) }
        return headers
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
