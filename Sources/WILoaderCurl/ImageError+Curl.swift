import WICore

// The curl loader's own error codes (2005-2099, the loading range). Each message carries libcurl's code and text
// where libcurl reported the failure, e.g. "curl error 7: Couldn't connect to server".
extension ImageError.Code {
    /// The transfer failed in the network (connection refused or reset, DNS failure, TLS failure, a body cut
    /// short). Transient: never put on the failed-URL list.
    public static let networkError = ImageError.Code(rawValue: 2005)
    /// The connect timeout, the low-speed limit (an idle or drip-feeding server) or the total time limit expired.
    /// Transient: never put on the failed-URL list.
    public static let timedOut = ImageError.Code(rawValue: 2006)
    /// The body is larger than the loader's `maximumBodySize`; the transfer stopped when it crossed the limit.
    public static let bodyTooLarge = ImageError.Code(rawValue: 2007)
    /// The address policy refused the address a connection would have gone to (loopback, private, link-local,
    /// CGNAT, multicast, cloud metadata...), on the first request or on a redirect.
    public static let addressNotAllowed = ImageError.Code(rawValue: 2008)
    /// More redirects than `maximumRedirects`, or a redirect loop.
    public static let tooManyRedirects = ImageError.Code(rawValue: 2009)
    /// The URL, or a redirect target, uses a scheme outside `allowedSchemes`.
    public static let schemeNotAllowed = ImageError.Code(rawValue: 2010)
    /// A file: URL names a file that does not exist or cannot be read.
    public static let fileNotReadable = ImageError.Code(rawValue: 2011)
}
