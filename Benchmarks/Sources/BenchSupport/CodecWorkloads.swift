import Foundation
import WebImage

/// Decode and transform workloads over several files that also count what they produced, so that a run that
/// decodes nothing (or the wrong thing) cannot pass for a fast one: `Benchmarks/compare` checks the counts of
/// every side of a row against each other.
public enum CodecWorkloads {
    /// What one pass produced: the number of frames and the sum of width x height over them.
    public struct Counts: Equatable, Sendable {
        public var frames = 0
        public var pixels = 0

        public init() {}

        /// Counts every frame of `image`, decoding frames an animation decodes on demand.
        mutating func add(_ image: Image) throws(ImageError) {
            frames += image.frameCount
            pixels += try image.frames.reduce(0) { $0 + $1.pixels.width * $1.pixels.height }
        }
    }

    /// Fully decodes every file (all frames of animated ones, composited, RGBA8).
    public static func decodeAll(_ files: [Data]) throws(ImageError) -> Counts {
        var counts = Counts()
        for data in files { try counts.add(try Workloads.decode(data)) }
        return counts
    }

    /// Decodes every file to a thumbnail that fits in `size` x `size`.
    public static func thumbnailAll(
        _ files: [Data], size: Int, colorSpace: DecodeOptions.TargetColorSpace = .preserve
    ) throws(ImageError) -> Counts {
        var counts = Counts()
        for data in files { try counts.add(try Workloads.thumbnail(data, size: size, colorSpace: colorSpace)) }
        return counts
    }

    /// The transforms the Transform area measures, on an already decoded image.
    public enum Transform: Sendable {
        /// Resize to exactly `width` x `height`.
        case resize(width: Int, height: Int)
        /// Gaussian-like blur of `radius` pixels.
        case blur(radius: Double)

        /// The transformer doing it; `.invalidArgument` for an out-of-range size or radius.
        public func transformer() throws(ImageError) -> any ImageTransformer {
            switch self {
            case .resize(let width, let height): try ResizeTransformer(width: width, height: height)
            case .blur(let radius): try BlurTransformer(radius: radius)
            }
        }
    }

    /// Decodes `path` once, as the input of a transform workload.
    public static func transformInput(_ path: String) throws(ImageError) -> Image {
        try Workloads.decode(BenchPaths.read(path))
    }
}
