import Foundation
import Synchronization
import WICore

/// A memory tier for tests: a dictionary with call counters.
///
/// Thread safety: everything is under one lock.
public final class MockMemoryCache: MemoryImageCaching, Sendable {
    private let state = Mutex((images: [String: Image](), reads: 0, writes: 0))

    public init() {}

    public func image(forKey key: String) -> Image? {
        state.withLock { s in
            s.reads += 1
            return s.images[key]
        }
    }

    public func setImage(_ image: Image, forKey key: String) {
        state.withLock { s in
            s.writes += 1
            s.images[key] = image
        }
    }

    public func removeImage(forKey key: String) { _ = state.withLock { $0.images.removeValue(forKey: key) } }
    public func removeAll() { state.withLock { $0.images.removeAll() } }

    /// The keys stored, sorted.
    public var keys: [String] { state.withLock { $0.images.keys.sorted() } }
    /// Calls to `setImage`.
    public var writeCount: Int { state.withLock { $0.writes } }
}

/// A data tier for tests: a dictionary with call counters.
///
/// Thread safety: everything is under one lock.
public final class MockDataCache: DataCaching, Sendable {
    private let state = Mutex((entries: [String: Data](), reads: 0, writes: 0))

    public init(entries: [String: Data] = [:]) {
        state.withLock { $0.entries = entries }
    }

    public func data(forKey key: String) -> Data? {
        state.withLock { s in
            s.reads += 1
            return s.entries[key]
        }
    }

    public func setData(_ data: Data, forKey key: String) {
        state.withLock { s in
            s.writes += 1
            s.entries[key] = data
        }
    }

    public func removeData(forKey key: String) { _ = state.withLock { $0.entries.removeValue(forKey: key) } }
    public func containsData(forKey key: String) -> Bool { state.withLock { $0.entries[key] != nil } }
    public func removeAllData() { state.withLock { $0.entries.removeAll() } }

    /// The keys stored, sorted.
    public var keys: [String] { state.withLock { $0.entries.keys.sorted() } }
    /// Calls to `data(forKey:)`.
    public var readCount: Int { state.withLock { $0.reads } }
    /// Calls to `setData`.
    public var writeCount: Int { state.withLock { $0.writes } }
}

/// A transformer for tests: counts calls and tints the red component, keyed by its name.
///
/// Thread safety: the counter is under a lock.
public final class MockTransformer: ImageTransformer, Sendable {
    public let key: String
    private let red: UInt8
    private let calls = Mutex(0)

    public init(key: String, red: UInt8 = 200) {
        self.key = key
        self.red = red
    }

    /// How many times `transform` ran.
    public var callCount: Int { calls.withLock { $0 } }

    public func transform(_ image: Image) throws(ImageError) -> Image {
        calls.withLock { $0 += 1 }
        var frames = try image.frames
        for index in frames.indices {
            let red = self.red
            try frames[index].pixels.withUnsafeMutableBytes { bytes in
                for i in stride(from: 0, to: bytes.count, by: 4) { bytes[i] = red }
            }
        }
        return image.with(frames: frames)
    }
}
