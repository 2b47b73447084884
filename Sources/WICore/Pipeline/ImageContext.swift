#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ImageContext {
    /// How a context value takes part in a request's identity: whether two loads that differ in it may share work
    /// (a download, a decode, a cached entry). Each `ImageContext.Key` declares its role, so plugin keys take part.
    ///
    /// Thread safety: a value type; safe to send and share.
    public enum KeyRole: Sendable, Hashable {
        /// The value may change the bytes loaded (a loader plugin reads it): loads share work only when their values
        /// are equal. A value that is neither `Hashable` nor a class instance cannot be compared and makes the load
        /// private. The default for plugin keys.
        case request
        /// The value changes the result but not the download (a coder, a cache, a transformer): compared like
        /// `.request` for the image task; loads that differ only in it still share their download.
        case result
        /// The value never changes what is loaded, decoded or cached (where callbacks run, a logger).
        case irrelevant
    }
}

extension ImageContext {
    /// A typed key into an `ImageContext`. Plugins declare their own keys in constrained extensions:
    ///
    /// ```swift
    /// extension ImageContext.Key where Value == Int {
    ///     static var maxRetries: Self { Self("com.example.maxRetries", role: .request) }
    /// }
    /// context[.maxRetries] = 3
    /// ```
    ///
    /// Thread safety: a value type; safe to send and share.
    public struct Key<Value: Sendable>: Hashable, Sendable {
        /// A unique name; reverse-DNS for plugin keys.
        public let name: String
        /// How values of this key take part in request identity (`.request` unless declared otherwise).
        public let role: ImageContext.KeyRole

        public init(_ name: String, role: ImageContext.KeyRole = .request) {
            self.name = name
            self.role = role
        }

        public static func == (lhs: Self, rhs: Self) -> Bool { lhs.name == rhs.name }
        public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    }
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
    struct Entry: Sendable {
        var value: any Sendable
        var role: ImageContext.KeyRole
    }

    private var values: [String: Entry] = [:]

    public init() {}

    /// The value for `key`, nil when unset.
    public subscript<Value>(_ key: ImageContext.Key<Value>) -> Value? {
        get {
            // An unset key returns before hashing its name or casting: `as? Value` calls the runtime's dynamic cast
            // even on nil, and hot paths (the loader, per transfer) read keys that are mostly unset.
            guard !values.isEmpty, let entry = values[key.name] else { return nil }
            return entry.value as? Value
        }
        set { values[key.name] = newValue.map { Entry(value: $0, role: key.role) } }
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

    /// The comparable identity of the values whose role is one of `roles`, by key name; nil when one of them
    /// cannot be compared (the load is private).
    func identity(of roles: Set<ImageContext.KeyRole>, excluding excluded: Set<String> = []) -> [String: IdentityValue]?
    {
        var identity: [String: IdentityValue] = [:]
        for (name, entry) in values where roles.contains(entry.role) && !excluded.contains(name) {
            guard let value = ComponentIdentity.of(entry.value) else { return nil }
            identity[name] = value
        }
        return identity
    }
}
