import Foundation
import Synchronization
import WICore

/// A loader for an app-defined scheme: `asset:icons/cat.png` reads `<root>/icons/cat.png`. Paths that try to leave
/// the root (`..`) are refused with 1000.
///
/// ```swift
/// loaders.addLoader(AssetLoader(root: "/usr/share/myapp/assets", pool: ioPool))
/// try await manager.loadImage(with: URL(string: "asset:icons/cat.png"))
/// ```
///
/// Thread safety: immutable; loads run on the pool it is given (reading a file blocks), which its owner shuts down.
public struct AssetLoader: ImageLoader {
    /// The folder assets are read from.
    public let root: URL
    private let pool: WorkerPool

    public init(root: String, pool: WorkerPool) {
        self.root = URL(fileURLWithPath: root, isDirectory: true).standardizedFileURL
        self.pool = pool
    }

    public func canLoad(_ url: URL) -> Bool { url.scheme == "asset" }

    public func load(
        _ request: ImageLoading.Request, events: @escaping @Sendable (ImageLoading.Event) -> Void,
        completion: @escaping @Sendable (Result<ImageLoadResult, ImageError>) -> Void
    ) -> any ImageLoading.Operation {
        let operation = Operation(completion: completion)
        let path = request.url.absoluteString.dropFirst("asset:".count)
        let file = root.appendingPathComponent(String(path)).standardizedFileURL
        guard !path.isEmpty, file.path.hasPrefix(root.path + "/") else {
            operation.finish(.failure(ImageError(.invalidURL, "asset path \(path) is outside the asset folder")))
            return operation
        }
        pool.execute {
            guard !operation.isFinished else { return }
            events(.progress(received: 0, expected: -1))
            guard let data = FileManager.default.contents(atPath: file.path) else {
                operation.finish(.failure(ImageError(.badServerResponse, "no asset at \(path)", statusCode: 404)))
                return
            }
            events(.progress(received: Int64(data.count), expected: Int64(data.count)))
            operation.finish(.success(ImageLoadResult(data: data)))
        }
        return operation
    }

    /// One asset read; completes exactly once (2002 when cancelled first).
    final class Operation: ImageLoading.Operation {
        private let completion: Mutex<(@Sendable (Result<ImageLoadResult, ImageError>) -> Void)?>

        init(completion: @escaping @Sendable (Result<ImageLoadResult, ImageError>) -> Void) {
            self.completion = Mutex(completion)
        }

        var isFinished: Bool { completion.withLock { $0 == nil } }

        func finish(_ result: Result<ImageLoadResult, ImageError>) {
            let run = completion.withLock { c -> (@Sendable (Result<ImageLoadResult, ImageError>) -> Void)? in
                defer { c = nil }
                return c
            }
            run?(result)
        }

        func cancel() { finish(.failure(ImageError(.cancelled, "the asset load was cancelled"))) }
        func setPriority(_ priority: ImageLoading.Priority) {}
    }
}
