import Synchronization
import WICore

/// The headers every request of one loader sends: the configuration's, Accept and User-Agent.
///
/// Two of them can cost something to learn, and are asked for only when first needed: the Accept header made from
/// `Configuration.acceptedFormats` (HEIFCoder loads libheif to say what it decodes) and the default User-Agent,
/// which names libcurl's version (that loads libcurl). Both are the same for every request of the loader, so a
/// request's identity can do without them (`known`) unless a request modifier is to see every header (`all`).
///
/// Thread safety: `Sendable`; `all` is made once, under a lock.
final class LoaderHeaders: Sendable {
    /// The headers known without asking anything: the configuration's, and Accept and User-Agent when they are
    /// plain strings in it.
    let known: [String: String]
    private let configuration: CurlImageLoader.Configuration
    private let resolved: Mutex<[String: String]?>

    init(_ configuration: CurlImageLoader.Configuration) {
        var headers = configuration.headers
        if configuration.acceptedFormats == nil { headers["Accept"] = headers["Accept"] ?? configuration.accept }
        if let agent = configuration.userAgent { headers["User-Agent"] = headers["User-Agent"] ?? agent }
        known = headers
        self.configuration = configuration
        resolved = Mutex(headers["Accept"] != nil && headers["User-Agent"] != nil ? headers : nil)
    }

    /// Every header, the asked-for ones included (asked on the first call, once).
    var all: [String: String] {
        resolved.withLock { resolved in
            if let resolved { return resolved }
            var headers = known
            if headers["Accept"] == nil {
                headers["Accept"] = CurlImageLoader.Configuration.acceptHeader(
                    for: configuration.acceptedFormats?() ?? [])
            }
            if headers["User-Agent"] == nil { headers["User-Agent"] = CurlImageLoader.Configuration.defaultUserAgent }
            resolved = headers
            return headers
        }
    }
}
