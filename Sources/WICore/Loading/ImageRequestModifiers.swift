#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ImageLoading {
    /// An HTTP request as a request modifier sees it.
    ///
    /// Thread safety: a value type; safe to send and share.
    public struct HTTPRequest: Sendable, Hashable {
        public var url: URL
        public var method: String
        public var headers: [String: String]

        public init(url: URL, method: String = "GET", headers: [String: String] = [:]) {
            self.url = url
            self.method = method
            self.headers = headers
        }
    }
}

extension ImageLoading {
    /// Changes a request before it is sent (SDWebImage's `SDWebImageDownloaderRequestModifier`).
    ///
    /// The request it returns is part of the load's identity (`ImageLoading.Identity`): loads share a download only when
    /// their modified requests are equal, so the modifier must be deterministic for a given input.
    ///
    /// Thread safety: called from any thread (the caller's when the identity is computed, the loader's before
    /// sending); implementations must be `Sendable`.
    public protocol RequestModifier: Sendable {
        /// The request to send instead, or nil to cancel the load (error 2000).
        func modified(_ request: ImageLoading.HTTPRequest) -> ImageLoading.HTTPRequest?
    }
}

extension ImageLoading {
    /// Inspects a response head before the body is accepted (SDWebImage's `SDWebImageDownloaderResponseModifier`).
    ///
    /// Part of the load's identity: a `Hashable` modifier shares downloads with equal ones, a class instance with
    /// itself; any other (a `ImageLoading.BlockResponseModifier`) makes the load private.
    ///
    /// Thread safety: called from the loader's thread; implementations must be `Sendable`.
    public protocol ResponseModifier: Sendable {
        /// The head to use instead, or nil to reject the response (error 2003).
        func modified(_ response: ImageLoading.ResponseHead) -> ImageLoading.ResponseHead?
    }
}

extension ImageLoading {
    /// Turns downloaded bytes into image bytes, e.g. decrypts them (SDWebImage's `SDWebImageDownloaderDecryptor`).
    ///
    /// Part of the load's identity, like a response modifier: a `ImageLoading.BlockDataDecryptor` makes the load private.
    ///
    /// Thread safety: called from a worker thread; implementations must be `Sendable`.
    public protocol DataDecryptor: Sendable {
        /// The image bytes, or nil when `data` cannot be decrypted (error 1001).
        func decrypted(_ data: Data, response: ImageLoading.ResponseHead?) -> Data?
    }
}

extension ImageLoading {
    /// A request modifier from a closure.
    public struct BlockRequestModifier: ImageLoading.RequestModifier {
        private let body: @Sendable (ImageLoading.HTTPRequest) -> ImageLoading.HTTPRequest?
        public init(_ body: @escaping @Sendable (ImageLoading.HTTPRequest) -> ImageLoading.HTTPRequest?) {
            self.body = body
        }
        public func modified(_ request: ImageLoading.HTTPRequest) -> ImageLoading.HTTPRequest? { body(request) }
    }
}

extension ImageLoading {
    /// A response modifier from a closure.
    public struct BlockResponseModifier: ImageLoading.ResponseModifier {
        private let body: @Sendable (ImageLoading.ResponseHead) -> ImageLoading.ResponseHead?
        public init(_ body: @escaping @Sendable (ImageLoading.ResponseHead) -> ImageLoading.ResponseHead?) {
            self.body = body
        }
        public func modified(_ response: ImageLoading.ResponseHead) -> ImageLoading.ResponseHead? { body(response) }
    }
}

extension ImageLoading {
    /// A decryptor from a closure.
    public struct BlockDataDecryptor: ImageLoading.DataDecryptor {
        private let body: @Sendable (Data, ImageLoading.ResponseHead?) -> Data?
        public init(_ body: @escaping @Sendable (Data, ImageLoading.ResponseHead?) -> Data?) { self.body = body }
        public func decrypted(_ data: Data, response: ImageLoading.ResponseHead?) -> Data? { body(data, response) }
    }
}
