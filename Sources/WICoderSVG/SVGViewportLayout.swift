import WICore

/// How an SVG document is drawn into `DecodeOptions.vectorViewport`, laid out as cairosvg's
/// `svg2png(output_width:output_height:)` lays it out (thumbor's SVG path): the canvas, the scale of the cairo
/// context, and the viewport rectangle handed to librsvg in the scaled space.
///
/// - Both sides given: the canvas is the box. A document with a viewBox gets the whole box as its viewport, and
///   librsvg places the viewBox in it as the document's `preserveAspectRatio` says (by default fitted and centred:
///   letterboxed). A document without one is scaled to fit and centred (cairosvg synthesizes the viewBox
///   `0 0 width height` and places it the same way).
/// - One side given: that side, the other at the document's aspect, rounded half to even (Python's `round`), the
///   document drawn at the given side's scale (a fractional last row partly covered, as cairosvg draws it).
///
/// A byte limit (`scaleDownLimitBytes`) then shrinks the canvas and the drawing with it.
struct SVGViewportLayout {
    /// The output size in pixels.
    var canvas: PixelSize
    /// The scale of the cairo context, across and down, before the document is drawn.
    var scale: (x: Double, y: Double)
    /// The rectangle handed to librsvg, in the scaled space.
    var viewport: (x: Double, y: Double, width: Double, height: Double)

    /// A layout as given (the document's own size, or a thumbnail's, laid out by `VectorRasterSize`).
    init(
        canvas: PixelSize, scale: (x: Double, y: Double),
        viewport: (x: Double, y: Double, width: Double, height: Double)
    ) {
        self.canvas = canvas
        self.scale = scale
        self.viewport = viewport
    }

    /// The layout of a document `natural` CSS pixels large (with or without a viewBox) in `box` (at least one side
    /// above 0); `.pixelLimitExceeded` when a side that follows the aspect is out of range.
    init(box: PixelSize, natural: (width: Double, height: Double), hasViewBox: Bool, limitBytes: Int?)
        throws(ImageError)
    {
        let (width, height) = (Double(box.width), Double(box.height))
        if box.width > 0, box.height > 0 {
            canvas = box
            if hasViewBox {
                scale = (1, 1)
                viewport = (0, 0, width, height)
            } else {
                let s = min(width / natural.width, height / natural.height)
                scale = (s, s)
                viewport = (
                    (width / s - natural.width) / 2, (height / s - natural.height) / 2, natural.width, natural.height
                )
            }
        } else {
            let s = box.width > 0 ? width / natural.width : height / natural.height
            let other = ((box.width > 0 ? natural.height : natural.width) * s).rounded(.toNearestOrEven)
            guard other.isFinite, other < Double(ImageCoding.Geometry.maximumSide) else {
                throw ImageError(
                    .pixelLimitExceeded, "an SVG drawn into \(box) would have a side of \(other) pixels")
            }
            let side = max(1, Int(other))
            canvas =
                box.width > 0 ? PixelSize(width: box.width, height: side) : PixelSize(width: side, height: box.height)
            scale = (s, s)
            viewport = (0, 0, natural.width, natural.height)
        }
        if let limitBytes {
            let limited = ImageCoding.Geometry.scaledSize(of: canvas, limitBytes: limitBytes)
            if limited != canvas {
                scale.x *= Double(limited.width) / Double(canvas.width)
                scale.y *= Double(limited.height) / Double(canvas.height)
                canvas = limited
            }
        }
    }
}
