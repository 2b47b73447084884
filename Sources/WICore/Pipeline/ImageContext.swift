/// A typed key into an `ImageContext`. Plugins declare their own keys in constrained extensions:
///
/// ```swift
/// extension ImageContextKey where Value == Int {
///     static var maxRetries: Self { Self("com.example.maxRetries") }
/// }
/// context[.maxRetries] = 3
/// ```
///
/// Thread safety: a value type; safe to send and share.
public struct ImageContextKey<Value: Sendable>: Hashable, Sendable {
    /// A unique name; reverse-DNS for plugin keys.
    public let name: String
    public init(_ name: String) { self.name = name }
}

/// Everything configurable about one load, injected per request (SDWebImage's `SDWebImageContext`), as a typed,
/// extensible key/value store.
///
/// ```swift
/// var context = ImageContext()
/// context[.thumbnailPixelSize] = PixelSize(width: 256, height: 256)
/// context[.storeCacheType] = .memory
/// ```
///
/// Thread safety: a value type holding only `Sendable` values; safe to send and share.
public struct ImageContext: Sendable {
    private var values: [String: any Sendable] = [:]

    public init() {}

    /// The value for `key`, nil when unset.
    public subscript<Value>(_ key: ImageContextKey<Value>) -> Value? {
        get {
            // An unset key returns before hashing its name or casting: `as? Value` calls the runtime's dynamic cast
            // even on nil, and hot paths (the loader, per transfer) read keys that are mostly unset.
            guard !values.isEmpty, let value = values[key.name] else { return nil }
            return value as? Value
        }
        set { values[key.name] = newValue }
    }

    /// Whether nothing is set.
    public var isEmpty: Bool { values.isEmpty }

    /// The names of the keys that are set.
    public var keyNames: [String] { values.keys.sorted() }

    /// This context with every value of `other` written over it.
    public func merging(_ other: ImageContext) -> ImageContext {
        var merged = self
        merged.values.merge(other.values) { _, new in new }
        return merged
    }
}
