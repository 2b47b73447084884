#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// One answer from Redis, copied out of hiredis's reply object.
///
/// Thread safety: a value type; safe to send and share.
enum RedisReply: Sendable, Equatable {
    case string(Data)
    case status(String)
    case integer(Int64)
    case null
    case array([RedisReply])
    case error(String)

    /// The reply as a result: an error reply becomes `.redisCommandFailed`.
    var checked: Result<RedisReply, ImageError> {
        if case .error(let message) = self { return .failure(ImageError(.redisCommandFailed, message)) }
        return .success(self)
    }

    /// The bytes of a bulk string, nil for a nil reply; anything else throws.
    func data() throws(ImageError) -> Data? {
        switch try checked.get() {
        case .string(let data): return data
        case .null: return nil
        case let other: throw Self.unexpected(other, wanted: "a bulk string")
        }
    }

    /// An integer reply; anything else throws.
    func integer() throws(ImageError) -> Int64 {
        guard case .integer(let value) = try checked.get() else { throw Self.unexpected(self, wanted: "an integer") }
        return value
    }

    /// Whether the reply is `+OK` (true) or nil (false, e.g. `SET NX` that did not set); anything else throws.
    func isOK() throws(ImageError) -> Bool {
        switch try checked.get() {
        case .status("OK"): return true
        case .null: return false
        case let other: throw Self.unexpected(other, wanted: "OK")
        }
    }

    /// The elements of an array reply; anything else throws.
    func elements() throws(ImageError) -> [RedisReply] {
        guard case .array(let items) = try checked.get() else { throw Self.unexpected(self, wanted: "an array") }
        return items
    }

    static func unexpected(_ reply: RedisReply, wanted: String) -> ImageError {
        ImageError(.redisUnexpectedReply, "expected \(wanted), got \(reply)")
    }
}
