import WICore

extension ImageCoding {
    /// Where one animation frame draws on the canvas and what happens to it afterwards: the common model of GIF
    /// frames and APNG `fcTL` chunks that `ImageCoding.FrameCompositor` plays.
    ///
    /// ```swift
    /// let info = ImageCoding.AnimationFrameInfo(x: 0, y: 0, width: 16, height: 16, disposal: .background, blend: .over,
    ///                               duration: 0.1)
    /// ```
    ///
    /// Thread safety: a value type; safe to send and share.
    public struct AnimationFrameInfo: Hashable, Sendable {
        /// What happens to the frame's rectangle once the frame has been shown, before the next frame draws.
        public enum Disposal: Hashable, Sendable {
            /// Leave the canvas as the frame left it (GIF 0/1, APNG `NONE`).
            case none
            /// Clear the frame's rectangle to transparent (GIF 2 as browsers do it, APNG `BACKGROUND`).
            case background
            /// Restore the canvas to what it was before the frame drew (GIF 3, APNG `PREVIOUS`).
            case previous
        }

        /// How the frame's pixels combine with the canvas under them.
        public enum Blend: Hashable, Sendable {
            /// Replace the rectangle's pixels, alpha included (APNG `SOURCE`).
            case source
            /// Draw over the canvas with straight alpha ("source over"; GIF transparency, APNG `OVER`).
            case over
        }

        /// The frame's rectangle on the canvas, in pixels; it must lie inside the canvas. An empty rectangle (width or
        /// height 0) draws nothing but still shows for `duration`.
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int
        /// What happens after the frame shows.
        public var disposal: Disposal
        /// How the frame draws.
        public var blend: Blend
        /// How long the composited frame shows, in seconds (use `ImageFrame.browserDuration(milliseconds:)`).
        public var duration: Double
        /// Whether every pixel the frame delivers is opaque (a GIF frame without a transparent index, for example).
        /// Only a hint for `ImageCoding.FrameCompositor`'s keyframes: a frame that covers the canvas opaquely does not depend on
        /// the frames before it. Leave it false when unsure.
        public var isOpaque: Bool

        public init(
            x: Int, y: Int, width: Int, height: Int, disposal: Disposal = .none, blend: Blend = .over,
            duration: Double = 0.1, isOpaque: Bool = false
        ) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
            self.disposal = disposal
            self.blend = blend
            self.duration = duration
            self.isOpaque = isOpaque
        }

        /// Whether the rectangle draws nothing.
        public var isEmpty: Bool { width <= 0 || height <= 0 }

        /// Whether the rectangle covers a canvas of `size` entirely.
        public func covers(_ size: PixelSize) -> Bool {
            x <= 0 && y <= 0 && x + width >= size.width && y + height >= size.height
        }
    }
}
