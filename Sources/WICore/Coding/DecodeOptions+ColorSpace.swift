extension DecodeOptions {
    /// The colour space decoded pixels are delivered in.
    ///
    /// Thread safety: a value type; safe to send and share.
    public enum TargetColorSpace: String, Hashable, Sendable, CaseIterable {
        /// The file's own colour space: pixels as stored, the ICC profile or colour description kept in
        /// `ImageMetadata` for encoders that can embed it.
        case preserve
        /// sRGB: pixels converted from the file's colour description (perceptual intent, black-point compensation)
        /// and the description dropped; files without one are taken as sRGB already.
        case sRGB
    }
}
