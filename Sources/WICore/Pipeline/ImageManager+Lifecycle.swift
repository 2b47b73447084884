extension ImageError.Code {
    /// The manager (or a component) was shut down: new loads fail at once with this code.
    public static let shutDown = ImageError.Code(rawValue: 1010)
}

extension ImageManager {
    /// Ends the manager: new loads fail at once with 1010 (`.shutDown`), loads in flight (their callers get 2002)
    /// and background revalidations are cancelled, background stores finish, and then the components the manager
    /// owns (its worker pool, and those passed as `owning:`) are shut down, so every thread they started has ended
    /// when this returns. Idempotent.
    ///
    /// Thread safety: may be called from any task, more than once; every call returns once the shutdown is done.
    public func shutdown() async {
        tracker.beginShutdown()
        await tracker.waitUntilIdle()
        await shutdownOnce.run { [owned] in
            for component in owned { await component.shutdown() }
        }
    }

    static let shutDownError = ImageError(.shutDown, "the image manager was shut down")
}
