#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The identity of a value that decides sharing: itself when `Hashable`, the instance for a class, else none.
enum ComponentIdentity {
    static func of(_ value: any Sendable) -> IdentityValue? {
        if let hashable = value as? AnyHashable { return IdentityValue(hashable) }
        if type(of: value) is AnyClass { return IdentityValue(AnyHashable(ObjectIdentifier(value as AnyObject))) }
        return nil
    }
}

/// A compared identity: a `Sendable` value's `AnyHashable`, or an object identifier, or a fresh UUID (private).
// @unchecked Sendable: `AnyHashable` is not `Sendable`, but every value wrapped here came from a `Sendable` value
// (or is an ObjectIdentifier or a UUID) and is only compared and hashed, never mutated.
struct IdentityValue: Hashable, @unchecked Sendable {
    let value: AnyHashable
    init(_ value: AnyHashable) { self.value = value }
    /// An identity equal to no other.
    static func unique() -> IdentityValue { IdentityValue(AnyHashable(UUID())) }
}
