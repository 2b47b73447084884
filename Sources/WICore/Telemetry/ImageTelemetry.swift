#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import Logging
import Metrics
import Tracing
import Synchronization

extension Logger {
    /// A logger that drops everything: the default of every component that takes a `Logger`.
    public static var webImageNoOp: Logger { Logger(label: "webimage", factory: { _ in SwiftLogNoOpLogHandler() }) }
}

extension ImageContext.Key where Value == Logger {
    /// The logger of this load, instead of the manager's (role `.irrelevant`: loads that differ only in their logger
    /// share work, and the logger of the caller that started the shared work logs it).
    public static var logger: Self { Self("webimage.logger", role: .irrelevant) }
}

extension ImageManager {
    /// The pinned names of WebImage's metrics, spans, span attributes and log metadata (see README, "Observability").
    ///
    /// Thread safety: constants only.
    public enum TelemetryNames {
        /// Counter `{tier, result}`: cache lookups per tier (memory, disk, redis, or a data tier's `metricsName`).
        public static let cacheLookups = "webimage_cache_lookups_total"
        /// Counter `{result}`: loads that ended (success, failure, cancelled).
        public static let loads = "webimage_loads_total"
        /// Timer: the duration of every completed load (success or failure).
        public static let loadDuration = "webimage_load_duration_seconds"
        /// Timer `{format}`: the duration of every decode.
        public static let decodeDuration = "webimage_decode_duration_seconds"
        /// Counter: bytes downloaded (once per shared download).
        public static let downloadBytes = "webimage_download_bytes_total"
        /// Counter `{stage}`: callers that joined work already running (load, decode, transform).
        public static let coalesced = "webimage_coalesced_total"
        /// Meter (a gauge that goes up and down): loads in flight.
        public static let inflightLoads = "webimage_inflight_loads"

        /// The span of one `loadImage` call.
        public static let loadSpan = "webimage.load"
        /// A cache query (children of `webimage.load`).
        public static let cacheQuerySpan = "webimage.cache.query"
        /// A download (one per shared download).
        public static let downloadSpan = "webimage.download"
        /// A decode (one per shared decode).
        public static let decodeSpan = "webimage.decode"
        /// A transformer step that ran.
        public static let transformSpan = "webimage.transform"
        /// Storing the result into the caches.
        public static let cacheStoreSpan = "webimage.cache.store"

        /// Span attribute and log metadata: the image URL.
        public static let urlKey = "webimage.url"
        /// Span attribute and log metadata: the cache key.
        public static let cacheKeyKey = "webimage.key"
        /// Span attribute and log metadata: the `ImageError` code of a failure.
        public static let errorCodeKey = "webimage.error.code"
        /// Span attribute: where the result came from (none, memory, disk).
        public static let cacheTypeKey = "webimage.cache.type"
        /// Span attribute: bytes downloaded or decoded.
        public static let bytesKey = "webimage.bytes"
        /// Span attribute: the decoded format.
        public static let formatKey = "webimage.format"
        /// Span attribute: the HTTP status of a download.
        public static let httpStatusKey = "http.response.status_code"
        /// Span attribute: the transformer key.
        public static let transformerKey = "webimage.transformer"
    }
}

/// The manager's metric objects (made once, not per load), tracer and logger.
final class ImageTelemetry: Sendable {
    let logger: Logger
    let tracer: any Tracer
    let factory: any MetricsFactory
    let loadSuccess: Counter
    let loadFailure: Counter
    let loadCancelled: Counter
    let loadDuration: Metrics.Timer
    let downloadBytes: Counter
    let coalescedLoad: Counter
    let coalescedDecode: Counter
    let coalescedTransform: Counter
    let inflight: Meter
    private let decodeTimers = Mutex<[String: Metrics.Timer]>([:])

    /// False for the no-op tracer: spans and their service contexts are skipped altogether.
    let isTracing: Bool

    init(logger: Logger, metrics: any MetricsFactory, tracer: any Tracer) {
        self.logger = logger
        self.tracer = tracer
        isTracing = !(tracer is NoOpTracer)
        factory = metrics
        let n = ImageManager.TelemetryNames.self
        loadSuccess = Counter(label: n.loads, dimensions: [("result", "success")], factory: metrics)
        loadFailure = Counter(label: n.loads, dimensions: [("result", "failure")], factory: metrics)
        loadCancelled = Counter(label: n.loads, dimensions: [("result", "cancelled")], factory: metrics)
        loadDuration = Metrics.Timer(label: n.loadDuration, dimensions: [], factory: metrics)
        downloadBytes = Counter(label: n.downloadBytes, dimensions: [], factory: metrics)
        coalescedLoad = Counter(label: n.coalesced, dimensions: [("stage", "load")], factory: metrics)
        coalescedDecode = Counter(label: n.coalesced, dimensions: [("stage", "decode")], factory: metrics)
        coalescedTransform = Counter(label: n.coalesced, dimensions: [("stage", "transform")], factory: metrics)
        inflight = Meter(label: n.inflightLoads, dimensions: [], factory: metrics)
    }

    /// The decode timer of `format`, made on its first use.
    func decodeTimer(_ format: ImageFormat) -> Metrics.Timer {
        let name = format.description
        return decodeTimers.withLock { timers in
            if let timer = timers[name] { return timer }
            let timer = Metrics.Timer(
                label: ImageManager.TelemetryNames.decodeDuration, dimensions: [("format", name)],
                factory: factory)
            timers[name] = timer
            return timer
        }
    }

    /// Starts a span named `name`, a child of the current task's service context.
    func startSpan(_ name: String) -> any Span {
        tracer.startSpan(name, context: ServiceContext.current ?? .topLevel, ofKind: .internal)
    }

    /// Runs `body` inside a span named `name`, with the span as the current service context.
    func withSpan<T: Sendable>(_ name: String, _ body: (any Span) async -> T) async -> T {
        guard isTracing else { return await body(Self.noOpSpan) }
        let span = startSpan(name)
        let result = await ServiceContext.$current.withValue(span.context) { await body(span) }
        span.end()
        return result
    }
}

extension Span {
    /// Records an `ImageError`: its code as an attribute and the span's status.
    func record(_ error: ImageError) {
        attributes[ImageManager.TelemetryNames.errorCodeKey] = error.code.rawValue
        if error.code != .cancelled { setStatus(SpanStatus(code: .error, message: error.message)) }
    }
}

extension ImageTelemetry {
    static let noOpSpan: any Span = NoOpTracer.NoOpSpan(context: .topLevel)

    /// The shared download of `request` in a `webimage.download` span whose context goes to the loader (which
    /// injects it into the outgoing request); counts the bytes.
    func withDownloadSpan(
        _ request: ImageLoading.Request,
        _ body: (ImageLoading.Request) async -> Result<ImageLoadResult, ImageError>
    ) async
        -> Result<ImageLoadResult, ImageError>
    {
        await withSpan(ImageManager.TelemetryNames.downloadSpan) { span in
            var request = request
            if isTracing {
                request.serviceContext = span.context
                span.attributes[ImageManager.TelemetryNames.urlKey] = request.url.absoluteString
            }
            let result = await body(request)
            switch result {
            case .success(let loaded):
                downloadBytes.increment(by: loaded.data.count)
                if isTracing {
                    span.attributes[ImageManager.TelemetryNames.bytesKey] = loaded.data.count
                    if let status = loaded.response?.statusCode {
                        span.attributes[ImageManager.TelemetryNames.httpStatusKey] = status
                    }
                }
            case .failure(let error):
                if isTracing {
                    span.record(error)
                    if let status = error.statusCode {
                        span.attributes[ImageManager.TelemetryNames.httpStatusKey] = status
                    }
                }
            }
            return result
        }
    }

    /// A shared decode of `data` in a `webimage.decode` span, timed by format.
    func withDecodeSpan(_ data: Data, _ body: () async -> Result<Image, ImageError>) async -> Result<Image, ImageError>
    {
        await withSpan(ImageManager.TelemetryNames.decodeSpan) { span in
            let start = ContinuousClock.now
            let result = await body()
            let elapsed = ContinuousClock.now - start
            let format = (try? result.get().format).flatMap { $0 == .undefined ? nil : $0 } ?? ImageFormat.detect(data)
            decodeTimer(format).recordNanoseconds(elapsed.nanoseconds)
            if isTracing {
                span.attributes[ImageManager.TelemetryNames.formatKey] = format.description
                span.attributes[ImageManager.TelemetryNames.bytesKey] = data.count
                if case .failure(let error) = result { span.record(error) }
            }
            return result
        }
    }
}

extension Duration {
    /// Whole nanoseconds (saturating).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : product.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }
}

extension ImageManager {
    /// Runs one load inside its `webimage.load` span, counting it (loads, in flight, duration) and logging how it
    /// ended (trace on success, debug with the code on failure).
    func observed(
        url: URL?, options: ImageOptions, context: ImageContext,
        _ body: () async -> Result<ImageResult, ImageError>
    ) async -> Result<ImageResult, ImageError> {
        let observation = beginObservation(url: url)
        let result =
            if let span = observation.span {
                await ServiceContext.$current.withValue(span.context) { await body() }
            } else {
                await body()
            }
        endObservation(observation, result, url: url, options: options, context: context)
        return result
    }

    /// One observed `loadImage` call: when it started, and its `webimage.load` span when tracing.
    struct LoadObservation {
        let start: ContinuousClock.Instant
        let span: (any Span)?
    }

    /// Starts observing a `loadImage` call: in flight, and its span (a child of the current service context).
    func beginObservation(url: URL?) -> LoadObservation {
        let t = telemetry
        t.inflight.increment()
        var span: (any Span)?
        if t.isTracing {
            let loadSpan = t.startSpan(ImageManager.TelemetryNames.loadSpan)
            if let url { loadSpan.attributes[ImageManager.TelemetryNames.urlKey] = url.absoluteString }
            span = loadSpan
        }
        return LoadObservation(start: .now, span: span)
    }

    /// Ends observing a `loadImage` call with its `result`: counts it, records its duration, logs it, ends its span.
    func endObservation(
        _ observation: LoadObservation, _ result: Result<ImageResult, ImageError>, url: URL?,
        options: ImageOptions, context: ImageContext
    ) {
        let t = telemetry
        let span = observation.span
        t.inflight.decrement()
        let logger = context[.logger] ?? t.logger
        switch result {
        case .success(let value):
            t.loadSuccess.increment()
            t.loadDuration.recordNanoseconds((ContinuousClock.now - observation.start).nanoseconds)
            span?.attributes[ImageManager.TelemetryNames.cacheTypeKey] = value.cacheType.description
            if logger.logLevel <= .trace {
                logger.trace("image loaded", metadata: metadata(url, options, context, cacheType: value.cacheType))
            }
        case .failure(let error):
            if error.code == .cancelled {
                t.loadCancelled.increment()
            } else {
                t.loadFailure.increment()
                t.loadDuration.recordNanoseconds((ContinuousClock.now - observation.start).nanoseconds)
            }
            span?.record(error)
            if logger.logLevel <= .debug {
                var fields = metadata(url, options, context, cacheType: nil)
                fields[ImageManager.TelemetryNames.errorCodeKey] = "\(error.code.rawValue)"
                logger.debug("image load failed: \(error.message)", metadata: fields)
            }
        }
        span?.end()
    }

    private func metadata(_ url: URL?, _ options: ImageOptions, _ context: ImageContext, cacheType: ImageCacheType?)
        -> Logger.Metadata
    {
        var fields: Logger.Metadata = [ImageManager.TelemetryNames.urlKey: "\(url?.absoluteString ?? "")"]
        if let url, let key = cacheKey(for: url, options: options, context: context) {
            fields[ImageManager.TelemetryNames.cacheKeyKey] = "\(key)"
        }
        if let cacheType { fields[ImageManager.TelemetryNames.cacheTypeKey] = "\(cacheType)" }
        return fields
    }
}
