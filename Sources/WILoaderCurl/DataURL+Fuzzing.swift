#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The data: URL parser, reachable from the fuzz targets in Fuzz/ (a separate package) without widening the public
/// API: `@_spi(Fuzzing) import WILoaderCurl`.
@_spi(Fuzzing)
public enum DataURLParser {
    /// The media type and bytes of the data: URL `string`, or nil when it is not well-formed.
    ///
    /// Thread safety: a pure function; callable from any thread.
    public static func parse(_ string: String) -> (mediaType: String, data: Data)? {
        DataURL(string).map { ($0.mediaType, $0.data) }
    }
}
