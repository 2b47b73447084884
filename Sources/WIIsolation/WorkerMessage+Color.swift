import WICore

/// A colour description in a reply: a kind byte (0 none, 1 sRGB, 2 calibrated, 3 CICP), then its fields.
extension MessageWriter {
    mutating func colorDescription(_ description: ImageMetadata.ColorDescription?) {
        switch description {
        case nil:
            u8(0)
        case .sRGB:
            u8(1)
        case .calibrated(let gamma, let chromaticities):
            u8(2)
            f64(gamma ?? -1)
            let c = chromaticities
            bool(c != nil)
            for value in [c?.whiteX, c?.whiteY, c?.redX, c?.redY, c?.greenX, c?.greenY, c?.blueX, c?.blueY] {
                f64(value ?? 0)
            }
        case .cicp(let points):
            u8(3)
            for value in [points.primaries, points.transfer, points.matrix] { i64(value) }
            bool(points.fullRange)
        }
    }
}

extension MessageReader {
    mutating func colorDescription() throws(ImageError) -> ImageMetadata.ColorDescription? {
        switch try u8() {
        case 0:
            return nil
        case 1:
            return .sRGB
        case 2:
            let gamma = try f64()
            let hasChromaticities = try bool()
            var v: [Double] = []
            for _ in 0..<8 { v.append(try f64()) }
            let chromaticities = ImageMetadata.Chromaticities(
                whiteX: v[0], whiteY: v[1], redX: v[2], redY: v[3], greenX: v[4], greenY: v[5], blueX: v[6], blueY: v[7]
            )
            return .calibrated(
                fileGamma: gamma < 0 ? nil : gamma, chromaticities: hasChromaticities ? chromaticities : nil)
        case 3:
            let primaries = try i64()
            let transfer = try i64()
            let matrix = try i64()
            return .cicp(.init(primaries: primaries, transfer: transfer, matrix: matrix, fullRange: try bool()))
        case let kind:
            throw ImageError(.badImageData, "the worker replied with colour description kind \(kind)")
        }
    }
}
