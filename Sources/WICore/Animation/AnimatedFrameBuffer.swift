import Synchronization

extension ImageCoding {
    /// The frames of an animated image, decoded on demand from an `AnimatedImageDecoder` into a bounded buffer: what an
    /// `Image` decoded without `preloadAllFrames` holds instead of every frame (SDWebImage's animated image with its
    /// `maxBufferSize`).
    ///
    /// The first frame (the poster) is decoded when the buffer is made and kept for its life. Other frames are decoded
    /// when asked for and kept, at most `capacity` of them (`DecodeOptions.frameBufferCapacity(frameBytes:)`); past
    /// that the least recently used frame is dropped. A frame in the buffer is never decoded again, and frames are
    /// decoded one at a time, so two threads asking for the same frame cause one decode. Sequential playback costs one
    /// decoder step per frame (the decoder keeps its state for the next frame); a frame that fails to decode throws
    /// its `ImageError` each time it is asked for, without decoding again.
    ///
    /// ```swift
    /// let buffer = try ImageCoding.AnimatedFrameBuffer(decoder: decoder, capacity: 8)
    /// for index in 0..<buffer.frameCount { show(try buffer.frame(at: index), for: buffer.duration(at: index)) }
    /// ```
    ///
    /// Thread safety: every method may be called from any thread; the buffer and the decoder are used under one lock.
    public final class AnimatedFrameBuffer: Sendable {
        /// The number of frames.
        public let frameCount: Int
        /// How many frames besides the first the buffer keeps at most.
        public let capacity: Int
        /// Bytes of one decoded frame.
        public let frameBytes: Int
        /// Frame 0, decoded up front and always kept.
        public let poster: PixelBuffer
        private let durations: [Double]
        private let decoder: any AnimatedImageDecoder
        private let state: Mutex<State>

        private struct State {
            /// Frames held (never frame 0) and when each was last used.
            var frames: [Int: (pixels: PixelBuffer, used: Int)] = [:]
            /// Frames whose decode failed, with the error.
            var failures: [Int: ImageError] = [:]
            var clock = 0
            var decodes = 1
        }

        /// A buffer over `decoder` keeping at most `capacity` frames besides the first, which it decodes now.
        ///
        /// Errors: the first frame's decode error; `.invalidArgument` for a capacity below 1 or a decoder without frames.
        public init(decoder: any AnimatedImageDecoder, capacity: Int) throws(ImageError) {
            try ArgumentCheck.within(capacity, 1...Int.max, "frame buffer capacity")
            try ArgumentCheck.within(decoder.frameCount, 1...Int.max, "frame count")
            poster = try decoder.frame(at: 0)
            frameCount = decoder.frameCount
            self.capacity = capacity
            frameBytes = poster.byteCount
            durations = (0..<decoder.frameCount).map(decoder.duration(at:))
            self.decoder = decoder
            state = Mutex(State())
        }

        /// Frame `index`, from the buffer or decoded into it. Errors: `.invalidArgument` for an index outside the frames,
        /// the decoder's error for a frame that cannot be decoded (`.badImageData` for damaged data, `.outOfMemory`).
        public func frame(at index: Int) throws(ImageError) -> PixelBuffer {
            guard (0..<frameCount).contains(index) else {
                throw ArgumentCheck.invalid("frame index", "be in 0..<\(frameCount)", String(index))
            }
            if index == 0 { return poster }
            let decoder = self.decoder
            let capacity = self.capacity
            return try state.withLock { state throws(ImageError) -> PixelBuffer in
                state.clock += 1
                if let held = state.frames[index] {
                    state.frames[index] = (held.pixels, state.clock)
                    return held.pixels
                }
                if let failure = state.failures[index] { throw failure }
                let pixels: PixelBuffer
                state.decodes += 1
                do throws(ImageError) {
                    pixels = try decoder.frame(at: index)
                } catch {
                    state.failures[index] = error
                    throw error
                }
                if state.frames.count >= capacity,
                    let oldest = state.frames.min(by: { $0.value.used < $1.value.used })?.key
                {
                    state.frames[oldest] = nil
                }
                state.frames[index] = (pixels, state.clock)
                return pixels
            }
        }

        /// How long frame `index` shows, in seconds (the decoder's value; the browser default outside the frames).
        public func duration(at index: Int) -> Double {
            durations.indices.contains(index) ? durations[index] : ImageFrame.browserDuration(milliseconds: 0)
        }

        /// Every frame's duration, in order.
        public var allDurations: [Double] { durations }

        /// Bytes of the frames held now besides the poster: at most `capacity * frameBytes`.
        public var heldBytes: Int { state.withLock { $0.frames.values.reduce(0) { $0 + $1.pixels.byteCount } } }

        /// The indices of the frames held now besides the poster, ascending.
        public var heldFrames: [Int] { state.withLock { $0.frames.keys.sorted() } }

        /// How many frame decodes the buffer asked its decoder for, the poster's included.
        public var decodeCount: Int { state.withLock { $0.decodes } }

        /// The most bytes the buffer and its decoder keep between calls: the poster, `capacity` frames and the
        /// decoder's own state (`AnimatedImageDecoder.maxHeldBytes`). An image's memory cost.
        public var maxHeldBytes: Int {
            let (frames, overflow) = frameBytes.multipliedReportingOverflow(by: Swift.min(capacity, frameCount - 1))
            guard !overflow else { return .max }
            let (total, over) = (poster.byteCount + frames).addingReportingOverflow(decoder.maxHeldBytes)
            return over ? .max : total
        }

        /// Bytes the decoder keeps now (a compositor's canvas states).
        public var decoderHeldBytes: Int { decoder.heldBytes }
    }
}

extension ImageCoding.AnimatedFrameBuffer {
    /// A buffer over `decoder` sized by `options.frameBufferLimitBytes` for the decoder's frames
    /// (`DecodeOptions.frameBufferCapacity(frameBytes:)`). Errors as for `init(decoder:capacity:)`.
    public convenience init(decoder: any AnimatedImageDecoder, options: DecodeOptions) throws(ImageError) {
        let size = decoder.canvasSize
        let bytesPerPixel = options.keep16Bit ? 8 : 4
        let (frameBytes, overflow) = size.area.multipliedReportingOverflow(by: bytesPerPixel)
        try self.init(decoder: decoder, capacity: options.frameBufferCapacity(frameBytes: overflow ? .max : frameBytes))
    }
}
