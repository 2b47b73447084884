/// One frame of an image: its pixels and, for animations, how long it shows.
///
/// Thread safety: a value type; safe to send and share.
public struct ImageFrame: Sendable, Equatable {
    /// The frame's pixels (the full canvas for animations: frames come composited).
    public var pixels: PixelBuffer
    /// How long the frame shows, in seconds (0 for stills).
    public var duration: Double

    public init(pixels: PixelBuffer, duration: Double = 0) {
        self.pixels = pixels
        self.duration = duration
    }

    /// A file's frame delay as browsers play it: delays under 11 ms become 100 ms. Returns seconds.
    public static func browserDuration(milliseconds: Int) -> Double {
        milliseconds < 11 ? 0.1 : Double(milliseconds) / 1000
    }
}
