#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An HTTP request as a request modifier sees it.
///
/// Thread safety: a value type; safe to send and share.
public struct ImageHTTPRequest: Sendable, Hashable {
    public var url: URL
    public var method: String
    public var headers: [String: String]

    public init(url: URL, method: String = "GET", headers: [String: String] = [:]) {
        self.url = url
        self.method = method
        self.headers = headers
    }
}

/// Changes a request before it is sent (SDWebImage's `SDWebImageDownloaderRequestModifier`).
///
/// The request it returns is part of the load's identity (`ImageRequestIdentity`): loads share a download only when
/// their modified requests are equal, so the modifier must be deterministic for a given input.
///
/// Thread safety: called from any thread (the caller's when the identity is computed, the loader's before
/// sending); implementations must be `Sendable`.
public protocol ImageRequestModifier: Sendable {
    /// The request to send instead, or nil to cancel the load (error 2000).
    func modified(_ request: ImageHTTPRequest) -> ImageHTTPRequest?
}

/// Inspects a response head before the body is accepted (SDWebImage's `SDWebImageDownloaderResponseModifier`).
///
/// Part of the load's identity: a `Hashable` modifier shares downloads with equal ones, a class instance with
/// itself; any other (a `BlockResponseModifier`) makes the load private.
///
/// Thread safety: called from the loader's thread; implementations must be `Sendable`.
public protocol ImageResponseModifier: Sendable {
    /// The head to use instead, or nil to reject the response (error 2003).
    func modified(_ response: ImageLoadResponseHead) -> ImageLoadResponseHead?
}

/// Turns downloaded bytes into image bytes, e.g. decrypts them (SDWebImage's `SDWebImageDownloaderDecryptor`).
///
/// Part of the load's identity, like a response modifier: a `BlockDataDecryptor` makes the load private.
///
/// Thread safety: called from a worker thread; implementations must be `Sendable`.
public protocol ImageDataDecryptor: Sendable {
    /// The image bytes, or nil when `data` cannot be decrypted (error 1001).
    func decrypted(_ data: Data, response: ImageLoadResponseHead?) -> Data?
}

/// A request modifier from a closure.
public struct BlockRequestModifier: ImageRequestModifier {
    private let body: @Sendable (ImageHTTPRequest) -> ImageHTTPRequest?
    public init(_ body: @escaping @Sendable (ImageHTTPRequest) -> ImageHTTPRequest?) { self.body = body }
    public func modified(_ request: ImageHTTPRequest) -> ImageHTTPRequest? { body(request) }
}

/// A response modifier from a closure.
public struct BlockResponseModifier: ImageResponseModifier {
    private let body: @Sendable (ImageLoadResponseHead) -> ImageLoadResponseHead?
    public init(_ body: @escaping @Sendable (ImageLoadResponseHead) -> ImageLoadResponseHead?) { self.body = body }
    public func modified(_ response: ImageLoadResponseHead) -> ImageLoadResponseHead? { body(response) }
}

/// A decryptor from a closure.
public struct BlockDataDecryptor: ImageDataDecryptor {
    private let body: @Sendable (Data, ImageLoadResponseHead?) -> Data?
    public init(_ body: @escaping @Sendable (Data, ImageLoadResponseHead?) -> Data?) { self.body = body }
    public func decrypted(_ data: Data, response: ImageLoadResponseHead?) -> Data? { body(data, response) }
}
