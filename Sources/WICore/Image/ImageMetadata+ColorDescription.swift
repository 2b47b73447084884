extension ImageMetadata {
    /// A colour description that is not an ICC profile, as a file states it.
    ///
    /// Thread safety: a value type; safe to send and share.
    public enum ColorDescription: Hashable, Sendable {
        /// sRGB (PNG's sRGB chunk; its rendering intent is not kept).
        case sRGB
        /// A power-law tone curve and primaries (PNG's gAMA and cHRM). `fileGamma` is as PNG stores it (0.45455 for
        /// a 2.2 display gamma); nil means the sRGB curve. `chromaticities` nil means sRGB's primaries and white.
        case calibrated(fileGamma: Double?, chromaticities: Chromaticities?)
        /// ITU-T H.273 code points (PNG's cICP, HEIF's and AVIF's nclx).
        case cicp(CICP)

        /// Whether this description means sRGB (the sRGB chunk, or cICP / nclx code points of sRGB).
        public var isSRGB: Bool {
            switch self {
            case .sRGB: true
            case .cicp(let points): points.isSRGB
            case .calibrated: false
            }
        }
    }

    /// CIE 1931 xy chromaticities of a white point and three primaries.
    ///
    /// Thread safety: a value type; safe to send and share.
    public struct Chromaticities: Hashable, Sendable {
        /// White, red, green and blue x and y.
        public var whiteX, whiteY, redX, redY, greenX, greenY, blueX, blueY: Double

        /// Chromaticities from their eight coordinates.
        public init(
            whiteX: Double, whiteY: Double, redX: Double, redY: Double, greenX: Double, greenY: Double,
            blueX: Double, blueY: Double
        ) {
            (self.whiteX, self.whiteY, self.redX, self.redY) = (whiteX, whiteY, redX, redY)
            (self.greenX, self.greenY, self.blueX, self.blueY) = (greenX, greenY, blueX, blueY)
        }

        /// sRGB's (and BT.709's): D65 white, BT.709 primaries.
        public static let sRGB = Chromaticities(
            whiteX: 0.3127, whiteY: 0.3290, redX: 0.64, redY: 0.33, greenX: 0.30, greenY: 0.60, blueX: 0.15, blueY: 0.06
        )
    }

    /// ITU-T H.273 colour code points: primaries, transfer characteristics, matrix coefficients and range.
    ///
    /// Thread safety: a value type; safe to send and share.
    public struct CICP: Hashable, Sendable {
        /// ColourPrimaries (1 BT.709/sRGB, 9 BT.2020, 11 DCI-P3, 12 Display P3).
        public var primaries: Int
        /// TransferCharacteristics (13 sRGB, 1/6/14/15 BT.709, 8 linear, 16 PQ, 18 HLG).
        public var transfer: Int
        /// MatrixCoefficients (0 for RGB).
        public var matrix: Int
        /// Whether samples use the full range.
        public var fullRange: Bool

        /// A description from its four code points.
        public init(primaries: Int, transfer: Int, matrix: Int, fullRange: Bool) {
            self.primaries = primaries
            self.transfer = transfer
            self.matrix = matrix
            self.fullRange = fullRange
        }

        /// Whether these code points mean sRGB (BT.709 primaries with the sRGB transfer).
        public var isSRGB: Bool { primaries == 1 && transfer == 13 }
    }
}
