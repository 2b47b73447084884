/// The error every WebImage component reports: a stable numeric code, a readable message and the cause.
///
/// Codes follow SDWebImage's where one exists (1000-1003, 2000-2004), so logs and dashboards that know those read
/// ours too. `Code` is an open struct: a plugin adds its own codes in an extension, in the ranges listed on `Code`.
///
/// ```swift
/// do { _ = try coder.decode(data, options: .init()) }
/// catch { if error.code == .badImageData { print(error.message) } }
/// ```
///
/// Thread safety: a value type; safe to send and share.
public struct ImageError: Error, Sendable, CustomStringConvertible {
    /// The stable identifier of what went wrong.
    ///
    /// Ranges: 1000-1099 image data and URLs (WICore and coders), 2000-2099 loading, 3000-3099 the disk cache,
    /// 3100-3199 the Redis tier. Numbers never change meaning once released.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// The URL is empty, malformed or uses a scheme nothing can load (SDWebImage 1000).
        public static let invalidURL = Code(rawValue: 1000)
        /// The bytes are not a decodable image, or decoding failed (SDWebImage 1001).
        public static let badImageData = Code(rawValue: 1001)
        /// The server answered 304 and nothing is cached to revalidate (SDWebImage 1002).
        public static let cacheNotModified = Code(rawValue: 1002)
        /// The URL failed before and is on the failed-URL list (SDWebImage 1003).
        public static let blockedURL = Code(rawValue: 1003)
        /// No registered coder handles this format; managers try the next coder on this code.
        public static let unsupportedFormat = Code(rawValue: 1004)
        /// width x height x frames exceeds the configured pixel limit; refused before allocating.
        public static let pixelLimitExceeded = Code(rawValue: 1005)
        /// A pixel buffer could not be allocated.
        public static let outOfMemory = Code(rawValue: 1006)
        /// Encoding failed (library error, or options the format cannot honour).
        public static let encodingFailed = Code(rawValue: 1007)
        /// A caller's argument is out of range (a zero, negative, NaN, infinite or absurdly large size, radius,
        /// angle, quality or limit); the message names the argument and its value. Thrown before any work starts.
        public static let invalidArgument = Code(rawValue: 1009)
        /// The request could not be started, or a request modifier cancelled it (SDWebImage 2000).
        public static let invalidDownloadOperation = Code(rawValue: 2000)
        /// The status code is not acceptable; `statusCode` holds it (SDWebImage 2001).
        public static let badServerResponse = Code(rawValue: 2001)
        /// The caller cancelled (SDWebImage 2002). Never put on the failed-URL list.
        public static let cancelled = Code(rawValue: 2002)
        /// The response was rejected (by a response modifier, or it is malformed) (SDWebImage 2003).
        public static let invalidDownloadResponse = Code(rawValue: 2003)
        /// The content type is not acceptable (SDWebImage 2004).
        public static let invalidDownloadContentType = Code(rawValue: 2004)

        public var description: String { String(rawValue) }
    }

    /// What went wrong, as a stable code.
    public var code: Code
    /// A human-readable explanation, often carrying the C library's own message.
    public var message: String
    /// The HTTP status code, for `.badServerResponse` and other HTTP-level failures.
    public var statusCode: Int?
    /// The error that caused this one, if any.
    public var underlying: (any Error)?

    public init(_ code: Code, _ message: String, statusCode: Int? = nil, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.statusCode = statusCode
        self.underlying = underlying
    }

    public var description: String {
        var text = "ImageError \(code.rawValue): \(message)"
        if let statusCode { text += " (HTTP \(statusCode))" }
        if let underlying { text += " [caused by: \(underlying)]" }
        return text
    }
}
