import Foundation
import WICore

extension DataMutations {
    /// What decoding a set of damaged inputs gave.
    public struct Survey: Sendable {
        /// Inputs that decoded to an image of at least 1x1.
        public var decoded = 0
        /// Inputs that failed with an allowed error code.
        public var failed = 0
        /// Anything else (another error code, an empty image), described.
        public var unexpected: [String] = []
        /// The longest single decode, in the process's CPU time (every thread's: a decoder's own threads count),
        /// which other work on the machine does not stretch as it stretches wall time.
        public var slowest: Duration = .zero
    }

    /// Decodes every input with `decode`, expecting an image or an error whose code is in `allowed`, and times each
    /// in CPU time (a bound on wall time flaked when other builds shared the cores).
    /// Every frame of an animation decoded on demand is asked for too (a later frame may fail the same way), so
    /// damage after the first frame is exercised as it was when coders decoded every frame up front.
    ///
    /// ```swift
    /// let survey = DataMutations.survey(DataMutations.bitFlipped(data)) { try coder.decode($0, options: .init()) }
    /// #expect(survey.unexpected == [] && survey.slowest < .seconds(1))
    /// ```
    public static func survey(
        _ inputs: [Data], allowing allowed: Set<ImageError.Code> = [.badImageData, .pixelLimitExceeded],
        decode: (Data) throws(ImageError) -> Image
    ) -> Survey {
        var survey = Survey()
        for (index, input) in inputs.enumerated() {
            let started = processCPUTime()
            do {
                let image = try decode(input)
                if image.frameBuffer != nil { for frame in 1..<image.frameCount { _ = try image.frame(at: frame) } }
                if image.width > 0 && image.height > 0 {
                    survey.decoded += 1
                } else {
                    survey.unexpected.append("#\(index): empty image")
                }
            } catch {
                if allowed.contains(error.code) {
                    survey.failed += 1
                } else {
                    survey.unexpected.append("#\(index): \(error)")
                }
            }
            survey.slowest = max(survey.slowest, processCPUTime() - started)
        }
        return survey
    }

    /// The CPU time every thread of this process has used so far: what the robustness tests bound a damaged
    /// input's decode by (one at a time, `--no-parallel`), so that other processes on the cores cannot fail them.
    public static func processCPUTime() -> Duration {
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
    }
}
