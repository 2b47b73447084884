import Foundation
import WICore

/// Checks a progressive coder the way swift-nio's ByteToMessageDecoderVerifier checks a decoder: the same file fed
/// whole, one byte at a time, and in random chunks must end in the same image as a one-shot decode, and every
/// partial image on the way must have the final size and be flagged incremental. Like a real pipeline, it asks for a
/// partial image at most about 256 times per run (after at least 1/256 of the file arrived since the last one).
public enum ProgressiveCoderVerifier {
    /// What one verification saw.
    public struct Report: Sendable {
        /// Partial images produced over all feeding patterns.
        public var partialImages = 0
        /// The distinct feeding patterns run.
        public var runs = 0
    }

    /// A way the verifier found the coder wrong.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Verifies `coder` on `data`. `seed` fixes the random chunking; `chunkRuns` random patterns are tried.
    @discardableResult
    public static func verify(
        _ coder: any ProgressiveImageCoder, data: Data, options: DecodeOptions = .init(),
        seed: UInt64 = 1, chunkRuns: Int = 3
    ) throws -> Report {
        let reference = try coder.decode(data, options: options)
        var report = Report()
        var random = SeededRandom(seed: seed)
        var patterns: [(String, [Int])] = [
            ("whole", [data.count]), ("byte by byte", Array(repeating: 1, count: data.count)),
        ]
        for run in 0..<chunkRuns {
            var sizes: [Int] = []
            var left = data.count
            while left > 0 {
                let size = min(left, Int.random(in: 1...max(1, data.count / 8), using: &random))
                sizes.append(size)
                left -= size
            }
            patterns.append(("random chunks #\(run + 1)", sizes))
        }
        for (name, sizes) in patterns {
            // The pipeline sniffs once it has 64 bytes (or the whole file); feeding still starts at byte 0.
            guard let decoder = coder.makeIncrementalDecoder(header: data.prefix(64), options: options) else {
                throw Failure(description: "\(name): the coder made no incremental decoder")
            }
            var offset = data.startIndex
            var lastPartialAt = offset
            let partialSpacing = max(1, data.count / 256)
            for size in sizes {
                let chunk = data[offset..<offset + size]
                offset += size
                if try decoder.append(Data(chunk)), offset - lastPartialAt >= partialSpacing || offset == data.endIndex
                {
                    lastPartialAt = offset
                    guard let partial = decoder.currentImage() else {
                        throw Failure(description: "\(name): append reported progress but currentImage() is nil")
                    }
                    guard partial.size == reference.size else {
                        throw Failure(
                            description: "\(name): partial image is \(partial.size), final is \(reference.size)")
                    }
                    guard partial.flags.contains(.incremental) else {
                        throw Failure(description: "\(name): partial image not flagged incremental")
                    }
                    report.partialImages += 1
                }
            }
            let final = try decoder.finish()
            guard final.frameCount == reference.frameCount,
                try zip(final.frames, reference.frames).allSatisfy({ $0.pixels == $1.pixels })
            else {
                throw Failure(description: "\(name): the final image differs from a one-shot decode")
            }
            guard !final.flags.contains(.incremental) else {
                throw Failure(description: "\(name): the final image is flagged incremental")
            }
            report.runs += 1
        }
        return report
    }
}
