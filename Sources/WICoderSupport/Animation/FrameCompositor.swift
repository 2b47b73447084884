import WICore

extension ImageCoding {
    /// Plays an animation's frames onto a canvas: disposal (none, background, previous) and blending (source, over),
    /// producing full-canvas, straight-alpha RGBA8 frames in any order.
    ///
    /// The canvas starts fully transparent, as in browsers. Frame N needs the canvas as frames 0..<N left it; the
    /// compositor keeps a few keyframes (canvas states before a frame draws) so that random access replays at most
    /// about `frameCount / maxKeyframes` frames, and it knows without decoding which frames start from a clear
    /// canvas (after a full-canvas clear) or hide everything below them. Playing frames in order costs one draw each.
    ///
    /// ```swift
    /// var compositor = try ImageCoding.FrameCompositor(canvasSize: size, frames: infos)
    /// let third = try compositor.frame(at: 2) { index throws(ImageError) in try decodeFramePixels(index) }
    /// ```
    ///
    /// Thread safety: a value type with mutating methods; use one compositor from one thread at a time (wrap it in a
    /// lock to share it, as `ImageCoding.CompositedAnimationDecoder` does).
    public struct FrameCompositor: Sendable {
        /// The canvas size of every frame produced.
        public let canvasSize: PixelSize
        /// The frames, as given.
        public private(set) var frames: [ImageCoding.AnimationFrameInfo]
        /// Every how many frames a canvas state is kept while replaying (doubles when more frames arrive than the
        /// keyframe budget covers).
        public private(set) var keyframeInterval: Int
        /// The most canvas states kept at once.
        public let maxKeyframes: Int

        /// Whether frame i starts from a fully transparent canvas (known from the frame layout alone).
        private var startsClear: [Bool]
        /// Canvas states before frame i draws (after frame i-1's disposal), kept every `keyframeInterval` frames.
        private var keyframes: [Int: PixelBuffer] = [:]
        /// The canvas state before frame `next.index` draws, left by the last call (sequential playback).
        private var next: (index: Int, canvas: PixelBuffer)?

        /// A compositor for `frames` on a canvas of `canvasSize`, keeping at most about `maxKeyframes` canvas states.
        ///
        /// Throws `.badImageData` when a frame's rectangle is not inside the canvas, and `.invalidArgument` when
        /// `maxKeyframes` is outside 1...`maximumKeyframes`.
        public init(canvasSize: PixelSize, frames: [ImageCoding.AnimationFrameInfo], maxKeyframes: Int = 32)
            throws(ImageError)
        {
            try ArgumentCheck.within(maxKeyframes, 1...Self.maximumKeyframes, "maxKeyframes")
            self.canvasSize = canvasSize
            self.frames = []
            self.startsClear = []
            self.maxKeyframes = maxKeyframes
            self.keyframeInterval = Swift.max(4, (frames.count + self.maxKeyframes - 1) / self.maxKeyframes)
            try appendFrames(frames)
        }

        /// Bytes of the canvas states kept now: the keyframes and the canvas for the next frame.
        public var heldBytes: Int {
            keyframes.values.reduce(next?.canvas.byteCount ?? 0) { $0 + $1.byteCount }
        }

        /// The most bytes of canvas states kept between calls: `maxKeyframes` keyframes and the next frame's canvas.
        public var maxHeldBytes: Int {
            let (bytes, overflow) = canvasSize.area.multipliedReportingOverflow(by: 4 * (maxKeyframes + 1))
            return overflow ? .max : bytes
        }

        /// The most canvas states a compositor may be asked to keep: 65536.
        public static let maximumKeyframes = 1 << 16

        private static func validate(
            _ frames: [ImageCoding.AnimationFrameInfo], on canvasSize: PixelSize, firstIndex: Int
        )
            throws(ImageError)
        {
            for (offset, frame) in frames.enumerated() where !frame.isEmpty {
                guard frame.x >= 0, frame.y >= 0, frame.x + frame.width <= canvasSize.width,
                    frame.y + frame.height <= canvasSize.height
                else {
                    throw ImageError(
                        .badImageData,
                        "frame \(firstIndex + offset) (\(frame.width)x\(frame.height) at "
                            + "\(frame.x),\(frame.y)) is outside the \(canvasSize) canvas")
                }
            }
        }

        /// Whether the frame after `previous` starts from a clear canvas, given whether `previous` did.
        private static func startsClear(after previous: ImageCoding.AnimationFrameInfo, clear: Bool, canvas: PixelSize)
            -> Bool
        {
            switch previous.disposal {
            case .none: false
            case .background: clear || previous.covers(canvas)
            case .previous: clear
            }
        }

        /// Frame `index` composited onto the full canvas (RGBA8, straight alpha); `.invalidArgument` for an index
        /// outside the frames.
        ///
        /// `decode` returns a frame's own pixels: exactly its rectangle's size, RGBA8 straight alpha. It is called only
        /// for the frames that must be replayed; errors it throws are passed on.
        public mutating func frame(at index: Int, decode: (Int) throws(ImageError) -> PixelBuffer)
            throws(ImageError) -> PixelBuffer
        {
            try frame(at: index) { position, info, canvas throws(ImageError) in
                try Self.draw(decode(position), frame: position, info: info, onto: &canvas)
            }
        }

        /// Frame `index` composited onto the full canvas (RGBA8, straight alpha), each replayed frame drawn in place.
        ///
        /// `draw` draws frame `position` (its rectangle `info`, never empty) onto the canvas as
        /// `ImageCoding.AnimationFrameSource.draw(frame:info:onto:)` describes: inside the rectangle only, with `info.blend`. It is
        /// called only for the frames that must be replayed; errors it throws are passed on.
        public mutating func frame(
            at index: Int,
            drawing draw: (_ position: Int, _ info: ImageCoding.AnimationFrameInfo, _ canvas: inout PixelBuffer)
                throws(ImageError) -> Void
        )
            throws(ImageError) -> PixelBuffer
        {
            guard frames.indices.contains(index) else {
                throw ArgumentCheck.invalid("frame index", "be in 0..<\(frames.count)", String(index))
            }
            var (position, canvas, standIn) = try startingPoint(for: index)
            while true {
                try WorkerPool.checkCancellation()
                let info = frames[position]
                var output = canvas
                if !info.isEmpty { try draw(position, info, &output) }
                if standIn && info.disposal == .previous {
                    // Started on a stand-in canvas under a frame that hides it: the output is right, but the canvas
                    // this frame restores is unknown, so nothing is kept.
                    next = nil
                    return output
                }
                standIn = false
                let following = try disposed(output, before: canvas, by: info)
                // A state past the last frame is kept too: an incremental decoder appends frames after it.
                if (position + 1) % keyframeInterval == 0, position + 1 == frames.count || !startsClear[position + 1] {
                    keep(following, before: position + 1)
                }
                if position == index {
                    next = (position + 1, following)  // also valid for frames appended later
                    return output
                }
                canvas = following
                position += 1
            }
        }

        /// Draws frame `position`'s own `pixels` (its rectangle's size, RGBA8) onto `canvas` at `info` with its blend.
        static func draw(
            _ pixels: PixelBuffer, frame position: Int, info: ImageCoding.AnimationFrameInfo,
            onto canvas: inout PixelBuffer
        ) throws(ImageError) {
            guard pixels.width == info.width, pixels.height == info.height else {
                throw ImageError(
                    .badImageData, "frame \(position) decoded to \(pixels.size), expected \(info.width)x\(info.height)")
            }
            try canvas.draw(try pixels.converted(to: .rgba8), at: info, blend: info.blend)
        }

        /// Adds frames at the end (an incremental decoder learning of frames as they arrive); what is kept for the
        /// earlier frames stays valid, so showing each new frame costs one draw.
        ///
        /// Throws `.badImageData` when a frame's rectangle is not inside the canvas.
        public mutating func appendFrames(_ more: [ImageCoding.AnimationFrameInfo]) throws(ImageError) {
            try Self.validate(more, on: canvasSize, firstIndex: frames.count)
            for frame in more {
                let index = frames.count
                frames.append(frame)
                startsClear.append(
                    index == 0
                        ? true
                        : Self.startsClear(
                            after: frames[index - 1], clear: startsClear[index - 1],
                            canvas: canvasSize))
            }
        }

        /// Keeps a canvas state; past the budget, every other one goes and the interval doubles.
        private mutating func keep(_ canvas: PixelBuffer, before index: Int) {
            keyframes[index] = canvas
            while keyframes.count > maxKeyframes {
                keyframeInterval *= 2
                let interval = keyframeInterval
                keyframes = keyframes.filter { $0.key % interval == 0 }
            }
        }

        /// The latest frame at or before `index` whose canvas state is known without replaying, and that state.
        /// `standIn` is true when the state is a transparent stand-in under a frame that hides the whole canvas.
        private func startingPoint(for index: Int) throws(ImageError) -> (Int, PixelBuffer, standIn: Bool) {
            var position = index
            var standIn = false
            while position > 0 {
                if let next, next.index == position { return (position, next.canvas, false) }
                if let kept = keyframes[position] { return (position, kept, false) }
                if startsClear[position] { break }
                // A frame that hides the whole canvas does not depend on it, unless its disposal restores it later.
                let info = frames[position]
                if info.covers(canvasSize), info.blend == .source || info.isOpaque,
                    position == index || info.disposal != .previous
                {
                    standIn = true
                    break
                }
                position -= 1
            }
            return (
                position, try PixelBuffer(width: canvasSize.width, height: canvasSize.height, format: .rgba8), standIn
            )
        }

        /// The canvas the next frame starts from, after `info`'s disposal of `output` (`before`: the canvas before it drew).
        private func disposed(_ output: PixelBuffer, before: PixelBuffer, by info: ImageCoding.AnimationFrameInfo)
            throws(ImageError) -> PixelBuffer
        {
            switch info.disposal {
            case .none: return output
            case .previous: return before
            case .background:
                var cleared = output
                if !info.isEmpty { try cleared.clear(info) }
                return cleared
            }
        }
    }
}
