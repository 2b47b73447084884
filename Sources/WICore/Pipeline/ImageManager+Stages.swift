#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

extension ImageManager {
    /// The shared download for `source`, forwarding its events to this image task (and decoding partial images
    /// when the request is progressive); a background revalidation has no task and loads at low priority.
    func load(_ request: ResolvedRequest, task: ImageTaskContext?) async -> Result<ImageLoadResult, ImageError> {
        let loader = request.context[.imageLoader] ?? self.loader
        guard loader.canLoad(request.url) else {
            return .failure(ImageError(.invalidURL, "no loader accepts \(request.url.absoluteString)"))
        }
        let (events, sink) = AsyncStream<ImageLoading.Event>.makeStream()
        let partials = PartialImageDecoder(
            coder: request.options.contains(.progressiveLoad) ? (request.context[.imageCoder] ?? coders) : nil,
            options: request.decodeOptions, pool: cpuPool)
        let consumer = Task {
            for await event in events {
                switch event {
                case .response(let head): task?.broadcast(.response(head))
                case .progress(let received, let expected): task?.broadcast(.progress(received: received, expected: expected))
                case .partialData(let chunk):
                    if let image = await partials.append(chunk), !Task.isCancelled { task?.broadcast(.partialImage(image)) }
                }
            }
        }
        let loadRequest = {
            var loadRequest = request.loadRequest
            loadRequest.priority = task?.priority ?? .low
            return loadRequest
        }()
        let result = await loadTasks.run(
            key: request.load, priority: task?.priority ?? .low, onEvent: { sink.yield($0) },
            ticket: { [loadTasks] ticket in task?.onPriorityChange { loadTasks.setPriority($0, for: ticket) } },
            coalesced: telemetry.coalescedLoad
        ) { [telemetry] shared in
            await telemetry.withDownloadSpan(loadRequest) { loadRequest in
                let relay = CancellationRelay()
                return await withTaskCancellationHandler {
                    await withCheckedContinuation { continuation in
                        let operation = loader.load(loadRequest, events: { shared.broadcast($0) }) { continuation.resume(returning: $0) }
                        shared.onPriorityChange { operation.setPriority($0) }
                        relay.onCancel { operation.cancel() }
                    }
                } onCancel: {
                    relay.cancel()
                }
            }
        }
        // The final bytes are here: stop making partial images, deliver the remaining progress events, and only
        // then let the final result go out (no partial image or progress may follow it).
        partials.stop()
        sink.finish()
        await consumer.value
        return result
    }

    /// The shared decode of `data` (from `source`) with `options`: one decode per source, coder and options at a
    /// time, counted in `statistics`. No coder for the bytes: 1004.
    func decode(_ data: Data, source: DecodeSource, request: ResolvedRequest, options: DecodeOptions) async
        -> Result<Image, ImageError>
    {
        let coder = request.context[.imageCoder] ?? coders
        let pool = cpuPool
        return await decodeTasks.run(key: decodeKey(source, request, options: options), priority: .normal,
                                     coalesced: telemetry.coalescedDecode) { [telemetry] _ in
            await telemetry.withDecodeSpan(data) {
                await pool.cancellableResult { () throws(ImageError) -> Image in
                    guard coder.canDecode(data) else {
                        throw ImageError(.unsupportedFormat,
                                         "no registered coder decodes this data (detected format: \(ImageFormat.detect(data)))")
                    }
                    return try coder.decode(data, options: options)
                }
            }
        }
    }

    /// Applies `transformer`, sharing each prefix of a pipeline transformer with other requests on the same decode.
    func transform(_ image: Image, with transformer: any ImageTransformer, decode: DecodeKey) async -> Result<Image, ImageError> {
        let steps = (transformer as? PipelineTransformer)?.transformers ?? [transformer]
        var current = image
        var prefix: [String] = []
        let pool = cpuPool
        for step in steps {
            prefix.append(step.key)
            let input = current
            let result = await transformTasks.run(key: TransformKey(decode: decode, transformerKey: prefix.joined(separator: "-")),
                                                  priority: .normal, coalesced: telemetry.coalescedTransform) { [telemetry] _ in
                await telemetry.withSpan(ImageManager.TelemetryNames.transformSpan) { span in
                    span.attributes[ImageManager.TelemetryNames.transformerKey] = step.key
                    let result = await pool.cancellableResult { () throws(ImageError) -> Image in
                        try step.transform(input)
                    }
                    if case .failure(let error) = result { span.record(error) }
                    return result
                }
            }
            switch result {
            case .success(let output): current = output
            case .failure(let error): return .failure(error)
            }
        }
        return .success(current.flags.contains(.transformed) ? current : current.with(flags: current.flags.union(.transformed)))
    }
}

/// Feeds a progressive load's chunks to an incremental decoder on the CPU pool, one call at a time.
// @unchecked Sendable: `decoder`, `pending`, `failed` and `lastPartial` are only touched by the single consumer task,
// which awaits each pool call before the next (never two calls at once); `stopped` is under its own lock.
final class PartialImageDecoder: @unchecked Sendable {
    private let coder: (any ImageCoder)?
    private let options: DecodeOptions
    private let pool: WorkerPool
    private var decoder: (any IncrementalImageDecoder)?
    private var pending = Data()
    private var failed = false
    private var lastPartial = ContinuousClock.now - .seconds(1)
    private let stopped = Mutex(false)
    /// The shortest time between two partial images.
    static let interval = Duration.milliseconds(50)

    init(coder: (any ImageCoder)?, options: DecodeOptions, pool: WorkerPool) {
        self.coder = coder
        self.options = options
        self.pool = pool
    }

    /// Makes every later `append` a no-op (the final data arrived).
    func stop() { stopped.withLock { $0 = true } }

    /// Feeds `chunk`; returns a new partial image when more of the image became visible and enough time passed.
    func append(_ chunk: Data) async -> Image? {
        guard let coder, !failed, !stopped.withLock({ $0 }) else { return nil }
        return await pool.run { () -> Image? in
            if self.decoder == nil {
                self.pending += chunk
                guard self.pending.count >= 64 else { return nil }
                guard let progressive = coder as? any ProgressiveImageCoder,
                      let decoder = progressive.makeIncrementalDecoder(header: self.pending, options: self.options) else {
                    self.failed = true
                    return nil
                }
                self.decoder = decoder
                return self.feed(self.pending)
            }
            return self.feed(chunk)
        }
    }

    private func feed(_ data: Data) -> Image? {
        guard let decoder else { return nil }
        do {
            guard try decoder.append(data), ContinuousClock.now - lastPartial >= Self.interval else { return nil }
            lastPartial = .now
            return decoder.currentImage()
        } catch {
            failed = true   // the final decode reports the error
            return nil
        }
    }
}
