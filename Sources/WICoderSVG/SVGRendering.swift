#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
import WICairo

/// One SVG decode: parse, size, check the pixel limit, draw, convert.
struct SVGRendering {
    let coder: SVGCoder
    let options: DecodeOptions

    func render(_ data: Data) throws(ImageError) -> Image {
        let parsed: Result<SVGDocument, ImageError> = data.withUnsafeBytes { bytes in
            Result { () throws(ImageError) in try SVGDocument(parsing: bytes, dpi: coder.dpi) }
        }
        let document = try parsed.get()
        let dimensions = document.dimensions
        let natural = naturalSize(of: dimensions)
        let layout: SVGViewportLayout
        let isThumbnail: Bool
        if let box = options.vectorViewport, box.width > 0 || box.height > 0 {
            layout = try SVGViewportLayout(
                box: box, natural: natural, hasViewBox: dimensions.viewBox != nil,
                limitBytes: options.scaleDownLimitBytes)
            isThumbnail = true
        } else {
            let size = try VectorRasterSize(natural: natural, options: options)
            layout = SVGViewportLayout(
                canvas: size.pixels, scale: size.drawingScale, viewport: (0, 0, natural.width, natural.height))
            isThumbnail = size.isThumbnail
        }
        try options.checkPixelLimit(layout.canvas)
        let canvas = try CairoCanvas(size: layout.canvas, premultiplied: options.premultipliedAlpha)
        canvas.scale(x: layout.scale.x, y: layout.scale.y)
        try document.render(on: canvas.context, viewport: layout.viewport)
        if let error = canvas.drawingError { throw error }
        return Image(
            pixels: try canvas.finish(), format: .svg, scale: options.scaleFactor,
            flags: isThumbnail ? [.vector, .thumbnail] : [.vector], decodeOptions: options)
    }

    /// The intrinsic size in CSS pixels. A missing (or relative) width or height follows from the other and the
    /// viewBox's aspect, or equals the other without a viewBox; with neither, the viewBox's own size (user units are
    /// CSS pixels), as rsvg-convert, libvips and CoreSVG size such documents; with no viewBox either, a square of
    /// the coder's `defaultLongSide` (rsvg-convert would measure the drawing's extents, which a decoder that
    /// must size its canvas before drawing cannot do cheaply, and which changes with the content).
    private func naturalSize(of d: SVGDocument.Dimensions) -> (width: Double, height: Double) {
        switch (d.width, d.height) {
        case (let width?, let height?): return (width, height)
        case (let width?, nil): return (width, width / (d.aspect ?? 1))
        case (nil, let height?): return (height * (d.aspect ?? 1), height)
        case (nil, nil):
            if let viewBox = d.viewBox { return viewBox }
            let side = Double(coder.defaultLongSide)
            return (side, side)
        }
    }
}
