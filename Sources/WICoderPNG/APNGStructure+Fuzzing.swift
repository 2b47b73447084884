#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// The APNG chunk reader, reachable from the fuzz targets in Fuzz/ (a separate package) without widening the public
/// API: `@_spi(Fuzzing) import WICoderPNG`.
@_spi(Fuzzing)
public enum APNGChunkReader {
    /// Reads the animation chunks of `data`: the number of complete frames, or nil when it is not an APNG or its
    /// animation is invalid (the default image is then a still). Throws `.badImageData` with the reason for an
    /// invalid animation, so that fuzzing sees every path.
    ///
    /// Thread safety: a pure function; callable from any thread.
    public static func frameCount(in data: Data) throws(ImageError) -> Int? {
        if let invalid = APNGStructure.validate(data) { throw invalid }
        return APNGStructure.read(data)?.frames.count
    }
}
