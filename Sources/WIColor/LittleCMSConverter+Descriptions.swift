internal import CLCMSShim
import WICore

extension LittleCMSConverter {
    /// The lcms colour space of a non-ICC description; nil when it needs no conversion (sRGB) or has a tone curve
    /// or primaries this converter does not build (PQ, HLG, unknown code points).
    static func space(for description: ImageMetadata.ColorDescription) -> wi_lcms_rgb_space? {
        switch description {
        case .sRGB:
            return nil
        case .calibrated(let fileGamma, let chromaticities):
            // PNG's gAMA is the encoding exponent: samples decode as sample^(1 / gamma).
            let curve: (Int32, [Double]) =
                if let fileGamma, fileGamma > 0, fileGamma.isFinite { (1, [1 / fileGamma]) } else { srgbCurve }
            return space(chromaticities ?? .sRGB, curve: curve)
        case .cicp(let points):
            guard !points.isSRGB, let primaries = primaries(points.primaries), let curve = curve(points.transfer)
            else { return nil }
            return space(primaries, curve: curve)
        }
    }

    /// IEC 61966-2-1's curve as lcms's parametric type 4.
    private static let srgbCurve: (Int32, [Double]) = (4, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])

    private static func space(_ c: ImageMetadata.Chromaticities, curve: (Int32, [Double])) -> wi_lcms_rgb_space? {
        let values = [c.whiteX, c.whiteY, c.redX, c.redY, c.greenX, c.greenY, c.blueX, c.blueY]
        guard values.allSatisfy({ $0.isFinite && $0 > 0 && $0 < 1 }) else { return nil }
        var space = wi_lcms_rgb_space()
        (space.white_x, space.white_y, space.red_x, space.red_y) = (c.whiteX, c.whiteY, c.redX, c.redY)
        (space.green_x, space.green_y, space.blue_x, space.blue_y) = (c.greenX, c.greenY, c.blueX, c.blueY)
        space.curve_type = curve.0
        let parameters = curve.1 + Array(repeating: 0, count: 5 - curve.1.count)
        space.curve = (parameters[0], parameters[1], parameters[2], parameters[3], parameters[4])
        return space
    }

    /// H.273 ColourPrimaries this converter knows.
    private static func primaries(_ code: Int) -> ImageMetadata.Chromaticities? {
        switch code {
        case 1: .sRGB
        case 9:
            ImageMetadata.Chromaticities(
                whiteX: 0.3127, whiteY: 0.3290, redX: 0.708, redY: 0.292, greenX: 0.170, greenY: 0.797,
                blueX: 0.131, blueY: 0.046)
        case 11, 12:
            ImageMetadata.Chromaticities(
                whiteX: code == 11 ? 0.314 : 0.3127, whiteY: code == 11 ? 0.351 : 0.3290, redX: 0.680, redY: 0.320,
                greenX: 0.265, greenY: 0.690, blueX: 0.150, blueY: 0.060)
        default: nil
        }
    }

    /// H.273 TransferCharacteristics this converter knows, as lcms parametric curves (decoding direction).
    private static func curve(_ code: Int) -> (Int32, [Double])? {
        switch code {
        case 13: srgbCurve
        // BT.709's OETF, inverted: ((V + 0.099) / 1.099)^(1 / 0.45) above 0.081, V / 4.5 below.
        case 1, 6, 14, 15: (4, [1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081])
        case 4: (1, [2.2])
        case 5: (1, [2.8])
        case 8: (1, [1])
        default: nil
        }
    }
}
