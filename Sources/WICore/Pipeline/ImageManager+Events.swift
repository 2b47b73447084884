#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ImageManager {
    /// Something that happened to one load, for observers of `ImageManager.events()`.
    ///
    /// Thread safety: a value type; safe to send and share.
    public struct Event: Sendable {
        public enum Kind: Sendable {
            case started
            case response(statusCode: Int?)
            case progress(received: Int64, expected: Int64)
            case partialImage(PixelSize)
            case finished(ImageCacheType)
            /// How HTTP caching decided the answer (before `.finished`), or the outcome of a background revalidation.
            case httpCache(ImageResult.HTTPCacheOutcome)
            case failed(ImageError)
            case cancelled
        }

        /// The URL of the load.
        public var url: URL
        /// What happened.
        public var kind: Kind
    }
}

extension ImageManager {
    /// A stream of every load's events from now on; ends when the consumer stops iterating.
    ///
    /// Events of one caller arrive in order; a slow consumer gets the newest 1,000 events.
    public func events() -> AsyncStream<ImageManager.Event> {
        let (stream, continuation) = AsyncStream<ImageManager.Event>.makeStream(bufferingPolicy: .bufferingNewest(1000))
        let id = nextObserverID.withLock { value -> Int in
            value += 1
            return value
        }
        observers.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in _ = self?.observers.withLock { $0.removeValue(forKey: id) } }
        return stream
    }

    func emit(_ url: URL, _ kind: ImageManager.Event.Kind) {
        let sinks = observers.withLock { Array($0.values) }
        guard !sinks.isEmpty else { return }
        let event = ImageManager.Event(url: url, kind: kind)
        for sink in sinks { sink.yield(event) }
    }
}
