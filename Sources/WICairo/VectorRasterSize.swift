import WICore

/// The pixel size a vector document (SVG, a PDF page) is rasterized at, shared by the vector coders.
package struct VectorRasterSize: Equatable {
    /// The output size in pixels.
    package var pixels: PixelSize
    /// Whether a thumbnail box or byte limit chose the size (the image is flagged `.thumbnail`).
    package var isThumbnail: Bool
    /// Device pixels per document unit, across and down: the scale to draw the document at. At the natural size it
    /// is `scaleFactor` both ways, so a fractional size (16.07 units) is drawn at its own scale into the canvas
    /// rounded up (17 pixels, the last row partly covered), as rsvg-convert and pdftoppm do, not stretched to
    /// fill it; a thumbnail box or byte limit fills the canvas exactly (each side's pixels over its units).
    package var drawingScale: (x: Double, y: Double)

    package static func == (a: Self, b: Self) -> Bool {
        a.pixels == b.pixels && a.isThumbnail == b.isThumbnail && a.drawingScale == b.drawingScale
    }

    /// The size for a document `natural` units wide and high (CSS pixels, PDF points), by the options' rules:
    /// a thumbnail box is filled exactly, the aspect fitted inside it (scaled up
    /// or down: vectors have no resolution to exceed) or stretched to it when `preserveAspectRatio` is false, a box
    /// dimension of 0 leaving that side free; else the natural size times `scaleFactor`, rounded up. The byte limit
    /// then caps the result (aspect kept).
    package init(natural: (width: Double, height: Double), options: DecodeOptions) throws(ImageError) {
        let scale = options.scaleFactor.isFinite && options.scaleFactor > 0 ? options.scaleFactor : 1
        let full = try Self.whole(natural.width * scale, natural.height * scale, rounding: .up)
        var size = full
        var isThumbnail = false
        if let box = options.thumbnailPixelSize, box.width > 0 || box.height > 0 {
            isThumbnail = true
            if !options.preserveAspectRatio && box.width > 0 && box.height > 0 {
                size = box
            } else {
                let ratios = [
                    box.width > 0 ? Double(box.width) / natural.width : nil,
                    box.height > 0 ? Double(box.height) / natural.height : nil,
                ].compactMap { $0 }
                let ratio = ratios.min() ?? 1
                size = try Self.whole(natural.width * ratio, natural.height * ratio, rounding: .toNearestOrAwayFromZero)
                if box.width > 0 { size.width = min(size.width, box.width) }
                if box.height > 0 { size.height = min(size.height, box.height) }
            }
        }
        if let limit = options.scaleDownLimitBytes {
            let limited = ImageCoding.Geometry.scaledSize(of: size, limitBytes: limit)
            if limited != size { isThumbnail = true }
            size = limited
        }
        pixels = size
        self.isThumbnail = isThumbnail
        drawingScale =
            isThumbnail
            ? (Double(size.width) / natural.width, Double(size.height) / natural.height)
            : (scale, scale)
    }

    /// Whole pixels, at least 1x1; `.pixelLimitExceeded` beyond what an `Int` or cairo (32767 a side) holds.
    private static func whole(_ width: Double, _ height: Double, rounding: FloatingPointRoundingRule)
        throws(ImageError) -> PixelSize
    {
        let w = width.rounded(rounding)
        let h = height.rounded(rounding)
        guard w.isFinite, h.isFinite, w < 1e9, h < 1e9 else {
            throw ImageError(.pixelLimitExceeded, "a raster size of \(width)x\(height) pixels is out of range")
        }
        return PixelSize(width: max(1, Int(w)), height: max(1, Int(h)))
    }
}
