public import ServiceLifecycle
public import WICore

/// Runs an `ImageManager` as a swift-service-lifecycle `Service`: `run()` waits for the graceful shutdown (or
/// cancellation) of its service group, then shuts the manager down (loads in flight end with 2002, background
/// stores finish, the threads it owns end) before returning.
///
/// ```swift
/// let manager = WebImage.makeManager()
/// let group = ServiceGroup(services: [server, ImageManagerService(manager)], logger: logger)
/// try await group.run()
/// ```
///
/// Thread safety: immutable; `run()` is called once by the service group.
public struct ImageManagerService: Service {
    /// The manager this service shuts down.
    public let manager: ImageManager

    /// A service that shuts `manager` down on graceful shutdown.
    public init(_ manager: ImageManager) {
        self.manager = manager
    }

    /// Waits for graceful shutdown or cancellation, then awaits `manager.shutdown()`.
    public func run() async throws {
        try? await gracefulShutdown()
        await manager.shutdown()
    }
}
