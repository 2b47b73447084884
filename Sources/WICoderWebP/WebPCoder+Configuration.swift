extension WebPCoder {
    /// Encoder settings beyond `EncodeOptions`, fixed when the coder is made.
    ///
    /// ```swift
    /// let coder = WebPCoder(configuration: .init(method: 6, nearLossless: 60, exactColorUnderAlpha: true))
    /// ```
    ///
    /// Thread safety: a value type; safe to send and share.
    public struct Configuration: Hashable, Sendable {
        /// Effort, 0 (fastest) to 6 (smallest files, slowest); libwebp's default 4.
        public var method: Int
        /// Near-lossless preprocessing for lossless encodes, 0 (strongest) to 100 (off); nil leaves it off.
        /// Used only when `EncodeOptions.lossless` is set.
        public var nearLossless: Int?
        /// Quality of the alpha plane in lossy encodes, 0 to 100 (100, lossless alpha, by default).
        public var alphaQuality: Int
        /// Keep the RGB values of fully transparent pixels (true) or let libwebp simplify them for a smaller file
        /// (false). nil, the default: kept for lossless encodes, so that they give back exactly the pixels that went
        /// in, and simplified for lossy and near-lossless ones (libwebp 1.2.4 turns near-lossless off when exact).
        public var exactColorUnderAlpha: Bool?
        /// Animated encode: the largest distance between key frames (1 makes every frame a key frame);
        /// nil keeps libwebp's default (5 lossy, 17 lossless).
        public var keyframeInterval: Int?
        /// Animated encode: let libwebp choose lossy or lossless per frame, whichever is smaller.
        public var allowMixed: Bool

        /// Settings with libwebp's defaults; out-of-range values are clamped (method 0...6, near-lossless and alpha
        /// quality 0...100, key frame interval at least 1).
        public init(
            method: Int = 4, nearLossless: Int? = nil, alphaQuality: Int = 100,
            exactColorUnderAlpha: Bool? = nil, keyframeInterval: Int? = nil, allowMixed: Bool = false
        ) {
            self.method = min(6, max(0, method))
            self.nearLossless = nearLossless.map { min(100, max(0, $0)) }
            self.alphaQuality = min(100, max(0, alphaQuality))
            self.exactColorUnderAlpha = exactColorUnderAlpha
            self.keyframeInterval = keyframeInterval.map { max(1, $0) }
            self.allowMixed = allowMixed
        }
    }
}
