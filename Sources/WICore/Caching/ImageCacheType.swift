/// Which cache tiers an operation touches, and where a cached image was found.
///
/// Thread safety: a value type; safe to send and share.
public enum ImageCacheType: Int, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// No cache (for a result: it came from the loader).
    case none = 0
    /// Data tiers only (disk, and any tier behind it such as Redis).
    case disk = 1
    /// The in-process memory tier only.
    case memory = 2
    /// Every tier.
    case all = 3

    /// Whether this selection includes the memory tier.
    public var includesMemory: Bool { self == .memory || self == .all }
    /// Whether this selection includes the data tiers.
    public var includesDisk: Bool { self == .disk || self == .all }

    /// The tiers both selections include.
    func intersection(_ other: ImageCacheType) -> ImageCacheType {
        ImageCacheType(rawValue: rawValue & other.rawValue) ?? .none
    }

    public var description: String {
        switch self {
        case .none: "none"
        case .disk: "disk"
        case .memory: "memory"
        case .all: "all"
        }
    }
}
