#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ImageManager {
    /// The shared download for `source`, forwarding its events to this image task (and decoding partial images
    /// when the request is progressive); a background revalidation has no task and loads at low priority.
    func load(_ request: ResolvedRequest, task: ImageTaskContext?) async -> Result<ImageLoadResult, ImageError> {
        let loader = request.loader
        guard loader.canLoad(request.url) else {
            return .failure(ImageError(.invalidURL, "no loader accepts \(request.url.absoluteString)"))
        }
        let (events, sink) = AsyncStream<ImageLoading.Event>.makeStream()
        let partials = PartialImageDecoder(
            coder: request.options.contains(.progressiveLoad) ? request.coder : nil,
            options: request.decodeOptions, pool: cpuPool)
        let consumer = Task {
            for await event in events {
                switch event {
                case .response(let head): task?.broadcast(.response(head))
                case .progress(let received, let expected):
                    task?.broadcast(.progress(received: received, expected: expected))
                case .partialData(let chunk):
                    if let image = await partials.append(chunk), !Task.isCancelled {
                        task?.broadcast(.partialImage(image))
                    }
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
                        let operation = loader.load(loadRequest, events: { shared.broadcast($0) }) {
                            continuation.resume(returning: $0)
                        }
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
}
