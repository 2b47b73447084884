#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

extension ImageManager {
    /// The shared decode of `data` (from `source`) with `options`: one decode per source, coder and options at a
    /// time, counted in `statistics`. No coder for the bytes: 1004.
    func decode(_ data: Data, source: DecodeSource, request: ResolvedRequest, options: DecodeOptions) async
        -> Result<Image, ImageError>
    {
        if let refused = await beforeWork(request) { return .failure(refused) }
        // The viewport is an SVG's alone: any other source decodes, and shares its decode, as without it.
        var adjusted = options
        if adjusted.vectorViewport != nil, ImageFormat.detect(data) != .svg { adjusted.vectorViewport = nil }
        let options = adjusted
        let coder = request.coder
        let pool = cpuPool
        return await decodeTasks.run(
            key: decodeKey(source, request, options: options), priority: .normal,
            coalesced: telemetry.coalescedDecode
        ) { [telemetry] _ in
            await telemetry.withDecodeSpan(data) {
                await pool.cancellableResult { () throws(ImageError) -> Image in
                    guard coder.canDecode(data) else {
                        throw ImageError(
                            .unsupportedFormat,
                            "no registered coder decodes this data (detected format: \(ImageFormat.detect(data)))")
                    }
                    return try coder.decode(data, options: options)
                }
            }
        }
    }
}

extension ImageManager {
    /// Awaits the request's `beforeWork` hook before CPU work; its error, if it threw.
    func beforeWork(_ request: ResolvedRequest) async -> ImageError? {
        guard let hook = request.context[.beforeWork] else { return nil }
        do throws(ImageError) {
            try await hook()
            return nil
        } catch {
            return error
        }
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
                    let decoder = progressive.makeIncrementalDecoder(header: self.pending, options: self.options)
                else {
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
            failed = true  // the final decode reports the error
            return nil
        }
    }
}
